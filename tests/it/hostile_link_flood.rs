//! A flood of histories that look alike: many copies of one whole history
//! (`corpus/threads/fixed-history.mbox`: a report, replies, a fix with
//! `Closes:`, its thank-you), each with a culprit and Message-IDs of its
//! own, whose fixes share their title and author, or their diff. Each
//! history must hold its own fix, its own landing and nothing of the other
//! copies: what a history holds then grows with the archive, not with its
//! square (`scripts/bench-link-scale` measures the time). And one fix
//! whose `Closes:` name many reports is no flood: it stays one patch, its
//! pull request landing it in every history.

use std::path::Path;

use crate::common::{Cmd, corpus};

/// Copies of the fixed history.
const COPIES: usize = 12;

/// `COPIES` renamed copies of the fixed history: every Message-ID gets
/// the prefix `h<i>.`, culprit `<i>`'s id is made of `i`; the culprit's
/// title gets ` <i>`; the fix's title too unless `same_title`; the fix's
/// diff changes with `i` unless `same_diff`.
fn flood(same_title: bool, same_diff: bool) -> String {
    let text = std::fs::read_to_string(corpus("threads/fixed-history.mbox")).unwrap();
    let mut ids: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let rest = l
                .strip_prefix("Message-ID:")
                .or_else(|| l.strip_prefix("Message-Id:"))?;
            let id = rest.trim().trim_start_matches('<').trim_end_matches('>');
            Some(id.to_string())
        })
        .collect();
    ids.sort_by_key(|id| std::cmp::Reverse(id.len()));
    ids.dedup();
    assert!(ids.len() >= 5, "the fixture's Message-IDs");
    let full = "5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b";
    let mut out = String::new();
    for i in 0..COPIES {
        let id = format!("{:010x}{:030x}", (i as u64 + 1) * 0x9a3c_5e71, i);
        let mut t = text.clone();
        for mid in &ids {
            t = t.replace(mid.as_str(), &format!("h{i}.{mid}"));
        }
        // Every abbreviation of the culprit's id, longest first.
        for len in (8..=full.len()).rev() {
            t = t.replace(&full[..len], &id[..len]);
        }
        for title in [
            "take the orphan lock only when needed",
            "only lock the orphan list for orphans",
        ] {
            if title.starts_with("take") || !same_title {
                t = t.replace(title, &format!("{title} {i}"));
            }
        }
        if !same_diff {
            t = t.replace("s_orphan_lock", &format!("s_orphan_lock_{i}"));
        }
        out.push_str(&t);
        out.push('\n');
    }
    out
}

/// Ingests `mbox` into `db`; every history of the export, by culprit.
fn histories(dir: &Path, name: &str, mbox: &str) -> Vec<serde_json::Value> {
    let path = dir.join(format!("{name}.mbox"));
    std::fs::write(&path, mbox).unwrap();
    let db = dir.join(format!("{name}.db"));
    Cmd::regtrack()
        .db(&db)
        .args(["ingest", "--quiet"])
        .arg(&path)
        .ok();
    let out = dir.join(format!("{name}.json"));
    Cmd::regtrack()
        .db(&db)
        .args(["export", "--format", "json", "--out"])
        .arg(&out)
        .ok();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    v.as_array().expect("an array of histories").clone()
}

