//! Patches as things with a life: every posting of one patch (an inline
//! draft, v1 ... vN, resends) is one [`Identity`], and what the mail says
//! about it (reviews, `Applied`, b4 thank-yous, for-next announcements,
//! pull requests and their merge notes, drops) is gathered per identity.
//!
//! Postings are one patch when they share:
//! - a title (`[PATCH v3 2/7] ext4: fix the thing` -> `ext4: fix the thing`,
//!   compared by [`crate::mail::subject::title_key`]) and an author (address
//!   or name; a version someone else posts counts as its first
//!   `Signed-off-by:`'s, the author's, as a respun series keeps it), or
//! - a patch id (the same change, whitespace and line numbers aside): an
//!   inline draft and the patch later posted from it, or
//! - a citation: a later version (or its cover letter) citing the lore URL
//!   of an earlier version (or its cover letter) of its author, as b4's
//!   `Link to v1:` does, or carrying the same b4 `change-id:`, whatever its
//!   title became (parts of two series paired by what they touch; see
//!   `join_cited_versions`), or
//! - a renamed next version: a single `[PATCH v2]` of its author, citing
//!   nothing, whose title names a code identifier the author's earlier
//!   version's title names, touching one file of it
//!   (`join_renamed_versions`).
//!
//! Landings are matched to identities:
//! - a landing that names a title (a b4 thank-you entry, a shortlog line, a
//!   tip-bot or stable note, a library sync) goes to the identities of
//!   that title;
//! - one that names none (`Applied, thanks!`, `Dropped from for-next`)
//!   goes to the posting it replies to (the nearest posting above it), or
//!   to every patch of a series when it replies to the cover letter (its
//!   parts, and the patches its shortlog names: a series reaches each list
//!   with the parts touching its files);
//! - pr-tracker-bot's merge note goes to the patches its pull request lists.

use std::collections::HashMap;

use super::LinkMessage;
use super::hints::{is_robot_team, kind_of};
use super::keys::MIN_TITLE_KEY;
use crate::model::{Kind, Landing, LandingKind};

/// One patch across its postings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Identity {
    /// Message indexes of its postings (drafts, versions, resends), in date order.
    pub postings: Vec<usize>,
    /// Its title (from the latest titled posting; empty for a draft only).
    pub title: String,
    /// The title as compared.
    pub title_key: String,
    /// What a revert names: the commit, the title key.
    pub reverts: (Option<String>, Option<String>),
}

/// A landing matched to an identity: the message, the index of the landing
/// in its extraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LandingAt {
    /// The message that says it.
    pub msg: usize,
    /// Which of its landings.
    pub landing: usize,
}

impl LandingAt {
    /// The message and the landing this names among `msgs`.
    pub fn of<'a>(&self, msgs: &'a [LinkMessage]) -> Option<(&'a LinkMessage, &'a Landing)> {
        let m = msgs.get(self.msg)?;
        Some((m, m.extraction.landings.get(self.landing)?))
    }
}

/// Every patch identity among a set of messages, and their landings.
#[derive(Debug, Clone, Default)]
pub struct Patches {
    /// The identities.
    pub identities: Vec<Identity>,
    /// Message index -> identity.
    pub of_message: HashMap<usize, usize>,
    /// Landings of each identity, in date order.
    pub landings: Vec<Vec<LandingAt>>,
    /// Reviews of each identity: (message, reviewer).
    pub reviews: Vec<Vec<usize>>,
    /// The identities with a posting of each title key, ascending (a
    /// version joined by a citation may carry another title than its
    /// identity's).
    pub by_title: HashMap<String, Vec<usize>>,
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb)] = ra.min(rb);
    }
}

impl Patches {
    /// Splits each group of `groups` (postings of identity `k`) off `k`
    /// into an identity of its own, with the landings and reviews in the
    /// threads below its postings (`parent`: each message's parent); the
    /// rest stays `k`'s. For a patch that is one only by its title: the
    /// linker splits one title posted as the fix of a flood of reports.
    pub fn split(&mut self, k: usize, groups: &[Vec<usize>], parent: &[Option<usize>]) {
        let Some(id) = self.identities.get(k).cloned() else {
            return;
        };
        // Each posting goes to the first group naming it, in the
        // identity's order.
        let mut wanted: HashMap<usize, usize> = HashMap::new();
        for (gi, g) in groups.iter().enumerate() {
            for &p in g {
                wanted.entry(p).or_insert(gi);
            }
        }
        let mut per_group: Vec<Vec<usize>> = vec![Vec::new(); groups.len()];
        for &p in &id.postings {
            if let Some(&gi) = wanted.get(&p) {
                per_group[gi].push(p);
            }
        }
        let mut group_of: HashMap<usize, usize> = HashMap::new();
        for postings in per_group {
            let n = self.identities.len();
            if postings.is_empty() {
                continue;
            }
            for &p in &postings {
                group_of.insert(p, n);
                self.of_message.insert(p, n);
            }
            self.identities.push(Identity {
                postings,
                title: id.title.clone(),
                title_key: id.title_key.clone(),
                reverts: id.reverts.clone(),
            });
            self.landings.push(Vec::new());
            self.reviews.push(Vec::new());
            if let Some(ks) = self.by_title.get_mut(&id.title_key) {
                ks.push(n);
            }
        }
        self.identities[k]
            .postings
            .retain(|p| !group_of.contains_key(p));
        // The nearest split posting above a message, if any.
        let owner = |mut i: usize| -> Option<usize> {
            for _ in 0..256 {
                if let Some(&n) = group_of.get(&i) {
                    return Some(n);
                }
                match parent.get(i).copied().flatten() {
                    Some(p) if p != i => i = p,
                    _ => return None,
                }
            }
            None
        };
        let landings = std::mem::take(&mut self.landings[k]);
        for at in landings {
            let n = owner(at.msg).unwrap_or(k);
            self.landings[n].push(at);
        }
        let reviews = std::mem::take(&mut self.reviews[k]);
        for r in reviews {
            let n = owner(r).unwrap_or(k);
            self.reviews[n].push(r);
        }
    }
}

