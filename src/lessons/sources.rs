//! Where the page's statements about Flink come from. Every tour (for its title)
//! and tour step, drill question, glossary term and lesson's teaching notes carries `"sources"`, a list of:
//!
//! - `"ClassName"` or `"ClassName.member"` — a Flink class by its simple name
//!   (nested as `Outer.Inner`; a fully qualified name is accepted too) and,
//!   optionally, one of its methods, fields or enum constants;
//! - `"option:<key>"` — a configuration key of Flink 2.3 (`option:execution.checkpointing.timeout`);
//! - `"doc:<page>"` — a page of Flink 2.3's documentation, written as its path in
//!   the documentation tree without `content/` and `.md`, ending in `/`, with an
//!   optional `#anchor` (`doc:docs/ops/state/savepoints/`, the page
//!   `docs/content/docs/ops/state/savepoints.md`); `"doc:kafka:<page>"` is a page of
//!   the Kafka connector's documentation, written the same way;
//! - `"none"`, alone: reviewed, and the entry states no Flink behaviour.
//!
//! The tests check every entry against `tests/fixtures/flink-names/`: the classes
//! and options of Flink 2.3's jars (`scripts/flink-names.sh`), the Kafka
//! connector's classes and the documentation pages. Pure: no `web_sys`.

use std::fmt;

/// Why a source is refused: the form it breaks, or what of it Flink 2.3 does
/// not hold. Each names the source as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceError {
    /// `option:` followed by something other than a lower-case key.
    OptionForm(String),
    /// `doc:` followed by something other than `docs/<path>/`.
    DocForm(String),
    /// Neither `none`, an option, a page nor a class.
    NoClass(String),
    /// More than one segment after the class.
    MemberForm(String),
    /// A class the fixture does not hold.
    UnknownClass {
        /// The source as written.
        source: String,
        /// The class it names.
        class: String,
    },
    /// A member the class does not have.
    UnknownMember {
        /// The source as written.
        source: String,
        /// The class it names.
        class: String,
        /// The member it names.
        member: String,
    },
    /// A configuration key Flink 2.3 deprecated.
    DeprecatedOption {
        /// The source as written.
        source: String,
        /// The key that replaced it.
        replacement: String,
    },
    /// A configuration key Flink 2.3 does not have.
    UnknownOption(String),
    /// A documentation page that does not exist.
    UnknownPage(String),
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceError::OptionForm(s) => {
                write!(f, "{s:?}: an option key is lower case, dots and dashes")
            }
            SourceError::DocForm(s) => write!(
                f,
                "{s:?}: a documentation page is written doc:docs/<path>/ (doc:kafka:docs/<path>/ for the Kafka connector)"
            ),
            SourceError::NoClass(s) => {
                write!(f, "{s:?}: names no class (ClassName or ClassName.member)")
            }
            SourceError::MemberForm(s) => write!(f, "{s:?}: at most one member follows the class"),
            SourceError::UnknownClass { source, class } => write!(
                f,
                "{source:?}: no class {class} in Flink 2.3 (or the Kafka connector)"
            ),
            SourceError::UnknownMember {
                source,
                class,
                member,
            } => write!(f, "{source:?}: {class} has no member {member} in Flink 2.3"),
            SourceError::DeprecatedOption {
                source,
                replacement,
            } => write!(
                f,
                "{source:?}: deprecated in Flink 2.3; cite option:{replacement}"
            ),
            SourceError::UnknownOption(s) => {
                write!(f, "{s:?}: no such configuration key in Flink 2.3")
            }
            SourceError::UnknownPage(s) => write!(f, "{s:?}: no such page in the documentation"),
        }
    }
}

impl std::error::Error for SourceError {}

/// A line of a names fixture that is not one (see [`Names::add`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FixtureError {
    /// `deprecated <old key>` without the key that replaced it.
    DeprecatedWithoutReplacement {
        /// The line's number, from 1.
        line: usize,
    },
    /// A line of no known kind.
    NotAFixtureLine {
        /// The line's number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
}

impl fmt::Display for FixtureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixtureError::DeprecatedWithoutReplacement { line } => {
                write!(f, "line {line}: deprecated needs the new key")
            }
            FixtureError::NotAFixtureLine { line, text } => {
                write!(f, "line {line}: {text:?} is not a fixture line")
            }
        }
    }
}

