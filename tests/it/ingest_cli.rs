//! `regtrack ingest` and `regtrack stats` end to end through the binary.

use std::path::{Path, PathBuf};

use crate::common::{Cmd, Run, sql_i64};

fn corpus(name: &str) -> PathBuf {
    crate::common::corpus("ingest").join(name)
}

fn run(db: &Path, args: &[&str]) -> Run {
    Cmd::regtrack().db(db).args(args).run()
}

fn json(out: &Run) -> serde_json::Value {
    out.json()
}

fn counts(v: &serde_json::Value) -> (u64, u64, u64, u64) {
    (
        v["new"].as_u64().unwrap(),
        v["known"].as_u64().unwrap(),
        v["duplicates"].as_u64().unwrap(),
        v["failed"].as_u64().unwrap(),
    )
}

/// Moves a file's modification time one hour back (its content is unchanged).
fn touch(path: &Path) {
    let f = std::fs::File::options().write(true).open(path).unwrap();
    let t = f.metadata().unwrap().modified().unwrap() - std::time::Duration::from_secs(3600);
    f.set_modified(t).unwrap();
}

fn all_fixtures() -> Vec<String> {
    [
        "thread.mbox",
        "mboxo.mbox",
        "single.eml",
        "rendered.txt",
        "collapsed.txt",
    ]
    .iter()
    .map(|f| corpus(f).display().to_string())
    .collect()
}

#[test]
fn ingesting_twice_adds_nothing_the_second_time() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let mut args = vec!["ingest", "--json"];
    // Copies, so that their modification times can be changed below.
    let files: Vec<String> = all_fixtures()
        .iter()
        .map(|f| {
            let copy = dir.path().join(Path::new(f).file_name().unwrap());
            std::fs::copy(f, &copy).unwrap();
            copy.display().to_string()
        })
        .collect();
    args.extend(files.iter().map(String::as_str));
    let first = run(&db, &args);
    assert!(first.success(), "{}", first.stderr);
    let v = json(&first);
    assert_eq!(counts(&v), (7, 0, 0, 0));
    assert!(v["bytes"].as_u64().unwrap() > 4000);
    assert!(v["seconds"].as_f64().is_some());
    assert_eq!(v["unchanged"], 0);
    // Unchanged files (same size and mtime) are not read again at all.
    let second = json(&run(&db, &args));
    assert_eq!(counts(&second), (0, 0, 0, 0));
    assert_eq!(second["unchanged"], 5);
    let plain: Vec<&str> = args.iter().copied().filter(|a| *a != "--json").collect();
    let line = run(&db, &plain).stdout;
    assert!(line.contains("; 5 unchanged files skipped"), "{line}");
    // Touched files are read again; their messages are known.
    for f in &files {
        touch(Path::new(f));
    }
    let third = json(&run(&db, &args));
    assert_eq!(counts(&third), (0, 7, 0, 0));
    assert_eq!(third["unchanged"], 0);

    let stats = json(&run(&db, &["stats", "--json"]));
    assert_eq!(stats["messages"], 7);
    assert_eq!(stats["failed"], 0);
    assert_eq!(stats["derived_ids"], 1);
    let human = run(&db, &["stats"]);
    let text = &human.stdout;
    assert!(text.contains("linux-ext4.vger.kernel.org"), "{text}");
    assert!(text.contains("2023-05-09 .. 2023-05-16"), "{text}");
    // The inputs are named for what they are: files, not epochs.
    assert!(text.contains("files read to their end"), "{text}");
    assert!(!text.contains("public-inbox epochs"), "{text}");
    let sources = stats["sources"].as_array().expect("sources");
    assert!(sources.iter().all(|s| s["kind"] == "file"), "{stats:#}");
    // Statuses count histories, and say so.
    let statuses = stats["statuses"].as_array().expect("statuses");
    let histories: i64 = statuses
        .iter()
        .map(|s| s["regressions"].as_i64().expect("regressions"))
        .sum();
    assert_eq!(Some(histories), stats["regressions"].as_i64());
}

