//! `regtrack parse`.

use std::process::ExitCode;

use super::Context;

/// Arguments of `regtrack parse`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `regtrack parse`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (ctx, args);
    anyhow::bail!("'parse' is not implemented yet")
}
