//! Streaming mbox reader (mboxrd and mboxo), LF or CRLF, with or without the
//! blank line between messages.
//!
//! The reader fills a buffer with large reads, finds message separators with
//! `memchr::memmem`, and yields each message with its `From ` line removed and
//! the `>From ` quoting undone. A message with nothing to undo is a range of
//! the buffer, shared rather than copied ([`RawBytes`]); the next read then
//! goes to another buffer (the rest of a partial message is carried over), and
//! buffers whose messages have all been dropped are read into again, so that
//! their pages stay mapped. The quoting rules:
//! - mboxrd (detected by the `From mboxrd@z` line lore writes): every line
//!   matching `>+From ` loses one `>`;
//! - mboxo: only `>From ` lines lose their `>` (deeper quoting is ambiguous
//!   and left alone).
//!
//! A separator is a line starting with `From ` that carries a time (`12:34`)
//! or `mboxrd@z`, so an unquoted body line such as `From the report we see`
//! does not split a message. Memory is bounded by the largest message: a
//! message above [`MAX_MESSAGE`] bytes is skipped and reported as an error.
//!
//! Written here rather than taken from `mbox-reader` (0.2): that crate maps
//! the whole file, splits at every line starting `From ` (a body's `From the
//! report ...` too) with a byte-at-a-time scan, and undoes no quoting.

use std::io::Read;
use std::ops::Range;
use std::sync::Arc;

use memchr::memmem;

use crate::error::{Error, Result};
use crate::model::{Origin, RawBytes, RawFormat, RawMessage};

/// Largest message the reader holds in memory; larger ones become errors.
pub const MAX_MESSAGE: usize = 32 << 20;

/// Size of each read from the underlying reader.
const READ_SIZE: usize = 4 << 20;

/// Buffers kept for reuse once their messages are dropped. Messages wait in
/// the ingest pipeline until their batch is parsed (the batch being read,
/// one waiting, the one being parsed: a few reads' worth), so this many
/// spare buffers leave room to spare; a buffer retired beyond it, or grown
/// for a message larger than a read, is simply freed.
const SPARE_BUFFERS: usize = 12;

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
    /// Bytes read and not yet dropped; yielded messages share it.
    buf: Arc<Vec<u8>>,
    /// Earlier buffers, read into again once no message shares them.
    spare: Vec<Arc<Vec<u8>>>,
    /// Buffers allocated so far (not reused ones).
    allocated: usize,
    /// Start of the current message in `buf`.
    start: usize,
    /// Where the separator search resumes in `buf`.
    scan: usize,
    /// Stream offset of `buf[0]`.
    base: u64,
    eof: bool,
    quoting: Option<Quoting>,
    /// Bytes of the oversized message being skipped, if any.
    skipping: Option<(u64, u64)>,
    /// A read error that ended the stream, and the stream offset where it
    /// struck: said once the messages read before it are yielded.
    pending: Option<(std::io::Error, u64)>,
}

impl<R: Read> MboxReader<R> {
    /// A reader over `reader`; `initial` holds bytes already read (detection).
    pub fn new(reader: R, initial: Vec<u8>, place: Place) -> Self {
        MboxReader {
            reader,
            place,
            buf: Arc::new(initial),
            spare: Vec::new(),
            allocated: 0,
            start: 0,
            scan: 0,
            base: 0,
            eof: false,
            quoting: None,
            skipping: None,
            pending: None,
        }
    }

    /// The quoting in use, once the first message has been seen.
    pub fn quoting(&self) -> Option<Quoting> {
        self.quoting
    }

