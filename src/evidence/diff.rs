//! Inline unified diffs (grammar: `grammar/evidence-diff.md`): git and quilt
//! file headers, extended headers (new/deleted/renamed files), hunks with their
//! line counts, at any quote depth, and hunks quoted without their file header.
//! Whitespace-collapsed bodies are scanned token-wise for file and hunk headers.

use std::sync::LazyLock;

use nom::{
    IResult, Parser,
    bytes::complete::tag,
    character::complete::{char, u32 as dec_u32},
    combinator::opt,
    sequence::preceded,
};
use regex::Regex;

use super::BodyView;
use crate::model::{DiffFile, Hunk};

/// Parses every diff in `body` (pure entry point for fuzzing and benches).
pub fn parse_diffs(body: &str) -> Vec<DiffFile> {
    scan(&BodyView::new(body)).files
}

/// The diffs of a body and which of its lines they cover.
#[derive(Debug, Clone, Default)]
pub struct DiffScan {
    /// Files in order of appearance.
    pub files: Vec<DiffFile>,
    /// Per line of the view: true when the line is diff text.
    pub in_diff: Vec<bool>,
}

/// A parsed hunk header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HunkHeader<'a> {
    /// `-l`.
    pub old_start: u32,
    /// `,s` (1 when omitted).
    pub old_lines: u32,
    /// `+l`.
    pub new_start: u32,
    /// `,s` (1 when omitted).
    pub new_lines: u32,
    /// Text after the closing `@@`, trimmed.
    pub context: &'a str,
}

/// ```text
/// range := number ( "," number )?
/// ```
pub fn range(i: &str) -> IResult<&str, (u32, u32)> {
    (dec_u32, opt(preceded(char(','), dec_u32)))
        .map(|(s, n)| (s, n.unwrap_or(1)))
        .parse(i)
}

/// ```text
/// hunk_header := "@@ -" range " +" range " @@" context?
/// ```
pub fn hunk_header(i: &str) -> IResult<&str, HunkHeader<'_>> {
    let (rest, (_, (os, ol), _, (ns, nl), _)) =
        (tag("@@ -"), range, tag(" +"), range, tag(" @@")).parse(i)?;
    let context = rest.trim();
    Ok((
        "",
        HunkHeader {
            old_start: os,
            old_lines: ol,
            new_start: ns,
            new_lines: nl,
            context,
        },
    ))
}

/// ```text
/// diff_git := "diff --git " path " " path
/// ```
/// The split is at the last ` b/` (paths may hold spaces); `a/`/`b/` are stripped.
pub fn diff_git(i: &str) -> IResult<&str, (String, String)> {
    let (rest, _) = tag("diff --git ").parse(i)?;
    let rest = rest.trim_end();
    let (old, new) = match rest.rfind(" b/") {
        Some(p) => (rest.get(..p).unwrap_or(""), rest.get(p + 1..).unwrap_or("")),
        None => match rest.split_once(' ') {
            Some(pair) => pair,
            None => {
                return Err(nom::Err::Error(nom::error::Error::new(
                    i,
                    nom::error::ErrorKind::Space,
                )));
            }
        },
    };
    let strip = |p: &str| {
        p.strip_prefix("a/")
            .or_else(|| p.strip_prefix("b/"))
            .unwrap_or(p)
            .to_string()
    };
    Ok(("", (strip(old), strip(new))))
}

