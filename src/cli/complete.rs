//! `regtrack completions bash|zsh|fish`: the shell completion scripts
//! `clap_complete` generates from the clap definition of the command line
//! ([`super::command`]), so a new command or option is in them without more
//! work.
//!
//! One thing is added to what the crate writes. An option taking a
//! comma-separated list (`--status open,fix-applied`, `--scope`) completes
//! the item after the last comma, in all three shells: bash keeps what
//! precedes the comma as a prefix (`compgen -P`), zsh completes the value
//! with `_sequence`, fish with `__fish_complete_list`. The generators of
//! clap_complete 4.6 complete such a value as one word (only its unstable
//! `unstable-dynamic` engine, which calls the program back on every TAB,
//! splits at the delimiter), so each script is rewritten at those options'
//! value lists; a unit test fails if the crate's output no longer has the
//! form the rewrite looks for. bash is also given the option before an
//! `=` (`--status=fix<TAB>`: bash splits the word at `=`), which its
//! generator takes for the previous word.

use std::io::Write;
use std::process::ExitCode;

use clap::Command;

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
    let script = script(args.shell, &super::command());
    let mut out = super::stdout();
    out.write_all(script.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The completion script of `shell` for `cmd`.
pub fn script(shell: Shell, cmd: &Command) -> String {
    let mut cmd = cmd.clone();
    let name = cmd.get_name().to_string();
    let generator = match shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    let mut buf = Vec::new();
    clap_complete::generate(generator, &mut cmd, &name, &mut buf);
    let script = String::from_utf8_lossy(&buf).into_owned();
    // `generate` built the command: every option is in place.
    let lists = lists(&cmd);
    match shell {
        Shell::Bash => bash(script, &lists),
        Shell::Zsh => zsh(script, &lists),
        Shell::Fish => fish(script, &name, &lists),
    }
}

/// An option taking a delimited list of known values: its value name
/// (`STATUS`), its delimiter and its values.
#[derive(Debug, Clone, PartialEq, Eq)]
struct List {
    value_name: String,
    delimiter: char,
    values: Vec<String>,
}

/// Every distinct [`List`] of the command tree (built).
fn lists(cmd: &Command) -> Vec<List> {
    fn walk(cmd: &Command, out: &mut Vec<List>) {
        for a in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            let Some(delimiter) = a.get_value_delimiter() else {
                continue;
            };
            let values: Vec<String> = a
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_string())
                .collect();
            if values.is_empty() {
                continue;
            }
            let value_name = a
                .get_value_names()
                .and_then(|v| v.first())
                .map_or_else(|| a.get_id().to_string(), |n| n.to_string());
            let list = List {
                value_name,
                delimiter,
                values,
            };
            if !out.contains(&list) {
                out.push(list);
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, out);
        }
    }
    let mut out = Vec::new();
    walk(cmd, &mut out);
    out
}

/// bash: the item after the last delimiter completes, what precedes it
/// kept; the option before an `=` is the one whose value completes.
fn bash(mut s: String, lists: &[List]) -> String {
    for l in lists {
        let words = l.values.join(" ");
        let d = l.delimiter;
        s = s.replace(
            &format!("COMPREPLY=($(compgen -W \"{words}\" -- \"${{cur}}\"))"),
            &format!(
                "local pre=\"\"; if [[ \"${{cur}}\" == *{d}* ]]; then pre=\"${{cur%{d}*}}{d}\"; fi\n                    COMPREPLY=($(compgen -P \"${{pre}}\" -W \"{words}\" -- \"${{cur##*{d}}}\"))"
            ),
        );
    }
    s.replacen(
        "    prev=\"$3\"\n",
        "    prev=\"$3\"\n    # `--opt=value`: bash splits the word at '='.\n    if [[ \"${prev}\" == \"=\" && ${COMP_CWORD} -ge 2 ]]; then prev=\"${COMP_WORDS[COMP_CWORD-2]}\"; fi\n",
        1,
    )
}

