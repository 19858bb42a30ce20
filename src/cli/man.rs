//! `regtrack man [--out-dir DIR]`: the manual pages, in roff, rendered by
//! `clap_mangen` from the clap definition of the command line
//! ([`super::command`]).
//!
//! Each page is put together from clap_mangen's sections (NAME, SYNOPSIS,
//! DESCRIPTION, the options, VERSION) with what regtrack adds: EXIT STATUS,
//! EXAMPLES (the examples of the commands' `--help`, in place of the
//! crate's EXTRA section), and on the main page ENVIRONMENT and FILES.
//! `regtrack man` writes one page, `regtrack(1)`, that also describes every
//! subcommand with its own options (the global ones are said once), one
//! `.SS` each, made of the same sections of the subcommand; `--out-dir`
//! writes it and one page per subcommand (`regtrack-show.1`,
//! `regtrack-trees-add.1`), as `clap_mangen::generate_to` names them.
//! Hidden subcommands, options and values are left out.
//!
//! Why the added parts are written here: clap_mangen 0.3's `Man::render`
//! makes one command's page of NAME, SYNOPSIS, DESCRIPTION, OPTIONS,
//! SUBCOMMANDS (each subcommand's name and one line, not its options),
//! EXTRA (the `after_help` text as it is), VERSION and AUTHORS. It has no
//! section for exit statuses, the environment or files, and no page that
//! holds every subcommand's options, which is what `man regtrack` shows
//! when only one page is installed. So this module calls its `render_*`
//! sections one by one and writes those few sections itself with
//! `clap_mangen::roff`; the options, synopses and descriptions are all the
//! crate's.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Command;
use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, roman};

/// Arguments of `regtrack man`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write regtrack.1 and one page per subcommand (regtrack-show.1, ...)
    /// into this folder (created if needed) instead of regtrack.1 to
    /// standard output.
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub out_dir: Option<PathBuf>,
}

