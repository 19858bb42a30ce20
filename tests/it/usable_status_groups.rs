//! `--status`: a status name means that status alone, and the groups have
//! names of their own (`open`, `landed`, `closed`). On the bundled corpus,
//! which has one `fixed` and one `fix-applied` history: `--status fixed`
//! lists the `fixed` one only, `--status landed` both; the help of the
//! commands and the README's table of the groups say what the code does.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::Cmd;
use crate::usable_links::corpus_db;

/// The (id, status) of every history a command's JSON lists.
fn listed(db: &std::path::Path, args: &[&str]) -> BTreeSet<(i64, String)> {
    let run = Cmd::regtrack().db(db).args(args).run();
    assert!(
        matches!(run.code(), Some(0 | 1)),
        "{args:?}: {}",
        run.stderr
    );
    if run.code() == Some(1) {
        return BTreeSet::new();
    }
    let v: Value = serde_json::from_str(&run.stdout).expect("JSON");
    v.as_array()
        .expect("a list")
        .iter()
        .map(|r| {
            (
                r["id"].as_i64().expect("id"),
                r["status"].as_str().expect("status").to_string(),
            )
        })
        .collect()
}

fn statuses(rows: &BTreeSet<(i64, String)>) -> BTreeSet<&str> {
    rows.iter().map(|(_, s)| s.as_str()).collect()
}

#[test]
fn fixed_is_the_status_and_landed_the_group_of_fix_applied_and_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let all = listed(&db, &["list", "--json"]);
    let of = |s: &str| -> BTreeSet<(i64, String)> {
        all.iter().filter(|(_, st)| st == s).cloned().collect()
    };
    let (fixed, applied) = (of("fixed"), of("fix-applied"));
    assert!(
        !fixed.is_empty() && !applied.is_empty(),
        "the corpus has both: {all:?}"
    );
    for cmd in [&["list", "--json"][..], &["export", "--format", "json"][..]] {
        let with = |status: &str| {
            let mut args = cmd.to_vec();
            args.extend(["--status", status]);
            listed(&db, &args)
        };
        assert_eq!(with("fixed"), fixed, "{cmd:?} --status fixed");
        assert_eq!(with("fix-applied"), applied, "{cmd:?} --status fix-applied");
        let landed = with("landed");
        assert_eq!(
            landed,
            fixed.union(&applied).cloned().collect(),
            "{cmd:?} --status landed"
        );
        assert_eq!(statuses(&landed), BTreeSet::from(["fix-applied", "fixed"]));
        assert_eq!(with("fixed,fix-applied"), landed, "{cmd:?}");
        // Case and spaces aside, as the statuses.
        assert_eq!(with(" LANDED"), landed, "{cmd:?}");
    }
    // trends counts the histories the filter passes: one for `fixed`.
    let t = Cmd::regtrack()
        .db(&db)
        .args([
            "trends",
            "--json",
            "--per",
            "subsystem",
            "--status",
            "fixed",
        ])
        .json();
    let ids: BTreeSet<i64> = t["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .flat_map(|r| r["ids"].as_array().cloned().unwrap_or_default())
        .filter_map(|i| i.as_i64())
        .collect();
    let fixed_ids: BTreeSet<i64> = fixed.iter().map(|(i, _)| *i).collect();
    assert!(
        !ids.is_empty() && ids.is_subset(&fixed_ids),
        "{ids:?} {fixed_ids:?}"
    );
    // An unknown name says the groups.
    let bad = Cmd::regtrack()
        .db(&db)
        .args(["list", "--status", "merged"])
        .run();
    assert_eq!(bad.code(), Some(2));
    assert!(
        bad.stderr.contains("landed") && bad.stderr.contains("fix-applied"),
        "{}",
        bad.stderr
    );
}

/// What a group holds, from the code.
fn group(name: &str) -> BTreeSet<String> {
    regtrack::query::status_group(name)
        .unwrap_or_else(|| panic!("no group {name}"))
        .into_iter()
        .map(|s| s.as_str().to_string())
        .collect()
}

#[test]
fn the_help_and_the_readme_say_what_each_group_holds() {
    assert_eq!(regtrack::query::STATUS_GROUPS, ["open", "landed", "closed"]);
    for g in regtrack::query::STATUS_GROUPS {
        assert!(
            regtrack::model::history::Status::parse(g).is_none(),
            "{g} is a status and a group"
        );
    }
    assert!(regtrack::query::status_group("fixed").is_none());
    assert_eq!(
        group("landed"),
        BTreeSet::from(["fix-applied".to_string(), "fixed".to_string()])
    );
    for cmd in ["list", "export", "trends", "follow"] {
        let help = Cmd::regtrack().args([cmd, "--help"]).ok().stdout;
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("`landed` (fix-applied or fixed"),
            "{cmd} --help: {help}"
        );
        assert!(!flat.contains("`fixed`, `closed`"), "{cmd} --help: {help}");
    }
    // The README's table of the groups, row by row.
    let readme = std::fs::read_to_string(crate::common::root().join("README.md")).unwrap();
    let table = readme
        .split("### Status groups")
        .nth(1)
        .expect("a Status groups section")
        .split("\n\n")
        .find(|p| p.starts_with("| group |"))
        .expect("its table");
    let mut seen = Vec::new();
    for row in table.lines().skip(2) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let name = cells[1].trim_matches('`');
        let said: BTreeSet<String> = regtrack::model::history::Status::ALL
            .iter()
            .map(|s| s.as_str())
            .filter(|s| cells[2].contains(&format!("`{s}`")))
            .map(str::to_string)
            .collect();
        assert_eq!(said, group(name), "README, group {name}");
        seen.push(name.to_string());
    }
    assert_eq!(seen, regtrack::query::STATUS_GROUPS);
}
