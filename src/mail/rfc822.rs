//! RFC 5322 / MIME messages through mail-parser: headers, decoded text parts
//! (text attachments such as patches included), charset conversion to UTF-8.
//!
//! Two decoders are written here rather than taken from mail-parser, for a
//! message that is one text/plain part: its quoted-printable
//! ([`quoted_printable`]) and its base64 ([`base64_body`]). mail-parser's
//! decode a byte at a time, and only after a whole parse; these copy the
//! runs between `=` and line ends whole and decode base64 four characters
//! at a time, byte for byte the same result (tests compare them with
//! mail-parser's on generated input), in about two thirds of the time
//! (benches/README.md, "Bulk ingest").

use std::borrow::Cow;

use mail_parser::{HeaderName, MessageParser, MimeHeaders, PartType};

use super::{clean_id, ids_in, list_id_from};
use crate::model::{BodyPart, Message};

/// How deep nested `message/rfc822` parts are followed.
const MAX_NESTED_MESSAGES: u32 = 4;

/// The header fields regtrack reads structurally: MIME (to decode parts),
/// Date, Subject, From and Sender. Every other field (Received, DKIM, To,
/// Cc, ...: most of a kernel mail's header block) is only delimited, not
/// decoded or copied.
static PARSER: std::sync::LazyLock<MessageParser> = std::sync::LazyLock::new(|| {
    MessageParser::new()
        .with_mime_headers()
        .header_date(HeaderName::Date)
        .header_text(HeaderName::Subject)
        .header_address(HeaderName::From)
        .header_address(HeaderName::Sender)
        // What regtrack reads of Message-ID, In-Reply-To, References and
        // List-Id comes from `headers_raw`, which slices the raw bytes
        // whatever the parse mode.
        .default_header_ignore()
});

/// Parses raw RFC 5322 bytes; the error is a human reason.
pub(super) fn parse(bytes: &[u8]) -> Result<Message, String> {
    parse_with(bytes, true)
}

/// [`parse`]; `fast` false parses every message whole as it came (tests
/// compare the two).
fn parse_with(bytes: &[u8], fast: bool) -> Result<Message, String> {
    if !starts_with_header(bytes) {
        return Err("no header block: the message does not start with a header field".into());
    }
    // mail-parser reads only the header fields regtrack uses (a kernel mail's
    // header block is mostly Received, DKIM and ARC lines). Most list mail is
    // then one text/plain part in 7bit or 8bit: its body is the raw text
    // after the header block, or that text in quoted-printable or base64
    // (see `plain_body`). Anything else is parsed whole, after the shortened
    // header block.
    let head = fast.then(|| read_head(bytes)).flatten();
    let rest = head.as_ref().and_then(|h| bytes.get(h.body_start..));
    let plain = head
        .as_ref()
        .zip(rest)
        .and_then(|(h, rest)| plain_parse(h, rest));
    let whole: Vec<u8>;
    let (parsed, plain) = match plain {
        Some((parsed, text)) => (parsed, Some(text)),
        None => {
            let input = match (head, rest) {
                (Some(h), Some(rest)) => {
                    let mut v = h.kept;
                    v.extend_from_slice(rest);
                    whole = v;
                    &whole[..]
                }
                _ => bytes,
            };
            let parsed = PARSER
                .parse(input)
                .ok_or_else(|| "mail-parser could not read the message".to_string())?;
            (parsed, None)
        }
    };

    let mut message_id = String::new();
    let mut in_reply_to = None;
    let mut references = Vec::new();
    let mut list_ids: Vec<String> = Vec::new();
    // Read only when no List-Id names a list (vger sends both).
    let mut x_mailing_list: Vec<&str> = Vec::new();
    for (name, value) in parsed.headers_raw() {
        if name.eq_ignore_ascii_case("Message-ID") && message_id.is_empty() {
            message_id = ids_in(value)
                .into_iter()
                .next()
                .unwrap_or_else(|| clean_id(value));
        } else if name.eq_ignore_ascii_case("In-Reply-To") && in_reply_to.is_none() {
            in_reply_to = ids_in(value).into_iter().next();
        } else if name.eq_ignore_ascii_case("References") && references.is_empty() {
            references = ids_in(value);
        } else if name.eq_ignore_ascii_case("List-Id") {
            if let Some(id) = list_id_from(value, false) {
                if !list_ids.contains(&id) {
                    list_ids.push(id);
                }
            }
        } else if name.eq_ignore_ascii_case("X-Mailing-List") {
            x_mailing_list.push(value);
        }
    }
    if list_ids.is_empty() {
        for id in x_mailing_list
            .into_iter()
            .filter_map(|v| list_id_from(v, true))
        {
            if !list_ids.contains(&id) {
                list_ids.push(id);
            }
        }
    }
    if message_id.contains(char::is_whitespace) {
        message_id = message_id.split_whitespace().collect::<Vec<_>>().join("");
    }

    let subject = parsed.subject().map(unfold).map(capped).unwrap_or_default();
    let from = parsed
        .from()
        .or_else(|| parsed.sender())
        .and_then(|a| a.first());
    let from_name = from
        .and_then(|a| a.name())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    let from_email = from
        .and_then(|a| a.address())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    let date = date_of_field(parsed.header_raw(HeaderName::Date).unwrap_or(""))
        .or_else(|| {
            parsed
                .date()
                .filter(|d| possible_date(d, parsed.header_raw(HeaderName::Date).unwrap_or("")))
                .map(|d| d.to_timestamp())
        })
        .filter(|t| (FIRST_POSSIBLE..4_102_444_800).contains(t));

    let mut body = String::new();
    let mut parts = Vec::new();
    match (plain, parsed.parts.first()) {
        (Some(text), Some(root)) => push_part(
            &mut body,
            &mut parts,
            content_type(root),
            root.attachment_name(),
            &text,
        ),
        _ => collect_text(&parsed, &mut body, &mut parts, 0),
    }

    Ok(Message {
        message_id,
        message_id_derived: false,
        subject,
        from_name,
        from_email,
        date,
        in_reply_to,
        references,
        list_ids,
        body,
        parts,
        content_hash: String::new(),
        raw_size: bytes.len() as u64,
    })
}

