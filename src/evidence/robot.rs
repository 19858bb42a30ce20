//! Who the robot is: the addresses its reports are sent from and those its
//! team answer from ([`names_robot_sender`], [`is_robot`], [`is_robot_team`]),
//! for the extractors and the linker alike.

/// The robot's people: the addresses its reports have been sent from since
/// 2014 and those its team answer from under their own names (the robot's
/// format notes list both). Their words in a report's thread are the
/// robot's (a re-run, a withdrawal), and a diff in their reply is a patch
/// they tested or an experiment, not a fix they post; their formal patch
/// postings are patches like anyone's. Other `@intel.com` senders are kernel
/// developers like any other (a maintainer, a culprit's author).
pub const ROBOT_SENDERS: [&str; 14] = [
    "lkp@intel.com",
    "oliver.sang@intel.com",
    "yujie.liu@intel.com",
    "rong.a.chen@intel.com",
    "xiaolong.ye@intel.com",
    "fengguang.wu@intel.com",
    "jet.chen@intel.com",
    "ying.huang@linux.intel.com",
    "fengwei.yin@intel.com",
    "zhengjun.xing@intel.com",
    "zhengjun.xing@linux.intel.com",
    "aaron.lu@intel.com",
    "feng.tang@intel.com",
    "yu.c.chen@intel.com",
];

/// The domain every address of [`ROBOT_SENDERS`] ends in.
const INTEL: &[u8] = b"intel.com";

/// True when `text` (an address, or a trailer's `Name <address>`) holds
/// one of the addresses the robot's reports are sent from.
pub fn names_robot_sender(text: &str) -> bool {
    // Every address of the list is at intel.com: most texts are not, and
    // are told so without lower-casing them.
    if !text
        .as_bytes()
        .windows(INTEL.len())
        .any(|w| w.eq_ignore_ascii_case(INTEL))
    {
        return false;
    }
    let t = text.to_ascii_lowercase();
    ROBOT_SENDERS.iter().any(|s| {
        t.match_indices(s).any(|(at, _)| {
            let before = t[..at].chars().next_back();
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_')
        })
    })
}

/// True when the sender (display name, address) is the robot itself (not
/// one of its people).
pub fn is_robot(from_name: Option<&str>, from_email: Option<&str>) -> bool {
    from_name.is_some_and(|n| n.to_ascii_lowercase().contains("test robot"))
        || from_email.is_some_and(|e| e.eq_ignore_ascii_case("lkp@intel.com"))
}

/// True for the robot or the people who send its reports.
pub fn is_robot_team(from_name: Option<&str>, from_email: Option<&str>) -> bool {
    is_robot(from_name, from_email) || from_email.is_some_and(names_robot_sender)
}
