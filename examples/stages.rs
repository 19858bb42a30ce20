//! Times each ingest stage alone on one input (no database), to show where
//! ingest time goes: read+split, MIME parse, the compression of the stored
//! bodies and header blocks, extraction, record serialisation.
//!
//! `cargo run --release --example stages -- FILE_OR_EPOCH`
//!
//! Environment: `PER_EXTRACTOR=1` adds one-thread time per extractor;
//! `STORE_DB=path` adds the writer (`STORE_PAGE_SIZE=n` for a new file,
//! `STORE_BATCH=n` messages per `BEGIN IMMEDIATE` transaction);
//! `STAGES_READ_ONLY=1` stops after reading.
use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;
use regtrack::store::messages::Record;

fn main() {
    let path = std::env::args().nth(1).expect("usage: stages PATH");
    let start = || (Instant::now(), cpu());
    let t = start();
    let raws: Vec<_> = regtrack::source::open(Path::new(&path))
        .expect("open")
        .filter_map(Result::ok)
        .collect();
    let bytes: usize = raws.iter().map(|r| r.bytes.len()).sum();
    let mb = bytes as f64 / 1e6;
    // Wall time, throughput, and the CPU time of the stage (both pool
    // threads): mb / cpu is what one core does.
    let report = |name: &str, (t, c): (Instant, f64)| {
        let s = t.elapsed().as_secs_f64();
        let cpu = cpu() - c;
        println!(
            "{name:<28} {s:>7.2} s {:>8.1} MB/s  CPU {cpu:>6.2} s {:>7.1} MB/s a core",
            mb / s,
            mb / cpu.max(1e-3)
        );
    };
    println!("{} messages, {mb:.1} MB", raws.len());
    report("read + split", t);
    if std::env::var_os("STAGES_READ_ONLY").is_some() {
        return;
    }
    let t = start();
    let msgs: Vec<_> = raws
        .par_iter()
        .map(|r| regtrack::mail::parse(r).ok())
        .collect();
    report("mail::parse (parallel)", t);
    let t = start();
    let pairs: Vec<_> = msgs
        .iter()
        .zip(&raws)
        .filter_map(|(m, r)| Some((m.as_ref()?, r)))
        .collect();
    let packed = regtrack::store::messages::packing::pack_messages(&pairs);
    drop(pairs);
    report("pack: LZ4, zstd (parallel)", t);
    let msgs: Vec<_> = msgs
        .into_iter()
        .zip(raws)
        .filter_map(|(m, r)| Some((m?, r.origin)))
        .collect();
    let t = start();
    let ex: Vec<_> = msgs
        .par_iter()
        .map(|(m, _)| regtrack::extract::extract(m))
        .collect();
    report("extract (parallel)", t);
    if std::env::var_os("PER_EXTRACTOR").is_some() {
        let only: Vec<_> = msgs.iter().map(|(m, _)| m.clone()).collect();
        per_extractor(&only);
    }
    let t = start();
    let recs: Vec<_> = msgs
        .into_par_iter()
        .zip(packed)
        .zip(ex)
        .map(|(((m, origin), p), e)| {
            let rec = Record::new(m, origin, e);
            match p {
                Some(p) => rec.with_packed(p),
                None => rec,
            }
        })
        .collect();
    report("Record::new (parallel)", t);
    println!("{} records", recs.len());
    if let Some(db) = std::env::var_os("STORE_DB") {
        let _ = std::fs::remove_file(&db);
        if let Ok(ps) = std::env::var("STORE_PAGE_SIZE") {
            let c = rusqlite::Connection::open(&db).expect("db");
            c.execute_batch(&format!("PRAGMA page_size={ps}; VACUUM;"))
                .expect("page size");
        }
        let store = regtrack::store::Store::open(Path::new(&db)).expect("db");
        let c0 = cpu();
        let (r0, w0) = io();
        let t = start();
        let per: usize = std::env::var("STORE_BATCH")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(regtrack::pipeline::ingest::BATCH_MESSAGES);
        let mut blocks = regtrack::store::messages::packing::BodyBlocks::default();
        for chunk in recs.chunks(per) {
            store
                .in_write("stages: insert", |store| {
                    for r in chunk {
                        regtrack::store::messages::insert_record(store, r, 0, &mut blocks)?;
                    }
                    Ok(())
                })
                .expect("insert");
        }
        report("store (one thread)", t);
        let (r1, w1) = io();
        println!(
            "  store CPU {:.2} s (user+sys), {:.0} MB written, {:.0} MB read by syscalls",
            cpu() - c0,
            (w1 - w0) / 1e6,
            (r1 - r0) / 1e6
        );
    }
}

