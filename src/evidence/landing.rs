//! Where patches landed, as a message says it (grammar:
//! `grammar/evidence-landing.md`), each a [`Landing`] with the tree, the
//! branch and the commit id where the mail gives them:
//! - a maintainer's own reply: `Applied, thanks!`, `Thanks, applied to
//!   for-next`, `Queued for 6.5`, `Applied to the vfs.fixes branch of the
//!   vfs/vfs.git tree`, b4's thank-you (`Applied to` + the tree URL and
//!   branch, then `[1/3] title` entries with `commit: <sha>`);
//! - `Dropped from for-next`, `I've dropped the series`, a change log's or a
//!   pull request's `Dropped patch "title"`: the patch left;
//! - for-next announcements (`[ANNOUNCE] xfs-linux: for-next updated to
//!   <sha>`, "The for-next branch of the xfs-linux repository ... has just
//!   been updated") and pull requests (`git request-pull`: "are available
//!   in the Git repository at:", "for you to fetch changes up to `<sha>`"):
//!   their shortlogs (`Author (N):` then indented titles, `[sha] title`);
//! - pr-tracker-bot's "has been merged into torvalds/linux.git: .../c/`<sha>`";
//! - tip-bot2's "The following commit has been merged into the `<branch>`
//!   branch of tip: Commit-ID: `<sha>`";
//! - stable's "I've just added the patch titled `<title>` to the 6.1-stable tree";
//! - library syncs' "Source kernel commit: `<sha>`".
//!
//! Only the author's own lines count (quote depth 0).

use std::sync::LazyLock;

use regex::Regex;

use super::BodyView;
use crate::mail::subject::title_key;
use crate::model::{Landing, LandingKind, Message};
use crate::text::may_contain_ci;

/// A phrase looked for on every own line, with its searcher built once
/// (`str::contains` builds one a call).
type Phrase = LazyLock<memchr::memmem::Finder<'static>>;

fn has(t: &str, p: &Phrase) -> bool {
    p.find(t.as_bytes()).is_some()
}

static TIP_PHRASE: Phrase =
    LazyLock::new(|| memchr::memmem::Finder::new("The following commit has been merged into the "));
static STABLE_PHRASE: Phrase =
    LazyLock::new(|| memchr::memmem::Finder::new("just added the patch titled"));
static MERGED_PHRASE: Phrase =
    LazyLock::new(|| memchr::memmem::Finder::new("has been merged into"));
static JUST_UPDATED: Phrase =
    LazyLock::new(|| memchr::memmem::Finder::new("has just been updated"));
static UPDATED: Phrase = LazyLock::new(|| memchr::memmem::Finder::new("has been updated"));
/// What both of the above hold.
static BEEN_UPDATED: Phrase = LazyLock::new(|| memchr::memmem::Finder::new("been updated"));
static PULL_PHRASE: Phrase =
    LazyLock::new(|| memchr::memmem::Finder::new("are available in the Git repository at"));

/// A maintainer's applied line, as maintainers write it (mined from the
/// linux-ext4, linux-nfs, linux-pm, cgroups and io-uring archives):
/// `Applied, thanks!`, `Thanks, queued.`, `Applied as 6.10-rc material,
/// thanks!`, `Applied to cgroup/for-6.12.`, `Applied 1-3 to nfsd-next for
/// v6.10, thanks!`, `Thanks, queued to power-supply's for-next branch.`,
/// `Applied to the vfs.fixes branch of the vfs/vfs.git tree.`, `Applied to
/// fscrypt.git#master for 6.2.`, `Thanks. I've added the patch to my tree.`,
/// `Thanks, I added this to mm.git's mm-new branch, along with ...`, `Now
/// queued up, thanks.`, `Thanks, merged.`; with the object first, `Whole
/// series applied as 6.10 material, thanks!`, `Patch applied, thanks.`
static APPLIED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:(?:So|OK|Ok|Okay|Alright|Well)[,!.]?\s+)?(?:(?:Thanks|Thank you)[,!.]?\s+)?(?:(?:I'?ve|I have|I|We'?ve|We have|Now)\s+)?(?:now\s+)?(?:(?i:reviewed),?\s+and\s+)?",
        r"(?:(?:Whole\s+|Entire\s+)?(?i:series|patch\s?set|set|patch|patches|(?:all|both)(?:\s+(?:the\s+)?(?:\d+|two|three|four|five|six|seven|eight|nine|ten))?(?:\s+(?:patches|commits|changes))?)\s+(?:now\s+)?)?",
        r"(?i:applied|queued(?: up)?|pushed|picked(?: it| this| them)? up|added|merged|pulled|taken|took|staged)",
        r"(?:\s+\([^)]{0,80}\))?",
        r"(?:\s+(?:it|this|this one|the patch|this patch|the series|this series|the patches|these|them|both|all|the set|this set|this patch series|this patchset|the patchset|this patch set|the patch set|the whole series|your patch|your series|your patches|your fix|the fix|this fix|patches \d+-\d+|\d+(?:-\d+)?(?:,\s*\d+(?:-\d+)?)*)(?:\s+up)?)?",
        r"(?:\s+\((?P<branch5>[\w.+-]+(?:/[\w.+-]+)?)\))?",
        r"(?:\s+(?:along with|with|without)\s+[^,.]{1,60}?)?",
        r"(?:",
        r"\s+(?:to|into|in|on)\s+(?:the\s+)?(?:(?P<tree1>[\w.-]+)'s\s+(?P<branch1>[\w./+-]+)\s+branch",
        r"|(?P<branch2>[\w./+-]+)\s+branch\s+of\s+(?:the\s+)?(?P<tree2>\S+?)(?:\s+(?:tree|repo|repository))?",
        r"|(?P<tree3>[\w./-]+\.git)#(?P<branch3>[\w./+-]+)",
        r"|(?P<url>https?://\S+)",
        r"|(?P<tree4>[\w.-]+)\s+(?P<branch6>(?:for-|dev|next|fixes|master|main|misc-)[\w./+-]*)(?:\s+branch)?",
        r"|(?P<branch4>[\w./:+#-]+?)(?:\s+(?:git\s+)?(?:branch|tree|queue))?)",
        r")?",
        r"(?:\s+(?:as|for)\s+(?:a\s+)?(?:fix\s+for\s+)?(?:Linux\s+)?(?:(?P<release>v?\d+\.\d+(?:[.-]rc\d*|\.y)?|next|fixes|linus)|(?:the\s+)?next\s+(?:rc|release|merge\s+window|cycle))(?:\s+material)?)?",
        r"(?:\s+(?:in|to|into)\s+(?:the\s+)?(?P<tree5>[\w./-]+)\s+(?:tree|branch|repo|repository))?",
        r"(?:\s+(?:as|with)\s+(?:commit\s+)?(?P<sha>[0-9a-f]{7,40}))?",
        r"(?:\s+(?:w/|with)\s+stable\s+cc'?d)?",
        r"(?P<with>\s+(?:with|without)\s+[^,.;!?]{1,80}?)?",
        r"(?:\s*(?:as well|now|already))?",
        r"(?:\s*[,.;!]+(?:\s+.*)?|\s*(?:--|[\s,.!;:]*(?:(?:[Tt]hanks|[Tt]hank you)\b.*)?))$",
    ))
    .expect("valid regex")
});

/// A patch's author or a maintainer saying where the fix went, in the
/// third person: `A patch with a fix landed to the mm tree`, `The fix has
/// landed in mm-unstable.`, `This patch is now in the mm tree (you're
/// cc'ed).`
static LANDED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:A|The|This|That|Your|My|Our)\s+(?:patch|fix|series|change|commit)",
        r"(?:\s+with\s+(?:a|the)\s+fix)?\s+",
        r"(?:(?:has\s+|have\s+)?(?:now\s+|already\s+)?(?:landed|been\s+queued|been\s+applied|been\s+merged|been\s+pushed|been\s+staged|been\s+picked\s+up|been\s+added)\s+(?:in|to|into|on)",
        r"|(?P<is>is)\s+(?:now\s+|already\s+)?(?:queued\s+)?in)",
        r"\s+(?:the\s+)?(?P<tree>[\w./-]+?)",
        r"(?:\s+(?P<word>tree|branch|repo|repository|queue))?",
        r"(?:\s+\([^)]{0,80}\))?\s*[.!,;]?(?:\s+.*)?$",
    ))
    .expect("valid regex")
});

/// The same said of "this" or "it" with no noun, or with no subject at
/// all: `This is now in misc-next.`, `It's in for-next now.`, `Now in xfs
/// for-next.`, `It has been queued in the erofs tree.` Only a branch-like
/// name (`misc-next`, `vfs.fixes`), a tree with its branch, or `the X tree`
/// says where: "It is in the works" does not.
static PRONOUN_IN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:(?:This|It|That)\s+(?:is|has\s+(?:now\s+|already\s+)?(?:landed|been\s+(?:queued|applied|merged|pushed|staged|picked\s+up|added)))|It's|Now)",
        r"\s+(?:now\s+|already\s+)?(?:queued\s+)?(?:in|into|to|on)\s+(?:the\s+)?(?P<tree>[\w./-]+?)",
        r"(?:\s+(?P<branch>(?:for-|dev|next|fixes|master|main|misc-)[\w./+-]*))?",
        r"(?:\s+(?P<word>tree|branch|repo|repository|queue))?",
        r"(?:\s+(?:now|already))?(?:\s+\([^)]{0,80}\))?\s*(?:[.!,;](?:\s+.*)?)?$",
    ))
    .expect("valid regex")
});

/// `Applied to` alone on its line (b4): the tree follows on a later line.
static APPLIED_TO: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:Applied|Queued|Pushed) to:?$").expect("valid regex"));

/// A tree line: a repository URL and an optional branch.
static TREE_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^((?:https?|git|ssh)://\S+|[\w.-]+@[\w.-]+:\S+)(?:\s+(\S+))?$")
        .expect("valid regex")
});

/// `[1/3] title` entry of a b4 thank-you.
static ENTRY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\[\d+/\d+\]\s+(\S.*)$").expect("valid regex"));

/// `commit: <sha>` or a cgit/git.kernel.org `/c/<sha>` link under an entry.
static ENTRY_SHA: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:commit:\s+([0-9a-f]{7,40})\b|https?://\S+?(?:/c/|[?&]id=|/commit/)([0-9a-f]{7,40})\b)")
        .expect("valid regex")
});

