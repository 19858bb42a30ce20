//! What the commands that update the database (`ingest`, `fetch`,
//! `follow`, `reindex`, `trees sync`) show while [`crate::pipeline::update`]
//! runs and after: a progress bar on a terminal, the trees read, what
//! could not be read, the summary lines. No command of its own.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Mutex;

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::{Context, terminal_safe};
use crate::error::Result;
use crate::pipeline::ingest::Summary;
use crate::pipeline::reindex::Reindexed;
use crate::pipeline::trees::TreeSynced;
use crate::pipeline::update::{Stage, UpdateError, Watch};
use crate::store::Store;

/// Updates `store` from the mail of `paths` ([`crate::pipeline::update`])
/// with a progress bar on a terminal; says on stderr what the trees did,
/// what could not be read and where the time went (`timings`).
pub(super) fn ingest_paths(
    ctx: &Context,
    store: &mut Store,
    paths: &[PathBuf],
    timings: bool,
    reread: bool,
) -> anyhow::Result<Summary> {
    let shown = Shown::new(ctx, progress_bar(ctx, paths));
    let updated = crate::pipeline::update::update(store, paths, reread, &shown)
        .map_err(|e| in_context(ctx, e))?;
    super::warn_unreadable(ctx, &updated.unreadable);
    let summary = updated.summary;
    if timings {
        let alongside = if summary.index_seconds > 0.0 {
            " (alongside the index build)"
        } else {
            ""
        };
        eprintln!(
            "timings: read, parse and write {:.2} s; build indexes {:.2} s; link {:.2} s{alongside}",
            summary.write_seconds, summary.index_seconds, updated.link_seconds
        );
        eprintln!("timings: {}", super::relinked_line(&updated.relinked));
    }
    Ok(summary)
}

/// An update's error, with what the command was doing at its stage.
fn in_context(ctx: &Context, e: UpdateError) -> anyhow::Error {
    let db = ctx.db.display();
    let doing = match e.stage {
        Stage::Store => format!("writing to database '{db}'"),
        Stage::Indexes => format!("building the indexes of '{db}'"),
        Stage::Count => "counting messages".to_string(),
        Stage::Reextract => "extracting stored messages again".to_string(),
        Stage::Trees => "reading the trees".to_string(),
        Stage::TreeSync => return anyhow::Error::from(*e.error),
        Stage::Relink => "linking threads and regressions".to_string(),
    };
    anyhow::Error::from(*e.error).context(doing)
}

/// What an update shows on stderr as it goes.
pub(super) struct Shown<'a> {
    ctx: &'a Context,
    /// The store stage's progress bar (a terminal, not quiet).
    bar: Option<Progress>,
    /// The re-extraction's progress bar, while it runs.
    reextract: Mutex<Option<ProgressBar>>,
}

impl<'a> Shown<'a> {
    /// Shows what `ctx` allows, the store stage's progress on `bar`.
    pub(super) fn new(ctx: &'a Context, bar: Option<Progress>) -> Shown<'a> {
        Shown {
            ctx,
            bar,
            reextract: Mutex::new(None),
        }
    }
}

impl Watch for Shown<'_> {
    fn stored_progress(&self, p: &crate::pipeline::ingest::Progress) {
        if let Some(bar) = &self.bar {
            bar.update(p);
        }
    }

    fn stored(&self) {
        if let Some(bar) = &self.bar {
            bar.bar.finish_and_clear();
        }
        (self.ctx.hooks.release_memory)();
    }

