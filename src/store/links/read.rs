//! Reading what linking takes: every message's threading headers and
//! subjects, the facts that choose the messages a regression can involve,
//! and the chosen messages themselves, their extractions and parts.

use super::*;

/// Parses a stored kind name (`perf-report`, ...); unknown names are `Other`.
pub fn parse_kind(s: &str) -> Kind {
    serde_json::from_value(serde_json::Value::String(s.to_string())).unwrap_or_default()
}

/// Decodes a stored extraction (`extractions.json`); fields added since it
/// was written take their defaults.
pub fn decode_extraction(json: &str) -> std::result::Result<Extraction, serde_json::Error> {
    serde_json::from_str(json)
}

/// Calls `f(id, headers, references, kind)` for every message in store
/// order (`messages.id` ascending); `references` is the stored
/// space-separated list, oldest first.
pub fn for_each_header(
    store: &Store,
    keep: Option<&[i64]>,
    mut f: impl FnMut(i64, HeaderRow<'_>, &str, Kind),
) -> Result<()> {
    let sql = "SELECT id, message_id, date, in_reply_to, kind, refs FROM messages";
    rows_of(store, sql, "id", keep, |r| {
        let (id, row, refs, kind) = header_of(r, sql)?;
        f(id, row, refs, kind);
        Ok(())
    })
}

/// [`for_each_header`] of the messages `keep` (ascending) with each one's
/// subject too (`f(id, headers, references, kind, subject)`): one look-up
/// per message where [`for_each_header`] and [`for_each_subject`] take two.
pub fn for_each_header_and_subject(
    store: &Store,
    keep: &[i64],
    mut f: impl FnMut(i64, HeaderRow<'_>, &str, Kind, &str),
) -> Result<()> {
    let sql = "SELECT id, message_id, date, in_reply_to, kind, refs, subject FROM messages";
    rows_of(store, sql, "id", Some(keep), |r| {
        let (id, row, refs, kind) = header_of(r, sql)?;
        f(id, row, refs, kind, text(r, 6, sql)?.unwrap_or_default());
        Ok(())
    })
}

/// The first six columns of a [`for_each_header`] row: id, headers,
/// references, kind.
pub(super) fn header_of<'r>(
    r: &'r rusqlite::Row<'_>,
    sql: &str,
) -> Result<(i64, HeaderRow<'r>, &'r str, Kind)> {
    let id: i64 = r.get(0).db(sql)?;
    let row = HeaderRow {
        message_id: text(r, 1, sql)?.unwrap_or_default(),
        date: r.get(2).db(sql)?,
        in_reply_to: text(r, 3, sql)?,
    };
    let kind = parse_kind(text(r, 4, sql)?.unwrap_or_default());
    Ok((id, row, text(r, 5, sql)?.unwrap_or_default(), kind))
}

/// Calls `each` for every row of `sql` (a `SELECT ... FROM t` without a
/// `WHERE`) in `column` order, of the rows whose `column` is in `keep`
/// (ascending) when given, else of all.
pub(super) fn rows_of(
    store: &Store,
    sql: &str,
    column: &str,
    keep: Option<&[i64]>,
    each: impl FnMut(&rusqlite::Row<'_>) -> Result<()>,
) -> Result<()> {
    rows_where(store, sql, None, column, keep, each)
}

/// [`rows_of`] of the rows that also meet `filter` (an SQL condition).
pub(super) fn rows_where(
    store: &Store,
    sql: &str,
    filter: Option<&str>,
    column: &str,
    keep: Option<&[i64]>,
    mut each: impl FnMut(&rusqlite::Row<'_>) -> Result<()>,
) -> Result<()> {
    let (and_filter, where_filter) = match filter {
        Some(f) => (format!(" AND ({f})"), format!(" WHERE {f}")),
        None => (String::new(), String::new()),
    };
    match keep {
        None => {
            let q = format!("{sql}{where_filter} ORDER BY {column}");
            let mut stmt = store.conn().prepare(&q).db(&q)?;
            let mut rows = stmt.query([]).db(&q)?;
            while let Some(r) = rows.next().db(&q)? {
                each(r)?;
            }
            Ok(())
        }
        Some(ids) => in_chunks(
            store,
            &format!("{sql} WHERE {column} IN ({{}}){and_filter} ORDER BY {column}"),
            ids,
            each,
        ),
    }
}

/// Calls `f(id, subject)` for every message in store order.
pub fn for_each_subject(
    store: &Store,
    keep: Option<&[i64]>,
    mut f: impl FnMut(i64, &str),
) -> Result<()> {
    let sql = "SELECT id, subject FROM messages";
    rows_of(store, sql, "id", keep, |r| {
        f(r.get(0).db(sql)?, text(r, 1, sql)?.unwrap_or_default());
        Ok(())
    })
}

/// Calls `f(id)` for every message whose subject parses as a report subject.
pub fn for_each_subject_report(
    store: &Store,
    keep: Option<&[i64]>,
    mut f: impl FnMut(i64),
) -> Result<()> {
    let sql = "SELECT message, origin FROM reports";
    rows_of(store, sql, "message", keep, |r| {
        if text(r, 1, sql)? == Some("subject") {
            f(r.get(0).db(sql)?);
        }
        Ok(())
    })
}

/// Calls `f(id, trailer)` for every own trailer (unquoted, not suggested)
/// whose key is one of `keys` in any case (title left out). The other rows
/// are passed over by SQLite without being read into trailers: on four
/// whole lists the own `Closes:`, `Link:`, `Reported-by:` and `Fixes:` are
/// an eighth of the 352,000 rows.
pub fn for_each_own_trailer(
    store: &Store,
    keep: Option<&[i64]>,
    keys: &[&str],
    mut f: impl FnMut(i64, &Trailer),
) -> Result<()> {
    let sql = "SELECT message, key, value, suggested, commit_id, quote_depth FROM trailers";
    // The keys are the caller's constants; quoted all the same.
    let listed: Vec<String> = keys
        .iter()
        .map(|k| format!("'{}'", k.replace('\'', "''")))
        .collect();
    let filter = format!(
        "quote_depth = 0 AND suggested = 0 AND key COLLATE NOCASE IN ({})",
        listed.join(",")
    );
    rows_where(store, sql, Some(&filter), "message", keep, |r| {
        let t = Trailer {
            key: r.get(1).db(sql)?,
            value: r.get(2).db(sql)?,
            suggested: r.get::<_, i64>(3).db(sql)? != 0,
            commit: r.get(4).db(sql)?,
            title: None,
            quote_depth: r.get::<_, i64>(5).db(sql)?.max(0) as u32,
        };
        f(r.get(0).db(sql)?, &t);
        Ok(())
    })
}

/// Calls `f(id, link)` for every lore link cited in a message's own text.
pub fn for_each_cited_link(
    store: &Store,
    keep: Option<&[i64]>,
    mut f: impl FnMut(i64, &str),
) -> Result<()> {
    let sql = "SELECT message, target_id FROM lore_links";
    rows_of(store, sql, "message", keep, |r| {
        f(r.get(0).db(sql)?, text(r, 1, sql)?.unwrap_or_default());
        Ok(())
    })
}

/// The headers of the messages whose `messages.id` is in `keep`
/// (ascending; every message without it), in store order, with empty
/// extractions ([`load_parts`] and [`for_each_report_extraction`] fill them).
pub fn load_messages(store: &Store, keep: Option<&[i64]>) -> Result<Vec<LinkMessage>> {
    let kept = |id: i64| keep.is_none_or(|k| k.binary_search(&id).is_ok());
    let sql = "SELECT id, message_id, subject, from_name, from_email, date, in_reply_to, kind, \
               refs FROM messages";
    let few = match keep {
        Some(k) => are_few(store, k.len())?.then_some(k),
        None => None,
    };
    let mut messages: Vec<LinkMessage> = Vec::with_capacity(keep.map_or(0, |k| k.len()));
    rows_of(store, sql, "id", few, |r| {
        let db_id: i64 = r.get(0).db(sql)?;
        if !kept(db_id) {
            return Ok(());
        }
        messages.push(LinkMessage {
            db_id,
            message_id: r.get(1).db(sql)?,
            subject: r.get(2).db(sql)?,
            from_name: r.get(3).db(sql)?,
            from_email: r.get(4).db(sql)?,
            date: r.get(5).db(sql)?,
            in_reply_to: r.get(6).db(sql)?,
            references: split_refs(text(r, 8, sql)?.unwrap_or_default())
                .map(str::to_string)
                .collect(),
            kind: parse_kind(&r.get::<_, String>(7).db(sql)?),
            extraction: Extraction::default(),
            report_facts: None,
            signals_unread: None,
        });
        Ok(())
    })?;
    Ok(messages)
}

/// The row ids among `ids` (ascending) of the messages whose signals an
/// ingest left unread (`messages.signals_read` = 0), ascending.
///
/// Looked up id by id when `ids` are few against the stored messages (an
/// update's), else by one pass over the unread ones (most of an archive's
/// messages stay unread), as `rows_where` does.
pub fn signals_unread(store: &Store, ids: &[i64]) -> Result<Vec<i64>> {
    let sql = "SELECT id FROM messages";
    let few = are_few(store, ids.len())?.then_some(ids);
    let mut out = Vec::new();
    rows_where(store, sql, Some("signals_read = 0"), "id", few, |r| {
        let id: i64 = r.get(0).db(sql)?;
        if ids.binary_search(&id).is_ok() {
            out.push(id);
        }
        Ok(())
    })?;
    out.sort_unstable();
    Ok(out)
}

/// Calls `f(index, json)` for the stored whole extraction of every robot
/// report among the messages (`pos` maps `messages.id` to an index).
pub fn for_each_report_extraction(
    store: &Store,
    pos: &HashMap<i64, usize>,
    mut f: impl FnMut(usize, String),
) -> Result<()> {
    let sql = "SELECT e.message, e.json FROM messages m JOIN extractions e ON e.message = m.id \
               WHERE m.kind IN ('perf-report', 'functional-report')";
    let few = few_of(store, pos, |_| true)?;
    for_kept_rows(
        store.conn(),
        sql,
        few.as_deref(),
        |id| pos.get(&id).copied(),
        |i, r| {
            f(i, r.get(1).db(sql)?);
            Ok(())
        },
    )
}

/// The Message-IDs of a `messages.refs` value, oldest first.
pub(super) fn split_refs(refs: &str) -> impl Iterator<Item = &str> {
    refs.split_ascii_whitespace()
}

/// Column `i` as text borrowed from the row (`None` for NULL); other types
/// fail as `get::<String>` would.
pub(super) fn text<'r>(r: &'r rusqlite::Row<'_>, i: usize, sql: &str) -> Result<Option<&'r str>> {
    match r.get_ref(i).db(sql)? {
        rusqlite::types::ValueRef::Null => Ok(None),
        rusqlite::types::ValueRef::Text(t) => match std::str::from_utf8(t) {
            Ok(s) => Ok(Some(s)),
            Err(_) => r.get::<_, String>(i).db(sql).map(|_| None),
        },
        _ => r.get::<_, String>(i).db(sql).map(|_| None),
    }
}

pub(super) fn enum_of<T: serde::de::DeserializeOwned>(s: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).ok()
}

/// Fills the extraction of every message with `need[i]` from the per-kind
/// tables (`pos` maps `messages.id` to an index).
pub fn load_parts(
    store: &Store,
    pos: &HashMap<i64, usize>,
    need: &[bool],
    messages: &mut [LinkMessage],
) -> Result<()> {
    let conn = store.conn();
    let idx = |id: i64| pos.get(&id).copied().filter(|&i| need[i]);
    let few = few_of(store, pos, |i| need[i])?;

    let sql = "SELECT message, branch, subsystem, commit_short, metric, change_percent, \
               direction, failure FROM reports WHERE origin = 'subject'";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        let dir: Option<String> = r.get(6).db(sql)?;
        messages[i].extraction.subject_report = Some(Box::new(SubjectReport {
            branch: r.get(1).db(sql)?,
            subsystem: r.get(2).db(sql)?,
            commit: r.get::<_, Option<String>>(3).db(sql)?.unwrap_or_default(),
            metric: r.get(4).db(sql)?,
            change_percent: r.get(5).db(sql)?,
            direction: dir.as_deref().and_then(enum_of),
            failure: r.get(7).db(sql)?,
            ..SubjectReport::default()
        }));
        Ok(())
    })?;

    let sql = "SELECT message, key, value, suggested, commit_id, title, quote_depth \
               FROM trailers ORDER BY message, idx";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        messages[i].extraction.trailers.push(Trailer {
            key: r.get(1).db(sql)?,
            value: r.get(2).db(sql)?,
            suggested: r.get::<_, i64>(3).db(sql)? != 0,
            commit: r.get(4).db(sql)?,
            title: r.get(5).db(sql)?,
            quote_depth: r.get::<_, i64>(6).db(sql)?.max(0) as u32,
        });
        Ok(())
    })?;

    let sql = "SELECT message, kind, sentence, quote_depth, commit_id, tentative, mentions \
               FROM signals ORDER BY message, idx";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        let kind: String = r.get(1).db(sql)?;
        let Some(kind) = enum_of::<SignalKind>(&kind) else {
            return Ok(());
        };
        messages[i].extraction.signals.push(Signal {
            kind,
            sentence: r.get(2).db(sql)?,
            quote_depth: r.get::<_, i64>(3).db(sql)?.max(0) as u32,
            commit: r.get(4).db(sql)?,
            tentative: r.get::<_, i64>(5).db(sql)? != 0,
            mentions: r.get(6).db(sql)?,
        });
        Ok(())
    })?;

    let sql =
        "SELECT message, kind, tree, sha, text, quote_depth FROM events ORDER BY message, idx";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        let kind: String = r.get(1).db(sql)?;
        let Some(kind) = enum_of::<EventKind>(&kind) else {
            return Ok(());
        };
        messages[i].extraction.events.push(Event {
            kind,
            tree: r.get(2).db(sql)?,
            sha: r.get(3).db(sql)?,
            text: r.get(4).db(sql)?,
            quote_depth: r.get::<_, i64>(5).db(sql)?.max(0) as u32,
        });
        Ok(())
    })?;

    let sql = "SELECT message, target_id FROM lore_links";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        messages[i].extraction.lore_links.push(r.get(1).db(sql)?);
        Ok(())
    })?;

    let sql = "SELECT message, commit_id, title, quote_depth FROM commit_refs";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        messages[i].extraction.commits.push(CommitRef {
            id: r.get(1).db(sql)?,
            title: r.get(2).db(sql)?,
            quote_depth: r.get::<_, i64>(3).db(sql)?.max(0) as u32,
        });
        Ok(())
    })?;

    let sql = "SELECT message, title, title_key, version, part, parts, resend, rfc, patch_id, \
               change_id, base_commit, reverts, reverts_title, upstream, touches, speaks_of, \
               robot_perf, series_titles FROM patches";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        messages[i].extraction.patch = Some(Box::new(PatchFacts {
            title: r.get(1).db(sql)?,
            title_key: r.get(2).db(sql)?,
            version: r.get(3).db(sql)?,
            part: r.get(4).db(sql)?,
            parts: r.get(5).db(sql)?,
            resend: r.get::<_, i64>(6).db(sql)? != 0,
            rfc: r.get::<_, i64>(7).db(sql)? != 0,
            patch_id: r.get(8).db(sql)?,
            change_id: r.get(9).db(sql)?,
            base_commit: r.get(10).db(sql)?,
            reverts: r.get(11).db(sql)?,
            reverts_title: r.get(12).db(sql)?,
            upstream: r.get(13).db(sql)?,
            touches: split_lines(r.get(14).db(sql)?),
            speaks_of: split_lines(r.get(15).db(sql)?),
            robot_perf: r.get::<_, i64>(16).db(sql)? != 0,
            series_titles: split_lines(r.get(17).db(sql)?),
        }));
        Ok(())
    })?;

    let sql = "SELECT message, kind, title, commit_id, tree, branch, quote_depth FROM landings \
               ORDER BY message, idx";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        let kind: String = r.get(1).db(sql)?;
        let Some(kind) = enum_of::<LandingKind>(&kind) else {
            return Ok(());
        };
        messages[i].extraction.landings.push(Landing {
            kind,
            title: r.get(2).db(sql)?,
            commit: r.get(3).db(sql)?,
            tree: r.get(4).db(sql)?,
            branch: r.get(5).db(sql)?,
            quote_depth: r.get::<_, i64>(6).db(sql)?.max(0) as u32,
        });
        Ok(())
    })?;

    // Only whether a message carries its own diff matters to linking.
    let sql = "SELECT message, min(quote_depth) FROM diffs GROUP BY message";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        messages[i].extraction.diffs.push(DiffFile {
            quote_depth: r.get::<_, i64>(1).db(sql)?.max(0) as u32,
            ..DiffFile::default()
        });
        Ok(())
    })?;
    Ok(())
}

