//! What a user or a file name can put on the command line or in the
//! configuration: escape sequences in names never reach stderr raw, and
//! numbers out of range are errors (exit 2, naming what was wrong), never a
//! panic or a silent wrap.

use std::path::Path;
use std::process::Output;

fn regtrack(db: &Path, args: &[&str]) -> Output {
    crate::trees_cli::regtrack(db, args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn corpus_db(dir: &Path) -> std::path::PathBuf {
    crate::hostile_export::database(dir)
}

#[test]
fn a_file_name_database_path_or_query_with_escapes_is_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    // A file in an ingested folder whose name clears the screen.
    let folder = dir.path().join("in");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("x\x1b[2Jy.mbox"), b"\x00\x01 not mail at all\n").unwrap();
    let o = regtrack(&db, &["ingest", folder.to_str().unwrap()]);
    let err = stderr(&o);
    assert!(!err.contains('\x1b'), "{err:?}");
    // A database path that does not exist.
    let gone = dir.path().join("no\x1b]0;owned\x07.db");
    let o = regtrack(&gone, &["list"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        !err.contains('\x1b') && err.contains("\\x1b]0;owned"),
        "{err:?}"
    );
    // A query that matches nothing.
    let o = regtrack(&db, &["show", "zz\x1b[31mred"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("zz\\x1b[31mred"), "{err:?}");
}

#[test]
fn far_off_day_counts_are_refused_not_wrapped_or_panicking() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    for args in [
        &["report", "--since", "9223372036854775807d"][..],
        &["report", "--since", "99999999999999999999999d"][..],
        &["fetch", "--query", "s:x", "--since", "99999999999999d"][..],
    ] {
        let o = regtrack(&db, args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("too far back"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let o = regtrack(&db, &["report", "--since", "36525d"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.contains("????"), "{out}");
}

#[test]
fn a_config_value_that_would_panic_is_a_config_error() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let config = dir.path().join("c.toml");
    std::fs::write(&config, "requests_per_second = 1e-30\n").unwrap();
    let o = regtrack(&db, &["--config", config.to_str().unwrap(), "fetch", "x@y"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("c.toml") && err.contains("requests_per_second"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_lore_base_that_is_not_a_web_link_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let o = regtrack(&db, &["--lore-base", "javascript:alert(1)//", "list"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("only http:// and https://"), "{err}");
}

/// The history's first report, as `show --json` gives it.
fn first_date(db: &Path) -> String {
    let o = regtrack(db, &["show", "5e1f2a3b4c", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let first = &v.as_array().map_or(&v, |a| &a[0])["first_date"];
    first.as_str().unwrap_or_default().to_string()
}

#[test]
fn a_reply_with_a_wrong_date_does_not_move_the_first_report() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let before = first_date(&db);
    assert!(before.starts_with("2024-03-15"), "{before}");
    for (n, date) in [
        (1, "Thu, 01 Jan 1970 00:00:00 +0000"),
        (2, "Mon, 1 Jan 0001 00:00:00 +0000"),
        (3, "Mon, 33 Feb 2025 25:61:61 +0000"),
        (4, "Sun, 01 Jan 1995 00:00:00 +0000"),
    ] {
        let reply = dir.path().join(format!("reply{n}.mbox"));
        std::fs::write(
            &reply,
            format!(
                "From x@y Thu Jan  1 00:00:00 1970\nFrom: Some One <one@example.org>\n\
                 Date: {date}\nSubject: Re: [linus:master] [ext4]  5e1f2a3b4c:  \
                 fsmark.files_per_sec -12.3% regression\nMessage-ID: <wrong-date-{n}@example.org>\n\
                 In-Reply-To: <202403151023.5e1f2a3b-lkp@intel.com>\n\
                 References: <202403151023.5e1f2a3b-lkp@intel.com>\n\nThanks for the report.\n"
            ),
        )
        .unwrap();
        let o = regtrack(&db, &["-q", "ingest", reply.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(first_date(&db), before, "after a reply dated {date}");
    }
}

#[test]
fn a_decoded_mail_through_a_pipe_carries_no_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let mbox = dir.path().join("esc.mbox");
    std::fs::write(
        &mbox,
        "From a Mon Sep 17 00:00:00 2001\nFrom: A <a@example.org>\nSubject: s\n\
         Message-ID: <esc@example.org>\nDate: Mon, 1 Jul 2024 10:00:00 +0000\n\n\
         before \x1b]52;c;ZWNobyBvd25lZA==\x07 \x1b[2J \u{202e}after\n",
    )
    .unwrap();
    let db = dir.path().join("e.db");
    assert!(
        regtrack(&db, &["-q", "ingest", mbox.to_str().unwrap()])
            .status
            .success()
    );
    // stdout is a pipe here.
    let o = regtrack(&db, &["mail", "esc@example.org"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        !text.contains('\x1b') && !text.contains('\u{202e}'),
        "{text:?}"
    );
    assert!(text.contains("\\x1b]52;c;"), "{text:?}");
    // --raw gives the bytes as they came.
    let raw = regtrack(&db, &["mail", "--raw", "esc@example.org"]);
    assert!(String::from_utf8_lossy(&raw.stdout).contains('\x1b'));
}

#[test]
fn help_and_version_that_cannot_be_written_fail() {
    if !Path::new("/dev/full").exists() {
        crate::common::skip("/dev/full is missing");
        return;
    }
    for arg in ["--help", "--version"] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_regtrack"))
            .arg(arg)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{arg}");
        assert!(
            stderr(&o).contains("standard output"),
            "{arg}: {}",
            stderr(&o)
        );
    }
}
