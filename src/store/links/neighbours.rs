//! What an incremental relink reaches from the messages it starts from:
//! their histories and members, thread roots and thread mates, link keys
//! and the messages sharing them, landings and chosen flags.

use super::*;

/// Rows of `sql` (one `?` list placeholder written `{}`) for `keys`, asked
/// a chunk at a time; `each` gets every row.
pub(super) fn in_chunks<K: rusqlite::ToSql>(
    store: &Store,
    sql: &str,
    keys: &[K],
    mut each: impl FnMut(&rusqlite::Row<'_>) -> Result<()>,
) -> Result<()> {
    // Each `{}` takes the chunk's values.
    let lists = sql.matches("{}").count().max(1);
    for chunk in keys.chunks(IN_CHUNK) {
        let list = vec!["?"; chunk.len()].join(",");
        let q = sql.replace("{}", &list);
        let mut stmt = store.conn().prepare(&q).db(&q)?;
        let values = (0..lists).flat_map(|_| chunk.iter());
        let mut rows = stmt.query(rusqlite::params_from_iter(values)).db(&q)?;
        while let Some(r) = rows.next().db(&q)? {
            each(r)?;
        }
    }
    Ok(())
}

/// Every stored regression's id and culprit.
pub fn regression_culprits(store: &Store) -> Result<Vec<(i64, String)>> {
    let sql = "SELECT id, culprit FROM regressions";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)
}

