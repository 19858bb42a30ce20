//! A second reader of the sentences of replies to the robot's reports: a
//! naive Bayes model of how developers decline or dispute a report, for the
//! wording the phrase book ([`super::phrases`]) has no family for.
//!
//! The phrase book reads what it knows plainly; on sentences nobody wrote a
//! family for it reads about half to two thirds of those that decide
//! (paraphrase sets measured before they were read, `tests/data/paraphrase/`). The model reads the rest as a *doubt*, never a
//! status: a sentence it takes for a decline or a dispute gives a tentative
//! `maybe-declines` or `maybe-disputes` signal, which the linker shows as a
//! `possible-decline` or `possible-dispute` question with the `regtrack mark`
//! line that settles it.
//!
//! It is a multinomial naive Bayes over the lower-cased words of a sentence
//! and their pairs and triples, trained when first used on the paraphrase
//! sets A to L (sets the phrase book was written on); sets M (written on
//! since) and N (held out) are never trained on, and N measures it
//! (`tests/it/phrases_paraphrased.rs`). A
//! reading counts only when its probability is at least [`THRESHOLD`] with
//! the prior of "decides nothing" raised by [`NONE_BOOST`] (in real replies
//! most sentences decide nothing): trained on A to G and measured on H and
//! I before use, that read 71/120 and 84/123 deciding sentences with no
//! wrong kind, and 1/96 and 2/97 sentences deciding nothing as deciding. Hand-written: the model
//! is a few count tables. Of the crates, `bayespam` tells two classes only,
//! and `linfa-bayes` takes `ndarray` matrices (bringing `ndarray` and
//! `linfa`) while the features would still be built here.

use std::collections::HashMap;
use std::sync::LazyLock;

/// What the model can read a sentence as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// The cost is accepted: expected, small, the price of something else.
    Declines,
    /// The report is wrong or withdrawn: cannot reproduce, noise, the test
    /// set-up, another commit, the robot's team taking it back.
    Disputes,
}

/// Least probability of a reading.
pub const THRESHOLD: f64 = 0.99;
/// Added to the log prior of "decides nothing".
pub const NONE_BOOST: f64 = 6.0;
/// Additive smoothing of the word counts.
const ALPHA: f64 = 0.3;

/// The training sets: `LABEL<TAB>SPEAKER<TAB>TEXT` lines.
const TRAINING: [&str; 12] = [
    include_str!("../../tests/data/paraphrase/set-a.tsv"),
    include_str!("../../tests/data/paraphrase/set-b.tsv"),
    include_str!("../../tests/data/paraphrase/set-c.tsv"),
    include_str!("../../tests/data/paraphrase/set-d.tsv"),
    include_str!("../../tests/data/paraphrase/set-e.tsv"),
    include_str!("../../tests/data/paraphrase/set-f.tsv"),
    include_str!("../../tests/data/paraphrase/set-g.tsv"),
    include_str!("../../tests/data/paraphrase/set-h.tsv"),
    include_str!("../../tests/data/paraphrase/set-i.tsv"),
    include_str!("../../tests/data/paraphrase/set-j.tsv"),
    include_str!("../../tests/data/paraphrase/set-k.tsv"),
    include_str!("../../tests/data/paraphrase/set-l.tsv"),
];

/// The trained model: per label, its log prior and the log probability of
/// each feature (and of an unseen one).
struct Model {
    labels: Vec<Label>,
}

struct Label {
    name: String,
    prior: f64,
    /// Log probability of a feature seen in training under this label.
    seen: HashMap<String, f64>,
    /// Log probability of a feature of the vocabulary never seen under it.
    unseen: f64,
}

