//! JSON: a list of regressions in the public form (see `docs/json.md`), with
//! the links of [`super::links::Links::annotate`].

use std::io::Write;

use super::links::Links;
use crate::model::history::Regression;

/// Writes `v` as JSON (pretty-printed when `pretty`) to `out` with the
/// characters a terminal would act on or that hide text (DEL, C1 controls,
/// bidi controls, zero-width and tag characters: those serde_json writes
/// raw) as `\u` escapes: the same text to any JSON reader, and nothing a
/// terminal showing it executes.
pub fn to_writer<T: serde::Serialize + ?Sized>(
    out: &mut (impl Write + ?Sized),
    v: &T,
    pretty: bool,
) -> std::io::Result<()> {
    let bytes = if pretty {
        serde_json::to_vec_pretty(v)
    } else {
        serde_json::to_vec(v)
    }
    .map_err(std::io::Error::other)?;
    out.write_all(&escaped(bytes))
}

/// serde_json's output with [`super::terminal::acts_or_hides`] characters
/// (all but the C0 controls it escapes itself) as `\u` escapes; only
/// strings can hold them.
fn escaped(bytes: Vec<u8>) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return bytes;
    };
    let unsafe_here = |c: char| c >= '\u{7f}' && super::terminal::acts_or_hides(c);
    if !text.chars().any(unsafe_here) {
        return bytes;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if unsafe_here(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out.into_bytes()
}

/// Writes `regs` as a pretty-printed JSON array followed by a newline, each
/// message and commit with its link.
pub fn write(out: &mut dyn Write, regs: &[Regression], links: &Links) -> std::io::Result<()> {
    write_with_copies(out, regs, links, &std::collections::HashMap::new())
}

/// [`write()`], each report whose message is stored in several copies
/// (`copies`: Message-ID -> how many, and why the one used was chosen)
/// given `copies` and `chosen_because` (`show --json`).
///
/// The array is written one regression at a time, each turned into a JSON
/// value, annotated and printed on its own (its lines indented one level:
/// a string printed by serde_json never holds a raw newline), so the bytes
/// are those of the whole array printed at once while memory holds one
/// regression's value, not every one's: on the 3-million-message synthetic
/// database (89,805 histories) `export --format json` peaked at 4.2 GB when
/// the whole array was one value.
pub fn write_with_copies(
    out: &mut dyn Write,
    regs: &[Regression],
    links: &Links,
    copies: &std::collections::HashMap<String, (usize, Option<String>)>,
) -> std::io::Result<()> {
    if regs.is_empty() {
        return writeln!(out, "[]");
    }
    out.write_all(b"[")?;
    let mut one: Vec<u8> = Vec::new();
    for (i, reg) in regs.iter().enumerate() {
        let mut v = serde_json::to_value(reg).map_err(std::io::Error::other)?;
        links.annotate(&mut v);
        add_copies(&mut v, copies);
        one.clear();
        to_writer(&mut one, &v, true)?;
        out.write_all(if i == 0 { b"\n" } else { b",\n" })?;
        for (k, line) in one.split(|&b| b == b'\n').enumerate() {
            if k > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(b"  ")?;
            out.write_all(line)?;
        }
    }
    out.write_all(b"\n]\n")
}

/// Gives each report of `reg` (a regression's value) whose message is
/// stored in several copies its `copies` and `chosen_because`.
fn add_copies(
    reg: &mut serde_json::Value,
    copies: &std::collections::HashMap<String, (usize, Option<String>)>,
) {
    if copies.is_empty() {
        return;
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::history::{ReportInfo, TimelineEntry};

    #[test]
    fn characters_a_terminal_acts_on_are_escaped_and_read_back_the_same() {
        let text = "x\u{9b}31m \u{202e}evil\u{200b} \u{e0041}\u{7f} ±5% ü\t\n\u{1b}[2J";
        let mut out = Vec::new();
        to_writer(&mut out, &serde_json::json!({ "s": text }), true).unwrap();
        let printed = String::from_utf8(out).unwrap();
        assert!(
            printed.chars().all(|c| c == '\n'
                || c == ' '
                || !(c.is_control() || crate::export::terminal::acts_or_hides(c))),
            "{printed:?}"
        );
        assert!(printed.contains("\\u009b") && printed.contains("\\udb40\\udc41"));
        assert!(printed.contains("±5% ü"), "plain text stays as it is");
        let back: serde_json::Value = serde_json::from_str(&printed).unwrap();
        assert_eq!(back["s"], text);
    }

    /// The whole array as one value, printed at once: what the writer
    /// must reproduce byte for byte.
    fn at_once(
        regs: &[Regression],
        links: &Links,
        copies: &std::collections::HashMap<String, (usize, Option<String>)>,
    ) -> Vec<u8> {
        let mut v = serde_json::to_value(regs).unwrap();
        links.annotate(&mut v);
        for reg in v.as_array_mut().unwrap() {
            add_copies(reg, copies);
        }
        let mut out = serde_json::to_vec_pretty(&v).unwrap();
        out.push(b'\n');
        out
    }

    #[test]
    fn one_regression_at_a_time_gives_the_bytes_of_the_whole_array() {
        let reg = |id: i64, event: &str| Regression {
            id,
            subsystem: Some(format!("fs{id}")),
            reports: vec![ReportInfo {
                message_id: format!("r{id}@example.org"),
                ..ReportInfo::default()
            }],
            timeline: vec![TimelineEntry {
                event: event.into(),
                message_id: Some(format!("t{id}@example.org")),
                ..TimelineEntry::default()
            }],
            ..Regression::default()
        };
        let regs = [
            reg(1, "plain"),
            reg(2, "a line\nand another, \"quoted\", \u{1b}[31m, </script>"),
            reg(3, ""),
        ];
        let links = Links::default();
        let mut copies = std::collections::HashMap::new();
        copies.insert(
            "r2@example.org".to_string(),
            (3, Some("newest".to_string())),
        );
        for n in 0..=regs.len() {
            for c in [std::collections::HashMap::new(), copies.clone()] {
                let mut got = Vec::new();
                write_with_copies(&mut got, &regs[..n], &links, &c).unwrap();
                assert_eq!(
                    String::from_utf8(got).unwrap(),
                    String::from_utf8(at_once(&regs[..n], &links, &c)).unwrap(),
                    "{n} regressions"
                );
            }
        }
    }
}