impl std::error::Error for FixtureError {}

/// One parsed source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source<'a> {
    /// The reviewed mark: the entry states no Flink behaviour.
    None,
    /// A class (simple name, nested joined with `.`) and maybe one of its members.
    Class {
        /// `CheckpointCoordinator`, `TwoPhaseCommitSinkFunction.State`.
        class: String,
        /// `restoreSavepoint`, `CHECKPOINT_EXPIRED`.
        member: Option<&'a str>,
    },
    /// A configuration key.
    Option(&'a str),
    /// A documentation page.
    Doc {
        /// Whether the page is the Kafka connector's.
        kafka: bool,
        /// The page, `docs/ops/state/savepoints/`.
        page: &'a str,
    },
}

/// Whether `segment` names a class: an upper-case initial and a lower-case letter
/// (`CheckpointCoordinator`, not `CHECKPOINT_EXPIRED` or `restoreSavepoint`).
fn is_class_segment(segment: &str) -> bool {
    segment.starts_with(|c: char| c.is_ascii_uppercase())
        && segment.chars().any(|c| c.is_ascii_lowercase())
        && segment
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Parses one source; the error says what form it breaks.
pub fn parse(s: &str) -> Result<Source<'_>, SourceError> {
    if s == "none" {
        return Ok(Source::None);
    }
    if let Some(key) = s.strip_prefix("option:") {
        let ok = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || ".-_".contains(c));
        return if ok {
            Ok(Source::Option(key))
        } else {
            Err(SourceError::OptionForm(s.to_string()))
        };
    }
    if let Some(rest) = s.strip_prefix("doc:") {
        let (kafka, path) = match rest.strip_prefix("kafka:") {
            Some(p) => (true, p),
            None => (false, rest),
        };
        let page = path.split('#').next().unwrap_or_default();
        return if page.starts_with("docs/") && page.ends_with('/') && !page.contains("..") {
            Ok(Source::Doc { kafka, page })
        } else {
            Err(SourceError::DocForm(s.to_string()))
        };
    }
    let segments: Vec<&str> = s.split('.').collect();
    // A fully qualified name: its lower-case package segments come first.
    let first_class = segments
        .iter()
        .position(|seg| is_class_segment(seg))
        .ok_or_else(|| SourceError::NoClass(s.to_string()))?;
    if segments[..first_class].iter().any(|seg| {
        seg.is_empty()
            || !seg
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    }) {
        return Err(SourceError::NoClass(s.to_string()));
    }
    let rest = &segments[first_class..];
    let classes = rest.iter().take_while(|seg| is_class_segment(seg)).count();
    let member = match &rest[classes..] {
        [] => None,
        [m] if !m.is_empty() && m.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            Some(*m)
        }
        _ => return Err(SourceError::MemberForm(s.to_string())),
    };
    Ok(Source::Class {
        class: rest[..classes].join("."),
        member,
    })
}

/// How the page shows a source: the class or key as written, a documentation
/// page by its path (`ops/state/savepoints`); nothing for `"none"`.
pub fn display(s: &str) -> Option<String> {
    match parse(s).ok()? {
        Source::None => None,
        Source::Class { .. } => Some(s.rsplit_once("flink.").map_or(s, |(_, t)| t).to_string()),
        Source::Option(key) => Some(key.to_string()),
        Source::Doc { kafka, page } => {
            let path = page.trim_start_matches("docs/").trim_end_matches('/');
            let anchor = s
                .split_once('#')
                .map(|(_, a)| format!("#{a}"))
                .unwrap_or_default();
            Some(if kafka {
                format!("Kafka connector docs: {path}{anchor}")
            } else {
                format!("docs: {path}{anchor}")
            })
        }
    }
}

/// The names a source may cite, read from the fixture files.
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// Class simple name (nested as `Outer.Inner`) → its members.
    pub classes: std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
    /// Configuration keys.
    pub options: std::collections::BTreeSet<String>,
    /// Deprecated key → the key that replaced it.
    pub deprecated: std::collections::BTreeMap<String, String>,
    /// Documentation pages: `docs/…/` for Flink's, `kafka:docs/…/` for the connector's.
    pub docs: std::collections::BTreeSet<String>,
}

