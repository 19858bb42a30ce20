//! Which messages belong to which regression, in what role, and why.
//!
//! A regression is keyed by its culprit (see [`super::culprit`]); every robot
//! performance report of that culprit is one of its reports. One patch
//! reported under several commit ids as it moves between trees (a
//! developer branch, linux-next, the merged id) is one regression: ids are
//! joined when the robot's preamble names the earlier report (`we reported
//! "..." in <link>`), when reports give the same culprit title, and when a
//! `Fixes: <id> ("<culprit title>")` names another id with the culprit's
//! title. Attached to a regression:
//! - every message below a report in its thread (`reply`; a `[PATCH]` or a
//!   reply carrying its own diff there is a `patch`, replies under such a
//!   patch are `patch-reply`);
//! - replies with no usable headers whose subject names the culprit;
//! - messages carrying `Closes:`/`Link:` with a lore URL of any attached
//!   message (every URL form, percent-encoded ids), citing such a URL in their
//!   own text, or carrying `Fixes: <any id of the culprit>` together with a
//!   `Reported-by: kernel test robot` (unless its `Closes:` names only
//!   reports outside the history: a build warning in the same culprit);
//! - reverts of the culprit (`revert`): a revert whose "This reverts commit
//!   `<sha>`" names an id of the culprit, or, without a sha, whose title names
//!   the culprit's and which was posted after the first report;
//! - every other posting of a linked patch (earlier drafts, later versions,
//!   resends: [`super::patch`]), the replies to all linked patches
//!   (`patch-reply`), and the messages that say where a linked patch landed
//!   (`landing`: pull requests, announcements, merge notes).
//!
//! Functional reports of a culprit that also has performance reports join it;
//! on their own they make no regression.

use std::collections::{HashMap, HashSet, VecDeque};

use super::LinkMessage;
use super::culprit::{Culprits, IdIndex, canonical_form, is_hex_id, same_commit};
use super::draft::{Draft, Linked};
use super::hints::{
    cited_target, disclaims_own_diff, fixes_id, is_report, is_robot_team, kind_of, own_diff,
    own_fix_diff, own_table_restores, own_trailers, report_ids, robot_reported, subject_culprit,
    title_key, trailer_target,
};
use super::keys::{TYPO_WORD_MIN, masked_titles};
use super::patch::{self, Patches};
use crate::model::history::{Mark, Role};
use crate::model::{Kind, LandingKind};

fn uf_find(p: &mut [usize], mut x: usize) -> usize {
    while p[x] != x {
        p[x] = p[p[x]];
        x = p[x];
    }
    x
}

fn uf_union(p: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (uf_find(p, a), uf_find(p, b));
    if ra != rb {
        p[ra.max(rb)] = ra.min(rb);
    }
}

/// A report's culprit title as compared, when it is specific enough to
/// identify a commit (three words or more, not a merge).
fn report_title(m: &LinkMessage) -> Option<String> {
    let t = m.extraction.report.as_ref()?.commit_title.as_deref()?;
    let k = title_key(t);
    (k.split_whitespace().count() >= 3 && !k.starts_with("merge ")).then_some(k)
}

/// True for a report on mainline (`[linus:master]` or the torvalds tree).
fn on_mainline(m: &LinkMessage) -> bool {
    let sr = m.extraction.subject_report.as_deref();
    sr.and_then(|s| s.branch.as_deref())
        .is_some_and(|b| b.starts_with("linus:"))
        || m.extraction
            .report
            .as_ref()
            .and_then(|r| r.tree_url.as_deref())
            .is_some_and(|u| u.contains("torvalds/linux"))
}

