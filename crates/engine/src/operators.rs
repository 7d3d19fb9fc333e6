//! What each operator kind does with a record, and the state it keeps.
//!
//! Sans-IO: [`process`] returns what the operator emits; only the
//! [`crate::World`] touches channels, the agenda and the external systems.
//!
//! # Operators with named keyed states (extension of contract v1)
//! Each registers its descriptors ([`descriptors`]) in a [`KeyedStateStore`]; the
//! scenario's `ttl` applies to every descriptor of the operator. On each record the
//! store's current key is set (Flink: `setKeyContextElement`), then:
//! - `keyed_window_count`: tumbling processing-time windows of `window_ms`
//!   (`[n·w, (n+1)·w)`, the record's processing time decides). [`WINDOW_STATE`]
//!   (`ValueState`) holds the start of the key's open window, [`CONTENTS_STATE`]
//!   (`ListState`) the values of its records — the state Flink's `WindowOperator`
//!   keeps for a window with a `ProcessWindowFunction`. A record of a later window
//!   first fires the open one: it emits `{key, value: number of records}` and
//!   clears it. Simplified: Flink fires at the window's end by a processing-time
//!   timer; the lab has no timers and fires on the key's next record, so a key's
//!   last window is never emitted (Flink drops pending processing-time timers at the
//!   end of a bounded input too).
//! - `keyed_reduce`: [`REDUCE_STATE`] (`ReducingState`, the `reduce` function); emits
//!   `{key, reduced value}`.
//! - `keyed_average`: [`AVERAGE_STATE`] (`AggregatingState`, `(sum, count)` →
//!   average); emits `{key, average}`.
//! - `keyed_dedup`: [`SEEN_STATE`] (`MapState` value → time first seen); a value
//!   already seen for the key is dropped, a new one is remembered and forwarded —
//!   with `ttl`, the de-duplication forgets a value after the TTL (the Flink
//!   documentation's de-duplication pattern).

use crate::job_graph::LogEntry;
use crate::record::{KeyId, KeyTable, Record};
use crate::scenario::{FnName, OperatorKind, OperatorSpec};
use crate::state::Upload;
use crate::snapshot::OperatorSnapshot;
use crate::state::{AggregateFn, KeyedStateStore, StateDescriptor, StateError, StateKind};
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

/// What a source reader has for the clock ([`SourceState::poll`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SourcePoll {
    /// The next record, read from `partition` at `offset`.
    Emit {
        /// Its partition.
        partition: u32,
        /// Its offset in the partition.
        offset: u64,
        /// The record.
        record: Record,
    },
    /// The next record is due later ([`SourceState::next_due`]).
    NotDue,
    /// Stopped by a stop-with-savepoint.
    Stopped,
    /// Every assigned partition is read to its end.
    Exhausted,
}

impl SourceState {
    /// When the next record is due: the earliest next entry over the assigned
    /// partitions of `logs` (the operator's partition logs); `None` once all are read.
    pub fn next_due(&self, logs: &[Vec<LogEntry>]) -> Option<u64> {
        self.offsets
            .iter()
            .filter_map(|(p, o)| logs[*p as usize].get(*o as usize).map(|e| e.at))
            .min()
    }

    /// Read the next record due by `now`: from the partition whose next record is
    /// due first (ties: the lowest partition). Reading advances that partition's
    /// offset and holds the next emission back `interval_ms`.
    pub fn poll(&mut self, logs: &[Vec<LogEntry>], now: u64, interval_ms: u64) -> SourcePoll {
        if self.stopped {
            return SourcePoll::Stopped;
        }
        let pick = self
            .offsets
            .iter()
            .filter_map(|(p, o)| logs[*p as usize].get(*o as usize).map(|e| (e.at, *p, *o)))
            .min();
        let Some((due, partition, offset)) = pick else {
            return SourcePoll::Exhausted;
        };
        if due > now {
            return SourcePoll::NotDue;
        }
        let record = logs[partition as usize][offset as usize].record;
        self.offsets.insert(partition, offset + 1);
        self.next_allowed_at = now + interval_ms;
        SourcePoll::Emit {
            partition,
            offset,
            record,
        }
    }
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
    /// Named keyed states (window count, reduce, average, dedup).
    KeyedStates(KeyedStateStore),
    /// `broadcast_filter`: this subtask's copy of the broadcast rules, by name.
    Broadcast { rules: BTreeMap<KeyId, i64> },
    /// A two-phase-commit sink.
    TwoPhaseCommit(TwoPhaseCommitSink),
    /// An idempotent or at-least-once sink: nothing.
    Sink,
}

