//! The Java side of the export: the fragment files (the classes every exported job
//! carries: source, functions, sinks, the runner), how they are filled in, and
//! Java literals.
//!
//! A fragment is Java text meant to sit inside the exported class. Markers:
//! - a line `//! …` documents the fragment and is dropped;
//! - a line `//@en …` or `//@zh …` is a comment in one language, kept (as `// …`)
//!   only in that language;
//! - a line ending in `//#observe` is kept only with the differential-test hooks
//!   on, one ending in `//#script` only when the scenario's script or `process_ms`
//!   needs the per-record hook (the marker itself is removed).

use super::Lang;
use crate::provided::{self, Table, UnknownFile};

/// Declares the fragments once: their names and, with the `builtins` feature,
/// their text, `java/<name>.java`.
macro_rules! fragments {
    ($($name:literal,)*) => {
        /// The fragments' names (`java/<name>.java`).
        pub const NAMES: &[&str] = &[$($name),*];

        /// The fragments, by name, compiled in (the `builtins` feature; the page
        /// fetches them when its Flink code tab first opens, see [`provide`]).
        #[cfg(feature = "builtins")]
        const FRAGMENTS: &[(&str, &str)] = &[
            $(($name, include_str!(concat!("../java/", $name, ".java")))),*
        ];
    };
}

fragments! {
    "Event",
    "ReplayableSource",
    "Map",
    "Filter",
    "KeyedValue",
    "KeyedReduce",
    "KeyedAverage",
    "KeyedDedup",
    "KeyedWindowCount",
    "RulesFilter",
    "TransactionalFileSink",
    "AppendingFileSink",
    "UpsertFileSink",
    "Lab",
}

thread_local! {
    static PROVIDED: Table = const { Table::new(Vec::new()) };
}

/// The text of the fragment `name`, compiled in or supplied by [`provide`].
fn text(name: &str) -> Option<&'static str> {
    #[cfg(feature = "builtins")]
    if let Some((_, text)) = FRAGMENTS.iter().find(|(n, _)| *n == name) {
        return Some(text);
    }
    provided::get(&PROVIDED, name)
}

/// Supplies the fragment `name` (`java/<name>.java`) when it is not compiled in.
/// The first text supplied stays; a name not in [`NAMES`] is refused.
pub fn provide(name: &str, text: String) -> Result<(), UnknownFile> {
    provided::put(&PROVIDED, NAMES, name, text)
}

/// The fragments not available yet (none with the `builtins` feature): an
/// export needs them all.
pub fn missing() -> Vec<&'static str> {
    NAMES
        .iter()
        .copied()
        .filter(|n| text(n).is_none())
        .collect()
}

/// Which optional lines of the fragments to keep.
#[derive(Clone, Copy, Debug)]
pub(super) struct Filter {
    pub lang: Lang,
    pub observe: bool,
    pub script: bool,
}

/// The fragment `name`, filtered, with each `(from, to)` replaced (whole words,
/// in the code and in its comments alike).
pub(super) fn fragment(name: &str, filter: Filter, replace: &[(&str, &str)]) -> String {
    // `export` refuses to start while any fragment is missing.
    let text = text(name).unwrap_or_else(|| panic!("no Java fragment {name}"));
    let lines: Vec<&str> = text.lines().collect();
    // A fragment without generated Traditional comments speaks Simplified.
    let wanted = match filter.lang {
        Lang::ZhHant if !text.contains("//@zh-Hant") => Lang::Zh,
        lang => lang,
    };
    let mut out = String::with_capacity(text.len());
    // Inside `/* … */`: the indent of its opening line (language lines become ` * …`).
    let mut block: Option<String> = None;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//!") {
            continue;
        }
        // `//@zh-Hant` before its prefix `//@zh`.
        let language = [
            (Lang::En, "//@en"),
            (Lang::ZhHant, "//@zh-Hant"),
            (Lang::Zh, "//@zh"),
        ]
        .into_iter()
        .find_map(|(lang, tag)| trimmed.strip_prefix(tag).map(|rest| (lang, rest)));
        if let Some((lang, comment)) = language {
            if lang == wanted {
                // `//@en       // text` and `//@en text` both say "text": the
                // comment sits at the indent of the code it describes.
                let comment = comment.trim_start();
                let comment = comment.strip_prefix("//").unwrap_or(comment).trim_start();
                match &block {
                    Some(block_indent) => {
                        out.push_str(block_indent);
                        out.push_str(" * ");
                    }
                    None => {
                        out.push_str(next_code_indent(&lines[i + 1..]));
                        out.push_str("// ");
                    }
                }
                out.push_str(&replace_words(comment, replace));
                out.push('\n');
            }
            continue;
        }
        let mut line = line.to_string();
        let mut dropped = false;
        for (marker, keep) in [
            (" //#observe", filter.observe),
            (" //#script", filter.script),
        ] {
            if let Some(code) = line.strip_suffix(marker) {
                dropped = !keep;
                line = code.to_string();
            }
        }
        if dropped {
            continue;
        }
        if trimmed.starts_with("/*") && !trimmed.contains("*/") {
            let indent = &line[..line.len() - line.trim_start().len()];
            block = Some(indent.to_string());
        } else if trimmed.contains("*/") {
            block = None;
        }
        out.push_str(&replace_words(&line, replace));
        out.push('\n');
    }
    out
}