/// The culprit keys of the reports, with the keys of one patch reported
/// under several ids joined: key -> the key of its group.
fn culprit_groups(
    msgs: &[LinkMessage],
    culprits: &Culprits,
    patches: &patch::Patches,
) -> HashMap<String, String> {
    let mut keys: Vec<String> = culprits.key.values().cloned().collect();
    keys.sort();
    keys.dedup();
    let at: HashMap<&str, usize> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| (k.as_str(), i))
        .collect();
    let mut uf: Vec<usize> = (0..keys.len()).collect();
    let key_of = |id: &str| -> Option<usize> {
        culprits
            .key_of(&canonical_form(id))
            .and_then(|k| at.get(k).copied())
    };
    let by_id: HashMap<&str, usize> = msgs
        .iter()
        .enumerate()
        .map(|(i, m)| (m.message_id.as_str(), i))
        .collect();
    let report_key = |m: &LinkMessage| -> Option<usize> {
        report_ids(m)
            .iter()
            .max_by_key(|s| s.len())
            .and_then(|id| key_of(id))
    };
    // Titles of the reports' culprits.
    let mut by_title: HashMap<String, usize> = HashMap::new();
    for m in msgs.iter().filter(|m| is_report(m)) {
        let Some(k) = report_key(m) else { continue };
        // The preamble names the earlier report of the same change.
        if let Some(b) = &m.extraction.report {
            for prev in &b.previous {
                if let Some(c) = prev.commit.as_deref().and_then(&key_of) {
                    uf_union(&mut uf, k, c);
                }
                if let Some(&j) = prev.message_id.as_deref().and_then(|id| by_id.get(id))
                    && is_report(&msgs[j])
                    && let Some(c) = report_key(&msgs[j])
                {
                    uf_union(&mut uf, k, c);
                }
            }
        }
        if let Some(t) = report_title(m) {
            match by_title.get(&t) {
                Some(&o) => uf_union(&mut uf, k, o),
                None => {
                    by_title.insert(t, k);
                }
            }
        }
    }
    // A reply naming a culprit in its subject whose report is not in the
    // archive (sent to another list) but quoted: `commit: <id> ("title")`
    // with the title of a reported culprit is the same change under
    // another id, as two reports with one title are.
    for m in msgs.iter().filter(|m| !is_report(m)) {
        let Some(c) = subject_culprit(m) else {
            continue;
        };
        let Some(k) = key_of(&c) else { continue };
        let quoted = m.extraction.commits.iter().find_map(|r| {
            let t = title_key(r.title.as_deref()?);
            (same_commit(&r.id, &c)
                && t.split_whitespace().count() >= 3
                && !t.starts_with("merge "))
            .then_some(t)
        });
        if let Some(o) = quoted.and_then(|t| by_title.get(&t).copied()) {
            uf_union(&mut uf, k, o);
        }
    }
    // A fix naming another id with the culprit's title.
    for m in msgs {
        for t in own_trailers(m) {
            let (Some(id), Some(title)) = (fixes_id(t), t.title.as_deref()) else {
                continue;
            };
            if let (Some(&k), Some(o)) = (by_title.get(&title_key(title)), key_of(&id)) {
                uf_union(&mut uf, k, o);
            }
        }
    }
    // The titles of two versions of one patch posted on its own, by one
    // author, whatever their titles became: a change the robot reported as
    // its posted v1 and again as the v2 a maintainer applied is one
    // culprit. (Postings of one version joined only by their diff are not
    // versions of a change, and the parts of two series paired by what
    // they touch are too loosely one change to join two culprits.)
    for id in &patches.identities {
        let of_patch: Vec<(usize, String, u32)> = id
            .postings
            .iter()
            .filter(|&&i| patch::single(&msgs[i]))
            .filter_map(|&i| {
                let p = msgs[i].extraction.patch.as_ref()?;
                let k = by_title.get(&p.title_key).copied()?;
                Some((k, patch::author(&msgs[i]), patch::version_of(&msgs[i])))
            })
            .collect();
        for (x, (k, a, v)) in of_patch.iter().enumerate() {
            for (k2, a2, v2) in &of_patch[x + 1..] {
                if a == a2 && v != v2 {
                    uf_union(&mut uf, *k, *k2);
                }
            }
        }
    }
    // The group's key: its mainline report's, else its first report's.
    let mut rep: HashMap<usize, (bool, i64, usize)> = HashMap::new();
    for m in msgs.iter().filter(|m| is_report(m)) {
        let Some(k) = report_key(m) else { continue };
        let g = uf_find(&mut uf, k);
        let cand = (!on_mainline(m), m.date.unwrap_or(i64::MAX), k);
        let e = rep.entry(g).or_insert(cand);
        if cand < *e {
            *e = cand;
        }
    }
    let mut out = HashMap::new();
    for (i, k) in keys.iter().enumerate() {
        let g = uf_find(&mut uf, i);
        let r = rep.get(&g).map_or(g, |e| e.2);
        out.insert(k.clone(), keys[r].clone());
    }
    out
}

/// The drafts of `msgs` (each a regression before its status is computed),
/// given each message's parent message (index into `msgs`) and depth after
/// threading.
///
/// `msgs` may be a subset of the messages, in their order, as long as it
/// holds whole threads: every message of every thread that holds a report,
/// a subject-named reply or a message that links to one of those, and the
/// postings and landings of their patches and of their culprits (see
/// [`super::select`]); the result is then the same as on all messages.
///
/// The stages, in order, each a function below: the culprit keys
/// (`culprit_keys`), a draft per reported culprit (`report_drafts`),
/// the messages below a report and the replies naming a culprit
/// (`attach_threads`), the messages pointing at a history
/// (`attach_pointers`), every posting of a linked patch
/// (`attach_postings`) and the replies to them (`attach_patch_replies`),
/// where the patches landed (`attach_landings`), the culprit's own posting
/// (`find_culprit_patches`) and the later reports that show a fix in a
/// tree (`find_fix_in_tree`).
pub fn drafts(
    msgs: &[LinkMessage],
    parent: &[Option<usize>],
    depth: &[u32],
    marks: &[Mark],
) -> Linked {
    let ix = Index::new(msgs, parent);
    let mut patches = patch::identify(msgs, parent);
    let keys = culprit_keys(msgs, &patches);
    let mut at = report_drafts(&ix, &keys);
    let anc = report_ancestors(&ix, depth, &at.reg_of_report);
    attach_threads(&ix, &keys, &anc, &mut at);
    // Titles as the threads give them: what later stages add does not
    // change which posting is the culprit's.
    let titles: Vec<Option<String>> = at
        .drafts
        .iter()
        .map(|d| d.culprit_title(msgs).map(|t| title_key(&t)))
        .collect();
    let mut patch_roots = attach_pointers(&ix, &titles, &mut at);
    patch_roots.extend(weigh_candidates(
        &ix,
        &patches,
        &titles,
        marks,
        &mut at.drafts,
    ));
    split_flooded_patches(&ix, &mut patches, &at.drafts);
    patch_roots.extend(attach_postings(&ix, &patches, &titles, &mut at));
    attach_patch_replies(&ix, patch_roots, &mut at);
    attach_landings(ix.msgs, &patches, &mut at.drafts);
    find_culprit_patches(msgs, parent, &patches, &titles, &mut at.drafts);
    attach_culprit_thread_drops(&ix, &patches, &mut at.drafts);
    find_fix_in_tree(msgs, &patches, &mut at);
    Linked {
        drafts: at.drafts,
        patches,
    }
}

/// What the stages look messages up by: the messages, their parents, each
/// Message-ID's message, each message's children, and the messages in date
/// order (ties by Message-ID, so arrival order never matters).
struct Index<'a> {
    msgs: &'a [LinkMessage],
    parent: &'a [Option<usize>],
    by_id: HashMap<&'a str, usize>,
    children: Vec<Vec<usize>>,
    order: Vec<usize>,
}

