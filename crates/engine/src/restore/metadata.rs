//! What a snapshot stores, independent of task ids and key ids: per operator uid,
//! its parallelism, max parallelism and one [`SubtaskState`] per old subtask.
//! Flink: `CheckpointMetadata`, `OperatorState`, `OperatorSubtaskState`, written by
//! `Checkpoints.storeCheckpointMetadata` ([`from_completed`]).

use crate::event::SnapshotKind;
use crate::ids::{ChannelIndex, CheckpointId};
use crate::job_graph::JobGraph;
use crate::record::Record;
use crate::scenario::{Job, ListStateMode, OperatorSpec, Partitioning};
use crate::snapshot::{
    CompletedCheckpoint, OperatorSnapshot, StateValue, TaskSnapshot, TxnState, BROADCAST_STATE,
    SOURCE_OFFSETS_STATE, TWO_PHASE_COMMIT_STATE, VALUE_STATE,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// How an operator list state is redistributed when restored.
/// Flink: `OperatorStateHandle.Mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DistributionMode {
    /// `getListState`: unchanged parallelism — every subtask gets its own list back;
    /// changed — all lists concatenated in old-subtask order and cut into contiguous
    /// chunks (docs/flink-semantics.md §6.3). Flink: `SPLIT_DISTRIBUTE`.
    SplitDistribute,
    /// `getUnionListState`: every new subtask gets the concatenation of all lists.
    /// Flink: `UNION`.
    Union,
    /// Broadcast state: every new subtask `i` gets the copy of old subtask `i mod p`
    /// (of those that reported one). Flink: `BROADCAST`.
    Broadcast,
}

/// One operator list state of one subtask: its distribution mode and its elements.
/// Flink: a state name's entry in `OperatorStateHandle.getStateNameToPartitionOffsets`
/// (`StateMetaInfo`: mode and one offset per element).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListState {
    /// How it is redistributed.
    pub mode: DistributionMode,
    /// The elements, in list order.
    pub elements: Vec<StateValue>,
}

/// The value of one key in one keyed state, with the key's key group.
/// Flink: an entry of a `KeyGroupsStateHandle`, which is organised by key group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyedEntry {
    /// `murmurHash(key.hashCode()) % maxParallelism` when the snapshot was taken.
    pub key_group: u32,
    /// The value.
    pub value: StateValue,
}

/// A persisted in-flight record with its key spelled out and its origin's source
/// named by uid. Flink: one buffer's worth of `InputChannelStateHandle` /
/// `ResultSubpartitionStateHandle` data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersistedRecord {
    /// The key's text, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The value.
    pub value: i64,
    /// Uid of the source operator the record derives from.
    pub source: String,
    /// Partition of that source.
    pub partition: u16,
    /// Offset in the partition.
    pub offset: u32,
}

/// What one old subtask stored for one operator.
/// Flink: `OperatorSubtaskState` (managed operator state, managed keyed state,
/// input-channel and result-subpartition state); `finished` is
/// `FinishedOperatorSubtaskState`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubtaskState {
    /// The subtask had finished when the snapshot was taken.
    /// When every subtask of the operator had finished, nothing else is stored (Flink:
    /// `FullyFinishedOperatorState`, see [`from_completed`]).
    /// Simplified: Flink stores no state for a finished subtask of an operator that
    /// still runs elsewhere (`FinishedOperatorSubtaskState`); the lab keeps its last
    /// state (it is redistributed like any other, and [`SubtaskState::has_state`]
    /// ignores it, as Flink would find nothing).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub finished: bool,
    /// Operator list states by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub operator: BTreeMap<String, ListState>,
    /// Keyed states by name, each by key. A registered state with no key is present
    /// and empty (Flink writes its meta data all the same).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub keyed: BTreeMap<String, BTreeMap<String, KeyedEntry>>,
    /// Unaligned: persisted in-flight records per input channel.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub input_channels: BTreeMap<ChannelIndex, Vec<PersistedRecord>>,
    /// Unaligned: records the barrier overtook in the output queue, per output
    /// channel (numbered over all of the subtask's outputs, edge by edge).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub output_channels: BTreeMap<u32, Vec<PersistedRecord>>,
}

