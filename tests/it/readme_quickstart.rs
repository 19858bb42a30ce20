//! Keeps the README's quickstart true: its two commands are the ones named
//! here, and the main one (`regtrack ingest corpus/`) ingests the bundled corpus,
//! recursing into its folders, and reports the regressions it linked.

use std::path::Path;

use crate::common::{Cmd, Run, root};

/// `regtrack --db DB ARGS` from the top of the clone, as the README runs it.
fn regtrack(db: &Path, args: &[&str]) -> Run {
    Cmd::regtrack().current_dir(root()).db(db).args(args).run()
}

#[test]
fn readme_names_the_two_quickstart_commands() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    assert!(readme.contains("cargo run --release -- ingest corpus/"));
    assert!(readme.contains("\ncargo test\n"));
    let ci = std::fs::read_to_string(root().join(".ci/run")).expect(".ci/run");
    assert!(
        ci.lines().any(|l| l.trim() == "cargo test"),
        "CI runs the README's test command"
    );
}

#[test]
fn ingesting_the_bundled_corpus_walks_every_folder_and_links_regressions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("quickstart.db");
    let out = regtrack(&db, &["ingest", "corpus/"]);
    let (stdout, stderr) = (&out.stdout, &out.stderr);
    assert_eq!(out.code(), Some(0), "{stdout}\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Messages from every family of fixtures, not only the top folder.
    let words: Vec<&str> = stdout.split_whitespace().collect();
    let new: u64 = words
        .windows(2)
        .find(|w| w[1] == "new,")
        .and_then(|w| w[0].parse().ok())
        .expect("a count of new messages");
    assert!(new >= 80, "only {new} new messages: {stdout}");
    let line = stdout
        .lines()
        .find(|l| l.contains("regressions in the database"))
        .expect("a regressions line");
    let total: u64 = line
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a regression count");
    assert!(total >= 10, "{line}");
    // The bad-input fixtures are counted as failures, named with their file.
    assert!(stderr.contains("corpus/bad/"), "{stderr}");

    // What the README shows it printing is what it prints (all but the
    // time it took).
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let shown = |start: &str| -> String {
        readme
            .lines()
            .find(|l| l.starts_with(start) || l.contains(start))
            .unwrap_or_else(|| panic!("README shows no '{start}' line"))
            .to_string()
    };
    let counts = |l: &str| l.split("; ").next().unwrap_or("").to_string();
    let printed_ingest = stdout
        .lines()
        .find(|l| l.starts_with("ingested "))
        .expect("an ingested line");
    let readme_ingest = shown("ingested ");
    assert_eq!(
        counts(&readme_ingest),
        counts(printed_ingest),
        "README's first output is stale"
    );
    assert_eq!(
        shown("regressions in the database"),
        line,
        "README's first output is stale"
    );

    let list = regtrack(&db, &["list"]);
    assert_eq!(list.code(), Some(0));
    let lines = list.stdout.lines().count() as u64;
    assert_eq!(lines, total, "list prints one line per regression");
}
