//! `regtrack export`: a triage summary as Markdown, JSON, CSV or a
//! self-contained HTML report; open regressions first, grouped by subsystem.
//!
//! `--out` never names the database or any SQLite file (one whose first 16
//! bytes are `SQLite format 3\0`), nor the database's `-wal`, `-shm` and
//! `-journal` files: those are refused. The report is written to a
//! temporary file in the target's folder, synced, and renamed over the
//! target, so a full disk or a kill leaves the old report whole; a device
//! or a pipe (`/dev/null`, `/dev/stdout`, a FIFO) is written into instead,
//! since a rename would replace it with a file.

use std::io::Write;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;

use super::Context;
use super::list::FilterArgs;
use crate::export;

/// Export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Markdown.
    Md,
    /// JSON (see docs/json.md).
    Json,
    /// CSV.
    Csv,
    /// One self-contained HTML file.
    Html,
}

/// Arguments of `regtrack export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to write: `md` (Markdown), `json` (see docs/json.md), `csv` or
    /// `html`, one self-contained page (`--json` is short for `--format
    /// json`).
    #[arg(long, value_enum, default_value_t = FormatArg::Md)]
    pub format: FormatArg,
    /// Short for `--format json`.
    #[arg(long, hide = true, conflicts_with = "format")]
    pub json: bool,
    /// Write to this file instead of standard output.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Filters.
    #[command(flatten)]
    pub filter: FilterArgs,
}

/// Runs `regtrack export`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let filter = args.filter.filter()?;
    if let Some(p) = &args.out
        && let Some(why) = refusal(p, &ctx.db)
    {
        anyhow::bail!("refusing to write the export over '{}': {why}", p.display());
    }
    let store = super::open_reader(ctx)?;
    let now = chrono::Utc::now().timestamp();
    let mut regs = crate::query::list(&store, &filter, now, args.filter.days)?;
    super::warn_undecodable(&store);
    super::note_stale(ctx, &store);
    export::triage_order(&mut regs);
    let format = if args.json {
        FormatArg::Json
    } else {
        args.format
    };
    let write = |w: &mut dyn Write| -> std::io::Result<()> {
        match format {
            FormatArg::Md => export::markdown::write(w, &regs, now, &ctx.links),
            FormatArg::Json => export::json::write(w, &regs, &ctx.links),
            FormatArg::Csv => export::csv::write(w, &regs, now, &ctx.links),
            FormatArg::Html => export::html::write(w, &regs, now, &ctx.links),
        }
    };
    match &args.out {
        Some(p) => {
            write_replacing(p, &ctx.db, write)?;
            if !ctx.quiet {
                eprintln!(
                    "regtrack: wrote {} regressions to {}",
                    regs.len(),
                    crate::export::terminal::line(&p.display().to_string())
                );
            }
        }
        None => {
            let mut out = std::io::BufWriter::new(super::stdout());
            write(&mut out)?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The first 16 bytes of every SQLite database file.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Why `out` must not be written over, if it must not: it is the database
/// (or one of its files), or an SQLite file.
fn refusal(out: &Path, db: &Path) -> Option<String> {
    use std::io::Read as _;
    use std::os::unix::fs::MetadataExt;
    let id = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()));
    let target = id(out)?;
    if id(db) == Some(target) {
        return Some("it is the database".into());
    }
    for suffix in ["-wal", "-shm", "-journal", ".lock"] {
        let mut side = db.as_os_str().to_owned();
        side.push(suffix);
        if id(Path::new(&side)) == Some(target) {
            return Some(format!("it is the database's {suffix} file"));
        }
    }
    // Only a regular file can be a database; opening a pipe to look would
    // wait for its writer.
    if !std::fs::metadata(out).is_ok_and(|m| m.is_file()) {
        return None;
    }
    let mut head = [0u8; 16];
    let is_sqlite = std::fs::File::open(out)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && &head == SQLITE_MAGIC;
    is_sqlite.then(|| "it is an SQLite database".into())
}

/// Writes what `write` writes to `out` through a temporary file in the same
/// folder, renamed over it once whole and synced; the old file's
/// permissions are kept. A symlink is followed to the file it names; a
/// device or a pipe (`/dev/null`, `/dev/stdout`) is written into.
fn write_replacing(
    out: &Path,
    db: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    if let Some(why) = refusal(out, db) {
        anyhow::bail!(
            "refusing to write the export over '{}': {why}",
            out.display()
        );
    }
    let target = std::fs::canonicalize(out).unwrap_or_else(|_| out.to_path_buf());
    // A device, a pipe or a terminal (`/dev/null`, `/dev/stdout`, a FIFO)
    // is written into: renaming over it would put a file in its place.
    if std::fs::metadata(&target).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let written = std::fs::OpenOptions::new()
            .write(true)
            .open(&target)
            .and_then(|f| {
                let mut w = std::io::BufWriter::new(f);
                write(&mut w)?;
                w.flush()
            });
        return written.with_context(|| format!("writing '{}'", out.display()));
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let old = std::fs::metadata(&target).ok().filter(|m| m.is_file());
    let mut builder = tempfile::Builder::new();
    builder.prefix(".regtrack-export-");
    // A new file gets 0666 less the umask, as a plain create would.
    builder.permissions(match &old {
        Some(m) => m.permissions(),
        None => std::fs::Permissions::from_mode(0o666),
    });
    let written = builder
        .tempfile_in(&dir)
        // tempfile names its own random file in the error; the user named
        // `out` (`... (os error 2) at path "/dir/.regtrack-export-9cRT9d"`).
        .map_err(|e| {
            let said = e.to_string();
            let cause = said
                .rsplit_once(" at path ")
                .map_or(said.as_str(), |(c, _)| c);
            std::io::Error::new(e.kind(), cause.to_string())
        })
        .and_then(|mut tmp| {
            // Through the file itself: tempfile's own writes add its name to
            // their errors.
            let mut file = std::io::BufWriter::new(tmp.as_file_mut());
            write(&mut file)?;
            file.flush()?;
            drop(file);
            tmp.as_file().sync_all()?;
            if let Some(m) = &old {
                // The umask applied at creation: the old mode, exactly.
                tmp.as_file().set_permissions(m.permissions())?;
            }
            tmp.persist(&target).map_err(|e| e.error)?;
            Ok(())
        });
    written.with_context(|| format!("writing '{}'", out.display()))
}
