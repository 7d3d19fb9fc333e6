//! The keyed state of one subtask: named state tables, the five state handles, and
//! TTL as Flink applies it. Flink: `HeapKeyedStateBackend` (one `StateTable` per
//! registered name, the current key set by the operator before each record) with the
//! TTL decorators of `TtlStateFactory` (`TtlValueState`, `TtlListState`,
//! `TtlReducingState`, `TtlAggregatingState`, `TtlMapState`, all built on
//! `AbstractTtlDecorator`), `TtlIncrementalCleanup` and `TtlStateSnapshotTransformer`.
//!
//! # Access
//! [`KeyedStateStore::set_current_key`] sets the key (and the time) every handle
//! works on, as `AbstractStreamOperator.setKeyContextElement` does before
//! `processElement`. [`KeyedStateStore::value`], [`KeyedStateStore::list`], … return a
//! handle on the named state for that key; asking for a name that is not registered,
//! or with the wrong type, is a [`StateError`].
//!
//! # TTL rules (docs/flink-semantics.md §6.2)
//! - every write stores the value with `last_access_at = now`;
//! - a read of an expired value removes it (cleanup on read is always on) and
//!   returns nothing — or, with `ReturnExpiredIfNotCleanedUp`, the expired value this
//!   once (`AbstractTtlDecorator.getWithTtlCheckAndUpdate`);
//! - with `OnReadAndWrite` an unexpired read refreshes `last_access_at`;
//! - list elements and map entries expire one by one; value, reducing and
//!   aggregating state as a whole;
//! - incremental cleanup checks the next `cleanup_size` keys of a state on every
//!   access to it (and on every record if asked), resuming where it stopped and
//!   starting over after the last key (`TtlIncrementalCleanup.runCleanup`);
//! - full-snapshot cleanup leaves expired values out of the snapshot, not out of the
//!   live state (`TtlStateSnapshotTransformer`).

use super::descriptor::{StateDescriptor, StateKind};
use super::ttl::{TtlConfig, TtlValue};
use super::Upload;
use crate::record::KeyId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Bound;

/// What one key holds in one state. Flink: the value a `StateTable` maps a key to
/// (wrapped in `TtlValue` when TTL is on; here always, with time 0 without TTL).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoredValue {
    /// `ValueState` and `ReducingState`: one value.
    Value(TtlValue<i64>),
    /// `AggregatingState`: the accumulator `(sum, count)`.
    Accumulator(TtlValue<(i64, i64)>),
    /// `ListState`: the elements, each with its own timestamp. Never empty.
    List(Vec<TtlValue<i64>>),
    /// `MapState`: the entries, each with its own timestamp. Never empty.
    Map(BTreeMap<i64, TtlValue<i64>>),
}

impl StoredValue {
    /// Number of stored units: 1 for a value or accumulator, the elements of a list,
    /// the entries of a map. The byte model counts each unit as one keyed entry.
    pub fn units(&self) -> u64 {
        match self {
            StoredValue::Value(_) | StoredValue::Accumulator(_) => 1,
            StoredValue::List(l) => l.len() as u64,
            StoredValue::Map(m) => m.len() as u64,
        }
    }

    /// Whether this value has the shape a state of `kind` stores.
    pub fn fits(&self, kind: StateKind) -> bool {
        matches!(
            (self, kind),
            (
                StoredValue::Value(_),
                StateKind::Value | StateKind::Reducing(_)
            ) | (StoredValue::Accumulator(_), StateKind::Aggregating(_))
                | (StoredValue::List(_), StateKind::List)
                | (StoredValue::Map(_), StateKind::Map)
        )
    }

