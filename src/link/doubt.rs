//! How sure a history's status is, and what could change it: the last
//! stage of a history. A status is `unsure` when it rests on weak evidence
//! (a hedged decline or dispute, a confirmation limited to the speaker's
//! own set-up, a patch linked only by its likeness to the
//! culprit) or when some evidence points elsewhere (a promised fix never
//! found, a series said to be set aside, a fix candidate below the linking
//! threshold, a confirmed fix the robot still sees regress, a confirmed fix
//! no message names). Each doubt
//! names its message, what was said, and the `regtrack mark` command that
//! settles it; a mark settles the history.

use crate::model::history::{
    Doubt, DoubtKind, FixCandidate, Regression, Scope, Status, StatusConfidence, TimelineEntry,
};

/// The culprit as a `regtrack mark` argument: its first twelve digits.
fn mark_arg(r: &Regression) -> String {
    shell_arg(&r.culprit.commit.chars().take(12).collect::<String>())
}

/// `s` as one word of a shell command line a person may paste: quoted when
/// it holds anything a shell reads (a Message-ID is the sender's choice:
/// `a;rm -rf ~@x` must not run), NUL bytes dropped.
pub(crate) fn shell_arg(s: &str) -> String {
    let s: String = s.chars().filter(|&c| c != '\0').collect();
    shlex::try_quote(&s)
        .map(|q| q.into_owned())
        .unwrap_or_default()
}

/// The command that settles a doubt of `kind` on `r`.
fn settle(r: &Regression, kind: DoubtKind, candidate: Option<&FixCandidate>) -> String {
    let key = mark_arg(r);
    match kind {
        DoubtKind::PossibleDecline => format!("regtrack mark {key} declined"),
        DoubtKind::PossibleDispute => format!("regtrack mark {key} disputed"),
        DoubtKind::PossibleConfirmation => format!("regtrack mark {key} fix-confirmed"),
        DoubtKind::PossibleDrop => format!("regtrack mark {key} culprit-dropped"),
        DoubtKind::PossibleFix => match candidate {
            Some(c) => format!("regtrack mark {key} --fix {}", shell_arg(&c.message_id)),
            None => format!("regtrack mark {key} fix-proposed"),
        },
        DoubtKind::PossibleLanding | DoubtKind::ConflictingEvidence => {
            format!("regtrack mark {key} {}", r.status.as_str())
        }
    }
}

/// True when the status rests on `e`: it set the current status, and it is
/// the latest evidence of it.
fn decided_by(r: &Regression, e: &TimelineEntry) -> bool {
    e.status == Some(r.status)
        && r.status_evidence
            .iter()
            .rev()
            .find(|ev| ev.status == r.status)
            .is_some_and(|ev| ev.message_id.is_some() && ev.message_id == e.message_id)
}

/// True when an entry after the timeline's entry `at`, or another entry of
/// its mail ("this is expected ...; there should be no noticeable
/// impact"), says its status plainly (with no doubt of its own): "probably
/// noise", then "it is noise" rests on the second.
fn said_plainly_elsewhere(r: &Regression, at: usize) -> bool {
    let Some(e) = r.timeline.get(at) else {
        return false;
    };
    r.timeline.iter().enumerate().any(|(i, x)| {
        let same_mail = x.message_id.is_some() && x.message_id == e.message_id;
        (i > at || same_mail) && x.status.is_some() && x.status == e.status && x.doubt.is_none()
    })
}

/// True when a fix of some kind already speaks for the history.
fn has_fix(r: &Regression) -> bool {
    !r.patches.is_empty() || r.fix.is_some()
}

/// Where a status stands as a doubt sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stand {
    /// No fix yet, and no decision against one: a fix may be missing.
    Unfixed,
    /// A fix is proposed or confirmed, not landed.
    Fixing,
    /// A fix landed, or the culprit left its tree: nothing is missing.
    Done,
    /// An improvement: nobody needs to act.
    Idle,
}

