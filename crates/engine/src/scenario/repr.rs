//! The JSON shapes of the tagged document types, and their conversions.
//!
//! serde's own tagged enums lose the field path: an internally tagged enum buffers
//! its content before choosing the variant, so `{"strategy": "fixed_delay",
//! "attempts": -1}` would be blamed on `restart` rather than `restart.attempts`; and
//! serde ignores extra fields next to the tag of a unit variant
//! (`{"strategy": "none", "attempts": 3}`). Reading each tagged object through one
//! flat struct that denies unknown fields, then checking which fields its tag allows,
//! keeps the path of every type error and rejects every stray field. Serializing
//! goes back through the same struct, so the exported JSON has the contract's shape.

use super::{
    GenerateSpec, PartitionSpec, RecordSpec, RestartConfig, ScriptStep, SnapshotSelector,
    DEFAULT_RESET_THRESHOLD_MS,
};
use serde::{Deserialize, Serialize};

/// A field of a tagged object, by name, and whether it is present.
fn present(fields: &[(&'static str, bool)]) -> Vec<&'static str> {
    fields
        .iter()
        .filter(|(_, is_present)| *is_present)
        .map(|(name, _)| *name)
        .collect()
}

/// Checks that exactly the `required` fields (plus any of `optional`) are present
/// among `fields` for the object tagged `tag`.
fn check_fields(
    tag_field: &str,
    tag: &str,
    fields: &[(&'static str, bool)],
    required: &[&str],
    optional: &[&str],
) -> Result<(), String> {
    let given = present(fields);
    if let Some(stray) = given
        .iter()
        .find(|name| !required.contains(name) && !optional.contains(name))
    {
        let allowed: Vec<String> = required
            .iter()
            .chain(optional)
            .map(|name| format!("`{name}`"))
            .collect();
        let expected = if allowed.is_empty() {
            "no other field".to_string()
        } else {
            format!("only {}", allowed.join(", "))
        };
        return Err(format!(
            "unknown field `{stray}` for {tag_field} `{tag}`, expected {expected}"
        ));
    }
    if let Some(missing) = required.iter().find(|name| !given.contains(name)) {
        return Err(format!("missing field `{missing}` for {tag_field} `{tag}`"));
    }
    Ok(())
}

/// `{"records": [...]}` or `{"generate": {...}}`, exactly one.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PartitionRepr {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    records: Option<Vec<RecordSpec>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    generate: Option<GenerateSpec>,
}

impl TryFrom<PartitionRepr> for PartitionSpec {
    type Error = &'static str;

    fn try_from(repr: PartitionRepr) -> Result<Self, Self::Error> {
        match (repr.records, repr.generate) {
            (Some(records), None) => Ok(PartitionSpec::Records(records)),
            (None, Some(generate)) => Ok(PartitionSpec::Generate(generate)),
            _ => Err("a partition is either {\"records\": [...]} or {\"generate\": {...}}, exactly one of them"),
        }
    }
}

impl From<PartitionSpec> for PartitionRepr {
    fn from(spec: PartitionSpec) -> Self {
        match spec {
            PartitionSpec::Records(records) => PartitionRepr {
                records: Some(records),
                generate: None,
            },
            PartitionSpec::Generate(generate) => PartitionRepr {
                records: None,
                generate: Some(generate),
            },
        }
    }
}

/// The `"strategy"` tag of a restart configuration.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum StrategyName {
    None,
    FixedDelay,
    FailureRate,
    ExponentialDelay,
}

/// Every field of every restart strategy; which ones are allowed depends on
/// `strategy`.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RestartConfigRepr {
    strategy: StrategyName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    attempts: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    delay_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_failures: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    interval_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    initial_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    multiplier: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reset_threshold_ms: Option<u64>,
}

impl TryFrom<RestartConfigRepr> for RestartConfig {
    type Error = String;

    fn try_from(r: RestartConfigRepr) -> Result<Self, Self::Error> {
        let fields = [
            ("attempts", r.attempts.is_some()),
            ("delay_ms", r.delay_ms.is_some()),
            ("max_failures", r.max_failures.is_some()),
            ("interval_ms", r.interval_ms.is_some()),
            ("initial_ms", r.initial_ms.is_some()),
            ("max_ms", r.max_ms.is_some()),
            ("multiplier", r.multiplier.is_some()),
            ("reset_threshold_ms", r.reset_threshold_ms.is_some()),
        ];
        let check = |tag: &str, required: &[&str], optional: &[&str]| {
            check_fields("strategy", tag, &fields, required, optional)
        };
        // After `check`, every required field is `Some`; `unwrap_or_default` is never
        // taken and only avoids a panic path.
        Ok(match r.strategy {
            StrategyName::None => {
                check("none", &[], &[])?;
                RestartConfig::None
            }
            StrategyName::FixedDelay => {
                check("fixed_delay", &["attempts", "delay_ms"], &[])?;
                RestartConfig::FixedDelay {
                    attempts: r.attempts.unwrap_or_default(),
                    delay_ms: r.delay_ms.unwrap_or_default(),
                }
            }
            StrategyName::FailureRate => {
                check(
                    "failure_rate",
                    &["max_failures", "interval_ms", "delay_ms"],
                    &[],
                )?;
                RestartConfig::FailureRate {
                    max_failures: r.max_failures.unwrap_or_default(),
                    interval_ms: r.interval_ms.unwrap_or_default(),
                    delay_ms: r.delay_ms.unwrap_or_default(),
                }
            }
            StrategyName::ExponentialDelay => {
                check(
                    "exponential_delay",
                    &["initial_ms", "max_ms", "multiplier"],
                    &["reset_threshold_ms", "attempts"],
                )?;
                RestartConfig::ExponentialDelay {
                    initial_ms: r.initial_ms.unwrap_or_default(),
                    max_ms: r.max_ms.unwrap_or_default(),
                    multiplier: r.multiplier.unwrap_or_default(),
                    reset_threshold_ms: r.reset_threshold_ms.unwrap_or(DEFAULT_RESET_THRESHOLD_MS),
                    attempts: r.attempts,
                }
            }
        })
    }
}

impl From<RestartConfig> for RestartConfigRepr {
    fn from(config: RestartConfig) -> Self {
        let empty = |strategy| RestartConfigRepr {
            strategy,
            attempts: None,
            delay_ms: None,
            max_failures: None,
            interval_ms: None,
            initial_ms: None,
            max_ms: None,
            multiplier: None,
            reset_threshold_ms: None,
        };
        match config {
            RestartConfig::None => empty(StrategyName::None),
            RestartConfig::FixedDelay { attempts, delay_ms } => RestartConfigRepr {
                attempts: Some(attempts),
                delay_ms: Some(delay_ms),
                ..empty(StrategyName::FixedDelay)
            },
            RestartConfig::FailureRate {
                max_failures,
                interval_ms,
                delay_ms,
            } => RestartConfigRepr {
                max_failures: Some(max_failures),
                interval_ms: Some(interval_ms),
                delay_ms: Some(delay_ms),
                ..empty(StrategyName::FailureRate)
            },
            RestartConfig::ExponentialDelay {
                initial_ms,
                max_ms,
                multiplier,
                reset_threshold_ms,
                attempts,
            } => RestartConfigRepr {
                initial_ms: Some(initial_ms),
                max_ms: Some(max_ms),
                multiplier: Some(multiplier),
                reset_threshold_ms: Some(reset_threshold_ms),
                attempts,
                ..empty(StrategyName::ExponentialDelay)
            },
        }
    }
}

/// The `"action"` tag of a script step.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ActionName {
    Crash,
    TriggerCheckpoint,
    Savepoint,
    StopWithSavepoint,
    Cancel,
    CrashJobmanager,
}

/// Every field of every script action; `task` belongs to `crash` only.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ScriptStepRepr {
    action: ActionName,
    at_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    task: Option<String>,
}

