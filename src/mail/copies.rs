//! Which copy of a Message-ID a history uses.
//!
//! Anyone can post under any Message-ID, and an archive can hold a copy cut
//! short (a partial download, an mbox still being written). Every copy is
//! kept; of two copies of one Message-ID the one used is chosen by these
//! rules, in order:
//!
//! 1. **For a robot report, the one sent from the robot's own address**
//!    ([`is_robot_address`]: `lkp@intel.com`, `oliver.sang@intel.com`, ...)
//!    over one from any other address, whole or not: a "kernel test robot"
//!    display name is no proof, the address the list received it from is
//!    what a forger cannot choose as easily, and a forger's copy is easily
//!    made "more complete" (the robot's report with a line added).
//! 2. **The complete one over a truncated one.** A copy is truncated against
//!    another when its body (trailing white space aside) is a proper prefix
//!    of the other's (but for a list footer, a line of underscores, added
//!    to the other), or when it is a robot report and the other carries the
//!    robot's closing (the `0-DAY CI Kernel Test Service` signature, the
//!    lkp-tests wiki link, a `Thanks,` line near the end) and it does not,
//!    with no more table rows and a shorter body.
//! 3. **The one seen on the list's own archive**: a List-Id of the copy
//!    names the archive it was read from ([`own_list`]).
//! 4. **The first seen.**
//!
//! The rules compare the two copies symmetrically, so two copies give the
//! same choice in either order (but for rule 4). Pure: the store reads the
//! facts ([`Facts`]) and writes the choice.

use crate::model::Origin;

/// What the rules read of one copy.
#[derive(Debug, Clone, Copy)]
pub struct Facts<'a> {
    /// The decoded body.
    pub body: &'a str,
    /// Whether the copy is a robot report (performance, functional or build).
    pub robot_report: bool,
    /// Rows of its comparison tables (stored and left out by the cap).
    pub table_rows: u64,
    /// The sender's address.
    pub from_email: Option<&'a str>,
    /// Its List-IDs.
    pub lists: &'a [String],
    /// Where it was read.
    pub origin: &'a Origin,
}

/// Why the chosen copy won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The other is truncated (rule 2).
    Complete,
    /// It came from the robot's own address and the other did not (rule 1).
    RobotAddress,
    /// It was read from its list's own archive and the other was not (rule 3).
    OwnList,
    /// Nothing else told them apart: it was seen first (rule 4).
    FirstSeen,
}

impl Reason {
    /// The words `show` and `mail` print after "chosen because".
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Complete => "it is complete (another copy is truncated)",
            Reason::RobotAddress => "it was sent from the robot's own address",
            Reason::OwnList => "it was read from its list's own archive",
            Reason::FirstSeen => "it was seen first",
        }
    }
}

/// The choice between two copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// True when the later copy wins.
    pub later_wins: bool,
    /// Why the winner won.
    pub reason: Reason,
    /// The earlier copy is truncated against the later one.
    pub earlier_truncated: bool,
    /// The later copy is truncated against the earlier one.
    pub later_truncated: bool,
}

/// Chooses between the copy seen first (`earlier`) and a later one.
pub fn choose(earlier: &Facts<'_>, later: &Facts<'_>) -> Choice {
    let earlier_truncated = truncated(earlier, later);
    let later_truncated = truncated(later, earlier);
    let pick = |later_wins, reason| Choice {
        later_wins,
        reason,
        earlier_truncated,
        later_truncated,
    };
    if earlier.robot_report || later.robot_report {
        let (e, l) = (robot_address(earlier), robot_address(later));
        if e != l {
            return pick(l, Reason::RobotAddress);
        }
    }
    if earlier_truncated != later_truncated {
        return pick(earlier_truncated, Reason::Complete);
    }
    let (e, l) = (own_list(earlier), own_list(later));
    if e != l {
        return pick(l, Reason::OwnList);
    }
    pick(false, Reason::FirstSeen)
}

fn robot_address(f: &Facts<'_>) -> bool {
    f.from_email.is_some_and(is_robot_address)
}

/// The robot's own sending addresses: `lkp@intel.com` and the people who
/// send its reports (`oliver.sang`, `yujie.liu`: the names the robot's
/// Message-IDs carry, `crate::report::classify`).
pub const ROBOT_ADDRESSES: &[&str] = &[
    "lkp@intel.com",
    "oliver.sang@intel.com",
    "yujie.liu@intel.com",
];

/// True for one of [`ROBOT_ADDRESSES`] (without case): what the choice
/// between copies of a robot report trusts, where a display name is no
/// proof.
pub fn is_robot_address(email: &str) -> bool {
    let email = email.trim();
    ROBOT_ADDRESSES
        .iter()
        .any(|a| a.eq_ignore_ascii_case(email))
}

/// True when `a` is `b` cut short (rule 2).
pub fn truncated(a: &Facts<'_>, b: &Facts<'_>) -> bool {
    let (ab, bb) = (a.body.trim_end(), b.body.trim_end());
    if ab.len() < bb.len() && bb.starts_with(ab) {
        // A list's footer added to its copy does not make the other short.
        return !is_list_footer(&bb[ab.len()..]);
    }
    // Only a robot report is cut short of the robot's closing: another
    // message under the report's Message-ID (a reply, a forgery) is
    // different, not truncated.
    a.robot_report
        && has_closing(b.body)
        && !has_closing(a.body)
        && a.table_rows <= b.table_rows
        && ab.len() < bb.len()
}

