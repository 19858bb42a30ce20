//! What identifies a patch across its forms (grammar:
//! `grammar/evidence-patch.md`): the title of `[PATCH v3 2/7] subsys: title`
//! without its tags, the version, part and flags of the tag, b4's
//! `change-id:` and `base-commit:` lines, what a revert names (`This reverts
//! commit <sha>.`, `Revert "<title>"`), a stable backport's upstream commit,
//! and a stable patch id of the mail's own diff.
//!
//! The patch id is the idea of `git patch-id --stable`: per file, a hash of
//! its paths and of its added and removed lines with all white space
//! removed (hunk headers, line numbers, `index` lines and context lines
//! left out), and the files' hashes added, so that neither file order,
//! re-wrapped hunks, moved line numbers nor white space change it. An
//! inline draft and the patch posted later from it share it when their
//! changes are the same.

use std::sync::LazyLock;

use regex::Regex;

use super::BodyView;
use crate::mail::subject::{subject_tags, title_key};
use crate::model::{DiffFile, Kind, Message, PatchFacts};

static REVERT_TITLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?i)^revert\s+"(.+)"\s*$"#).expect("valid regex"));

/// `This reverts commit <40 hex>.` (the id may be on the next line).
static REVERTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\bThis reverts commit\s+([0-9a-f]{12,40})\b").expect("valid regex")
});

/// `commit <40 hex> upstream.` or `[ Upstream commit <40 hex> ]`.
static UPSTREAM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^\s*commit\s+([0-9a-f]{40})\s+upstream\b|\[\s*upstream commit\s+([0-9a-f]{12,40})\s*\])")
        .expect("valid regex")
});

/// The stable patch id of the unquoted diff lines of a body (`None` when
/// it has none), from the lines marked `in_diff` (see [`super::diff::scan`]).
pub fn patch_id(view: &BodyView<'_>, in_diff: &[bool]) -> Option<String> {
    let lines = view
        .lines
        .iter()
        .enumerate()
        .filter(|(i, l)| l.depth == 0 && in_diff.get(*i).copied().unwrap_or(false))
        .map(|(_, l)| l.text);
    patch_id_of_lines(lines)
}

/// The stable patch id of a unified diff given as lines (a mail's own diff,
/// or `git show` output of a commit): see the module docs.
///
/// ```
/// use regtrack::evidence::patch::patch_id_of_lines;
/// let a = "diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1,3 +1,3 @@\n ctx\n-\told(x);\n+\tnew(x);\n";
/// let b = "diff --git a/f.c b/f.c\nindex 1..2 100644\n--- a/f.c\n+++ b/f.c\n@@ -10,2 +10,2 @@ fn\n-old( x );\n+new(x);\n";
/// assert_eq!(patch_id_of_lines(a.lines()), patch_id_of_lines(b.lines()));
/// assert!(patch_id_of_lines("just prose".lines()).is_none());
/// ```
pub fn patch_id_of_lines<'a>(lines: impl Iterator<Item = &'a str>) -> Option<String> {
    /// The file being read: whether a change line went into it. Its hashed
    /// text is in `text` (hashed whole when the file ends: the same hash as
    /// line by line, in one call), one buffer for every file.
    struct File {
        changed: bool,
    }
    fn open(text: &mut Vec<u8>, path: &str) -> File {
        text.clear();
        // Room for most files' text at the first (it grew by doubling).
        text.reserve(8 << 10);
        push_stripped(text, path);
        text.push(b'\n');
        File { changed: false }
    }
    fn close(total: &mut u128, text: &[u8], file: Option<File>) {
        if file.is_some_and(|f| f.changed) {
            let mut v = [0u8; 16];
            v.copy_from_slice(&blake3::hash(text).as_bytes()[..16]);
            *total = total.wrapping_add(u128::from_le_bytes(v));
        }
    }
    let mut total: u128 = 0;
    let mut any = false;
    let mut text: Vec<u8> = Vec::new();
    let mut file: Option<File> = None;
    // A `--- ` line waits for the next: before `+++ ` it is a file header,
    // otherwise a removed line that starts with `-- `.
    let mut dashes: Option<&str> = None;
    for line in lines {
        if let Some(rest) = line.strip_prefix("diff --git ") {
            close(&mut total, &text, file.take());
            dashes = None;
            let path = rest.rsplit_once(" b/").map_or(rest, |(_, b)| b);
            file = Some(open(&mut text, path));
            continue;
        }
        if let Some(new) = line.strip_prefix("+++ ") {
            if dashes.take().is_some() {
                if file.as_ref().is_none_or(|f| f.changed) {
                    // A diff without `diff --git` (quilt, `diff -u`): each
                    // file starts at its header pair; paths lose their
                    // first component (`a/`, `linux.orig/`).
                    close(&mut total, &text, file.take());
                    let path = new.split_whitespace().next().unwrap_or("");
                    let path = path.split_once('/').map_or(path, |(_, p)| p);
                    file = Some(open(&mut text, path));
                }
                continue;
            }
        }
        if let Some(removed) = dashes.take()
            && let Some(f) = file.as_mut()
        {
            text.push(b'-');
            push_stripped(&mut text, removed);
            text.push(b'\n');
            f.changed = true;
            any = true;
        }
        if line.starts_with("--- ") {
            dashes = Some(&line[1..]);
            continue;
        }
        let (sign, rest) = match line.as_bytes().first() {
            Some(b'+') => (b"+", &line[1..]),
            Some(b'-') => (b"-", &line[1..]),
            _ => continue,
        };
        if let Some(f) = file.as_mut() {
            text.extend_from_slice(sign);
            push_stripped(&mut text, rest);
            text.push(b'\n');
            f.changed = true;
            any = true;
        }
    }
    close(&mut total, &text, file.take());
    any.then(|| format!("{total:032x}"))
}

