//! Checks a database against the mbox it was made from: every message's
//! stored body equals the parsed body of its chosen copy, and the raw form
//! of every copy is byte for byte the mbox's message.
use regtrack::store::copies::{Raw, copies, raw_of};
use std::collections::HashMap;
use std::path::Path;
fn main() {
    let mbox = std::env::args().nth(1).unwrap();
    let dbs: Vec<String> = std::env::args().skip(2).collect();
    let raws: Vec<_> = regtrack::source::open(Path::new(&mbox))
        .unwrap()
        .filter_map(Result::ok)
        .collect();
    let mut by_id: HashMap<String, Vec<(Vec<u8>, String, String)>> = HashMap::new();
    for r in &raws {
        if let Ok(m) = regtrack::mail::parse(r) {
            by_id.entry(m.message_id.clone()).or_default().push((
                r.bytes.to_vec(),
                m.content_hash.clone(),
                m.body.clone(),
            ));
        }
    }
    for db in dbs {
        let store = regtrack::store::Store::open(Path::new(&db)).unwrap();
        let (mut ok, mut bad_body, mut bad_raw, mut copies_n) = (0, 0, 0, 0);
        for (id, list) in &by_id {
            let Some(msg) = regtrack::store::body::stored_message(&store, id).unwrap() else {
                println!("missing {id}");
                continue;
            };
            let hash: String = store_hash(&db, id);
            let chosen = list.iter().find(|(_, h, _)| *h == hash);
            match chosen {
                Some((raw, _, body)) => {
                    if msg.body != *body {
                        bad_body += 1;
                        if bad_body < 5 {
                            println!("body differs: {id}");
                        }
                    }
                    match raw_of(&store, id, None).unwrap() {
                        Some(Raw::Stored(b)) if b == *raw => ok += 1,
                        other => {
                            bad_raw += 1;
                            if bad_raw < 5 {
                                println!(
                                    "raw differs: {id} {:?}",
                                    other.map(|r| match r {
                                        Raw::Stored(b) => b.len(),
                                        _ => 0,
                                    })
                                );
                            }
                        }
                    }
                }
                None => println!("no copy with the chosen hash: {id}"),
            }
            let cs = copies(&store, id).unwrap().unwrap();
            if cs.len() > 1 {
                for c in &cs {
                    copies_n += 1;
                    if let Some(Raw::Stored(b)) = raw_of(&store, id, Some(c.copy)).unwrap() {
                        if !list.iter().any(|(r, _, _)| *r == b) {
                            println!("copy {} of {id}: raw matches no mbox copy", c.copy);
                            bad_raw += 1;
                        }
                    }
                }
            }
        }
        println!(
            "{db}: {ok} raw forms and bodies equal, {bad_body} bodies differ, {bad_raw} raw forms differ, {copies_n} copies of messages with several"
        );
    }
}
fn store_hash(db: &str, id: &str) -> String {
    let c = rusqlite::Connection::open(db).unwrap();
    c.query_row(
        "SELECT content_hash FROM messages WHERE message_id = ?1",
        [id],
        |r| r.get(0),
    )
    .unwrap()
}
