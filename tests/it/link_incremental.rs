//! Incremental linking gives the answers of a full link: the corpus and
//! the shared real threads ingested in random steps (each step relinked as
//! an update), real archives (`REGTRACK_ARCHIVES`: public-inbox epochs,
//! separated by `:`) with random messages held back and added in random
//! steps, marks, and the bad inputs that make an update fall back to a full
//! relink (and say so).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use regtrack::model::history::{Mark, Status};
use regtrack::pipeline::relink::{How, Relinked};
use regtrack::store::{Store, links};

use crate::common::{Cmd, rows, write_synth};

/// A small deterministic generator (xorshift64*), so that a failing split
/// is named by its seed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// The messages of an mbox file, each with its `From ` line.
fn messages_of(mbox: &Path) -> Vec<Vec<u8>> {
    let text = std::fs::read(mbox).unwrap();
    let mut starts: Vec<usize> = vec![];
    if text.starts_with(b"From ") {
        starts.push(0);
    }
    starts.extend(
        text.windows(6)
            .enumerate()
            .filter(|(_, w)| *w == b"\nFrom ")
            .map(|(i, _)| i + 1),
    );
    starts.push(text.len());
    starts
        .windows(2)
        .map(|w| text[w[0]..w[1]].to_vec())
        .collect()
}

/// Every mbox file under `dir`, sorted.
fn mboxes(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "mbox") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// `messages` cut into `steps` mbox files of random sizes, in a random order.
fn random_steps(messages: &[Vec<u8>], steps: usize, rng: &mut Rng, dir: &Path) -> Vec<PathBuf> {
    let mut order: Vec<usize> = (0..messages.len()).collect();
    rng.shuffle(&mut order);
    let mut cuts: Vec<usize> = (0..steps.saturating_sub(1))
        .map(|_| rng.below(messages.len()))
        .collect();
    cuts.push(0);
    cuts.push(messages.len());
    cuts.sort_unstable();
    cuts.windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] < w[1])
        .map(|(i, w)| {
            let p = dir.join(format!("step{i:03}.mbox"));
            let body: Vec<u8> = order[w[0]..w[1]]
                .iter()
                .flat_map(|&k| messages[k].iter().copied())
                .collect();
            std::fs::write(&p, body).unwrap();
            p
        })
        .collect()
}

fn ingest(store: &mut Store, paths: &[PathBuf]) {
    // Bodies of stored epoch messages are read back from their epochs, as
    // the program does (`cli` registers the same reader).
    regtrack::store::body::read_epochs_with(&regtrack::pipeline::epoch_bodies::EPOCH_BODIES);
    regtrack::pipeline::ingest::ingest(store, paths, &|_| {}).expect("ingest");
}

fn relink(store: &mut Store) -> Relinked {
    let (done, unreadable) = regtrack::pipeline::relink::relink(store).unwrap();
    assert!(unreadable.is_empty(), "{unreadable:?}");
    done
}

/// Histories by culprit (ids cleared: they depend on arrival order).
fn histories(db: &Path) -> BTreeMap<String, String> {
    rows::<(String, String)>(db, "SELECT culprit, summary_json FROM regressions")
        .into_iter()
        .map(|(c, j)| {
            let mut v: serde_json::Value = serde_json::from_str(&j).unwrap();
            v["id"] = serde_json::Value::from(0);
            (c, v.to_string())
        })
        .collect()
}

type ThreadRow = (String, String, Option<String>, i64);
type LinkTables = (
    Vec<ThreadRow>,
    Vec<(String, String)>,
    Vec<(String, i64)>,
    Vec<(String, String, String)>,
);

/// What linking stores besides the histories, by Message-ID: thread rows,
/// the ids the threading saw, the chosen messages, regression membership.
fn link_tables(db: &Path) -> LinkTables {
    (
        rows(
            db,
            "SELECT m.message_id, t.root_id, t.parent_id, t.depth FROM threads t \
             JOIN messages m ON m.id = t.message ORDER BY 1",
        ),
        rows(db, "SELECT id, root FROM thread_ids ORDER BY 1"),
        rows(
            db,
            "SELECT m.message_id, c.first FROM link_chosen c \
             JOIN messages m ON m.id = c.message ORDER BY 1",
        ),
        rows(
            db,
            "SELECT g.culprit, m.message_id, rm.role FROM regression_messages rm \
             JOIN regressions g ON g.id = rm.regression JOIN messages m ON m.id = rm.message \
             ORDER BY 1, 2",
        ),
    )
}