impl<'a> Index<'a> {
    /// Takes the messages and each one's parent (index into `msgs`); gives
    /// the look-ups.
    fn new(msgs: &'a [LinkMessage], parent: &'a [Option<usize>]) -> Index<'a> {
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
        let mut order: Vec<usize> = (0..msgs.len()).collect();
        order.sort_by(|&a, &b| {
            (msgs[a].date.unwrap_or(i64::MAX), &msgs[a].message_id)
                .cmp(&(msgs[b].date.unwrap_or(i64::MAX), &msgs[b].message_id))
        });
        Index {
            msgs,
            parent,
            by_id,
            children,
            order,
        }
    }
}

/// The culprit ids of the messages, grouped: abbreviations resolved
/// ([`Culprits`]) and the ids of one patch reported under several joined
/// (`groups`: key -> the key of its group).
struct CulpritKeys {
    culprits: Culprits,
    groups: HashMap<String, String>,
}

impl CulpritKeys {
    /// The key of the group of culprit key `k`.
    fn group_of(&self, k: &str) -> String {
        self.groups.get(k).cloned().unwrap_or_else(|| k.to_string())
    }

    /// The group key of a report's ids: the longest id decides (the full
    /// id of the body, when present).
    fn key_for(&self, ids: &[String]) -> Option<String> {
        ids.iter()
            .max_by_key(|s| s.len())
            .and_then(|s| self.culprits.key_of(s))
            .map(|k| self.group_of(k))
    }
}

/// Takes the messages; gives the culprit ids of the reports and of reply
/// subjects, resolved and grouped.
fn culprit_keys(msgs: &[LinkMessage], patches: &patch::Patches) -> CulpritKeys {
    let mut ids: Vec<String> = Vec::new();
    for m in msgs.iter().filter(|m| is_report(m)) {
        ids.extend(report_ids(m));
    }
    for m in msgs.iter().filter(|m| !is_report(m)) {
        if let Some(c) = subject_culprit(m) {
            ids.push(c);
        }
    }
    let culprits = Culprits::group(ids.iter().map(|s| s.as_str()));
    let groups = culprit_groups(msgs, &culprits, patches);
    CulpritKeys { culprits, groups }
}

/// The drafts as the stages build them: the drafts, the draft of each
/// culprit key, and the draft of each report.
struct Attached {
    drafts: Vec<Draft>,
    reg_of_key: HashMap<String, usize>,
    reg_of_report: HashMap<usize, usize>,
}

impl Attached {
    /// The draft of culprit key `key`, made when there is none.
    fn draft_for(&mut self, key: &str, keys: &CulpritKeys) -> usize {
        if let Some(&r) = self.reg_of_key.get(key) {
            return r;
        }
        let ambiguous_with = keys
            .culprits
            .ambiguous
            .get(key)
            .cloned()
            .unwrap_or_default();
        self.drafts.push(Draft::new(key, ambiguous_with));
        let r = self.drafts.len() - 1;
        self.reg_of_key.insert(key.to_string(), r);
        r
    }
}

/// Takes the messages and the culprit keys; gives one draft per culprit
/// with a performance report, holding its reports (performance reports
/// first, then functional reports of the same culprit, each in date order)
/// and every id of its group as aliases.
fn report_drafts(ix: &Index<'_>, keys: &CulpritKeys) -> Attached {
    let mut at = Attached {
        drafts: Vec::new(),
        reg_of_key: HashMap::new(),
        reg_of_report: HashMap::new(),
    };
    for pass in [Kind::PerfReport, Kind::FunctionalReport] {
        for &i in &ix.order {
            let m = &ix.msgs[i];
            if kind_of(m) != pass {
                continue;
            }
            let rids = report_ids(m);
            let Some(key) = keys.key_for(&rids) else {
                continue;
            };
            if pass != Kind::PerfReport && !at.reg_of_key.contains_key(&key) {
                continue;
            }
            let r = at.draft_for(&key, keys);
            let d = &mut at.drafts[r];
            for id in rids {
                if !same_commit(&id, &d.key) && !d.aliases.contains(&id) {
                    d.aliases.push(id);
                }
            }
            d.add(i, Role::Report, format!("robot report of culprit {key}"));
            at.reg_of_report.insert(i, r);
        }
    }
    // Every id of a joined group is an alias of its regression.
    for (id, g) in &keys.groups {
        if let Some(&r) = at.reg_of_key.get(g) {
            let d = &mut at.drafts[r];
            if !same_commit(id, &d.key) && !d.aliases.iter().any(|a| same_commit(a, id)) {
                d.aliases.push(id.clone());
            }
        }
    }
    at
}

