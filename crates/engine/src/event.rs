//! [`Event`]: what happened, past tense — the engine's trace.
//!
//! Every variant the contract requires (scenario-format.md, "Trace") is here with
//! exactly its fields; the rest are extensions. Narration wording lives in the page's
//! data files, never in a `Display` here, so editing a sentence never breaks a
//! golden trace. Reasons are typed ([`crate::cause`]) and written as the contract's
//! strings.

use crate::cause::{AbortCause, FailureCause, IgnoreCause, JobFailure, SkipCause};
use crate::ids::{ChannelIndex, CheckpointId};
use crate::record::Origin;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A subtask's name, `"<uid>#<index>"`, shared rather than copied.
pub type TaskName = Arc<str>;

/// One trace line: the simulated time and the event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceEvent {
    /// Simulated time in ms.
    pub t: u64,
    /// What happened.
    #[serde(flatten)]
    pub event: Event,
}

/// What kind of snapshot a checkpoint is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SnapshotKind {
    /// A periodic or manually triggered checkpoint.
    Checkpoint,
    /// An intermediate savepoint.
    Savepoint,
    /// A stop-with-savepoint (Flink: synchronous savepoint).
    StopWithSavepoint,
}

impl SnapshotKind {
    /// True for both kinds of savepoint.
    pub fn is_savepoint(self) -> bool {
        !matches!(self, SnapshotKind::Checkpoint)
    }
}

