//! The command line: clap-derived arguments, one module per subcommand, and the
//! error/exit-code policy (anyhow context at this edge only).

mod complete;
mod config;
mod export;
mod failures;
mod fetch;
mod ingest;
mod list;
mod mail;
mod man;
mod mark;
mod parse;
mod reindex;
mod relink;
mod report;
mod show;
mod stats;
mod thread;
mod trees;
mod trends;
mod update;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

/// regtrack: a queryable history of kernel performance regressions, built from
/// mailing-list archives.
#[derive(Debug, Parser)]
#[command(name = "regtrack", version, about, long_about = None)]
pub struct Cli {
    /// Database file (SQLite) (default: $REGTRACK_DB when it is set and not
    /// empty, else ./regtrack.db).
    #[arg(long, global = true, help_heading = "Global options")]
    pub db: Option<PathBuf>,
    /// No progress bar and no chatter: an update prints nothing unless a
    /// message failed (for cron).
    #[arg(short, long, global = true, help_heading = "Global options")]
    pub quiet: bool,
    /// When to use colours in human output.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, help_heading = "Global options")]
    pub color: ColorChoice,
    /// The configuration file (default $REGTRACK_CONFIG, else
    /// $XDG_CONFIG_HOME/regtrack/config.toml).
    #[arg(
        long,
        global = true,
        value_name = "PATH",
        help_heading = "Global options"
    )]
    pub config: Option<PathBuf>,
    /// The public-inbox server for message links and for `fetch`/`follow`,
    /// or an inbox on it (`https://lore.kernel.org/all`) (default:
    /// $REGTRACK_LORE_BASE when it is set and not empty, else the config
    /// file's `lore_base`, else <https://lore.kernel.org>).
    #[arg(
        long,
        global = true,
        value_name = "URL",
        help_heading = "Global options"
    )]
    pub lore_base: Option<String>,
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// How a command that prints text or JSON prints: `--format text|json`
/// (`--json` is short for `--format json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Text for people.
    Text,
    /// JSON for programs (see docs/json.md).
    Json,
}

impl Format {
    /// The format asked: `--json`, the short form, is `--format json`
    /// (clap refuses the two together).
    pub fn asked(self, json: bool) -> Format {
        if json { Format::Json } else { self }
    }
}

