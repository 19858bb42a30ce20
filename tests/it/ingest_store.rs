//! The store's insert path: every extraction table is filled from a hand-built
//! `Extraction`; Message-ID is the key (known, duplicates, several lists).

use std::path::{Path, PathBuf};

use regtrack::model::*;
use regtrack::pipeline::ingest::{BATCH_MESSAGES, ingest};
use regtrack::store::Store;
use regtrack::store::messages::packing::BodyBlocks;
use regtrack::store::messages::{Outcome, Record, insert_record};

use crate::common::{column, one, sql_i64};

/// A store in a fresh database file, and the file.
fn temp_store() -> (Store, PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.db");
    (Store::open(&path).unwrap(), path, dir)
}

fn message(id: &str, body: &str, lists: &[&str]) -> Message {
    Message {
        message_id: id.into(),
        message_id_derived: false,
        subject: "Re: [LKP] [linus:master] [xfs] 2edf06a50f: fsmark.files_per_sec -5.7% regression"
            .into(),
        from_name: Some("Kernel Test Robot".into()),
        from_email: Some("oliver.sang@intel.com".into()),
        date: Some(1_683_600_000),
        in_reply_to: Some("parent@x".into()),
        references: vec!["root@x".into(), "parent@x".into()],
        list_ids: lists.iter().map(|s| s.to_string()).collect(),
        body: body.into(),
        parts: vec![BodyPart {
            content_type: "text/plain".into(),
            filename: None,
            start: 0,
            end: body.len(),
        }],
        content_hash: format!("hash-of-{body}"),
        raw_size: 1234,
    }
}

fn extraction() -> Extraction {
    let row = |metric: &str, changes: Vec<Option<f64>>| TableRow {
        metric: metric.into(),
        values: vec![Some(1.0), Some(2.0), Some(3.0)],
        changes: changes
            .into_iter()
            .map(|c| {
                c.map(|v| Change {
                    value: Some(v),
                    unit: ChangeUnit::Percent,
                })
            })
            .collect(),
        ..TableRow::default()
    };
    Extraction {
        kind: Kind::PerfReport,
        subject_report: Some(Box::new(SubjectReport {
            branch: Some("linus:master".into()),
            subsystem: Some("xfs".into()),
            commit: "2edf06a50f".into(),
            metric: Some("fsmark.files_per_sec".into()),
            change_percent: Some(-5.7),
            direction: Some(Direction::Regression),
            ..SubjectReport::default()
        })),
        report: Some(Box::new(ReportBody {
            commit_full: Some("2edf06a50f5bd8a1d4ab5d4ac0e4ba05f2ab8b37".into()),
            commit_title: Some("xfs: factor out a helper".into()),
            metric: Some("fsmark.files_per_sec".into()),
            change_percent: Some(-5.7),
            direction: Some(Direction::Regression),
            testcase: Some("fsmark".into()),
            test_machine: Some("96 threads".into()),
            parameters: vec![("disk".into(), "1SSD".into())],
            also_impacts: vec![
                ImpactEntry {
                    testcase: Some("stress-ng".into()),
                    metric: Some("stress-ng.xattr.ops_per_sec".into()),
                    change_percent: Some(58.4),
                    direction: Some(Direction::Improvement),
                    ..ImpactEntry::default()
                },
                ImpactEntry {
                    metric: Some("aim7.jobs-per-min".into()),
                    change_percent: Some(-11.8),
                    direction: Some(Direction::Regression),
                    ..ImpactEntry::default()
                },
            ],
            ..ReportBody::default()
        })),
        tables: vec![Table {
            format: TableFormat::Lkp,
            quote_depth: 0,
            params: vec![("compiler".into(), "gcc-12".into())],
            commits: vec!["a".into(), "b".into(), "c".into()],
            commit_titles: vec![],
            rows: vec![
                row("fsmark.files_per_sec", vec![None, Some(-5.7), Some(12.5)]),
                row("vmstat.cpu.id", vec![None, Some(-30.25), Some(3.0)]),
                row("no.change", vec![None, None, None]),
            ],
            skipped_rows: 2,
            omitted_rows: 0,
            offset: 10,
        }],
        diffs: vec![DiffFile {
            old_path: Some("fs/xfs/a.c".into()),
            new_path: Some("fs/xfs/a.c".into()),
            hunks: vec![Hunk {
                old_start: 1,
                old_lines: 2,
                new_start: 1,
                new_lines: 3,
                added: 1,
                ..Hunk::default()
            }],
            ..DiffFile::default()
        }],
        trailers: vec![
            Trailer {
                key: "Reported-by".into(),
                value: "kernel test robot <oliver.sang@intel.com>".into(),
                suggested: true,
                ..Trailer::default()
            },
            Trailer {
                key: "Fixes".into(),
                value: "2edf06a50f5b (\"xfs: factor out a helper\")".into(),
                commit: Some("2edf06a50f5b".into()),
                title: Some("xfs: factor out a helper".into()),
                ..Trailer::default()
            },
        ],
        commits: vec![
            CommitRef {
                id: "2edf06a50f5bd8a1d4ab5d4ac0e4ba05f2ab8b37".into(),
                title: None,
                quote_depth: 0,
            },
            CommitRef {
                id: "2edf06a50f5bd8a1d4ab5d4ac0e4ba05f2ab8b37".into(),
                title: None,
                quote_depth: 1,
            },
        ],
        signals: vec![Signal {
            kind: SignalKind::Noise,
            sentence: "This looks like noise.".into(),
            tentative: true,
            mentions: Some("abcdef1234".into()),
            ..Signal::default()
        }],
        events: vec![Event {
            kind: EventKind::StillRegression,
            tree: Some("linus/master".into()),
            sha: Some("abcdef1234".into()),
            text: "[still regression on linus/master abcdef1234]".into(),
            quote_depth: 0,
        }],
        lore_links: vec!["target@x".into(), "target@x".into()],
        ..Extraction::default()
    }
}

