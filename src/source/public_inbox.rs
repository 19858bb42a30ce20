//! public-inbox archives read with gix: a v2 inbox folder (`git/N.git`
//! epochs) or one bare epoch repository, where each commit holds one message
//! in the blob `m` (a commit whose tree holds `d` instead records a deletion
//! and is skipped).
//!
//! An epoch is read by walking first-parent history from `HEAD` back to the
//! last commit ingested before (or to the root), then reading the commits
//! oldest first. The walk decodes each commit once, from its pack; the trees
//! are then read on the rayon pool, and the blobs, in order, by
//! [`super::pack`], which inflates each delta base once (gix reads what is
//! not in a pack, or what that reader cannot decode). Per commit, its id and
//! its blob's are held (about 90 bytes). A progress mark (the commit just
//! read) follows every [`MARK_EVERY`] commits and the end of each epoch, so
//! the writer records the last commit in the same transaction as the
//! messages before it. When `HEAD` equals the recorded commit nothing is read
//! at all.
//!
//! A commit whose message could not be read (a pack replaced by `git gc` or
//! a fetch under the run, a truncated pack, an object missing from a
//! mirror or a partial clone) is a failure, kept in the `failures` table,
//! and progress passes it: every run reads the epoch's failed commits again
//! first ([`Known::failed`], [`EpochReader::retrying`]), and one read then
//! is a message like any other (its failure cleared). So an object missing
//! for good costs one read per run, not a reread of every commit after it.
//! An input error names the epoch and the unread commits. A message that is
//! read but does not parse is a failure the same way.
//!
//! A pack that does not match its index (truncated before the run) fails
//! the epoch before anything is read from it; a pack that shrinks while
//! mapped ends the epoch at the commit being read, with an error naming
//! both, instead of a read past the mapping's end (`SIGBUS`); see
//! [`super::pack`].

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

use gix::ObjectId;

use crate::error::{Error, Result};
use crate::model::{Origin, RawFormat, RawMessage};
use crate::source::pack::{Loc, PackReader};
use crate::source::{Item, Items, Opener};

/// A progress mark after this many commits.
pub const MARK_EVERY: usize = 2000;

/// Bytes of gix's object cache per open epoch.
const OBJECT_CACHE: usize = 4 << 20;

/// Trees read through one mapping of the packs. gix maps a pack whole, and
/// the pages the trees lie on stay resident while it is mapped: a freshly
/// written epoch (`git fast-import`, as public-inbox writes them) puts each
/// tree beside its commit and message, so reading the 427,000 trees of the
/// 10x synthetic archive through one mapping made 410 MB of its 764 MB pack
/// resident at once. A repository opened anew maps the packs anew.
pub const TREES_PER_MAPPING: usize = 4096;

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

/// What earlier runs left of each epoch, by [`source_key`].
#[derive(Debug, Clone, Default)]
pub struct Known {
    /// The last commit read (the progress mark).
    pub last: HashMap<String, String>,
    /// Commits whose message could not be read or parsed: read again on
    /// every run, before the new ones.
    pub failed: HashMap<String, Vec<String>>,
}

/// Items (messages oldest first, with progress marks) of every epoch, reading
/// only the commits after the last one recorded in `known`, and again those
/// that failed.
pub fn items(epochs: Vec<PathBuf>, known: &Known) -> Result<Box<dyn Iterator<Item = Item> + Send>> {
    Ok(Box::new(
        openers(epochs, known).into_iter().flat_map(|o| (o.open)()),
    ))
}

/// The openers of these epochs, in order, each reading from its progress
/// in `known` on.
pub fn openers(epochs: Vec<PathBuf>, known: &Known) -> Vec<Opener> {
    epochs
        .into_iter()
        .map(|epoch| {
            let key = source_key(&epoch);
            let last = known.last.get(&key).cloned();
            let failed = known.failed.get(&key).cloned().unwrap_or_default();
            Opener {
                path: epoch.display().to_string(),
                slow: true,
                open: Box::new(move || -> Items {
                    match EpochReader::open(&epoch, key, last.as_deref())
                        .map(|r| r.retrying(failed))
                    {
                        Ok(reader) => Box::new(reader),
                        Err(e) => super::unopened(epoch.display().to_string(), e.to_string()),
                    }
                }),
            }
        })
        .collect()
}

