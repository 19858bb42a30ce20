-- regtrack schema v7: the extractor version of every message, so that a newer
-- build re-extracts what an older one stored (`regtrack reindex`, and `ingest`
-- on its own). Every row written before carries version 1.
ALTER TABLE messages ADD COLUMN extraction_version INTEGER NOT NULL DEFAULT 1;
CREATE INDEX messages_extraction_version ON messages(extraction_version);
