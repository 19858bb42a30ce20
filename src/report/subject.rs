//! Report subjects (`grammar/lkp-subject.md`): reply prefixes, list tags, the
//! `[tree:branch]` tag, the subsystem tag, the culprit id and the perf or
//! functional tail. Every function is named after its production.
//!
//! The subject is folded first (header folding, double spaces), so productions
//! only need single spaces.

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_till, take_while_m_n};
use nom::character::complete::{char, digit1, one_of, space0, space1};
use nom::combinator::{all_consuming, opt, recognize, rest, verify};
use nom::multi::many0;
use nom::sequence::{delimited, terminated};
use nom::{IResult, Parser};

use crate::model::{Direction, SubjectReport};
use crate::report::error::{Position, ReportError, ReportErrorKind, quote};
use crate::text;

/// One prefix before the report part.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Prefix<'a> {
    /// `Re:`, `Fwd:` and friends.
    Reply,
    /// A bracketed tag's inner text.
    Bracket(&'a str),
}

/// ```text
/// reply_word := ("Re" | "RE" | "Fwd" | "Fw" | "FW" | "Aw" | "AW" | "Antw") ":"
/// ```
fn reply_word(i: &str) -> IResult<&str, Prefix<'_>> {
    let (i, _) = (
        alt((
            tag_no_case("Re"),
            tag_no_case("Fwd"),
            tag_no_case("Fw"),
            tag_no_case("Aw"),
            tag_no_case("Antw"),
        )),
        char(':'),
        space0,
    )
        .parse(i)?;
    Ok((i, Prefix::Reply))
}

/// ```text
/// bracket := "[" (any character but "]")* "]"
/// ```
fn bracket(i: &str) -> IResult<&str, Prefix<'_>> {
    let (i, inner) = terminated(
        delimited(char('['), take_till(|c| c == ']'), char(']')),
        space0,
    )
    .parse(i)?;
    Ok((i, Prefix::Bracket(inner.trim())))
}

/// ```text
/// prefix := reply_word | bracket
/// ```
fn prefix(i: &str) -> IResult<&str, Prefix<'_>> {
    // The first byte tells which production can match (most subjects' words
    // start with neither).
    match i.as_bytes().first() {
        Some(b'[') => bracket(i),
        Some(b'r' | b'R' | b'f' | b'F' | b'a' | b'A') => reply_word(i),
        _ => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Alt,
        ))),
    }
}

/// ```text
/// tree_tag := name ":" branch             ; no blanks; branch may hold "/"
/// ```
fn is_tree_tag(inner: &str) -> bool {
    match inner.split_once(':') {
        Some((name, branch)) => {
            !name.is_empty()
                && !branch.is_empty()
                && !inner.contains(char::is_whitespace)
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        }
        None => false,
    }
}

/// ```text
/// culprit := hex{8,40} ":"
/// ```
fn culprit(i: &str) -> IResult<&str, &str> {
    terminated(
        take_while_m_n(8, 40, |c: char| {
            c.is_ascii_hexdigit() && !c.is_ascii_uppercase()
        }),
        (char(':'), space0),
    )
    .parse(i)
}

/// The largest change a subject may name, in percent either way: the
/// robot's biggest headlines are some thousands of percent; a number past
/// this (`-99999999999999999999999999999999999999.9%`) is no measurement,
/// and would wreck every median and chart it entered.
const MAX_CHANGE: f64 = 1e7;

/// ```text
/// pct := ("+" | "-")? digits ("." digits)? "%"     ; |value| <= MAX_CHANGE
/// ```
fn pct(i: &str) -> IResult<&str, f64> {
    let start = i;
    let (i, text) = terminated(
        recognize((opt(one_of("+-")), digit1, opt((char('.'), digit1)))),
        char('%'),
    )
    .parse(i)?;
    let v = text.trim_start_matches('+').parse::<f64>().unwrap_or(0.0);
    if v.abs() > MAX_CHANGE {
        return Err(nom::Err::Error(nom::error::Error::new(
            start,
            nom::error::ErrorKind::Verify,
        )));
    }
    Ok((i, v))
}

/// ```text
/// direction := "regression" | "improvement" | "undefined"
/// ```
fn direction(i: &str) -> IResult<&str, Direction> {
    alt((
        tag("regression").map(|_| Direction::Regression),
        tag("improvement").map(|_| Direction::Improvement),
        tag("undefined").map(|_| Direction::Undefined),
    ))
    .parse(i)
}

