-- regtrack schema v8: what identifies the patch a message carries, and where
-- messages say patches landed (model::PatchFacts, model::Landing). Filled at
-- ingest, and by re-extraction for messages an older build stored.

CREATE TABLE patches (
    message       INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    title         TEXT NOT NULL DEFAULT '',
    title_key     TEXT NOT NULL DEFAULT '',
    version       INTEGER,
    part          INTEGER,
    parts         INTEGER,
    resend        INTEGER NOT NULL DEFAULT 0,
    rfc           INTEGER NOT NULL DEFAULT 0,
    patch_id      TEXT,
    change_id     TEXT,
    base_commit   TEXT,
    reverts       TEXT,
    reverts_title TEXT,
    upstream      TEXT
);
CREATE INDEX patches_title_key ON patches(title_key);
CREATE INDEX patches_patch_id ON patches(patch_id);
CREATE INDEX patches_change_id ON patches(change_id);

CREATE TABLE landings (
    message     INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    title       TEXT,
    commit_id   TEXT,
    tree        TEXT,
    branch      TEXT,
    quote_depth INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message, idx)
) WITHOUT ROWID;
CREATE INDEX landings_title ON landings(title);
CREATE INDEX landings_commit ON landings(commit_id);
