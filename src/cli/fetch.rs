//! `regtrack fetch` and `regtrack follow`: mail straight from a public-inbox
//! server (lore.kernel.org by default) into the database, through
//! [`crate::lore`]. What was fetched whole is written to a temporary mbox
//! and ingested like any other input; an answer that failed or came back
//! cut is said as such and none of it is stored.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use anyhow::Context as _;

use super::Context;
use crate::lore::{self, CacheMode, Client, Mbox, Progress, Search, Target};

/// How to reach the server (shared by `fetch` and `follow`).
#[derive(Debug, Clone, clap::Args)]
pub struct Http {
    /// The public-inbox server (`https://lore.kernel.org`) or an inbox on
    /// it (`https://lore.kernel.org/all`, as b4 and lei configurations name
    /// it) (default: `--lore-base`, else the config file's `lore_base`, else
    /// https://lore.kernel.org).
    #[arg(long, value_name = "URL")]
    pub base: Option<String>,
    /// The inbox asked (default: the inbox the base ends in, else the config
    /// file's `lore_list`, else `all`, lore's index of every list).
    #[arg(long, value_name = "INBOX")]
    pub list: Option<String>,
    /// Answer from the cache only; make no request.
    #[arg(long, conflicts_with = "refresh")]
    pub offline: bool,
    /// Ask the server again even for answers the cache still holds.
    #[arg(long)]
    pub refresh: bool,
    /// Longest time for one answer, its retries included (default: the
    /// config file's `answer_timeout_seconds`, else 600).
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=super::config::MAX_ANSWER_SECONDS))]
    pub timeout: Option<u64>,
}

/// Arguments of `regtrack fetch`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Message-IDs or message URLs (`https://lore.kernel.org/r/<id>`,
    /// `/all/<id>/`, `/<list>/<id>/T/#u`, percent-encoded ids): each whole
    /// thread is fetched.
    #[arg(value_name = "MSGID|URL")]
    pub targets: Vec<String>,
    /// A public-inbox search (`f:lkp@intel.com AND s:regression AND dfn:fs/xfs/`):
    /// every message it matches is fetched.
    #[arg(long, value_name = "QUERY")]
    pub query: Option<String>,
    /// With `--query`: the whole thread of every match.
    #[arg(long, requires = "query")]
    pub threads: bool,
    /// With `--query`: only messages received since this date (`2024-01-31`,
    /// an RFC 3339 time, or `30d` for thirty days ago).
    #[arg(long, value_name = "DATE", requires = "query")]
    pub since: Option<String>,
    /// How to reach the server.
    #[command(flatten)]
    pub http: Http,
}

/// Arguments of `regtrack follow`.
#[derive(Debug, clap::Args)]
pub struct FollowArgs {
    /// Which regressions (statuses or the groups `open`, `landed`, `closed`;
    /// repeated or comma-separated; default `open`).
    #[arg(long, value_delimiter = ',', value_name = "STATUS", value_parser = super::list::status_names(), hide_possible_values = true,
        help = format!("Which regressions: statuses or the groups {}; repeated or comma-separated; default `open`", super::list::GROUPS_HELP))]
    pub status: Vec<String>,
    /// Only regressions of this subsystem.
    #[arg(long)]
    pub subsystem: Option<String>,
    /// How to reach the server.
    #[command(flatten)]
    pub http: Http,
}

/// What is asked again on every `follow` although seen before: a message can
/// reach an archive late (`lei up` takes the same margin).
const FOLLOW_MARGIN: i64 = 2 * 86_400;

