//! Message-IDs as they appear in mail: in lore-style URLs (every form
//! seen: `/r/<id>`, `/all/<id>/`, `/<list>/<id>/T/#u`, `lkml.kernel.org/r/`,
//! `patch.msgid.link/`, percent-encoded ids).

use std::sync::LazyLock;

use regex::Regex;

/// Decodes `%XX` escapes; invalid escapes and non-UTF-8 results stay as written.
pub fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .map(|c| c.into_owned())
        .unwrap_or_else(|_| s.to_string())
}

/// A Message-ID as a user gives it on the command line: bare, in angle
/// brackets, or as the lore (or patch.msgid.link) URL regtrack prints.
///
/// ```
/// use regtrack::mail::msgid::from_argument;
/// assert_eq!(from_argument("https://lore.kernel.org/all/a%40b/"), "a@b");
/// assert_eq!(from_argument("<a@b>"), "<a@b>");
/// ```
pub fn from_argument(arg: &str) -> String {
    let t = arg.trim();
    if t.get(..4).is_some_and(|h| h.eq_ignore_ascii_case("http")) {
        if let Some(id) = url_message_id(t) {
            return id;
        }
    }
    arg.to_string()
}

/// The Message-ID of the first lore-style URL in `text`, in every form seen:
/// `https://lore.kernel.org/oe-lkp/<id>`, `/r/<id>`, `/all/<id>/`,
/// `/<list>/<id>/T/#u`, `lkml.kernel.org/r/<id>`, `patch.msgid.link/<id>`,
/// `marc.info/?i=<id>`, with percent-encoded ids; also ids without `@`.
///
/// ```
/// use regtrack::mail::msgid::url_message_id;
/// assert_eq!(url_message_id("https://lore.kernel.org/all/20210304.GB17%40xsang-OptiPlex-9020/T/#u").as_deref(),
///            Some("20210304.GB17@xsang-OptiPlex-9020"));
/// assert_eq!(url_message_id("https://lore.kernel.org/r/<a@b>").as_deref(), Some("a@b"));
/// ```
pub fn url_message_id(text: &str) -> Option<String> {
    static URL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)https?://(?:lore\.kernel\.org|lkml\.kernel\.org|patch\.msgid\.link|marc\.info/\?i=)/?([^\s>)\]]+)",
        )
        .expect("lore url regex compiles")
    });
    let caps = URL.captures(text)?;
    let path = caps.get(1)?.as_str();
    let path = path.split(['#', '?']).next().unwrap_or("");
    let segs: Vec<String> = path
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8_lossy()
                .into_owned()
        })
        .collect();
    let clean = |s: &str| {
        s.trim_matches(|c| c == '<' || c == '>' || c == '.' || c == ',' || c == ';')
            .to_string()
    };
    if let Some(s) = segs.iter().find(|s| s.contains('@')) {
        return Some(clean(s));
    }
    // `/r/<id>` or `/<list>/<id>` with an id without `@`.
    match segs.as_slice() {
        [_, id, ..] if !matches!(id.as_str(), "T" | "t" | "raw") => Some(clean(id)),
        [id] => Some(clean(id)),
        _ => None,
    }
}

/// True for a Message-ID made by a tool that posts patches: git
/// send-email (`20240806212808.1885309-1-name@host`, the older
/// `1234567890-1234-1-git-send-email-name@host`) or b4
/// (`20241010-topic-v1-1-1e0533c6617b@host`). Such an id names a patch
/// posting (or its series' cover letter) even when the posting itself is
/// not at hand.
///
/// ```
/// use regtrack::mail::msgid::made_by_patch_tool;
/// assert!(made_by_patch_tool("20240806212808.1885309-1-pedro.falcato@gmail.com"));
/// assert!(made_by_patch_tool("20241010-delstid-v1-1-1e0533c6617b@kernel.org"));
/// assert!(made_by_patch_tool("1365512345-2345-1-git-send-email-jack@suse.cz"));
/// assert!(!made_by_patch_tool("CAHk-=wgPHCJ0vZMfEP50VPjSVi@mail.gmail.com"));
/// assert!(!made_by_patch_tool("20220619150456.GB34471@xsang-OptiPlex-9020"));
/// ```
pub fn made_by_patch_tool(id: &str) -> bool {
    static TOOL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^(?:\d{14}\.\d+-\d+-[^@\s]+@|\d+-\d+-\d+-git-send-email-[^@\s]+@|\d{8}-[0-9A-Za-z_.-]+-v\d+-\d+-[0-9a-f]{6,}@)",
        )
        .expect("patch tool id regex compiles")
    });
    TOOL.is_match(id)
}

/// When and by whom git send-email made a Message-ID
/// (`20240806212808.1885309-1-pedro.falcato@gmail.com`: the UTC time it
/// was sent, Unix seconds, and the sender's address), for a posting known
/// by its link alone. `None` for any other form.
///
/// ```
/// use regtrack::mail::msgid::sent_by_git_send_email;
/// assert_eq!(sent_by_git_send_email("20240806212808.1885309-1-pedro.falcato@gmail.com"),
///            Some((1722979688, "pedro.falcato@gmail.com")));
/// assert_eq!(sent_by_git_send_email("20241010-delstid-v1-1-1e0533c6617b@kernel.org"), None);
/// ```
pub fn sent_by_git_send_email(id: &str) -> Option<(i64, &str)> {
    static SEND_EMAIL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(\d{14})\.\d+-\d+-([^@\s]+@[^@\s]+)$")
            .expect("git send-email id regex compiles")
    });
    let caps = SEND_EMAIL.captures(id)?;
    let stamp =
        chrono::NaiveDateTime::parse_from_str(caps.get(1)?.as_str(), "%Y%m%d%H%M%S").ok()?;
    Some((stamp.and_utc().timestamp(), caps.get(2)?.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lore_url_form_gives_the_message_id() {
        let id = "202401221624.cb53a8ca-oliver.sang@intel.com";
        for url in [
            format!("https://lore.kernel.org/oe-lkp/{id}"),
            format!("https://lore.kernel.org/r/{id}"),
            format!("https://lore.kernel.org/all/{id}/"),
            format!("https://lore.kernel.org/linux-ext4/{id}/T/#u"),
            "https://lore.kernel.org/all/202401221624.cb53a8ca-oliver.sang%40intel.com/"
                .to_string(),
            format!("[1] https://lore.kernel.org/lkml/{id}/"),
            format!("https://lkml.kernel.org/r/{id}"),
        ] {
            assert_eq!(url_message_id(&url).as_deref(), Some(id), "{url}");
        }
        assert_eq!(url_message_id("https://example.org/x"), None);
    }
}
