//! Runs every extractor over one decoded message: the report grammar first
//! (subject, body, lkp tables, kind), then the evidence extractors (diffs,
//! trailers, commits, other tables, profiles, reproducers, kconfig, signals),
//! which may read what the report grammar found (the table signal does).

use crate::model::{Extraction, Message};

/// Version of the extraction logic; stored with each message so that a newer
/// build re-extracts what an older one stored (`pipeline::reindex`). Bump it
/// whenever an extractor finds something new in the same mail.
///
/// 2: patch facts (title, version, patch id, change-id, reverts) and landings
/// (applied replies, b4 thank-yous, announcements, pull requests, merge notes).
/// 3: link keys (`link::keys`) stored with every message.
/// 4: a reply naming a culprit in its subject keys the title its quoted
/// report gives that culprit; `A patch with a fix landed to the mm tree`
/// is a landing.
/// 5: a patch named as dropped in a change log or a pull request (`-
/// Dropped patch "title"`, `Removed the patch "title"`) is a landing.
/// 6: replies are read with the phrase book (`evidence::phrases`): new
/// kinds (withdraws, will-fix, will-revert, sets-aside), questions,
/// conditions, denials and hedges, and the commit a sentence names.
/// 9: a stable backport of a patch (`[ Upstream commit <sha> ]`, `commit
/// <sha> upstream.`) is a `stable` landing of its title; an applied line
/// may lead with `So`/`OK`, name `your patch`, and give its branch in
/// parentheses (`So I've picked up your patch (vfs.misc).`).
/// 10: a reply to a pull request refusing to pull it (`I will not pull
/// this`, `No way will this ever get merged`) is a drop.
/// 11: only the mail's own sentences are read (quoted ones speak for
/// somebody else); the phrase families widened (written on paraphrase sets
/// A-D, `tests/data/paraphrase/`); an answer below a quoted question says
/// what it answers; a request put as a question is read.
/// 12: more phrase families (written on paraphrase sets E and F); "cannot
/// possibly" is emphasis, not a hedge; "noisy" only of a result or a test.
/// 13: a promise that the next version will address the report ("The v2
/// will address this", "will be fixed in the next version"); a patch says
/// whether one sentence of its changelog names the robot and performance.
/// 14: phrase families written on paraphrase set G (taking the cost over
/// correctness, "the benchmark measured the bug", "Can't be this one",
/// "within error", an environment issue on the robot's side, "the fix
/// restores the throughput", "please drop this from mm-everything", ...).
/// 15: the kernel.org patchwork bot's notice (`This series was applied to
/// <repo> (<branch>)`, then a summary of entries with commit links) is an
/// applied landing per entry; an applied line may name "the ext4 git tree".
/// 16: more applied lines: `staged`, `Reviewed and pushed to ...`, `queued
/// this up for 6.8`, a tree and its branch side by side (`dm.git for-next`,
/// `kselftest next branch`), `for Linux 6.11-rc1`, `for 6.9 in the erofs
/// tree`, `The patch has been pushed to dev-test`.
/// 17: the reply model (`evidence::reply_model`) reads the own sentences of
/// replies to the robot's reports that the phrase book read nothing in: a
/// decline or a dispute it is sure of is a `maybe-` signal (a doubt).
/// 18: applied lines saying what was edited on the way (`Applied as 6.7
/// material with some edits in the changelog`, `Merged into selinux/next
/// with minor tweaks`), `for the next merge window`, a place said of "this"
/// or "it" (`This is now in misc-next.`, `Now in xfs for-next.`); a list's
/// footer URL under an applied line is no tree.
/// 19: phrase families written on paraphrase sets H and I (a report taken
/// back with its reason after, fixes and reverts promised in other words,
/// series abandoned, numbers from a debug kernel, the cost kept); the reply
/// model trains on sets A to I.
/// 20: `partly-restores`: a comparison table whose last column wins back
/// part of the culprit column's loss.
/// 21: an inline format-patch whose subject has no `[PATCH]` tag gives its
/// title when git's `From <sha> Mon Sep 17 00:00:00 2001` line opens it; a
/// pasted `git log --graph --decorate` of a remote-tracking branch lands
/// the commits it lists in that branch.
/// 22: "I sent a new version" is a guess unless it says the new version
/// avoids what the robot saw.
/// 23: `i:` link keys: the code identifiers a patch's or a culprit's title
/// names.
/// 24: a reading limited to the speaker's set-up ("at least on my system")
/// is tentative.
/// 25: phrase families written on paraphrase sets J and K (a revert
/// refused for a benchmark's number, "the known and accepted cost", two
/// kernels built or booted differently, "look elsewhere", flat on the
/// speaker's machines, a test that moves as much between boots, a fix
/// being prepared or promised for the next version, a revert decided in
/// other words, patches taken out of a tree for now, all of the loss won
/// back, "numbers are back"); a quoted "could you check if this fixes it?"
/// answered "sure" or yes confirms the fix; a report taken back with a
/// fault of its own (noise, layout) says that fault; a decision put off is none; "should be" before
/// an unchanged result is a guess.
/// 26: phrase families written on paraphrase set L (a net win, numbers that
/// cannot be real, "statistically insignificant", a report forgotten by the
/// robot's team, a patch on the list by a day, a patch dropped from a tree,
/// a series pulled back, a metric recovering fully with the fix in place);
/// noise or layout doubted, denied or set up as an experiment is none; a
/// fix within the noise is no noise; the reply model trained on A to L; a
/// subject's change past ten million percent is no change; Date fields read
/// by RFC 5322's grammar first.
/// 27: phrase families written on paraphrase set M (a revert done or
/// queued in few words, a patch held back from a tree or a pull, a fix
/// being written or on its way, a fix measured back at parity, a false
/// report, nothing seen either way, a cost "stays", cache-line shift said
/// bare); "it does" answers a quoted question yes.
/// 28: a report subject whose change cannot be read (`NaN%`, `inf%`, past
/// ten million percent) keeps its metric and direction and is no failure.
/// 29: `not-a-fix`: the author of a diff says it is no fix (a pointer, a
/// debug aid, an experiment).
/// 30: a sentence opening with a condition says its clause after ", but".
/// 31: phrase families written on paraphrase set N (a fix measured level
/// with the parent or turning the loss into a gain, runs with and without
/// the patch the same, numbers not comparable, a change meaning nothing
/// statistically, a link order, a report to be dropped, someone working on
/// a fix, a revert under way, a next version not pursued); a decline put
/// off "without understanding" it is no decline.
pub const EXTRACTION_VERSION: i64 = 31;

