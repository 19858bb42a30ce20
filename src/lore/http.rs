//! Requests: one ureq agent, a rate limiter, retries with exponential backoff that
//! honour `Retry-After`, and redirects followed only on the same server.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::error::{LoreError, Result};
use super::{Config, Progress};

/// The request methods public-inbox needs: GET for threads, POST for `x=m` searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    Get,
    Post,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
        }
    }
}

/// A response whose status is an answer (not 429/5xx/3xx), its body unread.
pub(crate) struct Answer {
    pub url: String,
    pub status: u16,
    pub content_type: String,
    pub body: ureq::Body,
}

/// Spaces request starts at least `interval` apart, across threads.
struct RateLimiter {
    interval: Duration,
    next: Mutex<Option<Instant>>,
}

impl RateLimiter {
    fn wait(&self) {
        if self.interval.is_zero() {
            return;
        }
        let mut next = self.next.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        if let Some(at) = *next {
            if at > now {
                std::thread::sleep(at - now);
            }
        }
        *next = Some(Instant::now() + self.interval);
    }
}

/// When one answer's time is up ([`Config::answer_timeout`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Deadline {
    at: Option<Instant>,
    limit: Duration,
}

impl Deadline {
    /// The deadline `limit` from now.
    pub fn after(limit: Duration) -> Deadline {
        Deadline {
            at: Instant::now().checked_add(limit),
            limit,
        }
    }

    /// Time left, `None` when there is no bound.
    fn left(&self) -> Option<Duration> {
        self.at
            .map(|at| at.saturating_duration_since(Instant::now()))
    }

    /// Whether the time is up.
    pub fn passed(&self) -> bool {
        self.left().is_some_and(|l| l.is_zero())
    }

    /// Whether a wait of `d` ends before the deadline.
    pub fn allows(&self, d: Duration) -> bool {
        self.left().is_none_or(|l| d < l)
    }

    /// The error of an answer that ran out of time.
    pub fn error(&self, url: &str) -> LoreError {
        LoreError::TooSlow {
            url: url.to_string(),
            limit: self.limit,
        }
    }
}

pub(crate) struct Http {
    agent: ureq::Agent,
    limiter: RateLimiter,
    retries: u32,
    backoff_base: Duration,
    backoff_cap: Duration,
}

/// How a failed attempt may go on.
enum Failure {
    Retry {
        error: LoreError,
        wait: Option<Duration>,
    },
    Fatal(LoreError),
}

impl Http {
    pub fn new(cfg: &Config) -> Http {
        let mut b = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .user_agent(format!("regtrack/{}", env!("CARGO_PKG_VERSION")))
            .timeout_connect(Some(cfg.connect_timeout))
            .timeout_per_read(Some(cfg.read_timeout))
            .timeout_recv_response(Some(cfg.read_timeout))
            .timeout_recv_body(cfg.body_timeout);
        if !cfg.env_proxy {
            b = b.proxy(None);
        }
        let interval = if cfg.requests_per_second > 0.0 {
            Duration::from_secs_f64(1.0 / cfg.requests_per_second)
        } else {
            Duration::ZERO
        };
        Http {
            agent: b.build().into(),
            limiter: RateLimiter {
                interval,
                next: Mutex::new(None),
            },
            retries: cfg.retries,
            backoff_base: cfg.backoff_base,
            backoff_cap: cfg.backoff_cap,
        }
    }

    /// The exponential backoff before retry `attempt` (1-based), capped.
    pub fn backoff(&self, attempt: u32) -> Duration {
        let factor = 1u32
            .checked_shl(attempt.saturating_sub(1))
            .unwrap_or(u32::MAX);
        self.backoff_base
            .saturating_mul(factor)
            .min(self.backoff_cap)
    }

