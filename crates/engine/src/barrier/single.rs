//! The exactly-once barrier handler's common bookkeeping: which checkpoint is
//! current, which channels delivered its barrier, cancellation markers, end of
//! partition and the aligned-checkpoint timer. What happens on a barrier depends on
//! the [`BarrierHandlerState`], implemented in [`super::aligned`] and
//! [`super::unaligned`].

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{AbortReason, CheckpointBarrier, EndOfPartition, HandlerAction};
use crate::ids::{ChannelIndex, CheckpointId};

/// The state of a [`SingleCheckpointBarrierHandler`] (Flink: `BarrierHandlerState`
/// and its implementations).
///
/// Simplified: Flink's non-alternating unaligned handler
/// (`SingleCheckpointBarrierHandler.unaligned`, used only by Flink's tests) is not
/// modelled: with unaligned barriers the alternating handler behaves the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BarrierHandlerState {
    /// No barrier of the pending checkpoint seen yet (Flink: `WaitingForFirstBarrier`,
    /// `AlternatingWaitingForFirstBarrier`).
    WaitingForFirstBarrier,
    /// Aligning: channels that delivered the barrier are blocked (Flink:
    /// `CollectingBarriers`, `AlternatingCollectingBarriers`).
    CollectingBarriers,
    /// The timer fired before any barrier: the first barrier triggers an unaligned
    /// checkpoint (Flink: `AlternatingWaitingForFirstBarrierUnaligned`).
    WaitingForFirstBarrierUnaligned,
    /// The unaligned snapshot is taken; collecting the remaining barriers while
    /// persisting in-flight records (Flink: `AlternatingCollectingBarriersUnaligned`).
    CollectingBarriersUnaligned,
}

/// The aligned-checkpoint timer of the pending checkpoint (Flink:
/// `SingleCheckpointBarrierHandler.registerAlignmentTimer`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlignmentTimer {
    /// When it fires: `max(created_at + T, registered_at) + 1` (Flink's processing-time
    /// timers fire one millisecond after their timestamp).
    pub due_at: u64,
    /// The barrier (or announced barrier) that registered it; the unaligned trigger
    /// forwards this barrier, made unaligned.
    pub barrier: CheckpointBarrier,
}

/// Per-channel state of the current checkpoint (Flink: `ChannelState` for blocking and
/// announcements, `ChannelStatePersister` in each input channel for persisting).
///
/// Invariant: `blocked` and `persisting` are disjoint, and both are empty when no
/// checkpoint is pending.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelState {
    /// Channels blocked by an aligned barrier, with the checkpoint it belongs to.
    pub blocked: BTreeMap<ChannelIndex, CheckpointId>,
    /// Channels that announced a barrier not yet received (only with a timeoutable
    /// barrier).
    pub announced: BTreeSet<ChannelIndex>,
    /// Channels whose arriving records become channel state of the pending unaligned
    /// checkpoint, until their barrier or end of partition.
    pub persisting: BTreeSet<ChannelIndex>,
}

/// The exactly-once barrier handler of one task.
///
/// Flink: `SingleCheckpointBarrierHandler` (`aligned` or `alternating`).
/// Simplified: handles one checkpoint at a time as Flink does; the timer is a due
/// time polled by the caller; metrics are reduced to the alignment start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SingleCheckpointBarrierHandler {
    /// Alternating handler (unaligned checkpoints enabled): timeoutable and unaligned
    /// barriers are handled; otherwise barriers must be aligned.
    pub(super) alternating: bool,
    /// An end of partition counts as that channel's barrier (true) or aborts the
    /// pending checkpoint (false).
    pub(super) checkpoints_after_tasks_finish: bool,
    /// Per channel: it delivered its end of partition. Nothing may arrive after it.
    pub(super) is_finished: Vec<bool>,
    /// Channels not finished; the target of every checkpoint started from now on.
    pub(super) num_open_channels: u32,
    /// The highest checkpoint id seen (barrier, announcement or acted-on cancellation
    /// marker); Flink's `currentCheckpointId`, `None` for Flink's -1.
    pub(super) current_checkpoint: Option<CheckpointId>,
    /// The last checkpoint completed or aborted at this task. The current one is
    /// pending while the two differ.
    pub(super) last_cancelled_or_completed: Option<CheckpointId>,
    /// The first barrier (or announcement) of the pending checkpoint; used when an end
    /// of partition completes it.
    pub(super) pending_barrier: Option<CheckpointBarrier>,
    /// Channels that delivered the current checkpoint's barrier or their end of
    /// partition (a set: a channel counts once).
    pub(super) aligned_channels: BTreeSet<ChannelIndex>,
    /// How many channels must be aligned: the open channels when the checkpoint started.
    pub(super) target_channel_count: u32,
    /// When the first channel of the pending checkpoint was aligned.
    pub(super) alignment_started_at: Option<u64>,
    /// The aligned-checkpoint timer, while pending.
    pub(super) timer: Option<AlignmentTimer>,
    /// What a barrier does now.
    pub(super) state: BarrierHandlerState,
    /// Blocked, announced and persisting channels.
    pub(super) channels: ChannelState,
}

