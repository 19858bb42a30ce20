//! The status fold: picks a regression's status from its timeline.
//!
//! Entries are read in date order. The statuses on the forward path
//! (`reported` -> `discussed` -> `fix-proposed` -> `fix-confirmed` ->
//! `fix-applied` -> `fixed`, each at its place given by its row in
//! [`Status`]) only move forward, and `culprit-dropped` ends the path as
//! `fixed` does (they share a place); the side states (`disputed`,
//! `declined`: no place) hold until a later patch or fix (`fix-proposed`'s
//! place or beyond) moves the regression on, and once a fix is applied (or
//! the culprit dropped) a later dispute does not undo it; a
//! history whose reports are all improvements is `improvement` (a patch
//! posted about it, which happens when the gain came from a bug, is listed
//! but asks nobody to act) unless that fix landed (the status follows it:
//! the speed came from skipped work) or somebody disputed it; the latest human mark (an entry without a
//! message) wins over everything, while a mark naming a fix or a release
//! (`step`) moves the path forward as a message would. Each status reached
//! is kept with its evidence.

use crate::model::Direction;
use crate::model::history::{Status, StatusEvidence, TimelineEntry};

/// What the fold decided.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Folded {
    /// The status.
    pub status: Status,
    /// The evidence for each status reached, in order.
    pub evidence: Vec<StatusEvidence>,
    /// The status came from a human mark.
    pub marked: bool,
}

/// The place of a status on the forward path (`None` for the side
/// states), as its row in [`Status`] gives it.
fn rank(s: Status) -> Option<u8> {
    s.facts().path
}

/// The place from which a fix is under way: a side state gives way to it.
fn fix_under_way() -> u8 {
    rank(Status::FixProposed).unwrap_or(u8::MAX)
}

/// The place from which the history is settled: a later dispute or decline
/// does not undo it.
fn settled_from() -> u8 {
    rank(Status::FixApplied).unwrap_or(u8::MAX)
}