/// The longest metric name read (the robot's longest are about 120 bytes:
/// `phoronix-test-suite.fio.SequentialWrite.IO_uring.Yes.Yes.1MB...`); a
/// longer "metric" is no robot's subject, and would be copied into every
/// table and key that names the metric.
pub const MAX_METRIC: usize = 512;

/// The longest subject read as a robot report's.
const MAX_REPORT_SUBJECT: usize = 2048;

/// ```text
/// metric := (any character but blank){1,MAX_METRIC}
/// ```
fn metric(i: &str) -> IResult<&str, &str> {
    take_till(|c: char| c == ' ').parse(i).and_then(|(r, m)| {
        if m.is_empty() || m.len() > MAX_METRIC {
            Err(nom::Err::Error(nom::error::Error::new(
                i,
                nom::error::ErrorKind::TakeTill1,
            )))
        } else {
            Ok((r, m))
        }
    })
}

/// The facts of a subject tail.
#[derive(Debug, Clone, PartialEq, Default)]
struct Tail {
    metric: Option<String>,
    change: Option<f64>,
    direction: Option<Direction>,
    failure: Option<String>,
    trailing: Option<String>,
}

/// ```text
/// perf_tail := metric " " change " " direction (" " trailing)?   ; 2016 and later
/// change    := pct | (not a pct) "%"     ; "NaN%", "inf%", past MAX_CHANGE: no change
/// ```
/// A change that cannot be read leaves the metric and the direction, and
/// the subject is no failure's description.
fn perf_tail(i: &str) -> IResult<&str, Tail> {
    let garbled = verify(take_till(|c: char| c == ' '), |w: &str| {
        w.len() > 1 && w.ends_with('%')
    });
    let (i, (m, _, p, _, d, t)) = (
        metric,
        space1,
        alt((pct.map(Some), garbled.map(|_| None))),
        space1,
        direction,
        opt(rest.map(str::trim)),
    )
        .parse(i)?;
    Ok((
        i,
        Tail {
            metric: Some(m.to_string()),
            change: p,
            direction: Some(d),
            trailing: t.filter(|t| !t.is_empty()).map(str::to_string),
            ..Tail::default()
        },
    ))
}

/// ```text
/// no_primary_tail := "[No primary change]" " " pct " " metric    ; 2016
/// ```
fn no_primary_tail(i: &str) -> IResult<&str, Tail> {
    let (i, (_, _, p, _, m)) = (
        tag_no_case("[No primary change]"),
        space0,
        pct,
        space1,
        metric,
    )
        .parse(i)?;
    Ok((
        i,
        Tail {
            metric: Some(m.to_string()),
            change: Some(p),
            direction: Some(Direction::Undefined),
            ..Tail::default()
        },
    ))
}

/// ```text
/// old_tail := pct " " metric                                     ; 2014
/// ```
fn old_tail(i: &str) -> IResult<&str, Tail> {
    let (i, (p, _, m, _)) = (pct, space1, metric, space0).parse(i)?;
    Ok((
        i,
        Tail {
            metric: Some(m.to_string()),
            change: Some(p),
            ..Tail::default()
        },
    ))
}

/// ```text
/// failure_tail := (any character)*       ; "xfstests.btrfs.020/026/215.fail", "BUG:..."
/// ```
fn failure_tail(i: &str) -> IResult<&str, Tail> {
    let (i, f) = rest(i)?;
    let f = f.trim();
    Ok((
        i,
        Tail {
            failure: (!f.is_empty()).then(|| f.to_string()),
            ..Tail::default()
        },
    ))
}

/// ```text
/// wordless_tail := metric " " pct                               ; direction word cut off
/// ```
fn wordless_tail(i: &str) -> IResult<&str, Tail> {
    let (i, (m, _, p, _)) = (metric, space1, pct, space0).parse(i)?;
    Ok((
        i,
        Tail {
            metric: Some(m.to_string()),
            change: Some(p),
            ..Tail::default()
        },
    ))
}

/// ```text
/// tail := no_primary_tail | old_tail | perf_tail | wordless_tail | failure_tail
/// ```
fn tail(i: &str) -> IResult<&str, Tail> {
    alt((
        all_consuming(no_primary_tail),
        all_consuming(old_tail),
        all_consuming(perf_tail),
        all_consuming(wordless_tail),
        failure_tail,
    ))
    .parse(i)
}

