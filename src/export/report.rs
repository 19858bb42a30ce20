//! The periodic report mail (`regtrack report`), modelled on the weekly
//! "Linux regressions report": what is new in the period; what is still
//! open, oldest first, with its age, status and what is missing (no reply,
//! no patch, patch not applied); fixes applied but not released; what was
//! fixed in the period; improvements as one count. Plain text, no tables,
//! lines of at most [`WIDTH`] columns (a link longer than that stands on a
//! line of its own, unbroken). Every text from mail goes through
//! [`super::terminal::line`]: no control character reaches the mail.
//!
//! [`write_mail`] puts an RFC 5322 header block in front (`git send-email`
//! and `mutt -H` take the result as it is).

use std::io::Write;

use super::links::Links;
use super::terminal::line as safe;
use super::{age_days, day, fmt_change};
use crate::model::Direction;
use crate::model::history::{Regression, Status, StatusConfidence, Wait};

/// The widest line of the report's text.
pub const WIDTH: usize = 72;

/// What a report covers and how it is addressed.
#[derive(Debug, Clone)]
pub struct Period {
    /// The start of the period (Unix seconds).
    pub since: i64,
    /// The end of the period, "now" (Unix seconds).
    pub now: i64,
    /// What the report is about (`xfs`, `linux-xfs`), for the subject and
    /// the introduction; `None` for everything.
    pub about: Option<String>,
}

/// The header fields of the mail.
#[derive(Debug, Clone)]
pub struct Envelope {
    /// `From:`.
    pub from: String,
    /// `To:` addresses (`undisclosed-recipients:;` when empty).
    pub to: Vec<String>,
    /// The domain of the `Message-ID:`.
    pub domain: String,
}

/// The report's sections, each a list of regressions in its order.
#[derive(Debug, Default)]
pub struct Sections<'a> {
    /// First reported in the period.
    pub new: Vec<&'a Regression>,
    /// Open, first reported before the period; oldest first.
    pub open: Vec<&'a Regression>,
    /// A fix applied to a tree, not in a release yet.
    pub applied: Vec<&'a Regression>,
    /// Fixed (or its fix applied) with mail in the period.
    pub fixed: Vec<&'a Regression>,
    /// Improvements reported in the period.
    pub improvements: usize,
    /// Regressions whose status is unsure (open, or with mail in the
    /// period): a person's word would settle them.
    pub undecided: Vec<&'a Regression>,
}

fn is_improvement(r: &Regression) -> bool {
    r.status == Status::Improvement || r.direction == Direction::Improvement
}

/// Sorts `regs` into the report's sections.
pub fn sections<'a>(regs: &'a [Regression], p: &Period) -> Sections<'a> {
    let mut s = Sections::default();
    let first = |r: &Regression| r.facts.first_unix.unwrap_or(i64::MIN);
    for r in regs {
        let in_period = first(r) >= p.since && first(r) <= p.now;
        if is_improvement(r) {
            if in_period {
                s.improvements += 1;
            }
            continue;
        }
        if r.status == Status::FixApplied && r.fix.as_ref().is_none_or(|f| f.release.is_none()) {
            s.applied.push(r);
            continue;
        }
        if r.status.is_closed() {
            let touched = r.facts.last_unix.unwrap_or(i64::MIN) >= p.since;
            if r.status.is_fixed() && touched {
                s.fixed.push(r);
            }
            continue;
        }
        if in_period {
            s.new.push(r);
        } else if first(r) < p.since {
            s.open.push(r);
        }
    }
    // Unsure, open or with mail in the period: a decline or a dispute that
    // may not be one is the first thing to look at.
    s.undecided = regs
        .iter()
        .filter(|r| !is_improvement(r) && r.status_confidence == StatusConfidence::Unsure)
        .filter(|r| !r.status.is_closed() || r.facts.last_unix.unwrap_or(i64::MIN) >= p.since)
        .collect();
    s.undecided.sort_by_key(|r| (first(r), r.id));
    s.new.sort_by_key(|r| (first(r), r.id));
    s.open.sort_by_key(|r| (first(r), r.id));
    s.applied.sort_by_key(|r| (first(r), r.id));
    s.fixed.sort_by_key(|r| (first(r), r.id));
    s
}

/// What an open regression lacks: `no reply`, `no patch` or `patch not
/// applied`.
pub fn missing(r: &Regression) -> Option<&'static str> {
    match r.status.facts().waits_for? {
        Wait::Reply => Some("no reply"),
        Wait::Patch => Some("no patch"),
        Wait::Landing => Some("patch not applied"),
    }
}

