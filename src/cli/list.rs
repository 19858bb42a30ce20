//! `regtrack list`: one line per regression, newest first, with filters.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context as _;

use super::Context;
use crate::model::history::Status;
use crate::query::{Filter, parse_date};

/// Filters shared by `list` and `export`.
#[derive(Debug, Clone, clap::Args)]
pub struct FilterArgs {
    /// Only this status (reported, discussed, fix-proposed, fix-confirmed,
    /// fix-applied, disputed, declined, improvement).
    #[arg(long)]
    pub status: Option<String>,
    /// Only this subsystem (or a component of it: `mm` matches `mm, oom`).
    #[arg(long)]
    pub subsystem: Option<String>,
    /// First report on or after this date (YYYY-MM-DD).
    #[arg(long)]
    pub since: Option<String>,
    /// First report before this date (YYYY-MM-DD).
    #[arg(long)]
    pub until: Option<String>,
    /// Only regressions or only improvements.
    #[arg(long, value_parser = ["regression", "improvement"])]
    pub direction: Option<String>,
    /// Only where the headline change is at least this many percent (either sign).
    #[arg(long)]
    pub min_change: Option<f64>,
    /// Days without a human reply before a regression is flagged.
    #[arg(long, default_value_t = 14)]
    pub days: u32,
}

impl FilterArgs {
    /// The checked filter.
    pub fn filter(&self) -> anyhow::Result<Filter> {
        let status = match &self.status {
            Some(s) => Some(Status::parse(s).with_context(|| {
                format!(
                    "unknown status '{s}' (one of: {})",
                    Status::ALL.map(|s| s.as_str()).join(", ")
                )
            })?),
            None => None,
        };
        Ok(Filter {
            status,
            subsystem: self.subsystem.clone(),
            since: self.since.as_deref().map(parse_date).transpose()?,
            until: self.until.as_deref().map(parse_date).transpose()?,
            direction: self.direction.clone(),
            min_change: self.min_change,
        })
    }
}

/// Arguments of `regtrack list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Filters.
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Print JSON (a list of regressions; see docs/json.md).
    #[arg(long)]
    pub json: bool,
}

/// Runs `regtrack list`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let filter = args.filter.filter()?;
    let store = super::open_reader(ctx)?;
    let now = chrono::Utc::now().timestamp();
    let regs = crate::query::list(&store, &filter, now, args.filter.days)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        crate::export::json::write(&mut out, &regs)?;
    } else {
        crate::export::human::list(&mut out, &regs, ctx.color)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
