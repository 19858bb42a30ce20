//! `regtrack show`: every regression matching a subsystem, commit id or
//! prefix, metric or metric prefix, Message-ID or regression id.

use std::io::Write;
use std::process::ExitCode;

use super::Context;
use crate::export;

/// Arguments of `regtrack show`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Subsystem (`xfs`), commit id or prefix, metric or metric prefix
    /// (`stress-ng.xattr`), Message-ID, or regression id.
    pub query: String,
    /// Print JSON (a list of regressions; see docs/json.md).
    #[arg(long)]
    pub json: bool,
    /// Days without a human reply before a regression is flagged.
    #[arg(long, default_value_t = 14)]
    pub days: u32,
}

/// Runs `regtrack show`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let store = super::open_reader(ctx)?;
    let (_, mut regs) = crate::query::resolve(&store, &args.query)?;
    super::warn_undecodable(&store);
    let now = chrono::Utc::now().timestamp();
    for r in &mut regs {
        r.flags = crate::query::flags(r, now, args.days);
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        export::json::write(&mut out, &regs)?;
    } else if regs.is_empty() {
        if !ctx.quiet {
            eprintln!("regtrack: no regression matches '{}'", args.query);
        }
    } else {
        export::human::show(&mut out, &regs, ctx.color)?;
    }
    out.flush()?;
    Ok(if regs.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
