//! The robot's own report body (`grammar/lkp-body.md`): the lead sentence, the
//! `commit:` block, the test description (`testcase:`, `test machine:`,
//! `parameters:`), the "In addition to that" impact box, the suggested tags,
//! the reproduce block, and the `[still regression on ...]` event lines.
//!
//! Only unquoted lines (depth 0) belong to the robot's own body; a quoted report
//! inside a reply is not a report body. Line-level structure uses nom; the lead
//! sentence, which clients re-wrap, is matched on the folded text with a regex.

use std::sync::LazyLock;

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_until, take_while_m_n};
use nom::character::complete::{char, digit1, one_of, space0, space1};
use nom::combinator::{opt, recognize, rest};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};
use regex::Regex;

use crate::model::{Direction, Event, EventKind, ImpactEntry, PreviousReport, ReportBody, Trailer};
use crate::report::error::{Position, ReportError, ReportErrorKind};
use crate::text;

/// ```text
/// lead := ("FYI, we noticed" | "We noticed" | "kernel test robot noticed") " a" "n"? " " pct " " direction
///         " of " metric (" due to" " commit"? ":"? | " on:")
/// ```
static LEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:FYI, we noticed|We noticed|kernel test robot noticed) an? ([+-]?\d+(?:\.\d+)?)% (regression|improvement|undefined) of (\S+?)(?: due to| on:| |$)",
    )
    .expect("static regex")
});

/// ```text
/// functional_lead := "kernel test robot noticed \"" failure "\" on:"
///                  | ("FYI, we" | "We") " noticed " failure " due to commit"
/// ```
static FUNCTIONAL_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"kernel test robot noticed "([^"]+)" on:|(?:FYI, we|We) noticed (\S.{0,200}?) due to commit"#)
        .expect("static regex")
});

/// ```text
/// changes_lead := "FYI, we noticed the below changes on" | "There is no primary kpi change"
///               | "FYI, we noticed the following commit"
/// ```
static OTHER_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"FYI, we noticed the (?:below changes on|following commit)|There is no primary kpi change",
    )
    .expect("static regex")
});

/// The lead sentence's facts.
#[derive(Debug, Clone, PartialEq)]
pub struct Lead {
    /// Change in percent as written.
    pub change_percent: Option<f64>,
    /// The direction word.
    pub direction: Option<Direction>,
    /// The metric (perf) or the failure id (functional).
    pub metric: Option<String>,
    /// True for a functional lead (`noticed "<failure>" on:`).
    pub functional: bool,
}

/// Finds the lead sentence in (folded) unquoted text.
pub fn lead(folded: &str) -> Option<Lead> {
    if let Some(c) = LEAD.captures(folded) {
        return Some(Lead {
            change_percent: c.get(1).and_then(|m| m.as_str().parse().ok()),
            direction: c.get(2).map(|m| direction_word(m.as_str())),
            metric: c.get(3).map(|m| m.as_str().to_string()),
            functional: false,
        });
    }
    if let Some(c) = FUNCTIONAL_LEAD.captures(folded) {
        return Some(Lead {
            change_percent: None,
            direction: None,
            metric: c.get(1).or(c.get(2)).map(|m| m.as_str().to_string()),
            functional: true,
        });
    }
    OTHER_LEAD.find(folded).map(|m| Lead {
        change_percent: None,
        direction: None,
        metric: None,
        functional: m.as_str().ends_with("following commit"),
    })
}

fn direction_word(w: &str) -> Direction {
    match w {
        "regression" => Direction::Regression,
        "improvement" => Direction::Improvement,
        _ => Direction::Undefined,
    }
}

/// ```text
/// commit_line := "commit" ":"? " "+ hex{40} (" "+ "(\"" title "\")")?
/// ```
fn commit_line(i: &str) -> IResult<&str, (&str, Option<&str>)> {
    let (i, (_, _, _, sha, _, t)) = (
        tag("commit"),
        opt(char(':')),
        space1,
        take_while_m_n(40, 40, |c: char| c.is_ascii_hexdigit()),
        space0,
        rest,
    )
        .parse(i)?;
    let t = t.trim();
    let title = match (t.find("(\""), t.rfind("\")")) {
        (Some(a), Some(b)) if b > a + 1 => t.get(a + 2..b),
        _ => None,
    };
    Ok((i, (sha, title)))
}

