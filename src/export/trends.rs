//! The trends of `regtrack trends` ([`crate::query::trends`]) as a text
//! table, JSON or CSV. Text from mail (subsystems, testcases, metrics) goes
//! through [`super::terminal::line`] in the table and through
//! [`super::csv::text`] in CSV; JSON keeps it exact.

use std::io::Write;

use serde::Serialize;

use super::terminal::line as safe;
use crate::model::Direction;
use crate::query::trends::{By, Per, Row};

/// What the rows answer, as JSON says it beside them.
#[derive(Debug, Clone, Copy, Serialize)]
struct Asked {
    by: By,
    per: Per,
    /// `regression`, `improvement`, or `null` for every report but the
    /// improvements.
    direction: Option<&'static str>,
}

/// The JSON document: what was asked and the rows.
#[derive(Serialize)]
struct Document<'a> {
    #[serde(flatten)]
    asked: Asked,
    rows: &'a [Row],
}

fn asked(by: By, per: Per, direction: Option<Direction>) -> Asked {
    Asked {
        by,
        per,
        direction: direction.map(Direction::as_str),
    }
}

/// Writes `{"by": ..., "per": ..., "direction": ..., "rows": [...]}`,
/// pretty-printed (see docs/json.md).
pub fn json(
    out: &mut dyn Write,
    rows: &[Row],
    by: By,
    per: Per,
    direction: Option<Direction>,
) -> std::io::Result<()> {
    let doc = Document {
        asked: asked(by, per, direction),
        rows,
    };
    super::json::to_writer(&mut *out, &doc, true)?;
    writeln!(out)
}

/// CSV column names, in order.
pub const HEADER: [&str; 19] = [
    "period",
    "subsystem",
    "testcase",
    "metric",
    "reports",
    "histories",
    "median_abs_change_percent",
    "worst_change_percent",
    "fixed",
    "declined",
    "open",
    "fixed_percent",
    "declined_percent",
    "open_percent",
    "median_days_to_reply",
    "replied",
    "median_days_to_fix",
    "fixes_timed",
    "ids",
];

fn num(v: Option<f64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// Writes the header and one line per row; an unknown period, testcase or
/// metric is an empty cell, `ids` the history ids separated by spaces.
pub fn csv(out: &mut dyn Write, rows: &[Row]) -> std::io::Result<()> {
    let text = |s: Option<&str>| super::csv::text(s.unwrap_or_default()).into_owned();
    let mut w = ::csv::WriterBuilder::new()
        .terminator(::csv::Terminator::Any(b'\n'))
        .from_writer(out);
    w.write_record(HEADER)?;
    for r in rows {
        let cells: [String; 19] = [
            text(r.period.as_deref()),
            text(Some(&r.subsystem)),
            text(r.testcase.as_deref()),
            text(r.metric.as_deref()),
            r.reports.to_string(),
            r.histories.to_string(),
            num(r.median_abs_change_percent),
            num(r.worst_change_percent),
            r.fixed.to_string(),
            r.declined.to_string(),
            r.open.to_string(),
            r.fixed_percent.to_string(),
            r.declined_percent.to_string(),
            r.open_percent.to_string(),
            num(r.median_days_to_reply),
            r.replied.to_string(),
            num(r.median_days_to_fix),
            r.fixes_timed.to_string(),
            r.ids
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(" "),
        ];
        w.write_record(&cells)?;
    }
    w.flush()?;
    Ok(())
}

/// A size of change: `8.0%`, or `-`.
fn size(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.1}%")).unwrap_or_else(|| "-".into())
}

/// Days: `3.5`, or `-`.
fn days(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.1}")).unwrap_or_else(|| "-".into())
}

