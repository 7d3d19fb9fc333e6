//! The form editor's model: which fields of a scenario document it offers
//! (parallelism, process time, partitioning, latency, checkpoint and restart
//! configuration, the crash script) and how an edit changes the document.
//!
//! Pure and tested natively. An edit never reaches the page unless the edited
//! document passes [`engine::Scenario::from_json`], whose errors name the field
//! (`job.edges[0].latency_ms: …`); a value that is not even a number names the
//! form field instead.

use std::fmt;

use engine::{Scenario, ScenarioError};
use serde_json::{json, Map, Value};

/// Why an edit is refused. A form field's own errors name it as
/// [`describe`] does (`sum.parallelism`); the engine's name the document's field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// A count that is not a whole number of at least 0.
    NotACount {
        /// The field, as [`describe`] names it.
        field: String,
        /// What was typed.
        raw: String,
    },
    /// A choice outside the field's spellings.
    NotAChoice {
        /// The field, as [`describe`] names it.
        field: String,
        /// What was chosen.
        raw: String,
        /// The spellings it takes.
        choices: &'static [&'static str],
    },
    /// The field's place in the document is not there (`not an object`,
    /// `no such element`).
    NoPlace {
        /// The field, as [`describe`] names it.
        field: String,
        /// What the path met instead.
        detail: &'static str,
    },
    /// A crash not written `task@ms`.
    NotACrash {
        /// The item as typed.
        item: String,
    },
    /// A crash whose time is not a number of ms.
    NotATime {
        /// The item as typed.
        item: String,
        /// Its time part.
        at: String,
    },
    /// The edited document is not a valid scenario (the engine's message).
    Scenario(ScenarioError),
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::NotACount { field, raw } => {
                write!(f, "{field}: {raw:?} is not a whole number ≥ 0")
            }
            EditError::NotAChoice {
                field,
                raw,
                choices,
            } => write!(f, "{field}: {raw:?} is not one of {choices:?}"),
            EditError::NoPlace { field, detail } => write!(f, "{field}: {detail}"),
            EditError::NotACrash { item } => {
                write!(f, "script: {item:?} is not task@ms (for example sum#0@710)")
            }
            EditError::NotATime { item, at } => {
                write!(f, "script: {item:?}: {at:?} is not a time in ms")
            }
            EditError::Scenario(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EditError {}

/// A step of a path into the scenario document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    /// An object key.
    Key(&'static str),
    /// An array index.
    Index(usize),
}

/// What kind of input a field takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number of at least 0; `nullable`: empty means `null`.
    Count { default: u64, nullable: bool },
    /// One of fixed spellings.
    Choice(&'static [&'static str]),
    /// On or off.
    Flag,
}

/// One field of the form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Where it lives in the document.
    pub path: Vec<Seg>,
    /// Its wording key in `assets/i18n/lessons.json`.
    pub label: &'static str,
    /// What it belongs to (an operator uid, an edge `a → b`), shown with the label.
    pub subject: String,
    /// Its input.
    pub kind: Kind,
}

/// Partitionings an edge may have.
pub const PARTITIONINGS: &[&str] = &["forward", "hash", "rebalance", "broadcast"];
/// Checkpointing modes.
pub const MODES: &[&str] = &["exactly_once", "at_least_once"];
/// Restart strategies.
pub const STRATEGIES: &[&str] = &["none", "fixed_delay", "failure_rate", "exponential_delay"];

/// Numeric fields of the restart strategies, with their wording keys.
const RESTART_COUNTS: &[(&str, &str)] = &[
    ("attempts", "editor_attempts"),
    ("delay_ms", "editor_delay_ms"),
    ("max_failures", "editor_max_failures"),
    ("interval_ms", "editor_restart_interval_ms"),
    ("initial_ms", "editor_initial_ms"),
    ("max_ms", "editor_max_ms"),
];

const CHECKPOINT_COUNTS: &[(&str, &str, u64, bool)] = &[
    ("interval_ms", "editor_interval_ms", 0, true),
    ("timeout_ms", "editor_timeout_ms", 600_000, false),
    ("min_pause_ms", "editor_min_pause_ms", 0, false),
    ("max_concurrent", "editor_max_concurrent", 1, false),
    ("tolerable_failures", "editor_tolerable_failures", 0, false),
];

fn field(path: Vec<Seg>, label: &'static str, subject: impl Into<String>, kind: Kind) -> Field {
    Field {
        path,
        label,
        subject: subject.into(),
        kind,
    }
}

