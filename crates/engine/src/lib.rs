//! # checkpoint-engine
//!
//! A deterministic, discrete-event simulation of Apache Flink's checkpointing:
//! sources reading replayable logs, operators with keyed state, network channels
//! with credit-based back-pressure, checkpoint barriers (aligned, unaligned,
//! at-least-once), the checkpoint coordinator, checkpoint storage, failover and
//! restore, and transactional sinks. No web dependency: compiled natively for tests
//! and the `lab` runner, and to wasm for the page.
//!
//! # The face
//! What the page, `lab` and the benchmarks may use — everything else is private:
//! - [`World`] (with [`Intervention`], [`JobStatus`], [`TaskStatus`], [`Timeline`]
//!   and the errors [`BuildError`], [`InterventionError`]): the simulation, as a value.
//! - [`scenario`]: the scenario document (contract v1), parsing and validation.
//! - [`view`]: the projection of the world the page draws — the boundary the page
//!   reads, with the vocabulary its views carry (ids, statuses, snapshot kinds).
//! - [`trace`]: the events of a run and their causes.
//!
//! Tools on top of the engine, each using the face and the internals it needs:
//! - [`runner`]: running a scenario headless (what `lab run` does) and the built-in lessons.
//! - [`export`]: a scenario as a Flink 2.3 Java job (`lab export flink`).
//! - [`bench`](mod@bench): the barrier bench behind `lab barriers`.
//! - [`drill`]: the interview drill's exercises.
//! - [`verdict`]: committed outputs judged by origin against the failure-free run.
//! - [`soak`]: the engine's speed, measured by the page's `engine_speed` build.
//!
//! The internals — the Flink rules, lowest first, each below its users — are listed
//! once, with what each must not do, in the code map of `docs/architecture.md`; a
//! test (`tests/rules/layering.rs`) keeps that map and the declarations below
//! equal. They are public only with the `testing` feature, which the engine's own
//! integration tests turn on through a self dev-dependency: they test each rule
//! below the [`World`].
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
//! - CheckpointBarrier → `barrier::CheckpointBarrier`
//! - SingleCheckpointBarrierHandler / CheckpointBarrierTracker → `barrier::BarrierHandler`
//! - ChannelStatePersister → `barrier::channel_state::ChannelStatePersister`
//! - RestartBackoffTimeStrategy → `restart::RestartStrategy`
//! - ExecutionFailureHandler, JobStatus → `world::Recovery`, `status::JobStatus`
//! - ExecutionGraph / ExecutionVertex → `job_graph::JobGraph` / `job_graph::TaskInfo`
//! - StreamPartitioner → `job_graph::OutputEdge::route`
//! - DefaultVertexParallelismInfo (max parallelism) → `parallelism::MaxParallelism`
//! - StreamTask → `world::Task`
//! - SubtaskCheckpointCoordinatorImpl → `subtask_checkpoint::SubtaskCheckpointCoordinator`
//! - CheckpointCoordinator → `coordinator::CheckpointCoordinator`
//! - ScheduledTrigger (periodic checkpoints) → `coordinator::PeriodicTrigger`
//! - PendingCheckpoint / CompletedCheckpoint → `coordinator::PendingCheckpoint` / `snapshot::CompletedCheckpoint`
//! - CheckpointFailureManager → `coordinator::CheckpointCoordinator::abort`
//! - CheckpointFailureReason → `cause::CheckpointFailureReason`, `cause::AbortCause`
//! - TwoPhaseCommitSinkFunction → `two_phase_commit::TwoPhaseCommitSink`
//! - InputChannel / ResultSubpartition → `channel::Channel`
//! - TaskStateSnapshot → `snapshot::TaskSnapshot`

// Without `testing`, what only the engine's own tests use of an internal module —
// re-exports, helpers, accessors — is unreachable from the face: not dead, just
// out of the face's sight.
#![cfg_attr(not(feature = "testing"), allow(dead_code, unused_imports))]

/// Declares the internal modules: public with the `testing` feature (the engine's
/// integration tests), private otherwise.
macro_rules! internal {
    ($($name:ident),* $(,)?) => {$(
        #[cfg(feature = "testing")]
        pub mod $name;
        #[cfg(not(feature = "testing"))]
        mod $name;
    )*};
}

internal!(
    agenda,
    barrier,
    cause,
    channel,
    coordinator,
    event,
    ids,
    job_graph,
    keygroup,
    operators,
    parallelism,
    record,
    restart,
    restore,
    sink,
    snapshot,
    state,
    status,
    subtask_checkpoint,
    summary,
    timeline,
    two_phase_commit,
    world,
);
mod provided;

pub mod bench;
pub mod drill;
pub mod export;
pub mod runner;
pub mod scenario;
pub mod soak;
pub mod verdict;
pub mod view;

/// The trace the page animates: each event with its time, and the typed causes
/// events carry.
pub mod trace {
    pub use crate::cause::{
        AbortCause, CheckpointFailureReason, FailureCause, FailureReason, IgnoreCause, JobFailure,
        SkipCause, UnknownCause,
    };
    pub use crate::event::{Event, SnapshotKind, TaskName, TraceEvent};
}

pub use scenario::{Scenario, ScenarioError};
pub use timeline::Timeline;
pub use world::{BuildError, Intervention, InterventionError, JobStatus, TaskStatus, World};
