//! Real mail (through `REGTRACK_SHARED`): after ingesting the shared corpus and
//! the five seeds, every robot performance report belongs to exactly one
//! regression, every message below a report in its thread is attached to that
//! report's regression, and `show ext4`, `show jbd2`, `show 6a3afb6ac6` print
//! the histories the mails tell. Without the variable: a note, and pass.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{Cmd, Run, column, rows};

fn shared() -> Option<PathBuf> {
    crate::common::shared()
}

/// `regtrack --db DB ARGS`, which must exit 0 or 1 (nothing matched).
fn regtrack(db: &Path, args: &[&str]) -> Run {
    let out = Cmd::regtrack().db(db).args(args).run();
    out.assert_no_panic();
    assert!(
        matches!(out.code(), Some(0 | 1)),
        "{}: {}",
        out.what,
        out.stderr
    );
    out
}

fn show(db: &Path, q: &str) -> Vec<Value> {
    let v = regtrack(db, &["show", "--json", q]).json();
    v.as_array().cloned().unwrap_or_default()
}

fn short(r: &Value) -> String {
    r["culprit"]["commit"].as_str().unwrap_or("")[..10].to_string()
}

fn ingest(db: &Path, paths: &[PathBuf]) {
    let mut args = vec!["-q".to_string(), "ingest".to_string()];
    args.extend(paths.iter().map(|p| p.to_string_lossy().into_owned()));
    let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    regtrack(db, &a);
}

/// Checks the two linking invariants against the database itself.
fn check_invariants(db: &Path) {
    let all = regtrack(db, &["list", "--json"]).json();
    let regs = all.as_array().expect("list");
    let perf: Vec<String> = column(
        db,
        "SELECT message_id FROM messages WHERE kind = 'perf-report'",
    );
    assert!(!perf.is_empty());
    let mut owner: HashMap<String, usize> = HashMap::new();
    for (i, r) in regs.iter().enumerate() {
        for rep in r["reports"].as_array().expect("reports") {
            let id = rep["message_id"].as_str().expect("id").to_string();
            assert!(
                owner.insert(id.clone(), i).is_none(),
                "{id} in two regressions"
            );
        }
    }
    for p in &perf {
        assert!(
            owner.contains_key(p),
            "perf report {p} belongs to no regression"
        );
    }
    // Every message below a perf report in its thread is in that report's regression
    // (unless it is itself a robot report of another culprit).
    let rows: Vec<(String, Option<String>, String)> = rows(
        db,
        "SELECT m.message_id, t.parent_id, m.kind FROM threads t JOIN messages m ON m.id = t.message",
    );
    let parent: HashMap<&str, &str> = rows
        .iter()
        .filter_map(|(m, p, _)| p.as_deref().map(|p| (m.as_str(), p)))
        .collect();
    let members: Vec<HashSet<&str>> = regs
        .iter()
        .map(|r| {
            r["messages"]
                .as_array()
                .expect("messages")
                .iter()
                .filter_map(|m| m.as_str())
                .collect()
        })
        .collect();
    let mut checked = 0;
    for (m, _, kind) in &rows {
        if kind == "perf-report" || kind == "functional-report" {
            continue;
        }
        let mut cur = m.as_str();
        let mut steps = 0;
        while let Some(&p) = parent.get(cur) {
            if let Some(&i) = owner.get(p) {
                assert!(
                    members[i].contains(m.as_str()),
                    "{m} replies under report {p} but is not attached"
                );
                checked += 1;
                break;
            }
            cur = p;
            steps += 1;
            if steps > 1000 {
                break;
            }
        }
    }
    assert!(checked > 0, "no reply was checked");
}

