//! The seed facts of issue 3 (seeds 000 and 001 in the shared folder, found
//! through `REGTRACK_SHARED`), read the way ingest reads them (`source::open`,
//! `mail::parse`, `extract`): tables, subjects and the whitespace-collapsed form.

use regtrack::model::{ChangeUnit, Direction, Extraction, Table, TableFormat};

fn seed(prefix: &str) -> Option<Extraction> {
    let dir = crate::common::shared()?.join("seeds");
    let entry = std::fs::read_dir(&dir)
        .expect("seeds folder")
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().starts_with(prefix))?;
    let raw = regtrack::source::open(&entry.path())
        .expect("open seed")
        .next()
        .expect("one message")
        .expect("readable message");
    let msg = regtrack::mail::parse(&raw).expect("decoded seed");
    Some(regtrack::extract::extract(&msg))
}

fn lkp(ex: &Extraction) -> Vec<Table> {
    ex.tables
        .iter()
        .filter(|t| t.format == TableFormat::Lkp)
        .cloned()
        .collect()
}

fn row<'a>(t: &'a Table, metric: &str) -> &'a regtrack::model::TableRow {
    t.rows
        .iter()
        .find(|r| r.metric == metric)
        .expect("metric row")
}

fn change(r: &regtrack::model::TableRow, i: usize) -> Option<f64> {
    r.changes[i].as_ref().and_then(|c| c.value)
}

#[test]
fn seed_000_collapsed_body_gives_two_tables_regrouped_by_column_count() {
    let Some(ex) = seed("000_") else { return };
    let s = ex.subject_report.as_ref().expect("report subject");
    assert_eq!(s.subsystem.as_deref(), Some("xfs"));
    assert_eq!(s.commit, "016a23388c");
    assert_eq!(s.metric.as_deref(), Some("stress-ng.xattr.ops_per_sec"));
    assert_eq!(s.change_percent, Some(58.4));
    assert_eq!(s.direction, Some(Direction::Improvement));
    let t = lkp(&ex);
    assert_eq!(t.len(), 2, "{t:#?}");
    assert_eq!(
        t[0].commits,
        [
            "df7a4a2134b0a201",
            "016a23388cdcb2740deb1379dc4",
            "c0fb4765c5086cfd00f1158f5f4"
        ]
    );
    assert_eq!(t[0].rows.len(), 13);
    let r = row(&t[0], "stress-ng.xattr.ops");
    assert_eq!(r.values, [Some(1544.0), Some(2385.0), Some(2531.0)]);
    assert_eq!(r.stddev_percent, [Some(4.0), None, None]);
    assert_eq!((change(r, 1), change(r, 2)), (Some(54.4), Some(63.9)));
    assert_eq!(
        t[1].commits,
        ["016a23388cdcb274", "a8bef09e7d8e65207c8403e030a"]
    );
    assert_eq!(t[1].rows.len(), 13);
    let r = row(&t[1], "stress-ng.xattr.ops");
    assert_eq!(r.values, [Some(2368.0), Some(1482.0)]);
    assert_eq!(r.stddev_percent, [None, Some(4.0)]);
    assert_eq!(change(r, 1), Some(-37.4));
}

#[test]
fn seed_001_gives_a_depth_two_table_resumed_after_a_reply_and_a_three_commit_table() {
    let Some(ex) = seed("001_") else { return };
    let s = ex.subject_report.as_ref().expect("report subject");
    assert_eq!(
        (s.commit.as_str(), s.change_percent),
        ("2edf06a50f", Some(-5.7))
    );
    assert_eq!(s.branch.as_deref(), Some("linus:master"));
    let t = lkp(&ex);
    assert_eq!(t.len(), 2, "{t:#?}");
    assert_eq!(t[0].quote_depth, 2);
    assert_eq!(
        t[0].commits,
        ["ecd788a92460eef4", "2edf06a50f5bbe664283f3c55c4"]
    );
    assert_eq!(t[0].rows.len(), 5);
    let busy = row(&t[0], "turbostat.Busy%");
    assert_eq!(change(busy, 1), Some(0.3));
    assert_eq!(
        busy.changes[1].as_ref().map(|c| c.unit),
        Some(ChangeUnit::Abs)
    );
    assert_eq!(t[1].quote_depth, 0);
    assert_eq!(t[1].commits.len(), 3);
    assert_eq!(t[1].commits[2], "68721405630744da1c07c9c1c3c");
    assert_eq!(t[1].rows.len(), 2);
    let r = row(&t[1], "fsmark.files_per_sec");
    assert_eq!(r.values, [Some(14349.0), Some(13527.0), Some(14437.0)]);
    assert_eq!((change(r, 1), change(r, 2)), (Some(-5.7), Some(0.6)));
}
