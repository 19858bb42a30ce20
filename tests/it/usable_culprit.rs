//! Culprit facts as a maintainer reads them: a posting's `[PATCH 2/2]` tag
//! is no part of the culprit's title, a culprit that never reached mainline
//! links to the repository the report names (or to nothing), never to a
//! mainline page that does not exist, and a subject without a
//! `[subsystem]` tag takes its subsystem from the culprit's title, not the
//! commit id.

use std::path::Path;

use crate::common::Cmd;

fn report(id: &str, subject: &str, sha: &str, title: &str, tree_lines: &str) -> String {
    format!(
        "From mboxrd@z Thu Jan  1 00:00:00 1970\n\
         From: kernel test robot <oliver.sang@intel.com>\n\
         Date: Mon, 10 Jun 2024 10:00:00 +0800\n\
         Subject: {subject}\n\
         Message-ID: <{id}>\n\n\
         Hello,\n\n\
         kernel test robot noticed a 12.8% improvement of netperf.Throughput_tps on:\n\n\n\
         commit: {sha} (\"{title}\")\n\
         {tree_lines}\n\n\
         testcase: netperf\n\n"
    )
}

fn show(db: &Path, q: &str) -> serde_json::Value {
    let v = Cmd::regtrack().db(db).args(["show", q, "--json"]).json();
    v.as_array().map_or(v.clone(), |a| a[0].clone())
}

#[test]
fn a_posted_patch_culprit_reads_as_its_commit_and_links_its_branch() {
    let dir = tempfile::tempdir().unwrap();
    let mbox = dir.path().join("r.mbox");
    let posted = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678";
    let branch = "c0ffee0123456789abcdef0123456789abcdef01";
    let mainline = "badc0de123456789abcdef0123456789abcdef02";
    let text = [
        report(
            "posted@intel.com",
            "a1b2c3d4e5: netperf.Throughput_tps 12.8% improvement",
            posted,
            "[PATCH v2 2/2] net: batch the socket wakeups",
            "url: https://github.com/intel-lab-lkp/linux/commits/Jane-Doe/net-batch/20240601-101010\n\
             base: https://git.kernel.org/cgit/linux/kernel/git/netdev/net-next.git main\n\
             patch link: https://lore.kernel.org/all/20240601.jane@example.org/",
        ),
        report(
            "branch@intel.com",
            "[jdoe:wip-sched] [sched]  c0ffee0123:  netperf.Throughput_tps 12.8% improvement",
            branch,
            "sched: try something",
            "https://git.kernel.org/cgit/linux/kernel/git/jdoe/linux.git wip-sched",
        ),
        report(
            "mainline@intel.com",
            "[linus:master] [mm]  badc0de123:  netperf.Throughput_tps 12.8% improvement",
            mainline,
            "mm: something",
            "https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git master",
        ),
    ]
    .concat();
    std::fs::write(&mbox, text).unwrap();
    let db = dir.path().join("t.db");
    Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .arg(&mbox)
        .ok();

    let r = show(&db, &posted[..10]);
    assert_eq!(
        r["culprit"]["title"], "net: batch the socket wakeups",
        "{r:#}"
    );
    assert_eq!(r["subsystem"], "net", "{r:#}");
    assert_eq!(r["scope"], "patch-under-review", "{r:#}");
    assert_eq!(
        r["culprit"]["url"],
        format!("https://github.com/intel-lab-lkp/linux/commit/{posted}"),
        "{r:#}"
    );

    let r = show(&db, &branch[..10]);
    assert_eq!(r["scope"], "developer-branch", "{r:#}");
    assert_eq!(
        r["culprit"]["url"],
        format!(
            "https://git.kernel.org/pub/scm/linux/kernel/git/jdoe/linux.git/commit/?id={branch}"
        ),
        "{r:#}"
    );

    let r = show(&db, &mainline[..10]);
    assert_eq!(
        r["culprit"]["url"],
        format!("https://git.kernel.org/torvalds/c/{mainline}"),
        "{r:#}"
    );

    // No export links a culprit that never reached mainline to mainline.
    for format in ["html", "md", "csv"] {
        let out = Cmd::regtrack()
            .db(&db)
            .args(["export", "--format", format])
            .ok();
        assert!(
            !out.stdout.contains(&format!("torvalds/c/{posted}")),
            "{format}"
        );
        assert!(
            !out.stdout.contains(&format!("torvalds/c/{branch}")),
            "{format}"
        );
    }
    let human = Cmd::regtrack().db(&db).args(["show", &posted[..10]]).ok();
    assert!(
        human.stdout.contains("net: batch the socket wakeups"),
        "{}",
        human.stdout
    );
    assert!(!human.stdout.contains("[PATCH"), "{}", human.stdout);
}
