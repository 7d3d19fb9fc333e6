//! Plain-language text for what the engine reports: a narration sentence per event
//! (wording in `assets/i18n/narration.json`, so a teacher can edit it), the event
//! log's categories, and the study notes' one-line form of a `chk-N/_metadata`.
//!
//! Pure (no `web_sys`), unit-tested natively.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use engine::trace::{Event, TraceEvent};
use serde::Deserialize;
use serde_json::Value;

use crate::i18n::{Lang, Msg, WordingError};

/// The narration wording, compiled in for native code and the tests (the page
/// is given it at run time: [`NARRATION`], `src/data.rs`).
#[cfg(any(feature = "bundled", not(target_arch = "wasm32")))]
pub const NARRATION_JSON: &str = include_str!("../assets/i18n/narration.json");

/// `narration.json`'s table.
pub static NARRATION: crate::i18n::Book<BTreeMap<String, Template>> = crate::i18n::Book::new(
    "i18n/narration.json",
    crate::i18n::compiled_in!(NARRATION_JSON),
    parse_templates,
);

/// One event type's sentence in both languages.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    /// Simplified Chinese.
    pub zh: String,
    /// Traditional Chinese (generated; see [`Lang::pick`]).
    #[serde(rename = "zh-Hant", default)]
    pub zh_hant: Option<String>,
    /// English.
    pub en: String,
    /// Log only: too frequent to narrate.
    #[serde(default)]
    pub quiet: bool,
    /// The Flink 2.3 behaviour the sentence states: `ClassName.method`,
    /// `option:some.key`, `doc:<docs page path>`, or just `none`.
    pub sources: Vec<String>,
}

/// Whether `sources` is well formed: `["none"]` alone, or one or more of
/// `ClassName.method` / `ClassName` / `option:key` / `doc:path`.
fn sources_problem(sources: &[String]) -> Option<String> {
    if sources.is_empty() {
        return Some(
            "\"sources\" is empty (write [\"none\"] for a sentence that states no Flink behaviour)"
                .into(),
        );
    }
    if sources.len() > 1 && sources.iter().any(|x| x == "none") {
        return Some("\"sources\" has \"none\" beside other sources".into());
    }
    sources
        .iter()
        .find(|x| {
            let ok =
                if let Some(rest) = x.strip_prefix("option:").or_else(|| x.strip_prefix("doc:")) {
                    !rest.is_empty() && !rest.contains(' ')
                } else {
                    x.as_str() == "none"
                        || (x.starts_with(|c: char| c.is_ascii_uppercase())
                            && x.chars()
                                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_'))
                };
            !ok
        })
        .map(|x| {
            format!(
                "\"sources\" entry \"{x}\" is not ClassName.method, option:key, doc:path or none"
            )
        })
}

/// Parses the narration file; keys starting with `_` are comments.
pub fn parse_templates(json: &str) -> Result<BTreeMap<String, Template>, WordingError> {
    const FILE: &str = "narration.json";
    let raw: BTreeMap<String, Value> =
        serde_json::from_str(json).map_err(|e| WordingError::json(FILE, &e))?;
    raw.into_iter()
        .filter(|(k, _)| !k.starts_with('_'))
        .map(|(k, v)| {
            let t = Template::deserialize(&v)
                .map_err(|e| WordingError::entry(FILE, format!("\"{k}\""), e))?;
            if t.zh.trim().is_empty() || t.en.trim().is_empty() {
                return Err(WordingError::EmptyTranslation { file: FILE, key: k });
            }
            if let Some(p) = sources_problem(&t.sources) {
                return Err(WordingError::entry(FILE, format!("\"{k}\""), p));
            }
            Ok((k, t))
        })
        .collect()
}

/// The templates, or none before the file is here (an event then reads as its
/// type and fields).
fn templates() -> &'static BTreeMap<String, Template> {
    static NONE: BTreeMap<String, Template> = BTreeMap::new();
    NARRATION.get().unwrap_or(&NONE)
}

