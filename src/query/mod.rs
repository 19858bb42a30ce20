//! Resolves user queries (subsystem, commit, metric, Message-ID, regression id)
//! into regression histories read from the store, filters them for `list` and
//! `export`, and computes the triage flags relative to the current date.

pub mod trends;

use crate::error::{Error, Result};
use crate::link::culprit::{canonical_form, is_hex_id, same_commit};
use crate::model::Direction;
use crate::model::history::{Regression, Scope, Status, StatusConfidence, Wait};
use crate::store::Store;
use crate::store::history;

/// What a query string was understood as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryKind {
    /// A regression id.
    Id,
    /// A Message-ID.
    MessageId,
    /// A commit id or prefix.
    Commit,
    /// A subsystem.
    Subsystem,
    /// A metric or metric prefix.
    Metric,
}

/// Finds every regression matching `q`; returns what `q` was taken for.
///
/// Order of interpretation: a Message-ID (contains `@`; a lore URL is
/// read as its Message-ID), a regression id (1-6 digits, `#` before them
/// allowed), a commit id or prefix (7-40 hex), a subsystem (exact, then a
/// component such as `mm` of `mm, oom`), a metric or metric prefix.
pub fn resolve(store: &Store, q: &str) -> Result<(QueryKind, Vec<Regression>)> {
    let q = q.trim();
    if q.is_empty() {
        return Err(Error::Query("empty query".into()));
    }
    // What regtrack prints is taken back: a history's `#12`, a lore URL.
    let from_url = crate::mail::msgid::from_argument(q);
    let q = q
        .strip_prefix('#')
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .unwrap_or(&from_url);
    if q.contains('@') {
        return Ok((QueryKind::MessageId, history::by_message(store, q)?));
    }
    if q.len() <= 6
        && q.bytes().all(|b| b.is_ascii_digit())
        && let Ok(id) = q.parse::<i64>()
    {
        let v = history::by_id(store, id)?;
        if !v.is_empty() {
            return Ok((QueryKind::Id, v));
        }
    }
    if is_hex_id(q) {
        let c = canonical_form(q);
        let mut v = history::by_culprit_prefix(store, &c)?;
        if v.is_empty() {
            // An alias longer than the stored key (ambiguous culprit), or an
            // abbreviation known only as an alias.
            v = history::all(store)?
                .into_iter()
                .filter(|r| {
                    same_commit(&r.culprit.commit, &c)
                        || r.culprit.aliases.iter().any(|a| same_commit(a, &c))
                })
                .collect();
        }
        if !v.is_empty() {
            return Ok((QueryKind::Commit, v));
        }
    }
    let v = history::by_subsystem(store, q)?;
    if !v.is_empty() {
        return Ok((QueryKind::Subsystem, v));
    }
    let ql = q.to_lowercase();
    let comps: Vec<String> = history::subsystems(store)?
        .into_iter()
        .filter(|s| {
            s.to_lowercase()
                .split([',', '/', ' '])
                .any(|part| part.trim() == ql)
        })
        .collect();
    if !comps.is_empty() {
        let mut v = Vec::new();
        for s in comps {
            v.extend(history::by_subsystem(store, &s)?);
        }
        sort_newest_first(&mut v);
        v.dedup_by_key(|r| r.id);
        return Ok((QueryKind::Subsystem, v));
    }
    Ok((QueryKind::Metric, history::by_metric_prefix(store, q)?))
}

/// Sorts newest first report first.
pub fn sort_newest_first(v: &mut [Regression]) {
    v.sort_by(|a, b| {
        (b.facts.first_unix.unwrap_or(i64::MIN), b.id)
            .cmp(&(a.facts.first_unix.unwrap_or(i64::MIN), a.id))
    });
}

