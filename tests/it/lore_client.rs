//! The lore client against a public-inbox look-alike on 127.0.0.1 (tests/lore_server):
//! what each call returns, retries and their delays, the cache and offline mode, and
//! bad answers. Every client here is pointed at the local server, takes no proxy from
//! the environment and follows no redirect off it, so nothing leaves loopback.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::lore_server::{
    self, Archive, Msg, Reply, Server, gzip, reply, report, unrelated,
};
use regtrack::lore::{
    CacheMode, Client, Config, DateField, Limits, LoreError, Partial, Progress, Search,
    parse_target,
};

/// A config for `server` with short timeouts and delays, caching under `cache`.
fn cfg(server: &Server, cache: &std::path::Path) -> Config {
    assert!(
        server.base.starts_with("http://127.0.0.1:"),
        "tests talk to loopback only"
    );
    Config {
        base: server.base.clone(),
        cache_dir: Some(cache.to_path_buf()),
        connect_timeout: Duration::from_secs(2),
        read_timeout: Duration::from_millis(500),
        retries: 3,
        backoff_base: Duration::from_millis(40),
        backoff_cap: Duration::from_secs(2),
        requests_per_second: 0.0,
        env_proxy: false,
        ..Config::default()
    }
}

fn events(client: Client) -> (Client, Arc<Mutex<Vec<Progress>>>) {
    let log: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let l = log.clone();
    (
        client.with_progress(move |p| l.lock().unwrap().push(p.clone())),
        log,
    )
}

const T0: i64 = 1_704_067_200; // 2024-01-01

/// Three report threads with replies, and unrelated mail.
fn archive() -> Archive {
    let r1 = report(
        "20240101.robot.1@intel.com",
        T0,
        "1234abcd",
        "fsmark.files_per_sec",
        "-6.3%",
    );
    let a1 = reply(
        "reply.1a@suse.cz",
        &r1,
        T0 + 3600,
        "Jan Kara <jack@suse.cz>",
    );
    let a2 = reply(
        "reply.1b@mit.edu",
        &a1,
        T0 + 7200,
        "Theodore Ts'o <tytso@mit.edu>",
    );
    let r2 = report(
        "20240201.robot.2@intel.com",
        T0 + 31 * 86400,
        "5678ef01",
        "fio.write_iops",
        "-12.0%",
    );
    let b1 = reply(
        "reply.2a@suse.cz",
        &r2,
        T0 + 40 * 86400,
        "Jan Kara <jack@suse.cz>",
    );
    let r3 = report(
        "odd/id%with?chars#@intel.com",
        T0 + 60 * 86400,
        "9abc2345",
        "stress-ng.ops",
        "-3.1%",
    );
    let other = unrelated(T0 + 10);
    Archive {
        msgs: vec![r1, other, a1, a2, r2, b1, r3],
    }
}

fn archive_server() -> (Server, Archive) {
    let a = archive();
    let served = a.clone();
    (Server::start(move |req, _| served.respond(req)), a)
}

#[test]
fn thread_by_id_and_every_url_form() {
    let (server, a) = archive_server();
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(Config {
        cache_mode: CacheMode::Off,
        ..cfg(&server, dir.path())
    });
    let want = Archive::mbox(&a.thread_of("20240101.robot.1@intel.com"));
    let inputs = [
        "<reply.1a@suse.cz>".to_string(),
        "id:20240101.robot.1@intel.com".to_string(),
        format!("{}/linux-ext4/reply.1b@mit.edu/T/#u", server.base),
        format!("{}/all/20240101.robot.1%40intel.com/t.mbox.gz", server.base),
        format!("{}/r/reply.1a@suse.cz", server.base),
    ];
    for input in &inputs {
        let m = client
            .thread_of(input)
            .unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(m.messages, 3, "{input}");
        assert_eq!(m.bytes, want, "{input}");
        assert_eq!(m.partial, None);
        assert!(!m.from_cache);
        assert_eq!(
            m.message_ids()[0].as_deref(),
            Some("20240101.robot.1@intel.com")
        );
    }
    let reqs = server.requests();
    assert_eq!(reqs.len(), inputs.len());
    for r in &reqs {
        assert_eq!(r.method, "GET");
        assert!(
            r.raw_path.starts_with("/all/") && r.raw_path.ends_with("/t.mbox.gz"),
            "{}",
            r.raw_path
        );
        assert_eq!(
            r.header("user-agent"),
            Some(concat!("regtrack/", env!("CARGO_PKG_VERSION")))
        );
    }
    // A Message-ID with '/', '%', '?' and '#' goes percent-encoded and is found.
    let m = client
        .thread(&parse_target("<odd/id%with?chars#@intel.com>").unwrap())
        .unwrap();
    assert_eq!(m.messages, 1);
    assert_eq!(
        server.requests().last().unwrap().raw_path,
        "/all/odd%2Fid%25with%3Fchars%23@intel.com/t.mbox.gz"
    );
}