/// Where `s` stands (every status decided here, so a new one must be).
fn stand(s: Status) -> Stand {
    match s {
        Status::Reported | Status::Discussed | Status::Disputed | Status::Declined => {
            Stand::Unfixed
        }
        Status::FixProposed | Status::FixConfirmed => Stand::Fixing,
        Status::FixApplied | Status::Fixed | Status::CulpritDropped => Stand::Done,
        Status::Improvement => Stand::Idle,
    }
}

/// True when nothing was decided: only the robot spoke, or people replied.
fn undecided(s: Status) -> bool {
    match s {
        Status::Reported | Status::Discussed => true,
        Status::FixProposed
        | Status::FixConfirmed
        | Status::FixApplied
        | Status::Fixed
        | Status::Disputed
        | Status::Declined
        | Status::CulpritDropped
        | Status::Improvement => false,
    }
}

/// Whether the doubt of `e` (the timeline's entry `at`) still bears on the
/// status of `r`.
fn bears(r: &Regression, at: usize, e: &TimelineEntry, kind: DoubtKind) -> bool {
    match kind {
        // A hedged decision the status rests on; or a leaning (no status
        // of its own) while nothing was decided.
        DoubtKind::PossibleDecline
        | DoubtKind::PossibleDispute
        | DoubtKind::PossibleConfirmation => {
            (decided_by(r, e) && !said_plainly_elsewhere(r, at))
                || (e.status.is_none() && undecided(r.status))
        }
        DoubtKind::PossibleFix => !has_fix(r) && stand(r.status) == Stand::Unfixed,
        DoubtKind::PossibleDrop => matches!(stand(r.status), Stand::Unfixed | Stand::Fixing),
        DoubtKind::PossibleLanding | DoubtKind::ConflictingEvidence => true,
    }
}

