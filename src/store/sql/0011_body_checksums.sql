-- regtrack schema v11: a checksum of each body block.

-- BLAKE3 of the block's stored bytes (the LZ4 block as written): a block
-- damaged on disk is an error naming its messages, never a wrong body.
-- Blocks written before v11 have none and are read as before.
ALTER TABLE body_blocks ADD COLUMN blake3 BLOB;
