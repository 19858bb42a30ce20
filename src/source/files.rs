//! File and folder readers: single messages, mbox, gzip, collapsed and
//! rendered text, Maildir and folders of mail files.

use std::fs::File;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

use super::RawStream;
use super::detect::{self, DirKind, FileKind};
use super::mbox::{MAX_MESSAGE, MboxReader, Place};
use crate::error::{Error, Result};
use crate::model::{Origin, RawBytes, RawFormat, RawMessage};

/// Bytes read up front to detect a file's form.
const HEAD_SIZE: usize = 64 * 1024;

/// How many gzip layers are undone. One: each layer multiplies the size by
/// up to about 1000, so a second one lets a 10 KB file inflate to 4 GB;
/// gzip inside gzip is not an archive format, it stays one message.
const MAX_GZIP_DEPTH: u32 = 1;

/// Opens one file.
pub fn open_file(path: &Path) -> Result<RawStream> {
    let file = File::open(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let reader: Box<dyn Read + Send> = Box::new(file);
    open_reader(reader, Place::File(path.display().to_string()), path, 0)
}

/// Detects the form of a byte stream and returns its messages.
pub fn open_reader(
    mut reader: Box<dyn Read + Send>,
    place: Place,
    path: &Path,
    gzip_depth: u32,
) -> Result<RawStream> {
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut head = Vec::with_capacity(HEAD_SIZE);
    // A read error after some bytes (a truncated gzip stream) is said
    // after the messages of what was read: the reader fails where it
    // struck.
    if let Err(e) = (&mut reader).take(HEAD_SIZE as u64).read_to_end(&mut head) {
        if head.is_empty() {
            return Err(io_err(e));
        }
        reader = Box::new(FailsWith(Some(e)));
    }
    if head.is_empty() {
        return Err(Error::Unrecognised {
            path: path.to_path_buf(),
            reason: "empty input".into(),
        });
    }
    if !head.starts_with(&[0x1f, 0x8b]) && ends_lines_in_cr_alone(&head) {
        for b in &mut head {
            if *b == b'\r' {
                *b = b'\n';
            }
        }
        reader = Box::new(CrAsLf(reader));
    }
    match detect::file_kind(&head) {
        FileKind::Gzip if gzip_depth < MAX_GZIP_DEPTH => {
            let inner: Box<dyn Read + Send> = Box::new(flate2::read::MultiGzDecoder::new(
                Cursor::new(head).chain(reader),
            ));
            open_reader(inner, place, path, gzip_depth + 1)
        }
        FileKind::Mbox => Ok(Box::new(MboxReader::new(reader, head, place))),
        FileKind::Collapsed => {
            let all = read_rest(head, reader, path)?;
            Ok(Box::new(collapsed_lines(all, place).into_iter()))
        }
        kind => {
            let all = read_rest(head, reader, path)?;
            let format = if kind == FileKind::Rendered {
                RawFormat::Rendered
            } else {
                RawFormat::Rfc822
            };
            let origin = match place {
                Place::File(p) => Origin::File { path: p, offset: 0 },
                Place::Stdin => Origin::Stdin { offset: 0 },
            };
            Ok(Box::new(std::iter::once(Ok(RawMessage {
                origin,
                bytes: all.into(),
                format,
            }))))
        }
    }
}

/// A reader at the point where a read failed: it gives that error once,
/// then ends.
struct FailsWith(Option<std::io::Error>);

impl Read for FailsWith {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// True when the first bytes end their lines in CR alone (classic Mac OS
/// mail): some CR, no LF. Such input is read with each CR taken for an LF,
/// so that its lines, header blocks and `From ` separators are found; the
/// messages are stored with LF line ends.
fn ends_lines_in_cr_alone(head: &[u8]) -> bool {
    memchr::memchr(b'\r', head).is_some() && memchr::memchr(b'\n', head).is_none()
}

/// A reader that hands on every CR as an LF (same length, so offsets hold).
struct CrAsLf(Box<dyn Read + Send>);

impl Read for CrAsLf {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.read(out)?;
        for b in out.iter_mut().take(n) {
            if *b == b'\r' {
                *b = b'\n';
            }
        }
        Ok(n)
    }
}

/// Reads the rest of a one-message input, up to [`MAX_MESSAGE`] bytes.
fn read_rest(mut head: Vec<u8>, reader: Box<dyn Read + Send>, path: &Path) -> Result<Vec<u8>> {
    let limit = MAX_MESSAGE as u64 + 1;
    reader
        .take(limit)
        .read_to_end(&mut head)
        .map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if head.len() > MAX_MESSAGE {
        return Err(Error::Unrecognised {
            path: path.to_path_buf(),
            reason: format!("a single message larger than {MAX_MESSAGE} bytes"),
        });
    }
    Ok(head)
}

/// One collapsed message per non-empty line.
fn collapsed_lines(all: Vec<u8>, place: Place) -> Vec<Result<RawMessage>> {
    let all = std::sync::Arc::new(all);
    let mut out = Vec::new();
    let mut offset = 0usize;
    for line in all.split_inclusive(|&b| b == b'\n') {
        let start = offset;
        offset += line.len();
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let origin = match &place {
            Place::File(p) => Origin::File {
                path: p.clone(),
                offset: start as u64,
            },
            Place::Stdin => Origin::Stdin {
                offset: start as u64,
            },
        };
        out.push(Ok(RawMessage {
            origin,
            bytes: RawBytes::shared(&all, start..offset),
            format: RawFormat::Collapsed,
        }));
    }
    out
}

/// Opens a folder: Maildir, public-inbox, or a folder of mail files.
pub fn open_dir(path: &Path) -> Result<RawStream> {
    match detect::dir_kind(path) {
        Some(DirKind::Maildir) => {
            let mut files = Vec::new();
            for sub in ["cur", "new"] {
                let dir = path.join(sub);
                if dir.is_dir() {
                    files.extend(list_files(&dir, |_| true)?);
                }
            }
            let (inside, outside) = within(path, files);
            let outside = outside_error(path, &outside);
            Ok(Box::new(files_stream(inside).chain(outside.map(Err))))
        }
        Some(DirKind::PublicInboxV2) | Some(DirKind::GitRepo) => super::open_git(path),
        Some(DirKind::MailFolder) | None => {
            let walk = walk_mail_folder(path)?;
            if walk.files.is_empty() {
                let deeper = match walk.too_deep.first() {
                    Some(_) => format!(
                        " within {MAX_FOLDER_DEPTH} levels of folders ({} deeper were not read)",
                        walk.too_deep.len()
                    ),
                    None => String::new(),
                };
                return Err(Error::Unrecognised {
                    path: path.to_path_buf(),
                    reason: format!(
                        "a folder with no Maildir (cur/, new/), no public-inbox (git/0.git, \
                         HEAD + objects/) and no mail files (.eml, .mbox, .mbx, .msg, .gz, \
                         .txt, .patch, or a file that starts with a mail's header or an \
                         mbox From line){deeper}"
                    ),
                });
            }
            let too_deep = too_deep_error(path, &walk.too_deep);
            let (inside, outside) = within(path, walk.files);
            let outside = outside_error(path, &outside);
            Ok(Box::new(
                files_stream(inside)
                    .chain(too_deep.map(Err))
                    .chain(outside.map(Err)),
            ))
        }
    }
}

/// The files of a walk that lie inside `root` once symbolic links are
/// followed, and those a link leads out of it to (`/etc/passwd` linked into
/// a Maildir): those are not read. A file that is no link lies where its
/// folder does, so each folder is resolved once and each file only
/// `lstat`ed: resolving every file of a big Maildir cost a path walk each.
fn within(root: &Path, files: Vec<PathBuf>) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let Ok(root) = std::fs::canonicalize(root) else {
        return (files, Vec::new());
    };
    let mut folders: std::collections::HashMap<PathBuf, bool> = std::collections::HashMap::new();
    files.into_iter().partition(|f| {
        let inside =
            |p: &Path| std::fs::canonicalize(p).map_or(true, |real| real.starts_with(&root));
        let link = std::fs::symlink_metadata(f).is_ok_and(|m| m.file_type().is_symlink());
        match f.parent() {
            Some(folder) if !link => *folders
                .entry(folder.to_path_buf())
                .or_insert_with(|| inside(folder)),
            _ => inside(f),
        }
    })
}

