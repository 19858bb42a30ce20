//! Hostile inputs against `regtrack parse` and `regtrack ingest`: one 30 MB
//! report with a 400,000-row table, and one of 290,000 one-row stress-ng
//! tables, each must be read under 300 MB of peak RSS (the attack run saw
//! 1.1 GB for `parse` and 644 MB for `ingest` of the first). The inputs are
//! generated into a temporary folder; the peak is the child's VmHWM, read
//! from /proc while it runs.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const BOUND_KB: u64 = 300 * 1024;

const HEADERS: &str = "From lkp@intel.com Mon Sep 17 00:00:00 2001\n\
From: kernel test robot <oliver.sang@intel.com>\n\
To: x@example.org\n\
Subject: [linus:master] [xfs]  2edf06a50f:  fsmark.files_per_sec -5.7% regression\n\
Date: Mon, 1 Jan 2024 00:00:00 +0000\n";

fn report(path: &Path, id: &str, rows: impl Fn(&mut dyn Write) -> std::io::Result<()>) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    write!(
        f,
        "{HEADERS}Message-ID: <{id}@intel.com>\n\n\
         kernel test robot noticed a -5.7% regression of fsmark.files_per_sec on:\n\n\
         commit: 2edf06a50f5bbe664283f3c55c4 (\"xfs: x\")\n\n\
         f2ffc48de2017c69 ee5eda8ea59546af2e8f192c060 \n\
         ---------------- --------------------------- \n\
         \x20        %stddev     %change         %stddev\n"
    )
    .unwrap();
    rows(&mut f).unwrap();
    writeln!(f, "\nDisclaimer:").unwrap();
    f.flush().unwrap();
}

/// Runs the binary and returns its exit status and peak RSS in KB.
fn peak_kb(args: &[&str]) -> (bool, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_regtrack"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status)
            && let Some(kb) = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak = peak.max(kb);
        }
        if let Some(st) = child.try_wait().unwrap() {
            return (st.success(), peak);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn check(input: &Path, dir: &Path) {
    let input = input.to_str().unwrap();
    let (ok, kb) = peak_kb(&["-q", "parse", input]);
    assert!(ok, "parse {input} failed");
    assert!(kb < BOUND_KB, "parse {input}: peak {kb} KB");
    let db = dir.join("m.db");
    let (ok, kb) = peak_kb(&["-q", "--db", db.to_str().unwrap(), "ingest", input]);
    assert!(ok, "ingest {input} failed");
    assert!(kb < BOUND_KB, "ingest {input}: peak {kb} KB");
    let _ = std::fs::remove_file(&db);
}

#[test]
fn a_report_with_a_400000_row_table_is_read_under_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("rows.mbox");
    report(&input, "rows", |f| {
        for i in 0..400_000 {
            writeln!(
                f,
                "    138055 \u{b1} 18%     +33.4%     184128 \u{b1} 14%  cpuidle.metric{i}.usage"
            )?;
        }
        Ok(())
    });
    assert!(std::fs::metadata(&input).unwrap().len() > 29_000_000);
    check(&input, dir.path());
}

#[test]
fn a_report_of_290000_stress_ng_runs_is_read_under_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("stressng.mbox");
    report(&input, "stressng", |f| {
        for i in 0..290_000 {
            writeln!(
                f,
                "stress-ng: metrc: [{i}] msg           1626997107     60.61    171.63   4003.65  26845470.19      389673.05"
            )?;
        }
        Ok(())
    });
    check(&input, dir.path());
}
