//! Assigning a snapshot's state to the subtasks of a (possibly changed, possibly
//! rescaled) job: which new subtask gets which keys, which list-state elements, which
//! transactions. Flink: `StateAssignmentOperation`, `RoundRobinOperatorStateRepartitioner`,
//! `Checkpoints.loadAndValidateCheckpoint`, `KeyGroupRangeAssignment`
//! (flink-semantics.md §5.3, §5.4, §6.3, §6.4).
//!
//! # Two steps
//! 1. [`from_completed`] turns what the [`crate::World`] stores — a
//!    [`CompletedCheckpoint`], whose snapshots are keyed by [`crate::ids::TaskId`] and
//!    whose keys are [`KeyId`]s of one run's [`KeyTable`] — into a [`SavepointState`]:
//!    per operator **uid**, its max parallelism, parallelism and one [`SubtaskState`]
//!    per old subtask, with keys spelled out and each keyed entry carrying its key
//!    group. Nothing in it depends on task ids, key ids or operator positions, so it
//!    can be serialized (a share link, the page's "savepoint file") and restored into
//!    another job.
//! 2. [`assign`] maps that state onto a new [`Job`] exactly as Flink does on
//!    `flink run -s <savepoint> [-n]` or on a failover: operators are matched by uid;
//!    the checks of `Checkpoints.loadAndValidateCheckpoint` and
//!    `StateAssignmentOperation.checkParallelismPreconditions` come first, with Flink's
//!    messages; then keyed state is cut along the new key-group ranges and operator
//!    list state is redistributed by its mode (split-distribute, union, broadcast).
//!    The result is one [`SubtaskRestore`] per new subtask that gets state, keyed by
//!    `(operator index in the new job, subtask index)`; a subtask absent from the map
//!    starts fresh (Flink: no `JobManagerTaskRestore`, `isRestored() == false`).
//!
//! # State names
//! Flink addresses operator and keyed state by the name of its state descriptor. The
//! lab's built-in operators use:
//! - sources: [`SOURCE_OFFSETS_STATE`], operator list state, split-distribute, one
//!   [`StateValue::Offset`] per partition (contract: "a rescaled restore redistributes
//!   the offsets as Flink redistributes operator list state (even split)");
//! - `keyed_count` / `keyed_sum`: [`VALUE_STATE`], keyed `ValueState`, one
//!   [`StateValue::Int`] per key;
//! - the two-phase-commit sink: [`TWO_PHASE_COMMIT_STATE`] (Flink's descriptor name in
//!   `TwoPhaseCommitSinkFunction`), operator list state, split-distribute, exactly one
//!   [`StateValue::Transaction`] per old subtask.
//!
//! Further named states (union, broadcast, more keyed states) go into the same maps
//! under their own names; [`StateValue`] grows new variants for new value types.
//!
//! # The two-phase-commit sink after a rescale
//! `TwoPhaseCommitSinkFunction.initializeState` iterates every element of its
//! restored list state: it commits (`recoverAndCommit`) every pre-committed
//! transaction of the element and aborts (`recoverAndAbort`) the element's pending
//! transaction, then begins one new transaction. Split-distribute hands a new subtask
//! zero, one or several elements: with zero (scale-out) it recovers nothing and just
//! begins a transaction; with several (scale-in) it commits the pre-committed
//! transactions of all of them and aborts all their pending transactions — see
//! [`SubtaskRestore::two_phase_commit_recovery`].
//!
//! # Determinism
//! Only ordered maps are iterated. Where Flink's order is a `HashMap`'s (the order of
//! state names, and of old state handles inside one new subtask), the lab uses name
//! order and old-subtask order.

