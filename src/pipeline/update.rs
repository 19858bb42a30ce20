//! An update of the database from mail: the stages of an ingest, in their
//! order. `regtrack ingest`, `fetch` and `follow` call [`update`]; so can a
//! program using the library, and it gets what the commands do.
//!
//! 1. **store** ([`super::ingest`]): the inputs read, parsed, extracted and
//!    written; a load into an empty database builds its deferred indexes
//!    behind, on a connection of their own;
//! 2. **re-extract** ([`super::reindex`]): messages an older extractor
//!    stored are extracted again, once the indexes are built (both write);
//! 3. **trees** ([`super::trees`]): every followed kernel tree read from
//!    the last commit read; a tree that cannot be read stores nothing, is
//!    named, and the update goes on;
//! 4. **relink** ([`super::relink`]): threads and histories brought up to
//!    date, read while the indexes are built and written once they are.
//!
//! What happens meanwhile is told to a [`Watch`] (progress, the trees read);
//! an error names the [`Stage`] it ended.

use std::path::PathBuf;

use super::ingest::{Progress, Summary};
use super::reindex::Reindexed;
use super::relink::{Relinked, Unreadable};
use super::trees::TreeSynced;
use crate::error::{Error, Result};
use crate::store::Store;

/// What an update tells as it goes. Every method does nothing unless
/// implemented; all are called on the thread that called [`update`], but
/// for [`Watch::stored_progress`], which the store stage may call from its
/// writer.
pub trait Watch: Sync {
    /// The store stage wrote a batch; `p` says how far it is.
    fn stored_progress(&self, _p: &Progress) {}
    /// The store stage wrote its last batch (its indexes may still be
    /// building): memory it held can be given back.
    fn stored(&self) {}
    /// The re-extraction starts, for `pending` messages.
    fn reextracting(&self, _pending: u64) {}
    /// The re-extraction extracted `done` of `total` messages.
    fn reextract_progress(&self, _done: u64, _total: u64) {}
    /// The re-extraction ended.
    fn reextracted(&self, _r: &Reindexed) {}
    /// A followed tree was read (or could not be: nothing of it stored).
    fn tree_synced(&self, _name: &str, _r: &Result<TreeSynced>) {}
}

/// A [`Watch`] told nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unwatched;

impl Watch for Unwatched {}

/// The stages of an update, as [`UpdateError`] names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Reading and writing the mail.
    Store,
    /// Building the indexes a load into an empty database deferred.
    Indexes,
    /// Counting the messages an older extractor stored.
    Count,
    /// Extracting them again.
    Reextract,
    /// Looking up which trees are followed.
    Trees,
    /// Reading the followed trees.
    TreeSync,
    /// Linking threads and histories.
    Relink,
}

/// An error that ended an update, with the stage it ended.
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub struct UpdateError {
    /// The stage.
    pub stage: Stage,
    /// What went wrong.
    #[source]
    pub error: Box<Error>,
}

/// What an update did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Updated {
    /// What the store stage read and wrote (`trees_failed` set when a
    /// followed tree could not be read).
    pub summary: Summary,
    /// What the re-extraction did, when there was one.
    pub reextracted: Option<Reindexed>,
    /// What the relink did.
    pub relinked: Relinked,
    /// What the relink could not read.
    pub unreadable: Unreadable,
    /// Seconds the relink took, from its start to the end of the index
    /// build when that ended later.
    pub link_seconds: f64,
}

/// Updates `store` from the mail of `paths` (every input read from its
/// start with `reread`), telling `watch` as it goes: the stages in the
/// module docs, in their order.
pub fn update(
    store: &mut Store,
    paths: &[PathBuf],
    reread: bool,
    watch: &dyn Watch,
) -> std::result::Result<Updated, UpdateError> {
    let at = |stage: Stage| {
        move |error: Error| UpdateError {
            stage,
            error: Box::new(error),
        }
    };
    let on_progress = |p: &Progress| watch.stored_progress(p);
    let (mut summary, mut indexes) =
        super::ingest::ingest_indexing_behind_with(store, paths, &on_progress, reread)
            .map_err(at(Stage::Store))?;
    watch.stored();
    let mut updated = Updated::default();
    // Messages an older regtrack stored are extracted again first (once the
    // indexes are built: both write).
    let pending = super::reindex::pending(store).map_err(at(Stage::Count))?;
    if pending > 0 {
        indexes.wait().map_err(at(Stage::Indexes))?;
        updated.reextracted = Some(reextract(store, pending, watch).map_err(at(Stage::Reextract))?);
    }
    // The followed kernel trees, after the mail: a tree that cannot be read
    // is said and stores nothing; the mail is linked all the same.
    if crate::store::trees::any(store).map_err(at(Stage::Trees))? {
        indexes.wait().map_err(at(Stage::Indexes))?;
        summary.trees_failed = !sync_trees(store, watch).map_err(at(Stage::TreeSync))?;
    }
    // Relinks only when messages, marks or the link logic changed since the
    // last link (`link_state`); an unchanged input returns at once. A bulk
    // load's indexes are built meanwhile, on another connection; the linker
    // writes once they are.
    let linking = std::time::Instant::now();
    let (relinked, unreadable) =
        super::relink::relink_with(store, &mut || indexes.wait()).map_err(at(Stage::Relink))?;
    indexes.wait().map_err(at(Stage::Indexes))?;
    indexes.account(&mut summary);
    updated.link_seconds = linking.elapsed().as_secs_f64();
    updated.summary = summary;
    updated.relinked = relinked;
    updated.unreadable = unreadable;
    Ok(updated)
}

/// The re-extraction stage: extracts again the `pending` messages an older
/// extractor stored ([`super::reindex::reindex`]), telling `watch`.
pub fn reextract(store: &mut Store, pending: u64, watch: &dyn Watch) -> Result<Reindexed> {
    watch.reextracting(pending);
    let progress = |done: u64, total: u64| watch.reextract_progress(done, total);
    let done = super::reindex::reindex(store, &progress)?;
    watch.reextracted(&done);
    Ok(done)
}

/// The trees stage: reads every followed tree from the last commit read
/// ([`super::trees::sync_all`]), telling `watch` what each did; false when
/// one could not be read (nothing of it is stored).
pub fn sync_trees(store: &Store, watch: &dyn Watch) -> Result<bool> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let mut ok = true;
    for (name, r) in super::trees::sync_all(store, now)? {
        ok &= r.is_ok();
        watch.tree_synced(&name, &r);
    }
    Ok(ok)
}