#[test]
fn the_summary_line_names_every_count() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let out = run(
        &db,
        &["ingest", &corpus("thread.mbox").display().to_string()],
    );
    let line = &out.stdout;
    assert!(
        line.starts_with("ingested 2 messages: 2 new, 0 known, 0 duplicates, 0 failed;"),
        "{line}"
    );
    assert!(
        out.stderr.is_empty(),
        "no progress bar when stderr is not a terminal"
    );
}

#[test]
fn timings_say_where_the_time_went() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let thread = corpus("thread.mbox").display().to_string();
    let out = run(&db, &["ingest", "--timings", "--json", &thread]);
    assert!(out.success(), "{}", out.stderr);
    let err = &out.stderr;
    let line = err
        .lines()
        .find(|l| l.starts_with("timings: "))
        .unwrap_or_else(|| panic!("no timings line: {err}"));
    for phase in ["read, parse and write ", "build indexes ", "link "] {
        assert!(line.contains(phase), "{line}");
    }
    let v = json(&out);
    let (total, write, index) = (
        v["seconds"].as_f64().unwrap(),
        v["write_seconds"].as_f64().unwrap(),
        v["index_seconds"].as_f64().unwrap(),
    );
    // A first ingest is a bulk load: its indexes are built at the end.
    assert!(write > 0.0 && index > 0.0, "{v}");
    assert!(write + index <= total + 1e-6, "{v}");
    // Built on another connection while linking ran: none is left deferred,
    // and the regressions were linked.
    let q = |sql: &str| sql_i64(&db, sql);
    assert_eq!(q("SELECT count(*) FROM deferred_indexes"), 0);
    assert_eq!(
        q("SELECT count(*) FROM sqlite_master WHERE name = 'table_rows_metric'"),
        1
    );
    assert_eq!(q("SELECT count(*) FROM threads"), 2);
    // Written without per-row foreign key checks, every reference holds.
    assert_eq!(q("SELECT count(*) FROM pragma_foreign_key_check"), 0);
    // Both messages' raw forms in one block of the batch, none in the old
    // per-message table: a Latin-1 and a multipart message, so their bodies
    // are stored raw, after their header blocks (schema v19).
    assert_eq!(q("SELECT count(*) FROM messages WHERE body_raw = 1"), 2);
    assert_eq!(
        q("SELECT count(*) FROM messages WHERE body_block = head_block"),
        2
    );
    assert_eq!(q("SELECT count(*) FROM body_blocks"), 1);
    assert_eq!(q("SELECT count(*) FROM bodies"), 0);
    // Without --timings, stderr stays quiet.
    let again = run(&db, &["ingest", "--json", &thread]);
    assert!(again.stderr.is_empty());
    assert_eq!(json(&again)["index_seconds"], 0.0);
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let data = std::fs::read(corpus("thread.mbox")).unwrap();
    let out = Cmd::regtrack()
        .db(&db)
        .args(["ingest", "--json", "-"])
        .stdin(data)
        .ok();
    assert_eq!(counts(&json(&out)), (2, 0, 0, 0));
}

#[test]
fn standard_input_named_twice_is_a_usage_error_that_reads_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let data = std::fs::read(corpus("thread.mbox")).unwrap();
    let out = Cmd::regtrack()
        .db(&db)
        .args(["ingest", "-", "-"])
        .stdin(data)
        .run();
    assert_eq!(out.code(), Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("standard input"), "{}", out.stderr);
    assert!(!db.exists(), "nothing was opened");
}

#[test]
fn a_missing_path_fails_only_when_nothing_could_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let out = run(&db, &["ingest", "/no/such/file.mbox"]);
    assert_eq!(out.code(), Some(1));
    let err = &out.stderr;
    assert!(
        err.contains("/no/such/file.mbox") && err.contains("No such file"),
        "{err}"
    );

    let out = run(
        &db,
        &[
            "ingest",
            "/no/such/file.mbox",
            &corpus("single.eml").display().to_string(),
        ],
    );
    assert_eq!(out.code(), Some(0));
    assert!(out.stderr.contains("/no/such/file.mbox"));
}