/// Colour policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colours when stdout is a terminal.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read mail (mbox, .mbox.gz, Maildir, .eml, public-inbox git, rendered text, `-`) into the database.
    #[command(
        after_help = "Examples (each runs as written in a checkout, on the bundled corpus):\n  regtrack ingest corpus/\n  regtrack ingest corpus/report/current-perf-report.eml corpus/bad/"
    )]
    Ingest(ingest::Args),
    /// Counts: messages, threads, date range, per list, per kind, failures.
    #[command(after_help = "Example:\n  regtrack stats --format json")]
    Stats(stats::Args),
    /// Print everything extracted from each message as JSON Lines (nothing is stored).
    #[command(
        after_help = "Example:\n  regtrack parse corpus/report/current-perf-report.eml | jq .tables"
    )]
    Parse(parse::Args),
    /// Show regression histories matching a subsystem, commit, metric, Message-ID or id.
    #[command(
        after_help = "Examples:\n  regtrack show xfs\n  regtrack show 2edf06a50f\n  regtrack show stress-ng.xattr --format json"
    )]
    Show(show::Args),
    /// One line per regression, newest first, with filters.
    #[command(
        after_help = "Example:\n  regtrack list --status open --subsystem ext4 --since 2023-01-01"
    )]
    List(list::Args),
    /// Write a triage summary (Markdown, JSON, CSV or a static HTML report).
    #[command(after_help = "Example:\n  regtrack export --format html --out triage.html")]
    Export(export::Args),
    /// Write the periodic report mail: new, still open (oldest first, with what is missing), fix applied but not released, fixed, improvements.
    #[command(
        after_help = "Examples:\n  regtrack report --since 7d --subsystem ext4 --to linux-ext4@vger.kernel.org > report.eml\n  regtrack report --now 2024-03-31 --since 30d --format text\n(the first answers 1 when nothing was reported in the last 7 days)"
    )]
    Report(report::Args),
    /// How often the robot reported regressions, on which benchmarks, how big, and how many were fixed, declined or are open: per month or release and per subsystem, testcase and metric.
    #[command(
        after_help = "Examples:\n  regtrack trends --subsystem ext4\n  regtrack trends --per subsystem --since 2024-01-01 --format csv\n  regtrack trends --by release --format json"
    )]
    Trends(trends::Args),
    /// Record a human decision on a regression: its status (wins over inference), its fix commit, the release it was fixed in, or that it duplicates another.
    #[command(
        after_help = "Examples:\n  regtrack mark 2edf06a50f declined --note \"layout noise, not chasing\"\n  regtrack mark 2edf06a50f --fix 4b1c2e9d0a7f --fixed-in v6.9\n  regtrack mark 2edf06a50f dup-of 68a9f5e700"
    )]
    Mark(mark::Args),
    /// Withdraw the last mark in effect on a regression (both stay in the timeline).
    #[command(
        after_help = "Example:\n  regtrack unmark 2edf06a50f --note \"marked the wrong one\""
    )]
    Unmark(mark::UnmarkArgs),
    /// Print one stored message: its headers and decoded body (or JSON), as received (`--raw`, mboxrd), or its copies (`--copies`).
    #[command(
        after_help = "Examples:\n  regtrack mail 202403151023.5e1f2a3b-lkp@intel.com | less\n  regtrack mail --raw 202403151023.5e1f2a3b-lkp@intel.com > report.mbox\n  regtrack mail --copies 202403151023.5e1f2a3b-lkp@intel.com"
    )]
    Mail(mail::Args),
    /// Print the whole stored thread of a message, as received, as one mboxrd (for git am, b4, mutt).
    #[command(
        after_help = "Example:\n  regtrack thread 202403151023.5e1f2a3b-lkp@intel.com > thread.mbox"
    )]
    Thread(thread::Args),
    /// List what could not be read: file and offset (or public-inbox commit), and why.
    #[command(after_help = "Example:\n  regtrack failures --format json")]
    Failures(failures::Args),
    /// Extract stored messages again (those an older regtrack stored, or all) and relink.
    #[command(after_help = "Example:\n  regtrack reindex --all")]
    Reindex(reindex::Args),
    /// Fetch whole threads or a search's messages from lore (or any public-inbox server) and ingest them.
    #[command(
        after_help = "Examples:\n  regtrack fetch 202401221624.cb53a8ca-oliver.sang@intel.com\n  regtrack fetch https://lore.kernel.org/linux-ext4/20200925071217.GO28663@shao2-debian/T/#u\n  regtrack fetch --query 'f:lkp@intel.com AND s:regression AND dfn:fs/xfs/' --threads --since 90d"
    )]
    Fetch(fetch::Args),
    /// Fetch again what the matching regressions' threads and mail naming them got since last time.
    #[command(after_help = "Example:\n  regtrack follow --status open --subsystem xfs")]
    Follow(fetch::FollowArgs),
    /// Follow local kernel clones: which release holds a fix, which tree a culprit was reverted in.
    #[command(
        after_help = "Examples:\n  regtrack trees add mainline ~/src/linux --ref master\n  regtrack trees sync\n  regtrack trees"
    )]
    Trees(trees::Args),
    /// Bring threads and regressions up to date, or with --full compute them all from scratch.
    #[command(after_help = "Example:\n  regtrack relink --full")]
    Relink(relink::Args),
    /// Write a shell completion script (bash, zsh or fish) to standard output.
    #[command(
        after_help = "Examples:\n  regtrack completions bash > regtrack.bash\n  regtrack completions zsh > _regtrack\n  regtrack completions fish > regtrack.fish"
    )]
    Completions(complete::Args),
    /// Write the manual page (roff) to standard output, or one page per command into a folder.
    #[command(after_help = "Examples:\n  regtrack man | man -l -\n  regtrack man --out-dir man/")]
    Man(man::Args),
}

/// The clap definition of the command line, for the generators of
/// completions and manual pages.
pub(crate) fn command() -> clap::Command {
    Cli::command()
}

/// Global settings resolved from the command line and the environment.
#[derive(Debug, Clone)]
pub struct Context {
    /// Database path.
    pub db: PathBuf,
    /// Quiet mode.
    pub quiet: bool,
    /// Whether human output may use colours.
    pub color: bool,
    /// Whether stderr is a terminal (progress bars).
    pub stderr_tty: bool,
    /// The binary's hooks.
    pub hooks: Hooks,
    /// The configuration file's settings.
    pub config: config::Config,
    /// The public-inbox server for links and fetching.
    pub lore_base: String,
    /// How messages and commits are linked (the lore base and the config's
    /// commit links).
    pub links: crate::export::links::Links,
}

