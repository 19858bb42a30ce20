//! The robot's comparison tables (`grammar/lkp-table.md`): the `lkp` perf table
//! (`%stddev %change %stddev`, every dialect since 2014) and the `lkp-fail`
//! functional table (`fail:runs %reproduction fail:runs`), at any quote depth,
//! with wrapped rows, mangled `±`, and the whitespace-collapsed form where a
//! whole table sits on one line.
//!
//! Lines are read with [`crate::text::lines`]; one table may be open per quote
//! depth, so a reply at depth 1 can interrupt a depth-2 table whose rows resume
//! after it. Rows are tokenised on runs of blanks and read left to right by
//! `perf_row` / `fail_row`; a row that does not fit is counted in
//! `skipped_rows`, never guessed.
//!
//! Hostile input is bounded: lines are read in one pass with one line of
//! lookahead (line numbers and offsets counted as they go, never from the
//! body's start), a table stores at most [`Table::MAX_ROWS`] rows and a body
//! [`MAX_BODY_ROWS`] rows in [`MAX_TABLES`] tables (the rest counted in
//! `omitted_rows`), a line is read up to its first [`MAX_LINE_TOKENS`]
//! words, and a body gives at most [`MAX_DIAGNOSTICS`] diagnostics.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::model::{Change, Table, TableFormat, TableRow};
use crate::report::cells;
use crate::report::error::{Position, ReportError, ReportErrorKind, quote};
use crate::text;

/// One whitespace-separated token of a line, with its byte span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tok<'a> {
    text: &'a str,
    start: usize,
}

/// The most rows one body stores, over all its tables; the rest are
/// counted in their table's `omitted_rows`.
pub const MAX_BODY_ROWS: usize = 20_000;

/// The most tables one body gives; the rows of those past it are counted in
/// the last table's `omitted_rows` (and `skipped_rows`).
pub const MAX_TABLES: usize = 200;

/// A line is read up to this many words (a collapsed table of 400 rows has
/// about 4,000).
pub const MAX_LINE_TOKENS: usize = 200_000;

/// The most diagnostics [`table_diagnostics`] gives for one body; the rows
/// past them are still counted in `skipped_rows`.
pub const MAX_DIAGNOSTICS: usize = 20;

/// Group keys, group values and commit titles are read up to this many bytes
/// (real ones are a few hundred).
const MAX_CONTEXT_BYTES: usize = 4096;

/// The most commit titles kept per quote depth (a table has at most 12 columns).
const MAX_TITLES: usize = 64;

/// `s` cut to at most `max` bytes, at a character boundary.
fn prefix(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn tokens(s: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            if let Some(st) = start.take() {
                out.push(Tok {
                    text: s.get(st..i).unwrap_or(""),
                    start: st,
                });
                if out.len() == MAX_LINE_TOKENS {
                    return out;
                }
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push(Tok {
            text: s.get(st..).unwrap_or(""),
            start: st,
        });
    }
    out
}

/// Repairs `±` (every mangled form, and U+FFFD left by a wrong charset guess)
/// and turns NBSP / U+202F into plain spaces.
pub fn clean_line(s: &str) -> Cow<'_, str> {
    let fixed = text::normalize_plus_minus(s);
    // What follows looks for non-ASCII characters only.
    if fixed.is_ascii() {
        return fixed;
    }
    let fixed = if fixed.contains("ï¿½") {
        Cow::Owned(fixed.replace("ï¿½", "±"))
    } else {
        fixed
    };
    if fixed.contains(['\u{fffd}', '\u{a0}', '\u{202f}']) {
        Cow::Owned(
            fixed
                .chars()
                .map(|c| match c {
                    '\u{fffd}' => '±',
                    '\u{a0}' | '\u{202f}' => ' ',
                    c => c,
                })
                .collect(),
        )
    } else {
        fixed
    }
}

/// The cells of a perf row before its metric name.
#[derive(Debug, Clone, PartialEq, Default)]
struct PerfCells {
    values: Vec<Option<f64>>,
    stddev: Vec<Option<f64>>,
    small: Vec<bool>,
    changes: Vec<Option<Change>>,
    /// Index of the first token after the cells.
    next: usize,
}

/// ```text
/// stddev := stddev_mark stddev_pct | stddev_glued
/// ```
fn stddev(toks: &[&str], i: usize) -> Option<(f64, usize)> {
    let t = toks.get(i)?;
    if cells::is_stddev_mark(t) {
        let p = cells::stddev_pct(toks.get(i + 1)?)?;
        return Some((p, i + 2));
    }
    cells::stddev_glued(t).map(|p| (p, i + 1))
}

/// ```text
/// value_cell := number stddev?
/// ```
fn value_cell(toks: &[&str], i: usize, c: &mut PerfCells) -> Option<usize> {
    let v = cells::number(toks.get(i)?)?;
    c.values.push(Some(v));
    match stddev(toks, i + 1) {
        Some((p, next)) => {
            c.stddev.push(Some(p));
            c.small.push(false);
            Some(next)
        }
        None => {
            c.stddev.push(None);
            c.small.push(true);
            Some(i + 1)
        }
    }
}