/// Filters of `list`, `export`, `report` and `follow`.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only these statuses (any when empty).
    pub statuses: Vec<Status>,
    /// Only these scopes (any when empty).
    pub scopes: Vec<Scope>,
    /// Only regressions with a message seen on this list (List-ID, or a
    /// part of it: `linux-xfs` matches `<linux-xfs.vger.kernel.org>`).
    pub list: Option<String>,
    /// Only open regressions with nothing new for more than this many days.
    pub stale_days: Option<u32>,
    /// Only those whose fix is in this release or an earlier one (`v6.9-rc3`).
    pub fixed_in: Option<String>,
    /// Only this subsystem (exact, case-insensitive, or a component of it).
    pub subsystem: Option<String>,
    /// First report on or after (Unix seconds).
    pub since: Option<i64>,
    /// First report before (Unix seconds).
    pub until: Option<i64>,
    /// `regression` or `improvement`.
    pub direction: Option<String>,
    /// A positive value: |headline change| at least this many percent; a
    /// negative one: the headline change (as printed) at most this.
    pub min_change: Option<f64>,
    /// Only histories whose status is `unsure`.
    pub unsure: bool,
    /// Now (Unix seconds), for `stale_days`.
    pub now: i64,
}

/// The status groups `--status` takes besides the status names: `open`
/// (every status that is not closed), `landed` (a fix landed: `fix-applied`
/// or `fixed`) and `closed`. No group is named as a status, so a status
/// name always means that status alone (`fixed` is not `landed`).
pub const STATUS_GROUPS: [&str; 3] = ["open", "landed", "closed"];

/// The statuses of a group of [`STATUS_GROUPS`], by the facts of each
/// status ([`crate::model::history::StatusFacts`]), in display order.
pub fn status_group(name: &str) -> Option<Vec<Status>> {
    let member: fn(Status) -> bool = match name.trim().to_ascii_lowercase().as_str() {
        "open" => |s| !s.is_closed(),
        "landed" => Status::is_fixed,
        "closed" => Status::is_closed,
        _ => return None,
    };
    Some(Status::ALL.into_iter().filter(|&s| member(s)).collect())
}

impl Filter {
    /// True when `r` passes.
    pub fn matches(&self, r: &Regression) -> bool {
        if !self.statuses.is_empty() && !self.statuses.contains(&r.status) {
            return false;
        }
        if self.unsure && r.status_confidence != StatusConfidence::Unsure {
            return false;
        }
        if !self.scopes.is_empty() && !self.scopes.contains(&r.scope) {
            return false;
        }
        if let Some(days) = self.stale_days {
            let quiet = r
                .facts
                .last_unix
                .is_some_and(|t| self.now - t > i64::from(days) * 86_400);
            if r.status.is_closed() || !quiet {
                return false;
            }
        }
        if let Some(rel) = &self.fixed_in {
            let in_it = r
                .fix
                .as_ref()
                .and_then(|f| f.release.as_deref())
                .is_some_and(|have| crate::trees::release_at_most(have, rel));
            if !in_it {
                return false;
            }
        }
        if let Some(sub) = &self.subsystem {
            let have = r.subsystem.as_deref().unwrap_or("").to_lowercase();
            let want = sub.to_lowercase();
            if have != want && !have.split([',', '/', ' ']).any(|p| p.trim() == want) {
                return false;
            }
        }
        let first = r.facts.first_unix;
        if let Some(s) = self.since
            && first.is_none_or(|f| f < s)
        {
            return false;
        }
        if let Some(u) = self.until
            && first.is_none_or(|f| f >= u)
        {
            return false;
        }
        if let Some(d) = &self.direction
            && !r.direction.as_str().eq_ignore_ascii_case(d)
        {
            return false;
        }
        if let Some(min) = self.min_change {
            let c = r.headline.as_ref().and_then(|h| h.change_percent);
            let ok = if min < 0.0 {
                c.is_some_and(|c| c <= min)
            } else {
                c.is_some_and(|c| c.abs() >= min)
            };
            if !ok {
                return false;
            }
        }
        true
    }
}

/// Parses `YYYY-MM-DD` (or `YYYY-MM`, `YYYY`) as the start of that day, UTC.
pub fn parse_date(s: &str) -> Result<i64> {
    let s = s.trim();
    let full = match s.len() {
        4 => format!("{s}-01-01"),
        7 => format!("{s}-01"),
        _ => s.to_string(),
    };
    chrono::NaiveDate::parse_from_str(&full, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|dt| dt.and_utc().timestamp())
        .ok_or_else(|| Error::Query(format!("not a date (YYYY-MM-DD): '{s}'")))
}

