//! `regtrack export --out`: never over the database or any SQLite file, and
//! never a truncated report over the old one (the report goes to a
//! temporary file in the same folder, renamed once whole); a pipe or a
//! device is written into, never replaced by a file.

use std::path::Path;
use std::process::{Command, Output};

fn regtrack(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_regtrack"))
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .unwrap()
}

/// A database of the fixed-history fixture in `dir`.
pub(crate) fn database(dir: &Path) -> std::path::PathBuf {
    let db = dir.join("t.db");
    let mbox = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpus/threads/fixed-history.mbox"
    );
    assert!(regtrack(&db, &["-q", "ingest", mbox]).status.success());
    db
}

#[test]
fn an_export_over_the_database_or_an_sqlite_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(dir.path());
    let before = std::fs::read(&db).unwrap();
    let o = regtrack(&db, &["export", "--out", db.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("it is the database"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), before);
    // Through another name (a symlink) too.
    let link = dir.path().join("link.md");
    std::os::unix::fs::symlink(&db, &link).unwrap();
    let o = regtrack(&db, &["export", "--out", link.to_str().unwrap()]);
    assert!(!o.status.success());
    assert_eq!(std::fs::read(&db).unwrap(), before);
    // Any SQLite file.
    let other = dir.path().join("other.html");
    std::fs::copy(&db, &other).unwrap();
    let o = regtrack(
        &db,
        &[
            "export",
            "--format",
            "html",
            "--out",
            other.to_str().unwrap(),
        ],
    );
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("it is an SQLite database"), "{err}");
    assert_eq!(std::fs::read(&other).unwrap(), before);
    assert!(regtrack(&db, &["stats"]).status.success());
    // The writer's lock file is the database's too.
    let lock = dir.path().join("t.db.lock");
    std::fs::write(&lock, "").unwrap();
    let o = regtrack(&db, &["export", "--out", lock.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(".lock file"), "{err}");
    // A folder that is not there: the error names the file asked for, not
    // the temporary one it would have been written through.
    let nowhere = dir.path().join("no-such-folder").join("x.json");
    let o = regtrack(&db, &["export", "--out", nowhere.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("x.json") && err.contains("No such file"),
        "{err}"
    );
    assert!(!err.contains(".regtrack-export-"), "{err}");
}

#[test]
fn a_failed_write_leaves_the_old_report_whole() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(dir.path());
    let out = dir.path().join("report.json");
    let old = "the old report\n".repeat(100);
    std::fs::write(&out, &old).unwrap();
    std::fs::set_permissions(&out, std::os::unix::fs::PermissionsExt::from_mode(0o640)).unwrap();
    // Files of at most 40 KB (the JSON export is about 12 KB here: a
    // hostile title makes it larger): a write past that fails with EFBIG,
    // as on a full disk.
    let title = format!("big {}", "x".repeat(60_000));
    let mbox = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpus/threads/fixed-history.mbox"
    ))
    .unwrap()
    .replace("ext4: take the orphan lock only when needed", &title);
    let big = dir.path().join("big.mbox");
    std::fs::write(&big, mbox).unwrap();
    let db2 = dir.path().join("big.db");
    assert!(
        regtrack(&db2, &["-q", "ingest", big.to_str().unwrap()])
            .status
            .success()
    );
    let o = Command::new("sh")
        .arg("-c")
        .arg(
            "trap '' XFSZ; ulimit -f 80; exec \"$0\" --db \"$1\" export --format json --out \"$2\"",
        )
        .arg(env!("CARGO_BIN_EXE_regtrack"))
        .arg(&db2)
        .arg(&out)
        .output()
        .unwrap();
    assert!(!o.status.success(), "{o:?}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), old);
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n.starts_with(".regtrack-export-")),
        "{names:?}"
    );
    // A write that succeeds replaces it, keeping its mode.
    let o = regtrack(
        &db,
        &["export", "--format", "json", "--out", out.to_str().unwrap()],
    );
    assert!(o.status.success(), "{o:?}");
    let new = std::fs::read_to_string(&out).unwrap();
    assert!(new.starts_with('['), "{new}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[test]
fn an_export_into_a_pipe_is_written_into_it_and_leaves_it_a_pipe() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let db = database(dir.path());
    let fifo = dir.path().join("pipe");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(&fifo).unwrap())
    };
    let o = regtrack(
        &db,
        &[
            "export",
            "--format",
            "json",
            "--out",
            fifo.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = reader.join().unwrap();
    assert!(got.trim_start().starts_with('['), "{got}");
    // Renaming a file over it (as over a regular file) would have replaced
    // the pipe; a device such as /dev/null likewise.
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "{kind:?}");
}
