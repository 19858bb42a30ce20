//! The one JSON comparison of the fixture tests: [`json_diff`] walks an
//! expected value and the actual one together and names every path where
//! they differ (`.tables[0].rows[2].values[1]: expected 2, found 3`), so a
//! failing fixture says everything that is wrong at once. Numbers are equal
//! within 1e-9 relative (an integer and the same float are equal). How much
//! of the actual value the expected one pins is the [`Pin`].

use serde_json::Value;

/// Which keys of the actual objects the expected JSON must list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pin {
    /// Both sides alike: a key only one side has is a difference.
    Everything,
    /// The expected top-level object lists the fields it pins; each of
    /// those is compared whole ([`Pin::Everything`] below).
    TopFields,
    /// At every depth, only the keys the expected objects list are
    /// compared (arrays still element by element and of equal length).
    Listed,
}

/// Every difference between `expected` and `actual`, one line each, as
/// `PATH: what` (the root is the empty path). A key missing from `actual`
/// is equal to an expected `null`.
pub fn json_diff(expected: &Value, actual: &Value, pin: Pin) -> Vec<String> {
    let mut out = Vec::new();
    walk(expected, actual, "", pin, 0, &mut out);
    out
}

/// Prefixes every difference with `name` (the fixture), for a list of many.
pub fn named(name: &str, diffs: Vec<String>) -> impl Iterator<Item = String> + '_ {
    diffs.into_iter().map(move |d| format!("{name}: {d}"))
}

fn same_number(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(300) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s,
    }
}

fn walk(e: &Value, a: &Value, path: &str, pin: Pin, depth: usize, out: &mut Vec<String>) {
    let listed_only = match pin {
        Pin::Everything => false,
        Pin::TopFields => depth == 0,
        Pin::Listed => true,
    };
    match (e, a) {
        (Value::Object(eo), Value::Object(ao)) => {
            for (k, ev) in eo {
                let p = format!("{path}.{k}");
                match ao.get(k) {
                    Some(av) => walk(ev, av, &p, pin, depth + 1, out),
                    None if ev.is_null() => {}
                    None => out.push(format!("{p}: missing, expected {}", short(ev))),
                }
            }
            if !listed_only {
                for (k, av) in ao {
                    if !eo.contains_key(k) && !av.is_null() {
                        out.push(format!("{path}.{k}: not expected, found {}", short(av)));
                    }
                }
            }
        }
        (Value::Array(ea), Value::Array(aa)) => {
            if ea.len() != aa.len() {
                out.push(format!(
                    "{path}: {} entries expected, {} found",
                    ea.len(),
                    aa.len()
                ));
            }
            for (i, (ev, av)) in ea.iter().zip(aa).enumerate() {
                walk(ev, av, &format!("{path}[{i}]"), pin, depth + 1, out);
            }
        }
        (Value::Number(en), Value::Number(an)) => {
            let (x, y) = (
                en.as_f64().unwrap_or(f64::NAN),
                an.as_f64().unwrap_or(f64::NAN),
            );
            if !same_number(x, y) {
                out.push(format!("{path}: expected {x}, found {y}"));
            }
        }
        (e, a) if e == a => {}
        (e, a) => out.push(format!("{path}: expected {}, found {}", short(e), short(a))),
    }
}

#[test]
fn the_diff_names_every_differing_path_and_ignores_unlisted_keys() {
    let expected = serde_json::json!({"tables": [{"rows": [{"values": [1.0, 2.0]}]}]});
    let actual = serde_json::json!({"tables": [{"rows": [{"values": [1, 3]}], "x": 1}]});
    assert_eq!(
        json_diff(&expected, &actual, Pin::Listed),
        [".tables[0].rows[0].values[1]: expected 2, found 3"]
    );
    assert_eq!(
        json_diff(&expected, &actual, Pin::Everything),
        [
            ".tables[0].rows[0].values[1]: expected 2, found 3",
            ".tables[0].x: not expected, found 1"
        ]
    );
}

#[test]
fn top_fields_pin_the_listed_fields_whole() {
    let expected = serde_json::json!({"a": {"b": 1}, "gone": null, "c": [1, 2]});
    let actual = serde_json::json!({"a": {"b": 1, "extra": true}, "c": [1], "other": 5});
    assert_eq!(
        json_diff(&expected, &actual, Pin::TopFields),
        [
            ".a.extra: not expected, found true",
            ".c: 2 entries expected, 1 found"
        ]
    );
    assert_eq!(
        json_diff(
            &serde_json::json!({"k": "v"}),
            &serde_json::json!({}),
            Pin::Listed
        ),
        [".k: missing, expected \"v\""]
    );
    assert!(json_diff(&expected, &expected, Pin::Everything).is_empty());
}
