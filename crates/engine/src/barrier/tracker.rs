//! At-least-once barrier handling (Flink: `CheckpointBarrierTracker`).
//!
//! The tracker never blocks a channel: records behind a barrier are processed at
//! once, so they may be in the snapshot *and* replayed after a restore (duplicates).
//! It counts barriers per checkpoint for up to [`MAX_CHECKPOINTS_TO_TRACK`] pending
//! checkpoints at once; a barrier of a newer checkpoint does not cancel older ones,
//! which complete as their last barriers arrive — completing one silently drops every
//! older pending one.

use std::collections::{BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

use super::{AbortReason, CheckpointBarrier, EndOfPartition, HandlerAction};
use crate::ids::{ChannelIndex, CheckpointId};

/// How many pending checkpoints the tracker remembers (Flink: `MAX_CHECKPOINTS_TO_TRACK`).
pub const MAX_CHECKPOINTS_TO_TRACK: usize = 50;

/// One pending checkpoint of the tracker (Flink: `CheckpointBarrierCount`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointBarrierCount {
    /// The checkpoint.
    pub checkpoint: CheckpointId,
    /// Its first barrier; `None` for a marker created by a cancellation marker (always
    /// aborted).
    pub barrier: Option<CheckpointBarrier>,
    /// Channels that delivered its barrier, cancellation marker or end of partition.
    pub aligned_channels: BTreeSet<ChannelIndex>,
    /// Open channels when it started; complete when `aligned_channels` reaches it.
    pub target_channel_count: u32,
    /// Declined already: it is kept only to count its remaining barriers, and never
    /// triggers.
    pub is_aborted: bool,
    /// When its first barrier arrived.
    pub started_at: u64,
}

impl CheckpointBarrierCount {
    /// Counts `channel`; returns how many channels are aligned now.
    fn mark_aligned(&mut self, channel: ChannelIndex) -> usize {
        self.aligned_channels.insert(channel);
        self.aligned_channels.len()
    }

    fn is_complete(&self) -> bool {
        self.aligned_channels.len() as u64 == u64::from(self.target_channel_count)
    }

    /// Marks it aborted; true the first time (Flink notifies an abort only once).
    fn mark_aborted(&mut self) -> bool {
        !std::mem::replace(&mut self.is_aborted, true)
    }
}

/// The at-least-once barrier handler of one task.
///
/// Flink: `CheckpointBarrierTracker`.
/// Simplified: no alignment metrics beyond each checkpoint's start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointBarrierTracker {
    /// An end of partition counts as that channel's barrier (true) or aborts every
    /// pending checkpoint (false).
    checkpoints_after_tasks_finish: bool,
    /// Per channel: it delivered its end of partition.
    is_finished: Vec<bool>,
    /// Channels not finished; the target of checkpoints started from now on.
    num_open_channels: u32,
    /// Pending checkpoints, oldest first, ids increasing; at most
    /// [`MAX_CHECKPOINTS_TO_TRACK`].
    pending: VecDeque<CheckpointBarrierCount>,
    /// The highest checkpoint id that started an entry (Flink:
    /// `latestPendingCheckpointID`; `None` for -1). The single-channel fast path does
    /// not update it, as in Flink.
    latest_pending_checkpoint: Option<CheckpointId>,
}

impl CheckpointBarrierTracker {
    /// A tracker over `num_channels` open channels.
    pub fn new(num_channels: u32, end_of_partition: EndOfPartition) -> Self {
        CheckpointBarrierTracker {
            checkpoints_after_tasks_finish: end_of_partition == EndOfPartition::CountsAsBarrier,
            is_finished: vec![false; num_channels as usize],
            num_open_channels: num_channels,
            pending: VecDeque::new(),
            latest_pending_checkpoint: None,
        }
    }

    /// Channels without end of partition.
    pub fn num_open_channels(&self) -> u32 {
        self.num_open_channels
    }

    /// Pending checkpoint ids, oldest first, including aborted ones still counting
    /// barriers (Flink: `getPendingCheckpointIds`).
    pub fn pending_checkpoints(&self) -> Vec<CheckpointId> {
        self.pending.iter().map(|c| c.checkpoint).collect()
    }

    /// Pending checkpoint ids with when their first barrier arrived, oldest first.
    pub fn pending_since(&self) -> Vec<(CheckpointId, u64)> {
        self.pending
            .iter()
            .map(|c| (c.checkpoint, c.started_at))
            .collect()
    }

    fn is_invalid_channel(&self, channel: ChannelIndex, what: &str) -> bool {
        let invalid = self
            .is_finished
            .get(channel.0 as usize)
            .is_none_or(|&finished| finished);
        debug_assert!(
            !invalid,
            "{what} on channel {channel}, which is out of range or finished"
        );
        invalid
    }