/// The error that names the first file a symbolic link leads out of the
/// folder to.
fn outside_error(root: &Path, outside: &[PathBuf]) -> Option<Error> {
    first_not_read(outside, |more| {
        format!(
            "a symbolic link out of '{}': not read{more}",
            root.display()
        )
    })
}

/// The error naming the first of `paths` a walk did not read, its reason
/// made by `reason` from how many more there are (` (and 3 more)`).
fn first_not_read(paths: &[PathBuf], reason: impl FnOnce(&str) -> String) -> Option<Error> {
    let first = paths.first()?;
    let more = match paths.len() {
        1 => String::new(),
        n => format!(" (and {} more)", n - 1),
    };
    Some(Error::Unrecognised {
        path: first.clone(),
        reason: reason(&more),
    })
}

/// How deep a folder of mail folders is walked.
pub const MAX_FOLDER_DEPTH: u32 = 16;

/// What a folder walk found.
#[derive(Debug, Default)]
struct Walk {
    /// Mail files, and Maildir or public-inbox folders to open whole, in
    /// walk order.
    files: Vec<PathBuf>,
    /// Folders at [`MAX_FOLDER_DEPTH`] below the root that were not walked.
    too_deep: Vec<PathBuf>,
    /// Device and inode of every folder and file taken: each is taken once,
    /// whatever symlinks lead to it again (a loop leads back to a folder
    /// being walked).
    seen: std::collections::HashSet<(u64, u64)>,
}

