//! The run summary `lab` prints last (contract: scenario-format.md, "Summary"), and
//! each completed checkpoint's `_metadata` as `lab run --metadata` prints it.

use crate::cause::{AbortCause, FailureCause, FailureReason};
use crate::coordinator::CheckpointStatus;
use crate::event::SnapshotKind;
use crate::ids::CheckpointId;
use crate::job_graph::JobGraph;
use crate::record::Record;
use crate::scenario::{OperatorKind, SinkKind};
use crate::snapshot::{CompletedCheckpoint, OperatorSnapshot};
use crate::world::World;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One checkpoint in the summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointSummary {
    /// Id.
    pub id: CheckpointId,
    /// `checkpoint` or `savepoint`.
    pub kind: String,
    /// `completed`, `aborted` or `in_progress`.
    pub status: CheckpointStatus,
    /// Trigger time.
    pub trigger_ms: u64,
    /// Completion or abort time; `null` while in progress.
    pub end_ms: Option<u64>,
    /// Abort reason.
    pub reason: Option<AbortCause>,
    /// Longest alignment among its subtasks.
    pub alignment_ms: u64,
    /// Persisted in-flight records, summed over subtasks.
    pub persisted_in_flight_records: u64,
    /// Full size.
    pub state_bytes: u64,
    /// What this checkpoint wrote.
    pub uploaded_bytes: u64,
    /// `chk-N/_metadata` (with `--metadata`, completed checkpoints only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<serde_json::Value>,
    /// `true` for a completed checkpoint that died with the JobManager
    /// (jobmanager storage); absent otherwise (extension).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lost: bool,
}

/// One failover in the summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FailureSummary {
    /// When.
    pub at_ms: u64,
    /// The failed subtask (`null` for a job-level failure).
    pub task: Option<Arc<str>>,
    /// The checkpoint restored from (`null`: fresh start or no restart).
    pub restored_from: Option<CheckpointId>,
    /// When the job restarted.
    pub restarted_ms: Option<u64>,
    /// Why (extension).
    pub reason: FailureCause,
}

/// A key/value pair as a consumer reads it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputRecord {
    /// Key.
    pub key: Option<Arc<str>>,
    /// Value.
    pub value: i64,
}

/// What the external system of one sink holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SinkSummary {
    /// What a `read_committed` consumer sees.
    pub committed: Vec<OutputRecord>,
    /// What a `read_uncommitted` consumer sees in addition.
    pub uncommitted: Vec<OutputRecord>,
    /// Aborted transactions.
    pub aborted_transactions: usize,
    /// Idempotent sink: the upserted table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<BTreeMap<Arc<str>, i64>>,
}

/// The summary of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Scenario name.
    pub scenario: String,
    /// Seed.
    pub seed: u64,
    /// End of the run (the finish time if the job finished earlier).
    pub end_ms: u64,
    /// `running`, `finished`, `failed` or `canceled`.
    pub job_status: String,
    /// Why the job failed (extension).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<FailureReason>,
    /// Every checkpoint and savepoint.
    pub checkpoints: Vec<CheckpointSummary>,
    /// Failovers.
    pub failures: Vec<FailureSummary>,
    /// External systems by sink uid.
    pub sinks: BTreeMap<String, SinkSummary>,
    /// What Flink would adjust silently.
    pub warnings: Vec<String>,
}

/// What a [`Summary`] lists of each completed checkpoint's `_metadata`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metadata {
    /// Nothing (`lab run`).
    Omitted,
    /// Its `_metadata` (`lab run --metadata`).
    Included,
    /// Its `_metadata`, each keyed operator's also listing its key-group ranges
    /// (`lab run --metadata --key-groups`, see [`checkpoint_metadata_with`]).
    WithKeyGroups,
}

