//! One output option: every command that prints text or JSON takes
//! `--format` (text by default, json, and the formats of its own such as
//! export's md, csv and html), and `--json`, the older spelling, is short
//! for `--format json`: the same bytes on stdout and the same exit status,
//! command by command, on the bundled corpus.

use serde_json::Value;

use crate::common::{Cmd, Run, corpus};
use crate::usable_links::corpus_db;

const REPORT: &str = "202403151023.5e1f2a3b-lkp@intel.com";

/// Each command that prints JSON, with arguments that answer on the corpus.
fn commands() -> Vec<Vec<&'static str>> {
    vec![
        vec!["show", "ext4"],
        vec!["list"],
        vec!["list", "--status", "landed"],
        vec!["stats"],
        vec!["failures"],
        vec!["mail", REPORT],
        vec!["mail", "--copies", REPORT],
        vec!["trends"],
        vec!["trends", "--by", "release", "--per", "subsystem"],
        vec!["export"],
    ]
}

fn run(db: &std::path::Path, args: &[&str], extra: &[&str]) -> Run {
    let r = Cmd::regtrack().db(db).args(args).args(extra).run();
    r.assert_no_panic();
    r
}

#[test]
fn json_and_format_json_print_the_same_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    for args in commands() {
        let short = run(&db, &args, &["--json"]);
        let long = run(&db, &args, &["--format", "json"]);
        assert_eq!(short.code(), Some(0), "{args:?} --json: {}", short.stderr);
        assert_eq!(long.code(), short.code(), "{args:?}");
        assert!(!short.stdout.is_empty(), "{args:?}");
        assert_eq!(long.stdout, short.stdout, "{args:?}");
        // It is JSON, and not the text the command prints by default.
        serde_json::from_str::<Value>(&long.stdout)
            .unwrap_or_else(|e| panic!("{args:?} --format json: {e}"));
        let text = run(&db, &args, &[]);
        assert_ne!(text.stdout, long.stdout, "{args:?}");
        // `--format text` is the default, where text is a format.
        if args[0] != "export" {
            assert_eq!(run(&db, &args, &["--format", "text"]).stdout, text.stdout);
        }
        // The two spellings of the format together are a usage error.
        let both = run(&db, &args, &["--json", "--format", "text"]);
        assert_eq!(both.code(), Some(2), "{args:?}");
    }
    // Nothing matched: exit 1 either way, with the same output.
    for args in [
        vec!["list", "--subsystem", "no-such-subsystem"],
        vec!["show", "no-such-thing"],
    ] {
        let short = run(&db, &args, &["--json"]);
        let long = run(&db, &args, &["--format", "json"]);
        assert_eq!(short.code(), Some(1), "{args:?}");
        assert_eq!(long.code(), Some(1), "{args:?}");
        assert_eq!(long.stdout, short.stdout, "{args:?}");
    }
    // mail --raw has one form: no format goes with it.
    for f in [&["--json"][..], &["--format", "json"][..]] {
        assert_eq!(
            run(&db, &["mail", "--raw", REPORT], f).code(),
            Some(2),
            "{f:?}"
        );
    }
}

/// ingest's summary: the same fields and counts; only its timings (the
/// `*seconds` fields) differ from run to run.
#[test]
fn ingest_json_and_format_json_print_the_same_summary() {
    let dir = tempfile::tempdir().unwrap();
    let summary = |name: &str, flag: &[&str]| -> Value {
        let db = dir.path().join(name);
        let r = Cmd::regtrack()
            .db(&db)
            .arg("ingest")
            .args(flag)
            .arg(corpus("report"))
            .run();
        assert_eq!(r.code(), Some(0), "{flag:?}: {}", r.stderr);
        let mut v: Value = serde_json::from_str(&r.stdout).expect("JSON");
        let o = v.as_object_mut().expect("an object");
        let timings: Vec<String> = o
            .keys()
            .filter(|k| k.ends_with("seconds"))
            .cloned()
            .collect();
        assert!(timings.contains(&"seconds".to_string()), "{o:?}");
        for k in timings {
            o.remove(&k);
        }
        v
    };
    let short = summary("a.db", &["--json"]);
    let long = summary("b.db", &["--format", "json"]);
    assert_eq!(short, long);
    assert!(short["new"].as_i64().is_some_and(|n| n > 0), "{short}");
}

#[test]
fn help_names_format_and_not_json() {
    for cmd in [
        "ingest", "show", "list", "stats", "failures", "mail", "trends", "export",
    ] {
        let help = Cmd::regtrack().args([cmd, "--help"]).ok().stdout;
        assert!(help.contains("--format <"), "{cmd}: {help}");
        assert!(help.contains("json"), "{cmd}: {help}");
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("`--json` is short for `--format json`"),
            "{cmd}: {help}"
        );
        // --json is not an option of its own in the list of options.
        assert!(
            !help.lines().any(|l| l.trim_start().starts_with("--json")),
            "{cmd}: {help}"
        );
    }
}
