//! Tracker commands and maintainer replies (grammar: `grammar/evidence-events.md`):
//! `#regzbot ...` and `#syz ...` lines at any depth, and a maintainer's own
//! (unquoted) `Applied`, `Queued`, `Thanks, applied` line, including b4's
//! thank-you (`Applied to <branch>, thanks!`, then `[1/1] subject` entries with
//! `commit: <sha>` or a `.../c/<sha>` link), keeping the sha when one is named.

use std::sync::LazyLock;

use regex::Regex;

use super::BodyView;
use crate::model::{Event, EventKind};
use crate::text::Needles;

/// An applied/queued line, whole: `Thanks, applied to for-next.`, `Applied to the
/// vfs.fixes branch of the vfs/vfs.git tree.`, `Queued for 6.10, thanks!`.
static RE_APPLIED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:(?:Thanks|Thank you)[,!.]?\s+)?(?:[Aa]pplied|[Qq]ueued(?: up)?|[Pp]ushed|[Pp]icked up)",
        r"(?:\s+(?:it|this|the patch|the series|both|all|patches \d+-\d+))?",
        r"(?:\s+(?:to|into|in|on|for)\s+(?:the\s+)?(?P<tree>[\w./:+-]+?))?",
        r"(?:\s+(?:branch|tree|queue))?(?:\s+of\s+the\s+\S+?\s+tree)?",
        r"(?:\s+(?:as|with)\s+(?:commit\s+)?(?P<sha>[0-9a-f]{7,40}))?",
        r"(?:\s*(?:as well|now|already))?[\s,.!;:]*(?:(?:[Tt]hanks|[Tt]hank you)[\s,.!]*)?$",
    ))
    .expect("valid regex")
});

/// `[1/3] subject` entry of a b4 thank-you.
static RE_ENTRY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\[\d+/\d+\]\s+\S").expect("valid regex"));

/// `commit: <sha>` or a cgit/git.kernel.org `/c/<sha>` or `commit/?id=<sha>` link.
static RE_ENTRY_SHA: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:commit:\s+([0-9a-f]{7,40})(?-u:\b)|https?://\S+?(?:/c/|[?&]id=|/commit/)([0-9a-f]{7,40})(?-u:\b))")
        .expect("valid regex")
});

static RE_HEX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u:\b)[0-9a-f]{7,40}(?-u:\b)").expect("valid regex"));

/// What collapsed text must hold for a command to be in it.
static COMMANDS: LazyLock<Needles> = LazyLock::new(|| Needles::new(&["#regzbot", "#syz"]));

/// Whether a trimmed line can be a maintainer's `RE_APPLIED` line: it starts
/// with one of the regex's first words (a cheap test before the regex). A
/// bare lowercase `applied` or `queued` is left out on purpose: such a line is
/// a tester's ("applied it on 6.9-rc4"), not a maintainer's.
fn may_be_applied(t: &str) -> bool {
    const FIRST_WORDS: [&str; 7] = [
        "Thank", "Applied", "Queued", "Pushed", "pushed", "Picked", "picked",
    ];
    FIRST_WORDS.iter().any(|w| t.starts_with(w))
}

/// A regzbot or syz command line: kind, sha (a hex id in it, if any), tree
/// (`#syz test: <repo> <branch>`).
pub fn command_line(text: &str) -> Option<(EventKind, Option<String>, Option<String>)> {
    let t = text.trim();
    let kind = if t.starts_with("#regzbot") {
        EventKind::Regzbot
    } else if t.starts_with("#syz") {
        EventKind::Syz
    } else {
        return None;
    };
    let sha = RE_HEX
        .find_iter(t)
        .map(|m| m.as_str())
        .find(|h| h.bytes().any(|b| b.is_ascii_digit()))
        .map(str::to_string);
    let tree = (kind == EventKind::Syz)
        .then(|| t.strip_prefix("#syz test:"))
        .flatten()
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty());
    Some((kind, sha, tree))
}

/// A `#regzbot`/`#syz` command inside collapsed text: the command word and
/// at most one argument token (line ends are lost).
static RE_COLLAPSED_COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|\s)(#(?:regzbot|syz)\s+[a-z-]+:?(?:\s+[^\s#]+)?)").expect("valid regex")
});

