//! Reproducer command lines (grammar: `grammar/evidence-reproducer.md`):
//! `mkfs.xfs ...`, `mount ...`, `xfs_io ...`, `dd ...`, `fio ...`, the robot's
//! `bin/lkp run job.yaml` and similar, with a leading `# ` or `$ ` prompt
//! removed. A line counts when its program is a known one and it is prompted, or
//! carries an argument that looks like one (`-f`, `/dev/x`, `bs=4096`, `x.yaml`).

use super::BodyView;
use crate::model::Reproducer;

/// Programs whose command lines are taken as reproducers.
pub const PROGRAMS: [&str; 35] = [
    "make.cross",
    "mkfs",
    "mke2fs",
    "mount",
    "umount",
    "xfs_io",
    "xfs_repair",
    "xfs_db",
    "xfs_growfs",
    "dd",
    "fio",
    "fs_mark",
    "fsmark",
    "stress-ng",
    "perf",
    "bin/lkp",
    "./bin/lkp",
    "lkp",
    "losetup",
    "sysctl",
    "numactl",
    "taskset",
    "hackbench",
    "sysbench",
    "filebench",
    "dbench",
    "tbench",
    "iozone",
    "bonnie++",
    "blktrace",
    "trace-cmd",
    "fallocate",
    "truncate",
    "mdadm",
    "modprobe",
];

/// Programs whose lines count only behind a prompt.
const PROMPT_ONLY: [&str; 4] = ["echo", "cat", "time", "git"];

/// `COMPILER=gcc-12` and the like in front of a command (`VAR=value`).
fn is_assignment(word: &str) -> bool {
    // A name starts with a capital or `_` (most words fail here).
    if !word
        .as_bytes()
        .first()
        .is_some_and(|&b| b.is_ascii_uppercase() || b == b'_')
    {
        return false;
    }
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
                && name
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        }
        None => false,
    }
}

/// ```text
/// prompt := ("# " | "$ ")
/// command := ws* prompt? (("sudo" | assignment) ws+)* program (ws+ arg)*
/// assignment := upper (upper | digit | "_")* "=" value
/// ```
/// Returns the command without its prompt (and without a trailing `# comment`
/// after two or more spaces), or `None` when the line is no command.
pub fn command(text: &str) -> Option<String> {
    let t = crate::text::trim(text);
    // Cheap rejection: the program (after an optional prompt and sudo) must be
    // one of the known ones.
    let mut w = t.split_ascii_whitespace();
    let mut head = w.next()?;
    if head == "#" || head == "$" {
        head = w.next()?;
    }
    while head == "sudo" || is_assignment(head) {
        head = w.next()?;
    }
    let head_program = memchr::memchr(b'.', head.as_bytes())
        .and_then(|p| head.get(..p))
        .unwrap_or(head);
    // Every line's first word is looked up: a table of the programs' first
    // bytes turns most prose away, then one hash probe (two for `prog.ext`),
    // not a comparison with every program.
    static KNOWN: std::sync::LazyLock<hashbrown::HashSet<&'static str>> =
        std::sync::LazyLock::new(|| PROGRAMS.iter().chain(PROMPT_ONLY.iter()).copied().collect());
    static FIRST_BYTES: std::sync::LazyLock<[bool; 256]> = std::sync::LazyLock::new(|| {
        let mut t = [false; 256];
        for p in KNOWN.iter() {
            if let Some(&b) = p.as_bytes().first() {
                t[usize::from(b)] = true;
            }
        }
        t
    });
    let first_byte = head.as_bytes().first().map_or(0, |&b| usize::from(b));
    if !FIRST_BYTES.get(first_byte).copied().unwrap_or(false)
        || (!KNOWN.contains(head)
            && (head_program.len() == head.len() || !KNOWN.contains(head_program)))
    {
        return None;
    }
    let (prompted, body) = match t.strip_prefix("# ").or_else(|| t.strip_prefix("$ ")) {
        Some(b) => (true, b.trim_start()),
        None => (false, t),
    };
    let body = match body.find(" # ").or_else(|| body.find("\t#")) {
        Some(p) => body.get(..p).unwrap_or(body).trim_end(),
        None => body,
    };
    let mut words = body.split_whitespace();
    let mut first = words.next()?;
    while first == "sudo" || is_assignment(first) {
        first = words.next()?;
    }
    // `mkfs.xfs: Inode allocation failed` is a program's message, not a command.
    if first.ends_with(':') {
        return None;
    }
    let program = first.split_once('.').map_or(first, |(p, _)| p);
    let known = PROGRAMS.iter().any(|p| *p == first || *p == program);
    let prompt_only = PROMPT_ONLY.contains(&first);
    if !(known || (prompted && prompt_only)) {
        return None;
    }
    let args: Vec<&str> = words.collect();
    let arg_like = args.iter().any(|a| {
        a.starts_with('-')
            || a.starts_with('/')
            || a.contains('=')
            || a.ends_with(".yaml")
            || a.starts_with('"')
    });
    let lkp = first.ends_with("bin/lkp") && !args.is_empty();
    // Prose such as "mount the disk, then" is not a command.
    let prose = body.ends_with(['.', ':', ',']) && !prompted;
    ((prompted && !args.is_empty()) || ((arg_like || lkp) && !prose))
        .then(|| crate::text::fold_ws(body))
}

/// Reproducer commands of a body's lines, skipping diff lines.
pub fn reproducers_in(view: &BodyView<'_>, in_diff: &[bool]) -> Vec<Reproducer> {
    let mut out: Vec<Reproducer> = Vec::new();
    for (i, line) in view.lines.iter().enumerate() {
        if in_diff.get(i).copied().unwrap_or(false) {
            continue;
        }
        if let Some(c) = command(line.text) {
            if !out
                .iter()
                .any(|r| r.command == c && r.quote_depth == line.depth)
            {
                out.push(Reproducer {
                    command: c,
                    quote_depth: line.depth,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_are_removed_and_arguments_kept() {
        assert_eq!(
            command("# mkfs.xfs -f -d size=48g /dev/vdc").as_deref(),
            Some("mkfs.xfs -f -d size=48g /dev/vdc")
        );
        assert_eq!(
            command("$ xfs_io -f -c \"pwrite 0 47g\" /mnt/scratch/fooey").as_deref(),
            Some("xfs_io -f -c \"pwrite 0 47g\" /mnt/scratch/fooey")
        );
        assert_eq!(
            command("  dd bs=4096 count=$((12*1024*1024)) if=/dev/zero of=bigfile").as_deref(),
            Some("dd bs=4096 count=$((12*1024*1024)) if=/dev/zero of=bigfile")
        );
    }

    #[test]
    fn the_robot_lkp_lines_lose_their_comments() {
        assert_eq!(
            command("        sudo bin/lkp install job.yaml           # job file is attached")
                .as_deref(),
            Some("sudo bin/lkp install job.yaml")
        );
        assert_eq!(
            command("bin/lkp run job.yaml").as_deref(),
            Some("bin/lkp run job.yaml")
        );
    }

    #[test]
    fn prose_and_config_comments_are_not_commands() {
        assert_eq!(command("mount the disk and run it."), None);
        assert_eq!(command("# CONFIG_XFS_WARN is not set"), None);
        assert_eq!(command("perf is fine"), None);
        assert_eq!(command("echo 3 > /proc/sys/vm/drop_caches"), None);
        assert!(command("# echo 3 > /proc/sys/vm/drop_caches").is_some());
    }
}
