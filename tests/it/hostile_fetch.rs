//! `fetch` and `follow` against a hostile server on 127.0.0.1: a server
//! that dribbles a byte at a time ends within the answer's time limit and
//! holds no other writer back; an answer must hold the message asked for.
//! Every run is bounded in time ([`Cmd::limit`]).

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::lore_server::{Archive, Reply, Server, gzip, report};
use crate::common::{Cmd, corpus, one};

const T0: i64 = 1_704_067_200; // 2024-01-01

/// A regtrack command with the test's own config and cache folders.
fn cmd(home: &Path, db: &Path) -> Cmd {
    Cmd::regtrack()
        .db(db)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env_remove("REGTRACK_CONFIG")
        .limit(Duration::from_secs(120))
}

/// Writes the test's config file.
fn config(home: &Path, text: &str) {
    let dir = home.join("config").join("regtrack");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), text).unwrap();
}

fn messages(db: &Path) -> i64 {
    one::<i64>(db, "SELECT count(*) FROM messages")
}

/// A whole thread's gzip, sent a byte every 200 ms (thousands of seconds).
fn dribbling_server() -> Server {
    let r = report(
        "20240101.robot.1@intel.com",
        T0,
        "1234abcd",
        "fsmark.files_per_sec",
        "-6.3%",
    );
    let gz = gzip(&Archive::mbox(&[&r]));
    Server::start(move |_, _| Reply::Dribble {
        body: gz.clone(),
        every: Duration::from_millis(200),
    })
}

#[test]
fn a_dribbling_server_ends_within_the_answer_time_limit() {
    let server = dribbling_server();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let started = Instant::now();
    let r = cmd(dir.path(), &db)
        .limit(Duration::from_secs(60))
        .args(["fetch", "--timeout", "3", "--base", &server.base])
        .arg("20240101.robot.1@intel.com")
        .run();
    r.assert_no_panic();
    assert_eq!(r.code(), Some(1), "{}", r.stderr);
    assert!(
        r.stderr.contains("no whole answer within 3 s"),
        "{}",
        r.stderr
    );
    assert!(started.elapsed() < Duration::from_secs(30));
    assert!(!db.exists() || messages(&db) == 0);
}

#[test]
fn the_answer_time_limit_comes_from_the_config_file_and_no_writer_waits_behind_a_download() {
    let server = dribbling_server();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    config(dir.path(), "answer_timeout_seconds = 8\n");
    cmd(dir.path(), &db)
        .args(["-q", "ingest"])
        .arg(corpus("report/current-perf-report.eml"))
        .ok();
    let before = messages(&db);
    let mut fetch = cmd(dir.path(), &db)
        .args(["fetch", "--base", &server.base])
        .arg("20240101.robot.1@intel.com")
        .spawn();
    // Wait for the download to start.
    let t = Instant::now();
    while server.count() == 0 && t.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(server.count() > 0, "fetch never asked");
    // Another writer goes ahead while the fetch downloads.
    let other = cmd(dir.path(), &db)
        .limit(Duration::from_secs(6))
        .args(["ingest"])
        .arg(corpus("report/current-perf-report.eml"))
        .run();
    assert!(
        fetch.is_running(),
        "the fetch ended before the other writer"
    );
    assert_eq!(other.code(), Some(0), "{}", other.stderr);
    assert!(
        !other.stderr.contains("waiting for another"),
        "{}",
        other.stderr
    );
    let r = fetch.wait();
    r.assert_no_panic();
    assert_eq!(r.code(), Some(1), "{}", r.stderr);
    assert!(
        r.stderr.contains("no whole answer within 8 s"),
        "{}",
        r.stderr
    );
    assert_eq!(messages(&db), before);
}

