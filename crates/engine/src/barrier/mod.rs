//! Barrier handling at a task's input: one handler per task spanning all its input
//! channels (Flink: `InputProcessorUtil.createCheckpointBarrierHandler`).
//!
//! # Layout
//! - [`single`]: the common bookkeeping of Flink's `SingleCheckpointBarrierHandler`
//!   (current checkpoint, aligned channels, cancellation, end of partition, the
//!   aligned-checkpoint timer) and its state ([`single::BarrierHandlerState`]).
//! - [`aligned`]: exactly-once, aligned and alternating (aligned ⇄ unaligned) states
//!   of Flink's `SingleCheckpointBarrierHandler` (`WaitingForFirstBarrier`,
//!   `CollectingBarriers`, `AlternatingWaitingForFirstBarrier`,
//!   `AlternatingCollectingBarriers`).
//! - [`unaligned`]: the unaligned states (`AlternatingWaitingForFirstBarrierUnaligned`,
//!   `AlternatingCollectingBarriersUnaligned`) and channel-state persisting.
//! - [`tracker`]: at-least-once `CheckpointBarrierTracker`.
//! - [`channel_state`]: the channel state an unaligned checkpoint captures at the
//!   task's inputs (`ChannelStatePersister`), for the `World` and the bench alike.
//!
//! The handler is sans-IO: it never owns channel queues. The caller (the
//! `World` or the barrier bench, [`crate::bench`]) feeds it barriers, cancellation
//! markers, end-of-partition events and timer firings, and applies the
//! [`HandlerAction`]s it pushes, in order.
//!
//! # Order of actions
//! The order is part of the contract with the caller:
//! - aligned completion: `Trigger`, then `Unblocked` for every blocked channel in
//!   index order (the channel whose barrier completed the alignment is never
//!   reported blocked);
//! - unaligned first barrier: `Trigger { persist }`, then `StopPersisting` for the
//!   channel whose barrier triggered it;
//! - a barrier of a newer checkpoint during alignment: `Abort { older, Subsumed }`,
//!   its `Unblocked`s, then the new checkpoint's actions. An `Abort` always precedes
//!   the `Unblocked`s it causes, as Flink broadcasts the cancellation marker before
//!   any released record is processed.

use serde::{Deserialize, Serialize};

use crate::ids::{ChannelIndex, CheckpointId};

pub mod aligned;
pub mod channel_state;
pub mod single;
pub mod tracker;
pub mod unaligned;

use single::SingleCheckpointBarrierHandler;
use tracker::CheckpointBarrierTracker;

/// How a checkpoint's barriers are handled at a task.
///
/// Flink: `CheckpointOptions.AlignmentType`.
/// Simplified: `FORCED_ALIGNED` (pointwise edges that cannot carry channel state) is
/// not modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Alignment {
    /// At-least-once: the barrier tracker counts barriers and never blocks.
    AtLeastOnce,
    /// Exactly-once, aligned: a channel is blocked once its barrier arrived.
    Aligned,
    /// Exactly-once, unaligned: the barrier overtakes in-flight data, which becomes
    /// channel state.
    Unaligned,
}

/// A checkpoint barrier as it travels through the job graph.
///
/// Flink: `CheckpointBarrier` + `CheckpointOptions`.
/// Simplified: no storage location; the snapshot type is only "savepoint or not".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointBarrier {
    /// The checkpoint (or savepoint) id.
    pub id: CheckpointId,
    /// When the coordinator created the checkpoint (ms). The aligned-checkpoint
    /// timeout is measured from here, not from the barrier's arrival.
    pub created_at: u64,
    /// A savepoint: always aligned and never timed out in exactly-once mode.
    pub is_savepoint: bool,
    /// How tasks handle this barrier.
    pub alignment: Alignment,
    /// `Some(T)` with `T > 0`: an aligned barrier that switches to unaligned when the
    /// alignment is still going on `T` ms after [`CheckpointBarrier::created_at`].
    pub aligned_timeout_ms: Option<u64>,
}

