//! Trends (`regtrack trends`): how often the robot reported regressions,
//! where, how big, and what became of them, per period (month or release)
//! and per subsystem, testcase and metric. Pure functions over histories
//! already read and filtered ([`super::list`]); nothing here reads the store.
//!
//! What is counted is the robot's reports ([`points`]): every performance
//! report of a history (functional reports have no change to count), and,
//! for a history known only from replies that quote its report, its
//! headline as one report dated by its first message. A report is in the
//! row of its period and of its history's subsystem, its own testcase and
//! metric; a history is in every row where it has a report, and its status
//! and its times count once in each.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::model::history::{Regression, Role, Status, TimelineEntry};
use crate::model::{Direction, Kind};

/// What a period is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum By {
    /// The calendar month (UTC) of each report: `2024-03`.
    #[default]
    Month,
    /// The mainline release whose cycle first holds the culprit, as a
    /// followed tree says (`culprit.release`; `v6.9-rc3` is `v6.9`'s
    /// cycle); none when no followed tree places the culprit in a release.
    Release,
}

impl By {
    /// The name used on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            By::Month => "month",
            By::Release => "release",
        }
    }
}

/// How finely the rows split a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Per {
    /// One row per subsystem.
    Subsystem,
    /// One row per subsystem and testcase.
    Testcase,
    /// One row per subsystem, testcase and metric.
    #[default]
    Metric,
}

impl Per {
    /// The name used on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Per::Subsystem => "subsystem",
            Per::Testcase => "testcase",
            Per::Metric => "metric",
        }
    }
}

/// What the trends are asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// The periods.
    pub by: By,
    /// The rows within a period.
    pub per: Per,
    /// Only reports of this direction; `None`: every report but the
    /// improvements.
    pub direction: Option<Direction>,
}

/// One robot report as the trends count it.
#[derive(Debug, Clone, PartialEq)]
pub struct Point<'a> {
    /// Its history.
    pub history: &'a Regression,
    /// The history's subsystem, in lower case (`-` when unknown).
    pub subsystem: String,
    /// The benchmark: its metric's first part (`fsmark` of
    /// `fsmark.files_per_sec`), else the report's testcase.
    pub testcase: String,
    /// The report's metric (`-` when unknown).
    pub metric: String,
    /// When it was reported (Unix seconds).
    pub unix: Option<i64>,
    /// Its change in percent, signed as the robot printed it.
    pub change_percent: Option<f64>,
    /// Known only from a reply quoting it: the history's headline, dated by
    /// its first message.
    pub quoted: bool,
}

/// Unknown, in a text column.
const UNKNOWN: &str = "-";

/// The benchmark of a report: the first part of its metric (the robot
/// names metrics `benchmark.stat`: `fsmark` of `fsmark.files_per_sec`), so
/// that a report with a `testcase:` line and one without group alike
/// (`fio-basic` runs give `fio.write_iops`); else a plain testcase name as
/// the report gives it (an old report's `machine/testcase/params` is none).
pub fn testcase_of(testcase: Option<&str>, metric: Option<&str>) -> String {
    let from_metric = metric
        .and_then(|m| m.split('.').next())
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let plain = testcase
        .map(str::trim)
        .filter(|t| !t.is_empty() && !t.contains('/'));
    from_metric.or(plain).unwrap_or(UNKNOWN).to_string()
}

fn subsystem_of(r: &Regression) -> String {
    match r.subsystem.as_deref().map(str::trim) {
        Some(s) if !s.is_empty() => s.to_lowercase(),
        _ => UNKNOWN.to_string(),
    }
}

fn wanted(d: Direction, want: Option<Direction>) -> bool {
    match want {
        Some(w) => d == w,
        None => d != Direction::Improvement,
    }
}

