-- A regtrack database as schema version 3 left it: written by the build of
-- commit 1606d76 (`regtrack ingest corpus/threads/001-fixed-history.mbox`,
-- then `sqlite3 .dump`; frozen, do not edit when the schema moves on).
-- tests/robust_readers.rs loads it into a fresh file, sets PRAGMA
-- user_version=3 and opens it with the current binary, which must migrate it,
-- keep every row, and read its uncompressed bodies.

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
    body            TEXT NOT NULL,
    parts_json      TEXT NOT NULL DEFAULT '[]',
    content_hash    TEXT NOT NULL,
    raw_size        INTEGER NOT NULL DEFAULT 0,
    origin_json     TEXT NOT NULL,            -- model::Origin of the first copy
    ingested_at     INTEGER NOT NULL
);
INSERT INTO messages VALUES(1,'202403151023.5e1f2a3b-lkp@intel.com',0,'[linus:master] [ext4]  5e1f2a3b4c:  fsmark.files_per_sec -12.3% regression','[linus:master] [ext4] 5e1f2a3b4c: fsmark.files_per_sec -12.3% regression','kernel test robot','oliver.sang@intel.com',1710469380,NULL,'perf-report',replace('Hello,\n\nkernel test robot noticed a -12.3% regression of fsmark.files_per_sec on:\n\n\ncommit: 5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b ("ext4: take the orphan lock only when needed")\nhttps://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git master\n\ntestcase: fsmark\nconfig: x86_64-rhel-9.4\ncompiler: gcc-12\ntest machine: 64 threads 2 sockets Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz (Ice Lake) with 256G memory\nparameters:\n\n	nr_threads: 100%\n	disk: 1SSD\n	testtime: 60s\n	fs: ext4\n	cpufreq_governor: performance\n\n\n\nIf you fix the issue in a separate patch/commit (i.e. not just a new version of\nthe same patch/commit), kindly add following tags\n| Reported-by: kernel test robot <oliver.sang@intel.com>\n| Closes: https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com\n\n\nDetails are as below:\n-------------------------------------------------------------------------------------------------->\n\n\nThe kernel config and materials to reproduce are available at:\nhttps://download.01.org/0day-ci/archive/20240315/202403151023.5e1f2a3b-lkp@intel.com\n\n=========================================================================================\ncompiler/cpufreq_governor/disk/fs/kconfig/nr_threads/rootfs/tbox_group/test/testcase/testtime:\n  gcc-12/performance/1SSD/ext4/x86_64-rhel-9.4/100%/debian-12-x86_64-20240206.cgz/lkp-icl-2sp8/bench/demo/60s\n\ncommit: \n  1a2b3c4d5e ("ext4: base commit")\n  5e1f2a3b4c ("ext4: take the orphan lock only when needed")\n\n1a2b3c4d5e6f7a8b 5e1f2a3b4c5d6e7f8091a2b3c4d \n---------------- --------------------------- \n         %stddev     %change         %stddev\n             \          |                \  \n     14484 ±  2%     -12.3%      12703 ±  3%  fsmark.files_per_sec\n   1688381 ±  2%     -16.4%    1411358 ±  4%  vmstat.system.cs\n   3186734 ±  2%     -13.0%    2770907        meminfo.Active\n      2.29 ±  6%     -13.2%       1.99 ±  7%  iostat.cpu.user\n      0.30 ±  2%     +19.3%       0.36 ±  3%  perf-sched.total_wait_time.average.ms\n\n\n\n\nDisclaimer:\nResults have been estimated based on internal Intel analysis and are provided\nfor informational purposes only. Any difference in system hardware or software\ndesign or configuration may affect actual performance.\n\n\n-- \n0-DAY CI Kernel Test Service\nhttps://github.com/intel/lkp-tests/wiki\n','\n',char(10)),'[{"content_type":"text/plain","filename":null,"start":0,"end":2289}]','519423e68fa45e8d0e46590860a379eefc03d9fd169d2f97b39175a00723e077',2671,'{"type":"file","path":"/work/main/corpus/threads/001-fixed-history.mbox","offset":0}',1796028528);
INSERT INTO messages VALUES(2,'20240315101500.aaaa1111@quack3',0,'Re: [linus:master] [ext4]  5e1f2a3b4c:  fsmark.files_per_sec -12.3% regression','[linus:master] [ext4] 5e1f2a3b4c: fsmark.files_per_sec -12.3% regression','Jan Kara','jack@suse.cz',1710497700,'202403151023.5e1f2a3b-lkp@intel.com','reply',replace('On Fri 15-03-24 10:23:00, kernel test robot wrote:\n> kernel test robot noticed a -12.3% regression of fsmark.files_per_sec on:\n>\n> commit: 5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b ("ext4: take the orphan lock only when needed")\n>\n>      14484 ±  2%     -12.3%      12703 ±  3%  fsmark.files_per_sec\n\nThanks for the report. The orphan lock is now taken once per inode, which\nis what I expected to be cheaper, so I''m surprised. Let me think about it.\n\n								Honza\n-- \nJan Kara <jack@suse.com>\nSUSE Labs, CR\n','\n',char(10)),'[{"content_type":"text/plain","filename":null,"start":0,"end":509}]','0a0fb82c49edb9598d00997235299d8e42edc4fae3b3c43b5833bbf0ce3bbd15',973,'{"type":"file","path":"/work/main/corpus/threads/001-fixed-history.mbox","offset":2711}',1796028528);
INSERT INTO messages VALUES(3,'20240318093000.bbbb2222@quack3',0,'Re: [linus:master] [ext4]  5e1f2a3b4c:  fsmark.files_per_sec -12.3% regression','[linus:master] [ext4] 5e1f2a3b4c: fsmark.files_per_sec -12.3% regression','Jan Kara','jack@suse.cz',1710750600,'20240315101500.aaaa1111@quack3','reply',replace('On Fri 15-03-24 11:15:00, Jan Kara wrote:\n> Thanks for the report. Let me think about it.\n\nOliver, could you please test whether the patch below fixes the regression?\n\ndiff --git a/fs/ext4/orphan.c b/fs/ext4/orphan.c\nindex 1111111..2222222 100644\n--- a/fs/ext4/orphan.c\n+++ b/fs/ext4/orphan.c\n@@ -120,7 +120,8 @@ int ext4_orphan_add(handle_t *handle, struct inode *inode)\n 	struct ext4_sb_info *sbi = EXT4_SB(sb);\n-	mutex_lock(&sbi->s_orphan_lock);\n+	if (!list_empty(&EXT4_I(inode)->i_orphan))\n+		mutex_lock(&sbi->s_orphan_lock);\n 	err = ext4_orphan_file_add(handle, inode);\n 	return err;\n }\n\n								Honza\n','\n',char(10)),'[{"content_type":"text/plain","filename":null,"start":0,"end":607}]','006f2c8c1410448797a1c8b78b41e9d829aee82eacdee18ec8c6a18948d6f52d',1100,'{"type":"file","path":"/work/main/corpus/threads/001-fixed-history.mbox","offset":3724}',1796028528);
INSERT INTO messages VALUES(4,'ZfhT3xsang0001@xsang-OptiPlex-9020',0,'Re: [linus:master] [ext4]  5e1f2a3b4c:  fsmark.files_per_sec -12.3% regression','[linus:master] [ext4] 5e1f2a3b4c: fsmark.files_per_sec -12.3% regression','Oliver Sang','oliver.sang@intel.com',1710914520,'20240318093000.bbbb2222@quack3','reply',replace('hi, Jan,\n\nOn Mon, Mar 18, 2024 at 09:30:00AM +0100, Jan Kara wrote:\n> Oliver, could you please test whether the patch below fixes the regression?\n\nthe regression is gone after applying the patch. the "9f8e7d6c5b" below is\nyour patch on top of 5e1f2a3b4c.\n\nTested-by: kernel test robot <oliver.sang@intel.com>\n\n=========================================================================================\ncompiler/cpufreq_governor/disk/fs/kconfig/nr_threads/rootfs/tbox_group/test/testcase/testtime:\n  gcc-12/performance/1SSD/ext4/x86_64-rhel-9.4/100%/debian-12-x86_64-20240206.cgz/lkp-icl-2sp8/bench/demo/60s\n\ncommit: \n  1a2b3c4d5e ("ext4: base commit")\n  5e1f2a3b4c ("ext4: take the orphan lock only when needed")\n  9f8e7d6c5b ("ext4: only lock the orphan list for orphans")\n\n1a2b3c4d5e6f7a8b 5e1f2a3b4c5d6e7f8091a2b3c4d 9f8e7d6c5b4a39281706f5e4d3c \n---------------- --------------------------- --------------------------- \n         %stddev     %change         %stddev     %change         %stddev\n             \          |                \          |                \  \n     14484 ±  2%     -12.3%      12703 ±  3%      -0.4%      14426 ±  2%  fsmark.files_per_sec\n','\n',char(10)),'[{"content_type":"text/plain","filename":null,"start":0,"end":1165}]','50f53f9559481d35d2347337b2bb2648c1d6c38d5542a93521ceb41d3ffe0ba7',1708,'{"type":"file","path":"/work/main/corpus/threads/001-fixed-history.mbox","offset":4864}',1796028528);
INSERT INTO messages VALUES(5,'171099887766.1122.tytso@mit.edu',0,'Re: [PATCH] ext4: only lock the orphan list for orphans','[PATCH] ext4: only lock the orphan list for orphans','Theodore Ts''o','tytso@mit.edu',1711678200,'20240321120000.12345-1-jack@suse.cz','reply',replace('\nOn Thu, 21 Mar 2024 12:00:00 +0100, Jan Kara wrote:\n> The kernel test robot noticed a 12% fsmark regression after commit\n> 5e1f2a3b4c took the orphan lock for every inode.\n\nApplied, thanks!\n\n[1/1] ext4: only lock the orphan list for orphans\n      commit: 0badc0ffee1234567890abcdef1234567890abcd\n\nBest regards,\n-- \nTheodore Ts''o <tytso@mit.edu>\n','\n',char(10)),'[{"content_type":"text/plain","filename":null,"start":0,"end":346}]','2aaaf312f84cefda3dfda7e30101eb651c362aac47ef82d50486421b3fa48217',796,'{"type":"file","path":"/work/main/corpus/threads/001-fixed-history.mbox","offset":6612}',1796028528);
INSERT INTO messages VALUES(6,'20240321120000.12345-1-jack@suse.cz',0,'[PATCH] ext4: only lock the orphan list for orphans','[PATCH] ext4: only lock the orphan list for orphans','Jan Kara','jack@suse.cz',1711018800,NULL,'patch',replace('The kernel test robot noticed a 12% fsmark regression after commit\n5e1f2a3b4c took the orphan lock for every inode. Take it only when the inode\nis really on the orphan list.\n\nFixes: 5e1f2a3b4c5d ("ext4: take the orphan lock only when needed")\nReported-by: kernel test robot <oliver.sang@intel.com>\nCloses: https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com\nTested-by: kernel test robot <oliver.sang@intel.com>\nSigned-off-by: Jan Kara <jack@suse.cz>\n---\n fs/ext4/orphan.c | 3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n\ndiff --git a/fs/ext4/orphan.c b/fs/ext4/orphan.c\nindex 1111111..2222222 100644\n--- a/fs/ext4/orphan.c\n+++ b/fs/ext4/orphan.c\n@@ -120,7 +120,8 @@ int ext4_orphan_add(handle_t *handle, struct inode *inode)\n 	struct ext4_sb_info *sbi = EXT4_SB(sb);\n-	mutex_lock(&sbi->s_orphan_lock);\n+	if (!list_empty(&EXT4_I(inode)->i_orphan))\n+		mutex_lock(&sbi->s_orphan_lock);\n 	err = ext4_orphan_file_add(handle, inode);\n 	return err;\n }\n-- \n2.35.3\n','\n',char(10)),'[{"content_type":"text/plain","filename":null,"start":0,"end":979}]','59a299e513841a22fc25a145292a5cee01300a8621984d999d2e2305eaa313c2',1320,'{"type":"file","path":"/work/main/corpus/threads/001-fixed-history.mbox","offset":7448}',1796028528);
CREATE TABLE message_refs (
    message INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    pos     INTEGER NOT NULL,
    ref_id  TEXT NOT NULL,
    PRIMARY KEY (message, pos)
) WITHOUT ROWID;
INSERT INTO message_refs VALUES(3,1,'20240315101500.aaaa1111@quack3');
INSERT INTO message_refs VALUES(4,1,'20240315101500.aaaa1111@quack3');
INSERT INTO message_refs VALUES(2,0,'202403151023.5e1f2a3b-lkp@intel.com');
INSERT INTO message_refs VALUES(3,0,'202403151023.5e1f2a3b-lkp@intel.com');
INSERT INTO message_refs VALUES(4,0,'202403151023.5e1f2a3b-lkp@intel.com');
INSERT INTO message_refs VALUES(4,2,'20240318093000.bbbb2222@quack3');
INSERT INTO message_refs VALUES(5,0,'20240321120000.12345-1-jack@suse.cz');
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
CREATE TABLE extractions (
    message INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    json    TEXT NOT NULL
);
INSERT INTO extractions VALUES(1,1,'{"kind":"perf-report","subject_report":{"branch":"linus:master","subsystem":"ext4","commit":"5e1f2a3b4c","metric":"fsmark.files_per_sec","change_percent":-12.3,"direction":"regression","failure":null,"tags":[],"trailing":null,"is_reply":false},"report":{"commit_full":"5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b","commit_title":"ext4: take the orphan lock only when needed","metric":"fsmark.files_per_sec","change_percent":-12.3,"direction":"regression","tree_url":"https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git master","url":null,"base":null,"patch_link":null,"testcase":"fsmark","test_machine":"64 threads 2 sockets Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz (Ice Lake) with 256G memory","parameters":[["nr_threads","100%"],["disk","1SSD"],["testtime","60s"],["fs","ext4"],["cpufreq_governor","performance"]],"test_description":null,"test_url":null,"also_impacts":[],"suggested_tags":[{"key":"Reported-by","value":"kernel test robot <oliver.sang@intel.com>","suggested":true,"quote_depth":0},{"key":"Closes","value":"https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com","suggested":true,"quote_depth":0}],"reproduce":["https://download.01.org/0day-ci/archive/20240315/202403151023.5e1f2a3b-lkp@intel.com"]},"tables":[{"format":"lkp","quote_depth":0,"params":[["compiler","gcc-12"],["cpufreq_governor","performance"],["disk","1SSD"],["fs","ext4"],["kconfig","x86_64-rhel-9.4"],["nr_threads","100%"],["rootfs","debian-12-x86_64-20240206.cgz"],["tbox_group","lkp-icl-2sp8"],["test","bench"],["testcase","demo"],["testtime","60s"]],"commits":["1a2b3c4d5e6f7a8b","5e1f2a3b4c5d6e7f8091a2b3c4d"],"commit_titles":[["1a2b3c4d5e6f7a8b","ext4: base commit"],["5e1f2a3b4c5d6e7f8091a2b3c4d","ext4: take the orphan lock only when needed"]],"rows":[{"metric":"fsmark.files_per_sec","values":[14484.0,12703.0],"stddev_percent":[2.0,3.0],"stddev_small":[false,false],"changes":[null,{"value":-12.3,"unit":"%"}]},{"metric":"vmstat.system.cs","values":[1688381.0,1411358.0],"stddev_percent":[2.0,4.0],"stddev_small":[false,false],"changes":[null,{"value":-16.4,"unit":"%"}]},{"metric":"meminfo.Active","values":[3186734.0,2770907.0],"stddev_percent":[2.0,null],"stddev_small":[false,true],"changes":[null,{"value":-13.0,"unit":"%"}]},{"metric":"iostat.cpu.user","values":[2.29,1.99],"stddev_percent":[6.0,7.0],"stddev_small":[false,false],"changes":[null,{"value":-13.2,"unit":"%"}]},{"metric":"perf-sched.total_wait_time.average.ms","values":[0.3,0.36],"stddev_percent":[2.0,3.0],"stddev_small":[false,false],"changes":[null,{"value":19.3,"unit":"%"}]}],"skipped_rows":0,"offset":1458}],"diffs":[],"trailers":[{"key":"Reported-by","value":"kernel test robot <oliver.sang@intel.com>","suggested":true,"quote_depth":0},{"key":"Closes","value":"https://lore.kernel.org/oe-lkp/202403151023.5e1f2a3b-lkp@intel.com","suggested":true,"quote_depth":0}],"commits":[{"id":"5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b","title":"ext4: take the orphan lock only when needed","quote_depth":0},{"id":"1a2b3c4d5e","title":"ext4: base commit","quote_depth":0}],"profiles":[],"reproducers":[],"kconfig":[],"signals":[],"events":[],"lore_links":[]}');
INSERT INTO extractions VALUES(2,1,'{"kind":"reply","subject_report":{"branch":"linus:master","subsystem":"ext4","commit":"5e1f2a3b4c","metric":"fsmark.files_per_sec","change_percent":-12.3,"direction":"regression","failure":null,"tags":[],"trailing":null,"is_reply":true},"report":null,"tables":[],"diffs":[],"trailers":[],"commits":[],"profiles":[],"reproducers":[],"kconfig":[],"signals":[],"events":[],"lore_links":[]}');
INSERT INTO extractions VALUES(3,1,'{"kind":"reply","subject_report":{"branch":"linus:master","subsystem":"ext4","commit":"5e1f2a3b4c","metric":"fsmark.files_per_sec","change_percent":-12.3,"direction":"regression","failure":null,"tags":[],"trailing":null,"is_reply":true},"report":null,"tables":[],"diffs":[],"trailers":[],"commits":[],"profiles":[],"reproducers":[],"kconfig":[],"signals":[],"events":[],"lore_links":[]}');
INSERT INTO extractions VALUES(4,1,'{"kind":"reply","subject_report":{"branch":"linus:master","subsystem":"ext4","commit":"5e1f2a3b4c","metric":"fsmark.files_per_sec","change_percent":-12.3,"direction":"regression","failure":null,"tags":[],"trailing":null,"is_reply":true},"report":null,"tables":[],"diffs":[],"trailers":[],"commits":[],"profiles":[],"reproducers":[],"kconfig":[],"signals":[],"events":[],"lore_links":[]}');
INSERT INTO extractions VALUES(5,1,'{"kind":"reply","subject_report":null,"report":null,"tables":[],"diffs":[],"trailers":[],"commits":[],"profiles":[],"reproducers":[],"kconfig":[],"signals":[],"events":[],"lore_links":[]}');
INSERT INTO extractions VALUES(6,1,'{"kind":"patch","subject_report":null,"report":null,"tables":[],"diffs":[],"trailers":[],"commits":[],"profiles":[],"reproducers":[],"kconfig":[],"signals":[],"events":[],"lore_links":[]}');
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
INSERT INTO link_state VALUES(1,1,6,6,0,0,1796028528);
CREATE INDEX messages_date ON messages(date);
CREATE INDEX messages_in_reply_to ON messages(in_reply_to);
CREATE INDEX messages_norm_subject ON messages(norm_subject);
CREATE INDEX messages_kind ON messages(kind);
CREATE INDEX message_refs_ref ON message_refs(ref_id);
CREATE INDEX reports_message ON reports(message);
CREATE INDEX reports_commit ON reports(commit_short);
CREATE INDEX reports_metric ON reports(metric);
CREATE INDEX reports_subsystem ON reports(subsystem);
CREATE INDEX tables_message ON tables(message);
CREATE INDEX table_rows_metric ON table_rows(metric);
CREATE INDEX trailers_key_value ON trailers(key, value);
CREATE INDEX trailers_commit ON trailers(commit_id);
CREATE INDEX commit_refs_commit ON commit_refs(commit_id);
CREATE INDEX lore_links_target ON lore_links(target_id);
CREATE INDEX threads_root ON threads(root_id);
CREATE INDEX regressions_subsystem ON regressions(subsystem);
CREATE INDEX regressions_status ON regressions(status);
CREATE INDEX regressions_first_date ON regressions(first_date);
CREATE INDEX regression_messages_message ON regression_messages(message);
CREATE INDEX regression_events_regression ON regression_events(regression);
CREATE INDEX marks_culprit ON marks(culprit);
CREATE INDEX regression_metrics_metric ON regression_metrics(metric);
CREATE INDEX messages_link ON messages(id, message_id, subject, from_name, from_email, date,
    in_reply_to, kind);
CREATE INDEX diffs_depth ON diffs(message, quote_depth);
CREATE INDEX regressions_subsystem_nocase ON regressions(subsystem COLLATE NOCASE);
COMMIT;
