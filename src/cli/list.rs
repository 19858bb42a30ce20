//! `regtrack list`: one line per regression, newest first, with filters.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context as _;

use super::{Context, Format};
use crate::model::history::{Scope, Status};
use crate::query::{Filter, parse_date};

/// Filters shared by `list`, `export` and `report`.
#[derive(Debug, Clone, clap::Args)]
pub struct FilterArgs {
    /// Only these statuses: names or the groups `open`, `landed`, `closed`
    /// (the help lists the names).
    #[arg(long, value_delimiter = ',', value_name = "STATUS", value_parser = status_names(), hide_possible_values = true,
        help = format!("Only these statuses: names ({}) or the groups {GROUPS_HELP}; repeated or comma-separated", Status::names()))]
    pub status: Vec<String>,
    /// Only these scopes (mainline, next, maintainer-tree, developer-branch,
    /// patch-under-review, unknown); repeated or comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "SCOPE", value_parser = scope_names(), hide_possible_values = true)]
    pub scope: Vec<String>,
    /// Only this subsystem (or a component of it: `mm` matches `mm, oom`).
    #[arg(long)]
    pub subsystem: Option<String>,
    /// Only regressions with mail seen on this list (its List-ID or a part:
    /// `linux-xfs`).
    #[arg(long, value_name = "LIST")]
    pub list: Option<String>,
    /// First report on or after this date (YYYY-MM-DD).
    #[arg(long)]
    pub since: Option<String>,
    /// First report before this date (YYYY-MM-DD).
    #[arg(long)]
    pub until: Option<String>,
    /// Only regressions or only improvements.
    #[arg(long, value_parser = ["regression", "improvement"])]
    pub direction: Option<String>,
    /// Only where the headline change is at least this many percent either
    /// way (`5`), or, negative, at most this change (`-5`).
    #[arg(long, allow_negative_numbers = true, value_name = "PERCENT")]
    pub min_change: Option<f64>,
    /// Only open regressions where nothing happened for more than DAYS days.
    #[arg(long, value_name = "DAYS")]
    pub stale: Option<u32>,
    /// Only regressions fixed in this release or an earlier one (`v6.4`).
    #[arg(long, value_name = "RELEASE")]
    pub fixed_in: Option<String>,
    /// Only regressions whose status is unsure (weak or conflicting
    /// evidence: `show` says what would settle each).
    #[arg(long)]
    pub unsure: bool,
    /// Days without a human reply before a regression is flagged.
    #[arg(long, default_value_t = 14)]
    pub days: u32,
}

/// A value parser that takes any text (the command checks it, with its own
/// message) and tells clap the names it expects, for the completion
/// scripts (`regtrack completions`) and the manual page.
#[derive(Debug, Clone, Copy)]
pub struct Names(fn() -> Vec<&'static str>);

impl clap::builder::TypedValueParser for Names {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            (self.0)()
                .into_iter()
                .map(clap::builder::PossibleValue::new),
        ))
    }
}

/// What the groups of `--status` are, for the help of the options that
/// take them.
pub const GROUPS_HELP: &str =
    "`open` (not closed), `landed` (fix-applied or fixed: a fix landed in some tree) and `closed`";

/// The status names, then the groups `open`, `landed`, `closed`
/// ([`crate::query::STATUS_GROUPS`]).
pub fn status_names() -> Names {
    Names(|| {
        let mut v: Vec<&'static str> = Status::ALL.iter().map(|s| s.as_str()).collect();
        v.extend(crate::query::STATUS_GROUPS);
        v
    })
}

/// What `mark` takes: the status names and `dup-of`.
pub fn mark_names() -> Names {
    Names(|| {
        let mut v: Vec<&'static str> = Status::ALL.iter().map(|s| s.as_str()).collect();
        v.push("dup-of");
        v
    })
}

/// The scope names.
pub fn scope_names() -> Names {
    Names(|| Scope::ALL.iter().map(|s| s.as_str()).collect())
}