/// Folds `timeline` (in date order) into a status; `first_report` is the
/// message of the first report, the evidence of `improvement`.
pub fn fold(
    timeline: &[TimelineEntry],
    direction: Direction,
    first_report: Option<&str>,
) -> Folded {
    let mut progress: Option<Status> = None;
    let mut side: Option<Status> = None;
    let mut evidence: Vec<StatusEvidence> = Vec::new();
    let mut mark_status: Option<Status> = None;
    let mut doubt_is_repro = false;
    for e in timeline {
        // The robot team's own data answer a "cannot reproduce" (not other doubts).
        if e.reopens && side == Some(Status::Disputed) && doubt_is_repro {
            side = None;
            // Said as the status it returns to, with this message.
            let back = progress
                .filter(|p| rank(*p) > rank(Status::Discussed))
                .unwrap_or(Status::Discussed);
            evidence.push(StatusEvidence {
                status: back,
                message_id: e.message_id.clone(),
                reason: format!(
                    "the robot team stands by its data{}",
                    e.from
                        .as_deref()
                        .map(|f| format!(" ({f})"))
                        .unwrap_or_default()
                ),
            });
        }
        let Some(st) = e.status else {
            continue;
        };
        let reason = match &e.from {
            Some(f) => format!("{} ({f})", e.event),
            None => e.event.clone(),
        };
        if e.message_id.is_none() && !e.step {
            mark_status = Some(st);
            evidence.push(StatusEvidence {
                status: st,
                message_id: None,
                reason,
            });
            continue;
        }
        let settled = progress.and_then(rank).is_some_and(|p| p >= settled_from());
        match rank(st) {
            None if settled => {}
            None => {
                if st == Status::Disputed {
                    doubt_is_repro = e.event.starts_with("cannot-reproduce");
                }
                if side != Some(st) {
                    side = Some(st);
                    evidence.push(StatusEvidence {
                        status: st,
                        message_id: e.message_id.clone(),
                        reason,
                    });
                }
            }
            Some(r) => {
                // `fixed` and `culprit-dropped` share a rank: the first wins.
                let now = progress.and_then(rank);
                if now.is_none_or(|p| r > p) {
                    progress = Some(st);
                    evidence.push(StatusEvidence {
                        status: st,
                        message_id: e.message_id.clone(),
                        reason,
                    });
                    if r >= fix_under_way() {
                        side = None;
                    }
                } else if r >= fix_under_way() && now.is_some_and(|p| r == p) && side.is_some() {
                    // A fix confirmed (or posted) again after a dispute
                    // moves the regression on from it.
                    side = None;
                    evidence.push(StatusEvidence {
                        status: st,
                        message_id: e.message_id.clone(),
                        reason,
                    });
                }
            }
        }
    }
    let progress_now = progress.unwrap_or(Status::Reported);
    let mut status = side.unwrap_or(progress_now);
    // An improvement needs nobody to act, unless somebody read it as a bug
    // and its fix landed (the speed came from skipped work: the status
    // follows the fix), or disputed it (the gain is not real).
    let acted_on = side == Some(Status::Disputed) || progress.is_some_and(Status::is_fixed);
    if direction == Direction::Improvement && !acted_on {
        status = Status::Improvement;
        evidence.push(StatusEvidence {
            status,
            message_id: first_report.map(str::to_string),
            reason: "every report of this culprit is an improvement".into(),
        });
    }
    let marked = mark_status.is_some();
    if let Some(ms) = mark_status {
        status = ms;
    }
    Folded {
        status,
        evidence,
        marked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(status: Status, msg: Option<&str>) -> TimelineEntry {
        TimelineEntry {
            status: Some(status),
            message_id: msg.map(str::to_string),
            event: status.as_str().into(),
            ..TimelineEntry::default()
        }
    }

    #[test]
    fn the_status_moves_forward_and_a_side_state_holds_until_a_fix() {
        let tl = [
            e(Status::Reported, Some("a")),
            e(Status::Disputed, Some("b")),
            e(Status::Discussed, Some("c")),
        ];
        assert_eq!(
            fold(&tl, Direction::Regression, None).status,
            Status::Disputed
        );
        let tl = [
            e(Status::Reported, Some("a")),
            e(Status::Disputed, Some("b")),
            e(Status::FixProposed, Some("c")),
        ];
        assert_eq!(
            fold(&tl, Direction::Regression, None).status,
            Status::FixProposed
        );
    }

    #[test]
    fn a_dispute_after_an_applied_fix_does_not_undo_it() {
        let tl = [
            e(Status::Reported, Some("a")),
            e(Status::Disputed, Some("b")),
            e(Status::FixApplied, Some("c")),
            e(Status::Disputed, Some("d")),
        ];
        assert_eq!(
            fold(&tl, Direction::Regression, None).status,
            Status::FixApplied
        );
        let tl = [
            e(Status::Reported, Some("a")),
            e(Status::FixApplied, Some("c")),
            e(Status::Fixed, Some("d")),
        ];
        assert_eq!(fold(&tl, Direction::Regression, None).status, Status::Fixed);
    }

    #[test]
    fn an_improvement_nobody_acted_on_stays_one_and_a_mark_wins() {
        let tl = [
            e(Status::Reported, Some("a")),
            e(Status::Discussed, Some("b")),
        ];
        let f = fold(&tl, Direction::Improvement, Some("a"));
        assert_eq!(f.status, Status::Improvement);
        let tl = [e(Status::Reported, Some("a")), e(Status::Declined, None)];
        let f = fold(&tl, Direction::Regression, None);
        assert_eq!((f.status, f.marked), (Status::Declined, true));
    }

    #[test]
    fn an_improvement_whose_fix_landed_or_that_was_disputed_follows_what_was_done() {
        // A patch posted about it asks nobody to act.
        let tl = [
            e(Status::Reported, Some("a")),
            e(Status::FixProposed, Some("b")),
        ];
        let f = fold(&tl, Direction::Improvement, Some("a"));
        assert_eq!(f.status, Status::Improvement);
        // Its fix applied: the gain came from skipped work.
        let tl = [
            e(Status::Reported, Some("a")),
            e(Status::FixProposed, Some("b")),
            e(Status::FixApplied, Some("c")),
        ];
        let f = fold(&tl, Direction::Improvement, Some("a"));
        assert_eq!(f.status, Status::FixApplied);
        // Disputed: the gain is not real.
        let tl = [
            e(Status::Reported, Some("a")),
            e(Status::Disputed, Some("b")),
        ];
        let f = fold(&tl, Direction::Improvement, Some("a"));
        assert_eq!(f.status, Status::Disputed);
    }
}
