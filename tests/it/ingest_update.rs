//! `pipeline::update`, the stages of an ingest in their order, called as a
//! program using the library would: it stores what `regtrack ingest`
//! stores, tells its watcher each stage, re-extracts what an older
//! extractor stored before it relinks, and names the stage an error ended.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use regtrack::pipeline::ingest::Progress;
use regtrack::pipeline::reindex::Reindexed;
use regtrack::pipeline::relink::How;
use regtrack::pipeline::update::{Stage, Unwatched, Watch, update};
use regtrack::store::Store;

use crate::common::{Cmd, corpus, rows};

/// What a watcher was told, in order.
#[derive(Default)]
struct Told(Mutex<Vec<String>>);

impl Told {
    fn say(&self, what: String) {
        self.0.lock().unwrap().push(what);
    }

    fn said(&self) -> Vec<String> {
        let mut v = self.0.lock().unwrap().clone();
        v.dedup();
        v
    }
}

impl Watch for Told {
    fn stored_progress(&self, _p: &Progress) {
        self.say("progress".into());
    }
    fn stored(&self) {
        self.say("stored".into());
    }
    fn reextracting(&self, pending: u64) {
        self.say(format!("reextracting {pending}"));
    }
    fn reextracted(&self, r: &Reindexed) {
        self.say(format!("reextracted {}", r.messages));
    }
}

fn histories(db: &Path) -> Vec<(i64, String, String)> {
    rows(
        db,
        "SELECT id, culprit, summary_json FROM regressions ORDER BY id",
    )
}

#[test]
fn an_update_stores_and_links_what_the_ingest_command_does() {
    let dir = tempfile::tempdir().unwrap();
    let (by_library, by_command) = (dir.path().join("lib.db"), dir.path().join("cli.db"));
    let inputs: Vec<PathBuf> = ["threads", "report"].iter().map(|d| corpus(d)).collect();
    let mut store = Store::open(&by_library).unwrap();
    let told = Told::default();
    let updated = update(&mut store, &inputs, false, &told).unwrap();
    drop(store);
    assert!(updated.summary.new >= 40, "{:?}", updated.summary);
    assert_eq!(updated.relinked.how, How::Full);
    assert!(updated.relinked.regressions >= 5, "{:?}", updated.relinked);
    assert!(updated.reextracted.is_none());
    assert_eq!(told.said(), ["progress", "stored"]);
    Cmd::regtrack()
        .db(&by_command)
        .arg("-q")
        .arg("ingest")
        .args(&inputs)
        .ok();
    let (a, b) = (histories(&by_library), histories(&by_command));
    assert_eq!(a.len() as u64, updated.relinked.regressions);
    assert_eq!(a, b, "the library's update and `regtrack ingest` differ");
}

#[test]
fn messages_of_an_older_extractor_are_extracted_again_before_the_relink() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("x.db");
    let mut store = Store::open(&db).unwrap();
    update(&mut store, &[corpus("threads")], false, &Unwatched).unwrap();
    let before = histories(&db);
    regtrack::store::reextract::mark_all_stale(&store).unwrap();
    let stored: i64 = crate::common::one(&db, "SELECT COUNT(*) FROM messages");
    let told = Told::default();
    // Nothing new to read: the update re-extracts, then links everything
    // again (re-extraction clears the link state), to the same histories.
    let updated = update(&mut store, &[], false, &told).unwrap();
    drop(store);
    assert_eq!(
        told.said(),
        [
            "stored".to_string(),
            format!("reextracting {stored}"),
            format!("reextracted {stored}"),
        ]
    );
    assert_eq!(updated.reextracted.map(|r| r.messages), Some(stored as u64));
    assert_eq!(updated.relinked.how, How::Full);
    assert_eq!(histories(&db), before);
}

#[test]
fn an_error_names_the_stage_it_ended() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("x.db");
    let mut store = Store::open(&db).unwrap();
    // A table another program dropped under the store: the store stage,
    // which reads what was read before from it, fails.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("DROP TABLE sources")
        .unwrap();
    let e = update(&mut store, &[corpus("threads")], false, &Unwatched).unwrap_err();
    assert_eq!(e.stage, Stage::Store, "{e}");
    assert!(e.to_string().contains("sources"), "{e}");
}
