//! Writes regression histories and triage summaries: human text, JSON, CSV,
//! Markdown and a self-contained HTML report.
