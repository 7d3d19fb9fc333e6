//! The page's layering, checked on its source: which modules may import the web
//! crates (yew, web-sys, wasm-bindgen, gloo, js-sys), which may reach which part
//! of the engine's face, which page modules may import which, and that no two
//! files of either crate import each other in a circle. Each check reads the
//! `use` lines and `crate::` / `super::` paths of every file's code (comments and
//! the trailing `#[cfg(test)]` module aside: tests may reach anything) and fails
//! naming the file and the import.
//!
//! The rules, highest first: `app` (the root) → `components` → `hooks` → the pure
//! modules (`scene`, `playback`, `labels`, `describe`, the tools' models). The
//! pure modules are tested natively and never see the browser; the view side
//! sees the engine only through its views, never a `World`, and measures no
//! text: the scene fits what the stage writes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

// The engine's layering test reads imports with the same parser.
#[path = "../crates/engine/tests/rules/use_paths.rs"]
mod use_paths;

use use_paths::{code_of, imports_of, paths_after, without_tests};

/// The crates that tie a module to the browser.
const WEB_CRATES: [&str; 6] = [
    "yew",
    "web_sys",
    "wasm_bindgen",
    "wasm_bindgen_futures",
    "gloo",
    "js_sys",
];

/// The modules that may import a web crate (a module and its submodules): the
/// components and their root, the hooks, the browser page outside the app, the
/// lesson data's fetching, and the tools' panels. Everything else is pure.
const WEB_MODULES: [&str; 18] = [
    "main",
    "app",
    "components",
    "hooks",
    "document",
    "panic",
    "data",
    "engine_speed",
    "first_frame",
    "lessons::bar",
    "lessons::form",
    "drill",
    "compare::chart",
    // Reading and writing the share link in the address bar (its submodule
    // `share::qr` is pure).
    "share",
    // The reducer's `yew::Reducible` glue; nothing else of yew (see below).
    "playback::reducer",
    // The presenter window, the projector's view and the channel between them
    // (a `BroadcastChannel`).
    "presenter",
    // A live class: the server's stream, following, the votes (its parent
    // `classroom`, the messages, is pure).
    "classroom::live",
    "classroom::view",
];

/// What of the engine's face the view side (`app`, `components`, `hooks`) may
/// name: the views it draws, the trace, the scenario document, the verdicts and
/// the bench it shows, and the interventions it sends. Never a `World`, a
/// `Timeline` or the runner: playback owns the simulation.
const VIEW_SIDE_ENGINE: [&str; 9] = [
    "view",
    "Scenario",
    "trace",
    "scenario",
    "verdict",
    "bench",
    "Intervention",
    "JobStatus",
    "TaskStatus",
];

/// One page module's import rule: modules under `from` must not import modules
/// under any of `not`.
struct Rule {
    from: &'static str,
    not: &'static [&'static str],
    why: &'static str,
}

const RULES: [Rule; 6] = [
    Rule {
        from: "components",
        not: &["app"],
        why: "a component is handed what it shows; only the root wires them",
    },
    Rule {
        from: "hooks",
        not: &["app", "components"],
        why: "the hooks sit below every component",
    },
    Rule {
        from: "scene",
        not: &["app", "components", "hooks", "playback"],
        why: "the scene is pure layout from views and a time",
    },
    Rule {
        from: "playback",
        not: &["app", "components", "hooks", "scene", "labels", "describe"],
        why: "playback owns the simulation and knows nothing of drawing or wording",
    },
    Rule {
        from: "labels",
        not: &["app", "components", "hooks", "scene"],
        why: "labels only name enum values",
    },
    Rule {
        from: "share",
        not: &["app", "components", "hooks", "scene"],
        why: "a share link is the run's recipe, not its picture",
    },
];

/// The pure modules (see [`WEB_MODULES`]) never import the view side, except
/// these pairs, each a pure function kept beside the panel that shows it.
const PURE_EXCEPTIONS: [(&str, &str); 1] = [
    // The sink panel's meter lines are the sentences the truth audit compares.
    ("describe::truth", "components::sink_panel"),
];

