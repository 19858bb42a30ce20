//! mmtests `compare-kernels` tables (grammar: `grammar/evidence-mmtests.md`):
//! a header of kernel names, then rows `Hmean creat_clo-7 36458.33 (   0.00%)
//! 23836.55 * -34.62%* ...`, where `*...*` marks a significant change.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_till1},
    character::complete::{char, space0, space1},
    combinator::{map, opt, recognize},
    multi::many1,
    number::complete::recognize_float,
    sequence::{delimited, preceded, terminated},
};

use super::BodyView;
use crate::model::{Change, ChangeUnit, Table, TableFormat, TableRow};
use crate::text::Needles;

/// Parses every mmtests table in `body` (pure entry point for fuzzing and benches).
pub fn parse_mmtests(body: &str) -> Vec<Table> {
    tables_in(&BodyView::new(body))
}

/// One parsed mmtests row.
#[derive(Debug, Clone, PartialEq)]
pub struct MmRow<'a> {
    /// Statistic (`Hmean`, `Amean`, `Stddev`, `BAmean-99`, ...).
    pub stat: &'a str,
    /// Metric (`creat_clo-7`).
    pub metric: &'a str,
    /// `(value, change percent, significant)` per column.
    pub cells: Vec<(f64, f64, bool)>,
}

/// ```text
/// number := float | "nan" | "NaN" | "inf" | "-inf"
/// ```
pub fn number(i: &str) -> IResult<&str, f64> {
    alt((
        map(recognize_float, |s: &str| {
            s.parse::<f64>().unwrap_or(f64::NAN)
        }),
        map(alt((tag("nan"), tag("NaN"))), |_| f64::NAN),
    ))
    .parse(i)
}

/// ```text
/// change := "(" ws* number "%)"            ; not significant
///         | "*" ws* number "%*"            ; significant
/// ```
pub fn change(i: &str) -> IResult<&str, (f64, bool)> {
    alt((
        map(
            delimited((char('('), space0), number, (char('%'), char(')'))),
            |v| (v, false),
        ),
        map(
            delimited((char('*'), space0), number, (char('%'), char('*'))),
            |v| (v, true),
        ),
    ))
    .parse(i)
}

/// ```text
/// cell := ws+ number ws+ change
/// ```
pub fn cell(i: &str) -> IResult<&str, (f64, f64, bool)> {
    map(
        (preceded(space1, number), preceded(space1, change)),
        |(v, (c, s))| (v, c, s),
    )
    .parse(i)
}

/// ```text
/// row := ws* stat ws+ metric cell+ ws*
/// stat := alpha (alnum | "-")*
/// metric := non-space+
/// ```
pub fn row(i: &str) -> IResult<&str, MmRow<'_>> {
    let word = || take_till1(|c: char| c.is_whitespace());
    let (r, (stat, metric, cells)) = (
        preceded(
            space0,
            recognize((
                nom::character::complete::satisfy(|c| c.is_ascii_alphabetic()),
                opt(take_till1(|c: char| c.is_whitespace())),
            )),
        ),
        preceded(space1, word()),
        terminated(many1(cell), space0),
    )
        .parse(i)?;
    Ok((
        r,
        MmRow {
            stat,
            metric,
            cells,
        },
    ))
}