/// zsh: `_sequence` completes each item of the list.
fn zsh(mut s: String, lists: &[List]) -> String {
    for l in lists {
        let words = l.values.join(" ");
        s = s.replace(
            &format!(":{}:({words})'", l.value_name),
            &format!(
                ":{}:_sequence -s {} compadd - {words}'",
                l.value_name, l.delimiter
            ),
        );
    }
    s
}

/// fish: `__fish_complete_list` completes each item, from a function
/// listing the values.
fn fish(mut s: String, name: &str, lists: &[List]) -> String {
    for (k, l) in lists.iter().enumerate() {
        let block: Vec<String> = l.values.iter().map(|v| format!("{v}\\t''")).collect();
        let f = format!("__fish_{name}_values_{k}");
        let before = s.len();
        s = s.replace(
            &format!(" -a \"{}\"", block.join("\n")),
            &format!(" -a \"(__fish_complete_list {} {f})\"", l.delimiter),
        );
        if s.len() != before {
            s.push_str(&format!(
                "\nfunction {f}\n    printf '%s\\n' {}\nend\n",
                l.values.join(" ")
            ));
        }
    }
    s
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
    fn every_subcommand_and_long_option_is_in_every_script() {
        fn walk(c: &Command, s: &str, shell: Shell) {
            for sub in c.get_subcommands() {
                assert!(s.contains(sub.get_name()), "{shell:?}: {}", sub.get_name());
                walk(sub, s, shell);
            }
            for a in c.get_arguments().filter(|a| !a.is_hide_set()) {
                if let Some(l) = a.get_long() {
                    assert!(s.contains(l), "{shell:?}: {} --{l}", c.get_name());
                }
            }
        }
        let c = built();
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
            walk(&c, &script(shell, &c), shell);
        }
    }

    #[test]
    fn status_groups_and_format_values_are_completed() {
        let c = built();
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
            let s = script(shell, &c);
            for st in crate::model::history::Status::ALL {
                assert!(s.contains(st.as_str()), "{shell:?}: {}", st.as_str());
            }
            for v in ["open", "landed", "closed", "md", "csv", "html", "mail"] {
                assert!(s.contains(v), "{shell:?}: {v}");
            }
        }
    }

    /// The rewrite found what it looks for in the crate's output: every
    /// delimited list is completed item by item in every shell.
    #[test]
    fn every_delimited_list_is_rewritten() {
        let c = built();
        let lists = lists(&c);
        let values = |name: &str| {
            lists
                .iter()
                .find(|l| l.value_name == name)
                .unwrap_or_else(|| panic!("{name}: {lists:?}"))
                .values
                .join(" ")
        };
        for name in ["STATUS", "SCOPE"] {
            let words = values(name);
            let bash = script(Shell::Bash, &c);
            assert!(
                bash.contains(&format!("compgen -P \"${{pre}}\" -W \"{words}\"")),
                "bash {name}"
            );
            assert!(
                !bash.contains(&format!("compgen -W \"{words}\" -- \"${{cur}}\"")),
                "bash {name}: a whole-word completion is left"
            );
            let zsh = script(Shell::Zsh, &c);
            assert!(
                zsh.contains(&format!(":{name}:_sequence -s , compadd - {words}'")),
                "zsh {name}"
            );
            assert!(!zsh.contains(&format!(":{name}:({words})")), "zsh {name}");
        }
        let fish = script(Shell::Fish, &c);
        for (k, _) in lists.iter().enumerate() {
            let f = format!("__fish_regtrack_values_{k}");
            assert!(
                fish.contains(&format!("(__fish_complete_list , {f})")),
                "{f}"
            );
            assert!(fish.contains(&format!("function {f}\n")), "{f}");
        }
        assert!(
            !fish.contains("fix-applied\\t''"),
            "fish: a whole-word list is left"
        );
        assert!(script(Shell::Bash, &c).contains("prev=\"${COMP_WORDS[COMP_CWORD-2]}\""));
    }
}
