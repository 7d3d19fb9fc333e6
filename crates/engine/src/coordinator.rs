//! The checkpoint coordinator: triggering, the request queue, pending checkpoints,
//! the completed-checkpoint store and the tolerable-failure counter.
//!
//! Flink: `CheckpointCoordinator`, `CheckpointRequestDecider`, `PendingCheckpoint`,
//! `DefaultCompletedCheckpointStore`, `CheckpointFailureManager`.
//! This type holds the coordinator's bookkeeping and decisions; the
//! [`crate::World`] carries out what they imply (sending triggers and
//! notifications, failing the job over), so every message still takes its place
//! on the agenda.

use crate::barrier::CheckpointBarrier;
use crate::event::SnapshotKind;
use crate::ids::{CheckpointId, TaskId};
pub use crate::snapshot::CompletedCheckpoint;
use crate::snapshot::TaskSnapshot;
use crate::state::shared_registry::SharedStateRegistry;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The coordinator's configuration, resolved from the scenario's `checkpointing`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CoordinatorConfig {
    /// `mode` is exactly-once.
    pub exactly_once: bool,
    /// Unaligned checkpoints enabled.
    pub unaligned: bool,
    /// Aligned-checkpoint timeout (0: unaligned from the start).
    pub aligned_timeout_ms: u64,
    /// Effective periodic interval (min pause applied), `None`: manual triggers only.
    pub interval_ms: Option<u64>,
    /// A pending checkpoint older than this expires.
    pub timeout_ms: u64,
    /// Minimum pause between the completion of one checkpoint and the next periodic trigger.
    pub min_pause_ms: u64,
    /// Maximum pending checkpoints.
    pub max_concurrent: u32,
    /// Tolerable counted checkpoint failures.
    pub tolerable_failures: u32,
    /// Retained completed checkpoints.
    pub retained: u32,
    /// Jobmanager storage's per-subtask limit, `None` for filesystem storage.
    pub max_state_bytes: Option<u64>,
    /// Incremental (rocksdb) snapshots.
    pub incremental: bool,
    /// Duration of a snapshot's asynchronous phase.
    pub async_ms: u64,
    /// Checkpoints after tasks finish (FLIP-147).
    pub after_tasks_finish: bool,
}

/// A request to trigger a checkpoint or savepoint.
/// Flink: `CheckpointTriggerRequest`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TriggerRequest {
    /// What to take.
    pub kind: SnapshotKind,
    /// From the periodic scheduler (subject to min pause).
    pub is_periodic: bool,
    /// Bypasses max concurrent (savepoints while unaligned checkpoints are off).
    pub is_forced: bool,
    /// The final checkpoint of a drained bounded job.
    pub is_final: bool,
    /// Creation order, the last tie-break of the queue.
    pub seq: u64,
}

impl TriggerRequest {
    /// Flink's `checkpointTriggerRequestsComparator`: savepoints first, then forced,
    /// then non-periodic before periodic, then by creation.
    fn priority(&self) -> (bool, bool, bool, u64) {
        (
            !self.kind.is_savepoint(),
            !self.is_forced,
            self.is_periodic,
            self.seq,
        )
    }
}

/// What the decider says about the queue head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Start this request now.
    Start(TriggerRequest),
    /// A periodic request came too soon after the last completion: it was dropped
    /// and the periodic trigger must be rescheduled to this time.
    DroppedMinPause { reschedule_at: u64 },
    /// Nothing can start now.
    Wait,
}

/// Per-subtask statistics of one checkpoint (Flink's web UI: checkpoint details).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubtaskStats {
    /// When the subtask first saw this checkpoint (trigger RPC or first barrier).
    pub first_barrier_at: Option<u64>,
    /// When its last barrier arrived (alignment end).
    pub last_barrier_at: Option<u64>,
    /// Synchronous snapshot time.
    pub snapshot_at: Option<u64>,
    /// Acknowledgement time (end of the asynchronous phase).
    pub ack_at: Option<u64>,
    /// The snapshot was taken unaligned.
    pub unaligned: bool,
    /// Full state size.
    pub state_bytes: u64,
    /// Uploaded size.
    pub uploaded_bytes: u64,
    /// Persisted in-flight records.
    pub persisted_records: u64,
}

