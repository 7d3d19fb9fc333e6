//! What a checkpoint holds: a subtask's snapshot ([`TaskSnapshot`]), a completed
//! checkpoint ([`CompletedCheckpoint`]), the names of the built-in operators' states
//! and the values a savepoint stores ([`StateValue`]) — the vocabulary shared by the
//! coordinator, the restore ([`crate::restore`]) and the shared-state registry, below
//! all of them — and the contract's byte-size model.

use crate::event::SnapshotKind;
use crate::ids::{ChannelIndex, CheckpointId, TaskId};
use crate::record::{KeyId, KeyTable, Record};
use crate::state::keyed::KeyedSnapshot;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Name of a source's offsets list state.
/// Flink: the legacy Kafka consumer's `"topic-partition-offset-states"`; the lab
/// declares it split-distribute (contract: even split).
pub const SOURCE_OFFSETS_STATE: &str = "offsets";

/// Name of `broadcast_filter`'s broadcast state (redistributed `BROADCAST`).
pub const BROADCAST_STATE: &str = "rules";

/// Name of the two-phase-commit sink's list state.
/// Flink: `TwoPhaseCommitSinkFunction`'s `ListStateDescriptor("state", …)`.
pub const TWO_PHASE_COMMIT_STATE: &str = "state";

/// Name of the keyed `ValueState` of `keyed_count` / `keyed_sum`.
/// Simplified: Flink's name is whatever the user's descriptor says.
pub const VALUE_STATE: &str = "value";

/// Bytes of one keyed entry, excluding its key (contract: "16 bytes plus its key's UTF-8 length").
/// Each list element and each map entry counts as one keyed entry (in RocksDB a map
/// entry is its own key-value pair, prefixed with the key).
pub const KEYED_ENTRY_BYTES: u64 = 16;
/// Bytes of one source offset.
pub const OFFSET_BYTES: u64 = 16;
/// Bytes of one persisted in-flight record, excluding its key.
pub const IN_FLIGHT_RECORD_BYTES: u64 = 16;
/// Bytes of one transaction handle held in a two-phase-commit sink's state.
pub const TXN_HANDLE_BYTES: u64 = 16;

/// The operator part of a subtask snapshot.
/// Flink: `OperatorSubtaskState` (managed operator state + managed keyed state).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OperatorSnapshot {
    /// A source's operator list state: the next offset to read, per partition.
    Source { offsets: BTreeMap<u32, u64> },
    /// No state.
    Stateless,
    /// Keyed ValueState, one entry per key.
    Keyed { entries: BTreeMap<KeyId, i64> },
    /// Named keyed states (every registered one, even empty), each by key, with
    /// their TTL timestamps. Flink: `KeyGroupsStateHandle` with one meta-info entry
    /// per state name.
    KeyedStates { states: KeyedSnapshot },
    /// Broadcast state: the rules by name (Flink: a `BroadcastState` of a
    /// `MapStateDescriptor`, written by every subtask, redistributed `BROADCAST`).
    Broadcast { rules: BTreeMap<KeyId, i64> },
    /// Flink: `TwoPhaseCommitSinkFunction.State` — the transaction begun after this
    /// snapshot and the pre-committed transactions awaiting commit, by checkpoint.
    TwoPhaseCommit {
        pending_transaction: Option<u64>,
        pending_commit: Vec<(CheckpointId, u64)>,
    },
}

/// One subtask's part of a checkpoint.
/// Flink: `TaskStateSnapshot` with its channel state (`InputChannelStateHandle`,
/// `ResultSubpartitionStateHandle`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskSnapshot {
    /// The subtask had finished when the checkpoint was taken (Flink:
    /// `FinishedOperatorSubtaskState`); on restore it finishes again at once.
    pub finished: bool,
    /// Operator state.
    pub state: OperatorSnapshot,
    /// Unaligned: persisted in-flight records per input channel.
    pub input_channels: BTreeMap<ChannelIndex, Vec<Record>>,
    /// Unaligned: records the barrier overtook in the output queue, per output
    /// channel (numbered over all of the subtask's outputs, edge by edge).
    pub output_channels: BTreeMap<u32, Vec<Record>>,
    /// Full size in the contract's byte model.
    pub state_bytes: u64,
    /// What this checkpoint actually uploaded (less than `state_bytes` only for
    /// incremental rocksdb).
    pub uploaded_bytes: u64,
}

impl TaskSnapshot {
    /// The part of a subtask that had finished when the checkpoint was triggered.
    /// Flink: `FinishedOperatorSubtaskState` carries no state; the lab keeps the
    /// final `state` (so a restore finishes the task again) but neither counts nor
    /// uploads it.
    pub fn finished(state: OperatorSnapshot) -> TaskSnapshot {
        TaskSnapshot {
            finished: true,
            state,
            input_channels: BTreeMap::new(),
            output_channels: BTreeMap::new(),
            state_bytes: 0,
            uploaded_bytes: 0,
        }
    }

