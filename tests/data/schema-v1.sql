-- A regtrack database as schema version 1 left it: migration 0001 (frozen copy,
-- do not edit when the schema moves on) and a few rows. tests/robust_readers.rs
-- loads it into a fresh file, sets PRAGMA user_version=1 and opens it with the
-- current binary, which must migrate it and keep every row.

-- regtrack schema v1: messages, provenance, failures, and every extraction.
-- Times are Unix seconds (UTC). JSON columns hold lists whose shape is the
-- serde form of the matching type in src/model.rs.

CREATE TABLE messages (
    id              INTEGER PRIMARY KEY,
    message_id      TEXT NOT NULL UNIQUE,     -- without angle brackets
    message_id_derived INTEGER NOT NULL DEFAULT 0,
    subject         TEXT NOT NULL DEFAULT '',
    norm_subject    TEXT NOT NULL DEFAULT '', -- Re:/Fwd:/[LKP] stripped, white space folded
    from_name       TEXT,
    from_email      TEXT,
    date            INTEGER,
    in_reply_to     TEXT,
    kind            TEXT NOT NULL DEFAULT 'other',
    body            TEXT NOT NULL,
    parts_json      TEXT NOT NULL DEFAULT '[]',
    content_hash    TEXT NOT NULL,
    raw_size        INTEGER NOT NULL DEFAULT 0,
    origin_json     TEXT NOT NULL,            -- model::Origin of the first copy
    ingested_at     INTEGER NOT NULL
);
CREATE INDEX messages_date ON messages(date);
CREATE INDEX messages_in_reply_to ON messages(in_reply_to);
CREATE INDEX messages_norm_subject ON messages(norm_subject);
CREATE INDEX messages_kind ON messages(kind);

CREATE TABLE message_refs (
    message INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    pos     INTEGER NOT NULL,
    ref_id  TEXT NOT NULL,
    PRIMARY KEY (message, pos)
) WITHOUT ROWID;
CREATE INDEX message_refs_ref ON message_refs(ref_id);

CREATE TABLE message_lists (
    message INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    list_id TEXT NOT NULL,
    PRIMARY KEY (message, list_id)
) WITHOUT ROWID;

-- A second copy of a known Message-ID whose content differs.
CREATE TABLE duplicates (
    id           INTEGER PRIMARY KEY,
    message_id   TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    origin_json  TEXT NOT NULL,
    seen_at      INTEGER NOT NULL,
    UNIQUE (message_id, content_hash)
);

-- A message that could not be parsed: where, and why.
CREATE TABLE failures (
    id          INTEGER PRIMARY KEY,
    source      TEXT NOT NULL,     -- file path or git dir
    offset      INTEGER,           -- byte offset in a file
    git_commit  TEXT,              -- commit in a public-inbox epoch
    message_id  TEXT,
    reason      TEXT NOT NULL,
    at          INTEGER NOT NULL,
    UNIQUE (source, offset, git_commit)
);

-- Progress of incremental sources (public-inbox epochs: last commit ingested).
CREATE TABLE sources (
    source      TEXT PRIMARY KEY,  -- canonical path of the epoch git dir or file
    kind        TEXT NOT NULL,
    last_commit TEXT,
    size        INTEGER,
    mtime       INTEGER,
    updated_at  INTEGER NOT NULL
);

-- The whole extraction of a message (model::Extraction as JSON), for `parse`-like output.
CREATE TABLE extractions (
    message INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    json    TEXT NOT NULL
);

-- Report facts, one row per subject report or report body (and per impact entry).
CREATE TABLE reports (
    id             INTEGER PRIMARY KEY,
    message        INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    origin         TEXT NOT NULL,   -- 'subject' | 'body' | 'impact'
    branch         TEXT,            -- tree:branch
    subsystem      TEXT,
    commit_short   TEXT,
    commit_full    TEXT,
    commit_title   TEXT,
    metric         TEXT,
    change_percent REAL,
    direction      TEXT,
    failure        TEXT,
    testcase       TEXT,
    test_machine   TEXT,
    params_json    TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX reports_message ON reports(message);
CREATE INDEX reports_commit ON reports(commit_short);
CREATE INDEX reports_metric ON reports(metric);
CREATE INDEX reports_subsystem ON reports(subsystem);

CREATE TABLE tables (
    id           INTEGER PRIMARY KEY,
    message      INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    idx          INTEGER NOT NULL,
    format       TEXT NOT NULL,
    quote_depth  INTEGER NOT NULL,
    params_json  TEXT NOT NULL DEFAULT '[]',
    commits_json TEXT NOT NULL DEFAULT '[]',
    skipped_rows INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tables_message ON tables(message);

CREATE TABLE table_rows (
    tbl            INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    idx            INTEGER NOT NULL,
    metric         TEXT NOT NULL,
    max_abs_change REAL,           -- largest |change| over the columns, for headline rows
    row_json       TEXT NOT NULL,  -- model::TableRow
    PRIMARY KEY (tbl, idx)
) WITHOUT ROWID;
CREATE INDEX table_rows_metric ON table_rows(metric);

CREATE TABLE trailers (
    message     INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    key         TEXT NOT NULL,
    value       TEXT NOT NULL,
    suggested   INTEGER NOT NULL DEFAULT 0,
    commit_id   TEXT,
    title       TEXT,
    quote_depth INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message, idx)
) WITHOUT ROWID;
CREATE INDEX trailers_key_value ON trailers(key, value);
CREATE INDEX trailers_commit ON trailers(commit_id);

CREATE TABLE commit_refs (
    message     INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    commit_id   TEXT NOT NULL,
    title       TEXT,
    quote_depth INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message, commit_id)
) WITHOUT ROWID;
CREATE INDEX commit_refs_commit ON commit_refs(commit_id);

