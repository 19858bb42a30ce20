//! Agreement with hand-made gold labels of whole archives (`tests/gold`):
//! for every culprit the robot reported on a list, the status a reader of
//! the threads gives it, its fix patches (postings, state, where they
//! landed) and its aliases, written down before regtrack's answer was
//! looked at. Only ids and statuses are kept, no mail text.
//!
//! The labels are checked for form always; the agreement is measured when
//! `REGTRACK_MIRRORS` names a folder holding the archives (public-inbox
//! epochs, as `linux-mailinglist-archives+NAME/repo`, `NAME/repo`, `NAME`
//! or `NAME.git`, NAME being a label file's `archive`): each is ingested,
//! compared, its disagreements printed, and the figures must not fall below
//! the floors below (the agreement measured when they were set, less a
//! margin for one or two histories).

use std::path::{Path, PathBuf};

use serde::Deserialize;

#[derive(Debug, Deserialize)]
struct Labels {
    list: String,
    archive: String,
    /// `written`: the rules were written while reading this archive;
    /// `held-out`: they were measured on it after, never tuned to it.
    rules: String,
    culprits: Vec<Culprit>,
}

#[derive(Debug, Deserialize)]
struct Culprit {
    culprit: String,
    #[serde(default)]
    full_id: Option<String>,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    reports: Vec<String>,
    direction: String,
    scope: String,
    status: String,
    #[serde(default)]
    deciding_message: Option<String>,
    #[serde(default)]
    fixes: Vec<Fix>,
    #[serde(default)]
    not_fixes: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Fix {
    #[serde(default)]
    postings: Vec<String>,
    state: String,
    #[serde(default)]
    landing: Vec<Landing>,
}

#[derive(Debug, Deserialize)]
struct Landing {
    #[serde(default)]
    message_id: Option<String>,
}

const STATUSES: &[&str] = &[
    "reported",
    "discussed",
    "disputed",
    "declined",
    "fix-proposed",
    "fix-confirmed",
    "fix-applied",
    "fixed",
    "culprit-dropped",
    "improvement",
];
const FIX_STATES: &[&str] = &[
    "posted",
    "proposed",
    "reviewed",
    "applied",
    "merged",
    "rejected",
    "superseded",
];

fn labels() -> Vec<Labels> {
    let dir = crate::common::root().join("tests/gold");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/gold")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            serde_json::from_str(&std::fs::read_to_string(f).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()))
        })
        .collect()
}

/// Two commit ids name one commit: equal, or one a prefix (7+ digits) of
/// the other.
fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
    if a.len() < 7 || b.len() < 7 {
        return a == b;
    }
    a.starts_with(&b) || b.starts_with(&a)
}

#[test]
fn the_gold_labels_are_facts_in_a_known_form() {
    let all = labels();
    assert!(all.len() >= 8, "{} label files", all.len());
    let mut n = 0;
    for l in &all {
        assert!(!l.culprits.is_empty(), "{}: no culprit", l.list);
        for c in &l.culprits {
            n += 1;
            let what = format!("{} {}", l.list, c.culprit);
            assert!(
                c.culprit.len() >= 7 && c.culprit.bytes().all(|b| b.is_ascii_hexdigit()),
                "{what}: culprit id"
            );
            if let Some(f) = &c.full_id {
                assert!(same(f, &c.culprit), "{what}: full id {f}");
            }
            assert!(
                STATUSES.contains(&c.status.as_str()),
                "{what}: status {}",
                c.status
            );
            assert!(
                ["regression", "improvement", "mixed"].contains(&c.direction.as_str()),
                "{what}: direction"
            );
            assert!(!c.scope.is_empty(), "{what}: scope");
            assert!(!c.reports.is_empty(), "{what}: no report");
            // An improvement nobody acts on is `improvement`; one somebody
            // disputes or fixes (the speed came from skipped work) follows
            // what they did.
            if c.direction == "improvement" {
                assert!(
                    [
                        "improvement",
                        "disputed",
                        "fix-proposed",
                        "fix-confirmed",
                        "fix-applied",
                        "fixed"
                    ]
                    .contains(&c.status.as_str()),
                    "{what}: an improvement {}",
                    c.status
                );
            }
            for f in &c.fixes {
                assert!(
                    FIX_STATES.contains(&f.state.as_str()),
                    "{what}: fix state {}",
                    f.state
                );
                assert!(
                    !f.postings.is_empty() || !f.landing.is_empty(),
                    "{what}: a fix with no message"
                );
            }
            if let Some(d) = &c.deciding_message {
                assert!(d.contains('@'), "{what}: deciding message {d}");
            }
        }
    }
    assert!(n >= 80, "{n} culprits labelled");
}

