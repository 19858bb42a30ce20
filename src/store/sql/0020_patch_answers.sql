-- regtrack schema v20: a patch says whether one sentence of its own
-- changelog names the robot and speaks of performance or a regression
-- ("thanks to the 0day robot for catching a performance bug"): a later
-- version of a culprit that says so answers the robot's report.
ALTER TABLE patches ADD COLUMN robot_perf INTEGER NOT NULL DEFAULT 0;
-- A cover letter keeps its shortlog's titles (title keys, newline
-- separated): an `Applied` reply to the cover letter lands every part it
-- lists, also the parts posted only to other lists.
ALTER TABLE patches ADD COLUMN series_titles TEXT;
