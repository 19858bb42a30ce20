//! A regression's reports, timeline, status with evidence, confidence and patches.
//!
//! The timeline holds one entry per thing that happened (a report, a reply by
//! a person, a patch, a confirming or disputing sentence or table, a
//! `Tested-by`, a maintainer's `Applied`, a regzbot command, a human mark).
//! The status folds over it in date order: `reported` -> `discussed` ->
//! `fix-proposed` -> `fix-confirmed` -> `fix-applied` only move forward; the
//! side states `disputed` and `declined` hold until a later patch or fix; a
//! regression whose reports are all improvements and on which nobody acted is
//! `improvement`; the latest human mark wins over everything.

use super::attach::{Draft, is_robot, kind_of, names_robot, own_trailers};
use super::culprit::same_commit;
use super::regzbot;
use super::{
    Attachment, Confidence, CulpritInfo, Facts, Headline, HeadlineRow, ImpactInfo, LinkMessage,
    Mark, PatchInfo, Regression, ReportInfo, Status, StatusEvidence, TimelineEntry, TrailerKv, iso,
};
use crate::model::{
    ChangeUnit, Direction, EventKind, Extraction, Kind, SignalKind, Table, TableFormat, TableRow,
};

/// The culprit's title, from a report body, a table's commit list or a `Fixes:` tag.
pub fn culprit_title(d: &Draft, msgs: &[LinkMessage]) -> Option<String> {
    for mem in &d.members {
        let Some(m) = msgs.get(mem.idx) else { continue };
        if let Some(t) = m
            .extraction
            .report
            .as_ref()
            .and_then(|r| r.commit_title.clone())
            && !t.trim().is_empty()
        {
            return Some(t);
        }
    }
    for mem in &d.members {
        let Some(m) = msgs.get(mem.idx) else { continue };
        for t in &m.extraction.tables {
            for (c, title) in &t.commit_titles {
                if same_commit(c, &d.key) && !title.trim().is_empty() {
                    return Some(title.clone());
                }
            }
        }
        for t in &m.extraction.trailers {
            if let (Some(c), Some(title)) = (&t.commit, &t.title)
                && same_commit(c, &d.key)
            {
                return Some(title.clone());
            }
        }
    }
    // A commit reference with its title anywhere in the history (`06c4d00466 ("...")`).
    d.members
        .iter()
        .filter_map(|mem| msgs.get(mem.idx))
        .flat_map(|m| m.extraction.commits.iter())
        .find(|c| {
            same_commit(&c.id, &d.key) && c.title.as_deref().is_some_and(|t| !t.trim().is_empty())
        })
        .and_then(|c| c.title.clone())
}

