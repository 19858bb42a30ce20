//! regtrack turns Linux kernel mailing-list archives into a queryable history of
//! performance regressions reported by the kernel test robot (0-Day/LKP).
//!
//! Data flows one way:
//! `source` (mbox, Maildir, .eml, public-inbox git, rendered text) ->
//! `mail` (decoded [`model::Message`]) -> `extract` (with `report` and `evidence`,
//! producing a [`model::Extraction`]) -> `store` (SQLite) -> `link` (threads and
//! regression histories) -> `query` / `export` (answers).
//!
//! ```
//! let body = "> >      14484            -6.3%      13568        fsmark.files_per_sec\n";
//! let line = regtrack::text::lines(body).next().unwrap();
//! assert_eq!(line.depth, 2);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod cli;
pub mod error;
pub mod evidence;
pub mod export;
pub mod extract;
pub mod ingest;
pub mod link;
pub mod mail;
pub mod model;
pub mod query;
pub mod report;
pub mod source;
pub mod store;
pub mod text;
pub mod trees;

pub use error::{Error, Result};
