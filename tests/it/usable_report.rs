//! `regtrack report`: the periodic report mail on the bundled corpus, as of
//! a past date: an RFC 5322 message, lines of at most 72 columns (a link
//! alone on its line may be longer), the sections in order, each entry with
//! its culprit, metric, link and people.

use crate::common::Cmd;
use crate::usable_links::corpus_db;

fn report(db: &std::path::Path, extra: &[&str]) -> crate::common::Run {
    Cmd::regtrack()
        .db(db)
        .args(["report", "--now", "2024-03-31", "--since", "30d"])
        .args(extra)
        .run()
}

#[test]
fn the_report_is_a_mail_with_its_sections_and_entries() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let run = report(
        &db,
        &[
            "--to",
            "linux-ext4@vger.kernel.org",
            "--from",
            "Jane Doe <jane@example.org>",
        ],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    let text = &run.stdout;
    let (head, body) = text.split_once("\n\n").expect("a header block");
    let field = |name: &str| {
        head.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}: ")))
            .unwrap_or_else(|| panic!("no {name}: in {head}"))
    };
    assert_eq!(field("From"), "\"Jane Doe\" <jane@example.org>");
    assert_eq!(field("To"), "<linux-ext4@vger.kernel.org>");
    assert!(chrono::DateTime::parse_from_rfc2822(field("Date")).is_ok());
    assert!(field("Subject").starts_with("Performance regressions report for 2024-03-31"));
    assert!(field("Message-ID").starts_with("<regtrack-report.20240331235959."));
    assert!(field("Message-ID").ends_with("@example.org>"));
    assert!(text.is_ascii() || field("Content-Type").contains("utf-8"));
    for l in body.lines() {
        let n = l.chars().count();
        assert!(
            n <= 72 || (l.trim_start().starts_with("https://") && !l.trim().contains(' ')),
            "{n} columns: {l}"
        );
        assert!(!l.chars().any(|c| c.is_control()), "{l:?}");
    }
    let at = |s: &str| body.find(s).unwrap_or_else(|| panic!("no '{s}' in {body}"));
    let (new, open, applied, fixed, imp) = (
        at("== New in this period (0) =="),
        at("== Still open, oldest first (14) =="),
        at("== Fix applied, not released yet (2) =="),
        at("== Fixed in this period (0) =="),
        at("== Improvements =="),
    );
    assert!(new < open && open < applied && applied < fixed && fixed < imp);
    // Still open, oldest first: the 2014 report before the 2024 one.
    let old = at("* 5507231dd04d mempolicy: apply page table walker");
    let young = at("* 5d3a0d5b1c3d ext4: Speedup ext4 orphan inode handling");
    assert!(open < old && old < young && young < applied);
    assert!(body[old..].starts_with(
        "* 5507231dd04d mempolicy: apply page table walker on queue_pages_range()\n    vm-scalability.migrate_mbps -18.2%; mempolicy; reported 2014-06-26,\n    3566 days ago; reported\n    missing: no reply\n    https://lore.kernel.org/all/53AB0001.2040506@intel.com/\n    on it: Jet Chen\n"
    ), "{}", &body[old..]);
    // The applied fix: its commit's page, the report's, who is on it.
    let e = &body[at("* 5e1f2a3b4c5d")..fixed];
    assert!(e.contains("fsmark.files_per_sec -12.3%"), "{e}");
    assert!(
        e.contains("https://git.kernel.org/torvalds/c/0badc0ffee1234567890abcdef1234567890abcd")
    );
    assert!(e.contains("https://lore.kernel.org/all/202403151023.5e1f2a3b-lkp@intel.com/"));
    assert!(
        e.contains("on it: Jan Kara, Oliver Sang, Theodore Ts'o"),
        "{e}"
    );
    assert!(!body.contains("on it: kernel test robot"));
}

#[test]
fn text_alone_filters_and_nothing_to_report() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let run = report(&db, &["--format", "text", "--subsystem", "xfs"]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("Performance regressions of xfs reported"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("\nSubject:"));
    assert!(run.stdout.contains("* 2edf06a50f"));
    assert!(
        !run.stdout.contains("5e1f2a3b4c5d"),
        "an ext4 regression in the xfs report"
    );
    let none = report(&db, &["--subsystem", "no-such-subsystem"]);
    assert_eq!(none.code(), Some(1));
    let bad = report(&db, &["--since", "last tuesday"]);
    assert_eq!(bad.code(), Some(2));
    assert!(bad.stderr.contains("--since"), "{}", bad.stderr);
}

