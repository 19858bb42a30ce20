//! public-inbox archives read with gix: a v2 inbox folder (`git/N.git`
//! epochs) or one bare epoch repository, where each commit holds one message
//! in the blob `m` (a commit whose tree holds `d` instead records a deletion
//! and is skipped).
//!
//! An epoch is read by walking first-parent history from `HEAD` back to the
//! last commit ingested before (or to the root), then reading the commits
//! oldest first. Only the commit and tree ids of the walk are held in memory
//! (40 bytes each), and each commit is decoded once, by the walk. A progress mark (the commit just
//! read) follows every [`MARK_EVERY`] commits and the end of each epoch, so the
//! writer records the last commit in the same transaction as the messages
//! before it. When `HEAD` equals the recorded commit nothing is read at all.
//!
//! Inflating objects is most of the cost of reading an epoch, so commits are
//! read [`READ_AHEAD`] at a time on the rayon pool (one repository handle per
//! worker) and handed on in order.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use gix::ObjectId;

use crate::error::{Error, Result};
use crate::ingest::Item;
use crate::model::{Origin, RawFormat, RawMessage};

/// A progress mark after this many commits.
pub const MARK_EVERY: usize = 2000;

/// Commits read ahead in parallel.
pub const READ_AHEAD: usize = 256;

/// Bytes of gix's object cache per open epoch.
const OBJECT_CACHE: usize = 4 << 20;

/// The `sources.kind` of a public-inbox epoch.
pub const KIND: &str = "public-inbox";

/// The epoch repositories of a public-inbox archive at `path`, oldest first;
/// `None` when `path` is not a git archive.
pub fn epochs(path: &Path) -> Option<Vec<PathBuf>> {
    let git = path.join("git");
    if git.is_dir() {
        let mut found: Vec<(u64, PathBuf)> = std::fs::read_dir(&git)
            .ok()?
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().to_string();
                let n = name.strip_suffix(".git")?.parse::<u64>().ok()?;
                e.path().is_dir().then(|| (n, e.path()))
            })
            .collect();
        if !found.is_empty() {
            found.sort();
            return Some(found.into_iter().map(|(_, p)| p).collect());
        }
    }
    if (path.join("HEAD").is_file() && path.join("objects").is_dir()) || path.join(".git").exists()
    {
        return Some(vec![path.to_path_buf()]);
    }
    None
}

/// The key of an epoch in the `sources` table: its canonical path (the path
/// as given when it cannot be resolved).
pub fn source_key(epoch: &Path) -> String {
    super::canonical_key(epoch).unwrap_or_else(|| epoch.display().to_string())
}

/// Items (messages oldest first, with progress marks) of every epoch, reading
/// only the commits after the last one recorded in `known`.
pub fn items(
    epochs: Vec<PathBuf>,
    known: &HashMap<String, String>,
) -> Result<Box<dyn Iterator<Item = Item> + Send>> {
    let known = known.clone();
    Ok(Box::new(epochs.into_iter().flat_map(
        move |epoch| -> Box<dyn Iterator<Item = Item> + Send> {
            let key = source_key(&epoch);
            match EpochReader::open(&epoch, key.clone(), known.get(&key).map(String::as_str)) {
                Ok(reader) => Box::new(reader),
                Err(e) => Box::new(std::iter::once(Item::InputError {
                    path: epoch.display().to_string(),
                    reason: e.to_string(),
                })),
            }
        },
    )))
}

/// The raw messages of a whole archive (for [`crate::source::open`]).
pub fn open(path: &Path) -> Result<crate::source::RawStream> {
    let epochs = epochs(path).ok_or_else(|| Error::Git {
        path: path.to_path_buf(),
        reason: "not a public-inbox archive (no git/N.git epochs, not a git repository)".into(),
    })?;
    let items = items(epochs, &HashMap::new())?;
    Ok(Box::new(items.filter_map(|item| match item {
        Item::Raw(r) => Some(r),
        Item::InputError { path, reason } => Some(Err(Error::Git {
            path: path.into(),
            reason,
        })),
        Item::Mark { .. } | Item::FileDone { .. } | Item::Unchanged => None,
    })))
}

/// Reads one epoch's new commits, oldest first.
pub struct EpochReader {
    repo: gix::Repository,
    path: PathBuf,
    key: String,
    /// Commits still to read, with their trees.
    ids: std::vec::IntoIter<(ObjectId, ObjectId)>,
    ahead: std::collections::VecDeque<(ObjectId, Option<Result<RawMessage>>)>,
    since_mark: usize,
    last: Option<ObjectId>,
    finished: bool,
}

