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
/// up to about 1000, so a second one let a 10 KB file inflate to 4 GB (12 s of
/// work); gzip inside gzip is not an archive format, it stays one message.
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
    (&mut reader)
        .take(HEAD_SIZE as u64)
        .read_to_end(&mut head)
        .map_err(io_err)?;
    if head.is_empty() {
        return Err(Error::Unrecognised {
            path: path.to_path_buf(),
            reason: "empty input".into(),
        });
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
            Ok(files_stream(files))
        }
        Some(DirKind::PublicInboxV2) | Some(DirKind::GitRepo) => super::open_git(path),
        Some(DirKind::MailFolder) | None => {
            let mut files = Vec::new();
            walk_mail_folder(path, 0, &mut files)?;
            if files.is_empty() {
                return Err(Error::Unrecognised {
                    path: path.to_path_buf(),
                    reason: "a folder with no Maildir (cur/, new/), no public-inbox (git/0.git, \
                             HEAD + objects/) and no mail files (.eml, .mbox, .gz, .txt)"
                        .into(),
                });
            }
            Ok(files_stream(files))
        }
    }
}

/// How deep a folder of mail folders is walked.
const MAX_FOLDER_DEPTH: u32 = 16;

/// Collects, in name order, the mail files of a folder and of its subfolders;
/// a subfolder that is a Maildir or a public-inbox archive is kept whole (it is
/// opened as such), any other subfolder is walked. Hidden entries are skipped.
fn walk_mail_folder(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) -> Result<()> {
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
        if p.is_dir() {
            match detect::dir_kind(&p) {
                Some(DirKind::MailFolder) | None if depth < MAX_FOLDER_DEPTH => {
                    walk_mail_folder(&p, depth + 1, out)?
                }
                Some(DirKind::MailFolder) | None => {}
                Some(_) => out.push(p),
            }
        } else if p.is_file()
            && p.file_name()
                .is_some_and(|n| detect::is_mail_file_name(&n.to_string_lossy()))
        {
            out.push(p);
        }
    }
    Ok(())
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

    #[test]
    fn gzip_inside_gzip_is_inflated_once_and_stays_one_message() {
        let mbox = b"From a Mon Sep 17 00:00:00 2001\nSubject: x\n\nbody\n";
        let once = gzip(mbox);
        let twice = gzip(&once);
        let open = |data: Vec<u8>| -> Vec<RawMessage> {
            open_reader(
                Box::new(Cursor::new(data)),
                Place::Stdin,
                Path::new("t.gz"),
                0,
            )
            .unwrap()
            .map(|r| r.unwrap())
            .collect()
        };
        let msgs = open(once.clone());
        assert_eq!(msgs.len(), 1);
        assert_eq!(msgs[0].bytes, b"Subject: x\n\nbody\n");
        let msgs = open(twice);
        assert_eq!(msgs.len(), 1);
        assert_eq!(msgs[0].bytes, once);
    }
}