impl SubtaskState {
    /// Whether this subtask stored any state: a registered operator or keyed state
    /// (even empty), or persisted in-flight records. A finished subtask has none.
    /// Flink: `OperatorSubtaskState.hasState()` (false for
    /// `FinishedOperatorSubtaskState`).
    pub fn has_state(&self) -> bool {
        !self.finished
            && (!self.operator.is_empty() || !self.keyed.is_empty() || self.has_channel_state())
    }

    /// Whether nothing is stored, finished or not.
    pub(super) fn is_empty_state(&self) -> bool {
        self.operator.is_empty() && self.keyed.is_empty() && !self.has_channel_state()
    }

    /// Whether this subtask persisted in-flight records (unaligned checkpoints).
    pub fn has_channel_state(&self) -> bool {
        self.input_channels
            .values()
            .chain(self.output_channels.values())
            .any(|v| !v.is_empty())
    }
}

/// One edge at an operator, as far as channel numbering depends on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeLayout {
    /// The operator at the other end.
    pub peer: String,
    /// The edge's effective partitioning.
    pub partitioning: Partitioning,
    /// The other end's parallelism.
    pub peer_parallelism: u32,
}

/// Everything stored for one operator.
/// Flink: `OperatorState` (operator id, parallelism, max parallelism, subtask states).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OperatorState {
    /// Number of key groups when the snapshot was taken.
    pub max_parallelism: u32,
    /// Parallelism when the snapshot was taken.
    pub parallelism: u32,
    /// One entry per old subtask, by subtask index.
    pub subtasks: Vec<SubtaskState>,
    /// Incoming edges in document order (what numbers input channels); only used to
    /// decide whether persisted in-flight records can be restored.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<EdgeLayout>,
    /// Outgoing edges in document order (what numbers output channels).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<EdgeLayout>,
}

impl OperatorState {
    /// Whether any subtask stored state. Flink: the loop over
    /// `operatorState.getStates()` calling `hasState()` in
    /// `Checkpoints.loadAndValidateCheckpoint`.
    pub fn has_state(&self) -> bool {
        self.subtasks.iter().any(SubtaskState::has_state)
    }

    /// Whether every subtask had finished. Flink: `FullyFinishedOperatorState`.
    pub fn is_fully_finished(&self) -> bool {
        !self.subtasks.is_empty() && self.subtasks.iter().all(|s| s.finished)
    }
}

/// A snapshot's state, independent of task ids and key ids: what a savepoint's
/// `_metadata` holds. Flink: `CheckpointMetadata` (checkpoint id and operator states).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavepointState {
    /// The checkpoint or savepoint id.
    pub checkpoint: CheckpointId,
    /// Checkpoint or savepoint.
    pub kind: SnapshotKind,
    /// Per operator uid.
    pub operators: BTreeMap<String, OperatorState>,
}

impl SavepointState {
    /// How messages name the snapshot (Flink prints its external pointer).
    pub fn pointer(&self) -> String {
        let word = if self.kind.is_savepoint() {
            "savepoint"
        } else {
            "checkpoint"
        };
        format!("{word} {}", self.checkpoint)
    }

    /// Every key this state names (keyed state and persisted records). A World that
    /// restores it must have interned them all in its
    /// [`KeyTable`](crate::record::KeyTable) before calling [`assign`](super::assign).
    pub fn key_names(&self) -> BTreeSet<&str> {
        let mut out = BTreeSet::new();
        for op in self.operators.values() {
            for s in &op.subtasks {
                for entries in s.keyed.values() {
                    out.extend(entries.keys().map(String::as_str));
                }
                for list in s.operator.values() {
                    out.extend(list.elements.iter().filter_map(|v| match v {
                        StateValue::Entry { key, .. } => Some(key.as_str()),
                        _ => None,
                    }));
                }
                for r in s
                    .input_channels
                    .values()
                    .chain(s.output_channels.values())
                    .flatten()
                {
                    if let Some(k) = &r.key {
                        out.insert(k.as_str());
                    }
                }
            }
        }
        out
    }
}

fn persisted(r: &Record, graph: &JobGraph) -> PersistedRecord {
    let job = &graph.scenario.job;
    PersistedRecord {
        key: r.key.map(|k| graph.keys.name(k).to_string()),
        value: r.value,
        source: job
            .operators
            .get(r.origin.source as usize)
            .map(|o| o.uid.clone())
            .unwrap_or_default(),
        partition: r.origin.partition,
        offset: r.origin.offset,
    }
}

