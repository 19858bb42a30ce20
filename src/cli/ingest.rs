//! `regtrack ingest`: reads mail into the database, prints a summary line
//! (or `--json`), a failures table, and a progress bar on a terminal.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::Context;
use crate::pipeline::ingest::Summary;
use crate::store::Store;

/// How many failures the table shows.
const SHOWN_FAILURES: usize = 20;

/// Arguments of `regtrack ingest`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Inputs: mbox (or .mbox.gz), Maildir, folder of .eml, single message,
    /// public-inbox folder or epoch git repo, rendered text; `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Print `{new, known, duplicates, failed, unchanged, bytes, seconds}` as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// Print where the time went (writing, index building, linking) on stderr.
    #[arg(long)]
    pub timings: bool,
    /// Read every input from its start, even a file unchanged since it was
    /// read and an epoch's commits read before (messages stored before
    /// schema v14 then get their raw form stored, for `mail --raw`).
    #[arg(long)]
    pub reread: bool,
}

/// Runs `regtrack ingest`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let (mut store, _writing) = super::open_writer(ctx)?;
    let summary = ingest_paths(ctx, &mut store, &args.paths, args.timings, args.reread)?;
    let mut err = std::io::stderr().lock();
    for note in &summary.input_errors {
        let reason = crate::export::terminal::line(&note.reason);
        if note.reason.contains(&note.place) {
            writeln!(err, "regtrack: error: {reason}")?;
        } else {
            writeln!(
                err,
                "regtrack: error: '{}': {reason}",
                crate::export::terminal::line(&note.place)
            )?;
        }
    }
    if !ctx.quiet && !summary.failures.is_empty() {
        print_failures(&mut err, &summary)?;
    }
    if args.json {
        let mut out = std::io::stdout().lock();
        serde_json::to_writer(&mut out, &summary)?;
        writeln!(out)?;
    } else {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", summary_line(&summary))?;
        if !ctx.quiet {
            let statuses =
                crate::store::stats::regression_statuses(&store).context("counting regressions")?;
            writeln!(out, "{}", regressions_line(&statuses))?;
        }
    }
    // Nothing could be read: no message stored or known, and something
    // failed (a file that is not mail, a folder without any).
    let stored = summary.new + summary.known + summary.duplicates;
    let nothing_read = stored == 0 && (summary.failed > 0 || !summary.input_errors.is_empty());
    Ok(if summary.trees_failed {
        ExitCode::from(2)
    } else if nothing_read {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Ingests `paths` into `store` with a progress bar on a terminal, extracts
/// again what an older regtrack stored, and relinks; says on stderr where
/// the time went (`timings`) and what could not be read.
pub(super) fn ingest_paths(
    ctx: &Context,
    store: &mut Store,
    paths: &[PathBuf],
    timings: bool,
    reread: bool,
) -> anyhow::Result<Summary> {
    let bar = progress_bar(ctx, paths);
    let on_progress = |bytes: u64, messages: u64| {
        if let Some(bar) = &bar {
            bar.set_position(bytes);
            bar.set_message(format!("{messages} messages"));
        }
    };
    let (mut summary, mut indexes) =
        crate::pipeline::ingest::ingest_indexing_behind_with(store, paths, &on_progress, reread)
            .with_context(|| format!("writing to database '{}'", ctx.db.display()))?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    (ctx.hooks.release_memory)();
    // Messages an older regtrack stored are extracted again first (once the
    // indexes are built: both write).
    if crate::pipeline::reindex::pending(store).context("counting messages")? > 0 {
        indexes
            .wait()
            .with_context(|| format!("building the indexes of '{}'", ctx.db.display()))?;
        super::reindex::upgrade(ctx, store)?;
    }
    // The followed kernel trees, after the mail: a tree that cannot be read
    // is said and stores nothing; the mail is linked all the same.
    let trees_ok = if crate::store::trees::any(store).context("reading the trees")? {
        indexes
            .wait()
            .with_context(|| format!("building the indexes of '{}'", ctx.db.display()))?;
        super::trees::sync(ctx, store)?
    } else {
        true
    };
    summary.trees_failed = !trees_ok;
    // Relinks only when messages, marks or the link logic changed since the
    // last link (`link_state`); an unchanged input returns at once. A bulk
    // load's indexes are built meanwhile, on another connection; the linker
    // writes once they are.
    let linking = std::time::Instant::now();
    let (relinked, unreadable) =
        crate::pipeline::relink::relink_with(store, &mut || indexes.wait())
            .context("linking threads and regressions")?;
    super::warn_unreadable(ctx, &unreadable);
    indexes
        .wait()
        .with_context(|| format!("building the indexes of '{}'", ctx.db.display()))?;
    indexes.account(&mut summary);
    let link_seconds = linking.elapsed().as_secs_f64();
    if timings {
        let alongside = if summary.index_seconds > 0.0 {
            " (alongside the index build)"
        } else {
            ""
        };
        eprintln!(
            "timings: read, parse and write {:.2} s; build indexes {:.2} s; link {:.2} s{alongside}",
            summary.write_seconds, summary.index_seconds, link_seconds
        );
        eprintln!("timings: {}", super::relinked_line(&relinked));
    }
    Ok(summary)
}

/// `23 regressions in the database: 9 improvement, 6 discussed, ...; see `regtrack list``.
pub(super) fn regressions_line(statuses: &[crate::store::stats::Count]) -> String {
    let total: i64 = statuses.iter().map(|c| c.messages).sum();
    let parts: Vec<String> = statuses
        .iter()
        .map(|c| format!("{} {}", c.messages, c.name))
        .collect();
    if total == 0 {
        return "no regression histories yet".to_string();
    }
    format!(
        "{total} regressions in the database: {}; see `regtrack list`",
        parts.join(", ")
    )
}

/// `37 new, 0 known, 0 duplicates, 0 failed; 1.2 MB in 0.35 s (3.4 MB/s)`.
pub(super) fn summary_line(s: &Summary) -> String {
    let mb = s.bytes as f64 / 1e6;
    let rate = if s.seconds > 0.0 { mb / s.seconds } else { 0.0 };
    let unchanged = match s.unchanged {
        0 => String::new(),
        1 => "; 1 unchanged file skipped".to_string(),
        n => format!("; {n} unchanged files skipped"),
    };
    let replaced = match s.replaced {
        0 => String::new(),
        n => format!(" ({n} chosen over the stored copy)"),
    };
    format!(
        "ingested {} messages: {} new, {} known, {} duplicates{replaced}, {} failed; {:.1} MB in {:.2} s ({:.1} MB/s){unchanged}",
        s.messages(),
        s.new,
        s.known,
        s.duplicates,
        s.failed,
        mb,
        s.seconds,
        rate
    )
}

fn print_failures(out: &mut impl Write, s: &Summary) -> std::io::Result<()> {
    writeln!(out, "failed messages ({}):", s.failed)?;
    let width = s
        .failures
        .iter()
        .take(SHOWN_FAILURES)
        .map(|f| f.place.chars().count())
        .max()
        .unwrap_or(0)
        .min(60);
    for f in s.failures.iter().take(SHOWN_FAILURES) {
        writeln!(out, "  {:<width$}  {}", f.place, f.reason)?;
    }
    if s.failed as usize > SHOWN_FAILURES {
        writeln!(
            out,
            "  ... and {} more (all are in the failures table)",
            s.failed as usize - SHOWN_FAILURES
        )?;
    }
    Ok(())
}

/// A byte progress bar on a terminal; none when quiet or not a terminal.
fn progress_bar(ctx: &Context, paths: &[PathBuf]) -> Option<ProgressBar> {
    if ctx.quiet || !ctx.stderr_tty {
        return None;
    }
    let total = known_total(paths);
    let bar = match total {
        Some(t) => ProgressBar::with_draw_target(Some(t), ProgressDrawTarget::stderr()),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
    };
    let template = if total.is_some() {
        "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg} {bytes_per_sec} ETA {eta}"
    } else {
        "{spinner} [{elapsed_precise}] {bytes} {msg} {bytes_per_sec}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    Some(bar)
}

/// Sum of the input sizes when every input is a plain (uncompressed) file.
fn known_total(paths: &[PathBuf]) -> Option<u64> {
    let mut total = 0;
    for p in paths {
        let meta = std::fs::metadata(p).ok()?;
        if !meta.is_file() {
            return None;
        }
        let mut magic = [0u8; 2];
        let mut f = std::fs::File::open(p).ok()?;
        if f.read(&mut magic).ok()? == 2 && magic == [0x1f, 0x8b] {
            return None;
        }
        total += meta.len();
    }
    Some(total)
}
