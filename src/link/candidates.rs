//! Fix candidates: patches that may fix a regression although no trailer
//! or link of theirs points at it (grammar: `grammar/link-fix-candidates.md`).
//!
//! A patch in a thread the history holds (its messages' threads and the
//! culprit's postings'), or one whose own `Fixes:` names a culprit the
//! history's reports give, is weighed when something relates it to the
//! history: it was
//! posted in the thread of the culprit's own posting after the report, its
//! `Fixes:` names the culprit (by any id or by its title) without the
//! robot's `Reported-by:`, it is a later posting of the culprit's own patch,
//! a reply in the report's thread points at it, or its author is the
//! culprit's or replied to the report. Then what it is adds weight: it
//! touches the functions or files the culprit touched, its changelog speaks
//! of performance or of the robot, it came soon after the report. From
//! [`FixCandidate::LINK_SCORE`] on it is linked as a fix; below, it is shown
//! as a question for a person, with the mark that settles it.

use std::collections::{HashMap, HashSet, VecDeque};

use super::LinkMessage;
use super::culprit::{IdIndex, same_commit};
use super::hints::{fixes_id, is_report, is_robot_team, own_diff, own_trailers, robot_reported};
use super::patch::{Patches, author, is_cover, is_posting};
use crate::evidence::patch::ROBOT_WORDS;
use crate::model::Kind;
use crate::model::history::{FixCandidate, Role};

/// One patch weighed as a fix of one history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The posting (index into the messages).
    pub idx: usize,
    /// The weight of its reasons.
    pub score: u32,
    /// The reasons, in words.
    pub reasons: Vec<String>,
    /// Tied to the history closely enough to ask a person about it (a
    /// possible-fix doubt while it is not linked): a reply points at it,
    /// its `Fixes:` names the culprit, it speaks of the regression or the
    /// robot, or someone of the history posted it in the culprit's thread.
    pub asks: bool,
    /// A later posting of the culprit's own patch.
    pub new_version: bool,
}

impl Candidate {
    /// True when the score links it as a fix.
    pub fn links(&self) -> bool {
        self.score >= FixCandidate::LINK_SCORE
    }

    /// A person named it the fix (`regtrack mark X --fix <Message-ID>`):
    /// it is linked whatever it weighed.
    pub fn mark(&mut self) {
        self.asks = true;
        self.score = self.score.max(FixCandidate::LINK_SCORE);
        self.reasons.insert(0, "marked as the fix".into());
    }
}

/// The least score a candidate needs to be shown at all.
const SHOW_SCORE: u32 = 4;

/// The least score a candidate related only weakly (by its author) needs
/// to be shown.
const WEAK_SHOW_SCORE: u32 = 5;

/// Changelog words that speak of the regression or the robot itself, not
/// of performance in general.
const STRONG_WORDS: [&str; 8] = [
    "regression",
    "regressions",
    "slowdown",
    "slow-down",
    "lkp",
    "0-day",
    "kernel test robot",
    "test robot",
];

/// True when changelog word `w` (lower case, from
/// [`crate::model::PatchFacts::speaks_of`]) speaks of the regression or the
/// robot, not of performance in general.
pub(crate) fn names_regression(w: &str) -> bool {
    STRONG_WORDS.contains(&w)
}

/// The reasons of one candidate as they add up.
#[derive(Debug, Default)]
struct Weighing {
    score: u32,
    reasons: Vec<String>,
    /// Something ties it to the history itself (a pointer, the culprit's
    /// thread, a `Fixes:`), not only its author.
    strong: bool,
    weak: bool,
    /// Posted in the culprit's own thread after the report.
    in_thread: bool,
    /// A later posting of the culprit's own patch.
    new_version: bool,
    /// By the culprit's author or someone who replied to the report.
    known_author: bool,
    /// What it touches or says speaks for it.
    content: bool,
}

impl Weighing {
    fn strong(&mut self, w: u32, why: String) {
        self.strong = true;
        self.add(w, why);
    }
    fn weak(&mut self, w: u32, why: String) {
        self.weak = true;
        self.add(w, why);
    }
    fn add(&mut self, w: u32, why: String) {
        self.score += w;
        self.reasons.push(why);
    }
    fn related(&self) -> bool {
        self.strong || self.weak
    }
}

/// How long after the first report a patch is still weighed.
const HORIZON_DAYS: i64 = 365;

/// What is known of one history when its candidates are weighed.
pub struct History<'a> {
    /// Every id of the culprit.
    pub ids: Vec<&'a str>,
    /// The culprit's title as compared (a title key), if known.
    pub title: Option<&'a str>,
    /// Date of the first report (of the first message when no report is
    /// in the archive).
    pub first_report: Option<i64>,
    /// The attached messages and their roles.
    pub members: Vec<(usize, Role)>,
}

