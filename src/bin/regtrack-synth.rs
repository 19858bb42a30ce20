//! `regtrack-synth`: writes a synthetic mailing-list archive (mboxrd) for
//! benchmarks and robustness tests.
//!
//! The archive has the proportions of a real kernel list such as linux-ext4:
//! kernel test robot performance reports in the current format (lead sentence,
//! `commit:` line, `testcase:`, parameter block, the `=====` group header,
//! commit list, id row and 100-400 `%stddev %change %stddev` rows), human
//! replies quoting parts of those tables, patches with diffs and trailers, and
//! plain traffic. Headers are as heavy as on lore (Received, DKIM, ARC), so the
//! average message is close to the real 9-10 KB. The output depends only on
//! `--messages` and `--seed`.
//!
//! ```text
//! regtrack-synth --messages 50000 --seed 7 --out /tmp/synth.mbox
//! ```

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// A small deterministic PRNG (SplitMix64); good enough for synthetic text.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..hi` (`hi > lo`).
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo).max(1)
    }
    fn f64(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn chance(&mut self, p: f64) -> bool {
        self.f64() < p
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items
            .get(self.next() as usize % items.len().max(1))
            .copied()
            .unwrap_or("")
    }
    fn hex(&mut self, n: usize) -> String {
        let mut s = String::with_capacity(n);
        while s.len() < n {
            let _ = write!(s, "{:016x}", self.next());
        }
        s.truncate(n);
        s
    }
    fn alnum(&mut self, n: usize) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        (0..n)
            .map(|_| A[self.next() as usize % A.len()] as char)
            .collect()
    }
}

const PEOPLE: &[(&str, &str)] = &[
    ("Theodore Ts'o", "tytso@mit.edu"),
    ("Jan Kara", "jack@suse.cz"),
    ("Andreas Dilger", "adilger@dilger.ca"),
    ("Ritesh Harjani", "ritesh.list@gmail.com"),
    ("Zhang Yi", "yi.zhang@huaweicloud.com"),
    ("Baokun Li", "libaokun1@huawei.com"),
    ("Ojaswin Mujoo", "ojaswin@linux.ibm.com"),
    ("Darrick J. Wong", "djwong@kernel.org"),
    ("Christoph Hellwig", "hch@lst.de"),
    ("Matthew Wilcox", "willy@infradead.org"),
    ("Eric Biggers", "ebiggers@kernel.org"),
    ("Harshad Shirwadkar", "harshadshirwadkar@gmail.com"),
    ("Kemeng Shi", "shikemeng@huaweicloud.com"),
    ("Christian Brauner", "brauner@kernel.org"),
    ("Oliver Sang", "oliver.sang@intel.com"),
];

const AREAS: &[&str] = &[
    "ext4",
    "jbd2",
    "mballoc",
    "fast_commit",
    "inline_data",
    "xattr",
    "extents",
];

const WORDS: &[&str] = &[
    "the",
    "allocation",
    "block",
    "group",
    "we",
    "should",
    "not",
    "journal",
    "commit",
    "inode",
    "extent",
    "tree",
    "when",
    "this",
    "patch",
    "fixes",
    "a",
    "race",
    "between",
    "writeback",
    "and",
    "truncate",
    "so",
    "that",
    "buffer",
    "head",
    "is",
    "released",
    "after",
    "lock",
    "I",
    "think",
    "it",
    "would",
    "be",
    "better",
    "to",
    "check",
    "return",
    "value",
    "here",
    "because",
    "error",
    "path",
    "can",
    "leak",
    "reference",
    "on",
    "folio",
    "mapping",
    "with",
    "large",
    "folios",
    "enabled",
    "performance",
    "regression",
    "was",
    "reported",
    "by",
    "test",
    "robot",
    "looks",
    "fine",
    "me",
    "thanks",
    "for",
    "review",
    "update",
    "in",
    "v2",
];

