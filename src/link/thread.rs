//! JWZ-style threading over Message-ID, References and In-Reply-To.
//!
//! Every id seen (as a message or as a reference) gets a container. The
//! References chain links containers parent to child unless that would make a
//! loop; a message's own last reference (or In-Reply-To) is its parent and
//! overrides a parent guessed from another message's references. A missing
//! parent stays an empty placeholder, so a reply that arrives before its
//! parent is simply re-attached when the parent shows up (linking is
//! recomputed from the whole store). Messages without usable headers (the
//! archive-rendered seeds) fall back on the normalised subject: a `Re:` whose
//! subject matches a thread root's is hung under that root.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

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

/// What threading needs from a message.
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
    /// Date (Unix seconds), to pick the earliest root of a subject.
    pub date: Option<i64>,
}

static REPLY_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:(?:re|fw|fwd|aw|sv|antw)\s*(?:\[\d+\])?\s*:|\[[^\]]*\])\s*")
        .expect("reply prefix regex compiles")
});

/// Normalises a subject for the fallback: strips `Re:`/`Fwd:` and leading
/// `[...]` tags repeatedly, folds white space and lower-cases.
///
/// ```
/// use regtrack::link::thread::normalize_subject;
/// assert_eq!(
///     normalize_subject("Re: [LKP] [ext4]  05c2c00f37:  aim7.jobs-per-min -11.8%\n regression"),
///     normalize_subject("[ext4] 05c2c00f37: aim7.jobs-per-min -11.8% regression"),
/// );
/// ```
pub fn normalize_subject(subject: &str) -> String {
    let mut s = subject.trim();
    loop {
        match REPLY_PREFIX.find(s) {
            Some(m) if m.end() > 0 => s = s.get(m.end()..).unwrap_or(""),
            _ => break,
        }
    }
    crate::text::fold_ws(s).to_lowercase()
}

/// True when the subject starts with a reply or forward marker (after list tags).
pub fn is_reply_subject(subject: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:\[[^\]]*\]\s*)*(?:re|fw|fwd|aw|sv)\s*(?:\[\d+\])?\s*:")
            .expect("reply regex compiles")
    });
    RE.is_match(subject)
}

/// The reference chain of a message: its References (empty ones already
/// left out by the caller), then In-Reply-To when it is not already last,
/// never the message itself. Generic so that strings and interned ids give
/// the same chain.
pub(crate) fn chain<T: Copy + PartialEq>(
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
pub(crate) struct Forest {
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

    /// Links the reference chain of message container `me` (see [`chain`]):
    /// never overriding a known parent and never looping; then the message's
    /// own parent is its last reference, which overrides.
    pub fn link(&mut self, me: usize, chain: &[usize]) {
        self.ensure(me);
        for &c in chain {
            self.ensure(c);
        }
        let mut prev: Option<usize> = None;
        for &c in chain {
            if let Some(p) = prev
                && self.parent[c].is_none()
                && !self.reaches(p, c)
            {
                self.parent[c] = Some(p);
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
        if self.parent.get(c).copied().flatten().is_none() && !is_reply_subject(subject) {
            let key = normalize_subject(subject);
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
        self.parent.get(c).copied().flatten().is_none() && no_refs && is_reply_subject(subject)
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

/// Threads `msgs`; returns one [`ThreadInfo`] per message, in the same order.
pub fn thread(msgs: &[ThreadMsg<'_>]) -> Vec<ThreadInfo> {
    // Containers: index by id.
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(msgs.len() * 2);
    let mut ids: Vec<&str> = Vec::with_capacity(msgs.len() * 2);
    let mut forest = Forest::default();

    fn intern<'a>(
        id: &'a str,
        index: &mut HashMap<&'a str, usize>,
        ids: &mut Vec<&'a str>,
    ) -> usize {
        if let Some(&i) = index.get(id) {
            return i;
        }
        let i = ids.len();
        ids.push(id);
        index.insert(id, i);
        i
    }

    let mut msg_container = Vec::with_capacity(msgs.len());
    for m in msgs {
        msg_container.push(intern(m.message_id, &mut index, &mut ids));
    }
    forest.parent.resize(ids.len(), None);

    for (mi, m) in msgs.iter().enumerate() {
        let me = msg_container[mi];
        let refs = m
            .references
            .iter()
            .map(|s| s.as_str())
            .filter(|s| !s.is_empty());
        let strs = chain(refs, m.in_reply_to.filter(|s| !s.is_empty()), m.message_id);
        let ch: Vec<usize> = strs
            .into_iter()
            .map(|r| intern(r, &mut index, &mut ids))
            .collect();
        forest.link(me, &ch);
    }
    forest.parent.resize(ids.len(), None);

    // Subject fallback for messages without any reference.
    let mut roots_by_subject: HashMap<String, (Option<i64>, usize)> = HashMap::new();
    for (mi, m) in msgs.iter().enumerate() {
        forest.offer_root(
            &mut roots_by_subject,
            msg_container[mi],
            m.subject,
            m.date,
            m.message_id,
            |c| ids[c],
        );
    }
    for (mi, m) in msgs.iter().enumerate() {
        let c = msg_container[mi];
        let no_refs = m.references.is_empty() && m.in_reply_to.is_none_or(|s| s.is_empty());
        if forest.wants_subject_parent(c, no_refs, m.subject) {
            let key = normalize_subject(m.subject);
            forest.hang_reply(&roots_by_subject, c, &key);
        }
    }

    // Roots and depths, memoised.
    let n = ids.len();
    let mut root: Vec<Option<(usize, u32)>> = vec![None; n];
    let mut out = Vec::with_capacity(msgs.len());
    for &c in &msg_container {
        let (r, d) = forest.root_of(c, &mut root);
        out.push(ThreadInfo {
            root_id: ids[r].to_string(),
            parent_id: forest.parent[c].map(|p| ids[p].to_string()),
            depth: d,
        });
    }
    out
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
        assert_eq!(t[0].root_id, "a");
        assert_eq!(t[0].parent_id.as_deref(), Some("a"));
        assert_eq!(t[0].depth, 1);
        assert_eq!(t[1].depth, 0);
    }

    #[test]
    fn a_missing_parent_becomes_a_placeholder_root() {
        let refs = vec!["root".to_string(), "mid".to_string()];
        let msgs = [m("c", Some("mid"), &refs, "Re: y")];
        let t = thread(&msgs);
        assert_eq!(t[0].root_id, "root");
        assert_eq!(t[0].depth, 2);
    }

    #[test]
    fn reference_loops_are_broken() {
        let ra = vec!["b".to_string()];
        let rb = vec!["a".to_string()];
        let msgs = [m("a", Some("b"), &ra, "p"), m("b", Some("a"), &rb, "q")];
        let t = thread(&msgs);
        // One of them must be the root of both.
        assert_eq!(t[0].root_id, t[1].root_id);
        assert!(t.iter().any(|x| x.depth == 0));
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
        assert_eq!(t[1].root_id, "r");
    }
}
