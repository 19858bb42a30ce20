//! `regtrack::trees` against repositories made here with the `git` command
//! and against git's own answers (`rev-list`, `describe --contains`,
//! `patch-id --stable`). Each test skips (saying so) when git is missing.

use crate::common::have_git;
use std::cell::Cell;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::Command;

use regtrack::trees::{
    Commit, ObjectId, ReleaseIndex, Repo, TreesError, WalkOutcome, patch_id_of_diff,
};

/// A repository driven by the `git` command, with a clock that advances an
/// hour per commit or tag, so dates are distinct and in creation order.
struct Git {
    dir: PathBuf,
    home: PathBuf,
    clock: Cell<i64>,
}

impl Git {
    fn init(dir: &Path) -> Git {
        std::fs::create_dir_all(dir).expect("mkdir");
        let g = Git {
            dir: dir.to_path_buf(),
            home: dir.with_extension("home"),
            clock: Cell::new(1_700_000_000),
        };
        std::fs::create_dir_all(&g.home).expect("mkdir home");
        g.run(&["init", "-q", "-b", "master"]);
        g
    }

    fn at(dir: &Path, like: &Git) -> Git {
        Git {
            dir: dir.to_path_buf(),
            home: like.home.clone(),
            clock: Cell::new(like.clock.get()),
        }
    }

    fn cmd(&self, args: &[&str]) -> Command {
        let t = self.clock.get();
        let date = format!("{t} +0000");
        let mut c = Command::new("git");
        c.current_dir(&self.dir)
            .args([
                "-c",
                "commit.gpgsign=false",
                "-c",
                "tag.gpgsign=false",
                "-c",
                "core.autocrlf=false",
                "-c",
                "protocol.file.allow=always",
                "-c",
                "gc.auto=0",
            ])
            .args(args)
            .env("HOME", &self.home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "A U Thor")
            .env("GIT_AUTHOR_EMAIL", "author@example.org")
            .env("GIT_COMMITTER_NAME", "C O Mitter")
            .env("GIT_COMMITTER_EMAIL", "committer@example.org")
            .env("GIT_AUTHOR_DATE", &date)
            .env("GIT_COMMITTER_DATE", &date);
        c
    }

    /// Runs git; panics with its stderr when it fails.
    fn run(&self, args: &[&str]) -> String {
        let out = self.cmd(args).output().expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    }

    /// Runs git; `None` when it fails.
    fn try_run(&self, args: &[&str]) -> Option<String> {
        let out = self.cmd(args).output().expect("git runs");
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim_end().to_string())
    }

    /// Runs git with `input` on standard input.
    fn pipe(&self, args: &[&str], input: &[u8]) -> String {
        use std::io::Write;
        let mut child = self
            .cmd(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("git runs");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input)
            .expect("write");
        let out = child.wait_with_output().expect("git runs");
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    }

    fn tick(&self) {
        self.clock.set(self.clock.get() + 3600);
    }

    fn write(&self, file: &str, content: &str) {
        let p = self.dir.join(file);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(p, content).expect("write");
    }

    /// Writes `file`, commits everything with `message`, returns the id.
    fn commit(&self, file: &str, content: &str, message: &str) -> String {
        self.write(file, content);
        self.commit_all(message)
    }

    fn commit_all(&self, message: &str) -> String {
        self.tick();
        self.run(&["add", "-A"]);
        self.run(&["commit", "-q", "--allow-empty", "-m", message]);
        self.run(&["rev-parse", "HEAD"])
    }

    fn merge(&self, branch: &str, message: &str) -> String {
        self.tick();
        self.run(&["merge", "-q", "--no-ff", "-m", message, branch]);
        self.run(&["rev-parse", "HEAD"])
    }

    fn tag(&self, name: &str, annotated: bool) {
        self.tick();
        if annotated {
            self.run(&["tag", "-a", name, "-m", name]);
        } else {
            self.run(&["tag", name]);
        }
    }

    fn rev_list(&self, range: &[&str]) -> Vec<String> {
        let mut args = vec!["rev-list"];
        args.extend_from_slice(range);
        let out = self.run(&args);
        out.lines().map(str::to_string).collect()
    }
}

fn oid(hex: &str) -> ObjectId {
    ObjectId::from_hex(hex.as_bytes()).expect("hex id")
}

fn hexes(ids: &[ObjectId]) -> Vec<String> {
    ids.iter().map(|i| i.to_string()).collect()
}

fn set(v: &[String]) -> HashSet<String> {
    v.iter().cloned().collect()
}

/// Walks `refname`, returning the commits delivered and the outcome.
fn walk(repo: &Repo, refname: &str, since: Option<ObjectId>) -> (Vec<Commit>, WalkOutcome) {
    let mut got = Vec::new();
    let out = repo
        .walk(refname, since, |c| {
            got.push(c);
            ControlFlow::Continue(())
        })
        .expect("walk");
    (got, out)
}

fn ids(commits: &[Commit]) -> Vec<String> {
    commits.iter().map(|c| c.id.to_string()).collect()
}