/// The author of a posting as compared (address, else name), lower-cased.
pub(crate) fn author(m: &LinkMessage) -> String {
    poster(m.from_email.as_deref(), m.from_name.as_deref())
}

/// The author of a posting as compared, from its `From:` address and name.
pub fn poster(email: Option<&str>, name: Option<&str>) -> String {
    email
        .filter(|e| !e.is_empty())
        .or(name)
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Joins a version posted by someone else (a reviewer or maintainer who
/// respins another's series), which keeps its author's sign-off first, to
/// that author's posting of its title (`by_title`: title key and poster ->
/// the first such posting).
fn join_signed_versions(
    msgs: &[LinkMessage],
    postings: &[usize],
    by_title: &HashMap<(String, String), usize>,
    uf: &mut [usize],
) {
    for &i in postings {
        let m = &msgs[i];
        let (Some(p), Some(signer)) = (&m.extraction.patch, first_sign_off(m)) else {
            continue;
        };
        if signer != author(m)
            && let Some(&j) = by_title.get(&(p.title_key.clone(), signer))
        {
            union(uf, j, i);
        }
    }
}

/// The address of a posting's first own `Signed-off-by:` (its author's,
/// whoever posts it), lower-cased.
fn first_sign_off(m: &LinkMessage) -> Option<String> {
    let t = super::hints::own_trailers(m).find(|t| t.key.eq_ignore_ascii_case("signed-off-by"))?;
    let v = t.value.trim();
    let addr = match (v.rfind('<'), v.rfind('>')) {
        (Some(a), Some(b)) if a < b => &v[a + 1..b],
        _ => v,
    };
    let addr = addr.trim().to_ascii_lowercase();
    addr.contains('@').then_some(addr)
}

/// True when the message is a posting of a patch (not a cover letter): a
/// patch mail with a title, or any mail with a diff of its own.
pub fn is_posting(m: &LinkMessage) -> bool {
    let Some(p) = &m.extraction.patch else {
        return false;
    };
    // The robot's people reply with the diffs they tested; their formal
    // postings are patches like anyone's.
    if is_robot_team(m) && kind_of(m) != Kind::Patch {
        return false;
    }
    let titled = p.title_key.len() >= MIN_TITLE_KEY;
    let cover = p.part == Some(0);
    (titled && !cover) || p.patch_id.is_some()
}

/// True when `a` and `b` are different parts of one posting of a series:
/// one author, the same number of parts and version, other part numbers,
/// sent within a day.
fn sibling_parts(a: &LinkMessage, b: &LinkMessage) -> bool {
    let (Some(pa), Some(pb)) = (&a.extraction.patch, &b.extraction.patch) else {
        return false;
    };
    let close = match (a.date, b.date) {
        (Some(x), Some(y)) => (x - y).abs() < 86_400,
        _ => true,
    };
    pa.parts.is_some()
        && pa.parts == pb.parts
        && pa.part != pb.part
        && pa.version == pb.version
        && author(a) == author(b)
        && close
}

/// True for a series' cover letter (`[PATCH v2 0/7]`).
pub fn is_cover(m: &LinkMessage) -> bool {
    m.extraction
        .patch
        .as_ref()
        .is_some_and(|p| p.part == Some(0) && kind_of(m) == Kind::Patch)
}

/// The version a posting's subject gives (`v3`), 1 when it gives none.
pub(crate) fn version_of(m: &LinkMessage) -> u32 {
    m.extraction
        .patch
        .as_ref()
        .and_then(|p| p.version)
        .unwrap_or(1)
}

/// The parts of each series among `postings`: cover letter -> the postings
/// that reply to it, in the order given.
fn parts_by_cover(
    msgs: &[LinkMessage],
    parent: &[Option<usize>],
    postings: &[usize],
) -> HashMap<usize, Vec<usize>> {
    let mut parts: HashMap<usize, Vec<usize>> = HashMap::new();
    for &i in postings {
        if let Some(p) = parent.get(i).copied().flatten()
            && is_cover(&msgs[p])
        {
            parts.entry(p).or_default().push(i);
        }
    }
    parts
}

/// Joins the versions of one change whose titles differ (v1 named the
/// report, v4 3/3 is what was applied): a posting or cover letter whose own
/// text cites (a lore URL: b4's `- Link to v1: https://...`, a change log's
/// `v2: https://...`) an earlier posting or cover letter of its author, of
/// a lower version, or carries the same b4 `change-id:` as one, is that
/// one's next version. Single patches are joined
/// directly; where a side is a series (the parts replying to its cover
/// letter), each earlier part is joined with the later part that touches
/// most of what it touches (files and functions; at least half of what
/// either touches), one to one, among the parts that no part of the other
/// series shares a title with.
fn join_cited_versions(
    msgs: &[LinkMessage],
    postings: &[usize],
    parts_of: &HashMap<usize, Vec<usize>>,
    uf: &mut [usize],
) {
    let by_id: HashMap<&str, usize> = msgs
        .iter()
        .enumerate()
        .map(|(i, m)| (m.message_id.as_str(), i))
        .collect();
    let members = |i: usize| -> Vec<usize> {
        if is_cover(&msgs[i]) {
            parts_of.get(&i).cloned().unwrap_or_default()
        } else {
            vec![i]
        }
    };
    let touches = |i: usize| -> &[String] {
        msgs[i]
            .extraction
            .patch
            .as_ref()
            .map_or(&[], |p| p.touches.as_slice())
    };
    let title = |i: usize| -> &str {
        msgs[i]
            .extraction
            .patch
            .as_ref()
            .map_or("", |p| p.title_key.as_str())
    };
    let units: Vec<usize> = postings
        .iter()
        .copied()
        .chain((0..msgs.len()).filter(|&i| is_cover(&msgs[i])))
        .collect();
    let mut by_change: HashMap<&str, Vec<usize>> = HashMap::new();
    for &i in &units {
        if let Some(c) = change_id(&msgs[i]) {
            by_change.entry(c).or_default().push(i);
        }
    }
    for &i in &units {
        let m = &msgs[i];
        let cited = m.extraction.lore_links.iter().filter_map(|link| {
            by_id
                .get(super::hints::cited_target(link).as_str())
                .copied()
        });
        let same_change = change_id(m)
            .and_then(|c| by_change.get(c))
            .into_iter()
            .flatten()
            .copied();
        let mut named: Vec<usize> = cited.chain(same_change).collect();
        named.sort_unstable();
        named.dedup();
        for j in named {
            let earlier = match (msgs[j].date, m.date) {
                (Some(a), Some(b)) => a <= b,
                _ => true,
            };
            if j == i
                || !(is_posting(&msgs[j]) || is_cover(&msgs[j]))
                || author(&msgs[j]) != author(m)
                || !earlier
                || version_of(&msgs[j]) >= version_of(m)
                || sibling_parts(&msgs[j], m)
            {
                continue;
            }
            let (later, before) = (members(i), members(j));
            if later.len() == 1 && before.len() == 1 {
                union(uf, later[0], before[0]);
                continue;
            }
            // One to one among the parts no title pairs, the most shared
            // files and functions first.
            let titled = |x: usize, other: &[usize]| {
                title(x).len() >= MIN_TITLE_KEY && other.iter().any(|&y| title(y) == title(x))
            };
            let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
            for &b in before.iter().filter(|&&b| !titled(b, &later)) {
                for &a in later.iter().filter(|&&a| !titled(a, &before)) {
                    // Most of what either touches (Jaccard at least a half):
                    // a part sharing one file with a reworked series is
                    // another change.
                    let shared = touches(b).iter().filter(|t| touches(a).contains(t)).count();
                    let either = touches(a).len() + touches(b).len() - shared;
                    if shared > 0 && 2 * shared >= either {
                        pairs.push((shared, a, b));
                    }
                }
            }
            pairs.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
            let (mut used_a, mut used_b) = (Vec::new(), Vec::new());
            for (_, a, b) in pairs {
                if !used_a.contains(&a) && !used_b.contains(&b) {
                    union(uf, a, b);
                    used_a.push(a);
                    used_b.push(b);
                }
            }
        }
    }
}

/// Longest time between a version and the next one whose title changed
/// (seconds): [`join_renamed_versions`].
const RENAMED_VERSION_WITHIN: i64 = 120 * 24 * 3600;

/// True for a patch posted on its own (no `n/m` part of a series, no
/// cover letter).
pub(crate) fn single(m: &LinkMessage) -> bool {
    m.extraction
        .patch
        .as_deref()
        .is_some_and(super::keys::posted_alone)
}

/// Joins a single patch's next version whose title changed and which cites
/// nothing (`[PATCH] ext4/jbd2: drop jbd2_transaction_committed()`, then
/// `[PATCH v2] jbd2: speed up jbd2_transaction_committed()`): a single
/// posting of version n >= 2 whose patch has no lower version is the next
/// version of its author's earlier single posting of a lower version
/// whose patch stopped below n, sent at most [`RENAMED_VERSION_WITHIN`]
/// before, when both titles name one code identifier
/// ([`super::keys::title_words`]) and both diffs touch one file. Where
/// several earlier patches qualify, none is joined.
fn join_renamed_versions(msgs: &[LinkMessage], postings: &[usize], uf: &mut [usize]) {
    /// What the bridge compares of a single posting.
    struct Single {
        at: usize,
        /// Its patch (the root of its set) before this bridge joins any.
        root: usize,
        date: i64,
        version: u32,
        words: Vec<String>,
        files: Vec<String>,
    }
    // Each patch's lowest and highest version so far.
    let mut span: HashMap<usize, (u32, u32)> = HashMap::new();
    for &i in postings {
        let v = version_of(&msgs[i]);
        let e = span.entry(find(uf, i)).or_insert((v, v));
        *e = (e.0.min(v), e.1.max(v));
    }
    // The single postings naming a code identifier, by author.
    let mut by_author: HashMap<String, Vec<Single>> = HashMap::new();
    for &i in postings {
        let m = &msgs[i];
        let (Some(p), Some(date)) = (m.extraction.patch.as_ref(), m.date) else {
            continue;
        };
        if !single(m) {
            continue;
        }
        let words = super::keys::title_words(&p.title);
        if words.is_empty() {
            continue;
        }
        let files = p
            .touches
            .iter()
            .filter(|t| !t.contains(':'))
            .cloned()
            .collect();
        by_author.entry(author(m)).or_default().push(Single {
            at: i,
            root: find(uf, i),
            date,
            version: version_of(m),
            words,
            files,
        });
    }
    let mut authors: Vec<&String> = by_author.keys().collect();
    authors.sort();
    let mut joins: Vec<(usize, usize)> = Vec::new();
    for a in authors {
        let singles = &by_author[a];
        for l in singles {
            let rl = l.root;
            if l.version < 2 || span.get(&rl).is_some_and(|s| s.0 < l.version) {
                continue;
            }
            let mut earlier: Vec<usize> = Vec::new();
            for e in singles {
                let re = e.root;
                if re == rl
                    || e.version >= l.version
                    || span.get(&re).is_some_and(|s| s.1 >= l.version)
                    || e.date >= l.date
                    || l.date - e.date > RENAMED_VERSION_WITHIN
                    || !e.words.iter().any(|w| l.words.contains(w))
                    || !e.files.iter().any(|f| l.files.contains(f))
                {
                    continue;
                }
                if !earlier.contains(&re) {
                    earlier.push(re);
                }
            }
            if let [only] = earlier[..] {
                joins.push((l.at, only));
            }
        }
    }
    for (l, e) in joins {
        union(uf, l, e);
    }
}

/// The b4 `change-id:` that names one change through all its versions:
/// a cover letter's or a single patch's (a part of a series, `[PATCH
/// 2/3]`, speaks for no version).
fn change_id(m: &LinkMessage) -> Option<&str> {
    let p = m.extraction.patch.as_ref()?;
    let part = p.part.is_some_and(|n| n > 0);
    p.change_id
        .as_deref()
        .filter(|c| !c.is_empty() && (is_cover(m) || !part))
}

/// Most postings of different titles or authors one patch id joins: a
/// change carried from a draft through renamed versions has a few; a diff
/// that more share is one many unrelated patches make (a one-line include,
/// a version bump) or a flood of copies, and joins none of them.
const MAX_JOINED_BY_PATCH_ID: usize = 8;

/// The patch ids of `postings` that more than [`MAX_JOINED_BY_PATCH_ID`]
/// postings of distinct (title, author) carry (each untitled draft counted
/// as one of its own): they join nothing. Without
/// this bound one diff posted under a thousand titles would make one patch
/// of them all, and every history linking one of them would hold them all.
fn common_patch_ids<'m>(
    msgs: &'m [LinkMessage],
    postings: &[usize],
) -> std::collections::HashSet<&'m str> {
    let mut seen: HashMap<&str, std::collections::HashSet<(&str, String)>> = HashMap::new();
    for &i in postings {
        let Some(p) = &msgs[i].extraction.patch else {
            continue;
        };
        if let Some(id) = p.patch_id.as_deref() {
            let pairs = seen.entry(id).or_default();
            if pairs.len() <= MAX_JOINED_BY_PATCH_ID {
                // An untitled draft counts on its own.
                let title = match p.title_key.as_str() {
                    "" => msgs[i].message_id.as_str(),
                    t => t,
                };
                pairs.insert((title, author(&msgs[i])));
            }
        }
    }
    seen.into_iter()
        .filter(|(_, pairs)| pairs.len() > MAX_JOINED_BY_PATCH_ID)
        .map(|(id, _)| id)
        .collect()
}

