//! Re-linking cost: an ingest that stores nothing new leaves the link tables
//! untouched, and linking in steps (after each of several ingests) gives the
//! same threads and histories as one full recompute, on `corpus/threads` and
//! on a synthetic archive written by `regtrack-synth`.

mod link_common;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use regtrack::link::{relink, relink_full};
use regtrack::store::Store;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ingest(store: &mut Store, paths: &[PathBuf]) -> regtrack::ingest::Summary {
    regtrack::ingest::ingest(store, paths, &|_, _| {}).expect("ingest")
}

fn fixtures() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("corpus/threads"))
        .expect("corpus/threads")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mbox"))
        .collect();
    v.sort();
    v
}

/// Regression histories keyed by culprit, with the id (which depends on the
/// order culprits appeared in) cleared.
fn histories(store: &Store) -> BTreeMap<String, String> {
    let mut stmt = store
        .conn()
        .prepare("SELECT culprit, summary_json FROM regressions")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get::<_, String>(1)?)))
        .unwrap()
        .map(|r| {
            let (c, j): (String, String) = r.unwrap();
            let mut v: serde_json::Value = serde_json::from_str(&j).unwrap();
            v["id"] = serde_json::Value::from(0);
            (c, v.to_string())
        })
        .collect()
}

type ThreadRow = (String, String, Option<String>, i64);
type MemberRow = (String, String, String);

/// Thread rows keyed by Message-ID, and regression membership by culprit.
fn links(store: &Store) -> (Vec<ThreadRow>, Vec<MemberRow>) {
    let conn = store.conn();
    let mut stmt = conn
        .prepare(
            "SELECT m.message_id, t.root_id, t.parent_id, t.depth FROM threads t \
             JOIN messages m ON m.id = t.message ORDER BY m.message_id",
        )
        .unwrap();
    let threads = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    let mut stmt = conn
        .prepare(
            "SELECT g.culprit, m.message_id, rm.role FROM regression_messages rm \
             JOIN regressions g ON g.id = rm.regression JOIN messages m ON m.id = rm.message \
             ORDER BY 1, 2",
        )
        .unwrap();
    let members = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    (threads, members)
}

fn event_rowids(store: &Store) -> Vec<i64> {
    let mut stmt = store
        .conn()
        .prepare("SELECT id FROM regression_events ORDER BY id")
        .unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .map(|r| r.unwrap())
        .collect()
}

/// Linking after each step equals linking once after all steps.
fn assert_steps_equal_full(steps: &[Vec<PathBuf>]) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let mut stepped = Store::open(&dir.path().join("steps.db")).unwrap();
    for s in steps {
        ingest(&mut stepped, s);
        assert!(relink(&mut stepped).unwrap(), "new mail must relink");
    }
    let mut full = Store::open(&dir.path().join("full.db")).unwrap();
    let all: Vec<PathBuf> = steps.iter().flatten().cloned().collect();
    ingest(&mut full, &all);
    relink_full(&mut full).unwrap();
    let (a, b) = (histories(&stepped), histories(&full));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (k, v) in &a {
        assert_eq!(Some(v), b.get(k), "history of {k} differs");
    }
    assert_eq!(links(&stepped), links(&full));
    a.len()
}

#[test]
fn a_second_ingest_of_the_same_input_does_not_touch_the_link_tables() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("x.db")).unwrap();
    let paths = vec![root().join("corpus/threads")];
    let first = ingest(&mut store, &paths);
    assert!(first.new >= 20, "fixtures hold {} messages", first.new);
    assert!(relink(&mut store).unwrap());
    let regressions = histories(&store);
    assert!(regressions.len() >= 6, "{} regressions", regressions.len());
    let events = event_rowids(&store);
    assert!(!events.is_empty());

    let again = ingest(&mut store, &paths);
    assert_eq!(again.new, 0);
    let t = Instant::now();
    assert!(
        !relink(&mut store).unwrap(),
        "nothing new: relink must skip"
    );
    let took = t.elapsed();
    assert!(took.as_millis() < 200, "skipped relink took {took:?}");
    assert_eq!(event_rowids(&store), events, "regression_events rewritten");
    assert_eq!(histories(&store), regressions);

    // A mark is new input: it relinks, and only then.
    regtrack::store::links::insert_mark(
        &mut store,
        &regtrack::link::Mark {
            culprit: regressions.keys().next().unwrap().clone(),
            status: "declined".into(),
            note: None,
            author: "Test Person".into(),
            at: 1_700_000_000,
        },
    )
    .unwrap();
    assert!(relink(&mut store).unwrap(), "a new mark must relink");
    assert!(!relink(&mut store).unwrap());
}

