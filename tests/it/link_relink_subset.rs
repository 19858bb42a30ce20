//! `pipeline::relink::relink_full` threads every message from its headers alone and
//! loads only the whole threads a regression can involve (with pruned
//! tables); what it stores must be exactly what `link::build` computes on
//! every message with its whole extraction: the same thread of every
//! message and the same history of every culprit. Checked on the fixtures
//! of `corpus/`, on a synthetic archive and on the shared corpus.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use regtrack::link::select::{Selection, seeds};
use regtrack::link::thread::SkeletonBuilder;
use regtrack::store::{Store, links};

use crate::common::{column, rows, write_synth};

type Threads = Vec<(i64, String, Option<String>, u32)>;

fn normalized(mut v: serde_json::Value) -> String {
    v["id"] = serde_json::Value::from(0);
    v.to_string()
}

/// Threads and histories as `relink_full` stored them in the database `db`.
fn stored(db: &Path) -> (Threads, BTreeMap<String, String>) {
    let threads = rows(
        db,
        "SELECT message, root_id, parent_id, depth FROM threads ORDER BY message",
    );
    let histories = rows::<(String, String)>(db, "SELECT culprit, summary_json FROM regressions")
        .into_iter()
        .map(|(c, j)| (c, normalized(serde_json::from_str(&j).unwrap())))
        .collect();
    (threads, histories)
}

/// Threads and histories of `link::build` on every message, every
/// message's signals read (those an ingest left unread from a whole
/// extraction of the message read back).
fn built(store: &Store) -> (Threads, BTreeMap<String, String>) {
    let (mut input, unreadable) = regtrack::pipeline::relink::load_input_of(store, None).unwrap();
    assert!(unreadable.is_empty(), "{unreadable:?}");
    let unread: Vec<i64> = input
        .messages
        .iter()
        .filter(|m| m.signals_unread.is_some())
        .map(|m| m.db_id)
        .collect();
    let (whole, broken) = regtrack::store::reextract::messages_by_id(store, &unread).unwrap();
    assert!(
        broken.is_empty() && whole.len() == unread.len(),
        "{broken:?}"
    );
    let mut signals: std::collections::HashMap<i64, _> = whole
        .iter()
        .map(|(id, m)| (*id, regtrack::extract::extract(m).signals))
        .collect();
    for m in &mut input.messages {
        if m.signals_unread.is_some() {
            m.set_signals(signals.remove(&m.db_id).unwrap());
        }
    }
    let out = regtrack::link::build(&input);
    let mut threads: Threads = input
        .messages
        .iter()
        .zip(&out.threads)
        .map(|(m, t)| (m.db_id, t.root_id.clone(), t.parent_id.clone(), t.depth))
        .collect();
    threads.sort();
    let histories = out
        .regressions
        .iter()
        .map(|r| {
            (
                r.culprit.commit.clone(),
                normalized(serde_json::to_value(r).unwrap()),
            )
        })
        .collect();
    (threads, histories)
}

/// How many messages a relink loads whole: the threads a regression can
/// involve, chosen the way `pipeline::relink` chooses them (its building
/// blocks are public; the choice itself is not), from the headers alone.
fn chosen(store: &Store) -> usize {
    let mut b = SkeletonBuilder::default();
    let mut db_ids = Vec::new();
    let mut kinds = Vec::new();
    links::for_each_header(store, None, |id, row, refs, kind| {
        db_ids.push(id);
        kinds.push(kind);
        b.add(row, refs.split_ascii_whitespace());
    })
    .unwrap();
    let at = |id: i64| db_ids.binary_search(&id).ok();
    let mut pass = b.link();
    let mut seed = vec![false; db_ids.len()];
    links::for_each_subject(store, None, |id, subject| {
        if let Some(i) = at(id) {
            pass.subject(i, subject);
            seed[i] = seeds(kinds[i], subject);
        }
    })
    .unwrap();
    let sk = pass.finish();
    let mut sel = Selection::new(&sk);
    for (i, &s) in seed.iter().enumerate() {
        if s {
            sel.seed(i);
        }
    }
    links::for_each_subject_report(store, None, |id| {
        if let Some(i) = at(id) {
            sel.seed(i);
        }
    })
    .unwrap();
    sel.members(&sk);
    links::for_each_own_trailer(
        store,
        None,
        &regtrack::link::select::TRAILER_KEYS,
        |id, t| {
            if let Some(i) = at(id) {
                sel.trailer(i, t);
            }
        },
    )
    .unwrap();
    links::for_each_cited_link(store, None, |id, link| {
        if let Some(i) = at(id) {
            sel.cited(i, link);
        }
    })
    .unwrap();
    sel.finish(&sk).len()
}

