//! A LinkInput made directly from `model::Extraction` values: five
//! regressions (a full history, a disputed one, an improvement, two reports of
//! one culprit with a revert, a report linked through every lore URL form).

use regtrack::link::{LinkInput, LinkMessage};
use regtrack::model::{
    Change, ChangeUnit, DiffFile, Direction, Event, EventKind, Extraction, Kind, ReportBody,
    Signal, SignalKind, SubjectReport, Table, TableFormat, TableRow, Trailer,
};

pub const DAY: i64 = 86_400;
pub const T0: i64 = 1_700_000_000;

pub fn msg(id: &str, from: &str, day: i64, subject: &str, parent: Option<&str>) -> LinkMessage {
    LinkMessage {
        db_id: 0,
        message_id: id.to_string(),
        subject: subject.to_string(),
        from_name: Some(from.to_string()),
        from_email: Some(format!(
            "{}@example.org",
            from.to_lowercase().replace(' ', ".")
        )),
        date: Some(T0 + day * DAY),
        in_reply_to: parent.map(|p| p.to_string()),
        references: parent.map(|p| vec![p.to_string()]).unwrap_or_default(),
        kind: Kind::Reply,
        extraction: Extraction {
            kind: Kind::Reply,
            ..Extraction::default()
        },
        report_facts: None,
        signals_unread: None,
    }
}

fn row(metric: &str, base: f64, new: f64, change: f64, sd: [Option<f64>; 2]) -> TableRow {
    TableRow {
        metric: metric.to_string(),
        values: vec![Some(base), Some(new)],
        stddev_percent: sd.to_vec(),
        stddev_small: vec![sd[0].is_none(), sd[1].is_none()],
        changes: vec![
            None,
            Some(Change {
                value: Some(change),
                unit: ChangeUnit::Percent,
            }),
        ],
        ..TableRow::default()
    }
}

#[allow(clippy::too_many_arguments)]
fn report(
    id: &str,
    day: i64,
    short: &str,
    full: Option<&str>,
    subsystem: &str,
    metric: &str,
    change: f64,
    dir: Direction,
    rows: Vec<TableRow>,
) -> LinkMessage {
    let word = if dir == Direction::Improvement {
        "improvement"
    } else {
        "regression"
    };
    let mut m = msg(
        id,
        "kernel test robot",
        day,
        &format!("[linus:master] [{subsystem}]  {short}:  {metric} {change}% {word}"),
        None,
    );
    m.kind = Kind::PerfReport;
    m.extraction.kind = Kind::PerfReport;
    m.extraction.subject_report = Some(Box::new(SubjectReport {
        branch: Some("linus:master".into()),
        subsystem: Some(subsystem.into()),
        commit: short.into(),
        metric: Some(metric.into()),
        change_percent: Some(change),
        direction: Some(dir),
        ..SubjectReport::default()
    }));
    m.extraction.report = Some(Box::new(ReportBody {
        commit_full: full.map(|s| s.to_string()),
        commit_title: full.map(|_| format!("{subsystem}: change the thing")),
        metric: Some(metric.into()),
        change_percent: Some(change),
        direction: Some(dir),
        testcase: metric.split('.').next().map(|s| s.to_string()),
        test_machine: Some("96 threads 2 sockets Xeon".into()),
        ..ReportBody::default()
    }));
    m.extraction.tables = vec![Table {
        format: TableFormat::Lkp,
        quote_depth: 0,
        params: vec![],
        commits: vec!["1111111111".into(), short.into()],
        commit_titles: vec![],
        rows,
        skipped_rows: 0,
        omitted_rows: 0,
        offset: 0,
    }];
    m.extraction.suggested_like_closes(id);
    m
}

trait Suggested {
    fn suggested_like_closes(&mut self, id: &str);
}

impl Suggested for Extraction {
    // The robot's own "kindly add" block must never link the report to itself.
    fn suggested_like_closes(&mut self, id: &str) {
        self.trailers.push(Trailer {
            key: "Closes".into(),
            value: format!("https://lore.kernel.org/oe-lkp/{id}"),
            suggested: true,
            ..Trailer::default()
        });
    }
}