/// The sender as shown.
fn who(m: &LinkMessage) -> String {
    m.from_name
        .clone()
        .filter(|s| !s.trim().is_empty())
        .or_else(|| m.from_email.clone())
        .unwrap_or_else(|| "someone".into())
}

/// The culprit's own patch among the identities: the posting a report
/// replies to, else the patch titled like the culprit.
pub fn culprit_identity(
    parent: &[Option<usize>],
    patches: &Patches,
    h: &History<'_>,
) -> Option<usize> {
    let reports = h
        .members
        .iter()
        .filter(|(_, r)| *r == Role::Report)
        .map(|(i, _)| *i);
    let replied = reports
        .filter_map(|rep| parent.get(rep).copied().flatten())
        .find_map(|p| patches.identity_of(p));
    replied.or_else(|| {
        let t = h.title?;
        patches.identities.iter().position(|id| id.title_key == t)
    })
}

/// Every message below `roots` in the threads (children map).
fn below(children: &[Vec<usize>], roots: &[usize]) -> HashSet<usize> {
    let mut seen: HashSet<usize> = HashSet::new();
    let mut queue: VecDeque<usize> = roots.iter().copied().collect();
    while let Some(i) = queue.pop_front() {
        if !seen.insert(i) {
            continue;
        }
        queue.extend(children.get(i).into_iter().flatten().copied());
    }
    seen
}

/// The messages that could be fixes at all (postings and diffs in
/// replies, not the robot's, not cover letters), each with the root of its
/// thread: made once per link, weighed against every history. It is
/// indexed by what selects an entry for a history (its thread's root, the
/// ids and titles its own `Fixes:` names), so that weighing every history
/// reads only the entries each can select, not all of them: a list with
/// thousands of reports links in time that grows with the reports, not
/// with their square.
pub struct Pool<'a> {
    /// (message, root of its thread), in message order.
    entries: Vec<(usize, usize)>,
    /// The root of every message's thread.
    roots: Vec<usize>,
    /// Each Message-ID's message (the linker's index of them).
    by_id: &'a HashMap<&'a str, usize>,
    /// The entries (indexes into `entries`) of each thread, by its root.
    by_root: HashMap<usize, Vec<usize>>,
    /// The entries whose own `Fixes:` names an id, by the id.
    by_fixes_id: IdIndex<usize>,
    /// The entries whose own `Fixes:` gives a title, by its title key.
    by_fixes_title: HashMap<String, Vec<usize>>,
}