/// Runs `regtrack man`.
pub fn run(quiet: bool, args: Args) -> anyhow::Result<ExitCode> {
    let cmd = super::command();
    match args.out_dir {
        None => {
            let mut out = super::stdout();
            out.write_all(page(&cmd).as_bytes())?;
            out.flush()?;
        }
        Some(dir) => {
            if std::fs::metadata(&dir).is_ok_and(|m| !m.is_dir()) {
                anyhow::bail!(
                    "--out-dir '{}' is a file: name the folder the pages go into",
                    dir.display()
                );
            }
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("creating '{}'", dir.display()))?;
            let pages = pages(&cmd);
            for (file, text) in &pages {
                let path = dir.join(file);
                std::fs::write(&path, text)
                    .with_context(|| format!("writing '{}'", path.display()))?;
            }
            if !quiet {
                eprintln!(
                    "regtrack: wrote {} manual pages into {}",
                    pages.len(),
                    dir.display()
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What each exit status means, for every command.
const EXIT_STATUS: &[(&str, &str)] = &[
    ("0", "The command answered."),
    (
        "1",
        "Nothing matched or nothing could be read: list or show with no match, mail of an unknown Message-ID, mark of a missing regression, report with nothing to report, failures when nothing failed, ingest of a file that is not mail or of a folder without any.",
    ),
    (
        "2",
        "A usage error or a database error (a database that does not exist: the reading commands say so and create nothing).",
    ),
];

/// The environment regtrack reads.
const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "REGTRACK_DB",
        "The database file, when --db is not given (default ./regtrack.db). Set but empty, it is read as unset.",
    ),
    (
        "REGTRACK_CONFIG",
        "The configuration file, when --config is not given.",
    ),
    (
        "REGTRACK_LORE_BASE",
        "The public-inbox server for message links and for fetch and follow, when --lore-base is not given. Set but empty, it is read as unset.",
    ),
    (
        "REGTRACK_USER",
        "Who a mark is recorded for, when mark --author is not given (then git's user.name, then USER).",
    ),
    (
        "XDG_CONFIG_HOME",
        "Where the configuration file is looked for (default ~/.config).",
    ),
    (
        "XDG_CACHE_HOME",
        "Where fetch and follow cache the server's answers (default ~/.cache).",
    ),
    (
        "NO_COLOR",
        "When set, no colours with --color auto (the default).",
    ),
    (
        "TERM",
        "show --hyperlinks auto writes no OSC 8 hyperlinks when it is dumb.",
    ),
];

/// The files regtrack reads and writes.
const FILES: &[(&str, &str)] = &[
    (
        "./regtrack.db",
        "The database (SQLite), with its -wal and -shm files beside it while it is open.",
    ),
    (
        "$XDG_CONFIG_HOME/regtrack/config.toml",
        "The configuration file: lore_base, report_from, [commit_links].",
    ),
    (
        "$XDG_CACHE_HOME/regtrack/",
        "The cache of the public-inbox server's answers.",
    ),
];

/// One of clap_mangen's sections as roff text, without the preamble each
/// rendering starts with (the page has it once) and, with `heading` false,
/// without its `.SH` lines (a subcommand's part of the main page).
fn section(render: impl FnOnce(&mut dyn Write) -> std::io::Result<()>, heading: bool) -> String {
    let mut buf = Vec::new();
    // Writing into a Vec does not fail.
    let _ = render(&mut buf);
    String::from_utf8_lossy(&buf)
        .lines()
        .filter(|l| !l.starts_with(".ie \\n(.g .ds Aq") && !l.starts_with(".el .ds Aq"))
        .filter(|l| heading || !l.starts_with(".SH "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Roff of regtrack's own: a `.SH` section of `.TP` entries.
fn table(title: &str, rows: &[(&str, &str)], bold_keys: bool) -> String {
    let mut r = Roff::new();
    r.control("SH", [title]);
    for (k, v) in rows {
        r.control("TP", []);
        r.text([if bold_keys { bold(*k) } else { roman(*k) }]);
        r.text([roman(*v)]);
    }
    body(&r)
}

/// `r` as roff text without the preamble.
fn body(r: &Roff) -> String {
    section(|w| r.to_writer(w), true)
}

/// The examples of a command's `--help` (its lines that start with the
/// command's name), and the notes between them as comments.
fn examples(cmd: &Command, top: &str) -> Vec<String> {
    let text = cmd
        .get_after_help()
        .map(|h| h.to_string())
        .unwrap_or_default();
    text.lines()
        .skip_while(|l| !l.starts_with("Example"))
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            if l.starts_with(&format!("{top} ")) {
                l.to_string()
            } else {
                format!("# {}", l.trim_start_matches('(').trim_end_matches(')'))
            }
        })
        .collect()
}

/// An EXAMPLES section, empty without examples.
fn examples_section(ex: &[String]) -> String {
    if ex.is_empty() {
        return String::new();
    }
    let mut r = Roff::new();
    r.control("SH", ["EXAMPLES"]).control("nf", []);
    for e in ex {
        r.text([roman(e.as_str())]);
    }
    r.control("fi", []);
    body(&r)
}

/// The visible subcommands of `cmd` but clap's `help`.
fn subcommands(cmd: &Command) -> impl Iterator<Item = &Command> {
    cmd.get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
}

/// The page's header: clap_mangen's title, then no hyphenation (a status
/// name split as `fix-pro-posed` reads wrong) and a ragged right margin.
fn header(man: &Man) -> String {
    let mut out = section(|w| man.render_title(w), true);
    out.insert_str(0, ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n");
    out.push_str(".nh\n.ad l\n");
    out
}

/// A subcommand's part of the main page: `.SS "regtrack trees add"`, its
/// synopsis, description and own options (not the global ones, nor
/// `--help`), then its own subcommands.
fn sub_section(out: &mut String, cmd: &Command) {
    let path = cmd.get_bin_name().unwrap_or(cmd.get_name()).to_string();
    let own = cmd
        .clone()
        .mut_args(|a| {
            if a.is_global_set() || a.get_id() == "help" {
                a.hide(true)
            } else {
                a
            }
        })
        .disable_help_subcommand(true);
    let man = Man::new(own);
    let mut r = Roff::new();
    r.control("SS", [path.as_str()]);
    out.push_str(&body(&r));
    out.push_str(&section(|w| man.render_synopsis_section(w), false));
    out.push_str(".br\n");
    out.push_str(&section(|w| man.render_description_section(w), false));
    let options = section(|w| man.render_options_section(w), false);
    if !options.trim().is_empty() {
        out.push_str(".RS\n");
        out.push_str(&options);
        out.push_str(".RE\n");
    }
    for sub in subcommands(cmd) {
        sub_section(out, sub);
    }
}

/// Every example of `cmd` and its subcommands, in order.
fn all_examples(cmd: &Command, top: &str, out: &mut Vec<String>) {
    out.extend(examples(cmd, top));
    for sub in subcommands(cmd) {
        all_examples(sub, top, out);
    }
}

/// The main page, `regtrack(1)`: the global options, then every
/// subcommand with its own options.
pub fn page(cmd: &Command) -> String {
    let mut cmd = cmd.clone();
    cmd.build();
    let name = cmd.get_name().to_string();
    let man = Man::new(cmd.clone());
    let mut out = header(&man);
    out.push_str(&section(|w| man.render_name_section(w), true));
    out.push_str(&section(|w| man.render_synopsis_section(w), true));
    out.push_str(&section(|w| man.render_description_section(w), true));
    out.push_str(&body(Roff::new().control("PP", []).text([roman(
        "Each command's own options are listed under SUBCOMMANDS; the options below are taken by every command.",
    )])));
    out.push_str(&section(|w| man.render_options_section(w), true));
    out.push_str(".SH SUBCOMMANDS\n");
    for sub in subcommands(&cmd) {
        sub_section(&mut out, sub);
    }
    out.push_str(&table("EXIT STATUS", EXIT_STATUS, false));
    out.push_str(&body(Roff::new().control("PP", []).text([roman(
        "Output into a pipe closed early ends the command quietly with status 0.",
    )])));
    let mut ex = Vec::new();
    all_examples(&cmd, &name, &mut ex);
    out.push_str(&examples_section(&ex));
    out.push_str(&table("ENVIRONMENT", ENVIRONMENT, true));
    out.push_str(&table("FILES", FILES, false));
    out.push_str(&see_also(&cmd));
    out.push_str(&section(|w| man.render_version_section(w), true));
    out
}

/// SEE ALSO: the pages of `cmd`'s subcommands, or its parent's page.
fn see_also(cmd: &Command) -> String {
    let mut r = Roff::new();
    r.control("SH", ["SEE ALSO"]);
    let subs: Vec<String> = subcommands(cmd)
        .map(|s| format!("{}(1)", s.get_display_name().unwrap_or(s.get_name())))
        .collect();
    let parent = cmd
        .get_display_name()
        .and_then(|d| d.rsplit_once('-'))
        .map(|(p, _)| format!("{p}(1)"));
    let refs: Vec<String> = parent.into_iter().chain(subs).collect();
    r.text([roman(refs.join(", "))]);
    body(&r)
}

/// One subcommand's own page (`regtrack-show.1`): clap_mangen's sections,
/// its global options apart, with EXIT STATUS, EXAMPLES and the program's
/// VERSION section.
fn sub_page(top: &Command, version: &str, cmd: &Command) -> String {
    let man = Man::new(cmd.clone().disable_help_subcommand(true)).source(format!(
        "{} {}",
        top.get_name(),
        top.get_version().unwrap_or_default()
    ));
    let mut out = header(&man);
    out.push_str(&section(|w| man.render_name_section(w), true));
    out.push_str(&section(|w| man.render_synopsis_section(w), true));
    out.push_str(&section(|w| man.render_description_section(w), true));
    out.push_str(&section(|w| man.render_options_section(w), true));
    if subcommands(cmd).next().is_some() {
        out.push_str(&section(|w| man.render_subcommands_section(w), true));
    }
    out.push_str(&table("EXIT STATUS", EXIT_STATUS, false));
    out.push_str(&examples_section(&examples(cmd, top.get_name())));
    out.push_str(&see_also(cmd));
    out.push_str(version);
    out
}

/// Every page: `regtrack.1`, then one per subcommand, nested ones too
/// (`regtrack-trees-add.1`), as (file name, text).
pub fn pages(cmd: &Command) -> Vec<(String, String)> {
    let mut built = cmd.clone();
    built.build();
    let version = section(|w| Man::new(built.clone()).render_version_section(w), true);
    let mut out = vec![(format!("{}.1", built.get_name()), page(&built))];
    fn walk(top: &Command, version: &str, cmd: &Command, out: &mut Vec<(String, String)>) {
        for sub in subcommands(cmd) {
            let file = format!("{}.1", sub.get_display_name().unwrap_or(sub.get_name()));
            out.push((file, sub_page(top, version, sub)));
            walk(top, version, sub, out);
        }
    }
    walk(&built, &version, &built, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built() -> Command {
        let mut c = crate::cli::command();
        c.build();
        c
    }

    #[test]
    fn the_page_names_every_subcommand_and_every_long_option() {
        fn walk(c: &Command, p: &str) {
            for sub in subcommands(c) {
                let path = sub.get_bin_name().unwrap();
                assert!(p.contains(&format!(".SS \"{path}\"\n")), "{path}");
                walk(sub, p);
            }
            for a in c.get_arguments().filter(|a| !a.is_hide_set()) {
                if let Some(l) = a.get_long() {
                    let l = l.replace('-', "\\-");
                    assert!(p.contains(&format!("\\fB\\-\\-{l}\\fR")), "--{l}");
                }
            }
        }
        let c = built();
        let p = page(&c);
        walk(&c, &p);
        for s in [
            ".SH NAME",
            ".SH SYNOPSIS",
            ".SH DESCRIPTION",
            ".SH OPTIONS",
            ".SH SUBCOMMANDS",
            ".SH \"EXIT STATUS\"",
            ".SH EXAMPLES",
            ".SH ENVIRONMENT",
            ".SH FILES",
        ] {
            assert!(p.contains(&format!("{s}\n")), "{s}");
        }
        assert!(p.contains("regtrack show xfs"), "an example of show's help");
        assert_eq!(p.matches(".ie \\n(.g").count(), 1, "one preamble");
        // A subcommand's part holds its own options, not the global ones.
        let list = p.split(".SS \"regtrack list\"").nth(1).unwrap();
        let list = list.split(".SS ").next().unwrap();
        assert!(list.contains("\\-\\-status") && !list.contains("\\-\\-lore\\-base"));
    }

    #[test]
    fn every_environment_variable_an_option_reads_is_described() {
        fn walk(c: &Command) {
            for a in c.get_arguments() {
                if let Some(e) = a.get_env() {
                    let e = e.to_string_lossy();
                    assert!(ENVIRONMENT.iter().any(|(k, _)| *k == e), "{e}");
                }
            }
            c.get_subcommands().for_each(walk);
        }
        walk(&built());
    }

    #[test]
    fn out_dir_pages_are_one_per_subcommand() {
        let names: Vec<String> = pages(&crate::cli::command())
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        for n in [
            "regtrack.1",
            "regtrack-show.1",
            "regtrack-trees-add.1",
            "regtrack-man.1",
        ] {
            assert!(names.contains(&n.to_string()), "{n}: {names:?}");
        }
        assert!(!names.iter().any(|n| n.contains("help")), "{names:?}");
    }
}
