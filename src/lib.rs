//! regtrack turns Linux kernel mailing-list archives into a queryable history of
//! performance regressions reported by the kernel test robot (0-Day/LKP).
//!
//! Dependencies go one way: [`model`] <- {[`source`], [`mail`], [`report`],
//! [`evidence`], [`link`]} <- [`store`] <- [`pipeline`] (ingest, relink,
//! reindex) <- {[`query`], [`export`]} <- [`cli`]. Data flows the same way:
//! sources yield raw messages, `mail` decodes them, `extract` runs the
//! report grammar and the evidence extractors, the store keeps everything,
//! the pure linker turns stored rows into regression histories, and
//! `query`/`export` answer from them. See ARCHITECTURE.md.
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
pub mod link;
pub mod lore;
pub mod mail;
pub mod model;
pub mod pipeline;
pub mod query;
pub mod report;
pub mod source;
pub mod store;
pub mod text;
pub mod trees;

pub use error::{Error, Result};
