//! `regtrack stats`: messages, threads, date range, per list, per kind, failures.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context as _;

use super::{Context, Format};

/// Arguments of `regtrack stats`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// How to print the counts: `text` or `json` (at least `{messages,
    /// failed}`) (`--json` is short for `--format json`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Short for `--format json`.
    #[arg(long, hide = true, conflicts_with = "format")]
    pub json: bool,
}

/// Runs `regtrack stats`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let store = super::open_reader(ctx)?;
    let s = crate::store::stats::stats(&store).context("reading counts")?;
    super::note_stale(ctx, &store);
    let mut out = std::io::stdout().lock();
    if args.format.asked(args.json) == Format::Json {
        crate::export::json::to_writer(&mut out, &s, false)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let day = |t: Option<i64>| {
        t.and_then(|t| chrono::DateTime::from_timestamp(t, 0))
            .map_or_else(|| "-".to_string(), |d| d.format("%Y-%m-%d").to_string())
    };
    writeln!(out, "messages     {}", s.messages)?;
    writeln!(out, "threads      {}", s.threads)?;
    writeln!(
        out,
        "dates        {} .. {}",
        day(s.first_date),
        day(s.last_date)
    )?;
    writeln!(out, "failed       {}", s.failed)?;
    writeln!(out, "duplicates   {}", s.duplicates)?;
    writeln!(out, "derived ids  {}", s.derived_ids)?;
    writeln!(out, "regressions  {}", s.regressions)?;
    counts(&mut out, "per status:", &s.statuses)?;
    counts(&mut out, "per list:", &s.lists)?;
    counts(&mut out, "per kind:", &s.kinds)?;
    if !s.sources.is_empty() {
        writeln!(out, "public-inbox epochs:")?;
        for src in &s.sources {
            writeln!(
                out,
                "  {}  {}",
                crate::export::terminal::line(src.last_commit.as_deref().unwrap_or("-")),
                crate::export::terminal::line(&src.source)
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One `per ...:` list of counts, its names escaped for the terminal
/// (a List-Id or a kind comes from mail); nothing when it is empty.
fn counts(
    out: &mut impl Write,
    title: &str,
    items: &[crate::store::stats::Count],
) -> std::io::Result<()> {
    if items.is_empty() {
        return Ok(());
    }
    writeln!(out, "{title}")?;
    for c in items {
        writeln!(
            out,
            "  {:>8}  {}",
            c.messages,
            crate::export::terminal::line(&c.name)
        )?;
    }
    Ok(())
}
