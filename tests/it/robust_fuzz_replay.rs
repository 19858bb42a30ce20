//! A stable-toolchain stand-in for the fuzzers, in the normal test suite:
//! replays every crash input kept under `fuzz/regressions/` and every file of
//! `corpus/` through every parser (mbox splitter, message parsing in each raw
//! format, the whole extraction, and the report and diff grammars on their
//! own), then throws deterministic mutations of real-format mail (the corpus,
//! a synthetic archive, and `$REGTRACK_SHARED/corpus` when set) at them.
//! `REGTRACK_FUZZ_CORPUS=<dir>` adds every file under `dir` (a fuzzer's grown
//! corpus) to the replay.
//! A panic anywhere is caught, named (input and parser) and fails the test.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use regtrack::model::{Message, Origin, RawFormat, RawMessage};

use crate::common::root;

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else if p.is_file() {
            out.push(p);
        }
    }
}

fn message_from_text(subject: &str, body: &str) -> Message {
    Message {
        message_id: "replay@example.org".into(),
        message_id_derived: false,
        subject: subject.into(),
        from_name: Some("kernel test robot".into()),
        from_email: Some("oliver.sang@intel.com".into()),
        date: Some(1_740_996_000),
        in_reply_to: None,
        references: Vec::new(),
        list_ids: Vec::new(),
        body: body.into(),
        parts: Vec::new(),
        content_hash: String::new(),
        raw_size: body.len() as u64,
    }
}

/// Runs one parser under `catch_unwind`; records a failure line on panic.
fn guarded(failures: &mut Vec<String>, input: &str, parser: &str, f: impl FnOnce()) {
    if catch_unwind(AssertUnwindSafe(f)).is_err() {
        failures.push(format!("{parser} panicked on {input}"));
    }
}

/// Every parser on one input. `tmp` is a scratch file path for the splitter.
fn all_parsers(failures: &mut Vec<String>, name: &str, data: &[u8], tmp: &Path) {
    // Gzip input may inflate, but never past the splitter's message limit.
    let bound = if data.starts_with(&[0x1f, 0x8b]) {
        regtrack::source::mbox::MAX_MESSAGE
    } else {
        data.len() + 1
    };
    guarded(failures, name, "source::open (mbox splitter)", || {
        if std::fs::write(tmp, data).is_ok()
            && let Ok(stream) = regtrack::source::open(tmp)
        {
            for raw in stream.take(100_000).flatten() {
                assert!(raw.bytes.len() <= bound, "a message larger than its input");
            }
        }
    });
    for format in [RawFormat::Rfc822, RawFormat::Rendered, RawFormat::Collapsed] {
        guarded(
            failures,
            name,
            &format!("mail::parse ({format:?}) + extract"),
            || {
                let raw = RawMessage {
                    origin: Origin::File {
                        path: name.into(),
                        offset: 0,
                    },
                    bytes: data.to_vec().into(),
                    format,
                };
                if let Ok(msg) = regtrack::mail::parse(&raw) {
                    let _ = regtrack::extract::extract(&msg);
                }
            },
        );
    }
    let text = String::from_utf8_lossy(data);
    let (subject, body) = text.split_once('\n').unwrap_or((&text, ""));
    guarded(failures, name, "extract (report grammar, evidence)", || {
        let _ = regtrack::extract::extract(&message_from_text(subject, body));
        let _ = regtrack::extract::extract(&message_from_text("", &text));
    });
    grammars(failures, name, subject, &text);
}

/// The subject, table and diff grammars called directly.
fn grammars(failures: &mut Vec<String>, name: &str, subject: &str, text: &str) {
    guarded(failures, name, "report::subject::parse_subject", || {
        let _ = regtrack::report::subject::parse_subject(subject);
        for line in text.lines().take(200) {
            let _ = regtrack::report::subject::parse_subject(line);
        }
    });
    guarded(failures, name, "report::table::parse_tables", || {
        let _ = regtrack::report::table::parse_tables(text);
    });
    guarded(
        failures,
        name,
        "report::body (parse_report_body, parse_events)",
        || {
            let _ = regtrack::report::body::parse_report_body(text);
            let _ = regtrack::report::body::parse_events(text);
        },
    );
    guarded(
        failures,
        name,
        "evidence::diff (parse_diffs, scan_collapsed)",
        || {
            let _ = regtrack::evidence::diff::parse_diffs(text);
            let _ = regtrack::evidence::diff::scan_collapsed(text);
        },
    );
}

