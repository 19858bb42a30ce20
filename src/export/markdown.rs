//! Markdown triage summary: open regressions first, grouped by subsystem.

use std::io::Write;

use super::{age_days, day, fix_summary, fmt_change, is_closed};
use crate::model::history::Regression;

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// Writes the summary; `regs` must already be in triage order.
pub fn write(out: &mut dyn Write, regs: &[Regression], now: i64) -> std::io::Result<()> {
    writeln!(out, "# Performance regression triage")?;
    writeln!(out)?;
    let open = regs.iter().filter(|r| !is_closed(r)).count();
    writeln!(
        out,
        "{} regressions: {} open, {} closed (fix applied, declined or improvement).",
        regs.len(),
        open,
        regs.len() - open
    )?;
    for (closed, title) in [(false, "Open"), (true, "Closed")] {
        let part: Vec<&Regression> = regs.iter().filter(|r| is_closed(r) == closed).collect();
        if part.is_empty() {
            continue;
        }
        writeln!(out)?;
        writeln!(out, "## {title}")?;
        let mut current: Option<String> = None;
        for r in part {
            let sub = r.subsystem.clone().unwrap_or_else(|| "(none)".into());
            if current.as_deref() != Some(sub.as_str()) {
                writeln!(out)?;
                writeln!(out, "### {}", cell(&sub))?;
                writeln!(out)?;
                writeln!(
                    out,
                    "| id | age (days) | first report | status | culprit | metric | change | fix | flags |"
                )?;
                writeln!(out, "|---|---|---|---|---|---|---|---|---|")?;
                current = Some(sub);
            }
            let (fix, state) = fix_summary(r)
                .map(|(s, st)| (s, format!(" ({st})")))
                .unwrap_or_default();
            let culprit = format!(
                "`{}` {}",
                crate::query::short(&r.culprit.commit),
                r.culprit.title.as_deref().unwrap_or("")
            );
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {}{} | {} |",
                r.id,
                age_days(r, now).map(|d| d.to_string()).unwrap_or_default(),
                day(r.first_date.as_deref()),
                r.status,
                cell(culprit.trim()),
                cell(
                    r.headline
                        .as_ref()
                        .map(|h| h.metric.as_str())
                        .unwrap_or("-")
                ),
                fmt_change(r.headline.as_ref().and_then(|h| h.change_percent)),
                cell(&fix),
                state,
                r.flags.join(", ")
            )?;
        }
    }
    Ok(())
}