/// The ASCII bytes that are white space (`char::is_whitespace`): space,
/// tab, line feed, vertical tab, form feed, carriage return.
const ASCII_SPACE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 6 {
        t[[b' ', b'\t', b'\n', 0x0b, 0x0c, b'\r'][i] as usize] = true;
        i += 1;
    }
    t
};

/// Appends `s` without its white space (Unicode's) to `out`.
fn push_stripped(out: &mut Vec<u8>, s: &str) {
    if s.is_ascii() {
        // Every byte is written and the end moves past the kept ones only:
        // no branch on the byte, where source lines mix words and white
        // space too finely for a branch to be predicted (this was a tenth
        // of ingest's extraction CPU once, and half of it still with eight
        // bytes copied at a time when none was white space).
        let start = out.len();
        out.resize(start + s.len(), 0);
        let mut end = start;
        for &b in s.as_bytes() {
            if let Some(slot) = out.get_mut(end) {
                *slot = b;
            }
            end += usize::from(!ASCII_SPACE[usize::from(b)]);
        }
        out.truncate(end);
    } else {
        let mut utf8 = [0u8; 4];
        for c in s.chars().filter(|c| !c.is_whitespace()) {
            out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
        }
    }
}

/// The `Subject:` of a format-patch carried in a reply (attached or
/// inline): an own line before the first diff line, after a `From <sha>`
/// or `From:` header line; with whether git's `From <sha> Mon Sep 17
/// 00:00:00 2001` line opened that header (`format-patch -k` and `-N`
/// write a subject without `[PATCH]`: that line is what makes it a patch's).
fn attached_patch_subject(view: &BodyView<'_>, in_diff: &[bool]) -> Option<(String, bool)> {
    let first_diff = in_diff
        .iter()
        .zip(&view.lines)
        .position(|(&d, l)| d && l.depth == 0)
        .unwrap_or(view.lines.len());
    let mut header = false;
    let mut magic = false;
    let own: Vec<&str> = view
        .lines
        .iter()
        .take(first_diff)
        .filter(|l| l.depth == 0)
        .map(|l| l.text.trim_end())
        .collect();
    for (i, t) in own.iter().enumerate() {
        if t.starts_with("From ") && t.ends_with("Mon Sep 17 00:00:00 2001") {
            header = true;
            magic = true;
        } else if t.starts_with("From ") && t.ends_with("2001") || t.starts_with("From: ") {
            header = true;
        } else if header && let Some(s) = t.strip_prefix("Subject: ") {
            // A folded header goes on in lines that start with white space.
            let mut subject = s.trim().to_string();
            for c in own[i + 1..]
                .iter()
                .take_while(|c| c.starts_with([' ', '\t']))
            {
                subject.push(' ');
                subject.push_str(c.trim());
            }
            return Some((subject, magic));
        }
    }
    None
}

