//! The one way tests run the crate's binaries: [`Cmd`] builds a run of
//! `regtrack` (or `regtrack-synth`) with its arguments, `--db`, environment,
//! standard input and a time limit; [`Cmd::run`] returns a [`Run`] (exit
//! status, stdout, stderr, wall time and, when asked, peak RSS). A run that
//! outlives its limit is killed and has no status.
//!
//! ```ignore
//! let v = Cmd::regtrack().db(&db).args(["stats", "--json"]).json();
//! let run = Cmd::regtrack().args(["parse", "-"]).stdin(bytes).run();
//! ```

use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The time limit of a run unless [`Cmd::limit`] says otherwise.
pub const DEFAULT_LIMIT: Duration = Duration::from_secs(300);

/// Keeps at most this much of a child's stderr (its end).
const STDERR_KEEP: usize = 1 << 20;

/// What a child reads on standard input.
enum Input {
    Null,
    Bytes(Vec<u8>),
    Feed(Box<dyn FnOnce(ChildStdin) + Send>),
}

/// A run of one of the crate's binaries, being built.
#[must_use = "a Cmd does nothing until it is run"]
pub struct Cmd {
    program: PathBuf,
    db: Option<PathBuf>,
    args: Vec<OsString>,
    env: Vec<(OsString, Option<OsString>)>,
    cwd: Option<PathBuf>,
    stdin: Input,
    limit: Duration,
    rss: bool,
}

impl Cmd {
    /// `regtrack`, the binary under test. `REGTRACK_DB` is removed from its
    /// environment (pass [`Cmd::db`]).
    pub fn regtrack() -> Cmd {
        Cmd::program(env!("CARGO_BIN_EXE_regtrack"))
    }

    /// `regtrack-synth`, the synthetic-archive generator.
    pub fn synth() -> Cmd {
        Cmd::program(env!("CARGO_BIN_EXE_regtrack-synth"))
    }

    fn program(path: &str) -> Cmd {
        Cmd {
            program: PathBuf::from(path),
            db: None,
            args: Vec::new(),
            env: vec![("REGTRACK_DB".into(), None)],
            cwd: None,
            stdin: Input::Null,
            limit: DEFAULT_LIMIT,
            rss: false,
        }
    }

    /// `--db PATH`, given before every other argument.
    pub fn db(mut self, path: impl AsRef<Path>) -> Cmd {
        self.db = Some(path.as_ref().to_path_buf());
        self
    }

    /// One more argument.
    pub fn arg(mut self, a: impl AsRef<OsStr>) -> Cmd {
        self.args.push(a.as_ref().to_os_string());
        self
    }