/// A maintainer saying a patch left the tree: `I've dropped the series for
/// now`, `dropped it from for-next`, `I reverted this from my tree`.
static DROPPED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)^(?:ok[,.]?\s+|thanks[,.]?\s+|so\s+)?(?:I'?ve\s+|I\s+have\s+|I\s+|I'm\s+|I\s+am\s+|I'll\s+be\s+)?",
        r"(?:dropped|dropping|reverted|reverting|backed out|removed)\s+",
        r"(?:it|this|this one|the patch|this patch|the series|this series|the commit|these|them|both)",
        r"(?:\s+(?:for now|again|from (?:the |my |our )?(?:for-next|linux-next|next|tree|branch|queue|[\w./-]+ (?:branch|tree))\b).{0,40}|\s+for now)[.!]?$"
    ))
    .expect("valid regex")
});

/// `Dropped from for-next`, `Dropped.`.
static DROPPED_SHORT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)^(?:(?:I'?ve|I have|I)\s+)?(?:dropped|reverted)(?:\s+(?:it|this|this one|the patch|this patch|the series|them))?",
        r"(?:\s+(?:from|for)\s+(?:the\s+)?([\w./:+-]+))?[.!,]*(?:\s+thanks[.!]*)?$"
    ))
    .expect("valid regex")
});

/// A patch named as gone from a series or a tree, in a posting's change log
/// or a pull request: `- Dropped patch "tmpfs: Always set ..."`, `Changes
/// since v1: Removed the patch "nfs: pass flags to second superblock" as
/// agreed.`, `v3: dropped the patch "x: y" (not needed)`. The title is
/// group 1, what follows it group 2.
static NAMED_DROP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r#"(?i)^(?:[-*+•]\s*)?(?:(?:changes\s+(?:since|from|in)\s+)?(?:v|version\s*)?\d+\s*[:-]\s*)?"#,
        r"(?:(?:I|we)(?:'ve|\s+have)?\s+)?(?:dropped|removed)\s+(?:the\s+)?(?:patch|commit)\s+",
        r#"(?:\d+(?:/\d+)?\s+)?(?:\(|:\s*)?["“]([^"”]{6,200})["”]\)?(.{0,120})$"#
    ))
    .expect("valid regex")
});

/// Words after a named drop saying the change went on elsewhere (`merged
/// upstream`, `squashed into 3/5`, `already applied`): the patch left the
/// series, its change did not.
static DROP_KEPT_ELSEWHERE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(?:merged|applied|upstream|already|squash|fold|folded|into|picked|queued|",
        r"landed|taken|separately|split|moved|combined|mainline|sent\s+separately)"
    ))
    .expect("valid regex")
});

/// Someone meaning to drop a patch: `would you mind if I drop it from my
/// series`, `we can drop it`, `I'll drop this patch`, `let's drop patch 8`.
static WILL_DROP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(?:I'?ll|I will|we can|we could|let'?s|I'?d like to|I should|I'?m going to|I am going to|",
        r"happy to|fine to|ok(?:ay)? to|would you mind if I|I'?d rather|I think we should|we should)\s+",
        r"(?:just\s+)?drop\s+(?:it|this|this one|this patch|the patch|that patch|patch\s+\d+|[\d/]+)\b",
        r"(?:\s+(?:from|for)\s+(?:my|the|this)\s+(?:series|set|queue|tree|branch))?"
    ))
    .expect("valid regex")
});

/// The one who would pull a request refusing it, in a reply to the request:
/// `I will not pull this`, `I wouldn't pull this`, `I'm not pulling this`,
/// `No way will this ever get merged`.
static REFUSED_PULL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)(?:\bI(?:\s+will\s+not|\s+won'?t|\s+would\s+not|\s+wouldn'?t|\s+am\s+not|'m\s+not|\s+refuse\s+to)",
        r"(?:\s+(?:be|going\s+to|ever))?\s+pull(?:ing)?\b",
        r"|\bno\s+way\s+(?:will|is|would)\s+(?:this|it|that)\s+(?:ever\s+)?(?:be\s+|get\s+)?(?:merged|pulled))"
    ))
    .expect("valid regex")
});

/// Words that make a refusal a delay or a condition (`I won't pull this
/// until the fix is in`, `unless`, `as is`, `yet`, `before`).
static PULL_LATER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:until|unless|before|yet|as[\s-]+is|right\s+now|for\s+now|this\s+(?:cycle|window|release)|if)\b|\?")
        .expect("valid regex")
});

/// A reply to a pull request (`Re: [GIT PULL] ...`) whose own line refuses
/// to pull it ([`REFUSED_PULL`], not a delay: [`PULL_LATER`]): a drop of
/// what the request carries, said without a title (the linker takes the
/// titles of the request it answers).
fn refused_pull(msg: &Message, own: &[(usize, &str)]) -> Option<Landing> {
    if !is_reply(msg) || !msg.subject.to_ascii_lowercase().contains("git pull") {
        return None;
    }
    own.iter()
        .map(|(_, t)| *t)
        .filter(|t| may_contain_ci(t, "pull") || may_contain_ci(t, "merged"))
        .find(|t| REFUSED_PULL.is_match(t) && !PULL_LATER.is_match(t))
        .map(|_| Landing {
            kind: LandingKind::Dropped,
            ..Landing::default()
        })
}

/// `Author Name (3):` of a shortlog.
pub(crate) static SHORTLOG_AUTHOR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\S.{0,80}\s\(\d+\):$").expect("valid regex"));

/// An indented shortlog entry, optionally `[sha] ` first.
pub(crate) static SHORTLOG_ENTRY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\s{2,}|\t)(?:\[([0-9a-f]{7,40})\]\s+)?(\S.*?)\s*$").expect("valid regex")
});

static FETCH_UP_TO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"for you to fetch changes up to ([0-9a-f]{12,40})").expect("valid regex")
});

static MERGED_INTO: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"has been merged into (\S+?):?\s*$").expect("valid regex"));

static COMMIT_LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"https?://\S+?/c/([0-9a-f]{12,40})\b").expect("valid regex"));

static TIP_MERGED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"The following commit has been merged into the (\S+) branch of (\S+?):?$")
        .expect("valid regex")
});

static COMMIT_ID: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^Commit-ID:\s+([0-9a-f]{12,40})\b").expect("valid regex"));

static STABLE_TO: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^to the ([\w.]+-stable) tree").expect("valid regex"));

static SOURCE_COMMIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^Source kernel commit:\s+([0-9a-f]{12,40})\b").expect("valid regex")
});

static ANNOUNCE_SUBJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\[ANNOUNCE\]\s+(\S+?):\s+(\S+)\s+updated to\s+([0-9a-f]{7,40})")
        .expect("valid regex")
});

static UPDATED_BRANCH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)The (\S+) branch of the (\S+) repository").expect("valid regex")
});

/// Words a line test needs (lower case; the patterns take them in any
/// case): a drop or revert for [`dropped`] and [`WILL_DROP`], a verb for
/// [`APPLIED`] and [`APPLIED_TO`].
const DROP_WORDS: [&str; 4] = ["drop", "revert", "backed", "removed"];
const VERB_WORDS: [&str; 10] = [
    "applied", "queued", "pushed", "picked", "added", "merged", "pulled", "taken", "took", "staged",
];

/// Both word lists in one search.
static LINE_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        &[DROP_WORDS.as_slice(), VERB_WORDS.as_slice()]
            .concat()
            .join("|"),
    )
    .expect("valid regex")
});

/// Which of the author's lines hold the words of the line tests (one
/// search of their text, where the tests ran line by line): a line holding
/// none of them passes none of the tests.
struct LineWords {
    /// Per own line, whether it holds a drop word and a verb; `None` when
    /// every line must be tried (text with `ſ` or `K`, which fold to ASCII
    /// letters).
    found: Option<Vec<(bool, bool)>>,
}

impl LineWords {
    /// The words of the own lines, from their text ([`OwnText`]).
    fn of(own: OwnText) -> LineWords {
        let OwnText { mut text, starts } = own;
        if !crate::text::lowers_safely(&text) {
            return LineWords { found: None };
        }
        text.make_ascii_lowercase();
        let mut found = vec![(false, false); starts.len()];
        // The search skips a word overlapping one it found (`addedrop`),
        // but every pattern wants its word after white space or at the
        // start, where no word found before can reach.
        for m in LINE_WORDS.find_iter(&text) {
            let line = starts.partition_point(|&s| s <= m.start()) - 1;
            if let Some(f) = found.get_mut(line) {
                if DROP_WORDS.contains(&m.as_str()) {
                    f.0 = true;
                } else {
                    f.1 = true;
                }
            }
        }
        LineWords { found: Some(found) }
    }

    /// Whether own line `k` holds a drop word.
    fn drop_in(&self, k: usize) -> bool {
        self.found
            .as_ref()
            .is_none_or(|f| f.get(k).is_none_or(|l| l.0))
    }

    /// Whether own line `k` holds a verb.
    fn verb_in(&self, k: usize) -> bool {
        self.found
            .as_ref()
            .is_none_or(|f| f.get(k).is_none_or(|l| l.1))
    }
}

/// The author's lines one after the other, each ended by a line feed, and
/// where each starts.
struct OwnText {
    text: String,
    starts: Vec<usize>,
}

impl OwnText {
    fn of(own: &[(usize, &str)]) -> OwnText {
        let mut text = String::with_capacity(own.iter().map(|(_, t)| t.len() + 1).sum());
        let mut starts = Vec::with_capacity(own.len());
        for (_, t) in own {
            starts.push(text.len());
            text.push_str(t);
            text.push('\n');
        }
        OwnText { text, starts }
    }
}

/// The landing a stable backport is (its own text names its upstream commit:
/// `[ Upstream commit <sha> ]`, `commit <sha> upstream.`): the patch of its
/// title is in mainline, under that commit.
pub fn backport(p: &crate::model::PatchFacts) -> Option<Landing> {
    let upstream = p.upstream.as_ref()?;
    (p.title_key.len() >= crate::mail::subject::MIN_TITLE_KEY).then(|| Landing {
        kind: LandingKind::Stable,
        title: Some(p.title_key.clone()),
        commit: Some(upstream.clone()),
        tree: Some("stable".into()),
        branch: None,
        quote_depth: 0,
    })
}