#[test]
fn an_older_link_logic_version_is_recomputed() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("x.db")).unwrap();
    ingest(&mut store, &[root().join("corpus/threads")]);
    assert!(relink(&mut store).unwrap());
    store
        .conn()
        .execute("UPDATE link_state SET logic_version = 0", [])
        .unwrap();
    assert!(
        relink(&mut store).unwrap(),
        "stale logic version must relink"
    );
    regtrack::store::links::clear_state(&store).unwrap();
    assert!(relink(&mut store).unwrap(), "no state must relink");
    assert!(!relink(&mut store).unwrap());
}

#[test]
fn linking_fixture_by_fixture_equals_one_full_recompute() {
    let steps: Vec<Vec<PathBuf>> = fixtures().into_iter().map(|p| vec![p]).collect();
    assert!(steps.len() >= 6);
    let n = assert_steps_equal_full(&steps);
    assert!(n >= 6, "{n} regressions");
}

#[test]
fn linking_a_synthetic_archive_in_steps_equals_one_full_recompute() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("synth.mbox");
    link_common::write_synth(3000, 7, &whole);
    let text = std::fs::read(&whole).unwrap();
    // Cut at three `From ` lines, so that replies arrive in later steps than
    // their reports (and some before their parents' threads are complete).
    let starts: Vec<usize> = text
        .windows(6)
        .enumerate()
        .filter(|(i, w)| *w == b"\nFrom " && *i > 0)
        .map(|(i, _)| i + 1)
        .collect();
    assert!(starts.len() > 2000, "{} messages", starts.len());
    let cuts = [
        0,
        starts[starts.len() / 3],
        starts[starts.len() * 2 / 3],
        starts[starts.len() - 5],
        text.len(),
    ];
    let steps: Vec<Vec<PathBuf>> = cuts
        .windows(2)
        .enumerate()
        .map(|(i, w)| {
            let p = dir.path().join(format!("part{i}.mbox"));
            std::fs::write(&p, &text[w[0]..w[1]]).unwrap();
            vec![p]
        })
        .collect();
    let n = assert_steps_equal_full(&steps);
    assert!(n >= 5, "{n} regressions");
}

/// A message that arrives later can move earlier ones into another thread:
/// their stored thread rows change (not only new rows are added).
#[test]
fn a_late_parent_moves_stored_replies_into_its_thread() {
    let dir = tempfile::tempdir().unwrap();
    let mail = |id: &str, irt: Option<&str>, subject: &str| {
        let irt = irt.map_or(String::new(), |p| {
            format!("In-Reply-To: <{p}>\nReferences: <{p}>\n")
        });
        format!(
            "From x@y Mon Mar  3 10:00:00 2025\nFrom: A <a@example.org>\n\
             Date: Mon, 3 Mar 2025 10:00:00 +0000\nMessage-ID: <{id}>\n{irt}\
             Subject: {subject}\n\nbody of {id}\n\n"
        )
    };
    // Step 1: a reply to b@x, whose own parent is not known yet.
    let first = dir.path().join("1.mbox");
    std::fs::write(&first, mail("c@x", Some("b@x"), "Re: topic")).unwrap();
    // Step 2: b@x arrives, itself a reply to a@x.
    let second = dir.path().join("2.mbox");
    std::fs::write(&second, mail("b@x", Some("a@x"), "Re: topic")).unwrap();
    let steps = vec![vec![first.clone()], vec![second]];
    let mut store = Store::open(&dir.path().join("x.db")).unwrap();
    ingest(&mut store, &steps[0]);
    relink(&mut store).unwrap();
    let root_of = |store: &Store| -> String {
        store
            .conn()
            .query_row(
                "SELECT t.root_id FROM threads t JOIN messages m ON m.id = t.message \
                 WHERE m.message_id = 'c@x'",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert_eq!(root_of(&store), "b@x");
    ingest(&mut store, &steps[1]);
    assert!(relink(&mut store).unwrap());
    assert_eq!(root_of(&store), "a@x", "the stored row was not updated");
    assert_steps_equal_full(&steps);
}
