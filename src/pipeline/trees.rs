//! Syncing the followed kernel trees (`regtrack trees sync`, and `ingest`
//! after the mail): each tree's release index is updated from its tags,
//! each followed ref walked from the tip read last time
//! ([`crate::trees::Repo::walk`]), what it delivered stored with the first
//! release containing it, what vanished in a force push dropped, and the
//! releases of commits that had none looked up again when new tags came.
//! One tree is one transaction: a tree that cannot be read (not a
//! repository, a shallow clone, a missing ref, a corrupt object) is an
//! error naming it and its ref, and nothing of it is stored.
//!
//! A sync that changed what a tree holds records the commits it changed
//! (stored on a ref, dropped from one, given a release:
//! [`crate::store::trees::note_changed`]); the next link relinks the
//! histories those commits' keys reach (see
//! `crate::pipeline::relink::relink_incremental`). A sync that changed more
//! than [`CHANGED_CAP`] commits (a first sync, a tree rebuilt) makes the
//! next link relink everything instead
//! ([`crate::store::trees::set_pending`]).

use std::ops::ControlFlow;

use crate::error::{Error, Result};
use crate::store::Store;
use crate::store::trees::{self as st, TreeRow};
use crate::trees::{ObjectId, ReleaseIndex, Repo, TreesError};

/// Most commits one sync records as changed; past it the next link is a
/// full one (cheaper than looking up so many keys).
pub const CHANGED_CAP: usize = 20_000;

/// What a sync of one ref did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RefSynced {
    /// The ref.
    pub name: String,
    /// Its tip now.
    pub tip: String,
    /// Commits read (new on the ref).
    pub new: u64,
    /// Commits that vanished from it (force push).
    pub vanished: u64,
    /// The ref was force-pushed since the last read.
    pub forced: bool,
    /// This was the ref's first walk.
    pub first: bool,
}

/// What a sync of one tree did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TreeSynced {
    /// The tree's name.
    pub tree: String,
    /// Each followed ref.
    pub refs: Vec<RefSynced>,
    /// Release tags new to the index.
    pub new_tags: usize,
    /// Stored commits whose first release was found by the new tags.
    pub released: u64,
    /// Seconds it took.
    pub seconds: f64,
}

fn tree_err(tree: &TreeRow) -> impl Fn(TreesError) -> Error + '_ {
    move |cause| Error::Tree {
        tree: tree.name.clone(),
        cause,
    }
}

/// Syncs every recorded tree, each on its own; returns each one's outcome.
pub fn sync_all(store: &Store, now: i64) -> Result<Vec<(String, Result<TreeSynced>)>> {
    let trees = st::list(store)?;
    Ok(trees
        .iter()
        .map(|t| (t.name.clone(), sync_tree(store, t, now)))
        .collect())
}

/// Checks that `path` is a git repository, not shallow, holding every ref
/// of `refs` (what `regtrack trees add` refuses otherwise).
pub fn check(name: &str, path: &str, refs: &[String]) -> Result<()> {
    let err = |cause| Error::Tree {
        tree: name.to_string(),
        cause,
    };
    let repo = Repo::open(path).map_err(err)?;
    if repo.is_shallow() {
        return Err(err(TreesError::Shallow {
            path: repo.path().to_path_buf(),
        }));
    }
    for r in refs {
        repo.resolve(r).map_err(err)?;
    }
    Ok(())
}

