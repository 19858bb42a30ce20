//! The other evidence a thread carries: inline diffs, trailers, commit
//! references, mmtests and stress-ng tables, perf profiles, reproducer commands,
//! Kconfig changes, confirming/disputing signals, tracker commands, lore links,
//! what identifies a patch (title, version, patch id) and where patches
//! landed (applied replies, b4 thank-yous, announcements, pull requests).
//!
//! Every extractor is a pure function over the decoded body (one file each; the
//! grammars are in `grammar/evidence-*.md`). They share one [`BodyView`]: the
//! body's lines with their quote depth, whether the body is whitespace-collapsed
//! (`seeds/000_*`: the whole mail on one line), and which lines belong to a diff,
//! so that prose extractors (signals, trailers, reproducers) never read patch text.

pub mod commits;
pub mod diff;
pub mod events;
pub mod kconfig;
pub mod landing;
pub mod lore;
pub mod mmtests;
pub mod patch;
pub mod phrases;
pub mod profile;
pub mod reply_model;
pub mod reproducer;
pub mod robot;
pub mod signal;
pub mod stressng;
pub mod trailer;

use std::sync::LazyLock;

use regex::Regex;

use crate::model::{Extraction, Kind, Message};
use crate::text::{self, Line};

/// Fills the evidence fields of `ex`; runs after [`crate::report::extract_report`].
///
/// Appends `mmtests`/`stress-ng` tables to `ex.tables` and evidence events to
/// `ex.events` (keeping what the report grammar put there), and reads the lkp
/// tables already in `ex.tables` for the table signal.
pub fn extract_evidence(msg: &Message, ex: &mut Extraction) {
    extract_evidence_each(&[msg], std::slice::from_mut(ex));
}

/// Whether the reply model ([`reply_model`]) reads the message's sentences:
/// a reply to one of the robot's reports (its subject names the report), by
/// anyone but the robot and its team.
fn reads_with_model(ex: &Extraction, msg: &Message) -> bool {
    // The robot's team speak of their own tests in the words people use to
    // dispute one ("we ran it again on two other machines"): on the gold
    // archives the model read four of their confirmations as disputes.
    !robot::is_robot_team(msg.from_name.as_deref(), msg.from_email.as_deref())
        && ex.subject_report.is_some()
        && !ex.kind.is_robot_mail()
}

/// [`extract_evidence`] of each message of `msgs` into the extraction at
/// the same place of `exs`, one extractor over all of them before the next:
/// each extractor's code and tables stay in the caches across the messages
/// (on one core, 6 % less time than message by message over linux-ext4).
/// Every step reads only its own message and what the steps before it
/// found there, so a message's result does not depend on the others.
pub fn extract_evidence_each(msgs: &[&Message], exs: &mut [Extraction]) {
    evidence_each(msgs, exs, false);
}

/// [`extract_evidence_each`] that leaves the signals of every message but
/// the robot's test reports unread ([`Extraction::signals_unread`],
/// [`reads_signals_at_ingest`]): reading a message's
/// sentences with the phrase book cost an ingest of linux-ext4 8 % of its
/// CPU time and 28 MiB of its peak memory, and a
/// link needs them only of the few messages a regression can involve, which
/// it reads when it asks for them ([`crate::extract::signals_of`]).
pub fn extract_evidence_each_deferred(msgs: &[&Message], exs: &mut [Extraction]) {
    evidence_each(msgs, exs, true);
}

/// Whether an ingest reads the signals of mail of this kind at once: the
/// robot's performance and functional reports, whose whole extraction,
/// signals with it, the linker reads back from `extractions.json`. A build
/// report's are left for the link like a reply's: on linux-ext4 its 515
/// build reports are 11 MB of build logs, and reading them took 1.1 % of
/// an ingest's instructions.
pub fn reads_signals_at_ingest(kind: Kind) -> bool {
    matches!(kind, Kind::PerfReport | Kind::FunctionalReport)
}