/// Whether text added at the end of a copy is a mailing list's footer: it
/// starts with a line of underscores (mailman's `_______________`).
fn is_list_footer(extra: &str) -> bool {
    extra
        .trim_start()
        .lines()
        .next()
        .is_some_and(|l| l.trim().len() >= 3 && l.trim().bytes().all(|b| b == b'_'))
}

/// Whether a body ends with the robot's closing: its signature or wiki link,
/// or a `Thanks,` line, in its last 2 KB.
pub fn has_closing(body: &str) -> bool {
    let body = body.trim_end();
    let mut from = body.len().saturating_sub(2048);
    while !body.is_char_boundary(from) {
        from += 1;
    }
    let tail = &body[from..];
    tail.contains("0-DAY CI Kernel Test Service")
        || tail.contains("github.com/intel/lkp-tests")
        || tail.lines().any(|l| l.trim() == "Thanks,")
}

/// True when a List-Id of the copy names the archive it was read from: the
/// List-Id (`linux-ext4.vger.kernel.org`) or its first label (`linux-ext4`)
/// is a component of the source's path (split at `/` and `+`, a component
/// also matching when it continues with `.`: `linux-ext4.mbox`,
/// `linux-ext4.vger.kernel.org.0`).
pub fn own_list(f: &Facts<'_>) -> bool {
    let path = match f.origin {
        Origin::File { path, .. } => path.as_str(),
        Origin::Git { repo, .. } => repo.as_str(),
        Origin::Stdin { .. } => return false,
    };
    let parts: Vec<&str> = path.split(['/', '+']).filter(|p| !p.is_empty()).collect();
    f.lists.iter().any(|list| {
        let list = list.trim().to_ascii_lowercase();
        let first = list.split('.').next().unwrap_or("");
        if first.is_empty() {
            return false;
        }
        parts.iter().any(|p| {
            let p = p.to_ascii_lowercase();
            [list.as_str(), first].iter().any(|name| {
                p == *name
                    || p.strip_prefix(name)
                        .is_some_and(|rest| rest.starts_with('.'))
            })
        })
    })
}

