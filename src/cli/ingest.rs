//! `regtrack ingest`: reads mail into the database ([`crate::pipeline::update`],
//! shown by [`super::update`]), prints a summary line (or `--json`) and a
//! failures table.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::{Context, Format};
use crate::pipeline::ingest::Summary;

/// How many failures the table shows.
const SHOWN_FAILURES: usize = 20;

/// Arguments of `regtrack ingest`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Inputs: mbox (or .mbox.gz), Maildir, folder of .eml, single message,
    /// public-inbox folder or epoch git repo, rendered text; `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// How to print the summary: `text`, one line, or `json`, `{new,
    /// known, duplicates, failed, unchanged, bytes, seconds, ...}` on
    /// stdout (`--json` is short for `--format json`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Short for `--format json`.
    #[arg(long, hide = true, conflicts_with = "format")]
    pub json: bool,
    /// Print where the time went (writing, index building, linking) on stderr.
    #[arg(long)]
    pub timings: bool,
    /// Read every input from its start, even a file unchanged since it was
    /// read and an epoch's commits read before (messages stored before
    /// schema v14 then get their raw form stored, for `mail --raw`).
    #[arg(long)]
    pub reread: bool,
}

/// Runs `regtrack ingest`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    if args.paths.iter().filter(|p| p.as_os_str() == "-").count() > 1 {
        anyhow::bail!("`-` (standard input) is named more than once: it can be read once");
    }
    let (mut store, _writing) = super::open_writer(ctx)?;
    let summary =
        super::update::ingest_paths(ctx, &mut store, &args.paths, args.timings, args.reread)?;
    let mut err = std::io::stderr().lock();
    for note in &summary.input_errors {
        let reason = crate::export::terminal::line(&note.reason);
        if note.reason.contains(&note.place) {
            writeln!(err, "regtrack: error: {reason}")?;
        } else {
            writeln!(
                err,
                "regtrack: error: '{}': {reason}",
                crate::export::terminal::line(&note.place)
            )?;
        }
    }
    if !ctx.quiet && !summary.failures.is_empty() {
        print_failures(&mut err, &summary)?;
    }
    if args.format.asked(args.json) == Format::Json {
        let mut out = super::stdout();
        crate::export::json::to_writer(&mut out, &summary, false)?;
        writeln!(out)?;
    } else {
        super::update::print_summary(ctx, &store, &summary)?;
    }
    // Nothing could be read: no message stored or known, and something
    // failed (a file that is not mail, a folder without any).
    let stored = summary.new + summary.known + summary.duplicates;
    let nothing_read = stored == 0 && (summary.failed > 0 || !summary.input_errors.is_empty());
    Ok(if summary.trees_failed {
        ExitCode::from(2)
    } else if nothing_read {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn print_failures(out: &mut impl Write, s: &Summary) -> std::io::Result<()> {
    writeln!(out, "failed messages ({}):", s.failed)?;
    let width = s
        .failures
        .iter()
        .take(SHOWN_FAILURES)
        .map(|f| f.place.chars().count())
        .max()
        .unwrap_or(0)
        .min(60);
    for f in s.failures.iter().take(SHOWN_FAILURES) {
        writeln!(
            out,
            "  {:<width$}  {}",
            crate::export::terminal::line(&f.place),
            crate::export::terminal::line(&f.reason)
        )?;
    }
    if s.failed as usize > SHOWN_FAILURES {
        writeln!(
            out,
            "  ... and {} more (all are in the failures table)",
            s.failed as usize - SHOWN_FAILURES
        )?;
    }
    Ok(())
}
