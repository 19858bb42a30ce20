//! Writing messages, extractions, failures and source progress.
//!
//! The ingest pipeline builds a [`Record`] per message on its parallel stage
//! (every JSON column serialised there), compresses a batch's bodies in
//! blocks ([`pack_bodies`]), and the single writer thread calls
//! [`insert_record`] inside a large transaction; statements are prepared once
//! per connection (`prepare_cached`).
//!
//! Message-ID is the key. A known id with the same content (or seen on a new
//! list) is *known*: its new List-IDs are added. A known id with different
//! content is another *copy*: kept once per content hash in
//! `message_copies`, with its raw form, and chosen over the stored one when
//! the rule of [`crate::mail::copies`] prefers it: the message's row, body
//! and extraction are then replaced by the copy's, and the next link
//! relinks what it reaches ([`Outcome::Replaced`]).
//!
//! Every copy stored keeps its raw form (the message as received) once
//! (schema v19): its header block, in a block of header blocks
//! ([`crate::store::body::pack_headers`]), followed by its stored body. The
//! stored body is the decoded body when that is byte for byte the raw body
//! (most plain-text list mail: 38,591 of linux-ext4's 42,700 messages),
//! else the raw body (`messages.body_raw`: quoted-printable, base64,
//! multipart; in the block of header blocks, after its own), from which
//! the body is decoded again when read
//! ([`crate::store::body`]). A copy read from a public-inbox epoch stores
//! neither: the epoch keeps them.
//!
//! A message's only copy has no `message_copies` row (v16 for a copy read
//! from an epoch, v19 for any): everything the row would hold is the
//! `messages` row's (its header block's place among them) and its
//! List-IDs; such rows were 74 MB of a four-list database read from its
//! epochs and 10 MB of linux-ext4 read as an mbox. The row is made from
//! them (`materialize_copy`) before anything would tell the copy apart
//! from the message: another copy arriving, or the same content on a new
//! list.

use rusqlite::{Connection, OptionalExtension, params};

use super::DbContext;
use super::Store;
use crate::error::Result;
use crate::mail::subject::list_key;
use crate::model::{
    Extraction, Hunk, KconfigChange, Kind, Message, Origin, ProfileEntry, ReportBody, Reproducer,
    SubjectReport,
};

/// One message ready to be written, with its JSON columns serialised.
#[derive(Debug, Clone)]
pub struct Record {
    /// The decoded message.
    pub message: Message,
    /// Where it came from.
    pub origin: Origin,
    /// What the extractors found.
    pub extraction: Extraction,
    /// Version of the extraction logic.
    pub extraction_version: i64,
    origin_json: String,
    /// The raw form, when the message was read as RFC 5322 mail.
    raw: Option<RawPiece>,
    /// The columns of a new row; `None` for a message that was already stored
    /// when it was parsed (built by the writer should it be new after all).
    columns: Option<Columns>,
}

/// The columns only a new message's rows need (serialised and compressed on
/// the parallel stage, so that the single writer only binds them).
#[derive(Debug, Clone)]
struct Columns {
    norm_subject: String,
    /// References, space-separated.
    refs: String,
    parts_json: String,
    /// `None` when the extraction holds nothing beyond its kind and the
    /// per-kind tables (no row is written; see [`Residual::is_empty`]).
    extraction_json: Option<String>,
    /// Where the body is stored, once [`pack_bodies`] compressed it.
    body: Option<BodyAt>,
    /// `hunks_json` of each diff ([`hunks_json`]).
    hunks_json: Vec<String>,
    /// `params_json`, `commits_json` and each row's `row_json` of each table.
    tables_json: Vec<(String, String, Vec<String>)>,
    /// `params_json` of the body report and of each impact entry.
    report_params_json: Vec<String>,
    /// The message's link keys but those its patch implies
    /// (`crate::link::keys::stored`).
    link_keys: Vec<String>,
}

impl Columns {
    fn of(message: &Message, extraction: &Extraction) -> Columns {
        Columns {
            hunks_json: extraction
                .diffs
                .iter()
                .map(|d| hunks_json(&d.hunks))
                .collect(),
            tables_json: extraction
                .tables
                .iter()
                .map(|t| {
                    let rows = t.rows.iter().map(to_json).collect();
                    (to_json(&t.params), to_json(&t.commits), rows)
                })
                .collect(),
            report_params_json: extraction
                .report
                .iter()
                .flat_map(|b| {
                    std::iter::once(to_json(&b.parameters))
                        .chain(b.also_impacts.iter().map(|i| to_json(&i.parameters)))
                })
                .collect(),
            norm_subject: list_key(&message.subject),
            link_keys: crate::link::keys::stored(
                &message.subject,
                message.references.is_empty()
                    && message.in_reply_to.as_deref().is_none_or(str::is_empty),
                extraction,
            ),
            refs: message.references.join(" "),
            parts_json: to_json(&message.parts),
            extraction_json: if whole_json(extraction.kind) {
                Some(to_json(extraction))
            } else {
                let residual = Residual::of(extraction);
                (!residual.is_empty()).then(|| to_json(&residual))
            },
            body: None,
        }
    }
}

/// Where a new message's body is stored: a byte range of a block's text
/// (see [`crate::store::body`]), and its raw form's header block in a
/// block of headers.
#[derive(Debug, Clone)]
struct BodyAt {
    /// The compressed block, on the first message of the block only: the
    /// writer stores it before that message, and the messages after it name
    /// the block stored last.
    block: Option<Vec<u8>>,
    start: usize,
    len: usize,
    /// The compressed block of the header blocks ([`RawPiece`]) of the
    /// same messages, on the first message of the block only, like `block`.
    raw_block: Option<Vec<u8>>,
    /// The header block's range in that block's text.
    raw_start: usize,
    raw_len: usize,
    /// The body's range is in the block of header blocks (a raw body, see
    /// [`pack_pieces`]), not in the block of bodies.
    body_in_raw: bool,
}

impl BodyAt {
    /// The stored body's range, given the blocks the writer stored last
    /// (`None`: no body; `Err`: its block was not written).
    fn body_range(&self, blocks: &BodyBlocks) -> std::result::Result<Option<Range>, ()> {
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
    fn head_range(&self, blocks: &BodyBlocks) -> std::result::Result<Option<Range>, ()> {
        if self.raw_len == 0 {
            return Ok(None);
        }
        let block = blocks.last_raw.ok_or(())?;
        Ok(Some((block, self.raw_start as i64, self.raw_len as i64)))
    }
}

/// A byte range of a block's text: (block, start, len).
type Range = (i64, i64, i64);

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
    head: Vec<u8>,
    /// The raw body, when it is not the decoded body (emptied once packed).
    body: Option<Vec<u8>>,
    /// Length of the whole raw message.
    len: usize,
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
    fn body_raw(&self) -> bool {
        self.body.is_some()
    }
}

/// The bytes stored as a record's body: its raw body when that is not the
/// decoded body ([`RawPiece`]), else the decoded body.
fn stored_body(rec: &Record) -> &[u8] {
    match rec.raw.as_ref().and_then(|w| w.body.as_deref()) {
        Some(raw) => raw,
        None => rec.message.body.as_bytes(),
    }
}

/// Where a copy's body and raw form are, as (block, start, len).
#[derive(Debug, Clone, Copy, Default)]
struct Placed {
    body: Option<(i64, i64, i64)>,
    head: Option<(i64, i64, i64)>,
    tail: Option<(i64, i64, i64)>,
    /// The body range holds the raw body, not the decoded one.
    body_raw: bool,
}

