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
        cause: crate::trees::TreesError,
    },
    /// A query named nothing that exists, or was ambiguous.
    #[error("{0}")]
    Query(String),
}

/// Result alias for the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;
