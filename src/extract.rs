//! Runs every extractor over one decoded message: the report grammar first
//! (subject, body, lkp tables, kind), then the evidence extractors (diffs,
//! trailers, commits, other tables, profiles, reproducers, kconfig, signals),
//! which may read what the report grammar found (the table signal does).

use crate::model::{Extraction, Message};

/// Version of the extraction logic; stored with each message so that a newer
/// build re-extracts what an older one stored (`pipeline::reindex`). Bump it
/// whenever an extractor finds something new in the same mail.
///
/// 2: patch facts (title, version, patch id, change-id, reverts) and landings
/// (applied replies, b4 thank-yous, announcements, pull requests, merge notes).
/// 3: link keys (`link::keys`) stored with every message.
pub const EXTRACTION_VERSION: i64 = 3;

/// Extracts everything regtrack knows how to read from one message. Pure and panic-free.
pub fn extract(msg: &Message) -> Extraction {
    let mut ex = Extraction::default();
    crate::report::extract_report(msg, &mut ex);
    crate::evidence::extract_evidence(msg, &mut ex);
    ex
}
