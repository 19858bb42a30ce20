//! `--help`: each command's own options apart from the global ones, and
//! every example of every command's help run as written on the bundled
//! corpus, in a folder holding a link to it (the part before a `|` runs; a
//! `>` file is written there). `fetch` and `follow` ask a server: their
//! examples are parsed but not run, and the test says so.

use crate::common::Cmd;

const COMMANDS: &[&str] = &[
    "ingest",
    "stats",
    "parse",
    "show",
    "list",
    "export",
    "report",
    "trends",
    "mark",
    "unmark",
    "mail",
    "thread",
    "failures",
    "reindex",
    "fetch",
    "follow",
    "relink",
    "completions",
    "man",
];

/// Splits a shell line into words: single and double quotes, no escapes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn examples(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Example"))
        .filter_map(|l| l.strip_prefix("  regtrack "))
        .map(str::to_string)
        .collect()
}

#[test]
fn help_sets_the_global_options_apart_and_every_example_runs() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(crate::common::corpus(""), dir.path().join("corpus")).unwrap();
    let db = dir.path().join("regtrack.db");
    let mut ran = 0;
    // ingest first: the other examples read what it stored.
    for cmd in COMMANDS {
        let help = Cmd::regtrack().args([cmd, "--help"]).ok().stdout;
        let own = help.find("Options:").expect("Options:");
        let global = help.find("Global options:").expect("Global options:");
        assert!(own < global, "{cmd}: {help}");
        assert!(help[global..].contains("--db <DB>"), "{cmd}");
        assert!(!help[own..global].contains("--db <DB>"), "{cmd}");
        let ex = examples(&help);
        assert!(!ex.is_empty(), "{cmd} --help has no example");
        for line in ex {
            let mut w = words(line.split(" | ").next().unwrap());
            assert_eq!(w[0], *cmd, "{cmd}: an example of another command: {line}");
            if matches!(*cmd, "fetch" | "follow") {
                crate::common::skip_part(&format!("regtrack {line}"), "asks a server");
                continue;
            }
            let mut out_file = None;
            if let Some(i) = w.iter().position(|x| x == ">") {
                out_file = Some(dir.path().join(&w[i + 1]));
                w.truncate(i);
            }
            let run = Cmd::regtrack()
                .db(&db)
                .current_dir(dir.path())
                .args(&w)
                .run();
            run.assert_no_panic();
            let tolerated_1 = line.contains("--since 7d");
            assert!(
                run.code() == Some(0) || (tolerated_1 && run.code() == Some(1)),
                "regtrack {line}: {:?}\n{}",
                run.code(),
                run.stderr
            );
            if let Some(f) = out_file {
                std::fs::write(&f, &run.stdout_bytes).unwrap();
            }
            ran += 1;
        }
    }
    assert!(ran >= 15, "{ran} examples ran");
    assert!(dir.path().join("triage.html").is_file());
    assert!(dir.path().join("regtrack.bash").is_file());
    assert!(dir.path().join("man/regtrack-show.1").is_file());
}

/// The subcommands a `--help` lists (clap's `help` aside).
pub fn listed_commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l[2..].starts_with(' '))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|n| n != "help")
        .collect()
}

/// Every command, nested ones too (`trees add`), and `COMMANDS` above
/// names every top-level one whose examples can run here.
#[test]
fn every_command_s_help_sets_its_own_options_apart_from_the_global_ones() {
    let top = Cmd::regtrack().arg("--help").ok().stdout;
    let mut todo: Vec<Vec<String>> = listed_commands(&top).into_iter().map(|c| vec![c]).collect();
    for c in &todo {
        assert!(
            COMMANDS.contains(&c[0].as_str()) || c[0] == "trees",
            "{} is missing from COMMANDS",
            c[0]
        );
    }
    let mut seen = 0;
    while let Some(path) = todo.pop() {
        let help = Cmd::regtrack().args(&path).arg("--help").ok().stdout;
        let own = help.find("\nOptions:\n").expect("Options:");
        let global = help.find("\nGlobal options:\n").expect("Global options:");
        assert!(own < global, "{path:?}: {help}");
        assert!(help[own..global].contains("--help"), "{path:?}");
        for g in [
            "--db <DB>",
            "--quiet",
            "--color <COLOR>",
            "--config <PATH>",
            "--lore-base <URL>",
        ] {
            assert!(help[global..].contains(g), "{path:?}: {g}");
            assert!(!help[own..global].contains(g), "{path:?}: {g}");
        }
        assert!(help.contains("\nExample"), "{path:?} --help has no example");
        for sub in listed_commands(&help) {
            let mut p = path.clone();
            p.push(sub);
            todo.push(p);
        }
        seen += 1;
    }
    assert!(seen >= 19, "{seen} commands");
}
