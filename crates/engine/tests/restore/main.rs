//! Restoring state: from a job's own checkpoint after a failure, from a savepoint
//! into a changed or rescaled job, and after a JobManager crash.
//!
//! - [`restore_assignment`]: state assignment against Flink's
//!   `StateAssignmentOperation` and `Checkpoints.loadAndValidateCheckpoint`.
//! - [`savepoint_restore`]: the scenario's `restore` through the World — the earlier
//!   job, its savepoint, the new job's tasks, ids, topics and output.
//! - [`operator_state`]: broadcast state and even-split / union list state,
//!   checkpointed, restored, rescaled.
//! - [`claim_mode`]: who owns the snapshot a job starts from (CLAIM, NO_CLAIM).
//! - [`jobmanager_failover`]: what survives the JobManager, by checkpoint storage.

#[path = "../common/mod.rs"]
mod common;

mod claim_mode;
mod jobmanager_failover;
mod operator_state;
mod restore_assignment;
mod savepoint_restore;
