//! What the robot tested, from a report: mainline, linux-next, a
//! maintainer's tree, a developer's branch, or a patch posted for review.
//!
//! - A report that replies to a posted patch, or whose body names the
//!   robot's branch of it (`url: https://github.com/intel-lab-lkp/linux/commits/...`,
//!   the older `github.com/0day-ci/linux/commits/...`, a `patch link:`):
//!   `patch-under-review`.
//! - The subject's tree tag (`[linus:master]`, `[linux-next:master]`,
//!   `[tytso-ext4:dev]`), else the tree line under `commit:`
//!   (`https://git.kernel.org/.../torvalds/linux.git master`).
//! - A maintainer's tree is told from a developer's branch by the branch:
//!   the ones maintainers publish (`master`, `dev`, `for-next`, `fixes`,
//!   `for-6.10`, `*-next`, `*-fixes`, `bleeding-edge`, the mm branches,
//!   tip's `subsys/topic` branches) against topic and test branches
//!   (`io_uring-defer-tw.4`, `intel_pstate-testing`, `wip-*`).

use super::LinkMessage;
use crate::model::history::Scope;

/// Branches a maintainer publishes.
const MAINTAINER_BRANCHES: &[&str] = &[
    "master",
    "main",
    "dev",
    "devel",
    "next",
    "for-next",
    "fixes",
    "for-linus",
    "linus",
    "bleeding-edge",
    "linux-next",
    "queue",
    "urgent",
    "stable",
    "mm-stable",
    "mm-unstable",
    "mm-everything",
    "mm-nonmm-stable",
    "mm-nonmm-unstable",
    "mm-hotfixes-stable",
    "mm-hotfixes-unstable",
    "testing",
    "test",
];

/// Trees whose every branch is a maintainer's.
const MAINTAINER_TREES: &[&str] = &["tip", "tj-cgroup", "cgroup", "vfs", "brauner-vfs"];

/// True for a branch a maintainer publishes: a known name (master, next,
/// for-next, fixes, for-linus, mm-stable, ...) or any branch of a tree
/// whose every branch is a maintainer's (tip, vfs, cgroup).
pub fn maintainer_branch(tree: Option<&str>, branch: &str) -> bool {
    let b = branch.trim().to_ascii_lowercase();
    if tree.is_some_and(|t| MAINTAINER_TREES.contains(&t.to_ascii_lowercase().as_str())) {
        return true;
    }
    if MAINTAINER_BRANCHES.contains(&b.as_str()) {
        return true;
    }
    let versioned = b
        .strip_prefix("for-")
        .or_else(|| b.strip_prefix("v"))
        .is_some_and(|v| v.chars().next().is_some_and(|c| c.is_ascii_digit()));
    versioned
        || b.ends_with("-next")
        || b.ends_with("-fixes")
        || b.ends_with("/next")
        || b.ends_with("/fixes")
        || b.ends_with("/core")
        || b.ends_with("/urgent")
}

/// The scope of a report; `replies_to_posting` says whether its parent is
/// a posted patch.
pub fn scope_of(m: &LinkMessage, replies_to_posting: bool) -> Scope {
    let body = m.extraction.report.as_deref();
    let url = body.and_then(|b| b.url.as_deref()).unwrap_or("");
    let patch_branch = url.contains("0day-ci/linux") || url.contains("intel-lab-lkp/linux");
    let subject_patch = m
        .extraction
        .subject_report
        .as_deref()
        .is_some_and(|s| s.is_reply)
        && crate::mail::subject::subject_tags(&m.subject).is_patch;
    if replies_to_posting
        || patch_branch
        || subject_patch
        || body.is_some_and(|b| b.patch_link.is_some())
    {
        return Scope::PatchUnderReview;
    }
    let tag = m
        .extraction
        .subject_report
        .as_deref()
        .and_then(|s| s.branch.as_deref());
    if let Some((tree, branch)) = tag.and_then(|t| t.split_once(':')) {
        return match tree.trim() {
            "linus" => Scope::Mainline,
            "linux-next" | "next" => Scope::Next,
            t if maintainer_branch(Some(t), branch) => Scope::MaintainerTree,
            _ => Scope::DeveloperBranch,
        };
    }
    // No tag: the tree line under `commit:` (`<url> <branch>`).
    let Some(line) = body.and_then(|b| b.tree_url.as_deref()) else {
        return Scope::Unknown;
    };
    let mut words = line.split_whitespace();
    let repo = words.next().unwrap_or("");
    let branch = words.next().unwrap_or("master");
    if repo.contains("torvalds/linux") {
        Scope::Mainline
    } else if repo.contains("linux-next") {
        Scope::Next
    } else if maintainer_branch(None, branch) {
        Scope::MaintainerTree
    } else {
        Scope::DeveloperBranch
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Extraction, ReportBody, SubjectReport};

    fn report(
        subject: &str,
        branch: Option<&str>,
        tree: Option<&str>,
        url: Option<&str>,
    ) -> LinkMessage {
        LinkMessage {
            subject: subject.into(),
            extraction: Extraction {
                subject_report: Some(Box::new(SubjectReport {
                    branch: branch.map(str::to_string),
                    is_reply: subject.starts_with("Re:"),
                    ..SubjectReport::default()
                })),
                report: Some(Box::new(ReportBody {
                    tree_url: tree.map(str::to_string),
                    url: url.map(str::to_string),
                    ..ReportBody::default()
                })),
                ..Extraction::default()
            },
            ..LinkMessage::default()
        }
    }

    #[test]
    fn scopes_from_tags_tree_lines_and_patch_branches() {
        let s = |subj, b, t, u| scope_of(&report(subj, b, t, u), false);
        assert_eq!(
            s("[linus:master] x", Some("linus:master"), None, None),
            Scope::Mainline
        );
        assert_eq!(s("x", Some("linux-next:master"), None, None), Scope::Next);
        assert_eq!(
            s("x", Some("tytso-ext4:dev"), None, None),
            Scope::MaintainerTree
        );
        assert_eq!(
            s("x", Some("tip:sched/core"), None, None),
            Scope::MaintainerTree
        );
        assert_eq!(
            s("x", Some("axboe-block:io_uring-defer-tw.4"), None, None),
            Scope::DeveloperBranch
        );
        assert_eq!(
            s(
                "[ext4] 2edf06a50f: x",
                None,
                Some("https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git master"),
                None
            ),
            Scope::Mainline
        );
        assert_eq!(
            s(
                "Re: [PATCH v2] ext4: x",
                None,
                None,
                Some("https://github.com/intel-lab-lkp/linux/commits/A/b/20240101")
            ),
            Scope::PatchUnderReview
        );
        assert_eq!(
            scope_of(&report("[ext4] x", None, None, None), true),
            Scope::PatchUnderReview
        );
    }
}
