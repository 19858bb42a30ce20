//! The database under hostile conditions, with the binary: a read-only
//! database or folder still answers the commands that only read; a read
//! command creates nothing; several processes writing one database at once
//! wait for each other instead of failing with `database is locked`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_regtrack");

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/threads")
        .join(name)
}

fn regtrack(db: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .unwrap()
}

fn ingest(db: &Path, input: &Path) -> Output {
    regtrack(db, &["ingest", input.to_str().unwrap()])
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn messages(db: &Path) -> u64 {
    let o = regtrack(db, &["stats", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["messages"].as_u64().unwrap()
}

/// A report of `rows` table rows (about 75 bytes each), to keep an ingest
/// busy for a while.
fn big_report(path: &Path, rows: usize) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    write!(
        f,
        "From lkp@intel.com Mon Sep 17 00:00:00 2001\n\
         From: kernel test robot <oliver.sang@intel.com>\n\
         Subject: [linus:master] [xfs]  2edf06a50f:  fsmark.files_per_sec -5.7% regression\n\
         Message-ID: <big@intel.com>\n\
         Date: Mon, 1 Jan 2024 00:00:00 +0000\n\n\
         commit: 2edf06a50f5bbe664283f3c55c4 (\"xfs: x\")\n\n\
         f2ffc48de2017c69 ee5eda8ea59546af2e8f192c060 \n\
         ---------------- --------------------------- \n"
    )
    .unwrap();
    for i in 0..rows {
        writeln!(
            f,
            "    138055 \u{b1} 18%     +33.4%     184128 \u{b1} 14%  cpuidle.metric{i}.usage"
        )
        .unwrap();
    }
    f.flush().unwrap();
}

#[test]
fn a_read_command_on_a_missing_database_says_so_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("none.db");
    for args in [&["stats"][..], &["list"], &["show", "x"], &["export"]] {
        let o = regtrack(&db, args);
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert_eq!(
            err.trim_end(),
            format!(
                "regtrack: error: database '{}' does not exist (`regtrack ingest` creates it)",
                db.display()
            )
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    for bad in ["/dev/null", "/"] {
        let o = regtrack(Path::new(bad), &["stats"]);
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(err.matches(bad).count(), 1, "{err}");
    }
}

#[test]
fn a_read_only_database_in_a_read_only_folder_still_answers() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    let db = ro.join("t.db");
    assert!(ingest(&db, &corpus("fixed-history.mbox")).status.success());
    let perms = |p: &Path, mode| std::fs::set_permissions(p, PermissionsExt::from_mode(mode));
    perms(dir.path(), 0o755).unwrap();
    perms(&db, 0o444).unwrap();
    perms(&ro, 0o555).unwrap();
    // Root writes read-only files: run as nobody when root.
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| {
        use std::os::unix::fs::MetadataExt;
        m.uid() == 0
    });
    let run = |args: &[&str]| -> Output {
        let mut c = if root {
            let mut c = Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups", BIN]);
            c
        } else {
            Command::new(BIN)
        };
        c.arg("--db").arg(&db).args(args).output().unwrap()
    };
    if root && Command::new("setpriv").arg("--version").output().is_err() {
        eprintln!("setpriv is missing: the read-only test is skipped");
        return;
    }
    for args in [
        &["stats"][..],
        &["list"],
        &["show", "ext4"],
        &["export", "--format", "csv"],
    ] {
        let o = run(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(!o.stdout.is_empty(), "{args:?}");
    }
    let o = run(&["ingest", corpus("disputed.mbox").to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("cannot be written"), "{err}");
    assert_eq!(err.matches("t.db").count(), 1, "{err}");
    perms(&ro, 0o755).unwrap();
}

#[test]
fn a_second_ingest_waits_for_the_first_then_does_its_own_work() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("w.db");
    let big = dir.path().join("big.mbox");
    big_report(&big, 60_000);
    // The first reads its mail from a pipe this test holds open, so it
    // holds the writer lock for as long as the test wants, however fast
    // the build is.
    let mut first = Command::new(BIN)
        .arg("--db")
        .arg(&db)
        .args(["-q", "ingest", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once the first holds the writer lock (it takes it after opening).
    let lock = PathBuf::from(format!("{}.lock", db.display()));
    let t = std::time::Instant::now();
    while !lock.exists() && t.elapsed().as_secs() < 5 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    let second = Command::new(BIN)
        .arg("--db")
        .arg(&db)
        .arg("ingest")
        .arg(corpus("fixed-history.mbox"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The second says it waits once it has waited a second.
    std::thread::sleep(std::time::Duration::from_millis(2000));
    {
        let mut pipe = first.stdin.take().unwrap();
        std::io::copy(&mut std::fs::File::open(&big).unwrap(), &mut pipe).unwrap();
    }
    let second = second.wait_with_output().unwrap();
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(second.status.success(), "{}", stderr(&second));
    let err = stderr(&second);
    assert!(
        err.contains(&format!(
            "waiting for another regtrack writing {}...",
            db.display()
        )),
        "{err}"
    );
    assert_eq!(messages(&db), 7);
}

#[test]
fn processes_creating_one_database_at_once_all_succeed() {
    for round in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("new.db");
        let inputs = [
            "fixed-history.mbox",
            "disputed.mbox",
            "improvement.mbox",
            "two-reports.mbox",
        ];
        let children: Vec<_> = inputs
            .iter()
            .map(|i| {
                Command::new(BIN)
                    .arg("--db")
                    .arg(&db)
                    .args(["-q", "ingest"])
                    .arg(corpus(i))
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let o = c.wait_with_output().unwrap();
            assert!(o.status.success(), "round {round}: {}", stderr(&o));
        }
        let one: u64 = inputs
            .iter()
            .map(|i| {
                let d = dir.path().join(format!("{i}.db"));
                assert!(ingest(&d, &corpus(i)).status.success());
                messages(&d)
            })
            .sum();
        assert_eq!(messages(&db), one, "round {round}");
    }
}

#[test]
fn a_mark_during_an_ingest_waits_then_stores_its_decision_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("m.db");
    assert!(ingest(&db, &corpus("disputed.mbox")).status.success());
    let big = dir.path().join("big.mbox");
    big_report(&big, 60_000);
    let first = Command::new(BIN)
        .arg("--db")
        .arg(&db)
        .args(["-q", "ingest"])
        .arg(&big)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let o = regtrack(&db, &["mark", "1", "declined", "--author", "t"]);
    let mut first = first;
    assert!(first.wait().unwrap().success());
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("marked #1"), "{err}");
    let o = regtrack(&db, &["show", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["status"], "declined", "{v}");
}

/// A link reads the signals an ingest left unread from the stored bodies:
/// a body damaged since is named, its sentences count as saying nothing,
/// the rest is linked, and it stays unread for the next link to try again.
#[test]
fn a_damaged_body_whose_sentences_a_link_needs_is_named_and_the_link_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("x.db");
    let o = ingest(&db, &corpus(""));
    assert!(o.status.success(), "{}", stderr(&o));
    // A linked reply whose sentences were read: made unread again, and the
    // block holding its body damaged (its checksum no longer holds).
    let pick = "SELECT m.id, m.message_id, m.body_block FROM messages m \
                JOIN link_chosen c ON c.message = m.id \
                WHERE m.signals_read = 1 AND m.body_block IS NOT NULL \
                AND m.kind NOT IN ('perf-report', 'functional-report', 'build-report') \
                AND EXISTS (SELECT 1 FROM signals s WHERE s.message = m.id) \
                ORDER BY m.id LIMIT 1";
    let (id, message_id, block): (i64, String, i64) = crate::common::sql::rows(&db, pick)
        .into_iter()
        .next()
        .expect("a linked reply with signals");
    crate::common::sql::execute(
        &db,
        &format!(
            "UPDATE messages SET signals_read = 0 WHERE id = {id}; \
             UPDATE body_blocks SET lz4 = x'00112233' WHERE id = {block};"
        ),
    );
    let o = regtrack(&db, &["relink", "--full"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("could not be read") && err.contains(&message_id),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let still: i64 = crate::common::sql::sql_i64(
        &db,
        &format!("SELECT signals_read FROM messages WHERE id = {id}"),
    );
    assert_eq!(still, 0, "left unread for the next link");
    let o = regtrack(&db, &["list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!o.stdout.is_empty());
}