/// The signals [`extract_evidence`] finds in `msg`, reading only what they
/// need: its own paragraphs and trailers, and the lkp tables and report
/// facts `ex` holds from [`crate::report::extract_report`] (the tables of
/// other formats give no signal).
pub fn signals_in(msg: &Message, ex: &Extraction) -> Vec<crate::model::Signal> {
    let view = BodyView::new(&msg.body);
    let scan = diff::scan(&view);
    let trailers = trailer::trailers_in(&view, &scan.in_diff);
    let paragraphs = view.paragraphs(&scan.in_diff);
    signals(msg, ex, &paragraphs, view.collapsed, &trailers)
}

/// The signals of a message from its parts: the phrase book's and the
/// reply model's over its own sentences, its trailers', its tables'.
fn signals(
    msg: &Message,
    ex: &Extraction,
    paragraphs: &Paragraphs,
    collapsed: bool,
    trailers: &[crate::model::Trailer],
) -> Vec<crate::model::Signal> {
    let mut signals = signal::sentence_signals_in(paragraphs, collapsed);
    if reads_with_model(ex, msg) {
        let more = signal::model_signals(paragraphs, collapsed, &signals);
        signals.extend(more);
    }
    signals.extend(signal::trailer_signals(trailers));
    signals.extend(signal::table_signals(ex));
    signals
}

fn evidence_each(msgs: &[&Message], exs: &mut [Extraction], defer: bool) {
    let views: Vec<BodyView<'_>> = msgs.iter().map(|m| BodyView::new(&m.body)).collect();
    let scans: Vec<diff::DiffScan> = views.iter().map(diff::scan).collect();
    let mut trailers: Vec<Vec<crate::model::Trailer>> = views
        .iter()
        .zip(&scans)
        .map(|(v, s)| trailer::trailers_in(v, &s.in_diff))
        .collect();
    let paragraphs: Vec<Paragraphs> = views
        .iter()
        .zip(&scans)
        .map(|(v, s)| v.paragraphs(&s.in_diff))
        .collect();
    let each = |exs: &mut [Extraction], f: &mut dyn FnMut(usize, &mut Extraction)| {
        for (i, ex) in exs.iter_mut().enumerate() {
            f(i, ex);
        }
    };
    each(exs, &mut |i, ex| {
        ex.commits = commits::commits_in_paragraphs(&paragraphs[i], views[i].collapsed);
    });
    each(exs, &mut |i, ex| {
        ex.tables.extend(mmtests::tables_in(&views[i]))
    });
    each(exs, &mut |i, ex| {
        ex.tables.extend(stressng::tables_in(&views[i]))
    });
    each(exs, &mut |i, ex| {
        ex.profiles = profile::profiles_in(&views[i])
    });
    each(exs, &mut |i, ex| {
        ex.reproducers = reproducer::reproducers_in(&views[i], &scans[i].in_diff);
    });
    each(exs, &mut |i, ex| {
        ex.kconfig = kconfig::changes_in(&views[i])
    });
    each(exs, &mut |i, ex| {
        if defer && !reads_signals_at_ingest(ex.kind) {
            ex.signals_unread = true;
            return;
        }
        ex.signals = signals(
            msgs[i],
            ex,
            &paragraphs[i],
            views[i].collapsed,
            &trailers[i],
        );
    });
    each(exs, &mut |i, ex| {
        ex.events
            .extend(events::events_in(&views[i], &scans[i].in_diff));
    });
    each(exs, &mut |i, ex| {
        ex.lore_links = lore::links_in(&views[i], &scans[i].in_diff)
            .into_iter()
            .filter(|id| *id != msgs[i].message_id)
            .collect();
    });
    each(exs, &mut |i, ex| {
        ex.patch = patch::patch_facts(
            msgs[i],
            ex.kind,
            &views[i],
            &scans[i].in_diff,
            &scans[i].files,
        )
        .map(Box::new);
    });
    each(exs, &mut |i, ex| {
        ex.landings = landing::landings_in(msgs[i], &views[i], &scans[i].in_diff);
        ex.landings
            .extend(ex.patch.as_deref().and_then(landing::backport));
    });
    drop(paragraphs);
    for ((ex, t), scan) in exs.iter_mut().zip(&mut trailers).zip(scans) {
        ex.trailers = std::mem::take(t);
        ex.diffs = scan.files;
    }
}