/// The error that says a walk stopped at its depth cap, naming the first
/// folder it did not read.
fn too_deep_error(root: &Path, too_deep: &[PathBuf]) -> Option<Error> {
    first_not_read(too_deep, |more| {
        format!(
            "more than {MAX_FOLDER_DEPTH} levels of folders below '{}': not read{more}",
            root.display()
        )
    })
}

/// Collects, in name order, the mail files of a folder and of its subfolders;
/// a subfolder that is a Maildir or a public-inbox archive is kept whole (it is
/// opened as such), any other subfolder is walked, down to
/// [`MAX_FOLDER_DEPTH`] levels. Hidden entries are skipped; a symlink is
/// followed, but a folder or file reached a second time is not taken again.
fn walk_mail_folder(root: &Path) -> Result<Walk> {
    use std::os::unix::fs::MetadataExt;
    let mut walk = Walk::default();
    let meta = std::fs::metadata(root).map_err(|source| Error::Io {
        path: root.to_path_buf(),
        source,
    })?;
    walk.seen.insert((meta.dev(), meta.ino()));
    walk_folder(root, 0, &mut walk)?;
    // A folder too deep on one path but walked from a shorter one was read.
    let Walk { too_deep, seen, .. } = &mut walk;
    too_deep.retain(|p| std::fs::metadata(p).is_ok_and(|m| !seen.contains(&(m.dev(), m.ino()))));
    Ok(walk)
}