CREATE TABLE diffs (
    message     INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    old_path    TEXT,
    new_path    TEXT,
    quote_depth INTEGER NOT NULL DEFAULT 0,
    hunks_json  TEXT NOT NULL,
    PRIMARY KEY (message, idx)
) WITHOUT ROWID;

CREATE TABLE signals (
    message     INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    sentence    TEXT NOT NULL,
    quote_depth INTEGER NOT NULL DEFAULT 0,
    commit_id   TEXT,
    PRIMARY KEY (message, idx)
) WITHOUT ROWID;

CREATE TABLE events (
    message     INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    tree        TEXT,
    sha         TEXT,
    text        TEXT NOT NULL,
    quote_depth INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message, idx)
) WITHOUT ROWID;

CREATE TABLE lore_links (
    message    INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    target_id  TEXT NOT NULL,
    PRIMARY KEY (message, target_id)
) WITHOUT ROWID;
CREATE INDEX lore_links_target ON lore_links(target_id);

-- Rows: a robot report, a reply to it, a patch, one failure, one duplicate.
INSERT INTO messages (id, message_id, subject, norm_subject, from_name, from_email, date, in_reply_to, kind, body, parts_json, content_hash, raw_size, origin_json, ingested_at) VALUES
 (1, '202503031000.1a2b3c4d-lkp@intel.com', '[linus:master] [ext4]  6f7a8b9c0d:  fsmark.files_per_sec 6.3% regression', '[linus:master] [ext4] 6f7a8b9c0d: fsmark.files_per_sec 6.3% regression', 'kernel test robot', 'oliver.sang@intel.com', 1740996000, NULL, 'perf-report',
  'Hello,

kernel test robot noticed a 6.3% regression of fsmark.files_per_sec on:
', '[{"content_type":"text/plain","filename":null,"start":0,"end":80}]', 'h1', 2048, '{"type":"file","path":"v1.mbox","offset":0}', 1741000000),
 (2, 'reply-1@suse.cz', 'Re: [linus:master] [ext4]  6f7a8b9c0d:  fsmark.files_per_sec 6.3% regression', '[linus:master] [ext4] 6f7a8b9c0d: fsmark.files_per_sec 6.3% regression', 'Jan Kara', 'jack@suse.cz', 1741082400, '202503031000.1a2b3c4d-lkp@intel.com', 'reply', '> kernel test robot noticed a 6.3% regression
I will look at it.
', '[]', 'h2', 900, '{"type":"file","path":"v1.mbox","offset":2048}', 1741000000),
 (3, 'patch-1@huawei.com', '[PATCH] ext4: restore allocation goal', 'ext4: restore allocation goal', 'Zhang Yi', 'yi.zhang@huaweicloud.com', 1741168800, NULL, 'patch', 'Signed-off-by: Zhang Yi <yi.zhang@huaweicloud.com>
', '[]', 'h3', 1500, '{"type":"file","path":"v1.mbox","offset":2948}', 1741000000);
INSERT INTO message_refs (message, pos, ref_id) VALUES (2, 0, '202503031000.1a2b3c4d-lkp@intel.com');
INSERT INTO message_lists (message, list_id) VALUES (1, 'linux-ext4.vger.kernel.org'), (2, 'linux-ext4.vger.kernel.org'), (3, 'linux-ext4.vger.kernel.org');
INSERT INTO duplicates (message_id, content_hash, origin_json, seen_at) VALUES ('reply-1@suse.cz', 'h2b', '{"type":"file","path":"v1b.mbox","offset":0}', 1741000001);
INSERT INTO failures (source, offset, git_commit, message_id, reason, at) VALUES ('v1.mbox', 4448, NULL, NULL, 'message has no header block', 1741000000);
INSERT INTO sources (source, kind, last_commit, size, mtime, updated_at) VALUES ('v1.mbox', 'mbox', NULL, 4500, 1741000000, 1741000000);
INSERT INTO extractions (message, version, json) VALUES (1, 1, '{"kind":"perf-report"}');
INSERT INTO reports (message, origin, branch, subsystem, commit_short, metric, change_percent, direction, testcase, params_json) VALUES
 (1, 'subject', 'linus:master', 'ext4', '6f7a8b9c0d', 'fsmark.files_per_sec', -6.3, 'regression', NULL, '[]');
INSERT INTO trailers (message, idx, key, value) VALUES (3, 0, 'Signed-off-by', 'Zhang Yi <yi.zhang@huaweicloud.com>');