/// An event's fields as JSON (`"type"` plus its fields).
fn fields(event: &Event) -> serde_json::Map<String, Value> {
    match serde_json::to_value(event) {
        Ok(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "—".into(),
        // A list of checkpoint ids reads `1, 2`, never JSON's `[1,2]`.
        Value::Array(items) => items.iter().map(show).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// An event as a sentence in `lang`, and whether it is quiet (log only). Events
/// without wording fall back to their type and fields.
pub fn sentence(event: &Event, lang: Lang) -> (String, bool) {
    let map = fields(event);
    let ty = map.get("type").map(show).unwrap_or_default();
    let all = templates();
    // A wording for an empty field (`state_restored:no_checkpoint`,
    // `jobmanager_failed:no_checkpoints_lost`), or for a field with a given
    // value (`state_restored:savepoint=true`, `barrier_overtook:records=1`).
    let empty = |v: &Value| v.is_null() || v.as_array().is_some_and(|a| a.is_empty());
    let alt = map
        .iter()
        .filter(|(_, v)| empty(v))
        .find_map(|(k, _)| all.get(&format!("{ty}:no_{k}")))
        .or_else(|| {
            map.iter()
                .filter(|(k, v)| *k != "type" && !v.is_array() && !v.is_object() && !v.is_null())
                .find_map(|(k, v)| all.get(&format!("{ty}:{k}={}", show(v))))
        });
    let Some(t) = alt.or_else(|| all.get(&ty)) else {
        let rest: Vec<String> = map
            .iter()
            .filter(|(k, _)| *k != "type")
            .map(|(k, v)| format!("{k}={}", show(v)))
            .collect();
        return (format!("{ty} {}", rest.join(" ")), false);
    };
    let mut text = lang.pick(&t.zh, t.zh_hant.as_deref(), &t.en).to_string();
    for (k, v) in &map {
        let mut value = show(v);
        // A record's value as the learner typed it: the letters stream's `a`,
        // not its character code 97.
        if k == "value" {
            if let (Some(Value::String(key)), Some(n)) = (map.get("key"), v.as_i64()) {
                if typed_as_letter(key, n) {
                    value = key.clone();
                }
            }
        }
        // The engine's words for a reason, an action or a job status, said in
        // `lang` ("reason:expired", "action:crash", "status:failed"; a key
        // ending in `*` matches a prefix, its text may quote the `{original}`).
        if let Some(said) = field_words(all, k, &value, lang) {
            value = said;
        }
        text = text.replace(&format!("{{{k}}}"), &value);
    }
    (text, t.quiet)
}

/// Whether record value `n` is just key `key`'s character (the letters stream:
/// key `a`, value 97), so the letter is what the learner typed.
pub fn typed_as_letter(key: &str, n: i64) -> bool {
    let mut chars = key.chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if i64::from(u32::from(c)) == n)
}

/// The engine's word `value` for field `field` (`reason`, `status`, `action`) as
/// the narration says it in `lang`; the word itself where the narration has none.
pub fn said(field: &str, value: &str, lang: Lang) -> String {
    field_words(templates(), field, value, lang).unwrap_or_else(|| value.to_string())
}

/// `value` of field `field` in `lang`, from the narration file's
/// `field:value` entries (exact, then the longest `field:prefix*`).
fn field_words(
    all: &BTreeMap<String, Template>,
    field: &str,
    value: &str,
    lang: Lang,
) -> Option<String> {
    let pick = |t: &Template| lang.pick(&t.zh, t.zh_hant.as_deref(), &t.en).to_string();
    if let Some(t) = all.get(&format!("{field}:{value}")) {
        return Some(pick(t));
    }
    let head = format!("{field}:");
    all.iter()
        .filter_map(|(k, t)| {
            let prefix = k.strip_prefix(&head)?.strip_suffix('*')?;
            value.starts_with(prefix).then_some((prefix.len(), t))
        })
        .max_by_key(|(len, _)| *len)
        .map(|(_, t)| pick(t).replace("{original}", value))
}

/// The event log's filter groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    /// Records read, processed, written.
    Records,
    /// Barriers, alignment, snapshots, acknowledgements, completion.
    Checkpoints,
    /// Sink transactions.
    Transactions,
    /// Failures, restarts, restores, the job's end.
    Failures,
}

impl Category {
    /// Every category in filter order.
    pub const ALL: [Category; 4] = [
        Category::Checkpoints,
        Category::Transactions,
        Category::Failures,
        Category::Records,
    ];

    /// A stable key (`<option value>`).
    pub fn key(self) -> &'static str {
        match self {
            Category::Records => "records",
            Category::Checkpoints => "checkpoints",
            Category::Transactions => "transactions",
            Category::Failures => "failures",
        }
    }

    /// The category of `event`.
    pub fn of(event: &Event) -> Category {
        match event {
            Event::RecordEmitted { .. }
            | Event::RecordProcessed { .. }
            | Event::RecordWritten { .. } => Category::Records,
            Event::TransactionBegun { .. }
            | Event::TransactionPrecommitted { .. }
            | Event::TransactionCommitted { .. }
            | Event::TransactionAborted { .. } => Category::Transactions,
            Event::TaskFailed { .. }
            | Event::TaskCanceling { .. }
            | Event::TaskCanceled { .. }
            | Event::JobRestarting { .. }
            | Event::StateRestored { .. }
            | Event::TaskFinished { .. }
            | Event::JobFinished
            | Event::JobFailed { .. }
            | Event::JobCanceled
            | Event::JobmanagerFailed { .. }
            | Event::CheckpointsDiscarded { .. }
            | Event::ActionIgnored { .. } => Category::Failures,
            _ => Category::Checkpoints,
        }
    }
}

