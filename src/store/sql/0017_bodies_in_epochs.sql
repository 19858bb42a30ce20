-- regtrack schema v17: a message whose chosen copy was read from a
-- public-inbox epoch stores no body: `messages.body_block` is NULL and the
-- body is decoded again from the epoch's blob under the commit its
-- `origin_json` names (see src/store/body.rs). Nothing is rewritten: rows
-- stored before keep their blocks. The version is raised so that an older
-- build, which would read such a message's body as empty, refuses the file.
UPDATE messages SET body_block = body_block WHERE 0;