/// Ingests `base` (linked in full), then each step (linked as an update),
/// and compares with one full link of everything in a database of its own.
/// Returns how many steps were updates and how many regressions there are.
fn assert_updates_equal_full(
    dir: &Path,
    base: &[PathBuf],
    steps: &[PathBuf],
    what: &str,
) -> (usize, usize) {
    let (stepped_db, full_db) = (dir.join("steps.db"), dir.join("full.db"));
    let _ = std::fs::remove_file(&stepped_db);
    let _ = std::fs::remove_file(&full_db);
    let mut stepped = Store::open(&stepped_db).unwrap();
    if !base.is_empty() {
        ingest(&mut stepped, base);
        relink(&mut stepped);
    }
    let mut updates = 0;
    for s in steps {
        ingest(&mut stepped, std::slice::from_ref(s));
        let done = relink(&mut stepped);
        match done.how {
            How::Incremental => updates += 1,
            How::Full => assert!(
                done.fell_back.is_some() || base.is_empty() && updates == 0,
                "{what}: {} was linked in full without a reason",
                s.display()
            ),
            How::Nothing => {}
        }
    }
    drop(stepped);
    let mut full = Store::open(&full_db).unwrap();
    let all: Vec<PathBuf> = base.iter().chain(steps).cloned().collect();
    ingest(&mut full, &all);
    regtrack::pipeline::relink::relink_full(&mut full).unwrap();
    drop(full);
    let (a, b) = (histories(&stepped_db), histories(&full_db));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "{what}: other culprits"
    );
    for (k, v) in &a {
        assert_eq!(Some(v), b.get(k), "{what}: the history of {k} differs");
    }
    let (ta, tb) = (link_tables(&stepped_db), link_tables(&full_db));
    assert_eq!(ta.0, tb.0, "{what}: thread rows differ");
    assert_eq!(ta.1, tb.1, "{what}: thread ids differ");
    assert_eq!(ta.2, tb.2, "{what}: chosen messages differ");
    assert_eq!(ta.3, tb.3, "{what}: regression members differ");
    (updates, a.len())
}

#[test]
fn the_corpus_in_random_steps_links_like_one_full_link() {
    let mut files = mboxes(&crate::common::corpus("threads"));
    if let Some(shared) = crate::common::shared() {
        files.extend(mboxes(&shared.join("corpus")));
    }
    let messages: Vec<Vec<u8>> = files.iter().flat_map(|f| messages_of(f)).collect();
    assert!(messages.len() >= 20, "{} messages", messages.len());
    let mut updates = 0;
    for seed in 1..=6u64 {
        let dir = tempfile::tempdir().unwrap();
        let mut rng = Rng::new(seed);
        // A base of about half, then steps of random sizes.
        let mut order: Vec<usize> = (0..messages.len()).collect();
        rng.shuffle(&mut order);
        let half = messages.len() / 2;
        let base_file = dir.path().join("base.mbox");
        let base: Vec<u8> = order[..half]
            .iter()
            .flat_map(|&k| messages[k].iter().copied())
            .collect();
        std::fs::write(&base_file, base).unwrap();
        let rest: Vec<Vec<u8>> = order[half..].iter().map(|&k| messages[k].clone()).collect();
        let steps = random_steps(&rest, 8, &mut rng, dir.path());
        let (u, n) =
            assert_updates_equal_full(dir.path(), &[base_file], &steps, &format!("seed {seed}"));
        assert!(n >= 6, "seed {seed}: {n} regressions");
        updates += u;
    }
    assert!(updates >= 20, "only {updates} steps were updates");
}

#[test]
fn a_synthetic_archive_in_random_steps_links_like_one_full_link() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("synth.mbox");
    write_synth(4000, 11, &whole);
    let messages = messages_of(&whole);
    let mut rng = Rng::new(99);
    let cut = messages.len() - 400;
    let base_file = dir.path().join("base.mbox");
    std::fs::write(&base_file, messages[..cut].concat()).unwrap();
    let steps = random_steps(&messages[cut..], 12, &mut rng, dir.path());
    let (updates, n) = assert_updates_equal_full(dir.path(), &[base_file], &steps, "synthetic");
    assert!(n >= 5, "{n} regressions");
    assert!(updates >= 10, "only {updates} steps were updates");
}

