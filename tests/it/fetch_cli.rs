//! `regtrack fetch` and `regtrack follow` end to end, against the
//! public-inbox look-alike on loopback (`common::lore_server`): what is
//! stored after each, the cache within its time-to-live, `--offline`, and
//! bad answers storing nothing. Every request goes to the loopback server
//! (the base is given on each command line; the config and cache folders
//! are the test's own).

use std::path::Path;

use crate::common::lore_server::{
    Archive, Msg, Reply, Server, gzip, not_found_page, reply, report, unrelated,
};
use crate::common::{Cmd, one};

const T0: i64 = 1_704_067_200; // 2024-01-01

/// Two report threads (the first with two replies and, later, a fix patch
/// that names its report in `Closes:`), and unrelated mail.
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
    let other = unrelated(T0 + 10);
    Archive {
        msgs: vec![r1, other, a1, a2, r2],
    }
}

/// A fix patch posted on another list, naming report 1 in `Closes:`.
fn fix_patch() -> Msg {
    let text = "From mboxrd@z Thu Jan  1 00:00:00 1970\n\
         Date: Mon, 15 Jan 2024 10:00:00 +0000\n\
         From: Jan Kara <jack@suse.cz>\n\
         Subject: [PATCH] ext4: make the change cheaper again\n\
         Message-ID: <fix.1@suse.cz>\n\
         \n\
         The change made fsmark slower; do the work once.\n\n\
         Reported-by: kernel test robot <oliver.sang@intel.com>\n\
         Closes: https://lore.kernel.org/oe-lkp/20240101.robot.1@intel.com\n\
         Fixes: 1234abcd (\"ext4: a change\")\n\
         Signed-off-by: Jan Kara <jack@suse.cz>\n\
         ---\n\
         diff --git a/fs/ext4/inode.c b/fs/ext4/inode.c\n\
         --- a/fs/ext4/inode.c\n\
         +++ b/fs/ext4/inode.c\n\
         @@ -1,3 +1,3 @@\n\
         -\tslow();\n\
         +\tfast();\n\n"
        .to_string();
    Msg {
        id: "fix.1@suse.cz".into(),
        thread: "fix.1@suse.cz".into(),
        rt: T0 + 14 * 86400,
        from: "Jan Kara <jack@suse.cz>".into(),
        subject: "[PATCH] ext4: make the change cheaper again".into(),
        text,
    }
}

/// A regtrack command with the test's own config and cache folders.
fn cmd(home: &Path, db: &Path) -> Cmd {
    Cmd::regtrack()
        .db(db)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env_remove("REGTRACK_CONFIG")
}

fn messages(db: &Path) -> i64 {
    one::<i64>(db, "SELECT count(*) FROM messages")
}

fn has(db: &Path, id: &str) -> bool {
    one::<i64>(
        db,
        &format!("SELECT count(*) FROM messages WHERE message_id = '{id}'"),
    ) == 1
}

#[test]
fn fetch_stores_each_whole_thread_and_answers_again_from_the_cache() {
    let a = archive();
    let served = a.clone();
    let server = Server::start(move |req, _| served.respond(req));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let run = cmd(dir.path(), &db)
        .args(["fetch", "--base", &server.base])
        .arg("https://lore.kernel.org/oe-lkp/20240101.robot.1@intel.com/T/#u")
        .ok();
    assert!(run.stdout.contains("3 messages"), "{}", run.stdout);
    assert_eq!(messages(&db), 3);
    for id in [
        "20240101.robot.1@intel.com",
        "reply.1a@suse.cz",
        "reply.1b@mit.edu",
    ] {
        assert!(has(&db, id), "{id}");
    }
    let shown = cmd(dir.path(), &db).args(["show", "1234abcd"]).ok();
    assert!(shown.stdout.contains("fsmark.files_per_sec"));
    let asked = server.count();
    assert_eq!(asked, 1);
    // Within the time-to-live the cache answers: no request.
    cmd(dir.path(), &db)
        .args([
            "fetch",
            "--base",
            &server.base,
            "20240101.robot.1@intel.com",
        ])
        .ok();
    assert_eq!(server.count(), asked);
    assert_eq!(messages(&db), 3);
    // --offline answers from the cache only, and says what it lacks.
    let off = cmd(dir.path(), &db)
        .args([
            "fetch",
            "--offline",
            "--base",
            &server.base,
            "20240201.robot.2@intel.com",
        ])
        .run();
    assert_eq!(off.code(), Some(1), "{}", off.stderr);
    assert!(off.stderr.contains("20240201.robot.2@intel.com"));
    assert_eq!(server.count(), asked);
    assert_eq!(messages(&db), 3);
    for r in server.requests() {
        assert!(r.path.contains("20240101.robot.1@intel.com"), "{}", r.path);
    }
}