#[test]
fn not_found_and_html_and_junk() {
    let (server, _) = archive_server();
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(cfg(&server, dir.path()));
    match client.thread_of("<nosuch@example.org>") {
        Err(LoreError::NotFound { url }) => {
            assert_eq!(
                url,
                format!("{}/all/nosuch@example.org/t.mbox.gz", server.base)
            )
        }
        other => panic!("{other:?}"),
    }
    // HTML where an mbox belongs: by Content-Type, and by sniffing a mislabelled one.
    let page = b"<!DOCTYPE html><html><head><title>lore.kernel.org is down for maintenance</title></head></html>";
    let html = Server::start(move |req, _| {
        if req.path.contains("labelled") {
            Reply::gzip(page.to_vec())
        } else {
            Reply::status(200, "text/html", page)
        }
    });
    let client = Client::new(cfg(&html, dir.path()));
    for id in ["<a@b>", "<labelled@b>"] {
        match client.thread_of(id) {
            Err(LoreError::Html { title, status, url }) => {
                assert_eq!(status, 200);
                assert_eq!(title, "lore.kernel.org is down for maintenance");
                assert!(url.starts_with(&html.base));
            }
            other => panic!("{other:?}"),
        }
    }
    let junk =
        Server::start(|_, _| Reply::status(200, "application/json", b"{\"error\": \"nope\"}"));
    let client = Client::new(cfg(&junk, dir.path()));
    assert!(matches!(
        client.thread_of("<a@b>"),
        Err(LoreError::NotMbox { .. })
    ));
    // Nothing failed was cached.
    assert_eq!(
        std::fs::read_dir(dir.path())
            .map(|d| d.count())
            .unwrap_or(0),
        0
    );
}

#[test]
fn cache_answers_within_ttl_and_offline_makes_no_request() {
    let (server, _) = archive_server();
    let dir = tempfile::tempdir().unwrap();
    let id = "<20240201.robot.2@intel.com>";
    // Offline with an empty cache: a clear error, no request.
    let offline = Client::new(Config {
        cache_mode: CacheMode::Offline,
        ..cfg(&server, dir.path())
    });
    match offline.thread_of(id) {
        Err(LoreError::NotCached { url }) => assert!(url.ends_with("/t.mbox.gz")),
        other => panic!("{other:?}"),
    }
    assert_eq!(server.count(), 0);

    let (client, log) = events(Client::new(cfg(&server, dir.path())));
    let first = client.thread_of(id).unwrap();
    assert_eq!((first.messages, first.from_cache), (2, false));
    for _ in 0..3 {
        let again = client.thread_of(id).unwrap();
        assert!(again.from_cache);
        assert_eq!(again.bytes, first.bytes);
    }
    // Another client on the same cache, as another run would be.
    let other = Client::new(cfg(&server, dir.path()));
    assert!(other.thread_of(id).unwrap().from_cache);
    assert_eq!(server.count(), 1, "fetched once within the TTL");
    assert!(
        log.lock()
            .unwrap()
            .iter()
            .any(|p| matches!(p, Progress::CacheHit { .. }))
    );

    // Offline now answers from the cache, even once the entry is past its TTL.
    std::thread::sleep(Duration::from_millis(30));
    let offline = Client::new(Config {
        cache_mode: CacheMode::Offline,
        cache_ttl: Duration::from_millis(1),
        ..cfg(&server, dir.path())
    });
    let m = offline.thread_of(id).unwrap();
    assert!(m.from_cache && m.messages == 2);
    assert_eq!(server.count(), 1);

    // Past the TTL a normal client fetches again; Refresh always does.
    let short = Client::new(Config {
        cache_ttl: Duration::from_millis(1),
        ..cfg(&server, dir.path())
    });
    assert!(!short.thread_of(id).unwrap().from_cache);
    assert_eq!(server.count(), 2);
    let refresh = Client::new(Config {
        cache_mode: CacheMode::Refresh,
        ..cfg(&server, dir.path())
    });
    assert!(!refresh.thread_of(id).unwrap().from_cache);
    assert_eq!(server.count(), 3);

    // The cache holds whole files only: no temporary file left behind.
    let mut files = Vec::new();
    for sub in std::fs::read_dir(dir.path().join("lore")).unwrap() {
        for f in std::fs::read_dir(sub.unwrap().path()).unwrap() {
            files.push(f.unwrap().path());
        }
    }
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(
        std::fs::read(&files[0])
            .unwrap()
            .starts_with(b"regtrack-lore-cache 1\nbody\nGET ")
    );
}

