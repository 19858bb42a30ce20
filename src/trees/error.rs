//! The errors of [`crate::trees`]: each names the repository and the ref (or
//! commit) being read.

use std::path::PathBuf;

/// What went wrong reading a kernel tree.
#[derive(Debug, thiserror::Error)]
pub enum TreesError {
    /// `path` is not a git repository (or could not be opened as one).
    #[error("{}: not a git repository: {reason}", path.display())]
    NotARepository {
        /// The path given.
        path: PathBuf,
        /// Why gix would not open it.
        reason: String,
    },
    /// The repository is a shallow clone: history stops at the shallow
    /// boundary, so release lookup would be incomplete. Walks still work.
    #[error(
        "{}: shallow clone: history before the shallow boundary is missing, so release lookup would be incomplete (walks still work; `git fetch --unshallow` to fix)",
        path.display()
    )]
    Shallow {
        /// The repository.
        path: PathBuf,
    },
    /// The ref does not exist (or `HEAD` is unborn).
    #[error("{}: ref '{refname}' does not exist", path.display())]
    NoSuchRef {
        /// The repository.
        path: PathBuf,
        /// The ref as given.
        refname: String,
    },
    /// An object reachable from the ref is not in the repository.
    #[error("{}: ref '{refname}': object {id} is missing", path.display())]
    MissingObject {
        /// The repository.
        path: PathBuf,
        /// The ref (or commit) whose history was being read.
        refname: String,
        /// The missing object.
        id: String,
    },
    /// An object could not be decoded (bad compression, not a commit, bad
    /// header).
    #[error("{}: ref '{refname}': object {id} is corrupt: {reason}", path.display())]
    CorruptObject {
        /// The repository.
        path: PathBuf,
        /// The ref (or commit) whose history was being read.
        refname: String,
        /// The object.
        id: String,
        /// What was wrong with it.
        reason: String,
    },
    /// Any other failure reading the repository (refs, packs).
    #[error("{}: ref '{refname}': {reason}", path.display())]
    Git {
        /// The repository.
        path: PathBuf,
        /// The ref (or commit) being read.
        refname: String,
        /// What went wrong.
        reason: String,
    },
    /// Bytes given to [`super::ReleaseIndex::from_bytes`] are not a release
    /// index.
    #[error("release index: {reason}")]
    BadIndex {
        /// What was wrong.
        reason: String,
    },
}

/// Result of [`crate::trees`] functions.
pub type Result<T> = std::result::Result<T, TreesError>;
