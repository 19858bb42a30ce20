-- regtrack schema v4: deferred indexes for bulk loads, compressed bodies.

-- Secondary indexes an ingest into an empty database drops and builds again
-- at its end (one sort per index instead of millions of
-- B-tree inserts). A row here is an index to recreate: a killed first ingest
-- leaves them, and the next ingest builds them before it writes.

CREATE TABLE deferred_indexes (
    name TEXT PRIMARY KEY,
    sql  TEXT NOT NULL          -- the CREATE INDEX statement, from sqlite_master
);

-- Decoded bodies are stored LZ4-compressed (one frame of the UTF-8 text);
-- `body` is then ''. Rows of older builds keep `body` and a NULL here.
-- `regtrack mail <message-id>` prints a stored message either way.
ALTER TABLE messages ADD COLUMN body_lz4 BLOB;