/// A client on the archive server with an empty cache, the report's
/// thread asked of it, and the cache file its answer goes to (its folder
/// made).
struct CacheCase {
    server: Server,
    dir: tempfile::TempDir,
    client: Client,
    id: &'static str,
    url: String,
    path: std::path::PathBuf,
}

fn cache_case() -> CacheCase {
    let (server, _) = archive_server();
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(cfg(&server, dir.path()));
    let id = "<20240101.robot.1@intel.com>";
    let url = client.thread_url_of(&parse_target(id).unwrap());
    let path = client.cache().unwrap().path_for("GET", &url);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    CacheCase {
        server,
        dir,
        client,
        id,
        url,
        path,
    }
}

#[test]
fn a_half_written_cache_file_is_a_miss() {
    let CacheCase {
        server,
        dir: _dir,
        client,
        id,
        url,
        path,
    } = cache_case();
    // What a torn write would leave if the file were written in place.
    let whole = gzip(b"From mboxrd@z Thu Jan  1 00:00:00 1970\nMessage-ID: <x@y>\n\nbody\n");
    let mut torn = format!("regtrack-lore-cache 1\nbody\nGET {url}\n").into_bytes();
    torn.extend_from_slice(&whole[..whole.len() / 2]);
    std::fs::write(&path, torn).unwrap();
    let (client, log) = events(client);
    let m = client.thread_of(id).unwrap();
    assert_eq!((m.messages, m.from_cache), (3, false));
    assert_eq!(server.count(), 1);
    assert!(
        log.lock()
            .unwrap()
            .iter()
            .any(|p| matches!(p, Progress::Warning { .. }))
    );
    assert!(
        client.thread_of(id).unwrap().from_cache,
        "the refetch replaced it"
    );
}

