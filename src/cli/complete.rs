//! `regtrack completions bash|zsh|fish`: shell completion scripts generated
//! from the clap definitions of the command line.
//!
//! Hand-written rather than `clap_complete`: the crate is not among the
//! dependencies the build can reach offline, and a few hundred lines that
//! walk [`clap::Command`] do what regtrack needs. The scripts follow
//! clap_complete's output shape (a `_regtrack` function for bash that
//! finds the subcommand in `COMP_WORDS` and fills `COMPREPLY`; `_arguments`
//! specs per subcommand and `_describe` for the command lists in zsh; one
//! `complete -c regtrack` line per option and subcommand in fish), with two
//! additions: the value of an option is never taken for a subcommand name
//! while finding the subcommand, and a comma-separated value (`--status
//! open,fix-`) completes its last item, in all three shells (zsh with
//! `_sequence`, fish with `__fish_complete_list`).
//!
//! What is completed: every subcommand (visible aliases too), every option
//! (long and short, visible aliases too) of the subcommand at hand including
//! the global ones, the possible values of an option or positional that has
//! them (`--format`, `--color`, `--status` with its groups, `--scope`), and
//! file or directory names where the argument is a path. Hidden
//! subcommands, options and values are left out.

use std::io::Write;
use std::process::ExitCode;

use clap::builder::PossibleValue;
use clap::{Arg, ArgAction, Command, ValueHint};

/// The shells completion scripts are written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Shell {
    /// bash (with bash-completion, or `source` it from ~/.bashrc).
    Bash,
    /// zsh (a `_regtrack` file in a folder of `$fpath`).
    Zsh,
    /// fish (`~/.config/fish/completions/regtrack.fish`).
    Fish,
}

/// Arguments of `regtrack completions`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell to write the script for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Runs `regtrack completions`: the script on stdout.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cmd = super::command();
    let script = script(args.shell, &cmd);
    let mut out = std::io::stdout().lock();
    out.write_all(script.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The completion script of `shell` for `cmd` (built or not).
pub fn script(shell: Shell, cmd: &Command) -> String {
    let mut cmd = cmd.clone();
    cmd.build();
    let nodes = nodes(&cmd);
    match shell {
        Shell::Bash => bash(&cmd, &nodes),
        Shell::Zsh => zsh(&cmd, &nodes),
        Shell::Fish => fish(&cmd, &nodes),
    }
}

/// One command of the tree: its id (`regtrack__trees__add`), its words from
/// the top (`["trees", "add"]`) and the command.
pub(super) struct Node<'a> {
    pub id: String,
    pub words: Vec<&'a str>,
    pub cmd: &'a Command,
}

/// Every visible command of the tree, the top first, parents before
/// their subcommands.
pub(super) fn nodes(top: &Command) -> Vec<Node<'_>> {
    fn walk<'a>(cmd: &'a Command, id: String, words: Vec<&'a str>, out: &mut Vec<Node<'a>>) {
        out.push(Node {
            id: id.clone(),
            words: words.clone(),
            cmd,
        });
        for sub in subcommands(cmd) {
            let mut w = words.clone();
            w.push(sub.get_name());
            walk(sub, format!("{id}__{}", ident(sub.get_name())), w, out);
        }
    }
    let mut out = Vec::new();
    walk(top, ident(top.get_name()), Vec::new(), &mut out);
    out
}