/// Every report of `regs` the trends count, in the order of `regs` and of
/// each history's reports: its performance reports of the wanted
/// direction (`None`: all but improvements), or, for a history with no
/// report stored (its report reached the archive only quoted in replies),
/// its headline, dated by its first message.
pub fn points(regs: &[Regression], direction: Option<Direction>) -> Vec<Point<'_>> {
    let mut out = Vec::new();
    for r in regs {
        let subsystem = subsystem_of(r);
        if r.reports.is_empty() {
            let Some(h) = &r.headline else { continue };
            if !wanted(r.direction, direction) {
                continue;
            }
            out.push(Point {
                history: r,
                subsystem,
                testcase: testcase_of(None, Some(&h.metric)),
                metric: h.metric.clone(),
                unix: r.facts.first_unix,
                change_percent: h.change_percent,
                quoted: true,
            });
            continue;
        }
        for rep in &r.reports {
            if rep.kind != Kind::PerfReport || !wanted(rep.direction, direction) {
                continue;
            }
            out.push(Point {
                history: r,
                subsystem: subsystem.clone(),
                testcase: testcase_of(rep.testcase.as_deref(), rep.metric.as_deref()),
                metric: rep
                    .metric
                    .clone()
                    .filter(|m| !m.trim().is_empty())
                    .unwrap_or_else(|| UNKNOWN.to_string()),
                unix: rep.unix.or(r.facts.first_unix),
                change_percent: rep.change_percent,
                quoted: false,
            });
        }
    }
    out
}

/// `YYYY-MM` of Unix seconds (UTC).
pub fn month_of(unix: i64) -> Option<String> {
    chrono::DateTime::from_timestamp(unix, 0).map(|d| d.format("%Y-%m").to_string())
}

/// The release cycle a release tag belongs to: `v6.9` for `v6.9-rc3` and
/// `v6.9`, `v2.6.39` for `v2.6.39-rc1`; a name that is no mainline release
/// stays as it is.
pub fn release_cycle(tag: &str) -> String {
    let tag = tag.trim();
    match crate::trees::parse_release(tag) {
        Some(r) if r.major == 2 && r.minor == 6 => format!("v2.6.{}", r.patch),
        Some(r) => format!("v{}.{}", r.major, r.minor),
        None => tag.to_string(),
    }
}

/// The period of a report (`None`: unknown, no date or no release).
pub fn period_of(p: &Point<'_>, by: By) -> Option<String> {
    match by {
        By::Month => p.unix.and_then(month_of),
        By::Release => p.history.culprit.release.as_deref().map(release_cycle),
    }
}

/// The order periods are shown in: months as written, releases by version
/// (names that are no release after them), the unknown period last.
fn period_key(p: &Option<String>) -> (u8, Option<crate::trees::Release>, String) {
    match p {
        None => (2, None, String::new()),
        Some(s) => match crate::trees::parse_release(s) {
            Some(r) => (0, Some(r), s.clone()),
            None => (1, None, s.clone()),
        },
    }
}

/// True for a timeline entry written by a person (not the robot, not
/// regzbot), in a message of the history that replies or posts a patch.
fn by_a_person(e: &TimelineEntry, r: &Regression) -> bool {
    let Some(id) = e.message_id.as_deref() else {
        return false;
    };
    let from = e.from.as_deref().unwrap_or("").trim();
    let robot = from.is_empty()
        || from.eq_ignore_ascii_case("kernel test robot")
        || from.to_ascii_lowercase().contains("lkp@intel.com")
        || from.eq_ignore_ascii_case("regzbot");
    !robot
        && r.attached.iter().any(|a| {
            a.message_id == id
                && matches!(
                    a.role,
                    Role::Reply | Role::PatchReply | Role::Patch | Role::Revert
                )
        })
}

/// Days from `from` to `to` (never below 0).
fn days(from: i64, to: i64) -> f64 {
    (to - from).max(0) as f64 / 86_400.0
}

/// When the robot first reported the history (Unix seconds): only for a
/// history with a report of its own stored.
fn reported_at(r: &Regression) -> Option<i64> {
    if r.reports.is_empty() {
        return None;
    }
    r.reports
        .iter()
        .filter_map(|x| x.unix)
        .min()
        .or(r.facts.first_unix)
}

