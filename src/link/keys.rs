//! The keys by which a message can tie itself to other messages when
//! linking, besides its thread: what lets an update find every message the
//! new mail can change, by index lookups, without reading the archive.
//!
//! Two messages that share a key may be linked to one history; two that
//! share none, and no thread, never are (every rule of [`super::attach`],
//! [`super::patch`] and [`super::select`] relates messages through one of
//! these). Keys over-approximate: a shared key only says "look at both".
//!
//! | key | a message has it when it ... |
//! |---|---|
//! | `c:<7 hex>` | names a commit: a report's culprit (subject or body), a reply subject's culprit, a `Fixes:` id, a revert's id, a landing's commit, an earlier report's culprit in a preamble |
//! | `t:<title key>` | names a title: its patch's, a report's culprit title (or the one a reply naming that culprit in its subject quotes), a `Fixes:` title, a revert's title, a landing's title, a title its cover letter's shortlog lists |
//! | `n:<title key, one long word masked>` | has a patch title or a report's culprit title: one key per word of [`TYPO_WORD_MIN`] letters or more, so that titles a typo apart share one |
//! | `p:<patch id>` | carries a diff with this patch id |
//! | `b:<change-id>` | carries b4's `change-id:` (one change through its versions; read from its `patches` row, never stored in `link_keys`) |
//! | `i:<author> <identifier>` | is a patch posted on its own (no part of a series) whose title names a code identifier after its subsystem prefix ([`title_words`]: `jbd2_transaction_committed` of `jbd2: speed up jbd2_transaction_committed()`), with its author (address, else name, lower-cased): a later version whose title changed meets the earlier one ([`super::patch`]'s renamed versions) |
//! | `m:<Message-ID>` | points to a message: a `Closes:`/`Link:` trailer, a cited lore URL, an earlier report in a preamble |
//! | `s:<subject key>` | has no References or In-Reply-To: the threading fallback may hang it by subject |
//!
//! The keys of a message are a pure function of its subject, whether it
//! has references, its author and its extraction; the ingest stores them (table
//! `link_keys`), and the version of this function is part of
//! [`crate::extract::EXTRACTION_VERSION`]. Two keys of a patch are not
//! stored there but read from its `patches` row ([`implied_by_patch`],
//! [`stored`]): on four lists they were two in three `link_keys` rows, each a
//! copy of an indexed column.

use super::hints::{self, title_key};
use crate::model::{Extraction, PatchFacts};

/// Shortest commit prefix a key keeps (the shortest abbreviation accepted).
const COMMIT_KEY: usize = super::culprit::MIN_ABBREV;

/// The key of a commit id (its first 7 hex digits, lower-cased).
pub fn commit(id: &str) -> Option<String> {
    let id = id.trim();
    super::culprit::is_hex_id(id).then(|| format!("c:{}", id[..COMMIT_KEY].to_ascii_lowercase()))
}

pub use crate::mail::subject::MIN_TITLE_KEY;

/// The key of a title.
pub fn title(t: &str) -> Option<String> {
    let k = title_key(t);
    (k.len() >= MIN_TITLE_KEY).then(|| format!("t:{k}"))
}

/// Letters a word needs to be a typo of another (`rearrage`/`rearrange`):
/// shorter words differ in meaning (`fix`/`fox`).
pub const TYPO_WORD_MIN: usize = 5;

/// The keys of a title with one of its words of [`TYPO_WORD_MIN`] letters
/// or more masked (`n:memcg: * fields of mem_cgroup_per_node`): two titles
/// one typo apart, as `attach`'s `near_title` accepts them, share one.
pub fn near_titles(t: &str) -> Vec<String> {
    let k = title_key(t);
    if k.len() < MIN_TITLE_KEY {
        return Vec::new();
    }
    masked_titles(&k)
        .into_iter()
        .map(|m| format!("n:{m}"))
        .collect()
}