impl<'a> Pool<'a> {
    /// The pool of `msgs`, given each one's parent and each Message-ID's
    /// message.
    pub fn new(
        msgs: &[LinkMessage],
        parent: &[Option<usize>],
        by_id: &'a HashMap<&'a str, usize>,
    ) -> Pool<'a> {
        // Follow each chain up, bounded by the number of messages (a loop
        // ends it).
        let roots: Vec<usize> = (0..msgs.len())
            .map(|i| {
                let mut r = i;
                for _ in 0..msgs.len() {
                    match parent.get(r).copied().flatten() {
                        Some(p) if p != r => r = p,
                        _ => break,
                    }
                }
                r
            })
            .collect();
        let entries: Vec<(usize, usize)> = msgs
            .iter()
            .enumerate()
            .filter(|(_, m)| {
                !is_report(m)
                    && !is_cover(m)
                    && (is_posting(m) || (own_diff(m) && !is_robot_team(m)))
            })
            .map(|(i, _)| (i, roots[i]))
            .collect();
        let mut by_root: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut fixes_ids: Vec<(String, usize)> = Vec::new();
        let mut by_fixes_title: HashMap<String, Vec<usize>> = HashMap::new();
        for (e, &(i, root)) in entries.iter().enumerate() {
            by_root.entry(root).or_default().push(e);
            for t in own_trailers(&msgs[i]) {
                if let Some(id) = fixes_id(t) {
                    fixes_ids.push((id, e));
                }
                if let Some(title) = t.title.as_deref() {
                    let key = super::hints::title_key(title);
                    push_once(by_fixes_title.entry(key).or_default(), e);
                }
            }
        }
        Pool {
            entries,
            roots,
            by_id,
            by_root,
            by_fixes_id: IdIndex::new(fixes_ids),
            by_fixes_title,
        }
    }

    /// The entries (indexes into `entries`, ascending) that a history
    /// holding the threads `held`, reported under the ids `reported` and
    /// titled `title` can select: those of its threads and those whose own
    /// `Fixes:` names one of the ids or the title. A superset of what
    /// [`weigh`] keeps; it filters them as it always did.
    fn selectable(
        &self,
        held: &HashSet<usize>,
        reported: &[String],
        title: Option<&str>,
    ) -> Vec<usize> {
        let mut out: Vec<usize> = held
            .iter()
            .filter_map(|r| self.by_root.get(r))
            .flatten()
            .copied()
            .collect();
        let mut ids: Vec<String> = reported.iter().map(|id| id.to_ascii_lowercase()).collect();
        ids.sort_unstable();
        ids.dedup();
        for id in &ids {
            out.extend(self.by_fixes_id.matching(id));
        }
        if let Some(es) = title.and_then(|t| self.by_fixes_title.get(t)) {
            out.extend(es);
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Pushes `e` unless it is the last element already (the entries are
/// indexed in order, so this keeps each list free of repeats).
fn push_once(v: &mut Vec<usize>, e: usize) {
    if v.last() != Some(&e) {
        v.push(e);
    }
}

/// What a history is weighed against: its culprit's patch, authors and
/// threads, the people who replied, the patches its replies point at.
struct Around {
    first: i64,
    members: HashSet<usize>,
    culprit: Option<usize>,
    authors: HashSet<String>,
    touches: HashSet<String>,
    thread: HashSet<usize>,
    participants: HashMap<String, String>,
    pointed: HashMap<usize, String>,
    held: HashSet<usize>,
    /// The replies of the history by anyone but the robot's team, in order:
    /// one of them may have promised that the next version of the patch
    /// would address the report ([`promises_next_version`], read only of a
    /// reply by the author of such a version, so that a link asks for the
    /// signals of no other).
    replies: Vec<usize>,
    /// A posting of the culprit the robot tested already said its
    /// changelog answers a robot's performance report.
    culprit_robot_perf: bool,
    /// The threads of the patches already linked as fixes (by a pointer).
    linked_roots: HashSet<usize>,
}

/// What `h` is weighed against (`None` without a report date).
fn around(
    msgs: &[LinkMessage],
    parent: &[Option<usize>],
    children: &[Vec<usize>],
    patches: &Patches,
    pool: &Pool,
    h: &History<'_>,
) -> Option<Around> {
    let first = h.first_report?;
    let culprit = culprit_identity(parent, patches, h);
    let postings: Vec<usize> = culprit
        .map(|k| patches.identities[k].postings.clone())
        .unwrap_or_default();
    let authors = postings
        .iter()
        .map(|&p| author(&msgs[p]))
        .filter(|a| !a.is_empty())
        .collect();
    let touches = postings
        .iter()
        .filter_map(|&p| msgs[p].extraction.patch.as_deref())
        .flat_map(|p| p.touches.iter().cloned())
        .collect();
    // The threads of the culprit's postings the robot can have tested
    // (those before the first report): below each, and below its series'
    // cover letter.
    let tested: Vec<usize> = postings
        .iter()
        .copied()
        .filter(|&p| msgs[p].date.is_none_or(|d| d <= first))
        .collect();
    let mut roots: Vec<usize> = tested.clone();
    for &p in &tested {
        if let Some(c) = parent.get(p).copied().flatten()
            && is_cover(&msgs[c])
        {
            roots.push(c);
        }
    }
    let replies = || {
        h.members
            .iter()
            .filter(|(_, r)| matches!(r, Role::Reply | Role::PatchReply))
            .map(|(i, _)| (*i, &msgs[*i]))
            .filter(|(_, m)| !is_robot_team(m))
    };
    let participants = replies().map(|(_, m)| (author(m), who(m))).collect();
    let replies_by_people = replies().map(|(i, _)| i).collect();
    let culprit_robot_perf = tested.iter().any(|&p| {
        msgs[p]
            .extraction
            .patch
            .as_deref()
            .is_some_and(|f| f.robot_perf)
    });
    // Postings a reply in the history points at (a lore URL of a patch).
    let by_id = pool.by_id;
    let mut pointed: HashMap<usize, String> = HashMap::new();
    // A reply below a functional report points at the fix of that failure.
    let under_functional = |mut i: usize| {
        for _ in 0..msgs.len() {
            match parent.get(i).copied().flatten() {
                Some(p) if p != i => {
                    if is_report(&msgs[p]) {
                        return super::hints::kind_of(&msgs[p]) == Kind::FunctionalReport;
                    }
                    i = p;
                }
                _ => return false,
            }
        }
        false
    };
    for (i, m) in replies() {
        if under_functional(i) {
            continue;
        }
        for link in &m.extraction.lore_links {
            let target = super::hints::cited_target(link);
            if let Some(&j) = by_id.get(target.as_str()) {
                pointed.entry(j).or_insert_with(|| who(m));
            }
        }
    }
    // Only the threads the history already holds (its messages, the
    // culprit's postings) are weighed: they are what a relink of the chosen
    // threads loads, so a link of a few threads weighs what a link of
    // everything does.
    let held = h
        .members
        .iter()
        .map(|(i, _)| *i)
        .chain(postings.iter().copied())
        .filter_map(|i| pool.roots.get(i).copied())
        .collect();
    Some(Around {
        first,
        members: h.members.iter().map(|(i, _)| *i).collect(),
        culprit,
        authors,
        touches,
        thread: below(children, &roots),
        participants,
        pointed,
        held,
        replies: replies_by_people,
        culprit_robot_perf,
        linked_roots: h
            .members
            .iter()
            .filter(|(_, r)| matches!(r, Role::Patch | Role::Revert))
            .filter_map(|(i, _)| pool.roots.get(*i).copied())
            .collect(),
    })
}

/// True when posting `i` is a part of a series whose cover letter says, in
/// one sentence of its change log, that it answers the robot's performance
/// report ("Do not dump all commands, which should make the performance
/// regression reported by the test robot go away").
fn cover_answers(msgs: &[LinkMessage], parent: &[Option<usize>], i: usize) -> bool {
    parent
        .get(i)
        .copied()
        .flatten()
        .map(|c| &msgs[c])
        .filter(|c| is_cover(c))
        .and_then(|c| c.extraction.patch.as_deref())
        .is_some_and(|p| p.robot_perf)
}

/// True when a sentence of the message's own promises a fix and names the
/// next version of the patch ("The v2 will address this", "I'll send a
/// v2").
fn promises_next_version(m: &LinkMessage) -> bool {
    static VERSION: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\b(?:v[0-9]+|(?:next|new|updated) (?:version|revision|iteration|spin|posting)|respin|re-spin)\b",
        )
        .expect("valid regex")
    });
    m.signals().iter().any(|s| {
        s.kind == crate::model::SignalKind::WillFix
            && s.quote_depth == 0
            && !s.tentative
            && VERSION.is_match(&s.sentence)
    })
}