/// One extended header line after `diff --git`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExtendedHeader<'a> {
    /// `new file mode N`.
    NewFile,
    /// `deleted file mode N`.
    DeletedFile,
    /// `rename from P` / `copy from P`.
    RenameFrom(&'a str),
    /// `rename to P` / `copy to P`.
    RenameTo(&'a str),
    /// `index`, `old mode`, `new mode`, `similarity index`, `dissimilarity index`, `Binary files`.
    Other,
}

/// ```text
/// extended_header := "new file mode " mode | "deleted file mode " mode
///                  | ("rename from " | "copy from ") path | ("rename to " | "copy to ") path
///                  | ("index " | "old mode " | "new mode " | "similarity index "
///                     | "dissimilarity index " | "Binary files ") rest
/// ```
pub fn extended_header(i: &str) -> Option<ExtendedHeader<'_>> {
    if i.starts_with("new file mode ") {
        return Some(ExtendedHeader::NewFile);
    }
    if i.starts_with("deleted file mode ") {
        return Some(ExtendedHeader::DeletedFile);
    }
    for p in ["rename from ", "copy from "] {
        if let Some(r) = i.strip_prefix(p) {
            return Some(ExtendedHeader::RenameFrom(r.trim()));
        }
    }
    for p in ["rename to ", "copy to "] {
        if let Some(r) = i.strip_prefix(p) {
            return Some(ExtendedHeader::RenameTo(r.trim()));
        }
    }
    const OTHER: [&str; 6] = [
        "index ",
        "old mode ",
        "new mode ",
        "similarity index ",
        "dissimilarity index ",
        "Binary files ",
    ];
    OTHER
        .iter()
        .any(|p| i.starts_with(p))
        .then_some(ExtendedHeader::Other)
}

/// ```text
/// file_line := ("--- " | "+++ ") path ( "\t" timestamp )?
/// ```
/// Returns the raw path (`/dev/null` kept) without any tab-separated timestamp.
pub fn file_line<'a>(i: &'a str, marker: &str) -> Option<&'a str> {
    let rest = i.strip_prefix(marker)?;
    let rest = rest.split('\t').next().unwrap_or(rest).trim();
    (!rest.is_empty() && !rest.contains("  ")).then_some(rest)
}

/// A file entry from a [`pair_paths`] result: a missing side takes the other's
/// path and marks the file new (no old side) or deleted (no new side).
fn file_of_paths(o: Option<String>, n: Option<String>, quote_depth: u32) -> DiffFile {
    DiffFile {
        new_file: o.is_none(),
        deleted_file: n.is_none(),
        old_path: o.clone().or_else(|| n.clone()),
        new_path: n.or(o),
        quote_depth,
        ..DiffFile::default()
    }
}

/// Normalises a `---`/`+++` pair's paths: strips `a/`/`b/`, a quilt `~suffix`,
/// and the first component when the two (relative) paths differ there
/// (`linux.orig/` vs `linux/`).
/// `/dev/null` becomes `None`.
fn pair_paths(old: &str, new: &str) -> (Option<String>, Option<String>) {
    // Slices of the two paths until the end, then one copy each.
    fn tidy(p: &str) -> Option<&str> {
        if p == "/dev/null" {
            return None;
        }
        Some(p.split('~').next().unwrap_or(p))
    }
    let (mut o, mut n) = (tidy(old), tidy(new));
    let strip_ab = |p: &mut Option<&str>| {
        if let Some(s) = *p
            && let Some(r) = s.strip_prefix("a/").or_else(|| s.strip_prefix("b/"))
        {
            *p = Some(r);
            return true;
        }
        false
    };
    let a = strip_ab(&mut o);
    let b = strip_ab(&mut n);
    let absolute = |p: Option<&str>| p.is_some_and(|s| s.starts_with('/'));
    if !a && !b && !absolute(o) && !absolute(n) {
        fn first(p: Option<&str>) -> Option<&str> {
            p.and_then(|s| s.split_once('/').map(|(f, _)| f))
        }
        if let (Some(fo), Some(fn_)) = (first(o), first(n))
            && fo != fn_
        {
            for p in [&mut o, &mut n] {
                if let Some((_, r)) = p.and_then(|s| s.split_once('/')) {
                    *p = Some(r);
                }
            }
        }
    }
    (o.map(str::to_string), n.map(str::to_string))
}

/// Scans a body for diffs; collapsed bodies take the token-wise path.
pub fn scan(view: &BodyView<'_>) -> DiffScan {
    if view.collapsed {
        // The one collapsed line holds prose too, so no line is marked as diff.
        return DiffScan {
            files: scan_collapsed(view.body),
            in_diff: vec![false; view.lines.len()],
        };
    }
    scan_lines(view)
}