impl SubtaskStats {
    /// Alignment duration: first to last barrier (unaligned) or to the snapshot (aligned).
    pub fn alignment_ms(&self) -> u64 {
        let end = if self.unaligned {
            self.last_barrier_at
        } else {
            self.snapshot_at
        };
        match (self.first_barrier_at, end) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => 0,
        }
    }
}

/// Status of a checkpoint in the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckpointStatus {
    /// Pending.
    InProgress,
    /// Every task acknowledged.
    Completed,
    /// Expired, declined, subsumed or failed over.
    Aborted,
}

/// One row of the checkpoint history (Flink: `AbstractCheckpointStats`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointStats {
    /// Its id.
    pub id: CheckpointId,
    /// Checkpoint or savepoint.
    pub kind: SnapshotKind,
    /// Status.
    pub status: CheckpointStatus,
    /// Trigger time.
    pub trigger_at: u64,
    /// Completion or abort time.
    pub end_at: Option<u64>,
    /// Abort reason in the contract's spelling.
    pub reason: Option<String>,
    /// Started unaligned (the barrier's kind at the sources).
    pub unaligned: bool,
    /// Subtasks that must acknowledge.
    pub num_subtasks: u32,
    /// Per-subtask figures.
    pub subtasks: BTreeMap<TaskId, SubtaskStats>,
}

impl CheckpointStats {
    /// Acknowledged subtasks.
    pub fn num_acknowledged(&self) -> u32 {
        self.subtasks
            .values()
            .filter(|s| s.ack_at.is_some())
            .count() as u32
    }
}

/// A checkpoint waiting for acknowledgements. Flink: `PendingCheckpoint`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingCheckpoint {
    /// Its id.
    pub id: CheckpointId,
    /// Checkpoint or savepoint.
    pub kind: SnapshotKind,
    /// The barrier the sources inject.
    pub barrier: CheckpointBarrier,
    /// The final checkpoint of a drained job.
    pub is_final: bool,
    /// Subtasks not yet acknowledged (Flink: `notYetAcknowledgedTasks`).
    pub not_yet_acknowledged: BTreeSet<TaskId>,
    /// Acknowledged snapshots.
    pub acknowledged: BTreeMap<TaskId, TaskSnapshot>,
}

/// The checkpoint coordinator's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointCoordinator {
    /// Configuration.
    pub config: CoordinatorConfig,
    /// The next id to hand out (Flink: `CheckpointIDCounter`, from 1, never reset).
    next_id: u64,
    next_request_seq: u64,
    /// Queued trigger requests.
    pub queue: Vec<TriggerRequest>,
    /// Pending checkpoints by id.
    pub pending: BTreeMap<CheckpointId, PendingCheckpoint>,
    /// Retained completed checkpoints, oldest first (savepoints never enter it).
    pub store: Vec<Arc<CompletedCheckpoint>>,
    /// Retained checkpoints deleted when the job ended (the `externalized` policy);
    /// kept here only so that the page can show what was lost.
    pub discarded: Vec<Arc<CompletedCheckpoint>>,
    /// Completed savepoints (kept for restore; Flink never deletes them).
    pub savepoints: Vec<Arc<CompletedCheckpoint>>,
    /// Every completed checkpoint, including subsumed ones, when `keep_all_completed`
    /// (the runner's `--metadata` prints them all; Flink deletes subsumed ones).
    pub all_completed: Vec<Arc<CompletedCheckpoint>>,
    /// Whether to fill `all_completed`.
    pub keep_all_completed: bool,
    /// Time of the last completion (Flink: `lastCheckpointCompletionRelativeTime`), initially 0.
    pub last_completion_at: u64,
    /// Consecutive counted failures (Flink: `CheckpointFailureManager.continuousFailureCounter`).
    pub failure_counter: u32,
    counted_ids: BTreeSet<CheckpointId>,
    last_succeeded: Option<CheckpointId>,
    /// Every checkpoint triggered (the last `history_limit` when bounded), by id.
    pub history: BTreeMap<CheckpointId, CheckpointStats>,
    /// Bound on `history` (`None`: keep all).
    pub history_limit: Option<usize>,
    /// Generation of the periodic trigger; a rescheduling makes older ones stale.
    pub periodic_gen: u32,
    /// Shared files of incremental (rocksdb) checkpoints. Flink: the
    /// `SharedStateRegistry` of the `CompletedCheckpointStore`.
    #[serde(default)]
    pub shared: SharedStateRegistry,
}

