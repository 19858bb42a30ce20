//! Each status keeps its own colour in `list` and `show`: every status a
//! distinct SGR code, used with `--color always` and on a terminal (a
//! pseudo-terminal made by `script`), never in a pipe, with `--color
//! never` or, on a terminal, with `NO_COLOR` set.

use std::path::Path;
use std::process::Command;

use regtrack::export::human::status_sgr;
use regtrack::model::history::Status;

use crate::common::{Cmd, skip_part_shown};
use crate::usable_links::corpus_db;

/// The statuses a `list` line shows, with the SGR code each is painted in.
fn painted(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut rest = line;
        while let Some(i) = rest.find("\x1b[") {
            let after = &rest[i + 2..];
            let Some(m) = after.find('m') else { break };
            let code = after[..m].to_string();
            let body = &after[m + 1..];
            let end = body.find("\x1b[0m").unwrap_or(body.len());
            out.push((code, body[..end].trim().to_string()));
            rest = &body[end..];
        }
    }
    out
}

#[test]
fn every_status_has_its_own_colour_in_list_and_show() {
    let mut codes: Vec<&str> = Status::ALL.iter().map(|s| status_sgr(*s)).collect();
    codes.sort();
    codes.dedup();
    assert_eq!(
        codes.len(),
        Status::ALL.len(),
        "two statuses share a colour"
    );

    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let list = Cmd::regtrack()
        .db(&db)
        .args(["--color", "always", "list"])
        .ok()
        .stdout;
    let mut seen = Vec::new();
    for (code, text) in painted(&list) {
        if let Some(s) = Status::parse(&text) {
            assert_eq!(code, status_sgr(s), "{text}");
            if !seen.contains(&s) {
                seen.push(s);
            }
        }
    }
    // The corpus holds most statuses; each is painted in its own colour.
    assert!(seen.len() >= 6, "{seen:?}\n{list}");
    let show = Cmd::regtrack()
        .db(&db)
        .args(["--color", "always", "show", "5e1f2a3b4c5d"])
        .ok()
        .stdout;
    let st = painted(&show);
    assert!(
        st.iter()
            .any(|(c, t)| t == "fix-applied" && c == status_sgr(Status::FixApplied)),
        "{show}"
    );
    assert!(
        st.iter()
            .any(|(c, t)| t == "reported" && c == status_sgr(Status::Reported)),
        "{show}"
    );

    // A pipe (the default `auto`) and `never`: no escape at all.
    for args in [
        vec!["list"],
        vec!["--color", "never", "list"],
        vec!["show", "ext4"],
    ] {
        let out = Cmd::regtrack().db(&db).args(&args).ok().stdout;
        assert!(!out.contains('\x1b'), "{args:?}: {out}");
    }
    on_a_terminal(&db);
}

/// `auto` on a terminal colours, and `NO_COLOR` turns it off; run under
/// `script`, which gives the command a pseudo-terminal.
fn on_a_terminal(db: &Path) {
    let have = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        skip_part_shown(
            "colours on a terminal",
            "the script command is not installed",
        );
        return;
    }
    let run = |no_color: bool| -> String {
        let line = format!(
            "'{}' --db '{}' list",
            env!("CARGO_BIN_EXE_regtrack"),
            db.display()
        );
        let mut c = Command::new("script");
        c.args(["-qec", &line, "/dev/null"])
            .env_remove("NO_COLOR")
            .env("TERM", "xterm");
        if no_color {
            c.env("NO_COLOR", "1");
        }
        let out = c.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let coloured = run(false);
    assert!(
        painted(&coloured)
            .iter()
            .any(|(c, t)| Status::parse(t).is_some_and(|s| status_sgr(s) == c)),
        "{coloured}"
    );
    let plain = run(true);
    assert!(!plain.contains("\x1b["), "NO_COLOR: {plain}");
    assert!(plain.contains("reported"), "{plain}");
}
