//! Writes regression histories and triage summaries: human text (colours only
//! on a terminal), JSON, CSV, Markdown and a self-contained HTML report. Every
//! writer takes `out: &mut dyn Write`; nothing here touches the store.

pub mod csv;
pub mod html;
pub mod human;
pub mod json;
pub mod markdown;
pub mod terminal;

use crate::model::history::{PatchState, Regression};

/// Output formats of `export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Markdown triage summary.
    Markdown,
    /// JSON list of regressions (the public interface).
    Json,
    /// CSV, one row per regression.
    Csv,
    /// Self-contained HTML report.
    Html,
}

/// True when nobody needs to act on the regression.
pub fn is_closed(r: &Regression) -> bool {
    r.status.is_closed()
}

/// Triage order: open regressions first, then by subsystem, then newest first.
pub fn triage_order(v: &mut [Regression]) {
    v.sort_by(|a, b| {
        let ka = (
            is_closed(a),
            a.subsystem.clone().unwrap_or_default().to_lowercase(),
        );
        let kb = (
            is_closed(b),
            b.subsystem.clone().unwrap_or_default().to_lowercase(),
        );
        ka.cmp(&kb).then_with(|| {
            b.facts
                .first_unix
                .unwrap_or(i64::MIN)
                .cmp(&a.facts.first_unix.unwrap_or(i64::MIN))
        })
    });
}

/// Age in whole days of the first report, relative to `now`.
pub fn age_days(r: &Regression, now: i64) -> Option<i64> {
    r.facts.first_unix.map(|t| (now - t).max(0) / 86_400)
}

/// The first linked fix and its state (`subject (state)`), if any.
pub fn fix_summary(r: &Regression) -> Option<(String, String)> {
    r.patches
        .iter()
        .find(|p| p.state == PatchState::Applied)
        .or_else(|| r.patches.first())
        .map(|p| (p.subject.clone(), p.state.as_str().to_string()))
}

pub use crate::model::history::fmt_change;

/// `YYYY-MM-DD` of an ISO date string.
pub fn day(iso: Option<&str>) -> &str {
    iso.and_then(|s| s.get(..10)).unwrap_or("????-??-??")
}