fn scan_lines(view: &BodyView<'_>) -> DiffScan {
    let lines = &view.lines;
    let mut files: Vec<DiffFile> = Vec::new();
    let mut in_diff = vec![false; lines.len()];
    // Index of the file that the next hunk belongs to, if any, and the
    // indentation its lines carry (xfstests prints its output diffs indented).
    let mut open: Option<usize> = None;
    let mut indent = 0usize;
    let mut i = 0;
    while let Some(line) = lines.get(i) {
        let depth = line.depth;
        if let Some((ind, block)) = indented_pair(lines, i) {
            let (o, n) = pair_paths(block.0, block.1);
            files.push(file_of_paths(o, n, depth));
            open = Some(files.len() - 1);
            indent = ind;
            in_diff[i] = true;
            in_diff[i + 1] = true;
            i += 2;
            continue;
        }
        let t = match line.text.get(indent..) {
            Some(rest) if open.is_some() && line.text.bytes().take(indent).all(|b| b == b' ') => {
                rest
            }
            _ => {
                indent = 0;
                line.text
            }
        };
        if let Ok((_, (old, new))) = diff_git(t) {
            files.push(DiffFile {
                old_path: Some(old),
                new_path: Some(new),
                quote_depth: depth,
                ..DiffFile::default()
            });
            let ix = files.len() - 1;
            open = Some(ix);
            in_diff[i] = true;
            i += 1;
            while let Some(l) = lines.get(i).filter(|l| l.depth == depth) {
                let Some(h) = extended_header(l.text) else {
                    break;
                };
                if let Some(f) = files.get_mut(ix) {
                    match h {
                        ExtendedHeader::NewFile => f.new_file = true,
                        ExtendedHeader::DeletedFile => f.deleted_file = true,
                        ExtendedHeader::RenameFrom(p) => f.old_path = Some(p.to_string()),
                        ExtendedHeader::RenameTo(p) => f.new_path = Some(p.to_string()),
                        ExtendedHeader::Other => {}
                    }
                }
                in_diff[i] = true;
                i += 1;
            }
            continue;
        }
        if let Some(old) = file_line(t, "--- ") {
            let next = lines.get(i + 1).filter(|l| l.depth == depth);
            if let Some(new) = next.and_then(|l| file_line(l.text, "+++ ")) {
                // The header pair of a `diff --git` file just opened names
                // its paths again: they are not read (nor copied).
                let fresh_git = open
                    .and_then(|ix| files.get(ix))
                    .is_some_and(|f| f.hunks.is_empty() && f.quote_depth == depth);
                if !fresh_git {
                    let (o, n) = pair_paths(old, new);
                    files.push(file_of_paths(o, n, depth));
                    open = Some(files.len() - 1);
                }
                in_diff[i] = true;
                in_diff[i + 1] = true;
                i += 2;
                continue;
            }
        }
        if let Ok((_, h)) = hunk_header(t) {
            let ix = match open.filter(|&ix| files.get(ix).is_some_and(|f| f.quote_depth == depth))
            {
                Some(ix) => ix,
                None => {
                    files.push(DiffFile {
                        quote_depth: depth,
                        ..DiffFile::default()
                    });
                    files.len() - 1
                }
            };
            in_diff[i] = true;
            i += 1;
            let (mut old_left, mut new_left) = (h.old_lines, h.new_lines);
            let (mut added, mut removed) = (0u32, 0u32);
            while old_left > 0 || new_left > 0 {
                let Some(l) = lines.get(i).filter(|l| l.depth == depth) else {
                    break;
                };
                let body = if indent == 0 {
                    l.text
                } else if l.text.trim().is_empty() {
                    ""
                } else if l.text.bytes().take(indent).all(|b| b == b' ') {
                    l.text.get(indent..).unwrap_or("")
                } else {
                    break;
                };
                match body.as_bytes().first() {
                    Some(b'+') if new_left > 0 => {
                        new_left -= 1;
                        added += 1;
                    }
                    Some(b'-') if old_left > 0 => {
                        old_left -= 1;
                        removed += 1;
                    }
                    Some(b' ' | b'\t') | None => {
                        old_left = old_left.saturating_sub(1);
                        new_left = new_left.saturating_sub(1);
                    }
                    Some(b'\\') => {}
                    _ => break,
                }
                in_diff[i] = true;
                i += 1;
            }
            if let Some(f) = files.get_mut(ix) {
                f.hunks.push(Hunk {
                    old_start: h.old_start,
                    old_lines: h.old_lines,
                    new_start: h.new_start,
                    new_lines: h.new_lines,
                    context: h.context.to_string(),
                    added,
                    removed,
                });
            }
            open = Some(ix);
            // A `\ No newline at end of file` marker may follow the last line.
            if lines
                .get(i)
                .is_some_and(|l| l.depth == depth && l.text.starts_with('\\'))
            {
                in_diff[i] = true;
                i += 1;
            }
            continue;
        }
        open = None;
        indent = 0;
        i += 1;
    }
    DiffScan { files, in_diff }
}

