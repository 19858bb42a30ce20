//! Turning an answer's body into an mbox: sniffing (gzip, mbox, HTML), gunzipping under
//! limits, counting and splitting messages.

use std::cell::{Cell, RefCell};
use std::io::{self, Read};

use flate2::read::MultiGzDecoder;

use super::error::{LoreError, Result};

/// Limits on one answer (a thread, or a whole search across its pages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most messages kept. Default 20,000.
    pub max_messages: usize,
    /// Most decompressed bytes kept. Default 512 MiB.
    pub max_bytes: u64,
    /// Past a limit, keep the messages before it and say so in [`Mbox::partial`]
    /// (`true`), or fail with [`LoreError::TooLarge`] (`false`, the default).
    pub partial_ok: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_messages: 20_000,
            max_bytes: 512 << 20,
            partial_ok: false,
        }
    }
}

/// Why an [`Mbox`] holds only the first part of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Partial {
    /// More messages than [`Limits::max_messages`] (the limit given).
    Messages(usize),
    /// More bytes than [`Limits::max_bytes`] (the limit given).
    Bytes(u64),
}

/// An mboxrd as public-inbox serves it, one `From mboxrd@z ...` line per message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mbox {
    /// The URL answered (a search's first page for a search).
    pub url: String,
    /// The mbox bytes, decompressed; whole messages only.
    pub bytes: Vec<u8>,
    /// How many messages `bytes` holds.
    pub messages: usize,
    /// `Some` when a limit cut the answer: `bytes` then holds the messages before it.
    pub partial: Option<Partial>,
    /// Whether the answer came from the cache, with no request made.
    pub from_cache: bool,
}

impl Mbox {
    /// An mbox of no messages (an empty search).
    pub fn empty(url: &str) -> Mbox {
        Mbox {
            url: url.to_string(),
            bytes: Vec::new(),
            messages: 0,
            partial: None,
            from_cache: false,
        }
    }

    /// Each message's bytes, its `From ` line included.
    pub fn split(&self) -> Vec<&[u8]> {
        split_messages(&self.bytes)
    }

    /// The Message-ID of each message (without `<>`), `None` for one without.
    pub fn message_ids(&self) -> Vec<Option<String>> {
        self.split().into_iter().map(message_id).collect()
    }
}

/// What [`decode`] found in a body.
pub(crate) struct Decoded {
    pub bytes: Vec<u8>,
    pub messages: usize,
    pub partial: Option<Partial>,
}

/// Whether `head` (the first bytes of a body) is an HTML page.
pub(crate) fn looks_html(head: &[u8]) -> bool {
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let head = &head[start..head.len().min(start + 64)];
    let lower = head.to_ascii_lowercase();
    lower.starts_with(b"<!doctype html")
        || lower.starts_with(b"<html")
        || lower.starts_with(b"<head")
}

/// The `<title>` of an HTML page, or its first words.
pub(crate) fn html_title(page: &[u8]) -> String {
    let text = String::from_utf8_lossy(&page[..page.len().min(16 << 10)]);
    let lower = text.to_ascii_lowercase();
    if let (Some(a), Some(b)) = (lower.find("<title>"), lower.find("</title>")) {
        if a + 7 <= b {
            return text[a + 7..b]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
        }
    }
    String::new()
}

/// A reader that remembers the last error of the reader under it, so a decoder's
/// complaint can be told apart from a network failure.
struct Watch<'a, R> {
    inner: R,
    read: &'a Cell<u64>,
    error: &'a RefCell<Option<(io::ErrorKind, String)>>,
}

impl<R: Read> Read for Watch<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(n) => {
                self.read.set(self.read.get() + n as u64);
                Ok(n)
            }
            Err(e) => {
                *self.error.borrow_mut() = Some((e.kind(), e.to_string()));
                Err(e)
            }
        }
    }
}

