//! Message-IDs and message URLs: parsing what a person pastes, building what a server wants.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

use super::error::{LoreError, Result};

/// Bytes public-inbox leaves bare in a Message-ID path segment (its `MID_ESC`:
/// unreserved characters, sub-delimiters, `:` and `@`). Everything else, `/`, `%`,
/// `?`, `#`, space, `<`, `>`, `"` and all non-ASCII bytes included, is percent-encoded.
const MSGID_PATH: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=')
    .remove(b':')
    .remove(b'@');

/// Bytes left bare in a query-string value (what public-inbox's own search links
/// leave bare); `+`, `&`, `=`, `#`, `%` and space are encoded (space then shown as `+`).
const QUERY_VALUE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'!')
    .remove(b'$')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b',')
    .remove(b';')
    .remove(b':')
    .remove(b'@')
    .remove(b'/');

/// Hosts that only redirect to lore.kernel.org: their URLs name a message, not a server.
const REDIRECTORS: &[&str] = &["lkml.kernel.org", "patch.msgid.link", "msgid.link"];

/// Hosts recognised in a URL given without `https://`.
const SCHEMELESS_HOSTS: &[&str] = &[
    "lore.kernel.org",
    "lkml.kernel.org",
    "patch.msgid.link",
    "msgid.link",
];

/// What a Message-ID or a message URL names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The Message-ID, without `<>`.
    pub msgid: String,
    /// The server the URL names (`https://lore.kernel.org`), when it is a public-inbox
    /// URL; `None` for a bare Message-ID or a redirector such as `patch.msgid.link`.
    pub base: Option<String>,
    /// The inbox the URL names (`linux-ext4`, or `all`), when it names one.
    pub list: Option<String>,
}

/// Parses a Message-ID (`<id@host>`, `id@host`, `id:id@host`, `mid:...`) or a message
/// URL in any public-inbox form (`/r/<id>`, `/all/<id>/`, `/<list>/<id>/T/#u`,
/// `/<list>/<id>/t.mbox.gz`, `lkml.kernel.org/r/<id>`, `patch.msgid.link/<id>`, with or
/// without a scheme, percent-encoded or not).
pub fn parse_target(input: &str) -> Result<Target> {
    let bad = |reason: &str| LoreError::BadTarget {
        input: input.to_string(),
        reason: reason.to_string(),
    };
    let text = input.trim();
    if text.is_empty() {
        return Err(bad("empty"));
    }
    if let Some(t) = parse_url(text) {
        return t.ok_or_else(|| bad("the URL has no path segment that is a Message-ID"));
    }
    let mut id = text;
    // `id:`, `mid:`, `rfc822msgid:` prefixes (as b4 and lei take them).
    if let Some(pos) = id.find("id:") {
        if id[..pos].bytes().all(|b| b.is_ascii_alphanumeric()) {
            id = &id[pos + 3..];
        }
    }
    let id = id
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim();
    if id.is_empty() {
        return Err(bad("empty Message-ID"));
    }
    if id.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad("a Message-ID has no spaces"));
    }
    Ok(Target {
        msgid: id.to_string(),
        base: None,
        list: None,
    })
}

/// `None` when `text` is no URL; `Some(None)` when it is one but names no message.
fn parse_url(text: &str) -> Option<Option<Target>> {
    let has = |p: &str| {
        text.get(..p.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(p))
    };
    let (scheme, rest) = if has("https://") {
        ("https", &text[8..])
    } else if has("http://") {
        ("http", &text[7..])
    } else {
        // A scheme-less URL only on the hosts people paste that way: a Message-ID
        // may itself hold a '/' ("a.b/c@d"), so no other host is guessed at.
        let (host, _) = text.split_once('/')?;
        let host = host.to_ascii_lowercase();
        if !SCHEMELESS_HOSTS.contains(&host.as_str()) {
            return None;
        }
        ("https", text)
    };
    let rest = rest.split(['#', '?']).next().unwrap_or_default();
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.to_ascii_lowercase();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let decoded: Vec<String> = segments
        .iter()
        .map(|s| percent_decode_str(s).decode_utf8_lossy().into_owned())
        .collect();
    let at = decoded.iter().position(|s| s.contains('@')).or({
        // A Message-ID without '@': public-inbox paths are /<list>/<id>/...
        if decoded.len() >= 2 && !REDIRECTORS.contains(&host.as_str()) {
            Some(1)
        } else if decoded.len() == 1 && REDIRECTORS.contains(&host.as_str()) {
            Some(0)
        } else {
            None
        }
    });
    let Some(at) = at else {
        return Some(None);
    };
    let msgid = decoded[at]
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_string();
    if msgid.is_empty() {
        return Some(None);
    }
    let redirector = REDIRECTORS.contains(&host.as_str());
    let (base, list) = if redirector || at > 1 {
        (None, None)
    } else {
        let list = match decoded.first() {
            Some(l) if at == 1 && l == "r" => Some("all".to_string()),
            Some(l) if at == 1 => Some(l.clone()),
            _ => None,
        };
        (Some(format!("{scheme}://{host}")), list)
    };
    Some(Some(Target { msgid, base, list }))
}

