//! Which messages a regression can involve, chosen from the threading of
//! every message and a few facts per message, before any extraction is
//! loaded: linking only these gives the same regressions as linking
//! everything, with memory bounded by the regressions, not the archive.
//!
//! Chosen are the whole threads of:
//! - robot reports, replies whose subject names a culprit, `Revert "..."`
//!   subjects (the seeds: they start a regression or can link to one
//!   whatever else is stored);
//! - messages whose `Closes:`/`Link:` trailer or cited lore URL points into
//!   a seed's thread, and patch postings pointing into the thread of a
//!   message so chosen (a chain of links: a fix citing a discussion that
//!   cites the report, a version citing the version that closed the
//!   report), up to [`CHAIN_STEPS`] steps;
//! - messages with `Fixes:` and a robot `Reported-by:`;
//! - then (`pipeline::relink`) the other postings of the chosen patches,
//!   the postings of the culprits the chosen reports name, and the
//!   messages saying where either landed or was dropped ([`with_threads`]).
//!
//! The facts are read through [`super::hints`], the functions the
//! attachment rules read them through. Feed [`Selection`] in three steps:
//! what is known of each message before its links ([`Selection::start`],
//! [`Selection::seed`]), then [`Selection::members`], then every trailer
//! and cited link ([`Selection::trailer`], [`Selection::cited`]), then
//! [`Selection::finish`].

use hashbrown::HashSet;

use super::hints;
use super::thread::Skeleton;
use crate::model::Trailer;

/// The keys of the trailers [`Selection::trailer`] reads (in any case):
/// a `Closes:`/`Link:` into a seed's thread, the robot's `Reported-by:`,
/// a `Fixes:`.
pub const TRAILER_KEYS: [&str; 4] = ["closes", "link", "reported-by", "fixes"];

/// Steps of a chain of links followed from a seed's thread.
pub const CHAIN_STEPS: usize = 4;

/// What the choice knows of a message before its links.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Start {
    /// A seed by kind or subject ([`seeds`]).
    pub seed: bool,
    /// A patch posting (a `[PATCH]` subject or format-patch mail, cover
    /// letters too): only its pointers continue a chain.
    pub posting: bool,
    /// Chosen by the first step of an earlier link (an update starts from
    /// what is stored): its thread is chosen, and a chain goes on from it,
    /// but it is no seed.
    pub prior: bool,
}

/// The choice being made (indices are the skeleton's messages).
#[derive(Debug)]
pub struct Selection {
    seed: Vec<bool>,
    prior: Vec<bool>,
    posting: Vec<bool>,
    robot: Vec<bool>,
    fixes: Vec<bool>,
    /// Message-IDs of every message in a seed's thread.
    members: HashSet<String>,
    /// Every pointer outside the seeds' threads: (message, the Message-ID
    /// its trailer or cited link names), for the chains of links.
    pointers: Vec<(usize, String)>,
}

impl Selection {
    /// A selection over the skeleton's messages, none chosen yet.
    pub fn new(sk: &Skeleton) -> Selection {
        let n = sk.len();
        Selection {
            seed: vec![false; n],
            prior: vec![false; n],
            posting: vec![false; n],
            robot: vec![false; n],
            fixes: vec![false; n],
            members: HashSet::new(),
            pointers: Vec::new(),
        }
    }

    /// What is known of message `i` before its links.
    pub fn start(&mut self, i: usize, s: Start) {
        if i >= self.seed.len() {
            return;
        }
        self.seed[i] |= s.seed;
        self.prior[i] |= s.prior;
        self.posting[i] |= s.posting;
    }

    /// Message `i` is a seed: a robot report, a revert subject or a reply
    /// whose subject names a culprit (see [`seeds`]).
    pub fn seed(&mut self, i: usize) {
        if let Some(s) = self.seed.get_mut(i) {
            *s = true;
        }
    }

    /// Records the seeds' threads; call once every seed is given.
    pub fn members(&mut self, sk: &Skeleton) {
        let roots: HashSet<u32> = (0..sk.len())
            .filter(|&i| self.seed[i])
            .map(|i| sk.root[i])
            .collect();
        self.members = (0..sk.len())
            .filter(|&i| roots.contains(&sk.root[i]))
            .filter_map(|i| sk.names.get(sk.container[i] as usize))
            .map(str::to_string)
            .collect();
    }

