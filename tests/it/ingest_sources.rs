//! Every input form through `source::open`: gzip, Maildir, a folder of .eml
//! files, a single message, and detection by content rather than by name.

use std::io::Write;
use std::path::{Path, PathBuf};

use regtrack::model::RawFormat;

fn corpus(name: &str) -> PathBuf {
    crate::common::corpus("ingest").join(name)
}

fn ids(path: &Path) -> Vec<String> {
    regtrack::source::open(path)
        .unwrap()
        .map(|r| regtrack::mail::parse(&r.unwrap()).unwrap().message_id)
        .collect()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

#[test]
fn a_gzip_mbox_is_detected_by_its_magic_whatever_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("t.mbox"); // no .gz in the name on purpose
    std::fs::write(&gz, gzip(&std::fs::read(corpus("thread.mbox")).unwrap())).unwrap();
    assert_eq!(
        ids(&gz),
        ["202305090905.test-report@intel.com", "reply-1@example.org"]
    );
}

#[test]
fn a_gzip_cut_short_or_followed_by_junk_yields_every_message_before_the_error() {
    // Many messages, so that the stream is read in several chunks and the
    // error strikes with messages still unsplit.
    let mut mbox = Vec::new();
    for i in 0..3000 {
        mbox.extend_from_slice(
            format!(
                "From x@y Thu Jan  1 00:00:00 1970\nMessage-ID: <m{i}@x>\nSubject: s{i}\n\n{}\n",
                "a line of a body to make the messages bigger\n".repeat(20)
            )
            .as_bytes(),
        );
    }
    let whole = gzip(&mbox);
    let dir = tempfile::tempdir().unwrap();
    let padded = dir.path().join("padded.mbox.gz");
    let mut bytes = whole.clone();
    bytes.extend_from_slice(&[0u8; 512]);
    std::fs::write(&padded, &bytes).unwrap();
    let cut = dir.path().join("cut.mbox.gz");
    std::fs::write(&cut, &whole[..whole.len() * 9 / 10]).unwrap();
    for (path, all) in [(&padded, true), (&cut, false)] {
        let items: Vec<_> = regtrack::source::open(path).unwrap().collect();
        let read = items.iter().filter(|r| r.is_ok()).count();
        let errors: Vec<String> = items
            .iter()
            .filter_map(|r| r.as_ref().err().map(|e| e.to_string()))
            .collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].contains("read error") && errors[0].contains(".mbox.gz:"),
            "{errors:?}"
        );
        if all {
            assert_eq!(read, 3000, "junk after a whole stream loses nothing");
        } else {
            assert!(
                read > 2600,
                "only {read} of the ~2700 messages before the cut"
            );
        }
    }
}

#[test]
fn a_maildir_yields_the_messages_of_cur_and_new() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    std::fs::copy(
        corpus("single.eml"),
        dir.path().join("cur/1683.M1.host:2,S"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("new/1684.M2.host"),
        "Message-ID: <new@x>\nSubject: n\n\nbody\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("tmp/partial"), "Message-ID: <tmp@x>\n").unwrap();
    assert_eq!(ids(dir.path()), ["single-1@example.org", "new@x"]);
}

#[test]
fn a_folder_of_eml_files_is_read_in_name_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.eml"), "Message-ID: <b@x>\n\nb\n").unwrap();
    std::fs::write(dir.path().join("a.eml"), "Message-ID: <a@x>\n\na\n").unwrap();
    std::fs::write(dir.path().join("notes.bin"), "ignored").unwrap();
    assert_eq!(ids(dir.path()), ["a@x", "b@x"]);
}

#[test]
fn an_empty_folder_is_refused_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let err = regtrack::source::open(dir.path())
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("no mail files"), "{err}");
}

#[test]
fn forms_are_detected_by_content() {
    let formats = |name: &str| -> Vec<RawFormat> {
        regtrack::source::open(&corpus(name))
            .unwrap()
            .map(|r| r.unwrap().format)
            .collect()
    };
    assert_eq!(
        formats("thread.mbox"),
        [RawFormat::Rfc822, RawFormat::Rfc822]
    );
    assert_eq!(formats("single.eml"), [RawFormat::Rfc822]);
    assert_eq!(formats("rendered.txt"), [RawFormat::Rendered]);
    assert_eq!(formats("collapsed.txt"), [RawFormat::Collapsed]);
}

#[test]
fn a_path_that_does_not_exist_is_an_error_naming_it() {
    let err = regtrack::source::open(Path::new("/no/such/path"))
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("/no/such/path"), "{err}");
}
