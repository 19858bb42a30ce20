//! `regtrack mail <message-id>`: prints one stored message (its headers and
//! decoded body) as mail, or as JSON, so a Message-ID from a timeline can be
//! read without the archive it came from; `--raw` prints the message as
//! received, as mboxrd (for `git am`, `b4`, mutt), and `--copies` lists
//! every copy stored under the Message-ID and which one is used.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Context as _;

use super::{Context, Format};
use crate::store::copies::{self, Raw};

/// Arguments of `regtrack mail`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Message-ID, with or without angle brackets.
    pub message_id: String,
    /// How to print: `text`, as mail, or `json`, one object (headers,
    /// `kind`, `lists`, `body`, `copies`; with `--copies`, the list of
    /// copies) (`--json` is short for `--format json`).
    #[arg(long, value_enum, default_value_t = Format::Text, conflicts_with = "raw")]
    pub format: Format,
    /// Short for `--format json`.
    #[arg(long, hide = true, conflicts_with_all = ["format", "raw"])]
    pub json: bool,
    /// Print the message as received (headers and body, as mboxrd with its
    /// `From ` line), for `git am`, `b4` or mutt.
    #[arg(long)]
    pub raw: bool,
    /// List every copy stored under this Message-ID: where it was read, its
    /// sender and size, complete or truncated, and which one is used.
    #[arg(long, conflicts_with = "raw")]
    pub copies: bool,
}