/// A source file: its module path (`scene::layout`, `` for the crate root) and
/// its code without comments and without its trailing test module.
struct File {
    module: String,
    path: PathBuf,
    code: String,
    /// The text before the test module, comments kept (for [`functions`]).
    text: String,
}

fn files(src: &Path) -> Vec<File> {
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
    let mut paths = Vec::new();
    walk(src, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .filter(|p| !p.starts_with(src.join("bin")))
        // A test module of its own file (`phase_timeline/tests.rs`).
        .filter(|p| p.file_name().is_none_or(|n| n != "tests.rs"))
        .map(|p| {
            let rel = p.strip_prefix(src).expect("under src").with_extension("");
            let mut module = rel.to_string_lossy().replace('/', "::");
            for root in ["lib", "mod"] {
                if module == root {
                    module.clear();
                }
                if let Some(m) = module.strip_suffix(&format!("::{root}")) {
                    module = m.to_string();
                }
            }
            let text = std::fs::read_to_string(&p).expect("readable");
            File {
                module,
                path: p,
                code: code_of(&text),
                text: without_tests(&text),
            }
        })
        .collect()
}

/// Whether `module` is `prefix` or one of its submodules.
fn under(module: &str, prefix: &str) -> bool {
    module == prefix || module.starts_with(&format!("{prefix}::"))
}

/// Each module's imports of the crate's other modules, with the line each is on.
/// A parent and its own submodules are one room and may refer to each other.
fn imports(files: &[File]) -> BTreeMap<String, BTreeMap<String, String>> {
    let mods: BTreeSet<String> = files.iter().map(|f| f.module.clone()).collect();
    files
        .iter()
        .map(|f| (f.module.clone(), imports_of(&f.module, &f.code, &mods)))
        .collect()
}

/// The circles among `graph`'s modules: each set of two or more modules that
/// reach each other.
fn circles(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<Vec<String>> {
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for next in graph.get(&m).into_iter().flat_map(|d| d.keys()) {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for (m, r) in &reached {
        if !r.contains(*m) {
            continue;
        }
        let circle: Vec<String> = r
            .iter()
            .filter(|o| reached[o].contains(*m))
            .cloned()
            .collect();
        if !out.contains(&circle) {
            out.push(circle);
        }
    }
    out
}

fn page() -> Vec<File> {
    files(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src"))
}

fn engine() -> Vec<File> {
    files(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src"))
}

fn name(f: &File) -> String {
    f.path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(&f.path)
        .display()
        .to_string()
}

/// The import circles of a crate, spelled with an import line of each module.
fn circle_report(files: &[File]) -> Vec<String> {
    let graph = imports(files);
    circles(&graph)
        .into_iter()
        .map(|c| {
            let steps: Vec<String> = c
                .iter()
                .map(|m| {
                    let next = graph[m]
                        .iter()
                        .find(|(t, _)| c.contains(t))
                        .map_or(String::new(), |(t, line)| format!(" -> {t} ({line})"));
                    format!("{m}{next}")
                })
                .collect();
            steps.join("; ")
        })
        .collect()
}

#[test]
fn no_import_circle_in_the_page_or_the_engine() {
    for (krate, files) in [("src/", page()), ("crates/engine/src/", engine())] {
        let report = circle_report(&files);
        assert!(
            report.is_empty(),
            "import circles in {krate}:\n{}",
            report.join("\n")
        );
        // The scan sees real imports at all.
        let graph = imports(&files);
        assert!(graph.values().map(BTreeMap::len).sum::<usize>() > 100);
    }
    let graph = imports(&page());
    assert!(graph["playback::reducer"].contains_key("playback::actions"));
    assert!(graph["playback::actions"].contains_key("playback::state"));
    assert!(graph["scene::placement"].contains_key("scene::geometry"));
}

#[test]
fn the_circle_check_finds_a_planted_circle() {
    let file = |module: &str, code: &str| File {
        module: module.to_string(),
        path: PathBuf::from(format!("{module}.rs")),
        code: code_of(code),
        text: without_tests(code),
    };
    let files = [
        file("a", "use crate::b::{self, X};\n"),
        file("b", "use crate::{c::Y, d};\n"),
        file("c", "fn f() { super::a::go() }\n"),
        file("d", "// use crate::a;\n"),
        file("a::inner", "use super::super::a;\n"),
    ];
    let report = circle_report(&files);
    assert_eq!(report.len(), 1, "{report:?}");
    assert!(
        report[0].starts_with("a -> b (use crate::b::{self, X};)"),
        "{report:?}"
    );
    assert!(report[0].contains("c -> a"), "{report:?}");
    let graph = imports(&files);
    assert_eq!(
        circles(&graph),
        [["a", "b", "c"]],
        "d is outside the circle"
    );
    assert!(graph["d"].is_empty(), "a comment is no import: {graph:?}");
    assert!(graph["a::inner"].is_empty(), "a parent is no import");
}

#[test]
fn only_the_view_side_imports_a_web_crate() {
    let mut wrong = Vec::new();
    for f in page() {
        let may = WEB_MODULES.iter().any(|w| under(&f.module, w)) && f.module != "share::qr";
        for krate in WEB_CRATES {
            for (path, line) in paths_after(&f.code, krate) {
                let glue = f.module == "playback::reducer" && krate == "yew" && path == "Reducible";
                if (!may || f.module == "playback::reducer") && !glue {
                    wrong.push(format!("{}: {krate}::{path} ({line})", name(&f)));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "a pure module imports a web crate:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_view_side_reaches_the_engine_only_through_its_views() {
    let mut wrong = Vec::new();
    for f in page() {
        if !["app", "components", "hooks"]
            .iter()
            .any(|v| under(&f.module, v))
        {
            continue;
        }
        for (path, line) in paths_after(&f.code, "engine") {
            let first = path.split("::").next().unwrap_or("");
            if !VIEW_SIDE_ENGINE.contains(&first) {
                wrong.push(format!("{}: engine::{path} ({line})", name(&f)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the view side reaches past the engine's views:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn page_modules_import_only_below_them() {
    let files = page();
    let graph = imports(&files);
    let mut wrong = Vec::new();
    for f in &files {
        for (target, line) in &graph[&f.module] {
            for rule in RULES.iter().filter(|r| under(&f.module, r.from)) {
                if rule.not.iter().any(|n| under(target, n)) {
                    wrong.push(format!("{}: {line} ({})", name(f), rule.why));
                }
            }
            let pure = !WEB_MODULES.iter().any(|w| under(&f.module, w)) || f.module == "share::qr";
            let view_side = ["app", "components", "hooks"]
                .iter()
                .any(|v| under(target, v));
            let excepted = PURE_EXCEPTIONS
                .iter()
                .any(|(a, b)| f.module == *a && under(target, b));
            if pure && view_side && !excepted {
                wrong.push(format!(
                    "{}: {line} (a pure module imports the view side)",
                    name(f)
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The scan sees the rules' subjects at all.
    assert!(graph["app"].contains_key("components"));
    assert!(graph["components::stage"].contains_key("scene"));
}

/// What the stage writes is placed by the scene, never by a component: only
/// `scene` measures text (`text_width`), so a lane's rows, badges and labels are
/// fitted where the layout that sizes the lanes can see them.
#[test]
fn only_the_scene_measures_text() {
    let files = page();
    let measuring: Vec<String> = files
        .iter()
        // This file names it only to look for it.
        .filter(|f| !under(&f.module, "scene") && f.module != "layering")
        .filter(|f| f.code.contains("text_width"))
        .map(name)
        .collect();
    assert!(
        measuring.is_empty(),
        "text measured outside the scene (move the fitting into scene::text_fit):\n{}",
        measuring.join("\n")
    );
    // The scan sees the scene's own measuring.
    assert!(files
        .iter()
        .any(|f| f.module == "scene::text_fit" && f.code.contains("text_width")));
}

/// Files whose public functions may still answer `Result<_, String>`: none.
const RESULT_STRING_KEPT: [&str; 0] = [];

/// The signatures (from `fn` to the body or the `;`) of the public functions in
/// `code`: `pub fn`, `pub async fn`, `pub const fn`; not `pub(crate)` and the like.
fn public_signatures(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("pub ") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + 4..];
        let rest = rest.trim_start();
        let rest = ["async ", "const ", "unsafe "]
            .iter()
            .fold(rest, |r, q| r.strip_prefix(q).unwrap_or(r).trim_start());
        let Some(sig) = rest.strip_prefix("fn ") else {
            continue;
        };
        let mut depth = 0i32;
        let end = sig
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '(' | '[' => depth += 1,
                    ')' | ']' => depth -= 1,
                    _ => {}
                }
                depth == 0 && (c == '{' || c == ';')
            })
            .map_or(sig.len(), |(i, _)| i);
        out.push(sig[..end].split_whitespace().collect::<Vec<_>>().join(" "));
    }
    out
}

/// Whether `sig` names a `Result` whose error type is `String`.
fn has_string_error(sig: &str) -> bool {
    // `->` is no closing bracket.
    let sig = sig.replace("->", "→");
    sig.match_indices("Result<").any(|(at, m)| {
        let mut depth = 0;
        let mut last = String::new();
        for c in sig[at + m.len()..].chars() {
            match c {
                '<' | '(' | '[' => depth += 1,
                '>' | ')' | ']' if depth == 0 => return last.trim() == "String",
                '>' | ')' | ']' => depth -= 1,
                ',' if depth == 0 => {
                    last.clear();
                    continue;
                }
                _ => {}
            }
            last.push(c);
        }
        false
    })
}

/// Every public boundary answers a typed error (an enum with its own `Display`,
/// as the engine's), never a bare `String`; and no function takes so many
/// arguments that clippy must be told to allow it.
#[test]
fn public_functions_have_typed_errors_and_few_arguments() {
    let mut wrong = Vec::new();
    let mut seen = 0;
    // This file spells both only to look for them.
    for f in page()
        .iter()
        .chain(engine().iter())
        .filter(|f| f.module != "layering")
    {
        let file = name(f);
        if f.code.contains("too_many_arguments") {
            wrong.push(format!("{file}: allow(clippy::too_many_arguments)"));
        }
        for sig in public_signatures(&f.code) {
            seen += 1;
            if has_string_error(&sig) && !RESULT_STRING_KEPT.contains(&file.as_str()) {
                wrong.push(format!("{file}: pub fn {sig}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "give these an error type of their own (Display + std::error::Error):\n{}",
        wrong.join("\n")
    );
    assert!(seen > 500, "the scan sees the public functions ({seen})");
}

#[test]
fn a_string_error_is_found_wherever_it_sits_in_a_signature() {
    let sigs = public_signatures(
        "pub fn a(x: u8) -> Result<(), String> { }\n\
         pub(crate) fn b() -> Result<(), String> { }\n\
         pub async fn c() -> Result<Option<Vec<u8>>, String> { }\n\
         pub fn d(f: Callback<(String, Result<String, String>)>) { }\n\
         pub fn e() -> Result<String, MyError> { }\n\
         pub fn g<F: Fn() -> u8>(f: F) -> Result<Box<dyn Fn() -> u8>, Error> { }\n\
         pub fn h() -> Option<Result<Recipe, String>>;\n",
    );
    let flagged: Vec<bool> = sigs.iter().map(|s| has_string_error(s)).collect();
    assert_eq!(sigs.len(), 6, "{sigs:?}");
    assert_eq!(flagged, [true, true, true, false, false, true], "{sigs:?}");
}

/// The longest a function outside tests may be, in lines from `fn` to its
/// closing brace: past it, a function holds more than one reader can keep in mind.
const MAX_FN_LINES: usize = 120;

/// Each function of `code` with a body: its name, first line (1-based) and
/// length in lines. Braces inside string and character literals are skipped.
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let bytes = code.as_bytes();
    let line_of = |i: usize| code[..i].matches('\n').count() + 1;
    let mut out = Vec::new();
    for (at, _) in code.match_indices("fn ") {
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let name: String = code[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        // The body's `{`: the first outside parentheses and brackets, unless a
        // `;` ends a declaration first.
        let mut depth = 0i32;
        let mut open = None;
        for (i, &b) in bytes.iter().enumerate().skip(at) {
            match b {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b';' if depth == 0 => break,
                b'{' if depth == 0 => {
                    open = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let mut depth = 0;
        let mut i = open;
        while i < bytes.len() {
            match bytes[i] {
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                b'r' if bytes.get(i + 1) == Some(&b'#') && bytes.get(i + 2) == Some(&b'"') => {
                    i += 3;
                    while i + 1 < bytes.len() && !(bytes[i] == b'"' && bytes[i + 1] == b'#') {
                        i += 1;
                    }
                    i += 1;
                }
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 2,
                b'\'' if bytes.get(i + 1) == Some(&b'\\') => {
                    i += 2;
                    while i < bytes.len() && bytes[i] != b'\'' {
                        i += 1;
                    }
                }
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        let first = line_of(at);
        out.push((name, first, line_of(i.min(code.len())) - first + 1));
    }
    out
}

#[test]
fn no_function_outside_tests_is_over_the_bound() {
    let mut long = Vec::new();
    let mut seen = 0;
    for f in page().iter().chain(engine().iter()) {
        for (fun, line, lines) in functions(&f.text) {
            seen += 1;
            if lines > MAX_FN_LINES {
                long.push(format!("{}:{line}: fn {fun} is {lines} lines", name(f)));
            }
        }
    }
    assert!(
        long.is_empty(),
        "over {MAX_FN_LINES} lines:\n{}",
        long.join("\n")
    );
    assert!(seen > 1000, "the scan sees the functions ({seen})");
}

#[test]
fn function_lengths_are_counted_from_fn_to_its_closing_brace() {
    let code = without_tests(
        "fn a() {\n    let s = \"}\"; // \"{\n    let u = \"http://h/{\";\n    let c = '}';\n    if x { y }\n}\n\
         trait T { fn b(&self); }\n\
         pub fn c<F: Fn(u8)>(f: F) -> [u8; 2]\nwhere F: Copy,\n{\n    html! { <p>{ \"{\" }</p> }\n}\n\
         #[cfg(test)]\nmod tests {\n    fn long() {\n    }\n}\n",
    );
    let got = functions(&code);
    assert_eq!(
        got,
        [("a".to_string(), 1, 6), ("c".to_string(), 8, 5)],
        "{code}"
    );
}

/// The modules `src/lib.rs` declares (`mod x;`, `pub mod x;`, under a `cfg` or not).
fn declared_modules() -> BTreeSet<String> {
    let lib = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("src/lib.rs readable");
    code_of(&lib)
        .lines()
        .filter_map(|l| {
            l.strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("mod "))
        })
        .map(|l| l.trim_end_matches(';').trim().to_string())
        .collect()
}

/// The modules the page's code map in `docs/architecture.md` lists: the first
/// `name` of each row of the table under "### `src/`".
fn mapped_modules() -> Vec<String> {
    let doc = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"),
    )
    .expect("docs/architecture.md readable");
    let section = doc
        .split("### `src/`")
        .nth(1)
        .expect("the page's code map")
        .split("\n## ")
        .next()
        .unwrap_or("");
    section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| l.split('`').nth(1))
        .map(|m| m.trim_end_matches('/').to_string())
        .collect()
}

/// One module list: the page's code map names each module `lib.rs` declares
/// exactly once, and nothing else.
#[test]
fn the_page_code_map_lists_exactly_the_modules_lib_rs_declares() {
    let declared = declared_modules();
    let mut seen = BTreeSet::new();
    for m in mapped_modules() {
        assert!(
            seen.insert(m.clone()),
            "the page's code map lists {m} twice"
        );
    }
    let missing: Vec<_> = declared.difference(&seen).collect();
    let extra: Vec<_> = seen.difference(&declared).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "docs/architecture.md's page code map misses {missing:?} and lists {extra:?}, which src/lib.rs does not declare"
    );
    assert!(declared.len() > 15 && declared.contains("scene") && declared.contains("layering"));
}