/// Undoes header folding: line breaks go, the white space after them stays.
fn unfold(s: &str) -> String {
    s.replace(['\r', '\n'], "")
}

/// The longest subject kept as the message's subject, in bytes: a header
/// line is at most 998 bytes, and folded subjects of real mail stay far
/// below this. A longer one is cut (at a character) and ends in `…`; the
/// whole field stays in the message's raw form (`regtrack mail --raw`).
/// Uncut, a subject of megabytes was copied into every row and key that
/// names it: a 30 MB one took 0.5 GB of memory to ingest and to show.
pub const MAX_SUBJECT: usize = 16 << 10;

fn capped(mut s: String) -> String {
    if s.len() > MAX_SUBJECT {
        let mut end = MAX_SUBJECT;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push('…');
    }
    s
}

/// True when the first line is a header field (`Name:`), allowing a leading BOM.
fn starts_with_header(bytes: &[u8]) -> bool {
    let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let line_end = memchr::memchr(b'\n', b).unwrap_or(b.len());
    let line = b.get(..line_end).unwrap_or_default();
    match memchr::memchr(b':', line) {
        Some(0) | None => false,
        Some(colon) => line
            .get(..colon)
            .unwrap_or_default()
            .iter()
            .all(|&c| c.is_ascii_graphic() && c != b':'),
    }
}

/// 1991-01-01: no Linux mail is older, so a Date before it is wrong.
const FIRST_POSSIBLE: i64 = 662_688_000;

/// The farthest a real time zone is from UTC: +14:00 (Kiribati); -12:00
/// is the other end.
const MAX_ZONE_HOURS: u8 = 14;

/// A Date field read by RFC 5322's grammar with its obsolete forms (two-digit
/// years, named zones such as `GMT` or `EST`, no seconds, a trailing
/// comment), when it is one and its zone is one the Earth has. Mail that
/// bends the grammar (a wrong weekday, trailing words) falls back to the
/// lenient reading, checked by `possible_date`.
fn date_of_field(raw: &str) -> Option<i64> {
    let field = unfold(raw);
    let d = chrono::DateTime::parse_from_rfc2822(field.trim()).ok()?;
    (d.offset().local_minus_utc().unsigned_abs() <= u32::from(MAX_ZONE_HOURS) * 3600)
        .then(|| d.timestamp())
}

/// True when a leniently parsed Date is a real moment as written: a day the
/// month has, a time of day that exists, a zone the Earth has written with
/// four digits (`+00000000000000000000` is none), and a year written as a
/// plain number, with four digits when it is not a two-digit one (`0001` is
/// not 2001, which the parser's two-digit rule would make of it, and
/// `-2024` is no year). A Date that is not is no date: the message sorts as
/// undated rather than moving a history's dates.
fn possible_date(d: &mail_parser::DateTime, raw: &str) -> bool {
    let calendar = chrono::NaiveDate::from_ymd_opt(i32::from(d.year), d.month.into(), d.day.into())
        .is_some()
        && d.hour < 24
        && d.minute < 60
        && d.second < 61
        && d.tz_hour <= MAX_ZONE_HOURS
        && d.tz_minute < 60;
    // The year is the token before the time of day, the zone the one after.
    let tokens: Vec<&str> = raw
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    let written_well = match tokens.iter().position(|t| t.contains(':')) {
        Some(time) => {
            let year_ok = time
                .checked_sub(1)
                .and_then(|i| tokens.get(i))
                .is_none_or(|year| {
                    year.bytes().all(|b| b.is_ascii_digit())
                        && !(year.len() >= 3 && year.starts_with('0'))
                });
            let zone_ok = tokens.get(time + 1).is_none_or(|zone| {
                !zone.starts_with(['+', '-'])
                    || zone
                        .get(1..)
                        .filter(|hhmm| hhmm.len() == 4 && hhmm.bytes().all(|b| b.is_ascii_digit()))
                        .and_then(|hhmm| Some((hhmm.get(..2)?.parse::<u8>().ok()?, hhmm.get(2..)?)))
                        .is_some_and(|(hours, minutes)| hours <= MAX_ZONE_HOURS && minutes < "60")
            });
            year_ok && zone_ok
        }
        None => true,
    };
    calendar && written_well
}