/// Events of a body's lines, skipping diff lines.
pub fn events_in(view: &BodyView<'_>, in_diff: &[bool]) -> Vec<Event> {
    if view.collapsed {
        if !COMMANDS.any_in(view.body) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for line in &view.lines {
            let marks = super::QuoteMarks::new(line.text);
            for c in RE_COLLAPSED_COMMAND.captures_iter(line.text) {
                let Some(m) = c.get(1) else { continue };
                if let Some((kind, sha, _)) = command_line(m.as_str()) {
                    out.push(Event {
                        kind,
                        tree: None,
                        sha,
                        text: m.as_str().to_string(),
                        quote_depth: marks.depth_right_before(line.text, m.start()),
                    });
                }
            }
        }
        return out;
    }
    let mut out = Vec::new();
    let lines = &view.lines;
    let mut i = 0;
    while let Some(line) = lines.get(i) {
        if in_diff.get(i).copied().unwrap_or(false) {
            i += 1;
            continue;
        }
        let t = crate::text::trim(line.text);
        if let Some((kind, sha, tree)) = t.starts_with('#').then(|| command_line(t)).flatten() {
            out.push(Event {
                kind,
                tree,
                sha,
                text: t.to_string(),
                quote_depth: line.depth,
            });
            i += 1;
            continue;
        }
        let applied = (line.depth == 0 && may_be_applied(t))
            .then(|| RE_APPLIED.captures(t))
            .flatten();
        let Some(c) = applied else {
            i += 1;
            continue;
        };
        let tree = c.name("tree").map(|m| m.as_str().to_string());
        let sha = c.name("sha").map(|m| m.as_str().to_string());
        // b4 thank-you entries within the next lines of the author's text.
        let mut entries: Vec<Event> = Vec::new();
        let mut j = i + 1;
        while let Some(l) = lines.get(j).filter(|l| l.depth == 0 && j < i + 40) {
            let lt = l.text.trim();
            if RE_ENTRY.is_match(lt) {
                entries.push(Event {
                    kind: EventKind::Applied,
                    tree: tree.clone(),
                    sha: None,
                    text: lt.to_string(),
                    quote_depth: 0,
                });
            } else if let Some(sc) = RE_ENTRY_SHA.captures(lt) {
                if let Some(e) = entries.last_mut().filter(|e| e.sha.is_none()) {
                    e.sha = sc
                        .get(1)
                        .or_else(|| sc.get(2))
                        .map(|m| m.as_str().to_string());
                }
            } else if lt == "--" || lt.starts_with("Best regards") {
                break;
            }
            j += 1;
        }
        if entries.is_empty() {
            out.push(Event {
                kind: EventKind::Applied,
                tree,
                sha,
                text: t.to_string(),
                quote_depth: 0,
            });
            i += 1;
        } else {
            out.extend(entries);
            i = j;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(body: &str) -> Vec<Event> {
        events_in(&BodyView::new(body), &[])
    }

    #[test]
    fn regzbot_and_syz_lines_at_any_depth() {
        let e =
            events("#regzbot introduced: ca6dee6b79\n> #syz test: git://x.org/linux.git master\n");
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].kind, EventKind::Regzbot);
        assert_eq!(e[0].sha.as_deref(), Some("ca6dee6b79"));
        assert_eq!(e[1].kind, EventKind::Syz);
        assert_eq!(e[1].tree.as_deref(), Some("git://x.org/linux.git master"));
        assert_eq!(e[1].quote_depth, 1);
    }

    #[test]
    fn applied_lines_of_maintainers_and_not_of_testers() {
        let e = events("Thanks, applied.\n");
        assert_eq!(e.len(), 1);
        let e = events("Applied to for-next, thanks!\n");
        assert_eq!(e[0].tree.as_deref(), Some("for-next"));
        assert_eq!(
            events("Queued up in vfs.fixes.\n")[0].tree.as_deref(),
            Some("vfs.fixes")
        );
        let e = events("Queued for 6.10.\n");
        assert_eq!(e[0].tree.as_deref(), Some("6.10"));
        assert!(events("applied it on 6.9-rc4. This patch is not a fix\n").is_empty());
        assert!(events("Applied the patch on top of v6.9 and ran the test again.\n").is_empty());
        assert!(events("> Thanks, applied.\n").is_empty());
        // Every first word of the regex passes the cheap test before it.
        for line in [
            "Thank you, applied.",
            "Thanks! Pushed to master.",
            "Pushed to for-next.",
            "pushed to for-next",
            "Picked up for 6.11, thanks!",
            "picked up",
            "Queued.",
        ] {
            assert_eq!(events(&format!("{line}\n")).len(), 1, "{line}");
        }
    }

    #[test]
    fn collapsed_commands_keep_one_argument_and_their_depth() {
        let body = format!(
            "Hi, On x, A wrote: > > #regzbot introduced: ca6dee6b79 thanks. {} #syz fix: mm: x",
            "filler ".repeat(400)
        );
        let e = events(&body);
        assert_eq!(e.len(), 2);
        assert_eq!((e[0].kind, e[0].quote_depth), (EventKind::Regzbot, 2));
        assert_eq!(e[0].text, "#regzbot introduced: ca6dee6b79");
        assert_eq!(e[0].sha.as_deref(), Some("ca6dee6b79"));
        assert_eq!((e[1].kind, e[1].quote_depth), (EventKind::Syz, 0));
        assert_eq!(e[1].text, "#syz fix: mm:");
    }

    #[test]
    fn b4_thank_you_entries_keep_their_sha() {
        let body = "On Mon, A wrote:\n> patch\n\nApplied to the vfs.fixes branch of the vfs/vfs.git tree.\n\
                    Patches in the vfs.fixes branch should appear in linux-next soon.\n\n\
                    [1/2] fs: fix foo\n      https://git.kernel.org/vfs/vfs/c/0123456789ab\n\
                    [2/2] fs: fix bar\n      commit: abcdef0123456\n";
        let e = events(body);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].text, "[1/2] fs: fix foo");
        assert_eq!(e[0].sha.as_deref(), Some("0123456789ab"));
        assert_eq!(e[0].tree.as_deref(), Some("vfs.fixes"));
        assert_eq!(e[1].sha.as_deref(), Some("abcdef0123456"));
    }
}
