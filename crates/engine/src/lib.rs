//! # checkpoint-engine
//!
//! A deterministic, discrete-event simulation of Apache Flink's checkpointing:
//! sources reading replayable logs, operators with keyed state, network channels
//! with credit-based back-pressure, checkpoint barriers (aligned, unaligned,
//! at-least-once), the checkpoint coordinator, checkpoint storage, failover and
//! restore, and transactional sinks. No web dependency: compiled natively for tests
//! and the `lab` runner, and to wasm for the page.
//!
//! # Layout
//! - [`agenda`]: the timing wheel that orders everything by `(time, sequence)`.
//! - [`ids`]: identifier newtypes.
//! - [`scenario`]: the scenario document (contract v1), parsing and validation.
//! - [`keygroup`]: Flink's key-group assignment (`KeyGroupRangeAssignment`).
//! - [`restart`]: restart strategies (`*RestartBackoffTimeStrategy`).
//! - [`restore`]: assigning snapshot state to a (changed, rescaled) job (`StateAssignmentOperation`).
//! - [`barrier`]: barrier handlers at a task's input (aligned, unaligned, tracker).
//! - [`bench`]: the barrier bench behind `lab barriers`.
//! - [`record`]: records and the interned key table.
//! - [`channel`]: network channels with latency and credit-based capacity.
//! - [`operators`]: what each operator kind does with a record.
//! - [`coordinator`]: the checkpoint coordinator (trigger, ack, complete, abort, failure counting).
//! - [`snapshot`]: what a subtask snapshot holds and the byte-size model.
//! - [`state`]: keyed state types (Value, List, Reducing, Aggregating, Map), TTL, and the shared-state registry of incremental checkpoints.
//! - [`sink`]: the external transactional topic sinks write to.
//! - [`two_phase_commit`]: the two-phase-commit sink.
//! - [`event`]: the trace.
//! - [`export`]: a scenario as a Flink 2.3 Java job (`lab export flink`).
//! - [`world`]: the simulation itself: agenda, tasks, failover and restore.
//! - [`summary`]: the run summary.
//! - [`timeline`]: keyframes and seeking, for time travel.
//! - [`runner`]: running a scenario headless (what `lab run` does).
//! - [`view`]: the projection of the world the page draws.
//!
//! # Determinism
//! Logical time is `u64` milliseconds. Everything due at the same millisecond is
//! handled in the order it was scheduled (FIFO). Only ordered collections are
//! iterated. The one random generator is `rand_chacha::ChaCha8Rng`, seeded from the
//! scenario's seed and drawn in agenda order. No floating point decides an outcome
//! except the exponential-delay backoff (repeated `f64` multiplication, identical on
//! every platform).
//!
//! # Glossary (Flink term → type)
//! - CheckpointBarrier → [`barrier::CheckpointBarrier`]
//! - SingleCheckpointBarrierHandler / CheckpointBarrierTracker → [`barrier::BarrierHandler`]
//! - RestartBackoffTimeStrategy → [`restart::RestartStrategy`]
//! - CheckpointCoordinator → [`coordinator::CheckpointCoordinator`]
//! - PendingCheckpoint / CompletedCheckpoint → [`coordinator::PendingCheckpoint`] / [`coordinator::CompletedCheckpoint`]
//! - CheckpointFailureManager → [`coordinator::CheckpointCoordinator::abort`]
//! - TwoPhaseCommitSinkFunction → [`two_phase_commit::TwoPhaseCommitSink`]
//! - InputChannel / ResultSubpartition → [`channel::Channel`]
//! - TaskStateSnapshot → [`snapshot::TaskSnapshot`]

pub mod agenda;
pub mod barrier;
pub mod bench;
pub mod channel;
pub mod coordinator;
pub mod event;
pub mod export;
pub mod ids;
pub mod keygroup;
pub mod operators;
pub mod record;
pub mod restart;
pub mod restore;
pub mod runner;
pub mod scenario;
pub mod sink;
pub mod snapshot;
pub mod state;
pub mod summary;
pub mod timeline;
pub mod two_phase_commit;
pub mod view;
pub mod world;

pub use scenario::Scenario;
pub use world::{Intervention, JobStatus, World};
