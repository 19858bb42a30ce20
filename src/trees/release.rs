//! The first mainline release that contains each commit (see
//! [`ReleaseIndex`]).

use std::sync::LazyLock;

use gix::ObjectId;
use gix::hashtable::HashMap;
use regex::Regex;

use super::error::{Result, TreesError};
use super::repo::{Reader, Repo};

/// A mainline release version, ordered as releases come out: every
/// `-rcN` before its release, `v6.9` before `v6.10-rc1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Release {
    /// `6` in `v6.9`.
    pub major: u16,
    /// `9` in `v6.9`.
    pub minor: u16,
    /// `39` in `v2.6.39`; 0 from v3.0 on.
    pub patch: u16,
    /// `3` in `v6.9-rc3`; `u16::MAX` for the release itself.
    pub rc: u16,
}

impl Release {
    /// True for a release candidate (`-rcN`).
    pub fn is_rc(&self) -> bool {
        self.rc != u16::MAX
    }
}

static RELEASE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^v([0-9]{1,4})\.([0-9]{1,4})(?:\.([0-9]{1,4}))?(?:-rc([0-9]{1,4}))?$")
        .expect("static regex")
});

/// The release a mainline tag name stands for: `v2.6.N[-rcM]` before v3.0,
/// `vX.Y[-rcM]` from v3.0 on. Stable tags (`v6.8.3`, `v2.6.32.5`) and other
/// names give `None`.
pub fn parse_release(tag: &str) -> Option<Release> {
    let c = RELEASE.captures(tag)?;
    let num = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u16>().ok());
    let (major, minor) = (num(1)?, num(2)?);
    let patch = num(3);
    let rc = match c.get(4) {
        Some(_) => num(4).filter(|&n| n > 0 && n < u16::MAX)?,
        None => u16::MAX,
    };
    let patch = match (major, minor, patch) {
        (2, 6, Some(p)) => p,
        (m, _, None) if m >= 3 => 0,
        _ => return None,
    };
    Some(Release {
        major,
        minor,
        patch,
        rc,
    })
}

/// True when release `have` is `limit` or an earlier one (`v6.9-rc3` is
/// at most `v6.9`); names that are no mainline releases compare as text.
/// A limit without the `v` (`6.9`) is taken with it.
pub fn release_at_most(have: &str, limit: &str) -> bool {
    let norm = |s: &str| {
        let s = s.trim();
        if s.starts_with('v') {
            s.to_string()
        } else {
            format!("v{s}")
        }
    };
    match (parse_release(&norm(have)), parse_release(&norm(limit))) {
        (Some(a), Some(b)) => a <= b,
        _ => have == limit,
    }
}

/// One release tag of the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseTag {
    /// Tag name (`v6.9-rc3`).
    pub name: String,
    /// Its version.
    pub release: Release,
    /// The commit it points to (tag peeled).
    pub commit: ObjectId,
    /// Commits first released by this tag.
    pub commits: u32,
}

/// What [`ReleaseIndex::update`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReleaseUpdate {
    /// Tags walked, in version order.
    pub new_tags: Vec<String>,
    /// Commits assigned to them.
    pub commits: u64,
    /// The index was rebuilt from scratch: a new tag is older than an
    /// indexed one, or an indexed tag now points elsewhere.
    pub rebuilt: bool,
}

/// Which release first contains each commit of a repository. Build it with
/// [`ReleaseIndex::update`] on an empty index, store
/// [`ReleaseIndex::to_bytes`], and update the loaded index after a fetch.
///
/// The first mainline release that contains each commit.
///
/// Release tags (`v2.6.39`, `v6.9-rc3`, `v6.9`; stable tags such as
/// `v6.8.3` and tags pointing at trees are left out) are walked in version
/// order, each assigning itself to every commit it reaches that no earlier
/// tag reached, stopping at commits already assigned. So each commit is read
/// once over the whole history, and an update with new tags walks only the
/// commits they brought. For a kernel, where release tags are made in
/// version order, this is the tag `git describe --contains` names (which
/// prefers the oldest tag by tag date).
///
/// The index keeps the commit ids sorted with a tag number beside each (22
/// bytes a commit): a lookup is a binary search. [`ReleaseIndex::to_bytes`]
/// is that, as it is held.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReleaseIndex {
    /// In version order.
    tags: Vec<ReleaseTag>,
    /// Sorted.
    ids: Vec<ObjectId>,
    /// `tags` index of each of `ids`.
    tag_of: Vec<u16>,
}

const MAGIC: &[u8; 8] = b"RTRELIDX";
const FORMAT: u32 = 1;

