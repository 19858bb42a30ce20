-- A regtrack database as schema version 5 left it: written by the build of
-- commit 5f6310b (`regtrack ingest corpus/threads/001-fixed-history.mbox`,
-- then `sqlite3 .dump`; frozen, do not edit when the schema moves on).
-- tests/robust_readers.rs loads it into a fresh file, sets PRAGMA
-- user_version=5 and opens it with the current binary, which must migrate it,
-- keep every row, and read its bodies (one LZ4 block per message, in
-- `bodies`).

PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE messages (
    id              INTEGER PRIMARY KEY,
    message_id      TEXT NOT NULL UNIQUE,     -- without angle brackets
    message_id_derived INTEGER NOT NULL DEFAULT 0,
    subject         TEXT NOT NULL DEFAULT '',
    norm_subject    TEXT NOT NULL DEFAULT '', -- Re:/Fwd:/[LKP] stripped, white space folded
    from_name       TEXT,
    from_email      TEXT,
    date            INTEGER,
    in_reply_to     TEXT,
    kind            TEXT NOT NULL DEFAULT 'other',
    parts_json      TEXT NOT NULL DEFAULT '[]',
    content_hash    TEXT NOT NULL,
    raw_size        INTEGER NOT NULL DEFAULT 0,
    origin_json     TEXT NOT NULL,            -- model::Origin of the first copy
    ingested_at     INTEGER NOT NULL
, refs TEXT NOT NULL DEFAULT '');
INSERT INTO messages VALUES(1,'202403151023.5e1f2a3b-lkp@intel.com',0,'[linus:master] [ext4]  5e1f2a3b4c:  fsmark.files_per_sec -12.3% regression','[linus:master] [ext4] 5e1f2a3b4c: fsmark.files_per_sec -12.3% regression','kernel test robot','oliver.sang@intel.com',1710469380,NULL,'perf-report','[{"content_type":"text/plain","filename":null,"start":0,"end":2289}]','519423e68fa45e8d0e46590860a379eefc03d9fd169d2f97b39175a00723e077',2671,'{"type":"file","path":"corpus/threads/001-fixed-history.mbox","offset":0}',1796113169,'');
INSERT INTO messages VALUES(2,'20240315101500.aaaa1111@quack3',0,'Re: [linus:master] [ext4]  5e1f2a3b4c:  fsmark.files_per_sec -12.3% regression','[linus:master] [ext4] 5e1f2a3b4c: fsmark.files_per_sec -12.3% regression','Jan Kara','jack@suse.cz',1710497700,'202403151023.5e1f2a3b-lkp@intel.com','reply','[{"content_type":"text/plain","filename":null,"start":0,"end":509}]','0a0fb82c49edb9598d00997235299d8e42edc4fae3b3c43b5833bbf0ce3bbd15',973,'{"type":"file","path":"corpus/threads/001-fixed-history.mbox","offset":2711}',1796113169,'202403151023.5e1f2a3b-lkp@intel.com');
INSERT INTO messages VALUES(3,'20240318093000.bbbb2222@quack3',0,'Re: [linus:master] [ext4]  5e1f2a3b4c:  fsmark.files_per_sec -12.3% regression','[linus:master] [ext4] 5e1f2a3b4c: fsmark.files_per_sec -12.3% regression','Jan Kara','jack@suse.cz',1710750600,'20240315101500.aaaa1111@quack3','reply','[{"content_type":"text/plain","filename":null,"start":0,"end":607}]','006f2c8c1410448797a1c8b78b41e9d829aee82eacdee18ec8c6a18948d6f52d',1100,'{"type":"file","path":"corpus/threads/001-fixed-history.mbox","offset":3724}',1796113169,'202403151023.5e1f2a3b-lkp@intel.com 20240315101500.aaaa1111@quack3');
INSERT INTO messages VALUES(4,'ZfhT3xsang0001@xsang-OptiPlex-9020',0,'Re: [linus:master] [ext4]  5e1f2a3b4c:  fsmark.files_per_sec -12.3% regression','[linus:master] [ext4] 5e1f2a3b4c: fsmark.files_per_sec -12.3% regression','Oliver Sang','oliver.sang@intel.com',1710914520,'20240318093000.bbbb2222@quack3','reply','[{"content_type":"text/plain","filename":null,"start":0,"end":1165}]','50f53f9559481d35d2347337b2bb2648c1d6c38d5542a93521ceb41d3ffe0ba7',1708,'{"type":"file","path":"corpus/threads/001-fixed-history.mbox","offset":4864}',1796113169,'202403151023.5e1f2a3b-lkp@intel.com 20240315101500.aaaa1111@quack3 20240318093000.bbbb2222@quack3');
INSERT INTO messages VALUES(5,'171099887766.1122.tytso@mit.edu',0,'Re: [PATCH] ext4: only lock the orphan list for orphans','[PATCH] ext4: only lock the orphan list for orphans','Theodore Ts''o','tytso@mit.edu',1711678200,'20240321120000.12345-1-jack@suse.cz','reply','[{"content_type":"text/plain","filename":null,"start":0,"end":346}]','2aaaf312f84cefda3dfda7e30101eb651c362aac47ef82d50486421b3fa48217',796,'{"type":"file","path":"corpus/threads/001-fixed-history.mbox","offset":6612}',1796113169,'20240321120000.12345-1-jack@suse.cz');
INSERT INTO messages VALUES(6,'20240321120000.12345-1-jack@suse.cz',0,'[PATCH] ext4: only lock the orphan list for orphans','[PATCH] ext4: only lock the orphan list for orphans','Jan Kara','jack@suse.cz',1711018800,NULL,'patch','[{"content_type":"text/plain","filename":null,"start":0,"end":979}]','59a299e513841a22fc25a145292a5cee01300a8621984d999d2e2305eaa313c2',1320,'{"type":"file","path":"corpus/threads/001-fixed-history.mbox","offset":7448}',1796113169,'');
CREATE TABLE message_lists (
    message INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    list_id TEXT NOT NULL,
    PRIMARY KEY (message, list_id)
) WITHOUT ROWID;
INSERT INTO message_lists VALUES(1,'linux-ext4.vger.kernel.org');
INSERT INTO message_lists VALUES(2,'linux-ext4.vger.kernel.org');
INSERT INTO message_lists VALUES(3,'linux-ext4.vger.kernel.org');
INSERT INTO message_lists VALUES(4,'linux-ext4.vger.kernel.org');
INSERT INTO message_lists VALUES(5,'linux-ext4.vger.kernel.org');
INSERT INTO message_lists VALUES(6,'linux-ext4.vger.kernel.org');
CREATE TABLE duplicates (
    id           INTEGER PRIMARY KEY,
    message_id   TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    origin_json  TEXT NOT NULL,
    seen_at      INTEGER NOT NULL,
    UNIQUE (message_id, content_hash)
);
CREATE TABLE failures (
    id          INTEGER PRIMARY KEY,
    source      TEXT NOT NULL,     -- file path or git dir
    offset      INTEGER,           -- byte offset in a file
    git_commit  TEXT,              -- commit in a public-inbox epoch
    message_id  TEXT,
    reason      TEXT NOT NULL,
    at          INTEGER NOT NULL,
    UNIQUE (source, offset, git_commit)
);
CREATE TABLE sources (
    source      TEXT PRIMARY KEY,  -- canonical path of the epoch git dir or file
    kind        TEXT NOT NULL,
    last_commit TEXT,
    size        INTEGER,
    mtime       INTEGER,
    updated_at  INTEGER NOT NULL
);
INSERT INTO sources VALUES('/work/main/corpus/threads/001-fixed-history.mbox','file',NULL,8808,1796095416166358052,1796113169);
CREATE TABLE extractions (
    message INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    json    TEXT NOT NULL
);
INSERT INTO extractions VALUES(1,1,'{"kind":"perf-report","subject_report":{"branch":"linus:master","subsystem":"ext4","commit":"5e1f2a3b4c","metric":"fsmark.files_per_sec","change_percent":-12.3,"direction":"regression","failure":null,"tags":[],"trailing":null,"is_reply":false},"report":{"commit_full":"5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b","commit_title":"ext4: take the orphan lock only when needed","metric":"fsmark.files_per_sec","change_percent":-12.3,"direction":"regression","tree_url":"https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git master","url":null,"base":null,"patch_link":null,"testcase":"fsmark","test_machine":"64 threads 2 sockets Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz (Ice Lake) with 256G memory","parameters":[["nr_threads","100%"],["disk","1SSD"],["testtime","60s"],["fs","ext4"],["cpufreq_governor","performance"]],"test_description":null,"test_url":null,"also_impacts":[],"suggested_tags":[{"key":"Reported-by","value":"kernel test robot <oliver.sang@intel.com>","suggested":true,"quote_depth":0},{"key":"Closes","value":"https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com","suggested":true,"quote_depth":0}],"reproduce":["https://download.01.org/0day-ci/archive/20240315/202403151023.5e1f2a3b-lkp@intel.com"]},"tables":[{"format":"lkp","quote_depth":0,"params":[["compiler","gcc-12"],["cpufreq_governor","performance"],["disk","1SSD"],["fs","ext4"],["kconfig","x86_64-rhel-9.4"],["nr_threads","100%"],["rootfs","debian-12-x86_64-20240206.cgz"],["tbox_group","lkp-icl-2sp8"],["test","bench"],["testcase","demo"],["testtime","60s"]],"commits":["1a2b3c4d5e6f7a8b","5e1f2a3b4c5d6e7f8091a2b3c4d"],"commit_titles":[["1a2b3c4d5e6f7a8b","ext4: base commit"],["5e1f2a3b4c5d6e7f8091a2b3c4d","ext4: take the orphan lock only when needed"]],"rows":[{"metric":"fsmark.files_per_sec","values":[14484.0,12703.0],"stddev_percent":[2.0,3.0],"stddev_small":[false,false],"changes":[null,{"value":-12.3,"unit":"%"}]},{"metric":"vmstat.system.cs","values":[1688381.0,1411358.0],"stddev_percent":[2.0,4.0],"stddev_small":[false,false],"changes":[null,{"value":-16.4,"unit":"%"}]},{"metric":"meminfo.Active","values":[3186734.0,2770907.0],"stddev_percent":[2.0,null],"stddev_small":[false,true],"changes":[null,{"value":-13.0,"unit":"%"}]},{"metric":"iostat.cpu.user","values":[2.29,1.99],"stddev_percent":[6.0,7.0],"stddev_small":[false,false],"changes":[null,{"value":-13.2,"unit":"%"}]},{"metric":"perf-sched.total_wait_time.average.ms","values":[0.3,0.36],"stddev_percent":[2.0,3.0],"stddev_small":[false,false],"changes":[null,{"value":19.3,"unit":"%"}]}],"skipped_rows":0,"offset":1458}],"diffs":[],"trailers":[{"key":"Reported-by","value":"kernel test robot <oliver.sang@intel.com>","suggested":true,"quote_depth":0},{"key":"Closes","value":"https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com","suggested":true,"quote_depth":0}],"commits":[{"id":"5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b","title":"ext4: take the orphan lock only when needed","quote_depth":0},{"id":"1a2b3c4d5e","title":"ext4: base commit","quote_depth":0}],"profiles":[],"reproducers":[],"kconfig":[],"signals":[],"events":[],"lore_links":[]}');
INSERT INTO extractions VALUES(2,1,'{"kind":"reply","subject_report":{"branch":"linus:master","subsystem":"ext4","commit":"5e1f2a3b4c","metric":"fsmark.files_per_sec","change_percent":-12.3,"direction":"regression","failure":null,"tags":[],"trailing":null,"is_reply":true},"report":null,"tables":[],"diffs":[],"trailers":[],"commits":[],"profiles":[],"reproducers":[],"kconfig":[],"signals":[],"events":[],"lore_links":[]}');
INSERT INTO extractions VALUES(3,1,'{"kind":"reply","subject_report":{"branch":"linus:master","subsystem":"ext4","commit":"5e1f2a3b4c","metric":"fsmark.files_per_sec","change_percent":-12.3,"direction":"regression","failure":null,"tags":[],"trailing":null,"is_reply":true},"report":null,"tables":[],"diffs":[],"trailers":[],"commits":[],"profiles":[],"reproducers":[],"kconfig":[],"signals":[],"events":[],"lore_links":[]}');
INSERT INTO extractions VALUES(4,1,'{"kind":"reply","subject_report":{"branch":"linus:master","subsystem":"ext4","commit":"5e1f2a3b4c","metric":"fsmark.files_per_sec","change_percent":-12.3,"direction":"regression","failure":null,"tags":[],"trailing":null,"is_reply":true},"report":null,"tables":[],"diffs":[],"trailers":[],"commits":[],"profiles":[],"reproducers":[],"kconfig":[],"signals":[],"events":[],"lore_links":[]}');
CREATE TABLE reports (
    id             INTEGER PRIMARY KEY,
    message        INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    origin         TEXT NOT NULL,   -- 'subject' | 'body' | 'impact'
    branch         TEXT,            -- tree:branch
    subsystem      TEXT,
    commit_short   TEXT,
    commit_full    TEXT,
    commit_title   TEXT,
    metric         TEXT,
    change_percent REAL,
    direction      TEXT,
    failure        TEXT,
    testcase       TEXT,
    test_machine   TEXT,
    params_json    TEXT NOT NULL DEFAULT '[]'
);
INSERT INTO reports VALUES(1,1,'subject','linus:master','ext4','5e1f2a3b4c','5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b','ext4: take the orphan lock only when needed','fsmark.files_per_sec',-12.30000000000000071,'regression',NULL,NULL,NULL,'[]');
INSERT INTO reports VALUES(2,1,'body','linus:master','ext4','5e1f2a3b4c','5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b','ext4: take the orphan lock only when needed','fsmark.files_per_sec',-12.30000000000000071,'regression',NULL,'fsmark','64 threads 2 sockets Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz (Ice Lake) with 256G memory','[["nr_threads","100%"],["disk","1SSD"],["testtime","60s"],["fs","ext4"],["cpufreq_governor","performance"]]');
INSERT INTO reports VALUES(3,2,'subject','linus:master','ext4','5e1f2a3b4c',NULL,NULL,'fsmark.files_per_sec',-12.30000000000000071,'regression',NULL,NULL,NULL,'[]');
INSERT INTO reports VALUES(4,3,'subject','linus:master','ext4','5e1f2a3b4c',NULL,NULL,'fsmark.files_per_sec',-12.30000000000000071,'regression',NULL,NULL,NULL,'[]');
INSERT INTO reports VALUES(5,4,'subject','linus:master','ext4','5e1f2a3b4c',NULL,NULL,'fsmark.files_per_sec',-12.30000000000000071,'regression',NULL,NULL,NULL,'[]');
CREATE TABLE tables (
    id           INTEGER PRIMARY KEY,
    message      INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    idx          INTEGER NOT NULL,
    format       TEXT NOT NULL,
    quote_depth  INTEGER NOT NULL,
    params_json  TEXT NOT NULL DEFAULT '[]',
    commits_json TEXT NOT NULL DEFAULT '[]',
    skipped_rows INTEGER NOT NULL DEFAULT 0
);
INSERT INTO tables VALUES(1,1,0,'lkp',0,'[["compiler","gcc-12"],["cpufreq_governor","performance"],["disk","1SSD"],["fs","ext4"],["kconfig","x86_64-rhel-9.4"],["nr_threads","100%"],["rootfs","debian-12-x86_64-20240206.cgz"],["tbox_group","lkp-icl-2sp8"],["test","bench"],["testcase","demo"],["testtime","60s"]]','["1a2b3c4d5e6f7a8b","5e1f2a3b4c5d6e7f8091a2b3c4d"]',0);
INSERT INTO tables VALUES(2,4,0,'lkp',0,'[["compiler","gcc-12"],["cpufreq_governor","performance"],["disk","1SSD"],["fs","ext4"],["kconfig","x86_64-rhel-9.4"],["nr_threads","100%"],["rootfs","debian-12-x86_64-20240206.cgz"],["tbox_group","lkp-icl-2sp8"],["test","bench"],["testcase","demo"],["testtime","60s"]]','["1a2b3c4d5e6f7a8b","5e1f2a3b4c5d6e7f8091a2b3c4d","9f8e7d6c5b4a39281706f5e4d3c"]',0);
CREATE TABLE table_rows (
    tbl            INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    idx            INTEGER NOT NULL,
    metric         TEXT NOT NULL,
    max_abs_change REAL,           -- largest |change| over the columns, for headline rows
    row_json       TEXT NOT NULL,  -- model::TableRow
    PRIMARY KEY (tbl, idx)
) WITHOUT ROWID;
INSERT INTO table_rows VALUES(1,0,'fsmark.files_per_sec',12.30000000000000071,'{"metric":"fsmark.files_per_sec","values":[14484.0,12703.0],"stddev_percent":[2.0,3.0],"stddev_small":[false,false],"changes":[null,{"value":-12.3,"unit":"%"}]}');
INSERT INTO table_rows VALUES(1,1,'vmstat.system.cs',16.399999999999998578,'{"metric":"vmstat.system.cs","values":[1688381.0,1411358.0],"stddev_percent":[2.0,4.0],"stddev_small":[false,false],"changes":[null,{"value":-16.4,"unit":"%"}]}');
INSERT INTO table_rows VALUES(1,2,'meminfo.Active',13.0,'{"metric":"meminfo.Active","values":[3186734.0,2770907.0],"stddev_percent":[2.0,null],"stddev_small":[false,true],"changes":[null,{"value":-13.0,"unit":"%"}]}');
INSERT INTO table_rows VALUES(1,3,'iostat.cpu.user',13.199999999999999289,'{"metric":"iostat.cpu.user","values":[2.29,1.99],"stddev_percent":[6.0,7.0],"stddev_small":[false,false],"changes":[null,{"value":-13.2,"unit":"%"}]}');
INSERT INTO table_rows VALUES(1,4,'perf-sched.total_wait_time.average.ms',19.30000000000000071,'{"metric":"perf-sched.total_wait_time.average.ms","values":[0.3,0.36],"stddev_percent":[2.0,3.0],"stddev_small":[false,false],"changes":[null,{"value":19.3,"unit":"%"}]}');
INSERT INTO table_rows VALUES(2,0,'fsmark.files_per_sec',12.30000000000000071,'{"metric":"fsmark.files_per_sec","values":[14484.0,12703.0,14426.0],"stddev_percent":[2.0,3.0,2.0],"stddev_small":[false,false,false],"changes":[null,{"value":-12.3,"unit":"%"},{"value":-0.4,"unit":"%"}]}');
CREATE TABLE trailers (
    message     INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    key         TEXT NOT NULL,
    value       TEXT NOT NULL,
    suggested   INTEGER NOT NULL DEFAULT 0,
    commit_id   TEXT,
    title       TEXT,
    quote_depth INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message, idx)
) WITHOUT ROWID;
INSERT INTO trailers VALUES(1,0,'Reported-by','kernel test robot <oliver.sang@intel.com>',1,NULL,NULL,0);
INSERT INTO trailers VALUES(1,1,'Closes','https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com',1,NULL,NULL,0);
INSERT INTO trailers VALUES(4,0,'Tested-by','kernel test robot <oliver.sang@intel.com>',0,NULL,NULL,0);
INSERT INTO trailers VALUES(6,0,'Fixes','5e1f2a3b4c5d ("ext4: take the orphan lock only when needed")',0,'5e1f2a3b4c5d','ext4: take the orphan lock only when needed',0);
INSERT INTO trailers VALUES(6,1,'Reported-by','kernel test robot <oliver.sang@intel.com>',0,NULL,NULL,0);
INSERT INTO trailers VALUES(6,2,'Closes','https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com',0,NULL,NULL,0);
INSERT INTO trailers VALUES(6,3,'Tested-by','kernel test robot <oliver.sang@intel.com>',0,NULL,NULL,0);
INSERT INTO trailers VALUES(6,4,'Signed-off-by','Jan Kara <jack@suse.cz>',0,NULL,NULL,0);
CREATE TABLE commit_refs (
    message     INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    commit_id   TEXT NOT NULL,
    title       TEXT,
    quote_depth INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message, commit_id)
) WITHOUT ROWID;
INSERT INTO commit_refs VALUES(1,'1a2b3c4d5e','ext4: base commit',0);
INSERT INTO commit_refs VALUES(1,'5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b','ext4: take the orphan lock only when needed',0);
INSERT INTO commit_refs VALUES(2,'5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b','ext4: take the orphan lock only when needed',1);
INSERT INTO commit_refs VALUES(4,'1a2b3c4d5e','ext4: base commit',0);
INSERT INTO commit_refs VALUES(4,'5e1f2a3b4c','ext4: take the orphan lock only when needed',0);
INSERT INTO commit_refs VALUES(4,'9f8e7d6c5b','ext4: only lock the orphan list for orphans',0);
INSERT INTO commit_refs VALUES(5,'0badc0ffee1234567890abcdef1234567890abcd',NULL,0);
INSERT INTO commit_refs VALUES(6,'5e1f2a3b4c5d','ext4: take the orphan lock only when needed',0);
CREATE TABLE diffs (
    message     INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    old_path    TEXT,
    new_path    TEXT,
    quote_depth INTEGER NOT NULL DEFAULT 0,
    hunks_json  TEXT NOT NULL,
    PRIMARY KEY (message, idx)
) WITHOUT ROWID;
INSERT INTO diffs VALUES(3,0,'fs/ext4/orphan.c','fs/ext4/orphan.c',0,'[{"old_start":120,"old_lines":7,"new_start":120,"new_lines":8,"context":"int ext4_orphan_add(handle_t *handle, struct inode *inode)","added":2,"removed":1}]');
INSERT INTO diffs VALUES(6,0,'fs/ext4/orphan.c','fs/ext4/orphan.c',0,'[{"old_start":120,"old_lines":7,"new_start":120,"new_lines":8,"context":"int ext4_orphan_add(handle_t *handle, struct inode *inode)","added":2,"removed":2}]');
CREATE TABLE signals (
    message     INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    sentence    TEXT NOT NULL,
    quote_depth INTEGER NOT NULL DEFAULT 0,
    commit_id   TEXT,
    PRIMARY KEY (message, idx)
) WITHOUT ROWID;
INSERT INTO signals VALUES(3,0,'confirms-fix','Oliver, could you please test whether the patch below fixes the regression?',0,NULL);
INSERT INTO signals VALUES(4,0,'confirms-fix','Oliver, could you please test whether the patch below fixes the regression?',1,NULL);
INSERT INTO signals VALUES(4,1,'confirms-fix','the regression is gone after applying the patch.',0,NULL);
INSERT INTO signals VALUES(4,2,'confirms-fix','Tested-by: kernel test robot <oliver.sang@intel.com>',0,NULL);
INSERT INTO signals VALUES(4,3,'confirms-fix','fsmark.files_per_sec: -12.3% with 5e1f2a3b4c5d6e7f8091a2b3c4d, -0.4% with 9f8e7d6c5b4a39281706f5e4d3c (base noise 2.0%)',0,'9f8e7d6c5b4a39281706f5e4d3c');
INSERT INTO signals VALUES(6,0,'confirms-fix','Tested-by: kernel test robot <oliver.sang@intel.com>',0,NULL);
CREATE TABLE events (
    message     INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    tree        TEXT,
    sha         TEXT,
    text        TEXT NOT NULL,
    quote_depth INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message, idx)
) WITHOUT ROWID;
INSERT INTO events VALUES(5,0,'applied',NULL,'0badc0ffee1234567890abcdef1234567890abcd','[1/1] ext4: only lock the orphan list for orphans',0);
CREATE TABLE lore_links (
    message    INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    target_id  TEXT NOT NULL,
    PRIMARY KEY (message, target_id)
) WITHOUT ROWID;
INSERT INTO lore_links VALUES(6,'202403151023.5e1f2a3b-lkp@intel.com');
CREATE TABLE threads (
    message  INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    root_id  TEXT NOT NULL,      -- Message-ID of the thread root (may be a placeholder)
    parent_id TEXT,              -- Message-ID of the parent, after JWZ threading
    depth    INTEGER NOT NULL DEFAULT 0
);
INSERT INTO threads VALUES(1,'202403151023.5e1f2a3b-lkp@intel.com',NULL,0);
INSERT INTO threads VALUES(2,'202403151023.5e1f2a3b-lkp@intel.com','202403151023.5e1f2a3b-lkp@intel.com',1);
INSERT INTO threads VALUES(3,'202403151023.5e1f2a3b-lkp@intel.com','20240315101500.aaaa1111@quack3',2);
INSERT INTO threads VALUES(4,'202403151023.5e1f2a3b-lkp@intel.com','20240318093000.bbbb2222@quack3',3);
INSERT INTO threads VALUES(5,'20240321120000.12345-1-jack@suse.cz','20240321120000.12345-1-jack@suse.cz',1);
INSERT INTO threads VALUES(6,'20240321120000.12345-1-jack@suse.cz',NULL,0);
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
INSERT INTO regressions VALUES(1,'5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b','ext4: take the orphan lock only when needed','ext4','linus:master','fix-applied',1710469380,1711678200,'fsmark.files_per_sec',-12.30000000000000071,'regression','{"id":1,"culprit":{"commit":"5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b","title":"ext4: take the orphan lock only when needed","aliases":["5e1f2a3b4c"],"ambiguous_with":[]},"subsystem":"ext4","branch":"linus:master","branches":["linus:master"],"status":"fix-applied","status_evidence":[{"status":"reported","message_id":"202403151023.5e1f2a3b-lkp@intel.com","reason":"reported: -12.3% regression of fsmark.files_per_sec (fsmark, linus:master) (kernel test robot)"},{"status":"discussed","message_id":"20240315101500.aaaa1111@quack3","reason":"replied (Jan Kara)"},{"status":"fix-proposed","message_id":"20240318093000.bbbb2222@quack3","reason":"debug patch posted: Re: [linus:master] [ext4]  5e1f2a3b4c:  fsmark.files_per_sec -12.3% regression (debug patch posted in the thread of report 202403151023.5e1f2a3b-lkp@intel.com) (Jan Kara)"},{"status":"fix-confirmed","message_id":"ZfhT3xsang0001@xsang-OptiPlex-9020","reason":"confirms-fix: \"the regression is gone after applying the patch.\" (Oliver Sang)"},{"status":"fix-applied","message_id":"171099887766.1122.tytso@mit.edu","reason":"applied: \"[1/1] ext4: only lock the orphan list for orphans\" (Theodore Ts''o)"}],"direction":"regression","headline":{"metric":"fsmark.files_per_sec","change_percent":-12.3,"commits":["1a2b3c4d5e6f7a8b","5e1f2a3b4c5d6e7f8091a2b3c4d"],"values":[14484.0,12703.0],"stddev_percent":[2.0,3.0]},"reports":[{"message_id":"202403151023.5e1f2a3b-lkp@intel.com","subject":"[linus:master] [ext4]  5e1f2a3b4c:  fsmark.files_per_sec -12.3% regression","metric":"fsmark.files_per_sec","change_percent":-12.3,"change_as_written":-12.3,"direction":"regression","testcase":"fsmark","test_machine":"64 threads 2 sockets Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz (Ice Lake) with 256G memory","date":"2024-03-15T02:23:00Z","unix":1710469380,"branch":"linus:master","failure":null,"kind":"perf-report","confidence":{"level":"high","change_percent":-12.3,"stddev_percent":5.0,"exceeds_stddev":true,"co_moving":3,"likely_noise":false},"headline_rows":[{"metric":"fsmark.files_per_sec","base":14484.0,"value":12703.0,"change":-12.3,"unit":"%","stddev_percent":[2.0,3.0]},{"metric":"perf-sched.total_wait_time.average.ms","base":0.3,"value":0.36,"change":19.3,"unit":"%","stddev_percent":[2.0,3.0]},{"metric":"vmstat.system.cs","base":1688381.0,"value":1411358.0,"change":-16.4,"unit":"%","stddev_percent":[2.0,4.0]},{"metric":"iostat.cpu.user","base":2.29,"value":1.99,"change":-13.2,"unit":"%","stddev_percent":[6.0,7.0]},{"metric":"meminfo.Active","base":3186734.0,"value":2770907.0,"change":-13.0,"unit":"%","stddev_percent":[2.0,null]}],"also_impacts":[]}],"messages":["202403151023.5e1f2a3b-lkp@intel.com","20240315101500.aaaa1111@quack3","20240318093000.bbbb2222@quack3","ZfhT3xsang0001@xsang-OptiPlex-9020","20240321120000.12345-1-jack@suse.cz","171099887766.1122.tytso@mit.edu"],"attached":[{"message_id":"202403151023.5e1f2a3b-lkp@intel.com","role":"report","reason":"robot report of culprit 5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b"},{"message_id":"20240315101500.aaaa1111@quack3","role":"reply","reason":"in the thread of report 202403151023.5e1f2a3b-lkp@intel.com"},{"message_id":"20240318093000.bbbb2222@quack3","role":"patch","reason":"debug patch posted in the thread of report 202403151023.5e1f2a3b-lkp@intel.com"},{"message_id":"ZfhT3xsang0001@xsang-OptiPlex-9020","role":"patch-reply","reason":"reply to patch 20240318093000.bbbb2222@quack3 in the report''s thread"},{"message_id":"20240321120000.12345-1-jack@suse.cz","role":"patch","reason":"Closes: https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com"},{"message_id":"171099887766.1122.tytso@mit.edu","role":"patch-reply","reason":"reply to patch 20240321120000.12345-1-jack@suse.cz"}],"patches":[{"message_id":"20240318093000.bbbb2222@quack3","subject":"Re: [linus:master] [ext4]  5e1f2a3b4c:  fsmark.files_per_sec -12.3% regression","from":"Jan Kara","date":"2024-03-18T08:30:00Z","role":"debug-patch","reason":"debug patch posted in the thread of report 202403151023.5e1f2a3b-lkp@intel.com","state":"confirmed","trailers":[]},{"message_id":"20240321120000.12345-1-jack@suse.cz","subject":"[PATCH] ext4: only lock the orphan list for orphans","from":"Jan Kara","date":"2024-03-21T11:00:00Z","role":"patch","reason":"Closes: https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com","state":"applied","trailers":[{"key":"Fixes","value":"5e1f2a3b4c5d (\"ext4: take the orphan lock only when needed\")"},{"key":"Reported-by","value":"kernel test robot <oliver.sang@intel.com>"},{"key":"Closes","value":"https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com"},{"key":"Tested-by","value":"kernel test robot <oliver.sang@intel.com>"},{"key":"Signed-off-by","value":"Jan Kara <jack@suse.cz>"}]}],"timeline":[{"date":"2024-03-15T02:23:00Z","unix":1710469380,"from":"kernel test robot","event":"reported: -12.3% regression of fsmark.files_per_sec (fsmark, linus:master)","status":"reported","message_id":"202403151023.5e1f2a3b-lkp@intel.com"},{"date":"2024-03-15T10:15:00Z","unix":1710497700,"from":"Jan Kara","event":"replied","status":"discussed","message_id":"20240315101500.aaaa1111@quack3"},{"date":"2024-03-18T08:30:00Z","unix":1710750600,"from":"Jan Kara","event":"debug patch posted: Re: [linus:master] [ext4]  5e1f2a3b4c:  fsmark.files_per_sec -12.3% regression (debug patch posted in the thread of report 202403151023.5e1f2a3b-lkp@intel.com)","status":"fix-proposed","message_id":"20240318093000.bbbb2222@quack3"},{"date":"2024-03-20T06:02:00Z","unix":1710914520,"from":"Oliver Sang","event":"replied to the patch","status":"discussed","message_id":"ZfhT3xsang0001@xsang-OptiPlex-9020"},{"date":"2024-03-20T06:02:00Z","unix":1710914520,"from":"Oliver Sang","event":"confirms-fix: \"the regression is gone after applying the patch.\"","status":"fix-confirmed","message_id":"ZfhT3xsang0001@xsang-OptiPlex-9020"},{"date":"2024-03-20T06:02:00Z","unix":1710914520,"from":"Oliver Sang","event":"confirms-fix: \"Tested-by: kernel test robot <oliver.sang@intel.com>\"","status":"fix-confirmed","message_id":"ZfhT3xsang0001@xsang-OptiPlex-9020"},{"date":"2024-03-20T06:02:00Z","unix":1710914520,"from":"Oliver Sang","event":"confirms-fix: \"fsmark.files_per_sec: -12.3% with 5e1f2a3b4c5d6e7f8091a2b3c4d, -0.4% with 9f8e7d6c5b4a39281706f5e4d3c (base noise 2.0%)\"","status":"fix-confirmed","message_id":"ZfhT3xsang0001@xsang-OptiPlex-9020"},{"date":"2024-03-21T11:00:00Z","unix":1711018800,"from":"Jan Kara","event":"patch posted: [PATCH] ext4: only lock the orphan list for orphans (Closes: https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com)","status":"fix-proposed","message_id":"20240321120000.12345-1-jack@suse.cz"},{"date":"2024-03-21T11:00:00Z","unix":1711018800,"from":"Jan Kara","event":"confirms-fix: \"Tested-by: kernel test robot <oliver.sang@intel.com>\"","status":"fix-confirmed","message_id":"20240321120000.12345-1-jack@suse.cz"},{"date":"2024-03-29T02:10:00Z","unix":1711678200,"from":"Theodore Ts''o","event":"replied to the patch","status":"discussed","message_id":"171099887766.1122.tytso@mit.edu"},{"date":"2024-03-29T02:10:00Z","unix":1711678200,"from":"Theodore Ts''o","event":"applied: \"[1/1] ext4: only lock the orphan list for orphans\"","status":"fix-applied","message_id":"171099887766.1122.tytso@mit.edu"}],"flags":[],"tracked":false,"regzbot":"#regzbot introduced: 5e1f2a3b4c5d ^","first_date":"2024-03-15T02:23:00Z","last_date":"2024-03-29T02:10:00Z","facts":{"first_unix":1710469380,"last_unix":1711678200,"last_human_unix":1711678200,"human_replies":5,"first_patch_unix":1710750600,"still_regression_after_fix":false,"marked":false}}');
CREATE TABLE regression_messages (
    regression INTEGER NOT NULL REFERENCES regressions(id) ON DELETE CASCADE,
    message    INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    role       TEXT NOT NULL,   -- 'report' | 'reply' | 'patch' | 'patch-reply' | 'revert'
    reason     TEXT NOT NULL,   -- why it was attached
    PRIMARY KEY (regression, message)
) WITHOUT ROWID;
INSERT INTO regression_messages VALUES(1,1,'report','robot report of culprit 5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b');
INSERT INTO regression_messages VALUES(1,2,'reply','in the thread of report 202403151023.5e1f2a3b-lkp@intel.com');
INSERT INTO regression_messages VALUES(1,3,'patch','debug patch posted in the thread of report 202403151023.5e1f2a3b-lkp@intel.com');
INSERT INTO regression_messages VALUES(1,4,'patch-reply','reply to patch 20240318093000.bbbb2222@quack3 in the report''s thread');
INSERT INTO regression_messages VALUES(1,5,'patch-reply','reply to patch 20240321120000.12345-1-jack@suse.cz');
INSERT INTO regression_messages VALUES(1,6,'patch','Closes: https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com');
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
INSERT INTO regression_events VALUES(1,1,1710469380,'kernel test robot','reported: -12.3% regression of fsmark.files_per_sec (fsmark, linus:master)','reported','202403151023.5e1f2a3b-lkp@intel.com',NULL);
INSERT INTO regression_events VALUES(2,1,1710497700,'Jan Kara','replied','discussed','20240315101500.aaaa1111@quack3',NULL);
INSERT INTO regression_events VALUES(3,1,1710750600,'Jan Kara','debug patch posted: Re: [linus:master] [ext4]  5e1f2a3b4c:  fsmark.files_per_sec -12.3% regression (debug patch posted in the thread of report 202403151023.5e1f2a3b-lkp@intel.com)','fix-proposed','20240318093000.bbbb2222@quack3',NULL);
INSERT INTO regression_events VALUES(4,1,1710914520,'Oliver Sang','replied to the patch','discussed','ZfhT3xsang0001@xsang-OptiPlex-9020',NULL);
INSERT INTO regression_events VALUES(5,1,1710914520,'Oliver Sang','confirms-fix: "the regression is gone after applying the patch."','fix-confirmed','ZfhT3xsang0001@xsang-OptiPlex-9020',NULL);
INSERT INTO regression_events VALUES(6,1,1710914520,'Oliver Sang','confirms-fix: "Tested-by: kernel test robot <oliver.sang@intel.com>"','fix-confirmed','ZfhT3xsang0001@xsang-OptiPlex-9020',NULL);
INSERT INTO regression_events VALUES(7,1,1710914520,'Oliver Sang','confirms-fix: "fsmark.files_per_sec: -12.3% with 5e1f2a3b4c5d6e7f8091a2b3c4d, -0.4% with 9f8e7d6c5b4a39281706f5e4d3c (base noise 2.0%)"','fix-confirmed','ZfhT3xsang0001@xsang-OptiPlex-9020',NULL);
INSERT INTO regression_events VALUES(8,1,1711018800,'Jan Kara','patch posted: [PATCH] ext4: only lock the orphan list for orphans (Closes: https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com)','fix-proposed','20240321120000.12345-1-jack@suse.cz',NULL);
INSERT INTO regression_events VALUES(9,1,1711018800,'Jan Kara','confirms-fix: "Tested-by: kernel test robot <oliver.sang@intel.com>"','fix-confirmed','20240321120000.12345-1-jack@suse.cz',NULL);
INSERT INTO regression_events VALUES(10,1,1711678200,'Theodore Ts''o','replied to the patch','discussed','171099887766.1122.tytso@mit.edu',NULL);
INSERT INTO regression_events VALUES(11,1,1711678200,'Theodore Ts''o','applied: "[1/1] ext4: only lock the orphan list for orphans"','fix-applied','171099887766.1122.tytso@mit.edu',NULL);
CREATE TABLE marks (
    id         INTEGER PRIMARY KEY,
    culprit    TEXT NOT NULL,
    status     TEXT NOT NULL,
    note       TEXT,
    author     TEXT NOT NULL,
    at         INTEGER NOT NULL
);
CREATE TABLE regression_metrics (
    regression INTEGER NOT NULL REFERENCES regressions(id) ON DELETE CASCADE,
    metric     TEXT NOT NULL,
    PRIMARY KEY (regression, metric)
) WITHOUT ROWID;
INSERT INTO regression_metrics VALUES(1,'fsmark.files_per_sec');
CREATE TABLE link_state (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    logic_version INTEGER NOT NULL,  -- link::LINK_LOGIC_VERSION that wrote the tables
    max_message   INTEGER NOT NULL,  -- highest messages.id linked
    messages      INTEGER NOT NULL,  -- count of messages linked
    max_mark      INTEGER NOT NULL,  -- highest marks.id applied
    marks         INTEGER NOT NULL,  -- count of marks applied
    linked_at     INTEGER NOT NULL
);
INSERT INTO link_state VALUES(1,1,6,6,0,0,1796113169);
CREATE TABLE deferred_indexes (
    name TEXT PRIMARY KEY,
    sql  TEXT NOT NULL          -- the CREATE INDEX statement, from sqlite_master
);
CREATE TABLE bodies (
    message INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    text    TEXT,
    lz4     BLOB
);
INSERT INTO bodies VALUES(1,NULL,X'f1080000f2b248656c6c6f2c0a0a6b65726e656c207465737420726f626f74206e6f74696365642061202d31322e33252072656772657373696f6e206f662066736d61726b2e66696c65735f7065725f736563206f6e3a0a0a0a636f6d6d69743a2035653166326133623463356436653766383039316132623363346435653666373038313932613362202822657874343a2074616b6520746865206f727068616e206c6f636b206f6e6c79207768656e206e656564656422290a68747470733a2f2f6769742eb900f2012e6f72672f636769742f6c696e75782f1600102f110082746f7276616c64731a00d02e676974206d61737465720a0aee0053636173653ace00f0090a636f6e6669673a207838365f36342d7268656c2d392e34d200d170696c65723a206763632d31323a00f01d206d616368696e653a2036342074687265616473203220736f636b65747320496e74656c2852292058656f6e0800f336476f6c64203633343620435055204020332e313047487a2028496365204c616b652920776974682032353647206d656d6f72790a706172616d65746572733a0a0a096e725f6800f0053a20313030250a096469736b3a20315353440a0994003074696d9000fa7730730a0966733a20657874340a09637075667265715f676f7665726e6f723a20706572666f726d616e63650a0a0a0a496620796f75206669782074686520697373756520696e20612073657061726174652070617463682f636f6d6d69742028692e652e206e6f74206a7573742061206e65772076657273696f6e206f660a7468652073616d3600f21d292c206b696e646c792061646420666f6c6c6f77696e6720746167730a7c205265706f727465642d62793a20bf01088e02f4133c6f6c697665722e73616e6740696e74656c2e636f6d3e0a7c20436c6f7365733a201502526c6f72652e4100011602f4056f652d6c6b702f3230323430333135313032332e9a02001a00064e00ff0b0a0a0a44657461696c73206172652061732062656c6f773a0a2d01004e823e0a0a0a54686520b80012208802f20c20616e64206d6174657269616c7320746f20726570726f64756365a100d47661696c61626c652061743a0a0001b1646f776e6c6f61642e30310001f500306461792d63692f6172636869766509010509000f12010a1f3d0100450554031c2f9f02102fd502522f66732f6b0701162ff702f1082f726f6f7466732f74626f785f67726f75702f74657374050000c903010900010403230a20ab03172fec02102f29036b2f657874342fe203f3012f313030252f64656269616e2d31322d1f00013502f0153230362e63677a2f6c6b702d69636c2d327370382f62656e63682f64656d6f2f3630730ace00866d69743a200a2020e40405d9045262617365203d034722290a201a050523000ffc0415160a5f00673666376138624d000d67051d20bb021f20cb020800bd0003020071257374646465760e0071256368616e67650c00000200031c00100a0c00050200155c0a0026207c0b00020200235c205a00c1313434383420c2b1202032251b00035a06010c005131323730331d003333252091050a5f060072007131363838333831280005450031362e34450071313431313335381d00001200f001766d737461742e73797374656d2e637341006b333138363733860031332e304100713237373039303790002020208505b0696e666f2e4163746976653e0071202020322e3239620011363300013e00038a00522020312e391d006137252020696f7f00836370752e75736572400041302e33304000033500352b313904015120302e33361d0000040100ba02f0032d73636865642e746f74616c5f776169745fdf02c02e617665726167652e6d730a0100f013446973636c61696d65723a0a526573756c74732068617665206265656e20657374694704b064206261736564206f6e20420542726e616ca6069120616e616c797369737204f0026172652070726f76696465640a666f7220040160726d6174696f320040707572707205f105206f6e6c792e20416e7920646966666572656e633606026f01602068617264774c00706f7220736f66740c00b20a64657369676e206f7220dc032175725700f803206d6179206166666563742061637475616ca306402e0a0a0a9e02a2302d444159204349204bad081054ad087553657276696365ff04606769746875621d06102fe500116cb703b074657374732f77696b690a');
INSERT INTO bodies VALUES(2,NULL,X'fd010000ff254f6e204672692031352d30332d32342031303a32333a30302c206b65726e656c207465737420726f626f742077726f74653a0a3e1b0000f4a76e6f74696365642061202d31322e33252072656772657373696f6e206f662066736d61726b2e66696c65735f7065725f736563206f6e3a0a3e0a3e20636f6d6d69743a2035653166326133623463356436653766383039316132623363346435653666373038313932613362202822657874343a2074616b6520746865206f727068616e206c6f636b206f6e6c79207768656e206e656564656422290a3e0a3e202020202020313434383420c2b12020322520202020ad00001c00612031323730331d003f332520b20002fb0b0a0a5468616e6b7320666f7220746865207265706f72742e20548400616973206e6f77a000f08e6e206f6e63652070657220696e6f64652c2077686963680a69732077686174204920657870656374656420746f20626520636865617065722c20736f2049276d207375727072697365642e204c6574206d65207468696e6b2061626f75742069742e0a0a0909090909090909486f6e7a610a2d2d200a4a616e204b617261203c6a61636b40737573652e636f6d3e0a53555345204c6162732c2043520a');
INSERT INTO bodies VALUES(3,NULL,X'5f020000f2704f6e204672692031352d30332d32342031313a31353a30302c204a616e204b6172612077726f74653a0a3e205468616e6b7320666f7220746865207265706f72742e204c6574206d65207468696e6b2061626f75742069742e0a0a4f6c697665722c20636f756c6420796f7520706c656173652074657374207768657468654a00f30270617463682062656c6f772066697865736000fd1b6772657373696f6e3f0a0a64696666202d2d67697420612f66732f657874342f6f727068616e2e6320621300820a696e64657820310100322e2e320100bf203130303634340a2d2d2d4800004f0a2b2b2b4c0001b04040202d3132302c37202b0700903820404020696e74208500125f8500f2005f6164642868616e646c655f74202a0a00f1012c2073747275637420696e6f6465202a070043290a20091700014000f42173625f696e666f202a736269203d20455854345f5342287362293b0a2d096d757465785f6c6f636b28267362692d3e737100001400f107293b0a2b0969662028216c6973745f656d707479282643002249286e00332d3e6932005f29290a2b0951000f792009657272203ddd004766696c65e200122cd100012d00f30272657475726e206572723b0a207d0a0a09010060486f6e7a610a');
INSERT INTO bodies VALUES(4,NULL,X'8d040000f12368692c204a616e2c0a0a4f6e204d6f6e2c204d61722031382c20323032342061742030393a33303a3030414d202b303130303000f13b204b6172612077726f74653a0a3e204f6c697665722c20636f756c6420796f7520706c6561736520746573742077686574686572207468652070617463682062656c6f772066697865731600da72656772657373696f6e3f0a0a1100f10820697320676f6e65206166746572206170706c79696e673700014d00112e0b00c32239663865376436633562225f007369730a796f75727300f1276f6e20746f70206f6620356531663261336234632e0a0a5465737465642d62793a206b65726e656c207465737420726f626f74203c6fd800ff042e73616e6740696e74656c2e636f6d3e0a0a3d010045f0390a636f6d70696c65722f637075667265715f676f7665726e6f722f6469736b2f66732f6b636f6e6669672f6e725f746872656164732f726f6f7466732f74626f785f67726f75702f780101050041636173650900f07e74696d653a0a20206763632d31322f706572666f726d616e63652f315353442f657874342f7838365f36342d7268656c2d392e342f313030252f64656269616e2d31322d7838365f36342d32303234303230362e63677a2f6c6b702d69636c2d327370382f62656e63682f64656d6f2f3630730a0a636f6d6d69743a200a2020316132623363346435652028226d00303a206222020223004722290a2099010523004174616b65e001f0016f727068616e206c6f636b206f6e6c795502816e206e65656465643d00060002053d000128000132000053020442007369737420666f721000567322290a0a9c00673666376138628a00943564366537663830392400076900fb053461333932383137303666356534643363200a2d01001b2010000802000f1c000a240a20010071257374646465760f0071256368616e67650c000002000f1c0010064900000200105c0500020200127c07000602000f1c000c024900c1313434383420c2b1202032253b00522d31322e330b00612031323730331d00041200442d302e341d0041343432361d00003a00f00666736d61726b2e66696c65735f7065725f7365630a');
INSERT INTO bodies VALUES(5,NULL,X'5a010000f2c10a4f6e205468752c203231204d617220323032342031323a30303a3030202b303130302c204a616e204b6172612077726f74653a0a3e20546865206b65726e656c207465737420726f626f74206e6f74696365642061203132252066736d61726b2072656772657373696f6e20616674657220636f6d6d69740a3e203565316632613362346320746f6f6b20746865206f727068616e206c6f636b20666f7220657665727920696e6f64652e0a0a4170706c6965642c207468616e6b73210a0a5b312f315d20657874343a206f6e6c793a00084a007369737420666f725a0031730a200100028500fa0d3a2030626164633066666565313233343536373839306162636465661000310a0a42e800f01b6567617264732c0a2d2d200a5468656f646f7265205473276f203c747974736f406d69742e6564753e0a');
INSERT INTO bodies VALUES(6,NULL,X'd3030000f98d546865206b65726e656c207465737420726f626f74206e6f74696365642061203132252066736d61726b2072656772657373696f6e20616674657220636f6d6d69740a3565316632613362346320746f6f6b20746865206f727068616e206c6f636b20666f7220657665727920696e6f64652e2054616b65206974206f6e6c79207768656e2074686520696e6f64650a6973207265616c6c79206f6e4a00d66973742e0a0a46697865733a207300f1003564202822657874343a2074616b654a00087d00066400ff066e656564656422290a5265706f727465642d62793afc0000f00d3c6f6c697665722e73616e6740696e74656c2e636f6d3e0a436c6f737c00d268747470733a2f2f6c6f72652e3b01f40a2e6f72672f6f652d6c6b702f3230323430333135313032332ea800001a00064c004f0a54657380001fa15369676e65642d6f6666b900f0114a616e204b617261203c6a61636b40737573652e637a3e0a2d2d2d0a2066732f1401122f0a01fd3a2e63207c2033202b2b2d0a20312066696c65206368616e6765642c203220696e73657274696f6e73282b292c20312064656c6574696f6e282d290a0a64696666202d2d67697420612f57001d621300820a696e64657820310100322e2e32010070203130303634349e000f4800004f0a2b2b2b4c0001b04040202d3132302c37202b0700903820404020696e7420dc00125fdc00f2005f6164642868616e646c655f74202a0a00822c20737472756374710221202a070043290a20091700014000f42173625f696e666f202a736269203d20455854345f5342287362293b0a2d096d757465785f6c6f636b28267362692d3e737100001400f107293b0a2b0969662028216c6973745f656d707479282643002249286e00332d3e6932005f29290a2b0951000f792009657272203ddd0000ac0107e200122cd100012d00f00b72657475726e206572723b0a207d0a2d2d200a322e33352e330a');
CREATE INDEX messages_date ON messages(date);
CREATE INDEX messages_kind ON messages(kind);
CREATE INDEX reports_message ON reports(message);
CREATE INDEX tables_message ON tables(message);
CREATE INDEX trailers_commit ON trailers(commit_id);
CREATE INDEX threads_root ON threads(root_id);
CREATE INDEX regressions_subsystem ON regressions(subsystem);
CREATE INDEX regressions_status ON regressions(status);
CREATE INDEX regressions_first_date ON regressions(first_date);
CREATE INDEX regression_messages_message ON regression_messages(message);
CREATE INDEX regression_events_regression ON regression_events(regression);
CREATE INDEX marks_culprit ON marks(culprit);
CREATE INDEX regression_metrics_metric ON regression_metrics(metric);
CREATE INDEX diffs_depth ON diffs(message, quote_depth);
CREATE INDEX regressions_subsystem_nocase ON regressions(subsystem COLLATE NOCASE);
CREATE INDEX commit_refs_commit ON commit_refs(commit_id);
CREATE INDEX lore_links_target ON lore_links(target_id);
CREATE INDEX reports_commit ON reports(commit_short);
CREATE INDEX reports_metric ON reports(metric);
CREATE INDEX reports_subsystem ON reports(subsystem);
CREATE INDEX table_rows_metric ON table_rows(metric);
COMMIT;
