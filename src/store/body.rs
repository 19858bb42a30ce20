//! Stored message bodies: compressed on the parallel stage, read back by
//! `regtrack mail`.
//!
//! Since schema v6 the decoded bodies of consecutive new messages are
//! concatenated, about [`BLOCK_BYTES`] (256 KB) at a time, and compressed as one LZ4
//! block (`lz4_flex`'s `compress_prepend_size`: the text's length as 4 bytes
//! little-endian, then the block) in `body_blocks.lz4`; a message names its
//! block and the byte range of its body in the block's text (`body_block`,
//! `body_start`, `body_len`), and an empty body names none. A patch series,
//! the replies quoting it and the robot's look-alike reports then compress
//! against each other: on the linux-ext4 archive 193 MB of bodies take 72.5 MB
//! in 700 rows, where one block per body took 100 MB in 42,663 rows, and the
//! ingest takes 6 % less time from mbox, 9 % from git. Reading one body
//! decompresses its block (256 KB: well under a millisecond).
//!
//! Since v9 each block has the BLAKE3 hash of its stored bytes
//! (`body_blocks.blake3`), checked before it is decompressed: a damaged
//! block is an error naming its messages, where LZ4 could decode damaged
//! literals into a wrong body. Blocks written before v9 have none and are
//! read unchecked.
//!
//! Rows written before v6 keep their own row in `bodies`: one LZ4 block each
//! (`bodies.lz4`, v4 and v5), or plain text (`bodies.text`, before v4).
//!
//! Since v17 a message whose chosen copy was read from a public-inbox epoch
//! stores no body: its `messages` row names no block, and its body is
//! decoded again from the epoch's blob under the commit its origin names,
//! as its raw form already was (v15). The epoch is the archive of record,
//! as it is for public-inbox itself; the database keeps what is extracted.
//! On four whole lists this leaves out 380 MB of the 911 MB and the
//! compression of every body (6 % of an ingest's CPU). The store does not
//! read epochs itself: the program registers the reader once
//! ([`read_epochs_with`]; `pipeline::epoch_bodies` is regtrack's). A copy
//! read later that wins over the stored one has its body stored, since
//! which copy is chosen can change again. Messages stored from epochs
//! before v17 keep their blocks.

use rusqlite::OptionalExtension;

use super::DbContext;
use crate::error::{Error, Result};
use crate::model::BodyPart;

/// Bodies of consecutive messages are compressed together until their block
/// holds at least this many bytes of text. LZ4 looks back 64 KB, so a larger
/// block compresses only a little better (linux-ext4: 72.5 MB against 76 MB
/// at 64 KB), but its fewer, larger rows waste less of their last overflow
/// page: the database is 161 MB against 171 MB, at the same speed.
pub const BLOCK_BYTES: usize = 256 << 10;

/// Groups consecutive bodies of these byte lengths into blocks: each range of
/// indexes holds at least [`BLOCK_BYTES`] of text, but the last.
pub fn block_ranges(lens: &[usize]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (i, len) in lens.iter().enumerate() {
        bytes += len;
        if bytes >= BLOCK_BYTES {
            out.push(start..i + 1);
            (start, bytes) = (i + 1, 0);
        }
    }
    if start < lens.len() {
        out.push(start..lens.len());
    }
    out
}

/// Compresses these texts, one after the other, as one block.
pub fn pack_block(texts: &[&str]) -> Vec<u8> {
    let bytes: Vec<&[u8]> = texts.iter().map(|t| t.as_bytes()).collect();
    pack_bytes(&bytes)
}

/// Compresses these byte strings, one after the other, as one block (a
/// block's text may hold raw mail, which need not be UTF-8).
pub fn pack_bytes(pieces: &[&[u8]]) -> Vec<u8> {
    if let [one] = pieces {
        return lz4_flex::block::compress_prepend_size(one);
    }
    let mut text = Vec::with_capacity(pieces.iter().map(|t| t.len()).sum());
    for t in pieces {
        text.extend_from_slice(t);
    }
    lz4_flex::block::compress_prepend_size(&text)
}

/// Decompresses a block written by [`pack_block`].
pub fn unpack_block(
    bytes: &[u8],
) -> std::result::Result<Vec<u8>, lz4_flex::block::DecompressError> {
    lz4_flex::block::decompress_size_prepended(bytes)
}

/// Decompresses a body a schema v4 or v5 build wrote (one block of its own);
/// invalid UTF-8 is replaced.
pub fn unpack(bytes: &[u8]) -> std::result::Result<String, lz4_flex::block::DecompressError> {
    Ok(utf8(unpack_block(bytes)?))
}

