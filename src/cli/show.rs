//! `regtrack show`: every regression matching a subsystem, commit id or
//! prefix, metric or metric prefix, Message-ID or regression id.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use super::{Context, Format};
use crate::export;

/// Arguments of `regtrack show`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Subsystem (`xfs`), commit id or prefix, metric or metric prefix
    /// (`stress-ng.xattr`), Message-ID, or regression id.
    pub query: String,
    /// How to print: `text` or `json`, a list of regressions (see
    /// docs/json.md) (`--json` is short for `--format json`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Short for `--format json`.
    #[arg(long, hide = true, conflicts_with = "format")]
    pub json: bool,
    /// Days without a human reply before a regression is flagged.
    #[arg(long, default_value_t = 14)]
    pub days: u32,
    /// OSC 8 hyperlinks on message and commit ids: `auto` when stdout is a
    /// terminal and TERM is not `dumb`; without them the links are printed.
    #[arg(long, value_enum, default_value_t = Hyperlinks::Auto, value_name = "WHEN")]
    pub hyperlinks: Hyperlinks,
}

/// When `show` writes OSC 8 hyperlinks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Hyperlinks {
    /// On a terminal whose TERM is not `dumb`.
    Auto,
    /// Always.
    Always,
    /// Never: the links are printed as text.
    Never,
}

impl Hyperlinks {
    /// Whether to write them, for a stdout that is (or is not) a terminal.
    pub fn on(self, stdout_tty: bool) -> bool {
        match self {
            Hyperlinks::Always => true,
            Hyperlinks::Never => false,
            Hyperlinks::Auto => {
                stdout_tty && std::env::var("TERM").is_ok_and(|t| !t.is_empty() && t != "dumb")
            }
        }
    }
}

/// Runs `regtrack show`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let store = super::open_reader(ctx)?;
    let (_, mut regs) = crate::query::resolve(&store, &args.query)?;
    super::warn_undecodable(&store);
    super::note_stale(ctx, &store);
    let now = chrono::Utc::now().timestamp();
    for r in &mut regs {
        r.flags = crate::query::flags(r, now, args.days);
    }
    let mut out = std::io::BufWriter::new(super::stdout());
    let ids: Vec<&str> = regs
        .iter()
        .flat_map(|r| r.reports.iter().map(|rep| rep.message_id.as_str()))
        .collect();
    let notes = crate::store::copies::notes(&store, &ids)?;
    if args.format.asked(args.json) == Format::Json {
        let copies = notes
            .iter()
            .map(|(id, n)| (id.clone(), (n.copies, n.reason.clone())))
            .collect();
        export::json::write_with_copies(&mut out, &regs, &ctx.links, &copies)?;
    } else if regs.is_empty() {
        if !ctx.quiet {
            eprintln!(
                "regtrack: no regression matches '{}'{}",
                crate::export::terminal::line(&args.query),
                crate::query::no_match_hint(&args.query)
            );
        }
    } else {
        let notes: std::collections::HashMap<String, String> = notes
            .iter()
            .map(|(id, n)| (id.clone(), n.sentence()))
            .collect();
        let style = export::human::Style {
            color: ctx.color,
            hyperlinks: args.hyperlinks.on(std::io::stdout().is_terminal()),
            links: &ctx.links,
            copy_notes: Some(&notes),
        };
        export::human::show(&mut out, &regs, &style)?;
    }
    out.flush()?;
    Ok(if regs.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