/// The header fields regtrack reads (lower case): identity and threading,
/// list, subject, sender, date, and the MIME fields that decode the body.
const READ_FIELDS: [&[u8]; 13] = [
    b"message-id",
    b"in-reply-to",
    b"references",
    b"list-id",
    b"x-mailing-list",
    b"subject",
    b"from",
    b"sender",
    b"date",
    b"mime-version",
    b"content-type",
    b"content-transfer-encoding",
    b"content-disposition",
];

/// A message's header block cut down to [`READ_FIELDS`] (in order, folded
/// lines and the closing empty line included), and where the body starts.
struct Head {
    kept: Vec<u8>,
    body_start: usize,
}

/// The header block up to the first empty line, when every line before it is
/// a header field (`Name:`) or a folded continuation, so that mail-parser's
/// header parser ends at the same line; `None` for anything unusual (a line
/// of blanks, a line without a field name, no empty line) or a block without
/// one field regtrack reads.
fn read_head(bytes: &[u8]) -> Option<Head> {
    let mut kept = Vec::with_capacity(1024);
    let mut keep = false;
    let mut at = 0;
    loop {
        let end = at + memchr::memchr(b'\n', bytes.get(at..)?)?;
        let raw = bytes.get(at..=end)?;
        let line = raw.strip_suffix(b"\n").unwrap_or(raw);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        match line.first() {
            None if kept.is_empty() => return None,
            None => {
                kept.extend_from_slice(raw);
                return Some(Head {
                    kept,
                    body_start: end + 1,
                });
            }
            Some(b' ' | b'\t') if at > 0 => {
                if line.iter().all(u8::is_ascii_whitespace) {
                    return None;
                }
            }
            Some(_) => {
                let colon = memchr::memchr(b':', line)?;
                let name = line.get(..colon)?;
                if name.is_empty() || !name.iter().all(|&c| c.is_ascii_graphic()) {
                    return None;
                }
                keep = READ_FIELDS.iter().any(|f| name.eq_ignore_ascii_case(f));
            }
        }
        if keep {
            kept.extend_from_slice(raw);
        }
        at = end + 1;
    }
}

/// The headers (from the cut-down block) and the raw text of a message that
/// takes the plain-text path ([`plain_body`]); `None` sends it through the
/// whole parse.
fn plain_parse<'a>(
    head: &'a Head,
    body: &'a [u8],
) -> Option<(mail_parser::Message<'a>, Cow<'a, str>)> {
    let parsed = PARSER.parse_headers(&head.kept)?;
    let text = plain_body(&parsed, body)?;
    Some((parsed, text))
}

/// A whole body's transfer decoding, `None` on an encoding problem.
type BodyDecoder = fn(&[u8]) -> Option<Vec<u8>>;

/// The text of a message that is one text/plain part with no transfer
/// encoding, quoted-printable or base64, when it is exactly what
/// mail-parser's whole parse would decode: valid UTF-8 under a charset
/// mail-parser reads as UTF-8, or pure ASCII under an ASCII-compatible
/// single-byte charset. `None` sends the message through the whole parse.
fn plain_body<'a>(head: &mail_parser::Message<'_>, body: &'a [u8]) -> Option<Cow<'a, str>> {
    use mail_parser::decoders::charsets::map::charset_decoder;
    let root = head.parts.first()?;
    // mail-parser compares the field's value untrimmed for quoted-printable
    // and base64 (anything else it takes as no encoding).
    let decode: Option<BodyDecoder> = match root.content_transfer_encoding() {
        None => None,
        Some(enc) if enc.eq_ignore_ascii_case("quoted-printable") => Some(quoted_printable),
        Some(enc) if enc.eq_ignore_ascii_case("base64") => Some(base64_body),
        Some(enc)
            if ["7bit", "8bit"]
                .iter()
                .any(|e| enc.trim().eq_ignore_ascii_case(e)) =>
        {
            None
        }
        Some(_) => return None,
    };
    let charset = match root.content_type() {
        None => None,
        Some(ct) if ct.ctype() == "text" && ct.subtype() == Some("plain") => {
            ct.attribute("charset")
        }
        Some(_) => return None,
    };
    let text = match decode {
        Some(decode) => Cow::Owned(String::from_utf8(decode(body)?).ok()?),
        None => Cow::Borrowed(std::str::from_utf8(body).ok()?),
    };
    // A single-byte charset mail-parser decodes itself: its ASCII text only.
    if let Some(cs) = charset
        && charset_decoder(cs.as_bytes()).is_some()
        && !(ascii_compatible(cs) && text.is_ascii())
    {
        return None;
    }
    Some(text)
}

