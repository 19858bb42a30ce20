//! Real mail (through `REGTRACK_SHARED`): `regtrack parse` over the shared
//! corpora. Every robot performance report of `ext4-lkp.mbox` must have its
//! subject, body fields and main table parsed, the table's row count equal to
//! the number of data lines counted here by a separate, simple line classifier.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::Cmd;

fn shared() -> Option<PathBuf> {
    crate::common::shared()
}

fn parse(path: &Path) -> Vec<Value> {
    Cmd::regtrack().arg("parse").arg(path).ok().json_lines()
}

fn bodies(path: &Path) -> HashMap<String, String> {
    regtrack::source::open(path)
        .expect("open corpus")
        .filter_map(Result::ok)
        .filter_map(|raw| regtrack::mail::parse(&raw).ok())
        .map(|m| (m.message_id, m.body))
        .collect()
}

/// Counts the data lines of the first unquoted perf table: the lines after the
/// first unquoted `%stddev` header that start with a number, up to the first
/// blank line after them.
fn count_data_lines(body: &str) -> usize {
    let lines: Vec<&str> = body.lines().map(|l| l.trim_end_matches('\r')).collect();
    let Some(start) = lines
        .iter()
        .position(|l| l.trim_start().starts_with("%stddev") && !l.starts_with('>'))
    else {
        return 0;
    };
    let mut n = 0;
    for l in &lines[start + 1..] {
        if l.trim().is_empty() {
            if n > 0 {
                break;
            }
            continue;
        }
        let first = l.split_whitespace().next().unwrap_or("");
        let numeric = first.starts_with(|c: char| c.is_ascii_digit() || c == '-')
            && first
                .chars()
                .all(|c| c.is_ascii_digit() || ".e+-".contains(c));
        if numeric {
            n += 1;
        }
    }
    n
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or("")
}

#[test]
fn every_robot_perf_report_of_ext4_lkp_has_subject_body_and_main_table() {
    let Some(dir) = shared() else { return };
    let mbox = dir.join("corpus/ext4-lkp.mbox");
    let msgs = parse(&mbox);
    assert_eq!(msgs.len(), 37);
    let bodies = bodies(&mbox);
    let mut reports = 0;
    for m in &msgs {
        if s(m, "kind") != "perf-report" {
            continue;
        }
        reports += 1;
        let id = s(m, "message_id");
        assert!(
            s(m, "from_name").contains("test robot"),
            "{id}: not from the robot"
        );
        let subj = &m["subject_report"];
        let rep = &m["report"];
        assert!(
            subj.is_object() && rep.is_object(),
            "{id}: subject or body missing"
        );
        let full = s(rep, "commit_full");
        assert_eq!(full.len(), 40, "{id}: commit_full");
        assert!(
            full.starts_with(s(subj, "commit")),
            "{id}: subject commit vs body commit"
        );
        assert!(!s(rep, "commit_title").is_empty(), "{id}: title");
        assert!(!s(rep, "testcase").is_empty(), "{id}: testcase");
        assert!(!s(rep, "test_machine").is_empty(), "{id}: test machine");
        assert!(
            rep["parameters"].as_array().is_some_and(|p| !p.is_empty()),
            "{id}: parameters"
        );
        assert!(!s(subj, "direction").is_empty(), "{id}: subject direction");
        assert_eq!(s(subj, "direction"), s(rep, "direction"), "{id}: direction");
        assert_eq!(s(subj, "metric"), s(rep, "metric"), "{id}: metric");
        let (a, b) = (
            subj["change_percent"].as_f64(),
            rep["change_percent"].as_f64(),
        );
        assert!(
            a.is_some() && a.map(f64::abs) == b.map(f64::abs),
            "{id}: change {a:?} vs {b:?}"
        );
        let main = m["tables"]
            .as_array()
            .and_then(|t| {
                t.iter()
                    .find(|t| t["format"] == "lkp" && t["quote_depth"] == 0)
            })
            .unwrap_or_else(|| panic!("{id}: no main table"));
        assert!(
            main["commits"].as_array().is_some_and(|c| c.len() >= 2),
            "{id}: commits"
        );
        let rows = main["rows"].as_array().map_or(0, Vec::len);
        let body = bodies.get(id).unwrap_or_else(|| panic!("{id}: body"));
        assert_eq!(rows, count_data_lines(body), "{id}: rows vs data lines");
        assert!(rows > 0, "{id}: empty main table");
        assert_eq!(main["skipped_rows"], 0, "{id}: skipped rows");
        let metric = s(rep, "metric");
        assert!(
            m["tables"]
                .as_array()
                .is_some_and(|ts| ts.iter().any(|t| t["rows"]
                    .as_array()
                    .is_some_and(|r| r.iter().any(|r| s(r, "metric") == metric)))),
            "{id}: headline metric {metric} in no table"
        );
    }
    assert_eq!(reports, 18);
}

#[test]
fn the_shared_corpora_parse_without_skipped_rows_and_their_figures_are_printed() {
    let Some(dir) = shared() else { return };
    for (name, min_perf) in [("ext4-lkp", 18), ("nfs-lkp", 19), ("pm-lkp", 9)] {
        let msgs = parse(&dir.join(format!("corpus/{name}.mbox")));
        let perf = msgs.iter().filter(|m| m["kind"] == "perf-report").count();
        let tables: Vec<&Value> = msgs
            .iter()
            .flat_map(|m| m["tables"].as_array().into_iter().flatten())
            .filter(|t| t["format"] == "lkp" || t["format"] == "lkp-fail")
            .collect();
        let rows: usize = tables
            .iter()
            .map(|t| t["rows"].as_array().map_or(0, Vec::len))
            .sum();
        let skipped: u64 = tables
            .iter()
            .map(|t| t["skipped_rows"].as_u64().unwrap_or(0))
            .sum();
        eprintln!(
            "{name}: {} messages, {perf} perf reports, {} lkp/lkp-fail tables, {rows} rows, {skipped} skipped rows",
            msgs.len(),
            tables.len()
        );
        assert!(perf >= min_perf, "{name}: {perf} perf reports");
        assert_eq!(skipped, 0, "{name}: skipped rows");
    }
}
