//! Walking a ref: the commits new since the tip read last time, and those
//! that vanished when the ref was force-pushed.
//!
//! Both walks go newest first by committer time, like `git log`. A first
//! walk streams every reachable commit, parsing each object once when it is
//! first seen; it holds a set of the ids seen and the frontier of the walk,
//! never the commits already delivered. An update paints commits reachable
//! from the new tip and from the old one (git's merge-base painting), reading
//! only headers, until every queued commit is reachable from both; it then
//! reads and delivers the commits reachable from the new tip only.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::ops::ControlFlow;

use gix::ObjectId;
use gix::hashtable::{HashMap, HashSet};

use super::commit::Commit;
use super::error::{Result, TreesError};
use super::repo::{Reader, Repo};

/// Clock skew tolerated when a walk stops on dates (seconds). Like git's
/// date-ordered walks without generation numbers, a commit dated more than
/// this after one of its descendants may be misclassified.
pub const SKEW_TOLERANCE: i64 = 24 * 3600;

/// What a walk found, besides the commits it delivered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkOutcome {
    /// The ref's tip now: hand it back as `since` next time.
    pub tip: ObjectId,
    /// Commits delivered to the callback.
    pub delivered: u64,
    /// The ref was not fast-forwarded: the old tip is not an ancestor of the
    /// new one (a rebase, a rebuilt linux-next, a reset).
    pub forced: bool,
    /// Commits reachable from the old tip but not from the new one, newest
    /// first (empty unless `forced`).
    pub vanished: Vec<ObjectId>,
    /// Merge bases of the old and new tips (the old tip itself after a
    /// fast-forward; empty on a first walk or for unrelated histories).
    pub merge_bases: Vec<ObjectId>,
    /// The repository is shallow: history stops at its boundary.
    pub shallow: bool,
    /// The callback asked to stop: later commits were not delivered.
    pub stopped: bool,
}

/// A commit waiting in a first walk's queue.
struct Queued {
    seq: u64,
    commit: Commit,
}

impl Queued {
    fn key(&self) -> (i64, Reverse<u64>) {
        (self.commit.committer_time, Reverse(self.seq))
    }
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl Repo {
    /// Walks `refname`: delivers to `each`, newest first by committer time,
    /// every commit reachable from its tip and not from `since` (the tip
    /// returned last time; `None` for a first walk, which delivers the whole
    /// history). `each` may stop the walk with [`ControlFlow::Break`].
    ///
    /// After a force push the outcome lists the commits that vanished (from
    /// the merge base of the two tips up to the old tip). `since` must still
    /// be in the repository (git keeps unreachable objects until gc prunes
    /// them); else the error is [`TreesError::MissingObject`], and a first
    /// walk is the way out.
    pub fn walk(
        &self,
        refname: &str,
        since: Option<ObjectId>,
        mut each: impl FnMut(Commit) -> ControlFlow<()>,
    ) -> Result<WalkOutcome> {
        let tip = self.resolve(refname)?;
        let mut reader = Reader::new(self, refname)?;
        let mut out = WalkOutcome {
            tip,
            delivered: 0,
            forced: false,
            vanished: Vec::new(),
            merge_bases: Vec::new(),
            shallow: self.is_shallow(),
            stopped: false,
        };
        match since {
            None => first_walk(&mut reader, tip, &mut each, &mut out)?,
            Some(old) if old == tip => out.merge_bases.push(tip),
            Some(old) => {
                reader.header(&old).map_err(|e| match e {
                    TreesError::MissingObject { path, refname, id } => TreesError::MissingObject {
                        path,
                        refname: format!("{refname} (the tip read last time)"),
                        id,
                    },
                    other => other,
                })?;
                let painted = Paint::run(&mut reader, tip, old)?;
                out.forced = painted.forced;
                out.vanished = painted.vanished;
                out.merge_bases = painted.merge_bases;
                for id in painted.new {
                    let c = reader.commit(&id)?;
                    out.delivered += 1;
                    if each(c).is_break() {
                        out.stopped = true;
                        break;
                    }
                }
            }
        }
        Ok(out)
    }

    /// True when commit `commit` is reachable from `refname`'s tip. A commit
    /// that is not in this repository at all is not contained.
    ///
    /// With a commit-graph file holding `commit` (git writes one on gc), the
    /// search reads parents and generation numbers from it and skips every
    /// commit of a lower generation; commits newer than the graph are read
    /// from their objects. Without one it walks back by date to
    /// [`SKEW_TOLERANCE`] before `commit`'s date: for an old commit that is
    /// most of the history (see `benches/trees.md`).
    pub fn contains(&self, refname: &str, commit: &gix::oid) -> Result<bool> {
        let tip = self.resolve(refname)?;
        let mut reader = Reader::new(self, refname)?;
        let target = match reader.header(commit) {
            Ok(h) => h.time,
            Err(TreesError::MissingObject { .. }) => return Ok(false),
            Err(e) => return Err(e),
        };
        if tip == commit {
            return Ok(true);
        }
        if !self.is_shallow()
            && let Some(graph) = reader.commit_graph()
            && let Some(pos) = graph.lookup(commit)
        {
            return contains_in_graph(&mut reader, &graph, tip, pos);
        }
        let floor = target.saturating_sub(SKEW_TOLERANCE);
        let mut seen: HashSet<ObjectId> = HashSet::default();
        let mut heap = BinaryHeap::new();
        let mut seq = 0u64;
        seen.insert(tip);
        let h = reader.header(&tip)?;
        heap.push((h.time, Reverse(seq), tip, h.parents));
        while let Some((time, _, id, parents)) = heap.pop() {
            if id == commit {
                return Ok(true);
            }
            if time < floor {
                break;
            }
            for p in parents {
                if seen.insert(p) {
                    seq += 1;
                    let h = reader.header(&p)?;
                    heap.push((h.time, Reverse(seq), p, h.parents));
                }
            }
        }
        Ok(false)
    }

    /// The refs among `refnames` whose tips contain `commit` (see
    /// [`Repo::contains`]).
    pub fn refs_containing<'n>(
        &self,
        refnames: &[&'n str],
        commit: &gix::oid,
    ) -> Result<Vec<&'n str>> {
        let mut out = Vec::new();
        for r in refnames {
            if self.contains(r, commit)? {
                out.push(*r);
            }
        }
        Ok(out)
    }
}