#[test]
fn follow_holds_no_writer_back_while_it_downloads() {
    let server = dribbling_server();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let r = report(
        "20240101.robot.1@intel.com",
        T0,
        "1234abcd",
        "fsmark.files_per_sec",
        "-6.3%",
    );
    let mbox = dir.path().join("report.mbox");
    std::fs::write(&mbox, &r.text).unwrap();
    cmd(dir.path(), &db).args(["-q", "ingest"]).arg(&mbox).ok();
    let mut follow = cmd(dir.path(), &db)
        .args(["follow", "--timeout", "6", "--base", &server.base])
        .spawn();
    let t = Instant::now();
    while server.count() == 0 && t.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(server.count() > 0, "follow never asked");
    let other = cmd(dir.path(), &db)
        .limit(Duration::from_secs(5))
        .args(["ingest"])
        .arg(corpus("report/current-perf-report.eml"))
        .run();
    assert!(follow.is_running(), "follow ended before the other writer");
    assert_eq!(other.code(), Some(0), "{}", other.stderr);
    assert!(
        !other.stderr.contains("waiting for another"),
        "{}",
        other.stderr
    );
    let f = follow.wait();
    f.assert_no_panic();
    assert!(
        f.stderr.contains("no whole answer within 6 s"),
        "{}",
        f.stderr
    );
}

#[test]
fn a_thread_answer_without_the_message_asked_for_stores_nothing_and_says_so() {
    let genuine = report(
        "20240101.robot.1@intel.com",
        T0,
        "1234abcd",
        "fsmark.files_per_sec",
        "-6.3%",
    );
    // Asked for another thread, the server sends a forged copy of the report.
    let mut forged = genuine.clone();
    forged.text = forged
        .text
        .replace(
            "From: kernel test robot <oliver.sang@intel.com>",
            "From: Mallory <mallory@evil.example>",
        )
        .replace("-6.3%", "-63.0%");
    let gz = gzip(&Archive::mbox(&[&forged]));
    let server = Server::start(move |_, _| Reply::gzip(gz.clone()));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let r = cmd(dir.path(), &db)
        .args(["fetch", "--base", &server.base, "other.thread@example.org"])
        .run();
    r.assert_no_panic();
    assert_eq!(r.code(), Some(1), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("does not hold <other.thread@example.org>, the message asked for"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("nothing of it was kept"), "{}", r.stderr);
    assert!(!db.exists() || messages(&db) == 0);
}

#[test]
fn a_fetch_ended_by_sigterm_leaves_nothing_in_the_temporary_folder() {
    let server = dribbling_server();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut running = cmd(dir.path(), &db)
        .env("TMPDIR", &tmp)
        .args(["fetch", "--timeout", "60", "--base", &server.base])
        .arg("20240101.robot.1@intel.com")
        .spawn();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(running.is_running(), "the download is still under way");
    let r = running.terminate();
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// A gzip of 600 MiB of mbox (a few MB on the wire): messages of 64 KiB.
fn bomb() -> Vec<u8> {
    use std::io::Write as _;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let body = "x".repeat(64 << 10);
    for i in 0..9600 {
        write!(
            gz,
            "From mboxrd@z Thu Jan  1 00:00:00 1970\nMessage-ID: <{i}@bomb>\nSubject: s\n\n{body}\n"
        )
        .unwrap();
    }
    gz.finish().unwrap()
}

#[test]
fn a_gzip_bomb_is_refused_at_the_limit_without_memory_past_it() {
    let gz = std::sync::Arc::new(bomb());
    for encoded in [false, true] {
        let gz = gz.clone();
        let server = Server::start(move |_, _| {
            let r = Reply::gzip(gz.to_vec());
            if encoded {
                r.with_header("Content-Encoding", "gzip")
            } else {
                r
            }
        });
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("t.db");
        let r = cmd(dir.path(), &db)
            .measure_rss()
            .args(["fetch", "--base", &server.base])
            .arg("20240101.robot.1@intel.com")
            .run();
        r.assert_no_panic();
        assert_ne!(r.code(), Some(0), "{}", r.stderr);
        assert!(
            r.stderr.contains("the most one answer may be") && !r.stderr.contains("partial_ok"),
            "{}",
            r.stderr
        );
        let peak_mib = r.peak_rss_kib.expect("peak RSS measured") / 1024;
        // The limit is 512 MiB of mbox; nothing but it may be that large.
        assert!(peak_mib < 640, "Content-Encoding {encoded}: {peak_mib} MiB");
    }
}