impl TryFrom<ScriptStepRepr> for ScriptStep {
    type Error = String;

    fn try_from(r: ScriptStepRepr) -> Result<Self, Self::Error> {
        let fields = [("task", r.task.is_some())];
        let at_ms = r.at_ms;
        let no_task = |tag: &str| check_fields("action", tag, &fields, &[], &[]);
        Ok(match r.action {
            ActionName::Crash => match r.task {
                Some(task) => ScriptStep::Crash { at_ms, task },
                None => return Err("missing field `task` for action `crash`".to_string()),
            },
            ActionName::TriggerCheckpoint => {
                no_task("trigger_checkpoint")?;
                ScriptStep::TriggerCheckpoint { at_ms }
            }
            ActionName::Savepoint => {
                no_task("savepoint")?;
                ScriptStep::Savepoint { at_ms }
            }
            ActionName::StopWithSavepoint => {
                no_task("stop_with_savepoint")?;
                ScriptStep::StopWithSavepoint { at_ms }
            }
            ActionName::Cancel => {
                no_task("cancel")?;
                ScriptStep::Cancel { at_ms }
            }
            ActionName::CrashJobmanager => {
                no_task("crash_jobmanager")?;
                ScriptStep::CrashJobmanager { at_ms }
            }
        })
    }
}

