//! Reading local kernel clones ("trees": mainline, linux-next, stable, a
//! maintainer's tree) with gix: what a followed ref gained or lost since it
//! was last read, what a commit says (trailers, reverts, backports), the
//! patch id of a commit or of a mailed patch, and the first release tag that
//! contains a commit. Pure reading: the caller stores what it is given (tips,
//! commits, the release index) and hands it back next time.
//!
//! - [`Repo::walk`]: commits new on a ref since the tip read last time, and
//!   after a force push the commits that vanished.
//! - [`Commit`]: ids, title, author, times, kept trailers, reverted and
//!   upstream commits.
//! - [`Repo::patch_id`] and [`patch_id_of_diff`]: `git patch-id --stable`.
//! - [`ReleaseIndex`]: the first release (`v6.9-rc3`) containing a commit,
//!   as `git describe --contains` names it.
//!
//! No `git` process is run.
#![allow(clippy::module_name_repetitions)]

mod commit;
mod error;
mod patch_id;
mod release;
mod repo;
mod walk;

pub use commit::{Commit, KEPT_TRAILERS};
pub use error::{Result, TreesError};
pub use patch_id::{PatchId, patch_id_of_diff};
pub use release::{Release, ReleaseIndex, ReleaseTag, ReleaseUpdate, parse_release, release_tags};
pub use repo::Repo;
pub use walk::{SKEW_TOLERANCE, WalkOutcome};

pub use gix::ObjectId;
