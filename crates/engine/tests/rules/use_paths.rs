//! Reading a Rust file's imports from its text, for the layering checks of
//! both crates (the engine's `tests/rules/layering.rs` and the page's
//! `src/layering.rs`, which includes this file by its path): one parser, so the
//! two crates' layering is judged by the same reading of a `use` line.
//!
//! It reads the code without comments and without the test module that ends a
//! file (tests may reach anything), and every path after `crate::`, `super::`
//! or another root, `use` groups (`{a::B, c::{D, E}}`) spelled out, a group
//! running over several lines included.

use std::collections::BTreeSet;

/// `text` without the test module that ends a file.
pub fn without_tests(text: &str) -> String {
    let mut out = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|l| l.trim_start().starts_with("mod "))
        {
            break;
        }
        out.push(line);
    }
    out.join("\n")
}

/// `text` without comments and without the test module that ends a file.
pub fn code_of(text: &str) -> String {
    without_tests(text)
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path a `use` tree starting at `rest` names (`{a::B, c::{D, E}}` →
/// `a::B`, `c::D`, `c::E`), with `prefix` before each.
pub fn expand(prefix: &str, rest: &str, out: &mut Vec<String>) {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 0;
        let mut item = String::new();
        for c in group.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(prefix, &std::mem::take(&mut item), out);
                    continue;
                }
                _ => {}
            }
            item.push(c);
        }
        expand(prefix, &item, out);
        return;
    }
    let head: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
        .collect();
    let head = head.trim_end_matches(':');
    if head.is_empty() {
        return;
    }
    let after = &rest[head.len()..];
    if let Some(tail) = after.strip_prefix("::").filter(|t| t.starts_with('{')) {
        expand(&join(prefix, head), tail, out);
    } else {
        out.push(join(prefix, head));
    }
}

/// `base::path`, either side possibly empty.
pub fn join(base: &str, path: &str) -> String {
    match (base.is_empty(), path.is_empty()) {
        (true, _) => path.to_string(),
        (_, true) => base.to_string(),
        _ => format!("{base}::{path}"),
    }
}

/// The paths a file's code names after `root::` (`crate`, `engine`, `yew` …),
/// each with the line it sits on.
pub fn paths_after(code: &str, root: &str) -> Vec<(String, String)> {
    let needle = format!("{root}::");
    let mut out = Vec::new();
    let mut offset = 0;
    for line in code.lines() {
        let line_start = offset;
        offset += line.len() + 1;
        for (i, _) in line.match_indices(&needle) {
            let before = line[..i].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut found = Vec::new();
            // A group may run over several lines: read on from here.
            let start = line_start + i + needle.len();
            expand("", &code[start..], &mut found);
            out.extend(found.into_iter().map(|p| (p, line.trim().to_string())));
        }
    }
    out
}

/// The crate-absolute path of `path`, named after `super::` in a module whose
/// parent is `parent` (`super::super::x`: one module up per `super`); after
/// `crate::`, `parent` is empty.
pub fn absolute(parent: &str, path: &str) -> String {
    let (mut base, mut path) = (parent, path);
    while let Some(rest) = path.strip_prefix("super::") {
        base = base.rsplit_once("::").map_or("", |(p, _)| p);
        path = rest;
    }
    join(base, path)
}

/// The longest module of `mods` that `path` (`a::b::C`) names.
pub fn resolve(path: &str, mods: &BTreeSet<String>) -> Option<String> {
    let segs: Vec<&str> = path.split("::").collect();
    (1..=segs.len())
        .rev()
        .map(|n| segs[..n].join("::"))
        .find(|m| mods.contains(m))
}

/// The modules of `mods` the code of module `module` imports through
/// `crate::` and `super::` paths, each with the line it is on. A parent and its
/// own submodules are one room and may refer to each other; the crate root
/// neither counts nor is counted.
pub fn imports_of(
    module: &str,
    code: &str,
    mods: &BTreeSet<String>,
) -> std::collections::BTreeMap<String, String> {
    let under = |m: &str, p: &str| m == p || m.starts_with(&format!("{p}::"));
    let parent = module.rsplit_once("::").map_or("", |(p, _)| p);
    let mut deps = std::collections::BTreeMap::new();
    for (root, base) in [("crate", ""), ("super", parent)] {
        for (path, line) in paths_after(code, root) {
            if let Some(t) = resolve(&absolute(base, &path), mods) {
                let related = under(module, &t) || under(&t, module);
                if !related && !t.is_empty() && !module.is_empty() {
                    deps.entry(t).or_insert(line);
                }
            }
        }
    }
    deps
}
