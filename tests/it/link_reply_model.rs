//! The reply model (`evidence::reply_model`) end to end: a reply to a report
//! whose decline no family of the phrase book knows leaves the history open
//! and unsure, with a `possible-decline` doubt naming the reply and the
//! `regtrack mark` line that settles it; a reply deciding nothing raises no
//! such doubt.

use std::path::Path;

use crate::common::{Cmd, first_of_two_reports as report, show_history};

fn reply(id: &str, sentence: &str) -> String {
    format!(
        "From mboxrd@z Thu Jan  1 00:00:00 1970\n\
         From: Ted Maintainer <tm@example.org>\n\
         To: linux-ext4@vger.kernel.org\n\
         Date: Mon, 3 Jun 2024 10:00:00 +0000\n\
         Subject: Re: [linux-next:master] [ext4]  d15ea5e012:  stress-ng.fiemap.ops_per_sec -15.8% regression\n\
         Message-ID: <{id}>\n\
         In-Reply-To: <202406010930.d15ea5e0-lkp@intel.com>\n\
         References: <202406010930.d15ea5e0-lkp@intel.com>\n\
         \n\
         On Sat, Jun 1, 2024, kernel test robot wrote:\n\
         > kernel test robot noticed a -15.8% regression of stress-ng.fiemap.ops_per_sec\n\
         \n\
         {sentence}\n\n"
    )
}

/// The history of d15ea5e012 after ingesting the report and `reply`.
fn history(dir: &Path, reply: &str) -> serde_json::Value {
    let db = dir.join("r.db");
    let mbox = dir.join("t.mbox");
    std::fs::write(&mbox, format!("{}{reply}", report())).unwrap();
    Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .arg(&mbox)
        .ok();
    show_history(&db, "d15ea5e012")
}

fn doubts(h: &serde_json::Value) -> Vec<(String, String)> {
    h["doubts"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            (
                d["kind"].as_str().unwrap_or("").to_string(),
                d["message_id"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_decline_in_words_no_family_knows_is_a_doubt_not_a_status() {
    let sentence = "We are going to live with this one, the correctness fix matters more \
                    than a few percent on a microbenchmark.";
    // The phrase book alone reads nothing in it.
    let view = regtrack::evidence::BodyView::new(sentence);
    assert!(regtrack::evidence::signal::sentence_signals(&view, &[]).is_empty());

    let dir = tempfile::tempdir().unwrap();
    let h = history(dir.path(), &reply("live-with@example.org", sentence));
    assert_eq!(h["status"], "discussed", "{h:#}");
    assert_eq!(h["status_confidence"], "unsure", "{h:#}");
    assert!(
        doubts(&h).contains(&(
            "possible-decline".to_string(),
            "live-with@example.org".to_string()
        )),
        "{h:#}"
    );
    let settle = h["doubts"][0]["settle"].as_str().unwrap_or("");
    assert!(
        settle.contains("regtrack mark") && settle.contains("declined"),
        "{h:#}"
    );

    let dir = tempfile::tempdir().unwrap();
    let h = history(
        dir.path(),
        &reply(
            "tomorrow@example.org",
            "Let me look at the profile tomorrow.",
        ),
    );
    assert!(
        !doubts(&h)
            .iter()
            .any(|(k, _)| k == "possible-decline" || k == "possible-dispute"),
        "{h:#}"
    );
}