/// Why a pending checkpoint was aborted. Flink: `CheckpointFailureReason`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbortCause {
    /// Not acknowledged within the timeout (`CHECKPOINT_EXPIRED`).
    Expired,
    /// A newer checkpoint completed, or a task saw a newer barrier (`CHECKPOINT_SUBSUMED`, `CHECKPOINT_DECLINED_SUBSUMED`).
    Subsumed,
    /// A task's asynchronous phase failed (`CHECKPOINT_ASYNC_EXCEPTION`), e.g. state too large for jobmanager storage.
    DeclinedAsync(String),
    /// A task received a cancellation marker (`CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER`).
    CancellationBarrier,
    /// End of partition with checkpoints after tasks finish off (`CHECKPOINT_DECLINED_INPUT_END_OF_STREAM`).
    EndOfStream,
    /// The job failed over (`JOB_FAILOVER_REGION`).
    JobFailover,
    /// The job was canceled or stopped (`CHECKPOINT_COORDINATOR_SUSPEND`).
    JobCanceled,
    /// A task to trigger finished before the trigger reached it (`CHECKPOINT_DECLINED_TASK_CLOSING`).
    TaskClosing,
}

impl AbortCause {
    /// The contract's spelling of the reason.
    pub fn contract_reason(&self) -> String {
        match self {
            AbortCause::Expired => "expired".into(),
            AbortCause::Subsumed => "subsumed".into(),
            AbortCause::DeclinedAsync(why) => format!("declined: {why}"),
            AbortCause::CancellationBarrier => "declined: cancellation barrier received".into(),
            AbortCause::EndOfStream => "end_of_stream".into(),
            AbortCause::JobFailover => "job_failover".into(),
            AbortCause::JobCanceled => "job_canceled".into(),
            AbortCause::TaskClosing => {
                "declined: task finished before the checkpoint reached it".into()
            }
        }
    }

    /// Whether `CheckpointFailureManager` counts it towards the tolerable failures:
    /// only expiry and asynchronous declines among the lab's causes.
    pub fn is_counted(&self) -> bool {
        matches!(self, AbortCause::Expired | AbortCause::DeclinedAsync(_))
    }

    /// Job-level (no task attempt): expiry and coordinator-side causes.
    fn is_job_level(&self) -> bool {
        !matches!(
            self,
            AbortCause::DeclinedAsync(_)
                | AbortCause::CancellationBarrier
                | AbortCause::EndOfStream
                | AbortCause::Subsumed
                | AbortCause::TaskClosing
        )
    }
}

impl CheckpointCoordinator {
    /// A coordinator with nothing pending.
    pub fn new(config: CoordinatorConfig) -> Self {
        CheckpointCoordinator {
            config,
            next_id: 1,
            next_request_seq: 0,
            queue: Vec::new(),
            pending: BTreeMap::new(),
            store: Vec::new(),
            savepoints: Vec::new(),
            discarded: Vec::new(),
            all_completed: Vec::new(),
            keep_all_completed: false,
            last_completion_at: 0,
            failure_counter: 0,
            counted_ids: BTreeSet::new(),
            last_succeeded: None,
            history: BTreeMap::new(),
            shared: SharedStateRegistry::default(),
            history_limit: None,
            periodic_gen: 0,
        }
    }

    /// Queue a request; see [`Self::decide`].
    pub fn offer(&mut self, kind: SnapshotKind, is_periodic: bool, is_final: bool) {
        // Flink: savepoints are forced iff unaligned checkpoints are disabled.
        let is_forced = kind.is_savepoint() && !self.config.unaligned;
        self.next_request_seq += 1;
        self.queue.push(TriggerRequest {
            kind,
            is_periodic,
            is_forced,
            is_final,
            seq: self.next_request_seq,
        });
    }

