//! The copies of a message and their raw forms, as `regtrack mail --copies`,
//! `mail --raw` and `thread` read them.
//!
//! `message_copies` (v14) holds one row per distinct copy of a stored
//! Message-ID; the one the `messages` row holds is `chosen` (the rule is
//! [`crate::mail::copies`], the writing [`super::messages`]). A copy's raw
//! form is the bytes of its head range followed by those of its tail range
//! in `body_blocks` texts (see `sql/0014_message_copies.sql`): its header
//! block and its stored body (v19; a row written before may hold the whole
//! message in its head range); a copy stored before v14, or read from
//! archive-rendered text, has none, and [`raw_of`] says so rather than
//! make one up. A message's only copy has no row (v16 for one read from a
//! public-inbox epoch, v19 for any): it is read from the `messages` row, as
//! copy 0, its raw form the message's header block (`head_*`) followed by
//! its body's range.

use std::collections::HashMap;

use rusqlite::OptionalExtension;

use super::{DbContext, Store};
use crate::error::{Error, Result};
use crate::model::Origin;

/// One copy of a stored message.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Copy {
    /// Row id of the copy (`message_copies.id`), in the order seen; 0 for a
    /// message's only copy, which has no row.
    pub copy: i64,
    /// Whether the stored message (headers, body, extraction) is this copy.
    pub chosen: bool,
    /// Why it was chosen over the others (the chosen copy of several only).
    pub reason: Option<String>,
    /// Where it was read: a file and byte offset, or an epoch and commit.
    pub origin: Option<Origin>,
    /// Sender's display name.
    pub from_name: Option<String>,
    /// Sender's address.
    pub from_email: Option<String>,
    /// Size of the raw message in bytes (0 when a build before v14 stored it
    /// as a duplicate without recording it).
    pub size: i64,
    /// False when another copy shows this one was cut short.
    pub complete: bool,
    /// Its List-IDs.
    pub lists: Vec<String>,
    /// When it was stored (Unix seconds).
    pub seen_at: i64,
    /// Whether its raw form is kept (`mail --raw` can print it): stored,
    /// or in the public-inbox epoch it was read from.
    pub raw_stored: bool,
    /// Content hash (subject, sender, date and body).
    pub content_hash: String,
}

/// Where a copy's raw form is: (block, start, len) of its head and tail.
type Ranges = (Option<(i64, i64, i64)>, Option<(i64, i64, i64)>);

fn range(b: Option<i64>, s: Option<i64>, l: Option<i64>) -> Option<(i64, i64, i64)> {
    Some((b?, s?, l?))
}

const COPY_COLUMNS: &str = "c.id, c.chosen, c.reason, c.origin_json, c.from_name, c.from_email,
    c.raw_size, c.complete, c.lists, c.seen_at, c.content_hash, c.head_block, c.head_start,
    c.head_len, c.tail_block, c.tail_start, c.tail_len";

fn copy_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(Copy, Ranges)> {
    let origin: String = r.get(3)?;
    let origin: Option<Origin> = serde_json::from_str(&origin).ok();
    let lists: String = r.get(8)?;
    let head = range(r.get(11)?, r.get(12)?, r.get(13)?);
    let tail = range(r.get(14)?, r.get(15)?, r.get(16)?);
    Ok((
        Copy {
            copy: r.get(0)?,
            chosen: r.get(1)?,
            reason: r.get(2)?,
            raw_stored: head.is_some() || matches!(origin, Some(Origin::Git { .. })),
            origin,
            from_name: r.get(4)?,
            from_email: r.get(5)?,
            size: r.get(6)?,
            complete: r.get(7)?,
            lists: lists.split_whitespace().map(str::to_string).collect(),
            seen_at: r.get(9)?,
            content_hash: r.get(10)?,
        },
        (head, tail),
    ))
}

/// The stored message's row id (angle brackets optional).
fn message_row(store: &Store, message_id: &str) -> Result<Option<i64>> {
    let id = crate::mail::clean_id(message_id);
    let sql = "SELECT id FROM messages WHERE message_id = ?1";
    store
        .conn()
        .prepare_cached(sql)
        .db(sql)?
        .query_row([&id], |r| r.get(0))
        .optional()
        .db(sql)
}

/// The List-IDs of message `m`, space-separated, as an SQL expression: the
/// `lists` of its only copy when that copy has no row (written into the row
/// when one is made, [`super::messages`]).
pub(super) const MESSAGE_LISTS: &str =
    "coalesce((SELECT group_concat(list_id, ' ') FROM message_lists WHERE message = m.id), '')";

