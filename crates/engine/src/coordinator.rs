//! The checkpoint coordinator: triggering, the request queue, pending checkpoints,
//! the completed-checkpoint store and the tolerable-failure counter.
//!
//! Flink: `CheckpointCoordinator`, `CheckpointRequestDecider`, `PendingCheckpoint`,
//! `DefaultCompletedCheckpointStore`, `CheckpointFailureManager`.
//! This type holds the coordinator's bookkeeping and decisions — its fields are
//! private — including the periodic trigger ([`PeriodicTrigger`]: when it fires, and
//! its reschedule when the minimum pause drops a request) and the final checkpoint
//! of a drained job ([`FinalCheckpoint`]). The [`crate::World`] carries out what
//! they imply (putting triggers on the agenda, sending trigger RPCs and
//! notifications, failing the job over), so every message still takes its place on
//! the agenda.

use crate::barrier::{Alignment, CheckpointBarrier, HandlerMode, SnapshotType};
pub use crate::cause::AbortCause;
use crate::event::SnapshotKind;
use crate::ids::{CheckpointId, TaskId};
use crate::scenario::{BackendKind, CheckpointingMode, Scenario, StorageKind};
pub use crate::snapshot::CompletedCheckpoint;
use crate::snapshot::TaskSnapshot;
use crate::state::shared_registry::{SharedStateRegistry, StorageFile};
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
    /// Delay of the first periodic trigger after the job's first start.
    pub first_trigger_ms: u64,
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

impl CoordinatorConfig {
    /// The checkpointing mode and whether unaligned checkpoints are enabled, as the
    /// barriers' options take them (Flink: `isExactlyOnceMode`, `isUnalignedEnabled`).
    pub fn barrier_mode(&self) -> HandlerMode {
        if !self.exactly_once {
            HandlerMode::AtLeastOnce
        } else if self.unaligned {
            HandlerMode::Unaligned
        } else {
            HandlerMode::Aligned
        }
    }

    /// The configuration `scenario`'s `checkpointing` section resolves to (defaults
    /// for what it leaves out; no periodic interval without the section).
    pub fn for_scenario(scenario: &Scenario) -> Self {
        let checkpointing = scenario.checkpointing.is_some();
        let cfg = scenario.checkpoint_config();
        CoordinatorConfig {
            exactly_once: cfg.mode == CheckpointingMode::ExactlyOnce,
            unaligned: cfg.unaligned,
            aligned_timeout_ms: if cfg.unaligned {
                cfg.aligned_checkpoint_timeout_ms.unwrap_or(0)
            } else {
                0
            },
            interval_ms: if checkpointing {
                cfg.effective_interval_ms()
            } else {
                None
            },
            first_trigger_ms: cfg.first_trigger_ms.unwrap_or(cfg.min_pause_ms),
            timeout_ms: cfg.timeout_ms,
            min_pause_ms: cfg.min_pause_ms,
            max_concurrent: cfg.max_concurrent,
            tolerable_failures: cfg.tolerable_failures,
            retained: cfg.retained,
            max_state_bytes: (cfg.storage == StorageKind::Jobmanager)
                .then_some(cfg.max_state_bytes),
            incremental: cfg.backend == BackendKind::Rocksdb,
            async_ms: cfg.async_ms,
            after_tasks_finish: cfg.checkpoints_after_tasks_finish,
        }
    }
}

