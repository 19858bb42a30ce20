//! The ingest pipeline: sources -> parse (in parallel) -> extract -> store (one
//! writer thread, large transactions), with counts, failures and progress.