/// Status names and groups (`open`, `landed`, `closed`) as statuses.
pub fn parse_statuses(names: &[String]) -> anyhow::Result<Vec<Status>> {
    let mut out: Vec<Status> = Vec::new();
    for n in names.iter().filter(|n| !n.trim().is_empty()) {
        let more = match crate::query::status_group(n) {
            Some(g) => g,
            None => vec![Status::parse(n).with_context(|| {
                format!(
                    "unknown status '{n}' (one of: {}, or the groups {})",
                    Status::ALL.map(|s| s.as_str()).join(", "),
                    crate::query::STATUS_GROUPS.join(", ")
                )
            })?],
        };
        for s in more {
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    // `--status ''` (an unset shell variable) would otherwise filter nothing.
    if out.is_empty() && !names.is_empty() {
        anyhow::bail!(
            "--status names no status (one of: {}, or the groups {})",
            Status::ALL.map(|s| s.as_str()).join(", "),
            crate::query::STATUS_GROUPS.join(", ")
        );
    }
    Ok(out)
}

impl FilterArgs {
    /// The checked filter.
    pub fn filter(&self) -> anyhow::Result<Filter> {
        let mut scopes = Vec::new();
        for s in self.scope.iter().filter(|s| !s.trim().is_empty()) {
            scopes.push(Scope::parse(s).with_context(|| {
                format!(
                    "unknown scope '{s}' (one of: {})",
                    Scope::ALL.map(|s| s.as_str()).join(", ")
                )
            })?);
        }
        if scopes.is_empty() && !self.scope.is_empty() {
            anyhow::bail!(
                "--scope names no scope (one of: {})",
                Scope::ALL.map(|s| s.as_str()).join(", ")
            );
        }
        if self
            .list
            .as_deref()
            .is_some_and(|l| l.trim_matches(['<', '>', ' ']).is_empty())
        {
            anyhow::bail!("--list names no list (give a List-ID or a part of one: linux-ext4)");
        }
        if let Some(change) = self.min_change.filter(|c| !c.is_finite()) {
            anyhow::bail!("--min-change {change}: give a number of percent, such as 5 or -5");
        }
        Ok(Filter {
            statuses: parse_statuses(&self.status)?,
            scopes,
            list: self.list.clone(),
            stale_days: self.stale,
            fixed_in: self.fixed_in.clone(),
            subsystem: self.subsystem.clone(),
            since: self.since.as_deref().map(parse_date).transpose()?,
            until: self.until.as_deref().map(parse_date).transpose()?,
            direction: self.direction.clone(),
            min_change: self.min_change,
            unsure: self.unsure,
            now: chrono::Utc::now().timestamp(),
        })
    }
}

/// Arguments of `regtrack list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Filters.
    #[command(flatten)]
    pub filter: FilterArgs,
    /// How to print: `text`, a line per regression, or `json`, a list of
    /// regressions (see docs/json.md) (`--json` is short for `--format
    /// json`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Short for `--format json`.
    #[arg(long, hide = true, conflicts_with = "format")]
    pub json: bool,
}

/// Runs `regtrack list`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let filter = args.filter.filter()?;
    let store = super::open_reader(ctx)?;
    let now = chrono::Utc::now().timestamp();
    let regs = crate::query::list(&store, &filter, now, args.filter.days)?;
    super::warn_undecodable(&store);
    super::note_stale(ctx, &store);
    let mut out = std::io::BufWriter::new(super::stdout());
    if args.format.asked(args.json) == Format::Json {
        crate::export::json::write(&mut out, &regs, &ctx.links)?;
    } else {
        crate::export::human::list(&mut out, &regs, ctx.color)?;
    }
    out.flush()?;
    // Nothing matched: exit 1, as every query command does, and a word on
    // stderr (stdout stays empty for scripts).
    Ok(if regs.is_empty() {
        if !ctx.quiet && args.format.asked(args.json) != Format::Json {
            eprintln!("regtrack: no regression matches these filters");
        }
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