fn count(db: &Path, sql: &str) -> i64 {
    sql_i64(db, sql)
}

fn origin() -> Origin {
    Origin::File {
        path: "a.mbox".into(),
        offset: 0,
    }
}

#[test]
fn every_extraction_table_is_filled_from_a_hand_built_extraction() {
    let (store, db, _dir) = temp_store();
    let rec = Record::new(
        message("m1@x", "body", &["linux-xfs.vger.kernel.org"]),
        origin(),
        extraction(),
    );
    let out = insert_record(&store, &rec, 1, &mut BodyBlocks::default()).unwrap();
    assert!(matches!(out, Outcome::New(_)));
    let c = |sql: &str| count(&db, sql);
    assert_eq!(
        c("SELECT count(*) FROM messages WHERE kind = 'perf-report'"),
        1
    );
    let norm: String = one(&db, "SELECT norm_subject FROM messages");
    assert_eq!(
        norm,
        "[linus:master] [xfs] 2edf06a50f: fsmark.files_per_sec -5.7% regression"
    );
    assert_eq!(
        c("SELECT count(*) FROM messages WHERE refs = 'root@x parent@x'"),
        1
    );
    assert_eq!(c("SELECT count(*) FROM extractions WHERE version >= 1"), 1);
    assert_eq!(
        c(
            "SELECT count(*) FROM reports WHERE origin = 'subject' AND commit_short = '2edf06a50f' AND branch = 'linus:master' AND direction = 'regression'"
        ),
        1
    );
    assert_eq!(
        c(
            "SELECT count(*) FROM reports WHERE origin = 'body' AND commit_full LIKE '2edf06a50f5b%' AND testcase = 'fsmark' AND params_json = '[[\"disk\",\"1SSD\"]]'"
        ),
        1
    );
    assert_eq!(c("SELECT count(*) FROM reports WHERE origin = 'impact'"), 2);
    assert_eq!(
        c(
            "SELECT count(*) FROM reports WHERE origin = 'impact' AND metric = 'stress-ng.xattr.ops_per_sec' AND direction = 'improvement' AND change_percent = 58.4"
        ),
        1
    );
    assert_eq!(
        c("SELECT count(*) FROM tables WHERE format = 'lkp' AND skipped_rows = 2"),
        1
    );
    assert_eq!(c("SELECT count(*) FROM table_rows"), 3);
    let maxes: Vec<Option<f64>> = column(&db, "SELECT max_abs_change FROM table_rows ORDER BY idx");
    assert_eq!(maxes, vec![Some(12.5), Some(30.25), None]);
    assert_eq!(c("SELECT count(*) FROM trailers"), 2);
    assert_eq!(
        c("SELECT count(*) FROM trailers WHERE key = 'Fixes' AND commit_id = '2edf06a50f5b'"),
        1
    );
    assert_eq!(c("SELECT count(*) FROM trailers WHERE suggested = 1"), 1);
    assert_eq!(
        c("SELECT count(*) FROM commit_refs"),
        1,
        "one row per commit"
    );
    assert_eq!(
        c("SELECT count(*) FROM diffs WHERE new_path = 'fs/xfs/a.c'"),
        1
    );
    assert_eq!(c("SELECT count(*) FROM signals WHERE kind = 'noise'"), 1);
    assert_eq!(
        c("SELECT count(*) FROM events WHERE kind = 'still-regression' AND sha = 'abcdef1234'"),
        1
    );
    assert_eq!(c("SELECT count(*) FROM lore_links"), 1);
}

