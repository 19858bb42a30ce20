//! The ingest progress bar: on a terminal only (never into a pipe, a file
//! or cron's mail), with its total and ETA in the summary line's units (MB);
//! the formatting itself is unit-tested in `src/cli/ingest.rs`.

use std::process::Command;

use crate::common::{Cmd, skip_part_shown};

#[test]
fn progress_never_goes_to_a_stderr_that_is_not_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let run = Cmd::regtrack()
        .db(dir.path().join("p.db"))
        .arg("ingest")
        .arg(crate::common::corpus(""))
        .run();
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    for sign in ["\r", "\x1b[", " MB of ", "ETA", "[00:"] {
        assert!(!run.stderr.contains(sign), "{sign:?} in {}", run.stderr);
    }
    // The summary still says how much was read, in MB.
    assert!(run.stdout.contains(" MB in "), "{}", run.stdout);
}

#[test]
fn progress_on_a_terminal_says_its_total_in_mb() {
    if !Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        skip_part_shown(
            "progress on a terminal",
            "the script command is not installed",
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let line = format!(
        "'{}' --db '{}' ingest '{}'",
        env!("CARGO_BIN_EXE_regtrack"),
        dir.path().join("p.db").display(),
        crate::common::corpus("").display()
    );
    let out = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env("TERM", "xterm")
        .env_remove("REGTRACK_DB")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    // The corpus folder holds no compressed file: its size is the total.
    assert!(
        text.contains(" MB of ") && text.contains(" messages"),
        "{text}"
    );
    assert!(text.contains(" MB/s"), "{text}");
    // The bar is cleared before the summary.
    assert!(text.contains("ingested "), "{text}");
    // With --quiet, nothing of it.
    let quiet = Command::new("script")
        .args(["-qec", &format!("{line} --quiet"), "/dev/null"])
        .env("TERM", "xterm")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&quiet.stdout).contains(" MB of "));
}