/// A file of `n` numbered lines, with line `changed` (if any) replaced.
fn lines(n: usize, tag: &str, changed: Option<(usize, &str)>) -> String {
    (0..n)
        .map(|i| match changed {
            Some((c, text)) if c == i => format!("{text}\n"),
            _ => format!("{tag} line {i};\n"),
        })
        .collect()
}

/// The mainline-like fixture: release tags (annotated and lightweight, v2.6
/// and v3+ style), topic branches merged later, a culprit, a fix with every
/// kind of trailer, a revert, and unreleased commits. Returns named ids.
struct Mainline {
    git: Git,
    culprit: String,
    fix: String,
    reverted: String,
    revert: String,
    late_topic: Vec<String>,
}

fn mainline(dir: &Path) -> Mainline {
    let g = Git::init(dir);
    g.commit("mm/a.c", &lines(20, "a", None), "Linux initial");
    g.tag("v2.6.39-rc1", true);
    g.commit(
        "mm/a.c",
        &lines(20, "a", Some((3, "a three"))),
        "mm: tweak a",
    );
    g.tag("v2.6.39", true);
    g.commit("net/b.c", &lines(20, "b", None), "net: add b");
    g.tag("v3.0-rc1", false);
    // A topic branch forked here, merged after v3.0.
    g.run(&["branch", "net-topic"]);
    g.commit(
        "mm/a.c",
        &lines(20, "a", Some((5, "a five"))),
        "mm: tweak a again",
    );
    g.tag("v3.0", true);
    g.run(&["checkout", "-q", "net-topic"]);
    g.commit("net/c.c", &lines(10, "c", None), "net: add c");
    g.commit(
        "net/c.c",
        &lines(10, "c", Some((2, "c two"))),
        "net: tweak c",
    );
    g.run(&["checkout", "-q", "master"]);
    let culprit = g.commit(
        "mm/a.c",
        &lines(20, "a", Some((10, "a ten slow"))),
        "mm: add feature X",
    );
    g.merge("net-topic", "Merge branch 'net-topic'");
    g.tag("v6.8-rc1", true);
    let short = &culprit[..12];
    let fix_msg = format!(
        "mm: fix regression of feature X\n\n\
         The robot found a slowdown.\n\n\
         Fixes: {short} (\"mm: add feature X\")\n\
         Reported-by: kernel test robot <oliver.sang@intel.com>\n\
         Closes: https://lore.kernel.org/oe-lkp/202403011234.5678abcd-oliver.sang@intel.com\n\
         Link: https://lore.kernel.org/r/20240301.fix@example.org\n\
         Tested-by: Tess Ter <tess@example.org>\n\
         Signed-off-by: A U Thor <author@example.org>\n"
    );
    let fix = g.commit(
        "mm/a.c",
        &lines(20, "a", Some((10, "a ten fast"))),
        &fix_msg,
    );
    g.tag("v6.8", true);
    // Another topic forked before v6.9-rc1, merged after v6.9.
    g.run(&["branch", "late-topic"]);
    let reverted = g.commit(
        "net/b.c",
        &lines(20, "b", Some((7, "b seven"))),
        "net: risky",
    );
    g.tag("v6.9-rc1", false);
    g.run(&["checkout", "-q", "late-topic"]);
    let late1 = g.commit("drivers/d.c", &lines(5, "d", None), "drivers: add d");
    let late2 = g.commit(
        "drivers/d.c",
        &lines(5, "d", Some((1, "d one"))),
        "drivers: tweak d",
    );
    g.run(&["checkout", "-q", "master"]);
    g.tick();
    g.run(&["revert", "--no-edit", &reverted]);
    let revert = g.run(&["rev-parse", "HEAD"]);
    g.tag("v6.9", true);
    g.merge("late-topic", "Merge branch 'late-topic'");
    g.commit(
        "mm/a.c",
        &lines(20, "a", Some((12, "a twelve"))),
        "mm: tweak twelve",
    );
    g.tag("v6.10-rc1", true);
    g.commit(
        "mm/a.c",
        &lines(20, "a", Some((13, "a thirteen"))),
        "mm: unreleased",
    );
    Mainline {
        git: g,
        culprit,
        fix,
        reverted,
        revert,
        late_topic: vec![late1, late2],
    }
}

/// The tag `git describe --contains` names for `commit` (without the
/// `~n^m` path), when there is one.
fn describe_contains(g: &Git, commit: &str) -> Option<String> {
    g.try_run(&["describe", "--contains", commit])
        .map(|s| s.split(['~', '^']).next().unwrap_or_default().to_string())
}

