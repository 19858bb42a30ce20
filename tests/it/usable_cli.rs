//! The command line's rules, for every reading command: exit status 0 when
//! answered, 1 when nothing matched or nothing could be read, 2 on usage
//! and database errors; a database that is not there is said and not
//! created; a pipe closed early ends the command quietly with status 0.
//! Also `failures`, `mark` on a missing regression and huge changes.

use std::process::{Command, Stdio};

use crate::common::Cmd;
use crate::usable_links::corpus_db;

const REPORT: &str = "202403151023.5e1f2a3b-lkp@intel.com";

/// Every reading command with arguments that answer on the corpus.
fn answering() -> Vec<Vec<&'static str>> {
    vec![
        vec!["show", "ext4"],
        vec!["show", "ext4", "--json"],
        vec!["list"],
        vec!["list", "--json"],
        vec!["export", "--format", "md"],
        vec!["export", "--format", "json"],
        vec!["export", "--format", "csv"],
        vec!["export", "--format", "html"],
        vec!["mail", REPORT],
        vec!["mail", "--json", REPORT],
        vec!["mail", "--raw", REPORT],
        vec!["mail", "--copies", REPORT],
        vec!["mail", "--copies", "--json", REPORT],
        vec!["thread", REPORT],
        vec!["stats"],
        vec!["stats", "--json"],
        vec!["failures"],
        vec!["failures", "--json"],
        vec!["report", "--now", "2024-03-31", "--since", "30d"],
        // A period reaching back before Linux starts with it.
        vec!["report", "--now", "2024-03-31", "--since", "36500d"],
        vec!["trends"],
        vec!["trends", "--json"],
        vec!["trends", "--format", "csv", "--by", "release"],
    ]
}

#[test]
fn every_reading_command_answers_0_matches_nothing_1_and_misuse_2() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    for args in answering() {
        let run = Cmd::regtrack().db(&db).args(&args).run();
        assert_eq!(run.code(), Some(0), "{args:?}: {}", run.stderr);
        assert!(!run.stdout.is_empty(), "{args:?} printed nothing");
    }
    for args in [
        vec!["show", "no-such-thing"],
        vec!["list", "--subsystem", "no-such-subsystem"],
        vec!["mail", "no-such@message"],
        vec!["mail", "--raw", "no-such@message"],
        vec!["mail", "--copies", "no-such@message"],
        vec!["thread", "no-such@message"],
        vec!["mark", "no-such-thing", "declined"],
        vec!["report", "--subsystem", "no-such-subsystem"],
        vec!["trends", "--subsystem", "no-such-subsystem"],
        // A list's name is matched literally: `%` and `_` are no wildcards.
        vec!["list", "--list", "%"],
        vec!["list", "--list", "linux_ext4"],
    ] {
        let run = Cmd::regtrack().db(&db).args(&args).run();
        assert_eq!(run.code(), Some(1), "{args:?}: {}", run.stderr);
        // Said (on stderr, or an empty report on stdout), not left silent.
        assert!(
            !run.stderr.trim().is_empty() || !run.stdout.trim().is_empty(),
            "{args:?} said nothing"
        );
    }
    for args in [
        vec!["show"],
        vec!["list", "--status", "no-such-status"],
        // An empty value (an unset shell variable) is no filter to drop.
        vec!["list", "--status", ""],
        vec!["list", "--status", ","],
        vec!["list", "--scope", ""],
        vec!["list", "--min-change", "NaN"],
        vec!["list", "--min-change", "inf"],
        vec!["list", "--list", ""],
        vec!["report", "--now", "2024-03-01", "--since", "2024-03-20"],
        // A mail's Date: needs a four-digit year; no regression is older.
        vec!["report", "--now", "0000-01-01"],
        vec!["export", "--format", "docx"],
        vec!["mail", "--raw", "--json", REPORT],
        vec!["mark", "15", "no-such-status"],
        vec!["trends", "--per", "week"],
        vec!["no-such-command"],
        // An empty Message-ID (an unset shell variable) names nothing.
        vec!["mail", ""],
        vec!["mail", "<>"],
        vec!["thread", ""],
    ] {
        let run = Cmd::regtrack().db(&db).args(&args).run();
        assert_eq!(run.code(), Some(2), "{args:?}: {}", run.stderr);
    }
    // An empty REGTRACK_DB is unset: the database is ./regtrack.db.
    std::fs::copy(&db, dir.path().join("regtrack.db")).unwrap();
    let run = Cmd::regtrack()
        .env("REGTRACK_DB", "")
        .current_dir(dir.path())
        .arg("list")
        .run();
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    assert!(!run.stdout.is_empty());
    let run = Cmd::regtrack()
        .env("REGTRACK_DB", dir.path().join("none.db"))
        .current_dir(dir.path())
        .arg("list")
        .run();
    assert_eq!(run.code(), Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("none.db"), "{}", run.stderr);
    // Nothing could be read: ingest of a file that is not mail.
    let junk = dir.path().join("junk.txt");
    std::fs::write(&junk, "not mail\n").unwrap();
    let run = Cmd::regtrack()
        .db(dir.path().join("j.db"))
        .arg("ingest")
        .arg(&junk)
        .run();
    assert_eq!(run.code(), Some(1), "{}", run.stderr);
}

