//! public-inbox archives built at test time with `git`: a bare epoch, a v2
//! inbox with two epochs, incremental re-ingest, a repository that is not
//! an inbox, and blobs read from delta chains in a repacked epoch (with loose
//! objects beside it, and with a damaged pack).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{Cmd, Run, column, have_git, one, rows, sql_i64};

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
        self.add_body(id, subject, &format!("body of {id}\n"));
    }

    fn add_body(&self, id: &str, subject: &str, body: &str) {
        let msg = format!(
            "From: A <a@example.org>\nSubject: {subject}\nDate: Tue, 09 May 2023 09:05:00 +0000\nMessage-ID: <{id}>\nList-Id: <linux-test.vger.kernel.org>\n\n{body}"
        );
        self.add_message(id, &msg);
    }

    /// Commits `msg` (headers and body, as written) as the next message.
    fn add_message(&self, id: &str, msg: &str) {
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

fn ingest(db: &Path, path: &Path) -> Run {
    Cmd::regtrack()
        .db(db)
        .args(["ingest", "--json"])
        .arg(path)
        .run()
}

fn counts(out: &Run) -> (u64, u64, u64, u64) {
    let v = out.json();
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
    let ids: Vec<String> = column(&db, "SELECT message_id FROM messages ORDER BY id");
    assert_eq!(
        ids,
        ["m0@x", "m1@x", "m2@x", "m3@x", "m4@x", "m5@x", "m6@x"]
    );
    let origin: String = one(
        &db,
        "SELECT origin_json FROM messages WHERE message_id = 'm6@x'",
    );
    assert!(origin.contains("\"type\":\"git\""), "{origin}");
    let last: String = one(
        &db,
        "SELECT last_commit FROM sources WHERE kind = 'public-inbox'",
    );
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
    assert_eq!(
        sql_i64(
            &db,
            "SELECT count(*) FROM sources WHERE kind = 'public-inbox'"
        ),
        2
    );
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
    assert_eq!(out.code(), Some(1));
    let err = &out.stderr;
    assert!(
        err.contains("not a public-inbox") && err.contains("code"),
        "{err}"
    );
}

/// A reply quoting a long report, as list traffic does: consecutive messages
/// share most of their text, so `git repack` stores them as delta chains.
fn quoting_body(i: usize) -> String {
    let mut body = String::new();
    for k in 0..120 {
        body.push_str(&format!(
            "> {k:>4}  +-{:.1}%  fsmark.files_per_sec line of the quoted table\n",
            (k % 9) as f64 / 3.0
        ));
    }
    body.push_str(&format!(
        "\nReply number {i}: {}\n",
        "the bisect looks right. ".repeat(i % 7 + 1)
    ));
    body
}

/// An epoch of 40 quoting messages (and a deletion), repacked with deep delta
/// chains, then 3 more messages pushed as loose objects.
fn repacked_epoch(dir: &Path) -> PathBuf {
    let inbox = Inbox::new(&dir.join("work"));
    for i in 0..40 {
        inbox.add_body(
            &format!("q{i}@x"),
            &format!("Re: message {i}"),
            &quoting_body(i),
        );
        if i == 20 {
            inbox.delete();
        }
    }
    let epoch = dir.join("0.git");
    inbox.publish(&epoch);
    git(&epoch, &["repack", "-adfq", "--depth=50", "--window=250"]);
    for i in 40..43 {
        inbox.add_body(
            &format!("q{i}@x"),
            &format!("Re: message {i}"),
            &quoting_body(i),
        );
    }
    inbox.publish(&epoch);
    epoch
}

/// [`repacked_epoch`] in a temporary folder (`None`, with a note, when git
/// is not installed).
fn repacked_epoch_if_git() -> Option<(tempfile::TempDir, PathBuf)> {
    if !have_git() {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let epoch = repacked_epoch(dir.path());
    Some((dir, epoch))
}

/// The blob `m` of every commit, oldest first (`None` for a deletion).
fn blobs_oldest_first(repo: &gix::Repository) -> Vec<Option<gix::ObjectId>> {
    let mut blobs = Vec::new();
    let mut next = Some(repo.head_id().unwrap().detach());
    while let Some(id) = next {
        let commit = repo.find_commit(id).unwrap();
        let tree = commit.tree().unwrap();
        blobs.push(tree.find_entry("m").map(|e| e.oid().to_owned()));
        next = commit.parent_ids().next().map(|p| p.detach());
    }
    blobs.reverse();
    blobs
}

/// The epoch's pack index and `git verify-pack -v` of it: `sha type size
/// size-in-pack offset [depth base-sha]` per object.
fn pack_listing(epoch: &Path) -> (PathBuf, String) {
    let idx = std::fs::read_dir(epoch.join("objects/pack"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "idx"))
        .unwrap();
    let out = Command::new("git")
        .current_dir(epoch)
        .args(["verify-pack", "-v"])
        .arg(&idx)
        .output()
        .unwrap();
    (idx, String::from_utf8_lossy(&out.stdout).to_string())
}

#[test]
fn blobs_on_delta_chains_read_from_the_pack_equal_what_gix_reads() {
    use regtrack::source::pack::PackReader;
    let Some((_dir, epoch)) = repacked_epoch_if_git() else {
        return;
    };
    let (_, listing) = pack_listing(&epoch);
    let chains = listing
        .lines()
        .filter(|l| l.contains(" blob ") && l.split_whitespace().count() == 7)
        .count();
    assert!(chains >= 20, "the repack stored {chains} blobs as deltas");

    let repo = gix::open(&epoch).unwrap();
    let blobs = blobs_oldest_first(&repo);
    assert_eq!(blobs.len(), 44);
    assert_eq!(blobs.iter().filter(|b| b.is_none()).count(), 1);
    for budget in [usize::MAX, 4096, 0] {
        let mut packs =
            PackReader::open(&epoch.join("objects"), repo.object_hash()).with_budget(budget);
        let locs = packs.plan(blobs.iter().map(|b| b.as_deref()));
        // The 40 repacked blobs are in the pack; the 3 pushed after are loose.
        assert_eq!(locs.iter().filter(|l| l.is_some()).count(), 40);
        for (blob, loc) in blobs.iter().zip(&locs) {
            if let (Some(blob), Some(loc)) = (blob, loc) {
                let ours = packs.read(*loc).unwrap();
                let theirs = repo.find_object(*blob).unwrap().detach().data;
                assert_eq!(ours, theirs, "blob {blob} with a cache of {budget} bytes");
            }
        }
        // Every planned use was made: nothing stays cached.
        assert_eq!(packs.cached_bytes(), 0, "budget {budget}");
    }

    // Commits (the walk reads them from the packs too): the 41 repacked ones
    // are found and equal gix's, the 3 pushed after are loose.
    let mut packs = PackReader::open(&epoch.join("objects"), repo.object_hash());
    let mut in_pack = 0;
    let mut next = Some(repo.head_id().unwrap().detach());
    while let Some(id) = next {
        let commit = repo.find_commit(id).unwrap();
        if let Some(read) = packs.read_commit(&id) {
            assert_eq!(read.unwrap(), commit.data, "commit {id}");
            in_pack += 1;
        }
        next = commit.parent_ids().next().map(|p| p.detach());
    }
    assert_eq!(in_pack, 41);
}

/// An epoch as public-inbox writes it, through `git fast-import`: each
/// message blob is stored as a delta of the message before it, so the chains
/// run oldest to newest, the other way round from a repack's.
fn fast_import_epoch(dir: &Path, messages: usize, body: fn(usize) -> String) -> PathBuf {
    use std::io::Write;
    let epoch = dir.join("fi.git");
    std::fs::create_dir_all(&epoch).unwrap();
    git(&epoch, &["init", "-q", "--bare", "-b", "master", "."]);
    let mut stream = Vec::new();
    for i in 0..messages {
        let msg = format!(
            "From: A <a@example.org>\nSubject: Re: message {i}\nMessage-ID: <fi{i}@x>\n\n{}",
            body(i)
        );
        write!(
            stream,
            "blob\nmark :{}\ndata {}\n{msg}\n",
            2 * i + 1,
            msg.len()
        )
        .unwrap();
        write!(
            stream,
            "commit refs/heads/master\nmark :{}\ncommitter t <t@example.org> {} +0000\ndata 3\nfi\n",
            2 * i + 2,
            1_700_000_000 + i
        )
        .unwrap();
        if i > 0 {
            writeln!(stream, "from :{}", 2 * i).unwrap();
        }
        write!(stream, "M 100644 :{} m\n\n", 2 * i + 1).unwrap();
    }
    let mut child = Command::new("git")
        .current_dir(&epoch)
        .args(["fast-import", "--quiet"])
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&stream).unwrap();
    assert!(child.wait().unwrap().success());
    epoch
}

#[test]
fn a_fast_import_epoch_holds_one_decoded_message_at_a_time() {
    use regtrack::source::pack::PackReader;
    if !have_git() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let epoch = fast_import_epoch(dir.path(), 60, quoting_body);
    // `sha type size size-in-pack offset depth base-sha`: the blobs form
    // chains of deltas, each on the message before it.
    let (_, listing) = pack_listing(&epoch);
    let deepest = listing
        .lines()
        .filter(|l| l.contains(" blob ") && l.split_whitespace().count() == 7)
        .filter_map(|l| l.split_whitespace().nth(5)?.parse::<usize>().ok())
        .max();
    assert!(deepest >= Some(20), "deepest blob chain {deepest:?}");

    let repo = gix::open(&epoch).unwrap();
    let blobs = blobs_oldest_first(&repo);
    assert_eq!(blobs.len(), 60);
    let mut packs = PackReader::open(&epoch.join("objects"), repo.object_hash());
    let locs = packs.plan(blobs.iter().map(|b| b.as_deref()));
    assert!(locs.iter().all(Option::is_some));
    for (i, (blob, loc)) in blobs.iter().zip(&locs).enumerate() {
        let ours = packs.read(loc.unwrap()).unwrap();
        let theirs = repo.find_object(blob.unwrap()).unwrap().detach().data;
        assert_eq!(ours, theirs, "message {i}");
        // Only this message stays decoded, as the base of the next one.
        let held = if i + 1 < blobs.len() { ours.len() } else { 0 };
        assert!(
            packs.cached_bytes() <= held,
            "after message {i}: {} bytes cached, {held} needed",
            packs.cached_bytes()
        );
    }
    assert_eq!(packs.cached_bytes(), 0);
}

/// Trees are read through a fresh mapping of the packs every
/// `TREES_PER_MAPPING` commits: every message still comes from its own commit.
#[test]
fn an_epoch_longer_than_one_tree_mapping_stores_each_message_from_its_commit() {
    use regtrack::source::public_inbox::TREES_PER_MAPPING;
    if !have_git() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let n = TREES_PER_MAPPING + 100;
    let epoch = fast_import_epoch(dir.path(), n, |i| format!("short reply {i}\n"));
    let db = dir.path().join("t.db");
    let (new, known, failed, _) = counts(&ingest(&db, &epoch));
    assert_eq!((new, known, failed), (n as u64, 0, 0));
    let out = Command::new("git")
        .current_dir(&epoch)
        .args(["rev-list", "--reverse", "master"])
        .output()
        .unwrap();
    let commits: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(commits.len(), n);
    for i in [0, TREES_PER_MAPPING - 1, TREES_PER_MAPPING, n - 1] {
        let origin: String = one(
            &db,
            &format!("SELECT origin_json FROM messages WHERE message_id = 'fi{i}@x'"),
        );
        assert!(
            origin.contains(&format!("\"commit\":\"{}\"", commits[i])),
            "message {i}: {origin}"
        );
    }
}

#[test]
fn an_unreadable_pack_index_leaves_the_other_packs_readable_after_a_remap() {
    use regtrack::source::pack::PackReader;
    let Some((_dir, epoch)) = repacked_epoch_if_git() else {
        return;
    };
    let repo = gix::open(&epoch).unwrap();
    let blobs = blobs_oldest_first(&repo);
    // Junk named like a pack index: opening it fails, and it stays there.
    std::fs::write(epoch.join("objects/pack/pack-junk.idx"), b"not an index").unwrap();
    let mut packs = PackReader::open(&epoch.join("objects"), repo.object_hash());
    let locs = packs.plan(blobs.iter().map(|b| b.as_deref()));
    packs.remap();
    let read = locs
        .iter()
        .flatten()
        .map(|loc| packs.read(*loc))
        .filter(Result::is_ok)
        .count();
    assert_eq!(read, 40);
}

#[test]
fn a_repacked_epoch_with_loose_objects_ingests_every_message() {
    let Some((dir, epoch)) = repacked_epoch_if_git() else {
        return;
    };
    let db = dir.path().join("t.db");
    let (new, known, failed, _) = counts(&ingest(&db, &epoch));
    assert_eq!((new, known, failed), (43, 0, 0));
    let subject: String = one(
        &db,
        "SELECT subject FROM messages WHERE message_id = 'q33@x'",
    );
    assert_eq!(subject, "Re: message 33");
    let shown = Cmd::regtrack().db(&db).args(["mail", "q33@x"]).run();
    let text = &shown.stdout;
    assert!(
        text.contains("Reply number 33: the bisect looks right. the bisect"),
        "{text}"
    );
}

#[test]
fn a_damaged_pack_fails_the_messages_it_holds_and_keeps_the_others() {
    let Some((dir, epoch)) = repacked_epoch_if_git() else {
        return;
    };
    let (idx, listing) = pack_listing(&epoch);
    let entries: Vec<Vec<&str>> = listing
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| f.len() >= 5 && f[1] == "blob")
        .collect();
    let delta = entries
        .iter()
        .find(|f| f.len() == 7)
        .expect("a deltified blob");
    let base = entries.iter().find(|f| f[0] == delta[6]).expect("its base");
    // Zeroes over the compressed data of a delta and of its base.
    let pack = idx.with_extension("pack");
    let mut perms = std::fs::metadata(&pack).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&pack, perms).unwrap();
    let mut bytes = std::fs::read(&pack).unwrap();
    for entry in [delta, base] {
        let offset: usize = entry[4].parse().unwrap();
        let len: usize = entry[3].parse().unwrap();
        for b in &mut bytes[offset + 3..offset + len - 1] {
            *b = 0;
        }
    }
    std::fs::write(&pack, bytes).unwrap();

    let db = dir.path().join("t.db");
    let out = ingest(&db, &epoch);
    let stderr = out.stderr.clone();
    let (new, known, failed, _) = counts(&out);
    assert_eq!(known, 0);
    // The two damaged blobs at least (and whatever else stands on that base).
    assert!(failed >= 2, "{stderr}");
    assert!(new >= 3, "the loose messages at least: {new}");
    assert_eq!(new + failed, 43, "{stderr}");
    assert!(stderr.contains("reading blob m"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Message-IDs with their content hashes, and the regressions' culprits.
fn stored(db: &Path) -> (Vec<(String, String)>, Vec<String>) {
    (
        rows(
            db,
            "SELECT message_id, content_hash FROM messages ORDER BY message_id",
        ),
        column(db, "SELECT culprit FROM regressions ORDER BY culprit"),
    )
}

/// scripts/mbox-to-epoch.py (which scripts/build-pgo trains on) writes every
/// message of an mboxrd file, `>From ` lines un-escaped, as an epoch that
/// ingests to the same messages and regressions as the mbox.
#[test]
fn an_mbox_written_as_an_epoch_stores_the_same_messages() {
    let python = Command::new("python3").arg("--version").output().is_ok();
    if !have_git() {
        return;
    }
    if !python {
        crate::common::skip("python3 is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mbox = dir.path().join("synth.mbox");
    crate::common::write_synth(400, 7, &mbox);
    let escaped = std::fs::read(&mbox)
        .unwrap()
        .split(|&b| b == b'\n')
        .filter(|l| l.starts_with(b">From "))
        .count();
    assert!(escaped > 0, "the archive has >From lines to un-escape");

    let epoch = dir.path().join("synth.git");
    let script = crate::common::root().join("scripts/mbox-to-epoch.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(&mbox)
        .arg(&epoch)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("400 messages"));

    let (from_mbox, from_epoch) = (dir.path().join("m.db"), dir.path().join("e.db"));
    assert_eq!(counts(&ingest(&from_mbox, &mbox)).0, 400);
    assert_eq!(counts(&ingest(&from_epoch, &epoch)).0, 400);
    let (messages, culprits) = stored(&from_mbox);
    assert_eq!(messages.len(), 400);
    assert!(!culprits.is_empty());
    assert_eq!(stored(&from_epoch), (messages, culprits));
}

/// The output of `git args` in `dir`, trimmed.
fn git_out(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A blob missing during a run (a partial clone, a pack replaced under
/// the reader, an object a mirror lacks for good) fails its commit and names
/// it; the epoch's progress passes it, and every later run reads that commit
/// alone again (not everything after it) until the object is back, when the
/// message is stored and the failure forgotten.
#[test]
fn a_message_whose_blob_cannot_be_read_is_read_again_by_the_next_run() {
    if !have_git() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::new(&dir.path().join("work"));
    for i in 0..5 {
        inbox.add(&format!("m{i}@x"), &format!("message {i}"));
    }
    let epoch = dir.path().join("0.git");
    inbox.publish(&epoch);
    let commit = git_out(&epoch, &["rev-parse", "HEAD~2"]);
    let blob = git_out(&epoch, &["rev-parse", "HEAD~2:m"]);
    let loose = epoch.join("objects").join(&blob[..2]).join(&blob[2..]);
    assert!(loose.is_file(), "the clone keeps loose objects");
    let aside = dir.path().join("aside");
    std::fs::rename(&loose, &aside).unwrap();
    let head = git_out(&epoch, &["rev-parse", "HEAD"]);
    let last_commit = |db: &Path| -> String {
        one(
            db,
            "SELECT last_commit FROM sources WHERE kind = 'public-inbox'",
        )
    };

    let db = dir.path().join("t.db");
    let out = ingest(&db, &epoch);
    let (new, _, failed, _) = counts(&out);
    assert_eq!((new, failed), (4, 1), "{}", out.stderr);
    let epoch_key = std::fs::canonicalize(&epoch).unwrap();
    assert!(
        out.stderr
            .contains(&format!("{}@{commit}", epoch_key.display())),
        "the unread commit is named with its epoch: {}",
        out.stderr
    );
    assert!(
        out.stderr.contains("read again on every run"),
        "{}",
        out.stderr
    );
    assert_eq!(last_commit(&db), head, "progress passes the unread commit");
    assert_eq!(sql_i64(&db, "SELECT count(*) FROM failures"), 1);

    // Missing for good: each run reads that one commit, nothing else, and
    // says so where a cron job can see it.
    for _ in 0..2 {
        let out = crate::common::Cmd::regtrack()
            .db(&db)
            .args(["ingest", "--json"])
            .arg(&epoch)
            .run();
        let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(v["new"], 0, "{v}");
        assert_eq!(v["known"], 0, "nothing after it is read again: {v}");
        assert_eq!(v["failed_commits"], 1, "{v}");
        // Failing again is said apart, once failed: no new failure, no
        // "nothing could be read" status, and a quiet run says nothing.
        assert_eq!(
            (v["failed"].as_u64(), v["failed_again"].as_u64()),
            (Some(0), Some(1)),
            "{v}"
        );
        assert!(out.success(), "{}", out.stderr);
        assert_eq!(sql_i64(&db, "SELECT count(*) FROM failures"), 1);
    }
    let quiet = crate::common::Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .arg(&epoch)
        .run();
    assert!(quiet.success(), "{}", quiet.stderr);
    assert_eq!((quiet.stdout.as_str(), quiet.stderr.as_str()), ("", ""));
    let loud = crate::common::Cmd::regtrack()
        .db(&db)
        .arg("ingest")
        .arg(&epoch)
        .run();
    assert!(
        loud.stdout
            .contains("0 failed (1 more failing again, see `regtrack failures`)"),
        "{}",
        loud.stdout
    );
    let listed = crate::common::Cmd::regtrack().db(&db).arg("failures").run();
    assert!(listed.stdout.contains(&commit), "{}", listed.stdout);

    std::fs::rename(&aside, &loose).unwrap();
    let out = ingest(&db, &epoch);
    let (new, known, failed, _) = counts(&out);
    assert_eq!((new, known, failed), (1, 0, 0), "{}", out.stderr);
    let ids: Vec<String> = column(&db, "SELECT message_id FROM messages ORDER BY message_id");
    assert_eq!(ids, ["m0@x", "m1@x", "m2@x", "m3@x", "m4@x"]);
    assert_eq!(sql_i64(&db, "SELECT count(*) FROM failures"), 0);
    assert_eq!(last_commit(&db), head);
    // And nothing is read again after that.
    assert_eq!(counts(&ingest(&db, &epoch)), (0, 0, 0, 0));
}

/// Truncates the epoch's one pack file to `len` bytes.
fn truncate_pack(epoch: &Path, len: u64) -> PathBuf {
    let (idx, _) = pack_listing(epoch);
    let pack = idx.with_extension("pack");
    let mut perms = std::fs::metadata(&pack).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&pack, perms).unwrap();
    let f = std::fs::OpenOptions::new().write(true).open(&pack).unwrap();
    f.set_len(len).unwrap();
    pack
}

/// A pack truncated before the run fails its epoch with an error naming
/// the epoch and the pack, and the process exits by itself.
#[test]
fn a_pack_truncated_before_the_run_fails_its_epoch_with_a_clear_error() {
    let Some((dir, epoch)) = repacked_epoch_if_git() else {
        return;
    };
    let len = std::fs::metadata(pack_listing(&epoch).0.with_extension("pack"))
        .unwrap()
        .len();
    let pack = truncate_pack(&epoch, len / 2);
    let db = dir.path().join("t.db");
    let out = ingest(&db, &epoch);
    assert!(out.status.is_some(), "killed by a signal: {}", out.stderr);
    out.assert_no_panic();
    assert!(
        out.stderr.contains(&epoch.display().to_string())
            && out
                .stderr
                .contains(&pack.file_name().unwrap().to_string_lossy().to_string())
            && out
                .stderr
                .contains("does not match the checksum its index records"),
        "{}",
        out.stderr
    );
    assert_eq!(
        crate::common::sql::try_i64(
            &db,
            "SELECT count(*) FROM sources WHERE kind = 'public-inbox'"
        )
        .unwrap_or(0),
        0,
        "no progress is recorded"
    );
}

/// A pack truncated while the reader has it mapped: the reads after it end
/// the epoch with an error saying so (a read through the mapping past the
/// new end would have killed this process with SIGBUS), and the progress
/// stays before the commit being read.
#[test]
fn a_pack_truncated_while_mapped_ends_the_epoch_with_an_error_not_a_signal() {
    use regtrack::source::Item;
    use regtrack::source::public_inbox::EpochReader;
    let Some((_dir, epoch)) = repacked_epoch_if_git() else {
        return;
    };
    let first_commit = git_out(&epoch, &["rev-list", "--max-parents=0", "HEAD"]);
    let second_commit = git_out(&epoch, &["rev-list", "--reverse", "HEAD"])
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    let mut reader = EpochReader::open(&epoch, "epoch".into(), None).unwrap();
    // The epoch says first how many commits it will read.
    let commits: u64 = git_out(&epoch, &["rev-list", "--count", "HEAD"])
        .parse()
        .unwrap();
    let planned = reader.next();
    assert!(
        matches!(planned, Some(Item::Planned { messages }) if messages == commits),
        "{planned:?}, {commits} commits"
    );
    let first = reader.next().expect("a first message");
    assert!(matches!(first, Item::Raw(Ok(_))), "{first:?}");
    truncate_pack(&epoch, 4096);
    let rest: Vec<Item> = reader.collect();
    let raw_errors: Vec<String> = rest
        .iter()
        .filter_map(|i| match i {
            Item::Raw(Err(e)) => Some(e.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(raw_errors.len(), 1, "{raw_errors:?}");
    assert!(raw_errors[0].contains("shrank"), "{raw_errors:?}");
    let said: Vec<&String> = rest
        .iter()
        .filter_map(|i| match i {
            Item::InputError { reason, .. } => Some(reason),
            _ => None,
        })
        .collect();
    assert!(
        said.iter()
            .any(|r| r.contains("reading stopped") && r.contains("while mapped")),
        "{said:?}"
    );
    let marks: Vec<&String> = rest
        .iter()
        .filter_map(|i| match i {
            Item::Mark { last_commit, .. } => Some(last_commit),
            _ => None,
        })
        .collect();
    // Progress passes the commit that failed (it is a failure, read again
    // on every run) and no later one, which was never read.
    assert!(raw_errors[0].contains(&second_commit), "{raw_errors:?}");
    assert!(
        marks
            .iter()
            .all(|m| **m == first_commit || **m == second_commit),
        "progress past the failed commit: {marks:?}"
    );
}

/// A `SIGBUS` in the middle of an epoch (a mapped pack cut short between
/// the length check and a page read; sent here with `kill`, as the kernel
/// would raise it) ends the run with exit status 2 and a line naming the
/// epoch, never a signal death; what was stored stays, and the next run
/// stores the rest.
#[test]
fn a_sigbus_while_an_epoch_is_read_ends_the_run_with_an_error_naming_it() {
    use std::os::unix::process::ExitStatusExt;
    if !have_git() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let total = 60_000;
    let epoch = fast_import_epoch(dir.path(), total, |i| format!("body of message {i}\n"));
    let db = dir.path().join("x.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_regtrack"))
        .arg("--db")
        .arg(&db)
        .args(["-q", "ingest"])
        .arg(&epoch)
        .env_remove("REGTRACK_DB")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Signalled once the epoch's pack is mapped (it is being read).
    let maps = format!("/proc/{}/maps", child.id());
    let start = std::time::Instant::now();
    loop {
        let mapped = std::fs::read_to_string(&maps).is_ok_and(|m| m.contains(".pack"));
        if mapped {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the ingest ended before its pack was seen mapped"
        );
        assert!(start.elapsed().as_secs() < 60, "no pack mapped in 60 s");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let killed = Command::new("kill")
        .args(["-BUS", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.signal(), None, "a signal death: {err}");
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("SIGBUS"), "{err}");
    assert!(err.contains(&epoch.display().to_string()), "{err}");
    // The database opens, and the next run stores every message.
    let again = ingest(&db, &epoch);
    assert!(again.success(), "{}", again.stderr);
    let stored = sql_i64(&db, "SELECT count(*) FROM messages");
    assert_eq!(stored, total as i64);
}

/// An epoch tells the progress how many commits it is about to read: all
/// of them the first time, only the new ones after that.
#[test]
fn the_progress_total_of_an_epoch_is_its_new_commits() {
    use std::sync::atomic::{AtomicU64, Ordering};
    if !have_git() {
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
    let mut store = regtrack::store::Store::open(&dir.path().join("t.db")).unwrap();
    let planned = |store: &mut regtrack::store::Store| -> (u64, u64) {
        let total = AtomicU64::new(0);
        let read = AtomicU64::new(0);
        regtrack::pipeline::ingest::ingest(store, std::slice::from_ref(&epoch), &|p| {
            total.store(p.planned_messages, Ordering::Relaxed);
            read.store(p.messages, Ordering::Relaxed);
        })
        .unwrap();
        (total.into_inner(), read.into_inner())
    };
    // Five messages and a deletion: six commits.
    assert_eq!(planned(&mut store), (6, 5));
    inbox.add("m5@x", "message 5");
    inbox.add("m6@x", "message 6");
    inbox.publish(&epoch);
    assert_eq!(planned(&mut store), (2, 2));
}

/// A copy read from its list's own archive wins over one read elsewhere
/// (ingested first), `mail --raw` prints the epoch's blob as it is, and
/// `mail --copies` names the epoch and commit.
#[test]
fn the_copy_from_the_lists_own_epoch_wins_and_prints_as_its_blob() {
    if !crate::common::have_git() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::new(&dir.path().join("work"));
    inbox.add("own@x", "a message");
    let bare = dir.path().join("linux-test/git/0.git");
    std::fs::create_dir_all(bare.parent().unwrap()).unwrap();
    inbox.publish(&bare);
    let blob = std::fs::read(inbox.work.join("m")).unwrap();
    let commit = String::from_utf8(
        Command::new("git")
            .current_dir(&inbox.work)
            .args(["rev-parse", "HEAD"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap()
    .trim()
    .to_string();
    let elsewhere = String::from_utf8(blob.clone())
        .unwrap()
        .replace("body of own@x\n", "another body, as a mirror rewrote it\n");
    let mbox = dir.path().join("mirror.mbox");
    std::fs::write(
        &mbox,
        format!("From x@y Tue May  9 09:05:00 2023\n{elsewhere}\n"),
    )
    .unwrap();
    let db = dir.path().join("r.db");
    assert_eq!(ingest(&db, &mbox).code(), Some(0));
    let run = ingest(&db, &bare);
    assert_eq!(run.json()["replaced"], 1, "{}", run.stdout);
    let raw = Cmd::regtrack()
        .db(&db)
        .args(["mail", "--raw", "own@x"])
        .ok()
        .stdout_bytes;
    let mut want = b"From mboxrd@z Thu Jan  1 00:00:00 1970\n".to_vec();
    want.extend_from_slice(&blob);
    want.push(b'\n');
    assert_eq!(raw, want);
    let copies = Cmd::regtrack()
        .db(&db)
        .args(["mail", "--copies", "own@x"])
        .ok()
        .stdout;
    assert!(
        copies.contains(&format!(
            "* copy 2  chosen, because it was read from its list's own archive\n    from  A <a@example.org>\n    read  {}, commit {commit}\n",
            bare.display()
        )),
        "{copies}"
    );
    assert!(
        copies.contains(&format!("    read  {}, offset 0\n", mbox.display())),
        "{copies}"
    );
}

/// A message read from an epoch is not copied into the database: `mail
/// --raw` prints it from the epoch, byte for byte; an epoch that is gone is
/// named with the commit, and nothing is printed (exit 1).
/// The object `rev` (`HEAD:m`) of the bare epoch `bare`, as `git show` gives it.
fn blob_at(bare: &Path, rev: &str) -> Vec<u8> {
    Command::new("git")
        .arg("--git-dir")
        .arg(bare)
        .args(["show", rev])
        .output()
        .unwrap()
        .stdout
}

fn copies_json(db: &Path, id: &str) -> Vec<serde_json::Value> {
    let out = Cmd::regtrack()
        .db(db)
        .args(["mail", "--copies", "--json", id])
        .ok();
    out.json().as_array().unwrap().clone()
}

/// The listing of a copy, without its row id and the reason it is chosen
/// (said once there are several).
fn without_id(c: &serde_json::Value) -> serde_json::Value {
    let mut c = c.clone();
    c.as_object_mut().unwrap().remove("copy");
    c.as_object_mut().unwrap().remove("reason");
    c
}

#[test]
fn an_only_copy_from_an_epoch_has_no_row_until_another_copy_or_list_comes() {
    if !have_git() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::new(&dir.path().join("work"));
    inbox.add_body("one@x", "first", "body of one\n");
    inbox.add_body("two@x", "second", "body of two\n");
    let bare = dir.path().join("0.git");
    inbox.publish(&bare);
    let db = dir.path().join("t.db");
    assert_eq!(counts(&ingest(&db, &bare)).0, 2);
    assert_eq!(sql_i64(&db, "SELECT count(*) FROM message_copies"), 0);
    let alone = copies_json(&db, "one@x");
    assert_eq!(alone.len(), 1);
    let c = &alone[0];
    assert_eq!(c["copy"], 0);
    assert_eq!(c["chosen"], true);
    assert_eq!(c["complete"], true);
    assert_eq!(c["raw_stored"], true);
    assert_eq!(c["origin"]["type"], "git");
    assert_eq!(c["from_email"], "a@example.org");
    assert_eq!(
        c["lists"],
        serde_json::json!(["linux-test.vger.kernel.org"])
    );
    assert!(c["size"].as_i64().unwrap() > 0);

    // Another copy (other content, from a file): the epoch's copy gets its
    // row, the same as listed before, and stays chosen (seen first).
    let other = dir.path().join("other.eml");
    std::fs::write(
        &other,
        "From: A <a@example.org>\nSubject: first\nDate: Tue, 09 May 2023 09:05:00 +0000\n\
         Message-ID: <one@x>\nList-Id: <linux-other.vger.kernel.org>\n\nanother body\n",
    )
    .unwrap();
    let out = ingest(&db, &other);
    assert_eq!(out.json()["duplicates"], 1, "{}", out.stderr);
    let both = copies_json(&db, "one@x");
    assert_eq!(both.len(), 2);
    assert_eq!(without_id(&both[0]), without_id(c));
    assert!(both[0]["copy"].as_i64().unwrap() > 0);
    assert!(both[1]["copy"].as_i64().unwrap() > both[0]["copy"].as_i64().unwrap());
    assert_eq!(both[1]["origin"]["type"], "file");
    assert_eq!(both[1]["chosen"], false);
    assert_eq!(
        both[1]["lists"],
        serde_json::json!(["linux-other.vger.kernel.org"])
    );

    // The same content on another list: the copy keeps its own List-IDs
    // (the message has both).
    let again = String::from_utf8(blob_at(&bare, "HEAD:m"))
        .unwrap()
        .replace(
            "List-Id: <linux-test.vger.kernel.org>",
            "List-Id: <linux-third.vger.kernel.org>",
        );
    let third = dir.path().join("third.eml");
    std::fs::write(&third, again).unwrap();
    let out = ingest(&db, &third);
    assert_eq!(counts(&out).1, 1, "{}", out.stderr);
    let two = copies_json(&db, "two@x");
    assert_eq!(two.len(), 1);
    assert_eq!(
        two[0]["lists"],
        serde_json::json!(["linux-test.vger.kernel.org"])
    );
    assert!(
        two[0]["copy"].as_i64().unwrap() > 0,
        "made when the list came"
    );
    assert_eq!(
        column::<String>(
            &db,
            "SELECT list_id FROM message_lists l JOIN messages m ON m.id = l.message
              WHERE m.message_id = 'two@x' ORDER BY 1"
        ),
        ["linux-test.vger.kernel.org", "linux-third.vger.kernel.org"]
    );
}

#[test]
fn the_raw_form_of_a_message_from_an_epoch_is_read_from_the_epoch() {
    if !have_git() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::new(&dir.path().join("work"));
    inbox.add_body("one@x", "first", "body of one\n\n>From a quoted line\n");
    inbox.add("two@x", "second");
    let bare = dir.path().join("0.git");
    inbox.publish(&bare);
    let db = dir.path().join("t.db");
    let out = ingest(&db, &bare);
    assert_eq!(counts(&out).0, 2, "{}", out.stderr);
    assert_eq!(
        sql_i64(&db, "SELECT count(*) FROM message_copies"),
        0,
        "no raw form copied, and an only copy from an epoch has no row of its own"
    );
    let blob = blob_at(&bare, "HEAD~1:m");
    let raw = Cmd::regtrack()
        .db(&db)
        .args(["mail", "--raw", "one@x"])
        .ok()
        .stdout_bytes;
    let from = b"From mboxrd@z Thu Jan  1 00:00:00 1970\n";
    assert!(raw.starts_with(from), "{}", String::from_utf8_lossy(&raw));
    let body = String::from_utf8_lossy(&raw[from.len()..]).replace("\n>>From ", "\n>From ");
    assert_eq!(body.trim_end(), String::from_utf8_lossy(&blob).trim_end());
    let copies = Cmd::regtrack()
        .db(&db)
        .args(["mail", "--copies", "one@x"])
        .ok()
        .stdout;
    assert!(copies.contains("raw form in its epoch"), "{copies}");

    let moved = dir.path().join("moved.git");
    std::fs::rename(&bare, &moved).unwrap();
    let run = Cmd::regtrack()
        .db(&db)
        .args(["mail", "--raw", "one@x"])
        .run();
    assert_eq!(run.code(), Some(1), "{}", run.stderr);
    assert!(run.stdout.is_empty());
    let commit = one::<String>(
        &db,
        "SELECT json_extract(origin_json, '$.commit') FROM messages WHERE message_id = 'one@x'",
    );
    assert!(
        run.stderr
            .contains(&format!("the message of commit {commit}"))
            && run.stderr.contains("cannot be read"),
        "{}",
        run.stderr
    );
    std::fs::rename(&moved, &bare).unwrap();
    Cmd::regtrack()
        .db(&db)
        .args(["mail", "--raw", "one@x"])
        .ok();
}

/// A message read from an epoch stores no body: `mail` and a re-extraction
/// decode it from the epoch's blob again, the same as one read from an mbox;
/// with the epoch moved away both say which commit cannot be read, and the
/// extraction stays. A later copy that wins stores its own body.
#[test]
fn the_body_of_a_message_from_an_epoch_is_decoded_from_the_epoch() {
    if !have_git() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::new(&dir.path().join("work"));
    let encoded = "From: A <a@example.org>\nSubject: [PATCH] ext4: fix the =?utf-8?q?r=C3=A9gression?=\n\
                   Date: Tue, 09 May 2023 09:05:00 +0000\nMessage-ID: <qp@x>\n\
                   List-Id: <linux-test.vger.kernel.org>\nMIME-Version: 1.0\n\
                   Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n\
                   The r=C3=A9gression is gone with this, a long line that is wrapped =\nby the encoder.\n\n\
                   Reported-by: kernel test robot <oliver.sang@intel.com>\n\
                   Closes: https://lore.kernel.org/oe-lkp/202305091234.abcdef-oliver.sang@intel.com\n\
                   Signed-off-by: A <a@example.org>\n---\n\
                   diff --git a/fs/ext4/x.c b/fs/ext4/x.c\n--- a/fs/ext4/x.c\n+++ b/fs/ext4/x.c\n\
                   @@ -1,2 +1,2 @@\n a\n-b\n+c\n";
    inbox.add_message("qp@x", encoded);
    inbox.add_body("cut@x", "Re: a reply", "the first line\n");
    let bare = dir.path().join("0.git");
    inbox.publish(&bare);
    let db = dir.path().join("e.db");
    assert_eq!(counts(&ingest(&db, &bare)).0, 2);
    assert_eq!(sql_i64(&db, "SELECT count(*) FROM body_blocks"), 0);
    assert_eq!(
        sql_i64(
            &db,
            "SELECT count(*) FROM messages WHERE body_block IS NULL"
        ),
        2
    );

    // The same message read from an mbox stores its body: both print alike.
    let mbox = dir.path().join("qp.mbox");
    std::fs::write(
        &mbox,
        format!("From x@y Tue May  9 09:05:00 2023\n{encoded}"),
    )
    .unwrap();
    let from_mbox = dir.path().join("m.db");
    assert_eq!(counts(&ingest(&from_mbox, &mbox)).0, 1);
    let mail = |db: &Path, id: &str| {
        Cmd::regtrack()
            .db(db)
            .args(["mail", "--json", id])
            .ok()
            .json()
    };
    let (e, m) = (mail(&db, "qp@x"), mail(&from_mbox, "qp@x"));
    assert!(
        e["body"].as_str().unwrap().starts_with(
            "The régression is gone with this, a long line that is wrapped by the encoder."
        ),
        "{e}"
    );
    assert_eq!(e["body"], m["body"]);
    let facts = |db: &Path| -> Vec<(String, String)> {
        rows(
            db,
            "SELECT m.message_id, t.key || ' ' || t.value FROM trailers t \
             JOIN messages m ON m.id = t.message ORDER BY m.message_id, t.idx",
        )
    };
    let before = facts(&db);
    assert!(
        before
            .iter()
            .any(|(_, t)| t.to_ascii_lowercase().starts_with("closes ")),
        "{before:?}"
    );
    assert_eq!(before, facts(&from_mbox));

    // A re-extraction reads the epoch again, to the same rows.
    Cmd::regtrack().db(&db).args(["reindex", "--all"]).ok();
    assert_eq!(facts(&db), before);

    // The epoch moved away: the body cannot be read, and says why.
    let moved = dir.path().join("moved.git");
    std::fs::rename(&bare, &moved).unwrap();
    let run = Cmd::regtrack().db(&db).args(["mail", "qp@x"]).run();
    assert_eq!(run.code(), Some(1), "{}", run.stderr);
    let commit = one::<String>(
        &db,
        "SELECT json_extract(origin_json, '$.commit') FROM messages WHERE message_id = 'qp@x'",
    );
    assert!(
        run.stderr.contains("<qp@x>")
            && run.stderr.contains(&format!("commit {commit}"))
            && run.stderr.contains("cannot be read"),
        "{}",
        run.stderr
    );
    let run = Cmd::regtrack().db(&db).args(["reindex", "--all"]).run();
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("kept the older extraction of qp@x"),
        "{}",
        run.stderr
    );
    assert_eq!(facts(&db), before, "the extraction stays");
    assert_eq!(
        sql_i64(
            &db,
            "SELECT count(*) FROM messages WHERE extraction_version = 0"
        ),
        2,
        "tried again by the next run"
    );
    // Until then the answers say they rest on an older reading.
    for cmd in ["stats", "list"] {
        let run = Cmd::regtrack().db(&db).arg(cmd).run();
        assert!(
            run.stderr
                .contains("note: 2 stored messages were read by an older regtrack"),
            "{cmd}: {}",
            run.stderr
        );
        let quiet = Cmd::regtrack().db(&db).args(["-q", cmd]).run();
        assert!(!quiet.stderr.contains("older regtrack"), "{}", quiet.stderr);
    }
    std::fs::rename(&moved, &bare).unwrap();

    // A longer copy of the cut reply, read from an mbox, wins: its body is
    // stored, and is read without the epoch.
    let longer = dir.path().join("cut.mbox");
    std::fs::write(
        &longer,
        "From x@y Tue May  9 09:05:00 2023\nFrom: A <a@example.org>\nSubject: Re: a reply\n\
         Date: Tue, 09 May 2023 09:05:00 +0000\nMessage-ID: <cut@x>\n\
         List-Id: <linux-test.vger.kernel.org>\n\nthe first line\nand the rest of it\n",
    )
    .unwrap();
    ingest(&db, &longer);
    std::fs::rename(&bare, &moved).unwrap();
    assert_eq!(
        mail(&db, "cut@x")["body"],
        "the first line\nand the rest of it\n"
    );
}