    /// The value without its expired parts, or `None` when nothing is left.
    /// Flink: `AbstractTtlState.getUnexpiredOrNull` (used by incremental cleanup and
    /// by the full-snapshot transformer).
    pub fn unexpired(&self, ttl: &TtlConfig, now: u64) -> Option<StoredValue> {
        let live = |t: &TtlValue<i64>| !ttl.is_expired(t.last_access_at, now);
        match self {
            StoredValue::Value(v) => (!ttl.is_expired(v.last_access_at, now)).then(|| self.clone()),
            StoredValue::Accumulator(v) => {
                (!ttl.is_expired(v.last_access_at, now)).then(|| self.clone())
            }
            StoredValue::List(l) => {
                let kept: Vec<TtlValue<i64>> = l.iter().copied().filter(live).collect();
                (!kept.is_empty()).then_some(StoredValue::List(kept))
            }
            StoredValue::Map(m) => {
                let kept: BTreeMap<i64, TtlValue<i64>> = m
                    .iter()
                    .filter(|(_, v)| live(v))
                    .map(|(k, v)| (*k, *v))
                    .collect();
                (!kept.is_empty()).then_some(StoredValue::Map(kept))
            }
        }
    }
}

/// One registered state: its descriptor and the value of every key.
/// Flink: `StateTable` with its `RegisteredKeyValueStateBackendMetaInfo`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateTable {
    /// What was registered.
    pub descriptor: StateDescriptor,
    /// Per key; a key whose value was cleared (or whose list / map became empty) is absent.
    pub entries: BTreeMap<KeyId, StoredValue>,
    /// Incremental cleanup: the last key checked (Flink: the position of the global
    /// state iterator of `TtlIncrementalCleanup`).
    cleanup_cursor: Option<KeyId>,
}

impl StateTable {
    fn new(descriptor: StateDescriptor) -> Self {
        StateTable {
            descriptor,
            entries: BTreeMap::new(),
            cleanup_cursor: None,
        }
    }

    /// Flink: `TtlIncrementalCleanup.stateAccessed` — check the next `cleanup_size`
    /// keys after the cursor (a fresh pass from the first key once the previous one
    /// is exhausted) and drop their expired parts.
    fn incremental_cleanup(&mut self, now: u64) {
        let Some(ttl) = self.descriptor.ttl else {
            return;
        };
        let Some(inc) = ttl.cleanup.incremental_strategy() else {
            return;
        };
        let after = |c: Option<KeyId>| match c {
            Some(k) => (Bound::Excluded(k), Bound::Unbounded),
            None => (Bound::Unbounded, Bound::Unbounded),
        };
        let mut start = after(self.cleanup_cursor);
        if self.entries.range(start).next().is_none() {
            start = after(None); // initIteratorIfNot: the old iterator is exhausted
        }
        let batch: Vec<KeyId> = self
            .entries
            .range(start)
            .take(inc.cleanup_size as usize)
            .map(|(k, _)| *k)
            .collect();
        for k in &batch {
            let cleaned = self.entries.get(k).and_then(|v| v.unexpired(&ttl, now));
            match cleaned {
                Some(v) => {
                    self.entries.insert(*k, v);
                }
                None => {
                    self.entries.remove(k);
                }
            }
        }
        if let Some(last) = batch.last() {
            self.cleanup_cursor = Some(*last);
        }
    }
}

/// A misuse of the keyed state API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateError {
    /// A second state with a name already registered in this operator.
    DuplicateName {
        /// The name.
        name: String,
        /// Type of the state registered first.
        registered: StateKind,
        /// Type of the second registration.
        requested: StateKind,
    },
    /// No state of this name is registered.
    NotRegistered {
        /// The name.
        name: String,
    },
    /// The state is registered with another type.
    WrongType {
        /// The name.
        name: String,
        /// Its registered type.
        registered: StateKind,
        /// The type asked for (Flink's interface name).
        requested: &'static str,
    },
    /// Keyed state accessed before a key was set (Flink: a keyed state used outside
    /// a keyed stream fails with "No key set").
    NoCurrentKey,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::DuplicateName { name, registered, requested } => write!(
                f,
                "state \"{name}\" is already registered in this operator as a {}; a {} cannot be registered under the \
                 same name (state names must be unique per operator)",
                registered.as_str(),
                requested.as_str()
            ),
            StateError::NotRegistered { name } => write!(f, "no keyed state named \"{name}\" is registered"),
            StateError::WrongType { name, registered, requested } => write!(
                f,
                "state \"{name}\" is a {}, not a {requested}",
                registered.as_str()
            ),
            StateError::NoCurrentKey => write!(f, "keyed state accessed without a current key"),
        }
    }
}