/// The extractors read a body up to this many lines or
/// [`MAX_EXTRACTED_BODY`] bytes, whichever comes first.
pub const MAX_EXTRACTED_LINES: usize = 250_000;

/// The extractors read a body up to this many bytes (at a line end), but
/// the lkp tables, which are read from all of it with their rows capped
/// ([`crate::report::table`]). The robot's reports are well under 1 MB and
/// most patches too; the extractors keep a few tens of bytes per line of
/// what they read (line vectors, paragraphs, diff lines), so a body of tens
/// of megabytes of short lines would take gigabytes. Past this, a huge
/// patch loses the files and
/// trailers of its tail; the stored body is whole.
pub const MAX_EXTRACTED_BODY: usize = 4 << 20;

// A body within the line limit's bytes is read whole ([`extracted_part`]).
const _: () = assert!(MAX_EXTRACTED_LINES <= MAX_EXTRACTED_BODY);

/// The part of `body` the extractors read: all of it, or its first
/// [`MAX_EXTRACTED_LINES`] lines, or its first [`MAX_EXTRACTED_BODY`] bytes
/// cut after a line end.
pub fn extracted_part(body: &str) -> &str {
    // A body shorter than the line limit has fewer lines than it: nearly
    // every body, whose newlines need not be counted.
    if body.len() <= MAX_EXTRACTED_LINES {
        return body;
    }
    if let Some(nl) = memchr::memchr_iter(b'\n', body.as_bytes()).nth(MAX_EXTRACTED_LINES - 1)
        && nl + 1 < body.len()
        && nl < MAX_EXTRACTED_BODY
    {
        return &body[..nl + 1];
    }
    if body.len() <= MAX_EXTRACTED_BODY {
        return body;
    }
    let bytes = &body.as_bytes()[..MAX_EXTRACTED_BODY];
    let end = memchr::memrchr(b'\n', bytes).map_or_else(
        || {
            let mut end = MAX_EXTRACTED_BODY;
            while !body.is_char_boundary(end) {
                end -= 1;
            }
            end
        },
        |p| p + 1,
    );
    &body[..end]
}

/// `msg` with only `part` of its body (its [`extracted_part`]), the body
/// not copied whole.
fn head_of(msg: &Message, part: &str) -> Message {
    Message {
        message_id: msg.message_id.clone(),
        message_id_derived: msg.message_id_derived,
        subject: msg.subject.clone(),
        from_name: msg.from_name.clone(),
        from_email: msg.from_email.clone(),
        date: msg.date,
        in_reply_to: msg.in_reply_to.clone(),
        references: msg.references.clone(),
        list_ids: msg.list_ids.clone(),
        body: part.to_string(),
        parts: msg.parts.clone(),
        content_hash: msg.content_hash.clone(),
        raw_size: msg.raw_size,
    }
}

