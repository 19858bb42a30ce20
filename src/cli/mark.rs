//! `regtrack mark`: stores a human decision on a regression's status. It is
//! keyed by the culprit, wins over inference, survives re-ingest and
//! re-linking, and shows in the timeline with its author and time.

use std::process::ExitCode;

use anyhow::Context as _;

use super::Context;
use crate::model::history::{Mark, Status};
use crate::store::Store;

/// Arguments of `regtrack mark`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The regression: id, culprit id or prefix, or anything `show` accepts
    /// that names exactly one regression.
    pub regression: String,
    /// The status to set (reported, discussed, fix-proposed, fix-confirmed,
    /// fix-applied, disputed, declined, improvement).
    pub status: String,
    /// Why (shown in the timeline).
    #[arg(long)]
    pub note: Option<String>,
    /// Who decides; defaults to $REGTRACK_USER, git's user.name, then $USER.
    #[arg(long)]
    pub author: Option<String>,
}

fn default_author() -> String {
    if let Ok(u) = std::env::var("REGTRACK_USER")
        && !u.trim().is_empty()
    {
        return u.trim().to_string();
    }
    if let Ok(o) = std::process::Command::new("git")
        .args(["config", "user.name"])
        .output()
        && o.status.success()
    {
        let s = String::from_utf8_lossy(&o.stdout).trim().to_string();
        if !s.is_empty() {
            return s;
        }
    }
    std::env::var("USER").unwrap_or_else(|_| "unknown".into())
}

/// Runs `regtrack mark`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let status = Status::parse(&args.status).with_context(|| {
        format!(
            "unknown status '{}' (one of: {})",
            args.status,
            Status::ALL.map(|s| s.as_str()).join(", ")
        )
    })?;
    let mut store =
        Store::open(&ctx.db).with_context(|| format!("opening database '{}'", ctx.db.display()))?;
    let reg = crate::query::resolve_one(&store, &args.regression)?;
    let mark = Mark {
        culprit: reg.culprit.commit.clone(),
        status,
        note: args.note.clone(),
        author: args.author.clone().unwrap_or_else(default_author),
        at: chrono::Utc::now().timestamp(),
    };
    crate::store::links::insert_mark(&mut store, &mark)?;
    let (_, unreadable) = crate::pipeline::relink::relink(&mut store)?;
    super::warn_unreadable(ctx, &unreadable);
    if !ctx.quiet {
        eprintln!(
            "regtrack: marked #{} {} as {} ({})",
            reg.id,
            crate::query::short(&reg.culprit.commit),
            mark.status,
            mark.author
        );
    }
    Ok(ExitCode::SUCCESS)
}
