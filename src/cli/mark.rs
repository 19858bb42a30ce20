//! `regtrack mark` and `regtrack unmark`: store a human decision on a
//! regression (a status, its fix commit, the release it was fixed in, or
//! that it duplicates another), or withdraw the last one. A mark is keyed by
//! the culprit, survives re-ingest and re-linking, and shows in the timeline
//! with its author and time; a withdrawal is a mark of its own, and both
//! stay in the timeline (see `link::marks`).

use std::process::ExitCode;

use anyhow::{Context as _, bail};

use super::Context;
use crate::model::history::{Mark, Regression, Status};
use crate::pipeline::relink::Unreadable;
use crate::store::Store;

/// Arguments of `regtrack mark`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The regression: id, culprit id or prefix, or anything `show` accepts
    /// that names exactly one regression.
    pub regression: String,
    /// The status to set (a status name), or `dup-of` followed by the
    /// regression this one duplicates (the help lists the names).
    #[arg(
        value_parser = super::list::mark_names(),
        hide_possible_values = true,
        help = format!(
            "The status to set ({}), or `dup-of` followed by the regression this one \
             duplicates. May be left out with --fix or --fixed-in",
            Status::names()
        )
    )]
    pub status: Option<String>,
    /// With `dup-of`: the regression this one duplicates (its history joins
    /// that one, as `#regzbot dup-of` does).
    pub other: Option<String>,
    /// The fix: a commit (7 to 40 hex digits; the history's fix, a followed
    /// tree's commit with this id says where it landed, and the status moves
    /// to fix-applied, or fixed when a followed tree says so) or the
    /// Message-ID of the patch posting that fixes it (linked as the
    /// history's fix, as `show` offers for a fix candidate; where it landed
    /// moves the status on).
    #[arg(long, value_name = "SHA|MESSAGE-ID")]
    pub fix: Option<String>,
    /// The release the fix shipped in (`v6.9`, `v6.9-rc3`): the status
    /// becomes fixed.
    #[arg(long, value_name = "TAG")]
    pub fixed_in: Option<String>,
    /// Why (shown in the timeline).
    #[arg(long)]
    pub note: Option<String>,
    /// Who decides; defaults to $REGTRACK_USER, git's user.name, then $USER.
    #[arg(long)]
    pub author: Option<String>,
}

