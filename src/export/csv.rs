//! CSV: one row per regression, RFC 4180 quoting.

use std::io::Write;

use super::{age_days, fix_summary};
use crate::model::history::Regression;

/// Column names, in order.
pub const HEADER: [&str; 14] = [
    "id",
    "subsystem",
    "status",
    "age_days",
    "first_date",
    "culprit",
    "title",
    "direction",
    "headline_metric",
    "headline_change_percent",
    "fix",
    "fix_state",
    "flags",
    "reports",
];

/// Quotes a field when it holds a comma, quote or line break.
pub fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Writes the header and one row per regression.
pub fn write(out: &mut dyn Write, regs: &[Regression], now: i64) -> std::io::Result<()> {
    writeln!(out, "{}", HEADER.join(","))?;
    for r in regs {
        let (fix, state) = fix_summary(r).unwrap_or_default();
        let row = [
            r.id.to_string(),
            r.subsystem.clone().unwrap_or_default(),
            r.status.as_str().to_string(),
            age_days(r, now).map(|d| d.to_string()).unwrap_or_default(),
            r.first_date.clone().unwrap_or_default(),
            r.culprit.commit.clone(),
            r.culprit.title.clone().unwrap_or_default(),
            r.direction.as_str().to_string(),
            r.headline
                .as_ref()
                .map(|h| h.metric.clone())
                .unwrap_or_default(),
            r.headline
                .as_ref()
                .and_then(|h| h.change_percent)
                .map(|c| c.to_string())
                .unwrap_or_default(),
            fix,
            state,
            r.flags.join(" "),
            r.reports.len().to_string(),
        ];
        let line: Vec<String> = row.iter().map(|s| field(s)).collect();
        writeln!(out, "{}", line.join(","))?;
    }
    Ok(())
}
