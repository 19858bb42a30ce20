//! Every copy of a Message-ID kept, the better one chosen whatever the order
//! (issue 24, item 3), and the messages as received: `mail --raw`, `thread`,
//! `mail --copies` (issue 26, "Mail as mail").

use std::path::{Path, PathBuf};

use crate::common::Cmd;
use crate::common::sql;

/// The robot report every case copies: a table of five headline rows.
const REPORT: &str = "report/current-perf-report.eml";
const REPORT_ID: &str = "202407101441.5a1b2c3d-oliver.sang@intel.com";
const CULPRIT: &str = "3f2a9c1b7e";

fn report() -> Vec<u8> {
    std::fs::read(crate::common::corpus(REPORT)).unwrap()
}

/// The report cut in the middle of its table (after its third row), as a
/// partial download leaves it.
fn truncated() -> Vec<u8> {
    let whole = report();
    let row = b"vmstat.procs.r\n";
    let at = whole
        .windows(row.len())
        .position(|w| w == row)
        .expect("the report has the row")
        + row.len();
    whole[..at].to_vec()
}

/// The report under the same Message-ID from someone who is not the robot,
/// claiming a larger change.
fn forged() -> Vec<u8> {
    let text = String::from_utf8_lossy(&report()).into_owned();
    assert!(text.contains("-12.4%"));
    text.replace(
        "From: kernel test robot <oliver.sang@intel.com>",
        "From: kernel test robot <robot@lkp-intel.example>",
    )
    .replace("-12.4%", "-98.7%")
    .into_bytes()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn ingest(db: &Path, path: &Path) -> crate::common::cmd::Run {
    Cmd::regtrack()
        .db(db)
        .args(["ingest", "--timings"])
        .arg(path)
        .ok()
}

fn show(db: &Path) -> serde_json::Value {
    Cmd::regtrack()
        .db(db)
        .args(["show", CULPRIT, "--json"])
        .ok()
        .json()
}

fn headline_metrics(v: &serde_json::Value) -> Vec<String> {
    v[0]["reports"][0]["headline_rows"]
        .as_array()
        .expect("headline rows")
        .iter()
        .map(|r| r["metric"].as_str().unwrap().to_string())
        .collect()
}

fn copies(db: &Path) -> Vec<serde_json::Value> {
    Cmd::regtrack()
        .db(db)
        .args(["mail", "--copies", "--json", REPORT_ID])
        .ok()
        .json()
        .as_array()
        .unwrap()
        .clone()
}

/// Ingests the two copies in this order into a new database; returns it.
fn two_copies(dir: &Path, name: &str, first: &[u8], second: &[u8]) -> PathBuf {
    let sub = dir.join(name);
    std::fs::create_dir(&sub).unwrap();
    let db = sub.join("r.db");
    ingest(&db, &write(&sub, "first.eml", first));
    let run = ingest(&db, &write(&sub, "second.eml", second));
    // The second copy is the better one in both orders the tests use it.
    let replaced = first == truncated() || first == forged();
    let said = if replaced {
        "1 duplicates (1 chosen over the stored copy), 0 failed"
    } else {
        "1 duplicates, 0 failed"
    };
    assert!(run.stdout.contains(said), "{}", run.stdout);
    db
}

#[test]
fn the_complete_copy_wins_over_a_truncated_one_in_either_order() {
    let dir = tempfile::tempdir().unwrap();
    // The truncated copy alone: its history has only the rows before the cut.
    let cut_only = dir.path().join("cut.db");
    ingest(&cut_only, &write(dir.path(), "cut.eml", &truncated()));
    let cut_rows = headline_metrics(&show(&cut_only));
    assert!(
        !cut_rows.contains(&"stress-ng.fiemap.ops_per_sec".to_string()),
        "{cut_rows:?}"
    );

    let later = two_copies(dir.path(), "later", &truncated(), &report());
    let earlier = two_copies(dir.path(), "earlier", &report(), &truncated());
    let whole = headline_metrics(&show(&later));
    assert_eq!(whole.len(), 5, "{whole:?}");
    assert!(whole.contains(&"stress-ng.fiemap.ops_per_sec".to_string()));
    assert_eq!(show(&later), show(&earlier));
    // The stored message is the complete copy: its body ends with the
    // robot's signature, and its raw form is the file's bytes.
    for db in [&later, &earlier] {
        let mail = Cmd::regtrack()
            .db(db)
            .args(["mail", "--json", REPORT_ID])
            .ok()
            .json();
        assert!(
            mail["body"]
                .as_str()
                .unwrap()
                .trim_end()
                .ends_with("lkp-tests/wiki")
        );
        assert_eq!(mail["copies"], 2);
        assert_eq!(
            mail["chosen_because"],
            "it is complete (another copy is truncated)"
        );
        let raw = Cmd::regtrack()
            .db(db)
            .args(["mail", "--raw", REPORT_ID])
            .ok()
            .stdout_bytes;
        assert_eq!(&raw[mbox_from().len()..raw.len() - 1], &report()[..]);
        let list = copies(db);
        assert_eq!(list.len(), 2);
        let chosen: Vec<bool> = list.iter().map(|c| c["chosen"] == true).collect();
        let complete: Vec<bool> = list.iter().map(|c| c["complete"] == true).collect();
        let sizes: Vec<i64> = list.iter().map(|c| c["size"].as_i64().unwrap()).collect();
        if db == &later {
            assert_eq!((chosen, complete), (vec![false, true], vec![false, true]));
            assert_eq!(sizes, [truncated().len() as i64, report().len() as i64]);
        } else {
            assert_eq!((chosen, complete), (vec![true, false], vec![true, false]));
        }
        assert!(list.iter().all(|c| c["raw_stored"] == true));
    }
}

fn mbox_from() -> &'static [u8] {
    b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
}

