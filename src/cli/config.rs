//! The configuration file: `--config PATH`, else `$REGTRACK_CONFIG`, else
//! `$XDG_CONFIG_HOME/regtrack/config.toml` (`~/.config/regtrack/config.toml`).
//! A missing file is the defaults; a file that does not parse is an error
//! naming it. Command-line options win over it.
//!
//! ```toml
//! # The public-inbox server for links and for `fetch`/`follow`, or an
//! # inbox on it ("https://lore.kernel.org/all", as b4 and lei name it).
//! lore_base = "https://lore.kernel.org"
//! # The inbox `fetch` and `follow` ask, when lore_base names none
//! # (default `all`).
//! lore_list = "all"
//! cache_dir = "/var/cache/regtrack"
//! cache_ttl_minutes = 10
//! requests_per_second = 2.0
//! # Longest time for one answer of `fetch`/`follow`, retries included.
//! answer_timeout_seconds = 600
//! # The sender of `regtrack report` mails.
//! report_from = "Jane Doe <jane@example.org>"
//!
//! # Commit links per tree (`{sha}` is replaced); `default` for any other.
//! [commit_links]
//! default = "https://git.kernel.org/torvalds/c/{sha}"
//! next = "https://git.kernel.org/next/linux-next/c/{sha}"
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::Deserialize;

/// What the configuration file says.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The public-inbox server for links and for `fetch`/`follow`.
    pub lore_base: Option<String>,
    /// The inbox `fetch` and `follow` ask.
    pub lore_list: Option<String>,
    /// Where fetched answers are cached.
    pub cache_dir: Option<PathBuf>,
    /// How long a cached answer is used without asking again.
    pub cache_ttl_minutes: Option<u64>,
    /// Most requests per second to the server.
    pub requests_per_second: Option<f64>,
    /// Longest time for one whole answer of the server, retries included.
    pub answer_timeout_seconds: Option<u64>,
    /// Commit link templates per tree name (`{sha}` replaced).
    pub commit_links: BTreeMap<String, String>,
    /// The `From:` of `regtrack report` mails.
    pub report_from: Option<String>,
}

/// The file the configuration is read from, if any.
pub fn path(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os("REGTRACK_CONFIG").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("regtrack").join("config.toml"))
}

/// Reads the configuration (the defaults when there is no file; a file
/// named on the command line must exist).
pub fn load(explicit: Option<&Path>) -> anyhow::Result<Config> {
    let Some(p) = path(explicit) else {
        return Ok(Config::default());
    };
    let text = match read_bounded(&p) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && explicit.is_none() => {
            return Ok(Config::default());
        }
        // The default place under a home folder this user cannot enter (a
        // cron job or `setpriv` with another's HOME): no file to read. A
        // file that is there but unreadable is still an error.
        Err(e)
            if e.kind() == std::io::ErrorKind::PermissionDenied
                && explicit.is_none()
                && std::env::var_os("REGTRACK_CONFIG").is_none()
                && std::fs::symlink_metadata(&p).is_err() =>
        {
            return Ok(Config::default());
        }
        Err(e) => return Err(e).with_context(|| format!("reading config '{}'", p.display())),
    };
    let config: Config =
        toml::from_str(&text).with_context(|| format!("config '{}'", p.display()))?;
    config
        .check()
        .with_context(|| format!("config '{}'", p.display()))?;
    Ok(config)
}

/// Largest configuration file read: a config is a few lines; a device,
/// a FIFO or a huge file named by mistake is refused before it is read
/// whole.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The text of the configuration file `p`: a regular file (symlinks
/// followed) of at most [`MAX_CONFIG_BYTES`].
fn read_bounded(p: &Path) -> std::io::Result<String> {
    use std::io::Read as _;
    let meta = std::fs::metadata(p)?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut text = String::new();
    std::fs::File::open(p)?
        .take(MAX_CONFIG_BYTES + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > MAX_CONFIG_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {} KiB", MAX_CONFIG_BYTES >> 10),
        ));
    }
    Ok(text)
}