/// Per-extractor CPU time over all messages (one thread), to find hot extractors.
#[allow(dead_code)]
pub fn per_extractor(msgs: &[regtrack::model::Message]) {
    use regtrack::evidence::*;
    let mut times: Vec<(&str, f64)> = Vec::new();
    let mut add = |name: &'static str, t: Instant| {
        let s = t.elapsed().as_secs_f64();
        match times.iter_mut().find(|(n, _)| *n == name) {
            Some(e) => e.1 += s,
            None => times.push((name, s)),
        }
    };
    for msg in msgs {
        let mut ex = regtrack::model::Extraction::default();
        let t = Instant::now();
        regtrack::report::extract_report(msg, &mut ex);
        add("report (subject, kind, lkp tables)", t);
        let t = Instant::now();
        let view = BodyView::new(&msg.body);
        add("BodyView", t);
        let t = Instant::now();
        let scan = diff::scan(&view);
        add("diff", t);
        let t = Instant::now();
        let trailers = trailer::trailers_in(&view, &scan.in_diff);
        add("trailers", t);
        let t = Instant::now();
        ex.commits = commits::commits_in(&view, &scan.in_diff);
        add("commits", t);
        let t = Instant::now();
        ex.tables.extend(mmtests::tables_in(&view));
        add("mmtests", t);
        let t = Instant::now();
        ex.tables.extend(stressng::tables_in(&view));
        add("stressng", t);
        let t = Instant::now();
        ex.profiles = profile::profiles_in(&view);
        add("profile", t);
        let t = Instant::now();
        ex.reproducers = reproducer::reproducers_in(&view, &scan.in_diff);
        add("reproducer", t);
        let t = Instant::now();
        ex.kconfig = kconfig::changes_in(&view);
        add("kconfig", t);
        let t = Instant::now();
        let paras = view.paragraphs(&scan.in_diff);
        add("paragraphs", t);
        let t = Instant::now();
        let mut signals = signal::sentence_signals_in(&paras, view.collapsed);
        add("sentence signals", t);
        let t = Instant::now();
        signals.extend(signal::trailer_signals(&trailers));
        signals.extend(signal::table_signals(&ex));
        add("other signals", t);
        let t = Instant::now();
        ex.events.extend(events::events_in(&view, &scan.in_diff));
        add("events", t);
        let t = Instant::now();
        let _ = lore::links_in(&view, &scan.in_diff);
        add("lore", t);
        let t = Instant::now();
        let _ = patch::patch_facts(msg, ex.kind, &view, &scan.in_diff, &scan.files);
        add("patch facts", t);
        let t = Instant::now();
        let _ = landing::landings_in(msg, &view, &scan.in_diff);
        add("landings", t);
    }
    times.sort_by(|a, b| b.1.total_cmp(&a.1));
    for (n, s) in times {
        println!("  {n:<36} {s:>6.2} s");
    }
}

/// Process CPU seconds (user + system) from /proc/self/stat.
fn cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Bytes read and written through syscalls so far (rchar, wchar of /proc/self/io).
fn io() -> (f64, f64) {
    let io = std::fs::read_to_string("/proc/self/io").unwrap_or_default();
    let field = |k: &str| {
        io.lines()
            .find_map(|l| l.strip_prefix(k))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (field("rchar:"), field("wchar:"))
}
