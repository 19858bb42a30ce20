//! Sentences that confirm or dispute a regression (grammar:
//! `grammar/evidence-signal.md`), at any quote depth; a `Tested-by:` trailer;
//! and the table signal: a 3+-commit lkp table whose last column returns to
//! within the base column's noise on the headline metric confirms a fix for the
//! commit of that column. Sentences are loose free text, so regexes match them.

use std::sync::LazyLock;

use regex::Regex;

use super::{BodyView, Paragraph, Paragraphs, QuoteMarks, strip_collapsed_quotes};
use crate::model::{ChangeUnit, Extraction, Signal, SignalKind, Table, TableFormat, Trailer};
use crate::text::lowers_safely;

/// The robot prints `±` only when the relative stddev exceeds this (percent).
pub const SMALL_STDDEV: f64 = 2.0;

/// Patterns per kind, tried in this order; a sentence may give several kinds.
static PATTERNS: LazyLock<Vec<(SignalKind, Regex)>> = LazyLock::new(|| {
    // ASCII word boundaries keep the regexes on the fast (DFA) engines even for
    // non-ASCII text.
    let p = |k, re: &str| {
        let re = re
            .replace(r"\b", r"(?-u:\b)")
            .replace(r"[\w']", r"[[:word:]']")
            .replace(r"\w", r"[[:word:]]");
        (k, Regex::new(&format!("(?i){re}")).expect("valid regex"))
    };
    vec![
        p(
            SignalKind::ConfirmsFix,
            concat!(
                r"\bperformance (?:is|was|has been|got|gets)? ?(?:fully |mostly |largely )?(?:restored|recovered|back)\b",
                r"|\b(?:regression|drop|issue|problem)s?(?: [\w']+){0,3} (?:gone|reclaimed|recovered|fixed|resolved|disappear(?:s|ed)?|vanish(?:es|ed)?)\b",
                r"|\b(?:can|could|does|did|will|should) (?:\w+ )?fix (?:the|this) (?:regression|issue)\b",
                r"|\bfix(?:es|ed)? the regression\b",
                r"|\brecover(?:s|ed|ing)?(?: [\w']+){0,4} (?:performance|regression|loss|drop)\b",
                r"|\brestor(?:es|ed|ing|e)(?: [\w']+){0,4} performance\b",
                r"|\bhelps? recover\b",
                r"|\bregression disappears\b",
            ),
        ),
        p(
            SignalKind::Disputes,
            concat!(
                r"\bbisect(?:ion)? (?:went|has gone|is|was|must be|seems|looks) (?:\w+ )?(?:wrong|bogus|incorrect|off)\b",
                r"|\bnot (?:a )?real regression\b",
                r"|\b(?:wrong|bogus) (?:bisect(?:ion)?|commit)\b",
                r"|\bcan(?:'t|not) be (?:caused|responsible)\b",
                r"|\bdon'?t (?:think|believe) (?:this|that|the) (?:commit|patch|change) (?:is|can|could|would|should)\b",
                r"|\bnot convinced\b",
                r"|\b(?:not|isn'?t) (?:really )?actionable\b",
                r"|\b(?:quite |very |rather )?mixed (?:result|picture|bag)\b",
            ),
        ),
        p(
            SignalKind::CannotReproduce,
            concat!(
                r"\b(?:can'?t|cannot|can not|couldn'?t|could not|unable to|not able to|fail(?:ed)? to) (?:\w+ )?(?:reproduce|repro)\b",
                r"|\b(?:doesn'?t|does not|didn'?t|did not) reproduce\b",
                r"|\bnot reproducible\b",
                r"|\b(?:haven'?t|have not|'ve not|never|not) been able to (?:\w+ )?(?:reproduce|repro)\b",
            ),
        ),
        p(
            SignalKind::Declines,
            concat!(
                r"\b(?:won'?t|will not|not going to|don'?t plan to|no plans? to) (?:\w+ )?(?:fix|chase|look into|investigate|bother|worry)\b",
                r"|\bnot worth (?:it|fixing|chasing|the effort|worrying)\b",
                r"|\bdon'?t want to (?:jump through|chase|spend|bother|worry|optimi[sz]e)\b",
                r"|\b(?:please )?ignore (?:this|the) (?:report|regression)\b",
                r"|\b(?:don'?t|do not) (?:think|believe|see) (?:that )?(?:there'?s|there is) (?:anything|much|something) (?:to fix|we (?:can|should|need to) (?:do|fix))\b",
                r"|\bnothing (?:to fix|we (?:can|should|need to) (?:do|fix))\b",
                r"|\b(?:this|that|the|such an?) (?:regression|slowdown|drop|cost|overhead|behaviou?r|result|change) (?:is|was) (?:\w+ )?(?:expected|acceptable|intended|inevitable|unavoidable|by design|the price)\b",
                r"|\b(?:is|was|an?) (?:\w+ )?(?:expected|acceptable|intended|known) (?:regression|slowdown|cost|tradeoff|trade-off|side effect|overhead)\b",
                r"|\bcorrectness (?:trumps|over|wins|matters more|is more important|comes first)\b",
                r"|\b(?:the )?(?:old|previous|original) (?:code|behaviou?r|logic|implementation|way) (?:was|is) (?:\w+ )?(?:buggy|wrong|broken|incorrect|unsafe|racy)\b",
                r"|\bprice (?:to pay|we (?:have to )?pay)\b",
                r"|\bworth (?:the|that) (?:cost|price|overhead)\b",
            ),
        ),
        p(
            SignalKind::Noise,
            concat!(
                r"\b(?:just|only|mostly|pure|likely|probably|is|be|looks like|within(?: the)?|in the) noise\b",
                r"|\bnoisy\b",
                r"|\brun[- ]to[- ]run (?:variation|variance|noise)\b",
                r"|\bfluctuat(?:es|ion|ing)\b",
            ),
        ),
        p(
            SignalKind::Layout,
            concat!(
                r"\blayout (?:\w+ )?(?:change|changes|changed|shift|shifts|difference|differences|effect|issue)\b",
                r"|\b(?:code|data|section|text|cache ?line|function|kernel|struct(?:ure)?) (?:section )?(?:layout|alignment|placement)\b",
                r"|\b(?:alignment|placement) (?:change|changes|changed|issue|effect)\b",
                r"|\b(?:aligned|placed|placing \w+) differently\b",
            ),
        ),
    ]
});