pub(super) fn input_layout(job: &Job, uid: &str) -> Vec<EdgeLayout> {
    job.incoming_edges(uid)
        .map(|(_, e)| EdgeLayout {
            peer: e.from.clone(),
            partitioning: e.resolved_partitioning(job),
            peer_parallelism: job.operator(&e.from).map_or(0, |o| o.parallelism),
        })
        .collect()
}

pub(super) fn output_layout(job: &Job, uid: &str) -> Vec<EdgeLayout> {
    job.outgoing_edges(uid)
        .map(|(_, e)| EdgeLayout {
            peer: e.to.clone(),
            partitioning: e.resolved_partitioning(job),
            peer_parallelism: job.operator(&e.to).map_or(0, |o| o.parallelism),
        })
        .collect()
}

fn subtask_state(
    snap: &TaskSnapshot,
    graph: &JobGraph,
    op: &OperatorSpec,
    key_groups: u32,
) -> SubtaskState {
    let mut s = SubtaskState {
        finished: snap.finished,
        ..SubtaskState::default()
    };
    match &snap.state {
        OperatorSnapshot::Broadcast { rules } => {
            let elements = rules
                .iter()
                .map(|(k, v)| StateValue::Entry {
                    key: graph.keys.name(*k).to_string(),
                    value: *v,
                })
                .collect();
            s.operator.insert(
                BROADCAST_STATE.to_string(),
                ListState {
                    mode: DistributionMode::Broadcast,
                    elements,
                },
            );
        }
        OperatorSnapshot::Source { offsets } => {
            let elements = offsets
                .iter()
                .map(|(p, o)| StateValue::Offset {
                    partition: *p,
                    offset: *o,
                })
                .collect();
            // The source declares its offsets even-split (contract) or union.
            let mode = match op.offsets_state {
                ListStateMode::EvenSplit => DistributionMode::SplitDistribute,
                ListStateMode::Union => DistributionMode::Union,
            };
            s.operator.insert(
                SOURCE_OFFSETS_STATE.to_string(),
                ListState { mode, elements },
            );
        }
        OperatorSnapshot::Keyed { entries } => {
            let entries = entries
                .iter()
                .map(|(k, v)| {
                    let entry = KeyedEntry {
                        key_group: graph.keys.key_group(*k, key_groups),
                        value: StateValue::Int(*v),
                    };
                    (graph.keys.name(*k).to_string(), entry)
                })
                .collect();
            s.keyed.insert(VALUE_STATE.to_string(), entries);
        }
        OperatorSnapshot::TwoPhaseCommit {
            pending_transaction,
            pending_commit,
        } => {
            let element = StateValue::Transaction(TxnState {
                pending_transaction: *pending_transaction,
                pending_commit: pending_commit.clone(),
            });
            s.operator.insert(
                TWO_PHASE_COMMIT_STATE.to_string(),
                ListState {
                    mode: DistributionMode::SplitDistribute,
                    elements: vec![element],
                },
            );
        }
        OperatorSnapshot::KeyedStates { states } => {
            for (name, entries) in states {
                let entries = entries
                    .iter()
                    .map(|(k, v)| {
                        let entry = KeyedEntry {
                            key_group: graph.keys.key_group(*k, key_groups),
                            value: v.to_state_value(op.ttl.is_some()),
                        };
                        (graph.keys.name(*k).to_string(), entry)
                    })
                    .collect();
                s.keyed.insert(name.clone(), entries);
            }
        }
        OperatorSnapshot::Stateless => {}
    }
    s.input_channels = snap
        .input_channels
        .iter()
        .map(|(c, rs)| (*c, rs.iter().map(|r| persisted(r, graph)).collect()))
        .collect();
    s.output_channels = snap
        .output_channels
        .iter()
        .map(|(c, rs)| (*c, rs.iter().map(|r| persisted(r, graph)).collect()))
        .collect();
    s
}

