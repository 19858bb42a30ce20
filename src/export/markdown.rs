//! Markdown triage summary: open regressions first, grouped by subsystem.
//!
//! Every cell is text, whatever mail put in it: `&`, `<` and `>` are written
//! as entities (raw HTML shows as text), `|` and the characters of inline
//! Markdown (`\\`, `` ` ``, `*`, `~`, `[`, `]`, and `_` where it could
//! emphasise) are backslash-escaped, line breaks (CR, LF and the other
//! control characters) become spaces, so a cell never splits its row, and
//! the characters that reorder or hide text (bidi controls, zero-width and
//! tag characters) are shown as `U+XXXX`.

use std::io::Write;

use super::links::Links;
use super::{age_days, day, fix_summary, fmt_change, is_closed};
use crate::model::history::Regression;

/// Text as one Markdown table cell (or heading) that renders as the text.
pub fn cell(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 8);
    let mut prev: Option<char> = None;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '|' | '\\' | '`' | '*' | '~' | '[' | ']' => {
                o.push('\\');
                o.push(c);
            }
            // Inside a word (`files_per_sec`) `_` emphasises nothing.
            '_' if prev.is_some_and(char::is_alphanumeric)
                && chars.peek().copied().is_some_and(char::is_alphanumeric) =>
            {
                o.push('_')
            }
            '_' => o.push_str("\\_"),
            c if c.is_control() => o.push(' '),
            // A bidi override or isolate would reorder the rest of the row;
            // a zero-width or tag character would hide text in it.
            c if super::terminal::acts_or_hides(c) => o.push_str(&format!("U+{:04X}", c as u32)),
            c => o.push(c),
        }
        prev = Some(c);
    }
    o
}

/// A commit id as a code span when it is plain (hex, a tag), else as text.
fn code(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '/' | '+' | '_'))
    {
        format!("`{s}`")
    } else {
        cell(s)
    }
}

/// A link to `url` (a percent-encoded URL from [`Links`]); its parentheses
/// and spaces are percent-encoded too, so nothing in it ends the link.
fn link(text: &str, url: &str) -> String {
    if url.contains(['<', '>', '\n', '\r', '|']) {
        return text.to_string();
    }
    let url = url
        .replace('(', "%28")
        .replace(')', "%29")
        .replace(' ', "%20");
    format!("[{text}]({url})")
}

/// Writes the summary; `regs` must already be in triage order. The id links
/// to the first report on lore, the culprit to its commit.
pub fn write(
    out: &mut dyn Write,
    regs: &[Regression],
    now: i64,
    links: &Links,
) -> std::io::Result<()> {
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
            let short = code(crate::query::short(&r.culprit.commit));
            let culprit_ref = match links.culprit(r.scope, r.branch.as_deref(), &r.culprit) {
                Some(url) => link(&short, &url),
                None => short,
            };
            let id = match r.reports.first() {
                Some(rep) => link(&r.id.to_string(), &links.message(&rep.message_id)),
                None => r.id.to_string(),
            };
            let culprit = format!(
                "{} {}",
                culprit_ref,
                cell(r.culprit.title.as_deref().unwrap_or(""))
            );
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {}{} | {} |",
                id,
                age_days(r, now).map(|d| d.to_string()).unwrap_or_default(),
                cell(day(r.first_date.as_deref())),
                cell(r.status.as_str()),
                culprit.trim(),
                cell(
                    r.headline
                        .as_ref()
                        .map(|h| h.metric.as_str())
                        .unwrap_or("-")
                ),
                cell(&fmt_change(
                    r.headline.as_ref().and_then(|h| h.change_percent)
                )),
                cell(&fix),
                cell(&state),
                cell(&r.flags.join(", "))
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells of a table row: split at the `|` no backslash escapes.
    fn cells(row: &str) -> Vec<String> {
        let mut out = vec![String::new()];
        let mut escaped = false;
        for c in row.chars() {
            match c {
                '|' if !escaped => out.push(String::new()),
                c => out.last_mut().unwrap().push(c),
            }
            escaped = c == '\\' && !escaped;
        }
        out
    }

    #[test]
    fn bidi_overrides_in_a_cell_are_shown_not_obeyed() {
        assert_eq!(cell("fix\u{202e}txt.exe"), "fixU+202Etxt.exe");
        assert_eq!(cell("a\u{2066}b"), "aU+2066b");
        // Zero-width and tag characters show too (they hide text).
        assert_eq!(cell("a\u{200b}b\u{200d}c"), "aU+200BbU+200Dc");
        assert_eq!(cell("x\u{e0041}y\u{feff}"), "xU+E0041yU+FEFF");
    }

    #[test]
    fn mail_text_in_a_cell_renders_as_text_and_keeps_its_row() {
        let hostile = "<img src=x onerror=alert(1)> a|b\\|c &amp; [x](javascript:y) `z`\r| x\n## h _e_ files_per_sec";
        let mut r = Regression {
            id: 3,
            subsystem: Some("<b>sub</b>\r\n| x".into()),
            ..Regression::default()
        };
        r.culprit.commit = "5e1f2a3b4c5d6e7f".into();
        r.culprit.title = Some(hostile.into());
        r.flags = vec!["<script>".into()];
        let mut out = Vec::new();
        write(&mut out, &[r], 0, &crate::export::links::Links::default()).unwrap();
        let md = String::from_utf8(out).unwrap();
        assert!(!md.contains('<') && !md.contains('\r'), "{md}");
        let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| 3 |")).collect();
        assert_eq!(rows.len(), 1, "{md}");
        let row = cells(rows[0]);
        // Nine cells between the outer pipes.
        assert_eq!(row.len(), 11, "{row:?}");
        assert!(row[5].contains("`5e1f2a3b4c5d`"), "{}", row[5]);
        assert!(row[5].contains("&lt;img src=x onerror=alert(1)&gt; a\\|b\\\\\\|c &amp;amp; \\[x\\](javascript:y) \\`z\\`"), "{}", row[5]);
        assert!(row[5].contains("\\_e\\_ files_per_sec"), "{}", row[5]);
        assert!(md.contains("### &lt;b&gt;sub&lt;/b&gt;  \\| x\n"), "{md}");
        assert_eq!(cell("a\u{85}b\u{7}c"), "a b c");
    }
}