/// The body as every extractor reads it: lines with quote depth, and the
/// collapsed flag.
#[derive(Debug, Clone)]
pub struct BodyView<'a> {
    /// The decoded body.
    pub body: &'a str,
    /// Its lines (see [`crate::text::lines`]).
    pub lines: Vec<Line<'a>>,
    /// True when the body is whitespace-collapsed (one long line).
    pub collapsed: bool,
}

impl<'a> BodyView<'a> {
    /// Splits `body` into lines and detects the collapsed form.
    pub fn new(body: &'a str) -> Self {
        let lines = text::line_vec(body);
        // Every line ends in a newline but an unterminated last one: the
        // newlines are not counted a second time.
        let newlines = lines.len() - usize::from(!body.ends_with('\n') && !lines.is_empty());
        BodyView {
            body,
            collapsed: text::looks_collapsed(body, newlines) || short_collapsed(body),
            lines,
        }
    }

    /// Runs of consecutive lines at one quote depth, skipping lines marked in
    /// `skip` and blank lines (which end a run): each with its depth, its
    /// first line's index and its lines' trimmed text joined by spaces.
    /// Wrapped sentences and titles come back on one line. The texts share
    /// one buffer (one allocation per body, not one per paragraph).
    pub fn paragraphs(&self, skip: &[bool]) -> Paragraphs {
        // The joined text is at most the body's length: one allocation.
        let mut out = Paragraphs {
            text: String::with_capacity(self.body.len()),
            // Mail has about one paragraph in four lines (the vector grew by
            // doubling).
            spans: Vec::with_capacity(self.lines.len() / 4 + 4),
        };
        // The trimmed text of line `i`, `None` when skipped or blank.
        let kept = |i: usize| {
            let t = text::trim(self.lines.get(i)?.text);
            (!skip.get(i).copied().unwrap_or(false) && !t.is_empty()).then_some(t)
        };
        let mut i = 0;
        while i < self.lines.len() {
            let Some(first) = kept(i) else {
                i += 1;
                continue;
            };
            let depth = self.lines[i].depth;
            let start = out.text.len();
            out.text.push_str(first);
            let mut j = i + 1;
            while let Some(t) = self.lines.get(j).filter(|l| l.depth == depth).and(kept(j)) {
                out.text.push(' ');
                out.text.push_str(t);
                j += 1;
            }
            out.spans.push(Span {
                depth,
                line: i,
                start,
                end: out.text.len(),
            });
            i = j;
        }
        out
    }
}

/// The paragraphs of a body ([`BodyView::paragraphs`]), their texts in one
/// buffer.
#[derive(Debug, Clone, Default)]
pub struct Paragraphs {
    text: String,
    spans: Vec<Span>,
}

#[derive(Debug, Clone, Copy)]
struct Span {
    depth: u32,
    line: usize,
    start: usize,
    end: usize,
}

impl Paragraphs {
    /// The paragraphs in body order.
    pub fn iter(&self) -> impl Iterator<Item = Paragraph<'_>> {
        self.iter_ranges().map(|(_, p)| p)
    }

    /// The paragraphs in body order, each with the range of its text in
    /// [`Paragraphs::text`].
    pub fn iter_ranges(&self) -> impl Iterator<Item = (std::ops::Range<usize>, Paragraph<'_>)> {
        self.spans.iter().map(|s| {
            let p = Paragraph {
                depth: s.depth,
                line: s.line,
                text: self.text.get(s.start..s.end).unwrap_or_default(),
            };
            (s.start..s.end, p)
        })
    }

    /// The paragraphs of quote depth 0 (the mail author's own words):
    /// these, borrowed, when every paragraph is.
    pub fn own(&self) -> std::borrow::Cow<'_, Paragraphs> {
        if self.spans.iter().all(|s| s.depth == 0) {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut out = Paragraphs {
            text: String::new(),
            spans: Vec::new(),
        };
        for s in self.spans.iter().filter(|s| s.depth == 0) {
            let start = out.text.len();
            out.text
                .push_str(self.text.get(s.start..s.end).unwrap_or_default());
            out.spans.push(Span {
                start,
                end: out.text.len(),
                ..*s
            });
        }
        std::borrow::Cow::Owned(out)
    }

    /// Every paragraph's text, one after the other (no separator).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// True when the body has none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }
}