impl CheckpointBarrier {
    /// The barrier options for a configuration (Flink: `CheckpointOptions.forConfig`;
    /// `mode` spells its `isExactlyOnceMode` and `isUnalignedEnabled`):
    /// at-least-once ⇒ [`Alignment::AtLeastOnce`]; a savepoint ⇒ aligned without
    /// timeout; unaligned disabled ⇒ aligned without timeout; timeout 0 ⇒ unaligned;
    /// otherwise aligned with `Some(timeout)`.
    pub fn for_config(
        id: CheckpointId,
        created_at: u64,
        snapshot: SnapshotType,
        mode: HandlerMode,
        aligned_timeout_ms: u64,
    ) -> Self {
        let is_savepoint = snapshot == SnapshotType::Savepoint;
        let (alignment, timeout) = match mode {
            HandlerMode::AtLeastOnce => (Alignment::AtLeastOnce, None),
            HandlerMode::Aligned => (Alignment::Aligned, None),
            HandlerMode::Unaligned if is_savepoint => (Alignment::Aligned, None),
            HandlerMode::Unaligned if aligned_timeout_ms == 0 => (Alignment::Unaligned, None),
            HandlerMode::Unaligned => (Alignment::Aligned, Some(aligned_timeout_ms)),
        };
        CheckpointBarrier {
            id,
            created_at,
            is_savepoint,
            alignment,
            aligned_timeout_ms: timeout,
        }
    }

    /// An aligned barrier that may time out to unaligned (Flink:
    /// `CheckpointOptions.isTimeoutable`).
    pub fn is_timeoutable(&self) -> bool {
        self.alignment == Alignment::Aligned && self.aligned_timeout_ms.is_some_and(|t| t > 0)
    }

    /// An unaligned (priority) barrier (Flink: `CheckpointOptions.isUnalignedCheckpoint`).
    pub fn is_unaligned(&self) -> bool {
        self.alignment == Alignment::Unaligned
    }

    /// The same barrier, unaligned and without timeout (Flink:
    /// `CheckpointBarrier.asUnaligned`). Precondition: not a savepoint and not
    /// at-least-once (Flink checks the alignment is `ALIGNED`).
    pub fn to_unaligned(&self) -> Self {
        debug_assert!(
            self.alignment != Alignment::AtLeastOnce && !self.is_savepoint,
            "only an exactly-once checkpoint barrier can become unaligned: {self:?}"
        );
        CheckpointBarrier {
            alignment: Alignment::Unaligned,
            aligned_timeout_ms: None,
            ..self.clone()
        }
    }
}

/// What a barrier's snapshot is. Flink: `SnapshotType` (`CheckpointType` or
/// `SavepointType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnapshotType {
    /// A checkpoint.
    Checkpoint,
    /// A savepoint (or stop-with-savepoint): aligned and full whatever the configuration.
    Savepoint,
}

/// Which barrier handler a task uses (Flink: `InputProcessorUtil.createCheckpointBarrierHandler`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandlerMode {
    /// Exactly-once, unaligned checkpoints disabled: `SingleCheckpointBarrierHandler.aligned`.
    Aligned,
    /// Exactly-once, unaligned checkpoints enabled: the alternating handler
    /// (`SingleCheckpointBarrierHandler.alternating`), which handles aligned
    /// (savepoint, timeoutable) and unaligned barriers.
    Unaligned,
    /// At-least-once: `CheckpointBarrierTracker`.
    AtLeastOnce,
}

/// Why a task declines a checkpoint (contract spellings).
///
/// Flink: `CheckpointFailureReason.CHECKPOINT_DECLINED_SUBSUMED`,
/// `CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER`, `CHECKPOINT_DECLINED_INPUT_END_OF_STREAM`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbortReason {
    /// A barrier of a newer checkpoint arrived during the alignment.
    Subsumed,
    /// A cancellation marker arrived.
    CancellationBarrier,
    /// An input ended while checkpoints after tasks finish are disabled.
    EndOfStream,
}

