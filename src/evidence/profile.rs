//! perf report lines and call chains (grammar: `grammar/evidence-profile.md`):
//! flat lines `31.18%  [kernel]  [k] symbol`, `--children` lines with two
//! percentages, chain entries `- 30.29% kswapd` whose tree depth follows from
//! the column of the `-`/`+` marker, bare leaf symbols under the last entry, and
//! `perf report --stdio` graph lines `---root` / `|--22.27%--symbol`, whose depth
//! follows from the column of their dashes.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_till1, take_while, take_while1},
    character::complete::{char, digit1, one_of, space0, space1},
    combinator::{map, opt, recognize},
    sequence::{delimited, preceded, terminated},
};

use super::BodyView;
use crate::model::ProfileEntry;

/// ```text
/// percent := digit+ "." digit digit "%"        ; perf prints two decimals
/// ```
pub fn percent(i: &str) -> IResult<&str, f64> {
    let (r, s) = terminated(
        recognize((digit1, char('.'), take_while1(|c: char| c.is_ascii_digit()))),
        char('%'),
    )
    .parse(i)?;
    let decimals = s.split('.').nth(1).map_or(0, str::len);
    if decimals != 2 {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Digit,
        )));
    }
    Ok((r, s.parse().unwrap_or(0.0)))
}

/// ```text
/// symbol := (alnum | "_" | "." | "$" | "@" | ":" | "[" | "]")+   ; no "%"
/// ```
pub fn symbol(i: &str) -> IResult<&str, &str> {
    let (r, s) = take_while1(|c: char| {
        c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '@' | ':' | '[' | ']')
    })
    .parse(i)?;
    if !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '[') {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Alpha,
        )));
    }
    Ok((r, s))
}

/// ```text
/// flat_entry := ws* percent (ws+ percent)? ws+ (comm ws+)? dso ws+ "[" ("k"|".") "]" ws+ symbol
/// ```
/// Returns `(percent, dso, symbol)`.
pub fn flat_entry(i: &str) -> IResult<&str, (f64, &str, &str)> {
    let word = || take_till1(|c: char| c.is_whitespace());
    let (r, (pct, _, first, second)) = (
        preceded(space0, percent),
        opt(preceded(space1, percent)),
        preceded(space1, word()),
        opt(preceded(space1, word())),
    )
        .parse(i)?;
    // Either `dso [k]` or `comm dso [k]`.
    let (dso, r) = match second {
        Some(s) if s == "[k]" || s == "[.]" => (first, Some(r)),
        Some(s) => {
            let (r2, mark) = preceded(space1, word()).parse(r)?;
            (s, (mark == "[k]" || mark == "[.]").then_some(r2))
        }
        None => (first, None),
    };
    let Some(r) = r else {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Tag,
        )));
    };
    let (r, sym) = terminated(preceded(space1, symbol), space0).parse(r)?;
    Ok((r, (pct, dso, sym)))
}

/// ```text
/// chain_entry := indent ("-" | "+") ws+ percent ws+ symbol ws*
/// ```
/// Returns `(marker column, percent, symbol)`.
pub fn chain_entry(i: &str) -> IResult<&str, (usize, f64, &str)> {
    let (r, (ind, _, _, pct, _, sym, _)) = (
        space0,
        one_of("-+"),
        space1,
        percent,
        space1,
        symbol,
        space0,
    )
        .parse(i)?;
    Ok((r, (ind.chars().count(), pct, sym)))
}

/// ```text
/// graph_entry := indent ("|" ws*)* ( "--" percent "--" | "---" ) symbol ws*
/// ```
/// Returns `(column of the dashes, percent, symbol)`; the `---` form (the root of
/// a `perf report --stdio` graph) has no percent.
pub fn graph_entry(i: &str) -> IResult<&str, (usize, Option<f64>, &str)> {
    let (r, lead) = take_while(|c: char| c == '|' || c == ' ').parse(i)?;
    let col = lead.chars().count();
    let (r, pct) = alt((
        map(tag("---"), |_| None),
        map(delimited(tag("--"), percent, tag("--")), Some),
    ))
    .parse(r)?;
    let (r, (sym, _)) = (symbol, space0).parse(r)?;
    Ok((r, (col, pct, sym)))
}

/// `---` (the searcher is built once).
static DASHES: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"---"));

/// Which lines hold a `%` or a `---`: one pass over the whole body for each,
/// instead of two searches on every line. (Neither can sit in a quote
/// prefix or a line end, so a line's raw span holds one exactly when its
/// text does.)
fn lines_with_marks(view: &BodyView<'_>) -> Vec<bool> {
    let lines = &view.lines;
    let mut marked = vec![false; lines.len()];
    let body = view.body.as_bytes();
    let mut mark = |hits: &mut dyn Iterator<Item = usize>| {
        let mut i = 0;
        for at in hits {
            while lines.get(i + 1).is_some_and(|l| l.offset <= at) {
                i += 1;
            }
            if let Some(m) = marked.get_mut(i) {
                *m = true;
            }
        }
    };
    mark(&mut memchr::memchr_iter(b'%', body));
    mark(&mut DASHES.find_iter(body));
    marked
}