/// A name as a shell function name part.
fn ident(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// The visible subcommands of `cmd`.
pub(super) fn subcommands(cmd: &Command) -> impl Iterator<Item = &Command> {
    cmd.get_subcommands().filter(|s| !s.is_hide_set())
}

/// The visible options (not positionals) of `cmd`.
pub(super) fn options(cmd: &Command) -> impl Iterator<Item = &Arg> {
    cmd.get_arguments()
        .filter(|a| !a.is_hide_set() && !a.is_positional())
}

/// The visible positionals of `cmd`, in order.
pub(super) fn positionals(cmd: &Command) -> impl Iterator<Item = &Arg> {
    cmd.get_positionals().filter(|a| !a.is_hide_set())
}

/// Whether `arg` takes a value.
pub(super) fn takes_value(arg: &Arg) -> bool {
    arg.get_action().takes_values()
}

/// Whether `arg` may be given more than once.
fn repeats(arg: &Arg) -> bool {
    matches!(arg.get_action(), ArgAction::Append | ArgAction::Count)
}

/// The visible possible values of `arg`.
pub(super) fn values(arg: &Arg) -> Vec<PossibleValue> {
    arg.get_possible_values()
        .into_iter()
        .filter(|v| !v.is_hide_set())
        .collect()
}

/// The names `arg` is written with: `--long`, `-s` and the visible
/// aliases of both.
fn flags(arg: &Arg) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(l) = arg.get_long() {
        out.push(format!("--{l}"));
    }
    for l in arg.get_visible_aliases().unwrap_or_default() {
        out.push(format!("--{l}"));
    }
    if let Some(s) = arg.get_short() {
        out.push(format!("-{s}"));
    }
    for s in arg.get_visible_short_aliases().unwrap_or_default() {
        out.push(format!("-{s}"));
    }
    out
}

/// The first line of an argument's or command's help, as plain text.
pub(super) fn about(help: Option<&clap::builder::StyledStr>) -> String {
    help.map(|h| h.to_string())
        .unwrap_or_default()
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

/// Whether `s` can stand unquoted as a word in every shell here.
fn plain_word(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.+:/@%,=".contains(c))
}

/// The words a value of `arg` may be: its possible values that are plain
/// words.
fn value_words(arg: &Arg) -> Vec<String> {
    values(arg)
        .iter()
        .map(|v| v.get_name().to_string())
        .filter(|v| plain_word(v))
        .collect()
}

/// How a path argument completes, if it is one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PathKind {
    File,
    Dir,
}

fn path_kind(arg: &Arg) -> Option<PathKind> {
    match arg.get_value_hint() {
        ValueHint::AnyPath | ValueHint::FilePath | ValueHint::ExecutablePath => {
            Some(PathKind::File)
        }
        ValueHint::DirPath => Some(PathKind::Dir),
        _ => None,
    }
}

// ---------------------------------------------------------------- bash

/// How bash completes one argument's value.
fn bash_value(arg: &Arg) -> String {
    let words = value_words(arg);
    if !words.is_empty() {
        let list = words.join(" ");
        if arg.get_value_delimiter().is_some() {
            // The items before the last comma stay as typed.
            return format!(
                "local pre=\"\"; if [[ \"${{cur}}\" == *,* ]]; then pre=\"${{cur%,*}},\"; fi\n                    COMPREPLY=($(compgen -P \"${{pre}}\" -W \"{list}\" -- \"${{cur##*,}}\"))"
            );
        }
        return format!("COMPREPLY=($(compgen -W \"{list}\" -- \"${{cur}}\"))");
    }
    match path_kind(arg) {
        Some(PathKind::File) => {
            "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"${cur}\"))".into()
        }
        Some(PathKind::Dir) => {
            "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"${cur}\"))".into()
        }
        None => "COMPREPLY=()".into(),
    }
}