/// An ingest leaves the signals of every message but the robot's test
/// reports unread; a
/// link reads those of each message it asks for. The stored signals of
/// every read message are what a whole extraction of the message read back
/// finds (and the histories are those of every signal read: see
/// [`built`]). Returns how many messages are left unread.
fn signals_read_where_linked(db: &Path, store: &Store) -> usize {
    let robot_unread: Vec<i64> = column(
        db,
        "SELECT id FROM messages WHERE signals_read = 0 \
         AND kind IN ('perf-report', 'functional-report')",
    );
    assert!(
        robot_unread.is_empty(),
        "robot test reports unread: {robot_unread:?}"
    );
    let read: Vec<i64> = column(
        db,
        "SELECT id FROM messages WHERE signals_read = 1 ORDER BY id",
    );
    let (msgs, broken) = regtrack::store::reextract::messages_by_id(store, &read).unwrap();
    assert!(broken.is_empty(), "{broken:?}");
    assert_eq!(msgs.len(), read.len());
    let mut with_signals = 0;
    for (id, m) in &msgs {
        let want: Vec<String> = regtrack::extract::extract(m)
            .signals
            .iter()
            .map(|s| {
                format!(
                    "{}|{}|{}|{}|{}|{}",
                    s.kind.as_str(),
                    s.sentence,
                    s.quote_depth,
                    s.commit.as_deref().unwrap_or("-"),
                    i64::from(s.tentative),
                    s.mentions.as_deref().unwrap_or("-")
                )
            })
            .collect();
        let got: Vec<String> = column(
            db,
            &format!(
                "SELECT kind || '|' || sentence || '|' || quote_depth || '|' || \
                 coalesce(commit_id, '-') || '|' || tentative || '|' || coalesce(mentions, '-') \
                 FROM signals WHERE message = {id} ORDER BY idx"
            ),
        );
        assert_eq!(got, want, "signals of {}", m.message_id);
        with_signals += usize::from(!want.is_empty());
    }
    assert!(with_signals > 0, "no read message has a signal");
    let asked: i64 = crate::common::sql::sql_i64(
        db,
        "SELECT count(*) FROM messages WHERE signals_read = 1 \
         AND kind NOT IN ('perf-report', 'functional-report', 'build-report')",
    );
    assert!(asked > 0, "no link asked for a reply's signals");
    column::<i64>(db, "SELECT id FROM messages WHERE signals_read = 0").len()
}

/// Ingests `paths`, relinks, compares; returns (messages, linked subset,
/// regressions, messages whose signals no link needed).
fn relink_equals_build(paths: &[PathBuf]) -> (usize, usize, usize, usize) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("x.db");
    let mut store = Store::open(&db).unwrap();
    regtrack::pipeline::ingest::ingest(&mut store, paths, &|_| {}).expect("ingest");
    let unreadable = regtrack::pipeline::relink::relink_full(&mut store).unwrap();
    assert!(unreadable.is_empty(), "{unreadable:?}");
    let (st, sh) = stored(&db);
    let (bt, bh) = built(&store);
    assert_eq!(st.len(), bt.len(), "thread rows");
    for (a, b) in st.iter().zip(&bt) {
        assert_eq!(a, b, "thread of message {}", a.0);
    }
    assert_eq!(sh.keys().collect::<Vec<_>>(), bh.keys().collect::<Vec<_>>());
    for (k, v) in &sh {
        assert_eq!(Some(v), bh.get(k), "history of {k} differs");
    }
    let messages: Vec<i64> = column(&db, "SELECT id FROM messages");
    assert_eq!(messages.len(), st.len(), "every message threaded");
    let unread = signals_read_where_linked(&db, &store);
    // The histories do not depend on which messages' signals were read
    // before: read again from scratch, they are the same.
    crate::common::sql::execute(
        &db,
        "UPDATE messages SET signals_read = 0 \
         WHERE kind NOT IN ('perf-report', 'functional-report', 'build-report')",
    );
    regtrack::pipeline::relink::relink_full(&mut store).unwrap();
    assert_eq!(
        stored(&db),
        (st.clone(), sh.clone()),
        "relinked after unreading"
    );
    assert_eq!(signals_read_where_linked(&db, &store), unread);
    (st.len(), chosen(&store), sh.len(), unread)
}

#[test]
fn relinking_only_the_threads_that_matter_equals_linking_every_fixture_message() {
    let (msgs, _, regs, _) = relink_equals_build(&[crate::common::corpus("")]);
    assert!(msgs >= 60, "{msgs} messages");
    assert!(regs >= 20, "{regs} regressions");
}