/// Percent-encodes a Message-ID for a URL path as public-inbox does.
pub fn encode_msgid(msgid: &str) -> String {
    match msgid {
        // A path segment `.` or `..` would be another path: spell the dots.
        "." => "%2E".to_string(),
        ".." => "%2E%2E".to_string(),
        _ => utf8_percent_encode(msgid, MSGID_PATH).to_string(),
    }
}

/// Percent-encodes a query-string value (a search query), space as `+`.
pub fn encode_query(value: &str) -> String {
    utf8_percent_encode(value, QUERY_VALUE)
        .to_string()
        .replace("%20", "+")
}

/// `<base>/<list>/<msgid>/t.mbox.gz`: the whole thread of a message, gzipped.
pub fn thread_url(base: &str, list: &str, msgid: &str) -> String {
    format!(
        "{}/{}/{}/t.mbox.gz",
        base.trim_end_matches('/'),
        list,
        encode_msgid(msgid)
    )
}

/// `<base>/<list>/?x=m[&t=1]&q=<query>`: a search answered as a gzipped mbox
/// (to be POSTed; public-inbox answers HTML to a GET).
pub fn search_url(base: &str, list: &str, query: &str, threads: bool) -> String {
    format!(
        "{}/{}/?x=m{}&q={}",
        base.trim_end_matches('/'),
        list,
        if threads { "&t=1" } else { "" },
        encode_query(query)
    )
}

/// `<base>/<list>/<msgid>/?x=m&q=<query>`: a search within one message's thread.
pub fn thread_search_url(base: &str, list: &str, msgid: &str, query: &str) -> String {
    format!(
        "{}/{}/{}/?x=m&q={}",
        base.trim_end_matches('/'),
        list,
        encode_msgid(msgid),
        encode_query(query)
    )
}

/// What a base URL names: a public-inbox server, and the inbox on it when
/// the URL ends in one (`https://lore.kernel.org/all`, the form b4's and
/// lei's configurations use).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Base {
    /// `scheme://host[:port]`, and the path before the inbox for a server
    /// mounted under one (`https://example.org/lore` of
    /// `https://example.org/lore/all`).
    pub server: String,
    /// The inbox the URL ends in; `None` for a URL without a path.
    pub inbox: Option<String>,
}

impl Base {
    /// The inbox's URL: the server and `inbox`, else `default`.
    pub fn inbox_url(&self, default: &str) -> String {
        format!(
            "{}/{}",
            self.server,
            self.inbox.as_deref().unwrap_or(default)
        )
    }
}

