-- regtrack schema v3: what the link tables were computed from, so an ingest
-- that stored nothing new skips re-linking (one row, id = 1).

CREATE TABLE link_state (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    logic_version INTEGER NOT NULL,  -- link::LINK_LOGIC_VERSION that wrote the tables
    max_message   INTEGER NOT NULL,  -- highest messages.id linked
    messages      INTEGER NOT NULL,  -- count of messages linked
    max_mark      INTEGER NOT NULL,  -- highest marks.id applied
    marks         INTEGER NOT NULL,  -- count of marks applied
    linked_at     INTEGER NOT NULL
);

-- Covering indexes for relinking: the headers linking reads, without touching
-- the table rows (which hold the bodies), and whether a message has its own diff.
CREATE INDEX messages_link ON messages(id, message_id, subject, from_name, from_email, date,
    in_reply_to, kind);
CREATE INDEX diffs_depth ON diffs(message, quote_depth);
-- `show <subsystem>` compares case-insensitively.
CREATE INDEX regressions_subsystem_nocase ON regressions(subsystem COLLATE NOCASE);
