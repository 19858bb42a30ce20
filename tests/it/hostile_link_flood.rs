//! A flood of histories that look alike: many copies of one whole history
//! (`corpus/threads/fixed-history.mbox`: a report, replies, a fix with
//! `Closes:`, its thank-you), each with a culprit and Message-IDs of its
//! own, whose fixes share their title and author, or their diff. Each
//! history must hold its own fix, its own landing and nothing of the other
//! copies: what a history holds then grows with the archive, not with its
//! square (`scripts/bench-link-scale` measures the time).

use std::path::Path;

use crate::common::{Cmd, corpus};

/// Copies of the fixed history.
const COPIES: usize = 12;

/// `COPIES` renamed copies of the fixed history: every Message-ID gets
/// the prefix `h<i>.`, culprit `<i>`'s id is made of `i`; the culprit's
/// title gets ` <i>`; the fix's title too unless `same_title`; the fix's
/// diff changes with `i` unless `same_diff`.
fn flood(same_title: bool, same_diff: bool) -> String {
    let text = std::fs::read_to_string(corpus("threads/fixed-history.mbox")).unwrap();
    let mut ids: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let rest = l
                .strip_prefix("Message-ID:")
                .or_else(|| l.strip_prefix("Message-Id:"))?;
            let id = rest.trim().trim_start_matches('<').trim_end_matches('>');
            Some(id.to_string())
        })
        .collect();
    ids.sort_by_key(|id| std::cmp::Reverse(id.len()));
    ids.dedup();
    assert!(ids.len() >= 5, "the fixture's Message-IDs");
    let full = "5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b";
    let mut out = String::new();
    for i in 0..COPIES {
        let id = format!("{:010x}{:030x}", (i as u64 + 1) * 0x9a3c_5e71, i);
        let mut t = text.clone();
        for mid in &ids {
            t = t.replace(mid.as_str(), &format!("h{i}.{mid}"));
        }
        // Every abbreviation of the culprit's id, longest first.
        for len in (8..=full.len()).rev() {
            t = t.replace(&full[..len], &id[..len]);
        }
        for title in [
            "take the orphan lock only when needed",
            "only lock the orphan list for orphans",
        ] {
            if title.starts_with("take") || !same_title {
                t = t.replace(title, &format!("{title} {i}"));
            }
        }
        if !same_diff {
            t = t.replace("s_orphan_lock", &format!("s_orphan_lock_{i}"));
        }
        out.push_str(&t);
        out.push('\n');
    }
    out
}

/// Ingests `mbox` into `db`; every history of the export, by culprit.
fn histories(dir: &Path, name: &str, mbox: &str) -> Vec<serde_json::Value> {
    let path = dir.join(format!("{name}.mbox"));
    std::fs::write(&path, mbox).unwrap();
    let db = dir.join(format!("{name}.db"));
    Cmd::regtrack()
        .db(&db)
        .args(["ingest", "--quiet"])
        .arg(&path)
        .ok();
    let out = dir.join(format!("{name}.json"));
    Cmd::regtrack()
        .db(&db)
        .args(["export", "--format", "json", "--out"])
        .arg(&out)
        .ok();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    v.as_array().expect("an array of histories").clone()
}

/// The Message-IDs a history holds.
fn held(h: &serde_json::Value) -> Vec<String> {
    h["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// Every history holds only messages of its own copy, as many as one copy
/// alone gives, and is `fix-applied` by its own fix and landing.
fn each_holds_its_own(hs: &[serde_json::Value], alone: usize, what: &str) {
    assert_eq!(hs.len(), COPIES, "{what}: one history per copy");
    for h in hs {
        let ids = held(h);
        let first = ids.first().expect("a history holds its report");
        let prefix = &first[..first.find('.').unwrap() + 1];
        assert!(
            ids.iter().all(|id| id.starts_with(prefix)),
            "{what}: a history holds another copy's messages: {ids:?}"
        );
        assert_eq!(ids.len(), alone, "{what}: {ids:?}");
        assert_eq!(h["status"], "fix-applied", "{what}: {}", h["culprit"]);
        let patches = h["patches"].as_array().unwrap();
        assert!(
            patches
                .iter()
                .filter(|p| p["role"] == "patch")
                .all(|p| p["applied"].as_array().unwrap().len() == 1),
            "{what}: each fix has its own landing only: {patches:?}"
        );
    }
}

#[test]
fn copies_whose_fixes_share_a_title_or_a_diff_each_keep_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let one = histories(dir.path(), "one", &flood(false, false));
    let alone = held(&one[0]).len();
    assert!(alone >= 6, "the fixture's history: {alone} messages");
    each_holds_its_own(&one, alone, "distinct titles and diffs");
    let titled = histories(dir.path(), "title", &flood(true, false));
    each_holds_its_own(&titled, alone, "one fix title and author");
    let diffed = histories(dir.path(), "diff", &flood(false, true));
    each_holds_its_own(&diffed, alone, "one diff");
}
