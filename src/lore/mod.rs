//! A client for public-inbox servers (lore.kernel.org and any other): fetch a thread by
//! Message-ID, or the messages a search matches, as mbox bytes for the ingest pipeline.
//! It is what `regtrack fetch MSGID|URL...`, `regtrack fetch --query` and
//! `regtrack follow` call; it prints nothing, and reports progress to a callback.
//!
//! ```no_run
//! use regtrack::lore::{Client, Config, Progress, Search, parse_target};
//!
//! let client = Client::new(Config::default()).with_progress(|p| {
//!     if let Progress::Thread { done, total, .. } = p {
//!         eprintln!("{done}/{total} threads");
//!     }
//! });
//! let thread = client.thread(&parse_target("https://lore.kernel.org/r/20200925071217.GO28663@shao2-debian")?)?;
//! println!("{} messages, {} bytes", thread.messages, thread.bytes.len());
//!
//! let mut search = Search::new("f:lkp@intel.com s:regression");
//! search.threads = true;
//! search.since = Some("2024-01-01T00:00:00Z".parse()?);
//! search.window = Some(std::time::Duration::from_secs(30 * 86400));
//! let found = client.search(&search)?;
//! println!("{} messages in {} pages", found.mbox.messages, found.pages.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What it asks the server
//!
//! * A thread: `GET <base>/<list>/<msgid>/t.mbox.gz` (`<list>` is `all` by default, the
//!   lore.kernel.org index of every list), the Message-ID percent-encoded as
//!   public-inbox encodes it (`/`, `%`, `?`, `#`, space and non-ASCII bytes; see
//!   [`encode_msgid`]). [`parse_target`] takes a bare Message-ID (with or without `<>`,
//!   `id:`) or a URL in any form people paste.
//! * A search: `POST <base>/<list>/?x=m[&t=1]&q=<query>` with an empty body, as b4
//!   (`get_pi_search_results`) and lei (`lei q` on a remote external: `curl -d ''`) send
//!   it; a GET is answered with the HTML page. public-inbox answers every match in one
//!   gzipped mbox, newest first: it pages through its Xapian results itself (50 at a
//!   time, `offset` moving on until a batch is empty) and streams them, while `o=` and
//!   `l=` (at most 200) page only the HTML view. An empty search is a 404 with the text
//!   "No results found", taken here as an empty answer. A client pages by date instead:
//!   with [`Search::since`] the query gets `AND rt:<epoch>..` (received time, which the
//!   server sets; [`DateField::Sent`] uses `dt:YYYYmmddHHMMSS..`, the `Date:` header, as
//!   lei does), and with [`Search::window`] the span from `since` to now is asked in
//!   consecutive windows (`rt:a..b`), oldest first, the last one open-ended, until
//!   there are no more; messages are kept once by Message-ID across pages.
//! * Whole threads of a search ([`Search::threads`]): `t=1` on the search, not one
//!   thread fetch per match. The server then collapses matches by thread and sends each
//!   thread once, in the same answer: one request where a per-match fetch would make
//!   one per thread (hundreds for a year of robot reports, against a server that asks
//!   for few requests). The empty POST body matters: public-inbox reads `x=...` in the
//!   body as "full threads", so a body of `x=m` would turn threads on every time.
//! * Updates of one thread ([`Client::thread_updates`], for `follow`):
//!   `POST <base>/<list>/<msgid>/?x=m&q=rt:<epoch>..`, the search scoped to that thread.
//! * For `follow`: ask each saved query again with `since` set to the last run less a
//!   margin, as `lei up` does (it takes the time of its last results less 48 hours,
//!   `--remote-fudge-time`, since a message can reach the archive late); what was seen
//!   already comes again and is dropped by Message-ID downstream.
//!
//! # HTTP
//!
//! Through `ureq` 3 (rustls with ring, gzip content-encoding), blocking. Measured on this
//! 2-core machine, which other builds share (so wall times swing with the load): clean
//! debug builds, dependencies at opt-level 1 as regtrack builds them, of a scratch
//! crate holding the client against one holding only flate2 (which regtrack has).
//! ureq 3.5 added 24 crates and 56 s of CPU time (65 to 99 s of wall time at load 4
//! to 8); reqwest 0.13's blocking client with rustls and gzip added 95 crates and
//! 170 s of CPU (112 to 269 s of wall time): hyper, tokio, aws-lc-rs, none of which
//! a blocking CLI needs. In regtrack's own lock file ureq brings 15 crates that build
//! on Linux (and 11 for Windows or WASI only).
//!
//! Connect timeout, an idle-read timeout (no byte for `read_timeout`: a stalled server
//! fails instead of hanging), a bound on each whole answer (`answer_timeout`, every
//! attempt and retry of it: a server dribbling a byte at a time fails with
//! [`LoreError::TooSlow`]), an optional whole-body timeout; 429 and 5xx are retried
//! with exponential backoff (`backoff_base` doubling up to `backoff_cap`), waiting what
//! `Retry-After` says (seconds or an HTTP date) and giving up with
//! [`LoreError::RetryAfterTooLong`] when it says more than the cap; connection failures
//! and timeouts are retried the same way, and so is a body that breaks off (cut
//! connection, stall) up to `retries` times. Request starts are spaced by a rate limiter
//! (`requests_per_second`, 2 by default). Redirects are followed only on the same server
//! (scheme, host and port), so a client pointed at one server talks to no other.
//! User-Agent `regtrack/<version>`.
//!
//! # Cache
//!
//! Answers are kept in `$XDG_CACHE_HOME/regtrack` (else `~/.cache/regtrack`, or
//! [`Config::cache_dir`]), one file per request at `lore/<2 hex>/<64 hex>`, named by the
//! BLAKE3 hash of `"<METHOD> <URL>"`; the file holds a header line, the kind (`body`, or
//! `empty` for a search with no results), the method and URL, then the body as received
//! (the gzip). Entries are fresh for 10 minutes by default, b4's default `cache-expire`
//! ("B4 caches retrieved threads for 10 minutes"), judged by the file's mtime. Each
//! write goes to a temporary file in the same directory, synced, then renamed over the
//! entry, so a killed run leaves a whole entry or none ([`Cache::prune`] removes stale
//! temporary files). [`CacheMode::Offline`] answers from the cache whatever an entry's
//! age and fails with [`LoreError::NotCached`] without a request; answers cut by a
//! limit are not cached.
//!
//! # Bad answers
//!
//! Each is a [`LoreError`] naming the URL, or a result that says it is partial: 404 on
//! a thread is [`LoreError::NotFound`]; a thread answer without the message asked for
//! [`LoreError::NotAsked`] (nothing of it is returned); a refused connection [`LoreError::Unreachable`];
//! an HTML page where an mbox belongs [`LoreError::Html`] (with its title); a cut gzip
//! or a body cut short [`LoreError::Truncated`] (nothing of it is returned); a stall
//! [`LoreError::Timeout`]; an answer over [`Limits`] (20,000 messages or 512 MiB by
//! default) [`LoreError::TooLarge`], or with [`Limits::partial_ok`] the messages before
//! the limit and [`Mbox::partial`] saying which limit cut it (the download stops there).

