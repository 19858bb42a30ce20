//! A self-contained HTML triage report: one file, no network fetches. A
//! sortable (click a column header), filterable table; per regression a
//! timeline row of its own under it (opened by its button) with a small
//! inline SVG chart of the headline metric across every commit column of
//! the table, with stddev error bars. The id links to the first report on
//! lore, the culprit to its commit, every timeline entry to its message.
//! Under the table, the trends ([`crate::query::trends`]): per subsystem a
//! chart of its reports per month, stacked by status, and per metric a
//! chart of each report's change over time, a dot per report.
//! Cells wrap between words, never inside one ([`words`]); ids, numbers,
//! dates and flags do not wrap at all, and a window too narrow for the
//! table scrolls it sideways in its own box.

use std::fmt::Write as _;
use std::io::Write;

use super::links::Links;
use super::{age_days, day, fix_summary, fmt_change};
use crate::model::history::{Headline, Regression, Status, StatusConfidence};
use crate::query::trends::{Point, month_of, points};

/// Escapes text for HTML element content and attribute values (every
/// attribute this report writes is double-quoted). Everything from mail or
/// the database goes through it: names, titles, metrics, dates, flags,
/// regzbot lines, commit ids, the chart's labels. Control characters (but
/// tab and newline) and bidi overrides are shown escaped first, as on a
/// terminal ([`super::terminal::block`]): the file holds none, so that
/// neither a browser nor `less report.html` meets them raw. The entities are
/// `html-escape`'s for a quoted attribute (`&amp;` `&lt;` `&gt;` `&quot;`
/// `&#x27;`).
pub fn esc(s: &str) -> String {
    let s = super::terminal::block(s);
    html_escape::encode_quoted_attribute(&s).into_owned()
}

/// Words longer than this (in characters, as escaped) may break after
/// their dots, underscores and slashes ([`words`]), a metric's after its
/// dots ([`metric`]).
const LONG_WORD: usize = 24;

/// Text that may wrap between its words but never inside one: escaped as
/// [`esc`], each word with a character a browser may break after (a hyphen,
/// a slash, a dot, a bracket: anything but a letter or digit) in a
/// `<span class="w">`, which does not wrap. Words of letters and digits
/// alone are left as they are: with `overflow-wrap:normal` they do not
/// break. A word longer than 24 characters (an identifier such as
/// `OPEN_ARGS_SHARE_ACCESS_WANT_OPEN_XOR_DELEGATION` in a commit title, a
/// URL in a timeline) is split after each run of dots, underscores and
/// slashes into such spans with a `<wbr>` between them: it may break
/// there, and nowhere else.
pub fn words(s: &str) -> String {
    split_words(s, &['.', '_', '/'])
}

/// A metric as [`words`] writes text, a long one cut after its dots only:
/// `stress-ng.fiemap.` `ops_per_sec`.
pub fn metric(s: &str) -> String {
    split_words(s, &['.'])
}

/// [`words`], a long word cut after each run of the characters of `cuts`.
fn split_words(s: &str, cuts: &[char]) -> String {
    let s = esc(s);
    let mut o = String::with_capacity(s.len());
    let mut rest = s.as_str();
    while !rest.is_empty() {
        let start = rest
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(rest.len());
        o.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        if word.chars().count() <= LONG_WORD {
            unbroken(&mut o, word);
        } else {
            for (i, piece) in pieces(word, cuts).into_iter().enumerate() {
                if i > 0 {
                    o.push_str("<wbr>");
                }
                unbroken(&mut o, piece);
            }
        }
        rest = &rest[end..];
    }
    o
}

/// `word` as it is when only letters and digits, else in a span that does
/// not wrap.
fn unbroken(o: &mut String, word: &str) {
    if word.chars().all(char::is_alphanumeric) {
        o.push_str(word);
    } else {
        let _ = write!(o, "<span class=\"w\">{word}</span>");
    }
}

/// `word` cut after each run of the characters of `cuts` that has more
/// after it.
fn pieces<'w>(word: &'w str, cuts: &[char]) -> Vec<&'w str> {
    let cut = |c: char| cuts.contains(&c);
    let mut out = Vec::new();
    let mut from = 0;
    let mut prev_cut = false;
    for (i, c) in word.char_indices() {
        if prev_cut && !cut(c) {
            out.push(&word[from..i]);
            from = i;
        }
        prev_cut = cut(c);
    }
    out.push(&word[from..]);
    out
}

