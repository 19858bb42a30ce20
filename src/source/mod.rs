//! Readers for every input form: mbox (mboxrd/mboxo, gzip), Maildir, `.eml`
//! folders, single files, standard input, public-inbox git archives, and
//! archive-rendered text. Each yields [`crate::model::RawMessage`]s with their origin.
//!
//! [`open`] detects the form by content (see `detect.rs`) and returns a
//! [`RawStream`]: a lazy iterator that holds at most one message (plus a read
//! buffer) in memory, so that memory does not grow with the archive.

pub mod detect;
pub mod files;
pub mod mbox;
pub mod pack;
pub mod public_inbox;
pub mod sigbus;

use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};
use crate::model::RawMessage;

/// An item a source yields for the ingest pipeline: a message, or what
/// the pipeline records about the input (errors, progress).
#[derive(Debug)]
pub enum Item {
    /// A raw message or a stream error.
    Raw(Result<RawMessage>),
    /// An input that could not be opened.
    InputError {
        /// The input path.
        path: String,
        /// Why.
        reason: String,
    },
    /// A file input was read to its end: recorded with the messages before it,
    /// so that an unchanged file is skipped next time.
    FileDone {
        /// Canonical path.
        source: String,
        /// Size in bytes.
        size: i64,
        /// Modification time (nanoseconds since the epoch).
        mtime: i64,
    },
    /// A file input unchanged since it was read to its end: skipped.
    Unchanged,
    /// How many messages an input holds before they are read, where that is
    /// known (a public-inbox epoch's new commits, counted by the walk that
    /// precedes reading them): for a progress bar's total only.
    Planned {
        /// Messages (commits) to come.
        messages: u64,
    },
    /// Progress of an incremental source, recorded after the messages before it.
    Mark {
        /// The epoch's git directory.
        source: String,
        /// Source kind (`public-inbox`).
        kind: String,
        /// Last commit read.
        last_commit: String,
    },
}

/// A stream of raw messages from one input; a per-message error does not end it.
pub type RawStream = Box<dyn Iterator<Item = Result<RawMessage>> + Send>;

/// The items of one input or epoch, for the ingest pipeline.
pub type Items = Box<dyn Iterator<Item = Item> + Send>;

/// What opens one input or epoch when called, and what it is (a path, for
/// errors): opening a public-inbox epoch walks its new commits and reads
/// their trees, which takes a while on a big one, so the pipeline opens the
/// next one while the one before is read.
pub struct Opener {
    /// The input or epoch path.
    pub path: String,
    /// Whether opening it takes long enough to be worth a thread of its own
    /// (an epoch's walk; not a file's open, of which there may be thousands).
    pub slow: bool,
    /// Opens it; its failures are items ([`Item::InputError`]).
    pub open: Box<dyn FnOnce() -> Items + Send>,
}

/// The items of an input or epoch that could not be opened: its error.
pub fn unopened(path: String, reason: String) -> Items {
    Box::new(std::iter::once(Item::InputError { path, reason }))
}

/// The opener of a file, a directory of messages or standard input.
pub fn opener(path: &Path) -> Opener {
    let owned = path.to_path_buf();
    Opener {
        path: path.display().to_string(),
        slow: false,
        open: Box::new(move || -> Items {
            match open(&owned) {
                Ok(stream) => Box::new(stream.map(Item::Raw)),
                Err(e) => unopened(owned.display().to_string(), e.to_string()),
            }
        }),
    }
}

/// Opens any input `ingest` reads (detected by content; `-` is standard input)
/// and streams its raw messages in order.
pub fn open(path: &Path) -> Result<RawStream> {
    if path == Path::new("-") {
        let stdin: Box<dyn Read + Send> = Box::new(std::io::stdin());
        return files::open_reader(stdin, mbox::Place::Stdin, path, 0);
    }
    let meta = std::fs::metadata(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if meta.is_dir() {
        return files::open_dir(path);
    }
    files::open_file(path)
}

/// The key of an input in the `sources` table: its canonical path, `None`
/// when the path cannot be resolved. A path that is not UTF-8 keeps its
/// bytes: each byte of no character is written `\xNN` after a `bytes:`
/// prefix, which no canonical (absolute) path has, so two names that differ
/// only in such bytes are two sources.
pub fn canonical_key(path: &Path) -> Option<String> {
    let p = std::fs::canonicalize(path).ok()?;
    if let Some(s) = p.to_str() {
        return Some(s.to_string());
    }
    let mut key = String::from("bytes:");
    for chunk in p.as_os_str().as_encoded_bytes().utf8_chunks() {
        key.push_str(chunk.valid());
        for b in chunk.invalid() {
            key.push_str(&format!("\\x{b:02x}"));
        }
    }
    Some(key)
}

/// What tells an unchanged file (mbox, `.mbox.gz`, `.eml`) apart: its
/// [`canonical_key`], size and modification time (ns since the epoch).
/// `None` for standard input, a folder or an unreadable path.
pub fn file_identity(path: &Path) -> Option<(String, i64, i64)> {
    if path == Path::new("-") {
        return None;
    }
    let meta = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    let mtime = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    let key = canonical_key(path)?;
    Some((
        key,
        i64::try_from(meta.len()).ok()?,
        i64::try_from(mtime).ok()?,
    ))
}

/// Opens a public-inbox archive (v2 folder or one epoch repository).
fn open_git(path: &Path) -> Result<RawStream> {
    public_inbox::open(path)
}
