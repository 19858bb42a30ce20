//! Line views of a decoded body: quote depth, offsets, and the `±` repairs that
//! every extractor needs. Pure functions over `&str`, shared by `report` and
//! `evidence` so that both read quoted text the same way.

/// One line of a body with its quote prefix removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// Number of `>` quote markers in front of the text (`> > `, `>>`, `> >>`).
    pub depth: u32,
    /// The text after the quote prefix (one space after the last `>` removed).
    pub text: &'a str,
    /// Byte offset of the line's first byte in the body (its number is its
    /// index in [`lines`] plus one).
    pub offset: usize,
}

/// Whether text may be searched ASCII-lower-cased and case-sensitively in
/// place of a `(?i)` pattern of ASCII words: the only non-ASCII letters
/// Unicode case folding maps onto ASCII ones are `ſ` and the Kelvin sign;
/// text holding one must be searched as it is, case-insensitively.
pub fn lowers_safely(text: &str) -> bool {
    // Byte searches for their UTF-8 forms: `contains` with a set of chars
    // decodes every char of the text.
    let b = text.as_bytes();
    text.is_ascii()
        || (memchr::memmem::find(b, "\u{17f}".as_bytes()).is_none()
            && memchr::memmem::find(b, "\u{212a}".as_bytes()).is_none())
}

/// Whether `hay` may contain the ASCII `needle` (lower-case) under a
/// case-insensitive pattern: `false` only for ASCII text lacking it in every
/// ASCII case (other text may hold `K` or `ſ`, which fold to `k` and `s`).
/// A cheap test before a `(?i)` pattern that needs the word runs on a line.
pub fn may_contain_ci(hay: &str, needle: &str) -> bool {
    if !hay.is_ascii() {
        return true;
    }
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    // The search is for the needle's least common letter (in English), not
    // its first: `drop` is looked for at its `p`, one byte in fifty of
    // prose, not at its `d`.
    let Some((i, &rare)) = n.iter().enumerate().min_by_key(|(_, b)| commonness(**b)) else {
        return true;
    };
    let (lower, upper) = (rare.to_ascii_lowercase(), rare.to_ascii_uppercase());
    let mut at = i;
    while let Some(k) = memchr::memchr2(lower, upper, h.get(at..).unwrap_or_default()) {
        let start = at + k - i;
        if h.get(start..start + n.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(n))
        {
            return true;
        }
        at += k + 1;
    }
    false
}

/// How common an ASCII byte is in English mail (letters by their usual
/// frequency order; anything else counts as rare).
fn commonness(b: u8) -> u8 {
    const ORDER: &[u8] = b" etaoinshrdlcumwfgypbvkjxqz";
    ORDER
        .iter()
        .position(|&c| c == b.to_ascii_lowercase())
        .map_or(0, |p| 100 - p as u8)
}

/// Splits a quote prefix off one line: returns the depth and the rest.
///
/// ```text
/// quote_prefix := ( ">" " "? )*      ; a space after '>' belongs to the prefix
/// ```
/// Leading blanks before the first `>` are allowed (up to 3, as mail clients
/// indent attributions). The single space after the last `>` is removed; any
/// further white space (table alignment) is kept.
pub fn split_quote(line: &str) -> (u32, &str) {
    let bytes = line.as_bytes();
    let mut i = 0;
    let mut lead = 0;
    while i < bytes.len() && bytes[i] == b' ' && lead < 3 {
        i += 1;
        lead += 1;
    }
    if i >= bytes.len() || bytes[i] != b'>' {
        return (0, line);
    }
    let mut depth = 0;
    let mut last_end = 0;
    while i < bytes.len() && bytes[i] == b'>' {
        depth += 1;
        i += 1;
        last_end = i;
        if i < bytes.len() && bytes[i] == b' ' && bytes.get(i + 1) == Some(&b'>') {
            i += 1;
            last_end = i;
        }
    }
    let mut rest = &line[last_end..];
    if let Some(stripped) = rest.strip_prefix(' ') {
        rest = stripped;
    }
    (depth, rest)
}

