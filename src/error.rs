//! Typed errors of the library. The CLI adds context with anyhow at its edge.

use std::path::PathBuf;

/// Errors the library returns.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file or folder could not be read.
    #[error("reading '{path}': {source}")]
    Io {
        /// The path that failed.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The input exists but is of no form regtrack reads.
    #[error("'{path}': {reason}")]
    Unrecognised {
        /// The path.
        path: PathBuf,
        /// Why it was not recognised.
        reason: String,
    },
    /// A git (public-inbox) archive could not be read.
    #[error("git archive '{path}': {reason}")]
    Git {
        /// The git directory.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// A message could not be parsed.
    #[error("{origin}: {reason}")]
    Message {
        /// Where the message came from.
        origin: String,
        /// Why it failed.
        reason: String,
    },
    /// A database error, with the SQL (or operation) that failed. SQLite's
    /// text is said once, here: the cause is kept but is no `source()` (its
    /// own chain repeats the text two more times).
    #[error("database: {context}: {cause}")]
    Db {
        /// The SQL statement or operation.
        context: String,
        /// The underlying error (SQLite's).
        cause: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The database file cannot be used as it is: missing (for a command
    /// that only reads), not a file, not SQLite, not regtrack's, or in need
    /// of a migration it cannot be given.
    #[error("database '{path}' {reason}")]
    Database {
        /// Database path.
        path: String,
        /// What is wrong, as a phrase after the path (`does not exist`).
        reason: String,
    },
    /// The database was written by a newer regtrack.
    #[error(
        "database '{path}' has schema version {found}, newer than this regtrack supports ({supported}); upgrade regtrack"
    )]
    SchemaTooNew {
        /// Database path.
        path: String,
        /// Version found in the file.
        found: i64,
        /// Highest version this build knows.
        supported: i64,
    },
    /// A followed kernel tree could not be read: nothing of it was stored.
    #[error("tree '{tree}': {cause}")]
    Tree {
        /// The tree's name.
        tree: String,
        /// What went wrong (names the path and the ref; said in the
        /// message, so no `source()`).
        cause: TreesError,
    },
    /// A query named nothing that exists, or was ambiguous.
    #[error("{0}")]
    Query(String),
}

/// Result alias for the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong reading a kernel tree ([`crate::trees`]): each names the
/// repository and the ref (or commit) being read.
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
    /// Bytes given to [`crate::trees::ReleaseIndex::from_bytes`] are not a release
    /// index.
    #[error("release index: {reason}")]
    BadIndex {
        /// What was wrong.
        reason: String,
    },
}