/// A small deterministic PRNG for the mutations.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Interesting byte strings for insertion.
const TOKENS: &[&[u8]] = &[
    b"\nFrom mboxrd@z Thu Jan  1 00:00:00 1970\n",
    b"\n>From ",
    b"\n\n",
    b"\r\n",
    b"\0",
    b"\xff\xfe",
    b"\xe2\x82",
    b" \xc2\xb1",
    b"%",
    b"+1.3e+102%",
    b"-100.0%",
    b"=?utf-8?B?",
    b"=?x-unknown?Q?=ZZ?=",
    b"Content-Type: multipart/mixed; boundary=\"b\"\n",
    b"--b\n",
    b"Content-Transfer-Encoding: base64\n",
    b"Content-Transfer-Encoding: quoted-printable\n",
    b"=\n",
    b"@@ -1,99999999999 +1,3 @@\n",
    b"diff --git a/x b/x\n--- a/x\n+++ b/x\n",
    b"=========================================================================================\n",
    b"         %stddev     %change         %stddev\n",
    b"             \\          |                \\  \n",
    b"---------------- --------------------------- \n",
    b"commit: \n",
    b"> > > ",
    b"[-- Attachment #1: Type: text/plain --]\n",
    b"[Oliver Sang <oliver.sang@intel.com>]\n",
    b"Subject: [linus:master] [ext4]  6f7a8b9c0d:  fsmark.files_per_sec 6.3% regression\n",
    b"\xf0\x9f\x98",
];

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut d = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        match rng.below(7) {
            0 => {
                // truncate
                let at = rng.below(d.len() + 1);
                d.truncate(at);
            }
            1 => {
                // flip a byte
                if !d.is_empty() {
                    let i = rng.below(d.len());
                    d[i] ^= 1 << rng.below(8);
                }
            }
            2 => {
                // insert a token
                let t = TOKENS[rng.below(TOKENS.len())];
                let at = rng.below(d.len() + 1);
                d.splice(at..at, t.iter().copied());
            }
            3 => {
                // delete a range
                let a = rng.below(d.len() + 1);
                let b = (a + rng.below(200)).min(d.len());
                d.drain(a..b);
            }
            4 => {
                // duplicate a range
                let a = rng.below(d.len() + 1);
                let b = (a + rng.below(400)).min(d.len());
                let chunk: Vec<u8> = d[a..b].to_vec();
                let at = rng.below(d.len() + 1);
                d.splice(at..at, chunk);
            }
            5 => {
                // replace all spaces on a stretch by tabs or nothing
                let a = rng.below(d.len() + 1);
                let b = (a + rng.below(300)).min(d.len());
                let to = if rng.below(2) == 0 { b'\t' } else { b'\x0b' };
                for c in &mut d[a..b] {
                    if *c == b' ' {
                        *c = to;
                    }
                }
            }
            _ => {
                // swap two lines' worth of bytes
                let a = rng.below(d.len() + 1);
                let b = rng.below(d.len() + 1);
                let (a, b) = (a.min(b), a.max(b));
                let len = (b - a).min(80);
                if a + len <= b && b + len <= d.len() {
                    for i in 0..len {
                        d.swap(a + i, b + i);
                    }
                }
            }
        }
    }
    d
}

/// Splits an mbox into messages (seed material only; no parser under test).
fn seed_messages(data: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while let Some(p) = data[i..].windows(6).position(|w| w == b"\nFrom ") {
        let at = i + p + 1;
        if at > start {
            out.push(data[start..at].to_vec());
        }
        start = at;
        i = at;
    }
    if start < data.len() {
        out.push(data[start..].to_vec());
    }
    out
}

