//! Checks a database against the mbox (or any input `ingest` reads) it was
//! made from: every message's stored body equals the body of its chosen
//! copy as parsed now, its raw form the input's bytes of that copy, and
//! each stored copy's raw form one of the input's copies of its Message-ID.
//! Exits 1 when anything differs.
//!
//! `cargo run --release --example raw_check -- INPUT DB...`
use std::collections::HashMap;
use std::path::Path;

use regtrack::store::copies::{Raw, copies, raw_of};

/// The input's copies of one Message-ID: raw bytes, content hash, body.
type Copies = Vec<(Vec<u8>, String, String)>;

fn main() {
    let mut args = std::env::args().skip(1);
    let input = args.next().expect("usage: raw_check INPUT DB...");
    let dbs: Vec<String> = args.collect();
    let mut by_id: HashMap<String, Copies> = HashMap::new();
    for raw in regtrack::source::open(Path::new(&input))
        .expect("open the input")
        .filter_map(Result::ok)
    {
        if let Ok(m) = regtrack::mail::parse(&raw) {
            by_id.entry(m.message_id.clone()).or_default().push((
                raw.bytes.to_vec(),
                m.content_hash,
                m.body,
            ));
        }
    }
    let mut failed = false;
    for db in dbs {
        let store = regtrack::store::Store::open_read_only(Path::new(&db)).expect("open the db");
        let hashes = content_hashes(&db);
        let (mut same, mut differ, mut several) = (0, 0, 0);
        for (id, list) in &by_id {
            let mut bad = |what: &str| {
                differ += 1;
                if differ <= 10 {
                    eprintln!("{db}: <{id}>: {what}");
                }
            };
            let Some(msg) = regtrack::store::body::stored_message(&store, id).expect("read") else {
                bad("not stored");
                continue;
            };
            let Some((raw, _, body)) = list.iter().find(|(_, h, _)| Some(h) == hashes.get(id))
            else {
                bad("no copy in the input has the stored content hash");
                continue;
            };
            let raw_ok = matches!(raw_of(&store, id, None).expect("read"), Some(Raw::Stored(b)) if b == *raw);
            match (msg.body == *body, raw_ok) {
                (true, true) => same += 1,
                (false, _) => bad("the stored body differs"),
                (_, false) => bad("the raw form differs"),
            }
            let stored = copies(&store, id).expect("read").unwrap_or_default();
            if stored.len() > 1 {
                for c in &stored {
                    several += 1;
                    if let Some(Raw::Stored(b)) = raw_of(&store, id, Some(c.copy)).expect("read")
                        && !list.iter().any(|(r, _, _)| *r == b)
                    {
                        bad(&format!(
                            "copy {}'s raw form is none of the input's",
                            c.copy
                        ));
                    }
                }
            }
        }
        println!(
            "{db}: {same} messages with the same body and raw form, {differ} differ; \
             {several} copies of messages with several checked"
        );
        failed |= differ > 0;
    }
    std::process::exit(i32::from(failed));
}

/// The stored content hash of every message, by Message-ID.
fn content_hashes(db: &str) -> HashMap<String, String> {
    let conn = rusqlite::Connection::open(db).expect("open the db");
    let mut st = conn
        .prepare("SELECT message_id, content_hash FROM messages")
        .expect("prepare");
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<rusqlite::Result<_>>()
        .expect("rows")
}
