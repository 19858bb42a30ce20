//! How the reply reader decides on sentences it was not written on:
//! twelve sets of paraphrased reply sentences (`tests/data/paraphrase/`, written
//! by labellers who read neither the phrase book nor its grammar), each
//! line `LABEL<TAB>SPEAKER<TAB>TEXT`: what the sentence decides about the
//! reported regression and who says it (a text `> question?  answer` is a
//! quoted question and the reply's answer below it). Sets A to K were
//! read while writing the phrase families; set L is only measured.
//! The test reads each text as a reply's own paragraph, decides as the
//! linker does (a plain reading sets a status, a hedged one or a
//! bystander's raises a doubt), and prints the agreement of each set; it
//! fails below the floors.

use regtrack::evidence::BodyView;
use regtrack::evidence::signal::{model_signals, sentence_signals};
use regtrack::link::rules::sentence_status;
use regtrack::model::SignalKind;
use regtrack::model::history::{Role, Status};

/// What a sentence decides, as the linker reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Decision {
    Declined,
    Disputed,
    FixConfirmed,
    /// The culprit's series set aside, or a revert or drop promised.
    Drop,
    /// A fix promised.
    WillFix,
}

/// The decision a label names, for a speaker.
fn wanted(label: &str, speaker: &str) -> Option<Decision> {
    match label {
        "declines" if speaker == "robot-team" => Some(Decision::Disputed),
        "declines" => Some(Decision::Declined),
        "disputes" | "cannot-reproduce" | "noise" | "layout" | "withdraws" => {
            Some(Decision::Disputed)
        }
        "confirms-fix" => Some(Decision::FixConfirmed),
        "will-revert" | "sets-aside" => Some(Decision::Drop),
        "will-fix" => Some(Decision::WillFix),
        "none" => None,
        other => panic!("unknown label {other}"),
    }
}

/// The decisions regtrack reads in `text` said by `speaker`, each with
/// whether it is sure (a plain reading by a person who speaks for the
/// history; a hedged reading or a bystander's opinion is not).
fn read(text: &str, speaker: &str) -> Vec<(Decision, bool)> {
    // "> question?  answer": a quoted line, then the reply below it.
    let body = match text.strip_prefix("> ").and_then(|t| t.split_once("  ")) {
        Some((quoted, answer)) => format!("> {quoted}\n\n{answer}\n"),
        None => text.to_string(),
    };
    let view = BodyView::new(&body);
    let robot_team = speaker == "robot-team";
    let mut out = Vec::new();
    // As a reply to a report: the reply model reads what the phrase book
    // did not, but in the robot team's mail.
    let mut signals = sentence_signals(&view, &[]);
    if speaker != "robot-team" {
        let more = model_signals(&view.paragraphs(&[]), view.collapsed, &signals);
        signals.extend(more);
    }
    for s in signals {
        let decision = match s.kind {
            SignalKind::SetsAside | SignalKind::Superseded | SignalKind::WillRevert => {
                (!robot_team).then_some(Decision::Drop)
            }
            SignalKind::WillFix => Some(Decision::WillFix),
            // What a reply only may decide raises the doubt of it
            // (`possible-decline`, `possible-dispute`): unsure.
            SignalKind::MaybeDeclines if robot_team => Some(Decision::Disputed),
            SignalKind::MaybeDeclines => Some(Decision::Declined),
            SignalKind::MaybeDisputes => Some(Decision::Disputed),
            kind => match sentence_status(kind, &s.sentence, false, false, robot_team, Role::Reply)
            {
                Some(Status::Declined) => Some(Decision::Declined),
                Some(Status::Disputed) => Some(Decision::Disputed),
                Some(Status::FixConfirmed) => Some(Decision::FixConfirmed),
                _ => None,
            },
        };
        if let Some(d) = decision {
            let opinion =
                speaker == "bystander" && matches!(d, Decision::Declined | Decision::Disputed);
            out.push((d, !s.tentative && !opinion));
        }
    }
    out.sort();
    out.dedup();
    out
}

#[derive(Default, Debug)]
struct Score {
    lines: u32,
    deciding: u32,
    /// Deciding lines read as their decision, sure.
    right_sure: u32,
    /// Deciding lines read as their decision, unsure only.
    right_unsure: u32,
    /// Lines that decide nothing, read as nothing (or only as unsure).
    none: u32,
    none_quiet: u32,
    /// Lines that decide nothing, read as an unsure decision (a doubt
    /// raised for nothing).
    none_doubted: u32,
    /// Lines read as a sure decision they do not make.
    wrong_sure: u32,
}

