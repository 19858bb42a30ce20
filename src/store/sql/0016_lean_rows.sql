-- regtrack schema v16: rows hold only what no other table gives.
-- `thread_ids` maps only the ids no message is stored under (ids
-- only referenced): a message's root is its `threads` row's.
DELETE FROM thread_ids WHERE id IN (SELECT message_id FROM messages);

-- A message's only copy read from a public-inbox epoch keeps no
-- `message_copies` row: the row held nothing the `messages` row and its
-- List-IDs do not (the epoch keeps the raw form). Rows that differ in
-- anything from what the message's row gives stay.
DELETE FROM message_copies
 WHERE id IN (
    SELECT c.id FROM message_copies c JOIN messages m ON m.id = c.message
     WHERE c.chosen = 1 AND c.complete = 1 AND c.reason IS NULL
       AND c.head_block IS NULL AND c.tail_block IS NULL
       AND json_extract(c.origin_json, '$.type') = 'git'
       AND c.origin_json = m.origin_json AND c.content_hash = m.content_hash
       AND c.from_name IS m.from_name AND c.from_email IS m.from_email
       AND c.raw_size = m.raw_size AND c.seen_at = m.ingested_at
       AND c.lists = coalesce((SELECT group_concat(list_id, ' ') FROM message_lists
                               WHERE message = m.id), '')
       AND (SELECT count(*) FROM message_copies o WHERE o.message = c.message) = 1);