/// An indented `--- a` / `+++ b` pair followed by a hunk header at the same
/// indentation (one or more spaces) and quote depth: `(indentation, (old, new))`.
fn indented_pair<'a>(
    lines: &[crate::text::Line<'a>],
    i: usize,
) -> Option<(usize, (&'a str, &'a str))> {
    let first = lines.get(i)?;
    let ind = first.text.len() - first.text.trim_start_matches(' ').len();
    if ind == 0 {
        return None;
    }
    let at = |k: usize| {
        lines
            .get(k)
            .filter(|l| l.depth == first.depth)
            .filter(|l| l.text.bytes().take(ind).all(|b| b == b' '))
            .and_then(|l| l.text.get(ind..))
    };
    let old = file_line(at(i)?, "--- ")?;
    let new = file_line(at(i + 1)?, "+++ ")?;
    hunk_header(at(i + 2)?).ok()?;
    Some((ind, (old, new)))
}

/// File and hunk headers inside collapsed text.
static RE_COLLAPSED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"diff --git a/(?P<old>\S+) b/(?P<new>\S+)",
        r"|--- (?P<qold>\S+) \+\+\+ (?P<qnew>\S+)",
        r"|@@ -(?P<os>\d+)(?:,(?P<ol>\d+))? \+(?P<ns>\d+)(?:,(?P<nl>\d+))? @@",
    ))
    .expect("valid regex")
});

/// Recovers file and hunk headers from a whitespace-collapsed body. The context
/// is cut after the first `(` or `{` (line ends are lost); added/removed lines
/// are counted from `+`/`-` tokens and capped by the header's line counts.
pub fn scan_collapsed(body: &str) -> Vec<DiffFile> {
    let mut files: Vec<DiffFile> = Vec::new();
    let caps: Vec<_> = RE_COLLAPSED.captures_iter(body).collect();
    for (k, c) in caps.iter().enumerate() {
        let Some(whole) = c.get(0) else { continue };
        if let (Some(o), Some(n)) = (c.name("old"), c.name("new")) {
            files.push(DiffFile {
                old_path: Some(o.as_str().to_string()),
                new_path: Some(n.as_str().to_string()),
                ..DiffFile::default()
            });
            continue;
        }
        if let (Some(o), Some(n)) = (c.name("qold"), c.name("qnew")) {
            let same_as_git = files
                .last()
                .is_some_and(|f| f.hunks.is_empty() && f.old_path.is_some());
            if !same_as_git {
                let (o, n) = pair_paths(o.as_str(), n.as_str());
                files.push(file_of_paths(o, n, 0));
            }
            continue;
        }
        let num = |name: &str, default: u32| {
            c.name(name)
                .and_then(|m| m.as_str().parse::<u32>().ok())
                .unwrap_or(default)
        };
        let (os, ol, ns, nl) = (num("os", 0), num("ol", 1), num("ns", 0), num("nl", 1));
        let end = caps
            .get(k + 1)
            .and_then(|n| n.get(0))
            .map_or(body.len(), |m| m.start());
        let region = body.get(whole.end()..end).unwrap_or("");
        let (added, removed) = count_collapsed(region);
        if files.last().is_none() {
            files.push(DiffFile::default());
        }
        if let Some(f) = files.last_mut() {
            f.hunks.push(Hunk {
                old_start: os,
                old_lines: ol,
                new_start: ns,
                new_lines: nl,
                context: collapsed_context(region),
                added: added.min(nl),
                removed: removed.min(ol),
            });
        }
    }
    files
}