#[test]
fn a_known_message_id_is_known_a_different_copy_a_duplicate_and_lists_accumulate() {
    let (store, db, _dir) = temp_store();
    let ex = Extraction::default();
    let first = Record::new(message("m@x", "one", &["a.lists"]), origin(), ex.clone());
    assert!(matches!(
        insert_record(&store, &first, 1, &mut BodyBlocks::default()).unwrap(),
        Outcome::New(_)
    ));
    assert_eq!(
        insert_record(&store, &first, 1, &mut BodyBlocks::default()).unwrap(),
        Outcome::Known
    );
    // The same message seen on another list, which added its footer: a
    // copy kept, the first one still used, and it remembers both lists.
    let other_list = Record::new(
        message("m@x", "one\n_______________\nb.lists footer", &["b.lists"]),
        origin(),
        ex.clone(),
    );
    assert_eq!(
        insert_record(&store, &other_list, 1, &mut BodyBlocks::default()).unwrap(),
        Outcome::Duplicate
    );
    assert_eq!(count(&db, "SELECT count(*) FROM message_lists"), 2);
    // A different message under the same id: a copy, recorded once.
    let dup = Record::new(message("m@x", "two", &["a.lists"]), origin(), ex.clone());
    assert_eq!(
        insert_record(&store, &dup, 1, &mut BodyBlocks::default()).unwrap(),
        Outcome::Duplicate
    );
    assert_eq!(
        insert_record(&store, &dup, 1, &mut BodyBlocks::default()).unwrap(),
        Outcome::Known
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM message_copies WHERE chosen = 0"),
        2
    );
    assert_eq!(count(&db, "SELECT count(*) FROM messages"), 1);
}

/// A first ingest (into an empty database) extracts every message without
/// looking any up; a Message-ID its input holds twice is still stored once:
/// the same copy again is known, a different one a duplicate, and the
/// first copy's rows stay. A second ingest looks them up and adds nothing.
#[test]
fn a_first_ingest_with_repeated_message_ids_keeps_the_first_copy() {
    let dir = tempfile::tempdir().unwrap();
    let mail = |id: &str, body: &str| {
        format!(
            "From x@y Mon Mar  3 10:00:00 2025\nFrom: A <a@example.org>\n\
             Date: Mon, 3 Mar 2025 10:00:00 +0000\nMessage-ID: <{id}>\n\
             Subject: a patch\n\n{body}\n\n"
        )
    };
    let first =
        "Fixes: 0123456789ab (\"xfs: first\")\nReported-by: kernel test robot <lkp@intel.com>";
    let other = "Fixes: ba9876543210 (\"xfs: other\")";
    let text = [
        mail("a@x", first),
        mail("b@x", "plain"),
        mail("a@x", first),
        mail("a@x", other),
    ]
    .concat();
    let path = dir.path().join("in.mbox");
    std::fs::write(&path, text).unwrap();
    let db = dir.path().join("x.db");
    let mut store = Store::open(&db).unwrap();
    let s = ingest(&mut store, std::slice::from_ref(&path), &|_| {}).unwrap();
    assert_eq!((s.new, s.known, s.duplicates, s.failed), (2, 1, 1, 0));
    assert_eq!(count(&db, "SELECT count(*) FROM messages"), 2);
    assert_eq!(
        count(&db, "SELECT count(*) FROM message_copies WHERE chosen = 0"),
        1
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM trailers WHERE key = 'Fixes' AND value LIKE '0123456789ab%'"
        ),
        1
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM trailers WHERE value LIKE 'ba9876543210%'"
        ),
        0
    );
    // The same mail under another name (an unchanged file would be skipped).
    let copy = dir.path().join("copy.mbox");
    std::fs::copy(&path, &copy).unwrap();
    let again = ingest(&mut store, &[copy], &|_| {}).unwrap();
    assert_eq!((again.new, again.known + again.duplicates), (0, 4));
    assert_eq!(
        count(&db, "SELECT count(*) FROM trailers WHERE key = 'Fixes'"),
        1
    );
}

