//! Public errors of the report grammar: a small kind and a position (byte
//! offset from 0, line from 1, and a message that quotes what failed). The
//! extraction itself never fails (bad input is normal input); these errors are
//! for diagnostics, e.g. why a subject is not a report subject or which table
//! rows were skipped.

use std::fmt;

/// Where a grammar rule failed, and what it found there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// Byte offset from the start of the input, from 0.
    pub byte: usize,
    /// Line number, from 1.
    pub line: usize,
    /// What was expected and what was found, quoting the input.
    pub message: String,
}

impl Position {
    /// A position whose line is already known (a scanner counting lines as
    /// it reads them: [`Position::at`] counts them from the input's start).
    pub fn at_line(byte: usize, line: usize, message: impl Into<String>) -> Self {
        Position {
            byte,
            line,
            message: message.into(),
        }
    }

    /// The position of byte `byte` of `input`, with a message. Counts the
    /// lines before it: for one position of an input, not one per line of it.
    pub fn at(input: &str, byte: usize, message: impl Into<String>) -> Self {
        let byte = byte.min(input.len());
        let line = 1 + input
            .as_bytes()
            .iter()
            .take(byte)
            .filter(|&&b| b == b'\n')
            .count();
        Position {
            byte,
            line,
            message: message.into(),
        }
    }
}

/// What kind of rule failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReportErrorKind {
    /// The subject is not a report subject (`subject` rule).
    NotAReportSubject,
    /// The unquoted text has neither a lead sentence nor a `commit:` line.
    NoReportBody,
    /// A line inside a table did not fit its row rule and was skipped.
    RowDoesNotFit,
}

/// An error of the report grammar.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ReportError {
    /// What failed.
    pub kind: ReportErrorKind,
    /// Where, with a quote of the input.
    pub position: Position,
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.position.line, self.position.message)
    }
}

/// Shortens a quote of the input for a message (at most 60 characters).
pub(crate) fn quote(s: &str) -> String {
    let t: String = s.chars().take(60).collect();
    if t.len() < s.len() {
        format!("{t}…")
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_from_one_and_bytes_from_zero() {
        let p = Position::at("ab\ncd\nef", 4, "x");
        assert_eq!((p.byte, p.line), (4, 2));
        let e = ReportError {
            kind: ReportErrorKind::RowDoesNotFit,
            position: p,
        };
        assert_eq!(e.to_string(), "line 2: x");
        assert_eq!(quote(&"a".repeat(70)).chars().count(), 61);
    }
}