use crate::event::SnapshotKind;
use crate::ids::{ChannelIndex, CheckpointId};
use crate::job_graph::JobGraph;
use crate::keygroup;
use crate::parallelism::{self, MaxParallelism};
use crate::record::{KeyId, KeyTable, Origin, Record};
use crate::scenario::{Job, ListStateMode, OperatorKind, OperatorSpec, Partitioning, SinkKind};
use crate::snapshot::{CompletedCheckpoint, OperatorSnapshot, TaskSnapshot};
pub use crate::snapshot::{
    StateValue, TxnState, BROADCAST_STATE, SOURCE_OFFSETS_STATE, TWO_PHASE_COMMIT_STATE,
    VALUE_STATE,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::RangeInclusive;

/// How an operator list state is redistributed when restored.
/// Flink: `OperatorStateHandle.Mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DistributionMode {
    /// `getListState`: unchanged parallelism — every subtask gets its own list back;
    /// changed — all lists concatenated in old-subtask order and cut into contiguous
    /// chunks (flink-semantics.md §6.3). Flink: `SPLIT_DISTRIBUTE`.
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
    /// Simplified: Flink stores no state for a finished subtask; the lab keeps its
    /// last state (it is redistributed like any other, and [`SubtaskState::has_state`]
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
    fn is_empty_state(&self) -> bool {
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
    /// restores it must have interned them all in its [`KeyTable`] before calling
    /// [`assign`].
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

/// What one new subtask restores.
/// Flink: the `OperatorSubtaskState` of a `JobManagerTaskRestore`
/// (`TaskStateAssignment.getSubtaskState`); `finished` is
/// `TaskStateSnapshot.FINISHED_ON_RESTORE`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubtaskRestore {
    /// Every old subtask of the operator had finished: this one finishes at once.
    pub finished: bool,
    /// The key groups this subtask owns (`KeyGroupRangeAssignment
    /// .computeKeyGroupRangeForOperatorIndex`).
    pub key_groups: RangeInclusive<u32>,
    /// Operator list states by name, redistributed. Under split-distribute a state
    /// that gives this subtask no element is absent (Flink adds no handle for it).
    pub operator: BTreeMap<String, ListState>,
    /// Keyed states by name: exactly the keys whose key group is in `key_groups`.
    /// Every keyed state of the operator is present, possibly empty.
    pub keyed: BTreeMap<String, BTreeMap<KeyId, StateValue>>,
    /// Persisted in-flight records per input channel (only with unchanged
    /// parallelism and edges: the subtask's own).
    pub input_channels: BTreeMap<ChannelIndex, Vec<Record>>,
    /// Persisted output-queue records per output channel.
    pub output_channels: BTreeMap<u32, Vec<Record>>,
}

/// What a two-phase-commit sink subtask does with its restored elements.
/// Flink: the loop in `TwoPhaseCommitSinkFunction.initializeState`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TwoPhaseCommitRecovery {
    /// `recoverAndCommit`, in element order then insertion order.
    pub commit: Vec<(CheckpointId, u64)>,
    /// `recoverAndAbort`: every element's pending transaction, in element order.
    pub abort: Vec<u64>,
}

impl SubtaskRestore {
    /// The elements of list state `name`, or none.
    pub fn list(&self, name: &str) -> &[StateValue] {
        self.operator
            .get(name)
            .map_or(&[], |l| l.elements.as_slice())
    }

    /// A source's offsets by partition (the [`SOURCE_OFFSETS_STATE`] elements).
    pub fn offsets(&self) -> BTreeMap<u32, u64> {
        self.list(SOURCE_OFFSETS_STATE)
            .iter()
            .filter_map(|v| match v {
                StateValue::Offset { partition, offset } => Some((*partition, *offset)),
                _ => None,
            })
            .collect()
    }

    /// A two-phase-commit sink's restored elements ([`TWO_PHASE_COMMIT_STATE`]), in
    /// order: none, one, or several after a scale-in.
    pub fn transactions(&self) -> Vec<&TxnState> {
        self.list(TWO_PHASE_COMMIT_STATE)
            .iter()
            .filter_map(|v| match v {
                StateValue::Transaction(t) => Some(t),
                _ => None,
            })
            .collect()
    }

    /// What the two-phase-commit sink commits and aborts on restore: for every
    /// restored element, its pre-committed transactions are committed and its pending
    /// transaction aborted (Flink: `recoverAndCommit` / `recoverAndAbort`). Empty
    /// when no element reached this subtask (scale-out): it only begins a new
    /// transaction.
    pub fn two_phase_commit_recovery(&self) -> TwoPhaseCommitRecovery {
        let mut out = TwoPhaseCommitRecovery::default();
        for t in self.transactions() {
            out.commit.extend(t.pending_commit.iter().copied());
            out.abort.extend(t.pending_transaction);
        }
        out
    }