/// The tail range (block, start, len) of message `m`'s only copy when it
/// has no row, as three SQL expressions: the message's body range, after
/// its header block (none without a header block: no raw form is stored).
pub(super) const MESSAGE_TAIL: &str = "CASE WHEN m.head_block IS NOT NULL AND m.body_len > 0
         THEN m.body_block END,
     CASE WHEN m.head_block IS NOT NULL AND m.body_len > 0 THEN m.body_start END,
     CASE WHEN m.head_block IS NOT NULL AND m.body_len > 0 THEN m.body_len END";

fn copies_with_ranges(store: &Store, row: i64) -> Result<Vec<(Copy, Ranges)>> {
    let sql =
        format!("SELECT {COPY_COLUMNS} FROM message_copies c WHERE c.message = ?1 ORDER BY c.id");
    let mut st = store.conn().prepare_cached(&sql).db(&sql)?;
    let rows = st.query_map([row], copy_row).db(&sql)?;
    let rows: Vec<(Copy, Ranges)> = rows.collect::<std::result::Result<_, _>>().db(&sql)?;
    if !rows.is_empty() {
        return Ok(rows);
    }
    // The only copy, without a row of its own: the message's row.
    let sql = format!(
        "SELECT 0, 1, NULL, m.origin_json, m.from_name, m.from_email, m.raw_size, 1,
                {MESSAGE_LISTS}, m.ingested_at, m.content_hash, m.head_block, m.head_start,
                m.head_len, {MESSAGE_TAIL}
         FROM messages m WHERE m.id = ?1"
    );
    let mut st = store.conn().prepare_cached(&sql).db(&sql)?;
    let rows = st.query_map([row], copy_row).db(&sql)?;
    rows.collect::<std::result::Result<_, _>>().db(&sql)
}

/// Every copy of the message with this Message-ID, in the order seen
/// (`None`: no such message).
pub fn copies(store: &Store, message_id: &str) -> Result<Option<Vec<Copy>>> {
    let Some(row) = message_row(store, message_id)? else {
        return Ok(None);
    };
    Ok(Some(
        copies_with_ranges(store, row)?
            .into_iter()
            .map(|(c, _)| c)
            .collect(),
    ))
}

/// The raw form of a message: its chosen copy's, or of the copy `copy`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Raw {
    /// The bytes as received (mbox quoting undone).
    Stored(Vec<u8>),
    /// In the public-inbox epoch the copy was read from, as the message
    /// (blob `m`) of this commit: not copied into the database.
    InEpoch {
        /// The epoch's git directory.
        repo: String,
        /// The commit holding the message.
        commit: String,
    },
    /// Not stored: the copy was stored before v14, or read from
    /// archive-rendered or collapsed text.
    NotStored,
}

/// The raw form of the message with this Message-ID (its chosen copy; or
/// the copy with row id `copy`), `None` when no such message (or copy) is
/// stored. A block that is missing or damaged is an error naming the
/// message.
pub fn raw_of(store: &Store, message_id: &str, copy: Option<i64>) -> Result<Option<Raw>> {
    let Some(row) = message_row(store, message_id)? else {
        return Ok(None);
    };
    let all = copies_with_ranges(store, row)?;
    let found = all.iter().find(|(c, _)| match copy {
        Some(id) => c.copy == id,
        None => c.chosen,
    });
    let Some((found, (head, tail))) = found else {
        return Ok(copy.is_none().then_some(Raw::NotStored));
    };
    let Some(head) = head else {
        return Ok(Some(match &found.origin {
            Some(Origin::Git { repo, commit }) => Raw::InEpoch {
                repo: repo.clone(),
                commit: commit.clone(),
            },
            _ => Raw::NotStored,
        }));
    };
    let mut bytes = Vec::new();
    for (block, start, len) in std::iter::once(*head).chain(*tail) {
        let piece =
            super::body::read_range(store.conn(), block, start, len)?.map_err(|reason| {
                Error::Message {
                    origin: format!("stored message <{}>", crate::mail::clean_id(message_id)),
                    reason: format!("its raw form cannot be read: {reason}"),
                }
            })?;
        bytes.extend_from_slice(&piece);
    }
    Ok(Some(Raw::Stored(bytes)))
}