/// The function context of a collapsed hunk header: words up to and including
/// the first `(` or `{` (at most 8 words), else the first word.
fn collapsed_context(region: &str) -> String {
    let words: Vec<&str> = region.split_whitespace().take(8).collect();
    for (n, w) in words.iter().enumerate() {
        if let Some(p) = w.find(['(', '{']) {
            let mut out: Vec<&str> = words.iter().take(n).copied().collect();
            out.push(w.get(..=p).unwrap_or(w));
            return out.join(" ");
        }
    }
    words.first().map(|w| w.to_string()).unwrap_or_default()
}

/// Counts `+`/`-` tokens that start a collapsed diff line (a sign followed by
/// nothing, white space or a non-digit, non-sign character).
fn count_collapsed(region: &str) -> (u32, u32) {
    let (mut added, mut removed) = (0u32, 0u32);
    for w in region.split_whitespace() {
        let mut chars = w.chars();
        let first = chars.next();
        let second = chars.next();
        let line_start = match second {
            None => true,
            Some(c) => !c.is_ascii_digit() && c != '+' && c != '-' && c != '.' && c != '>',
        };
        match first {
            Some('+') if line_start => added += 1,
            Some('-') if line_start => removed += 1,
            _ => {}
        }
    }
    (added, removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunk_header_gives_ranges_and_context_with_nothing_left() {
        let (rest, h) =
            hunk_header("@@ -3246,12 +3246,12 @@ xfs_alloc_vextent_set_fsbno(").expect("parses");
        assert_eq!(rest, "");
        assert_eq!(
            (h.old_start, h.old_lines, h.new_start, h.new_lines),
            (3246, 12, 3246, 12)
        );
        assert_eq!(h.context, "xfs_alloc_vextent_set_fsbno(");
        let (_, h) = hunk_header("@@ -1 +0,0 @@").expect("parses");
        assert_eq!((h.old_lines, h.new_lines, h.context), (1, 0, ""));
        assert!(hunk_header("@@ -x +1 @@").is_err());
    }

    #[test]
    fn range_leaves_the_rest() {
        assert_eq!(range("12,3 +1"), Ok((" +1", (12, 3))));
        assert_eq!(range("7 +1"), Ok((" +1", (7, 1))));
    }

    #[test]
    fn diff_git_strips_prefixes_and_splits_at_b() {
        assert_eq!(
            diff_git("diff --git a/fs/my file.c b/fs/my file.c"),
            Ok(("", ("fs/my file.c".to_string(), "fs/my file.c".to_string())))
        );
        assert!(diff_git("diff --gitx").is_err());
    }

    #[test]
    fn quilt_pairs_lose_their_suffix_and_orig_directory() {
        assert_eq!(
            pair_paths("a/mm/highmem.c~mm-highmem-fix", "a/mm/highmem.c"),
            (Some("mm/highmem.c".into()), Some("mm/highmem.c".into()))
        );
        assert_eq!(
            pair_paths("linux.orig/mm/x.c", "linux/mm/x.c"),
            (Some("mm/x.c".into()), Some("mm/x.c".into()))
        );
        assert_eq!(
            pair_paths("/dev/null", "b/new.c"),
            (None, Some("new.c".into()))
        );
    }

    #[test]
    fn a_git_diff_counts_added_and_removed_lines_per_hunk() {
        let body = "text\n\ndiff --git a/f.c b/f.c\nindex 1..2 100644\n--- a/f.c\n+++ b/f.c\n\
                    @@ -1,3 +1,3 @@ fn(\n a\n-b\n+c\n d\n@@ -10,2 +10,3 @@\n x\n+y\n\n\
                    Thanks\n";
        let files = parse_diffs(body);
        assert_eq!(files.len(), 1);
        let f = &files[0];
        assert_eq!(f.new_path.as_deref(), Some("f.c"));
        assert_eq!(f.hunks.len(), 2);
        assert_eq!((f.hunks[0].added, f.hunks[0].removed), (1, 1));
        assert_eq!(f.hunks[0].context, "fn(");
        assert_eq!((f.hunks[1].added, f.hunks[1].removed), (1, 0));
    }

    #[test]
    fn renames_new_and_deleted_files_set_paths_and_flags() {
        let body = "diff --git a/old.c b/new.c\nsimilarity index 90%\nrename from old.c\n\
                    rename to new.c\ndiff --git a/n.c b/n.c\nnew file mode 100644\n\
                    --- /dev/null\n+++ b/n.c\n@@ -0,0 +1 @@\n+x\n\
                    diff --git a/d.c b/d.c\ndeleted file mode 100644\n--- a/d.c\n+++ /dev/null\n\
                    @@ -1 +0,0 @@\n-x\n";
        let files = parse_diffs(body);
        assert_eq!(files.len(), 3);
        assert_eq!(files[0].old_path.as_deref(), Some("old.c"));
        assert_eq!(files[0].new_path.as_deref(), Some("new.c"));
        assert!(files[1].new_file && !files[1].deleted_file);
        assert_eq!(files[1].hunks[0].added, 1);
        assert!(files[2].deleted_file);
        assert_eq!(files[2].hunks[0].removed, 1);
    }

    #[test]
    fn a_quoted_hunk_without_header_has_no_paths() {
        let body = ">> @@ -351,7 +361,8 @@ enum rw_hint {\n>>  \t{ A },\n>> -\t{ B }\n>> +\t{ B },\n\
                    >> +\t{ C }\n>>\n>> the regression is also gone.\n";
        let files = parse_diffs(body);
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].new_path, None);
        assert_eq!(files[0].quote_depth, 2);
        let h = &files[0].hunks[0];
        assert_eq!(
            (h.old_start, h.old_lines, h.new_start, h.new_lines),
            (351, 7, 361, 8)
        );
        assert_eq!((h.added, h.removed), (2, 1));
    }

    #[test]
    fn a_collapsed_diff_keeps_file_hunk_counts_and_context() {
        let body = "Based on it: diff --git a/fs/x.c b/fs/x.c index 6bc5..7c6c 100644 --- a/fs/x.c \
                    +++ b/fs/x.c @@ -659,9 +659,14 @@ xlog_cil_insert_items( continue; - if (a) - \
                    continue; + + /* + */ + if (b) } The result: 62.06 -0.0% 62.05";
        let files = scan_collapsed(body);
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].new_path.as_deref(), Some("fs/x.c"));
        let h = &files[0].hunks[0];
        assert_eq!(
            (h.old_start, h.old_lines, h.new_start, h.new_lines),
            (659, 9, 659, 14)
        );
        assert_eq!(h.context, "xlog_cil_insert_items(");
        assert_eq!((h.added, h.removed), (4, 2));
    }

    #[test]
    fn an_indented_output_diff_is_read_with_its_indentation() {
        let body = "btrfs/026       - output mismatch (see 026.out.bad)\n\
                    \x20   --- tests/btrfs/026.out\t2023-01-02 16:54:41.000000000 +0000\n\
                    \x20   +++ /lkp/results//btrfs/026.out.bad\t2023-01-15 04:49:37.182778590 +0000\n\
                    \x20   @@ -8,3 +8,3 @@\n\
                    \x20    wrote 268435456/268435456 bytes\n\
                    \x20   -647d815906324ccdf288c7681f900ec0  SCRATCH_MNT/foo\n\
                    \x20   +0f2a8b1c9e3d4a5b6c7d8e9f00112233  SCRATCH_MNT/foo\n\
                    \x20    File digests after\n\
                    \x20   ...\n";
        let files = parse_diffs(body);
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].old_path.as_deref(), Some("tests/btrfs/026.out"));
        let h = &files[0].hunks[0];
        assert_eq!((h.old_start, h.old_lines, h.added, h.removed), (8, 3, 1, 1));
        assert!(parse_diffs("    --- not a diff\n    +++ either\n    text\n").is_empty());
    }

    #[test]
    fn dashes_in_prose_and_diffstat_are_not_diffs() {
        let body = "---\n fs/x.c | 2 +-\n 1 file changed\n\n--- not a diff\nsome text\n";
        assert!(parse_diffs(body).is_empty());
    }
}
