//! Messages kept in public-inbox epochs, read by their commit: as received
//! (`mail --raw`, `thread`), and their bodies decoded again for the store
//! (see [`crate::store::body`]): the message's blob
//! ([`crate::source::public_inbox::message_in`]) parsed as an ingest parses
//! it ([`crate::mail::parse`]), so the body is the one its extraction was
//! made from while the parser is the same.
//!
//! Opened epochs are kept (at most [`OPEN_EPOCHS`]), so that reading many
//! messages of one epoch (a re-extraction, a thread) opens it once; each is
//! opened anew after [`READS_PER_OPEN`] messages, since its packs are
//! memory-mapped and what was read stays resident until they are unmapped
//! (a re-extraction of four whole lists peaked at 1.07 GB without it).

use std::path::Path;
use std::sync::Mutex;

use crate::model::{BodyPart, Origin, RawFormat, RawMessage};
use crate::store::body::EpochBodies;

/// Epochs kept open at a time; the one used longest ago is closed first.
pub const OPEN_EPOCHS: usize = 8;

/// Messages read from an opened epoch before it is opened anew.
pub const READS_PER_OPEN: usize = 2048;

/// regtrack's reader of epoch bodies (register it with
/// [`crate::store::body::read_epochs_with`]).
pub static EPOCH_BODIES: Epochs = Epochs {
    open: Mutex::new(Vec::new()),
};

/// The epochs opened so far, the last used last.
#[derive(Debug)]
pub struct Epochs {
    open: Mutex<Vec<Opened>>,
}

/// An epoch opened, by its path, and how many messages were read from it.
#[derive(Debug)]
struct Opened {
    path: String,
    repo: gix::Repository,
    reads: usize,
}

impl Epochs {
    /// The message of `commit` in the epoch at `repo`, byte for byte as the
    /// epoch holds it.
    pub fn raw(&self, repo: &str, commit: &str) -> crate::error::Result<Vec<u8>> {
        let path = Path::new(repo);
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let kept = open
            .iter()
            .position(|o| o.path == repo)
            .map(|i| open.remove(i))
            .filter(|o| o.reads < READS_PER_OPEN);
        let mut entry = match kept {
            Some(o) => o,
            None => Opened {
                path: repo.to_string(),
                repo: crate::source::public_inbox::open_epoch(path)?,
                reads: 0,
            },
        };
        if open.len() >= OPEN_EPOCHS {
            open.remove(0);
        }
        entry.reads += 1;
        let read = crate::source::public_inbox::message_in(&entry.repo, path, commit);
        open.push(entry);
        read
    }
}

impl EpochBodies for Epochs {
    fn decoded(
        &self,
        repo: &str,
        commit: &str,
    ) -> std::result::Result<(String, Vec<BodyPart>), String> {
        // The caller names the epoch and the commit: only the cause here.
        let bytes = self.raw(repo, commit).map_err(|e| match e {
            crate::error::Error::Git { reason, .. } => reason,
            e => e.to_string(),
        })?;
        let raw = RawMessage {
            origin: Origin::Git {
                repo: repo.to_string(),
                commit: commit.to_string(),
            },
            bytes: bytes.into(),
            format: RawFormat::Rfc822,
        };
        let parsed = std::panic::catch_unwind(|| crate::mail::parse(&raw))
            .map_err(|_| "the mail parser panicked".to_string())?;
        let msg = parsed.map_err(|e| e.to_string())?;
        Ok((msg.body, msg.parts))
    }
}
