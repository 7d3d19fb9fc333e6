//! Unaligned states of the [`SingleCheckpointBarrierHandler`] (Flink:
//! `AlternatingWaitingForFirstBarrierUnaligned`,
//! `AlternatingCollectingBarriersUnaligned`) and channel-state persisting (Flink:
//! `CheckpointableInput.checkpointStarted/checkpointStopped`,
//! `ChannelStatePersister`).
//!
//! The snapshot is taken on the **first** barrier. From then on, every open channel
//! whose barrier has not arrived is *persisting*: its in-flight records (queued at the
//! snapshot or arriving before its barrier or end of partition) become channel state
//! of the checkpoint, and are still processed normally. Later barriers only close that
//! capture (`StopPersisting`); the last one returns the handler to the aligned
//! waiting state, so the next checkpoint starts aligned again (`testAlignedAfterTimedOut`).

use super::single::{Arrival, BarrierHandlerState, SingleCheckpointBarrierHandler};
use super::{CheckpointBarrier, HandlerAction};
use crate::ids::ChannelIndex;

impl SingleCheckpointBarrierHandler {
    /// Flink: `AlternatingWaitingForFirstBarrierUnaligned.barrierReceived`: trigger the
    /// unaligned snapshot now. An aligned barrier here (one that was not converted to a
    /// priority event) blocks its channel as the network does, until all barriers arrived.
    pub(super) fn waiting_unaligned_barrier_received(
        &mut self,
        channel: ChannelIndex,
        barrier: &CheckpointBarrier,
        arrival: Arrival,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        let is_last = self.all_barriers_received();
        if !barrier.is_unaligned() && !is_last {
            self.block(channel, out);
        }
        let unaligned = if barrier.is_unaligned() {
            barrier.clone()
        } else {
            barrier.to_unaligned()
        };
        self.trigger_unaligned(&unaligned, arrival.overtaken(channel), now_ms, out);
        if is_last {
            self.finish_unaligned(out);
        } else {
            self.state = BarrierHandlerState::CollectingBarriersUnaligned;
        }
    }

    /// Flink: `AlternatingCollectingBarriersUnaligned.barrierReceived`: the barrier
    /// (whatever its alignment) closes its channel's capture; an aligned one blocks
    /// its channel unless it is the last.
    pub(super) fn collecting_unaligned_barrier_received(
        &mut self,
        channel: ChannelIndex,
        barrier: &CheckpointBarrier,
        out: &mut Vec<HandlerAction>,
    ) {
        let is_last = self.all_barriers_received();
        self.stop_persisting(channel, out);
        if !barrier.is_unaligned() && !is_last {
            self.block(channel, out);
        }
        if is_last {
            self.finish_unaligned(out);
        }
    }

    /// Flink: `AlternatingCollectingBarriersUnaligned.endOfPartitionReceived`: an
    /// ended channel's capture is complete.
    pub(super) fn collecting_unaligned_end_of_partition_received(
        &mut self,
        channel: ChannelIndex,
        out: &mut Vec<HandlerAction>,
    ) {
        self.stop_persisting(channel, out);
        if self.all_barriers_received() {
            self.finish_unaligned(out);
        }
    }

    /// Take the unaligned snapshot: `Trigger` with the persisted channels — every open
    /// channel whose barrier has not arrived, plus `overtaking` (the channel whose
    /// unaligned barrier triggers it, whose overtaken records count), then
    /// `StopPersisting` for `overtaking` (Flink: `initInputsCheckpoint`,
    /// `checkpointStarted` on every input, `triggerGlobalCheckpoint`). Blocked channels
    /// have delivered their barrier and are never persisted.
    pub(super) fn trigger_unaligned(
        &mut self,
        barrier: &CheckpointBarrier,
        overtaking: Option<ChannelIndex>,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        debug_assert!(barrier.is_unaligned());
        let mut persisting: std::collections::BTreeSet<ChannelIndex> =
            self.open_unaligned_channels().collect();
        persisting.extend(overtaking);
        debug_assert!(
            persisting
                .iter()
                .all(|c| !self.channels.blocked.contains_key(c)),
            "a blocked channel is never persisted"
        );
        out.push(HandlerAction::Trigger {
            barrier: barrier.clone(),
            persist: persisting.iter().copied().collect(),
            alignment_started_at: self.alignment_started_at.unwrap_or(now_ms),
        });
        self.channels.persisting = persisting;
        if let Some(channel) = overtaking {
            self.stop_persisting(channel, out);
        }
    }

    /// Close `channel`'s capture, if it is persisting.
    fn stop_persisting(&mut self, channel: ChannelIndex, out: &mut Vec<HandlerAction>) {
        if self.channels.persisting.remove(&channel) {
            if let Some(checkpoint) = self.current_checkpoint {
                out.push(HandlerAction::StopPersisting {
                    channel,
                    checkpoint,
                });
            }
        }
    }

    /// All barriers of the unaligned checkpoint arrived: stop every capture, unblock
    /// every channel and wait for the next checkpoint, aligned again (Flink:
    /// `checkpointStopped` on every input, `unblockAllChannels`).
    fn finish_unaligned(&mut self, out: &mut Vec<HandlerAction>) {
        for channel in std::mem::take(&mut self.channels.persisting) {
            if let Some(checkpoint) = self.current_checkpoint {
                out.push(HandlerAction::StopPersisting {
                    channel,
                    checkpoint,
                });
            }
        }
        self.unblock_all(out);
        self.channels.announced.clear();
        self.state = BarrierHandlerState::WaitingForFirstBarrier;
    }
}
