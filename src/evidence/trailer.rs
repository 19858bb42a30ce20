//! Trailers (grammar: `grammar/evidence-trailer.md`): `Fixes:` (with the commit
//! id and title split out), `Reported-by:`, `Closes:`, `Link:`, `Tested-by:`,
//! `Reviewed-by:`, `Acked-by:`, `Signed-off-by:`, `Suggested-by:`, `Cc:` and a
//! few more, at any quote depth. The robot's "kindly add following tag(s)"
//! block (also with `| `-prefixed lines) holds suggestions: `suggested: true`.

use nom::{
    IResult, Parser,
    bytes::complete::{tag, take_till, take_while_m_n, take_while1},
    character::complete::{char, space0, space1},
    combinator::{recognize, rest},
    sequence::preceded,
};

use std::sync::LazyLock;

use regex::Regex;

use super::BodyView;
use crate::model::Trailer;

/// Trailer keys regtrack recognises, in canonical case.
pub const KEYS: [&str; 14] = [
    "Fixes",
    "Reported-by",
    "Closes",
    "Link",
    "Tested-by",
    "Reviewed-by",
    "Acked-by",
    "Signed-off-by",
    "Suggested-by",
    "Cc",
    "Co-developed-by",
    "Reported-and-tested-by",
    "Suggested-and-reviewed-by",
    "Debugged-by",
];

/// Parses every trailer of `body` (pure entry point for fuzzing and benches).
pub fn parse_trailers(body: &str) -> Vec<Trailer> {
    let view = BodyView::new(body);
    let scan = super::diff::scan(&view);
    trailers_in(&view, &scan.in_diff)
}

/// ```text
/// key := alpha ( alnum | "-" )*
/// ```
pub fn key(i: &str) -> IResult<&str, &str> {
    recognize((
        take_while_m_n(1, 1, |c: char| c.is_ascii_alphabetic()),
        take_till(|c: char| !(c.is_ascii_alphanumeric() || c == '-')),
    ))
    .parse(i)
}

/// ```text
/// trailer := ws* ("| ")? key ":" ws+ value
/// ```
/// Returns the canonical key (only known keys) and the trimmed value.
pub fn trailer(i: &str) -> IResult<&str, (&'static str, &str)> {
    let (r, _) = space0.parse(i)?;
    let r = r.strip_prefix("| ").unwrap_or(r);
    let (r, (k, _, _, v)) = (key, char(':'), space1, rest).parse(r)?;
    let canonical = KEYS
        .iter()
        .find(|c| c.eq_ignore_ascii_case(k))
        .ok_or_else(|| nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Tag)))?;
    let v = v.trim();
    if v.is_empty() {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Eof,
        )));
    }
    Ok((r, (canonical, v)))
}

/// ```text
/// fixes_value := hex{7,40} ws+ "(" '"' title '"' ")"
/// ```
/// The title runs to the last `")`, so titles holding quotes (`Revert "x"`) stay whole.
pub fn fixes_value(i: &str) -> IResult<&str, (&str, Option<&str>)> {
    let (r, id) = take_while1(|c: char| c.is_ascii_hexdigit()).parse(i)?;
    if !(7..=40).contains(&id.len()) {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::HexDigit,
        )));
    }
    let titled: IResult<&str, &str> = preceded((space1, tag("(\"")), rest).parse(r);
    match titled {
        Ok((_, inner)) => {
            let inner = inner.trim_end();
            match inner.rfind("\")") {
                Some(p) => Ok((inner.get(p + 2..).unwrap_or(""), (id, inner.get(..p)))),
                None => Ok((r, (id, None))),
            }
        }
        Err(_) => Ok((r, (id, None))),
    }
}

/// True when a line opens the robot's suggestion block.
fn opens_suggestions(text: &str) -> bool {
    let b = text.as_bytes();
    let has = |needle: &[u8]| {
        b.windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
    };
    INDLY_ADD.find(b).is_some() && has(b"kindly add") && has(b"tag")
}

/// What a line opening the suggestion block holds (looked for in the whole
/// body first: most bodies have no such line).
static INDLY_ADD: LazyLock<memchr::memmem::Finder<'static>> =
    LazyLock::new(|| memchr::memmem::Finder::new(b"indly add"));

/// True when a line may hold a trailer: a `:` followed by a blank.
fn may_be_trailer(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr_iter(b':', b).any(|i| matches!(b.get(i + 1), Some(b' ' | b'\t')))
}