impl Names {
    /// Adds a fixture file's lines: `class <Name> <member>…`, `option <key>`,
    /// `deprecated <old key> <new key>`, `doc <page>`; `#` starts a comment line.
    pub fn add(&mut self, text: &str) -> Result<(), FixtureError> {
        for (i, line) in text.lines().enumerate() {
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (None, _) => {}
                (Some(w), _) if w.starts_with('#') => {}
                (Some("class"), Some(name)) => {
                    self.classes
                        .entry(name.to_string())
                        .or_default()
                        .extend(words.map(str::to_string));
                }
                (Some("option"), Some(key)) => {
                    self.options.insert(key.to_string());
                }
                (Some("deprecated"), Some(old)) => {
                    let new = words
                        .next()
                        .ok_or(FixtureError::DeprecatedWithoutReplacement { line: i + 1 })?;
                    self.deprecated.insert(old.to_string(), new.to_string());
                }
                (Some("doc"), Some(page)) => {
                    self.docs.insert(page.to_string());
                }
                _ => {
                    return Err(FixtureError::NotAFixtureLine {
                        line: i + 1,
                        text: line.to_string(),
                    })
                }
            }
        }
        Ok(())
    }

    /// Checks that `s` is a well-formed source naming something these names hold.
    pub fn check(&self, s: &str) -> Result<(), SourceError> {
        match parse(s)? {
            Source::None => Ok(()),
            Source::Class { class, member } => {
                let Some(members) = self.classes.get(&class) else {
                    return Err(SourceError::UnknownClass {
                        source: s.to_string(),
                        class,
                    });
                };
                match member {
                    Some(m) if !members.contains(m) => Err(SourceError::UnknownMember {
                        source: s.to_string(),
                        class,
                        member: m.to_string(),
                    }),
                    _ => Ok(()),
                }
            }
            Source::Option(key) => {
                if self.options.contains(key) {
                    Ok(())
                } else if let Some(new) = self.deprecated.get(key) {
                    Err(SourceError::DeprecatedOption {
                        source: s.to_string(),
                        replacement: new.clone(),
                    })
                } else {
                    Err(SourceError::UnknownOption(s.to_string()))
                }
            }
            Source::Doc { kafka, page } => {
                let known = if kafka {
                    self.docs.contains(&format!("kafka:{page}"))
                } else {
                    self.docs.contains(page)
                };
                if known {
                    Ok(())
                } else {
                    Err(SourceError::UnknownPage(s.to_string()))
                }
            }
        }
    }
}

/// Every `sources` list a tour, drill or glossary file should carry, as
/// (where, its list or `None` when absent): a tour's top level and each step,
/// each drill question, each glossary term.
pub fn entries(file: &str, json: &serde_json::Value) -> Vec<(String, Option<Vec<String>>)> {
    let list = |v: &serde_json::Value| -> Option<Vec<String>> {
        v.get("sources")?.as_array().map(|a| {
            a.iter()
                .map(|s| s.as_str().unwrap_or_default().to_string())
                .collect()
        })
    };
    let mut out = Vec::new();
    let each = |key: &str, name: &str, out: &mut Vec<_>| {
        for (i, item) in json[key].as_array().into_iter().flatten().enumerate() {
            out.push((format!("{file}: {name}[{}]", i + 1), list(item)));
        }
    };
    if json.get("steps").is_some() {
        out.push((format!("{file}: title"), list(json)));
        each("steps", "steps", &mut out);
    }
    each("questions", "questions", &mut out);
    each("terms", "terms", &mut out);
    each("notes", "notes", &mut out);
    out
}