fn bash(top: &Command, nodes: &[Node]) -> String {
    let name = top.get_name();
    let f = format!("_{}", ident(name));
    let mut s = String::new();
    s.push_str(&format!(
        "# bash completion for {name}; generated by `{name} completions bash`.\n\
         # Install: {name} completions bash > ~/.local/share/bash-completion/completions/{name}\n\n"
    ));
    // Which options take a value, per command: their value is skipped while
    // looking for the subcommand.
    s.push_str(&format!("{f}_takes_value() {{\n    case \"$1,$2\" in\n"));
    let mut valued = Vec::new();
    for n in nodes {
        for a in options(n.cmd).filter(|a| takes_value(a)) {
            for fl in flags(a) {
                valued.push(format!("{},{fl}", n.id));
            }
        }
    }
    if !valued.is_empty() {
        s.push_str(&format!("        {}) return 0 ;;\n", valued.join("|")));
    }
    s.push_str("    esac\n    return 1\n}\n\n");

    s.push_str(&format!(
        "{f}() {{\n    local i w cur prev cmd skip opts\n    COMPREPLY=()\n    cur=\"${{COMP_WORDS[COMP_CWORD]}}\"\n    prev=\"\"\n    if (( COMP_CWORD > 0 )); then prev=\"${{COMP_WORDS[COMP_CWORD-1]}}\"; fi\n    # --opt=value: bash splits it at '='.\n    if [[ \"${{cur}}\" == \"=\" ]]; then cur=\"\"; prev=\"${{COMP_WORDS[COMP_CWORD-1]}}\"; fi\n    if [[ \"${{prev}}\" == \"=\" ]] && (( COMP_CWORD > 1 )); then prev=\"${{COMP_WORDS[COMP_CWORD-2]}}\"; fi\n    cmd=\"{}\"\n    skip=0\n    for (( i = 1; i < COMP_CWORD; i++ )); do\n        w=\"${{COMP_WORDS[i]}}\"\n        if [[ \"${{w}}\" == \"=\" ]]; then skip=1; continue; fi\n        if (( skip )); then skip=0; continue; fi\n        case \"${{cmd}},${{w}}\" in\n",
        nodes[0].id
    ));
    for n in nodes {
        for sub in subcommands(n.cmd) {
            let child = format!("{}__{}", n.id, ident(sub.get_name()));
            let names: Vec<String> = sub
                .get_name_and_visible_aliases()
                .into_iter()
                .map(|a| format!("{},{a}", n.id))
                .collect();
            s.push_str(&format!(
                "            {}) cmd=\"{child}\" ;;\n",
                names.join("|")
            ));
        }
    }
    s.push_str(&format!(
        "            *) if {f}_takes_value \"${{cmd}}\" \"${{w}}\"; then skip=1; fi ;;\n        esac\n    done\n\n    case \"${{cmd}}\" in\n"
    ));
    for n in nodes {
        let opts: Vec<String> = options(n.cmd).flat_map(flags).collect();
        s.push_str(&format!(
            "        {})\n            opts=\"{}\"\n            case \"${{prev}}\" in\n",
            n.id,
            opts.join(" ")
        ));
        for a in options(n.cmd).filter(|a| takes_value(a)) {
            s.push_str(&format!(
                "                {})\n                    {}\n                    return 0\n                    ;;\n",
                flags(a).join("|"),
                bash_value(a)
            ));
        }
        s.push_str("            esac\n");
        s.push_str(
            "            if [[ \"${cur}\" == -* ]]; then\n                COMPREPLY=($(compgen -W \"${opts}\" -- \"${cur}\"))\n                return 0\n            fi\n",
        );
        // Not an option: a subcommand, a positional's value or a path.
        let mut words: Vec<String> = Vec::new();
        for sub in subcommands(n.cmd) {
            words.extend(
                sub.get_name_and_visible_aliases()
                    .into_iter()
                    .map(String::from),
            );
        }
        let mut files = None;
        for p in positionals(n.cmd) {
            words.extend(value_words(p));
            files = files.or(path_kind(p));
        }
        s.push_str(&format!(
            "            COMPREPLY=($(compgen -W \"{}\" -- \"${{cur}}\"))\n",
            words.join(" ")
        ));
        match files {
            Some(PathKind::File) => s.push_str(
                "            compopt -o filenames 2>/dev/null\n            COMPREPLY+=($(compgen -f -- \"${cur}\"))\n",
            ),
            Some(PathKind::Dir) => s.push_str(
                "            compopt -o filenames 2>/dev/null\n            COMPREPLY+=($(compgen -d -- \"${cur}\"))\n",
            ),
            None => {}
        }
        s.push_str("            return 0\n            ;;\n");
    }
    s.push_str("    esac\n}\n\n");
    s.push_str(&format!(
        "if [[ \"${{BASH_VERSINFO[0]}}\" -eq 4 && \"${{BASH_VERSINFO[1]}}\" -ge 4 || \"${{BASH_VERSINFO[0]}}\" -gt 4 ]]; then\n    complete -F {f} -o nosort -o bashdefault -o default {name}\nelse\n    complete -F {f} -o bashdefault -o default {name}\nfi\n"
    ));
    s
}

