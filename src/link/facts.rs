//! What linking reads from a robot report's own tables, computed once per
//! report ([`report_facts`]): the headline metric and change, the
//! confidence of the change (its stddevs and the metrics moving with it),
//! the headline rows; and [`prepare`], which keeps those facts and drops
//! everything else linking never reads, so that a regression's messages
//! stay small however large their tables.

use super::LinkMessage;
use super::hints::{is_report, kind_of};
use crate::model::history::iso;
use crate::model::history::{Confidence, ConfidenceLevel, HeadlineRow, ImpactInfo, ReportInfo};
use crate::model::{ChangeUnit, Direction, Extraction, Kind, Table, TableFormat, TableRow};

/// Makes a message ready for linking: a robot report gets its
/// [`ReportFacts`], computed from the whole extraction; then every part of
/// the extraction linking never reads is dropped ([`prune_for_linking`]),
/// and with it the table rows (a report's facts hold what linking reads of
/// them). Linking a prepared message gives what linking it whole gives.
pub fn prepare(m: &mut LinkMessage) {
    if is_report(m) {
        m.report_facts = Some(Box::new(report_facts(m)));
    }
    prune_for_linking(&mut m.extraction);
    if m.report_facts.is_some() {
        for t in &mut m.extraction.tables {
            t.rows = Vec::new();
            t.commits = Vec::new();
        }
    } else {
        // Only a report's tables are read (their commit titles).
        m.extraction.tables = Vec::new();
    }
}

fn own_lkp_tables(m: &LinkMessage) -> impl Iterator<Item = &Table> {
    m.extraction
        .tables
        .iter()
        .filter(|t| t.quote_depth == 0 && t.format == TableFormat::Lkp)
}

fn find_row<'a>(m: &'a LinkMessage, metric: &str) -> Option<(&'a Table, &'a TableRow)> {
    own_lkp_tables(m).find_map(|t| {
        t.rows
            .iter()
            .find(|r| r.metric == metric)
            .or_else(|| {
                t.rows
                    .iter()
                    .find(|r| r.metric.eq_ignore_ascii_case(metric))
            })
            .map(|r| (t, r))
    })
}

fn change_of(r: &TableRow) -> Option<(f64, ChangeUnit)> {
    r.changes
        .iter()
        .skip(1)
        .flatten()
        .find_map(|c| c.value.map(|v| (v, c.unit)))
        .or_else(|| {
            r.changes
                .first()
                .and_then(|c| c.as_ref())
                .and_then(|c| c.value.map(|v| (v, c.unit)))
        })
}

fn headline_row(r: &TableRow) -> HeadlineRow {
    let ch = change_of(r);
    HeadlineRow {
        metric: r.metric.clone(),
        base: r.values.first().copied().flatten(),
        value: r.values.get(1).copied().flatten(),
        change: ch.map(|c| c.0),
        unit: match ch.map(|c| c.1) {
            Some(ChangeUnit::Abs) => "abs".into(),
            _ => "%".into(),
        },
        stddev_percent: r.stddev_percent.iter().take(2).copied().collect(),
    }
}

/// The confidence of a report's headline change, from its own table.
pub fn confidence(m: &LinkMessage, metric: &str) -> Option<Confidence> {
    let (table, row) = find_row(m, metric)?;
    let (change, _) = change_of(row)?;
    let sd: f64 = row
        .stddev_percent
        .iter()
        .take(2)
        .map(|s| s.unwrap_or(0.0))
        .sum();
    let exceeds = change.abs() > sd;
    // Other rows of the same run that moved clearly (beyond 5% and their own
    // stddevs); profile and scheduler-debug rows are too noisy to count.
    let co_moving = table
        .rows
        .iter()
        .filter(|r| r.metric != row.metric)
        .filter(|r| co_moving_candidate(r))
        .count() as u32;
    let level = match (exceeds, co_moving > 0) {
        (true, true) => ConfidenceLevel::High,
        (true, false) | (false, true) => ConfidenceLevel::Medium,
        (false, false) => ConfidenceLevel::Low,
    };
    // A change within twice the noise with nothing moving along is likely noise too.
    let likely_noise =
        level == ConfidenceLevel::Low || (co_moving == 0 && change.abs() <= 2.0 * sd.max(1.0));
    Some(Confidence {
        level,
        change_percent: Some(change),
        stddev_percent: sd,
        exceeds_stddev: exceeds,
        co_moving,
        likely_noise,
    })
}

