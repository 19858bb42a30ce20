//! Packing bodies and raw header blocks into compressed blocks.
//!
//! A batch's bodies go into `body_blocks` rows LZ4-compressed together
//! ([`pack_bodies`], [`pack_messages`]), and the header blocks of their
//! raw forms into blocks of their own; the writer then stores each block
//! once (`insert_block`) and every message names a byte range of one
//! ([`BodyBlocks`]). The format of a block is [`crate::store::body`]'s.

use rusqlite::{Connection, params};

use super::Record;
use crate::error::Result;
use crate::model::{Message, Origin};
use crate::store::DbContext;

/// Where a new message's body is stored: a byte range of a block's text
/// (see [`crate::store::body`]), and its raw form's header block in a
/// block of headers.
#[derive(Debug, Clone)]
pub(in crate::store) struct BodyAt {
    /// The compressed block, on the first message of the block only: the
    /// writer stores it before that message, and the messages after it name
    /// the block stored last.
    pub(in crate::store) block: Option<Vec<u8>>,
    pub(in crate::store) start: usize,
    pub(in crate::store) len: usize,
    /// The compressed block of the header blocks ([`RawPiece`]) of the
    /// same messages, on the first message of the block only, like `block`.
    pub(in crate::store) raw_block: Option<Vec<u8>>,
    /// The header block's range in that block's text.
    pub(in crate::store) raw_start: usize,
    pub(in crate::store) raw_len: usize,
    /// The body's range is in the block of header blocks (a raw body, see
    /// [`pack_pieces`]), not in the block of bodies.
    pub(in crate::store) body_in_raw: bool,
}

impl BodyAt {
    /// The stored body's range, given the blocks the writer stored last
    /// (`None`: no body; `Err`: its block was not written).
    pub(in crate::store) fn body_range(
        &self,
        blocks: &BodyBlocks,
    ) -> std::result::Result<Option<Range>, ()> {
        if self.len == 0 {
            return Ok(None);
        }
        let block = if self.body_in_raw {
            blocks.last_raw
        } else {
            blocks.last
        };
        Ok(Some((block.ok_or(())?, self.start as i64, self.len as i64)))
    }

    /// The header block's range (`None`: no raw form).
    pub(in crate::store) fn head_range(
        &self,
        blocks: &BodyBlocks,
    ) -> std::result::Result<Option<Range>, ()> {
        if self.raw_len == 0 {
            return Ok(None);
        }
        let block = blocks.last_raw.ok_or(())?;
        Ok(Some((block, self.raw_start as i64, self.raw_len as i64)))
    }
}

/// A byte range of a block's text: (block, start, len).
pub(in crate::store) type Range = (i64, i64, i64);

/// What of a message's raw form is stored besides its body: its header
/// block (the raw bytes up to and including the blank line), and its raw
/// body when that is not byte for byte the decoded body (a quoted-printable,
/// base64 or multipart message), which is then stored in the decoded
/// body's place (`messages.body_raw`) and the body decoded again when read.
/// Either way the raw form is the header block followed by the stored
/// body, and nothing is stored twice. Made on the parallel stage from the
/// raw message and its decoded body ([`RawPiece::of`]), so that the
/// source's buffer can go at once.
#[derive(Debug, Clone)]
pub struct RawPiece {
    /// The header block (emptied once packed in a block).
    pub(in crate::store) head: Vec<u8>,
    /// The raw body, when it is not the decoded body (emptied once packed).
    pub(in crate::store) body: Option<Vec<u8>>,
    /// Length of the whole raw message.
    pub(in crate::store) len: usize,
}

impl RawPiece {
    /// The piece of RFC 5322 mail `bytes` whose decoded body is `body`
    /// (`None` for archive-rendered and collapsed text: no raw form).
    pub fn of(format: crate::model::RawFormat, bytes: &[u8], body: &str) -> Option<RawPiece> {
        if format != crate::model::RawFormat::Rfc822 {
            return None;
        }
        let head = crate::mail::copies::header_len(bytes);
        let rest = bytes.get(head..).unwrap_or_default();
        Some(RawPiece {
            head: bytes[..head].to_vec(),
            body: (rest != body.as_bytes()).then(|| rest.to_vec()),
            len: bytes.len(),
        })
    }