    /// The keyed `ValueState` of `keyed_count` / `keyed_sum` ([`VALUE_STATE`]).
    pub fn keyed_values(&self) -> BTreeMap<KeyId, i64> {
        self.keyed
            .get(VALUE_STATE)
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| match v {
                StateValue::Int(n) => Some((*k, *n)),
                _ => None,
            })
            .collect()
    }

    /// This restore as the [`TaskSnapshot`] the World's `start_tasks` reads today,
    /// chosen by the new operator's kind (state of another shape is not read, as a
    /// Flink operator never asks for a state it does not register).
    ///
    /// Simplified: a [`OperatorSnapshot::TwoPhaseCommit`] holds one pending
    /// transaction; when several elements reached this subtask (scale-in), the
    /// pre-committed transactions of all of them are merged into `pending_commit`
    /// but only the first pending transaction fits — the World must abort the others
    /// from [`SubtaskRestore::two_phase_commit_recovery`]. `keys` must be the table
    /// passed to [`assign`] (it sizes the snapshot).
    pub fn to_task_snapshot(&self, op: &OperatorSpec, keys: &KeyTable) -> TaskSnapshot {
        let state = match op.kind {
            OperatorKind::Source => OperatorSnapshot::Source {
                offsets: self.offsets(),
            },
            OperatorKind::KeyedCount | OperatorKind::KeyedSum => OperatorSnapshot::Keyed {
                entries: self.keyed_values(),
            },
            kind if kind.has_named_state() => OperatorSnapshot::KeyedStates {
                states: self
                    .keyed
                    .iter()
                    .map(|(name, entries)| {
                        let entries = entries
                            .iter()
                            .filter_map(|(k, v)| {
                                Some((*k, crate::state::StoredValue::from_state_value(v)?))
                            })
                            .collect();
                        (name.clone(), entries)
                    })
                    .collect(),
            },
            OperatorKind::BroadcastFilter => OperatorSnapshot::Broadcast {
                rules: self
                    .list(BROADCAST_STATE)
                    .iter()
                    .filter_map(|v| match v {
                        StateValue::Entry { key, value } => Some((keys.get(key)?, *value)),
                        _ => None,
                    })
                    .collect(),
            },
            OperatorKind::Sink if op.sink == Some(SinkKind::TwoPhaseCommit) => {
                let r = self.two_phase_commit_recovery();
                OperatorSnapshot::TwoPhaseCommit {
                    pending_transaction: r.abort.first().copied(),
                    pending_commit: r.commit,
                }
            }
            _ => OperatorSnapshot::Stateless,
        };
        let records = self
            .input_channels
            .values()
            .chain(self.output_channels.values())
            .flatten();
        let bytes =
            TaskSnapshot::operator_bytes(&state, keys) + TaskSnapshot::channel_bytes(records, keys);
        TaskSnapshot {
            finished: self.finished,
            state,
            input_channels: self.input_channels.clone(),
            output_channels: self.output_channels.clone(),
            state_bytes: bytes,
            uploaded_bytes: bytes,
        }
    }
}

/// Why a snapshot's state cannot be assigned to the new job. Every variant names the
/// operator uid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RestoreError {
    /// State of an operator the new job does not have, non-empty, and
    /// `allow_non_restored_state` off. Flink: `Checkpoints.throwNonRestoredStateException`.
    NotMapped {
        /// The snapshot, as [`SavepointState::pointer`] names it.
        pointer: String,
        /// The operator.
        uid: String,
    },
    /// The number of key groups changed. Flink: `Checkpoints.loadAndValidateCheckpoint`.
    MaxParallelismMismatch {
        /// The snapshot.
        pointer: String,
        /// The operator.
        uid: String,
        /// Stored max parallelism.
        stored: u32,
        /// The new job's max parallelism.
        new: u32,
    },
    /// New parallelism above the stored max parallelism. Flink:
    /// `StateAssignmentOperation.checkParallelismPreconditions`.
    ParallelismAboveMaxParallelism {
        /// The operator.
        uid: String,
        /// Stored max parallelism.
        max_parallelism: u32,
        /// The new parallelism.
        parallelism: u32,
    },
    /// Persisted in-flight records cannot follow a rescale. Flink can
    /// (`InflightDataRescalingDescriptor`); the lab cannot (out of scope, §2.4).
    ChannelStateRescaled {
        /// The operator.
        uid: String,
        /// Parallelism when the snapshot was taken.
        old: u32,
        /// The new parallelism.
        new: u32,
    },
    /// Persisted in-flight records cannot follow a change of the edges at the
    /// operator (channel numbering changed). Flink maps channel state across changed
    /// exchanges; the lab does not.
    ChannelStateTopologyChanged {
        /// The operator.
        uid: String,
        /// What changed.
        what: String,
    },
    /// A stored key is not in the new World's key table.
    UnknownKey {
        /// The operator.
        uid: String,
        /// The key.
        key: String,
    },
    /// A stored key's key group is not the one the new job computes for it.
    KeyGroupMismatch {
        /// The operator.
        uid: String,
        /// The key.
        key: String,
        /// Key group in the snapshot.
        stored: u32,
        /// Key group in the new job.
        computed: u32,
    },
    /// The stored state contradicts itself (a hand-edited or damaged savepoint).
    Corrupt {
        /// The operator.
        uid: String,
        /// What is wrong.
        what: String,
    },
    /// The new job cannot take state as described (what validation would reject).
    InvalidJob {
        /// The operator.
        uid: String,
        /// What is wrong.
        what: String,
    },
}