/// A short whitespace-collapsed reply, too short for [`text::looks_collapsed`]:
/// one line of 80+ bytes that holds an inline quote (`wrote: >`, ` > `).
fn short_collapsed(body: &str) -> bool {
    let b = body.trim_end();
    b.len() >= 80
        && memchr::memchr(b'\n', b.as_bytes()).is_none()
        && (b.contains("wrote: >") || b.contains(" > > ") || b.matches(" > ").count() >= 2)
}

/// A run of lines at one quote depth joined with single spaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paragraph<'a> {
    /// Quote depth of the run.
    pub depth: u32,
    /// Index of its first line in [`BodyView::lines`].
    pub line: usize,
    /// The lines' text joined by spaces.
    pub text: &'a str,
}

/// A standalone run of `>` tokens inside collapsed text: an old quote prefix.
static RE_COLLAPSED_QUOTE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|\s)((?:>+\s+)*>+)\s").expect("valid regex"));

/// The old quote prefixes of a collapsed text, for depth look-ups by offset.
#[derive(Debug, Clone, Default)]
pub struct QuoteMarks {
    /// `(end of the marker run, depth)` in text order.
    marks: Vec<(usize, u32)>,
}

impl QuoteMarks {
    /// Finds the standalone `>` runs of `text` (one pass).
    pub fn new(text: &str) -> Self {
        let marks = RE_COLLAPSED_QUOTE
            .captures_iter(text)
            .filter_map(|c| c.get(1))
            .map(|g| {
                let d = g.as_str().bytes().filter(|&b| b == b'>').count() as u32;
                (g.end(), d)
            })
            .collect();
        QuoteMarks { marks }
    }

    /// The quote depth that held at byte `pos`: the depth of the nearest marker
    /// run ending at or before `pos` when `pos` lies within one line width (72
    /// bytes) after it, else 0.
    pub fn depth_at(&self, pos: usize) -> u32 {
        let k = self.marks.partition_point(|&(end, _)| end <= pos);
        match k.checked_sub(1).and_then(|i| self.marks.get(i)) {
            Some(&(end, d)) if pos - end <= 72 => d,
            _ => 0,
        }
    }
}

impl QuoteMarks {
    /// The depth of a marker run that directly precedes byte `pos` of `text`
    /// (only blanks or a `| ` between), else 0: for things that start a line,
    /// such as trailers, which a quoted line cannot hold in its middle.
    pub fn depth_right_before(&self, text: &str, pos: usize) -> u32 {
        let k = self.marks.partition_point(|&(end, _)| end <= pos);
        match k.checked_sub(1).and_then(|i| self.marks.get(i)) {
            Some(&(end, d)) => {
                let gap = text.get(end..pos).unwrap_or("x");
                let gap = gap.trim();
                if gap.is_empty() || gap == "|" { d } else { 0 }
            }
            None => 0,
        }
    }
}

/// In a whitespace-collapsed body, the quote depth that held at byte `pos`
/// (see [`QuoteMarks::depth_at`]; build a [`QuoteMarks`] for repeated look-ups).
pub fn collapsed_depth_at(text: &str, pos: usize) -> u32 {
    QuoteMarks::new(text).depth_at(pos)
}

/// Removes collapsed quote prefixes (` > `, ` > > `) from a phrase and folds
/// white space.
pub fn strip_collapsed_quotes(s: &str) -> String {
    static RE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?:^|\s)(?:>+\s+)*>+(?:\s|$)").expect("valid regex"));
    text::fold_ws(&RE.replace_all(s, " "))
}

