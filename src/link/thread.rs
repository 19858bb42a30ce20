//! JWZ-style threading over Message-ID, References and In-Reply-To.
//!
//! Every id seen (as a message or as a reference) gets a container. The
//! References chain links containers parent to child unless that would make a
//! loop; a message's own last reference (or In-Reply-To) is its parent and
//! overrides a parent guessed from another message's references. A missing
//! parent stays an empty placeholder, so a reply that arrives before its
//! parent is simply re-attached when the parent shows up. Messages without
//! usable headers (the archive-rendered seeds) fall back on the normalised
//! subject ([`crate::mail::subject::thread_key`]): a `Re:` whose subject
//! matches a thread root's is hung under that root.
//!
//! A message contributes at most its last [`MAX_REFERENCES`] distinct
//! References ([`recent_references`]), and linking one reference below the
//! previous one knows the root of the chain so far, so a message costs time
//! linear in what it contributes (a References header of 200,000 ids was
//! quadratic: each id walked the whole chain above it).
//!
//! There is one implementation, [`SkeletonBuilder`]: Message-IDs interned
//! once into one text buffer, so that a whole archive's headers thread in a
//! few hundred bytes per message. [`thread`] runs it over messages in memory.

use hashbrown::HashMap;

use crate::mail::subject::{is_reply, thread_key};

/// The most References one message contributes to threading: its last
/// distinct ids, nearest ancestors first kept.
pub const MAX_REFERENCES: usize = 256;

/// The References threading reads of a message, oldest first: the last
/// [`MAX_REFERENCES`] distinct non-empty ids of `refs`, each at its last
/// place.
pub fn recent_references<'r>(refs: impl DoubleEndedIterator<Item = &'r str>) -> Vec<&'r str> {
    // Nearly every message has a few References: those are told apart by
    // comparing them with the ones kept (no set to build and hash); a set
    // takes over past `LINEAR` kept ids.
    const LINEAR: usize = 16;
    let mut seen: hashbrown::HashSet<&str> = hashbrown::HashSet::new();
    let mut out: Vec<&str> = Vec::new();
    for r in refs.rev() {
        if out.len() >= MAX_REFERENCES {
            break;
        }
        if r.is_empty() {
            continue;
        }
        let new = if out.len() < LINEAR {
            !out.contains(&r)
        } else {
            if seen.is_empty() {
                seen.extend(out.iter().copied());
            }
            seen.insert(r)
        };
        if new {
            out.push(r);
        }
    }
    out.reverse();
    out
}

/// The threading facts of one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadInfo {
    /// Message-ID of the thread root (may be a placeholder never seen as a message).
    pub root_id: String,
    /// Message-ID of the parent, after threading.
    pub parent_id: Option<String>,
    /// Distance from the root (0 for a root).
    pub depth: u32,
}

/// What threading reads from one message.
#[derive(Debug, Clone, Copy)]
pub struct HeaderRow<'a> {
    /// Message-ID.
    pub message_id: &'a str,
    /// In-Reply-To (empty or `None` when absent).
    pub in_reply_to: Option<&'a str>,
    /// Date (Unix seconds), to pick the earliest root of a subject.
    pub date: Option<i64>,
}

/// Interned Message-IDs (or any list of strings, such as the subjects a
/// relink holds): one text buffer and where each entry ends, so that an
/// archive's half million ids cost their bytes, not an allocation each.
#[derive(Debug, Default)]
pub struct Names {
    text: String,
    ends: Vec<usize>,
}

impl Names {
    /// The id of container `c`.
    pub fn get(&self, c: usize) -> Option<&str> {
        let end = *self.ends.get(c)?;
        let start = match c.checked_sub(1) {
            Some(p) => *self.ends.get(p)?,
            None => 0,
        };
        self.text.get(start..end)
    }

    /// Adds `s` as the next entry.
    pub fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.ends.push(self.text.len());
    }

    /// How many ids there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

/// Builds [`Names`], finding an id already seen through a table of indexes
/// hashed by the id's text.
#[derive(Default)]
struct Interner {
    names: Names,
    table: hashbrown::HashTable<u32>,
    hasher: hashbrown::DefaultHashBuilder,
}