/// The length of a raw message's header block, through the blank line that
/// ends it (LF or CRLF); the whole message when it has no body.
pub fn header_len(raw: &[u8]) -> usize {
    // The first empty line is the first line break followed by another
    // ("\n\n") or by a CRLF ("\n\r\n"), unless the message starts with
    // one: two SIMD searches, not a search per header line.
    if raw.starts_with(b"\n") {
        return 1;
    }
    if raw.starts_with(b"\r\n") {
        return 2;
    }
    static LF: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\n\n"));
    static CRLF: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\n\r\n"));
    let lf = LF.find(raw).map(|at| at + 2);
    let before = lf.unwrap_or(raw.len());
    // Most mail has no carriage return at all: one byte search says so.
    let head = &raw[..before];
    let crlf = memchr::memchr(b'\r', head)
        .and_then(|_| CRLF.find(head))
        .map(|at| at + 3);
    match (lf, crlf) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b).unwrap_or(raw.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts<'a>(
        body: &'a str,
        from: &'a str,
        lists: &'a [String],
        origin: &'a Origin,
    ) -> Facts<'a> {
        Facts {
            body,
            robot_report: true,
            table_rows: body.matches("fsmark").count() as u64,
            from_email: Some(from),
            lists,
            origin,
        }
    }

    const WHOLE: &str = "Hello,\n  25132  -4.1%  24102  fsmark.files_per_sec\n  1 2 fsmark.app\n\n-- \n0-DAY CI Kernel Test Service\nhttps://github.com/intel/lkp-tests/wiki\n";

    #[test]
    fn a_cut_copy_loses_in_either_order() {
        let o = Origin::Stdin { offset: 0 };
        let cut = &WHOLE[..40];
        let whole = facts(WHOLE, "oliver.sang@intel.com", &[], &o);
        let short = facts(cut, "oliver.sang@intel.com", &[], &o);
        let c = choose(&short, &whole);
        assert!(c.later_wins && c.earlier_truncated && !c.later_truncated);
        assert_eq!(c.reason, Reason::Complete);
        let c = choose(&whole, &short);
        assert!(!c.later_wins && c.later_truncated);
        assert_eq!(c.reason, Reason::Complete);
        // Cut and then a list footer appended: no prefix, but no closing.
        let footer = format!("{cut}\n_______________\nlist footer\n");
        let f = facts(&footer, "oliver.sang@intel.com", &[], &o);
        assert!(truncated(&f, &whole) && !truncated(&whole, &f));
        // A list footer added to a copy is no completion of the other.
        let listed = format!("{WHOLE}_______________________\nlinux-x mailing list\n");
        let l = facts(&listed, "oliver.sang@intel.com", &[], &o);
        assert!(!truncated(&whole, &l) && !truncated(&l, &whole));
    }

    #[test]
    fn another_message_under_a_reports_id_is_different_not_truncated() {
        let o = Origin::Stdin { offset: 0 };
        let report = facts(WHOLE, "oliver.sang@intel.com", &[], &o);
        let reply = Facts {
            robot_report: false,
            ..facts("Thanks, looking.\n", "dev@example.org", &[], &o)
        };
        for (a, b) in [(&report, &reply), (&reply, &report)] {
            let c = choose(a, b);
            assert!(!c.earlier_truncated && !c.later_truncated, "{c:?}");
        }
    }

    #[test]
    fn the_robots_address_wins_a_report_then_the_own_list_then_the_first() {
        let o = Origin::Stdin { offset: 0 };
        let forged = "Hello,\n  25132  +40%  24102  fsmark.files_per_sec\n  1 2 fsmark.app\n\n-- \n0-DAY CI Kernel Test Service\n";
        let genuine = facts(WHOLE, "oliver.sang@intel.com", &[], &o);
        let fake = facts(forged, "robot@evil.example", &[], &o);
        for (a, b, later) in [(&fake, &genuine, true), (&genuine, &fake, false)] {
            let c = choose(a, b);
            assert_eq!((c.later_wins, c.reason), (later, Reason::RobotAddress));
        }
        let lists = vec!["linux-ext4.vger.kernel.org".to_string()];
        let own = Origin::Git {
            repo: "/m/linux-mailinglist-archives+linux-ext4.vger.kernel.org.0/repo".into(),
            commit: "c".into(),
        };
        let other = Origin::File {
            path: "/m/linux-fsdevel.mbox".into(),
            offset: 0,
        };
        let on_own = Facts {
            robot_report: false,
            ..facts("b\n", "a@x", &lists, &own)
        };
        let elsewhere = Facts {
            robot_report: false,
            ..facts("c\n", "a@x", &lists, &other)
        };
        assert!(own_list(&on_own) && !own_list(&elsewhere));
        let c = choose(&elsewhere, &on_own);
        assert_eq!((c.later_wins, c.reason), (true, Reason::OwnList));
        let c = choose(&elsewhere, &elsewhere);
        assert_eq!((c.later_wins, c.reason), (false, Reason::FirstSeen));
    }

    #[test]
    fn a_forged_copy_made_longer_loses_to_the_robots_own() {
        let o = Origin::Stdin { offset: 0 };
        let longer = format!("{WHOLE}One more line from the forger.\n");
        let genuine = facts(WHOLE, "oliver.sang@intel.com", &[], &o);
        let fake = facts(&longer, "robot@evil.example", &[], &o);
        assert!(truncated(&genuine, &fake));
        for (a, b, later) in [(&fake, &genuine, true), (&genuine, &fake, false)] {
            let c = choose(a, b);
            assert_eq!((c.later_wins, c.reason), (later, Reason::RobotAddress));
        }
        // Between two copies from the robot, the whole one still wins.
        let cut = facts(&WHOLE[..40], "lkp@intel.com", &[], &o);
        let c = choose(&cut, &genuine);
        assert_eq!((c.later_wins, c.reason), (true, Reason::Complete));
    }

    #[test]
    fn list_names_match_whole_path_components_only() {
        let lists = vec!["linux-ext4.vger.kernel.org".to_string()];
        let at = |path: &str| Origin::File {
            path: path.into(),
            offset: 0,
        };
        for (path, want) in [
            ("/srv/linux-ext4/git/0.git", true),
            ("archives/linux-ext4.mbox", true),
            ("archives/linux-ext4.vger.kernel.org.0/repo", true),
            ("archives/linux-ext45.mbox", false),
            ("archives/notlinux-ext4.mbox", false),
        ] {
            let o = at(path);
            assert_eq!(own_list(&facts("x", "a@x", &lists, &o)), want, "{path}");
        }
    }

    #[test]
    fn headers_end_at_the_first_blank_line() {
        assert_eq!(header_len(b"A: b\nC: d\n\nbody\n\nmore"), 11);
        assert_eq!(header_len(b"A: b\r\n\r\nbody"), 8);
        assert_eq!(header_len(b"A: b\n"), 5);
        // As a line-by-line reading finds it, on any bytes.
        let by_lines = |raw: &[u8]| {
            let mut at = 0;
            while at < raw.len() {
                let end = memchr::memchr(b'\n', &raw[at..]).map_or(raw.len(), |i| at + i + 1);
                if &raw[at..end] == b"\n" || &raw[at..end] == b"\r\n" {
                    return end;
                }
                at = end;
            }
            raw.len()
        };
        let alphabet = [b'a', b'\n', b'\r', b':'];
        let mut seed = 0x2545_f491_u64;
        for len in 0..400 {
            let raw: Vec<u8> = (0..len % 40)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    alphabet[(seed % 4) as usize]
                })
                .collect();
            assert_eq!(header_len(&raw), by_lines(&raw), "{raw:?}");
        }
        assert!(has_closing("x\nThanks,\nOliver\n"));
        assert!(!has_closing("x\nno thanks, really\n"));
    }
}
