//! Text from mail made safe for a terminal: control characters (C0 but tab
//! and newline where the layout allows them, DEL, C1), the bidirectional
//! overrides, isolates and marks, and invisible characters (zero-width
//! spaces, tags) are replaced by a visible escape (`\x1b`, `\u{202e}`), so
//! that no mail can clear a screen, set a window title, plant a hyperlink,
//! reorder what a line shows or hide part of it. JSON output is exact and
//! never goes through here (its own writer escapes the same characters as
//! `\u` escapes, which decode to the same text).

use std::borrow::Cow;

/// True for a character that must not reach a terminal raw.
fn unsafe_char(c: char, keep_newlines: bool) -> bool {
    match c {
        '\t' => false,
        '\n' => !keep_newlines,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        // Bidi embeddings, overrides and isolates; the Arabic letter mark.
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{61c}' => true,
        // Invisible ones that hide or reorder text: zero-width spaces and
        // joiners, the left-to-right and right-to-left marks, line and
        // paragraph separators, invisible operators, the byte-order mark,
        // tag characters.
        '\u{200b}'..='\u{200f}'
        | '\u{2028}'..='\u{2029}'
        | '\u{2060}'..='\u{2064}'
        | '\u{feff}'
        | '\u{e0000}'..='\u{e007f}' => true,
        _ => false,
    }
}

/// True for a character a terminal acts on or that hides or reorders text
/// (C0 controls but tab aside): what [`line()`] escapes.
pub fn acts_or_hides(c: char) -> bool {
    unsafe_char(c, false)
}

fn escape(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    if !s.chars().any(|c| unsafe_char(c, keep_newlines)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if unsafe_char(c, keep_newlines) {
            let n = c as u32;
            if n < 0x100 {
                out.push_str(&format!("\\x{n:02x}"));
            } else {
                out.push_str(&format!("\\u{{{n:x}}}"));
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// One line of text (a subject, a name, a sentence): every control
/// character escaped, newlines too.
pub fn line(s: &str) -> Cow<'_, str> {
    escape(s, false)
}

/// A block of text (a mail body): newlines and tabs kept, every other
/// control character escaped.
pub fn block(s: &str) -> Cow<'_, str> {
    escape(s, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_screen_title_and_link_sequences_and_bidi_overrides() {
        assert_eq!(line("a\x1b[2Jb"), "a\\x1b[2Jb");
        assert_eq!(line("\x1b]0;owned\x07"), "\\x1b]0;owned\\x07");
        assert_eq!(line("x\u{9b}31m"), "x\\x9b31m");
        assert_eq!(line("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(line("two\nlines\r"), "two\\x0alines\\x0d");
        assert_eq!(block("two\nlines\r\n"), "two\nlines\\x0d\n");
        assert!(matches!(line("plain ±5% ü\tx"), Cow::Borrowed(_)));
        assert_eq!(line("a\u{200f}b\u{200b}c"), "a\\u{200f}b\\u{200b}c");
        assert_eq!(line("\u{feff}x\u{e0041}"), "\\u{feff}x\\u{e0041}");
    }
}
