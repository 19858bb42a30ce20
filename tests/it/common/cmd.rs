//! Shared helpers of the `robust_*` tests: run the real `regtrack` binary with a
//! time limit, capture its output in files, measure its peak RSS, and look into
//! the database it wrote.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The outcome of one child run.
#[derive(Debug)]
pub struct Run {
    /// What was run, for messages.
    pub what: String,
    /// Exit status (None when the time limit killed it).
    pub status: Option<ExitStatus>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Peak resident set size of the child in KiB, when it could be measured.
    pub peak_rss_kib: Option<u64>,
    /// Wall time.
    pub elapsed: Duration,
}

impl Run {
    /// Exit code, or a panic-like failure when killed by a signal or the timer.
    pub fn code(&self) -> Option<i32> {
        self.status.and_then(|s| s.code())
    }

    /// Asserts the child ended by itself, with no panic and no signal.
    pub fn assert_no_panic(&self) {
        let tail = |s: &str| {
            s.chars()
                .rev()
                .take(2000)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<String>()
        };
        assert!(
            self.status.is_some(),
            "{}: did not finish within its time limit; stderr: {}",
            self.what,
            tail(&self.stderr)
        );
        assert!(
            !self.stderr.contains("panicked"),
            "{}: panicked: {}",
            self.what,
            tail(&self.stderr)
        );
        let code = self.code();
        assert!(
            code.is_some(),
            "{}: killed by a signal ({:?}); stderr: {}",
            self.what,
            self.status,
            tail(&self.stderr)
        );
        assert_ne!(
            code,
            Some(101),
            "{}: exit 101 (a panic); stderr: {}",
            self.what,
            tail(&self.stderr)
        );
    }
}

/// Path of the regtrack binary under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_regtrack"))
}

/// Whether GNU time is available to measure peak RSS exactly.
fn gnu_time() -> Option<PathBuf> {
    let p = PathBuf::from("/usr/bin/time");
    p.exists().then_some(p)
}

/// Runs `regtrack --db DB ARGS...` with a time limit, output to files in `dir`.
pub fn regtrack<S: AsRef<OsStr>>(dir: &Path, db: &Path, args: &[S], limit: Duration) -> Run {
    let mut full: Vec<&OsStr> = vec![OsStr::new("--db"), db.as_os_str()];
    full.extend(args.iter().map(|a| a.as_ref()));
    run_cmd(dir, &bin(), &full, limit)
}

/// Runs a program with a time limit and peak-RSS measurement.
pub fn run_cmd(dir: &Path, program: &Path, args: &[&OsStr], limit: Duration) -> Run {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out_path = dir.join(format!("run{n}.stdout"));
    let err_path = dir.join(format!("run{n}.stderr"));
    let rss_path = dir.join(format!("run{n}.rss"));
    let what = format!(
        "{} {}",
        program.file_name().unwrap_or_default().to_string_lossy(),
        args.iter()
            .map(|a| {
                let s = a.to_string_lossy();
                if s.len() > 80 {
                    format!(
                        "{}…",
                        &s[..s.char_indices().nth(77).map(|c| c.0).unwrap_or(s.len())]
                    )
                } else {
                    s.into_owned()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut cmd = match gnu_time() {
        Some(t) => {
            let mut c = Command::new(t);
            c.arg("-f").arg("%M").arg("-o").arg(&rss_path).arg(program);
            c
        }
        None => Command::new(program),
    };
    cmd.args(args)
        .env_remove("REGTRACK_DB")
        .stdin(Stdio::null())
        .stdout(Stdio::from(File::create(&out_path).unwrap()))
        .stderr(Stdio::from(File::create(&err_path).unwrap()));
    let start = Instant::now();
    let mut child = cmd.spawn().expect("spawn regtrack");
    let mut polled_hwm = None;
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break Some(st);
        }
        if start.elapsed() > limit {
            // Under GNU time, the real child is time's child: end it first.
            let kids = format!("/proc/{0}/task/{0}/children", child.id());
            for pid in std::fs::read_to_string(kids)
                .unwrap_or_default()
                .split_whitespace()
            {
                let _ = Command::new("kill").arg("-9").arg(pid).status();
            }
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        if let Ok(s) = std::fs::read_to_string(format!("/proc/{}/status", child.id())) {
            if let Some(kib) = s
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<u64>().ok())
            {
                polled_hwm = Some(polled_hwm.unwrap_or(0).max(kib));
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    let measured = std::fs::read_to_string(&rss_path)
        .ok()
        .and_then(|s| s.lines().last().and_then(|l| l.trim().parse::<u64>().ok()));
    let mut stderr =
        String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned();
    // GNU time reports "Command exited with non-zero status N" in its -o file, not stderr;
    // keep only the child's own stderr.
    if stderr.len() > 1 << 20 {
        let mut cut = stderr.len() - (1 << 20);
        while !stderr.is_char_boundary(cut) {
            cut += 1;
        }
        stderr = stderr.split_off(cut);
    }
    // Under GNU time, the status is time's own, which mirrors the child's exit code,
    // and a child killed by a signal makes time exit 128+N with "Command terminated by signal".
    let signalled = std::fs::read_to_string(&rss_path)
        .map(|s| s.contains("terminated by signal"))
        .unwrap_or(false);
    Run {
        what,
        status: if signalled { None } else { status },
        stdout: String::from_utf8_lossy(&std::fs::read(&out_path).unwrap_or_default()).into_owned(),
        stderr,
        peak_rss_kib: measured.or(polled_hwm),
        elapsed,
    }
}

/// Runs `PRAGMA integrity_check` on a database file and returns its answer.
pub fn integrity(db: &Path) -> String {
    let conn = rusqlite::Connection::open(db).expect("open db");
    conn.query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
        .expect("integrity_check")
}

/// One integer from a query on the database.
pub fn count(db: &Path, sql: &str) -> i64 {
    let conn = rusqlite::Connection::open(db).expect("open db");
    conn.query_row(sql, [], |r| r.get::<_, i64>(0))
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// The `ingest --json` summary: `{new, known, duplicates, failed, bytes, seconds}`.
pub fn summary(run: &Run) -> serde_json::Value {
    run.stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<serde_json::Value>(l.trim()).ok())
        .unwrap_or_else(|| {
            panic!(
                "{}: no JSON summary on stdout: {:?} / {:?}",
                run.what, run.stdout, run.stderr
            )
        })
}

/// A numeric field of a JSON object (0 when absent).
pub fn field(v: &serde_json::Value, name: &str) -> i64 {
    v.get(name).and_then(|x| x.as_i64()).unwrap_or(0)
}

/// The workspace's `corpus/` folder.
pub fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Path of the synthetic-archive generator.
pub fn synth_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_regtrack-synth"))
}