    /// One trailer of message `i`: only own trailers with one of
    /// [`TRAILER_KEYS`] change the choice, so the caller may pass only
    /// those.
    pub fn trailer(&mut self, i: usize, t: &Trailer) {
        if i >= self.seed.len() {
            return;
        }
        if let Some(id) = hints::trailer_target(t) {
            if self.members.contains(id.as_str()) {
                self.seed[i] = true;
            } else {
                self.pointers.push((i, id));
            }
        }
        self.robot[i] |= hints::robot_reported(t);
        self.fixes[i] |= hints::fixes_id(t).is_some();
    }

    /// One lore link cited in message `i`'s own text.
    pub fn cited(&mut self, i: usize, link: &str) {
        if i >= self.seed.len() {
            return;
        }
        let id = hints::cited_target(link);
        if self.members.contains(id.as_str()) {
            self.seed[i] = true;
        } else {
            self.pointers.push((i, id));
        }
    }

    /// The chosen messages, ascending.
    pub fn finish(self, sk: &Skeleton) -> Vec<usize> {
        let mut roots: HashSet<u32> = (0..sk.len())
            .filter(|&i| self.seed[i] || self.prior[i] || (self.robot[i] && self.fixes[i]))
            .map(|i| sk.root[i])
            .collect();
        // The chains: the thread of a patch posting pointing into a chosen
        // thread is chosen, a step at a time. A reply's pointer chains
        // nothing: replies cite old discussions and other series for
        // context, and each would bring a whole thread.
        let posting = &self.posting;
        let pointers: Vec<&(usize, String)> =
            self.pointers.iter().filter(|(i, _)| posting[*i]).collect();
        if !pointers.is_empty() {
            // Only the ids some pointer names are looked up.
            let targets: HashSet<&str> = pointers.iter().map(|(_, id)| id.as_str()).collect();
            let root_of: hashbrown::HashMap<&str, u32> = (0..sk.len())
                .filter_map(|i| {
                    let name = sk.names.get(sk.container[i] as usize)?;
                    targets.contains(name).then_some((name, sk.root[i]))
                })
                .collect();
            for _ in 0..CHAIN_STEPS {
                let step: Vec<u32> = pointers
                    .iter()
                    .filter(|(i, _)| !roots.contains(&sk.root[*i]))
                    .filter(|(_, id)| root_of.get(id.as_str()).is_some_and(|r| roots.contains(r)))
                    .map(|(i, _)| sk.root[*i])
                    .collect();
                if step.is_empty() {
                    break;
                }
                roots.extend(step);
            }
        }
        (0..sk.len())
            .filter(|&i| roots.contains(&sk.root[i]))
            .collect()
    }
}

/// True when a message of this kind and subject is a seed by itself (a
/// reply whose subject names a culprit is one too: its subject parses as a
/// report subject, which the caller knows from the extraction).
pub fn seeds(kind: crate::model::Kind, subject: &str) -> bool {
    hints::is_report_kind(kind) || hints::is_revert_subject(subject)
}

