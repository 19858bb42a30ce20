//! Writing messages, extractions, failures and source progress.
