//! An open kernel tree, ref resolution, and the object reader walks use.

use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::hashtable::HashSet;
use gix::objs::Find;

use super::commit::{self, Commit, Header};
use super::error::{Result, TreesError};

/// Objects read through one mapping of the packs. gix maps each pack and
/// index whole, and the pages a walk touches stay resident while mapped (the
/// kernel maps large read-ahead chunks at each fault, so a few thousand
/// lookups already map most of an index's id table). A handle opened anew
/// drops them. A period of this many reads lowers the peak RSS of a walk of
/// a large repository at no measurable cost; a much shorter one costs time
/// (every new mapping faults its pages in again) and saves little
/// (`benches/trees.md`).
pub const READS_PER_MAPPING: usize = 1 << 14;

/// A local kernel clone (bare or not). Each operation opens its own gix
/// handle, so nothing stays mapped between operations.
pub struct Repo {
    path: PathBuf,
    shallow: HashSet<ObjectId>,
}

impl std::fmt::Debug for Repo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Repo")
            .field("path", &self.path)
            .field("shallow", &!self.shallow.is_empty())
            .finish()
    }
}

/// Opens the repository at `path` (no search upwards), reading only
/// its own configuration.
fn open_git(path: &Path) -> std::result::Result<gix::Repository, String> {
    let opts = gix::open::Options::isolated();
    gix::open_opts(path, opts).map_err(|e| e.to_string())
}

impl Repo {
    /// Opens the git repository at `path` (a work tree or a git directory).
    pub fn open(path: impl AsRef<Path>) -> Result<Repo> {
        let path = path.as_ref().to_path_buf();
        crate::source::sigbus::reading(&path);
        super::guard::check_repository(&path)?;
        let git = open_git(&path).map_err(|reason| TreesError::NotARepository {
            path: path.clone(),
            reason,
        })?;
        let shallow = git
            .shallow_commits()
            .map_err(|e| TreesError::Git {
                path: path.clone(),
                refname: "shallow".into(),
                reason: e.to_string(),
            })?
            .map(|c| c.iter().copied().collect())
            .unwrap_or_default();
        Ok(Repo { path, shallow })
    }

    /// The path the repository was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True for a shallow clone: walks stop at the shallow boundary and
    /// release lookup refuses ([`TreesError::Shallow`]).
    pub fn is_shallow(&self) -> bool {
        !self.shallow.is_empty()
    }

    /// The commit `refname` points to, tags peeled. `refname` is `HEAD`, a
    /// full ref (`refs/heads/for-next`, `refs/remotes/origin/master`) or a
    /// short one resolved as git does (`master`, `origin/master`, `v6.9`).
    pub fn resolve(&self, refname: &str) -> Result<ObjectId> {
        let no_ref = || TreesError::NoSuchRef {
            path: self.path.clone(),
            refname: refname.to_string(),
        };
        let git_err = |reason: String| TreesError::Git {
            path: self.path.clone(),
            refname: refname.to_string(),
            reason,
        };
        let git = self.git()?;
        super::guard::check_ref_name(&self.path, &[git.git_dir(), git.common_dir()], refname)?;
        let id = if refname == "HEAD" {
            if git.head().map_err(|e| git_err(e.to_string()))?.is_unborn() {
                return Err(no_ref());
            }
            git.head_id()
                .map_err(|e| git_err(format!("peeling HEAD: {e}")))?
                .detach()
        } else {
            let mut r = git
                .try_find_reference(refname)
                .map_err(|e| git_err(e.to_string()))?
                .ok_or_else(no_ref)?;
            r.peel_to_id()
                .map_err(|e| git_err(format!("peeling: {e}")))?
                .detach()
        };
        self.expect_commit(&git, id, refname)
    }

    /// `id` if it names a commit in the repository.
    fn expect_commit(
        &self,
        git: &gix::Repository,
        id: ObjectId,
        refname: &str,
    ) -> Result<ObjectId> {
        match git.try_find_header(id) {
            Ok(Some(h)) if h.kind() == gix::objs::Kind::Commit => Ok(id),
            Ok(Some(h)) => Err(TreesError::Git {
                path: self.path.clone(),
                refname: refname.to_string(),
                reason: format!("{id} is a {}, not a commit", h.kind()),
            }),
            Ok(None) => Err(missing(&self.path, refname, &id)),
            Err(e) => Err(corrupt(&self.path, refname, &id, e.to_string())),
        }
    }

