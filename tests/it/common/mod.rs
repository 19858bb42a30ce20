//! What the integration tests share: running the binaries ([`cmd`]), reading
//! a database file ([`sql`]), comparing JSON with a golden value
//! ([`golden`]), the corpus naming scheme ([`fixtures`]), a hand-built link
//! input ([`scenario`]), a public-inbox look-alike server on loopback
//! ([`lore_server`]), and where things are.
#![allow(dead_code)]

pub mod cmd;
pub mod fixtures;
pub mod golden;
pub mod lore_server;
pub mod scenario;
pub mod sql;

use std::path::{Path, PathBuf};

pub use cmd::{Cmd, Run, field, write_synth};
pub use sql::{column, fresh_schema_rows, integrity, one, rows, sql_i64};

/// The crate's root (`CARGO_MANIFEST_DIR`).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `corpus/REL`.
pub fn corpus(rel: &str) -> PathBuf {
    root().join("corpus").join(rel)
}

/// The first report of `corpus/threads/two-reports.mbox` (culprit
/// d15ea5e012, "ext4: make the sb update interval tunable"), as an mbox of
/// one message: the start of a thread a test writes.
pub fn first_of_two_reports() -> String {
    let all = std::fs::read_to_string(corpus("threads/two-reports.mbox")).unwrap();
    let second = all[1..]
        .find("\nFrom mboxrd@z")
        .map_or(all.len(), |i| i + 2);
    all[..second].to_string()
}

/// `regtrack show CULPRIT --json` on `db`: the history it shows.
pub fn show_history(db: &Path, culprit: &str) -> serde_json::Value {
    let shown = Cmd::regtrack()
        .db(db)
        .args(["show", culprit, "--json"])
        .json();
    shown
        .as_array()
        .and_then(|a| a.first().cloned())
        .unwrap_or(shown)
}

/// The running test's name (libtest names each test's thread after it).
fn test_name() -> String {
    match std::thread::current().name() {
        Some(n) if n != "main" => n.to_string(),
        _ => "a test".to_string(),
    }
}

/// Says that the running test is skipped and why, where the test runner's
/// own output shows it even without `--nocapture` (libtest captures
/// `eprintln!`, not writes to the stderr handle): a test that passes
/// without checking anything must say so where it is read.
pub fn skip(why: &str) {
    shown(&format!("note: {} skipped: {why}", test_name()));
}

/// Says that `what`, a part of the running test, is skipped and why, on
/// the test's captured stderr (libtest shows it with `--nocapture` or
/// `--show-output`): for parts skipped by design, such as help lines that
/// would ask a server.
pub fn skip_part(what: &str, why: &str) {
    eprintln!("note: {}: {what} skipped: {why}", test_name());
}

/// Says that `what`, a part of the running test, is skipped and why, where
/// the test runner's own output shows it (see [`skip`]): for data or a tool
/// the machine lacks (a shell the completion scripts are written for, an
/// archive the gold labels name, the shared mail).
pub fn skip_part_shown(what: &str, why: &str) {
    shown(&format!("note: {}: {what} skipped: {why}", test_name()));
}

/// Writes `line` to the stderr handle, past libtest's capture.
fn shown(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Asserts that `db` answers as a full relink of a copy of it does: what
/// the updates so far left equals one link from scratch (`export --format
/// json`, byte for byte).
pub fn assert_same_as_full(db: &Path) {
    let copy = db.with_extension("full.db");
    std::fs::copy(db, &copy).expect("copy the database");
    Cmd::regtrack()
        .db(&copy)
        .args(["-q", "relink", "--full"])
        .ok();
    let export = |d: &Path| {
        Cmd::regtrack()
            .db(d)
            .args(["export", "--format", "json"])
            .ok()
            .stdout
    };
    assert_eq!(
        export(db),
        export(&copy),
        "incremental and full links differ"
    );
}

/// Whether the `git` command is installed; when it is not, says that the
/// running test is skipped.
pub fn have_git() -> bool {
    let have = std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        skip("the git command is not available");
    }
    have
}

/// The shared real-mail folder named by `REGTRACK_SHARED`; when it is
/// unset, says that the running test is skipped and returns None.
pub fn shared() -> Option<PathBuf> {
    match std::env::var_os("REGTRACK_SHARED") {
        Some(p) => Some(PathBuf::from(p)),
        None => {
            skip("REGTRACK_SHARED is unset");
            None
        }
    }
}

/// The path as a `&str` (every test path is UTF-8).
pub fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// A proptest configuration of `cases` cases whose failures are kept beside
/// the test's source (`tests/it/MODULE.proptest-regressions`): the default
/// would put them in `tests/proptest-regressions/`, outside `tests/it`.
pub fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..proptest::test_runner::Config::default()
    }
}