/// Every regression passing `filter`, newest first, with flags.
pub fn list(store: &Store, filter: &Filter, now: i64, days: u32) -> Result<Vec<Regression>> {
    // The indexed columns narrow the rows first; the rest is checked on the histories.
    let status = match filter.statuses.as_slice() {
        [one] => Some(one.as_str()),
        _ => None,
    };
    let mut v: Vec<Regression> = history::filtered(
        store,
        status,
        filter.since,
        filter.until,
        filter.direction.as_deref(),
        filter.min_change.filter(|m| *m >= 0.0),
        filter.list.as_deref(),
    )?
    .into_iter()
    .filter(|r| filter.matches(r))
    .collect();
    sort_newest_first(&mut v);
    for r in &mut v {
        r.flags = flags(r, now, days);
    }
    Ok(v)
}

/// Triage flags of a regression, relative to `now`, with `days` as the patience.
///
/// - `no-human-reply`: only the robot spoke, for more than `days` days;
/// - `acknowledged-no-patch`: a person replied but no patch was linked after `days` days;
/// - `patch-not-applied`: a patch was posted more than `days` days ago and never applied;
/// - `still-regression-after-fix`: a robot `still regression` line came after a fix was claimed;
/// - `likely-noise`: a report's change does not exceed its stddev and nothing moved with it;
/// - `ambiguous-culprit`: the culprit id is a prefix of several commits;
/// - `unsure`: the status rests on weak or conflicting evidence (its
///   `doubts` say what would settle it).
///
/// The flags that ask someone to act (`no-human-reply`,
/// `acknowledged-no-patch`, `patch-not-applied`) are only raised for scopes
/// that reach a real tree: a patch under review or a developer's branch is
/// its author's business.
pub fn flags(r: &Regression, now: i64, days: u32) -> Vec<String> {
    let mut f = Vec::new();
    let limit = i64::from(days) * 86_400;
    let status = r.status;
    let open =
        !status.is_closed() && r.direction != Direction::Improvement && r.scope.reaches_a_tree();
    let old = |t: Option<i64>| t.is_some_and(|t| now - t > limit);
    if open && r.facts.human_replies == 0 && old(r.facts.first_unix) {
        f.push(format!("no-human-reply-{days}d"));
    }
    let waits_for = status.facts().waits_for;
    if open && waits_for == Some(Wait::Patch) && old(r.facts.first_unix) {
        f.push("acknowledged-no-patch".into());
    }
    if open && waits_for == Some(Wait::Landing) && old(r.facts.first_patch_unix) {
        f.push("patch-not-applied".into());
    }
    if r.facts.still_regression_after_fix {
        f.push("still-regression-after-fix".into());
    }
    if r.reports.iter().any(|x| {
        x.direction == Direction::Regression
            && x.confidence.as_ref().is_some_and(|c| c.likely_noise)
    }) {
        f.push("likely-noise".into());
    }
    if !r.culprit.ambiguous_with.is_empty() {
        f.push("ambiguous-culprit".into());
    }
    if r.status_confidence == StatusConfidence::Unsure {
        f.push("unsure".into());
    }
    f
}

/// What to add to "no regression matches" for query `q`: a hint when it
/// reads like a commit prefix too short to be one (empty otherwise).
pub fn no_match_hint(q: &str) -> &'static str {
    let q = q.trim();
    let short_hex = !q.is_empty()
        && q.len() < crate::link::culprit::MIN_ABBREV
        && q.bytes().all(|b| b.is_ascii_hexdigit())
        && !q.bytes().all(|b| b.is_ascii_digit());
    if short_hex {
        " (a commit prefix needs 7 hex digits or more)"
    } else {
        ""
    }
}

/// Resolves a `mark` target to exactly one regression.
pub fn resolve_one(store: &Store, q: &str) -> Result<Regression> {
    let (_, v) = resolve(store, q)?;
    match v.len() {
        0 => Err(Error::Query(format!(
            "no regression matches '{q}'{}",
            no_match_hint(q)
        ))),
        1 => Ok(v.into_iter().next().expect("one element")),
        n => Err(Error::Query(format!(
            "'{q}' matches {n} regressions ({}); name one by id or culprit",
            v.iter()
                .map(|r| format!("#{} {}", r.id, short(&r.culprit.commit)))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The 12-character abbreviation of a commit id.
pub fn short(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}
