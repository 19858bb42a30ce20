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
    let mut out = super::stdout();
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
    let statuses: Vec<(&str, i64)> = s
        .statuses
        .iter()
        .map(|c| (c.name.as_str(), c.regressions))
        .collect();
    counts(&mut out, "regressions per status:", &statuses)?;
    fn per(items: &[crate::store::stats::Count]) -> Vec<(&str, i64)> {
        items
            .iter()
            .map(|c| (c.name.as_str(), c.messages))
            .collect()
    }
    counts(&mut out, "messages per list:", &per(&s.lists))?;
    counts(&mut out, "messages per kind:", &per(&s.kinds))?;
    let (files, epochs): (Vec<_>, Vec<_>) = s
        .sources
        .iter()
        .partition(|src| src.kind == crate::store::sources::FILE_KIND);
    if !epochs.is_empty() {
        writeln!(out, "public-inbox epochs (last commit read):")?;
        for src in &epochs {
            writeln!(
                out,
                "  {}  {}",
                crate::export::terminal::line(src.last_commit.as_deref().unwrap_or("-")),
                crate::export::terminal::line(&src.source)
            )?;
        }
    }
    if !files.is_empty() {
        writeln!(out, "files read to their end (skipped while unchanged):")?;
        for src in &files {
            writeln!(out, "  {}", crate::export::terminal::line(&src.source))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One `... per ...:` list of counts, its names escaped for the terminal
/// (a List-Id or a kind comes from mail); nothing when it is empty.
fn counts(out: &mut impl Write, title: &str, items: &[(&str, i64)]) -> std::io::Result<()> {
    if items.is_empty() {
        return Ok(());
    }
    writeln!(out, "{title}")?;
    for (name, n) in items {
        writeln!(out, "  {n:>8}  {}", crate::export::terminal::line(name))?;
    }
    Ok(())
}
