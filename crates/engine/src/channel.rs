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

/// Records an unaligned barrier overtook that are still in one queue of a channel,
/// kept for the view: they belong to that checkpoint's channel state (its epoch),
/// not to the next checkpoint's, although the barrier is already past them. Front to
/// back: the queue's first `n` records belong to the first segment's checkpoint, the
/// next ones to the next segment's. Flink keeps no such count: it copies the
/// overtaken buffers to the `ChannelStateWriter` and moves on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overtaken {
    segments: VecDeque<(CheckpointId, u32)>,
}

impl Overtaken {
    /// `checkpoint`'s barrier overtook the queue's first `records` records (those
    /// not already overtaken by an earlier barrier become its own).
    pub fn note(&mut self, checkpoint: CheckpointId, records: u32) {
        let covered: u32 = self.segments.iter().map(|(_, n)| n).sum();
        if records > covered {
            self.segments.push_back((checkpoint, records - covered));
        }
    }

    /// The queue's head record left it.
    #[inline]
    pub fn popped_record(&mut self) {
        if let Some(front) = self.segments.front_mut() {
            front.1 -= 1;
            if front.1 == 0 {
                self.segments.pop_front();
            }
        }
    }

    /// The checkpoint whose channel state the queue's `i`-th record (0: its head)
    /// is, if a barrier overtook it.
    pub fn checkpoint_of(&self, mut i: usize) -> Option<CheckpointId> {
        for (id, n) in &self.segments {
            if i < *n as usize {
                return Some(*id);
            }
            i -= *n as usize;
        }
        None
    }