/// Days from the first report to the first reply by a person, when both
/// are known (a history known only from replies has no report date).
pub fn days_to_reply(r: &Regression) -> Option<f64> {
    let start = reported_at(r)?;
    r.timeline
        .iter()
        .filter(|e| by_a_person(e, r))
        .filter_map(|e| e.unix)
        .filter(|&t| t >= start)
        .min()
        .map(|t| days(start, t))
}

/// Days from the first report to the first timeline entry that says a fix
/// landed (`fix-applied` or `fixed`: a maintainer's "applied", a tree's
/// commit, a mark), for a history whose status is one of those.
pub fn days_to_fix(r: &Regression) -> Option<f64> {
    if !r.status.is_fixed() {
        return None;
    }
    let start = reported_at(r)?;
    r.timeline
        .iter()
        .filter(|e| e.status.is_some_and(Status::is_fixed))
        .filter_map(|e| e.unix)
        .min()
        .map(|t| days(start, t))
}

/// The median of `v` (the mean of the middle two for an even count).
pub fn median(v: &mut [f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// `x` rounded to one decimal.
fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// `part` of `whole` in percent, one decimal.
fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        round1(part as f64 * 100.0 / whole as f64)
    }
}

/// One row of the trends: a period and a subsystem (with a testcase and a
/// metric, as finely as asked).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// `2024-03` or `v6.9`; `None` when unknown (no date, no release).
    pub period: Option<String>,
    /// The subsystem, in lower case (`-` when unknown).
    pub subsystem: String,
    /// The testcase (absent with `--per subsystem`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub testcase: Option<String>,
    /// The metric (absent with `--per subsystem` or `testcase`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// Reports of the robot counted.
    pub reports: usize,
    /// Histories with a report in the row.
    pub histories: usize,
    /// Their ids, ascending.
    pub ids: Vec<i64>,
    /// The median size of the reports' changes (percent, unsigned).
    pub median_abs_change_percent: Option<f64>,
    /// The largest change, signed as the robot printed it.
    pub worst_change_percent: Option<f64>,
    /// Histories whose fix landed ([`Status::is_fixed`]).
    pub fixed: usize,
    /// Histories declined.
    pub declined: usize,
    /// Histories still open (not [`Status::is_closed`]).
    pub open: usize,
    /// `fixed` of `histories`, in percent.
    pub fixed_percent: f64,
    /// `declined` of `histories`, in percent.
    pub declined_percent: f64,
    /// `open` of `histories`, in percent.
    pub open_percent: f64,
    /// The median of the days from the first report to the first reply by
    /// a person, over the histories that have both.
    pub median_days_to_reply: Option<f64>,
    /// How many histories that median is taken over.
    pub replied: usize,
    /// The median of the days from the first report to the fix landing,
    /// over the fixed histories whose dates are known.
    pub median_days_to_fix: Option<f64>,
    /// How many histories that median is taken over.
    pub fixes_timed: usize,
}

/// The key of a row: period, subsystem, testcase, metric.
type Key = (Option<String>, String, Option<String>, Option<String>);

/// The rows of the trends of `regs` (histories already filtered), periods
/// in order (months as written, releases by version, the unknown period
/// last), then by subsystem, testcase and metric.
pub fn rows(regs: &[Regression], opts: &Options) -> Vec<Row> {
    let mut groups: BTreeMap<Key, Vec<Point<'_>>> = BTreeMap::new();
    for p in points(regs, opts.direction) {
        let key: Key = (
            period_of(&p, opts.by),
            p.subsystem.clone(),
            (opts.per >= Per::Testcase).then(|| p.testcase.clone()),
            (opts.per >= Per::Metric).then(|| p.metric.clone()),
        );
        groups.entry(key).or_default().push(p);
    }
    let mut out: Vec<Row> = groups
        .into_iter()
        .map(|((period, subsystem, testcase, metric), pts)| {
            row(period, subsystem, testcase, metric, &pts)
        })
        .collect();
    out.sort_by(|a, b| {
        period_key(&a.period)
            .cmp(&period_key(&b.period))
            .then_with(|| a.subsystem.cmp(&b.subsystem))
            .then_with(|| a.testcase.cmp(&b.testcase))
            .then_with(|| a.metric.cmp(&b.metric))
    });
    out
}

