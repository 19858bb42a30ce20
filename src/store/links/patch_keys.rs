//! The patch keys a regression is tied to its fixes by (commit prefixes of
//! `Fixes:` trailers, patch ids, title keys): which messages hold them, read
//! from `patches`, `landings` and `trailers` by index or by scan.

use super::*;

/// What identifies the patches of some messages: their title keys and
/// patch ids (those a message has), and the title keys of the culprits
/// their robot reports name (the culprit's own posting and the landings
/// naming it are found by them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PatchKeys {
    /// Title keys.
    pub titles: Vec<String>,
    /// Patch ids.
    pub patch_ids: Vec<String>,
    /// b4 change-ids (one change through all its versions).
    pub change_ids: Vec<String>,
    /// The first seven hex digits (lower case) of the culprits the reports
    /// name: the patches whose own `Fixes:` names one are weighed as fixes.
    pub culprits: Vec<String>,
    /// The `i:` keys of the patches (their authors and their titles' code
    /// identifiers, [`crate::link::keys::words`]): a version whose title
    /// changed is found by them.
    pub words: Vec<String>,
}

/// The messages holding each of `values`, each with the value it holds:
/// `lookup` (one `?1`, giving the message) for each value when `index`
/// exists and the values are few, else one pass of `scan` (giving the
/// message and its value).
fn holders(
    store: &Store,
    index: &str,
    lookup: &str,
    scan: &str,
    values: &[&str],
) -> Result<Vec<(i64, String)>> {
    let mut out = Vec::new();
    if values.is_empty() {
        return Ok(out);
    }
    if indexes_exist(store, &[index])? && are_few(store, values.len())? {
        let mut stmt = store.conn().prepare_cached(lookup).db(lookup)?;
        for v in values {
            let mut rows = stmt.query([v]).db(lookup)?;
            while let Some(r) = rows.next().db(lookup)? {
                out.push((r.get(0).db(lookup)?, v.to_string()));
            }
        }
    } else {
        let wanted: HashSet<&str> = values.iter().copied().collect();
        let mut stmt = store.conn().prepare(scan).db(scan)?;
        let mut rows = stmt.query([]).db(scan)?;
        while let Some(r) = rows.next().db(scan)? {
            let v: String = r.get(1).db(scan)?;
            if wanted.contains(v.as_str()) {
                out.push((r.get(0).db(scan)?, v));
            }
        }
    }
    Ok(out)
}

/// The messages holding one of these `i:` link keys (a patch of that
/// author whose title names that identifier), each with the key
/// ([`holders`]: by the link keys' index, or one pass over the `i:` keys).
fn word_holders(store: &Store, keys: &[&str], out: &mut Vec<(i64, String)>) -> Result<()> {
    out.extend(holders(
        store,
        "link_keys_key",
        "SELECT message FROM link_keys WHERE key = ?1",
        "SELECT message, key FROM link_keys WHERE key >= 'i:' AND key < 'i;'",
        keys,
    )?);
    Ok(())
}

/// The seven-digit lower-case prefix of a commit id, if it is one.
pub(super) fn commit_prefix(id: &str) -> Option<String> {
    let id = id.trim();
    (id.len() >= 7 && id.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| id[..7].to_ascii_lowercase())
}

/// The own `Fixes:` trailers (not suggested, not quoted) as a row filter.
pub(super) const OWN_FIXES: &str = "key = 'Fixes' COLLATE NOCASE AND suggested = 0 AND quote_depth = 0 \
                         AND commit_id IS NOT NULL";

/// Messages read per `IN (...)` list.
pub(super) const IN_CHUNK: usize = 500;

/// The key of the culprit title a robot report gives (as
/// [`crate::link::keys`] makes it), without its `t:`.
pub(super) fn culprit_title_key(title: &str) -> Option<String> {
    crate::link::keys::title(title).map(|k| k["t:".len()..].to_string())
}

