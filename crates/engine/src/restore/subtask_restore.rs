//! What one new subtask restores. Flink: the `OperatorSubtaskState` of its
//! `JobManagerTaskRestore`.

use super::metadata::ListState;
use crate::ids::{ChannelIndex, CheckpointId};
use crate::record::{KeyId, KeyTable, Record};
use crate::scenario::{OperatorKind, OperatorSpec, SinkKind};
use crate::snapshot::{
    OperatorSnapshot, StateValue, TaskSnapshot, TxnState, BROADCAST_STATE, SOURCE_OFFSETS_STATE,
    TWO_PHASE_COMMIT_STATE, VALUE_STATE,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::RangeInclusive;

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
    /// passed to [`assign`](super::assign) (it sizes the snapshot).
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
