//! Measures `regtrack::trees` on a repository (see `benches/trees.md`).
//!
//! ```text
//! trees_walk walk REPO REF [SINCE]      walk REF (from SINCE), print counts
//! trees_walk ids REPO REF [SINCE]       the same, printing the ids delivered
//!                                       and `vanished <id>` lines
//! trees_walk releases REPO [FILE]       build the release index (or load FILE
//!                                       and update it), save it to FILE, time
//!                                       loading and lookups
//! trees_walk first-release FILE         for each commit id on standard input,
//!                                       the tag FILE (an index) gives it
//! trees_walk contains REPO REF COMMIT   is COMMIT in REF?
//! trees_walk patch-id REPO COMMIT       stable patch id of COMMIT
//! ```
//! Each prints its elapsed time and the process's peak resident memory.

use std::ops::ControlFlow;
use std::time::Instant;

use regtrack::trees::{ObjectId, ReleaseIndex, Repo};

fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Current anonymous and file-backed resident memory (MiB), from
/// `/proc/self/status`.
fn rss_split_mib() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("RssAnon:"), field("RssFile:"))
}

fn id(hex: &str) -> Result<ObjectId, String> {
    ObjectId::from_hex(hex.as_bytes()).map_err(|e| format!("{hex}: {e}"))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str);
    let t0 = Instant::now();
    match (arg(0), arg(1)) {
        (Some("ids"), Some(path)) => {
            let repo = Repo::open(path)?;
            let since = arg(3).map(id).transpose()?;
            let out = repo.walk(arg(2).unwrap_or("HEAD"), since, |c| {
                println!("{}", c.id);
                ControlFlow::Continue(())
            })?;
            for v in out.vanished {
                println!("vanished {v}");
            }
            return Ok(());
        }
        (Some("walk"), Some(path)) => {
            let refname = arg(2).unwrap_or("HEAD");
            let since = arg(3).map(id).transpose()?;
            let repo = Repo::open(path)?;
            let (mut trailers, mut fixes, mut robot, mut reverts, mut upstream, mut merges) =
                (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
            let (mut max_anon, mut max_file) = (0f64, 0f64);
            let mut n = 0u64;
            let out = repo.walk(refname, since, |c| {
                n += 1;
                if n % 20_000 == 0 {
                    let (anon, file) = rss_split_mib();
                    max_anon = max_anon.max(anon);
                    max_file = max_file.max(file);
                }
                trailers += u64::from(!c.trailers.is_empty());
                fixes += u64::from(c.trailers.iter().any(|t| t.key == "Fixes"));
                robot += u64::from(
                    c.trailers
                        .iter()
                        .any(|t| t.key == "Reported-by" && t.value.contains("kernel test robot")),
                );
                reverts += u64::from(c.reverts.is_some());
                upstream += u64::from(c.upstream.is_some());
                merges += u64::from(c.parents.len() > 1);
                ControlFlow::Continue(())
            })?;
            let secs = t0.elapsed().as_secs_f64();
            println!("tip {}", out.tip);
            println!(
                "delivered {} commits in {secs:.2} s ({:.0} commits/s); merges {merges}, with kept trailers {trailers}, Fixes {fixes}, robot reports {robot}, reverts {reverts}, upstream {upstream}",
                out.delivered,
                out.delivered as f64 / secs
            );
            if max_anon > 0.0 {
                println!(
                    "sampled every 20,000 commits: max anonymous RSS {max_anon:.1} MiB, max file-backed RSS {max_file:.1} MiB"
                );
            }
            println!(
                "forced {}, vanished {}, merge bases {}, shallow {}",
                out.forced,
                out.vanished.len(),
                out.merge_bases.len(),
                out.shallow
            );
        }
        (Some("releases"), Some(path)) => {
            let repo = Repo::open(path)?;
            let file = arg(2);
            let mut index = match file.map(std::fs::read) {
                Some(Ok(bytes)) => {
                    let t = Instant::now();
                    let index = ReleaseIndex::from_bytes(&bytes)?;
                    println!(
                        "loaded {} commits, {} tags from {} bytes in {:.3} s",
                        index.len(),
                        index.tags().len(),
                        bytes.len(),
                        t.elapsed().as_secs_f64()
                    );
                    index
                }
                _ => ReleaseIndex::new(),
            };
            let t = Instant::now();
            let up = index.update(&repo)?;
            println!(
                "update: {} new tags, {} commits assigned, rebuilt {}, in {:.2} s",
                up.new_tags.len(),
                up.commits,
                up.rebuilt,
                t.elapsed().as_secs_f64()
            );
            let t = Instant::now();
            let bytes = index.to_bytes();
            println!(
                "to_bytes: {} bytes ({:.1} per commit) in {:.3} s",
                bytes.len(),
                bytes.len() as f64 / index.len().max(1) as f64,
                t.elapsed().as_secs_f64()
            );
            if let Some(f) = file {
                std::fs::write(f, &bytes)?;
            }
            // Lookups: every tag's commit, repeated, and as many misses.
            let probes: Vec<ObjectId> = index.tags().iter().map(|t| t.commit).collect();
            let rounds = (1_000_000 / probes.len().max(1)).max(1);
            let t = Instant::now();
            let mut hits = 0usize;
            for _ in 0..rounds {
                for p in &probes {
                    hits += usize::from(index.first_release(p).is_some());
                }
            }
            let n = rounds * probes.len();
            println!(
                "first_release: {n} lookups of tagged commits, {hits} hits, {:.0} ns each",
                t.elapsed().as_nanos() as f64 / n.max(1) as f64
            );
            let miss = ObjectId::from_hex(b"0123456789abcdef0123456789abcdef01234567")?;
            let t = Instant::now();
            let mut found = 0usize;
            for _ in 0..n {
                found += usize::from(index.first_release(std::hint::black_box(&miss)).is_some());
            }
            println!(
                "first_release: {n} misses ({found} found), {:.0} ns each",
                t.elapsed().as_nanos() as f64 / n.max(1) as f64
            );
            if let Some(last) = index.tags().last() {
                println!("newest tag {} released {} commits", last.name, last.commits);
            }
        }
        (Some("first-release"), Some(file)) => {
            let index = ReleaseIndex::from_bytes(&std::fs::read(file)?)?;
            for line in std::io::stdin().lines() {
                let line = line?;
                let c = id(line.trim())?;
                let tag = index.first_release(&c).map_or("-", |t| t.name.as_str());
                println!("{c} {tag}");
            }
            return Ok(());
        }
        (Some("contains"), Some(path)) => {
            let repo = Repo::open(path)?;
            let refname = arg(2).ok_or("REF missing")?;
            let commit = id(arg(3).ok_or("COMMIT missing")?)?;
            println!("{}", repo.contains(refname, &commit)?);
        }
        (Some("patch-id"), Some(path)) => {
            let repo = Repo::open(path)?;
            let commit = id(arg(2).ok_or("COMMIT missing")?)?;
            match repo.patch_id(&commit)? {
                Some(p) => println!("{p} {commit}"),
                None => println!("(empty diff)"),
            }
        }
        _ => {
            eprintln!("usage: trees_walk walk|releases|contains|patch-id REPO ...");
            std::process::exit(2);
        }
    }
    println!(
        "elapsed {:.2} s, peak RSS {:.1} MiB",
        t0.elapsed().as_secs_f64(),
        peak_rss_mib()
    );
    Ok(())
}