impl RestoreError {
    /// The uid of the operator the error is about.
    pub fn uid(&self) -> &str {
        match self {
            RestoreError::NotMapped { uid, .. }
            | RestoreError::MaxParallelismMismatch { uid, .. }
            | RestoreError::ParallelismAboveMaxParallelism { uid, .. }
            | RestoreError::ChannelStateRescaled { uid, .. }
            | RestoreError::ChannelStateTopologyChanged { uid, .. }
            | RestoreError::UnknownKey { uid, .. }
            | RestoreError::KeyGroupMismatch { uid, .. }
            | RestoreError::Corrupt { uid, .. }
            | RestoreError::InvalidJob { uid, .. } => uid,
        }
    }
}

impl fmt::Display for RestoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RestoreError::NotMapped { pointer, uid } => write!(
                f,
                "Failed to rollback to checkpoint/savepoint {pointer}. Cannot map checkpoint/savepoint state for \
                 operator {uid} to the new program, because the operator is not available in the new program. If \
                 you want to allow to skip this, you can set the --allowNonRestoredState option on the CLI."
            ),
            RestoreError::MaxParallelismMismatch { pointer, uid, stored, new } => write!(
                f,
                "Failed to rollback to checkpoint/savepoint {pointer}. Max parallelism mismatch between \
                 checkpoint/savepoint state and new program. Cannot map operator {uid} with max parallelism \
                 {stored} to new program with max parallelism {new}. This indicates that the program has been \
                 changed in a non-compatible way after the checkpoint/savepoint."
            ),
            RestoreError::ParallelismAboveMaxParallelism { uid, max_parallelism, parallelism } => write!(
                f,
                "The state for task {uid} can not be restored. The maximum parallelism ({max_parallelism}) of the \
                 restored state is lower than the configured parallelism ({parallelism}). Please reduce the \
                 parallelism of the task to be lower or equal to the maximum parallelism."
            ),
            RestoreError::ChannelStateRescaled { uid, old, new } => write!(
                f,
                "Cannot restore the in-flight data (unaligned checkpoint channel state) of operator {uid}: its \
                 parallelism changed from {old} to {new}. Flink redistributes in-flight data on rescaling; the lab \
                 does not. Restore with parallelism {old}, or from a savepoint or an aligned checkpoint."
            ),
            RestoreError::ChannelStateTopologyChanged { uid, what } => write!(
                f,
                "Cannot restore the in-flight data (unaligned checkpoint channel state) of operator {uid}: {what}, \
                 so its channels are numbered differently. Flink maps in-flight data onto changed exchanges; the \
                 lab does not. Keep the edges as they were, or restore from a savepoint or an aligned checkpoint."
            ),
            RestoreError::UnknownKey { uid, key } => write!(
                f,
                "Cannot restore the state of operator {uid}: key \"{key}\" is not in the new job's key table."
            ),
            RestoreError::KeyGroupMismatch { uid, key, stored, computed } => write!(
                f,
                "Cannot restore the keyed state of operator {uid}: key \"{key}\" was stored in key group {stored} \
                 but belongs to key group {computed} in the new program."
            ),
            RestoreError::Corrupt { uid, what } => {
                write!(f, "The checkpoint/savepoint state of operator {uid} is corrupt: {what}.")
            }
            RestoreError::InvalidJob { uid, what } => {
                write!(f, "Cannot restore state into operator {uid} of the new program: {what}.")
            }
        }
    }
}

impl std::error::Error for RestoreError {}

fn persisted(r: &Record, setup: &JobGraph) -> PersistedRecord {
    let job = &setup.scenario.job;
    PersistedRecord {
        key: r.key.map(|k| setup.keys.name(k).to_string()),
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

fn input_layout(job: &Job, uid: &str) -> Vec<EdgeLayout> {
    job.incoming_edges(uid)
        .map(|(_, e)| EdgeLayout {
            peer: e.from.clone(),
            partitioning: e.resolved_partitioning(job),
            peer_parallelism: job.operator(&e.from).map_or(0, |o| o.parallelism),
        })
        .collect()
}

fn output_layout(job: &Job, uid: &str) -> Vec<EdgeLayout> {
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
    setup: &JobGraph,
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
                    key: setup.keys.name(*k).to_string(),
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
                        key_group: setup.keys.key_group(*k, key_groups),
                        value: StateValue::Int(*v),
                    };
                    (setup.keys.name(*k).to_string(), entry)
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
                            key_group: setup.keys.key_group(*k, key_groups),
                            value: v.to_state_value(op.ttl.is_some()),
                        };
                        (setup.keys.name(*k).to_string(), entry)
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
        .map(|(c, rs)| (*c, rs.iter().map(|r| persisted(r, setup)).collect()))
        .collect();
    s.output_channels = snap
        .output_channels
        .iter()
        .map(|(c, rs)| (*c, rs.iter().map(|r| persisted(r, setup)).collect()))
        .collect();
    s
}