fn utf8(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// What a public-inbox epoch keeps of a message, read for the store: the
/// decoded body and its parts, as the mail parser gives them.
pub trait EpochBodies: Send + Sync {
    /// The decoded body and parts of the message of `commit` in the epoch
    /// at `repo`; the error says why it cannot be read.
    fn decoded(
        &self,
        repo: &str,
        commit: &str,
    ) -> std::result::Result<(String, Vec<BodyPart>), String>;
}

static EPOCHS: std::sync::OnceLock<&'static dyn EpochBodies> = std::sync::OnceLock::new();

/// Registers the reader of epoch bodies for this process (the first one
/// registered stays).
pub fn read_epochs_with(reader: &'static dyn EpochBodies) {
    let _ = EPOCHS.set(reader);
}

/// The body and parts of the message of `commit` in the epoch at `repo`,
/// through the registered reader; the error names the epoch and commit.
pub(super) fn epoch_body(
    repo: &str,
    commit: &str,
) -> std::result::Result<(String, Vec<BodyPart>), String> {
    let reader = EPOCHS
        .get()
        .ok_or_else(|| "no reader of public-inbox epochs is registered".to_string())?;
    reader.decoded(repo, commit).map_err(|why| {
        format!("its body is the message of commit {commit} in the epoch {repo}, which cannot be read: {why}")
    })
}

/// The SQL column of a message row `m` joined to its `bodies` row `b`: the
/// origin its body is decoded from when no stored body holds it (NULL when
/// a block or a `bodies` row does), for [`epoch_of`].
pub(super) const UNSTORED_ORIGIN: &str =
    "CASE WHEN m.body_block IS NULL AND b.message IS NULL THEN m.origin_json END";

/// The epoch and commit a message's body is decoded from when no block holds
/// it ([`UNSTORED_ORIGIN`]): its origin, when that is an epoch (see the
/// module docs).
pub(super) fn epoch_of(origin_json: Option<&str>) -> Option<(String, String)> {
    match serde_json::from_str::<crate::model::Origin>(origin_json?).ok()? {
        crate::model::Origin::Git { repo, commit } => Some((repo, commit)),
        _ => None,
    }
}

/// The checksum stored with a block: BLAKE3 of its bytes.
pub fn checksum(lz4: &[u8]) -> [u8; 32] {
    *blake3::hash(lz4).as_bytes()
}

/// Checks a block against its stored checksum (none: a block written before
/// v9, not checked).
pub(super) fn verify(
    id: i64,
    lz4: &[u8],
    stored: Option<&[u8]>,
) -> std::result::Result<(), String> {
    match stored {
        Some(sum) if sum != checksum(lz4) => Err(format!(
            "its body's block {id} is damaged (its BLAKE3 checksum does not match)"
        )),
        _ => Ok(()),
    }
}

/// The bytes at `start..start + len` of a block's text.
pub(super) fn bytes_in_block(
    block: &[u8],
    start: i64,
    len: i64,
) -> std::result::Result<Vec<u8>, String> {
    let text = unpack_block(block).map_err(|e| format!("its block cannot be read: {e}"))?;
    let range = usize::try_from(start)
        .ok()
        .zip(usize::try_from(len).ok())
        .and_then(|(s, l)| Some(s..s.checked_add(l)?));
    match range.and_then(|r| text.get(r)) {
        Some(bytes) => Ok(bytes.to_vec()),
        None => Err(format!(
            "its {len} bytes at {start} lie outside its block ({} bytes)",
            text.len()
        )),
    }
}

/// Reads `start..start + len` of block `id`'s text, its checksum checked;
/// the error says why (the block is missing, damaged, or too short).
pub(super) fn read_range(
    conn: &rusqlite::Connection,
    id: i64,
    start: i64,
    len: i64,
) -> Result<std::result::Result<Vec<u8>, String>> {
    let sql = "SELECT lz4, blake3 FROM body_blocks WHERE id = ?1";
    let row: Option<(Vec<u8>, Option<Vec<u8>>)> = conn
        .prepare_cached(sql)
        .db(sql)?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()
        .db(sql)?;
    let Some((lz4, sum)) = row else {
        return Ok(Err(format!("its block {id} is missing")));
    };
    if let Err(why) = verify(id, &lz4, sum.as_deref()) {
        return Ok(Err(why.replace("its body's block", "its block")));
    }
    Ok(bytes_in_block(&lz4, start, len))
}

/// The body at `start..start + len` of a block's text.
pub(super) fn body_in_block(
    block: &[u8],
    start: i64,
    len: i64,
) -> std::result::Result<String, String> {
    let text = unpack_block(block).map_err(|e| format!("its body's block cannot be read: {e}"))?;
    let range = usize::try_from(start)
        .ok()
        .zip(usize::try_from(len).ok())
        .and_then(|(s, l)| Some(s..s.checked_add(l)?));
    match range.and_then(|r| text.get(r)) {
        Some(bytes) => Ok(utf8(bytes.to_vec())),
        None => Err(format!(
            "its body ({len} bytes at {start}) lies outside its block ({} bytes)",
            text.len()
        )),
    }
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
pub fn stored_message(store: &super::Store, message_id: &str) -> Result<Option<StoredMessage>> {
    let conn = store.conn();
    let id = crate::mail::clean_id(message_id);
    let row = conn
        .query_row(
            &format!(
                "SELECT m.id, m.message_id, m.subject, m.from_name, m.from_email, m.date,
                    m.in_reply_to, m.kind, coalesce(b.text, ''), b.lz4,
                    m.body_block, k.lz4, m.body_start, m.body_len, k.blake3,
                    {UNSTORED_ORIGIN}
             FROM messages m LEFT JOIN bodies b ON b.message = m.id
                  LEFT JOIN body_blocks k ON k.id = m.body_block
             WHERE m.message_id = ?1"
            ),
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
                    (
                        r.get::<_, Option<i64>>(10)?,
                        r.get::<_, Option<Vec<u8>>>(11)?,
                    ),
                    (r.get::<_, Option<i64>>(12)?, r.get::<_, Option<i64>>(13)?),
                    r.get::<_, Option<Vec<u8>>>(14)?,
                    r.get::<_, Option<String>>(15)?,
                ))
            },
        )
        .optional()
        .db("reading a message")?;
    let Some((row_id, mut msg, packed, block, range, sum, origin)) = row else {
        return Ok(None);
    };
    let unreadable = |reason: String| Error::Message {
        origin: format!("stored message <{id}>"),
        reason,
    };
    if let (Some(block_id), block) = block {
        let block =
            block.ok_or_else(|| unreadable(format!("its body's block {block_id} is missing")))?;
        if let Err(why) = verify(block_id, &block, sum.as_deref()) {
            return Err(unreadable(format!(
                "{why}; {}",
                sharing(conn, block_id, &id)?
            )));
        }
        let (start, len) = (range.0.unwrap_or(0), range.1.unwrap_or(0));
        msg.body = body_in_block(&block, start, len).map_err(unreadable)?;
    } else if let Some(bytes) = packed {
        msg.body = unpack(&bytes)
            .map_err(|e| unreadable(format!("its compressed body cannot be read: {e}")))?;
    } else if let Some((repo, commit)) = epoch_of(origin.as_deref()) {
        msg.body = epoch_body(&repo, &commit).map_err(unreadable)?.0;
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

/// The other messages whose bodies block `block` holds, named (the first
/// five) for an error about the block.
fn sharing(conn: &rusqlite::Connection, block: i64, but: &str) -> Result<String> {
    let sql = "SELECT message_id FROM messages WHERE body_block = ?1 ORDER BY id";
    let mut st = conn.prepare(sql).db(sql)?;
    let ids: Vec<String> = st
        .query_map([block], |r| r.get(0))
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)?;
    let others: Vec<String> = ids
        .iter()
        .filter(|i| i.as_str() != but)
        .map(|i| format!("<{i}>"))
        .collect();
    Ok(match others.len() {
        0 => "it holds no other message's body".to_string(),
        n if n <= 5 => format!("it also holds the bodies of {}", others.join(", ")),
        n => format!(
            "it also holds the bodies of {} and {} more",
            others[..5].join(", "),
            n - 5
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_body_unpacks_to_the_same_text_and_is_smaller() {
        let body =
            "commit 2edf06a50f (\"xfs: fix\")\n  1.23 ±  2%  -5.7%  1.16 fsmark.files_per_sec\n"
                .repeat(100);
        let packed = pack_block(&[&body]);
        assert!(packed.len() * 2 < body.len(), "{} bytes", packed.len());
        assert_eq!(unpack(&packed).unwrap(), body);
    }

    #[test]
    fn each_body_is_read_back_from_its_range_of_the_block() {
        let texts = ["first body\n", "", "zweiter Körper ±\n", "third\n"];
        let block = pack_block(&texts);
        let mut start = 0;
        for t in texts {
            assert_eq!(body_in_block(&block, start, t.len() as i64).unwrap(), t);
            start += t.len() as i64;
        }
        let err = body_in_block(&block, start, 1).unwrap_err();
        assert!(err.contains("lies outside its block"), "{err}");
        assert!(body_in_block(&block, -1, 2).is_err());
        assert!(body_in_block(&block, i64::MAX, i64::MAX).is_err());
    }

    #[test]
    fn blocks_hold_at_least_block_bytes_but_the_last() {
        let k = BLOCK_BYTES;
        assert_eq!(block_ranges(&[]), Vec::<std::ops::Range<usize>>::new());
        assert_eq!(block_ranges(&[10, 20]), vec![0..2]);
        assert_eq!(
            block_ranges(&[k / 2, k / 2, 3 * k, 1, k - 1, 5]),
            vec![0..2, 2..3, 3..5, 5..6]
        );
    }

    #[test]
    fn a_corrupt_frame_is_an_error_not_a_panic() {
        assert!(unpack(b"not lz4 at all").is_err());
        let mut packed = pack_block(&["hello world, hello world"]);
        packed.truncate(packed.len() / 2);
        assert!(unpack(&packed).is_err());
        assert!(body_in_block(&packed, 0, 3).is_err());
    }
}
