//! `regtrack parse FILE|-`: reads any input `ingest` reads and prints, per
//! message, one JSON object (JSON Lines) with the message's headers and every
//! field of its [`Extraction`] flattened at the top level. Nothing is stored.
//!
//! Per-message failures go to stderr with their origin, and so do the table
//! rows that did not fit (the first [`MAX_DIAGNOSTICS`] of a message, then
//! how many more; not with `--quiet`); the exit code is non-zero only when
//! nothing could be read.
//!
//! Output is streamed: each message's line is written (and flushed) as soon
//! as it is extracted, and nothing of a message is kept after its line.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use serde_json::{Map, Value};

use super::Context;
use crate::model::{Extraction, Message};
use crate::report::table::{MAX_DIAGNOSTICS, table_diagnostics};

/// Arguments of `regtrack parse`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Inputs: mbox (.gz), Maildir, .eml file or folder, public-inbox git, rendered text, or `-` for stdin.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
}

/// Runs `regtrack parse`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let mut out = BufWriter::new(super::stdout());
    let mut read = 0usize;
    let mut failed = 0usize;
    for path in &args.inputs {
        let stream = match crate::source::open(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!(
                    "regtrack: {}: {}",
                    crate::export::terminal::line(&path.display().to_string()),
                    crate::export::terminal::line(&e.to_string())
                );
                failed += 1;
                continue;
            }
        };
        for raw in stream {
            let raw = match raw {
                Ok(r) => r,
                Err(e) => {
                    eprintln!(
                        "regtrack: {}",
                        crate::export::terminal::line(&e.to_string())
                    );
                    failed += 1;
                    continue;
                }
            };
            let msg = match crate::mail::parse(&raw) {
                Ok(m) => m,
                Err(e) => {
                    let (origin, reason) = (raw.origin.describe(), e.to_string());
                    if reason.starts_with(&origin) {
                        eprintln!("regtrack: {}", crate::export::terminal::line(&reason));
                    } else {
                        eprintln!(
                            "regtrack: {}: {}",
                            crate::export::terminal::line(&origin),
                            crate::export::terminal::line(&reason)
                        );
                    }
                    failed += 1;
                    continue;
                }
            };
            let ex = crate::extract::extract(&msg);
            if !ctx.quiet {
                print_diagnostics(&raw.origin.describe(), &msg, &ex);
            }
            crate::export::json::to_writer(&mut out, &message_json(&msg, &ex), false)
                .context("encoding JSON")?;
            drop(ex);
            drop(msg);
            writeln!(out)?;
            out.flush()?;
            read += 1;
        }
    }
    out.flush()?;
    if !ctx.quiet && failed > 0 {
        eprintln!("regtrack: {read} messages parsed, {failed} failed");
    }
    Ok(if read == 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Says on stderr which table rows of a message did not fit: the first
/// [`MAX_DIAGNOSTICS`], then how many more. The body is scanned again only
/// when its tables skipped rows.
fn print_diagnostics(origin: &str, msg: &Message, ex: &Extraction) {
    let part = crate::extract::extracted_part(&msg.body).len();
    if part < msg.body.len() {
        eprintln!(
            "regtrack: {origin}: a body of {} bytes: extracted from its first {part} (its lkp tables from all of it)",
            msg.body.len()
        );
    }
    let skipped: u64 = ex.tables.iter().map(|t| u64::from(t.skipped_rows)).sum();
    if skipped == 0 {
        return;
    }
    let diag = table_diagnostics(&msg.body);
    let mut err = std::io::stderr().lock();
    for d in &diag {
        let _ = writeln!(
            err,
            "regtrack: {origin}: {}",
            super::terminal_safe(&d.to_string())
        );
    }
    // Rows of mmtests and stress-ng tables are counted without a diagnostic.
    let more = skipped.saturating_sub(diag.len() as u64);
    if more > 0 && diag.len() >= MAX_DIAGNOSTICS {
        let _ = writeln!(
            err,
            "regtrack: {origin}: ... and {more} more table rows that do not fit"
        );
    }
}

/// The JSON object `regtrack parse` prints for one message: headers, then every
/// field of the extraction at the top level; integral numbers print as integers.
pub fn message_json(msg: &Message, ex: &Extraction) -> Value {
    let mut m = Map::new();
    m.insert("message_id".into(), Value::from(msg.message_id.clone()));
    m.insert("subject".into(), Value::from(msg.subject.clone()));
    m.insert("from_name".into(), msg.from_name.clone().into());
    m.insert("from_email".into(), msg.from_email.clone().into());
    let date = msg
        .date
        .and_then(|s| chrono::DateTime::from_timestamp(s, 0))
        .map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
    m.insert("date".into(), date.into());
    m.insert("in_reply_to".into(), msg.in_reply_to.clone().into());
    m.insert("references".into(), msg.references.clone().into());
    if let Ok(Value::Object(fields)) = serde_json::to_value(ex) {
        m.extend(fields);
    }
    let mut v = Value::Object(m);
    integral_numbers(&mut v);
    v
}

/// Rewrites floats with no fraction (`15820000000.0`) as integers (`15820000000`).
fn integral_numbers(v: &mut Value) {
    match v {
        Value::Number(n) => {
            if let Some(f) = n.as_f64()
                && n.is_f64()
                && f.fract() == 0.0
                && f.abs() < 9.0e15
            {
                *v = Value::from(f as i64);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(integral_numbers),
        Value::Object(o) => o.values_mut().for_each(integral_numbers),
        _ => {}
    }
}