// ---------------------------------------------------------------- zsh

/// Text for inside a single-quoted zsh word and an `_arguments` bracket or
/// description: quotes, brackets, colons and backslashes escaped.
fn zsh_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\'' => out.push_str("'\\''"),
            '\\' => out.push_str("\\\\"),
            '[' | ']' | ':' | '$' | '`' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The `_arguments` action completing `arg`'s value.
fn zsh_action(arg: &Arg) -> String {
    let words = value_words(arg);
    if !words.is_empty() && arg.get_value_delimiter().is_some() {
        // A comma-separated list: each item completes.
        return format!("_sequence compadd - {}", words.join(" "));
    }
    if !words.is_empty() {
        return format!("({})", words.join(" "));
    }
    match path_kind(arg) {
        Some(PathKind::File) => "_files".into(),
        Some(PathKind::Dir) => "_files -/".into(),
        None => "_default".into(),
    }
}

/// The value name of `arg` (`DB`, `STATUS`).
fn value_name(arg: &Arg) -> String {
    arg.get_value_names()
        .and_then(|v| v.first().map(|n| n.to_string()))
        .unwrap_or_else(|| arg.get_id().as_str().to_uppercase())
}

/// The `_arguments` specs of `cmd`'s options and positionals.
fn zsh_specs(cmd: &Command) -> Vec<String> {
    let mut out = Vec::new();
    for a in options(cmd) {
        let names = flags(a);
        let help = zsh_text(&about(a.get_help()));
        let star = if repeats(a) { "*" } else { "" };
        let value = if takes_value(a) {
            format!(
                ":{}:{}",
                zsh_text(&value_name(a)),
                zsh_text_action(&zsh_action(a))
            )
        } else {
            String::new()
        };
        let eq = if takes_value(a) { "=" } else { "" };
        if names.len() == 1 {
            out.push(format!("'{star}{}{eq}[{help}]{value}'", names[0]));
        } else {
            let excl = if star.is_empty() {
                format!("({})", names.join(" "))
            } else {
                "*".to_string()
            };
            let alts: Vec<String> = names.iter().map(|n| format!("{n}{eq}")).collect();
            out.push(format!("'{excl}'{{{}}}'[{help}]{value}'", alts.join(",")));
        }
    }
    for p in positionals(cmd) {
        let many = matches!(p.get_action(), ArgAction::Append)
            || p.get_num_args().is_some_and(|n| n.max_values() > 1);
        let colons = match (many, p.is_required_set()) {
            (true, true) => "*:",
            (true, false) => "*::",
            (false, true) => ":",
            (false, false) => "::",
        };
        out.push(format!(
            "'{colons}{} -- {}:{}'",
            zsh_text(&p.get_id().as_str().replace(':', "")),
            zsh_text(&about(p.get_help())),
            zsh_text_action(&zsh_action(p))
        ));
    }
    out
}

/// An action inside a single-quoted spec: only the quote needs escaping.
fn zsh_text_action(s: &str) -> String {
    s.replace('\'', "'\\''")
}

