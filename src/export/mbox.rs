//! Stored raw messages written as an mboxrd file, the form lore's
//! `t.mbox.gz` has and `git am`, `b4 am` and mutt read: each message starts
//! with a `From ` line (`From mboxrd@z Thu Jan  1 00:00:00 1970`, as lore
//! writes it), any line of the message that begins with zero or more `>`
//! and then `From ` gets one more `>` (mboxrd quoting, undone by every
//! mboxrd reader, regtrack's included), the message ends with a newline
//! and a blank line follows it. The bytes are the message as received
//! (line endings included); only the quoting is added.

use std::io::Write;

/// The `From ` line that starts each message.
pub const FROM_LINE: &[u8] = b"From mboxrd@z Thu Jan  1 00:00:00 1970\n";

/// Appends one message to `out` in mboxrd form.
pub fn message_bytes(out: &mut Vec<u8>, raw: &[u8]) {
    out.extend_from_slice(FROM_LINE);
    let mut rest = raw;
    while !rest.is_empty() {
        let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
        let line = &rest[..end];
        let unquoted = &line[line.iter().take_while(|&&b| b == b'>').count()..];
        if unquoted.starts_with(b"From ") {
            out.push(b'>');
        }
        out.extend_from_slice(line);
        rest = &rest[end..];
    }
    if !raw.ends_with(b"\n") {
        out.push(b'\n');
    }
    out.push(b'\n');
}

/// Writes messages as one mboxrd file. On a terminal (`terminal`), the
/// bytes are shown as text with every control character but tab and
/// newline escaped (see [`super::terminal`]); elsewhere they are written
/// exactly.
pub fn write(out: &mut dyn Write, raws: &[&[u8]], terminal: bool) -> std::io::Result<()> {
    for raw in raws {
        let mut buf = Vec::with_capacity(raw.len() + FROM_LINE.len() + 64);
        message_bytes(&mut buf, raw);
        if terminal {
            let text = String::from_utf8_lossy(&buf);
            out.write_all(super::terminal::block(&text).as_bytes())?;
        } else {
            out.write_all(&buf)?;
        }
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_lines_are_quoted_one_level_more_and_the_message_ends_with_a_blank_line() {
        let raw = b"Subject: x\n\nFrom here\n>From there\n>>From afar\nFromage\n From\nlast";
        let mut out = Vec::new();
        message_bytes(&mut out, raw);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "From mboxrd@z Thu Jan  1 00:00:00 1970\nSubject: x\n\n>From here\n>>From there\n\
             >>>From afar\nFromage\n From\nlast\n\n"
        );
    }

    #[test]
    fn crlf_is_kept_and_a_terminal_sees_escapes() {
        let raw: &[u8] = b"Subject: \x1b]0;t\x07\r\n\r\nbody\r\n";
        let mut exact = Vec::new();
        write(&mut exact, &[raw], false).unwrap();
        assert_eq!(&exact[FROM_LINE.len()..exact.len() - 1], raw);
        let mut shown = Vec::new();
        write(&mut shown, &[raw], true).unwrap();
        let shown = String::from_utf8(shown).unwrap();
        assert!(shown.contains("\\x1b]0;t\\x07\\x0d"), "{shown}");
        assert!(!shown.contains('\x1b'));
    }

    proptest::proptest! {
        /// Any body of lines made of `From `, `>`, text and CRLF reads
        /// back through regtrack's mbox reader as it was written.
        #[test]
        fn any_from_lines_read_back_unchanged(
            lines in proptest::collection::vec("(>{0,3}From |>|From|x| )[a-z >]{0,6}\r?", 0..12)
        ) {
            let mut raw = b"From: a@x\nMessage-ID: <p@x>\n\n".to_vec();
            for l in &lines {
                raw.extend_from_slice(l.as_bytes());
                raw.push(b'\n');
            }
            raw.extend_from_slice(b"end\n");
            let mut out = Vec::new();
            message_bytes(&mut out, &raw);
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("t.mbox");
            std::fs::write(&path, &out).unwrap();
            let back: Vec<Vec<u8>> = crate::source::open(&path)
                .unwrap()
                .map(|r| r.unwrap().bytes.to_vec())
                .collect();
            proptest::prop_assert_eq!(back.len(), 1);
            proptest::prop_assert_eq!(&back[0], &raw);
        }
    }

    #[test]
    fn what_is_written_reads_back_as_the_same_messages() {
        let a: &[u8] = b"From: a@x\nMessage-ID: <a@x>\n\nFrom the start\n>From quoted\n";
        let b: &[u8] = b"From: b@x\nMessage-ID: <b@x>\n\nno newline at the end";
        let mut out = Vec::new();
        write(&mut out, &[a, b], false).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.mbox");
        std::fs::write(&path, &out).unwrap();
        let back: Vec<Vec<u8>> = crate::source::open(&path)
            .unwrap()
            .map(|r| r.unwrap().bytes.to_vec())
            .collect();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0], a);
        assert!(back[1].starts_with(b"From: b@x\nMessage-ID: <b@x>\n\nno newline at the end"));
    }
}