/// Finds the patch identities of `msgs` (see the module docs); `parent` is
/// each message's parent after threading.
pub fn identify(msgs: &[LinkMessage], parent: &[Option<usize>]) -> Patches {
    let postings: Vec<usize> = (0..msgs.len()).filter(|&i| is_posting(&msgs[i])).collect();
    let mut uf: Vec<usize> = (0..msgs.len()).collect();
    let mut by_title: HashMap<(String, String), usize> = HashMap::new();
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    let common = common_patch_ids(msgs, &postings);
    for &i in &postings {
        let m = &msgs[i];
        let Some(p) = &m.extraction.patch else {
            continue;
        };
        if p.title_key.len() >= MIN_TITLE_KEY {
            match by_title.entry((p.title_key.clone(), author(m))) {
                std::collections::hash_map::Entry::Occupied(e) => union(&mut uf, *e.get(), i),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(i);
                }
            }
        }
        if let Some(id) = p.patch_id.as_deref().filter(|id| !common.contains(id)) {
            match by_id.get(id) {
                // Two parts of one series are two patches, whatever their
                // diffs hash to.
                Some(&j) if !sibling_parts(&msgs[j], m) => union(&mut uf, j, i),
                Some(_) => {}
                None => {
                    by_id.insert(id, i);
                }
            }
        }
    }
    join_signed_versions(msgs, &postings, &by_title, &mut uf);
    let parts_of = parts_by_cover(msgs, parent, &postings);
    join_cited_versions(msgs, &postings, &parts_of, &mut uf);
    join_renamed_versions(msgs, &postings, &mut uf);
    let mut index: HashMap<usize, usize> = HashMap::new();
    let mut out = Patches::default();
    let mut sorted = postings.clone();
    sorted.sort_by_key(|&i| (msgs[i].date.unwrap_or(i64::MAX), msgs[i].message_id.clone()));
    for &i in &sorted {
        let r = find(&mut uf, i);
        let k = *index.entry(r).or_insert_with(|| {
            out.identities.push(Identity::default());
            out.identities.len() - 1
        });
        out.of_message.insert(i, k);
        let id = &mut out.identities[k];
        id.postings.push(i);
        if let Some(p) = &msgs[i].extraction.patch
            && !p.title.is_empty()
        {
            id.title = p.title.clone();
            id.title_key = p.title_key.clone();
            if p.reverts.is_some() || p.reverts_title.is_some() {
                id.reverts = (p.reverts.clone(), p.reverts_title.clone());
            }
        }
    }
    out.landings = vec![Vec::new(); out.identities.len()];
    out.reviews = vec![Vec::new(); out.identities.len()];
    // A landing naming any posting's title counts for the patch (a version
    // joined by a citation may carry another title).
    let mut by_title: HashMap<String, Vec<usize>> = HashMap::new();
    for (k, id) in out.identities.iter().enumerate() {
        for &i in &id.postings {
            if let Some(p) = &msgs[i].extraction.patch
                && p.title_key.len() >= MIN_TITLE_KEY
            {
                let ks = by_title.entry(p.title_key.clone()).or_default();
                if !ks.contains(&k) {
                    ks.push(k);
                }
            }
        }
    }
    out.by_title = by_title;
    let titled = |t: &str| out.by_title.get(t).map_or(&[][..], Vec::as_slice);
    // The patches of a series: the identities of its parts, and those its
    // cover letter's shortlog names (parts posted only to other lists).
    let mut series: HashMap<usize, Vec<usize>> = parts_of
        .iter()
        .map(|(&cover, parts)| {
            let ks = parts.iter().filter_map(|i| out.of_message.get(i).copied());
            (cover, ks.collect())
        })
        .collect();
    for (i, m) in msgs.iter().enumerate() {
        let Some(p) = m.extraction.patch.as_deref() else {
            continue;
        };
        if p.series_titles.is_empty() || !is_cover(m) {
            continue;
        }
        let ks = series.entry(i).or_default();
        for t in &p.series_titles {
            for &k in titled(t) {
                if !ks.contains(&k) {
                    ks.push(k);
                }
            }
        }
    }
    let target_of = |i: usize, of: &HashMap<usize, usize>| -> Vec<usize> {
        // The nearest posting or cover letter above a reply.
        let mut cur = parent.get(i).copied().flatten();
        for _ in 0..4 {
            let Some(p) = cur else { break };
            if let Some(&k) = of.get(&p) {
                return vec![k];
            }
            if let Some(ks) = series.get(&p) {
                return ks.clone();
            }
            cur = parent.get(p).copied().flatten();
        }
        Vec::new()
    };
    let mut found: Vec<(usize, LandingAt)> = Vec::new();
    for (i, m) in msgs.iter().enumerate() {
        for (j, l) in m.extraction.landings.iter().enumerate() {
            if l.quote_depth > 0 {
                continue;
            }
            let at = LandingAt { msg: i, landing: j };
            match (&l.title, l.kind) {
                (Some(t), _) => {
                    for &k in titled(t) {
                        found.push((k, at));
                    }
                }
                (None, LandingKind::Applied | LandingKind::Dropped) => {
                    let targets = target_of(i, &out.of_message);
                    if targets.is_empty() && l.kind == LandingKind::Dropped {
                        // A refused pull request: the patches its shortlog lists.
                        let request =
                            std::iter::successors(parent.get(i).copied().flatten(), |&p| {
                                parent.get(p).copied().flatten().filter(|&q| q != p)
                            })
                            .take(msgs.len())
                            .find(|&p| pull_request_titles(&msgs[p]).next().is_some());
                        for t in request
                            .into_iter()
                            .flat_map(|p| pull_request_titles(&msgs[p]))
                        {
                            for &k in titled(t) {
                                found.push((k, at));
                            }
                        }
                    }
                    for k in targets {
                        found.push((k, at));
                    }
                }
                (None, LandingKind::Merged) => {
                    // The pull request it answers: the patches its shortlog lists.
                    let Some(p) = parent.get(i).copied().flatten() else {
                        continue;
                    };
                    for t in pull_request_titles(&msgs[p]) {
                        for &k in titled(t) {
                            found.push((k, at));
                        }
                    }
                }
                _ => {}
            }
        }
        // Reviews: a reviewer's own trailer in a reply to a posting.
        let reviewed = m.extraction.trailers.iter().any(|t| {
            t.quote_depth == 0
                && !t.suggested
                && (t.key.eq_ignore_ascii_case("reviewed-by")
                    || t.key.eq_ignore_ascii_case("acked-by"))
        });
        if reviewed && !out.of_message.contains_key(&i) {
            for k in target_of(i, &out.of_message) {
                let poster = out.identities[k]
                    .postings
                    .first()
                    .map(|&p| author(&msgs[p]));
                if poster.as_deref() != Some(author(m).as_str()) {
                    out.reviews[k].push(i);
                }
            }
        }
    }
    found.sort_by_key(|(k, at)| {
        (
            *k,
            msgs[at.msg].date.unwrap_or(i64::MAX),
            at.msg,
            at.landing,
        )
    });
    found.dedup();
    for (k, at) in found {
        out.landings[k].push(at);
    }
    out
}

