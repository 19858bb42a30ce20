//! A regression before its status is computed: the draft types every stage
//! of the linker passes on. [`super::attach`] makes the drafts,
//! [`super::marks`] joins duplicates, [`super::finish`] turns each into a
//! history; none of them owns these types, so none imports another to
//! reach them.

use std::collections::HashSet;

use super::LinkMessage;
use super::culprit::same_commit;
use super::patch::Patches;
use crate::model::history::Role;

/// A message attached to a regression, by index into [`super::LinkInput::messages`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Index of the message.
    pub idx: usize,
    /// Why it is attached.
    pub role: Role,
    /// Why it was attached.
    pub reason: String,
}

/// A regression before its status is computed.
#[derive(Debug, Clone, Default)]
pub struct Draft {
    /// The culprit key (longest unambiguous id).
    pub key: String,
    /// Every id of the culprit seen.
    pub aliases: Vec<String>,
    /// Candidates when the key is an ambiguous abbreviation.
    pub ambiguous_with: Vec<String>,
    /// Attached messages (reports first, in the order found).
    pub members: Vec<Member>,
    /// Robot reports of other culprits that show the fix in a tree: a later
    /// report whose culprit is a linked patch (by title or commit id), with
    /// that patch's posting.
    pub fix_in_tree: Vec<(usize, usize)>,
    /// The linked patches ([`Patches`] identities), in the order found.
    pub patches: Vec<usize>,
    /// The culprit's own posting, when the archive holds it (a patch under
    /// review, or the patch as posted before it was applied).
    pub culprit_patch: Option<usize>,
    /// Patches weighed as fixes ([`super::candidates`]), best first; the
    /// linked ones are also members.
    pub candidates: Vec<super::candidates::Candidate>,
    set: HashSet<usize>,
}

impl Draft {
    /// A draft of the culprit `key` with nothing attached yet; `ambiguous_with`
    /// are the commits the key abbreviates when it is ambiguous.
    pub fn new(key: &str, ambiguous_with: Vec<String>) -> Draft {
        Draft {
            key: key.to_string(),
            ambiguous_with,
            ..Draft::default()
        }
    }

    /// Attaches message `idx` with `role` for `reason` unless it is
    /// attached already; true when it was not.
    pub fn add(&mut self, idx: usize, role: Role, reason: String) -> bool {
        self.add_member(Member { idx, role, reason })
    }

    /// Attaches a message unless it is attached already; true when it was not.
    pub fn add_member(&mut self, m: Member) -> bool {
        if self.set.insert(m.idx) {
            self.members.push(m);
            true
        } else {
            false
        }
    }

    /// The attached robot reports (indexes into the messages).
    pub fn reports(&self) -> impl Iterator<Item = usize> + '_ {
        self.members
            .iter()
            .filter(|m| m.role == Role::Report)
            .map(|m| m.idx)
    }

    /// The date of the first attached report (`msgs` are the messages the
    /// members index into).
    pub fn first_report(&self, msgs: &[LinkMessage]) -> Option<i64> {
        self.reports().filter_map(|i| msgs.get(i)?.date).min()
    }

    /// True when the message is attached.
    pub fn contains(&self, idx: usize) -> bool {
        self.set.contains(&idx)
    }

    /// True when `id` names the culprit (its key or an alias).
    pub fn names(&self, id: &str) -> bool {
        same_commit(&self.key, id) || self.aliases.iter().any(|a| same_commit(a, id))
    }

    /// The ids the culprit goes by: its key first, then its aliases.
    pub fn culprit_names(&self) -> Vec<&str> {
        std::iter::once(self.key.as_str())
            .chain(self.aliases.iter().map(String::as_str))
            .collect()
    }

    /// The culprit's title, from a report body, a table's commit list or a
    /// `Fixes:` tag of the attached messages (`msgs` are the messages the
    /// members index into), without a posting's `[PATCH 2/2]` tags.
    pub fn culprit_title(&self, msgs: &[LinkMessage]) -> Option<String> {
        self.culprit_title_as_written(msgs)
            .map(|t| crate::mail::subject::without_tags(&t).to_string())
            .filter(|t| !t.is_empty())
    }

    /// The culprit's title as a report or reference writes it (a posting's
    /// `[PATCH 2/2]` tag and all).
    fn culprit_title_as_written(&self, msgs: &[LinkMessage]) -> Option<String> {
        for mem in &self.members {
            let Some(m) = msgs.get(mem.idx) else { continue };
            if let Some(t) = m
                .extraction
                .report
                .as_ref()
                .and_then(|r| r.commit_title.clone())
                && !t.trim().is_empty()
            {
                return Some(t);
            }
        }
        for mem in &self.members {
            let Some(m) = msgs.get(mem.idx) else { continue };
            for t in &m.extraction.tables {
                for (c, title) in &t.commit_titles {
                    if same_commit(c, &self.key) && !title.trim().is_empty() {
                        return Some(title.clone());
                    }
                }
            }
            for t in &m.extraction.trailers {
                if let (Some(c), Some(title)) = (&t.commit, &t.title)
                    && same_commit(c, &self.key)
                {
                    return Some(title.clone());
                }
            }
        }
        // A commit reference with its title anywhere in the history (`06c4d00466 ("...")`).
        self.members
            .iter()
            .filter_map(|mem| msgs.get(mem.idx))
            .flat_map(|m| m.extraction.commits.iter())
            .find(|c| {
                same_commit(&c.id, &self.key)
                    && c.title.as_deref().is_some_and(|t| !t.trim().is_empty())
            })
            .and_then(|c| c.title.clone())
    }
}

/// The drafts of a set of messages and their patch identities.
#[derive(Debug, Clone, Default)]
pub struct Linked {
    /// One draft per regression.
    pub drafts: Vec<Draft>,
    /// Every patch identity among the messages.
    pub patches: Patches,
}