/// What is wrong with one entry's list: absent, empty, `"none"` beside real
/// sources, or a source the names do not hold.
pub fn problems(names: &Names, sources: Option<&[String]>) -> Vec<String> {
    let Some(sources) = sources else {
        return vec![
            "has no \"sources\" (cite a class, option or page, or mark it [\"none\"])".into(),
        ];
    };
    if sources.is_empty() {
        return vec!["has an empty \"sources\"".into()];
    }
    if sources.len() > 1 && sources.iter().any(|s| s == "none") {
        return vec!["\"none\" stands alone".into()];
    }
    sources
        .iter()
        .filter_map(|s| names.check(s).err())
        .map(|e| e.to_string())
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The fixture: Flink 2.3's cited classes and every option key
    /// (`scripts/flink-names.sh`), the Kafka connector's classes, the documentation pages.
    pub(crate) fn names() -> Names {
        let mut n = Names::default();
        for text in [
            include_str!("../../tests/fixtures/flink-names/flink-2.3.0.txt"),
            include_str!("../../tests/fixtures/flink-names/kafka-connector.txt"),
            include_str!("../../tests/fixtures/flink-names/docs.txt"),
        ] {
            n.add(text).unwrap_or_else(|e| panic!("fixture: {e}"));
        }
        n
    }

    fn files() -> Vec<(String, serde_json::Value)> {
        let mut out: Vec<(String, &str)> = crate::lessons::tour::TOURS
            .iter()
            .map(|(n, j)| (format!("tours/{n}.json"), *j))
            .collect();
        out.push((
            "glossary.json".into(),
            crate::lessons::glossary::GLOSSARY_JSON,
        ));
        out.push((
            "drill/questions.json".into(),
            include_str!("../../assets/drill/questions.json"),
        ));
        out.push((
            "presenter/notes.json".into(),
            crate::presenter::notes::NOTES_JSON,
        ));
        out.into_iter()
            .map(|(n, j)| (n, serde_json::from_str(j).expect("valid JSON")))
            .collect()
    }

    #[test]
    fn sources_parse_in_every_documented_form() {
        assert_eq!(parse("none"), Ok(Source::None));
        assert_eq!(
            parse("CheckpointCoordinator.restoreSavepoint"),
            Ok(Source::Class {
                class: "CheckpointCoordinator".into(),
                member: Some("restoreSavepoint")
            })
        );
        assert_eq!(
            parse("CheckpointFailureReason.CHECKPOINT_EXPIRED"),
            Ok(Source::Class {
                class: "CheckpointFailureReason".into(),
                member: Some("CHECKPOINT_EXPIRED")
            })
        );
        assert_eq!(
            parse("org.apache.flink.streaming.api.functions.sink.legacy.TwoPhaseCommitSinkFunction.State"),
            Ok(Source::Class {
                class: "TwoPhaseCommitSinkFunction.State".into(),
                member: None
            })
        );
        assert_eq!(
            parse("option:execution.checkpointing.timeout"),
            Ok(Source::Option("execution.checkpointing.timeout"))
        );
        assert_eq!(
            parse("doc:kafka:docs/connectors/datastream/kafka/#fault-tolerance"),
            Ok(Source::Doc {
                kafka: true,
                page: "docs/connectors/datastream/kafka/"
            })
        );
        for bad in [
            "",
            "checkpoint",
            "option:Execution",
            "doc:ops/state/",
            "A.b.c",
            "doc:docs/x",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} parsed");
        }
        assert_eq!(display("none"), None);
        assert_eq!(
            display("doc:docs/ops/state/savepoints/").as_deref(),
            Some("docs: ops/state/savepoints")
        );
    }

    /// Every tour (title and steps), drill question and glossary term cites where
    /// its Flink behaviour comes from, or is marked `["none"]`; and every class,
    /// member, option and page it cites exists in Flink 2.3.
    #[test]
    fn every_entry_cites_a_source_that_exists_in_flink_2_3() {
        let names = names();
        let mut bad = Vec::new();
        let mut count = 0;
        for (file, json) in files() {
            for (at, list) in entries(&file, &json) {
                count += 1;
                for p in problems(&names, list.as_deref()) {
                    bad.push(format!("{at}: {p}"));
                }
            }
        }
        assert!(count > 200, "only {count} entries found");
        assert!(
            bad.is_empty(),
            "{} problem(s):\n{}",
            bad.len(),
            bad.join("\n")
        );
    }

    /// The wording files' keys, each reviewed: `assets/i18n/sources.json` lists
    /// every key of ui, extras, lessons and flink.json exactly once, under `cited`
    /// (with sources that exist) or `none`; and every built-in lesson's title and
    /// description has its sources there.
    #[test]
    fn every_wording_key_and_lesson_is_reviewed() {
        let names = names();
        let reviewed: serde_json::Value =
            serde_json::from_str(include_str!("../../assets/i18n/sources.json")).unwrap();
        let mut bad = Vec::new();
        for (file, json) in [
            ("ui.json", crate::i18n::UI_JSON),
            ("extras.json", crate::i18n::extras::EXTRAS_JSON),
            ("lessons.json", crate::lessons::wording::LESSONS_JSON),
            ("flink.json", crate::i18n::flink::FlinkMsg::JSON),
        ] {
            bad.extend(review_problems(file, json, &reviewed[file], &names));
        }
        for (name, _) in engine::runner::BUILTINS {
            let list: Option<Vec<String>> =
                serde_json::from_value(reviewed["scenarios"][name].clone()).ok();
            for p in problems(&names, list.as_deref()) {
                bad.push(format!("sources.json: scenarios/{name}: {p}"));
            }
        }
        assert!(
            bad.is_empty(),
            "{} problem(s):\n{}",
            bad.len(),
            bad.join("\n")
        );
    }

    /// Each key of wording file `file` missing from, or listed twice in, its
    /// review (`{"cited": {key: [sources]}, "none": [keys]}`), and each bad source.
    fn review_problems(
        file: &str,
        json: &str,
        review: &serde_json::Value,
        names: &Names,
    ) -> Vec<String> {
        let keys: serde_json::Map<String, serde_json::Value> = serde_json::from_str(json).unwrap();
        let cited = review["cited"].as_object().cloned().unwrap_or_default();
        let none: Vec<&str> = review["none"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|k| k.as_str())
            .collect();
        let mut out = Vec::new();
        for key in keys.keys().filter(|k| !k.starts_with('_')) {
            let times =
                usize::from(cited.contains_key(key)) + none.iter().filter(|k| *k == key).count();
            if times != 1 {
                out.push(format!(
                    "sources.json: {file} \"{key}\" is listed {times} times, not once"
                ));
            }
        }
        for (key, list) in &cited {
            let list: Option<Vec<String>> = serde_json::from_value(list.clone()).ok();
            for p in problems(names, list.as_deref()) {
                out.push(format!("sources.json: {file} \"{key}\": {p}"));
            }
        }
        out
    }

    #[test]
    fn the_review_finds_an_unreviewed_key() {
        let names = names();
        let review = serde_json::json!({"cited": {"a": ["CheckpointCoordinator"]}, "none": ["b"]});
        assert!(review_problems("x.json", r#"{"a": 1, "b": 2}"#, &review, &names).is_empty());
        let p = review_problems("x.json", r#"{"a": 1, "b": 2, "c": 3}"#, &review, &names);
        assert!(
            p.len() == 1 && p[0].contains("\"c\" is listed 0 times"),
            "{p:?}"
        );
        let review = serde_json::json!({"cited": {"a": ["NoSuchClassAtAll"]}, "none": ["a"]});
        assert_eq!(
            review_problems("x.json", r#"{"a": 1}"#, &review, &names).len(),
            2
        );
    }

    /// The check fails on what it must: an entry without sources, a class, member,
    /// option or page that Flink 2.3 does not have, a deprecated key.
    #[test]
    fn the_check_rejects_missing_and_unknown_sources() {
        let names = names();
        let tour: serde_json::Value = serde_json::json!({
            "scenario": "x", "title": {"zh": "", "en": ""}, "sources": ["none"],
            "steps": [{"text": {"zh": "", "en": ""}}]
        });
        let e = entries("tours/x.json", &tour);
        assert_eq!(e.len(), 2);
        assert!(problems(&names, e[1].1.as_deref())[0].contains("has no \"sources\""));
        for (bad, why) in [
            ("NoSuchCheckpointThing", "no class"),
            ("CheckpointCoordinator.noSuchMethod", "no member"),
            ("MemoryStateBackend", "no class"),
            ("option:no.such.key", "no such configuration key"),
            ("option:state.checkpoints.dir", "deprecated"),
            ("doc:docs/no/such/page/", "no such page"),
        ] {
            let p = problems(&names, Some(&[bad.to_string()]));
            assert!(p.len() == 1 && p[0].contains(why), "{bad}: {p:?}");
        }
        assert!(problems(
            &names,
            Some(&["none".into(), "CheckpointCoordinator".into()])
        )[0]
        .contains("stands alone"));
        assert!(problems(&names, Some(&["KafkaCommitter".into()])).is_empty());
    }
}
