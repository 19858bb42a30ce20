-- regtrack schema v10: what lets an update relink only what new mail can
-- change. `link_keys` holds every key a message can tie itself to others by
-- (see src/link/keys.rs; filled at ingest and by re-extraction);
-- `thread_ids` maps every id the threading saw (messages and ids only
-- referenced) to its thread's root.
CREATE TABLE link_keys (
    message INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    key     TEXT NOT NULL,
    PRIMARY KEY (message, key)
) WITHOUT ROWID;
CREATE INDEX link_keys_key ON link_keys(key);

CREATE TABLE thread_ids (
    id   TEXT PRIMARY KEY,
    root TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX thread_ids_root ON thread_ids(root);

-- The messages the last link chose (whole threads a regression can
-- involve, see src/link/select.rs); `first` when chosen by the first step
-- (a seed's thread, a pointer into one, a fix the robot reported) rather
-- than as another posting or landing of a chosen patch.
CREATE TABLE link_chosen (
    message INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    first   INTEGER NOT NULL
);
