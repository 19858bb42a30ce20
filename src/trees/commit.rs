//! What is kept of one commit: ids, title, author, times, and the few things
//! its message may say about regressions (trailers, a reverted commit, a
//! stable backport's upstream commit). A message that mentions none of them
//! costs only a scan for a handful of literals (a [`regex::bytes::Regex`]
//! alternation, run by its literal prefilter).

use std::sync::LazyLock;

use gix::ObjectId;
use gix::objs::bstr::ByteSlice;
use regex::bytes::Regex;

use crate::evidence::trailer::parse_trailers;
use crate::model::Trailer;

/// Trailer keys kept from commit messages (canonical case, as
/// [`parse_trailers`] gives them).
pub const KEPT_TRAILERS: [&str; 6] = [
    "Fixes",
    "Closes",
    "Link",
    "Reported-by",
    "Tested-by",
    "Reported-and-tested-by",
];

/// One commit, parsed from its object: compact, owned, no message kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    /// Full id.
    pub id: ObjectId,
    /// Parent ids, in order (first parent first).
    pub parents: Vec<ObjectId>,
    /// First non-blank line of the message, trimmed.
    pub title: String,
    /// Author name, trimmed.
    pub author_name: String,
    /// Author email, without the angle brackets.
    pub author_email: String,
    /// Author time, seconds since the epoch.
    pub author_time: i64,
    /// Committer time, seconds since the epoch (what walks order by).
    pub committer_time: i64,
    /// The message's `Fixes`, `Closes`, `Link`, `Reported-by`, `Tested-by`
    /// (and `Reported-and-tested-by`) trailers, in message order.
    pub trailers: Vec<Trailer>,
    /// The commit named by `This reverts commit <40 hex>.`
    pub reverts: Option<ObjectId>,
    /// A stable backport's upstream commit: `commit <40 hex> upstream.` or
    /// `[ Upstream commit <40 hex> ]`.
    pub upstream: Option<ObjectId>,
}

/// Literals one of which a message must hold to be parsed further.
static PREFILTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)fixes:|closes:|link:|reported-by:|tested-by:|reverts commit|upstream commit|upstream\.",
    )
    .expect("static regex")
});

static REVERTS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"This reverts commit ([0-9a-f]{40})\b").expect("static regex"));

static UPSTREAM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?mi)^[ \t]*(?:commit ([0-9a-f]{40}) upstream\b|\[[ \t]*upstream commit ([0-9a-f]{40})[ \t]*\])",
    )
    .expect("static regex")
});

/// Why a commit object could not be parsed.
pub(crate) type ParseError = String;

/// Parses commit `id` from its object bytes.
pub(crate) fn parse(id: ObjectId, data: &[u8]) -> Result<Commit, ParseError> {
    let c = gix::objs::CommitRef::from_bytes(data, id.kind()).map_err(|e| e.to_string())?;
    let author = c.author().map_err(|e| format!("author: {e}"))?.trim();
    let committer = c.committer().map_err(|e| format!("committer: {e}"))?;
    let message: &[u8] = c.message.as_ref();
    let mut commit = Commit {
        id,
        parents: c.parents().collect(),
        title: title(message),
        author_name: author.name.to_str_lossy().into_owned(),
        author_email: author.email.to_str_lossy().into_owned(),
        author_time: author.seconds(),
        committer_time: committer.seconds(),
        trailers: Vec::new(),
        reverts: None,
        upstream: None,
    };
    if PREFILTER.is_match(message) {
        read_message(&mut commit, message);
    }
    Ok(commit)
}

/// The first non-blank line of `message`, trimmed.
fn title(message: &[u8]) -> String {
    message
        .lines()
        .map(|l| l.trim())
        .find(|l| !l.is_empty())
        .map(|l| l.to_str_lossy().into_owned())
        .unwrap_or_default()
}

