//! A self-contained HTML triage report: one file, no network fetches. A
//! sortable (click a column header), filterable table; per regression a
//! timeline row of its own under it (opened by its button) with a small
//! inline SVG chart of the headline metric across every commit column of
//! the table, with stddev error bars. The id links to the first report on
//! lore, the culprit to its commit, every timeline entry to its message.

use std::fmt::Write as _;
use std::io::Write;

use super::links::Links;
use super::{age_days, day, fix_summary, fmt_change};
use crate::model::history::{Headline, Regression, Status, StatusConfidence};

/// Escapes text for HTML element content and attribute values (every
/// attribute this report writes is double-quoted). Everything from mail or
/// the database goes through it: names, titles, metrics, dates, flags,
/// regzbot lines, commit ids, the chart's labels.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
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
table{border-collapse:collapse;width:100%}
th,td{border:1px solid #ccc;padding:3px 6px;vertical-align:top;font-size:13px;overflow-wrap:anywhere}
th,.st{overflow-wrap:normal;word-break:keep-all}
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
.unsure{font-size:smaller;color:#a60;border:1px dotted #a60;padding:0 2px;white-space:nowrap}
code{font-size:12px}
#controls{margin-bottom:8px}
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
    h.push_str("<table id=\"regs\"><thead><tr>");
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
        let _ = write!(h, "<td data-value=\"{}\">{id}</td>", r.id);
        let _ = write!(h, "<td>{}</td>", esc(r.subsystem.as_deref().unwrap_or("-")));
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
            "<td data-value=\"{}\">{}</td>",
            age.unwrap_or(-1),
            age.map(|a| a.to_string()).unwrap_or_default()
        );
        let _ = write!(h, "<td>{}</td>", esc(day(r.first_date.as_deref())));
        let short = format!(
            "<code>{}</code>",
            esc(crate::query::short(&r.culprit.commit))
        );
        let culprit = if r.culprit.commit.is_empty() {
            short
        } else {
            a(
                &links.commit(r.branch.as_deref(), &r.culprit.commit),
                &short,
            )
        };
        let _ = write!(
            h,
            "<td data-value=\"{}\">{culprit} {}</td>",
            esc(&r.culprit.commit),
            esc(r.culprit.title.as_deref().unwrap_or(""))
        );
        let hl = r.headline.as_ref();
        let _ = write!(
            h,
            "<td>{}</td>",
            esc(hl.map(|x| x.metric.as_str()).unwrap_or("-"))
        );
        let ch = hl.and_then(|x| x.change_percent);
        let _ = write!(
            h,
            "<td data-value=\"{}\">{}</td>",
            ch.map(|c| c.to_string()).unwrap_or_else(|| "NaN".into()),
            esc(&fmt_change(ch))
        );
        let fix = match (&r.fix, fix_summary(r)) {
            (Some(f), Some((title, st))) => {
                // A fix found only in a followed tree has no posting to link.
                let mut c = if f.message_id.is_empty() {
                    esc(&title)
                } else {
                    a(&links.message(&f.message_id), &esc(&title))
                };
                let _ = write!(c, " ({})", esc(&st));
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
        let _ = write!(h, "<td>{}</td>", esc(&r.flags.join(", ")));
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
                Some(m) => a(&links.message(m), &esc(&e.event)),
                None => esc(&e.event),
            };
            let _ = write!(
                h,
                "<li>{} {}: {}{}</li>",
                esc(day(e.date.as_deref())),
                esc(e.from.as_deref().unwrap_or("-")),
                what,
                e.status
                    .map(|s| format!(" <b>[{}]</b>", esc(s.as_str())))
                    .unwrap_or_default()
            );
        }
        h.push_str("</ul>");
        if !r.doubts.is_empty() {
            h.push_str("<p class=\"doubts\">Unsure:</p><ul class=\"doubts\">");
            for d in &r.doubts {
                let what = match &d.message_id {
                    Some(m) => a(&links.message(m), &esc(&d.said)),
                    None => esc(&d.said),
                };
                let _ = write!(
                    h,
                    "<li>{}: {what}; settle it: <code>{}</code></li>",
                    esc(d.kind.as_str()),
                    esc(&d.settle)
                );
            }
            h.push_str("</ul>");
        }
        if let Some(l) = &r.regzbot {
            let _ = write!(h, "<p><code>{}</code></p>", esc(l));
        }
        h.push_str("</td></tr>\n");
    }
    h.push_str("</tbody></table>");
    let _ = writeln!(h, "<script>{SCRIPT}</script></body></html>");
    out.write_all(h.as_bytes())
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
        assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#39; &amp;"));
    }
}