/// The task-id-independent state of a completed checkpoint or savepoint of the run
/// described by `graph`: per operator uid, one [`SubtaskState`] per subtask (empty
/// for a subtask the checkpoint has no snapshot of).
///
/// Flink: what `Checkpoints.storeCheckpointMetadata` writes to `_metadata`. An
/// operator whose subtasks had all finished is stored as fully finished, with no
/// state: each subtask only `finished` (Flink: `FullyFinishedOperatorState`, from
/// `DefaultCheckpointPlan.fulfillFinishedTaskStatus`).
/// Precondition: `c` was taken by a World built with `graph` (its
/// [`crate::record::KeyId`]s are `graph.keys`'s).
pub fn from_completed(c: &CompletedCheckpoint, graph: &JobGraph) -> SavepointState {
    let job = &graph.scenario.job;
    let mut operators = BTreeMap::new();
    for (oi, op) in job.operators.iter().enumerate() {
        let first = graph.op_first_task.get(oi).copied().unwrap_or(0);
        let ids = (0..op.parallelism).map(|i| crate::ids::TaskId(first.saturating_add(i)));
        let subtasks = if c.is_fully_finished(ids.clone()) {
            let done = SubtaskState {
                finished: true,
                ..SubtaskState::default()
            };
            vec![done; op.parallelism as usize]
        } else {
            ids.map(|t| {
                c.tasks
                    .get(&t)
                    .map(|snap| subtask_state(snap, graph, op, graph.max_parallelism[oi]))
                    .unwrap_or_default()
            })
            .collect()
        };
        operators.insert(
            op.uid.clone(),
            OperatorState {
                max_parallelism: graph.max_parallelism[oi],
                parallelism: op.parallelism,
                subtasks,
                inputs: input_layout(job, &op.uid),
                outputs: output_layout(job, &op.uid),
            },
        );
    }
    SavepointState {
        checkpoint: c.id,
        kind: c.kind,
        operators,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::restore::{assign, NonRestoredState};

    /// broadcast-rules ends with a final checkpoint taken after `gate`'s three
    /// subtasks finished (the two-phase-commit sink still waits for it): `gate` is
    /// stored fully finished with no state — in `_metadata`, in `lab run --metadata`
    /// and on restore, where each subtask finishes at once with nothing to restore —
    /// while the waiting sink keeps its transactions.
    #[test]
    fn an_operator_whose_subtasks_all_finished_is_stored_fully_finished() {
        let s = crate::scenario::Scenario::from_json(include_str!(
            "../../scenarios/broadcast-rules.json"
        ))
        .expect("the built-in validates");
        let mut w = crate::World::new(&s, s.seed).expect("builds");
        // The finished job discards its checkpoints; keep them to read the last.
        w.keep_all_completed(true);
        w.run_to_end(None, 60_000, |_| {});
        let last = w
            .coordinator()
            .all_completed()
            .iter()
            .max_by_key(|c| c.id)
            .expect("a final checkpoint")
            .clone();
        let graph = w.setup();
        let gate = graph
            .scenario
            .job
            .operators
            .iter()
            .position(|o| o.uid == "gate")
            .expect("gate");
        assert!(
            graph
                .subtasks_of(gate)
                .all(|t| last.tasks.get(&t).is_some_and(|s| s.finished)),
            "every gate subtask had finished by chk-{}",
            last.id.0
        );

        let stored = from_completed(&last, graph);
        let g = &stored.operators["gate"];
        assert!(g.is_fully_finished());
        assert!(!g.has_state());
        assert!(
            g.subtasks.iter().all(|s| s.finished && s.is_empty_state()),
            "{g:?}"
        );
        let out = &stored.operators["out"];
        assert!(!out.is_fully_finished() && out.has_state(), "{out:?}");

        let shown = crate::summary::checkpoint_metadata(graph, &last);
        assert_eq!(shown["gate"], serde_json::json!({"fully_finished": true}));
        assert!(shown["out"].get("fully_finished").is_none(), "{shown}");

        let plan = assign(&stored, &s.job, NonRestoredState::Refuse, &graph.keys)
            .expect("restores");
        let restored: Vec<_> = plan
            .iter()
            .filter(|((oi, _), _)| *oi == gate)
            .map(|(_, r)| r)
            .collect();
        assert_eq!(restored.len(), 3);
        assert!(
            restored
                .iter()
                .all(|r| r.finished && r.operator.is_empty() && r.keyed.is_empty()),
            "{restored:?}"
        );
    }
}