impl ReleaseIndex {
    /// An empty index.
    pub fn new() -> ReleaseIndex {
        ReleaseIndex::default()
    }

    /// The index of `repo`'s release tags, built from scratch.
    pub fn build(repo: &Repo) -> Result<ReleaseIndex> {
        let mut index = ReleaseIndex::new();
        index.update(repo)?;
        Ok(index)
    }

    /// Walks the release tags of `repo` not in the index yet, in version
    /// order, from each down to commits already assigned. Rebuilds when a
    /// new tag is older than the newest indexed one or an indexed tag moved.
    /// Indexed tags gone from the repository are kept. A shallow clone is
    /// refused ([`TreesError::Shallow`]): the answers would be incomplete.
    pub fn update(&mut self, repo: &Repo) -> Result<ReleaseUpdate> {
        if repo.is_shallow() {
            return Err(TreesError::Shallow {
                path: repo.path().to_path_buf(),
            });
        }
        let found = release_tags(repo)?;
        let indexed: std::collections::HashMap<&str, ObjectId> = self
            .tags
            .iter()
            .map(|t| (t.name.as_str(), t.commit))
            .collect();
        let moved = found
            .iter()
            .any(|t| indexed.get(t.name.as_str()).is_some_and(|c| *c != t.commit));
        let newest = self.tags.last().map(|t| t.release);
        let mut fresh: Vec<ReleaseTag> = found
            .iter()
            .filter(|t| !indexed.contains_key(t.name.as_str()))
            .cloned()
            .collect();
        let rebuilt = moved || fresh.iter().any(|t| Some(t.release) < newest);
        drop(indexed);
        if rebuilt {
            *self = ReleaseIndex::new();
            fresh = found;
        }
        if self.tags.len() + fresh.len() > usize::from(u16::MAX) {
            return Err(TreesError::Git {
                path: repo.path().to_path_buf(),
                refname: "refs/tags".into(),
                reason: "more than 65535 release tags".into(),
            });
        }
        let mut report = ReleaseUpdate {
            rebuilt,
            ..ReleaseUpdate::default()
        };
        let mut added: HashMap<ObjectId, u16> = HashMap::default();
        // One reader for all tags: each opened anew would map the index anew.
        let mut reader = Reader::new(repo, "refs/tags")?;
        let graph = reader.commit_graph();
        for mut tag in fresh {
            let number = u16::try_from(self.tags.len()).unwrap_or(u16::MAX);
            reader.refname = format!("refs/tags/{}", tag.name);
            tag.commits = self.assign(&mut reader, graph.as_ref(), &tag, number, &mut added)?;
            report.commits += u64::from(tag.commits);
            report.new_tags.push(tag.name.clone());
            self.tags.push(tag);
        }
        self.merge(added);
        Ok(report)
    }

    /// Assigns tag `number` to the commits `tag` reaches that are not
    /// assigned yet; returns how many.
    fn assign(
        &self,
        reader: &mut Reader<'_>,
        graph: Option<&gix::commitgraph::Graph>,
        tag: &ReleaseTag,
        number: u16,
        added: &mut HashMap<ObjectId, u16>,
    ) -> Result<u32> {
        if self.lookup(&tag.commit).is_some() || added.contains_key(&tag.commit) {
            return Ok(0);
        }
        let mut count = 1u32;
        added.insert(tag.commit, number);
        let mut stack = vec![tag.commit];
        let mut parents = Vec::new();
        while let Some(id) = stack.pop() {
            parents_of(reader, graph, &id, &mut parents)?;
            for p in parents.drain(..) {
                if self.lookup(&p).is_none() && !added.contains_key(&p) {
                    added.insert(p, number);
                    count += 1;
                    stack.push(p);
                }
            }
        }
        Ok(count)
    }

