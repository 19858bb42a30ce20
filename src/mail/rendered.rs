//! Archive-rendered text: what a web archive shows for one message.
//!
//! ```text
//! rendered   := subject-line NL blank* author-line NL blank* body
//! author     := "[" name? "<" address ">" "]" | "[" address "]"
//! marker     := "[-- Attachment #" N ( ": Type: " type ", Size: " size " bytes"
//!               | ": " filename ) " --]"
//! type-line  := "[-- Type: " type ( ", " ... )* " --]"   ; after a filename marker
//! ```
//! Marker lines start a new part and are left out of the body. There is no
//! date or Message-ID; the caller derives the id from the content.

use std::sync::LazyLock;

use regex::Regex;

use crate::model::{BodyPart, Message};

static AUTHOR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\[\s*(?:(.*?)\s*)?<([^<>\s]+)>\s*\]\s*$|^\[\s*([^\s\[\]<>]+@[^\s\[\]<>]+)\s*\]\s*$",
    )
    .expect("static regex")
});
static MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\[-- Attachment #(\d+)(?::\s*(.*?))?\s*--\]\s*$").expect("static regex")
});
static TYPE_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\[-- Type: ([^,\s]+).*--\]\s*$").expect("static regex"));

/// Parses rendered text; the error is a human reason.
pub(super) fn parse(bytes: &[u8]) -> Result<Message, String> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut lines = text.split_inclusive('\n').peekable();

    let mut subject = String::new();
    for line in lines.by_ref() {
        if !line.trim().is_empty() {
            subject = line.trim().to_string();
            break;
        }
    }
    if subject.is_empty() {
        return Err("rendered text has no subject line".into());
    }
    let mut from_name = None;
    let mut from_email = None;
    while let Some(line) = lines.peek() {
        if line.trim().is_empty() {
            lines.next();
            continue;
        }
        if let Some(c) = AUTHOR.captures(line.trim_end()) {
            from_name = c
                .get(1)
                .map(|m| m.as_str().trim().trim_matches('"').to_string())
                .filter(|s| !s.is_empty());
            from_email = c
                .get(2)
                .or_else(|| c.get(3))
                .map(|m| m.as_str().replace("(a)", "@"));
            lines.next();
        }
        break;
    }
    // Skip the blank lines between the author line and the body.
    while lines.peek().is_some_and(|l| l.trim().is_empty()) {
        lines.next();
    }

    let mut body = String::new();
    let mut parts: Vec<BodyPart> = Vec::new();
    let mut current = BodyPart {
        content_type: "text/plain".into(),
        filename: None,
        start: 0,
        end: 0,
    };
    let mut after_marker = false;
    for line in lines {
        let trimmed = line.trim_end();
        if let Some(c) = MARKER.captures(trimmed) {
            close_part(&mut body, &mut parts, &mut current);
            let desc = c.get(2).map_or("", |m| m.as_str());
            current = BodyPart {
                content_type: "text/plain".into(),
                filename: None,
                start: body.len(),
                end: body.len(),
            };
            if let Some(t) = desc.strip_prefix("Type:") {
                let ty = t.split(',').next().unwrap_or("").trim();
                if !ty.is_empty() {
                    current.content_type = ty.to_ascii_lowercase();
                }
            } else if !desc.is_empty() {
                current.filename = Some(desc.to_string());
            }
            after_marker = true;
            continue;
        }
        if after_marker {
            if let Some(c) = TYPE_LINE.captures(trimmed) {
                if let Some(t) = c.get(1) {
                    current.content_type = t.as_str().to_ascii_lowercase();
                }
                continue;
            }
            if trimmed.is_empty() {
                continue;
            }
        }
        after_marker = false;
        body.push_str(line);
    }
    close_part(&mut body, &mut parts, &mut current);

    Ok(Message {
        message_id: String::new(),
        message_id_derived: false,
        subject,
        from_name,
        from_email,
        date: None,
        in_reply_to: None,
        references: Vec::new(),
        list_ids: Vec::new(),
        body,
        parts,
        content_hash: String::new(),
        raw_size: bytes.len() as u64,
    })
}

fn close_part(body: &mut String, parts: &mut Vec<BodyPart>, current: &mut BodyPart) {
    if body.len() > current.start {
        if !body.ends_with('\n') {
            body.push('\n');
        }
        current.end = body.len();
        parts.push(current.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subject_author_and_attachment_parts_are_recovered() {
        let text = "Re: [ext4] 05c2c00f37: aim7.jobs-per-min -11.8% regression\n\n\
                    [Jan Kara <jack@suse.cz>]\n\n\
                    [-- Attachment #1: Type: text/plain, Size: 20 bytes --]\n\n\
                    Hello there.\n\n\
                    [-- Attachment #2: reproduce.sh --]\n\
                    [-- Type: text/x-sh, Encoding: base64, Size: 1K --]\n\
                    echo hi\n";
        let m = parse(text.as_bytes()).unwrap();
        assert_eq!(
            m.subject,
            "Re: [ext4] 05c2c00f37: aim7.jobs-per-min -11.8% regression"
        );
        assert_eq!(m.from_name.as_deref(), Some("Jan Kara"));
        assert_eq!(m.from_email.as_deref(), Some("jack@suse.cz"));
        assert_eq!(m.body, "Hello there.\n\necho hi\n");
        assert_eq!(m.parts.len(), 2);
        assert_eq!(m.parts[0].content_type, "text/plain");
        assert_eq!(m.parts[1].content_type, "text/x-sh");
        assert_eq!(m.parts[1].filename.as_deref(), Some("reproduce.sh"));
        assert_eq!(&m.body[m.parts[1].start..m.parts[1].end], "echo hi\n");
    }

    #[test]
    fn text_without_author_line_keeps_everything_after_the_subject() {
        let m = parse(b"Subject only\nbody line\n").unwrap();
        assert_eq!(m.subject, "Subject only");
        assert_eq!(m.from_email, None);
        assert_eq!(m.body, "body line\n");
    }
}