/// What the binary lends the library, which has no unsafe code of its own.
#[derive(Debug, Clone, Copy)]
pub struct Hooks {
    /// Returns the process's freed memory to the system (the binary's
    /// allocators keep it otherwise). `ingest` calls it between storing and
    /// linking, so the two peaks do not add up.
    pub release_memory: fn(),
}

impl Default for Hooks {
    fn default() -> Self {
        Hooks {
            release_memory: || {},
        }
    }
}

/// An environment variable's value when it is set and not empty: an empty
/// one (`REGTRACK_DB= regtrack list`) is read as unset, as shells' users
/// mean it.
fn set_in_env(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

/// Runs the command line; returns the process exit code.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    run_with(args, Hooks::default())
}

/// [`run`] with the binary's [`Hooks`].
pub fn run_with<I, T>(args: I, hooks: Hooks) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    crate::store::body::read_epochs_with(&crate::pipeline::epoch_bodies::EPOCH_BODIES);
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // `--help` or `--version` that could not be written (a full
            // disk, /dev/full) did not succeed.
            let printed = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else if let Err(why) = printed.or_else(|e| match e.kind() {
                // A reader that stopped early (`| head`) is no failure.
                std::io::ErrorKind::BrokenPipe => Ok(()),
                _ => Err(e),
            }) {
                eprintln!("regtrack: error: writing to standard output: {why}");
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    // Neither reads the configuration nor the database.
    let cli = match cli.command {
        Command::Completions(a) => return finish(complete::run(a)),
        Command::Man(a) => return finish(man::run(cli.quiet, a)),
        _ => cli,
    };
    let color = match cli.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let config = match config::load(cli.config.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            say_error(&e);
            return ExitCode::from(2);
        }
    };
    let (lore_base, given_by) = match (cli.lore_base.clone(), set_in_env("REGTRACK_LORE_BASE")) {
        (Some(url), _) => (url, "--lore-base"),
        (None, Some(url)) => (url.to_string_lossy().into_owned(), "REGTRACK_LORE_BASE"),
        (None, None) => match config.lore_base.clone() {
            Some(url) => (url, "the config file's lore_base"),
            None => (crate::lore::DEFAULT_BASE.to_string(), "the default"),
        },
    };
    // An http(s) server or inbox: a link made of it is followed on a click.
    if let Err(e) = crate::lore::parse_base(&lore_base) {
        let e = anyhow::Error::new(e).context(given_by);
        say_error(&e);
        return ExitCode::from(2);
    }
    let links = crate::export::links::Links::new(&lore_base, config.commit_links.clone());
    let ctx = Context {
        links,
        db: cli
            .db
            .clone()
            .or_else(|| set_in_env("REGTRACK_DB").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("regtrack.db")),
        quiet: cli.quiet,
        color,
        stderr_tty: std::io::stderr().is_terminal(),
        hooks,
        config,
        lore_base,
    };
    let result = match cli.command {
        Command::Ingest(a) => ingest::run(&ctx, a),
        Command::Stats(a) => stats::run(&ctx, a),
        Command::Parse(a) => parse::run(&ctx, a),
        Command::Show(a) => show::run(&ctx, a),
        Command::List(a) => list::run(&ctx, a),
        Command::Export(a) => export::run(&ctx, a),
        Command::Mark(a) => mark::run(&ctx, a),
        Command::Unmark(a) => mark::unmark(&ctx, a),
        Command::Report(a) => report::run(&ctx, a),
        Command::Trends(a) => trends::run(&ctx, a),
        Command::Mail(a) => mail::run(&ctx, a),
        Command::Thread(a) => thread::run(&ctx, a),
        Command::Reindex(a) => reindex::run(&ctx, a),
        Command::Failures(a) => failures::run(&ctx, a),
        Command::Fetch(a) => fetch::run(&ctx, a),
        Command::Follow(a) => fetch::follow(&ctx, a),
        Command::Relink(a) => relink::run(&ctx, a),
        Command::Trees(a) => trees::run(&ctx, a),
        Command::Completions(a) => complete::run(a),
        Command::Man(a) => man::run(ctx.quiet, a),
    };
    finish(result)
}