/// What the handler asks its caller to do, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HandlerAction {
    /// Stop consuming `channel` until `Unblocked` (an aligned barrier of
    /// `checkpoint` arrived on it).
    Blocked {
        /// The channel that delivered the barrier.
        channel: ChannelIndex,
        /// The checkpoint being aligned.
        checkpoint: CheckpointId,
    },
    /// Resume consuming `channel`.
    Unblocked {
        /// The channel to resume.
        channel: ChannelIndex,
        /// The checkpoint whose barrier had blocked it.
        checkpoint: CheckpointId,
    },
    /// Take the snapshot now. `barrier` is the barrier to forward downstream (alignment Unaligned when taken unaligned).
    /// `persist`: for an unaligned trigger, the channels whose in-flight records become channel state: every open channel
    /// whose barrier had not been received before this trigger (including the channel whose barrier triggered it: its
    /// overtaken records count); empty when aligned / at-least-once. `alignment_started_at`: when this task first saw
    /// this checkpoint (its first barrier or end of partition), for statistics.
    Trigger {
        /// The barrier to forward downstream.
        barrier: CheckpointBarrier,
        /// Channels whose in-flight records become channel state (unaligned only).
        persist: Vec<ChannelIndex>,
        /// When the alignment of this checkpoint started at this task.
        alignment_started_at: u64,
    },
    /// Unaligned: this channel's barrier (or end of partition) arrived; its channel state for `checkpoint` is complete.
    StopPersisting {
        /// The channel whose capture ends.
        channel: ChannelIndex,
        /// The unaligned checkpoint.
        checkpoint: CheckpointId,
    },
    /// The barrier of `checkpoint` announced on `channel` is still queued there behind
    /// data: move it ahead of that data and hand it to the handler at once, as an
    /// unaligned barrier, so it overtakes the queued records, which become channel
    /// state (Flink: `ChannelState.prioritizeAllAnnouncements` →
    /// `CheckpointableInput.convertToPriorityEvent`). Pushed when the aligned checkpoint
    /// times out (before any barrier of `checkpoint` was handled, or during the
    /// alignment, after the unaligned `Trigger`), and for an announcement that arrives
    /// once the checkpoint is unaligned at this task.
    Prioritize {
        /// The channel whose queued barrier jumps ahead.
        channel: ChannelIndex,
        /// The checkpoint it belongs to.
        checkpoint: CheckpointId,
    },
    /// Decline the checkpoint to the coordinator and broadcast a cancellation marker downstream (Flink: notifyAbort).
    /// Persisting stops for all channels.
    Abort {
        /// The declined checkpoint.
        checkpoint: CheckpointId,
        /// Why.
        reason: AbortReason,
    },
}

/// The barrier handler of one task, spanning all its input channels.
///
/// Flink: `SingleCheckpointBarrierHandler` (exactly-once, aligned or alternating) /
/// `CheckpointBarrierTracker` (at-least-once), chosen by
/// `InputProcessorUtil.createCheckpointBarrierHandler`.
/// Simplified: one flat channel index space instead of input gates; no metrics
/// beyond the alignment start; the timer is a due time the caller polls
/// ([`BarrierHandler::next_timer_at`]) instead of a registered callback.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrierHandler {
    /// The mode this handler was built for.
    mode: HandlerMode,
    /// The handler itself: enum dispatch over Flink's two implementations.
    kind: HandlerKind,
}

/// The two implementations behind [`BarrierHandler`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum HandlerKind {
    /// Exactly-once (aligned or alternating).
    Single(SingleCheckpointBarrierHandler),
    /// At-least-once.
    Tracker(CheckpointBarrierTracker),
}

