//! RFC 5322 / MIME messages through mail-parser: headers, decoded text parts
//! (text attachments such as patches included), charset conversion to UTF-8.

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
    if !starts_with_header(bytes) {
        return Err("no header block: the message does not start with a header field".into());
    }
    let parsed = PARSER
        .parse(bytes)
        .ok_or_else(|| "mail-parser could not read the message".to_string())?;

    let mut message_id = String::new();
    let mut in_reply_to = None;
    let mut references = Vec::new();
    let mut list_ids: Vec<String> = Vec::new();
    let mut x_mailing_list = Vec::new();
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
            if let Some(id) = list_id_from(value, true) {
                x_mailing_list.push(id);
            }
        }
    }
    if list_ids.is_empty() {
        for id in x_mailing_list {
            if !list_ids.contains(&id) {
                list_ids.push(id);
            }
        }
    }
    if message_id.contains(char::is_whitespace) {
        message_id = message_id.split_whitespace().collect::<Vec<_>>().join("");
    }

    let subject = parsed.subject().map(unfold).unwrap_or_default();
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
    let date = parsed
        .date()
        .map(|d| d.to_timestamp())
        .filter(|t| (0..4_102_444_800).contains(t));

    let mut body = String::new();
    let mut parts = Vec::new();
    collect_text(&parsed, &mut body, &mut parts, 0);

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
