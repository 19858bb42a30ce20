//! `regtrack mark`.

use std::process::ExitCode;

use super::Context;

/// Arguments of `regtrack mark`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `regtrack mark`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (ctx, args);
    anyhow::bail!("'mark' is not implemented yet")
}
