//! `regtrack export`: a triage summary as Markdown, JSON, CSV or a
//! self-contained HTML report; open regressions first, grouped by subsystem.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context as _;

use super::Context;
use super::list::FilterArgs;
use crate::export;
use crate::store::Store;

/// Export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Markdown.
    Md,
    /// JSON (see docs/json.md).
    Json,
    /// CSV.
    Csv,
    /// One self-contained HTML file.
    Html,
}

/// Arguments of `regtrack export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Md)]
    pub format: FormatArg,
    /// Write to this file instead of standard output.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Filters.
    #[command(flatten)]
    pub filter: FilterArgs,
}

/// Runs `regtrack export`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let filter = args.filter.filter()?;
    let store =
        Store::open(&ctx.db).with_context(|| format!("opening database '{}'", ctx.db.display()))?;
    let now = chrono::Utc::now().timestamp();
    let mut regs = crate::query::list(&store, &filter, now, args.filter.days)?;
    export::triage_order(&mut regs);
    let mut buf: Vec<u8> = Vec::new();
    match args.format {
        FormatArg::Md => export::markdown::write(&mut buf, &regs, now)?,
        FormatArg::Json => export::json::write(&mut buf, &regs)?,
        FormatArg::Csv => export::csv::write(&mut buf, &regs, now)?,
        FormatArg::Html => export::html::write(&mut buf, &regs, now)?,
    }
    match &args.out {
        Some(p) => {
            std::fs::write(p, &buf).with_context(|| format!("writing '{}'", p.display()))?;
            if !ctx.quiet {
                eprintln!(
                    "regtrack: wrote {} regressions to {}",
                    regs.len(),
                    p.display()
                );
            }
        }
        None => {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            out.write_all(&buf)?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