/// Syncs one tree in one transaction.
pub fn sync_tree(store: &Store, tree: &TreeRow, now: i64) -> Result<TreeSynced> {
    let started = std::time::Instant::now();
    let err = tree_err(tree);
    let repo = Repo::open(&tree.path).map_err(&err)?;
    if repo.is_shallow() {
        return Err(err(TreesError::Shallow {
            path: repo.path().to_path_buf(),
        }));
    }
    // Every ref resolves before anything is written.
    for r in &tree.refs {
        repo.resolve(&r.name).map_err(&err)?;
    }
    let mut out = TreeSynced {
        tree: tree.name.clone(),
        ..TreeSynced::default()
    };
    let mut changed: Vec<String> = Vec::new();
    let note = |oid: String, changed: &mut Vec<String>| {
        if changed.len() <= CHANGED_CAP {
            changed.push(oid);
        }
    };
    store.in_write("syncing a tree", |s| {
        changed.clear();
        let stored = st::releases(s, tree.id)?;
        let mut index = match &stored {
            Some(b) => ReleaseIndex::from_bytes(b).unwrap_or_default(),
            None => ReleaseIndex::new(),
        };
        let update = index.update(&repo).map_err(&err)?;
        let index_changed = stored.is_none() || !update.new_tags.is_empty() || update.rebuilt;
        drop(stored);
        out.new_tags = update.new_tags.len();
        if !update.new_tags.is_empty() || update.rebuilt {
            // Stored commits that a new tag may have released.
            for (ref_id, commit, oid) in st::held_commits(s, tree.id, !update.rebuilt)? {
                let Ok(id) = ObjectId::from_hex(oid.as_bytes()) else {
                    continue;
                };
                let rel = index.first_release(&id).map(|t| t.name.as_str());
                if rel.is_some() || update.rebuilt {
                    out.released += u64::from(rel.is_some());
                    st::set_release(s, ref_id, commit, rel)?;
                    note(oid, &mut changed);
                }
            }
        }
        for r in &tree.refs {
            let since = r
                .tip
                .as_deref()
                .and_then(|t| ObjectId::from_hex(t.as_bytes()).ok());
            let mut failed: Option<Error> = None;
            let mut walked_oids: Vec<String> = Vec::new();
            let mut walk = |since: Option<ObjectId>, failed: &mut Option<Error>| {
                repo.walk(&r.name, since, |c| {
                    let rel = index.first_release(&c.id).map(|t| t.name.as_str());
                    if walked_oids.len() <= CHANGED_CAP {
                        walked_oids.push(c.id.to_string());
                    }
                    match st::put_commit(s, r.id, &c, rel) {
                        Ok(_) => ControlFlow::Continue(()),
                        Err(e) => {
                            *failed = Some(e);
                            ControlFlow::Break(())
                        }
                    }
                })
            };
            let (walked, first) = match walk(since, &mut failed) {
                // The tip read last time is gone (gc after a force push):
                // read the ref afresh.
                Err(TreesError::MissingObject { refname, .. })
                    if since.is_some() && refname.contains("(the tip read last time)") =>
                {
                    st::clear_ref(s, r.id)?;
                    (walk(None, &mut failed), true)
                }
                w => (w, since.is_none()),
            };
            if let Some(e) = failed {
                return Err(e);
            }
            let walked = walked.map_err(&err)?;
            let vanished: Vec<String> = walked.vanished.iter().map(|v| v.to_string()).collect();
            st::vanish(s, r.id, &vanished)?;
            for o in walked_oids.into_iter().chain(vanished.iter().cloned()) {
                note(o, &mut changed);
            }
            let tip = walked.tip.to_string();
            st::set_tip(s, r.id, &tip, now)?;
            out.refs.push(RefSynced {
                name: r.name.clone(),
                tip,
                new: walked.delivered,
                vanished: vanished.len() as u64,
                forced: walked.forced,
                first,
            });
        }
        if index_changed {
            st::set_releases(s, tree.id, &index.to_bytes(), now)?;
        } else {
            st::set_synced(s, tree.id, now)?;
        }
        let any_change = out.released > 0 || out.refs.iter().any(|r| r.new > 0 || r.vanished > 0);
        if changed.len() > CHANGED_CAP {
            st::set_pending(
                s,
                &format!(
                    "tree '{}' changed in more than {CHANGED_CAP} commits",
                    tree.name
                ),
            )?;
        } else if any_change {
            st::note_changed(s, &changed)?;
        }
        Ok(())
    })?;
    out.seconds = started.elapsed().as_secs_f64();
    Ok(out)
}

