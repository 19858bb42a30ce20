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
//!
//! Since v19 a message read from a file keeps its raw form once: its
//! header block (`messages.head_*`: a range of a block of header blocks,
//! zstd-compressed, see [`pack_headers`]) followed by its stored body. When
//! the raw body is not byte for byte the decoded body (quoted-printable,
//! base64, multipart: 4,109 of linux-ext4's 42,700 messages) the stored
//! body is the raw body (`messages.body_raw`), right after its header block
//! in the zstd block (zstd's entropy coding takes base64 and
//! quoted-printable text to 19 MB where LZ4 took 25), and the decoded body and
//! its parts are parsed again from the raw form when read
//! ([`crate::mail::parse`], as an ingest parses it), as an epoch's are.
//! Before v19 such a message kept its decoded body and its whole raw
//! message besides. A block's codec is told by its first bytes
//! ([`unpack_block`]).

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

/// Compresses these byte strings, one after the other, as one LZ4 block (a
/// block's text may hold raw mail, which need not be UTF-8).
pub fn pack_bytes(pieces: &[&[u8]]) -> Vec<u8> {
    if let [one] = pieces {
        return lz4_flex::block::compress_prepend_size(one);
    }
    lz4_flex::block::compress_prepend_size(&pieces.concat())
}

/// The first four bytes of a zstd frame. A block starting with them is one
/// zstd frame; any other is LZ4 with its text's length prepended (4 bytes
/// little-endian), which would read as a text of 4.2 GB, past any block.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// zstd's level for header blocks (see [`pack_headers`]).
const ZSTD_LEVEL: i32 = 1;

/// Largest text a block may say it holds: a block holds about
/// [`BLOCK_BYTES`] and at most one message (of at most
/// [`crate::source::mbox::MAX_MESSAGE`]) past them; a damaged or foreign
/// block claiming more is refused before anything is allocated.
const MAX_BLOCK_TEXT: usize = 256 << 20;

/// Compresses header blocks (the raw forms' headers, one after the other)
/// as one zstd frame at level 1. Lore's headers are mostly `Received`,
/// DKIM and ARC lines whose signatures are random base64: LZ4 leaves those
/// as they are, zstd's entropy coding takes a quarter off them. On
/// linux-ext4's 197 MB of headers zstd keeps 43.7 MB where LZ4 kept 64.9,
/// at about the same speed (see `benches/README.md`, "Raw forms").
pub fn pack_headers(pieces: &[&[u8]]) -> Vec<u8> {
    let text;
    let text: &[u8] = match pieces {
        [one] => one,
        _ => {
            text = pieces.concat();
            &text
        }
    };
    // Compressing from memory into memory cannot fail but for allocation.
    // The frame is written into room for the worst case (the whole text):
    // its Vec is made to fit, since blocks wait a few batches for the
    // writer and the room they do not use would be held with them.
    match zstd::bulk::compress(text, ZSTD_LEVEL) {
        Ok(mut frame) => {
            frame.shrink_to_fit();
            frame
        }
        Err(_) => pack_bytes(&[text]),
    }
}

/// Decompresses a block written by [`pack_block`], [`pack_bytes`] or
/// [`pack_headers`]; the error says why it cannot be.
pub fn unpack_block(bytes: &[u8]) -> std::result::Result<Vec<u8>, String> {
    if bytes.starts_with(&ZSTD_MAGIC) {
        let size = zstd::zstd_safe::get_frame_content_size(bytes)
            .ok()
            .flatten()
            .ok_or("its zstd frame does not say its size")?;
        let size = usize::try_from(size)
            .ok()
            .filter(|&n| n <= MAX_BLOCK_TEXT)
            .ok_or_else(|| format!("its zstd frame says it holds {size} bytes"))?;
        let text = zstd::bulk::decompress(bytes, size).map_err(|e| e.to_string())?;
        if text.len() != size {
            return Err(format!(
                "its zstd frame holds {} bytes, not the {size} it says",
                text.len()
            ));
        }
        return Ok(text);
    }
    if let Some(len) = bytes.get(..4) {
        let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
        if len > MAX_BLOCK_TEXT {
            return Err(format!("it says it holds {len} bytes"));
        }
    }
    lz4_flex::block::decompress_size_prepended(bytes).map_err(|e| e.to_string())
}