/// Who is on it: the people (not the robot) who wrote in the history, in
/// the order they first did; at most four, then how many more.
pub fn people(r: &Regression) -> String {
    let mut names: Vec<&str> = Vec::new();
    for e in &r.timeline {
        let Some(f) = e.from.as_deref().map(str::trim) else {
            continue;
        };
        let robot = f.eq_ignore_ascii_case("kernel test robot")
            || f.contains("lkp@intel.com")
            || f.eq_ignore_ascii_case("regzbot");
        if e.message_id.is_none() || robot || f.is_empty() || names.contains(&f) {
            continue;
        }
        names.push(f);
    }
    match names.len() {
        0 => "nobody yet".to_string(),
        n if n <= 4 => names.join(", "),
        n => format!("{}, and {} more", names[..4].join(", "), n - 4),
    }
}

/// Wraps `text` to [`WIDTH`] columns, each line after the first indented
/// by `indent` spaces; words are never split.
pub fn wrap(text: &str, first_indent: usize, indent: usize) -> String {
    let mut out = String::new();
    let mut line = " ".repeat(first_indent);
    let mut empty = true;
    for word in text.split_whitespace() {
        let w = word.chars().count();
        if !empty && line.chars().count() + 1 + w > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = " ".repeat(indent);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

fn entry(out: &mut String, r: &Regression, now: i64, links: &Links, open: bool) {
    let title = r.culprit.title.as_deref().unwrap_or("(title unknown)");
    out.push_str(&wrap(
        &format!(
            "* {} {}",
            safe(crate::query::short(&r.culprit.commit)),
            safe(title)
        ),
        0,
        4,
    ));
    let metric = match &r.headline {
        Some(h) => format!("{} {}", safe(&h.metric), fmt_change(h.change_percent)),
        None => "no headline metric".to_string(),
    };
    let mut facts = vec![metric];
    if let Some(s) = &r.subsystem {
        facts.push(safe(s).into_owned());
    }
    let age = age_days(r, now)
        .map(|d| format!(", {d} days ago"))
        .unwrap_or_default();
    facts.push(format!("reported {}{age}", day(r.first_date.as_deref())));
    facts.push(r.status.as_str().to_string());
    out.push_str(&wrap(&facts.join("; "), 4, 4));
    if open && let Some(m) = missing(r) {
        out.push_str(&wrap(&format!("missing: {m}"), 4, 4));
    }
    if let Some(f) = &r.fix {
        let mut s = format!("fix: {}", safe(&super::fix_line(f)));
        if let Some(c) = &f.commit {
            s.push(' ');
            s.push_str(&links.commit(f.trees.last().map(String::as_str), c));
        }
        out.push_str(&wrap(&s, 4, 4));
    }
    let first = r
        .reports
        .first()
        .map(|rep| rep.message_id.as_str())
        .or(r.messages.first().map(String::as_str));
    if let Some(m) = first {
        out.push_str(&wrap(&links.message(m), 4, 4));
    }
    out.push_str(&wrap(&format!("on it: {}", safe(&people(r))), 4, 4));
}

fn section(
    out: &mut String,
    title: &str,
    regs: &[&Regression],
    now: i64,
    links: &Links,
    open: bool,
) {
    out.push('\n');
    out.push_str(&format!("== {title} ({}) ==\n", regs.len()));
    if regs.is_empty() {
        out.push_str("\nNone.\n");
    }
    for r in regs {
        out.push('\n');
        entry(out, r, now, links, open);
    }
}

/// The short section of histories whose status is unsure: what raised the
/// doubt and the command that settles it.
fn needs_decision(out: &mut String, regs: &[&Regression]) {
    out.push('\n');
    out.push_str(&format!("== Needs a decision ({}) ==\n", regs.len()));
    if regs.is_empty() {
        out.push_str("\nNone.\n");
    }
    for r in regs {
        out.push('\n');
        out.push_str(&wrap(
            &format!(
                "* {} {}: {}, unsure",
                safe(crate::query::short(&r.culprit.commit)),
                safe(r.culprit.title.as_deref().unwrap_or("(title unknown)")),
                r.status.as_str()
            ),
            0,
            4,
        ));
        for d in &r.doubts {
            out.push_str(&wrap(
                &format!("{}: {}", d.kind.as_str(), safe(&d.said)),
                4,
                6,
            ));
            // A command is copied whole: one line, however long, like a link.
            out.push_str(&format!("      {}\n", safe(&d.settle)));
        }
    }
}

/// The report's text (the mail body).
pub fn text(regs: &[Regression], p: &Period, links: &Links) -> String {
    let s = sections(regs, p);
    let mut out = String::new();
    let about = p
        .about
        .as_deref()
        .map(|a| format!(" of {}", safe(a)))
        .unwrap_or_default();
    out.push_str(&wrap(
        &format!(
            "Performance regressions{about} reported by the kernel test robot, from {} to {}: {} new, {} still open, {} with a fix applied but not released, {} fixed in the period, {} improvements.",
            day(crate::model::history::iso(Some(p.since)).as_deref()),
            day(crate::model::history::iso(Some(p.now)).as_deref()),
            s.new.len(),
            s.open.len(),
            s.applied.len(),
            s.fixed.len(),
            s.improvements
        ),
        0,
        0,
    ));
    section(&mut out, "New in this period", &s.new, p.now, links, true);
    section(
        &mut out,
        "Still open, oldest first",
        &s.open,
        p.now,
        links,
        true,
    );
    section(
        &mut out,
        "Fix applied, not released yet",
        &s.applied,
        p.now,
        links,
        false,
    );
    section(
        &mut out,
        "Fixed in this period",
        &s.fixed,
        p.now,
        links,
        false,
    );
    needs_decision(&mut out, &s.undecided);
    out.push('\n');
    out.push_str(&format!(
        "== Improvements ==\n\n{} reported in this period.\n",
        s.improvements
    ));
    out.push_str("\n-- \nWritten by regtrack from the mailing-list archives.\n");
    out
}

/// One address of a header as given on the command line or in the config
/// (`Jane Doe <jane@example.org>`, `jane@example.org (Jane)`): its display
/// name and its address, read by the same parser as mail is.
pub fn address(text: &str) -> (Option<String>, String) {
    let one_line = one_line(text);
    let raw = format!("From: {one_line}\r\n\r\n");
    let parsed = mail_parser::MessageParser::new().parse(raw.as_bytes());
    let first = parsed
        .as_ref()
        .and_then(|m| m.from())
        .and_then(|a| a.first());
    match first.and_then(|a| a.address()) {
        Some(addr) => (
            first
                .and_then(|a| a.name())
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty()),
            addr.trim().to_string(),
        ),
        None => (None, one_line.trim().to_string()),
    }
}

/// The addresses of a header value given on the command line or in the
/// config (`Jane <j@b.org>, k@b.org`), each as `address` reads it, or why
/// they are not addresses: a line break or control character (a header
/// smuggled in), more `@` than the parser found addresses (one would be
/// dropped: `a@b.org Bcc: c@d.org`), or an address that is not
/// `local@domain`.
pub fn checked_addresses(text: &str) -> std::result::Result<Vec<String>, String> {
    if text.chars().any(char::is_control) {
        return Err("holds a line break or a control character".into());
    }
    if text.len() > 900 {
        return Err("is longer than a mail header line may be".into());
    }
    let raw = format!("To: {text}\r\n\r\n");
    let parsed = mail_parser::MessageParser::new().parse(raw.as_bytes());
    let found: Vec<(Option<String>, String)> = parsed
        .as_ref()
        .and_then(|m| m.to())
        .map(|list| {
            list.iter()
                .map(|a| {
                    (
                        a.name()
                            .map(|n| n.trim().to_string())
                            .filter(|n| !n.is_empty()),
                        a.address().unwrap_or("").trim().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let valid = |addr: &str| {
        addr.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && !domain.is_empty()
                && local
                    .bytes()
                    .all(|b| b.is_ascii_graphic() && !b"<>()[]\\,;:\"@".contains(&b))
                && domain
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        })
    };
    let ats = text.bytes().filter(|&b| b == b'@').count();
    if found.is_empty() || found.len() != ats || found.iter().any(|(_, a)| !valid(a)) {
        return Err(
            "is not one or more addresses (Jane Doe <jane@example.org>, k@example.org)".into(),
        );
    }
    Ok(found
        .into_iter()
        .map(|(name, addr)| match name {
            Some(n) => format!(
                "\"{}\" <{addr}>",
                n.replace('\\', "\\\\").replace('"', "\\\"")
            ),
            None => addr,
        })
        .collect())
}

/// The domain of an address's address part (`Jane <j@b.org> (x)` ->
/// `b.org`), for the `Message-ID:`; `localhost` when it has none a
/// Message-ID can hold.
pub fn domain(text: &str) -> String {
    let (_, addr) = address(text);
    addr.rsplit_once('@')
        .map(|(_, d)| d.trim())
        .filter(|d| {
            !d.is_empty()
                && d.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        })
        .unwrap_or("localhost")
        .to_string()
}

fn builder_address(text: &str) -> mail_builder::headers::address::Address<'static> {
    let (name, addr) = address(text);
    mail_builder::headers::address::Address::new_address(name, addr)
}

/// Writes the report as an RFC 5322 message: `From`, `To`, `Date`,
/// `Subject`, `Message-ID`, a UTF-8 text body and [`text`]. Names that are
/// not ASCII are encoded words (RFC 2047), and a body with a line longer
/// than the 998 octets a mail line may have, or with any non-ASCII text, is
/// quoted-printable (mail-builder chooses), so `git send-email` and every
/// server take it.
pub fn write_mail(
    out: &mut dyn Write,
    regs: &[Regression],
    p: &Period,
    env: &Envelope,
    links: &Links,
) -> std::io::Result<()> {
    use mail_builder::headers::address::Address;
    let body = text(regs, p, links);
    let s = sections(regs, p);
    let date = chrono::DateTime::from_timestamp(p.now, 0).unwrap_or_default();
    let about = p
        .about
        .as_deref()
        .map(|a| format!(" [{}]", one_line(a)))
        .unwrap_or_default();
    let to = if env.to.is_empty() {
        Address::new_group(Some("undisclosed-recipients".to_string()), Vec::new())
    } else {
        Address::new_list(env.to.iter().map(|t| builder_address(t)).collect())
    };
    let subject = format!(
        "Performance regressions report{about} for {}: {} new, {} open",
        day(crate::model::history::iso(Some(p.now)).as_deref()),
        s.new.len(),
        s.open.len(),
    );
    let id = format!(
        "regtrack-report.{}.{}@{}",
        date.format("%Y%m%d%H%M%S"),
        std::process::id(),
        env.domain,
    );
    // A body whose lines all fit goes as it is (8 bit UTF-8, readable
    // raw, as `git format-patch` writes); one with a longer line is left to
    // mail-builder, which makes it quoted-printable.
    let long_line = body.lines().any(|l| l.len() > MAX_LINE_OCTETS);
    let part = mail_builder::mime::MimePart::new(
        mail_builder::headers::content_type::ContentType::new("text/plain")
            .attribute("charset", "utf-8"),
        body,
    );
    let part = if long_line {
        part
    } else {
        part.transfer_encoding("8bit")
    };
    let wire = mail_builder::MessageBuilder::new()
        .from(builder_address(&env.from))
        .to(to)
        .date(p.now)
        .subject(subject)
        .message_id(id)
        .body(part)
        .write_to_vec()?;
    // Lines end as in a file of mail on a Unix machine (git send-email and
    // mbox tools read LF), not as on the wire.
    let text = String::from_utf8_lossy(&wire).replace("\r\n", "\n");
    out.write_all(text.as_bytes())
}

/// Most octets of a line of mail without its line end (RFC 5322, 2.1.1).
const MAX_LINE_OCTETS: usize = 998;

/// `text` on one line: control characters (CR, LF among them) as spaces,
/// so nothing from the database can add a header line.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_lines_within_width_and_words_whole() {
        let t = "word ".repeat(40);
        let w = wrap(&t, 0, 4);
        assert!(w.lines().all(|l| l.chars().count() <= WIDTH), "{w}");
        assert_eq!(w.split_whitespace().count(), 40);
        let url = format!("https://lore.kernel.org/all/{}/", "x".repeat(80));
        assert_eq!(wrap(&url, 4, 4), format!("    {url}\n"));
    }

    #[test]
    fn a_command_that_settles_a_doubt_is_one_line_to_copy() {
        let settle =
            "regtrack mark ef4eebad9c01 --fix 20210226193612.1199321-5-harshadshirwadkar@gmail.com";
        let r = Regression {
            doubts: vec![crate::model::history::Doubt {
                settle: settle.to_string(),
                said: "a fix candidate below the linking threshold".into(),
                ..Default::default()
            }],
            ..Default::default()
        };
        let mut out = String::new();
        needs_decision(&mut out, &[&r]);
        assert!(out.lines().any(|l| l == format!("      {settle}")), "{out}");
    }

    #[test]
    fn addresses_read_like_mail_and_domains_are_only_domains() {
        assert_eq!(
            address("Jane Doe <jane@example.org>"),
            (Some("Jane Doe".into()), "jane@example.org".into())
        );
        assert_eq!(domain("jane@example.org (Jane at work)"), "example.org");
        assert_eq!(domain("Jörg <j@b.org>"), "b.org");
        assert_eq!(domain("nobody"), "localhost");
        assert_eq!(domain("x@a>b"), "localhost");
    }
}
