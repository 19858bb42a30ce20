//! Links to the mail and the commits of a history: a message's page on a
//! public-inbox server (`https://lore.kernel.org/all/<percent-encoded
//! Message-ID>/`) and a commit's page per tree (a template with `{sha}`,
//! default `https://git.kernel.org/torvalds/c/{sha}`).
//!
//! The histories themselves hold no links (the linker is pure and knows no
//! server): the exports ask [`Links`], and the JSON writers add `url` fields
//! with [`Links::annotate`].

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::history::Scope;

/// The commit link of a tree with no template of its own.
pub const DEFAULT_COMMIT_LINK: &str = "https://git.kernel.org/torvalds/c/{sha}";

/// The default public-inbox server.
pub const DEFAULT_LORE_BASE: &str = "https://lore.kernel.org";

/// How to link messages and commits.
#[derive(Debug, Clone, PartialEq)]
pub struct Links {
    /// The inbox messages are linked in: `<server>/all`, or the inbox the
    /// lore base ends in.
    inbox: String,
    commit_links: BTreeMap<String, String>,
}

impl Default for Links {
    fn default() -> Self {
        Links::new(DEFAULT_LORE_BASE, BTreeMap::new())
    }
}

impl Links {
    /// Links to messages on `lore_base` (a server, `scheme://host[:port]`,
    /// whose inbox `all` is linked, or an inbox on it, as
    /// [`crate::lore::parse_base`] reads it) and to commits by
    /// `commit_links` (tree name -> template with `{sha}`; the key
    /// `default` for every tree without one).
    pub fn new(lore_base: &str, commit_links: BTreeMap<String, String>) -> Links {
        let inbox = match crate::lore::parse_base(lore_base) {
            Ok(b) => b.inbox_url("all"),
            // The command line checks the base first; a library caller's
            // other text is linked as it is.
            Err(_) => format!("{}/all", lore_base.trim().trim_end_matches('/')),
        };
        Links {
            inbox,
            commit_links,
        }
    }

    /// The page of message `msgid` (with or without angle brackets).
    pub fn message(&self, msgid: &str) -> String {
        let id = msgid.trim().trim_start_matches('<').trim_end_matches('>');
        format!("{}/{}/", self.inbox, crate::lore::encode_msgid(id))
    }

    /// The page of commit `sha` in `tree` (a tree name such as `linus`,
    /// `next` or `tip`, or a `tree:branch` of a report; `None` for the
    /// default). The id is percent-encoded so no text can leave the path.
    pub fn commit(&self, tree: Option<&str>, sha: &str) -> String {
        let tree = tree.map(|t| t.split(':').next().unwrap_or(t).trim());
        let template = tree
            .and_then(|t| self.commit_links.get(t))
            .or_else(|| self.commit_links.get("default"))
            .map(String::as_str)
            .unwrap_or(DEFAULT_COMMIT_LINK);
        let sha = crate::lore::encode_msgid(sha.trim());
        if template.contains("{sha}") {
            template.replace("{sha}", &sha)
        } else {
            format!("{}{sha}", template)
        }
    }

    /// The page of a history's culprit commit, where one is known to show
    /// it: the tree's page (a template of the config file, else the
    /// default's) for a commit tested on mainline, linux-next or an
    /// unknown tree, or found in a followed tree; else the page of the
    /// repository the report names (a git.kernel.org tree, the robot's
    /// GitHub branch of a posted patch); else none, rather than a mainline
    /// page that does not exist for a commit that never got there.
    pub fn culprit(
        &self,
        scope: Scope,
        branch: Option<&str>,
        culprit: &crate::model::history::CulpritInfo,
    ) -> Option<String> {
        let sha = culprit.commit.trim();
        if sha.is_empty() {
            return None;
        }
        let tree = branch.map(|t| t.split(':').next().unwrap_or(t).trim());
        let configured = tree.is_some_and(|t| self.commit_links.contains_key(t));
        let in_a_tree = !culprit.trees.is_empty();
        match scope {
            Scope::Mainline | Scope::Next | Scope::Unknown => Some(self.commit(branch, sha)),
            _ if configured || in_a_tree => Some(self.commit(branch, sha)),
            _ => culprit
                .repository
                .as_deref()
                .and_then(|repo| repository_commit(repo, sha)),
        }
    }

    /// Adds links to the public JSON form of regressions (an array, or one
    /// regression): every object with a string `message_id` gains `url`, its
    /// lore page; one with a string `commit` gains `commit_url`; a
    /// regression's `culprit` gains `url`, the culprit commit's page in the
    /// tree of the first report, and the regression itself `url`, its first
    /// report's page. Fields already there are kept.
    pub fn annotate(&self, v: &mut Value) {
        match v {
            Value::Array(items) => {
                for item in items {
                    self.annotate_regression(item);
                }
            }
            Value::Object(_) => self.annotate_regression(v),
            _ => {}
        }
    }