impl Summary {
    /// Summarize `world` at its current time, with as much of each completed
    /// checkpoint's `_metadata` as `metadata` says.
    pub fn of(world: &World, metadata: Metadata) -> Summary {
        let setup = world.setup();
        let coord = world.coordinator();
        let completed: BTreeMap<CheckpointId, _> = coord
            .store()
            .iter()
            .chain(coord.savepoints())
            .chain(coord.all_completed())
            .map(|c| (c.id, c.clone()))
            .collect();
        let checkpoints = coord
            .history()
            .values()
            .map(|h| {
                let acked = h.subtasks.values().filter(|s| s.ack_at.is_some());
                let (state_bytes, uploaded_bytes) = acked.fold((0, 0), |(a, b), s| {
                    (a + s.state_bytes, b + s.uploaded_bytes)
                });
                CheckpointSummary {
                    id: h.id,
                    kind: if h.kind == SnapshotKind::Checkpoint {
                        "checkpoint"
                    } else {
                        "savepoint"
                    }
                    .into(),
                    status: h.status,
                    trigger_ms: h.trigger_at,
                    end_ms: h.end_at,
                    reason: h.cause.clone(),
                    alignment_ms: h
                        .subtasks
                        .values()
                        .map(|s| s.alignment_ms())
                        .max()
                        .unwrap_or(0),
                    persisted_in_flight_records: h
                        .subtasks
                        .values()
                        .map(|s| s.persisted_records)
                        .sum(),
                    state_bytes,
                    uploaded_bytes,
                    metadata: if metadata != Metadata::Omitted
                        && h.status == CheckpointStatus::Completed
                    {
                        completed
                            .get(&h.id)
                            .map(|c| checkpoint_metadata_with(setup, c, metadata))
                    } else {
                        None
                    },
                    lost: h.lost,
                }
            })
            .collect();
        let failures = world
            .failures()
            .iter()
            .map(|f| FailureSummary {
                at_ms: f.at_ms,
                task: f.task.clone(),
                restored_from: f.restored_from,
                restarted_ms: f.restarted_ms,
                reason: f.reason.clone(),
            })
            .collect();
        let keys = &setup.keys;
        let show = |r: &crate::record::Record| OutputRecord {
            key: r.key.map(|k| keys.name(k).clone()),
            value: r.value,
        };
        let mut sinks = BTreeMap::new();
        for (oi, ext) in world.external() {
            let op = &setup.scenario.job.operators[*oi];
            debug_assert_eq!(op.kind, OperatorKind::Sink);
            let table = (op.sink == Some(SinkKind::Idempotent)).then(|| {
                ext.table
                    .iter()
                    .map(|(k, v)| (keys.name(*k).clone(), *v))
                    .collect()
            });
            sinks.insert(
                op.uid.clone(),
                SinkSummary {
                    committed: ext.committed.iter().map(show).collect(),
                    uncommitted: ext.uncommitted().iter().map(show).collect(),
                    aborted_transactions: ext.aborted_transactions(),
                    table,
                },
            );
        }
        Summary {
            scenario: setup.scenario.name.clone(),
            seed: setup.seed,
            end_ms: world.finished_at().unwrap_or(world.now()),
            job_status: world.status().as_str().into(),
            failure_reason: world.failure().cloned(),
            checkpoints,
            failures,
            sinks,
            warnings: setup.warnings.clone(),
        }
    }
}

/// `chk-N/_metadata` of completed checkpoint `c` of the run on `graph`, keyed by
/// operator uid, as the contract's `--metadata` prints it: per operator its source
/// offsets, keyed values, named states, operator state (transactions, rules) and the
/// channel state of each subtask (`in<i>` / `out<i>`); an operator whose subtasks
/// had all finished shows only `"fully_finished": true`. Flink: what
/// `Checkpoints.storeCheckpointMetadata` writes, in readable form.
pub fn checkpoint_metadata(graph: &JobGraph, c: &CompletedCheckpoint) -> Value {
    checkpoint_metadata_with(graph, c, Metadata::Included)
}