/// The title keys and patch ids of the patches among the messages `ids`,
/// and the title keys of the culprits their reports name (or their replies
/// naming a culprit quote).
pub fn patch_keys_of(store: &Store, ids: &[i64]) -> Result<PatchKeys> {
    let mut titles: HashSet<String> = HashSet::new();
    let mut patch_ids: HashSet<String> = HashSet::new();
    let mut change_ids: HashSet<String> = HashSet::new();
    let mut culprits: HashSet<String> = HashSet::new();
    in_chunks(
        store,
        "SELECT commit_title, commit_short, commit_full FROM reports WHERE message IN ({})",
        ids,
        |r| {
            let t: Option<String> = r.get(0).db("culprit titles")?;
            titles.extend(t.as_deref().and_then(culprit_title_key));
            for col in [1, 2] {
                let c: Option<String> = r.get(col).db("culprit ids")?;
                culprits.extend(c.as_deref().and_then(commit_prefix));
            }
            Ok(())
        },
    )?;
    // A reply whose subject names a culprit and whose quoted report gives
    // its title (no report of its own): the title keys it stores.
    in_chunks(
        store,
        "SELECT l.key FROM link_keys l WHERE l.message IN ({}) AND l.key >= 't:' AND l.key < 't;' \
         AND EXISTS (SELECT 1 FROM reports r WHERE r.message = l.message \
                     AND r.origin = 'subject' AND r.commit_title IS NULL)",
        ids,
        |r| {
            let k: String = r.get(0).db("quoted culprit titles")?;
            titles.extend(k.strip_prefix("t:").map(str::to_string));
            Ok(())
        },
    )?;
    in_chunks(
        store,
        "SELECT title_key, patch_id, change_id FROM patches WHERE message IN ({})",
        ids,
        |r| {
            let t: String = r.get(0).db("patch keys")?;
            if t.len() >= MIN_TITLE_KEY {
                titles.insert(t);
            }
            if let Some(p) = r.get::<_, Option<String>>(1).db("patch keys")? {
                patch_ids.insert(p);
            }
            if let Some(c) = r.get::<_, Option<String>>(2).db("patch keys")?
                && !c.is_empty()
            {
                change_ids.insert(c);
            }
            Ok(())
        },
    )?;
    // The authors and code identifiers of the patches' titles.
    let mut words: HashSet<String> = HashSet::new();
    in_chunks(
        store,
        "SELECT key FROM link_keys WHERE message IN ({}) AND key >= 'i:' AND key < 'i;'",
        ids,
        |r| {
            words.insert(r.get(0).db("identifier keys")?);
            Ok(())
        },
    )?;
    let mut out = PatchKeys {
        titles: titles.into_iter().collect(),
        patch_ids: patch_ids.into_iter().collect(),
        change_ids: change_ids.into_iter().collect(),
        culprits: culprits.into_iter().collect(),
        words: words.into_iter().collect(),
    };
    out.words.sort();
    out.titles.sort();
    out.patch_ids.sort();
    out.change_ids.sort();
    out.culprits.sort();
    Ok(out)
}

