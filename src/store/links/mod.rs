//! The rows linking reads and the tables it writes: threads, regressions,
//! their messages, timelines and metrics, and the link state.
//!
//! Reading is in the shapes `crate::link` takes: every message's threading
//! headers ([`for_each_header`], [`for_each_subject`]), the few facts that
//! choose the messages a regression can involve ([`for_each_own_trailer`],
//! [`for_each_cited_link`], [`for_each_subject_report`]), and the chosen
//! messages themselves ([`load_messages`], [`for_each_report_extraction`],
//! [`load_parts`]). Writing ([`begin_relink`], [`begin_partial_relink`],
//! [`begin_output`], then [`RelinkWrite::finish`]) replaces the link tables
//! in one write transaction (thread rows compared a chunk at a time,
//! regression summaries one at a time), so memory stays bounded and readers
//! (WAL) keep answering from the previous snapshot meanwhile. The ids the
//! regressions are written under are [`crate::link::ids`]'s choice, from
//! the rows [`RelinkWrite::stored_ids`] reads.

use std::collections::{HashMap, HashSet};

use rusqlite::{OptionalExtension, params};

use super::DbContext;
use super::Store;
use crate::error::Result;
use crate::link::ids::StoredIds;
use crate::link::keys::MIN_TITLE_KEY;
use crate::link::thread::{HeaderRow, Skeleton};
use crate::link::{LinkInput, LinkMessage, LinkOutput};
use crate::model::history::{Mark, Regression, Status};
use crate::model::{
    CommitRef, DiffFile, Event, EventKind, Extraction, Kind, Landing, LandingKind, PatchFacts,
    Signal, SignalKind, SubjectReport, Trailer,
};

mod marks;
mod neighbours;
mod patch_keys;
mod read;
mod regressions;
mod state;
mod threads;
mod write;

pub use marks::*;
pub use neighbours::*;
pub use patch_keys::*;
pub use read::*;
use regressions::*;
pub use state::*;
use threads::*;
pub use write::*;
