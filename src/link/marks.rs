//! Human marks as the linker reads them (`regtrack mark`, `regtrack unmark`).
//! Pure: marks in, drafts and histories changed.
//!
//! A mark is keyed by culprit and does one or more of:
//! - **status** (`mark X declined`): sets the status; the latest such mark
//!   wins over every rule (see [`super::fold`]);
//! - **fix** (`mark X --fix <sha>`) and **release** (`--fixed-in <tag>`):
//!   names the fix commit and where it shipped. It moves the status forward
//!   as a message would (`fix-applied`, or `fixed` with a release) without
//!   pinning it, so a followed tree can still say the fix reached a release;
//!   the history's fix carries the commit (and release), and a followed
//!   tree's commit with that id is its fix ([`super::trees`]);
//! - **duplicate** (`mark X dup-of Y`, as `#regzbot dup-of` does): X's
//!   history joins Y's; X's ids become aliases of Y's culprit;
//! - **withdrawal** (`regtrack unmark X`): the mark it names no longer
//!   applies.
//!
//! Marks are only ever added; a withdrawn mark and its withdrawal both stay
//! in the timeline, the withdrawn one with no status.

use std::collections::HashSet;

use super::culprit::same_commit;
use super::draft::Linked;
use crate::model::history::{FixInfo, Mark, PatchState, TimelineEntry, iso};

/// The ids of the marks a withdrawal names.
pub fn withdrawn(marks: &[Mark]) -> HashSet<i64> {
    marks.iter().filter_map(|m| m.withdraws).collect()
}

/// True when `m` applies: it is no withdrawal and not among `gone`.
fn applies(m: &Mark, gone: &HashSet<i64>) -> bool {
    m.withdraws.is_none() && !gone.contains(&m.id)
}

/// The marks that apply: not withdrawals, not withdrawn; in the given order.
pub fn in_effect(marks: &[Mark]) -> impl Iterator<Item = &Mark> {
    let gone = withdrawn(marks);
    marks.iter().filter(move |m| applies(m, &gone))
}

/// The latest mark still in effect on a history whose culprit goes by
/// `names` (`regtrack unmark` withdraws it).
pub fn last_in_effect<'a>(marks: &'a [Mark], names: &[&str]) -> Option<&'a Mark> {
    let on = |c: &str| names.iter().any(|n| same_commit(n, c));
    in_effect(marks)
        .filter(|m| on(&m.culprit) || m.dup_of.as_deref().is_some_and(on))
        .max_by_key(|m| (m.at, m.id))
}

/// Joins the draft of each duplicate mark's culprit into the draft of the
/// culprit it duplicates, in mark order (so chains follow; a mark whose two
/// culprits already share a draft changes nothing).
pub fn merge_duplicates(linked: &mut Linked, marks: &[Mark]) {
    let dups: Vec<(&str, &str)> = in_effect(marks)
        .filter_map(|m| Some((m.culprit.as_str(), m.dup_of.as_deref()?)))
        .collect();
    if dups.is_empty() {
        return;
    }
    let mut gone = vec![false; linked.drafts.len()];
    for (from, into) in dups {
        let find = |id: &str, gone: &[bool]| {
            (0..linked.drafts.len()).find(|&k| !gone[k] && linked.drafts[k].names(id))
        };
        let (Some(a), Some(b)) = (find(from, &gone), find(into, &gone)) else {
            continue;
        };
        if a == b {
            continue;
        }
        let moved = std::mem::take(&mut linked.drafts[a]);
        gone[a] = true;
        let d = &mut linked.drafts[b];
        for id in std::iter::once(moved.key.clone()).chain(moved.aliases) {
            if !id.is_empty() && !d.names(&id) {
                d.aliases.push(id);
            }
        }
        for m in moved.members {
            d.add_member(m);
        }
        for p in moved.patches {
            if !d.patches.contains(&p) {
                d.patches.push(p);
            }
        }
        for f in moved.fix_in_tree {
            if !d.fix_in_tree.contains(&f) {
                d.fix_in_tree.push(f);
            }
        }
        if d.culprit_patch.is_none() {
            d.culprit_patch = moved.culprit_patch;
        }
    }
    let mut k = 0;
    linked.drafts.retain(|_| {
        k += 1;
        !gone[k - 1]
    });
}

fn short(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}