/// The exit code of a command's result: its own, 0 on a broken pipe, 2 on
/// an error (said on stderr).
fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            say_error(&e);
            ExitCode::from(2)
        }
    }
}

/// Standard output, locked, whose write errors say where they struck
/// ("writing to standard output: No space left on device"), keeping their
/// kind (a reader gone, `| head`, is still no failure).
pub(crate) fn stdout() -> Stdout {
    Stdout(std::io::stdout().lock())
}

/// See [`stdout`].
pub(crate) struct Stdout(std::io::StdoutLock<'static>);

impl Stdout {
    fn said(e: std::io::Error) -> std::io::Error {
        std::io::Error::new(e.kind(), format!("writing to standard output: {e}"))
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map_err(Self::said)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.0.write_all(buf).map_err(Self::said)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(Self::said)
    }
}

/// Says an error on stderr, with its causes, escaped for the terminal (a
/// file name, a query or a path from the command line may hold escapes).
fn say_error(e: &anyhow::Error) {
    let _ = writeln!(
        std::io::stderr(),
        "regtrack: error: {}",
        crate::export::terminal::block(&format!("{e:#}"))
    );
}

/// True when `e` comes of writing to a pipe whose reader is gone, however
/// it was wrapped (an I/O error, a JSON or CSV writer's, an I/O error
/// carrying one).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    fn pipe(c: &(dyn std::error::Error + 'static)) -> bool {
        if let Some(io) = c.downcast_ref::<std::io::Error>() {
            return io.kind() == std::io::ErrorKind::BrokenPipe
                || io.get_ref().is_some_and(|inner| pipe(inner));
        }
        if let Some(c) = c.downcast_ref::<csv::Error>() {
            return matches!(c.kind(), csv::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::BrokenPipe);
        }
        c.downcast_ref::<serde_json::Error>()
            .is_some_and(|j| j.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe))
    }
    e.chain().any(pipe)
}

/// What a relink did, in one line: `relinked 1,204 messages in 37 threads
/// and 3 regressions (an update) in 0.041 s`.
fn relinked_line(r: &crate::pipeline::relink::Relinked) -> String {
    use crate::pipeline::relink::How;
    let how = match r.how {
        How::Nothing => return "nothing new to link".to_string(),
        How::Incremental => "an update".to_string(),
        How::Full => {
            let mut how = "everything".to_string();
            if let Some(s) = &r.steps {
                how.push_str(&format!(" in {} steps of {} messages", s.count, s.size));
            }
            if let Some(why) = &r.fell_back {
                how.push_str(&format!(", since {why}"));
            }
            for g in r.steps.iter().flat_map(|s| &s.gave_up) {
                how.push_str(&format!("; {g}"));
            }
            how
        }
    };
    format!(
        "relinked {} messages in {} threads and {} regressions ({how}) in {:.3} s",
        r.messages, r.threads, r.regressions, r.seconds
    )
}

/// Opens (creating if needed) the database of `ctx` for a command that
/// writes.
fn open_store(ctx: &Context) -> anyhow::Result<crate::store::Store> {
    crate::store::Store::open(&ctx.db).map_err(|e| opening(ctx, e))
}

/// Opens the database of `ctx` for a command that writes and takes the
/// writer lock ([`crate::store::lock`]): a second writer waits for the
/// first, and says so on stderr when that takes more than a second. The
/// lock is held until the returned guard is dropped.
fn open_writer(
    ctx: &Context,
) -> anyhow::Result<(crate::store::Store, Option<crate::store::lock::WriterLock>)> {
    // The lock first: two writers creating one database would otherwise
    // race in its setup (the switch to WAL, the first migration).
    crate::store::Store::check_path(&ctx.db).map_err(|e| opening(ctx, e))?;
    let lock = crate::store::lock::lock_writer(&ctx.db, || {
        if !ctx.quiet {
            eprintln!(
                "regtrack: waiting for another regtrack writing {}...",
                terminal_safe(&ctx.db.display().to_string())
            );
        }
    })?;
    let store = open_store(ctx)?;
    Ok((store, lock))
}

/// Opens the database of `ctx` for a command that only reads: read-only,
/// nothing created (see [`crate::store::Store::open_read_only`]).
fn open_reader(ctx: &Context) -> anyhow::Result<crate::store::Store> {
    crate::store::Store::open_read_only(&ctx.db).map_err(|e| opening(ctx, e))
}