/// Any pattern of any kind: a cheap test that lets most paragraphs (table rows,
/// code) skip sentence splitting.
static ANY: LazyLock<Regex> = LazyLock::new(|| {
    // (a test below checks that every pattern needs one of `WORDS`)
    let all: Vec<String> = PATTERNS
        .iter()
        .map(|(_, re)| format!("(?:{})", re.as_str()))
        .collect();
    Regex::new(&all.join("|")).expect("valid regex")
});

/// Words of which every pattern above needs one (case-insensitive, no
/// boundaries): a literal search rules out most paragraphs before `ANY` runs.
/// Keep it a superset when patterns change.
const WORDS: [&str; 131] = [
    // confirms a fix
    "performance",
    "gone",
    "reclaimed",
    "recover",
    "fixed",
    "resolved",
    "disappear",
    "vanish",
    "fix the regression",
    "fix this regression",
    "fix the issue",
    "fix this issue",
    "the regression",
    "restor",
    // disputes
    "bisect",
    "real regression",
    "wrong commit",
    "bogus commit",
    "be caused",
    "be responsible",
    "dont think",
    "don't think",
    "dont believe",
    "don't believe",
    // cannot reproduce
    "repro",
    // declines
    "wont ",
    "won't ",
    "will not ",
    "not going to ",
    "dont plan to",
    "don't plan to",
    "no plan",
    "not worth",
    "dont want to",
    "don't want to",
    "ignore th",
    "do not think",
    "do not believe",
    "do not see",
    "dont see",
    "don't see",
    "nothing to fix",
    "nothing we ",
    // noise
    "nois",
    "variation",
    "variance",
    "fluctuat",
    // layout
    "layout",
    "alignment",
    "placement",
    "differently",
    // disputes: not convinced, not actionable, a mixed result
    "not convinced",
    "actionable",
    "mixed result",
    "mixed picture",
    "mixed bag",
    // declines: the regression is expected (the thing, then is or was:
    // `expected` alone is in most patches and test logs)
    "regression is ",
    "regression was ",
    "slowdown is ",
    "slowdown was ",
    "drop is ",
    "drop was ",
    "cost is ",
    "cost was ",
    "overhead is ",
    "overhead was ",
    "behaviour is ",
    "behaviour was ",
    "behavior is ",
    "behavior was ",
    "result is ",
    "result was ",
    "change is ",
    "change was ",
    // declines: an expected regression (the adjective, then the thing)
    "expected regression",
    "expected slowdown",
    "expected cost",
    "expected tradeoff",
    "expected trade-off",
    "expected side effect",
    "expected overhead",
    "acceptable regression",
    "acceptable slowdown",
    "acceptable cost",
    "acceptable tradeoff",
    "acceptable trade-off",
    "acceptable side effect",
    "acceptable overhead",
    "intended regression",
    "intended slowdown",
    "intended cost",
    "intended tradeoff",
    "intended trade-off",
    "intended side effect",
    "intended overhead",
    "known regression",
    "known slowdown",
    "known cost",
    "known tradeoff",
    "known trade-off",
    "known side effect",
    "known overhead",
    // declines: correctness first, the old code was buggy, the price
    "correctness trumps",
    "correctness over",
    "correctness wins",
    "correctness matters more",
    "correctness is more important",
    "correctness comes first",
    "old code",
    "old behavio",
    "old logic",
    "old implementation",
    "old way",
    "previous code",
    "previous behavio",
    "previous logic",
    "previous implementation",
    "previous way",
    "original code",
    "original behavio",
    "original logic",
    "original implementation",
    "original way",
    "price to pay",
    "price we ",
    "worth the cost",
    "worth the price",
    "worth the overhead",
    "worth that cost",
    "worth that price",
    "worth that overhead",
];