impl Interner {
    fn intern(&mut self, s: &str) -> u32 {
        use std::hash::BuildHasher;
        let Interner {
            names,
            table,
            hasher,
        } = self;
        let h = hasher.hash_one(s);
        if let Some(&c) = table.find(h, |&c| names.get(c as usize) == Some(s)) {
            return c;
        }
        let c = u32::try_from(names.len()).unwrap_or(u32::MAX);
        names.push(s);
        table.insert_unique(h, c, |&c| {
            hasher.hash_one(names.get(c as usize).unwrap_or_default())
        });
        c
    }
}

/// Every message's threading: containers, parents, roots and depths.
#[derive(Debug, Default)]
pub struct Skeleton {
    /// Container (index into `names`) of every message's own Message-ID, in
    /// the order the messages were added.
    pub container: Vec<u32>,
    /// Message-ID of every container (messages and ids only referenced).
    pub names: Names,
    /// Parent container of every message, after threading.
    pub parent: Vec<Option<u32>>,
    /// Root container of every message's thread.
    pub root: Vec<u32>,
    /// Depth of every message below its root.
    pub depth: Vec<u32>,
    /// Root container of every container (ids only referenced too).
    pub container_root: Vec<u32>,
}

impl Skeleton {
    /// The threading of message `i` as ids.
    pub fn info(&self, i: usize) -> ThreadInfo {
        let name = |c: u32| self.names.get(c as usize).unwrap_or("").to_string();
        ThreadInfo {
            root_id: self.root.get(i).map(|&r| name(r)).unwrap_or_default(),
            parent_id: self.parent.get(i).copied().flatten().map(name),
            depth: self.depth.get(i).copied().unwrap_or(0),
        }
    }

    /// Number of messages threaded.
    pub fn len(&self) -> usize {
        self.container.len()
    }

    /// Whether no message was threaded.
    pub fn is_empty(&self) -> bool {
        self.container.is_empty()
    }
}

/// First pass of threading: every message's headers and References, in a
/// fixed order (the store's), then [`SkeletonBuilder::link`].
#[derive(Default)]
pub struct SkeletonBuilder {
    index: Interner,
    container: Vec<u32>,
    irt: Vec<Option<u32>>,
    no_refs: Vec<bool>,
    dates: Vec<Option<i64>>,
    /// References, oldest first, as ranges of one flat list.
    refs: Vec<u32>,
    range: Vec<(u32, u32)>,
}

impl SkeletonBuilder {
    /// A builder sized for about `messages` messages (a hint: more may be
    /// added), so that its tables do not grow by rehashing as they fill.
    pub fn with_capacity(messages: usize) -> SkeletonBuilder {
        let mut b = SkeletonBuilder::default();
        // Ids only referenced (placeholders, other lists' messages) add
        // about a third to the messages' own on a list archive.
        let names = messages.saturating_add(messages / 3);
        b.index.table.reserve(names, |_| 0);
        b.index.names.ends.reserve(names);
        b.index.names.text.reserve(names.saturating_mul(48));
        b.container.reserve(messages);
        b.irt.reserve(messages);
        b.no_refs.reserve(messages);
        b.dates.reserve(messages);
        b.range.reserve(messages);
        b
    }

