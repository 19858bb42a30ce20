//! `regtrack trees` end to end: repositories built here with `git` (a
//! mainline with release tags and a merge, a stable branch with a backport,
//! a linux-next that is rebuilt, a revert of a culprit, fixes carrying a
//! `Link:` to a reply, a `Fixes:` with the robot's `Reported-by:`, and the
//! title and author of a posted patch) ingested with the corpus report
//! threads they fix; the status, fix commit, trees and first release read
//! back through `show --json`, `list --fixed-in` and `export`. Then bad
//! input: not a repository, a shallow clone, a missing ref, a tree gone
//! from disk at ingest. Skips (saying so) when git is missing.

use crate::common::have_git;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// A repository driven by `git`, an hour a commit.
struct Git {
    dir: PathBuf,
    clock: std::cell::Cell<i64>,
}

impl Git {
    fn new(dir: &Path) -> Git {
        std::fs::create_dir_all(dir).unwrap();
        let g = Git {
            dir: dir.to_path_buf(),
            clock: std::cell::Cell::new(1_710_000_000),
        };
        g.run(&["init", "-q", "-b", "master"]);
        g
    }

    fn run(&self, args: &[&str]) -> String {
        self.clock.set(self.clock.get() + 3600);
        let date = format!("{} +0000", self.clock.get());
        let out = Command::new("git")
            .current_dir(&self.dir)
            .args(["-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"])
            .args(["-c", "protocol.file.allow=always", "-c", "gc.auto=0"])
            .args(args)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "A U Thor")
            .env("GIT_AUTHOR_EMAIL", "author@example.org")
            .env("GIT_COMMITTER_NAME", "C O Mitter")
            .env("GIT_COMMITTER_EMAIL", "committer@example.org")
            .env("GIT_AUTHOR_DATE", &date)
            .env("GIT_COMMITTER_DATE", &date)
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Commits a change of `file` with `message` (and `author`), returns its id.
    fn commit(&self, file: &str, message: &str, author: Option<&str>) -> String {
        let p = self.dir.join(file);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let old = std::fs::read_to_string(&p).unwrap_or_default();
        std::fs::write(&p, format!("{old}{message}\n")).unwrap();
        self.run(&["add", "-A"]);
        let mut args = vec!["commit", "-q", "-m", message];
        if let Some(a) = author {
            args.extend(["--author", a]);
        }
        self.run(&args);
        self.run(&["rev-parse", "HEAD"])
    }

    fn tag(&self, name: &str) {
        self.run(&["tag", "-a", name, "-m", name]);
    }
}

/// `regtrack --db DB ARGS`, away from the user's database and
/// configuration.
pub(crate) fn regtrack(db: &Path, args: &[&str]) -> Output {
    in_test_env(Command::new(env!("CARGO_BIN_EXE_regtrack")), db, args)
}

/// `command` run as regtrack on `db` with `args`, away from the user's
/// database and configuration.
fn in_test_env(mut command: Command, db: &Path, args: &[&str]) -> Output {
    command
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("REGTRACK_DB")
        .env_remove("REGTRACK_CONFIG")
        .env("XDG_CONFIG_HOME", db.with_extension("config"))
        .output()
        .expect("regtrack runs")
}

fn ok(db: &Path, args: &[&str]) -> String {
    let out = regtrack(db, args);
    assert!(
        out.status.success(),
        "regtrack {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn show(db: &Path, q: &str) -> Value {
    let v: Value = serde_json::from_str(&ok(db, &["show", q, "--json"])).expect("json");
    assert_eq!(v.as_array().map(Vec::len), Some(1), "{q}: {v:#}");
    v[0].clone()
}

const ROBOT: &str = "Reported-by: kernel test robot <oliver.sang@intel.com>";
/// The culprits of the corpus threads used.
const EXT4_CULPRIT: &str = "5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b";
const JBD2_DISPUTED: &str = "7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708";
const JBD2_LAZY: &str = "f1f2f3f4f5";
const TWO_REPORTS: &str = "d15ea5e0123456789abcdef0123456789abcdef0";

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/threads")
        .join(name)
}

