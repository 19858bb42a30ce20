//! What a message says about itself and what it points at: the one place
//! that reads a message for how it can tie itself to a regression. Both the
//! choice of messages to load ([`super::select`]) and the attachment rules
//! ([`super::attach`]) read messages through these functions.
//!
//! - robot reports name a culprit ([`report_ids`]), replies may name one in
//!   their subject ([`subject_culprit`]);
//! - `Closes:`/`Link:` trailers and cited lore URLs point at a message
//!   ([`trailer_target`]);
//! - `Fixes: <id>` with `Reported-by: kernel test robot` names a culprit
//!   ([`fixes_id`], [`names_robot`]);
//! - `Revert "<title>"` subjects name a culprit by title ([`revert_title`]).

use std::sync::LazyLock;

use regex::Regex;

use super::LinkMessage;
use super::culprit::{canonical_form, is_hex_id};
use crate::model::{Kind, Trailer};

/// The kind of a message, trusting the stored column, then the extraction.
pub fn kind_of(m: &LinkMessage) -> Kind {
    if m.kind == Kind::Other {
        m.extraction.kind
    } else {
        m.kind
    }
}

/// True for the kinds that make or join a regression by their culprit.
pub fn is_report_kind(kind: Kind) -> bool {
    matches!(kind, Kind::PerfReport | Kind::FunctionalReport)
}

/// True for a robot report (performance or functional).
pub fn is_report(m: &LinkMessage) -> bool {
    is_report_kind(kind_of(m))
}

/// True when the sender is the robot itself (not one of its people).
pub fn is_robot(m: &LinkMessage) -> bool {
    crate::evidence::robot::is_robot(m.from_name.as_deref(), m.from_email.as_deref())
}

pub use crate::evidence::robot::names_robot_sender;

/// True for the robot or the people who send its reports.
pub fn is_robot_team(m: &LinkMessage) -> bool {
    crate::evidence::robot::is_robot_team(m.from_name.as_deref(), m.from_email.as_deref())
}

/// True for a trailer value naming the robot (`kernel test robot <...>`, `lkp@intel.com`).
pub fn names_robot(value: &str) -> bool {
    let v = value.to_ascii_lowercase();
    v.contains("test robot") || v.contains("lkp@intel.com")
}

/// True for a trailer the mail's author wrote (not quoted, not the robot's
/// suggestion).
pub fn is_own(t: &Trailer) -> bool {
    t.quote_depth == 0 && !t.suggested
}

/// The mail's own (unquoted, not suggested) trailers.
pub fn own_trailers(m: &LinkMessage) -> impl Iterator<Item = &Trailer> {
    m.extraction.trailers.iter().filter(|t| is_own(t))
}

/// True when the message carries a diff of its own (not quoted).
pub fn own_diff(m: &LinkMessage) -> bool {
    m.extraction.diffs.iter().any(|d| d.quote_depth == 0)
}

/// True when the message's own comparison table shows a commit of its own
/// (the last column: the culprit with a diff on top) bringing the headline
/// back within the base's noise: what the robot's team posts when the diff
/// they tested restores the performance.
pub fn own_table_restores(m: &LinkMessage) -> bool {
    own_table_says(m, crate::model::SignalKind::ConfirmsFix)
}

/// True when the message's own (unquoted) comparison table gives a signal
/// of `kind` (a table signal names the commit of its last column).
fn own_table_says(m: &LinkMessage, kind: crate::model::SignalKind) -> bool {
    m.signals()
        .iter()
        .any(|s| s.kind == kind && s.quote_depth == 0 && s.commit.is_some())
}

/// A diff of the message's own that may be a fix: anyone's but the robot
/// team's, whose diffs are debug patches unless their own table shows the
/// diff restoring the performance ([`own_table_restores`]) or winning back
/// part of it ([`own_table_partly_restores`]).
pub fn own_fix_diff(m: &LinkMessage) -> bool {
    own_diff(m)
        && (!is_robot_team(m) || own_table_restores(m) || own_table_partly_restores(m))
        && !disclaims_own_diff(m)
}