#[test]
fn a_reading_command_on_a_missing_database_says_so_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("none.db");
    let mut all = answering();
    all.push(vec!["mark", "15", "declined"]);
    for args in all {
        let run = Cmd::regtrack().db(&db).args(&args).run();
        assert_eq!(run.code(), Some(2), "{args:?}");
        assert!(
            run.stderr.contains("does not exist"),
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "{args:?} created a file"
        );
    }
}

#[test]
fn a_pipe_closed_early_ends_every_command_quietly_with_status_0() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    for args in answering() {
        // The reader is gone before regtrack writes its first byte.
        let mut child = Command::new(env!("CARGO_BIN_EXE_regtrack"))
            .arg("--db")
            .arg(&db)
            .args(&args)
            .env_remove("REGTRACK_DB")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(
            !err.contains("error") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn failures_lists_what_could_not_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let v = Cmd::regtrack().db(&db).args(["failures", "--json"]).json();
    let all = v.as_array().unwrap();
    assert!(!all.is_empty());
    let f = all
        .iter()
        .find(|f| {
            f["source"]
                .as_str()
                .unwrap()
                .ends_with("corpus/bad/no-headers.mbox")
        })
        .expect("no-headers.mbox failed");
    assert_eq!(f["offset"], 0);
    assert!(
        f["reason"].as_str().unwrap().contains("no header block"),
        "{f}"
    );
    let text = Cmd::regtrack().db(&db).arg("failures").ok().stdout;
    assert!(text.lines().any(|l| l.ends_with(
        "corpus/bad/no-headers.mbox  offset 0  no header block: the message does not start with a header field"
    )), "{text}");
    // A database where everything was read: exit 1.
    let clean = dir.path().join("clean.db");
    Cmd::regtrack()
        .db(&clean)
        .args(["--quiet", "ingest"])
        .arg(crate::common::corpus("report/current-perf-report.eml"))
        .ok();
    assert_eq!(
        Cmd::regtrack().db(&clean).arg("failures").run().code(),
        Some(1)
    );
}

#[test]
fn mail_shows_its_lore_link() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let text = Cmd::regtrack().db(&db).args(["mail", REPORT]).ok().stdout;
    assert!(
        text.contains(&format!(
            "\nArchived-At: <https://lore.kernel.org/all/{REPORT}/>\n"
        )),
        "{text}"
    );
    let v = Cmd::regtrack()
        .db(&db)
        .args(["mail", "--json", REPORT])
        .json();
    assert_eq!(v["url"], format!("https://lore.kernel.org/all/{REPORT}/"));
}

#[test]
fn an_answer_that_cannot_be_written_says_standard_output_and_exits_2() {
    if !std::path::Path::new("/dev/full").exists() {
        crate::common::skip("/dev/full is missing");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    for args in answering() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_regtrack"))
            .arg("--db")
            .arg(&db)
            .args(&args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("standard output"), "{args:?}: {err}");
    }
}

#[test]
fn a_message_id_copied_from_its_header_finds_the_message_whatever_its_spaces() {
    let dir = tempfile::tempdir().unwrap();
    let mbox = dir.path().join("sp.mbox");
    std::fs::write(
        &mbox,
        "From a@b Mon Jan  1 00:00:00 2024\nFrom: a@b\nSubject: spaced\n\
         Date: Mon, 1 Jan 2024 00:00:00 +0000\nMessage-ID: <a b@x>\n\nbody\n",
    )
    .unwrap();
    let db = dir.path().join("t.db");
    Cmd::regtrack()
        .db(&db)
        .args(["ingest", "--quiet"])
        .arg(&mbox)
        .ok();
    for args in [["mail", "<a b@x>"], ["mail", "ab@x"], ["thread", "<a b@x>"]] {
        let run = Cmd::regtrack().db(&db).args(args).run();
        assert_eq!(run.code(), Some(0), "{args:?}: {}", run.stderr);
        assert!(run.stdout.contains("spaced"), "{args:?}: {}", run.stdout);
    }
}
