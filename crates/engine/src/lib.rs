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
//! Below the [`world`], each rule in its own module, lowest first:
//! - [`ids`]: identifier newtypes and [`ids::IdVec`], a table indexed by its id type.
//! - [`agenda`]: the timing wheel that orders everything by `(time, sequence)`.
//! - [`scenario`]: the scenario document (contract v1), parsing and validation.
//! - [`keygroup`]: Flink's key-group assignment (`KeyGroupRangeAssignment`).
//! - [`parallelism`]: each operator's max parallelism — configured, or derived and adopted from a restored snapshot (`DefaultVertexParallelismInfo`).
//! - [`record`]: records and the interned key table.
//! - [`status`]: the job's and a subtask's lifecycle (`JobStatus`, `ExecutionState`).
//! - [`cause`]: why things happen — typed reasons with Flink's messages.
//! - [`restart`]: restart strategies (`*RestartBackoffTimeStrategy`).
//! - [`state`]: keyed state types (Value, List, Reducing, Aggregating, Map), TTL, and the shared-state registry of incremental checkpoints.
//! - [`snapshot`]: what a checkpoint holds (subtask snapshots, completed checkpoints, state names, savepoint values) and the byte-size model.
//! - [`restore`]: assigning snapshot state to a (changed, rescaled) job (`StateAssignmentOperation`).
//! - [`barrier`]: barrier handlers at a task's input (aligned, unaligned, tracker) and the channel state an unaligned checkpoint captures.
//! - [`bench`](mod@bench): the barrier bench behind `lab barriers`.
//! - [`channel`]: network channels with latency and credit-based capacity.
//! - [`job_graph`]: the job as deployed: subtasks, channel numbering, partitioners, source logs (`ExecutionGraph`).
//! - [`operators`]: what each operator kind does with a record.
//! - [`subtask_checkpoint`]: a subtask's checkpoint bookkeeping (`SubtaskCheckpointCoordinatorImpl`).
//! - [`coordinator`]: the checkpoint coordinator (trigger, periodic scheduling, ack, complete, abort, failure counting).
//! - [`sink`]: the external transactional topics sinks write to.
//! - [`two_phase_commit`]: the two-phase-commit sink.
//! - [`event`]: the trace.
//! - [`export`]: a scenario as a Flink 2.3 Java job (`lab export flink`).
//! - [`world`]: the simulation itself: the driver that composes the parts above.
//! - [`summary`]: the run summary and each checkpoint's `_metadata`.
//! - [`timeline`]: keyframes and seeking, for time travel.
//! - [`runner`]: running a scenario headless (what `lab run` does).
//! - [`view`]: the projection of the world the page draws.
//! - [`drill`]: the interview drill's exercises — a question asked on a fresh variant of a lesson, answered by running it.
//! - [`verdict`]: committed outputs judged by origin against the failure-free run (duplicate, not committed yet, lost).
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
//! - ChannelStatePersister → [`barrier::channel_state::ChannelStatePersister`]
//! - RestartBackoffTimeStrategy → [`restart::RestartStrategy`]
//! - ExecutionFailureHandler, JobStatus → [`world::Recovery`], [`status::JobStatus`]
//! - ExecutionGraph / ExecutionVertex → [`job_graph::JobGraph`] / [`job_graph::TaskInfo`]
//! - StreamPartitioner → [`job_graph::OutputEdge::route`]
//! - DefaultVertexParallelismInfo (max parallelism) → [`parallelism::MaxParallelism`]
//! - StreamTask → [`world::Task`]
//! - SubtaskCheckpointCoordinatorImpl → [`subtask_checkpoint::SubtaskCheckpointCoordinator`]
//! - CheckpointCoordinator → [`coordinator::CheckpointCoordinator`]
//! - ScheduledTrigger (periodic checkpoints) → [`coordinator::PeriodicTrigger`]
//! - PendingCheckpoint / CompletedCheckpoint → [`coordinator::PendingCheckpoint`] / [`snapshot::CompletedCheckpoint`]
//! - CheckpointFailureManager → [`coordinator::CheckpointCoordinator::abort`]
//! - CheckpointFailureReason → [`cause::CheckpointFailureReason`], [`cause::AbortCause`]
//! - TwoPhaseCommitSinkFunction → [`two_phase_commit::TwoPhaseCommitSink`]
//! - InputChannel / ResultSubpartition → [`channel::Channel`]
//! - TaskStateSnapshot → [`snapshot::TaskSnapshot`]

pub mod agenda;
pub mod barrier;
pub mod bench;
pub mod cause;
pub mod channel;
pub mod coordinator;
pub mod drill;
pub mod event;
pub mod export;
pub mod ids;
pub mod job_graph;
pub mod keygroup;
pub mod operators;
pub mod parallelism;
mod provided;
pub mod record;
pub mod restart;
pub mod restore;
pub mod runner;
pub mod scenario;
pub mod sink;
pub mod snapshot;
pub mod soak;
pub mod state;
pub mod status;
pub mod subtask_checkpoint;
pub mod summary;
pub mod timeline;
pub mod two_phase_commit;
pub mod verdict;
pub mod view;
pub mod world;

pub use scenario::Scenario;
pub use world::{Intervention, JobStatus, World};
