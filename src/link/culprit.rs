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
