//! `regtrack trends`: the robot's reports per month or release and per
//! subsystem, testcase and metric, on the bundled corpus (numbers checked
//! by hand against `show`), in its three formats; hostile mail text in the
//! table, the CSV and the HTML report's charts; release grouping from a
//! followed git tree (skipped without git); the linux-ext4 selection of
//! the shared real mail (skipped without `REGTRACK_SHARED`).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::common::{Cmd, have_git};
use crate::usable_links::corpus_db;

fn trends(db: &Path, args: &[&str]) -> crate::common::Run {
    Cmd::regtrack().db(db).arg("trends").args(args).run()
}

fn trends_json(db: &Path, args: &[&str]) -> Value {
    Cmd::regtrack()
        .db(db)
        .args(["trends", "--json"])
        .args(args)
        .json()
}

/// The id of the one history whose culprit starts with `prefix`.
fn id_of(db: &Path, prefix: &str) -> i64 {
    let v = Cmd::regtrack()
        .db(db)
        .args(["show", prefix, "--json"])
        .json();
    assert_eq!(v.as_array().map(Vec::len), Some(1), "{prefix}");
    v[0]["id"].as_i64().expect("id")
}

/// The rows' fields that do not depend on the ids the corpus gave.
fn without_ids(rows: &Value) -> Vec<Value> {
    rows.as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.as_object_mut().expect("row").remove("ids");
            r
        })
        .collect()
}

#[test]
fn the_corpus_trends_count_reports_changes_statuses_and_days() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    // March 2024 in ext4: 5d3a0d5b1c3d (aim7.jobs-per-min -11.8%, reported
    // 03-01 07:11, first reply by Ann Example 03-04 09:00: 3.08 days, a fix
    // confirmed: open) and 5e1f2a3b4c5d (fsmark.files_per_sec -12.3%,
    // reported 03-15 02:23, Jan Kara 10:15: 0.33 days, applied by Ted
    // Ts'o 03-29 02:10: 13.99 days). The later functional report of
    // 5d3a0d5b1c3d is no performance report and not counted.
    let v = trends_json(
        &db,
        &[
            "--subsystem",
            "ext4",
            "--since",
            "2024-03-01",
            "--until",
            "2024-04-01",
            "--per",
            "subsystem",
        ],
    );
    assert_eq!(
        (&v["by"], &v["per"]),
        (&json!("month"), &json!("subsystem"))
    );
    assert!(v["direction"].is_null());
    let mut ids = vec![id_of(&db, "5d3a0d5b1c3d"), id_of(&db, "5e1f2a3b4c5d")];
    ids.sort_unstable();
    assert_eq!(v["rows"][0]["ids"], json!(ids));
    assert_eq!(
        without_ids(&v["rows"]),
        [json!({
            "period": "2024-03", "subsystem": "ext4", "reports": 2, "histories": 2,
            "median_abs_change_percent": 12.1, "worst_change_percent": -12.3,
            "fixed": 1, "declined": 0, "open": 1,
            "fixed_percent": 50.0, "declined_percent": 0.0, "open_percent": 50.0,
            "median_days_to_reply": 1.7, "replied": 2,
            "median_days_to_fix": 14.0, "fixes_timed": 1
        })]
    );

    // jbd2, per metric: 7b8c9d0e1f2a (fileio +92.5%, disputed, Zhang Yi's
    // reply after 1.1 days) and f1f2f3f4f5 (stress-ng.utime -8.1%,
    // reported 2024-09-04 23:00, a patch 09-10 09:00: 5.42 days; the
    // robot's test of mainline with the fix 10-01 03:00: 26.17 days, fixed).
    // The improvement a0a1a2a3a4 is left out.
    let run = trends(&db, &["--subsystem", "jbd2"]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    let lines: Vec<Vec<&str>> = run
        .stdout
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        lines,
        [
            vec![
                "month",
                "subsystem",
                "testcase",
                "metric",
                "reports",
                "histories",
                "median",
                "worst",
                "fixed",
                "declined",
                "open",
                "reply(d)",
                "fix(d)"
            ],
            vec![
                "2024-04",
                "jbd2",
                "fileio",
                "fileio.latency_95th_ms",
                "1",
                "1",
                "92.5%",
                "+92.5%",
                "0%",
                "0%",
                "100%",
                "1.1",
                "-"
            ],
            vec![
                "2024-09",
                "jbd2",
                "stress-ng",
                "stress-ng.utime.ops_per_sec",
                "1",
                "1",
                "8.1%",
                "-8.1%",
                "100%",
                "0%",
                "0%",
                "5.4",
                "26.2"
            ],
        ]
    );
    // Asked for, the improvements alone.
    let v = trends_json(&db, &["--subsystem", "jbd2", "--direction", "improvement"]);
    assert_eq!(v["direction"], "improvement");
    assert_eq!(v["rows"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["rows"][0]["period"], "2024-10");
    assert_eq!(v["rows"][0]["worst_change_percent"], 8.6);
    assert_eq!(v["rows"][0]["ids"], json!([id_of(&db, "a0a1a2a3a4")]));

    // A history known only from replies quoting its report counts its
    // headline, dated by its first message: 2edf06a50f, xfs, May 2023.
    let v = trends_json(
        &db,
        &[
            "--subsystem",
            "xfs",
            "--until",
            "2024-01-01",
            "--per",
            "testcase",
        ],
    );
    let rows = v["rows"].as_array().expect("rows");
    let may = rows
        .iter()
        .find(|r| r["period"] == "2023-05")
        .expect("2023-05");
    assert_eq!(may["testcase"], "fsmark");
    assert!(may.get("metric").is_none());
    assert_eq!(may["ids"], json!([id_of(&db, "2edf06a50f")]));
    assert_eq!(may["worst_change_percent"], -5.7);
    assert!(may["median_days_to_reply"].is_null());
}