/// Checks that `head` looks like a public-inbox commit and returns the
/// first-parent history after `last_known`, oldest first.
fn walk_new_commits(
    repo: &gix::Repository,
    path: &Path,
    head: ObjectId,
    last_known: Option<&str>,
) -> Result<Vec<(ObjectId, ObjectId)>> {
    let tree = repo
        .find_commit(head)
        .and_then(|c| c.tree_id().map(|t| t.detach()))
        .map_err(|e| git_err(path, "reading the HEAD commit", e))?;
    let tree = repo
        .find_tree(tree)
        .map_err(|e| git_err(path, "reading the HEAD tree", e))?;
    if tree.find_entry("m").is_none() && tree.find_entry("d").is_none() {
        return Err(Error::Git {
            path: path.to_path_buf(),
            reason: "not a public-inbox epoch: the HEAD commit holds no blob `m`".into(),
        });
    }
    let stop = last_known.and_then(|h| ObjectId::from_hex(h.as_bytes()).ok());
    // First parents only, by hand: each commit is decoded once, here, and its
    // tree id kept, so reading the message later starts from the tree.
    let mut ids = Vec::new();
    let mut next = Some(head);
    while let Some(id) = next {
        if Some(id) == stop {
            break;
        }
        let commit = repo
            .find_commit(id)
            .map_err(|e| git_err(path, "walking history", e))?;
        let tree = commit
            .tree_id()
            .map_err(|e| git_err(path, "walking history", e))?
            .detach();
        next = commit.parent_ids().next().map(|p| p.detach());
        ids.push((id, tree));
    }
    ids.reverse();
    Ok(ids)
}

fn git_err(path: &Path, what: &str, e: impl std::fmt::Display) -> Error {
    Error::Git {
        path: path.to_path_buf(),
        reason: format!("{what}: {e}"),
    }
}

impl EpochReader {
    /// Opens an epoch and walks its first-parent history from `HEAD` back to
    /// `last_known` (exclusive).
    pub fn open(path: &Path, key: String, last_known: Option<&str>) -> Result<EpochReader> {
        let mut repo = gix::open(path).map_err(|e| git_err(path, "opening repository", e))?;
        repo.object_cache_size_if_unset(OBJECT_CACHE);
        let mut reader = EpochReader {
            repo,
            path: path.to_path_buf(),
            key,
            ids: Vec::new().into_iter(),
            ahead: std::collections::VecDeque::new(),
            since_mark: 0,
            last: None,
            finished: false,
        };
        let head = match reader.repo.head_id() {
            Ok(id) => id.detach(),
            // An epoch with no commit yet holds no message.
            Err(_) if reader.repo.head().is_ok_and(|h| h.is_unborn()) => {
                reader.finished = true;
                return Ok(reader);
            }
            Err(e) => return Err(git_err(path, "reading HEAD", e)),
        };
        if last_known == Some(head.to_hex().to_string().as_str()) {
            reader.finished = true;
            return Ok(reader);
        }
        let ids = walk_new_commits(&reader.repo, path, head, last_known)?;
        reader.ids = ids.into_iter();
        Ok(reader)
    }

    /// Reads the next [`READ_AHEAD`] commits in parallel, keeping their order.
    fn read_ahead(&mut self) {
        use rayon::prelude::*;
        let ids: Vec<(ObjectId, ObjectId)> = self.ids.by_ref().take(READ_AHEAD).collect();
        let shared = self.repo.clone().into_sync();
        let key = self.key.as_str();
        let read: Vec<_> = ids
            .into_par_iter()
            .map_init(
                || {
                    let mut repo = shared.to_thread_local();
                    repo.object_cache_size_if_unset(OBJECT_CACHE);
                    repo
                },
                |repo, (id, tree)| (id, read_message(repo, key, id, tree)),
            )
            .collect();
        self.ahead.extend(read);
    }

    fn mark(&mut self) -> Option<Item> {
        self.since_mark = 0;
        // Pack files are memory-mapped: reopening the repository unmaps what
        // was read so far, so resident memory stays bounded on huge epochs.
        if !self.finished {
            if let Ok(mut repo) = gix::open(&self.path) {
                repo.object_cache_size_if_unset(OBJECT_CACHE);
                self.repo = repo;
            }
        }
        self.last.map(|id| Item::Mark {
            source: self.key.clone(),
            kind: KIND.to_string(),
            last_commit: id.to_hex().to_string(),
        })
    }
}

/// Reads the message of commit `id` from its tree (`None` for a deletion commit).
fn read_message(
    repo: &gix::Repository,
    key: &str,
    id: ObjectId,
    tree_id: ObjectId,
) -> Option<Result<RawMessage>> {
    let origin = Origin::Git {
        repo: key.to_string(),
        commit: id.to_hex().to_string(),
    };
    let fail = |what: &str, e: &dyn std::fmt::Display| {
        Some(Err(Error::Message {
            origin: origin.describe(),
            reason: format!("{what}: {e}"),
        }))
    };
    let tree = match repo.find_tree(tree_id) {
        Ok(t) => t,
        Err(e) => return fail("reading tree", &e),
    };
    let blob_id = tree.find_entry("m")?.oid().to_owned();
    let blob = match repo.find_object(blob_id) {
        Ok(b) => b,
        Err(e) => return fail("reading blob m", &e),
    };
    Some(Ok(RawMessage {
        origin,
        bytes: blob.detach().data,
        format: RawFormat::Rfc822,
    }))
}

impl Iterator for EpochReader {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        if self.finished {
            return None;
        }
        if self.since_mark >= MARK_EVERY {
            if let Some(mark) = self.mark() {
                return Some(mark);
            }
        }
        loop {
            if self.ahead.is_empty() {
                self.read_ahead();
            }
            let Some((id, read)) = self.ahead.pop_front() else {
                self.finished = true;
                return self.mark();
            };
            self.last = Some(id);
            self.since_mark += 1;
            if let Some(r) = read {
                return Some(Item::Raw(r));
            }
        }
    }
}