/// ```text
/// field_line := key ":" " "* value
/// key        := "url" | "base" | "patch link" | "in testcase" | "testcase" | "test case"
///             | "on test machine" | "test machine" | "test-description" | "test-url"
/// ```
fn field_line(i: &str) -> IResult<&str, (&str, &str)> {
    let (i, (k, _, v)) = (
        alt((
            tag("url"),
            tag("base"),
            tag("patch link"),
            tag("in testcase"),
            tag("testcase"),
            tag("test case"),
            tag("on test machine"),
            tag("test machine"),
            tag("test-description"),
            tag("test-url"),
        )),
        terminated(char(':'), space0),
        rest,
    )
        .parse(i)?;
    Ok((i, (k, v.trim())))
}

/// ```text
/// parameters_line := ("with following parameters" | "parameters") ":"
/// ```
fn parameters_line(i: &str) -> IResult<&str, &str> {
    terminated(
        alt((tag("with following parameters"), tag("parameters"))),
        (char(':'), space0),
    )
    .parse(i)
}

/// ```text
/// param_line := ("\t" | " "+) key ":" " " value      ; key without blanks
/// ```
fn param_line(i: &str) -> IResult<&str, (&str, &str)> {
    let (i, (_, k, _, v)) = (
        one_of("\t "),
        preceded(space0, take_until(":")),
        char(':'),
        rest,
    )
        .parse(i)?;
    if k.is_empty() || k.contains(char::is_whitespace) {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        )));
    }
    Ok((i, (k, v.trim())))
}

/// ```text
/// pct := ("+" | "-")? digits ("." digits)? "%"
/// ```
fn pct(i: &str) -> IResult<&str, f64> {
    let (i, t) = terminated(
        recognize((opt(one_of("+-")), digit1, opt((char('.'), digit1)))),
        char('%'),
    )
    .parse(i)?;
    Ok((i, t.trim_start_matches('+').parse().unwrap_or(0.0)))
}

/// ```text
/// impact_change := testcase ":" (" "+ metric " "+ pct " "+ direction)?
/// ```
fn impact_change(i: &str) -> IResult<&str, ImpactEntry> {
    let (i, (tc, _, _)) = (take_until(":"), char(':'), space0).parse(i)?;
    let (i, more) = opt((
        terminated(nom::bytes::complete::take_till1(|c: char| c == ' '), space1),
        terminated(pct, space1),
        alt((
            tag("regression").map(|_| Direction::Regression),
            tag("improvement").map(|_| Direction::Improvement),
            tag("undefined").map(|_| Direction::Undefined),
        )),
    ))
    .parse(i)?;
    let mut e = ImpactEntry {
        testcase: Some(tc.trim().to_string()),
        ..ImpactEntry::default()
    };
    if let Some((m, p, d)) = more {
        e.metric = Some(m.to_string());
        e.change_percent = Some(p);
        e.direction = Some(d);
    }
    Ok((i, e))
}

/// ```text
/// box_row := "|" cell "|" cell "|"
/// ```
fn box_row(line: &str) -> Option<(&str, &str)> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    let (a, b) = inner.split_once('|')?;
    Some((a.trim(), b.trim()))
}

/// ```text
/// suggested_tag := "| "? ("Reported-by" | "Closes" | "Link" | "Tested-by") ":" " " value
/// ```
fn suggested_tag(i: &str) -> IResult<&str, (&str, &str)> {
    let (i, (_, k, _, v)) = (
        opt((char('|'), space0)),
        alt((
            tag_no_case("Reported-by"),
            tag_no_case("Closes"),
            tag_no_case("Link"),
            tag_no_case("Tested-by"),
        )),
        (char(':'), space0),
        rest,
    )
        .parse(i)?;
    Ok((i, (k, v.trim())))
}

fn canonical_key(k: &str) -> String {
    match k.to_ascii_lowercase().as_str() {
        "reported-by" => "Reported-by".into(),
        "closes" => "Closes".into(),
        "link" => "Link".into(),
        "tested-by" => "Tested-by".into(),
        _ => k.to_string(),
    }
}

/// ```text
/// report_body := greeting? lead commit_block notes* description impact_box? tags?
///                details reproduce group*
/// ```
/// Parses the robot's own (unquoted) report body; `None` when the unquoted text
/// has neither a lead sentence nor a full-length `commit:` line.
pub fn parse_report_body(body: &str) -> Option<ReportBody> {
    let own = own_lines(body);
    let lead = lead(&text::fold_ws(&own.join("\n")));
    report_body_of(&own, lead)
}

/// The unquoted lines of a body: the robot's own text.
pub fn own_lines(body: &str) -> Vec<&str> {
    text::lines(body)
        .filter(|l| l.depth == 0)
        .map(|l| l.text)
        .collect()
}