/// A report whose Message-ID is 2,000 characters long, to put a line of
/// more than 998 octets into the report's body.
fn long_id_report(dir: &std::path::Path) -> std::path::PathBuf {
    let id = format!("{}@intel.com", "x".repeat(2000));
    let p = dir.join("long.mbox");
    std::fs::write(
        &p,
        format!(
            "From lkp@intel.com Mon Mar 25 00:00:00 2024\nFrom: kernel test robot <oliver.sang@intel.com>\n\
             Date: Mon, 25 Mar 2024 10:00:00 +0800\n\
             Subject: [linus:master] [xfs]  abcdef1234:  fsmark.files_per_sec -5.7% regression\n\
             Message-ID: <{id}>\n\n\
             Hello,\n\nkernel test robot noticed a -5.7% regression of fsmark.files_per_sec on:\n\n\n\
             commit: abcdef1234567890abcdef1234567890abcdef12 (\"xfs: do a thing\")\n\
             https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git master\n"
        ),
    )
    .unwrap();
    p
}

#[test]
fn the_report_mail_keeps_mail_line_limits_and_encodes_names() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .arg(long_id_report(dir.path()))
        .run()
        .assert_no_panic();
    let run = report(
        &db,
        &[
            "--from",
            "Jörg Müller <jm@example.org> (at work)",
            "--to",
            "Zoë <z@example.org>",
        ],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    let text = &run.stdout;
    assert!(
        text.lines().all(|l| l.len() <= 998),
        "a line over 998 octets"
    );
    let (head, body) = text.split_once("\n\n").unwrap();
    assert!(head.is_ascii(), "{head}");
    assert!(
        head.contains("Content-Transfer-Encoding: quoted-printable"),
        "{head}"
    );
    assert!(head.contains("@example.org>\n"), "{head}");
    assert!(!head.contains('?') || head.contains("=?utf-8?"), "{head}");
    // Read back as mail, the names and the long link are whole again.
    let parsed = mail_parser::MessageParser::new()
        .parse(text.as_bytes())
        .unwrap();
    let from = parsed.from().unwrap().first().unwrap();
    assert!(from.name().unwrap().starts_with("Jörg Müller"), "{from:?}");
    assert_eq!(from.address(), Some("jm@example.org"));
    assert_eq!(parsed.to().unwrap().first().unwrap().name(), Some("Zoë"));
    assert!(parsed.message_id().unwrap().ends_with("@example.org"));
    let decoded = parsed.body_text(0).unwrap();
    assert!(decoded.contains(&"x".repeat(2000)), "the long id is whole");
    assert!(!body.contains(&"x".repeat(999)));
}

#[test]
fn an_open_regression_whose_mail_has_no_usable_date_is_still_reported() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("undated.db");
    let mbox = dir.path().join("undated.mbox");
    std::fs::write(
        &mbox,
        "From lkp@intel.com Mon Mar 25 00:00:00 2024\nFrom: kernel test robot <oliver.sang@intel.com>\n\
         Date: Mon, 25 Mar -2024 10:00:00 +0800\n\
         Subject: [linus:master] [xfs]  abcdef1234:  fsmark.files_per_sec -5.7% regression\n\
         Message-ID: <undated@intel.com>\n\n\
         Hello,\n\nkernel test robot noticed a -5.7% regression of fsmark.files_per_sec on:\n\n\n\
         commit: abcdef1234567890abcdef1234567890abcdef12 (\"xfs: do a thing\")\n\
         https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git master\n",
    )
    .unwrap();
    Cmd::regtrack().db(&db).arg("ingest").arg(&mbox).ok();
    let run = report(&db, &["--format", "text"]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("abcdef1234"), "{}", run.stdout);
}

#[test]
fn recipients_and_sender_are_addresses_or_misuse() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let run = report(
        &db,
        &["--to", "a@example.org, \"Doe, Jane\" <jane@example.org>"],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    assert!(
        run.stdout
            .contains("To: <a@example.org>, \"Doe, Jane\" <jane@example.org>"),
        "{}",
        run.stdout.lines().take(4).collect::<Vec<_>>().join("\n")
    );
    for (opt, bad) in [
        ("--to", "a@example.org Bcc: evil@example.net"),
        ("--to", "a@example.org>, <evil@example.net"),
        ("--to", "not an address"),
        ("--to", ""),
        ("--from", "Me <me@example.org>\r\nBcc: evil@example.net"),
        ("--from", "a@example.org, b@example.org"),
    ] {
        let run = report(&db, &[opt, bad]);
        assert_eq!(run.code(), Some(2), "{opt} {bad:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{opt} {bad:?}");
        assert!(run.stderr.contains(opt), "{}", run.stderr);
    }
}
