//! Property tests of the report grammar: tables rendered in the robot's exact
//! printf layout (`lkp-format.md` §3.2-3.3) parse back to the rendered values,
//! and no entry point panics on random or mutated text.

use proptest::prelude::*;
use regtrack::model::{ChangeUnit, Message};
use regtrack::report::{body, subject, table};

/// `%.Ng`-style rendering with `sig` significant digits, as C/Ruby print it.
fn g(v: f64, sig: usize) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let exp = v.abs().log10().floor() as i32;
    if exp < -4 || exp >= sig as i32 {
        let s = format!("{:.*e}", sig - 1, v);
        let (m, e) = s.split_once('e').expect("exponent");
        let m = if m.contains('.') {
            m.trim_end_matches('0').trim_end_matches('.')
        } else {
            m
        };
        let e: i32 = e.parse().expect("exponent digits");
        format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
    } else {
        let decimals = (sig as i32 - 1 - exp).max(0) as usize;
        let s = format!("{v:.decimals$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    }
}

/// The value cell: `%10.2f` below 1000, `%10.4g` above 1e8, else `%10d`.
fn value_cell(v: f64) -> String {
    let s = if v.abs() < 1000.0 {
        format!("{v:.2}")
    } else if v.abs() > 1e8 {
        g(v, 4)
    } else {
        format!("{}", v.trunc() as i64)
    };
    format!("{s:>10}")
}

/// The change cell: `%+10.1f%% ` (relative) or `%+10.1f  ` (absolute); `.2g` from 100000.
fn change_cell(c: f64, abs: bool) -> String {
    let body = if c.abs() >= 100000.0 {
        let s = g(c, 2);
        if s.starts_with('-') {
            s
        } else {
            format!("+{s}")
        }
    } else {
        format!("{c:+.1}")
    };
    if abs {
        format!("{body:>10}  ")
    } else {
        format!("{:>10}% ", body)
    }
}

fn stddev_cell(s: u32) -> String {
    if s > 2 {
        format!(" ±{s:>3}%")
    } else {
        "      ".into()
    }
}

#[derive(Debug, Clone)]
struct Cell {
    value: f64,
    stddev: u32,
    change: f64,
}

fn cell() -> impl Strategy<Value = Cell> {
    (
        prop_oneof![-999.0f64..999.0, 1000.0f64..1e8, 1e8f64..1e12, Just(0.0),],
        0u32..300,
        prop_oneof![-100.0f64..1000.0, 1e5f64..1e9, Just(1.3e102)],
    )
        .prop_map(|(value, stddev, change)| Cell {
            value,
            stddev,
            change,
        })
}

fn metric() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9._:/()@-]{0,30}%?"
        .prop_filter("no 2016 '+-' marker", |m| !m.contains("+-"))
        // `inf%` or `nan` is a number to any reader of the table, and no
        // robot metric is named so.
        .prop_filter("not a number's spelling", |m| {
            m.trim_end_matches('%').parse::<f64>().is_err()
        })
}

fn rendered_number(cell: &str) -> f64 {
    cell.trim()
        .trim_end_matches('%')
        .parse()
        .expect("rendered number")
}