mod cache;
mod error;
mod http;
mod mbox;
mod target;

use std::collections::HashSet;
use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};

pub use cache::{Cache, CacheMode, default_cache_dir};
pub use error::{LoreError, Result};
pub use mbox::{Limits, Mbox, Partial, message_id, split_messages};
pub use target::{
    Base, Target, encode_msgid, encode_query, parse_base, parse_target, search_url,
    thread_search_url, thread_url,
};

use cache::Kind;
use http::{Http, Method};

/// The server regtrack asks when none is named.
pub const DEFAULT_BASE: &str = "https://lore.kernel.org";

/// How a [`Client`] talks to its server and uses its cache.
#[derive(Debug, Clone)]
pub struct Config {
    /// The server, `scheme://host[:port]` (default [`DEFAULT_BASE`]); a
    /// URL that ends in an inbox is split into this and [`Config::list`]
    /// by [`parse_base`].
    pub base: String,
    /// The inbox asked on it (default `all`, lore.kernel.org's index of every list).
    pub list: String,
    /// The cache directory; `None` for [`default_cache_dir`].
    pub cache_dir: Option<PathBuf>,
    /// How the cache is used.
    pub cache_mode: CacheMode,
    /// How long an entry answers without a request (default 10 minutes, as b4).
    pub cache_ttl: Duration,
    /// Longest wait for a connection (default 15 s).
    pub connect_timeout: Duration,
    /// Longest wait for any byte, of the headers or the body (default 60 s).
    pub read_timeout: Duration,
    /// Longest time for a whole body of one attempt, if any (default none).
    pub body_timeout: Option<Duration>,
    /// Longest time for one whole answer, every attempt and wait between
    /// them included (default 10 minutes): a server sending a byte now and
    /// then, which never trips `read_timeout`, still ends.
    pub answer_timeout: Duration,
    /// Retries after the first attempt, on 429, 5xx and transport failures (default 4).
    pub retries: u32,
    /// First backoff wait, doubled at each retry (default 1 s).
    pub backoff_base: Duration,
    /// Longest wait between attempts, and the longest `Retry-After` honoured (default 120 s).
    pub backoff_cap: Duration,
    /// Most request starts per second; 0 for no limit (default 2).
    pub requests_per_second: f64,
    /// Size limits of an answer.
    pub limits: Limits,
    /// Whether to use `HTTPS_PROXY`/`HTTP_PROXY`/`ALL_PROXY` (and `NO_PROXY`) (default true).
    pub env_proxy: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            base: DEFAULT_BASE.to_string(),
            list: "all".to_string(),
            cache_dir: None,
            cache_mode: CacheMode::Normal,
            cache_ttl: Duration::from_secs(600),
            connect_timeout: Duration::from_secs(15),
            read_timeout: Duration::from_secs(60),
            body_timeout: None,
            answer_timeout: Duration::from_secs(600),
            retries: 4,
            backoff_base: Duration::from_secs(1),
            backoff_cap: Duration::from_secs(120),
            requests_per_second: 2.0,
            limits: Limits::default(),
            env_proxy: true,
        }
    }
}

