//! `regtrack reindex`: extracts again every message an older regtrack
//! stored (or, with `--all`, every message), from the stored bodies, then
//! relinks. `ingest` does the same on its own when it finds older ones.

use std::io::Write;
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

/// Re-extracts what an older build stored, with a progress bar on a
/// terminal; returns how many messages were extracted again.
pub fn upgrade(ctx: &Context, store: &mut Store) -> anyhow::Result<u64> {
    let pending = crate::pipeline::reindex::pending(store).context("counting messages")?;
    if pending == 0 {
        return Ok(0);
    }
    let bar = (ctx.stderr_tty && !ctx.quiet).then(|| {
        let bar = indicatif::ProgressBar::new(pending);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "re-extracting {bar:30} {pos}/{len} messages ({eta} left)",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let progress = |done: u64, _total: u64| {
        if let Some(bar) = &bar {
            bar.set_position(done);
        }
    };
    let done = crate::pipeline::reindex::reindex(store, &progress)
        .context("extracting stored messages again")?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let mut err = std::io::stderr().lock();
    for why in done.unreadable.iter().take(20) {
        let _ = writeln!(
            err,
            "regtrack: warning: kept the older extraction of {}",
            super::terminal_safe(why)
        );
    }
    Ok(done.messages)
}
