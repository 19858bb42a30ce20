//! public-inbox archives built at test time with `git`: a bare epoch, a v2
//! inbox with two epochs, incremental re-ingest, and a repository that is not
//! an inbox.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.org")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.org")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn have_git() -> bool {
    Command::new("git").arg("--version").output().is_ok()
}

/// A work repository whose commits each hold one message in `m`.
struct Inbox {
    work: PathBuf,
}

impl Inbox {
    fn new(dir: &Path) -> Inbox {
        std::fs::create_dir_all(dir).unwrap();
        git(dir, &["init", "-q", "-b", "master", "."]);
        Inbox {
            work: dir.to_path_buf(),
        }
    }

    fn add(&self, id: &str, subject: &str) {
        let msg = format!(
            "From: A <a@example.org>\nSubject: {subject}\nDate: Tue, 09 May 2023 09:05:00 +0000\nMessage-ID: <{id}>\nList-Id: <linux-test.vger.kernel.org>\n\nbody of {id}\n"
        );
        std::fs::write(self.work.join("m"), msg).unwrap();
        git(&self.work, &["add", "m"]);
        git(&self.work, &["commit", "-q", "-m", id]);
    }

    fn delete(&self) {
        git(&self.work, &["rm", "-q", "m"]);
        std::fs::write(self.work.join("d"), "deleted\n").unwrap();
        git(&self.work, &["add", "d"]);
        git(&self.work, &["commit", "-q", "-m", "delete"]);
        git(&self.work, &["rm", "-q", "d"]);
    }

    fn publish(&self, bare: &Path) {
        if bare.exists() {
            git(
                &self.work,
                &["push", "-q", bare.to_str().unwrap(), "master"],
            );
        } else {
            git(
                self.work.parent().unwrap(),
                &[
                    "clone",
                    "-q",
                    "--bare",
                    self.work.to_str().unwrap(),
                    bare.to_str().unwrap(),
                ],
            );
        }
    }
}

fn ingest(db: &Path, path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_regtrack"))
        .env_remove("REGTRACK_DB")
        .arg("--db")
        .arg(db)
        .args(["ingest", "--json"])
        .arg(path)
        .output()
        .unwrap()
}

fn counts(out: &Output) -> (u64, u64, u64, u64) {
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (
        v["new"].as_u64().unwrap(),
        v["known"].as_u64().unwrap(),
        v["failed"].as_u64().unwrap(),
        v["bytes"].as_u64().unwrap(),
    )
}

#[test]
fn a_bare_epoch_is_read_oldest_first_and_then_only_its_new_commits() {
    if !have_git() {
        eprintln!("note: git is not installed; skipping");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::new(&dir.path().join("work"));
    for i in 0..5 {
        inbox.add(&format!("m{i}@x"), &format!("message {i}"));
    }
    inbox.delete();
    let epoch = dir.path().join("0.git");
    inbox.publish(&epoch);
    let db = dir.path().join("t.db");

    let (new, known, failed, bytes) = counts(&ingest(&db, &epoch));
    assert_eq!((new, known, failed), (5, 0, 0));
    assert!(bytes > 0);
    // Unchanged: nothing is read at all.
    assert_eq!(counts(&ingest(&db, &epoch)), (0, 0, 0, 0));
    // Two more commits: only they are read.
    inbox.add("m5@x", "message 5");
    inbox.add("m6@x", "message 6");
    inbox.publish(&epoch);
    let (new, known, failed, _) = counts(&ingest(&db, &epoch));
    assert_eq!((new, known, failed), (2, 0, 0));

    // Oldest first: row ids follow commit order.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let ids: Vec<String> = conn
        .prepare("SELECT message_id FROM messages ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(
        ids,
        ["m0@x", "m1@x", "m2@x", "m3@x", "m4@x", "m5@x", "m6@x"]
    );
    let origin: String = conn
        .query_row(
            "SELECT origin_json FROM messages WHERE message_id = 'm6@x'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(origin.contains("\"type\":\"git\""), "{origin}");
    let last: String = conn
        .query_row(
            "SELECT last_commit FROM sources WHERE kind = 'public-inbox'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(last.len(), 40);
}

#[test]
fn a_v2_inbox_reads_every_epoch_in_order() {
    if !have_git() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let inbox_dir = dir.path().join("inbox");
    std::fs::create_dir_all(inbox_dir.join("git")).unwrap();
    let e0 = Inbox::new(&dir.path().join("w0"));
    e0.add("a@x", "a");
    e0.add("b@x", "b");
    e0.publish(&inbox_dir.join("git/0.git"));
    let e1 = Inbox::new(&dir.path().join("w1"));
    e1.add("c@x", "c");
    e1.publish(&inbox_dir.join("git/1.git"));
    let db = dir.path().join("t.db");
    let (new, _, failed, _) = counts(&ingest(&db, &inbox_dir));
    assert_eq!((new, failed), (3, 0));
    assert_eq!(counts(&ingest(&db, &inbox_dir)), (0, 0, 0, 0));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let n: i64 = conn
        .query_row(
            "SELECT count(*) FROM sources WHERE kind = 'public-inbox'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(n, 2);
    // source::open reads the same messages (what `regtrack parse` uses).
    let msgs: Vec<_> = regtrack::source::open(&inbox_dir).unwrap().collect();
    assert_eq!(msgs.len(), 3);
}

#[test]
fn a_git_repository_that_is_not_an_inbox_is_refused_with_its_path() {
    if !have_git() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("code");
    std::fs::create_dir_all(&work).unwrap();
    git(&work, &["init", "-q", "-b", "master", "."]);
    std::fs::write(work.join("main.c"), "int main(void) { return 0; }\n").unwrap();
    git(&work, &["add", "main.c"]);
    git(&work, &["commit", "-q", "-m", "code"]);
    let db = dir.path().join("t.db");
    let out = ingest(&db, &work);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not a public-inbox") && err.contains("code"),
        "{err}"
    );
}
