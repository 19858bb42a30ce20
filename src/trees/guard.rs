//! What gix reads whole, checked before it does: a repository's `HEAD`,
//! `config`, `packed-refs`, loose refs and the like must be regular files
//! of a sane size. A ref that is a symlink to `/dev/zero` (or a pipe, or a
//! huge sparse file) would otherwise be read until memory runs out.

use std::path::{Path, PathBuf};

use super::error::{Result, TreesError};

/// Most bytes of a loose ref, `HEAD` or a `.git` file (one line each).
const SMALL: u64 = 1 << 20;

/// Most bytes of `config`, `packed-refs` and the other files read whole.
const LARGE: u64 = 1 << 30;

/// Files of a git directory gix may read whole, and their bound.
const READ_WHOLE: &[(&str, u64)] = &[
    ("HEAD", SMALL),
    ("commondir", SMALL),
    ("gitdir", SMALL),
    ("shallow", LARGE),
    ("config", LARGE),
    ("packed-refs", LARGE),
    ("objects/info/alternates", SMALL),
];

/// Most entries under `refs/` looked at.
const MAX_ENTRIES: usize = 1_000_000;

/// Checks the files gix would read whole in the repository at `repo` (a
/// work tree or a git directory): its git directories, their refs.
pub(crate) fn check_repository(repo: &Path) -> Result<()> {
    for dir in git_dirs(repo)? {
        for (name, max) in READ_WHOLE {
            check_file(repo, &dir.join(name), *max)?;
        }
        check_refs(repo, &dir.join("refs"))?;
    }
    Ok(())
}

/// Checks the loose files a ref name can be read from (`name`,
/// `refs/name`, `refs/heads/name`, ... as git resolves a short name), in
/// each of `dirs` (the git directory and the common one); this follows
/// symlinked folders, which [`check_repository`] does not walk into.
pub(crate) fn check_ref_name(repo: &Path, dirs: &[&Path], name: &str) -> Result<()> {
    let candidates = [
        name.to_string(),
        format!("refs/{name}"),
        format!("refs/tags/{name}"),
        format!("refs/heads/{name}"),
        format!("refs/remotes/{name}"),
        format!("refs/remotes/{name}/HEAD"),
    ];
    for dir in dirs {
        for c in &candidates {
            check_file(repo, &dir.join(c), SMALL)?;
        }
    }
    Ok(())
}

/// The git directories of `repo`: itself, its `.git` folder, the one a
/// `.git` file names, and the common directory each names.
fn git_dirs(repo: &Path) -> Result<Vec<PathBuf>> {
    let mut dirs = vec![repo.to_path_buf()];
    let dot = repo.join(".git");
    check_file(repo, &dot, SMALL)?;
    match std::fs::metadata(&dot) {
        Ok(m) if m.is_dir() => dirs.push(dot),
        Ok(m) if m.is_file() => {
            if let Some(to) = read_small(&dot).and_then(|t| {
                t.lines()
                    .next()
                    .and_then(|l| l.strip_prefix("gitdir:"))
                    .map(|p| repo.join(p.trim()))
            }) {
                dirs.push(to);
            }
        }
        _ => {}
    }
    let mut common = Vec::new();
    for d in &dirs {
        let file = d.join("commondir");
        check_file(repo, &file, SMALL)?;
        if let Some(to) = read_small(&file) {
            common.push(d.join(to.trim()));
        }
    }
    dirs.extend(common);
    Ok(dirs)
}

/// The text of a small regular file (checked already), if it reads.
fn read_small(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(SMALL)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// Walks `refs` (symlinked folders not entered), checking each file.
fn check_refs(repo: &Path, refs: &Path) -> Result<()> {
    let mut stack = vec![refs.to_path_buf()];
    let mut seen = 0usize;
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            seen += 1;
            if seen > MAX_ENTRIES {
                return Ok(());
            }
            let path = e.path();
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(path),
                Ok(_) => check_file(repo, &path, SMALL)?,
                Err(_) => {}
            }
        }
    }
    Ok(())
}

/// `path` (symlinks followed), when it exists, is a folder or a regular
/// file of at most `max` bytes. A dangling link or a loop is left to gix,
/// which says so.
fn check_file(repo: &Path, path: &Path, max: u64) -> Result<()> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    let shown = path.strip_prefix(repo).unwrap_or(path).display();
    let reason = if meta.is_dir() {
        return Ok(());
    } else if !meta.is_file() {
        format!("'{shown}' is not a regular file (a device, a pipe or a socket); not read")
    } else if meta.len() > max {
        format!(
            "'{shown}' holds {} bytes, more than the {max} a git file of its kind can; not read",
            meta.len()
        )
    } else {
        return Ok(());
    };
    Err(TreesError::NotARepository {
        path: repo.to_path_buf(),
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_huge_files_are_refused_and_the_rest_passes() {
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path().join(".git");
        std::fs::create_dir_all(git.join("refs/heads")).unwrap();
        std::fs::write(git.join("HEAD"), "ref: refs/heads/master\n").unwrap();
        std::fs::write(git.join("refs/heads/master"), "0".repeat(40)).unwrap();
        check_repository(dir.path()).unwrap();
        check_ref_name(dir.path(), &[&git], "master").unwrap();
        std::os::unix::fs::symlink("/dev/zero", git.join("refs/heads/zero")).unwrap();
        let e = check_repository(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains("'.git/refs/heads/zero' is not a regular file"),
            "{e}"
        );
        std::fs::remove_file(git.join("refs/heads/zero")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", git.join("packed-refs")).unwrap();
        assert!(check_repository(dir.path()).is_err());
        std::fs::remove_file(git.join("packed-refs")).unwrap();
        // A sparse file far larger than any loose ref.
        let big = std::fs::File::create(git.join("refs/heads/big")).unwrap();
        big.set_len(SMALL + 1).unwrap();
        assert!(check_repository(dir.path()).is_err());
        assert!(check_ref_name(dir.path(), &[&git], "big").is_err());
        std::fs::remove_file(git.join("refs/heads/big")).unwrap();
        // A symlinked folder is not walked, but the ref asked for is checked.
        std::os::unix::fs::symlink("/dev", git.join("refs/heads/dev")).unwrap();
        check_repository(dir.path()).unwrap();
        assert!(check_ref_name(dir.path(), &[&git], "dev/zero").is_err());
        // A dangling link is gix's to report.
        std::os::unix::fs::symlink("/nowhere/at/all", git.join("refs/heads/gone")).unwrap();
        check_repository(dir.path()).unwrap();
    }
}
