-- regtrack schema v13: local kernel clones followed with `regtrack trees`
-- (see src/store/trees.rs). What a walk of each followed ref delivered is
-- kept: every commit once (`tree_commits`), the trailers linking reads
-- (`tree_trailers`), and which ref holds it with the first release that
-- contains it in that tree (`tree_contains`); a force push deletes the
-- vanished commits' `tree_contains` rows.
CREATE TABLE trees (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL UNIQUE,
    path     TEXT NOT NULL,
    -- crate::trees::ReleaseIndex::to_bytes, after the last sync.
    releases BLOB,
    added_at INTEGER NOT NULL,
    synced_at INTEGER
);

CREATE TABLE tree_refs (
    id      INTEGER PRIMARY KEY,
    tree    INTEGER NOT NULL REFERENCES trees(id) ON DELETE CASCADE,
    name    TEXT NOT NULL,
    -- The tip read last time (40 hex), NULL before the first walk.
    tip     TEXT,
    read_at INTEGER,
    UNIQUE (tree, name)
);

CREATE TABLE tree_commits (
    id             INTEGER PRIMARY KEY,
    oid            TEXT NOT NULL UNIQUE,
    title          TEXT NOT NULL,
    -- crate::link::hints::title_key of the title.
    title_key      TEXT NOT NULL,
    author_name    TEXT NOT NULL,
    author_email   TEXT NOT NULL,
    author_time    INTEGER NOT NULL,
    committer_time INTEGER NOT NULL,
    reverts        TEXT,
    upstream       TEXT
);
CREATE INDEX tree_commits_title ON tree_commits(title_key);
CREATE INDEX tree_commits_reverts ON tree_commits(reverts) WHERE reverts IS NOT NULL;
CREATE INDEX tree_commits_upstream ON tree_commits(upstream) WHERE upstream IS NOT NULL;

CREATE TABLE tree_trailers (
    commit_id INTEGER NOT NULL REFERENCES tree_commits(id) ON DELETE CASCADE,
    key       TEXT NOT NULL,
    value     TEXT NOT NULL,
    -- Fixes: the commit id (lower-case hex); Closes/Link: the Message-ID
    -- of a lore URL; else NULL.
    target    TEXT
);
CREATE INDEX tree_trailers_commit ON tree_trailers(commit_id);
CREATE INDEX tree_trailers_target ON tree_trailers(target) WHERE target IS NOT NULL;

CREATE TABLE tree_contains (
    ref       INTEGER NOT NULL REFERENCES tree_refs(id) ON DELETE CASCADE,
    commit_id INTEGER NOT NULL REFERENCES tree_commits(id),
    release   TEXT,
    PRIMARY KEY (ref, commit_id)
) WITHOUT ROWID;
CREATE INDEX tree_contains_commit ON tree_contains(commit_id);

-- Set by a sync that stored commits the histories may need: the next link
-- relinks everything, saying this reason, and clears it.
CREATE TABLE tree_link_pending (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    reason TEXT NOT NULL
);