/// What an end of partition does to a pending checkpoint. Flink:
/// `execution.checkpointing.checkpoints-after-tasks-finish` (FLIP-147).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndOfPartition {
    /// It counts as that channel's barrier (the option on, Flink's default).
    CountsAsBarrier,
    /// It aborts the pending checkpoint (the option off).
    AbortsCheckpoint,
}

impl EndOfPartition {
    /// The behaviour for `execution.checkpointing.checkpoints-after-tasks-finish`.
    pub fn with_checkpoints_after_tasks_finish(enabled: bool) -> Self {
        if enabled {
            EndOfPartition::CountsAsBarrier
        } else {
            EndOfPartition::AbortsCheckpoint
        }
    }
}

impl BarrierHandler {
    /// A handler for a task with `num_channels` input channels, all open, treating
    /// an end of partition as `end_of_partition` says.
    pub fn new(mode: HandlerMode, num_channels: u32, end_of_partition: EndOfPartition) -> Self {
        let kind = match mode {
            HandlerMode::Aligned => HandlerKind::Single(SingleCheckpointBarrierHandler::aligned(
                num_channels,
                end_of_partition,
            )),
            HandlerMode::Unaligned => HandlerKind::Single(
                SingleCheckpointBarrierHandler::alternating(num_channels, end_of_partition),
            ),
            HandlerMode::AtLeastOnce => HandlerKind::Tracker(CheckpointBarrierTracker::new(
                num_channels,
                end_of_partition,
            )),
        };
        BarrierHandler { mode, kind }
    }

    /// The mode this handler was built for.
    pub fn mode(&self) -> HandlerMode {
        self.mode
    }

    /// A barrier was read from `channel` (Flink: `processBarrier`).
    pub fn process_barrier(
        &mut self,
        channel: ChannelIndex,
        barrier: &CheckpointBarrier,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        match &mut self.kind {
            HandlerKind::Single(h) => h.process_barrier(channel, barrier, now_ms, out),
            HandlerKind::Tracker(t) => t.process_barrier(channel, barrier, now_ms, out),
        }
    }

    /// A timeoutable aligned barrier was enqueued behind data on `channel` (Flink:
    /// `EventAnnouncement`, `processBarrierAnnouncement`). The tracker ignores
    /// announcements.
    pub fn process_barrier_announcement(
        &mut self,
        channel: ChannelIndex,
        barrier: &CheckpointBarrier,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        match &mut self.kind {
            HandlerKind::Single(h) => h.process_barrier_announcement(channel, barrier, now_ms, out),
            HandlerKind::Tracker(_) => {}
        }
    }

    /// A cancellation marker of `checkpoint` was read from `channel` (Flink:
    /// `processCancellationBarrier`).
    pub fn process_cancellation_barrier(
        &mut self,
        channel: ChannelIndex,
        checkpoint: CheckpointId,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        match &mut self.kind {
            HandlerKind::Single(h) => {
                h.process_cancellation_barrier(channel, checkpoint, now_ms, out)
            }
            HandlerKind::Tracker(t) => {
                t.process_cancellation_barrier(channel, checkpoint, now_ms, out)
            }
        }
    }

    /// `channel` ended (Flink: `processEndOfPartition`). Nothing may arrive on it afterwards.
    pub fn process_end_of_partition(
        &mut self,
        channel: ChannelIndex,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        match &mut self.kind {
            HandlerKind::Single(h) => h.process_end_of_partition(channel, now_ms, out),
            HandlerKind::Tracker(t) => t.process_end_of_partition(channel, now_ms, out),
        }
    }

    /// The aligned-checkpoint timer, due at created_at + T + 1 (contract). None when no timer.
    /// (When the task learns of the checkpoint later than created_at + T, the timer is
    /// due at that moment + 1, as Flink's delay is never negative.)
    pub fn next_timer_at(&self) -> Option<u64> {
        match &self.kind {
            HandlerKind::Single(h) => h.next_timer_at(),
            HandlerKind::Tracker(_) => None,
        }
    }

