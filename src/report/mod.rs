//! The kernel test robot's report grammar (see `grammar/`): subjects
//! ([`subject`]), report bodies ([`body`]), comparison tables ([`table`], with
//! the cell tokens in [`cells`]) and message kinds ([`classify`]), implemented
//! with nom, one function per rule.
//!
//! ```
//! let s = regtrack::report::subject::parse_subject(
//!     "[linus:master] [xfs]  2edf06a50f:  fsmark.files_per_sec -5.7% regression",
//! )
//! .unwrap();
//! assert_eq!(s.commit, "2edf06a50f");
//! ```

pub mod body;
pub mod cells;
pub mod classify;
pub mod error;
pub mod subject;
pub mod table;

use crate::model::{Extraction, Kind, Message};
use crate::text;

/// Fills `subject_report`, `report`, the lkp tables, the report events and `kind`.
pub fn extract_report(msg: &Message, ex: &mut Extraction) {
    ex.subject_report = subject::parse_subject(&msg.subject).map(Box::new);
    // Only a robot's mail or a non-reply with a report subject can be a report,
    // and only a `PATCH` subject without `[PATCH` needs the unquoted text for
    // the format-patch test:
    // other mail (most of a list) skips building and folding it.
    let may_be_report =
        classify::is_robot_sender(msg) || ex.subject_report.as_ref().is_some_and(|s| !s.is_reply);
    let own: Vec<&str> =
        if may_be_report || (msg.subject.contains("PATCH") && !msg.subject.contains("[PATCH")) {
            body::own_lines(&msg.body)
        } else {
            Vec::new()
        };
    let own_text = own.join("\n");
    let lead = if may_be_report {
        body::lead(&text::fold_ws(&own_text))
    } else {
        None
    };
    ex.kind = classify::classify(msg, ex.subject_report.as_deref(), &own_text, lead.as_ref());
    if matches!(ex.kind, Kind::PerfReport | Kind::FunctionalReport) {
        // A report is always `may_be_report` (robot sender or report
        // subject), so its own text and lead are the ones just read.
        ex.report = body::report_body_of(&own, lead).map(Box::new);
    }
    ex.tables.extend(table::parse_tables(&msg.body));
    ex.events.extend(body::parse_events(&msg.body));
}