    /// More arguments.
    pub fn args<I>(mut self, args: I) -> Cmd
    where
        I: IntoIterator,
        I::Item: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        self
    }

    /// Sets an environment variable.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Cmd {
        self.env.push((
            key.as_ref().to_os_string(),
            Some(value.as_ref().to_os_string()),
        ));
        self
    }

    /// Removes an environment variable.
    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> Cmd {
        self.env.push((key.as_ref().to_os_string(), None));
        self
    }

    /// The working directory.
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Cmd {
        self.cwd = Some(dir.as_ref().to_path_buf());
        self
    }

    /// These bytes on standard input (null otherwise).
    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> Cmd {
        self.stdin = Input::Bytes(bytes.into());
        self
    }

    /// Standard input written by `feed` on a thread of its own (slowly, say);
    /// the child sees the end of input when `feed` returns.
    pub fn stdin_feed(mut self, feed: impl FnOnce(ChildStdin) + Send + 'static) -> Cmd {
        self.stdin = Input::Feed(Box::new(feed));
        self
    }

    /// The time limit ([`DEFAULT_LIMIT`] otherwise).
    pub fn limit(mut self, limit: Duration) -> Cmd {
        self.limit = limit;
        self
    }

    /// Measures the child's peak RSS exactly, under GNU time (`/usr/bin/time`)
    /// when it is installed; without it, or without this, the peak is polled
    /// from `/proc/PID/status` (VmHWM) while the child runs.
    pub fn measure_rss(mut self) -> Cmd {
        self.rss = true;
        self
    }

    /// What the run is, for messages: the program's name and its arguments
    /// (long ones cut).
    fn describe(&self) -> String {
        let mut parts = vec![
            self.program
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
        ];
        if let Some(db) = &self.db {
            parts.push("--db".into());
            parts.push(db.display().to_string());
        }
        for a in &self.args {
            let s = a.to_string_lossy();
            parts.push(match s.char_indices().nth(77) {
                Some((cut, _)) if s.len() > 80 => format!("{}…", &s[..cut]),
                _ => s.into_owned(),
            });
        }
        parts.join(" ")
    }

    /// Starts the child.
    pub fn spawn(self) -> Running {
        let what = self.describe();
        let time = Path::new("/usr/bin/time");
        let rss_file = (self.rss && time.exists())
            .then(|| tempfile::NamedTempFile::new().expect("temporary file for GNU time"));
        let mut cmd = match &rss_file {
            Some(f) => {
                let mut c = Command::new(time);
                c.arg("-f")
                    .arg("%M")
                    .arg("-o")
                    .arg(f.path())
                    .arg(&self.program);
                c
            }
            None => Command::new(&self.program),
        };
        if let Some(db) = &self.db {
            cmd.arg("--db").arg(db);
        }
        cmd.args(&self.args);
        for (k, v) in &self.env {
            match v {
                Some(v) => cmd.env(k, v),
                None => cmd.env_remove(k),
            };
        }
        if let Some(dir) = &self.cwd {
            cmd.current_dir(dir);
        }
        cmd.stdin(match self.stdin {
            Input::Null => Stdio::null(),
            _ => Stdio::piped(),
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
        let stdin = child.stdin.take();
        let feeder = match (self.stdin, stdin) {
            (Input::Bytes(bytes), Some(mut w)) => Some(std::thread::spawn(move || {
                // A child that exits early closes the pipe: not our failure.
                let _ = w.write_all(&bytes);
            })),
            (Input::Feed(feed), Some(w)) => Some(std::thread::spawn(move || feed(w))),
            _ => None,
        };
        let drain = |r: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                if let Some(mut r) = r {
                    let _ = r.read_to_end(&mut buf);
                }
                buf
            })
        };
        let stdout = drain(
            child
                .stdout
                .take()
                .map(|r| Box::new(r) as Box<dyn Read + Send>),
        );
        let stderr = drain(
            child
                .stderr
                .take()
                .map(|r| Box::new(r) as Box<dyn Read + Send>),
        );
        Running {
            what,
            child,
            stdout,
            stderr,
            feeder,
            rss_file,
            start: Instant::now(),
            limit: self.limit,
            polled_hwm: None,
        }
    }

    /// Runs the child to its end (or its time limit).
    pub fn run(self) -> Run {
        self.spawn().wait()
    }

    /// Runs the child and asserts that it exited 0 without a panic.
    pub fn ok(self) -> Run {
        let run = self.run();
        run.assert_no_panic();
        assert_eq!(
            run.code(),
            Some(0),
            "{}: exit {:?}\nstdout: {}\nstderr: {}",
            run.what,
            run.code(),
            tail(&run.stdout),
            tail(&run.stderr)
        );
        run
    }

    /// Runs the child, asserts that it exited 0, and parses its stdout as
    /// one JSON value.
    pub fn json(self) -> serde_json::Value {
        self.ok().json()
    }
}

/// A child that was started and not yet waited for.
pub struct Running {
    what: String,
    child: Child,
    stdout: JoinHandle<Vec<u8>>,
    stderr: JoinHandle<Vec<u8>>,
    feeder: Option<JoinHandle<()>>,
    rss_file: Option<tempfile::NamedTempFile>,
    start: Instant,
    limit: Duration,
    polled_hwm: Option<u64>,
}

impl Running {
    /// True while the child runs.
    pub fn is_running(&mut self) -> bool {
        self.poll_hwm();
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Kills the child at once (SIGKILL, and GNU time's own child) and
    /// collects what it wrote.
    pub fn kill(mut self) -> Run {
        self.kill_now();
        let status = self.child.wait().ok();
        self.finish(status, true)
    }

    /// Asks the child to end (SIGTERM), then waits for it as [`Running::wait`].
    pub fn terminate(self) -> Run {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        self.wait()
    }

    /// Waits for the child to end, killing it at its time limit.
    pub fn wait(mut self) -> Run {
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(st)) => break Some(st),
                Ok(None) => {}
                Err(e) => panic!("{}: wait: {e}", self.what),
            }
            if self.start.elapsed() > self.limit {
                self.kill_now();
                let _ = self.child.wait();
                break None;
            }
            self.poll_hwm();
            std::thread::sleep(Duration::from_millis(5));
        };
        self.finish(status, false)
    }

    fn kill_now(&mut self) {
        // Under GNU time the real child is time's child: end it first.
        let kids = format!("/proc/{0}/task/{0}/children", self.child.id());
        for pid in std::fs::read_to_string(kids)
            .unwrap_or_default()
            .split_whitespace()
        {
            let _ = Command::new("kill").arg("-9").arg(pid).status();
        }
        let _ = self.child.kill();
    }

    fn poll_hwm(&mut self) {
        if self.rss_file.is_some() {
            return; // GNU time measures it; /proc would show time's own
        }
        let status = format!("/proc/{}/status", self.child.id());
        if let Some(kib) = std::fs::read_to_string(status).ok().and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<u64>().ok())
        }) {
            self.polled_hwm = Some(self.polled_hwm.unwrap_or(0).max(kib));
        }
    }

    fn finish(self, status: Option<ExitStatus>, killed: bool) -> Run {
        let elapsed = self.start.elapsed();
        if let Some(f) = self.feeder {
            let _ = f.join();
        }
        let stdout_bytes = self.stdout.join().unwrap_or_default();
        let stderr_bytes = self.stderr.join().unwrap_or_default();
        // GNU time writes `%M` last, after "Command exited with non-zero
        // status N" or "Command terminated by signal N".
        let time_says = self
            .rss_file
            .as_ref()
            .and_then(|f| std::fs::read_to_string(f.path()).ok())
            .unwrap_or_default();
        let measured = time_says
            .lines()
            .last()
            .and_then(|l| l.trim().parse::<u64>().ok());
        let signalled = time_says.contains("terminated by signal");
        let mut stderr = String::from_utf8_lossy(&stderr_bytes).into_owned();
        if stderr.len() > STDERR_KEEP {
            let mut cut = stderr.len() - STDERR_KEEP;
            while !stderr.is_char_boundary(cut) {
                cut += 1;
            }
            stderr = stderr.split_off(cut);
        }
        Run {
            what: self.what,
            // Under GNU time a child killed by a signal makes time exit 128+N.
            status: if signalled || killed { None } else { status },
            stdout: String::from_utf8_lossy(&stdout_bytes).into_owned(),
            stdout_bytes,
            stderr,
            peak_rss_kib: measured.or(self.polled_hwm),
            elapsed,
        }
    }
}