/// The raw messages of a whole archive (for [`crate::source::open`]).
pub fn open(path: &Path) -> Result<crate::source::RawStream> {
    let epochs = epochs(path).ok_or_else(|| Error::Git {
        path: path.to_path_buf(),
        reason: "not a public-inbox archive (no git/N.git epochs, not a git repository)".into(),
    })?;
    let items = items(epochs, &Known::default())?;
    Ok(Box::new(items.filter_map(|item| match item {
        Item::Raw(r) => Some(r),
        Item::InputError { path, reason } => Some(Err(Error::Git {
            path: path.into(),
            reason,
        })),
        Item::Mark { .. } | Item::FileDone { .. } | Item::Unchanged | Item::Planned { .. } => None,
    })))
}

/// A commit to read: its id, its blob `m` (`None`: a deletion) or why its
/// tree could not be read, and the blob's place in a pack.
type Planned = (ObjectId, BlobOf, Option<Loc>);

/// A commit's blob `m` (`None`: a deletion), or why its tree could not be read.
type BlobOf = std::result::Result<Option<ObjectId>, String>;

/// Reads one epoch's new commits, oldest first.
pub struct EpochReader {
    repo: gix::Repository,
    path: PathBuf,
    key: String,
    /// Commits still to read.
    commits: std::vec::IntoIter<Planned>,
    packs: PackReader,
    since_mark: usize,
    /// The last commit read with every commit before it.
    last: Option<ObjectId>,
    /// The commits whose message could not be read, oldest first.
    unread: Vec<ObjectId>,
    /// Commits that failed in an earlier run, read again first.
    retry: std::vec::IntoIter<String>,
    /// Items to hand out before reading on.
    pending: VecDeque<Item>,
    /// Why the epoch ended early (a pack shrank under the run).
    stopped: Option<String>,
    finished: bool,
    /// Whether the `SIGBUS` message names it as the epoch being read.
    announced: bool,
}

/// Checks that `head` looks like a public-inbox commit and returns the
/// first-parent history after `last_known`, oldest first.
fn walk_new_commits(
    repo: &gix::Repository,
    packs: &mut PackReader,
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
    // First parents only, by hand: each commit is decoded once, here (from
    // its pack, else by gix), and its tree id kept, so reading the message
    // later starts from the tree.
    let mut ids = Vec::new();
    let mut next = Some(head);
    while let Some(id) = next {
        if Some(id) == stop {
            break;
        }
        let packed = packs
            .read_commit(&id)
            .and_then(Result::ok)
            .and_then(|data| {
                let mut fields = gix::objs::CommitRefIter::from_bytes(&data, repo.object_hash());
                let tree = fields.tree_id().ok()?;
                Some((tree, fields.parent_ids().next()))
            });
        let (tree, parent) = match packed {
            Some(found) => found,
            None => {
                let commit = repo
                    .find_commit(id)
                    .map_err(|e| git_err(path, "walking history", e))?;
                let tree = commit
                    .tree_id()
                    .map_err(|e| git_err(path, "walking history", e))?
                    .detach();
                (tree, commit.parent_ids().next().map(|p| p.detach()))
            }
        };
        next = parent;
        ids.push((id, tree));
    }
    ids.reverse();
    Ok(ids)
}

/// The epoch opened once, for reading many of its messages by commit
/// ([`message_in`]); its objects cached as an ingest's are.
pub fn open_epoch(path: &Path) -> Result<gix::Repository> {
    open_repo(path).map_err(|e| git_err(path, "opening the epoch", e))
}

/// The message (blob `m`) of commit `commit` in the epoch opened
/// ([`open_epoch`]) from `path`, byte for byte as the epoch holds it: a
/// message read from an epoch is not copied into the database, since the
/// epoch keeps it under its commit id (`mail --raw` and the bodies of such
/// messages are read here, through `pipeline::epoch_bodies`).
pub fn message_in(repo: &gix::Repository, path: &Path, commit: &str) -> Result<Vec<u8>> {
    let id = ObjectId::from_hex(commit.as_bytes())
        .map_err(|e| git_err(path, &format!("reading commit {commit}"), e))?;
    let what = format!("reading the message of commit {commit}");
    let tree = repo
        .find_commit(id)
        .and_then(|c| c.tree_id().map(|t| t.detach()))
        .map_err(|e| git_err(path, &what, e))?;
    let tree = repo.find_tree(tree).map_err(|e| git_err(path, &what, e))?;
    let entry = tree
        .find_entry("m")
        .ok_or_else(|| git_err(path, &what, "the commit holds no blob `m`"))?;
    let blob = repo
        .find_object(entry.oid())
        .map_err(|e| git_err(path, &what, e))?;
    Ok(blob.detach().data)
}