/// Sets `r.status_confidence` and `r.doubts` from its timeline, fix
/// candidates and facts. Pure and idempotent: run it again after anything
/// changes the status (a followed tree's commits).
pub fn assess(r: &mut Regression) {
    let mut doubts: Vec<Doubt> = Vec::new();
    let mut push = |d: Doubt| {
        if !doubts
            .iter()
            .any(|o| o.kind == d.kind && o.message_id == d.message_id)
        {
            doubts.push(d);
        }
    };
    for (at, e) in r.timeline.iter().enumerate() {
        let Some(kind) = e.doubt else { continue };
        if !bears(r, at, e, kind) {
            continue;
        }
        push(Doubt {
            kind,
            message_id: e.message_id.clone(),
            said: e.event.clone(),
            settle: settle(r, kind, None),
        });
    }
    // An improvement asks nobody to act; a landed fix or a dropped culprit
    // needs no other.
    let open = matches!(stand(r.status), Stand::Unfixed | Stand::Fixing);
    for c in r.fix_candidates.iter().filter(|c| !c.linked && c.asks) {
        if open {
            push(Doubt {
                kind: DoubtKind::PossibleFix,
                message_id: Some(c.message_id.clone()),
                said: format!("\"{}\": {}", c.title, c.reasons.join("; ")),
                settle: settle(r, DoubtKind::PossibleFix, Some(c)),
            });
        }
    }
    for c in r.fix_candidates.iter().filter(|c| c.linked) {
        // A fix linked by its likeness alone decides a closed status only
        // with a person's word.
        if r.status.is_fixed() && r.fix.as_ref().is_some_and(|f| f.message_id == c.message_id) {
            push(Doubt {
                kind: DoubtKind::PossibleFix,
                message_id: Some(c.message_id.clone()),
                said: format!("\"{}\": {}", c.title, c.reasons.join("; ")),
                settle: settle(r, DoubtKind::ConflictingEvidence, Some(c)),
            });
        }
    }
    // People talked, nothing was decided, and the culprit was never seen
    // in mainline: a series under review or a branch moves on without a
    // word in the report's thread (a new version, a drop from next).
    let in_mainline = r.scope == Scope::Mainline
        || r.branch.as_deref().is_some_and(|b| b.starts_with("linus:"))
        || r.culprit.release.is_some();
    if r.status == Status::Discussed && !in_mainline && !has_fix(r) {
        push(Doubt {
            kind: DoubtKind::PossibleDrop,
            message_id: None,
            said: format!(
                "the culprit was tested on {} and never seen in mainline; the discussion decided nothing",
                r.scope.as_str()
            ),
            settle: settle(r, DoubtKind::PossibleDrop, None),
        });
    }
    // The fix is the next version of a series under review: whether that
    // version was applied (with the culprit it replaces) the archive does
    // not show.
    if stand(r.status) == Stand::Fixing
        && !in_mainline
        && let Some(c) = r.fix_candidates.iter().find(|c| c.linked && c.new_version)
    {
        push(Doubt {
            kind: DoubtKind::PossibleLanding,
            message_id: Some(c.message_id.clone()),
            said: format!(
                "the fix \"{}\" is a later version of the culprit's own patch; whether it was applied the archive does not show",
                c.title
            ),
            settle: settle(r, DoubtKind::PossibleLanding, None),
        });
    }
    if r.facts.still_regression_after_fix
        && (r.status == Status::FixConfirmed || r.status.is_fixed())
    {
        push(Doubt {
            kind: DoubtKind::ConflictingEvidence,
            message_id: None,
            said: "the robot still reports the regression after the fix was claimed".into(),
            settle: settle(r, DoubtKind::ConflictingEvidence, None),
        });
    }
    // A fix confirmed (a three-commit table, a tester's word) that no
    // message of the history names: the commit that restored the
    // performance may be a revert, the culprit's replacement or a fix
    // outside this archive, and only a person can say which.
    if r.status == Status::FixConfirmed && !has_fix(r) {
        let by = r
            .status_evidence
            .iter()
            .rev()
            .find(|e| e.status == Status::FixConfirmed);
        push(Doubt {
            kind: DoubtKind::ConflictingEvidence,
            message_id: by.and_then(|e| e.message_id.clone()),
            said: "a fix was confirmed, but no message of the history names the patch: it may be a revert, a replacement of the culprit or a fix outside this archive".into(),
            settle: settle(r, DoubtKind::ConflictingEvidence, None),
        });
    }
    // Every report is an improvement, yet somebody posted a fix for it (the
    // speed came from skipped work): if the fix landed where this archive
    // does not show, the history is no improvement.
    if r.status == Status::Improvement
        && let Some(p) = r.patches.first()
    {
        // A debug patch posted as a reply has no title of its own: it is
        // named by what it is and who posted it.
        let what = if p.title.is_empty() {
            let role = p.role.as_str().replace('-', " ");
            match &p.from {
                Some(from) => format!("the {role} by {from}"),
                None => format!("a {role}"),
            }
        } else {
            format!("\"{}\"", p.title)
        };
        push(Doubt {
            kind: DoubtKind::ConflictingEvidence,
            message_id: Some(p.message_id.clone()),
            said: format!("every report is an improvement, but {what} was linked as a fix of it"),
            settle: settle(r, DoubtKind::ConflictingEvidence, None),
        });
    }
    let settled = r.facts.marked || r.facts.marked_fix.is_some() || r.facts.marked_patch.is_some();
    if settled {
        doubts.clear();
    }
    r.status_confidence = if doubts.is_empty() {
        StatusConfidence::Sure
    } else {
        StatusConfidence::Unsure
    };
    r.doubts = doubts;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::history::StatusEvidence;

    fn entry(status: Option<Status>, doubt: Option<DoubtKind>, id: &str) -> TimelineEntry {
        TimelineEntry {
            event: format!("said in {id}"),
            status,
            message_id: Some(id.into()),
            doubt,
            ..TimelineEntry::default()
        }
    }

    fn history(status: Status, timeline: Vec<TimelineEntry>) -> Regression {
        let status_evidence = timeline
            .iter()
            .filter_map(|e| {
                Some(StatusEvidence {
                    status: e.status?,
                    message_id: e.message_id.clone(),
                    reason: e.event.clone(),
                })
            })
            .collect();
        let mut r = Regression {
            status,
            status_evidence,
            timeline,
            scope: Scope::Mainline,
            ..Regression::default()
        };
        r.culprit.commit = "4c40d6efc8b22b88a45c".into();
        r
    }

    #[test]
    fn an_improvement_with_a_fix_names_the_fix_even_without_a_title() {
        use crate::model::history::{PatchInfo, PatchRole};
        let mut r = history(Status::Improvement, vec![entry(None, None, "a@x")]);
        r.patches.push(PatchInfo {
            message_id: "d@x".into(),
            from: Some("Christoph Hellwig".into()),
            role: PatchRole::DebugPatch,
            ..PatchInfo::default()
        });
        assess(&mut r);
        assert_eq!(r.status_confidence, StatusConfidence::Unsure);
        let d = &r.doubts[0];
        assert_eq!(d.kind, DoubtKind::ConflictingEvidence);
        assert_eq!(
            d.said,
            "every report is an improvement, but the debug patch by Christoph Hellwig was \
             linked as a fix of it"
        );
        r.patches[0].title = "md: set md-specific flags".into();
        assess(&mut r);
        assert!(
            r.doubts[0]
                .said
                .contains("\"md: set md-specific flags\" was linked")
        );
    }

    #[test]
    fn a_status_resting_on_a_hedged_decline_is_unsure() {
        let mut r = history(
            Status::Declined,
            vec![
                entry(Some(Status::Discussed), None, "a@x"),
                entry(
                    Some(Status::Declined),
                    Some(DoubtKind::PossibleDecline),
                    "b@x",
                ),
            ],
        );
        assess(&mut r);
        assert_eq!(r.status_confidence, StatusConfidence::Unsure);
        assert_eq!(r.doubts.len(), 1);
        assert_eq!(r.doubts[0].settle, "regtrack mark 4c40d6efc8b2 declined");
        assert_eq!(r.doubts[0].message_id.as_deref(), Some("b@x"));
    }

    #[test]
    fn a_confirmation_limited_to_the_speakers_set_up_leaves_the_fix_unsure() {
        let mut r = history(
            Status::FixConfirmed,
            vec![
                entry(Some(Status::FixProposed), None, "a@x"),
                entry(
                    Some(Status::FixConfirmed),
                    Some(DoubtKind::PossibleConfirmation),
                    "a@x",
                ),
            ],
        );
        r.status_evidence.remove(0);
        assess(&mut r);
        assert_eq!(r.status_confidence, StatusConfidence::Unsure);
        assert_eq!(r.doubts[0].kind, DoubtKind::PossibleConfirmation);
        assert_eq!(
            r.doubts[0].settle,
            "regtrack mark 4c40d6efc8b2 fix-confirmed"
        );
    }

    #[test]
    fn a_hedged_dispute_said_plainly_later_is_no_doubt() {
        let mut r = history(
            Status::Disputed,
            vec![
                entry(
                    Some(Status::Disputed),
                    Some(DoubtKind::PossibleDispute),
                    "b@x",
                ),
                entry(Some(Status::Disputed), None, "c@x"),
            ],
        );
        // The status moved once, on the hedged reply.
        r.status_evidence.truncate(1);
        assess(&mut r);
        assert_eq!(
            r.status_confidence,
            StatusConfidence::Sure,
            "{:?}",
            r.doubts
        );
        // Hedged alone, it is a doubt.
        let mut r = history(
            Status::Disputed,
            vec![entry(
                Some(Status::Disputed),
                Some(DoubtKind::PossibleDispute),
                "b@x",
            )],
        );
        assess(&mut r);
        assert_eq!(r.status_confidence, StatusConfidence::Unsure);
    }

    #[test]
    fn a_hedged_decline_its_own_mail_says_plainly_is_no_doubt() {
        // "This is expected ...", then "there should be no noticeable
        // impact" in the same mail.
        let mut r = history(
            Status::Declined,
            vec![
                entry(Some(Status::Declined), None, "b@x"),
                entry(
                    Some(Status::Declined),
                    Some(DoubtKind::PossibleDecline),
                    "b@x",
                ),
            ],
        );
        assess(&mut r);
        assert_eq!(
            r.status_confidence,
            StatusConfidence::Sure,
            "{:?}",
            r.doubts
        );
        // Said plainly in another mail before it, the hedged one still
        // raises its doubt.
        let mut r = history(
            Status::Declined,
            vec![
                entry(Some(Status::Declined), None, "a@x"),
                entry(
                    Some(Status::Declined),
                    Some(DoubtKind::PossibleDecline),
                    "b@x",
                ),
            ],
        );
        assess(&mut r);
        assert_eq!(r.status_confidence, StatusConfidence::Unsure);
    }

    #[test]
    fn a_hedged_decline_a_later_fix_moved_past_is_no_doubt() {
        let mut r = history(
            Status::FixProposed,
            vec![
                entry(
                    Some(Status::Declined),
                    Some(DoubtKind::PossibleDecline),
                    "b@x",
                ),
                entry(Some(Status::FixProposed), None, "c@x"),
            ],
        );
        assess(&mut r);
        assert_eq!(r.status_confidence, StatusConfidence::Sure);
        assert!(r.doubts.is_empty());
    }

    #[test]
    fn a_promised_fix_never_found_and_a_set_aside_series_raise_doubts() {
        let mut r = history(
            Status::Discussed,
            vec![
                entry(Some(Status::Discussed), None, "a@x"),
                entry(None, Some(DoubtKind::PossibleFix), "b@x"),
                entry(None, Some(DoubtKind::PossibleDrop), "c@x"),
            ],
        );
        assess(&mut r);
        let kinds: Vec<DoubtKind> = r.doubts.iter().map(|d| d.kind).collect();
        assert_eq!(kinds, [DoubtKind::PossibleFix, DoubtKind::PossibleDrop]);
        // Once the culprit is dropped, the drop is no doubt.
        let mut r = history(
            Status::CulpritDropped,
            vec![entry(
                Some(Status::CulpritDropped),
                Some(DoubtKind::PossibleDrop),
                "c@x",
            )],
        );
        assess(&mut r);
        assert!(r.doubts.is_empty());
    }

    #[test]
    fn a_hostile_message_id_in_a_settling_command_is_quoted() {
        assert_eq!(shell_arg("p@x"), "p@x");
        assert_eq!(
            shell_arg("CAHk-=wg=Pp9W@mail.gmail.com"),
            "'CAHk-=wg=Pp9W@mail.gmail.com'"
        );
        assert_eq!(
            shell_arg("20240806212808.1885309-1-a.b@c.d"),
            "20240806212808.1885309-1-a.b@c.d"
        );
        let q = shell_arg("a;rm -rf ~@x");
        assert_eq!(
            shlex::split(&format!("mark {q}")),
            Some(vec!["mark".into(), "a;rm -rf ~@x".into()])
        );
        let q = shell_arg("$(reboot)'`x`@y");
        assert_eq!(shlex::split(&q), Some(vec!["$(reboot)'`x`@y".to_string()]));
        assert!(!q.contains('\0') && !shell_arg("a\0b@c").contains('\0'));
    }

    #[test]
    fn a_mark_settles_every_doubt() {
        let mut r = history(
            Status::Declined,
            vec![entry(
                Some(Status::Declined),
                Some(DoubtKind::PossibleDecline),
                "b@x",
            )],
        );
        r.facts.marked = true;
        assess(&mut r);
        assert_eq!(r.status_confidence, StatusConfidence::Sure);
        assert!(r.doubts.is_empty());
    }

    #[test]
    fn an_unlinked_candidate_of_an_open_history_is_a_possible_fix() {
        let mut r = history(Status::Discussed, vec![]);
        r.fix_candidates.push(FixCandidate {
            message_id: "p@x".into(),
            title: "ext4: speed it up again".into(),
            score: 3,
            reasons: vec!["by the culprit's author".into()],
            ..FixCandidate::default()
        });
        // One that does not ask is shown for reference only.
        assess(&mut r);
        assert!(r.doubts.is_empty());
        r.fix_candidates[0].asks = true;
        assess(&mut r);
        assert_eq!(r.doubts.len(), 1);
        assert_eq!(r.doubts[0].kind, DoubtKind::PossibleFix);
        assert_eq!(r.doubts[0].settle, "regtrack mark 4c40d6efc8b2 --fix p@x");
    }

    #[test]
    fn a_discussion_of_a_culprit_never_in_mainline_that_decided_nothing_is_unsure() {
        let tl = vec![entry(Some(Status::Discussed), None, "a@x")];
        let mut r = history(Status::Discussed, tl.clone());
        r.scope = Scope::PatchUnderReview;
        assess(&mut r);
        assert_eq!(r.doubts.len(), 1, "{:?}", r.doubts);
        assert_eq!(r.doubts[0].kind, DoubtKind::PossibleDrop);
        // In mainline, or with a fix linked, it is what it says.
        let mut r = history(Status::Discussed, tl.clone());
        assess(&mut r);
        assert!(r.doubts.is_empty());
        let mut r = history(Status::Discussed, tl);
        r.scope = Scope::Next;
        r.branch = Some("linus:master".into());
        assess(&mut r);
        assert!(r.doubts.is_empty());
    }

    #[test]
    fn a_confirmed_fix_no_message_names_is_unsure() {
        let tl = vec![
            entry(Some(Status::Reported), None, "report@x"),
            entry(Some(Status::FixConfirmed), None, "table@x"),
        ];
        let mut r = history(Status::FixConfirmed, tl);
        assess(&mut r);
        assert_eq!(r.status_confidence, StatusConfidence::Unsure);
        assert_eq!(r.doubts[0].kind, DoubtKind::ConflictingEvidence);
        assert_eq!(r.doubts[0].message_id.as_deref(), Some("table@x"));
        assert!(r.doubts[0].settle.ends_with(" fix-confirmed"));
        // The patch it confirmed is named: no doubt.
        r.patches.push(crate::model::history::PatchInfo {
            message_id: "fix@x".into(),
            ..Default::default()
        });
        assess(&mut r);
        assert_eq!(r.status_confidence, StatusConfidence::Sure);
    }

    #[test]
    fn an_improvement_with_a_linked_fix_is_unsure() {
        let mut r = history(Status::Improvement, Vec::new());
        assess(&mut r);
        assert_eq!(r.status_confidence, StatusConfidence::Sure);
        r.patches.push(crate::model::history::PatchInfo {
            message_id: "fix@x".into(),
            title: "mm: do the skipped work again".into(),
            ..Default::default()
        });
        assess(&mut r);
        assert_eq!(r.status_confidence, StatusConfidence::Unsure);
        assert_eq!(r.doubts[0].kind, DoubtKind::ConflictingEvidence);
        assert_eq!(r.doubts[0].message_id.as_deref(), Some("fix@x"));
        assert!(
            r.doubts[0].settle.ends_with(" improvement"),
            "{}",
            r.doubts[0].settle
        );
    }
}
