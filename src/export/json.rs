//! JSON: a list of regressions in the public form (see `docs/json.md`).

use std::io::Write;

use crate::model::history::Regression;

/// Writes `regs` as a pretty-printed JSON array followed by a newline.
pub fn write(out: &mut dyn Write, regs: &[Regression]) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, regs).map_err(std::io::Error::other)?;
    writeln!(out)
}