    /// Adds the next message: its headers and its References, oldest first
    /// (empty ids are skipped; only the [`recent_references`] are read).
    pub fn add<'r>(
        &mut self,
        row: HeaderRow<'_>,
        references: impl DoubleEndedIterator<Item = &'r str>,
    ) {
        self.container.push(self.index.intern(row.message_id));
        self.dates.push(row.date);
        let irt = row.in_reply_to.filter(|s| !s.is_empty());
        let at = self.refs.len() as u32;
        for r in recent_references(references) {
            let c = self.index.intern(r);
            self.refs.push(c);
        }
        self.range.push((at, self.refs.len() as u32));
        self.no_refs
            .push(irt.is_none() && self.refs.len() as u32 == at);
        let irt = irt.map(|s| self.index.intern(s));
        self.irt.push(irt);
    }

    /// Links every added message's reference chain; the subject fallback
    /// follows ([`SubjectPass`]).
    pub fn link(self) -> SubjectPass {
        let SkeletonBuilder {
            index,
            container,
            irt,
            no_refs,
            dates,
            refs,
            range,
        } = self;
        let mut forest = Forest::default();
        forest.parent.resize(index.names.len(), None);
        for (i, &me) in container.iter().enumerate() {
            let me = me as usize;
            let (a, b) = range[i];
            let own = refs.get(a as usize..b as usize).unwrap_or(&[]);
            let ch = chain(
                own.iter().map(|&c| c as usize),
                irt[i].map(|c| c as usize),
                me,
            );
            forest.link(me, &ch);
        }
        let Interner { names, .. } = index;
        SubjectPass {
            names,
            container,
            no_refs,
            dates,
            forest,
            roots: HashMap::new(),
            hang: Vec::new(),
            next: 0,
        }
    }
}

/// Second pass of threading: every message's subject, in the order of the
/// first pass, then [`SubjectPass::finish`].
pub struct SubjectPass {
    names: Names,
    container: Vec<u32>,
    no_refs: Vec<bool>,
    dates: Vec<Option<i64>>,
    forest: Forest,
    roots: HashMap<String, (Option<i64>, usize)>,
    hang: Vec<(usize, String)>,
    next: usize,
}

impl SubjectPass {
    /// The subject of message `i` (the `i`-th added); messages not given a
    /// subject take part in no subject fallback.
    pub fn subject(&mut self, i: usize, subject: &str) {
        let Some(&c) = self.container.get(i) else {
            return;
        };
        let c = c as usize;
        let names = &self.names;
        self.forest.offer_root(
            &mut self.roots,
            c,
            subject,
            self.dates[i],
            names.get(c).unwrap_or_default(),
            |x| names.get(x).unwrap_or(""),
        );
        if self
            .forest
            .wants_subject_parent(c, self.no_refs[i], subject)
        {
            self.hang.push((c, thread_key(subject)));
        }
        self.next = i + 1;
    }

    /// Hangs the reference-less replies and computes roots and depths.
    pub fn finish(self) -> Skeleton {
        let SubjectPass {
            names,
            container,
            mut forest,
            roots,
            hang,
            ..
        } = self;
        for (c, key) in &hang {
            forest.hang_reply(&roots, *c, key);
        }
        drop((roots, hang));
        let n = container.len();
        let mut memo: Vec<Option<(usize, u32)>> = vec![None; forest.parent.len()];
        let mut sk = Skeleton {
            container,
            names,
            parent: Vec::with_capacity(n),
            root: Vec::with_capacity(n),
            depth: Vec::with_capacity(n),
            container_root: Vec::new(),
        };
        for &c in &sk.container {
            let c = c as usize;
            let (r, d) = forest.root_of(c, &mut memo);
            sk.root.push(r as u32);
            sk.depth.push(d);
            sk.parent
                .push(forest.parent.get(c).copied().flatten().map(|p| p as u32));
        }
        sk.container_root = (0..forest.parent.len())
            .map(|c| forest.root_of(c, &mut memo).0 as u32)
            .collect();
        sk
    }
}

/// One message as [`thread`] reads it.
#[derive(Debug, Clone, Copy)]
pub struct ThreadMsg<'a> {
    /// Message-ID.
    pub message_id: &'a str,
    /// In-Reply-To.
    pub in_reply_to: Option<&'a str>,
    /// References, oldest first.
    pub references: &'a [String],
    /// Subject as sent.
    pub subject: &'a str,
    /// Date (Unix seconds).
    pub date: Option<i64>,
}

