//! Bad input is normal input: none of these panics; each bad message is a
//! counted failure with its place and reason, and the rest goes on.

use std::io::Write;
use std::path::{Path, PathBuf};

use regtrack::pipeline::ingest::{Summary, ingest};
use regtrack::store::Store;

use crate::common::{column, one};

/// A store in a database file of its own, and the file.
struct Db {
    store: Store,
    path: PathBuf,
    _dir: tempfile::TempDir,
}

fn run(paths: &[PathBuf]) -> (Summary, Db) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let mut store = Store::open(&path).unwrap();
    let s = ingest(&mut store, paths, &|_| {}).unwrap();
    (
        s,
        Db {
            store,
            path,
            _dir: dir,
        },
    )
}

fn write(dir: &Path, name: &str, data: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    p
}

/// Every stored body, in insertion order (decompressed as `regtrack mail` reads them).
fn bodies(db: &Db) -> Vec<String> {
    let ids: Vec<String> = column(&db.path, "SELECT message_id FROM messages ORDER BY id");
    ids.iter().map(|id| body(db, id)).collect()
}

fn body(db: &Db, id: &str) -> String {
    regtrack::store::body::stored_message(&db.store, id)
        .unwrap()
        .unwrap()
        .body
}

const GOOD: &str =
    "From a Mon Sep 17 00:00:00 2001\nMessage-ID: <good@x>\nSubject: good\n\nfine\n\n";

#[test]
fn a_truncated_mbox_keeps_every_whole_message_and_the_partial_one() {
    let dir = tempfile::tempdir().unwrap();
    let mid_header = format!("{GOOD}From b Mon Sep 17 00:00:00 2001\nMessage-ID: <cut@x>\nSubj");
    let mid_body =
        format!("{GOOD}From b Mon Sep 17 00:00:00 2001\nMessage-ID: <cut2@x>\n\nhalf a li");
    let a = write(dir.path(), "a.mbox", mid_header.as_bytes());
    let b = write(dir.path(), "b.mbox", mid_body.as_bytes());
    let (s, db) = run(&[a, b]);
    assert_eq!((s.new, s.known, s.failed), (3, 1, 0));
    assert!(bodies(&db).iter().any(|b| b == "half a li"));
}

#[test]
fn a_truncated_gzip_mbox_keeps_the_messages_before_the_cut_and_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut mbox = String::new();
    for i in 0..30 {
        mbox.push_str(&format!(
            "From a Mon Sep 17 00:00:00 2001\nMessage-ID: <z{i}@x>\nSubject: s{i}\n\n{}\n",
            format!("line {i} of a body that gzip shrinks\n").repeat(30)
        ));
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(mbox.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let cut = write(dir.path(), "cut.mbox.gz", &gz[..gz.len() / 2]);
    let (s, db) = run(std::slice::from_ref(&cut));
    assert!(
        s.new >= 2 && s.new < 30,
        "{} messages before the cut",
        s.new
    );
    let stored: i64 = one(&db.path, "SELECT count(*) FROM messages");
    assert_eq!(stored as u64, s.new);
    assert_eq!(s.failed, 1, "the cut is one failure");
    assert!(
        s.failures
            .iter()
            .any(|f| f.place.contains("cut.mbox.gz") && f.reason.contains("deflate")),
        "the failure names the file and the cause"
    );
}

#[test]
fn invalid_utf8_unknown_charsets_and_broken_encodings_still_give_text() {
    let dir = tempfile::tempdir().unwrap();
    let mut data = Vec::new();
    data.extend_from_slice(b"From a Mon Sep 17 00:00:00 2001\nMessage-ID: <u8@x>\nSubject: bad \xff\xfe utf8\n\nbody \xc3\x28 here\n\n");
    data.extend_from_slice(b"From a Mon Sep 17 00:00:00 2001\nMessage-ID: <cs@x>\nContent-Type: text/plain; charset=x-no-such-charset\n\nplain words\n\n");
    data.extend_from_slice(b"From a Mon Sep 17 00:00:00 2001\nMessage-ID: <lie@x>\nContent-Type: text/plain; charset=us-ascii\n\n12.5 \xb1 3% lying\n\n");
    data.extend_from_slice(b"From a Mon Sep 17 00:00:00 2001\nMessage-ID: <b64@x>\nContent-Transfer-Encoding: base64\n\n!!!not*base64@@@\n\n");
    data.extend_from_slice(b"From a Mon Sep 17 00:00:00 2001\nMessage-ID: <qp@x>\nContent-Transfer-Encoding: quoted-printable\n\nbroken =ZZ soft=\nline =E2=80\n\n");
    data.extend_from_slice(b"From a Mon Sep 17 00:00:00 2001\nMessage-ID: <nul@x>\nSubject: nul\0byte\n\nbody\0with\0nuls\n\n");
    let p = write(dir.path(), "bad.mbox", &data);
    let (s, db) = run(&[p]);
    assert_eq!((s.new, s.failed), (6, 0));
    let b = bodies(&db);
    assert!(b[0].contains("body") && b[0].contains("here"));
    assert!(b[1].contains("plain words"));
    assert!(b[2].contains("lying"));
    assert!(b[4].contains("broken"));
}

#[test]
fn a_message_with_no_headers_fails_with_its_offset_and_the_rest_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let data = format!("From a Mon Sep 17 00:00:00 2001\n\nno headers here\n\n{GOOD}");
    let p = write(dir.path(), "nohdr.mbox", data.as_bytes());
    let (s, db) = run(std::slice::from_ref(&p));
    assert_eq!((s.new, s.failed), (1, 1));
    assert_eq!(s.failures[0].place, format!("{}:0", p.display()));
    assert!(
        s.failures[0].reason.contains("no header block"),
        "{:?}",
        s.failures
    );
    let [(src, off, reason)]: [(String, i64, String); 1] =
        crate::common::rows(&db.path, "SELECT source, offset, reason FROM failures")
            .try_into()
            .expect("one failure row");
    assert_eq!((src, off), (p.display().to_string(), 0));
    assert!(reason.contains("no header block"));
}

