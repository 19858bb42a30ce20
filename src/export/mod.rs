//! Writes regression histories and triage summaries: human text (colours only
//! on a terminal), JSON, CSV, Markdown and a self-contained HTML report. Every
//! writer takes `out: &mut dyn Write`; nothing here touches the store.

pub mod csv;
pub mod html;
pub mod human;
pub mod json;
pub mod links;
pub mod markdown;
pub mod mbox;
pub mod report;
pub mod terminal;
pub mod trends;

use crate::model::history::{FixInfo, PatchState, Regression};

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

/// The fix and what became of it (`title`, `applied to xfs for-next
/// 2023-06-05`), if the history has one.
pub fn fix_summary(r: &Regression) -> Option<(String, String)> {
    let f = r.fix.as_ref()?;
    Some((f.name(), fix_state(r, f)))
}

/// What became of a fix, as the exports say it: `merged 2024-02-18`,
/// `applied to for-next of xfs-linux 2023-06-05`, `confirmed`, `proposed`.
pub fn fix_state(r: &Regression, f: &FixInfo) -> String {
    let patch = r.patches.iter().find(|p| p.message_id == f.message_id);
    let last = patch.and_then(|p| p.applied.iter().rev().find(|a| a.kind != "dropped"));
    let when = last
        .and_then(|a| a.date.as_deref())
        .map(|d| format!(" {}", day(Some(d))))
        .unwrap_or_default();
    match f.state {
        PatchState::Merged => format!(
            "merged{when}{}",
            f.release
                .as_ref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default()
        ),
        PatchState::Applied => match f.trees.last() {
            Some(t) => format!("applied to {t}{when}"),
            None => format!("applied{when}"),
        },
        s => s.as_str().to_string(),
    }
}

/// The fix in one line: `"title" applied to for-next 2023-06-05 (commit 4b1c2e9d0a7f)`.
pub fn fix_line(f: &FixInfo) -> String {
    let name = if f.title.is_empty() {
        f.name()
    } else {
        format!("\"{}\"", f.title)
    };
    let mut s = format!("{name} {}", f.state);
    if let Some(t) = f.trees.last() {
        s.push_str(&format!(" in {t}"));
    }
    if let Some(c) = &f.commit {
        s.push_str(&format!(" (commit {})", c.get(..12).unwrap_or(c)));
    }
    if let Some(r) = &f.release {
        s.push_str(&format!(", released in {r}"));
    }
    s
}

pub use crate::model::history::fmt_change;

/// `YYYY-MM-DD` of an ISO date string.
pub fn day(iso: Option<&str>) -> &str {
    iso.and_then(|s| s.get(..10)).unwrap_or("????-??-??")
}
