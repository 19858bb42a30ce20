//! The corpus naming scheme, one for every family of `corpus/`: an input
//! is `NAME.EXT` and its expected result sits beside it as `NAME.json`.
//! NAME is lower-case kebab-case (`[a-z0-9]+` joined by `-`); EXT is one
//! the family reads. `corpus/bad` holds inputs only (what it expects is
//! written in its README). [`fixtures`] enumerates a family and fails on
//! any file that breaks the scheme, so every fixture test enforces it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One folder of `corpus/`.
pub struct Family {
    /// Folder name under `corpus/`.
    pub dir: &'static str,
    /// Extensions of its inputs.
    pub inputs: &'static [&'static str],
    /// Whether each input has its expected result `NAME.json` beside it.
    pub expected: bool,
}

/// Every family of `corpus/`.
pub const FAMILIES: &[Family] = &[
    Family {
        dir: "evidence",
        inputs: &["eml"],
        expected: true,
    },
    Family {
        dir: "report",
        inputs: &["eml"],
        expected: true,
    },
    Family {
        dir: "ingest",
        inputs: &["mbox", "eml", "txt"],
        expected: true,
    },
    Family {
        dir: "threads",
        inputs: &["mbox"],
        expected: true,
    },
    Family {
        dir: "bad",
        inputs: &["mbox", "eml"],
        expected: false,
    },
];

/// Files any family may hold besides its fixtures.
const NOTES: &[&str] = &["README.md"];

/// One input of a family with its expected result.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// NAME, the file name without its extension.
    pub name: String,
    /// `NAME.EXT`.
    pub input: PathBuf,
    /// `NAME.json` (for `bad`, the path it would have; it does not exist).
    pub expected: PathBuf,
}

impl Fixture {
    /// The expected result, parsed.
    pub fn expected_json(&self) -> serde_json::Value {
        let text = std::fs::read_to_string(&self.expected)
            .unwrap_or_else(|e| panic!("{}: {e}", self.expected.display()));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", self.expected.display()))
    }
}

fn family(dir: &str) -> &'static Family {
    FAMILIES
        .iter()
        .find(|f| f.dir == dir)
        .unwrap_or_else(|| panic!("no corpus family {dir}"))
}

/// Every fixture of the family `corpus/DIR`, by name; panics naming every
/// file that breaks the scheme.
pub fn fixtures(dir: &str) -> Vec<Fixture> {
    let path = super::corpus(dir);
    check(&path, family(dir)).unwrap_or_else(|problems| {
        panic!(
            "{} breaks the corpus naming scheme (NAME.EXT beside NAME.json):\n{}",
            path.display(),
            problems.join("\n")
        )
    })
}

/// Whether `name` is lower-case kebab-case.
pub fn is_kebab(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// The fixtures of the folder `dir` read as `family`, or every problem.
pub fn check(dir: &Path, family: &Family) -> Result<Vec<Fixture>, Vec<String>> {
    let mut problems = Vec::new();
    let mut inputs: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    let mut expected: BTreeMap<String, PathBuf> = BTreeMap::new();
    let entries = std::fs::read_dir(dir).map_err(|e| vec![format!("{}: {e}", dir.display())])?;
    for entry in entries {
        let path = entry.map_err(|e| vec![e.to_string()])?.path();
        let file = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if path.is_dir() {
            problems.push(format!("{file}: a folder inside a corpus family"));
            continue;
        }
        if NOTES.contains(&file.as_str()) {
            continue;
        }
        let Some((name, ext)) = file.split_once('.') else {
            problems.push(format!("{file}: no extension"));
            continue;
        };
        if !is_kebab(name) {
            problems.push(format!(
                "{file}: NAME `{name}` is not lower-case kebab-case"
            ));
            continue;
        }
        if ext == "json" && family.expected {
            expected.insert(name.to_string(), path);
        } else if family.inputs.contains(&ext) {
            inputs.entry(name.to_string()).or_default().push(path);
        } else {
            problems.push(format!(
                "{file}: `.{ext}` is not an extension of corpus/{} ({}{})",
                family.dir,
                family.inputs.join(", "),
                if family.expected { ", json" } else { "" }
            ));
        }
    }
    let mut out = Vec::new();
    for (name, paths) in &inputs {
        if paths.len() > 1 {
            problems.push(format!("{name}: {} inputs share one name", paths.len()));
            continue;
        }
        let json = dir.join(format!("{name}.json"));
        if family.expected && !expected.contains_key(name) {
            problems.push(format!(
                "{}: no expected result {name}.json beside it",
                paths[0].file_name().unwrap_or_default().to_string_lossy()
            ));
            continue;
        }
        out.push(Fixture {
            name: name.clone(),
            input: paths[0].clone(),
            expected: json,
        });
    }
    for name in expected.keys() {
        if !inputs.contains_key(name) {
            problems.push(format!("{name}.json: no input {name}.EXT beside it"));
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        problems.sort();
        Err(problems)
    }
}

#[test]
fn every_corpus_family_follows_the_naming_scheme() {
    let corpus = super::corpus("");
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(&corpus).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if NOTES.contains(&file.as_str()) {
            continue;
        }
        if !path.is_dir() || !FAMILIES.iter().any(|f| f.dir == file) {
            problems.push(format!("corpus/{file}: not a corpus family"));
        }
    }
    for f in FAMILIES {
        match check(&corpus.join(f.dir), f) {
            Ok(fx) => assert!(!fx.is_empty(), "corpus/{} is empty", f.dir),
            Err(p) => problems.extend(p.into_iter().map(|p| format!("corpus/{}: {p}", f.dir))),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_scheme_check_names_every_misnamed_or_unpaired_file() {
    let dir = tempfile::tempdir().unwrap();
    for f in [
        "good.eml",
        "good.json",
        "lonely.eml",
        "orphan.json",
        "001-old.expected.json",
        "001-old.mbox",
        "Upper_Case.eml",
        "notes.txt",
        "README.md",
    ] {
        std::fs::write(dir.path().join(f), "x").unwrap();
    }
    let fam = Family {
        dir: "test",
        inputs: &["eml", "mbox"],
        expected: true,
    };
    let problems = check(dir.path(), &fam).unwrap_err();
    assert_eq!(
        problems,
        [
            "001-old.expected.json: `.expected.json` is not an extension of corpus/test (eml, mbox, json)",
            "001-old.mbox: no expected result 001-old.json beside it",
            "Upper_Case.eml: NAME `Upper_Case` is not lower-case kebab-case",
            "lonely.eml: no expected result lonely.json beside it",
            "notes.txt: `.txt` is not an extension of corpus/test (eml, mbox, json)",
            "orphan.json: no input orphan.EXT beside it",
        ]
    );
    for f in [
        "lonely.eml",
        "orphan.json",
        "001-old.expected.json",
        "001-old.mbox",
        "Upper_Case.eml",
        "notes.txt",
    ] {
        std::fs::remove_file(dir.path().join(f)).unwrap();
    }
    let ok = check(dir.path(), &fam).unwrap();
    assert_eq!(ok.len(), 1);
    assert_eq!(ok[0].name, "good");
}