fn zsh(top: &Command, nodes: &[Node]) -> String {
    let name = top.get_name();
    let mut s = format!(
        "#compdef {name}\n\n# zsh completion for {name}; generated by `{name} completions zsh`.\n# Install: {name} completions zsh > ~/.zfunc/_{name}  (with ~/.zfunc in $fpath before compinit)\n\n"
    );
    for n in nodes {
        let f = format!("_{}", n.id);
        let mut specs = zsh_specs(n.cmd);
        let has_subs = subcommands(n.cmd).next().is_some();
        if has_subs {
            specs.push(format!("\":: :{f}_commands\""));
            specs.push("\"*::: :->subcommand\"".to_string());
        }
        s.push_str(&format!(
            "{f}() {{\n    local curcontext=\"$curcontext\" state line\n    local -i ret=1\n    typeset -A opt_args\n    _arguments -s -S -C \\\n"
        ));
        for spec in &specs {
            s.push_str(&format!("        {spec} \\\n"));
        }
        s.push_str("        && ret=0\n");
        if has_subs {
            s.push_str(&format!(
                "    case $state in\n    (subcommand)\n        words=($line[1] \"${{words[@]}}\")\n        (( CURRENT += 1 ))\n        curcontext=\"${{curcontext%:*:*}}:{}-command-$line[1]:\"\n        case $line[1] in\n",
                n.id.replace("__", "-")
            ));
            for sub in subcommands(n.cmd) {
                s.push_str(&format!(
                    "            ({}) {f}__{} && ret=0 ;;\n",
                    sub.get_name_and_visible_aliases().join("|"),
                    ident(sub.get_name())
                ));
            }
            s.push_str("        esac\n        ;;\n    esac\n");
            // The list of subcommands with their descriptions.
            let mut list = format!("{f}_commands() {{\n    local commands; commands=(\n");
            for sub in subcommands(n.cmd) {
                for alias in sub.get_name_and_visible_aliases() {
                    list.push_str(&format!(
                        "        '{}:{}'\n",
                        zsh_text(alias),
                        zsh_text(&about(sub.get_about()))
                    ));
                }
            }
            list.push_str(&format!(
                "    )\n    _describe -t commands '{} commands' commands \"$@\"\n}}\n\n",
                zsh_text(&n.words.iter().fold(name.to_string(), |a, w| a + " " + w))
            ));
            s.push_str("    return ret\n}\n\n");
            s.push_str(&list);
        } else {
            s.push_str("    return ret\n}\n\n");
        }
    }
    s.push_str(&format!(
        "if [ \"$funcstack[1]\" = \"_{0}\" ]; then\n    _{0} \"$@\"\nelse\n    compdef _{0} {name}\nfi\n",
        ident(name)
    ));
    s
}

// ---------------------------------------------------------------- fish

