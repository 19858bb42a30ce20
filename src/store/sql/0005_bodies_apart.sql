-- regtrack schema v5: bodies in a table of their own, References in a
-- column, fewer indexes.

-- A `messages` row is then its headers and facts (about 450 bytes instead of
-- 2.8 KB on linux-ext4), so whatever scans it (the linker, statistics, every
-- index build after a bulk load) reads a sixth of the pages. A body is the
-- LZ4 block `store::body::pack` writes (`lz4`), or the plain text of a row an
-- older build stored (`text`).
CREATE TABLE bodies (
    message INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    text    TEXT,
    lz4     BLOB
);
INSERT INTO bodies (message, text, lz4)
    SELECT id, CASE WHEN body_lz4 IS NULL THEN body END, body_lz4 FROM messages
    WHERE body != '' OR body_lz4 IS NOT NULL;

-- The linker's covering index stood in for the table while rows held bodies.
-- The other four serve no query of regtrack's (the linker reads whole tables
-- in rowid order); each cost every insert, and a sort after a bulk load. (A
-- load killed before it built its indexes has them in `deferred_indexes`.)
DROP INDEX IF EXISTS messages_link;
DROP INDEX IF EXISTS messages_in_reply_to;
DROP INDEX IF EXISTS messages_norm_subject;
DROP INDEX IF EXISTS message_refs_ref;
DROP INDEX IF EXISTS trailers_key_value;
DELETE FROM deferred_indexes WHERE name IN ('messages_link', 'messages_in_reply_to',
    'messages_norm_subject', 'message_refs_ref', 'trailers_key_value');
ALTER TABLE messages DROP COLUMN body;
ALTER TABLE messages DROP COLUMN body_lz4;

-- References in a column of the message (space-separated, oldest first; a
-- Message-ID holds no white space), as the header has them and as threading
-- reads them: one row per reference cost an insert each (87,000 on
-- linux-ext4) and a second scan when linking.
ALTER TABLE messages ADD COLUMN refs TEXT NOT NULL DEFAULT '';
UPDATE messages SET refs = coalesce(
    (SELECT group_concat(ref_id, ' ' ORDER BY pos) FROM message_refs r WHERE r.message = messages.id),
    '');
DROP TABLE message_refs;