/// `chosen` (ascending) with the whole threads of `extra` added, ascending:
/// the other postings of the chosen patches and the messages that say
/// where they landed come with their threads (replies, merge notes).
pub fn with_threads(sk: &Skeleton, chosen: Vec<usize>, extra: &[usize]) -> Vec<usize> {
    if extra.is_empty() {
        return chosen;
    }
    let roots: HashSet<u32> = extra
        .iter()
        .filter_map(|&i| sk.root.get(i).copied())
        .collect();
    let have: HashSet<usize> = chosen.iter().copied().collect();
    let mut out = chosen;
    out.extend((0..sk.len()).filter(|i| !have.contains(i) && roots.contains(&sk.root[*i])));
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::thread::{HeaderRow, SkeletonBuilder};

    /// A skeleton of a report `r` with a reply `a`, and three unrelated
    /// single-message threads `x`, `y`, `z`.
    fn skeleton() -> Skeleton {
        let mut b = SkeletonBuilder::default();
        for (id, parent) in [
            ("r@x", None),
            ("a@x", Some("r@x")),
            ("x@x", None),
            ("y@x", None),
            ("z@x", None),
        ] {
            let row = HeaderRow {
                message_id: id,
                in_reply_to: parent,
                date: Some(1),
            };
            b.add(row, parent.into_iter());
        }
        let mut pass = b.link();
        for (i, s) in ["report", "Re: report", "other", "more", "third"]
            .iter()
            .enumerate()
        {
            pass.subject(i, s);
        }
        pass.finish()
    }

    fn trailer(key: &str, value: &str, quote_depth: u32, suggested: bool) -> Trailer {
        Trailer {
            key: key.into(),
            value: value.into(),
            suggested,
            commit: None,
            title: None,
            quote_depth,
        }
    }

    fn choice(trailers: &[(usize, Trailer)]) -> Vec<usize> {
        let sk = skeleton();
        let mut sel = Selection::new(&sk);
        sel.seed(0);
        sel.members(&sk);
        for (i, t) in trailers {
            sel.trailer(*i, t);
        }
        sel.finish(&sk)
    }

    /// The store passes only own trailers with one of [`TRAILER_KEYS`]; the
    /// choice is the same as with every trailer.
    #[test]
    fn only_own_trailers_with_the_listed_keys_change_the_choice() {
        let closes = "https://lore.kernel.org/r/r@x";
        let robot = "kernel test robot <lkp@intel.com>";
        let all = vec![
            (2, trailer("Closes", closes, 0, false)),
            (3, trailer("Reported-by", robot, 0, false)),
            (3, trailer("FIXES", "0123456789ab (\"x\")", 0, false)),
            (2, trailer("Signed-off-by", closes, 0, false)),
            (3, trailer("link", closes, 1, false)),
            (3, trailer("Closes", closes, 0, true)),
            (3, trailer("Tested-by", robot, 0, false)),
            (2, trailer("Cc", robot, 0, false)),
        ];
        let passed: Vec<(usize, Trailer)> = all
            .iter()
            .filter(|(_, t)| {
                hints::is_own(t) && TRAILER_KEYS.iter().any(|k| t.key.eq_ignore_ascii_case(k))
            })
            .cloned()
            .collect();
        assert_eq!(passed.len(), 3);
        assert_eq!(choice(&all), choice(&passed));
        // Each passed trailer matters: message 2 by its `Closes:` into the
        // report's thread, message 3 by the robot's `Reported-by:` with
        // a `Fixes:`.
        assert_eq!(choice(&passed), vec![0, 1, 2, 3]);
        assert_eq!(choice(&passed[..1]), vec![0, 1, 2]);
        assert_eq!(choice(&passed[1..2]), vec![0, 1]);
        assert_eq!(choice(&[]), vec![0, 1]);
    }

    const POSTING: Start = Start {
        seed: false,
        posting: true,
        prior: false,
    };

    /// A chain of links: posting `y` cites `x`, which cites the report:
    /// both are chosen; without `x`'s citation neither is. A reply's
    /// citation continues no chain: `z` cites `y`, chosen only as a
    /// posting.
    #[test]
    fn a_chain_of_links_from_a_seed_thread_is_chosen() {
        let sk = skeleton();
        let run = |links: &[(usize, &str)], postings: &[usize]| {
            let mut sel = Selection::new(&sk);
            sel.seed(0);
            for &i in postings {
                sel.start(i, POSTING);
            }
            sel.members(&sk);
            for (i, l) in links {
                sel.cited(*i, l);
            }
            sel.finish(&sk)
        };
        let to_r = "https://lore.kernel.org/all/r@x/";
        let to_x = "https://lore.kernel.org/r/x@x";
        let to_y = "https://lore.kernel.org/r/y@x";
        assert_eq!(run(&[(3, to_x), (2, to_r)], &[3]), vec![0, 1, 2, 3]);
        assert_eq!(run(&[(3, to_x)], &[3]), vec![0, 1]);
        // `x` points into the report's thread whatever it is; `y` and `z`
        // continue the chain only as postings.
        assert_eq!(run(&[(3, to_x), (2, to_r)], &[]), vec![0, 1, 2]);
        let chain = [(4, to_y), (3, to_x), (2, to_r)];
        assert_eq!(run(&chain, &[3]), vec![0, 1, 2, 3]);
        assert_eq!(run(&chain, &[3, 4]), vec![0, 1, 2, 3, 4]);
    }

    /// An update starts from what an earlier link chose: a prior message's
    /// thread is chosen and a posting's chain goes on from it, but a reply
    /// pointing into it is no seed.
    #[test]
    fn a_prior_choice_continues_chains_but_seeds_nothing() {
        let sk = skeleton();
        let run = |postings: &[usize]| {
            let mut sel = Selection::new(&sk);
            let prior = Start {
                prior: true,
                ..Start::default()
            };
            sel.start(2, prior);
            for &i in postings {
                sel.start(i, POSTING);
            }
            sel.members(&sk);
            sel.cited(3, "https://lore.kernel.org/r/x@x");
            sel.finish(&sk)
        };
        assert_eq!(run(&[]), vec![2]);
        assert_eq!(run(&[3]), vec![2, 3]);
    }
}
