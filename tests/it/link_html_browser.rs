//! The HTML export in a real browser: when `REGTRACK_BROWSER_TEST=1` (CI sets
//! it), writes the report through the binary, loads it in headless Chromium
//! with `tests/html/click_sort.mjs` (playwright-core), clicks column headers,
//! checks the order and that nothing is fetched, and takes a screenshot.
//! Otherwise prints a note and passes.
//!
//! Needs: `apt-get install -y chromium` and
//! `npm install --prefix tests/html playwright-core`.

use std::path::Path;
use std::process::Command;

use regtrack::store::Store;

use crate::common::Cmd;

fn write_db(path: &Path) {
    let mut store = Store::open(path).expect("open store");
    let input = crate::common::scenario::scenario();
    let out = regtrack::link::build(&input);
    regtrack::pipeline::relink::write_output(&mut store, &input, &out).expect("write output");
}

#[test]
fn the_html_report_sorts_by_a_clicked_column_in_a_real_browser() {
    if std::env::var("REGTRACK_BROWSER_TEST").ok().as_deref() != Some("1") {
        crate::common::skip("REGTRACK_BROWSER_TEST is not 1");
        return;
    }
    let root = crate::common::root();
    let html_dir = root.join("tests/html");
    assert!(
        html_dir.join("node_modules/playwright-core").is_dir(),
        "run: npm install --prefix tests/html playwright-core"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    write_db(&db);
    let html = dir.path().join("triage.html");
    Cmd::regtrack()
        .db(&db)
        .args(["export", "--format", "html", "--out"])
        .arg(&html)
        .ok();
    let text = std::fs::read_to_string(&html).expect("html written");
    assert!(!text.contains("src=\"http"), "external resource in HTML");
    assert!(
        text.contains("href=\"https://lore.kernel.org/all/"),
        "no lore link in HTML"
    );
    let shot = std::env::var_os("REGTRACK_SCREENSHOT")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("target/link_html_browser.png"));
    let out = Command::new("node")
        .arg(html_dir.join("click_sort.mjs"))
        .arg(&html)
        .arg(&shot)
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "browser check failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("\"failures\":[]"), "{stdout}");
    assert!(shot.is_file(), "no screenshot at {}", shot.display());
    eprintln!("browser test: {stdout}screenshot: {}", shot.display());
}