    /// Reads up to [`READ_SIZE`] more bytes after those in `buf`. When a
    /// message yielded earlier still shares `buf`, the bytes from `start` on
    /// move to another buffer first (a spare one whose messages are all
    /// dropped, else a new one). A read error ends the stream: what was
    /// read before it (a corrupt or cut gzip member, junk after the last one)
    /// is mail like any, and the error is said after its messages.
    fn fill(&mut self) {
        let mut buf = match Arc::try_unwrap(std::mem::take(&mut self.buf)) {
            Ok(mut own) => {
                if self.start > 0 && self.start >= own.len() / 2 {
                    own.drain(..self.start);
                    self.rebase();
                }
                own
            }
            Err(shared) => {
                let rest = shared.get(self.start..).unwrap_or_default();
                let mut own = self.spare_buffer(rest.len() + READ_SIZE);
                own.extend_from_slice(rest);
                self.rebase();
                if self.spare.len() < SPARE_BUFFERS && shared.capacity() <= 3 * READ_SIZE {
                    self.spare.push(shared);
                }
                own
            }
        };
        buf.reserve(READ_SIZE);
        let read = loop {
            match (&mut self.reader)
                .take(READ_SIZE as u64)
                .read_to_end(&mut buf)
            {
                Ok(n) => break Ok(n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => break Err(e),
            }
        };
        self.buf = Arc::new(buf);
        match read {
            Ok(n) if n > 0 => {}
            Ok(_) => self.eof = true,
            Err(e) => {
                self.pending = Some((e, self.base + self.buf.len() as u64));
                self.eof = true;
            }
        }
    }

    /// Moves the origin of `buf` to `start` (its bytes before it are gone).
    fn rebase(&mut self) {
        self.base += self.start as u64;
        self.scan -= self.start;
        self.start = 0;
    }

    /// An empty buffer with room for `need` bytes: a spare one that no
    /// message shares any more, else a new one.
    fn spare_buffer(&mut self, need: usize) -> Vec<u8> {
        let free = self.spare.iter().position(|b| Arc::strong_count(b) == 1);
        if let Some(Ok(mut own)) = free.map(|i| Arc::try_unwrap(self.spare.swap_remove(i))) {
            own.clear();
            own.reserve(need);
            return own;
        }
        self.allocated += 1;
        Vec::with_capacity(need)
    }

    /// How many read buffers the reader has allocated (the first included
    /// when it was shared): with messages dropped as they are read, a couple
    /// for a whole archive.
    pub fn buffers_allocated(&self) -> usize {
        self.allocated
    }

    /// The next raw message chunk (its offset, and its range in `buf`,
    /// `From ` line included), or an error for an oversized message.
    fn next_range(&mut self) -> Option<Result<(u64, Range<usize>)>> {
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
            self.fill();
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
                let range = self.start..end;
                self.start = end;
                self.scan = end + 1;
                return Some(Ok((offset, range)));
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
                let range = self.start..end;
                self.start = end;
                self.scan = end;
                return Some(Ok((offset, range)));
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
                // The next fill drops them.
                self.start = keep;
                self.scan = keep;
            }
            self.fill();
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
        let Some(next) = self.next_range() else {
            let (e, at) = self.pending.take()?;
            return Some(Err(Error::Message {
                origin: self.place.origin(at).describe(),
                reason: format!(
                    "the input ends in a read error ({e}); the messages before it were read"
                ),
            }));
        };
        let (offset, range) = match next {
            Ok(c) => c,
            Err(e) => return Some(Err(e)),
        };
        let chunk = self.buf.get(range.clone()).unwrap_or_default();
        let quoting = *self.quoting.get_or_insert_with(|| quoting_of(chunk));
        let bytes = match unquote(chunk, quoting) {
            Unquoted::Within(within) => RawBytes::shared(
                &self.buf,
                range.start + within.start..range.start + within.end,
            ),
            Unquoted::Copied(bytes) => RawBytes::from(bytes),
        };
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
    // A byte-order mark or white space before the first `From ` line (an
    // editor's or a concatenation's) is no message: the line after it is
    // the first separator, as [`crate::source::detect`] judged the file.
    let lead = leading_blank(hay);
    let line = hay.get(lead..).unwrap_or_default();
    if is_from_line(line) && (complete || memchr::memchr(b'\n', line).is_some()) {
        return Some(lead);
    }
    first_separator_after_newline(hay, complete)
}

/// Length of a UTF-8 byte-order mark and the blank (line ends, spaces,
/// tabs) after it at the start of `hay`: what is skipped before a file's
/// first line is judged, by [`crate::source::detect::file_kind`] as by the
/// splitter.
pub(crate) fn leading_blank(hay: &[u8]) -> usize {
    let bom = hay.strip_prefix(b"\xEF\xBB\xBF").map_or(0, |_| 3);
    bom + hay
        .get(bom..)
        .unwrap_or_default()
        .iter()
        .take_while(|b| matches!(b, b'\n' | b'\r' | b' ' | b'\t'))
        .count()
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

/// The starts of the lines of `msg` that quote a `From ` line (`>From `,
/// and for mboxrd `>>From ` and deeper), in order.
///
/// Found from `From ` back to the start of its line: `From ` is rare in mail
/// where `\n>` (every quoted line of a reply) is not.
fn quoted_from_lines(msg: &[u8], quoting: Quoting) -> impl Iterator<Item = usize> + '_ {
    memmem::find_iter(msg, b"From ").filter_map(move |p| {
        let before = msg.get(..p).unwrap_or_default();
        let quotes = before.iter().rev().take_while(|&&b| b == b'>').count();
        let ls = p - quotes;
        let at_line_start = ls == 0 || before.get(ls - 1) == Some(&b'\n');
        (quotes > 0 && at_line_start && (quoting == Quoting::Rd || quotes == 1)).then_some(ls)
    })
}

/// A message with its `From ` line and quoting undone: where it lies in its
/// chunk when nothing was quoted, else a copy with the quotes removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unquoted {
    /// The message is this range of the chunk.
    Within(Range<usize>),
    /// The message, unquoted.
    Copied(Vec<u8>),
}