#[test]
fn a_mark_relinks_its_regression_as_an_update() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("x.db");
    let mut store = Store::open(&db).unwrap();
    ingest(&mut store, &[crate::common::corpus("threads")]);
    relink(&mut store);
    let before = histories(&db);
    let culprit = before
        .iter()
        .find(|(_, j)| !j.contains("\"declined\""))
        .map(|(c, _)| c.clone())
        .expect("an open regression");
    links::insert_mark(
        &mut store,
        &Mark {
            culprit: culprit.clone(),
            status: Some(Status::Declined),
            note: Some("not worth it".into()),
            author: "Test Person".into(),
            at: 1_700_000_000,
            ..Mark::default()
        },
    )
    .unwrap();
    let done = relink(&mut store);
    assert_eq!(done.how, How::Incremental, "{done:?}");
    assert!(done.regressions >= 1);
    let after = histories(&db);
    assert!(
        after[&culprit].contains("\"declined\""),
        "{}",
        after[&culprit]
    );
    for (k, v) in &before {
        if *k != culprit {
            assert_eq!(Some(v), after.get(k), "{k} changed");
        }
    }
    // The same as a full link of the marked database.
    drop(store);
    let copy = dir.path().join("copy.db");
    std::fs::copy(&db, &copy).unwrap();
    let mut c = Store::open(&copy).unwrap();
    regtrack::pipeline::relink::relink_full(&mut c).unwrap();
    drop(c);
    assert_eq!(histories(&copy), after);
}

/// The culprit's posting, a pull request taking it out and the report are
/// three threads that only the culprit's title ties: in every order of
/// arrival, each linked as an update, the history ends `culprit-dropped`
/// and equals one full link's.
#[test]
fn a_drop_of_the_culprit_in_another_thread_reaches_its_history_as_an_update() {
    let messages = messages_of(&crate::common::corpus("threads/culprit-dropped.mbox"));
    assert_eq!(messages.len(), 3, "posting, pull request, report");
    let dir = tempfile::tempdir().unwrap();
    for order in [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ] {
        let steps: Vec<PathBuf> = order
            .iter()
            .enumerate()
            .map(|(k, &m)| {
                let p = dir.path().join(format!("step-{k}.mbox"));
                std::fs::write(&p, &messages[m]).unwrap();
                p
            })
            .collect();
        let what = format!("arrival order {order:?}");
        let (updates, regressions) =
            assert_updates_equal_full(dir.path(), &steps[..1], &steps[1..], &what);
        assert_eq!(updates, 2, "{what}");
        assert_eq!(regressions, 1, "{what}");
        let status: Vec<String> = crate::common::column(
            &dir.path().join("steps.db"),
            "SELECT status FROM regressions",
        );
        assert_eq!(status, ["culprit-dropped"], "{what}");
    }
}

/// Mail whose References name every thread stored (200 threads a message,
/// under the most one message contributes): the update would reach
/// everything, so it links in full and says why.
#[test]
fn a_message_joining_every_thread_falls_back_to_a_full_link_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("synth.mbox");
    write_synth(3000, 5, &whole);
    let db = dir.path().join("x.db");
    Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .arg(&whole)
        .ok();
    let roots: Vec<String> = crate::common::column(&db, "SELECT DISTINCT root_id FROM threads");
    assert!(roots.len() > 100, "{} threads", roots.len());
    let mut mail = String::new();
    for (k, part) in roots.chunks(200).enumerate() {
        let refs: String = part.iter().map(|r| format!("<{r}> ")).collect();
        mail.push_str(&format!(
            "From x@y Mon Mar  3 10:00:00 2025\nFrom: A <a@example.org>\n\
             Date: Mon, 3 Mar 2025 10:00:00 +0000\nMessage-ID: <hub{k}@example.org>\n\
             In-Reply-To: <{}>\nReferences: {refs}\nSubject: Re: everything\n\nhello\n\n",
            part[0]
        ));
    }
    let hub = dir.path().join("hub.mbox");
    std::fs::write(&hub, mail).unwrap();
    let run = Cmd::regtrack()
        .db(&db)
        .args(["ingest", "--timings"])
        .arg(&hub)
        .ok();
    assert!(
        run.stderr.contains("(everything, since "),
        "the fallback is not said: {}",
        run.stderr
    );
}

