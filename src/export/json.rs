//! JSON: a list of regressions in the public form (see `docs/json.md`), with
//! the links of [`super::links::Links::annotate`].

use std::io::Write;

use super::links::Links;
use crate::model::history::Regression;

/// Writes `regs` as a pretty-printed JSON array followed by a newline, each
/// message and commit with its link.
pub fn write(out: &mut dyn Write, regs: &[Regression], links: &Links) -> std::io::Result<()> {
    write_with_copies(out, regs, links, &std::collections::HashMap::new())
}

/// [`write()`], each report whose message is stored in several copies
/// (`copies`: Message-ID -> how many, and why the one used was chosen)
/// given `copies` and `chosen_because` (`show --json`).
pub fn write_with_copies(
    out: &mut dyn Write,
    regs: &[Regression],
    links: &Links,
    copies: &std::collections::HashMap<String, (usize, Option<String>)>,
) -> std::io::Result<()> {
    let mut v = serde_json::to_value(regs).map_err(std::io::Error::other)?;
    links.annotate(&mut v);
    if !copies.is_empty() {
        for reg in v.as_array_mut().into_iter().flatten() {
            let reports = reg.get_mut("reports").and_then(|r| r.as_array_mut());
            for rep in reports.into_iter().flatten() {
                let id = rep.get("message_id").and_then(|i| i.as_str());
                let Some((n, why)) = id.and_then(|i| copies.get(i)) else {
                    continue;
                };
                if let Some(o) = rep.as_object_mut() {
                    o.insert("copies".into(), serde_json::Value::from(*n));
                    o.insert(
                        "chosen_because".into(),
                        why.clone()
                            .map_or(serde_json::Value::Null, serde_json::Value::String),
                    );
                }
            }
        }
    }
    serde_json::to_writer_pretty(&mut *out, &v).map_err(std::io::Error::other)?;
    writeln!(out)
}