/// The key of a b4 `key: value` line, with its searcher built once
/// (`str::contains` builds one a call, over the whole body).
type B4Key = LazyLock<memchr::memmem::Finder<'static>>;

static CHANGE_ID: B4Key = LazyLock::new(|| memchr::memmem::Finder::new("change-id:"));
static BASE_COMMIT: B4Key = LazyLock::new(|| memchr::memmem::Finder::new("base-commit:"));

/// A `key: value` line of b4 (`change-id:`, `base-commit:`) in the
/// author's own text.
fn own_value<'a>(view: &BodyView<'a>, key: &B4Key) -> Option<&'a str> {
    key.find(view.body.as_bytes())?;
    let key = std::str::from_utf8(key.needle()).unwrap_or_default();
    view.lines
        .iter()
        .filter(|l| l.depth == 0)
        .find_map(|l| l.text.trim().strip_prefix(key))
        .map(|v| v.trim())
        .filter(|v| !v.is_empty() && !v.contains(' '))
}

/// The patch facts of a message: for a patch mail (`kind` `patch`), its
/// title and tags; for any mail with its own diff, the patch id (a diff in
/// a reply has no title of its own). `None` for mail that carries no patch.
pub fn patch_facts(
    msg: &Message,
    kind: Kind,
    view: &BodyView<'_>,
    in_diff: &[bool],
    files: &[DiffFile],
) -> Option<PatchFacts> {
    let id = if view.collapsed {
        None
    } else {
        patch_id(view, in_diff)
    };
    let is_patch = kind == Kind::Patch;
    if !is_patch && id.is_none() {
        return None;
    }
    // A reply that carries a format-patch (inline or attached) has that
    // patch's title in its own `Subject: [PATCH] ...` line before the diff.
    let tags = if is_patch {
        subject_tags(&msg.subject)
    } else {
        attached_patch_subject(view, in_diff)
            .and_then(|(s, magic)| {
                let tags = subject_tags(&s);
                (tags.is_patch || magic && !crate::mail::subject::is_reply(&s)).then_some(tags)
            })
            .unwrap_or_default()
    };
    let title = tags.title.clone();
    let own = || view.lines.iter().filter(|l| l.depth == 0).map(|l| l.text);
    // Each pattern needs words most messages lack (`reverts commit` on one
    // line, `upstream`): the body is searched for them once, and only a
    // body holding them is searched line by line.
    static RARE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)reverts commit|upstream").expect("valid regex"));
    let rare = RARE.is_match(view.body);
    let reverts = rare
        .then(|| {
            let own: Vec<&str> = own().collect();
            REVERTS
                .captures(&own.join("\n"))
                .and_then(|c| c.get(1))
                .map(|m| m.as_str().to_ascii_lowercase())
        })
        .flatten();
    let upstream = rare
        .then(|| {
            own().find_map(|l| {
                if !crate::text::may_contain_ci(l, "upstream") {
                    return None;
                }
                UPSTREAM
                    .captures(l)
                    .and_then(|c| c.get(1).or_else(|| c.get(2)))
                    .map(|m| m.as_str().to_ascii_lowercase())
            })
        })
        .flatten();
    let titled = !title.is_empty();
    let words = speaks_of(view, in_diff);
    Some(PatchFacts {
        title_key: title_key(&title),
        reverts_title: REVERT_TITLE
            .captures(&title)
            .and_then(|c| c.get(1))
            .map(|m| title_key(m.as_str())),
        title,
        version: titled.then_some(tags.version).flatten(),
        part: titled.then_some(tags.part).flatten(),
        parts: titled.then_some(tags.parts).flatten(),
        resend: titled && tags.resend,
        rfc: titled && tags.rfc,
        patch_id: id,
        change_id: own_value(view, &CHANGE_ID).map(str::to_string),
        base_commit: own_value(view, &BASE_COMMIT).map(str::to_string),
        reverts,
        upstream,
        touches: touches(files),
        series_titles: if titled && tags.part == Some(0) {
            series_titles(view, in_diff)
        } else {
            Vec::new()
        },
        robot_perf: robot_perf(view, in_diff, &words),
        speaks_of: words,
    })
}

