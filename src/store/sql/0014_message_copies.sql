-- regtrack schema v14: every copy of a Message-ID, and each copy's raw form.

-- One row per distinct copy (content hash) of a stored message: the copy
-- whose headers, body and extraction the `messages` row holds is `chosen`
-- (see crate::mail::copies for the rule and `reason` for why it won); the
-- others are kept, so that a better copy ingested later can replace it.
-- A copy with the same content as one stored (the same mail on another list)
-- adds its List-IDs to the message and no row here.
--
-- The raw form (the message as received, headers and body, mbox quoting
-- undone) is two byte ranges of `body_blocks` texts, read one after the
-- other: `head_*` (the header block, or the whole message) and `tail_*`
-- (the body, when it is byte for byte the decoded body: the range is then
-- that body's own, stored once). No head range: the raw form is not stored
-- (a copy stored before v14, or read from archive-rendered text).
CREATE TABLE message_copies (
    id           INTEGER PRIMARY KEY,
    message      INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    content_hash TEXT NOT NULL,
    origin_json  TEXT NOT NULL,            -- model::Origin of this copy
    from_name    TEXT,
    from_email   TEXT,
    raw_size     INTEGER NOT NULL DEFAULT 0,
    lists        TEXT NOT NULL DEFAULT '', -- this copy's List-IDs, space-separated
    complete     INTEGER NOT NULL DEFAULT 1, -- 0: cut short (another copy extends it)
    chosen       INTEGER NOT NULL DEFAULT 0,
    reason       TEXT,                     -- why the chosen copy won (NULL: alone)
    head_block   INTEGER REFERENCES body_blocks(id),
    head_start   INTEGER,
    head_len     INTEGER,
    tail_block   INTEGER REFERENCES body_blocks(id),
    tail_start   INTEGER,
    tail_len     INTEGER,
    seen_at      INTEGER NOT NULL
);
CREATE INDEX message_copies_message ON message_copies(message);

-- Every stored message is its own chosen copy, its raw form not stored;
-- the later copies `duplicates` recorded are kept as copies without one.
INSERT INTO message_copies (message, content_hash, origin_json, from_name, from_email,
        raw_size, lists, chosen, seen_at)
    SELECT m.id, m.content_hash, m.origin_json, m.from_name, m.from_email, m.raw_size,
           coalesce((SELECT group_concat(list_id, ' ') FROM message_lists l
                     WHERE l.message = m.id), ''),
           1, m.ingested_at
    FROM messages m ORDER BY m.id;
INSERT INTO message_copies (message, content_hash, origin_json, chosen, seen_at)
    SELECT m.id, d.content_hash, d.origin_json, 0, d.seen_at
    FROM duplicates d JOIN messages m ON m.message_id = d.message_id ORDER BY d.id;
DROP TABLE duplicates;

-- Messages whose stored copy a better one replaced since the last link,
-- when the two have the same linking facts (headers, kind, link keys,
-- trailers, patch facts, landings, events): the next update relinks what
-- they reach (crate::pipeline::relink). A replacement that changes any of
-- those makes the next link a full one instead.
CREATE TABLE link_changed (
    message INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE
);
