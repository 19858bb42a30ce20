//! `regtrack stats`.

use std::process::ExitCode;

use super::Context;

/// Arguments of `regtrack stats`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `regtrack stats`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (ctx, args);
    anyhow::bail!("'stats' is not implemented yet")
}
