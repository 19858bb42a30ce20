//! Messages stored by an older extractor, read back whole for a newer one:
//! every stored column of the message ([`crate::model::Message`] less
//! nothing) and its decoded body. The pipeline extracts them again and
//! writes the result with [`super::extractions::replace_extraction`]. A body
//! kept in a public-inbox epoch (see [`super::body`]) is decoded there again,
//! with its parts: the stored parts are byte ranges of the body decoded
//! then, and a newer parser may decode it otherwise.

use rusqlite::params;

use super::DbContext;
use super::Store;
use super::body::{Unpacked, epoch_body, epoch_of, range_of, unpack};
use crate::error::Result;
use crate::model::{BodyPart, Message};

/// How many messages carry an extraction older than `version` (a range of
/// the `extraction_version` index: as cheap as a probe when there are none).
pub fn stale_count(store: &Store, version: i64) -> Result<u64> {
    let sql = "SELECT count(*) FROM messages WHERE extraction_version < ?1";
    store
        .conn()
        .query_row(sql, [version], |r| r.get::<_, i64>(0))
        .db(sql)
        .map(|n| n.max(0) as u64)
}

/// Messages read back whole (row id and message), and those whose body
/// cannot be read (row id and `Message-ID: reason`).
pub type StaleMessages = (Vec<(i64, Message)>, Vec<(i64, String)>);

/// Up to `limit` messages with an extraction older than `version` and a
/// row id above `after`, ascending, whole; and those whose body cannot be
/// read (`Message-ID: reason`).
pub fn stale_messages(
    store: &Store,
    version: i64,
    after: i64,
    limit: usize,
) -> Result<StaleMessages> {
    whole_messages(
        store,
        "m.extraction_version < ?1 AND m.id > ?2 ORDER BY m.id LIMIT ?3",
        [params![version, after, limit as i64]],
    )
}

/// The messages whose row id is in `ids` (ascending: consecutive messages
/// share body blocks), whole, as [`stale_messages`] reads them; and those
/// whose body cannot be read (`Message-ID: reason`). An id not stored is
/// left out.
pub fn messages_by_id(store: &Store, ids: &[i64]) -> Result<StaleMessages> {
    whole_messages(store, "m.id = ?1", ids.iter().map(|id| [*id]))
}

/// The messages of each query of `queries` (the parameters of the
/// condition `condition` on `messages m`), whole, in the queries' order.
fn whole_messages<P: rusqlite::Params>(
    store: &Store,
    condition: &str,
    queries: impl IntoIterator<Item = P>,
) -> Result<StaleMessages> {
    let conn = store.conn();
    let sql = &format!(
        "SELECT m.id, m.message_id, m.message_id_derived, m.subject, m.from_name,
                m.from_email, m.date, m.in_reply_to, m.refs, m.parts_json,
                m.content_hash, m.raw_size, m.body_block, m.body_start, m.body_len,
                b.text, b.lz4, {}, m.body_raw, m.head_block, m.head_start, m.head_len
         FROM messages m LEFT JOIN bodies b ON b.message = m.id
         WHERE {condition}",
        super::body::UNSTORED_ORIGIN
    );
    let mut stmt = conn.prepare_cached(sql).db(sql)?;
    let mut out = Vec::new();
    let mut broken = Vec::new();
    let mut blocks = Unpacked::new();
    let sql_lists = "SELECT list_id FROM message_lists WHERE message = ?1 ORDER BY list_id";
    let mut lists_stmt = conn.prepare_cached(sql_lists).db(sql_lists)?;
    for query in queries {
        let mut rows = stmt.query(query).db(sql)?;
        while let Some(r) = rows.next().db(sql)? {
            let id: i64 = r.get(0).db(sql)?;
            let parts: Vec<BodyPart> =
                serde_json::from_str(&r.get::<_, String>(9).db(sql)?).unwrap_or_default();
            let mut msg = Message {
                message_id: r.get(1).db(sql)?,
                message_id_derived: r.get::<_, i64>(2).db(sql)? != 0,
                subject: r.get(3).db(sql)?,
                from_name: r.get(4).db(sql)?,
                from_email: r.get(5).db(sql)?,
                date: r.get(6).db(sql)?,
                in_reply_to: r.get(7).db(sql)?,
                references: r
                    .get::<_, Option<String>>(8)
                    .db(sql)?
                    .unwrap_or_default()
                    .split_ascii_whitespace()
                    .map(str::to_string)
                    .collect(),
                list_ids: Vec::new(),
                body: String::new(),
                parts,
                content_hash: r.get(10).db(sql)?,
                raw_size: r.get::<_, i64>(11).db(sql)?.max(0) as u64,
            };
            let block_id: Option<i64> = r.get(12).db(sql)?;
            let body = if let Some(b) = block_id {
                let start = r.get::<_, Option<i64>>(13).db(sql)?.unwrap_or(0);
                let len = r.get::<_, Option<i64>>(14).db(sql)?.unwrap_or(0);
                blocks.range(conn, (b, start, len))?.map(Stored::Bytes)
            } else if let Some(lz4) = r.get::<_, Option<Vec<u8>>>(16).db(sql)? {
                unpack(&lz4)
                    .map(Stored::Text)
                    .map_err(|e| format!("its compressed body cannot be read: {e}"))
            } else if let Some((repo, commit)) =
                epoch_of(r.get::<_, Option<String>>(17).db(sql)?.as_deref())
            {
                epoch_body(&repo, &commit).map(|(body, parts)| {
                    msg.parts = parts;
                    Stored::Text(body)
                })
            } else {
                Ok(Stored::Text(
                    r.get::<_, Option<String>>(15).db(sql)?.unwrap_or_default(),
                ))
            };
            // A body stored raw is decoded again from its raw form, with its
            // parts (as an epoch's is).
            let body = match body {
                Ok(stored) if r.get::<_, bool>(18).db(sql)? => {
                    let head = range_of(r.get(19).db(sql)?, r.get(20).db(sql)?, r.get(21).db(sql)?);
                    let raw = match &stored {
                        Stored::Bytes(b) => b.as_slice(),
                        Stored::Text(t) => t.as_bytes(),
                    };
                    blocks.decode_raw(conn, head, raw)?.map(|(body, parts)| {
                        msg.parts = parts;
                        body
                    })
                }
                Ok(Stored::Bytes(b)) => Ok(match String::from_utf8(b) {
                    Ok(s) => s,
                    Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
                }),
                Ok(Stored::Text(t)) => Ok(t),
                Err(why) => Err(why),
            };
            match body {
                Ok(b) => msg.body = b,
                Err(reason) => {
                    broken.push((id, format!("{}: {reason}", msg.message_id)));
                    continue;
                }
            }
            msg.list_ids = lists_stmt
                .query_map([id], |r| r.get(0))
                .db(sql_lists)?
                .collect::<std::result::Result<_, _>>()
                .db(sql_lists)?;
            out.push((id, msg));
        }
    }
    Ok((out, broken))
}

/// A stored body as read: bytes of a block, or text.
enum Stored {
    Bytes(Vec<u8>),
    Text(String),
}

/// Marks every message as extracted by no version, so that the next
/// re-extraction extracts them all.
pub fn mark_all_stale(store: &Store) -> Result<()> {
    let sql = "UPDATE messages SET extraction_version = 0";
    store.conn().execute(sql, []).db(sql).map(|_| ())
}
