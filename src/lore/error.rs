//! The errors of [`crate::lore`]: each one names the URL (or the input) it is about.

use std::path::PathBuf;
use std::time::Duration;

/// What can go wrong talking to a public-inbox server or reading the cache.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoreError {
    /// The text given is neither a Message-ID nor a URL naming one.
    #[error("'{input}' is not a Message-ID or a message URL: {reason}")]
    BadTarget {
        /// The text as given.
        input: String,
        /// Why it was refused.
        reason: String,
    },
    /// A base URL that names no server nor inbox.
    #[error(
        "'{base}' is no public-inbox server or inbox: {reason} (give a server, https://lore.kernel.org, or an inbox on it, https://lore.kernel.org/all)"
    )]
    BadBase {
        /// The URL as given.
        base: String,
        /// Why it was refused.
        reason: String,
    },
    /// A search that cannot be asked as given.
    #[error("search '{query}': {reason}")]
    BadSearch {
        /// The query.
        query: String,
        /// Why.
        reason: String,
    },
    /// The server has no such message (HTTP 404 on a thread), or no such inbox.
    #[error("{url}: not found (404): no such message on that server")]
    NotFound {
        /// The URL asked for.
        url: String,
    },
    /// The server could not be reached: connection refused, no route, name not resolved.
    #[error("{url}: server unreachable: {reason}")]
    Unreachable {
        /// The URL asked for.
        url: String,
        /// What the network said.
        reason: String,
    },
    /// The server stopped answering for longer than the read timeout.
    #[error("{url}: timed out ({reason})")]
    Timeout {
        /// The URL asked for.
        url: String,
        /// Which wait ran out.
        reason: String,
    },
    /// The whole answer, its retries included, took longer than allowed
    /// ([`super::Config::answer_timeout`]). Nothing of it is returned.
    #[error("{url}: no whole answer within {} s; nothing of it was kept", limit.as_secs())]
    TooSlow {
        /// The URL asked for.
        url: String,
        /// The time allowed.
        limit: Duration,
    },
    /// An HTTP status that is not an answer, after the retries allowed.
    #[error("{url}: HTTP {status} after {attempts} attempt(s)")]
    Status {
        /// The URL asked for.
        url: String,
        /// The last status received.
        status: u16,
        /// How many requests were made.
        attempts: u32,
    },
    /// The server asked to wait (`Retry-After`) longer than the configured cap.
    #[error(
        "{url}: server asks to retry after {wait:?}, longer than the cap of {cap:?}; try again later"
    )]
    RetryAfterTooLong {
        /// The URL asked for.
        url: String,
        /// The wait the server asked for.
        wait: Duration,
        /// The longest wait allowed ([`super::Config::backoff_cap`]).
        cap: Duration,
    },
    /// An HTML page came where an mbox was expected (public-inbox answers HTML for some errors).
    #[error("{url}: HTTP {status} answered an HTML page ({title:?}) where an mbox was expected")]
    Html {
        /// The URL asked for.
        url: String,
        /// The HTTP status of the page.
        status: u16,
        /// The page's `<title>`, if it has one.
        title: String,
    },
    /// The answer is neither gzip nor mbox.
    #[error("{url}: answer is not an mbox: {reason}")]
    NotMbox {
        /// The URL asked for.
        url: String,
        /// What was found instead.
        reason: String,
    },
    /// The answer ended early: a cut gzip stream or a connection closed mid-body.
    /// Nothing of it is returned.
    #[error("{url}: answer truncated after {received} bytes ({reason}); nothing of it was kept")]
    Truncated {
        /// The URL asked for.
        url: String,
        /// Bytes received (compressed) before the cut.
        received: u64,
        /// What the decoder or the connection said.
        reason: String,
    },
    /// A thread answer that does not hold the message asked for (another
    /// thread, a forged copy): nothing of it is returned.
    #[error(
        "{url}: the answer does not hold <{msgid}>, the message asked for; nothing of it was kept"
    )]
    NotAsked {
        /// The URL asked for.
        url: String,
        /// The Message-ID asked for.
        msgid: String,
    },
    /// The answer is larger than the configured limits and partial answers were not allowed.
    #[error(
        "{url}: the answer is larger than {limit}, the most one answer may be; nothing of it is stored (ask for less: a narrower query, or --since)"
    )]
    TooLarge {
        /// The URL asked for.
        url: String,
        /// Which limit, said in words ("10000 messages", "268435456 bytes").
        limit: String,
    },
    /// Offline mode, and the cache holds no answer for this URL.
    #[error("{url}: not in the cache and offline mode forbids fetching it")]
    NotCached {
        /// The URL that would have been fetched.
        url: String,
    },
    /// A redirect the client will not follow (another host, or too many).
    #[error("{url}: redirect to '{location}' not followed: {reason}")]
    Redirect {
        /// The URL asked for.
        url: String,
        /// Where the server pointed.
        location: String,
        /// Why it was not followed.
        reason: String,
    },
    /// Any other HTTP or transport failure.
    #[error("{url}: {reason}")]
    Http {
        /// The URL asked for.
        url: String,
        /// What failed.
        reason: String,
    },
    /// A cache entry that is no entry: not a regular file, too big, or not
    /// what this cache writes for the request.
    #[error("cache entry '{path}' is unusable: {reason}")]
    CacheCorrupt {
        /// The entry file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The cache directory could not be read or written.
    #[error("cache '{path}': {source}")]
    Cache {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

impl LoreError {
    /// The URL the error is about, when there is one.
    pub fn url(&self) -> Option<&str> {
        match self {
            LoreError::BadTarget { .. }
            | LoreError::BadBase { .. }
            | LoreError::BadSearch { .. }
            | LoreError::Cache { .. }
            | LoreError::CacheCorrupt { .. } => None,
            LoreError::NotFound { url }
            | LoreError::Unreachable { url, .. }
            | LoreError::Timeout { url, .. }
            | LoreError::TooSlow { url, .. }
            | LoreError::NotAsked { url, .. }
            | LoreError::Status { url, .. }
            | LoreError::RetryAfterTooLong { url, .. }
            | LoreError::Html { url, .. }
            | LoreError::NotMbox { url, .. }
            | LoreError::Truncated { url, .. }
            | LoreError::TooLarge { url, .. }
            | LoreError::NotCached { url }
            | LoreError::Redirect { url, .. }
            | LoreError::Http { url, .. } => Some(url),
        }
    }
}

/// Result of [`crate::lore`] calls.
pub type Result<T> = std::result::Result<T, LoreError>;