/// True when the title a `Fixes:` trailer gives is `culprit_title` (a
/// title key).
fn names_title(t: &crate::model::Trailer, culprit_title: Option<&str>) -> bool {
    culprit_title.is_some_and(|ct| {
        t.title
            .as_deref()
            .is_some_and(|tt| super::hints::title_key(tt) == ct)
    })
}

/// Weighs what a candidate is: what it touches of what the culprit
/// touched, and what its changelog speaks of (`words`, of which
/// `strong_words` name the regression or the robot).
fn what_it_is(
    w: &mut Weighing,
    facts: Option<&crate::model::PatchFacts>,
    a: &Around,
    words: &[String],
    strong_words: &[&str],
) {
    if let Some(p) = facts {
        let shared: Vec<&str> = p
            .touches
            .iter()
            .map(String::as_str)
            .filter(|t| a.touches.contains(*t))
            .collect();
        if let Some(f) = shared.iter().find(|t| t.contains(':')) {
            w.add(2, format!("touches {f} like the culprit"));
            w.content = true;
        } else if let Some(f) = shared.first() {
            w.add(1, format!("touches {f} like the culprit"));
            w.content = true;
        }
    }
    let quoted = |ws: &[&str]| {
        ws.iter()
            .take(3)
            .map(|w| format!("\"{w}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // Words of the regression or the robot speak for it; performance in
    // general only weighs (a scheduler or cpuidle changelog always speaks
    // of latency).
    if !strong_words.is_empty() {
        w.content = true;
        w.add(
            2,
            format!("its changelog speaks of {}", quoted(strong_words)),
        );
    } else if !words.is_empty() {
        let ws: Vec<&str> = words.iter().map(String::as_str).collect();
        w.add(1, format!("its changelog speaks of {}", quoted(&ws)));
    }
}

/// True when the posting's own `Closes:` trailers name reports, none of
/// them a message of the history, and no own `Reported-by:` credits the
/// robot.
fn closes_another_report(msgs: &[LinkMessage], a: &Around, m: &LinkMessage) -> bool {
    if own_trailers(m).any(robot_reported) {
        return false;
    }
    let closes: Vec<Option<String>> = own_trailers(m)
        .filter(|t| t.key.eq_ignore_ascii_case("closes"))
        .map(super::hints::trailer_target)
        .collect();
    // One pass over the history, whatever the number of trailers.
    let wanted: HashSet<&str> = closes.iter().flatten().map(String::as_str).collect();
    let inside: HashSet<&str> = a
        .members
        .iter()
        .map(|&j| msgs[j].message_id.as_str())
        .filter(|id| wanted.contains(id))
        .collect();
    super::hints::closes_only_elsewhere(
        closes
            .iter()
            .map(|c| c.as_deref().is_some_and(|id| inside.contains(id))),
    )
}

/// The candidates of one history, best first.
pub fn weigh(
    msgs: &[LinkMessage],
    parent: &[Option<usize>],
    children: &[Vec<usize>],
    patches: &Patches,
    pool: &Pool,
    h: &History<'_>,
) -> Vec<Candidate> {
    let Some(a) = around(msgs, parent, children, patches, pool, h) else {
        return Vec::new();
    };
    // Besides the threads the history holds, a patch whose own `Fixes:`
    // names a culprit its reports give (the relink loads those too),
    let reported: Vec<String> = h
        .members
        .iter()
        .filter(|(_, r)| *r == Role::Report)
        .flat_map(|(i, _)| super::hints::report_ids(&msgs[*i]))
        .collect();
    // Or its culprit's title under another id (the merged commit of a
    // culprit the robot tested as a posting or a developer's branch).
    let fixes_reported = |m: &LinkMessage| {
        own_trailers(m).any(|t| {
            fixes_id(t).is_some_and(|id| reported.iter().any(|c| same_commit(c, &id)))
                || names_title(t, h.title)
        })
    };
    let mut out: Vec<Candidate> = pool
        .selectable(&a.held, &reported, h.title)
        .into_iter()
        .map(|e| &pool.entries[e])
        .filter(|(i, root)| {
            !a.members.contains(i) && (a.held.contains(root) || fixes_reported(&msgs[*i]))
        })
        .filter_map(|&(i, root)| weigh_one(msgs, parent, patches, h, &a, i, root))
        .collect();
    out.sort_by(|x, y| {
        y.score.cmp(&x.score).then_with(|| {
            (msgs[x.idx].date, &msgs[x.idx].message_id)
                .cmp(&(msgs[y.idx].date, &msgs[y.idx].message_id))
        })
    });
    // One identity weighs once: its best posting.
    let mut seen: HashSet<usize> = HashSet::new();
    out.retain(|c| match patches.identity_of(c.idx) {
        Some(k) => seen.insert(k),
        None => true,
    });
    out
}

/// Message `i` (in the thread of `root`) weighed as a fix of `h` (see the
/// module docs); `None` when nothing relates it or it weighs too little to
/// show.
fn weigh_one(
    msgs: &[LinkMessage],
    parent: &[Option<usize>],
    patches: &Patches,
    h: &History<'_>,
    a: &Around,
    i: usize,
    root: usize,
) -> Option<Candidate> {
    let m = &msgs[i];
    let date = m.date?;
    let first = a.first;
    let pointer = a.pointed.get(&i);
    let after = date > first;
    if pointer.is_none() && (!after || date > first + HORIZON_DAYS * 86_400) {
        return None;
    }
    let facts = m.extraction.patch.as_deref();
    let words: &[String] = facts.map_or(&[], |p| p.speaks_of.as_slice());
    let strong_words: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .filter(|w| STRONG_WORDS.contains(w))
        .collect();
    let mut w = Weighing::default();
    // What relates it to the history.
    if let Some(by) = pointer {
        w.strong(5, format!("{by} pointed at it in the report's thread"));
    }
    // A new version of a series posted into the old thread is the series,
    // not a fix: only a lone patch or a diff in a reply counts.
    let series_part = facts.is_some_and(|p| p.parts.is_some_and(|n| n > 1));
    if after && a.thread.contains(&i) && !series_part {
        w.strong(
            4,
            "posted in the thread of the culprit's patch after the report".into(),
        );
        w.in_thread = true;
    }
    let names_culprit = |id: &str| h.ids.iter().any(|c| same_commit(c, id));
    let fixes = own_trailers(m)
        .filter(|t| !robot_reported(t))
        .find_map(|t| {
            let id = fixes_id(t)?;
            if names_culprit(&id) {
                Some("its Fixes: names the culprit")
            } else {
                names_title(t, h.title).then_some("its Fixes: names the culprit's title")
            }
        });
    if let Some(why) = fixes {
        w.strong(3, why.to_string());
    }
    // A later version of the culprit's own patch answers the report when
    // its changelog says so in one sentence (the robot and performance, not
    // only a trailer crediting the robot for something else), or when the
    // one who posts it promised in a reply of the history that the next
    // version would (a stable backport does neither): then it is linked
    // like any firm fix. Naming the robot otherwise, whether it fixes the
    // regression or just replaces the tested version is for a person to
    // say: it is shown, never linked by weight.
    let who_wrote = author(m);
    let mut answers = false;
    if after && a.culprit.is_some() && patches.identity_of(i) == a.culprit {
        // A series whose other part already points at the report answers
        // it with that part: the culprit's own next version is no fix.
        let aside = facts.is_some_and(|p| p.upstream.is_some()) || a.linked_roots.contains(&root);
        let promise = a
            .replies
            .iter()
            .map(|&k| &msgs[k])
            .filter(|r| author(r) == who_wrote && r.date.is_some_and(|when| when <= date))
            .find(|r| promises_next_version(r))
            .map(who);
        if let Some(name) = promise
            && !aside
        {
            w.strong(
                3,
                format!(
                    "{name} said in the report's thread that the next version would address it"
                ),
            );
            answers = true;
        } else if facts.is_some_and(|p| p.robot_perf) && !a.culprit_robot_perf && !aside {
            w.strong(
                3,
                "a later posting of the culprit's own patch whose changelog says it answers \
                 the robot's performance report"
                    .into(),
            );
            answers = true;
        } else if cover_answers(msgs, parent, i) && !a.culprit_robot_perf && !aside {
            w.strong(
                3,
                "a later posting of the culprit's own patch whose series' cover letter says \
                 it answers the robot's performance report"
                    .into(),
            );
            answers = true;
        } else if words.iter().any(|w| ROBOT_WORDS.contains(&w.as_str())) {
            w.strong(
                3,
                "a later posting of the culprit's own patch that names the robot".into(),
            );
        } else {
            w.weak(1, "a later posting of the culprit's own patch".into());
        }
        w.new_version = true;
    }
    if a.authors.contains(&who_wrote) {
        w.weak(1, "by the culprit's author".into());
        w.known_author = true;
    } else if let Some(name) = a.participants.get(&who_wrote) {
        w.weak(1, format!("by {name}, who replied to the report"));
        w.known_author = true;
    }
    if !w.related() {
        return None;
    }
    what_it_is(&mut w, facts, a, words, &strong_words);
    if own_trailers(m).any(robot_reported) {
        w.add(1, "credits the robot".into());
    }
    if after && date <= first + 14 * 86_400 {
        w.add(
            1,
            format!("posted {} days after the report", (date - first) / 86_400),
        );
    }
    // A weak relation alone (an author's other work) needs more weight, and
    // never links.
    if w.score < SHOW_SCORE || (!w.strong && w.score < WEAK_SHOW_SCORE) {
        return None;
    }
    // Linked by weight only when firmly tied (a reply pointed at it, it was
    // posted in the culprit's thread by someone of the history, or its
    // changelog speaks of the regression and it is no new version of the
    // culprit) and when what it is speaks for it too (it touches what the
    // culprit touched, or its changelog speaks of the regression or the
    // robot).
    // Firm: a reply pointed at it; it was posted in the culprit's thread by
    // someone of the history, or naming the regression; or its changelog
    // names the robot (and it is no new version of the culprit). A `Fixes:`
    // alone is not firm however it speaks: every bug fix of a big change
    // names it, and calls what it fixes a regression.
    let robot_words = words.iter().any(|w| ROBOT_WORDS.contains(&w.as_str()));
    let in_thread_firm = w.in_thread && (w.known_author || !strong_words.is_empty());
    // A patch that says which report it closes, and it is none of this
    // history's, with no word of the robot, fixes that report: unless a
    // reply points at it, it is shown, never linked by weight (a bug of the
    // culprit someone else found, fixed in the culprit's thread).
    let closes_other = closes_another_report(msgs, a, m) && !robot_words;
    if closes_other {
        w.reasons
            .push("but its Closes: names another report, none of this history's".into());
    }
    let firm = pointer.is_some()
        || (!closes_other && (in_thread_firm || (robot_words && !w.new_version) || answers));
    let mut score = w.score;
    if !(w.strong && firm && w.content) {
        score = score.min(FixCandidate::LINK_SCORE - 1);
    }
    // It asks a person when firm, or when it names the robot.
    let asks = pointer.is_some() || in_thread_firm || (w.strong && robot_words) || answers;
    Some(Candidate {
        idx: i,
        score,
        reasons: w.reasons,
        asks,
        new_version: w.new_version,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Extraction, Kind, PatchFacts, Trailer};

    const DAY: i64 = 86_400;

    fn msg(id: &str, from: &str, day: i64, parent: Option<&str>) -> LinkMessage {
        LinkMessage {
            message_id: id.into(),
            subject: format!("Re: {id}"),
            from_name: Some(from.into()),
            from_email: Some(format!("{from}@example.org")),
            date: Some(1_700_000_000 + day * DAY),
            in_reply_to: parent.map(str::to_string),
            kind: Kind::Reply,
            extraction: Extraction {
                kind: Kind::Reply,
                ..Extraction::default()
            },
            ..LinkMessage::default()
        }
    }

    /// A posting (`title` non-empty) or a diff in a reply, touching `touches`.
    fn patch(mut m: LinkMessage, title: &str, touches: &[&str], words: &[&str]) -> LinkMessage {
        m.kind = if title.is_empty() {
            Kind::Reply
        } else {
            Kind::Patch
        };
        m.extraction.kind = m.kind;
        m.extraction.diffs = vec![crate::model::DiffFile::default()];
        m.extraction.patch = Some(Box::new(PatchFacts {
            title: title.into(),
            title_key: super::super::hints::title_key(title),
            patch_id: Some(format!("pid-{}", m.message_id)),
            touches: touches.iter().map(|s| s.to_string()).collect(),
            speaks_of: words.iter().map(|s| s.to_string()).collect(),
            ..PatchFacts::default()
        }));
        m
    }

    fn report(id: &str, day: i64, parent: Option<&str>) -> LinkMessage {
        let mut m = msg(id, "lkp", day, parent);
        m.from_email = Some("oliver.sang@intel.com".into());
        m.kind = Kind::PerfReport;
        m.extraction.kind = Kind::PerfReport;
        m.extraction.subject_report = Some(Box::new(crate::model::SubjectReport {
            commit: "1234567890ab".into(),
            ..crate::model::SubjectReport::default()
        }));
        m
    }

    /// The candidates of a history of one report on the culprit posting
    /// `culprit@x` (by alice), among `more` messages.
    fn weigh_all(more: Vec<LinkMessage>) -> Vec<(String, u32, bool)> {
        let mut msgs = vec![
            patch(
                msg("culprit@x", "alice", 0, None),
                "ext4: take the lock later",
                &["fs/ext4/inode.c", "fs/ext4/inode.c:ext4_write_begin"],
                &[],
            ),
            report("report@x", 10, Some("culprit@x")),
            msg("reply@x", "bob", 11, Some("report@x")),
        ];
        msgs.extend(more);
        let at: HashMap<String, usize> = msgs
            .iter()
            .enumerate()
            .map(|(i, m)| (m.message_id.clone(), i))
            .collect();
        let parent: Vec<Option<usize>> = msgs
            .iter()
            .map(|m| m.in_reply_to.as_ref().and_then(|p| at.get(p).copied()))
            .collect();
        let mut children = vec![Vec::new(); msgs.len()];
        for (i, p) in parent.iter().enumerate() {
            if let Some(p) = p {
                children[*p].push(i);
            }
        }
        let patches = super::super::patch::identify(&msgs, &parent);
        let h = History {
            ids: vec!["1234567890ab"],
            title: Some("ext4: take the lock later"),
            first_report: msgs[1].date,
            // The report and the replies below it.
            members: std::iter::once((1, Role::Report))
                .chain(
                    (2..msgs.len())
                        .filter(|&i| msgs[i].in_reply_to.as_deref() == Some("report@x"))
                        .map(|i| (i, Role::Reply)),
                )
                .collect(),
        };
        let by_id: HashMap<&str, usize> = msgs
            .iter()
            .enumerate()
            .map(|(i, m)| (m.message_id.as_str(), i))
            .collect();
        let pool = Pool::new(&msgs, &parent, &by_id);
        weigh(&msgs, &parent, &children, &patches, &pool, &h)
            .into_iter()
            .map(|c| (msgs[c.idx].message_id.clone(), c.score, c.links()))
            .collect()
    }

    #[test]
    fn a_diff_by_the_culprits_author_in_its_thread_after_the_report_is_linked() {
        let got = weigh_all(vec![patch(
            msg("draft@x", "alice", 12, Some("culprit@x")),
            "",
            &["fs/ext4/inode.c:ext4_write_begin"],
            &["regression"],
        )]);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].2, "{got:?}");
    }

    #[test]
    fn a_fix_closing_another_report_is_only_shown() {
        let closes = |url: &str, robot: bool| {
            let mut m = patch(
                msg("draft@x", "alice", 12, Some("culprit@x")),
                "ext4: fix the lock order",
                &["fs/ext4/inode.c:ext4_write_begin"],
                &[],
            );
            m.extraction.trailers = vec![Trailer {
                key: "Closes".into(),
                value: url.into(),
                ..Trailer::default()
            }];
            if robot {
                m.extraction.trailers.push(Trailer {
                    key: "Reported-by".into(),
                    value: "kernel test robot <lkp@intel.com>".into(),
                    ..Trailer::default()
                });
            }
            weigh_all(vec![m])
        };
        // Its Closes: names a report outside the history: a question.
        let got = closes("https://lore.kernel.org/all/bug@elsewhere/", false);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(!got[0].2, "{got:?}");
        // Crediting the robot too, it is linked as before.
        let got = closes("https://lore.kernel.org/all/bug@elsewhere/", true);
        assert!(got[0].2, "{got:?}");
        // Closing a message of the history, it is linked.
        let got = closes("https://lore.kernel.org/all/reply@x/", false);
        assert!(got[0].2, "{got:?}");
    }

    #[test]
    fn a_stranger_in_the_thread_or_a_new_version_of_the_series_is_only_shown() {
        // Somebody else's patch in the culprit's thread: a question.
        let got = weigh_all(vec![patch(
            msg("other@x", "carol", 12, Some("culprit@x")),
            "",
            &["fs/ext4/inode.c:ext4_write_begin"],
            &["performance"],
        )]);
        assert!(got.iter().all(|c| !c.2), "{got:?}");
        // The culprit's own patch again, naming the robot: shown, not linked.
        let got = weigh_all(vec![patch(
            msg("v2@x", "alice", 20, None),
            "ext4: take the lock later",
            &["fs/ext4/inode.c:ext4_write_begin"],
            &["kernel test robot"],
        )]);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(!got[0].2, "{got:?}");
    }

    #[test]
    fn a_new_version_that_answers_the_report_is_linked() {
        let v2 = |words: &[&str]| {
            patch(
                msg("v2@x", "alice", 20, None),
                "ext4: take the lock later",
                &["fs/ext4/inode.c:ext4_write_begin"],
                words,
            )
        };
        // Its changelog says so in one sentence.
        let mut said = v2(&["performance", "0-day"]);
        if let Some(p) = said.extraction.patch.as_deref_mut() {
            p.robot_perf = true;
        }
        let got = weigh_all(vec![said]);
        assert!(got.len() == 1 && got[0].2, "{got:?}");
        // Its poster promised it in the report's thread.
        let mut promise = msg("promise@x", "alice", 12, Some("report@x"));
        promise.extraction.signals.push(crate::model::Signal {
            kind: crate::model::SignalKind::WillFix,
            sentence: "The v2 (to be posted shortly) will address this.".into(),
            ..crate::model::Signal::default()
        });
        let got = weigh_all(vec![promise.clone(), v2(&[])]);
        assert!(got.len() == 1 && got[0].2, "{got:?}");
        // Somebody else's promise, or a promise after the posting, is none.
        let mut carol = promise.clone();
        carol.from_email = Some("carol@example.org".into());
        let got = weigh_all(vec![carol, v2(&[])]);
        assert!(got.iter().all(|c| !c.2), "{got:?}");
        let mut late = promise;
        late.date = Some(1_700_000_000 + 25 * DAY);
        let got = weigh_all(vec![late, v2(&[])]);
        assert!(got.iter().all(|c| !c.2), "{got:?}");
        // Its series' cover letter says so in its change log.
        let series = |answers: bool| {
            let mut cover = patch(
                msg("cover@x", "alice", 20, None),
                "ext4: rework the locking",
                &[],
                &["performance", "test robot"],
            );
            let mut part = patch(
                msg("part@x", "alice", 20, Some("cover@x")),
                "ext4: take the lock later",
                &["fs/ext4/inode.c:ext4_write_begin"],
                &[],
            );
            for (m, n) in [(&mut cover, 0), (&mut part, 1)] {
                if let Some(p) = m.extraction.patch.as_deref_mut() {
                    p.part = Some(n);
                    p.parts = Some(2);
                    p.robot_perf = n == 0 && answers;
                }
            }
            weigh_all(vec![cover, part])
        };
        let got = series(true);
        assert!(
            got.iter().any(|c| c.0 == "part@x" && c.2),
            "the cover letter answers: {got:?}"
        );
        let got = series(false);
        assert!(got.iter().all(|c| !c.2), "{got:?}");
    }

    #[test]
    fn the_authors_other_work_is_no_fix() {
        // By the culprit's author, weeks later, elsewhere, saying nothing of
        // performance: not even shown.
        let got = weigh_all(vec![patch(
            msg("unrelated@x", "alice", 60, None),
            "ext4: tidy the journal code",
            &["fs/jbd2/journal.c"],
            &[],
        )]);
        assert!(got.is_empty(), "{got:?}");
    }

    #[test]
    fn a_fixes_trailer_and_a_pointer_relate_a_patch_in_a_thread_the_history_holds() {
        let fix = |parent: Option<&str>| {
            let mut m = patch(
                msg("fix@x", "dave", 30, parent),
                "ext4: take the lock earlier again",
                &["fs/ext4/inode.c:ext4_write_begin"],
                &["regression"],
            );
            m.extraction.trailers.push(Trailer {
                key: "Fixes".into(),
                value: "1234567890ab (\"ext4: take the lock later\")".into(),
                commit: Some("1234567890ab".into()),
                title: Some("ext4: take the lock later".into()),
                ..Trailer::default()
            });
            m
        };
        let got = weigh_all(vec![fix(Some("culprit@x"))]);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].2, "{got:?}");
        // In a thread of its own too: its Fixes: names the reported culprit
        // (the relink loads such patches).
        let got = weigh_all(vec![fix(None)]);
        assert_eq!(got.len(), 1, "{got:?}");
        // Elsewhere and naming nothing of the history, it is not weighed.
        let mut other = fix(None);
        other.extraction.trailers.clear();
        assert!(weigh_all(vec![other]).is_empty());
        // A reply of the history pointing at a patch posted before the
        // report, in the culprit's thread.
        let mut pointing = msg("pointer@x", "bob", 12, Some("report@x"));
        pointing.extraction.lore_links = vec!["earlier@x".into()];
        let earlier = patch(
            msg("earlier@x", "erin", 5, Some("culprit@x")),
            "ext4: avoid the extra lock round trip",
            &["fs/ext4/inode.c"],
            &[],
        );
        let got = weigh_all(vec![earlier, pointing]);
        assert!(got.iter().any(|c| c.0 == "earlier@x" && c.2), "{got:?}");
    }
}