/// True when a reply carries a diff of its own and its author says, in
/// their own words, that it is no fix ([`SignalKind::NotAFix`]: "this
/// patch is not a fix, just a pointer to the path", "only for debugging",
/// "I don't expect a lot of difference"): a debug aid or an experiment,
/// whatever its measurement shows. A patch posting's "this is not a fix"
/// says it is no bug fix (for stable: "not a fix, a performance
/// optimisation"), which a fix of a regression may well be: it is not read.
///
/// [`SignalKind::NotAFix`]: crate::model::SignalKind::NotAFix
pub fn disclaims_own_diff(m: &LinkMessage) -> bool {
    own_diff(m)
        && kind_of(m) != Kind::Patch
        && m.signals()
            .iter()
            .any(|s| s.kind == crate::model::SignalKind::NotAFix && s.quote_depth == 0)
}

/// True when the message's own comparison table shows a commit of its own
/// winning back part of the headline's loss ([`SignalKind::PartlyRestores`]):
/// a diff the robot's team measured as a step towards a fix.
///
/// [`SignalKind::PartlyRestores`]: crate::model::SignalKind::PartlyRestores
pub fn own_table_partly_restores(m: &LinkMessage) -> bool {
    own_table_says(m, crate::model::SignalKind::PartlyRestores)
}

/// The message an own `Closes:`/`Link:` trailer points to (its lore URL's
/// Message-ID).
pub fn trailer_target(t: &Trailer) -> Option<String> {
    let key = t.key.as_str();
    if !is_own(t) || !(key.eq_ignore_ascii_case("closes") || key.eq_ignore_ascii_case("link")) {
        return None;
    }
    crate::mail::msgid::url_message_id(&t.value)
}

/// True when a `Closes:` was given and none of them closes a report of the
/// history (`inside`: for each `Closes:` target, whether it is one): a
/// `Fixes:` with the robot's `Reported-by:` then fixes something else (a
/// build warning the robot found in the same culprit), not this history.
pub fn closes_only_elsewhere(inside: impl IntoIterator<Item = bool>) -> bool {
    let mut any = false;
    for i in inside {
        if i {
            return false;
        }
        any = true;
    }
    any
}

/// The message a stored lore link (a cited URL's Message-ID) points to.
pub fn cited_target(link: &str) -> String {
    crate::mail::msgid::url_message_id(link)
        .unwrap_or_else(|| link.trim_matches(['<', '>']).to_string())
}

/// True for an own `Reported-by:` naming the robot.
pub fn robot_reported(t: &Trailer) -> bool {
    is_own(t) && t.key.eq_ignore_ascii_case("reported-by") && names_robot(&t.value)
}

/// The commit id of an own `Fixes:` trailer, when it is a hex id.
pub fn fixes_id(t: &Trailer) -> Option<String> {
    if !is_own(t) || !t.key.eq_ignore_ascii_case("fixes") {
        return None;
    }
    let id = t
        .commit
        .clone()
        .or_else(|| t.value.split_whitespace().next().map(|s| s.to_string()))
        .unwrap_or_default();
    is_hex_id(&id).then_some(id)
}

/// The culprit ids a report names (subject id, full id).
pub fn report_ids(m: &LinkMessage) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(sr) = &m.extraction.subject_report
        && !sr.commit.trim().is_empty()
    {
        v.push(canonical_form(&sr.commit));
    }
    if let Some(full) = m
        .extraction
        .report
        .as_ref()
        .and_then(|r| r.commit_full.as_ref())
        && !full.trim().is_empty()
    {
        v.push(canonical_form(full));
    }
    v
}

/// The culprit a reply's subject names (`Re: [ext4] 2edf06a50f: metric ...`).
pub fn subject_culprit(m: &LinkMessage) -> Option<String> {
    let sr = m.extraction.subject_report.as_ref()?;
    (is_hex_id(sr.commit.trim()) && sr.metric.is_some()).then(|| canonical_form(&sr.commit))
}

static REVERT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)^\s*(?:(?:re|fwd?)\s*:\s*)?(?:\[[^\]]*\]\s*)*revert\s+"(.+)"\s*$"#)
        .expect("revert regex compiles")
});

/// True when the subject has the form of a revert (`Revert "<title>"`); only
/// such messages can be linked to a regression as its `revert`.
pub fn is_revert_subject(subject: &str) -> bool {
    REVERT.is_match(subject)
}