fn who(m: &LinkMessage) -> Option<String> {
    m.from_name
        .clone()
        .filter(|s| !s.trim().is_empty())
        .or_else(|| m.from_email.clone())
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
        (true, true) => "high",
        (true, false) | (false, true) => "medium",
        (false, false) => "low",
    };
    // A change within twice the noise with nothing moving along is likely noise too.
    let likely_noise = level == "low" || (co_moving == 0 && change.abs() <= 2.0 * sd.max(1.0));
    Some(Confidence {
        level: level.to_string(),
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
    // Of the report body, only what names the culprit and the headline.
    if let Some(b) = ex.report.take() {
        ex.report = Some(Box::new(crate::model::ReportBody {
            commit_full: b.commit_full,
            commit_title: b.commit_title,
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

fn report_info(m: &LinkMessage) -> ReportInfo {
    let sr = m.extraction.subject_report.as_ref();
    let body = m.extraction.report.as_ref();
    let metric = body
        .and_then(|b| b.metric.clone())
        .or_else(|| sr.and_then(|s| s.metric.clone()));
    let change = body
        .and_then(|b| b.change_percent)
        .or_else(|| sr.and_then(|s| s.change_percent));
    let direction = body
        .and_then(|b| b.direction)
        .or_else(|| sr.and_then(|s| s.direction))
        .unwrap_or(Direction::Undefined);
    let kind = kind_of(m);
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
        direction: direction.as_str().to_string(),
        testcase: body.and_then(|b| b.testcase.clone()),
        test_machine: body.and_then(|b| b.test_machine.clone()),
        date: iso(m.date),
        unix: m.date,
        branch: sr.and_then(|s| s.branch.clone()),
        failure: sr.and_then(|s| s.failure.clone()),
        kind: kind.as_str().to_string(),
        also_impacts: body
            .map(|b| {
                b.also_impacts
                    .iter()
                    .map(|i| ImpactInfo {
                        metric: i.metric.clone(),
                        change_percent: i.change_percent,
                        direction: i.direction.unwrap_or(Direction::Undefined).as_str().into(),
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
/// (see [`finish_with`]).
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
fn headline_columns(m: &LinkMessage, metric: &str) -> Option<HeadlineColumns> {
    find_row(m, metric).map(|(t, row)| {
        (
            t.commits.clone(),
            row.values.clone(),
            row.stddev_percent.clone(),
        )
    })
}

/// Precomputed [`ReportFacts`] by message index.
pub type FactsByIndex = std::collections::HashMap<usize, ReportFacts>;

fn fmt_change(c: Option<f64>) -> String {
    match c {
        Some(v) => format!("{v:+.1}%"),
        None => "?".into(),
    }
}

/// Builds the finished [`Regression`] of a draft.
pub fn finish(d: &Draft, msgs: &[LinkMessage], marks: &[Mark]) -> Regression {
    finish_with(d, msgs, marks, None)
}

/// [`finish`], taking each report's table facts from `facts` where given
/// (the messages' table rows may then be empty).
pub fn finish_with(
    d: &Draft,
    msgs: &[LinkMessage],
    marks: &[Mark],
    facts: Option<&FactsByIndex>,
) -> Regression {
    let fact = |idx: usize| facts.and_then(|f| f.get(&idx));
    let mut members: Vec<&super::attach::Member> =
        d.members.iter().filter(|m| m.idx < msgs.len()).collect();
    // Date order; ties by Message-ID, so arrival order never matters.
    members.sort_by(|a, b| {
        let (ma, mb) = (&msgs[a.idx], &msgs[b.idx]);
        (ma.date.unwrap_or(i64::MAX), &ma.message_id)
            .cmp(&(mb.date.unwrap_or(i64::MAX), &mb.message_id))
    });

    let infos: std::collections::HashMap<usize, ReportInfo> = members
        .iter()
        .filter(|m| m.role == "report")
        .map(|m| {
            let info = match fact(m.idx) {
                Some(f) => f.info.clone(),
                None => report_info(&msgs[m.idx]),
            };
            (m.idx, info)
        })
        .collect();
    let reports: Vec<ReportInfo> = members
        .iter()
        .filter_map(|m| infos.get(&m.idx).cloned())
        .collect();
    let perf: Vec<&ReportInfo> = reports
        .iter()
        .filter(|r| r.kind == Kind::PerfReport.as_str())
        .collect();
    // Reply-only regressions take their facts from the subject.
    let subject_facts = members
        .iter()
        .find_map(|m| msgs[m.idx].extraction.subject_report.clone());
    let direction = if perf.iter().any(|r| r.direction == "regression") {
        "regression"
    } else if !perf.is_empty() && perf.iter().all(|r| r.direction == "improvement") {
        "improvement"
    } else if perf.is_empty() {
        subject_facts
            .as_ref()
            .and_then(|s| s.direction)
            .unwrap_or(Direction::Undefined)
            .as_str()
    } else {
        "undefined"
    };
    let first_report_msg = members
        .iter()
        .find(|m| m.role == "report" && kind_of(&msgs[m.idx]) == Kind::PerfReport)
        .or_else(|| members.iter().find(|m| m.role == "report"))
        .map(|m| &msgs[m.idx]);
    let facts_src = first_report_msg
        .and_then(|m| m.extraction.subject_report.clone())
        .or(subject_facts.clone());
    let subsystem = facts_src
        .as_ref()
        .and_then(|s| s.subsystem.clone())
        .or_else(|| first_report_msg.and_then(|m| patch_subsystem(&m.subject)));
    let mut branches: Vec<String> = Vec::new();
    for r in &reports {
        if let Some(b) = &r.branch
            && !branches.contains(b)
        {
            branches.push(b.clone());
        }
    }
    let branch = facts_src
        .as_ref()
        .and_then(|s| s.branch.clone())
        .or_else(|| branches.first().cloned());

    // Headline: the first regression report (else the first report).
    let head_report = perf
        .iter()
        .find(|r| r.direction == "regression")
        .or_else(|| perf.first())
        .copied()
        .or_else(|| reports.first());
    let headline = match head_report {
        Some(r) => r.metric.clone().map(|metric| {
            let msg = members
                .iter()
                .find(|m| msgs[m.idx].message_id == r.message_id);
            let (commits, values, stddev) = match msg.and_then(|m| fact(m.idx)) {
                Some(f) if f.info.metric.as_deref() == Some(metric.as_str()) => f.headline.clone(),
                _ => msg.and_then(|m| headline_columns(&msgs[m.idx], &metric)),
            }
            .unwrap_or_default();
            Headline {
                metric,
                change_percent: r.change_percent,
                commits,
                values,
                stddev_percent: stddev,
            }
        }),
        None => subject_facts.as_ref().and_then(|s| {
            s.metric.clone().map(|metric| Headline {
                metric,
                change_percent: s.change_percent,
                ..Headline::default()
            })
        }),
    };

    // Timeline.
    let mut tl: Vec<TimelineEntry> = Vec::new();
    let mut facts = Facts::default();
    let mut tracked = false;
    let mut first_report_seen = false;
    let push =
        |tl: &mut Vec<TimelineEntry>, m: &LinkMessage, event: String, status: Option<Status>| {
            tl.push(TimelineEntry {
                date: iso(m.date),
                unix: m.date,
                from: who(m),
                event,
                status: status.map(|s| s.as_str().to_string()),
                message_id: Some(m.message_id.clone()),
            });
        };
    let mut fix_claimed_at: Option<i64> = None;
    for mem in &members {
        let m = &msgs[mem.idx];
        facts.last_unix = match (facts.last_unix, m.date) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        match mem.role {
            "report" => {
                let Some(r) = infos.get(&mem.idx) else {
                    continue;
                };
                let what = match (&r.metric, &r.failure) {
                    (Some(mt), _) => format!(
                        "{} {} {} of {}",
                        if first_report_seen {
                            "another report:"
                        } else {
                            "reported:"
                        },
                        fmt_change(r.change_percent),
                        r.direction,
                        mt
                    ),
                    (None, Some(f)) => format!("functional report: {f}"),
                    _ => "report".to_string(),
                };
                let what = match (&r.testcase, &r.branch) {
                    (Some(t), Some(b)) => format!("{what} ({t}, {b})"),
                    (Some(t), None) => format!("{what} ({t})"),
                    (None, Some(b)) => format!("{what} ({b})"),
                    _ => what,
                };
                let st = (!first_report_seen).then_some(Status::Reported);
                if facts.first_unix.is_none() {
                    facts.first_unix = m.date;
                }
                first_report_seen = true;
                push(&mut tl, m, what, st);
                for ev in m.extraction.events.iter().filter(|e| e.quote_depth == 0) {
                    if ev.kind == EventKind::StillRegression {
                        push(&mut tl, m, format!("robot: {}", ev.text.trim()), None);
                        if fix_claimed_at.is_some_and(|f| m.date.is_some_and(|d| d >= f)) {
                            facts.still_regression_after_fix = true;
                        }
                    }
                }
                continue;
            }
            "patch" | "revert" => {
                let kind = if mem.role == "revert" {
                    "revert posted"
                } else if kind_of(m) == Kind::Patch {
                    "patch posted"
                } else {
                    "debug patch posted"
                };
                push(
                    &mut tl,
                    m,
                    format!("{kind}: {} ({})", m.subject.trim(), mem.reason),
                    Some(Status::FixProposed),
                );
                if facts.first_patch_unix.is_none() {
                    facts.first_patch_unix = m.date;
                }
                if !is_robot(m) {
                    facts.human_replies += 1;
                    facts.last_human_unix = match (facts.last_human_unix, m.date) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        (a, b) => a.or(b),
                    };
                }
                fix_claimed_at = fix_claimed_at.or(m.date);
            }
            _ => {
                if is_robot(m) {
                    push(&mut tl, m, "robot follow-up".to_string(), None);
                } else {
                    facts.human_replies += 1;
                    facts.last_human_unix = match (facts.last_human_unix, m.date) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        (a, b) => a.or(b),
                    };
                    let what = if mem.role == "patch-reply" {
                        "replied to the patch"
                    } else {
                        "replied"
                    };
                    push(&mut tl, m, what.to_string(), Some(Status::Discussed));
                }
            }
        }
        if mem.role != "report" && !is_robot(m) && facts.first_unix.is_none() {
            // reply-only regression: the first reply starts the history
            facts.first_unix = m.date;
        }
        // A question ("could you test whether the patch fixes the regression?")
        // confirms nothing.
        let own_signals = m
            .extraction
            .signals
            .iter()
            .filter(|s| s.quote_depth == 0)
            .filter(|s| {
                !(s.kind == SignalKind::ConfirmsFix && s.sentence.trim_end().ends_with('?'))
            });
        for s in own_signals {
            let st = match s.kind {
                SignalKind::ConfirmsFix => Status::FixConfirmed,
                SignalKind::Declines => Status::Declined,
                _ => Status::Disputed,
            };
            if st == Status::FixConfirmed {
                fix_claimed_at = fix_claimed_at.or(m.date);
            }
            push(
                &mut tl,
                m,
                format!("{}: \"{}\"", s.kind.as_str(), s.sentence.trim()),
                Some(st),
            );
        }
        for t in own_trailers(m) {
            let said = m
                .extraction
                .signals
                .iter()
                .any(|s| s.quote_depth == 0 && s.sentence.contains(t.value.trim()));
            if t.key.eq_ignore_ascii_case("tested-by")
                && !said
                && (names_robot(&t.value) || t.value.to_ascii_lowercase().contains("@intel.com"))
            {
                fix_claimed_at = fix_claimed_at.or(m.date);
                push(
                    &mut tl,
                    m,
                    format!("Tested-by: {}", t.value.trim()),
                    Some(Status::FixConfirmed),
                );
            }
        }
        for ev in m.extraction.events.iter().filter(|e| e.quote_depth == 0) {
            match ev.kind {
                EventKind::Applied => {
                    fix_claimed_at = fix_claimed_at.or(m.date);
                    push(
                        &mut tl,
                        m,
                        format!("applied: \"{}\"", ev.text.trim()),
                        Some(Status::FixApplied),
                    );
                }
                EventKind::Regzbot => {
                    let cmd = regzbot::parse(&ev.text);
                    if cmd == regzbot::Command::Introduced {
                        tracked = true;
                    }
                    let st = match cmd {
                        regzbot::Command::SetStatus(s) => Some(s),
                        _ => None,
                    };
                    push(&mut tl, m, format!("regzbot: {}", ev.text.trim()), st);
                }
                EventKind::Syz => push(&mut tl, m, format!("syzbot: {}", ev.text.trim()), None),
                EventKind::StillRegression | EventKind::TestFailed => {
                    push(&mut tl, m, ev.text.trim().to_string(), None);
                    if ev.kind == EventKind::StillRegression && fix_claimed_at.is_some() {
                        facts.still_regression_after_fix = true;
                    }
                }
            }
        }
    }
    for &(rep, patch) in &d.fix_in_tree {
        let (Some(m), Some(p)) = (msgs.get(rep), msgs.get(patch)) else {
            continue;
        };
        let what = m
            .extraction
            .subject_report
            .as_ref()
            .map(|s| {
                format!(
                    "{} {}",
                    s.commit,
                    s.metric.clone().or(s.failure.clone()).unwrap_or_default()
                )
            })
            .unwrap_or_else(|| m.subject.clone());
        tl.push(TimelineEntry {
            date: iso(m.date),
            unix: m.date,
            from: who(m),
            event: format!(
                "the robot tested a tree with the fix \"{}\" ({})",
                p.subject.trim(),
                what.trim()
            ),
            status: Some(Status::FixApplied.as_str().to_string()),
            message_id: Some(m.message_id.clone()),
        });
    }
    // Marks on this culprit (any abbreviation, or an alias).
    let my_marks: Vec<&Mark> = marks
        .iter()
        .filter(|mk| {
            same_commit(&mk.culprit, &d.key)
                || d.aliases.iter().any(|a| same_commit(a, &mk.culprit))
        })
        .collect();
    for mk in &my_marks {
        tl.push(TimelineEntry {
            date: iso(Some(mk.at)),
            unix: Some(mk.at),
            from: Some(mk.author.clone()),
            event: match &mk.note {
                Some(n) if !n.is_empty() => format!("marked {}: {n}", mk.status),
                _ => format!("marked {}", mk.status),
            },
            status: Status::parse(&mk.status).map(|s| s.as_str().to_string()),
            message_id: None,
        });
    }
    tl.sort_by_key(|e| e.unix.unwrap_or(i64::MAX));

    // Status fold.
    let rank = |s: Status| match s {
        Status::Reported => 0,
        Status::Discussed => 1,
        Status::FixProposed => 2,
        Status::FixConfirmed => 3,
        Status::FixApplied => 4,
        _ => -1,
    };
    let mut progress: Option<Status> = None;
    let mut side: Option<Status> = None;
    let mut evidence: Vec<StatusEvidence> = Vec::new();
    let mut mark_status: Option<Status> = None;
    for e in &tl {
        let Some(st) = e.status.as_deref().and_then(Status::parse) else {
            continue;
        };
        let reason = match &e.from {
            Some(f) => format!("{} ({f})", e.event),
            None => e.event.clone(),
        };
        if e.message_id.is_none() {
            mark_status = Some(st);
            evidence.push(StatusEvidence {
                status: st.as_str().into(),
                message_id: None,
                reason,
            });
            continue;
        }
        match st {
            Status::Disputed | Status::Declined | Status::Improvement => {
                if side != Some(st) {
                    side = Some(st);
                    evidence.push(StatusEvidence {
                        status: st.as_str().into(),
                        message_id: e.message_id.clone(),
                        reason,
                    });
                }
            }
            _ => {
                if progress.is_none_or(|p| rank(st) > rank(p)) {
                    progress = Some(st);
                    evidence.push(StatusEvidence {
                        status: st.as_str().into(),
                        message_id: e.message_id.clone(),
                        reason,
                    });
                    if rank(st) >= 2 {
                        side = None;
                    }
                }
            }
        }
    }
    let progress_now = progress.unwrap_or(Status::Reported);
    let mut status = side.unwrap_or(progress_now);
    if side.is_none() && direction == "improvement" && rank(progress_now) <= 1 {
        status = Status::Improvement;
        evidence.push(StatusEvidence {
            status: status.as_str().into(),
            message_id: reports.first().map(|r| r.message_id.clone()),
            reason: "every report of this culprit is an improvement".into(),
        });
    }
    if let Some(ms) = mark_status {
        status = ms;
        facts.marked = true;
    }

    // Patches.
    let patches: Vec<PatchInfo> = members
        .iter()
        .filter(|m| m.role == "patch" || m.role == "revert")
        .map(|mem| {
            let m = &msgs[mem.idx];
            let related = |e: &TimelineEntry| {
                e.message_id.as_deref() == Some(m.message_id.as_str())
                    || members.iter().any(|o| {
                        Some(msgs[o.idx].message_id.as_str()) == e.message_id.as_deref()
                            && o.role == "patch-reply"
                            && o.reason.contains(m.message_id.as_str())
                    })
            };
            let in_tree = d.fix_in_tree.iter().any(|(_, p)| *p == mem.idx);
            let state = if in_tree
                || tl
                    .iter()
                    .any(|e| e.status.as_deref() == Some("fix-applied") && related(e))
            {
                "applied"
            } else if tl
                .iter()
                .any(|e| e.status.as_deref() == Some("fix-confirmed") && related(e))
            {
                "confirmed"
            } else {
                "proposed"
            };
            PatchInfo {
                message_id: m.message_id.clone(),
                subject: m.subject.clone(),
                from: who(m),
                date: iso(m.date),
                role: if mem.role == "revert" {
                    "revert".into()
                } else if kind_of(m) == Kind::Patch {
                    "patch".into()
                } else {
                    "debug-patch".into()
                },
                reason: mem.reason.clone(),
                state: state.into(),
                trailers: own_trailers(m)
                    .map(|t| TrailerKv {
                        key: t.key.clone(),
                        value: t.value.clone(),
                    })
                    .collect(),
            }
        })
        .collect();

    let regzbot_line =
        (!tracked && direction != "improvement").then(|| regzbot::introduced_line(&d.key));
    Regression {
        id: 0,
        culprit: CulpritInfo {
            commit: d.key.clone(),
            title: culprit_title(d, msgs),
            aliases: d.aliases.clone(),
            ambiguous_with: d.ambiguous_with.clone(),
        },
        subsystem,
        branch,
        branches,
        status: status.as_str().to_string(),
        status_evidence: evidence,
        direction: direction.to_string(),
        headline,
        reports,
        messages: members
            .iter()
            .map(|m| msgs[m.idx].message_id.clone())
            .collect(),
        attached: members
            .iter()
            .map(|m| Attachment {
                message_id: msgs[m.idx].message_id.clone(),
                role: m.role.to_string(),
                reason: m.reason.clone(),
            })
            .collect(),
        patches,
        timeline: tl,
        flags: Vec::new(),
        tracked,
        regzbot: regzbot_line,
        first_date: iso(facts.first_unix),
        last_date: iso(facts.last_unix),
        facts,
    }
}

/// A subsystem guessed from a patch subject (`Re: [PATCH v2] sched/fair: ...` -> `sched/fair`).
fn patch_subsystem(subject: &str) -> Option<String> {
    let s = super::thread::normalize_subject(subject);
    let (head, _) = s.split_once(": ")?;
    (head.len() <= 40 && !head.is_empty() && head.split_whitespace().count() <= 3)
        .then(|| head.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Change;

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
            eprintln!("note: REGTRACK_SHARED not set; shared corpus skipped");
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