/// The archive of a label file under `mirrors`, if there.
fn archive(mirrors: &Path, name: &str) -> Option<PathBuf> {
    [
        mirrors
            .join(format!("linux-mailinglist-archives+{name}"))
            .join("repo"),
        mirrors.join(name).join("repo"),
        mirrors.join(name),
        mirrors.join(format!("{name}.git")),
    ]
    .into_iter()
    .find(|p| p.join("objects").is_dir())
}

#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    culprits: u32,
    status_ok: u32,
    real: u32,
    real_ok: u32,
    patches: u32,
    patches_ok: u32,
    fixes: u32,
    fixes_found: u32,
    landed: u32,
    landed_seen: u32,
    split: u32,
    missing: u32,
    /// Histories whose status regtrack says is unsure.
    unsure: u32,
    /// Wrong statuses, and of them the unsure ones.
    wrong: u32,
    wrong_unsure: u32,
    /// Real regressions regtrack is sure of, and of them the ones whose
    /// open/closed answer (`list --status open`) is wrong.
    sure_real: u32,
    sure_open_wrong: u32,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.culprits += o.culprits;
        self.status_ok += o.status_ok;
        self.real += o.real;
        self.real_ok += o.real_ok;
        self.patches += o.patches;
        self.patches_ok += o.patches_ok;
        self.fixes += o.fixes;
        self.fixes_found += o.fixes_found;
        self.landed += o.landed;
        self.landed_seen += o.landed_seen;
        self.split += o.split;
        self.missing += o.missing;
        self.unsure += o.unsure;
        self.wrong += o.wrong;
        self.wrong_unsure += o.wrong_unsure;
        self.sure_real += o.sure_real;
        self.sure_open_wrong += o.sure_open_wrong;
    }
    fn line(&self) -> String {
        let pct = |a: u32, b: u32| {
            if b == 0 {
                "n/a".to_string()
            } else {
                format!("{a}/{b} ({:.0}%)", 100.0 * a as f64 / b as f64)
            }
        };
        format!(
            "status {}; real regressions {}; fix precision {}; fix recall {}; applied or merged seen {}; split {}, missing {}; unsure {}; wrong and unsure {}; open/closed wrong among sure real regressions {}",
            pct(self.status_ok, self.culprits),
            pct(self.real_ok, self.real),
            pct(self.patches_ok, self.patches),
            pct(self.fixes_found, self.fixes),
            pct(self.landed_seen, self.landed),
            self.split,
            self.missing,
            pct(self.unsure, self.culprits),
            pct(self.wrong_unsure, self.wrong),
            pct(self.sure_open_wrong, self.sure_real)
        )
    }
    fn share(a: u32, b: u32) -> f64 {
        if b == 0 { 1.0 } else { a as f64 / b as f64 }
    }
}

/// True for the statuses `list --status open` lists.
fn is_open(status: &str) -> bool {
    regtrack::model::history::Status::parse(status).is_some_and(|s| !s.is_closed())
}