proptest! {
    #![proptest_config(crate::common::proptest_config(200))]

    #[test]
    fn tables_in_the_robots_layout_parse_back_to_their_values(
        ncols in 2usize..=6,
        rows in prop::collection::vec((metric(), prop::collection::vec(cell(), 6)), 1..15),
        depth in 0usize..3,
        glued_quotes in any::<bool>(),
    ) {
        let prefix = if glued_quotes { ">".repeat(depth) + if depth > 0 { " " } else { "" } } else { "> ".repeat(depth) };
        let ids: Vec<String> = (0..ncols)
            .map(|i| format!("{:x}", 0x1234567890abcdefu64.wrapping_mul(i as u64 + 7)))
            .map(|h| format!("{h:0>16}abcdef0123456789abcdef"))
            .collect();
        let mut text = String::new();
        let mut line = format!("{:>16} ", &ids[0][..16]);
        for id in &ids[1..] { line += &format!("{:>27} ", &id[..27]); }
        text += &format!("{prefix}{line}\n");
        text += &format!("{prefix}{}{}\n", "-".repeat(16), " ---------------------------".repeat(ncols - 1) + " ");
        text += &format!("{prefix}         %stddev{}\n", "     %change         %stddev".repeat(ncols - 1));
        text += &format!("{prefix}             \\  {}\n", "        |                \\  ".repeat(ncols - 1));
        let mut expected = Vec::new();
        for (m, cells) in &rows {
            let abs = m.ends_with('%');
            let mut l = String::new();
            let mut values = Vec::new();
            let mut changes = Vec::new();
            let mut stddevs = Vec::new();
            for (i, c) in cells.iter().take(ncols).enumerate() {
                if i > 0 {
                    let cc = change_cell(c.change, abs);
                    changes.push(Some(rendered_number(&cc)));
                    l += &cc;
                } else {
                    changes.push(None);
                }
                let vc = value_cell(c.value);
                values.push(Some(rendered_number(&vc)));
                l += &vc;
                l += &stddev_cell(c.stddev);
                stddevs.push((c.stddev > 2).then_some(c.stddev as f64));
            }
            text += &format!("{prefix}{l}  {m}\n");
            expected.push((m.clone(), values, changes, stddevs, abs));
        }
        let tables = table::parse_tables(&text);
        prop_assert_eq!(tables.len(), 1, "{}", text);
        let t = &tables[0];
        prop_assert_eq!(t.quote_depth as usize, depth);
        prop_assert_eq!(t.commits.len(), ncols);
        prop_assert_eq!(t.skipped_rows, 0);
        prop_assert_eq!(t.rows.len(), expected.len());
        for (r, (m, values, changes, stddevs, abs)) in t.rows.iter().zip(&expected) {
            prop_assert_eq!(&r.metric, m);
            prop_assert_eq!(&r.values, values);
            prop_assert_eq!(&r.stddev_percent, stddevs);
            let got: Vec<Option<f64>> = r.changes.iter().map(|c| c.as_ref().and_then(|c| c.value)).collect();
            prop_assert_eq!(&got, changes);
            for c in r.changes.iter().flatten() {
                prop_assert_eq!(c.unit == ChangeUnit::Abs, *abs);
            }
        }
    }

    #[test]
    fn no_entry_point_panics_on_random_text(s in "\\PC*", raw in prop::collection::vec(any::<u8>(), 0..400)) {
        let lossy = String::from_utf8_lossy(&raw).into_owned();
        for input in [s.as_str(), lossy.as_str()] {
            let _ = subject::parse_subject(input);
            let _ = subject::check_subject(input);
            let _ = table::parse_tables(input);
            let _ = table::table_diagnostics(input);
            let _ = body::parse_report_body(input);
            let _ = body::check_report_body(input);
            let _ = body::parse_events(input);
        }
    }

    #[test]
    fn no_entry_point_panics_on_mutated_reports(
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0usize..4, "[ \\n>±%.+\\-0-9a-f|:\\[\\]=]{0,3}"), 1..30),
    ) {
        let mut text = SAMPLE.to_string();
        for (at, len, insert) in edits {
            let mut b: Vec<char> = text.chars().collect();
            let i = at.index(b.len().max(1)).min(b.len());
            let j = (i + len).min(b.len());
            b.splice(i..j, insert.chars());
            text = b.into_iter().collect();
        }
        let _ = subject::parse_subject(&text);
        let _ = table::table_diagnostics(&text);
        let _ = body::parse_report_body(&text);
        let _ = subject::check_subject(&text);
        let msg = Message {
            message_id: "x@y".into(),
            message_id_derived: false,
            subject: text.lines().next().unwrap_or("").to_string(),
            from_name: Some("kernel test robot".into()),
            from_email: Some("lkp@intel.com".into()),
            date: None,
            in_reply_to: None,
            references: vec![],
            list_ids: vec![],
            body: text.clone(),
            parts: vec![],
            content_hash: String::new(),
            raw_size: 0,
        };
        let _ = regtrack::extract::extract(&msg);
    }
}

const SAMPLE: &str = "[linus:master] [xfs]  2edf06a50f:  fsmark.files_per_sec -5.7% regression
Hello,

kernel test robot noticed a -5.7% regression of fsmark.files_per_sec on:

commit: 2edf06a50f5bbe664283f3c55c48fc1b3ff2a1b3 (\"xfs: factor xfs_alloc_vextent_this_ag()\")
[still regression on linus/master      cb015814f8b6eebcbb8e46e111d108892c5e6821]
testcase: fsmark
parameters:

\tdisk: 1SSD

| testcase: change | stress-ng: stress-ng.numa.ops_per_sec 401.7% improvement |
=========================================================================================
compiler/disk/testcase:
  gcc-12/1SSD/fsmark

ecd788a92460eef4 2edf06a50f5bbe664283f3c55c4 
---------------- --------------------------- 
         %stddev     %change         %stddev
             \\          |                \\  
   8176057 ± 15%      +4.7%    8558110        fsmark.app_overhead
     14484            -6.3%      13568        fsmark.files_per_sec
> >       5.54 ± 11%      +0.3        5.82        turbostat.Busy%
           :200         18%          35:200   dmesg.KASAN
       fail:runs  %reproduction    fail:runs
";