/// Arguments of `regtrack unmark`.
#[derive(Debug, clap::Args)]
pub struct UnmarkArgs {
    /// The regression whose last mark in effect is withdrawn.
    pub regression: String,
    /// Why (shown in the timeline).
    #[arg(long)]
    pub note: Option<String>,
    /// Who withdraws it; defaults as for `mark`.
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

/// What the user asked `mark` to record, checked before anything is read.
struct Asked {
    status: Option<Status>,
    dup_of: Option<String>,
    fix: Option<String>,
    fix_patch: Option<String>,
    fixed_in: Option<String>,
}

fn asked(args: &Args) -> anyhow::Result<Asked> {
    let mut out = Asked {
        status: None,
        dup_of: None,
        fix: None,
        fix_patch: None,
        fixed_in: None,
    };
    match args.status.as_deref() {
        Some("dup-of") => match &args.other {
            Some(o) => out.dup_of = Some(o.clone()),
            None => {
                bail!("`dup-of` needs the regression this one duplicates: regtrack mark X dup-of Y")
            }
        },
        Some(s) => {
            out.status = Some(Status::parse(s).with_context(|| {
                format!(
                    "unknown status '{s}' (one of: {}, or dup-of)",
                    Status::ALL.map(|s| s.as_str()).join(", ")
                )
            })?);
            if let Some(o) = &args.other {
                bail!(
                    "unexpected argument '{o}' after the status (only `dup-of` takes a second regression)"
                );
            }
        }
        None => {}
    }
    if let Some(f) = &args.fix {
        let f = f.trim();
        if f.contains('@') {
            let id = f.trim_start_matches('<').trim_end_matches('>');
            if id.is_empty() || id.chars().any(|c| c.is_whitespace() || c.is_control()) {
                bail!(
                    "--fix '{}' is not a Message-ID",
                    crate::export::terminal::line(f)
                );
            }
            out.fix_patch = Some(id.to_string());
        } else if !(7..=40).contains(&f.len()) || !f.bytes().all(|b| b.is_ascii_hexdigit()) {
            bail!(
                "--fix '{}' is neither a commit id (7 to 40 hex digits) nor a Message-ID",
                crate::export::terminal::line(f)
            );
        } else {
            out.fix = Some(f.to_ascii_lowercase());
        }
    }
    if let Some(t) = &args.fixed_in {
        let t = t.trim();
        if t.is_empty() || t.chars().any(|c| c.is_whitespace() || c.is_control()) {
            bail!("--fixed-in '{t}' is not a tag name");
        }
        out.fixed_in = Some(t.to_string());
    }
    if out.status.is_none()
        && out.dup_of.is_none()
        && out.fix.is_none()
        && out.fix_patch.is_none()
        && out.fixed_in.is_none()
    {
        bail!("say what to mark: a status, `dup-of OTHER`, --fix SHA|MESSAGE-ID or --fixed-in TAG");
    }
    Ok(out)
}

/// Resolves `q` to one regression with a reader first: a database that is
/// not there is said and not created, and no match is exit status 1.
fn exists(ctx: &Context, q: &str) -> anyhow::Result<bool> {
    let reader = super::open_reader(ctx)?;
    let (_, found) = crate::query::resolve(&reader, q)?;
    if found.is_empty() {
        // A number that was a history's before it joined another (`mark X
        // dup-of Y`) names nothing now; its culprit commit still does.
        let numbered = !q.is_empty()
            && q.trim_start_matches('#')
                .bytes()
                .all(|b| b.is_ascii_digit());
        eprintln!(
            "regtrack: no regression matches '{}'{}",
            crate::export::terminal::line(q),
            if numbered {
                " (a history that joined another as its duplicate goes by that one's number: name it by its culprit commit)"
            } else {
                crate::query::no_match_hint(q)
            }
        );
        return Ok(false);
    }
    Ok(true)
}

/// Stores `mark` and relinks, and says what was done (`verb #id culprit: what`).
fn record(
    ctx: &Context,
    store: &mut Store,
    reg: &Regression,
    mark: &Mark,
    (verb, what): (&str, &str),
) -> ExitCode {
    let said = format!(
        "{verb} #{} {}: {what} ({})",
        reg.id,
        crate::query::short(&reg.culprit.commit),
        crate::export::terminal::line(&mark.author)
    );
    let relinked = match store_and_relink(store, mark, |s| {
        crate::pipeline::relink::relink(s).map(|(_, u)| u)
    }) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("regtrack: {e:#}");
            return ExitCode::from(2);
        }
    };
    match relinked {
        Ok(unreadable) => {
            super::warn_unreadable(ctx, &unreadable);
            if !ctx.quiet {
                eprintln!("regtrack: {said}");
            }
        }
        // The decision is stored: say so, and that the histories show it
        // at the next relink (the link state counts the marks).
        Err(e) => eprintln!(
            "regtrack: {said}; it is stored, but the histories could not be relinked ({e}): the next `regtrack ingest` or `regtrack reindex` shows it"
        ),
    }
    ExitCode::SUCCESS
}

