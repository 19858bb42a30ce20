//! Every fixture in `corpus/ingest/` parses to the messages in the `.json`
//! beside it (`NAME.ext` -> `NAME.json`, a list of messages without the
//! content hash). `REGTRACK_BLESS=1` rewrites the `.json` files (review them!).

use std::path::{Path, PathBuf};

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/ingest");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "json"))
        .collect();
    v.sort();
    v
}

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
    let files = fixtures();
    assert!(files.len() >= 5);
    for f in files {
        let got = parsed(&f);
        let expected_path = f.with_extension("json");
        if bless {
            std::fs::write(
                &expected_path,
                serde_json::to_string_pretty(&got).unwrap() + "\n",
            )
            .unwrap();
            continue;
        }
        let expected: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&expected_path).unwrap()).unwrap();
        assert_eq!(got, expected, "{}", f.display());
    }
}