#[test]
fn ext4_histories_from_real_mail_read_as_the_threads_tell() {
    let Some(sh) = shared() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("ext4.db");
    ingest(&db, &[sh.join("corpus/ext4-lkp.mbox"), sh.join("seeds")]);
    check_invariants(&db);

    let ext4 = show(&db, "ext4");
    let status: HashMap<String, String> = ext4
        .iter()
        .map(|r| (short(r), r["status"].as_str().unwrap_or("").to_string()))
        .collect();
    let mut culprits: Vec<&str> = status.keys().map(|s| s.as_str()).collect();
    culprits.sort();
    assert_eq!(
        culprits,
        [
            "03de20bed2",
            "05c2c00f37",
            "4b41deb896",
            "4e8fc10115",
            "4f3d1e4533",
            "57e8668f62",
            "613c5a8589",
            "7ac67301e8",
            "896b02d0b9",
            "c7fc0366c6",
            "ef4eebad9c"
        ]
    );
    // Improvements nobody needs to act on.
    for c in [
        "03de20bed2",
        "4b41deb896",
        "4e8fc10115",
        "57e8668f62",
        "613c5a8589",
        "c7fc0366c6",
    ] {
        assert_eq!(status[c], "improvement", "{c}");
    }
    // The posted patch and the same patch applied to the ext4 tree as
    // 061113efe9 are one culprit.
    let merged = ext4
        .iter()
        .find(|r| short(r) == "4e8fc10115")
        .expect("4e8fc10115");
    assert!(
        merged["culprit"]["aliases"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x.as_str() == Some("061113efe9"))),
        "{}",
        merged["culprit"]
    );
    // Only the robot spoke.
    assert_eq!(status["7ac67301e8"], "reported");
    // A developer replied, no patch.
    assert_eq!(status["896b02d0b9"], "discussed");
    assert_eq!(status["ef4eebad9c"], "discussed");
    // Jan Kara: "I don't think there's anything to fix in the kernel".
    assert_eq!(status["4f3d1e4533"], "declined");
    let declined = ext4
        .iter()
        .find(|r| short(r) == "4f3d1e4533")
        .expect("4f3d1e4533");
    let why = declined["status_evidence"]
        .as_array()
        .and_then(|ev| ev.iter().rev().find(|e| e["status"] == "declined"))
        .and_then(|e| e["reason"].as_str())
        .unwrap_or_default();
    assert!(why.contains("anything to fix in the kernel"), "{why}");
    // The rendered seed reply: Jan Kara won't chase the orphan-list workload.
    assert_eq!(status["05c2c00f37"], "declined");
    let r = ext4
        .iter()
        .find(|r| short(r) == "896b02d0b9")
        .expect("896b02d0b9");
    assert_eq!(r["messages"].as_array().map(|a| a.len()), Some(2));
    assert_eq!(r["reports"][0]["metric"], "stress-ng.fiemap.ops_per_sec");
    // The 2025 subject says "15.8% regression"; the table's sign is kept.
    assert_eq!(r["reports"][0]["change_percent"], -15.8);
    assert_eq!(r["reports"][0]["change_as_written"], 15.8);

    let jbd2 = show(&db, "jbd2");
    let js: HashMap<String, String> = jbd2
        .iter()
        .map(|r| (short(r), r["status"].as_str().unwrap_or("").to_string()))
        .collect();
    assert_eq!(js.len(), 4);
    assert_eq!(js["a794c9ad02"], "improvement");
    assert_eq!(js["7c73ddb758"], "improvement");
    assert_eq!(js["8a4fd33d87"], "reported");
    // The author could not reproduce it; the robot team stood by its data
    // and the author agreed to retest: back to discussed.
    assert_eq!(js["6a3afb6ac6"], "discussed");

    let h = show(&db, "6a3afb6ac6");
    assert_eq!(h.len(), 1);
    let h = &h[0];
    assert_eq!(
        h["culprit"]["commit"],
        "6a3afb6ac6dfab158ebdd4b87941178f58c8939f"
    );
    assert_eq!(
        h["culprit"]["title"],
        "jbd2: increase the journal IO's priority"
    );
    assert_eq!(h["branch"], "linus:master");
    assert_eq!(h["messages"].as_array().map(|a| a.len()), Some(5));
    let ev = h["status_evidence"].as_array().expect("evidence");
    let doubt = &ev[ev.len() - 2];
    assert_eq!(doubt["status"], "disputed");
    assert_eq!(
        doubt["message_id"],
        "dcc72d34-89e1-6181-3556-a1a981256cc6@huawei.com"
    );
    assert!(
        doubt["reason"]
            .as_str()
            .unwrap_or("")
            .contains("couldn't reproduce")
    );
    let last = ev.last().expect("evidence");
    assert_eq!(last["status"], "discussed");
    assert!(
        last["reason"]
            .as_str()
            .unwrap_or("")
            .contains("robot team stands by its data"),
        "{last}"
    );
    let who: Vec<&str> = h["timeline"]
        .as_array()
        .expect("timeline")
        .iter()
        .filter_map(|e| e["from"].as_str())
        .collect();
    for p in ["kernel test robot", "Zhang Yi", "Oliver Sang", "Jan Kara"] {
        assert!(who.contains(&p), "{p} missing from {who:?}");
    }
    assert_eq!(h["regzbot"], "#regzbot introduced: 6a3afb6ac6df ^");
    let text = regtrack(&db, &["show", "6a3afb6ac6"]).stdout;
    assert!(text.contains("status: discussed"), "{text}");
    assert!(text.contains("fileio.latency_95th_ms"));
}

#[test]
fn every_shared_corpus_links_each_report_once_and_attaches_its_replies() {
    let Some(sh) = shared() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("all.db");
    ingest(&db, &[sh.join("corpus"), sh.join("seeds")]);
    check_invariants(&db);
    // A metric of the impact box ("In addition to that ...") finds its regression.
    let v = show(&db, "qperf.udp");
    assert_eq!(v.iter().map(short).collect::<Vec<_>>(), ["779b1a1cb1"]);
    let impacts = &v[0]["reports"][0]["also_impacts"];
    assert_eq!(impacts[0]["metric"], "qperf.udp.latency");
    // A robot report on a posted patch takes its subsystem from the patch subject.
    let p = show(&db, "8a7952dd64");
    assert_eq!(p.len(), 1);
    assert_eq!(p[0]["subsystem"], "ext4/jbd2");
    assert_eq!(p[0]["status"], "improvement");
}