/// The titles a pull request's shortlog lists (none for other mail).
fn pull_request_titles(m: &LinkMessage) -> impl Iterator<Item = &str> {
    m.extraction
        .landings
        .iter()
        .filter(|l| l.kind == LandingKind::PullRequest && l.quote_depth == 0)
        .filter_map(|l| l.title.as_deref())
}

impl Patches {
    /// The identity of a message, if it is a posting.
    pub fn identity_of(&self, msg: usize) -> Option<usize> {
        self.of_message.get(&msg).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Landing, PatchFacts};

    fn posting(id: &str, from: &str, subject: &str, day: i64) -> LinkMessage {
        let tags = crate::mail::subject::subject_tags(subject);
        LinkMessage {
            message_id: id.into(),
            subject: subject.into(),
            from_email: Some(from.into()),
            date: Some(day * 86_400),
            kind: Kind::Patch,
            extraction: crate::model::Extraction {
                kind: Kind::Patch,
                patch: Some(Box::new(PatchFacts {
                    title_key: crate::mail::subject::title_key(&tags.title),
                    title: tags.title,
                    version: tags.version,
                    part: tags.part,
                    parts: tags.parts,
                    ..PatchFacts::default()
                })),
                ..Default::default()
            },
            ..LinkMessage::default()
        }
    }