#[test]
fn the_robots_copy_wins_over_a_forged_one_in_either_order() {
    let dir = tempfile::tempdir().unwrap();
    let forged_first = two_copies(dir.path(), "forged-first", &forged(), &report());
    let genuine_first = two_copies(dir.path(), "genuine-first", &report(), &forged());
    for db in [&forged_first, &genuine_first] {
        let v = show(db);
        assert_eq!(
            v[0]["reports"][0]["change_percent"],
            -12.4,
            "{}",
            db.display()
        );
        assert_eq!(v[0]["reports"][0]["copies"], 2);
        assert_eq!(
            v[0]["reports"][0]["chosen_because"],
            "it was sent from the robot's own address"
        );
        let list = copies(db);
        let winner = list.iter().find(|c| c["chosen"] == true).unwrap();
        assert_eq!(winner["from_email"], "oliver.sang@intel.com");
        assert_eq!(winner["reason"], "it was sent from the robot's own address");
        let text = Cmd::regtrack().db(db).args(["show", CULPRIT]).ok().stdout;
        assert!(
            text.contains(
                "2 copies; this one chosen because it was sent from the robot's own address"
            ),
            "{text}"
        );
        let mail = Cmd::regtrack().db(db).args(["mail", REPORT_ID]).ok().stdout;
        assert!(mail.contains("\nX-Regtrack-Copies: 2 copies; this one chosen because it was sent from the robot's own address"), "{mail}");
        assert!(
            mail.contains("\nFrom: kernel test robot <oliver.sang@intel.com>\n")
                || mail.starts_with("From: kernel test robot <oliver.sang@intel.com>\n")
        );
    }
    assert_eq!(show(&forged_first), show(&genuine_first));
}

/// The report as posted again by someone else: the robot's whole body with
/// a line added (so the robot's copy reads as its prefix), another From and
/// an earlier Date.
fn forged_longer() -> Vec<u8> {
    // The report holds Latin-1 bytes: replace bytes, not text.
    fn replace(b: &[u8], from: &str, to: &str) -> Vec<u8> {
        let at = b
            .windows(from.len())
            .position(|w| w == from.as_bytes())
            .expect("the report has the line");
        [&b[..at], to.as_bytes(), &b[at + from.len()..]].concat()
    }
    let b = replace(
        &report(),
        "From: kernel test robot <oliver.sang@intel.com>",
        "From: Mallory <mallory@evil.example>",
    );
    let mut b = replace(
        &b,
        "Date: Wed, 10 Jul 2024 14:41:20 +0800",
        "Date: Mon, 01 Jan 2024 00:00:00 +0000",
    );
    b.extend_from_slice(b"One more line from the forger.\n");
    b
}

