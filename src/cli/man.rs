//! `regtrack man [--out-dir DIR]`: the manual page, in roff, generated from
//! the clap definitions of the command line.
//!
//! Hand-written rather than `clap_mangen`: the crate is not among the
//! dependencies the build can reach offline. The page follows
//! clap_mangen's shape (`.TH`, then NAME, SYNOPSIS, DESCRIPTION, OPTIONS
//! with one `.TP` per option, SUBCOMMANDS, VERSION) and adds what
//! regtrack's help says elsewhere: EXIT STATUS, EXAMPLES (the examples of
//! every command's `--help`), ENVIRONMENT and FILES. `regtrack man` writes
//! one page, `regtrack(1)`, that describes every subcommand with its own
//! options (the global ones are said once); `--out-dir` writes it and one
//! page per subcommand as well (`regtrack-show.1`, `regtrack-trees-add.1`).
//! Hidden subcommands, options and values are left out.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Arg, Command};

use super::complete::{about, options, positionals, subcommands, takes_value, values};

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
            let mut out = std::io::stdout().lock();
            out.write_all(page(&cmd).as_bytes())?;
            out.flush()?;
        }
        Some(dir) => {
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
pub(super) const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "REGTRACK_DB",
        "The database file, when --db is not given (default ./regtrack.db).",
    ),
    (
        "REGTRACK_CONFIG",
        "The configuration file, when --config is not given.",
    ),
    (
        "REGTRACK_LORE_BASE",
        "The public-inbox server for message links and for fetch and follow, when --lore-base is not given.",
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

/// Text escaped for roff: backslashes, hyphens (as `\-`, so that they copy
/// as the ASCII hyphen-minus), and a `.` or `'` that would start a request.
fn roff(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\e"),
            '-' => out.push_str("\\-"),
            c if c.is_control() && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out.lines()
        .map(|l| {
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A NAME line's description: lower case first, as manual pages have it
/// (`turns Linux ...`), unless it starts with an acronym; no final stop.
fn name_line(about: &str) -> String {
    let about = about.trim().trim_end_matches('.');
    let mut chars = about.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && !second.is_uppercase() => first
            .to_lowercase()
            .chain(about[first.len_utf8()..].chars())
            .collect(),
        _ => about.to_string(),
    }
}

/// Paragraphs of help text: blank lines become `.PP`.
fn paragraphs(s: &str) -> String {
    s.trim()
        .split("\n\n")
        .map(|p| roff(p.trim()))
        .collect::<Vec<_>>()
        .join("\n.PP\n")
}

/// The whole help of an argument (long help when it has one).
fn arg_help(a: &Arg) -> String {
    a.get_long_help()
        .or(a.get_help())
        .map(|h| h.to_string())
        .unwrap_or_default()
}

/// `.TP` entries for `args`: names and value, help, default, env, values.
fn option_list(out: &mut String, args: &[&Arg]) {
    for a in args {
        let mut names = Vec::new();
        if let Some(s) = a.get_short() {
            names.push(format!("\\fB\\-{}\\fR", roff(&s.to_string())));
        }
        if let Some(l) = a.get_long() {
            names.push(format!("\\fB\\-\\-{}\\fR", roff(l)));
        }
        let mut head = if a.is_positional() {
            format!("\\fI{}\\fR", roff(&value_names(a)))
        } else {
            names.join(", ")
        };
        if !a.is_positional() && takes_value(a) {
            head.push_str(&format!(" \\fI{}\\fR", roff(&value_names(a))));
        }
        out.push_str(&format!(".TP\n{head}\n"));
        let help = arg_help(a);
        if !help.is_empty() {
            out.push_str(&paragraphs(&help));
            out.push('\n');
        }
        let mut notes = Vec::new();
        let defaults: Vec<String> = a
            .get_default_values()
            .iter()
            .map(|d| d.to_string_lossy().into_owned())
            .collect();
        if !defaults.is_empty() && takes_value(a) {
            notes.push(format!("[default: {}]", defaults.join(", ")));
        }
        if let Some(e) = a.get_env() {
            notes.push(format!("[env: {}]", e.to_string_lossy()));
        }
        if !a.is_hide_possible_values_set() {
            let vals: Vec<String> = values(a).iter().map(|v| v.get_name().to_string()).collect();
            if !vals.is_empty() {
                notes.push(format!("[possible values: {}]", vals.join(", ")));
            }
        }
        if !notes.is_empty() {
            out.push_str(&format!(".br\n{}\n", roff(&notes.join(" "))));
        }
    }
}

/// `<DB>`, `<PATH>...`.
fn value_names(a: &Arg) -> String {
    let name = a
        .get_value_names()
        .and_then(|v| v.first().map(|n| n.to_string()))
        .unwrap_or_else(|| a.get_id().as_str().to_uppercase());
    let many = a.get_num_args().is_some_and(|n| n.max_values() > 1)
        || matches!(a.get_action(), clap::ArgAction::Append) && a.is_positional();
    format!("<{name}>{}", if many { "..." } else { "" })
}

/// `regtrack show [OPTIONS] <QUERY>` as clap says it.
fn usage(cmd: &Command) -> String {
    let mut c = cmd.clone();
    let u = c.render_usage().to_string();
    u.trim()
        .strip_prefix("Usage:")
        .unwrap_or(u.trim())
        .trim()
        .to_string()
}

/// The examples of a command's `--help` (its lines that start with the
/// command's name), and the notes between them.
fn examples(cmd: &Command, top: &str) -> Vec<String> {
    let text = cmd
        .get_after_help()
        .map(|h| h.to_string())
        .unwrap_or_default();
    text.lines()
        .skip_while(|l| !l.starts_with("Example"))
        .skip(1)
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .map(|l| {
            if l.starts_with(&format!("{top} ")) {
                l
            } else {
                format!("# {}", l.trim_start_matches('(').trim_end_matches(')'))
            }
        })
        .collect()
}

/// The options of `cmd` that are its own (not global, not help/version).
fn own_options(cmd: &Command) -> Vec<&Arg> {
    options(cmd)
        .filter(|a| !a.is_global_set() && !matches!(a.get_id().as_str(), "help" | "version"))
        .collect()
}

/// The subcommands worth a section (clap's `help` subcommand is not).
fn real_subcommands(cmd: &Command) -> Vec<&Command> {
    subcommands(cmd)
        .filter(|s| s.get_name() != "help")
        .collect()
}

/// The header of a page.
fn header(out: &mut String, title: &str, version: &str) {
    out.push_str(".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n");
    out.push_str(&format!(
        ".TH {} 1 \"\" \"{}\" \"User Commands\"\n",
        roff(title),
        roff(version)
    ));
    // No hyphenation (a status name split as `fix-pro-posed` reads
    // wrong), ragged right.
    out.push_str(
        ".nh
.ad l
",
    );
}

/// One subcommand's section on the main page: synopsis, description, own
/// options, and its own subcommands, as `.SS`.
fn sub_section(out: &mut String, path: &str, cmd: &Command) {
    out.push_str(&format!(".SS \"{}\"\n", roff(path)));
    out.push_str(&format!("\\fB{}\\fR\n.br\n", roff(&usage(cmd))));
    out.push_str(&paragraphs(&long_about(cmd)));
    out.push('\n');
    let mut args: Vec<&Arg> = positionals(cmd).collect();
    args.extend(own_options(cmd));
    if !args.is_empty() {
        out.push_str(".RS\n");
        option_list(out, &args);
        out.push_str(".RE\n");
    }
    for sub in real_subcommands(cmd) {
        sub_section(out, &format!("{path} {}", sub.get_name()), sub);
    }
}

fn long_about(cmd: &Command) -> String {
    cmd.get_long_about()
        .or(cmd.get_about())
        .map(|h| h.to_string())
        .unwrap_or_default()
}

/// Every example of `cmd` and its subcommands, in order.
fn all_examples(cmd: &Command, top: &str, out: &mut Vec<String>) {
    out.extend(examples(cmd, top));
    for sub in real_subcommands(cmd) {
        all_examples(sub, top, out);
    }
}

fn examples_section(out: &mut String, ex: &[String]) {
    if ex.is_empty() {
        return;
    }
    out.push_str(".SH EXAMPLES\n.nf\n");
    for e in ex {
        out.push_str(&roff(e));
        out.push('\n');
    }
    out.push_str(".fi\n");
}

fn table(out: &mut String, title: &str, rows: &[(&str, &str)], bold: bool) {
    out.push_str(&format!(".SH {title}\n"));
    for (k, v) in rows {
        let k = if bold {
            format!("\\fB{}\\fR", roff(k))
        } else {
            roff(k)
        };
        out.push_str(&format!(".TP\n{k}\n{}\n", roff(v)));
    }
}

/// The main page, `regtrack(1)`: every subcommand with its own options.
pub fn page(cmd: &Command) -> String {
    let mut cmd = cmd.clone();
    cmd.build();
    let name = cmd.get_name().to_string();
    let version = format!("{name} {}", cmd.get_version().unwrap_or(""));
    let mut out = String::new();
    header(&mut out, &name, &version);
    let about = about(cmd.get_about());
    let about = about.strip_prefix(&format!("{name}: ")).unwrap_or(&about);
    out.push_str(&format!(
        ".SH NAME\n{} \\- {}\n",
        roff(&name),
        roff(&name_line(about))
    ));
    out.push_str(&format!(".SH SYNOPSIS\n\\fB{}\\fR\n", roff(&usage(&cmd))));
    out.push_str(&format!(
        ".SH DESCRIPTION\n{}\n.PP\nEach command's own options are listed under SUBCOMMANDS; the options below are taken by every command.\n",
        roff(about)
    ));
    out.push_str(".SH OPTIONS\n");
    let globals: Vec<&Arg> = options(&cmd).collect();
    option_list(&mut out, &globals);
    out.push_str(".SH SUBCOMMANDS\n");
    for sub in real_subcommands(&cmd) {
        sub_section(&mut out, &format!("{name} {}", sub.get_name()), sub);
    }
    table(&mut out, "EXIT STATUS", EXIT_STATUS, false);
    out.push_str(".PP\nOutput into a pipe closed early ends the command quietly with status 0.\n");
    let mut ex = Vec::new();
    all_examples(&cmd, &name, &mut ex);
    examples_section(&mut out, &ex);
    table(&mut out, "ENVIRONMENT", ENVIRONMENT, true);
    table(&mut out, "FILES", FILES, false);
    let subs: Vec<String> = real_subcommands(&cmd)
        .iter()
        .map(|s| format!("\\fB{}\\-{}\\fR(1)", roff(&name), roff(s.get_name())))
        .collect();
    out.push_str(&format!(".SH SEE ALSO\n{}\n", subs.join(", ")));
    out.push_str(&format!(".SH VERSION\n{}\n", roff(&version)));
    out
}

/// One subcommand's own page (`regtrack-show.1`).
fn sub_page(top: &str, version: &str, words: &[&str], cmd: &Command) -> String {
    let title = format!("{top}-{}", words.join("-"));
    let mut out = String::new();
    header(&mut out, &title, version);
    out.push_str(&format!(
        ".SH NAME\n{} \\- {}\n",
        roff(&title),
        roff(&name_line(&about(cmd.get_about())))
    ));
    out.push_str(&format!(".SH SYNOPSIS\n\\fB{}\\fR\n", roff(&usage(cmd))));
    out.push_str(&format!(
        ".SH DESCRIPTION\n{}\n",
        paragraphs(&long_about(cmd))
    ));
    let mut own: Vec<&Arg> = positionals(cmd).collect();
    own.extend(own_options(cmd));
    own.extend(options(cmd).filter(|a| a.get_id().as_str() == "help"));
    out.push_str(".SH OPTIONS\n");
    option_list(&mut out, &own);
    let globals: Vec<&Arg> = options(cmd).filter(|a| a.is_global_set()).collect();
    if !globals.is_empty() {
        out.push_str(".SH GLOBAL OPTIONS\n");
        option_list(&mut out, &globals);
    }
    let subs = real_subcommands(cmd);
    if !subs.is_empty() {
        out.push_str(".SH SUBCOMMANDS\n");
        for s in &subs {
            out.push_str(&format!(
                ".TP\n\\fB{}\\-{}\\-{}\\fR(1)\n{}\n",
                roff(top),
                roff(&words.join("-")),
                roff(s.get_name()),
                roff(&about(s.get_about()))
            ));
        }
    }
    table(&mut out, "EXIT STATUS", EXIT_STATUS, false);
    examples_section(&mut out, &examples(cmd, top));
    out.push_str(&format!(".SH SEE ALSO\n\\fB{}\\fR(1)\n", roff(top)));
    out.push_str(&format!(".SH VERSION\n{}\n", roff(version)));
    out
}

/// Every page: `regtrack.1`, then one per subcommand, nested ones too
/// (`regtrack-trees-add.1`), as (file name, text).
pub fn pages(cmd: &Command) -> Vec<(String, String)> {
    let mut built = cmd.clone();
    built.build();
    let top = built.get_name().to_string();
    let version = format!("{top} {}", built.get_version().unwrap_or(""));
    let mut out = vec![(format!("{top}.1"), page(&built))];
    fn walk(
        top: &str,
        version: &str,
        words: Vec<&str>,
        cmd: &Command,
        out: &mut Vec<(String, String)>,
    ) {
        for sub in real_subcommands(cmd) {
            let mut w = words.clone();
            w.push(sub.get_name());
            out.push((
                format!("{top}-{}.1", w.join("-")),
                sub_page(top, version, &w, sub),
            ));
            walk(top, version, w, sub, out);
        }
    }
    walk(&top, &version, Vec::new(), &built, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_names_every_subcommand_and_every_long_option() {
        let mut c = crate::cli::command();
        c.build();
        let p = page(&c);
        for n in super::super::complete::nodes(&c) {
            if n.words.contains(&"help") {
                continue;
            }
            if !n.words.is_empty() {
                let path = roff(&format!("regtrack {}", n.words.join(" ")));
                assert!(p.contains(&format!(".SS \"{path}\"")), "{path}");
            }
            for a in options(n.cmd) {
                if let Some(l) = a.get_long() {
                    assert!(p.contains(&format!("\\-\\-{}", roff(l))), "{}: --{l}", n.id);
                }
            }
        }
        for s in [
            ".SH NAME",
            ".SH SYNOPSIS",
            ".SH DESCRIPTION",
            ".SH OPTIONS",
            ".SH SUBCOMMANDS",
            ".SH EXIT STATUS",
            ".SH EXAMPLES",
            ".SH ENVIRONMENT",
            ".SH FILES",
        ] {
            assert!(p.contains(s), "{s}");
        }
        assert!(p.contains("regtrack show xfs"), "an example of show's help");
    }

    #[test]
    fn every_environment_variable_an_option_reads_is_described() {
        let mut c = crate::cli::command();
        c.build();
        for n in super::super::complete::nodes(&c) {
            for a in n.cmd.get_arguments() {
                if let Some(e) = a.get_env() {
                    let e = e.to_string_lossy();
                    assert!(ENVIRONMENT.iter().any(|(k, _)| *k == e), "{e}");
                }
            }
        }
    }

    #[test]
    fn hidden_items_are_left_out_of_the_page() {
        let toy = Command::new("toy")
            .version("1")
            .arg(Arg::new("secret").long("secret").hide(true))
            .subcommand(
                Command::new("visible")
                    .about("Shown.")
                    .arg(Arg::new("hidden-opt").long("hidden-opt").hide(true))
                    .arg(Arg::new("shown-opt").long("shown-opt")),
            )
            .subcommand(Command::new("concealed").hide(true));
        let p = page(&toy);
        assert!(
            p.contains(".SS \"toy visible\"") && p.contains("shown\\-opt"),
            "{p}"
        );
        for gone in ["secret", "hidden", "concealed"] {
            assert!(!p.contains(gone), "{gone}: {p}");
        }
        let names: Vec<String> = pages(&toy).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["toy.1", "toy-visible.1"]);
    }

    #[test]
    fn name_lines_start_lower_case_but_acronyms() {
        assert_eq!(name_line("Show histories."), "show histories");
        assert_eq!(name_line("JSON out"), "JSON out");
    }

    #[test]
    fn roff_escapes_requests_hyphens_and_backslashes() {
        assert_eq!(roff(".x 'y\n'z a-b \\"), "\\&.x 'y\n\\&'z a\\-b \\e");
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