    #[test]
    fn versions_and_resends_of_one_author_are_one_patch() {
        let msgs = vec![
            posting("v1", "a@x", "[PATCH] ext4: fix the fast path", 1),
            posting("v2", "a@x", "[PATCH v2] ext4: Fix the fast path", 3),
            posting("other", "b@x", "[PATCH] ext4: fix the fast path", 4),
            posting("re", "a@x", "[PATCH RESEND v2] ext4: fix the fast path", 5),
        ];
        let p = identify(&msgs, &[None, None, None, None]);
        assert_eq!(p.identities.len(), 2);
        assert_eq!(p.identities[0].postings, vec![0, 1, 3]);
        assert_eq!(p.identities[0].title, "ext4: fix the fast path");
    }

    #[test]
    fn a_renamed_next_version_naming_the_same_identifier_joins_its_earlier_version() {
        let touching = |mut m: LinkMessage, files: &[&str]| {
            if let Some(p) = m.extraction.patch.as_mut() {
                p.touches = files.iter().map(|f| f.to_string()).collect();
            }
            m
        };
        let j = "fs/jbd2/journal.c";
        let msgs = vec![
            touching(
                posting(
                    "v1",
                    "a@x",
                    "[PATCH] ext4/jbd2: drop jbd2_commit_pending()",
                    1,
                ),
                &[j, "fs/ext4/inode.c"],
            ),
            touching(
                posting(
                    "v2",
                    "a@x",
                    "[PATCH v2] jbd2: make jbd2_commit_pending() lockless",
                    8,
                ),
                &[j],
            ),
            // Another author's v2 naming the identifier: not the same change.
            touching(
                posting(
                    "b2",
                    "b@x",
                    "[PATCH v2] jbd2: inline jbd2_commit_pending()",
                    9,
                ),
                &[j],
            ),
            // The author's v2 naming it but touching nothing of v1's.
            touching(
                posting(
                    "far",
                    "a@x",
                    "[PATCH v2] ocfs2: stop calling jbd2_commit_pending()",
                    10,
                ),
                &["fs/ocfs2/journal.c"],
            ),
            // A v2 whose own v1 is here under its title is no rename.
            touching(
                posting("w1", "a@x", "[PATCH] jbd2: trace jbd2_commit_pending()", 2),
                &[j],
            ),
            touching(
                posting(
                    "w2",
                    "a@x",
                    "[PATCH v2] jbd2: trace jbd2_commit_pending()",
                    11,
                ),
                &[j],
            ),
            // Too late: four months and more after the earlier version.
            touching(
                posting(
                    "late",
                    "a@x",
                    "[PATCH v2] jbd2: rework jbd2_commit_pending() again",
                    200,
                ),
                &[j],
            ),
        ];
        let p = identify(&msgs, &[None; 7]);
        let of = |i: usize| p.of_message[&i];
        assert_eq!(of(0), of(1), "v1 and its renamed v2");
        for other in [2, 3, 5, 6] {
            assert_ne!(of(other), of(0), "{}", msgs[other].message_id);
        }
        assert_eq!(of(4), of(5), "w1 and w2 by their title");
        // Two earlier versions it could follow: none is joined.
        let msgs = vec![
            touching(
                posting("x1", "a@x", "[PATCH] jbd2: drop jbd2_commit_pending()", 1),
                &[j],
            ),
            touching(
                posting("y1", "a@x", "[PATCH] jbd2: split jbd2_commit_pending()", 2),
                &[j],
            ),
            touching(
                posting(
                    "z2",
                    "a@x",
                    "[PATCH v2] jbd2: speed up jbd2_commit_pending()",
                    5,
                ),
                &[j],
            ),
        ];
        let p = identify(&msgs, &[None; 3]);
        assert_eq!(p.identities.len(), 3);
    }

