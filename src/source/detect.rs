//! Input detection by content, never by name.
//!
//! A file's first bytes decide: gzip magic, a `From ` separator line (mbox), a
//! very long first line holding header fields (whitespace-collapsed), a header
//! field (one RFC 822 message), an `[Name <email>]` author line or
//! `[-- Attachment #` marker (archive-rendered text). A folder is a Maildir
//! (`cur/`, `new/`), a v2 public-inbox (`git/N.git`), a bare epoch repository
//! (`HEAD` + `objects/`), or a folder of mail files.

use std::path::Path;

use super::mbox::{is_from_line, leading_blank};

/// What a file's first bytes look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// gzip-compressed data (detected again after decompression).
    Gzip,
    /// An mbox (first line is a `From ` separator).
    Mbox,
    /// One or more whitespace-collapsed messages, one per line.
    Collapsed,
    /// One RFC 822 message (or something that should be one).
    Single,
    /// Archive-rendered text.
    Rendered,
}

/// What a folder is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirKind {
    /// A Maildir (`cur/` and/or `new/`).
    Maildir,
    /// A v2 public-inbox folder with `git/N.git` epochs.
    PublicInboxV2,
    /// One bare git repository (a public-inbox epoch, or v1 inbox).
    GitRepo,
    /// A folder of mail files: `.eml`, `.mbox`, `.mbx`, `.msg`, `.gz`,
    /// `.txt`, `.patch`, and any other file whose first bytes are mail (an
    /// MH folder's numbered files).
    MailFolder,
}

/// Length of a line past which a text is no longer plain mail (RFC 5322 allows 998).
const LONG_LINE: usize = 2000;

/// Classifies the first bytes of a file.
pub fn file_kind(head: &[u8]) -> FileKind {
    if head.starts_with(&[0x1f, 0x8b]) {
        return FileKind::Gzip;
    }
    let text = head.get(leading_blank(head)..).unwrap_or_default();
    let first_len = memchr::memchr(b'\n', text).unwrap_or(text.len());
    let first = text.get(..first_len).unwrap_or_default();
    if first_len > LONG_LINE && has_collapsed_fields(first) {
        return FileKind::Collapsed;
    }
    if is_from_line(text) {
        return FileKind::Mbox;
    }
    if looks_rendered(text) {
        return FileKind::Rendered;
    }
    if is_header_line(first) {
        return FileKind::Single;
    }
    FileKind::Single
}

fn has_collapsed_fields(line: &[u8]) -> bool {
    let probe = line.get(..line.len().min(64 * 1024)).unwrap_or_default();
    [
        &b" Subject: "[..],
        b" Message-ID: ",
        b" Message-Id: ",
        b" From: ",
        b" Date: ",
    ]
    .iter()
    .filter(|needle| memchr::memmem::find(probe, needle).is_some())
    .count()
        >= 2
}

/// `Name: value` with a printable, colon-free field name.
pub fn is_header_line(line: &[u8]) -> bool {
    match memchr::memchr(b':', line) {
        Some(0) | None => false,
        Some(colon) => line
            .get(..colon)
            .unwrap_or_default()
            .iter()
            .all(|&c| c.is_ascii_graphic()),
    }
}

/// An author line `[... <a@b>]` among the first lines, or an attachment marker.
fn looks_rendered(text: &[u8]) -> bool {
    let probe = text.get(..text.len().min(16 * 1024)).unwrap_or_default();
    if memchr::memmem::find(probe, b"\n[-- Attachment #").is_some() {
        return true;
    }
    probe.split(|&b| b == b'\n').skip(1).take(6).any(|l| {
        let l = l.strip_suffix(b"\r").unwrap_or(l);
        l.starts_with(b"[") && l.ends_with(b">]") && memchr::memchr(b'@', l).is_some()
    })
}

/// Classifies a folder.
pub fn dir_kind(path: &Path) -> Option<DirKind> {
    if path.join("cur").is_dir() || path.join("new").is_dir() {
        return Some(DirKind::Maildir);
    }
    if path.join("git").join("0.git").is_dir() {
        return Some(DirKind::PublicInboxV2);
    }
    if path.join("HEAD").is_file() && path.join("objects").is_dir() {
        return Some(DirKind::GitRepo);
    }
    if path.join(".git").exists() {
        return Some(DirKind::GitRepo);
    }
    Some(DirKind::MailFolder)
}

/// True when a file's first bytes are mail whatever its name: an mbox
/// `From ` line (`git format-patch` writes one at the top of each
/// `0001-....patch`), or a header block naming at least two of the fields
/// every mail has (From, Date, Subject, Message-ID, To, Received,
/// Return-Path), as an MH folder's numbered files and a mail client's
/// saved messages do. A text that merely starts with `key: value` is not.
pub fn looks_like_mail(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if is_from_line(head) {
        return true;
    }
    let mut fields = 0;
    for line in head.split(|&b| b == b'\n').take(64) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            break;
        }
        if line.starts_with(b" ") || line.starts_with(b"\t") {
            continue;
        }
        if !is_header_line(line) {
            return false;
        }
        let name = line.split(|&b| b == b':').next().unwrap_or_default();
        if [
            &b"from"[..],
            b"date",
            b"subject",
            b"message-id",
            b"to",
            b"received",
            b"return-path",
        ]
        .iter()
        .any(|f| name.eq_ignore_ascii_case(f))
        {
            fields += 1;
        }
    }
    fields >= 2
}

/// File names a mail folder takes without looking inside (other files are
/// taken when [`looks_like_mail`]).
pub fn is_mail_file_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [".eml", ".mbox", ".gz", ".txt", ".msg", ".mbx", ".patch"]
        .iter()
        .any(|e| n.ends_with(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mail_is_told_by_its_first_bytes_whatever_the_name() {
        assert!(looks_like_mail(
            b"From 0123456789abcdef Mon Sep 17 00:00:00 2001\nFrom: a@b\n"
        ));
        assert!(looks_like_mail(
            b"Return-Path: <a@b>\nX-Spam: no\nReceived: from x\n\tby y\nSubject: s\n\nbody"
        ));
        assert!(!looks_like_mail(b"status: open\nowner: me\n\nlater\n"));
        assert!(!looks_like_mail(b"Subject: only one field\n\nbody"));
        assert!(!looks_like_mail(
            b"// SPDX-License-Identifier: GPL-2.0\nFrom: a\nDate: b\n"
        ));
        assert!(!looks_like_mail(&[0, 159, 146, 150]));
    }

    #[test]
    fn files_are_told_apart_by_their_first_bytes() {
        assert_eq!(file_kind(&[0x1f, 0x8b, 8, 0]), FileKind::Gzip);
        assert_eq!(
            file_kind(b"From mboxrd@z Thu Jan  1 00:00:00 1970\nSubject: x\n"),
            FileKind::Mbox
        );
        assert_eq!(
            file_kind(b"Received-SPF: pass\nSubject: x\n\nbody"),
            FileKind::Single
        );
        assert_eq!(
            file_kind(b"Re: [xfs] abc: x\n\n[Dave <d@e.org>]\n\nbody\n"),
            FileKind::Rendered
        );
        let mut collapsed = b"From mboxrd@z Thu Jan 1 00:00:00 1970 Return-Path: ".to_vec();
        collapsed.extend(std::iter::repeat_n(b'x', 3000));
        collapsed.extend_from_slice(b" Subject: hi Message-ID: <a@b> body");
        assert_eq!(file_kind(&collapsed), FileKind::Collapsed);
        assert_eq!(file_kind(b"no headers at all\n"), FileKind::Single);
    }
}
