-- regtrack schema v18: a signal sentence says whether it was a guess
-- (hedged, or a phrase that is only ever a guess) and which commit id it
-- names, so that linking can tell a doubt from a decision and a sentence
-- about another report from one about this.
ALTER TABLE signals ADD COLUMN tentative INTEGER NOT NULL DEFAULT 0;
ALTER TABLE signals ADD COLUMN mentions TEXT;
-- A patch keeps what its diff touches (files and functions) and the words
-- of its changelog that speak of performance or of the robot, newline
-- separated: what weighs it as a fix candidate.
ALTER TABLE patches ADD COLUMN touches TEXT;
ALTER TABLE patches ADD COLUMN speaks_of TEXT;
-- A mark may name the fix by its posting (`regtrack mark X --fix
-- <Message-ID>`).
ALTER TABLE marks ADD COLUMN fix_patch TEXT;