#[test]
fn fixes_found_in_trees_give_status_trees_and_release() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("t.db");
    let m = Git::new(&tmp.path().join("linux"));
    m.commit("Makefile", "Linux 6.8", None);
    m.tag("v6.8");
    // The culprit of the two-reports thread, made a real commit: the thread
    // is rewritten to name its id.
    let culprit = m.commit(
        "fs/ext4/extents.c",
        "ext4: make fiemap walk extents once",
        None,
    );
    let mbox = std::fs::read_to_string(corpus("two-reports.mbox")).unwrap();
    let mbox = mbox
        .replace(TWO_REPORTS, &culprit)
        .replace(&TWO_REPORTS[..10], &culprit[..10]);
    let rewritten = tmp.path().join("two-reports.mbox");
    std::fs::write(&rewritten, mbox).unwrap();

    // A topic branch merged: the ext4 fix, with a Link to a reply of the
    // report's thread and the robot's Reported-by.
    m.run(&["checkout", "-q", "-b", "ext4-topic", "v6.8"]);
    let ext4_fix = m.commit(
        "fs/ext4/orphan.c",
        &format!(
            "ext4: only lock the orphan list for orphans\n\n{ROBOT}\nLink: https://lore.kernel.org/r/20240315101500.aaaa1111@quack3\nSigned-off-by: Jan Kara <jack@suse.cz>"
        ),
        None,
    );
    m.run(&["checkout", "-q", "master"]);
    m.run(&[
        "merge",
        "-q",
        "--no-ff",
        "-m",
        "Merge tag 'ext4-fixes'",
        "ext4-topic",
    ]);
    m.tag("v6.9-rc1");
    // A Fixes: of the rewritten culprit with the robot's Reported-by.
    let fiemap_fix = m.commit(
        "fs/ext4/extents.c",
        &format!(
            "ext4: walk fiemap extents in batches\n\nFixes: {} (\"ext4: make fiemap walk extents once\")\n{ROBOT}",
            &culprit[..12]
        ),
        None,
    );
    m.tag("v6.9-rc2");
    // A revert of the disputed jbd2 culprit, not released yet.
    let revert = m.commit(
        "fs/jbd2/commit.c",
        &format!("Revert \"jbd2: x\"\n\nThis reverts commit {JBD2_DISPUTED}."),
        None,
    );
    // Stable: a backport of the ext4 fix on linux-6.8.y.
    m.run(&["checkout", "-q", "-b", "linux-6.8.y", "v6.8"]);
    let backport = m.commit(
        "fs/ext4/orphan.c",
        &format!(
            "ext4: only lock the orphan list for orphans\n\ncommit {ext4_fix} upstream.\n\n{ROBOT}"
        ),
        None,
    );
    m.run(&["checkout", "-q", "master"]);

    // linux-next: mainline plus the jbd2 fix, by title and author of the
    // patch posted in the fix-in-tree thread.
    let next_dir = tmp.path().join("linux-next");
    let n = Git::new(&next_dir);
    n.clock.set(m.clock.get());
    n.run(&["pull", "-q", m.dir.to_str().unwrap(), "master"]);
    n.run(&["fetch", "-q", "--tags", m.dir.to_str().unwrap()]);
    let title = "jbd2: shrink the checkpoint list lazily again";
    let next_fix = n.commit(
        "fs/jbd2/checkpoint.c",
        title,
        Some("Fixer <fixer@example.org>"),
    );

    let mpath = m.dir.to_str().unwrap();
    ok(&db, &["trees", "add", "mainline", mpath, "--ref", "master"]);
    ok(
        &db,
        &["trees", "add", "stable", mpath, "--ref", "linux-6.8.y"],
    );
    ok(&db, &["trees", "add", "next", next_dir.to_str().unwrap()]);
    let listed = ok(&db, &["trees"]);
    assert!(
        listed.contains("mainline") && listed.contains("not read yet"),
        "{listed}"
    );
    let out = regtrack(
        &db,
        &[
            "ingest",
            corpus("fixed-history.mbox").to_str().unwrap(),
            corpus("disputed.mbox").to_str().unwrap(),
            corpus("fix-in-tree.mbox").to_str().unwrap(),
            rewritten.to_str().unwrap(),
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("tree 'mainline': master +"), "{err}");
    let listed = ok(&db, &["trees", "list"]);
    assert!(
        listed.contains(&format!("last read {}", m.run(&["rev-parse", "master"]))),
        "{listed}"
    );

    // ext4: fixed in v6.9-rc1 by the merged commit, the backport in stable.
    let r = show(&db, EXT4_CULPRIT);
    assert_eq!(r["status"], "fixed", "{r:#}");
    assert_eq!(r["fix"]["commit"], ext4_fix.as_str());
    assert_eq!(r["fix"]["release"], "v6.9-rc1");
    let trees: Vec<&str> = r["fix"]["trees"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for t in ["mainline master", "stable linux-6.8.y", "next"] {
        assert!(trees.contains(&t), "{t} in {trees:?}");
    }
    assert!(
        r["timeline"].as_array().unwrap().iter().any(|e| e["event"]
            .as_str()
            .unwrap_or("")
            .contains(&backport[..12])
            || e["event"].as_str().unwrap_or("").contains("fix committed")),
        "{r:#}"
    );

    // The rewritten culprit: found in mainline, released in v6.9-rc1; fixed
    // in v6.9-rc2 by the Fixes: commit.
    let r = show(&db, &culprit[..10]);
    assert_eq!(r["culprit"]["tree_commit"], culprit.as_str());
    assert_eq!(r["culprit"]["release"], "v6.9-rc1");
    assert_eq!(r["status"], "fixed", "{r:#}");
    assert_eq!(r["fix"]["commit"], fiemap_fix.as_str());
    assert_eq!(r["fix"]["release"], "v6.9-rc2");
    // Found in the tree alone: no message, no page of one.
    assert_eq!(r["fix"]["message_id"], Value::Null, "{r:#}");
    assert_eq!(r["fix"].get("url"), None, "{r:#}");
    for args in [
        &["show", &culprit[..10]][..],
        &["export", "--format", "md"][..],
        &["export", "--format", "html"][..],
        &["export", "--format", "csv"][..],
    ] {
        let out = ok(&db, args);
        assert!(!out.contains("/all//"), "{args:?}: {out}");
    }

    // The disputed jbd2 culprit, reported on mainline and reverted there,
    // no release holding the revert yet: the revert is the fix, applied.
    let r = show(&db, &JBD2_DISPUTED[..10]);
    assert_eq!(r["status"], "fix-applied", "{r:#}");
    assert_eq!(r["fix"]["commit"], revert.as_str());
    let why = r["status_evidence"].as_array().unwrap().last().unwrap()["reason"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(why.contains(&revert[..12]), "{why}");

    // The lazy checkpoint fix: in next only. The mail already says the
    // robot measured mainline with it (`fixed`), which a tree holding it
    // in next only does not take back; the fix and its event are next's.
    let r = show(&db, JBD2_LAZY);
    assert_eq!(r["status"], "fixed", "{r:#}");
    assert_eq!(r["fix"]["commit"], next_fix.as_str());
    assert_eq!(r["fix"]["release"], Value::Null);
    assert_eq!(r["fix"]["trees"], serde_json::json!(["next"]));
    let events: Vec<&str> = r["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["event"].as_str())
        .collect();
    assert!(
        events
            .iter()
            .any(|e| e.starts_with("fix committed in next only") && e.contains(&next_fix[..12])),
        "{events:#?}"
    );

    // list --fixed-in: v6.9-rc1 or earlier is the ext4 history only.
    let listed = ok(
        &db,
        &[
            "list",
            "--status",
            "fixed",
            "--fixed-in",
            "v6.9-rc1",
            "--json",
        ],
    );
    let v: Value = serde_json::from_str(&listed).unwrap();
    let culprits: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["culprit"]["commit"].as_str())
        .collect();
    assert_eq!(culprits, [EXT4_CULPRIT]);
    let exported = ok(&db, &["export", "--format", "json"]);
    assert!(exported.contains("\"release\": \"v6.9-rc2\""), "{exported}");
    let human = ok(&db, &["show", &culprit[..10]]);
    assert!(human.contains("culprit in: mainline master"), "{human}");

    // linux-next rebuilt: the fix commit is replaced by a new one with the
    // same title; the old one vanished from next.
    n.run(&["reset", "-q", "--hard", "HEAD~1"]);
    let rebuilt = n.commit(
        "fs/jbd2/checkpoint2.c",
        title,
        Some("Fixer <fixer@example.org>"),
    );
    assert_ne!(rebuilt, next_fix);
    let out = regtrack(&db, &["trees", "sync"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("force-pushed, 1 gone"), "{err}");
    // Only the histories the changed commits reach are relinked, and the
    // result is a full relink's.
    assert!(err.contains("(an update)"), "{err}");
    let r = show(&db, JBD2_LAZY);
    assert_eq!(r["fix"]["commit"], rebuilt.as_str(), "{r:#}");
    crate::common::assert_same_as_full(&db);
    // Nothing new: nothing relinked.
    let out = regtrack(&db, &["trees", "sync"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing new to link"));
}

#[test]
fn bad_trees_are_refused_and_the_mail_side_keeps_working() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("t.db");
    // Not a repository.
    let plain = tmp.path().join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    let out = regtrack(&db, &["trees", "add", "mainline", plain.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("tree 'mainline'") && err.contains("not a git repository"),
        "{err}"
    );
    // A missing ref.
    let g = Git::new(&tmp.path().join("linux"));
    g.commit("a", "one", None);
    g.commit("a", "two", None);
    let gp = g.dir.to_str().unwrap();
    let out = regtrack(&db, &["trees", "add", "mainline", gp, "--ref", "for-next"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("tree 'mainline'") && err.contains("ref 'for-next' does not exist"),
        "{err}"
    );
    // A shallow clone.
    let shallow = tmp.path().join("shallow");
    g.run(&[
        "clone",
        "-q",
        "--depth",
        "1",
        &format!("file://{gp}"),
        shallow.to_str().unwrap(),
    ]);
    let out = regtrack(&db, &["trees", "add", "shallow", shallow.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("tree 'shallow'") && err.contains("shallow clone"),
        "{err}"
    );
    // Nothing recorded by the refusals: not even a database made.
    assert!(!db.exists());

    // A tree that is gone at ingest: the mail is stored and linked, the
    // tree named, exit 2; nothing of it stored.
    ok(&db, &["trees", "add", "gone", gp]);
    std::fs::rename(&g.dir, tmp.path().join("moved")).unwrap();
    let out = regtrack(
        &db,
        &["ingest", corpus("fixed-history.mbox").to_str().unwrap()],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("tree 'gone'") && err.contains("nothing of it stored"),
        "{err}"
    );
    let r = show(&db, EXT4_CULPRIT);
    assert_eq!(r["culprit"]["commit"], EXT4_CULPRIT);
    assert!(ok(&db, &["trees"]).contains("not read yet"));
}

/// A fix whose commit says nothing the mail names (no trailer, another
/// title): `mark --fix` names it, and the tree says where it is and in
/// which release; `unmark` takes it back.
#[test]
fn a_fix_named_by_a_mark_is_found_in_the_tree_with_its_release() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("t.db");
    let m = Git::new(&tmp.path().join("linux"));
    m.commit("Makefile", "Linux 6.8", None);
    m.tag("v6.8");
    let fix = m.commit(
        "fs/ext4/extents.c",
        "ext4: cache the last extent looked up",
        None,
    );
    m.commit("Makefile", "Linux 6.9-rc1", None);
    m.tag("v6.9-rc1");
    ok(
        &db,
        &[
            "trees",
            "add",
            "mainline",
            m.dir.to_str().unwrap(),
            "--ref",
            "master",
        ],
    );
    ok(
        &db,
        &["-q", "ingest", corpus("two-reports.mbox").to_str().unwrap()],
    );
    let r = show(&db, TWO_REPORTS);
    assert_eq!(r["status"], "reported", "{r:#}");

    ok(
        &db,
        &["-q", "mark", &TWO_REPORTS[..10], "--fix", &fix[..12]],
    );
    let r = show(&db, TWO_REPORTS);
    assert_eq!(r["status"], "fixed", "{r:#}");
    assert_eq!(r["fix"]["commit"], fix.as_str());
    assert_eq!(r["fix"]["release"], "v6.9-rc1");
    assert_eq!(r["fix"]["title"], "ext4: cache the last extent looked up");
    assert_eq!(r["fix"]["trees"], serde_json::json!(["mainline master"]));
    let events: Vec<&str> = r["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["event"].as_str())
        .collect();
    assert!(
        events
            .iter()
            .any(|e| e.starts_with("fix committed in mainline master")
                && e.contains("marked as the fix")),
        "{events:#?}"
    );

    ok(&db, &["-q", "unmark", TWO_REPORTS]);
    let r = show(&db, TWO_REPORTS);
    assert_eq!(r["status"], "reported", "{r:#}");
    assert_eq!(r["fix"], Value::Null);
}

/// A sync that brings a fix relinks only the histories the new commits'
/// keys reach (here the one its `Closes:` names), as an update, and the
/// result is what a full relink gives.
#[test]
fn a_tree_update_relinks_only_the_histories_its_commits_reach() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("t.db");
    let m = Git::new(&tmp.path().join("linux"));
    m.commit("Makefile", "Linux 6.8", None);
    m.tag("v6.8");
    ok(
        &db,
        &[
            "trees",
            "add",
            "mainline",
            m.dir.to_str().unwrap(),
            "--ref",
            "master",
        ],
    );
    let threads = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/threads");
    ok(&db, &["-q", "ingest", threads.to_str().unwrap()]);
    let before = show(&db, TWO_REPORTS);
    assert_eq!(before["status"], "reported", "{before:#}");
    let report = before["reports"][0]["message_id"]
        .as_str()
        .unwrap()
        .to_string();
    let fix = m.commit(
        "fs/ext4/extents.c",
        &format!(
            "ext4: walk fiemap extents in batches\n\nCloses: https://lore.kernel.org/oe-lkp/{report}\n{ROBOT}"
        ),
        None,
    );
    m.commit("Makefile", "Linux 6.9-rc1", None);
    m.tag("v6.9-rc1");
    let out = regtrack(&db, &["trees", "sync"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("(an update)"), "{err}");
    assert!(err.contains("and 1 regressions"), "{err}");
    let r = show(&db, TWO_REPORTS);
    assert_eq!(r["status"], "fixed", "{r:#}");
    assert_eq!(r["fix"]["commit"], fix.as_str());
    assert_eq!(r["fix"]["release"], "v6.9-rc1");
    crate::common::assert_same_as_full(&db);
}

/// A corrupt commit object in a followed tree: `trees sync` names the tree
/// and the ref, stores nothing of it, and the mail side goes on.
#[test]
fn a_corrupt_object_in_a_tree_is_named_and_nothing_of_it_is_stored() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("t.db");
    let g = Git::new(&tmp.path().join("linux"));
    g.commit("a", "one", None);
    let second = g.commit("a", "two", None);
    g.commit("a", "three", None);
    ok(
        &db,
        &[
            "trees",
            "add",
            "mainline",
            g.dir.to_str().unwrap(),
            "--ref",
            "master",
        ],
    );
    // The middle commit's loose object, overwritten with junk.
    let obj = g
        .dir
        .join(".git/objects")
        .join(&second[..2])
        .join(&second[2..]);
    let mut perms = std::fs::metadata(&obj).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&obj, perms).unwrap();
    std::fs::write(&obj, b"\x78\x9cnot a zlib stream at all").unwrap();
    let out = regtrack(
        &db,
        &["ingest", corpus("fixed-history.mbox").to_str().unwrap()],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("tree 'mainline'"), "{err}");
    assert!(err.contains("master"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let commits: i64 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("SELECT count(*) FROM tree_commits", [], |r| r.get(0))
        .unwrap();
    assert_eq!(commits, 0, "nothing of the tree is stored");
    assert!(ok(&db, &["trees"]).contains("not read yet"));
    let r = show(&db, EXT4_CULPRIT);
    assert_eq!(r["culprit"]["commit"], EXT4_CULPRIT);
}

/// A posted patch applied under another title: no trailer and no title
/// ties the commit to the history, its diff's patch id does; the sync that
/// brings the commit relinks that history as an update.
#[test]
fn a_patch_applied_under_another_title_is_found_by_its_patch_id() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("t.db");
    let m = Git::new(&tmp.path().join("linux"));
    m.commit("Makefile", "Linux 6.8", None);
    m.commit("fs/ext4/extents.c", "ext4: add the extent walker", None);
    m.tag("v6.8");
    m.run(&["checkout", "-q", "-b", "topic"]);
    m.commit(
        "fs/ext4/extents.c",
        "ext4: batch the fiemap extent walk\n\nSigned-off-by: A U Thor <author@example.org>",
        None,
    );
    let patch = m.run(&["format-patch", "-1", "--stdout"]);
    m.run(&["checkout", "-q", "master"]);
    // The patch, posted in reply to the report.
    let body = patch.split_once('\n').unwrap().1;
    let mail = format!(
        "From mboxrd@z Thu Jan  1 00:00:00 1970\nMessage-ID: <patch-1@example.org>\nIn-Reply-To: <202406010930.d15ea5e0-lkp@intel.com>\nReferences: <202406010930.d15ea5e0-lkp@intel.com>\n{body}\n"
    );
    let thread = std::fs::read_to_string(corpus("two-reports.mbox")).unwrap();
    let mbox = tmp.path().join("thread.mbox");
    std::fs::write(&mbox, format!("{thread}\n{mail}")).unwrap();
    ok(
        &db,
        &[
            "trees",
            "add",
            "mainline",
            m.dir.to_str().unwrap(),
            "--ref",
            "master",
        ],
    );
    ok(&db, &["-q", "ingest", mbox.to_str().unwrap()]);
    assert_eq!(show(&db, TWO_REPORTS)["status"], "fix-proposed");

    // Applied with its title reworded, then released.
    m.run(&["cherry-pick", "topic"]);
    m.run(&[
        "commit",
        "-q",
        "--amend",
        "-m",
        "ext4: walk fiemap extents in batches of 64",
    ]);
    let applied = m.run(&["rev-parse", "HEAD"]);
    m.commit("Makefile", "Linux 6.9-rc1", None);
    m.tag("v6.9-rc1");
    let out = regtrack(&db, &["trees", "sync"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("(an update)"), "{err}");
    let r = show(&db, TWO_REPORTS);
    assert_eq!(r["status"], "fixed", "{r:#}");
    assert_eq!(r["fix"]["commit"], applied.as_str(), "{:#}", r["fix"]);
    assert_eq!(r["fix"]["release"], "v6.9-rc1");
    let events: Vec<&str> = r["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["event"].as_str())
        .collect();
    assert!(
        events
            .iter()
            .any(|e| e.contains("patch id of patch patch-1@example.org")),
        "{events:#?}"
    );
    crate::common::assert_same_as_full(&db);
}

/// `regtrack` under a ceiling of 2 GB of address space (`ulimit -v`), so a
/// regression that reads an endless file fails here instead of filling the
/// machine's memory.
fn regtrack_bounded(db: &Path, args: &[&str]) -> Output {
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg("ulimit -v 2000000; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_regtrack"));
    in_test_env(sh, db, args)
}

/// A followed ref, `HEAD` or `packed-refs` that is a symlink to `/dev/zero`
/// is refused, named, before anything reads it.
#[test]
fn a_ref_that_is_an_endless_file_is_refused_unread() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("t.db");
    let g = Git::new(&tmp.path().join("linux"));
    g.commit("a", "one", None);
    let git = g.dir.join(".git");
    let dir = g.dir.to_str().unwrap();
    std::os::unix::fs::symlink("/dev/zero", git.join("refs/heads/zero")).unwrap();
    let out = regtrack_bounded(&db, &["trees", "add", "t", dir, "--ref", "zero"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("'.git/refs/heads/zero' is not a regular file"),
        "{err}"
    );
    std::fs::remove_file(git.join("refs/heads/zero")).unwrap();
    ok(&db, &["trees", "add", "t", dir, "--ref", "master"]);
    g.commit("a", "two", None);
    std::os::unix::fs::symlink("/dev/zero", git.join("packed-refs")).unwrap();
    let out = regtrack_bounded(&db, &["trees", "sync"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("'.git/packed-refs' is not a regular file"),
        "{err}"
    );
    std::fs::remove_file(git.join("packed-refs")).unwrap();
    ok(&db, &["trees", "sync"]);
}
