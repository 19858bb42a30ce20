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

/// Bodies up to this size are compressed through a per-thread scratch
/// buffer; a larger one gets its own (the scratch never holds more).
const SCRATCH_MAX: usize = 1 << 20;

/// A thread's compression state: an output buffer zeroed once and kept, and
/// the two hash tables `lz4_flex` picks between by input size.
struct Scratch {
    out: Vec<u8>,
    small: lz4_flex::block::CompressTable,
    large: lz4_flex::block::CompressTable,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch {
        out: Vec::new(),
        small: lz4_flex::block::CompressTable::small(),
        large: lz4_flex::block::CompressTable::large(),
    });
}

/// Compresses a body; `None` for an empty one (stored as plain `''`).
///
/// The bytes are `compress_prepend_size`'s, without its zeroed output
/// buffer and hash table per call (most bodies are a few KB, and zeroing
/// those cost as much as compressing them).
pub fn pack(body: &str) -> Option<Vec<u8>> {
    use lz4_flex::block::{compress_into_with_table, get_maximum_output_size};
    if body.is_empty() {
        return None;
    }
    let input = body.as_bytes();
    let max = get_maximum_output_size(input.len());
    let len = u32::try_from(input.len()).ok();
    let packed = (max <= SCRATCH_MAX)
        .then_some(len)
        .flatten()
        .and_then(|len| {
            SCRATCH.with_borrow_mut(|s| {
                if s.out.len() < max {
                    s.out.resize(max, 0);
                }
                // `lz4_flex` compresses with 16-bit table entries below 64 KiB.
                let table = if input.len() < usize::from(u16::MAX) {
                    &mut s.small
                } else {
                    &mut s.large
                };
                let n = compress_into_with_table(input, &mut s.out, table).ok()?;
                let mut v = Vec::with_capacity(4 + n);
                v.extend_from_slice(&len.to_le_bytes());
                v.extend_from_slice(s.out.get(..n)?);
                Some(v)
            })
        });
    Some(packed.unwrap_or_else(|| lz4_flex::block::compress_prepend_size(input)))
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
    fn packing_through_the_scratch_gives_compress_prepend_sizes_bytes() {
        // Sizes on both sides of the 64 KiB table switch and of the scratch
        // limit, in an order that reuses each table after the other.
        let line = "  14484 \u{b1}  2%  -6.3%  13568 \u{b1}  1%  fsmark.files_per_sec\n";
        for n in [1, 900, 2, 1300, 30, 5000, 1, 20_000, 3, 1100] {
            let body = format!("{n}\n{}", line.repeat(n));
            assert_eq!(
                pack(&body).unwrap(),
                lz4_flex::block::compress_prepend_size(body.as_bytes()),
                "{} bytes",
                body.len()
            );
            assert_eq!(unpack(&pack(&body).unwrap()).unwrap(), body);
        }
    }

    #[test]
    fn a_corrupt_frame_is_an_error_not_a_panic() {
        assert!(unpack(b"not lz4 at all").is_err());
        let mut packed = pack("hello world, hello world").unwrap();
        packed.truncate(packed.len() / 2);
        assert!(unpack(&packed).is_err());
    }
}
