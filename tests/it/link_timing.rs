//! Times `link::relink` stages on an existing database named by env
//! `REGTRACK_TIMING_DB` (load, build, write); without it, prints a note and passes.
//! Run: `REGTRACK_TIMING_DB=/tmp/x.db cargo test --test it link_timing -- --nocapture`.

use std::time::Instant;

#[test]
fn relink_stages_are_timed_on_a_given_database() {
    let Some(path) = std::env::var_os("REGTRACK_TIMING_DB") else {
        crate::common::skip("REGTRACK_TIMING_DB is unset");
        return;
    };
    let mut store = regtrack::store::Store::open(std::path::Path::new(&path)).expect("open");
    let t = Instant::now();
    let (input, _) = regtrack::pipeline::relink::load_input_of(&store, None).expect("load");
    let load = t.elapsed();
    let t = Instant::now();
    let tm: Vec<regtrack::link::thread::ThreadMsg<'_>> = input
        .messages
        .iter()
        .map(|m| regtrack::link::thread::ThreadMsg {
            message_id: &m.message_id,
            in_reply_to: m.in_reply_to.as_deref(),
            references: &m.references,
            subject: &m.subject,
            date: m.date,
        })
        .collect();
    let th = regtrack::link::thread::thread(&tm);
    eprintln!(
        "threading alone: {:?} ({} roots)",
        t.elapsed(),
        th.depth.iter().filter(|&&d| d == 0).count()
    );
    let t = Instant::now();
    let out = regtrack::link::build(&input);
    let build = t.elapsed();
    let t = Instant::now();
    regtrack::pipeline::relink::write_output(&mut store, &input, &out).expect("write");
    let write = t.elapsed();
    eprintln!(
        "messages {} regressions {} attached {}: load {load:?} build {build:?} write {write:?}",
        input.messages.len(),
        out.regressions.len(),
        out.regressions
            .iter()
            .map(|r| r.attached.len())
            .sum::<usize>()
    );
    assert_eq!(out.threads.len(), input.messages.len());
}