/// The blocks the writer stored last (see [`insert_record`]): of bodies,
/// and of header blocks; one per writer, kept across its calls.
#[derive(Debug, Default)]
pub struct BodyBlocks {
    last: Option<i64>,
    last_raw: Option<i64>,
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
            r.columns.is_some() && !in_epoch(r) && (!stored_body(r).is_empty() || r.raw.is_some())
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
    at: BodyAt,
    piece: Option<RawPiece>,
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
struct Piece<'a> {
    text: &'a [u8],
    head: &'a [u8],
    /// `text` is the raw body (not the decoded one).
    raw_body: bool,
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
fn pack_pieces(pieces: &[Piece<'_>]) -> Vec<BodyAt> {
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

impl Record {
    /// Builds a record (serialises the JSON columns; meant for the parallel
    /// stage). The body is compressed by [`pack_bodies`], or else when the
    /// record is written.
    pub fn new(message: Message, origin: Origin, extraction: Extraction) -> Record {
        let columns = Columns::of(&message, &extraction);
        Record {
            origin_json: to_json(&origin),
            message,
            origin,
            extraction,
            extraction_version: crate::extract::EXTRACTION_VERSION,
            raw: None,
            columns: Some(columns),
        }
    }

    /// The record with the raw message it was parsed from, whose raw form
    /// is then stored with it (for RFC 5322 mail; archive-rendered and
    /// collapsed text has none). Call before [`pack_bodies`].
    pub fn with_raw(mut self, raw: &crate::model::RawMessage) -> Record {
        self.raw = RawPiece::of_message(raw, &self.message.body);
        self
    }

    /// The record of a message [`pack_messages`] packed: its body and
    /// header block are in blocks now, so its decoded body goes.
    pub fn with_packed(mut self, packed: Packed) -> Record {
        if let Some(cols) = self.columns.as_mut() {
            cols.body = Some(packed.at);
            self.raw = packed.piece;
            self.message.body = String::new();
        }
        self
    }

    /// The record with the raw piece made of its message already
    /// ([`RawPiece::of`]).
    pub fn with_piece(mut self, piece: Option<RawPiece>) -> Record {
        self.raw = piece;
        self
    }

    /// A record of a message whose Message-ID the store already holds: not
    /// extracted, nothing serialised or compressed but its origin. (A re-read
    /// archive, or the same mail on another list, costs little more than
    /// parsing.)
    pub fn known(message: Message, origin: Origin) -> Record {
        Record {
            origin_json: to_json(&origin),
            message,
            origin,
            extraction: Extraction::default(),
            extraction_version: crate::extract::EXTRACTION_VERSION,
            raw: None,
            columns: None,
        }
    }

    /// The message and origin back (of a [`Record::known`] to extract after
    /// all), with its raw piece.
    pub fn into_parts(self) -> (Message, Origin, Option<RawPiece>) {
        (self.message, self.origin, self.raw)
    }
}

/// Kinds whose whole extraction is kept as JSON (the linker reads it back).
fn whole_json(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::PerfReport | Kind::FunctionalReport | Kind::BuildReport
    )
}

/// The part of an [`Extraction`] that no table of its own holds: what
/// `extractions.json` keeps for mail that is not a robot report. Field names
/// are `Extraction`'s; the lists stored as rows are written empty.
#[derive(serde::Serialize)]
struct Residual<'a> {
    kind: Kind,
    subject_report: &'a Option<Box<SubjectReport>>,
    report: &'a Option<Box<ReportBody>>,
    tables: [(); 0],
    diffs: [(); 0],
    trailers: [(); 0],
    commits: [(); 0],
    profiles: &'a [ProfileEntry],
    reproducers: &'a [Reproducer],
    kconfig: &'a [KconfigChange],
    signals: [(); 0],
    events: [(); 0],
    lore_links: [(); 0],
}

impl<'a> Residual<'a> {
    fn of(ex: &'a Extraction) -> Self {
        Residual {
            kind: ex.kind,
            subject_report: &ex.subject_report,
            report: &ex.report,
            tables: [],
            diffs: [],
            trailers: [],
            commits: [],
            profiles: &ex.profiles,
            reproducers: &ex.reproducers,
            kconfig: &ex.kconfig,
            signals: [],
            events: [],
            lore_links: [],
        }
    }

    /// Nothing to keep: no subject or body report facts, profiles,
    /// reproducers or Kconfig changes (95 % of a list's mail). The kind is
    /// `messages.kind`, the rest is in the per-kind tables.
    fn is_empty(&self) -> bool {
        self.subject_report.is_none()
            && self.report.is_none()
            && self.profiles.is_empty()
            && self.reproducers.is_empty()
            && self.kconfig.is_empty()
    }
}

/// The `i`-th serialised column of a list, `null` past its end.
fn json(list: &[String], i: usize) -> &str {
    list.get(i).map_or("null", String::as_str)
}

fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_string())
}

/// The `diffs.hunks_json` of a diff's hunks: an array per hunk,
/// `[old_start, old_lines, new_start, new_lines, context, added, removed]`,
/// the fields of [`Hunk`] in their order, which serde reads back as a
/// `Hunk` as it reads the object form that rows written before hold. The
/// object form repeated the seven names in every hunk: 99 of the 140 MB of
/// `diffs` on four lists, all of it written, copied into the WAL and
/// checkpointed on every ingest.
fn hunks_json(hunks: &[Hunk]) -> String {
    // Written by hand, as serde writes the tuples (numbers by `itoa`, as
    // serde_json does; `write!` took twice the instructions): a quarter of
    // the columns' serialising went to building and walking tuples.
    let context: usize = hunks.iter().map(|h| h.context.len()).sum();
    let mut out = String::with_capacity(2 + hunks.len() * 48 + context);
    let mut num = itoa::Buffer::new();
    out.push('[');
    for (i, h) in hunks.iter().enumerate() {
        let Hunk {
            old_start,
            old_lines,
            new_start,
            new_lines,
            context,
            added,
            removed,
        } = h;
        out.push_str(if i > 0 { ",[" } else { "[" });
        for n in [old_start, old_lines, new_start, new_lines] {
            out.push_str(num.format(*n));
            out.push(',');
        }
        // JSON escapes only quotes, backslashes and control characters.
        if context.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
            out.push_str(&to_json(context));
        } else {
            out.push('"');
            out.push_str(context);
            out.push('"');
        }
        out.push(',');
        out.push_str(num.format(*added));
        out.push(',');
        out.push_str(num.format(*removed));
        out.push(']');
    }
    out.push(']');
    out
}

/// A stored message extracted again by a newer extractor, serialised on
/// the parallel stage ([`replace_extraction`] writes it).
#[derive(Debug, Clone)]
pub struct Reextracted {
    /// `messages.id`.
    pub id: i64,
    extraction: Extraction,
    columns: Columns,
}

impl Reextracted {
    /// The new extraction of the stored message `id`.
    pub fn new(id: i64, message: &Message, extraction: Extraction) -> Reextracted {
        let columns = Columns::of(message, &extraction);
        Reextracted {
            id,
            extraction,
            columns,
        }
    }
}

/// Replaces the extraction rows of a stored message by a newer extractor's
/// (inside the caller's write transaction): its kind, every per-kind row and
/// its extraction version.
pub fn replace_extraction(store: &Store, r: &Reextracted, version: i64) -> Result<()> {
    let conn = store.conn();
    delete_extraction(conn, r.id)?;
    let sql = "UPDATE messages SET kind = ?2, extraction_version = ?3 WHERE id = ?1";
    conn.prepare_cached(sql)
        .db(sql)?
        .execute(params![r.id, r.extraction.kind.as_str(), version])
        .db(sql)?;
    insert_extraction(conn, r.id, &r.extraction, version, &r.columns)
}

/// Deletes every extraction row of message `id`.
fn delete_extraction(conn: &Connection, id: i64) -> Result<()> {
    for sql in [
        "DELETE FROM table_rows WHERE tbl IN (SELECT id FROM tables WHERE message = ?1)",
        "DELETE FROM tables WHERE message = ?1",
        "DELETE FROM extractions WHERE message = ?1",
        "DELETE FROM reports WHERE message = ?1",
        "DELETE FROM trailers WHERE message = ?1",
        "DELETE FROM commit_refs WHERE message = ?1",
        "DELETE FROM diffs WHERE message = ?1",
        "DELETE FROM signals WHERE message = ?1",
        "DELETE FROM events WHERE message = ?1",
        "DELETE FROM lore_links WHERE message = ?1",
        "DELETE FROM patches WHERE message = ?1",
        "DELETE FROM landings WHERE message = ?1",
        "DELETE FROM link_keys WHERE message = ?1",
    ] {
        conn.prepare_cached(sql).db(sql)?.execute([id]).db(sql)?;
    }
    Ok(())
}

/// What [`insert_record`] did with a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A new message, with its row id.
    New(i64),
    /// Already stored (same content, or the same message seen on another list).
    Known,
    /// A different copy of a known Message-ID (first time seen), kept; the
    /// stored one stays chosen.
    Duplicate,
    /// A different copy of a known Message-ID, kept and chosen: it replaced
    /// the stored message (headers, body, extraction); the next update
    /// relinks the histories it reaches (`link_changed`), or everything
    /// when its headers or linking facts differ from the stored copy's.
    Replaced,
    /// A [`Record::known`] whose Message-ID is not stored after all, or
    /// whose content is a copy not stored yet: nothing was written; extract
    /// the message and insert a [`Record::new`].
    Unprepared,
}

