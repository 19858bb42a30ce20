//! `link::build` on LinkInputs made directly from `model::Extraction` values:
//! linking, status and evidence, without any extractor or store.

use regtrack::link::build;
use regtrack::model::Direction;
use regtrack::model::history::{ConfidenceLevel, Mark, PatchState, Regression, Status};

use crate::common::scenario::{A_FULL, DAY, T0, scenario};

fn by_culprit<'a>(regs: &'a [Regression], prefix: &str) -> &'a Regression {
    regs.iter()
        .find(|r| r.culprit.commit.starts_with(prefix))
        .unwrap_or_else(|| panic!("no regression for {prefix}"))
}

fn roles(r: &Regression) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = r
        .attached
        .iter()
        .map(|a| (a.message_id.clone(), a.role.as_str().to_string()))
        .collect();
    v.sort();
    v
}

#[test]
fn a_full_history_links_every_message_and_ends_fix_applied() {
    let out = build(&scenario());
    assert_eq!(out.regressions.len(), 5);
    let a = by_culprit(&out.regressions, "aaaa1111");
    assert_eq!(a.culprit.commit, A_FULL);
    // The short id the first report gave is a prefix of the key, not an alias.
    assert!(a.culprit.aliases.is_empty(), "{:?}", a.culprit.aliases);
    assert_eq!(a.culprit.title.as_deref(), Some("ext4: change the thing"));
    assert_eq!(
        roles(a),
        vec![
            ("a-applied@x".into(), "patch-reply".into()),
            ("a-patch@x".into(), "patch".into()),
            ("a-r1@x".into(), "patch".into()),
            ("a-r2@x".into(), "patch-reply".into()),
            ("a-report@intel.com".into(), "report".into()),
        ]
    );
    assert_eq!(a.status, Status::FixApplied);
    let ev: Vec<&str> = a
        .status_evidence
        .iter()
        .map(|e| e.status.as_str())
        .collect();
    assert_eq!(
        ev,
        ["reported", "fix-proposed", "fix-confirmed", "fix-applied"]
    );
    let applied = a.status_evidence.last().expect("evidence");
    assert_eq!(applied.message_id.as_deref(), Some("a-applied@x"));
    assert!(
        applied.reason.contains("Thanks, applied."),
        "{}",
        applied.reason
    );
    let formal = a
        .patches
        .iter()
        .find(|p| p.message_id == "a-patch@x")
        .expect("patch");
    assert_eq!(formal.state, PatchState::Applied);
    assert!(formal.reason.contains("Closes:") || formal.reason.contains("Fixes:"));
    assert_eq!(formal.trailers.len(), 4);
    assert_eq!(
        a.timeline.first().map(|e| e.event.starts_with("reported:")),
        Some(true)
    );
    // Confidence: 10.5% > 1% + 2%, and app_overhead moved 20% with it.
    let c = a.reports[0].confidence.as_ref().expect("confidence");
    assert_eq!(c.level, ConfidenceLevel::High);
    assert!(!c.likely_noise);
    assert_eq!(a.reports[0].headline_rows[0].metric, "fsmark.files_per_sec");
    assert_eq!(a.reports[0].headline_rows[1].metric, "fsmark.app_overhead");
    let h = a.headline.as_ref().expect("headline");
    assert_eq!(h.values, vec![Some(100.0), Some(89.5)]);
    assert_eq!(
        a.regzbot.as_deref(),
        Some("#regzbot introduced: aaaa1111bbbb ^")
    );
}

#[test]
fn a_layout_blame_makes_a_report_disputed_and_small_changes_look_like_noise() {
    let out = build(&scenario());
    let b = by_culprit(&out.regressions, "bbbb2222");
    assert_eq!(b.status, Status::Disputed);
    let e = b.status_evidence.last().expect("evidence");
    assert_eq!(e.message_id.as_deref(), Some("b-r1@x"));
    assert!(e.reason.contains("layout"));
    let c = b.reports[0].confidence.as_ref().expect("confidence");
    assert_eq!(c.level, ConfidenceLevel::Low);
    assert!(c.likely_noise);
}

#[test]
fn an_improvement_stays_improvement_when_people_only_talk() {
    let out = build(&scenario());
    let c = by_culprit(&out.regressions, "cccc3333");
    assert_eq!(c.direction, Direction::Improvement);
    assert_eq!(c.status, Status::Improvement);
    assert_eq!(c.regzbot, None);
    assert_eq!(c.messages.len(), 2);
}