#[test]
fn first_walk_delivers_history_newest_first_with_parsed_fields() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let m = mainline(&tmp.path().join("linux"));
    let repo = Repo::open(&m.git.dir).expect("opens");
    let (got, out) = walk(&repo, "master", None);
    let want = m.git.rev_list(&["master"]);
    assert_eq!(out.tip.to_string(), want[0]);
    assert_eq!(set(&ids(&got)), set(&want));
    assert_eq!(got.len(), want.len(), "each commit once");
    assert_eq!(out.delivered as usize, want.len());
    assert!(!out.forced && out.vanished.is_empty() && !out.shallow && !out.stopped);
    assert!(
        got.windows(2)
            .all(|w| w[0].committer_time >= w[1].committer_time),
        "newest first"
    );
    // Same with HEAD, a full ref name and a bare clone.
    assert_eq!(walk(&repo, "HEAD", None).1.tip, out.tip);
    assert_eq!(walk(&repo, "refs/heads/master", None).1.tip, out.tip);
    let bare = tmp.path().join("linux.git");
    m.git
        .run(&["clone", "-q", "--bare", ".", bare.to_str().expect("utf-8")]);
    let bare_repo = Repo::open(&bare).expect("opens bare");
    assert_eq!(walk(&bare_repo, "master", None).0.len(), want.len());
    // Remote-tracking refs of a clone, short and full.
    let clone = tmp.path().join("clone");
    m.git
        .run(&["clone", "-q", ".", clone.to_str().expect("utf-8")]);
    let clone_repo = Repo::open(&clone).expect("opens clone");
    for r in ["origin/master", "refs/remotes/origin/master"] {
        assert_eq!(walk(&clone_repo, r, None).1.tip, out.tip, "{r}");
    }

    let by_id = |hex: &str| got.iter().find(|c| c.id == oid(hex)).expect("walked");
    let fix = by_id(&m.fix);
    assert_eq!(fix.title, "mm: fix regression of feature X");
    assert_eq!(fix.author_name, "A U Thor");
    assert_eq!(fix.author_email, "author@example.org");
    assert_eq!(fix.parents.len(), 1);
    assert_eq!(
        fix.author_time,
        m.git
            .run(&["log", "-1", "--format=%at", &m.fix])
            .parse::<i64>()
            .expect("number")
    );
    let keys: Vec<&str> = fix.trailers.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(
        keys,
        ["Fixes", "Reported-by", "Closes", "Link", "Tested-by"]
    );
    assert_eq!(fix.trailers[0].commit.as_deref(), Some(&m.culprit[..12]));
    assert_eq!(fix.trailers[0].title.as_deref(), Some("mm: add feature X"));
    assert_eq!(
        fix.trailers[1].value,
        "kernel test robot <oliver.sang@intel.com>"
    );
    let revert = by_id(&m.revert);
    assert_eq!(
        revert.reverts.map(|r| r.to_string()),
        Some(m.reverted.clone())
    );
    assert_eq!(revert.title, "Revert \"net: risky\"");
    let culprit = by_id(&m.culprit);
    assert!(culprit.trailers.is_empty() && culprit.reverts.is_none());
    let merges = got.iter().filter(|c| c.parents.len() == 2).count();
    assert_eq!(merges, 2);
    // A parsed commit equals what the walk gave.
    assert_eq!(&repo.commit(&oid(&m.fix)).expect("commit"), fix);

    // Stopping early.
    let mut n = 0;
    let out = repo
        .walk("master", None, |_| {
            n += 1;
            if n == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .expect("walk");
    assert!(out.stopped);
    assert_eq!(out.delivered, 3);
}

#[test]
fn update_after_fast_forward_delivers_only_new_commits() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let m = mainline(&tmp.path().join("linux"));
    let g = &m.git;
    let repo = Repo::open(&g.dir).expect("opens");
    let old = walk(&repo, "master", None).1.tip;
    // New work: a topic forked from an old commit, merged, then commits.
    g.run(&["checkout", "-q", "-b", "old-topic", "v3.0"]);
    g.commit("fs/e.c", &lines(5, "e", None), "fs: add e");
    g.run(&["checkout", "-q", "master"]);
    g.merge("old-topic", "Merge branch 'old-topic'");
    g.commit("mm/a.c", &lines(20, "a", Some((15, "x"))), "mm: more");
    let repo = Repo::open(&g.dir).expect("reopens");
    let (got, out) = walk(&repo, "master", Some(old));
    let want = g.rev_list(&[&format!("{old}..master")]);
    assert_eq!(ids(&got), want, "same commits, same order as rev-list");
    assert!(!out.forced && out.vanished.is_empty());
    assert_eq!(out.merge_bases, vec![old]);
    // Nothing new.
    let (none, same) = walk(&repo, "master", Some(out.tip));
    assert!(none.is_empty() && !same.forced && same.tip == out.tip);
}

