//! CSV: one row per regression, written by the `csv` crate (RFC 4180:
//! fields quoted when they hold a comma, quote or line break).
//!
//! Formula injection (OWASP's rule): a text cell that begins with `=`, `+`,
//! `-`, `@`, a tab or a carriage return is written with a single quote in
//! front, so that a spreadsheet takes it as text, not as a formula. Every
//! cell whose text comes from mail (subsystem, culprit, title, metric, fix
//! and its state, flags) is such a text cell, and so is the status and the
//! date. The numeric cells (`id`, `age_days`, `headline_change_percent`,
//! `reports`) are written as numbers and never prefixed: they are formatted
//! here from integers and floats, never taken from mail, so `-5.7` is the
//! number -5.7 to a spreadsheet (a formula needs more than a sign and
//! digits), and a quote in front would make it text that no longer sorts or
//! sums. Control characters in a text cell are escaped (`\x1b`), as on a
//! terminal.

use std::io::Write;

use super::{age_days, fix_summary};
use crate::model::history::Regression;

/// Column names, in order.
pub const HEADER: [&str; 16] = [
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
    "url",
    "culprit_url",
];

/// A text cell as written: control characters and invisible or reordering
/// ones escaped as the terminal output escapes them (a CSV file is read on
/// terminals too: `\x1b[2J` clears no screen), and a single quote in front
/// when a spreadsheet would read it as a formula.
pub fn text(s: &str) -> std::borrow::Cow<'_, str> {
    let s = super::terminal::line(s);
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        std::borrow::Cow::Owned(format!("'{s}"))
    } else {
        s
    }
}

/// Writes the header and one row per regression.
///
/// `url` is the first report's lore page, `culprit_url` the culprit commit's
/// page.
pub fn write(
    out: &mut dyn Write,
    regs: &[Regression],
    now: i64,
    links: &super::links::Links,
) -> std::io::Result<()> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(out);
    w.write_record(HEADER)?;
    for r in regs {
        let (fix, state) = fix_summary(r).unwrap_or_default();
        let row: [String; 16] = [
            r.id.to_string(),
            text(r.subsystem.as_deref().unwrap_or_default()).into_owned(),
            text(r.status.as_str()).into_owned(),
            age_days(r, now).map(|d| d.to_string()).unwrap_or_default(),
            text(r.first_date.as_deref().unwrap_or_default()).into_owned(),
            text(&r.culprit.commit).into_owned(),
            text(r.culprit.title.as_deref().unwrap_or_default()).into_owned(),
            text(r.direction.as_str()).into_owned(),
            text(r.headline.as_ref().map_or("", |h| h.metric.as_str())).into_owned(),
            r.headline
                .as_ref()
                .and_then(|h| h.change_percent)
                .map(|c| c.to_string())
                .unwrap_or_default(),
            text(&fix).into_owned(),
            text(&state).into_owned(),
            text(&r.flags.join(" ")).into_owned(),
            r.reports.len().to_string(),
            r.reports
                .first()
                .map(|rep| text(&links.message(&rep.message_id)).into_owned())
                .unwrap_or_default(),
            if r.culprit.commit.is_empty() {
                String::new()
            } else {
                links
                    .culprit(r.scope, r.branch.as_deref(), &r.culprit)
                    .map(|u| text(&u).into_owned())
                    .unwrap_or_default()
            },
        ];
        w.write_record(&row)?;
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_a_spreadsheet_would_compute_are_written_as_text() {
        let mut r = Regression {
            id: 7,
            subsystem: Some("=HYPERLINK(\"http://x\",\"y\")".into()),
            ..Regression::default()
        };
        r.culprit.commit = "+cmd|' /C calc'!A0".into();
        r.culprit.title = Some("-2+3".into());
        r.flags = vec!["@SUM(A1)".into()];
        r.headline = Some(crate::model::history::Headline {
            metric: "\tfsmark, \"files\"\nper\rsec\x1b]52;c;SGk=\x07".into(),
            change_percent: Some(-5.7),
            ..Default::default()
        });
        let mut out = Vec::new();
        write(&mut out, &[r], 0, &crate::export::links::Links::default()).unwrap();
        let mut rd = csv::Reader::from_reader(out.as_slice());
        let row = rd.records().next().unwrap().unwrap();
        assert_eq!(&row[0], "7");
        assert_eq!(&row[1], "'=HYPERLINK(\"http://x\",\"y\")");
        assert_eq!(&row[5], "'+cmd|' /C calc'!A0");
        assert_eq!(&row[6], "'-2+3");
        // Control characters escaped: no clipboard written on a terminal.
        assert_eq!(
            &row[8],
            "'\tfsmark, \"files\"\\x0aper\\x0dsec\\x1b]52;c;SGk=\\x07"
        );
        // A number stays a number, sign and all.
        assert_eq!(&row[9], "-5.7");
        assert_eq!(&row[12], "'@SUM(A1)");
        for cell in row.iter() {
            assert!(
                !cell.starts_with(['=', '+', '@', '\t', '\r'])
                    && (!cell.starts_with('-') || cell.parse::<f64>().is_ok()),
                "{cell:?}"
            );
        }
    }
}
