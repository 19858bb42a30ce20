//! Who says something in a history, as a reader weighs it: the robot's
//! team, the culprit's author, a maintainer (someone who, in this history,
//! applied, queued or pulled a patch), or a bystander. Known from the
//! history's own messages only, so a full link and an update agree.
//!
//! What a bystander decides is an opinion: a decline or a dispute in their
//! words raises a doubt ([`crate::model::history::DoubtKind`]) instead of
//! setting the status.

use std::collections::HashSet;

use super::LinkMessage;
use super::draft::{Draft, Member};
use super::hints::is_robot_team;
use crate::mail::subject::{title_key, without_tags};
use crate::model::history::Role;

/// A speaker's place in a history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    /// The robot or a person of its team.
    RobotTeam,
    /// The author of the culprit (its posting is in the history).
    CulpritAuthor,
    /// Someone who applied, queued or pulled a patch in this history.
    Maintainer,
    /// Anyone else.
    Bystander,
}

impl Speaker {
    /// The words for it in a timeline or a doubt.
    pub fn as_str(self) -> &'static str {
        match self {
            Speaker::RobotTeam => "the robot's team",
            Speaker::CulpritAuthor => "the culprit's author",
            Speaker::Maintainer => "a maintainer",
            Speaker::Bystander => "a bystander",
        }
    }
}

/// The people of one history by their place (lower-cased addresses).
#[derive(Debug, Clone, Default)]
pub struct Speakers {
    authors: HashSet<String>,
    maintainers: HashSet<String>,
    /// No posting of the culprit is in the history: its author is unknown,
    /// and nobody can be called a bystander with any certainty.
    author_unknown: bool,
}

fn address(m: &LinkMessage) -> Option<String> {
    m.from_email
        .as_deref()
        .map(|e| e.trim().to_ascii_lowercase())
        .filter(|e| !e.is_empty())
}

impl Speakers {
    /// The places of the people in `members` of draft `d`, whose culprit
    /// has `culprit_title` ([`Draft::culprit_title`]): the culprit's
    /// author is whoever posted a patch under that title, or the
    /// culprit's posting the linker found (`d.culprit_patch`); a
    /// maintainer whoever sent a landing (a b4 thank-you, an applied note,
    /// a for-next announcement, a pull request).
    pub fn of(
        d: &Draft,
        culprit_title: Option<&str>,
        members: &[&Member],
        msgs: &[LinkMessage],
        patches: &super::patch::Patches,
    ) -> Speakers {
        let culprit = culprit_title.map(title_key).filter(|t| !t.is_empty());
        let mut s = Speakers::default();
        for mem in members {
            let Some(m) = msgs.get(mem.idx) else { continue };
            let Some(who) = address(m) else { continue };
            let posting_of_culprit = m.extraction.patch.is_some()
                && culprit
                    .as_deref()
                    .is_some_and(|c| title_key(without_tags(&m.subject)) == c);
            if posting_of_culprit {
                s.authors.insert(who.clone());
            }
            if mem.role == Role::Landing || !m.extraction.landings.is_empty() {
                s.maintainers.insert(who);
            }
        }
        // The culprit's own posting, found by the linker (a patch under
        // review), whether or not it is a member.
        let postings = d
            .culprit_patch
            .and_then(|k| patches.identities.get(k))
            .map(|id| id.postings.as_slice())
            .unwrap_or(&[]);
        for &p in postings {
            if let Some(who) = msgs.get(p).and_then(address) {
                s.authors.insert(who);
            }
        }
        s.author_unknown = s.authors.is_empty();
        s
    }

    /// The place of the sender of `m`.
    pub fn speaker(&self, m: &LinkMessage) -> Speaker {
        if is_robot_team(m) {
            return Speaker::RobotTeam;
        }
        let Some(who) = address(m) else {
            return Speaker::Bystander;
        };
        if self.authors.contains(&who) {
            Speaker::CulpritAuthor
        } else if self.maintainers.contains(&who) {
            Speaker::Maintainer
        } else {
            Speaker::Bystander
        }
    }

    /// True when what `m` decides is one person's opinion: a bystander's,
    /// while the history shows who the culprit's author is.
    pub fn opinion_only(&self, m: &LinkMessage) -> bool {
        !self.author_unknown && self.speaker(m) == Speaker::Bystander
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Extraction, Landing, PatchFacts, ReportBody};

    fn msg(from: &str, subject: &str, extraction: Extraction) -> LinkMessage {
        LinkMessage {
            from_email: Some(from.into()),
            subject: subject.into(),
            extraction,
            ..LinkMessage::default()
        }
    }

    #[test]
    fn the_culprits_author_a_maintainer_the_robot_and_a_bystander() {
        let msgs = vec![
            msg(
                "oliver.sang@intel.com",
                "[linus:master] [mm] abcdef1234: x -5% regression",
                Extraction {
                    report: Some(Box::new(ReportBody {
                        commit_title: Some("mm: batch the LRU".into()),
                        ..ReportBody::default()
                    })),
                    ..Extraction::default()
                },
            ),
            msg(
                "Author@Example.org",
                "[PATCH v2 2/2] mm: batch the LRU",
                Extraction {
                    patch: Some(Box::new(PatchFacts::default())),
                    ..Extraction::default()
                },
            ),
            msg(
                "akpm@example.org",
                "Re: [PATCH v2 2/2] mm: batch the LRU",
                Extraction {
                    landings: vec![Landing::default()],
                    ..Extraction::default()
                },
            ),
            msg(
                "someone@example.org",
                "Re: [linus:master] ...",
                Extraction::default(),
            ),
        ];
        let mut d = Draft::default();
        d.members = (0..4)
            .map(|idx| Member {
                idx,
                role: if idx == 0 { Role::Report } else { Role::Reply },
                reason: String::new(),
            })
            .collect();
        let members: Vec<&Member> = d.members.iter().collect();
        let none = super::super::patch::Patches::default();
        let title = Some("mm: batch the LRU");
        let s = Speakers::of(&d, title, &members, &msgs, &none);
        let places: Vec<Speaker> = msgs.iter().map(|m| s.speaker(m)).collect();
        assert_eq!(
            places,
            [
                Speaker::RobotTeam,
                Speaker::CulpritAuthor,
                Speaker::Maintainer,
                Speaker::Bystander
            ]
        );
        assert!(s.opinion_only(&msgs[3]) && !s.opinion_only(&msgs[2]));
        // Without the culprit's posting nobody is called a bystander.
        let s = Speakers::of(&d, title, &[&d.members[0], &d.members[3]], &msgs, &none);
        assert!(!s.opinion_only(&msgs[3]));
    }
}