const FAMILIES: &[&str] = &[
    "vmstat.procs",
    "vmstat.system",
    "mpstat.cpu.all",
    "meminfo",
    "proc-vmstat",
    "numa-vmstat.node0",
    "slabinfo.ext4_inode_cache",
    "softirqs.CPU0",
    "sched_debug.cfs_rq:/",
    "sched_debug.cpu",
    "perf-stat.i",
    "perf-stat.ps",
    "perf-stat.overall",
    "perf-sched.wait_time.max.ms",
    "perf-profile.calltrace.cycles-pp",
    "perf-profile.children.cycles-pp",
    "perf-profile.self.cycles-pp",
    "fsmark.time",
    "cpuidle.",
    "interrupts.CPU1",
];

const LEAVES: &[&str] = &[
    "r",
    "b",
    "in",
    "cs",
    "usage",
    "avg",
    "max",
    "stddev",
    "Active(anon)",
    "Dirty",
    "pgfault",
    "nr_dirty",
    "active_objs",
    "num_objs",
    "RCU",
    "SCHED",
    "util_est.avg",
    "curr->pid.avg",
    "branch-miss-rate%",
    "cache-misses",
    "ipc",
    "cpi",
    "metric.K/sec",
    "idle%",
    "soft%",
    "sys%",
    "iowait%",
    "ext4_mb_regular_allocator",
    "jbd2_journal_stop",
    "__ext4_journal_start_sb",
    "ext4_da_write_begin",
    "do_syscall_64",
    "native_queued_spin_lock_slowpath",
    "voluntary_context_switches",
    "elapsed_time",
    "file_system_outputs",
];

const TESTCASES: &[(&str, &str)] = &[
    ("fsmark", "fsmark.files_per_sec"),
    ("stress-ng", "stress-ng.fiemap.ops_per_sec"),
    ("filebench", "filebench.sum_operations/s"),
    ("fio-basic", "fio.write_iops"),
    ("aim7", "aim7.jobs-per-min"),
    ("will-it-scale", "will-it-scale.per_thread_ops"),
];

fn person(rng: &mut Rng) -> (&'static str, &'static str) {
    PEOPLE
        .get(rng.next() as usize % PEOPLE.len())
        .copied()
        .unwrap_or(("A U Thor", "author@example.org"))
}

fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick(WORDS));
    }
    s.push('.');
    if let Some(first) = s.get(0..1) {
        let up = first.to_uppercase();
        s.replace_range(0..1, &up);
    }
    s
}

/// Wraps prose at about 72 columns.
fn paragraph(rng: &mut Rng, sentences: usize) -> String {
    let mut out = String::new();
    let mut col = 0;
    for _ in 0..sentences {
        let n = rng.range(6, 18) as usize;
        for w in sentence(rng, n).split(' ') {
            if col + w.len() + 1 > 72 && col > 0 {
                out.push('\n');
                col = 0;
            } else if col > 0 {
                out.push(' ');
                col += 1;
            }
            out.push_str(w);
            col += w.len();
        }
    }
    out.push('\n');
    out
}

/// `%.{prec}g`-style exponent form, as Ruby prints it (`2.331e+09`, `+2.1e+05`).
fn fmt_g(x: f64, sig: usize, signed: bool) -> String {
    let sign = if x < 0.0 {
        "-"
    } else if signed {
        "+"
    } else {
        ""
    };
    let a = x.abs();
    if a == 0.0 || !a.is_finite() {
        return format!("{sign}0");
    }
    let mut e = a.log10().floor() as i32;
    let decimals = sig.saturating_sub(1);
    let mut m = a / 10f64.powi(e);
    let scale = 10f64.powi(decimals as i32);
    m = (m * scale).round() / scale;
    if m >= 10.0 {
        m /= 10.0;
        e += 1;
    }
    let mut ms = format!("{m:.decimals$}");
    if ms.contains('.') {
        while ms.ends_with('0') {
            ms.pop();
        }
        if ms.ends_with('.') {
            ms.pop();
        }
    }
    let es = if e < 0 { '-' } else { '+' };
    format!("{sign}{ms}e{es}{:02}", e.abs())
}