/// Writes one message and everything extracted from it. `blocks` is the
/// writer's: a record [`pack_bodies`] packed may name the block an earlier
/// record brought.
pub fn insert_record(
    store: &Store,
    rec: &Record,
    now: i64,
    blocks: &mut BodyBlocks,
) -> Result<Outcome> {
    let conn = store.conn();
    // The first message of a block brings it, stored whatever becomes of the
    // message (the messages after it name it).
    if let Some(at) = rec.columns.as_ref().and_then(|c| c.body.as_ref()) {
        if let Some(lz4) = &at.block {
            blocks.last = Some(insert_block(conn, lz4)?);
        }
        if let Some(lz4) = &at.raw_block {
            blocks.last_raw = Some(insert_block(conn, lz4)?);
        }
    }
    // A new message is inserted at once (one probe of the Message-ID index);
    // only a known id, which inserts nothing, is looked up.
    if let Some(cols) = &rec.columns
        && let Some(id) = insert_new(conn, rec, cols, now, blocks)?
    {
        return Ok(Outcome::New(id));
    }
    let msg = &rec.message;
    // The chosen copy's raw form is missing when it was stored before v14
    // (one read from an epoch is not copied: the epoch keeps it).
    let sql = "SELECT m.id, m.content_hash, c.id,
                      c.head_block IS NULL AND json_extract(c.origin_json, '$.type') IS NOT 'git'
               FROM messages m LEFT JOIN message_copies c ON c.message = m.id AND c.chosen = 1
               WHERE m.message_id = ?1";
    let existing: Option<(i64, String, Option<i64>, Option<bool>)> = conn
        .prepare_cached(sql)
        .db("prepare message lookup")?
        .query_row([&msg.message_id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .optional()
        .db("message lookup")?;
    let Some((id, hash, chosen, raw_missing)) = existing else {
        return Ok(Outcome::Unprepared);
    };
    // The copy's own List-IDs are the message's until a new one is added.
    if chosen.is_none() && new_lists(conn, id, &msg.list_ids)? {
        materialize_copy(conn, id)?;
    }
    insert_lists(conn, id, &msg.list_ids)?;
    if hash == msg.content_hash {
        if let (Some(copy), Some(true)) = (chosen, raw_missing) {
            backfill_raw(conn, copy, rec, blocks)?;
        }
        return Ok(Outcome::Known);
    }
    let sql = "SELECT 1 FROM message_copies WHERE message = ?1 AND content_hash = ?2";
    let seen = conn
        .prepare_cached(sql)
        .db(sql)?
        .exists(params![id, msg.content_hash])
        .db(sql)?;
    if seen {
        return Ok(Outcome::Known);
    }
    match &rec.columns {
        Some(cols) => add_copy(store, id, rec, cols, now, blocks),
        None => Ok(Outcome::Unprepared),
    }
}

/// Stores the raw form of a known message's chosen copy stored before v14
/// (a re-ingest brought the same content again).
fn backfill_raw(conn: &Connection, copy: i64, rec: &Record, blocks: &BodyBlocks) -> Result<()> {
    let Some(raw) = &rec.raw else {
        return Ok(());
    };
    let packed = rec
        .columns
        .as_ref()
        .and_then(|c| c.body.as_ref())
        .map(|at| {
            let body = at.body_range(blocks).ok()?;
            Some((at.head_range(blocks).ok()??, body))
        });
    let (head, tail) = match packed {
        // Packed with the batch: its header block, and its body's range,
        // which holds its raw body.
        Some(Some(placed)) => placed,
        // Not packed: its header block and raw body in a block of their own.
        _ => {
            let body = stored_body(rec);
            let whole = crate::store::body::pack_bytes(&[&raw.head, body]);
            let block = insert_block(conn, &whole)?;
            let head_len = raw.head.len() as i64;
            let tail = (!body.is_empty()).then_some((block, head_len, body.len() as i64));
            ((block, 0, head_len), tail)
        }
    };
    let sql = "UPDATE message_copies SET head_block = ?2, head_start = ?3, head_len = ?4,
                   tail_block = ?5, tail_start = ?6, tail_len = ?7, raw_size = ?8 WHERE id = ?1";
    conn.prepare_cached(sql)
        .db(sql)?
        .execute(params![
            copy,
            head.0,
            head.1,
            head.2,
            tail.map(|t| t.0),
            tail.map(|t| t.1),
            tail.map(|t| t.2),
            raw.len as i64
        ])
        .db(sql)?;
    Ok(())
}

/// Where a record's body and raw form are stored: in the blocks the writer
/// stored last when [`pack_bodies`] packed it (nothing is written), else
/// in a block of its own, written now. The raw form is the header block
/// followed by the body's range (which holds the raw body when that is not
/// the decoded one).
fn place(conn: &Connection, rec: &Record, cols: &Columns, blocks: &BodyBlocks) -> Result<Placed> {
    let raw = rec.raw.as_ref();
    let unwritten = || crate::error::Error::Message {
        origin: format!("message <{}>", rec.message.message_id),
        reason: "internal: its body's block was not written before it".into(),
    };
    let (body, head) = match &cols.body {
        Some(at) => {
            let body = at.body_range(blocks).map_err(|()| unwritten())?;
            let head = match raw {
                Some(_) => at.head_range(blocks).map_err(|()| unwritten())?,
                None => None,
            };
            return Ok(Placed {
                body,
                head,
                tail: head.and(body),
                body_raw: raw.is_some_and(RawPiece::body_raw),
            });
        }
        None => {
            let body = stored_body(rec);
            let piece: &[u8] = raw.map_or(&[], |w| &w.head);
            if body.is_empty() && piece.is_empty() {
                return Ok(Placed {
                    body_raw: raw.is_some_and(RawPiece::body_raw),
                    ..Placed::default()
                });
            }
            let block = insert_block(conn, &crate::store::body::pack_bytes(&[body, piece]))?;
            let head =
                (!piece.is_empty()).then_some((block, body.len() as i64, piece.len() as i64));
            ((block, 0, body.len()), head)
        }
    };
    let (block, start, len) = body;
    let body = (len > 0).then_some((block, start as i64, len as i64));
    Ok(Placed {
        body,
        head,
        tail: head.and(body),
        body_raw: raw.is_some_and(RawPiece::body_raw),
    })
}

/// Whether any of `lists` is not among the List-IDs of message `id`.
fn new_lists(conn: &Connection, id: i64, lists: &[String]) -> Result<bool> {
    let sql = "SELECT 1 FROM message_lists WHERE message = ?1 AND list_id = ?2";
    let mut st = conn.prepare_cached(sql).db(sql)?;
    for l in lists {
        if !st.exists(params![id, l]).db(sql)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Writes the `message_copies` row of message `id`'s only copy when it has
/// none (see the module docs): the `messages` row's hash, origin, sender,
/// size, time and raw form (its header block, then its body's range), and
/// the message's List-IDs.
fn materialize_copy(conn: &Connection, id: i64) -> Result<()> {
    let sql = format!(
        "INSERT INTO message_copies (message, content_hash, origin_json, from_name,
             from_email, raw_size, lists, complete, chosen, reason, head_block, head_start,
             head_len, tail_block, tail_start, tail_len, seen_at)
         SELECT m.id, m.content_hash, m.origin_json, m.from_name, m.from_email, m.raw_size,
                {}, 1, 1, NULL, m.head_block, m.head_start, m.head_len,
                {MESSAGE_TAIL}, m.ingested_at
         FROM messages m
         WHERE m.id = ?1 AND NOT EXISTS (SELECT 1 FROM message_copies WHERE message = ?1)",
        super::copies::MESSAGE_LISTS,
        MESSAGE_TAIL = super::copies::MESSAGE_TAIL,
    );
    conn.prepare_cached(&sql).db(&sql)?.execute([id]).db(&sql)?;
    Ok(())
}

/// Whether the record was read from a public-inbox epoch, which keeps its
/// body and raw form: a new message's are not stored (see
/// [`body`](crate::store::body)).
fn in_epoch(rec: &Record) -> bool {
    matches!(rec.origin, Origin::Git { .. })
}

/// Inserts the `message_copies` row of a copy of message `id`.
fn insert_copy(
    conn: &Connection,
    id: i64,
    rec: &Record,
    placed: &Placed,
    (chosen, complete, reason): (bool, bool, Option<&str>),
    now: i64,
) -> Result<i64> {
    let msg = &rec.message;
    let (h, t) = (placed.head, placed.tail);
    let sql = "INSERT INTO message_copies (message, content_hash, origin_json, from_name,
                   from_email, raw_size, lists, complete, chosen, reason, head_block, head_start,
                   head_len, tail_block, tail_start, tail_len, seen_at)
               VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)";
    conn.prepare_cached(sql)
        .db(sql)?
        .execute(params![
            id,
            msg.content_hash,
            rec.origin_json,
            msg.from_name,
            msg.from_email,
            msg.raw_size as i64,
            msg.list_ids.join(" "),
            complete,
            chosen,
            reason,
            h.map(|x| x.0),
            h.map(|x| x.1),
            h.map(|x| x.2),
            t.map(|x| x.0),
            t.map(|x| x.1),
            t.map(|x| x.2),
            now
        ])
        .db(sql)?;
    Ok(conn.last_insert_rowid())
}

/// Rows of a message's tables, stored and left out by the cap.
fn stored_table_rows(conn: &Connection, id: i64) -> Result<u64> {
    let sql = "SELECT (SELECT count(*) FROM table_rows r JOIN tables t ON t.id = r.tbl
                       WHERE t.message = ?1)
                    + (SELECT coalesce(sum(omitted_rows), 0) FROM tables WHERE message = ?1)";
    let n: i64 = conn
        .prepare_cached(sql)
        .db(sql)?
        .query_row([id], |r| r.get(0))
        .db(sql)?;
    Ok(n.max(0) as u64)
}