impl std::error::Error for StateError {}

/// The keyed states of one subtask. Flink: `HeapKeyedStateBackend` (with the TTL
/// decorators of `TtlStateFactory`). See the module documentation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyedStateStore {
    /// Registered states by name.
    tables: BTreeMap<String, StateTable>,
    /// The key the handles work on.
    current_key: Option<KeyId>,
    /// The time of the current access (TTL clock).
    now: u64,
}

/// The snapshot of a [`KeyedStateStore`]: every registered state by name (present
/// even when empty), each by key.
pub type KeyedSnapshot = BTreeMap<String, BTreeMap<KeyId, StoredValue>>;

impl KeyedStateStore {
    /// A store with `descriptors` registered, in order.
    pub fn with_descriptors(
        descriptors: impl IntoIterator<Item = StateDescriptor>,
    ) -> Result<Self, StateError> {
        let mut s = KeyedStateStore::default();
        for d in descriptors {
            s.register(d)?;
        }
        Ok(s)
    }

    /// Register a state. A second registration of the same descriptor is a no-op
    /// (Flink: `getPartitionedState` returns the existing state); another state
    /// under a name already taken is [`StateError::DuplicateName`] (Flink:
    /// `HeapKeyedStateBackend.tryRegisterStateTable` rejects an incompatible
    /// re-registration; the lab rejects every different one).
    pub fn register(&mut self, descriptor: StateDescriptor) -> Result<(), StateError> {
        match self.tables.get(&descriptor.name) {
            Some(t) if t.descriptor == descriptor => Ok(()),
            Some(t) => Err(StateError::DuplicateName {
                name: descriptor.name.clone(),
                registered: t.descriptor.kind,
                requested: descriptor.kind,
            }),
            None => {
                self.tables
                    .insert(descriptor.name.clone(), StateTable::new(descriptor));
                Ok(())
            }
        }
    }

    /// The registered states by name.
    pub fn tables(&self) -> &BTreeMap<String, StateTable> {
        &self.tables
    }

    /// The key the handles currently work on.
    pub fn current_key(&self) -> Option<KeyId> {
        self.current_key
    }

    /// Set the key and the time for the next accesses, as Flink does before each
    /// record (`setCurrentKey`); runs the incremental cleanup of every state that
    /// asks for it on every record (`runCleanupForEveryRecord`).
    pub fn set_current_key(&mut self, key: KeyId, now: u64) {
        self.current_key = Some(key);
        self.now = now;
        for t in self.tables.values_mut() {
            if t.descriptor
                .ttl
                .and_then(|c| c.cleanup.incremental_strategy())
                .is_some_and(|i| i.run_for_every_record)
            {
                t.incremental_cleanup(now);
            }
        }
    }

