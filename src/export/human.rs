//! Human-readable output of `show` and `list`; ANSI colours only when asked
//! (the CLI asks only when stdout is a terminal).

use std::io::Write;

use super::{day, fmt_change};
use crate::model::history::Regression;

/// ANSI styling that is a no-op when colours are off.
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    /// Whether to emit escape sequences.
    pub on: bool,
}

impl Paint {
    fn wrap(&self, code: &str, s: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    /// Bold.
    pub fn bold(&self, s: &str) -> String {
        self.wrap("1", s)
    }
    /// Dim.
    pub fn dim(&self, s: &str) -> String {
        self.wrap("2", s)
    }
    /// Yellow (commit ids).
    pub fn commit(&self, s: &str) -> String {
        self.wrap("33", s)
    }
    /// A status in its colour: red open, yellow fix under way, green closed.
    pub fn status(&self, s: &str) -> String {
        let code = match s {
            "reported" | "discussed" => "31",
            "fix-proposed" | "fix-confirmed" => "33",
            "fix-applied" | "improvement" => "32",
            _ => "35",
        };
        self.wrap(code, s)
    }
}

fn num(v: Option<f64>) -> String {
    match v {
        Some(x) if x.abs() >= 1000.0 || x == x.trunc() => format!("{x:.0}"),
        Some(x) => format!("{x:.2}"),
        None => "-".into(),
    }
}

/// Writes full histories (`show`).
pub fn show(out: &mut dyn Write, regs: &[Regression], color: bool) -> std::io::Result<()> {
    let p = Paint { on: color };
    for (n, r) in regs.iter().enumerate() {
        if n > 0 {
            writeln!(out)?;
        }
        let title = r.culprit.title.as_deref().unwrap_or("(title unknown)");
        writeln!(
            out,
            "{} {} {}",
            p.bold(&format!("#{}", r.id)),
            p.commit(&r.culprit.commit),
            p.bold(&format!("(\"{title}\")"))
        )?;
        writeln!(
            out,
            "  subsystem: {}   tree: {}   direction: {}",
            r.subsystem.as_deref().unwrap_or("-"),
            if r.branches.is_empty() {
                r.branch.clone().unwrap_or_else(|| "-".into())
            } else {
                r.branches.join(", ")
            },
            r.direction
        )?;
        if !r.culprit.aliases.is_empty() {
            writeln!(out, "  also named: {}", r.culprit.aliases.join(", "))?;
        }
        if !r.culprit.ambiguous_with.is_empty() {
            writeln!(
                out,
                "  ambiguous: {} is a prefix of {}",
                r.culprit.commit,
                r.culprit.ambiguous_with.join(", ")
            )?;
        }
        let why = r
            .status_evidence
            .iter()
            .rev()
            .find(|e| e.status == r.status)
            .or(r.status_evidence.last());
        write!(out, "  status: {}", p.status(r.status.as_str()))?;
        if let Some(e) = why {
            write!(out, " ({})", e.reason)?;
            if let Some(m) = &e.message_id {
                write!(out, " {}", p.dim(&format!("<{m}>")))?;
            }
        }
        writeln!(out)?;
        if !r.flags.is_empty() {
            writeln!(out, "  flags: {}", p.status(&r.flags.join(", ")))?;
        }
        writeln!(out, "  reports ({}):", r.reports.len())?;
        for rep in &r.reports {
            let what = match (&rep.metric, &rep.failure) {
                (Some(m), _) => {
                    format!("{} {} {}", m, fmt_change(rep.change_percent), rep.direction)
                }
                (None, Some(f)) => format!("failure {f}"),
                _ => rep.subject.clone(),
            };
            writeln!(
                out,
                "    {}  {}  {}",
                day(rep.date.as_deref()),
                what,
                p.dim(&format!("<{}>", rep.message_id))
            )?;
            let mut detail = Vec::new();
            if let Some(t) = &rep.testcase {
                detail.push(format!("test {t}"));
            }
            if let Some(m) = &rep.test_machine {
                detail.push(format!("on {m}"));
            }
            if let Some(b) = &rep.branch {
                detail.push(b.clone());
            }
            if let Some(c) = &rep.confidence {
                detail.push(format!(
                    "confidence {} (change {} vs stddev {:.0}%, {} co-moving{})",
                    c.level,
                    fmt_change(c.change_percent),
                    c.stddev_percent,
                    c.co_moving,
                    if c.likely_noise { ", likely noise" } else { "" }
                ));
            }
            if !detail.is_empty() {
                writeln!(out, "      {}", detail.join("; "))?;
            }
            for i in &rep.also_impacts {
                writeln!(
                    out,
                    "      also: {} {} {}{}",
                    i.metric.as_deref().unwrap_or("?"),
                    fmt_change(i.change_percent),
                    i.direction,
                    i.testcase
                        .as_deref()
                        .map(|t| format!(" ({t})"))
                        .unwrap_or_default()
                )?;
            }
            for h in &rep.headline_rows {
                let sd: Vec<String> = h
                    .stddev_percent
                    .iter()
                    .map(|s| s.map(|v| format!("±{v:.0}%")).unwrap_or_default())
                    .collect();
                let ch = match (h.change, h.unit.as_str()) {
                    (Some(c), "abs") => format!("{c:+.1}"),
                    (c, _) => fmt_change(c),
                };
                writeln!(
                    out,
                    "      {:>12} {:<5} {:>8} {:>12} {:<5}  {}",
                    num(h.base),
                    sd.first().cloned().unwrap_or_default(),
                    ch,
                    num(h.value),
                    sd.get(1).cloned().unwrap_or_default(),
                    h.metric
                )?;
            }
        }
        if !r.patches.is_empty() {
            writeln!(out, "  patches ({}):", r.patches.len())?;
            for pa in &r.patches {
                writeln!(
                    out,
                    "    {}  [{}] {}  {}  {}",
                    day(pa.date.as_deref()),
                    pa.state,
                    pa.subject.trim(),
                    pa.from.as_deref().unwrap_or(""),
                    p.dim(&format!("<{}>", pa.message_id))
                )?;
                writeln!(out, "      linked by: {}", pa.reason)?;
                for t in &pa.trailers {
                    writeln!(out, "      {}: {}", t.key, t.value)?;
                }
            }
        }
        writeln!(out, "  timeline:")?;
        for e in &r.timeline {
            let st = e
                .status
                .map(|s| format!(" [{}]", p.status(s.as_str())))
                .unwrap_or_default();
            writeln!(
                out,
                "    {}  {:<22} {}{}",
                day(e.date.as_deref()),
                e.from.as_deref().unwrap_or("-"),
                e.event,
                st
            )?;
        }
        writeln!(out, "  messages: {}", r.messages.len())?;
        if let Some(l) = &r.regzbot {
            writeln!(out, "  untracked by regzbot; to track it, reply with:")?;
            writeln!(out, "    {l}")?;
        }
    }
    Ok(())
}

/// Writes one line per regression (`list`).
pub fn list(out: &mut dyn Write, regs: &[Regression], color: bool) -> std::io::Result<()> {
    let p = Paint { on: color };
    for r in regs {
        let (metric, change) = r
            .headline
            .as_ref()
            .map(|h| (h.metric.as_str(), fmt_change(h.change_percent)))
            .unwrap_or(("-", String::new()));
        let status = format!("{:<13}", r.status);
        let flags = if r.flags.is_empty() {
            String::new()
        } else {
            format!("  [{}]", r.flags.join(","))
        };
        writeln!(
            out,
            "{:>4} {} {} {} {:<14} {} {} {}{}",
            r.id,
            day(r.first_date.as_deref()),
            p.status(&status),
            p.commit(crate::query::short(&r.culprit.commit)),
            r.subsystem.as_deref().unwrap_or("-"),
            metric,
            change,
            r.direction,
            flags
        )?;
    }
    Ok(())
}