/// Whether a kind is a robot report, for the choice between copies.
fn robot_kind(kind: &str) -> bool {
    matches!(kind, "perf-report" | "functional-report" | "build-report")
}

/// Keeps a new copy of the stored message `id` and chooses between it and
/// the chosen copy ([`crate::mail::copies::choose`]); a winning copy
/// replaces the message's row, body and extraction.
fn add_copy(
    store: &Store,
    id: i64,
    rec: &Record,
    cols: &Columns,
    now: i64,
    blocks: &BodyBlocks,
) -> Result<Outcome> {
    use crate::mail::copies::{Facts, choose};
    let conn = store.conn();
    let msg = &rec.message;
    materialize_copy(conn, id)?;
    let sql = "SELECT c.id, c.origin_json, c.from_email, c.lists, m.kind
               FROM messages m LEFT JOIN message_copies c ON c.message = m.id AND c.chosen = 1
               WHERE m.id = ?1";
    type Row = (
        Option<i64>,
        Option<String>,
        Option<String>,
        Option<String>,
        String,
    );
    let (old_copy, old_origin, old_from, old_lists, old_kind): Row = conn
        .prepare_cached(sql)
        .db(sql)?
        .query_row([id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .db(sql)?;
    let old_body = super::body::stored_message(store, &msg.message_id)?
        .map(|m| m.body)
        .unwrap_or_default();
    let old_origin: Origin = old_origin
        .and_then(|o| serde_json::from_str(&o).ok())
        .unwrap_or(Origin::Stdin { offset: 0 });
    let old_lists: Vec<String> = old_lists
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let placed = place(conn, rec, cols, blocks)?;
    // A record packed with its batch has its body in the blocks only.
    let new_body = if cols.body.is_some() {
        let unreadable = |reason: String| crate::error::Error::Message {
            origin: format!("message <{}>", msg.message_id),
            reason,
        };
        let stored = match placed.body {
            Some((block, start, len)) => {
                super::body::read_range(conn, block, start, len)?.map_err(unreadable)?
            }
            None => Vec::new(),
        };
        if placed.body_raw {
            super::body::decode_raw(conn, placed.head, &stored)?
                .map_err(unreadable)?
                .0
        } else {
            String::from_utf8_lossy(&stored).into_owned()
        }
    } else {
        msg.body.clone()
    };
    let earlier = Facts {
        body: &old_body,
        robot_report: robot_kind(&old_kind),
        table_rows: stored_table_rows(conn, id)?,
        from_email: old_from.as_deref(),
        lists: &old_lists,
        origin: &old_origin,
    };
    let later = Facts {
        body: &new_body,
        robot_report: robot_kind(rec.extraction.kind.as_str()),
        table_rows: rec
            .extraction
            .tables
            .iter()
            .map(|t| t.rows.len() as u64 + u64::from(t.omitted_rows))
            .sum(),
        from_email: msg.from_email.as_deref(),
        lists: &msg.list_ids,
        origin: &rec.origin,
    };
    let choice = choose(&earlier, &later);
    let reason = choice.reason.as_str();
    let copy = insert_copy(
        conn,
        id,
        rec,
        &placed,
        (
            choice.later_wins,
            !choice.later_truncated,
            choice.later_wins.then_some(reason),
        ),
        now,
    )?;
    if let Some(old) = old_copy {
        let sql = "UPDATE message_copies SET complete = complete AND NOT ?2,
                       reason = CASE WHEN ?3 THEN NULL ELSE ?4 END WHERE id = ?1";
        conn.prepare_cached(sql)
            .db(sql)?
            .execute(params![
                old,
                choice.earlier_truncated,
                choice.later_wins,
                reason
            ])
            .db(sql)?;
    }
    if !choice.later_wins {
        return Ok(Outcome::Duplicate);
    }
    let sql = "UPDATE message_copies SET chosen = 0, reason = NULL WHERE message = ?1 AND id != ?2";
    conn.prepare_cached(sql)
        .db(sql)?
        .execute(params![id, copy])
        .db(sql)?;
    let body = placed.body;
    let before = linking_facts(conn, id)?;
    let sql = "UPDATE messages SET message_id_derived = ?2, subject = ?3, norm_subject = ?4,
                   from_name = ?5, from_email = ?6, date = ?7, in_reply_to = ?8, kind = ?9,
                   parts_json = ?10, content_hash = ?11, raw_size = ?12, origin_json = ?13,
                   refs = ?14, body_block = ?15, body_start = ?16, body_len = ?17,
                   extraction_version = ?18, body_raw = ?19, head_block = ?20,
                   head_start = ?21, head_len = ?22
               WHERE id = ?1";
    conn.prepare_cached(sql)
        .db(sql)?
        .execute(params![
            id,
            msg.message_id_derived,
            msg.subject,
            cols.norm_subject,
            msg.from_name,
            msg.from_email,
            msg.date,
            msg.in_reply_to,
            rec.extraction.kind.as_str(),
            cols.parts_json,
            msg.content_hash,
            msg.raw_size as i64,
            rec.origin_json,
            cols.refs,
            body.map(|b| b.0),
            body.map(|b| b.1),
            body.map(|b| b.2),
            rec.extraction_version,
            placed.body_raw,
            placed.head.map(|b| b.0),
            placed.head.map(|b| b.1),
            placed.head.map(|b| b.2),
        ])
        .db(sql)?;
    let sql = "DELETE FROM bodies WHERE message = ?1";
    conn.prepare_cached(sql).db(sql)?.execute([id]).db(sql)?;
    delete_extraction(conn, id)?;
    insert_extraction(conn, id, &rec.extraction, rec.extraction_version, cols)?;
    if linking_facts(conn, id)? == before {
        // The same threads, choice and keys: an update relinks what the
        // message reaches.
        let sql = "INSERT OR IGNORE INTO link_changed (message) VALUES (?1)";
        conn.prepare_cached(sql).db(sql)?.execute([id]).db(sql)?;
    } else {
        super::trees::set_pending(
            store,
            &format!(
                "a better copy replaced the stored <{}>, with other headers or keys",
                msg.message_id
            ),
        )?;
    }
    Ok(Outcome::Replaced)
}

/// What of a stored message decides its thread, whether it is chosen for
/// linking and what it ties itself to: its headers and kind, link keys,
/// trailers, patch facts, landings and tracker events, as rows of text.
/// Two copies with the same facts differ for linking only in what a
/// relink of the histories they reach recomputes.
fn linking_facts(conn: &Connection, id: i64) -> Result<Vec<String>> {
    const QUERIES: &[&str] = &[
        "SELECT subject || char(1) || coalesce(from_name, '') || char(1) ||
                coalesce(from_email, '') || char(1) || coalesce(date, '') || char(1) ||
                coalesce(in_reply_to, '') || char(1) || refs || char(1) || kind || char(1) ||
                message_id_derived
         FROM messages WHERE id = ?1",
        "SELECT key FROM link_keys WHERE message = ?1 ORDER BY key",
        "SELECT idx || char(1) || key || char(1) || value || char(1) || suggested || char(1) ||
                coalesce(commit_id, '') || char(1) || coalesce(title, '') || char(1) || quote_depth
         FROM trailers WHERE message = ?1 ORDER BY idx",
        "SELECT title || char(1) || title_key || char(1) || coalesce(version, '') || char(1) ||
                coalesce(part, '') || char(1) || coalesce(parts, '') || char(1) || resend ||
                char(1) || rfc || char(1) || coalesce(patch_id, '') || char(1) ||
                coalesce(change_id, '') || char(1) || coalesce(base_commit, '') || char(1) ||
                coalesce(reverts, '') || char(1) || coalesce(reverts_title, '') || char(1) ||
                coalesce(upstream, '')
         FROM patches WHERE message = ?1",
        "SELECT idx || char(1) || kind || char(1) || coalesce(title, '') || char(1) ||
                coalesce(commit_id, '') || char(1) || coalesce(tree, '') || char(1) ||
                coalesce(branch, '') || char(1) || quote_depth
         FROM landings WHERE message = ?1 ORDER BY idx",
        "SELECT idx || char(1) || kind || char(1) || coalesce(tree, '') || char(1) ||
                coalesce(sha, '') || char(1) || text || char(1) || quote_depth
         FROM events WHERE message = ?1 ORDER BY idx",
    ];
    let mut out = Vec::new();
    for (i, sql) in QUERIES.iter().enumerate() {
        out.push(format!("{i}"));
        let mut st = conn.prepare_cached(sql).db(sql)?;
        let rows = st.query_map([id], |r| r.get::<_, String>(0)).db(sql)?;
        for row in rows {
            out.push(row.db(sql)?);
        }
    }
    Ok(out)
}

/// Stores a compressed block of bodies; returns its row id.
fn insert_block(conn: &Connection, lz4: &[u8]) -> Result<i64> {
    let sum = crate::store::body::checksum(lz4);
    conn.prepare_cached("INSERT INTO body_blocks (lz4, blake3) VALUES (?1, ?2)")
        .db("prepare body block insert")?
        .execute(params![lz4, &sum[..]])
        .db("body block insert")?;
    Ok(conn.last_insert_rowid())
}

/// Inserts a message under a Message-ID not stored yet, with everything
/// extracted from it; `None` (nothing written) when the id is stored. Its
/// only copy has no `message_copies` row: the `messages` row holds its
/// raw form's place (see the module docs).
fn insert_new(
    conn: &Connection,
    rec: &Record,
    cols: &Columns,
    now: i64,
    blocks: &BodyBlocks,
) -> Result<Option<i64>> {
    let msg = &rec.message;
    // Packed with its batch: its places are known, and nothing is written
    // unless the message is.
    let packed = match (&cols.body, in_epoch(rec)) {
        (Some(_), false) => Some(place(conn, rec, cols, blocks)?),
        _ => None,
    };
    let placed = packed.unwrap_or_default();
    let (body, head) = (placed.body, placed.head);
    let inserted = conn
        .prepare_cached(
        "INSERT INTO messages (message_id, message_id_derived, subject, norm_subject, from_name,
             from_email, date, in_reply_to, kind, parts_json, content_hash, raw_size,
             origin_json, ingested_at, refs, body_block, body_start, body_len, extraction_version,
             body_raw, head_block, head_start, head_len)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
                 ?19, ?20, ?21, ?22, ?23)
         ON CONFLICT (message_id) DO NOTHING",
    )
    .db("prepare message insert")?
    .execute(params![
        msg.message_id,
        msg.message_id_derived,
        msg.subject,
        cols.norm_subject,
        msg.from_name,
        msg.from_email,
        msg.date,
        msg.in_reply_to,
        rec.extraction.kind.as_str(),
        cols.parts_json,
        msg.content_hash,
        msg.raw_size as i64,
        rec.origin_json,
        now,
        cols.refs,
        body.map(|b| b.0),
        body.map(|b| b.1),
        body.map(|b| b.2),
        rec.extraction_version,
        placed.body_raw,
        head.map(|b| b.0),
        head.map(|b| b.1),
        head.map(|b| b.2),
    ])
    .db("message insert")?;
    if inserted == 0 {
        return Ok(None);
    }
    let id = conn.last_insert_rowid();
    // Not packed with others: a block of its own; none for an epoch's
    // message, whose body and raw form the epoch keeps.
    if packed.is_none() && !in_epoch(rec) {
        let placed = place(conn, rec, cols, blocks)?;
        let (b, h) = (placed.body, placed.head);
        conn.prepare_cached(
            "UPDATE messages SET body_block = ?2, body_start = ?3, body_len = ?4, body_raw = ?5,
                 head_block = ?6, head_start = ?7, head_len = ?8 WHERE id = ?1",
        )
        .db("prepare body update")?
        .execute(params![
            id,
            b.map(|x| x.0),
            b.map(|x| x.1),
            b.map(|x| x.2),
            placed.body_raw,
            h.map(|x| x.0),
            h.map(|x| x.1),
            h.map(|x| x.2),
        ])
        .db("body update")?;
    }
    insert_lists(conn, id, &msg.list_ids)?;
    insert_extraction(conn, id, &rec.extraction, rec.extraction_version, cols)?;
    Ok(Some(id))
}