/// ```text
/// perf_cells := value_cell (change value_cell){n-1}
///             | value_cell (change? value_cell){n-1}     ; lenient: 2016-2019 empty change cells
/// ```
fn perf_cells(toks: &[&str], n: usize, lenient: bool) -> Option<PerfCells> {
    let mut c = PerfCells::default();
    let mut i = value_cell(toks, 0, &mut c)?;
    c.changes.push(None);
    for _ in 1..n {
        let t = toks.get(i)?;
        match cells::change(t) {
            Some(ch) if !(lenient && is_bare_value_before_metric(toks, i)) => {
                c.changes.push(Some(ch));
                i += 1;
            }
            _ if lenient => c.changes.push(None),
            _ => return None,
        }
        i = value_cell(toks, i, &mut c)?;
    }
    c.next = i;
    Some(c)
}

/// In the lenient dialect a change cell may be empty; a negative value such as
/// `-12` directly followed by the metric is then the value, not a change.
fn is_bare_value_before_metric(toks: &[&str], i: usize) -> bool {
    toks.get(i)
        .is_some_and(|t| cells::number(t).is_some() && !t.ends_with('%'))
        && toks.get(i + 1).is_none_or(|t| !cells::is_cell(t))
}

/// ```text
/// metric := (any character but a line break)+     ; first token not a cell
/// ```
fn metric_ok(first: &str) -> bool {
    !cells::is_cell(first) && first != "|" && first != "\\"
}

/// ```text
/// perf_row := perf_cells "  " metric
/// ```
/// Parses a row given as whitespace tokens; `metric_from` gives the metric text
/// starting at a token index (rest of the line in line mode, one token in the
/// collapsed form). Returns the row and the number of tokens used.
fn perf_row(
    toks: &[&str],
    n: usize,
    lenient: bool,
    metric_from: &dyn Fn(usize) -> Option<(String, usize)>,
) -> Option<(TableRow, usize)> {
    let mut c = perf_cells(toks, n, false);
    if c.is_none() && lenient {
        c = perf_cells(toks, n, true);
    }
    let c = c?;
    let (metric, used) = metric_from(c.next)?;
    Some((
        TableRow {
            metric,
            values: c.values,
            stddev_percent: c.stddev,
            stddev_small: c.small,
            changes: c.changes,
            ..TableRow::default()
        },
        used,
    ))
}

/// ```text
/// fail_row := fail_cell (reproduction fail_cell){n-1} "  " metric
/// ```
fn fail_row(
    toks: &[&str],
    n: usize,
    metric_from: &dyn Fn(usize) -> Option<(String, usize)>,
) -> Option<(TableRow, usize)> {
    let mut row = TableRow::default();
    let (f, r) = cells::fail_cell(toks.first()?)?;
    row.fails.push(Some(f));
    row.runs.push(Some(r));
    row.reproduction.push(None);
    let mut i = 1;
    for _ in 1..n {
        let rep = cells::reproduction(toks.get(i)?)?;
        let (f, r) = cells::fail_cell(toks.get(i + 1)?)?;
        row.reproduction.push(Some(rep));
        row.fails.push(Some(f));
        row.runs.push(Some(r));
        i += 2;
    }
    let (metric, used) = metric_from(i)?;
    row.metric = metric;
    Some((row, used))
}

/// ```text
/// id_row := commit_id{n} label?  ; n >= 2, label e.g. "testcase/testparams/testbox"
/// ```
/// Returns the column ids and whether a trailing label column is present.
fn id_row(toks: &[&str]) -> Option<(Vec<String>, bool)> {
    let ids: Vec<String> = toks
        .iter()
        .take_while(|t| cells::commit_id(t))
        .map(|t| t.to_string())
        .collect();
    let extra = toks.len() - ids.len();
    if ids.len() < 2 || ids.len() > 12 || extra > 1 {
        return None;
    }
    if !ids
        .iter()
        .any(|id| id.len() >= 10 && id.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return None;
    }
    Some((ids, extra == 1))
}

/// ```text
/// dash_row := dash_cell+
/// ```
fn dash_row(toks: &[&str]) -> Option<usize> {
    (!toks.is_empty() && toks.iter().all(|t| cells::dash_cell(t))).then_some(toks.len())
}

/// Header rows between the dashes and the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Header {
    /// `%stddev %change %stddev` (current) -> changes required.
    Perf,
    /// `%stddev change %stddev` (2016-2019) -> change cells may be empty.
    PerfOld,
    /// `fail:runs %reproduction fail:runs`.
    Fail,
    /// `\  |  \` or `|  |  |` guide rows.
    Guide,
}

/// ```text
/// perf_header := "%stddev" ("%change" "%stddev")*  |  "%stddev" ("change" "%stddev")*
/// fail_header := "fail:runs" ("%reproduction" "fail:runs")*
/// guide_row   := ("\" | "|")+
/// ```
fn header_row(toks: &[&str]) -> Option<Header> {
    let first = toks.first()?;
    if *first == "%stddev"
        && toks
            .iter()
            .all(|t| matches!(*t, "%stddev" | "%change" | "change"))
    {
        return Some(if toks.contains(&"change") {
            Header::PerfOld
        } else {
            Header::Perf
        });
    }
    if *first == "fail:runs"
        && toks
            .iter()
            .all(|t| matches!(*t, "fail:runs" | "%reproduction"))
    {
        return Some(Header::Fail);
    }
    if toks.iter().all(|t| matches!(*t, "\\" | "|")) {
        return Some(Header::Guide);
    }
    None
}

/// ```text
/// group_rule := "="{20,}
/// ```
fn group_rule(t: &str) -> bool {
    let t = t.trim();
    t.len() >= 20 && t.bytes().all(|b| b == b'=')
}

