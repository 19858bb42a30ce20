//! Subject keys, one per use:
//! - [`list_key`]: what the store indexes (`messages.norm_subject`): reply
//!   prefixes and list tags stripped, the report part and patch tags kept;
//! - [`thread_key`]: the threading fallback's: every leading `[...]` tag
//!   stripped too, lower-cased, so that a rendered reply finds its report;
//! - [`is_reply`]: whether a subject is a reply or forward;
//! - [`subject_tags`] and [`title_key`]: a patch subject's tags and its
//!   title as compared across versions, shortlogs and commit titles.

use std::sync::LazyLock;

use regex::Regex;

/// Normalises a subject: strips reply/forward prefixes (`Re:`, `RE:`, `Fwd:`,
/// `Fw:`, `Aw:`, `Re[2]:`) and list tags (`[LKP]`, `[lkp-robot]`,
/// `[Jfs-discussion]`, ...) at the front, repeatedly, and folds white space.
/// The report part (`[linus:master] [xfs] 2edf06a50f: ...`) and patch tags are kept.
///
/// ```
/// use regtrack::mail::subject::list_key;
/// assert_eq!(
///     list_key("Re: [LKP] Re: [xfs]  016a23388c:\n stress-ng.xattr.ops_per_sec 58.4% improvement"),
///     "[xfs] 016a23388c: stress-ng.xattr.ops_per_sec 58.4% improvement"
/// );
/// ```
pub fn list_key(subject: &str) -> String {
    let folded = crate::text::fold_ws_cow(subject);
    let mut s = folded.as_ref();
    loop {
        let before = s.len();
        s = s.trim_start();
        if let Some(rest) = strip_reply_prefix(s) {
            s = rest;
        }
        if let Some(rest) = strip_list_tag(s) {
            s = rest;
        }
        if s.len() == before {
            break;
        }
    }
    s.trim().to_string()
}

static REPLY_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:(?:re|fw|fwd|aw|sv|antw)\s*(?:\[\d+\])?\s*:|\[[^\]]*\])\s*")
        .expect("reply prefix regex compiles")
});

/// The threading fallback's key: strips `Re:`/`Fwd:` and leading `[...]`
/// tags repeatedly, folds white space and lower-cases.
///
/// ```
/// use regtrack::mail::subject::thread_key;
/// assert_eq!(
///     thread_key("Re: [LKP] [ext4]  05c2c00f37:  aim7.jobs-per-min -11.8%\n regression"),
///     thread_key("[ext4] 05c2c00f37: aim7.jobs-per-min -11.8% regression"),
/// );
/// ```
pub fn thread_key(subject: &str) -> String {
    let mut s = subject.trim();
    loop {
        match REPLY_PREFIX.find(s) {
            Some(m) if m.end() > 0 => s = s.get(m.end()..).unwrap_or(""),
            _ => break,
        }
    }
    crate::text::fold_ws(s).to_lowercase()
}

/// A subject or title without its leading `Re:`/`Fwd:` markers and `[...]`
/// tags (`[PATCH v2 2/2]`, `[LKP]`), case and spacing kept: a commit title
/// as a maintainer writes it.
///
/// ```
/// use regtrack::mail::subject::without_tags;
/// assert_eq!(without_tags("[PATCH v2 2/2] mm: batch the LRU"), "mm: batch the LRU");
/// assert_eq!(without_tags("ext4: no tags"), "ext4: no tags");
/// ```
pub fn without_tags(subject: &str) -> &str {
    let mut s = subject.trim();
    loop {
        match REPLY_PREFIX.find(s) {
            Some(m) if m.end() > 0 => s = s.get(m.end()..).unwrap_or(""),
            _ => break,
        }
    }
    s.trim()
}

/// True when the subject starts with a reply or forward marker (after list tags).
pub fn is_reply(subject: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:\[[^\]]*\]\s*)*(?:re|fw|fwd|aw|sv)\s*(?:\[\d+\])?\s*:")
            .expect("reply regex compiles")
    });
    RE.is_match(subject)
}

/// `Re:`, `RE :`, `Re[2]:`, `Fwd:`, `Fw:`, `Aw:`, `Sv:` (case-insensitive).
fn strip_reply_prefix(s: &str) -> Option<&str> {
    let word_end = s
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(s.len());
    let word = s.get(..word_end)?;
    let known = ["re", "fwd", "fw", "aw", "sv", "antw"];
    if !known.iter().any(|k| word.eq_ignore_ascii_case(k)) {
        return None;
    }
    let mut rest = s.get(word_end..)?;
    if let Some(r) = rest.strip_prefix('[') {
        let close = r.find(']')?;
        if !r.get(..close)?.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        rest = r.get(close + 1..)?;
    }
    let rest = rest.trim_start_matches(' ');
    rest.strip_prefix(':')
}

/// A leading `[tag]` that a list server or the robot's list adds.
fn strip_list_tag(s: &str) -> Option<&str> {
    let inner_and_rest = s.strip_prefix('[')?;
    let close = inner_and_rest.find(']')?;
    let tag = inner_and_rest.get(..close)?.trim();
    if is_list_tag(tag) {
        inner_and_rest.get(close + 1..)
    } else {
        None
    }
}

