//! A reply naming a culprit in its subject, whose report went to another
//! list and is only quoted (`commit: <id> ("title")`): when the quoted title
//! is that of a culprit reported here under another id (the same change,
//! rebased into another tree), the reply joins that history and the id is
//! an alias; a different title stays a history of its own. The same after
//! an update that brings the reply later.

use std::path::Path;

use crate::common::{Cmd, first_of_two_reports as report};

fn reply(title: &str) -> String {
    format!(
        "From mboxrd@z Thu Jan  1 00:00:00 1970\n\
         From: Ted Maintainer <tm@example.org>\n\
         To: linux-ext4@vger.kernel.org\n\
         Date: Mon, 15 Jul 2024 10:00:00 +0000\n\
         Subject: Re: [tytso-ext4:dev] [ext4]  0badc0ffee: stress-ng.fiemap.ops_per_sec -14.9% regression\n\
         Message-ID: <quoted-reply@example.org>\n\
         In-Reply-To: <202407150000.0badc0ff-lkp@intel.com>\n\
         References: <202407150000.0badc0ff-lkp@intel.com>\n\
         List-Id: <linux-ext4.vger.kernel.org>\n\
         \n\
         On Mon, Jul 15, 2024, kernel test robot wrote:\n\
         > kernel test robot noticed a -14.9% regression of stress-ng.fiemap.ops_per_sec on:\n\
         >\n\
         > commit: 0badc0ffee0123456789abcdef0123456789abcd (\"{title}\")\n\
         > https://git.kernel.org/cgit/linux/kernel/git/tytso/ext4.git dev\n\
         \n\
         The same change as the one reported on linux-next; looking.\n\n"
    )
}

fn export(db: &Path) -> Vec<serde_json::Value> {
    let v = Cmd::regtrack()
        .db(db)
        .args(["export", "--format", "json"])
        .json();
    v.as_array().cloned().unwrap_or_default()
}

fn ingest(db: &Path, dir: &Path, name: &str, text: &str) {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    Cmd::regtrack().db(db).args(["-q", "ingest"]).arg(&p).ok();
}

fn histories_of(regs: &[serde_json::Value]) -> Vec<(String, Vec<String>)> {
    let mut v: Vec<(String, Vec<String>)> = regs
        .iter()
        .map(|r| {
            let mut a: Vec<String> = r["culprit"]["aliases"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect();
            a.sort();
            (r["culprit"]["commit"].as_str().unwrap_or("").to_string(), a)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn a_quoted_report_of_the_same_title_joins_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    ingest(
        &db,
        dir.path(),
        "all.mbox",
        &(report() + &reply("ext4: make the sb update interval tunable")),
    );
    let regs = export(&db);
    assert_eq!(
        histories_of(&regs),
        vec![(
            "d15ea5e0123456789abcdef0123456789abcdef0".to_string(),
            vec!["0badc0ffee".to_string()]
        )],
        "{regs:?}"
    );
    let attached: Vec<&str> = regs[0]["attached"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["message_id"].as_str())
        .collect();
    assert!(
        attached.contains(&"quoted-reply@example.org"),
        "{attached:?}"
    );

    // The reply arriving in a later update: the same history.
    let db2 = dir.path().join("t2.db");
    ingest(&db2, dir.path(), "report.mbox", &report());
    ingest(
        &db2,
        dir.path(),
        "reply.mbox",
        &reply("ext4: make the sb update interval tunable"),
    );
    assert_eq!(histories_of(&export(&db2)), histories_of(&regs));
}

#[test]
fn a_quoted_report_of_another_title_is_its_own_history() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    ingest(
        &db,
        dir.path(),
        "all.mbox",
        &(report() + &reply("ext4: an unrelated change to the journal")),
    );
    let h = histories_of(&export(&db));
    assert_eq!(h.len(), 2, "{h:?}");
    assert!(h.iter().all(|(_, a)| a.is_empty()), "{h:?}");
}