/// Compares one list's labels with regtrack's export; prints every
/// disagreement.
fn compare(l: &Labels, export: &[serde_json::Value]) -> Tally {
    let mut t = Tally::default();
    let str_of = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
    for c in &l.culprits {
        let ids: Vec<&str> = std::iter::once(c.culprit.as_str())
            .chain(c.full_id.as_deref())
            .chain(c.aliases.iter().map(String::as_str))
            .collect();
        let matches: Vec<&serde_json::Value> = export
            .iter()
            .filter(|r| {
                let mut rids = vec![str_of(&r["culprit"]["commit"])];
                rids.extend(
                    r["culprit"]["aliases"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(str_of),
                );
                let msgs: Vec<String> = r["reports"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|x| str_of(&x["message_id"]))
                    .collect();
                ids.iter().any(|a| rids.iter().any(|b| same(a, b)))
                    || c.reports.iter().any(|m| msgs.contains(m))
            })
            .collect();
        t.culprits += 1;
        let real = c.direction != "improvement";
        if real {
            t.real += 1;
        }
        let live: Vec<&Fix> = c.fixes.iter().filter(|f| f.state != "rejected").collect();
        if matches.len() > 1 {
            t.split += 1;
            eprintln!(
                "  {} {}: split into {} histories",
                l.list,
                c.culprit,
                matches.len()
            );
        }
        let Some(r) = matches.first() else {
            t.missing += 1;
            t.fixes += live.len() as u32;
            t.landed += live
                .iter()
                .filter(|f| matches!(f.state.as_str(), "applied" | "merged"))
                .count() as u32;
            eprintln!("  {} {}: missing (gold {})", l.list, c.culprit, c.status);
            continue;
        };
        let got = str_of(&r["status"]);
        let unsure = r["status_confidence"] == "unsure";
        if unsure {
            t.unsure += 1;
        }
        if real && !unsure {
            t.sure_real += 1;
            if is_open(&got) != is_open(&c.status) {
                t.sure_open_wrong += 1;
            }
        }
        if got == c.status {
            t.status_ok += 1;
            if real {
                t.real_ok += 1;
            }
        } else {
            t.wrong += 1;
            if unsure {
                t.wrong_unsure += 1;
            }
            eprintln!(
                "  {} {}: status {got}{}, gold {}",
                l.list,
                c.culprit,
                if unsure { " (unsure)" } else { "" },
                c.status
            );
        }
        // Fix patches: each listed patch (any posting of it) against the
        // gold fixes' postings and landings.
        let gold: Vec<Vec<&str>> = c
            .fixes
            .iter()
            .map(|f| {
                f.postings
                    .iter()
                    .map(String::as_str)
                    .chain(f.landing.iter().filter_map(|x| x.message_id.as_deref()))
                    .collect()
            })
            .collect();
        let mut found = vec![false; c.fixes.len()];
        for rr in &matches {
            for p in rr["patches"].as_array().into_iter().flatten() {
                let mut versions: Vec<String> = p["versions"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(str_of)
                    .collect();
                versions.push(str_of(&p["message_id"]));
                t.patches += 1;
                let hit: Vec<usize> = (0..gold.len())
                    .filter(|&i| gold[i].iter().any(|g| versions.iter().any(|v| v == g)))
                    .collect();
                if hit.is_empty() {
                    let not = c.not_fixes.iter().any(|n| versions.contains(n));
                    eprintln!(
                        "  {} {}: lists patch {} ({})",
                        l.list,
                        c.culprit,
                        str_of(&p["message_id"]),
                        if not {
                            "gold: not a fix"
                        } else {
                            "not in gold"
                        }
                    );
                } else {
                    t.patches_ok += 1;
                    for i in hit {
                        found[i] = true;
                    }
                }
            }
        }
        for (i, f) in c.fixes.iter().enumerate() {
            if f.state == "rejected" {
                continue;
            }
            t.fixes += 1;
            if found[i] {
                t.fixes_found += 1;
            } else {
                eprintln!(
                    "  {} {}: misses fix {:?}",
                    l.list,
                    c.culprit,
                    f.postings.first()
                );
            }
            if matches!(f.state.as_str(), "applied" | "merged") {
                t.landed += 1;
                if matches!(got.as_str(), "fix-applied" | "fixed") {
                    t.landed_seen += 1;
                }
            }
        }
    }
    t
}

/// Floors of agreement over every archive measured (shares), and ceilings
/// of doubt. Set on thirty-five archives (eighteen the rules were written
/// on, seventeen held out): status 145/159, real regressions 84/95, fix
/// precision 45/59, fix recall 38/43, applied or merged seen 15/21, unsure
/// 22/159, wrong statuses that are unsure 10/14, wrong open/closed answers
/// among sure real regressions 2/80; each floor is that less three
/// histories (wrong and unsure: less two); the ceilings were set on
/// twenty-five of them, each plus two or three histories. Over forty-one
/// (nineteen written on, twenty-two held out): 156/172, 92/104, 50/64,
/// 42/47, 17/24, 24/172, 12/16, 2/88; with the pasted branch log (twenty
/// written on, twenty-one held out): 160/172, 92/104, 50/64, 42/47, 21/24,
/// 20/172, 8/12, 2/88, and the floors of status, precision, recall and
/// landings raised to those less three histories. Over forty-five (four
/// more held out): 166/178, 95/107, 51/65, 43/48, 21/24, 20/178, 8/12,
/// 2/91; with a bare "I sent a new version" a guess: 167/178, 96/107,
/// 51/65, 43/48, 21/24, 20/178, 8/11, 1/91; with renamed next versions
/// and confirmations limited to the speaker's set-up: 167/178, 96/107,
/// 51/65, 43/48, 21/24, 21/178, 9/11, 1/90, no culprit split or missing
/// (now required), and the floor of wrong statuses that are unsure raised
/// to that less two histories; with fixes a reply points at and fixes of
/// another report shown, not linked: 167/178, 96/107, 52/65, 44/48, 21/24,
/// 20/178, 9/11, 1/90; with the drafts on the way to a confirmed posting
/// left out of the patches: 52/61, the rest the same, and the floor of
/// precision raised to that less three patches; with diffs their authors
/// say are no fix left out: 52/60, and with the clause after a condition's
/// ", but" read: 52/59, the rest the same.
const FLOOR_STATUS: f64 = 0.91;
const FLOOR_REAL: f64 = 0.85;
const FLOOR_PRECISION: f64 = 0.80;
const FLOOR_RECALL: f64 = 0.83;
const FLOOR_LANDED: f64 = 0.75;
const FLOOR_WRONG_UNSURE: f64 = 0.63;
const CEILING_UNSURE: f64 = 0.15;
const CEILING_SURE_OPEN_WRONG: f64 = 0.10;

#[test]
fn regtrack_agrees_with_the_gold_labels_of_whole_archives() {
    let Some(mirrors) = std::env::var_os("REGTRACK_MIRRORS").map(PathBuf::from) else {
        crate::common::skip("REGTRACK_MIRRORS (a folder of public-inbox archives) is unset");
        return;
    };
    let mut total = Tally::default();
    let mut by_role: std::collections::BTreeMap<String, (Tally, u32)> = Default::default();
    let mut measured = 0;
    for l in labels() {
        let Some(epoch) = archive(&mirrors, &l.archive) else {
            crate::common::skip_part_shown(
                &l.list,
                &format!("no archive {} under {}", l.archive, mirrors.display()),
            );
            continue;
        };
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("gold.db");
        crate::common::Cmd::regtrack()
            .db(&db)
            .args(["-q", "ingest"])
            .arg(&epoch)
            // A whole archive in a debug build on a busy machine.
            .limit(std::time::Duration::from_secs(3600))
            .ok();
        let export = crate::common::Cmd::regtrack()
            .db(&db)
            .args(["export", "--format", "json"])
            .json();
        // REGTRACK_GOLD_EXPORTS=DIR keeps each archive's export, to read
        // the disagreements in full.
        if let Some(keep) = std::env::var_os("REGTRACK_GOLD_EXPORTS") {
            let path = PathBuf::from(keep).join(format!("{}.json", l.list));
            std::fs::write(&path, export.to_string()).unwrap();
        }
        let export = export.as_array().cloned().unwrap_or_default();
        eprintln!("{}:", l.list);
        let t = compare(&l, &export);
        eprintln!("{}: {}", l.list, t.line());
        total.add(&t);
        let role = by_role.entry(l.rules.clone()).or_default();
        role.0.add(&t);
        role.1 += 1;
        measured += 1;
    }
    if measured == 0 {
        return;
    }
    for (role, (t, n)) in &by_role {
        eprintln!("{n} archives the rules were {role}: {}", t.line());
    }
    eprintln!("all {measured} archives: {}", total.line());
    let checks = [
        (
            "status",
            Tally::share(total.status_ok, total.culprits),
            FLOOR_STATUS,
        ),
        (
            "status of real regressions",
            Tally::share(total.real_ok, total.real),
            FLOOR_REAL,
        ),
        (
            "fix precision",
            Tally::share(total.patches_ok, total.patches),
            FLOOR_PRECISION,
        ),
        (
            "fix recall",
            Tally::share(total.fixes_found, total.fixes),
            FLOOR_RECALL,
        ),
        (
            "applied or merged seen",
            Tally::share(total.landed_seen, total.landed),
            FLOOR_LANDED,
        ),
        (
            "wrong statuses that are unsure",
            Tally::share(total.wrong_unsure, total.wrong),
            FLOOR_WRONG_UNSURE,
        ),
    ];
    assert_eq!(
        (total.split, total.missing),
        (0, 0),
        "culprits split over two histories, culprits missing"
    );
    for (what, got, floor) in checks {
        assert!(
            got >= floor,
            "{what}: {:.0}% agreement, below the floor of {:.0}%",
            got * 100.0,
            floor * 100.0
        );
    }
    let ceilings = [
        (
            "histories unsure",
            Tally::share(total.unsure, total.culprits),
            CEILING_UNSURE,
        ),
        (
            "wrong open/closed answers among sure real regressions",
            Tally::share(total.sure_open_wrong, total.sure_real),
            CEILING_SURE_OPEN_WRONG,
        ),
    ];
    for (what, got, ceiling) in ceilings {
        assert!(
            got <= ceiling,
            "{what}: {:.0}%, above the ceiling of {:.0}%",
            got * 100.0,
            ceiling * 100.0
        );
    }
}
