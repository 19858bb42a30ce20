//! `regtrack reindex`: extracts again every message an older regtrack
//! stored (or, with `--all`, every message), from the stored bodies, then
//! relinks. `ingest` does the same on its own when it finds older ones.

use std::process::ExitCode;

use anyhow::Context as _;

use super::Context;
use crate::store::Store;

/// Arguments of `regtrack reindex`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Extract every message again, not only those an older build stored.
    #[arg(long)]
    pub all: bool,
}

/// Runs `regtrack reindex`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let (mut store, _writing) = super::open_writer(ctx)?;
    if args.all {
        crate::store::reextract::mark_all_stale(&store).context("marking every message")?;
    }
    let done = upgrade(ctx, &mut store)?;
    let (_, unreadable) =
        crate::pipeline::relink::relink(&mut store).context("linking threads and regressions")?;
    super::warn_unreadable(ctx, &unreadable);
    if !ctx.quiet {
        eprintln!("regtrack: extracted {} messages again", done);
    }
    Ok(ExitCode::SUCCESS)
}

/// Re-extracts what an older build stored
/// ([`crate::pipeline::update::reextract`]), with a progress bar on a
/// terminal; returns how many messages were extracted again.
fn upgrade(ctx: &Context, store: &mut Store) -> anyhow::Result<u64> {
    let pending = crate::pipeline::reindex::pending(store).context("counting messages")?;
    if pending == 0 {
        return Ok(0);
    }
    let shown = super::update::Shown::new(ctx, None);
    let done = crate::pipeline::update::reextract(store, pending, &shown)
        .context("extracting stored messages again")?;
    Ok(done.messages)
}