/// Maps a read failure of the body to an error naming `url`.
fn read_error(
    url: &str,
    received: u64,
    net: Option<(io::ErrorKind, String)>,
    e: io::Error,
) -> LoreError {
    let (kind, text) = net.unwrap_or((e.kind(), e.to_string()));
    match kind {
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => LoreError::Timeout {
            url: url.to_string(),
            reason: format!(
                "no data for longer than the read timeout after {received} bytes: {text}"
            ),
        },
        io::ErrorKind::UnexpectedEof
        | io::ErrorKind::ConnectionReset
        | io::ErrorKind::ConnectionAborted
        | io::ErrorKind::BrokenPipe => LoreError::Truncated {
            url: url.to_string(),
            received,
            reason: text,
        },
        io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput => LoreError::NotMbox {
            url: url.to_string(),
            reason: format!("corrupt gzip after {received} bytes: {text}"),
        },
        _ => LoreError::Http {
            url: url.to_string(),
            reason: format!("reading the answer after {received} bytes: {text}"),
        },
    }
}

/// Reads a body (gzip, or plain mbox) into whole messages under `limits`.
/// `on_bytes` is told the running count of body bytes read.
pub(crate) fn decode<R: Read>(
    url: &str,
    src: R,
    limits: Limits,
    on_bytes: &mut dyn FnMut(u64),
) -> Result<Decoded> {
    let read = Cell::new(0u64);
    let error = RefCell::new(None);
    let mut src = Watch {
        inner: src,
        read: &read,
        error: &error,
    };
    let mut head = Vec::with_capacity(512);
    if let Err(e) = (&mut src).take(512).read_to_end(&mut head) {
        return Err(read_error(url, read.get(), error.take(), e));
    }
    if head.is_empty() {
        return Ok(Decoded {
            bytes: Vec::new(),
            messages: 0,
            partial: None,
        });
    }
    if looks_html(&head) {
        let _ = (&mut src).take(16 << 10).read_to_end(&mut head);
        return Err(LoreError::Html {
            url: url.to_string(),
            status: 200,
            title: html_title(&head),
        });
    }
    let gzip = head.starts_with(&[0x1f, 0x8b]);
    if !gzip && !head.starts_with(b"From ") {
        let shown: String = String::from_utf8_lossy(&head[..head.len().min(60)])
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        return Err(LoreError::NotMbox {
            url: url.to_string(),
            reason: format!("starts with neither gzip nor a 'From ' line: {shown:?}"),
        });
    }
    let chained = io::Cursor::new(head).chain(&mut src);
    let mut reader: Box<dyn Read + '_> = if gzip {
        Box::new(MultiGzDecoder::new(chained))
    } else {
        Box::new(chained)
    };
    let mut out: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; 64 << 10];
    let mut messages = 0usize;
    let mut line_start = 0usize; // start of the line being scanned
    let mut starts: Vec<usize> = Vec::new(); // where each message begins
    let mut partial = None;
    let mut checked = false;
    'read: loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => return Err(read_error(url, read.get(), error.take(), e)),
        };
        on_bytes(read.get());
        let scan_from = out.len();
        // Never more than one byte past the limit: a gzip bomb stops here,
        // not after doubling the buffer past it.
        let room = limits
            .max_bytes
            .saturating_add(1)
            .saturating_sub(out.len() as u64);
        let take = n.min(usize::try_from(room).unwrap_or(usize::MAX));
        if out.len() + take > out.capacity() && out.len() + take > (16 << 20) {
            // Past 16 MiB the whole limit is reserved at once: address space
            // only, pages are taken as they are written, and no reallocation
            // ever holds the old buffer and a bigger one together.
            let cap = usize::try_from(limits.max_bytes.saturating_add(1)).unwrap_or(usize::MAX);
            out.reserve_exact(cap.max(out.len() + take) - out.len());
        }
        out.extend_from_slice(&buf[..take]);
        if !checked && out.len() >= 5 {
            checked = true;
        }
        if checked && scan_from < 5 && !out.starts_with(b"From ") {
            if looks_html(&out) {
                return Err(LoreError::Html {
                    url: url.to_string(),
                    status: 200,
                    title: html_title(&out),
                });
            }
            return Err(LoreError::NotMbox {
                url: url.to_string(),
                reason: "the gzip holds no mbox (no 'From ' line first)".to_string(),
            });
        }
        let mut at = scan_from.max(line_start);
        while let Some(p) = memchr::memchr(b'\n', &out[at..]) {
            let nl = at + p;
            if out[line_start..nl].starts_with(b"From ") {
                if messages == limits.max_messages {
                    out.truncate(line_start);
                    partial = Some(Partial::Messages(limits.max_messages));
                    break 'read;
                }
                messages += 1;
                starts.push(line_start);
            }
            line_start = nl + 1;
            at = nl + 1;
        }
        if out.len() as u64 > limits.max_bytes {
            // Keep the messages that end within the limit: those before the last
            // start at or below it (the message from there on is incomplete or over).
            let keep = starts.partition_point(|&s| s as u64 <= limits.max_bytes);
            let keep = keep.saturating_sub(1);
            out.truncate(starts.get(keep).copied().unwrap_or(0));
            messages = keep;
            partial = Some(Partial::Bytes(limits.max_bytes));
            break;
        }
    }
    if partial.is_none() && line_start < out.len() && out[line_start..].starts_with(b"From ") {
        messages += 1; // a last line with no newline
    }
    if let Some(p) = partial {
        if !limits.partial_ok {
            return Err(LoreError::TooLarge {
                url: url.to_string(),
                limit: match p {
                    Partial::Messages(n) => format!("{n} messages"),
                    Partial::Bytes(n) => format!("{n} bytes"),
                },
            });
        }
    }
    Ok(Decoded {
        bytes: out,
        messages,
        partial,
    })
}