/// Patch-id matching of commits, when a history needs it: a patch of the
/// history whose title no candidate commit has (reworded when applied) is
/// looked for among its author's commits from a day before its posting to
/// half a year after it ([`PATCH_ID_WINDOW`], at most [`PATCH_ID_CANDIDATES`]),
/// by `git patch-id --stable` of the mailed diff and of each commit's diff
/// against its first parent. Patch ids of commits are computed from the
/// followed trees' repositories and kept for the rest of the link.
pub struct PatchIds {
    trees: Vec<String>,
    repos: Vec<Option<Repo>>,
    opened: bool,
    known: std::collections::HashMap<String, Option<crate::trees::PatchId>>,
}

/// Seconds before and after a posting within which its commit is looked for.
pub const PATCH_ID_WINDOW: (i64, i64) = (86_400, 180 * 86_400);
/// Most commits of one author whose patch id one patch is compared with.
pub const PATCH_ID_CANDIDATES: usize = 100;

impl PatchIds {
    /// For the followed trees of `store`.
    pub fn new(store: &Store) -> Result<PatchIds> {
        Ok(PatchIds {
            trees: st::list(store)?.into_iter().map(|t| t.path).collect(),
            repos: Vec::new(),
            opened: false,
            known: std::collections::HashMap::new(),
        })
    }

    /// The patch id of commit `oid`, from the first tree that has it.
    fn of(&mut self, oid: &str) -> Option<crate::trees::PatchId> {
        if let Some(p) = self.known.get(oid) {
            return *p;
        }
        if !self.opened {
            self.repos = self.trees.iter().map(|p| Repo::open(p).ok()).collect();
            self.opened = true;
        }
        let id = ObjectId::from_hex(oid.as_bytes()).ok()?;
        let found = self
            .repos
            .iter()
            .flatten()
            .find_map(|r| r.patch_id(&id).ok().flatten());
        self.known.insert(oid.to_string(), found);
        found
    }

    /// The commits sharing a patch id with a patch of `r` whose title no
    /// commit of `have` carries, each with `patch_of` set to that posting.
    pub fn commits_for(
        &mut self,
        store: &Store,
        r: &crate::model::history::Regression,
        have: &[crate::link::trees::TreeCommit],
    ) -> Result<Vec<crate::link::trees::TreeCommit>> {
        use crate::link::hints::title_key;
        use crate::model::history::PatchRole;
        let mut out = Vec::new();
        if self.trees.is_empty() {
            return Ok(out);
        }
        // Posted patches only: an inline draft is rarely applied as it is.
        for p in r.patches.iter().filter(|p| p.role == PatchRole::Patch) {
            let key = title_key(if p.title.is_empty() {
                &p.subject
            } else {
                &p.title
            });
            if have.iter().any(|c| title_key(&c.title) == key) {
                continue;
            }
            // A body that cannot be read (its epoch moved away) gives no
            // patch id: the title is still matched.
            let m = match crate::store::body::stored_message(store, &p.message_id) {
                Ok(Some(m)) => m,
                Ok(None) | Err(crate::error::Error::Message { .. }) => continue,
                Err(e) => return Err(e),
            };
            let (Some(email), Some(date)) = (m.from_email.as_deref(), m.date) else {
                continue;
            };
            let Some(want) = crate::trees::patch_id_of_diff(&m.body) else {
                continue;
            };
            let window = (date - PATCH_ID_WINDOW.0, date + PATCH_ID_WINDOW.1);
            for (id, oid) in st::by_author(store, email, window, PATCH_ID_CANDIDATES)? {
                if self.of(&oid) == Some(want) {
                    let mut c = st::commit(store, id)?;
                    c.patch_of = Some(p.message_id.clone());
                    out.push(c);
                }
            }
        }
        Ok(out)
    }
}