#[test]
fn a_forged_copy_made_longer_loses_to_the_robots_own_in_either_order() {
    let dir = tempfile::tempdir().unwrap();
    for (name, first, second) in [
        ("forged-first", forged_longer(), report()),
        ("genuine-first", report(), forged_longer()),
    ] {
        let sub = dir.path().join(name);
        std::fs::create_dir(&sub).unwrap();
        let db = sub.join("r.db");
        ingest(&db, &write(&sub, "first.eml", &first));
        ingest(&db, &write(&sub, "second.eml", &second));
        let v = show(&db);
        assert_eq!(v[0]["first_date"], "2024-07-10T06:41:20Z", "{name}");
        assert_eq!(v[0]["reports"][0]["date"], "2024-07-10T06:41:20Z", "{name}");
        assert_eq!(
            v[0]["reports"][0]["chosen_because"], "it was sent from the robot's own address",
            "{name}"
        );
        let winner = copies(&db)
            .into_iter()
            .find(|c| c["chosen"] == true)
            .unwrap();
        assert_eq!(winner["from_email"], "oliver.sang@intel.com", "{name}");
        let text = Cmd::regtrack().db(&db).args(["show", CULPRIT]).ok().stdout;
        assert!(
            !text.contains("Mallory") && !text.contains("evil.example"),
            "{name}: {text}"
        );
    }
}

fn export(db: &Path) -> String {
    Cmd::regtrack()
        .db(db)
        .args(["export", "--format", "json"])
        .ok()
        .stdout
}

/// Ingests `first` then `second` over the corpus's threads; returns the
/// database and the second ingest's `--timings` (stderr).
fn replaced_over_threads(dir: &Path, first: &[u8], second: &[u8]) -> (PathBuf, String) {
    let db = dir.join("r.db");
    ingest(&db, &crate::common::corpus("threads"));
    ingest(&db, &write(dir, "first.eml", first));
    let run = ingest(&db, &write(dir, "second.eml", second));
    assert!(run.stdout.contains("1 duplicates"), "{}", run.stdout);
    (db, run.stderr)
}

#[test]
fn a_complete_copy_replacing_a_cut_one_is_relinked_by_an_update_equal_to_a_full_relink() {
    let dir = tempfile::tempdir().unwrap();
    let (db, timings) = replaced_over_threads(dir.path(), &truncated(), &report());
    // The same headers and linking facts: an update relinks what it reaches.
    assert!(timings.contains("(an update)"), "{timings}");
    assert_eq!(sql::sql_i64(&db, "SELECT count(*) FROM link_changed"), 0);
    assert_eq!(headline_metrics(&show(&db)).len(), 5);
    let updated = export(&db);
    Cmd::regtrack().db(&db).args(["relink", "--full"]).ok();
    assert_eq!(updated, export(&db));
    // An ingest of a copy already kept changes nothing and relinks nothing.
    let again = ingest(&db, &write(dir.path(), "cut-again.eml", &truncated()));
    assert!(again.stdout.contains("0 duplicates"), "{}", again.stdout);
    assert!(
        again.stderr.contains("nothing new to link"),
        "{}",
        again.stderr
    );
}

#[test]
fn a_copy_with_other_headers_replacing_the_stored_one_relinks_everything() {
    let dir = tempfile::tempdir().unwrap();
    let (db, timings) = replaced_over_threads(dir.path(), &forged(), &report());
    assert!(
        timings.contains(&format!(
            "everything, since a better copy replaced the stored <{REPORT_ID}>, with other headers or keys"
        )),
        "{timings}"
    );
    assert_eq!(show(&db)[0]["reports"][0]["change_percent"], -12.4);
    let after = export(&db);
    Cmd::regtrack().db(&db).args(["relink", "--full"]).ok();
    assert_eq!(after, export(&db));
}

#[test]
fn mail_raw_prints_the_message_as_received_as_mboxrd_that_reads_back_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let patch = crate::common::corpus("evidence/format-patch-v2.eml");
    ingest(&db, &patch);
    let id: String = sql::one(&db, "SELECT message_id FROM messages");
    let raw = Cmd::regtrack()
        .db(&db)
        .args(["mail", "--raw", &id])
        .ok()
        .stdout_bytes;
    let file = std::fs::read(&patch).unwrap();
    // The From_ line, the bytes as received, the blank line ending it.
    assert!(raw.starts_with(mbox_from()));
    assert_eq!(&raw[mbox_from().len()..raw.len() - 1], &file[..]);
    assert!(raw.ends_with(b"\n\n"));
    // It reads back as the same message.
    let out = write(dir.path(), "back.mbox", &raw);
    let db2 = dir.path().join("back.db");
    ingest(&db2, &out);
    let a = Cmd::regtrack()
        .db(&db)
        .args(["mail", "--json", &id])
        .ok()
        .json();
    let b = Cmd::regtrack()
        .db(&db2)
        .args(["mail", "--json", &id])
        .ok()
        .json();
    assert_eq!(a, b);
    // git splits and reads it as a patch mail.
    if crate::common::have_git() {
        let split = dir.path().join("split");
        std::fs::create_dir(&split).unwrap();
        let st = std::process::Command::new("git")
            .arg("mailsplit")
            .arg(format!("-o{}", split.display()))
            .arg(&out)
            .output()
            .unwrap();
        assert!(st.status.success());
        assert_eq!(String::from_utf8_lossy(&st.stdout).trim(), "1");
        let info = std::process::Command::new("git")
            .args(["mailinfo"])
            .arg(dir.path().join("msg"))
            .arg(dir.path().join("patch"))
            .stdin(std::fs::File::open(split.join("0001")).unwrap())
            .output()
            .unwrap();
        assert!(info.status.success());
        let info = String::from_utf8_lossy(&info.stdout);
        let subject = a["subject"].as_str().unwrap();
        let title = subject.rsplit("] ").next().unwrap();
        assert!(info.contains(&format!("Subject: {title}")), "{info}");
        assert!(
            info.contains(&format!("Email: {}", a["from_email"].as_str().unwrap())),
            "{info}"
        );
        let diff = std::fs::read_to_string(dir.path().join("patch")).unwrap();
        assert!(diff.contains("diff --git"), "{diff}");
    }
}