fn headline_rows(m: &LinkMessage, metric: Option<&str>) -> Vec<HeadlineRow> {
    let mut out = Vec::new();
    let Some(table) = metric
        .and_then(|mt| find_row(m, mt).map(|(t, _)| t))
        .or_else(|| own_lkp_tables(m).next())
    else {
        return out;
    };
    if let Some(r) = metric.and_then(|mt| table.rows.iter().find(|r| r.metric == mt)) {
        out.push(headline_row(r));
    }
    let mut rest: Vec<(f64, &TableRow)> = table
        .rows
        .iter()
        .filter(|r| Some(r.metric.as_str()) != metric)
        .filter_map(|r| match change_of(r) {
            Some((c, ChangeUnit::Percent)) => Some((c.abs(), r)),
            _ => None,
        })
        .collect();
    rest.sort_by(|a, b| b.0.total_cmp(&a.0));
    let rest = rest.into_iter().map(|(_, r)| r);
    out.extend(rest.into_iter().take(5).map(headline_row));
    out
}

/// The headline metric of a report: the body's, else the subject's.
fn report_metric(ex: &Extraction) -> Option<&str> {
    ex.report
        .as_ref()
        .and_then(|b| b.metric.as_deref())
        .or_else(|| ex.subject_report.as_ref().and_then(|s| s.metric.as_deref()))
}

/// True for a row [`confidence`] may count as co-moving (whatever the headline row).
fn co_moving_candidate(r: &TableRow) -> bool {
    if r.metric.starts_with("perf-profile.")
        || r.metric.starts_with("sched_debug.")
        || r.metric.starts_with("perf-sched.")
    {
        return false;
    }
    let own_sd: f64 = r
        .stddev_percent
        .iter()
        .take(2)
        .map(|s| s.unwrap_or(0.0))
        .sum();
    change_of(r)
        .is_some_and(|(c, u)| u == ChangeUnit::Percent && c.abs() >= 5.0 && c.abs() > own_sd)
}

/// Drops every table row linking can never read, and the extraction parts
/// it never reads (profiles, reproducers, Kconfig changes, diff contents,
/// table parameters, report body fields other than the culprit's and the
/// headline's); exact: linking
/// computes the same on the pruned extraction. Linking reads the commit
/// titles of every table, and from the report's own LKP tables only the
/// rows of the headline metric (exact or case-insensitive match), the rows
/// that may count as co-moving in [`confidence`], and the five largest
/// percent changes of `headline_rows`; those are kept, in order, and the
/// rows of other tables are dropped (the tables themselves stay). A report
/// with 300-row tables shrinks to a few dozen rows.
pub fn prune_for_linking(ex: &mut Extraction) {
    ex.profiles = Vec::new();
    ex.reproducers = Vec::new();
    ex.kconfig = Vec::new();
    // Of a diff, only its quote depth is read (does the mail carry its own?).
    for d in &mut ex.diffs {
        *d = crate::model::DiffFile {
            quote_depth: d.quote_depth,
            ..crate::model::DiffFile::default()
        };
    }
    // Of the report body, only what names the culprit, where the robot took
    // it from (the scope and the culprit's page) and the headline.
    if let Some(b) = ex.report.take() {
        ex.report = Some(Box::new(crate::model::ReportBody {
            commit_full: b.commit_full,
            commit_title: b.commit_title,
            tree_url: b.tree_url,
            url: b.url,
            base: b.base,
            patch_link: b.patch_link,
            metric: b.metric,
            change_percent: b.change_percent,
            direction: b.direction,
            testcase: b.testcase,
            test_machine: b.test_machine,
            also_impacts: b.also_impacts,
            ..crate::model::ReportBody::default()
        }));
    }
    for t in &mut ex.tables {
        t.params = Vec::new();
    }
    let metric = report_metric(ex).map(|s| s.to_string());
    let metric = metric.as_deref();
    for t in &mut ex.tables {
        if !(t.quote_depth == 0 && t.format == TableFormat::Lkp) {
            t.rows = Vec::new();
            continue;
        }
        // The five largest |percent change| of rows other than the metric's,
        // as `headline_rows` ranks them (stable sort: ties keep table order).
        let mut rank: Vec<(f64, usize)> = t
            .rows
            .iter()
            .enumerate()
            .filter(|(_, r)| Some(r.metric.as_str()) != metric)
            .filter_map(|(i, r)| match change_of(r) {
                Some((c, ChangeUnit::Percent)) => Some((c.abs(), i)),
                _ => None,
            })
            .collect();
        rank.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut keep = vec![false; t.rows.len()];
        for &(_, i) in rank.iter().take(5) {
            keep[i] = true;
        }
        for (i, r) in t.rows.iter().enumerate() {
            if metric.is_some_and(|mt| r.metric == mt || r.metric.eq_ignore_ascii_case(mt))
                || co_moving_candidate(r)
            {
                keep[i] = true;
            }
        }
        let rows = std::mem::take(&mut t.rows);
        t.rows = rows
            .into_iter()
            .zip(keep)
            .filter_map(|(r, k)| k.then_some(r))
            .collect();
        // Collecting in place keeps the whole table's capacity: give it back.
        t.rows.shrink_to_fit();
    }
}

