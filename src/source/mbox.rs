//! Streaming mbox reader (mboxrd and mboxo), LF or CRLF, with or without the
//! blank line between messages.
//!
//! The reader keeps one growing buffer filled with large reads, finds message
//! separators with `memchr::memmem`, and yields each message with its `From `
//! line removed and the `>From ` quoting undone:
//! - mboxrd (detected by the `From mboxrd@z` line lore writes): every line
//!   matching `>+From ` loses one `>`;
//! - mboxo: only `>From ` lines lose their `>` (deeper quoting is ambiguous
//!   and left alone).
//!
//! A separator is a line starting with `From ` that carries a time (`12:34`)
//! or `mboxrd@z`, so an unquoted body line such as `From the report we see`
//! does not split a message. Memory is bounded by the largest message: a
//! message above [`MAX_MESSAGE`] bytes is skipped and reported as an error.

use std::io::Read;

use memchr::memmem;

use crate::error::{Error, Result};
use crate::model::{Origin, RawFormat, RawMessage};

/// Largest message the reader holds in memory; larger ones become errors.
pub const MAX_MESSAGE: usize = 32 << 20;

/// Size of each read from the underlying reader.
const READ_SIZE: usize = 4 << 20;

/// How the `>From ` quoting of a mbox is undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quoting {
    /// mboxrd: `>+From ` loses one `>`.
    Rd,
    /// mboxo: only `>From ` loses its `>`.
    O,
}

/// Where messages of a stream come from, for their [`Origin`].
#[derive(Debug, Clone)]
pub enum Place {
    /// A file path.
    File(String),
    /// Standard input.
    Stdin,
}

impl Place {
    fn origin(&self, offset: u64) -> Origin {
        match self {
            Place::File(path) => Origin::File {
                path: path.clone(),
                offset,
            },
            Place::Stdin => Origin::Stdin { offset },
        }
    }
}

/// Iterator over the messages of an mbox stream.
pub struct MboxReader<R> {
    reader: R,
    place: Place,
    buf: Vec<u8>,
    /// Start of the current message in `buf`.
    start: usize,
    /// Where the separator search resumes in `buf`.
    scan: usize,
    /// Stream offset of `buf[0]`.
    base: u64,
    eof: bool,
    quoting: Option<Quoting>,
    /// Set when a read error ended the stream.
    failed: bool,
    /// Bytes of the oversized message being skipped, if any.
    skipping: Option<(u64, u64)>,
}

impl<R: Read> MboxReader<R> {
    /// A reader over `reader`; `initial` holds bytes already read (detection).
    pub fn new(reader: R, initial: Vec<u8>, place: Place) -> Self {
        MboxReader {
            reader,
            place,
            buf: initial,
            start: 0,
            scan: 0,
            base: 0,
            eof: false,
            quoting: None,
            failed: false,
            skipping: None,
        }
    }

    /// The quoting in use, once the first message has been seen.
    pub fn quoting(&self) -> Option<Quoting> {
        self.quoting
    }