/// A newline-separated text column as a list (empty for NULL).
pub(super) fn split_lines(v: Option<String>) -> Vec<String> {
    v.map(|s| s.lines().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Share of the stored messages under which the rows of a few are looked up
/// by `message` (a key prefix of every per-message table) instead of read
/// in one scan: an update's handful, not a full link's thousands.
pub(super) const FEW: i64 = 16;

/// Whether `n` messages (or keys to look up) are few against the stored
/// messages ([`FEW`]).
pub(super) fn are_few(store: &Store, n: usize) -> Result<bool> {
    Ok((n as i64).saturating_mul(FEW) <= largest_message_id(store)?)
}

/// The largest `messages.id` (0 when none): about the number of stored
/// messages, read from the end of the table's B-tree without a scan.
pub fn largest_message_id(store: &Store) -> Result<i64> {
    let sql = "SELECT coalesce(max(id), 0) FROM messages";
    store.conn().query_row(sql, [], |r| r.get(0)).db(sql)
}

/// The `messages.id`s of `pos` (ascending) that `want` keeps, when they are
/// few against the stored messages (see [`FEW`]); `None` to scan.
pub(super) fn few_of(
    store: &Store,
    pos: &HashMap<i64, usize>,
    want: impl Fn(usize) -> bool,
) -> Result<Option<Vec<i64>>> {
    if !are_few(store, pos.len())? {
        return Ok(None);
    }
    let mut ids: Vec<i64> = pos
        .iter()
        .filter(|(_, i)| want(**i))
        .map(|(id, _)| *id)
        .collect();
    ids.sort_unstable();
    Ok(Some(ids))
}

/// `sql` (a `SELECT message, ... FROM t [WHERE ...] [ORDER BY ...|GROUP BY
/// ...]`) restricted to the messages of a `?` list of `n` values.
pub(super) fn restricted(sql: &str, n: usize) -> String {
    let list = vec!["?"; n].join(",");
    let cut = sql
        .find(" ORDER BY ")
        .or_else(|| sql.find(" GROUP BY "))
        .unwrap_or(sql.len());
    let (head, tail) = sql.split_at(cut);
    let joint = if head.contains(" WHERE ") {
        "AND"
    } else {
        "WHERE"
    };
    format!("{head} {joint} message IN ({list}){tail}")
}

/// Calls `each(i, row)` for every row of `sql` (no parameters) whose first
/// column is a `messages.id` that `index` maps to `i`; rows of other
/// messages are skipped. With `few`, only their rows are asked for (a chunk
/// of them at a time). Errors name the statement.
pub(super) fn for_kept_rows(
    conn: &rusqlite::Connection,
    sql: &str,
    few: Option<&[i64]>,
    index: impl Fn(i64) -> Option<usize>,
    mut each: impl FnMut(usize, &rusqlite::Row<'_>) -> Result<()>,
) -> Result<()> {
    let mut run = |q: &str, values: &[i64]| -> Result<()> {
        let mut stmt = conn.prepare(q).db(q)?;
        let mut rows = stmt.query(rusqlite::params_from_iter(values)).db(q)?;
        while let Some(r) = rows.next().db(q)? {
            if let Some(i) = index(r.get(0).db(q)?) {
                each(i, r)?;
            }
        }
        Ok(())
    };
    match few {
        None => run(sql, &[]),
        Some(ids) => {
            for chunk in ids.chunks(IN_CHUNK) {
                run(&restricted(sql, chunk.len()), chunk)?;
            }
            Ok(())
        }
    }
}