#[test]
fn force_pushed_branch_reports_new_and_vanished_commits() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let m = mainline(&tmp.path().join("linux"));
    let g = &m.git;
    // A maintainer's for-next based on v6.9-rc1.
    g.run(&["checkout", "-q", "-b", "for-next", "v6.9-rc1"]);
    let p1 = g.commit("sound/f.c", &lines(8, "f", None), "sound: add f");
    g.commit("sound/f2.c", &lines(8, "f2", None), "sound: add f2");
    g.commit("sound/f3.c", &lines(8, "f3", None), "sound: add f3");
    let repo = Repo::open(&g.dir).expect("opens");
    let (first, out1) = walk(&repo, "refs/heads/for-next", None);
    assert_eq!(first.len(), g.rev_list(&["for-next"]).len());
    let old = out1.tip;
    // Rebased onto master, the middle commit dropped, one commit added.
    g.tick();
    g.run(&["rebase", "-q", "--onto", "master", "v6.9-rc1", "for-next"]);
    g.tick();
    g.run(&["rebase", "-q", "--onto", "HEAD~2", "HEAD~1", "for-next"]);
    g.commit("sound/g.c", &lines(3, "g", None), "sound: add g");
    let repo = Repo::open(&g.dir).expect("reopens");
    let (got, out) = walk(&repo, "for-next", Some(old));
    let new_hex = out.tip.to_string();
    let old_hex = old.to_string();
    assert!(out.forced);
    assert_eq!(
        set(&ids(&got)),
        set(&g.rev_list(&[&format!("{old_hex}..{new_hex}")]))
    );
    assert_eq!(
        got.len(),
        g.rev_list(&[&format!("{old_hex}..{new_hex}")]).len()
    );
    assert_eq!(
        set(&hexes(&out.vanished)),
        set(&g.rev_list(&[&format!("{new_hex}..{old_hex}")]))
    );
    assert_eq!(out.vanished.len(), 3, "the three old for-next commits");
    assert!(hexes(&out.vanished).contains(&p1));
    assert_eq!(
        hexes(&out.merge_bases),
        vec![g.run(&["merge-base", &old_hex, &new_hex])]
    );
    // Reset backwards: nothing new, the dropped commits vanish.
    g.run(&["checkout", "-q", "master"]);
    g.run(&["branch", "-f", "for-next", "master"]);
    let repo = Repo::open(&g.dir).expect("reopens");
    let (got, back) = walk(&repo, "for-next", Some(out.tip));
    assert!(got.is_empty() && back.forced);
    assert_eq!(
        set(&hexes(&back.vanished)),
        set(&g.rev_list(&[&format!("master..{new_hex}")]))
    );
}

#[test]
fn rebuilt_linux_next_reports_new_and_vanished_commits() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let m = mainline(&tmp.path().join("linux"));
    let g = &m.git;
    let build_next = |day: &str| {
        g.run(&["checkout", "-q", "-B", "next", "master"]);
        for tree in ["net", "mm"] {
            g.run(&["checkout", "-q", "-B", tree, "master"]);
            g.commit(
                &format!("{tree}/{day}.c"),
                &lines(4, day, None),
                &format!("{tree}: work of {day}"),
            );
            g.run(&["checkout", "-q", "next"]);
            g.merge(tree, &format!("Merge branch '{tree}' of git://{tree}"));
        }
        g.commit(
            "Next/SHA1s",
            day,
            &format!("Add linux-next specific files for {day}"),
        );
        g.tick();
        g.run(&["tag", "-f", &format!("next-{day}")]);
    };
    build_next("20240101");
    let repo = Repo::open(&g.dir).expect("opens");
    let old = walk(&repo, "next", None).1.tip;
    // Mainline moves on; next is rebuilt from scratch on top of it.
    g.run(&["checkout", "-q", "master"]);
    g.commit(
        "mm/a.c",
        &lines(20, "a", Some((16, "y"))),
        "mm: mainline moves",
    );
    build_next("20240102");
    let repo = Repo::open(&g.dir).expect("reopens");
    let (got, out) = walk(&repo, "refs/heads/next", Some(old));
    let (o, n) = (old.to_string(), out.tip.to_string());
    assert!(out.forced);
    assert_eq!(ids(&got), g.rev_list(&[&format!("{o}..{n}")]));
    assert_eq!(hexes(&out.vanished), g.rev_list(&[&format!("{n}..{o}")]));
    assert_eq!(
        out.vanished.len(),
        5,
        "two merges, two topic commits, the top"
    );
    assert_eq!(got.len(), 6, "the same five anew and the mainline commit");
    assert_eq!(
        hexes(&out.merge_bases),
        vec![g.run(&["merge-base", &o, &n])]
    );
}

#[test]
fn first_release_matches_git_describe_contains() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let m = mainline(&tmp.path().join("linux"));
    let g = &m.git;
    // A stable branch with a stable tag, which is no mainline release.
    g.run(&["checkout", "-q", "-b", "linux-6.8.y", "v6.8"]);
    g.commit("mm/s.c", "s\n", "mm: stable only");
    g.tag("v6.8.1", true);
    g.run(&["checkout", "-q", "master"]);
    let repo = Repo::open(&g.dir).expect("opens");
    let index = ReleaseIndex::build(&repo).expect("index");
    let names: Vec<&str> = index.tags().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "v2.6.39-rc1",
            "v2.6.39",
            "v3.0-rc1",
            "v3.0",
            "v6.8-rc1",
            "v6.8",
            "v6.9-rc1",
            "v6.9",
            "v6.10-rc1"
        ]
    );
    let all = g.rev_list(&["master"]);
    let mut released = 0;
    for c in &all {
        let ours = index.first_release(&oid(c)).map(|t| t.name.clone());
        assert_eq!(ours, describe_contains(g, c), "commit {c}");
        released += usize::from(ours.is_some());
    }
    assert_eq!(released, all.len() - 1, "all but the unreleased commit");
    assert_eq!(index.len(), released);
    let counts: u32 = index.tags().iter().map(|t| t.commits).sum();
    assert_eq!(counts as usize, released);
    // Topic commits merged after v6.9 are first released in v6.10-rc1.
    for c in &m.late_topic {
        let t = index.first_release(&oid(c)).map(|t| t.name.as_str());
        assert_eq!(t, Some("v6.10-rc1"));
    }
    assert_eq!(
        index.first_release(&oid(&m.fix)).map(|t| t.name.as_str()),
        Some("v6.8")
    );
    assert_eq!(index.tags()[5].commits, 1, "v6.8 released the fix alone");
    // Stored and loaded, it answers the same.
    let back = ReleaseIndex::from_bytes(&index.to_bytes()).expect("loads");
    assert_eq!(back, index);
    // Built from a commit-graph's parents, it is the same index.
    g.run(&["commit-graph", "write", "--reachable"]);
    assert_eq!(ReleaseIndex::build(&repo).expect("index"), index);
}