/// The latest narrated sentence among `events` (newest last). Records' events
/// are skipped without being rendered while their wording is quiet (a busy
/// stage has hundreds of them behind the last narrated event).
pub fn latest_sentence<'a>(
    events: impl DoubleEndedIterator<Item = &'a TraceEvent>,
    lang: Lang,
) -> Option<String> {
    static RECORDS_QUIET: OnceLock<bool> = OnceLock::new();
    let records_quiet = *RECORDS_QUIET.get_or_init(|| {
        let all = templates();
        ["record_emitted", "record_processed", "record_written"]
            .iter()
            .all(|k| all.get(*k).is_some_and(|t| t.quiet))
    });
    events
        .rev()
        .filter(|e| !(records_quiet && Category::of(&e.event) == Category::Records))
        .map(|e| sentence(&e.event, lang))
        .find(|(_, quiet)| !quiet)
        .map(|(s, _)| s)
}

/// The caption's sentence at the cursor. At a key moment it is the sentence of
/// an event of the moment's kind in the moment's step, so the badge and the
/// sentence name the same event (a commit at the end of the stream is said as
/// the commit, not as "the job finished" that follows it in the same step): the
/// step's last such event, the one a sink lane's transaction chip shows (when a
/// checkpoint's completion commits T3 and T4 at once, the lane shows T4).
/// Elsewhere it is the [`latest_sentence`].
pub fn caption_sentence(
    recent: &[crate::playback::LoggedEvent],
    moment: Option<&crate::playback::KeyMoment>,
    lang: Lang,
) -> Option<String> {
    let of_moment = moment.and_then(|m| {
        recent
            .iter()
            .rev()
            .filter(|e| e.step == m.step)
            .find(|e| match m.kind {
                crate::playback::MomentKind::Point(point) => point.matches(&e.event.event),
                kind => crate::playback::MomentKind::of(&e.event.event, e.event.t)
                    .is_some_and(|(k, _)| k == kind),
            })
    });
    match of_moment {
        Some(e) => Some(sentence(&e.event.event, lang).0),
        None => latest_sentence(recent.iter().map(|e| &e.event), lang),
    }
}

/// A state value as a learner reads it: `[a, b]` for a list, `{a: 1, b: 3}` for
/// a map, strings unquoted — never raw JSON.
pub fn readable(v: &Value) -> String {
    match v {
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(readable).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{k}: {}", readable(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => show(other),
    }
}

/// A named state's entries by key as `(k, v)` pairs, each value [`readable`].
fn readable_entries(values: &Value) -> String {
    match values {
        Value::Object(map) if map.is_empty() => "∅".into(),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| format!("({k}, {})", readable(v)))
            .collect::<Vec<_>>()
            .join(" "),
        other => readable(other),
    }
}