/// Public-inbox epochs named by `REGTRACK_ARCHIVES` (`:`-separated): random
/// messages held back (half of them among the ones a full link chose) and
/// added in random steps, each linked as an update, equal one full link.
#[test]
fn real_archives_in_random_steps_link_like_one_full_link() {
    let Some(list) = std::env::var_os("REGTRACK_ARCHIVES") else {
        crate::common::skip("REGTRACK_ARCHIVES (public-inbox epochs, `:`-separated) is unset");
        return;
    };
    let seed: u64 = std::env::var("REGTRACK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    for epoch in std::env::split_paths(&list) {
        let dir = tempfile::tempdir().unwrap();
        let whole = dir.path().join("whole.db");
        let mut store = Store::open(&whole).unwrap();
        ingest(&mut store, std::slice::from_ref(&epoch));
        relink(&mut store);
        drop(store);
        let n = crate::common::sql_i64(&whole, "SELECT count(*) FROM messages");
        let what = format!("{} in steps", epoch.display());
        assert_steps_equal_full(&whole, n as usize / 5 + 1, &what);
        let chosen: Vec<String> = crate::common::column(
            &whole,
            "SELECT m.message_id FROM link_chosen c JOIN messages m ON m.id = c.message",
        );
        let others: Vec<String> = crate::common::column(
            &whole,
            "SELECT message_id FROM messages WHERE id NOT IN (SELECT message FROM link_chosen)",
        );
        let mut rng = Rng::new(seed);
        let mut held: Vec<String> = vec![];
        for (pool, n) in [(&chosen, 150), (&others, 150)] {
            let mut p = pool.clone();
            rng.shuffle(&mut p);
            held.extend(p.into_iter().take(n));
        }
        let (rest, steps) = export_held_back(&epoch, &held, 20, &mut rng, dir.path());
        let what = format!("{} (seed {seed})", epoch.display());
        let (updates, n) = assert_updates_equal_full(dir.path(), &[rest], &steps, &what);
        eprintln!(
            "{what}: {updates} of {} steps were updates; {n} regressions",
            steps.len()
        );
    }
}

/// Writes the epoch's messages as `rest.mbox`, but those with a Message-ID
/// in `held`, which go into `steps` files at random (in a random order).
fn export_held_back(
    epoch: &Path,
    held: &[String],
    steps: usize,
    rng: &mut Rng,
    dir: &Path,
) -> (PathBuf, Vec<PathBuf>) {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Command, Stdio};
    let step_of: std::collections::HashMap<&str, usize> = held
        .iter()
        .map(|m| (m.as_str(), rng.below(steps)))
        .collect();
    let list = Command::new("git")
        .arg("--git-dir")
        .arg(epoch)
        .args(["rev-list", "--reverse", "HEAD"])
        .output()
        .expect("git rev-list");
    let commits = String::from_utf8(list.stdout).unwrap();
    let mut cat = Command::new("git")
        .arg("--git-dir")
        .arg(epoch)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("git cat-file");
    let mut input = cat.stdin.take().unwrap();
    let feeder = {
        let commits = commits.clone();
        std::thread::spawn(move || {
            for c in commits.lines() {
                writeln!(input, "{c}:m").unwrap();
            }
        })
    };
    let mut out = BufReader::new(cat.stdout.take().unwrap());
    let rest_path = dir.join("rest.mbox");
    let mut rest = std::io::BufWriter::new(std::fs::File::create(&rest_path).unwrap());
    let step_paths: Vec<PathBuf> = (0..steps)
        .map(|i| dir.join(format!("held{i:02}.mbox")))
        .collect();
    let mut step_files: Vec<_> = step_paths
        .iter()
        .map(|p| std::io::BufWriter::new(std::fs::File::create(p).unwrap()))
        .collect();
    let mut line = String::new();
    for _ in commits.lines() {
        line.clear();
        out.read_line(&mut line).unwrap();
        let size: Option<usize> = line.split_whitespace().nth(2).and_then(|s| s.parse().ok());
        let Some(size) = size else { continue };
        let mut blob = vec![0; size + 1];
        out.read_exact(&mut blob).unwrap();
        blob.truncate(size);
        let head_end = blob
            .windows(2)
            .position(|w| w == b"\n\n")
            .unwrap_or(blob.len());
        let head = String::from_utf8_lossy(&blob[..head_end]);
        let mid = head
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("message-id")
                    .then(|| v.trim().trim_matches(['<', '>']).to_string())
            })
            .unwrap_or_default();
        let w = match step_of.get(mid.as_str()) {
            Some(&i) => &mut step_files[i],
            None => &mut rest,
        };
        w.write_all(b"From mboxrd@z Thu Jan  1 00:00:00 1970\n")
            .unwrap();
        for l in blob.split_inclusive(|&b| b == b'\n') {
            let quoted = l
                .iter()
                .position(|&b| b != b'>')
                .is_some_and(|k| l[k..].starts_with(b"From "));
            if quoted {
                w.write_all(b">").unwrap();
            }
            w.write_all(l).unwrap();
        }
        if !blob.ends_with(b"\n") {
            w.write_all(b"\n").unwrap();
        }
        w.write_all(b"\n").unwrap();
    }
    feeder.join().unwrap();
    let _ = cat.wait();
    rest.flush().unwrap();
    for f in &mut step_files {
        f.flush().unwrap();
    }
    drop(step_files);
    // Steps in a random order.
    let mut steps = step_paths;
    rng.shuffle(&mut steps);
    (rest_path, steps)
}