#[test]
fn two_reports_of_one_culprit_are_one_regression_and_a_revert_joins_it() {
    let out = build(&scenario());
    let d = by_culprit(&out.regressions, "dddd4444");
    assert_eq!(d.culprit.commit, "dddd4444eeee5555ffff6666aaaa7777bbbb8888");
    assert_eq!(d.reports.len(), 2);
    let metrics: Vec<_> = d.reports.iter().filter_map(|r| r.metric.clone()).collect();
    assert_eq!(
        metrics,
        ["hackbench.throughput", "stress-ng.resched.ops_per_sec"]
    );
    assert!(roles(d).contains(&("d-revert@x".into(), "revert".into())));
    assert_eq!(d.status, Status::FixProposed);
}

#[test]
fn every_lore_url_form_and_a_footnote_link_a_patch() {
    let out = build(&scenario());
    let e = by_culprit(&out.regressions, "eeee5555");
    let r = roles(e);
    for i in 0..4 {
        assert!(
            r.contains(&(format!("e-patch{i}@x"), "patch".into())),
            "e-patch{i}: {r:?}"
        );
    }
    assert!(r.contains(&("e-patch-foot@x".into(), "patch".into())));
    assert!(r.contains(&("e-foot-r1@x".into(), "patch-reply".into())));
    assert!(!r.iter().any(|(m, _)| m == "e-unrelated@x"));
    // Each report belongs to exactly one regression.
    for reg in &out.regressions {
        for rep in &reg.reports {
            let n = out
                .regressions
                .iter()
                .filter(|o| o.reports.iter().any(|x| x.message_id == rep.message_id))
                .count();
            assert_eq!(n, 1);
        }
    }
}

#[test]
fn a_mark_wins_over_inference_and_shows_in_the_timeline() {
    let mut input = scenario();
    input.marks.push(Mark {
        culprit: "bbbb2222cc".into(),
        status: Some(Status::Declined),
        note: Some("layout noise, not chasing".into()),
        author: "Alice".into(),
        at: T0 + 100 * DAY,
        ..Mark::default()
    });
    let out = build(&input);
    let b = by_culprit(&out.regressions, "bbbb2222");
    assert_eq!(b.status, Status::Declined);
    assert!(b.facts.marked);
    let last = b.timeline.last().expect("timeline");
    assert_eq!(last.from.as_deref(), Some("Alice"));
    assert_eq!(last.event, "marked declined: layout noise, not chasing");
    assert_eq!(last.message_id, None);
}

#[test]
fn a_reply_that_arrives_before_its_parent_threads_under_it() {
    let out = build(&scenario());
    let input = scenario();
    let i = input
        .messages
        .iter()
        .position(|m| m.message_id == "a-r2@x")
        .expect("present");
    assert_eq!(out.threads[i].root_id, "a-report@intel.com");
    assert_eq!(out.threads[i].parent_id.as_deref(), Some("a-r1@x"));
    assert_eq!(out.threads[i].depth, 2);
}

/// A patch carrying `Fixes:` of the culprit with the robot's `Reported-by:`
/// is that history's fix, unless its `Closes:` names a report outside the
/// history (a build warning the robot found in the same culprit).
#[test]
fn a_fixes_patch_closing_another_report_is_not_linked() {
    use crate::common::scenario::{fixes, msg, trailer};
    use regtrack::model::Kind;
    let warn = |id: &str, closes: Option<&str>| {
        let mut p = msg(
            id,
            "Jens Axboe",
            6,
            "[PATCH] ext4: use NULL for the pointer",
            None,
        );
        p.kind = Kind::Patch;
        p.extraction.trailers = vec![
            fixes("aaaa1111bbbb", "ext4: change the thing"),
            trailer("Reported-by", "kernel test robot <lkp@intel.com>"),
        ];
        if let Some(c) = closes {
            p.extraction.trailers.push(trailer("Closes", c));
        }
        p
    };
    let mut input = scenario();
    input.messages.push(warn(
        "warn@x",
        Some("https://lore.kernel.org/oe-kbuild-all/kbuild-warn@intel.com/"),
    ));
    input.messages.push(warn("bare@x", None));
    let out = build(&input);
    let a = by_culprit(&out.regressions, "aaaa1111");
    let linked: Vec<&str> = a.patches.iter().map(|p| p.message_id.as_str()).collect();
    assert!(!linked.contains(&"warn@x"), "{linked:?}");
    assert!(linked.contains(&"bare@x"), "{linked:?}");
}