/// Reads a base URL: a server (`https://lore.kernel.org`), or an inbox on
/// it (`https://lore.kernel.org/all/`, `https://lore.kernel.org/linux-ext4`),
/// whose path's last part is the inbox and the rest the server's path. A URL
/// that is neither (not http or https, a query, a Message-ID or b4's `%s`
/// where the inbox goes) is [`LoreError::BadBase`], saying what a base is.
pub fn parse_base(input: &str) -> Result<Base> {
    let bad = |reason: String| LoreError::BadBase {
        base: input.to_string(),
        reason,
    };
    let text = input.trim();
    let lower = text.to_ascii_lowercase();
    let scheme = if lower.starts_with("https://") {
        "https://"
    } else if lower.starts_with("http://") {
        "http://"
    } else {
        return Err(bad("only http:// and https:// links are used".into()));
    };
    if text.contains("%s") {
        return Err(bad(
            "'%s' stands for a Message-ID in b4's masks; name the inbox without it".into(),
        ));
    }
    if text.contains(['?', '#']) {
        return Err(bad("a query or a fragment has no place in it".into()));
    }
    if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad("it holds white space or a control character".into()));
    }
    let rest = text[scheme.len()..].trim_end_matches('/');
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    if host.is_empty() || host.contains('@') {
        return Err(bad("it names no host".into()));
    }
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let server = |segs: &[&str]| {
        let mut s = format!("{scheme}{host}");
        for seg in segs {
            s.push('/');
            s.push_str(seg);
        }
        s
    };
    let Some((&inbox, before)) = segs.split_last() else {
        return Ok(Base {
            server: server(&[]),
            inbox: None,
        });
    };
    if inbox.contains('@') {
        return Err(bad(format!(
            "its last part '{inbox}' is a Message-ID, not an inbox"
        )));
    }
    if inbox == "r" {
        return Err(bad(
            "'/r/' is lore's link to a message, not an inbox: use 'all' in its place".into(),
        ));
    }
    let name_ok = |s: &str| {
        s != "."
            && s != ".."
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._+".contains(&b))
    };
    if let Some(seg) = segs.iter().find(|s| !name_ok(s)) {
        return Err(bad(format!(
            "'{seg}' is no inbox name (letters, digits, '-', '.', '_', '+')"
        )));
    }
    Ok(Base {
        server: server(before),
        inbox: Some(inbox.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_is_a_server_or_an_inbox_on_it() {
        let b = |s: &str| parse_base(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        let server = b("https://lore.kernel.org/");
        assert_eq!(server.server, "https://lore.kernel.org");
        assert_eq!(server.inbox, None);
        assert_eq!(server.inbox_url("all"), "https://lore.kernel.org/all");
        for (url, inbox) in [
            ("https://lore.kernel.org/all", "all"),
            ("https://lore.kernel.org/all/", "all"),
            (" https://lore.kernel.org/linux-ext4// ", "linux-ext4"),
            ("HTTP://127.0.0.1:8080/oe-lkp", "oe-lkp"),
        ] {
            let got = b(url);
            assert_eq!(got.inbox.as_deref(), Some(inbox), "{url}");
            assert!(!got.server.ends_with(inbox), "{url}: {got:?}");
            assert_eq!(got.inbox_url("x"), format!("{}/{inbox}", got.server));
        }
        assert_eq!(
            b("HTTP://127.0.0.1:8080/oe-lkp").server,
            "http://127.0.0.1:8080"
        );
        // A server mounted under a path: the last part is the inbox.
        let mounted = b("https://example.org/lore/all/");
        assert_eq!(mounted.server, "https://example.org/lore");
        assert_eq!(mounted.inbox.as_deref(), Some("all"));
        for (url, says) in [
            ("lore.kernel.org/all", "http"),
            ("javascript:alert(1)//", "http"),
            ("https://lore.kernel.org/all/%s", "%s"),
            ("https://lore.kernel.org/all/?q=s:regression", "query"),
            (
                "https://lore.kernel.org/all/20240101.1@intel.com/",
                "Message-ID",
            ),
            ("https://lore.kernel.org/r/", "/r/"),
            ("https:///all", "host"),
            ("https://lore.kernel.org/a b", "white space"),
            ("https://lore.kernel.org/\x1b[2Jall", "control character"),
            ("https://lore.kernel.org/../all", "'..'"),
        ] {
            let e = parse_base(url).expect_err(url).to_string();
            assert!(e.contains(says), "{url}: {e}");
            assert!(e.contains("https://lore.kernel.org/all"), "{url}: {e}");
        }
    }

    fn t(input: &str) -> Target {
        parse_target(input).unwrap_or_else(|e| panic!("{input}: {e}"))
    }

    const ID: &str = "20200925071217.GO28663@shao2-debian";

    #[test]
    fn dot_ids_stay_one_path_segment() {
        assert_eq!(encode_msgid("."), "%2E");
        assert_eq!(encode_msgid(".."), "%2E%2E");
        assert_eq!(
            thread_url("https://lore.kernel.org", "all", ".."),
            "https://lore.kernel.org/all/%2E%2E/t.mbox.gz"
        );
        assert_eq!(encode_msgid("a.b@c"), "a.b@c");
    }

    #[test]
    fn bare_ids() {
        for input in [
            ID,
            "<20200925071217.GO28663@shao2-debian>",
            "  <20200925071217.GO28663@shao2-debian>\n",
            "id:20200925071217.GO28663@shao2-debian",
            "mid:<20200925071217.GO28663@shao2-debian>",
            "rfc822msgid:20200925071217.GO28663@shao2-debian",
        ] {
            let got = t(input);
            assert_eq!(got.msgid, ID, "{input}");
            assert_eq!(got.base, None);
            assert_eq!(got.list, None);
        }
        assert!(parse_target("").is_err());
        assert!(parse_target("<>").is_err());
        assert!(parse_target("two words@x").is_err());
    }

    #[test]
    fn lore_urls() {
        let lore = Some("https://lore.kernel.org".to_string());
        let cases = [
            (
                "https://lore.kernel.org/r/20200925071217.GO28663@shao2-debian",
                Some("all"),
            ),
            (
                "https://lore.kernel.org/all/20200925071217.GO28663@shao2-debian/",
                Some("all"),
            ),
            (
                "https://lore.kernel.org/linux-ext4/20200925071217.GO28663@shao2-debian/T/#u",
                Some("linux-ext4"),
            ),
            (
                "https://lore.kernel.org/linux-ext4/20200925071217.GO28663@shao2-debian/t.mbox.gz",
                Some("linux-ext4"),
            ),
            (
                "https://lore.kernel.org/linux-ext4/20200925071217.GO28663%40shao2-debian/",
                Some("linux-ext4"),
            ),
            (
                "lore.kernel.org/lkml/20200925071217.GO28663@shao2-debian/raw",
                Some("lkml"),
            ),
            (
                "https://lore.kernel.org/20200925071217.GO28663@shao2-debian",
                None,
            ),
            (
                "HTTPS://LORE.KERNEL.ORG/all/20200925071217.GO28663@shao2-debian/?q=x",
                Some("all"),
            ),
        ];
        for (url, list) in cases {
            let got = parse_target(url).unwrap_or_else(|e| panic!("{url}: {e}"));
            assert_eq!(got.msgid, ID, "{url}");
            assert_eq!(got.base, lore, "{url}");
            assert_eq!(got.list.as_deref(), list, "{url}");
        }
    }

    #[test]
    fn redirector_and_other_urls() {
        for url in [
            "https://lkml.kernel.org/r/20200925071217.GO28663@shao2-debian",
            "lkml.kernel.org/r/20200925071217.GO28663@shao2-debian",
            "https://patch.msgid.link/20200925071217.GO28663@shao2-debian",
            "https://msgid.link/20200925071217.GO28663%40shao2-debian",
            "https://patchwork.kernel.org/project/linux-ext4/patch/20200925071217.GO28663@shao2-debian/",
        ] {
            let got = t(url);
            assert_eq!(got.msgid, ID, "{url}");
            assert_eq!(got.base, None, "{url}");
        }
        let other = t("http://127.0.0.1:8080/linux-nfs/abc%2Fdef%25x%3Fy%23z%20w@h/");
        assert_eq!(other.msgid, "abc/def%x?y#z w@h");
        assert_eq!(other.base.as_deref(), Some("http://127.0.0.1:8080"));
        assert_eq!(other.list.as_deref(), Some("linux-nfs"));
        // A Message-ID without '@' in a public-inbox URL.
        let noat = t("https://lore.kernel.org/git/pine.LNX.4.58.0504150753440/");
        assert_eq!(noat.msgid, "pine.LNX.4.58.0504150753440");
        assert!(parse_target("https://lore.kernel.org/all/").is_err());
        // A Message-ID holding a '/' is not taken for a scheme-less URL.
        assert_eq!(t("a.b/c@d.example").msgid, "a.b/c@d.example");
    }

    #[test]
    fn encoding_round_trips() {
        let odd = "a/b%c?d#e f<g>\"h+i=j&k@host.example";
        let enc = encode_msgid(odd);
        assert_eq!(enc, "a%2Fb%25c%3Fd%23e%20f%3Cg%3E%22h+i=j&k@host.example");
        let url = format!("https://lore.kernel.org/all/{enc}/");
        assert_eq!(t(&url).msgid, odd);
        assert_eq!(
            thread_url("https://lore.kernel.org/", "all", ID),
            "https://lore.kernel.org/all/20200925071217.GO28663@shao2-debian/t.mbox.gz"
        );
        assert_eq!(encode_msgid("ünï@x"), "%C3%BCn%C3%AF@x");
    }

    #[test]
    fn query_encoding() {
        assert_eq!(
            search_url(
                "https://lore.kernel.org",
                "all",
                "f:lkp@intel.com AND s:\"regression\"",
                true
            ),
            "https://lore.kernel.org/all/?x=m&t=1&q=f:lkp@intel.com+AND+s:%22regression%22"
        );
        assert_eq!(encode_query("a+b&c=d#e%f"), "a%2Bb%26c%3Dd%23e%25f");
        assert_eq!(
            thread_search_url("http://h", "all", "x/y@z", "rt:1704067200.."),
            "http://h/all/x%2Fy@z/?x=m&q=rt:1704067200.."
        );
    }
}
