//! The engine's rules, one test per rule, each naming the Flink class or test it
//! mirrors (docs/flink-semantics.md). One test binary for the subsystems below, so the
//! engine links once instead of once per file.
//!
//! - [`barrier_rules`]: barrier handling (§2.1–2.6), the bench's model, seeded
//!   properties over random arrival sequences, `lab barriers` errors.
//! - [`barrier_flink_ports`]: Flink's own barrier-handler tests, ported.
//! - [`coordinator_rules`]: the World's checkpoint rules (§1, §2.6, §3, §4.1, §5.1).
//! - [`restart_strategies`]: restart strategies against Flink's unit tests (§5.1).
//! - [`keygroup`]: key-group assignment against Flink's numbers (§6.4).
//! - [`state_types`]: Value, List, Reducing, Aggregating and Map state (§6.1).
//! - [`state_ttl`]: state time-to-live under each setting (§6.2).
//! - [`state_operators`]: the operator kinds built on keyed state, in running jobs.
//! - [`incremental_backend`]: rocksdb's incremental checkpoints and the shared-state
//!   registry (§7).
//! - [`layering`]: the engine's modules form no import circle.

#[path = "../common/mod.rs"]
mod common;

mod barrier_flink_ports;
mod barrier_rules;
mod coordinator_rules;
mod incremental_backend;
mod keygroup;
mod layering;
mod restart_strategies;
mod state_operators;
mod state_ttl;
mod state_types;