#[test]
fn relinking_only_the_threads_that_matter_equals_linking_every_synthetic_message() {
    let dir = tempfile::tempdir().unwrap();
    let synth = dir.path().join("synth.mbox");
    write_synth(4000, 11, &synth);
    let (msgs, subset, regs, unread) =
        relink_equals_build(&[synth, crate::common::corpus("threads")]);
    assert!(msgs >= 4000, "{msgs} messages");
    assert!(regs >= 50, "{regs} regressions");
    // Most of a list is not about any regression: it is never loaded whole,
    // nor its sentences read.
    assert!(subset * 3 < msgs, "{subset} of {msgs} messages loaded");
    assert!(
        unread * 3 > msgs * 2,
        "{unread} of {msgs} messages left unread"
    );
}

#[test]
fn relinking_only_the_threads_that_matter_equals_linking_the_shared_corpus() {
    let Some(shared) = crate::common::shared() else {
        return;
    };
    let (msgs, _, regs, _) = relink_equals_build(&[shared.join("corpus"), shared.join("seeds")]);
    assert!(msgs >= 100, "{msgs} messages");
    assert!(regs >= 40, "{regs} regressions");
}

/// The messages holding given patch keys are the same whether looked up
/// key by key through the indexes or found by one scan (taken when the
/// indexes are missing, as while a bulk load builds them, or when the keys
/// are many): every stored title key and patch id, and a subset of them,
/// with the culprit titles of reports (held by the reports).
#[test]
fn patch_key_lookups_and_the_scan_find_the_same_messages() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("x.db");
    let mut store = Store::open(&db).unwrap();
    let synth = dir.path().join("synth.mbox");
    write_synth(3000, 5, &synth);
    regtrack::pipeline::ingest::ingest(&mut store, &[crate::common::corpus(""), synth], &|_| {})
        .expect("ingest");
    let all: Vec<i64> = column(&db, "SELECT message FROM patches ORDER BY message");
    assert!(all.len() > 500, "{} patches", all.len());
    let few: Vec<i64> = all.iter().copied().step_by(97).collect();
    let landed: Vec<String> = column(&db, "SELECT title FROM landings WHERE title IS NOT NULL");
    // Reports hold their culprit's title (the culprit's posting and the
    // landings naming it are found by it).
    let reports: Vec<i64> = column(&db, "SELECT DISTINCT message FROM reports ORDER BY message");
    let culprit_keys: Vec<String> = links::patch_keys_of(&store, &reports)
        .unwrap()
        .titles
        .into_iter()
        .map(|t| format!("t:{t}"))
        .collect();
    assert!(culprit_keys.len() >= 5, "{culprit_keys:?}");
    // Patches whose titles name code identifiers: the `i:` keys are
    // looked up both ways too.
    assert!(!links::patch_keys_of(&store, &all).unwrap().words.is_empty());
    let found = |store: &Store| {
        let mut out = Vec::new();
        for ids in [&all, &few] {
            let mut keys = links::patch_keys_of(store, ids).unwrap();
            // A title only a landing names is found through the landing.
            keys.titles.extend(landed.iter().take(5).cloned());
            keys.titles.sort();
            keys.titles.dedup();
            let brought = links::messages_with_patch_keys(store, &keys).unwrap();
            let mut key_list: Vec<String> = keys
                .titles
                .iter()
                .map(|t| format!("t:{t}"))
                .chain(keys.patch_ids.iter().map(|p| format!("p:{p}")))
                .collect();
            key_list.truncate(if ids.len() == all.len() {
                usize::MAX
            } else {
                20
            });
            key_list.extend(culprit_keys.iter().take(5).cloned());
            let mut holders = links::patch_holders(store, &key_list).unwrap();
            holders.sort();
            out.push((brought, holders));
        }
        out
    };
    let with_indexes = found(&store);
    assert!(
        with_indexes[0].0.len() >= all.len(),
        "every patch holds its own keys"
    );
    assert!(!with_indexes[1].0.is_empty() && !with_indexes[1].1.is_empty());
    for (_, holders) in &with_indexes {
        assert!(
            holders
                .iter()
                .any(|(m, _)| reports.binary_search(m).is_ok()),
            "a report holds its culprit's title"
        );
    }
    drop(store);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "DROP INDEX patches_title_key; DROP INDEX patches_patch_id; DROP INDEX landings_title; \
         DROP INDEX link_keys_key;",
    )
    .unwrap();
    drop(conn);
    let store = Store::open(&db).unwrap();
    let indexes: Vec<String> = column(
        &db,
        "SELECT name FROM sqlite_master WHERE name IN \
         ('patches_title_key', 'patches_patch_id', 'landings_title', 'link_keys_key')",
    );
    assert!(indexes.is_empty(), "{indexes:?}");
    assert_eq!(found(&store), with_indexes);
}
