//! The World's agenda: what is due when, and which run attempt of the job each
//! item belongs to.
//!
//! Items are ordered by `(time, sequence)` ([`crate::agenda::Agenda`]): things due at
//! the same millisecond are handled in the order they were scheduled (FIFO). An item
//! of one run attempt carries that attempt's number; a failover, a cancel or a
//! JobManager crash starts a new attempt, and the items of older attempts are dropped
//! — so [`Schedule::peek_at`] always tells the time of something that will really
//! happen. Script steps belong to no attempt and survive every failover.

use crate::agenda::Agenda;
use crate::ids::{ChannelId, CheckpointId, TaskId};
use serde::{Deserialize, Serialize};

/// One thing scheduled on the agenda.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Item {
    /// A source's next record is due.
    SourceEmit(TaskId),
    /// The element at the head of a channel's wire arrives.
    Arrive(ChannelId),
    /// A task takes its next input element.
    Poll(TaskId),
    /// A task finished processing its current record.
    ProcessDone(TaskId),
    /// A task's aligned-checkpoint timer.
    HandlerTimer(TaskId),
    /// A snapshot's asynchronous phase ended.
    AsyncDone(TaskId, CheckpointId),
    /// The output-side aligned-checkpoint timeout of a barrier still waiting in the
    /// task's output queues (Flink: `PipelinedSubpartition` converts it to a priority event).
    OutputTimeout(TaskId, CheckpointId),
    /// The coordinator's trigger RPC reaches a task.
    TriggerTask(TaskId, CheckpointId),
    /// The periodic checkpoint scheduler fires (its generation,
    /// [`crate::coordinator::PeriodicTrigger`]).
    PeriodicTrigger(u32),
    /// A pending checkpoint's timeout is due
    /// ([`crate::coordinator::CheckpointCoordinator::is_expired`] rules on it).
    CheckpointTimeout(CheckpointId),
    /// notifyCheckpointComplete reaches a task.
    NotifyComplete(TaskId, CheckpointId),
    /// notifyCheckpointAborted reaches a task.
    NotifyAborted(TaskId, CheckpointId),
    /// After a stop-with-savepoint completed and was notified: the job ends.
    StopJob,
    /// A script step is due (its index in the scenario's `script`).
    Script(u32),
    /// The restart delay is over.
    Restart,
    /// The restart delay of a pipelined region is over: the region of subtask
    /// `first` (its first subtask) restarts; `failure` is the failover's index in
    /// the job's failure records.
    RestartRegion {
        /// The region's first subtask ([`crate::job_graph::JobGraph::region_of`]).
        first: TaskId,
        /// Index of the failover in [`super::JobLifecycle::failures`].
        failure: u32,
    },
    /// Kafka's transaction coordinator aborts transaction `txn` of sink operator
    /// `op` if it is still uncommitted: its timeout has passed. External to the job,
    /// so it survives failovers.
    TransactionTimeout {
        /// The sink operator (scenario index).
        op: u32,
        /// The transaction.
        txn: u64,
    },
}

impl Item {
    /// The subtask a task-side item belongs to (`None`: a channel's, the
    /// coordinator's, the job's or an external system's item).
    pub(crate) fn task(&self) -> Option<TaskId> {
        match *self {
            Item::SourceEmit(t)
            | Item::Poll(t)
            | Item::ProcessDone(t)
            | Item::HandlerTimer(t)
            | Item::AsyncDone(t, _)
            | Item::OutputTimeout(t, _)
            | Item::TriggerTask(t, _)
            | Item::NotifyComplete(t, _)
            | Item::NotifyAborted(t, _) => Some(t),
            _ => None,
        }
    }
}

/// Marks an agenda item that survives failovers (script actions).
const ANY_ATTEMPT: u32 = u32::MAX;

/// The agenda of a run and its attempt counter. See the module documentation.
/// Flink: no counterpart — Flink's JobMaster and tasks run on real clocks and
/// mailboxes; the lab orders every message and timer of a run on one agenda, and a
/// new attempt plays the part of Flink's new `ExecutionAttemptID`s (messages to the
/// old attempt are dropped).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Schedule {
    /// Scheduled items, each with the attempt it belongs to ([`ANY_ATTEMPT`] for
    /// script steps).
    agenda: Agenda<(u32, Item)>,
    /// The live attempt: 0 at the start, one more per failover, cancel or
    /// JobManager crash.
    attempt: u32,
    /// Items handled so far (the live ones; dropped ones do not count).
    steps: u64,
}

impl Schedule {
    /// `item` is due at `at`, within the live attempt.
    #[inline]
    pub(crate) fn push(&mut self, at: u64, item: Item) {
        self.agenda.push(at, (self.attempt, item));
    }

    /// `item` is due at `at`, whatever becomes of the attempt (script steps).
    pub(crate) fn push_any_attempt(&mut self, at: u64, item: Item) {
        self.agenda.push(at, (ANY_ATTEMPT, item));
    }

    /// The next live item and its due time, counted as a step; `None` when nothing
    /// is left. Items of older attempts met on the way are dropped.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(u64, Item)> {
        loop {
            let e = self.agenda.pop()?;
            let (attempt, item) = e.item;
            if attempt != ANY_ATTEMPT && attempt != self.attempt {
                continue; // belongs to an attempt that failed over
            }
            self.steps += 1;
            return Some((e.at, item));
        }
    }

    /// When the next item is due.
    pub(crate) fn peek_at(&self) -> Option<u64> {
        self.agenda.peek_at()
    }

    /// Items handled so far.
    pub(crate) fn steps(&self) -> u64 {
        self.steps
    }

    /// A pipelined region fails over while the rest of the job runs on: the items
    /// `belongs` says are the region's (its tasks' and channels') are dropped now;
    /// the attempt goes on.
    pub(crate) fn drop_region(&mut self, mut belongs: impl FnMut(&Item) -> bool) {
        self.agenda
            .retain(|(attempt, item)| *attempt == ANY_ATTEMPT || !belongs(item));
    }

    /// Starts a new run attempt: what was scheduled for the old one is dropped now.
    pub(crate) fn new_attempt(&mut self) {
        self.attempt += 1;
        let live = self.attempt;
        self.agenda
            .retain(|(attempt, _)| *attempt == live || *attempt == ANY_ATTEMPT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new attempt drops what the old one scheduled, but not script steps; ties
    /// at one millisecond keep their scheduling order.
    #[test]
    fn a_new_attempt_drops_the_old_attempts_items() {
        let mut s = Schedule::default();
        s.push(5, Item::Poll(TaskId(0)));
        s.push_any_attempt(5, Item::Script(0));
        s.push(5, Item::Poll(TaskId(1)));
        assert_eq!(s.pop(), Some((5, Item::Poll(TaskId(0)))));
        s.new_attempt();
        s.push(7, Item::Restart);
        assert_eq!(s.peek_at(), Some(5));
        assert_eq!(s.pop(), Some((5, Item::Script(0))));
        assert_eq!(s.pop(), Some((7, Item::Restart)));
        assert_eq!(s.pop(), None, "the old attempt's poll is gone");
        assert_eq!(s.steps(), 3);
    }
}
