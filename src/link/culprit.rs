//! Culprit identity: short and full ids of one commit are one culprit.
//!
//! Reports name a commit by a 10-12 hex prefix in the subject and by the full
//! 40 hex id in the body; `Fixes:` tags use 12-13 hex. Two ids are the same
//! commit when the shorter (at least 7 hex) is a prefix of the longer. A short
//! id that is a prefix of two different longer ids is ambiguous: it stays a
//! culprit of its own and the candidates are reported.

use std::collections::{BTreeSet, HashMap};

/// Shortest abbreviation accepted as a commit id.
pub const MIN_ABBREV: usize = 7;

/// True for 7 to 40 hex digits.
pub fn is_hex_id(s: &str) -> bool {
    (MIN_ABBREV..=40).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Lower-cases hex ids; other tags (`v6.2-rc3`) are kept as written.
pub fn canonical_form(s: &str) -> String {
    let t = s.trim();
    if is_hex_id(t) {
        t.to_ascii_lowercase()
    } else {
        t.to_string()
    }
}

/// True when `a` and `b` name the same commit (one a prefix of the other, both at least 7 hex).
///
/// ```
/// use regtrack::link::culprit::same_commit;
/// assert!(same_commit("6a3afb6ac6", "6a3afb6ac6362d3a4e4e6e7c3e9ff8b1b1b3b4f1"));
/// assert!(same_commit("6A3AFB6", "6a3afb6ac6"));
/// assert!(!same_commit("6a3afb", "6a3afb6ac6"));
/// ```
pub fn same_commit(a: &str, b: &str) -> bool {
    if !is_hex_id(a) || !is_hex_id(b) {
        return !a.is_empty() && a == b;
    }
    let (s, l) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    l.get(..s.len()).is_some_and(|p| p.eq_ignore_ascii_case(s))
}

/// Values found by commit id: [`IdIndex::matching`] gives those whose id
/// is [`same_commit`] with a hex id asked for, by binary search over the
/// ids sorted, so that a link with thousands of ids that share their first
/// digits asks in time that grows with the matches, not with the ids.
#[derive(Debug, Clone)]
pub struct IdIndex<T> {
    sorted: Vec<(String, T)>,
}

impl<T: Copy> IdIndex<T> {
    /// Indexes the hex ids of `pairs` (others are left out: [`same_commit`]
    /// pairs a hex id with none of them).
    pub fn new(pairs: impl IntoIterator<Item = (String, T)>) -> IdIndex<T> {
        let mut sorted: Vec<(String, T)> = pairs
            .into_iter()
            .filter(|(id, _)| is_hex_id(id))
            .map(|(id, v)| (id.to_ascii_lowercase(), v))
            .collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        IdIndex { sorted }
    }

    /// The values whose id is the same commit as hex id `id`: the ids it
    /// begins (an abbreviation of it) and the ids beginning with it, in the
    /// ids' order (none when `id` is not a hex id).
    pub fn matching(&self, id: &str) -> Vec<T> {
        if !is_hex_id(id) {
            return Vec::new();
        }
        let q = id.to_ascii_lowercase();
        let mut out = Vec::new();
        for len in MIN_ABBREV..q.len() {
            let short = &q[..len];
            let at = self.sorted.partition_point(|(s, _)| s.as_str() < short);
            out.extend(
                self.sorted[at..]
                    .iter()
                    .take_while(|(s, _)| s == short)
                    .map(|(_, v)| *v),
            );
        }
        let at = self
            .sorted
            .partition_point(|(s, _)| s.as_str() < q.as_str());
        out.extend(
            self.sorted[at..]
                .iter()
                .take_while(|(s, _)| s.starts_with(q.as_str()))
                .map(|(_, v)| *v),
        );
        out
    }
}

/// The grouping of every culprit id seen into culprits.
#[derive(Debug, Default, Clone)]
pub struct Culprits {
    /// id (canonical form) -> the culprit's key (its longest unambiguous id).
    pub key: HashMap<String, String>,
    /// ids that are prefixes of several different commits, with the candidates.
    pub ambiguous: HashMap<String, Vec<String>>,
}

impl Culprits {
    /// Groups `ids` (any abbreviation length) into culprits.
    pub fn group<'a>(ids: impl IntoIterator<Item = &'a str>) -> Culprits {
        let set: BTreeSet<String> = ids
            .into_iter()
            .map(canonical_form)
            .filter(|s| !s.is_empty())
            .collect();
        let sorted: Vec<&String> = set.iter().collect();
        let mut out = Culprits::default();
        for (i, id) in sorted.iter().enumerate() {
            if !is_hex_id(id) {
                out.key.insert((*id).clone(), (*id).clone());
                continue;
            }
            // Longer ids with this prefix follow it directly in sorted order.
            let mut maximal: Vec<&String> = Vec::new();
            let mut j = i + 1;
            let mut extenders: Vec<&String> = Vec::new();
            while let Some(next) = sorted.get(j) {
                if !next.starts_with(id.as_str()) {
                    break;
                }
                extenders.push(next);
                j += 1;
            }
            for (k, e) in extenders.iter().enumerate() {
                let is_max = !extenders
                    .iter()
                    .skip(k + 1)
                    .any(|o| o.starts_with(e.as_str()));
                if is_max {
                    maximal.push(e);
                }
            }
            match maximal.len() {
                0 => {
                    out.key.insert((*id).clone(), (*id).clone());
                }
                1 => {
                    out.key.insert((*id).clone(), maximal[0].clone());
                }
                _ => {
                    out.key.insert((*id).clone(), (*id).clone());
                    out.ambiguous.insert(
                        (*id).clone(),
                        maximal.iter().map(|s| (*s).clone()).collect(),
                    );
                }
            }
        }
        out
    }

    /// The culprit key of `id`, if `id` was grouped.
    pub fn key_of(&self, id: &str) -> Option<&str> {
        self.key.get(&canonical_form(id)).map(|s| s.as_str())
    }

    /// Resolves any abbreviation (e.g. a `Fixes:` id) to the culprit keys it may name.
    pub fn resolve<'a>(&'a self, id: &str, keys: &'a [String]) -> Vec<&'a str> {
        let id = canonical_form(id);
        if !is_hex_id(&id) {
            return keys
                .iter()
                .filter(|k| **k == id)
                .map(|k| k.as_str())
                .collect();
        }
        keys.iter()
            .filter(|k| same_commit(k, &id))
            .map(|k| k.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_index_finds_what_same_commit_pairs_and_nothing_else() {
        let ids = [
            "6a3afb6",
            "6a3afb6ac6",
            "6A3AFB6AC6362D3A4E4E6E7C3E9FF8B1B1B3B4F1",
            "6a3afb6ad0",
            "0000000abc",
            "0000000abd",
            "v6.2-rc3",
            "6a3afb",
        ];
        let index = IdIndex::new(ids.iter().enumerate().map(|(i, s)| (s.to_string(), i)));
        for q in [
            "6a3afb6ac63",
            "6a3afb6",
            "0000000ab",
            "0000000abc",
            "6a3afb6ad0ff",
            "ffffff0",
        ] {
            let mut got = index.matching(q);
            got.sort_unstable();
            let want: Vec<usize> = (0..ids.len()).filter(|&i| same_commit(ids[i], q)).collect();
            assert_eq!(got, want, "{q}");
        }
        assert_eq!(index.matching("6a3afb6ac63")[..], [0, 1, 2]);
        assert!(index.matching("v6.2-rc3").is_empty());
    }

    #[test]
    fn short_and_full_ids_of_one_commit_are_one_culprit() {
        let c = Culprits::group([
            "6a3afb6ac6",
            "6a3afb6ac6362d3a4e4e6e7c3e9ff8b1b1b3b4f1",
            "6A3AFB6AC636",
        ]);
        let full = "6a3afb6ac6362d3a4e4e6e7c3e9ff8b1b1b3b4f1";
        assert_eq!(c.key_of("6a3afb6ac6"), Some(full));
        assert_eq!(c.key_of("6a3afb6ac636"), Some(full));
        assert_eq!(c.key_of(full), Some(full));
        assert!(c.ambiguous.is_empty());
    }

    #[test]
    fn a_prefix_of_two_commits_is_reported_as_ambiguous() {
        let c = Culprits::group(["abcdef1234", "abcdef1234aaaa", "abcdef1234bbbb"]);
        assert_eq!(c.key_of("abcdef1234"), Some("abcdef1234"));
        let cands = c.ambiguous.get("abcdef1234").expect("ambiguous");
        assert_eq!(cands.len(), 2);
        assert_eq!(c.key_of("abcdef1234aaaa"), Some("abcdef1234aaaa"));
    }

    #[test]
    fn tags_only_match_themselves() {
        let c = Culprits::group(["v6.2-rc3"]);
        assert_eq!(c.key_of("v6.2-rc3"), Some("v6.2-rc3"));
        assert!(!same_commit("v6.2", "v6.2-rc3"));
    }
}
