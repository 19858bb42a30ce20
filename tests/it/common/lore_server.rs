//! A public-inbox look-alike on 127.0.0.1 for the lore client's tests: thread mboxes
//! (gzip) by Message-ID, `x=m` searches streamed as gzip in batches of 50 the way
//! public-inbox-httpd streams them, 404 "No results found" for an empty search, and
//! misbehaviour on demand. It records every request, so tests count them.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use flate2::Compression;
use flate2::write::GzEncoder;

/// One request as received.
#[derive(Debug, Clone)]
pub struct Req {
    pub method: String,
    /// The path as sent (percent-encoded).
    pub raw_path: String,
    /// The path, percent-decoded.
    pub path: String,
    /// The query string's pairs, decoded (`+` as space).
    pub query: Vec<(String, String)>,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub at: Instant,
}

impl Req {
    pub fn param(&self, k: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(a, _)| a == k)
            .map(|(_, v)| v.as_str())
    }
    pub fn header(&self, k: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(a, _)| a.eq_ignore_ascii_case(k))
            .map(|(_, v)| v.as_str())
    }
}

/// What the server does with a request.
pub enum Reply {
    /// A complete answer with Content-Length.
    Full {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// A 200 answer sent in chunks (Transfer-Encoding: chunked), as public-inbox streams.
    Chunked { ctype: String, chunks: Vec<Vec<u8>> },
    /// Headers with this Content-Length, then only `body`, then the connection closes.
    Cut {
        content_length: usize,
        body: Vec<u8>,
    },
    /// Read the request, say nothing for this long, then close.
    Stall(Duration),
    /// Send the headers (Content-Length `body.len()`), then `body` one byte
    /// each `every`: never idle for long, never done.
    Dribble { body: Vec<u8>, every: Duration },
    /// Send the headers and `body`, then say nothing for this long (a stall mid-body).
    StallBody {
        body: Vec<u8>,
        total: usize,
        stall: Duration,
    },
}

impl Reply {
    pub fn status(status: u16, ctype: &str, body: &[u8]) -> Reply {
        Reply::Full {
            status,
            headers: vec![("Content-Type".into(), ctype.into())],
            body: body.to_vec(),
        }
    }
    pub fn gzip(gz: Vec<u8>) -> Reply {
        Reply::Full {
            status: 200,
            headers: vec![("Content-Type".into(), "application/gzip".into())],
            body: gz,
        }
    }
    pub fn with_header(mut self, k: &str, v: &str) -> Reply {
        if let Reply::Full { headers, .. } = &mut self {
            headers.push((k.into(), v.into()));
        }
        self
    }
}

type Handler = dyn Fn(&Req, usize) -> Reply + Send + Sync;

/// A running server; it stops accepting when dropped.
pub struct Server {
    pub base: String,
    log: Arc<Mutex<Vec<Req>>>,
    stop: Arc<AtomicBool>,
    port: u16,
}

impl Server {
    /// Serves `handler(request, index of the request from 0)` on 127.0.0.1.
    pub fn start(handler: impl Fn(&Req, usize) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().unwrap().port();
        let log: Arc<Mutex<Vec<Req>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        {
            let (log, stop) = (log.clone(), stop.clone());
            thread::spawn(move || {
                for conn in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(conn) = conn else { continue };
                    let (log, handler) = (log.clone(), handler.clone());
                    thread::spawn(move || serve(conn, &log, &*handler));
                }
            });
        }
        Server {
            base: format!("http://127.0.0.1:{port}"),
            log,
            stop,
            port,
        }
    }

    pub fn requests(&self) -> Vec<Req> {
        self.log.lock().unwrap().clone()
    }

    pub fn count(&self) -> usize {
        self.log.lock().unwrap().len()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port)); // wake the accept loop
    }
}