fn value_cell(v: f64) -> String {
    if v.abs() < 1000.0 {
        format!("{v:10.2}")
    } else if v.abs() > 100_000_000.0 {
        format!("{:>10}", fmt_g(v, 4, false))
    } else {
        format!("{:10}", v as i64)
    }
}

fn stddev_cell(rng: &mut Rng) -> String {
    if rng.chance(0.55) {
        format!(" ±{:3}%", rng.range(3, 160))
    } else {
        "      ".to_string()
    }
}

/// One `%stddev %change %stddev` row for `ncols` commits.
fn table_row(rng: &mut Rng, name: &str, ncols: usize, headline: Option<f64>) -> String {
    let absolute = name.starts_with("perf-profile") || name.ends_with('%');
    let base = match rng.range(0, 4) {
        0 => rng.f64() * 900.0,
        1 => rng.f64() * 90_000.0 + 1000.0,
        2 => rng.f64() * 5e10 + 2e8,
        _ => rng.f64() * 9.0,
    };
    let mut row = String::with_capacity(100);
    row.push_str(&value_cell(base));
    row.push_str(&stddev_cell(rng));
    for _ in 1..ncols {
        let pct = headline.unwrap_or_else(|| (rng.f64() - 0.5) * 80.0);
        let new = if absolute {
            base + pct / 10.0
        } else {
            base * (1.0 + pct / 100.0)
        };
        let cell = if absolute {
            let d = new - base;
            if d.abs() >= 100_000.0 {
                format!("{:>10}  ", fmt_g(d, 2, true))
            } else {
                format!("{d:+10.1}  ")
            }
        } else if pct.abs() >= 100_000.0 {
            format!("{:>10}% ", fmt_g(pct, 2, true))
        } else {
            format!("{pct:+10.1}% ")
        };
        row.push_str(&cell);
        row.push_str(&value_cell(new));
        row.push_str(&stddev_cell(rng));
    }
    row.push_str("  ");
    row.push_str(name);
    row.push('\n');
    row
}

/// A robot report as generated, plus what replies may quote from it.
struct Report {
    subject: String,
    body: String,
    table_rows: Vec<String>,
    lead: String,
}