/// A client for the server `ctx` and `http` name, reporting to a progress
/// line on a terminal. The inbox is `--list`, else the one the base ends
/// in, else the config file's `lore_list`, else `all`.
fn client(
    ctx: &Context,
    http: &Http,
) -> anyhow::Result<(Client, Option<Arc<indicatif::ProgressBar>>)> {
    let base = match &http.base {
        Some(b) => lore::parse_base(b).context("--base")?,
        None => lore::parse_base(&ctx.lore_base).context("--lore-base")?,
    };
    let mut cfg = lore::Config {
        base: base.server,
        ..lore::Config::default()
    };
    if let Some(l) = http
        .list
        .clone()
        .or(base.inbox)
        .or_else(|| ctx.config.lore_list.clone())
    {
        cfg.list = l;
    }
    if let Some(d) = &ctx.config.cache_dir {
        cfg.cache_dir = Some(d.clone());
    }
    if let Some(m) = ctx.config.cache_ttl_minutes {
        cfg.cache_ttl = std::time::Duration::from_secs(m * 60);
    }
    if let Some(r) = ctx.config.requests_per_second {
        cfg.requests_per_second = r;
    }
    if let Some(t) = http.timeout.or(ctx.config.answer_timeout_seconds) {
        cfg.answer_timeout = std::time::Duration::from_secs(t);
    }
    cfg.cache_mode = if http.offline {
        CacheMode::Offline
    } else if http.refresh {
        CacheMode::Refresh
    } else {
        CacheMode::Normal
    };
    let bar = (ctx.stderr_tty && !ctx.quiet).then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
            bar.set_style(style);
        }
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        Arc::new(bar)
    });
    let mut client = Client::new(cfg);
    if let Some(bar) = bar.clone() {
        let seen = Mutex::new((0usize, 0u64));
        client = client.with_progress(move |p| {
            let Ok(mut s) = seen.lock() else { return };
            match p {
                Progress::Answer {
                    messages, bytes, ..
                } => {
                    s.0 += messages;
                    s.1 += bytes;
                }
                Progress::Retry { delay, reason, .. } => {
                    bar.println(format!(
                        "regtrack: retrying in {} s: {}",
                        delay.as_secs(),
                        crate::export::terminal::line(reason)
                    ));
                }
                _ => {}
            }
            let what = match p {
                Progress::Thread { done, total, .. } => format!("thread {done}/{total}, "),
                Progress::Page { page, pages, .. } => format!("page {page}/{pages}, "),
                _ => String::new(),
            };
            bar.set_message(format!(
                "{what}{} messages, {:.1} MB",
                s.0,
                s.1 as f64 / 1e6
            ));
        });
    }
    Ok((client, bar))
}

/// Most days a `30d` form may say: the archives start in the 1990s, so a
/// hundred years back is already before any mail.
const MAX_DAYS_AGO: i64 = 36_525;

/// `N` of a `Nd` form (days ago), when `s` is one: 0 up to
/// [`MAX_DAYS_AGO`], or an error saying the bound.
pub fn days_ago(s: &str) -> anyhow::Result<Option<i64>> {
    let Some(n) = s.strip_suffix('d') else {
        return Ok(None);
    };
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(None);
    }
    match n.parse::<i64>() {
        Ok(d) if d <= MAX_DAYS_AGO => Ok(Some(d)),
        _ => anyhow::bail!("'{s}' is too far back: at most {MAX_DAYS_AGO}d (a hundred years)"),
    }
}

/// `2024-01-31`, an RFC 3339 time, or `30d` (days ago, at most a hundred
/// years).
pub fn parse_since(s: &str) -> anyhow::Result<chrono::DateTime<chrono::Utc>> {
    let s = s.trim();
    if let Some(days) = days_ago(s)? {
        return Ok(chrono::Utc::now() - chrono::Duration::days(days));
    }
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
        return Ok(t.with_timezone(&chrono::Utc));
    }
    let day = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .with_context(|| format!("'{s}' is no date (use 2024-01-31, an RFC 3339 time or 30d)"))?;
    Ok(day
        .and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc())
        .unwrap_or_default())
}

/// A search for `text` as one phrase in `prefix` (`b:"..."`). A `"` in
/// the text would end the phrase and make the rest query syntax; the
/// search engine splits words at it anyway, so it is searched as a space.
fn phrase_search(prefix: &str, text: &str) -> String {
    let words: String = text
        .chars()
        .map(|c| if c == '"' || c.is_control() { ' ' } else { c })
        .collect();
    format!("{prefix}:\"{}\"", words.trim())
}

/// Fetched mboxes in files without a name (`O_TMPFILE`, read back through
/// `/proc/self/fd`), ingested together: a fetch ended by any signal leaves
/// nothing behind in the temporary folder. Where there is no `/proc`, named
/// temporary files, removed when the batch is dropped.
struct Batch {
    /// The open files; the paths name them while they are open.
    files: Vec<Kept>,
    paths: Vec<PathBuf>,
    messages: usize,
}

