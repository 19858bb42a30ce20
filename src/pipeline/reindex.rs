//! Re-extraction on upgrade: messages whose stored extraction is older than
//! the running build's ([`crate::extract::EXTRACTION_VERSION`]) are
//! extracted again from their stored bodies, without the archive.
//!
//! Batches of [`BATCH`] messages are read in row order, extracted in
//! parallel and written in one transaction each, the new version with
//! them: a killed run keeps every finished batch, and the next run goes on
//! from the first message still older. A message whose body cannot be read
//! keeps the extraction and the version it has, is named in the summary,
//! and is tried again by the next run. Re-extracted messages make the next
//! relink recompute every history.

use rayon::prelude::*;

use crate::error::Result;
use crate::extract::EXTRACTION_VERSION;
use crate::store::extractions::{Reextracted, replace_extraction};
use crate::store::{Store, reextract};

/// Messages read, extracted and written at a time.
pub const BATCH: usize = 2048;

/// What a re-extraction did.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Reindexed {
    /// Messages extracted again.
    pub messages: u64,
    /// Messages whose stored body could not be read (`Message-ID: reason`).
    pub unreadable: Vec<String>,
}

/// How many messages an older extractor stored.
pub fn pending(store: &Store) -> Result<u64> {
    reextract::stale_count(store, EXTRACTION_VERSION)
}

/// Extracts again every message stored by an older extractor; `progress`
/// gets (done, total) after each batch.
pub fn reindex(store: &mut Store, progress: &(dyn Fn(u64, u64) + Sync)) -> Result<Reindexed> {
    let total = pending(store)?;
    let mut done = Reindexed::default();
    let mut after = 0i64;
    while done.messages + (done.unreadable.len() as u64) < total {
        let (batch, broken) = reextract::stale_messages(store, EXTRACTION_VERSION, after, BATCH)?;
        if batch.is_empty() && broken.is_empty() {
            break;
        }
        after = batch
            .iter()
            .map(|(id, _)| *id)
            .chain(broken.iter().map(|(id, _)| *id))
            .max()
            .unwrap_or(after);
        let records: Vec<Reextracted> = batch
            .par_iter()
            .map(|(id, msg)| {
                let ex = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    crate::extract::extract_each_deferred(&[msg])
                        .pop()
                        .unwrap_or_default()
                }))
                .unwrap_or_default();
                Reextracted::new(*id, msg, ex)
            })
            .collect();
        store.in_write("re-extraction", |s| {
            for r in &records {
                replace_extraction(s, r, EXTRACTION_VERSION)?;
            }
            Ok(())
        })?;
        done.messages += records.len() as u64;
        done.unreadable
            .extend(broken.into_iter().map(|(_, why)| why));
        progress(done.messages + done.unreadable.len() as u64, total);
    }
    if done.messages > 0 {
        crate::store::links::clear_state(store)?;
    }
    Ok(done)
}
