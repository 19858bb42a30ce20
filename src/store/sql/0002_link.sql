-- regtrack schema v2: threads and regression histories (written by `link`).

CREATE TABLE threads (
    message  INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    root_id  TEXT NOT NULL,      -- Message-ID of the thread root (may be a placeholder)
    parent_id TEXT,              -- Message-ID of the parent, after JWZ threading
    depth    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX threads_root ON threads(root_id);

CREATE TABLE regressions (
    id           INTEGER PRIMARY KEY,
    culprit      TEXT NOT NULL UNIQUE, -- longest known id of the culprit commit
    title        TEXT,
    subsystem    TEXT,
    branch       TEXT,
    status       TEXT NOT NULL,
    first_date   INTEGER,
    last_date    INTEGER,
    headline_metric TEXT,
    headline_change REAL,
    direction    TEXT,
    summary_json TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX regressions_subsystem ON regressions(subsystem);
CREATE INDEX regressions_status ON regressions(status);
CREATE INDEX regressions_first_date ON regressions(first_date);

-- Which messages belong to which regression, and in what role.
CREATE TABLE regression_messages (
    regression INTEGER NOT NULL REFERENCES regressions(id) ON DELETE CASCADE,
    message    INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    role       TEXT NOT NULL,   -- 'report' | 'reply' | 'patch' | 'patch-reply' | 'revert'
    reason     TEXT NOT NULL,   -- why it was attached
    PRIMARY KEY (regression, message)
) WITHOUT ROWID;
CREATE INDEX regression_messages_message ON regression_messages(message);

-- Status timeline with evidence.
CREATE TABLE regression_events (
    id         INTEGER PRIMARY KEY,
    regression INTEGER NOT NULL REFERENCES regressions(id) ON DELETE CASCADE,
    date       INTEGER,
    who        TEXT,
    event      TEXT NOT NULL,
    status     TEXT,
    message_id TEXT,
    reason     TEXT
);
CREATE INDEX regression_events_regression ON regression_events(regression);

-- Human decisions: survive re-ingest and re-linking (keyed by culprit, not by row id).
CREATE TABLE marks (
    id         INTEGER PRIMARY KEY,
    culprit    TEXT NOT NULL,
    status     TEXT NOT NULL,
    note       TEXT,
    author     TEXT NOT NULL,
    at         INTEGER NOT NULL
);
CREATE INDEX marks_culprit ON marks(culprit);

-- Every metric a regression's reports name (for `show <metric prefix>`).
CREATE TABLE regression_metrics (
    regression INTEGER NOT NULL REFERENCES regressions(id) ON DELETE CASCADE,
    metric     TEXT NOT NULL,
    PRIMARY KEY (regression, metric)
) WITHOUT ROWID;
CREATE INDEX regression_metrics_metric ON regression_metrics(metric);