    /// Size of the operator state alone.
    pub fn operator_bytes(state: &OperatorSnapshot, keys: &KeyTable) -> u64 {
        match state {
            OperatorSnapshot::Source { offsets } => OFFSET_BYTES * offsets.len() as u64,
            OperatorSnapshot::Stateless => 0,
            OperatorSnapshot::Keyed { entries } => entries
                .keys()
                .map(|k| KEYED_ENTRY_BYTES + keys.len_bytes(Some(*k)))
                .sum(),
            OperatorSnapshot::KeyedStates { states } => states
                .values()
                .flatten()
                .map(|(k, v)| v.units() * (KEYED_ENTRY_BYTES + keys.len_bytes(Some(*k))))
                .sum(),
            OperatorSnapshot::Broadcast { rules } => rules
                .keys()
                .map(|k| KEYED_ENTRY_BYTES + keys.len_bytes(Some(*k)))
                .sum(),
            OperatorSnapshot::TwoPhaseCommit {
                pending_transaction,
                pending_commit,
            } => {
                TXN_HANDLE_BYTES
                    * (pending_commit.len() as u64 + u64::from(pending_transaction.is_some()))
            }
        }
    }

    /// Size of persisted in-flight records.
    pub fn channel_bytes<'a>(
        records: impl IntoIterator<Item = &'a Record>,
        keys: &KeyTable,
    ) -> u64 {
        records
            .into_iter()
            .map(|r| IN_FLIGHT_RECORD_BYTES + keys.len_bytes(r.key))
            .sum()
    }

    /// Number of persisted in-flight records (input and output side).
    pub fn persisted_records(&self) -> u64 {
        self.input_channels
            .values()
            .chain(self.output_channels.values())
            .map(|v| v.len() as u64)
            .sum()
    }
}

/// A completed checkpoint or savepoint with its state. Flink: `CompletedCheckpoint`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompletedCheckpoint {
    /// Its id.
    pub id: CheckpointId,
    /// Checkpoint or savepoint.
    pub kind: SnapshotKind,
    /// Trigger time.
    pub trigger_at: u64,
    /// Completion time.
    pub completed_at: u64,
    /// Every subtask's snapshot.
    pub tasks: BTreeMap<TaskId, TaskSnapshot>,
}

impl CompletedCheckpoint {
    /// Whether every one of `subtasks` (an operator's) had finished when this
    /// checkpoint was taken. Flink: `DefaultCheckpointPlan.fulfillFinishedTaskStatus`
    /// then stores the operator as a `FullyFinishedOperatorState`, which holds no
    /// subtask state at all (`OperatorState.isFullyFinished`).
    pub fn is_fully_finished(&self, subtasks: impl IntoIterator<Item = TaskId>) -> bool {
        let mut any = false;
        for t in subtasks {
            match self.tasks.get(&t) {
                Some(s) if s.finished => any = true,
                _ => return false,
            }
        }
        any
    }
}

/// One stored value: an element of an operator list state, or the value of one key
/// in a keyed state.
///
/// Flink: whatever the state's `TypeSerializer` wrote. Simplified: a closed set of
/// value types; new ones are added as variants.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StateValue {
    /// A number (keyed `ValueState<Long>`, a user list element).
    Int(i64),
    /// A source partition and the next offset to read from it.
    Offset {
        /// Partition index.
        partition: u32,
        /// Next offset (Kafka's committed-offset convention).
        offset: u64,
    },
    /// One two-phase-commit sink subtask's transactions.
    Transaction(TxnState),
    /// An entry of a map-shaped operator state: broadcast state's rules.
    Entry {
        /// The map key (a rule name).
        key: String,
        /// Its value.
        value: i64,
    },
    /// A keyed `ListState`'s elements for one key.
    List(Vec<StateValue>),
    /// A keyed `MapState`'s entries for one key, by user key.
    Map(BTreeMap<i64, StateValue>),
    /// An `AggregatingState`'s accumulator (the average's sum and count).
    Accumulator {
        /// Sum of the values added.
        sum: i64,
        /// Number of values added.
        count: i64,
    },
    /// A value of a state with TTL and its last-access time. Flink: `TtlValue`,
    /// written by `TtlSerializer`.
    Ttl {
        /// The user value.
        value: Box<StateValue>,
        /// When it was last written (or read, with `OnReadAndWrite`).
        last_access_ms: u64,
    },
}

/// The state element a two-phase-commit sink subtask writes at each snapshot.
/// Flink: `TwoPhaseCommitSinkFunction.State` (`pendingTransaction`,
/// `pendingCommitTransactions`; the user context is not modelled).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TxnState {
    /// The transaction begun after the snapshot (aborted on restore); `None` once
    /// the subtask finished.
    pub pending_transaction: Option<u64>,
    /// Pre-committed transactions awaiting their checkpoint, by checkpoint, in
    /// insertion order (committed on restore).
    pub pending_commit: Vec<(CheckpointId, u64)>,
}