/// Prefixes of [`WORDS`], each word beginning with exactly one of them and
/// none beginning another: few enough (at most 64) for aho-corasick's SIMD
/// search (Teddy), which the 131 words were not (the regex over them ran at
/// about 550 MB/s, 3.5 % of the instructions of a whole ingest).
const WORD_KEYS: [&str; 61] = [
    "performance",
    "gone",
    "reclaimed",
    "recover",
    "fixed",
    "resolved",
    "disappear",
    "vanish",
    "fix th",
    "the regression",
    "restor",
    "bisect",
    "real regression",
    "wrong commit",
    "bogus commit",
    "be caused",
    "be responsible",
    "dont ",
    "don't ",
    "repro",
    "wont ",
    "won't ",
    "will not ",
    "not going to ",
    "not worth",
    "not convinced",
    "no plan",
    "ignore th",
    "do not ",
    "nothing ",
    "nois",
    "varia",
    "fluctuat",
    "layout",
    "alignment",
    "placement",
    "differently",
    "actionable",
    "mixed ",
    "regression ",
    "slowdown ",
    "drop ",
    "cost ",
    "overhead ",
    "behavio",
    "result ",
    "change ",
    "expected ",
    "acceptable ",
    "intended ",
    "known ",
    "correctness ",
    "old code",
    "old behavio",
    "old logic",
    "old implementation",
    "old way",
    "previous ",
    "original ",
    "price ",
    "worth th",
];

/// The search for [`WORD_KEYS`], and for each key the words beginning with it.
static KEYED_WORDS: LazyLock<(aho_corasick::AhoCorasick, Vec<Vec<&'static str>>)> =
    LazyLock::new(|| {
        let search = aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build(WORD_KEYS)
            .expect("valid keys");
        let words = WORD_KEYS
            .iter()
            .map(|k| WORDS.iter().copied().filter(|w| w.starts_with(k)).collect())
            .collect();
        (search, words)
    });

/// Where the first of [`WORDS`] begins in `lower` (ASCII-lower-cased text)
/// at or after `from`: where the leftmost match of a case-sensitive search
/// for them would begin. A key matches wherever one of its words begins,
/// and only one key can match at a place (no key begins another), so the
/// key found says which words to compare there.
fn first_word(lower: &[u8], from: usize) -> Option<usize> {
    let (search, words) = &*KEYED_WORDS;
    let mut at = from;
    while at < lower.len() {
        let m = search.find(aho_corasick::Input::new(lower).span(at..lower.len()))?;
        let rest = lower.get(m.start()..).unwrap_or_default();
        if words
            .get(m.pattern().as_usize())
            .is_some_and(|ws| ws.iter().any(|w| rest.starts_with(w.as_bytes())))
        {
            return Some(m.start());
        }
        at = m.start() + 1;
    }
    None
}

/// [`ANY`] without `(?i)`, run on ASCII-lower-cased text: the patterns are
/// lower case and their classes ASCII (`[[:word:]]`, ASCII `\b`), so this
/// matches where `ANY` matches the text as it was, and the regex engine can
/// search for its literals instead of running a case-folded automaton over
/// every byte.
static LOWER_ANY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(ANY.as_str().replace("(?i)", "").as_str()).expect("valid regex"));

