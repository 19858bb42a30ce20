//! The facts the five seed mails in `$REGTRACK_SHARED/seeds` must give (issue 4),
//! read through `source::open`, `mail::parse` and `extract::extract`, so the
//! degraded forms (archive-rendered 002-004, whitespace-collapsed 000) are read
//! exactly as `regtrack ingest` reads them.

use regtrack::model::{Extraction, Message, SignalKind, TableFormat};

fn seed(prefix: &str) -> Option<(Message, Extraction)> {
    let dir = crate::common::shared()?.join("seeds");
    let path = std::fs::read_dir(&dir)
        .expect("seeds folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .expect("seed file present");
    let stream =
        regtrack::source::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let raws: Vec<_> = stream.collect();
    assert_eq!(raws.len(), 1, "{}: one message", path.display());
    let raw = raws.into_iter().next().expect("one").expect("readable");
    let msg = regtrack::mail::parse(&raw).expect("parses");
    let ex = regtrack::extract::extract(&msg);
    Some((msg, ex))
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-6)
}

#[test]
fn seed_000_collapsed_gives_the_diff_commits_and_reply_id() {
    let Some((msg, ex)) = seed("000_") else {
        return;
    };
    assert_eq!(
        msg.in_reply_to.as_deref(),
        Some("20220721220142.GW3861211@dread.disaster.area")
    );
    assert_eq!(ex.diffs.len(), 1);
    let d = &ex.diffs[0];
    assert_eq!(d.old_path.as_deref(), Some("fs/xfs/xfs_log_cil.c"));
    assert_eq!(d.new_path.as_deref(), Some("fs/xfs/xfs_log_cil.c"));
    assert_eq!(d.hunks.len(), 1);
    let h = &d.hunks[0];
    assert_eq!(
        (h.old_start, h.old_lines, h.new_start, h.new_lines),
        (659, 9, 659, 14)
    );
    assert_eq!(h.context, "xlog_cil_insert_items(");
    let title = |short: &str| {
        ex.commits
            .iter()
            .find(|c| c.id.starts_with(short))
            .and_then(|c| c.title.clone())
    };
    assert_eq!(
        title("df7a4a2134b0a").as_deref(),
        Some("xfs: convert CIL busy extents to per-cpu")
    );
    assert_eq!(
        title("016a23388cdcb").as_deref(),
        Some("xfs: Add order IDs to log items in CIL")
    );
    assert_eq!(
        title("c0fb4765c5086").as_deref(),
        Some("xfs: convert CIL to unordered per cpu lists")
    );
    for full in [
        "016a23388cdcb2740deb1379dc408f21c84efb11",
        "a8bef09e7d8e65207c8403e030a0965db43ce3de",
    ] {
        assert!(ex.commits.iter().any(|c| c.id == full), "{full} missing");
    }
}

#[test]
fn seed_001_gives_the_debug_diff_kconfig_and_both_fix_signals() {
    let Some((_, ex)) = seed("001_") else { return };
    assert_eq!(ex.diffs.len(), 1);
    let d = &ex.diffs[0];
    assert_eq!(d.new_path.as_deref(), Some("fs/xfs/libxfs/xfs_alloc.c"));
    let starts: Vec<_> = d.hunks.iter().map(|h| (h.old_start, h.old_lines)).collect();
    assert_eq!(starts, [(3246, 12), (3289, 7), (3329, 7)]);
    assert_eq!(d.hunks.iter().map(|h| h.added).sum::<u32>(), 4);
    assert_eq!(d.hunks.iter().map(|h| h.removed).sum::<u32>(), 4);
    let k: Vec<_> = ex
        .kconfig
        .iter()
        .map(|c| (c.option.as_str(), c.before.as_deref(), c.after.as_deref()))
        .collect();
    assert_eq!(
        k,
        [
            ("XFS_DEBUG", Some("y"), Some("not set")),
            ("XFS_ASSERT_FATAL", Some("y"), None),
            ("XFS_WARN", None, Some("not set")),
        ]
    );
    assert!(ex.signals.iter().any(|s| s.kind == SignalKind::ConfirmsFix
        && s.quote_depth == 0
        && s.sentence.contains("the performance is restored")));
    if ex.tables.iter().any(|t| t.format == TableFormat::Lkp) {
        assert!(
            ex.signals.iter().any(|s| s.kind == SignalKind::ConfirmsFix
                && s.commit.as_deref() == Some("68721405630744da1c07c9c1c3c")),
            "table signal missing: {:?}",
            ex.signals
        );
    } else {
        crate::common::skip_part_shown(
            "the table signal",
            "no lkp table extracted from the seed (report grammar)",
        );
    }
}