/// Threads messages held in memory: the [`Skeleton`] of `msgs`, in order.
pub fn thread(msgs: &[ThreadMsg<'_>]) -> Skeleton {
    let mut b = SkeletonBuilder::default();
    for m in msgs {
        b.add(
            HeaderRow {
                message_id: m.message_id,
                in_reply_to: m.in_reply_to,
                date: m.date,
            },
            m.references.iter().map(|s| s.as_str()),
        );
    }
    let mut s = b.link();
    for (i, m) in msgs.iter().enumerate() {
        s.subject(i, m.subject);
    }
    s.finish()
}

/// The reference chain of a message: its References (empty ones already
/// left out by the caller), then In-Reply-To when it is not already last,
/// never the message itself. Generic so that strings and interned ids give
/// the same chain.
fn chain<T: Copy + PartialEq>(
    refs: impl Iterator<Item = T>,
    in_reply_to: Option<T>,
    me: T,
) -> Vec<T> {
    let mut chain: Vec<T> = refs.collect();
    if let Some(irt) = in_reply_to
        && chain.last() != Some(&irt)
    {
        chain.retain(|r| *r != irt);
        chain.push(irt);
    }
    chain.retain(|r| *r != me);
    chain
}

/// The container forest of JWZ threading: `parent[c]` of every container
/// (a Message-ID seen as a message or as a reference), by index.
#[derive(Debug, Clone, Default)]
struct Forest {
    /// Parent container of each container.
    pub parent: Vec<Option<usize>>,
}

impl Forest {
    /// Makes sure container `c` exists.
    pub fn ensure(&mut self, c: usize) {
        if self.parent.len() <= c {
            self.parent.resize(c + 1, None);
        }
    }

    /// Is `anc` an ancestor of (or equal to) `node`?
    pub fn reaches(&self, node: usize, anc: usize) -> bool {
        let parent = &self.parent;
        let mut cur = Some(node);
        let mut steps = 0usize;
        while let Some(c) = cur {
            if c == anc {
                return true;
            }
            steps += 1;
            if steps > parent.len() {
                return true; // a loop already: treat as reaching, to refuse the link
            }
            cur = parent.get(c).copied().flatten();
        }
        false
    }

    /// The root above `node` (`None` on a loop).
    fn root_above(&self, node: usize) -> Option<usize> {
        let mut cur = node;
        for _ in 0..=self.parent.len() {
            match self.parent.get(cur).copied().flatten() {
                Some(p) => cur = p,
                None => return Some(cur),
            }
        }
        None
    }

    /// Links the reference chain of message container `me` (see [`chain`]):
    /// never overriding a known parent and never looping; then the message's
    /// own parent is its last reference, which overrides.
    ///
    /// A container without a parent is a root, so it is an ancestor of the
    /// previous reference exactly when it is that one's root: the root of
    /// the chain so far is carried along (found by a walk only at the start
    /// and after a reference whose known parent is not the previous one).
    pub fn link(&mut self, me: usize, chain: &[usize]) {
        self.ensure(me);
        for &c in chain {
            self.ensure(c);
        }
        let mut prev: Option<usize> = None;
        // The root of `prev`, when known.
        let mut prev_root: Option<usize> = None;
        for &c in chain {
            if let Some(p) = prev {
                match self.parent[c] {
                    None => {
                        let root = prev_root.or_else(|| self.root_above(p));
                        match root {
                            Some(r) if r != c => {
                                self.parent[c] = Some(p);
                                prev_root = Some(r);
                            }
                            // `c` is the root above `p`: linking would loop.
                            Some(_) => prev_root = Some(c),
                            None => prev_root = None,
                        }
                    }
                    Some(q) if q == p => {}
                    Some(_) => prev_root = None,
                }
            }
            prev = Some(c);
        }
        if let Some(p) = prev {
            if !self.reaches(p, me) {
                self.parent[me] = Some(p);
            } else {
                // Break the loop: detach p's ancestry at `me`, then link.
                let mut cur = Some(p);
                let mut steps = 0usize;
                while let Some(c) = cur {
                    steps += 1;
                    if steps > self.parent.len() {
                        break;
                    }
                    if self.parent[c] == Some(me) {
                        self.parent[c] = None;
                        break;
                    }
                    cur = self.parent[c];
                }
                if !self.reaches(p, me) {
                    self.parent[me] = Some(p);
                }
            }
        }
    }

    /// Subject fallback, first pass: offers a parentless, non-reply message
    /// as the root of its normalised subject. The earliest root wins; ties go
    /// to the smallest Message-ID, so the choice does not depend on arrival order.
    pub fn offer_root<'a>(
        &self,
        roots: &mut HashMap<String, (Option<i64>, usize)>,
        c: usize,
        subject: &str,
        date: Option<i64>,
        message_id: &str,
        id_of: impl Fn(usize) -> &'a str,
    ) {
        if self.parent.get(c).copied().flatten().is_none() && !is_reply(subject) {
            let key = thread_key(subject);
            if key.is_empty() {
                return;
            }
            let d = date.unwrap_or(i64::MAX);
            let e = roots.entry(key).or_insert((date, c));
            if (d, message_id) < (e.0.unwrap_or(i64::MAX), id_of(e.1)) {
                *e = (date, c);
            }
        }
    }

    /// True when the subject fallback's second pass may hang this message.
    pub fn wants_subject_parent(&self, c: usize, no_refs: bool, subject: &str) -> bool {
        self.parent.get(c).copied().flatten().is_none() && no_refs && is_reply(subject)
    }

    /// Subject fallback, second pass: hangs a reference-less `Re:` under the
    /// root of its normalised subject (`key`).
    pub fn hang_reply(
        &mut self,
        roots: &HashMap<String, (Option<i64>, usize)>,
        c: usize,
        key: &str,
    ) {
        if self.parent.get(c).copied().flatten().is_some() {
            return;
        }
        if let Some(&(_, root)) = roots.get(key)
            && root != c
            && !self.reaches(root, c)
        {
            self.ensure(c);
            self.parent[c] = Some(root);
        }
    }

    /// Root and depth of container `c`, memoised in `memo` (one slot per container).
    pub fn root_of(&self, c: usize, memo: &mut [Option<(usize, u32)>]) -> (usize, u32) {
        root_of(c, &self.parent, memo)
    }
}