/// Copies of `db`, one linked in full at once and one in steps of `step`
/// messages (`relink_full_in_steps`), store the same threads, choice and
/// histories, regression ids included. Returns what the link in steps did.
fn assert_steps_equal_full(db: &Path, step: usize, what: &str) -> Relinked {
    let once = db.with_extension(format!("once-{step}.db"));
    let stepped = db.with_extension(format!("steps-{step}.db"));
    std::fs::copy(db, &once).unwrap();
    std::fs::copy(db, &stepped).unwrap();
    let mut s = Store::open(&once).unwrap();
    let unreadable = regtrack::pipeline::relink::relink_full(&mut s).unwrap();
    assert!(unreadable.is_empty(), "{what}: {unreadable:?}");
    drop(s);
    let mut s = Store::open(&stepped).unwrap();
    let (done, unreadable) =
        regtrack::pipeline::relink::relink_full_in_steps(&mut s, step, &mut || Ok(())).unwrap();
    assert!(unreadable.is_empty(), "{what}: {unreadable:?}");
    drop(s);
    assert_eq!(done.how, How::Full, "{what}: {done:?}");
    let ids = "SELECT id, culprit, status FROM regressions ORDER BY id";
    assert_eq!(
        rows::<(i64, String, String)>(&once, ids),
        rows::<(i64, String, String)>(&stepped, ids),
        "{what}, steps of {step}: other regressions"
    );
    let (a, b) = (histories(&once), histories(&stepped));
    for (k, v) in &a {
        assert_eq!(
            Some(v),
            b.get(k),
            "{what}, steps of {step}: the history of {k} differs"
        );
    }
    let (ta, tb) = (link_tables(&once), link_tables(&stepped));
    assert_eq!(ta.0, tb.0, "{what}, steps of {step}: thread rows differ");
    assert_eq!(ta.1, tb.1, "{what}, steps of {step}: thread ids differ");
    assert_eq!(
        ta.2, tb.2,
        "{what}, steps of {step}: chosen messages differ"
    );
    assert_eq!(
        ta.3, tb.3,
        "{what}, steps of {step}: regression members differ"
    );
    let state = "SELECT max_message, messages, max_mark, marks FROM link_state";
    assert_eq!(
        rows::<(i64, i64, i64, i64)>(&once, state),
        rows::<(i64, i64, i64, i64)>(&stepped, state),
        "{what}, steps of {step}: link states differ"
    );
    for p in [once, stepped] {
        let _ = std::fs::remove_file(p);
    }
    done
}

