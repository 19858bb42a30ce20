-- regtrack schema v6: bodies compressed together, in blocks.

-- The decoded bodies of consecutive new messages are concatenated, about
-- 256 KB at a time, and compressed as one LZ4 block (`store::body`): a patch
-- series, the replies quoting it and the robot's look-alike reports compress
-- against each other (linux-ext4: 193 MB of bodies in 72.5 MB instead of
-- 100 MB), and a block is one row where each body was one. A message names
-- its block and the byte range of its body in the block's text; an empty body
-- names none. Rows written before v6 keep their `bodies` row.
CREATE TABLE body_blocks (
    id  INTEGER PRIMARY KEY,
    lz4 BLOB NOT NULL
);
ALTER TABLE messages ADD COLUMN body_block INTEGER REFERENCES body_blocks(id);
ALTER TABLE messages ADD COLUMN body_start INTEGER;
ALTER TABLE messages ADD COLUMN body_len INTEGER;
