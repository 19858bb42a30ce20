//! Which messages belong to which regression, in what role, and why.
//!
//! A regression is keyed by its culprit (see [`super::culprit`]); every robot
//! performance report of that culprit is one of its reports. Attached to it:
//! - every message below a report in its thread (`reply`; a `[PATCH]` or a
//!   reply carrying its own diff there is a `patch`, replies under such a
//!   patch are `patch-reply`);
//! - replies with no usable headers whose subject names the culprit;
//! - messages carrying `Closes:`/`Link:` with a lore URL of any attached
//!   message (every URL form, percent-encoded ids), citing such a URL in their
//!   own text, or carrying `Fixes: <culprit>` together with a
//!   `Reported-by: kernel test robot`; `Revert "<culprit title>"` patches
//!   (`revert`); and the replies to all of those (`patch-reply`).
//!
//! Functional reports of a culprit that also has performance reports join it;
//! on their own they make no regression.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::LazyLock;

use regex::Regex;

use super::culprit::{Culprits, canonical_form, is_hex_id, same_commit};
use super::thread::{self, ThreadMsg};
use super::{LinkInput, LinkMessage, LinkOutput, status};
use crate::model::{Kind, Trailer};

/// A message attached to a regression, by index into [`LinkInput::messages`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Index of the message.
    pub idx: usize,
    /// `report`, `reply`, `patch`, `patch-reply` or `revert`.
    pub role: &'static str,
    /// Why it was attached.
    pub reason: String,
}

/// A regression before its status is computed.
#[derive(Debug, Clone, Default)]
pub struct Draft {
    /// The culprit key (longest unambiguous id).
    pub key: String,
    /// Every id of the culprit seen.
    pub aliases: Vec<String>,
    /// Candidates when the key is an ambiguous abbreviation.
    pub ambiguous_with: Vec<String>,
    /// Attached messages (reports first, in the order found).
    pub members: Vec<Member>,
    /// Robot reports of other culprits that show the fix in a tree: a later
    /// report whose culprit is a linked patch (by title), with that patch's index.
    pub fix_in_tree: Vec<(usize, usize)>,
    set: HashSet<usize>,
}

impl Draft {
    fn add(&mut self, idx: usize, role: &'static str, reason: String) -> bool {
        if self.set.insert(idx) {
            self.members.push(Member { idx, role, reason });
            true
        } else {
            false
        }
    }

    /// True when the message is attached.
    pub fn contains(&self, idx: usize) -> bool {
        self.set.contains(&idx)
    }
}

/// The kind of a message, trusting the stored column, then the extraction.
pub fn kind_of(m: &LinkMessage) -> Kind {
    if m.kind == Kind::Other {
        m.extraction.kind
    } else {
        m.kind
    }
}

/// True when the sender is the robot itself (not one of its people).
pub fn is_robot(m: &LinkMessage) -> bool {
    let name = m.from_name.as_deref().unwrap_or("").to_ascii_lowercase();
    let email = m.from_email.as_deref().unwrap_or("").to_ascii_lowercase();
    name.contains("test robot") || email == "lkp@intel.com"
}

/// True for a trailer value naming the robot (`kernel test robot <...>`, `lkp@intel.com`).
pub fn names_robot(value: &str) -> bool {
    let v = value.to_ascii_lowercase();
    v.contains("test robot") || v.contains("lkp@intel.com")
}

