//! A patch whose `Fixes:` names the reported culprit's title under another
//! commit id (the merged commit of a change the robot tested as a posting
//! or on a developer's branch), in a thread of its own and without the
//! robot's credit: the link loads it and weighs it as a fix candidate of
//! that history, with the reason; one naming another title is not weighed.

use crate::common::{Cmd, first_of_two_reports as report, show_history};

fn fix(fixes_title: &str) -> String {
    format!(
        "From mboxrd@z Thu Jan  1 00:00:00 1970\n\
         From: Jan Dev <jan@example.org>\n\
         To: linux-ext4@vger.kernel.org\n\
         Date: Wed, 5 Jun 2024 10:00:00 +0000\n\
         Subject: [PATCH] ext4: avoid updating the superblock on every commit\n\
         Message-ID: <fix-by-title@example.org>\n\
         \n\
         Every commit rewrote the superblock since the interval became tunable.\n\
         \n\
         Fixes: 0123456789ab (\"{fixes_title}\")\n\
         Signed-off-by: Jan Dev <jan@example.org>\n\
         ---\n\
         diff --git a/fs/ext4/super.c b/fs/ext4/super.c\n\
         --- a/fs/ext4/super.c\n\
         +++ b/fs/ext4/super.c\n\
         @@ -10,7 +10,7 @@ static int ext4_update_sb(struct super_block *sb)\n\
         -\told();\n\
         +\tnew();\n\n"
    )
}

/// The fix candidates (Message-ID, reasons) of d15ea5e012.
fn candidates(fixes_title: &str) -> Vec<(String, Vec<String>)> {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let mbox = dir.path().join("t.mbox");
    std::fs::write(&mbox, format!("{}{}", report(), fix(fixes_title))).unwrap();
    Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .arg(&mbox)
        .ok();
    let h = show_history(&db, "d15ea5e012");
    h["fix_candidates"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            (
                c["message_id"].as_str().unwrap_or("").to_string(),
                c["reasons"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|r| r.as_str().map(str::to_string))
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn a_fixes_trailer_naming_the_culprits_title_under_another_id_is_weighed() {
    let got = candidates("ext4: make the sb update interval tunable");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "fix-by-title@example.org");
    assert!(
        got[0]
            .1
            .iter()
            .any(|r| r == "its Fixes: names the culprit's title"),
        "{got:?}"
    );
    assert!(candidates("ext4: make the journal commit interval tunable").is_empty());
}
