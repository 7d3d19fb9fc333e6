//! What a subtask's snapshot holds, and the contract's byte-size model.

use crate::ids::{ChannelIndex, CheckpointId};
use crate::record::{KeyId, KeyTable, Record};
use crate::state::keyed::KeyedSnapshot;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