/// The [`ReportInfo`] of a report message, from its whole extraction.
pub fn report_info(m: &LinkMessage) -> ReportInfo {
    let sr = m.extraction.subject_report.as_ref();
    let body = m.extraction.report.as_ref();
    let kind = kind_of(m);
    let metric = body
        .and_then(|b| b.metric.clone())
        .or_else(|| sr.and_then(|s| s.metric.clone()));
    // A functional report's lead names its failure where a performance
    // report's names the metric: it has no metric.
    let (metric, failure) = if kind == Kind::FunctionalReport {
        (None, sr.and_then(|s| s.failure.clone()).or(metric))
    } else {
        (metric, sr.and_then(|s| s.failure.clone()))
    };
    let change = body
        .and_then(|b| b.change_percent)
        .or_else(|| sr.and_then(|s| s.change_percent));
    let direction = body
        .and_then(|b| b.direction)
        .or_else(|| sr.and_then(|s| s.direction))
        .unwrap_or(Direction::Undefined);
    // The table's change carries the sign (subjects and leads dropped it in 2024).
    let table_change = metric
        .as_deref()
        .and_then(|mt| find_row(m, mt))
        .and_then(|(_, r)| change_of(r))
        .filter(|(_, u)| *u == ChangeUnit::Percent)
        .map(|(c, _)| c);
    let written = change;
    let change = table_change.or(change);
    ReportInfo {
        change_as_written: written,
        message_id: m.message_id.clone(),
        subject: m.subject.clone(),
        confidence: metric.as_deref().and_then(|mt| confidence(m, mt)),
        headline_rows: headline_rows(m, metric.as_deref()),
        metric,
        change_percent: change,
        direction,
        testcase: body.and_then(|b| b.testcase.clone()),
        test_machine: body.and_then(|b| b.test_machine.clone()),
        date: iso(m.date),
        unix: m.date,
        branch: sr.and_then(|s| s.branch.clone()),
        failure,
        kind,
        also_impacts: body
            .map(|b| {
                b.also_impacts
                    .iter()
                    .map(|i| ImpactInfo {
                        metric: i.metric.clone(),
                        change_percent: i.change_percent,
                        direction: i.direction.unwrap_or(Direction::Undefined),
                        testcase: i.testcase.clone(),
                        test_machine: i.test_machine.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// The headline row's columns: the table's commits, values and stddevs.
pub type HeadlineColumns = (Vec<String>, Vec<Option<f64>>, Vec<Option<f64>>);

/// Everything finishing a regression reads from a report's tables, computed
/// once from the whole extraction, so that the table rows need not be kept
/// (see [`prepare`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReportFacts {
    /// The report's [`ReportInfo`].
    pub info: ReportInfo,
    /// The headline metric's row, when the report's own table has one.
    pub headline: Option<HeadlineColumns>,
}

/// The [`ReportFacts`] of a report message.
pub fn report_facts(m: &LinkMessage) -> ReportFacts {
    let info = report_info(m);
    let headline = info
        .metric
        .as_deref()
        .and_then(|mt| headline_columns(m, mt));
    ReportFacts { info, headline }
}

/// The commits, values and stddevs of `metric`'s row in `m`'s tables.
pub fn headline_columns(m: &LinkMessage, metric: &str) -> Option<HeadlineColumns> {
    find_row(m, metric).map(|(t, row)| {
        (
            t.commits.clone(),
            row.values.clone(),
            row.stddev_percent.clone(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Change, Kind};

    /// Every robot report extraction of a corpus file or directory.
    fn report_extractions(path: &std::path::Path) -> Vec<Extraction> {
        let Ok(stream) = crate::source::open(path) else {
            return Vec::new();
        };
        stream
            .filter_map(|r| r.ok())
            .filter_map(|raw| crate::mail::parse(&raw).ok())
            .map(|m| crate::extract::extract(&m))
            .filter(|e| e.tables.iter().any(|t| t.format == TableFormat::Lkp))
            .collect()
    }

    /// Checks that linking reads the same from `ex` before and after
    /// pruning, with the headline metric set to none and to every row's
    /// metric (as written and upper-cased); returns the rows before and after.
    fn linking_reads_the_same(ex: &Extraction) -> (usize, usize) {
        let mut metrics: Vec<Option<String>> = vec![None];
        for t in &ex.tables {
            for r in t.rows.iter().take(60) {
                metrics.push(Some(r.metric.clone()));
                metrics.push(Some(r.metric.to_uppercase()));
            }
        }
        let count = |e: &Extraction| e.tables.iter().map(|t| t.rows.len()).sum::<usize>();
        let mut after = 0;
        for mt in metrics {
            let mut e = ex.clone();
            e.report.get_or_insert_with(Default::default).metric = mt.clone();
            let full = LinkMessage {
                message_id: "m@x".into(),
                kind: Kind::PerfReport,
                extraction: e.clone(),
                ..LinkMessage::default()
            };
            prune_for_linking(&mut e);
            after = after.max(count(&e));
            let pruned = LinkMessage {
                extraction: e,
                ..full.clone()
            };
            assert_eq!(report_info(&full), report_info(&pruned), "metric {mt:?}");
            if let Some(mt) = &mt {
                let row =
                    |m: &LinkMessage| find_row(m, mt).map(|(t, r)| (t.commits.clone(), r.clone()));
                assert_eq!(row(&full), row(&pruned), "row of {mt}");
            }
            let titles = |m: &LinkMessage| {
                m.extraction
                    .tables
                    .iter()
                    .map(|t| t.commit_titles.clone())
                    .collect::<Vec<_>>()
            };
            assert_eq!(titles(&full), titles(&pruned));
        }
        (count(ex), after)
    }

    fn row(metric: &str, change: Option<f64>, unit: ChangeUnit, sd: Option<f64>) -> TableRow {
        TableRow {
            metric: metric.to_string(),
            values: vec![Some(100.0), Some(110.0)],
            stddev_percent: vec![sd, None],
            changes: vec![
                None,
                Some(Change {
                    value: change,
                    unit,
                }),
            ],
            ..TableRow::default()
        }
    }

    #[test]
    fn pruned_report_tables_give_the_same_headline_confidence_and_top_rows() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let mut exs = report_extractions(&root.join("report"));
        exs.extend(report_extractions(&root.join("threads")));
        assert!(exs.len() >= 8, "{} corpus reports with tables", exs.len());
        for ex in &exs {
            linking_reads_the_same(ex);
        }

        // A 300-row table in the robot's shape: ties in |change|, a metric
        // printed twice in other cases, noisy profile rows, absolute changes,
        // rows within their stddev.
        let mut ex = exs
            .iter()
            .find(|e| {
                e.tables
                    .iter()
                    .any(|t| t.quote_depth == 0 && t.format == TableFormat::Lkp)
            })
            .cloned()
            .expect("an own lkp table");
        let t = ex
            .tables
            .iter_mut()
            .find(|t| t.quote_depth == 0 && t.format == TableFormat::Lkp)
            .expect("own lkp table");
        t.rows.clear();
        for i in 0..300u32 {
            let c = f64::from(i % 23) - 11.0;
            let (name, unit, sd) = match i % 7 {
                0 => (
                    format!("perf-profile.children.f{i}"),
                    ChangeUnit::Percent,
                    None,
                ),
                6 => (format!("perf-sched.wait{i}"), ChangeUnit::Percent, None),
                1 => (format!("vmstat.metric{i}"), ChangeUnit::Abs, None),
                2 => (format!("sched_debug.x{i}"), ChangeUnit::Percent, Some(1.0)),
                3 => (
                    format!("will-it-scale.m{i}"),
                    ChangeUnit::Percent,
                    Some(c.abs()),
                ),
                _ => (
                    format!("fsmark.Metric{}", i % 40),
                    ChangeUnit::Percent,
                    Some(2.0),
                ),
            };
            // The largest changes are on rows that never count as co-moving.
            let c = if name.starts_with("perf-") {
                c * 5.0
            } else {
                c
            };
            t.rows.push(row(&name, Some(c), unit, sd));
        }
        t.rows.push(row(
            "fsmark.metric3",
            Some(-11.0),
            ChangeUnit::Percent,
            None,
        ));
        t.rows.push(row("nan.row", None, ChangeUnit::Percent, None));
        let quoted = Table {
            quote_depth: 1,
            ..t.clone()
        };
        ex.tables.push(quoted);
        let (before, after) = linking_reads_the_same(&ex);
        assert!(before >= 600, "{before} rows");
        assert!(after < before / 2, "pruning kept {after} of {before} rows");

        // The real report threads of the shared corpus, when available.
        let Some(shared) = std::env::var_os("REGTRACK_SHARED") else {
            // Past libtest's capture of `eprintln!`, so the runner shows it.
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "note: REGTRACK_SHARED not set; the shared corpus part of this test skipped"
            );
            return;
        };
        let shared = std::path::Path::new(&shared).join("corpus");
        let mut n = 0;
        for e in std::fs::read_dir(&shared).into_iter().flatten().flatten() {
            if e.path().extension().is_some_and(|x| x == "mbox") {
                for ex in report_extractions(&e.path()).iter().take(3) {
                    linking_reads_the_same(ex);
                    n += 1;
                }
            }
        }
        assert!(n > 0, "no shared reports with tables");
    }
}
