//! The `messages`, `message_lists` and `message_copies` rows: writing a
//! message, and keeping and choosing between its copies.
//!
//! The ingest pipeline builds a [`Record`] per message on its parallel stage
//! (every JSON column serialised there), compresses a batch's bodies in
//! blocks ([`pack_bodies`](packing::pack_bodies)), and the single writer thread calls
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

pub mod packing;

use rusqlite::{Connection, OptionalExtension, ToSql, params};

use super::DbContext;
use super::Store;
use super::extractions::{ExtractionColumns, delete_extraction, insert_extraction, to_json};
use crate::error::Result;
use crate::mail::subject::list_key;
use crate::model::{Extraction, Message, Origin};
use packing::{BodyAt, BodyBlocks, Packed, Placed, RawPiece, insert_block, stored_body};

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
    pub(super) origin_json: String,
    /// The raw form, when the message was read as RFC 5322 mail.
    pub(super) raw: Option<RawPiece>,
    /// The columns of a new row; `None` for a message that was already stored
    /// when it was parsed (built by the writer should it be new after all).
    pub(super) columns: Option<Columns>,
}

/// The columns only a new message's rows need (serialised and compressed on
/// the parallel stage, so that the single writer only binds them).
#[derive(Debug, Clone)]
pub(super) struct Columns {
    pub(super) norm_subject: String,
    /// References, space-separated.
    pub(super) refs: String,
    pub(super) parts_json: String,
    /// Where the body is stored, once [`pack_bodies`](packing::pack_bodies) compressed it.
    pub(super) body: Option<BodyAt>,
    /// The columns of its extraction rows.
    pub(super) extraction: ExtractionColumns,
}

impl Columns {
    pub(super) fn of(message: &Message, extraction: &Extraction) -> Columns {
        Columns {
            extraction: ExtractionColumns::of(message, extraction),
            norm_subject: list_key(&message.subject),
            refs: message.references.join(" "),
            parts_json: to_json(&message.parts),
            body: None,
        }
    }
}

impl Record {
    /// Builds a record (serialises the JSON columns; meant for the parallel
    /// stage). The body is compressed by [`pack_bodies`](packing::pack_bodies), or else when the
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
    /// collapsed text has none). Call before [`pack_bodies`](packing::pack_bodies).
    pub fn with_raw(mut self, raw: &crate::model::RawMessage) -> Record {
        self.raw = RawPiece::of_message(raw, &self.message.body);
        self
    }

    /// The record of a message [`pack_messages`](packing::pack_messages) packed: its body and
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
/// writer's: a record [`pack_bodies`](packing::pack_bodies) packed may name the block an earlier
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
pub(super) fn backfill_raw(
    conn: &Connection,
    copy: i64,
    rec: &Record,
    blocks: &BodyBlocks,
) -> Result<()> {
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
/// stored last when [`pack_bodies`](packing::pack_bodies) packed it (nothing is written), else
/// in a block of its own, written now. The raw form is the header block
/// followed by the body's range (which holds the raw body when that is not
/// the decoded one).
pub(super) fn place(
    conn: &Connection,
    rec: &Record,
    cols: &Columns,
    blocks: &BodyBlocks,
) -> Result<Placed> {
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
pub(super) fn new_lists(conn: &Connection, id: i64, lists: &[String]) -> Result<bool> {
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
pub(super) fn materialize_copy(conn: &Connection, id: i64) -> Result<()> {
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

/// The `messages` columns a stored copy sets, in the order
/// [`MessageRow::values`] binds them: the same list for a new message's
/// INSERT (after `message_id`, before `ingested_at`) and for the UPDATE
/// that makes a better copy the message's.
const MESSAGE_COLUMNS: [&str; 22] = [
    "message_id_derived",
    "subject",
    "norm_subject",
    "from_name",
    "from_email",
    "date",
    "in_reply_to",
    "kind",
    "parts_json",
    "content_hash",
    "raw_size",
    "origin_json",
    "refs",
    "body_block",
    "body_start",
    "body_len",
    "extraction_version",
    "body_raw",
    "head_block",
    "head_start",
    "head_len",
    "signals_read",
];

/// Inserts a message under its Message-ID unless the id is stored:
/// `message_id`, [`MESSAGE_COLUMNS`], `ingested_at`.
static INSERT_MESSAGE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let n = MESSAGE_COLUMNS.len();
    let marks: Vec<String> = (1..=n + 2).map(|i| format!("?{i}")).collect();
    format!(
        "INSERT INTO messages (message_id, {}, ingested_at) VALUES ({})
         ON CONFLICT (message_id) DO NOTHING",
        MESSAGE_COLUMNS.join(", "),
        marks.join(", ")
    )
});

/// Sets [`MESSAGE_COLUMNS`] of the message whose row id is `?1`.
static UPDATE_MESSAGE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let set: Vec<String> = MESSAGE_COLUMNS
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{c} = ?{}", i + 2))
        .collect();
    format!("UPDATE messages SET {} WHERE id = ?1", set.join(", "))
});

/// The values of [`MESSAGE_COLUMNS`] for a record whose body and raw form
/// are where `placed` says.
struct MessageRow<'a> {
    rec: &'a Record,
    cols: &'a Columns,
    kind: &'static str,
    raw_size: i64,
    body: [Option<i64>; 3],
    head: [Option<i64>; 3],
    body_raw: bool,
    signals_read: bool,
}