/// How a barrier reached the handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arrival {
    /// In order with its channel's records.
    InOrder,
    /// As a priority event that overtook its channel's queued records (unaligned).
    Overtook,
}

impl Arrival {
    /// `channel` if the barrier overtook records there (they become channel state).
    pub(super) fn overtaken(self, channel: ChannelIndex) -> Option<ChannelIndex> {
        (self == Arrival::Overtook).then_some(channel)
    }
}

impl SingleCheckpointBarrierHandler {
    /// Flink: `SingleCheckpointBarrierHandler.aligned` — exactly-once with unaligned
    /// checkpoints disabled.
    pub fn aligned(num_channels: u32, end_of_partition: EndOfPartition) -> Self {
        SingleCheckpointBarrierHandler {
            alternating: false,
            ..Self::new(num_channels, end_of_partition)
        }
    }

    /// Flink: `SingleCheckpointBarrierHandler.alternating` — exactly-once with
    /// unaligned checkpoints enabled: aligned (savepoint, timeoutable) and unaligned
    /// barriers.
    pub fn alternating(num_channels: u32, end_of_partition: EndOfPartition) -> Self {
        SingleCheckpointBarrierHandler {
            alternating: true,
            ..Self::new(num_channels, end_of_partition)
        }
    }

    /// An aligned handler over `num_channels` open channels, waiting for a first barrier.
    fn new(num_channels: u32, end_of_partition: EndOfPartition) -> Self {
        SingleCheckpointBarrierHandler {
            alternating: false,
            checkpoints_after_tasks_finish: end_of_partition == EndOfPartition::CountsAsBarrier,
            is_finished: vec![false; num_channels as usize],
            num_open_channels: num_channels,
            current_checkpoint: None,
            last_cancelled_or_completed: None,
            pending_barrier: None,
            aligned_channels: BTreeSet::new(),
            target_channel_count: 0,
            alignment_started_at: None,
            timer: None,
            state: BarrierHandlerState::WaitingForFirstBarrier,
            channels: ChannelState::default(),
        }
    }

    /// The current state.
    pub fn state(&self) -> BarrierHandlerState {
        self.state
    }

    /// The highest checkpoint id seen (Flink: `getLatestCheckpointId`).
    pub fn current_checkpoint(&self) -> Option<CheckpointId> {
        self.current_checkpoint
    }

    /// The pending checkpoint, if any (Flink: `isCheckpointPending`).
    pub fn pending_checkpoint(&self) -> Option<CheckpointId> {
        self.is_checkpoint_pending()
            .then_some(self.current_checkpoint)
            .flatten()
    }

    /// Channels without end of partition.
    pub fn num_open_channels(&self) -> u32 {
        self.num_open_channels
    }

    /// Whether `channel` is blocked.
    pub fn is_blocked(&self, channel: ChannelIndex) -> bool {
        self.channels.blocked.contains_key(&channel)
    }

    /// Whether `channel` is being persisted for the pending unaligned checkpoint.
    pub fn is_persisting(&self, channel: ChannelIndex) -> bool {
        self.channels.persisting.contains(&channel)
    }

    /// Whether the pending checkpoint is handled unaligned.
    pub fn is_unaligned(&self) -> bool {
        self.is_checkpoint_pending()
            && matches!(
                self.state,
                BarrierHandlerState::WaitingForFirstBarrierUnaligned
                    | BarrierHandlerState::CollectingBarriersUnaligned
            )
    }

    /// When the aligned-checkpoint timer fires, if one is registered.
    pub fn next_timer_at(&self) -> Option<u64> {
        self.timer.as_ref().map(|t| t.due_at)
    }

    pub(super) fn is_checkpoint_pending(&self) -> bool {
        self.current_checkpoint.is_some()
            && self.current_checkpoint != self.last_cancelled_or_completed
    }

    /// Flink: `Controller.allBarriersReceived`.
    pub(super) fn all_barriers_received(&self) -> bool {
        self.aligned_channels.len() as u64 == u64::from(self.target_channel_count)
    }

