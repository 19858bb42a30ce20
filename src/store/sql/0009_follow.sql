-- regtrack schema v9: when `regtrack follow` last asked a public-inbox server
-- about each regression (keyed by culprit, so that it survives re-linking).
CREATE TABLE follows (
    culprit TEXT PRIMARY KEY,
    at      INTEGER NOT NULL
);