    /// Precondition (debug_assert): now_ms >= next_timer_at. Switches a pending aligned checkpoint to unaligned (Trigger with persist = not-yet-barriered open channels); channels already blocked stay blocked until all barriers arrived (then Unblocked).
    /// Before any barrier of the checkpoint was handled (only announcements) it pushes
    /// a `Prioritize` for every announced channel: the caller hands those barriers
    /// over at once, and the first of them triggers the unaligned checkpoint
    /// (Flink: `AlternatingWaitingForFirstBarrier.alignedCheckpointTimeout`).
    pub fn fire_timer(&mut self, now_ms: u64, out: &mut Vec<HandlerAction>) {
        debug_assert!(
            self.next_timer_at().is_some_and(|due| now_ms >= due),
            "fire_timer at {now_ms} but the timer is {:?}",
            self.next_timer_at()
        );
        match &mut self.kind {
            HandlerKind::Single(h) => h.fire_timer(now_ms, out),
            HandlerKind::Tracker(_) => {}
        }
    }

    /// Whether `channel` is blocked (delivers nothing until `Unblocked`).
    pub fn is_blocked(&self, channel: ChannelIndex) -> bool {
        match &self.kind {
            HandlerKind::Single(h) => h.is_blocked(channel),
            HandlerKind::Tracker(_) => false,
        }
    }

    /// Whether records arriving on `channel` now become channel state of the pending
    /// unaligned checkpoint.
    pub fn is_persisting(&self, channel: ChannelIndex) -> bool {
        match &self.kind {
            HandlerKind::Single(h) => h.is_persisting(channel),
            HandlerKind::Tracker(_) => false,
        }
    }

    /// Whether the pending checkpoint is (now) handled unaligned: a barrier of it that
    /// arrives from now on is a priority event and overtakes the data queued ahead of
    /// it (Flink: `convertToPriorityEvent` on its announcement). False when nothing is
    /// pending.
    pub fn is_unaligned(&self) -> bool {
        match &self.kind {
            HandlerKind::Single(h) => h.is_unaligned(),
            HandlerKind::Tracker(_) => false,
        }
    }

    /// Checkpoints this task is currently aligning/collecting (0 or 1 for exactly-once, up to 50 for the tracker), oldest first.
    /// For the tracker this includes checkpoints it already declined and keeps only to
    /// count their remaining barriers (Flink: `getPendingCheckpointIds`).
    pub fn pending_checkpoints(&self) -> Vec<CheckpointId> {
        match &self.kind {
            HandlerKind::Single(h) => h.pending_checkpoint().into_iter().collect(),
            HandlerKind::Tracker(t) => t.pending_checkpoints(),
        }
    }

    /// [`Self::pending_checkpoints`] with when this task saw each one's first
    /// barrier: the end of its start delay, while the checkpoint is still being
    /// aligned (Flink reports it only with the acknowledgement).
    pub fn pending_since(&self) -> Vec<(CheckpointId, u64)> {
        match &self.kind {
            HandlerKind::Single(h) => h
                .pending_checkpoint()
                .zip(h.alignment_started_at)
                .into_iter()
                .collect(),
            HandlerKind::Tracker(t) => t.pending_since(),
        }
    }

    /// The highest checkpoint id this task has seen (Flink: `getLatestCheckpointId`;
    /// for the tracker the newest pending one). None before any.
    pub fn latest_checkpoint_id(&self) -> Option<CheckpointId> {
        match &self.kind {
            HandlerKind::Single(h) => h.current_checkpoint(),
            HandlerKind::Tracker(t) => t.pending_checkpoints().last().copied(),
        }
    }

    /// Channels that have not delivered an end of partition.
    pub fn num_open_channels(&self) -> u32 {
        match &self.kind {
            HandlerKind::Single(h) => h.num_open_channels(),
            HandlerKind::Tracker(t) => t.num_open_channels(),
        }
    }
}