/// Adds List-IDs to a message; returns how many were new.
fn insert_lists(conn: &Connection, id: i64, lists: &[String]) -> Result<usize> {
    let mut st = conn
        .prepare_cached("INSERT OR IGNORE INTO message_lists (message, list_id) VALUES (?1, ?2)")
        .db("prepare list insert")?;
    let mut added = 0;
    for l in lists {
        added += st.execute(params![id, l]).db("list insert")?;
    }
    Ok(added)
}

/// Writes the extraction of message `id` into every extraction table.
fn insert_extraction(
    conn: &Connection,
    id: i64,
    ex: &Extraction,
    version: i64,
    cols: &Columns,
) -> Result<()> {
    if let Some(extraction_json) = &cols.extraction_json {
        conn.prepare_cached(
            "INSERT OR REPLACE INTO extractions (message, version, json) VALUES (?1, ?2, ?3)",
        )
        .db("prepare extraction insert")?
        .execute(params![id, version, extraction_json])
        .db("extraction insert")?;
    }

    // Most mail is no report: the statement is not even looked up.
    if ex.subject_report.is_some() || ex.report.is_some() {
        insert_reports(conn, id, ex, cols)?;
    }
    if ex.patch.is_some() || !ex.landings.is_empty() {
        insert_patch_and_landings(conn, id, ex)?;
    }
    if !cols.link_keys.is_empty() {
        let sql = "INSERT OR IGNORE INTO link_keys (message, key) VALUES (?1, ?2)";
        let mut st = conn.prepare_cached(sql).db(sql)?;
        for k in &cols.link_keys {
            st.execute(params![id, k]).db(sql)?;
        }
    }

    if !ex.tables.is_empty() {
        let mut table = conn
            .prepare_cached(
                "INSERT INTO tables (message, idx, format, quote_depth, params_json, commits_json,
                     skipped_rows, omitted_rows) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .db("prepare table insert")?;
        let mut row = conn
            .prepare_cached(
                "INSERT INTO table_rows (tbl, idx, metric, max_abs_change, row_json)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .db("prepare table row insert")?;
        for (i, (t, (params_json, commits_json, rows_json))) in
            ex.tables.iter().zip(&cols.tables_json).enumerate()
        {
            table
                .execute(params![
                    id,
                    i as i64,
                    t.format.as_str(),
                    t.quote_depth,
                    params_json,
                    commits_json,
                    t.skipped_rows,
                    t.omitted_rows,
                ])
                .db("table insert")?;
            let tbl = conn.last_insert_rowid();
            for (j, r) in t.rows.iter().enumerate() {
                let max_abs = r
                    .changes
                    .iter()
                    .flatten()
                    .filter_map(|c| c.value)
                    .filter(|v| v.is_finite())
                    .map(f64::abs)
                    .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))));
                row.execute(params![
                    tbl,
                    j as i64,
                    r.metric,
                    max_abs,
                    json(rows_json, j)
                ])
                .db("table row insert")?;
            }
        }
    }

    if !ex.trailers.is_empty() {
        let mut st = conn
            .prepare_cached(
                "INSERT INTO trailers (message, idx, key, value, suggested, commit_id, title,
                     quote_depth) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .db("prepare trailer insert")?;
        for (i, t) in ex.trailers.iter().enumerate() {
            st.execute(params![
                id,
                i as i64,
                t.key,
                t.value,
                t.suggested,
                t.commit,
                t.title,
                t.quote_depth
            ])
            .db("trailer insert")?;
        }
    }

    if !ex.commits.is_empty() {
        let mut st = conn
            .prepare_cached(
                "INSERT OR IGNORE INTO commit_refs (message, commit_id, title, quote_depth)
                 VALUES (?1, ?2, ?3, ?4)",
            )
            .db("prepare commit ref insert")?;
        for c in &ex.commits {
            st.execute(params![id, c.id, c.title, c.quote_depth])
                .db("commit ref insert")?;
        }
    }

    if !ex.diffs.is_empty() {
        let mut st = conn
            .prepare_cached(
                "INSERT INTO diffs (message, idx, old_path, new_path, quote_depth, hunks_json)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .db("prepare diff insert")?;
        for (i, d) in ex.diffs.iter().enumerate() {
            st.execute(params![
                id,
                i as i64,
                d.old_path,
                d.new_path,
                d.quote_depth,
                json(&cols.hunks_json, i)
            ])
            .db("diff insert")?;
        }
    }

    if !ex.signals.is_empty() {
        let mut st = conn
            .prepare_cached(
                "INSERT INTO signals (message, idx, kind, sentence, quote_depth, commit_id, \
                 tentative, mentions) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .db("prepare signal insert")?;
        for (i, s) in ex.signals.iter().enumerate() {
            st.execute(params![
                id,
                i as i64,
                s.kind.as_str(),
                s.sentence,
                s.quote_depth,
                s.commit,
                s.tentative,
                s.mentions
            ])
            .db("signal insert")?;
        }
    }

    if !ex.events.is_empty() {
        let mut st = conn
            .prepare_cached(
                "INSERT INTO events (message, idx, kind, tree, sha, text, quote_depth)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )
            .db("prepare event insert")?;
        for (i, e) in ex.events.iter().enumerate() {
            let kind = serde_json::to_value(e.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            st.execute(params![
                id,
                i as i64,
                kind,
                e.tree,
                e.sha,
                e.text,
                e.quote_depth
            ])
            .db("event insert")?;
        }
    }

    if !ex.lore_links.is_empty() {
        let mut st = conn
            .prepare_cached("INSERT OR IGNORE INTO lore_links (message, target_id) VALUES (?1, ?2)")
            .db("prepare lore link insert")?;
        for l in &ex.lore_links {
            st.execute(params![id, l]).db("lore link insert")?;
        }
    }
    Ok(())
}

/// The `reports` rows of message `id`: its subject report, its body report
/// and each impact entry.
/// Writes a message's patch facts and landings.
fn insert_patch_and_landings(conn: &Connection, id: i64, ex: &Extraction) -> Result<()> {
    if let Some(p) = &ex.patch {
        let sql =
            "INSERT INTO patches (message, title, title_key, version, part, parts, resend, rfc,
                       patch_id, change_id, base_commit, reverts, reverts_title, upstream,
                       touches, speaks_of)
                   VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)";
        conn.prepare_cached(sql)
            .db(sql)?
            .execute(params![
                id,
                p.title,
                p.title_key,
                p.version,
                p.part,
                p.parts,
                p.resend,
                p.rfc,
                p.patch_id,
                p.change_id,
                p.base_commit,
                p.reverts,
                p.reverts_title,
                p.upstream,
                joined(&p.touches),
                joined(&p.speaks_of)
            ])
            .db(sql)?;
    }
    if !ex.landings.is_empty() {
        let sql =
            "INSERT INTO landings (message, idx, kind, title, commit_id, tree, branch, quote_depth)
                   VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
        let mut st = conn.prepare_cached(sql).db(sql)?;
        for (i, l) in ex.landings.iter().enumerate() {
            st.execute(params![
                id,
                i as i64,
                l.kind.as_str(),
                l.title,
                l.commit,
                l.tree,
                l.branch,
                l.quote_depth
            ])
            .db(sql)?;
        }
    }
    Ok(())
}

fn insert_reports(conn: &Connection, id: i64, ex: &Extraction, cols: &Columns) -> Result<()> {
    let mut report = conn
        .prepare_cached(
            "INSERT INTO reports (message, origin, branch, subsystem, commit_short, commit_full,
                 commit_title, metric, change_percent, direction, failure, testcase, test_machine,
                 params_json)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        )
        .db("prepare report insert")?;
    let subj = ex.subject_report.as_ref();
    let branch = subj.and_then(|s| s.branch.clone());
    let subsystem = subj.and_then(|s| s.subsystem.clone());
    let commit_short = subj.map(|s| s.commit.clone()).filter(|c| !c.is_empty());
    if let Some(s) = subj {
        report
            .execute(params![
                id,
                "subject",
                s.branch,
                s.subsystem,
                commit_short,
                ex.report.as_ref().and_then(|b| b.commit_full.clone()),
                ex.report.as_ref().and_then(|b| b.commit_title.clone()),
                s.metric,
                s.change_percent,
                s.direction.map(|d| d.as_str()),
                s.failure,
                Option::<String>::None,
                Option::<String>::None,
                "[]",
            ])
            .db("report insert (subject)")?;
    }
    if let Some(b) = &ex.report {
        let short = commit_short.clone().or_else(|| b.commit_full.clone());
        report
            .execute(params![
                id,
                "body",
                branch,
                subsystem,
                short,
                b.commit_full,
                b.commit_title,
                b.metric,
                b.change_percent,
                b.direction.map(|d| d.as_str()),
                subj.and_then(|s| s.failure.clone()),
                b.testcase,
                b.test_machine,
                json(&cols.report_params_json, 0),
            ])
            .db("report insert (body)")?;
        for (k, imp) in b.also_impacts.iter().enumerate() {
            report
                .execute(params![
                    id,
                    "impact",
                    branch,
                    subsystem,
                    short,
                    b.commit_full,
                    b.commit_title,
                    imp.metric,
                    imp.change_percent,
                    imp.direction.map(|d| d.as_str()),
                    Option::<String>::None,
                    imp.testcase,
                    imp.test_machine,
                    json(&cols.report_params_json, k + 1),
                ])
                .db("report insert (impact)")?;
        }
    }
    Ok(())
}