    fn reextracting(&self, pending: u64) {
        if !self.ctx.stderr_tty || self.ctx.quiet {
            return;
        }
        let bar = ProgressBar::new(pending);
        bar.set_style(
            ProgressStyle::with_template(
                "re-extracting {bar:30} {pos}/{len} messages ({eta} left)",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        if let Ok(mut slot) = self.reextract.lock() {
            *slot = Some(bar);
        }
    }

    fn reextract_progress(&self, done: u64, _total: u64) {
        if let Ok(slot) = self.reextract.lock()
            && let Some(bar) = slot.as_ref()
        {
            bar.set_position(done);
        }
    }

    fn reextracted(&self, done: &Reindexed) {
        if let Ok(mut slot) = self.reextract.lock()
            && let Some(bar) = slot.take()
        {
            bar.finish_and_clear();
        }
        let mut err = std::io::stderr().lock();
        for why in done.unreadable.iter().take(20) {
            let _ = writeln!(
                err,
                "regtrack: warning: kept the older extraction of {}",
                terminal_safe(why)
            );
        }
    }

    fn tree_synced(&self, _name: &str, r: &Result<TreeSynced>) {
        match r {
            Ok(s) => {
                if !self.ctx.quiet {
                    eprintln!("regtrack: {}", synced_line(s));
                }
            }
            Err(e) => {
                eprintln!(
                    "regtrack: error: {} (nothing of it stored)",
                    terminal_safe(&e.to_string())
                );
            }
        }
    }
}

/// `tree 'mainline': master +5000 commits; 1 new release tag; 0.4 s`.
fn synced_line(s: &TreeSynced) -> String {
    let refs: Vec<String> = s
        .refs
        .iter()
        .map(|r| {
            let mut x = format!("{} +{}", r.name, r.new);
            if r.forced {
                x.push_str(&format!(" (force-pushed, {} gone)", r.vanished));
            }
            x
        })
        .collect();
    format!(
        "tree '{}': {}; {} new release tags; {:.2} s",
        terminal_safe(&s.tree),
        terminal_safe(&refs.join(", ")),
        s.new_tags,
        s.seconds
    )
}

/// Prints the summary line of an update on stdout, and, unless quiet, the
/// regressions line; quiet, the summary line only when a message failed.
pub(super) fn print_summary(ctx: &Context, store: &Store, summary: &Summary) -> anyhow::Result<()> {
    let mut out = super::stdout();
    // Quiet (cron): nothing when all went well, the line when a message
    // failed, so that cron mails only about failures.
    if ctx.quiet && summary.failed == 0 {
        return Ok(());
    }
    writeln!(out, "{}", summary_line(summary))?;
    if !ctx.quiet {
        let statuses =
            crate::store::stats::regression_statuses(store).context("counting regressions")?;
        writeln!(out, "{}", regressions_line(&statuses))?;
    }
    Ok(())
}

/// `23 regressions in the database: 9 improvement, 6 discussed, ...; see `regtrack list``.
fn regressions_line(statuses: &[crate::store::stats::StatusCount]) -> String {
    let total: i64 = statuses.iter().map(|c| c.regressions).sum();
    let parts: Vec<String> = statuses
        .iter()
        .map(|c| format!("{} {}", c.regressions, c.name))
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
fn summary_line(s: &Summary) -> String {
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
    let again = match s.failed_again {
        0 => String::new(),
        n => format!(" ({n} more failing again, see `regtrack failures`)"),
    };
    format!(
        "ingested {} messages: {} new, {} known, {} duplicates{replaced}, {} failed{again}; {:.1} MB in {:.2} s ({:.1} MB/s){unchanged}",
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

/// What a progress bar counts towards, as far as it is known before
/// reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Total {
    /// The inputs' bytes: the sizes of their files (mbox, Maildir, folders
    /// of mail, none compressed).
    Bytes(u64),
    /// Messages: every input is a public-inbox archive, whose epochs say
    /// how many new commits they hold once opened.
    Messages,
    /// Not known (standard input, compressed files, a mix).
    Unknown,
}

/// A progress bar on stderr, with its total and start.
pub(super) struct Progress {
    bar: ProgressBar,
    total: Total,
    started: std::time::Instant,
}

impl Progress {
    /// Shows how far the ingest is.
    fn update(&self, p: &crate::pipeline::ingest::Progress) {
        let total = match self.total {
            Total::Bytes(t) => Some((p.bytes, t)),
            Total::Messages if p.planned_messages > 0 => {
                Some((p.messages, p.planned_messages.max(p.messages)))
            }
            _ => None,
        };
        if let Some((pos, len)) = total {
            self.bar.set_length(len.max(pos));
            self.bar.set_position(pos);
        }
        self.bar.set_message(progress_text(
            p,
            self.total,
            self.started.elapsed().as_secs_f64(),
        ));
    }
}

/// The progress line's text, in the summary line's units: `3.2 MB of 12.5
/// MB, 4210 messages, 16.1 MB/s, ETA 1 s` (bytes known), `4210 of 42700
/// messages, 12.5 MB, 16.1 MB/s, ETA 20 s` (an epoch's commits known),
/// `4210 messages, 12.5 MB, 16.1 MB/s` (no total).
fn progress_text(p: &crate::pipeline::ingest::Progress, total: Total, seconds: f64) -> String {
    let mb = p.bytes as f64 / 1e6;
    let rate = if seconds > 0.0 { mb / seconds } else { 0.0 };
    let eta = |done: u64, all: u64| -> String {
        if done == 0 || seconds <= 0.0 {
            return String::new();
        }
        let left = all.saturating_sub(done) as f64 * seconds / done as f64;
        format!(", ETA {}", duration(left))
    };
    match total {
        Total::Bytes(all) => format!(
            "{mb:.1} MB of {:.1} MB, {} messages, {rate:.1} MB/s{}",
            all as f64 / 1e6,
            p.messages,
            eta(p.bytes, all)
        ),
        Total::Messages if p.planned_messages > 0 => {
            let all = p.planned_messages.max(p.messages);
            format!(
                "{} of {all} messages, {mb:.1} MB, {rate:.1} MB/s{}",
                p.messages,
                eta(p.messages, all)
            )
        }
        _ => format!("{} messages, {mb:.1} MB, {rate:.1} MB/s", p.messages),
    }
}

/// `5 s`, `2 min 05 s`, `1 h 02 min`.
fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}

/// A progress bar on a terminal; none when quiet or when stderr is not a
/// terminal (a pipe, a file, cron).
fn progress_bar(ctx: &Context, paths: &[PathBuf]) -> Option<Progress> {
    if ctx.quiet || !ctx.stderr_tty {
        return None;
    }
    let total = known_total(paths);
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let template = match total {
        Total::Unknown => "{spinner} [{elapsed_precise}] {msg}",
        _ => "{spinner} [{elapsed_precise}] {wide_bar} {msg}",
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    if let Total::Bytes(t) = total {
        bar.set_length(t);
    }
    bar.set_message(progress_text(
        &crate::pipeline::ingest::Progress::default(),
        total,
        0.0,
    ));
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    Some(Progress {
        bar,
        total,
        started: std::time::Instant::now(),
    })
}

/// Files under a folder summed at most: past this many, no total.
const MAX_SIZED_FILES: usize = 1_000_000;

/// What the inputs add up to before reading them: every input a
/// public-inbox archive (messages, told by each epoch), or the sum of the
/// file sizes when every input is a plain file or a folder of them (a
/// Maildir, a folder of .eml) and none is compressed.
fn known_total(paths: &[PathBuf]) -> Total {
    if !paths.is_empty()
        && paths
            .iter()
            .all(|p| p.is_dir() && crate::source::public_inbox::epochs(p).is_some())
    {
        return Total::Messages;
    }
    let mut total = 0;
    let mut files = 0;
    for p in paths {
        match sized(p, &mut files) {
            Some(n) => total += n,
            None => return Total::Unknown,
        }
    }
    Total::Bytes(total)
}

/// The bytes of `path`: a plain file's size, or a folder's files' sizes
/// (recursively; dot files aside); None for anything compressed, a git
/// archive, standard input, or what cannot be read.
fn sized(path: &std::path::Path, files: &mut usize) -> Option<u64> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.is_file() {
        *files += 1;
        let mut magic = [0u8; 2];
        let mut f = std::fs::File::open(path).ok()?;
        if f.read(&mut magic).ok()? == 2 && magic == [0x1f, 0x8b] {
            return None;
        }
        return Some(meta.len());
    }
    if !meta.is_dir() || crate::source::public_inbox::epochs(path).is_some() {
        return None;
    }
    let mut total = 0;
    for entry in std::fs::read_dir(path).ok()? {
        let entry = entry.ok()?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let p = entry.path();
        let ft = entry.file_type().ok()?;
        if ft.is_dir() {
            total += sized(&p, files)?;
        } else if ft.is_file() {
            *files += 1;
            if *files > MAX_SIZED_FILES || p.extension().is_some_and(|e| e == "gz") {
                return None;
            }
            total += entry.metadata().ok()?.len();
        }
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::ingest::Progress as P;

    #[test]
    fn progress_says_total_eta_and_megabytes() {
        let p = P {
            bytes: 3_200_000,
            messages: 4210,
            planned_messages: 0,
        };
        assert_eq!(
            progress_text(&p, Total::Bytes(12_800_000), 2.0),
            "3.2 MB of 12.8 MB, 4210 messages, 1.6 MB/s, ETA 6 s"
        );
        let p = P {
            bytes: 12_500_000,
            messages: 4270,
            planned_messages: 42_700,
        };
        assert_eq!(
            progress_text(&p, Total::Messages, 1.0),
            "4270 of 42700 messages, 12.5 MB, 12.5 MB/s, ETA 9 s"
        );
        assert_eq!(
            progress_text(&p, Total::Messages, 20.0),
            "4270 of 42700 messages, 12.5 MB, 0.6 MB/s, ETA 3 min 00 s"
        );
        assert_eq!(
            progress_text(&p, Total::Unknown, 1.0),
            "4270 messages, 12.5 MB, 12.5 MB/s"
        );
        // Nothing read yet: no ETA to guess.
        assert_eq!(
            progress_text(&P::default(), Total::Bytes(1_000_000), 0.0),
            "0.0 MB of 1.0 MB, 0 messages, 0.0 MB/s"
        );
        assert_eq!(duration(3725.0), "1 h 02 min");
    }

    #[test]
    fn totals_are_file_sizes_or_an_archive_s_messages() {
        let dir = tempfile::tempdir().unwrap();
        let maildir = dir.path().join("Maildir");
        std::fs::create_dir_all(maildir.join("cur")).unwrap();
        std::fs::create_dir_all(maildir.join("new")).unwrap();
        std::fs::write(maildir.join("cur/1"), vec![b'x'; 1000]).unwrap();
        std::fs::write(maildir.join("new/2"), vec![b'x'; 500]).unwrap();
        let mbox = dir.path().join("a.mbox");
        std::fs::write(&mbox, vec![b'x'; 250]).unwrap();
        assert_eq!(
            known_total(&[maildir.clone(), mbox.clone()]),
            Total::Bytes(1750)
        );
        let gz = dir.path().join("b.mbox.gz");
        std::fs::write(&gz, [0x1f, 0x8b, 8, 0]).unwrap();
        assert_eq!(known_total(&[mbox.clone(), gz]), Total::Unknown);
        assert_eq!(known_total(&[PathBuf::from("-")]), Total::Unknown);
        let inbox = dir.path().join("inbox");
        std::fs::create_dir_all(inbox.join("git/0.git")).unwrap();
        assert_eq!(known_total(std::slice::from_ref(&inbox)), Total::Messages);
        assert_eq!(known_total(&[inbox, mbox]), Total::Unknown);
    }
}