/// `text.split_inclusive('\n')`, with line ends found by a SIMD memchr
/// (`str`'s char searcher takes a byte-wise path for short lines).
pub fn raw_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0usize;
    memchr::memchr_iter(b'\n', text.as_bytes())
        .map(|p| p + 1)
        .chain((!text.ends_with('\n') && !text.is_empty()).then_some(text.len()))
        .map(move |end| {
            let raw = text.get(start..end).unwrap_or_default();
            start = end;
            raw
        })
}

/// `str::trim`, returning at once for the common line that starts and ends
/// with a visible ASCII character (no white space of any kind to remove).
pub fn trim(s: &str) -> &str {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(f), Some(l)) if f.is_ascii_graphic() && l.is_ascii_graphic() => s,
        _ => s.trim(),
    }
}

/// Literal strings looked for in a whole text, each with memchr's SIMD
/// search: the test an extractor runs before reading a body's lines, when
/// whatever it finds must hold one of them.
#[derive(Debug)]
pub struct Needles(Vec<memchr::memmem::Finder<'static>>);

impl Needles {
    /// Searchers for `needles`, built once (keep them in a static).
    pub fn new(needles: &[&'static str]) -> Needles {
        Needles(
            needles
                .iter()
                .map(|n| memchr::memmem::Finder::new(*n))
                .collect(),
        )
    }

    /// Whether `text` holds one of the needles.
    pub fn any_in(&self, text: &str) -> bool {
        self.0.iter().any(|f| f.find(text.as_bytes()).is_some())
    }

    /// The indexes of the `lines` of `body` (as [`lines`] gives them) that
    /// hold a needle, in order, each once: an extractor whose matches must
    /// hold a needle reads only these lines instead of all of them.
    pub fn lines_holding(&self, body: &str, lines: &[Line<'_>]) -> Vec<usize> {
        let mut at: Vec<usize> = self
            .0
            .iter()
            .flat_map(|f| f.find_iter(body.as_bytes()))
            .map(|pos| lines.partition_point(|l| l.offset <= pos).saturating_sub(1))
            .collect();
        at.sort_unstable();
        at.dedup();
        at
    }
}

/// Iterates over the lines of a body (LF or CRLF), with quote depth and offsets.
pub fn lines(body: &str) -> impl Iterator<Item = Line<'_>> {
    let mut offset = 0usize;
    raw_lines(body).map(move |raw| {
        let start = offset;
        offset += raw.len();
        let trimmed = raw.strip_suffix('\n').unwrap_or(raw);
        let trimmed = trimmed.strip_suffix('\r').unwrap_or(trimmed);
        let (depth, text) = split_quote(trimmed);
        Line {
            depth,
            text,
            offset: start,
        }
    })
}

/// [`lines`] collected, in a vector sized once: the newlines are counted
/// first (a SIMD count), instead of the vector doubling as it fills (about six
/// reallocations and copies per mail).
pub fn line_vec(body: &str) -> Vec<Line<'_>> {
    let n = memchr::memchr_iter(b'\n', body.as_bytes()).count() + 1;
    let mut v = Vec::with_capacity(n);
    v.extend(lines(body));
    v
}

/// Rewrites the mangled forms of the robot's `±` into `±`: `Â±`, `Ä…`/`ą`
/// (iso-8859-2 misread), literal `=C2=B1`/`=B1` (undecoded QP), `A+-`, `+-`, and `~ `
/// (2014 tables). Returns the input unchanged (borrowed) when nothing needs fixing.
pub fn normalize_plus_minus(line: &str) -> std::borrow::Cow<'_, str> {
    const FORMS: [&str; 7] = ["Â±", "Ä…", "=C2=B1", "=C4=85", "A+-", "=B1", "ą"];
    // Every form has a non-ASCII byte, a '=' or a "+-": most lines (diff
    // lines starting with '+' too) are ruled out without searching for each.
    // A `-` after a `+`, found without a searcher built for `"+-"`.
    let b = line.as_bytes();
    let plus_minus = || memchr::memchr_iter(b'-', b).any(|i| i > 0 && b[i - 1] == b'+');
    if line.is_ascii() && memchr::memchr(b'=', b).is_none() && !plus_minus() {
        return std::borrow::Cow::Borrowed(line);
    }
    let needs = FORMS.iter().any(|f| line.contains(f)) || plus_minus();
    if !needs {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut s = line.to_string();
    for f in FORMS {
        if s.contains(f) {
            s = s.replace(f, "±");
        }
    }
    // A bare "+-" is the 2016 dialect's stddev marker when followed by blanks and digits.
    if s.contains("+-") {
        s = s.replace("+-", "±");
    }
    std::borrow::Cow::Owned(s)
}

/// Folds runs of white space (including NBSP and U+202F) into single spaces and trims.
pub fn fold_ws(s: &str) -> String {
    if is_folded(s) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    // Runs of non-space text are copied whole; ASCII bytes are classified
    // without decoding, other characters decoded one at a time.
    let mut run_start: Option<usize> = None;
    let mut i = 0;
    let flush = |out: &mut String, from: usize, to: usize| {
        if let Some(run) = s.get(from..to) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(run);
        }
    };
    let bytes = s.as_bytes();
    while let Some(&b) = bytes.get(i) {
        if run_start.is_some() && b > 0x20 && b < 0x80 {
            // Inside a run, visible ASCII eight bytes at a time.
            i += 1;
            while let Some(w) = bytes.get(i..i + 8)
                && all_in(w, 0x21)
            {
                i += 8;
            }
            continue;
        }
        let (space, len) = if b < 0x80 {
            (
                matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r'),
                1,
            )
        } else {
            let c = s.get(i..).and_then(|r| r.chars().next()).unwrap_or(' ');
            (
                c.is_whitespace() || c == '\u{a0}' || c == '\u{202f}',
                c.len_utf8(),
            )
        };
        match (space, run_start) {
            (true, Some(st)) => {
                flush(&mut out, st, i);
                run_start = None;
            }
            (false, None) => run_start = Some(i),
            _ => {}
        }
        i += len;
    }
    if let Some(st) = run_start {
        flush(&mut out, st, s.len());
    }
    out
}

