//! The HTML export in a real browser: when `REGTRACK_BROWSER_TEST=1` (CI sets
//! it), writes the report through the binary, loads it in headless Chromium
//! with `tests/html/click_sort.mjs` (playwright-core), clicks column headers,
//! checks the order and that nothing is fetched, and takes a screenshot;
//! and the report of the bundled corpus (`corpus/`, as the README's first
//! steps ingest it) at 1400 and 800 px with `tests/html/no_broken_words.mjs`:
//! no table cell breaks a word or a number across lines, a screenshot per
//! width. Otherwise, or when there is no Chromium, prints a note and passes.
//!
//! Needs: `apt-get install -y chromium` and
//! `npm install --prefix tests/html playwright-core`.

use std::path::{Path, PathBuf};
use std::process::Command;

use regtrack::store::Store;

use crate::common::Cmd;

fn write_db(path: &Path) {
    let mut store = Store::open(path).expect("open store");
    let input = crate::common::scenario::scenario();
    let out = regtrack::link::build(&input);
    regtrack::pipeline::relink::write_output(&mut store, &input, &out).expect("write output");
}

/// The Chromium the scripts launch (`CHROMIUM`, else Debian's), or `None`
/// after a note that the test is skipped: when `REGTRACK_BROWSER_TEST` is
/// not 1 or that Chromium is missing. Asserts that playwright-core is
/// installed when the test runs.
fn browser() -> Option<PathBuf> {
    if std::env::var("REGTRACK_BROWSER_TEST").ok().as_deref() != Some("1") {
        crate::common::skip("REGTRACK_BROWSER_TEST is not 1");
        return None;
    }
    let chromium = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if !chromium.is_file() {
        crate::common::skip(&format!(
            "no Chromium at {} (apt-get install -y chromium, or set CHROMIUM)",
            chromium.display()
        ));
        return None;
    }
    assert!(
        crate::common::root()
            .join("tests/html/node_modules/playwright-core")
            .is_dir(),
        "run: npm install --prefix tests/html playwright-core"
    );
    Some(chromium)
}

#[test]
fn the_html_report_sorts_by_a_clicked_column_in_a_real_browser() {
    let Some(chromium) = browser() else {
        return;
    };
    let root = crate::common::root();
    let html_dir = root.join("tests/html");
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    write_db(&db);
    let html = dir.path().join("triage.html");
    let text = export_html(&db, &html);
    assert!(!text.contains("src=\"http"), "external resource in HTML");
    assert!(
        text.contains("href=\"https://lore.kernel.org/all/"),
        "no lore link in HTML"
    );
    let shot = std::env::var_os("REGTRACK_SCREENSHOT")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("target/link_html_browser.png"));
    let stdout = browser_check(
        &chromium,
        &html_dir.join("click_sort.mjs"),
        &[html.as_os_str(), shot.as_os_str()],
        "",
    );
    assert!(shot.is_file(), "no screenshot at {}", shot.display());
    eprintln!("browser test: {stdout}screenshot: {}", shot.display());
}

/// The issue this answers: at 1400 px the ID column broke numbers into a
/// digit a line, flags and headers broke mid-word (`acknowledg`/`ed-no-patch`,
/// `Subsyste`/`m`). The script measures every word of every cell as a Range
/// in the page, with the timelines closed and open.
#[test]
fn the_html_report_of_the_corpus_breaks_no_word_at_1400_or_800_px() {
    let Some(chromium) = browser() else {
        return;
    };
    let root = crate::common::root();
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("corpus.db");
    Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .arg(root.join("corpus"))
        .ok();
    let html = dir.path().join("corpus.html");
    let text = export_html(&db, &html);
    assert!(text.contains("acknowledged-no-patch"), "the corpus changed");
    let shots = std::env::var_os("REGTRACK_SCREENSHOT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/html_layout"));
    std::fs::create_dir_all(&shots).expect("screenshot dir");
    let stdout = browser_check(
        &chromium,
        &root.join("tests/html/no_broken_words.mjs"),
        &[
            html.as_os_str(),
            shots.as_os_str(),
            "1400".as_ref(),
            "800".as_ref(),
        ],
        &format!(" (screenshots in {})", shots.display()),
    );
    for width in [1400, 800] {
        for name in [
            format!("report-{width}px.png"),
            format!("report-{width}px-timelines.png"),
        ] {
            let shot = shots.join(name);
            assert!(shot.is_file(), "no screenshot at {}", shot.display());
        }
    }
    eprintln!("browser test: {stdout}screenshots: {}", shots.display());
}

/// `regtrack export --format html --out HTML` of `db`; gives the file's text.
fn export_html(db: &std::path::Path, html: &std::path::Path) -> String {
    Cmd::regtrack()
        .db(db)
        .args(["export", "--format", "html", "--out"])
        .arg(html)
        .ok();
    std::fs::read_to_string(html).expect("html written")
}

/// Runs browser script `script` with `args` under node (the browser from
/// `CHROMIUM`); asserts that it succeeded and reported no failures (`where`
/// is added to the message when it did not). Gives its standard output.
fn browser_check(
    chromium: &std::path::Path,
    script: &std::path::Path,
    args: &[&std::ffi::OsStr],
    r#where: &str,
) -> String {
    let out = Command::new("node")
        .env("CHROMIUM", chromium)
        .arg(script)
        .args(args)
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "browser check failed{where}:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("\"failures\":[]"), "{stdout}");
    stdout
}