fn is_list_tag(tag: &str) -> bool {
    let ends_with = |suffix: &str| {
        tag.len()
            .checked_sub(suffix.len())
            .and_then(|at| tag.as_bytes().get(at..))
            .is_some_and(|end| end.eq_ignore_ascii_case(suffix.as_bytes()))
    };
    ["lkp", "lkp-robot", "lkp-tests", "0day-ci"]
        .iter()
        .any(|name| tag.eq_ignore_ascii_case(name))
        || ["-discussion", "-devel", "-users", "-announce", "-general"]
            .iter()
            .any(|suffix| ends_with(suffix))
}

/// `[...]` tags in front of a subject: the definition [`leading_tag`] reads
/// by hand, kept for the test that compares the two.
#[cfg(test)]
static TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*\[([^\[\]]*)\]\s*").expect("valid regex"));

/// `Re:`, `Fwd:`, `Aw:` and the like in front of a subject.
static REPLY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:re|fw|fwd|aw|sv|antw)\s*(?:\[\d+\])?\s*:\s*").expect("valid regex")
});

static VERSION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^v(\d{1,3})$").expect("valid regex"));

static PART: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d{1,4})/(\d{1,4})$").expect("valid regex"));

/// Bytes a title key needs to name a patch (a key to link by, a landing of
/// a title): a shorter one (`fix`, `cleanup`) ties unrelated mail together.
pub const MIN_TITLE_KEY: usize = 8;

/// A title as compared across versions and with shortlogs, commit titles
/// and thank-you entries: white space folded, lower-cased, a final period
/// dropped.
///
/// ```
/// use regtrack::mail::subject::title_key;
/// assert_eq!(title_key("ext4: Fix  the thing."), "ext4: fix the thing");
/// ```
pub fn title_key(title: &str) -> String {
    let folded = crate::text::fold_ws_cow(title).to_lowercase();
    let kept = folded.trim_end_matches('.').trim();
    // Most titles have nothing to trim: the lower-cased copy is the key.
    if kept.len() == folded.len() {
        folded
    } else {
        kept.to_string()
    }
}

/// What a patch subject's tags say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubjectTags {
    /// The title after the tags.
    pub title: String,
    /// Some tag holds the word `PATCH` (or `RFC`).
    pub is_patch: bool,
    /// `vN`.
    pub version: Option<u32>,
    /// `n` of `n/m`.
    pub part: Option<u32>,
    /// `m` of `n/m`.
    pub parts: Option<u32>,
    /// `RESEND`.
    pub resend: bool,
    /// `RFC`.
    pub rfc: bool,
}

/// ```text
/// patch_subject := reply* tag* title
/// reply         := ("Re" | "Fwd" | "Fw" | "Aw" | "Sv") ("[" digits "]")? ":"
/// tag           := "[" token (sep token)* "]"        sep := " " | "," | "-"
/// token         := "PATCH" | "PATCHv" digits | "RFC" | "RESEND" | "v" digits
///                | digits "/" digits | other        (net-next, 6.1.y, for-next)
/// ```
/// Reads the tags of a patch subject; `is_patch` is false when no tag
/// names a patch (`[LKP]`, `[ext4]`).
///
/// ```
/// use regtrack::mail::subject::subject_tags;
/// let t = subject_tags("Re: [RFC PATCH RESEND v3 2/7] ext4: fix the thing");
/// assert!(t.is_patch && t.rfc && t.resend);
/// assert_eq!((t.version, t.part, t.parts), (Some(3), Some(2), Some(7)));
/// assert_eq!(t.title, "ext4: fix the thing");
/// ```
pub fn subject_tags(subject: &str) -> SubjectTags {
    let folded = crate::text::fold_ws_cow(subject);
    let mut s: &str = &folded;
    let mut out = SubjectTags::default();
    // The patterns run only where they can match: a reply prefix starts
    // with one of its letters (`ſ` folds to `s`), a tag with `[`, a version
    // with `v`, a part holds `/` (every subject is read, most have none).
    let starts = |s: &str, p: fn(char) -> bool| s.trim_start().chars().next().is_some_and(p);
    let reply_letter = |c: char| matches!(c, 'r' | 'R' | 'f' | 'F' | 'a' | 'A' | 's' | 'S' | 'ſ');
    loop {
        if starts(s, reply_letter)
            && let Some(m) = REPLY.find(s)
        {
            s = &s[m.end()..];
            continue;
        }
        if !starts(s, |c| c == '[') {
            break;
        }
        let Some((inner, end)) = leading_tag(s) else {
            break;
        };
        let mut patch_tag = false;
        for tok in inner.split([' ', ',']).filter(|t| !t.is_empty()) {
            let starts_ci = |p: &str| {
                tok.as_bytes()
                    .get(..p.len())
                    .is_some_and(|b| b.eq_ignore_ascii_case(p.as_bytes()))
            };
            if tok.eq_ignore_ascii_case("PATCH") || starts_ci("PATCHV") || starts_ci("PATCH-") {
                patch_tag = true;
                // The prefix is ASCII: its end is a character boundary.
                if starts_ci("PATCHV")
                    && let Some(v) = tok.get(6..).and_then(|v| v.parse().ok())
                {
                    out.version = Some(v);
                }
            } else if tok.eq_ignore_ascii_case("RFC") {
                patch_tag = true;
                out.rfc = true;
            } else if tok.eq_ignore_ascii_case("RESEND") {
                out.resend = true;
            } else if let Some(v) = starts_ci("v").then(|| version_tag(tok)).flatten() {
                out.version = v;
            } else if let Some((part, parts)) = tok.contains('/').then(|| part_tag(tok)).flatten() {
                out.part = part;
                out.parts = parts;
            }
        }
        out.is_patch |= patch_tag;
        s = &s[end..];
    }
    out.title = s.trim().to_string();
    out
}

