//! `regtrack mail <message-id>`: prints one stored message (its headers and
//! decoded body) as mail, or as JSON, so a Message-ID from a timeline can be
//! read without the archive it came from.

use std::io::{IsTerminal, Write};
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
    let url = ctx.links.message(&m.message_id);
    if args.json {
        let mut v = serde_json::to_value(&m)?;
        if let Some(o) = v.as_object_mut() {
            o.entry("url").or_insert(serde_json::Value::String(url));
        }
        serde_json::to_writer(&mut out, &v)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let from = match (&m.from_name, &m.from_email) {
        (Some(n), Some(e)) if !n.is_empty() => format!("{n} <{e}>"),
        (_, Some(e)) => e.clone(),
        (Some(n), None) => n.clone(),
        (None, None) => String::new(),
    };
    let safe = crate::export::terminal::line;
    writeln!(out, "From: {}", safe(&from))?;
    if let Some(d) = m.date.and_then(|t| chrono::DateTime::from_timestamp(t, 0)) {
        writeln!(out, "Date: {}", d.to_rfc2822())?;
    }
    writeln!(out, "Subject: {}", safe(&m.subject))?;
    writeln!(out, "Message-ID: <{}>", safe(&m.message_id))?;
    if let Some(p) = &m.in_reply_to {
        writeln!(out, "In-Reply-To: <{}>", safe(p))?;
    }
    for l in &m.lists {
        writeln!(out, "List-Id: <{}>", safe(l))?;
    }
    writeln!(out, "Archived-At: <{url}>")?;
    writeln!(out, "X-Regtrack-Kind: {}", m.kind)?;
    writeln!(out)?;
    // On a terminal, no control character of the mail reaches it.
    if std::io::stdout().is_terminal() {
        out.write_all(crate::export::terminal::block(&m.body).as_bytes())?;
    } else {
        out.write_all(m.body.as_bytes())?;
    }
    if !m.body.ends_with('\n') {
        writeln!(out)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