    #[test]
    fn a_version_someone_else_posts_is_its_first_signers_patch() {
        let sob = |m: &mut LinkMessage, who: &[&str]| {
            for w in who {
                m.extraction.trailers.push(crate::model::Trailer {
                    key: "Signed-off-by".into(),
                    value: format!("Someone <{w}>"),
                    ..crate::model::Trailer::default()
                });
            }
        };
        let mut v1 = posting("v1", "a@x", "[PATCH 1/6] ata: remove the old handler", 1);
        sob(&mut v1, &["a@x"]);
        // Respun by a reviewer, the author's sign-off first.
        let mut v2 = posting("v2", "r@x", "[PATCH v2 1/8] ata: remove the old handler", 9);
        sob(&mut v2, &["A@x", "r@x"]);
        // Another's patch of that title, signed off by its poster first.
        let mut own = posting("own", "c@x", "[PATCH] ata: remove the old handler", 12);
        sob(&mut own, &["c@x", "a@x"]);
        let p = identify(&[v1, v2, own], &[None, None, None]);
        assert_eq!(p.identities.len(), 2);
        assert_eq!(p.identities[0].postings, vec![0, 1]);
    }

    #[test]
    fn a_draft_becomes_the_patch_with_the_same_patch_id() {
        let mut draft = posting("d", "a@x", "Re: [ext4] 2edf06a50f: regression", 1);
        draft.kind = Kind::Reply;
        draft.extraction.kind = Kind::Reply;
        if let Some(p) = draft.extraction.patch.as_mut() {
            p.title.clear();
            p.title_key.clear();
            p.patch_id = Some("abc".into());
        }
        let mut patch = posting("p", "a@x", "[PATCH] ext4: fix it properly", 5);
        if let Some(p) = patch.extraction.patch.as_mut() {
            p.patch_id = Some("abc".into());
        }
        let p = identify(&[draft, patch], &[None, None]);
        assert_eq!(p.identities.len(), 1);
        assert_eq!(p.identities[0].postings, vec![0, 1]);
        assert_eq!(p.identities[0].title, "ext4: fix it properly");
    }

