//! `regtrack thread <message-id>`: prints the whole stored thread holding a
//! message (every message whose thread root, as the last link computed it,
//! is this one's, in date order) as one mboxrd of the messages as received,
//! for `git am`, `b4` or mutt.

use std::process::ExitCode;

use anyhow::Context as _;

use super::Context;

/// Arguments of `regtrack thread`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Message-ID of any message of the thread, with or without angle brackets.
    pub message_id: String,
}

/// Runs `regtrack thread`.
pub fn run(ctx: &Context, mut args: Args) -> anyhow::Result<ExitCode> {
    args.message_id = crate::mail::msgid::from_argument(&args.message_id);
    if crate::mail::clean_id(&args.message_id).is_empty() {
        anyhow::bail!("empty Message-ID (give one as its header has it: <id@host> or id@host)");
    }
    let store = super::open_reader(ctx)?;
    let ids = crate::store::copies::thread(&store, &args.message_id)
        .with_context(|| format!("reading the thread of message '{}'", args.message_id))?;
    let Some(ids) = ids else {
        if !ctx.quiet {
            eprintln!(
                "regtrack: no stored message has Message-ID '{}'",
                crate::export::terminal::line(&args.message_id)
            );
        }
        return Ok(ExitCode::from(1));
    };
    super::mail::raw(ctx, &store, &ids)
}
