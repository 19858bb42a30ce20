//! JSON: a list of regressions in the public form (see `docs/json.md`), with
//! the links of [`super::links::Links::annotate`].

use std::io::Write;

use super::links::Links;
use crate::model::history::Regression;

/// Writes `regs` as a pretty-printed JSON array followed by a newline, each
/// message and commit with its link.
pub fn write(out: &mut dyn Write, regs: &[Regression], links: &Links) -> std::io::Result<()> {
    let mut v = serde_json::to_value(regs).map_err(std::io::Error::other)?;
    links.annotate(&mut v);
    serde_json::to_writer_pretty(&mut *out, &v).map_err(std::io::Error::other)?;
    writeln!(out)
}