#[test]
fn a_different_message_under_a_known_id_is_counted_as_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let a = dir.path().join("a.eml");
    let b = dir.path().join("b.eml");
    std::fs::write(&a, "Message-ID: <same@x>\nSubject: one\n\nfirst body\n").unwrap();
    std::fs::write(&b, "Message-ID: <same@x>\nSubject: two\n\nsecond body\n").unwrap();
    let v = json(&run(
        &db,
        &["ingest", "--json", a.to_str().unwrap(), b.to_str().unwrap()],
    ));
    assert_eq!(counts(&v), (1, 0, 1, 0));
    touch(&b);
    let v = json(&run(&db, &["ingest", "--json", b.to_str().unwrap()]));
    assert_eq!(counts(&v), (0, 1, 0, 0));
    assert_eq!(json(&run(&db, &["stats", "--json"]))["duplicates"], 1);
}

#[test]
fn the_same_message_on_two_lists_is_one_message_that_remembers_both() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let a = dir.path().join("a.eml");
    let b = dir.path().join("b.eml");
    std::fs::write(
        &a,
        "Message-ID: <x@y>\nList-Id: <linux-ext4.vger.kernel.org>\nSubject: s\n\nbody\n",
    )
    .unwrap();
    std::fs::write(
        &b,
        "Received: by other\nMessage-ID: <x@y>\nList-Id: Linux MM <linux-mm.kvack.org>\nSubject: s\n\nbody\n",
    )
    .unwrap();
    let v = json(&run(
        &db,
        &["ingest", "--json", a.to_str().unwrap(), b.to_str().unwrap()],
    ));
    assert_eq!(counts(&v), (1, 1, 0, 0));
    let stats = json(&run(&db, &["stats", "--json"]));
    assert_eq!(stats["messages"], 1);
    let lists: Vec<&str> = stats["lists"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        lists,
        vec!["linux-ext4.vger.kernel.org", "linux-mm.kvack.org"]
    );
}

#[test]
fn a_message_with_no_headers_is_a_recorded_failure_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "just some words\nand more words\n").unwrap();
    let out = run(&db, &["ingest", "--json", bad.to_str().unwrap()]);
    // Nothing could be read: exit status 1, the failure recorded.
    assert_eq!(out.code(), Some(1));
    assert_eq!(counts(&json(&out)), (0, 0, 0, 1));
    let err = &out.stderr;
    assert!(
        err.contains("bad.txt:0") && err.contains("no header block"),
        "{err}"
    );
    // Failing again does not store the failure twice.
    run(&db, &["ingest", bad.to_str().unwrap()]);
    assert_eq!(json(&run(&db, &["stats", "--json"]))["failed"], 1);
}