/// Decompresses a body a schema v4 or v5 build wrote (one block of its own);
/// invalid UTF-8 is replaced.
pub fn unpack(bytes: &[u8]) -> std::result::Result<String, String> {
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

/// `start..start + len` of `text`, when it lies inside.
fn slice_of(text: &[u8], start: i64, len: i64) -> Option<&[u8]> {
    let s = usize::try_from(start).ok()?;
    text.get(s..s.checked_add(usize::try_from(len).ok()?)?)
}

/// The SQL reading a block and its checksum.
const BLOCK_ROW: &str = "SELECT lz4, blake3 FROM body_blocks WHERE id = ?1";

/// A block's stored bytes and its checksum (none before v9).
type BlockRow = (Vec<u8>, Option<Vec<u8>>);

/// Block `id`'s stored bytes and checksum, `None` when it is missing.
fn block_row(conn: &rusqlite::Connection, id: i64) -> Result<Option<BlockRow>> {
    conn.prepare_cached(BLOCK_ROW)
        .db(BLOCK_ROW)?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()
        .db(BLOCK_ROW)
}

/// The bytes at `start..start + len` of a block's text.
pub(super) fn bytes_in_block(
    block: &[u8],
    start: i64,
    len: i64,
) -> std::result::Result<Vec<u8>, String> {
    let text = unpack_block(block).map_err(|e| format!("its block cannot be read: {e}"))?;
    match slice_of(&text, start, len) {
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
    let Some((lz4, sum)) = block_row(conn, id)? else {
        return Ok(Err(format!("its block {id} is missing")));
    };
    if let Err(why) = verify(id, &lz4, sum.as_deref()) {
        return Ok(Err(why.replace("its body's block", "its block")));
    }
    Ok(bytes_in_block(&lz4, start, len))
}

/// The stored body's bytes at `start..start + len` of a block's text (the
/// decoded body, or the raw body of a message stored as its raw form).
pub(super) fn body_bytes_in_block(
    block: &[u8],
    start: i64,
    len: i64,
) -> std::result::Result<Vec<u8>, String> {
    let text = unpack_block(block).map_err(|e| format!("its body's block cannot be read: {e}"))?;
    body_range(&text, start, len)
}

/// The stored body's bytes at `start..start + len` of a block's unpacked
/// text, or why they cannot be read.
fn body_range(text: &[u8], start: i64, len: i64) -> std::result::Result<Vec<u8>, String> {
    match slice_of(text, start, len) {
        Some(bytes) => Ok(bytes.to_vec()),
        None => Err(format!(
            "its body ({len} bytes at {start}) lies outside its block ({} bytes)",
            text.len()
        )),
    }
}

/// Blocks read for a run of messages, unpacked and their checksums checked,
/// the last [`KEPT_BLOCKS`] kept: consecutive messages share their body
/// block, and a message stored as its raw form reads a header block beside
/// it. Unpacking a 256 KB block for each message it holds made reading a
/// few thousand bodies back cost a second.
pub(super) struct Unpacked {
    kept: std::collections::VecDeque<(i64, BlockText)>,
}

/// A block's text, or why it cannot be read.
type BlockText = std::result::Result<std::rc::Rc<Vec<u8>>, String>;

/// Blocks [`Unpacked`] keeps.
const KEPT_BLOCKS: usize = 4;

impl Unpacked {
    pub(super) fn new() -> Unpacked {
        Unpacked {
            kept: std::collections::VecDeque::with_capacity(KEPT_BLOCKS),
        }
    }

    /// The text of block `id`; `Err` says why it cannot be read (missing,
    /// damaged, not unpackable).
    fn text(&mut self, conn: &rusqlite::Connection, id: i64) -> Result<BlockText> {
        if let Some((_, t)) = self.kept.iter().find(|(k, _)| *k == id) {
            return Ok(t.clone());
        }
        let text = match block_row(conn, id)? {
            None => Err(format!("its body's block {id} is missing")),
            Some((bytes, sum)) => verify(id, &bytes, sum.as_deref()).and_then(|()| {
                unpack_block(&bytes)
                    .map(std::rc::Rc::new)
                    .map_err(|e| format!("its body's block cannot be read: {e}"))
            }),
        };
        if self.kept.len() == KEPT_BLOCKS {
            self.kept.pop_front();
        }
        self.kept.push_back((id, text.clone()));
        Ok(text)
    }

    /// The bytes at `start..start + len` of a block's text, as
    /// [`body_bytes_in_block`] says them.
    pub(super) fn range(
        &mut self,
        conn: &rusqlite::Connection,
        (id, start, len): Range,
    ) -> Result<std::result::Result<Vec<u8>, String>> {
        Ok(self
            .text(conn, id)?
            .and_then(|text| body_range(&text, start, len)))
    }

    /// [`decode_raw`] with the header block read through these blocks.
    pub(super) fn decode_raw(
        &mut self,
        conn: &rusqlite::Connection,
        head: Option<Range>,
        raw_body: &[u8],
    ) -> Result<std::result::Result<(String, Vec<BodyPart>), String>> {
        let Some(range) = head else {
            return Ok(Err(NO_HEADER_BLOCK.to_string()));
        };
        let head = self
            .range(conn, range)?
            .map_err(|why| why.replace("its body's block", "its block"));
        Ok(with_head(head, raw_body))
    }
}

/// A byte range of a block's text: (block, start, len).
pub(super) type Range = (i64, i64, i64);

/// The range of three columns, all set or none.
pub(super) fn range_of(block: Option<i64>, start: Option<i64>, len: Option<i64>) -> Option<Range> {
    Some((block?, start?, len?))
}

/// The decoded body and parts of a message stored as its raw form
/// (`messages.body_raw`, see the module docs): its header block, read from
/// `head`, followed by `raw_body` (its stored body range), parsed again as
/// an ingest parses it ([`crate::mail::parse`]), so that the body is the one
/// its extraction was made from while the parser is the same.
pub(super) fn decode_raw(
    conn: &rusqlite::Connection,
    head: Option<Range>,
    raw_body: &[u8],
) -> Result<std::result::Result<(String, Vec<BodyPart>), String>> {
    let Some((block, start, len)) = head else {
        return Ok(Err(NO_HEADER_BLOCK.to_string()));
    };
    Ok(with_head(read_range(conn, block, start, len)?, raw_body))
}

/// Why a body stored raw cannot be decoded without its header block.
const NO_HEADER_BLOCK: &str = "its body is stored raw, but not its header block";

/// The decoded body and parts of the raw message whose header block is
/// `head` (or why it cannot be read) and whose raw body is `raw_body`.
fn with_head(
    head: std::result::Result<Vec<u8>, String>,
    raw_body: &[u8],
) -> std::result::Result<(String, Vec<BodyPart>), String> {
    let head = head.map_err(|why| format!("its header block cannot be read: {why}"))?;
    parse_raw(&[&head, raw_body].concat())
}

/// The decoded body and parts of the raw message `bytes`.
fn parse_raw(bytes: &[u8]) -> std::result::Result<(String, Vec<BodyPart>), String> {
    let raw = crate::model::RawMessage {
        bytes: bytes.to_vec().into(),
        origin: crate::model::Origin::Stdin { offset: 0 },
        format: crate::model::RawFormat::Rfc822,
    };
    let parsed = std::panic::catch_unwind(|| crate::mail::parse(&raw))
        .map_err(|_| "the mail parser panicked on its raw form".to_string())?;
    let msg = parsed.map_err(|e| match e {
        Error::Message { reason, .. } => format!("its raw form does not parse: {reason}"),
        e => format!("its raw form does not parse: {e}"),
    })?;
    Ok((msg.body, msg.parts))
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
                    {UNSTORED_ORIGIN}, m.body_raw, m.head_block, m.head_start, m.head_len
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
                    (
                        r.get::<_, bool>(16)?,
                        range_of(r.get(17)?, r.get(18)?, r.get(19)?),
                    ),
                ))
            },
        )
        .optional()
        .db("reading a message")?;
    let Some((row_id, mut msg, packed, block, range, sum, origin, (raw, head))) = row else {
        return Ok(None);
    };
    let unreadable = |reason: String| Error::Message {
        origin: format!("stored message <{id}>"),
        reason,
    };
    let mut stored = Vec::new();
    let from_block = block.0.is_some();
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
        stored = body_bytes_in_block(&block, start, len).map_err(unreadable)?;
    } else if let Some(bytes) = packed {
        msg.body = unpack(&bytes)
            .map_err(|e| unreadable(format!("its compressed body cannot be read: {e}")))?;
    } else if let Some((repo, commit)) = epoch_of(origin.as_deref()) {
        msg.body = epoch_body(&repo, &commit).map_err(unreadable)?.0;
    }
    if raw {
        msg.body = decode_raw(conn, head, &stored)?.map_err(unreadable)?.0;
    } else if from_block {
        msg.body = utf8(stored);
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
            assert_eq!(
                body_bytes_in_block(&block, start, t.len() as i64).unwrap(),
                t.as_bytes()
            );
            start += t.len() as i64;
        }
        let err = body_bytes_in_block(&block, start, 1).unwrap_err();
        assert!(err.contains("lies outside its block"), "{err}");
        assert!(body_bytes_in_block(&block, -1, 2).is_err());
        assert!(body_bytes_in_block(&block, i64::MAX, i64::MAX).is_err());
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
    fn header_blocks_are_zstd_frames_read_back_by_the_same_function() {
        let heads: Vec<String> = (0..50)
            .map(|i| format!("Received: from host{i}.example.org\nDKIM-Signature: b={i:x}\n\n"))
            .collect();
        let pieces: Vec<&[u8]> = heads.iter().map(|h| h.as_bytes()).collect();
        let block = pack_headers(&pieces);
        assert!(block.starts_with(&ZSTD_MAGIC));
        assert_eq!(unpack_block(&block).unwrap(), pieces.concat());
        assert_eq!(
            unpack_block(&pack_headers(&[b"one\n\n"])).unwrap(),
            b"one\n\n"
        );
        // LZ4 blocks are told apart by their first bytes.
        assert_eq!(unpack_block(&pack_bytes(&pieces)).unwrap(), pieces.concat());
    }

    #[test]
    fn a_block_claiming_a_huge_text_is_refused_before_it_is_allocated() {
        // LZ4 saying 4 GB (but not zstd's magic number).
        let err = unpack_block(&[0xff, 0xff, 0xff, 0x7f, 0, 0]).unwrap_err();
        assert!(err.contains("says it holds"), "{err}");
        // A zstd frame saying 1 TB.
        let mut frame = zstd::bulk::compress(b"x", 1).unwrap();
        frame.truncate(4);
        frame.push(0xe0); // an 8-byte content size, a single segment
        frame.extend_from_slice(&(1u64 << 40).to_le_bytes());
        let err = unpack_block(&frame).unwrap_err();
        assert!(err.contains("zstd frame"), "{err}");
        // A damaged frame.
        let mut frame = pack_headers(&[&b"a header block\n\n".repeat(100)]);
        let n = frame.len();
        frame.truncate(n - 3);
        assert!(unpack_block(&frame).is_err());
    }

    #[test]
    fn a_corrupt_frame_is_an_error_not_a_panic() {
        assert!(unpack(b"not lz4 at all").is_err());
        let mut packed = pack_block(&["hello world, hello world"]);
        packed.truncate(packed.len() / 2);
        assert!(unpack(&packed).is_err());
        assert!(body_bytes_in_block(&packed, 0, 3).is_err());
    }
}
