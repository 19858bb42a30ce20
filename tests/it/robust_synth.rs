//! The synthetic-archive generator (`regtrack-synth`) is deterministic and
//! writes what the benchmarks and robustness tests rely on: N mboxrd messages
//! in the proportions of a real list, robot reports with 100-400 table rows in
//! the current format.

fn synth(dir: &std::path::Path, n: u32, seed: u32) -> Vec<u8> {
    let out = dir.join(format!("s-{n}-{seed}.mbox"));
    crate::common::write_synth(n, seed, &out);
    std::fs::read(out).unwrap()
}

#[test]
fn the_same_seed_gives_the_same_bytes_and_another_seed_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let a = synth(dir.path(), 300, 7);
    let b = synth(dir.path(), 300, 7);
    let c = synth(dir.path(), 300, 8);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn the_archive_has_n_messages_in_the_proportions_of_a_real_list() {
    let dir = tempfile::tempdir().unwrap();
    let data = synth(dir.path(), 2000, 1);
    let text = String::from_utf8(data).expect("synthetic mail is UTF-8");
    let froms = text
        .lines()
        .filter(|l| l.starts_with("From mboxrd@"))
        .count();
    assert_eq!(froms, 2000);
    let ids = text
        .lines()
        .filter(|l| l.starts_with("Message-ID: <"))
        .count();
    assert_eq!(ids, 2000);
    let subjects: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("Subject: "))
        .collect();
    let reports = subjects
        .iter()
        .filter(|s| s.starts_with('[') && (s.ends_with("regression") || s.ends_with("improvement")))
        .count();
    let report_replies = subjects
        .iter()
        .filter(|s| {
            s.starts_with("Re: [") && (s.ends_with("regression") || s.ends_with("improvement"))
        })
        .count();
    let patches = subjects.iter().filter(|s| s.starts_with("[PATCH")).count();
    assert!((20..=120).contains(&reports), "robot reports: {reports}");
    assert!(
        (20..=300).contains(&report_replies),
        "replies to reports: {report_replies}"
    );
    assert!((600..=1000).contains(&patches), "patches: {patches}");
    // mboxrd quoting: no unquoted From_ line inside a body.
    let body_froms = text
        .lines()
        .filter(|l| l.starts_with("From ") && !l.starts_with("From mboxrd@"))
        .count();
    assert_eq!(body_froms, 0);
    assert!(text.contains("\n>From the numbers above"));
}

#[test]
fn robot_reports_carry_a_current_format_table_of_100_to_400_rows() {
    let dir = tempfile::tempdir().unwrap();
    let text = String::from_utf8(synth(dir.path(), 1500, 3)).unwrap();
    let mut tables = 0;
    for report in text.split("\n=========================================================================================\n").skip(1) {
        let mut lines = report.lines();
        let keys = lines.next().unwrap();
        assert!(keys.ends_with(':') && keys.contains('/'), "{keys}");
        let rest: Vec<&str> = lines.collect();
        let id_row = rest
            .iter()
            .position(|l| l.starts_with("---------------- ---------------------------"))
            .expect("dashes row");
        assert_eq!(rest[id_row - 1].len(), 16 + 1 + 27 + 1, "id row: {:?}", rest[id_row - 1]);
        assert_eq!(rest[id_row + 1], "         %stddev     %change         %stddev");
        let rows = rest[id_row + 3..]
            .iter()
            .take_while(|l| !l.is_empty())
            .count();
        assert!((100..=400).contains(&rows), "{rows} rows");
        tables += 1;
    }
    assert!(tables >= 15, "{tables} tables");
    assert!(text.contains("kernel test robot noticed a "));
    assert!(text.contains("\ncommit: "));
    assert!(text.contains("\ntestcase: "));
    assert!(text.contains("\nparameters:\n\n\t"));
}
