//! Keyed state as Flink's state API offers it: named descriptors, the five state
//! types, time-to-live, and the incremental (rocksdb) file model of checkpoints.
//!
//! # Layout
//! - [`descriptor`]: state descriptors (name, type, reduce / aggregate function, TTL).
//!   Flink: `StateDescriptor` and its subclasses.
//! - [`ttl`]: `StateTtlConfig` (update type, visibility, cleanup strategies) and the
//!   expiry rule of `TtlUtils`.
//! - [`keyed`]: the keyed state store of one subtask and the five state handles
//!   (`ValueState`, `ListState`, `ReducingState`, `AggregatingState`, `MapState`),
//!   TTL checks on access, incremental cleanup, full-snapshot cleanup. Flink:
//!   `HeapKeyedStateBackend` with the `Ttl*State` decorators.
//! - [`shared_registry`]: the shared files of incremental checkpoints and when they
//!   are deleted. Flink: `SharedStateRegistryImpl`, `RocksIncrementalSnapshotStrategy`.
//!
//! # Values
//! Simplified: every user value, list element, map key and map value is an `i64`
//! (the lab's records carry one number); an aggregate's accumulator is a pair. Time
//! is the World's simulated milliseconds (Flink: processing time, the only TTL time
//! characteristic).

pub mod convert;
pub mod descriptor;
pub mod keyed;
pub mod shared_registry;
pub mod ttl;

pub use descriptor::{AggregateFn, ReduceFn, StateDescriptor, StateKind};
pub use keyed::{KeyedStateStore, StateError, StoredValue};
pub use ttl::{
    CleanupStrategies, IncrementalCleanup, StateVisibility, TtlConfig, TtlValue, UpdateType,
};

/// How a snapshot's keyed state goes to checkpoint storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upload {
    /// All of it (hashmap backend, full rocksdb snapshots, savepoints).
    Full,
    /// Only what the last completed checkpoint does not hold already (rocksdb with
    /// `execution.checkpointing.incremental`: `RocksIncrementalSnapshotStrategy`).
    Incremental,
}