    /// Flink: `CheckpointRequestDecider.chooseRequestToExecute`.
    pub fn decide(&mut self, now: u64) -> Decision {
        let Some((i, _)) = self
            .queue
            .iter()
            .enumerate()
            .min_by_key(|(_, r)| r.priority())
        else {
            return Decision::Wait;
        };
        let head = &self.queue[i];
        if self.pending.len() as u32 >= self.config.max_concurrent && !head.is_forced {
            return Decision::Wait;
        }
        if head.is_periodic
            && !head.is_forced
            && now < self.last_completion_at + self.config.min_pause_ms
        {
            self.queue.remove(i);
            return Decision::DroppedMinPause {
                reschedule_at: self.last_completion_at + self.config.min_pause_ms,
            };
        }
        Decision::Start(self.queue.remove(i))
    }

    /// Allocate the next id and register the pending checkpoint.
    pub fn start(
        &mut self,
        request: &TriggerRequest,
        now: u64,
        tasks: impl IntoIterator<Item = TaskId>,
    ) -> CheckpointId {
        let id = CheckpointId(self.next_id);
        self.next_id += 1;
        let c = &self.config;
        let barrier = CheckpointBarrier::for_config(
            id,
            now,
            request.kind.is_savepoint(),
            c.exactly_once,
            c.unaligned,
            c.aligned_timeout_ms,
        );
        let not_yet_acknowledged: BTreeSet<TaskId> = tasks.into_iter().collect();
        self.history.insert(
            id,
            CheckpointStats {
                id,
                kind: request.kind,
                status: CheckpointStatus::InProgress,
                trigger_at: now,
                end_at: None,
                reason: None,
                unaligned: barrier.alignment == crate::barrier::Alignment::Unaligned,
                num_subtasks: not_yet_acknowledged.len() as u32,
                subtasks: not_yet_acknowledged
                    .iter()
                    .map(|t| (*t, SubtaskStats::default()))
                    .collect(),
            },
        );
        if let Some(limit) = self.history_limit {
            while self.history.len() > limit {
                let Some((&oldest, _)) = self
                    .history
                    .iter()
                    .find(|(k, _)| !self.pending.contains_key(k))
                else {
                    break;
                };
                self.history.remove(&oldest);
            }
        }
        self.pending.insert(
            id,
            PendingCheckpoint {
                id,
                kind: request.kind,
                barrier,
                is_final: request.is_final,
                not_yet_acknowledged,
                acknowledged: BTreeMap::new(),
            },
        );
        id
    }

    /// The id the next checkpoint will get.
    pub fn next_checkpoint_id(&self) -> CheckpointId {
        CheckpointId(self.next_id)
    }

    /// After restoring from a savepoint with id `s`, ids continue at `s + 1`.
    pub fn continue_ids_after(&mut self, id: CheckpointId) {
        self.next_id = self.next_id.max(id.0 + 1);
    }

    /// Mutable statistics of `task` in checkpoint `id`, if it takes part.
    pub fn stats_mut(&mut self, id: CheckpointId, task: TaskId) -> Option<&mut SubtaskStats> {
        self.history
            .get_mut(&id)
            .and_then(|h| h.subtasks.get_mut(&task))
    }

    /// Flink: `PendingCheckpoint.acknowledgeTask`. Returns true when this was the
    /// last acknowledgement (the checkpoint can complete). Acks for unknown or
    /// discarded checkpoints, and duplicates, are ignored.
    pub fn acknowledge(
        &mut self,
        id: CheckpointId,
        task: TaskId,
        snapshot: TaskSnapshot,
        now: u64,
    ) -> bool {
        let Some(p) = self.pending.get_mut(&id) else {
            return false;
        };
        if !p.not_yet_acknowledged.remove(&task) {
            return false;
        }
        if let Some(s) = self
            .history
            .get_mut(&id)
            .and_then(|h| h.subtasks.get_mut(&task))
        {
            s.ack_at = Some(now);
            s.state_bytes = snapshot.state_bytes;
            s.uploaded_bytes = snapshot.uploaded_bytes;
            s.persisted_records = snapshot.persisted_records();
        }
        p.acknowledged.insert(task, snapshot);
        p.not_yet_acknowledged.is_empty()
    }

