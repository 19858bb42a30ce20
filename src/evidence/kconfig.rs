//! Kconfig changes (grammar: `grammar/evidence-kconfig.md`), in diffs of a
//! `.config` and in loose lists (`-CONFIG_XFS_DEBUG=y`, `+# CONFIG_XFS_WARN is
//! not set`), and in `scripts/diffconfig` output (`-XFS_DEBUG y`, `+XFS_WARN n`,
//! ` XFS_DEBUG y -> n`). Lines are paired per option: the `-` value is `before`,
//! the `+` value `after`.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_while1},
    character::complete::{one_of, space0, space1},
    combinator::{eof, map, rest},
    sequence::{delimited, preceded, terminated},
};

use super::BodyView;
use crate::model::KconfigChange;

/// One side of a change: sign, option, value (`None` for a bare `-CONFIG_X`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KconfigLine<'a> {
    /// `-`, `+`, or ` ` for an arrow line.
    pub sign: char,
    /// Option name without `CONFIG_`.
    pub option: &'a str,
    /// Value (`y`, `m`, `"str"`, `not set`).
    pub value: &'a str,
    /// For a diffconfig arrow line: the new value.
    pub arrow_to: Option<&'a str>,
}

/// ```text
/// name := (upper | digit | "_")+
/// ```
pub fn name(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_').parse(i)
}

/// ```text
/// config_line := sign ( "# CONFIG_" name " is not set" | "CONFIG_" name "=" value )
/// ```
pub fn config_line(i: &str) -> IResult<&str, KconfigLine<'_>> {
    let (r, sign) = one_of("-+").parse(i)?;
    alt((
        map(
            delimited(tag("# CONFIG_"), name, (tag(" is not set"), space0, eof)),
            move |option| KconfigLine {
                sign,
                option,
                value: "not set",
                arrow_to: None,
            },
        ),
        map(
            (preceded(tag("CONFIG_"), name), preceded(tag("="), rest)),
            move |(option, value): (&str, &str)| KconfigLine {
                sign,
                option,
                value: value.trim(),
                arrow_to: None,
            },
        ),
    ))
    .parse(r)
}

/// ```text
/// diffconfig_line := sign name " " value
///                  | ws name " " value " -> " value
/// value := non-space+
/// ```
/// Names need an `_` (bare words are too often prose).
pub fn diffconfig_line(i: &str) -> IResult<&str, KconfigLine<'_>> {
    let value = || take_while1(|c: char| !c.is_whitespace());
    let (r, line) = alt((
        map(
            (one_of("-+"), name, preceded(space1, value()), space0),
            |(sign, option, value, _)| KconfigLine {
                sign,
                option,
                value,
                arrow_to: None,
            },
        ),
        map(
            (
                preceded(space1, name),
                preceded(space1, value()),
                preceded(tag(" -> "), terminated(value(), space0)),
            ),
            |(option, value, to)| KconfigLine {
                sign: ' ',
                option,
                value,
                arrow_to: Some(to),
            },
        ),
    ))
    .parse(i)?;
    let valid = |v: &str| {
        matches!(v, "y" | "m" | "n")
            || v.starts_with('"')
            || v.parse::<i64>().is_ok()
            || v.starts_with("0x")
    };
    if !line.option.contains('_')
        || !r.is_empty()
        || !valid(line.value)
        || !line.arrow_to.is_none_or(valid)
    {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        )));
    }
    Ok((r, line))
}

/// Whether a line can be a `config_line` or a `diffconfig_line`, from what
/// both grammars fix: a sign and then `#` or a name character, or a blank
/// and ` -> `; and an option name with `_`. Most diff lines (`+\tfoo_bar();`)
/// fail at their second byte.
fn may_be_kconfig(t: &str) -> bool {
    // Built once: `str::contains` builds a searcher each call, and most
    // diff context lines start with a blank.
    static ARROW: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(" -> "));
    let b = t.as_bytes();
    let shape = match b.first() {
        Some(b'-' | b'+') => {
            matches!(b.get(1), Some(&c) if c == b'#' || c == b'_' || c.is_ascii_uppercase() || c.is_ascii_digit())
        }
        Some(b' ') => ARROW.find(b).is_some(),
        _ => false,
    };
    shape && memchr::memchr(b'_', b).is_some()
}