/// Whether `text` holds one of [`WORDS`] in any case (a superset of the
/// texts [`ANY`] matches).
fn mentions_a_word(text: &str) -> bool {
    static FOLDED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(&format!("(?i){}", WORDS.join("|"))).expect("valid regex"));
    if !lowers_safely(text) {
        return FOLDED.is_match(text);
    }
    first_word(text.to_ascii_lowercase().as_bytes(), 0).is_some()
}

/// The paragraphs that may hold a signal sentence: those where one of
/// [`WORDS`] begins and [`ANY`] matches. The paragraphs' text is lower-cased
/// once and searched from one word to the next, not paragraph by paragraph.
fn candidates(paragraphs: &Paragraphs) -> Vec<Paragraph<'_>> {
    let all = paragraphs.text();
    if !lowers_safely(all) {
        return paragraphs
            .iter()
            .filter(|p| mentions_a_word(p.text) && ANY.is_match(p.text))
            .collect();
    }
    let lower = all.to_ascii_lowercase();
    let mut out = Vec::new();
    // Start of the first word at or after the current paragraph's start.
    let mut word: Option<usize> = None;
    for (range, p) in paragraphs.iter_ranges() {
        if word.is_none_or(|w| w < range.start) {
            word = first_word(lower.as_bytes(), range.start);
        }
        let Some(w) = word else { break };
        if w < range.end && lower.get(range).is_some_and(|t| LOWER_ANY.is_match(t)) {
            out.push(p);
        }
    }
    out
}

/// Kinds a sentence expresses (empty when none).
pub fn kinds_of(sentence: &str) -> Vec<SignalKind> {
    static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\bnot\b|n't\b|\bnever\b|\bno longer\b").expect("valid regex")
    });
    PATTERNS
        .iter()
        .filter(|(k, re)| {
            re.find_iter(sentence).any(|m| {
                // "the regression is not fixed", "not enough to fix the
                // regression" confirm nothing: no negation in the match or in
                // the four words before it.
                let before = sentence.get(..m.start()).unwrap_or("");
                let window: Vec<&str> = before.split_whitespace().rev().take(4).collect();
                let negated =
                    NEGATION.is_match(m.as_str()) || window.iter().any(|w| NEGATION.is_match(w));
                *k != SignalKind::ConfirmsFix || !negated
            })
        })
        .map(|(k, _)| *k)
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

/// Sentence signals of a body, skipping diff lines.
pub fn sentence_signals(view: &BodyView<'_>, in_diff: &[bool]) -> Vec<Signal> {
    sentence_signals_in(&view.paragraphs(in_diff), view.collapsed)
}

/// [`sentence_signals`] of paragraphs already built ([`BodyView::paragraphs`]).
pub fn sentence_signals_in(paragraphs: &Paragraphs, collapsed: bool) -> Vec<Signal> {
    let mut out: Vec<Signal> = Vec::new();
    for p in candidates(paragraphs) {
        let marks = collapsed.then(|| QuoteMarks::new(p.text));
        for (pos, s) in sentences(p.text) {
            let kinds = kinds_of(s);
            if kinds.is_empty() {
                continue;
            }
            let (sentence, depth) = match &marks {
                Some(m) => (strip_collapsed_quotes(s), m.depth_at(pos)),
                None => (crate::text::fold_ws(s), p.depth),
            };
            for kind in kinds {
                if !out
                    .iter()
                    .any(|o| o.kind == kind && o.sentence == sentence && o.quote_depth == depth)
                {
                    out.push(Signal {
                        kind,
                        sentence: sentence.clone(),
                        quote_depth: depth,
                        commit: None,
                    });
                }
            }
        }
    }
    out
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
            commit: None,
        })
        .collect()
}

/// Table signals of the lkp tables already in `ex.tables`.
pub fn table_signals(ex: &Extraction) -> Vec<Signal> {
    let headline = ex
        .subject_report
        .as_ref()
        .and_then(|s| s.metric.clone())
        .or_else(|| ex.report.as_ref().and_then(|r| r.metric.clone()));
    ex.tables
        .iter()
        .filter_map(|t| table_signal(t, headline.as_deref()))
        .collect()
}

