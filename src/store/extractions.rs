//! The extraction tables of a message: `extractions` (the JSON of what has
//! no table of its own, or a robot report's whole extraction), `reports`,
//! `tables` and `table_rows`, `trailers`, `commit_refs`, `diffs`,
//! `signals`, `events`, `patches`, `landings`, `link_keys` and
//! `lore_links`: writing them for a message (`insert_extraction`), and
//! replacing them when the extractor changed ([`replace_extraction`]).

use rusqlite::{Connection, params};

use super::DbContext;
use super::Store;
use crate::error::Result;
use crate::model::{
    Extraction, Hunk, KconfigChange, Kind, Message, ProfileEntry, ReportBody, Reproducer, Signal,
    SubjectReport,
};

/// The columns of a message's extraction rows, serialised on the parallel
/// stage so that the single writer only binds them.
#[derive(Debug, Clone)]
pub(super) struct ExtractionColumns {
    /// `None` when the extraction holds nothing beyond its kind and the
    /// per-kind tables (no row is written; see [`Residual::is_empty`]).
    pub(super) extraction_json: Option<String>,
    /// `hunks_json` of each diff ([`hunks_json`]).
    pub(super) hunks_json: Vec<String>,
    /// `params_json`, `commits_json` and each row's `row_json` of each table.
    pub(super) tables_json: Vec<(String, String, Vec<String>)>,
    /// `params_json` of the body report and of each impact entry.
    pub(super) report_params_json: Vec<String>,
    /// The message's link keys but those its patch implies
    /// (`crate::link::keys::stored`).
    pub(super) link_keys: Vec<String>,
}

impl ExtractionColumns {
    /// The columns of `extraction`, extracted from `message`.
    pub(super) fn of(message: &Message, extraction: &Extraction) -> ExtractionColumns {
        ExtractionColumns {
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
            link_keys: crate::link::keys::stored(
                &message.subject,
                message.references.is_empty()
                    && message.in_reply_to.as_deref().is_none_or(str::is_empty),
                &crate::link::patch::poster(
                    message.from_email.as_deref(),
                    message.from_name.as_deref(),
                ),
                extraction,
            ),
            extraction_json: if whole_json(extraction.kind) {
                Some(to_json(extraction))
            } else {
                let residual = Residual::of(extraction);
                (!residual.is_empty()).then(|| to_json(&residual))
            },
        }
    }
}

/// Kinds whose whole extraction is kept as JSON (the linker reads it back).
pub(super) fn whole_json(kind: Kind) -> bool {
    kind.is_robot_mail()
}

/// The part of an [`Extraction`] that no table of its own holds: what
/// `extractions.json` keeps for mail that is not a robot report. Field names
/// are `Extraction`'s; the lists stored as rows are written empty.
#[derive(serde::Serialize)]
pub(super) struct Residual<'a> {
    pub(super) kind: Kind,
    pub(super) subject_report: &'a Option<Box<SubjectReport>>,
    pub(super) report: &'a Option<Box<ReportBody>>,
    pub(super) tables: [(); 0],
    pub(super) diffs: [(); 0],
    pub(super) trailers: [(); 0],
    pub(super) commits: [(); 0],
    pub(super) profiles: &'a [ProfileEntry],
    pub(super) reproducers: &'a [Reproducer],
    pub(super) kconfig: &'a [KconfigChange],
    pub(super) signals: [(); 0],
    pub(super) events: [(); 0],
    pub(super) lore_links: [(); 0],
}

impl<'a> Residual<'a> {
    pub(super) fn of(ex: &'a Extraction) -> Self {
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
    pub(super) fn is_empty(&self) -> bool {
        self.subject_report.is_none()
            && self.report.is_none()
            && self.profiles.is_empty()
            && self.reproducers.is_empty()
            && self.kconfig.is_empty()
    }
}

/// The `i`-th serialised column of a list, `null` past its end.
pub(super) fn json(list: &[String], i: usize) -> &str {
    list.get(i).map_or("null", String::as_str)
}

pub(super) fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_string())
}

/// The `diffs.hunks_json` of a diff's hunks: an array per hunk,
/// `[old_start, old_lines, new_start, new_lines, context, added, removed]`,
/// the fields of [`Hunk`] in their order, which serde reads back as a
/// `Hunk` as it reads the object form that rows written before hold. The
/// object form repeated the seven names in every hunk: 99 of the 140 MB of
/// `diffs` on four lists, all of it written, copied into the WAL and
/// checkpointed on every ingest.
pub(super) fn hunks_json(hunks: &[Hunk]) -> String {
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
    pub(super) extraction: Extraction,
    pub(super) columns: ExtractionColumns,
}