    fn annotate_regression(&self, v: &mut Value) {
        let branch = v.get("branch").and_then(Value::as_str).map(str::to_string);
        let first = v
            .get("reports")
            .and_then(|r| r.get(0))
            .and_then(|r| r.get("message_id"))
            .and_then(Value::as_str)
            .map(|m| self.message(m));
        let scope: Scope = v
            .get("scope")
            .and_then(|s| serde_json::from_value(s.clone()).ok())
            .unwrap_or_default();
        let culprit: Option<crate::model::history::CulpritInfo> = v
            .get("culprit")
            .and_then(|c| serde_json::from_value(c.clone()).ok());
        let url = culprit.and_then(|c| self.culprit(scope, branch.as_deref(), &c));
        if let Some(c) = v.get_mut("culprit").and_then(Value::as_object_mut)
            && let Some(url) = url
        {
            c.entry("url").or_insert(Value::String(url));
        }
        if let Some(o) = v.as_object_mut() {
            for (k, child) in o.iter_mut() {
                if k != "culprit" {
                    self.annotate_nested(child);
                }
            }
            if let Some(u) = first {
                o.entry("url").or_insert(Value::String(u));
            }
        }
    }

    fn annotate_nested(&self, v: &mut Value) {
        match v {
            Value::Array(items) => items.iter_mut().for_each(|i| self.annotate_nested(i)),
            Value::Object(o) => {
                for child in o.values_mut() {
                    self.annotate_nested(child);
                }
                match o.get("message_id").and_then(Value::as_str) {
                    // Known only from a followed tree: no message, no page.
                    Some("") => {
                        o.insert("message_id".into(), Value::Null);
                    }
                    Some(m) => {
                        let u = self.message(m);
                        o.entry("url").or_insert(Value::String(u));
                    }
                    None => {}
                }
                if let Some(c) = o.get("commit").and_then(Value::as_str)
                    && !c.is_empty()
                {
                    let tree = o
                        .get("tree")
                        .and_then(Value::as_str)
                        .filter(|t| !t.contains('/'));
                    let u = self.commit(tree, c);
                    o.entry("commit_url").or_insert(Value::String(u));
                }
            }
            _ => {}
        }
    }
}

/// The page of commit `sha` in repository `repo` as its host shows it:
/// `https://git.kernel.org/pub/scm/.../x.git/commit/?id=<sha>` (the robot's
/// `cgit/` spelling too), `https://github.com/o/r/commit/<sha>`; `None` for
/// another host, whose pages regtrack does not know.
fn repository_commit(repo: &str, sha: &str) -> Option<String> {
    let repo = repo.trim().trim_end_matches('/');
    let sha = crate::lore::encode_msgid(sha);
    if let Some(path) = repo
        .strip_prefix("https://git.kernel.org/")
        .or_else(|| repo.strip_prefix("http://git.kernel.org/"))
    {
        let path = path
            .strip_prefix("cgit/")
            .or_else(|| path.strip_prefix("pub/scm/"))
            .unwrap_or(path);
        let safe = path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+".contains(&b));
        return safe.then(|| format!("https://git.kernel.org/pub/scm/{path}/commit/?id={sha}"));
    }
    if let Some(path) = repo.strip_prefix("https://github.com/") {
        let safe = path.split('/').count() == 2
            && path
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"/._-".contains(&b));
        return safe.then(|| format!("https://github.com/{path}/commit/{sha}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_and_commit_links() {
        let l = Links::default();
        assert_eq!(
            l.message("<20200925071217.GO28663@shao2-debian>"),
            "https://lore.kernel.org/all/20200925071217.GO28663@shao2-debian/"
        );
        assert_eq!(
            l.message("a/b?c#d e"),
            "https://lore.kernel.org/all/a%2Fb%3Fc%23d%20e/"
        );
        assert_eq!(
            l.commit(Some("linus:master"), "2edf06a50f"),
            "https://git.kernel.org/torvalds/c/2edf06a50f"
        );
        let mut t = BTreeMap::new();
        t.insert("next".to_string(), "https://n/c/{sha}".to_string());
        t.insert("default".to_string(), "https://d/".to_string());
        let l = Links::new("http://127.0.0.1:9/", t);
        assert_eq!(l.commit(Some("next:master"), "abc"), "https://n/c/abc");
        assert_eq!(l.commit(None, "abc"), "https://d/abc");
        assert_eq!(l.message("x@y"), "http://127.0.0.1:9/all/x@y/");
        // A base that ends in an inbox links in it, not in `<inbox>/all`.
        for (base, want) in [
            (
                "https://lore.kernel.org/all",
                "https://lore.kernel.org/all/x@y/",
            ),
            (
                "https://lore.kernel.org/all/",
                "https://lore.kernel.org/all/x@y/",
            ),
            (
                "https://lore.kernel.org/linux-ext4",
                "https://lore.kernel.org/linux-ext4/x@y/",
            ),
        ] {
            assert_eq!(Links::new(base, BTreeMap::new()).message("x@y"), want);
        }
    }

    #[test]
    fn json_gains_urls_and_keeps_its_fields() {
        let mut v = serde_json::json!([{
            "branch": "linus:master",
            "culprit": {"commit": "abc"},
            "reports": [{"message_id": "r@x"}],
            "timeline": [{"message_id": "t@x"}, {"message_id": null}],
            "fix": {"message_id": "f@x", "commit": "def"},
        }]);
        Links::default().annotate(&mut v);
        let r = &v[0];
        assert_eq!(r["url"], "https://lore.kernel.org/all/r@x/");
        assert_eq!(r["culprit"]["url"], "https://git.kernel.org/torvalds/c/abc");
        assert_eq!(r["culprit"]["commit"], "abc");
        assert_eq!(r["timeline"][0]["url"], "https://lore.kernel.org/all/t@x/");
        assert!(r["timeline"][1].get("url").is_none());
        assert_eq!(
            r["fix"]["commit_url"],
            "https://git.kernel.org/torvalds/c/def"
        );
    }
}