/// What the message's own diff touches: each file, and each function its
/// hunk headers name (`path:function`), in order, each once.
pub fn touches(files: &[DiffFile]) -> Vec<String> {
    fn push(out: &mut Vec<String>, s: String) {
        if out.len() < PatchFacts::MAX_TOUCHES && !out.contains(&s) {
            out.push(s);
        }
    }
    let mut out: Vec<String> = Vec::new();
    for f in files.iter().filter(|f| f.quote_depth == 0) {
        // Nothing is added to a full list.
        if out.len() >= PatchFacts::MAX_TOUCHES {
            break;
        }
        let Some(path) = f.new_path.as_deref().or(f.old_path.as_deref()) else {
            continue;
        };
        push(&mut out, path.to_string());
        for h in &f.hunks {
            if let Some(name) = called(&h.context) {
                push(&mut out, format!("{path}:{name}"));
            }
        }
    }
    out
}

/// The first function named in a hunk header's context: the first match
/// of `([A-Za-z_][A-Za-z0-9_]*)\s*\(`, its group. The pattern matches
/// where a run of identifier bytes, from its first letter or `_`, is
/// followed by white space (Unicode's) and `(`; scanned directly (one
/// pass, no automaton: a regex search with its group cost more than the
/// rest of the patch facts).
fn called(context: &str) -> Option<&str> {
    let b = context.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        if !ident(b[i]) {
            i += 1;
            continue;
        }
        let run = i;
        while i < b.len() && ident(b[i]) {
            i += 1;
        }
        let Some(first) = b[run..i]
            .iter()
            .position(|c| c.is_ascii_alphabetic() || *c == b'_')
        else {
            continue;
        };
        let after = context.get(i..)?;
        if after.trim_start().starts_with('(') {
            return context.get(run + first..i);
        }
    }
    None
}

/// The message's own prose lines: not quoted, not in its diff.
fn own_prose<'a>(view: &BodyView<'a>, in_diff: &'a [bool]) -> impl Iterator<Item = &'a str> {
    view.lines
        .iter()
        .zip(in_diff.iter().copied().chain(std::iter::repeat(false)))
        .filter(|(l, diff)| l.depth == 0 && !diff)
        .map(|(l, _)| l.text)
}

/// The titles (as title keys) a cover letter's shortlog lists: git's
/// `Author Name (2):` then the parts' titles, indented. A series posted to
/// several lists reaches each with the parts that touch its files; the
/// shortlog names them all.
pub fn series_titles(view: &BodyView<'_>, in_diff: &[bool]) -> Vec<String> {
    use super::landing::{SHORTLOG_AUTHOR, SHORTLOG_ENTRY};
    let mut out: Vec<String> = Vec::new();
    let mut in_author = false;
    for t in own_prose(view, in_diff).map(str::trim_end) {
        if !t.starts_with([' ', '\t']) && t.ends_with("):") && SHORTLOG_AUTHOR.is_match(t) {
            in_author = true;
            continue;
        }
        if !in_author {
            continue;
        }
        match SHORTLOG_ENTRY.captures(t).and_then(|c| c.get(2)) {
            Some(m) if !m.as_str().contains(" | ") => {
                let key = title_key(m.as_str());
                if !key.is_empty() && !out.contains(&key) {
                    out.push(key);
                }
            }
            _ => in_author = false,
        }
    }
    out
}

/// Words of [`speaks_of`] that name the robot.
pub const ROBOT_WORDS: [&str; 4] = ["lkp", "0-day", "kernel test robot", "test robot"];