    fn access(
        &mut self,
        name: &str,
        requested: &'static str,
        ok: fn(StateKind) -> bool,
    ) -> Result<Access<'_>, StateError> {
        let key = self.current_key.ok_or(StateError::NoCurrentKey)?;
        let now = self.now;
        let table = self
            .tables
            .get_mut(name)
            .ok_or_else(|| StateError::NotRegistered {
                name: name.to_string(),
            })?;
        if !ok(table.descriptor.kind) {
            return Err(StateError::WrongType {
                name: name.to_string(),
                registered: table.descriptor.kind,
                requested,
            });
        }
        // Flink: the access callback (incremental cleanup) runs before the operation.
        table.incremental_cleanup(now);
        Ok(Access { table, key, now })
    }

    /// The `ValueState` named `name` for the current key.
    pub fn value(&mut self, name: &str) -> Result<ValueState<'_>, StateError> {
        self.access(name, "ValueState", |k| k == StateKind::Value)
            .map(ValueState)
    }

    /// The `ListState` named `name` for the current key.
    pub fn list(&mut self, name: &str) -> Result<ListState<'_>, StateError> {
        self.access(name, "ListState", |k| k == StateKind::List)
            .map(ListState)
    }

    /// The `ReducingState` named `name` for the current key.
    pub fn reducing(&mut self, name: &str) -> Result<ReducingState<'_>, StateError> {
        self.access(name, "ReducingState", |k| {
            matches!(k, StateKind::Reducing(_))
        })
        .map(ReducingState)
    }

    /// The `AggregatingState` named `name` for the current key.
    pub fn aggregating(&mut self, name: &str) -> Result<AggregatingState<'_>, StateError> {
        self.access(name, "AggregatingState", |k| {
            matches!(k, StateKind::Aggregating(_))
        })
        .map(AggregatingState)
    }

    /// The `MapState` named `name` for the current key.
    pub fn map(&mut self, name: &str) -> Result<MapState<'_>, StateError> {
        self.access(name, "MapState", |k| k == StateKind::Map)
            .map(MapState)
    }

    /// The snapshot at `now`: every registered state, every key. In an
    /// [`Upload::Full`] snapshot (not incremental rocksdb), the
    /// states whose TTL asks for full-snapshot cleanup leave their expired values
    /// out (Flink: `TtlStateSnapshotTransformer`); the live state keeps them.
    pub fn snapshot(&self, now: u64, upload: Upload) -> KeyedSnapshot {
        self.tables
            .iter()
            .map(|(name, t)| {
                let filter = t
                    .descriptor
                    .ttl
                    .filter(|c| upload == Upload::Full && c.cleanup.full_snapshot);
                let entries = match filter {
                    Some(ttl) => t
                        .entries
                        .iter()
                        .filter_map(|(k, v)| Some((*k, v.unexpired(&ttl, now)?)))
                        .collect(),
                    None => t.entries.clone(),
                };
                (name.clone(), entries)
            })
            .collect()
    }

    /// Restore `snapshot` into the registered states. A name not registered, or a
    /// value of another shape, is not read (as a Flink operator never reads a state
    /// it does not register). Timestamps are kept: TTL continues where it was.
    pub fn restore(&mut self, snapshot: &KeyedSnapshot) {
        for (name, entries) in snapshot {
            if let Some(t) = self.tables.get_mut(name) {
                let kind = t.descriptor.kind;
                t.entries = entries
                    .iter()
                    .filter(|(_, v)| v.fits(kind))
                    .map(|(k, v)| (*k, v.clone()))
                    .collect();
                t.cleanup_cursor = None;
            }
        }
    }
}

/// A state table, a key and a time: what every handle works on.
#[derive(Debug)]
struct Access<'a> {
    table: &'a mut StateTable,
    key: KeyId,
    now: u64,
}

