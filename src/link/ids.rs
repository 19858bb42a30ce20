//! Which id each history gets when it is stored: a culprit keeps its id
//! from one link to the next. Pure: the stored ids in (read by the store),
//! the ids out; the store writes them.

use std::collections::{HashMap, HashSet};

use super::culprit::same_commit;

/// The ids stored before a link, as [`assign`] reads them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoredIds {
    /// Every stored history: its id and culprit key.
    pub live: Vec<(i64, String)>,
    /// The stored histories this link replaces, by id (`None`: all of
    /// them); the others are kept, and so are their ids.
    pub replaced: Option<Vec<i64>>,
    /// The largest id ever given (ids of histories that went are not given
    /// again).
    pub given_max: i64,
    /// The id each culprit id was last given under, for the culprit ids of
    /// the histories being stored (the others need not be there).
    pub given: HashMap<String, i64>,
}

/// The id of each history (`names`: the ids its culprit goes by, key
/// first; in the order the histories are stored), given what is stored:
/// - a history whose culprit key is that of a replaced one takes its id;
/// - else the id its key was last given, unless a kept history holds it
///   (the culprit's history went: it joined another as a duplicate, or a
///   link in steps left it);
/// - else the id of a replaced history whose key is one of its ids (a
///   longer id became known, or another tree's id of it took the lead);
/// - else the id one of its other ids was last given, as for the key;
/// - else a new id, past every id ever given.
///
/// No two histories get one id; earlier histories choose first.
pub fn assign(names: &[Vec<&str>], stored: &StoredIds) -> Vec<i64> {
    let live: HashSet<i64> = stored.live.iter().map(|(i, _)| *i).collect();
    let old: Vec<&(i64, String)> = match &stored.replaced {
        Some(ids) => {
            let ids: HashSet<i64> = ids.iter().copied().collect();
            stored
                .live
                .iter()
                .filter(|(i, _)| ids.contains(i))
                .collect()
        }
        None => stored.live.iter().collect(),
    };
    let old_exact: HashMap<&str, i64> = old.iter().map(|(i, c)| (c.as_str(), *i)).collect();
    let old_ids: HashSet<i64> = old.iter().map(|(i, _)| *i).collect();
    let mut next_id = stored
        .live
        .iter()
        .map(|(i, _)| *i)
        .max()
        .unwrap_or(0)
        .max(stored.given_max)
        + 1;
    let mut used: HashSet<i64> = HashSet::new();
    let mut assigned: Vec<i64> = Vec::with_capacity(names.len());
    for names in names {
        let key = names.first().copied().unwrap_or("");
        let former = |n: &str, used: &HashSet<i64>| {
            stored
                .given
                .get(n)
                .copied()
                .filter(|i| !used.contains(i) && (!live.contains(i) || old_ids.contains(i)))
        };
        let mut id = old_exact.get(key).copied().filter(|i| !used.contains(i));
        if id.is_none() {
            id = former(key, &used);
        }
        if id.is_none() {
            id = old
                .iter()
                .find(|(i, c)| !used.contains(i) && names.iter().any(|n| same_commit(c, n)))
                .map(|(i, _)| *i);
        }
        for n in names.iter().skip(1) {
            if id.is_some() {
                break;
            }
            id = former(n, &used);
        }
        let id = id.unwrap_or_else(|| {
            next_id += 1;
            next_id - 1
        });
        used.insert(id);
        assigned.push(id);
    }
    assigned
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(live: &[(i64, &str)], replaced: Option<&[i64]>, given: &[(&str, i64)]) -> StoredIds {
        StoredIds {
            live: live.iter().map(|(i, c)| (*i, c.to_string())).collect(),
            replaced: replaced.map(<[i64]>::to_vec),
            given_max: given.iter().map(|(_, i)| *i).max().unwrap_or(0),
            given: given.iter().map(|(c, i)| (c.to_string(), *i)).collect(),
        }
    }

    #[test]
    fn a_first_link_numbers_the_histories_in_order_from_one() {
        let ids = assign(&[vec!["aaa111"], vec!["bbb222"]], &StoredIds::default());
        assert_eq!(ids, vec![1, 2]);
    }

    #[test]
    fn a_culprit_keeps_its_id_and_a_new_one_comes_after_every_id_given() {
        // 7 was given once (its history went); a new culprit never gets it.
        let s = stored(
            &[(3, "aaa111"), (5, "bbb222")],
            None,
            &[("aaa111", 3), ("bbb222", 5), ("ccc333", 7)],
        );
        let ids = assign(&[vec!["ddd444"], vec!["bbb222"], vec!["aaa111"]], &s);
        assert_eq!(ids, vec![8, 5, 3]);
    }

    #[test]
    fn a_longer_id_or_an_alias_that_took_the_lead_keeps_the_id() {
        // The stored key was the short id; now the full id leads.
        let s = stored(&[(4, "aaa1111")], None, &[("aaa1111", 4)]);
        assert_eq!(assign(&[vec!["aaa1111ffff"]], &s), vec![4]);
        // Another tree's id of the same patch now leads; the old key is an alias.
        let s = stored(&[(4, "aaa1111")], None, &[("aaa1111", 4)]);
        assert_eq!(assign(&[vec!["bbb2222", "aaa1111"]], &s), vec![4]);
    }

    #[test]
    fn a_culprit_whose_history_went_gets_its_former_id_back_unless_kept_elsewhere() {
        // `ccc333` was joined into another history as a duplicate and then
        // split off again: its former id 6 is free.
        let s = stored(&[(2, "aaa111")], None, &[("aaa111", 2), ("ccc333", 6)]);
        assert_eq!(assign(&[vec!["aaa111"], vec!["ccc333"]], &s), vec![2, 6]);
        // In an update that replaces only history 2, a kept history 6
        // keeps its id: the culprit formerly under 6 gets a new one.
        let s = stored(
            &[(2, "aaa111"), (6, "eee555")],
            Some(&[2]),
            &[("aaa111", 2), ("ccc333", 6), ("eee555", 6)],
        );
        assert_eq!(assign(&[vec!["aaa111"], vec!["ccc333"]], &s), vec![2, 7]);
    }

    #[test]
    fn no_two_histories_share_an_id() {
        // Two histories both named by the stored culprit: the first keeps
        // its id, the second gets a new one.
        let s = stored(&[(1, "aaa111")], None, &[("aaa111", 1)]);
        let ids = assign(&[vec!["aaa111"], vec!["bbb222", "aaa111"]], &s);
        assert_eq!(ids, vec![1, 2]);
    }
}