#[test]
fn an_endless_or_foreign_cache_entry_is_named_not_read_or_missed() {
    let CacheCase {
        server,
        dir,
        client,
        id,
        path,
        ..
    } = cache_case();
    // A symlink to an endless file: refused unread (this would otherwise
    // fill memory), named, offline; fetched again otherwise.
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    let offline = Client::new(Config {
        cache_mode: CacheMode::Offline,
        ..cfg(&server, dir.path())
    });
    match offline.thread_of(id) {
        Err(e @ LoreError::CacheCorrupt { .. }) => {
            assert!(e.to_string().contains("not a regular file"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    // Garbage where an entry should be: unusable, not "not in the cache".
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, b"garbage").unwrap();
    match offline.thread_of(id) {
        Err(e @ LoreError::CacheCorrupt { .. }) => {
            assert!(e.to_string().contains("is unusable"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    let (client, log) = events(client);
    let m = client.thread_of(id).unwrap();
    assert!(!m.from_cache);
    assert!(
        log.lock().unwrap().iter().any(
            |p| matches!(p, Progress::Warning { message } if message.contains("fetching again"))
        )
    );
}

#[test]
fn unavailable_then_success_backs_off_exponentially() {
    let (served, _) = (archive(), ());
    let server = Server::start(move |req, n| {
        if n < 2 {
            Reply::status(503, "text/plain", b"Service Unavailable\n")
        } else {
            served.respond(req)
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let (client, log) = events(Client::new(cfg(&server, dir.path())));
    let m = client.thread_of("<20240101.robot.1@intel.com>").unwrap();
    assert_eq!(m.messages, 3);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    let delays: Vec<Duration> = log
        .lock()
        .unwrap()
        .iter()
        .filter_map(|p| match p {
            Progress::Retry { delay, .. } => Some(*delay),
            _ => None,
        })
        .collect();
    assert_eq!(
        delays,
        vec![Duration::from_millis(40), Duration::from_millis(80)]
    );
    assert!(reqs[1].at - reqs[0].at >= Duration::from_millis(40));
    assert!(reqs[2].at - reqs[1].at >= Duration::from_millis(80));
}

#[test]
fn too_many_requests_honours_retry_after() {
    let served = archive();
    // Seconds, then an HTTP date already past (retry at once), then the answer.
    let server = Server::start(move |req, n| match n {
        0 => Reply::status(429, "text/plain", b"slow down\n").with_header("Retry-After", "1"),
        1 => Reply::status(429, "text/plain", b"slow down\n")
            .with_header("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT"),
        _ => served.respond(req),
    });
    let dir = tempfile::tempdir().unwrap();
    let (client, log) = events(Client::new(cfg(&server, dir.path())));
    let m = client.thread_of("<20240101.robot.1@intel.com>").unwrap();
    assert_eq!(m.messages, 3);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    assert!(
        reqs[1].at - reqs[0].at >= Duration::from_secs(1),
        "waited Retry-After: 1"
    );
    let delays: Vec<Duration> = log
        .lock()
        .unwrap()
        .iter()
        .filter_map(|p| match p {
            Progress::Retry { delay, .. } => Some(*delay),
            _ => None,
        })
        .collect();
    assert_eq!(delays, vec![Duration::from_secs(1), Duration::ZERO]);

    // A Retry-After past the cap: no hammering, an error saying so after one request.
    let patient = Server::start(|_, _| {
        Reply::status(429, "text/plain", b"").with_header("Retry-After", "3600")
    });
    let client = Client::new(cfg(&patient, dir.path()));
    match client.thread_of("<a@b>") {
        Err(LoreError::RetryAfterTooLong { wait, cap, .. }) => {
            assert_eq!(
                (wait, cap),
                (Duration::from_secs(3600), Duration::from_secs(2))
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(patient.count(), 1);
}

#[test]
fn retries_run_out() {
    let server = Server::start(|_, _| Reply::status(500, "text/plain", b"Internal server error\n"));
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(Config {
        retries: 2,
        backoff_base: Duration::from_millis(5),
        ..cfg(&server, dir.path())
    });
    match client.thread_of("<a@b>") {
        Err(LoreError::Status {
            status,
            attempts,
            url,
        }) => {
            assert_eq!((status, attempts), (500, 3));
            assert!(url.starts_with(&server.base));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(server.count(), 3);
}

#[test]
fn connection_refused_is_unreachable() {
    // A port that was just free: bind, learn it, close it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let (client, log) = events(Client::new(Config {
        base: format!("http://127.0.0.1:{port}"),
        cache_dir: Some(dir.path().to_path_buf()),
        retries: 2,
        backoff_base: Duration::from_millis(5),
        requests_per_second: 0.0,
        env_proxy: false,
        ..Config::default()
    }));
    match client.thread_of("<a@b>") {
        Err(LoreError::Unreachable { url, reason }) => {
            assert_eq!(url, format!("http://127.0.0.1:{port}/all/a@b/t.mbox.gz"));
            assert!(!reason.is_empty());
        }
        other => panic!("{other:?}"),
    }
    let retries = log
        .lock()
        .unwrap()
        .iter()
        .filter(|p| matches!(p, Progress::Retry { .. }))
        .count();
    assert_eq!(retries, 2);
}

#[test]
fn a_stalled_server_times_out() {
    let dir = tempfile::tempdir().unwrap();
    // Silent after the request.
    let silent = Server::start(|_, _| Reply::Stall(Duration::from_secs(3)));
    let client = Client::new(Config {
        retries: 0,
        ..cfg(&silent, dir.path())
    });
    let t = Instant::now();
    match client.thread_of("<a@b>") {
        Err(LoreError::Timeout { url, .. }) => assert!(url.starts_with(&silent.base)),
        other => panic!("{other:?}"),
    }
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    // Silent in the middle of the body.
    let gz = gzip(&Archive::mbox(
        &archive().thread_of("20240101.robot.1@intel.com"),
    ));
    let half = gz[..gz.len() / 2].to_vec();
    let total = gz.len();
    let stalling = Server::start(move |_, _| Reply::StallBody {
        body: half.clone(),
        total,
        stall: Duration::from_secs(3),
    });
    let client = Client::new(Config {
        retries: 0,
        ..cfg(&stalling, dir.path())
    });
    let t = Instant::now();
    match client.thread_of("<a@b>") {
        Err(LoreError::Timeout { .. }) => {}
        other => panic!("{other:?}"),
    }
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn a_cut_gzip_is_never_returned() {
    let gz = gzip(&Archive::mbox(
        &archive().thread_of("20240101.robot.1@intel.com"),
    ));
    let dir = tempfile::tempdir().unwrap();
    // The gzip cut, with a Content-Length that matches the cut (the server lied).
    let cut = gz[..gz.len() - 10].to_vec();
    let short = Server::start(move |_, _| Reply::gzip(cut.clone()));
    let client = Client::new(cfg(&short, dir.path()));
    let t = Instant::now();
    match client.thread_of("<a@b>") {
        Err(LoreError::Truncated { url, .. }) => assert!(url.starts_with(&short.base)),
        other => panic!("{other:?}"),
    }
    // Asked again after 40, 80 and 160 ms, cut each time: still an error.
    assert_eq!(short.count(), 4);
    assert!(t.elapsed() >= Duration::from_millis(280));
    // The connection closed before Content-Length bytes came.
    let part = gz[..gz.len() / 2].to_vec();
    let total = gz.len();
    let closed = Server::start(move |_, _| Reply::Cut {
        content_length: total,
        body: part.clone(),
    });
    let client = Client::new(Config {
        retries: 0,
        ..cfg(&closed, dir.path())
    });
    match client.thread_of("<a@b>") {
        Err(LoreError::Truncated { .. }) => {}
        other => panic!("{other:?}"),
    }
    assert!(!dir.path().join("lore").exists(), "nothing cut was cached");
}

#[test]
fn a_huge_thread_is_refused_or_partial() {
    let root = report(
        "huge@intel.com",
        T0,
        "deadbeef",
        "will-it-scale.per_process_ops",
        "-50.0%",
    );
    let mut msgs = vec![root.clone()];
    for i in 0..50_000 {
        msgs.push(reply(
            &format!("r{i}@example.org"),
            &root,
            T0 + i,
            "Bot <bot@example.org>",
        ));
    }
    let refs: Vec<&Msg> = msgs.iter().collect();
    let Reply::Chunked { chunks, .. } = lore_server::stream_gzip(&refs) else {
        unreachable!()
    };
    let chunks = Arc::new(chunks);
    let server = Server::start(move |_, _| Reply::Chunked {
        ctype: "application/gzip".into(),
        chunks: chunks.to_vec(),
    });
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        max_messages: 1000,
        ..Limits::default()
    };
    let strict = Client::new(Config {
        limits,
        ..cfg(&server, dir.path())
    });
    match strict.thread_of("<huge@intel.com>") {
        Err(LoreError::TooLarge { limit, url }) => {
            assert_eq!(limit, "1000 messages");
            assert!(url.ends_with("/all/huge@intel.com/t.mbox.gz"));
        }
        other => panic!("{other:?}"),
    }
    let (lenient, log) = events(Client::new(Config {
        limits: Limits {
            partial_ok: true,
            ..limits
        },
        ..cfg(&server, dir.path())
    }));
    let m = lenient.thread_of("<huge@intel.com>").unwrap();
    assert_eq!(
        (m.messages, m.partial),
        (1000, Some(Partial::Messages(1000)))
    );
    assert_eq!(m.split().len(), 1000);
    assert_eq!(m.message_ids()[999].as_deref(), Some("r998@example.org"));
    assert!(
        log.lock()
            .unwrap()
            .iter()
            .any(|p| matches!(p, Progress::Bytes { .. }))
    );
    // A partial answer is not cached: asking again asks the server again.
    let again = lenient.thread_of("<huge@intel.com>").unwrap();
    assert!(!again.from_cache);
    assert_eq!(server.count(), 3);
}

#[test]
fn search_posts_x_m_and_reads_every_batch() {
    let mut a = archive();
    // 120 more reports, so the answer streams in three batches of 50.
    for i in 0..120 {
        a.msgs.push(report(
            &format!("bulk{i}@intel.com"),
            T0 + 90 * 86400 + i,
            "0badc0de",
            "hackbench.throughput",
            "-1.0%",
        ));
    }
    let served = a.clone();
    let server = Server::start(move |req, _| served.respond(req));
    let dir = tempfile::tempdir().unwrap();
    let (client, log) = events(Client::new(cfg(&server, dir.path())));
    let r = client
        .search(&Search::new("f:oliver.sang@intel.com"))
        .unwrap();
    assert_eq!(r.mbox.messages, 123);
    assert_eq!(r.pages.len(), 1);
    assert_eq!(
        r.mbox.bytes,
        Archive::mbox(&a.matches("f:oliver.sang@intel.com"))
    );
    let req = &server.requests()[0];
    assert_eq!(req.method, "POST");
    assert_eq!(req.raw_path, "/all/");
    assert_eq!(req.param("x"), Some("m"));
    assert_eq!(req.param("t"), None);
    assert_eq!(req.param("q"), Some("f:oliver.sang@intel.com"));
    assert!(
        req.body.is_empty(),
        "an empty body: x=... in the body would mean full threads"
    );
    assert!(log.lock().unwrap().iter().any(|p| matches!(
        p,
        Progress::Page {
            page: 1,
            pages: 1,
            messages: 123
        }
    )));
    // Cached: the same search again makes no request.
    assert!(
        client
            .search(&Search::new("f:oliver.sang@intel.com"))
            .unwrap()
            .mbox
            .from_cache
    );
    assert_eq!(server.count(), 1);
}

#[test]
fn search_with_threads_uses_t1() {
    let (server, a) = archive_server();
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(cfg(&server, dir.path()));
    let mut s = Search::new("s:regression f:oliver.sang");
    s.threads = true;
    let r = client.search(&s).unwrap();
    // Three report threads, whole: 3 + 2 + 1 messages, the unrelated patch not among them.
    assert_eq!(r.mbox.messages, 6);
    let ids: Vec<String> = r.mbox.message_ids().into_iter().flatten().collect();
    for m in a.msgs.iter().filter(|m| m.id != "unrelated@example.org") {
        assert!(ids.contains(&m.id), "{}", m.id);
    }
    let req = &server.requests()[0];
    assert_eq!(req.param("t"), Some("1"));
    assert_eq!(server.count(), 1, "one request, not one per thread");
}

#[test]
fn search_since_pages_by_window_until_now() {
    let (server, _) = archive_server();
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(cfg(&server, dir.path()));
    let since = chrono::DateTime::from_timestamp(T0 + 20 * 86400, 0).unwrap();
    let mut s = Search::new("f:oliver.sang@intel.com");
    s.since = Some(since);
    let one = client.search(&s).unwrap();
    assert_eq!(one.mbox.messages, 2, "the reports of February and March");
    assert_eq!(
        one.pages[0].query,
        format!("(f:oliver.sang@intel.com) AND rt:{}..", T0 + 20 * 86400)
    );

    // Windows of 30 days from since to now: many pages, oldest first, the last open.
    s.window = Some(Duration::from_secs(30 * 86400));
    s.threads = true;
    let paged = client.search(&s).unwrap();
    let expect_pages = s.page_queries(chrono::Utc::now()).unwrap().len();
    assert!(expect_pages > 10);
    assert_eq!(paged.pages.len(), expect_pages);
    assert_eq!(server.count(), 1 + expect_pages);
    assert!(paged.pages.last().unwrap().query.ends_with(".."));
    // Threads of the two reports (2 + 1), once each although a thread spans windows.
    assert_eq!(paged.mbox.messages, 3);
    let ids = paged.mbox.message_ids();
    assert_eq!(ids.len(), 3);
    assert!(ids.contains(&Some("reply.2a@suse.cz".to_string())));
    // Each window was a POST with t=1; most were empty 404s, taken as empty pages.
    for r in &server.requests()[1..] {
        assert_eq!((r.method.as_str(), r.param("t")), ("POST", Some("1")));
        assert!(r.param("q").unwrap().contains("rt:"));
    }
    assert_eq!(paged.pages.iter().map(|p| p.messages).sum::<usize>(), 3);

    // dt: for the Date: header instead.
    let mut s = Search::new("f:oliver.sang@intel.com");
    s.since = Some(since);
    s.date_field = DateField::Sent;
    let q = s.page_queries(chrono::Utc::now()).unwrap();
    assert_eq!(q, vec!["(f:oliver.sang@intel.com) AND dt:20240121000000.."]);
}

#[test]
fn an_empty_search_is_an_empty_result() {
    let (server, _) = archive_server();
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(cfg(&server, dir.path()));
    let r = client
        .search(&Search::new("s:nothing-matches-this"))
        .unwrap();
    assert_eq!(
        (r.mbox.messages, r.mbox.bytes.len(), r.mbox.partial),
        (0, 0, None)
    );
    assert_eq!(server.count(), 1);
    // The empty answer is cached like any other.
    let again = client
        .search(&Search::new("s:nothing-matches-this"))
        .unwrap();
    assert!(again.mbox.from_cache && again.mbox.messages == 0);
    assert_eq!(server.count(), 1);
    // But an inbox that does not exist (public-inbox's HTML 404) is an error.
    let mut s = Search::new("s:regression");
    s.list = Some("nosuch".into());
    let gone = Server::start(|_, _| lore_server::not_found_page());
    let client = Client::new(cfg(&gone, dir.path()));
    assert!(matches!(client.search(&s), Err(LoreError::NotFound { .. })));
}

#[test]
fn a_search_over_the_limit() {
    let (server, _) = archive_server();
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        max_messages: 2,
        max_bytes: u64::MAX,
        partial_ok: false,
    };
    let client = Client::new(Config {
        limits,
        ..cfg(&server, dir.path())
    });
    let s = Search::new("f:intel.com");
    assert!(matches!(client.search(&s), Err(LoreError::TooLarge { .. })));
    let client = Client::new(Config {
        limits: Limits {
            partial_ok: true,
            ..limits
        },
        ..cfg(&server, dir.path())
    });
    let r = client.search(&s).unwrap();
    assert_eq!(
        (r.mbox.messages, r.mbox.partial),
        (2, Some(Partial::Messages(2)))
    );
}

#[test]
fn thread_updates_search_within_the_thread() {
    let (server, _) = archive_server();
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(cfg(&server, dir.path()));
    let t = parse_target("<20240101.robot.1@intel.com>").unwrap();
    let since = chrono::DateTime::from_timestamp(T0 + 3000, 0).unwrap();
    let m = client.thread_updates(&t, since).unwrap();
    let ids: Vec<_> = m.message_ids().into_iter().flatten().collect();
    assert_eq!(ids, vec!["reply.1b@mit.edu", "reply.1a@suse.cz"]);
    let req = &server.requests()[0];
    assert_eq!(req.method, "POST");
    assert_eq!(req.raw_path, "/all/20240101.robot.1@intel.com/");
    assert_eq!(req.param("q"), Some(format!("rt:{}..", T0 + 3000).as_str()));
    let later = chrono::DateTime::from_timestamp(T0 + 86400, 0).unwrap();
    assert_eq!(client.thread_updates(&t, later).unwrap().messages, 0);
}

#[test]
fn redirects_are_followed_on_the_same_server_only() {
    let served = archive();
    let server = Server::start(move |req, _| {
        if req.path.starts_with("/all/") {
            Reply::status(301, "text/plain", b"").with_header(
                "Location",
                &req.raw_path.replacen("/all/", "/linux-ext4/", 1),
            )
        } else if req.path.starts_with("/linux-ext4/away") {
            // 192.0.2.0/24 is TEST-NET-1: never connected to, the client refuses first.
            Reply::status(302, "text/plain", b"")
                .with_header("Location", "http://192.0.2.1/all/away@x/t.mbox.gz")
        } else {
            served.respond(req)
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(cfg(&server, dir.path()));
    let m = client.thread_of("<20240101.robot.1@intel.com>").unwrap();
    assert_eq!(m.messages, 3);
    assert_eq!(server.count(), 2);
    match client.thread_of("<away@x>") {
        Err(LoreError::Redirect { location, .. }) => {
            assert_eq!(location, "http://192.0.2.1/all/away@x/t.mbox.gz")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(server.count(), 4);
    assert!(server.requests().iter().all(|r| {
        r.header("host")
            .is_some_and(|h| h.starts_with("127.0.0.1:"))
    }));
}

#[test]
fn threads_report_progress_and_the_rate_limit_spaces_requests() {
    let (server, _) = archive_server();
    let dir = tempfile::tempdir().unwrap();
    let (client, log) = events(Client::new(Config {
        requests_per_second: 10.0,
        cache_mode: CacheMode::Off,
        ..cfg(&server, dir.path())
    }));
    let targets: Vec<_> = [
        "<20240101.robot.1@intel.com>",
        "<nosuch@x>",
        "<20240201.robot.2@intel.com>",
        "<reply.1a@suse.cz>",
    ]
    .iter()
    .map(|s| parse_target(s).unwrap())
    .collect();
    let got = client.threads(&targets);
    let counts: Vec<Option<usize>> = got
        .iter()
        .map(|r| r.as_ref().ok().map(|m| m.messages))
        .collect();
    assert_eq!(counts, vec![Some(3), None, Some(2), Some(3)]);
    assert!(matches!(got[1], Err(LoreError::NotFound { .. })));
    let done: Vec<(usize, usize)> = log
        .lock()
        .unwrap()
        .iter()
        .filter_map(|p| match p {
            Progress::Thread { done, total, .. } => Some((*done, *total)),
            _ => None,
        })
        .collect();
    assert_eq!(done, vec![(1, 4), (2, 4), (3, 4), (4, 4)]);
    // Four requests at 10 a second span at least 300 ms from the first
    // sent to the last; arrival adds delays (a loaded machine held one back
    // 20 ms, shortening its gap to the next), so only the span is checked,
    // with a margin for the first one's delay.
    let reqs = server.requests();
    assert_eq!(reqs.len(), 4);
    let span = reqs[3].at - reqs[0].at;
    assert!(span >= Duration::from_millis(250), "{span:?}");
}

#[test]
fn a_body_cut_once_is_asked_again() {
    let served = archive();
    let gz = gzip(&Archive::mbox(
        &served.thread_of("20240101.robot.1@intel.com"),
    ));
    let server = Server::start(move |req, n| {
        if n == 0 {
            Reply::Cut {
                content_length: gz.len(),
                body: gz[..gz.len() / 2].to_vec(),
            }
        } else {
            served.respond(req)
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let (client, log) = events(Client::new(cfg(&server, dir.path())));
    let m = client.thread_of("<20240101.robot.1@intel.com>").unwrap();
    assert_eq!((m.messages, m.partial), (3, None));
    assert_eq!(server.count(), 2);
    let retried = log
        .lock()
        .unwrap()
        .iter()
        .any(|p| matches!(p, Progress::Retry { reason, .. } if reason.contains("truncated")));
    assert!(retried);
}

#[test]
fn one_client_serves_several_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Client>();
    let (server, _) = archive_server();
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(Config {
        requests_per_second: 20.0,
        ..cfg(&server, dir.path())
    });
    let ids = [
        "<20240101.robot.1@intel.com>",
        "<20240201.robot.2@intel.com>",
    ];
    std::thread::scope(|s| {
        for id in ids.iter().cycle().take(6) {
            let client = &client;
            s.spawn(move || assert!(client.thread_of(id).unwrap().messages >= 2));
        }
    });
    // Racing threads may each miss the cache once; never more than that.
    assert!((2..=6).contains(&server.count()), "{}", server.count());
    assert!(client.thread_of(ids[0]).unwrap().from_cache);
}

#[test]
fn a_url_naming_another_server_is_fetched_there() {
    let (home, _) = archive_server();
    let (other, _) = archive_server();
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(cfg(&home, dir.path()));
    let url = format!("{}/linux-ext4/reply.2a@suse.cz/T/#u", other.base);
    let m = client.thread_of(&url).unwrap();
    assert_eq!(m.messages, 2);
    assert_eq!(home.count(), 0);
    assert_eq!(
        other.requests()[0].raw_path,
        "/linux-ext4/reply.2a@suse.cz/t.mbox.gz"
    );
}