/// Whether `target` (at `target_pos` in `graph`) is reachable from `tip`:
/// commits missing from the graph (newer than it) are read from their
/// objects, the rest from the graph, skipping generations at or below the
/// target's.
fn contains_in_graph(
    reader: &mut Reader<'_>,
    graph: &gix::commitgraph::Graph,
    tip: ObjectId,
    target_pos: gix::commitgraph::Position,
) -> Result<bool> {
    let target_gen = graph.commit_at(target_pos).generation();
    let mut seen_pos = vec![false; graph.num_commits() as usize];
    let mut positions = Vec::new();
    let mut seen: HashSet<ObjectId> = HashSet::default();
    let mut ids = vec![tip];
    seen.insert(tip);
    while let Some(id) = ids.pop() {
        if let Some(pos) = graph.lookup(id) {
            if let Some(s) = seen_pos.get_mut(pos.0 as usize)
                && !*s
            {
                *s = true;
                positions.push(pos);
            }
            continue;
        }
        for p in reader.header(&id)?.parents {
            if seen.insert(p) {
                ids.push(p);
            }
        }
    }
    while let Some(pos) = positions.pop() {
        if pos == target_pos {
            return Ok(true);
        }
        let c = graph.commit_at(pos);
        if c.generation() <= target_gen {
            continue;
        }
        for p in c.iter_parents() {
            let p = p.map_err(|e| TreesError::Git {
                path: reader.repo.path().to_path_buf(),
                refname: reader.refname.clone(),
                reason: format!("commit-graph: {e}"),
            })?;
            if let Some(s) = seen_pos.get_mut(p.0 as usize)
                && !*s
            {
                *s = true;
                positions.push(p);
            }
        }
    }
    Ok(false)
}

/// Streams everything reachable from `tip`.
fn first_walk(
    reader: &mut Reader<'_>,
    tip: ObjectId,
    each: &mut impl FnMut(Commit) -> ControlFlow<()>,
    out: &mut WalkOutcome,
) -> Result<()> {
    let mut seen: HashSet<ObjectId> = HashSet::default();
    let mut heap = BinaryHeap::new();
    let mut seq = 0u64;
    seen.insert(tip);
    heap.push(Queued {
        seq,
        commit: reader.commit(&tip)?,
    });
    while let Some(Queued { commit, .. }) = heap.pop() {
        for p in reader.parents_to_follow(&commit) {
            if seen.insert(*p) {
                seq += 1;
                heap.push(Queued {
                    seq,
                    commit: reader.commit(p)?,
                });
            }
        }
        out.delivered += 1;
        if each(commit).is_break() {
            out.stopped = true;
            break;
        }
    }
    Ok(())
}