fn decode(s: &str, plus: bool) -> String {
    let s = if plus {
        s.replace('+', " ")
    } else {
        s.to_string()
    };
    percent_encoding::percent_decode_str(&s)
        .decode_utf8_lossy()
        .into_owned()
}

fn serve(conn: TcpStream, log: &Mutex<Vec<Req>>, handler: &Handler) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(match conn.try_clone() {
        Ok(c) => c,
        Err(_) => return,
    });
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let target = parts.next().unwrap_or_default().to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 {
            break;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let len: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; len];
    let _ = reader.read_exact(&mut body);
    let (raw_path, qs) = target.split_once('?').unwrap_or((&target, ""));
    let query = qs
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k, true), decode(v, true))
        })
        .collect();
    let req = Req {
        method,
        raw_path: raw_path.to_string(),
        path: decode(raw_path, false),
        query,
        headers,
        body,
        at: Instant::now(),
    };
    let n = {
        let mut l = log.lock().unwrap();
        l.push(req.clone());
        l.len() - 1
    };
    let reply = handler(&req, n);
    let mut w = conn;
    let reason = |s: u16| match s {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Whatever",
    };
    let _ = match reply {
        Reply::Full {
            status,
            headers,
            body,
        } => {
            let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
            for (k, v) in headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str(&format!(
                "Content-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            ));
            w.write_all(head.as_bytes()).and_then(|_| w.write_all(&body))
        }
        Reply::Chunked { ctype, chunks } => (|| {
            w.write_all(
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                )
                .as_bytes(),
            )?;
            for c in chunks.iter().filter(|c| !c.is_empty()) {
                w.write_all(format!("{:x}\r\n", c.len()).as_bytes())?;
                w.write_all(c)?;
                w.write_all(b"\r\n")?;
                w.flush()?;
            }
            w.write_all(b"0\r\n\r\n")
        })(),
        Reply::Cut {
            content_length,
            body,
        } => w
            .write_all(
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/gzip\r\nContent-Length: {content_length}\r\nConnection: close\r\n\r\n"
                )
                .as_bytes(),
            )
            .and_then(|_| w.write_all(&body)),
        Reply::Stall(d) => {
            thread::sleep(d);
            Ok(())
        }
        Reply::Dribble { body, every } => (|| {
            w.write_all(
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/gzip\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                )
                .as_bytes(),
            )?;
            for b in &body {
                w.write_all(std::slice::from_ref(b))?;
                w.flush()?;
                thread::sleep(every);
            }
            Ok(())
        })(),
        Reply::StallBody { body, total, stall } => {
            let r = w
                .write_all(
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/gzip\r\nContent-Length: {total}\r\nConnection: close\r\n\r\n"
                    )
                    .as_bytes(),
                )
                .and_then(|_| w.write_all(&body))
                .and_then(|_| w.flush());
            thread::sleep(stall);
            r
        }
    };
    let _ = w.flush();
    let _ = w.shutdown(std::net::Shutdown::Both);
}

pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// One archived message.
#[derive(Debug, Clone)]
pub struct Msg {
    pub id: String,
    pub thread: String,
    /// Received time, epoch seconds.
    pub rt: i64,
    pub from: String,
    pub subject: String,
    pub text: String,
}