/// A link of everything in steps (how `relink --full` links a big
/// database) equals one link of everything at once: the corpus and the
/// shared real threads in their order and shuffled, with marks of every
/// kind made before, for steps from one message to most of them; and a
/// synthetic archive.
#[test]
fn a_link_in_steps_equals_one_link_of_everything() {
    let mut files = mboxes(&crate::common::corpus("threads"));
    if let Some(shared) = crate::common::shared() {
        files.extend(mboxes(&shared.join("corpus")));
    }
    let messages: Vec<Vec<u8>> = files.iter().flat_map(|f| messages_of(f)).collect();
    let dir = tempfile::tempdir().unwrap();
    for seed in [0u64, 5] {
        let mut order: Vec<usize> = (0..messages.len()).collect();
        if seed > 0 {
            Rng::new(seed).shuffle(&mut order);
        }
        let mbox = dir.path().join(format!("all-{seed}.mbox"));
        let all: Vec<u8> = order.iter().flat_map(|&k| messages[k].clone()).collect();
        std::fs::write(&mbox, all).unwrap();
        let db = dir.path().join(format!("corpus-{seed}.db"));
        let mut store = Store::open(&db).unwrap();
        ingest(&mut store, std::slice::from_ref(&mbox));
        std::fs::remove_file(&mbox).unwrap();
        relink(&mut store);
        let culprits: Vec<String> = crate::common::column(
            &db,
            "SELECT culprit FROM regressions ORDER BY first_date, culprit",
        );
        assert!(culprits.len() >= 6, "{} regressions", culprits.len());
        let mark = |m: Mark| Mark {
            author: "Test Person".into(),
            at: 1_700_000_000,
            ..m
        };
        for m in [
            mark(Mark {
                culprit: culprits[0].clone(),
                status: Some(Status::Declined),
                ..Mark::default()
            }),
            mark(Mark {
                culprit: culprits[1].clone(),
                dup_of: Some(culprits[2].clone()),
                ..Mark::default()
            }),
            mark(Mark {
                culprit: culprits[3].clone(),
                fix: Some("0123456789abcdef0123456789abcdef01234567".into()),
                ..Mark::default()
            }),
        ] {
            links::insert_mark(&mut store, &m).unwrap();
        }
        drop(store);
        let n = messages.len();
        for step in [1, 3, 17, n / 3, n - 1] {
            let done = assert_steps_equal_full(&db, step, &format!("the corpus (seed {seed})"));
            assert_eq!(done.messages as usize, n, "{done:?}");
            let steps = done.steps.expect("in steps");
            assert!(steps.gave_up.is_empty(), "steps of {step}: {steps:?}");
            assert_eq!(steps.count as usize, n.div_ceil(step), "{steps:?}");
        }
    }
    let whole = dir.path().join("synth.mbox");
    write_synth(4000, 11, &whole);
    let db = dir.path().join("synth.db");
    let mut store = Store::open(&db).unwrap();
    ingest(&mut store, std::slice::from_ref(&whole));
    // The mail is in the store now; its disk goes back to the other tests.
    std::fs::remove_file(&whole).unwrap();
    relink(&mut store);
    drop(store);
    for step in [250, 1300] {
        assert_steps_equal_full(&db, step, "the synthetic archive");
    }
}

/// A step whose update would reach too far links everything up to it
/// instead, and the link says so; the result is still a full link's.
#[test]
fn a_step_that_reaches_too_far_links_everything_up_to_it_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("synth.mbox");
    write_synth(12_000, 4, &whole);
    // Ten messages whose References name 2,500 messages: the step holding
    // them reaches more than 2,000, four steps of 500.
    let ids: Vec<String> = messages_of(&whole)
        .iter()
        .filter_map(|m| {
            let t = String::from_utf8_lossy(m);
            let l = t
                .lines()
                .find(|l| l.to_ascii_lowercase().starts_with("message-id:"))?;
            Some(l.split_once(':')?.1.trim().to_string())
        })
        .take(2_500)
        .collect();
    let mut text = std::fs::read(&whole).unwrap();
    for (k, some) in ids.chunks(250).enumerate() {
        text.extend_from_slice(
            format!(
                "From hub@example.org Mon Mar  3 10:00:00 2025\nFrom: Hub <hub@example.org>\n\
                 Date: Mon, 3 Mar 2025 10:00:00 +0000\nMessage-ID: <hub{k}@example.org>\n\
                 Subject: Re: everything\nReferences: {}\n\nall of it\n\n",
                some.join(" ")
            )
            .as_bytes(),
        );
    }
    std::fs::write(&whole, text).unwrap();
    let db = dir.path().join("x.db");
    let mut store = Store::open(&db).unwrap();
    ingest(&mut store, std::slice::from_ref(&whole));
    // The mail is in the store now; its disk goes back to the other tests.
    std::fs::remove_file(&whole).unwrap();
    drop(store);
    let done = assert_steps_equal_full(&db, 500, "messages joining 2,500 threads");
    let steps = done.steps.expect("in steps");
    assert_eq!(steps.gave_up.len(), 1, "{steps:?}");
    assert!(
        steps.gave_up[0].contains("linked everything up to it"),
        "{steps:?}"
    );
}