impl From<ScriptStep> for ScriptStepRepr {
    fn from(step: ScriptStep) -> Self {
        let (action, at_ms, task) = match step {
            ScriptStep::Crash { at_ms, task } => (ActionName::Crash, at_ms, Some(task)),
            ScriptStep::TriggerCheckpoint { at_ms } => (ActionName::TriggerCheckpoint, at_ms, None),
            ScriptStep::Savepoint { at_ms } => (ActionName::Savepoint, at_ms, None),
            ScriptStep::StopWithSavepoint { at_ms } => (ActionName::StopWithSavepoint, at_ms, None),
            ScriptStep::Cancel { at_ms } => (ActionName::Cancel, at_ms, None),
            ScriptStep::CrashJobmanager { at_ms } => (ActionName::CrashJobmanager, at_ms, None),
        };
        ScriptStepRepr {
            action,
            at_ms,
            task,
        }
    }
}

/// `restore.snapshot`: a keyword or an id.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
pub(super) enum SnapshotSelectorRepr {
    Id(u64),
    Name(String),
}

impl TryFrom<SnapshotSelectorRepr> for SnapshotSelector {
    type Error = String;

    fn try_from(repr: SnapshotSelectorRepr) -> Result<Self, String> {
        match repr {
            SnapshotSelectorRepr::Id(id) => Ok(SnapshotSelector::Id(id)),
            SnapshotSelectorRepr::Name(name) => match name.as_str() {
                "latest" => Ok(SnapshotSelector::Latest),
                "latest_savepoint" => Ok(SnapshotSelector::LatestSavepoint),
                "latest_checkpoint" => Ok(SnapshotSelector::LatestCheckpoint),
                other => Err(format!(
                    "unknown snapshot \"{other}\": expected \"latest\", \"latest_savepoint\", \"latest_checkpoint\" or a checkpoint id"
                )),
            },
        }
    }
}

impl From<SnapshotSelector> for SnapshotSelectorRepr {
    fn from(selector: SnapshotSelector) -> Self {
        match selector {
            SnapshotSelector::Latest => SnapshotSelectorRepr::Name("latest".into()),
            SnapshotSelector::LatestSavepoint => {
                SnapshotSelectorRepr::Name("latest_savepoint".into())
            }
            SnapshotSelector::LatestCheckpoint => {
                SnapshotSelectorRepr::Name("latest_checkpoint".into())
            }
            SnapshotSelector::Id(id) => SnapshotSelectorRepr::Id(id),
        }
    }
}