/// Where a failed message was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureAt {
    /// File path or git directory.
    pub source: String,
    /// Byte offset in a file.
    pub offset: Option<u64>,
    /// Commit in a public-inbox epoch.
    pub git_commit: Option<String>,
}

impl FailureAt {
    /// The place of an [`Origin`].
    pub fn of(origin: &Origin) -> FailureAt {
        match origin {
            Origin::File { path, offset } => FailureAt {
                source: path.clone(),
                offset: Some(*offset),
                git_commit: None,
            },
            Origin::Git { repo, commit } => FailureAt {
                source: repo.clone(),
                offset: None,
                git_commit: Some(commit.clone()),
            },
            Origin::Stdin { offset } => FailureAt {
                source: "<stdin>".into(),
                offset: Some(*offset),
                git_commit: None,
            },
        }
    }
}

/// Whether any failure of a public-inbox commit is recorded (a later read of
/// that commit then clears it, [`clear_git_failure`]).
pub fn has_git_failures(store: &Store) -> Result<bool> {
    store
        .conn()
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM failures WHERE git_commit IS NOT NULL)",
            [],
            |r| r.get(0),
        )
        .db("git failure lookup")
}

/// Forgets the failure of commit `commit` of epoch `repo`, whose message has
/// now been read; true when there was one.
pub fn clear_git_failure(store: &Store, repo: &str, commit: &str) -> Result<bool> {
    let n = store
        .conn()
        .prepare_cached(
            "DELETE FROM failures WHERE source = ?1 AND offset IS NULL AND git_commit = ?2",
        )
        .db("prepare failure delete")?
        .execute(params![repo, commit])
        .db("failure delete")?;
    Ok(n > 0)
}

/// Records a message that could not be parsed (once per place); returns true when new.
pub fn insert_failure(
    store: &Store,
    at: &FailureAt,
    message_id: Option<&str>,
    reason: &str,
    now: i64,
) -> Result<bool> {
    let conn = store.conn();
    let offset = at.offset.map(|o| o as i64);
    let exists: Option<i64> = conn
        .prepare_cached(
            "SELECT id FROM failures WHERE source = ?1 AND offset IS ?2 AND git_commit IS ?3",
        )
        .db("prepare failure lookup")?
        .query_row(params![at.source, offset, at.git_commit], |r| r.get(0))
        .optional()
        .db("failure lookup")?;
    if let Some(id) = exists {
        conn.prepare_cached(
            "UPDATE failures SET reason = ?2, message_id = ?3, at = ?4 WHERE id = ?1",
        )
        .db("prepare failure update")?
        .execute(params![id, reason, message_id, now])
        .db("failure update")?;
        return Ok(false);
    }
    conn.prepare_cached(
        "INSERT INTO failures (source, offset, git_commit, message_id, reason, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )
    .db("prepare failure insert")?
    .execute(params![
        at.source,
        offset,
        at.git_commit,
        message_id,
        reason,
        now
    ])
    .db("failure insert")?;
    Ok(true)
}

/// Records the progress of an incremental source.
pub fn set_source(
    store: &Store,
    source: &str,
    kind: &str,
    last_commit: Option<&str>,
    now: i64,
) -> Result<()> {
    store
        .conn()
        .prepare_cached(
            "INSERT INTO sources (source, kind, last_commit, updated_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(source) DO UPDATE SET kind = excluded.kind,
             last_commit = excluded.last_commit, updated_at = excluded.updated_at",
        )
        .db("prepare source update")?
        .execute(params![source, kind, last_commit, now])
        .db("source update")?;
    Ok(())
}

/// The `sources.kind` of a file read to its end (mbox, gzip, single message).
pub const FILE_KIND: &str = "file";

/// Records that the file `source` was read to its end at this size and mtime.
pub fn set_file_source(store: &Store, source: &str, size: i64, mtime: i64, now: i64) -> Result<()> {
    store.conn().prepare_cached(
        "INSERT INTO sources (source, kind, size, mtime, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(source) DO UPDATE SET kind = excluded.kind, size = excluded.size,
             mtime = excluded.mtime, updated_at = excluded.updated_at",
    )
    .db("prepare file source update")?
    .execute(params![source, FILE_KIND, size, mtime, now])
    .db("file source update")?;
    Ok(())
}

/// Incremental sources read before: epoch git directory -> last commit read.
pub fn commit_sources(store: &Store) -> Result<std::collections::HashMap<String, String>> {
    let sql = "SELECT source, last_commit FROM sources WHERE last_commit IS NOT NULL";
    let mut st = store.conn().prepare(sql).db(sql)?;
    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).db(sql)?;
    rows.collect::<std::result::Result<_, _>>().db(sql)
}