#[test]
fn trends_formats_agree_and_nothing_to_count_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let v = trends_json(&db, &["--per", "testcase"]);
    let same = Cmd::regtrack()
        .db(&db)
        .args(["trends", "--format", "json", "--per", "testcase"])
        .json();
    assert_eq!(v, same);
    let rows = v["rows"].as_array().expect("rows");
    assert!(rows.len() > 10, "{v:#}");
    // Every non-improvement performance report of `list`, once.
    let all = Cmd::regtrack().db(&db).args(["list", "--json"]).json();
    let counted: u64 = rows.iter().map(|r| r["reports"].as_u64().unwrap()).sum();
    let expected: usize = all
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let own = h["reports"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| r["kind"] == "perf-report" && r["direction"] != "improvement")
                .count();
            let quoted = h["reports"].as_array().unwrap().is_empty()
                && !h["headline"].is_null()
                && h["direction"] != "improvement";
            own + usize::from(quoted)
        })
        .sum();
    assert_eq!(counted, expected as u64);

    let csv = trends(&db, &["--per", "testcase", "--format", "csv"]);
    assert_eq!(csv.code(), Some(0));
    let mut rd = csv::Reader::from_reader(csv.stdout.as_bytes());
    let head: Vec<String> = rd.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(
        head[..6],
        [
            "period",
            "subsystem",
            "testcase",
            "metric",
            "reports",
            "histories"
        ]
    );
    let recs: Vec<csv::StringRecord> = rd.records().map(Result::unwrap).collect();
    assert_eq!(recs.len(), rows.len());
    for (rec, row) in recs.iter().zip(rows) {
        assert_eq!(&rec[0], row["period"].as_str().unwrap_or(""));
        assert_eq!(&rec[2], row["testcase"].as_str().unwrap());
        assert_eq!(
            rec[4].parse::<u64>().unwrap(),
            row["reports"].as_u64().unwrap()
        );
        let ids: Vec<String> = row["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.to_string())
            .collect();
        assert_eq!(&rec[18], ids.join(" "));
    }

    // No followed tree: no culprit has a release, every row's period is
    // unknown.
    let v = trends_json(&db, &["--by", "release", "--per", "subsystem"]);
    assert!(
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["period"].is_null())
    );
    let text = trends(&db, &["--by", "release", "--per", "subsystem"]).stdout;
    assert!(text.starts_with("release  subsystem"), "{text}");
    assert!(text.lines().skip(1).all(|l| l.starts_with("-  ")), "{text}");

    let none = trends(&db, &["--subsystem", "no-such-subsystem"]);
    assert_eq!(none.code(), Some(1));
    assert_eq!(none.stdout, "");
    let both = trends(&db, &["--json", "--format", "csv"]);
    assert_eq!(both.code(), Some(2), "{}", both.stderr);
    let bad = trends(&db, &["--by", "week"]);
    assert_eq!(bad.code(), Some(2));
}