    fn clear(&mut self) {
        self.segments.clear();
    }
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
    /// Output-queue records an unaligned barrier overtook at the sender (view only).
    #[serde(default)]
    pub overtaken_out: Overtaken,
    /// Input-queue records an unaligned barrier overtook at the receiver (view only).
    #[serde(default)]
    pub overtaken_in: Overtaken,
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
            overtaken_out: Overtaken::default(),
            overtaken_in: Overtaken::default(),
        }
    }

    /// Whether one more record fits now (and nothing is waiting ahead of it).
    pub fn has_credit(&self) -> bool {
        self.out_queue.is_empty() && self.records < self.capacity
    }

    /// The sender hands `e` over at `now`: it goes on the wire when it may — a
    /// record if it has credit and nothing waits ahead of it, an event if nothing
    /// waits ahead, an unaligned barrier always (it overtakes the output queue) —
    /// and the time it arrives is returned; else it waits in the output queue. A
    /// barrier becomes the channel's last one.
    #[inline]
    pub fn send(&mut self, e: Element, now: u64) -> Option<u64> {
        if let Element::Barrier { barrier } = &e {
            self.last_barrier = Some(barrier.id);
        }
        let fits = if e.is_record() {
            self.has_credit()
        } else {
            e.is_priority() || self.out_queue.is_empty()
        };
        if let (true, Element::Barrier { barrier }) = (e.is_priority(), &e) {
            let ahead = self.out_queue.iter().filter(|q| q.is_record()).count();
            self.overtaken_out.note(barrier.id, ahead as u32);
        }
        if fits {
            Some(self.put_on_wire(e, now))
        } else {
            self.out_queue.push_back(e);
            None
        }
    }

    /// Puts `e` on the wire at `now`; returns when it arrives.
    #[inline]
    pub fn put_on_wire(&mut self, e: Element, now: u64) -> u64 {
        if e.is_record() {
            self.records += 1;
        }
        let arrive_at = now + self.latency_ms;
        self.wire.push_back(InTransit {
            sent_at: now,
            arrive_at,
            element: e,
        });
        arrive_at
    }

    /// The head of the output queue, if it may go on the wire now: an event always,
    /// a record when the channel has room for it.
    pub fn pop_sendable(&mut self) -> Option<Element> {
        let front = self.out_queue.front()?;
        if front.is_record() && self.records >= self.capacity {
            return None;
        }
        let e = self.out_queue.pop_front();
        if e.as_ref().is_some_and(Element::is_record) {
            self.overtaken_out.popped_record();
        }
        e
    }

    /// Drop everything in it (failover: in-flight data is lost).
    pub fn clear(&mut self) {
        self.wire.clear();
        self.queue.clear();
        self.out_queue.clear();
        self.records = 0;
        self.overtaken_out.clear();
        self.overtaken_in.clear();
    }

    /// The receiver's queue head left it (read by the task).
    pub fn pop_queued(&mut self) -> Option<Queued> {
        let q = self.queue.pop_front()?;
        if q.element.is_record() {
            self.overtaken_in.popped_record();
        }
        Some(q)
    }

    /// A priority (unaligned) barrier of `checkpoint` arrived behind the elements
    /// queued at the receiver: it overtakes their records (view bookkeeping).
    pub fn overtake_queued(&mut self, checkpoint: CheckpointId) {
        let ahead = self.queue.iter().filter(|q| q.element.is_record()).count();
        self.overtaken_in.note(checkpoint, ahead as u32);
    }

    /// Records queued at the receiver ahead of the first barrier of `checkpoint`
    /// (all queued records if that barrier is not queued).
    pub fn queued_records_before(&self, checkpoint: CheckpointId) -> Vec<Record> {
        records_before(self.queue.iter().map(|q| &q.element), checkpoint)
    }

    /// The records among the first `n` elements queued at the receiver (what a
    /// priority barrier that arrived behind `n` elements overtook).
    pub fn queued_records_in_first(&self, n: usize) -> Vec<Record> {
        self.queue
            .iter()
            .take(n)
            .filter_map(|q| match &q.element {
                Element::Record { record } => Some(*record),
                _ => None,
            })
            .collect()
    }

    /// Takes the barrier of `checkpoint` out of the receiver's queue, if it waits
    /// there (it is then handled as a priority event, overtaking what was ahead).
    pub fn take_queued_barrier(&mut self, checkpoint: CheckpointId) -> Option<CheckpointBarrier> {
        let pos = self.queue.iter().position(
            |q| matches!(&q.element, Element::Barrier { barrier } if barrier.id == checkpoint),
        )?;
        let ahead = self
            .queue
            .iter()
            .take(pos)
            .filter(|q| q.element.is_record())
            .count();
        self.overtaken_in.note(checkpoint, ahead as u32);
        match self.queue.remove(pos)?.element {
            Element::Barrier { barrier } => Some(barrier),
            _ => None,
        }
    }

    /// [`Channel::take_queued_barrier`], with how many queued elements were ahead of
    /// the barrier: the priority event's place, for the records it overtook.
    pub fn take_queued_barrier_ahead(
        &mut self,
        checkpoint: CheckpointId,
    ) -> Option<(CheckpointBarrier, usize)> {
        let ahead = self.queue.iter().position(
            |q| matches!(&q.element, Element::Barrier { barrier } if barrier.id == checkpoint),
        )?;
        Some((self.take_queued_barrier(checkpoint)?, ahead))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::{HandlerMode, SnapshotType};
    use crate::record::Origin;

    fn rec(v: i64) -> Element {
        Element::Record {
            record: Record {
                key: None,
                value: v,
                origin: Origin {
                    source: 0,
                    partition: 0,
                    offset: v as u32,
                },
            },
        }
    }

    fn barrier(id: u64, unaligned: bool) -> Element {
        Element::Barrier {
            barrier: CheckpointBarrier::for_config(
                CheckpointId(id),
                0,
                SnapshotType::Checkpoint,
                if unaligned {
                    HandlerMode::Unaligned
                } else {
                    HandlerMode::Aligned
                },
                0,
            ),
        }
    }

    fn channel(capacity: u32) -> Channel {
        Channel::new(TaskId(0), TaskId(1), ChannelIndex(0), 0, 5, capacity)
    }

    /// Credit-based flow control (contract): a record that does not fit waits in the
    /// output queue, and so does every event behind it — except an unaligned
    /// barrier, which overtakes.
    #[test]
    fn records_wait_for_credit_and_unaligned_barriers_overtake() {
        let mut c = channel(1);
        assert_eq!(
            c.send(rec(1), 10),
            Some(15),
            "credit for one; arrives after the latency"
        );
        assert_eq!(c.send(rec(2), 11), None, "no credit left: queued");
        assert_eq!(
            c.send(barrier(1, false), 12),
            None,
            "an aligned barrier waits behind it"
        );
        assert_eq!(
            c.send(barrier(2, true), 13),
            Some(18),
            "an unaligned barrier overtakes"
        );
        assert_eq!(c.wire.len(), 2);
        assert_eq!(c.last_barrier, Some(CheckpointId(2)));
        assert_eq!(c.out_records_before(CheckpointId(1)).len(), 1);
        assert_eq!(
            c.pop_sendable(),
            None,
            "still no credit for the queued record"
        );
        c.records = 0;
        assert_eq!(c.pop_sendable(), Some(rec(2)));
        assert_eq!(c.pop_sendable(), Some(barrier(1, false)));
    }

    /// What a priority barrier overtakes at the receiver, and a queued barrier taken
    /// out of the queue.
    #[test]
    fn queued_elements_at_the_receiver() {
        let mut c = channel(4);
        for (seq, e) in [rec(1), barrier(3, false), rec(2)].into_iter().enumerate() {
            c.queue.push_back(Queued {
                seq: seq as u64,
                arrived_at: 0,
                element: e,
            });
        }
        assert_eq!(c.queued_records_in_first(2).len(), 1);
        assert_eq!(c.queued_records_before(CheckpointId(3)).len(), 1);
        assert_eq!(
            c.take_queued_barrier(CheckpointId(3)).map(|b| b.id),
            Some(CheckpointId(3))
        );
        assert_eq!(c.queue.len(), 2);
        assert_eq!(c.take_queued_barrier(CheckpointId(3)), None);
    }
}