/// The message id a lore-style URL points to, in every form seen:
/// `https://lore.kernel.org/oe-lkp/<id>`, `/r/<id>`, `/all/<id>/`,
/// `/<list>/<id>/T/#u`, `lkml.kernel.org/r/<id>`, `patch.msgid.link/<id>`,
/// with percent-encoded ids.
///
/// ```
/// use regtrack::link::attach::lore_msgid;
/// assert_eq!(lore_msgid("https://lore.kernel.org/all/20210304.GB17%40xsang-OptiPlex-9020/T/#u").as_deref(),
///            Some("20210304.GB17@xsang-OptiPlex-9020"));
/// assert_eq!(lore_msgid("https://lore.kernel.org/r/<a@b>").as_deref(), Some("a@b"));
/// ```
pub fn lore_msgid(text: &str) -> Option<String> {
    static URL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)https?://(?:lore\.kernel\.org|lkml\.kernel\.org|patch\.msgid\.link|marc\.info/\?i=)/?([^\s>)\]]+)",
        )
        .expect("lore url regex compiles")
    });
    let caps = URL.captures(text)?;
    let path = caps.get(1)?.as_str();
    let path = path.split(['#', '?']).next().unwrap_or("");
    let segs: Vec<String> = path
        .split('/')
        .filter(|s| !s.is_empty())
        .map(percent_decode)
        .collect();
    let clean = |s: &str| {
        s.trim_matches(|c| c == '<' || c == '>' || c == '.' || c == ',' || c == ';')
            .to_string()
    };
    if let Some(s) = segs.iter().find(|s| s.contains('@')) {
        return Some(clean(s));
    }
    // `/r/<id>` or `/<list>/<id>` with an id without `@`.
    match segs.as_slice() {
        [_, id, ..] if !matches!(id.as_str(), "T" | "t" | "raw") => Some(clean(id)),
        [id] => Some(clean(id)),
        _ => None,
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let (Some(h), Some(l)) = (b.get(i + 1), b.get(i + 2))
            && let (Some(h), Some(l)) = ((*h as char).to_digit(16), (*l as char).to_digit(16))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The mail's own (unquoted, not suggested) trailers.
pub fn own_trailers(m: &LinkMessage) -> impl Iterator<Item = &Trailer> {
    m.extraction
        .trailers
        .iter()
        .filter(|t| t.quote_depth == 0 && !t.suggested)
}

/// The culprit ids a report names (subject id, full id).
fn report_ids(m: &LinkMessage) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(sr) = &m.extraction.subject_report
        && !sr.commit.trim().is_empty()
    {
        v.push(canonical_form(&sr.commit));
    }
    if let Some(full) = m
        .extraction
        .report
        .as_ref()
        .and_then(|r| r.commit_full.as_ref())
        && !full.trim().is_empty()
    {
        v.push(canonical_form(full));
    }
    v
}

fn is_report(m: &LinkMessage) -> bool {
    matches!(kind_of(m), Kind::PerfReport | Kind::FunctionalReport)
}

fn own_diff(m: &LinkMessage) -> bool {
    m.extraction.diffs.iter().any(|d| d.quote_depth == 0)
}

static REVERT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)^\s*(?:(?:re|fwd?)\s*:\s*)?(?:\[[^\]]*\]\s*)*revert\s+"(.+)"\s*$"#)
        .expect("revert regex compiles")
});

/// True when the subject has the form of a revert (`Revert "<title>"`); only
/// such messages can be linked to a regression as its `revert`.
pub fn is_revert_subject(subject: &str) -> bool {
    REVERT.is_match(subject)
}

fn norm_title(s: &str) -> String {
    crate::text::fold_ws(s).to_lowercase()
}

/// Builds threads and regressions (see the module docs).
pub fn build(input: &LinkInput) -> LinkOutput {
    let msgs = &input.messages;
    let tmsgs: Vec<ThreadMsg<'_>> = msgs
        .iter()
        .map(|m| ThreadMsg {
            message_id: &m.message_id,
            in_reply_to: m.in_reply_to.as_deref(),
            references: &m.references,
            subject: &m.subject,
            date: m.date,
        })
        .collect();
    let threads = thread::thread(&tmsgs);
    let by_id: HashMap<&str, usize> = msgs
        .iter()
        .enumerate()
        .map(|(i, m)| (m.message_id.as_str(), i))
        .collect();
    let parent: Vec<Option<usize>> = threads
        .iter()
        .map(|t| t.parent_id.as_deref().and_then(|p| by_id.get(p).copied()))
        .collect();
    let depth: Vec<u32> = threads.iter().map(|t| t.depth).collect();
    let regressions = regressions(msgs, &parent, &depth, &input.marks);
    LinkOutput {
        threads,
        regressions,
    }
}

/// The regressions of `msgs`, given each message's parent message (index
/// into `msgs`) and depth after threading.
///
/// `msgs` may be a subset of the store, in store order, as long as it holds
/// whole threads: every message of every thread that holds a report, a
/// subject-named reply or a message that links to one of those (see
/// `store::links::relink_messages`); the result is then the same as on all
/// messages.
pub fn regressions(
    msgs: &[LinkMessage],
    parent: &[Option<usize>],
    depth: &[u32],
    marks: &[super::Mark],
) -> Vec<super::Regression> {
    let mut regressions: Vec<super::Regression> = drafts(msgs, parent, depth)
        .iter()
        .map(|d| status::finish(d, msgs, marks))
        .collect();
    regressions.sort_by(|a, b| {
        (a.facts.first_unix.unwrap_or(i64::MAX), &a.culprit.commit)
            .cmp(&(b.facts.first_unix.unwrap_or(i64::MAX), &b.culprit.commit))
    });
    regressions
}

