//! Message kinds (`grammar/lkp-body.md`, section "Kinds"): robot mails are
//! recognised by sender and body, never by subject alone (robot reports on
//! posted patches have the subject `Re: [PATCH ...]`), then told apart as
//! performance, functional or build reports; other mails are patches, replies
//! or other.

use std::sync::LazyLock;

use regex::Regex;

use crate::model::{Kind, Message, SubjectReport};
use crate::report::body::Lead;
use crate::text;

/// ```text
/// robot_message_id := digits{12} "." (hex{8} "-" ("oliver.sang" | "yujie.liu" | "lkp")
///                   | alnum{8} ("-" | "%") "lkp") "@intel.com"
/// ```
static ROBOT_ID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\d{12}\.(?:[0-9a-f]{8}-(?:oliver\.sang|yujie\.liu|lkp)|[0-9A-Za-z]{8}[-%]lkp)@intel\.com$")
        .expect("static regex")
});

/// ```text
/// build_subject := "[" tree ":" branch " " digits "/" digits "]" | "BUILD " ("SUCCESS" | "REGRESSION" | "WARNING")
/// ```
static BUILD_SUBJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\[[^\]\s]+:[^\]\s]+ \d+/\d+\]|\bBUILD (?:SUCCESS|REGRESSION|WARNING)")
        .expect("static regex")
});

/// True for mails sent by the robot itself: a `... test robot` name, the
/// robot's address `lkp@intel.com`, or a robot Message-ID.
pub fn is_robot_sender(msg: &Message) -> bool {
    const ROBOT_NAME: &[u8] = b"test robot";
    let name = msg.from_name.as_deref().unwrap_or("").as_bytes();
    let email = msg.from_email.as_deref().unwrap_or("");
    name.windows(ROBOT_NAME.len())
        .any(|w| w.eq_ignore_ascii_case(ROBOT_NAME))
        || email.eq_ignore_ascii_case("lkp@intel.com")
        || (msg.message_id.ends_with("@intel.com") && ROBOT_ID.is_match(&msg.message_id))
}

/// Build-report markers in the unquoted text.
fn has_build_markers(own: &str) -> bool {
    const MARKS: [&str; 8] = [
        "build test ERROR",
        "build test WARNING",
        "noticed the following build",
        "All errors (new ones prefixed by >>)",
        "All warnings (new ones prefixed by >>)",
        "Yet something to improve",
        "Perhaps something to improve",
        "reproduce (this is a W=1 build)",
    ];
    MARKS.iter().any(|m| own.contains(m))
}

/// Decides the kind of one message from its sender, subject, unquoted body text
/// and lead sentence.
pub fn classify(
    msg: &Message,
    subject: Option<&SubjectReport>,
    own_text: &str,
    lead: Option<&Lead>,
) -> Kind {
    let reply = crate::report::subject::is_reply_subject(&msg.subject);
    let staff_report = subject.is_some_and(|s| !s.is_reply) && lead.is_some();
    if is_robot_sender(msg) || staff_report {
        if BUILD_SUBJECT.is_match(&msg.subject) || has_build_markers(own_text) {
            return Kind::BuildReport;
        }
        let own_header =
            |h: &str| text::lines(own_text).any(|l| l.text.split_whitespace().next() == Some(h));
        match lead {
            Some(l) if l.functional => return Kind::FunctionalReport,
            Some(l) if l.change_percent.is_some() => return Kind::PerfReport,
            Some(l) if l.metric.is_none() && own_header("%stddev") => return Kind::PerfReport,
            _ => {}
        }
        if own_header("fail:runs") || own_text.contains("boot_successes") {
            return Kind::FunctionalReport;
        }
        if own_header("%stddev") && lead.is_some() {
            return Kind::PerfReport;
        }
        if let Some(s) = subject
            && !s.is_reply
        {
            if s.failure.is_some() {
                return Kind::FunctionalReport;
            }
            if s.change_percent.is_some() {
                return Kind::PerfReport;
            }
        }
    }
    // (Folding white space cannot make or break a tag.)
    let patch_subject = !reply && crate::mail::subject::subject_tags(&msg.subject).is_patch;
    let format_patch = own_text.contains("\ndiff --git ")
        && own_text.contains("Signed-off-by:")
        && msg.subject.contains("PATCH");
    if patch_subject || (!reply && format_patch) {
        return Kind::Patch;
    }
    if reply || msg.in_reply_to.is_some() {
        return Kind::Reply;
    }
    Kind::Other
}