pub fn trailer(key: &str, value: &str) -> Trailer {
    Trailer {
        key: key.into(),
        value: value.into(),
        ..Trailer::default()
    }
}

pub fn fixes(id: &str, title: &str) -> Trailer {
    Trailer {
        key: "Fixes".into(),
        value: format!("{id} (\"{title}\")"),
        commit: Some(id.into()),
        title: Some(title.into()),
        ..Trailer::default()
    }
}

fn signal(kind: SignalKind, s: &str) -> Signal {
    Signal {
        kind,
        sentence: s.into(),
        ..Signal::default()
    }
}

pub const A_FULL: &str = "aaaa1111bbbb2222cccc3333dddd4444eeee5555";

pub fn scenario() -> LinkInput {
    let mut v = Vec::new();
    // A: report, replies, debug patch, confirmation, formal patch, applied.
    v.push(report(
        "a-report@intel.com",
        0,
        "aaaa1111bb",
        Some(A_FULL),
        "ext4",
        "fsmark.files_per_sec",
        -10.5,
        Direction::Regression,
        vec![
            row(
                "fsmark.files_per_sec",
                100.0,
                89.5,
                -10.5,
                [Some(1.0), Some(2.0)],
            ),
            row("fsmark.app_overhead", 50.0, 60.0, 20.0, [None, None]),
            row("vmstat.cpu.sy", 5.0, 5.1, 2.0, [None, None]),
        ],
    ));
    // The reply before its parent's reply in input order: r2 answers r1, listed first.
    let mut r2 = msg(
        "a-r2@x",
        "Oliver Sang",
        3,
        "Re: ext4 regression",
        Some("a-r1@x"),
    );
    r2.references = vec!["a-report@intel.com".into(), "a-r1@x".into()];
    r2.extraction.signals = vec![signal(
        SignalKind::ConfirmsFix,
        "the regression is gone after applying the patch.",
    )];
    r2.extraction.trailers = vec![trailer(
        "Tested-by",
        "kernel test robot <oliver.sang@intel.com>",
    )];
    v.push(r2);
    let mut r1 = msg(
        "a-r1@x",
        "Jan Kara",
        1,
        "Re: ext4 regression",
        Some("a-report@intel.com"),
    );
    r1.extraction.diffs = vec![DiffFile {
        old_path: Some("fs/ext4/inode.c".into()),
        new_path: Some("fs/ext4/inode.c".into()),
        quote_depth: 0,
        ..DiffFile::default()
    }];
    v.push(r1);
    let mut p = msg(
        "a-patch@x",
        "Jan Kara",
        5,
        "[PATCH] ext4: restore the thing",
        None,
    );
    p.kind = Kind::Patch;
    p.extraction.trailers = vec![
        fixes("aaaa1111bbbb", "ext4: change the thing"),
        trailer("Reported-by", "kernel test robot <oliver.sang@intel.com>"),
        trailer(
            "Closes",
            "https://lore.kernel.org/oe-lkp/a-report@intel.com",
        ),
        trailer("Signed-off-by", "Jan Kara <jack@suse.cz>"),
    ];
    v.push(p);
    let mut ap = msg(
        "a-applied@x",
        "Ted Tso",
        9,
        "Re: [PATCH] ext4: restore the thing",
        Some("a-patch@x"),
    );
    ap.extraction.events = vec![Event {
        kind: EventKind::Applied,
        tree: None,
        sha: None,
        text: "Thanks, applied.".into(),
        quote_depth: 0,
    }];
    v.push(ap);

    // B: disputed.
    v.push(report(
        "b-report@intel.com",
        10,
        "bbbb2222cc",
        None,
        "xfs",
        "aim7.jobs-per-min",
        -3.0,
        Direction::Regression,
        vec![row(
            "aim7.jobs-per-min",
            100.0,
            97.0,
            -3.0,
            [Some(2.0), Some(3.0)],
        )],
    ));
    let mut b1 = msg(
        "b-r1@x",
        "Dave Chinner",
        11,
        "Re: xfs",
        Some("b-report@intel.com"),
    );
    b1.extraction.signals = vec![signal(
        SignalKind::Layout,
        "this is a code layout artifact, not a real regression.",
    )];
    v.push(b1);

    // C: improvement, with a friendly reply.
    v.push(report(
        "c-report@intel.com",
        20,
        "cccc3333dd",
        None,
        "mm",
        "vm-scalability.throughput",
        25.0,
        Direction::Improvement,
        vec![row(
            "vm-scalability.throughput",
            100.0,
            125.0,
            25.0,
            [None, None],
        )],
    ));
    v.push(msg(
        "c-r1@x",
        "Some One",
        21,
        "Re: mm",
        Some("c-report@intel.com"),
    ));

    // D: two reports of one culprit (short id only, then the full id), and a revert.
    v.push(report(
        "d-report1@intel.com",
        30,
        "dddd4444ee",
        None,
        "sched",
        "hackbench.throughput",
        -6.0,
        Direction::Regression,
        vec![],
    ));
    v.push(report(
        "d-report2@intel.com",
        32,
        "dddd4444ee",
        Some("dddd4444eeee5555ffff6666aaaa7777bbbb8888"),
        "sched",
        "stress-ng.resched.ops_per_sec",
        -24.0,
        Direction::Regression,
        vec![],
    ));
    let mut rv = msg(
        "d-revert@x",
        "Peter Z",
        40,
        "[PATCH] Revert \"sched: change the thing\"",
        None,
    );
    rv.kind = Kind::Patch;
    // The extractor reads both from the subject and the "This reverts
    // commit ..." line.
    rv.extraction.patch = Some(Box::new(regtrack::model::PatchFacts {
        title: "Revert \"sched: change the thing\"".into(),
        title_key: regtrack::link::hints::title_key("Revert \"sched: change the thing\""),
        reverts: Some("dddd4444eeee5555ffff6666aaaa7777bbbb8888".into()),
        reverts_title: Some("sched: change the thing".into()),
        ..Default::default()
    }));
    v.push(rv);

    // E: linked through each lore URL form.
    v.push(report(
        "e-report@intel.com",
        50,
        "eeee5555ff",
        None,
        "block",
        "fio.read_iops",
        -8.0,
        Direction::Regression,
        vec![],
    ));
    for (i, (key, url)) in [
        ("Link", "https://lore.kernel.org/r/e-report@intel.com"),
        ("Link", "https://lore.kernel.org/all/e-report@intel.com/"),
        (
            "Link",
            "https://lore.kernel.org/linux-block/e-report@intel.com/T/#u",
        ),
        (
            "Closes",
            "https://lore.kernel.org/oe-lkp/e-report%40intel.com",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let mut p = msg(
            &format!("e-patch{i}@x"),
            "Jens",
            51 + i as i64,
            "[PATCH] block: fix",
            None,
        );
        p.kind = Kind::Patch;
        p.extraction.trailers = vec![trailer(key, url)];
        v.push(p);
    }
    let mut foot = msg(
        "e-patch-foot@x",
        "Jens",
        56,
        "[PATCH] block: other fix",
        None,
    );
    foot.kind = Kind::Patch;
    foot.extraction.lore_links = vec!["e-report@intel.com".into()];
    v.push(foot);
    // A reply to the footnote patch joins as patch-reply.
    v.push(msg(
        "e-foot-r1@x",
        "Christoph",
        57,
        "Re: [PATCH] block: other fix",
        Some("e-patch-foot@x"),
    ));
    // An unrelated patch with Fixes but no robot Reported-by does not link.
    let mut unrelated = msg(
        "e-unrelated@x",
        "Jens",
        58,
        "[PATCH] block: unrelated",
        None,
    );
    unrelated.kind = Kind::Patch;
    unrelated.extraction.trailers = vec![fixes("eeee5555ff", "block: x")];
    v.push(unrelated);

    LinkInput {
        messages: v,
        marks: vec![],
    }
}