fn walk_folder(dir: &Path, depth: u32, walk: &mut Walk) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .collect();
    paths.sort();
    for p in paths {
        // Follows symlinks; a dangling one named as mail is taken, so that
        // opening it fails with its name (no mail is lost without a word),
        // any other is skipped.
        let Ok(meta) = std::fs::metadata(&p) else {
            if p.file_name()
                .is_some_and(|n| detect::is_mail_file_name(&n.to_string_lossy()))
            {
                walk.files.push(p);
            }
            continue;
        };
        let key = (meta.dev(), meta.ino());
        if meta.is_dir() {
            if walk.seen.contains(&key) {
                continue;
            }
            match detect::dir_kind(&p) {
                Some(DirKind::MailFolder) | None if depth < MAX_FOLDER_DEPTH => {
                    walk.seen.insert(key);
                    walk_folder(&p, depth + 1, walk)?
                }
                Some(DirKind::MailFolder) | None => walk.too_deep.push(p),
                Some(_) => {
                    walk.seen.insert(key);
                    walk.files.push(p)
                }
            }
        } else if meta.is_file()
            && (p
                .file_name()
                .is_some_and(|n| detect::is_mail_file_name(&n.to_string_lossy()))
                || starts_like_mail(&p))
            && walk.seen.insert(key)
        {
            walk.files.push(p);
        }
    }
    Ok(())
}

/// True when the first bytes of a file are mail ([`detect::looks_like_mail`]);
/// a file that cannot be read is not (it is no mail file by name either).
fn starts_like_mail(path: &Path) -> bool {
    let mut head = Vec::with_capacity(4096);
    File::open(path)
        .and_then(|f| f.take(4096).read_to_end(&mut head))
        .is_ok_and(|_| detect::looks_like_mail(&head))
}

/// Regular files of a folder whose names pass `keep`, sorted by name.
fn list_files(dir: &Path, keep: impl Fn(&str) -> bool) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut files = Vec::new();
    for entry in entries.flatten() {
        let p = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if name.starts_with('.') || !p.is_file() || !keep(&name) {
            continue;
        }
        files.push(p);
    }
    files.sort();
    Ok(files)
}