/// An input of several batches (the parse stage pipelines consecutive
/// batches) is stored whole and in input order: every message once, row ids
/// following the mbox, a repeat in the last batch of a first-batch message a
/// duplicate, the trailers of the last batch's messages with them, and a second
/// ingest (which looks every batch up) finds all of it known.
#[test]
fn an_input_of_several_batches_is_stored_whole_and_in_order() {
    let n = 3 * BATCH_MESSAGES + 5;
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!(
            "From x@y Mon Mar  3 10:00:00 2025\nFrom: A <a@example.org>\n\
             Date: Mon, 3 Mar 2025 10:00:00 +0000\nMessage-ID: <m{i}@x>\n\
             Subject: patch {i}\n\nbody {i}\n\nSigned-off-by: A <a{i}@example.org>\n\n"
        ));
    }
    // Message 1 again, with another body, at the very end.
    text.push_str(
        "From x@y Mon Mar  3 10:00:00 2025\nFrom: A <a@example.org>\n\
         Date: Mon, 3 Mar 2025 10:00:00 +0000\nMessage-ID: <m1@x>\n\
         Subject: patch 1\n\nanother body\n\n",
    );
    let path = dir.path().join("in.mbox");
    std::fs::write(&path, text).unwrap();
    let db = dir.path().join("x.db");
    let mut store = Store::open(&db).unwrap();
    let s = ingest(&mut store, std::slice::from_ref(&path), &|_| {}).unwrap();
    assert_eq!(
        (s.new, s.known, s.duplicates, s.failed),
        (n as u64, 0, 1, 0)
    );
    assert_eq!(count(&db, "SELECT count(*) FROM messages"), n as i64);
    // Row ids follow the input: message i is row i + 1.
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM messages WHERE message_id = 'm' || (id - 1) || '@x'"
        ),
        n as i64
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM trailers t JOIN messages m ON m.id = t.message
             WHERE t.value = 'A <a' || (m.id - 1) || '@example.org>'"
        ),
        n as i64
    );
    let copy = dir.path().join("copy.mbox");
    std::fs::copy(&path, &copy).unwrap();
    let again = ingest(&mut store, &[copy], &|_| {}).unwrap();
    assert_eq!(
        (again.new, again.known + again.duplicates),
        (0, n as u64 + 1)
    );
    assert_eq!(count(&db, "SELECT count(*) FROM messages"), n as i64);
}

/// The choice of a relink reads own trailers of a few keys: the store
/// passes those in any case, and no quoted, suggested or other one, both
/// over all messages and over a few.
#[test]
fn own_trailers_are_read_by_key_in_any_case() {
    let (store, _db, _dir) = temp_store();
    let t = |key: &str, quote_depth: u32, suggested: bool| Trailer {
        key: key.into(),
        value: format!("v-{key}-{quote_depth}-{suggested}"),
        suggested,
        commit: None,
        title: None,
        quote_depth,
    };
    let ex = Extraction {
        trailers: vec![
            t("Closes", 0, false),
            t("FIXES", 0, false),
            t("link", 0, false),
            t("Signed-off-by", 0, false),
            t("Closes", 1, false),
            t("Reported-by", 0, true),
            t("Reported-By", 0, false),
        ],
        ..Extraction::default()
    };
    let other = Extraction {
        trailers: vec![t("Fixes", 0, false)],
        ..Extraction::default()
    };
    let mut ids = Vec::new();
    for (id, ex) in [("m1@x", ex), ("m2@x", other)] {
        let rec = Record::new(message(id, id, &["a.lists"]), origin(), ex);
        match insert_record(&store, &rec, 1, &mut BodyBlocks::default()).unwrap() {
            Outcome::New(row) => ids.push(row),
            o => panic!("{o:?}"),
        }
    }
    let keys = regtrack::link::select::TRAILER_KEYS;
    let read = |keep: Option<&[i64]>| {
        let mut got = Vec::new();
        regtrack::store::links::for_each_own_trailer(&store, keep, &keys, |id, t| {
            got.push((id, t.key.clone()))
        })
        .unwrap();
        got.sort();
        got
    };
    let want = vec![
        (ids[0], "Closes".to_string()),
        (ids[0], "FIXES".to_string()),
        (ids[0], "Reported-By".to_string()),
        (ids[0], "link".to_string()),
        (ids[1], "Fixes".to_string()),
    ];
    assert_eq!(read(None), want);
    assert_eq!(read(Some(&ids[1..])), want[4..]);
}