/// Title key `k` with one word of [`TYPO_WORD_MIN`] letters or more masked
/// (`*`), one for each such word; none for fewer than three words. Two keys
/// `attach`'s `near_title` accepts share one (a key holding a `*` word may
/// share one with others: a candidate, which `near_title` decides).
pub(crate) fn masked_titles(k: &str) -> Vec<String> {
    let words: Vec<&str> = k.split_whitespace().collect();
    if words.len() < 3 {
        return Vec::new();
    }
    (0..words.len())
        .filter(|&i| words[i].chars().count() >= TYPO_WORD_MIN)
        .map(|i| {
            let mut w = words.clone();
            w[i] = "*";
            w.join(" ")
        })
        .collect()
}

/// Shortest code identifier a title word must be to be a key
/// ([`title_words`]).
pub const IDENTIFIER_MIN: usize = 6;

/// The code identifiers a title names after its subsystem prefix
/// (`ext4/jbd2: drop jbd2_transaction_committed()` ->
/// `jbd2_transaction_committed`): words of [`IDENTIFIER_MIN`] bytes or
/// more, of letters, digits and `_`, holding a `_` or followed by `()`,
/// lower-cased, without duplicates. The prefix (`mm/page_alloc:`) names a
/// place every patch there shares, not what one changes.
pub fn title_words(t: &str) -> Vec<String> {
    let k = title_key(t);
    let body = k.split_once(": ").map_or(k.as_str(), |(_, b)| b);
    let mut out: Vec<String> = Vec::new();
    for raw in body.split(|c: char| c.is_whitespace() || c == ',' || c == '/') {
        let call = raw.contains("()");
        let w = raw.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
        let w = w.split('(').next().unwrap_or("");
        let ident = !w.is_empty()
            && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && w.bytes().any(|b| b.is_ascii_alphabetic());
        if ident
            && w.len() >= IDENTIFIER_MIN
            && (w.contains('_') || call)
            && !out.iter().any(|o| o == w)
        {
            out.push(w.to_string());
        }
    }
    out
}

/// True for a patch posted on its own: no `n/m` part of a series, no
/// cover letter (`0/m`).
pub fn posted_alone(p: &PatchFacts) -> bool {
    p.part.is_none()
}

/// The `i:` keys of a patch posted on its own by `author` (see the module
/// docs, [`posted_alone`]): none for a part of a series or a cover letter.
pub fn words(p: &PatchFacts, author: &str) -> Vec<String> {
    if !posted_alone(p) || author.is_empty() {
        return Vec::new();
    }
    title_words(&p.title)
        .into_iter()
        .map(|w| format!("i:{author} {w}"))
        .collect()
}

/// The key of a message a message points to.
pub fn message(id: &str) -> String {
    format!("m:{}", id.trim_matches(['<', '>']))
}

/// The key of a subject for the threading fallback.
pub fn subject(s: &str) -> Option<String> {
    let k = crate::mail::subject::thread_key(s);
    (!k.is_empty()).then(|| format!("s:{k}"))
}