/// A whole body's quoted-printable decoded as mail-parser decodes a part
/// without a boundary (`MessageStream::decode_quoted_printable_mime`, which
/// reads a byte at a time): soft line breaks go, white space before a line
/// break goes, a `\r` anywhere makes every line break `\r\n`, an `=`
/// followed by what is no hex digit stays as it was. `None` where
/// mail-parser reports an encoding problem (an `=` inside an escape).
/// Runs of plain bytes are copied whole.
fn quoted_printable(input: &[u8]) -> Option<Vec<u8>> {
    use mail_parser::decoders::quoted_printable::HEX_MAP;
    #[derive(PartialEq)]
    enum State {
        Plain,
        Eq,
        Hex1(u8),
    }
    let hex = |b: u8| u8::try_from(HEX_MAP[usize::from(b)]).ok();
    let mut out = Vec::with_capacity(input.len());
    let mut state = State::Plain;
    let mut last = 0u8;
    // White space bytes at the end of `out` since the last other byte.
    let mut ws = 0usize;
    let mut crlf: &[u8] = b"\n";
    let mut i = 0;
    while let Some(&ch) = input.get(i) {
        match ch {
            b'=' if state == State::Plain => state = State::Eq,
            b'=' => return None,
            b'\n' => {
                if state == State::Eq {
                    state = State::Plain;
                } else {
                    out.truncate(out.len() - ws);
                    out.extend_from_slice(crlf);
                }
                ws = 0;
            }
            b'\r' => crlf = b"\r\n",
            _ => match state {
                State::Plain => {
                    // The run of plain bytes up to the next `=` or line end
                    // (at least `ch`), copied whole.
                    let rest = &input[i..];
                    let end = memchr::memchr3(b'=', b'\n', b'\r', rest).unwrap_or(rest.len());
                    let run = &rest[..end];
                    out.extend_from_slice(run);
                    let trailing = run
                        .iter()
                        .rev()
                        .take_while(|b| b.is_ascii_whitespace())
                        .count();
                    ws = if trailing == run.len() {
                        ws + trailing
                    } else {
                        trailing
                    };
                    last = run[end - 1];
                    i += end;
                    continue;
                }
                State::Eq => {
                    if let Some(h) = hex(ch) {
                        state = State::Hex1(h);
                    } else if !ch.is_ascii_whitespace() {
                        state = State::Plain;
                        out.extend_from_slice(&[b'=', ch]);
                        ws = 0;
                    }
                }
                State::Hex1(h) => {
                    state = State::Plain;
                    match hex(ch) {
                        Some(l) => out.push((h << 4) | l),
                        None => out.extend_from_slice(&[b'=', last, ch]),
                    }
                    ws = 0;
                }
            },
        }
        last = ch;
        i += 1;
    }
    Some(out)
}

/// A whole body's base64 decoded as mail-parser decodes a part without a
/// boundary (`MessageStream::decode_base64_mime`, a byte at a time): groups
/// of four base64 characters are decoded here, white space between them
/// skipped, and from the first other byte (padding, a group broken by a
/// line end, anything invalid) mail-parser decodes the rest, starting as it
/// starts a part: no sextet pending, no `-` before. `None` where
/// mail-parser reports an encoding problem.
fn base64_body(input: &[u8]) -> Option<Vec<u8>> {
    const INVALID: u8 = 0xff;
    const DECODE: [u8; 256] = {
        let mut table = [INVALID; 256];
        let mut v = 0u8;
        while v < 64 {
            let ch = match v {
                0..=25 => b'A' + v,
                26..=51 => b'a' + (v - 26),
                52..=61 => b'0' + (v - 52),
                62 => b'+',
                _ => b'/',
            };
            table[ch as usize] = v;
            v += 1;
        }
        table
    };
    let mut out = Vec::with_capacity(input.len() / 4 * 3);
    let mut rest = input;
    loop {
        match rest {
            [a, b, c, d, tail @ ..]
                if (DECODE[usize::from(*a)]
                    | DECODE[usize::from(*b)]
                    | DECODE[usize::from(*c)]
                    | DECODE[usize::from(*d)])
                    < 64 =>
            {
                let word = u32::from(DECODE[usize::from(*a)]) << 18
                    | u32::from(DECODE[usize::from(*b)]) << 12
                    | u32::from(DECODE[usize::from(*c)]) << 6
                    | u32::from(DECODE[usize::from(*d)]);
                out.extend_from_slice(&word.to_be_bytes()[1..]);
                rest = tail;
            }
            [b' ' | b'\t' | b'\r' | b'\n', tail @ ..] => rest = tail,
            [] => return Some(out),
            _ => break,
        }
    }
    out.extend_from_slice(&whole_part(
        rest,
        mail_parser::parsers::MessageStream::decode_base64_mime,
    )?);
    Some(out)
}