/// Runs `regtrack mail`.
pub fn run(ctx: &Context, mut args: Args) -> anyhow::Result<ExitCode> {
    args.message_id = crate::mail::msgid::from_argument(&args.message_id);
    if crate::mail::clean_id(&args.message_id).is_empty() {
        anyhow::bail!("empty Message-ID (give one as its header has it: <id@host> or id@host)");
    }
    let store = super::open_reader(ctx)?;
    if args.raw {
        return raw(ctx, &store, std::slice::from_ref(&args.message_id));
    }
    if args.copies {
        return list_copies(ctx, &store, &args);
    }
    let found = match crate::store::body::stored_message(&store, &args.message_id) {
        // A body that cannot be read (a damaged block, an epoch moved
        // away) is this message's failure, as for `--raw`: exit 1.
        Err(e @ crate::error::Error::Message { .. }) => {
            if !ctx.quiet {
                eprintln!(
                    "regtrack: {}",
                    crate::export::terminal::line(&e.to_string())
                );
            }
            return Ok(ExitCode::from(1));
        }
        found => found.with_context(|| format!("reading message '{}'", args.message_id))?,
    };
    let Some(m) = found else {
        return Ok(not_found(ctx, &args.message_id));
    };
    let note = copies::notes(&store, &[m.message_id.as_str()])
        .context("reading the message's copies")?
        .remove(&m.message_id);
    let mut out = super::stdout();
    let url = ctx.links.message(&m.message_id);
    if args.format.asked(args.json) == Format::Json {
        let mut v = serde_json::to_value(&m)?;
        if let Some(o) = v.as_object_mut() {
            o.entry("url").or_insert(serde_json::Value::String(url));
            o.insert(
                "copies".into(),
                serde_json::Value::from(note.as_ref().map_or(1, |n| n.copies)),
            );
            o.insert(
                "chosen_because".into(),
                note.as_ref()
                    .and_then(|n| n.reason.clone())
                    .map_or(serde_json::Value::Null, serde_json::Value::String),
            );
        }
        crate::export::json::to_writer(&mut out, &v, false)?;
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
    if let Some(n) = &note {
        writeln!(
            out,
            "X-Regtrack-Copies: {} (see `regtrack mail --copies`)",
            safe(&n.sentence())
        )?;
    }
    writeln!(out)?;
    // The decoded text is for reading, on a terminal or through a pipe
    // (`| cat`, `| less -R` pass it on to one): no control character of the
    // mail goes out; `--raw` gives the bytes as they came.
    out.write_all(crate::export::terminal::block(&m.body).as_bytes())?;
    if !m.body.ends_with('\n') {
        writeln!(out)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn not_found(ctx: &Context, message_id: &str) -> ExitCode {
    if !ctx.quiet {
        eprintln!(
            "regtrack: no stored message has Message-ID '{}'",
            crate::export::terminal::line(message_id)
        );
    }
    ExitCode::from(1)
}

/// Prints the raw forms of these messages as one mboxrd; when one is not
/// stored (or not found), says so for each and prints nothing (exit 1).
pub(super) fn raw(
    ctx: &Context,
    store: &crate::store::Store,
    ids: &[String],
) -> anyhow::Result<ExitCode> {
    let mut raws = Vec::with_capacity(ids.len());
    let mut missing = 0usize;
    for id in ids {
        let found = copies::raw_of(store, id, None)
            .with_context(|| format!("reading the raw form of message '{id}'"))?;
        match found {
            Some(Raw::Stored(bytes)) => raws.push(bytes),
            Some(Raw::InEpoch { repo, commit }) => {
                match crate::pipeline::epoch_bodies::EPOCH_BODIES.raw(&repo, &commit) {
                    Ok(bytes) => raws.push(bytes),
                    Err(e) => {
                        missing += 1;
                        if !ctx.quiet {
                            eprintln!(
                                "regtrack: the raw form of <{}> is the message of commit {} in \
                                 the epoch it was read from, which cannot be read: {}",
                                crate::export::terminal::line(&crate::mail::clean_id(id)),
                                crate::export::terminal::line(&commit),
                                crate::export::terminal::line(&e.to_string())
                            );
                        }
                    }
                }
            }
            Some(Raw::NotStored) => {
                missing += 1;
                if !ctx.quiet {
                    eprintln!(
                        "regtrack: the raw form of <{}> is not stored (it was stored by a \
                         regtrack before schema v14, or read from archive-rendered text); \
                         `regtrack ingest --reread PATH` on its archive stores it",
                        crate::export::terminal::line(&crate::mail::clean_id(id))
                    );
                }
            }
            None => {
                missing += 1;
                not_found(ctx, id);
            }
        }
    }
    if missing > 0 {
        return Ok(ExitCode::from(1));
    }
    let refs: Vec<&[u8]> = raws.iter().map(Vec::as_slice).collect();
    let mut out = super::stdout();
    crate::export::mbox::write(&mut out, &refs, std::io::stdout().is_terminal())?;
    Ok(ExitCode::SUCCESS)
}

/// `mail --copies`: every copy, in the order seen.
fn list_copies(
    ctx: &Context,
    store: &crate::store::Store,
    args: &Args,
) -> anyhow::Result<ExitCode> {
    let found = copies::copies(store, &args.message_id)
        .with_context(|| format!("reading the copies of message '{}'", args.message_id))?;
    let Some(list) = found else {
        return Ok(not_found(ctx, &args.message_id));
    };
    let mut out = super::stdout();
    if args.format.asked(args.json) == Format::Json {
        crate::export::json::to_writer(&mut out, &list, false)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let safe = crate::export::terminal::line;
    let id = crate::mail::clean_id(&args.message_id);
    let n = list.len();
    writeln!(
        out,
        "<{}>: {n} {}",
        safe(&id),
        if n == 1 { "copy" } else { "copies" }
    )?;
    for (i, c) in list.iter().enumerate() {
        let chosen = match (c.chosen, &c.reason) {
            (true, Some(r)) => format!("  chosen, because {r}"),
            (true, None) => "  chosen".to_string(),
            (false, _) => String::new(),
        };
        writeln!(
            out,
            "{} copy {}{chosen}",
            if c.chosen { "*" } else { " " },
            i + 1
        )?;
        let from = match (&c.from_name, &c.from_email) {
            (Some(n), Some(e)) if !n.is_empty() => format!("{n} <{e}>"),
            (_, Some(e)) => e.clone(),
            (Some(n), None) => n.clone(),
            (None, None) => "(not recorded)".to_string(),
        };
        writeln!(out, "    from  {}", safe(&from))?;
        let read = match &c.origin {
            Some(crate::model::Origin::File { path, offset }) => {
                format!("{path}, offset {offset}")
            }
            Some(crate::model::Origin::Git { repo, commit }) => {
                format!("{repo}, commit {commit}")
            }
            Some(crate::model::Origin::Stdin { offset }) => {
                format!("standard input, offset {offset}")
            }
            None => "(not recorded)".to_string(),
        };
        writeln!(out, "    read  {}", safe(&read))?;
        let size = if c.size > 0 {
            format!("{} bytes", c.size)
        } else {
            "size not recorded".to_string()
        };
        writeln!(
            out,
            "    size  {size}, {}, raw form {}",
            if c.complete { "complete" } else { "truncated" },
            match (&c.origin, c.raw_stored) {
                (Some(crate::model::Origin::Git { .. }), _) => "in its epoch",
                (_, true) => "stored",
                (_, false) => "not stored",
            }
        )?;
        if !c.lists.is_empty() {
            writeln!(out, "    lists {}", safe(&c.lists.join(", ")))?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