/// [`parse_report_body`] of a body's [`own_lines`] and the [`lead`] of their
/// folded text (for a caller that has both already).
pub fn report_body_of(own: &[&str], lead: Option<Lead>) -> Option<ReportBody> {
    let mut r = ReportBody::default();
    if let Some(l) = &lead {
        r.change_percent = l.change_percent;
        r.direction = l.direction;
        r.metric = l.metric.clone();
    }
    let mut i = 0;
    while i < own.len() {
        let line = own[i];
        let t = line.trim();
        if r.commit_full.is_none()
            && let Ok((_, (sha, title))) = commit_line(t)
        {
            r.commit_full = Some(sha.to_ascii_lowercase());
            r.commit_title = title.map(str::to_string);
            let near = [i.checked_sub(1), Some(i + 1)];
            for j in near.into_iter().flatten() {
                let n = own.get(j).map(|s| s.trim()).unwrap_or("");
                if (n.starts_with("https://") || n.starts_with("git://")) && n.contains("git") {
                    r.tree_url = Some(n.to_string());
                }
            }
        } else if let Ok((_, (k, v))) = field_line(t) {
            let v = Some(v.to_string()).filter(|v| !v.is_empty());
            match k {
                "url" => r.url = r.url.take().or(v),
                "base" => r.base = r.base.take().or(v),
                "patch link" => r.patch_link = r.patch_link.take().or(v),
                "in testcase" | "testcase" | "test case" => r.testcase = r.testcase.take().or(v),
                "on test machine" | "test machine" => r.test_machine = r.test_machine.take().or(v),
                "test-description" => r.test_description = r.test_description.take().or(v),
                _ => r.test_url = r.test_url.take().or(v),
            }
        } else if r.parameters.is_empty() && parameters_line(t).is_ok() {
            let mut j = i + 1;
            while own.get(j).is_some_and(|s| s.trim().is_empty()) {
                j += 1;
            }
            while let Some(Ok((_, (k, v)))) = own.get(j).map(|s| param_line(s)) {
                r.parameters.push((k.to_string(), v.to_string()));
                j += 1;
            }
            i = j;
            continue;
        } else if t.contains("significant impact on the following tests") {
            let mut j = i + 1;
            while let Some(s) = own.get(j) {
                let s = s.trim();
                if s.is_empty() && r.also_impacts.is_empty() || s.starts_with('+') {
                    j += 1;
                    continue;
                }
                let Some((a, b)) = box_row(s) else { break };
                impact_cell(&mut r.also_impacts, a, b);
                j += 1;
            }
            i = j;
            continue;
        } else if t.contains("kindly add following tag") {
            let mut j = i + 1;
            while let Some(Ok((_, (k, v)))) = own.get(j).map(|s| suggested_tag(s.trim())) {
                r.suggested_tags.push(Trailer {
                    key: canonical_key(k),
                    value: v.to_string(),
                    suggested: true,
                    ..Trailer::default()
                });
                j += 1;
            }
            i = j;
            continue;
        } else if t == "To reproduce:" {
            let mut j = i + 1;
            while let Some(s) = own.get(j) {
                if !s.trim().is_empty() && !s.starts_with([' ', '\t']) {
                    break;
                }
                if !s.trim().is_empty() {
                    r.reproduce.push(s.trim().to_string());
                }
                j += 1;
            }
            i = j;
            continue;
        } else if t.contains("materials to reproduce are available at")
            && let Some(u) = own.get(i + 1).map(|s| s.trim())
            && u.starts_with("http")
        {
            r.reproduce.push(u.to_string());
        }
        i += 1;
    }
    r.previous = previous_reports(own);
    (lead.is_some() || r.commit_full.is_some()).then_some(r)
}

/// ```text
/// previous := "we reported" ws* "\"" subject "\"" ws* ("on" | "in" | "at")? ws* "("? lore_url ")"?
/// ```
/// The earlier reports a preamble names (`we reported "[linux-next:master]
/// [cpuidle] 38f83090f5: ..." (https://lore.kernel.org/all/<id>/)`): the
/// quoted subject's culprit id and the URL's Message-ID, read in the lines
/// before the lead sentence (at most three).
fn previous_reports(own: &[&str]) -> Vec<PreviousReport> {
    let mut out = Vec::new();
    let end = own
        .iter()
        .position(|l| {
            let l = l.trim_start();
            l.starts_with("commit:") || l.starts_with("Greeting") || l.starts_with("Hello")
        })
        .unwrap_or(own.len())
        .min(40);
    let text = text::fold_ws(&own[..end].join(" "));
    let mut rest = text.as_str();
    while let Some(at) = rest.find("we reported") {
        rest = &rest[at + "we reported".len()..];
        let window = rest.get(..rest.len().min(400)).unwrap_or(rest);
        let window = match window.find("we reported") {
            Some(next) => &window[..next],
            None => window,
        };
        let commit = window
            .split_once('"')
            .and_then(|(_, q)| q.split_once('"'))
            .and_then(|(quoted, _)| super::subject::parse_subject(quoted))
            .map(|s| s.commit.to_ascii_lowercase())
            .filter(|c| (7..=40).contains(&c.len()) && c.bytes().all(|b| b.is_ascii_hexdigit()));
        let message_id = crate::mail::msgid::url_message_id(window);
        if commit.is_some() || message_id.is_some() {
            out.push(PreviousReport { commit, message_id });
        }
        if out.len() >= 3 {
            break;
        }
    }
    out
}

