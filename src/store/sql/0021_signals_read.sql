-- regtrack schema v21: whether a message's signals were read. An ingest
-- leaves the signals of every message but robot mail unread (0): reading
-- sentences with the phrase book cost an ingest of linux-ext4 8 % of its CPU
-- time and 28 MiB of its peak memory, and only
-- the messages a regression involves need them. A link reads them from the
-- stored body when it first asks for them, writes its `signals` rows and
-- sets 1. Every message stored before was read whole.
ALTER TABLE messages ADD COLUMN signals_read INTEGER NOT NULL DEFAULT 1;
CREATE INDEX messages_signals_unread ON messages(id) WHERE signals_read = 0;