/// The outcome of one child run.
#[derive(Debug)]
pub struct Run {
    /// What was run, for messages.
    pub what: String,
    /// Exit status (None when it was killed: by its time limit, by
    /// [`Running::kill`], or by a signal under GNU time).
    pub status: Option<ExitStatus>,
    /// Standard output (invalid UTF-8 replaced).
    pub stdout: String,
    /// Standard output as written.
    pub stdout_bytes: Vec<u8>,
    /// Standard error (its last MiB; invalid UTF-8 replaced).
    pub stderr: String,
    /// Peak resident set size of the child in KiB, when it could be measured.
    pub peak_rss_kib: Option<u64>,
    /// Wall time.
    pub elapsed: Duration,
}

/// The last 2,000 characters of `s`.
fn tail(s: &str) -> String {
    let n = s.chars().count();
    s.chars().skip(n.saturating_sub(2000)).collect()
}

impl Run {
    /// Exit code (None when killed or signalled).
    pub fn code(&self) -> Option<i32> {
        self.status.and_then(|s| s.code())
    }

    /// True when the child exited 0.
    pub fn success(&self) -> bool {
        self.code() == Some(0)
    }

    /// Asserts the child ended by itself, with no panic and no signal.
    pub fn assert_no_panic(&self) {
        assert!(
            self.status.is_some(),
            "{}: did not finish by itself (time limit, kill or signal); stderr: {}",
            self.what,
            tail(&self.stderr)
        );
        assert!(
            !self.stderr.contains("panicked"),
            "{}: panicked: {}",
            self.what,
            tail(&self.stderr)
        );
        let code = self.code();
        assert!(
            code.is_some(),
            "{}: killed by a signal ({:?}); stderr: {}",
            self.what,
            self.status,
            tail(&self.stderr)
        );
        assert_ne!(
            code,
            Some(101),
            "{}: exit 101 (a panic); stderr: {}",
            self.what,
            tail(&self.stderr)
        );
    }

    /// Standard output as one JSON value (it must be valid UTF-8).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.stdout_bytes).unwrap_or_else(|e| {
            panic!(
                "{}: stdout is not one JSON value ({e}): {}\nstderr: {}",
                self.what,
                tail(&self.stdout),
                tail(&self.stderr)
            )
        })
    }

    /// Standard output as JSON Lines (it must be valid UTF-8).
    pub fn json_lines(&self) -> Vec<serde_json::Value> {
        std::str::from_utf8(&self.stdout_bytes)
            .unwrap_or_else(|e| panic!("{}: stdout is not UTF-8: {e}", self.what))
            .lines()
            .map(|l| {
                serde_json::from_str(l)
                    .unwrap_or_else(|e| panic!("{}: not a JSON line ({e}): {l}", self.what))
            })
            .collect()
    }

    /// The last JSON line of stdout (the `ingest --json` summary after any
    /// other output).
    pub fn summary(&self) -> serde_json::Value {
        self.stdout
            .lines()
            .rev()
            .find_map(|l| serde_json::from_str::<serde_json::Value>(l.trim()).ok())
            .unwrap_or_else(|| {
                panic!(
                    "{}: no JSON summary on stdout: {:?} / {:?}",
                    self.what,
                    tail(&self.stdout),
                    tail(&self.stderr)
                )
            })
    }
}

/// A numeric field of a JSON object (0 when absent).
pub fn field(v: &serde_json::Value, name: &str) -> i64 {
    v.get(name).and_then(|x| x.as_i64()).unwrap_or(0)
}

/// Writes a synthetic archive of `messages` messages from `seed` to `out`
/// with `regtrack-synth`.
pub fn write_synth(messages: u32, seed: u32, out: &Path) {
    Cmd::synth()
        .args([
            "--messages",
            &messages.to_string(),
            "--seed",
            &seed.to_string(),
            "--out",
        ])
        .arg(out)
        .ok();
}
