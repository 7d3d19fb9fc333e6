//! What each operator kind does with a record, and the state it keeps.
//!
//! Sans-IO: [`process`] returns what the operator emits; only the
//! [`crate::World`] touches channels, the agenda and the external systems.

use crate::record::{KeyId, KeyTable, Record};
use crate::scenario::{FnName, OperatorKind};
use crate::snapshot::OperatorSnapshot;
use crate::two_phase_commit::TwoPhaseCommitSink;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A source subtask's reader. Flink: a `SourceReader` with its splits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SourceState {
    /// Next offset to read, per assigned partition (Kafka's committed-offset convention).
    pub offsets: BTreeMap<u32, u64>,
    /// An emission is on the agenda.
    pub emit_scheduled: bool,
    /// Earliest time of the next emission (`emit_interval_ms` after the last one).
    pub next_allowed_at: u64,
    /// A stop-with-savepoint barrier went out: emit nothing more.
    pub stopped: bool,
}

/// An operator subtask's working state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OpState {
    /// A source reader.
    Source(SourceState),
    /// `map`, `filter`: nothing.
    Stateless,
    /// Keyed ValueState: the count or sum per key.
    Keyed { values: BTreeMap<KeyId, i64> },
    /// A two-phase-commit sink.
    TwoPhaseCommit(TwoPhaseCommitSink),
    /// An idempotent or at-least-once sink: nothing.
    Sink,
}

impl OpState {
    /// The synchronous part of a snapshot for everything but the two-phase-commit
    /// sink (whose snapshot has side effects, see [`TwoPhaseCommitSink::snapshot_state`]).
    pub fn snapshot(&self) -> OperatorSnapshot {
        match self {
            OpState::Source(s) => OperatorSnapshot::Source { offsets: s.offsets.clone() },
            OpState::Keyed { values } => OperatorSnapshot::Keyed { entries: values.clone() },
            OpState::TwoPhaseCommit(s) => OperatorSnapshot::TwoPhaseCommit {
                pending_transaction: s.current,
                pending_commit: s.pending.clone(),
            },
            OpState::Stateless | OpState::Sink => OperatorSnapshot::Stateless,
        }
    }
}

/// What processing one record produced.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// A record for the outputs.
    Emit(Record),
    /// Nothing (filtered out).
    Nothing,
    /// A sink's write to its external system.
    Write(Record),
    /// The record fails the task (as an exception in user code would).
    Fail(String),
}

/// Process `record` in an operator of `kind` with function `f`.
pub fn process(kind: OperatorKind, f: Option<FnName>, state: &mut OpState, record: Record, keys: &KeyTable) -> Output {
    match kind {
        OperatorKind::Source => Output::Emit(record),
        OperatorKind::Map => match f {
            Some(FnName::Double) => Output::Emit(Record { value: record.value.wrapping_mul(2), ..record }),
            Some(FnName::ParityKey) => {
                let name = if record.value % 2 == 0 { "even" } else { "odd" };
                match keys.get(name) {
                    Some(k) => Output::Emit(Record { key: Some(k), ..record }),
                    None => Output::Fail(format!("key {name:?} was not interned")),
                }
            }
            _ => Output::Emit(record),
        },
        OperatorKind::Filter => {
            let keep = match f {
                Some(FnName::Odd) => record.value % 2 != 0,
                _ => record.value % 2 == 0,
            };
            if keep { Output::Emit(record) } else { Output::Nothing }
        }
        OperatorKind::KeyedCount | OperatorKind::KeyedSum => {
            let Some(key) = record.key else {
                return Output::Fail("a record without a key reached a keyed operator".into());
            };
            let OpState::Keyed { values } = state else {
                return Output::Fail("keyed operator without keyed state".into());
            };
            let v = values.entry(key).or_insert(0);
            *v = if kind == OperatorKind::KeyedCount { v.wrapping_add(1) } else { v.wrapping_add(record.value) };
            Output::Emit(Record { key: Some(key), value: *v, origin: record.origin })
        }
        OperatorKind::Sink => Output::Write(record),
    }
}