/// ```text
/// subject := prefix* culprit tail
/// ```
/// Parses a (folded) subject; `None` when it is not a report's subject. The last
/// bracket before the culprit is the subsystem, a `name:branch` bracket is the
/// tree tag, every other bracket is a list tag.
pub fn parse_subject(subject: &str) -> Option<SubjectReport> {
    if subject.len() > MAX_REPORT_SUBJECT {
        return None;
    }
    let folded = text::fold_ws_cow(subject);
    let (i, prefixes) = many0(prefix).parse(folded.as_ref()).ok()?;
    let (i, commit) = culprit(i).ok()?;
    let (_, t) = tail(i).ok()?;
    let brackets: Vec<&str> = prefixes
        .iter()
        .filter_map(|p| match p {
            Prefix::Bracket(b) => Some(*b),
            Prefix::Reply => None,
        })
        .collect();
    if brackets
        .iter()
        .any(|b| b.to_ascii_uppercase().starts_with("PATCH"))
    {
        return None;
    }
    let (subsystem, others) = match brackets.split_last() {
        Some((last, others)) if !is_tree_tag(last) => (Some(last.to_string()), others),
        _ => (None, brackets.as_slice()),
    };
    let branch = others
        .iter()
        .rev()
        .find(|b| is_tree_tag(b))
        .map(|b| b.to_string());
    let tags = others
        .iter()
        .filter(|b| !is_tree_tag(b))
        .map(|b| b.to_string())
        .collect();
    Some(SubjectReport {
        branch,
        subsystem,
        commit: commit.to_string(),
        metric: t.metric,
        change_percent: t.change,
        direction: t.direction,
        failure: t.failure,
        tags,
        trailing: t.trailing,
        is_reply: prefixes.contains(&Prefix::Reply),
    })
}

/// Like [`parse_subject`], but says where the subject stops being a report's:
/// the byte offset (in the folded subject) and what was found there.
pub fn check_subject(subject: &str) -> Result<SubjectReport, ReportError> {
    if let Some(s) = parse_subject(subject) {
        return Ok(s);
    }
    let folded = text::fold_ws(subject);
    let after = many0(prefix)
        .parse(folded.as_str())
        .map(|(i, _)| i)
        .unwrap_or(&folded);
    let at = folded.len() - after.len();
    let message = if folded
        .get(..at)
        .is_some_and(|p| p.to_ascii_uppercase().contains("[PATCH"))
    {
        "a [PATCH ...] subject is not a report subject".to_string()
    } else {
        format!(
            "expected a culprit id `<8-40 hex>:` after the tags, found `{}`",
            quote(after)
        )
    };
    Err(ReportError {
        kind: ReportErrorKind::NotAReportSubject,
        position: Position::at(&folded, at, message),
    })
}

