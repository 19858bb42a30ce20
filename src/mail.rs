//! Turns a [`RawMessage`] into a decoded [`Message`]: headers, MIME decoding,
//! charset conversion to UTF-8, and recovery of archive-rendered and
//! whitespace-collapsed messages.

use crate::error::{Error, Result};
use crate::model::{Message, RawMessage};

/// Parses one raw message.
pub fn parse(raw: &RawMessage) -> Result<Message> {
    Err(Error::Message {
        origin: raw.origin.describe(),
        reason: "not implemented".into(),
    })
}