    /// Flink: `Controller.isTimedOut` — strict: `T < now - created_at`.
    pub(super) fn is_timed_out(&self, barrier: &CheckpointBarrier, now_ms: u64) -> bool {
        barrier.is_timeoutable()
            && Some(barrier.id) <= self.current_checkpoint
            && barrier.aligned_timeout_ms.unwrap_or(u64::MAX)
                < now_ms.saturating_sub(barrier.created_at)
    }

    /// An event on `channel` that cannot happen in a well-formed run (out of range, or
    /// after its end of partition): a debug assertion, ignored in release.
    fn is_invalid_channel(&self, channel: ChannelIndex, what: &str) -> bool {
        let invalid = self
            .is_finished
            .get(channel.0 as usize)
            .is_none_or(|&finished| finished);
        debug_assert!(
            !invalid,
            "{what} on channel {channel}, which is out of range or finished ({} channels)",
            self.is_finished.len()
        );
        invalid
    }

    /// Flink: `SingleCheckpointBarrierHandler.processBarrier`.
    pub fn process_barrier(
        &mut self,
        channel: ChannelIndex,
        barrier: &CheckpointBarrier,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        if self.is_invalid_channel(channel, "barrier") {
            return;
        }
        let id = Some(barrier.id);
        if self.current_checkpoint > id
            || (self.current_checkpoint == id && !self.is_checkpoint_pending())
        {
            // Obsolete: ignored. Flink resumes the channel here because the network
            // blocked it on delivering an aligned barrier; in this model a channel is
            // only blocked through `Blocked`, so there is nothing to resume.
            return;
        }
        self.check_new_checkpoint(barrier, now_ms, out);
        debug_assert_eq!(self.current_checkpoint, id);
        self.mark_aligned(channel, now_ms);
        let arrival = if barrier.is_unaligned() {
            Arrival::Overtook
        } else {
            Arrival::InOrder
        };
        self.barrier_received(channel, barrier, arrival, now_ms, out);
        self.finish_if_all_aligned();
    }

    /// Flink: `SingleCheckpointBarrierHandler.processBarrierAnnouncement`.
    pub fn process_barrier_announcement(
        &mut self,
        channel: ChannelIndex,
        barrier: &CheckpointBarrier,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        if self.is_invalid_channel(channel, "announcement") {
            return;
        }
        self.check_new_checkpoint(barrier, now_ms, out);
        let id = Some(barrier.id);
        if self.current_checkpoint > id
            || (self.current_checkpoint == id && !self.is_checkpoint_pending())
        {
            return;
        }
        self.announcement_received(channel, out);
    }

    /// Flink: `SingleCheckpointBarrierHandler.processCancellationBarrier`: acts only on
    /// a newer checkpoint, or on the current one once one of its barriers arrived.
    pub fn process_cancellation_barrier(
        &mut self,
        channel: ChannelIndex,
        checkpoint: CheckpointId,
        _now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        if self.is_invalid_channel(channel, "cancellation marker") {
            return;
        }
        let id = Some(checkpoint);
        if id > self.current_checkpoint
            || (id == self.current_checkpoint && !self.aligned_channels.is_empty())
        {
            self.abort_internal(checkpoint, AbortReason::CancellationBarrier, out);
        }
    }

    /// Flink: `SingleCheckpointBarrierHandler.processEndOfPartition`.
    pub fn process_end_of_partition(
        &mut self,
        channel: ChannelIndex,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        if self.is_invalid_channel(channel, "end of partition") {
            return;
        }
        self.is_finished[channel.0 as usize] = true;
        self.num_open_channels -= 1;
        // Flink: ChannelState.channelFinished (a finished channel is neither blocked
        // nor announced; it cannot be blocked here since a blocked channel delivers
        // nothing).
        self.channels.blocked.remove(&channel);
        self.channels.announced.remove(&channel);

        if !self.checkpoints_after_tasks_finish {
            if let Some(pending) = self.pending_checkpoint() {
                self.abort_internal(pending, AbortReason::EndOfStream, out);
            }
            return;
        }
        if !self.is_checkpoint_pending() {
            return;
        }
        debug_assert!(
            self.pending_barrier.is_some(),
            "a pending checkpoint has a barrier"
        );
        self.mark_aligned(channel, now_ms);
        self.end_of_partition_received(channel, now_ms, out);
        self.finish_if_all_aligned();
    }