fn row(
    period: Option<String>,
    subsystem: String,
    testcase: Option<String>,
    metric: Option<String>,
    pts: &[Point<'_>],
) -> Row {
    let changes: Vec<f64> = pts
        .iter()
        .filter_map(|p| p.change_percent)
        .filter(|c| c.is_finite())
        .collect();
    let worst = changes
        .iter()
        .copied()
        .max_by(|a, b| a.abs().total_cmp(&b.abs()));
    let mut sizes: Vec<f64> = changes.iter().map(|c| c.abs()).collect();
    let mut seen = BTreeSet::new();
    let hs: Vec<&Regression> = pts
        .iter()
        .map(|p| p.history)
        .filter(|r| seen.insert(r.id))
        .collect();
    let n = hs.len();
    let fixed = hs.iter().filter(|r| r.status.is_fixed()).count();
    let declined = hs.iter().filter(|r| r.status == Status::Declined).count();
    let open = hs.iter().filter(|r| !r.status.is_closed()).count();
    let mut reply: Vec<f64> = hs.iter().filter_map(|r| days_to_reply(r)).collect();
    let mut fix: Vec<f64> = hs.iter().filter_map(|r| days_to_fix(r)).collect();
    Row {
        period,
        subsystem,
        testcase,
        metric,
        reports: pts.len(),
        histories: n,
        ids: seen.into_iter().collect(),
        median_abs_change_percent: median(&mut sizes).map(round1),
        worst_change_percent: worst,
        fixed,
        declined,
        open,
        fixed_percent: percent(fixed, n),
        declined_percent: percent(declined, n),
        open_percent: percent(open, n),
        replied: reply.len(),
        median_days_to_reply: median(&mut reply).map(round1),
        fixes_timed: fix.len(),
        median_days_to_fix: median(&mut fix).map(round1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::history::{Attachment, Headline, ReportInfo};

    const DAY: i64 = 86_400;
    /// 2024-03-01T00:00:00Z.
    const MAR: i64 = 1_709_251_200;

    fn report(unix: i64, metric: &str, change: f64, direction: Direction) -> ReportInfo {
        ReportInfo {
            message_id: format!("r{unix}@intel.com"),
            metric: Some(metric.into()),
            change_percent: Some(change),
            direction,
            unix: Some(unix),
            kind: Kind::PerfReport,
            ..ReportInfo::default()
        }
    }

    fn entry(unix: i64, from: &str, id: Option<&str>, status: Option<Status>) -> TimelineEntry {
        TimelineEntry {
            unix: Some(unix),
            from: Some(from.into()),
            message_id: id.map(str::to_string),
            status,
            ..TimelineEntry::default()
        }
    }

    fn history(id: i64, sub: &str, status: Status, reports: Vec<ReportInfo>) -> Regression {
        let mut r = Regression {
            id,
            subsystem: Some(sub.into()),
            status,
            direction: Direction::Regression,
            ..Regression::default()
        };
        r.facts.first_unix = reports.iter().filter_map(|x| x.unix).min();
        for x in &reports {
            r.attached.push(Attachment {
                message_id: x.message_id.clone(),
                role: Role::Report,
                reason: String::new(),
            });
            r.timeline.push(entry(
                x.unix.unwrap_or(0),
                "kernel test robot",
                Some(&x.message_id),
                Some(Status::Reported),
            ));
        }
        r.reports = reports;
        r
    }

    /// A reply by `from` at `unix`, setting `status`.
    fn reply(r: &mut Regression, unix: i64, from: &str, role: Role, status: Option<Status>) {
        let id = format!("m{unix}@example.org");
        r.attached.push(Attachment {
            message_id: id.clone(),
            role,
            reason: String::new(),
        });
        r.timeline.push(entry(unix, from, Some(&id), status));
    }

    /// Three ext4 histories and an xfs one over two months.
    fn sample() -> Vec<Regression> {
        // Fixed: a reply after 2 days, applied after 10.
        let mut a = history(
            1,
            "ext4",
            Status::FixApplied,
            vec![report(
                MAR,
                "fsmark.files_per_sec",
                -12.0,
                Direction::Regression,
            )],
        );
        reply(
            &mut a,
            MAR + 2 * DAY,
            "Jan Kara",
            Role::Reply,
            Some(Status::Discussed),
        );
        reply(
            &mut a,
            MAR + 4 * DAY,
            "Jan Kara",
            Role::Patch,
            Some(Status::FixProposed),
        );
        reply(
            &mut a,
            MAR + 10 * DAY,
            "Ted",
            Role::Reply,
            Some(Status::FixApplied),
        );
        // Declined after a reply on day 4; its robot team member's answer
        // on day 1 is a person's too.
        let mut b = history(
            2,
            "EXT4",
            Status::Declined,
            vec![report(
                MAR + DAY,
                "fsmark.files_per_sec",
                -4.0,
                Direction::Regression,
            )],
        );
        reply(&mut b, MAR + 5 * DAY, "Oliver Sang", Role::Reply, None);
        reply(
            &mut b,
            MAR + 6 * DAY,
            "Ted",
            Role::Reply,
            Some(Status::Declined),
        );
        // Open, two reports in two months (one an improvement), no reply but the robot's own.
        let mut c = history(
            3,
            "ext4",
            Status::Reported,
            vec![
                report(
                    MAR + 3 * DAY,
                    "fsmark.files_per_sec",
                    -8.0,
                    Direction::Regression,
                ),
                report(
                    MAR + 40 * DAY,
                    "aim7.jobs-per-min",
                    -20.0,
                    Direction::Regression,
                ),
                report(
                    MAR + 41 * DAY,
                    "aim7.jobs-per-min",
                    30.0,
                    Direction::Improvement,
                ),
            ],
        );
        reply(
            &mut c,
            MAR + 5 * DAY,
            "kernel test robot",
            Role::Reply,
            None,
        );
        // Known only from a reply quoting its report: its headline counts.
        let mut d = Regression {
            id: 4,
            subsystem: Some("xfs".into()),
            status: Status::Discussed,
            direction: Direction::Regression,
            headline: Some(Headline {
                metric: "fsmark.files_per_sec".into(),
                change_percent: Some(-5.0),
                ..Headline::default()
            }),
            ..Regression::default()
        };
        d.facts.first_unix = Some(MAR + 20 * DAY);
        reply(
            &mut d,
            MAR + 20 * DAY,
            "Dave",
            Role::Reply,
            Some(Status::Discussed),
        );
        vec![a, b, c, d]
    }

    #[test]
    fn testcases_come_from_the_report_or_the_metric() {
        assert_eq!(
            testcase_of(Some("fio-basic"), Some("fio.write_iops")),
            "fio"
        );
        assert_eq!(testcase_of(Some("fsmark"), None), "fsmark");
        assert_eq!(
            testcase_of(
                Some("ivb44/vm-scalability/300s"),
                Some("vm-scalability.migrate_mbps")
            ),
            "vm-scalability"
        );
        assert_eq!(
            testcase_of(None, Some("stress-ng.fiemap.ops_per_sec")),
            "stress-ng"
        );
        assert_eq!(testcase_of(None, None), "-");
    }

    #[test]
    fn release_cycles_take_their_candidates_in() {
        assert_eq!(release_cycle("v6.9-rc3"), "v6.9");
        assert_eq!(release_cycle("v6.10"), "v6.10");
        assert_eq!(release_cycle("v2.6.39-rc1"), "v2.6.39");
        assert_eq!(release_cycle("next-20240301"), "next-20240301");
    }

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn reply_and_fix_times_count_people_from_the_first_report() {
        let regs = sample();
        assert_eq!(days_to_reply(&regs[0]), Some(2.0));
        assert_eq!(days_to_fix(&regs[0]), Some(10.0));
        // Oliver Sang is a person; the declined history has no fix.
        assert_eq!(days_to_reply(&regs[1]), Some(4.0));
        assert_eq!(days_to_fix(&regs[1]), None);
        // The robot's own reply is none.
        assert_eq!(days_to_reply(&regs[2]), None);
        // No report date, no time.
        assert_eq!(days_to_reply(&regs[3]), None);
    }

    #[test]
    fn improvements_are_left_out_unless_asked_for() {
        let regs = sample();
        let all = points(&regs, None);
        assert_eq!(all.len(), 5);
        assert!(all.iter().all(|p| p.change_percent != Some(30.0)));
        assert!(all.iter().any(|p| p.quoted && p.subsystem == "xfs"));
        let imp = points(&regs, Some(Direction::Improvement));
        assert_eq!(imp.len(), 1);
        assert_eq!(imp[0].metric, "aim7.jobs-per-min");
    }

    #[test]
    fn rows_by_month_per_metric() {
        let regs = sample();
        let rows = rows(&regs, &Options::default());
        let keys: Vec<(Option<&str>, &str, Option<&str>)> = rows
            .iter()
            .map(|r| {
                (
                    r.period.as_deref(),
                    r.subsystem.as_str(),
                    r.metric.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            keys,
            [
                (Some("2024-03"), "ext4", Some("fsmark.files_per_sec")),
                (Some("2024-03"), "xfs", Some("fsmark.files_per_sec")),
                (Some("2024-04"), "ext4", Some("aim7.jobs-per-min")),
            ]
        );
        let ext4 = &rows[0];
        assert_eq!(ext4.testcase.as_deref(), Some("fsmark"));
        assert_eq!((ext4.reports, ext4.histories), (3, 3));
        assert_eq!(ext4.ids, [1, 2, 3]);
        assert_eq!(ext4.median_abs_change_percent, Some(8.0));
        assert_eq!(ext4.worst_change_percent, Some(-12.0));
        assert_eq!((ext4.fixed, ext4.declined, ext4.open), (1, 1, 1));
        assert_eq!(ext4.fixed_percent, 33.3);
        assert_eq!((ext4.median_days_to_reply, ext4.replied), (Some(3.0), 2));
        assert_eq!((ext4.median_days_to_fix, ext4.fixes_timed), (Some(10.0), 1));
        let xfs = &rows[1];
        assert_eq!((xfs.reports, xfs.open, xfs.open_percent), (1, 1, 100.0));
        assert_eq!(xfs.median_days_to_reply, None);
        let apr = &rows[2];
        assert_eq!((apr.reports, apr.ids.as_slice()), (1, &[3][..]));
        assert_eq!(apr.worst_change_percent, Some(-20.0));
    }

    #[test]
    fn coarser_rows_join_metrics_and_testcases() {
        let regs = sample();
        let per = |per| {
            rows(
                &regs,
                &Options {
                    per,
                    ..Options::default()
                },
            )
        };
        let subs = per(Per::Subsystem);
        assert_eq!(subs.len(), 3);
        assert!(
            subs.iter()
                .all(|r| r.testcase.is_none() && r.metric.is_none())
        );
        let tc = per(Per::Testcase);
        assert_eq!(tc[2].testcase.as_deref(), Some("aim7"));
        assert!(tc.iter().all(|r| r.metric.is_none()));
        let json = serde_json::to_value(&subs[0]).unwrap();
        assert!(json.get("testcase").is_none() && json.get("metric").is_none());
        assert_eq!(json["period"], "2024-03");
    }

    #[test]
    fn rows_by_release_use_the_culprit_s_release_and_put_the_unknown_last() {
        let mut regs = sample();
        regs[0].culprit.release = Some("v6.10-rc2".into());
        regs[1].culprit.release = Some("v6.9".into());
        regs[2].culprit.release = Some("v6.9-rc1".into());
        let rows = rows(
            &regs,
            &Options {
                by: By::Release,
                per: Per::Subsystem,
                ..Options::default()
            },
        );
        let keys: Vec<(Option<&str>, &str, usize)> = rows
            .iter()
            .map(|r| (r.period.as_deref(), r.subsystem.as_str(), r.reports))
            .collect();
        assert_eq!(
            keys,
            [
                (Some("v6.9"), "ext4", 3),
                (Some("v6.10"), "ext4", 1),
                (None, "xfs", 1)
            ]
        );
    }
}
