//! stress-ng summary runs (grammar: `grammar/evidence-stressng.md`):
//! `stress-ng: metrc: [PID] stressor bogo ops real time ...` header, a units
//! line, then one line per stressor. Each run (PID) becomes one table.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_till1},
    character::complete::{char, digit1, space0, space1},
    combinator::rest,
    multi::many_m_n,
    sequence::{delimited, preceded},
};

use super::BodyView;
use super::mmtests::number;
use crate::model::{Table, TableFormat, TableRow};
use crate::text::Needles;

/// Parses every stress-ng run in `body` (pure entry point for fuzzing and benches).
pub fn parse_stress_ng(body: &str) -> Vec<Table> {
    tables_in(&BodyView::new(body))
}

/// ```text
/// metrc_line := ws* "stress-ng:" ws+ ("metrc:" | "info:") ws+ "[" digits "]" ws+ rest
/// ```
/// Returns the PID and the rest of the line.
pub fn metrc_line(i: &str) -> IResult<&str, (&str, &str)> {
    let (r, (_, _, _, _, pid, _, rest)) = (
        space0,
        tag("stress-ng:"),
        space1,
        alt((tag("metrc:"), tag("info:"))),
        delimited(preceded(space1, char('[')), digit1, char(']')),
        space1,
        rest,
    )
        .parse(i)?;
    Ok((r, (pid, rest)))
}

/// One stressor's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct StressorRow<'a> {
    /// Stressor name.
    pub stressor: &'a str,
    /// bogo ops, real, usr, sys, ops/s real, ops/s usr+sys.
    pub figures: [f64; 6],
}

/// ```text
/// stressor_row := name (ws+ number){6} (ws+ number)* ws*
/// ```
/// Newer stress-ng prints further columns (CPU used, RSS max); they are ignored.
pub fn stressor_row(i: &str) -> IResult<&str, StressorRow<'_>> {
    let (r, (name, nums, _)) = (
        take_till1(|c: char| c.is_whitespace()),
        many_m_n(6, 12, preceded(space1, number)),
        space0,
    )
        .parse(i)?;
    if name.starts_with('(') || name.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        )));
    }
    let mut figures = [0.0; 6];
    for (f, n) in figures.iter_mut().zip(nums) {
        *f = n;
    }
    Ok((
        r,
        StressorRow {
            stressor: name,
            figures,
        },
    ))
}

/// stress-ng tables of a body's lines, one per run (PID and depth).
pub fn tables_in(view: &BodyView<'_>) -> Vec<Table> {
    let mut out: Vec<Table> = Vec::new();
    // Every run is made of `metrc_line`s: a body without the tag has none.
    static TAG: std::sync::LazyLock<Needles> =
        std::sync::LazyLock::new(|| Needles::new(&["stress-ng:"]));
    if !TAG.any_in(view.body) {
        return out;
    }
    // Index into `out` of the open run, with its pid and depth.
    let mut open: Option<(usize, String, u32)> = None;
    for line in &view.lines {
        let Ok((_, (pid, rest))) = metrc_line(line.text) else {
            if !line.text.trim().is_empty() {
                open = None;
            }
            continue;
        };
        let same = open
            .as_ref()
            .is_some_and(|(_, p, d)| p == pid && *d == line.depth);
        if !same {
            out.push(Table {
                format: TableFormat::StressNg,
                quote_depth: line.depth,
                params: Vec::new(),
                commits: vec![pid.to_string()],
                commit_titles: Vec::new(),
                rows: Vec::new(),
                skipped_rows: 0,
                omitted_rows: 0,
                offset: line.offset,
            });
            open = Some((out.len() - 1, pid.to_string(), line.depth));
        }
        let Some((ix, _, _)) = open.as_ref() else {
            continue;
        };
        let Some(table) = out.get_mut(*ix) else {
            continue;
        };
        let r = rest.trim_start();
        if r.starts_with("stressor") || r.starts_with('(') || r.is_empty() {
            continue;
        }
        match stressor_row(r) {
            Ok(("", s)) => {
                let [ops, real, usr, sys, ps_real, ps_cpu] = s.figures;
                table.push_row(TableRow {
                    metric: s.stressor.to_string(),
                    bogo_ops: Some(ops),
                    real_time: Some(real),
                    usr_time: Some(usr),
                    sys_time: Some(sys),
                    bogo_ops_per_sec_real: Some(ps_real),
                    bogo_ops_per_sec_cpu: Some(ps_cpu),
                    ..TableRow::default()
                });
            }
            _ => {
                // Other info lines (`dispatching hogs`, `successful run completed`)
                // belong to the run but are no stressor rows.
                if r.split_whitespace().count() >= 6 && r.contains(|c: char| c.is_ascii_digit()) {
                    table.skipped_rows += 1;
                }
            }
        }
    }
    out.retain(|t| !t.rows.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrc_line_gives_pid_and_rest() {
        assert_eq!(
            metrc_line("stress-ng: metrc: [4148] msg  1 2"),
            Ok(("", ("4148", "msg  1 2")))
        );
        assert!(metrc_line("stress-ng: fail: [1] x").is_err());
    }

    #[test]
    fn a_stressor_row_gives_six_figures() {
        let (rest, r) = stressor_row(
            "msg           1626997107     60.61    171.63   4003.65  26845470.19      389673.05",
        )
        .expect("parses");
        assert_eq!(rest, "");
        assert_eq!(r.stressor, "msg");
        assert_eq!(
            r.figures,
            [1626997107.0, 60.61, 171.63, 4003.65, 26845470.19, 389673.05]
        );
        assert!(stressor_row("msg 1 2 3").is_err());
    }

    #[test]
    fn each_run_is_one_table_at_its_depth() {
        let body = "> stress-ng: metrc: [1] stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo ops/s\n\
                    > stress-ng: metrc: [1]                           (secs)    (secs)    (secs)   (real time) (usr+sys time)\n\
                    > stress-ng: metrc: [1] msg  100 1.0 0.5 0.5 100.0 100.0\n\
                    >\n> and\n>\n\
                    > stress-ng: metrc: [2] msg  80 1.0 0.5 0.5 80.0 80.0 12.5 1024\n";
        let t = parse_stress_ng(body);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].commits, ["1"]);
        assert_eq!(t[0].quote_depth, 1);
        assert_eq!(t[1].rows[0].bogo_ops, Some(80.0));
        assert_eq!(t[1].rows[0].bogo_ops_per_sec_cpu, Some(80.0));
    }
}
