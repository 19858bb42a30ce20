//! `regtrack ingest`.

use std::process::ExitCode;

use super::Context;

/// Arguments of `regtrack ingest`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `regtrack ingest`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (ctx, args);
    anyhow::bail!("'ingest' is not implemented yet")
}
