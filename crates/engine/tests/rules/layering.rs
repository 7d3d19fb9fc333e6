//! The engine's modules form no import circle: a file never depends, through the
//! `crate::…` / `super::…` paths of its code, on a file that depends on it, so each
//! Flink rule can be read and tested below its users (`restore` below `world`, the
//! shared-state registry below `restore`, validation below `world`). A parent module
//! and its own submodules are one room and may refer to each other. Comments are not
//! code; a circle fails with the files that form it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

// One parser of `use` lines for both crates' layering checks (the page's
// `src/layering.rs` includes the same file).
#[path = "use_paths.rs"]
mod use_paths;

/// Module path (`world::failover`, `` for the crate root) → file.
fn modules() -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("src readable") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files
        .into_iter()
        .filter(|p| !p.starts_with(src.join("bin")))
        .map(|p| {
            let rel = p.strip_prefix(&src).unwrap().with_extension("");
            let mut m = rel.to_string_lossy().replace('/', "::");
            for suffix in ["::mod", "lib"] {
                if let Some(s) = m.strip_suffix(suffix) {
                    m = s.to_string();
                }
            }
            (m, p)
        })
        .collect()
}

/// The modules each module's code refers to (the code read as the page's
/// layering check reads it: comments and the trailing test module aside).
fn edges(mods: &BTreeMap<String, PathBuf>) -> BTreeMap<String, BTreeSet<String>> {
    let names: BTreeSet<String> = mods.keys().cloned().collect();
    mods.iter()
        .map(|(m, p)| {
            let code = use_paths::code_of(&std::fs::read_to_string(p).expect("readable"));
            let deps = use_paths::imports_of(m, &code, &names);
            (m.clone(), deps.into_keys().collect())
        })
        .collect()
}

#[test]
fn no_import_circles_in_the_engine() {
    let mods = modules();
    let graph = edges(&mods);
    // Depth-first search for a path back to where it started.
    fn back_to(
        start: &str,
        at: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        seen: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> bool {
        for next in &graph[at] {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if back_to(start, next, graph, seen, path) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    for m in graph.keys() {
        let mut path = vec![m.clone()];
        if back_to(m, m, &graph, &mut BTreeSet::new(), &mut path) {
            panic!("import circle: {} -> {m}", path.join(" -> "));
        }
    }
    // The three layerings named above, and that the scan sees real dependencies at all.
    assert!(!graph["restore"].contains("world"));
    assert!(!graph["state::shared_registry"].contains("restore"));
    assert!(!graph["scenario::validate"].contains("world"));
    assert!(
        graph["world"].contains("coordinator"),
        "{:?}",
        graph["world"]
    );
    assert!(graph["summary"].contains("world"));
}

/// The tools on top of the engine (`lib.rs`: the face's tools) and the page's
/// boundary: no internal rule refers to them, so they can change without touching
/// a rule, and a rule is tested without them.
#[test]
fn internals_never_reach_up_to_the_tools_or_the_view() {
    let mods = modules();
    let graph = edges(&mods);
    let above = [
        "runner", "export", "bench", "drill", "verdict", "soak", "view",
    ];
    let is_above = |m: &str| {
        above
            .iter()
            .any(|t| m == *t || m.starts_with(&format!("{t}::")))
    };
    for (m, deps) in &graph {
        if m.is_empty() || is_above(m) {
            continue;
        }
        let up: Vec<&String> = deps.iter().filter(|d| is_above(d)).collect();
        assert!(up.is_empty(), "{m} (an internal rule) refers to {up:?}");
    }
    // The world's two paths are files of one room, below the view.
    for path in ["world::data_path", "world::checkpoint_path"] {
        assert!(graph.contains_key(path), "{path} exists");
    }
    assert!(graph["view"].contains("world"));
}

/// The modules `lib.rs` declares: its `internal!(…)` list, its `mod` lines and its
/// inline modules.
fn declared_modules() -> BTreeSet<String> {
    let lib = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("lib.rs readable");
    let code: Vec<&str> = lib
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect();
    let mut out = BTreeSet::new();
    let mut in_list = false;
    for line in code {
        let t = line.trim();
        if t.starts_with("internal!(") {
            in_list = true;
            continue;
        }
        if in_list {
            if t.starts_with(')') {
                in_list = false;
            } else {
                out.insert(t.trim_end_matches(',').to_string());
            }
            continue;
        }
        // Top-level `mod x;`, `pub mod x;`, `pub mod x {` (not the macro's `$name`).
        if line.starts_with("mod ") || line.starts_with("pub mod ") {
            let name: String = t
                .trim_start_matches("pub ")
                .trim_start_matches("mod ")
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.insert(name);
        }
    }
    out
}

/// The modules the engine's code map in `docs/architecture.md` lists: the first
/// `name` of each row of the table under "### `crates/engine/`" (`world/` and
/// `world` alike), the `bin/` row aside.
fn mapped_modules() -> Vec<String> {
    let doc = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/architecture.md"),
    )
    .expect("docs/architecture.md readable");
    let section = doc
        .split("### `crates/engine/`")
        .nth(1)
        .expect("the engine's code map")
        .split("\n### ")
        .next()
        .unwrap_or("");
    section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| l.split('`').nth(1))
        .map(|m| m.trim_end_matches('/').to_string())
        .filter(|m| !m.starts_with("bin"))
        .collect()
}

/// One module list: the code map names each module `lib.rs` declares exactly once,
/// and nothing else.
#[test]
fn the_code_map_lists_exactly_the_modules_lib_rs_declares() {
    let declared = declared_modules();
    let mapped = mapped_modules();
    let mut seen = BTreeSet::new();
    for m in &mapped {
        assert!(seen.insert(m.clone()), "the code map lists {m} twice");
    }
    let missing: Vec<_> = declared.difference(&seen).collect();
    let extra: Vec<_> = seen.difference(&declared).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "docs/architecture.md's code map misses {missing:?} and lists {extra:?}, which lib.rs does not declare"
    );
    assert!(declared.len() > 25 && declared.contains("world") && declared.contains("trace"));
}