/// What a [`Client`] tells its progress callback.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Progress {
    /// A request is sent (attempt 1, 2, ... of it).
    Request {
        /// The URL.
        url: String,
        /// Which attempt.
        attempt: u32,
    },
    /// An attempt failed and another follows after `delay`.
    Retry {
        /// The URL.
        url: String,
        /// The attempt that failed.
        attempt: u32,
        /// The wait before the next one.
        delay: Duration,
        /// Why it failed.
        reason: String,
    },
    /// Body bytes received so far (as sent, compressed) for `url`.
    Bytes {
        /// The URL.
        url: String,
        /// Bytes so far.
        bytes: u64,
    },
    /// An answer came from the cache, no request made.
    CacheHit {
        /// The URL.
        url: String,
        /// The entry's age.
        age: Duration,
    },
    /// A whole answer is in: `messages` messages, `bytes` mbox bytes.
    Answer {
        /// The URL.
        url: String,
        /// Messages in it.
        messages: usize,
        /// Its mbox bytes.
        bytes: u64,
        /// From the cache?
        from_cache: bool,
    },
    /// [`Client::threads`]: `done` of `total` threads fetched (or failed).
    Thread {
        /// Threads done.
        done: usize,
        /// Threads asked.
        total: usize,
        /// The Message-ID just done.
        msgid: String,
    },
    /// [`Client::search`]: page `page` (1-based) of `pages` answered.
    Page {
        /// The page.
        page: usize,
        /// Pages in all.
        pages: usize,
        /// New messages it brought.
        messages: usize,
    },
    /// Something went wrong that does not stop the work (a cache write failed).
    Warning {
        /// What.
        message: String,
    },
}