/// The study notes' one-line form of a `chk-N/_metadata`:
/// `offset (0, 5), sum (even, 6) (odd, 9)`. Operators without state are left out.
pub fn metadata_parts(metadata: &Value, lang: Lang) -> Vec<String> {
    let Value::Object(ops) = metadata else {
        return Vec::new();
    };
    let sources = ops.values().filter(|v| v.get("offsets").is_some()).count();
    let mut parts = Vec::new();
    for (uid, entry) in ops {
        if let Some(Value::Object(offsets)) = entry.get("offsets") {
            let pairs: Vec<String> = offsets
                .iter()
                .map(|(p, v)| format!("({p}, {})", show(v)))
                .collect();
            let label = if sources == 1 {
                "offset".to_string()
            } else {
                format!("{uid} offset")
            };
            parts.push(format!("{label} {}", pairs.join(" ")));
        }
        if let Some(Value::Object(keyed)) = entry.get("keyed") {
            let pairs: Vec<String> = keyed
                .iter()
                .map(|(k, v)| format!("({k}, {})", show(v)))
                .collect();
            parts.push(if pairs.is_empty() {
                format!("{uid} ∅")
            } else {
                format!("{uid} {}", pairs.join(" "))
            });
        }
        if let Some(Value::Object(states)) = entry.get("states") {
            for (name, values) in states {
                parts.push(format!("{uid} {name} {}", readable_entries(values)));
            }
        }
        if let Some(Value::Array(txns)) = entry.get("operator") {
            for t in txns {
                // A two-phase-commit sink's snapshot, in the lane's own words: the
                // transactions pre-committed at this barrier, then the one opened
                // after it (Flink's TwoPhaseCommitSinkFunction state:
                // pendingCommitTransactions, pendingTransaction).
                let Some(sub) = t.get("subtask") else {
                    parts.push(format!("{uid} {}", readable(t)));
                    continue;
                };
                let mut said: Vec<String> = t
                    .get("pending_commit")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|p| p.get("txn"))
                            .map(|id| lang.t(Msg::StatePrecommittedTxn).replace("{id}", &show(id)))
                            .collect()
                    })
                    .unwrap_or_default();
                if let Some(open) = t.get("pending_transaction").filter(|v| !v.is_null()) {
                    said.push(lang.t(Msg::StateOpenTxn).replace("{id}", &show(open)));
                }
                parts.push(format!("{uid}#{} {}", show(sub), said.join(" · ")));
            }
        } else if let Some(other) = entry.get("operator") {
            parts.push(format!("{uid} {}", readable(other)));
        }
        if let Some(Value::Object(channels)) = entry.get("channels") {
            for (sub, chans) in channels {
                if let Value::Object(chans) = chans {
                    for (ch, recs) in chans {
                        let vals: Vec<String> = recs
                            .as_array()
                            .map(|a| {
                                a.iter()
                                    .map(|r| r.get("value").map(show).unwrap_or_default())
                                    .collect()
                            })
                            .unwrap_or_default();
                        parts.push(format!("{uid}#{sub} {ch} [{}]", vals.join(", ")));
                    }
                }
            }
        }
    }
    parts
}

#[cfg(test)]
mod truth;

#[cfg(test)]
mod tests {
    use super::*;
    use engine::view::CheckpointId;

    #[test]
    fn shipped_narration_parses_and_covers_the_main_events() {
        let t = parse_templates(NARRATION_JSON).unwrap_or_else(|e| panic!("{e}"));
        for key in [
            "checkpoint_triggered",
            "barrier_injected",
            "checkpoint_completed",
            "task_failed",
            "state_restored",
        ] {
            assert!(t.contains_key(key), "{key}");
        }
    }

    #[test]
    fn sentences_fill_placeholders_in_both_languages() {
        let e = Event::CheckpointCompleted {
            checkpoint: CheckpointId(2),
        };
        assert!(sentence(&e, Lang::En)
            .0
            .contains("checkpoint 2 is complete"));
        assert!(sentence(&e, Lang::Zh).0.contains("检查点 2 完成"));
        let e = Event::StateRestored {
            task: "sum#0".into(),
            checkpoint: None,
            savepoint: false,
        };
        let (s, quiet) = sentence(&e, Lang::En);
        assert!(
            s.starts_with("sum#0 gets no state from a checkpoint"),
            "{s}"
        );
        assert!(!quiet);
        // A savepoint restore is said as one: never "from checkpoint 3".
        let e = Event::StateRestored {
            task: "pv-v2#0".into(),
            checkpoint: Some(engine::view::CheckpointId(3)),
            savepoint: true,
        };
        assert!(
            sentence(&e, Lang::En).0.contains("from savepoint 3"),
            "{:?}",
            sentence(&e, Lang::En)
        );
        assert!(
            sentence(&e, Lang::Zh).0.contains("从保存点 3"),
            "{:?}",
            sentence(&e, Lang::Zh)
        );
        assert!(!sentence(&e, Lang::Zh).0.contains("检查点"));
        let e = Event::TaskFailed {
            task: "sum#0".into(),
            reason: "crashed (script or user)".into(),
        };
        assert!(
            sentence(&e, Lang::Zh).0.contains("手动制造的崩溃"),
            "engine reasons are translated"
        );
        let e = Event::RecordEmitted {
            task: "numbers#0".into(),
            partition: 0,
            offset: 3,
            key: None,
            value: 4,
        };
        assert!(sentence(&e, Lang::En).1, "records are quiet");
        assert_eq!(Category::of(&e), Category::Records);
    }

