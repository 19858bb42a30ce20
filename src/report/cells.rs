//! Cell-level tokens of the robot's comparison tables (`grammar/lkp-table.md`,
//! section "Cells"): numbers, stddev marks, change cells, `fail:runs` cells,
//! commit-id columns and the rule rows. Each function is named after its
//! production and works on one whitespace-free token.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char, digit0, digit1, one_of};
use nom::combinator::{all_consuming, opt, recognize};
use nom::{IResult, Parser};

use crate::model::{Change, ChangeUnit};

/// ```text
/// number := "-"? digits ("." digits)? (("e" | "E") ("+" | "-")? digits)?
/// ```
fn number_text(i: &str) -> IResult<&str, &str> {
    recognize((
        opt(char('-')),
        digit1,
        opt((char('.'), digit1)),
        opt((one_of("eE"), opt(one_of("+-")), digit1)),
    ))
    .parse(i)
}

/// A whole token that is a `number`: `7317310`, `-12`, `138.62`, `2.331e+09`, `1e+09`.
pub fn number(tok: &str) -> Option<f64> {
    let (_, text) = all_consuming(number_text).parse(tok).ok()?;
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// ```text
/// change := ("+" | "-") number "%"?        ; relative with "%", absolute without
///         | ("+" | "-")? ("Inf" | "NaN") "%"
///         | number "%"                      ; 2016-2019 dialect: "186%"
/// ```
/// Returns the change; `value` is null for `+Inf%`/`NaN%`.
pub fn change(tok: &str) -> Option<Change> {
    fn signed(i: &str) -> IResult<&str, (char, &str, Option<char>)> {
        (
            one_of("+-"),
            recognize((digit1, take_while(is_num_tail))),
            opt(char('%')),
        )
            .parse(i)
    }
    fn infinite(i: &str) -> IResult<&str, &str> {
        recognize((
            opt(one_of("+-")),
            alt((tag("Inf"), tag("NaN"), tag("inf"))),
            char('%'),
        ))
        .parse(i)
    }
    if all_consuming(infinite).parse(tok).is_ok() {
        return Some(Change {
            value: None,
            unit: ChangeUnit::Percent,
        });
    }
    if let Ok((_, (sign, digits, pct))) = all_consuming(signed).parse(tok) {
        let v = number(digits)?;
        let v = if sign == '-' { -v } else { v };
        let unit = if pct.is_some() {
            ChangeUnit::Percent
        } else {
            ChangeUnit::Abs
        };
        return Some(Change {
            value: Some(v),
            unit,
        });
    }
    let rest = tok.strip_suffix('%')?;
    number(rest).map(|v| Change {
        value: Some(v),
        unit: ChangeUnit::Percent,
    })
}

fn is_num_tail(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-')
}

/// ```text
/// stddev_mark := "±" | "~"                  ; "~" in 2014 tables
/// ```
pub fn is_stddev_mark(tok: &str) -> bool {
    tok == "±" || tok == "~"
}

/// ```text
/// stddev_pct := digits ("." digits)? "%"
/// ```
pub fn stddev_pct(tok: &str) -> Option<f64> {
    let (_, (d, _)) = all_consuming((
        recognize((digit1, opt((char('.'), digit0)))),
        char::<&str, nom::error::Error<&str>>('%'),
    ))
    .parse(tok)
    .ok()?;
    d.parse().ok()
}

/// ```text
/// stddev_glued := stddev_mark stddev_pct    ; "±100%", "~104%"
/// ```
pub fn stddev_glued(tok: &str) -> Option<f64> {
    let rest = tok.strip_prefix('±').or_else(|| tok.strip_prefix('~'))?;
    stddev_pct(rest)
}

/// ```text
/// fail_cell := digits? ":" digits           ; ":200" is 0 of 200, "35:200"
/// ```
pub fn fail_cell(tok: &str) -> Option<(u64, u64)> {
    let (_, (f, _, r)) =
        all_consuming((digit0::<&str, nom::error::Error<&str>>, char(':'), digit1))
            .parse(tok)
            .ok()?;
    let fails = if f.is_empty() { 0 } else { f.parse().ok()? };
    Some((fails, r.parse().ok()?))
}

/// ```text
/// reproduction := "-"? digits ("." digits)? "%"
/// ```
pub fn reproduction(tok: &str) -> Option<f64> {
    number(tok.strip_suffix('%')?)
}

/// ```text
/// commit_id := hex{7,40} | tag
/// tag       := "v" digits "." digits ("." digits)? ("-rc" digits)? | "next-" digits{8}
/// ```
pub fn commit_id(tok: &str) -> bool {
    fn hex(i: &str) -> IResult<&str, &str> {
        take_while1(|c: char| c.is_ascii_hexdigit()).parse(i)
    }
    fn release(i: &str) -> IResult<&str, &str> {
        recognize((
            char('v'),
            digit1,
            char('.'),
            digit1,
            opt((char('.'), digit1)),
            opt((tag("-rc"), digit1)),
        ))
        .parse(i)
    }
    fn next_tag(i: &str) -> IResult<&str, &str> {
        recognize((tag("next-"), digit1)).parse(i)
    }
    if let Ok((_, h)) = all_consuming(hex).parse(tok) {
        return (7..=40).contains(&h.len()) && h.bytes().all(|b| !b.is_ascii_uppercase());
    }
    all_consuming(alt((release, next_tag))).parse(tok).is_ok()
}

/// ```text
/// dash_cell := "-"{8,}
/// ```
pub fn dash_cell(tok: &str) -> bool {
    tok.len() >= 8 && tok.bytes().all(|b| b == b'-')
}

/// A token that can only be a table cell, never the start of a metric name.
pub fn is_cell(tok: &str) -> bool {
    number(tok).is_some()
        || change(tok).is_some()
        || is_stddev_mark(tok)
        || stddev_glued(tok).is_some()
        || fail_cell(tok).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_of_every_printf_form_are_read() {
        assert_eq!(number("7317310"), Some(7317310.0));
        assert_eq!(number("-0.1"), Some(-0.1));
        assert_eq!(number("1.582e+10"), Some(15820000000.0));
        assert_eq!(number("1e+09"), Some(1e9));
        assert_eq!(number("inf"), None);
        assert_eq!(number("12a"), None);
        assert_eq!(number(""), None);
    }

    #[test]
    fn changes_keep_their_unit_and_sign() {
        let c = change("+16.9%").expect("relative");
        assert_eq!((c.value, c.unit), (Some(16.9), ChangeUnit::Percent));
        let c = change("-48.5").expect("absolute");
        assert_eq!((c.value, c.unit), (Some(-48.5), ChangeUnit::Abs));
        let c = change("+2.1e+05%").expect("e-notation");
        assert_eq!(c.value, Some(210000.0));
        let c = change("+1.3e+102%").expect("zero base");
        assert_eq!(c.value, Some(1.3e102));
        assert_eq!(change("+Inf%").map(|c| c.value), Some(None));
        assert_eq!(change("186%").and_then(|c| c.value), Some(186.0));
        assert_eq!(change("-1e+04").map(|c| c.unit), Some(ChangeUnit::Abs));
        assert!(change("14484").is_none());
        assert!(change("fsmark.x").is_none());
    }

    #[test]
    fn stddev_and_fail_cells_parse() {
        assert_eq!(stddev_pct("4%"), Some(4.0));
        assert_eq!(stddev_glued("±100%"), Some(100.0));
        assert_eq!(stddev_glued("~104%"), Some(104.0));
        assert_eq!(fail_cell(":200"), Some((0, 200)));
        assert_eq!(fail_cell("35:200"), Some((35, 200)));
        assert_eq!(fail_cell("a:2"), None);
        assert_eq!(reproduction("-27%"), Some(-27.0));
    }

    #[test]
    fn commit_ids_and_tags_are_column_ids() {
        assert!(commit_id("2edf06a50f5bbe664283f3c55c4"));
        assert!(commit_id("v6.18-rc3"));
        assert!(commit_id("v6.13"));
        assert!(!commit_id("%stddev"));
        assert!(!commit_id("abc"));
        assert!(dash_cell("----------------"));
        assert!(!dash_cell("---"));
    }
}