/// Extracts everything regtrack knows how to read from one message. Pure and panic-free.
pub fn extract(msg: &Message) -> Extraction {
    let (read, mut ex) = reported(msg);
    crate::evidence::extract_evidence(&read, &mut ex);
    ex
}

/// The report grammar over `msg`: the message the evidence extractors read
/// (`msg`, or its [`extracted_part`] when it is huge) and the extraction so
/// far, the lkp tables of the whole body in it (the table signal reads
/// them).
fn reported(msg: &Message) -> (std::borrow::Cow<'_, Message>, Extraction) {
    let mut ex = Extraction::default();
    let part = extracted_part(&msg.body);
    if part.len() == msg.body.len() {
        crate::report::extract_report(msg, &mut ex);
        return (std::borrow::Cow::Borrowed(msg), ex);
    }
    let head = head_of(msg, part);
    crate::report::extract_report(&head, &mut ex);
    ex.tables = crate::report::table::parse_tables(&msg.body);
    (std::borrow::Cow::Owned(head), ex)
}

/// [`extract`] of every message of `msgs`, in order: the messages read
/// whole go through each extractor together
/// ([`crate::evidence::extract_evidence_each`]), a huge one alone.
pub fn extract_each(msgs: &[&Message]) -> Vec<Extraction> {
    extract_each_with(msgs, false)
}

/// [`extract_each`] as an ingest stores it: the signals of every message
/// but the robot's test reports are left unread
/// ([`crate::model::Extraction::signals_unread`],
/// [`crate::evidence::extract_evidence_each_deferred`]); a link reads them
/// with [`signals_of`] when it first asks for them. A huge message is
/// read whole as [`extract`] reads it.
pub fn extract_each_deferred(msgs: &[&Message]) -> Vec<Extraction> {
    extract_each_with(msgs, true)
}

/// The signals [`extract`] finds in `msg`: what a link reads of a message
/// whose signals an ingest left unread.
pub fn signals_of(msg: &Message) -> Vec<crate::model::Signal> {
    let (read, ex) = reported(msg);
    crate::evidence::signals_in(&read, &ex)
}

