//! Property tests: every evidence extractor takes random and mutated text
//! (fixture bodies with edits, collapsed variants, quote prefixes) without
//! panicking, and the collapsed and line forms agree on diff headers.

use proptest::prelude::*;
use regtrack::evidence;
use regtrack::model::{Extraction, Message};

const SAMPLES: [&str; 8] = [
    include_str!("../../corpus/evidence/format-patch-v2.eml"),
    include_str!("../../corpus/evidence/quoted-diff.eml"),
    include_str!("../../corpus/evidence/mmtests.eml"),
    include_str!("../../corpus/evidence/stress-ng.eml"),
    include_str!("../../corpus/evidence/perf-profile.eml"),
    include_str!("../../corpus/evidence/kconfig-forms.eml"),
    include_str!("../../corpus/evidence/applied-b4.eml"),
    include_str!("../../corpus/evidence/lore-links.eml"),
];

fn message(body: String) -> Message {
    Message {
        message_id: "prop@example.org".into(),
        message_id_derived: false,
        subject: String::new(),
        from_name: None,
        from_email: None,
        date: None,
        in_reply_to: None,
        references: vec![],
        list_ids: vec![],
        body,
        parts: vec![],
        content_hash: String::new(),
        raw_size: 0,
    }
}

fn run_all(body: &str) {
    let _ = evidence::diff::parse_diffs(body);
    let _ = evidence::trailer::parse_trailers(body);
    let _ = evidence::mmtests::parse_mmtests(body);
    let _ = evidence::stressng::parse_stress_ng(body);
    let mut ex = Extraction::default();
    evidence::extract_evidence(&message(body.to_string()), &mut ex);
    let _ = regtrack::extract::extract(&message(body.to_string()));
}

/// Pieces that steer the extractors into their deeper paths.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("\n".to_string()),
        Just("> ".to_string()),
        Just(">>".to_string()),
        Just("@@ -1,3 +1,4 @@ f(".to_string()),
        Just("@@ -4294967295,99999999999 +0 @@".to_string()),
        Just("diff --git a/x b/y\n".to_string()),
        Just("--- a/x\n+++ b/x\n".to_string()),
        Just("+".to_string()),
        Just("-".to_string()),
        Just(" ".to_string()),
        Just("\t".to_string()),
        Just("±".to_string()),
        Just("é".to_string()),
        Just("%".to_string()),
        Just("* -3.4%*".to_string()),
        Just("(  0.00%)".to_string()),
        Just("Hmean a-1 1.0 ( 0.00%) 2.0 * 100.00%*".to_string()),
        Just("stress-ng: metrc: [1] msg 1 2 3 4 5 6".to_string()),
        Just("- 12.34% sym".to_string()),
        Just("|--1.00%--x".to_string()),
        Just("Fixes: abcdef1 (\"t".to_string()),
        Just("kindly add following tag\n| ".to_string()),
        Just("https://lore.kernel.org/r/%4".to_string()),
        Just("Applied to x, thanks!\n[1/1] s\n commit: ".to_string()),
        Just("#regzbot introduced: ".to_string()),
        Just("-CONFIG_A_B=".to_string()),
        Just("c0fb4765c508 (\"".to_string()),
        "[ -~]{0,12}",
        "\\PC{0,4}",
    ]
}

fn mutate(base: &str, edits: &[(usize, usize, String)]) -> String {
    let mut s = base.to_string();
    for (pos, del, ins) in edits {
        let mut at = pos % (s.len() + 1);
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        let mut end = (at + del % 16).min(s.len());
        while !s.is_char_boundary(end) {
            end += 1;
        }
        s.replace_range(at..end, ins);
    }
    s
}

proptest! {
    #![proptest_config(crate::common::proptest_config(256))]

    #[test]
    fn random_text_never_panics(s in "\\PC{0,400}") {
        run_all(&s);
    }

    #[test]
    fn token_soup_never_panics(parts in prop::collection::vec(token(), 0..60)) {
        let s = parts.concat();
        run_all(&s);
        // The collapsed path: one long line.
        let collapsed = format!("{} {}", s.replace('\n', " "), "x ".repeat(1100));
        run_all(&collapsed);
    }

    #[test]
    fn mutated_fixtures_never_panic(
        which in 0usize..SAMPLES.len(),
        edits in prop::collection::vec((any::<usize>(), any::<usize>(), token()), 0..12),
        quote in 0usize..3,
    ) {
        let base = SAMPLES[which];
        let s = mutate(base, &edits);
        run_all(&s);
        let prefix = "> ".repeat(quote);
        let quoted: String = s.lines().map(|l| format!("{prefix}{l}\n")).collect();
        run_all(&quoted);
        run_all(&s.replace('\n', " "));
    }

    #[test]
    fn collapsing_a_diff_keeps_its_file_and_hunk_headers(
        old in 1u32..5000, ol in 1u32..30, new in 1u32..5000, nl in 1u32..30,
        path in "[a-z]{1,8}/[a-z_]{1,12}\\.c",
    ) {
        let body = format!(
            "Hi,\n\ndiff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n--- a/{path}\n+++ b/{path}\n\
             @@ -{old},{ol} +{new},{nl} @@ fn_name(\n ctx\n-old\n+new\n"
        );
        let lines = evidence::diff::parse_diffs(&body);
        let collapsed = evidence::diff::scan_collapsed(&body.replace('\n', " "));
        prop_assert_eq!(lines.len(), 1);
        prop_assert_eq!(collapsed.len(), 1);
        prop_assert_eq!(&lines[0].new_path, &collapsed[0].new_path);
        let (a, b) = (&lines[0].hunks[0], &collapsed[0].hunks[0]);
        prop_assert_eq!((a.old_start, a.old_lines, a.new_start, a.new_lines),
                        (b.old_start, b.old_lines, b.new_start, b.new_lines));
        prop_assert_eq!(b.context.as_str(), "fn_name(");
    }
}
