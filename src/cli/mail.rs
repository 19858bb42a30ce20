//! `regtrack mail <message-id>`: prints one stored message (its headers and
//! decoded body) as mail, or as JSON, so a Message-ID from a timeline can be
//! read without the archive it came from.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context as _;

use super::Context;

/// Arguments of `regtrack mail`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Message-ID, with or without angle brackets.
    pub message_id: String,
    /// Print one JSON object (headers, `kind`, `lists`, `body`).
    #[arg(long)]
    pub json: bool,
}

/// Runs `regtrack mail`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let store = super::open_reader(ctx)?;
    let found = crate::store::body::stored_message(&store, &args.message_id)
        .with_context(|| format!("reading message '{}'", args.message_id))?;
    let Some(m) = found else {
        if !ctx.quiet {
            eprintln!(
                "regtrack: no stored message has Message-ID '{}'",
                args.message_id
            );
        }
        return Ok(ExitCode::from(1));
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut out, &m)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let from = match (&m.from_name, &m.from_email) {
        (Some(n), Some(e)) if !n.is_empty() => format!("{n} <{e}>"),
        (_, Some(e)) => e.clone(),
        (Some(n), None) => n.clone(),
        (None, None) => String::new(),
    };
    writeln!(out, "From: {from}")?;
    if let Some(d) = m.date.and_then(|t| chrono::DateTime::from_timestamp(t, 0)) {
        writeln!(out, "Date: {}", d.to_rfc2822())?;
    }
    writeln!(out, "Subject: {}", m.subject)?;
    writeln!(out, "Message-ID: <{}>", m.message_id)?;
    if let Some(p) = &m.in_reply_to {
        writeln!(out, "In-Reply-To: <{p}>")?;
    }
    for l in &m.lists {
        writeln!(out, "List-Id: <{l}>")?;
    }
    writeln!(out, "X-Regtrack-Kind: {}", m.kind)?;
    writeln!(out)?;
    out.write_all(m.body.as_bytes())?;
    if !m.body.ends_with('\n') {
        writeln!(out)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