/// Kconfig changes of a body's lines (diff lines included), one per option.
pub fn changes_in(view: &BodyView<'_>) -> Vec<KconfigChange> {
    let mut out: Vec<KconfigChange> = Vec::new();
    for line in &view.lines {
        let t = line.text.trim_end();
        if !may_be_kconfig(t) {
            continue;
        }
        let Ok((_, k)) = config_line(t).or_else(|_| diffconfig_line(t)) else {
            continue;
        };
        let ix = match out.iter().position(|c| c.option == k.option) {
            Some(ix) => ix,
            None => {
                out.push(KconfigChange {
                    option: k.option.to_string(),
                    before: None,
                    after: None,
                });
                out.len() - 1
            }
        };
        let Some(c) = out.get_mut(ix) else { continue };
        match (k.sign, k.arrow_to) {
            ('-', _) => c.before = Some(k.value.to_string()),
            ('+', _) => c.after = Some(k.value.to_string()),
            (_, Some(to)) => {
                c.before = Some(k.value.to_string());
                c.after = Some(to.to_string());
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cheap_test_passes_every_form_the_grammar_reads() {
        for t in [
            "-CONFIG_XFS_DEBUG=y",
            "+# CONFIG_XFS_WARN is not set",
            "-XFS_DEBUG y",
            "+XFS_WARN n",
            " XFS_DEBUG y -> n",
            "  KASAN_INLINE n -> y",
            "-_X_Y 1",
            "+9P_FS m",
        ] {
            assert!(config_line(t).is_ok() || diffconfig_line(t).is_ok(), "{t}");
            assert!(may_be_kconfig(t), "{t}");
        }
        for t in [
            "+\tfoo_bar();",
            "-\tif (a_b)",
            " static int x_y;",
            "+ x_y",
            "--- a/fs/xfs/x_y.c",
            "-XFSDEBUG y",
            " XFS_DEBUG y",
        ] {
            assert!(!may_be_kconfig(t), "{t}");
        }
    }

    #[test]
    fn config_lines_of_both_forms() {
        assert_eq!(
            config_line("-CONFIG_XFS_DEBUG=y"),
            Ok((
                "",
                KconfigLine {
                    sign: '-',
                    option: "XFS_DEBUG",
                    value: "y",
                    arrow_to: None
                }
            ))
        );
        assert_eq!(
            config_line("+# CONFIG_XFS_WARN is not set").map(|(r, k)| (r, k.value)),
            Ok(("", "not set"))
        );
        assert!(config_line(" CONFIG_X=y").is_err());
        assert!(config_line("+# CONFIG_X is not set, really").is_err());
    }

    #[test]
    fn diffconfig_lines_need_an_underscore_and_a_value() {
        assert_eq!(
            diffconfig_line(" XFS_DEBUG y -> n").map(|(_, k)| (k.value, k.arrow_to)),
            Ok(("y", Some("n")))
        );
        assert!(diffconfig_line("-XFS_DEBUG y").is_ok());
        assert!(diffconfig_line("-SMP y").is_err());
        assert!(diffconfig_line("-FOO_BAR is bad").is_err());
    }

    #[test]
    fn removed_and_added_lines_pair_per_option() {
        let body = "> > -CONFIG_XFS_DEBUG=y\n> > -CONFIG_XFS_ASSERT_FATAL=y\n\
                    > > +# CONFIG_XFS_WARN is not set\n> > +# CONFIG_XFS_DEBUG is not set\n";
        let c = changes_in(&BodyView::new(body));
        let got: Vec<_> = c
            .iter()
            .map(|c| (c.option.as_str(), c.before.as_deref(), c.after.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("XFS_DEBUG", Some("y"), Some("not set")),
                ("XFS_ASSERT_FATAL", Some("y"), None),
                ("XFS_WARN", None, Some("not set")),
            ]
        );
    }
}