impl<'a> MessageRow<'a> {
    fn of(rec: &'a Record, cols: &'a Columns, placed: &Placed) -> MessageRow<'a> {
        let split = |r: Option<packing::Range>| [r.map(|x| x.0), r.map(|x| x.1), r.map(|x| x.2)];
        MessageRow {
            rec,
            cols,
            kind: rec.extraction.kind.as_str(),
            raw_size: rec.message.raw_size as i64,
            body: split(placed.body),
            head: split(placed.head),
            body_raw: placed.body_raw,
            signals_read: !rec.extraction.signals_unread,
        }
    }

    /// The values, in the order of [`MESSAGE_COLUMNS`].
    fn values(&self) -> [&dyn ToSql; 22] {
        let msg = &self.rec.message;
        [
            &msg.message_id_derived,
            &msg.subject,
            &self.cols.norm_subject,
            &msg.from_name,
            &msg.from_email,
            &msg.date,
            &msg.in_reply_to,
            &self.kind,
            &self.cols.parts_json,
            &msg.content_hash,
            &self.raw_size,
            &self.rec.origin_json,
            &self.cols.refs,
            &self.body[0],
            &self.body[1],
            &self.body[2],
            &self.rec.extraction_version,
            &self.body_raw,
            &self.head[0],
            &self.head[1],
            &self.head[2],
            &self.signals_read,
        ]
    }
}

/// Whether the record was read from a public-inbox epoch, which keeps its
/// body and raw form: a new message's are not stored (see
/// [`body`](crate::store::body)).
pub(super) fn in_epoch(rec: &Record) -> bool {
    matches!(rec.origin, Origin::Git { .. })
}

/// Inserts the `message_copies` row of a copy of message `id`.
pub(super) fn insert_copy(
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
pub(super) fn stored_table_rows(conn: &Connection, id: i64) -> Result<u64> {
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
pub(super) fn robot_kind(kind: &str) -> bool {
    matches!(kind, "perf-report" | "functional-report" | "build-report")
}

/// Keeps a new copy of the stored message `id` and chooses between it and
/// the chosen copy ([`crate::mail::copies::choose`]); a winning copy
/// replaces the message's row, body and extraction.
pub(super) fn add_copy(
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
    let before = linking_facts(conn, id)?;
    let row = MessageRow::of(rec, cols, &placed);
    let sql = &*UPDATE_MESSAGE;
    conn.prepare_cached(sql)
        .db(sql)?
        .execute(rusqlite::params_from_iter(
            std::iter::once(&id as &dyn ToSql).chain(row.values()),
        ))
        .db(sql)?;
    let sql = "DELETE FROM bodies WHERE message = ?1";
    conn.prepare_cached(sql).db(sql)?.execute([id]).db(sql)?;
    delete_extraction(conn, id)?;
    insert_extraction(
        conn,
        id,
        &rec.extraction,
        rec.extraction_version,
        &cols.extraction,
    )?;
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
pub(super) fn linking_facts(conn: &Connection, id: i64) -> Result<Vec<String>> {
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

/// Inserts a message under a Message-ID not stored yet, with everything
/// extracted from it; `None` (nothing written) when the id is stored. Its
/// only copy has no `message_copies` row: the `messages` row holds its
/// raw form's place (see the module docs).
pub(super) fn insert_new(
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
    let row = MessageRow::of(rec, cols, &placed);
    let inserted = conn
        .prepare_cached(&INSERT_MESSAGE)
        .db("prepare message insert")?
        .execute(rusqlite::params_from_iter(
            std::iter::once(&msg.message_id as &dyn ToSql)
                .chain(row.values())
                .chain([&now as &dyn ToSql]),
        ))
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
    insert_extraction(
        conn,
        id,
        &rec.extraction,
        rec.extraction_version,
        &cols.extraction,
    )?;
    Ok(Some(id))
}

/// Adds List-IDs to a message; returns how many were new.
pub(super) fn insert_lists(conn: &Connection, id: i64, lists: &[String]) -> Result<usize> {
    let mut st = conn
        .prepare_cached("INSERT OR IGNORE INTO message_lists (message, list_id) VALUES (?1, ?2)")
        .db("prepare list insert")?;
    let mut added = 0;
    for l in lists {
        added += st.execute(params![id, l]).db("list insert")?;
    }
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::packing::pack_bodies;
    use super::*;

    use crate::store::test_message as message;

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
