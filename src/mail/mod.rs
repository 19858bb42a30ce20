//! Turns a [`RawMessage`] into a decoded [`Message`]: headers, MIME decoding,
//! charset conversion to UTF-8, and recovery of archive-rendered and
//! whitespace-collapsed messages.
//!
//! - [`RawFormat::Rfc822`] goes through mail-parser (`rfc822.rs`).
//! - [`RawFormat::Rendered`] (subject line, `[Name <email>]`, attachment
//!   markers) is read by `rendered.rs`.
//! - [`RawFormat::Collapsed`] (a whole message on one line) is read by
//!   `collapsed.rs`, which rebuilds a header block and hands it to `rfc822.rs`.
//!
//! Every message gets a Message-ID: when none is present a stable one is derived
//! from the content (`derived-<blake3 prefix>@regtrack`) and
//! [`Message::message_id_derived`] is set.

mod collapsed;
pub mod copies;
pub mod msgid;
mod rendered;
mod rfc822;
pub mod subject;

use crate::error::{Error, Result};
use crate::model::{Message, RawFormat, RawMessage};

/// Parses one raw message.
pub fn parse(raw: &RawMessage) -> Result<Message> {
    let fail = |reason: String| Error::Message {
        origin: raw.origin.describe(),
        reason,
    };
    if raw.bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(fail("empty message".into()));
    }
    let mut msg = match raw.format {
        RawFormat::Rfc822 => rfc822::parse(&raw.bytes),
        RawFormat::Rendered => rendered::parse(&raw.bytes),
        RawFormat::Collapsed => collapsed::parse(&raw.bytes),
    }
    .map_err(fail)?;
    // A file that names no sender, date, subject or Message-ID (a password
    // file a symlink led to, a note, a log) is not mail: storing it under a
    // derived id would serve it back with `mail --raw`.
    if msg.message_id.trim().is_empty()
        && msg.subject.trim().is_empty()
        && msg.from_email.is_none()
        && msg.from_name.is_none()
        && msg.date.is_none()
    {
        return Err(fail(
            "not mail: no From, Date, Subject or Message-ID header".into(),
        ));
    }
    msg.raw_size = raw.bytes.len() as u64;
    finish(&mut msg, &raw.bytes);
    Ok(msg)
}

/// Fills the derived fields: Message-ID when missing, and the content hash.
fn finish(msg: &mut Message, raw: &[u8]) {
    if msg.message_id.trim().is_empty() {
        let hash = normalized_hash(raw);
        msg.message_id = format!("derived-{}@regtrack", &hash[..32]);
        msg.message_id_derived = true;
    }
    msg.content_hash = content_hash(msg);
}

/// Hash of what makes a message's content: subject, sender, date and body.
/// Headers added by list servers (Received, List-Id, footers aside) do not
/// change it, so one message seen on several lists hashes the same.
fn content_hash(msg: &Message) -> String {
    // The hashed bytes are gathered first: one `update` of the whole lets
    // blake3 hash many chunks at once (line by line it hashed one block at a
    // time, at a third of the speed). The bytes, hence the hashes, are as before.
    let subject = msg.subject.trim().as_bytes();
    let from = msg.from_email.as_deref().unwrap_or("").as_bytes();
    let mut buf = Vec::with_capacity(subject.len() + from.len() + msg.body.len() + 16);
    buf.extend_from_slice(subject);
    buf.push(0);
    buf.extend_from_slice(from);
    buf.push(0);
    buf.extend_from_slice(msg.date.unwrap_or(0).to_le_bytes().as_slice());
    buf.push(0);
    // `body.trim_end().lines()`, each line `trim_end()`ed, in one memchr pass
    // (`text::raw_lines`): a line ending in a visible ASCII byte (nearly every
    // line) needs no trim.
    for raw in crate::text::raw_lines(msg.body.trim_end()) {
        let line = raw.strip_suffix('\n').unwrap_or(raw);
        let line = match line.as_bytes().last() {
            Some(b) if b.is_ascii_graphic() => line,
            _ => line.trim_end(),
        };
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
    }
    blake3::hash(&buf).to_hex().to_string()
}

/// Hash of raw bytes with CRLF folded to LF and trailing white space ignored.
fn normalized_hash(raw: &[u8]) -> String {
    let mut h = blake3::Hasher::new();
    let end = raw
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |p| p + 1);
    let trimmed = raw.get(..end).unwrap_or_default();
    for piece in trimmed.split(|&b| b == b'\r') {
        h.update(piece);
    }
    h.finalize().to_hex().to_string()
}

/// Strips one pair of angle brackets and white space around a Message-ID,
/// and the white space inside it, as ingest stores it (a header's
/// `<a b@x>` is `ab@x`): so a Message-ID copied from a header finds its
/// message.
pub fn clean_id(s: &str) -> String {
    let t = s.trim();
    let t = t.strip_prefix('<').unwrap_or(t);
    let t = t.strip_suffix('>').unwrap_or(t);
    let t = t.trim();
    if t.contains(char::is_whitespace) {
        t.split_whitespace().collect()
    } else {
        t.to_string()
    }
}

