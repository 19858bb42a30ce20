//! Properties of `link::build` on arbitrary inputs: it never panics, threads
//! every message, keeps every performance report in exactly one regression,
//! and gives the same answer whatever the order of the messages.

use proptest::prelude::*;
use regtrack::link::{LinkInput, LinkMessage, build};
use regtrack::model::history::Status;
use regtrack::model::{Direction, Extraction, Kind, ReportBody, SubjectReport, Trailer};

const IDS: [&str; 8] = ["a@x", "b@x", "c@x", "d@x", "e@x", "f@x", "g@x", "h@x"];
const COMMITS: [&str; 5] = [
    "abcdef1234",
    "abcdef1234aaaa",
    "abcdef1234bbbb",
    "1234567890",
    "v6.2-rc3",
];

/// (id, In-Reply-To, References, kind, commit, variant, day) of one message.
type Spec = (usize, Option<usize>, Vec<usize>, u8, usize, u8, i64);

fn message() -> impl Strategy<Value = Spec> {
    (
        0..IDS.len(),
        proptest::option::of(0..IDS.len()),
        proptest::collection::vec(0..IDS.len(), 0..4),
        0u8..4,
        0..COMMITS.len(),
        0u8..4,
        0i64..100,
    )
}

fn make(spec: &[Spec]) -> LinkInput {
    let mut seen = std::collections::HashSet::new();
    let mut messages = Vec::new();
    for (i, (id, irt, refs, kind, commit, extra, day)) in spec.iter().enumerate() {
        // Message-IDs are unique in the store.
        let mid = format!(
            "{}{}",
            IDS[*id],
            if seen.insert(*id) {
                String::new()
            } else {
                i.to_string()
            }
        );
        let kind = match kind {
            0 => Kind::PerfReport,
            1 => Kind::Reply,
            2 => Kind::Patch,
            _ => Kind::FunctionalReport,
        };
        let mut ex = Extraction {
            kind,
            ..Extraction::default()
        };
        let c = COMMITS[*commit];
        if matches!(kind, Kind::PerfReport | Kind::FunctionalReport) || *extra == 0 {
            ex.subject_report = Some(Box::new(SubjectReport {
                commit: c.to_string(),
                metric: Some("m.x".into()),
                direction: Some(if *extra == 1 {
                    Direction::Improvement
                } else {
                    Direction::Regression
                }),
                is_reply: kind == Kind::Reply,
                ..SubjectReport::default()
            }));
        }
        if kind == Kind::PerfReport && *extra == 2 {
            ex.report = Some(Box::new(ReportBody {
                commit_full: Some(format!("{c}0000")),
                ..ReportBody::default()
            }));
        }
        if kind == Kind::Patch {
            ex.trailers = vec![
                Trailer {
                    key: "Closes".into(),
                    value: format!(
                        "https://lore.kernel.org/oe-lkp/{}",
                        IDS[(*commit + *id) % IDS.len()]
                    ),
                    ..Trailer::default()
                },
                Trailer {
                    key: "Fixes".into(),
                    value: format!("{c} (\"t\")"),
                    commit: Some(c.to_string()),
                    ..Trailer::default()
                },
                Trailer {
                    key: "Reported-by".into(),
                    value: "kernel test robot <lkp@intel.com>".into(),
                    ..Trailer::default()
                },
            ];
            ex.lore_links = vec![IDS[*extra as usize % IDS.len()].to_string()];
        }
        messages.push(LinkMessage {
            message_id: mid,
            subject: if *extra == 3 {
                "Re: same".into()
            } else {
                "same".into()
            },
            from_name: Some(if kind == Kind::PerfReport {
                "kernel test robot".into()
            } else {
                "P".into()
            }),
            date: if *extra == 3 {
                None
            } else {
                Some(1_700_000_000 + day * 86_400)
            },
            in_reply_to: irt.map(|p| IDS[p].to_string()),
            references: refs.iter().map(|r| IDS[*r].to_string()).collect(),
            kind,
            extraction: ex,
            ..LinkMessage::default()
        });
    }
    LinkInput {
        messages,
        marks: vec![],
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_config(256))]

    #[test]
    fn build_never_panics_and_keeps_each_report_in_one_regression(
        spec in proptest::collection::vec(message(), 0..14)
    ) {
        let input = make(&spec);
        let out = build(&input);
        prop_assert_eq!(out.threads.len(), input.messages.len());
        for m in input.messages.iter().filter(|m| m.kind == Kind::PerfReport) {
            let n = out
                .regressions
                .iter()
                .filter(|r| r.reports.iter().any(|x| x.message_id == m.message_id))
                .count();
            prop_assert_eq!(n, 1, "{} in {} regressions", m.message_id, n);
        }
        for t in &out.threads {
            prop_assert!(t.depth as usize <= input.messages.len() * 5 + 5);
        }
    }

    /// Without contradicting References (which JWZ resolves by arrival order),
    /// arrival order does not matter: a reply before its parent links the same.
    #[test]
    fn the_order_of_the_messages_does_not_change_the_histories(
        spec in proptest::collection::vec(message(), 0..10)
    ) {
        let acyclic: Vec<_> = spec
            .into_iter()
            .map(|(id, irt, refs, k, c, e, d)| {
                // References that agree with one fixed tree (parent of i is (i-1)/2),
                // so no two messages contradict each other.
                let mut chain = Vec::new();
                let mut cur = id;
                while cur > 0 {
                    cur = (cur - 1) / 2;
                    chain.push(cur);
                }
                chain.reverse();
                let keep = if refs.is_empty() { 0 } else { chain.len() };
                let refs: Vec<usize> = chain.iter().copied().take(keep).collect();
                let irt = irt.and(chain.last().copied());
                (id, irt, refs, k, c, e, d)
            })
            .collect();
        let input = make(&acyclic);
        let mut rev = input.clone();
        rev.messages.reverse();
        let a = build(&input);
        let b = build(&rev);
        let key = |o: &regtrack::link::LinkOutput| {
            let mut v: Vec<(String, Status, Vec<String>)> = o
                .regressions
                .iter()
                .map(|r| {
                    let mut m = r.messages.clone();
                    m.sort();
                    (r.culprit.commit.clone(), r.status, m)
                })
                .collect();
            v.sort();
            v
        };
        prop_assert_eq!(key(&a), key(&b));
    }
}