/// A robot report, the way the kernel test robot writes them (shortened).
pub fn report(id: &str, rt: i64, commit: &str, metric: &str, change: &str) -> Msg {
    let date = chrono::DateTime::from_timestamp(rt, 0)
        .unwrap()
        .to_rfc2822();
    let subject = format!("[linus:master] [ext4]  {commit}: {metric} {change} regression");
    let text = format!(
        "From mboxrd@z Thu Jan  1 00:00:00 1970\n\
         Date: {date}\n\
         From: kernel test robot <oliver.sang@intel.com>\n\
         To: Jan Kara <jack@suse.cz>\n\
         Cc: oe-lkp@lists.linux.dev, lkp@intel.com, linux-ext4@vger.kernel.org\n\
         Subject: {subject}\n\
         Message-ID: <{id}>\n\
         Content-Type: text/plain; charset=us-ascii\n\
         \n\
         Hello,\n\n\
         kernel test robot noticed a {change} regression of {metric} on:\n\n\
         commit: {commit} (\"ext4: a change\")\n\
         https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git master\n\n\
         >From the bisection: the first bad commit is {commit}\n\n\
         =========================================================================================\n\
         compiler/cpufreq_governor/kconfig/rootfs/tbox_group/testcase:\n\
           gcc-12/performance/x86_64-rhel-8.3/debian-12-x86_64-20240206.cgz/lkp-icl-2sp9/fsmark\n\n\
              14484            -6.3%      13568        {metric}\n\n\
         -- \n0-DAY CI Kernel Test Service\nhttps://github.com/intel/lkp-tests/wiki\n\n"
    );
    Msg {
        id: id.to_string(),
        thread: id.to_string(),
        rt,
        from: "kernel test robot <oliver.sang@intel.com>".into(),
        subject,
        text,
    }
}

/// A patch that is no robot report's business (`unrelated@example.org`),
/// received at `rt`.
pub fn unrelated(rt: i64) -> Msg {
    Msg {
        id: "unrelated@example.org".into(),
        thread: "unrelated@example.org".into(),
        rt,
        from: "Someone <someone@example.org>".into(),
        subject: "[PATCH] ext4: fix a typo".into(),
        text: "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Someone <someone@example.org>\n\
               Subject: [PATCH] ext4: fix a typo\nMessage-ID: <unrelated@example.org>\n\n-teh\n+the\n\n"
            .into(),
    }
}

/// A reply to `parent` in its thread.
pub fn reply(id: &str, parent: &Msg, rt: i64, who: &str) -> Msg {
    let date = chrono::DateTime::from_timestamp(rt, 0)
        .unwrap()
        .to_rfc2822();
    let subject = format!("Re: {}", parent.subject);
    let text = format!(
        "From mboxrd@z Thu Jan  1 00:00:00 1970\n\
         Date: {date}\n\
         From: {who}\n\
         Subject: {subject}\n\
         Message-ID: <{id}>\n\
         In-Reply-To: <{}>\n\
         References: <{}>\n\
         \n\
         On a day, kernel test robot wrote:\n\
         > kernel test robot noticed a regression\n\n\
         Thanks, looking.\n\n",
        parent.id, parent.thread
    );
    Msg {
        id: id.to_string(),
        thread: parent.thread.clone(),
        rt,
        from: who.to_string(),
        subject,
        text,
    }
}

/// Messages in archive order (the order public-inbox numbers them).
#[derive(Debug, Clone, Default)]
pub struct Archive {
    pub msgs: Vec<Msg>,
}

impl Archive {
    pub fn thread_of(&self, id: &str) -> Vec<&Msg> {
        let Some(m) = self.msgs.iter().find(|m| m.id == id) else {
            return Vec::new();
        };
        self.msgs.iter().filter(|x| x.thread == m.thread).collect()
    }

    pub fn mbox(msgs: &[&Msg]) -> Vec<u8> {
        msgs.iter().flat_map(|m| m.text.bytes()).collect()
    }