/// The table signal of one table: with 3+ columns, the headline row (else the
/// row with the largest change in the culprit column) must move beyond the base
/// column's noise in the culprit column and come back within it in the last.
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
    let row = headline
        .and_then(|m| t.rows.iter().find(|r| r.metric == m))
        .or_else(|| {
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
    if culprit.abs() <= noise || fixed.abs() > noise {
        return None;
    }
    let commit = t.commits.get(last)?.clone();
    Some(Signal {
        kind: SignalKind::ConfirmsFix,
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Change, TableRow};

    /// A repeatable pick below `n` (a linear congruential generator seeded
    /// with `seed`), for the generated texts of the tests below.
    fn picker(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        }
    }

    #[test]
    fn each_word_begins_with_exactly_one_key() {
        assert!(WORD_KEYS.len() <= 64, "Teddy takes at most 64 patterns");
        for w in WORDS {
            let keys: Vec<&str> = WORD_KEYS
                .iter()
                .copied()
                .filter(|k| w.starts_with(k))
                .collect();
            assert_eq!(keys.len(), 1, "{w:?} begins with {keys:?}");
        }
        for a in WORD_KEYS {
            assert!(
                WORDS.iter().any(|w| w.starts_with(a)),
                "key {a:?} begins no word"
            );
            for b in WORD_KEYS {
                assert!(a == b || !b.starts_with(a), "key {a:?} begins key {b:?}");
            }
        }
    }

    #[test]
    fn the_key_search_finds_where_the_words_search_does() {
        let words = Regex::new(&WORDS.map(regex::escape).join("|")).expect("valid regex");
        let pieces: Vec<String> = WORDS
            .iter()
            .flat_map(|w| {
                let cut = w.len() / 2;
                [w.to_string(), w[..cut].to_string(), w[cut..].to_string()]
            })
            .chain(
                [
                    "the ",
                    "regression",
                    "not ",
                    " ",
                    "x",
                    "don",
                    "'t",
                    "\u{e9}",
                ]
                .map(String::from),
            )
            .collect();
        let mut next = picker(11);
        for _ in 0..5000 {
            let mut text = String::new();
            for _ in 0..next(8) {
                text.push_str(&pieces[next(pieces.len())]);
            }
            for from in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                let want = words.find_at(&text, from).map(|m| m.start());
                assert_eq!(
                    first_word(text.as_bytes(), from),
                    want,
                    "{text:?} from {from}"
                );
            }
        }
    }

    #[test]
    fn every_pattern_alternative_passes_the_word_prefilter() {
        // One sentence per alternative of every pattern, in pattern order.
        let phrases = [
            "the performance is fully restored",
            "the regression is now gone",
            "this should fix the regression",
            "the patch fixes the regression",
            "it recovers most of the lost performance",
            "it restores the performance",
            "the change helps recover",
            "the regression disappears",
            "the bisection went wrong",
            "this is not a real regression",
            "the report names a bogus commit",
            "that change can't be responsible",
            "I don't think this commit is to blame",
            "I cannot reproduce it here",
            "it does not reproduce",
            "the result is not reproducible",
            "we won't chase this",
            "it is not worth fixing",
            "I don't want to jump through hoops",
            "please ignore this report",
            "I do not see that there is anything we can do",
            "there is nothing to fix",
            "this is just noise",
            "the numbers are noisy",
            "that is run-to-run variation",
            "the result fluctuates",
            "a layout change moved it",
            "a cache line alignment effect",
            "a placement change again",
            "the functions got placed differently",
            "I am not convinced",
            "this is not really actionable",
            "overall a very mixed picture",
            "we have not been able to reproduce it",
            "this regression is expected",
            "such a slowdown was entirely acceptable",
            "the behaviour is by design",
            "it is an expected tradeoff",
            "this is a known side effect",
            "correctness trumps speed here",
            "the old code was subtly racy",
            "the previous behavior is broken",
            "that is the price we pay",
            "it is worth the overhead",
        ];
        for p in phrases {
            assert!(ANY.is_match(p), "no pattern matches `{p}`");
            assert!(mentions_a_word(p), "the prefilter drops `{p}`");
            let upper = p.to_uppercase();
            assert!(mentions_a_word(&upper), "the prefilter drops `{upper}`");
            let non_ascii = format!("{upper} \u{2014}");
            assert!(
                mentions_a_word(&non_ascii),
                "the prefilter drops `{non_ascii}`"
            );
        }
        assert!(!mentions_a_word(
            "Signed-off-by: A Developer <a@example.org>"
        ));
        assert!(!mentions_a_word(
            "Signed-off-by: A D\u{e9}veloppeur <a@example.org>"
        ));
        // The patterns fold `ſ` to `s` and the Kelvin sign to `k` (Unicode
        // case folding); so does the prefilter.
        let kelvin = "I don't thin\u{212a} this commit is to blame";
        assert!(ANY.is_match(kelvin));
        assert!(mentions_a_word(kelvin));
        assert!(ANY.is_match("the regression is re\u{17f}olved"));
        assert!(mentions_a_word("the regression is re\u{17f}olved"));
    }

    #[test]
    fn the_lowered_search_matches_where_the_case_folded_one_does() {
        // Every letter of the patterns is lower case, so the case-sensitive
        // copy on lower-cased text is the case-insensitive one.
        let literal = ANY
            .as_str()
            .replace("(?i)", "")
            .replace("(?-u:\\b)", "")
            .replace("[[:word:]']", "")
            .replace("[[:word:]]", "");
        assert!(
            !literal.bytes().any(|b| b.is_ascii_uppercase()),
            "{literal}"
        );
        let texts = [
            "The Performance Is Fully RESTORED now.",
            "We Can't Reproduce It On Our Side",
            "performanceis back",
            "Bisection Went Wrong, sorry",
            "it is NOT a Real Regression",
            "Table rows: 1234 \u{b1} 2% -5.7% fsmark.files_per_sec",
            "ThisIsNotNoise but noisy",
            "Signed-off-by: A D\u{e9}veloppeur <a@example.org>",
        ];
        for t in texts {
            assert_eq!(
                LOWER_ANY.is_match(&t.to_ascii_lowercase()),
                ANY.is_match(t),
                "{t}"
            );
        }
    }

    #[test]
    fn candidates_are_the_paragraphs_any_matches() {
        let body = "Hi,\n\nThanks for the report.\nThe PERFORMANCE is back\nwith the fix.\n\n\
                    > perf report quoted\n> we cannot\n> reproduce it\n\n\
                    Unrelated words: gone, fixed\n\nA layout change, maybe.\n\n\
                    re\u{17f}olved nothing here\n";
        let view = BodyView::new(body);
        let paragraphs = view.paragraphs(&[]);
        let want: Vec<&str> = paragraphs
            .iter()
            .filter(|p| ANY.is_match(p.text))
            .map(|p| p.text)
            .collect();
        let got: Vec<&str> = candidates(&paragraphs).iter().map(|p| p.text).collect();
        assert_eq!(got, want);
        assert_eq!(got.len(), 3, "{got:?}");
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
        let mut next = picker(7);
        for _ in 0..3000 {
            let mut body = String::new();
            for _ in 0..next(14) {
                body.push_str(pieces[next(pieces.len())]);
                body.push_str(seps[next(seps.len())]);
            }
            let view = BodyView::new(&body);
            let paragraphs = view.paragraphs(&[]);
            let want: Vec<&str> = paragraphs
                .iter()
                .filter(|p| ANY.is_match(p.text))
                .map(|p| p.text)
                .collect();
            let got: Vec<&str> = candidates(&paragraphs).iter().map(|p| p.text).collect();
            assert_eq!(got, want, "{body:?}");
            hits += got.len();
        }
        assert!(hits > 300, "{hits}");
        // Text holding `ſ` is searched case-folded, paragraph by paragraph.
        let folded = BodyView::new("the regression is re\u{17f}olved\n\nno\n");
        let paragraphs = folded.paragraphs(&[]);
        assert_eq!(candidates(&paragraphs).len(), 1);
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
    fn sentences_split_at_marks_followed_by_space() {
        let s = sentences("See System.map now. Done! ok");
        let texts: Vec<_> = s.iter().map(|(_, t)| *t).collect();
        assert_eq!(texts, ["See System.map now.", "Done!", "ok"]);
        assert_eq!(s[1].0, 20);
    }

    #[test]
    fn signals_keep_their_quote_depth_and_skip_nothing_else() {
        let v = BodyView::new(
            "> With that, the regression there is\n> reclaimed.\n\nI can't reproduce it.\n",
        );
        let s = sentence_signals(&v, &[]);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].kind, s[0].quote_depth), (SignalKind::ConfirmsFix, 1));
        assert_eq!(
            s[0].sentence,
            "With that, the regression there is reclaimed."
        );
        assert_eq!(
            (s[1].kind, s[1].quote_depth),
            (SignalKind::CannotReproduce, 0)
        );
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
}