impl Reextracted {
    /// The new extraction of the stored message `id`.
    pub fn new(id: i64, message: &Message, extraction: Extraction) -> Reextracted {
        let columns = ExtractionColumns::of(message, &extraction);
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
    let sql =
        "UPDATE messages SET kind = ?2, extraction_version = ?3, signals_read = ?4 WHERE id = ?1";
    conn.prepare_cached(sql)
        .db(sql)?
        .execute(params![
            r.id,
            r.extraction.kind.as_str(),
            version,
            !r.extraction.signals_unread
        ])
        .db(sql)?;
    insert_extraction(conn, r.id, &r.extraction, version, &r.columns)
}

/// Deletes every extraction row of message `id`.
pub(super) fn delete_extraction(conn: &Connection, id: i64) -> Result<()> {
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

/// Writes the `signals` rows of message `id` (into `schema`'s table:
/// `main` past a link's horizon views, see [`write_read_signals`]).
fn insert_signals(conn: &Connection, schema: &str, id: i64, signals: &[Signal]) -> Result<()> {
    rows(
        conn,
        &format!(
            "INSERT INTO {schema}.signals (message, idx, kind, sentence, quote_depth, commit_id, \
             tentative, mentions) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
        ),
        signals,
        |st, i, s| {
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
        },
    )
}

/// Stores the signals a link read of a message an ingest left them unread
/// in ([`crate::extract::signals_of`]), in place of any `signals` rows it
/// has, and marks them read (inside the caller's write transaction). It
/// writes the `main` tables by name: a link in steps hides later messages
/// behind temporary views of the same names ([`super::links::set_horizon`]).
pub(crate) fn write_read_signals(conn: &Connection, id: i64, signals: &[Signal]) -> Result<()> {
    let sql = "DELETE FROM main.signals WHERE message = ?1";
    conn.prepare_cached(sql).db(sql)?.execute([id]).db(sql)?;
    insert_signals(conn, "main", id, signals)?;
    let sql = "UPDATE main.messages SET signals_read = 1 WHERE id = ?1";
    conn.prepare_cached(sql).db(sql)?.execute([id]).db(sql)?;
    Ok(())
}

/// Writes the extraction of message `id` into every extraction table.
pub(super) fn insert_extraction(
    conn: &Connection,
    id: i64,
    ex: &Extraction,
    version: i64,
    cols: &ExtractionColumns,
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
    rows(
        conn,
        "INSERT OR IGNORE INTO link_keys (message, key) VALUES (?1, ?2)",
        &cols.link_keys,
        |st, _, k| st.execute(params![id, k]),
    )?;

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

    rows(
        conn,
        "INSERT INTO trailers (message, idx, key, value, suggested, commit_id, title,
             quote_depth) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        &ex.trailers,
        |st, i, t| {
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
        },
    )?;
    rows(
        conn,
        "INSERT OR IGNORE INTO commit_refs (message, commit_id, title, quote_depth)
         VALUES (?1, ?2, ?3, ?4)",
        &ex.commits,
        |st, _, c| st.execute(params![id, c.id, c.title, c.quote_depth]),
    )?;
    rows(
        conn,
        "INSERT INTO diffs (message, idx, old_path, new_path, quote_depth, hunks_json)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        &ex.diffs,
        |st, i, d| {
            st.execute(params![
                id,
                i as i64,
                d.old_path,
                d.new_path,
                d.quote_depth,
                json(&cols.hunks_json, i)
            ])
        },
    )?;
    insert_signals(conn, "main", id, &ex.signals)?;
    rows(
        conn,
        "INSERT INTO events (message, idx, kind, tree, sha, text, quote_depth)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        &ex.events,
        |st, i, e| {
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
        },
    )?;
    rows(
        conn,
        "INSERT OR IGNORE INTO lore_links (message, target_id) VALUES (?1, ?2)",
        &ex.lore_links,
        |st, _, l| st.execute(params![id, l]),
    )?;
    Ok(())
}

/// Writes one row a member of `items` through `sql` (prepared once, cached),
/// bound by `bind` (statement, index, member); nothing when there are none.
/// A failure names the statement.
fn rows<T>(
    conn: &Connection,
    sql: &str,
    items: &[T],
    mut bind: impl FnMut(&mut rusqlite::CachedStatement<'_>, usize, &T) -> rusqlite::Result<usize>,
) -> Result<()> {
    if items.is_empty() {
        return Ok(());
    }
    let mut st = conn.prepare_cached(sql).db(sql)?;
    for (i, item) in items.iter().enumerate() {
        bind(&mut st, i, item).db(sql)?;
    }
    Ok(())
}

/// Writes a message's patch facts and landings.
pub(super) fn insert_patch_and_landings(conn: &Connection, id: i64, ex: &Extraction) -> Result<()> {
    if let Some(p) = &ex.patch {
        let sql =
            "INSERT INTO patches (message, title, title_key, version, part, parts, resend, rfc,
                       patch_id, change_id, base_commit, reverts, reverts_title, upstream,
                       touches, speaks_of, robot_perf, series_titles)
                   VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                           ?18)";
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
                joined(&p.speaks_of),
                p.robot_perf,
                joined(&p.series_titles)
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

/// The `reports` rows of message `id`: its subject report, its body report
/// and each impact entry.
pub(super) fn insert_reports(
    conn: &Connection,
    id: i64,
    ex: &Extraction,
    cols: &ExtractionColumns,
) -> Result<()> {
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

/// A list as one text column: newline-separated, `None` when empty.
pub(super) fn joined(items: &[String]) -> Option<String> {
    (!items.is_empty()).then(|| items.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Origin;
    use crate::model::{CommitRef, Reproducer, Trailer};
    use crate::store::messages::packing::BodyBlocks;
    use crate::store::messages::{Outcome, Record, insert_record};
    use rusqlite::OptionalExtension;

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

    use crate::store::test_message as message;

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
            .prepare(
                "SELECT message, key FROM link_keys WHERE key NOT LIKE 's:%' AND key NOT LIKE 'n:%' \
                 ORDER BY 1, 2",
            )
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(stored, [(c, format!("t:{title}"))]);
        // Near-title keys have no column of `patches` to come from: stored.
        let near: i64 = conn
            .query_row(
                "SELECT count(*) FROM link_keys WHERE message = ?1 AND key LIKE 'n:%'",
                [b],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(near, 2, "n:xfs: * title, n:xfs: another *");
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
}