/// True when one sentence of the message's own prose names the robot and
/// speaks of performance or a regression (`words` is [`speaks_of`]'s
/// answer: without both kinds of word no sentence can hold both). A
/// trailer line is a sentence of its own: `Reported-by: kernel test
/// robot` says nothing of performance.
pub fn robot_perf(view: &BodyView<'_>, in_diff: &[bool], words: &[String]) -> bool {
    let robot = |w: &str| ROBOT_WORDS.contains(&w);
    if !(words.iter().any(|w| robot(w)) && words.iter().any(|w| !robot(w))) {
        return false;
    }
    static TRAILER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^[A-Za-z][A-Za-z-]*: ").expect("valid regex"));
    static END: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[.!?](?:\s|$)").expect("valid regex"));
    let mut sentences: Vec<String> = Vec::new();
    let mut cur = String::new();
    for l in own_prose(view, in_diff).map(str::trim) {
        if l.is_empty() || TRAILER.is_match(l) {
            sentences.push(std::mem::take(&mut cur));
            sentences.push(l.to_string());
            continue;
        }
        let mut rest = l;
        while let Some(m) = END.find(rest) {
            cur.push(' ');
            cur.push_str(&rest[..m.end()]);
            sentences.push(std::mem::take(&mut cur));
            rest = &rest[m.end()..];
        }
        cur.push(' ');
        cur.push_str(rest);
    }
    sentences.push(cur);
    sentences.iter().any(|s| {
        let ws = speaks_of_text(s);
        ws.iter().any(|w| robot(w)) && ws.iter().any(|w| !robot(w))
    })
}

/// The words of [`speaks_of`] in one text.
fn speaks_of_text(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in SPEAKS_OF.find_iter(text) {
        let w = m.as_str().to_ascii_lowercase().replace("0day", "0-day");
        if !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// The words of performance and of the robot.
static SPEAKS_OF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(performance|regression|regressions|slowdown|slow-down|throughput|latency|overhead|scalability|lkp|0-?day|kernel test robot|test robot)\b",
    )
    .expect("valid regex")
});

