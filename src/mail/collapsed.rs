//! Whitespace-collapsed messages: a whole mboxrd message whose line breaks
//! became spaces (and whose `<address>`es were stripped by the archive).
//!
//! ```text
//! collapsed := ( "From " sender date )? header+ body
//! header    := SP? Name ":" SP value            ; value runs to the next header
//! Name      := [A-Z][A-Za-z0-9]* ( "-" [A-Za-z0-9]+ )*   ; hyphenated, X-*, or a known word
//! ```
//! The header block is the run of header fields that starts the text, where
//! consecutive fields are less than [`MAX_GAP`] bytes apart and no trailer
//! (`Signed-off-by:`, `Fixes:`, ...) appears. The last field's value is one
//! token (plus tokens after a `,` or `;`); the body starts after it and stays
//! one line.

use std::sync::LazyLock;

use regex::Regex;

use crate::model::{BodyPart, Message};

/// Largest distance between the starts of two consecutive header fields.
const MAX_GAP: usize = 8192;

static FIELD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|\s)([A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*):").expect("static regex")
});

const ONE_WORD_FIELDS: &[&str] = &[
    "From",
    "To",
    "Cc",
    "CC",
    "Bcc",
    "Subject",
    "Date",
    "Received",
    "References",
    "Sender",
    "Precedence",
    "Lines",
    "Status",
    "Organization",
    "Importance",
    "Priority",
    "Keywords",
    "Comments",
    "Path",
    "Newsgroups",
    "Xref",
];

const TRAILER_FIELDS: &[&str] = &[
    "Fixes",
    "Link",
    "Closes",
    "Reported-by",
    "Signed-off-by",
    "Acked-by",
    "Reviewed-by",
    "Tested-by",
    "Suggested-by",
    "Co-developed-by",
    "Cc-by",
];

fn is_field_name(name: &str) -> bool {
    if TRAILER_FIELDS.iter().any(|t| t.eq_ignore_ascii_case(name)) || name.ends_with("-by") {
        return false;
    }
    name.contains('-') || ONE_WORD_FIELDS.contains(&name)
}

/// Parses a collapsed message; the error is a human reason.
pub(super) fn parse(bytes: &[u8]) -> Result<Message, String> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim();
    // (name, start of the match, start of the value)
    let mut fields: Vec<(&str, usize, usize)> = Vec::new();
    for c in FIELD.captures_iter(text) {
        let (Some(whole), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        let followed_by_space = text
            .as_bytes()
            .get(whole.end())
            .is_none_or(|b| b.is_ascii_whitespace());
        if !followed_by_space || !is_field_name(name.as_str()) {
            continue;
        }
        let start = name.start();
        match fields.last() {
            None if start > 512 => break,
            Some(&(_, prev, _)) if start - prev > MAX_GAP => break,
            _ => {}
        }
        fields.push((name.as_str(), start, whole.end()));
    }
    if fields.is_empty() {
        return Err("collapsed text has no header fields".into());
    }

    let mut header_block = String::new();
    let mut body_start = text.len();
    for (i, &(name, _, value_start)) in fields.iter().enumerate() {
        let value_end = match fields.get(i + 1) {
            Some(&(_, next_start, _)) => next_start,
            None => last_value_end(text, value_start),
        };
        if fields.get(i + 1).is_none() {
            body_start = value_end;
        }
        let value = text.get(value_start..value_end).unwrap_or("").trim();
        header_block.push_str(name);
        header_block.push_str(": ");
        header_block.push_str(value);
        header_block.push('\n');
    }
    header_block.push('\n');
    let mut msg = super::rfc822::parse(header_block.as_bytes())?;
    let body = text
        .get(body_start..)
        .unwrap_or("")
        .trim_start()
        .to_string();
    msg.parts = if body.is_empty() {
        Vec::new()
    } else {
        vec![BodyPart {
            content_type: "text/plain".into(),
            filename: None,
            start: 0,
            end: body.len(),
        }]
    };
    msg.body = body;
    msg.raw_size = bytes.len() as u64;
    Ok(msg)
}

/// End of the last header's value: its first token, extended while a token
/// ends with `,` or `;` (a structured value goes on).
fn last_value_end(text: &str, value_start: usize) -> usize {
    let mut pos = value_start;
    let bytes = text.as_bytes();
    loop {
        while bytes.get(pos).is_some_and(|b| b.is_ascii_whitespace()) {
            pos += 1;
        }
        let token_start = pos;
        while bytes.get(pos).is_some_and(|b| !b.is_ascii_whitespace()) {
            pos += 1;
        }
        if pos == token_start {
            return pos;
        }
        match bytes.get(pos - 1) {
            Some(b',') | Some(b';') => continue,
            _ => return pos,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_recovered_and_the_body_starts_after_the_last_one() {
        let text = "From mboxrd@z Thu Jan 1 00:00:00 1970 Return-Path: Received: from x by y; \
                    Tue, 2 Aug 2022 06:36:55 +0000 (UTC) Message-ID: <abc@intel.com> \
                    Date: Tue, 2 Aug 2022 14:36:00 +0800 Subject: Re: [LKP] Re: [xfs] 016a23388c: \
                    stress-ng.xattr.ops_per_sec 58.4% improvement To: Dave Chinner , robot \
                    References: <r1@x> <r2@y> From: \"Yin, Fengwei\" In-Reply-To: <r2@y> \
                    DKIM-Signature: v=1; h=message-id:date:subject:to:cc:references:from: in-reply-to; \
                    Precedence: bulk List-ID: X-Mailing-List: linux-kernel@vger.kernel.org \
                    Hi Dave, On 7/22/2022 6:01 AM, Dave Chinner wrote: > quoted Regards";
        let m = parse(text.as_bytes()).unwrap();
        assert_eq!(m.message_id, "abc@intel.com");
        assert_eq!(
            m.subject,
            "Re: [LKP] Re: [xfs] 016a23388c: stress-ng.xattr.ops_per_sec 58.4% improvement"
        );
        assert_eq!(m.from_name.as_deref(), Some("Yin, Fengwei"));
        assert_eq!(m.in_reply_to.as_deref(), Some("r2@y"));
        assert_eq!(m.references, vec!["r1@x", "r2@y"]);
        assert_eq!(m.list_ids, vec!["linux-kernel.vger.kernel.org"]);
        assert_eq!(m.date, Some(1_659_422_160));
        assert!(m.body.starts_with("Hi Dave, On 7/22/2022"), "{}", m.body);
        assert!(!m.body.contains('\n'));
    }

    #[test]
    fn text_without_fields_is_refused() {
        assert!(parse(b"just some words here").is_err());
    }
}