/// An engine event. Serialized with `"type"` in snake_case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A source read a record from its partition and sent it on.
    RecordEmitted {
        task: TaskName,
        partition: u32,
        offset: u64,
        key: Option<Arc<str>>,
        value: i64,
    },
    /// A task processed a record from one of its input channels (`origin`: the
    /// source record it derives from, an extension).
    RecordProcessed {
        task: TaskName,
        channel: ChannelIndex,
        key: Option<Arc<str>>,
        value: i64,
        origin: Origin,
    },
    /// A sink wrote a record to the external system (extension).
    RecordWritten {
        task: TaskName,
        key: Option<Arc<str>>,
        value: i64,
        txn: Option<u64>,
        origin: Origin,
    },
    /// The coordinator started a checkpoint or savepoint (extension).
    CheckpointTriggered {
        checkpoint: CheckpointId,
        kind: SnapshotKind,
        unaligned: bool,
    },
    /// A trigger started no checkpoint: the minimum pause had not passed, or not all
    /// required tasks run (extension).
    CheckpointSkipped { reason: SkipCause },
    /// A source emitted a checkpoint barrier.
    BarrierInjected {
        task: TaskName,
        checkpoint: CheckpointId,
    },
    /// A task that is not a source sent the barrier on to all its outputs
    /// (extension; Flink: `OperatorChain.broadcastEvent` in
    /// `SubtaskCheckpointCoordinatorImpl.checkpointState`), before its synchronous
    /// snapshot. `unaligned`: the barrier's kind as it left. A source's forwarding is
    /// its `barrier_injected`; a sink has no outputs.
    BarrierForwarded {
        task: TaskName,
        checkpoint: CheckpointId,
        unaligned: bool,
    },
    /// A task's barrier handler handled a barrier.
    BarrierReceived {
        task: TaskName,
        channel: ChannelIndex,
        checkpoint: CheckpointId,
    },
    /// Aligned: the channel delivered its barrier and is blocked until alignment ends.
    ChannelBlocked {
        task: TaskName,
        channel: ChannelIndex,
        checkpoint: CheckpointId,
    },
    /// The channel is read again.
    ChannelUnblocked {
        task: TaskName,
        channel: ChannelIndex,
        checkpoint: CheckpointId,
    },
    /// A record reached a blocked channel and waits in its input queue.
    RecordBuffered {
        task: TaskName,
        channel: ChannelIndex,
        checkpoint: CheckpointId,
    },
    /// Unaligned: the channel's barrier arrived; `records` in-flight records were persisted for it.
    BarrierOvertook {
        task: TaskName,
        channel: ChannelIndex,
        checkpoint: CheckpointId,
        records: u32,
    },
    /// Aligned-checkpoint timeout: the task switched checkpoint `checkpoint` to unaligned (extension).
    AlignmentTimedOut {
        task: TaskName,
        checkpoint: CheckpointId,
    },
    /// The task took the synchronous part of its snapshot.
    SnapshotTaken {
        task: TaskName,
        checkpoint: CheckpointId,
        state_bytes: u64,
    },
    /// The task's asynchronous part finished and it acknowledged the checkpoint.
    CheckpointAcknowledged {
        task: TaskName,
        checkpoint: CheckpointId,
    },
    /// The task declined the checkpoint (extension).
    CheckpointDeclined {
        task: TaskName,
        checkpoint: CheckpointId,
        reason: AbortCause,
    },
    /// A task broadcast a cancellation marker downstream (extension).
    CancellationMarkerSent {
        task: TaskName,
        checkpoint: CheckpointId,
    },
    /// Every task acknowledged; the checkpoint is complete.
    CheckpointCompleted { checkpoint: CheckpointId },
    /// The checkpoint was aborted.
    CheckpointAborted {
        checkpoint: CheckpointId,
        reason: AbortCause,
    },
    /// A two-phase-commit sink began a transaction (`checkpoint`: the last one it snapshotted).
    TransactionBegun {
        task: TaskName,
        txn: u64,
        checkpoint: Option<CheckpointId>,
    },
    /// The transaction was pre-committed for `checkpoint`.
    TransactionPrecommitted {
        task: TaskName,
        txn: u64,
        checkpoint: Option<CheckpointId>,
    },
    /// The transaction was committed.
    TransactionCommitted {
        task: TaskName,
        txn: u64,
        checkpoint: Option<CheckpointId>,
    },
    /// The transaction was aborted.
    TransactionAborted {
        task: TaskName,
        txn: u64,
        checkpoint: Option<CheckpointId>,
    },
    /// A pre-committed transaction could not be committed — the broker had aborted
    /// it for the transaction timeout — and was dropped, its records lost
    /// (extension; `reason` is Flink's `KafkaCommitter` log line).
    TransactionCommitFailed {
        task: TaskName,
        txn: u64,
        checkpoint: Option<CheckpointId>,
        reason: String,
    },
    /// A subtask failed; the job fails over as a whole.
    TaskFailed {
        task: TaskName,
        reason: FailureCause,
    },
    /// A subtask that did not fail is being canceled because the job fails over
    /// (extension; Flink: `ExecutionState.CANCELING`).
    TaskCanceling { task: TaskName },
    /// The canceled subtask stopped (extension; Flink: `ExecutionState.CANCELED`).
    /// Simplified: right after `task_canceling`, at the same instant.
    TaskCanceled { task: TaskName },
    /// The restart strategy allows a restart after `delay_ms`.
    JobRestarting { delay_ms: u64 },
    /// A subtask's state was restored (`checkpoint` null: fresh start).
    StateRestored {
        task: TaskName,
        checkpoint: Option<CheckpointId>,
        /// The snapshot restored is a savepoint (extension; written only when
        /// true): a job started with `flink run -s <savepoint>`, or one that fails
        /// over before its first checkpoint completes.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        savepoint: bool,
    },
    /// A subtask finished (extension).
    TaskFinished { task: TaskName },
    /// The job reached a terminal status (extension).
    JobFinished,
    /// The restart strategy gave up, or the job was failed (extension).
    JobFailed { reason: JobFailure },
    /// The job was canceled (extension).
    JobCanceled,
    /// The JobManager died; a new leader recovers the job after `delay_ms`
    /// (extension). `checkpoints_lost`: completed checkpoints that lived in its
    /// memory (`jobmanager` storage).
    JobmanagerFailed {
        delay_ms: u64,
        checkpoints_lost: Vec<CheckpointId>,
    },
    /// The job ended and its retention policy deleted these retained checkpoints
    /// (extension; `status`: `finished`, `canceled` or `failed`).
    CheckpointsDiscarded {
        checkpoints: Vec<CheckpointId>,
        status: String,
    },
    /// The snapshot this job was started from under `CLAIM` was subsumed by a
    /// newer checkpoint and deleted, as Flink deletes its own (extension).
    ClaimedSnapshotDeleted { checkpoint: CheckpointId },
    /// A script action or intervention fell while the job was not running (extension).
    ActionIgnored { action: String, reason: IgnoreCause },
}

/// Collects the events of one step. Building an event (names, keys) costs time, so
/// nothing is built while tracing is off — the benchmarks run that way.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// Whether events are recorded.
    pub enabled: bool,
    /// The current simulated time, stamped on each event.
    pub now: u64,
    /// Events of the current step.
    pub events: Vec<TraceEvent>,
    /// Events recorded before the first step — what restoring from an earlier job's
    /// snapshot did while the World was built (`state_restored`, recovered
    /// transactions) — handed out with the first step when tracing.
    #[serde(default)]
    pub held_back: Vec<TraceEvent>,
}

impl Trace {
    /// Keep the events recorded so far for the first step, and stop recording
    /// (tracing is then switched on or not by the caller).
    pub fn hold_back(&mut self) {
        self.held_back = std::mem::take(&mut self.events);
        self.enabled = false;
    }

    /// A new step: forget the last step's events; hand out the held-back ones if
    /// tracing.
    #[inline]
    pub fn begin_step(&mut self) {
        self.events.clear();
        if self.enabled && !self.held_back.is_empty() {
            self.events.append(&mut self.held_back);
        }
    }

    /// Record the event `f` builds, if tracing.
    #[inline]
    pub fn push(&mut self, f: impl FnOnce() -> Event) {
        if self.enabled {
            self.events.push(TraceEvent {
                t: self.now,
                event: f(),
            });
        }
    }
}