    #[test]
    fn landings_go_to_the_patch_replied_to_the_titles_named_and_the_pull_merged() {
        let mut msgs = vec![
            posting("p", "a@x", "[PATCH] ext4: fix the fast path", 1),
            LinkMessage {
                message_id: "applied".into(),
                date: Some(2 * 86_400),
                ..LinkMessage::default()
            },
            LinkMessage {
                message_id: "pull".into(),
                date: Some(9 * 86_400),
                ..LinkMessage::default()
            },
            LinkMessage {
                message_id: "merged".into(),
                date: Some(10 * 86_400),
                ..LinkMessage::default()
            },
        ];
        msgs[1].extraction.landings.push(Landing::default());
        msgs[2].extraction.landings.push(Landing {
            kind: LandingKind::PullRequest,
            title: Some("ext4: fix the fast path".into()),
            ..Landing::default()
        });
        msgs[3].extraction.landings.push(Landing {
            kind: LandingKind::Merged,
            ..Landing::default()
        });
        let p = identify(&msgs, &[None, Some(0), None, Some(2)]);
        let at: Vec<usize> = p.landings[0].iter().map(|l| l.msg).collect();
        assert_eq!(at, vec![1, 2, 3]);
    }

    #[test]
    fn a_refusal_below_a_pull_request_drops_what_its_shortlog_lists() {
        let mut msgs = vec![
            posting("p", "a@x", "[PATCH v18 2/4] fs: add the frob syscall", 1),
            LinkMessage {
                message_id: "pull".into(),
                date: Some(9 * 86_400),
                ..LinkMessage::default()
            },
            LinkMessage {
                message_id: "ping".into(),
                date: Some(20 * 86_400),
                ..LinkMessage::default()
            },
            LinkMessage {
                message_id: "no".into(),
                date: Some(21 * 86_400),
                ..LinkMessage::default()
            },
        ];
        msgs[1].extraction.landings.push(Landing {
            kind: LandingKind::PullRequest,
            title: Some("fs: add the frob syscall".into()),
            ..Landing::default()
        });
        msgs[3].extraction.landings.push(Landing {
            kind: LandingKind::Dropped,
            ..Landing::default()
        });
        // The refusal answers a ping in the request's thread.
        let p = identify(&msgs, &[None, None, Some(1), Some(2)]);
        let at: Vec<(usize, LandingKind)> = p.landings[0]
            .iter()
            .filter_map(|l| Some((l.msg, l.of(&msgs)?.1.kind)))
            .collect();
        assert_eq!(
            at,
            vec![(1, LandingKind::PullRequest), (3, LandingKind::Dropped)]
        );
        assert_eq!(p.by_title.get("fs: add the frob syscall"), Some(&vec![0]));
    }

    fn touching(mut m: LinkMessage, what: &[&str]) -> LinkMessage {
        if let Some(p) = m.extraction.patch.as_mut() {
            p.touches = what.iter().map(|t| t.to_string()).collect();
        }
        m
    }