/// Fills the message-derived fields (the prefilter matched).
fn read_message(commit: &mut Commit, message: &[u8]) {
    let text = message.to_str_lossy();
    commit.trailers = parse_trailers(&text)
        .into_iter()
        .filter(|t| t.quote_depth == 0 && !t.suggested && KEPT_TRAILERS.contains(&t.key.as_str()))
        .collect();
    commit.reverts = REVERTS
        .captures(message)
        .and_then(|c| c.get(1))
        .and_then(|m| ObjectId::from_hex(m.as_bytes()).ok());
    commit.upstream = UPSTREAM
        .captures(message)
        .and_then(|c| c.get(1).or_else(|| c.get(2)))
        .and_then(|m| ObjectId::from_hex(m.as_bytes()).ok());
}

/// What a walk needs of a commit: its parents and committer time, read from
/// the header without touching the message.
#[derive(Debug, Clone, Default)]
pub(crate) struct Header {
    pub parents: Vec<ObjectId>,
    pub time: i64,
}

/// Parses the header of a commit object.
pub(crate) fn header(data: &[u8], kind: gix::hash::Kind) -> Result<Header, ParseError> {
    use gix::objs::commit::ref_iter::Token;
    let mut h = Header::default();
    for token in gix::objs::CommitRefIter::from_bytes(data, kind) {
        match token.map_err(|e| e.to_string())? {
            Token::Parent { id } => h.parents.push(id),
            Token::Committer { signature } => {
                h.time = signature.seconds();
                return Ok(h);
            }
            _ => {}
        }
    }
    Err("no committer line".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(message: &str, parents: &[&str]) -> Vec<u8> {
        let mut s = String::from("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n");
        for p in parents {
            s.push_str(&format!("parent {p}\n"));
        }
        s.push_str("author A U Thor <a@example.org> 1700000000 +0100\n");
        s.push_str("committer C O Mitter <c@example.org> 1700000100 +0000\n\n");
        s.push_str(message);
        s.into_bytes()
    }

    const P: &str = "0123456789abcdef0123456789abcdef01234567";

    #[test]
    fn header_fields() {
        let id = ObjectId::null(gix::hash::Kind::Sha1);
        let c = parse(id, &object("\n  mm: fix a leak  \n\nbody\n", &[P])).expect("parses");
        assert_eq!(c.title, "mm: fix a leak");
        assert_eq!(c.author_name, "A U Thor");
        assert_eq!(c.author_email, "a@example.org");
        assert_eq!(c.author_time, 1_700_000_000);
        assert_eq!(c.committer_time, 1_700_000_100);
        assert_eq!(c.parents.len(), 1);
        assert!(c.trailers.is_empty() && c.reverts.is_none() && c.upstream.is_none());
        let h = header(&object("x\n", &[P, P]), gix::hash::Kind::Sha1).expect("parses");
        assert_eq!((h.parents.len(), h.time), (2, 1_700_000_100));
    }

    #[test]
    fn message_fields() {
        let id = ObjectId::null(gix::hash::Kind::Sha1);
        let msg = format!(
            "Revert \"x: y\"\n\nThis reverts commit {P}.\n\n\
             Fixes: 0123456789ab (\"x: y\")\n\
             Reported-by: kernel test robot <oliver.sang@intel.com>\n\
             Closes: https://lore.kernel.org/oe-lkp/202401011234.abcdef-oliver.sang@intel.com\n\
             Link: https://lore.kernel.org/r/20240101.patch@example.org\n\
             Tested-by: T <t@example.org>\n\
             Signed-off-by: S <s@example.org>\n"
        );
        let c = parse(id, &object(&msg, &[])).expect("parses");
        let keys: Vec<&str> = c.trailers.iter().map(|t| t.key.as_str()).collect();
        assert_eq!(
            keys,
            ["Fixes", "Reported-by", "Closes", "Link", "Tested-by"]
        );
        assert_eq!(c.trailers[0].commit.as_deref(), Some("0123456789ab"));
        assert_eq!(c.reverts.map(|r| r.to_string()).as_deref(), Some(P));
        for stable in [
            format!("x: y\n\ncommit {P} upstream.\n\nbody\n"),
            format!("x: y\n\n[ Upstream commit {P} ]\n\nbody\n"),
        ] {
            let c = parse(id, &object(&stable, &[])).expect("parses");
            assert_eq!(
                c.upstream.map(|r| r.to_string()).as_deref(),
                Some(P),
                "{stable}"
            );
        }
    }
}