    /// The toy of public-inbox's query language the tests use: terms joined by
    /// spaces or AND, parentheses ignored; `f:`, `s:`, `b:` (a quoted phrase
    /// without spaces), `rt:a..b`, bare words.
    pub fn matches(&self, q: &str) -> Vec<&Msg> {
        let q = q.replace(['(', ')'], " ");
        let terms: Vec<&str> = q.split_whitespace().filter(|t| *t != "AND").collect();
        let mut out: Vec<&Msg> = self
            .msgs
            .iter()
            .filter(|m| {
                terms.iter().all(|t| {
                    if let Some(r) = t.strip_prefix("rt:") {
                        let (a, b) = r.split_once("..").unwrap_or((r, r));
                        let a: i64 = a.parse().unwrap_or(i64::MIN);
                        let b: i64 = b.parse().unwrap_or(i64::MAX);
                        (a..=b).contains(&m.rt)
                    } else if let Some(f) = t.strip_prefix("f:") {
                        m.from.to_lowercase().contains(&f.to_lowercase())
                    } else if let Some(b) = t.strip_prefix("b:") {
                        let b = b.trim_matches('"').to_lowercase();
                        m.text.to_lowercase().contains(&b)
                    } else if let Some(s) = t.strip_prefix("s:") {
                        m.subject.to_lowercase().contains(&s.to_lowercase())
                    } else {
                        m.text.to_lowercase().contains(&t.to_lowercase())
                    }
                })
            })
            .collect();
        out.reverse(); // newest (highest number) first, as public-inbox's docid order
        out
    }

    /// Answers like public-inbox-httpd: `GET /<list>/<id>/t.mbox.gz`,
    /// `POST /<list>/[<id>/]?x=m[&t=1]&q=...`.
    pub fn respond(&self, req: &Req) -> Reply {
        // Split the path as sent, then decode each segment, as public-inbox does:
        // a Message-ID may hold an encoded '/'.
        let owned: Vec<String> = req
            .raw_path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(|s| decode(s, false))
            .collect();
        let segs: Vec<&str> = owned.iter().map(String::as_str).collect();
        if req.method == "GET" && segs.len() == 3 && segs[2] == "t.mbox.gz" {
            let t = self.thread_of(segs[1]);
            if t.is_empty() {
                return not_found_page();
            }
            return Reply::gzip(gzip(&Archive::mbox(&t)));
        }
        if req.param("x") == Some("m") && (segs.len() == 1 || segs.len() == 2) {
            if req.method != "POST" {
                return Reply::status(200, "text/html; charset=UTF-8", b"<html><head><title>search results</title></head><body>*** \"x=m\" ignored for GET requests</body></html>");
            }
            let q = req.param("q").unwrap_or_default();
            let mut hits = self.matches(q);
            if segs.len() == 2 {
                let t: Vec<String> = self
                    .thread_of(segs[1])
                    .iter()
                    .map(|m| m.thread.clone())
                    .collect();
                hits.retain(|m| t.contains(&m.thread));
            }
            let body_t = req.body.starts_with(b"x=") && !req.body.starts_with(b"x=0");
            if req.param("t").is_some() || body_t {
                let mut seen = Vec::new();
                let mut full = Vec::new();
                for h in hits {
                    if seen.contains(&h.thread) {
                        continue;
                    }
                    seen.push(h.thread.clone());
                    full.extend(self.msgs.iter().filter(|m| m.thread == h.thread));
                }
                hits = full;
            }
            if hits.is_empty() {
                return Reply::status(404, "text/plain", b"No results found\n");
            }
            return stream_gzip(&hits);
        }
        not_found_page()
    }
}

pub fn not_found_page() -> Reply {
    Reply::status(
        404,
        "text/html; charset=UTF-8",
        b"<html><head><title>404 Not Found</title></head><body><pre>404 Not Found</pre></body></html>",
    )
}

/// A gzip stream sent 50 messages to a chunk, as public-inbox refills its results.
pub fn stream_gzip(msgs: &[&Msg]) -> Reply {
    let mut enc = GzEncoder::new(Vec::new(), Compression::fast());
    let mut chunks = Vec::new();
    for batch in msgs.chunks(50) {
        for m in batch {
            enc.write_all(m.text.as_bytes()).unwrap();
        }
        enc.flush().unwrap();
        chunks.push(std::mem::take(enc.get_mut()));
    }
    chunks.push(enc.finish().unwrap());
    Reply::Chunked {
        ctype: "application/gzip".into(),
        chunks,
    }
}