    /// Merges newly assigned commits into the sorted arrays.
    fn merge(&mut self, added: HashMap<ObjectId, u16>) {
        if added.is_empty() {
            return;
        }
        let mut new: Vec<(ObjectId, u16)> = added.into_iter().collect();
        new.sort_unstable_by_key(|a| a.0);
        let old_ids = std::mem::take(&mut self.ids);
        let old_tags = std::mem::take(&mut self.tag_of);
        let total = old_ids.len() + new.len();
        self.ids.reserve_exact(total);
        self.tag_of.reserve_exact(total);
        let mut old = old_ids.into_iter().zip(old_tags).peekable();
        let mut new = new.into_iter().peekable();
        loop {
            let take_old = match (old.peek(), new.peek()) {
                (Some(o), Some(n)) => o.0 < n.0,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let next = if take_old { old.next() } else { new.next() };
            if let Some((id, t)) = next {
                self.ids.push(id);
                self.tag_of.push(t);
            }
        }
    }

    fn lookup(&self, id: &gix::oid) -> Option<u16> {
        let i = self.ids.binary_search_by(|x| x.as_ref().cmp(id)).ok()?;
        self.tag_of.get(i).copied()
    }

    /// The first release tag containing `commit`; `None` when no release
    /// tag contains it (not released yet, or not in this repository).
    pub fn first_release(&self, commit: &gix::oid) -> Option<&ReleaseTag> {
        self.tags.get(usize::from(self.lookup(commit)?))
    }

    /// The indexed tags, in version order, with the commits each released.
    pub fn tags(&self) -> &[ReleaseTag] {
        &self.tags
    }

    /// Commits in the index.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True when no commit is indexed.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The index as bytes to store: a header, the tags (name, commit, count)
    /// and the sorted commit ids with a tag number each (22 bytes a commit).
    pub fn to_bytes(&self) -> Vec<u8> {
        let names: usize = self.tags.iter().map(|t| t.name.len() + 26).sum();
        let mut out = Vec::with_capacity(24 + names + self.ids.len() * 22);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT.to_le_bytes());
        out.extend_from_slice(&(self.tags.len() as u32).to_le_bytes());
        for t in &self.tags {
            let name = t.name.as_bytes();
            out.extend_from_slice(&(name.len().min(usize::from(u16::MAX)) as u16).to_le_bytes());
            out.extend_from_slice(name.get(..usize::from(u16::MAX)).unwrap_or(name));
            out.extend_from_slice(t.commit.as_bytes());
            out.extend_from_slice(&t.commits.to_le_bytes());
        }
        out.extend_from_slice(&(self.ids.len() as u32).to_le_bytes());
        for id in &self.ids {
            out.extend_from_slice(id.as_bytes());
        }
        for t in &self.tag_of {
            out.extend_from_slice(&t.to_le_bytes());
        }
        out
    }

    /// Reads what [`ReleaseIndex::to_bytes`] wrote, checking it.
    pub fn from_bytes(bytes: &[u8]) -> Result<ReleaseIndex> {
        let mut r = Bytes(bytes);
        if r.take(8)? != MAGIC {
            return Err(bad("not a release index"));
        }
        if r.u32()? != FORMAT {
            return Err(bad("unknown format version"));
        }
        let ntags = r.u32()? as usize;
        let mut tags = Vec::with_capacity(ntags.min(1 << 16));
        for _ in 0..ntags {
            let len = usize::from(r.u16()?);
            let name = std::str::from_utf8(r.take(len)?)
                .map_err(|_| bad("tag name is not UTF-8"))?
                .to_string();
            let release = parse_release(&name).ok_or_else(|| bad("not a release tag name"))?;
            let commit = ObjectId::try_from(r.take(20)?).map_err(|_| bad("bad commit id"))?;
            let commits = r.u32()?;
            tags.push(ReleaseTag {
                name,
                release,
                commit,
                commits,
            });
        }
        if tags.windows(2).any(|w| w[0].release >= w[1].release) {
            return Err(bad("tags out of version order"));
        }
        let n = r.u32()? as usize;
        if r.0.len() != n * 22 {
            return Err(bad("length does not match the commit count"));
        }
        let (id_bytes, tag_bytes) = r.0.split_at(n * 20);
        let ids: Vec<ObjectId> = id_bytes
            .chunks_exact(20)
            .map(|c| ObjectId::try_from(c).map_err(|_| bad("bad commit id")))
            .collect::<Result<_>>()?;
        if ids.windows(2).any(|w| w[0] >= w[1]) {
            return Err(bad("commit ids not sorted"));
        }
        let tag_of: Vec<u16> = tag_bytes
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let mut counts = vec![0u32; tags.len()];
        for &t in &tag_of {
            *counts
                .get_mut(usize::from(t))
                .ok_or_else(|| bad("tag number out of range"))? += 1;
        }
        if counts.iter().zip(&tags).any(|(c, t)| *c != t.commits) {
            return Err(bad("tag commit counts do not match"));
        }
        Ok(ReleaseIndex { tags, ids, tag_of })
    }
}

/// The parents of `id`, from the commit-graph when it holds `id` (no object
/// to inflate), else from the commit object.
fn parents_of(
    reader: &mut Reader<'_>,
    graph: Option<&gix::commitgraph::Graph>,
    id: &gix::oid,
    out: &mut Vec<ObjectId>,
) -> Result<()> {
    if let Some(g) = graph
        && let Some(pos) = g.lookup(id)
    {
        for p in g.commit_at(pos).iter_parents() {
            let p = p.map_err(|e| TreesError::Git {
                path: reader.repo.path().to_path_buf(),
                refname: reader.refname.clone(),
                reason: format!("commit-graph: {e}"),
            })?;
            out.push(g.id_at(p).to_owned());
        }
        return Ok(());
    }
    out.extend(reader.header(id)?.parents);
    Ok(())
}

