//! Sentences that confirm or dispute a regression (grammar:
//! `grammar/evidence-signal.md`), at any quote depth; a `Tested-by:` trailer;
//! and the table signal: a 3+-commit lkp table whose last column returns to
//! within the base column's noise on the headline metric confirms a fix for the
//! commit of that column. Sentences are loose free text, so regexes match them.

use super::{BodyView, Paragraph, Paragraphs, QuoteMarks, phrases, strip_collapsed_quotes};
use crate::model::{ChangeUnit, Extraction, Signal, SignalKind, Table, TableFormat, Trailer};
use crate::text::lowers_safely;

/// The robot prints `±` only when the relative stddev exceeds this (percent).
pub const SMALL_STDDEV: f64 = 2.0;

/// Kinds a sentence expresses (empty when none; see [`phrases::read`]).
pub fn kinds_of(sentence: &str) -> Vec<SignalKind> {
    phrases::read(sentence)
        .into_iter()
        .map(|f| f.kind)
        .collect()
}

/// Splits a paragraph into sentences at `.`, `!`, `?` (and `:`) followed by
/// white space, keeping the byte offset of each sentence.
pub fn sentences(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let end_mark = matches!(b, b'.' | b'!' | b'?' | b':');
        let next_ws = bytes.get(i + 1).is_none_or(|c| c.is_ascii_whitespace());
        if end_mark && next_ws {
            if let Some(s) = text.get(start..=i) {
                if !s.trim().is_empty() {
                    out.push((start + (s.len() - s.trim_start().len()), s.trim()));
                }
            }
            start = i + 1;
        }
    }
    if let Some(s) = text.get(start..) {
        if !s.trim().is_empty() {
            out.push((start + (s.len() - s.trim_start().len()), s.trim()));
        }
    }
    out
}

/// The sentences of `text` (as [`sentences`] splits it) that hold one of
/// the byte offsets `at` (ascending), cut at the sentence ends around each
/// offset (the ends are found with SIMD searches for the marks, which most
/// bytes are not; only the sentences holding an offset are trimmed and
/// kept).
pub fn sentences_at<'t>(text: &'t str, at: &[usize]) -> Vec<(usize, &'t str)> {
    let bytes = text.as_bytes();
    let ends_here = |i: usize| bytes.get(i + 1).is_none_or(|c| c.is_ascii_whitespace());
    // Where sentences end, found once with SIMD searches for the marks.
    let mut ends: Vec<usize> = memchr::memchr3_iter(b'.', b'!', b'?', bytes)
        .filter(|&i| ends_here(i))
        .collect();
    let colons = memchr::memchr_iter(b':', bytes).filter(|&i| ends_here(i));
    let split = ends.len();
    ends.extend(colons);
    if split != ends.len() && split != 0 {
        ends.sort_unstable();
    }
    let mut out: Vec<(usize, &str)> = Vec::new();
    let mut covered = 0;
    for &k in at {
        if k < covered || k >= bytes.len() {
            continue;
        }
        let p = ends.partition_point(|&e| e < k);
        let start = p
            .checked_sub(1)
            .and_then(|q| ends.get(q))
            .map_or(0, |e| e + 1);
        let end = ends.get(p).map_or(bytes.len(), |e| e + 1);
        covered = end;
        if let Some(s) = text.get(start..end)
            && !s.trim().is_empty()
        {
            out.push((start + (s.len() - s.trim_start().len()), s.trim()));
        }
    }
    out
}

/// Sentence signals of a body, skipping diff lines.
pub fn sentence_signals(view: &BodyView<'_>, in_diff: &[bool]) -> Vec<Signal> {
    sentence_signals_in(&view.paragraphs(in_diff), view.collapsed)
}

/// A key of the phrase book found in a paragraph: its start and end
/// (offsets into the paragraph) and which key it is.
type Key = (usize, usize, usize);

