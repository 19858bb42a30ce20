//! `link::relink_full` threads every message from its headers alone and
//! loads only the whole threads a regression can involve (with pruned
//! tables); what it stores must be exactly what `link::build` computes on
//! every message with its whole extraction: the same thread of every
//! message and the same history of every culprit. Checked on the fixtures
//! of `corpus/`, on a synthetic archive and on the shared corpus.

mod link_common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use regtrack::store::Store;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

type Threads = Vec<(i64, String, Option<String>, u32)>;

fn normalized(mut v: serde_json::Value) -> String {
    v["id"] = serde_json::Value::from(0);
    v.to_string()
}

/// Threads and histories as `relink_full` stored them.
fn stored(store: &Store) -> (Threads, BTreeMap<String, String>) {
    let conn = store.conn();
    let mut stmt = conn
        .prepare("SELECT message, root_id, parent_id, depth FROM threads ORDER BY message")
        .unwrap();
    let threads = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    let mut stmt = conn
        .prepare("SELECT culprit, summary_json FROM regressions")
        .unwrap();
    let histories = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get::<_, String>(1)?)))
        .unwrap()
        .map(|r| {
            let (c, j): (String, String) = r.unwrap();
            (c, normalized(serde_json::from_str(&j).unwrap()))
        })
        .collect();
    (threads, histories)
}

/// Threads and histories of `link::build` on every message.
fn built(store: &Store) -> (Threads, BTreeMap<String, String>) {
    let input = regtrack::store::links::load_input(store).unwrap();
    let out = regtrack::link::build(&input);
    let mut threads: Threads = input
        .messages
        .iter()
        .zip(&out.threads)
        .map(|(m, t)| (m.db_id, t.root_id.clone(), t.parent_id.clone(), t.depth))
        .collect();
    threads.sort();
    let histories = out
        .regressions
        .iter()
        .map(|r| {
            (
                r.culprit.commit.clone(),
                normalized(serde_json::to_value(r).unwrap()),
            )
        })
        .collect();
    (threads, histories)
}

/// Ingests `paths`, relinks, compares; returns (messages, linked subset, regressions).
fn relink_equals_build(paths: &[PathBuf]) -> (usize, usize, usize) {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("x.db")).unwrap();
    regtrack::ingest::ingest(&mut store, paths, &|_, _| {}).expect("ingest");
    regtrack::link::relink_full(&mut store).unwrap();
    let (st, sh) = stored(&store);
    let (bt, bh) = built(&store);
    assert_eq!(st.len(), bt.len(), "thread rows");
    for (a, b) in st.iter().zip(&bt) {
        assert_eq!(a, b, "thread of message {}", a.0);
    }
    assert_eq!(sh.keys().collect::<Vec<_>>(), bh.keys().collect::<Vec<_>>());
    for (k, v) in &sh {
        assert_eq!(Some(v), bh.get(k), "history of {k} differs");
    }
    let sk = regtrack::store::links::load_skeleton(&store).unwrap();
    let subset = regtrack::store::links::relink_messages(&store, &sk).unwrap();
    (st.len(), subset.len(), sh.len())
}

#[test]
fn relinking_only_the_threads_that_matter_equals_linking_every_fixture_message() {
    let (msgs, _, regs) = relink_equals_build(&[root().join("corpus")]);
    assert!(msgs >= 60, "{msgs} messages");
    assert!(regs >= 20, "{regs} regressions");
}

#[test]
fn relinking_only_the_threads_that_matter_equals_linking_every_synthetic_message() {
    let dir = tempfile::tempdir().unwrap();
    let synth = dir.path().join("synth.mbox");
    link_common::write_synth(4000, 11, &synth);
    let (msgs, subset, regs) = relink_equals_build(&[synth, root().join("corpus/threads")]);
    assert!(msgs >= 4000, "{msgs} messages");
    assert!(regs >= 50, "{regs} regressions");
    // Most of a list is not about any regression: it is never loaded whole.
    assert!(subset * 3 < msgs, "{subset} of {msgs} messages loaded");
}

#[test]
fn relinking_only_the_threads_that_matter_equals_linking_the_shared_corpus() {
    let Some(shared) = std::env::var_os("REGTRACK_SHARED") else {
        eprintln!("note: REGTRACK_SHARED not set; shared corpus skipped");
        return;
    };
    let shared = Path::new(&shared);
    let (msgs, _, regs) = relink_equals_build(&[shared.join("corpus"), shared.join("seeds")]);
    assert!(msgs >= 100, "{msgs} messages");
    assert!(regs >= 40, "{regs} regressions");
}