/// Who asks for a checkpoint or savepoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerOrigin {
    /// The periodic scheduler (subject to the minimum pause). Flink: `isPeriodic`.
    Periodic,
    /// A user or a script (CLI, REST).
    Manual,
    /// The final checkpoint of a drained bounded job (FLIP-147).
    Final,
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
    /// and the periodic trigger rescheduled (Flink: `rescheduleTrigger`) — the caller
    /// puts trigger `generation` on the agenda at `reschedule_at`.
    DroppedMinPause {
        /// When the periodic trigger fires next: the last completion plus the min pause.
        reschedule_at: u64,
        /// Its new generation ([`PeriodicTrigger`]).
        generation: u32,
    },
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
    /// Abort reason in the contract's spelling ([`Self::cause`] as text).
    pub reason: Option<String>,
    /// Why it was aborted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<AbortCause>,
    /// Started unaligned (the barrier's kind at the sources).
    pub unaligned: bool,
    /// Subtasks that must acknowledge.
    pub num_subtasks: u32,
    /// Per-subtask figures.
    pub subtasks: BTreeMap<TaskId, SubtaskStats>,
    /// Completed, but its snapshots died with the JobManager (jobmanager storage):
    /// its status stays `completed`, nothing can restore it any more.
    #[serde(default)]
    pub lost: bool,
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
    /// When it expires unless it completes first: its trigger time plus the
    /// checkpoint timeout (see [`CheckpointCoordinator::is_expired`]).
    #[serde(default)]
    pub expires_at: u64,
    /// Subtasks not yet acknowledged (Flink: `notYetAcknowledgedTasks`).
    pub not_yet_acknowledged: BTreeSet<TaskId>,
    /// Acknowledged snapshots.
    pub acknowledged: BTreeMap<TaskId, TaskSnapshot>,
}

/// The periodic checkpoint scheduler. Flink: the `CheckpointCoordinator`'s
/// `ScheduledTrigger`, started by `startCheckpointScheduler` and rescheduled by
/// `rescheduleTrigger` when a periodic checkpoint comes too soon after the last
/// completion (the minimum pause).
///
/// Every (re)start makes a new generation: a trigger of an older generation still on
/// the agenda is stale and does nothing when it comes due, so a reschedule needs no
/// way to take a scheduled item back.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeriodicTrigger {
    /// The generation of the live trigger (0: never started).
    generation: u32,
}

impl PeriodicTrigger {
    /// Starts a new generation and returns it: the triggers of older ones are stale.
    pub fn restart(&mut self) -> u32 {
        self.generation += 1;
        self.generation
    }

    /// Whether a trigger of `generation` is the live one.
    pub fn is_live(&self, generation: u32) -> bool {
        generation == self.generation
    }
}

/// The final checkpoint of a bounded job whose tasks have all drained (FLIP-147):
/// two-phase-commit sinks wait for it to commit what they hold. Flink: the
/// checkpoint a `StreamTask` waits for after its end of data (`finalCheckpointMinId`,
/// `finalCheckpointCompleted`).
/// Simplified: Flink's tasks wait for the next checkpoint after they finish; the lab
/// asks for one as soon as every task is waiting or finished, unless the periodic
/// trigger will bring one anyway.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalCheckpoint {
    /// A final checkpoint was asked for (or a periodic one will do).
    requested: bool,
    /// It completed: no further checkpoint starts.
    completed: bool,
}

/// The checkpoint coordinator's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointCoordinator {
    /// Configuration.
    config: CoordinatorConfig,
    /// The next id to hand out (Flink: `CheckpointIDCounter`, from 1, never reset).
    next_id: u64,
    /// Creation counter of trigger requests, their last tie-break in the queue.
    next_request_seq: u64,
    /// Queued trigger requests (Flink: `CheckpointRequestDecider.queuedRequests`),
    /// unordered: [`Self::decide`] picks the head by priority.
    queue: Vec<TriggerRequest>,
    /// Pending checkpoints by id (Flink: `pendingCheckpoints`).
    pending: BTreeMap<CheckpointId, PendingCheckpoint>,
    /// Retained completed checkpoints, oldest first (savepoints never enter it).
    /// Flink: `DefaultCompletedCheckpointStore`.
    store: Vec<Arc<CompletedCheckpoint>>,
    /// Retained checkpoints deleted when the job ended (the `externalized` policy) or
    /// lost with the JobManager; kept here only so that the page can show what was lost.
    discarded: Vec<Arc<CompletedCheckpoint>>,
    /// Completed savepoints (kept for restore; Flink never deletes them).
    savepoints: Vec<Arc<CompletedCheckpoint>>,
    /// Every completed checkpoint, including subsumed ones, when `keep_all_completed`
    /// (the runner's `--metadata` prints them all; Flink deletes subsumed ones).
    all_completed: Vec<Arc<CompletedCheckpoint>>,
    /// Whether to fill `all_completed`.
    keep_all_completed: bool,
    /// Time of the last completion (Flink: `lastCheckpointCompletionRelativeTime`), initially 0.
    last_completion_at: u64,
    /// Consecutive counted failures (Flink: `CheckpointFailureManager.continuousFailureCounter`).
    failure_counter: u32,
    /// Ids already counted since the last success (each counts once).
    counted_ids: BTreeSet<CheckpointId>,
    /// The newest completed id (failures of older ids are not counted).
    last_succeeded: Option<CheckpointId>,
    /// Every checkpoint triggered (the last `history_limit` when bounded), by id.
    history: BTreeMap<CheckpointId, CheckpointStats>,
    /// Bound on `history` (`None`: keep all).
    history_limit: Option<usize>,
    /// The periodic trigger and its generation.
    periodic: PeriodicTrigger,
    /// The final checkpoint of a drained bounded job.
    final_checkpoint: FinalCheckpoint,
    /// Shared files of incremental (rocksdb) checkpoints. Flink: the
    /// `SharedStateRegistry` of the `CompletedCheckpointStore`.
    #[serde(default)]
    shared: SharedStateRegistry,
    /// The snapshot this job was started from, as the earlier job wrote it.
    #[serde(default)]
    restored: Option<RestoredSnapshot>,
    /// That snapshot once it left the store unclaimed (`NO_CLAIM`): still on disk,
    /// the user's; listed with storage so the page can say so.
    #[serde(default)]
    released: Option<Arc<CompletedCheckpoint>>,
    /// A claimed restored snapshot deleted on subsumption, not yet told.
    #[serde(default)]
    claimed_deleted: Option<CheckpointId>,
}