/// `relink --full --step N` links everything in steps of N messages, says
/// so, and stores what `relink --full` does; `--step` needs `--full`.
#[test]
fn relink_full_in_steps_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("x.db");
    Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .arg(crate::common::corpus("threads"))
        .ok();
    let n = crate::common::sql_i64(&db, "SELECT count(*) FROM messages");
    let run = Cmd::regtrack()
        .db(&db)
        .args(["relink", "--full", "--step", "5"])
        .ok();
    let steps = (n + 4) / 5;
    assert!(
        run.stderr.contains(&format!("relinked {n} messages in ")),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains(&format!("(everything in {steps} steps of 5 messages)")),
        "{}",
        run.stderr
    );
    crate::common::assert_same_as_full(&db);
    for bad in [
        &["relink", "--step", "5"][..],
        &["relink", "--full", "--step", "0"],
    ] {
        let run = Cmd::regtrack().db(&db).args(bad).run();
        assert_eq!(run.code(), Some(2), "{bad:?}: {}", run.stderr);
    }
}

/// A link in steps killed half way keeps none of its steps: every step is
/// in one transaction, so the histories stay as they were (a step's own
/// commit would leave only the first steps' histories).
#[cfg(unix)]
#[test]
fn a_link_in_steps_killed_half_way_leaves_the_histories_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("synth.mbox");
    write_synth(3000, 8, &whole);
    let db = dir.path().join("x.db");
    let mut store = Store::open(&db).unwrap();
    ingest(&mut store, &[whole]);
    relink(&mut store);
    drop(store);
    let ids = "SELECT id, culprit FROM regressions ORDER BY id";
    let before = rows::<(i64, String)>(&db, ids);
    assert!(before.len() >= 20, "{} regressions", before.len());
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_regtrack"))
        .arg("--db")
        .arg(&db)
        .args(["-q", "relink", "--full", "--step", "1"])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let finished = child.try_wait().unwrap().is_some();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        !finished,
        "the link in steps of one message ended within 1.5 s"
    );
    assert_eq!(rows::<(i64, String)>(&db, ids), before);
    assert_eq!(
        crate::common::column::<String>(&db, "PRAGMA integrity_check"),
        vec!["ok".to_string()]
    );
}

/// The thread indexes a full link drops and makes again around its writes
/// (`threads_root` on a first link, `thread_ids_root` on every one) are
/// there afterwards as the schema defines them, after a first link, a full
/// relink and an update alike, and the update reads through them.
#[test]
fn a_full_link_leaves_the_thread_indexes_as_the_schema_makes_them() {
    const INDEXES: &str = "SELECT name, sql FROM sqlite_master \
                           WHERE name IN ('threads_root', 'thread_ids_root') ORDER BY name";
    let schema: Vec<(String, String)> = crate::common::fresh_schema_rows(INDEXES);
    assert_eq!(schema.len(), 2, "{schema:?}");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("x.db");
    let mut paths = mboxes(&crate::common::corpus("threads"));
    let last = paths.pop().expect("corpus threads");
    Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .args(&paths)
        .ok();
    let indexes = |what: &str| {
        let got: Vec<(String, String)> = rows(&db, INDEXES);
        assert_eq!(got, schema, "after {what}");
    };
    indexes("the first link");
    Cmd::regtrack().db(&db).args(["relink", "--full"]).ok();
    indexes("a full relink");
    Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .arg(&last)
        .ok();
    indexes("an update");
    crate::common::assert_same_as_full(&db);
}