/// The epoch repository at `path`, opened (and its packs mapped) anew, with
/// [`OBJECT_CACHE`].
fn open_repo(path: &Path) -> gix::Result<gix::Repository> {
    let mut repo = gix::open(path)?;
    repo.object_cache_size_if_unset(OBJECT_CACHE);
    Ok(repo)
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
        // Said as the epoch being opened (while another may be read); as
        // the one being read from its first message on.
        let _opening = super::sigbus::Opening::of(path);
        let repo = open_repo(path).map_err(|e| git_err(path, "opening repository", e))?;
        let packs = PackReader::open(repo.objects.store_ref().path(), repo.object_hash());
        if let Some(first) = packs.damaged().first() {
            return Err(Error::Git {
                path: path.to_path_buf(),
                reason: format!("pack {first}; nothing is read from this epoch"),
            });
        }
        let mut reader = EpochReader {
            repo,
            path: path.to_path_buf(),
            key,
            commits: Vec::new().into_iter(),
            packs,
            since_mark: 0,
            last: None,
            unread: Vec::new(),
            retry: Vec::new().into_iter(),
            pending: VecDeque::new(),
            stopped: None,
            finished: false,
            announced: false,
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
        let ids = walk_new_commits(&reader.repo, &mut reader.packs, path, head, last_known)?;
        let blobs = blobs_of(&reader.repo, path, &ids);
        // The trees were read through gix's own mapping of the pack.
        reader.unmap();
        let locs = reader.packs.plan(
            blobs
                .iter()
                .map(|b| b.as_ref().ok().and_then(Option::as_deref)),
        );
        reader.pending.push_back(Item::Planned {
            messages: ids.len() as u64,
        });
        reader.commits = ids
            .into_iter()
            .zip(blobs)
            .zip(locs)
            .map(|(((id, _), blob), loc)| (id, blob, loc))
            .collect::<Vec<_>>()
            .into_iter();
        Ok(reader)
    }

    /// Where the message of commit `id` comes from.
    fn origin(&self, id: ObjectId) -> Origin {
        Origin::Git {
            repo: self.key.clone(),
            commit: id.to_hex().to_string(),
        }
    }

    /// The message of commit `id` (blob `blob`, at `loc` in a pack).
    fn read_message(
        &mut self,
        id: ObjectId,
        blob: ObjectId,
        loc: Option<Loc>,
    ) -> Result<RawMessage> {
        let origin = self.origin(id);
        let read = match loc.map(|l| self.packs.read(l)) {
            // gix would read it through its own mapping of the pack.
            Some(Err(e)) if e.shrunk => Err(e),
            None | Some(Err(_)) => self.packs.shrunk().map_or(Ok(None), Err),
            Some(Ok(bytes)) => Ok(Some(bytes)),
        };
        let read = match read {
            Ok(read) => read,
            Err(e) => {
                self.stopped = Some(e.to_string());
                return Err(Error::Message {
                    origin: origin.describe(),
                    reason: format!("reading blob m: {e}"),
                });
            }
        };
        let bytes = match read {
            Some(bytes) => bytes,
            // Not in a pack, or not decodable here: gix reads it (or says why not).
            _ => match self.repo.find_object(blob) {
                Ok(b) => b.detach().data,
                Err(e) => {
                    return Err(Error::Message {
                        origin: origin.describe(),
                        reason: format!("reading blob m: {e}"),
                    });
                }
            },
        };
        Ok(RawMessage {
            origin,
            bytes: bytes.into(),
            format: RawFormat::Rfc822,
        })
    }

    /// Pack files are memory-mapped: reopening the repository unmaps what gix
    /// read so far, so resident memory stays bounded on huge epochs (the pack
    /// reader bounds its own, [`PackReader::remap`]).
    fn unmap(&mut self) {
        if let Ok(repo) = open_repo(&self.path) {
            self.repo = repo;
        }
    }

    fn mark(&mut self) -> Option<Item> {
        self.since_mark = 0;
        if !self.finished {
            self.unmap();
        }
        self.last.map(|id| Item::Mark {
            source: self.key.clone(),
            kind: KIND.to_string(),
            last_commit: id.to_hex().to_string(),
        })
    }
}

