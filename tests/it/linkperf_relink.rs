//! Re-linking cost: an ingest that stores nothing new leaves the link tables
//! untouched, and linking in steps (after each of several ingests) gives the
//! same threads and histories as one full recompute, on `corpus/threads` and
//! on a synthetic archive written by `regtrack-synth`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use regtrack::model::history::{Mark, Status};
use regtrack::pipeline::ingest::Summary;
use regtrack::store::{Store, links};

use crate::common::{column, one, rows, write_synth};

fn ingest(store: &mut Store, paths: &[PathBuf]) -> Summary {
    regtrack::pipeline::ingest::ingest(store, paths, &|_| {}).expect("ingest")
}

/// Whether a relink ran (it must read everything it stored).
fn relink(store: &mut Store) -> bool {
    let (done, unreadable) = regtrack::pipeline::relink::relink(store).unwrap();
    assert!(unreadable.is_empty(), "{unreadable:?}");
    done.how != regtrack::pipeline::relink::How::Nothing
}

fn relink_full(store: &mut Store) {
    let unreadable = regtrack::pipeline::relink::relink_full(store).unwrap();
    assert!(unreadable.is_empty(), "{unreadable:?}");
}

fn fixtures() -> Vec<PathBuf> {
    crate::common::fixtures::fixtures("threads")
        .into_iter()
        .map(|f| f.input)
        .collect()
}

/// Regression histories keyed by culprit, with the id (which depends on the
/// order culprits appeared in) cleared.
fn histories(db: &Path) -> BTreeMap<String, String> {
    rows::<(String, String)>(db, "SELECT culprit, summary_json FROM regressions")
        .into_iter()
        .map(|(c, j)| {
            let mut v: serde_json::Value = serde_json::from_str(&j).unwrap();
            v["id"] = serde_json::Value::from(0);
            (c, v.to_string())
        })
        .collect()
}

type ThreadRow = (String, String, Option<String>, i64);
type MemberRow = (String, String, String);

/// Thread rows keyed by Message-ID, and regression membership by culprit.
fn links_of(db: &Path) -> (Vec<ThreadRow>, Vec<MemberRow>) {
    let threads = rows(
        db,
        "SELECT m.message_id, t.root_id, t.parent_id, t.depth FROM threads t \
         JOIN messages m ON m.id = t.message ORDER BY m.message_id",
    );
    let members = rows(
        db,
        "SELECT g.culprit, m.message_id, rm.role FROM regression_messages rm \
         JOIN regressions g ON g.id = rm.regression JOIN messages m ON m.id = rm.message \
         ORDER BY 1, 2",
    );
    (threads, members)
}

fn event_rowids(db: &Path) -> Vec<i64> {
    column(db, "SELECT id FROM regression_events ORDER BY id")
}

/// Linking after each step equals linking once after all steps.
fn assert_steps_equal_full(steps: &[Vec<PathBuf>]) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let (stepped_db, full_db) = (dir.path().join("steps.db"), dir.path().join("full.db"));
    let mut stepped = Store::open(&stepped_db).unwrap();
    for s in steps {
        ingest(&mut stepped, s);
        assert!(relink(&mut stepped), "new mail must relink");
    }
    let mut full = Store::open(&full_db).unwrap();
    let all: Vec<PathBuf> = steps.iter().flatten().cloned().collect();
    ingest(&mut full, &all);
    relink_full(&mut full);
    let (a, b) = (histories(&stepped_db), histories(&full_db));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (k, v) in &a {
        assert_eq!(Some(v), b.get(k), "history of {k} differs");
    }
    assert_eq!(links_of(&stepped_db), links_of(&full_db));
    a.len()
}

#[test]
fn a_second_ingest_of_the_same_input_does_not_touch_the_link_tables() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("x.db");
    let mut store = Store::open(&db).unwrap();
    let paths = vec![crate::common::corpus("threads")];
    let first = ingest(&mut store, &paths);
    assert!(first.new >= 20, "fixtures hold {} messages", first.new);
    assert!(relink(&mut store));
    let regressions = histories(&db);
    assert!(regressions.len() >= 6, "{} regressions", regressions.len());
    let events = event_rowids(&db);
    assert!(!events.is_empty());

    let again = ingest(&mut store, &paths);
    assert_eq!(again.new, 0);
    let t = Instant::now();
    assert!(!relink(&mut store), "nothing new: relink must skip");
    let took = t.elapsed();
    assert!(took.as_millis() < 200, "skipped relink took {took:?}");
    assert_eq!(event_rowids(&db), events, "regression_events rewritten");
    assert_eq!(histories(&db), regressions);

    // A mark is new input: it relinks, and only then.
    links::insert_mark(
        &mut store,
        &Mark {
            culprit: regressions.keys().next().unwrap().clone(),
            status: Some(Status::Declined),
            note: None,
            author: "Test Person".into(),
            at: 1_700_000_000,
            ..Mark::default()
        },
    )
    .unwrap();
    assert!(relink(&mut store), "a new mark must relink");
    assert!(!relink(&mut store));
}

#[test]
fn an_older_link_logic_version_is_recomputed() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("x.db")).unwrap();
    ingest(&mut store, &[crate::common::corpus("threads")]);
    assert!(relink(&mut store));
    let state = links::stored_state(&store).unwrap().expect("a link state");
    assert_eq!(state.logic_version, regtrack::link::LINK_LOGIC_VERSION);
    links::set_state(
        &store,
        &links::LinkState {
            logic_version: 0,
            ..state
        },
    )
    .unwrap();
    assert!(relink(&mut store), "stale logic version must relink");
    links::clear_state(&store).unwrap();
    assert!(relink(&mut store), "no state must relink");
    assert!(!relink(&mut store));
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
    write_synth(3000, 7, &whole);
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
    let db = dir.path().join("x.db");
    let mut store = Store::open(&db).unwrap();
    ingest(&mut store, &steps[0]);
    relink(&mut store);
    let root_of = || -> String {
        one(
            &db,
            "SELECT t.root_id FROM threads t JOIN messages m ON m.id = t.message \
             WHERE m.message_id = 'c@x'",
        )
    };
    assert_eq!(root_of(), "b@x");
    ingest(&mut store, &steps[1]);
    assert!(relink(&mut store));
    assert_eq!(root_of(), "a@x", "the stored row was not updated");
    assert_steps_equal_full(&steps);
}
