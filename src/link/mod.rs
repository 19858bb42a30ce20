//! Links stored messages into threads and regression histories with a status
//! and a timeline. Recomputed from the database after each ingest.

use crate::error::Result;
use crate::store::Store;

/// Recomputes threads and regressions from the stored messages and extractions.
pub fn relink(store: &mut Store) -> Result<()> {
    let _ = store;
    Ok(())
}