/// [`fold_ws`], borrowing `s` when it is folded already (ASCII, single spaces
/// between words, none at either end): most subjects and names are.
pub fn fold_ws_cow(s: &str) -> std::borrow::Cow<'_, str> {
    if is_folded(s) {
        std::borrow::Cow::Borrowed(s)
    } else {
        std::borrow::Cow::Owned(fold_ws(s))
    }
}

/// True when [`fold_ws`] leaves `s` as it is: bytes from the space to DEL
/// only (so no other white space, and no other character to decode), no two
/// spaces in a row, none at either end. Most subjects, names and titles are.
fn is_folded(s: &str) -> bool {
    let b = s.as_bytes();
    if b.first() == Some(&b' ') || b.last() == Some(&b' ') {
        return false;
    }
    let mut words = b.chunks_exact(8);
    words.all(|w| all_in(w, 0x20))
        && words.remainder().iter().all(|&c| (0x20..0x80).contains(&c))
        && memchr::memmem::find(b, b"  ").is_none()
}

/// True when the eight bytes of `w` all lie in `low..0x80` (`low` at most
/// 0x7f): a byte below `low` borrows into its top bit, a non-ASCII byte has
/// it set. A borrow carried into a higher byte comes from a byte already
/// below `low`, so the answer is exact.
pub(crate) fn all_in(w: &[u8], low: u8) -> bool {
    let Ok(w) = <[u8; 8]>::try_from(w) else {
        return false;
    };
    let x = u64::from_le_bytes(w);
    let lows = u64::from(low) * 0x0101_0101_0101_0101;
    (x.wrapping_sub(lows) | x) & 0x8080_8080_8080_8080 == 0
}

