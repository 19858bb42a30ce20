-- regtrack schema v12: rows a table left out by its cap.

-- A table stores at most 10,000 rows, a body 20,000 (`report::table`); the
-- rows past the cap are counted here, as `skipped_rows` counts the rows
-- that did not fit.
ALTER TABLE tables ADD COLUMN omitted_rows INTEGER NOT NULL DEFAULT 0;