/// A deterministic pseudo-random pick below `n` (a linear congruential
/// generator seeded with `seed`): the tests that compare a fast path with a
/// plain one over generated text.
#[cfg(test)]
pub(crate) fn picker(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reply_model_reads_replies_to_reports_but_not_the_robot_teams() {
        let sentence = "We are going to live with this one, the correctness fix matters more \
                        than a few percent on a microbenchmark.";
        let reply = |from: &str, subject: &str| Message {
            message_id: "r@x".into(),
            from_email: Some(from.to_string()),
            subject: subject.to_string(),
            in_reply_to: Some("report@x".into()),
            body: format!("{sentence}\n"),
            ..Message::default()
        };
        let maybe = |m: &Message| {
            crate::extract::extract(m)
                .signals
                .iter()
                .any(|s| s.kind == crate::model::SignalKind::MaybeDeclines && s.tentative)
        };
        let report = "Re: [linus:master] [ext4]  d15ea5e012: fsmark.files_per_sec -5.7% regression";
        assert!(maybe(&reply("tm@example.org", report)));
        // The robot's team, and a reply to no report, are not read by it.
        assert!(!maybe(&reply("oliver.sang@intel.com", report)));
        assert!(!maybe(&reply("tm@example.org", "Re: [PATCH] ext4: fix")));
    }

    #[test]
    fn a_long_body_with_almost_no_newlines_is_collapsed_whatever_its_end() {
        let word = "word ".repeat(820); // 4,100 bytes: collapsed under 2 newlines
        for (body, collapsed) in [
            (word.clone(), true),
            (format!("{word}\n"), true),
            (format!("{word}\n{word}"), true),
            (format!("{word}\n{word}\n"), true),
            (format!("a\n{word}\n{word}"), true),
            (format!("a\n{word}\nb\n{word}\n"), false),
            (format!("{word}\n\n"), false),
            (String::new(), false),
        ] {
            let newlines = memchr::memchr_iter(b'\n', body.as_bytes()).count();
            assert_eq!(
                text::looks_collapsed(&body, newlines),
                collapsed,
                "{newlines}"
            );
            assert_eq!(BodyView::new(&body).collapsed, collapsed, "{newlines}");
        }
    }

    #[test]
    fn paragraphs_join_lines_of_one_depth_and_break_on_blank_or_depth() {
        let v = BodyView::new("a b\nc\n> d\n> e\n\nf\n  \n g \n>\n> h\n");
        let all = v.paragraphs(&[]);
        let p: Vec<Paragraph<'_>> = all.iter().collect();
        assert_eq!(p.len(), 5);
        assert_eq!(p[0].text, "a b c");
        assert_eq!((p[1].depth, p[1].text), (1, "d e"));
        assert_eq!((p[2].line, p[2].text), (5, "f"));
        assert_eq!((p[3].line, p[3].text), (7, "g"));
        assert_eq!((p[4].depth, p[4].line, p[4].text), (1, 9, "h"));
        // Skipped lines end a run and are left out.
        let some = v.paragraphs(&[false, true]);
        let p: Vec<_> = some.iter().map(|p| p.text).collect();
        assert_eq!(p, ["a b", "d e", "f", "g", "h"]);
        assert_eq!((all.len(), some.is_empty()), (5, false));
    }

    #[test]
    fn collapsed_depth_follows_the_nearest_quote_marker() {
        let t = "Hi Dave, On x wrote: > A huge amount > went away. Hence I think so. \
                 We did some investigation and got a long answer that runs on and on and on \
                 and on well past one line.";
        assert_eq!(collapsed_depth_at(t, 3), 0);
        let p = t.find("Hence").unwrap_or(0);
        assert_eq!(collapsed_depth_at(t, p), 1);
        let q = t.find("well past").unwrap_or(0);
        assert_eq!(collapsed_depth_at(t, q), 0);
        assert_eq!(collapsed_depth_at("a > > b", 6), 2);
    }

    #[test]
    fn a_short_one_line_reply_with_inline_quotes_counts_as_collapsed() {
        assert!(BodyView::new("Hi Ann, On 5/10/2023 4:00 PM, Ann wrote: > Thanks, the fix is attached Tested-by: Eve Example").collapsed);
        assert!(!BodyView::new("Thanks, applied.\n").collapsed);
        assert!(
            !BodyView::new(
                "a > b\nc > d and a rather long second line that goes on and on and on\n"
            )
            .collapsed
        );
    }

    #[test]
    fn collapsed_quote_prefixes_are_stripped_from_phrases() {
        assert_eq!(
            strip_collapsed_quotes("xfs: > convert CIL to > > unordered"),
            "xfs: convert CIL to unordered"
        );
        assert_eq!(strip_collapsed_quotes("a->b"), "a->b");
    }
}