    /// Flink: `CheckpointBarrierTracker.processBarrier`.
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
        let id = barrier.id;
        // Fast path: one open channel and a new checkpoint.
        if Some(id) > self.latest_pending_checkpoint && self.num_open_channels == 1 {
            out.push(HandlerAction::Trigger {
                barrier: barrier.clone(),
                persist: Vec::new(),
                alignment_started_at: now_ms,
            });
            return;
        }
        if let Some(pos) = self.pending.iter().position(|c| c.checkpoint == id) {
            self.pending[pos].mark_aligned(channel);
            if self.pending[pos].is_complete() {
                // Complete: drop it and every older pending checkpoint (subsumed, silently).
                let done = self.pending.drain(..=pos).next_back();
                if let Some(done) = done {
                    self.trigger_if_not_aborted(&done, out);
                }
            }
        } else if Some(id) > self.latest_pending_checkpoint {
            self.latest_pending_checkpoint = Some(id);
            let mut count = CheckpointBarrierCount {
                checkpoint: id,
                barrier: Some(barrier.clone()),
                aligned_channels: BTreeSet::new(),
                target_channel_count: self.num_open_channels,
                is_aborted: false,
                started_at: now_ms,
            };
            count.mark_aligned(channel);
            self.pending.push_back(count);
            if self.pending.len() > MAX_CHECKPOINTS_TO_TRACK {
                self.pending.pop_front();
            }
        }
        // Else: older than the latest seen: it cannot complete any more; ignored.
    }

    /// Flink: `CheckpointBarrierTracker.processCancellationBarrier`: aborts `checkpoint`
    /// and every older pending one, each at most once.
    pub fn process_cancellation_barrier(
        &mut self,
        channel: ChannelIndex,
        checkpoint: CheckpointId,
        now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        if self.is_invalid_channel(channel, "cancellation marker") {
            return;
        }
        let abort = |checkpoint| HandlerAction::Abort {
            checkpoint,
            reason: AbortReason::CancellationBarrier,
        };
        // Fast path: one open channel and a new checkpoint.
        if Some(checkpoint) > self.latest_pending_checkpoint && self.num_open_channels == 1 {
            out.push(abort(checkpoint));
            return;
        }
        while let Some(head) = self.pending.front_mut() {
            if head.checkpoint >= checkpoint {
                break;
            }
            if head.mark_aborted() {
                out.push(abort(head.checkpoint));
            }
            self.pending.pop_front();
        }
        match self.pending.front_mut() {
            Some(head) if head.checkpoint == checkpoint => {
                if head.mark_aborted() {
                    out.push(abort(checkpoint));
                }
                // Still counted, so the entry goes once every channel was seen.
                head.mark_aligned(channel);
                if head.is_complete() {
                    self.pending.pop_front();
                }
            }
            _ if Some(checkpoint) > self.latest_pending_checkpoint => {
                out.push(abort(checkpoint));
                self.latest_pending_checkpoint = Some(checkpoint);
                let mut marker = CheckpointBarrierCount {
                    checkpoint,
                    barrier: None,
                    aligned_channels: BTreeSet::new(),
                    target_channel_count: self.num_open_channels,
                    is_aborted: true,
                    started_at: now_ms,
                };
                marker.mark_aligned(channel);
                // Every older entry was removed above.
                self.pending.push_front(marker);
            }
            // A trailing marker of a checkpoint already aborted or dropped.
            _ => {}
        }
    }

    /// Flink: `CheckpointBarrierTracker.processEndOfPartition`.
    pub fn process_end_of_partition(
        &mut self,
        channel: ChannelIndex,
        _now_ms: u64,
        out: &mut Vec<HandlerAction>,
    ) {
        if self.is_invalid_channel(channel, "end of partition") {
            return;
        }
        self.is_finished[channel.0 as usize] = true;
        self.num_open_channels -= 1;
        if !self.checkpoints_after_tasks_finish {
            for mut count in std::mem::take(&mut self.pending) {
                if count.mark_aborted() {
                    out.push(HandlerAction::Abort {
                        checkpoint: count.checkpoint,
                        reason: AbortReason::EndOfStream,
                    });
                }
            }
            return;
        }
        // The newest pending checkpoint this channel completes; the channel is counted
        // in every entry visited on the way (newest first), as in Flink.
        let mut completed = None;
        for pos in (0..self.pending.len()).rev() {
            self.pending[pos].mark_aligned(channel);
            if self.pending[pos].is_complete() {
                completed = Some(pos);
                break;
            }
        }
        if let Some(pos) = completed {
            let done = self.pending.drain(..=pos).next_back();
            if let Some(done) = done {
                self.trigger_if_not_aborted(&done, out);
            }
        }
    }

    fn trigger_if_not_aborted(&self, count: &CheckpointBarrierCount, out: &mut Vec<HandlerAction>) {
        if count.is_aborted {
            return;
        }
        debug_assert!(
            count.barrier.is_some(),
            "a checkpoint that is not aborted has a barrier"
        );
        if let Some(barrier) = &count.barrier {
            out.push(HandlerAction::Trigger {
                barrier: barrier.clone(),
                persist: Vec::new(),
                alignment_started_at: count.started_at,
            });
        }
    }
}