/// Commits of epochs whose message could not be read or parsed in an
/// earlier run: epoch git directory -> commit ids (oldest failure first).
/// Each run reads them again, whatever its progress mark says.
pub fn git_failures(store: &Store) -> Result<std::collections::HashMap<String, Vec<String>>> {
    let sql = "SELECT source, git_commit FROM failures
               WHERE git_commit IS NOT NULL AND offset IS NULL ORDER BY at, id";
    let mut st = store.conn().prepare(sql).db(sql)?;
    let rows = st
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .db(sql)?;
    let mut out: std::collections::HashMap<String, Vec<String>> = Default::default();
    for row in rows {
        let (source, commit) = row.db(sql)?;
        out.entry(source).or_default().push(commit);
    }
    Ok(out)
}

/// Files read to their end before: canonical path -> (size, mtime).
pub fn file_sources(store: &Store) -> Result<std::collections::HashMap<String, (i64, i64)>> {
    let sql = "SELECT source, size, mtime FROM sources
               WHERE kind = ?1 AND size IS NOT NULL AND mtime IS NOT NULL";
    let mut st = store.conn().prepare(sql).db(sql)?;
    let rows = st
        .query_map([FILE_KIND], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))
        .db(sql)?;
    rows.collect::<std::result::Result<_, _>>().db(sql)
}