/// The fields the form offers for `doc`.
pub fn fields(doc: &Value) -> Vec<Field> {
    use Seg::{Index, Key};
    let mut out = Vec::new();
    let ops = doc["job"]["operators"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for (i, op) in ops.iter().enumerate() {
        let uid = op["uid"].as_str().unwrap_or("?").to_string();
        let at = |k| vec![Key("job"), Key("operators"), Index(i), Key(k)];
        out.push(field(
            at("parallelism"),
            "editor_parallelism",
            &uid,
            Kind::Count {
                default: 1,
                nullable: false,
            },
        ));
        if op["kind"] != "source" {
            out.push(field(
                at("process_ms"),
                "editor_process_ms",
                &uid,
                Kind::Count {
                    default: 0,
                    nullable: false,
                },
            ));
        }
    }
    let edges = doc["job"]["edges"].as_array().cloned().unwrap_or_default();
    for (j, e) in edges.iter().enumerate() {
        let subject = format!(
            "{} → {}",
            e["from"].as_str().unwrap_or("?"),
            e["to"].as_str().unwrap_or("?")
        );
        let at = |k| vec![Key("job"), Key("edges"), Index(j), Key(k)];
        out.push(field(
            at("partitioning"),
            "editor_partitioning",
            &subject,
            Kind::Choice(PARTITIONINGS),
        ));
        out.push(field(
            at("latency_ms"),
            "editor_latency_ms",
            &subject,
            Kind::Count {
                default: 1,
                nullable: false,
            },
        ));
    }
    if doc["checkpointing"].is_object() {
        let at = |k| vec![Key("checkpointing"), Key(k)];
        out.push(field(at("mode"), "editor_mode", "", Kind::Choice(MODES)));
        out.push(field(at("unaligned"), "editor_unaligned", "", Kind::Flag));
        for (k, label, default, nullable) in CHECKPOINT_COUNTS {
            out.push(field(
                at(k),
                label,
                "",
                Kind::Count {
                    default: *default,
                    nullable: *nullable,
                },
            ));
        }
    }
    out.push(field(
        vec![Key("restart"), Key("strategy")],
        "editor_restart_strategy",
        "",
        Kind::Choice(STRATEGIES),
    ));
    if let Some(r) = doc["restart"].as_object() {
        for (k, label) in RESTART_COUNTS {
            if r.contains_key(*k) {
                out.push(field(
                    vec![Key("restart"), Key(k)],
                    label,
                    "",
                    Kind::Count {
                        default: 0,
                        nullable: false,
                    },
                ));
            }
        }
    }
    out
}

/// The value at `path`, if present.
pub fn get<'a>(doc: &'a Value, path: &[Seg]) -> Option<&'a Value> {
    path.iter().try_fold(doc, |v, s| match s {
        Seg::Key(k) => v.get(*k),
        Seg::Index(i) => v.get(*i),
    })
}

/// What the form shows for `f` in `doc` (its default when absent).
pub fn shown(doc: &Value, f: &Field) -> String {
    match (get(doc, &f.path), f.kind) {
        (Some(Value::Null), _) => String::new(),
        (Some(Value::String(s)), _) => s.clone(),
        (Some(v), _) => v.to_string(),
        (None, Kind::Count { default, nullable }) => {
            if nullable {
                String::new()
            } else {
                default.to_string()
            }
        }
        (None, Kind::Flag) => "false".into(),
        (None, Kind::Choice(c)) if f.label == "editor_restart_strategy" => {
            // Absent: Flink's default (exponential delay with checkpointing, else none).
            if doc["checkpointing"].is_object() {
                "exponential_delay".into()
            } else {
                c[0].into()
            }
        }
        (None, Kind::Choice(c)) => c[0].into(),
    }
}

fn slot<'a>(doc: &'a mut Value, path: &[Seg]) -> Result<&'a mut Value, &'static str> {
    let mut v = doc;
    for s in path {
        v = match s {
            Seg::Key(k) => {
                if v.is_null() {
                    *v = Value::Object(Map::new());
                }
                v.as_object_mut()
                    .ok_or("not an object")?
                    .entry(k.to_string())
                    .or_insert(Value::Null)
            }
            Seg::Index(i) => v.get_mut(*i).ok_or("no such element")?,
        };
    }
    Ok(v)
}

/// The human name of `f` for messages, e.g. `sum.parallelism`.
pub fn describe(f: &Field) -> String {
    let last = match f.path.last() {
        Some(Seg::Key(k)) => *k,
        _ => "?",
    };
    if f.subject.is_empty() {
        let parent = match f.path.first() {
            Some(Seg::Key(k)) => *k,
            _ => "?",
        };
        format!("{parent}.{last}")
    } else {
        format!("{}.{last}", f.subject)
    }
}

