//! The errors of [`crate::trees`]: each names the repository and the ref (or
//! commit) being read. The type lives in [`crate::error`], which wraps it
//! in [`crate::error::Error::Tree`] and depends on no layer.

pub use crate::error::TreesError;

/// Result of [`crate::trees`] functions.
pub type Result<T> = std::result::Result<T, TreesError>;
