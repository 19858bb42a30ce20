//! Criterion benchmarks of the pure parsing stages, each reporting throughput
//! in bytes: the mbox splitter (`source::files::open_reader` on bytes in
//! memory: detection, `MboxReader`, unquoting), message parsing
//! (`mail::parse`), the whole extraction (`extract::extract`), and the subject
//! (`report::subject::parse_subject`), table (`report::table::parse_tables`)
//! and diff (`evidence::diff::parse_diffs`) grammars on their own.
//!
//! Inputs: every `.mbox`/`.eml` under `corpus/` (concatenated into one mbox),
//! and a synthetic archive written by `regtrack-synth` into a temp dir
//! (`REGTRACK_BENCH_MESSAGES`, default 3000 messages, about 15 MB).
//!
//! ```text
//! cargo bench --bench parse
//! cargo bench --bench parse -- synthetic/split
//! ```

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use regtrack::model::{Message, RawMessage};

/// One benchmark input: an mbox on disk, its split and parsed messages.
struct Input {
    name: &'static str,
    data: Vec<u8>,
    bytes: u64,
    raws: Vec<RawMessage>,
    messages: Vec<Message>,
}

fn collect_corpus(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            // Bad input is measured by the robustness tests, not here.
            if p.file_name().is_some_and(|n| n == "bad") {
                continue;
            }
            collect_corpus(&p, out);
        } else if p.extension().is_some_and(|e| e == "mbox" || e == "eml") {
            out.push(p);
        }
    }
}

/// Concatenates the corpus into one mboxrd file (an `.eml` gets a `From ` line).
fn corpus_mbox(tmp: &Path) -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files = Vec::new();
    collect_corpus(&root, &mut files);
    let mut all = Vec::new();
    for f in files {
        let Ok(data) = std::fs::read(&f) else {
            continue;
        };
        if !data.starts_with(b"From ") {
            all.extend_from_slice(b"From bench@corpus Thu Jan  1 00:00:00 1970\n");
        }
        all.extend_from_slice(&data);
        if !all.ends_with(b"\n") {
            all.push(b'\n');
        }
        all.push(b'\n');
    }
    if all.is_empty() {
        return None;
    }
    let p = tmp.join("corpus.mbox");
    std::fs::write(&p, all).ok()?;
    Some(p)
}

fn synthetic_mbox(tmp: &Path) -> Option<PathBuf> {
    let n: u64 = std::env::var("REGTRACK_BENCH_MESSAGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let p = tmp.join("synthetic.mbox");
    let ok = Command::new(env!("CARGO_BIN_EXE_regtrack-synth"))
        .args(["--messages", &n.to_string(), "--seed", "42", "--out"])
        .arg(&p)
        .status()
        .ok()?
        .success();
    ok.then_some(p)
}

/// Splits an mbox held in memory, as `ingest` would read it from a file.
fn split(data: &[u8]) -> regtrack::Result<regtrack::source::RawStream> {
    regtrack::source::files::open_reader(
        Box::new(std::io::Cursor::new(data.to_vec())),
        regtrack::source::mbox::Place::File("bench.mbox".into()),
        Path::new("bench.mbox"),
        0,
    )
}

fn load(name: &'static str, path: PathBuf) -> Input {
    let data = std::fs::read(&path).unwrap_or_default();
    let bytes = data.len() as u64;
    let raws: Vec<RawMessage> = split(&data)
        .map(|s| s.filter_map(Result::ok).collect())
        .unwrap_or_default();
    let messages: Vec<Message> = raws
        .iter()
        .filter_map(|r| regtrack::mail::parse(r).ok())
        .collect();
    eprintln!(
        "bench input {name}: {} bytes, {} raw messages, {} parsed",
        bytes,
        raws.len(),
        messages.len()
    );
    Input {
        name,
        data,
        bytes,
        raws,
        messages,
    }
}

fn bench_input(c: &mut Criterion, input: &Input) {
    let mut g = c.benchmark_group(input.name);
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));

    g.throughput(Throughput::Bytes(input.bytes));
    g.bench_function("split", |b| {
        b.iter(|| {
            let n = split(black_box(&input.data))
                .map(|s| s.count())
                .unwrap_or(0);
            black_box(n)
        })
    });

    let raw_bytes: u64 = input.raws.iter().map(|r| r.bytes.len() as u64).sum();
    g.throughput(Throughput::Bytes(raw_bytes.max(1)));
    g.bench_function("mail_parse", |b| {
        b.iter(|| {
            for r in &input.raws {
                let _ = black_box(regtrack::mail::parse(black_box(r)));
            }
        })
    });

    let body_bytes: u64 = input.messages.iter().map(|m| m.body.len() as u64).sum();
    g.throughput(Throughput::Bytes(body_bytes.max(1)));
    g.bench_function("extract", |b| {
        b.iter(|| {
            for m in &input.messages {
                black_box(regtrack::extract::extract(black_box(m)));
            }
        })
    });
    grammar_benches(&mut g, input, body_bytes);
    g.finish();
}

/// The subject, table and diff grammars on their own.
fn grammar_benches(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    input: &Input,
    body_bytes: u64,
) {
    let subjects: Vec<&str> = input.messages.iter().map(|m| m.subject.as_str()).collect();
    let subject_bytes: u64 = subjects.iter().map(|s| s.len() as u64).sum();
    g.throughput(Throughput::Bytes(subject_bytes.max(1)));
    g.bench_function("subject", |b| {
        b.iter(|| {
            for s in &subjects {
                black_box(regtrack::report::subject::parse_subject(black_box(s)));
            }
        })
    });
    g.throughput(Throughput::Bytes(body_bytes.max(1)));
    g.bench_function("tables", |b| {
        b.iter(|| {
            for m in &input.messages {
                black_box(regtrack::report::table::parse_tables(black_box(&m.body)));
            }
        })
    });
    g.bench_function("diffs", |b| {
        b.iter(|| {
            for m in &input.messages {
                black_box(regtrack::evidence::diff::parse_diffs(black_box(&m.body)));
            }
        })
    });
}

fn benches(c: &mut Criterion) {
    let tmp = tempfile::tempdir().expect("temp dir");
    if let Some(p) = corpus_mbox(tmp.path()) {
        bench_input(c, &load("corpus", p));
    } else {
        eprintln!("no corpus/ files found; skipping the corpus benchmarks");
    }
    match synthetic_mbox(tmp.path()) {
        Some(p) => bench_input(c, &load("synthetic", p)),
        None => eprintln!("regtrack-synth failed; skipping the synthetic benchmarks"),
    }
}

criterion_group!(parse, benches);
criterion_main!(parse);