impl Access<'_> {
    fn ttl(&self) -> Option<TtlConfig> {
        self.table.descriptor.ttl
    }

    /// The timestamp a write stores: now with TTL, 0 without (Flink stores a
    /// `TtlValue` only for a state with TTL), so that a state without TTL is the
    /// same whenever it was written.
    fn stamp(&self) -> u64 {
        if self.ttl().is_some() {
            self.now
        } else {
            0
        }
    }

    fn is_expired(&self, last_access_at: u64) -> bool {
        self.ttl()
            .is_some_and(|c| c.is_expired(last_access_at, self.now))
    }

    fn update_on_read(&self) -> bool {
        self.ttl().is_some_and(|c| c.update_on_read())
    }

    fn return_expired(&self) -> bool {
        self.ttl().is_some_and(|c| c.return_expired())
    }

    /// Flink: `AbstractTtlDecorator.getUnexpired` — the user value of a stored value
    /// written at `last_access_at`, or `None` when it has expired and expired values
    /// are not returned. Reads only: nothing is cleared or refreshed (the reduce and
    /// aggregate functions use it on the value they then overwrite).
    fn unexpired<T>(&self, value: T, last_access_at: u64) -> Option<T> {
        (!self.is_expired(last_access_at) || self.return_expired()).then_some(value)
    }

    /// Flink: `AbstractTtlDecorator.getWithTtlCheckAndUpdate` for a state stored as
    /// one whole value.
    fn read_whole<T: Copy>(
        &mut self,
        get: fn(&mut StoredValue) -> Option<&mut TtlValue<T>>,
    ) -> Option<T> {
        let (ttl, now) = (self.ttl(), self.now);
        let v = get(self.table.entries.get_mut(&self.key)?)?;
        let value = v.value;
        if ttl.is_some_and(|c| c.is_expired(v.last_access_at, now)) {
            self.table.entries.remove(&self.key);
            return ttl.is_some_and(|c| c.return_expired()).then_some(value);
        }
        if ttl.is_some_and(|c| c.update_on_read()) {
            v.last_access_at = now;
        }
        Some(value)
    }

    fn write(&mut self, v: StoredValue) {
        self.table.entries.insert(self.key, v);
    }

    fn clear(&mut self) {
        self.table.entries.remove(&self.key);
    }
}

fn as_value(v: &mut StoredValue) -> Option<&mut TtlValue<i64>> {
    match v {
        StoredValue::Value(t) => Some(t),
        _ => None,
    }
}

fn as_accumulator(v: &mut StoredValue) -> Option<&mut TtlValue<(i64, i64)>> {
    match v {
        StoredValue::Accumulator(t) => Some(t),
        _ => None,
    }
}

/// `ValueState<Long>` of the current key. Flink: `ValueState` / `TtlValueState`.
#[derive(Debug)]
pub struct ValueState<'a>(Access<'a>);

impl ValueState<'_> {
    /// The value, or `None` (Flink: `null`) when there is none or it expired.
    pub fn value(&mut self) -> Option<i64> {
        self.0.read_whole(as_value)
    }

    /// Store `v`.
    pub fn update(&mut self, v: i64) {
        let now = self.0.stamp();
        self.0.write(StoredValue::Value(TtlValue::new(v, now)));
    }

    /// Remove the value.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// `ListState<Long>` of the current key. Flink: `ListState` / `TtlListState`.
#[derive(Debug)]
pub struct ListState<'a>(Access<'a>);

impl ListState<'_> {
    /// The elements (empty when none). Flink's `TtlListState.get`: with
    /// `OnReadAndWrite` the unexpired elements are rewritten with a new timestamp
    /// (which drops the expired ones) if there is any; when no element is
    /// unexpired the list is cleared; expired elements are returned only with
    /// `ReturnExpiredIfNotCleanedUp`.
    pub fn get(&mut self) -> Vec<i64> {
        let a = &mut self.0;
        let Some(StoredValue::List(elements)) = a.table.entries.get(&a.key).cloned() else {
            return Vec::new();
        };
        let unexpired: Vec<TtlValue<i64>> = elements
            .iter()
            .copied()
            .filter(|t| !a.is_expired(t.last_access_at))
            .collect();
        if a.update_on_read() && !unexpired.is_empty() {
            let now = a.now;
            a.write(StoredValue::List(
                unexpired
                    .iter()
                    .map(|t| TtlValue::new(t.value, now))
                    .collect(),
            ));
        }
        if unexpired.is_empty() {
            a.clear();
        }
        if a.return_expired() {
            elements.iter().map(|t| t.value).collect()
        } else {
            unexpired.iter().map(|t| t.value).collect()
        }
    }

    /// Append `v`.
    pub fn add(&mut self, v: i64) {
        self.add_all(&[v]);
    }

    /// Append `vs`; nothing when empty (Flink: `HeapListState.addAll`).
    pub fn add_all(&mut self, vs: &[i64]) {
        if vs.is_empty() {
            return;
        }
        let a = &mut self.0;
        let now = a.stamp();
        let new = vs.iter().map(|v| TtlValue::new(*v, now));
        match a.table.entries.get_mut(&a.key) {
            Some(StoredValue::List(l)) => l.extend(new),
            _ => a.write(StoredValue::List(new.collect())),
        }
    }

    /// Replace the elements with `vs`; an empty list clears (Flink: `HeapListState.update`).
    pub fn update(&mut self, vs: &[i64]) {
        if vs.is_empty() {
            self.0.clear();
        } else {
            let now = self.0.stamp();
            self.0.write(StoredValue::List(
                vs.iter().map(|v| TtlValue::new(*v, now)).collect(),
            ));
        }
    }

    /// Remove every element.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// `ReducingState<Long>` of the current key. Flink: `ReducingState` /
