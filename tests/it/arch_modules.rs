//! The shape ARCHITECTURE.md promises, checked on the source: no import
//! circle between the modules of one parent anywhere in `src/` (a module
//! uses its siblings one way), and no function over 200 lines in the
//! linker (`src/link`) or the pipeline (`src/pipeline`).
//!
//! A module uses another when its code (comments, string literals and its
//! `#[cfg(test)]` module aside) names a path into it: a `use` line or a
//! path written out (`crate::store::links::...`, `super::draft::Draft`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Longest function allowed in the checked folders.
const MAX_FN_LINES: usize = 200;

/// Every module of the library under `src/`: its path (`["link",
/// "attach"]`; the crate root is `[]`) and its code, tests and comments
/// left out. The binaries (`main.rs`, `bin/`) are not modules of it.
fn modules(src: &Path) -> BTreeMap<Vec<String>, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            let rel = p.strip_prefix(src).unwrap();
            if p.is_dir() {
                if rel != Path::new("bin") {
                    stack.push(p);
                }
                continue;
            }
            if p.extension().is_none_or(|e| e != "rs") || rel == Path::new("main.rs") {
                continue;
            }
            let mut name: Vec<String> = rel
                .with_extension("")
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect();
            if matches!(name.last().map(String::as_str), Some("mod" | "lib")) {
                name.pop();
            }
            out.insert(name, code_of(&std::fs::read_to_string(&p).unwrap()));
        }
    }
    out
}

/// `text` without its `#[cfg(test)]` module, comments and string literals.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod ") {
        Some(i) => &text[..i],
        None => text,
    };
    let mut out = String::new();
    for line in text.lines() {
        let mut in_str = false;
        let mut escaped = false;
        let mut prev = ' ';
        for c in line.chars() {
            if in_str {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    in_str = false;
                    out.push('"');
                }
                continue;
            }
            if c == '/' && prev == '/' {
                out.pop();
                break;
            }
            if c == '"' {
                in_str = true;
            }
            out.push(c);
            prev = c;
        }
        out.push('\n');
    }
    out
}

/// The paths `code` names from `crate`, `super` or `self`, each as its
/// segments (`["super", "draft", "Draft"]`), `use` trees expanded.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    // `use` trees, braces expanded.
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = rest[..i].chars().last();
        rest = &rest[i + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let Some(end) = rest.find(';') else { break };
        let tree: String = rest[..end].chars().filter(|c| !c.is_whitespace()).collect();
        if ["crate", "super", "self"]
            .iter()
            .any(|r| tree.starts_with(r))
        {
            expand(&[], &tree, &mut out);
        }
    }
    // Paths written out.
    let bytes: Vec<char> = code.chars().collect();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < bytes.len() {
        if !ident(bytes[i]) || (i > 0 && (ident(bytes[i - 1]) || bytes[i - 1] == ':')) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < bytes.len()
            && (ident(bytes[j]) || (bytes[j] == ':' && bytes.get(j + 1) == Some(&':')))
        {
            j += if bytes[j] == ':' { 2 } else { 1 };
        }
        let path: String = bytes[i..j].iter().collect();
        let segs: Vec<String> = path.split("::").map(str::to_string).collect();
        if segs.len() > 1 && matches!(segs[0].as_str(), "crate" | "super") {
            out.push(segs);
        }
        i = j.max(i + 1);
    }
    out
}

/// Expands the `use` tree `tree` under `prefix` into its paths.
fn expand(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let Some(open) = tree.find('{') else {
        let mut p = prefix.to_vec();
        let path = tree.split(" as ").next().unwrap_or(tree);
        p.extend(
            path.split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string),
        );
        out.push(p);
        return;
    };
    let mut p = prefix.to_vec();
    p.extend(
        tree[..open]
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string),
    );
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut depth, mut start) = (0, 0);
    for (k, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand(&p, &inner[start..k], out);
                start = k + 1;
            }
            _ => {}
        }
    }
    if start < inner.len() {
        expand(&p, &inner[start..], out);
    }
}

/// The uses between sibling modules: parent -> (child -> children it uses).
type Uses = BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>>;

/// Which sibling modules each module uses, from the paths its code names.
fn sibling_uses(modules: &BTreeMap<Vec<String>, String>) -> Uses {
    let mut uses: Uses = BTreeMap::new();
    for (module, code) in modules {
        for path in named_paths(code) {
            let mut target: Vec<String> = module.clone();
            let mut segs = path.as_slice();
            match segs.first().map(String::as_str) {
                Some("crate") => {
                    target.clear();
                    segs = &segs[1..];
                }
                _ => {
                    while let Some(s) = segs.first() {
                        match s.as_str() {
                            "super" => {
                                target.pop();
                            }
                            "self" => {}
                            _ => break,
                        }
                        segs = &segs[1..];
                    }
                }
            }
            target.extend(segs.iter().cloned());
            // The module the path leads into: its longest prefix that is one.
            let Some(into) = (0..=target.len())
                .rev()
                .map(|k| target[..k].to_vec())
                .find(|t| modules.contains_key(t))
            else {
                continue;
            };
            let common = module.iter().zip(&into).take_while(|(a, b)| a == b).count();
            if common < module.len() && common < into.len() {
                uses.entry(module[..common].to_vec())
                    .or_default()
                    .entry(module[common].clone())
                    .or_default()
                    .insert(into[common].clone());
            }
        }
    }
    uses
}

