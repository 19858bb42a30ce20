//! Lore URLs to Message-IDs (grammar: `grammar/evidence-lore.md`): the ids of
//! `https://lore.kernel.org/<list>/<id>[/...]`, `/r/<id>`, `/all/<id>/`,
//! `/<list>/<id>/T/#u` links cited in the author's own unquoted text (trailers
//! and `[1] https://...` footnotes included), percent-encoded ids decoded.

use std::sync::LazyLock;

use regex::Regex;

use super::BodyView;
use crate::mail::msgid::percent_decode;
use crate::text::Needles;

/// A lore URL up to the end of its path.
/// Also the Message-ID redirectors that lead to lore: `lkml.kernel.org/r/<id>`
/// (akpm's `Link:` lines) and `patch.msgid.link/<id>` (b4's `Link:` lines).
static RE_LORE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"https?://(?:lore\.kernel\.org|lkml\.kernel\.org|patch\.msgid\.link)/([^\s<>"'()\[\]]+)"#,
    )
    .expect("valid regex")
});

/// The hosts `RE_LORE` accepts, searched for in a whole body first.
static HOSTS: LazyLock<Needles> =
    LazyLock::new(|| Needles::new(&["lore.kernel.org", "lkml.kernel.org", "patch.msgid.link"]));

/// ```text
/// lore_url := "http" "s"? "://lore.kernel.org/" (list "/")? id ("/" tail)?
/// list := "r" | "all" | name
/// ```
/// The Message-ID of one lore URL path (the part after the host), if it names one.
pub fn message_id(path: &str) -> Option<String> {
    let path = path.split(['#', '?']).next().unwrap_or(path);
    let path = path.trim_end_matches(['.', ',', ';', ':', '!']);
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let candidate = match segs.as_slice() {
        [] => return None,
        [only] => *only,
        [first, second, ..] => {
            let first_decoded = percent_decode(first);
            if first_decoded.contains('@') {
                first
            } else {
                second
            }
        }
    };
    let id = percent_decode(candidate);
    let id = id.trim_start_matches('<').trim_end_matches('>');
    (id.contains('@') && !id.starts_with('@') && !id.ends_with('@')).then(|| id.to_string())
}

/// Message-IDs of the lore links in the unquoted, non-diff lines of a body, in
/// order, without duplicates.
pub fn links_in(view: &BodyView<'_>, in_diff: &[bool]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // Every link holds a host: only the lines naming one are read (none in
    // most bodies).
    for i in HOSTS.lines_holding(view.body, &view.lines) {
        let Some(line) = view.lines.get(i) else {
            continue;
        };
        if line.depth != 0 || in_diff.get(i).copied().unwrap_or(false) {
            continue;
        }
        // In a collapsed body, skip URLs inside old quotes.
        let marks = view.collapsed.then(|| super::QuoteMarks::new(line.text));
        for c in RE_LORE.captures_iter(line.text) {
            let Some(path) = c.get(1) else { continue };
            if marks.as_ref().is_some_and(|m| m.depth_at(path.start()) > 0) {
                continue;
            }
            if let Some(id) = message_id(path.as_str()) {
                if !out.contains(&id) {
                    out.push(id);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_url_form_gives_its_id() {
        let cases = [
            (
                "oe-lkp/202401221624.cb53a8ca-oliver.sang@intel.com",
                "202401221624.cb53a8ca-oliver.sang@intel.com",
            ),
            (
                "r/167305163159.1521586.9460968250704377087.stgit@warthog.procyon.org.uk",
                "167305163159.1521586.9460968250704377087.stgit@warthog.procyon.org.uk",
            ),
            (
                "all/202403011511.24defbbd-oliver.sang@intel.com/",
                "202403011511.24defbbd-oliver.sang@intel.com",
            ),
            (
                "lkml/ZgsynV536q1L17IS@pavilion.home/T/#u",
                "ZgsynV536q1L17IS@pavilion.home",
            ),
            (
                "linux-xfs/20230509065433.GT3223426%40dread.disaster.area/",
                "20230509065433.GT3223426@dread.disaster.area",
            ),
            (
                "CAFd5g44-RMaH0kwb+=mW41HO_CgBZ3wK0vnr=Yvb_rE68JazWg@mail.gmail.com",
                "CAFd5g44-RMaH0kwb+=mW41HO_CgBZ3wK0vnr=Yvb_rE68JazWg@mail.gmail.com",
            ),
            (
                "all/20250512063319.3539411-9-yi.zhang@huaweicloud.com/raw",
                "20250512063319.3539411-9-yi.zhang@huaweicloud.com",
            ),
        ];
        for (path, id) in cases {
            assert_eq!(message_id(path).as_deref(), Some(id), "{path}");
        }
        assert_eq!(message_id("all/?q=foo"), None);
        assert_eq!(message_id("linux-nfs/"), None);
    }

    #[test]
    fn only_unquoted_links_count_and_footnotes_do() {
        let body = "> Closes: https://lore.kernel.org/oe-lkp/q@x\nLink: https://patch.msgid.link/c@z\n\
                    Closes: https://lore.kernel.org/oe-lkp/a@x\n\
                    [1] https://lore.kernel.org/linux-xfs/b@y/\nsee <https://lore.kernel.org/r/a@x>.\n";
        let l = links_in(&BodyView::new(body), &[]);
        assert_eq!(l, ["c@z", "a@x", "b@y"]);
    }

    #[test]
    fn percent_decode_keeps_bad_escapes() {
        assert_eq!(percent_decode("a%40b%2Bc%zz%4"), "a@b+c%zz%4");
    }
}