/// The snapshot of an earlier job this job was started from (`flink run -s`), as
/// that job wrote it: a savepoint belongs to the job that took it, and its
/// `_metadata` names that job's operators — some of which the new job may not
/// have (`--allowNonRestoredState`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RestoredSnapshot {
    /// Its id.
    pub id: CheckpointId,
    /// Its files, named by the earlier job's subtasks (before any rescale).
    pub files: Vec<StorageFile>,
    /// Its `_metadata` by the earlier job's operator uids (as `lab run --metadata`).
    pub metadata: serde_json::Value,
    /// Uids it holds state for that no operator of this job claims: the state
    /// stays in the snapshot and is not restored.
    pub non_restored: Vec<String>,
    /// Restored under `CLAIM`: the job owns it and deletes it like its own
    /// checkpoints; otherwise it stays the user's.
    #[serde(default)]
    pub claimed: bool,
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
            periodic: PeriodicTrigger::default(),
            final_checkpoint: FinalCheckpoint::default(),
            restored: None,
            released: None,
            claimed_deleted: None,
        }
    }

    // ----- read access -------------------------------------------------------

    /// Its configuration.
    pub fn config(&self) -> &CoordinatorConfig {
        &self.config
    }

    /// Pending checkpoints by id.
    pub fn pending(&self) -> &BTreeMap<CheckpointId, PendingCheckpoint> {
        &self.pending
    }

    /// The pending checkpoint `id`, if it is pending.
    pub fn pending_checkpoint(&self, id: CheckpointId) -> Option<&PendingCheckpoint> {
        self.pending.get(&id)
    }

    /// Whether checkpoint `id` is pending.
    pub fn is_pending(&self, id: CheckpointId) -> bool {
        self.pending.contains_key(&id)
    }

    /// Retained completed checkpoints, oldest first.
    pub fn store(&self) -> &[Arc<CompletedCheckpoint>] {
        &self.store
    }

    /// Completed savepoints, oldest first.
    pub fn savepoints(&self) -> &[Arc<CompletedCheckpoint>] {
        &self.savepoints
    }

    /// Retained checkpoints deleted when the job ended or lost with the JobManager.
    pub fn discarded(&self) -> &[Arc<CompletedCheckpoint>] {
        &self.discarded
    }

    /// Every completed checkpoint, subsumed ones included, when kept
    /// ([`Self::set_keep_all_completed`]).
    pub fn all_completed(&self) -> &[Arc<CompletedCheckpoint>] {
        &self.all_completed
    }

    /// Every checkpoint triggered (the last ones when bounded), by id.
    pub fn history(&self) -> &BTreeMap<CheckpointId, CheckpointStats> {
        &self.history
    }

    /// Consecutive counted checkpoint failures.
    pub fn failure_counter(&self) -> u32 {
        self.failure_counter
    }

    /// Time of the last completion.
    pub fn last_completion_at(&self) -> u64 {
        self.last_completion_at
    }

    /// The shared files of incremental checkpoints.
    pub fn shared(&self) -> &SharedStateRegistry {
        &self.shared
    }

    /// Whether the final checkpoint of a drained job completed (no more checkpoints).
    pub fn is_final_completed(&self) -> bool {
        self.final_checkpoint.completed
    }

    // ----- settings ----------------------------------------------------------

    /// Keep the last `n` checkpoints in the statistics history (Flink's web UI keeps
    /// `web.checkpoints.history`), and no subsumed checkpoint's state.
    pub fn bound_history(&mut self, n: usize) {
        self.history_limit = Some(n.max(1));
        self.keep_all_completed = false;
    }

    /// Keep every completed checkpoint's state, not only the retained ones.
    pub fn set_keep_all_completed(&mut self, on: bool) {
        self.keep_all_completed = on;
    }

    // ----- the periodic trigger ----------------------------------------------

    /// Flink: `startCheckpointScheduler` — (re)starts the periodic trigger at `now`.
    /// Returns when it first fires and its generation; `None` without an interval
    /// (manual checkpoints only). The first start fires `first_trigger_ms` later:
    /// Flink 2.3's deactivator starts the scheduler once when the job turns RUNNING,
    /// which spends the random `getInitialTriggeringDelay()` and leaves `triggerDelay`
    /// at the min pause, stops it as the tasks deploy, and starts it again when every
    /// task runs, so the first trigger comes the min pause after that (docs/flink-semantics.md
    /// §1.3). A later start (after a failover) fires one interval later: a
    /// simplification: Flink 2.3 was measured to trigger one interval after the
    /// restart with min pause 0 but the min pause after it otherwise, §1.3.
    pub fn start_periodic(&mut self, now: u64) -> Option<(u64, u32)> {
        let interval = self.config.interval_ms?;
        let delay = if self.periodic.generation == 0 {
            self.config.first_trigger_ms
        } else {
            interval
        };
        Some((now + delay, self.periodic.restart()))
    }

    /// A periodic trigger of `generation` fires at `now`: `None` if it is stale
    /// (restarted or rescheduled since), else when the next one fires. The caller
    /// then offers a periodic request ([`Self::offer`]).
    pub fn periodic_fired(&self, generation: u32, now: u64) -> Option<u64> {
        if !self.periodic.is_live(generation) {
            return None;
        }
        self.config.interval_ms.map(|interval| now + interval)
    }

    // ----- the final checkpoint of a drained job -------------------------------

    /// Every task has drained: ask for the final checkpoint, once. Returns false if
    /// it was asked for already.
    pub fn request_final(&mut self) -> bool {
        if self.final_checkpoint.requested {
            return false;
        }
        self.final_checkpoint.requested = true;
        self.offer(SnapshotKind::Checkpoint, TriggerOrigin::Final);
        true
    }

    /// The final checkpoint was aborted while the job runs: the next periodic
    /// checkpoint takes its place. Without a periodic trigger the caller must ask
    /// again ([`Self::request_final`]); returns whether it must.
    pub fn final_aborted(&mut self) -> bool {
        self.final_checkpoint.requested = self.config.interval_ms.is_some();
        !self.final_checkpoint.requested
    }

    /// A failover: the restarted job drains anew.
    pub fn reset_final(&mut self) {
        self.final_checkpoint = FinalCheckpoint::default();
    }

    /// Drop every queued request (the job stopped, or its final checkpoint completed).
    pub fn clear_queue(&mut self) {
        self.queue.clear();
    }

    // ----- statistics --------------------------------------------------------

    /// `task` took its synchronous snapshot of `id` at `now`, having first seen the
    /// checkpoint at `first_seen_at`, under `alignment` (the barrier's); an aligned
    /// snapshot ends its alignment.
    pub fn snapshot_taken(
        &mut self,
        id: CheckpointId,
        task: TaskId,
        first_seen_at: u64,
        now: u64,
        alignment: Alignment,
    ) {
        let unaligned = alignment == Alignment::Unaligned;
        if let Some(s) = self.stats_mut(id, task) {
            s.first_barrier_at = Some(first_seen_at);
            s.snapshot_at = Some(now);
            s.unaligned = unaligned;
            if !unaligned {
                s.last_barrier_at = Some(now);
            }
        }
    }

    /// `task`'s last barrier of unaligned checkpoint `id` arrived at `now`.
    pub fn alignment_ended(&mut self, id: CheckpointId, task: TaskId, now: u64) {
        if let Some(s) = self.stats_mut(id, task) {
            s.last_barrier_at = Some(now);
        }
    }

    // ----- checkpoint storage ------------------------------------------------

    /// Flink: `CheckpointCoordinator.restoreSavepoint` — the job starts from `c`
    /// (of an earlier job): it enters the store as the first retained checkpoint and
    /// ids continue after it.
    /// `restored` is that snapshot as the job that wrote it lists it.
    pub fn restored_from(&mut self, c: Arc<CompletedCheckpoint>, restored: RestoredSnapshot) {
        self.continue_ids_after(c.id);
        self.restored = Some(restored);
        self.store.push(c);
    }

    /// The snapshot this job was started from, if `id` is it.
    pub fn restored(&self, id: CheckpointId) -> Option<&RestoredSnapshot> {
        self.restored.as_ref().filter(|r| r.id == id)
    }

    /// The files of `id` if it is the snapshot this job was started from: named
    /// by the earlier job that wrote them, not by this job's subtasks.
    pub fn restored_files(&self, id: CheckpointId) -> Option<&[StorageFile]> {
        self.restored(id).map(|r| r.files.as_slice())
    }

    /// Moves every retained checkpoint out of the store into the discarded ones (kept
    /// for the page to strike through) and returns their ids. A restored snapshot
    /// the job did not claim is not the job's to delete: it is released instead.
    pub fn discard_retained(&mut self) -> Vec<CheckpointId> {
        let gone: Vec<Arc<CompletedCheckpoint>> = self.store.drain(..).collect();
        let mut ids = Vec::new();
        for c in gone {
            if let Some(c) = self.release_if_unclaimed(c) {
                ids.push(c.id);
                self.discarded.push(c);
            }
        }
        ids
    }

    /// The job lets go of `c`: the snapshot it started from under `NO_CLAIM` is
    /// released (`CheckpointProperties.forUnclaimedSnapshot`: never discarded);
    /// any other is handed back for the caller to delete or forget.
    fn release_if_unclaimed(
        &mut self,
        c: Arc<CompletedCheckpoint>,
    ) -> Option<Arc<CompletedCheckpoint>> {
        if self.restored(c.id).is_some_and(|r| !r.claimed) {
            self.released = Some(c);
            return None;
        }
        Some(c)
    }

    /// `c` was subsumed by a newer checkpoint. Flink forgets an own checkpoint
    /// (`CompletedCheckpoint.discardOnSubsume`); a snapshot restored under `CLAIM`
    /// is deleted the same way, and is kept struck through and told; one restored
    /// under `NO_CLAIM` stays the user's.
    fn subsumed(&mut self, c: Arc<CompletedCheckpoint>) {
        let Some(c) = self.release_if_unclaimed(c) else {
            return;
        };
        if self.restored(c.id).is_some() {
            self.claimed_deleted = Some(c.id);
            self.discarded.push(c);
        }
    }

    /// The restored snapshot the store just deleted because it was claimed and
    /// subsumed, once (the World traces it).
    pub fn take_claimed_deleted(&mut self) -> Option<CheckpointId> {
        self.claimed_deleted.take()
    }

    /// The restored snapshot once the job let go of it unclaimed: still the user's.
    pub fn released(&self) -> Option<&Arc<CompletedCheckpoint>> {
        self.released.as_ref()
    }

    /// The JobManager died with the retained checkpoints in its heap
    /// (`JobManagerCheckpointStorage`): they are discarded and marked lost in the
    /// history; returns their ids.
    pub fn lose_retained(&mut self) -> Vec<CheckpointId> {
        let ids = self.discard_retained();
        for id in &ids {
            if let Some(h) = self.history.get_mut(id) {
                h.lost = true;
            }
        }
        ids
    }

    /// Flink registers an incremental snapshot's shared files when it is
    /// acknowledged, even for a checkpoint that is already gone
    /// ([`SharedStateRegistry::register`]).
    pub fn register_shared(
        &mut self,
        id: CheckpointId,
        task: TaskId,
        task_name: &str,
        upload: &crate::state::shared_registry::IncrementalUpload,
        private_bytes: u64,
    ) {
        self.shared
            .register(id, task, task_name, upload, private_bytes);
    }

    // ----- decisions ---------------------------------------------------------

    /// Queue a request; see [`Self::decide`].
    pub fn offer(&mut self, kind: SnapshotKind, origin: TriggerOrigin) {
        // Flink: savepoints are forced iff unaligned checkpoints are disabled.
        let is_forced = kind.is_savepoint() && !self.config.unaligned;
        self.next_request_seq += 1;
        self.queue.push(TriggerRequest {
            kind,
            is_periodic: origin == TriggerOrigin::Periodic,
            is_forced,
            is_final: origin == TriggerOrigin::Final,
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
                generation: self.periodic.restart(),
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
        let snapshot = if request.kind.is_savepoint() {
            SnapshotType::Savepoint
        } else {
            SnapshotType::Checkpoint
        };
        let barrier = CheckpointBarrier::for_config(
            id,
            now,
            snapshot,
            self.config.barrier_mode(),
            self.config.aligned_timeout_ms,
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
                cause: None,
                unaligned: barrier.alignment == crate::barrier::Alignment::Unaligned,
                num_subtasks: not_yet_acknowledged.len() as u32,
                subtasks: not_yet_acknowledged
                    .iter()
                    .map(|t| (*t, SubtaskStats::default()))
                    .collect(),
                lost: false,
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
                expires_at: now + self.config.timeout_ms,
                not_yet_acknowledged,
                acknowledged: BTreeMap::new(),
            },
        );
        id
    }

    /// When pending checkpoint `id` expires: the caller schedules its timeout then.
    /// Flink: the `CheckpointCanceller` that `CheckpointCoordinator` schedules
    /// `checkpointTimeout` after the trigger.
    pub fn expires_at(&self, id: CheckpointId) -> Option<u64> {
        self.pending.get(&id).map(|p| p.expires_at)
    }

    /// Whether checkpoint `id` has expired at `now`: it is still pending (not
    /// completed, aborted or subsumed since) and its timeout has passed; the caller
    /// then aborts it as expired. Flink: `CheckpointCanceller.run`, which aborts
    /// with `CHECKPOINT_EXPIRED` unless the checkpoint is disposed.
    pub fn is_expired(&self, id: CheckpointId, now: u64) -> bool {
        self.pending.get(&id).is_some_and(|p| now >= p.expires_at)
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
    fn stats_mut(&mut self, id: CheckpointId, task: TaskId) -> Option<&mut SubtaskStats> {
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
        if p.is_final {
            // Every task has drained and finishes on this notification: nothing
            // queued is started any more.
            self.queue.clear();
            self.final_checkpoint.completed = true;
        }
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
                    let old = self.store.remove(0);
                    self.subsumed(old);
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
            h.cause = Some(cause.clone());
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

#[cfg(test)]
mod tests {
    use super::*;

    fn config(interval_ms: Option<u64>, min_pause_ms: u64) -> CoordinatorConfig {
        CoordinatorConfig {
            exactly_once: true,
            unaligned: false,
            aligned_timeout_ms: 0,
            interval_ms,
            first_trigger_ms: interval_ms.unwrap_or(0),
            timeout_ms: 600_000,
            min_pause_ms,
            max_concurrent: 1,
            tolerable_failures: 0,
            retained: 1,
            max_state_bytes: None,
            incremental: false,
            async_ms: 0,
            after_tasks_finish: true,
        }
    }

    /// Mirrors CheckpointCoordinatorTest#testMinTimeBetweenCheckpointsInterval: a
    /// periodic trigger too soon after the last completion is dropped and the
    /// scheduler rescheduled to `last completion + min pause`; the trigger it
    /// replaces goes stale.
    #[test]
    fn min_pause_reschedules_the_periodic_trigger() {
        let mut c = CheckpointCoordinator::new(config(Some(100), 250));
        let (at, first) = c.start_periodic(200).expect("periodic");
        assert_eq!(at, 300);
        assert_eq!(c.periodic_fired(first, 300), Some(400));
        c.offer(SnapshotKind::Checkpoint, TriggerOrigin::Periodic);
        let Decision::Start(req) = c.decide(300) else {
            panic!("the min pause after the start (last completion 0) has passed");
        };
        let id = c.start(&req, 300, [TaskId(0)]);
        c.acknowledge(id, TaskId(0), finished_snapshot(), 350);
        c.complete(id, 350).expect("completes");
        c.offer(SnapshotKind::Checkpoint, TriggerOrigin::Periodic);
        let Decision::DroppedMinPause {
            reschedule_at,
            generation,
        } = c.decide(400)
        else {
            panic!("too soon after the completion at 350");
        };
        assert_eq!(reschedule_at, 600);
        assert_ne!(generation, first);
        assert_eq!(
            c.periodic_fired(first, 400),
            None,
            "the old trigger is stale"
        );
        assert_eq!(c.periodic_fired(generation, 600), Some(700));
    }

    /// The first start waits `first_trigger_ms`; a later one (after a failover)
    /// one interval.
    #[test]
    fn the_first_start_waits_the_first_trigger_delay_and_a_later_one_the_interval() {
        let mut cfg = config(Some(100), 0);
        cfg.first_trigger_ms = 30;
        let mut c = CheckpointCoordinator::new(cfg);
        let (at, first) = c.start_periodic(0).expect("periodic");
        assert_eq!(at, 30);
        let (at, second) = c.start_periodic(500).expect("periodic");
        assert_eq!(at, 600);
        assert!(!c.periodic.is_live(first) && c.periodic.is_live(second));
    }

    /// Without an interval there is no periodic trigger.
    #[test]
    fn manual_checkpoints_only_without_an_interval() {
        let mut c = CheckpointCoordinator::new(config(None, 0));
        assert_eq!(c.start_periodic(0), None);
    }

    /// FLIP-147: a drained job asks for its final checkpoint once; once it completes,
    /// nothing queued starts; an abort asks again only without a periodic trigger.
    #[test]
    fn the_final_checkpoint_of_a_drained_job() {
        let mut c = CheckpointCoordinator::new(config(None, 0));
        assert!(c.request_final());
        assert!(!c.request_final(), "asked once");
        let Decision::Start(req) = c.decide(10) else {
            panic!("the final checkpoint starts");
        };
        assert!(req.is_final);
        let id = c.start(&req, 10, [TaskId(0)]);
        assert!(c.final_aborted(), "no periodic trigger: ask again");
        assert!(c.request_final());
        c.offer(SnapshotKind::Checkpoint, TriggerOrigin::Manual);
        c.acknowledge(id, TaskId(0), finished_snapshot(), 20);
        c.complete(id, 20).expect("completes");
        assert!(c.is_final_completed());
        assert_eq!(c.decide(30), Decision::Wait, "the queue was dropped");
        let mut periodic = CheckpointCoordinator::new(config(Some(100), 0));
        periodic.request_final();
        assert!(
            !periodic.final_aborted(),
            "the next periodic checkpoint will do"
        );
    }

    /// A pending checkpoint expires `timeout_ms` after its trigger, not before; a
    /// completed one never does.
    #[test]
    fn a_pending_checkpoint_expires_after_the_timeout() {
        let mut c = CheckpointCoordinator::new(config(None, 0));
        c.offer(SnapshotKind::Checkpoint, TriggerOrigin::Manual);
        let Decision::Start(req) = c.decide(100) else {
            panic!("starts");
        };
        let id = c.start(&req, 100, [TaskId(0)]);
        assert_eq!(c.expires_at(id), Some(600_100));
        assert!(!c.is_expired(id, 600_099));
        assert!(c.is_expired(id, 600_100));
        c.acknowledge(id, TaskId(0), finished_snapshot(), 200);
        c.complete(id, 200).expect("completes");
        assert!(!c.is_expired(id, 600_100), "no longer pending");
    }

    fn finished_snapshot() -> TaskSnapshot {
        TaskSnapshot {
            finished: true,
            state: crate::snapshot::OperatorSnapshot::Stateless,
            input_channels: BTreeMap::new(),
            output_channels: BTreeMap::new(),
            state_bytes: 0,
            uploaded_bytes: 0,
        }
    }
}