/// `bytes` decoded by one of mail-parser's part decoders as a part without
/// a boundary; `None` on what it reports as an encoding problem.
fn whole_part<'x>(
    bytes: &'x [u8],
    decode: mail_parser::decoders::DecodeFnc<'x>,
) -> Option<Cow<'x, [u8]>> {
    let mut stream = mail_parser::parsers::MessageStream::new(bytes);
    let (end, out) = decode(&mut stream, b"");
    (end != usize::MAX).then_some(out)
}

/// Single-byte charsets whose first 128 code points are ASCII (a body of
/// ASCII bytes decodes to itself).
fn ascii_compatible(charset: &str) -> bool {
    let cs = charset.trim().to_ascii_lowercase().replace('_', "-");
    ["us-ascii", "ascii", "ansi-x3.4-1968"].contains(&cs.as_str())
        || [
            "iso-8859-",
            "iso8859-",
            "iso8859",
            "latin",
            "windows-125",
            "cp125",
        ]
        .iter()
        .any(|p| cs.starts_with(p))
}

/// Appends every text part (text/* including attachments; HTML only when there
/// is no plain text; patch-like binaries) to `body`, recording the boundaries.
fn collect_text(
    msg: &mail_parser::Message<'_>,
    body: &mut String,
    parts: &mut Vec<BodyPart>,
    depth: u32,
) {
    let before = parts.len();
    for part in &msg.parts {
        let text: Option<std::borrow::Cow<'_, str>> = match &part.body {
            PartType::Text(t) => Some(std::borrow::Cow::Borrowed(t.as_ref())),
            PartType::Binary(b) | PartType::InlineBinary(b) if is_patch_like(part) => {
                Some(String::from_utf8_lossy(b))
            }
            PartType::Message(m) => {
                if depth < MAX_NESTED_MESSAGES {
                    collect_text(m, body, parts, depth + 1);
                }
                None
            }
            _ => None,
        };
        if let Some(text) = text {
            push_part(
                body,
                parts,
                content_type(part),
                part.attachment_name(),
                &text,
            );
        }
    }
    if parts.len() == before {
        for part in &msg.parts {
            if let PartType::Html(h) = &part.body {
                push_part(body, parts, content_type(part), part.attachment_name(), h);
            }
        }
    }
}

fn push_part(
    body: &mut String,
    parts: &mut Vec<BodyPart>,
    content_type: String,
    filename: Option<&str>,
    text: &str,
) {
    if !body.is_empty() && !body.ends_with('\n') {
        body.push('\n');
    }
    let start = body.len();
    if text.contains('\r') {
        body.push_str(&text.replace("\r\n", "\n"));
    } else {
        body.push_str(text);
    }
    parts.push(BodyPart {
        content_type,
        filename: filename.map(str::to_string),
        start,
        end: body.len(),
    });
}

fn content_type(part: &mail_parser::MessagePart<'_>) -> String {
    match part.content_type() {
        Some(ct) => {
            let sub = ct
                .subtype()
                .unwrap_or(if ct.ctype().eq_ignore_ascii_case("text") {
                    "plain"
                } else {
                    "octet-stream"
                });
            format!("{}/{}", ct.ctype(), sub).to_ascii_lowercase()
        }
        None => "text/plain".to_string(),
    }
}