/// Calls `f` with each paragraph that may hold a signal sentence: those
/// holding a cue key of the phrase book ([`phrases::cued`]), each with its
/// lower-cased text and its keys (`None` when the text could not be
/// lower-cased in place, and every sentence must be read). The
/// paragraphs' text is lower-cased once and searched once for every key.
fn for_each_candidate<'p>(
    paragraphs: &'p Paragraphs,
    mut f: impl FnMut(Paragraph<'p>, Option<(&str, &[Key])>),
) {
    let all = paragraphs.text();
    if !lowers_safely(all) {
        for p in paragraphs
            .iter()
            .filter(|p| phrases::cued(&p.text.to_lowercase()))
        {
            f(p, None);
        }
        return;
    }
    let lower = all.to_ascii_lowercase();
    // Every key, by its end: each is of the paragraph its end falls in
    // when it starts there too (one running on from the paragraph before
    // is of neither).
    let mut keys: Vec<Key> = Vec::new();
    phrases::for_each_cue(lower.as_bytes(), |start, end, key| {
        keys.push((start, end, key));
        true
    });
    let mut keys = keys.into_iter().peekable();
    let mut inside: Vec<Key> = Vec::new();
    for (range, p) in paragraphs.iter_ranges() {
        inside.clear();
        while let Some(&(start, end, key)) = keys.peek() {
            if end > range.end {
                break;
            }
            keys.next();
            if start >= range.start {
                inside.push((start - range.start, end - range.start, key));
            }
        }
        if let Some(lower_p) = lower.get(range)
            && !inside.is_empty()
        {
            f(p, Some((lower_p, &inside)));
        }
    }
}

/// [`sentence_signals`] of paragraphs already built ([`BodyView::paragraphs`]):
/// the sentences of the paragraphs `for_each_candidate` passes that hold
/// a key. Only the mail author's own paragraphs (quote depth 0) are read
/// when the lines say their depth: a quoted sentence speaks for somebody
/// else, and the linker reads none; a whitespace-collapsed body's depth is
/// estimated per sentence, so all of it is read. The answers to quoted
/// questions come first ([`phrases::answered`]). A sentence of ASCII is
/// read from the lower-cased text with the keys found in it; any other is
/// lower-cased and searched again ([`phrases::read`]).
pub fn sentence_signals_in(paragraphs: &Paragraphs, collapsed: bool) -> Vec<Signal> {
    let mut out: Vec<Signal> = Vec::new();
    let own;
    let paragraphs = if collapsed {
        paragraphs
    } else {
        answers(paragraphs, &mut out);
        own = paragraphs.own();
        &*own
    };
    let mut starts: Vec<usize> = Vec::new();
    for_each_candidate(paragraphs, |p, keyed| {
        let Some((lower, keys)) = keyed else {
            let read = sentences(p.text)
                .into_iter()
                .map(|(pos, s)| (pos, s, phrases::read(s)));
            push_signals(&mut out, p, collapsed, read);
            return;
        };
        // Only a sentence holding a key can hold a phrase.
        starts.clear();
        starts.extend(keys.iter().map(|k| k.0));
        let read = sentences_at(p.text, &starts).into_iter().map(|(pos, s)| {
            let end = pos + s.len();
            let found = match lower.get(pos..end) {
                Some(l) if s.is_ascii() => phrases::read_lowered(
                    l,
                    keys.iter()
                        .filter(|k| k.0 >= pos && k.1 <= end)
                        .map(|k| (k.0 - pos, k.2)),
                ),
                _ => phrases::read(s),
            };
            (pos, s, found)
        });
        push_signals(&mut out, p, collapsed, read);
    });
    out
}

/// What the reply model ([`super::reply_model`]) reads in the mail's own
/// sentences that the phrase book read nothing in (`read`: the signals it
/// found): a tentative `maybe-declines` or `maybe-disputes` signal each.
/// Questions, sentences opening with a condition and what is no prose (4
/// to 60 words, nine in ten of letters) are left out; so is a whitespace-collapsed body, whose
/// quoted sentences cannot be told from its own.
pub fn model_signals(paragraphs: &Paragraphs, collapsed: bool, read: &[Signal]) -> Vec<Signal> {
    let mut out: Vec<Signal> = Vec::new();
    if collapsed {
        return out;
    }
    for p in paragraphs.own().iter() {
        for (_, s) in sentences(p.text) {
            let sentence = crate::text::fold_ws(s);
            if !prose(&sentence)
                || phrases::says_nothing_of(&sentence)
                || read.iter().chain(&out).any(|r| r.sentence == sentence)
            {
                continue;
            }
            let Some((reading, _)) = super::reply_model::read(&sentence) else {
                continue;
            };
            out.push(Signal {
                kind: match reading {
                    super::reply_model::Reading::Declines => SignalKind::MaybeDeclines,
                    super::reply_model::Reading::Disputes => SignalKind::MaybeDisputes,
                },
                mentions: phrases::mentioned_commit(&sentence),
                sentence,
                quote_depth: 0,
                commit: None,
                tentative: true,
            });
        }
    }
    out
}