/// The Message-IDs of the stored thread holding this message (every
/// message whose thread root, as the last link computed it, is this one's),
/// in date order (undated last); just the message when it has not been
/// linked yet. `None` when no such message is stored.
pub fn thread(store: &Store, message_id: &str) -> Result<Option<Vec<String>>> {
    let Some(row) = message_row(store, message_id)? else {
        return Ok(None);
    };
    let sql = "SELECT m.message_id FROM threads t
               JOIN threads o ON o.root_id = t.root_id
               JOIN messages m ON m.id = o.message
               WHERE t.message = ?1
               ORDER BY m.date IS NULL, m.date, m.id";
    let mut st = store.conn().prepare(sql).db(sql)?;
    let ids: Vec<String> = st
        .query_map([row], |r| r.get(0))
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)?;
    if ids.is_empty() {
        return Ok(Some(vec![crate::mail::clean_id(message_id)]));
    }
    Ok(Some(ids))
}

/// What `show` and `mail` say of a message with several copies.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CopyNote {
    /// How many copies are stored.
    pub copies: usize,
    /// Why the chosen one was chosen.
    pub reason: Option<String>,
}

impl CopyNote {
    /// `2 copies; this one chosen because it is complete (...)`.
    pub fn sentence(&self) -> String {
        match &self.reason {
            Some(r) => format!("{} copies; this one chosen because {r}", self.copies),
            None => format!("{} copies; this one was stored first", self.copies),
        }
    }
}

