//! `regressions` and their `regression_messages` (members),
//! `regression_events` (timeline), `regression_patches` and the other rows
//! of a history, written one history at a time under the ids
//! [`crate::link::ids`] chose.

use super::*;

/// Replaces the regressions (whose messages are all in `messages`) with
/// the ones `make(k)` gives, the `k`-th stored under id `ids[k]`: the
/// stored regressions `replaced` (all when `None`) are deleted, but for
/// those left unchanged (same id, same summary), which are left alone.
pub(super) fn write_regressions(
    tx: &rusqlite::Connection,
    messages: &[LinkMessage],
    ids: &[i64],
    replaced: Option<&[i64]>,
    make: impl Fn(usize) -> Regression,
) -> Result<()> {
    let db_id_of: HashMap<&str, i64> = messages
        .iter()
        .map(|m| (m.message_id.as_str(), m.db_id))
        .collect();
    // Only what changed is written: unchanged thread rows and regressions
    // (same summary) are left alone, so a re-link after a small ingest is a
    // small write.
    // Old summaries are compared one at a time (a point query each), so
    // memory holds one summary, not all of them.
    let old: Vec<i64> = match replaced {
        Some(ids) => ids.to_vec(),
        None => {
            let sql = "SELECT id FROM regressions";
            let mut stmt = tx.prepare(sql).db(sql)?;
            stmt.query_map([], |r| r.get(0))
                .db(sql)?
                .collect::<std::result::Result<_, _>>()
                .db(sql)?
        }
    };
    let assigned = ids;
    let json_of = |r: &mut Regression, id: i64| {
        r.id = id;
        serde_json::to_string(&*r).unwrap_or_else(|_| "{}".into())
    };
    let mut changed: Vec<bool> = Vec::with_capacity(ids.len());
    {
        let sql = "SELECT summary_json FROM regressions WHERE id = ?1";
        let mut stmt = tx.prepare(sql).db(sql)?;
        for (k, &id) in assigned.iter().enumerate() {
            // A summary that is not text (a foreign write) is rewritten.
            let before: Option<Option<String>> = stmt
                .query_row(params![id], |r| {
                    Ok(r.get_ref(0)?.as_str().ok().map(str::to_string))
                })
                .optional()
                .db(sql)?;
            changed.push(
                before
                    .flatten()
                    .is_none_or(|b| b != json_of(&mut make(k), id)),
            );
        }
    }
    {
        let unchanged: HashSet<i64> = assigned
            .iter()
            .zip(&changed)
            .filter(|(_, ch)| !**ch)
            .map(|(id, _)| *id)
            .collect();
        let sql = "DELETE FROM regressions WHERE id = ?1";
        let mut del = tx.prepare(sql).db(sql)?;
        for id in &old {
            if !unchanged.contains(id) {
                // Cascades to regression_messages, regression_events, regression_metrics.
                del.execute(params![id]).db(sql)?;
            }
        }
    }

    let sql_reg = "INSERT INTO regressions (id, culprit, title, subsystem, branch, status, \
                   first_date, last_date, headline_metric, headline_change, direction, summary_json) \
                   VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";
    let sql_msg = "INSERT OR IGNORE INTO regression_messages (regression, message, role, reason) \
                   VALUES (?1, ?2, ?3, ?4)";
    let sql_ev = "INSERT INTO regression_events (regression, date, who, event, status, message_id, reason) \
                  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
    let sql_met = "INSERT OR IGNORE INTO regression_metrics (regression, metric) VALUES (?1, ?2)";
    let sql_ids = "INSERT OR REPLACE INTO regression_ids (culprit, id) VALUES (?1, ?2)";
    {
        let mut s_ids = tx.prepare(sql_ids).db(sql_ids)?;
        let mut s_reg = tx.prepare(sql_reg).db(sql_reg)?;
        let mut s_msg = tx.prepare(sql_msg).db(sql_msg)?;
        let mut s_ev = tx.prepare(sql_ev).db(sql_ev)?;
        let mut s_met = tx.prepare(sql_met).db(sql_met)?;
        for (k, (&id, ch)) in assigned.iter().zip(&changed).enumerate() {
            if !ch {
                continue;
            }
            let mut reg = make(k);
            let json = json_of(&mut reg, id);
            let reg = &reg;
            let key = reg.culprit.commit.as_str();
            s_reg
                .execute(params![
                    id,
                    key,
                    reg.culprit.title,
                    reg.subsystem,
                    reg.branch,
                    reg.status.as_str(),
                    reg.facts.first_unix,
                    reg.facts.last_unix,
                    reg.headline.as_ref().map(|h| h.metric.clone()),
                    reg.headline.as_ref().and_then(|h| h.change_percent),
                    reg.direction.as_str(),
                    json
                ])
                .db(sql_reg)?;
            s_ids.execute(params![key, id]).db(sql_ids)?;
            for a in &reg.attached {
                if let Some(&mid) = db_id_of.get(a.message_id.as_str())
                    && mid != 0
                {
                    s_msg
                        .execute(params![id, mid, a.role.as_str(), a.reason])
                        .db(sql_msg)?;
                }
            }
            for e in &reg.timeline {
                s_ev.execute(params![
                    id,
                    e.unix,
                    e.from,
                    e.event,
                    e.status.map(|s| s.as_str()),
                    e.message_id,
                    Option::<String>::None
                ])
                .db(sql_ev)?;
            }
            for r in &reg.reports {
                let impacts = r.also_impacts.iter().filter_map(|i| i.metric.as_ref());
                for m in r.metric.iter().chain(impacts) {
                    s_met.execute(params![id, m]).db(sql_met)?;
                }
            }
            if let Some(h) = &reg.headline {
                s_met.execute(params![id, h.metric]).db(sql_met)?;
            }
        }
    }
    Ok(())
}