/// Writes the table: a header line, then one line per row, columns
/// aligned; `median` is the median size of the changes, `worst` the
/// largest change signed, `reply` and `fix` the median days from the first
/// report to the first reply by a person and to the fix landing. No rows,
/// nothing written.
pub fn text(out: &mut dyn Write, rows: &[Row], by: By, per: Per) -> std::io::Result<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let mut lines: Vec<Vec<String>> = Vec::with_capacity(rows.len() + 1);
    let mut head: Vec<String> = vec![by.as_str().into(), "subsystem".into()];
    if per >= Per::Testcase {
        head.push("testcase".into());
    }
    if per >= Per::Metric {
        head.push("metric".into());
    }
    let left = head.len();
    for h in [
        "reports",
        "histories",
        "median",
        "worst",
        "fixed",
        "declined",
        "open",
        "reply(d)",
        "fix(d)",
    ] {
        head.push(h.into());
    }
    lines.push(head);
    for r in rows {
        let mut l: Vec<String> = vec![
            safe(r.period.as_deref().unwrap_or("-")).into_owned(),
            safe(&r.subsystem).into_owned(),
        ];
        if per >= Per::Testcase {
            l.push(safe(r.testcase.as_deref().unwrap_or("-")).into_owned());
        }
        if per >= Per::Metric {
            l.push(safe(r.metric.as_deref().unwrap_or("-")).into_owned());
        }
        l.extend([
            r.reports.to_string(),
            r.histories.to_string(),
            size(r.median_abs_change_percent),
            super::fmt_change(r.worst_change_percent),
            format!("{:.0}%", r.fixed_percent),
            format!("{:.0}%", r.declined_percent),
            format!("{:.0}%", r.open_percent),
            days(r.median_days_to_reply),
            days(r.median_days_to_fix),
        ]);
        lines.push(l);
    }
    let cols = lines[0].len();
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            lines
                .iter()
                .map(|l| l[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for l in &lines {
        let mut s = String::new();
        for (c, cell) in l.iter().enumerate() {
            let pad = widths[c].saturating_sub(cell.chars().count());
            if c > 0 {
                s.push_str("  ");
            }
            if c < left {
                s.push_str(cell);
                if c + 1 < cols {
                    s.extend(std::iter::repeat_n(' ', pad));
                }
            } else {
                s.extend(std::iter::repeat_n(' ', pad));
                s.push_str(cell);
            }
        }
        writeln!(out, "{}", s.trim_end())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> Row {
        Row {
            period: Some("2024-03".into()),
            subsystem: "ext4\x1b]0;owned\x07".into(),
            testcase: Some("=cmd|' /C calc'!A0".into()),
            metric: Some("fsmark.files_per_sec\u{202e}".into()),
            reports: 3,
            histories: 2,
            ids: vec![4, 9],
            median_abs_change_percent: Some(8.0),
            worst_change_percent: Some(-12.3),
            fixed: 1,
            declined: 0,
            open: 1,
            fixed_percent: 50.0,
            declined_percent: 0.0,
            open_percent: 50.0,
            median_days_to_reply: Some(1.5),
            replied: 2,
            median_days_to_fix: None,
            fixes_timed: 0,
        }
    }

    #[test]
    fn the_table_escapes_mail_text_and_aligns_columns() {
        let mut out = Vec::new();
        text(&mut out, &[row()], By::Month, Per::Metric).unwrap();
        let s = String::from_utf8(out).unwrap();
        assert!(!s.contains('\x1b') && !s.contains('\x07') && !s.contains('\u{202e}'));
        assert!(s.contains("ext4\\x1b]0;owned\\x07"), "{s}");
        let lines: Vec<&str> = s.lines().collect();
        assert!(lines[0].starts_with("month    subsystem"), "{s}");
        assert!(lines[0].ends_with("reply(d)  fix(d)"), "{s}");
        assert!(lines[1].contains("  8.0%  -12.3%    50%"), "{s}");
        assert!(lines[1].ends_with("1.5       -"), "{s}");
        assert_eq!(lines[0].len(), lines[1].chars().count(), "{s}");
    }

    #[test]
    fn csv_cells_from_mail_are_text_and_numbers_stay_numbers() {
        let mut out = Vec::new();
        csv(&mut out, &[row()]).unwrap();
        let mut rd = ::csv::Reader::from_reader(out.as_slice());
        assert_eq!(rd.headers().unwrap().len(), HEADER.len());
        let r = rd.records().next().unwrap().unwrap();
        assert_eq!(&r[2], "'=cmd|' /C calc'!A0");
        assert_eq!(&r[7], "-12.3");
        assert_eq!(&r[16], "");
        assert_eq!(&r[18], "4 9");
    }

    #[test]
    fn json_says_what_was_asked() {
        let mut out = Vec::new();
        json(&mut out, &[row()], By::Release, Per::Metric, None).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["by"], "release");
        assert_eq!(v["per"], "metric");
        assert!(v["direction"].is_null());
        assert_eq!(v["rows"][0]["subsystem"], "ext4\x1b]0;owned\x07");
        assert_eq!(v["rows"][0]["median_days_to_fix"], serde_json::Value::Null);
    }
}