/// Messages carrying a patch with one of these title keys or patch ids, or
/// a landing naming one of the titles, and the patches their authors
/// posted under another title naming one of the `i:` keys' identifiers,
/// with the messages carrying or landing those titles (ascending
/// `messages.id`).
pub fn messages_with_patch_keys(store: &Store, keys: &PatchKeys) -> Result<Vec<i64>> {
    let mut out: Vec<i64> = Vec::new();
    // A renamed version's title is one of the patch's titles: its postings
    // and landings are brought as the others' are.
    let mut held = Vec::new();
    let words: Vec<&str> = keys.words.iter().map(String::as_str).collect();
    word_holders(store, &words, &mut held)?;
    let renamed: Vec<i64> = held.into_iter().map(|(m, _)| m).collect();
    let mut more: Vec<String> = Vec::new();
    in_chunks(
        store,
        "SELECT title_key FROM patches WHERE message IN ({})",
        &renamed,
        |r| {
            let t: String = r.get(0).db("renamed titles")?;
            if t.len() >= MIN_TITLE_KEY && keys.titles.binary_search(&t).is_err() {
                more.push(t);
            }
            Ok(())
        },
    )?;
    out.extend(renamed);
    let expanded;
    let keys = if more.is_empty() {
        keys
    } else {
        let mut k = keys.clone();
        k.titles.extend(more);
        k.titles.sort();
        k.titles.dedup();
        expanded = k;
        &expanded
    };
    if lookups_pay(store, keys.titles.len() * 2 + keys.patch_ids.len())? {
        let conn = store.conn();
        let mut each = |sql: &str, key: &str| -> Result<()> {
            let mut stmt = conn.prepare_cached(sql).db(sql)?;
            let mut rows = stmt.query([key]).db(sql)?;
            while let Some(r) = rows.next().db(sql)? {
                out.push(r.get(0).db(sql)?);
            }
            Ok(())
        };
        for t in &keys.titles {
            each("SELECT message FROM patches WHERE title_key = ?1", t)?;
            each("SELECT message FROM landings WHERE title = ?1", t)?;
            // A cover letter whose shortlog lists the title (its `t:` keys).
            each(
                "SELECT l.message FROM link_keys l JOIN patches p ON p.message = l.message \
                 WHERE l.key = 't:' || ?1 AND p.part = 0",
                t,
            )?;
        }
        for p in &keys.patch_ids {
            each("SELECT message FROM patches WHERE patch_id = ?1", p)?;
        }
    } else {
        let titles: HashSet<&str> = keys.titles.iter().map(String::as_str).collect();
        let patch_ids: HashSet<&str> = keys.patch_ids.iter().map(String::as_str).collect();
        scan_patch_keys(store, true, |m, title, patch_id, landing| {
            if title.is_some_and(|t| titles.contains(t))
                || (!landing && patch_id.is_some_and(|p| patch_ids.contains(p)))
            {
                out.push(m);
            }
        })?;
    }
    out.extend(messages_fixing(store, &keys.culprits)?);
    out.extend(messages_fixing_titles(store, &keys.titles)?);
    for (m, _) in change_id_holders(store, &keys.change_ids)? {
        out.push(m);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// The postings carrying one of these b4 change-ids, each with it
/// ([`holders`]: by the index when it exists and the ids are few, else in
/// one pass).
fn change_id_holders(store: &Store, ids: &[String]) -> Result<Vec<(i64, String)>> {
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    holders(
        store,
        "patches_change_id",
        "SELECT message FROM patches WHERE change_id = ?1",
        "SELECT message, change_id FROM patches WHERE change_id IS NOT NULL",
        &ids,
    )
}

/// Messages whose own `Fixes:` names a commit beginning with one of these
/// seven-digit prefixes: looked up by the trailers' commit index when it
/// exists and the prefixes are few, else in one pass over the `Fixes:`
/// trailers.
pub(super) fn messages_fixing(store: &Store, prefixes: &[String]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    if prefixes.is_empty() {
        return Ok(out);
    }
    if indexes_exist(store, &["trailers_commit"])? && are_few(store, prefixes.len())? {
        let sql = format!(
            "SELECT message FROM trailers WHERE commit_id >= ?1 AND commit_id < ?2 AND {OWN_FIXES}"
        );
        let mut stmt = store.conn().prepare_cached(&sql).db(&sql)?;
        for p in prefixes {
            let mut rows = stmt.query(params![p, format!("{p}~")]).db(&sql)?;
            while let Some(r) = rows.next().db(&sql)? {
                out.push(r.get(0).db(&sql)?);
            }
        }
    } else {
        let wanted: HashSet<&str> = prefixes.iter().map(String::as_str).collect();
        let sql = format!("SELECT message, commit_id FROM trailers WHERE {OWN_FIXES}");
        let mut stmt = store.conn().prepare(&sql).db(&sql)?;
        let mut rows = stmt.query([]).db(&sql)?;
        while let Some(r) = rows.next().db(&sql)? {
            let c: String = r.get(1).db(&sql)?;
            if commit_prefix(&c).is_some_and(|p| wanted.contains(p.as_str())) {
                out.push(r.get(0).db(&sql)?);
            }
        }
    }
    Ok(out)
}

/// Messages whose own `Fixes:` names one of these titles (title keys), under
/// whatever commit id: a fix naming the merged commit of a culprit the robot
/// reported as a posted patch or a developer's branch. Looked up by the
/// link keys' index (a `Fixes:` title is a `t:` key) when the titles are
/// few, else in one pass over the `Fixes:` trailers.
pub(super) fn messages_fixing_titles(store: &Store, titles: &[String]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    if titles.is_empty() {
        return Ok(out);
    }
    if indexes_exist(store, &["link_keys_key"])? && are_few(store, titles.len())? {
        // The key says a title of the message is this one; its own `Fixes:`
        // titles say whether that title is one of theirs.
        let sql = format!(
            "SELECT message, title FROM trailers WHERE message IN \
             (SELECT message FROM link_keys WHERE key = 't:' || ?1) \
             AND title IS NOT NULL AND {OWN_FIXES}"
        );
        let mut stmt = store.conn().prepare_cached(&sql).db(&sql)?;
        for t in titles {
            let mut rows = stmt.query([t]).db(&sql)?;
            while let Some(r) = rows.next().db(&sql)? {
                let title: String = r.get(1).db(&sql)?;
                if culprit_title_key(&title).as_deref() == Some(t.as_str()) {
                    out.push(r.get(0).db(&sql)?);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
    } else {
        let wanted: HashSet<&str> = titles.iter().map(String::as_str).collect();
        let sql =
            format!("SELECT message, title FROM trailers WHERE title IS NOT NULL AND {OWN_FIXES}");
        let mut stmt = store.conn().prepare(&sql).db(&sql)?;
        let mut rows = stmt.query([]).db(&sql)?;
        while let Some(r) = rows.next().db(&sql)? {
            let t: String = r.get(1).db(&sql)?;
            if culprit_title_key(&t).is_some_and(|k| wanted.contains(k.as_str())) {
                out.push(r.get(0).db(&sql)?);
            }
        }
    }
    Ok(out)
}

/// Indexes [`messages_with_patch_keys`] and [`patch_holders`] look keys up
/// by.
pub(super) const PATCH_KEY_INDEXES: [&str; 3] =
    ["patches_title_key", "patches_patch_id", "landings_title"];

/// Whether `n` look-ups by patch key cost less than one scan of `patches`
/// and `landings`: only when their indexes exist (a bulk load builds them
/// while the first link runs, whose look-ups would then be a scan each)
/// and the keys are few against the stored messages ([`FEW`]).
pub(super) fn lookups_pay(store: &Store, n: usize) -> Result<bool> {
    Ok(indexes_exist(store, &PATCH_KEY_INDEXES)? && are_few(store, n)?)
}

/// Whether every one of these indexes exists (a bulk load builds them
/// after its rows).
pub(super) fn indexes_exist(store: &Store, names: &[&str]) -> Result<bool> {
    let sql = "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?1";
    let mut stmt = store.conn().prepare_cached(sql).db(sql)?;
    for name in names {
        let n: i64 = stmt.query_row([name], |r| r.get(0)).db(sql)?;
        if n == 0 {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Calls `each(message, title key, patch id, false)` for every stored patch
/// and, with `landings`, `each(message, title, None, true)` for every
/// landing naming a title.
pub(super) fn scan_patch_keys(
    store: &Store,
    landings: bool,
    mut each: impl FnMut(i64, Option<&str>, Option<&str>, bool),
) -> Result<()> {
    let sql = "SELECT message, title_key, patch_id FROM patches";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        each(r.get(0).db(sql)?, text(r, 1, sql)?, text(r, 2, sql)?, false);
    }
    if !landings {
        return Ok(());
    }
    let sql = "SELECT message, title FROM landings WHERE title IS NOT NULL";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        each(r.get(0).db(sql)?, text(r, 1, sql)?, None, true);
    }
    // A cover letter's shortlog names its parts as a landing names its
    // patch: an `Applied` reply to it lands them.
    let sql = "SELECT message, series_titles FROM patches WHERE series_titles IS NOT NULL";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        let m: i64 = r.get(0).db(sql)?;
        for t in text(r, 1, sql)?.unwrap_or_default().lines() {
            each(m, Some(t), None, true);
        }
    }
    Ok(())
}

/// The patch keys of each of these messages: `t:<title key>` of its patch
/// and of its landings, `p:<patch id>` and `b:<change-id>` of its patch,
/// the `i:` keys of its title's code identifiers (the keys by which
/// [`messages_with_patch_keys`] finds it).
pub fn patch_keys_by_message(store: &Store, messages: &[i64]) -> Result<Vec<(i64, String)>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT message, 't:' || title_key FROM patches WHERE message IN ({}) \
             AND length(title_key) >= 8 \
         UNION SELECT message, 'p:' || patch_id FROM patches WHERE message IN ({}) \
             AND patch_id IS NOT NULL \
         UNION SELECT message, 'b:' || change_id FROM patches WHERE message IN ({}) \
             AND change_id IS NOT NULL AND change_id != '' \
         UNION SELECT message, 't:' || title FROM landings WHERE message IN ({}) \
             AND title IS NOT NULL \
         UNION SELECT l.message, l.key FROM link_keys l JOIN patches p ON p.message = l.message \
             WHERE l.message IN ({}) AND p.part = 0 AND l.key >= 't:' AND l.key < 't;' \
         UNION SELECT message, key FROM link_keys WHERE message IN ({}) \
             AND key >= 'i:' AND key < 'i;' \
         UNION SELECT message, 'f:' || lower(substr(commit_id, 1, 7)) FROM trailers \
             WHERE message IN ({}) AND key = 'Fixes' COLLATE NOCASE AND suggested = 0 \
             AND quote_depth = 0 AND length(commit_id) >= 7",
        messages,
        |r| {
            out.push((r.get(0).db("patch keys")?, r.get(1).db("patch keys")?));
            Ok(())
        },
    )?;
    // The titles its own `Fixes:` names ([`messages_fixing_titles`]).
    in_chunks(
        store,
        &format!(
            "SELECT message, title FROM trailers WHERE message IN ({{}}) AND title IS NOT NULL \
             AND {OWN_FIXES}"
        ),
        messages,
        |r| {
            let title: String = r.get(1).db("fixed titles")?;
            if let Some(k) = culprit_title_key(&title) {
                out.push((r.get(0).db("fixed titles")?, format!("t:{k}")));
            }
            Ok(())
        },
    )?;
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// The robot reports whose culprit begins with the prefix of one of these
/// `f:` keys (a `Fixes:` naming it), each with the key: looked up by the
/// stored link keys (`c:` and the prefix) when their index exists and the
/// keys are few, else one pass over the reports.
pub(super) fn culprit_holders(
    store: &Store,
    keys: &[String],
    out: &mut Vec<(i64, String)>,
) -> Result<()> {
    let prefixes: Vec<&str> = keys.iter().filter_map(|k| k.strip_prefix("f:")).collect();
    if prefixes.is_empty() {
        return Ok(());
    }
    if indexes_exist(store, &["link_keys_key"])? && are_few(store, prefixes.len())? {
        let sql = "SELECT DISTINCT r.message FROM link_keys k \
                   JOIN reports r ON r.message = k.message WHERE k.key = ?1";
        let mut stmt = store.conn().prepare_cached(sql).db(sql)?;
        for p in &prefixes {
            let mut rows = stmt.query([format!("c:{p}")]).db(sql)?;
            while let Some(r) = rows.next().db(sql)? {
                out.push((r.get(0).db(sql)?, format!("f:{p}")));
            }
        }
        return Ok(());
    }
    let wanted: HashSet<&str> = prefixes.into_iter().collect();
    let sql = "SELECT message, commit_short, commit_full FROM reports";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        let m: i64 = r.get(0).db(sql)?;
        let mut held: Vec<String> = Vec::new();
        for col in [1, 2] {
            let c: Option<String> = r.get(col).db(sql)?;
            if let Some(p) = c.as_deref().and_then(commit_prefix)
                && wanted.contains(p.as_str())
                && !held.contains(&p)
            {
                held.push(p);
            }
        }
        out.extend(held.into_iter().map(|p| (m, format!("f:{p}"))));
    }
    Ok(())
}

/// The robot reports whose culprit title has one of these `t:` keys, each
/// with the key: looked up by the stored link keys (a report keeps its
/// culprit title's there) when their index exists and the keys are few,
/// else one pass over the reports.
pub(super) fn report_holders(
    store: &Store,
    keys: &[String],
    out: &mut Vec<(i64, String)>,
) -> Result<()> {
    let titles: Vec<&String> = keys.iter().filter(|k| k.starts_with("t:")).collect();
    if titles.is_empty() {
        return Ok(());
    }
    // The title the robot wrote gives the key (the same message's other
    // keys, a `Fixes:` title say, are no report's).
    let wanted: HashSet<&str> = titles.iter().map(|k| k.as_str()).collect();
    let mut take = |m: i64, title: &str| {
        if let Some(k) = crate::link::keys::title(title)
            && wanted.contains(k.as_str())
        {
            out.push((m, k));
        }
    };
    if indexes_exist(store, &["link_keys_key"])? && are_few(store, titles.len())? {
        let sql = "SELECT r.message, r.commit_title FROM link_keys k \
                   JOIN reports r ON r.message = k.message \
                   WHERE k.key = ?1 AND r.commit_title IS NOT NULL";
        let mut stmt = store.conn().prepare_cached(sql).db(sql)?;
        for key in &titles {
            let mut rows = stmt.query([key.as_str()]).db(sql)?;
            while let Some(r) = rows.next().db(sql)? {
                let t: String = r.get(1).db(sql)?;
                take(r.get(0).db(sql)?, &t);
            }
        }
    } else {
        let sql = "SELECT message, commit_title FROM reports WHERE commit_title IS NOT NULL";
        let mut stmt = store.conn().prepare_cached(sql).db(sql)?;
        let mut rows = stmt.query([]).db(sql)?;
        while let Some(r) = rows.next().db(sql)? {
            let t: String = r.get(1).db(sql)?;
            take(r.get(0).db(sql)?, &t);
        }
    }
    // A reply naming a culprit in its subject holds the title it quotes
    // (its stored `t:` keys), as [`patch_keys_of`] reads it.
    let quoting = "EXISTS (SELECT 1 FROM reports r WHERE r.message = l.message \
                   AND r.origin = 'subject' AND r.commit_title IS NULL)";
    if indexes_exist(store, &["link_keys_key"])? && are_few(store, titles.len())? {
        let sql = format!("SELECT l.message FROM link_keys l WHERE l.key = ?1 AND {quoting}");
        let mut stmt = store.conn().prepare_cached(&sql).db(&sql)?;
        for key in &titles {
            let mut rows = stmt.query([key.as_str()]).db(&sql)?;
            while let Some(r) = rows.next().db(&sql)? {
                out.push((r.get(0).db(&sql)?, key.to_string()));
            }
        }
    } else {
        let sql = format!(
            "SELECT l.message, l.key FROM link_keys l \
             WHERE l.key >= 't:' AND l.key < 't;' AND {quoting}"
        );
        let mut stmt = store.conn().prepare_cached(&sql).db(&sql)?;
        let mut rows = stmt.query([]).db(&sql)?;
        while let Some(r) = rows.next().db(&sql)? {
            let k: String = r.get(1).db(&sql)?;
            if wanted.contains(k.as_str()) {
                out.push((r.get(0).db(&sql)?, k));
            }
        }
    }
    Ok(())
}

/// The messages carrying a patch with one of these keys (`t:<title key>`
/// or `p:<patch id>`), or a robot report naming a culprit of that title or
/// a reply quoting it (see [`patch_keys_of`]), each with the key.
pub fn patch_holders(store: &Store, keys: &[String]) -> Result<Vec<(i64, String)>> {
    // A key asked twice is looked up once, whichever way (index or scan)
    // answers.
    let mut unique = keys.to_vec();
    unique.sort_unstable();
    unique.dedup();
    let keys = unique.as_slice();
    let mut out = Vec::new();
    report_holders(store, keys, &mut out)?;
    culprit_holders(store, keys, &mut out)?;
    let words: Vec<&str> = keys
        .iter()
        .filter(|k| k.starts_with("i:"))
        .map(String::as_str)
        .collect();
    word_holders(store, &words, &mut out)?;
    let changes: Vec<String> = keys
        .iter()
        .filter_map(|k| k.strip_prefix("b:"))
        .map(str::to_string)
        .collect();
    for (m, c) in change_id_holders(store, &changes)? {
        out.push((m, format!("b:{c}")));
    }
    if !lookups_pay(store, keys.len())? {
        let wanted: HashSet<&str> = keys.iter().map(String::as_str).collect();
        let mut key = String::new();
        scan_patch_keys(store, false, |m, title, patch_id, _| {
            for (prefix, v) in [("t:", title), ("p:", patch_id)] {
                let Some(v) = v else { continue };
                key.clear();
                key.push_str(prefix);
                key.push_str(v);
                if wanted.contains(key.as_str()) {
                    out.push((m, key.clone()));
                }
            }
        })?;
        return Ok(out);
    }
    let conn = store.conn();
    for k in keys {
        let (sql, v) = if let Some(t) = k.strip_prefix("t:") {
            ("SELECT message FROM patches WHERE title_key = ?1", t)
        } else if let Some(p) = k.strip_prefix("p:") {
            ("SELECT message FROM patches WHERE patch_id = ?1", p)
        } else {
            continue;
        };
        let mut stmt = conn.prepare_cached(sql).db(sql)?;
        let mut rows = stmt.query([v]).db(sql)?;
        while let Some(r) = rows.next().db(sql)? {
            out.push((r.get(0).db(sql)?, k.clone()));
        }
    }
    Ok(out)
}