/// A file of a [`Batch`], kept open as long as its path is read.
enum Kept {
    Unnamed(#[allow(dead_code)] std::fs::File),
    Named(#[allow(dead_code)] tempfile::NamedTempFile),
}

impl Batch {
    fn new() -> anyhow::Result<Batch> {
        Ok(Batch {
            files: Vec::new(),
            paths: Vec::new(),
            messages: 0,
        })
    }

    /// Keeps a whole answer; a cut one is refused (nothing of it is stored).
    fn add(&mut self, what: &str, m: Mbox) -> anyhow::Result<()> {
        use std::os::fd::AsRawFd;
        if let Some(p) = m.partial {
            anyhow::bail!("{what}: the answer was cut ({p:?}); nothing of it stored");
        }
        if m.messages == 0 {
            return Ok(());
        }
        let proc_fd = Path::new("/proc/self/fd");
        let (kept, path) = if proc_fd.is_dir() {
            let mut f = tempfile::tempfile().context("creating a temporary file")?;
            f.write_all(&m.bytes).context("writing a temporary file")?;
            let path = proc_fd.join(f.as_raw_fd().to_string());
            (Kept::Unnamed(f), path)
        } else {
            let mut f = tempfile::Builder::new()
                .prefix("regtrack-fetch-")
                .suffix(".mbox")
                .tempfile()
                .context("creating a temporary file")?;
            f.write_all(&m.bytes).context("writing a temporary file")?;
            let path = f.path().to_path_buf();
            (Kept::Named(f), path)
        };
        self.messages += m.messages;
        self.files.push(kept);
        self.paths.push(path);
        Ok(())
    }
}

/// Ingests a batch and prints the summary; the exit status: 0 when
/// something was read, 1 when nothing could be.
fn ingest(ctx: &Context, batch: &Batch, errors: &[String]) -> anyhow::Result<ExitCode> {
    let mut err = std::io::stderr().lock();
    for e in errors {
        writeln!(err, "regtrack: error: {}", crate::export::terminal::line(e))?;
    }
    if batch.paths.is_empty() {
        if errors.is_empty() {
            writeln!(err, "regtrack: nothing to fetch: no message matched")?;
        }
        return Ok(ExitCode::from(1));
    }
    let (mut store, _writing) = super::open_writer(ctx)?;
    let summary = super::update::ingest_paths(ctx, &mut store, &batch.paths, false, false)?;
    super::update::print_summary(ctx, &store, &summary)?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `regtrack fetch`.
pub fn run(ctx: &Context, args: Args) -> anyhow::Result<ExitCode> {
    if args.targets.is_empty() && args.query.is_none() {
        anyhow::bail!("name a Message-ID or URL to fetch, or a --query");
    }
    let mut targets: Vec<Target> = Vec::new();
    for t in &args.targets {
        let mut t = lore::parse_target(t)?;
        // A server named on the command line (or configured) serves every
        // URL, a lore.kernel.org URL included (a mirror of it).
        if args.http.base.is_some() || ctx.lore_base != lore::DEFAULT_BASE {
            t.base = None;
        }
        targets.push(t);
    }
    let since = args.since.as_deref().map(parse_since).transpose()?;
    // A database path that cannot be one fails before any download; the
    // writer lock is taken only to store what was fetched.
    crate::store::Store::check_path(&ctx.db).map_err(|e| super::opening(ctx, e))?;
    let (client, bar) = client(ctx, &args.http)?;
    let mut batch = Batch::new()?;
    let mut errors = Vec::new();
    for (t, got) in targets.iter().zip(client.threads(&targets)) {
        match got
            .map_err(anyhow::Error::from)
            .and_then(|m| batch.add(&t.msgid, m))
        {
            Ok(()) => {}
            Err(e) => errors.push(format!("<{}>: {e:#}", t.msgid)),
        }
    }
    if let Some(q) = &args.query {
        let mut search = Search::new(q.clone());
        search.threads = args.threads;
        search.since = since;
        // A long span is asked in monthly windows.
        search.window = since.map(|_| std::time::Duration::from_secs(30 * 86_400));
        match client
            .search(&search)
            .map_err(anyhow::Error::from)
            .and_then(|r| batch.add(q, r.mbox))
        {
            Ok(()) => {}
            Err(e) => errors.push(format!("search '{q}': {e:#}")),
        }
    }
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    ingest(ctx, &batch, &errors)
}

/// Runs `regtrack follow`: for every matching regression, its threads again
/// (what came since the last follow), and the searches for mail that names
/// its reports (`Closes:`/`Link:` trailers) or its culprit (`Fixes:`).
pub fn follow(ctx: &Context, args: FollowArgs) -> anyhow::Result<ExitCode> {
    // What to follow is read under the writer lock (the database may need
    // creating or migrating); the lock is let go while downloading and taken
    // again to store.
    let (store, writing) = super::open_writer(ctx)?;
    let open = ["open".to_string()];
    let filter = crate::query::Filter {
        statuses: super::list::parse_statuses(if args.status.is_empty() {
            &open[..]
        } else {
            &args.status
        })?,
        subsystem: args.subsystem.clone(),
        now: chrono::Utc::now().timestamp(),
        ..crate::query::Filter::default()
    };
    let regs: Vec<_> = crate::query::list(&store, &filter, filter.now, 14)?;
    if regs.is_empty() {
        eprintln!("regtrack: no regression to follow");
        return Ok(ExitCode::from(1));
    }
    let mut followed_at = Vec::with_capacity(regs.len());
    for r in &regs {
        followed_at.push(crate::store::links::followed_at(&store, &r.culprit.commit)?);
    }
    drop(store);
    drop(writing);
    let (client, bar) = client(ctx, &args.http)?;
    let mut batch = Batch::new()?;
    let mut errors = Vec::new();
    let now = chrono::Utc::now();
    for (r, at) in regs.iter().zip(followed_at) {
        let since = at.and_then(|t| chrono::DateTime::from_timestamp(t - FOLLOW_MARGIN, 0));
        let mut ids: Vec<&str> = r.reports.iter().map(|x| x.message_id.as_str()).collect();
        for p in &r.patches {
            ids.extend(p.versions.iter().map(String::as_str));
        }
        ids.sort_unstable();
        ids.dedup();
        for id in &ids {
            let t = Target {
                msgid: id.to_string(),
                base: None,
                list: None,
            };
            let got = match since {
                Some(s) => client.thread_updates(&t, s),
                None => client.thread(&t),
            };
            if let Err(e) = got
                .map_err(anyhow::Error::from)
                .and_then(|m| batch.add(id, m))
            {
                errors.push(format!("<{id}>: {e:#}"));
            }
        }
        // Mail elsewhere naming a report (Closes:, Link:) or the culprit (Fixes:).
        let mut queries: Vec<String> = r
            .reports
            .iter()
            .map(|x| phrase_search("b", &x.message_id))
            .collect();
        queries.push(format!("b:{}", crate::query::short(&r.culprit.commit)));
        for q in queries {
            let mut search = Search::new(q.clone());
            search.threads = true;
            search.since = since;
            if let Err(e) = client
                .search(&search)
                .map_err(anyhow::Error::from)
                .and_then(|res| batch.add(&q, res.mbox))
            {
                errors.push(format!("search '{q}': {e:#}"));
            }
        }
    }
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let code = ingest(ctx, &batch, &errors)?;
    if errors.is_empty() {
        let (store, _writing) = super::open_writer(ctx)?;
        for r in &regs {
            crate::store::links::set_followed(&store, &r.culprit.commit, now.timestamp())?;
        }
    }
    Ok(if batch.paths.is_empty() && errors.is_empty() {
        // Nothing new anywhere is an answer.
        ExitCode::SUCCESS
    } else {
        code
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_in_a_message_id_stays_inside_its_phrase() {
        assert_eq!(phrase_search("b", "a\"b@c"), "b:\"a b@c\"");
        assert_eq!(phrase_search("b", "x\" OR s:\"y@z"), "b:\"x  OR s: y@z\"");
    }
}
