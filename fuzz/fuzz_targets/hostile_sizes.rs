//! Fuzz target: megabyte inputs from small ones, checked for time and
//! memory. The first bytes choose a size (1 to 4 MiB) and where the rest
//! splits into a References unit and a body unit; each is repeated to its
//! size: a References header of up to half the size and a robot report
//! whose body is an lkp table header followed by the body unit repeated.
//! The message is parsed and extracted, and its body's tables read with
//! their diagnostics, at half the size and then at the whole. An input
//! that takes more than three times as long at the whole size as at half
//! (a linear reader takes twice; a quadratic one four times), or more than
//! 2 s + 4 s per MiB, or a process whose peak RSS passes 768 MiB, fails:
//! regtrack must stay linear and bounded whatever one message holds. (The
//! coverage instrumentation of a fuzz build is slow: 4 MiB of lines that
//! look like table rows take about 10 s, read three times.)
#![no_main]

use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use regtrack::model::{Origin, RawFormat, RawMessage};

/// The time an input of `size` bytes may take.
fn time_limit(size: usize) -> Duration {
    Duration::from_secs(2) + Duration::from_secs(4) * u32::try_from(size >> 20).unwrap_or(u32::MAX)
}
const RSS_LIMIT_KB: u64 = 768 * 1024;

/// The process's peak resident set (VmHWM), in KiB.
fn peak_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// `unit` repeated to `len` bytes (nothing when it is empty).
fn repeat(unit: &[u8], len: usize) -> Vec<u8> {
    if unit.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(len + unit.len());
    while out.len() < len {
        out.extend_from_slice(unit);
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let [size, split, flags, rest @ ..] = data else {
        return;
    };
    let size = (1 + usize::from(*size % 4)) << 20;
    let split = usize::from(*split).min(rest.len());
    let (refs_unit, body_unit) = rest.split_at(split);
    // Half the size, then the whole: a linear reader takes about twice as
    // long for the second, a quadratic one four times.
    let half = run(size / 2, refs_unit, body_unit, *flags);
    let full = run(size, refs_unit, body_unit, *flags);
    let what = format!(
        "{size} bytes (References unit {} bytes, body unit {} bytes): {full:?}, half the size {half:?}",
        refs_unit.len(),
        body_unit.len()
    );
    assert!(full < time_limit(size), "too slow: {what}");
    assert!(
        full < half * 3 + Duration::from_millis(500),
        "superlinear: {what}"
    );
    let kb = peak_kb();
    assert!(kb < RSS_LIMIT_KB, "peak RSS {kb} KiB after {what}");
});

/// Builds the message of `size` bytes, parses and extracts it as `ingest`
/// and `parse` do; returns how long that took.
fn run(size: usize, refs_unit: &[u8], body_unit: &[u8], flags: u8) -> Duration {
    // References: the unit (e.g. `<a@b> `) repeated, folded or on one line.
    let mut refs = repeat(refs_unit, size / 2);
    refs.retain(|&b| b != b'\n' && b != b'\r');
    if flags & 1 == 1 {
        let mut folded = Vec::with_capacity(refs.len() + refs.len() / 60 * 2);
        for (i, chunk) in refs.chunks(60).enumerate() {
            if i > 0 {
                folded.extend_from_slice(b"\n ");
            }
            folded.extend_from_slice(chunk);
        }
        refs = folded;
    }
    let mut mail = Vec::with_capacity(size * 2);
    mail.extend_from_slice(
        b"From: kernel test robot <oliver.sang@intel.com>\n\
          Subject: [linus:master] [xfs]  2edf06a50f:  fsmark.files_per_sec -5.7% regression\n\
          Message-ID: <fuzz@intel.com>\n\
          In-Reply-To: <parent@intel.com>\n\
          References: ",
    );
    mail.extend_from_slice(&refs);
    mail.extend_from_slice(
        b"\n\nkernel test robot noticed a -5.7% regression of fsmark.files_per_sec on:\n\n\
          commit: 2edf06a50f5bbe664283f3c55c4 (\"xfs: x\")\n\n\
          f2ffc48de2017c69 ee5eda8ea59546af2e8f192c060 \n\
          ---------------- --------------------------- \n\
          \x20        %stddev     %change         %stddev\n",
    );
    mail.extend_from_slice(&repeat(body_unit, size));
    let raw = RawMessage {
        origin: Origin::Stdin { offset: 0 },
        bytes: mail.into(),
        format: RawFormat::Rfc822,
    };
    let started = Instant::now();
    if let Ok(msg) = regtrack::mail::parse(&raw) {
        drop(raw);
        let ex = regtrack::extract::extract(&msg);
        let diag = regtrack::report::table::table_diagnostics(&msg.body);
        assert!(diag.len() <= regtrack::report::table::MAX_DIAGNOSTICS);
        let rows: usize = ex.tables.iter().map(|t| t.rows.len()).sum();
        assert!(rows <= regtrack::report::table::MAX_BODY_ROWS + 10_000);
        // What the CLI does next with it: one JSON line.
        let json = serde_json_len(&ex);
        assert!(json < 64 << 20, "{json} bytes of JSON");
    }
    started.elapsed()
}

/// The length of an extraction's JSON.
fn serde_json_len(ex: &regtrack::model::Extraction) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0 += b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    let _ = serde_json::to_writer(&mut c, ex);
    c.0
}
