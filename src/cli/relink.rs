//! `regtrack relink`: brings threads and regressions up to date (what
//! `ingest` does after storing), or with `--full` computes them all from
//! scratch: the reference an update is measured and checked against.

use std::process::ExitCode;

use anyhow::Context as _;

use super::Context;

/// Arguments of `regtrack relink`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Link every message from scratch, whatever was linked before.
    #[arg(long)]
    pub full: bool,
    /// With --full: link N messages at a time, each step an update of the
    /// ones before, so memory is bounded by a step (by default steps of
    /// 150,000 messages past 600,000).
    #[arg(long, value_name = "N", requires = "full", value_parser = clap::value_parser!(u64).range(1..))]
    pub step: Option<u64>,
}

/// Runs `regtrack relink`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let (mut store, _writing) = super::open_writer(ctx)?;
    let started = std::time::Instant::now();
    let (mut done, unreadable) = if let Some(step) = args.step {
        crate::pipeline::relink::relink_full_in_steps(&mut store, step as usize, &mut || Ok(()))
            .context("linking threads and regressions")?
    } else if args.full {
        crate::pipeline::relink::relink_full_counted(&mut store)
            .context("linking threads and regressions")?
    } else {
        crate::pipeline::relink::relink_repairing(&mut store)
            .context("linking threads and regressions")?
    };
    done.seconds = started.elapsed().as_secs_f64();
    super::warn_unreadable(ctx, &unreadable);
    if !ctx.quiet {
        eprintln!("regtrack: {}", super::relinked_line(&done));
    }
    Ok(ExitCode::SUCCESS)
}
