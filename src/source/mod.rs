//! Readers for every input form: mbox (mboxrd/mboxo, gzip), Maildir, `.eml`
//! folders, single files, standard input, public-inbox git archives, and
//! archive-rendered text. Each yields [`crate::model::RawMessage`]s with their origin.

use std::path::Path;

use crate::error::{Error, Result};
use crate::model::RawMessage;

/// A stream of raw messages from one input; a per-message error does not end it.
pub type RawStream = Box<dyn Iterator<Item = Result<RawMessage>> + Send>;

/// Opens any input `ingest` reads (detected by content; `-` is standard input)
/// and streams its raw messages in order.
pub fn open(path: &Path) -> Result<RawStream> {
    Err(Error::Unrecognised {
        path: path.to_path_buf(),
        reason: "not implemented".into(),
    })
}