/// What a mark did, in words (`marked declined`, `marked the fix
/// 4b1c2e9d0a7f, fixed in v6.9`, `marked 1234abcd a duplicate of 5678`).
pub fn describe(m: &Mark) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(s) = m.status {
        parts.push(s.to_string());
    }
    if let Some(f) = &m.fix {
        parts.push(format!("the fix {}", short(f)));
    }
    if let Some(p) = &m.fix_patch {
        parts.push(format!("the fix <{p}>"));
    }
    if let Some(t) = &m.fixed_in {
        parts.push(format!("fixed in {t}"));
    }
    if let Some(d) = &m.dup_of {
        parts.push(format!("{} a duplicate of {}", short(&m.culprit), short(d)));
    }
    format!("marked {}", parts.join(", "))
}

/// The status a mark's entry carries, and whether it moves the status
/// forward (`true`) rather than setting it.
fn status_of(m: &Mark) -> (Option<crate::model::history::Status>, bool) {
    use crate::model::history::Status;
    match (m.status, &m.fixed_in, &m.fix, &m.fix_patch) {
        (Some(s), _, _, _) => (Some(s), false),
        (None, Some(_), _, _) => (Some(Status::Fixed), true),
        (None, None, Some(_), _) => (Some(Status::FixApplied), true),
        // The posting is linked as the fix: where it landed says the rest.
        (None, None, None, Some(_)) => (Some(Status::FixProposed), true),
        (None, None, None, None) => (None, false),
    }
}

/// The timeline entries of the marks on a history (`marks`: those whose
/// culprit or duplicate target the history goes by, oldest first; `all`:
/// every mark, to find what a withdrawal names).
pub fn entries(marks: &[&Mark], all: &[Mark]) -> Vec<TimelineEntry> {
    let gone = withdrawn(all);
    marks
        .iter()
        .map(|mk| {
            let (mut status, step) = status_of(mk);
            let mut event = match mk.withdraws {
                Some(w) => match all.iter().find(|x| x.id == w) {
                    Some(x) => format!("withdrew the mark '{}'", describe(x)),
                    None => format!("withdrew mark {w}"),
                },
                None => describe(mk),
            };
            if let Some(n) = mk.note.as_deref().filter(|n| !n.is_empty()) {
                event.push_str(": ");
                event.push_str(n);
            }
            if gone.contains(&mk.id) {
                event.push_str(" (withdrawn)");
                status = None;
            }
            TimelineEntry {
                date: iso(Some(mk.at)),
                unix: Some(mk.at),
                from: Some(mk.author.clone()),
                event,
                status,
                message_id: None,
                reopens: false,
                step,
                doubt: None,
            }
        })
        .collect()
}

/// The fix and release the latest marks in effect name, if any.
pub fn marked_fix(marks: &[&Mark], all: &[Mark]) -> (Option<String>, Option<String>) {
    let gone = withdrawn(all);
    let live = || marks.iter().filter(|m| applies(m, &gone));
    (
        live().filter_map(|m| m.fix.clone()).next_back(),
        live().filter_map(|m| m.fixed_in.clone()).next_back(),
    )
}

/// The fix postings (Message-IDs) the marks in effect name, oldest first.
pub fn marked_patches(marks: &[&Mark], all: &[Mark]) -> Vec<String> {
    let gone = withdrawn(all);
    marks
        .iter()
        .filter(|m| applies(m, &gone))
        .filter_map(|m| m.fix_patch.clone())
        .collect()
}