/// Takes the threading (parents in `ix`, `depth`) and the reports with a
/// draft; gives each message's nearest report ancestor, with the nearest
/// patch between them if any.
fn report_ancestors(
    ix: &Index<'_>,
    depth: &[u32],
    reg_of_report: &HashMap<usize, usize>,
) -> Vec<Option<(usize, Option<usize>)>> {
    let msgs = ix.msgs;
    let mut by_depth: Vec<usize> = (0..msgs.len()).collect();
    by_depth.sort_by_key(|&i| depth.get(i).copied().unwrap_or(0));
    let mut anc: Vec<Option<(usize, Option<usize>)>> = vec![None; msgs.len()];
    for &i in &by_depth {
        if let Some(p) = ix.parent.get(i).copied().flatten() {
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
    anc
}

/// Takes the report ancestors; attaches every message below a report to
/// that report's draft (`reply`, `patch`, `patch-reply`), and each reply
/// outside a report's thread whose subject names a culprit to that
/// culprit's draft (made when the culprit has none).
fn attach_threads(
    ix: &Index<'_>,
    keys: &CulpritKeys,
    anc: &[Option<(usize, Option<usize>)>],
    at: &mut Attached,
) {
    let msgs = ix.msgs;
    for &i in &ix.order {
        let m = &msgs[i];
        if at.reg_of_report.contains_key(&i) {
            continue;
        }
        if let Some((rep, via_patch)) = anc[i] {
            let Some(&r) = at.reg_of_report.get(&rep) else {
                continue;
            };
            let rep_id = &msgs[rep].message_id;
            let (role, reason) = if let Some(why) = not_a_fix_here(ix, rep, i) {
                (
                    Role::Reply,
                    format!("{why} in the thread of report {rep_id}"),
                )
            } else if kind_of(m) == Kind::Patch {
                (
                    Role::Patch,
                    format!("patch posted in the thread of report {rep_id}"),
                )
            } else if own_fix_diff(m) {
                let reason = if is_robot_team(m) {
                    let shows = if own_table_restores(m) {
                        "the performance restored"
                    } else {
                        "part of the loss won back"
                    };
                    format!(
                        "diff the robot's team tested in the thread of report {rep_id}: its table shows {shows}"
                    )
                } else {
                    format!("debug patch posted in the thread of report {rep_id}")
                };
                (Role::Patch, reason)
            } else if let Some(p) = via_patch {
                (
                    Role::PatchReply,
                    format!(
                        "reply to patch {} in the report's thread",
                        msgs[p].message_id
                    ),
                )
            } else {
                (Role::Reply, format!("in the thread of report {rep_id}"))
            };
            at.drafts[r].add(i, role, reason);
            continue;
        }
        if is_report(m) {
            continue;
        }
        if let Some(c) = subject_culprit(m)
            && let Some(key) = keys.culprits.key_of(&c).map(|k| keys.group_of(k))
        {
            let r = at.draft_for(&key, keys);
            let d = &mut at.drafts[r];
            if !same_commit(&c, &key) && !d.aliases.contains(&c) {
                d.aliases.push(c.clone());
            }
            let role = if (kind_of(m) == Kind::Patch && !is_robot_team(m)) || own_fix_diff(m) {
                Role::Patch
            } else {
                Role::Reply
            };
            d.add(i, role, format!("subject names culprit {c}"));
        }
    }
}

/// Why patch or diff `i`, below report `rep`, fixes something other than
/// the performance regression (`None` when it may fix it):
///
/// - a diff whose author says it is no fix (a pointer, a debug aid, an
///   experiment: [`disclaims_own_diff`]) is a reply;
/// - below a functional report (a BUG, a WARNING, a failed test), a patch
///   answers that failure;
/// - below a report on a posted patch, a new posting by the patch's own
///   author whose changelog does not speak of the regression or the robot
///   is the patch's next version, not a fix of what the robot measured.
fn not_a_fix_here(ix: &Index<'_>, rep: usize, i: usize) -> Option<&'static str> {
    let msgs = ix.msgs;
    let m = &msgs[i];
    if kind_of(m) != Kind::Patch && !own_diff(m) {
        return None;
    }
    if disclaims_own_diff(m) {
        return Some("a diff its author says is no fix");
    }
    if kind_of(&msgs[rep]) == Kind::FunctionalReport {
        return Some("a patch for the failure reported");
    }
    let tested = ix.parent.get(rep).copied().flatten()?;
    // By address: a posting without one is nobody's next version.
    let same_author = |a: &LinkMessage, b: &LinkMessage| {
        a.from_email.as_deref().is_some_and(|e| !e.is_empty())
            && patch::author(a) == patch::author(b)
    };
    let speaks = m.extraction.patch.as_deref().is_some_and(|p| {
        p.speaks_of
            .iter()
            .any(|w| super::candidates::names_regression(w))
    });
    (kind_of(m) == Kind::Patch
        && kind_of(&msgs[tested]) == Kind::Patch
        && same_author(m, &msgs[tested])
        && !speaks)
        .then_some("the tested patch's next version by its author")
}

/// The role of a message that points at a history: a pull request or
/// announcement citing the report is no discussion of it (`landing`), a
/// patch or a diff is a `patch`, anything else a `reply`.
fn pointer_role(m: &LinkMessage) -> Role {
    if m.extraction.landings.iter().any(|l| {
        matches!(
            l.kind,
            LandingKind::PullRequest | LandingKind::ForNext | LandingKind::Merged
        )
    }) {
        Role::Landing
    } else if kind_of(m) == Kind::Patch || own_diff(m) {
        Role::Patch
    } else {
        Role::Reply
    }
}

/// Takes the drafts as the threads made them and their culprits' title
/// keys (`titles`, by draft); attaches the messages pointing at a history:
/// `Closes:`/`Link:` to an attached message, a cited lore URL of one, a
/// `Fixes:` naming the culprit with the robot's `Reported-by:` (unless its
/// `Closes:` names only reports outside the history), and reverts of the
/// culprit. Gives the patches and reverts so attached (draft, message),
/// whose replies are attached later.
fn attach_pointers(
    ix: &Index<'_>,
    titles: &[Option<String>],
    at: &mut Attached,
) -> Vec<(usize, usize)> {
    let msgs = ix.msgs;
    // Which regressions each message id belongs to (lore links point at any of them).
    let mut regs_of_msg: HashMap<usize, Vec<usize>> = HashMap::new();
    for (r, d) in at.drafts.iter().enumerate() {
        for mem in &d.members {
            regs_of_msg.entry(mem.idx).or_default().push(r);
        }
    }
    let first_report: Vec<Option<i64>> = at.drafts.iter().map(|d| d.first_report(msgs)).collect();
    let named = DraftNames::new(&at.drafts, titles);
    let mut linked: Vec<(usize, usize, Role, String)> = Vec::new();
    for &i in &ix.order {
        let m = &msgs[i];
        if is_report(m) {
            continue;
        }
        let mut targets: Vec<(usize, Role, String)> = Vec::new();
        for t in own_trailers(m) {
            if let Some(id) = trailer_target(t)
                && let Some(&j) = ix.by_id.get(id.as_str())
                && j != i
            {
                for &r in regs_of_msg.get(&j).into_iter().flatten() {
                    targets.push((r, pointer_role(m), format!("{}: {}", t.key, t.value)));
                }
            }
        }
        for id in &m.extraction.lore_links {
            let id = cited_target(id);
            if let Some(&j) = ix.by_id.get(id.as_str())
                && j != i
            {
                for &r in regs_of_msg.get(&j).into_iter().flatten() {
                    targets.push((r, pointer_role(m), format!("cites the lore URL of {id}")));
                }
            }
        }
        if own_trailers(m).any(robot_reported) {
            targets.extend(robot_fixes(ix, m, &named, &regs_of_msg));
        }
        targets.extend(reverts(m, &at.drafts, titles, &first_report));
        for (r, role, reason) in targets {
            // A chain of links: what points at this message (a fix's
            // `Link:` to a revert or a discussion that is part of the
            // history) points at its history too. Messages are taken in
            // date order, so a link back to an earlier member holds.
            if role != Role::Landing {
                let regs = regs_of_msg.entry(i).or_default();
                if !regs.contains(&r) {
                    regs.push(r);
                }
            }
            linked.push((r, i, role, reason));
        }
    }
    let mut patch_roots: Vec<(usize, usize)> = Vec::new();
    for (r, i, role, reason) in linked {
        if at.reg_of_report.get(&i) == Some(&r) {
            continue;
        }
        if at.drafts[r].add(i, role, reason) && matches!(role, Role::Patch | Role::Revert) {
            patch_roots.push((r, i));
        }
    }
    patch_roots
}

/// The histories a message carrying the robot's `Reported-by:` fixes by
/// its `Fixes:` trailers: (draft, role, reason) for each draft whose
/// culprit a `Fixes:` names (by any id, or by the culprit's title under
/// another id: `titles`, by draft), unless the message's `Closes:` trailers name
/// only reports outside that history (a build warning the robot found in
/// the same culprit).
fn robot_fixes(
    ix: &Index<'_>,
    m: &LinkMessage,
    named: &DraftNames<'_>,
    regs_of_msg: &HashMap<usize, Vec<usize>>,
) -> Vec<(usize, Role, String)> {
    let closes: Vec<Option<usize>> = own_trailers(m)
        .filter(|t| t.key.eq_ignore_ascii_case("closes"))
        .filter_map(trailer_target)
        .map(|id| ix.by_id.get(id.as_str()).copied())
        .collect();
    let closes_elsewhere = |r: usize| {
        super::hints::closes_only_elsewhere(
            closes
                .iter()
                .map(|j| j.is_some_and(|j| regs_of_msg.get(&j).is_some_and(|v| v.contains(&r)))),
        )
    };
    let mut out = Vec::new();
    for t in own_trailers(m) {
        let Some(id) = fixes_id(t) else {
            continue;
        };
        // The culprit by any id, or another id with the culprit's title
        // (the merged commit of a patch the robot tested).
        let titled = t.title.as_deref().map(title_key);
        for r in named.drafts_of(&id, titled.as_deref()) {
            if !closes_elsewhere(r) {
                out.push((
                    r,
                    pointer_role(m),
                    format!("Fixes: {} with Reported-by: kernel test robot", t.value),
                ));
            }
        }
    }
    out
}

/// The drafts by the ids of their culprits (key and aliases) and by their
/// culprits' titles, so that each `Fixes:` finds the drafts it names
/// without asking every draft.
struct DraftNames<'t> {
    ids: IdIndex<usize>,
    by_title: HashMap<&'t str, Vec<usize>>,
}

impl<'t> DraftNames<'t> {
    /// Indexes `drafts` and their culprits' titles (`titles`, by draft).
    fn new(drafts: &[Draft], titles: &'t [Option<String>]) -> DraftNames<'t> {
        let ids = IdIndex::new(drafts.iter().enumerate().flat_map(|(r, d)| {
            d.culprit_names()
                .into_iter()
                .map(move |id| (id.to_string(), r))
        }));
        let mut by_title: HashMap<&str, Vec<usize>> = HashMap::new();
        for (r, t) in titles.iter().enumerate() {
            if let Some(t) = t {
                by_title.entry(t.as_str()).or_default().push(r);
            }
        }
        DraftNames { ids, by_title }
    }

    /// The drafts (ascending) whose culprit `id` names, or whose culprit's
    /// title is `title` (a title key).
    fn drafts_of(&self, id: &str, title: Option<&str>) -> Vec<usize> {
        let mut out = self.ids.matching(id);
        if let Some(v) = title.and_then(|t| self.by_title.get(t)) {
            out.extend(v);
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The histories whose culprit a posting reverts: (draft, `revert`,
/// reason) for a revert whose "This reverts commit" names the culprit, or,
/// without a sha, whose title is the culprit's (`titles`, by draft) and
/// which came after the draft's first report (`first_report`).
fn reverts(
    m: &LinkMessage,
    drafts: &[Draft],
    titles: &[Option<String>],
    first_report: &[Option<i64>],
) -> Vec<(usize, Role, String)> {
    let mut out = Vec::new();
    let Some(p) = m.extraction.patch.as_ref().filter(|_| patch::is_posting(m)) else {
        return out;
    };
    for (r, d) in drafts.iter().enumerate() {
        let by_sha = p.reverts.as_deref().is_some_and(|s| d.names(s));
        let by_title = p.reverts.is_none()
            && p.reverts_title.is_some()
            && p.reverts_title == titles[r]
            && matches!((m.date, first_report[r]), (Some(a), Some(b)) if a > b);
        if by_sha {
            out.push((r, Role::Revert, "reverts the culprit's commit".into()));
        } else if by_title {
            out.push((
                r,
                Role::Revert,
                format!(
                    "reverts \"{}\" after the report",
                    p.reverts_title.as_deref().unwrap_or("")
                ),
            ));
        }
    }
    out
}

/// Takes the patch identities, each draft's culprit title key (`titles`)
/// and the marks; weighs the patches of the threads each history holds as
/// fixes ([`super::candidates`]), keeps them on the draft and attaches the
/// firm ones as patches, and the postings a mark names as the fix
/// (`regtrack mark X --fix <Message-ID>`). Gives the postings so attached (draft, message),
/// whose other postings and replies are attached later.
fn weigh_candidates(
    ix: &Index<'_>,
    patches: &Patches,
    titles: &[Option<String>],
    marks: &[Mark],
    drafts: &mut [Draft],
) -> Vec<(usize, usize)> {
    let mut roots = Vec::new();
    let pool = super::candidates::Pool::new(ix.msgs, ix.parent, &ix.by_id);
    for (r, d) in drafts.iter_mut().enumerate() {
        // A history whose report is on another list starts with the first
        // of its messages here.
        let first_report = d
            .first_report(ix.msgs)
            .or_else(|| d.members.iter().filter_map(|m| ix.msgs[m.idx].date).min());
        let h = super::candidates::History {
            ids: d.culprit_names(),
            title: titles[r].as_deref(),
            first_report,
            members: d.members.iter().map(|m| (m.idx, m.role)).collect(),
        };
        let mut found =
            super::candidates::weigh(ix.msgs, ix.parent, &ix.children, patches, &pool, &h);
        let named = super::marks::marked_patches(&super::rules::marks_of(d, marks), marks);
        for id in named {
            let Some(&j) = ix.by_id.get(id.as_str()) else {
                continue;
            };
            match found.iter_mut().find(|c| c.idx == j) {
                Some(c) => c.mark(),
                None => {
                    let mut c = super::candidates::Candidate {
                        idx: j,
                        score: 0,
                        reasons: Vec::new(),
                        asks: true,
                        new_version: false,
                    };
                    c.mark();
                    found.insert(0, c);
                }
            }
        }
        for c in found.iter().filter(|c| c.links()) {
            let reason = format!("fix candidate ({}): {}", c.score, c.reasons.join("; "));
            if d.add(c.idx, Role::Patch, reason) {
                roots.push((r, c.idx));
            }
        }
        d.candidates = found;
    }
    roots
}

/// Most histories that may each link a patch by postings of their own
/// and still share it whole: one fix of a few regressions is shown whole
/// in each (`attach_postings`, `attach_landings`). Beyond this the patch is
/// one only by its title (one title posted as the fix of a flood of
/// reports), and is split ([`split_flooded_patches`]).
const MAX_HISTORIES_SHARING_POSTINGS: usize = 8;

/// Splits each patch that more than [`MAX_HISTORIES_SHARING_POSTINGS`]
/// histories link by postings of their own, more than as many postings in
/// all (one posting closing many reports is one patch, kept whole): each
/// history's postings (with the landings and reviews below them) become a
/// patch of their own ([`Patches::split`]), so that a flood of reports and
/// fixes of one title stores what each history holds, not its square.
fn split_flooded_patches(ix: &Index<'_>, patches: &mut Patches, drafts: &[Draft]) {
    let mut linking: Vec<Vec<(usize, usize)>> = vec![Vec::new(); patches.identities.len()];
    for (r, d) in drafts.iter().enumerate() {
        for m in d
            .members
            .iter()
            .filter(|m| matches!(m.role, Role::Patch | Role::Revert))
        {
            if let Some(k) = patches.identity_of(m.idx) {
                linking[k].push((r, m.idx));
            }
        }
    }
    for (k, links) in linking.into_iter().enumerate() {
        // The links come in draft order: each history's postings together.
        let groups: Vec<Vec<usize>> = links
            .chunk_by(|a, b| a.0 == b.0)
            .map(|g| g.iter().map(|&(_, i)| i).collect())
            .collect();
        // One posting many histories link (a fix whose `Closes:` name
        // many reports) is one patch; only many postings, each linked by
        // its own history, are a flood.
        let mut postings: Vec<usize> = links.iter().map(|&(_, i)| i).collect();
        postings.sort_unstable();
        postings.dedup();
        if groups.len() > MAX_HISTORIES_SHARING_POSTINGS
            && postings.len() > MAX_HISTORIES_SHARING_POSTINGS
        {
            patches.split(k, &groups, ix.parent);
        }
    }
}

/// Takes the patch identities; attaches every posting of each linked patch
/// (earlier drafts, later versions, resends) with the role of the patch
/// that linked it, and records the draft's linked patches. When the linked
/// patch is the culprit's own (a later version answers the report: its
/// title is the culprit's, or a report replies to one of its postings),
/// the postings up to the first report are the culprit the robot tested,
/// not the fix, and stay out. Gives the postings so attached (draft,
/// message), whose replies are attached later.
fn attach_postings(
    ix: &Index<'_>,
    patches: &Patches,
    titles: &[Option<String>],
    at: &mut Attached,
) -> Vec<(usize, usize)> {
    let mut patch_roots = Vec::new();
    for (r, d) in at.drafts.iter_mut().enumerate() {
        let first = d.first_report(ix.msgs);
        let replied: Vec<usize> = d
            .reports()
            .filter_map(|i| ix.parent.get(i).copied().flatten())
            .collect();
        // Each patch once, with the role of its first linked posting: a
        // later one of the same patch would add nothing (the postings are
        // then attached or left out for reasons that do not depend on it).
        let mut seen: HashSet<usize> = HashSet::new();
        let linked_patches: Vec<(usize, Role)> = d
            .members
            .iter()
            .filter(|m| matches!(m.role, Role::Patch | Role::Revert))
            .filter_map(|m| Some((patches.identity_of(m.idx)?, m.role)))
            .filter(|(k, _)| seen.insert(*k))
            .collect();
        for (k, role) in linked_patches {
            if !d.patches.contains(&k) {
                d.patches.push(k);
            }
            let id = &patches.identities[k];
            let culprits = titles[r].as_deref().is_some_and(|t| t == id.title_key)
                || id.postings.iter().any(|p| replied.contains(p));
            for &p in &id.postings {
                if at.reg_of_report.contains_key(&p) {
                    continue;
                }
                let tested = matches!((ix.msgs[p].date, first), (Some(t), Some(f)) if t <= f);
                if culprits && tested {
                    continue;
                }
                let reason = match id.title.as_str() {
                    "" => "another posting of a linked diff (same patch id)".to_string(),
                    t => format!("a posting of the linked patch \"{t}\""),
                };
                if d.add(p, role, reason) {
                    patch_roots.push((r, p));
                }
            }
        }
    }
    patch_roots
}

/// Takes the linked patches and postings (`patch_roots`: draft, message);
/// attaches every reply below each (`patch-reply`, or `patch` for a
/// posting), reports aside.
fn attach_patch_replies(ix: &Index<'_>, patch_roots: Vec<(usize, usize)>, at: &mut Attached) {
    let msgs = ix.msgs;
    for (r, p) in patch_roots {
        let mut queue: VecDeque<usize> = ix.children[p].iter().copied().collect();
        let mut seen: HashSet<usize> = HashSet::new();
        while let Some(c) = queue.pop_front() {
            if !seen.insert(c) || at.reg_of_report.contains_key(&c) {
                continue;
            }
            let role = if kind_of(&msgs[c]) == Kind::Patch {
                Role::Patch
            } else {
                Role::PatchReply
            };
            at.drafts[r].add(c, role, format!("reply to patch {}", msgs[p].message_id));
            queue.extend(ix.children[c].iter().copied());
        }
    }
}

/// Takes the patch identities; attaches the messages that say where each
/// linked patch landed (`landing`: an `Applied`, a pull request, an
/// announcement, a merge note).
fn attach_landings(msgs: &[LinkMessage], patches: &Patches, drafts: &mut [Draft]) {
    for d in drafts.iter_mut() {
        for &k in &d.patches.clone() {
            for at in &patches.landings[k] {
                let what = at.of(msgs).map_or(LandingKind::Applied, |(_, l)| l.kind);
                let title = &patches.identities[k].title;
                d.add(
                    at.msg,
                    Role::Landing,
                    format!("{} of the linked patch \"{title}\"", what.as_str()),
                );
            }
        }
    }
}

/// Takes the patch identities and the culprits' title keys (`titles`, by
/// draft); sets each draft's culprit posting (the posting a report on a
/// patch replies to, else a patch titled like the culprit; never a linked
/// patch) and attaches the messages that dropped it.
fn find_culprit_patches(
    msgs: &[LinkMessage],
    parent: &[Option<usize>],
    patches: &Patches,
    titles: &[Option<String>],
    drafts: &mut [Draft],
) {
    for (r, d) in drafts.iter_mut().enumerate() {
        let parent_posting = d.reports().find_map(|rep| {
            let p = parent.get(rep).copied().flatten()?;
            patches.identity_of(p)
        });
        // Any posting's title: a version joined by a citation may carry
        // another title than the latest.
        let titled = titles[r]
            .as_deref()
            .and_then(|t| patches.by_title.get(t)?.first().copied());
        d.culprit_patch = parent_posting.or(titled).filter(|k| !d.patches.contains(k));
        // A message dropping the culprit's patch decides the history: it is
        // one of its messages.
        if let Some(k) = d.culprit_patch {
            for at in &patches.landings[k] {
                let dropped = at
                    .of(msgs)
                    .is_some_and(|(_, l)| l.kind == LandingKind::Dropped);
                if dropped {
                    let title = &patches.identities[k].title;
                    d.add(
                        at.msg,
                        Role::Landing,
                        format!("dropped the culprit's patch \"{title}\""),
                    );
                }
            }
        }
    }
}

/// Takes the patch identities; attaches to each draft the replies in the
/// thread of its culprit's tested posting (below it or below its series'
/// cover letter), after the first report, in which a person says plainly
/// that the series is set aside, that the robot tested a version since
/// replaced, or that the patch will be dropped: a drop said where the
/// patch was posted decides the history as one said under the report.
fn attach_culprit_thread_drops(ix: &Index<'_>, patches: &Patches, drafts: &mut [Draft]) {
    use crate::model::SignalKind;
    let drop_signal = |m: &LinkMessage| {
        m.signals().iter().any(|s| {
            s.quote_depth == 0
                && !s.tentative
                && matches!(
                    s.kind,
                    SignalKind::SetsAside | SignalKind::Superseded | SignalKind::WillRevert
                )
        })
    };
    for d in drafts.iter_mut() {
        let Some(k) = d.culprit_patch else { continue };
        let Some(first) = d.first_report(ix.msgs) else {
            continue;
        };
        let mut queue: VecDeque<usize> = VecDeque::new();
        for &p in &patches.identities[k].postings {
            if ix.msgs[p].date.is_none_or(|t| t <= first) {
                queue.push_back(p);
                if let Some(c) = ix.parent.get(p).copied().flatten()
                    && patch::is_cover(&ix.msgs[c])
                {
                    queue.push_back(c);
                }
            }
        }
        let mut seen: HashSet<usize> = HashSet::new();
        while let Some(i) = queue.pop_front() {
            if !seen.insert(i) {
                continue;
            }
            queue.extend(ix.children[i].iter().copied());
            let m = &ix.msgs[i];
            let after = m.date.is_some_and(|t| t > first);
            if after && !is_robot_team(m) && !is_report(m) && drop_signal(m) {
                d.add(
                    i,
                    Role::Reply,
                    "decides in the thread of the culprit's patch".into(),
                );
            }
        }
    }
}

/// Most edits within the one word two titles of one change may differ in
/// (a typo fixed on the way into a tree), and the shortest such word: a
/// title that differs in a short word (`v1`/`v2`, `a`/`b`, `lock`/`locks`)
/// may well be another change.
const TITLE_EDITS: usize = 2;

/// True when two title keys are the same words but one, and that word is a
/// typo of the other ([`TITLE_EDITS`], words of [`TYPO_WORD_MIN`] letters
/// or more): `cgroup/rstat: rearrage cgroup_rstat_cpu` is `... rearrange
/// cgroup_rstat_cpu`.
pub(crate) fn near_title(a: &str, b: &str) -> bool {
    let (wa, wb): (Vec<&str>, Vec<&str>) = (
        a.split_whitespace().collect(),
        b.split_whitespace().collect(),
    );
    if wa.len() != wb.len() || wa.len() < 3 {
        return false;
    }
    let mut differ = wa.iter().zip(&wb).filter(|(x, y)| x != y);
    let (Some((x, y)), None) = (differ.next(), differ.next()) else {
        return false;
    };
    x.chars().count() >= TYPO_WORD_MIN
        && y.chars().count() >= TYPO_WORD_MIN
        && strsim::levenshtein(x, y) <= TITLE_EDITS
}

/// Takes the patch identities; records in each draft the later robot
/// performance reports of other culprits on a commit titled like one of its
/// linked patches, or on a commit id a landing gave one: the robot tested a
/// tree that contains the fix.
fn find_fix_in_tree(msgs: &[LinkMessage], patches: &Patches, at: &mut Attached) {
    let mut report_by_title: HashMap<String, Vec<usize>> = HashMap::new();
    for (&i, _) in at.reg_of_report.iter() {
        if let Some(t) = msgs[i]
            .extraction
            .report
            .as_ref()
            .and_then(|r| r.commit_title.as_deref())
        {
            let t = title_key(t);
            if !t.is_empty() {
                report_by_title.entry(t).or_default().push(i);
            }
        }
    }
    // The titles one typo apart from a title share one of its keys with
    // one long word masked; `near_title` then decides.
    let mut titles_by_masked: HashMap<String, Vec<&str>> = HashMap::new();
    for t in report_by_title.keys() {
        for m in masked_titles(t) {
            titles_by_masked.entry(m).or_default().push(t.as_str());
        }
    }
    // The reports by each id they give.
    let reports_by_id = IdIndex::new(
        at.reg_of_report
            .keys()
            .flat_map(|&rep| report_ids(&msgs[rep]).into_iter().map(move |id| (id, rep))),
    );
    for (r, d) in at.drafts.iter_mut().enumerate() {
        for &k in &d.patches {
            let id = &patches.identities[k];
            let Some(&first) = id.postings.first() else {
                continue;
            };
            let commits: Vec<&str> = patches.landings[k]
                .iter()
                .filter_map(|at| at.of(msgs)?.1.commit.as_deref())
                .filter(|c| is_hex_id(c))
                .collect();
            let exact = report_by_title.get(&id.title_key).map(|v| v.as_slice());
            // A title fixed in a typo on its way into the tree (`rearrage`
            // -> `rearrange`) is still the same change.
            let near: Vec<usize> = if exact.is_none() {
                let mut near_titles: Vec<&str> = masked_titles(&id.title_key)
                    .iter()
                    .filter_map(|m| titles_by_masked.get(m))
                    .flatten()
                    .copied()
                    .filter(|t| near_title(t, &id.title_key))
                    .collect();
                near_titles.sort_unstable();
                near_titles.dedup();
                near_titles
                    .iter()
                    .filter_map(|t| report_by_title.get(*t))
                    .flatten()
                    .copied()
                    .collect()
            } else {
                Vec::new()
            };
            let by_title = exact.unwrap_or(&near);
            // The reports giving an id of a commit the patch landed as.
            let mut by_commit: Vec<usize> = commits
                .iter()
                .flat_map(|c| reports_by_id.matching(c))
                .collect();
            by_commit.sort_unstable();
            by_commit.dedup();
            let found: Vec<usize> = by_title.iter().copied().chain(by_commit).collect();
            for rep in found {
                let later = match (msgs[rep].date, msgs[first].date) {
                    (Some(a), Some(b)) => a > b,
                    _ => false,
                };
                if later
                    && at.reg_of_report.get(&rep) != Some(&r)
                    && kind_of(&msgs[rep]) == Kind::PerfReport
                    && !d.fix_in_tree.contains(&(rep, first))
                {
                    d.fix_in_tree.push((rep, first));
                }
            }
        }
    }
}

#[cfg(test)]
mod near_title_tests {
    use super::near_title;

    #[test]
    fn a_typo_in_one_long_word_is_the_same_title_and_nothing_else_is() {
        assert!(near_title(
            "cgroup/rstat: rearrage cgroup_rstat_cpu",
            "cgroup/rstat: rearrange cgroup_rstat_cpu"
        ));
        assert!(!near_title(
            "ext4: remove unused variable a",
            "ext4: remove unused variable b"
        ));
        assert!(!near_title(
            "mm: take the lock here",
            "mm: take the locks here"
        ));
        assert!(!near_title(
            "xfs: convert to folios",
            "xfs: convert to pages"
        ));
        assert!(!near_title("sched: fix placement", "sched: fix migration"));
        assert!(!near_title("a b", "a c"));
        assert!(!near_title(
            "nfsd: rearrage the cache code",
            "nfsd: rearrange the cache"
        ));
    }
}