#[test]
fn every_kept_crash_input_and_corpus_file_goes_through_every_parser() {
    let tmp = tempfile::tempdir().unwrap();
    let scratch = tmp.path().join("input");
    let mut files = Vec::new();
    files_under(&root().join("fuzz").join("regressions"), &mut files);
    let kept = files.len();
    files_under(&root().join("corpus"), &mut files);
    assert!(files.len() > kept, "corpus/ must hold files");
    // A fuzzer's grown corpus (never committed) replays here too, with the
    // debug build's overflow checks that the fuzz build lacks.
    if let Some(dir) = std::env::var_os("REGTRACK_FUZZ_CORPUS") {
        files_under(Path::new(&dir), &mut files);
    }
    let mut failures = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let data = std::fs::read(f).unwrap();
        let t = std::time::Instant::now();
        all_parsers(&mut failures, &f.display().to_string(), &data, &scratch);
        // A kept input may be one that took the fuzzer too long (> 10 s).
        if i < kept && t.elapsed() > std::time::Duration::from_secs(10) {
            failures.push(format!("{} took {:?}", f.display(), t.elapsed()));
        }
    }
    eprintln!("replayed {} files ({kept} kept fuzz inputs)", files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mutated_real_format_mail_never_panics_any_parser() {
    let tmp = tempfile::tempdir().unwrap();
    let scratch = tmp.path().join("input");
    let mut seeds: Vec<(String, Vec<u8>)> = Vec::new();
    let mut files = Vec::new();
    files_under(&root().join("corpus"), &mut files);
    if let Some(shared) = std::env::var_os("REGTRACK_SHARED") {
        files_under(&Path::new(&shared).join("corpus"), &mut files);
        files_under(&Path::new(&shared).join("seeds"), &mut files);
    } else {
        crate::common::skip_part_shown(
            "mutating the shared mail",
            "REGTRACK_SHARED is unset (corpus/ and synthetic mail only)",
        );
    }
    for f in files {
        if f.extension().is_some_and(|e| e == "json" || e == "md") {
            continue;
        }
        let data = std::fs::read(&f).unwrap_or_default();
        for (i, m) in seed_messages(&data).into_iter().enumerate().take(40) {
            seeds.push((format!("{}#{i}", f.display()), m));
        }
    }
    let synth = tmp.path().join("synth.mbox");
    crate::common::write_synth(60, 5, &synth);
    for (i, m) in seed_messages(&std::fs::read(&synth).unwrap())
        .into_iter()
        .enumerate()
    {
        seeds.push((format!("synthetic#{i}"), m));
    }
    assert!(!seeds.is_empty());
    let rounds: usize = std::env::var("REGTRACK_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    let mut rng = Rng(0xF022_5EED);
    let mut failures = Vec::new();
    let saved = tmp.path().join("failing");
    std::fs::create_dir_all(&saved).unwrap();
    for round in 0..rounds {
        let (name, seed) = &seeds[rng.below(seeds.len())];
        let data = mutate(&mut rng, seed);
        let before = failures.len();
        let label = format!("mutation {round} of {name}");
        let t = std::time::Instant::now();
        all_parsers(&mut failures, &label, &data, &scratch);
        if t.elapsed() > std::time::Duration::from_secs(1) {
            eprintln!("slow: {label} ({} bytes): {:?}", data.len(), t.elapsed());
        }
        if failures.len() > before {
            // Keep the input for the report; copy it to fuzz/regressions/ by hand.
            let p = saved.join(format!("mutation-{round}"));
            std::fs::write(&p, &data).unwrap();
            let dest = std::env::var_os("REGTRACK_KEEP_FAILING").map(PathBuf::from);
            if let Some(d) = dest {
                let _ = std::fs::copy(&p, d.join(format!("mutation-{round}")));
            }
        }
    }
    eprintln!("{rounds} mutations of {} seeds", seeds.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