/// The history's fix after the marks: the marked commit (and release) on
/// the linked patch that got furthest, or a fix of its own when no patch is
/// linked; `fix` unchanged when no mark names one.
pub fn apply_fix(
    fix: Option<FixInfo>,
    commit: Option<&str>,
    release: Option<&str>,
) -> Option<FixInfo> {
    if commit.is_none() && release.is_none() {
        return fix;
    }
    let mut f = fix.unwrap_or_default();
    if let Some(c) = commit {
        if f.commit.as_deref().is_some_and(|o| !same_commit(o, c)) {
            f.trees.clear();
        }
        f.commit = Some(c.to_string());
        if f.state.rank() < PatchState::Applied.rank() {
            f.state = PatchState::Applied;
        }
    }
    if let Some(r) = release {
        f.release = Some(r.to_string());
        f.state = PatchState::Merged;
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::draft::Draft;
    use crate::model::history::Status;

    fn mark(id: i64, culprit: &str) -> Mark {
        Mark {
            id,
            culprit: culprit.into(),
            author: "me".into(),
            at: id,
            ..Mark::default()
        }
    }

    #[test]
    fn a_withdrawn_mark_no_longer_applies_but_stays_in_the_timeline() {
        let mut a = mark(1, "aaaa1111");
        a.status = Some(Status::Declined);
        let mut w = mark(2, "aaaa1111");
        w.withdraws = Some(1);
        let all = vec![a, w];
        assert_eq!(in_effect(&all).count(), 0);
        assert_eq!(last_in_effect(&all, &["aaaa1111"]), None);
        let refs: Vec<&Mark> = all.iter().collect();
        let e = entries(&refs, &all);
        assert_eq!(e[0].event, "marked declined (withdrawn)");
        assert_eq!(e[0].status, None);
        assert_eq!(e[1].event, "withdrew the mark 'marked declined'");
    }

    #[test]
    fn a_fix_mark_moves_forward_and_a_status_mark_pins() {
        let mut f = mark(1, "aaaa1111");
        f.fix = Some("4b1c2e9d0a7f00".into());
        let mut r = mark(2, "aaaa1111");
        r.fixed_in = Some("v6.9".into());
        r.note = Some("checked".into());
        let mut s = mark(3, "aaaa1111");
        s.status = Some(Status::Declined);
        let all = vec![f, r, s];
        let refs: Vec<&Mark> = all.iter().collect();
        let e = entries(&refs, &all);
        assert_eq!((e[0].status, e[0].step), (Some(Status::FixApplied), true));
        assert_eq!(e[0].event, "marked the fix 4b1c2e9d0a7f");
        assert_eq!((e[1].status, e[1].step), (Some(Status::Fixed), true));
        assert_eq!(e[1].event, "marked fixed in v6.9: checked");
        assert_eq!((e[2].status, e[2].step), (Some(Status::Declined), false));
        let (c, rel) = marked_fix(&refs, &all);
        assert_eq!(c.as_deref(), Some("4b1c2e9d0a7f00"));
        assert_eq!(rel.as_deref(), Some("v6.9"));
        let fix = apply_fix(None, c.as_deref(), rel.as_deref()).unwrap();
        assert_eq!(fix.state, PatchState::Merged);
        assert_eq!(fix.release.as_deref(), Some("v6.9"));
    }

    fn draft(key: &str, members: &[usize]) -> Draft {
        let mut d = Draft::default();
        d.key = key.into();
        for &i in members {
            d.add_member(crate::link::draft::Member {
                idx: i,
                role: crate::model::history::Role::Report,
                reason: String::new(),
            });
        }
        d
    }

    #[test]
    fn duplicates_join_in_chains_and_a_cycle_changes_nothing_more() {
        let mut linked = Linked {
            drafts: vec![
                draft("aaaa1111", &[0]),
                draft("bbbb2222", &[1]),
                draft("cccc3333", &[2, 1]),
            ],
            ..Linked::default()
        };
        let mut m1 = mark(1, "aaaa1111");
        m1.dup_of = Some("bbbb2222".into());
        let mut m2 = mark(2, "bbbb2222");
        m2.dup_of = Some("cccc3333".into());
        let mut m3 = mark(3, "cccc3333");
        m3.dup_of = Some("aaaa1111".into());
        merge_duplicates(&mut linked, &[m1, m2, m3]);
        assert_eq!(linked.drafts.len(), 1);
        let d = &linked.drafts[0];
        assert_eq!(d.key, "cccc3333");
        assert!(d.names("aaaa1111") && d.names("bbbb2222"));
        let mut idx: Vec<usize> = d.members.iter().map(|m| m.idx).collect();
        idx.sort_unstable();
        assert_eq!(idx, vec![0, 1, 2]);
    }

    #[test]
    fn a_withdrawn_duplicate_mark_joins_nothing() {
        let mut linked = Linked {
            drafts: vec![draft("aaaa1111", &[0]), draft("bbbb2222", &[1])],
            ..Linked::default()
        };
        let mut m1 = mark(1, "aaaa1111");
        m1.dup_of = Some("bbbb2222".into());
        let mut w = mark(2, "bbbb2222");
        w.withdraws = Some(1);
        merge_duplicates(&mut linked, &[m1.clone(), w]);
        assert_eq!(linked.drafts.len(), 2);
        assert_eq!(
            last_in_effect(std::slice::from_ref(&m1), &["bbbb2222"]).map(|m| m.id),
            Some(1)
        );
    }
}