#[test]
fn seed_002_rendered_gives_the_mmtests_table_and_author() {
    let Some((msg, ex)) = seed("002_") else {
        return;
    };
    assert_eq!(msg.from_name.as_deref(), Some("Jan Kara"));
    assert_eq!(msg.from_email.as_deref(), Some("jack@suse.cz"));
    let t: Vec<_> = ex
        .tables
        .iter()
        .filter(|t| t.format == TableFormat::Mmtests)
        .collect();
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].commits, ["orig", "patched", "hack1", "hack2"]);
    let row = t[0]
        .rows
        .iter()
        .find(|r| r.metric == "creat_clo-7" && r.stat.as_deref() == Some("Hmean"))
        .expect("Hmean creat_clo-7");
    assert_eq!(
        row.values,
        [
            Some(36458.33),
            Some(23836.55),
            Some(32608.70),
            Some(37300.18)
        ]
    );
    let changes: Vec<_> = row
        .changes
        .iter()
        .map(|c| c.as_ref().and_then(|c| c.value))
        .collect();
    assert_eq!(changes, [Some(0.0), Some(-34.62), Some(-10.56), Some(2.31)]);
    assert_eq!(row.significant, [false, true, true, false]);
}

#[test]
fn seed_003_rendered_gives_the_profile_chain_and_reproducers() {
    let Some((_, ex)) = seed("003_") else { return };
    let p = &ex.profiles;
    assert_eq!(p.len(), 9, "{p:?}");
    assert!(close(p[0].percent, 31.18));
    assert_eq!(p[0].module.as_deref(), Some("[kernel]"));
    assert_eq!(p[0].symbol, "__pv_queued_spin_lock_slowpath");
    let chain: Vec<_> = p[1..]
        .iter()
        .map(|e| (e.symbol.as_str(), e.depth))
        .collect();
    assert_eq!(
        chain,
        [
            ("kswapd", 0),
            ("shrink_node", 1),
            ("shrink_node_memcg.isra.75", 2),
            ("shrink_inactive_list", 3),
            ("shrink_page_list", 4),
            ("__remove_mapping", 5),
            ("_raw_spin_lock_irqsave", 6),
            ("__pv_queued_spin_lock_slowpath", 7),
        ]
    );
    assert!(close(p[1].percent, 30.29) && close(p[2].percent, 30.23));
    assert!(close(p[7].percent, 22.27));
    let cmds: Vec<_> = ex.reproducers.iter().map(|r| r.command.as_str()).collect();
    assert_eq!(
        cmds,
        [
            "dd bs=4096 count=$((12*1024*1024)) if=/dev/zero of=bigfile",
            "mkfs.xfs -f -d size=48g /dev/vdc",
            "mount /dev/vdc /mnt/scratch",
            "xfs_io -f -c \"pwrite 0 47g\" /mnt/scratch/fooey",
        ]
    );
}

#[test]
fn seed_004_rendered_gives_stress_ng_runs_diffs_and_signals() {
    let Some((_, ex)) = seed("004_") else { return };
    let runs: Vec<_> = ex
        .tables
        .iter()
        .filter(|t| t.format == TableFormat::StressNg)
        .collect();
    assert_eq!(runs.len(), 2);
    let msg: Vec<_> = runs
        .iter()
        .map(|t| t.rows.iter().find(|r| r.metric == "msg").expect("msg row"))
        .collect();
    assert_eq!(msg[0].bogo_ops, Some(1626997107.0));
    assert!(close(msg[0].real_time, 60.61));
    assert!(close(msg[0].bogo_ops_per_sec_real, 26845470.19));
    assert_eq!(msg[1].bogo_ops, Some(1287795248.0));
    assert!(close(msg[1].real_time, 61.25));
    assert!(close(msg[1].bogo_ops_per_sec_real, 21025449.92));
    let fs_h = ex
        .diffs
        .iter()
        .find(|d| d.new_path.as_deref() == Some("include/linux/fs.h"))
        .expect("fs.h diff");
    let h = &fs_h.hunks[0];
    assert_eq!(
        (h.old_start, h.old_lines, h.new_start, h.new_lines),
        (353, 20, 353, 24)
    );
    let quoted = ex
        .diffs
        .iter()
        .find(|d| d.new_path.is_none())
        .expect("quoted hunk without file");
    let q = &quoted.hunks[0];
    assert_eq!(
        (q.old_start, q.old_lines, q.new_start, q.new_lines),
        (351, 7, 361, 8)
    );
    // The quoted confirmation speaks for the mail it quotes: only the
    // reply's own sentences are read.
    assert!(
        !ex.signals
            .iter()
            .any(|s| s.sentence.contains("the regression there is reclaimed")),
        "{:?}",
        ex.signals
    );
    assert!(ex.signals.iter().any(|s| s.kind == SignalKind::Layout
        && s.quote_depth == 0
        && s.sentence.contains("layout drastically changes")));
}