    /// [`RawPiece::of`] the raw message `raw`, but `None` for one read from
    /// a public-inbox epoch: the epoch keeps it under its commit id, which
    /// the copy's origin names, so it is not copied
    /// ([`crate::source::public_inbox::message_in`] reads it back).
    pub fn of_message(raw: &crate::model::RawMessage, body: &str) -> Option<RawPiece> {
        match raw.origin {
            crate::model::Origin::Git { .. } => None,
            _ => RawPiece::of(raw.format, &raw.bytes, body),
        }
    }

    /// Whether the stored body is the raw body (not the decoded one).
    pub(in crate::store) fn body_raw(&self) -> bool {
        self.body.is_some()
    }
}

/// The bytes stored as a record's body: its raw body when that is not the
/// decoded body ([`RawPiece`]), else the decoded body.
pub(in crate::store) fn stored_body(rec: &Record) -> &[u8] {
    match rec.raw.as_ref().and_then(|w| w.body.as_deref()) {
        Some(raw) => raw,
        None => rec.message.body.as_bytes(),
    }
}

/// Where a copy's body and raw form are, as (block, start, len).
#[derive(Debug, Clone, Copy, Default)]
pub(in crate::store) struct Placed {
    pub(in crate::store) body: Option<(i64, i64, i64)>,
    pub(in crate::store) head: Option<(i64, i64, i64)>,
    pub(in crate::store) tail: Option<(i64, i64, i64)>,
    /// The body range holds the raw body, not the decoded one.
    pub(in crate::store) body_raw: bool,
}

/// The blocks the writer stored last (see [`insert_record`](super::insert_record)): of bodies,
/// and of header blocks; one per writer, kept across its calls.
#[derive(Debug, Default)]
pub struct BodyBlocks {
    pub(in crate::store) last: Option<i64>,
    pub(in crate::store) last_raw: Option<i64>,
}

/// Compresses the bodies of these records of new messages in blocks of
/// consecutive bodies, and their header blocks in blocks of their own
/// (`pack_pieces`), and empties their `message.body`. Records of known
/// messages, empty bodies and messages read from a public-inbox epoch
/// (whose body the epoch keeps, see [`body`](crate::store::body)) are left
/// alone. Pass the records in the order they are written; a record not
/// packed here is given a block of its own when written. (The ingest packs
/// its messages earlier, from their raw bytes: [`pack_messages`].)
pub fn pack_bodies(records: Vec<&mut Record>) {
    let mut packable: Vec<&mut Record> = records
        .into_iter()
        .filter(|r| {
            r.columns.is_some()
                && !super::in_epoch(r)
                && (!stored_body(r).is_empty() || r.raw.is_some())
        })
        .collect();
    let pieces: Vec<Piece<'_>> = packable
        .iter()
        .map(|r| Piece {
            text: stored_body(r),
            head: r.raw.as_ref().map_or(&[][..], |w| &w.head[..]),
            raw_body: r.raw.as_ref().is_some_and(RawPiece::body_raw),
        })
        .collect();
    let placed = pack_pieces(&pieces);
    drop(pieces);
    for (r, at) in packable.iter_mut().zip(placed) {
        if let Some(cols) = r.columns.as_mut() {
            cols.body = Some(at);
        }
        r.message.body = String::new();
        // What is stored is in the blocks now: the copies go.
        if let Some(w) = r.raw.as_mut() {
            w.head = Vec::new();
            w.body = w.body.take().map(|_| Vec::new());
        }
    }
}

/// A new message's body and header block, compressed in their blocks
/// before its record is made ([`pack_messages`]; [`Record::with_packed`]).
#[derive(Debug, Clone)]
pub struct Packed {
    pub(in crate::store) at: BodyAt,
    pub(in crate::store) piece: Option<RawPiece>,
}

