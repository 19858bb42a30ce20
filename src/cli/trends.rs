//! `regtrack trends`: how often the robot reported regressions, on which
//! benchmarks, how big, and what became of them, per month or release and
//! per subsystem, testcase and metric (see [`crate::query::trends`]).

use std::io::Write;
use std::process::ExitCode;

use super::Context;
use super::list::FilterArgs;
use crate::model::Direction;
use crate::query::trends::{By, Options, Per};

/// What a period is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ByArg {
    /// The month of each report (UTC).
    Month,
    /// The mainline release cycle that first holds the culprit (needs a
    /// followed tree: `regtrack trees`).
    Release,
}

/// How finely the rows split a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PerArg {
    /// One row per subsystem.
    Subsystem,
    /// Per subsystem and testcase.
    Testcase,
    /// Per subsystem, testcase and metric.
    Metric,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// An aligned table.
    Text,
    /// JSON (see docs/json.md).
    Json,
    /// CSV, one line per row.
    Csv,
}

/// Arguments of `regtrack trends`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The periods: the month of each report, or the release cycle of the
    /// culprit (`v6.9` holds `v6.9-rc3`; from the followed trees, `-` when
    /// none places it).
    #[arg(long, value_enum, default_value_t = ByArg::Month)]
    pub by: ByArg,
    /// The rows within a period.
    #[arg(long, value_enum, default_value_t = PerArg::Metric)]
    pub per: PerArg,
    /// How to print: `text`, an aligned table, `json` (see docs/json.md)
    /// or `csv` (`--json` is short for `--format json`).
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,
    /// Short for `--format json`.
    #[arg(long, hide = true, conflicts_with = "format")]
    pub json: bool,
    /// Filters (the histories counted pass them as in `list`).
    #[command(flatten)]
    pub filter: FilterArgs,
}

/// Runs `regtrack trends`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let filter = args.filter.filter()?;
    let opts = Options {
        by: match args.by {
            ByArg::Month => By::Month,
            ByArg::Release => By::Release,
        },
        per: match args.per {
            PerArg::Subsystem => Per::Subsystem,
            PerArg::Testcase => Per::Testcase,
            PerArg::Metric => Per::Metric,
        },
        direction: match filter.direction.as_deref() {
            Some("improvement") => Some(Direction::Improvement),
            Some(_) => Some(Direction::Regression),
            None => None,
        },
    };
    let store = super::open_reader(ctx)?;
    let now = chrono::Utc::now().timestamp();
    let regs = crate::query::list(&store, &filter, now, args.filter.days)?;
    super::warn_undecodable(&store);
    super::note_stale(ctx, &store);
    let rows = crate::query::trends::rows(&regs, &opts);
    let format = if args.json {
        FormatArg::Json
    } else {
        args.format
    };
    let mut out = std::io::BufWriter::new(super::stdout());
    use crate::export::trends as write;
    match format {
        FormatArg::Text => write::text(&mut out, &rows, opts.by, opts.per)?,
        FormatArg::Json => write::json(&mut out, &rows, opts.by, opts.per, opts.direction)?,
        FormatArg::Csv => write::csv(&mut out, &rows)?,
    }
    out.flush()?;
    // Nothing to count: exit 1, as every query command does, and a word on
    // stderr.
    Ok(if rows.is_empty() {
        if !ctx.quiet && !matches!(format, FormatArg::Json | FormatArg::Csv) {
            eprintln!("regtrack: no regression matches these filters");
        }
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