/// The title a `Revert "<title>"` subject names, normalised as
/// [`title_key`] does.
pub fn revert_title(subject: &str) -> Option<String> {
    // The form quotes the title: most subjects hold no `"` and are ruled out
    // without running the regex (every stored message's subject is read).
    memchr::memchr(b'"', subject.as_bytes())?;
    REVERT
        .captures(subject)
        .map(|c| title_key(c.get(1).map(|x| x.as_str()).unwrap_or("")))
}

/// A commit title as compared with another: white space folded,
/// lower-cased, a final period dropped, and the tags of a posted patch's
/// subject left out (the robot names a patch under review by its subject,
/// `("[PATCH v2 3/5] mm: memcg: make ...")`).
pub fn title_key(s: &str) -> String {
    crate::mail::subject::title_key(&crate::mail::subject::subject_tags(s).title)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robot_senders_are_told_from_its_people() {
        let mut m = LinkMessage {
            from_name: Some("kernel test robot".into()),
            ..LinkMessage::default()
        };
        assert!(is_robot(&m));
        m.from_name = Some("Oliver Sang".into());
        m.from_email = Some("oliver.sang@intel.com".into());
        assert!(!is_robot(&m));
    }

    #[test]
    fn the_robot_teams_diffs_are_fixes_only_when_their_own_table_restores_some_of_the_loss() {
        use crate::model::{DiffFile, Signal, SignalKind};
        let mut m = LinkMessage {
            from_name: Some("Yin Fengwei".into()),
            from_email: Some("fengwei.yin@intel.com".into()),
            ..LinkMessage::default()
        };
        m.extraction.diffs.push(DiffFile::default());
        assert!(own_diff(&m) && !own_fix_diff(&m), "a debug patch");
        let restores = Signal {
            kind: SignalKind::ConfirmsFix,
            commit: Some("32715af441".into()),
            ..Signal::default()
        };
        // A quoted table, or a sentence without a table, is not the diff's.
        m.extraction.signals.push(Signal {
            quote_depth: 1,
            ..restores.clone()
        });
        m.extraction.signals.push(Signal {
            commit: None,
            ..restores.clone()
        });
        assert!(!own_fix_diff(&m));
        m.extraction.signals.push(Signal {
            kind: SignalKind::PartlyRestores,
            ..restores.clone()
        });
        assert!(own_fix_diff(&m), "its own table wins back part of the loss");
        m.extraction.signals.pop();
        assert!(!own_fix_diff(&m));
        m.extraction.signals.push(restores);
        assert!(own_fix_diff(&m));
        m.extraction.diffs[0].quote_depth = 1;
        assert!(!own_fix_diff(&m), "the diff quoted, not posted");
        // Anyone else's diff may be a fix.
        m.from_email = Some("jan@example.org".into());
        m.extraction.diffs[0].quote_depth = 0;
        m.extraction.signals.clear();
        assert!(own_fix_diff(&m));
    }

    #[test]
    fn a_replys_diff_its_author_disclaims_is_no_fix_but_a_postings_may_be() {
        use crate::model::{DiffFile, Signal, SignalKind};
        let mut m = LinkMessage {
            from_email: Some("dev@example.org".into()),
            kind: Kind::Reply,
            ..LinkMessage::default()
        };
        m.extraction.signals.push(Signal {
            kind: SignalKind::NotAFix,
            ..Signal::default()
        });
        assert!(!disclaims_own_diff(&m), "no diff of its own");
        m.extraction.diffs.push(DiffFile::default());
        assert!(disclaims_own_diff(&m) && !own_fix_diff(&m));
        // Said of a quoted diff, or in quoted text, it disclaims nothing.
        m.extraction.signals[0].quote_depth = 1;
        assert!(!disclaims_own_diff(&m) && own_fix_diff(&m));
        m.extraction.signals[0].quote_depth = 0;
        // A posting's "this is not a fix" means no bug fix.
        m.kind = Kind::Patch;
        assert!(!disclaims_own_diff(&m));
    }

    #[test]
    fn reverts_name_their_title() {
        assert_eq!(
            revert_title("[PATCH] Revert \"ext4: Fix  the thing\"").as_deref(),
            Some("ext4: fix the thing")
        );
        assert_eq!(revert_title("ext4: revert the thing"), None);
    }
}