    fn fill(&mut self) -> std::io::Result<usize> {
        if self.start > 0 && self.start >= self.buf.len() / 2 {
            self.buf.drain(..self.start);
            self.base += self.start as u64;
            self.scan -= self.start;
            self.start = 0;
        }
        let n = loop {
            match (&mut self.reader)
                .take(READ_SIZE as u64)
                .read_to_end(&mut self.buf)
            {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        if n == 0 {
            self.eof = true;
        }
        Ok(n)
    }

    /// The next raw message chunk (its offset, and what `take` makes of its
    /// bytes, `From ` line included, read in place), or an error for an
    /// oversized message or a read failure.
    fn next_chunk_with<T>(&mut self, take: impl FnOnce(&[u8]) -> T) -> Option<Result<(u64, T)>> {
        if self.failed {
            return None;
        }
        // Skip anything before the first `From ` line (blank lines, junk).
        loop {
            let rest = self.buf.get(self.start..).unwrap_or_default();
            if let Some(p) = first_separator(rest, self.eof) {
                if p > 0 {
                    self.start += p;
                }
                break;
            }
            if self.eof {
                self.start = self.buf.len();
                return None;
            }
            // Keep only a possible partial line.
            let keep_from = self
                .buf
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(self.start, |p| (p + 1).max(self.start));
            self.start = keep_from;
            self.scan = self.start;
            if let Err(e) = self.fill() {
                return Some(Err(self.read_error(e)));
            }
        }
        if self.scan < self.start + 1 {
            self.scan = self.start + 1;
        }
        loop {
            let hay = self.buf.get(self.scan..).unwrap_or_default();
            if let Some(p) = first_separator_after_newline(hay, self.eof) {
                let end = self.scan + p;
                let offset = self.base + self.start as u64;
                if let Some((skip_off, skipped)) = self.skipping.take() {
                    self.start = end;
                    self.scan = end + 1;
                    return Some(Err(too_large(&self.place, skip_off, skipped + end as u64)));
                }
                let taken = take(self.buf.get(self.start..end).unwrap_or_default());
                self.start = end;
                self.scan = end + 1;
                if self.buf.len() > READ_SIZE * 2 && self.start == self.buf.len() {
                    self.buf.clear();
                    self.base += self.start as u64;
                    self.start = 0;
                    self.scan = 0;
                }
                return Some(Ok((offset, taken)));
            }
            if self.eof {
                let offset = self.base + self.start as u64;
                let end = self.buf.len();
                if let Some((skip_off, skipped)) = self.skipping.take() {
                    self.start = end;
                    return Some(Err(too_large(&self.place, skip_off, skipped + end as u64)));
                }
                if end <= self.start {
                    return None;
                }
                let taken = take(self.buf.get(self.start..end).unwrap_or_default());
                self.start = end;
                self.scan = end;
                return Some(Ok((offset, taken)));
            }
            // Resume the search a few bytes back so a separator split across reads is found.
            let tail_from = self.buf.len().saturating_sub(1000);
            let last_nl = self
                .buf
                .get(tail_from..)
                .unwrap_or_default()
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(tail_from, |p| tail_from + p);
            self.scan = self
                .buf
                .len()
                .saturating_sub(6)
                .min(last_nl)
                .max(self.start + 1);
            if self.buf.len() - self.start > MAX_MESSAGE {
                // Drop the oversized message's bytes, remembering where it began.
                let keep = self.buf.len().saturating_sub(6).max(self.start + 1);
                let dropped = keep - self.start;
                let entry = self
                    .skipping
                    .get_or_insert((self.base + self.start as u64, 0));
                entry.1 += dropped as u64;
                self.buf.drain(..keep);
                self.base += keep as u64;
                self.start = 0;
                self.scan = 0;
            }
            if let Err(e) = self.fill() {
                return Some(Err(self.read_error(e)));
            }
        }
    }

    fn read_error(&mut self, e: std::io::Error) -> Error {
        self.failed = true;
        let path = match &self.place {
            Place::File(p) => p.clone(),
            Place::Stdin => "<stdin>".into(),
        };
        Error::Io {
            path: path.into(),
            source: e,
        }
    }
}

fn too_large(place: &Place, offset: u64, size: u64) -> Error {
    Error::Message {
        origin: place.origin(offset).describe(),
        reason: format!("message of {size} bytes is larger than the {MAX_MESSAGE} byte limit"),
    }
}

impl<R: Read> Iterator for MboxReader<R> {
    type Item = Result<RawMessage>;

    fn next(&mut self) -> Option<Self::Item> {
        let known = self.quoting;
        let (offset, (bytes, quoting)) = match self.next_chunk_with(|chunk| {
            let quoting = known.unwrap_or_else(|| quoting_of(chunk));
            (unquote_message(chunk, quoting), quoting)
        })? {
            Ok(c) => c,
            Err(e) => return Some(Err(e)),
        };
        self.quoting = Some(quoting);
        Some(Ok(RawMessage {
            origin: self.place.origin(offset),
            bytes,
            format: RawFormat::Rfc822,
        }))
    }
}

/// mboxrd when the first `From ` line is lore's `From mboxrd@z`, else mboxo.
pub fn quoting_of(first_chunk: &[u8]) -> Quoting {
    if first_chunk.starts_with(b"From mboxrd@z ") {
        Quoting::Rd
    } else {
        Quoting::O
    }
}

/// True for a `From ` separator line (the bytes from `From ` to the line end).
pub fn is_from_line(line: &[u8]) -> bool {
    if !line.starts_with(b"From ") {
        return false;
    }
    let end = memchr::memchr(b'\n', line).unwrap_or(line.len()).min(1000);
    let line = line.get(..end).unwrap_or_default();
    if line.starts_with(b"From mboxrd@z") {
        return true;
    }
    // A time such as 12:34 or 1:23.
    line.windows(3).any(|w| {
        w.first().is_some_and(u8::is_ascii_digit)
            && w.get(1) == Some(&b':')
            && w.get(2).is_some_and(u8::is_ascii_digit)
    })
}

/// Position of the first separator line in `hay` (line starts only).
fn first_separator(hay: &[u8], complete: bool) -> Option<usize> {
    if is_from_line(hay) && (complete || memchr::memchr(b'\n', hay).is_some()) {
        return Some(0);
    }
    first_separator_after_newline(hay, complete)
}

/// Position (just after a `\n`) of the first separator line in `hay`.
/// When `complete` is false, a partial last line is not judged yet.
fn first_separator_after_newline(hay: &[u8], complete: bool) -> Option<usize> {
    static FINDER: std::sync::LazyLock<memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memmem::Finder::new(b"\nFrom "));
    let mut pos = 0;
    while let Some(p) = FINDER.find(hay.get(pos..)?) {
        let line_start = pos + p + 1;
        let line = hay.get(line_start..).unwrap_or_default();
        // The whole line must be present to judge it; a partial line at the
        // end of the buffer is judged after the next read.
        if !complete && memchr::memchr(b'\n', line).is_none() && line.len() < 1000 {
            return None;
        }
        if is_from_line(line) {
            return Some(line_start);
        }
        pos = line_start;
    }
    None
}

/// Drops the `From ` line, undoes the quoting, and removes the one blank line
/// that separates messages.
pub fn unquote_message(chunk: &[u8], quoting: Quoting) -> Vec<u8> {
    let body_start = memchr::memchr(b'\n', chunk).map_or(chunk.len(), |p| p + 1);
    let msg = chunk.get(body_start..).unwrap_or_default();
    let mut out = Vec::with_capacity(msg.len());
    let mut last = 0;
    let mut line_starts = std::iter::once(0).chain(memmem::find_iter(msg, b"\n>").map(|p| p + 1));
    for ls in line_starts.by_ref() {
        let line = msg.get(ls..).unwrap_or_default();
        let quotes = line.iter().take_while(|&&b| b == b'>').count();
        if quotes == 0 || !line.get(quotes..).unwrap_or_default().starts_with(b"From ") {
            continue;
        }
        if quoting == Quoting::O && quotes != 1 {
            continue;
        }
        out.extend_from_slice(msg.get(last..ls).unwrap_or_default());
        last = ls + 1;
    }
    out.extend_from_slice(msg.get(last..).unwrap_or_default());
    if out.ends_with(b"\r\n\r\n") {
        out.truncate(out.len() - 2);
    } else if out.ends_with(b"\n\n") {
        out.truncate(out.len() - 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(data: &[u8]) -> Vec<RawMessage> {
        MboxReader::new(data, Vec::new(), Place::File("t.mbox".into()))
            .map(|r| r.unwrap())
            .collect()
    }

    #[test]
    fn mboxrd_quoting_is_undone_one_level() {
        let data =
            b"From mboxrd@z Thu Jan  1 00:00:00 1970\nSubject: a\n\n>From here\n>>From there\n\n";
        let msgs = split(data);
        assert_eq!(msgs.len(), 1);
        assert_eq!(msgs[0].bytes, b"Subject: a\n\nFrom here\n>From there\n");
    }

    #[test]
    fn mboxo_quoting_only_undoes_single_quotes() {
        let data = b"From joe Mon Sep 17 00:00:00 2001\nSubject: a\n\n>From here\n>>From there\n";
        let msgs = split(data);
        assert_eq!(msgs[0].bytes, b"Subject: a\n\nFrom here\n>>From there\n");
    }

    #[test]
    fn messages_split_with_and_without_blank_lines_and_crlf() {
        let data = b"From a Mon Sep 17 00:00:00 2001\r\nSubject: 1\r\n\r\nx\r\n\r\nFrom b Mon Sep 17 00:00:00 2001\r\nSubject: 2\r\n\r\ny\r\nFrom c Mon Sep 17 00:00:00 2001\nSubject: 3\n\nFrom the start, no split\nz";
        let msgs = split(data);
        assert_eq!(msgs.len(), 3);
        assert_eq!(msgs[0].bytes, b"Subject: 1\r\n\r\nx\r\n");
        assert_eq!(msgs[1].bytes, b"Subject: 2\r\n\r\ny\r\n");
        assert_eq!(msgs[2].bytes, b"Subject: 3\n\nFrom the start, no split\nz");
        assert_eq!(
            msgs[1].origin,
            Origin::File {
                path: "t.mbox".into(),
                offset: 52
            }
        );
    }

    #[test]
    fn small_reads_find_the_same_messages() {
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
                let n = self.0.len().min(3).min(out.len());
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut data = Vec::new();
        for i in 0..50 {
            data.extend_from_slice(
                format!("From x Mon Sep 17 00:00:00 2001\nSubject: {i}\n\nbody {i}\n\n").as_bytes(),
            );
        }
        let msgs: Vec<_> = MboxReader::new(Trickle(&data), Vec::new(), Place::Stdin)
            .map(|r| r.unwrap())
            .collect();
        assert_eq!(msgs.len(), 50);
        assert_eq!(msgs[49].bytes, b"Subject: 49\n\nbody 49\n");
    }
}