/// The Message-IDs a history holds.
fn held(h: &serde_json::Value) -> Vec<String> {
    h["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// Every history holds only messages of its own copy, as many as one copy
/// alone gives, and is `fix-applied` by its own fix and landing.
fn each_holds_its_own(hs: &[serde_json::Value], alone: usize, what: &str) {
    assert_eq!(hs.len(), COPIES, "{what}: one history per copy");
    for h in hs {
        let ids = held(h);
        let first = ids.first().expect("a history holds its report");
        let prefix = &first[..first.find('.').unwrap() + 1];
        assert!(
            ids.iter().all(|id| id.starts_with(prefix)),
            "{what}: a history holds another copy's messages: {ids:?}"
        );
        assert_eq!(ids.len(), alone, "{what}: {ids:?}");
        assert_eq!(h["status"], "fix-applied", "{what}: {}", h["culprit"]);
        let patches = h["patches"].as_array().unwrap();
        assert!(
            patches
                .iter()
                .filter(|p| p["role"] == "patch")
                .all(|p| p["applied"].as_array().unwrap().len() == 1),
            "{what}: each fix has its own landing only: {patches:?}"
        );
    }
}

#[test]
fn copies_whose_fixes_share_a_title_or_a_diff_each_keep_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let one = histories(dir.path(), "one", &flood(false, false));
    let alone = held(&one[0]).len();
    assert!(alone >= 6, "the fixture's history: {alone} messages");
    each_holds_its_own(&one, alone, "distinct titles and diffs");
    let titled = histories(dir.path(), "title", &flood(true, false));
    each_holds_its_own(&titled, alone, "one fix title and author");
    let diffed = histories(dir.path(), "diff", &flood(false, true));
    each_holds_its_own(&diffed, alone, "one diff");
}

/// `COPIES` robot reports of culprits of their own (the corpus's current
/// report renamed), one fix posting whose `Closes:` name them all, and a
/// pull request listing the fix's title.
fn one_fix_for_many() -> String {
    let report = std::fs::read(corpus("report/current-perf-report.eml")).unwrap();
    let report = String::from_utf8_lossy(&report).into_owned();
    let full = "3f2a9c1b7e5d40a6c8b1e2f3a4b5c6d7e8f90123";
    let mut out = String::new();
    let mut closes = String::new();
    for i in 0..COPIES {
        let id = format!("{:010x}{:030x}", (i as u64 + 1) * 0x7b1d_03e5, i);
        let mid = format!("r{i}.202407101441-oliver.sang@intel.com");
        let mut t = report.replace("202407101441.5a1b2c3d-oliver.sang@intel.com", &mid);
        for len in (8..=full.len()).rev() {
            t = t.replace(&full[..len], &id[..len]);
        }
        t = t.replace(
            "take the i_data_sem only once",
            &format!("take the i_data_sem only once {i}"),
        );
        out.push_str("From mboxrd@z Thu Jan  1 00:00:00 1970\n");
        out.push_str(&t);
        out.push('\n');
        closes.push_str(&format!("Closes: https://lore.kernel.org/oe-lkp/{mid}\n"));
    }
    out.push_str(&format!(
        "From mboxrd@z Thu Jan  1 00:00:00 1970\n\
         From: Jan Kara <jack@suse.cz>\n\
         Date: Mon, 22 Jul 2024 12:00:00 +0200\n\
         Subject: [PATCH] ext4: take the data sem once for every fiemap caller\n\
         Message-ID: <fix-all@suse.cz>\n\
         \n\
         The robot reported the same fiemap slowdown against many commits.\n\
         \n\
         Reported-by: kernel test robot <oliver.sang@intel.com>\n\
         {closes}Signed-off-by: Jan Kara <jack@suse.cz>\n\
         ---\n\
         diff --git a/fs/ext4/extents.c b/fs/ext4/extents.c\n\
         --- a/fs/ext4/extents.c\n\
         +++ b/fs/ext4/extents.c\n\
         @@ -1,2 +1,2 @@\n\
         -\tdown_read(&ei->i_data_sem);\n\
         +\tdown_read_once(&ei->i_data_sem);\n\
         \n\
         From mboxrd@z Thu Jan  1 00:00:00 1970\n\
         From: Theodore Ts'o <tytso@mit.edu>\n\
         Date: Thu, 1 Aug 2024 12:00:00 -0400\n\
         Subject: [GIT PULL] ext4 fixes for 6.11-rc2\n\
         Message-ID: <pull-ext4@mit.edu>\n\
         \n\
         The following changes since commit 8400291e289ee6b2bf9779ff1c83a291501f017b:\n\
         \n\
         \x20 Linux 6.11-rc1 (2024-07-28 14:19:55 -0700)\n\
         \n\
         are available in the Git repository at:\n\
         \n\
         \x20 https://git.kernel.org/pub/scm/linux/kernel/git/tytso/ext4.git tags/ext4_for_linus-6.11-rc2\n\
         \n\
         for you to fetch changes up to 0b2ba9c3d1f3e2a1b0c9d8e7f6a5b4c3d2e1f0a9:\n\
         \n\
         \x20 ext4: take the data sem once for every fiemap caller (2024-07-30 10:00:00 -0400)\n\
         \n\
         ----------------------------------------------------------------\n\
         Fix a fiemap slowdown.\n\
         \n\
         ----------------------------------------------------------------\n\
         Jan Kara (1):\n\
         \x20     ext4: take the data sem once for every fiemap caller\n\
         \n\
         \x20fs/ext4/extents.c | 2 +-\n\
         \x201 file changed, 1 insertion(+), 1 deletion(-)\n\
         \n"
    ));
    out
}

#[test]
fn one_fix_closing_many_reports_stays_one_patch_with_its_pull_request() {
    let dir = tempfile::tempdir().unwrap();
    let hs = histories(dir.path(), "many", &one_fix_for_many());
    assert_eq!(hs.len(), COPIES, "one history per culprit");
    for h in &hs {
        let patches = h["patches"].as_array().unwrap();
        let fix = patches
            .iter()
            .find(|p| p["message_id"] == "fix-all@suse.cz")
            .unwrap_or_else(|| panic!("the fix is linked: {patches:?}"));
        let applied = fix["applied"].as_array().unwrap();
        assert!(
            applied
                .iter()
                .any(|a| a["message_id"] == "pull-ext4@mit.edu"),
            "{}: the pull request lands the fix: {applied:?}",
            h["culprit"]
        );
        assert_eq!(h["status"], "fix-applied", "{}", h["culprit"]);
    }
}