    /// Sends `method url` (an empty body for POST) until it gets an answer: retries
    /// 429, 5xx and transport failures with backoff, follows same-server redirects.
    /// The whole exchange, body included, ends by `deadline`.
    pub fn send(
        &self,
        method: Method,
        url: &str,
        deadline: Deadline,
        progress: &dyn Fn(&Progress),
    ) -> Result<Answer> {
        let mut url = url.to_string();
        let mut redirects = 0;
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            self.limiter.wait();
            if deadline.passed() {
                return Err(deadline.error(&url));
            }
            progress(&Progress::Request {
                url: url.clone(),
                attempt,
            });
            let failure = match self.once(method, &url, deadline.left()) {
                Ok(resp) => {
                    let status = resp.status().as_u16();
                    let header = |name: &str| {
                        resp.headers()
                            .get(name)
                            .and_then(|v| v.to_str().ok())
                            .map(str::to_string)
                    };
                    if (300..400).contains(&status) && status != 304 {
                        let location = header("location").unwrap_or_default();
                        let next = same_origin_target(&url, &location).map_err(|reason| {
                            LoreError::Redirect {
                                url: url.clone(),
                                location: location.clone(),
                                reason,
                            }
                        })?;
                        redirects += 1;
                        if redirects > 5 {
                            return Err(LoreError::Redirect {
                                url,
                                location,
                                reason: "more than 5 redirects".to_string(),
                            });
                        }
                        url = next;
                        attempt = 0;
                        continue;
                    }
                    if status == 429 || (500..600).contains(&status) {
                        let wait = header("retry-after").and_then(|v| parse_retry_after(&v));
                        Failure::Retry {
                            error: LoreError::Status {
                                url: url.clone(),
                                status,
                                attempts: attempt,
                            },
                            wait,
                        }
                    } else {
                        let content_type = header("content-type").unwrap_or_default();
                        let body = resp.into_body();
                        return Ok(Answer {
                            url,
                            status,
                            content_type,
                            body,
                        });
                    }
                }
                Err(e) => classify(&url, e),
            };
            match failure {
                Failure::Fatal(e) => return Err(e),
                Failure::Retry { error, wait } => {
                    if let Some(w) = wait {
                        if w > self.backoff_cap {
                            return Err(LoreError::RetryAfterTooLong {
                                url,
                                wait: w,
                                cap: self.backoff_cap,
                            });
                        }
                    }
                    if deadline.passed() {
                        return Err(deadline.error(&url));
                    }
                    if attempt > self.retries {
                        return Err(error);
                    }
                    let delay = wait.unwrap_or_else(|| self.backoff(attempt));
                    if !deadline.allows(delay) {
                        return Err(deadline.error(&url));
                    }
                    progress(&Progress::Retry {
                        url: url.clone(),
                        attempt,
                        delay,
                        reason: error.to_string(),
                    });
                    std::thread::sleep(delay);
                }
            }
        }
    }

    /// One request; `left` bounds it whole, its body included (ureq's global
    /// timeout goes on while the body is read).
    fn once(
        &self,
        method: Method,
        url: &str,
        left: Option<Duration>,
    ) -> std::result::Result<ureq::http::Response<ureq::Body>, ureq::Error> {
        match method {
            Method::Get => self
                .agent
                .get(url)
                .config()
                .timeout_global(left)
                .build()
                .call(),
            Method::Post => self
                .agent
                .post(url)
                .config()
                .timeout_global(left)
                .build()
                .send_empty(),
        }
    }
}

/// Sorts a transport failure into retryable or not, naming the URL.
fn classify(url: &str, e: ureq::Error) -> Failure {
    use std::io::ErrorKind as K;
    let url = url.to_string();
    let unreachable = |reason: String| Failure::Retry {
        error: LoreError::Unreachable {
            url: url.clone(),
            reason,
        },
        wait: None,
    };
    match e {
        ureq::Error::Timeout(t) => Failure::Retry {
            error: LoreError::Timeout {
                url: url.clone(),
                reason: format!("{t}"),
            },
            wait: None,
        },
        ureq::Error::HostNotFound => unreachable("host not found".to_string()),
        ureq::Error::ConnectionFailed => unreachable("connection failed".to_string()),
        ureq::Error::Io(io) => match io.kind() {
            K::ConnectionRefused
            | K::ConnectionReset
            | K::ConnectionAborted
            | K::NotConnected
            | K::AddrNotAvailable
            | K::NetworkUnreachable
            | K::HostUnreachable
            | K::NetworkDown
            | K::BrokenPipe
            | K::UnexpectedEof => unreachable(io.to_string()),
            K::TimedOut | K::WouldBlock => Failure::Retry {
                error: LoreError::Timeout {
                    url: url.clone(),
                    reason: io.to_string(),
                },
                wait: None,
            },
            _ => Failure::Fatal(LoreError::Http {
                url,
                reason: io.to_string(),
            }),
        },
        other => Failure::Fatal(LoreError::Http {
            url,
            reason: other.to_string(),
        }),
    }
}

