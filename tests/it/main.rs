//! The integration tests: one crate (one binary to link, one process to
//! run), one module per concern. `common` holds what they share: the
//! command builder, the SQL and golden-JSON helpers, the corpus naming
//! scheme. Run one module with `cargo test --test it MODULE::`.
//!
//! Tests that need something this machine may lack skip with a note on
//! stderr that says "skipped": `REGTRACK_SHARED` (the real-mail corpus),
//! git, python3, `REGTRACK_BROWSER_TEST=1` (a headless browser). A check
//! of the completion scripts or the manual page that needs a shell or groff
//! the machine lacks says so in the runner's output itself
//! (`common::skip_part_shown`).

mod arch_modules;
mod common;

mod copies_cli;
mod evidence_fixtures;
mod evidence_props;
mod evidence_seeds;
mod fetch_cli;
mod gold;
mod hostile_cli;
mod hostile_export;
mod hostile_fetch;
mod hostile_link_flood;
mod hostile_memory;
mod hostile_rows;
mod hostile_store;
mod hostile_threads;
mod ingest_bad;
mod ingest_cli;
mod ingest_fixtures;
mod ingest_kill;
mod ingest_public_inbox;
mod ingest_shared;
mod ingest_shared_cli;
mod ingest_sources;
mod ingest_store;
mod ingest_update;
mod link_build;
mod link_fixes_title;
mod link_fixtures;
mod link_html_browser;
mod link_incremental;
mod link_props;
mod link_quoted_report;
mod link_real_mail;
mod link_relink_subset;
mod link_reply_model;
mod link_timing;
mod linkperf_relink;
mod lore_client;
mod marks_cli;
mod phrases_paraphrased;
mod readme_quickstart;
mod report_cli;
mod report_corpus;
mod report_fixtures;
mod report_props;
mod report_seeds;
mod robust_bad_input;
mod robust_fuzz_replay;
mod robust_readers;
mod robust_synth;
mod trees_cli;
mod trees_git;
mod trends_cli;
mod usable_cli;
mod usable_colours;
mod usable_completions;
mod usable_culprit;
mod usable_format;
mod usable_help;
mod usable_links;
mod usable_progress;
mod usable_report;
mod usable_status_groups;