/// The words of the message's own prose (not quoted, not diff) that speak
/// of performance or of the robot, each once, lower case.
pub fn speaks_of(view: &BodyView<'_>, in_diff: &[bool]) -> Vec<String> {
    // Most patches speak of none of them: a search of the own lines for
    // the words spares the pattern's reading. The own lines are searched,
    // not the whole body (a patch's diff is most of it), together and
    // lower-cased: a search for lower-case literals has a fast prefilter,
    // one for literals in any case reads a byte at a time.
    const ANY_WORDS: [&str; 12] = [
        "performance",
        "regression",
        "slowdown",
        "slow-down",
        "throughput",
        "latency",
        "overhead",
        "scalability",
        "lkp",
        "0day",
        "0-day",
        "test robot",
    ];
    // Leftmost semantics: only those have the SIMD prefilter (Teddy).
    static LOWER: LazyLock<aho_corasick::AhoCorasick> = LazyLock::new(|| {
        aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build(ANY_WORDS)
            .expect("valid words")
    });
    static ANY: LazyLock<aho_corasick::AhoCorasick> = LazyLock::new(|| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(ANY_WORDS)
            .expect("valid words")
    });
    let mut out: Vec<String> = Vec::new();
    let own: Vec<&str> = own_prose(view, in_diff).collect();
    let mut text = String::with_capacity(own.iter().map(|l| l.len() + 1).sum());
    for l in &own {
        text.push_str(l);
        text.push('\n');
    }
    text.make_ascii_lowercase();
    // When no own line holds a word (no word holds a line end), the
    // words' pattern can match one only through a letter that folds onto
    // ASCII (`ſ`, `K`), and then only where the body holds a word
    // somewhere, as it always could.
    if !LOWER.is_match(&text) && (crate::text::lowers_safely(&text) || !ANY.is_match(view.body)) {
        return out;
    }
    for l in own {
        for w in speaks_of_text(l) {
            if !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn called_is_the_first_match_of_the_function_pattern() {
        let re = Regex::new(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(").unwrap();
        let pieces = [
            "static", " ", "int", "foo", "(", "_x1", "9", "\t", "\u{a0}", "\u{e9}", "*", "a.b",
            "->", "2d", ")", "{", "__init", "x",
        ];
        let mut next = crate::evidence::picker(5);
        for _ in 0..5000 {
            let text: String = (0..next(10)).map(|_| pieces[next(pieces.len())]).collect();
            let want = re
                .captures(&text)
                .and_then(|c| c.get(1))
                .map(|m| m.as_str());
            assert_eq!(called(&text), want, "{text:?}");
        }
        assert_eq!(
            called("static int ext4_foo (struct inode *i)"),
            Some("ext4_foo")
        );
    }

    #[test]
    fn push_stripped_drops_exactly_the_white_space() {
        for s in [
            "",
            "\tif (a == b) {",
            " a\x0b b\x0c c\r\n d ",
            "x\u{a0}y \u{2003}z",
            "   ",
            "tab\tand\u{85}next",
            "abcdefghijklmnopqrstuvwxyz0123456789",
            "static int foo(struct bar *b)\x01\x1f\x00\x08 x!",
            "\t\t\treturn ret;   ",
            &(0u8..128).map(char::from).collect::<String>(),
            &(0u8..128)
                .rev()
                .map(char::from)
                .cycle()
                .take(1000)
                .collect::<String>(),
        ] {
            let mut out = b"kept ".to_vec();
            push_stripped(&mut out, s);
            let want: String = s.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(
                out,
                [b"kept ".as_slice(), want.as_bytes()].concat(),
                "{s:?}"
            );
        }
    }

    #[test]
    fn subject_tags_of_every_form() {
        let t = subject_tags("[PATCH] ext4: fix");
        assert!(t.is_patch);
        assert_eq!((t.version, t.part), (None, None));
        assert_eq!(
            subject_tags("[PATCHv2 net-next 3/4] net: x").version,
            Some(2)
        );
        let t = subject_tags("[RFC][PATCH 1/2] mm: y");
        assert!(t.is_patch && t.rfc);
        assert_eq!((t.part, t.parts), (Some(1), Some(2)));
        assert_eq!(subject_tags("[PATCH 6.1.y] xfs: z").title, "xfs: z");
        let t = subject_tags("Re: [LKP] [ext4] 2edf06a50f: x 1% regression");
        assert!(!t.is_patch);
        assert_eq!(subject_tags("[PATCH v2 0/7] xfs: a series").part, Some(0));
        assert_eq!(
            subject_tags("Re: [PATCH for-next] Revert \"ext4: foo\"").title,
            "Revert \"ext4: foo\""
        );
    }

    #[test]
    fn the_patch_id_ignores_white_space_order_and_line_numbers_but_not_changes() {
        let a = "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-x\n+y\n\
                 diff --git a/b.c b/b.c\n--- a/b.c\n+++ b/b.c\n@@ -5 +5 @@\n-p\n+q\n";
        let b = "diff --git a/b.c b/b.c\n--- a/b.c\n+++ b/b.c\n@@ -9 +9 @@\n-p\n+ q\n\
                 diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -3 +3 @@\n-x\n+y\n";
        let c = "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-x\n+z\n";
        let (a, b, c) = (
            patch_id_of_lines(a.lines()),
            patch_id_of_lines(b.lines()),
            patch_id_of_lines(c.lines()),
        );
        assert!(a.is_some());
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn a_quilt_diff_has_the_id_of_the_same_git_diff() {
        let q = "--- linux.orig/fs/x.c\n+++ linux/fs/x.c\n@@ -1 +1 @@\n-a\n+b\n";
        let g = "diff --git a/fs/x.c b/fs/x.c\n--- a/fs/x.c\n+++ b/fs/x.c\n@@ -1 +1 @@\n-a\n+b\n";
        assert!(patch_id_of_lines(q.lines()).is_some());
        assert_eq!(patch_id_of_lines(q.lines()), patch_id_of_lines(g.lines()));
    }

    #[test]
    fn a_format_patch_in_a_reply_gives_its_title() {
        let body = "Does this help?\n\nFrom 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n\
                    From: Steve <s@x>\nSubject: [PATCH] smb3: lower the default timeout\n\nbody\n---\n\
                    diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
        let f = facts_of(Kind::Reply, "Re: [smb3] 5efdd9122e: regression", body);
        assert_eq!(f.title, "smb3: lower the default timeout");
        assert!(f.patch_id.is_some());
    }

    #[test]
    fn a_format_patch_without_a_patch_tag_gives_its_title() {
        // `git format-patch -k` keeps the subject bare; git's magic `From`
        // line says it is a patch all the same.
        let body = "can you test the patch below?\n\n---\nFrom 81c816827197f811e14add7a79220ed9eef6af02 Mon Sep 17 00:00:00 2001\n\
                    From: Chris <c@x>\nDate: Tue, 25 Jun 2024 08:48:18 +0200\nSubject: md: set flags for all queue limits\n\nbody\n---\n\
                    diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
        let subject = "Re: [block] 1122c0c1cc: aim7.jobs-per-min 22.6% improvement";
        let f = facts_of(Kind::Reply, subject, body);
        assert_eq!(f.title, "md: set flags for all queue limits");
        // Without git's line, a bare `Subject:` (a quoted header, a
        // forwarded mail) names no patch.
        let bare = body.replace(
            "From 81c816827197f811e14add7a79220ed9eef6af02 Mon Sep 17 00:00:00 2001\n",
            "",
        );
        assert_eq!(facts_of(Kind::Reply, subject, &bare).title, "");
    }

    #[test]
    fn revert_and_backport_lines() {
        let body = "This reverts commit\n0123456789abcdef0123456789abcdef01234567.\n\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
        let f = facts("[PATCH] Revert \"ext4: Speed it up\"", body);
        assert_eq!(
            f.reverts.as_deref(),
            Some("0123456789abcdef0123456789abcdef01234567")
        );
        assert_eq!(f.reverts_title.as_deref(), Some("ext4: speed it up"));
        assert!(f.patch_id.is_some());
    }

    fn facts(subject: &str, body: &str) -> PatchFacts {
        facts_of(Kind::Patch, subject, body)
    }

    /// The facts of a mail of `kind` (a patch, or a reply carrying one).
    fn facts_of(kind: Kind, subject: &str, body: &str) -> PatchFacts {
        let msg = Message {
            subject: subject.into(),
            body: body.into(),
            ..Message::default()
        };
        let view = BodyView::new(&msg.body);
        let scan = super::super::diff::scan(&view);
        patch_facts(&msg, kind, &view, &scan.in_diff, &scan.files).unwrap()
    }

    #[test]
    fn one_sentence_naming_the_robot_and_performance() {
        let diff = "---\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
        let said = facts(
            "[PATCH v9 2/2] x86: copy fast",
            &format!(
                "Copy with fast strings.\n\nThanks to the 0day robot for catching a\nperformance bug in the previous version.\n\n\
                 Reported-by: kernel test robot <lkp@intel.com>\n{diff}"
            ),
        );
        assert!(said.robot_perf);
        // The robot credited for a build warning, performance spoken of
        // elsewhere: no sentence holds both.
        let apart = facts(
            "[PATCH v2] cpuidle: skip the scan",
            &format!(
                "This saves latency on single-state systems.\n\nv2: fix a build warning the kernel test robot reported.\n\n\
                 Reported-by: kernel test robot <lkp@intel.com>\n{diff}"
            ),
        );
        assert!(!apart.robot_perf);
        assert!(apart.speaks_of.iter().any(|w| w == "latency"));
    }

    #[test]
    fn a_cover_letter_lists_its_parts_titles() {
        let f = facts(
            "[PATCH V4 0/3] cpufreq: Allow default governor on cmdline",
            "Hi,\n\nV3->V4:\n- One array.\n\nQuinn Poster (2):\n  cpufreq: Register governors at core_initcall\n  \
             cpufreq: Pick the default governor on the command line\n\nVera Maint (1):\n  cpufreq: Fix locking issues with governors\n\n \
             drivers/cpufreq/cpufreq.c | 93 +++++++-----\n 1 file changed\n",
        );
        assert_eq!(
            f.series_titles,
            [
                "cpufreq: register governors at core_initcall",
                "cpufreq: pick the default governor on the command line",
                "cpufreq: fix locking issues with governors",
            ]
        );
        // A part lists none.
        let part = facts(
            "[PATCH V4 2/3] cpufreq: Pick the default governor",
            "Quinn Poster (2):\n  a title here\n",
        );
        assert!(part.series_titles.is_empty());
    }
}