/// Every key of a message (see the module docs), sorted, without
/// duplicates; `author` as [`super::patch`] compares posters (address,
/// else name, lower-cased).
pub fn of(subject_line: &str, refless: bool, author: &str, ex: &Extraction) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |k: Option<String>| {
        if let Some(k) = k {
            out.push(k);
        }
    };
    if let Some(sr) = &ex.subject_report {
        push(commit(&sr.commit));
        // A reply quoting the report: the culprit's title (`attach`'s
        // groups join ids by it).
        for c in &ex.commits {
            if super::culprit::same_commit(&c.id, &sr.commit)
                && let Some(t) = &c.title
            {
                push(title(t));
            }
        }
    }
    if let Some(b) = &ex.report {
        if let Some(c) = &b.commit_full {
            push(commit(c));
        }
        if let Some(t) = &b.commit_title {
            push(title(t));
            for k in near_titles(t) {
                push(Some(k));
            }
        }
        for p in &b.previous {
            if let Some(c) = &p.commit {
                push(commit(c));
            }
            if let Some(m) = &p.message_id {
                push(Some(message(m)));
            }
        }
    }
    for t in &ex.trailers {
        if let Some(id) = hints::trailer_target(t) {
            push(Some(message(&id)));
        }
        if t.key.eq_ignore_ascii_case("fixes") && t.quote_depth == 0 && !t.suggested {
            if let Some(id) = hints::fixes_id(t) {
                push(commit(&id));
            }
            if let Some(x) = &t.title {
                push(title(x));
            }
        }
    }
    for l in &ex.lore_links {
        push(Some(message(&hints::cited_target(l))));
    }
    if let Some(p) = &ex.patch {
        if !p.title.is_empty() {
            push(title(&p.title));
            for k in near_titles(&p.title).into_iter().chain(words(p, author)) {
                push(Some(k));
            }
        }
        if let Some(id) = &p.patch_id {
            push(Some(format!("p:{id}")));
        }
        if let Some(r) = &p.reverts {
            push(commit(r));
        }
        if let Some(r) = &p.reverts_title {
            push((r.len() >= MIN_TITLE_KEY).then(|| format!("t:{r}")));
        }
        // A cover letter's shortlog: a reply applying the series lands
        // every part it lists.
        for t in &p.series_titles {
            push((t.len() >= MIN_TITLE_KEY).then(|| format!("t:{t}")));
        }
    }
    if let Some(r) = hints::revert_title(subject_line) {
        push((r.len() >= MIN_TITLE_KEY).then(|| format!("t:{r}")));
    }
    for l in &ex.landings {
        if let Some(c) = &l.commit {
            push(commit(c));
        }
        if let Some(t) = &l.title {
            push((t.len() >= MIN_TITLE_KEY).then(|| format!("t:{t}")));
        }
    }
    if refless {
        push(subject(subject_line));
    }
    out.sort();
    out.dedup();
    out
}

/// The keys a message's `patches` row implies: `p:` and its patch id, and
/// `t:` and its title key when that has [`MIN_TITLE_KEY`] bytes or more (the columns
/// `patch_id` and `title_key`; [`crate::store::links`] reads them there).
/// The title's key in [`of`] is the second but for a title its subject
/// tags would cut again: then the message has both (keys may
/// over-approximate).
pub fn implied_by_patch(p: &PatchFacts) -> impl Iterator<Item = String> + '_ {
    let id = p.patch_id.as_ref().map(|id| format!("p:{id}"));
    let title = (p.title_key.len() >= MIN_TITLE_KEY).then(|| format!("t:{}", p.title_key));
    id.into_iter().chain(title)
}