#[test]
fn release_index_updates_from_new_tags_only() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let m = mainline(&tmp.path().join("linux"));
    let g = &m.git;
    let repo = Repo::open(&g.dir).expect("opens");
    let mut index = ReleaseIndex::build(&repo).expect("index");
    let before = index.len();
    g.commit("mm/a.c", &lines(20, "a", Some((17, "z"))), "mm: for rc2");
    g.tag("v6.10-rc2", true);
    g.commit("mm/a.c", &lines(20, "a", Some((18, "w"))), "mm: for rc3");
    g.tag("v6.10-rc3", false);
    let repo = Repo::open(&g.dir).expect("reopens");
    let up = index.update(&repo).expect("update");
    assert_eq!(up.new_tags, ["v6.10-rc2", "v6.10-rc3"]);
    assert!(!up.rebuilt);
    let want = g.rev_list(&["v6.10-rc3", "^v6.10-rc1"]).len();
    assert_eq!(up.commits as usize, want);
    assert_eq!(index.len(), before + want);
    for c in g.rev_list(&["master"]) {
        let ours = index.first_release(&oid(&c)).map(|t| t.name.clone());
        assert_eq!(ours, describe_contains(g, &c), "commit {c}");
    }
    assert_eq!(index, ReleaseIndex::build(&repo).expect("rebuild"));
    // Nothing new: nothing walked.
    let up = index.update(&repo).expect("update");
    assert!(up.new_tags.is_empty() && up.commits == 0 && !up.rebuilt);
    // A late tag older than the newest indexed one: rebuilt.
    g.run(&["tag", "v3.1-rc1", "v3.0"]);
    let repo = Repo::open(&g.dir).expect("reopens");
    let up = index.update(&repo).expect("update");
    assert!(up.rebuilt);
    assert_eq!(index, ReleaseIndex::build(&repo).expect("rebuild"));
}

#[test]
fn stable_backport_names_its_upstream_and_shares_its_patch_id() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let m = mainline(&tmp.path().join("linux"));
    let g = &m.git;
    g.run(&["checkout", "-q", "-b", "linux-6.9.y", "v6.9"]);
    g.tick();
    g.run(&["cherry-pick", &m.late_topic[0]]);
    g.tick();
    g.run(&["cherry-pick", &m.late_topic[1]]);
    let up = &m.late_topic[1];
    let msg = format!("drivers: tweak d\n\ncommit {up} upstream.\n\nThe tweak.\n");
    g.run(&["commit", "-q", "--amend", "-m", &msg]);
    let backport = g.run(&["rev-parse", "HEAD"]);
    let repo = Repo::open(&g.dir).expect("opens");
    let (got, _) = walk(
        &repo,
        "linux-6.9.y",
        Some(oid(&g.run(&["rev-parse", "v6.9^{}"]))),
    );
    assert_eq!(got.len(), 2);
    let c = &got[0];
    assert_eq!(c.id.to_string(), backport);
    assert_eq!(c.upstream.map(|u| u.to_string()), Some(up.clone()));
    let a = repo.patch_id(&oid(&backport)).expect("patch id");
    let b = repo.patch_id(&oid(up)).expect("patch id");
    assert!(a.is_some());
    assert_eq!(a, b, "a clean backport has its upstream's patch id");
    // Contained in the stable branch and in master.
    assert_eq!(
        repo.refs_containing(&["master", "linux-6.9.y"], &oid(up))
            .expect("contains"),
        ["master"]
    );
    assert_eq!(
        repo.refs_containing(&["master", "linux-6.9.y"], &oid(&backport))
            .expect("contains"),
        ["linux-6.9.y"]
    );
    assert!(repo.contains("master", &oid(&m.culprit)).expect("contains"));
    assert!(
        !repo
            .contains("master", &oid("0123456789abcdef0123456789abcdef01234567"))
            .expect("contains")
    );
}

