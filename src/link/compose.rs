//! The linker composed: the one place that says in what order its stages
//! run. Both a link of everything ([`super::build`], the pipeline's full
//! relink) and an update (the pipeline's incremental relink, which only
//! chooses *which* messages to hand in) call [`histories`].
//!
//! The stages:
//! 1. **drafts** ([`super::attach::drafts`]): which messages belong to
//!    which regression;
//! 2. **duplicates** ([`super::marks::merge_duplicates`]): drafts a human
//!    marked as one are joined;
//! 3. **finish** ([`super::finish::finish`]): a draft becomes a history with
//!    its timeline and status;
//! 4. **trees** ([`super::trees::apply`]): what the followed kernel trees
//!    say (the candidate commits are looked up by the caller, from the
//!    finished history, through the closure it passes);
//! 5. **ordering** ([`order`]): histories by the date they start, then by
//!    culprit.
//!
//! A history is finished when asked for ([`Histories::regression`]), so a
//! caller writing them one at a time never holds them all.

use super::draft::Linked;
use super::trees::TreeCommit;
use super::{LinkInput, LinkMessage};
use crate::model::history::Regression;

/// The histories of a set of messages, drafted and ordered, each finished
/// when asked for.
#[derive(Debug)]
pub struct Histories {
    input: LinkInput,
    linked: Linked,
    /// Draft indices in the order of the histories.
    order: Vec<usize>,
    /// Each draft's candidate tree commits, by draft index (empty when no
    /// tree is looked up).
    tree_commits: Vec<Vec<TreeCommit>>,
}

/// The candidate commits of the followed kernel trees for a history,
/// looked up from the history as finished before the trees are applied.
pub type TreeLookup<'t, E> = &'t mut dyn FnMut(&Regression) -> Result<Vec<TreeCommit>, E>;

/// The histories of `input`: its messages [`super::facts::prepare`]d (or
/// whole), whole threads as [`super::attach::drafts`] says, with each
/// message's parent (index into the messages) and depth after threading,
/// and its human marks (oldest first). With `trees`, each history's
/// candidate tree commits are looked up once (an error of the look-up ends
/// the link) and applied to it when it is finished.
pub fn histories<E>(
    input: LinkInput,
    parent: &[Option<usize>],
    depth: &[u32],
    trees: Option<TreeLookup<'_, E>>,
) -> Result<Histories, E> {
    let (msgs, marks) = (&input.messages[..], &input.marks[..]);
    let mut linked = super::attach::drafts(msgs, parent, depth, marks);
    super::marks::merge_duplicates(&mut linked, marks);
    let mut tree_commits = Vec::new();
    if let Some(lookup) = trees {
        tree_commits.reserve(linked.drafts.len());
        for d in &linked.drafts {
            let r = super::finish::finish(d, msgs, marks, &linked.patches);
            tree_commits.push(lookup(&r)?);
        }
    }
    let keys: Vec<(Option<i64>, &str)> = linked
        .drafts
        .iter()
        .map(|d| (super::finish::first_date(d, msgs), d.key.as_str()))
        .collect();
    let order = order(&keys);
    drop(keys);
    Ok(Histories {
        input,
        linked,
        order,
        tree_commits,
    })
}

/// The order of histories given each one's start date and culprit key
/// (`keys`, by history): by start date (none last), then by culprit; ties
/// keep the order given. Returns the indices into `keys` in that order.
pub fn order(keys: &[(Option<i64>, &str)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |i: usize| (keys[i].0.unwrap_or(i64::MAX), keys[i].1);
        key(a).cmp(&key(b))
    });
    order
}

impl Histories {
    /// How many histories there are.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The ids the culprit of the `j`-th history goes by, its key first.
    pub fn culprit_names(&self, j: usize) -> Vec<&str> {
        self.linked.drafts[self.order[j]].culprit_names()
    }

    /// The `j`-th history, finished (and the trees applied).
    pub fn regression(&self, j: usize) -> Regression {
        let k = self.order[j];
        let mut r = super::finish::finish(
            &self.linked.drafts[k],
            &self.input.messages,
            &self.input.marks,
            &self.linked.patches,
        );
        if let Some(commits) = self.tree_commits.get(k)
            && !commits.is_empty()
        {
            super::trees::apply(&mut r, commits);
        }
        r
    }

    /// The messages linked (what the histories' members index into).
    pub fn messages(&self) -> &[LinkMessage] {
        &self.input.messages
    }

    /// The messages whose signals finishing the histories reads at the
    /// least (ascending): every member but reports and landings, whose
    /// sentences the status rules read. A caller reading signals only when
    /// asked reads these before the histories are first finished.
    pub fn members_finishing_reads(&self) -> Vec<usize> {
        use crate::model::history::Role;
        let mut v: Vec<usize> = self
            .linked
            .drafts
            .iter()
            .flat_map(|d| d.members.iter())
            .filter(|m| !matches!(m.role, Role::Report | Role::Landing))
            .map(|m| m.idx)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The input the histories were made of, given back (to link again).
    pub fn into_input(self) -> LinkInput {
        self.input
    }

    /// Gives message `i` the signals read for it, its signals no longer
    /// unread ([`LinkMessage::signals_unread`]). For signals the finishing
    /// of a history asked for and the drafting did not: the drafts stand,
    /// and each history finished again reads them.
    pub fn set_signals(&mut self, i: usize, signals: Vec<crate::model::Signal>) {
        if let Some(m) = self.input.messages.get_mut(i) {
            m.set_signals(signals);
        }
    }

    /// Every history, finished, in order.
    pub fn all(&self) -> Vec<Regression> {
        (0..self.len()).map(|j| self.regression(j)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histories_go_by_start_date_then_culprit_and_keep_ties_in_order() {
        let keys = [
            (Some(30), "bbb"),
            (None, "aaa"),
            (Some(10), "ccc"),
            (Some(30), "aaa"),
            (Some(10), "ccc"),
        ];
        // 10 before 30; at 30 `aaa` before `bbb`; the two equal keys keep
        // their order; a history without a date goes last.
        assert_eq!(order(&keys), vec![2, 4, 3, 0, 1]);
        assert!(order(&[]).is_empty());
    }

    #[test]
    fn a_date_at_the_end_of_time_sorts_with_the_undated_by_culprit() {
        let keys = [(None, "b"), (Some(i64::MAX), "a")];
        assert_eq!(order(&keys), vec![1, 0]);
    }
}
