//! Stored message bodies: compressed on the parallel stage, read back by
//! `regtrack mail`.
//!
//! A body is one LZ4 block of its UTF-8 text, after the text's length as 4
//! bytes little-endian (`lz4_flex`'s `compress_prepend_size`), in
//! `bodies.lz4`; rows written before schema v4 hold their plain text in
//! `bodies.text` instead, and an empty body has no row. On the
//! linux-ext4 archive this stores 193 MB of bodies in 100 MB, compressed at
//! about 340 MB/s per core: the single writer thread, which bounds ingest,
//! copies half the bytes through SQLite's pages and the WAL. (zstd level 1
//! stores 71 MB but compresses at 180 MB/s, which costs more than it saves.)

use rusqlite::{Connection, OptionalExtension};

use crate::error::{DbContext, Error, Result};

/// Compresses a body; `None` for an empty one (stored as plain `''`).
pub fn pack(body: &str) -> Option<Vec<u8>> {
    if body.is_empty() {
        return None;
    }
    Some(lz4_flex::block::compress_prepend_size(body.as_bytes()))
}

/// Decompresses a body written by [`pack`]; invalid UTF-8 is replaced.
pub fn unpack(bytes: &[u8]) -> std::result::Result<String, lz4_flex::block::DecompressError> {
    let out = lz4_flex::block::decompress_size_prepended(bytes)?;
    Ok(match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// One stored message, as `regtrack mail` prints it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct StoredMessage {
    /// Message-ID without angle brackets.
    pub message_id: String,
    /// Subject as sent.
    pub subject: String,
    /// Sender's display name.
    pub from_name: Option<String>,
    /// Sender's address.
    pub from_email: Option<String>,
    /// Date, Unix seconds (UTC).
    pub date: Option<i64>,
    /// Parent Message-ID.
    pub in_reply_to: Option<String>,
    /// What kind of mail it is (`perf-report`, `patch`, ...).
    pub kind: String,
    /// Every List-ID it was seen on.
    pub lists: Vec<String>,
    /// The decoded body.
    pub body: String,
}

/// The stored message with this Message-ID (angle brackets optional).
pub fn stored_message(conn: &Connection, message_id: &str) -> Result<Option<StoredMessage>> {
    let id = crate::mail::clean_id(message_id);
    let row = conn
        .query_row(
            "SELECT m.id, m.message_id, m.subject, m.from_name, m.from_email, m.date,
                    m.in_reply_to, m.kind, coalesce(b.text, ''), b.lz4
             FROM messages m LEFT JOIN bodies b ON b.message = m.id
             WHERE m.message_id = ?1",
            [&id],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    StoredMessage {
                        message_id: r.get(1)?,
                        subject: r.get(2)?,
                        from_name: r.get(3)?,
                        from_email: r.get(4)?,
                        date: r.get(5)?,
                        in_reply_to: r.get(6)?,
                        kind: r.get(7)?,
                        lists: Vec::new(),
                        body: r.get(8)?,
                    },
                    r.get::<_, Option<Vec<u8>>>(9)?,
                ))
            },
        )
        .optional()
        .db("reading a message")?;
    let Some((row_id, mut msg, packed)) = row else {
        return Ok(None);
    };
    if let Some(bytes) = packed {
        msg.body = unpack(&bytes).map_err(|e| Error::Message {
            origin: format!("stored message <{id}>"),
            reason: format!("its compressed body cannot be read: {e}"),
        })?;
    }
    let mut st = conn
        .prepare("SELECT list_id FROM message_lists WHERE message = ?1 ORDER BY list_id")
        .db("reading a message's lists")?;
    let lists = st
        .query_map([row_id], |r| r.get(0))
        .db("reading a message's lists")?;
    msg.lists = lists
        .collect::<std::result::Result<_, _>>()
        .db("reading a message's lists")?;
    Ok(Some(msg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_body_unpacks_to_the_same_text_and_is_smaller() {
        let body =
            "commit 2edf06a50f (\"xfs: fix\")\n  1.23 ±  2%  -5.7%  1.16 fsmark.files_per_sec\n"
                .repeat(100);
        let packed = pack(&body).unwrap();
        assert!(packed.len() * 2 < body.len(), "{} bytes", packed.len());
        assert_eq!(unpack(&packed).unwrap(), body);
        assert_eq!(pack(""), None);
    }

    #[test]
    fn a_corrupt_frame_is_an_error_not_a_panic() {
        assert!(unpack(b"not lz4 at all").is_err());
        let mut packed = pack("hello world, hello world").unwrap();
        packed.truncate(packed.len() / 2);
        assert!(unpack(&packed).is_err());
    }
}
