//! Every fixture in `corpus/ingest/` parses to the messages in the `.json`
//! beside it (`NAME.EXT` -> `NAME.json`, a list of messages without the
//! content hash), compared whole (`Pin::Everything`). `REGTRACK_BLESS=1`
//! rewrites the `.json` files (review them!).

use std::path::Path;

use crate::common::fixtures::fixtures;
use crate::common::golden::{Pin, json_diff, named};

fn parsed(path: &Path) -> serde_json::Value {
    let msgs: Vec<serde_json::Value> = regtrack::source::open(path)
        .unwrap()
        .map(|raw| {
            let m = regtrack::mail::parse(&raw.unwrap()).unwrap();
            let mut v = serde_json::to_value(&m).unwrap();
            v.as_object_mut().unwrap().remove("content_hash");
            v
        })
        .collect();
    serde_json::Value::Array(msgs)
}

#[test]
fn every_fixture_parses_to_its_expected_messages() {
    let bless = std::env::var_os("REGTRACK_BLESS").is_some();
    let files = fixtures("ingest");
    assert!(files.len() >= 5);
    let mut errors = Vec::new();
    for f in files {
        let got = parsed(&f.input);
        if bless {
            std::fs::write(
                &f.expected,
                serde_json::to_string_pretty(&got).unwrap() + "\n",
            )
            .unwrap();
            continue;
        }
        let name = f.input.file_name().unwrap().to_string_lossy().into_owned();
        errors.extend(named(
            &name,
            json_diff(&f.expected_json(), &got, Pin::Everything),
        ));
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