/// A single-quoted fish word.
fn fish_quote(s: &str) -> String {
    let mut out = String::from("'");
    for c in s.chars() {
        match c {
            '\\' | '\'' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// The `-a` list of `arg`'s possible values, each with its own description
/// (its help, else the value's name: `STATUS`), as clap_complete writes it:
/// `"md\t'Markdown' json\t'JSON'"`; empty when it has none.
fn fish_values(arg: &Arg) -> String {
    let items: Vec<String> = values(arg)
        .iter()
        .filter(|v| plain_word(v.get_name()))
        .map(|v| {
            let help = match v.get_help() {
                Some(h) => h.to_string(),
                None => value_name(arg),
            };
            // Read twice: in double quotes, then as words in single quotes.
            let help: String = help
                .trim_end_matches('.')
                .chars()
                .filter(|c| *c != '\\' && !c.is_control())
                .collect::<String>()
                .replace('\'', "\\'")
                .replace('"', "\\\"")
                .replace('$', "\\$");
            format!("{}\\t'{help}'", v.get_name())
        })
        .collect();
    if items.is_empty() {
        String::new()
    } else {
        format!("\"{}\"", items.join(" "))
    }
}

fn fish(top: &Command, nodes: &[Node]) -> String {
    let name = top.get_name();
    let f = format!("__fish_{}", ident(name));
    let mut s = format!(
        "# fish completion for {name}; generated by `{name} completions fish`.\n# Install: {name} completions fish > ~/.config/fish/completions/{name}.fish\n\n"
    );
    // The command at hand, found as bash finds it: option values skipped.
    s.push_str(&format!(
        "function {f}_command\n    set -l tokens (commandline -opc)\n    set -e tokens[1]\n    set -l cmd {}\n    set -l skip 0\n    for w in $tokens\n        if test $skip = 1\n            set skip 0\n            continue\n        end\n        switch \"$cmd,$w\"\n",
        nodes[0].id
    ));
    for n in nodes {
        for sub in subcommands(n.cmd) {
            let cases: Vec<String> = sub
                .get_name_and_visible_aliases()
                .into_iter()
                .map(|a| fish_quote(&format!("{},{a}", n.id)))
                .collect();
            s.push_str(&format!(
                "            case {}\n                set cmd {}__{}\n",
                cases.join(" "),
                n.id,
                ident(sub.get_name())
            ));
        }
    }
    let mut valued = Vec::new();
    for n in nodes {
        for a in options(n.cmd).filter(|a| takes_value(a)) {
            for fl in flags(a) {
                valued.push(fish_quote(&format!("{},{fl}", n.id)));
            }
        }
    }
    if !valued.is_empty() {
        s.push_str(&format!(
            "            case {}\n                set skip 1\n",
            valued.join(" ")
        ));
    }
    s.push_str("        end\n    end\n    echo $cmd\nend\n\n");
    s.push_str(&format!(
        "function {f}_at\n    test ({f}_command) = $argv[1]\nend\n\n"
    ));
    let mut lists: Vec<String> = Vec::new();
    let mut lines = String::new();
    for n in nodes {
        let s = &mut lines;
        let cond = fish_quote(&format!("{f}_at {}", n.id));
        let head = format!("complete -c {name} -n {cond}");
        for a in options(n.cmd) {
            let mut line = head.clone();
            if let Some(sh) = a.get_short() {
                line.push_str(&format!(" -s {sh}"));
            }
            if let Some(l) = a.get_long() {
                line.push_str(&format!(" -l {l}"));
            }
            for l in a.get_visible_aliases().unwrap_or_default() {
                line.push_str(&format!(" -l {l}"));
            }
            let help = about(a.get_help());
            if !help.is_empty() {
                line.push_str(&format!(" -d {}", fish_quote(&help)));
            }
            if takes_value(a) {
                let words = fish_values(a);
                if a.get_value_delimiter().is_some() && !words.is_empty() {
                    // A comma-separated list: each item completes.
                    let body = fish_value_lines(a);
                    let k = match lists.iter().position(|l| *l == body) {
                        Some(k) => k,
                        None => {
                            lists.push(body);
                            lists.len() - 1
                        }
                    };
                    line.push_str(&format!(" -x -a '(__fish_complete_list , {f}_values_{k})'"));
                } else if !words.is_empty() {
                    line.push_str(&format!(" -x -a {words}"));
                } else {
                    match path_kind(a) {
                        Some(PathKind::File) => line.push_str(" -r -F"),
                        Some(PathKind::Dir) => {
                            line.push_str(" -x -a '(__fish_complete_directories)'")
                        }
                        None => line.push_str(" -x"),
                    }
                }
            }
            s.push_str(&line);
            s.push('\n');
        }
        let mut files = false;
        for sub in subcommands(n.cmd) {
            for alias in sub.get_name_and_visible_aliases() {
                s.push_str(&format!(
                    "{head} -f -a {} -d {}\n",
                    fish_quote(alias),
                    fish_quote(&about(sub.get_about()))
                ));
            }
        }
        for p in positionals(n.cmd) {
            let words = fish_values(p);
            if !words.is_empty() {
                s.push_str(&format!("{head} -f -a {words}\n"));
            }
            files |= path_kind(p).is_some();
        }
        if !files {
            // No path to complete here: no file names either.
            s.push_str(&format!("{head} -f\n"));
        }
        s.push('\n');
    }
    // The values of each comma-separated option, one per line with its
    // description, for `__fish_complete_list`.
    for (k, body) in lists.iter().enumerate() {
        s.push_str(&format!(
            "function {f}_values_{k}\n    printf '%s\\t%s\\n' {body}\nend\n\n"
        ));
    }
    s.push_str(&lines);
    s
}

/// `reported 'STATUS' discussed 'STATUS' ...`: the arguments of a
/// `printf '%s\t%s\n'` listing `arg`'s values with their descriptions.
fn fish_value_lines(arg: &Arg) -> String {
    values(arg)
        .iter()
        .filter(|v| plain_word(v.get_name()))
        .map(|v| {
            let help = v
                .get_help()
                .map(|h| h.to_string())
                .unwrap_or_else(|| value_name(arg));
            format!(
                "{} {}",
                v.get_name(),
                fish_quote(help.trim_end_matches('.'))
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd() -> Command {
        crate::cli::command()
    }

    #[test]
    fn every_subcommand_and_long_option_is_in_every_script() {
        let c = {
            let mut c = cmd();
            c.build();
            c
        };
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
            let s = script(shell, &c);
            for n in nodes(&c) {
                if let Some(last) = n.words.last() {
                    assert!(s.contains(last), "{shell:?}: {last}");
                }
                for a in options(n.cmd) {
                    if let Some(l) = a.get_long() {
                        assert!(s.contains(l), "{shell:?}: {} --{l}", n.id);
                    }
                }
            }
        }
    }

    #[test]
    fn status_and_format_values_are_completed() {
        let c = cmd();
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
            let s = script(shell, &c);
            for st in crate::model::history::Status::ALL {
                assert!(s.contains(st.as_str()), "{shell:?}: {}", st.as_str());
            }
            for v in [
                "open", "closed", "md", "json", "csv", "html", "mail", "text",
            ] {
                assert!(s.contains(v), "{shell:?}: {v}");
            }
        }
    }

    /// A made-up command line with hidden and aliased items.
    fn toy() -> Command {
        use clap::builder::PossibleValuesParser;
        Command::new("toy")
            .arg(Arg::new("secret-global").long("secret-global").hide(true))
            .subcommand(
                Command::new("visible")
                    .visible_alias("vis")
                    .about("A visible command")
                    .arg(
                        Arg::new("mode")
                            .long("mode")
                            .visible_alias("manner")
                            .value_parser(PossibleValuesParser::new([
                                PossibleValue::new("fast"),
                                PossibleValue::new("covert").hide(true),
                            ])),
                    )
                    .arg(Arg::new("hidden-opt").long("hidden-opt").hide(true)),
            )
            .subcommand(Command::new("concealed").hide(true))
    }

    #[test]
    fn hidden_items_are_left_out_and_visible_aliases_kept() {
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
            let s = script(shell, &toy());
            for kept in ["visible", "vis", "--mode", "manner", "fast"] {
                assert!(s.contains(kept), "{shell:?}: {kept}\n{s}");
            }
            for gone in ["secret-global", "hidden-opt", "covert", "concealed"] {
                assert!(!s.contains(gone), "{shell:?}: {gone}\n{s}");
            }
        }
    }

    #[test]
    fn escaping_keeps_quotes_and_brackets_inside_their_word() {
        assert_eq!(zsh_text("it's [x]: `y`"), "it'\\''s \\[x\\]\\: \\`y\\`");
        assert_eq!(fish_quote("it's a \\"), "'it\\'s a \\\\'");
        assert!(!plain_word("a b") && !plain_word("$(x)") && plain_word("fix-proposed"));
    }
}