fn extract_each_with(msgs: &[&Message], defer: bool) -> Vec<Extraction> {
    let mut out: Vec<Extraction> = Vec::with_capacity(msgs.len());
    let mut whole: Vec<&Message> = Vec::with_capacity(msgs.len());
    let mut whole_at: Vec<usize> = Vec::with_capacity(msgs.len());
    let mut report: Vec<Extraction> = Vec::with_capacity(msgs.len());
    for (i, msg) in msgs.iter().enumerate() {
        if extracted_part(&msg.body).len() == msg.body.len() {
            let mut ex = Extraction::default();
            crate::report::extract_report(msg, &mut ex);
            report.push(ex);
            whole.push(msg);
            whole_at.push(i);
            out.push(Extraction::default());
        } else {
            out.push(extract(msg));
        }
    }
    if defer {
        crate::evidence::extract_evidence_each_deferred(&whole, &mut report);
    } else {
        crate::evidence::extract_evidence_each(&whole, &mut report);
    }
    for (i, ex) in whole_at.into_iter().zip(report) {
        out[i] = ex;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extracting_together_gives_what_extracting_each_alone_gives() {
        let bodies = [
            "Thanks, applied to for-next.\n\nThe regression is gone with this patch.\n".to_string(),
            "Fixes: 0123456789ab (\"xfs: first\")\nReported-by: kernel test robot <lkp@intel.com>\n\n\
             diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1,2 +1,2 @@\n-old();\n+new();\n"
                .to_string(),
            String::new(),
            format!("Tested-by: A <a@example.org>\n{}", "x\n".repeat(MAX_EXTRACTED_LINES + 1)),
            "> quoted: we cannot reproduce it\nI am not convinced.\n# mkfs.xfs -f /dev/vdc\n".to_string(),
        ];
        let msgs: Vec<Message> = bodies
            .iter()
            .enumerate()
            .map(|(i, b)| Message {
                message_id: format!("m{i}@x"),
                subject: if i == 1 {
                    "[PATCH] xfs: fix".into()
                } else {
                    "Re: [PATCH] xfs: fix".into()
                },
                in_reply_to: (i != 1).then(|| "p@x".to_string()),
                body: b.clone(),
                ..Message::default()
            })
            .collect();
        let alone: Vec<Extraction> = msgs.iter().map(extract).collect();
        assert!(
            alone.iter().any(|e| !e.landings.is_empty()) && alone.iter().any(|e| e.patch.is_some())
        );
        for take in 0..=msgs.len() {
            for skip in 0..msgs.len() {
                let some: Vec<&Message> = msgs.iter().cycle().skip(skip).take(take).collect();
                let want: Vec<&Extraction> =
                    (0..take).map(|k| &alone[(skip + k) % msgs.len()]).collect();
                let got = extract_each(&some);
                assert_eq!(got.iter().collect::<Vec<_>>(), want, "{take} from {skip}");
            }
        }
    }

    #[test]
    fn a_deferred_extraction_is_the_whole_one_but_the_signals_of_all_but_robot_test_reports() {
        let msg = |id: &str, subject: &str, from: &str, body: &str| Message {
            message_id: id.into(),
            subject: subject.into(),
            from_email: Some(from.into()),
            in_reply_to: Some("r@intel.com".into()),
            body: body.into(),
            ..Message::default()
        };
        let reply = msg(
            "a@x",
            "Re: [linus:master] [xfs] 2edf06a50f: fsmark.files_per_sec -5.7% regression",
            "dev@example.org",
            "I cannot reproduce this at all. The fix restores the throughput.\n",
        );
        let report = msg(
            "r@intel.com",
            "[linus:master] [xfs] 2edf06a50f: fsmark.files_per_sec -5.7% regression",
            "oliver.sang@intel.com",
            "Hello,\n\nkernel test robot noticed a -5.7% regression of fsmark.files_per_sec on:\n\n\
             commit: 2edf06a50f5bd8f8b8a8b8a8b8a8b8a8b8a8b8a8 (\"xfs: x\")\n\n\
             We cannot reproduce it without the fix, it is noise.\n",
        );
        let whole = extract_each(&[&reply, &report]);
        let deferred = extract_each_deferred(&[&reply, &report]);
        assert!(!whole[0].signals.is_empty(), "{:?}", whole[0]);
        assert!(deferred[0].signals.is_empty() && deferred[0].signals_unread);
        assert_eq!(signals_of(&reply), whole[0].signals);
        let mut unread = deferred[0].clone();
        unread.signals = whole[0].signals.clone();
        unread.signals_unread = false;
        assert_eq!(unread, whole[0]);
        // A performance report's whole extraction is kept as JSON: read at once.
        assert_eq!(deferred[1].kind, crate::model::Kind::PerfReport);
        assert_eq!(deferred[1], whole[1]);
        // A build report's build log waits for the link like a reply.
        let build = msg(
            "b@intel.com",
            "[tip:x86/core] BUILD REGRESSION abcdef",
            "lkp@intel.com",
            "kernel test robot noticed the following build errors:\n\n             We cannot reproduce it without the fix, it is noise.\n",
        );
        let whole = extract_each(&[&build]);
        let deferred = extract_each_deferred(&[&build]);
        assert_eq!(deferred[0].kind, crate::model::Kind::BuildReport);
        assert!(!whole[0].signals.is_empty(), "{:?}", whole[0]);
        assert!(deferred[0].signals.is_empty() && deferred[0].signals_unread);
        assert_eq!(signals_of(&build), whole[0].signals);
    }

    #[test]
    fn a_huge_body_is_extracted_from_its_head_but_its_tables_from_all_of_it() {
        let head = "Reported-by: A <a@example.org>\n";
        let table = "aaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbbbbbbbbb\n\
                     ---------------- ---------------------------\n\
                     \x20    14484            -6.3%      13568        fsmark.files_per_sec\n";
        let filler = "x\n".repeat(MAX_EXTRACTED_BODY);
        let tail = "Reported-by: B <b@example.org>\n";
        let msg = Message {
            message_id: "m@x".into(),
            subject: "s".into(),
            body: format!("{head}{filler}{table}{tail}"),
            ..Message::default()
        };
        let part = extracted_part(&msg.body);
        assert!(part.len() <= MAX_EXTRACTED_BODY && part.ends_with('\n'));
        let ex = extract(&msg);
        assert_eq!(ex.tables.len(), 1);
        assert_eq!(ex.tables[0].rows.len(), 1);
        assert_eq!(ex.trailers.len(), 1, "{:?}", ex.trailers);
        assert_eq!(extracted_part("short\n"), "short\n");
        let lines = "\n".repeat(MAX_EXTRACTED_LINES + 1);
        assert_eq!(extracted_part(&lines).len(), MAX_EXTRACTED_LINES);
        let lines = "\n".repeat(MAX_EXTRACTED_LINES);
        assert_eq!(extracted_part(&lines).len(), MAX_EXTRACTED_LINES);
        let one_line = "é".repeat(MAX_EXTRACTED_BODY);
        assert!(extracted_part(&one_line).len() <= MAX_EXTRACTED_BODY);
    }
}