/// Reachable from the new tip.
const NEW: u8 = 1;
/// Reachable from the old tip.
const OLD: u8 = 2;
const BOTH: u8 = NEW | OLD;
/// Reachable from a commit reachable from both: not a merge base.
const STALE: u8 = 4;
/// Popped as reachable from both and not stale: a merge-base candidate.
const RESULT: u8 = 8;

struct Node {
    flags: u8,
    queued: bool,
    popped: bool,
    time: i64,
    parents: Box<[ObjectId]>,
}

/// The result of painting.
struct Painted {
    new: Vec<ObjectId>,
    vanished: Vec<ObjectId>,
    merge_bases: Vec<ObjectId>,
    forced: bool,
}

/// Merge-base painting from two tips, by committer date, with flags that
/// may grow after a commit was popped (it is then queued again, so clock
/// skew inside the walked range cannot leave a commit misclassified).
struct Paint {
    nodes: HashMap<ObjectId, Node>,
    heap: BinaryHeap<(i64, Reverse<u64>, ObjectId)>,
    seq: u64,
    /// Queued commits not reachable from both tips.
    active: usize,
    /// Commits in the order first popped (newest first).
    order: Vec<ObjectId>,
}

impl Paint {
    fn run(reader: &mut Reader<'_>, new: ObjectId, old: ObjectId) -> Result<Painted> {
        let mut p = Paint {
            nodes: HashMap::default(),
            heap: BinaryHeap::new(),
            seq: 0,
            active: 0,
            order: Vec::new(),
        };
        p.add(reader, new, NEW)?;
        p.add(reader, old, OLD)?;
        // The oldest commit popped while reachable from one tip only.
        let mut oldest_one_sided = i64::MAX;
        loop {
            if p.active == 0 {
                // Everything queued is reachable from both: carry on a little
                // below the oldest one-sided commit, for skewed dates.
                match p.heap.peek() {
                    Some(&(t, _, _)) if t >= oldest_one_sided.saturating_sub(SKEW_TOLERANCE) => {}
                    _ => break,
                }
            }
            let Some((_, _, id)) = p.heap.pop() else {
                break;
            };
            let Some(node) = p.nodes.get_mut(&id) else {
                continue;
            };
            node.queued = false;
            let f = node.flags;
            if f & BOTH != BOTH {
                p.active -= 1;
                oldest_one_sided = oldest_one_sided.min(node.time);
            }
            if !node.popped {
                node.popped = true;
                p.order.push(id);
            }
            let mut down = f & (BOTH | STALE);
            if f & BOTH == BOTH && f & STALE == 0 {
                node.flags |= RESULT;
                down |= STALE;
            }
            let parents = node.parents.clone();
            for parent in parents.iter() {
                p.add(reader, *parent, down)?;
            }
        }
        let flags = |id: &ObjectId| p.nodes.get(id).map_or(0, |n| n.flags);
        let pick = |want: &dyn Fn(u8) -> bool| -> Vec<ObjectId> {
            p.order
                .iter()
                .filter(|id| want(flags(id)))
                .copied()
                .collect()
        };
        Ok(Painted {
            new: pick(&|f| f & BOTH == NEW),
            vanished: pick(&|f| f & BOTH == OLD),
            merge_bases: pick(&|f| f & RESULT != 0 && f & STALE == 0),
            forced: flags(&old) & NEW == 0,
        })
    }

    /// Adds `flags` to commit `id`, queueing it when they grew.
    fn add(&mut self, reader: &mut Reader<'_>, id: ObjectId, flags: u8) -> Result<()> {
        if let Some(n) = self.nodes.get_mut(&id) {
            let before = n.flags;
            let after = before | flags;
            if after == before {
                return Ok(());
            }
            n.flags = after;
            if n.queued {
                if before & BOTH != BOTH && after & BOTH == BOTH {
                    self.active -= 1;
                }
            } else {
                n.queued = true;
                if after & BOTH != BOTH {
                    self.active += 1;
                }
                self.seq += 1;
                self.heap.push((n.time, Reverse(self.seq), id));
            }
            return Ok(());
        }
        let h = reader.header(&id)?;
        if flags & BOTH != BOTH {
            self.active += 1;
        }
        self.seq += 1;
        self.heap.push((h.time, Reverse(self.seq), id));
        self.nodes.insert(
            id,
            Node {
                flags,
                queued: true,
                popped: false,
                time: h.time,
                parents: h.parents.into_boxed_slice(),
            },
        );
        Ok(())
    }
}