/// True when the subject starts like a reply or forward (`Re:`, `Fwd:`), after any list tags.
pub fn is_reply_subject(subject: &str) -> bool {
    // `prefix*`, stopping at the first reply word (no list of prefixes built).
    let folded = text::fold_ws_cow(subject);
    let mut i = folded.as_ref();
    while let Ok((rest, p)) = prefix(i) {
        if p == Prefix::Reply {
            return true;
        }
        i = rest;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> SubjectReport {
        parse_subject(x).expect("a report subject")
    }

    #[test]
    fn a_current_subject_with_tree_and_double_spaces_parses() {
        let r = s("[linus:master] [xfs]  2edf06a50f:  fsmark.files_per_sec -5.7%\n regression");
        assert_eq!(r.branch.as_deref(), Some("linus:master"));
        assert_eq!(r.subsystem.as_deref(), Some("xfs"));
        assert_eq!(r.commit, "2edf06a50f");
        assert_eq!(r.metric.as_deref(), Some("fsmark.files_per_sec"));
        assert_eq!(r.change_percent, Some(-5.7));
        assert_eq!(r.direction, Some(Direction::Regression));
        assert!(!r.is_reply);
    }

    #[test]
    fn a_change_no_measurement_gives_is_no_change() {
        let big =
            s("[linus:master] [xfs] 2edf06a50f: will-it-scale.per_thread_ops 2315.3% improvement");
        assert_eq!(big.change_percent, Some(2315.3));
        let absurd = parse_subject(
            "[linus:master] [xfs] 2edf06a50f: fsmark.files_per_sec -99999999999999999999999999999999999999.9% regression",
        );
        assert!(
            absurd.as_ref().is_none_or(|r| r.change_percent.is_none()),
            "{absurd:?}"
        );
        // A change that cannot be read leaves the metric and direction, and
        // is no failure's description.
        for change in ["NaN%", "inf%", "-1e38%", "-99999999999.9%"] {
            let r = s(&format!(
                "[linus:master] [xfs] 2edf06a50f: fsmark.files_per_sec {change} regression"
            ));
            assert_eq!(
                r.metric.as_deref(),
                Some("fsmark.files_per_sec"),
                "{change}"
            );
            assert_eq!(r.direction, Some(Direction::Regression), "{change}");
            assert_eq!(
                (r.change_percent, r.failure.as_deref()),
                (None, None),
                "{change}"
            );
        }
    }

    #[test]
    fn reply_chains_and_list_tags_are_prefixes() {
        let r = s("Re: [LKP] Re: [xfs] 016a23388c: stress-ng.xattr.ops_per_sec 58.4% improvement");
        assert!(r.is_reply);
        assert_eq!(r.tags, ["LKP"]);
        assert_eq!(r.subsystem.as_deref(), Some("xfs"));
        assert_eq!(r.change_percent, Some(58.4));
        assert_eq!(r.direction, Some(Direction::Improvement));
    }

    #[test]
    fn subsystems_with_slashes_commas_and_branches_with_dashes_parse() {
        let r = s(
            "[daveh-devel:prefault-20250128] [fs/dax]  1234abcd99: will-it-scale.per_thread_ops -3.1% regression in mmap1 benchmark",
        );
        assert_eq!(r.branch.as_deref(), Some("daveh-devel:prefault-20250128"));
        assert_eq!(r.subsystem.as_deref(), Some("fs/dax"));
        assert_eq!(r.trailing.as_deref(), Some("in mmap1 benchmark"));
        let r = s("[lkp] [mm, oom] faad2185f4: vm-scalability.throughput -11.8% regression");
        assert_eq!(r.subsystem.as_deref(), Some("mm, oom"));
        assert_eq!(r.tags, ["lkp"]);
    }

    #[test]
    fn old_and_no_primary_change_forms_put_the_change_first() {
        let r = s("[mempolicy] 5507231dd04: -18.2% vm-scalability.migrate_mbps");
        assert_eq!(r.metric.as_deref(), Some("vm-scalability.migrate_mbps"));
        assert_eq!(r.change_percent, Some(-18.2));
        assert_eq!(r.direction, None);
        let r = s(
            "[lkp-developer] [sched,rcu]  cf7a2dca60: [No primary change] +186% will-it-scale.time.involuntary_context_switches",
        );
        assert_eq!(r.change_percent, Some(186.0));
        assert_eq!(r.subsystem.as_deref(), Some("sched,rcu"));
    }

    #[test]
    fn functional_subjects_carry_a_failure_id() {
        let r = s("[linus:master] [btrfs]  1a2b3c4d5e: xfstests.btrfs.020/026/215.fail");
        assert_eq!(
            r.failure.as_deref(),
            Some("xfstests.btrfs.020/026/215.fail")
        );
        assert_eq!(r.metric, None);
        let r = s("[xfs] 0123456789: BUG:KASAN:use-after-free_in_xfs_attr3_node_inactive[xfs]");
        assert!(r.failure.is_some_and(|f| f.ends_with("[xfs]")));
    }

    #[test]
    fn check_subject_says_where_a_subject_stops_being_a_reports() {
        let e = check_subject("Re: [xfs] not-a-sha: x").expect_err("not a report");
        assert_eq!(e.position.byte, 10);
        assert!(e.to_string().contains("found `not-a-sha: x`"), "{e}");
        let e = check_subject("Re: [PATCH v2] ext4: x").expect_err("patch");
        assert!(e.position.message.contains("[PATCH"));
        assert!(check_subject("[ext4] 0123456789: a.b 1.0% regression").is_ok());
    }

    #[test]
    fn patch_and_build_subjects_are_not_report_subjects() {
        assert!(parse_subject("Re: [PATCH] sched/fair: Reschedule the cfs_rq").is_none());
        assert!(parse_subject("[linus:master] BUILD SUCCESS 1234567890abcdef").is_none());
        assert!(parse_subject("").is_none());
        assert!(is_reply_subject(
            "[kbuild] Re: [PATCH v2 4/5] ext4: improve"
        ));
    }
}
