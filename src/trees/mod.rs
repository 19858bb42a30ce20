//! Reading local kernel clones ("trees": mainline, linux-next, stable, a
//! maintainer's tree) with gix: what a followed ref gained or lost since it
//! was last read, what a commit says (trailers, reverts, backports), the
//! patch id of a commit or of a mailed patch, and the first release tag that
//! contains a commit. Pure reading, no `git` process, no database: the
//! caller stores what it is given (tips, commits, the release index bytes)
//! and hands it back next time.
//!
//! - [`Repo::open`], [`Repo::resolve`]: a repository (bare or not) and its
//!   refs (`HEAD`, `master`, `refs/heads/for-next`, `origin/master`).
//! - [`Repo::walk`]: the commits new on a ref since the tip read last time,
//!   streamed to a callback newest first, and after a force push the commits
//!   that vanished ([`WalkOutcome`]).
//! - [`Commit`]: id, parents, title, author, times, the `Fixes`, `Closes`,
//!   `Link`, `Reported-by`, `Tested-by` trailers (parsed by
//!   [`crate::evidence::trailer::parse_trailers`]), the reverted commit and
//!   a backport's upstream commit.
//! - [`Repo::contains`], [`Repo::refs_containing`]: which followed refs hold
//!   a fix or a culprit.
//! - [`Repo::patch_id`], [`patch_id_of_diff`]: `git patch-id --stable` of a
//!   commit and of a mailed patch, to match one with the other.
//! - [`ReleaseIndex`]: the first release (`v6.9-rc3`) containing each commit,
//!   as `git describe --contains` names it, built incrementally and stored
//!   as bytes.
//! - [`TreesError`]: each error names the repository and the ref.
//!
//! ```no_run
//! use std::ops::ControlFlow;
//! use regtrack::trees::{ReleaseIndex, Repo, patch_id_of_diff};
//!
//! # fn main() -> regtrack::trees::Result<()> {
//! let repo = Repo::open("/srv/linux-next.git")?;
//! let since = None; // or the `tip` stored after the last walk
//! let out = repo.walk("refs/heads/master", since, |c| {
//!     // store c.id, c.title, c.trailers, c.reverts, c.upstream ...
//!     ControlFlow::Continue(())
//! })?;
//! // store out.tip; forget out.vanished when out.forced
//! let mut releases = ReleaseIndex::new(); // or ReleaseIndex::from_bytes(&stored)?
//! releases.update(&repo)?; // walks only tags it has not seen
//! let first = releases.first_release(&out.tip).map(|t| t.name.as_str());
//! let same = repo.patch_id(&out.tip)? == patch_id_of_diff("diff --git a/x b/x\n...");
//! # let _ = (first, same, releases.to_bytes());
//! # Ok(())
//! # }
//! ```
//!
//! Design (measured on a synthetic mainline of 1.3 million commits made by
//! `scripts/synth-kernel-repo`; the method and the figures are in
//! `benches/trees.md`):
//!
//! - Walks are our own, over gix's object store: each commit object is
//!   inflated once, parsed fully in a first walk and only to its committer
//!   line when painting an update. Most of a first walk's CPU is gix
//!   inflating and looking up objects; an update costs in proportion to the
//!   commits it paints.
//! - Streaming with a callback, newest first, holding only the ids seen and
//!   the walk's frontier: the first walk's heap stays small. Its peak RSS
//!   is mostly pages of the pack index that gix maps whole; a gix handle
//!   opened anew every [`READS_PER_MAPPING`] objects drops them.
//! - Messages are parsed for trailers only when they hold one of a few
//!   literals; most commit messages hold none, and parsing all of them
//!   costs more CPU.
//! - Updates paint from both tips by date, as git's merge-base does, with
//!   flags that may still grow after a commit was popped, so skewed dates
//!   inside the walked range cannot misclassify a commit;
//!   [`SKEW_TOLERANCE`] bounds how far below the stopping point skew is
//!   looked for.
//! - The release index assigns each commit once, tags in version order; it
//!   reads parents from the commit-graph when there is one (several times
//!   faster than from the objects). It is 22 bytes a commit and answers a
//!   lookup by binary search. [`Repo::contains`] uses the commit-graph's
//!   generation numbers too, which find an old commit without walking to
//!   it.
//! - Patch ids render the commit's diff in git's format (imara-diff's Myers
//!   with git's hunk grouping) and feed it to the same reader as mail text,
//!   so both follow one definition; [`PatchId`] says where that may differ
//!   from git.

mod commit;
mod error;
mod guard;
mod patch_id;
mod release;
mod repo;
mod walk;

pub use commit::{Commit, KEPT_TRAILERS};
pub use error::{Result, TreesError};
pub use patch_id::{PatchId, patch_id_of_diff};
pub use release::{
    Release, ReleaseIndex, ReleaseTag, ReleaseUpdate, parse_release, release_at_most, release_tags,
};
pub use repo::{READS_PER_MAPPING, Repo};
pub use walk::{SKEW_TOLERANCE, WalkOutcome};

pub use gix::ObjectId;