/// Which date a search's `since` is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DateField {
    /// `rt:` epoch seconds: when the archive received the message (set by the server).
    #[default]
    Received,
    /// `dt:` `YYYYmmddHHMMSS` (UTC): the message's `Date:` header (set by the sender).
    Sent,
}

/// A search ([`Client::search`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    /// The public-inbox query (Xapian syntax: `f:lkp@intel.com s:regression`, ...).
    pub query: String,
    /// The inbox searched; `None` for [`Config::list`].
    pub list: Option<String>,
    /// Whole threads of the matches (`t=1`), not only the matches.
    pub threads: bool,
    /// Only messages since this time.
    pub since: Option<DateTime<Utc>>,
    /// Which date `since` is about.
    pub date_field: DateField,
    /// With `since`: ask the span from `since` to now in windows this long, one
    /// request (page) each; `None` for one request.
    pub window: Option<Duration>,
}

impl Search {
    /// A search for `query`, matches only, all dates, one request.
    pub fn new(query: impl Into<String>) -> Search {
        Search {
            query: query.into(),
            list: None,
            threads: false,
            since: None,
            date_field: DateField::Received,
            window: None,
        }
    }

    /// The query of each page at time `now`, oldest window first.
    pub fn page_queries(&self, now: DateTime<Utc>) -> Result<Vec<String>> {
        let Some(since) = self.since else {
            return Ok(vec![self.query.clone()]);
        };
        let term = |from: DateTime<Utc>, to: Option<DateTime<Utc>>| -> String {
            let to = to.map(|t| t - chrono::TimeDelta::seconds(1));
            match self.date_field {
                DateField::Received => format!(
                    "rt:{}..{}",
                    from.timestamp(),
                    to.map(|t| t.timestamp().to_string()).unwrap_or_default()
                ),
                DateField::Sent => format!(
                    "dt:{}..{}",
                    from.format("%Y%m%d%H%M%S"),
                    to.map(|t| t.format("%Y%m%d%H%M%S").to_string())
                        .unwrap_or_default()
                ),
            }
        };
        let with = |t: String| {
            if self.query.trim().is_empty() {
                t
            } else {
                format!("({}) AND {}", self.query.trim(), t)
            }
        };
        let Some(window) = self.window.filter(|w| w.as_secs() >= 1) else {
            return Ok(vec![with(term(since, None))]);
        };
        let step = chrono::TimeDelta::seconds(window.as_secs() as i64);
        let span = (now - since).num_seconds().max(0) as u64;
        let pages = span / window.as_secs() + 1;
        if pages > 10_000 {
            return Err(LoreError::BadSearch {
                query: self.query.clone(),
                reason: format!(
                    "a window of {window:?} since {since} makes {pages} pages (10,000 at most)"
                ),
            });
        }
        let mut out = Vec::new();
        let mut from = since;
        while from + step < now {
            out.push(with(term(from, Some(from + step))));
            from += step;
        }
        out.push(with(term(from, None)));
        Ok(out)
    }
}

/// One request of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The URL POSTed.
    pub url: String,
    /// Its query.
    pub query: String,
    /// Messages it brought that no earlier page had.
    pub messages: usize,
    /// Answered from the cache?
    pub from_cache: bool,
}

/// What a search found: every page's messages in one mbox, each Message-ID once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The messages (`url` is the first page's).
    pub mbox: Mbox,
    /// The requests made, in order.
    pub pages: Vec<Page>,
}