/// True when a body holding `newlines` newlines looks whitespace-collapsed:
/// long, with almost no newlines.
pub fn looks_collapsed(body: &str, newlines: usize) -> bool {
    body.len() > 2000 && newlines < body.len() / 2000
}

#[cfg(test)]
mod tests {
    #[test]
    fn may_contain_ci_rules_out_only_ascii_text_without_the_word() {
        use super::may_contain_ci;
        assert!(may_contain_ci("I've DROPPED it", "drop"));
        assert!(may_contain_ci("dRoP", "drop"));
        assert!(may_contain_ci("x", ""));
        assert!(!may_contain_ci("I've dr0pped it", "drop"));
        assert!(!may_contain_ci("dro", "drop"));
        assert!(may_contain_ci("drop", "drop") && may_contain_ci("ppDROP", "drop"));
        assert!(may_contain_ci("[ANNOUNCE] next", "[announce]"));
        assert!(!may_contain_ci("p dro p", "drop"));
        // Against the plain search, over every short text of these letters.
        let naive = |h: &str, n: &str| h.to_ascii_lowercase().contains(n);
        let letters = ["d", "r", "o", "p", "D", "P", " "];
        let mut texts = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| letters.iter().map(move |l| format!("{t}{l}")))
                .collect();
            texts.extend(longer);
        }
        for t in &texts {
            for n in ["drop", "pp", "o", "rop"] {
                assert_eq!(may_contain_ci(t, n), naive(t, n), "{t:?} {n}");
            }
        }
        // Not ASCII: not ruled out (the Kelvin sign folds to `k`).
        assert!(may_contain_ci("bac\u{212a}ed out", "backed"));
    }

    use super::*;

    #[test]
    fn quote_prefixes_of_every_client_give_their_depth() {
        assert_eq!(split_quote("> > foo"), (2, "foo"));
        assert_eq!(split_quote(">> foo"), (2, "foo"));
        assert_eq!(split_quote("> >> foo"), (3, "foo"));
        assert_eq!(split_quote(">foo"), (1, "foo"));
        assert_eq!(split_quote("plain"), (0, "plain"));
        assert_eq!(split_quote(">    14484   -6.3%"), (1, "   14484   -6.3%"));
        assert_eq!(split_quote(">"), (1, ""));
    }

    #[test]
    fn line_vec_holds_what_lines_gives_in_one_allocation() {
        for t in ["", "\n", "a", "a\r\n> b", "a\n\n>> b\n", "x\ny\nz"] {
            let v = line_vec(t);
            assert_eq!(v, lines(t).collect::<Vec<_>>(), "{t:?}");
            assert!(v.capacity() <= v.len() + 1, "{t:?}: {}", v.capacity());
        }
    }

    #[test]
    fn raw_lines_split_as_split_inclusive_does() {
        for t in [
            "",
            "\n",
            "a",
            "a\n",
            "a\r\nb",
            "a\n\nb\n",
            "\u{e9}\n\u{2003}",
        ] {
            let ours: Vec<&str> = raw_lines(t).collect();
            let std: Vec<&str> = t.split_inclusive('\n').collect();
            assert_eq!(ours, std, "{t:?}");
        }
    }

    #[test]
    fn trim_is_str_trim() {
        for s in [
            "",
            " ",
            "a",
            " a ",
            "a b",
            "\ta\r",
            "\u{a0}x\u{3000}",
            "x\u{a0}",
            "\u{2003}y",
            "é",
            " é ",
            "a\u{85}",
            "\u{85}a",
            "!",
            "\x7f",
        ] {
            assert_eq!(trim(s), s.trim(), "{s:?}");
        }
    }

    #[test]
    fn needles_find_any_of_their_literals() {
        let n = Needles::new(&["lore.kernel.org", "#syz"]);
        assert!(n.any_in("see https://lore.kernel.org/r/x@y"));
        assert!(n.any_in("#syz test"));
        assert!(!n.any_in("lore kernel org"));
        assert!(!Needles::new(&[]).any_in("anything"));
    }

    #[test]
    fn lines_carry_depth_text_and_offsets() {
        let v: Vec<_> = lines("a\r\n> b\nc").collect();
        assert_eq!(v.len(), 3);
        assert_eq!(v[1].depth, 1);
        assert_eq!(v[1].text, "b");
        assert_eq!(v[1].offset, 3);
        assert_eq!((v[2].offset, v[2].text), (7, "c"));
    }

    #[test]
    fn mangled_plus_minus_forms_are_repaired() {
        assert_eq!(normalize_plus_minus("1 Â± 4%"), "1 ± 4%");
        assert_eq!(normalize_plus_minus("1 =C2=B1 4%"), "1 ± 4%");
        assert_eq!(normalize_plus_minus("1 A+-  4%"), "1 ±  4%");
        assert_eq!(normalize_plus_minus("1 Ä… 4%"), "1 ± 4%");
        assert!(matches!(
            normalize_plus_minus("plain"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn fold_ws_collapses_runs_and_nbsp() {
        assert_eq!(fold_ws("  a \u{a0}\t b  "), "a b");
        assert_eq!(
            fold_ws("x\u{2003}\u{85}y\u{3000}\u{202f}z\x0bé ±"),
            "x y z é ±"
        );
        assert_eq!(fold_ws(" \n\t "), "");
    }

    #[test]
    fn lines_holding_gives_each_line_with_a_needle_once_in_order() {
        let needles = Needles::new(&["lore", "msgid"]);
        let body = "lore and msgid\r\nnothing\n> a lore\nlast lore";
        let ls: Vec<Line<'_>> = lines(body).collect();
        assert_eq!(needles.lines_holding(body, &ls), [0, 2, 3]);
        assert!(
            needles
                .lines_holding("none here\n", &lines("none here\n").collect::<Vec<_>>())
                .is_empty()
        );
    }

    #[test]
    fn fold_ws_cow_borrows_only_what_is_folded_already() {
        use std::borrow::Cow;
        assert!(matches!(
            fold_ws_cow("[xfs] 2edf06a50f: a b"),
            Cow::Borrowed(_)
        ));
        assert!(matches!(fold_ws_cow(""), Cow::Borrowed(_)));
        for s in ["a  b", " a", "a ", "a\tb", "a\nb", "caf\u{e9}", "a\u{a0}b"] {
            assert!(matches!(fold_ws_cow(s), Cow::Owned(_)), "{s:?}");
            assert_eq!(fold_ws_cow(s), fold_ws(s));
        }
    }

    /// The char-by-char definition `fold_ws` must agree with.
    fn fold_ws_reference(s: &str) -> String {
        let mut out = String::new();
        let mut pending = false;
        for c in s.chars() {
            if c.is_whitespace() || c == '\u{a0}' || c == '\u{202f}' {
                pending = !out.is_empty();
            } else {
                if pending {
                    out.push(' ');
                    pending = false;
                }
                out.push(c);
            }
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn fold_ws_agrees_with_its_char_by_char_definition(
            s in "[ a-z!~\x01\x1f\x7f\t\n\r\u{a0}\u{202f}\u{2003}\u{85}é±\x0b]{0,80}"
        ) {
            proptest::prop_assert_eq!(fold_ws(&s), fold_ws_reference(&s));
            proptest::prop_assert_eq!(fold_ws_cow(&s), fold_ws_reference(&s));
        }

        #[test]
        fn fold_ws_agrees_on_long_words(s in "([a-z!~\x7f]{0,20}[ \t\u{a0}é\x01]{0,2}){0,6}") {
            proptest::prop_assert_eq!(fold_ws(&s), fold_ws_reference(&s));
            proptest::prop_assert_eq!(fold_ws_cow(&s), fold_ws_reference(&s));
        }

        #[test]
        fn fold_ws_cow_agrees_on_mostly_folded_text(s in "[ a-z:\\[\\]]{0,30}") {
            proptest::prop_assert_eq!(fold_ws_cow(&s), fold_ws_reference(&s));
        }
    }
}