    /// Precondition: the timer is due. Flink: the callback of `registerAlignmentTimer`.
    pub fn fire_timer(&mut self, now_ms: u64, out: &mut Vec<HandlerAction>) {
        let Some(timer) = self.timer.take() else {
            return;
        };
        if now_ms < timer.due_at {
            // Not due (a caller bug, asserted in `BarrierHandler::fire_timer`): keep it.
            self.timer = Some(timer);
            return;
        }
        if self.current_checkpoint == Some(timer.barrier.id) && self.is_checkpoint_pending() {
            self.aligned_checkpoint_timeout(&timer.barrier, None, now_ms, out);
        }
    }

    /// Flink: `BarrierHandlerState.barrierReceived`, by state.
    pub(super) fn barrier_received(
        &mut self,
        channel: ChannelIndex,
        barrier: &CheckpointBarrier,
        arrival: Arrival,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        match self.state {
            BarrierHandlerState::WaitingForFirstBarrier
            | BarrierHandlerState::CollectingBarriers => {
                if self.alternating {
                    self.alternating_aligned_barrier_received(
                        channel, barrier, arrival, now_ms, out,
                    )
                } else {
                    self.aligned_barrier_received(channel, barrier, now_ms, out)
                }
            }
            BarrierHandlerState::WaitingForFirstBarrierUnaligned => {
                self.waiting_unaligned_barrier_received(channel, barrier, arrival, now_ms, out)
            }
            BarrierHandlerState::CollectingBarriersUnaligned => {
                self.collecting_unaligned_barrier_received(channel, barrier, out)
            }
        }
    }

    /// Flink: `BarrierHandlerState.endOfPartitionReceived`, by state.
    fn end_of_partition_received(
        &mut self,
        channel: ChannelIndex,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        match self.state {
            // Flink: "Do nothing since we have no pending checkpoint" (a checkpoint can
            // be pending here only through an announcement, whose channel is still open).
            BarrierHandlerState::WaitingForFirstBarrier
            | BarrierHandlerState::WaitingForFirstBarrierUnaligned => {}
            BarrierHandlerState::CollectingBarriers => {
                self.collecting_end_of_partition_received(channel, now_ms, out)
            }
            BarrierHandlerState::CollectingBarriersUnaligned => {
                self.collecting_unaligned_end_of_partition_received(channel, out)
            }
        }
    }

    /// Flink: `BarrierHandlerState.alignedCheckpointTimeout`, by state.
    /// `overtaking`: the channel whose unaligned barrier causes the switch; its
    /// overtaken records are channel state too.
    pub(super) fn aligned_checkpoint_timeout(
        &mut self,
        barrier: &CheckpointBarrier,
        overtaking: Option<ChannelIndex>,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        match self.state {
            BarrierHandlerState::WaitingForFirstBarrier
            | BarrierHandlerState::CollectingBarriers
                if !self.alternating =>
            {
                // Flink throws IllegalStateException("Alignment should not be timed out
                // if we are not alternating."): only an unaligned barrier reaching an
                // aligned handler gets here.
                debug_assert!(
                    false,
                    "aligned handler cannot switch to unaligned ({barrier:?})"
                );
            }
            BarrierHandlerState::WaitingForFirstBarrier => self.waiting_aligned_timeout(out),
            BarrierHandlerState::CollectingBarriers => {
                self.collecting_aligned_timeout(barrier, overtaking, now_ms, out)
            }
            // Flink: "ignore already processing unaligned checkpoints".
            BarrierHandlerState::WaitingForFirstBarrierUnaligned
            | BarrierHandlerState::CollectingBarriersUnaligned => {}
        }
    }

    /// Flink: `BarrierHandlerState.announcementReceived`, by state.
    fn announcement_received(&mut self, channel: ChannelIndex, out: &mut Vec<HandlerAction>) {
        match self.state {
            BarrierHandlerState::WaitingForFirstBarrier
            | BarrierHandlerState::CollectingBarriers => {
                if self.alternating {
                    self.channels.announced.insert(channel);
                }
            }
            // Already unaligned: the announced barrier becomes a priority event at once
            // (`AlternatingWaitingForFirstBarrierUnaligned.announcementReceived`).
            BarrierHandlerState::WaitingForFirstBarrierUnaligned
            | BarrierHandlerState::CollectingBarriersUnaligned => {
                if let Some(checkpoint) = self.current_checkpoint {
                    out.push(HandlerAction::Prioritize {
                        channel,
                        checkpoint,
                    });
                }
            }
        }
    }