impl OpState {
    /// The synchronous part of a snapshot for everything but the two-phase-commit
    /// sink (whose snapshot has side effects, see [`TwoPhaseCommitSink::snapshot_state`]).
    /// `now` and `upload` decide TTL's full-snapshot cleanup
    /// ([`KeyedStateStore::snapshot`]).
    pub fn snapshot(&self, now: u64, upload: Upload) -> OperatorSnapshot {
        match self {
            OpState::KeyedStates(store) => OperatorSnapshot::KeyedStates {
                states: store.snapshot(now, upload),
            },
            OpState::Source(s) => OperatorSnapshot::Source {
                offsets: s.offsets.clone(),
            },
            OpState::Keyed { values } => OperatorSnapshot::Keyed {
                entries: values.clone(),
            },
            OpState::Broadcast { rules } => OperatorSnapshot::Broadcast {
                rules: rules.clone(),
            },
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

/// Name of `keyed_window_count`'s `ValueState`: start of the key's open window.
pub const WINDOW_STATE: &str = "window";
/// Name of `keyed_window_count`'s `ListState`: the values of the open window.
pub const CONTENTS_STATE: &str = "contents";
/// Name of `keyed_reduce`'s `ReducingState`.
pub const REDUCE_STATE: &str = "reduce";
/// Name of `keyed_average`'s `AggregatingState`.
pub const AVERAGE_STATE: &str = "average";
/// Name of `keyed_dedup`'s `MapState`.
pub const SEEN_STATE: &str = "seen";

/// The state descriptors an operator registers (empty for kinds without named
/// keyed states), each with the operator's `ttl`. Names are unique per operator.
pub fn descriptors(op: &OperatorSpec) -> Vec<StateDescriptor> {
    let d = |name: &str, kind| StateDescriptor::new(name, kind).with_ttl(op.ttl);
    match op.kind {
        OperatorKind::KeyedWindowCount => vec![
            d(WINDOW_STATE, StateKind::Value),
            d(CONTENTS_STATE, StateKind::List),
        ],
        OperatorKind::KeyedReduce => op
            .reduce
            .map(|f| d(REDUCE_STATE, StateKind::Reducing(f)))
            .into_iter()
            .collect(),
        OperatorKind::KeyedAverage => vec![d(
            AVERAGE_STATE,
            StateKind::Aggregating(AggregateFn::Average),
        )],
        OperatorKind::KeyedDedup => vec![d(SEEN_STATE, StateKind::Map)],
        _ => Vec::new(),
    }
}

/// The working state of a fresh or restored operator with named keyed states:
/// its descriptors registered, then the snapshot's states restored (timestamps
/// included, so TTL continues). A registration error (impossible for the built-in
/// descriptors, whose names are unique) leaves the store empty: the first access
/// then fails the task with [`StateError::NotRegistered`].
pub fn keyed_states(op: &OperatorSpec, restored: Option<&OperatorSnapshot>) -> OpState {
    let mut store = KeyedStateStore::with_descriptors(descriptors(op)).unwrap_or_default();
    if let Some(OperatorSnapshot::KeyedStates { states }) = restored {
        store.restore(states);
    }
    OpState::KeyedStates(store)
}

/// Rule name of `broadcast_filter`'s lower bound (a main record passes when its value is at least this).
pub const RULE_MIN: &str = "min";
/// Rule name of `broadcast_filter`'s upper bound.
pub const RULE_MAX: &str = "max";

/// `processBroadcastElement` of a `broadcast_filter`: a rule record `{key: name,
/// value}` is put into the broadcast state (every subtask receives it and updates
/// its own copy identically, which is what makes the copies equal). A rule without a
/// name fails the task, as a null map key would.
pub fn apply_rule(state: &mut OpState, record: Record) -> Output {
    match (state, record.key) {
        (OpState::Broadcast { rules }, Some(name)) => {
            rules.insert(name, record.value);
            Output::Nothing
        }
        (OpState::Broadcast { .. }, None) => {
            Output::Fail("a rule without a key (its name) reached the broadcast state".into())
        }
        _ => Output::Fail("broadcast_filter without broadcast state".into()),
    }
}

/// Process `record` in operator `op` at simulated time `now`.
pub fn process(
    op: &OperatorSpec,
    state: &mut OpState,
    record: Record,
    now: u64,
    keys: &KeyTable,
) -> Output {
    let (kind, f) = (op.kind, op.r#fn);
    if kind.has_named_state() {
        let Some(key) = record.key else {
            return Output::Fail("a record without a key reached a keyed operator".into());
        };
        let OpState::KeyedStates(store) = state else {
            return Output::Fail("keyed operator without keyed state".into());
        };
        store.set_current_key(key, now);
        return match process_keyed(op, store, key, record, now) {
            Ok(out) => out,
            Err(e) => Output::Fail(e.to_string()),
        };
    }
    match kind {
        OperatorKind::Source => Output::Emit(record),
        OperatorKind::Map => match f {
            Some(FnName::Double) => Output::Emit(Record {
                value: record.value.wrapping_mul(2),
                ..record
            }),
            Some(FnName::ParityKey) => {
                let name = if record.value % 2 == 0 { "even" } else { "odd" };
                match keys.get(name) {
                    Some(k) => Output::Emit(Record {
                        key: Some(k),
                        ..record
                    }),
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
            if keep {
                Output::Emit(record)
            } else {
                Output::Nothing
            }
        }
        OperatorKind::KeyedCount | OperatorKind::KeyedSum => {
            let Some(key) = record.key else {
                return Output::Fail("a record without a key reached a keyed operator".into());
            };
            let OpState::Keyed { values } = state else {
                return Output::Fail("keyed operator without keyed state".into());
            };
            let v = values.entry(key).or_insert(0);
            *v = if kind == OperatorKind::KeyedCount {
                v.wrapping_add(1)
            } else {
                v.wrapping_add(record.value)
            };
            Output::Emit(Record {
                key: Some(key),
                value: *v,
                origin: record.origin,
            })
        }
        OperatorKind::BroadcastFilter => {
            let OpState::Broadcast { rules } = state else {
                return Output::Fail("broadcast_filter without broadcast state".into());
            };
            // `processElement`: the broadcast state is read-only on the main input.
            let bound = |name: &str| keys.get(name).and_then(|k| rules.get(&k)).copied();
            let above_min = bound(RULE_MIN).is_none_or(|min| record.value >= min);
            let below_max = bound(RULE_MAX).is_none_or(|max| record.value <= max);
            if above_min && below_max {
                Output::Emit(record)
            } else {
                Output::Nothing
            }
        }
        OperatorKind::Sink => Output::Write(record),
        // Handled above.
        OperatorKind::KeyedWindowCount
        | OperatorKind::KeyedReduce
        | OperatorKind::KeyedAverage
        | OperatorKind::KeyedDedup => Output::Fail("keyed operator without keyed state".into()),
    }
}

/// One record in an operator with named keyed states; the store's current key is set.
fn process_keyed(
    op: &OperatorSpec,
    store: &mut KeyedStateStore,
    key: KeyId,
    record: Record,
    now: u64,
) -> Result<Output, StateError> {
    let emit = |value: i64| {
        Output::Emit(Record {
            key: Some(key),
            value,
            origin: record.origin,
        })
    };
    Ok(match op.kind {
        OperatorKind::KeyedWindowCount => {
            let w = op.window_ms.unwrap_or(1).max(1);
            let start = i64::try_from(now - now % w).unwrap_or(i64::MAX);
            let open = store.value(WINDOW_STATE)?.value();
            let mut out = Output::Nothing;
            if open.is_some_and(|o| o != start) {
                // A record of a later window: the open one fires and is purged.
                let count = store.list(CONTENTS_STATE)?.get().len() as i64;
                store.list(CONTENTS_STATE)?.clear();
                if count > 0 {
                    out = emit(count); // a window without elements (all expired) does not fire
                }
            }
            store.value(WINDOW_STATE)?.update(start);
            store.list(CONTENTS_STATE)?.add(record.value);
            out
        }
        OperatorKind::KeyedReduce => {
            let mut r = store.reducing(REDUCE_STATE)?;
            r.add(record.value);
            r.get().map_or(Output::Nothing, emit)
        }
        OperatorKind::KeyedAverage => {
            let mut a = store.aggregating(AVERAGE_STATE)?;
            a.add(record.value);
            a.get().map_or(Output::Nothing, emit)
        }
        OperatorKind::KeyedDedup => {
            let mut seen = store.map(SEEN_STATE)?;
            if seen.contains(record.value) {
                Output::Nothing
            } else {
                seen.put(record.value, i64::try_from(now).unwrap_or(i64::MAX));
                Output::Emit(record)
            }
        }
        _ => Output::Emit(record),
    })
}