#[test]
fn from_lines_in_a_body_are_quoted_and_unquoted_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let mail = b"From: A <a@example.org>\nTo: b@example.org\nCc: c@example.org\n\
                 Date: Mon, 1 Jan 2024 10:00:00 +0000\nMessage-ID: <from-lines@x>\n\
                 Subject: quoting\n\nFrom the start of a line\n>From quoted once\nend\n";
    ingest(&db, &write(dir.path(), "m.eml", mail));
    let raw = Cmd::regtrack()
        .db(&db)
        .args(["mail", "--raw", "<from-lines@x>"])
        .ok()
        .stdout;
    assert!(
        raw.contains("\n>From the start of a line\n>>From quoted once\n"),
        "{raw}"
    );
    assert!(raw.contains(
        "\nTo: b@example.org\nCc: c@example.org\nDate: Mon, 1 Jan 2024 10:00:00 +0000\n"
    ));
    let back = write(dir.path(), "back.mbox", raw.as_bytes());
    let db2 = dir.path().join("back.db");
    ingest(&db2, &back);
    let again = Cmd::regtrack()
        .db(&db2)
        .args(["mail", "--raw", "from-lines@x"])
        .ok()
        .stdout;
    assert_eq!(raw, again);
}

#[test]
fn thread_prints_every_message_of_the_stored_thread_in_date_order() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    ingest(&db, &crate::common::corpus("threads/fixed-history.mbox"));
    let id = "202403151023.5e1f2a3b-lkp@intel.com";
    let want: Vec<String> = sql::column(
        &db,
        &format!(
            "SELECT m.message_id FROM threads t JOIN messages m ON m.id = t.message
             WHERE t.root_id = (SELECT root_id FROM threads t2 JOIN messages m2
                                ON m2.id = t2.message WHERE m2.message_id = '{id}')
             ORDER BY m.date, m.id"
        ),
    );
    assert!(want.len() >= 3, "{want:?}");
    let run = Cmd::regtrack().db(&db).args(["thread", id]).ok();
    let froms = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("From mboxrd@z "))
        .count();
    assert_eq!(froms, want.len());
    // Read back: the same messages, in the same order, any of them naming it.
    let out = write(dir.path(), "thread.mbox", &run.stdout_bytes);
    let lines = Cmd::regtrack().args(["parse"]).arg(&out).ok().json_lines();
    let got: Vec<String> = lines
        .iter()
        .map(|l| l["message_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(got, want);
    let last = want.last().unwrap();
    let same = Cmd::regtrack().db(&db).args(["thread", last]).ok();
    assert_eq!(same.stdout_bytes, run.stdout_bytes);
    let missing = Cmd::regtrack().db(&db).args(["thread", "none@x"]).run();
    assert_eq!(missing.code(), Some(1));
}

#[test]
fn a_message_without_its_raw_form_is_named_and_nothing_is_invented() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let file = write(dir.path(), "report.eml", &report());
    ingest(&db, &file);
    // As a build before schema v14 left it: its only copy's row, which the
    // v14 migration made, without a raw form (v19 keeps such rows).
    sql::execute(
        &db,
        "INSERT INTO message_copies (message, content_hash, origin_json, from_name, from_email,
                 raw_size, lists, chosen, seen_at)
             SELECT id, content_hash, origin_json, from_name, from_email, raw_size, '', 1,
                    ingested_at FROM messages;
         UPDATE messages SET head_block = NULL, head_start = NULL, head_len = NULL",
    );
    for args in [["mail", "--raw"], ["thread", "--quiet"]] {
        let run = Cmd::regtrack()
            .db(&db)
            .args(args.iter().filter(|a| **a != "--quiet"))
            .arg(REPORT_ID)
            .run();
        assert_eq!(run.code(), Some(1), "{args:?}");
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
        assert!(
            run.stderr
                .contains(&format!("the raw form of <{REPORT_ID}> is not stored"))
                && run.stderr.contains("regtrack ingest --reread"),
            "{}",
            run.stderr
        );
    }
    let list = Cmd::regtrack()
        .db(&db)
        .args(["mail", "--copies", REPORT_ID])
        .ok()
        .stdout;
    assert!(list.contains("raw form not stored"), "{list}");
    // A plain ingest skips the unchanged file; --reread stores the raw form.
    ingest(&db, &file);
    assert_eq!(
        Cmd::regtrack()
            .db(&db)
            .args(["mail", "--raw", REPORT_ID])
            .run()
            .code(),
        Some(1)
    );
    Cmd::regtrack()
        .db(&db)
        .args(["ingest", "--reread"])
        .arg(&file)
        .ok();
    let raw = Cmd::regtrack()
        .db(&db)
        .args(["mail", "--raw", REPORT_ID])
        .ok()
        .stdout_bytes;
    assert_eq!(&raw[mbox_from().len()..raw.len() - 1], &report()[..]);
}