/// A circle among the children of one parent, as `a -> b -> a`, if any.
fn circle(uses: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        uses: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(k) = path.iter().position(|p| p == m) {
            let mut c = path[k..].to_vec();
            c.push(m.to_string());
            return Some(c);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for n in uses.get(m).into_iter().flatten() {
            if let Some(c) = visit(n, uses, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    uses.keys()
        .find_map(|m| visit(m, uses, &mut Vec::new(), &mut done))
}

/// The functions of `code` longer than `max` lines: (name, first line, lines).
fn long_functions(code: &str, max: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let Some(at) = trimmed.find("fn ") else {
            continue;
        };
        let head = &trimmed[..at];
        let words_ok = head.split_whitespace().all(|w| {
            w == "pub" || w.starts_with("pub(") || ["const", "async", "unsafe"].contains(&w)
        });
        if !words_ok {
            continue;
        }
        let name: String = trimmed[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // A declaration without a body ends with `;`, a one-line body
        // with `}`, before any line ends with `{`.
        let Some(open) = (i..lines.len()).find(|&k| {
            let l = lines[k].trim_end();
            l.ends_with('{') || l.ends_with(';') || l.ends_with('}')
        }) else {
            continue;
        };
        if !lines[open].trim_end().ends_with('{') {
            continue;
        }
        let close = format!("{indent}}}");
        if let Some(end) = (open..lines.len()).find(|&k| lines[k].trim_end() == close) {
            let n = end - i + 1;
            if n > max {
                out.push((name, i + 1, n));
            }
        }
    }
    out
}

#[test]
fn no_module_uses_its_siblings_in_a_circle() {
    let src = crate::common::root().join("src");
    let modules = modules(&src);
    assert!(modules.contains_key(&vec!["link".to_string(), "attach".to_string()]));
    let uses = sibling_uses(&modules);
    // The layers are seen: the pipeline uses the store and the linker.
    let top = &uses[&Vec::new()];
    assert!(top["pipeline"].contains("store") && top["pipeline"].contains("link"));
    assert!(uses[&vec!["link".to_string()]]["finish"].contains("draft"));
    let circles: Vec<String> = uses
        .iter()
        .filter_map(|(parent, children)| {
            let c = circle(children)?;
            let at = if parent.is_empty() {
                "src".to_string()
            } else {
                format!("src/{}", parent.join("/"))
            };
            Some(format!("{at}: {}", c.join(" -> ")))
        })
        .collect();
    assert!(circles.is_empty(), "import circles: {circles:#?}");
}

#[test]
fn the_circle_finder_finds_a_circle_through_use_trees_and_written_paths() {
    let mut modules = BTreeMap::new();
    let m = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    modules.insert(m(&[]), String::new());
    modules.insert(m(&["a"]), String::new());
    modules.insert(
        m(&["a", "x"]),
        code_of("use super::{y::{One, Two as Three}, Other};\n// super::z::Comment\n"),
    );
    modules.insert(
        m(&["a", "y"]),
        code_of("fn f() { let s = \"super::x::InAString\"; crate::a::z::call(); }\n"),
    );
    modules.insert(
        m(&["a", "z"]),
        code_of("fn g() { super::x::call(); }\n#[cfg(test)]\nmod tests { use super::super::y; }\n"),
    );
    let uses = sibling_uses(&modules);
    let a = &uses[&m(&["a"])];
    assert_eq!(a["x"], BTreeSet::from(["y".to_string()]));
    assert_eq!(a["y"], BTreeSet::from(["z".to_string()]));
    assert_eq!(a["z"], BTreeSet::from(["x".to_string()]));
    let c = circle(a).expect("x -> y -> z -> x");
    assert_eq!(c.len(), 4, "{c:?}");
    assert_eq!(c.first(), c.last());
    let mut one_way = a.clone();
    one_way.remove("z");
    assert_eq!(circle(&one_way), None);
}

#[test]
fn no_function_of_the_linker_or_the_pipeline_is_over_200_lines() {
    let src = crate::common::root().join("src");
    let mut long = Vec::new();
    for dir in ["link", "pipeline"] {
        for entry in std::fs::read_dir(src.join(dir)).unwrap() {
            let p = entry.unwrap().path();
            let text = std::fs::read_to_string(&p).unwrap();
            for (name, line, n) in long_functions(&code_of(&text), MAX_FN_LINES) {
                long.push(format!("{}:{line}: {name} ({n} lines)", p.display()));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines: {long:#?}"
    );
    // The measure itself: a function of 203 lines is found, a declaration
    // without a body is not.
    let body = "    let x = 1;\n".repeat(201);
    let code = format!("fn decl();\npub(crate) fn big() {{\n{body}}}\nfn small() {{}}\n");
    assert_eq!(
        long_functions(&code, MAX_FN_LINES),
        vec![("big".to_string(), 2, 203)]
    );
}