/// Runs `regtrack mark`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    let asked = asked(&args)?;
    if !exists(ctx, &args.regression)? {
        return Ok(ExitCode::from(1));
    }
    if let Some(o) = &asked.dup_of
        && !exists(ctx, o)?
    {
        return Ok(ExitCode::from(1));
    }
    let (mut store, _writing) = super::open_writer(ctx)?;
    let reg = crate::query::resolve_one(&store, &args.regression)?;
    let dup_of = match &asked.dup_of {
        Some(o) => {
            let other = crate::query::resolve_one(&store, o)?;
            if other.id == reg.id {
                bail!(
                    "'{}' and '{o}' are the same regression (#{})",
                    args.regression,
                    reg.id
                );
            }
            Some(other.culprit.commit)
        }
        None => None,
    };
    // A fix named by a Message-ID nobody stored is kept, but said: it may
    // be a typo, or a posting not read yet.
    if let Some(id) = &asked.fix_patch
        && !ctx.quiet
        && matches!(crate::store::body::stored_message(&store, id), Ok(None))
    {
        eprintln!(
            "regtrack: note: no stored message has Message-ID '{}': the mark names it as the fix all the same (`regtrack fetch {}` brings the posting from lore)",
            crate::export::terminal::line(id),
            crate::link::doubt::shell_arg(id)
        );
    }
    let mark = Mark {
        culprit: reg.culprit.commit.clone(),
        status: asked.status,
        fix: asked.fix,
        fix_patch: asked.fix_patch,
        fixed_in: asked.fixed_in,
        dup_of,
        note: args.note.clone(),
        author: args.author.clone().unwrap_or_else(default_author),
        at: chrono::Utc::now().timestamp(),
        ..Mark::default()
    };
    let what = crate::link::marks::describe(&mark);
    let what = what.strip_prefix("marked ").unwrap_or(&what);
    let code = record(ctx, &mut store, &reg, &mark, ("marked", what));
    // The history's number is gone with it: say which one to name now, and
    // how to undo (its commit still names the joined history).
    if mark.dup_of.is_some()
        && !ctx.quiet
        && let Ok(joined) = crate::query::resolve_one(&store, &reg.culprit.commit)
        && joined.id != reg.id
    {
        eprintln!(
            "regtrack: #{} is now part of #{}; `regtrack unmark {}` parts them again",
            reg.id,
            joined.id,
            crate::query::short(&reg.culprit.commit)
        );
    }
    Ok(code)
}

/// Runs `regtrack unmark`.
pub fn unmark(ctx: &Context, args: UnmarkArgs) -> anyhow::Result<ExitCode> {
    if !exists(ctx, &args.regression)? {
        return Ok(ExitCode::from(1));
    }
    let (mut store, _writing) = super::open_writer(ctx)?;
    let reg = crate::query::resolve_one(&store, &args.regression)?;
    let marks = crate::pipeline::relink::marks(&store)?;
    let names: Vec<&str> = std::iter::once(reg.culprit.commit.as_str())
        .chain(reg.culprit.aliases.iter().map(String::as_str))
        .collect();
    let Some(last) = crate::link::marks::last_in_effect(&marks, &names) else {
        if !ctx.quiet {
            eprintln!(
                "regtrack: #{} {} has no mark to withdraw",
                reg.id,
                crate::query::short(&reg.culprit.commit)
            );
        }
        return Ok(ExitCode::from(1));
    };
    let mark = Mark {
        culprit: last.culprit.clone(),
        withdraws: Some(last.id),
        note: args.note.clone(),
        author: args.author.clone().unwrap_or_else(default_author),
        at: chrono::Utc::now().timestamp().max(last.at),
        ..Mark::default()
    };
    let what = format!("'{}'", crate::link::marks::describe(last));
    Ok(record(
        ctx,
        &mut store,
        &reg,
        &mark,
        ("withdrew from", &what),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relink_failing_after_the_mark_leaves_it_stored_and_says_so() {
        let mut store = Store::in_memory().unwrap();
        let mark = Mark {
            culprit: "2edf06a50f".into(),
            status: Some(Status::Declined),
            author: "me".into(),
            at: 1,
            ..Mark::default()
        };
        let failed = store_and_relink(&mut store, &mark, |_| {
            Err(crate::error::Error::Query("database is locked".into()))
        })
        .unwrap();
        assert_eq!(failed.err().as_deref(), Some("database is locked"));
        let (marks, _) = crate::store::links::load_marks(&store).unwrap();
        assert_eq!(marks.len(), 1);
        assert_eq!(marks[0].status, Some(Status::Declined));
        let ok = store_and_relink(&mut store, &mark, |_| Ok(Unreadable::default())).unwrap();
        assert!(ok.is_ok());
    }
}