/// The notes of those of these messages that have several copies.
pub fn notes(store: &Store, message_ids: &[&str]) -> Result<HashMap<String, CopyNote>> {
    let sql = "SELECT count(*), max(CASE WHEN c.chosen THEN c.reason END)
               FROM messages m JOIN message_copies c ON c.message = m.id
               WHERE m.message_id = ?1";
    let mut st = store.conn().prepare_cached(sql).db(sql)?;
    let mut out = HashMap::new();
    for id in message_ids {
        let (n, reason): (i64, Option<String>) =
            st.query_row([id], |r| Ok((r.get(0)?, r.get(1)?))).db(sql)?;
        if n > 1 {
            out.insert(
                id.to_string(),
                CopyNote {
                    copies: n as usize,
                    reason,
                },
            );
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Extraction, RawFormat, RawMessage};
    use crate::store::messages::packing::{BodyBlocks, pack_bodies};
    use crate::store::messages::{Outcome, Record, insert_record};

    fn raw(bytes: &[u8], offset: u64) -> RawMessage {
        RawMessage {
            bytes: bytes.to_vec().into(),
            origin: Origin::File {
                path: "t.mbox".into(),
                offset,
            },
            format: RawFormat::Rfc822,
        }
    }

    fn record(r: &RawMessage) -> Record {
        let msg = crate::mail::parse(r).expect("parses");
        Record::new(msg, r.origin.clone(), Extraction::default()).with_raw(r)
    }

    #[test]
    fn raw_forms_read_back_exactly_packed_or_not_whatever_their_body() {
        let mails: [&[u8]; 5] = [
            // The raw body is the decoded body: only the headers are stored.
            b"Message-ID: <plain@x>\nSubject: s\nTo: a@x\n\nplain body\nFrom here\n",
            // CRLF and quoted-printable: the whole message is stored.
            b"Message-ID: <crlf@x>\r\nSubject: s\r\n\r\nline\r\n",
            b"Message-ID: <qp@x>\nContent-Transfer-Encoding: quoted-printable\n\nK=C3=B6rper=\n ok\n",
            // No body at all; invalid UTF-8 in a header.
            b"Message-ID: <empty@x>\nSubject: \xff\xfe\n\n",
            b"Message-ID: <alone@x>\nSubject: written unpacked\n\nits own block\n",
        ];
        let store = Store::in_memory().unwrap();
        let mut blocks = BodyBlocks::default();
        let raws: Vec<RawMessage> = mails
            .iter()
            .enumerate()
            .map(|(i, m)| raw(m, i as u64))
            .collect();
        let mut records: Vec<Record> = raws[..4].iter().map(record).collect();
        pack_bodies(records.iter_mut().collect());
        records.push(record(&raws[4]));
        for r in &records {
            assert!(matches!(
                insert_record(&store, r, 0, &mut blocks).unwrap(),
                Outcome::New(_)
            ));
        }
        for ((m, id), r) in mails
            .iter()
            .zip(["plain@x", "crlf@x", "qp@x", "empty@x", "alone@x"])
            .zip(&raws)
        {
            assert_eq!(
                raw_of(&store, id, None).unwrap(),
                Some(Raw::Stored(m.to_vec())),
                "{id}"
            );
            // The decoded body is read back as parsed, stored or decoded
            // again from the raw form.
            assert_eq!(
                crate::store::body::stored_message(&store, id)
                    .unwrap()
                    .unwrap()
                    .body,
                crate::mail::parse(r).unwrap().body,
                "{id}"
            );
        }
        let list = copies(&store, "<plain@x>").unwrap().unwrap();
        assert_eq!(list.len(), 1);
        assert!(list[0].chosen && list[0].raw_stored && list[0].complete);
        assert_eq!(list[0].size, mails[0].len() as i64);
        assert_eq!(raw_of(&store, "none@x", None).unwrap(), None);
        // Only copies have no row; the bodies of the CRLF and the
        // quoted-printable message are stored raw, the others' decoded
        // bodies are their raw bodies: nothing is stored twice.
        let ids = |sql: &str| -> Vec<String> {
            let mut st = store.conn().prepare(sql).unwrap();
            st.query_map([], |r| r.get(0))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap()
        };
        assert!(ids("SELECT content_hash FROM message_copies").is_empty());
        assert_eq!(
            ids("SELECT message_id FROM messages WHERE body_raw = 1 ORDER BY id"),
            ["crlf@x", "qp@x"]
        );
        let unpacked: i64 = store
            .conn()
            .query_row(
                "SELECT sum(length(lz4) > 0) FROM body_blocks WHERE id IN
                     (SELECT body_block FROM messages WHERE message_id = 'alone@x')",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(unpacked, 1);
    }

    #[test]
    fn messages_packed_from_their_raw_bytes_read_back_as_records_packed_later() {
        use crate::store::messages::packing::pack_messages;
        let mails: [&[u8]; 4] = [
            b"Message-ID: <p1@x>\nSubject: s\n\nplain body\n",
            b"Message-ID: <p2@x>\nContent-Transfer-Encoding: base64\n\nS8O2cnBlcgo=\n",
            b"Message-ID: <p3@x>\r\nSubject: s\r\n\r\nline\r\n",
            b"Message-ID: <p4@x>\nSubject: no body\n\n",
        ];
        let raws: Vec<RawMessage> = mails
            .iter()
            .enumerate()
            .map(|(i, m)| raw(m, i as u64))
            .collect();
        let msgs: Vec<crate::model::Message> = raws
            .iter()
            .map(|r| crate::mail::parse(r).unwrap())
            .collect();
        let pairs: Vec<_> = msgs.iter().zip(&raws).collect();
        let packed = pack_messages(&pairs);
        let store = Store::in_memory().unwrap();
        let mut blocks = BodyBlocks::default();
        for ((msg, r), p) in msgs.iter().zip(&raws).zip(packed) {
            let rec = Record::new(msg.clone(), r.origin.clone(), Extraction::default())
                .with_packed(p.expect("packed"));
            assert!(rec.message.body.is_empty(), "the decoded body goes");
            insert_record(&store, &rec, 0, &mut blocks).unwrap();
        }
        for ((m, r), msg) in mails.iter().zip(&raws).zip(&msgs) {
            let id = &msg.message_id;
            assert_eq!(
                raw_of(&store, id, None).unwrap(),
                Some(Raw::Stored(m.to_vec()))
            );
            let stored = crate::store::body::stored_message(&store, id)
                .unwrap()
                .unwrap();
            assert_eq!(stored.body, crate::mail::parse(r).unwrap().body, "{id}");
        }
        // A message read from an epoch is not packed: the epoch keeps it.
        let epoch = RawMessage {
            origin: Origin::Git {
                repo: "/e/0.git".into(),
                commit: "c".repeat(40),
            },
            ..raw(mails[0], 0)
        };
        assert!(pack_messages(&[(&msgs[0], &epoch)])[0].is_none());
    }

    #[test]
    fn a_damaged_raw_block_is_an_error_naming_the_message() {
        let store = Store::in_memory().unwrap();
        let r = raw(b"Message-ID: <d@x>\nSubject: s\n\nbody\n", 0);
        let mut recs = [record(&r)];
        pack_bodies(recs.iter_mut().collect());
        insert_record(&store, &recs[0], 0, &mut BodyBlocks::default()).unwrap();
        store
            .conn()
            .execute_batch(
                "UPDATE body_blocks SET lz4 = CAST(substr(lz4, 1, length(lz4) - 1) || x'58' AS BLOB)
                 WHERE id = (SELECT head_block FROM messages)",
            )
            .unwrap();
        let err = raw_of(&store, "d@x", None).unwrap_err().to_string();
        assert!(
            err.contains("<d@x>")
                && err.contains("raw form cannot be read")
                && err.contains("damaged"),
            "{err}"
        );
    }
}