/// `scheme://host[:port]` of an absolute URL.
fn origin(url: &str) -> Option<&str> {
    let after = url.find("://")? + 3;
    let end = url[after..].find('/').map_or(url.len(), |p| after + p);
    Some(&url[..end])
}

/// Where a redirect from `from` to `location` goes, if it stays on the same server.
fn same_origin_target(from: &str, location: &str) -> std::result::Result<String, String> {
    let from_origin = origin(from).ok_or("bad URL")?;
    if location.is_empty() {
        return Err("no Location header".to_string());
    }
    if location.starts_with('/') && !location.starts_with("//") {
        return Ok(format!("{from_origin}{location}"));
    }
    match origin(location) {
        Some(o) if o.eq_ignore_ascii_case(from_origin) => Ok(location.to_string()),
        Some(_) => Err("it points to another server".to_string()),
        None => Err("relative redirects other than /path are not followed".to_string()),
    }
}

/// `Retry-After` as a wait: delay-seconds, or an HTTP date (IMF-fixdate).
pub(crate) fn parse_retry_after(value: &str) -> Option<Duration> {
    let v = value.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = chrono::DateTime::parse_from_rfc2822(v).ok()?;
    let ms = (when.with_timezone(&chrono::Utc) - chrono::Utc::now()).num_milliseconds();
    Some(Duration::from_millis(ms.max(0) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_forms() {
        assert_eq!(parse_retry_after("7"), Some(Duration::from_secs(7)));
        assert_eq!(parse_retry_after(" 0 "), Some(Duration::ZERO));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        let later = chrono::Utc::now() + chrono::TimeDelta::seconds(120);
        let text = later.format("%a, %d %b %Y %H:%M:%S GMT").to_string();
        let d = parse_retry_after(&text).unwrap();
        assert!(
            d > Duration::from_secs(110) && d <= Duration::from_secs(120),
            "{d:?}"
        );
        assert_eq!(parse_retry_after("soon"), None);
        assert_eq!(parse_retry_after("-3"), None);
    }

    #[test]
    fn redirects_stay_home() {
        let from = "http://127.0.0.1:5/r/a@b";
        assert_eq!(
            same_origin_target(from, "/all/a@b/").unwrap(),
            "http://127.0.0.1:5/all/a@b/"
        );
        assert_eq!(
            same_origin_target(from, "http://127.0.0.1:5/all/a@b/").unwrap(),
            "http://127.0.0.1:5/all/a@b/"
        );
        assert!(same_origin_target(from, "http://127.0.0.2:5/all/").is_err());
        assert!(same_origin_target(from, "https://127.0.0.1:5/all/").is_err());
        assert!(same_origin_target(from, "//elsewhere.example/x").is_err());
        assert!(same_origin_target(from, "").is_err());
    }

    #[test]
    fn backoff_doubles_to_the_cap() {
        let cfg = Config {
            backoff_base: Duration::from_millis(100),
            backoff_cap: Duration::from_millis(500),
            ..Config::default()
        };
        let h = Http::new(&cfg);
        let got: Vec<_> = (1..=5).map(|a| h.backoff(a).as_millis()).collect();
        assert_eq!(got, vec![100, 200, 400, 500, 500]);
        assert_eq!(h.backoff(40), Duration::from_millis(500));
    }
}