#[test]
fn hostile_subsystems_reach_no_terminal_spreadsheet_or_page_raw() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let mbox = std::fs::read_to_string(crate::common::corpus("threads/two-reports.mbox")).unwrap();
    let mbox = mbox.replace(
        "[ext4]",
        "[=ext4\x1b[2J\x07<script>alert(1)</script>\u{202e}]",
    );
    let path = dir.path().join("hostile.mbox");
    std::fs::write(&path, mbox).unwrap();
    Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .arg(&path)
        .ok();
    let v = trends_json(&db, &["--per", "subsystem"]);
    let sub = v["rows"][0]["subsystem"].as_str().expect("subsystem");
    assert!(
        sub.contains("\x1b[2j\x07<script>"),
        "JSON is exact: {sub:?}"
    );

    let text = trends(&db, &[]).stdout;
    assert!(!text.contains(['\x1b', '\x07', '\u{202e}']), "{text:?}");
    assert!(text.contains("\\x1b[2j\\x07<script>"), "{text}");

    let csv = trends(&db, &["--format", "csv"]).stdout;
    let mut rd = csv::Reader::from_reader(csv.as_bytes());
    for rec in rd.records() {
        assert!(rec.unwrap()[1].starts_with("'="), "{csv}");
    }

    let html = Cmd::regtrack()
        .db(&db)
        .args(["export", "--format", "html"])
        .ok()
        .stdout;
    let sec = &html[html.find("<section id=\"trends\">").expect("trends")..];
    let sec = &sec[..sec.find("</section>").expect("end")];
    assert!(sec.contains("class=\"chart months\"") && sec.contains("class=\"chart changes\""));
    assert!(!sec.contains("<script") && !sec.contains('\x1b'), "{sec}");
    assert!(
        sec.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{sec}"
    );
    assert_eq!(html.matches("<script").count(), 1);
}

/// Runs `git` in `dir` with a fixed identity and clock (`clock` seconds,
/// advanced an hour a call).
fn git(dir: &Path, clock: &mut i64, args: &[&str]) -> String {
    *clock += 3600;
    let date = format!("{clock} +0000");
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"])
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

#[test]
fn by_release_the_culprit_s_release_cycle_from_a_followed_tree() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("linux");
    std::fs::create_dir_all(&repo).unwrap();
    let mut clock = 1_710_000_000;
    let commit = |clock: &mut i64, file: &str, msg: &str| {
        std::fs::write(repo.join(file), msg).unwrap();
        git(&repo, clock, &["add", "-A"]);
        git(&repo, clock, &["commit", "-q", "-m", msg]);
        git(&repo, clock, &["rev-parse", "HEAD"])
    };
    git(&repo, &mut clock, &["init", "-q", "-b", "master"]);
    commit(&mut clock, "Makefile", "Linux 6.8");
    git(&repo, &mut clock, &["tag", "-a", "v6.8", "-m", "v6.8"]);
    // The culprit of the two-reports thread, a real commit merged for
    // v6.9-rc1; the thread is rewritten to name it.
    let culprit = commit(
        &mut clock,
        "extents.c",
        "ext4: make fiemap walk extents once",
    );
    git(
        &repo,
        &mut clock,
        &["tag", "-a", "v6.9-rc1", "-m", "v6.9-rc1"],
    );
    commit(&mut clock, "Makefile", "Linux 6.9");
    git(&repo, &mut clock, &["tag", "-a", "v6.9", "-m", "v6.9"]);
    const TWO_REPORTS: &str = "d15ea5e0123456789abcdef0123456789abcdef0";
    let mbox = std::fs::read_to_string(crate::common::corpus("threads/two-reports.mbox"))
        .unwrap()
        .replace(TWO_REPORTS, &culprit)
        .replace(&TWO_REPORTS[..10], &culprit[..10]);
    let rewritten = tmp.path().join("two-reports.mbox");
    std::fs::write(&rewritten, mbox).unwrap();

    let db = tmp.path().join("t.db");
    let regtrack = |args: &[&str]| Cmd::regtrack().db(&db).args(args).ok();
    regtrack(&[
        "-q",
        "trees",
        "add",
        "mainline",
        repo.to_str().unwrap(),
        "--ref",
        "master",
    ]);
    let fixed: PathBuf = crate::common::corpus("threads/fixed-history.mbox");
    Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .arg(&rewritten)
        .arg(&fixed)
        .ok();
    let v = trends_json(&db, &["--by", "release", "--per", "subsystem"]);
    let rows: Vec<(Value, Value, Value)> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["period"].clone(),
                r["subsystem"].clone(),
                r["reports"].clone(),
            )
        })
        .collect();
    // The culprit's two reports (June and July 2024) in the v6.9 cycle;
    // the other history, whose culprit no tree holds, in the unknown one.
    assert_eq!(
        rows,
        [
            (json!("v6.9"), json!("ext4"), json!(2)),
            (Value::Null, json!("ext4"), json!(1)),
        ],
        "{v:#}"
    );
    let text = trends(&db, &["--by", "release", "--per", "subsystem"]).stdout;
    let periods: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(periods, ["release", "v6.9", "-"], "{text}");
}