/// Trailers of a body's lines, skipping diff lines.
pub fn trailers_in(view: &BodyView<'_>, in_diff: &[bool]) -> Vec<Trailer> {
    if view.collapsed {
        return view
            .lines
            .iter()
            .flat_map(|l| trailers_collapsed(l.text))
            .collect();
    }
    let mut out = Vec::new();
    // (depth, seen a trailer yet) while inside a suggestion block.
    let mut block: Option<(u32, bool)> = None;
    let lines = &view.lines;
    let may_suggest = INDLY_ADD.find(view.body.as_bytes()).is_some();
    for (i, line) in lines.iter().enumerate() {
        if in_diff.get(i).copied().unwrap_or(false) {
            block = None;
            continue;
        }
        if may_suggest && opens_suggestions(line.text) {
            block = Some((line.depth, false));
            continue;
        }
        let parsed = may_be_trailer(line.text)
            .then(|| trailer(line.text).ok().map(|(_, kv)| kv))
            .flatten();
        if let Some((d, seen)) = block {
            let blank = line.text.trim().is_empty();
            // A blank line before the first tag keeps the block open.
            let keeps = parsed.is_some() || (blank && !seen);
            // Some clients turn the block's `| ` into one more `>`.
            if !(line.depth == d || (line.depth == d + 1 && parsed.is_some())) || !keeps {
                block = None;
            } else if parsed.is_some() {
                block = Some((d, true));
            }
        }
        let Some((k, v)) = parsed else { continue };
        let mut value = v.to_string();
        // A Fixes title wrapped onto the next line(s).
        if k == "Fixes" && value.contains("(\"") && !value.contains("\")") {
            for next in lines.iter().skip(i + 1).take(2) {
                if next.depth != line.depth || next.text.trim().is_empty() {
                    break;
                }
                value.push(' ');
                value.push_str(next.text.trim());
                if value.contains("\")") {
                    break;
                }
            }
        }
        let (commit, title) = if k == "Fixes" {
            match fixes_value(&value) {
                Ok((_, (id, t))) => (Some(id.to_ascii_lowercase()), t.map(str::to_string)),
                Err(_) => (None, None),
            }
        } else {
            (None, None)
        };
        out.push(Trailer {
            key: k.to_string(),
            value,
            suggested: block.is_some(),
            commit,
            title,
            quote_depth: line.depth,
        });
    }
    out
}

/// A known key inside collapsed text (any case), preceded by a blank or the start.
static RE_COLLAPSED_KEY: LazyLock<Regex> = LazyLock::new(|| {
    let keys: Vec<String> = KEYS.iter().map(|k| regex::escape(k)).collect();
    Regex::new(&format!(r"(?i)(?:^|\s)(?:\|\s)?({}):\s", keys.join("|"))).expect("valid regex")
});

/// A collapsed `Fixes:` value: the id and an optional title up to the first `")`.
static RE_COLLAPSED_FIXES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^[0-9a-fA-F]{7,40}(?-u:\b)(?:\s+\("[^\n]*?"\))?"#).expect("valid regex")
});