/// What [`TAG`] matches at the start of `s`: the text between the brackets
/// and the end of the match (the white space after `]` included). Read by
/// hand, as the regex reads it: the first bracket after the opening `[` must
/// be `]` (most subjects have a tag or two, and a regex match allocated its
/// captures each time).
fn leading_tag(s: &str) -> Option<(&str, usize)> {
    let t = s.trim_start();
    let rest = t.strip_prefix('[')?;
    let close = memchr::memchr2(b'[', b']', rest.as_bytes())?;
    if rest.as_bytes().get(close) != Some(&b']') {
        return None;
    }
    let after = rest.get(close + 1..)?;
    let ws = after.len() - after.trim_start().len();
    Some((rest.get(..close)?, s.len() - after.len() + ws))
}

/// [`VERSION`] on a token starting with `v`: `Some(version)` when it
/// matches (`None` inside when its digits do not parse), `None` when not.
/// ASCII tokens are read by hand; others (whose digits may be any decimal
/// digits) go to the regex.
fn version_tag(tok: &str) -> Option<Option<u32>> {
    if !tok.is_ascii() {
        let c = VERSION.captures(tok)?;
        return Some(c.get(1).and_then(|m| m.as_str().parse().ok()));
    }
    let digits = tok.get(1..)?;
    ((1..=3).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
}

/// [`PART`] on a token: the part and the number of parts when it matches.
/// ASCII tokens are read by hand, others go to the regex.
fn part_tag(tok: &str) -> Option<(Option<u32>, Option<u32>)> {
    if !tok.is_ascii() {
        let c = PART.captures(tok)?;
        let num = |i| c.get(i).and_then(|m| m.as_str().parse().ok());
        return Some((num(1), num(2)));
    }
    let (a, b) = tok.split_once('/')?;
    let digits = |d: &str| (1..=4).contains(&d.len()) && d.bytes().all(|b| b.is_ascii_digit());
    (digits(a) && digits(b)).then(|| (a.parse().ok(), b.parse().ok()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reply_prefixes_and_list_tags_are_stripped_but_the_report_part_is_kept() {
        let report = "[linus:master] [xfs] 2edf06a50f: fsmark.files_per_sec -5.7% regression";
        assert_eq!(list_key(report), report);
        assert_eq!(
            list_key(
                "Re: [linus:master] [xfs]  2edf06a50f:  fsmark.files_per_sec -5.7%\n regression"
            ),
            report
        );
        assert_eq!(
            list_key("RE: [lkp] [xfs] 2edf06a50f: x 1% regression"),
            "[xfs] 2edf06a50f: x 1% regression"
        );
        assert_eq!(
            list_key("Fwd: Aw: [lkp-robot] [Jfs-discussion] Re[2]: [fs] abc: y"),
            "[fs] abc: y"
        );
        assert_eq!(
            list_key("Re: [PATCH v2 1/3] ext4: fix"),
            "[PATCH v2 1/3] ext4: fix"
        );
        assert_eq!(list_key("Reply: hello"), "Reply: hello");
        assert_eq!(list_key("  "), "");
    }

    proptest::proptest! {
        #[test]
        fn the_hand_read_tags_agree_with_their_regexes(
            s in r"[ \t\u{a0}]{0,2}(\[[a-zA-Z0-9 /\[\u{660}]{0,12}\]?[ \t]{0,2}){0,3}[a-z: ]{0,8}",
            tok in r"[vV]?[0-9\u{660}\u{661}a/]{0,7}",
        ) {
            let by_regex = TAG.captures(&s).map(|c| {
                (c.get(1).map_or("", |m| m.as_str()), c.get(0).map_or(0, |m| m.end()))
            });
            proptest::prop_assert_eq!(leading_tag(&s), by_regex);
            if tok.starts_with(['v', 'V']) {
                let by_regex = VERSION
                    .captures(&tok)
                    .map(|c| c.get(1).and_then(|m| m.as_str().parse::<u32>().ok()));
                proptest::prop_assert_eq!(version_tag(&tok), by_regex);
            }
            let by_regex = PART.captures(&tok).map(|c| {
                let num = |i| c.get(i).and_then(|m| m.as_str().parse::<u32>().ok());
                (num(1), num(2))
            });
            proptest::prop_assert_eq!(part_tag(&tok), by_regex);
        }
    }
}