/// The regressions of `msgs` before their status is computed (see
/// [`regressions`], which finishes and orders them).
pub fn drafts(msgs: &[LinkMessage], parent: &[Option<usize>], depth: &[u32]) -> Vec<Draft> {
    let by_id: HashMap<&str, usize> = msgs
        .iter()
        .enumerate()
        .map(|(i, m)| (m.message_id.as_str(), i))
        .collect();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); msgs.len()];
    for (i, p) in parent.iter().enumerate() {
        if let Some(p) = p
            && let Some(c) = children.get_mut(*p)
        {
            c.push(i);
        }
    }

    // Culprit ids from reports and from reply subjects.
    let mut ids: Vec<String> = Vec::new();
    for m in msgs.iter().filter(|m| is_report(m)) {
        ids.extend(report_ids(m));
    }
    let subject_culprit = |m: &LinkMessage| -> Option<String> {
        let sr = m.extraction.subject_report.as_ref()?;
        (is_hex_id(sr.commit.trim()) && sr.metric.is_some()).then(|| canonical_form(&sr.commit))
    };
    for m in msgs.iter().filter(|m| !is_report(m)) {
        if let Some(c) = subject_culprit(m) {
            ids.push(c);
        }
    }
    let culprits = Culprits::group(ids.iter().map(|s| s.as_str()));
    let key_for = |ids: &[String]| -> Option<String> {
        // The longest id decides (the full id of the body, when present).
        ids.iter()
            .max_by_key(|s| s.len())
            .and_then(|s| culprits.key_of(s))
            .map(|s| s.to_string())
    };

    let mut order: Vec<usize> = (0..msgs.len()).collect();
    order.sort_by(|&a, &b| {
        (msgs[a].date.unwrap_or(i64::MAX), &msgs[a].message_id)
            .cmp(&(msgs[b].date.unwrap_or(i64::MAX), &msgs[b].message_id))
    });

    let mut drafts: Vec<Draft> = Vec::new();
    let mut reg_of_key: HashMap<String, usize> = HashMap::new();
    let mut reg_of_report: HashMap<usize, usize> = HashMap::new();
    for pass in [Kind::PerfReport, Kind::FunctionalReport] {
        for &i in &order {
            let m = &msgs[i];
            if kind_of(m) != pass {
                continue;
            }
            let rids = report_ids(m);
            let Some(key) = key_for(&rids) else { continue };
            let r = match reg_of_key.get(&key) {
                Some(&r) => r,
                None if pass == Kind::PerfReport => {
                    drafts.push(Draft {
                        key: key.clone(),
                        ambiguous_with: culprits.ambiguous.get(&key).cloned().unwrap_or_default(),
                        ..Draft::default()
                    });
                    reg_of_key.insert(key.clone(), drafts.len() - 1);
                    drafts.len() - 1
                }
                None => continue,
            };
            let d = &mut drafts[r];
            for id in rids {
                if id != d.key && !d.aliases.contains(&id) {
                    d.aliases.push(id);
                }
            }
            d.add(i, "report", format!("robot report of culprit {key}"));
            reg_of_report.insert(i, r);
        }
    }

    // Nearest report ancestor of every message, and whether a patch lies between.
    let mut by_depth: Vec<usize> = (0..msgs.len()).collect();
    by_depth.sort_by_key(|&i| depth.get(i).copied().unwrap_or(0));
    let mut anc: Vec<Option<(usize, Option<usize>)>> = vec![None; msgs.len()];
    for &i in &by_depth {
        if let Some(p) = parent.get(i).copied().flatten() {
            anc[i] = if reg_of_report.contains_key(&p) {
                Some((p, None))
            } else {
                anc[p].map(|(r, patch)| {
                    let is_patch = kind_of(&msgs[p]) == Kind::Patch || own_diff(&msgs[p]);
                    (r, patch.or(is_patch.then_some(p)))
                })
            };
        }
    }

    // Thread members and subject-named replies.
    for &i in &order {
        let m = &msgs[i];
        if reg_of_report.contains_key(&i) {
            continue;
        }
        if let Some((rep, via_patch)) = anc[i] {
            let Some(&r) = reg_of_report.get(&rep) else {
                continue;
            };
            let rep_id = &msgs[rep].message_id;
            let (role, reason) = if kind_of(m) == Kind::Patch {
                (
                    "patch",
                    format!("patch posted in the thread of report {rep_id}"),
                )
            } else if own_diff(m) && !is_robot(m) {
                (
                    "patch",
                    format!("debug patch posted in the thread of report {rep_id}"),
                )
            } else if let Some(p) = via_patch {
                (
                    "patch-reply",
                    format!(
                        "reply to patch {} in the report's thread",
                        msgs[p].message_id
                    ),
                )
            } else {
                ("reply", format!("in the thread of report {rep_id}"))
            };
            drafts[r].add(i, role, reason);
            continue;
        }
        if is_report(m) {
            continue;
        }
        if let Some(c) = subject_culprit(m)
            && let Some(key) = culprits.key_of(&c).map(|s| s.to_string())
        {
            let r = match reg_of_key.get(&key) {
                Some(&r) => r,
                None => {
                    drafts.push(Draft {
                        key: key.clone(),
                        ambiguous_with: culprits.ambiguous.get(&key).cloned().unwrap_or_default(),
                        ..Draft::default()
                    });
                    reg_of_key.insert(key.clone(), drafts.len() - 1);
                    drafts.len() - 1
                }
            };
            if c != key && !drafts[r].aliases.contains(&c) {
                drafts[r].aliases.push(c.clone());
            }
            drafts[r].add(i, "reply", format!("subject names culprit {c}"));
        }
    }

    // Which regressions each message id belongs to (lore links point at any of them).
    let mut regs_of_msg: HashMap<usize, Vec<usize>> = HashMap::new();
    for (r, d) in drafts.iter().enumerate() {
        for mem in &d.members {
            regs_of_msg.entry(mem.idx).or_default().push(r);
        }
    }
    let keys: Vec<String> = drafts.iter().map(|d| d.key.clone()).collect();

    // Patches linked by Closes/Link, lore citations, Fixes + robot Reported-by, reverts.
    let titles: Vec<Option<String>> = drafts
        .iter()
        .map(|d| status::culprit_title(d, msgs).map(|t| norm_title(&t)))
        .collect();
    let mut linked: Vec<(usize, usize, &'static str, String)> = Vec::new();
    for &i in &order {
        let m = &msgs[i];
        if is_report(m) {
            continue;
        }
        let mut targets: Vec<(usize, &'static str, String)> = Vec::new();
        let role_for = |m: &LinkMessage| {
            if kind_of(m) == Kind::Patch || own_diff(m) {
                "patch"
            } else {
                "reply"
            }
        };
        for t in own_trailers(m) {
            let key = t.key.to_ascii_lowercase();
            if (key == "closes" || key == "link")
                && let Some(id) = lore_msgid(&t.value)
                && let Some(&j) = by_id.get(id.as_str())
                && j != i
            {
                for &r in regs_of_msg.get(&j).map(|v| v.as_slice()).unwrap_or(&[]) {
                    targets.push((r, role_for(m), format!("{}: {}", t.key, t.value)));
                }
            }
        }
        for id in &m.extraction.lore_links {
            let id = lore_msgid(id).unwrap_or_else(|| id.trim_matches(['<', '>']).to_string());
            if let Some(&j) = by_id.get(id.as_str())
                && j != i
            {
                for &r in regs_of_msg.get(&j).map(|v| v.as_slice()).unwrap_or(&[]) {
                    targets.push((r, role_for(m), format!("cites the lore URL of {id}")));
                }
            }
        }
        let robot_reported = own_trailers(m)
            .any(|t| t.key.eq_ignore_ascii_case("reported-by") && names_robot(&t.value));
        if robot_reported {
            for t in own_trailers(m).filter(|t| t.key.eq_ignore_ascii_case("fixes")) {
                let id = t
                    .commit
                    .clone()
                    .or_else(|| t.value.split_whitespace().next().map(|s| s.to_string()))
                    .unwrap_or_default();
                if !is_hex_id(&id) {
                    continue;
                }
                for (r, k) in keys.iter().enumerate() {
                    if same_commit(k, &id) {
                        targets.push((
                            r,
                            role_for(m),
                            format!("Fixes: {} with Reported-by: kernel test robot", t.value),
                        ));
                    }
                }
            }
        }
        if let Some(c) = REVERT.captures(&m.subject) {
            let t = norm_title(c.get(1).map(|x| x.as_str()).unwrap_or(""));
            for (r, title) in titles.iter().enumerate() {
                if title.as_deref() == Some(t.as_str()) {
                    targets.push((r, "revert", format!("reverts \"{t}\"")));
                }
            }
        }
        for (r, role, reason) in targets {
            linked.push((r, i, role, reason));
        }
    }
    let mut patch_roots: Vec<(usize, usize)> = Vec::new();
    for (r, i, role, reason) in linked {
        if reg_of_report.get(&i) == Some(&r) {
            continue;
        }
        if drafts[r].add(i, role, reason) && role != "reply" {
            patch_roots.push((r, i));
        }
    }
    // Replies to linked patches.
    for (r, p) in patch_roots {
        let mut queue: VecDeque<usize> = children[p].iter().copied().collect();
        let mut seen: HashSet<usize> = HashSet::new();
        while let Some(c) = queue.pop_front() {
            if !seen.insert(c) || reg_of_report.contains_key(&c) {
                continue;
            }
            let role = if kind_of(&msgs[c]) == Kind::Patch {
                "patch"
            } else {
                "patch-reply"
            };
            drafts[r].add(c, role, format!("reply to patch {}", msgs[p].message_id));
            queue.extend(children[c].iter().copied());
        }
    }

    // A later robot report on a commit titled like one of a regression's
    // linked patches: the robot tested a tree that contains the fix.
    let mut report_by_title: HashMap<String, Vec<usize>> = HashMap::new();
    for (&i, _) in reg_of_report.iter() {
        if let Some(t) = msgs[i]
            .extraction
            .report
            .as_ref()
            .and_then(|r| r.commit_title.as_deref())
        {
            let t = thread::normalize_subject(t);
            if !t.is_empty() {
                report_by_title.entry(t).or_default().push(i);
            }
        }
    }
    for (r, d) in drafts.iter_mut().enumerate() {
        let patches: Vec<usize> = d
            .members
            .iter()
            .filter(|m| m.role == "patch" || m.role == "revert")
            .filter(|m| kind_of(&msgs[m.idx]) == Kind::Patch)
            .map(|m| m.idx)
            .collect();
        for p in patches {
            let title = thread::normalize_subject(&msgs[p].subject);
            let Some(reports) = report_by_title.get(&title) else {
                continue;
            };
            for &rep in reports {
                let later = match (msgs[rep].date, msgs[p].date) {
                    (Some(a), Some(b)) => a > b,
                    _ => false,
                };
                if later
                    && reg_of_report.get(&rep) != Some(&r)
                    && !d.fix_in_tree.contains(&(rep, p))
                {
                    d.fix_in_tree.push((rep, p));
                }
            }
        }
    }

    drafts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lore_url_form_gives_the_message_id() {
        let id = "202401221624.cb53a8ca-oliver.sang@intel.com";
        for url in [
            format!("https://lore.kernel.org/oe-lkp/{id}"),
            format!("https://lore.kernel.org/r/{id}"),
            format!("https://lore.kernel.org/all/{id}/"),
            format!("https://lore.kernel.org/linux-ext4/{id}/T/#u"),
            "https://lore.kernel.org/all/202401221624.cb53a8ca-oliver.sang%40intel.com/"
                .to_string(),
            format!("[1] https://lore.kernel.org/lkml/{id}/"),
            format!("https://lkml.kernel.org/r/{id}"),
        ] {
            assert_eq!(lore_msgid(&url).as_deref(), Some(id), "{url}");
        }
        assert_eq!(lore_msgid("https://example.org/x"), None);
    }

    #[test]
    fn robot_senders_are_told_from_its_people() {
        let mut m = LinkMessage {
            from_name: Some("kernel test robot".into()),
            ..LinkMessage::default()
        };
        assert!(is_robot(&m));
        m.from_name = Some("Oliver Sang".into());
        m.from_email = Some("oliver.sang@intel.com".into());
        assert!(!is_robot(&m));
    }
}
