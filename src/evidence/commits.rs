//! Commit references in free text (grammar: `grammar/evidence-commits.md`):
//! `<7..40 hex> ("title")`, `commit <12..40 hex>`, the bare 40-hex ids after a
//! `commit:` label, and format-patch `From <40 hex> Mon Sep 17 ...` lines.
//! Wrapped titles are read from paragraphs (lines of one depth joined), ids are
//! deduplicated, and a short id is merged into the full id it prefixes.

use std::sync::LazyLock;

use regex::Regex;

use super::{BodyView, Paragraphs, QuoteMarks, strip_collapsed_quotes};
use crate::model::CommitRef;

/// `<hex> ("title")`: the title runs to the first `")`.
static RE_TITLED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?-u:\b)([0-9a-f]{7,40})\s?\(\s?"(.+?)"\s?\)"#).expect("valid regex")
});

/// `commit <hex>` (12..40 hex) and format-patch `From <40 hex> Mon Sep 17`.
static RE_BARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)(?:[Cc]ommit|From)\s+([0-9a-f]{12,40})(?-u:\b)").expect("valid regex")
});

/// `commit:` followed by one or more 40-hex ids.
static RE_COMMIT_LIST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)commit:((?:\s+[0-9a-f]{40}(?-u:\b))+)").expect("valid regex")
});

static OMMIT: LazyLock<memchr::memmem::Finder<'static>> =
    LazyLock::new(|| memchr::memmem::Finder::new(b"ommit"));
static FROM: LazyLock<memchr::memmem::Finder<'static>> =
    LazyLock::new(|| memchr::memmem::Finder::new(b"From"));
static COMMIT_COLON: LazyLock<memchr::memmem::Finder<'static>> =
    LazyLock::new(|| memchr::memmem::Finder::new(b"commit:"));

static RE_HEX40: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[0-9a-f]{40}").expect("valid regex"));

/// True when `id` holds a digit (all-letter words such as `deadbeef` or
/// `accede` are English more often than ids).
fn plausible(id: &str) -> bool {
    id.bytes().any(|b| b.is_ascii_digit())
}

/// Finds the references of one text block at `depth` (`collapsed` bodies get
/// the depth per match and their titles cleaned of quote prefixes).
pub fn refs_in_text(text: &str, depth: u32, collapsed: bool, out: &mut Vec<CommitRef>) {
    let marks = collapsed.then(|| QuoteMarks::new(text));
    let depth_at = |pos: usize| marks.as_ref().map_or(depth, |m| m.depth_at(pos));
    let mut found: Vec<(usize, CommitRef)> = Vec::new();
    // Literal prefilters: the regexes start with a hex class, which no literal
    // search can skip ahead to, so text without their fixed parts is ruled out here.
    let b = text.as_bytes();
    let titled = memchr::memchr(b'"', b).is_some() && memchr::memchr(b'(', b).is_some();
    let bare = OMMIT.find(b).is_some() || FROM.find(b).is_some();
    let listed = bare && COMMIT_COLON.find(b).is_some();
    // (`captures_iter` allocates its captures even for empty text: a ruled-out
    // regex is not called.)
    for c in titled
        .then(|| RE_TITLED.captures_iter(text))
        .into_iter()
        .flatten()
    {
        let (Some(id), Some(title)) = (c.get(1), c.get(2)) else {
            continue;
        };
        if !plausible(id.as_str()) {
            continue;
        }
        let title = if collapsed {
            strip_collapsed_quotes(title.as_str())
        } else {
            crate::text::fold_ws(title.as_str())
        };
        found.push((
            id.start(),
            CommitRef {
                id: id.as_str().to_string(),
                title: (!title.is_empty()).then_some(title),
                quote_depth: depth_at(id.start()),
            },
        ));
    }
    for c in bare
        .then(|| RE_BARE.captures_iter(text))
        .into_iter()
        .flatten()
    {
        let Some(id) = c.get(1) else { continue };
        if plausible(id.as_str()) {
            found.push((
                id.start(),
                CommitRef {
                    id: id.as_str().to_string(),
                    title: None,
                    quote_depth: depth_at(id.start()),
                },
            ));
        }
    }
    for c in listed
        .then(|| RE_COMMIT_LIST.captures_iter(text))
        .into_iter()
        .flatten()
    {
        let Some(list) = c.get(1) else { continue };
        for m in RE_HEX40.find_iter(list.as_str()) {
            let pos = list.start() + m.start();
            found.push((
                pos,
                CommitRef {
                    id: m.as_str().to_string(),
                    title: None,
                    quote_depth: depth_at(pos),
                },
            ));
        }
    }
    found.sort_by_key(|(p, _)| *p);
    out.extend(found.into_iter().map(|(_, c)| c));
}