/// Drops the `From ` line, undoes the quoting, and removes the one blank line
/// that separates messages; copies only when a line was quoted.
pub fn unquote(chunk: &[u8], quoting: Quoting) -> Unquoted {
    let body_start = memchr::memchr(b'\n', chunk).map_or(chunk.len(), |p| p + 1);
    let msg = chunk.get(body_start..).unwrap_or_default();
    let quoted = quoted_from_lines(msg, quoting);
    let mut out: Option<Vec<u8>> = None;
    let mut last = 0;
    for ls in quoted {
        let out = out.get_or_insert_with(|| Vec::with_capacity(msg.len()));
        out.extend_from_slice(msg.get(last..ls).unwrap_or_default());
        last = ls + 1;
    }
    let separator = |m: &[u8]| {
        if m.ends_with(b"\r\n\r\n") {
            2
        } else if m.ends_with(b"\n\n") {
            1
        } else {
            0
        }
    };
    match out {
        None => Unquoted::Within(body_start..chunk.len() - separator(msg)),
        Some(mut out) => {
            out.extend_from_slice(msg.get(last..).unwrap_or_default());
            out.truncate(out.len() - separator(&out));
            Unquoted::Copied(out)
        }
    }
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
    fn a_byte_order_mark_or_blank_before_the_first_from_line_loses_no_message() {
        let mbox = b"From a Mon Sep 17 00:00:00 2001\nSubject: 1\n\nx\nFrom b Mon Sep 17 00:00:00 2001\nSubject: 2\n\ny\n";
        for lead in [
            &b"\xEF\xBB\xBF"[..],
            b" ",
            b"\n\n \t\r\n",
            b"\xEF\xBB\xBF\n",
        ] {
            let data = [lead, &mbox[..]].concat();
            let msgs = split(&data);
            assert_eq!(msgs.len(), 2, "{lead:?}");
            assert_eq!(msgs[0].bytes, b"Subject: 1\n\nx\n", "{lead:?}");
        }
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
    fn only_quoted_messages_are_copied() {
        let plain = b"From x Mon Sep 17 00:00:00 2001\nSubject: a\n\nFrom here\n\n";
        assert_eq!(unquote(plain, Quoting::O), Unquoted::Within(32..54));
        assert_eq!(&plain[32..54], b"Subject: a\n\nFrom here\n");
        let quoted = b"From x Mon Sep 17 00:00:00 2001\nSubject: a\n\n>From here\n\n";
        assert_eq!(
            unquote(quoted, Quoting::O),
            Unquoted::Copied(b"Subject: a\n\nFrom here\n".to_vec())
        );
        // mboxo leaves deeper quoting alone: nothing to copy.
        let deep = b"From x Mon Sep 17 00:00:00 2001\nSubject: a\n\n>>From here\r\n\r\n";
        assert_eq!(unquote(deep, Quoting::O), Unquoted::Within(32..57));
        assert_eq!(&deep[32..57], b"Subject: a\n\n>>From here\r\n");
        assert!(matches!(unquote(deep, Quoting::Rd), Unquoted::Copied(_)));
    }

    /// An mbox of `n` messages of about 10 KB, the `i`th quoting a `From `
    /// line when `i % 7 == 0`.
    fn big_mbox(n: usize) -> (Vec<u8>, Vec<Vec<u8>>) {
        let mut data = Vec::new();
        let mut want = Vec::new();
        for i in 0..n {
            let filler = format!("line {i} of filler text\n").repeat(400);
            let (stored, expected) = if i % 7 == 0 {
                (">From the top\n", "From the top\n")
            } else {
                ("From the top, no time\n", "From the top, no time\n")
            };
            let head = format!("Subject: {i}\n\n{filler}");
            data.extend_from_slice(b"From x Mon Sep 17 00:00:00 2001\n");
            data.extend_from_slice(head.as_bytes());
            data.extend_from_slice(stored.as_bytes());
            data.extend_from_slice(b"\n");
            want.push([head.as_bytes(), expected.as_bytes()].concat());
        }
        (data, want)
    }

    #[test]
    fn messages_held_across_reads_keep_their_bytes() {
        let (data, want) = big_mbox(2000);
        assert!(data.len() > 4 * READ_SIZE);
        let mut reader = MboxReader::new(&data[..], Vec::new(), Place::Stdin);
        let msgs: Vec<RawMessage> = reader.by_ref().map(|r| r.unwrap()).collect();
        assert_eq!(msgs.len(), want.len());
        for (m, w) in msgs.iter().zip(&want) {
            assert_eq!(m.bytes, *w);
        }
        // Every read went to a new buffer: the held messages share them all.
        assert!(reader.buffers_allocated() >= data.len() / READ_SIZE);
    }

    #[test]
    fn buffers_are_read_into_again_once_their_messages_are_dropped() {
        let (data, want) = big_mbox(4000);
        assert!(data.len() > 8 * READ_SIZE);
        let mut reader = MboxReader::new(&data[..], Vec::new(), Place::Stdin);
        // Messages are held a while, as in a batch of the ingest pipeline:
        // each read finds the buffer shared, later ones find spares free.
        let mut held = std::collections::VecDeque::new();
        let mut n = 0;
        for (m, w) in reader.by_ref().zip(&want) {
            let m = m.unwrap();
            assert_eq!(m.bytes, *w);
            held.push_back(m);
            if held.len() > 600 {
                held.pop_front();
            }
            n += 1;
        }
        assert_eq!(n, want.len());
        assert!(
            held.iter()
                .zip(&want[n - held.len()..])
                .all(|(m, w)| m.bytes == *w)
        );
        assert!(
            reader.buffers_allocated() <= 4,
            "{} buffers",
            reader.buffers_allocated()
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

    /// The quoted `From ` lines by their definition: every line start, its
    /// `>` run counted forwards.
    fn quoted_from_lines_reference(msg: &[u8], quoting: Quoting) -> Vec<usize> {
        std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', msg).map(|p| p + 1))
            .filter(|&ls| {
                let line = msg.get(ls..).unwrap_or_default();
                let quotes = line.iter().take_while(|&&b| b == b'>').count();
                quotes > 0
                    && line.get(quotes..).unwrap_or_default().starts_with(b"From ")
                    && (quoting == Quoting::Rd || quotes == 1)
            })
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn quoted_from_lines_agree_with_their_definition(
            s in "((>{0,3}|[a ]?>)(From |From|Fro|x)[ >a]{0,3}\n?){0,12}"
        ) {
            for quoting in [Quoting::O, Quoting::Rd] {
                let ours: Vec<usize> = quoted_from_lines(s.as_bytes(), quoting).collect();
                proptest::prop_assert_eq!(ours, quoted_from_lines_reference(s.as_bytes(), quoting));
            }
        }
    }
}