/// The landings a message states (see the module docs).
pub fn landings_in(msg: &Message, view: &BodyView<'_>, in_diff: &[bool]) -> Vec<Landing> {
    if view.collapsed {
        return Vec::new();
    }
    // Sized for every line at once (a filtered collect grows by doubling:
    // about six reallocations and copies a mail).
    let mut own: Vec<(usize, &str)> = Vec::with_capacity(view.lines.len());
    own.extend(
        view.lines
            .iter()
            .enumerate()
            .filter(|(i, l)| l.depth == 0 && !in_diff.get(*i).copied().unwrap_or(false))
            .map(|(i, l)| (i, crate::text::trim(l.text))),
    );
    let raw = |i: usize| view.lines.get(i).map_or("", |l| l.text);
    let mut out = Vec::new();
    // The phrases most mail lacks are looked for in the author's lines
    // first (one search of their text: a phrase holds no line end), and on
    // each line only when one of them holds it.
    let own_text = OwnText::of(&own);
    let in_body = Found::in_body(msg, &own_text.text);
    if let Some(mut l) = pull_or_announce(msg, &own, &raw, &in_body) {
        // A request's change log may name a patch taken out of it (of the
        // request's tree and branch).
        let (tree, branch) = l
            .first()
            .map(|x| (x.tree.clone(), x.branch.clone()))
            .unwrap_or_default();
        l.extend(
            own.iter()
                .filter_map(|(_, t)| named_drop(t))
                .map(|d| Landing {
                    tree: tree.clone(),
                    branch: branch.clone(),
                    ..d
                }),
        );
        return l;
    }
    if let Some(l) = refused_pull(msg, &own) {
        return vec![l];
    }
    if let Some(l) = patchwork_notice(&own, &own_text.text) {
        return l;
    }
    if own_text.text.contains("* ") {
        out.extend(branch_log(&own));
    }
    let words = LineWords::of(own_text);
    let mut k = 0;
    while let Some(&(_, t)) = own.get(k) {
        if let Some(l) = in_body.merged.then(|| merged_note(t, &own[k..])).flatten() {
            out.push(l);
        } else if let Some(c) = (in_body.tip && has(t, &TIP_PHRASE))
            .then(|| TIP_MERGED.captures(t))
            .flatten()
        {
            let commit = own[k..]
                .iter()
                .take(12)
                .find_map(|(_, l)| COMMIT_ID.captures(l).and_then(|c| c.get(1)))
                .map(|m| m.as_str().to_string());
            out.push(Landing {
                kind: LandingKind::TipBot,
                title: tip_title(&msg.subject),
                commit,
                tree: c.get(2).map(|m| m.as_str().to_string()),
                branch: c.get(1).map(|m| m.as_str().to_string()),
                quote_depth: 0,
            });
        } else if in_body.stable && has(t, &STABLE_PHRASE) {
            let title = own[k + 1..].iter().map(|(_, l)| *l).find(|l| !l.is_empty());
            let branch = own[k + 1..]
                .iter()
                .take(8)
                .find_map(|(_, l)| STABLE_TO.captures(l).and_then(|c| c.get(1)))
                .map(|m| m.as_str().to_string());
            if let Some(title) = title {
                out.push(Landing {
                    kind: LandingKind::Stable,
                    title: Some(title_key(title)),
                    commit: None,
                    tree: Some("stable".into()),
                    branch,
                    quote_depth: 0,
                });
            }
        } else if let Some(c) = t
            .starts_with("Source kernel commit:")
            .then(|| SOURCE_COMMIT.captures(t))
            .flatten()
        {
            let title = crate::mail::subject::subject_tags(&msg.subject).title;
            out.push(Landing {
                kind: LandingKind::LibrarySync,
                title: (!title.is_empty()).then(|| title_key(&title)),
                commit: c.get(1).map(|m| m.as_str().to_string()),
                tree: Some("torvalds/linux.git".into()),
                branch: None,
                quote_depth: 0,
            });
        } else if let Some(used) = applied(&own[k..], words.verb_in(k), &mut out) {
            k += used;
            continue;
        } else if let Some(l) = words.drop_in(k).then(|| named_drop(t)).flatten() {
            out.push(l);
        } else if in_body.reply && words.drop_in(k) {
            if let Some(l) = dropped(t) {
                out.push(l);
            } else if may_contain_ci(t, "drop") && WILL_DROP.is_match(t) {
                out.push(Landing {
                    kind: LandingKind::WillDrop,
                    ..Landing::default()
                });
            }
        }
        k += 1;
    }
    out
}

/// A commit of a `git log --graph --oneline --decorate` listing: graph,
/// id, decoration (`(axboe-block/for-next)`), title, and the arrow a writer
/// may point it out with (`<-----`).
static LOG_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^[|\\/ ]*\*[|\\/ ]*\s([0-9a-f]{7,40})\s+(?:\(([^)]{0,200})\)\s+)?(\S.*?)\s*(?:<-+)?$",
    )
    .expect("valid regex")
});

/// The remote-tracking branch of a decoration (`axboe-block/for-next`,
/// `HEAD -> x, origin/master`): tags and local branches say nothing of a
/// tree.
fn remote_branch(decoration: &str) -> Option<(&str, &str)> {
    decoration
        .split(", ")
        .map(|d| d.trim().trim_start_matches("HEAD -> "))
        .filter(|d| !d.starts_with("tag:") && !d.contains(' '))
        .find_map(|d| d.split_once('/'))
        .filter(|(tree, branch)| !tree.is_empty() && !branch.is_empty())
}

/// A listing of a branch's log (`git log --graph --oneline --decorate`) a
/// person pasted to show what a tree holds: every commit under a first
/// line decorated with a remote-tracking branch is in that branch, each a
/// landing of its title there. A listing whose first commit carries no
/// such branch (the robot's "applied it as" list, a local branch) says
/// nothing of a tree.
fn branch_log(own: &[(usize, &str)]) -> Vec<Landing> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < own.len() {
        let t = own[k].1;
        // The listing starts at a commit decorated with such a branch.
        let head = (t.starts_with('*') || t.starts_with('|'))
            .then(|| LOG_LINE.captures(t))
            .flatten();
        let Some((tree, branch)) = head
            .as_ref()
            .and_then(|c| c.get(2))
            .and_then(|d| remote_branch(d.as_str()))
        else {
            k += 1;
            continue;
        };
        while let Some(&(_, l)) = own.get(k) {
            if l.is_empty() || !l.starts_with(['*', '|', '\\', '/']) {
                break;
            }
            if let Some(c) = LOG_LINE.captures(l)
                && let (Some(id), Some(title)) = (c.get(1), c.get(3))
                && !title.as_str().starts_with("Merge ")
            {
                out.push(Landing {
                    kind: LandingKind::BranchLog,
                    title: Some(title_key(title.as_str())),
                    commit: Some(id.as_str().to_string()),
                    tree: Some(tree.to_string()),
                    branch: Some(branch.to_string()),
                    quote_depth: 0,
                });
            }
            k += 1;
        }
    }
    out
}

/// `This series was applied to <tree> (<branch>)`: the kernel.org
/// patchwork bot's notice (netdev, bpf, f2fs and other lists).
static PATCHWORK_APPLIED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^This (?:series|patch|patchset|patch set) was applied to (\S+?)(?: \(([^)\s]+)\))?(?: by .*)?:?$")
        .expect("valid regex")
});

/// An entry of its summary: `- [net-next,v2,1/3] title`.
static PATCHWORK_ENTRY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^- \[[^\]]*\] (\S.*)$").expect("valid regex"));

