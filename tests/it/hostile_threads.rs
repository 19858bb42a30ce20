//! Threading cost of hostile References headers: a message naming 200,000
//! ids ingests and links in time linear in them (measured against one naming
//! 20,000), and threads under its last few hundred distinct ids.

use std::path::Path;
use std::time::Duration;

use crate::common::{Cmd, one};

/// An mbox of one reply whose References name `n` ids (`<rI@x.org>`, one
/// per folded line) and whose In-Reply-To is the last of them.
fn references_mbox(n: usize) -> Vec<u8> {
    let mut refs = String::with_capacity(n * 16);
    for i in 0..n {
        if i > 0 {
            refs.push_str("\n ");
        }
        refs.push_str(&format!("<r{i}@x.org>"));
    }
    format!(
        "From a@b Mon Jan  1 00:00:00 2024\n\
         From: someone <s@x.org>\n\
         Subject: Re: a long thread\n\
         Date: Mon, 1 Jan 2024 00:00:00 +0000\n\
         Message-ID: <big{n}@x.org>\n\
         In-Reply-To: <r{last}@x.org>\n\
         References: {refs}\n\
         \n\
         hello\n",
        last = n - 1
    )
    .into_bytes()
}

/// Ingests the `n`-reference message into a database of its own in `dir`;
/// the wall time of the run.
fn ingest_references(dir: &Path, n: usize) -> Duration {
    let mbox = dir.join(format!("refs{n}.mbox"));
    std::fs::write(&mbox, references_mbox(n)).unwrap();
    let db = dir.join(format!("refs{n}.db"));
    let run = Cmd::regtrack()
        .db(&db)
        .args(["ingest", "--quiet"])
        .arg(&mbox)
        .limit(Duration::from_secs(120))
        .ok();
    let depth: i64 = one(
        &db,
        &format!(
            "SELECT t.depth FROM threads t JOIN messages m ON m.id = t.message \
             WHERE m.message_id = 'big{n}@x.org'"
        ),
    );
    let parent: String = one(
        &db,
        &format!(
            "SELECT t.parent_id FROM threads t JOIN messages m ON m.id = t.message \
             WHERE m.message_id = 'big{n}@x.org'"
        ),
    );
    assert_eq!(parent, format!("r{}@x.org", n - 1));
    assert_eq!(
        depth as usize,
        regtrack::link::thread::MAX_REFERENCES,
        "threaded under its last {} distinct references",
        regtrack::link::thread::MAX_REFERENCES
    );
    run.elapsed
}

#[test]
fn two_hundred_thousand_references_thread_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let small = ingest_references(dir.path(), 20_000);
    let large = ingest_references(dir.path(), 200_000);
    // Ten times the references: linear is about ten times the time (the
    // 20,000 run floored at 0.25 s, below which start-up noise rules);
    // quadratic was a hundred times (2.2 s against about 190 s, debug).
    let floor = small.max(Duration::from_millis(250));
    assert!(
        large < floor * 25,
        "200,000 references took {large:?}, 20,000 took {small:?}"
    );
}