/// The messages attached to these regressions.
pub fn members_of(store: &Store, regressions: &[i64]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT message FROM regression_messages WHERE regression IN ({})",
        regressions,
        |r| {
            out.push(r.get(0).db("regression members")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// The regressions with a patch posted by one of `authors` (address,
/// lower-cased) and its date: `(regression, address, date)`.
pub fn patches_by(store: &Store, authors: &[String]) -> Result<Vec<(i64, String, i64)>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT rm.regression, lower(m.from_email), m.date FROM regression_messages rm \
         JOIN messages m ON m.id = rm.message \
         WHERE rm.role = 'patch' AND m.date IS NOT NULL AND lower(m.from_email) IN ({})",
        authors,
        |r| {
            out.push((
                r.get(0).db("patches by")?,
                r.get(1).db("patches by")?,
                r.get(2).db("patches by")?,
            ));
            Ok(())
        },
    )?;
    Ok(out)
}

/// The regressions these messages are attached to.
pub fn regressions_of(store: &Store, messages: &[i64]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT regression FROM regression_messages WHERE message IN ({})",
        messages,
        |r| {
            out.push(r.get(0).db("regressions of messages")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// The thread roots the threads table gives these messages.
pub fn roots_of_messages(store: &Store, messages: &[i64]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT root_id FROM threads WHERE message IN ({})",
        messages,
        |r| {
            out.push(r.get(0).db("thread roots")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// The thread roots of these ids (Message-IDs of messages or of ids only
/// referenced), as the last link left them: a message's from its `threads`
/// row, an id only referenced from `thread_ids` (a message stored since
/// and not linked yet has no `threads` row, and its id's `thread_ids` row
/// stays until its thread is linked again).
pub fn roots_of_ids(store: &Store, ids: &[&str]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT t.root_id FROM messages m JOIN threads t ON t.message = m.id
          WHERE m.message_id IN ({})
         UNION ALL SELECT root FROM thread_ids WHERE id IN ({})",
        ids,
        |r| {
            out.push(r.get(0).db("thread ids")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// The messages of these threads.
pub fn messages_in_roots(store: &Store, roots: &[String]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT message FROM threads WHERE root_id IN ({})",
        roots,
        |r| {
            out.push(r.get(0).db("thread messages")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// The Message-ID, In-Reply-To and References of these messages.
pub fn thread_headers_of(
    store: &Store,
    messages: &[i64],
) -> Result<Vec<(String, Option<String>, String)>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT message_id, in_reply_to, coalesce(refs, '') FROM messages WHERE id IN ({})",
        messages,
        |r| {
            out.push((
                r.get(0).db("headers")?,
                r.get(1).db("headers")?,
                r.get(2).db("headers")?,
            ));
            Ok(())
        },
    )?;
    Ok(out)
}

/// The link keys of these messages: those `link_keys` holds and those
/// their `patches` rows imply ([`crate::link::keys::implied_by_patch`],
/// and `b:<change-id>`; a database an older build filled holds the first
/// two in `link_keys` too, so a key may come twice).
pub fn keys_of(store: &Store, messages: &[i64]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let sql = format!(
        "SELECT key FROM link_keys WHERE message IN ({{}})
         UNION ALL
         SELECT 'p:' || patch_id FROM patches WHERE message IN ({{}}) AND patch_id IS NOT NULL
         UNION ALL
         SELECT 't:' || title_key FROM patches
         WHERE message IN ({{}}) AND length(CAST(title_key AS BLOB)) >= {MIN_TITLE_KEY}
         UNION ALL
         SELECT 'b:' || change_id FROM patches
         WHERE message IN ({{}}) AND change_id IS NOT NULL AND change_id != ''"
    );
    in_chunks(store, &sql, messages, |r| {
        out.push(r.get(0).db("link keys")?);
        Ok(())
    })?;
    Ok(out)
}

/// The patch ids, title keys (of [`MIN_TITLE_KEY`] bytes or more) and b4
/// change-ids that the `p:`, `t:` and `b:` keys among `keys` name: the
/// columns of `patches` that imply them.
pub(super) fn implied_columns(keys: &[String]) -> (Vec<&str>, Vec<&str>, Vec<&str>) {
    let ids = keys.iter().filter_map(|k| k.strip_prefix("p:")).collect();
    let titles = keys
        .iter()
        .filter_map(|k| k.strip_prefix("t:"))
        .filter(|t| t.len() >= MIN_TITLE_KEY)
        .collect();
    let changes = keys.iter().filter_map(|k| k.strip_prefix("b:")).collect();
    (ids, titles, changes)
}

/// The messages that have any of these link keys (see [`keys_of`]; a
/// message may come more than once).
pub fn messages_with_keys(store: &Store, keys: &[String]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    let mut push = |r: &rusqlite::Row<'_>| {
        out.push(r.get(0).db("messages by key")?);
        Ok(())
    };
    in_chunks(
        store,
        "SELECT message FROM link_keys WHERE key IN ({})",
        keys,
        &mut push,
    )?;
    let (ids, titles, changes) = implied_columns(keys);
    in_chunks(
        store,
        "SELECT message FROM patches WHERE patch_id IN ({})",
        &ids,
        &mut push,
    )?;
    in_chunks(
        store,
        "SELECT message FROM patches WHERE title_key IN ({})",
        &titles,
        &mut push,
    )?;
    in_chunks(
        store,
        "SELECT message FROM patches WHERE change_id IN ({})",
        &changes,
        &mut push,
    )?;
    Ok(out)
}

/// How many messages have each of these link keys (for a key too common
/// to follow): those whose `patches` row implies it, and those holding it
/// in `link_keys` whose row does not (a database an older build filled
/// holds both).
pub fn key_counts(store: &Store, keys: &[String]) -> Result<HashMap<String, i64>> {
    let mut out: HashMap<String, i64> = HashMap::new();
    // Only a `p:` or `t:` key can be implied as well: the others are
    // counted from the index alone.
    let (patch_keys, others): (Vec<&String>, Vec<&String>) = keys
        .iter()
        .partition(|k| k.starts_with("p:") || k.starts_with("t:"));
    let implied_too = format!(
        "SELECT l.key, count(*) FROM link_keys l WHERE l.key IN ({{}})
           AND NOT EXISTS (SELECT 1 FROM patches p WHERE p.message = l.message
                           AND ('p:' || p.patch_id = l.key
                                OR ('t:' || p.title_key = l.key
                                    AND length(CAST(p.title_key AS BLOB)) >= {MIN_TITLE_KEY})))
         GROUP BY l.key"
    );
    for (sql, keys) in [
        (
            "SELECT key, count(*) FROM link_keys WHERE key IN ({}) GROUP BY key",
            &others,
        ),
        (implied_too.as_str(), &patch_keys),
    ] {
        in_chunks(store, sql, keys, |r| {
            *out.entry(r.get(0).db("key counts")?).or_default() +=
                r.get::<_, i64>(1).db("key counts")?;
            Ok(())
        })?;
    }
    let (ids, titles, changes) = implied_columns(keys);
    for (sql, prefix, values) in [
        (
            "SELECT patch_id, count(*) FROM patches WHERE patch_id IN ({}) GROUP BY patch_id",
            "p:",
            &ids,
        ),
        (
            "SELECT title_key, count(*) FROM patches WHERE title_key IN ({}) GROUP BY title_key",
            "t:",
            &titles,
        ),
        (
            "SELECT change_id, count(*) FROM patches WHERE change_id IN ({}) GROUP BY change_id",
            "b:",
            &changes,
        ),
    ] {
        in_chunks(store, sql, values, |r| {
            let key = format!("{prefix}{}", r.get::<_, String>(0).db("key counts")?);
            *out.entry(key).or_default() += r.get::<_, i64>(1).db("key counts")?;
            Ok(())
        })?;
    }
    Ok(out)
}

/// The `messages.id` of the messages with these Message-IDs.
pub fn rows_of_message_ids(store: &Store, ids: &[&str]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT id FROM messages WHERE message_id IN ({})",
        ids,
        |r| {
            out.push(r.get(0).db("messages by id")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// Which of these messages are pull requests or for-next announcements
/// (a landing of either kind): hubs that list many patches.
pub fn landing_hubs(store: &Store, messages: &[i64]) -> Result<HashSet<i64>> {
    let mut out = HashSet::new();
    in_chunks(
        store,
        "SELECT DISTINCT message FROM landings WHERE kind IN ('pull-request', 'for-next') \
         AND message IN ({})",
        messages,
        |r| {
            out.insert(r.get(0).db("landing hubs")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// Which of these messages can start or join a regression by themselves:
/// robot reports, replies whose subject names a culprit, reverts.
pub fn seeds_among(store: &Store, messages: &[i64]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT id FROM messages WHERE id IN ({}) AND kind IN ('perf-report', 'functional-report') \
         UNION SELECT message FROM reports WHERE message IN ({}) AND origin = 'subject' \
         UNION SELECT message FROM patches WHERE message IN ({}) \
             AND (reverts IS NOT NULL OR reverts_title IS NOT NULL)",
        messages,
        |r| {
            out.push(r.get(0).db("seeds")?);
            Ok(())
        },
    )?;
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Of these messages, the ones the last link chose, each with whether the
/// first step chose it (see the `link_chosen` table).
pub fn chosen_flags(store: &Store, messages: &[i64]) -> Result<HashMap<i64, bool>> {
    let mut out = HashMap::new();
    in_chunks(
        store,
        "SELECT message, first FROM link_chosen WHERE message IN ({})",
        messages,
        |r| {
            out.insert(
                r.get(0).db("chosen messages")?,
                r.get::<_, i64>(1).db("chosen messages")? != 0,
            );
            Ok(())
        },
    )?;
    Ok(out)
}