/// The keys of a message that `link_keys` stores: [`of`] less those its
/// patch implies ([`implied_by_patch`]), which its `patches` row gives.
pub fn stored(subject_line: &str, refless: bool, author: &str, ex: &Extraction) -> Vec<String> {
    let mut keys = of(subject_line, refless, author, ex);
    if let Some(p) = &ex.patch {
        for k in implied_by_patch(p) {
            if let Ok(at) = keys.binary_search(&k) {
                keys.remove(at);
            }
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Landing, SubjectReport, Trailer};

    #[test]
    fn a_fix_and_its_report_share_keys() {
        let report = Extraction {
            subject_report: Some(Box::new(SubjectReport {
                commit: "2edf06a50f".into(),
                ..SubjectReport::default()
            })),
            ..Extraction::default()
        };
        let fix = Extraction {
            trailers: vec![Trailer {
                key: "Fixes".into(),
                value: "2edf06a50f5c (\"xfs: speed it up\")".into(),
                commit: Some("2edf06a50f5c".into()),
                title: Some("xfs: speed it up".into()),
                ..Trailer::default()
            }],
            patch: Some(Box::new(PatchFacts {
                title: "xfs: fix the slow path".into(),
                patch_id: Some("ab".into()),
                ..PatchFacts::default()
            })),
            ..Extraction::default()
        };
        let landing = Extraction {
            landings: vec![Landing {
                title: Some("xfs: fix the slow path".into()),
                ..Landing::default()
            }],
            ..Extraction::default()
        };
        let (r, f, l) = (
            of("[xfs] 2edf06a50f: x", false, "a@x", &report),
            of("[PATCH] xfs: fix the slow path", false, "a@x", &fix),
            of("[GIT PULL] xfs", false, "a@x", &landing),
        );
        assert!(r.contains(&"c:2edf06a".to_string()));
        assert!(f.contains(&"c:2edf06a".to_string()));
        assert!(f.contains(&"t:xfs: fix the slow path".to_string()));
        assert!(l.contains(&"t:xfs: fix the slow path".to_string()));
        assert!(f.contains(&"p:ab".to_string()));
        assert!(of("Re: x", true, "a@x", &Extraction::default()).contains(&"s:x".to_string()));
    }

    #[test]
    fn the_stored_keys_and_those_the_patch_implies_are_every_key() {
        let fix = Extraction {
            patch: Some(Box::new(PatchFacts {
                title: "xfs: fix the slow path".into(),
                title_key: "xfs: fix the slow path".into(),
                patch_id: Some("ab".into()),
                reverts: Some("2edf06a50f5c".into()),
                ..PatchFacts::default()
            })),
            landings: vec![Landing {
                title: Some("xfs: fix the slow path".into()),
                ..Landing::default()
            }],
            ..Extraction::default()
        };
        let all = of("[PATCH] xfs: fix the slow path", false, "a@x", &fix);
        let kept = stored("[PATCH] xfs: fix the slow path", false, "a@x", &fix);
        let implied: Vec<String> = implied_by_patch(fix.patch.as_deref().unwrap()).collect();
        assert_eq!(implied, ["p:ab", "t:xfs: fix the slow path"]);
        assert_eq!(kept, ["c:2edf06a"]);
        let mut union: Vec<String> = kept.iter().chain(&implied).cloned().collect();
        union.sort();
        assert_eq!(union, all);
        // A short title key implies nothing; a message without a patch
        // stores every key.
        let short = PatchFacts {
            title_key: "x: y".into(),
            ..PatchFacts::default()
        };
        assert_eq!(implied_by_patch(&short).count(), 0);
        let landing = Extraction {
            patch: None,
            ..fix.clone()
        };
        assert_eq!(
            stored("Re: x", false, "a@x", &landing),
            of("Re: x", false, "a@x", &landing)
        );
    }

    #[test]
    fn a_title_names_the_code_identifiers_after_its_prefix() {
        assert_eq!(
            title_words("ext4/jbd2: drop jbd2_transaction_committed()"),
            ["jbd2_transaction_committed"]
        );
        assert_eq!(
            title_words("jbd2: speed up jbd2_transaction_committed()"),
            ["jbd2_transaction_committed"]
        );
        // The prefix is a place, not a change; a call needs its parentheses.
        assert!(title_words("mm/page_alloc: fix the slow path").is_empty());
        assert_eq!(title_words("xfs: call flush_work() early"), ["flush_work"]);
        assert_eq!(
            title_words("sched: rework select_idle_sibling()"),
            ["select_idle_sibling"]
        );
        assert!(title_words("ext4: remove a lock()").is_empty(), "too short");
        assert!(title_words("nfs: speed up commits").is_empty());
        let p = |title: &str, part| PatchFacts {
            title: title.into(),
            part,
            ..PatchFacts::default()
        };
        assert_eq!(
            words(
                &p("net: use sk_wmem_queued_add, then sk_wmem_queued_add", None),
                "a@x"
            ),
            ["i:a@x sk_wmem_queued_add"]
        );
        // A part of a series, or no author, has none.
        assert!(words(&p("net: use sk_wmem_queued_add", Some(2)), "a@x").is_empty());
        assert!(words(&p("net: use sk_wmem_queued_add", None), "").is_empty());
    }

    #[test]
    fn titles_a_typo_apart_share_a_near_title_key_and_others_do_not() {
        let a = near_titles("memcg: rearrage fields of mem_cgroup_per_node");
        let b = near_titles("memcg: rearrange fields of mem_cgroup_per_node");
        assert!(a.iter().any(|k| b.contains(k)), "{a:?} {b:?}");
        assert!(a.iter().all(|k| k.starts_with("n:")));
        let c = near_titles("memcg: reorder members of mem_cgroup_per_node");
        assert!(!a.iter().any(|k| c.contains(k)));
        assert!(near_titles("ext4: fix").is_empty());
    }
}
