//! The official regression tracker's command lines (`#regzbot ...`) and the
//! syzbot ones (`#syz ...`), read as timeline events; and the
//! `#regzbot introduced:` line to paste for an untracked regression.

use crate::model::history::Status;

/// What a `#regzbot` command means for a regression here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// `#regzbot introduced: <commit>` (or `^`): the tracker follows it.
    Introduced,
    /// A status-changing command (`fix:`, `fixed-by:`, `invalid:`, `resolve:`).
    SetStatus(Status),
    /// Anything else (`title:`, `link:`, `ignore-activity`, `dup-of:`...).
    Other,
}

/// Reads one `#regzbot ...` line.
///
/// ```
/// use regtrack::link::regzbot::{parse, Command};
/// use regtrack::model::history::Status;
/// assert_eq!(parse("#regzbot introduced: ca6dee6b79 ^"), Command::Introduced);
/// assert_eq!(parse("#regzbot fix: ext4: fix it"), Command::SetStatus(Status::FixProposed));
/// ```
pub fn parse(line: &str) -> Command {
    let l = line.trim().to_ascii_lowercase();
    let rest = l
        .strip_prefix("#regzbot")
        .map(|r| r.trim_start())
        .unwrap_or(l.as_str());
    if rest.starts_with("introduced") || rest.starts_with("^introduced") {
        Command::Introduced
    } else if rest.starts_with("fixed-by") || rest.starts_with("resolve") {
        Command::SetStatus(Status::FixApplied)
    } else if rest.starts_with("fix") || rest.starts_with("monitor") && rest.contains("fix") {
        Command::SetStatus(Status::FixProposed)
    } else if rest.starts_with("invalid") || rest.starts_with("inconclusive") {
        Command::SetStatus(Status::Declined)
    } else {
        Command::Other
    }
}

/// The line a maintainer can paste to have regzbot track the culprit.
///
/// ```
/// assert_eq!(
///     regtrack::link::regzbot::introduced_line("6a3afb6ac6362d3a4e4e6e7c3e9ff8b1b1b3b4f1"),
///     "#regzbot introduced: 6a3afb6ac636 ^"
/// );
/// ```
pub fn introduced_line(culprit: &str) -> String {
    let short = culprit.get(..12).unwrap_or(culprit);
    format!("#regzbot introduced: {short} ^")
}