/// Splits an mboxrd at its `From ` lines (body lines starting so are `>From `-quoted).
pub fn split_messages(mbox: &[u8]) -> Vec<&[u8]> {
    let mut starts = Vec::new();
    let mut pos = 0;
    while pos < mbox.len() {
        if mbox[pos..].starts_with(b"From ") {
            starts.push(pos);
        }
        match memchr::memchr(b'\n', &mbox[pos..]) {
            Some(p) => pos += p + 1,
            None => break,
        }
    }
    let mut out = Vec::with_capacity(starts.len());
    for (i, &s) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(mbox.len());
        out.push(&mbox[s..end]);
    }
    out
}

/// The Message-ID of one message (its header, folded lines joined), without `<>`.
pub fn message_id(msg: &[u8]) -> Option<String> {
    let mut lines = msg.split(|&b| b == b'\n').skip(1); // the From line
    let mut value: Option<Vec<u8>> = None;
    for line in lines.by_ref() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            break;
        }
        if let Some(v) = value.as_mut() {
            if line[0] == b' ' || line[0] == b'\t' {
                v.extend_from_slice(line);
                continue;
            }
            break;
        }
        if line.len() >= 11 && line[..11].eq_ignore_ascii_case(b"message-id:") {
            value = Some(line[11..].to_vec());
        }
    }
    let value = String::from_utf8_lossy(&value?).into_owned();
    let v = value.trim();
    let id = match (v.find('<'), v.rfind('>')) {
        (Some(a), Some(b)) if a < b => &v[a + 1..b],
        _ => v,
    };
    let id = id.trim();
    (!id.is_empty()).then(|| id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn msg(id: &str) -> String {
        format!(
            "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: kernel test robot <oliver.sang@intel.com>\n\
             Message-ID:\n <{id}>\nSubject: [linus:master] [ext4] 1234abcd: fsmark.files_per_sec -6.3% regression\n\n\
             Hello,\n\n>From the report: quoted From line\n"
        )
    }

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn run(body: &[u8], limits: Limits) -> Result<Decoded> {
        decode("http://127.0.0.1/x", body, limits, &mut |_| {})
    }

    #[test]
    fn gzip_and_plain() {
        let mbox = format!("{}{}", msg("a@x"), msg("b@x"));
        for body in [gz(mbox.as_bytes()), mbox.clone().into_bytes()] {
            let d = run(&body, Limits::default()).unwrap();
            assert_eq!(d.messages, 2);
            assert_eq!(d.bytes, mbox.as_bytes());
            assert_eq!(d.partial, None);
        }
        let m = Mbox {
            url: String::new(),
            bytes: mbox.into_bytes(),
            messages: 2,
            partial: None,
            from_cache: false,
        };
        assert_eq!(
            m.message_ids(),
            vec![Some("a@x".to_string()), Some("b@x".to_string())]
        );
    }

    #[test]
    fn cut_gzip_is_an_error() {
        let mbox: String = (0..50).map(|i| msg(&format!("{i}@x"))).collect();
        let body = gz(mbox.as_bytes());
        for cut in [body.len() - 4, body.len() / 2, 12] {
            match run(&body[..cut], Limits::default()) {
                Err(LoreError::Truncated { .. }) => {}
                other => panic!("cut at {cut}: {:?}", other.map(|d| d.messages)),
            }
        }
    }

    #[test]
    fn limits_cut_at_message_boundaries() {
        let mbox: String = (0..10).map(|i| msg(&format!("{i}@x"))).collect();
        let one = msg("0@x").len();
        let limits = Limits {
            max_messages: 3,
            max_bytes: u64::MAX,
            partial_ok: true,
        };
        let d = run(&gz(mbox.as_bytes()), limits).unwrap();
        assert_eq!((d.messages, d.partial), (3, Some(Partial::Messages(3))));
        assert_eq!(d.bytes.len(), 3 * one);
        let limits = Limits {
            max_messages: 100,
            max_bytes: (one * 4 + 10) as u64,
            partial_ok: true,
        };
        let d = run(mbox.as_bytes(), limits).unwrap();
        assert_eq!(d.partial, Some(Partial::Bytes(limits.max_bytes)));
        assert_eq!(split_messages(&d.bytes).len(), d.messages);
        assert!(d.bytes.len() as u64 <= limits.max_bytes);
        assert!(d.bytes.ends_with(b"quoted From line\n"));
        let strict = Limits {
            partial_ok: false,
            ..limits
        };
        assert!(matches!(
            run(mbox.as_bytes(), strict),
            Err(LoreError::TooLarge { .. })
        ));
    }

    #[test]
    fn html_and_junk() {
        let page = b"<!DOCTYPE html>\n<html><head><title>public-inbox  error</title></head></html>";
        match run(page, Limits::default()) {
            Err(LoreError::Html { title, .. }) => assert_eq!(title, "public-inbox error"),
            other => panic!("{:?}", other.map(|d| d.messages)),
        }
        assert!(matches!(
            run(&gz(page), Limits::default()),
            Err(LoreError::Html { .. })
        ));
        assert!(matches!(
            run(b"{\"json\": 1}", Limits::default()),
            Err(LoreError::NotMbox { .. })
        ));
        assert_eq!(run(b"", Limits::default()).unwrap().messages, 0);
    }

    #[test]
    fn message_id_forms() {
        assert_eq!(
            message_id(b"From x\nMessage-Id: <a@b>\n\n").as_deref(),
            Some("a@b")
        );
        assert_eq!(
            message_id(b"From x\nmessage-id:a@b\n\nMessage-ID: <c@d>\n"),
            Some("a@b".into())
        );
        assert_eq!(
            message_id(b"From x\nSubject: y\n\nMessage-ID: <c@d>\n"),
            None
        );
    }
}