/// The current time in Unix seconds.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// A list as one text column: newline-separated, `None` when empty.
fn joined(items: &[String]) -> Option<String> {
    (!items.is_empty()).then(|| items.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CommitRef, Reproducer, Trailer};

    #[test]
    fn hunks_are_stored_as_arrays_that_read_back_as_the_hunks() {
        let hunks = vec![
            Hunk {
                old_start: 3289,
                old_lines: 7,
                new_start: 3290,
                new_lines: 9,
                context: "static int \"xfs_alloc\"(struct xfs_trans *tp)".into(),
                added: 2,
                removed: 0,
            },
            Hunk::default(),
        ];
        let stored = hunks_json(&hunks);
        assert_eq!(
            stored,
            r#"[[3289,7,3290,9,"static int \"xfs_alloc\"(struct xfs_trans *tp)",2,0],[0,0,0,0,"",0,0]]"#
        );
        let back: Vec<Hunk> = serde_json::from_str(&stored).expect("array form");
        assert_eq!(back, hunks);
        // Rows written before hold the object form, read the same way.
        let before: Vec<Hunk> = serde_json::from_str(&to_json(&hunks)).expect("object form");
        assert_eq!(before, hunks);
        assert!(stored.len() * 2 < to_json(&hunks).len());
        assert_eq!(hunks_json(&[]), "[]");
        // The hand-written form is serde's, whatever the context holds.
        for context in [
            "",
            "a \"q\" \\ b",
            "tab\there\u{1}",
            "é ü \u{7f} \u{2028}",
            "</script>",
        ] {
            let h = Hunk {
                old_start: u32::MAX,
                context: context.into(),
                ..Hunk::default()
            };
            let tuple = (h.old_start, 0, 0, 0, context, 0, 0);
            assert_eq!(
                hunks_json(&[h.clone(), h]),
                to_json(&[tuple, tuple]),
                "{context:?}"
            );
        }
    }

    fn extraction(kind: Kind) -> Extraction {
        Extraction {
            kind,
            trailers: vec![Trailer {
                key: "Signed-off-by".into(),
                value: "A Developer <a@example.org>".into(),
                suggested: false,
                commit: None,
                title: None,
                quote_depth: 0,
            }],
            commits: vec![CommitRef {
                id: "0123456789ab".into(),
                title: Some("ext4: a title".into()),
                quote_depth: 0,
            }],
            reproducers: vec![Reproducer {
                command: "mkfs.ext4 -F /dev/vdb".into(),
                quote_depth: 0,
            }],
            ..Extraction::default()
        }
    }

    #[test]
    fn list_mail_keeps_only_what_has_no_table_in_its_json() {
        let json = to_json(&Residual::of(&extraction(Kind::Patch)));
        let back: Extraction = serde_json::from_str(&json).expect("reads back as an Extraction");
        assert_eq!(back.kind, Kind::Patch);
        assert!(back.trailers.is_empty() && back.commits.is_empty());
        assert_eq!(back.reproducers.len(), 1);
        assert_eq!(back.reproducers[0].command, "mkfs.ext4 -F /dev/vdb");
    }

    #[test]
    fn robot_reports_keep_their_whole_extraction() {
        assert!(whole_json(Kind::PerfReport) && whole_json(Kind::FunctionalReport));
        assert!(!whole_json(Kind::Patch) && !whole_json(Kind::Reply));
        // Every field of Extraction is in the residual form, under the same name.
        let whole: serde_json::Value =
            serde_json::to_value(extraction(Kind::Reply)).expect("serialises");
        let residual: serde_json::Value =
            serde_json::from_str(&to_json(&Residual::of(&extraction(Kind::Reply))))
                .expect("serialises");
        let keys = |v: &serde_json::Value| {
            v.as_object()
                .map(|o| o.keys().cloned().collect::<Vec<_>>())
                .unwrap_or_default()
        };
        assert_eq!(keys(&whole), keys(&residual));
    }

    fn message(id: &str, body: &str) -> Message {
        let raw = crate::model::RawMessage {
            bytes: format!("Message-ID: <{id}>\nSubject: s\n\n{body}")
                .into_bytes()
                .into(),
            origin: Origin::Stdin { offset: 0 },
            format: crate::model::RawFormat::Rfc822,
        };
        crate::mail::parse(&raw).expect("parses")
    }

    #[test]
    fn a_patch_keys_come_from_its_patches_row_as_an_older_build_stored_them() {
        use crate::model::{Landing, PatchFacts};
        use crate::store::links;
        let store = crate::store::Store::in_memory().unwrap();
        let conn = store.conn();
        let title = "xfs: fix the slow path";
        let patch = |patch_id: &str, title: &str| Extraction {
            kind: Kind::Patch,
            patch: Some(Box::new(PatchFacts {
                title: title.into(),
                title_key: title.into(),
                patch_id: Some(patch_id.into()),
                ..PatchFacts::default()
            })),
            ..Extraction::default()
        };
        let landing = Extraction {
            landings: vec![Landing {
                title: Some(title.into()),
                ..Landing::default()
            }],
            ..Extraction::default()
        };
        let mut rows = Vec::new();
        for (id, ex) in [
            ("a@x", patch("ab", title)),
            ("b@x", patch("ab", "xfs: another title")),
            ("c@x", landing),
            ("d@x", patch("cd", "short")),
        ] {
            let rec = Record::new(message(id, "text\n"), Origin::Stdin { offset: 0 }, ex);
            let Outcome::New(row) =
                insert_record(&store, &rec, 0, &mut BodyBlocks::default()).unwrap()
            else {
                panic!("{id} is new");
            };
            rows.push(row);
        }
        let [a, b, c, d] = rows[..] else { panic!() };
        let stored: Vec<(i64, String)> = conn
            .prepare("SELECT message, key FROM link_keys WHERE key NOT LIKE 's:%' ORDER BY 1, 2")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(stored, [(c, format!("t:{title}"))]);
        let t = format!("t:{title}");
        let keys = |k: &[&str]| k.iter().map(|k| k.to_string()).collect::<Vec<_>>();
        let check = |when: &str| {
            let mut of_a = links::keys_of(&store, &[a, d]).unwrap();
            of_a.sort();
            of_a.dedup();
            assert_eq!(of_a, ["p:ab", "p:cd", "s:s", t.as_str()], "{when}");
            let with = |k: &[&str]| {
                let mut m = links::messages_with_keys(&store, &keys(k)).unwrap();
                m.sort_unstable();
                m.dedup();
                m
            };
            assert_eq!(with(&["p:ab"]), [a, b], "{when}");
            assert_eq!(with(&[t.as_str()]), [a, c], "{when}");
            assert_eq!(with(&["t:short"]), Vec::<i64>::new(), "{when}");
            let counts =
                links::key_counts(&store, &keys(&["p:ab", &t, "p:cd", "p:none", "s:s"])).unwrap();
            let want: std::collections::HashMap<String, i64> =
                [("p:ab", 2), (t.as_str(), 2), ("p:cd", 1), ("s:s", 4)]
                    .map(|(k, n)| (k.to_string(), n))
                    .into();
            assert_eq!(counts, want, "{when}");
        };
        check("keys read from patches");
        // An older build stored a patch's keys in `link_keys` as well.
        for (m, k) in [(a, "p:ab"), (a, t.as_str()), (b, "p:ab"), (d, "p:cd")] {
            conn.execute(
                "INSERT INTO link_keys (message, key) VALUES (?1, ?2)",
                params![m, k],
            )
            .unwrap();
        }
        check("keys in both tables");
    }

    #[test]
    fn list_mail_with_nothing_beyond_its_rows_gets_no_extraction_row() {
        let store = crate::store::Store::in_memory().unwrap();
        let conn = store.conn();
        let origin = Origin::Stdin { offset: 0 };
        let mut plain = extraction(Kind::Patch);
        plain.reproducers.clear();
        let cases = [
            ("plain@x", plain, false),
            ("repro@x", extraction(Kind::Patch), true),
            (
                "report@x",
                Extraction {
                    kind: Kind::PerfReport,
                    ..Extraction::default()
                },
                true,
            ),
        ];
        for (id, ex, kept) in cases {
            let rec = Record::new(message(id, "text\n"), origin.clone(), ex);
            let Outcome::New(row) =
                insert_record(&store, &rec, 0, &mut BodyBlocks::default()).unwrap()
            else {
                panic!("{id} is new");
            };
            let json: Option<String> = conn
                .query_row(
                    "SELECT json FROM extractions WHERE message = ?1",
                    [row],
                    |r| r.get(0),
                )
                .optional()
                .unwrap();
            assert_eq!(json.is_some(), kept, "{id}: {json:?}");
            // The rows that back the residual's empty lists are written either way.
            let trailers: i64 = conn
                .query_row(
                    "SELECT count(*) FROM trailers WHERE message = ?1",
                    [row],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(trailers, i64::from(id != "report@x"), "{id}");
        }
        let kinds: Vec<String> = conn
            .prepare("SELECT kind FROM messages ORDER BY id")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(kinds, ["patch", "patch", "perf-report"]);
    }

    #[test]
    fn a_known_record_writes_nothing_unless_its_id_is_stored() {
        let store = crate::store::Store::in_memory().unwrap();
        let conn = store.conn();
        let origin = Origin::Stdin { offset: 0 };
        let known = Record::known(message("k@x", "body text\n"), origin.clone());
        assert_eq!(
            insert_record(&store, &known, 0, &mut BodyBlocks::default()).unwrap(),
            Outcome::Unprepared
        );
        let rows: i64 = conn
            .query_row("SELECT count(*) FROM messages", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 0);
        // Its message comes back whole, to be extracted and stored.
        let (msg, origin, _) = known.into_parts();
        assert_eq!(msg.body, "body text\n");
        let new = Record::new(msg.clone(), origin.clone(), Extraction::default());
        assert!(matches!(
            insert_record(&store, &new, 0, &mut BodyBlocks::default()).unwrap(),
            Outcome::New(_)
        ));
        let again = Record::known(msg, origin);
        assert_eq!(
            insert_record(&store, &again, 0, &mut BodyBlocks::default()).unwrap(),
            Outcome::Known
        );
        let body = crate::store::body::stored_message(&store, "k@x")
            .unwrap()
            .unwrap()
            .body;
        assert_eq!(body, "body text\n");
    }

    #[test]
    fn bodies_packed_in_blocks_read_back_whole_whatever_was_stored_before() {
        let store = crate::store::Store::in_memory().unwrap();
        let conn = store.conn();
        let origin = Origin::Stdin { offset: 0 };
        let big = "x".repeat(crate::store::body::BLOCK_BYTES);
        let bodies: Vec<String> = vec![
            "first\n".into(),
            String::new(),
            big.clone(),
            "after the big one\n".into(),
            "ein K\u{f6}rper\n".into(),
        ];
        // The first message of the second block (m4) is stored already: the
        // block is stored all the same, for the message after it.
        let seen = Record::new(
            message("m4@x", "after the big one\n"),
            origin.clone(),
            Extraction::default(),
        );
        let mut blocks = BodyBlocks::default();
        assert!(matches!(
            insert_record(&store, &seen, 0, &mut blocks).unwrap(),
            Outcome::New(_)
        ));
        let mut records: Vec<Record> = bodies
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let id = format!("m{}@x", i + 1);
                Record::new(message(&id, b), origin.clone(), Extraction::default())
            })
            .collect();
        records.push(Record::known(message("k@x", "known\n"), origin.clone()));
        pack_bodies(records.iter_mut().collect());
        assert!(records[..5].iter().all(|r| r.message.body.is_empty()));
        assert_eq!(records[5].message.body, "known\n");
        let outcomes: Vec<Outcome> = records
            .iter()
            .map(|r| insert_record(&store, r, 0, &mut blocks).unwrap())
            .collect();
        assert_eq!(outcomes[3], Outcome::Known, "{outcomes:?}");
        assert_eq!(outcomes[5], Outcome::Unprepared);
        for (i, want) in bodies.iter().enumerate() {
            let id = format!("m{}@x", i + 1);
            let got = crate::store::body::stored_message(&store, &id)
                .unwrap()
                .unwrap();
            assert_eq!(&got.body, want, "{id}");
        }
        let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
        // m4's own block, then two: m1 and m3 (a block's worth), then m4's copy and m5.
        assert_eq!(count("SELECT count(*) FROM body_blocks"), 3);
        assert_eq!(
            count("SELECT count(*) FROM messages WHERE body_block IS NULL"),
            1
        );
        assert_eq!(count("SELECT count(*) FROM bodies"), 0);
    }

    #[test]
    fn a_damaged_block_is_an_error_naming_its_messages_unless_it_has_no_checksum() {
        let store = crate::store::Store::in_memory().unwrap();
        let conn = store.conn();
        let origin = Origin::Stdin { offset: 0 };
        let mut records: Vec<Record> = ["a@x", "b@x", "c@x"]
            .iter()
            .map(|id| {
                Record::new(
                    message(id, "some text\n"),
                    origin.clone(),
                    Extraction::default(),
                )
            })
            .collect();
        pack_bodies(records.iter_mut().collect());
        let mut blocks = BodyBlocks::default();
        for r in &records {
            insert_record(&store, r, 0, &mut blocks).unwrap();
        }
        let body =
            |id: &str| crate::store::body::stored_message(&store, id).map(|m| m.unwrap().body);
        assert_eq!(body("b@x").unwrap(), "some text\n");
        // The last literal changed: LZ4 decodes it into a wrong body.
        conn.execute_batch(
            "UPDATE body_blocks SET lz4 = CAST(substr(lz4, 1, length(lz4) - 1) || x'58' AS BLOB);",
        )
        .unwrap();
        let err = body("b@x").unwrap_err().to_string();
        assert!(
            err.contains("<b@x>")
                && err.contains("block 1 is damaged")
                && err.contains("also holds the bodies of <a@x>, <c@x>"),
            "{err}"
        );
        // Re-extraction names every message of the block.
        crate::store::reextract::mark_all_stale(&store).unwrap();
        let (read, broken) = crate::store::reextract::stale_messages(&store, 1, 0, 10).unwrap();
        assert!(read.is_empty());
        assert_eq!(broken.len(), 3);
        assert!(
            broken[2]
                .1
                .starts_with("c@x: its body's block 1 is damaged"),
            "{:?}",
            broken
        );
        // A block written before v9 has no checksum: read as it is.
        conn.execute_batch("UPDATE body_blocks SET blake3 = NULL")
            .unwrap();
        assert_eq!(body("b@x").unwrap(), "some text\n");
        assert_eq!(body("c@x").unwrap(), "some textX");
    }

    #[test]
    fn a_missing_or_corrupt_block_is_an_error_naming_the_message() {
        let store = crate::store::Store::in_memory().unwrap();
        let conn = store.conn();
        let origin = Origin::Stdin { offset: 0 };
        let mut blocks = BodyBlocks::default();
        for id in ["a@x", "b@x"] {
            let rec = Record::new(
                message(id, "some text\n"),
                origin.clone(),
                Extraction::default(),
            );
            insert_record(&store, &rec, 0, &mut blocks).unwrap();
        }
        conn.execute_batch(
            "PRAGMA foreign_keys = OFF;
             UPDATE body_blocks SET lz4 = x'0a000000ff' WHERE id = 1;
             DELETE FROM body_blocks WHERE id = 2;",
        )
        .unwrap();
        let err = |id: &str| {
            crate::store::body::stored_message(&store, id)
                .unwrap_err()
                .to_string()
        };
        let corrupt = err("a@x");
        assert!(
            corrupt.contains("<a@x>") && corrupt.contains("block 1 is damaged"),
            "{corrupt}"
        );
        let missing = err("b@x");
        assert!(
            missing.contains("<b@x>") && missing.contains("block 2 is missing"),
            "{missing}"
        );
    }
}