/// The messages of each file (or nested Maildir / public-inbox folder) in turn;
/// one that cannot be opened is one error.
fn files_stream(files: Vec<PathBuf>) -> RawStream {
    Box::new(files.into_iter().flat_map(|f| -> RawStream {
        let opened = if f.is_dir() {
            open_dir(&f)
        } else {
            open_file(&f)
        };
        match opened {
            Ok(s) => s,
            Err(e) => Box::new(std::iter::once(Err(e))),
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    const MAIL: &[u8] = b"From: a@example.org\nSubject: x\nMessage-ID: <x@y>\n\nbody\n";

    /// Runs `f` on another thread; fails when it takes more than 20 s.
    fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(std::time::Duration::from_secs(20))
            .expect("the folder walk did not finish in 20 s")
    }

    #[test]
    fn symlink_loops_are_followed_once() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::write(root.join("a/b/one.eml"), MAIL).unwrap();
        // Three loops back to the root and its folders: each was walked
        // down every path to the depth cap (3^16 paths).
        symlink(&root, root.join("a/b/up")).unwrap();
        symlink(root.join("a"), root.join("a/b/to_a")).unwrap();
        symlink(root.join("a/b"), root.join("a/b/self")).unwrap();
        // The same file under a second name is read once.
        symlink(root.join("a/b/one.eml"), root.join("a/again.eml")).unwrap();
        let walk = within(move || walk_mail_folder(&root).unwrap());
        assert_eq!(walk.files.len(), 1, "{:?}", walk.files);
        assert!(walk.too_deep.is_empty(), "{:?}", walk.too_deep);
    }

    #[test]
    fn files_deeper_than_the_cap_are_named_in_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let mut deep = dir.path().to_path_buf();
        for i in 0..MAX_FOLDER_DEPTH + 3 {
            deep.push(format!("d{i}"));
            if i == 4 {
                std::fs::create_dir_all(&deep).unwrap();
                std::fs::write(deep.join("found.eml"), MAIL).unwrap();
            }
        }
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("deep.eml"), MAIL).unwrap();
        let items: Vec<Result<RawMessage>> = open_dir(dir.path()).unwrap().collect();
        assert_eq!(items.len(), 2);
        assert!(items[0].is_ok());
        let err = items[1].as_ref().unwrap_err().to_string();
        assert!(err.contains("more than 16 levels of folders"), "{err}");
        // A folder with nothing but too-deep mail says so in its error.
        std::fs::remove_file(dir.path().join("d0/d1/d2/d3/d4/found.eml")).unwrap();
        let err = open_dir(dir.path()).err().unwrap().to_string();
        assert!(
            err.contains("within 16 levels of folders (1 deeper"),
            "{err}"
        );
    }

    #[test]
    fn a_truncated_gzip_mbox_gives_the_messages_before_the_cut_then_its_error() {
        let mut mbox = Vec::new();
        for i in 0..40 {
            mbox.extend_from_slice(
                format!(
                    "From a@b Mon Jan  1 00:00:00 2024\nFrom: a@b\nSubject: s{i}\n\
                     Message-ID: <m{i}@x>\n\n{}\n",
                    format!("body of message {i} with words\n").repeat(20)
                )
                .as_bytes(),
            );
        }
        let gz = gzip(&mbox);
        let cut = &gz[..gz.len() / 2];
        let items: Vec<_> = open_reader(
            Box::new(Cursor::new(cut.to_vec())),
            Place::File("t.mbox.gz".into()),
            Path::new("t.mbox.gz"),
            0,
        )
        .expect("the first bytes inflate")
        .collect();
        let read = items.iter().filter(|r| r.is_ok()).count();
        assert!((2..40).contains(&read), "{read} messages before the cut");
        let last = items.last().unwrap();
        assert!(last.is_err(), "the cut is said last");
        assert!(items[..items.len() - 1].iter().all(|r| r.is_ok()));
    }

    #[test]
    fn gzip_inside_gzip_is_inflated_once_and_stays_one_message() {
        let mbox = b"From a Mon Sep 17 00:00:00 2001\nSubject: x\n\nbody\n";
        let once = gzip(mbox);
        let twice = gzip(&once);
        let open = |data: Vec<u8>| read_all(data, "t.gz");
        let msgs = open(once.clone());
        assert_eq!(msgs.len(), 1);
        assert_eq!(msgs[0].bytes, b"Subject: x\n\nbody\n");
        let msgs = open(twice);
        assert_eq!(msgs.len(), 1);
        assert_eq!(msgs[0].bytes, once);
    }

    /// Every message of `data` read from standard input named `name`.
    fn read_all(data: Vec<u8>, name: &str) -> Vec<RawMessage> {
        open_reader(
            Box::new(Cursor::new(data)),
            Place::Stdin,
            Path::new(name),
            0,
        )
        .unwrap()
        .map(|r| r.unwrap())
        .collect()
    }

    #[test]
    fn lines_ending_in_cr_alone_are_read_as_lines() {
        let mbox = b"From a Mon Sep 17 00:00:00 2001\rSubject: one\r\rbody\r\rFrom b Mon Sep 17 00:00:00 2001\rSubject: two\r\rmore\r";
        let msgs = read_all(mbox.to_vec(), "mac.mbox");
        assert_eq!(msgs.len(), 2);
        assert_eq!(msgs[0].bytes, b"Subject: one\n\nbody\n");
        assert_eq!(msgs[1].bytes, b"Subject: two\n\nmore\n");
        // CRLF input keeps its bytes.
        let crlf = b"From a Mon Sep 17 00:00:00 2001\r\nSubject: one\r\n\r\nbody\r\n";
        let msgs = read_all(crlf.to_vec(), "dos.mbox");
        assert_eq!(msgs[0].bytes, b"Subject: one\r\n\r\nbody\r\n");
    }
}