    /// Commit `id`, parsed.
    pub fn commit(&self, id: &gix::oid) -> Result<Commit> {
        let at = id.to_string();
        Reader::new(self, &at)?.commit(id)
    }

    /// True when `shallow` lists `id`: its parents are not in the clone.
    pub(crate) fn at_boundary(&self, id: &gix::oid) -> bool {
        self.shallow.contains(id)
    }

    /// A gix handle on the repository, opened anew: its pack mappings go
    /// when it is dropped.
    pub(crate) fn git(&self) -> Result<gix::Repository> {
        open_git(&self.path).map_err(|reason| TreesError::NotARepository {
            path: self.path.clone(),
            reason,
        })
    }
}

pub(crate) fn missing(path: &Path, refname: &str, id: &gix::oid) -> TreesError {
    TreesError::MissingObject {
        path: path.to_path_buf(),
        refname: refname.to_string(),
        id: id.to_string(),
    }
}

pub(crate) fn corrupt(path: &Path, refname: &str, id: &gix::oid, reason: String) -> TreesError {
    TreesError::CorruptObject {
        path: path.to_path_buf(),
        refname: refname.to_string(),
        id: id.to_string(),
        reason,
    }
}

/// Reads commit objects for one walk, through its own gix handle, opened
/// anew every [`READS_PER_MAPPING`] objects.
pub(crate) struct Reader<'a> {
    pub(crate) repo: &'a Repo,
    /// The ref (or commit) errors name.
    pub(crate) refname: String,
    odb: gix::Repository,
    buf: Vec<u8>,
    reads: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(repo: &'a Repo, refname: &str) -> Result<Reader<'a>> {
        let odb = repo.git()?;
        Ok(Reader {
            repo,
            refname: refname.to_string(),
            odb,
            buf: Vec::new(),
            reads: 0,
        })
    }

    /// The bytes of commit `id`.
    fn raw(&mut self, id: &gix::oid) -> Result<&[u8]> {
        self.reads += 1;
        if self.reads % READS_PER_MAPPING == 0
            && let Ok(odb) = open_git(&self.repo.path)
        {
            self.odb = odb;
        }
        let (path, refname) = (&self.repo.path, self.refname.as_str());
        match self.odb.objects.try_find(id, &mut self.buf) {
            Ok(Some(data)) if data.kind == gix::objs::Kind::Commit => Ok(data.data),
            Ok(Some(data)) => Err(corrupt(
                path,
                refname,
                id,
                format!("a {} where a commit was expected", data.kind),
            )),
            Ok(None) => Err(missing(path, refname, id)),
            Err(e) => Err(corrupt(path, refname, id, e.to_string())),
        }
    }

    /// The repository's commit-graph, when there is one and git's
    /// configuration allows it.
    pub(crate) fn commit_graph(&self) -> Option<gix::commitgraph::Graph> {
        self.odb.commit_graph_if_enabled().ok().flatten()
    }

    /// Parents (none at a shallow boundary) and committer time of `id`.
    pub(crate) fn header(&mut self, id: &gix::oid) -> Result<Header> {
        let parsed = commit::header(self.raw(id)?, id.kind());
        let mut h = parsed.map_err(|e| corrupt(&self.repo.path, &self.refname, id, e))?;
        if self.repo.at_boundary(id) {
            h.parents.clear();
        }
        Ok(h)
    }

    /// Commit `id`, parsed.
    pub(crate) fn commit(&mut self, id: &gix::oid) -> Result<Commit> {
        let parsed = commit::parse(id.to_owned(), self.raw(id)?);
        parsed.map_err(|e| corrupt(&self.repo.path, &self.refname, id, e))
    }

    /// The parents a walk follows from `c`: none at a shallow boundary.
    pub(crate) fn parents_to_follow<'c>(&self, c: &'c Commit) -> &'c [ObjectId] {
        if self.repo.at_boundary(&c.id) {
            &[]
        } else {
            &c.parents
        }
    }
}
