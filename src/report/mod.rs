//! The kernel test robot's report grammar (see `grammar/`): subjects, report
//! bodies and comparison tables, implemented with nom, one function per rule.

pub mod cells;
pub mod table;

use crate::model::{Extraction, Message};

/// Fills `subject_report`, `report`, the lkp tables, the report events and `kind`.
pub fn extract_report(msg: &Message, ex: &mut Extraction) {
    let _ = (msg, ex);
}