static MODEL: LazyLock<Model> = LazyLock::new(|| {
    let mut docs: HashMap<String, (u32, HashMap<String, u32>, u32)> = HashMap::new();
    let mut vocabulary: std::collections::HashSet<String> = std::collections::HashSet::new();
    for line in TRAINING.iter().flat_map(|t| t.lines()) {
        let mut f = line.splitn(3, '\t');
        let (Some(label), Some(_), Some(text)) = (f.next(), f.next(), f.next()) else {
            continue;
        };
        let entry = docs.entry(label.to_string()).or_default();
        entry.0 += 1;
        for feature in features(text) {
            entry.2 += 1;
            *entry.1.entry(feature.clone()).or_default() += 1;
            vocabulary.insert(feature);
        }
    }
    let total: u32 = docs.values().map(|d| d.0).sum();
    let v = vocabulary.len() as f64;
    let mut labels: Vec<Label> = docs
        .into_iter()
        .map(|(name, (n, counts, tokens))| {
            let denominator = f64::from(tokens) + ALPHA * v;
            let boost = if name == "none" { NONE_BOOST } else { 0.0 };
            Label {
                prior: (f64::from(n) / f64::from(total.max(1))).ln() + boost,
                seen: counts
                    .into_iter()
                    .map(|(k, c)| (k, ((f64::from(c) + ALPHA) / denominator).ln()))
                    .collect(),
                unseen: (ALPHA / denominator).ln(),
                name,
            }
        })
        .collect();
    labels.sort_by(|a, b| a.name.cmp(&b.name));
    Model { labels }
});

/// The features of a text: its lower-cased words (with an apostrophe's
/// tail), `?` and `!`, and their runs of two and three, each once.
fn features(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut words: Vec<&str> = Vec::new();
    let mut start: Option<usize> = None;
    let bytes = lower.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let word = b.is_ascii_alphanumeric()
            || (b == b'\''
                && start.is_some()
                && bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic));
        match (word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                words.push(&lower[s..i]);
                start = None;
            }
            _ => {}
        }
        if matches!(b, b'?' | b'!') {
            words.push(&lower[i..i + 1]);
        }
    }
    if let Some(s) = start {
        words.push(&lower[s..]);
    }
    let mut out: Vec<String> = words.iter().map(|w| (*w).to_string()).collect();
    out.extend(words.windows(2).map(|w| w.join(" ")));
    out.extend(words.windows(3).map(|w| w.join(" ")));
    out.sort_unstable();
    out.dedup();
    out
}

/// What the model reads `sentence` as, when it is a decline or a dispute
/// with a probability of at least [`THRESHOLD`] (and that probability).
pub fn read(sentence: &str) -> Option<(Reading, f64)> {
    let model = &*MODEL;
    let feats = features(sentence);
    // Features no label has seen weigh alike under every label but for the
    // smoothing; they are left out, as the training's vocabulary is.
    let known: Vec<&String> = feats
        .iter()
        .filter(|f| model.labels.iter().any(|l| l.seen.contains_key(*f)))
        .collect();
    if known.is_empty() {
        return None;
    }
    let scores: Vec<f64> = model
        .labels
        .iter()
        .map(|l| {
            l.prior
                + known
                    .iter()
                    .map(|f| l.seen.get(*f).copied().unwrap_or(l.unseen))
                    .sum::<f64>()
        })
        .collect();
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = scores.iter().map(|s| (s - best).exp()).sum();
    let (i, _) = scores.iter().enumerate().find(|(_, s)| **s == best)?;
    let p = 1.0 / sum;
    if p < THRESHOLD {
        return None;
    }
    let reading = match model.labels.get(i)?.name.as_str() {
        "declines" => Reading::Declines,
        "disputes" | "cannot-reproduce" | "noise" | "layout" | "withdraws" => Reading::Disputes,
        _ => return None,
    };
    Some((reading, p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_words_pairs_and_triples() {
        let f = features("It's noise, not a regression!");
        for want in ["it's", "noise", "!", "noise not", "not a regression"] {
            assert!(f.iter().any(|x| x == want), "{want} in {f:?}");
        }
    }

    #[test]
    fn the_model_reads_declines_and_disputes_and_leaves_the_rest() {
        // Paraphrases written for this test, in none of the sets.
        assert_eq!(
            read("We knowingly trade a bit of throughput here for correctness, so I'm keeping it as is.")
                .map(|r| r.0),
            Some(Reading::Declines)
        );
        assert_eq!(
            read("Please ignore this report, the test machine had a hardware problem.")
                .map(|r| r.0),
            Some(Reading::Disputes)
        );
        assert_eq!(read("Let me look at the profile tomorrow."), None);
        assert_eq!(read("The patch moves the lock into the helper."), None);
        assert_eq!(read(""), None);
    }
}
