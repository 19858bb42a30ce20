//! The answer cache: one file per request (method and URL), written atomically,
//! fresh for a time-to-live.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use super::error::{LoreError, Result};

const MAGIC: &[u8] = b"regtrack-lore-cache 1\n";

/// How a [`super::Client`] uses its cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CacheMode {
    /// Answer from the cache while an entry is younger than the time-to-live,
    /// else fetch and store.
    #[default]
    Normal,
    /// Always fetch, and store what was fetched (b4's `--no-cache`, keeping the cache warm).
    Refresh,
    /// Never fetch: answer from the cache whatever the entry's age, or fail with
    /// [`LoreError::NotCached`].
    Offline,
    /// Neither read nor write the cache.
    Off,
}

/// What an entry holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The body of a 200 answer, as received (gzip).
    Body,
    /// A search with no results (public-inbox's 404 "No results found").
    Empty,
}

/// One cached answer.
#[derive(Debug)]
pub(crate) struct Entry {
    pub kind: Kind,
    pub body: Vec<u8>,
}

/// The cache directory: `<dir>/lore/<2 hex>/<64 hex>`, the name the BLAKE3 hash of
/// `"<METHOD> <URL>"`.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
    ttl: Duration,
}

/// `$XDG_CACHE_HOME/regtrack` when that is set to an absolute path, else
/// `$HOME/.cache/regtrack`; `None` when neither can be found.
pub fn default_cache_dir() -> Option<PathBuf> {
    cache_dir_from(std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME"))
}

fn cache_dir_from(
    xdg: Option<std::ffi::OsString>,
    home: Option<std::ffi::OsString>,
) -> Option<PathBuf> {
    // The XDG base directory spec: a relative $XDG_CACHE_HOME is invalid, ignore it.
    if let Some(x) = xdg.map(PathBuf::from).filter(|x| x.is_absolute()) {
        return Some(x.join("regtrack"));
    }
    let home = home.filter(|h| !h.is_empty())?;
    Some(PathBuf::from(home).join(".cache").join("regtrack"))
}

static TMP_SEQ: AtomicU64 = AtomicU64::new(0);

impl Cache {
    /// A cache under `dir` (created on first write) whose entries are fresh for `ttl`.
    pub fn new(dir: impl Into<PathBuf>, ttl: Duration) -> Cache {
        Cache {
            dir: dir.into(),
            ttl,
        }
    }

    /// The directory given to [`Cache::new`].
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file that holds (or would hold) the answer to `method url`.
    pub fn path_for(&self, method: &str, url: &str) -> PathBuf {
        let hash = blake3::hash(format!("{method} {url}").as_bytes()).to_hex();
        self.dir.join("lore").join(&hash[..2]).join(hash.as_str())
    }

    /// The entry for `method url` and its age, if there is one and it is fresh
    /// (or whatever its age, with `any_age`).
    pub(crate) fn get(
        &self,
        method: &str,
        url: &str,
        any_age: bool,
    ) -> Result<Option<(Entry, Duration)>> {
        let path = self.path_for(method, url);
        let data = match read_entry(&path) {
            Ok(d) => d,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                return Err(LoreError::CacheCorrupt {
                    path,
                    reason: e.to_string(),
                });
            }
            Err(e) => return Err(LoreError::Cache { path, source: e }),
        };
        let age = fs::metadata(&path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .unwrap_or_default();
        if !any_age && age > self.ttl {
            return Ok(None);
        }
        match parse(&data, method, url) {
            Some(e) => Ok(Some((e, age))),
            None => Err(LoreError::CacheCorrupt {
                path,
                reason: "not an entry of this cache for this request".into(),
            }),
        }
    }

    /// Stores the entry for `method url`: written to a temporary file in the same
    /// directory, then renamed over the old one, so no reader sees half a file.
    pub(crate) fn put(&self, method: &str, url: &str, kind: Kind, body: &[u8]) -> Result<PathBuf> {
        let path = self.path_for(method, url);
        let io = |p: &Path| {
            let p = p.to_path_buf();
            move |source| LoreError::Cache { path: p, source }
        };
        let parent = path.parent().unwrap_or(&self.dir).to_path_buf();
        fs::create_dir_all(&parent).map_err(io(&parent))?;
        let tmp = parent.join(format!(
            ".tmp-{}-{}",
            std::process::id(),
            TMP_SEQ.fetch_add(1, Ordering::Relaxed)
        ));
        let write = || -> std::io::Result<()> {
            let mut f = fs::File::create(&tmp)?;
            f.write_all(MAGIC)?;
            f.write_all(match kind {
                Kind::Body => b"body\n",
                Kind::Empty => b"empty\n",
            })?;
            f.write_all(format!("{method} {url}\n").as_bytes())?;
            f.write_all(body)?;
            f.sync_data()?;
            fs::rename(&tmp, &path)
        };
        if let Err(e) = write() {
            let _ = fs::remove_file(&tmp);
            return Err(LoreError::Cache { path, source: e });
        }
        Ok(path)
    }

    /// Removes entries older than the time-to-live and temporary files a killed run
    /// left (older than an hour); returns how many files went.
    pub fn prune(&self) -> Result<usize> {
        let root = self.dir.join("lore");
        let mut removed = 0;
        let subdirs = match fs::read_dir(&root) {
            Ok(r) => r,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => {
                return Err(LoreError::Cache {
                    path: root,
                    source: e,
                });
            }
        };
        for sub in subdirs.flatten() {
            let Ok(files) = fs::read_dir(sub.path()) else {
                continue;
            };
            for f in files.flatten() {
                let age = f
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| SystemTime::now().duration_since(t).ok())
                    .unwrap_or_default();
                let tmp = f.file_name().to_string_lossy().starts_with(".tmp-");
                let limit = if tmp {
                    Duration::from_secs(3600)
                } else {
                    self.ttl
                };
                if age > limit && fs::remove_file(f.path()).is_ok() {
                    removed += 1;
                }
            }
        }
        Ok(removed)
    }
}

