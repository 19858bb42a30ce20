//! `regtrack report`: the periodic report mail (see
//! [`crate::export::report`]), as an RFC 5322 message or as its text.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context as _;

use super::Context;
use crate::export::report::{Envelope, Period};
use crate::model::history::Scope;
use crate::query::Filter;

/// What `report` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// A whole message: headers, a blank line, the text.
    Mail,
    /// The text alone.
    Text,
}

/// Arguments of `regtrack report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The start of the period: `7d` (days before --now), `2024-03-01` or an
    /// RFC 3339 time.
    #[arg(long, default_value = "7d", value_name = "WHEN")]
    pub since: String,
    /// The end of the period (default: now): `2024-03-22` or an RFC 3339
    /// time; to write the report of a past week.
    #[arg(long, value_name = "WHEN")]
    pub now: Option<String>,
    /// Only this subsystem (or a component of it: `mm` matches `mm, oom`).
    #[arg(long)]
    pub subsystem: Option<String>,
    /// Only regressions with mail seen on this list (its List-ID or a part:
    /// `linux-xfs`).
    #[arg(long, value_name = "LIST")]
    pub list: Option<String>,
    /// Only these scopes (mainline, next, maintainer-tree, developer-branch,
    /// patch-under-review, unknown); repeated or comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "SCOPE", value_parser = super::list::scope_names(), hide_possible_values = true)]
    pub scope: Vec<String>,
    /// A recipient (repeated for more); `undisclosed-recipients:;` without.
    #[arg(long, value_name = "ADDR")]
    pub to: Vec<String>,
    /// The sender (default: the config file's `report_from`, else
    /// `regtrack <regtrack@localhost>`).
    #[arg(long, value_name = "ADDR")]
    pub from: Option<String>,
    /// A whole message or its text alone.
    #[arg(long, value_enum, default_value_t = ReportFormat::Mail)]
    pub format: ReportFormat,
    /// Days without a human reply before a regression is flagged.
    #[arg(long, default_value_t = 14)]
    pub days: u32,
}

/// The earliest day a report's period may name (1991-08-25, Linux's first
/// announcement): `--now` before it is refused (a mail's `Date:` needs a
/// four-digit year, and no regression is older), `--since` before it
/// starts there.
const EARLIEST: i64 = 683_078_400;

fn when(s: &str, now: i64) -> anyhow::Result<i64> {
    let s = s.trim();
    let t = match super::fetch::days_ago(s)? {
        Some(d) => now.saturating_sub(d.saturating_mul(86_400)),
        None => super::fetch::parse_since(s)?.timestamp(),
    };
    Ok(t)
}

/// The sender and the recipients, each checked to be addresses
/// ([`crate::export::report::checked_addresses`]): one sender, any number
/// of recipients, repeated or comma-separated.
fn envelope_addresses(ctx: &Context, args: &Args) -> anyhow::Result<(String, Vec<String>)> {
    use crate::export::report::checked_addresses;
    let (from, given_by) = match (&args.from, &ctx.config.report_from) {
        (Some(f), _) => (f.clone(), "--from"),
        (None, Some(f)) => (f.clone(), "the config file's report_from"),
        (None, None) => (
            "regtrack <regtrack@localhost>".to_string(),
            "the default sender",
        ),
    };
    let senders = checked_addresses(&from).map_err(|why| {
        anyhow::anyhow!(
            "{given_by} '{}' {why}",
            crate::export::terminal::line(&from)
        )
    })?;
    let [sender] = <[String; 1]>::try_from(senders)
        .map_err(|_| anyhow::anyhow!("{given_by} names more than one sender"))?;
    let mut to = Vec::new();
    for t in &args.to {
        let addrs = checked_addresses(t)
            .map_err(|why| anyhow::anyhow!("--to '{}' {why}", crate::export::terminal::line(t)))?;
        to.extend(addrs);
    }
    Ok((sender, to))
}

/// Runs `regtrack report`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let now = match &args.now {
        Some(n) => {
            // A day names its end: `--now 2024-03-22` covers that day.
            let t = when(n, chrono::Utc::now().timestamp()).context("--now")?;
            if t < EARLIEST {
                anyhow::bail!(
                    "--now '{}' is before Linux (1991-08-25)",
                    crate::export::terminal::line(n)
                );
            }
            if n.trim().len() == 10 { t + 86_399 } else { t }
        }
        None => chrono::Utc::now().timestamp(),
    };
    let (from, to) = envelope_addresses(ctx, &args)?;
    // A period reaching further back starts with Linux.
    let since = when(&args.since, now).context("--since")?.max(EARLIEST);
    if since > now {
        anyhow::bail!("--since is after the period's end (--now): the period runs backwards");
    }
    let mut scopes = Vec::new();
    for s in args.scope.iter().filter(|s| !s.trim().is_empty()) {
        scopes.push(Scope::parse(s).with_context(|| format!("unknown scope '{s}'"))?);
    }
    let filter = Filter {
        scopes,
        subsystem: args.subsystem.clone(),
        list: args.list.clone(),
        now,
        ..Filter::default()
    };
    let store = super::open_reader(ctx)?;
    let mut regs = crate::query::list(&store, &filter, now, args.days)?;
    // A report of a past week leaves out what was first reported after it;
    // a history with no usable date (its mail's Date fields garbled) is
    // still open business and stays.
    regs.retain(|r| r.facts.first_unix.is_none_or(|first| first <= now));
    super::warn_undecodable(&store);
    super::note_stale(ctx, &store);
    let period = Period {
        since,
        now,
        about: args.subsystem.clone().or_else(|| args.list.clone()),
    };
    let mut out = super::stdout();
    match args.format {
        ReportFormat::Text => {
            out.write_all(crate::export::report::text(&regs, &period, &ctx.links).as_bytes())?
        }
        ReportFormat::Mail => {
            let env = Envelope {
                domain: crate::export::report::domain(&from),
                from,
                to,
            };
            crate::export::report::write_mail(&mut out, &regs, &period, &env, &ctx.links)?
        }
    }
    out.flush()?;
    Ok(if regs.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