    /// Flink: `checkNewCheckpoint`: a barrier of a newer checkpoint subsumes the
    /// pending one and starts its own.
    fn check_new_checkpoint(
        &mut self,
        barrier: &CheckpointBarrier,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        if self.current_checkpoint >= Some(barrier.id) {
            return;
        }
        if let Some(pending) = self.pending_checkpoint() {
            self.abort_internal(pending, AbortReason::Subsumed, out);
        }
        self.current_checkpoint = Some(barrier.id);
        self.pending_barrier = Some(barrier.clone());
        self.aligned_channels.clear();
        self.target_channel_count = self.num_open_channels;
        self.alignment_started_at = None;
        self.timer = None;
        if self.alternating && barrier.is_timeoutable() {
            let timeout = barrier.aligned_timeout_ms.unwrap_or(0);
            let deadline = barrier.created_at.saturating_add(timeout);
            self.timer = Some(AlignmentTimer {
                due_at: deadline.max(now_ms).saturating_add(1),
                barrier: barrier.clone(),
            });
        }
    }

    /// Flink: the first half of `markCheckpointAlignedAndTransformState`.
    fn mark_aligned(&mut self, channel: ChannelIndex, now_ms: u64) {
        self.aligned_channels.insert(channel);
        if self.alignment_started_at.is_none() {
            self.alignment_started_at = Some(now_ms);
        }
    }

    /// Flink: the second half of `markCheckpointAlignedAndTransformState`: once every
    /// target channel is aligned the checkpoint is no longer pending at this task.
    fn finish_if_all_aligned(&mut self) {
        if self.is_checkpoint_pending() && self.all_barriers_received() {
            debug_assert!(
                self.channels.blocked.is_empty() && self.channels.persisting.is_empty(),
                "completion leaves nothing blocked or persisting: {:?}",
                self.channels
            );
            self.aligned_channels.clear();
            self.last_cancelled_or_completed = self.current_checkpoint;
            self.timer = None;
        }
    }

    /// Flink: `abortInternal`: after it, every barrier of a checkpoint up to
    /// `checkpoint` is obsolete. Pushes `Abort`, then `Unblocked` for every blocked
    /// channel. A pending checkpoint older than `checkpoint` is dropped without its own
    /// `Abort` (as in Flink, where only `checkpoint` is declined).
    pub(super) fn abort_internal(
        &mut self,
        checkpoint: CheckpointId,
        reason: AbortReason,
        out: &mut Vec<HandlerAction>,
    ) {
        self.current_checkpoint = self.current_checkpoint.max(Some(checkpoint));
        self.last_cancelled_or_completed = self.last_cancelled_or_completed.max(Some(checkpoint));
        self.pending_barrier = None;
        self.aligned_channels.clear();
        self.target_channel_count = 0;
        self.alignment_started_at = None;
        self.timer = None;
        out.push(HandlerAction::Abort { checkpoint, reason });
        // Flink: currentState.abort(..) — every state unblocks all channels and stops
        // persisting, then waits for the next first barrier.
        self.channels.persisting.clear();
        self.channels.announced.clear();
        self.unblock_all(out);
        self.state = BarrierHandlerState::WaitingForFirstBarrier;
    }

    /// Flink: `ChannelState.unblockAllChannels`: `Unblocked` in channel index order.
    pub(super) fn unblock_all(&mut self, out: &mut Vec<HandlerAction>) {
        for (channel, checkpoint) in std::mem::take(&mut self.channels.blocked) {
            out.push(HandlerAction::Unblocked {
                channel,
                checkpoint,
            });
        }
    }

    /// Blocks `channel` for the current checkpoint, unless already blocked.
    pub(super) fn block(&mut self, channel: ChannelIndex, out: &mut Vec<HandlerAction>) {
        let Some(checkpoint) = self.current_checkpoint else {
            return;
        };
        if self.channels.blocked.insert(channel, checkpoint).is_none() {
            out.push(HandlerAction::Blocked {
                channel,
                checkpoint,
            });
        }
    }

    /// The `Trigger` action for `barrier` (no channel state: aligned).
    pub(super) fn trigger_aligned(
        &self,
        barrier: &CheckpointBarrier,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        out.push(HandlerAction::Trigger {
            barrier: barrier.clone(),
            persist: Vec::new(),
            alignment_started_at: self.alignment_started_at.unwrap_or(now_ms),
        });
    }

    /// Open channels that have not delivered the current checkpoint's barrier.
    pub(super) fn open_unaligned_channels(&self) -> impl Iterator<Item = ChannelIndex> + '_ {
        self.is_finished
            .iter()
            .enumerate()
            .filter(|(_, &finished)| !finished)
            .map(|(i, _)| ChannelIndex(i as u32))
            .filter(|c| !self.aligned_channels.contains(c))
    }
}