/// `TtlReducingState` with `TtlReduceFunction`.
#[derive(Debug)]
pub struct ReducingState<'a>(Access<'a>);

impl ReducingState<'_> {
    /// The reduced value, or `None`.
    pub fn get(&mut self) -> Option<i64> {
        self.0.read_whole(as_value)
    }

    /// Fold `v` into the stored value with the descriptor's function; an expired
    /// stored value counts as absent, unless expired values are returned
    /// (`ReturnExpiredIfNotCleanedUp`: `TtlReduceFunction.reduce` reads it through
    /// `getUnexpired`, so expired 10 plus 20 gives 30). The result is written at `now`.
    pub fn add(&mut self, v: i64) {
        let a = &mut self.0;
        let StateKind::Reducing(f) = a.table.descriptor.kind else {
            return;
        };
        let previous = match a.table.entries.get(&a.key) {
            Some(StoredValue::Value(t)) => a.unexpired(t.value, t.last_access_at),
            _ => None,
        };
        let reduced = previous.map_or(v, |p| f.reduce(p, v));
        let now = a.stamp();
        a.write(StoredValue::Value(TtlValue::new(reduced, now)));
    }

    /// Remove the value.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// `AggregatingState<Long, Long>` of the current key. Flink: `AggregatingState` /
/// `TtlAggregatingState` with `TtlAggregateFunction`.
#[derive(Debug)]
pub struct AggregatingState<'a>(Access<'a>);

impl AggregatingState<'_> {
    /// The aggregate's result for the stored accumulator, or `None`.
    pub fn get(&mut self) -> Option<i64> {
        let StateKind::Aggregating(f) = self.0.table.descriptor.kind else {
            return None;
        };
        self.0
            .read_whole(as_accumulator)
            .map(|acc| f.get_result(acc))
    }

    /// The stored accumulator itself (for the inspector), without a TTL check.
    pub fn accumulator(&self) -> Option<(i64, i64)> {
        match self.0.table.entries.get(&self.0.key) {
            Some(StoredValue::Accumulator(t)) => Some(t.value),
            _ => None,
        }
    }

    /// Add `v` to the accumulator; an expired accumulator is replaced by a fresh one,
    /// unless expired values are returned (`ReturnExpiredIfNotCleanedUp`:
    /// `TtlAggregateFunction.add` reads it through `getUnexpired`). Written at `now`.
    pub fn add(&mut self, v: i64) {
        let a = &mut self.0;
        let StateKind::Aggregating(f) = a.table.descriptor.kind else {
            return;
        };
        let acc = match a.table.entries.get(&a.key) {
            Some(StoredValue::Accumulator(t)) => a.unexpired(t.value, t.last_access_at),
            _ => None,
        }
        .unwrap_or_else(|| f.create_accumulator());
        let now = a.stamp();
        a.write(StoredValue::Accumulator(TtlValue::new(f.add(v, acc), now)));
    }

    /// Remove the accumulator.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// `MapState<Long, Long>` of the current key. Flink: `MapState` / `TtlMapState`.