#[test]
fn the_linux_ext4_selection_of_real_mail() {
    let Some(shared) = crate::common::shared() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .arg(shared.join("corpus/ext4-lkp.mbox"))
        .ok();
    let v = trends_json(&db, &["--per", "subsystem"]);
    // Checked by hand against `show`: 17 histories, 10 of them
    // improvements (left out); of the others each report's month, its
    // change and the first reply by a person after the report (Andreas
    // Dilger 11.55 days after ef4eebad9c01's, Amir Goldstein 0.12 days
    // after 4c40d6efc8b2's, Jan Kara 14.34 after 4f3d1e4533b0's, Zhang Yi
    // 0.83 after 6a3afb6ac6df's and none to 8a4fd33d879f's, Ojaswin Mujoo
    // 1.12 after 896b02d0b9e7's, none to 7ac67301e82f's).
    let got: Vec<Value> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            json!([
                r["period"],
                r["subsystem"],
                r["reports"],
                r["histories"],
                r["median_abs_change_percent"],
                r["worst_change_percent"],
                r["median_days_to_reply"]
            ])
        })
        .collect();
    assert_eq!(
        got,
        [
            json!(["2021-02", "ext4", 1, 1, 9.8, -9.8, 11.6]),
            json!(["2021-07", "fsnotify", 1, 1, 3.3, -3.3, 0.1]),
            json!(["2023-07", "ext4", 1, 1, 2.5, -2.5, 14.3]),
            json!(["2024-01", "jbd2", 2, 2, 67.4, 92.5, 0.8]),
            json!(["2025-04", "ext4", 1, 1, 15.8, -15.8, 1.1]),
            json!(["2025-06", "ext4", 1, 1, 22.9, -22.9, null]),
        ],
        "{v:#}"
    );
    // The shares are those of the histories' statuses as `list` gives them.
    let all = Cmd::regtrack().db(&db).args(["list", "--json"]).json();
    let status: std::collections::HashMap<i64, String> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["id"].as_i64().unwrap(),
                h["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for r in v["rows"].as_array().unwrap() {
        let sts: Vec<&str> = r["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| status[&i.as_i64().unwrap()].as_str())
            .collect();
        let n = |f: &dyn Fn(&str) -> bool| sts.iter().filter(|s| f(s)).count() as u64;
        assert_eq!(r["fixed"], n(&|s| s == "fixed" || s == "fix-applied"));
        assert_eq!(r["declined"], n(&|s| s == "declined"));
        let closed = [
            "fix-applied",
            "fixed",
            "declined",
            "culprit-dropped",
            "improvement",
        ];
        assert_eq!(r["open"], n(&|s| !closed.contains(&s)));
    }
}