/// ```text
/// subreport_rule := "*"{20,}
/// ```
fn subreport_rule(t: &str) -> bool {
    let t = t.trim();
    t.len() >= 20 && t.bytes().all(|b| b == b'*')
}

/// ```text
/// group_keys   := key ("/" key)* ":"
/// group_values := "  " value ("/" value)*
/// ```
/// Pairs keys with values; when a value holds `/` (so the counts differ), the
/// key `test` (else the last key) takes the surplus.
pub fn group_params(keys: &str, values: &str) -> Vec<(String, String)> {
    let (keys, values) = (
        prefix(keys, MAX_CONTEXT_BYTES),
        prefix(values, MAX_CONTEXT_BYTES),
    );
    let keys: Vec<&str> = keys.trim().trim_end_matches(':').split('/').collect();
    let vals: Vec<&str> = values.trim().split('/').collect();
    if keys.len() == vals.len() {
        return keys
            .iter()
            .zip(&vals)
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
    }
    if vals.len() < keys.len() {
        return vec![(keys.join("/"), vals.join("/"))];
    }
    let surplus = vals.len() - keys.len();
    let wide = keys
        .iter()
        .position(|k| *k == "test")
        .unwrap_or(keys.len() - 1);
    let mut out = Vec::new();
    let mut vi = 0;
    for (ki, k) in keys.iter().enumerate() {
        let take = if ki == wide { surplus + 1 } else { 1 };
        let v = vals
            .get(vi..vi + take)
            .map(|s| s.join("/"))
            .unwrap_or_default();
        out.push((k.to_string(), v));
        vi += take;
    }
    out
}