/// The indent of the first line in `rest` that is code (not a marker line), or
/// none at the end of the fragment.
fn next_code_indent<'a>(rest: &[&'a str]) -> &'a str {
    rest.iter()
        .find(|l| {
            let t = l.trim_start();
            !t.is_empty() && !t.starts_with("//!") && !t.starts_with("//@")
        })
        .map_or("", |l| &l[..l.len() - l.trim_start().len()])
}

/// Replaces whole identifiers only (`NAME` but not `NAMES`).
fn replace_words(line: &str, replace: &[(&str, &str)]) -> String {
    if replace.is_empty() {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let bytes = line.as_bytes();
    let mut i = 0;
    'outer: while i < line.len() {
        let boundary_before = i == 0 || !is_ident(bytes[i - 1]);
        if boundary_before {
            for (from, to) in replace {
                if line[i..].starts_with(from) {
                    let end = i + from.len();
                    if end == line.len() || !is_ident(bytes[end]) {
                        out.push_str(to);
                        i = end;
                        continue 'outer;
                    }
                }
            }
        }
        let ch = line[i..].chars().next().expect("in bounds");
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// A Java string literal.
pub(super) fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A Java string literal or `null`.
pub(super) fn opt_string(s: Option<&str>) -> String {
    s.map_or_else(|| "null".to_string(), string)
}

/// A Java class name from a scenario name: `odd-even-sum` → `OddEvenSum`.
pub(super) fn class_name(name: &str) -> String {
    identifier(name, true)
}

/// A Java variable name from a uid or a state name: `kafka-in` → `kafkaIn`.
pub(super) fn variable_name(name: &str) -> String {
    identifier(name, false)
}

/// A Java identifier from a uid or a scenario name: `kafka-in` → `kafkaIn`
/// (`upper_first`: `KafkaIn`), never empty, never starting with a digit.
fn identifier(name: &str, upper_first: bool) -> String {
    let mut out = String::new();
    let mut upper = upper_first;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if out.is_empty() && c.is_ascii_digit() {
                out.push(if upper_first { 'J' } else { 'j' });
                upper = true;
            }
            if upper {
                out.push(c.to_ascii_uppercase());
                upper = false;
            } else {
                out.push(c);
            }
        } else {
            upper = !out.is_empty() || upper_first;
        }
    }
    if out.is_empty() {
        out.push_str(if upper_first { "Job" } else { "stream" });
    }
    out
}

/// Java keywords and the names the exported class itself uses, which a generated
/// identifier must avoid.
pub(super) const RESERVED: &[&str] = &[
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "true",
    "false",
    "null",
    "var",
    "record",
    "yield",
    "env",
    "conf",
    "lab",
    "graph",
    "args",
    "cluster",
];

/// Names of the classes every export declares (a scenario's class must differ).
pub(super) const CLASSES: &[&str] = &[
    "Event",
    "Partition",
    "ReplayableSource",
    "Lab",
    "Crash",
    "Action",
    "Script",
    "Txn",
    "TransactionalFileSink",
    "AppendingFileSink",
    "UpsertFileSink",
    "RulesFilter",
    "KeyedCount",
    "KeyedSum",
    "KeyedReduce",
    "KeyedAverage",
    "KeyedDedup",
    "KeyedWindowCount",
    "Identity",
    "Doubled",
    "ParityKey",
    "KeepEven",
    "KeepOdd",
    "String",
    "Long",
    "Map",
    "List",
    "Object",
    // Flink's and the JDK's classes the export names by their simple name.
    "CheckpointConfig",
    "CheckpointingMode",
    "Configuration",
    "MiniCluster",
    "StreamGraph",
    "JobClient",
    "JobID",
    "JobStatus",
    "JobResult",
    "Duration",
    "Types",
    "DataStream",
    "Path",
    "Paths",
    "Files",
    "StateTtlConfig",
    "Collector",
    "Tuple2",
    "TypeInformation",
    "URI",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert_eq!(identifier("odd-even-sum", true), "OddEvenSum");
        assert_eq!(identifier("kafka-in", false), "kafkaIn");
        assert_eq!(identifier("pv-v1", false), "pvV1");
        assert_eq!(identifier("42x", true), "J42x");
        assert_eq!(identifier("--", true), "Job");
        assert_eq!(identifier("état", false), "tat");
    }

    #[test]
    fn literals() {
        assert_eq!(string("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(string("奇"), r#""\u5947""#);
        assert_eq!(opt_string(None), "null");
    }

    #[test]
    fn whole_word_replacement() {
        assert_eq!(
            replace_words("NAME NAMES xNAME NAME()", &[("NAME", "Sum")]),
            "Sum NAMES xNAME Sum()"
        );
    }

    #[test]
    fn markers_and_languages() {
        let en = Filter {
            lang: Lang::En,
            observe: false,
            script: true,
        };
        let text = fragment("KeyedValue", en, &[("NAME", "KeyedSum"), ("STATE", "sum")]);
        assert!(text.contains("public static class KeyedSum"), "{text}");
        assert!(text.contains("\"sum\""));
        assert!(!text.contains("Lab.keyed"), "observe hook left out");
        assert!(text.contains("Lab.processed"), "script hook kept");
        assert!(!text.contains("//@") && !text.contains("//#") && !text.contains("//!"));
        assert!(!text.contains("每个 key"), "no Chinese comment in English");
        let zh = fragment(
            "KeyedValue",
            Filter {
                lang: Lang::Zh,
                observe: true,
                script: false,
            },
            &[],
        );
        assert!(zh.contains("每个 key"));
        assert!(zh.contains("Lab.keyed"));
        assert!(!zh.contains("Lab.processed"));
    }
}