    #[test]
    fn metadata_in_the_study_notes_form() {
        let m = serde_json::json!({
            "numbers": {"offsets": {"0": 5}},
            "sum": {"keyed": {"even": 6, "odd": 9}},
        });
        assert_eq!(
            metadata_parts(&m, Lang::En).join(", "),
            "offset (0, 5), sum (even, 6) (odd, 9)"
        );
    }

    /// A sink's snapshot says what the lane says, in the page's language, and a
    /// named state's values read as lists and maps, never JSON.
    #[test]
    fn sink_and_named_states_in_the_lanes_words() {
        let m = serde_json::json!({
            "out": {"operator": [{"pending_commit": [{"checkpoint": 1, "txn": 1}], "pending_transaction": 2, "subtask": 0}]},
            "dedup": {"states": {"seen": {"a": ["x", "y"], "b": {"k": 3}}}},
        });
        assert_eq!(
            metadata_parts(&m, Lang::En),
            [
                "dedup seen (a, [x, y]) (b, {k: 3})",
                "out#0 pre-committed T1 · open T2"
            ]
        );
        assert_eq!(metadata_parts(&m, Lang::Zh)[1], "out#0 预提交 T1 · 开启 T2");
    }

    /// Narration as the class reads it — every event of every
    /// built-in lesson (run to its end), and every action the engine can ignore
    /// in every state — is Chinese in one voice: canonical terms, no English
    /// sentence from the engine's reasons (`操作 crash 被忽略：the job is failed`).
    #[test]
    fn narration_as_rendered_is_chinese_in_one_voice() {
        let terms = crate::i18n::terms::parse(crate::i18n::terms::TERMS_JSON).unwrap();
        let mut events: Vec<Event> = Vec::new();
        for (name, _) in engine::runner::BUILTINS {
            let s = engine::runner::load(name).unwrap();
            let mut w = engine::World::new(&s, s.seed).unwrap();
            w.set_tracing(true);
            for _ in 0..200_000 {
                match w.step() {
                    Some(step) => events.extend(step.iter().map(|e| e.event.clone())),
                    None => break,
                }
            }
        }
        for status in ["restarting", "finished", "failed", "canceled", "running"] {
            for action in [
                "crash",
                "trigger_checkpoint",
                "savepoint",
                "stop_with_savepoint",
                "cancel",
                "crash_jobmanager",
            ] {
                // Parsed, so that a typed cause (FromStr) reads the same words.
                let reason = format!("the job is {status}").parse().unwrap();
                events.push(Event::ActionIgnored {
                    action: action.into(),
                    reason,
                });
            }
        }
        assert!(
            events.iter().any(|e| matches!(e, Event::JobFailed { .. }))
                && events.iter().any(|e| matches!(e, Event::TaskFailed { .. }))
                && events
                    .iter()
                    .any(|e| matches!(e, Event::CheckpointAborted { .. })),
            "the lessons fail jobs, crash tasks and abort checkpoints"
        );
        let mut bad = std::collections::BTreeSet::new();
        for e in &events {
            let (zh, _) = sentence(e, Lang::Zh);
            for p in crate::i18n::terms::problems(&zh, &terms) {
                bad.insert(format!("{p}: {zh}"));
            }
        }
        assert!(
            bad.is_empty(),
            "{}",
            bad.into_iter().collect::<Vec<_>>().join("\n")
        );
    }

    /// Values as the learner typed them: the letters stream's records are
    /// narrated as a, b, c — not 97, 98, 99.
    #[test]
    fn letters_are_narrated_as_letters() {
        let e = Event::RecordEmitted {
            task: "letters#0".into(),
            partition: 0,
            offset: 0,
            key: Some("a".into()),
            value: 97,
        };
        let (zh, _) = sentence(&e, Lang::Zh);
        assert!(zh.contains("记录 a ") && !zh.contains("97"), "{zh}");
        let (en, _) = sentence(&e, Lang::En);
        assert!(en.contains("record a ") && !en.contains("97"), "{en}");
        let keyed = Event::RecordEmitted {
            task: "kafka#0".into(),
            partition: 0,
            offset: 3,
            key: Some("app1".into()),
            value: 97,
        };
        assert!(sentence(&keyed, Lang::En).0.contains("record 97"));
    }
}