/// The kernel.org patchwork bot's notice: one applied landing per entry of
/// its summary that has a commit link (an entry with `(no matching
/// commit)` was not applied), with the tree and branch of its first line.
/// `None` for other mail.
fn patchwork_notice(own: &[(usize, &str)], own_text: &str) -> Option<Vec<Landing>> {
    static NEEDLE: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new("was applied to "));
    NEEDLE.find(own_text.as_bytes())?;
    let (at, c) = own
        .iter()
        .enumerate()
        .find_map(|(k, (_, t))| Some((k, PATCHWORK_APPLIED.captures(t)?)))?;
    let tree = c.get(1).map(|m| m.as_str().to_string());
    let branch = c.get(2).map(|m| m.as_str().to_string());
    let mut out = Vec::new();
    let mut title: Option<&str> = None;
    for (_, t) in &own[at + 1..] {
        if let Some(e) = PATCHWORK_ENTRY.captures(t) {
            title = e.get(1).map(|m| m.as_str());
        } else if let Some(name) = title.take()
            && let Some(sha) = COMMIT_LINK.captures(t).and_then(|c| c.get(1))
        {
            out.push(Landing {
                kind: LandingKind::Applied,
                title: Some(title_key(name)),
                commit: Some(sha.as_str().to_string()),
                tree: tree.clone(),
                branch: branch.clone(),
                quote_depth: 0,
            });
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Which of the phrases the landing lines need a text holds (`false`: no
/// line of it can hold the phrase): the author's lines, searched together.
struct Found {
    tip: bool,
    stable: bool,
    merged: bool,
    updated: bool,
    pull: bool,
    /// Whether the message is a reply (only a reply can say that a patch
    /// was dropped; the drop words are looked for on its own lines only,
    /// since its body is mostly quoted text, where they are common).
    reply: bool,
}

/// The phrases of [`Found`], in one search: each of its fields' phrase on
/// its own was a search of the whole body, and most bodies hold none.
static BODY_PHRASES: LazyLock<Regex> = LazyLock::new(|| {
    let phrases = [
        TIP_PHRASE.needle(),
        STABLE_PHRASE.needle(),
        MERGED_PHRASE.needle(),
        BEEN_UPDATED.needle(),
        PULL_PHRASE.needle(),
        b"lease pull from",
    ];
    let alternatives: Vec<String> = phrases
        .iter()
        .map(|p| regex::escape(std::str::from_utf8(p).expect("ASCII phrase")))
        .collect();
    Regex::new(&alternatives.join("|")).expect("valid regex")
});

impl Found {
    fn in_body(msg: &Message, body: &str) -> Found {
        let mut found = Found {
            tip: false,
            stable: false,
            merged: false,
            updated: false,
            pull: false,
            reply: is_reply(msg),
        };
        for m in BODY_PHRASES.find_iter(body) {
            let p = m.as_str().as_bytes();
            if p == TIP_PHRASE.needle() {
                // It holds the merged phrase, which the search then skips.
                found.tip = true;
                found.merged = true;
            } else if p == STABLE_PHRASE.needle() {
                found.stable = true;
            } else if p == MERGED_PHRASE.needle() {
                found.merged = true;
            } else if p == BEEN_UPDATED.needle() {
                found.updated = true;
            } else {
                found.pull = true;
            }
        }
        found
    }
}

/// pr-tracker-bot's note (`has been merged into torvalds/linux.git:` then
/// the merge's `/c/<sha>` link).
fn merged_note(t: &str, rest: &[(usize, &str)]) -> Option<Landing> {
    if !has(t, &MERGED_PHRASE) {
        return None;
    }
    let c = MERGED_INTO.captures(t)?;
    let tree = c.get(1)?.as_str().to_string();
    let commit = rest
        .iter()
        .take(4)
        .find_map(|(_, l)| COMMIT_LINK.captures(l).and_then(|c| c.get(1)))
        .map(|m| m.as_str().to_string());
    Some(Landing {
        kind: LandingKind::Merged,
        title: None,
        commit,
        tree: Some(tree),
        branch: None,
        quote_depth: 0,
    })
}

/// The title of a tip-bot2 subject (`[tip: x86/urgent] x86/foo: fix it`).
fn tip_title(subject: &str) -> Option<String> {
    let tags = crate::mail::subject::subject_tags(subject);
    (!tags.title.is_empty()).then(|| title_key(&tags.title))
}

/// An applied line (and a b4 thank-you's tree line and entries after it)
/// at the start of `lines`; returns how many lines it read. `verb`: whether
/// the line holds one of [`VERB_WORDS`] (without, only [`LANDED`] can
/// match). The lines are trimmed: a line's first word starts at its first
/// byte.
fn applied(lines: &[(usize, &str)], verb: bool, out: &mut Vec<Landing>) -> Option<usize> {
    let &(_, t) = lines.first()?;
    let (branch, tree, sha, mut used) = if verb
        && may_be_applied(t)
        && let Some(c) = APPLIED.captures(t)
    {
        let get = |names: &[&str]| {
            names.iter().find_map(|n| c.name(n)).map(|m| {
                m.as_str()
                    .trim_end_matches(['.', ',', ';', ':'])
                    .to_string()
            })
        };
        let branch = get(&[
            "branch1", "branch2", "branch3", "branch6", "branch4", "branch5", "release",
        ])
        .filter(|b| !matches!(b.as_str(), "my" | "our" | "his" | "her" | "your" | "the"));
        // "I applied it, and the test passes" is a tester's: a first-person
        // line says where, or says nothing more.
        let first_person = ["I ", "I've ", "I have ", "We"].iter().any(|p| {
            t.trim_start_matches(|c: char| !c.is_ascii_uppercase())
                .starts_with(p)
        }) || t.contains(" I ");
        let said_where = [
            "branch1", "branch2", "branch3", "branch4", "branch5", "branch6", "tree3", "tree5",
            "url", "release",
        ]
        .iter()
        .any(|n| c.name(n).is_some());
        if first_person && !said_where && (t.contains(" and ") || t.contains(" but ")) {
            return None;
        }
        // "I applied your patch on top next-20190731": a tester's base, not
        // a tree and its branch.
        if c.name("tree4").is_some_and(|m| m.as_str() == "top") {
            return None;
        }
        // "Merged into selinux/next with some minor tweaks": what was
        // changed on the way, said of a tree or branch, or in words of
        // editing; "I added it to differentiate with the message above" is
        // no landing.
        if let Some(with) = c.name("with")
            && let Some(place) = c.name("branch4")
            && c.name("tree5").is_none()
            && !pronoun_place(place.as_str(), false)
            && !edits(with.as_str())
        {
            return None;
        }
        (
            branch,
            get(&["tree1", "tree2", "tree3", "tree4", "tree5", "url"])
                .filter(|t| !matches!(t.as_str(), "my" | "our" | "his" | "her" | "your" | "the")),
            c.name("sha").map(|m| m.as_str().to_string()),
            1,
        )
    } else if verb && t.len() <= 11 && APPLIED_TO.is_match(t) {
        // b4: `Applied to`, a blank line, `   <url> <branch>`.
        let (used, tree, branch) =
            lines
                .iter()
                .enumerate()
                .skip(1)
                .take(3)
                .find_map(|(j, (_, l))| {
                    let c = TREE_LINE.captures(l)?;
                    Some((
                        j + 1,
                        c.get(1).map(|m| m.as_str().to_string()),
                        c.get(2).map(|m| m.as_str().to_string()),
                    ))
                })?;
        (branch, tree, None, used)
    } else if t
        .as_bytes()
        .first()
        .is_some_and(|b| matches!(b, b'A' | b'T' | b'Y' | b'M' | b'O'))
        && let mut words = t.split_whitespace()
        && words
            .next()
            .is_some_and(|w| matches!(w, "A" | "The" | "This" | "That" | "Your" | "My" | "Our"))
        && words
            .next()
            .is_some_and(|w| matches!(w, "patch" | "fix" | "series" | "change" | "commit"))
        && let Some(c) = LANDED.captures(t)
        && let Some(tree) = c.name("tree").map(|m| m.as_str())
        && !matches!(tree, "the" | "my" | "our" | "your" | "it" | "a")
        // `is in ...` names a tree only as `the X tree`, or a branch-like
        // name (`mm-unstable`, `vfs.fixes`): "is in the works" does not.
        && (c.name("is").is_none()
            || c.name("word").is_some()
            || tree.contains(['-', '.', '/'])
            || matches!(tree, "mainline" | "linux-next"))
    {
        (None, Some(tree.to_string()), None, 1)
    } else if t
        .as_bytes()
        .first()
        .is_some_and(|b| matches!(b, b'T' | b'I' | b'N'))
        && let Some(c) = PRONOUN_IN.captures(t)
        && let Some(tree) = c.name("tree").map(|m| m.as_str())
        && !t.ends_with('?')
        && pronoun_place(tree, c.name("word").is_some() || c.name("branch").is_some())
    {
        let branch = c.name("branch").map(|b| {
            b.as_str()
                .trim_end_matches(['.', ',', ';', ':'])
                .to_string()
        });
        (branch, Some(tree.to_string()), None, 1)
    } else {
        return None;
    };
    // b4 thank-you entries within the next lines of the author's text.
    let mut tree = tree;
    let mut branch = branch;
    let mut entries: Vec<Landing> = Vec::new();
    let mut j = used;
    while let Some(&(_, l)) = lines.get(j).filter(|_| j < used + 60) {
        // b4 writes the tree line right under `Applied to`, after at
        // most a blank line; further down only a repository's URL says
        // where the patch went (a list's footer or a bug's URL does not).
        if let Some(c) = TREE_LINE.captures(l)
            && entries.is_empty()
            && tree.is_none()
            && (j <= used + 1 || c.get(1).is_some_and(|u| names_repository(u.as_str())))
        {
            tree = c.get(1).map(|m| m.as_str().to_string());
            branch = branch.or(c.get(2).map(|m| m.as_str().to_string()));
        } else if let Some(c) = ENTRY.captures(l) {
            entries.push(Landing {
                kind: LandingKind::Applied,
                title: c.get(1).map(|m| title_key(m.as_str())),
                commit: None,
                tree: tree.clone(),
                branch: branch.clone(),
                quote_depth: 0,
            });
        } else if let Some(c) = ENTRY_SHA.captures(l) {
            if let Some(e) = entries.last_mut().filter(|e| e.commit.is_none()) {
                e.commit = c
                    .get(1)
                    .or_else(|| c.get(2))
                    .map(|m| m.as_str().to_string());
            }
        } else if l == "--" || l.starts_with("Best regards") {
            break;
        }
        j += 1;
    }
    if entries.is_empty() {
        out.push(Landing {
            kind: LandingKind::Applied,
            title: None,
            commit: sha,
            tree,
            branch,
            quote_depth: 0,
        });
    } else {
        used = j;
        out.extend(entries);
    }
    Some(used)
}

/// Whether `name`, after "this is in" or "now in", names a tree or a
/// branch: a branch-like name (`misc-next`, `vfs.fixes`, `cgroup/for-6.12`)
/// or any name when `said` (a branch or `tree` follows it). Not a file
/// (`fs/ext4/inode.c`), a directory (`arch/x86`) or a release (`6.9`,
/// `v6.8-rc1`): "it is in mm/slub.c" says where code is, not a patch.
fn pronoun_place(name: &str, said: bool) -> bool {
    let starts_with_letter = name.chars().next().is_some_and(|c| {
        c.is_ascii_alphabetic()
            && !(c == 'v' && name[1..].starts_with(|d: char| d.is_ascii_digit()))
    });
    if !starts_with_letter
        || matches!(
            name,
            "the" | "my" | "our" | "your" | "it" | "a" | "top" | "local" | "internal" | "private"
        )
    {
        return false;
    }
    let last = name.rsplit('/').next().unwrap_or(name);
    let file = [".c", ".h", ".rs", ".S", ".txt", ".rst", ".py", ".sh"]
        .iter()
        .any(|e| last.ends_with(e));
    if file {
        return false;
    }
    let branch_like = |n: &str| {
        n.starts_with("for-")
            || n.starts_with("misc-")
            || n.starts_with("dev")
            || n.ends_with("-next")
            || n.ends_with("-fixes")
            || n.ends_with(".fixes")
            || n.ends_with("-testing")
            || matches!(
                n,
                "next" | "fixes" | "master" | "main" | "mainline" | "linux-next"
            )
    };
    if name.contains('/') {
        return branch_like(last);
    }
    said || branch_like(name) || name.contains(['-', '.'])
}

/// Whether `url` names a git repository (`git://...`, `....git`, a
/// git.kernel.org or forge path), not a list's page or a bug.
fn names_repository(url: &str) -> bool {
    url.starts_with("git://")
        || url.starts_with("ssh://")
        || url.contains(".git")
        || url.contains("git.kernel.org")
        || url.contains("github.com")
        || url.contains("gitlab")
        || url.contains("/cgit/")
}

/// Whether a `with ...` clause after an applied line says what was
/// edited on the way (`with a few minor cosmetic tweaks`, `with the zx
/// chunk removed`, `with a massaged commit msg`); "changelog" is in "chang".
fn edits(clause: &str) -> bool {
    const EDIT_WORDS: [&str; 31] = [
        "tweak",
        "chang",
        "fix",
        "edit",
        "clean",
        "reword",
        "adjust",
        "correct",
        "modif",
        "massag",
        "whitespace",
        "typo",
        "nit",
        "style",
        "format",
        "wrap",
        "remov",
        "squash",
        "fold",
        "rebas",
        "suggest",
        "improv",
        "ack",
        "review",
        "tag",
        "comment",
        "updat",
        "commit message",
        "commit msg",
        "subject",
        "expectation",
    ];
    let lower = clause.to_ascii_lowercase();
    EDIT_WORDS.iter().any(|w| lower.contains(w))
}

/// Whether a trimmed line can be a maintainer's applied line: it starts with
/// one of the first words of [`APPLIED`] (or of its object, `Whole series
/// applied`). A bare lowercase `applied` or
/// `queued` is left out: such a line is a tester's ("applied it on
/// 6.9-rc4"), not a maintainer's; a lowercase `added` too.
///
/// Its verb is then one of its first six words (`Thank you, I have now
/// applied`): most lines starting with `I ` or `Thanks` have none, and
/// [`APPLIED`] is not run on them.
fn may_be_applied(t: &str) -> bool {
    const FIRST: [&str; 31] = [
        "Thank", "Applied", "Queued", "Pushed", "pushed", "Picked", "picked", "Added", "Merged",
        "Pulled", "Taken", "Staged", "Reviewed", "I've ", "I have ", "I ", "We've ", "We have ",
        "Now ", "Whole ", "Entire ", "Series ", "Patch ", "Patches ", "Set ", "All ", "Both ",
        "So", "OK", "Ok", "Alright",
    ];
    FIRST.iter().any(|w| t.starts_with(w)) && t.len() <= 160 && leads_with(t, 6, &VERB_WORDS)
}

/// Whether one of the first `n` words of `t` starts with one of `stems`
/// (lower case)
/// (ASCII case-insensitive, as a `(?i)` pattern matches them; a word that
/// is not ASCII may match under Unicode case folding, and counts).
fn leads_with(t: &str, n: usize, stems: &[&str]) -> bool {
    // Bytes, not chars: a byte that is not ASCII (or the vertical tab, white
    // space to a pattern but not to `is_ascii_whitespace`) makes the line a
    // candidate.
    let b = t.as_bytes();
    let mut i = 0;
    for _ in 0..n {
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        let start = i;
        while let Some(&c) = b.get(i).filter(|c| !c.is_ascii_whitespace()) {
            if c >= 0x80 || c == 0x0b {
                return true;
            }
            i += 1;
        }
        if start == i {
            return false;
        }
        let w = &b[start..i];
        // The first letter rules out most words before a whole comparison.
        if stems.iter().any(|s| {
            s.as_bytes().first() == Some(&w[0].to_ascii_lowercase())
                && w.get(..s.len())
                    .is_some_and(|p| p.eq_ignore_ascii_case(s.as_bytes()))
        }) {
            return true;
        }
    }
    false
}

/// A reply (only a reply can say that a patch was dropped).
fn is_reply(msg: &Message) -> bool {
    msg.in_reply_to.is_some() || crate::mail::subject::is_reply(&msg.subject)
}

fn dropped(t: &str) -> Option<Landing> {
    // Both patterns start with their verb, after at most three words (`ok,
    // I'll be dropping`): most lines have none there.
    if !leads_with(t, 4, &["dropp", "revert", "backed", "removed"]) {
        return None;
    }
    if let Some(c) = DROPPED_SHORT.captures(t) {
        return Some(Landing {
            kind: LandingKind::Dropped,
            branch: c.get(1).map(|m| m.as_str().to_string()),
            ..Landing::default()
        });
    }
    DROPPED.is_match(t).then(|| Landing {
        kind: LandingKind::Dropped,
        ..Landing::default()
    })
}

/// A patch named as dropped ([`NAMED_DROP`]), unless the words after the
/// title say its change lives on elsewhere.
fn named_drop(t: &str) -> Option<Landing> {
    if !(may_contain_ci(t, "patch") || may_contain_ci(t, "commit"))
        || !(t.contains('"') || t.contains('“'))
    {
        return None;
    }
    let c = NAMED_DROP.captures(t)?;
    let after = c.get(2).map_or("", |m| m.as_str());
    if DROP_KEPT_ELSEWHERE.is_match(after) {
        return None;
    }
    let title = title_key(c.get(1)?.as_str());
    (!title.is_empty()).then(|| Landing {
        kind: LandingKind::Dropped,
        title: Some(title),
        ..Landing::default()
    })
}

/// A for-next announcement or a pull request: one landing per shortlog
/// entry, with the tree and branch; the tip commit on the last entry's
/// landing when the request names it and the entry gives none.
fn pull_or_announce<'a>(
    msg: &Message,
    own: &[(usize, &'a str)],
    raw: &dyn Fn(usize) -> &'a str,
    in_body: &Found,
) -> Option<Vec<Landing>> {
    let announce = may_contain_ci(&msg.subject, "[announce]")
        .then(|| ANNOUNCE_SUBJECT.captures(&msg.subject))
        .flatten();
    let updated = in_body.updated
        && own
            .iter()
            .any(|(_, l)| has(l, &JUST_UPDATED) || has(l, &UPDATED));
    let pull_at = in_body
        .pull
        .then(|| {
            own.iter().position(|(_, l)| {
                has(l, &PULL_PHRASE)
                    || l.starts_with("Please pull from")
                    || l.starts_with("please pull from")
            })
        })
        .flatten();
    let (kind, mut tree, mut branch) = if let Some(p) = pull_at {
        // The repository and ref: the first URL line after the marker (a
        // ref continued on the next line after a `\`).
        let rest: Vec<&str> = own[p..].iter().map(|(_, l)| *l).take(8).collect();
        let mut words: Vec<&str> = Vec::new();
        for l in &rest {
            let ws: Vec<&str> = l.split_whitespace().filter(|w| *w != "\\").collect();
            if words.is_empty() {
                if let Some(at) = ws
                    .iter()
                    .position(|w| w.contains("://") || w.contains("git@"))
                {
                    words.extend(&ws[at..]);
                    if words.len() >= 2 {
                        break;
                    }
                }
            } else if let Some(w) = ws.first() {
                words.push(w);
                break;
            }
        }
        (
            LandingKind::PullRequest,
            words.first().map(|s| s.to_string()),
            words.get(1).map(|s| s.to_string()),
        )
    } else if announce.is_some() || (updated && msg.subject.contains("ANNOUNCE")) {
        (
            LandingKind::ForNext,
            announce
                .as_ref()
                .and_then(|c| c.get(1))
                .map(|m| m.as_str().to_string()),
            announce
                .as_ref()
                .and_then(|c| c.get(2))
                .map(|m| m.as_str().to_string()),
        )
    } else {
        return None;
    };
    if kind == LandingKind::ForNext
        && let Some(c) = own.iter().find_map(|(_, l)| UPDATED_BRANCH.captures(l))
    {
        branch = branch.or(c.get(1).map(|m| m.as_str().to_string()));
        tree = tree.or(c.get(2).map(|m| m.as_str().to_string()));
    }
    let tip = own
        .iter()
        .find_map(|(_, l)| FETCH_UP_TO.captures(l).and_then(|c| c.get(1)))
        .map(|m| m.as_str().to_string())
        .or_else(|| {
            announce
                .as_ref()
                .and_then(|c| c.get(3))
                .map(|m| m.as_str().to_string())
        });
    let mut out: Vec<Landing> = Vec::new();
    let mut in_author = false;
    // The last entry's line and title: a mailer that wraps long lines
    // carries the end of a title to a line of its own, not indented.
    let mut last: Option<(usize, String)> = None;
    for &(i, t) in own {
        if SHORTLOG_AUTHOR.is_match(t) && !t.starts_with('[') {
            in_author = true;
            last = None;
            continue;
        }
        if !in_author {
            continue;
        }
        if t.is_empty() {
            in_author = false;
            continue;
        }
        // Entries keep their indentation in the raw line.
        let Some(c) = SHORTLOG_ENTRY.captures(raw(i)) else {
            if let Some((at, title)) = last.take()
                && at + 1 == i
                && !t.contains(": ")
                && let Some(prev) = out.last_mut()
            {
                let whole = format!("{title} {t}");
                prev.title = Some(title_key(&whole));
                last = Some((i, whole));
                continue;
            }
            in_author = false;
            continue;
        };
        let Some(title) = c.get(2).map(|m| m.as_str()) else {
            continue;
        };
        if title.contains(" | ") || title.ends_with("changed") {
            in_author = false;
            continue;
        }
        last = Some((i, title.to_string()));
        out.push(Landing {
            kind,
            title: Some(title_key(title)),
            commit: c.get(1).map(|m| m.as_str().to_string()),
            tree: tree.clone(),
            branch: branch.clone(),
            quote_depth: 0,
        });
    }
    if out.is_empty() {
        // A request or announcement without a shortlog still says where.
        out.push(Landing {
            kind,
            title: None,
            commit: tip,
            tree,
            branch,
            quote_depth: 0,
        });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn land(subject: &str, body: &str) -> Vec<Landing> {
        let msg = Message {
            subject: subject.into(),
            body: body.into(),
            ..Message::default()
        };
        let view = BodyView::new(&msg.body);
        let scan = super::super::diff::scan(&view);
        landings_in(&msg, &view, &scan.in_diff)
    }

    #[test]
    fn a_pasted_branch_log_lands_its_commits() {
        // A robot-team reply showing what a maintainer's branch held.
        let body = "the bot applied it as:\n\
                    * 5c683739f6c2f patch in [1]\n\
                    * 0fc4bfab2cd45 (tag: next-20240625) Add linux-next specific files\n\
                    \n\
                    a snapshot of the branch:\n\n\
                    *   bc512ae8cb934 (axboe-block/for-next) Merge branch 'for-6.11/block' into for-next   <-----\n\
                    |\\\n\
                    | * 18048c1af7836 (axboe-block/for-6.11/block) loop: Fix a race between detach and open\n\
                    * | e21d05740862c Merge branch 'for-6.11/block' into for-next\n\
                    |\\|\n\
                    | * 573d5abf3df00 md: set md-specific flags for all queue limits       <--------\n\
                    \n\
                    is this expected?\n";
        let l = land(
            "Re: [axboe-block:for-next] [block] 1122c0c1cc: aim7 22.6% improvement",
            body,
        );
        let titles: Vec<_> = l
            .iter()
            .map(|x| x.title.clone().unwrap_or_default())
            .collect();
        assert_eq!(
            titles,
            [
                title_key("loop: Fix a race between detach and open"),
                title_key("md: set md-specific flags for all queue limits"),
            ]
        );
        assert!(l.iter().all(|x| x.kind == LandingKind::BranchLog
            && x.tree.as_deref() == Some("axboe-block")
            && x.branch.as_deref() == Some("for-next")));
        assert_eq!(l[1].commit.as_deref(), Some("573d5abf3df00"));
        // A local branch or a tag names no tree; a quoted listing is not
        // the writer's.
        for body in [
            "* 1234567abcdef (HEAD -> fix) md: set flags\n",
            "* 1234567abcdef (tag: v6.10) md: set flags\n",
            "> * 1234567abcdef (origin/master) md: set flags\n",
        ] {
            assert!(land("Re: x", body).is_empty(), "{body}");
        }
    }

    #[test]
    fn a_refused_pull_request_drops_what_it_carries() {
        let subject = "Re: [GIT PULL] Add the frobnicate(2) syscall";
        for line in [
            "I will not pull this, even with a better explanation.",
            "I already said in private that I wouldn't pull this.",
            "So no. No way will this ever get merged.",
            "I'm not pulling this.",
        ] {
            let l = land(subject, &format!("> the request\n\n{line}\n"));
            assert_eq!(l.len(), 1, "{line}");
            assert_eq!(l[0].kind, LandingKind::Dropped, "{line}");
            assert_eq!(l[0].title, None, "{line}");
        }
        for (subject, line) in [
            // A delay or a condition, a question, a quote: nothing left.
            (subject, "I won't pull this until the selftests build."),
            (subject, "I will not pull this as-is."),
            (subject, "Why would I not pull this?"),
            (subject, "> I will not pull this."),
            // Not a pull request's thread.
            ("Re: [PATCH] frob: add a knob", "I will not pull this."),
            // The request itself.
            (
                "[GIT PULL] Add the frobnicate(2) syscall",
                "I will not pull this.",
            ),
        ] {
            assert!(
                !land(subject, &format!("{line}\n"))
                    .iter()
                    .any(|l| l.kind == LandingKind::Dropped),
                "{subject}: {line}"
            );
        }
    }

    #[test]
    fn a_fix_said_to_have_landed_in_a_tree() {
        for (line, tree) in [
            (
                "A patch with a fix landed to the mm tree (you're cc'ed).",
                "mm",
            ),
            ("The fix has landed in mm-unstable.", "mm-unstable"),
            ("This patch is now in the mm tree.", "mm"),
            (
                "The series has been queued in vfs.fixes, thanks.",
                "vfs.fixes",
            ),
        ] {
            let l = land("Re: x", &format!("{line}\n"));
            assert_eq!(l.len(), 1, "{line}");
            assert_eq!(l[0].kind, LandingKind::Applied, "{line}");
            assert_eq!(l[0].tree.as_deref(), Some(tree), "{line}");
        }
        for line in [
            "The patch in question does not touch the fast path.",
            "This patch is in my inbox, will look.",
            "The fix is in the works.",
            "> A patch with a fix landed to the mm tree.",
            "That change is in general a good idea.",
        ] {
            assert!(land("Re: x", &format!("{line}\n")).is_empty(), "{line}");
        }
    }

    #[test]
    fn the_patchwork_bots_notice_lands_each_entry_with_a_commit() {
        let body = "Hello:\n\nThis series was applied to jaegeuk/f2fs.git (dev)\nby Eric Biggers <e@kernel.org>:\n\n\
                    On Mon,  2 Feb 2026 07:06:30 +0100 you wrote:\n> Issuing more reads is not a good idea.\n\n\
                    Here is the summary with links:\n  - [f2fs-dev,01/11] fsverity: don't issue readahead for errors\n    \
                    https://git.kernel.org/jaegeuk/f2fs/c/23eec9fd64b2\n  - [f2fs-dev,02/11] readahead: push the lock out\n    \
                    (no matching commit)\n\nYou are awesome, thank you!\n";
        let l = land("Re: [f2fs-dev] [PATCH 01/11] fsverity: x", body);
        assert_eq!(l.len(), 1, "{l:?}");
        assert_eq!(l[0].kind, LandingKind::Applied);
        assert_eq!(
            l[0].title.as_deref(),
            Some("fsverity: don't issue readahead for errors")
        );
        assert_eq!(l[0].commit.as_deref(), Some("23eec9fd64b2"));
        assert_eq!(
            (l[0].tree.as_deref(), l[0].branch.as_deref()),
            (Some("jaegeuk/f2fs.git"), Some("dev"))
        );
    }

    #[test]
    fn applied_lines_naming_a_tree_and_its_branch_in_other_ways() {
        // (line, branch, tree)
        let cases: [(&str, Option<&str>, Option<&str>); 13] = [
            (
                "Queued in dm.git for-next.",
                Some("for-next"),
                Some("dm.git"),
            ),
            (
                "I've staged this in dm.git's dm-6.8 branch.",
                Some("dm-6.8"),
                Some("dm.git"),
            ),
            (
                "Applied to kselftest next branch for 6.9-rc1.",
                Some("next"),
                Some("kselftest"),
            ),
            (
                "Both applied to kselftest next for Linux 6.7-rc1",
                Some("next"),
                Some("kselftest"),
            ),
            (
                "Merged to xfs-linux for-next.",
                Some("for-next"),
                Some("xfs-linux"),
            ),
            ("Reviewed and pushed to for-next.", Some("for-next"), None),
            ("I've queued this up for 6.8, thanks.", Some("6.8"), None),
            (
                "Queued for 6.9 in the erofs tree.",
                Some("6.9"),
                Some("erofs"),
            ),
            ("Applied for Linux 6.11-rc1", Some("6.11-rc1"), None),
            (
                "Applied to vfio next branch for v5.15.  Thanks,",
                Some("next"),
                Some("vfio"),
            ),
            ("Applied to my for-next branch.", Some("for-next"), None),
            (
                "The patch has been pushed to dev-test.",
                None,
                Some("dev-test"),
            ),
            (
                "This change has been staged in the for-rc topic branch.",
                None,
                Some("for-rc"),
            ),
        ];
        for (line, branch, tree) in cases {
            let l = land("Re: [PATCH] x", &format!("{line}\n"));
            assert_eq!(l.len(), 1, "{line}: {l:?}");
            assert_eq!(
                (l[0].kind, l[0].branch.as_deref(), l[0].tree.as_deref()),
                (LandingKind::Applied, branch, tree),
                "{line}"
            );
        }
        // A tester's base is no tree.
        assert!(
            land(
                "Re: x",
                "I applied your patch on top next-20190731, and it works.\n"
            )
            .is_empty()
        );
        assert!(land("Re: x", "Will apply this to my tree.\n").is_empty());
    }

    #[test]
    fn applied_lines_saying_what_was_edited_or_naming_the_place_alone() {
        // (line, branch, tree), paraphrased from maintainers of many lists.
        let cases: [(&str, Option<&str>, Option<&str>); 12] = [
            (
                "Applied as 6.7 material with some edits in the changelog, thanks!",
                Some("6.7"),
                None,
            ),
            (
                "Merged into selinux/next with some minor tweaks to the comments.",
                Some("selinux/next"),
                None,
            ),
            (
                "Applied to cgroup/for-6.9 with the subject capitalized.",
                Some("cgroup/for-6.9"),
                None,
            ),
            (
                "Applied to nfsd-fixes with a Cc: stable added.",
                Some("nfsd-fixes"),
                None,
            ),
            (
                "Thanks, applied with a reworded commit description.",
                None,
                None,
            ),
            (
                "Applied to linux-kselftest fixes for next rc.",
                Some("fixes"),
                Some("linux-kselftest"),
            ),
            (
                "I've queued this one up for the next merge window.",
                None,
                None,
            ),
            ("This is now in misc-next.", None, Some("misc-next")),
            ("It's in for-next now.", None, Some("for-next")),
            ("Now in xfs for-next.", Some("for-next"), Some("xfs")),
            (
                "This is in dma-mapping for-next now.",
                Some("for-next"),
                Some("dma-mapping"),
            ),
            ("That is in the ext4 tree already.", None, Some("ext4")),
        ];
        for (line, branch, tree) in cases {
            let l = land("Re: [PATCH] x", &format!("{line}\n"));
            assert_eq!(l.len(), 1, "{line}: {l:?}");
            assert_eq!(
                (l[0].kind, l[0].branch.as_deref(), l[0].tree.as_deref()),
                (LandingKind::Applied, branch, tree),
                "{line}"
            );
        }
        // Where code is, a question, a release, a local tree, or a "with"
        // that edits nothing says no patch went anywhere.
        for line in [
            "It is in the works.",
            "This is in the hot path.",
            "It is in fs/ext4/inode.c.",
            "This is in arch/x86 code.",
            "It's in mainline?",
            "This is in 6.9.",
            "It's in local tree, not upstream yet.",
            "I added it to differentiate with the message a little further above.",
        ] {
            assert!(land("Re: x", &format!("{line}\n")).is_empty(), "{line}");
        }
    }

    #[test]
    fn a_list_footer_under_an_applied_line_is_no_tree() {
        let body = "I've applied this to the dma-mapping tree with a more useful commit\n\
                    message.\n\n_______________________________________________\n\
                    iommu mailing list\n\
                    https://lists.linuxfoundation.org/mailman/listinfo/iommu\n";
        let l = land("Re: [PATCH] x", body);
        assert_eq!(l.len(), 1, "{l:?}");
        assert_eq!(l[0].tree, None);
        // A repository's URL a few lines down still names the tree.
        let body = "Applied to cgroup/for-6.8.\n\nThe branch lives at\n\n  \
                    git://git.kernel.org/pub/scm/linux/kernel/git/tj/cgroup.git\n";
        let l = land("Re: [PATCH] x", body);
        assert_eq!(
            l[0].tree.as_deref(),
            Some("git://git.kernel.org/pub/scm/linux/kernel/git/tj/cgroup.git")
        );
    }

    #[test]
    fn applied_replies_with_and_without_a_tree() {
        let l = land(
            "Re: [PATCH V4 0/3] x",
            "All three patches applied as 5.9 material, thanks!\n",
        );
        assert_eq!(
            (l.len(), l[0].kind, l[0].title.as_deref()),
            (1, LandingKind::Applied, None)
        );
        let l = land(
            "Re: [PATCH 0/2] x",
            "Thanks, I've applied this patch series into the ext4 git tree.\n",
        );
        assert_eq!(
            (l.len(), l[0].kind, l[0].branch.as_deref()),
            (1, LandingKind::Applied, Some("ext4"))
        );
        let l = land(
            "Re: [PATCH 0/2] x",
            "I've applied this patchset for 6.3, but I'd still appreciate reviews.\n",
        );
        assert_eq!((l.len(), l[0].kind), (1, LandingKind::Applied));
        let l = land("Re: [PATCH] x", "Applied, thanks!\n");
        assert_eq!(l.len(), 1);
        assert_eq!(
            (l[0].kind, l[0].title.as_deref()),
            (LandingKind::Applied, None)
        );
        let l = land("Re: x", "Thanks, applied to for-next.\n");
        assert_eq!(l[0].branch.as_deref(), Some("for-next"));
        let l = land(
            "Re: x",
            "Applied to the vfs.fixes branch of the vfs/vfs.git tree.\n",
        );
        assert_eq!(l[0].branch.as_deref(), Some("vfs.fixes"));
        assert_eq!(l[0].tree.as_deref(), Some("vfs/vfs.git"));
        assert!(land("Re: x", "> Applied, thanks!\n").is_empty());
        assert!(land("Re: x", "applied it on 6.9-rc4 and tested\n").is_empty());
        assert!(
            land(
                "Re: x",
                "Applied the patch on top of v6.9 and ran the test again.\n"
            )
            .is_empty()
        );
        assert!(land("Re: x", "I added an expression, and it appears to work:\n").is_empty());
        assert!(land("Re: x", "I applied it, and the test passes now.\n").is_empty());
        assert!(land("Re: x", "Patch applied cleanly on top of v6.9.\n").is_empty());
        assert!(land("Re: x", "Series applied and booted fine here.\n").is_empty());
        // A maintainer picking a draft from the thread, the branch in
        // parentheses after the object.
        let l = land(
            "Re: [linus:master] [file] 0ede61d858: regression",
            "So I've picked up your patch (vfs.misc). It's clever alright so thanks\n",
        );
        assert_eq!(l.len(), 1, "{l:?}");
        assert_eq!(l[0].branch.as_deref(), Some("vfs.misc"));
        assert!(land("Re: x", "So I applied your patch and the test passes.\n").is_empty());
        assert!(land("Re: x", "OK, I applied the fix locally, looks good.\n").is_empty());
        let cases: [(&str, Option<&str>, Option<&str>); 15] = [
            (
                "Whole series applied as 6.10 material, thanks!",
                Some("6.10"),
                None,
            ),
            ("Patch applied, thanks.", None, None),
            ("Both applied to nfsd-next.", Some("nfsd-next"), None),
            (
                "Applied as 6.10-rc material, thanks!",
                Some("6.10-rc"),
                None,
            ),
            ("Applied to cgroup/for-6.12.", Some("cgroup/for-6.12"), None),
            (
                "Applied 1-3 to cgroup/for-6.12.",
                Some("cgroup/for-6.12"),
                None,
            ),
            (
                "Applied to nfsd-next for v6.10, thanks!",
                Some("nfsd-next"),
                None,
            ),
            (
                "Thanks, queued to power-supply's for-next branch.",
                Some("for-next"),
                Some("power-supply"),
            ),
            (
                "Applied to fscrypt.git#master for 6.2.",
                Some("master"),
                Some("fscrypt.git"),
            ),
            ("Thanks. I've added the patch to my tree.", None, None),
            (
                "Thanks, I added this to mm.git's mm-new branch, along with a couple of",
                Some("mm-new"),
                Some("mm.git"),
            ),
            ("Now queued up, thanks.", None, None),
            ("Thanks, merged.", None, None),
            ("Applied for next, thanks!", Some("next"), None),
            (
                "Applied (with some edits in the subject and changelog) as 6.9 material, thanks!",
                Some("6.9"),
                None,
            ),
        ];
        for (line, branch, tree) in cases {
            let l = land("Re: [PATCH] x", &format!("{line}\n"));
            assert_eq!(l.len(), 1, "{line}");
            assert_eq!(l[0].branch.as_deref(), branch, "{line}");
            assert_eq!(l[0].tree.as_deref(), tree, "{line}");
        }
    }

    #[test]
    fn b4_thank_you_entries_with_the_tree_and_commit() {
        let body = "On Mon, 4 Mar 2024, Jane Dev wrote:\n> subsys: restore\n\nApplied to\n\n   \
                    https://git.kernel.org/pub/scm/linux/kernel/git/foo/linux.git for-next\n\n\
                    Thanks!\n\n[1/3] subsys: restore the fast path\n      commit: \
                    4b1c2e9d0a7f5c3e8d6b2a1f0e9c8d7b6a5f4e3d\n[2/3] subsys: fix the slow path\n      (no commit info)\n";
        let l = land("Re: [PATCH 0/3] subsys", body);
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].title.as_deref(), Some("subsys: restore the fast path"));
        assert_eq!(
            l[0].commit.as_deref(),
            Some("4b1c2e9d0a7f5c3e8d6b2a1f0e9c8d7b6a5f4e3d")
        );
        assert_eq!(l[0].branch.as_deref(), Some("for-next"));
        assert!(l[0].tree.as_deref().unwrap().ends_with("foo/linux.git"));
        assert_eq!(l[1].commit, None);
    }

    #[test]
    fn a_pull_request_shortlog_is_one_landing_per_title() {
        let body = "The following changes since commit 0123456789abcdef0123456789abcdef01234567:\n\n  \
                    Linux 6.9-rc2 (2024-03-31 14:32:39 -0700)\n\nare available in the Git repository at:\n\n  \
                    git://git.kernel.org/pub/scm/linux/kernel/git/foo/linux.git tags/foo-6.9-rc3-fixes\n\n\
                    for you to fetch changes up to 89abcdef0123456789abcdef0123456789abcdef:\n\n  \
                    subsys: fix the slow path (2024-04-02 10:00:00 +0100)\n\n\
                    ----------------------------------------------------------------\nA tag message.\n\n\
                    ----------------------------------------------------------------\nJane Dev (2):\n      \
                    subsys: restore the fast path\n      subsys: fix the slow path\n\n \
                    fs/foo/bar.c | 13 +++++++------\n 1 file changed, 7 insertions(+), 6 deletions(-)\n";
        let l = land("[GIT PULL] subsys fixes for 6.9-rc3", body);
        assert_eq!(l.len(), 2, "{l:?}");
        assert_eq!(l[0].kind, LandingKind::PullRequest);
        assert_eq!(l[1].title.as_deref(), Some("subsys: fix the slow path"));
        assert_eq!(l[1].branch.as_deref(), Some("tags/foo-6.9-rc3-fixes"));
    }

    #[test]
    fn a_shortlog_title_wrapped_by_the_mailer_is_one_title() {
        let body = "Please pull from the tag\n\n git://git.kernel.org/pub/scm/linux/kernel/git/rafael/linux-pm.git \\\n acpi-6.10-rc1\n\n\
                    ---------------\n\nRobert Richter (2):\n      \
                    ACPI/NUMA: Remove architecture dependent remainings\n      \
                    ACPI/NUMA: Squash acpi_numa_memory_affinity_init() into\nacpi_parse_memory_affinity()\n\n\
                    Ruidong Tian (1):\n      ACPICA: AEST: Add support for the AEST V2 table\n\n---------------\n";
        let l = land("[GIT PULL] ACPI updates for v6.10-rc1", body);
        let titles: Vec<&str> = l.iter().filter_map(|x| x.title.as_deref()).collect();
        assert_eq!(
            titles,
            [
                "acpi/numa: remove architecture dependent remainings",
                "acpi/numa: squash acpi_numa_memory_affinity_init() into acpi_parse_memory_affinity()",
                "acpica: aest: add support for the aest v2 table",
            ],
            "{l:?}"
        );
    }

    #[test]
    fn a_please_pull_request_names_its_tree_and_tag() {
        let body = "Hi Linus,\n\nPlease pull from the tag\n\n git://git.kernel.org/pub/scm/linux/kernel/git/rafael/linux-pm.git \\\n pm-6.18-rc3\n\n\
                    with top-most commit b62bd2cf7e991efbc823665e54dd7d7d8372c33b\n\n---------------\n\n\
                    Rafael J. Wysocki (2):\n      Revert \"cpuidle: menu: Avoid discarding useful information\"\n      \
                    PM: runtime: Fix conditional guard definitions\n\n---------------\n\n drivers/x.c | 6 +++++-\n";
        let l = land("[GIT PULL] Power management fixes for v6.18-rc3", body);
        assert_eq!(l.len(), 2, "{l:?}");
        assert_eq!(
            l[0].title.as_deref(),
            Some("revert \"cpuidle: menu: avoid discarding useful information\"")
        );
        assert_eq!(l[0].branch.as_deref(), Some("pm-6.18-rc3"));
        assert!(l[0].tree.as_deref().unwrap().ends_with("linux-pm.git"));
    }

    #[test]
    fn an_announcement_with_commit_ids_in_its_shortlog() {
        let body = "Hi folks,\n\nThe vfs-for-next branch of the xfs-linux repository at:\n\n\t\
                    git://git.kernel.org/pub/scm/fs/xfs/xfs-linux.git\n\nhas just been updated.\n\n\
                    New Commits:\n\nDarrick J. Wong (2):\n      [5aca284210ce] vfs: create a generic checking function\n      \
                    [7e328e5930ad] mm/fs: don't allow writes to immutable files\n\n\nCode Diffstat:\n\n fs/attr.c | 13 ++---\n";
        let l = land(
            "[ANNOUNCE] xfs-linux: vfs-for-next updated to 7e328e5930ad",
            body,
        );
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].kind, LandingKind::ForNext);
        assert_eq!(l[0].commit.as_deref(), Some("5aca284210ce"));
        assert_eq!(l[0].branch.as_deref(), Some("vfs-for-next"));
        assert_eq!(l[0].tree.as_deref(), Some("xfs-linux"));
    }

    #[test]
    fn a_stable_backport_lands_its_title_under_its_upstream_commit() {
        let msg = Message {
            subject: "[PATCH 6.8 119/228] netfs: Fix the pre-flush when appending".into(),
            body: "6.8-stable review patch.  If anyone has any objections, please let me know.\n\n\
                   ------------------\n\n[ Upstream commit c97f59e276d4e93480f29a70accbd0d7273cf3f5 ]\n\n\
                   In netfs_perform_write(), ...\n"
                .into(),
            ..Message::default()
        };
        let ex = crate::extract::extract(&msg);
        let l: Vec<&Landing> = ex
            .landings
            .iter()
            .filter(|l| l.kind == LandingKind::Stable)
            .collect();
        assert_eq!(l.len(), 1, "{:?}", ex.landings);
        assert_eq!(
            l[0].title.as_deref(),
            Some(title_key("netfs: Fix the pre-flush when appending").as_str())
        );
        assert_eq!(
            l[0].commit.as_deref(),
            Some("c97f59e276d4e93480f29a70accbd0d7273cf3f5")
        );
        // A patch that only speaks of upstream is no backport.
        let msg = Message {
            subject: "[PATCH] netfs: Fix the pre-flush".into(),
            body: "Send this upstream soon.\n".into(),
            ..Message::default()
        };
        assert!(crate::extract::extract(&msg).landings.is_empty());
    }

    #[test]
    fn merge_notes_tip_bot_stable_and_library_syncs() {
        let l = land(
            "Re: [GIT PULL] ext4 changes for 5.2",
            "The pull request you sent on Tue, 7 May 2019:\n\n> git://x tags/ext4_for_linus\n\n\
             has been merged into torvalds/linux.git:\n\
             https://git.kernel.org/torvalds/c/5abe37954e9a315c35c9490f78d55f307c3c636b\n",
        );
        assert_eq!(l[0].kind, LandingKind::Merged);
        assert_eq!(l[0].tree.as_deref(), Some("torvalds/linux.git"));
        assert!(l[0].commit.is_some());
        let l = land(
            "[tip: x86/urgent] x86/foo: Fix it",
            "The following commit has been merged into the x86/urgent branch of tip:\n\n\
             Commit-ID:     0123456789abcdef0123456789abcdef01234567\nGitweb: x\n",
        );
        assert_eq!(l[0].kind, LandingKind::TipBot);
        assert_eq!(l[0].title.as_deref(), Some("x86/foo: fix it"));
        assert_eq!(l[0].branch.as_deref(), Some("x86/urgent"));
        let l = land(
            "Patch \"xfs: fix\" has been added to the 6.1-stable tree",
            "This is a note to let you know that I've just added the patch titled\n\n    \
             xfs: fix the thing\n\nto the 6.1-stable tree which can be found at:\n",
        );
        assert_eq!(l[0].kind, LandingKind::Stable);
        assert_eq!(l[0].branch.as_deref(), Some("6.1-stable"));
        let l = land(
            "[PATCH 3/9] xfs: fix the thing",
            "Source kernel commit: 0123456789abcdef0123456789abcdef01234567\n\nmore\n",
        );
        assert_eq!(l[0].kind, LandingKind::LibrarySync);
        assert_eq!(l[0].title.as_deref(), Some("xfs: fix the thing"));
    }

    #[test]
    fn the_body_phrases_are_found_in_one_search_as_one_by_one() {
        let msg = Message::default();
        let bodies = [
            "",
            "The following commit has been merged into the x86/urgent branch of tip:",
            "The following commit has been merged into the \nhas been merged into",
            "This is a note to let you know that I've just added the patch titled",
            "The patch has just been updated; please pull from\n",
            "are available in the Git repository at:\n\n  git://x\nPlease pull from",
            "been update, has been merge, just added the patch",
        ];
        for body in bodies {
            let f = Found::in_body(&msg, body);
            let each = (
                has(body, &TIP_PHRASE),
                has(body, &STABLE_PHRASE),
                has(body, &MERGED_PHRASE),
                has(body, &BEEN_UPDATED),
                has(body, &PULL_PHRASE) || body.contains("lease pull from"),
            );
            assert_eq!(
                (f.tip, f.stable, f.merged, f.updated, f.pull),
                each,
                "{body}"
            );
        }
        assert!(Found::in_body(&msg, bodies[2]).merged);
    }

    #[test]
    fn leading_words_are_matched_by_their_stems_within_the_first_n() {
        assert!(leads_with("Thanks, I've now applied it.", 6, &["applied"]));
        assert!(leads_with("OK, I'll be DROPPING it", 4, &["dropp"]));
        assert!(!leads_with("I think this should be dropped", 4, &["dropp"]));
        assert!(!leads_with("a b c d e f applied", 6, &["applied"]));
        assert!(!leads_with("", 6, &["applied"]));
        // A word with a character that case-folds to ASCII (the Kelvin
        // sign) may be one a `(?i)` pattern matches.
        assert!(leads_with("ba\u{212A}ed out", 4, &["backed"]));
    }

    #[test]
    fn dropped_lines_of_a_maintainer() {
        for t in [
            "Dropped from for-next.",
            "I've dropped the series for now.",
            "Dropped, thanks.",
            "I dropped it from my tree.",
            "Reverted this from for-next.",
        ] {
            let l = land("Re: x", &format!("{t}\n"));
            assert_eq!(l.len(), 1, "{t}");
            assert_eq!(l[0].kind, LandingKind::Dropped);
        }
        for t in [
            "I dropped the lock here because it was slow and",
            "removed it from the array. After a while I re-added it",
            "dropping it.",
        ] {
            assert!(land("Re: x", &format!("{t}\n")).is_empty(), "{t}");
        }
        // A patch saying what its code does is not a maintainer dropping it.
        assert!(land("[PATCH] x", "Dropped.\n").is_empty());
        for t in [
            "Since this patch is a clean up, would you mind if I drop it from my",
            "But I guess it doesn't matter much, its a cleanup patch and we can drop it.",
            "OK, I'll drop this patch for now.",
        ] {
            let l = land("Re: x", &format!("{t}\n"));
            assert_eq!(l.len(), 1, "{t}");
            assert!(
                matches!(l[0].kind, LandingKind::WillDrop | LandingKind::Dropped),
                "{t}"
            );
        }
        assert!(land("Re: x", "we can drop the lock here\n").is_empty());
    }

    #[test]
    fn a_patch_named_as_dropped_in_a_change_log_or_a_pull_request() {
        let title = |l: &[Landing]| -> Vec<(LandingKind, Option<String>)> {
            l.iter().map(|l| (l.kind, l.title.clone())).collect()
        };
        for (subject, t, want) in [
            (
                "[PATCH v3 0/4] tmpfs: casefold",
                "- Dropped patch \"tmpfs: Always set simple_dentry_operations as dentry ops\"",
                "tmpfs: always set simple_dentry_operations as dentry ops",
            ),
            (
                "[PATCH v2 0/3] f2fs: dio",
                "   - Dropped the patch \"f2fs: don't allow DIO reads but not DIO writes\".",
                "f2fs: don't allow dio reads but not dio writes",
            ),
            (
                "Re: [PATCH v4 0/2] x",
                "v5: removed the patch \"mm: batch the lru drain\" (not needed)",
                "mm: batch the lru drain",
            ),
        ] {
            let l = land(subject, &format!("{t}\n"));
            assert_eq!(
                title(&l),
                [(LandingKind::Dropped, Some(title_key(want)))],
                "{t}"
            );
        }
        // A pull request's change log: the shortlog's landings and the drop.
        let pull = "Hi Linus,\n\nThe following changes since commit ff7afaeca1a15fbeaa2c4795ee806c0667bd77b2:\n\n  \
            Merge tag 'x' (2024-11-06 13:09:22 -1000)\n\nare available in the Git repository at:\n\n  \
            git://git.linux-nfs.org/projects/trondmy/linux-nfs.git tags/nfs-for-6.13-1\n\n\
            for you to fetch changes up to 38a125b31504f91bf6fdd3cfc3a3e9a721e6c97a:\n\n  \
            fs/nfs/io: make nfs_start_io_*() killable (2024-11-28 12:55:33 -0500)\n\n\n\
            Changes since v1: Removed the patch \"nfs: pass flags to second superblock\"\nas agreed.\n\n\
            ----------------------------------------------------------------\n\
            Max Kellermann (1):\n      fs/nfs/io: make nfs_start_io_*() killable\n";
        let l = land(
            "[GIT PULL v2] Please pull NFS client changes for 6.13",
            pull,
        );
        assert!(
            l.iter().any(|l| l.kind == LandingKind::PullRequest),
            "{l:?}"
        );
        assert_eq!(
            l.iter()
                .filter(|l| l.kind == LandingKind::Dropped)
                .map(|l| (l.title.clone(), l.branch.as_deref(), l.tree.as_deref()))
                .collect::<Vec<_>>(),
            [(
                Some(title_key("nfs: pass flags to second superblock")),
                Some("tags/nfs-for-6.13-1"),
                Some("git://git.linux-nfs.org/projects/trondmy/linux-nfs.git")
            )],
            "{l:?}"
        );
        // Dropped from the series because its change went on elsewhere,
        // quoted, or not a title in quotes: no drop.
        for t in [
            "- Dropped patch \"x: fix the lock order\" (merged upstream)",
            "- Dropped patch \"x: fix the lock order\", squashed into 2/3",
            "- Dropped patch \"x: fix the lock order\" as it was already applied",
            "> - Dropped patch \"x: fix the lock order\"",
            "- Dropped patch 3 as suggested by Jan",
            "- Removed the \"x: fix the lock order\" comment",
        ] {
            assert!(
                land("[PATCH v2 0/3] x", &format!("{t}\n")).is_empty(),
                "{t}"
            );
        }
    }
}