fn score(set: &str) -> Score {
    let path = if set.starts_with('/') {
        set.to_string()
    } else {
        format!("{}/tests/data/paraphrase/{set}", env!("CARGO_MANIFEST_DIR"))
    };
    let text = std::fs::read_to_string(&path).expect("paraphrase set");
    let mut s = Score::default();
    let verbose = std::env::var_os("REGTRACK_PHRASES_VERBOSE").is_some();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.splitn(3, '\t').collect();
        assert_eq!(f.len(), 3, "{set}: {line}");
        let (label, speaker, sentence) = (f[0], f[1], f[2]);
        let want = wanted(label, speaker);
        let got = read(sentence, speaker);
        s.lines += 1;
        let sure_wrong = got.iter().any(|&(d, sure)| sure && Some(d) != want);
        s.wrong_sure += u32::from(sure_wrong);
        let verdict = match want {
            Some(w) => {
                s.deciding += 1;
                let sure = got.iter().any(|&(d, sure)| d == w && sure);
                let unsure = got.iter().any(|&(d, _)| d == w);
                s.right_sure += u32::from(sure && !sure_wrong);
                s.right_unsure += u32::from(unsure && !sure && !sure_wrong);
                if sure && !sure_wrong {
                    "ok"
                } else if unsure && !sure_wrong {
                    "unsure"
                } else {
                    "MISS"
                }
            }
            None => {
                s.none += 1;
                s.none_quiet += u32::from(!sure_wrong);
                let doubted = !sure_wrong && !got.is_empty();
                s.none_doubted += u32::from(doubted);
                if sure_wrong {
                    "WRONG"
                } else if doubted {
                    "DOUBT"
                } else {
                    "ok"
                }
            }
        };
        if verbose && verdict != "ok" {
            eprintln!("{set} {verdict:6} {label}/{speaker}: got {got:?}: {sentence}");
        }
    }
    s
}

#[test]
fn the_reply_reader_decides_paraphrased_sentences_it_was_not_written_on() {
    // Floors a few points under what the sets gave when the phrase book or
    // the reply model was last changed: sets A to N were read while writing
    // the families (A to L train the model), set O never was (held out; it
    // reads 68 % sure and 77 % sure or unsure, and 94 of its 97 sentences
    // deciding nothing as nothing; 67 % and 76 % before the families of
    // set N).
    // REGTRACK_PHRASES_EXTRA=/abs/path.tsv scores one more set (no floor):
    // a set being written, or sentences tried while writing a family.
    let extra = std::env::var("REGTRACK_PHRASES_EXTRA").ok();
    for (set, floor_decided, floor_quiet) in [
        ("set-a.tsv", 92.0, 97.0),
        ("set-b.tsv", 92.0, 97.0),
        ("set-c.tsv", 90.0, 97.0),
        ("set-d.tsv", 88.0, 97.0),
        ("set-e.tsv", 90.0, 97.0),
        ("set-f.tsv", 90.0, 97.0),
        ("set-g.tsv", 85.0, 97.0),
        ("set-h.tsv", 92.0, 97.0),
        ("set-i.tsv", 92.0, 97.0),
        ("set-j.tsv", 95.0, 97.0),
        ("set-k.tsv", 95.0, 97.0),
        ("set-l.tsv", 95.0, 97.0),
        ("set-m.tsv", 75.0, 95.0),
        ("set-n.tsv", 95.0, 97.0),
        ("set-o.tsv", 74.0, 95.0),
    ]
    .into_iter()
    .chain(extra.as_deref().map(|e| (e, 0.0, 0.0)))
    {
        let s = score(set);
        let pct = |a: u32, b: u32| 100.0 * f64::from(a) / f64::from(b.max(1));
        eprintln!(
            "{set}: {} lines; deciding read right {}/{} ({:.0} %), {} more only as unsure; \
             deciding nothing read as nothing {}/{} ({:.0} %), {} of them with a doubt; \
             sure and wrong {}/{} ({:.0} %)",
            s.lines,
            s.right_sure,
            s.deciding,
            pct(s.right_sure, s.deciding),
            s.right_unsure,
            s.none_quiet,
            s.none,
            pct(s.none_quiet, s.none),
            s.none_doubted,
            s.wrong_sure,
            s.lines,
            pct(s.wrong_sure, s.lines),
        );
        assert!(
            pct(s.right_sure + s.right_unsure, s.deciding) >= floor_decided,
            "{set}"
        );
        assert!(pct(s.none_quiet, s.none) >= floor_quiet, "{set}");
    }
}
