//! `regtrack failures`: what could not be read, with its file and offset
//! (or public-inbox commit) and the reason.

use std::io::Write;
use std::process::ExitCode;

use super::{Context, Format};

/// Arguments of `regtrack failures`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// How to print: `text`, a line per failure, or `json`, an array of
    /// `{source, offset, git_commit, message_id, reason, at}` (`--json` is
    /// short for `--format json`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Short for `--format json`.
    #[arg(long, hide = true, conflicts_with = "format")]
    pub json: bool,
}

/// Runs `regtrack failures`: exit 0 with a list, 1 when nothing failed.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let store = super::open_reader(ctx)?;
    let all = crate::store::stats::failures(&store)?;
    let json = args.format.asked(args.json) == Format::Json;
    let mut out = super::stdout();
    if json {
        crate::export::json::to_writer(&mut out, &all, true)?;
        writeln!(out)?;
    } else {
        let safe = crate::export::terminal::line;
        for f in &all {
            let place = match (&f.git_commit, f.offset) {
                (Some(c), _) => format!("commit {c}"),
                (None, Some(o)) => format!("offset {o}"),
                (None, None) => "-".to_string(),
            };
            writeln!(
                out,
                "{}  {}  {}",
                safe(&f.source),
                safe(&place),
                safe(&f.reason)
            )?;
        }
    }
    out.flush()?;
    if all.is_empty() && !ctx.quiet && !json {
        eprintln!("regtrack: nothing failed to read");
    }
    Ok(if all.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
