//! `regtrack show`.

use std::process::ExitCode;

use super::Context;

/// Arguments of `regtrack show`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `regtrack show`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (ctx, args);
    anyhow::bail!("'show' is not implemented yet")
}