/// mmtests tables of a body's lines: runs of rows at one depth (blank lines
/// allowed between rows), with the nearest preceding non-blank line at that
/// depth as the header when it names as many kernels as there are columns.
pub fn tables_in(view: &BodyView<'_>) -> Vec<Table> {
    let lines = &view.lines;
    let mut out: Vec<Table> = Vec::new();
    // Every row has a `change` cell, ending in `%)` or `%*`: a body without
    // either has no table, and its lines are not read.
    static ENDS: std::sync::LazyLock<Needles> =
        std::sync::LazyLock::new(|| Needles::new(&["%)", "%*"]));
    if !ENDS.any_in(view.body) {
        return out;
    }
    let mut i = 0;
    while let Some(line) = lines.get(i) {
        if memchr::memchr(b'%', line.text.as_bytes()).is_none() {
            i += 1;
            continue;
        }
        let Ok(("", first)) = row(line.text) else {
            i += 1;
            continue;
        };
        let depth = line.depth;
        let ncols = first.cells.len();
        let header_line = lines
            .get(..i)
            .unwrap_or(&[])
            .iter()
            .rev()
            .find(|l| !l.text.trim().is_empty());
        // A header names the kernels: N words (N+1 with a leading label), none
        // ending like prose (`The results look like:` is no header).
        let commits: Vec<String> = header_line
            .filter(|l| l.depth == depth && row(l.text).is_err())
            .map(|l| l.text.split_whitespace().collect::<Vec<_>>())
            .filter(|w| {
                (w.len() == ncols || w.len() == ncols + 1)
                    && !w.iter().any(|x| x.ends_with([':', '.', ',', '?', '!']))
            })
            .map(|w| {
                w.iter()
                    .skip(w.len() - ncols)
                    .map(|s| s.to_string())
                    .collect()
            })
            .unwrap_or_default();
        let mut table = Table {
            format: TableFormat::Mmtests,
            quote_depth: depth,
            params: Vec::new(),
            commits,
            commit_titles: Vec::new(),
            rows: Vec::new(),
            skipped_rows: 0,
            omitted_rows: 0,
            offset: header_line
                .filter(|l| l.depth == depth)
                .map_or(line.offset, |l| l.offset),
        };
        let mut j = i;
        while let Some(l) = lines.get(j) {
            if l.text.trim().is_empty() {
                // A blank line continues the table only when a row follows.
                let next = lines
                    .get(j + 1..)
                    .unwrap_or(&[])
                    .iter()
                    .find(|n| !n.text.trim().is_empty());
                if next.is_some_and(|n| n.depth == depth && matches!(row(n.text), Ok(("", _)))) {
                    j += 1;
                    continue;
                }
                break;
            }
            if l.depth != depth {
                break;
            }
            match row(l.text) {
                Ok(("", r)) if r.cells.len() == ncols => {
                    table.push_row(TableRow {
                        metric: r.metric.to_string(),
                        stat: Some(r.stat.to_string()),
                        values: r
                            .cells
                            .iter()
                            .map(|c| Some(c.0).filter(|v| v.is_finite()))
                            .collect(),
                        changes: r
                            .cells
                            .iter()
                            .map(|c| {
                                Some(Change {
                                    value: Some(c.1).filter(|v| v.is_finite()),
                                    unit: ChangeUnit::Percent,
                                })
                            })
                            .collect(),
                        significant: r.cells.iter().map(|c| c.2).collect(),
                        ..TableRow::default()
                    });
                }
                Ok(("", _)) => table.skipped_rows += 1,
                _ => break,
            }
            j += 1;
        }
        out.push(table);
        i = j.max(i + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn change_reads_plain_and_significant_marks() {
        assert_eq!(change("(   0.00%) x"), Ok((" x", (0.0, false))));
        assert_eq!(change("* -34.62%*"), Ok(("", (-34.62, true))));
        assert!(change("( 1.0 )").is_err());
    }

    #[test]
    fn a_row_gives_stat_metric_and_cells_with_nothing_left() {
        let (rest, r) = row(
            "Hmean     creat_clo-7    36458.33 (   0.00%)    23836.55 * -34.62%*    37300.18 (   2.31%)",
        )
        .expect("parses");
        assert_eq!(rest, "");
        assert_eq!((r.stat, r.metric), ("Hmean", "creat_clo-7"));
        assert_eq!(
            r.cells,
            vec![
                (36458.33, 0.0, false),
                (23836.55, -34.62, true),
                (37300.18, 2.31, false)
            ]
        );
        assert!(row("Duration User 123.4 120.0").is_err());
    }

    #[test]
    fn a_table_takes_its_header_and_rows_and_counts_misfits() {
        let body = "                 orig     patched\n\
                    Hmean  a-1   10.00 (   0.00%)   12.00 *  20.00%*\n\n\
                    Amean  a-1   11.00 (   0.00%)   11.50 (   4.55%)\n\
                    Amean  a-2   11.00 (   0.00%)\n\
                    done\n";
        let t = parse_mmtests(body);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].commits, ["orig", "patched"]);
        assert_eq!(t[0].rows.len(), 2);
        assert_eq!(t[0].skipped_rows, 1);
        assert_eq!(t[0].rows[0].significant, [false, true]);
        assert_eq!(t[0].rows[1].stat.as_deref(), Some("Amean"));
        let prose =
            parse_mmtests("The results are:\nHmean  a-1   10.00 (   0.00%)   12.00 *  20.00%*\n");
        assert!(prose[0].commits.is_empty());
        let many = parse_mmtests(
            "we ran this on many kernels\nHmean  a-1   10.00 (   0.00%)   12.00 *  20.00%*\n",
        );
        assert!(many[0].commits.is_empty());
    }
}
