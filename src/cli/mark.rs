//! `regtrack mark`: stores a human decision on a regression's status. It is
//! keyed by the culprit, wins over inference, survives re-ingest and
//! re-linking, and shows in the timeline with its author and time.

use std::process::ExitCode;

use anyhow::Context as _;

use super::Context;
use crate::model::history::{Mark, Status};
use crate::pipeline::relink::Unreadable;
use crate::store::Store;

/// Arguments of `regtrack mark`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The regression: id, culprit id or prefix, or anything `show` accepts
    /// that names exactly one regression.
    pub regression: String,
    /// The status to set (reported, discussed, fix-proposed, fix-confirmed,
    /// fix-applied, disputed, declined, improvement).
    #[arg(value_parser = super::list::status_only_names(), hide_possible_values = true)]
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

/// Stores `mark` (its own transaction: stored whole or not at all), then
/// relinks with `relink`. An error is returned only when the mark was not
/// stored; a relink that fails after it is `Ok(Err(cause))`: the mark stays
/// stored, and applies at the next relink.
fn store_and_relink(
    store: &mut Store,
    mark: &Mark,
    relink: impl FnOnce(&mut Store) -> crate::error::Result<Unreadable>,
) -> anyhow::Result<Result<Unreadable, String>> {
    crate::store::links::insert_mark(store, mark)
        .context("storing the mark (nothing was stored)")?;
    Ok(relink(store).map_err(|e| e.to_string()))
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
    // Read first: a database that is not there is said and not created,
    // and a regression that is not there is exit status 1, as for every
    // query.
    {
        let reader = super::open_reader(ctx)?;
        let (_, found) = crate::query::resolve(&reader, &args.regression)?;
        if found.is_empty() {
            eprintln!("regtrack: no regression matches '{}'", args.regression);
            return Ok(ExitCode::from(1));
        }
    }
    let (mut store, _writing) = super::open_writer(ctx)?;
    let reg = crate::query::resolve_one(&store, &args.regression)?;
    let mark = Mark {
        culprit: reg.culprit.commit.clone(),
        status,
        note: args.note.clone(),
        author: args.author.clone().unwrap_or_else(default_author),
        at: chrono::Utc::now().timestamp(),
    };
    let relink_failed = store_and_relink(&mut store, &mark, |s| {
        crate::pipeline::relink::relink(s).map(|(_, u)| u)
    })?;
    match relink_failed {
        Ok(unreadable) => {
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
        }
        // The decision is stored: say so, and that the histories show it
        // at the next relink (the link state counts the marks).
        Err(e) => eprintln!(
            "regtrack: marked #{} {} as {} ({}); the mark is stored, but the histories could not be relinked ({e}): the next `regtrack ingest` or `regtrack reindex` shows it",
            reg.id,
            crate::query::short(&reg.culprit.commit),
            mark.status,
            mark.author
        ),
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relink_failing_after_the_mark_leaves_it_stored_and_says_so() {
        let mut store = Store::in_memory().unwrap();
        let mark = Mark {
            culprit: "2edf06a50f".into(),
            status: Status::Declined,
            note: None,
            author: "me".into(),
            at: 1,
        };
        let failed = store_and_relink(&mut store, &mark, |_| {
            Err(crate::error::Error::Query("database is locked".into()))
        })
        .unwrap();
        assert_eq!(failed.err().as_deref(), Some("database is locked"));
        let (marks, _) = crate::store::links::load_marks(&store).unwrap();
        assert_eq!(marks.len(), 1);
        assert_eq!(marks[0].status, Status::Declined);
        let ok = store_and_relink(&mut store, &mark, |_| Ok(Unreadable::default())).unwrap();
        assert!(ok.is_ok());
    }
}