/// An error of opening the database, naming its path once: the store's own
/// errors about the file name it already.
fn opening(ctx: &Context, e: crate::error::Error) -> anyhow::Error {
    use crate::error::Error;
    match e {
        e @ (Error::Database { .. } | Error::SchemaTooNew { .. }) => e.into(),
        e => anyhow::Error::from(e).context(format!("opening database '{}'", ctx.db.display())),
    }
}

/// Text from mail, safe to print on a terminal.
fn terminal_safe(s: &str) -> std::borrow::Cow<'_, str> {
    crate::export::terminal::line(s)
}

/// Says on stderr when messages were read by an older regtrack: the
/// histories answered are those it linked, until `reindex` (or the next
/// `ingest`) reads them again with this one's rules.
fn note_stale(ctx: &Context, store: &crate::store::Store) {
    use crate::extract::EXTRACTION_VERSION;
    use crate::store::reextract;
    if ctx.quiet {
        return;
    }
    if let Ok(Some((messages, marks))) = crate::pipeline::relink::unlinked(store) {
        let mut what = Vec::new();
        if messages > 0 {
            what.push(format!(
                "{messages} message{}",
                if messages == 1 { "" } else { "s" }
            ));
        }
        if marks > 0 {
            what.push(format!("{marks} mark{}", if marks == 1 { "" } else { "s" }));
        }
        eprintln!(
            "regtrack: note: {} stored since the histories were last linked (an ingest is running, or one stopped before linking): the histories shown leave {} out until `regtrack relink` (or the next `regtrack ingest`)",
            what.join(" and "),
            if messages + marks == 1 { "it" } else { "them" },
        );
    }
    let n = reextract::stale_count(store, EXTRACTION_VERSION).unwrap_or(0);
    if n == 0 {
        return;
    }
    eprintln!(
        "regtrack: note: {n} stored message{} {} read by an older regtrack; the histories shown are what it made of them until `regtrack reindex` (or the next `regtrack ingest`) reads them again",
        if n == 1 { "" } else { "s" },
        if n == 1 { "was" } else { "were" },
    );
}

/// Says on stderr what a relink could not read (counted and named, never
/// dropped silently).
/// Says on stderr (even with `--quiet`: the answer is missing them) which
/// regressions were left out because their stored summary does not decode.
fn warn_undecodable(store: &crate::store::Store) {
    let bad = crate::store::history::take_undecodable(store);
    if bad.is_empty() {
        return;
    }
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "regtrack: warning: {} stored regression{} left out: {} summary does not decode (`regtrack relink` rebuilds {}):",
        bad.len(),
        if bad.len() == 1 { "" } else { "s" },
        if bad.len() == 1 { "its" } else { "their" },
        if bad.len() == 1 { "it" } else { "them" },
    );
    for b in bad.iter().take(20) {
        let _ = writeln!(err, "  regression {}: {}", b.id, terminal_safe(&b.reason));
    }
    if bad.len() > 20 {
        let _ = writeln!(err, "  and {} more", bad.len() - 20);
    }
}

fn warn_unreadable(ctx: &Context, u: &crate::pipeline::relink::Unreadable) {
    if u.is_empty() || ctx.quiet {
        return;
    }
    let mut err = std::io::stderr().lock();
    // A warning naming what failed, then the first ten of them.
    let mut listed = |items: &[String], what: String| {
        if items.is_empty() {
            return;
        }
        let _ = writeln!(err, "regtrack: warning: {what}:");
        for e in items.iter().take(10) {
            let _ = writeln!(err, "  {}", terminal_safe(e));
        }
    };
    listed(
        &u.extractions,
        format!(
            "{} stored extractions could not be read (`regtrack reindex --all` extracts them again)",
            u.extractions.len()
        ),
    );
    listed(
        &u.bodies,
        format!(
            "the stored bodies of {} messages could not be read: their sentences count as saying nothing, and the next link reads them again",
            u.bodies.len()
        ),
    );
    if !u.marks.is_empty() {
        let _ = writeln!(
            err,
            "regtrack: warning: {} marks have a status this regtrack does not know: {}",
            u.marks.len(),
            terminal_safe(&u.marks.join(", "))
        );
    }
}