type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// A public-inbox client: one server, one cache, one rate limiter. Cheap to share
/// between threads (`&Client` is `Send + Sync`).
pub struct Client {
    config: Config,
    http: Http,
    cache: Option<Cache>,
    progress: Option<ProgressFn>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("config", &self.config)
            .field("cache", &self.cache)
            .finish_non_exhaustive()
    }
}

/// A reader that keeps a copy of what it reads (the raw body, for the cache).
struct Tee<R> {
    inner: R,
    /// The answer's bytes as received, while they are gzip (what the cache
    /// keeps); `None` once they are not: a plain mbox is kept by the
    /// decoder already, and a second copy of it would double the memory
    /// an answer takes.
    copy: Option<Vec<u8>>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf).map_err(|e| {
            // ureq says a read timeout as an io::Error of kind Other holding its own
            // error: give it the kind the decoder reports as a timeout.
            let timeout = e
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<ureq::Error>())
                .is_some_and(|u| matches!(u, ureq::Error::Timeout(_)));
            if timeout {
                std::io::Error::new(std::io::ErrorKind::TimedOut, e.to_string())
            } else {
                e
            }
        })?;
        if let Some(copy) = &mut self.copy {
            copy.extend_from_slice(&buf[..n]);
            if copy.len() >= 2 && !copy.starts_with(&[0x1f, 0x8b]) {
                self.copy = None;
            }
        }
        Ok(n)
    }
}

impl Client {
    /// A client with `config`. The cache is off when [`Config::cache_dir`] is `None`
    /// and no default cache directory can be found.
    pub fn new(config: Config) -> Client {
        let cache = match config.cache_mode {
            CacheMode::Off => None,
            _ => config
                .cache_dir
                .clone()
                .or_else(default_cache_dir)
                .map(|d| Cache::new(d, config.cache_ttl)),
        };
        Client {
            http: Http::new(&config),
            config,
            cache,
            progress: None,
        }
    }