/// Whether a sentence reads as prose for the reply model: 4 to 60 words,
/// nine in ten of them words of letters (not a pasted configuration,
/// numbers or code).
fn prose(sentence: &str) -> bool {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let wordy = words
        .iter()
        .filter(|w| {
            let w = w.trim_matches(|c: char| c.is_ascii_punctuation());
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_alphabetic() || c == '\'' || c == '-')
        })
        .count();
    (4..=60).contains(&words.len()) && wordy * 10 >= words.len() * 9
}

/// What joins an answer to the quoted question it answers in a signal's
/// sentence: `Yes, it does. (answering "Could you check ...?")`.
const ANSWERING: &str = " (answering \"";

/// The answer's own words of a signal's sentence that answers a quoted
/// question (the answer, then ` (answering "` and the question); any other
/// sentence whole.
pub fn own_words(sentence: &str) -> &str {
    sentence
        .rfind(ANSWERING)
        .map_or(sentence, |at| &sentence[..at])
}

/// The answers of the mail's own text to questions it quotes: a paragraph
/// of depth 0 right below a quoted one that ends in a question, opening
/// with a yes or a no ([`phrases::answered`]). The signal's sentence is the
/// answer with the question after it.
fn answers(paragraphs: &Paragraphs, out: &mut Vec<Signal>) {
    let mut before: Option<Paragraph<'_>> = None;
    for p in paragraphs.iter() {
        if let Some(q) = before.filter(|q| q.depth > 0 && p.depth == 0)
            && q.text.trim_end().ends_with('?')
        {
            let question = sentences(q.text).last().map_or("", |s| s.1);
            let answer = sentences(p.text).first().map_or("", |s| s.1);
            if let Some(f) = phrases::answered(question, answer) {
                let sentence = format!(
                    "{}{ANSWERING}{}\")",
                    crate::text::fold_ws(answer),
                    crate::text::fold_ws(question)
                );
                out.push(Signal {
                    kind: f.kind,
                    mentions: phrases::mentioned_commit(&sentence),
                    sentence,
                    quote_depth: 0,
                    commit: None,
                    tentative: f.tentative,
                });
            }
        }
        before = Some(p);
    }
}

/// Adds the signals of a paragraph's sentences read (at their offset in
/// the paragraph, with what [`phrases::read`] found in each) to `out`,
/// each kind of a sentence at a depth once.
fn push_signals<'p>(
    out: &mut Vec<Signal>,
    p: Paragraph<'p>,
    collapsed: bool,
    sentences: impl Iterator<Item = (usize, &'p str, Vec<phrases::Found>)>,
) {
    let mut marks: Option<QuoteMarks> = None;
    for (pos, s, found) in sentences {
        if found.is_empty() {
            continue;
        }
        let (sentence, depth) = if collapsed {
            let m = marks.get_or_insert_with(|| QuoteMarks::new(p.text));
            (strip_collapsed_quotes(s), m.depth_at(pos))
        } else {
            (crate::text::fold_ws(s), p.depth)
        };
        let mentions = phrases::mentioned_commit(&sentence);
        for f in found {
            if !out
                .iter()
                .any(|o| o.kind == f.kind && o.sentence == sentence && o.quote_depth == depth)
            {
                out.push(Signal {
                    kind: f.kind,
                    sentence: sentence.clone(),
                    quote_depth: depth,
                    commit: None,
                    tentative: f.tentative,
                    mentions: mentions.clone(),
                });
            }
        }
    }
}

