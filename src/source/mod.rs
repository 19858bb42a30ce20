//! Readers for every input form: mbox (mboxrd/mboxo, gzip), Maildir, `.eml`
//! folders, single files, standard input, public-inbox git archives, and
//! archive-rendered text. Each yields [`crate::model::RawMessage`]s with their origin.
