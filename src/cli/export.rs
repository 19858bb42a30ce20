//! `regtrack export`.

use std::process::ExitCode;

use super::Context;

/// Arguments of `regtrack export`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `regtrack export`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (ctx, args);
    anyhow::bail!("'export' is not implemented yet")
}