/// Commit references of a body, skipping diff lines, deduplicated.
pub fn commits_in(view: &BodyView<'_>, in_diff: &[bool]) -> Vec<CommitRef> {
    commits_in_paragraphs(&view.paragraphs(in_diff), view.collapsed)
}

/// Commit references of paragraphs already built ([`BodyView::paragraphs`]), deduplicated.
pub fn commits_in_paragraphs(paragraphs: &Paragraphs, collapsed: bool) -> Vec<CommitRef> {
    let mut raw = Vec::new();
    for p in paragraphs.iter() {
        refs_in_text(p.text, p.depth, collapsed, &mut raw);
    }
    dedup(raw)
}

/// Merges references to one commit: equal ids, and short ids that prefix a
/// longer one (the longest id wins). The title seen at the smallest depth
/// (then first) is kept; the depth is the smallest seen. Order: first seen.
pub fn dedup(raw: Vec<CommitRef>) -> Vec<CommitRef> {
    let mut out: Vec<CommitRef> = Vec::new();
    for r in raw {
        let hit = out
            .iter()
            .position(|o| o.id.starts_with(&r.id) || r.id.starts_with(&o.id));
        match hit {
            Some(k) => {
                if let Some(o) = out.get_mut(k) {
                    merge(o, r);
                }
            }
            None => out.push(r),
        }
    }
    // A later, longer id may now prefix-match two earlier entries; fold again.
    let mut folded: Vec<CommitRef> = Vec::new();
    for r in out {
        match folded
            .iter()
            .position(|o| o.id.starts_with(&r.id) || r.id.starts_with(&o.id))
        {
            Some(k) => {
                if let Some(o) = folded.get_mut(k) {
                    merge(o, r);
                }
            }
            None => folded.push(r),
        }
    }
    folded
}

fn merge(o: &mut CommitRef, r: CommitRef) {
    if r.id.len() > o.id.len() {
        o.id = r.id;
    }
    let better_title = match (&o.title, &r.title) {
        (None, Some(_)) => true,
        (Some(_), Some(_)) => r.quote_depth < o.quote_depth,
        _ => false,
    };
    if better_title {
        o.title = r.title;
    }
    o.quote_depth = o.quote_depth.min(r.quote_depth);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(body: &str) -> Vec<CommitRef> {
        let v = BodyView::new(body);
        commits_in(&v, &[])
    }

    #[test]
    fn titled_references_and_wrapped_titles_are_found() {
        let r = refs("That removal happens in c0fb4765c508 (\"xfs:\n convert CIL to lists\") ok\n");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].id, "c0fb4765c508");
        assert_eq!(r[0].title.as_deref(), Some("xfs: convert CIL to lists"));
    }

    #[test]
    fn short_ids_merge_into_full_ones_and_keep_the_title() {
        let r = refs(
            "> 016a23388cdcb (\"xfs: Add order IDs to log items in CIL\")\n\n\
             commit: 016a23388cdcb2740deb1379dc408f21c84efb11 a8bef09e7d8e65207c8403e030a0965db43ce3de\n",
        );
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].id, "016a23388cdcb2740deb1379dc408f21c84efb11");
        assert_eq!(
            r[0].title.as_deref(),
            Some("xfs: Add order IDs to log items in CIL")
        );
        assert_eq!(r[0].quote_depth, 0);
        assert_eq!(r[1].id, "a8bef09e7d8e65207c8403e030a0965db43ce3de");
    }

    #[test]
    fn commit_words_format_patch_lines_and_words_without_digits() {
        let r = refs(
            "From 83012114c9cd9304f0d55d899bb4b9329d0e22ac Mon Sep 17 00:00:00 2001\n\n\
             see commit 42a300353577 for that; we accede (\"no\")\n",
        );
        let ids: Vec<_> = r.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            ["83012114c9cd9304f0d55d899bb4b9329d0e22ac", "42a300353577"]
        );
    }

    #[test]
    fn collapsed_titles_lose_quote_prefixes_and_get_a_depth() {
        let mut out = Vec::new();
        refs_in_text(
            "wrote: > next commit in that series - c0fb4765c508 (\"xfs: > convert CIL\") - so",
            0,
            true,
            &mut out,
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].title.as_deref(), Some("xfs: convert CIL"));
        assert_eq!(out[0].quote_depth, 1);
    }
}