/// An inline SVG chart of the headline values with ± stddev error bars, or
/// `None` when the table gave fewer than two values.
pub fn chart(h: &Headline) -> Option<String> {
    let pts: Vec<(usize, f64, f64)> = h
        .values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            v.map(|v| {
                let sd = h.stddev_percent.get(i).copied().flatten().unwrap_or(0.0);
                (i, v, (v * sd / 100.0).abs())
            })
        })
        .collect();
    if pts.len() < 2 {
        return None;
    }
    let (w, hgt, pad_l, pad_r, pad_b, pad_t) = (280.0_f64, 110.0_f64, 52.0, 28.0, 22.0, 10.0);
    let lo = pts.iter().map(|p| p.1 - p.2).fold(f64::INFINITY, f64::min);
    let hi = pts
        .iter()
        .map(|p| p.1 + p.2)
        .fold(f64::NEG_INFINITY, f64::max);
    let span = if (hi - lo).abs() < f64::EPSILON {
        1.0
    } else {
        hi - lo
    };
    let n = h.values.len().max(2);
    let x = |i: usize| pad_l + (i as f64) * (w - pad_l - pad_r) / ((n - 1) as f64);
    let y = |v: f64| pad_t + (hi - v) / span * (hgt - pad_t - pad_b);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"chart\" width=\"{w}\" height=\"{hgt}\" \
         viewBox=\"0 0 {w} {hgt}\" role=\"img\"><title>{} across the table's commits (± stddev)</title>",
        esc(&h.metric)
    );
    // The value axis: top and bottom of the range, at the left.
    for v in [hi, lo] {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"end\">{}</text>",
            pad_l - 8.0,
            y(v) + 3.0,
            esc(&short_num(v))
        );
    }
    let _ = write!(
        s,
        "<line x1=\"{0:.1}\" y1=\"{1:.1}\" x2=\"{0:.1}\" y2=\"{2:.1}\" stroke=\"#ccc\"/>",
        pad_l - 4.0,
        y(hi),
        y(lo)
    );
    let line: Vec<String> = pts
        .iter()
        .map(|&(i, v, _)| format!("{:.1},{:.1}", x(i), y(v)))
        .collect();
    let _ = write!(
        s,
        "<polyline fill=\"none\" stroke=\"#888\" stroke-width=\"1\" points=\"{}\"/>",
        line.join(" ")
    );
    for &(i, v, e) in &pts {
        let (cx, top, bot) = (x(i), y(v + e), y(v - e));
        let _ = write!(
            s,
            "<line class=\"err\" x1=\"{cx:.1}\" y1=\"{top:.1}\" x2=\"{cx:.1}\" y2=\"{bot:.1}\" stroke=\"#c33\"/>\
             <line x1=\"{:.1}\" y1=\"{top:.1}\" x2=\"{:.1}\" y2=\"{top:.1}\" stroke=\"#c33\"/>\
             <line x1=\"{:.1}\" y1=\"{bot:.1}\" x2=\"{:.1}\" y2=\"{bot:.1}\" stroke=\"#c33\"/>\
             <circle cx=\"{cx:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#24a\"><title>{}: {}</title></circle>",
            cx - 3.0,
            cx + 3.0,
            cx - 3.0,
            cx + 3.0,
            y(v),
            esc(h.commits.get(i).map(|c| c.as_str()).unwrap_or("?")),
            v
        );
        let label = h
            .commits
            .get(i)
            .map(|c| c.get(..8).unwrap_or(c))
            .unwrap_or("");
        let _ = write!(
            s,
            "<text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"middle\">{}</text>",
            hgt - 6.0,
            esc(label)
        );
    }
    s.push_str("</svg>");
    Some(s)
}

fn short_num(v: f64) -> String {
    let a = v.abs();
    if a >= 1e9 {
        format!("{:.1}G", v / 1e9)
    } else if a >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.1}k", v / 1e3)
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