fn robot_report(rng: &mut Rng, msgid: &str, date_ymd: &str) -> Report {
    let area = rng.pick(AREAS);
    let sha = rng.hex(40);
    let base_sha = rng.hex(40);
    let (testcase, metric) = TESTCASES
        .get(rng.next() as usize % TESTCASES.len())
        .copied()
        .unwrap_or(("fsmark", "fsmark.files_per_sec"));
    let regression = rng.chance(0.7);
    let pct = rng.f64() * 40.0 + 2.0;
    let signed = if regression { -pct } else { pct };
    let word = if regression {
        "regression"
    } else {
        "improvement"
    };
    let tree = rng.pick(&[
        "linus:master",
        "linux-next:master",
        "tip:sched/core",
        "akpm-mm:mm-stable",
    ]);
    let short = sha.get(..10).unwrap_or("");
    let title = format!("{area}: {}", sentence(rng, 6).trim_end_matches('.'));
    let subject = format!("[{tree}] [{area}]  {short}:  {metric} {pct:.1}% {word}");
    let lead = format!("kernel test robot noticed a {pct:.1}% {word} of {metric} on:");
    let machine = rng.pick(&[
        "128 threads 2 sockets Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz (Ice Lake) with 128G memory",
        "64 threads 2 sockets Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz (Ice Lake) with 256G memory",
        "224 threads 2 sockets Intel(R) Xeon(R) Platinum 8480CTDX (Sapphire Rapids) with 512G memory",
    ]);
    let mut b = String::with_capacity(40_000);
    b.push_str("\n\nHello,\n\n");
    let _ = writeln!(b, "{lead}\n\n");
    let _ = writeln!(b, "commit: {sha} (\"{title}\")");
    b.push_str("https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git master\n\n");
    let _ = writeln!(b, "testcase: {testcase}");
    b.push_str("config: x86_64-rhel-9.4\ncompiler: gcc-12\n");
    let _ = writeln!(b, "test machine: {machine}");
    b.push_str("parameters:\n\n");
    let params: &[(&str, String)] = &[
        ("disk", "1SSD".to_string()),
        ("fs", "ext4".to_string()),
        ("nr_threads", format!("{}%", rng.range(1, 200))),
        (
            "test",
            rng.pick(&["fiemap", "8K", "create", "append"]).to_string(),
        ),
        ("cpufreq_governor", "performance".to_string()),
    ];
    for (k, v) in params {
        let _ = writeln!(b, "\t{k}: {v}");
    }
    b.push('\n');
    if regression {
        b.push_str(
            "\nIf you fix the issue in a separate patch/commit (i.e. not just a new version of\n\
             the same patch/commit), kindly add following tags\n\
             | Reported-by: kernel test robot <oliver.sang@intel.com>\n",
        );
        let _ = writeln!(b, "| Closes: https://lore.kernel.org/oe-lkp/{msgid}\n");
    }
    b.push_str("\nDetails are as below:\n");
    b.push_str(&"-".repeat(98));
    b.push_str(">\n\n\nThe kernel config and materials to reproduce are available at:\n");
    let _ = writeln!(
        b,
        "https://download.01.org/0day-ci/archive/{date_ymd}/{msgid}\n"
    );
    b.push_str(&"=".repeat(89));
    b.push('\n');
    let keys = [
        "compiler",
        "cpufreq_governor",
        "disk",
        "fs",
        "kconfig",
        "nr_threads",
        "rootfs",
        "tbox_group",
        "test",
        "testcase",
    ];
    let _ = writeln!(b, "{}:", keys.join("/"));
    let _ = writeln!(
        b,
        "  gcc-12/performance/1SSD/ext4/x86_64-rhel-9.4/{}/debian-12-x86_64-20240206.cgz/lkp-icl-2sp{}/{}/{testcase}\n",
        params.get(2).map(|p| p.1.as_str()).unwrap_or("1%"),
        rng.range(1, 9),
        params.get(3).map(|p| p.1.as_str()).unwrap_or("8K"),
    );
    b.push_str("commit: \n");
    let _ = writeln!(
        b,
        "  {} (\"{area}: {}\")",
        base_sha.get(..10).unwrap_or(""),
        sentence(rng, 5).trim_end_matches('.')
    );
    let _ = writeln!(b, "  {short} (\"{title}\")\n");
    let _ = writeln!(
        b,
        "{:>16} {:>27} ",
        base_sha.get(..16).unwrap_or(""),
        sha.get(..27).unwrap_or("")
    );
    let _ = writeln!(b, "{} {} ", "-".repeat(16), "-".repeat(27));
    b.push_str("         %stddev     %change         %stddev\n");
    b.push_str("             \\          |                \\  \n");
    let nrows = rng.range(100, 401) as usize;
    let mut rows = Vec::with_capacity(nrows);
    let headline_at = rng.range(0, 8) as usize;
    for i in 0..nrows {
        let row = if i == headline_at {
            table_row(rng, metric, 2, Some(signed))
        } else {
            let name = format!("{}.{}", rng.pick(FAMILIES), rng.pick(LEAVES));
            table_row(rng, &name, 2, None)
        };
        b.push_str(&row);
        rows.push(row);
    }
    b.push_str("\n\n\n\nDisclaimer:\nResults have been estimated based on internal Intel analysis and are provided\n\
                for informational purposes only. Any difference in system hardware or software\n\
                design or configuration may affect actual performance.\n\n\n-- \n\
                0-DAY CI Kernel Test Service\nhttps://github.com/intel/lkp-tests/wiki\n\n");
    Report {
        subject,
        body: b,
        table_rows: rows,
        lead,
    }
}

