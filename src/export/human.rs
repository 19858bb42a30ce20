//! Human-readable output of `show` and `list`; ANSI colours only when asked
//! (the CLI asks only when stdout is a terminal). Every text that comes from
//! mail goes through [`super::terminal`]: no control character or
//! bidirectional override reaches the terminal.

use std::io::Write;

use super::links::Links;
use super::terminal::line as safe;
use super::{day, fmt_change};
use crate::model::history::{PatchInfo, Regression, Status};

/// ANSI styling that is a no-op when colours are off.
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    /// Whether to emit escape sequences.
    pub on: bool,
}

/// How `show` writes: colours, OSC 8 hyperlinks, and the links.
#[derive(Debug, Clone, Copy)]
pub struct Style<'a> {
    /// ANSI colours.
    pub color: bool,
    /// OSC 8 hyperlinks (a terminal that supports them shows the text and
    /// opens the link); without them the link itself is printed.
    pub hyperlinks: bool,
    /// Where messages and commits link to.
    pub links: &'a Links,
    /// What to say of a report stored in several copies, by Message-ID
    /// (`2 copies; this one chosen because ...`).
    pub copy_notes: Option<&'a std::collections::HashMap<String, String>>,
}

impl Style<'_> {
    /// `text` linked to `url` as an OSC 8 hyperlink, or `text` alone when
    /// hyperlinks are off or the URL holds a character that could end the
    /// sequence (only printable ASCII goes into one).
    fn osc8(&self, url: &str, text: &str) -> String {
        if self.hyperlinks && url.bytes().all(|b| (0x21..0x7f).contains(&b)) {
            format!("\x1b]8;;{url}\x1b\\{text}\x1b]8;;\x1b\\")
        } else {
            text.to_string()
        }
    }

    /// A message: `<id>` linked to its lore page, or the page's URL.
    fn message(&self, msgid: &str) -> String {
        if msgid.trim().is_empty() {
            return "(no posting: found in a tree)".to_string();
        }
        let url = self.links.message(msgid);
        if self.hyperlinks {
            self.osc8(&url, &format!("<{}>", safe(msgid)))
        } else {
            safe(&url).into_owned()
        }
    }

    /// A commit id as `text`, hyperlinked to its page when hyperlinks are on.
    fn commit(&self, tree: Option<&str>, sha: &str, text: &str) -> String {
        self.osc8(&self.links.commit(tree, sha), text)
    }
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
    /// A status in its own colour ([`status_sgr`]); text that is no status
    /// name is painted as flags are.
    pub fn status(&self, s: &str) -> String {
        let code = Status::parse(s.trim()).map_or(FLAGS_SGR, status_sgr);
        self.wrap(code, s)
    }
    /// Triage flags (`no-human-reply-14d, patch-not-applied`), in a colour
    /// no status has.
    pub fn flags(&self, s: &str) -> String {
        self.wrap(FLAGS_SGR, s)
    }
}

/// The SGR colour of each status, one of its own (its row in [`Status`]
/// gives it): reds for no fix yet, yellows for a fix under way, greens for
/// a landed fix, others for the side states.
pub fn status_sgr(s: Status) -> &'static str {
    s.facts().colour
}

/// The SGR colour of triage flags (bright magenta: no status has it).
const FLAGS_SGR: &str = "95";

fn num(v: Option<f64>) -> String {
    match v {
        Some(x) if x.abs() >= 1000.0 || x == x.trunc() => format!("{x:.0}"),
        Some(x) => format!("{x:.2}"),
        None => "-".into(),
    }
}

