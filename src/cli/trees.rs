//! `regtrack trees`: records local kernel clones and the refs to follow
//! (`trees add`), lists them with the last commit read (`trees`, `trees
//! list`), and reads what they gained since (`trees sync`, the trees stage
//! of [`crate::pipeline::update`] that `ingest` runs after the mail).

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context as _;

use super::{Context, terminal_safe};

/// Arguments of `regtrack trees`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to do (default: list).
    #[command(subcommand)]
    pub action: Option<Action>,
}

/// `regtrack trees` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Record a local kernel clone (bare or not) and the refs to follow.
    #[command(
        after_help = "Examples:\n  regtrack trees add mainline ~/src/linux --ref master\n  regtrack trees add next ~/src/linux-next.git --ref master\n  regtrack trees add xfs ~/src/xfs-linux --ref for-next"
    )]
    Add {
        /// A name for the tree (`mainline`, `next`, `stable`, `xfs`); a
        /// tree named `next` or `linux-next` is said as "in next only".
        name: String,
        /// The clone's path.
        path: std::path::PathBuf,
        /// A ref to follow (`master`, `for-next`, `linux-6.1.y`,
        /// `refs/remotes/origin/master`); repeated; default `HEAD`.
        #[arg(long = "ref", value_name = "REF")]
        refs: Vec<String>,
    },
    /// List the recorded trees, their refs and the last commit read.
    #[command(after_help = "Example:\n  regtrack trees list")]
    List,
    /// Read every recorded tree from the last commit read to each ref's tip, and relink.
    #[command(after_help = "Example:\n  regtrack --db /srv/regtrack.db -q trees sync")]
    Sync,
}

/// Runs `regtrack trees`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    match args.action.unwrap_or(Action::List) {
        Action::List => list(ctx),
        Action::Add { name, path, refs } => add(ctx, &name, &path, refs),
        Action::Sync => {
            let (mut store, _writing) = super::open_writer(ctx)?;
            let shown = super::update::Shown::new(ctx, None);
            let ok = crate::pipeline::update::sync_trees(&store, &shown)?;
            let (relinked, unreadable) = crate::pipeline::relink::relink(&mut store)
                .context("linking threads and regressions")?;
            super::warn_unreadable(ctx, &unreadable);
            if !ctx.quiet {
                eprintln!("regtrack: {}", super::relinked_line(&relinked));
            }
            Ok(if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            })
        }
    }
}

fn add(
    ctx: &Context,
    name: &str,
    path: &std::path::Path,
    mut refs: Vec<String>,
) -> anyhow::Result<ExitCode> {
    if name.trim().is_empty() || name.chars().any(|c| c.is_control() || c.is_whitespace()) {
        anyhow::bail!(
            "a tree name is one word without spaces ('{}')",
            terminal_safe(name)
        );
    }
    if refs.is_empty() {
        refs.push("HEAD".to_string());
    }
    let shown = path.to_string_lossy().into_owned();
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    crate::pipeline::trees::check(name, &abs.to_string_lossy(), &refs)?;
    let (store, _writing) = super::open_writer(ctx)?;
    crate::store::trees::add(&store, name, &abs.to_string_lossy(), &refs, now())?;
    if !ctx.quiet {
        eprintln!(
            "regtrack: recorded tree '{}' at {} following {}; `regtrack trees sync` (or `ingest`) reads it",
            terminal_safe(name),
            terminal_safe(&shown),
            terminal_safe(&refs.join(", "))
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn list(ctx: &Context) -> anyhow::Result<ExitCode> {
    let store = super::open_reader(ctx)?;
    let trees = crate::store::trees::list(&store)?;
    let mut out = super::stdout();
    if trees.is_empty() {
        writeln!(
            out,
            "no trees recorded (`regtrack trees add NAME PATH --ref REF`)"
        )?;
        return Ok(ExitCode::from(1));
    }
    for t in &trees {
        writeln!(
            out,
            "{}  {}",
            terminal_safe(&t.name),
            terminal_safe(&t.path)
        )?;
        for r in &t.refs {
            let n = crate::store::trees::ref_commits(&store, r.id)?;
            let read = match (&r.tip, r.read_at) {
                (Some(tip), Some(at)) => format!(
                    "last read {} on {} ({n} commits)",
                    terminal_safe(tip),
                    crate::export::day(crate::model::history::iso(Some(at)).as_deref())
                ),
                _ => "not read yet".to_string(),
            };
            writeln!(out, "  {}  {read}", terminal_safe(&r.name))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}