/// Compresses the stored bodies and header blocks of new messages, in
/// their order, straight from the raw bytes they were parsed from (nothing
/// is copied first; see [`RawPiece`] for what is stored), in blocks of
/// consecutive messages (`pack_pieces`). `None` for a message with
/// nothing to store here: read from a public-inbox epoch (which keeps its
/// body and raw form), or with an empty body and no raw form.
pub fn pack_messages(msgs: &[(&Message, &crate::model::RawMessage)]) -> Vec<Option<Packed>> {
    use crate::model::RawFormat;
    let mut pieces: Vec<Piece<'_>> = Vec::new();
    let mut metas: Vec<Option<Option<RawPiece>>> = Vec::with_capacity(msgs.len());
    for (msg, raw) in msgs {
        let (text, head, piece): (&[u8], &[u8], Option<RawPiece>) = match raw.origin {
            Origin::Git { .. } => {
                metas.push(None);
                continue;
            }
            _ if raw.format == RawFormat::Rfc822 => {
                let bytes: &[u8] = &raw.bytes;
                let head = crate::mail::copies::header_len(bytes);
                let rest = bytes.get(head..).unwrap_or_default();
                let body_raw = rest != msg.body.as_bytes();
                let piece = RawPiece {
                    head: Vec::new(),
                    body: body_raw.then(Vec::new),
                    len: bytes.len(),
                };
                (rest, &bytes[..head], Some(piece))
            }
            _ => (msg.body.as_bytes(), &[][..], None),
        };
        if text.is_empty() && piece.is_none() {
            metas.push(None);
            continue;
        }
        pieces.push(Piece {
            text,
            head,
            raw_body: piece.as_ref().is_some_and(RawPiece::body_raw),
        });
        metas.push(Some(piece));
    }
    let mut placed = pack_pieces(&pieces).into_iter();
    metas
        .into_iter()
        .map(|meta| {
            let piece = meta?;
            Some(Packed {
                at: placed.next()?,
                piece,
            })
        })
        .collect()
}

/// A message's stored body and header block, to be compressed.
pub(in crate::store) struct Piece<'a> {
    pub(in crate::store) text: &'a [u8],
    pub(in crate::store) head: &'a [u8],
    /// `text` is the raw body (not the decoded one).
    pub(in crate::store) raw_body: bool,
}

/// Compresses consecutive messages' stored bodies and header blocks: the
/// decoded bodies in blocks of about
/// [`body::BLOCK_BYTES`](crate::store::body::BLOCK_BYTES) of stored text
/// ([`body::block_ranges`](crate::store::body::block_ranges)), LZ4, where
/// bodies compress against bodies; the header blocks of the same messages
/// in a block of their own beside each, zstd
/// ([`pack_headers`](crate::store::body::pack_headers)), each followed by
/// the message's raw body when that is what is stored: base64 and
/// quoted-printable text needs zstd's entropy coding, which LZ4 lacks (on
/// linux-ext4 its 52 MB of raw bodies take 25 MB as LZ4). One pair of
/// blocks per rayon task. Each message's place, in order; the first of a
/// block brings the blocks.
pub(in crate::store) fn pack_pieces(pieces: &[Piece<'_>]) -> Vec<BodyAt> {
    use rayon::prelude::*;
    let lens: Vec<usize> = pieces.iter().map(|p| p.text.len()).collect();
    let ranges = crate::store::body::block_ranges(&lens);
    let groups: Vec<Vec<BodyAt>> = ranges
        .into_par_iter()
        .map(|range| {
            let group = &pieces[range];
            let texts: Vec<&[u8]> = group
                .iter()
                .filter(|p| !p.raw_body)
                .map(|p| p.text)
                .collect();
            let raws: Vec<&[u8]> = group
                .iter()
                .flat_map(|p| [p.head, if p.raw_body { p.text } else { &[] }])
                .collect();
            let mut block = texts
                .iter()
                .any(|t| !t.is_empty())
                .then(|| crate::store::body::pack_bytes(&texts));
            let mut raw_block = raws
                .iter()
                .any(|r| !r.is_empty())
                .then(|| crate::store::body::pack_headers(&raws));
            let (mut start, mut raw_start) = (0, 0);
            group
                .iter()
                .map(|p| {
                    let (body_start, raw_len) = (raw_start + p.head.len(), p.head.len());
                    let at = BodyAt {
                        block: block.take(),
                        start: if p.raw_body { body_start } else { start },
                        len: p.text.len(),
                        raw_block: raw_block.take(),
                        raw_start,
                        raw_len,
                        body_in_raw: p.raw_body,
                    };
                    if p.raw_body {
                        raw_start += p.text.len();
                    } else {
                        start += p.text.len();
                    }
                    raw_start += raw_len;
                    at
                })
                .collect()
        })
        .collect();
    groups.into_iter().flatten().collect()
}

/// Stores a compressed block of bodies; returns its row id.
pub(in crate::store) fn insert_block(conn: &Connection, lz4: &[u8]) -> Result<i64> {
    let sum = crate::store::body::checksum(lz4);
    conn.prepare_cached("INSERT INTO body_blocks (lz4, blake3) VALUES (?1, ?2)")
        .db("prepare body block insert")?
        .execute(params![lz4, &sum[..]])
        .db("body block insert")?;
    Ok(conn.last_insert_rowid())
}