/// The blob `m` of each commit's tree (`None` for a deletion commit), or why
/// the tree could not be read; trees are read on the rayon pool, through a
/// repository opened anew for every [`TREES_PER_MAPPING`] of them (see there).
fn blobs_of(repo: &gix::Repository, path: &Path, ids: &[(ObjectId, ObjectId)]) -> Vec<BlobOf> {
    use rayon::prelude::*;
    let mut blobs = Vec::with_capacity(ids.len());
    for (k, chunk) in ids.chunks(TREES_PER_MAPPING).enumerate() {
        let fresh = (k > 0).then(|| open_repo(path).ok()).flatten();
        let shared = fresh.unwrap_or_else(|| repo.clone()).into_sync();
        blobs.par_extend(chunk.par_iter().map_init(
            || shared.to_thread_local(),
            |repo, (_, tree)| match repo.find_tree(*tree) {
                Ok(t) => Ok(t.find_entry("m").map(|e| e.oid().to_owned())),
                Err(e) => Err(format!("reading tree: {e}")),
            },
        ));
    }
    blobs
}

impl EpochReader {
    /// Reads the messages of `commits` (that failed in an earlier run)
    /// before the new ones: each is a message again, or the same failure.
    pub fn retrying(mut self, commits: Vec<String>) -> EpochReader {
        self.retry = commits.into_iter();
        self.finished &= self.retry.len() == 0;
        self
    }

    /// The next commit that failed before, read again.
    fn next_retry(&mut self) -> Option<Item> {
        let commit = self.retry.next()?;
        let origin = Origin::Git {
            repo: self.key.clone(),
            commit: commit.clone(),
        };
        Some(Item::Raw(
            match message_in(&self.repo, &self.path, &commit) {
                Ok(bytes) => Ok(RawMessage {
                    origin,
                    bytes: bytes.into(),
                    format: RawFormat::Rfc822,
                }),
                Err(e) => Err(Error::Message {
                    origin: origin.describe(),
                    reason: match e {
                        Error::Git { reason, .. } => reason,
                        other => other.to_string(),
                    },
                }),
            },
        ))
    }

    /// Commit `id` was read, holds no message, or could not be read and is
    /// kept among the failures (read again on every run): progress passes
    /// it, so a message missing for good does not make every later run
    /// read everything after it again.
    fn read_through(&mut self, id: ObjectId) {
        self.last = Some(id);
    }

    /// Queues what the end of the epoch hands out: the last mark, then, when
    /// the epoch ended early or some commits could not be read, the input
    /// errors that say so.
    fn finish(&mut self) {
        self.finished = true;
        if let Some(mark) = self.mark() {
            self.pending.push_back(mark);
        }
        if let Some(why) = &self.stopped {
            let left = self.commits.len();
            self.pending.push_back(Item::InputError {
                path: self.path.display().to_string(),
                reason: format!(
                    "{}: reading stopped: {why}; {left} later commit{} not read",
                    self.path.display(),
                    if left == 1 { " is" } else { "s are" }
                ),
            });
        }
        if !self.unread.is_empty() {
            let n = self.unread.len();
            let listed: Vec<String> = self
                .unread
                .iter()
                .take(5)
                .map(|c| c.to_hex().to_string())
                .collect();
            let more = if n > listed.len() {
                format!(" and {} more", n - listed.len())
            } else {
                String::new()
            };
            self.pending.push_back(Item::InputError {
                path: self.path.display().to_string(),
                reason: format!(
                    "{}: the message of {n} commit{} could not be read ({}{more}); \
                     they are kept among the failures and read again on every run",
                    self.path.display(),
                    if n == 1 { "" } else { "s" },
                    listed.join(", "),
                ),
            });
        }
    }
}

impl Iterator for EpochReader {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        if !self.announced {
            self.announced = true;
            super::sigbus::reading(&self.path);
        }
        if let Some(item) = self.pending.pop_front() {
            return Some(item);
        }
        if let Some(item) = self.next_retry() {
            return Some(item);
        }
        if self.finished {
            return None;
        }
        if self.since_mark >= MARK_EVERY {
            if let Some(mark) = self.mark() {
                return Some(mark);
            }
        }
        loop {
            let Some((id, blob, loc)) = self.commits.next() else {
                self.finish();
                return self.pending.pop_front();
            };
            self.since_mark += 1;
            match blob {
                Ok(Some(blob)) => {
                    let read = self.read_message(id, blob, loc);
                    if read.is_err() {
                        self.unread.push(id);
                    }
                    self.read_through(id);
                    if self.stopped.is_some() {
                        self.finish();
                    }
                    return Some(Item::Raw(read));
                }
                Ok(None) => self.read_through(id),
                Err(reason) => {
                    self.unread.push(id);
                    self.read_through(id);
                    return Some(Item::Raw(Err(Error::Message {
                        origin: self.origin(id).describe(),
                        reason,
                    })));
                }
            }
        }
    }
}