const STYLE: &str = r#"
body{font-family:system-ui,sans-serif;margin:1em;color:#222}
@media (max-width:1299px){.tablebox{overflow-x:auto}}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid #ccc;padding:3px 6px;vertical-align:top;font-size:13px;overflow-wrap:normal;word-break:normal}
td.nw,.w,.st,.flag,.unsure{white-space:nowrap}
tr.timeline>td{background:#fafafa;padding:6px 12px}
tr.timeline ul{margin:4px 0;padding-left:1.2em}
button.tl{font-size:12px}
th{background:#eee;cursor:pointer;user-select:none;position:sticky;top:0}
th[aria-sort=ascending]::after{content:" \25B2"}
th[aria-sort=descending]::after{content:" \25BC"}
tr.closed td{color:#777}
.st{font-weight:bold}
.st-reported,.st-discussed{color:#b00}
.st-fix-proposed,.st-fix-confirmed{color:#a60}
.st-fix-applied,.st-improvement{color:#070}
.st-disputed,.st-declined{color:#708}
.unsure{display:inline-block;font-size:smaller;color:#a60;border:1px dotted #a60;padding:0 2px}
.flag{display:inline-block;font-size:12px;background:#f3f3f3;border:1px solid #ddd;border-radius:3px;padding:0 3px;margin:1px 0}
code{font-size:12px}
#controls{margin-bottom:8px}
figure.trend{display:inline-block;margin:4px 12px 8px 0;vertical-align:top}
figure.trend figcaption{font-size:13px}
.legend span{display:inline-block;margin-right:10px;font-size:12px}
.legend i{display:inline-block;width:10px;height:10px;margin-right:3px}
"#;

const SCRIPT: &str = r#"
(function(){
  var table=document.getElementById('regs');
  var tbody=table.tBodies[0];
  function key(td,type){
    var v=td.getAttribute('data-value');
    if(v===null){v=td.textContent.trim();}
    if(type==='num'){var n=parseFloat(v);return isNaN(n)?-Infinity:n;}
    return v.toLowerCase();
  }
  Array.prototype.forEach.call(table.tHead.rows[0].cells,function(th,idx){
    th.addEventListener('click',function(){
      var asc=th.getAttribute('aria-sort')!=='ascending';
      Array.prototype.forEach.call(table.tHead.rows[0].cells,function(o){o.removeAttribute('aria-sort');});
      th.setAttribute('aria-sort',asc?'ascending':'descending');
      var type=th.getAttribute('data-type')||'text';
      var rows=Array.prototype.filter.call(tbody.rows,function(r){return r.classList.contains('reg');});
      rows.sort(function(a,b){
        var x=key(a.cells[idx],type),y=key(b.cells[idx],type);
        if(x<y){return asc?-1:1;} if(x>y){return asc?1:-1;} return 0;
      });
      rows.forEach(function(r){
        var d=document.getElementById(r.getAttribute('data-timeline'));
        tbody.appendChild(r); if(d){tbody.appendChild(d);}
      });
    });
  });
  var q=document.getElementById('filter'),st=document.getElementById('status'),op=document.getElementById('openonly');
  function apply(){
    var text=q.value.toLowerCase(),s=st.value,o=op.checked,shown=0;
    Array.prototype.forEach.call(tbody.rows,function(r){
      if(!r.classList.contains('reg')){return;}
      var d=document.getElementById(r.getAttribute('data-timeline'));
      var all=r.textContent+(d?d.textContent:'');
      var ok=(!text||all.toLowerCase().indexOf(text)>=0)&&(!s||r.getAttribute('data-status')===s)&&(!o||r.getAttribute('data-open')==='1');
      r.style.display=ok?'':'none'; if(d){d.style.display=ok?'':'none';} if(ok){shown++;}
    });
    document.getElementById('count').textContent=shown;
  }
  Array.prototype.forEach.call(document.querySelectorAll('button.tl'),function(b){
    b.addEventListener('click',function(){
      var d=document.getElementById(b.getAttribute('aria-controls'));
      var open=d.hidden; d.hidden=!open; b.setAttribute('aria-expanded',open?'true':'false');
    });
  });
  q.addEventListener('input',apply);st.addEventListener('change',apply);op.addEventListener('change',apply);
  apply();
})();
"#;

/// `<a href>` to `url` around `text` (both escaped).
fn a(url: &str, text: &str) -> String {
    format!("<a href=\"{}\">{}</a>", esc(url), text)
}

/// Writes the report; `regs` should be in triage order.
pub fn write(
    out: &mut dyn Write,
    regs: &[Regression],
    now: i64,
    links: &Links,
) -> std::io::Result<()> {
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    h.push_str("<title>regtrack: performance regression triage</title>");
    let _ = write!(h, "<style>{STYLE}</style></head><body>");
    let open = regs.iter().filter(|r| !super::is_closed(r)).count();
    let _ = write!(
        h,
        "<h1>Performance regression triage</h1><p>{} regressions, {} open. Click a column header to sort.</p>",
        regs.len(),
        open
    );
    h.push_str("<div id=\"controls\"><input id=\"filter\" type=\"search\" placeholder=\"filter (any text)\"> ");
    h.push_str("<select id=\"status\"><option value=\"\">any status</option>");
    for s in Status::ALL {
        let _ = write!(h, "<option value=\"{0}\">{0}</option>", s.as_str());
    }
    h.push_str("</select> <label><input id=\"openonly\" type=\"checkbox\"> open only</label> ");
    h.push_str("<span id=\"count\"></span> shown</div>");
    // Below 1300 px the table scrolls sideways in its own box (its words do
    // not wrap inside, so it may be wider than the window); from 1300 px the
    // page holds it, and its header row stays at the top when scrolled.
    h.push_str("<div class=\"tablebox\"><table id=\"regs\"><thead><tr>");
    for (name, ty) in [
        ("ID", "num"),
        ("Subsystem", "text"),
        ("Status", "text"),
        ("Age (days)", "num"),
        ("First report", "text"),
        ("Culprit", "text"),
        ("Metric", "text"),
        ("Change", "num"),
        ("Fix", "text"),
        ("Flags", "text"),
        ("Timeline", "text"),
    ] {
        let _ = write!(h, "<th data-type=\"{ty}\">{name}</th>");
    }
    h.push_str("</tr></thead><tbody>");
    for r in regs {
        let closed = super::is_closed(r);
        let _ = write!(
            h,
            "<tr id=\"reg-{0}\" class=\"reg{1}\" data-timeline=\"tl-{0}\" data-status=\"{2}\" data-open=\"{3}\">",
            r.id,
            if closed { " closed" } else { "" },
            esc(r.status.as_str()),
            if closed { 0 } else { 1 },
        );
        let id = match r.reports.first() {
            Some(rep) => a(&links.message(&rep.message_id), &r.id.to_string()),
            None => r.id.to_string(),
        };
        let _ = write!(h, "<td class=\"nw\" data-value=\"{}\">{id}</td>", r.id);
        let _ = write!(
            h,
            "<td class=\"nw\">{}</td>",
            esc(r.subsystem.as_deref().unwrap_or("-"))
        );
        let unsure = if r.status_confidence == StatusConfidence::Unsure {
            " <span class=\"unsure\" title=\"unsure: see its timeline\">unsure</span>"
        } else {
            ""
        };
        let _ = write!(
            h,
            "<td><span class=\"st st-{0}\">{0}</span>{unsure}</td>",
            esc(r.status.as_str())
        );
        let age = age_days(r, now);
        let _ = write!(
            h,
            "<td class=\"nw\" data-value=\"{}\">{}</td>",
            age.unwrap_or(-1),
            age.map(|a| a.to_string()).unwrap_or_default()
        );
        let _ = write!(
            h,
            "<td class=\"nw\">{}</td>",
            esc(day(r.first_date.as_deref()))
        );
        let short = format!(
            "<code>{}</code>",
            esc(crate::query::short(&r.culprit.commit))
        );
        let culprit = match links.culprit(r.scope, r.branch.as_deref(), &r.culprit) {
            Some(url) => a(&url, &short),
            None => short,
        };
        let _ = write!(
            h,
            "<td data-value=\"{}\">{culprit} {}</td>",
            esc(&r.culprit.commit),
            words(r.culprit.title.as_deref().unwrap_or(""))
        );
        let hl = r.headline.as_ref();
        let _ = write!(
            h,
            "<td>{}</td>",
            metric(hl.map(|x| x.metric.as_str()).unwrap_or("-"))
        );
        let ch = hl.and_then(|x| x.change_percent);
        let _ = write!(
            h,
            "<td class=\"nw\" data-value=\"{}\">{}</td>",
            ch.map(|c| c.to_string()).unwrap_or_else(|| "NaN".into()),
            esc(&fmt_change(ch))
        );
        let fix = match (&r.fix, fix_summary(r)) {
            (Some(f), Some((title, st))) => {
                // A fix found only in a followed tree has no posting to link.
                let mut c = if f.message_id.is_empty() {
                    words(&title)
                } else {
                    a(&links.message(&f.message_id), &words(&title))
                };
                let _ = write!(c, " {}", words(&format!("({st})")));
                if let Some(sha) = &f.commit {
                    let tree = f.trees.last().map(String::as_str);
                    let text = format!("<code>{}</code>", esc(sha.get(..12).unwrap_or(sha)));
                    let _ = write!(c, " {}", a(&links.commit(tree, sha), &text));
                }
                c
            }
            _ => String::new(),
        };
        let _ = write!(h, "<td>{fix}</td>");
        // Each flag a chip of its own: they wrap between flags, not inside.
        let flags: Vec<String> = r
            .flags
            .iter()
            .map(|f| format!("<span class=\"flag\">{}</span>", esc(f)))
            .collect();
        let _ = write!(h, "<td>{}</td>", flags.join(" "));
        let _ = writeln!(
            h,
            "<td><button class=\"tl\" type=\"button\" aria-expanded=\"false\" aria-controls=\"tl-{0}\">timeline ({1})</button></td></tr>",
            r.id,
            r.timeline.len()
        );
        let _ = write!(
            h,
            "<tr id=\"tl-{}\" class=\"timeline\" hidden><td colspan=\"11\">",
            r.id
        );
        if let Some(svg) = hl.and_then(chart) {
            h.push_str(&svg);
        }
        h.push_str("<ul>");
        for e in &r.timeline {
            let what = match &e.message_id {
                Some(m) => a(&links.message(m), &words(&e.event)),
                None => words(&e.event),
            };
            let _ = write!(
                h,
                "<li>{} {}: {}{}</li>",
                esc(day(e.date.as_deref())),
                words(e.from.as_deref().unwrap_or("-")),
                what,
                e.status
                    .map(|s| format!(" <b>{}</b>", words(&format!("[{}]", s.as_str()))))
                    .unwrap_or_default()
            );
        }
        h.push_str("</ul>");
        if !r.doubts.is_empty() {
            h.push_str("<p class=\"doubts\">Unsure:</p><ul class=\"doubts\">");
            for d in &r.doubts {
                let what = match &d.message_id {
                    Some(m) => a(&links.message(m), &words(&d.said)),
                    None => words(&d.said),
                };
                let _ = write!(
                    h,
                    "<li>{}: {what}; settle it: <code>{}</code></li>",
                    words(d.kind.as_str()),
                    words(&d.settle)
                );
            }
            h.push_str("</ul>");
        }
        if let Some(l) = &r.regzbot {
            let _ = write!(h, "<p><code>{}</code></p>", words(l));
        }
        h.push_str("</td></tr>\n");
    }
    h.push_str("</tbody></table></div>");
    h.push_str(&trends_section(regs));
    let _ = writeln!(h, "<script>{SCRIPT}</script></body></html>");
    out.write_all(h.as_bytes())
}

/// The fill of a status in the trend charts: its terminal colour's
/// (each status has one of its own, [`crate::model::history::StatusFacts`]).
pub fn status_fill(s: Status) -> &'static str {
    match s.facts().colour {
        "31" => "#b00",
        "91" => "#e55",
        "33" => "#a60",
        "93" => "#eb0",
        "32" => "#070",
        "92" => "#5c5",
        "35" => "#708",
        "90" => "#888",
        "36" => "#099",
        "34" => "#24a",
        _ => "#444",
    }
}

/// A month as a count of months since year 0, and back.
fn month_index(unix: i64) -> Option<i64> {
    let m = month_of(unix)?;
    let (y, mo) = m.split_once('-')?;
    Some(y.parse::<i64>().ok()? * 12 + mo.parse::<i64>().ok()? - 1)
}

fn month_name(i: i64) -> String {
    format!("{:04}-{:02}", i.div_euclid(12), i.rem_euclid(12) + 1)
}

/// Chart geometry: width, height, left, right, bottom and top padding.
const CHART: (f64, f64, f64, f64, f64, f64) = (380.0, 130.0, 50.0, 10.0, 22.0, 8.0);

/// The widest bar of a month.
const MAX_BAR: f64 = 24.0;

/// An inline SVG of the reports per month, stacked by their history's
/// status (in the order of [`Status::ALL`]), each month from the first to
/// the last with a report; `None` when no report has a date.
pub fn months_chart(name: &str, pts: &[&Point<'_>]) -> Option<String> {
    let dated: Vec<(i64, Status)> = pts
        .iter()
        .filter_map(|p| Some((month_index(p.unix?)?, p.history.status)))
        .collect();
    let lo = dated.iter().map(|d| d.0).min()?;
    let hi = dated.iter().map(|d| d.0).max()?;
    let n = usize::try_from(hi - lo + 1).ok()?;
    let mut counts = vec![[0u32; Status::ALL.len()]; n];
    for (m, st) in &dated {
        let k = Status::ALL.iter().position(|s| s == st).unwrap_or(0);
        counts[(m - lo) as usize][k] += 1;
    }
    let top = counts
        .iter()
        .map(|c| c.iter().sum::<u32>())
        .max()
        .unwrap_or(1)
        .max(1);
    let (w, hgt, pad_l, pad_r, pad_b, pad_t) = CHART;
    let plot_h = hgt - pad_t - pad_b;
    let bar = ((w - pad_l - pad_r) / n as f64).min(MAX_BAR);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"chart months\" width=\"{w}\" height=\"{hgt}\" viewBox=\"0 0 {w} {hgt}\" role=\"img\">\
         <title>{}: reports per month, by status</title>",
        esc(name)
    );
    for (v, y) in [(top, pad_t), (0, pad_t + plot_h)] {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"end\">{v}</text>",
            pad_l - 6.0,
            y + 3.0
        );
    }
    let _ = write!(
        s,
        "<line x1=\"{pad_l}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke=\"#ccc\"/>",
        pad_t + plot_h,
        w - pad_r
    );
    for (i, c) in counts.iter().enumerate() {
        let x = pad_l + i as f64 * bar;
        let mut y = pad_t + plot_h;
        for (k, &count) in c.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let st = Status::ALL[k];
            let bh = f64::from(count) * plot_h / f64::from(top);
            y -= bh;
            let _ = write!(
                s,
                "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"{}\">\
                 <title>{} {}: {count}</title></rect>",
                (bar - 1.0).max(0.5),
                status_fill(st),
                esc(&month_name(lo + i as i64)),
                esc(st.as_str())
            );
        }
    }
    // The first month under the first bar's left edge, the last (when
    // another) under the last bar's right edge.
    let mut labels = vec![(0, pad_l, "start")];
    if n > 1 {
        labels.push((n - 1, pad_l + n as f64 * bar, "end"));
    }
    for (i, x, anchor) in labels {
        let _ = write!(
            s,
            "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"{anchor}\">{}</text>",
            hgt - 6.0,
            esc(&month_name(lo + i as i64))
        );
    }
    s.push_str("</svg>");
    Some(s)
}

/// An inline SVG of each report's change over time, a dot per report in
/// its history's status colour, with the zero line; `None` when no report
/// has both a date and a change.
pub fn changes_chart(metric: &str, pts: &[&Point<'_>]) -> Option<String> {
    let dots: Vec<(i64, f64, &Point<'_>)> = pts
        .iter()
        .filter_map(|p| {
            let c = p.change_percent.filter(|c| c.is_finite())?;
            Some((p.unix?, c, *p))
        })
        .collect();
    let t0 = dots.iter().map(|d| d.0).min()?;
    let t1 = dots.iter().map(|d| d.0).max()?;
    let (t0, t1) = if t1 - t0 < 86_400 {
        (t0 - 15 * 86_400, t1 + 15 * 86_400)
    } else {
        (t0, t1)
    };
    let lo = dots.iter().map(|d| d.1).fold(0.0_f64, f64::min);
    let hi = dots.iter().map(|d| d.1).fold(0.0_f64, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    let (w, hgt, pad_l, pad_r, pad_b, pad_t) = CHART;
    let x = |t: i64| pad_l + 4.0 + (t - t0) as f64 / (t1 - t0) as f64 * (w - pad_l - pad_r - 8.0);
    let y = |v: f64| pad_t + (hi - v) / span * (hgt - pad_t - pad_b);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"chart changes\" width=\"{w}\" height=\"{hgt}\" viewBox=\"0 0 {w} {hgt}\" role=\"img\">\
         <title>{}: the change of each report over time</title>",
        esc(metric)
    );
    for v in [hi, lo] {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"end\">{}</text>",
            pad_l - 6.0,
            y(v) + 3.0,
            if v == 0.0 {
                "0%".to_string()
            } else {
                esc(&fmt_change(Some(v)))
            }
        );
    }
    let _ = write!(
        s,
        "<line x1=\"{pad_l}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke=\"#ccc\" stroke-dasharray=\"3,2\"/>",
        y(0.0),
        w - pad_r
    );
    for (t, c, p) in &dots {
        let _ = write!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{}\"><title>#{} {} {} {} ({})</title></circle>",
            x(*t),
            y(*c),
            status_fill(p.history.status),
            p.history.id,
            esc(&month_of(*t).unwrap_or_default()),
            esc(&p.subsystem),
            esc(&fmt_change(Some(*c))),
            esc(p.history.status.as_str())
        );
    }
    for (t, anchor) in [(t0, "start"), (t1, "end")] {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"{anchor}\">{}</text>",
            x(t),
            hgt - 6.0,
            esc(&month_of(t).unwrap_or_default())
        );
    }
    s.push_str("</svg>");
    Some(s)
}

/// `pts` grouped by `key`, the groups with the most reports first (then by
/// name).
fn grouped<'p, 'a>(
    pts: &'p [Point<'a>],
    key: impl Fn(&'p Point<'a>) -> &'p str,
) -> Vec<(&'p str, Vec<&'p Point<'a>>)> {
    let mut map: std::collections::BTreeMap<&str, Vec<&Point<'a>>> = Default::default();
    for p in pts {
        map.entry(key(p)).or_default().push(p);
    }
    let mut v: Vec<_> = map.into_iter().collect();
    v.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(b.0)));
    v
}

/// `1 report`, `2 reports`, `2 histories`.
fn count(n: usize, what: &str) -> String {
    match (n, what.strip_suffix('y')) {
        (1, _) => format!("1 {what}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        _ => format!("{n} {what}s"),
    }
}

fn histories(pts: &[&Point<'_>]) -> usize {
    let mut ids: Vec<i64> = pts.iter().map(|p| p.history.id).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.len()
}

/// The trends section of the report: a legend of the status colours, per
/// subsystem its reports per month stacked by status, per metric each
/// report's change over time. The reports counted are those of
/// `regtrack trends`: the robot's reports of the histories shown,
/// improvements aside.
pub fn trends_section(regs: &[Regression]) -> String {
    let pts = points(regs, None);
    let mut h = String::from("<section id=\"trends\"><h2>Trends</h2>");
    if pts.is_empty() {
        h.push_str("<p>No regression reports to chart.</p></section>");
        return h;
    }
    let _ = write!(
        h,
        "<p>The robot's {} regression reports of these histories (improvements aside), coloured by the status of their history.</p><p class=\"legend\">",
        pts.len()
    );
    for st in Status::ALL {
        if pts.iter().any(|p| p.history.status == st) {
            let _ = write!(
                h,
                "<span><i style=\"background:{}\"></i>{}</span>",
                status_fill(st),
                esc(st.as_str())
            );
        }
    }
    h.push_str("</p><h3>Reports per month, by subsystem</h3>");
    for (sub, group) in grouped(&pts, |p| p.subsystem.as_str()) {
        if let Some(svg) = months_chart(sub, &group) {
            let _ = write!(
                h,
                "<figure class=\"trend\"><figcaption>{}: {}, {}</figcaption>{svg}</figure>",
                esc(sub),
                count(group.len(), "report"),
                count(histories(&group), "history")
            );
        }
    }
    h.push_str("<h3>Change of each report, by metric</h3>");
    for (metric, group) in grouped(&pts, |p| p.metric.as_str()) {
        if let Some(svg) = changes_chart(metric, &group) {
            let _ = write!(
                h,
                "<figure class=\"trend\"><figcaption>{}: {}</figcaption>{svg}</figure>",
                esc(metric),
                count(group.len(), "report")
            );
        }
    }
    h.push_str("</section>");
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::history::TimelineEntry;

    #[test]
    fn mail_text_is_escaped_in_content_and_attributes() {
        let bad = "<img src=x onerror=alert(1)>\"' &";
        let mut r = Regression {
            id: 1,
            subsystem: Some(bad.into()),
            first_date: Some("<img src=x onerror=alert(2)>".into()),
            flags: vec![bad.into()],
            regzbot: Some(bad.into()),
            ..Regression::default()
        };
        r.culprit.commit = bad.into();
        r.culprit.title = Some(bad.into());
        r.headline = Some(Headline {
            metric: bad.into(),
            values: vec![Some(1.0), Some(2.0)],
            commits: vec![bad.into(), bad.into()],
            ..Headline::default()
        });
        r.timeline = vec![TimelineEntry {
            date: Some("<svg onload=alert(3)>".into()),
            from: Some(bad.into()),
            event: bad.into(),
            ..TimelineEntry::default()
        }];
        let mut out = Vec::new();
        write(&mut out, &[r], 0, &Links::default()).unwrap();
        let html = String::from_utf8(out).unwrap();
        for raw in ["<img", "<svg onload", "alert(1)>\"", "' &"] {
            assert!(!html.contains(raw), "{raw} in {html}");
        }
        assert_eq!(html.matches("<script").count(), 1);
        assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#x27; &amp;"));
    }

    #[test]
    fn trend_charts_escape_mail_text_and_stack_by_status() {
        use crate::model::Kind;
        use crate::model::history::ReportInfo;
        let bad = "<script>alert(1)</script>\x1b[2J\"'&";
        let report = |unix: i64, change: f64| ReportInfo {
            message_id: format!("{unix}@x"),
            metric: Some(bad.into()),
            testcase: Some(bad.into()),
            change_percent: Some(change),
            direction: crate::model::Direction::Regression,
            unix: Some(unix),
            kind: Kind::PerfReport,
            ..ReportInfo::default()
        };
        // 2024-03-01, 2024-03-20 and 2024-05-02.
        let mk = |id: i64, status: Status, reports: Vec<ReportInfo>| Regression {
            id,
            subsystem: Some(bad.into()),
            status,
            reports,
            ..Regression::default()
        };
        let regs = [
            mk(
                1,
                Status::Fixed,
                vec![report(1_709_251_200, -5.0), report(1_714_608_000, -9.0)],
            ),
            mk(2, Status::Reported, vec![report(1_710_892_800, 12.0)]),
        ];
        let mut out = Vec::new();
        write(&mut out, &regs, 0, &Links::default()).unwrap();
        let html = String::from_utf8(out).unwrap();
        let sec = &html[html.find("<section id=\"trends\">").unwrap()..];
        let sec = &sec[..sec.find("</section>").unwrap()];
        assert!(!sec.contains("<script") && !sec.contains('\x1b'), "{sec}");
        assert!(sec.contains("&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2j&quot;&#x27;&amp;"));
        assert_eq!(html.matches("<script").count(), 1);
        assert!(!html.contains('\x1b'));
        // March: one fixed over one reported; April empty; May one fixed.
        let months = &sec[sec.find("class=\"chart months\"").unwrap()..];
        let months = &months[..months.find("</svg>").unwrap()];
        assert_eq!(months.matches("<rect").count(), 3, "{months}");
        for t in [
            "2024-03 fixed: 1",
            "2024-03 reported: 1",
            "2024-05 fixed: 1",
        ] {
            assert!(months.contains(&format!("<title>{t}</title>")), "{months}");
        }
        assert!(months.contains(&format!("fill=\"{}\"", status_fill(Status::Fixed))));
        let changes = &sec[sec.find("class=\"chart changes\"").unwrap()..];
        assert_eq!(changes.matches("<circle").count(), 3);
        assert!(changes.contains("+12.0%") && changes.contains("-9.0%"));
        assert!(sec.contains("3 reports, 2 histories"), "{sec}");
    }

    #[test]
    fn words_wrap_between_words_and_long_ones_only_at_their_dots() {
        assert_eq!(
            words("ext4: take the lock"),
            "<span class=\"w\">ext4:</span> take the lock"
        );
        assert_eq!(
            words("acknowledged-no-patch <b>"),
            "<span class=\"w\">acknowledged-no-patch</span> <span class=\"w\">&lt;b&gt;</span>"
        );
        assert_eq!(
            words("implement OPEN_ARGS_SHARE_ACCESS_WANT_XOR"),
            "implement <span class=\"w\">OPEN_</span><wbr><span class=\"w\">ARGS_</span><wbr>\
             <span class=\"w\">SHARE_</span><wbr><span class=\"w\">ACCESS_</span><wbr>\
             <span class=\"w\">WANT_</span><wbr>XOR"
        );
        // A run of cut characters stays whole, and a word never ends in a break.
        assert_eq!(
            pieces("https://lore.kernel.org/all/x/", &['.', '/']),
            ["https://", "lore.", "kernel.", "org/", "all/", "x/"]
        );
        assert_eq!(
            metric("will-it-scale.time.involuntary_context_switches"),
            "<span class=\"w\">will-it-scale.</span><wbr><span class=\"w\">time.</span><wbr>\
             <span class=\"w\">involuntary_context_switches</span>"
        );
        assert_eq!(
            metric("fsmark.files_per_sec"),
            "<span class=\"w\">fsmark.files_per_sec</span>"
        );
    }

    #[test]
    fn every_status_has_a_fill_of_its_own() {
        let mut fills: Vec<&str> = Status::ALL.iter().map(|s| status_fill(*s)).collect();
        fills.sort_unstable();
        fills.dedup();
        assert_eq!(fills.len(), Status::ALL.len());
    }
}