fn long_line_mbox(dir: &Path, mb: usize) -> PathBuf {
    let p = dir.join(format!("long{mb}.mbox"));
    let mut f = std::fs::File::create(&p).unwrap();
    f.write_all(b"From a Mon Sep 17 00:00:00 2001\nMessage-ID: <long@x>\nSubject: long\n\n")
        .unwrap();
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..mb {
        f.write_all(&chunk).unwrap();
    }
    f.write_all(b"\n\n").unwrap();
    f.write_all(GOOD.as_bytes()).unwrap();
    p
}

#[test]
fn a_100_mb_line_is_a_clear_failure_and_the_next_message_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let (s, _) = run(&[long_line_mbox(dir.path(), 100)]);
    assert_eq!((s.new, s.failed), (1, 1));
    assert!(
        s.failures[0].reason.contains("larger than"),
        "{:?}",
        s.failures
    );
    assert!(
        s.failures[0].place.ends_with("long100.mbox:0"),
        "{:?}",
        s.failures
    );
}

#[test]
fn an_8_mb_line_is_stored_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (s, db) = run(&[long_line_mbox(dir.path(), 8)]);
    assert_eq!((s.new, s.failed), (2, 0));
    assert!(body(&db, "long@x").len() >= 8 << 20);
}

#[test]
fn missing_and_unreadable_paths_are_input_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.mbox", GOOD.as_bytes());
    let secret = write(dir.path(), "secret.mbox", GOOD.as_bytes());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).unwrap();
    }
    let readable = std::fs::read(&secret).is_ok(); // root reads anything
    let (s, _) = run(&[dir.path().join("missing.mbox"), secret.clone(), good]);
    assert_eq!(s.new, 1);
    assert!(s.input_errors[0].place.ends_with("missing.mbox"));
    if !readable {
        assert_eq!(s.input_errors.len(), 2);
        assert!(s.input_errors[1].reason.contains("secret.mbox"));
    }
}

#[test]
fn empty_and_binary_files_do_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write(dir.path(), "empty", b"");
    let binary = write(
        dir.path(),
        "bin",
        &(0..=255u8).cycle().take(70_000).collect::<Vec<_>>(),
    );
    let gz_junk = write(dir.path(), "junk.gz", &[0x1f, 0x8b, 1, 2, 3, 4, 5]);
    let (s, _) = run(&[empty, binary, gz_junk]);
    assert_eq!(s.new, 0);
    assert_eq!(s.input_errors.len() as u64 + s.failed, 3);
}

#[test]
fn deep_multipart_nesting_and_huge_references_do_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = String::from("From a Mon Sep 17 00:00:00 2001\nMessage-ID: <deep@x>\nReferences:");
    for i in 0..10_000 {
        m.push_str(&format!(" <r{i}@x>\n"));
    }
    m.push_str("Content-Type: multipart/mixed; boundary=\"b0\"\n\n");
    for i in 0..500 {
        m.push_str(&format!(
            "--b{i}\nContent-Type: multipart/mixed; boundary=\"b{}\"\n\n",
            i + 1
        ));
    }
    m.push_str("--b500\nContent-Type: text/plain\n\ninnermost text\n\n");
    let p = write(dir.path(), "deep.mbox", m.as_bytes());
    let (s, db) = run(&[p]);
    assert_eq!((s.new, s.failed), (1, 0));
    let refs: String = one(&db.path, "SELECT refs FROM messages WHERE refs <> ''");
    assert_eq!(refs.split(' ').count(), 10_000);
}
