//! Links everywhere: every message of `show`, the timeline, the exports and
//! the JSON carries its lore page, every commit id its page; `--lore-base`
//! and the config file's `commit_links` choose them; `show --hyperlinks`
//! writes OSC 8 sequences only when asked (or on a terminal).

use std::path::{Path, PathBuf};

use crate::common::Cmd;

/// A database of the whole bundled corpus, in `dir`.
pub fn corpus_db(dir: &Path) -> PathBuf {
    let db = dir.join("corpus.db");
    Cmd::regtrack()
        .db(&db)
        .arg("--quiet")
        .arg("ingest")
        .arg(crate::common::corpus(""))
        .run()
        .assert_no_panic();
    assert!(db.is_file(), "the corpus was not ingested");
    db
}

const FIXED: &str = "5e1f2a3b4c5d";

fn walk(v: &serde_json::Value, seen: &mut Vec<(String, String)>) {
    match v {
        serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, seen)),
        serde_json::Value::Object(o) => {
            if let Some(m) = o.get("message_id").and_then(|m| m.as_str()) {
                let url = o.get("url").and_then(|u| u.as_str()).unwrap_or("");
                seen.push((m.to_string(), url.to_string()));
            }
            o.values().for_each(|x| walk(x, seen));
        }
        _ => {}
    }
}

#[test]
fn every_message_and_commit_in_the_json_has_its_link() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let v = Cmd::regtrack().db(&db).args(["list", "--json"]).json();
    let mut seen = Vec::new();
    walk(&v, &mut seen);
    assert!(seen.len() > 50, "{} messages", seen.len());
    for (m, url) in &seen {
        let want = format!(
            "https://lore.kernel.org/all/{}/",
            regtrack::lore::encode_msgid(m)
        );
        assert_eq!(url, &want, "{m}");
    }
    let r = &Cmd::regtrack()
        .db(&db)
        .args(["show", FIXED, "--json"])
        .json()[0];
    assert_eq!(
        r["culprit"]["url"],
        "https://git.kernel.org/torvalds/c/5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b"
    );
    assert_eq!(
        r["url"],
        "https://lore.kernel.org/all/202403151023.5e1f2a3b-lkp@intel.com/"
    );
    assert_eq!(
        r["fix"]["commit_url"],
        "https://git.kernel.org/torvalds/c/0badc0ffee1234567890abcdef1234567890abcd"
    );
    // The fields that were there stay as they were.
    assert_eq!(
        r["culprit"]["commit"],
        "5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b"
    );
}

#[test]
fn the_lore_base_and_commit_templates_come_from_the_options_and_config() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let cfg = dir.path().join("c.toml");
    std::fs::write(
        &cfg,
        "lore_base = \"https://inbox.example.org/\"\n[commit_links]\ndefault = \"https://git.example.org/c/{sha}\"\n",
    )
    .unwrap();
    let r = &Cmd::regtrack()
        .db(&db)
        .arg("--config")
        .arg(&cfg)
        .args(["show", FIXED, "--json"])
        .json()[0];
    assert_eq!(
        r["url"],
        "https://inbox.example.org/all/202403151023.5e1f2a3b-lkp@intel.com/"
    );
    assert_eq!(
        r["culprit"]["url"],
        "https://git.example.org/c/5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b"
    );
    let r = &Cmd::regtrack()
        .db(&db)
        .arg("--config")
        .arg(&cfg)
        .args([
            "--lore-base",
            "http://127.0.0.1:8080",
            "show",
            FIXED,
            "--json",
        ])
        .json()[0];
    assert_eq!(
        r["url"],
        "http://127.0.0.1:8080/all/202403151023.5e1f2a3b-lkp@intel.com/"
    );
}

#[test]
fn show_prints_links_and_osc8_hyperlinks_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let plain = Cmd::regtrack().db(&db).args(["show", FIXED]).ok();
    assert!(!plain.stdout.contains('\x1b'), "{}", plain.stdout);
    assert!(
        plain
            .stdout
            .contains("https://lore.kernel.org/all/202403151023.5e1f2a3b-lkp@intel.com/"),
        "{}",
        plain.stdout
    );
    assert!(
        plain
            .stdout
            .contains("commit: https://git.kernel.org/torvalds/c/5e1f2a3b4c5d"),
        "{}",
        plain.stdout
    );
    let linked = Cmd::regtrack()
        .db(&db)
        .args(["show", FIXED, "--hyperlinks", "always"])
        .ok();
    assert!(
        linked.stdout.contains(
            "\x1b]8;;https://lore.kernel.org/all/202403151023.5e1f2a3b-lkp@intel.com/\x1b\\<202403151023.5e1f2a3b-lkp@intel.com>\x1b]8;;\x1b\\"
        ),
        "{:?}",
        linked.stdout
    );
    // A pipe is no terminal: auto writes none.
    let auto = Cmd::regtrack()
        .db(&db)
        .env("TERM", "xterm-256color")
        .args(["show", FIXED, "--hyperlinks", "auto"])
        .ok();
    assert_eq!(auto.stdout, plain.stdout);
}

#[test]
fn every_export_links_reports_and_commits() {
    let dir = tempfile::tempdir().unwrap();
    let db = corpus_db(dir.path());
    let md = Cmd::regtrack()
        .db(&db)
        .args(["export", "--format", "md"])
        .ok();
    assert!(
        md.stdout
            .contains("[19](https://lore.kernel.org/all/202403151023.5e1f2a3b-lkp@intel.com/)"),
        "{}",
        md.stdout
    );
    assert!(md.stdout.contains(
        "[`5e1f2a3b4c5d`](https://git.kernel.org/torvalds/c/5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b)"
    ));
    let csv = Cmd::regtrack()
        .db(&db)
        .args(["export", "--format", "csv"])
        .ok();
    let head = csv.stdout.lines().next().unwrap();
    assert!(head.ends_with(",reports,url,culprit_url"), "{head}");
    assert!(csv.stdout.contains(
        ",https://lore.kernel.org/all/202403151023.5e1f2a3b-lkp@intel.com/,https://git.kernel.org/torvalds/c/5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b"
    ));
    let html = Cmd::regtrack()
        .db(&db)
        .args(["export", "--format", "html"])
        .ok();
    let h = &html.stdout;
    assert!(h.contains(
        "<a href=\"https://lore.kernel.org/all/202403151023.5e1f2a3b-lkp@intel.com/\">19</a>"
    ));
    assert!(h.contains(
        "<a href=\"https://git.kernel.org/torvalds/c/5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b\">"
    ));
    // The timeline is a row of its own under its regression, spanning the
    // table, its entries linked to their messages.
    let row = h.find("<tr id=\"reg-19\"").expect("row 19");
    let tl = h
        .find("<tr id=\"tl-19\" class=\"timeline\" hidden><td colspan=\"11\">")
        .expect("timeline row");
    assert!(tl > row && !h[row + 1..tl].contains("<tr id=\"reg-"));
    let end = tl + h[tl..].find("</tr>").unwrap();
    assert!(h[tl..end].contains("<li>2024-03-15 kernel test robot: <a href=\"https://lore.kernel.org/all/202403151023.5e1f2a3b-lkp@intel.com/\">"), "{}", &h[tl..end]);
    // Long fields wrap between words, never inside one.
    assert!(h.contains("overflow-wrap:normal"));
    assert!(!h.contains("overflow-wrap:anywhere"));
}