/// ```text
/// commit_entry := commit_id (" " "(\"" title "\")" | " " text)?
/// ```
fn commit_entry(t: &str) -> Option<(String, String)> {
    let t = prefix(t.trim(), MAX_CONTEXT_BYTES);
    let (id, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
    if !cells::commit_id(id) {
        return None;
    }
    let rest = rest.trim();
    let title = match (rest.find("(\""), rest.rfind("\")")) {
        (Some(a), Some(b)) if b > a + 1 => rest.get(a + 2..b).unwrap_or("").to_string(),
        _ => rest.to_string(),
    };
    Some((id.to_string(), title))
}

/// Per-depth state: the last group header and commit list seen.
#[derive(Debug, Default)]
struct Context {
    params: Vec<(String, String)>,
    titles: Vec<(String, String)>,
    /// 1 = expecting keys line, 2 = expecting values line.
    group_state: u8,
    group_keys: String,
    in_commit_list: bool,
}

/// A table being read.
#[derive(Debug)]
struct Open {
    table: Table,
    n: usize,
    lenient: bool,
    header_seen: bool,
}

impl Open {
    fn new(commits: Vec<String>, depth: u32, offset: usize, ctx: &Context) -> Self {
        let titles = commits
            .iter()
            .filter_map(|c| {
                ctx.titles
                    .iter()
                    .find(|(id, _)| c.starts_with(id.as_str()) || id.starts_with(c.as_str()))
                    .map(|(_, t)| (c.clone(), t.clone()))
            })
            .collect();
        Open {
            n: commits.len(),
            table: Table {
                format: TableFormat::Lkp,
                quote_depth: depth,
                params: ctx.params.clone(),
                commits,
                commit_titles: titles,
                rows: Vec::new(),
                skipped_rows: 0,
                omitted_rows: 0,
                offset,
            },
            lenient: true,
            header_seen: false,
        }
    }

    /// A second block of the same group (fail block, then perf block).
    fn sibling(&self) -> Self {
        let t = &self.table;
        Open {
            table: Table {
                format: t.format,
                quote_depth: t.quote_depth,
                params: t.params.clone(),
                commits: t.commits.clone(),
                commit_titles: t.commit_titles.clone(),
                rows: Vec::new(),
                skipped_rows: 0,
                omitted_rows: 0,
                offset: t.offset,
            },
            n: self.n,
            lenient: self.lenient,
            header_seen: false,
        }
    }

    fn has_content(&self) -> bool {
        has_content(&self.table)
    }
}

fn has_content(t: &Table) -> bool {
    !t.rows.is_empty() || t.skipped_rows > 0 || t.omitted_rows > 0
}

/// Stores a row in `t` while the body's budget lasts; counts it in
/// `omitted_rows` past the budget or the table's own cap.
fn store_row(t: &mut Table, row: TableRow, rows_left: &mut usize) {
    if *rows_left == 0 {
        t.omitted_rows = t.omitted_rows.saturating_add(1);
    } else if t.push_row(row) {
        *rows_left -= 1;
    }
}

/// Adds a finished table to `out`; past [`MAX_TABLES`] its rows are counted
/// in the last table instead.
fn keep(out: &mut Vec<Table>, t: Table) {
    if out.len() < MAX_TABLES {
        out.push(t);
    } else if let Some(last) = out.last_mut() {
        let rows = u32::try_from(t.rows.len()).unwrap_or(u32::MAX);
        last.omitted_rows = last
            .omitted_rows
            .saturating_add(rows)
            .saturating_add(t.omitted_rows);
        last.skipped_rows = last.skipped_rows.saturating_add(t.skipped_rows);
    }
}

fn close(open: &mut BTreeMap<u32, Open>, depth: u32, out: &mut Vec<Table>) {
    if let Some(o) = open.remove(&depth)
        && o.has_content()
    {
        keep(out, o.table);
    }
}

/// A line that only elides content (`...`, `[...]`, `[ ... skip 7 lines ... ]`).
fn elision(t: &str) -> bool {
    let t = t.trim();
    t.chars().all(|c| c == '.' || c == '…') && !t.is_empty()
        || (t.starts_with('[') && t.ends_with(']') && t.contains("..."))
}

/// A line that looks like a data row even though it did not fit: it starts with
/// a cell token, or with a digit, sign, dot, colon or stddev mark (a damaged
/// cell such as `1e999999` or `---`).
fn looks_like_row(toks: &[&str]) -> bool {
    toks.first().is_some_and(|t| {
        cells::is_cell(t) || t.starts_with(|c: char| c.is_ascii_digit() || "+-.:±~".contains(c))
    })
}

/// Parses one row of an open table in line mode, reading ahead one line for
/// client-wrapped rows. Returns the row and how many extra lines it used.
fn row_in_lines(o: &Open, line: &str, next: Option<&str>) -> Option<(TableRow, usize)> {
    let toks = tokens(line);
    let words: Vec<&str> = toks.iter().map(|t| t.text).collect();
    let rest_of_line = |i: usize| -> Option<(String, usize)> {
        let t = toks.get(i)?;
        metric_ok(t.text).then(|| (line.get(t.start..).unwrap_or("").trim_end().to_string(), 0))
    };
    let parse = |w: &[&str], m: &dyn Fn(usize) -> Option<(String, usize)>| match o.table.format {
        TableFormat::LkpFail => fail_row(w, o.n, m),
        _ => perf_row(w, o.n, o.lenient, m),
    };
    if let Some(r) = parse(&words, &rest_of_line) {
        return Some(r);
    }
    let next = next?;
    let ntoks = tokens(next);
    let nwords: Vec<&str> = ntoks.iter().map(|t| t.text).collect();
    // A long label on a line by itself, its cells on the next line (GEO-MEAN dialect).
    if let [label] = words.as_slice()
        && metric_ok(label)
    {
        let label_only = |i: usize| (i == nwords.len()).then(|| (label.to_string(), 1));
        if let Some(r) = parse(&nwords, &label_only) {
            return Some(r);
        }
    }
    // Wrapped: the metric (or the row's tail) landed on the next line.
    if nwords.is_empty()
        || parse(&nwords, &|i| (i < nwords.len()).then(|| (String::new(), 0))).is_some()
    {
        return None;
    }
    let mut joined = words.clone();
    joined.extend(nwords.iter().copied());
    let split = words.len();
    let from_joined = |i: usize| -> Option<(String, usize)> {
        if i < split {
            return None;
        }
        let t = ntoks.get(i - split)?;
        metric_ok(t.text).then(|| (next.get(t.start..).unwrap_or("").trim_end().to_string(), 1))
    };
    parse(&joined, &from_joined)
}

/// ```text
/// tables := (table | other_line)*
/// table  := group_header? commit_list? id_row dash_row blank* block+
/// block  := perf_header guide_row? perf_row*  |  fail_header guide_row? fail_row*  |  perf_row+
/// ```
/// Finds every lkp / lkp-fail table of a body, at every quote depth.
pub fn parse_tables(body: &str) -> Vec<Table> {
    scan(body, None)
}

/// The rows [`parse_tables`] skipped, each with its line and a quote: the
/// first [`MAX_DIAGNOSTICS`] of them (the tables' `skipped_rows` count all).
pub fn table_diagnostics(body: &str) -> Vec<ReportError> {
    let mut diag = Vec::new();
    scan(body, Some(&mut diag));
    diag
}

/// The shortest dash cell, `--------` (the searcher is built once).
static DASH_CELL: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"--------"));

/// Whether some line of `body` may start a table: a dash row (dash cells,
/// blanks and quote markers only) or a collapsed table (more than 12 words,
/// one of them a dash cell). Both hold a run of 8 dashes, which is searched
/// for; each line holding one is looked at once. Bytes beyond ASCII count as
/// blanks (no-break spaces separate cells in mangled copies), which can only
/// let more lines through. A quarter of a list's mail has such a run
/// (separators, signatures, quoted reports) and far less a table.
fn may_hold_a_table(body: &str) -> bool {
    let bytes = body.as_bytes();
    let mut from = 0;
    while let Some(hit) = bytes.get(from..).and_then(|rest| DASH_CELL.find(rest)) {
        let pos = from + hit;
        let start = memchr::memrchr(b'\n', &bytes[..pos]).map_or(0, |p| p + 1);
        let end = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |p| pos + p);
        let line = &bytes[start..end];
        let blank = |b: u8| b.is_ascii_whitespace() || b >= 0x80;
        if line.iter().all(|&b| b == b'-' || b == b'>' || blank(b)) {
            return true;
        }
        if line
            .split(|&b| blank(b))
            .filter(|w| !w.is_empty())
            .nth(12)
            .is_some()
        {
            return true;
        }
        from = end;
    }
    false
}