/// A `Tested-by:` trailer of the mail's own (not a suggestion) confirms a fix.
pub fn trailer_signals(trailers: &[Trailer]) -> Vec<Signal> {
    trailers
        .iter()
        .filter(|t| t.key == "Tested-by" && !t.suggested)
        .map(|t| Signal {
            kind: SignalKind::ConfirmsFix,
            sentence: format!("Tested-by: {}", t.value),
            quote_depth: t.quote_depth,
            ..Signal::default()
        })
        .collect()
}

/// The least share of the culprit column's change that the last column must
/// win back to count as partly restoring it.
pub const PARTLY_RESTORED: f64 = 1.0 / 3.0;

/// True when `fixed` (the last column's change against the base) wins back
/// at least [`PARTLY_RESTORED`] of `culprit`'s change, and more than the
/// noise: -69.5 % with the culprit, -40.8 % with a diff on top. A last
/// column beyond the base on the other side (the loss more than won back)
/// counts too.
pub fn partly_restores(culprit: f64, fixed: f64, noise: f64) -> bool {
    let won_back = (culprit - fixed) * culprit.signum();
    won_back > noise && won_back >= culprit.abs() * PARTLY_RESTORED
}

/// Table signals of the lkp tables already in `ex.tables`.
pub fn table_signals(ex: &Extraction) -> Vec<Signal> {
    let headline = ex
        .subject_report
        .as_ref()
        .and_then(|s| s.metric.clone())
        .or_else(|| ex.report.as_ref().and_then(|r| r.metric.clone()));
    let mut out: Vec<Signal> = Vec::new();
    for s in ex
        .tables
        .iter()
        .filter_map(|t| table_signal(t, headline.as_deref()))
    {
        // A table printed twice in one mail (its summary, then its details)
        // says it once.
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The table signal of one table: with 3+ columns, the headline row (else the
/// row with the largest change in the culprit column) must move beyond the base
/// column's noise in the culprit column and come back within it in the last
/// (`confirms-fix`), or, the headline row only, win back at least a third
/// of the change there ([`partly_restores`]: `partly-restores`).
pub fn table_signal(t: &Table, headline: Option<&str>) -> Option<Signal> {
    if t.format != TableFormat::Lkp || t.commits.len() < 3 {
        return None;
    }
    let pct = |row: &crate::model::TableRow, col: usize| -> Option<f64> {
        row.changes
            .get(col)?
            .as_ref()
            .filter(|c| c.unit == ChangeUnit::Percent)?
            .value
    };
    let last = t.commits.len() - 1;
    let headline_row = headline.and_then(|m| t.rows.iter().find(|r| r.metric == m));
    let row = headline_row.or_else(|| {
        t.rows
            .iter()
            .filter(|r| pct(r, 1).is_some() && pct(r, last).is_some())
            .max_by(|a, b| {
                let x = pct(a, 1).unwrap_or(0.0).abs();
                let y = pct(b, 1).unwrap_or(0.0).abs();
                x.total_cmp(&y)
            })
    })?;
    let noise = row
        .stddev_percent
        .first()
        .copied()
        .flatten()
        .unwrap_or(SMALL_STDDEV)
        .max(SMALL_STDDEV);
    let culprit = pct(row, 1)?;
    let fixed = pct(row, last)?;
    if culprit.abs() <= noise {
        return None;
    }
    let kind = if fixed.abs() <= noise {
        SignalKind::ConfirmsFix
    } else if headline_row.is_some() && partly_restores(culprit, fixed, noise) {
        SignalKind::PartlyRestores
    } else {
        return None;
    };
    let commit = t.commits.get(last)?.clone();
    Some(Signal {
        kind,
        sentence: format!(
            "{}: {:+.1}% with {}, {:+.1}% with {} (base noise {:.1}%)",
            row.metric,
            culprit,
            t.commits.get(1).map_or("", String::as_str),
            fixed,
            commit,
            noise
        ),
        quote_depth: t.quote_depth,
        commit: Some(commit),
        ..Signal::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Change, TableRow};

    /// A repeatable pick below `n` (a linear congruential generator seeded
    /// with `seed`), for the generated texts of the tests below.
    /// Up to `most` - 1 pieces drawn by `next`, each followed by a drawn
    /// separator.
    fn text_of(
        next: &mut impl FnMut(usize) -> usize,
        most: usize,
        pieces: &[&str],
        seps: &[&str],
    ) -> String {
        let mut text = String::new();
        for _ in 0..next(most) {
            text.push_str(pieces[next(pieces.len())]);
            text.push_str(seps[next(seps.len())]);
        }
        text
    }

    /// The paragraphs [`for_each_candidate`] passes.
    fn candidates(paragraphs: &Paragraphs) -> Vec<Paragraph<'_>> {
        let mut out = Vec::new();
        for_each_candidate(paragraphs, |p, _| out.push(p));
        out
    }

    /// The text holds a cue key, by brute force.
    fn any(text: &str) -> bool {
        static KEYS: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(phrases::cue_keys);
        let l = text.to_lowercase();
        KEYS.iter().any(|k| l.contains(k.as_str()))
    }

    #[test]
    fn candidates_are_the_paragraphs_any_matches() {
        let body = "Hi,\n\nThanks for the report.\nThe PERFORMANCE is back\nwith the fix.\n\n\
                    > perf report quoted\n> we cannot\n> reproduce it\n\n\
                    Unrelated words: gone, fixed\n\nA layout change, maybe.\n\n\
                    re\u{17f}olved nothing yet\n";
        let view = BodyView::new(body);
        let paragraphs = view.paragraphs(&[]);
        let want: Vec<&str> = paragraphs
            .iter()
            .filter(|p| any(p.text))
            .map(|p| p.text)
            .collect();
        let got: Vec<&str> = candidates(&paragraphs).iter().map(|p| p.text).collect();
        assert_eq!(got, want);
        assert_eq!(got.len(), 4, "{got:?}");
        // Bodies made of pieces of matches, words that begin none, and
        // words split across lines and paragraphs.
        let pieces = [
            "fixed",
            "the regression",
            "is gone",
            "performance",
            "is back",
            "won't",
            "fix",
            "not convinced",
            "Noisy",
            "re",
            "pro",
            "duce",
            "can't",
            "we",
            "bisect",
            "was wrong",
            "(",
            "\u{e9}",
        ];
        let seps = [" ", ", ", "\n", ".\n\n", "-", "'", "\n> ", ""];
        let mut hits = 0;
        let mut next = crate::evidence::picker(7);
        for _ in 0..3000 {
            let body = text_of(&mut next, 14, &pieces, &seps);
            let view = BodyView::new(&body);
            let paragraphs = view.paragraphs(&[]);
            let want: Vec<&str> = paragraphs
                .iter()
                .filter(|p| any(p.text))
                .map(|p| p.text)
                .collect();
            let got: Vec<&str> = candidates(&paragraphs).iter().map(|p| p.text).collect();
            assert_eq!(got, want, "{body:?}");
            hits += got.len();
        }
        assert!(hits > 300, "{hits}");
        // Text whose ASCII lower-casing is not its lower case (`ſ`, the
        // Kelvin sign) is searched paragraph by paragraph, lower-cased whole.
        let folded = BodyView::new(
            "THE REGRESSION IS GONE \u{17f}\n\nno\n\nth\u{212a} \u{2014} It Is Just Noise\n",
        );
        let paragraphs = folded.paragraphs(&[]);
        assert_eq!(candidates(&paragraphs).len(), 2);
    }

    #[test]
    fn reading_the_keyed_sentences_finds_what_reading_every_sentence_finds() {
        let pieces = [
            "the regression",
            "is gone",
            "performance is back",
            "I can\u{2019}t",
            "I can't",
            "reproduce it",
            "If this is expected",
            "it is just noise",
            "Not convinced",
            "we will revert it",
            "this is the old version",
            "\u{c9}t\u{e9}",
            "hold",
            "?",
            "is acceptable",
            "The COST",
        ];
        let seps = [" ", ", ", "\n", ".\n\n", ". ", "\n> ", ": ", ""];
        let mut found = 0;
        let mut next = crate::evidence::picker(11);
        for _ in 0..2000 {
            let body = text_of(&mut next, 12, &pieces, &seps);
            let view = BodyView::new(&body);
            let paragraphs = view.paragraphs(&[]);
            let mut want = Vec::new();
            for p in paragraphs.iter().filter(|p| view.collapsed || p.depth == 0) {
                let read = sentences(p.text)
                    .into_iter()
                    .map(|(pos, s)| (pos, s, phrases::read(s)));
                push_signals(&mut want, p, view.collapsed, read);
            }
            let got = sentence_signals_in(&paragraphs, view.collapsed);
            assert_eq!(got, want, "{body:?}");
            found += got.len();
        }
        assert!(found > 500, "{found}");
    }

    #[test]
    fn each_kind_has_its_sentences() {
        use SignalKind::*;
        let cases = [
            (
                "With the debug below, the performance is restored.",
                ConfirmsFix,
            ),
            ("With that, the regression there is reclaimed.", ConfirmsFix),
            ("The regression is gone:", ConfirmsFix),
            ("The patch can fix the regression.", ConfirmsFix),
            ("The fix recovers most of the regression.", ConfirmsFix),
            ("It restores most of the lost performance.", ConfirmsFix),
            ("Hence I think the bisect went wrong somewhere...", Disputes),
            ("This is not a real regression.", Disputes),
            ("I can't reproduce this on my machine.", CannotReproduce),
            ("We could not reproduce it.", CannotReproduce),
            (
                "I don't want to jump through too big hoops for this.",
                Declines,
            ),
            ("I won't chase this one.", Declines),
            (
                "In either case I don't think there's anything to fix in the kernel in this case.",
                Declines,
            ),
            ("There is nothing to fix here.", Declines),
            ("This looks like noise to me, it's just noise.", Noise),
            ("The test is noisy.", Noise),
            (
                "I did confirm via System.map that layout drastically changes.",
                Layout,
            ),
            (
                "this code update changed the data section layout of the kernel.",
                Layout,
            ),
        ];
        for (s, k) in cases {
            assert!(kinds_of(s).contains(&k), "{s:?} should be {k:?}");
        }
        assert!(kinds_of("Thanks for the report, I will look.").is_empty());
        assert!(kinds_of("The regression is not fixed by it.").is_empty());
        assert!(kinds_of("But that's not enough to fix the regression.").is_empty());
        assert!(kinds_of("fwq is a noise benchmark to measure noise levels.").is_empty());
    }

    #[test]
    fn an_answer_below_a_quoted_question_is_read_with_it() {
        let v = BodyView::new("> Is this regression expected?\n\nYes, we flush twice now.\n");
        let s = sentence_signals(&v, &[]);
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!((s[0].kind, s[0].quote_depth), (SignalKind::Declines, 0));
        assert!(s[0].sentence.contains("answering") && s[0].sentence.contains("expected?"));
        // The same answer below a statement, or said first, reads nothing.
        let v = BodyView::new("> The regression is there.\n\nYes, we flush twice now.\n");
        assert!(sentence_signals(&v, &[]).is_empty());
        let v = BodyView::new("Yes, we flush twice now.\n> Is this regression expected?\n");
        assert!(sentence_signals(&v, &[]).is_empty());
    }

    #[test]
    fn sentences_split_at_marks_followed_by_space() {
        let s = sentences("See System.map now. Done! ok");
        let texts: Vec<_> = s.iter().map(|(_, t)| *t).collect();
        assert_eq!(texts, ["See System.map now.", "Done!", "ok"]);
        assert_eq!(s[1].0, 20);
    }

    #[test]
    fn only_the_authors_own_sentences_are_read() {
        let v = BodyView::new(
            "> With that, the regression there is\n> reclaimed.\n\nI can't reproduce it.\n",
        );
        let s = sentence_signals(&v, &[]);
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(
            (s[0].kind, s[0].quote_depth, s[0].sentence.as_str()),
            (SignalKind::CannotReproduce, 0, "I can't reproduce it.")
        );
        // A collapsed body's quotes are read, each at its estimated depth.
        let collapsed = format!(
            "On Mon, A wrote: > With that, the regression there is reclaimed. {} I can't reproduce it.",
            "x ".repeat(60)
        );
        let v = BodyView::new(&collapsed);
        assert!(v.collapsed);
        let depths: Vec<u32> = sentence_signals(&v, &[])
            .iter()
            .map(|s| s.quote_depth)
            .collect();
        assert!(depths.contains(&1), "{depths:?}");
    }

    fn lkp(changes: [f64; 2], base_sd: Option<f64>) -> Table {
        let ch = |v| {
            Some(Change {
                value: Some(v),
                unit: ChangeUnit::Percent,
            })
        };
        Table {
            format: TableFormat::Lkp,
            quote_depth: 0,
            params: vec![],
            commits: vec!["a".into(), "b".into(), "c".into()],
            commit_titles: vec![],
            rows: vec![TableRow {
                metric: "fsmark.files_per_sec".into(),
                values: vec![Some(14349.0), Some(13527.0), Some(14437.0)],
                stddev_percent: vec![base_sd, None, None],
                changes: vec![None, ch(changes[0]), ch(changes[1])],
                ..TableRow::default()
            }],
            skipped_rows: 0,
            omitted_rows: 0,
            offset: 0,
        }
    }

    #[test]
    fn a_last_column_back_within_noise_confirms_its_commit() {
        let s = table_signal(&lkp([-5.7, 0.6], None), Some("fsmark.files_per_sec"));
        assert_eq!(s.and_then(|s| s.commit).as_deref(), Some("c"));
        assert!(table_signal(&lkp([-5.7, -4.0], None), None).is_none());
        assert!(table_signal(&lkp([-5.7, -4.0], Some(8.0)), None).is_none());
        assert!(table_signal(&lkp([-5.7, -4.0], Some(4.5)), None).is_some());
    }

    #[test]
    fn a_last_column_winning_back_a_third_or_more_partly_restores() {
        let headline = Some("fsmark.files_per_sec");
        let kind = |c: [f64; 2]| table_signal(&lkp(c, None), headline).map(|s| (s.kind, s.commit));
        let partly = Some((SignalKind::PartlyRestores, Some("c".to_string())));
        assert_eq!(kind([-69.5, -40.8]), partly);
        assert_eq!(kind([30.0, 12.0]), partly, "an improvement partly undone");
        assert_eq!(kind([-10.0, 6.0]), partly, "the loss more than won back");
        assert_eq!(kind([-69.5, -50.0]), None, "under a third won back");
        assert_eq!(kind([-5.7, -4.0]), None, "won back within the noise");
        assert_eq!(kind([-10.0, -12.0]), None, "worse still");
        assert_eq!(
            kind([-10.0, -1.0]).map(|k| k.0),
            Some(SignalKind::ConfirmsFix)
        );
        assert!(
            table_signal(&lkp([-69.5, -40.8], None), Some("aim7.jobs-per-min")).is_none(),
            "another metric's row is no headline"
        );
    }

    #[test]
    fn sentences_around_offsets_are_the_split_sentences_that_hold_them() {
        let mut next = crate::evidence::picker(3);
        let pieces = ["word", " ", ". ", "! ", "?", ":", "\n", "e.g.", "x:y", "  "];
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..next(20) {
                text.push_str(pieces[next(pieces.len())]);
            }
            let mut at: Vec<usize> = (0..next(4))
                .map(|_| next(text.len().max(1)))
                .filter(|&i| text.is_char_boundary(i))
                .collect();
            at.sort_unstable();
            let want: Vec<(usize, &str)> = sentences(&text)
                .into_iter()
                .filter(|(p, s)| at.iter().any(|&k| k >= *p && k < p + s.len()))
                .collect();
            // An offset in the white space between sentences belongs to
            // none of the split ones: only compare offsets inside them.
            let inside: Vec<usize> = at
                .iter()
                .copied()
                .filter(|&k| {
                    sentences(&text)
                        .iter()
                        .any(|(p, s)| k >= *p && k < p + s.len())
                })
                .collect();
            assert_eq!(sentences_at(&text, &inside), want, "{text:?} at {inside:?}");
        }
    }
}
