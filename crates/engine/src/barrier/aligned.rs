//! Aligned exactly-once states of the [`SingleCheckpointBarrierHandler`]: the plain
//! aligned handler (Flink: `AbstractAlignedBarrierHandlerState`,
//! `WaitingForFirstBarrier`, `CollectingBarriers`) and the aligned phase of the
//! alternating handler (Flink: `AbstractAlternatingAlignedBarrierHandlerState`,
//! `AlternatingWaitingForFirstBarrier`, `AlternatingCollectingBarriers`).
//!
//! A channel that delivered the barrier is blocked; records on channels that have not
//! are still processed (they precede the barrier). The snapshot is taken on the last
//! barrier, then every channel is unblocked. The alternating handler additionally
//! switches to unaligned ([`super::unaligned`]) when the checkpoint times out — on
//! the timer, on a barrier or end of partition handled after `created_at + T`, or
//! when an unaligned barrier arrives from upstream.

use super::single::{Arrival, BarrierHandlerState, SingleCheckpointBarrierHandler};
use super::{CheckpointBarrier, HandlerAction};
use crate::ids::ChannelIndex;

impl SingleCheckpointBarrierHandler {
    /// Flink: `AbstractAlignedBarrierHandlerState.barrierReceived` (aligned handler):
    /// the last barrier triggers and unblocks everything, any other blocks its channel.
    pub(super) fn aligned_barrier_received(
        &mut self,
        channel: ChannelIndex,
        barrier: &CheckpointBarrier,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        // Flink: checkState(!isUnalignedCheckpoint). Handled as aligned in release.
        debug_assert!(
            !barrier.is_unaligned(),
            "unaligned barrier at an aligned handler: {barrier:?}"
        );
        if self.all_barriers_received() {
            self.finish_aligned(barrier, now_ms, out);
        } else {
            self.block(channel, out);
            self.state = BarrierHandlerState::CollectingBarriers;
        }
    }

    /// Flink: `AbstractAlternatingAlignedBarrierHandlerState.barrierReceived`: an
    /// unaligned barrier switches to unaligned at once (`testSwitchToUnalignedByUpstream`);
    /// an aligned one completes the alignment if it is the last ("all barriers
    /// received" is checked first), else switches to unaligned if the checkpoint timed
    /// out (strict: `T < now - created_at`), else blocks its channel.
    pub(super) fn alternating_aligned_barrier_received(
        &mut self,
        channel: ChannelIndex,
        barrier: &CheckpointBarrier,
        arrival: Arrival,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        if barrier.is_unaligned() {
            self.aligned_checkpoint_timeout(barrier, arrival.overtaken(channel), now_ms, out);
            self.barrier_received(channel, barrier, arrival, now_ms, out);
            return;
        }
        self.channels.announced.remove(&channel);
        if self.all_barriers_received() {
            self.finish_aligned(barrier, now_ms, out);
        } else if self.is_timed_out(barrier, now_ms) {
            // The network blocked the channel on delivering the aligned barrier; it
            // stays blocked until every barrier arrived.
            self.block(channel, out);
            self.aligned_checkpoint_timeout(barrier, None, now_ms, out);
            self.barrier_received(channel, &barrier.to_unaligned(), Arrival::InOrder, now_ms, out);
        } else {
            self.block(channel, out);
            self.state = BarrierHandlerState::CollectingBarriers;
        }
    }

    /// Flink: `CollectingBarriers.endOfPartitionReceived` /
    /// `AlternatingCollectingBarriers.endOfPartitionReceived`: the finished channel
    /// counts as aligned; it may complete the alignment, or (alternating) find the
    /// checkpoint timed out and switch to unaligned.
    pub(super) fn collecting_end_of_partition_received(
        &mut self,
        channel: ChannelIndex,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        let Some(pending) = self.pending_barrier.clone() else {
            debug_assert!(
                false,
                "at least one barrier received in the collecting state"
            );
            return;
        };
        if self.all_barriers_received() {
            self.finish_aligned(&pending, now_ms, out);
        } else if self.alternating && self.is_timed_out(&pending, now_ms) {
            self.aligned_checkpoint_timeout(&pending, None, now_ms, out);
            self.collecting_unaligned_end_of_partition_received(channel, out);
        }
    }

    /// Flink: `AlternatingWaitingForFirstBarrier.alignedCheckpointTimeout`: no barrier
    /// handled yet, only announcements. Every announced barrier is prioritized
    /// (`ChannelState.prioritizeAllAnnouncements`): it overtakes the data queued ahead
    /// of it, and the first one handled triggers an unaligned checkpoint. Without this
    /// a barrier stuck behind a back-pressured channel would wait out the whole queue.
    pub(super) fn waiting_aligned_timeout(&mut self, out: &mut Vec<HandlerAction>) {
        let announced = std::mem::take(&mut self.channels.announced);
        if let Some(checkpoint) = self.current_checkpoint {
            out.extend(
                announced
                    .into_iter()
                    .map(|channel| HandlerAction::Prioritize {
                        channel,
                        checkpoint,
                    }),
            );
        }
        self.state = BarrierHandlerState::WaitingForFirstBarrierUnaligned;
    }

    /// Flink: `AlternatingCollectingBarriers.alignedCheckpointTimeout`: take the
    /// snapshot now, unaligned, persisting the channels whose barrier has not arrived;
    /// blocked channels stay blocked until every barrier arrived. Announced barriers
    /// are prioritized too (`ChannelState.prioritizeAllAnnouncements`); their
    /// `Prioritize` follows the trigger, so the snapshot sees them still queued behind
    /// their data, which becomes channel state either way.
    pub(super) fn collecting_aligned_timeout(
        &mut self,
        barrier: &CheckpointBarrier,
        overtaking: Option<ChannelIndex>,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        let announced = std::mem::take(&mut self.channels.announced);
        self.trigger_unaligned(&barrier.to_unaligned(), overtaking, now_ms, out);
        if let Some(checkpoint) = self.current_checkpoint {
            out.extend(
                announced
                    .into_iter()
                    .filter(|channel| !self.aligned_channels.contains(channel))
                    .map(|channel| HandlerAction::Prioritize {
                        channel,
                        checkpoint,
                    }),
            );
        }
        self.state = BarrierHandlerState::CollectingBarriersUnaligned;
    }

    /// The last barrier (or end of partition) of an aligned checkpoint: trigger with
    /// it, then unblock every channel (Flink: `triggerGlobalCheckpoint` +
    /// `unblockAllChannels`).
    fn finish_aligned(
        &mut self,
        barrier: &CheckpointBarrier,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        self.trigger_aligned(barrier, now_ms, out);
        self.unblock_all(out);
        self.channels.announced.clear();
        self.state = BarrierHandlerState::WaitingForFirstBarrier;
    }
}