#[test]
fn fetch_query_with_threads_stores_every_match_and_its_thread() {
    let a = archive();
    let served = a.clone();
    let server = Server::start(move |req, _| served.respond(req));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    // Matches only the two reports; --threads brings their replies.
    cmd(dir.path(), &db)
        .args([
            "fetch",
            "--base",
            &server.base,
            "--query",
            "f:oliver.sang@intel.com AND s:regression",
        ])
        .ok();
    assert_eq!(messages(&db), 2);
    let db2 = dir.path().join("t2.db");
    cmd(dir.path(), &db2)
        .args([
            "fetch",
            "--base",
            &server.base,
            "--threads",
            "--query",
            "f:oliver.sang@intel.com AND s:regression",
        ])
        .ok();
    assert_eq!(messages(&db2), 4);
    assert!(!has(&db2, "unrelated@example.org"));
    let list = cmd(dir.path(), &db2).args(["list", "--json"]).json();
    assert_eq!(list.as_array().map(Vec::len), Some(2), "{list}");
    // Searches are POSTed with x=m, as public-inbox wants.
    assert!(
        server
            .requests()
            .iter()
            .all(|r| r.method == "POST" && r.param("x") == Some("m"))
    );
}

#[test]
fn bad_answers_store_nothing_and_say_so() {
    let a = archive();
    let served = a.clone();
    // 404 for an unknown thread, an HTML page, a gzip cut in half.
    let server = Server::start(move |req, _| {
        if req.path.contains("html.page@x") {
            Reply::status(200, "text/html", b"<html><body>Nope</body></html>")
        } else if req.path.contains("cut.gzip@x") {
            let t = served.thread_of("20240101.robot.1@intel.com");
            let gz = gzip(&Archive::mbox(&t));
            Reply::gzip(gz[..gz.len() / 2].to_vec())
        } else {
            served.respond(req)
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    for id in ["missing@x", "html.page@x", "cut.gzip@x"] {
        let r = cmd(dir.path(), &db)
            .args(["fetch", "--base", &server.base, id])
            .run();
        r.assert_no_panic();
        assert_eq!(r.code(), Some(1), "{id}: {}", r.stderr);
        assert!(r.stderr.contains(id), "{id}: {}", r.stderr);
        assert!(!db.exists() || messages(&db) == 0, "{id}: something stored");
    }
    // One bad target among good ones: the good thread is stored, the bad
    // one named.
    let r = cmd(dir.path(), &db)
        .args([
            "fetch",
            "--base",
            &server.base,
            "cut.gzip@x",
            "20240201.robot.2@intel.com",
        ])
        .run();
    assert!(r.stderr.contains("cut.gzip@x"), "{}", r.stderr);
    assert_eq!(messages(&db), 1);
    assert!(has(&db, "20240201.robot.2@intel.com"));
}

#[test]
fn follow_brings_replies_and_a_fix_sent_elsewhere_into_the_history() {
    let mut a = archive();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    // The database starts from the report alone, read from a local mbox.
    let mbox = dir.path().join("report.mbox");
    std::fs::write(&mbox, &a.msgs[0].text).unwrap();
    cmd(dir.path(), &db).args(["-q", "ingest"]).arg(&mbox).ok();
    assert_eq!(messages(&db), 1);
    a.msgs.push(fix_patch());
    let served = a.clone();
    let server = Server::start(move |req, _| served.respond(req));
    let r = cmd(dir.path(), &db)
        .args(["follow", "--base", &server.base])
        .ok();
    r.assert_no_panic();
    for id in ["reply.1a@suse.cz", "reply.1b@mit.edu", "fix.1@suse.cz"] {
        assert!(has(&db, id), "{id} not followed: {}", r.stderr);
    }
    // Report 2 was never in the database: follow does not bring it.
    assert!(!has(&db, "20240201.robot.2@intel.com"));
    let h = cmd(dir.path(), &db)
        .args(["export", "--format", "json"])
        .json();
    let h = &h[0];
    assert_eq!(h["culprit"]["commit"], "1234abcd", "{h}");
    let patches: Vec<&str> = h["patches"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["message_id"].as_str())
        .collect();
    assert!(patches.contains(&"fix.1@suse.cz"), "{h}");
    assert_eq!(h["status"], "fix-proposed", "{h}");
}

/// The paths the server was asked for, in order, from request `from` on.
fn paths_since(server: &Server, from: usize) -> Vec<String> {
    server.requests()[from..]
        .iter()
        .map(|r| r.raw_path.clone())
        .collect()
}

#[test]
fn a_base_that_ends_in_an_inbox_is_asked_as_it_is() {
    let a = archive();
    let served = a.clone();
    let server = Server::start(move |req, _| served.respond(req));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let all = format!("{}/all", server.base);
    // --base with the inbox, as b4 and lei name it: /all/<id>/t.mbox.gz,
    // not /all/all/<id>/t.mbox.gz.
    let run = cmd(dir.path(), &db)
        .args(["fetch", "--refresh", "--base", &format!("{all}/")])
        .arg("20240101.robot.1@intel.com")
        .ok();
    assert!(run.stdout.contains("3 messages"), "{}", run.stdout);
    assert_eq!(
        paths_since(&server, 0),
        ["/all/20240101.robot.1@intel.com/t.mbox.gz"]
    );
    // The global --lore-base naming another inbox.
    let n = server.count();
    cmd(dir.path(), &db)
        .args(["--lore-base", &format!("{}/oe-lkp", server.base)])
        .args(["fetch", "--refresh", "20240201.robot.2@intel.com"])
        .ok();
    assert_eq!(
        paths_since(&server, n),
        ["/oe-lkp/20240201.robot.2@intel.com/t.mbox.gz"]
    );
    assert_eq!(messages(&db), 4);
    // --list names the inbox on the base's server in place of the base's.
    let n = server.count();
    cmd(dir.path(), &db)
        .args(["fetch", "--refresh", "--base", &all, "--list", "linux-ext4"])
        .args(["--query", "s:regression"])
        .ok();
    let asked = server.requests();
    assert_eq!(asked.len(), n + 1);
    assert_eq!(asked[n].raw_path, "/linux-ext4/");
    assert_eq!(asked[n].param("x"), Some("m"));
    // The config file's lore_base with an inbox: follow asks each thread
    // there; message links are in that inbox.
    let config = dir.path().join("config").join("regtrack");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("config.toml"),
        format!("lore_base = \"{all}/\"\nrequests_per_second = 0.0\n"),
    )
    .unwrap();
    let n = server.count();
    cmd(dir.path(), &db)
        .args(["follow", "--refresh", "--status", "open"])
        .ok();
    let followed = paths_since(&server, n);
    assert!(!followed.is_empty());
    for p in &followed {
        assert!(p.starts_with("/all/") && !p.starts_with("/all/all/"), "{p}");
    }
    let shown = cmd(dir.path(), &db)
        .args(["show", "1234abcd", "--json"])
        .json();
    let url = shown[0]["reports"][0]["url"]
        .as_str()
        .expect("a report url");
    assert_eq!(url, format!("{all}/20240101.robot.1@intel.com/"));
}

#[test]
fn a_base_that_names_no_server_or_inbox_is_refused_saying_what_is_expected() {
    let server = Server::start(|_, _| not_found_page());
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let b = &server.base;
    for (args, says) in [
        (vec!["fetch", "--base", &format!("{b}/all/%s")], "%s"),
        (
            vec![
                "fetch",
                "--base",
                &format!("{b}/all/20240101.robot.1@intel.com/"),
            ],
            "Message-ID",
        ),
        (
            vec!["--lore-base", &format!("{b}/all/?q=s:regression"), "fetch"],
            "query",
        ),
        (vec!["--lore-base", "lore.kernel.org/all", "show"], "http"),
    ] {
        let run = cmd(dir.path(), &db)
            .args(&args)
            .arg("20240101.robot.1@intel.com")
            .run();
        assert_eq!(run.code(), Some(2), "{args:?}: {}", run.stderr);
        for s in [
            says,
            "give a server, https://lore.kernel.org, or an inbox on it, https://lore.kernel.org/all",
        ] {
            assert!(
                run.stderr.contains(s),
                "{args:?}: no {s:?} in {}",
                run.stderr
            );
        }
    }
    assert_eq!(server.count(), 0);
    assert!(!db.exists());
}