    /// Flink: `completePendingCheckpoint`. Moves the pending checkpoint into the
    /// store (checkpoints only; savepoints are kept apart), subsumes the oldest
    /// beyond `retained`, resets the failure counter and returns the completed
    /// checkpoint with the ids of older pending checkpoints it subsumes.
    pub fn complete(
        &mut self,
        id: CheckpointId,
        now: u64,
    ) -> Option<(Arc<CompletedCheckpoint>, Vec<CheckpointId>)> {
        let p = self.pending.remove(&id)?;
        let h = self.history.get_mut(&id)?;
        h.status = CheckpointStatus::Completed;
        h.end_at = Some(now);
        let completed = Arc::new(CompletedCheckpoint {
            id,
            kind: p.kind,
            trigger_at: h.trigger_at,
            completed_at: now,
            tasks: p.acknowledged,
        });
        if self.keep_all_completed {
            self.all_completed.push(completed.clone());
        }
        match p.kind {
            SnapshotKind::Checkpoint => {
                self.store.push(completed.clone());
                while self.store.len() > self.config.retained as usize {
                    self.store.remove(0);
                }
                // Flink: DefaultCompletedCheckpointStore.addCheckpointAndSubsumeOldestOne
                // → SharedStateRegistry.unregisterUnusedState(lowest retained id).
                if let Some(lowest) = self.store.first().map(|c| c.id) {
                    self.shared.unregister_unused_state(lowest);
                }
            }
            _ => self.savepoints.push(completed.clone()),
        }
        // Flink: CheckpointFailureManager.handleCheckpointSuccess.
        if self.last_succeeded.is_none_or(|l| id > l) {
            self.last_succeeded = Some(id);
            self.failure_counter = 0;
            self.counted_ids.clear();
        }
        self.last_completion_at = now;
        // An intermediate savepoint subsumes nothing; checkpoints and stop-with-savepoint
        // abort older pending checkpoints that can be subsumed (not savepoints).
        let subsumed = if p.kind == SnapshotKind::Savepoint {
            Vec::new()
        } else {
            self.pending
                .values()
                .filter(|q| q.id < id && !q.kind.is_savepoint())
                .map(|q| q.id)
                .collect()
        };
        Some((completed, subsumed))
    }

    /// Flink: `abortPendingCheckpoint` + `CheckpointFailureManager.handleCheckpointException`.
    /// Returns `Some(true)` when the tolerable-failure threshold is now exceeded
    /// (the job must fail over), `Some(false)` otherwise, `None` if not pending.
    pub fn abort(&mut self, id: CheckpointId, cause: &AbortCause, now: u64) -> Option<bool> {
        let p = self.pending.remove(&id)?;
        if let Some(h) = self.history.get_mut(&id) {
            h.status = CheckpointStatus::Aborted;
            h.end_at = Some(now);
            h.reason = Some(cause.contract_reason());
        }
        // Job-level failures of savepoints are ignored; task-level ones (declines) count.
        if p.kind.is_savepoint() && cause.is_job_level() {
            return Some(false);
        }
        if p.kind == SnapshotKind::StopWithSavepoint
            && matches!(cause, AbortCause::DeclinedAsync(_))
        {
            return Some(true); // a synchronous savepoint's task failure fails the job at once
        }
        if cause.is_counted()
            && self.last_succeeded.is_none_or(|l| id > l)
            && self.counted_ids.insert(id)
        {
            self.failure_counter += 1;
            if self.failure_counter > self.config.tolerable_failures {
                self.failure_counter = 0;
                self.counted_ids.clear();
                return Some(true);
            }
        }
        Some(false)
    }

    /// The checkpoint a failover restores: the latest in the store.
    pub fn latest_completed(&self) -> Option<&Arc<CompletedCheckpoint>> {
        self.store.last()
    }
}