/// `git patch-id --stable` of commit `c`'s diff against its first parent.
fn git_patch_id(g: &Git, c: &str) -> Option<String> {
    let diff = g.run(&[
        "diff-tree",
        "-p",
        "--root",
        "--no-renames",
        "--full-index",
        c,
    ]);
    let out = g.pipe(&["patch-id", "--stable"], format!("{diff}\n").as_bytes());
    out.split_whitespace().next().map(str::to_string)
}

#[test]
fn patch_ids_equal_git_patch_id_stable() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let g = Git::init(&tmp.path().join("p"));
    let mut commits = Vec::new();
    commits.push(g.commit("a.c", &lines(30, "a", None), "root: add a"));
    // Two hunks in one file, another file, a new file.
    g.write(
        "a.c",
        &lines(30, "a", Some((2, "two"))).replace("a line 25;", "twenty-five"),
    );
    g.write("b/b.c", &lines(10, "b", None));
    commits.push(g.commit("c.h", "#define C 1\n", "several files"));
    // Changes 7 lines apart (two hunks) and 6 apart (one hunk).
    g.write(
        "a.c",
        &lines(30, "a", Some((2, "two")))
            .replace("a line 10;", "ten")
            .replace("a line 17;", "x"),
    );
    commits.push(g.commit_all("hunk spacing"));
    // A deletion, a mode change, a file without a final newline.
    g.run(&["rm", "-q", "c.h"]);
    std::fs::write(g.dir.join("run.sh"), "#!/bin/sh\necho hi").expect("write");
    commits.push(g.commit_all("delete, add without newline"));
    let chmod = |mode: u32| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(g.dir.join("run.sh"), std::fs::Permissions::from_mode(mode))
            .expect("chmod");
    };
    chmod(0o755);
    commits.push(g.commit_all("mode only"));
    chmod(0o644);
    commits.push(g.commit("run.sh", "#!/bin/sh\necho hi\n", "mode and newline"));
    // An empty new file, then content added to it.
    commits.push(g.commit("empty.txt", "", "empty file"));
    commits.push(g.commit("empty.txt", "now text\n", "fill it"));
    // Whole-file rewrite and a symlink.
    g.write("b/b.c", &lines(12, "bb", None));
    std::os::unix::fs::symlink("a.c", g.dir.join("link")).expect("symlink");
    commits.push(g.commit_all("rewrite and symlink"));
    // A binary file (git hashes the blob ids of the `index` line, full here)
    // and a rename (a deletion and an addition without rename detection).
    std::fs::write(g.dir.join("fw.bin"), b"\x7fELF\0\x01\x02").expect("write");
    commits.push(g.commit_all("binary"));
    std::fs::write(g.dir.join("fw.bin"), b"\x7fELF\0\x01\x03").expect("write");
    commits.push(g.commit(
        "b/b.c",
        &lines(12, "bb", Some((4, "four"))),
        "binary and text",
    ));
    g.run(&["mv", "a.c", "moved.c"]);
    commits.push(g.commit_all("rename"));
    let repo = Repo::open(&g.dir).expect("opens");
    for c in &commits {
        let ours = repo
            .patch_id(&oid(c))
            .expect("patch id")
            .map(|p| p.to_string());
        assert_eq!(
            ours,
            git_patch_id(&g, c),
            "commit {c}: {}",
            g.run(&["log", "-1", "--format=%s", c])
        );
    }
    // An empty commit has none.
    let empty = g.commit_all("nothing");
    assert_eq!(
        repo_reopened(&g).patch_id(&oid(&empty)).expect("patch id"),
        None
    );
    assert_eq!(git_patch_id(&g, &empty), None);
}

fn repo_reopened(g: &Git) -> Repo {
    Repo::open(&g.dir).expect("opens")
}

#[test]
fn mailed_patch_and_commit_share_a_patch_id() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let g = Git::init(&tmp.path().join("p"));
    let x = |changed| lines(40, "\tx", changed).replace("\tx line 7;\n", "\n");
    g.commit("mm/x.c", &x(None), "root");
    g.write("mm/x.c", &x(Some((5, "\tint  changed;"))));
    g.write("mm/y.c", &lines(6, "\ty", None));
    let c = g
        .commit_all("mm: change x, add y\n\nBody.\n\nSigned-off-by: A U Thor <author@example.org>");
    let repo = Repo::open(&g.dir).expect("opens");
    let ours = repo.patch_id(&oid(&c)).expect("patch id").expect("some");
    let mail = g.run(&["format-patch", "-1", "--stdout", &c]);
    assert_eq!(patch_id_of_diff(&mail), Some(ours));
    assert_eq!(git_patch_id(&g, &c), Some(ours.to_string()));
    let git_mail = g.pipe(&["patch-id", "--stable"], format!("{mail}\n").as_bytes());
    assert_eq!(
        git_mail.split_whitespace().next(),
        Some(ours.to_string().as_str())
    );
    // Mangled in transit: tabs to spaces, CRLF, a stripped context line.
    let mangled = mail.replace('\t', "    ").replace('\n', "\r\n");
    assert_eq!(patch_id_of_diff(&mangled), Some(ours));
    let stripped = mail.replacen("\n \n", "\n\n", 1);
    assert_ne!(stripped, mail);
    assert_eq!(patch_id_of_diff(&stripped), Some(ours));
    // A different change is a different id.
    let other = mail.replace("+\tint  changed;", "+\tint other;");
    assert_ne!(patch_id_of_diff(&other), Some(ours));
}