fn impact_cell(entries: &mut Vec<ImpactEntry>, a: &str, b: &str) {
    match a {
        "testcase: change" => {
            if let Ok((_, e)) = impact_change(b) {
                entries.push(e);
            }
        }
        "test machine" => {
            if let Some(e) = entries.last_mut() {
                e.test_machine = Some(b.to_string());
            }
        }
        _ => {
            if let Some(e) = entries.last_mut()
                && let Some((k, v)) = b.split_once('=')
            {
                e.parameters
                    .push((k.trim().to_string(), v.trim().to_string()));
            }
        }
    }
}

/// ```text
/// event_line := "[" ("still regression" | "test failed") " on " target " "+ sha "."* "]"
/// ```
fn event_line(i: &str) -> IResult<&str, (EventKind, &str, &str)> {
    let (i, (_, kind, _, inner, _)) = (
        char('['),
        alt((
            tag("still regression").map(|_| EventKind::StillRegression),
            tag("test failed").map(|_| EventKind::TestFailed),
        )),
        tag(" on "),
        take_until("]"),
        char(']'),
    )
        .parse(i)?;
    let inner = inner.trim();
    let (target, sha) = inner
        .rsplit_once(char::is_whitespace)
        .unwrap_or(("", inner));
    let sha = sha.trim_end_matches('.');
    if sha.len() < 7 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        )));
    }
    Ok((i, (kind, target.trim(), sha)))
}

/// Like [`parse_report_body`], but says why there is no report body.
pub fn check_report_body(body: &str) -> Result<ReportBody, ReportError> {
    parse_report_body(body).ok_or_else(|| ReportError {
        kind: ReportErrorKind::NoReportBody,
        position: Position::at(
            body,
            0,
            "no lead sentence (`kernel test robot noticed ...`) and no `commit: <40 hex>` line in the unquoted text",
        ),
    })
}