    #[test]
    fn a_later_version_citing_an_earlier_one_is_that_patch_whatever_its_title() {
        let v1 = touching(
            posting(
                "v1@x",
                "a@x",
                "[PATCH] ext4: fix the slowdown the robot found",
                1,
            ),
            &["fs/ext4/inode.c", "fs/ext4/inode.c:ext4_write_begin"],
        );
        let mut cover = posting(
            "c2@x",
            "a@x",
            "[PATCH v2 0/2] ext4: rework the write path",
            5,
        );
        cover.extraction.lore_links = vec!["https://lore.kernel.org/r/v1@x".into()];
        let helper = touching(
            posting("p1@x", "a@x", "[PATCH v2 1/2] ext4: add a helper", 5),
            &["fs/ext4/ext4.h"],
        );
        let later = touching(
            posting("p2@x", "a@x", "[PATCH v2 2/2] ext4: take the lock later", 5),
            &["fs/ext4/inode.c", "fs/ext4/inode.c:ext4_write_begin"],
        );
        let applied = LinkMessage {
            message_id: "thanks@x".into(),
            date: Some(9 * 86_400),
            extraction: crate::model::Extraction {
                landings: vec![Landing {
                    title: Some(crate::mail::subject::title_key("ext4: take the lock later")),
                    ..Landing::default()
                }],
                ..Default::default()
            },
            ..LinkMessage::default()
        };
        let msgs = vec![v1, cover, helper, later, applied];
        let p = identify(&msgs, &[None, None, Some(1), Some(1), None]);
        let k = p.identity_of(0).expect("v1 is a posting");
        assert_eq!(
            p.identity_of(3),
            Some(k),
            "the part touching what v1 touched"
        );
        assert_ne!(p.identity_of(2), Some(k), "the other part is another patch");
        assert_eq!(p.identities[k].title, "ext4: take the lock later");
        let landed: Vec<usize> = p.landings[k].iter().map(|l| l.msg).collect();
        assert_eq!(landed, vec![4], "the later title's landing counts for v1");
    }

    #[test]
    fn a_citation_by_another_author_or_of_a_later_version_joins_nothing() {
        let v2 = posting("v2@x", "a@x", "[PATCH v2] ext4: fix the slowdown", 1);
        let mut other = posting("o@x", "b@x", "[PATCH] ext4: something else", 3);
        other.extraction.lore_links = vec!["v2@x".into()];
        let mut older = posting("v1@x", "a@x", "[PATCH] ext4: a different title", 4);
        older.extraction.lore_links = vec!["v2@x".into()];
        let p = identify(&[v2, other, older], &[None, None, None]);
        assert_eq!(p.identities.len(), 3);
    }

    /// b4's change-id joins a version to the earlier one of its author, as
    /// a citation does; another author's, or a part's, joins nothing.
    #[test]
    fn the_same_change_id_joins_versions_of_one_author() {
        let with_change = |mut m: LinkMessage, c: &str| {
            if let Some(p) = m.extraction.patch.as_mut() {
                p.change_id = Some(c.into());
            }
            m
        };
        let v1 = with_change(
            posting("v1@x", "a@x", "[PATCH] ext4: fix the slowdown", 1),
            "20240101-slow-1a2b",
        );
        let v2 = with_change(
            posting("v2@x", "a@x", "[PATCH v2] ext4: rework the fast path", 4),
            "20240101-slow-1a2b",
        );
        let p = identify(&[v1.clone(), v2.clone()], &[None, None]);
        assert_eq!(p.identities.len(), 1);
        assert_eq!(p.identities[0].title, "ext4: rework the fast path");
        let other = with_change(
            posting("o@x", "b@x", "[PATCH v2] ext4: something else", 4),
            "20240101-slow-1a2b",
        );
        let p = identify(&[v1.clone(), other], &[None, None]);
        assert_eq!(p.identities.len(), 2, "another author's change-id");
        let p = identify(&[v2, v1], &[None, None]);
        assert_eq!(p.identities.len(), 1, "whatever order they come in");
    }

    #[test]
    fn parts_keeping_their_title_pair_by_title_and_only_the_others_by_what_they_touch() {
        let cover = |id: &str, subject: &str, day: i64| posting(id, "a@x", subject, day);
        let c1 = cover("c1@x", "[PATCH 0/2] ext4: large folios", 1);
        let b1 = touching(
            posting("b1@x", "a@x", "[PATCH 1/2] ext4: add the folio helper", 1),
            &["fs/ext4/inode.c", "fs/ext4/extents.c"],
        );
        let b2 = touching(
            posting("b2@x", "a@x", "[PATCH 2/2] ext4: enable large folios", 1),
            &["fs/ext4/inode.c"],
        );
        let mut c2 = cover("c2@x", "[PATCH v2 0/2] ext4: large folios", 8);
        c2.extraction.lore_links = vec!["c1@x".into()];
        let a1 = touching(
            posting(
                "a1@x",
                "a@x",
                "[PATCH v2 1/2] ext4: add the folio helper",
                8,
            ),
            &["fs/ext4/inode.c", "fs/ext4/extents.c", "fs/ext4/file.c"],
        );
        let a2 = touching(
            posting(
                "a2@x",
                "a@x",
                "[PATCH v2 2/2] ext4: turn large folios on",
                8,
            ),
            &["fs/ext4/inode.c"],
        );
        let msgs = vec![c1, b1, b2, c2, a1, a2];
        let parent = [None, Some(0), Some(0), None, Some(3), Some(3)];
        let p = identify(&msgs, &parent);
        assert_eq!(p.identity_of(1), p.identity_of(4), "same title");
        assert_eq!(p.identity_of(2), p.identity_of(5), "retitled, same touches");
        assert_ne!(p.identity_of(1), p.identity_of(2));
    }
}