fn scan(body: &str, mut diag: Option<&mut Vec<ReportError>>) -> Vec<Table> {
    // Every table, in line or collapsed form, starts at a dash row or a
    // collapsed line: without one there is nothing to find, and most mail
    // (patches, prose) is skipped without tokenising its lines.
    if !may_hold_a_table(body) {
        return Vec::new();
    }
    // One pass over the lines with one line of lookahead: a line's number is
    // its index plus one, counted as it goes.
    let mut lines = text::lines(body)
        .map(|l| {
            let cleaned = clean_line(l.text);
            (l.depth, l.offset, cleaned)
        })
        .enumerate()
        .peekable();
    let mut out = Vec::new();
    let mut rows_left = MAX_BODY_ROWS;
    let mut open: BTreeMap<u32, Open> = BTreeMap::new();
    let mut ctx: BTreeMap<u32, Context> = BTreeMap::new();
    while let Some((i, (depth, offset, line))) = lines.next() {
        let line: &str = &line;
        let trimmed = line.trim();
        // The next line, when it is at the same depth (rows and id rows
        // continue only there), and whether it holds a dash cell.
        let (next_any_dashes, next) = match lines.peek() {
            Some((_, (d, _, n))) => (
                DASH_CELL.find(n.as_bytes()).is_some(),
                (*d == depth).then_some(n.as_ref()),
            ),
            None => (false, None),
        };
        let c = ctx.entry(depth).or_default();

        // Group header and commit list bookkeeping.
        if group_rule(trimmed) {
            close(&mut open, depth, &mut out);
            *c = Context {
                group_state: 1,
                ..Context::default()
            };
            continue;
        }
        if subreport_rule(trimmed) {
            close(&mut open, depth, &mut out);
            *c = Context::default();
            continue;
        }
        if c.group_state == 1 && trimmed.ends_with(':') && !trimmed.contains(' ') {
            c.group_keys = prefix(trimmed, MAX_CONTEXT_BYTES).to_string();
            c.group_state = 2;
            continue;
        }
        if c.group_state == 2 && !trimmed.is_empty() {
            c.params = group_params(&c.group_keys, trimmed);
            c.group_state = 0;
            continue;
        }
        if let Some((k, v)) = trimmed.split_once(": ")
            && k.starts_with("testcase/")
            && k.contains('/')
            && !k.contains(' ')
        {
            c.params = group_params(k, v);
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("commit:") {
            c.in_commit_list = true;
            c.titles.clear();
            // 2019 follow-ups: `commit: f1f8555dfb9 drm/bochs: ...` on one line.
            c.titles.extend(commit_entry(rest));
            continue;
        }
        if c.in_commit_list || trimmed.ends_with("\")") {
            // A `commit:` list entry, or a `<id> ("title")` line with no heading (2019).
            if let Some(e) = commit_entry(trimmed) {
                if c.titles.len() < MAX_TITLES {
                    c.titles.push(e);
                }
                continue;
            }
            c.in_commit_list = false;
        }

        // Past the context lines, a line matters only inside an open table, as
        // a collapsed table (it has a dash cell) or as an id row (the next line
        // is a dash row): any other line is skipped without tokenising it.
        if !open.contains_key(&depth)
            && DASH_CELL.find(line.as_bytes()).is_none()
            && !next_any_dashes
        {
            continue;
        }
        let toks = tokens(line);
        let words: Vec<&str> = toks.iter().map(|t| t.text).collect();

        // Collapsed form: a whole table on one line.
        if words.len() > 12
            && words.iter().any(|w| cells::dash_cell(w))
            && dash_row(&words).is_none()
        {
            close(&mut open, depth, &mut out);
            for t in collapsed_tables(&words, depth, offset, &mut rows_left) {
                keep(&mut out, t);
            }
            continue;
        }

        // A new table: id row followed by a dash row at the same depth.
        if let Some((ids, label)) = id_row(&words)
            && let Some(next) = next
            && let Some(k) = dash_row(&tokens(next).iter().map(|t| t.text).collect::<Vec<_>>())
            && k == ids.len() + usize::from(label)
        {
            close(&mut open, depth, &mut out);
            let c = ctx.entry(depth).or_default();
            open.insert(depth, Open::new(ids, depth, offset, c));
            c.titles.clear();
            lines.next();
            continue;
        }

        let Some(o) = open.get_mut(&depth) else {
            continue;
        };
        if trimmed.is_empty() {
            if o.has_content() {
                close(&mut open, depth, &mut out);
            }
            continue;
        }
        if let Some(h) = header_row(&words) {
            if h != Header::Guide {
                if o.has_content() || (o.header_seen && h == Header::Fail) {
                    let sib = o.sibling();
                    close(&mut open, depth, &mut out);
                    open.insert(depth, sib);
                }
                if let Some(o) = open.get_mut(&depth) {
                    o.header_seen = true;
                    o.table.format = if h == Header::Fail {
                        TableFormat::LkpFail
                    } else {
                        TableFormat::Lkp
                    };
                    o.lenient = h == Header::PerfOld;
                }
            }
            continue;
        }
        if elision(trimmed) {
            continue;
        }
        match row_in_lines(o, line, next) {
            Some((row, extra)) => {
                store_row(&mut o.table, row, &mut rows_left);
                if extra > 0 {
                    lines.next();
                }
            }
            None if looks_like_row(&words) => {
                if let Some(diag) = diag.as_deref_mut()
                    && diag.len() < MAX_DIAGNOSTICS
                {
                    let what = format!(
                        "row does not fit the {}-column {} table: `{}`",
                        o.n,
                        o.table.format.as_str(),
                        quote(trimmed)
                    );
                    diag.push(ReportError {
                        kind: ReportErrorKind::RowDoesNotFit,
                        position: Position::at_line(offset, i + 1, what),
                    });
                }
                o.table.skipped_rows = o.table.skipped_rows.saturating_add(1);
            }
            None => close(&mut open, depth, &mut out),
        }
    }
    let depths: Vec<u32> = open.keys().copied().collect();
    for d in depths {
        close(&mut open, d, &mut out);
    }
    out.sort_by_key(|t| t.offset);
    out
}

/// ```text
/// collapsed := ... commit_id{n} dash_cell{n} header_token* (perf_cells metric_token)*
/// ```
/// Reads tables from a line whose white space (newlines included) was folded:
/// the column count comes from the dash cells, each row ends at its one-token
/// metric, and the table ends at the first token sequence that is not a row.
fn collapsed_tables(
    words: &[&str],
    depth: u32,
    offset: usize,
    rows_left: &mut usize,
) -> Vec<Table> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if !cells::dash_cell(words[i]) {
            i += 1;
            continue;
        }
        let k = words[i..]
            .iter()
            .take_while(|w| cells::dash_cell(w))
            .count();
        let dash_at = i;
        i += k;
        let Some(ids) = dash_at.checked_sub(k).and_then(|s| words.get(s..dash_at)) else {
            continue;
        };
        if id_row(ids).is_none_or(|(v, label)| label || v.len() != k) {
            continue;
        }
        let mut lenient = true;
        while let Some(w) = words.get(i) {
            match *w {
                "%stddev" | "%change" | "\\" | "|" => lenient = lenient && *w != "%change",
                "change" => {}
                _ => break,
            }
            i += 1;
        }
        let mut table = Table {
            format: TableFormat::Lkp,
            quote_depth: depth,
            params: Vec::new(),
            commits: ids.iter().map(|s| s.to_string()).collect(),
            commit_titles: Vec::new(),
            rows: Vec::new(),
            skipped_rows: 0,
            omitted_rows: 0,
            offset,
        };
        loop {
            let rest = words.get(i..).unwrap_or(&[]);
            let one_token = |j: usize| -> Option<(String, usize)> {
                let t = rest.get(j)?;
                (metric_ok(t) && t.contains(['.', '_', '%', ':'])).then(|| (t.to_string(), j + 1))
            };
            match perf_row(rest, k, lenient, &one_token) {
                Some((row, used)) => {
                    store_row(&mut table, row, rows_left);
                    i += used;
                }
                None => break,
            }
        }
        if has_content(&table) {
            out.push(table);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ChangeUnit;

    const CURRENT: &str = "\
=========================================================================================
compiler/cpufreq_governor/kconfig/rootfs/tbox_group/test/testcase:
  gcc-12/performance/x86_64-rhel-8.3/debian-11.1-x86_64-20220510.cgz/lkp-icl-2sp7/pipeherd/stress-ng

commit: 
  f2ffc48de2 (\"Merge patch series \"pipe: don't update\"\")
  ee5eda8ea5 (\"pipe: change pipe_write()\")

f2ffc48de2017c69 ee5eda8ea59546af2e8f192c060 
---------------- --------------------------- 
         %stddev     %change         %stddev
             \\          |                \\  
    138055 ± 18%     +33.4%     184128 ± 14%  cpuidle..usage
      0.20 ±153%  +2.1e+05%     418.07 ±203%  perf-sched.wait_time.max.ms.anon_pipe_read
      3930            +7.8%       4235 ±  3%  vmstat.procs.r
 2.331e+09 ±  3%     +26.0%  2.937e+09 ± 10%  stress-ng.pipeherd.ops
      0.54 ±  3%      -0.1        0.41 ± 12%  perf-stat.i.branch-miss-rate%

Disclaimer:
";

    #[test]
    fn only_a_dash_row_or_a_collapsed_line_lets_a_body_through() {
        assert!(!may_hold_a_table("no dashes at all\n"));
        assert!(!may_hold_a_table(
            "-------- Original Message --------\nFrom: a\n"
        ));
        assert!(!may_hold_a_table("---\n fs/ext4/inode.c | 2 +-\n"));
        assert!(may_hold_a_table(
            "a\n---------------- ----------------\nb\n"
        ));
        assert!(may_hold_a_table(
            "> >  ----------------  ----------------\r\n"
        ));
        // No-break spaces between the cells of a mangled copy.
        assert!(may_hold_a_table(
            "----------------\u{a0}\u{a0}----------------\n"
        ));
        let collapsed = format!(
            "hi > {} ---------------- ---------------- %stddev %change %stddev 1 2 3 m",
            "a1b2c3d4e5 f6a7b8c9d0"
        );
        assert!(may_hold_a_table(&collapsed));
        assert!(!may_hold_a_table(
            "see below -------- then more -------- words\n"
        ));
    }

    #[test]
    fn a_table_without_a_dash_row_is_not_a_table_even_when_rows_look_right() {
        let body = "f2ffc48de2017c69 ee5eda8ea59546af2e8f192c060\n\
                    \x20        %stddev     %change         %stddev\n\
                    \x20    14484            -6.3%      13568        fsmark.files_per_sec\n";
        assert!(parse_tables(body).is_empty());
        let with_dashes =
            body.replacen("\n", "\n---------------- --------------------------- \n", 1);
        assert_eq!(parse_tables(&with_dashes).len(), 1);
    }

    #[test]
    fn a_current_table_gives_params_commits_titles_and_rows() {
        let t = parse_tables(CURRENT);
        assert_eq!(t.len(), 1);
        let t = &t[0];
        assert_eq!(
            t.commits,
            ["f2ffc48de2017c69", "ee5eda8ea59546af2e8f192c060"]
        );
        assert_eq!(t.params.len(), 7);
        assert_eq!(t.params[5], ("test".into(), "pipeherd".into()));
        assert_eq!(t.commit_titles[1].1, "pipe: change pipe_write()");
        assert_eq!(t.rows.len(), 5);
        assert_eq!(t.skipped_rows, 0);
        let r = &t.rows[0];
        assert_eq!(r.metric, "cpuidle..usage");
        assert_eq!(r.values, [Some(138055.0), Some(184128.0)]);
        assert_eq!(r.stddev_percent, [Some(18.0), Some(14.0)]);
        assert_eq!(r.changes[0], None);
        assert_eq!(r.changes[1].as_ref().and_then(|c| c.value), Some(33.4));
        assert_eq!(t.rows[2].stddev_small, [true, false]);
        assert_eq!(t.rows[3].values[1], Some(2.937e9));
        let abs = t.rows[4].changes[1].as_ref().map(|c| c.unit);
        assert_eq!(abs, Some(ChangeUnit::Abs));
    }

    #[test]
    fn a_reply_at_depth_one_interrupts_a_depth_two_table_without_ending_it() {
        let body = "\
> > ecd788a92460eef4 2edf06a50f5bbe664283f3c55c4
> > ---------------- ---------------------------
> >          %stddev     %change         %stddev
> >              \\          |                \\
> >    8176057 ± 15%      +4.7%    8558110        fsmark.app_overhead
> >      14484            -6.3%      13568        fsmark.files_per_sec
> 
> So the application spent 5% more CPU time.
> 
> >     100.50 ±  5%      +0.3%     100.83        turbostat.Avg_MHz
> >       5.54 ± 11%      +0.3        5.82        turbostat.Busy%
";
        let t = parse_tables(body);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].quote_depth, 2);
        assert_eq!(t[0].rows.len(), 4);
        assert_eq!(t[0].rows[3].metric, "turbostat.Busy%");
    }

    #[test]
    fn a_wrapped_row_takes_its_metric_from_the_next_line() {
        let body = "\
> aaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbbbbbbbbb
> ---------------- ---------------------------
>       3.38 ±103%      -3.4        0.00       
> perf-profile.children.cycles-pp.unmap_page_range
>      14484            -6.3%      13568        fsmark.files_per_sec
";
        let t = parse_tables(body);
        assert_eq!(t[0].rows.len(), 2);
        assert_eq!(
            t[0].rows[0].metric,
            "perf-profile.children.cycles-pp.unmap_page_range"
        );
    }

    #[test]
    fn a_label_on_its_own_line_names_the_cells_below_it() {
        let body = "\
516e5ae0c9401629  ed93dfc6bc0084485ccad1ff6b  testcase/testparams/testbox
----------------  --------------------------  ---------------------------
         %stddev      change         %stddev
phoronix-test-suite/performance-fio-SequentialWrite-Sync-Yes-No-4KB/lkp-csl-2sp7
      7522             -37%       4744 ±  9%
      7522             -37%       4744        GEO-MEAN phoronix-test-suite.fio.mb_s
";
        let t = parse_tables(body);
        assert_eq!(t[0].commits.len(), 2);
        assert_eq!(t[0].rows.len(), 2);
        assert!(
            t[0].rows[0]
                .metric
                .starts_with("phoronix-test-suite/performance")
        );
        assert_eq!(t[0].rows[0].stddev_percent, [None, Some(9.0)]);
        assert_eq!(t[0].skipped_rows, 0);
    }

    #[test]
    fn old_dialect_rows_may_have_empty_change_cells() {
        let body = "\
15705d6709cb6ba6  cf7a2dca6056544bb04a8f819f  
----------------  --------------------------  
         %stddev      change         %stddev
             \\          |                \\  
    116286                      114432        will-it-scale.per_process_ops
     20902 +-  5%       186%      59731 +-  5%  will-it-scale.time.involuntary_context_switches
     10903 +- 99%     -1e+04        148 +-  5%  latency_stats.max.wait_on_page_bit
";
        let t = parse_tables(body);
        assert_eq!(t[0].rows.len(), 3);
        assert_eq!(t[0].rows[0].changes, [None, None]);
        assert_eq!(
            t[0].rows[1].changes[1].as_ref().and_then(|c| c.value),
            Some(186.0)
        );
        assert_eq!(t[0].rows[1].stddev_percent[0], Some(5.0));
    }

    #[test]
    fn a_fail_block_and_a_perf_block_of_one_group_are_two_tables() {
        let body = "\
1111111111aaaaaa 2222222222bbbbbbbbbbbbbbbbb 
---------------- --------------------------- 
       fail:runs  %reproduction    fail:runs
           |             |             |
           :200         18%          35:200   dmesg.KASAN:null-ptr-deref_in_range[#-#]
         %stddev     %change         %stddev
             \\          |                \\  
      3930            +7.8%       4235 ±  3%  vmstat.procs.r
";
        let t = parse_tables(body);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].format, TableFormat::LkpFail);
        assert_eq!(t[0].rows[0].fails, [Some(0), Some(35)]);
        assert_eq!(t[0].rows[0].reproduction, [None, Some(18.0)]);
        assert_eq!(t[1].format, TableFormat::Lkp);
        assert_eq!(t[1].rows.len(), 1);
    }

    #[test]
    fn prose_after_a_table_without_blank_line_ends_it_and_odd_rows_are_counted() {
        let body = "\
aaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbbbbbbbbb
---------------- ---------------------------
     14484            -6.3%      13568        fsmark.files_per_sec
     14484    garbage
   --- ± %  %
So this is prose.
";
        let t = parse_tables(body);
        assert_eq!(t[0].rows.len(), 1);
        assert_eq!(t[0].skipped_rows, 2);
        let d = table_diagnostics(body);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].position.line, 4);
        assert!(d[0].to_string().contains("`14484    garbage`"), "{}", d[0]);
    }

    const HEAD: &str = "aaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbbbbbbbbb\n\
                        ---------------- ---------------------------\n";
    const ROW: &str = "     14484            -6.3%      13568        fsmark.files_per_sec\n";

    #[test]
    fn many_rows_that_do_not_fit_cost_linear_time_and_capped_diagnostics() {
        // 20,000 rows that do not fit: each one's line is counted as the
        // scan goes, not again from the body's start (quadratic time).
        let mut body = String::from(HEAD);
        for i in 0..20_000 {
            body.push_str(&format!("     14484    garbage {i}\n"));
        }
        body.push_str(ROW);
        let started = std::time::Instant::now();
        let d = table_diagnostics(&body);
        let t = parse_tables(&body);
        let took = started.elapsed();
        assert!(took.as_secs() < 10, "{took:?}");
        assert_eq!(d.len(), MAX_DIAGNOSTICS);
        assert_eq!(d[0].position.line, 3);
        assert_eq!(d[19].position.line, 22);
        assert_eq!(d[19].position.byte, body.find("garbage 19\n").unwrap() - 14);
        assert_eq!(t[0].skipped_rows, 20_000);
        assert_eq!(t[0].rows.len(), 1);
    }

    #[test]
    fn rows_past_the_caps_are_counted_not_stored() {
        // One table: MAX_ROWS stored, the rest omitted.
        let mut body = String::from(HEAD);
        body.push_str(&ROW.repeat(Table::MAX_ROWS + 5));
        let t = parse_tables(&body);
        assert_eq!((t[0].rows.len(), t[0].omitted_rows), (Table::MAX_ROWS, 5));
        // Three tables: the body's budget runs out in the third.
        let table = format!("{HEAD}{}\n", ROW.repeat(Table::MAX_ROWS - 1));
        let t = parse_tables(&table.repeat(3));
        let stored: usize = t.iter().map(|t| t.rows.len()).sum();
        let omitted: u32 = t.iter().map(|t| t.omitted_rows).sum();
        assert_eq!(stored, MAX_BODY_ROWS);
        assert_eq!(omitted as usize, 3 * (Table::MAX_ROWS - 1) - MAX_BODY_ROWS);
        // Tables past MAX_TABLES: their rows counted in the last one kept.
        let small = format!("{HEAD}{ROW}{ROW}     1    garbage\n\n");
        let t = parse_tables(&small.repeat(MAX_TABLES + 3));
        assert_eq!(t.len(), MAX_TABLES);
        assert_eq!(t[MAX_TABLES - 1].rows.len(), 2);
        assert_eq!(t[MAX_TABLES - 1].omitted_rows, 6);
        assert_eq!(t[MAX_TABLES - 1].skipped_rows, 4);
    }

    #[test]
    fn huge_context_lines_are_read_up_to_their_caps() {
        let mut body = String::from("commit:\n");
        body.push_str(&"  aaaaaaaaaa (\"a title\")\n".repeat(1000));
        body.push_str(&format!("  bbbbbbbbbb (\"{}\")\n", "t".repeat(100_000)));
        body.push_str("=========================================================================================\n");
        body.push_str("compiler/test/testcase:\n");
        body.push_str(&format!("  {}\n", "/".repeat(1_000_000)));
        body.push_str(HEAD);
        body.push_str(ROW);
        let t = parse_tables(&body);
        assert!(t[0].params.len() <= MAX_CONTEXT_BYTES + 1);
        assert_eq!(t[0].rows.len(), 1);
        let words = format!("{} \n", "x ".repeat(MAX_LINE_TOKENS + 10));
        assert_eq!(tokens(&words).len(), MAX_LINE_TOKENS);
    }

    #[test]
    fn commit_titles_come_from_lists_with_or_without_heading() {
        let body = "\
commit: f1f8555dfb9 drm/bochs: use the new helper
db9adbcbe7 (\"mm: a (\"quoted\") title\")

db9adbcbe7401629  f1f8555dfb9aa5b1a2b3c4d5e6  
----------------  --------------------------  
      7522             -37%       4744        a.b
";
        let t = parse_tables(body);
        assert_eq!(t[0].commit_titles.len(), 2);
        assert_eq!(t[0].commit_titles[0].1, "mm: a (\"quoted\") title");
        assert_eq!(t[0].commit_titles[1].1, "drm/bochs: use the new helper");
    }

    #[test]
    fn group_params_give_the_surplus_to_test() {
        let p = group_params("compiler/test/testcase:", "gcc-12/hugetlb/hugemmap10/ltp");
        assert_eq!(p[1], ("test".into(), "hugetlb/hugemmap10".into()));
        assert_eq!(p[2], ("testcase".into(), "ltp".into()));
    }
}
