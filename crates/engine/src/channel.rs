//! Network channels between subtasks, with latency and credit-based capacity.
//!
//! Flink: a `ResultSubpartition` at the sender and an `InputChannel` at the
//! receiver, with credit-based flow control. Simplified (contract): a channel holds
//! at most `capacity` records in transit or waiting at the receiver; a record that
//! does not fit waits in the sender's output queue, and a sender with a non-empty
//! output queue takes no input (back-pressure). Events never count and are never
//! refused.

use crate::barrier::{Alignment, CheckpointBarrier};
use crate::ids::{ChannelIndex, CheckpointId, TaskId};
use crate::record::Record;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// What travels on a channel. Flink: a data buffer or an event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Element {
    /// A data record.
    Record { record: Record },
    /// A checkpoint barrier.
    Barrier { barrier: CheckpointBarrier },
    /// Flink: `CancelCheckpointMarker`.
    Cancel { checkpoint: CheckpointId },
    /// Flink: `EndOfPartitionEvent`.
    EndOfPartition,
}

impl Element {
    /// True for a data record (the only element that counts against capacity).
    pub fn is_record(&self) -> bool {
        matches!(self, Element::Record { .. })
    }

    /// True for an unaligned barrier (a priority event).
    pub fn is_priority(&self) -> bool {
        matches!(self, Element::Barrier { barrier } if barrier.alignment == Alignment::Unaligned)
    }
}

/// An element on the wire.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InTransit {
    /// When it left the sender.
    pub sent_at: u64,
    /// When it reaches the receiver (`sent_at + latency`).
    pub arrive_at: u64,
    /// The element.
    pub element: Element,
}

/// An element that arrived and waits in the receiver's input queue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Queued {
    /// The receiver's arrival sequence number, across all its channels: the task
    /// reads in global arrival order, skipping blocked channels.
    pub seq: u64,
    /// Arrival time.
    pub arrived_at: u64,
    /// The element.
    pub element: Element,
}

/// One channel from a sender subtask to a receiver subtask.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Channel {
    /// Sending subtask.
    pub from: TaskId,
    /// Receiving subtask.
    pub to: TaskId,
    /// The channel's index among the receiver's inputs.
    pub input: ChannelIndex,
    /// The channel's index among the sender's outputs (edge by edge).
    pub output: u32,
    /// Fixed delay.
    pub latency_ms: u64,
    /// Records it may hold, in transit or queued at the receiver.
    pub capacity: u32,
    /// Elements in transit, FIFO (arrival times never decrease).
    pub wire: VecDeque<InTransit>,
    /// Elements arrived and waiting at the receiver.
    pub queue: VecDeque<Queued>,
    /// Elements waiting at the sender for capacity (records, and events behind them).
    pub out_queue: VecDeque<Element>,
    /// Records on the wire plus records queued at the receiver.
    pub records: u32,
    /// The last barrier the sender put on this channel (records behind it belong to
    /// the next checkpoint's epoch).
    pub last_barrier: Option<CheckpointId>,
}

impl Channel {
    /// An empty channel.
    pub fn new(
        from: TaskId,
        to: TaskId,
        input: ChannelIndex,
        output: u32,
        latency_ms: u64,
        capacity: u32,
    ) -> Self {
        Channel {
            from,
            to,
            input,
            output,
            latency_ms,
            capacity,
            wire: VecDeque::new(),
            queue: VecDeque::new(),
            out_queue: VecDeque::new(),
            records: 0,
            last_barrier: None,
        }
    }

    /// Whether one more record fits now (and nothing is waiting ahead of it).
    pub fn has_credit(&self) -> bool {
        self.out_queue.is_empty() && self.records < self.capacity
    }

    /// Drop everything in it (failover: in-flight data is lost).
    pub fn clear(&mut self) {
        self.wire.clear();
        self.queue.clear();
        self.out_queue.clear();
        self.records = 0;
    }

    /// Records queued at the receiver ahead of the first barrier of `checkpoint`
    /// (all queued records if that barrier is not queued).
    pub fn queued_records_before(&self, checkpoint: CheckpointId) -> Vec<Record> {
        records_before(self.queue.iter().map(|q| &q.element), checkpoint)
    }

    /// Records waiting in the sender's output queue ahead of the barrier of
    /// `checkpoint` (all of them if that barrier is not there): what an unaligned
    /// barrier overtakes.
    pub fn out_records_before(&self, checkpoint: CheckpointId) -> Vec<Record> {
        records_before(self.out_queue.iter(), checkpoint)
    }
}

/// The records among `elements` up to the first barrier of `checkpoint`.
fn records_before<'a>(
    elements: impl Iterator<Item = &'a Element>,
    checkpoint: CheckpointId,
) -> Vec<Record> {
    let mut v = Vec::new();
    for e in elements {
        match e {
            Element::Record { record } => v.push(*record),
            Element::Barrier { barrier } if barrier.id == checkpoint => break,
            _ => {}
        }
    }
    v
}
