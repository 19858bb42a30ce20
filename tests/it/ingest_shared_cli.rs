//! The shared seeds and corpus ingest through the binary with no failure
//! (found through `REGTRACK_SHARED`; skipped with a note when unset).

use std::path::PathBuf;

use crate::common::Cmd;

fn ingest(db: &std::path::Path, paths: &[PathBuf]) -> serde_json::Value {
    Cmd::regtrack()
        .db(db)
        .args(["ingest", "--json"])
        .args(paths)
        .json()
}

#[test]
fn the_seeds_and_the_ext4_corpus_ingest_with_no_failure() {
    let Some(shared) = crate::common::shared() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let mut seeds: Vec<PathBuf> = std::fs::read_dir(shared.join("seeds"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    seeds.sort();
    assert_eq!(seeds.len(), 5);
    let v = ingest(&db, &seeds);
    assert_eq!(
        (v["new"].as_u64(), v["failed"].as_u64()),
        (Some(5), Some(0))
    );

    let ext4 = shared.join("corpus/ext4-lkp.mbox");
    let v = ingest(&db, std::slice::from_ref(&ext4));
    assert_eq!(v["new"], 37);
    assert_eq!(v["failed"], 0);
    assert_eq!(v["duplicates"], 0);
    let v = ingest(&db, std::slice::from_ref(&ext4));
    assert_eq!(
        (
            v["new"].as_u64(),
            v["known"].as_u64(),
            v["unchanged"].as_u64()
        ),
        (Some(0), Some(0), Some(1))
    );
    // A copy of the same mbox is read again: every message is known.
    let copy = dir.path().join("copy.mbox");
    std::fs::copy(&ext4, &copy).unwrap();
    let v = ingest(&db, &[copy]);
    assert_eq!(
        (v["new"].as_u64(), v["known"].as_u64()),
        (Some(0), Some(37))
    );

    let others: Vec<PathBuf> = ["ext4-robot-on-patches.mbox", "nfs-lkp.mbox", "pm-lkp.mbox"]
        .iter()
        .map(|n| shared.join("corpus").join(n))
        .collect();
    let v = ingest(&db, &others);
    assert_eq!(
        v["new"].as_u64().unwrap() + v["known"].as_u64().unwrap(),
        101
    );
    assert_eq!(v["failed"], 0);
}