fn bad(reason: &str) -> TreesError {
    TreesError::BadIndex {
        reason: reason.to_string(),
    }
}

/// A cursor over stored bytes.
struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.0.len() < n {
            return Err(bad("truncated"));
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Ok(head)
    }
    fn u16(&mut self) -> Result<u16> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// The mainline release tags of `repo` that point (peeled) at commits, in
/// version order, with no commit counts yet.
pub fn release_tags(repo: &Repo) -> Result<Vec<ReleaseTag>> {
    let git_err = |reason: String| TreesError::Git {
        path: repo.path().to_path_buf(),
        refname: "refs/tags".into(),
        reason,
    };
    let git = repo.git()?;
    let platform = git.references().map_err(|e| git_err(e.to_string()))?;
    let mut out = Vec::new();
    for r in platform.tags().map_err(|e| git_err(e.to_string()))? {
        let mut r = r.map_err(|e| git_err(e.to_string()))?;
        let name = r.name().shorten().to_string();
        let Some(release) = parse_release(&name) else {
            continue;
        };
        let id = r
            .peel_to_id()
            .map_err(|e| git_err(format!("peeling {name}: {e}")))?
            .detach();
        match git.try_find_header(id) {
            Ok(Some(h)) if h.kind() == gix::objs::Kind::Commit => {}
            // v2.6.11 points at a tree.
            Ok(Some(_)) => continue,
            Ok(None) => {
                return Err(super::repo::missing(
                    repo.path(),
                    &format!("refs/tags/{name}"),
                    &id,
                ));
            }
            Err(e) => {
                return Err(super::repo::corrupt(
                    repo.path(),
                    &format!("refs/tags/{name}"),
                    &id,
                    e.to_string(),
                ));
            }
        }
        out.push(ReleaseTag {
            name,
            release,
            commit: id,
            commits: 0,
        });
    }
    out.sort_by_key(|a| a.release);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_names_and_order() {
        let names = [
            "v2.6.12-rc2",
            "v2.6.12",
            "v2.6.39",
            "v3.0-rc1",
            "v3.0",
            "v6.9-rc1",
            "v6.9-rc7",
            "v6.9",
            "v6.10-rc1",
            "v6.10",
        ];
        let parsed: Vec<Release> = names.iter().map(|n| parse_release(n).expect(n)).collect();
        assert!(parsed.windows(2).all(|w| w[0] < w[1]), "{parsed:?}");
        for not in [
            "v6.8.3",
            "v2.6.32.5",
            "v2.6",
            "6.9",
            "v6.9-rc0",
            "v6.9-next",
            "v2.4.1",
        ] {
            assert_eq!(parse_release(not), None, "{not}");
        }
        assert!(parse_release("v6.9-rc3").is_some_and(|r| r.is_rc()));
    }

    #[test]
    fn bytes_round_trip_and_checks() {
        let id = |b: u8| ObjectId::from_bytes_or_panic(&[b; 20]);
        let tag = |name: &str, c: u8, n: u32| ReleaseTag {
            name: name.into(),
            release: parse_release(name).expect("release"),
            commit: id(c),
            commits: n,
        };
        let index = ReleaseIndex {
            tags: vec![tag("v6.9-rc1", 3, 2), tag("v6.9", 9, 1)],
            ids: vec![id(1), id(3), id(9)],
            tag_of: vec![0, 0, 1],
        };
        let bytes = index.to_bytes();
        let back = ReleaseIndex::from_bytes(&bytes).expect("reads");
        assert_eq!(back, index);
        assert_eq!(
            back.first_release(&id(9)).map(|t| t.name.as_str()),
            Some("v6.9")
        );
        assert_eq!(
            back.first_release(&id(1)).map(|t| t.name.as_str()),
            Some("v6.9-rc1")
        );
        assert_eq!(back.first_release(&id(2)), None);
        assert!(ReleaseIndex::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut unsorted = bytes.clone();
        let at = bytes.len() - 6 - 60;
        unsorted[at..at + 20].copy_from_slice(&[7; 20]);
        assert!(ReleaseIndex::from_bytes(&unsorted).is_err());
        assert!(ReleaseIndex::from_bytes(b"nonsense").is_err());
    }
}
