-- regtrack schema v19: a message read from a file keeps its raw form once.
--
-- The raw form of a message's chosen copy is its header block (the raw
-- bytes up to and including the blank line) followed by its stored body.
-- `head_*` name the header block (in a block of headers, zstd-compressed:
-- see src/store/body.rs). The body range holds the decoded body when that
-- is byte for byte the raw body (most list mail), else the raw body
-- (`body_raw` = 1: quoted-printable, base64, multipart; stored right after
-- its header block), from which the body is decoded again when read.
-- Nothing is stored twice.
-- No header block: no raw form is stored here (a message read from a
-- public-inbox epoch, which keeps it; archive-rendered text; a message
-- stored before v14).
ALTER TABLE messages ADD COLUMN head_block INTEGER REFERENCES body_blocks(id);
ALTER TABLE messages ADD COLUMN head_start INTEGER;
ALTER TABLE messages ADD COLUMN head_len INTEGER;
ALTER TABLE messages ADD COLUMN body_raw INTEGER NOT NULL DEFAULT 0;

-- A message's only copy keeps no `message_copies` row (as an epoch's did
-- since v16): the `messages` row and its List-IDs hold all of it. Rows
-- whose raw form is a header range followed by the message's own body range
-- (or the header range alone, for a message without a body) move their
-- header range into the `messages` row and go; rows that differ in
-- anything from what the message's row gives stay, and so does a row
-- holding a whole raw message in its head range (stored beside a decoded
-- body that is not the raw one: the blocks are not rewritten).
CREATE TEMP TABLE v19_folded AS
SELECT c.id AS copy, c.message AS message, c.head_block AS head_block,
       c.head_start AS head_start, c.head_len AS head_len
  FROM message_copies c JOIN messages m ON m.id = c.message
 WHERE c.chosen = 1 AND c.complete = 1 AND c.reason IS NULL
   AND c.head_block IS NOT NULL
   AND ((c.tail_block = m.body_block AND c.tail_start = m.body_start
         AND c.tail_len = m.body_len AND m.body_len > 0)
        OR (c.tail_block IS NULL AND m.body_block IS NULL
            AND NOT EXISTS (SELECT 1 FROM bodies b WHERE b.message = m.id)))
   AND c.origin_json = m.origin_json AND c.content_hash = m.content_hash
   AND c.from_name IS m.from_name AND c.from_email IS m.from_email
   AND c.raw_size = m.raw_size AND c.seen_at = m.ingested_at
   AND c.lists = coalesce((SELECT group_concat(list_id, ' ') FROM message_lists
                           WHERE message = m.id), '')
   AND (SELECT count(*) FROM message_copies o WHERE o.message = c.message) = 1;

UPDATE messages
   SET head_block = f.head_block, head_start = f.head_start, head_len = f.head_len
  FROM v19_folded f
 WHERE messages.id = f.message;

DELETE FROM message_copies WHERE id IN (SELECT copy FROM v19_folded);
DROP TABLE v19_folded;