/// Most bytes of an entry: an answer's body is at most the 512 MiB an
/// answer may decompress to, and gzip never grows text.
const MAX_ENTRY: u64 = (512 << 20) + 4096;

/// The bytes of the entry file at `path`: a regular file (a symlink to a
/// device or a pipe is not read) of at most [`MAX_ENTRY`] bytes; either
/// failure is `InvalidData`.
fn read_entry(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let bad = |why: String| std::io::Error::new(std::io::ErrorKind::InvalidData, why);
    let f = fs::File::open(path)?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Err(bad(
            "not a regular file (a device, a pipe or a socket)".into()
        ));
    }
    let mut data = Vec::with_capacity(meta.len().min(MAX_ENTRY) as usize);
    f.take(MAX_ENTRY + 1).read_to_end(&mut data)?;
    if data.len() as u64 > MAX_ENTRY {
        return Err(bad(format!("more than {MAX_ENTRY} bytes")));
    }
    Ok(data)
}

/// Reads an entry file; `None` when it is not one of ours or is for another URL.
fn parse(data: &[u8], method: &str, url: &str) -> Option<Entry> {
    let rest = data.strip_prefix(MAGIC)?;
    let nl = memchr::memchr(b'\n', rest)?;
    let kind = match &rest[..nl] {
        b"body" => Kind::Body,
        b"empty" => Kind::Empty,
        _ => return None,
    };
    let rest = &rest[nl + 1..];
    let nl = memchr::memchr(b'\n', rest)?;
    if rest[..nl] != *format!("{method} {url}").as_bytes() {
        return None;
    }
    Some(Entry {
        kind,
        body: rest[nl + 1..].to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_get_ttl_and_atomic_names() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path(), Duration::from_secs(600));
        let url = "http://127.0.0.1:1/all/a@b/t.mbox.gz";
        assert!(cache.get("GET", url, false).unwrap().is_none());
        let path = cache.put("GET", url, Kind::Body, b"\x1f\x8bdata").unwrap();
        assert!(path.starts_with(dir.path().join("lore")));
        let (e, age) = cache.get("GET", url, false).unwrap().unwrap();
        assert_eq!(
            (e.kind, e.body.as_slice()),
            (Kind::Body, &b"\x1f\x8bdata"[..])
        );
        assert!(age < Duration::from_secs(60));
        // Another method or URL is another entry.
        assert!(cache.get("POST", url, false).unwrap().is_none());
        // No temporary file is left.
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1);
        // Expired: gone for a normal read, there for an offline one.
        let old = Cache::new(dir.path(), Duration::ZERO);
        std::thread::sleep(Duration::from_millis(20));
        assert!(old.get("GET", url, false).unwrap().is_none());
        assert!(old.get("GET", url, true).unwrap().is_some());
        assert_eq!(old.prune().unwrap(), 1);
        assert!(old.get("GET", url, true).unwrap().is_none());
    }

    #[test]
    fn default_dir_follows_xdg() {
        let os = |s: &str| Some(std::ffi::OsString::from(s));
        assert_eq!(
            cache_dir_from(os("/x/cache"), os("/home/u")),
            Some(PathBuf::from("/x/cache/regtrack"))
        );
        assert_eq!(
            cache_dir_from(os("relative"), os("/home/u")),
            Some(PathBuf::from("/home/u/.cache/regtrack"))
        );
        assert_eq!(
            cache_dir_from(None, os("/home/u")),
            Some(PathBuf::from("/home/u/.cache/regtrack"))
        );
        assert_eq!(cache_dir_from(None, os("")), None);
        assert_eq!(cache_dir_from(None, None), None);
    }

    #[test]
    fn foreign_or_half_files_are_named_corrupt() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path(), Duration::from_secs(600));
        let path = cache.path_for("GET", "u");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, b"regtrack-lore-cache 1\nbo").unwrap();
        let corrupt =
            |r: Result<Option<(Entry, Duration)>>| matches!(r, Err(LoreError::CacheCorrupt { .. }));
        assert!(corrupt(cache.get("GET", "u", false)));
        fs::write(&path, b"regtrack-lore-cache 1\nempty\nGET v\n").unwrap();
        assert!(corrupt(cache.get("GET", "u", false)));
        fs::remove_file(&path).unwrap();
        assert!(cache.get("GET", "u", false).unwrap().is_none());
    }
}