/// Sets `f` to the form's `raw` text. A strategy change brings that strategy's
/// parameters with Flink's defaults (and drops the old ones).
pub fn set(doc: &mut Value, f: &Field, raw: &str) -> Result<(), EditError> {
    let raw = raw.trim();
    let value = match f.kind {
        Kind::Count { nullable, .. } => {
            if raw.is_empty() && nullable {
                Value::Null
            } else {
                raw.parse::<u64>()
                    .map(Value::from)
                    .map_err(|_| EditError::NotACount {
                        field: describe(f),
                        raw: raw.to_string(),
                    })?
            }
        }
        Kind::Choice(choices) => {
            if !choices.contains(&raw) {
                return Err(EditError::NotAChoice {
                    field: describe(f),
                    raw: raw.to_string(),
                    choices,
                });
            }
            Value::from(raw)
        }
        Kind::Flag => Value::Bool(raw == "true"),
    };
    if f.label == "editor_restart_strategy" {
        doc["restart"] = match raw {
            "fixed_delay" => json!({"strategy": raw, "attempts": 3, "delay_ms": 1000}),
            "failure_rate" => {
                json!({"strategy": raw, "max_failures": 1, "interval_ms": 60000, "delay_ms": 1000})
            }
            "exponential_delay" => {
                json!({"strategy": raw, "initial_ms": 1000, "max_ms": 60000, "multiplier": 1.5})
            }
            _ => json!({"strategy": raw}),
        };
        return Ok(());
    }
    // A lesson that fixes its first checkpoint at one interval (the built-ins'
    // round numbers) keeps that relation when the interval changes; without an
    // interval there is no periodic first checkpoint to fix.
    if f.label == "editor_interval_ms" {
        if let Some(c) = doc["checkpointing"].as_object_mut() {
            if value.is_null() {
                c.remove("first_trigger_ms");
            } else if c.get("first_trigger_ms") == c.get("interval_ms") {
                c.insert("first_trigger_ms".into(), value.clone());
            }
        }
    }
    *slot(doc, &f.path).map_err(|detail| EditError::NoPlace {
        field: describe(f),
        detail,
    })? = value;
    Ok(())
}

