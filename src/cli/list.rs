//! `regtrack list`.

use std::process::ExitCode;

use super::Context;

/// Arguments of `regtrack list`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `regtrack list`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (ctx, args);
    anyhow::bail!("'list' is not implemented yet")
}