fn quote(text: &str, depth: usize) -> String {
    let prefix = "> ".repeat(depth);
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.lines() {
        out.push_str(prefix.trim_end_matches(' '));
        if !line.is_empty() {
            out.push(' ');
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

fn reply_to_report(rng: &mut Rng, rep: &Report, human: &str) -> String {
    let mut b = String::with_capacity(4000);
    let _ = writeln!(
        b,
        "On {}, kernel test robot wrote:",
        rng.pick(&[
            "Mon, Mar 03, 2025",
            "Tue, Jun 10, 2025",
            "Thu, Oct 02, 2025"
        ])
    );
    b.push_str(&quote(&rep.lead, 1));
    b.push_str(">\n");
    let n = rng.range(2, 12) as usize;
    let start = rng.range(0, rep.table_rows.len().saturating_sub(n).max(1) as u64) as usize;
    let quoted: String = rep
        .table_rows
        .iter()
        .skip(start)
        .take(n)
        .map(String::as_str)
        .collect();
    b.push_str(&quote(&quoted, 1));
    b.push('\n');
    let n = rng.range(2, 6) as usize;
    b.push_str(&paragraph(rng, n));
    if rng.chance(0.3) {
        b.push_str(
            "\nFrom the numbers above I don't think this is a real regression; the\n\
             stddev is large.\n",
        );
    }
    let _ = writeln!(b, "\nThanks,\n{human}");
    b
}

fn patch_body(rng: &mut Rng, area: &str, author: (&str, &str)) -> (String, String) {
    let title = format!("{area}: {}", sentence(rng, 7).trim_end_matches('.'));
    let mut b = String::with_capacity(8000);
    let n = rng.range(3, 8) as usize;
    b.push_str(&paragraph(rng, n));
    b.push('\n');
    if rng.chance(0.3) {
        let _ = writeln!(
            b,
            "Fixes: {} (\"{area}: {}\")",
            rng.hex(12),
            sentence(rng, 5).trim_end_matches('.')
        );
    }
    let _ = writeln!(b, "Signed-off-by: {} <{}>", author.0, author.1);
    b.push_str("---\n");
    let nfiles = rng.range(1, 6);
    let files: Vec<String> = (0..nfiles)
        .map(|_| {
            format!(
                "fs/{area}/{}.c",
                rng.pick(&["inode", "super", "mballoc", "extents", "namei", "file"])
            )
        })
        .collect();
    for f in &files {
        let _ = writeln!(b, " {f} | {} ++++---", rng.range(3, 40));
    }
    let _ = writeln!(b, " {nfiles} files changed\n");
    for f in &files {
        let _ = writeln!(
            b,
            "diff --git a/{f} b/{f}\nindex {}..{} 100644\n--- a/{f}\n+++ b/{f}",
            rng.hex(12),
            rng.hex(12)
        );
        for _ in 0..rng.range(1, 7) {
            let ctx = rng.range(3, 7);
            let del = rng.range(0, 6);
            let add = rng.range(1, 8);
            let start = rng.range(10, 4000);
            let _ = writeln!(
                b,
                "@@ -{start},{} +{start},{} @@ static int {area}_{}(struct inode *inode)",
                ctx * 2 + del,
                ctx * 2 + add,
                rng.pick(WORDS)
            );
            for _ in 0..ctx {
                let _ = writeln!(b, " \tif (!{}) ", rng.pick(WORDS));
            }
            for _ in 0..del {
                let _ = writeln!(b, "-\terr = {}_{}(inode);", area, rng.pick(WORDS));
            }
            for _ in 0..add {
                let _ = writeln!(b, "+\terr = {}_{}(inode, flags);", area, rng.pick(WORDS));
            }
            for _ in 0..ctx {
                let _ = writeln!(
                    b,
                    " \t\treturn -{};",
                    rng.pick(&["EIO", "ENOMEM", "EINVAL"])
                );
            }
        }
    }
    b.push_str("-- \n2.43.0\n\n");
    (title, b)
}

/// One message that later messages may reply to.
struct Known {
    msgid: String,
    subject: String,
    refs: Vec<String>,
    report: Option<usize>,
}

struct Generator {
    rng: Rng,
    time: i64,
    seq: u64,
    known: Vec<Known>,
    reports: Vec<Report>,
}

impl Generator {
    fn headers(
        &mut self,
        from: (&str, &str),
        subject: &str,
        msgid: &str,
        parent: Option<(String, Vec<String>)>,
    ) -> String {
        let dt = chrono::DateTime::from_timestamp(self.time, 0).unwrap_or_default();
        let date = dt.format("%a, %d %b %Y %H:%M:%S +0000").to_string();
        let mut h = String::with_capacity(4000);
        let _ = writeln!(
            h,
            "Return-Path: <linux-ext4+bounces-{}-lists=lfdr.de@vger.kernel.org>",
            self.seq
        );
        for hop in 0..3 {
            let _ = writeln!(
                h,
                "Received: from smtp{hop}.subspace.kernel.org (conduit.subspace.kernel.org [100.90.174.{hop}])\n\
                 \tby sea.lore.kernel.org (Postfix) with ESMTP id {}\n\tfor <lists+linux-ext4@lfdr.de>; {date}",
                self.rng.hex(12).to_uppercase()
            );
        }
        let _ = writeln!(
            h,
            "ARC-Seal: i=1; a=rsa-sha256; d=subspace.kernel.org; s=arc-20240116;\n\tt={}; cv=none; b={}",
            self.time,
            self.rng.alnum(172)
        );
        let _ = writeln!(
            h,
            "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/simple; d=kernel.org;\n\ts=k20201202; t={};\n\tbh={}=;\n\th=From:To:Cc:Subject:Date:From;\n\tb={}\n\t {}",
            self.time,
            self.rng.alnum(43),
            self.rng.alnum(76),
            self.rng.alnum(96)
        );
        let _ = writeln!(h, "From: {} <{}>", from.0, from.1);
        let _ = writeln!(h, "To: linux-ext4@vger.kernel.org");
        let (cc1, cc2) = (person(&mut self.rng), person(&mut self.rng));
        let _ = writeln!(h, "Cc: {} <{}>,\n\t{} <{}>", cc1.0, cc1.1, cc2.0, cc2.1);
        let _ = writeln!(h, "Subject: {subject}");
        let _ = writeln!(h, "Date: {date}");
        let _ = writeln!(h, "Message-ID: <{msgid}>");
        if let Some((pid, prefs)) = parent {
            let _ = writeln!(h, "In-Reply-To: <{pid}>");
            let mut refs: Vec<&str> = prefs.iter().map(String::as_str).collect();
            refs.push(&pid);
            let _ = writeln!(
                h,
                "References: {}",
                refs.iter()
                    .map(|r| format!("<{r}>"))
                    .collect::<Vec<_>>()
                    .join("\n ")
            );
        }
        h.push_str("List-Id: <linux-ext4.vger.kernel.org>\nPrecedence: bulk\nMIME-Version: 1.0\n");
        h
    }

    fn message(&mut self) -> String {
        self.seq += 1;
        self.time += self.rng.range(30, 3000) as i64;
        let roll = self.rng.f64();
        let ymd = chrono::DateTime::from_timestamp(self.time, 0)
            .unwrap_or_default()
            .format("%Y%m%d")
            .to_string();
        let ts = chrono::DateTime::from_timestamp(self.time, 0)
            .unwrap_or_default()
            .format("%Y%m%d%H%M")
            .to_string();
        let report_ids: Vec<usize> = self
            .known
            .iter()
            .rev()
            .take(400)
            .filter_map(|k| k.report)
            .take(3)
            .collect();
        // Proportions: ~3% robot reports, ~5% replies quoting report tables,
        // ~40% patches, the rest discussion.
        let (from, subject, msgid, parent, body, report_idx, ctype);
        if roll < 0.03 {
            let id = format!("{ts}.{}-lkp@intel.com", self.rng.hex(8));
            let rep = robot_report(&mut self.rng, &id, &ymd);
            from = ("kernel test robot", "oliver.sang@intel.com");
            subject = rep.subject.clone();
            body = rep.body.clone();
            msgid = id;
            parent = None;
            self.reports.push(rep);
            report_idx = Some(self.reports.len() - 1);
            ctype = "text/plain; charset=\"iso-8859-1\"\nContent-Disposition: inline\nContent-Transfer-Encoding: 8bit";
        } else if roll < 0.08 && !report_ids.is_empty() {
            let ri = report_ids
                .get(self.rng.next() as usize % report_ids.len())
                .copied()
                .unwrap_or(0);
            let p = self.known.iter().rposition(|k| k.report == Some(ri));
            let who = person(&mut self.rng);
            from = who;
            msgid = format!("{}.{}@{}", self.rng.hex(16), self.seq, "kernel.org");
            body = match self.reports.get(ri) {
                Some(rep) => reply_to_report(&mut self.rng, rep, who.0),
                None => paragraph(&mut self.rng, 3),
            };
            subject = format!(
                "Re: {}",
                self.reports
                    .get(ri)
                    .map(|r| r.subject.as_str())
                    .unwrap_or("")
            );
            parent = p;
            report_idx = None;
            ctype = "text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit";
        } else if roll < 0.48 {
            let who = person(&mut self.rng);
            let area = self.rng.pick(AREAS);
            let (title, b) = patch_body(&mut self.rng, area, who);
            let v = self.rng.range(1, 5);
            let n = self.rng.range(1, 9);
            subject = if v > 1 {
                format!("[PATCH v{v} {}/{n}] {title}", self.rng.range(1, n + 1))
            } else {
                format!("[PATCH] {title}")
            };
            from = who;
            msgid = format!(
                "{ts}{}.{}-{}@huawei.com",
                self.rng.range(10, 99),
                self.seq,
                self.rng.range(1, 9)
            );
            body = b;
            parent = None;
            report_idx = None;
            ctype = "text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit";
        } else {
            let who = person(&mut self.rng);
            from = who;
            msgid = format!(
                "{}@{}",
                self.rng.alnum(20).replace(['+', '/'], "x"),
                "mail.gmail.com"
            );
            let back = self.known.len().min(200) as u64;
            let p = if back > 0 && self.rng.chance(0.85) {
                Some(self.known.len() - 1 - self.rng.range(0, back) as usize)
            } else {
                None
            };
            let mut b = String::new();
            if let Some(k) = p.and_then(|i| self.known.get(i)) {
                let _ = writeln!(b, "On {}, someone wrote:", self.time);
                let q = paragraph(&mut self.rng, 3);
                b.push_str(&quote(&q, 1 + (k.refs.len() % 3)));
                b.push('\n');
                subject = if k.subject.starts_with("Re: ") {
                    k.subject.clone()
                } else {
                    format!("Re: {}", k.subject)
                };
            } else {
                subject = sentence(&mut self.rng, 6).trim_end_matches('.').to_string();
            }
            let n = self.rng.range(2, 10) as usize;
            b.push_str(&paragraph(&mut self.rng, n));
            if self.rng.chance(0.2) {
                let _ = writeln!(b, "\nReviewed-by: {} <{}>", who.0, who.1);
            }
            let _ = writeln!(b, "\n-- \n{}", who.0);
            body = b;
            parent = p;
            report_idx = None;
            ctype = "text/plain; charset=UTF-8";
        }
        let parent_known = parent
            .and_then(|i| self.known.get(i))
            .map(|k| (k.msgid.clone(), k.refs.clone()));
        let mut refs: Vec<String> = parent_known
            .as_ref()
            .map(|(id, r)| {
                let mut r = r.clone();
                r.push(id.clone());
                r
            })
            .unwrap_or_default();
        if refs.len() > 20 {
            refs.drain(..refs.len() - 20);
        }
        let mut out = self.headers(from, &subject, &msgid, parent_known);
        let _ = writeln!(out, "Content-Type: {ctype}");
        out.push('\n');
        out.push_str(body.trim_start_matches('\n'));
        self.known.push(Known {
            msgid,
            subject,
            refs,
            report: report_idx,
        });
        if self.known.len() > 4000 {
            self.known.drain(..2000);
        }
        if self.reports.len() > 64 {
            // Keep indices valid: drop references to forgotten reports.
            self.reports.drain(..32);
            for k in &mut self.known {
                k.report = k.report.and_then(|r| r.checked_sub(32));
            }
        }
        out
    }
}

/// Writes one message in mboxrd form (`>From ` quoting on any number of `>`).
fn write_mboxrd(w: &mut impl Write, sender: &str, date: &str, msg: &str) -> io::Result<()> {
    writeln!(w, "From {sender} {date}")?;
    for line in msg.lines() {
        if line.trim_start_matches('>').starts_with("From ") {
            w.write_all(b">")?;
        }
        w.write_all(line.as_bytes())?;
        w.write_all(b"\n")?;
    }
    w.write_all(b"\n")
}

struct Args {
    messages: u64,
    seed: u64,
    out: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        messages: 1000,
        seed: 1,
        out: PathBuf::from("-"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut val = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--messages" | "-n" => {
                a.messages = val("--messages")?
                    .parse()
                    .map_err(|e| format!("--messages: {e}"))?
            }
            "--seed" | "-s" => {
                a.seed = val("--seed")?.parse().map_err(|e| format!("--seed: {e}"))?
            }
            "--out" | "-o" => a.out = PathBuf::from(val("--out")?),
            "--help" | "-h" => {
                return Err(
                    "usage: regtrack-synth [--messages N] [--seed S] [--out PATH|-]\n\
                     Writes a deterministic synthetic mboxrd archive (robot reports with large\n\
                     lkp tables, replies quoting them, patches, plain traffic)."
                        .into(),
                );
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(a)
}

fn run(args: &Args) -> io::Result<u64> {
    let sink: Box<dyn Write> = if args.out.as_os_str() == "-" {
        Box::new(io::stdout().lock())
    } else {
        Box::new(std::fs::File::create(&args.out)?)
    };
    let mut w = BufWriter::with_capacity(1 << 20, sink);
    let mut g = Generator {
        rng: Rng(args.seed ^ 0x005E_ED0F_4E67_7261),
        time: 1_704_067_200, // 2024-01-01
        seq: 0,
        known: Vec::new(),
        reports: Vec::new(),
    };
    let mut bytes = 0u64;
    for _ in 0..args.messages {
        let msg = g.message();
        let sender = g
            .known
            .last()
            .map(|k| {
                k.msgid
                    .rsplit('@')
                    .next()
                    .unwrap_or("example.org")
                    .to_string()
            })
            .unwrap_or_default();
        let date = chrono::DateTime::from_timestamp(g.time, 0)
            .unwrap_or_default()
            .format("%a %b %e %H:%M:%S %Y")
            .to_string();
        write_mboxrd(&mut w, &format!("mboxrd@{sender}"), &date, &msg)?;
        bytes += msg.len() as u64;
    }
    w.flush()?;
    Ok(bytes)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(bytes) => {
            if args.out.as_os_str() != "-" {
                eprintln!(
                    "regtrack-synth: {} messages, {:.1} MB -> {}",
                    args.messages,
                    bytes as f64 / 1e6,
                    args.out.display()
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("regtrack-synth: {}: {e}", args.out.display());
            ExitCode::FAILURE
        }
    }
}