/// All `<id>` tokens of a References-like value, in order (bare tokens when
/// there are no brackets).
pub(crate) fn ids_in(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.contains('<') {
        let mut rest = s;
        while let Some(a) = rest.find('<') {
            let after = rest.get(a + 1..).unwrap_or("");
            match after.find('>') {
                Some(b) => {
                    let id = after.get(..b).unwrap_or("").trim();
                    if !id.is_empty() && !id.contains(char::is_whitespace) {
                        out.push(id.to_string());
                    }
                    rest = after.get(b + 1..).unwrap_or("");
                }
                None => break,
            }
        }
    } else {
        out.extend(
            s.split_whitespace()
                .filter(|t| t.contains('@'))
                .map(str::to_string),
        );
    }
    out
}

/// A List-ID from a `List-Id` value (`Name <id>` or `<id>`), or from the vger
/// `X-Mailing-List: list@vger.kernel.org` header (mapped to `list.vger.kernel.org`).
pub(crate) fn list_id_from(value: &str, x_mailing_list: bool) -> Option<String> {
    let v = value.trim();
    if x_mailing_list {
        let addr = v.split_whitespace().next()?;
        let addr = clean_id(addr);
        let (local, domain) = addr.split_once('@')?;
        if local.is_empty() || domain.is_empty() {
            return None;
        }
        return Some(format!("{local}.{domain}").to_ascii_lowercase());
    }
    let id = match (v.rfind('<'), v.rfind('>')) {
        (Some(a), Some(b)) if a < b => v.get(a + 1..b).unwrap_or(""),
        _ => v,
    };
    let id = id.trim();
    if id.is_empty() || id.contains(char::is_whitespace) {
        None
    } else {
        Some(id.to_ascii_lowercase())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_id_is_cleaned_as_ingest_stores_it() {
        assert_eq!(clean_id(" <a b@x> "), "ab@x");
        assert_eq!(clean_id("<m@x>"), "m@x");
        assert_eq!(clean_id("m@x"), "m@x");
        let raw = b"From: a@b\nSubject: s\nMessage-ID: <a b@x>\n\nbody\n";
        let m = parse(&RawMessage {
            bytes: raw.to_vec().into(),
            origin: crate::model::Origin::File {
                path: "t.eml".into(),
                offset: 0,
            },
            format: crate::model::RawFormat::Rfc822,
        })
        .expect("mail");
        assert_eq!(clean_id("<a b@x>"), m.message_id);
    }

    /// The content hash as first defined (line by line): stored databases
    /// compare new copies against it, so it must never change.
    fn content_hash_v1(msg: &Message) -> String {
        let mut h = blake3::Hasher::new();
        h.update(msg.subject.trim().as_bytes());
        h.update(b"\0");
        h.update(msg.from_email.as_deref().unwrap_or("").as_bytes());
        h.update(b"\0");
        h.update(msg.date.unwrap_or(0).to_le_bytes().as_slice());
        h.update(b"\0");
        for line in msg.body.trim_end().lines() {
            h.update(line.trim_end().as_bytes());
            h.update(b"\n");
        }
        h.finalize().to_hex().to_string()
    }

    #[test]
    fn the_content_hash_is_the_line_by_line_hash_it_always_was() {
        let bodies = [
            String::new(),
            "one line".to_string(),
            "trailing  \r\nspaces\t\n\n\n".to_string(),
            "  14484  -6.3%  13568  fsmark.files_per_sec\n".repeat(2000),
            "caf\u{e9} \u{b1} 2%\r\n\r\n> quoted\n".repeat(300),
            "no-break\u{a0}\nem\u{2003}\r\n\u{3000}\nbare\rcr\r\nlast\r".to_string(),
            " \n\n x".to_string(),
            "\n".to_string(),
        ];
        for (i, body) in bodies.iter().enumerate() {
            let msg = Message {
                message_id: format!("m{i}@x"),
                message_id_derived: false,
                subject: format!("  [ext4] subject {i} "),
                from_name: None,
                from_email: (i % 2 == 0).then(|| "lkp@intel.com".to_string()),
                date: (i % 3 != 0).then_some(1_700_000_000 + i as i64),
                in_reply_to: None,
                references: Vec::new(),
                list_ids: Vec::new(),
                body: body.clone(),
                parts: Vec::new(),
                content_hash: String::new(),
                raw_size: 0,
            };
            assert_eq!(content_hash(&msg), content_hash_v1(&msg), "body {i}");
        }
    }

    #[test]
    fn ids_are_read_in_order_with_or_without_brackets() {
        assert_eq!(ids_in("<a@b> <c@d>\n <e@f>"), vec!["a@b", "c@d", "e@f"]);
        assert_eq!(ids_in("a@b c@d"), vec!["a@b", "c@d"]);
        assert_eq!(ids_in("<broken"), Vec::<String>::new());
    }

    #[test]
    fn list_ids_come_from_list_id_or_x_mailing_list() {
        assert_eq!(
            list_id_from("<linux-ext4.vger.kernel.org>", false).as_deref(),
            Some("linux-ext4.vger.kernel.org")
        );
        assert_eq!(
            list_id_from(
                "Jfs discussion <jfs-discussion.lists.sourceforge.net>",
                false
            )
            .as_deref(),
            Some("jfs-discussion.lists.sourceforge.net")
        );
        assert_eq!(
            list_id_from("linux-kernel@vger.kernel.org", true).as_deref(),
            Some("linux-kernel.vger.kernel.org")
        );
        assert_eq!(list_id_from("", false), None);
    }
}
