-- regtrack schema v15: marks that name a fix commit, a release or a
-- duplicate, and withdrawals (`regtrack unmark`).

-- A mark sets a status, or names a fix commit (`--fix`), a release
-- (`--fixed-in`), the history it duplicates (`dup-of`), or withdraws an
-- earlier mark; a row may do several at once, so `status` may be NULL. Rows
-- are only ever added: a withdrawal is a row of its own, and both stay in
-- the timeline.
CREATE TABLE marks_v15 (
    id         INTEGER PRIMARY KEY,
    culprit    TEXT NOT NULL,
    status     TEXT,
    note       TEXT,
    author     TEXT NOT NULL,
    at         INTEGER NOT NULL,
    fix        TEXT,
    fixed_in   TEXT,
    dup_of     TEXT,
    withdraws  INTEGER REFERENCES marks_v15(id)
);
INSERT INTO marks_v15 (id, culprit, status, note, author, at)
    SELECT id, culprit, status, note, author, at FROM marks;
DROP TABLE marks;
ALTER TABLE marks_v15 RENAME TO marks;
CREATE INDEX marks_culprit ON marks(culprit);

-- The id each culprit's history was given, kept when the history goes (it
-- joined another as a duplicate, and may come back when the mark is
-- withdrawn), so that a history keeps its id and no other takes it.
CREATE TABLE regression_ids (
    culprit TEXT PRIMARY KEY,
    id      INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO regression_ids (culprit, id) SELECT culprit, id FROM regressions;