fn root_of(c: usize, parent: &[Option<usize>], memo: &mut [Option<(usize, u32)>]) -> (usize, u32) {
    let mut path = Vec::new();
    let mut cur = c;
    let base = loop {
        if let Some(known) = memo[cur] {
            break known;
        }
        match parent[cur] {
            Some(p) if path.len() < parent.len() => {
                path.push(cur);
                cur = p;
            }
            _ => {
                memo[cur] = Some((cur, 0));
                break (cur, 0);
            }
        }
    };
    let (r, mut d) = base;
    while let Some(x) = path.pop() {
        d += 1;
        memo[x] = Some((r, d));
    }
    memo[c].unwrap_or(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m<'a>(
        id: &'a str,
        irt: Option<&'a str>,
        refs: &'a [String],
        subj: &'a str,
    ) -> ThreadMsg<'a> {
        ThreadMsg {
            message_id: id,
            in_reply_to: irt,
            references: refs,
            subject: subj,
            date: None,
        }
    }

    #[test]
    fn a_reply_that_arrives_before_its_parent_is_attached_to_it() {
        let none: Vec<String> = vec![];
        let r1 = vec!["a".to_string()];
        let msgs = [m("b", Some("a"), &r1, "Re: x"), m("a", None, &none, "x")];
        let t = thread(&msgs);
        assert_eq!(t.info(0).root_id, "a");
        assert_eq!(t.info(0).parent_id.as_deref(), Some("a"));
        assert_eq!(t.info(0).depth, 1);
        assert_eq!(t.info(1).depth, 0);
    }

    #[test]
    fn a_missing_parent_becomes_a_placeholder_root() {
        let refs = vec!["root".to_string(), "mid".to_string()];
        let msgs = [m("c", Some("mid"), &refs, "Re: y")];
        let t = thread(&msgs);
        assert_eq!(t.info(0).root_id, "root");
        assert_eq!(t.info(0).depth, 2);
    }

    #[test]
    fn reference_loops_are_broken() {
        let ra = vec!["b".to_string()];
        let rb = vec!["a".to_string()];
        let msgs = [m("a", Some("b"), &ra, "p"), m("b", Some("a"), &rb, "q")];
        let t = thread(&msgs);
        // One of them must be the root of both.
        assert_eq!(t.info(0).root_id, t.info(1).root_id);
        assert!((0..2).any(|i| t.info(i).depth == 0));
    }

    #[test]
    fn messages_without_headers_thread_by_normalised_subject() {
        let none: Vec<String> = vec![];
        let msgs = [
            m(
                "r",
                None,
                &none,
                "[ext4]  05c2c00f37:  aim7.jobs-per-min -11.8% regression",
            ),
            m(
                "x",
                None,
                &none,
                "Re: [LKP] [ext4] 05c2c00f37: aim7.jobs-per-min -11.8% regression",
            ),
        ];
        let t = thread(&msgs);
        assert_eq!(t.info(1).root_id, "r");
    }

    #[test]
    fn a_message_contributes_its_last_distinct_references() {
        let ids: Vec<String> = (0..1000).map(|i| format!("r{}", i % 600)).collect();
        let got = recent_references(ids.iter().map(|s| s.as_str()));
        assert_eq!(got.len(), MAX_REFERENCES);
        assert_eq!(got.last(), Some(&"r399"));
        assert_eq!(
            got.first().copied(),
            Some(format!("r{}", 400 - MAX_REFERENCES).as_str())
        );
        let refs: Vec<String> = (0..10_000).map(|i| format!("r{i}")).collect();
        let t = thread(&[m("me", Some("r9999"), &refs, "Re: x")]);
        assert_eq!(t.info(0).depth as usize, MAX_REFERENCES);
        assert_eq!(t.info(0).root_id, format!("r{}", 10_000 - MAX_REFERENCES));
    }

    /// The references kept, by the definition: the last `MAX_REFERENCES`
    /// distinct non-empty ids, each at its last place.
    fn by_definition(refs: &[String]) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        let mut out: Vec<&str> = refs
            .iter()
            .rev()
            .map(String::as_str)
            .filter(|r| !r.is_empty() && seen.insert(*r))
            .take(MAX_REFERENCES)
            .collect();
        out.reverse();
        out
    }

    proptest::proptest! {
        #[test]
        fn recent_references_keep_the_last_distinct_ids(
            picks in proptest::collection::vec(0usize..40, 0..80),
            many in proptest::collection::vec(0usize..400, 0..600),
        ) {
            // Few distinct ids (repeats within and past the compared prefix)
            // and many (past the set's threshold and `MAX_REFERENCES`).
            for ids in [&picks, &many] {
                let refs: Vec<String> = ids
                    .iter()
                    .map(|&i| if i == 0 { String::new() } else { format!("<r{i}@x>") })
                    .collect();
                let got = recent_references(refs.iter().map(String::as_str));
                proptest::prop_assert_eq!(got, by_definition(&refs));
            }
        }
    }

    #[test]
    fn a_builder_sized_ahead_threads_like_one_that_grows() {
        let rows: Vec<(String, Option<String>, Vec<String>)> = (0..300)
            .map(|i| {
                let refs: Vec<String> = (0..i % 7).map(|k| format!("m{}", i / 7 * 7 + k)).collect();
                (format!("m{i}"), refs.last().cloned(), refs)
            })
            .collect();
        let build = |mut b: SkeletonBuilder| {
            for (id, irt, refs) in &rows {
                let row = HeaderRow {
                    message_id: id,
                    in_reply_to: irt.as_deref(),
                    date: None,
                };
                b.add(row, refs.iter().map(String::as_str));
            }
            let s = b.link().finish();
            (0..s.len()).map(|i| s.info(i)).collect::<Vec<_>>()
        };
        let grown = build(SkeletonBuilder::default());
        assert_eq!(grown, build(SkeletonBuilder::with_capacity(3)));
        assert_eq!(grown, build(SkeletonBuilder::with_capacity(100_000)));
        assert_eq!(grown[20].root_id, "m14");
        assert_eq!(grown[20].depth, 6);
    }
}
