//! `regtrack completions bash|zsh|fish` and `regtrack man`: each script is
//! checked by its shell (`bash -n`, `zsh -n`, `fish --no-execute`) and
//! exercised (bash: the function called as bash calls it, with `COMP_WORDS`
//! set; fish: `complete -C`; zsh: loaded after `compinit`, then an
//! interactive zsh on a pseudo-terminal, zsh/zpty, given each line and a
//! TAB); the manual page is formatted by groff and holds every subcommand
//! and every long option. A shell or groff this machine lacks is said in
//! the runner's output and that part is skipped.

use std::path::Path;
use std::process::Command;

use crate::common::{Cmd, skip_part_shown};

fn have(tool: &str) -> bool {
    let ok = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        skip_part_shown(
            &format!("checking with {tool}"),
            &format!("{tool} is not installed"),
        );
    }
    ok
}

fn script(dir: &Path, shell: &str) -> std::path::PathBuf {
    let run = Cmd::regtrack().args(["completions", shell]).ok();
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    let path = dir.join(format!("regtrack.{shell}"));
    std::fs::write(&path, &run.stdout_bytes).unwrap();
    path
}

fn shell(cmd: &mut Command) -> (bool, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// What the bash function answers for the words of a command line (the last
/// one being completed), called as bash calls a `complete -F` function: the
/// command, the word being completed and the word before it.
fn bash_complete(script: &Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let prog = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; _regtrack \"${{COMP_WORDS[0]}}\" \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        words.len() - 1
    );
    let (ok, out, err) = shell(Command::new("bash").args(["--norc", "-c", &prog]));
    assert!(ok && err.is_empty(), "{words:?}: {err}");
    // An empty COMPREPLY prints one empty line.
    out.lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

const STATUSES: [&str; 10] = [
    "reported",
    "discussed",
    "fix-proposed",
    "fix-confirmed",
    "fix-applied",
    "fixed",
    "disputed",
    "declined",
    "culprit-dropped",
    "improvement",
];

#[test]
fn bash_completes_subcommands_options_and_status_values() {
    let dir = tempfile::tempdir().unwrap();
    let s = script(dir.path(), "bash");
    if !have("bash") {
        return;
    }
    let (ok, _, err) = shell(Command::new("bash").arg("-n").arg(&s));
    assert!(ok, "bash -n: {err}");
    assert_eq!(bash_complete(&s, &["regtrack", "sh"]), ["show"]);
    let all = bash_complete(&s, &["regtrack", ""]);
    for c in ["ingest", "show", "list", "completions", "man", "trees"] {
        assert!(all.contains(&c.to_string()), "{c}: {all:?}");
    }
    let st = bash_complete(&s, &["regtrack", "list", "--status", ""]);
    for v in STATUSES.iter().chain(&["open", "landed", "closed"]) {
        assert!(st.contains(&v.to_string()), "{v}: {st:?}");
    }
    assert_eq!(
        bash_complete(&s, &["regtrack", "list", "--status", "fix-a"]),
        ["fix-applied"]
    );
    assert_eq!(
        bash_complete(&s, &["regtrack", "follow", "--status", "fixed,la"]),
        ["fixed,landed"]
    );
    // --status=VALUE (bash splits at '=') and a comma-separated list.
    assert_eq!(
        bash_complete(&s, &["regtrack", "export", "--status", "=", "cul"]),
        ["culprit-dropped"]
    );
    assert_eq!(
        bash_complete(&s, &["regtrack", "list", "--status", "open,fix-c"]),
        ["open,fix-confirmed"]
    );
    assert_eq!(
        bash_complete(&s, &["regtrack", "export", "--format", ""]),
        ["md", "json", "csv", "html"]
    );
    for cmd in ["list", "show", "stats", "failures", "mail", "ingest"] {
        assert_eq!(
            bash_complete(&s, &["regtrack", cmd, "--format", ""]),
            ["text", "json"],
            "{cmd}"
        );
    }
    assert_eq!(
        bash_complete(&s, &["regtrack", "trends", "--format", ""]),
        ["text", "json", "csv"]
    );
    assert_eq!(
        bash_complete(&s, &["regtrack", "report", "--format", ""]),
        ["mail", "text"]
    );
    assert_eq!(
        bash_complete(&s, &["regtrack", "--db", "x.db", "list", "--st"]),
        ["--status", "--stale"]
    );
    // An option's value is no subcommand: `list --subsystem show` is list.
    assert_eq!(
        bash_complete(&s, &["regtrack", "list", "--subsystem", "show", "--js"]),
        ["--json"]
    );
    assert_eq!(bash_complete(&s, &["regtrack", "trees", "a"]), ["add"]);
    assert_eq!(
        bash_complete(&s, &["regtrack", "mark", "15", "decl"]),
        ["declined"]
    );
    assert_eq!(
        bash_complete(&s, &["regtrack", "mark", "15", "dup"]),
        ["dup-of"]
    );
    assert_eq!(bash_complete(&s, &["regtrack", "un"]), ["unmark"]);
    assert_eq!(
        bash_complete(&s, &["regtrack", "completions", "z"]),
        ["zsh"]
    );
    // A path argument completes file names: the function offers nothing,
    // and the script registers it with `-o default`, so bash falls back to
    // its own file name completion.
    std::fs::write(dir.path().join("archive.mbox"), "").unwrap();
    let prefix = format!("{}/arch", dir.path().display());
    assert!(bash_complete(&s, &["regtrack", "ingest", &prefix]).is_empty());
    let prog = format!(
        "source '{}'; complete -p regtrack; compgen -f -- '{prefix}'",
        s.display()
    );
    let (ok, out, err) = shell(Command::new("bash").args(["--norc", "-c", &prog]));
    assert!(ok, "{err}");
    assert!(
        out.lines().next().is_some_and(|l| l.contains("-o default")),
        "{out}"
    );
    assert!(
        out.contains(&format!("{}/archive.mbox", dir.path().display())),
        "{out}"
    );
}

#[test]
fn zsh_and_fish_scripts_parse_and_complete() {
    let dir = tempfile::tempdir().unwrap();
    let z = script(dir.path(), "zsh");
    let f = script(dir.path(), "fish");
    let zs = std::fs::read_to_string(&z).unwrap();
    assert!(zs.starts_with("#compdef regtrack\n"));
    for v in STATUSES {
        assert!(zs.contains(v), "{v}");
    }
    if have("zsh") {
        let (ok, _, err) = shell(Command::new("zsh").arg("-n").arg(&z));
        assert!(ok, "zsh -n: {err}");
        // Loaded as zsh loads it: after compinit, it registers itself.
        let prog = format!(
            "autoload -Uz compinit && compinit -u -D && source '{}' && (( $+functions[_regtrack] )) && (( $+functions[_regtrack__subcmd__trees_commands] )) && [[ $_comps[regtrack] == _regtrack ]]",
            z.display()
        );
        let (ok, out, err) = shell(Command::new("zsh").args(["-f", "-c", &prog]));
        assert!(ok, "zsh: {out}{err}");
    }
    if have("zsh") {
        zsh_completes(dir.path(), &z);
    }
    if have("fish") {
        let (ok, _, err) = shell(Command::new("fish").arg("--no-execute").arg(&f));
        assert!(ok, "fish --no-execute: {err}");
        let complete = |line: &str| -> Vec<String> {
            let prog = format!("source '{}'; complete -C '{line}'", f.display());
            let (ok, out, err) = shell(Command::new("fish").args(["--no-config", "-c", &prog]));
            assert!(ok && err.is_empty(), "{line}: {err}");
            out.lines()
                .map(|l| l.split('\t').next().unwrap().to_string())
                .collect()
        };
        assert_eq!(complete("regtrack sh"), ["show"]);
        let st = complete("regtrack list --status ");
        for v in STATUSES.iter().chain(&["open", "landed", "closed"]) {
            assert!(st.contains(&v.to_string()), "{v}: {st:?}");
        }
        let mut formats = complete("regtrack export --format ");
        formats.sort();
        assert_eq!(formats, ["csv", "html", "json", "md"]);
        assert_eq!(complete("regtrack list --subsystem show --js"), ["--json"]);
        assert_eq!(
            complete("regtrack list --status open,fix-c"),
            ["open,fix-confirmed"]
        );
        assert_eq!(complete("regtrack trees add --r"), ["--ref"]);
    }
}

/// Every visible subcommand (`trees add` as `trees add`) and the long
/// options each takes, from `--help`.
fn commands_and_options() -> Vec<(String, Vec<String>)> {
    fn longs(help: &str) -> Vec<String> {
        help.lines()
            .filter_map(|l| {
                let t = l.trim_start();
                let t = t.strip_prefix("-").and_then(|t| {
                    t.strip_prefix("-")
                        .or_else(|| t.split_once(", --").map(|(_, r)| r))
                })?;
                let name: String = t
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                (!name.is_empty()).then_some(name)
            })
            .collect()
    }
    let subs = crate::usable_help::listed_commands;
    let top = Cmd::regtrack().arg("--help").ok().stdout;
    let mut out = vec![(String::new(), longs(&top))];
    let mut todo: Vec<Vec<String>> = subs(&top).into_iter().map(|s| vec![s]).collect();
    while let Some(path) = todo.pop() {
        let help = Cmd::regtrack().args(&path).arg("--help").ok().stdout;
        for s in subs(&help) {
            let mut p = path.clone();
            p.push(s);
            todo.push(p);
        }
        out.push((path.join(" "), longs(&help)));
    }
    out
}

#[test]
fn the_man_page_formats_and_names_every_subcommand_and_option() {
    let run = Cmd::regtrack().arg("man").ok();
    let page = run.stdout;
    assert!(page.starts_with(".ie \\n(.g"), "{}", &page[..80]);
    let all = commands_and_options();
    assert!(all.len() > 15, "{all:?}");
    for (cmd, opts) in &all {
        if !cmd.is_empty() {
            let heading = format!(".SS \"regtrack {}\"", cmd.replace('-', "\\-"));
            assert!(page.contains(&heading), "{heading}");
        }
        for o in opts {
            let roff = format!("\\fB\\-\\-{}\\fR", o.replace('-', "\\-"));
            assert!(page.contains(&roff), "{cmd}: --{o}");
        }
    }
    for section in [
        "NAME",
        "SYNOPSIS",
        "DESCRIPTION",
        "OPTIONS",
        "SUBCOMMANDS",
        "\"EXIT STATUS\"",
        "EXAMPLES",
        "ENVIRONMENT",
        "FILES",
    ] {
        assert!(page.contains(&format!(".SH {section}\n")), "{section}");
    }
    // One page per subcommand with --out-dir.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man");
    Cmd::regtrack().arg("man").arg("--out-dir").arg(&out).ok();
    // A file where the folder should be is said to be one.
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let run = Cmd::regtrack().arg("man").arg("--out-dir").arg(&file).run();
    assert_eq!(run.code(), Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("is a file"), "{}", run.stderr);
    for (cmd, _) in &all {
        let file = if cmd.is_empty() {
            "regtrack.1".to_string()
        } else {
            format!("regtrack-{}.1", cmd.replace(' ', "-"))
        };
        assert!(out.join(&file).is_file(), "{file}");
    }
    let show = std::fs::read_to_string(out.join("regtrack-show.1")).unwrap();
    assert!(show.contains("\\fB\\-\\-hyperlinks\\fR") && show.contains(".SH \"GLOBAL OPTIONS\""));
    if have("groff") {
        for file in ["regtrack.1", "regtrack-show.1", "regtrack-trees-add.1"] {
            let (ok, text, err) = shell(
                Command::new("groff")
                    .args(["-man", "-Tutf8", "-ww", "-rLL=100n", "-P-c", "-P-b", "-P-u"])
                    .arg(out.join(file)),
            );
            assert!(ok && err.is_empty(), "groff {file}: {err}");
            assert!(text.contains("NAME") && text.contains("regtrack"), "{file}");
        }
        let (_, text, _) = shell(
            Command::new("groff")
                .args(["-man", "-Tutf8", "-P-c", "-P-b", "-P-u"])
                .arg(out.join("regtrack.1")),
        );
        assert!(text.contains("--status <STATUS>"), "{text}");
        assert!(text.contains("regtrack show xfs"), "{text}");
    }
    if have("man") {
        let (ok, text, err) = shell(
            Command::new("man")
                .arg("-l")
                .arg(out.join("regtrack-list.1"))
                .env("MANPAGER", "cat")
                .env("MANWIDTH", "100"),
        );
        assert!(ok, "man -l: {err}");
        assert!(text.contains("regtrack-list"), "{text}");
    }
}

#[test]
fn completions_and_man_need_no_database_and_misuse_is_2() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("none.db");
    for args in [
        vec!["completions", "bash"],
        vec!["completions", "zsh"],
        vec!["completions", "fish"],
        vec!["man"],
    ] {
        let run = Cmd::regtrack()
            .db(&db)
            .env("REGTRACK_CONFIG", dir.path().join("no-such-config.toml"))
            .args(&args)
            .current_dir(dir.path())
            .run();
        assert_eq!(run.code(), Some(0), "{args:?}: {}", run.stderr);
        assert!(!run.stdout.is_empty(), "{args:?}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    for args in [vec!["completions"], vec!["completions", "tcsh"]] {
        assert_eq!(
            Cmd::regtrack().args(&args).run().code(),
            Some(2),
            "{args:?}"
        );
    }
}

/// Drives an interactive zsh on a pseudo-terminal (zsh/zpty): types each
/// line and a TAB, then turns the line into a comment and waits for the
/// next prompt; prints what the terminal showed, one block per line.
const ZSH_DRIVER: &str = r#"zmodload zsh/zpty
dir=$1; shift
zpty z "PATH=$dir/bin:\$PATH TERM=dumb HOME=$dir zsh -f -i"
zpty -w z "setopt interactivecomments nobeep; fpath=($dir/fpath \$fpath); autoload -Uz compinit; compinit -u -D; PS1='READY%# '"
zpty -r z out '*READY%# ' || exit 3
zpty -r z out '*READY' || exit 3
for line in "$@"; do
  zpty -w -n z "$line"$'\t'
  zpty -w -n z $'\C-a# DONE \C-e\n'
  zpty -r z out '*# DONE *READY' || exit 4
  print -r -- "$out"
  print -r -- "=== end"
done
zpty -d z
"#;

/// zsh completes as it was asked: what the TAB of each line shows.
fn zsh_completes(dir: &Path, script: &Path) {
    let fpath = dir.join("fpath");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&fpath).unwrap();
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::copy(script, fpath.join("_regtrack")).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_regtrack"), bin.join("regtrack")).unwrap();
    let driver = dir.join("drive.zsh");
    std::fs::write(&driver, ZSH_DRIVER).unwrap();
    let cases: &[(&str, &[&str])] = &[
        ("regtrack sh", &["regtrack show"]),
        (
            "regtrack list --status fix",
            &["fix-applied", "fix-confirmed", "fix-proposed", "fixed"],
        ),
        ("regtrack list --status open,fix-c", &["open,fix-confirmed"]),
        ("regtrack export --format ", &["csv", "html", "json", "md"]),
        ("regtrack list --subsystem show --js", &["--json"]),
        ("regtrack mark 15 dup", &["dup-of"]),
        ("regtrack trees a", &["regtrack trees add"]),
    ];
    let (ok, out, err) = shell(
        Command::new("timeout")
            .args(["120", "zsh", "-f"])
            .arg(&driver)
            .arg(dir)
            .args(cases.iter().map(|(line, _)| *line)),
    );
    assert!(ok, "the zsh driver: {err}\n{out}");
    let blocks: Vec<String> = out
        .replace('\r', "")
        .split("=== end")
        .map(str::to_string)
        .collect();
    assert_eq!(blocks.len(), cases.len() + 1, "{out}");
    for ((line, want), shown) in cases.iter().zip(&blocks) {
        for w in *want {
            assert!(
                shown.contains(w),
                "zsh, {line:?}<TAB>: no {w:?} in\n{shown}"
            );
        }
    }
}