#[test]
fn mail_copies_lists_where_each_copy_was_read() {
    let dir = tempfile::tempdir().unwrap();
    let db = two_copies(dir.path(), "two", &forged(), &report());
    let text = Cmd::regtrack()
        .db(&db)
        .args(["mail", "--copies", REPORT_ID])
        .ok()
        .stdout;
    let first = dir.path().join("two/first.eml");
    let second = dir.path().join("two/second.eml");
    let want = format!(
        "<{REPORT_ID}>: 2 copies\n\
         \x20 copy 1\n\
         \x20   from  kernel test robot <robot@lkp-intel.example>\n\
         \x20   read  {}, offset 0\n\
         \x20   size  {} bytes, complete, raw form stored\n\
         * copy 2  chosen, because it was sent from the robot's own address\n\
         \x20   from  kernel test robot <oliver.sang@intel.com>\n\
         \x20   read  {}, offset 0\n\
         \x20   size  {} bytes, complete, raw form stored\n",
        first.display(),
        forged().len(),
        second.display(),
        report().len()
    );
    assert_eq!(text, want);
    let one = Cmd::regtrack()
        .db(&db)
        .args(["mail", "--copies", "--json", "nobody@x"])
        .run();
    assert_eq!(one.code(), Some(1));
}

/// The fixed-history thread's report cut after the second row of its
/// table, as an mbox still being written leaves it.
fn cut_thread_report() -> Vec<u8> {
    let mbox = std::fs::read(crate::common::corpus("threads/fixed-history.mbox")).unwrap();
    let end = mbox[1..]
        .windows(6)
        .position(|w| w == b"\nFrom ")
        .expect("a second message")
        + 2;
    let first = &mbox[..end];
    let row = b"vmstat.system.cs\n";
    let at = first
        .windows(row.len())
        .position(|w| w == row)
        .expect("the row")
        + row.len();
    first[..at].to_vec()
}

#[test]
fn a_cut_report_replaced_by_its_whole_thread_is_linked_by_an_update_as_in_full() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    ingest(&db, &crate::common::corpus("threads/two-reports.mbox"));
    ingest(&db, &write(dir.path(), "cut.mbox", &cut_thread_report()));
    let cut: Vec<String> = Cmd::regtrack()
        .db(&db)
        .args(["show", "5e1f2a3b4c", "--json"])
        .ok()
        .json()[0]["reports"][0]["headline_rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["metric"].as_str().unwrap().to_string())
        .collect();
    assert!(!cut.contains(&"meminfo.Active".to_string()), "{cut:?}");
    // The whole report arrives with its replies, patches and landings.
    let run = ingest(&db, &crate::common::corpus("threads/fixed-history.mbox"));
    assert!(
        run.stdout.contains("(1 chosen over the stored copy)"),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("(an update)"), "{}", run.stderr);
    let updated = export(&db);
    let v = Cmd::regtrack()
        .db(&db)
        .args(["show", "5e1f2a3b4c", "--json"])
        .ok()
        .json();
    assert_eq!(v[0]["status"], "fix-applied", "{v}");
    assert_eq!(
        v[0]["reports"][0]["headline_rows"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
    Cmd::regtrack().db(&db).args(["relink", "--full"]).ok();
    assert_eq!(updated, export(&db));
}