/// The script's crashes as `task@ms, task@ms` (the CLI's `--crash` spelling).
pub fn crashes(doc: &Value) -> String {
    doc["script"]
        .as_array()
        .map(|s| {
            s.iter()
                .filter(|a| a["action"] == "crash")
                .map(|a| format!("{}@{}", a["task"].as_str().unwrap_or("?"), a["at_ms"]))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

/// Replaces the script's crashes with those in `text` (`task@ms`, separated by
/// commas or spaces), keeping its other actions.
pub fn set_crashes(doc: &mut Value, text: &str) -> Result<(), EditError> {
    let mut new = Vec::new();
    for item in text
        .split([',', ' ', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let (task, at) = item.rsplit_once('@').ok_or_else(|| EditError::NotACrash {
            item: item.to_string(),
        })?;
        let at: u64 = at.parse().map_err(|_| EditError::NotATime {
            item: item.to_string(),
            at: at.to_string(),
        })?;
        new.push(json!({"at_ms": at, "action": "crash", "task": task}));
    }
    let mut script: Vec<Value> = doc["script"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|a| a["action"] != "crash")
        .collect();
    script.extend(new);
    script.sort_by_key(|a| a["at_ms"].as_u64().unwrap_or(0));
    doc["script"] = Value::Array(script);
    Ok(())
}

/// The document as scenario JSON if it is a valid scenario; else the engine's
/// message, which names the field.
pub fn validate(doc: &Value) -> Result<String, EditError> {
    let json = doc.to_string();
    Scenario::from_json(&json)
        .map(|_| json)
        .map_err(EditError::Scenario)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lessons::wording;

    fn doc(name: &str) -> Value {
        serde_json::from_str(engine::runner::builtin(name).unwrap()).unwrap()
    }

    fn find<'a>(fs: &'a [Field], label: &str, subject: &str) -> &'a Field {
        fs.iter()
            .find(|f| f.label == label && f.subject == subject)
            .unwrap_or_else(|| panic!("no {label} of {subject:?}"))
    }

    #[test]
    fn every_field_of_every_builtin_has_wording_and_shows_a_valid_value() {
        for (name, _) in engine::runner::BUILTINS {
            let d = doc(name);
            for f in fields(&d) {
                assert!(
                    wording::KEYS.contains(&f.label),
                    "{name}: {} has no wording",
                    f.label
                );
                // Writing back what is shown leaves a valid scenario.
                let mut e = d.clone();
                set(&mut e, &f, &shown(&d, &f)).unwrap_or_else(|err| panic!("{name}: {err}"));
                validate(&e).unwrap_or_else(|err| {
                    panic!("{name}: {} = {:?}: {err}", describe(&f), shown(&d, &f))
                });
            }
        }
    }

    #[test]
    fn edits_change_the_run_and_bad_values_name_the_field() {
        let mut d = doc("odd-even-sum");
        let fs = fields(&d);
        set(&mut d, find(&fs, "editor_parallelism", "sum"), "2").unwrap();
        // A forward edge to a sink of parallelism 1 no longer fits: the engine says where.
        let err = validate(&d).unwrap_err().to_string();
        assert!(err.contains("job.edges[2].partitioning"), "{err}");
        set(
            &mut d,
            find(&fs, "editor_partitioning", "sum → out"),
            "rebalance",
        )
        .unwrap();
        set(&mut d, find(&fs, "editor_latency_ms", "parity → sum"), "25").unwrap();
        set(&mut d, find(&fs, "editor_interval_ms", ""), "300").unwrap();
        let s = Scenario::from_json(&validate(&d).unwrap()).unwrap();
        assert_eq!(s.job.operators[2].parallelism, 2);
        assert_eq!(s.checkpointing.as_ref().unwrap().interval_ms, Some(300));
        // The lesson's first checkpoint was one interval in: it still is.
        assert_eq!(
            s.checkpointing.as_ref().unwrap().first_trigger_ms,
            Some(300)
        );

        let err = set(&mut d, find(&fs, "editor_parallelism", "sum"), "two").unwrap_err();
        assert_eq!(
            err.to_string(),
            "sum.parallelism: \"two\" is not a whole number ≥ 0"
        );
        // Parses, but the engine rejects it: the engine's message names the field.
        set(&mut d, find(&fs, "editor_interval_ms", ""), "5").unwrap();
        let err = validate(&d).unwrap_err().to_string();
        assert!(err.contains("interval"), "{err}");
    }

    #[test]
    fn switching_the_restart_strategy_brings_its_parameters() {
        let mut d = doc("odd-even-sum");
        let fs = fields(&d);
        set(
            &mut d,
            find(&fs, "editor_restart_strategy", ""),
            "failure_rate",
        )
        .unwrap();
        validate(&d).unwrap();
        let fs = fields(&d);
        assert!(fs.iter().any(|f| f.label == "editor_max_failures"));
        assert!(!fs.iter().any(|f| f.label == "editor_attempts"));
        assert!(set(
            &mut d,
            find(&fs, "editor_restart_strategy", ""),
            "sometimes"
        )
        .unwrap_err()
        .to_string()
        .contains("restart.strategy"));
    }

    /// An edit is a new run of the edited document: a mode switch or a restart
    /// afterwards keeps the edit (they rebuild from the run's scenario, not the
    /// built-in of the same name).
    #[test]
    fn an_edit_survives_a_mode_switch_and_a_restart() {
        use crate::playback::{Action, Mode, State};
        let mut d = doc("odd-even-sum");
        let fs = fields(&d);
        set(
            &mut d,
            find(&fs, "editor_latency_ms", "numbers → parity"),
            "40",
        )
        .unwrap();
        let s = State::new(Some("odd-even-sum"), None)
            .apply(Action::LoadScenario(validate(&d).unwrap()));
        assert!(s.error.is_none(), "{:?}", s.error);
        let latency = |s: &State| s.with_scenario(|x| x.job.edges[0].latency_ms).unwrap();
        assert_eq!(latency(&s), 40);
        let s = s.apply(Action::SetMode(Mode::Unaligned));
        assert_eq!((s.mode, latency(&s)), (Mode::Unaligned, 40));
        let s = s.apply(Action::Restart);
        assert_eq!((s.mode, s.seed, latency(&s)), (Mode::Unaligned, 8, 40));
    }

    #[test]
    fn the_crash_script_is_edited_as_text() {
        let mut d = doc("odd-even-sum");
        assert_eq!(crashes(&d), "sum#0@710");
        set_crashes(&mut d, "parity#0@900, sum#0@300").unwrap();
        assert_eq!(crashes(&d), "sum#0@300, parity#0@900");
        validate(&d).unwrap();
        set_crashes(&mut d, "nosuch#0@300").unwrap();
        assert!(validate(&d).unwrap_err().to_string().contains("nosuch#0"));
        assert!(set_crashes(&mut d, "sum#0")
            .unwrap_err()
            .to_string()
            .contains("task@ms"));
        assert!(set_crashes(&mut d, "sum#0@soon")
            .unwrap_err()
            .to_string()
            .contains("soon"));
        set_crashes(&mut d, "").unwrap();
        assert_eq!(crashes(&d), "");
    }
}