/// Finds `[still regression on linus/master <sha>]` / `[test failed on ...]` lines at every depth.
pub fn parse_events(body: &str) -> Vec<Event> {
    // Every event line holds one of these openings: a body with neither is
    // skipped without splitting it into lines (searchers built once).
    static OPENINGS: LazyLock<text::Needles> =
        LazyLock::new(|| text::Needles::new(&["[still regression on ", "[test failed on "]));
    if !OPENINGS.any_in(body) {
        return Vec::new();
    }
    text::lines(body)
        .filter_map(|l| {
            let t = l.text.trim();
            let (_, (kind, target, sha)) = event_line(t).ok()?;
            Some(Event {
                kind,
                tree: (!target.is_empty()).then(|| target.to_string()),
                sha: Some(sha.to_string()),
                text: t.to_string(),
                quote_depth: l.depth,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODERN: &str = "
Hello,

kernel test robot noticed a -24.0% regression of stress-ng.resched.ops_per_sec on:


commit: d329605287020c3d1c3b0dadc63d8208e7251382 (\"sched/fair: set_load_weight() (\"idle\") must\")
https://git.kernel.org/cgit/linux/kernel/git/tip/tip.git sched/core

[still regression on linus/master      cb015814f8b6eebcbb8e46e111d108892c5e6821]

testcase: stress-ng
test machine: 64 threads 2 sockets Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz (Ice Lake) with 256G memory
parameters:

\tnr_threads: 100%
\ttesttime: 60s
\ttest: resched
\tcpufreq_governor: performance


In addition to that, the commit also has significant impact on the following tests:

+------------------+---------------------------------------------------------------+
| testcase: change | will-it-scale: will-it-scale.per_thread_ops -1.3% regression  |
| test machine     | 192 threads 4 sockets Intel(R) Xeon(R) Platinum 9242 CPU      |
| test parameters  | cpufreq_governor=performance                                  |
|                  | mode=thread                                                   |
+------------------+---------------------------------------------------------------+


If you fix the issue in a separate patch/commit (i.e. not just a new version of
the same patch/commit), kindly add following tags
| Reported-by: kernel test robot <oliver.sang@intel.com>
| Closes: https://lore.kernel.org/oe-lkp/202407101139.6e513af5-oliver.sang@intel.com


Details are as below:
-------------------------------------------------------------------------------------------------->


The kernel config and materials to reproduce are available at:
https://download.01.org/0day-ci/archive/20240710/202407101139.6e513af5-oliver.sang@intel.com

=========================================================================================
";

    #[test]
    fn a_modern_body_gives_every_field() {
        let r = parse_report_body(MODERN).expect("report body");
        assert_eq!(r.change_percent, Some(-24.0));
        assert_eq!(r.direction, Some(Direction::Regression));
        assert_eq!(r.metric.as_deref(), Some("stress-ng.resched.ops_per_sec"));
        assert_eq!(
            r.commit_full.as_deref(),
            Some("d329605287020c3d1c3b0dadc63d8208e7251382")
        );
        assert_eq!(
            r.commit_title.as_deref(),
            Some("sched/fair: set_load_weight() (\"idle\") must")
        );
        assert!(
            r.tree_url
                .is_some_and(|u| u.ends_with("tip.git sched/core"))
        );
        assert_eq!(r.testcase.as_deref(), Some("stress-ng"));
        assert!(r.test_machine.is_some_and(|m| m.starts_with("64 threads")));
        assert_eq!(r.parameters.len(), 4);
        assert_eq!(r.parameters[2], ("test".into(), "resched".into()));
        assert_eq!(r.also_impacts.len(), 1);
        let e = &r.also_impacts[0];
        assert_eq!(e.testcase.as_deref(), Some("will-it-scale"));
        assert_eq!(e.change_percent, Some(-1.3));
        assert_eq!(e.parameters.len(), 2);
        assert_eq!(r.suggested_tags.len(), 2);
        assert_eq!(r.suggested_tags[1].key, "Closes");
        assert_eq!(r.reproduce.len(), 1);
        let ev = parse_events(MODERN);
        assert_eq!(ev.len(), 1);
        assert_eq!(ev[0].tree.as_deref(), Some("linus/master"));
        assert_eq!(ev[0].kind, EventKind::StillRegression);
    }

    #[test]
    fn an_old_body_with_wrapped_lead_and_prefixed_fields_parses() {
        let body = "Greeting,\n\nFYI, we noticed a +23.0% improvement of netperf.Throughput_Mbps due to\ncommit:\n\n\ncommit: 2d146aa3aa842d7f5065802556b4f9a2c6e8ef12 (\"mm: memcontrol: switch to rstat\")\n\nin testcase: vm-scalability\non test machine: 192 threads\nwith following parameters:\n\n\truntime: 300s\n\ttest: lru-file-mmap-read-rand\n\ntest-description: The motivation\ntest-url: https://git.kernel.org/x\n";
        let r = parse_report_body(body).expect("body");
        assert_eq!(r.change_percent, Some(23.0));
        assert_eq!(r.metric.as_deref(), Some("netperf.Throughput_Mbps"));
        assert_eq!(r.testcase.as_deref(), Some("vm-scalability"));
        assert_eq!(r.parameters.len(), 2);
        assert_eq!(r.test_url.as_deref(), Some("https://git.kernel.org/x"));
    }

    #[test]
    fn functional_leads_name_their_failures() {
        let l = lead("We noticed blktests.zbd/(003/004).fail and blktests.loop/(002/004).fail due to commit (built with gcc-11):")
            .expect("lead");
        assert!(l.functional);
        assert_eq!(
            l.metric.as_deref(),
            Some("blktests.zbd/(003/004).fail and blktests.loop/(002/004).fail")
        );
        let l = lead(
            "kernel test robot noticed a 3.1% regression of sched_debug.cfs_rq:/.load.avg on:",
        )
        .expect("lead");
        assert_eq!(l.metric.as_deref(), Some("sched_debug.cfs_rq:/.load.avg"));
        let l = lead("kernel test robot noticed \"BUG:KCSAN:data-race_in_x\" on:").expect("lead");
        assert_eq!(l.metric.as_deref(), Some("BUG:KCSAN:data-race_in_x"));
    }

    #[test]
    fn a_quoted_report_is_not_a_body() {
        assert!(
            parse_report_body("> kernel test robot noticed a 5.1% regression of a.b on:\n")
                .is_none()
        );
        assert!(parse_report_body("just words").is_none());
        let e = check_report_body("just words").expect_err("no body");
        assert_eq!(e.kind, ReportErrorKind::NoReportBody);
    }
}