#[derive(Debug)]
pub struct MapState<'a>(Access<'a>);

impl MapState<'_> {
    fn stored(&mut self) -> Option<&mut BTreeMap<i64, TtlValue<i64>>> {
        match self.0.table.entries.get_mut(&self.0.key) {
            Some(StoredValue::Map(m)) => Some(m),
            _ => None,
        }
    }

    /// Remove the key's entry when its map became empty (Flink: `HeapMapState.remove`).
    fn drop_if_empty(&mut self) {
        if self.stored().is_some_and(|m| m.is_empty()) {
            self.0.clear();
        }
    }

    /// The value of `k`, or `None`. An expired entry is removed; it is returned this
    /// once with `ReturnExpiredIfNotCleanedUp`.
    pub fn get(&mut self, k: i64) -> Option<i64> {
        let (now, refresh, return_expired) =
            (self.0.now, self.0.update_on_read(), self.0.return_expired());
        let ttl = self.0.ttl();
        let m = self.stored()?;
        let t = m.get_mut(&k)?;
        let value = t.value;
        if ttl.is_some_and(|c| c.is_expired(t.last_access_at, now)) {
            m.remove(&k);
            self.drop_if_empty();
            return return_expired.then_some(value);
        }
        if refresh {
            t.last_access_at = now;
        }
        Some(value)
    }

    /// Whether `k` has a value (`get(k)` is some; Flink: `TtlMapState.contains`).
    pub fn contains(&mut self, k: i64) -> bool {
        self.get(k).is_some()
    }

    /// Store `v` under `k`.
    pub fn put(&mut self, k: i64, v: i64) {
        let now = self.0.stamp();
        match self.stored() {
            Some(m) => {
                m.insert(k, TtlValue::new(v, now));
            }
            None => self.0.write(StoredValue::Map(BTreeMap::from([(
                k,
                TtlValue::new(v, now),
            )]))),
        }
    }

    /// Remove `k`.
    pub fn remove(&mut self, k: i64) {
        if let Some(m) = self.stored() {
            m.remove(&k);
        }
        self.drop_if_empty();
    }

    /// The entries in key order. Expired entries are removed as they are met and
    /// returned only with `ReturnExpiredIfNotCleanedUp`; unexpired ones are refreshed
    /// with `OnReadAndWrite` (Flink: `TtlMapState.entries`, its iterator's
    /// `getUnexpiredAndUpdateOrCleanup`).
    pub fn entries(&mut self) -> Vec<(i64, i64)> {
        let (now, refresh, return_expired) =
            (self.0.now, self.0.update_on_read(), self.0.return_expired());
        let ttl = self.0.ttl();
        let Some(m) = self.stored() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        m.retain(|k, t| {
            if ttl.is_some_and(|c| c.is_expired(t.last_access_at, now)) {
                if return_expired {
                    out.push((*k, t.value));
                }
                false
            } else {
                if refresh {
                    t.last_access_at = now;
                }
                out.push((*k, t.value));
                true
            }
        });
        self.drop_if_empty();
        out
    }

    /// The keys, as [`MapState::entries`] reads them.
    pub fn keys(&mut self) -> Vec<i64> {
        self.entries().into_iter().map(|(k, _)| k).collect()
    }

    /// The values, as [`MapState::entries`] reads them.
    pub fn values(&mut self) -> Vec<i64> {
        self.entries().into_iter().map(|(_, v)| v).collect()
    }

    /// Whether the map has no entry (after dropping expired ones).
    pub fn is_empty(&mut self) -> bool {
        self.entries().is_empty()
    }

    /// Remove every entry.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}