    /// Reports progress to `f` from now on.
    pub fn with_progress(mut self, f: impl Fn(&Progress) + Send + Sync + 'static) -> Client {
        self.progress = Some(Arc::new(f));
        self
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The cache, if one is used.
    pub fn cache(&self) -> Option<&Cache> {
        self.cache.as_ref()
    }

    fn tell(&self, p: Progress) {
        if let Some(f) = &self.progress {
            f(&p);
        }
    }

    /// The server and inbox a target is fetched from: the configured ones, unless the
    /// target's URL names another server (then the inbox it names, else `all`).
    pub fn place_of(&self, target: &Target) -> (String, String) {
        let base = self.config.base.trim_end_matches('/');
        match &target.base {
            Some(b) if !b.trim_end_matches('/').eq_ignore_ascii_case(base) => (
                b.trim_end_matches('/').to_string(),
                target.list.clone().unwrap_or_else(|| "all".to_string()),
            ),
            _ => (base.to_string(), self.config.list.clone()),
        }
    }

    /// The URL of a target's thread mbox.
    pub fn thread_url_of(&self, target: &Target) -> String {
        let (base, list) = self.place_of(target);
        thread_url(&base, &list, &target.msgid)
    }

    /// The whole thread holding a message: `<base>/<list>/<msgid>/t.mbox.gz`, gunzipped.
    pub fn thread(&self, target: &Target) -> Result<Mbox> {
        let url = self.thread_url_of(target);
        let mbox = self.fetch(Method::Get, &url, false, self.config.limits)?;
        if mbox.messages == 0 {
            return Err(LoreError::NotMbox {
                url,
                reason: "the answer holds no message".to_string(),
            });
        }
        // A server answering with another thread (a forged copy of a report,
        // say) is not believed: the answer must hold the message asked for.
        let asked = target
            .msgid
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>');
        if !mbox
            .split()
            .into_iter()
            .any(|m| message_id(m).as_deref() == Some(asked))
        {
            return Err(LoreError::NotAsked {
                url,
                msgid: asked.to_string(),
            });
        }
        Ok(mbox)
    }

    /// [`Client::thread`] of what [`parse_target`] makes of `input`.
    pub fn thread_of(&self, input: &str) -> Result<Mbox> {
        self.thread(&parse_target(input)?)
    }

    /// The threads of several messages, one after another (the rate limiter spaces
    /// them), each with its own result; [`Progress::Thread`] after each.
    pub fn threads(&self, targets: &[Target]) -> Vec<Result<Mbox>> {
        let total = targets.len();
        targets
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let r = self.thread(t);
                self.tell(Progress::Thread {
                    done: i + 1,
                    total,
                    msgid: t.msgid.clone(),
                });
                r
            })
            .collect()
    }

    /// The messages a search matches (or their threads), every page of it.
    /// [`Config::limits`] bound the whole result.
    pub fn search(&self, search: &Search) -> Result<SearchResult> {
        let queries = search.page_queries(Utc::now())?;
        let base = self.config.base.trim_end_matches('/');
        let list = search.list.as_deref().unwrap_or(&self.config.list);
        let limits = self.config.limits;
        let mut bytes = Vec::new();
        let mut messages = 0usize;
        let mut seen: HashSet<String> = HashSet::new();
        let mut pages = Vec::new();
        let mut partial = None;
        let first_url = search_url(base, list, &queries[0], search.threads);
        let total = queries.len();
        for (i, q) in queries.iter().enumerate() {
            let url = search_url(base, list, q, search.threads);
            let left = Limits {
                max_messages: limits.max_messages - messages,
                max_bytes: limits.max_bytes - bytes.len() as u64,
                partial_ok: true,
            };
            let page = self.fetch(Method::Post, &url, true, left)?;
            let mut new = 0;
            for msg in page.split() {
                if let Some(id) = message_id(msg) {
                    if !seen.insert(id) {
                        continue;
                    }
                }
                bytes.extend_from_slice(msg);
                new += 1;
            }
            messages += new;
            pages.push(Page {
                url,
                query: q.clone(),
                messages: new,
                from_cache: page.from_cache,
            });
            self.tell(Progress::Page {
                page: i + 1,
                pages: total,
                messages: new,
            });
            if page.partial.is_some() {
                partial = Some(match page.partial {
                    Some(Partial::Bytes(_)) => Partial::Bytes(limits.max_bytes),
                    _ => Partial::Messages(limits.max_messages),
                });
                break;
            }
        }
        if let Some(p) = partial {
            if !limits.partial_ok {
                return Err(LoreError::TooLarge {
                    url: first_url,
                    limit: match p {
                        Partial::Messages(n) => format!("{n} messages"),
                        Partial::Bytes(n) => format!("{n} bytes"),
                    },
                });
            }
        }
        let from_cache = pages.iter().all(|p| p.from_cache);
        Ok(SearchResult {
            mbox: Mbox {
                url: first_url,
                bytes,
                messages,
                partial,
                from_cache,
            },
            pages,
        })
    }

    /// The messages of a target's thread received since `since` (none is an empty
    /// mbox): `POST <base>/<list>/<msgid>/?x=m&q=rt:<epoch>..`.
    pub fn thread_updates(&self, target: &Target, since: DateTime<Utc>) -> Result<Mbox> {
        let (base, list) = self.place_of(target);
        let url = thread_search_url(
            &base,
            &list,
            &target.msgid,
            &format!("rt:{}..", since.timestamp()),
        );
        self.fetch(Method::Post, &url, true, self.config.limits)
    }

    /// One answer, from the cache or the server. `empty_ok`: a 404 that is no HTML
    /// page is an empty answer (public-inbox's empty search).
    fn fetch(&self, method: Method, url: &str, empty_ok: bool, limits: Limits) -> Result<Mbox> {
        let mode = self.config.cache_mode;
        let cache = self.cache.as_ref().filter(|_| mode != CacheMode::Off);
        if let Some(c) = cache.filter(|_| mode != CacheMode::Refresh) {
            let found = match c.get(method.as_str(), url, mode == CacheMode::Offline) {
                Err(e @ LoreError::CacheCorrupt { .. }) if mode == CacheMode::Offline => {
                    return Err(e);
                }
                Err(e @ LoreError::CacheCorrupt { .. }) => {
                    self.tell(Progress::Warning {
                        message: format!("{e}; fetching again"),
                    });
                    None
                }
                other => other?,
            };
            if let Some((entry, age)) = found {
                let got = match entry.kind {
                    Kind::Empty => Ok(mbox::Decoded {
                        bytes: Vec::new(),
                        messages: 0,
                        partial: None,
                    }),
                    Kind::Body => mbox::decode(url, entry.body.as_slice(), limits, &mut |_| {}),
                };
                match got {
                    Ok(d) => {
                        self.tell(Progress::CacheHit {
                            url: url.to_string(),
                            age,
                        });
                        return Ok(self.answered(url, d, true));
                    }
                    Err(e) if mode == CacheMode::Offline => return Err(e),
                    Err(e) => self.tell(Progress::Warning {
                        message: format!("cached answer unusable, fetching again: {e}"),
                    }),
                }
            }
        }
        if mode == CacheMode::Offline {
            return Err(LoreError::NotCached {
                url: url.to_string(),
            });
        }
        let deadline = http::Deadline::after(self.config.answer_timeout);
        let mut body_failures = 0;
        loop {
            match self.fetch_once(method, url, empty_ok, limits, cache, deadline) {
                // The answer's time is up, whatever the last wait said.
                Err(LoreError::Timeout { .. } | LoreError::Truncated { .. })
                    if deadline.passed() =>
                {
                    return Err(deadline.error(url));
                }
                // A body that broke off (a cut connection, a stall) is asked again,
                // as a 5xx would be; a cut that repeats stays an error.
                Err(e @ (LoreError::Truncated { .. } | LoreError::Timeout { .. }))
                    if body_failures < self.config.retries =>
                {
                    body_failures += 1;
                    let delay = self.http.backoff(body_failures);
                    if !deadline.allows(delay) {
                        return Err(deadline.error(url));
                    }
                    self.tell(Progress::Retry {
                        url: url.to_string(),
                        attempt: body_failures,
                        delay,
                        reason: e.to_string(),
                    });
                    std::thread::sleep(delay);
                }
                other => return other,
            }
        }
    }

    /// One request (with [`Http::send`]'s own retries) and its body.
    fn fetch_once(
        &self,
        method: Method,
        url: &str,
        empty_ok: bool,
        limits: Limits,
        cache: Option<&Cache>,
        deadline: http::Deadline,
    ) -> Result<Mbox> {
        let progress = |p: &Progress| self.tell(p.clone());
        let answer = self.http.send(method, url, deadline, &progress)?;
        let status = answer.status;
        let html_type = answer.content_type.contains("text/html");
        if status != 200 || html_type {
            let mut page = Vec::new();
            let _ = answer
                .body
                .into_reader()
                .take(16 << 10)
                .read_to_end(&mut page);
            let html = html_type || mbox::looks_html(&page);
            return match status {
                404 if empty_ok && !html => {
                    if let Some(c) = cache {
                        self.store(c, method, url, Kind::Empty, &[]);
                    }
                    let d = mbox::Decoded {
                        bytes: Vec::new(),
                        messages: 0,
                        partial: None,
                    };
                    Ok(self.answered(url, d, false))
                }
                404 | 410 => Err(LoreError::NotFound { url: answer.url }),
                _ if html => Err(LoreError::Html {
                    url: answer.url,
                    status,
                    title: mbox::html_title(&page),
                }),
                _ => Err(LoreError::Status {
                    url: answer.url,
                    status,
                    attempts: 1,
                }),
            };
        }
        let mut tee = Tee {
            inner: answer.body.into_reader(),
            copy: Some(Vec::new()),
        };
        let mut on_bytes = |n: u64| {
            self.tell(Progress::Bytes {
                url: url.to_string(),
                bytes: n,
            })
        };
        let d = mbox::decode(url, &mut tee, limits, &mut on_bytes)?;
        if d.partial.is_none() {
            if let Some(c) = cache {
                // A gzip as received, else the plain mbox the decoder kept.
                let body = tee.copy.as_deref().unwrap_or(&d.bytes);
                let kind = if body.is_empty() {
                    Kind::Empty
                } else {
                    Kind::Body
                };
                self.store(c, method, url, kind, body);
            }
        }
        Ok(self.answered(url, d, false))
    }

    fn store(&self, cache: &Cache, method: Method, url: &str, kind: Kind, body: &[u8]) {
        if let Err(e) = cache.put(method.as_str(), url, kind, body) {
            self.tell(Progress::Warning {
                message: format!("not cached: {e}"),
            });
        }
    }

    fn answered(&self, url: &str, d: mbox::Decoded, from_cache: bool) -> Mbox {
        self.tell(Progress::Answer {
            url: url.to_string(),
            messages: d.messages,
            bytes: d.bytes.len() as u64,
            from_cache,
        });
        Mbox {
            url: url.to_string(),
            bytes: d.bytes,
            messages: d.messages,
            partial: d.partial,
            from_cache,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn page_queries() {
        let now = Utc.with_ymd_and_hms(2024, 1, 10, 0, 0, 0).unwrap();
        let since = Utc.with_ymd_and_hms(2024, 1, 1, 0, 0, 0).unwrap();
        let mut s = Search::new("f:lkp@intel.com");
        assert_eq!(s.page_queries(now).unwrap(), vec!["f:lkp@intel.com"]);
        s.since = Some(since);
        assert_eq!(
            s.page_queries(now).unwrap(),
            vec!["(f:lkp@intel.com) AND rt:1704067200.."]
        );
        s.date_field = DateField::Sent;
        assert_eq!(
            s.page_queries(now).unwrap(),
            vec!["(f:lkp@intel.com) AND dt:20240101000000.."]
        );
        s.window = Some(Duration::from_secs(4 * 86400));
        assert_eq!(
            s.page_queries(now).unwrap(),
            vec![
                "(f:lkp@intel.com) AND dt:20240101000000..20240104235959",
                "(f:lkp@intel.com) AND dt:20240105000000..20240108235959",
                "(f:lkp@intel.com) AND dt:20240109000000..",
            ]
        );
        s.date_field = DateField::Received;
        s.query = " ".into();
        assert_eq!(
            s.page_queries(now).unwrap()[..2],
            ["rt:1704067200..1704412799", "rt:1704412800..1704758399"]
        );
        s.window = Some(Duration::from_secs(1));
        assert!(matches!(
            s.page_queries(now),
            Err(LoreError::BadSearch { .. })
        ));
    }

    #[test]
    fn place_of_targets() {
        let c = Client::new(Config {
            base: "http://127.0.0.1:9".into(),
            cache_mode: CacheMode::Off,
            ..Config::default()
        });
        let t = parse_target("<a/b@c>").unwrap();
        assert_eq!(
            c.thread_url_of(&t),
            "http://127.0.0.1:9/all/a%2Fb@c/t.mbox.gz"
        );
        let t = parse_target("http://127.0.0.1:9/linux-ext4/a@c/").unwrap();
        assert_eq!(c.thread_url_of(&t), "http://127.0.0.1:9/all/a@c/t.mbox.gz");
        let t = parse_target("https://lore.kernel.org/linux-ext4/a@c/T/#u").unwrap();
        assert_eq!(
            c.thread_url_of(&t),
            "https://lore.kernel.org/linux-ext4/a@c/t.mbox.gz"
        );
    }
}
