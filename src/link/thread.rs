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

/// Threads `msgs`; returns one [`ThreadInfo`] per message, in the same order.
pub fn thread(msgs: &[ThreadMsg<'_>]) -> Vec<ThreadInfo> {
    // Containers: index by id.
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(msgs.len() * 2);
    let mut ids: Vec<&str> = Vec::with_capacity(msgs.len() * 2);
    let mut parent: Vec<Option<usize>> = Vec::with_capacity(msgs.len() * 2);
    let mut has_msg: Vec<bool> = Vec::with_capacity(msgs.len() * 2);

    fn container<'a>(
        id: &'a str,
        index: &mut HashMap<&'a str, usize>,
        ids: &mut Vec<&'a str>,
        parent: &mut Vec<Option<usize>>,
        has_msg: &mut Vec<bool>,
    ) -> usize {
        if let Some(&i) = index.get(id) {
            return i;
        }
        let i = ids.len();
        ids.push(id);
        parent.push(None);
        has_msg.push(false);
        index.insert(id, i);
        i
    }

    // Is `anc` an ancestor of (or equal to) `node`?
    fn reaches(parent: &[Option<usize>], node: usize, anc: usize) -> bool {
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

    let mut msg_container = Vec::with_capacity(msgs.len());
    for m in msgs {
        let c = container(
            m.message_id,
            &mut index,
            &mut ids,
            &mut parent,
            &mut has_msg,
        );
        if let Some(h) = has_msg.get_mut(c) {
            *h = true;
        }
        msg_container.push(c);
    }

    for (mi, m) in msgs.iter().enumerate() {
        let me = msg_container[mi];
        let mut chain: Vec<&str> = m
            .references
            .iter()
            .map(|s| s.as_str())
            .filter(|s| !s.is_empty())
            .collect();
        if let Some(irt) = m.in_reply_to.filter(|s| !s.is_empty())
            && chain.last() != Some(&irt)
        {
            chain.retain(|r| *r != irt);
            chain.push(irt);
        }
        chain.retain(|r| *r != m.message_id);
        // Link the references chain, never overriding a known parent and never looping.
        let mut prev: Option<usize> = None;
        for r in &chain {
            let c = container(r, &mut index, &mut ids, &mut parent, &mut has_msg);
            if let Some(p) = prev
                && parent[c].is_none()
                && !reaches(&parent, p, c)
            {
                parent[c] = Some(p);
            }
            prev = Some(c);
        }
        // The message's own parent is its last reference: it overrides.
        if let Some(p) = prev {
            if !reaches(&parent, p, me) {
                parent[me] = Some(p);
            } else {
                // Break the loop: detach p's ancestry at `me`, then link.
                let mut cur = Some(p);
                let mut steps = 0usize;
                while let Some(c) = cur {
                    steps += 1;
                    if steps > parent.len() {
                        break;
                    }
                    if parent[c] == Some(me) {
                        parent[c] = None;
                        break;
                    }
                    cur = parent[c];
                }
                if !reaches(&parent, p, me) {
                    parent[me] = Some(p);
                }
            }
        }
    }

    // Subject fallback for messages without any reference.
    let mut roots_by_subject: HashMap<String, (Option<i64>, usize)> = HashMap::new();
    for (mi, m) in msgs.iter().enumerate() {
        let c = msg_container[mi];
        if parent[c].is_none() && !is_reply_subject(m.subject) {
            let key = normalize_subject(m.subject);
            if key.is_empty() {
                continue;
            }
            // The earliest root wins; ties go to the smallest Message-ID, so the
            // choice does not depend on arrival order.
            let d = m.date.unwrap_or(i64::MAX);
            let e = roots_by_subject.entry(key).or_insert((m.date, c));
            if (d, m.message_id) < (e.0.unwrap_or(i64::MAX), ids[e.1]) {
                *e = (m.date, c);
            }
        }
    }
    for (mi, m) in msgs.iter().enumerate() {
        let c = msg_container[mi];
        let no_refs = m.references.is_empty() && m.in_reply_to.is_none_or(|s| s.is_empty());
        if parent[c].is_none() && no_refs && is_reply_subject(m.subject) {
            let key = normalize_subject(m.subject);
            if let Some(&(_, root)) = roots_by_subject.get(&key)
                && root != c
                && !reaches(&parent, root, c)
            {
                parent[c] = Some(root);
            }
        }
    }

    // Roots and depths, memoised.
    let n = ids.len();
    let mut root: Vec<Option<(usize, u32)>> = vec![None; n];
    let mut out = Vec::with_capacity(msgs.len());
    for &c in &msg_container {
        let (r, d) = root_of(c, &parent, &mut root);
        out.push(ThreadInfo {
            root_id: ids[r].to_string(),
            parent_id: parent[c].map(|p| ids[p].to_string()),
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