/// Profile entries of a body's lines, in order.
pub fn profiles_in(view: &BodyView<'_>) -> Vec<ProfileEntry> {
    let mut out = Vec::new();
    // Marker columns of the open chain, outermost first, and its quote depth.
    let mut stack: Vec<usize> = Vec::new();
    let mut chain_depth: Option<u32> = None;
    let marked = lines_with_marks(view);
    for (line, &marked) in view.lines.iter().zip(&marked) {
        let t = line.text;
        // Every entry but a leaf or a graph root (`---sym`) prints a percentage.
        if chain_depth.is_none() && !marked {
            continue;
        }
        if let Ok(("", (pct, dso, sym))) = flat_entry(t) {
            stack.clear();
            chain_depth = None;
            out.push(ProfileEntry {
                percent: Some(pct),
                symbol: sym.to_string(),
                module: Some(dso.to_string()),
                depth: 0,
                quote_depth: line.depth,
            });
            continue;
        }
        // A `- 30.29% kswapd` chain entry, else a `|--22.79%--sym` graph entry.
        let entry = match chain_entry(t) {
            Ok(("", (col, pct, sym))) => Some((col, Some(pct), sym)),
            _ => match graph_entry(t) {
                Ok(("", found)) => Some(found),
                _ => None,
            },
        };
        if let Some((col, percent, sym)) = entry {
            if chain_depth != Some(line.depth) {
                stack.clear();
            }
            while stack.last().is_some_and(|&c| c >= col) {
                stack.pop();
            }
            out.push(ProfileEntry {
                percent,
                symbol: sym.to_string(),
                module: None,
                depth: stack.len() as u32,
                quote_depth: line.depth,
            });
            stack.push(col);
            chain_depth = Some(line.depth);
            continue;
        }
        // Bare `|` connector lines of a graph keep the chain open.
        if chain_depth == Some(line.depth)
            && t.contains('|')
            && t.chars().all(|c| c == '|' || c.is_whitespace())
        {
            continue;
        }
        // A bare leaf symbol, indented past the open chain's last marker.
        if chain_depth == Some(line.depth) {
            let indent = t.len() - t.trim_start().len();
            let leaf = (space0, symbol, space0).parse(t);
            if let (Ok(("", (_, sym, _))), Some(&last)) = (leaf, stack.last()) {
                if indent > last {
                    out.push(ProfileEntry {
                        percent: None,
                        symbol: sym.to_string(),
                        module: None,
                        depth: stack.iter().filter(|&&c| c < indent).count() as u32,
                        quote_depth: line.depth,
                    });
                    continue;
                }
            }
        }
        if !t.trim().is_empty() || chain_depth != Some(line.depth) {
            stack.clear();
            chain_depth = None;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marked_lines_are_the_lines_whose_text_holds_a_percent_or_three_dashes() {
        let body = "> 31.18%  x\r\nplain\n---sym\n>> a--b\n  |--2.5%--\n-- \n>---\nend%";
        let view = BodyView::new(body);
        let want: Vec<bool> = view
            .lines
            .iter()
            .map(|l| l.text.contains('%') || l.text.contains("---"))
            .collect();
        assert_eq!(want, [true, false, true, false, true, false, true, true]);
        assert_eq!(lines_with_marks(&view), want);
    }

    #[test]
    fn percent_needs_two_decimals() {
        assert_eq!(percent("31.18% x"), Ok((" x", 31.18)));
        assert!(percent("30% x").is_err());
        assert!(percent("3.1% x").is_err());
    }

    #[test]
    fn flat_entries_with_and_without_comm_column() {
        assert_eq!(
            flat_entry("  31.18%  [kernel]  [k] __pv_queued_spin_lock_slowpath"),
            Ok(("", (31.18, "[kernel]", "__pv_queued_spin_lock_slowpath")))
        );
        assert_eq!(
            flat_entry("  12.00%  1.00%  fio  [kernel.kallsyms]  [k] do_syscall_64"),
            Ok(("", (12.0, "[kernel.kallsyms]", "do_syscall_64")))
        );
        assert!(flat_entry("  12.00% of the time").is_err());
    }

    #[test]
    fn chain_and_graph_entries_give_columns() {
        assert_eq!(
            chain_entry("   - 30.29% kswapd"),
            Ok(("", (3, 30.29, "kswapd")))
        );
        assert_eq!(
            graph_entry("   |          |--22.27%--_raw_spin_lock"),
            Ok(("", (15, Some(22.27), "_raw_spin_lock")))
        );
        assert_eq!(
            graph_entry("    ---root_fn"),
            Ok(("", (4, None, "root_fn")))
        );
        // Prose leaves a remainder, so it is no entry.
        assert_eq!(
            chain_entry("- 30.29% faster than before").map(|(r, _)| r),
            Ok("than before")
        );
    }

    #[test]
    fn a_call_chain_gets_tree_depths_from_its_indentation() {
        let body = "> >   31.18%  [kernel]  [k] slow\n> \n> text\n> \n\
                    > >    - 30.29% kswapd\n> >       - 30.23% shrink_node\n\
                    > >          - 22.27% lock\n> >               slow\n\
                    > >       - 1.00% other\n";
        let p = profiles_in(&BodyView::new(body));
        let got: Vec<_> = p.iter().map(|e| (e.symbol.as_str(), e.depth)).collect();
        assert_eq!(
            got,
            [
                ("slow", 0),
                ("kswapd", 0),
                ("shrink_node", 1),
                ("lock", 2),
                ("slow", 3),
                ("other", 1)
            ]
        );
        assert_eq!(p[4].percent, None);
        assert_eq!(p[0].module.as_deref(), Some("[kernel]"));
        assert!(p.iter().all(|e| e.quote_depth == 2));
    }
}