fn is_patch_like(part: &mail_parser::MessagePart<'_>) -> bool {
    let ct = content_type(part);
    ct.contains("patch") || ct.contains("diff")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date_of(value: &str) -> Option<i64> {
        let raw = format!("Message-ID: <d@x>\nSubject: s\nDate: {value}\n\nbody\n");
        parse(raw.as_bytes()).unwrap().date
    }

    #[test]
    fn a_subject_of_megabytes_is_cut_and_ends_in_an_ellipsis() {
        let long = format!(
            "[linus:master] [ext4] 5e1f2a3b4c: fsmark.{}",
            "é".repeat(20_000)
        );
        let raw = format!("Message-ID: <s@x>\nSubject: {long}\n\nbody\n");
        let subject = parse(raw.as_bytes()).unwrap().subject;
        assert!(
            subject.len() <= MAX_SUBJECT + '…'.len_utf8(),
            "{}",
            subject.len()
        );
        assert!(subject.ends_with('…') && long.starts_with(subject.trim_end_matches('…')));
        let raw = "Message-ID: <s@x>\nSubject: a plain subject\n\nbody\n";
        assert_eq!(parse(raw.as_bytes()).unwrap().subject, "a plain subject");
    }

    #[test]
    fn impossible_or_prehistoric_dates_are_no_dates() {
        assert_eq!(
            date_of("Tue, 5 Mar 2024 10:00:00 +0000"),
            Some(1_709_632_800)
        );
        assert_eq!(
            date_of("Mon, 05 Mar 24 10:00:00 +0000"),
            Some(1_709_632_800)
        );
        assert_eq!(date_of("33 Feb 2025 25:61:61 +0000"), None);
        assert_eq!(date_of("30 Feb 2025 10:00:00 +0000"), None);
        assert_eq!(date_of("Mon, 1 Jan 0001 00:00:00 +0000"), None);
        assert_eq!(date_of("Thu, 1 Jan 1970 00:00:00 +0000"), None);
        assert_eq!(date_of("Sat, 1 Jan 2150 00:00:00 +0000"), None);
    }

    #[test]
    fn obsolete_forms_are_read_and_garbage_is_no_date() {
        // RFC 5322's obsolete syntax: a two-digit year, no seconds, a named zone.
        assert_eq!(date_of("1 Jul 24 10:00 GMT"), Some(1_719_828_000));
        assert_eq!(date_of("Mon, 1 Jul 2024 06:00:00 EDT"), Some(1_719_828_000));
        assert_eq!(
            date_of("Mon, 1 Jul 2024 10:00:00 +0000 (UTC)"),
            Some(1_719_828_000)
        );
        // Bent but meant: a wrong weekday, words after the zone.
        assert_eq!(
            date_of("Fri, 1 Jul 2024 10:00:00 +0000"),
            Some(1_719_828_000)
        );
        assert_eq!(
            date_of("Mon, 1 Jul 2024 10:00:00 +0000 garbage"),
            Some(1_719_828_000)
        );
        // No moment at all.
        assert_eq!(date_of("Mon, 1 Jul -2024 10:00:00 +0000"), None);
        assert_eq!(
            date_of("Mon, 1 Jul 2024 10:00:00 +00000000000000000000"),
            None
        );
        assert_eq!(date_of("Mon, 1 Jul 2024 10:00:00 -2024"), None);
        assert_eq!(date_of("Mon, 1 Jul 2024 10:00:00 +2400"), None);
    }

    /// Messages that must read the same whether or not they take the
    /// plain-text path, with whether they take it.
    fn cases() -> Vec<(&'static str, Vec<u8>, bool)> {
        let head = "From: A <a@example.org>\nSubject: [ext4] x\nMessage-ID: <m@x>\n\
                    Date: Mon, 1 Jan 2024 00:00:00 +0000\n";
        let msg = |extra: &str, body: &[u8]| {
            let mut v = format!("{head}{extra}\n").into_bytes();
            v.extend_from_slice(body);
            v
        };
        vec![
            ("no MIME headers", msg("", b"hello\n  -5.7% fsmark\n"), true),
            (
                "utf-8",
                msg(
                    "Content-Type: text/plain; charset=utf-8\n",
                    "caf\u{e9}\n".as_bytes(),
                ),
                true,
            ),
            (
                "quoted charset",
                msg("Content-Type: text/plain; charset=\"UTF-8\"\n", b"x\n"),
                true,
            ),
            (
                "us-ascii 7bit",
                msg(
                    "Content-Type: text/plain; charset=us-ascii\nContent-Transfer-Encoding: 7bit\n",
                    b"ascii\n",
                ),
                true,
            ),
            (
                "latin1 ASCII",
                msg("Content-Type: text/plain; charset=ISO-8859-1\n", b"plain\n"),
                true,
            ),
            (
                "windows-1252 ASCII",
                msg(
                    "Content-Type: text/plain; charset=windows-1252\n",
                    b"plain\n",
                ),
                true,
            ),
            (
                "latin1 8-bit",
                msg(
                    "Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: 8bit\n",
                    b"caf\xe9\n",
                ),
                false,
            ),
            (
                "koi8-r 8-bit",
                msg("Content-Type: text/plain; charset=koi8-r\n", b"\xc1\xc2\n"),
                false,
            ),
            (
                "utf-7 ASCII",
                msg("Content-Type: text/plain; charset=utf-7\n", b"a+AOk-b\n"),
                false,
            ),
            (
                "iso-2022-jp ASCII",
                msg(
                    "Content-Type: text/plain; charset=iso-2022-jp\n",
                    b"\x1b$B$3\x1b(B\n",
                ),
                false,
            ),
            (
                "invalid utf-8",
                msg(
                    "Content-Type: text/plain; charset=utf-8\n",
                    b"bad \xff\xfe byte\n",
                ),
                false,
            ),
            (
                "quoted-printable",
                msg(
                    "Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n",
                    b"a=3Db soft=\nbreak =\n trailing \t\nkept=20\n=E2=80=94 dash\n",
                ),
                true,
            ),
            (
                "quoted-printable latin1",
                msg(
                    "Content-Type: text/plain; charset=iso-8859-1\n\
                     Content-Transfer-Encoding: Quoted-Printable\n",
                    b"caf=E9\n",
                ),
                false,
            ),
            (
                "quoted-printable invalid utf-8",
                msg("Content-Transfer-Encoding: quoted-printable\n", b"=FF=FE\n"),
                false,
            ),
            (
                "quoted-printable escape problem",
                msg("Content-Transfer-Encoding: quoted-printable\n", b"a=4=1\n"),
                false,
            ),
            (
                "quoted-printable CRLF",
                msg(
                    "Content-Transfer-Encoding: quoted-printable\n",
                    b"one=\r\ntwo \r\n=3D\r\n",
                ),
                true,
            ),
            (
                "base64",
                msg("Content-Transfer-Encoding: base64\n", b"aGVsbG8K\nd29y\nbGQ=\n"),
                true,
            ),
            (
                "base64 invalid",
                msg("Content-Transfer-Encoding: base64\n", b"aGVs!bG8K\n"),
                false,
            ),
            (
                "base64 latin1",
                msg(
                    "Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: BASE64\n",
                    b"Y2Fm6Q==\n",
                ),
                false,
            ),
            (
                "8bit no charset",
                msg("Content-Transfer-Encoding: 8BIT\n", "\u{b1}2%\n".as_bytes()),
                true,
            ),
            (
                "html",
                msg("Content-Type: text/html\n", b"<p>x</p>\n"),
                false,
            ),
            (
                "x-patch",
                msg("Content-Type: text/x-patch\n", b"--- a/f\n"),
                false,
            ),
            (
                "attachment name",
                msg(
                    "Content-Type: text/plain; name=\"fix.patch\"\nContent-Disposition: attachment; filename=\"fix.patch\"\n",
                    b"diff\n",
                ),
                true,
            ),
            (
                "multipart",
                msg(
                    "Content-Type: multipart/mixed; boundary=\"b\"\n",
                    b"--b\nContent-Type: text/plain\n\none\n--b--\n",
                ),
                false,
            ),
            (
                "CRLF",
                msg("", b"x\r\ny\r\n")
                    .iter()
                    .flat_map(|&b| {
                        if b == b'\n' {
                            vec![b'\r', b'\n']
                        } else {
                            vec![b]
                        }
                    })
                    .collect(),
                true,
            ),
            (
                "folded header",
                msg("Content-Type: text/plain;\n\tcharset=utf-8\n", b"folded\n"),
                true,
            ),
            ("blank-looking line", msg("X-A: 1\n \n", b"body\n"), false),
            (
                "line without a field",
                msg("not a header\n", b"body\n"),
                false,
            ),
            ("no body", head.as_bytes().to_vec(), false),
            ("empty body", msg("", b""), true),
            (
                "ignored fields between read ones",
                format!(
                    "Received: from a\n\tby b\nDKIM-Signature: v=1;\n b=xyz\n{head}\
                     X-Mailing-List: linux-ext4@vger.kernel.org\nList-Id: <linux-ext4.vger.kernel.org>\n\
                     SUBJECT: Re: [ext4] y\nReferences: <a@b>\n <c@d>\nIn-Reply-To: <c@d>\n\nbody\n"
                )
                .into_bytes(),
                true,
            ),
            ("only fields regtrack does not read", b"X-A: 1\nReceived: x\n\nbody\n".to_vec(), false),
        ]
    }

    #[test]
    fn x_mailing_list_names_the_list_only_when_no_list_id_does() {
        let both = b"Message-ID: <a@b>\nX-Mailing-List: linux-ext4@vger.kernel.org\n\
                     List-Id: <Linux-NFS.vger.kernel.org>\n\nbody\n";
        assert_eq!(parse(both).unwrap().list_ids, ["linux-nfs.vger.kernel.org"]);
        let only = b"Message-ID: <a@b>\nX-Mailing-List: <Linux-PM@vger.kernel.org>\n\
                     X-Mailing-List: linux-pm@vger.kernel.org\n\nbody\n";
        assert_eq!(parse(only).unwrap().list_ids, ["linux-pm.vger.kernel.org"]);
    }

    #[test]
    fn the_plain_text_path_reads_what_the_whole_parse_reads() {
        let mut plain = 0;
        for (name, bytes, fast) in cases() {
            let took = read_head(&bytes)
                .is_some_and(|h| plain_parse(&h, &bytes[h.body_start..]).is_some());
            assert_eq!(took, fast, "{name}: plain path taken");
            plain += usize::from(took);
            let a = parse_with(&bytes, true);
            let b = parse_with(&bytes, false);
            assert_eq!(a, b, "{name}");
        }
        assert_eq!(plain, 15);
    }

    #[test]
    fn an_eight_bit_latin1_body_is_still_decoded() {
        let (_, bytes, _) = cases().into_iter().find(|c| c.0 == "latin1 8-bit").unwrap();
        assert_eq!(parse(&bytes).unwrap().body, "caf\u{e9}\n");
    }

    /// mail-parser's quoted-printable decoding of a part without a boundary.
    fn mail_parser_qp(bytes: &[u8]) -> Option<Vec<u8>> {
        whole_part(
            bytes,
            mail_parser::parsers::MessageStream::decode_quoted_printable_mime,
        )
        .map(Cow::into_owned)
    }

    #[test]
    fn quoted_printable_decodes_as_mail_parser_does() {
        for case in [
            &b""[..],
            b"plain",
            b"a=3Db",
            b"soft=\nbreak",
            b"soft=  \nbreak",
            b"trailing \t\nnext",
            b"kept=20\n",
            b"=\r\nx\r\ny \r\n",
            b"=G1 =4Z =4\nZ",
            b"a=4=1",
            b"==",
            b"= 41",
            b"x=",
            b"x=4",
            b"\x0c \n\xff=e9",
        ] {
            assert_eq!(quoted_printable(case), mail_parser_qp(case), "{case:?}");
        }
    }

    /// mail-parser's base64 decoding of a part without a boundary.
    fn mail_parser_base64(bytes: &[u8]) -> Option<Vec<u8>> {
        whole_part(
            bytes,
            mail_parser::parsers::MessageStream::decode_base64_mime,
        )
        .map(Cow::into_owned)
    }

    #[test]
    fn base64_decodes_as_mail_parser_does() {
        for case in [
            &b""[..],
            b"aGVsbG8K",
            b"aGVs\nbG8K\n",
            b"aGVsbG8=\n",
            b"aGVsbA==\r\n",
            b"aG\nVsbG8K",
            b" \t aGVs bG8K",
            b"aGVs-bG8K",
            b"aGVs--bG8K",
            b"aGVs!bG8K",
            b"QQ=QUJD",
            b"=",
            b"Q",
        ] {
            assert_eq!(base64_body(case), mail_parser_base64(case), "{case:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(512))]
        /// Any mix of groups, padding, white space and stray bytes decodes
        /// as mail-parser decodes it.
        #[test]
        fn base64_agrees_with_mail_parser(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    &b"QUJD"[..], b"aGVs", b"QQ", b"Q", b"=", b"==", b" ", b"\t", b"\n",
                    b"\r\n", b"-", b"--", b"!", b"+/+/",
                ]),
                0..40,
            ),
        ) {
            let bytes = pieces.concat();
            proptest::prop_assert_eq!(base64_body(&bytes), mail_parser_base64(&bytes));
        }

        /// Any mix of escapes, soft breaks, white space and line ends
        /// decodes as mail-parser decodes it.
        #[test]
        fn quoted_printable_agrees_with_mail_parser(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    &b"a"[..], b"bc", b" ", b"\t", b"\x0c", b"\n", b"\r", b"\r\n", b"=",
                    b"=3D", b"=e9", b"=4", b"=G", b"=\n", b"= \n", b"=20", b"\xff", b"-",
                ]),
                0..60,
            ),
        ) {
            let bytes = pieces.concat();
            proptest::prop_assert_eq!(quoted_printable(&bytes), mail_parser_qp(&bytes));
        }

        /// Any mix of header lines (odd ones included) and body bytes reads
        /// the same on both paths.
        #[test]
        fn both_paths_agree_on_generated_mail(
            picks in proptest::collection::vec(0usize..15, 0..6),
            body in proptest::collection::vec(
                proptest::sample::select(vec![
                    &b"a"[..], b" ", b"\n", b"\r\n", b"\t", b"=3D", b"-", b":",
                    "\u{e9}".as_bytes(), b"\xe9", b"\xff", b"=", b"=\n", b"=E2=80=94",
                    b"=4", b"=G", b"\r", b"aGVsbG8K", b"QQ==",
                ]),
                0..40,
            ),
            crlf in proptest::bool::ANY,
        ) {
            const LINES: [&str; 15] = [
                "Content-Type: text/plain; charset=utf-8",
                "Content-Type: text/plain; charset=iso-8859-1",
                "Content-Type: text/plain; charset=us-ascii",
                "Content-Type: text/plain",
                "Content-Type: TEXT/PLAIN; CHARSET=UTF-8",
                "Content-Type: text/html",
                "Content-Transfer-Encoding: 7bit",
                "Content-Transfer-Encoding: quoted-printable",
                "Content-Transfer-Encoding: base64",
                "Content-Transfer-Encoding: 8bit ",
                "Content-Disposition: attachment; filename=a.txt",
                "X-Folded: a\n b",
                " ",
                "Received: from x (y [1.2.3.4])\n\tby z",
                "no colon here",
            ];
            let nl = if crlf { "\r\n" } else { "\n" };
            let mut text = format!("From: a@b{nl}Subject: s{nl}Message-ID: <i@d>{nl}");
            for &p in &picks {
                text.push_str(&LINES[p].replace('\n', nl));
                text.push_str(nl);
            }
            text.push_str(nl);
            let mut bytes = text.into_bytes();
            bytes.extend(body.concat());
            proptest::prop_assert_eq!(parse_with(&bytes, true), parse_with(&bytes, false));
        }
    }
}