/// The task-id-independent state of a completed checkpoint or savepoint of the run
/// described by `setup`: per operator uid, one [`SubtaskState`] per subtask (empty
/// for a subtask the checkpoint has no snapshot of).
///
/// Flink: what `Checkpoints.storeCheckpointMetadata` writes to `_metadata`.
/// Precondition: `c` was taken by a World built with `setup` (its [`KeyId`]s are
/// `setup.keys`'s).
pub fn from_completed(c: &CompletedCheckpoint, setup: &JobGraph) -> SavepointState {
    let job = &setup.scenario.job;
    let mut operators = BTreeMap::new();
    for (oi, op) in job.operators.iter().enumerate() {
        let first = setup.op_first_task.get(oi).copied().unwrap_or(0);
        let subtasks = (0..op.parallelism)
            .map(|i| {
                let t = crate::ids::TaskId(first.saturating_add(i));
                c.tasks
                    .get(&t)
                    .map(|snap| subtask_state(snap, setup, op, setup.max_parallelism[oi]))
                    .unwrap_or_default()
            })
            .collect();
        operators.insert(
            op.uid.clone(),
            OperatorState {
                max_parallelism: setup.max_parallelism[oi],
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

/// The uids whose state the new job does not take (skipped under
/// `allow_non_restored_state`, or silently because the state is empty), in uid
/// order. Flink logs "Skipping savepoint state for operator …".
pub fn non_restored_operators<'a>(state: &'a SavepointState, new_job: &Job) -> Vec<&'a str> {
    state
        .operators
        .keys()
        .filter(|uid| new_job.operator(uid).is_none())
        .map(String::as_str)
        .collect()
}

/// Each operator's max parallelism in `job` restored from `state` (or started
/// fresh, `None`), by operator index: configured, or derived and — when `state`
/// holds the operator — the stored value. Flink:
/// `StateAssignmentOperation.checkParallelismPreconditions`, which calls
/// `ExecutionJobVertex.setMaxParallelism` when `canRescaleMaxParallelism` allows.
/// A value that cannot be adopted stays; [`assign`] then refuses the snapshot.
pub fn adopted_max_parallelism(state: Option<&SavepointState>, job: &Job) -> Vec<u32> {
    parallelism::of_job(job)
        .into_iter()
        .zip(&job.operators)
        .map(|(mut m, op)| {
            if let Some(stored) = state.and_then(|s| s.operators.get(&op.uid)) {
                m.adopt(stored.max_parallelism);
            }
            m.value()
        })
        .collect()
}

/// Assign `state` to the subtasks of `new_job`, as Flink does when it restores a
/// checkpoint or savepoint. Returns one [`SubtaskRestore`] per new subtask that is
/// restored, keyed by `(index of its operator in new_job.operators, subtask index)`;
/// subtasks of an operator without state in the snapshot are absent (they start
/// fresh). `keys` is the new World's key table, holding every
/// [`SavepointState::key_names`].
///
/// In order (Flink: `Checkpoints.loadAndValidateCheckpoint`, then
/// `StateAssignmentOperation.assignStates`):
/// 1. for each stored operator, by uid: if the new job has it, its max parallelism
///    must equal the stored one, or be derived (the job sets none) and so take the
///    stored one ([`MaxParallelism::can_rescale_to`]; else
///    [`RestoreError::MaxParallelismMismatch`]); if the new job has no such operator,
///    the state is skipped when `allow_non_restored_state` or when no subtask has
///    state ([`SubtaskState::has_state`]), else [`RestoreError::NotMapped`]. A
///    changed uid is a removed operator plus an added one.
/// 2. for each new operator with stored state, in job order: the new parallelism
///    must not exceed the stored max parallelism; persisted in-flight records
///    require unchanged parallelism and edges; then keyed state is cut along the new
///    key-group ranges, operator list state redistributed by mode, and a fully
///    finished operator restores finished.
///
/// A derived max parallelism takes the stored one: keyed state is cut with the
/// stored number of key groups, and the new World runs with it
/// ([`adopted_max_parallelism`]). Never panics, whatever `state` and `new_job` hold.
pub fn assign(
    state: &SavepointState,
    new_job: &Job,
    allow_non_restored_state: bool,
    keys: &KeyTable,
) -> Result<BTreeMap<(usize, u32), SubtaskRestore>, RestoreError> {
    let pointer = state.pointer();
    let mut seen = BTreeSet::new();
    for op in &new_job.operators {
        if !seen.insert(op.uid.as_str()) {
            return Err(RestoreError::InvalidJob {
                uid: op.uid.clone(),
                what: "its uid is used by more than one operator (Flink: hash collision on user-specified ID)".into(),
            });
        }
    }

    // Checkpoints.loadAndValidateCheckpoint.
    for (uid, op_state) in &state.operators {
        match new_job.operator(uid) {
            Some(op) => {
                let configured = MaxParallelism::of(new_job, op);
                if op_state.max_parallelism != configured.value()
                    && !configured.can_rescale_to(op_state.max_parallelism)
                {
                    return Err(RestoreError::MaxParallelismMismatch {
                        pointer,
                        uid: uid.clone(),
                        stored: op_state.max_parallelism,
                        new: configured.value(),
                    });
                }
            }
            None if allow_non_restored_state || !op_state.has_state() => {}
            None => {
                return Err(RestoreError::NotMapped {
                    pointer,
                    uid: uid.clone(),
                })
            }
        }
    }

    // StateAssignmentOperation.assignStates.
    let mut out = BTreeMap::new();
    for (oi, op) in new_job.operators.iter().enumerate() {
        let Some(old) = state.operators.get(&op.uid) else {
            continue;
        };
        if !old
            .subtasks
            .iter()
            .any(|s| s.finished || !s.is_empty_state())
        {
            // Nothing stored (a stateless operator): Flink gives the vertex no
            // restore (`hasNonFinishedState` and `isFullyFinished` both false).
            continue;
        }
        for (i, r) in assign_operator(op, old, new_job, keys)?
            .into_iter()
            .enumerate()
        {
            out.insert((oi, i as u32), r);
        }
    }
    Ok(out)
}

fn corrupt(uid: &str, what: impl Into<String>) -> RestoreError {
    RestoreError::Corrupt {
        uid: uid.to_string(),
        what: what.into(),
    }
}

/// Check the stored operator for self-consistency, so that nothing below can panic.
fn check_stored(uid: &str, old: &OperatorState) -> Result<(), RestoreError> {
    if !(1..=keygroup::UPPER_BOUND_MAX_PARALLELISM).contains(&old.max_parallelism) {
        return Err(corrupt(
            uid,
            format!(
                "max parallelism {} is not within 1..=32768",
                old.max_parallelism
            ),
        ));
    }
    if old.parallelism == 0 {
        return Err(corrupt(uid, "parallelism 0"));
    }
    if old.subtasks.len() as u64 != u64::from(old.parallelism) {
        return Err(corrupt(
            uid,
            format!(
                "{} subtask states for parallelism {}",
                old.subtasks.len(),
                old.parallelism
            ),
        ));
    }
    // One mode per state name.
    let mut modes: BTreeMap<&str, DistributionMode> = BTreeMap::new();
    for s in &old.subtasks {
        for (name, list) in &s.operator {
            if let Some(m) = modes.insert(name, list.mode) {
                if m != list.mode {
                    return Err(corrupt(
                        uid,
                        format!("list state \"{name}\" is stored with two distribution modes"),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn assign_operator(
    op: &OperatorSpec,
    old: &OperatorState,
    new_job: &Job,
    keys: &KeyTable,
) -> Result<Vec<SubtaskRestore>, RestoreError> {
    let uid = op.uid.as_str();
    check_stored(uid, old)?;
    let new_p = op.parallelism;
    if new_p == 0 {
        return Err(RestoreError::InvalidJob {
            uid: uid.to_string(),
            what: "parallelism 0".into(),
        });
    }
    // StateAssignmentOperation.checkParallelismPreconditions.
    if old.max_parallelism < new_p {
        return Err(RestoreError::ParallelismAboveMaxParallelism {
            uid: uid.to_string(),
            max_parallelism: old.max_parallelism,
            parallelism: new_p,
        });
    }
    let old_p = old.parallelism;
    let max_p = old.max_parallelism;

    // Channel state: only restored as it was.
    let has_channel_state = old.subtasks.iter().any(SubtaskState::has_channel_state);
    if has_channel_state {
        if old_p != new_p {
            return Err(RestoreError::ChannelStateRescaled {
                uid: uid.to_string(),
                old: old_p,
                new: new_p,
            });
        }
        if let Some(what) = layout_change("input", &old.inputs, &input_layout(new_job, uid))
            .or_else(|| layout_change("output", &old.outputs, &output_layout(new_job, uid)))
        {
            return Err(RestoreError::ChannelStateTopologyChanged {
                uid: uid.to_string(),
                what,
            });
        }
    }

    let finished = old.is_fully_finished();
    let mut out: Vec<SubtaskRestore> = (0..new_p)
        .map(|i| SubtaskRestore {
            finished,
            key_groups: keygroup::key_group_range(max_p, new_p, i),
            operator: BTreeMap::new(),
            keyed: BTreeMap::new(),
            input_channels: BTreeMap::new(),
            output_channels: BTreeMap::new(),
        })
        .collect();

    redistribute_operator_state(old, new_p, &mut out);
    redistribute_keyed_state(uid, old, max_p, new_p, keys, &mut out)?;
    if has_channel_state {
        for (s, r) in old.subtasks.iter().zip(out.iter_mut()) {
            r.input_channels = restore_records(uid, &s.input_channels, new_job, keys)?;
            r.output_channels = restore_records(uid, &s.output_channels, new_job, keys)?;
        }
    }
    Ok(out)
}

fn layout_change(side: &str, old: &[EdgeLayout], new: &[EdgeLayout]) -> Option<String> {
    if old == new {
        return None;
    }
    let show = |l: &[EdgeLayout]| {
        let parts: Vec<String> = l
            .iter()
            .map(|e| {
                format!(
                    "{} ({}, parallelism {})",
                    e.peer,
                    e.partitioning.as_str(),
                    e.peer_parallelism
                )
            })
            .collect();
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(", ")
        }
    };
    Some(format!(
        "its {side} edges changed from [{}] to [{}]",
        show(old),
        show(new)
    ))
}

/// The old subtasks that reported one list state, with their elements.
type Reported<'a> = Vec<(usize, &'a [StateValue])>;

/// `RoundRobinOperatorStateRepartitioner.repartitionState` for every list state of
/// one operator.
fn redistribute_operator_state(old: &OperatorState, new_p: u32, out: &mut [SubtaskRestore]) {
    // Per name (name order; Flink: HashMap order): mode, and the reporting old
    // subtasks' lists in old-subtask order.
    let mut by_name: BTreeMap<&str, (DistributionMode, Reported<'_>)> = BTreeMap::new();
    for (i, s) in old.subtasks.iter().enumerate() {
        for (name, list) in &s.operator {
            by_name
                .entry(name.as_str())
                .or_insert_with(|| (list.mode, Vec::new()))
                .1
                .push((i, &list.elements));
        }
    }
    let unchanged = old.parallelism == new_p;
    let mut split_start = 0u32;
    for (name, (mode, lists)) in by_name {
        match mode {
            DistributionMode::SplitDistribute if unchanged => {
                // Not redistributed: every subtask gets exactly its own list back.
                for (i, elements) in lists {
                    if let Some(r) = out.get_mut(i) {
                        r.operator.insert(
                            name.to_string(),
                            ListState {
                                mode,
                                elements: elements.to_vec(),
                            },
                        );
                    }
                }
            }
            DistributionMode::SplitDistribute => {
                let all: Vec<&StateValue> = lists.iter().flat_map(|(_, l)| l.iter()).collect();
                let (chunks, next_start) = split_distribute(all.len(), new_p, split_start);
                split_start = next_start;
                for (idx, range) in chunks {
                    let elements: Vec<StateValue> =
                        all[range].iter().map(|v| (*v).clone()).collect();
                    if let Some(r) = out.get_mut(idx as usize) {
                        r.operator
                            .insert(name.to_string(), ListState { mode, elements });
                    }
                }
            }
            DistributionMode::Union => {
                let elements: Vec<StateValue> =
                    lists.iter().flat_map(|(_, l)| l.iter().cloned()).collect();
                for r in out.iter_mut() {
                    r.operator.insert(
                        name.to_string(),
                        ListState {
                            mode,
                            elements: elements.clone(),
                        },
                    );
                }
            }
            DistributionMode::Broadcast => {
                for (i, r) in out.iter_mut().enumerate() {
                    let own = if unchanged {
                        lists.iter().find(|(j, _)| *j == i)
                    } else {
                        None
                    };
                    let pick = own.or_else(|| lists.get(i % lists.len().max(1)));
                    if let Some((_, elements)) = pick {
                        r.operator.insert(
                            name.to_string(),
                            ListState {
                                mode,
                                elements: elements.to_vec(),
                            },
                        );
                    }
                }
            }
        }
    }
}

/// The contiguous chunks `RoundRobinOperatorStateRepartitioner.repartitionSplitState`
/// cuts `total` concatenated elements into for `new_p` subtasks, starting at subtask
/// `start`: `(subtask, element range)` for every subtask that gets at least one
/// element, in assignment order, and the start for the next state name (the first
/// subtask that got only the base share).
pub fn split_distribute(
    total: usize,
    new_p: u32,
    start: u32,
) -> (Vec<(u32, std::ops::Range<usize>)>, u32) {
    let mut chunks = Vec::new();
    if new_p == 0 {
        return (chunks, start);
    }
    let p = new_p as usize;
    let base = total / p;
    // Flink counts the remainder down past 0 once, to spot the first base-only subtask.
    let mut remainder = (total % p) as i64;
    let mut next_start = start;
    let mut at = 0usize;
    for i in 0..new_p {
        let idx = ((u64::from(i) + u64::from(start)) % u64::from(new_p)) as u32;
        let mut n = base;
        if remainder > 0 {
            n += 1;
            remainder -= 1;
        } else if remainder == 0 {
            next_start = idx;
            remainder -= 1;
        }
        if n > 0 {
            chunks.push((idx, at..at + n));
            at += n;
        }
    }
    (chunks, next_start)
}

/// `StateAssignmentOperation.reDistributeKeyedStates`: new subtask `i` gets exactly
/// the keys whose key group lies in its range.
fn redistribute_keyed_state(
    uid: &str,
    old: &OperatorState,
    max_p: u32,
    new_p: u32,
    keys: &KeyTable,
    out: &mut [SubtaskRestore],
) -> Result<(), RestoreError> {
    let mut names: BTreeSet<&str> = BTreeSet::new();
    for s in &old.subtasks {
        names.extend(s.keyed.keys().map(String::as_str));
    }
    for r in out.iter_mut() {
        for name in &names {
            r.keyed.insert(name.to_string(), BTreeMap::new());
        }
    }
    for s in &old.subtasks {
        for (name, entries) in &s.keyed {
            for (key, entry) in entries {
                let Some(id) = keys.get(key) else {
                    return Err(RestoreError::UnknownKey {
                        uid: uid.to_string(),
                        key: key.clone(),
                    });
                };
                let computed = keys.key_group(id, max_p);
                if entry.key_group != computed || computed >= max_p {
                    return Err(RestoreError::KeyGroupMismatch {
                        uid: uid.to_string(),
                        key: key.clone(),
                        stored: entry.key_group,
                        computed,
                    });
                }
                let target = keygroup::operator_index_for_key_group(max_p, new_p, computed);
                let Some(r) = out.get_mut(target as usize) else {
                    return Err(corrupt(
                        uid,
                        format!("key group {computed} maps to no subtask"),
                    ));
                };
                let map = r.keyed.entry(name.clone()).or_default();
                if map.insert(id, entry.value.clone()).is_some() {
                    return Err(corrupt(
                        uid,
                        format!("key \"{key}\" of keyed state \"{name}\" is held by more than one subtask"),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn restore_records<C: Ord + Copy>(
    uid: &str,
    stored: &BTreeMap<C, Vec<PersistedRecord>>,
    new_job: &Job,
    keys: &KeyTable,
) -> Result<BTreeMap<C, Vec<Record>>, RestoreError> {
    let mut out = BTreeMap::new();
    for (c, recs) in stored {
        let mut v = Vec::with_capacity(recs.len());
        for r in recs {
            let key = match &r.key {
                Some(k) => match keys.get(k) {
                    Some(id) => Some(id),
                    None => {
                        return Err(RestoreError::UnknownKey {
                            uid: uid.to_string(),
                            key: k.clone(),
                        })
                    }
                },
                None => None,
            };
            // A source that left the job keeps an out-of-range index: the origin is
            // only ever displayed.
            let source = new_job
                .operator_index(&r.source)
                .and_then(|i| u16::try_from(i).ok())
                .unwrap_or(u16::MAX);
            v.push(Record {
                key,
                value: r.value,
                origin: Origin {
                    source,
                    partition: r.partition,
                    offset: r.offset,
                },
            });
        }
        out.insert(*c, v);
    }
    Ok(out)
}