/// Trailers of a whitespace-collapsed text, where line ends are lost: a URL
/// key takes one token, `Fixes:` its id and `("title")`, a person key the
/// words up to an address (or two words when the archive stripped it). A
/// `kindly add` within 300 bytes before marks a suggestion.
pub fn trailers_collapsed(text: &str) -> Vec<Trailer> {
    let marks = super::QuoteMarks::new(text);
    let mut out = Vec::new();
    let keys: Vec<_> = RE_COLLAPSED_KEY.captures_iter(text).collect();
    for (n, c) in keys.iter().enumerate() {
        let (Some(k), Some(whole)) = (c.get(1), c.get(0)) else {
            continue;
        };
        let Some(canonical) = KEYS.iter().find(|x| x.eq_ignore_ascii_case(k.as_str())) else {
            continue;
        };
        let next = keys
            .get(n + 1)
            .and_then(|c| c.get(0))
            .map_or(text.len(), |m| m.start());
        let rest = text.get(whole.end()..next).unwrap_or("").trim_start();
        let words: Vec<&str> = rest.split_whitespace().collect();
        let value = match *canonical {
            "Closes" | "Link" => words.first().map(|w| w.to_string()),
            "Fixes" => RE_COLLAPSED_FIXES
                .find(rest)
                .map(|m| m.as_str().to_string()),
            _ => {
                let upto = words
                    .iter()
                    .take(6)
                    .position(|w| w.contains('@') || w.ends_with('>'))
                    .map_or(2, |p| p + 1);
                Some(
                    words
                        .iter()
                        .take(upto)
                        .copied()
                        .collect::<Vec<_>>()
                        .join(" "),
                )
            }
        };
        let Some(value) = value.filter(|v| !v.is_empty()) else {
            continue;
        };
        let (commit, title) = if *canonical == "Fixes" {
            match fixes_value(&value) {
                Ok((_, (id, t))) => (
                    Some(id.to_ascii_lowercase()),
                    t.map(super::strip_collapsed_quotes),
                ),
                Err(_) => (None, None),
            }
        } else {
            (None, None)
        };
        let before = text
            .get(whole.start().saturating_sub(300)..whole.start())
            .unwrap_or("");
        out.push(Trailer {
            key: canonical.to_string(),
            value,
            suggested: opens_suggestions(before),
            commit,
            title,
            quote_depth: marks.depth_right_before(text, whole.start() + 1),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trailer_line_gives_canonical_key_and_value() {
        assert_eq!(
            trailer("reported-BY:  kernel test robot <lkp@intel.com> "),
            Ok(("", ("Reported-by", "kernel test robot <lkp@intel.com>")))
        );
        assert_eq!(
            trailer("| Closes: https://lore.kernel.org/oe-lkp/x@y"),
            Ok(("", ("Closes", "https://lore.kernel.org/oe-lkp/x@y")))
        );
        assert!(trailer("Hello: world").is_err());
        assert!(trailer("Fixes:").is_err());
    }

    #[test]
    fn key_stops_at_the_colon() {
        assert_eq!(key("Signed-off-by: x"), Ok((": x", "Signed-off-by")));
    }

    #[test]
    fn fixes_value_splits_id_and_title_even_with_inner_quotes() {
        assert_eq!(
            fixes_value("8d59d2214c23 (\"mm: memcg: make stats flushing threshold per-memcg\")"),
            Ok((
                "",
                (
                    "8d59d2214c23",
                    Some("mm: memcg: make stats flushing threshold per-memcg")
                )
            ))
        );
        assert_eq!(
            fixes_value("abcdef1 (\"Revert \"x\"\")").map(|(_, v)| v),
            Ok(("abcdef1", Some("Revert \"x\"")))
        );
        assert_eq!(fixes_value("abcdef1234"), Ok(("", ("abcdef1234", None))));
        assert!(fixes_value("abc").is_err());
    }

    #[test]
    fn the_robot_block_is_suggested_and_own_trailers_are_not() {
        let body = "If you fix the issue, kindly add following tag\n\
                    | Reported-by: kernel test robot <oliver.sang@intel.com>\n\
                    | Closes: https://lore.kernel.org/oe-lkp/1@intel.com\n\n\
                    Details\n\nSigned-off-by: A <a@b>\n";
        let t = parse_trailers(body);
        assert_eq!(t.len(), 3);
        assert!(t[0].suggested && t[1].suggested);
        assert_eq!(t[1].key, "Closes");
        assert!(!t[2].suggested);
    }

    #[test]
    fn collapsed_trailers_take_what_their_key_allows() {
        let t = trailers_collapsed(
            "fix below. Fixes: 8d59d2214c23 (\"mm: memcg: stats\") (\"x\") Tested-by: Eve Example Regards \
             Eve kindly add following tag | Reported-by: kernel test robot <lkp@intel.com> \
             | Closes: https://lore.kernel.org/oe-lkp/1@intel.com Details",
        );
        let got: Vec<_> = t
            .iter()
            .map(|t| (t.key.as_str(), t.value.as_str(), t.suggested))
            .collect();
        assert_eq!(
            got,
            [
                ("Fixes", "8d59d2214c23 (\"mm: memcg: stats\")", false),
                ("Tested-by", "Eve Example", false),
                ("Reported-by", "kernel test robot <lkp@intel.com>", true),
                ("Closes", "https://lore.kernel.org/oe-lkp/1@intel.com", true),
            ]
        );
        assert_eq!(t[0].title.as_deref(), Some("mm: memcg: stats"));
        assert!(t.iter().all(|t| t.quote_depth == 0));
        let q = trailers_collapsed("On x, A wrote: > > Reported-by: B C > thanks Tested-by: D E");
        let depths: Vec<_> = q.iter().map(|t| (t.key.as_str(), t.quote_depth)).collect();
        assert_eq!(depths, [("Reported-by", 2), ("Tested-by", 0)]);
    }

    #[test]
    fn a_wrapped_fixes_title_is_joined_and_depth_kept() {
        let t = parse_trailers("> Fixes: 8d59d2214c23 (\"mm: memcg: make stats\n> flushing\")\n");
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].commit.as_deref(), Some("8d59d2214c23"));
        assert_eq!(
            t[0].title.as_deref(),
            Some("mm: memcg: make stats flushing")
        );
        assert_eq!(t[0].quote_depth, 1);
    }
}