#[test]
fn mail_prints_a_stored_message_decoded_and_says_when_an_id_is_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let a = dir.path().join("a.eml");
    // Quoted-printable and Latin-1: `mail` prints the decoded body the
    // extractors read, not the transfer encoding.
    std::fs::write(
        &a,
        b"Message-ID: <qp-1@example.org>\nList-Id: <linux-ext4.vger.kernel.org>\n\
          From: =?iso-8859-1?q?J=F6rg?= <j@example.org>\nSubject: Re: [ext4] perf\n\
          Date: Tue, 09 May 2023 09:05:00 +0000\n\
          Content-Type: text/plain; charset=iso-8859-1\n\
          Content-Transfer-Encoding: quoted-printable\n\n\
          Gr=FC=DFe, the -5.7% is gone with the fix=\n applied.\n" as &[u8],
    )
    .unwrap();
    let v = json(&run(&db, &["ingest", "--json", a.to_str().unwrap()]));
    assert_eq!(counts(&v), (1, 0, 0, 0));
    let out = run(&db, &["mail", "<qp-1@example.org>"]);
    assert!(out.success(), "{}", out.stderr);
    std::str::from_utf8(&out.stdout_bytes).expect("UTF-8");
    let text = &out.stdout;
    assert_eq!(
        text,
        "From: J\u{f6}rg <j@example.org>\nDate: Tue, 9 May 2023 09:05:00 +0000\n\
         Subject: Re: [ext4] perf\nMessage-ID: <qp-1@example.org>\n\
         List-Id: <linux-ext4.vger.kernel.org>\nArchived-At: <https://lore.kernel.org/all/qp-1@example.org/>\nX-Regtrack-Kind: reply\n\n\
         Gr\u{fc}\u{df}e, the -5.7% is gone with the fix applied.\n"
    );
    let missing = run(&db, &["mail", "nope@example.org"]);
    assert_eq!(missing.code(), Some(1));
    assert!(
        missing.stderr.contains("nope@example.org"),
        "{}",
        missing.stderr
    );
}

#[test]
fn a_quiet_update_says_nothing_unless_a_message_failed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("q.db");
    let good = corpus("thread.mbox").display().to_string();
    let out = run(&db, &["-q", "ingest", &good]);
    assert!(out.success(), "{}", out.stderr);
    assert_eq!(out.stdout, "", "cron mails whatever a quiet update prints");
    assert_eq!(out.stderr, "");
    // Without -q, the summary and the regressions line.
    let again = run(&db, &["ingest", &good]);
    assert!(again.stdout.starts_with("ingested "), "{}", again.stdout);
    assert_eq!(again.stdout.lines().count(), 2, "{}", again.stdout);
    // A message that fails is said, quiet or not.
    let bad = dir.path().join("bad.mbox");
    std::fs::write(
        &bad,
        "From a@b Mon Jan  1 00:00:00 2024\nFrom: a@b\n\n\nFrom b@c Mon Jan  1 00:00:00 2024\n\n",
    )
    .unwrap();
    let out = run(&db, &["-q", "ingest", bad.to_str().unwrap()]);
    assert!(out.stdout.contains(" failed"), "{}", out.stdout);
    assert!(!out.stdout.contains(" 0 failed"), "{}", out.stdout);
}

/// Two files whose names differ only in bytes that are no UTF-8 are two
/// inputs: the second, of the same size and time, is read too.
#[cfg(unix)]
#[test]
fn names_that_differ_only_in_non_utf8_bytes_are_two_files() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("n.db");
    let mail = |id: char| {
        format!(
            "From: A <a@example.org>\nSubject: note {id}\nMessage-ID: <nu-{id}@example.org>\n\
             Date: Mon, 1 Jul 2024 10:00:00 +0000\n\nbody\n"
        )
    };
    let a = dir.path().join(std::ffi::OsStr::from_bytes(b"r\xff.eml"));
    let b = dir.path().join(std::ffi::OsStr::from_bytes(b"r\xfe.eml"));
    std::fs::write(&a, mail('a')).unwrap();
    std::fs::write(&b, mail('b')).unwrap();
    let t = std::fs::metadata(&a).unwrap().modified().unwrap();
    std::fs::File::options()
        .write(true)
        .open(&b)
        .unwrap()
        .set_modified(t)
        .unwrap();
    for f in [&a, &b] {
        let out = Cmd::regtrack()
            .db(&db)
            .args(["ingest", "--json"])
            .arg(f)
            .run();
        assert!(out.success(), "{}", out.stderr);
        assert_eq!(counts(&json(&out)), (1, 0, 0, 0), "{}", out.stdout);
    }
    assert_eq!(sql_i64(&db, "SELECT count(*) FROM messages"), 2);
}