#[test]
fn errors_name_the_repository_and_the_ref() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    // Not a repository, and a path that does not exist.
    let plain = tmp.path().join("plain");
    std::fs::create_dir_all(&plain).expect("mkdir");
    for p in [plain.clone(), tmp.path().join("absent")] {
        let e = Repo::open(&p).expect_err("not a repo");
        assert!(matches!(e, TreesError::NotARepository { .. }), "{e}");
        assert!(e.to_string().contains(p.to_str().expect("utf-8")), "{e}");
    }
    // An unborn HEAD and a ref that does not exist.
    let g = Git::init(&tmp.path().join("r"));
    let repo = Repo::open(&g.dir).expect("opens");
    let e = repo
        .walk("HEAD", None, |_| ControlFlow::Continue(()))
        .expect_err("unborn");
    assert!(matches!(e, TreesError::NoSuchRef { .. }), "{e}");
    let ids: Vec<String> = (0..4)
        .map(|i| g.commit("f", &format!("{i}\n"), &format!("c{i}")))
        .collect();
    let repo = Repo::open(&g.dir).expect("opens");
    let e = repo
        .walk("refs/heads/for-next", None, |_| ControlFlow::Continue(()))
        .expect_err("no ref");
    assert!(matches!(e, TreesError::NoSuchRef { .. }), "{e}");
    let text = e.to_string();
    assert!(
        text.contains("refs/heads/for-next") && text.contains(g.dir.to_str().expect("utf-8")),
        "{text}"
    );
    // A tip read last time that is gone.
    let gone = oid("0123456789abcdef0123456789abcdef01234567");
    let e = repo
        .walk("master", Some(gone), |_| ControlFlow::Continue(()))
        .expect_err("gone");
    assert!(matches!(e, TreesError::MissingObject { .. }), "{e}");
    assert!(e.to_string().contains("the tip read last time"), "{e}");
    // A missing commit in the middle of history (objects are loose here).
    let loose = |hex: &str| g.dir.join(".git/objects").join(&hex[..2]).join(&hex[2..]);
    let saved = std::fs::read(loose(&ids[1])).expect("loose object");
    std::fs::remove_file(loose(&ids[1])).expect("rm");
    let e = repo
        .walk("master", None, |_| ControlFlow::Continue(()))
        .expect_err("missing");
    assert!(matches!(e, TreesError::MissingObject { .. }), "{e}");
    let text = e.to_string();
    assert!(
        text.contains(&ids[1]) && text.contains("'master'"),
        "{text}"
    );
    // The same object, corrupt.
    std::fs::write(loose(&ids[1]), b"not zlib at all").expect("write");
    let e = repo
        .walk("master", None, |_| ControlFlow::Continue(()))
        .expect_err("corrupt");
    assert!(matches!(e, TreesError::CorruptObject { .. }), "{e}");
    assert!(e.to_string().contains(&ids[1]), "{e}");
    let e = repo.patch_id(&oid(&ids[1])).expect_err("corrupt");
    assert!(matches!(e, TreesError::CorruptObject { .. }), "{e}");
    std::fs::write(loose(&ids[1]), saved).expect("restore");
    assert_eq!(walk(&repo, "master", None).0.len(), 4);
    // A ref to something that is not a commit.
    g.run(&["tag", "treetag", "HEAD^{tree}"]);
    let e = repo
        .walk("treetag", None, |_| ControlFlow::Continue(()))
        .expect_err("tree");
    assert!(e.to_string().contains("not a commit"), "{e}");
}

#[test]
fn shallow_clone_walks_but_refuses_release_lookup() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let m = mainline(&tmp.path().join("linux"));
    let dest = tmp.path().join("shallow");
    let url = format!("file://{}", m.git.dir.display());
    m.git.run(&[
        "clone",
        "-q",
        "--depth",
        "3",
        "--branch",
        "master",
        &url,
        dest.to_str().expect("utf-8"),
    ]);
    let shallow = Git::at(&dest, &m.git);
    let repo = Repo::open(&dest).expect("opens");
    assert!(repo.is_shallow());
    let (got, out) = walk(&repo, "master", None);
    assert!(out.shallow);
    assert_eq!(set(&ids(&got)), set(&shallow.rev_list(&["master"])));
    let e = ReleaseIndex::build(&repo).expect_err("shallow");
    assert!(matches!(e, TreesError::Shallow { .. }), "{e}");
    assert!(
        e.to_string().contains("release lookup would be incomplete"),
        "{e}"
    );
}