/// Writes full histories (`show`): every message with its lore link, every
/// commit id with its page.
pub fn show(out: &mut dyn Write, regs: &[Regression], style: &Style) -> std::io::Result<()> {
    let p = Paint { on: style.color };
    for (n, r) in regs.iter().enumerate() {
        if n > 0 {
            writeln!(out)?;
        }
        let title = r.culprit.title.as_deref().unwrap_or("(title unknown)");
        let tree = r.branch.as_deref();
        writeln!(
            out,
            "{} {} {}",
            p.bold(&format!("#{}", r.id)),
            p.commit(&match style.links.culprit(r.scope, tree, &r.culprit) {
                Some(url) => style.osc8(&url, &safe(&r.culprit.commit)),
                None => safe(&r.culprit.commit).into_owned(),
            }),
            p.bold(&format!("(\"{}\")", safe(title)))
        )?;
        if !style.hyperlinks
            && let Some(url) = style.links.culprit(r.scope, tree, &r.culprit)
        {
            writeln!(out, "  commit: {}", safe(&url))?;
        }
        writeln!(
            out,
            "  subsystem: {}   tree: {}   scope: {}   direction: {}",
            safe(r.subsystem.as_deref().unwrap_or("-")),
            safe(&if r.branches.is_empty() {
                r.branch.clone().unwrap_or_else(|| "-".into())
            } else {
                r.branches.join(", ")
            }),
            r.scope,
            r.direction
        )?;
        if !r.culprit.aliases.is_empty() {
            writeln!(out, "  also named: {}", safe(&r.culprit.aliases.join(", ")))?;
        }
        if let Some(c) = &r.culprit.tree_commit {
            let released = match &r.culprit.release {
                Some(v) => format!(", first released in {v}"),
                None => String::new(),
            };
            writeln!(
                out,
                "  culprit in: {} (commit {}, committed {}{released})",
                safe(&r.culprit.trees.join(", ")),
                safe(c),
                day(r.culprit.committed.as_deref()),
            )?;
        }
        if let Some(f) = &r.fix {
            writeln!(out, "  fix: {}", safe(&super::fix_line(f)))?;
            if let Some(c) = &f.commit {
                let url = style.links.commit(f.trees.last().map(|t| t.as_str()), c);
                writeln!(out, "       {}", style.osc8(&url, &safe(&url)))?;
            }
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
            write!(out, " ({})", safe(&e.reason))?;
            if let Some(m) = &e.message_id {
                write!(out, " {}", p.dim(&style.message(m)))?;
            }
        }
        writeln!(out)?;
        for d in &r.doubts {
            writeln!(out, "    unsure, {}: {}", d.kind.as_str(), safe(&d.said))?;
            writeln!(out, "      settle it: {}", safe(&d.settle))?;
        }
        if !r.flags.is_empty() {
            writeln!(out, "  flags: {}", p.flags(&r.flags.join(", ")))?;
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
                safe(&what),
                p.dim(&style.message(&rep.message_id))
            )?;
            if let Some(note) = style.copy_notes.and_then(|n| n.get(&rep.message_id)) {
                writeln!(out, "             {}", p.dim(&safe(note)))?;
            }
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
                writeln!(out, "      {}", safe(&detail.join("; ")))?;
            }
            for i in &rep.also_impacts {
                writeln!(
                    out,
                    "      also: {} {} {}{}",
                    safe(i.metric.as_deref().unwrap_or("?")),
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
                    safe(&h.metric)
                )?;
            }
        }
        if !r.patches.is_empty() {
            writeln!(out, "  patches ({}):", r.patches.len())?;
            for pa in &r.patches {
                show_patch(out, &p, style, pa)?;
            }
        }
        writeln!(out, "  timeline:")?;
        for e in &r.timeline {
            let st = e
                .status
                .map(|s| format!(" [{}]", p.status(s.as_str())))
                .unwrap_or_default();
            let link = e
                .message_id
                .as_deref()
                .map(|m| format!("  {}", p.dim(&style.message(m))))
                .unwrap_or_default();
            writeln!(
                out,
                "    {}  {:<22} {}{}{}",
                day(e.date.as_deref()),
                safe(e.from.as_deref().unwrap_or("-")),
                safe(&e.event),
                st,
                link
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

/// One linked patch: its own title, state, postings and where it landed.
fn show_patch(
    out: &mut dyn Write,
    p: &Paint,
    style: &Style,
    pa: &PatchInfo,
) -> std::io::Result<()> {
    let title = if !pa.title.is_empty() {
        pa.title.trim()
    } else if !pa.subject.trim().is_empty() {
        pa.subject.trim()
    } else {
        // Known by its link alone (cited by the reply confirming it).
        "(a posting known by its link)"
    };
    let kind = match pa.role {
        crate::model::history::PatchRole::DebugPatch => " (inline draft)",
        crate::model::history::PatchRole::Revert => " (revert)",
        crate::model::history::PatchRole::Patch => "",
    };
    writeln!(
        out,
        "    {}  [{}] \"{}\"{kind}  {}  {}",
        day(pa.date.as_deref()),
        pa.state,
        safe(title),
        safe(pa.from.as_deref().unwrap_or("")),
        p.dim(&style.message(&pa.message_id))
    )?;
    if pa.versions.len() > 1 {
        writeln!(out, "      postings: {}", pa.versions.len())?;
    }
    writeln!(out, "      linked by: {}", safe(&pa.reason))?;
    if pa.title.is_empty() && pa.subject.trim().is_empty() {
        writeln!(
            out,
            "      not in the database; to read it: regtrack fetch {}",
            safe(&crate::link::doubt::shell_arg(&pa.message_id))
        )?;
    }
    for a in &pa.applied {
        let place = match (&a.branch, &a.tree) {
            (Some(b), Some(t)) => format!(" {b} of {t}"),
            (Some(b), None) => format!(" {b}"),
            (None, Some(t)) => format!(" {t}"),
            (None, None) => String::new(),
        };
        let tree = a.tree.as_deref().filter(|t| !t.contains('/'));
        let commit = a
            .commit
            .as_deref()
            .map(|c| {
                let short = safe(c.get(..12).unwrap_or(c)).into_owned();
                if style.hyperlinks {
                    format!(" as {}", p.commit(&style.commit(tree, c, &short)))
                } else {
                    format!(
                        " as {} {}",
                        p.commit(&short),
                        p.dim(&safe(&style.links.commit(tree, c)))
                    )
                }
            })
            .unwrap_or_default();
        writeln!(
            out,
            "      {}  {}{}{}",
            day(a.date.as_deref()),
            a.kind,
            safe(&place),
            commit
        )?;
    }
    for t in &pa.trailers {
        writeln!(out, "      {}: {}", safe(&t.key), safe(&t.value))?;
    }
    Ok(())
}

/// Writes one line per regression (`list`), columns aligned over the
/// whole list whatever the widths of ids and subsystems.
pub fn list(out: &mut dyn Write, regs: &[Regression], color: bool) -> std::io::Result<()> {
    let p = Paint { on: color };
    let id_w = regs
        .iter()
        .map(|r| r.id.to_string().len())
        .max()
        .unwrap_or(1);
    let sub_w = regs
        .iter()
        .map(|r| safe(r.subsystem.as_deref().unwrap_or("-")).chars().count())
        .max()
        .unwrap_or(1)
        .min(24);
    let st_w = regs
        .iter()
        .map(|r| r.status.as_str().len())
        .max()
        .unwrap_or(8);
    let commit_w = regs
        .iter()
        .map(|r| safe(crate::query::short(&r.culprit.commit)).chars().count())
        .max()
        .unwrap_or(12);
    for r in regs {
        let (metric, change) = r
            .headline
            .as_ref()
            .map(|h| (h.metric.as_str(), fmt_change(h.change_percent)))
            .unwrap_or(("-", String::new()));
        let status = format!("{:<st_w$}", r.status.as_str());
        let flags = if r.flags.is_empty() {
            String::new()
        } else {
            format!("  [{}]", r.flags.join(","))
        };
        let sub = safe(r.subsystem.as_deref().unwrap_or("-")).into_owned();
        writeln!(
            out,
            "{:>id_w$} {} {} {} {:<sub_w$} {} {} {}{}",
            r.id,
            day(r.first_date.as_deref()),
            p.status(&status),
            p.commit(&format!(
                "{:<commit_w$}",
                safe(crate::query::short(&r.culprit.commit))
            )),
            sub,
            safe(metric),
            change,
            r.direction,
            flags
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_a_colour_of_its_own() {
        let codes: Vec<&str> = Status::ALL.iter().map(|s| status_sgr(*s)).collect();
        for (i, c) in codes.iter().enumerate() {
            assert!(
                !codes[..i].contains(c) && *c != FLAGS_SGR,
                "{} shares SGR {c}",
                Status::ALL[i].as_str()
            );
        }
        let on = Paint { on: true };
        let off = Paint { on: false };
        for s in Status::ALL {
            let padded = format!("{:<16}", s.as_str());
            assert_eq!(
                on.status(&padded),
                format!("\x1b[{}m{padded}\x1b[0m", status_sgr(s))
            );
            assert_eq!(off.status(&padded), padded);
        }
        assert_eq!(on.flags("likely-noise"), "\x1b[95mlikely-noise\x1b[0m");
        assert_eq!(off.flags("likely-noise"), "likely-noise");
    }
}