impl Config {
    /// Every value in the range it can mean something in: a rate, a time
    /// or a link that would panic, wrap or run script later is refused
    /// here, naming its key.
    pub fn check(&self) -> anyhow::Result<()> {
        if let Some(r) = self.requests_per_second {
            if !(r == 0.0 || (0.001..=1000.0).contains(&r)) {
                anyhow::bail!(
                    "requests_per_second = {r}: give 0 (no limit) or a rate from 0.001 to 1000"
                );
            }
        }
        if let Some(m) = self.cache_ttl_minutes {
            if m > MAX_MINUTES {
                anyhow::bail!("cache_ttl_minutes = {m}: at most {MAX_MINUTES} (ten years)");
            }
        }
        if let Some(t) = self.answer_timeout_seconds {
            if !(1..=MAX_ANSWER_SECONDS).contains(&t) {
                anyhow::bail!(
                    "answer_timeout_seconds = {t}: give 1 to {MAX_ANSWER_SECONDS} (a day)"
                );
            }
        }
        if let Some(base) = &self.lore_base {
            let inbox = crate::lore::parse_base(base)
                .map_err(|e| anyhow::Error::new(e).context("lore_base"))?
                .inbox;
            if let (Some(inbox), Some(list)) = (inbox, &self.lore_list)
                && inbox != *list
            {
                anyhow::bail!(
                    "lore_base = \"{base}\" ends in the inbox '{inbox}' and lore_list = \"{list}\" names another: keep one"
                );
            }
        }
        for (tree, template) in &self.commit_links {
            web_link(&format!("commit_links.{tree}"), template)?;
        }
        Ok(())
    }
}

/// Most minutes a cached answer may be trusted for (ten years).
const MAX_MINUTES: u64 = 10 * 366 * 24 * 60;

/// Most seconds one answer of a server may take (a day).
pub const MAX_ANSWER_SECONDS: u64 = 86_400;

/// `value` is an http or https link (what a browser and `fetch` may
/// follow); a `javascript:` or `file:` one would run or read on a click.
pub(crate) fn web_link(key: &str, value: &str) -> anyhow::Result<()> {
    let lower = value.trim_start().to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        Ok(())
    } else {
        anyhow::bail!("{key}: only http:// and https:// links are used")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_file_reads_and_a_bad_one_names_itself() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.toml");
        std::fs::write(
            &p,
            "lore_base = \"http://127.0.0.1:9\"\n[commit_links]\nnext = \"https://x/{sha}\"\n",
        )
        .unwrap();
        let c = load(Some(&p)).unwrap();
        assert_eq!(c.lore_base.as_deref(), Some("http://127.0.0.1:9"));
        assert_eq!(c.commit_links["next"], "https://x/{sha}");
        std::fs::write(&p, "lore_bse = 1\n").unwrap();
        let e = format!("{:#}", load(Some(&p)).unwrap_err());
        assert!(e.contains("c.toml") && e.contains("lore_bse"), "{e}");
        assert!(load(Some(&dir.path().join("none.toml"))).is_err());
    }

    #[test]
    fn a_device_or_a_huge_file_named_as_config_is_refused_unread() {
        let e = format!("{:#}", load(Some(Path::new("/dev/zero"))).unwrap_err());
        assert!(
            e.contains("/dev/zero") && e.contains("not a regular file"),
            "{e}"
        );
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.toml");
        std::fs::write(&big, vec![b'#'; (MAX_CONFIG_BYTES + 1) as usize]).unwrap();
        let e = format!("{:#}", load(Some(&big)).unwrap_err());
        assert!(e.contains("larger than 1024 KiB"), "{e}");
    }

    #[test]
    fn values_that_would_panic_or_run_script_are_refused_by_key() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.toml");
        for (text, key) in [
            ("requests_per_second = 1e-30\n", "requests_per_second"),
            ("requests_per_second = nan\n", "requests_per_second"),
            ("requests_per_second = -1.0\n", "requests_per_second"),
            ("cache_ttl_minutes = 99999999999\n", "cache_ttl_minutes"),
            ("answer_timeout_seconds = 0\n", "answer_timeout_seconds"),
            ("lore_base = \"javascript:alert(1)//\"\n", "lore_base"),
            (
                "lore_base = \"https://lore.kernel.org/all/?q=x\"\n",
                "lore_base",
            ),
            (
                "lore_base = \"https://lore.kernel.org/all\"\nlore_list = \"linux-ext4\"\n",
                "lore_list",
            ),
            (
                "[commit_links]\nnext = \"JavaScript:alert('{sha}')\"\n",
                "commit_links.next",
            ),
        ] {
            std::fs::write(&p, text).unwrap();
            let e = format!("{:#}", load(Some(&p)).unwrap_err());
            assert!(e.contains("c.toml") && e.contains(key), "{text}: {e}");
        }
        std::fs::write(
            &p,
            "requests_per_second = 0.0\nanswer_timeout_seconds = 30\n",
        )
        .unwrap();
        assert!(load(Some(&p)).is_ok());
        std::fs::write(
            &p,
            "lore_base = \"https://lore.kernel.org/all/\"\nlore_list = \"all\"\n",
        )
        .unwrap();
        assert!(load(Some(&p)).is_ok());
    }
}