#[test]
fn contains_agrees_with_rev_list_with_and_without_a_commit_graph() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let m = mainline(&tmp.path().join("linux"));
    let g = &m.git;
    g.run(&["checkout", "-q", "-b", "linux-6.8.y", "v6.8"]);
    g.commit("mm/s.c", "s\n", "mm: stable only");
    g.run(&["checkout", "-q", "master"]);
    let check = |what: &str| {
        let repo = Repo::open(&g.dir).expect("opens");
        let all = g.rev_list(&["--all"]);
        for r in ["master", "linux-6.8.y", "late-topic"] {
            let members = set(&g.rev_list(&[r]));
            for c in &all {
                let ours = repo.contains(r, &oid(c)).expect("contains");
                assert_eq!(ours, members.contains(c), "{what}: {c} in {r}");
            }
        }
    };
    check("no commit-graph");
    g.run(&["commit-graph", "write", "--reachable"]);
    assert!(g.dir.join(".git/objects/info/commit-graph").exists());
    check("commit-graph");
    // Commits newer than the graph.
    g.commit(
        "mm/a.c",
        &lines(20, "a", Some((19, "n"))),
        "mm: after the graph",
    );
    g.merge("linux-6.8.y", "Merge branch 'linux-6.8.y'");
    check("commits newer than the commit-graph");
}

#[test]
fn patch_ids_of_ambiguous_hunks_equal_git_on_kernel_like_code() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let g = Git::init(&tmp.path().join("p"));
    let f = |name: &str| format!("static int {name}(void)\n{{\n\treturn 0;\n}}\n\n");
    let base = format!("{}{}{}", f("a"), f("b"), f("c"));
    g.commit("k.c", &base, "base");
    let mut commits = Vec::new();
    // A function added between two others: the blank line and closing brace
    // around it make the hunk slide.
    commits.push(g.commit(
        "k.c",
        &format!("{}{}{}{}", f("a"), f("new"), f("b"), f("c")),
        "add new",
    ));
    // A function removed.
    commits.push(g.commit(
        "k.c",
        &format!("{}{}{}", f("a"), f("new"), f("c")),
        "drop b",
    ));
    // Repeated lines: a statement duplicated in a block.
    let block = |n: usize| {
        let mut s = String::from("void f(void)\n{\n");
        for _ in 0..n {
            s.push_str("\tcpu_relax();\n");
        }
        s.push_str("}\n");
        s
    };
    commits.push(g.commit("r.c", &block(3), "block"));
    commits.push(g.commit("r.c", &block(5), "more of the same"));
    // An if block added before an existing, similar one.
    let ifs = |extra: bool| {
        let mut s = String::from("int g(int x)\n{\n");
        if extra {
            s.push_str("\tif (x > 1)\n\t\treturn 1;\n\n");
        }
        s.push_str("\tif (x > 0)\n\t\treturn 1;\n\n\treturn 0;\n}\n");
        s
    };
    commits.push(g.commit("i.c", &ifs(false), "ifs"));
    commits.push(g.commit("i.c", &ifs(true), "another if"));
    let repo = Repo::open(&g.dir).expect("opens");
    for c in &commits {
        let ours = repo
            .patch_id(&oid(c))
            .expect("patch id")
            .map(|p| p.to_string());
        let subject = g.run(&["log", "-1", "--format=%s", c]);
        assert_eq!(ours, git_patch_id(&g, c), "{subject}");
    }
}

/// Random edits of repetitive C-like text (where many hunks may slide): the
/// patch ids equal git's, also where git's indent heuristic moves a hunk.
#[test]
fn patch_ids_of_random_repetitive_edits_equal_git() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let g = Git::init(&tmp.path().join("p"));
    let pool = [
        "}",
        "",
        "{",
        "\treturn 0;",
        "\tif (x)",
        "\t\tgoto out;",
        "out:",
        "\tfoo();",
        "\tbar();",
        "static int f(void)",
        "#include <linux/mm.h>",
        "\t}",
        "\t\treturn -EINVAL;",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let mut lines: Vec<&str> = (0..60).map(|_| pool[next(pool.len())]).collect();
    g.commit("k.c", &(lines.join("\n") + "\n"), "base");
    let (mut slid, mut total) = (0, 0);
    for i in 0..80 {
        let pos = next(lines.len() + 1);
        if next(10) < 6 {
            let start = pos.saturating_sub(next(7));
            let end = (start + 1 + next(5)).min(lines.len());
            let block: Vec<&str> = lines[start.min(end)..end].to_vec();
            lines.splice(pos..pos, block);
        } else {
            let end = (pos + 1 + next(4)).min(lines.len());
            lines.drain(pos..end);
        }
        let c = g.commit("k.c", &(lines.join("\n") + "\n"), &format!("edit {i}"));
        let plain = g.run(&["diff-tree", "-p", "--no-indent-heuristic", &c]);
        let plain = g.pipe(&["patch-id", "--stable"], format!("{plain}\n").as_bytes());
        let want = git_patch_id(&g, &c);
        slid += usize::from(plain.split_whitespace().next() != want.as_deref());
        let repo = Repo::open(&g.dir).expect("opens");
        let ours = repo
            .patch_id(&oid(&c))
            .expect("patch id")
            .map(|p| p.to_string());
        assert_eq!(ours, want, "edit {i}");
        total += 1;
    }
    assert!(
        slid > 0,
        "some of the {total} edits have hunks the heuristic moves"
    );
}