#[test]
fn a_folder_takes_format_patch_files_and_mh_messages_and_leaves_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let mail = dir.path().join("mail");
    std::fs::create_dir(&mail).unwrap();
    let db = dir.path().join("f.db");
    let msg = |id: &str| {
        format!(
            "From: A <a@example.org>\nSubject: note {id}\nMessage-ID: <{id}@example.org>\n\
             Date: Mon, 1 Jul 2024 10:00:00 +0000\n\nbody\n"
        )
    };
    // git format-patch's output: an mbox of one message.
    std::fs::write(
        mail.join("0001-ext4-fix-the-drop.patch"),
        format!(
            "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001\n{}",
            msg("fp")
        ),
    )
    .unwrap();
    // An MH folder: numbered files without a suffix.
    std::fs::write(mail.join("1"), msg("mh-1")).unwrap();
    std::fs::write(mail.join("2"), msg("mh-2")).unwrap();
    // Not mail: a note that starts with `key: value`, source code, binary.
    std::fs::write(mail.join("notes"), "status: open\nowner: me\n\nlater\n").unwrap();
    std::fs::write(
        mail.join("tool.c"),
        "// SPDX-License-Identifier: GPL-2.0\nint x;\n",
    )
    .unwrap();
    std::fs::write(mail.join("blob"), [0u8, 159, 146, 150, 1, 2]).unwrap();
    // A classic Mac OS mbox: lines end in CR alone.
    std::fs::write(
        mail.join("old.mbox"),
        format!("From a Mon Sep 17 00:00:00 2001\n{}", msg("cr")).replace('\n', "\r"),
    )
    .unwrap();
    // A mail file whose link leads nowhere is a failure that names it.
    std::os::unix::fs::symlink(dir.path().join("gone"), mail.join("gone.eml")).unwrap();
    let out = Cmd::regtrack()
        .db(&db)
        .args(["ingest", "--json"])
        .arg(&mail)
        .run();
    assert!(out.success(), "{}", out.stderr);
    assert_eq!(counts(&json(&out)), (4, 0, 0, 1), "{}", out.stdout);
    assert!(out.stderr.contains("gone.eml"), "{}", out.stderr);
    for id in ["fp", "mh-1", "mh-2", "cr"] {
        assert_eq!(
            sql_i64(
                &db,
                &format!("SELECT count(*) FROM messages WHERE message_id = '{id}@example.org'")
            ),
            1,
            "{id}"
        );
    }
}

#[test]
fn a_symlink_out_of_a_maildir_and_a_file_that_is_not_mail_are_not_stored() {
    let dir = tempfile::tempdir().unwrap();
    let md = dir.path().join("md");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(md.join(sub)).unwrap();
    }
    std::fs::write(
        md.join("cur").join("1:2,S"),
        "From: A <a@example.org>\nSubject: kept\nMessage-ID: <kept@example.org>\n\
         Date: Mon, 1 Jul 2024 10:00:00 +0000\n\nbody\n",
    )
    .unwrap();
    // A secret outside the Maildir, linked into it.
    let secret = dir.path().join("secret");
    std::fs::write(&secret, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    std::os::unix::fs::symlink(&secret, md.join("new").join("secret")).unwrap();
    // Inside it, a file with no header of mail.
    std::fs::write(md.join("new").join("notes"), "todo: nothing\n").unwrap();
    let db = dir.path().join("s.db");
    let out = Cmd::regtrack()
        .db(&db)
        .args(["ingest", "--json"])
        .arg(&md)
        .run();
    assert_eq!(counts(&json(&out)), (1, 0, 0, 2), "{}", out.stdout);
    assert_eq!(sql_i64(&db, "SELECT count(*) FROM messages"), 1);
    let failures = Cmd::regtrack().db(&db).arg("failures").run();
    assert!(
        failures.stderr.contains("symbolic link out of")
            || failures.stdout.contains("symbolic link out of"),
        "{}{}",
        failures.stdout,
        failures.stderr
    );
    assert!(
        failures.stdout.contains("not mail") || failures.stderr.contains("not mail"),
        "{}{}",
        failures.stdout,
        failures.stderr
    );
}