/// [`checkpoint_metadata`]; with [`Metadata::WithKeyGroups`] a keyed operator also lists its
/// `max_parallelism` and, per subtask, the inclusive key-group range its keyed state
/// covers (`"key_groups": {"0": [0, 63], "1": [64, 127]}`: the `KeyGroupRange` of
/// Flink's `KeyGroupsStateHandle`) — an extension the contract's `--metadata` leaves
/// out, asked for with `--key-groups`.
pub fn checkpoint_metadata_with(
    graph: &JobGraph,
    c: &CompletedCheckpoint,
    metadata: Metadata,
) -> Value {
    let key_groups = metadata == Metadata::WithKeyGroups;
    let mut out = Map::new();
    for (oi, op) in graph.scenario.job.operators.iter().enumerate() {
        // Flink: `FullyFinishedOperatorState` — no state, only the mark.
        if c.is_fully_finished(graph.subtasks_of(oi)) {
            out.insert(op.uid.clone(), json!({"fully_finished": true}));
            continue;
        }
        let mut entry = Map::new();
        let mut offsets = BTreeMap::new();
        let mut keyed = BTreeMap::new();
        let mut states: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
        let mut channels = Map::new();
        let mut operator = Vec::new();
        let mut ranges = Map::new();
        for (i, t) in graph.subtasks_of(oi).enumerate() {
            let Some(s) = c.tasks.get(&t) else { continue };
            if key_groups && op.is_keyed() {
                let range = crate::keygroup::key_group_range(
                    graph.max_parallelism[oi],
                    op.parallelism,
                    i as u32,
                );
                ranges.insert(i.to_string(), json!([range.start(), range.end()]));
            }
            match &s.state {
                OperatorSnapshot::Source { offsets: o } => offsets.extend(o.iter().map(|(p, v)| (*p, *v))),
                OperatorSnapshot::Keyed { entries } => {
                    keyed.extend(entries.iter().map(|(k, v)| (graph.keys.name(*k).to_string(), *v)))
                }
                OperatorSnapshot::TwoPhaseCommit { pending_transaction, pending_commit } => operator.push(json!({
                    "subtask": i,
                    "pending_transaction": pending_transaction,
                    "pending_commit": pending_commit.iter().map(|(c, t)| json!({"checkpoint": c, "txn": t})).collect::<Vec<_>>(),
                })),
                OperatorSnapshot::KeyedStates { states: s } => {
                    for (name, entries) in s {
                        states.entry(name.clone()).or_default().extend(
                            entries.iter().map(|(k, v)| (graph.keys.name(*k).to_string(), v.display())),
                        );
                    }
                }
                OperatorSnapshot::Broadcast { rules } => operator.push(json!({
                    "subtask": i,
                    "rules": rules.iter().map(|(k, v)| (graph.keys.name(*k).to_string(), *v)).collect::<BTreeMap<_, _>>(),
                })),
                OperatorSnapshot::Stateless => {}
            }
            let show = |r: &Record| json!({"key": graph.key_name(r.key), "value": r.value});
            let mut sub = Map::new();
            for (ch, recs) in &s.input_channels {
                sub.insert(
                    format!("in{}", ch.0),
                    Value::Array(recs.iter().map(show).collect()),
                );
            }
            for (ch, recs) in &s.output_channels {
                sub.insert(
                    format!("out{ch}"),
                    Value::Array(recs.iter().map(show).collect()),
                );
            }
            if !sub.is_empty() {
                channels.insert(i.to_string(), Value::Object(sub));
            }
        }
        if op.kind == OperatorKind::Source {
            entry.insert("offsets".into(), json!(offsets));
        }
        if matches!(op.kind, OperatorKind::KeyedCount | OperatorKind::KeyedSum) {
            entry.insert("keyed".into(), json!(keyed));
        }
        if op.kind.has_named_state() {
            entry.insert("states".into(), json!(states));
        }
        if !ranges.is_empty() {
            entry.insert("max_parallelism".into(), json!(graph.max_parallelism[oi]));
            entry.insert("key_groups".into(), Value::Object(ranges));
        }
        if !operator.is_empty() {
            entry.insert("operator".into(), Value::Array(operator));
        }
        if !channels.is_empty() {
            entry.insert("channels".into(), Value::Object(channels));
        }
        if !entry.is_empty() {
            out.insert(op.uid.clone(), Value::Object(entry));
        }
    }
    Value::Object(out)
}
