//! Real mail from the shared folder (found through `REGTRACK_SHARED`): the five
//! seeds and the corpus mboxes parse with no failure, with the values they hold.

use std::path::PathBuf;

use regtrack::model::Message;

fn shared() -> Option<PathBuf> {
    crate::common::shared()
}

fn parse_all(path: &std::path::Path) -> Vec<Message> {
    regtrack::source::open(path)
        .unwrap()
        .map(|raw| regtrack::mail::parse(&raw.unwrap()).unwrap())
        .collect()
}

fn seed(dir: &std::path::Path, prefix: &str) -> Message {
    let entry = std::fs::read_dir(dir.join("seeds"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .unwrap();
    let mut msgs = parse_all(&entry);
    assert_eq!(msgs.len(), 1, "{}", entry.display());
    msgs.remove(0)
}

#[test]
fn the_collapsed_seed_yields_its_headers_and_a_one_line_body() {
    let Some(dir) = shared() else { return };
    let m = seed(&dir, "000_");
    assert_eq!(
        m.message_id,
        "9d4e37e2-417e-7a2f-a187-5c7b680c6777@intel.com"
    );
    assert!(!m.message_id_derived);
    assert_eq!(
        m.subject,
        "Re: [LKP] Re: [xfs] 016a23388c: stress-ng.xattr.ops_per_sec 58.4% improvement"
    );
    assert_eq!(m.from_name.as_deref(), Some("Yin, Fengwei"));
    assert_eq!(
        m.in_reply_to.as_deref(),
        Some("20220721220142.GW3861211@dread.disaster.area")
    );
    assert_eq!(
        m.references,
        vec!["20220721220142.GW3861211@dread.disaster.area"]
    );
    assert_eq!(m.list_ids, vec!["linux-kernel.vger.kernel.org"]);
    assert_eq!(m.date, Some(1_659_422_160));
    assert!(
        m.body.starts_with("Hi Dave, On 7/22/2022 6:01 AM"),
        "{}",
        &m.body[..80]
    );
    assert!(m.body.ends_with("Regards Yin, Fengwei"));
}

#[test]
fn the_raw_seed_without_a_from_line_is_one_message() {
    let Some(dir) = shared() else { return };
    let m = seed(&dir, "001_");
    assert_eq!(m.message_id, "ZGDyAOewWqjY5xvJ@feng-clx");
    assert_eq!(
        m.subject,
        "Re: [linus:master] [xfs]  2edf06a50f:  fsmark.files_per_sec -5.7% regression"
    );
    assert_eq!(
        regtrack::mail::subject::list_key(&m.subject),
        "[linus:master] [xfs] 2edf06a50f: fsmark.files_per_sec -5.7% regression"
    );
    assert_eq!(m.from_name.as_deref(), Some("Feng Tang"));
    assert_eq!(m.from_email.as_deref(), Some("feng.tang@intel.com"));
    assert_eq!(m.references.len(), 5);
    assert_eq!(
        m.in_reply_to.as_deref(),
        Some("20230512230504.GF3223426@dread.disaster.area")
    );
    assert_eq!(m.date, Some(1_684_075_008));
}

#[test]
fn rendered_seeds_yield_subject_author_and_a_derived_id() {
    let Some(dir) = shared() else { return };
    let cases = [
        (
            "002_",
            "Re: [ext4] 05c2c00f37: aim7.jobs-per-min -11.8% regression",
            "jack@suse.cz",
            1,
        ),
        (
            "003_",
            "Re: [xfs] 68a9f5e700: aim7.jobs-per-min -13.6% regression",
            "david@fromorbit.com",
            1,
        ),
        (
            "004_",
            "Re: [axboe-block:xfs-async-dio] [fs] f9f8b03900: stress-ng.msg.ops_per_sec 29.3% improvement",
            "axboe@kernel.dk",
            1,
        ),
    ];
    for (prefix, subject, email, parts) in cases {
        let m = seed(&dir, prefix);
        assert_eq!(m.subject, subject);
        assert_eq!(m.from_email.as_deref(), Some(email));
        assert!(m.message_id_derived);
        assert!(m.message_id.starts_with("derived-") && m.message_id.ends_with("@regtrack"));
        assert_eq!(m.parts.len(), parts, "{prefix}");
        assert!(!m.body.contains("[-- Attachment"), "{prefix}");
        assert_eq!(seed(&dir, prefix).message_id, m.message_id, "stable id");
    }
}

#[test]
fn the_corpus_mboxes_parse_with_no_failure() {
    let Some(dir) = shared() else { return };
    for (name, count) in [
        ("ext4-lkp.mbox", 37),
        ("ext4-robot-on-patches.mbox", 7),
        ("nfs-lkp.mbox", 50),
        ("pm-lkp.mbox", 44),
    ] {
        let msgs = parse_all(&dir.join("corpus").join(name));
        assert_eq!(msgs.len(), count, "{name}");
        for m in &msgs {
            assert!(!m.message_id_derived, "{name}: {}", m.subject);
            assert!(m.date.is_some(), "{name}: {}", m.message_id);
            assert!(!m.body.is_empty(), "{name}: {}", m.message_id);
            assert!(!m.list_ids.is_empty(), "{name}: {}", m.message_id);
        }
    }
    let ext4 = parse_all(&dir.join("corpus/ext4-lkp.mbox"));
    // The robot's iso-8859-1 tables decode the 0xB1 byte as `±`.
    assert!(ext4.iter().any(|m| m.body.contains(" ± ")));
    assert!(ext4.iter().all(|m| !m.body.contains('\u{fffd}')));
}
