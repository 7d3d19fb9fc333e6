//! [`Task`]: one subtask's mutable state — its lifecycle, its barrier handler, its
//! operator state, its input side (the mailbox of a record in progress, priority
//! barriers, announcements) and its checkpoint bookkeeping.
//!
//! Flink: a `StreamTask` with its operator chain, its `MailboxProcessor`, its input
//! processor's `CheckpointedInputGate` and its `SubtaskCheckpointCoordinator`.
//! Simplified: one operator per task (no chaining); a record in progress is one
//! mailbox action that nothing interrupts.

use super::observed::{Recent, Restored};
use crate::barrier::channel_state::ChannelStatePersister;
use crate::barrier::{BarrierHandler, CheckpointBarrier};
use crate::ids::{ChannelIndex, CheckpointId, IdVec};
use crate::operators::OpState;
use crate::record::Record;
use crate::status::TaskStatus;
use crate::subtask_checkpoint::SubtaskCheckpointCoordinator;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// A record being processed (`process_ms > 0`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Busy {
    /// The record.
    pub(crate) record: Record,
    /// The input channel it came from.
    pub(crate) channel: ChannelIndex,
    /// When processing ends (an `Item::ProcessDone` is due then).
    pub(crate) done_at: u64,
}

/// A subtask's mutable state. See the module documentation. Flink: a `StreamTask`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Task {
    /// Lifecycle.
    pub status: TaskStatus,
    /// The barrier handler at its input: which channels are blocked or persisted,
    /// which checkpoint it is aligning.
    pub handler: BarrierHandler,
    /// Operator state.
    pub op: OpState,
    /// The record being processed, while `process_ms > 0`: the task takes no input
    /// and handles no mailbox action until it is done.
    pub(crate) busy: Option<Busy>,
    /// An `Item::Poll` is on the agenda (at most one is).
    pub(super) poll_scheduled: bool,
    /// Unaligned barriers that arrived while a record was being processed, with the
    /// number of elements queued ahead of each on its channel (the ones it overtakes).
    /// Handled in arrival order once the record is done (Flink: priority events).
    pub(crate) priority: VecDeque<(ChannelIndex, CheckpointBarrier, usize)>,
    /// While a priority barrier is handled: its channel and how many queued elements
    /// it overtook (those are its channel's channel state).
    pub(super) overtaking: Option<(ChannelIndex, usize)>,
    /// Barrier announcements that arrived while a record was being processed
    /// (Flink: `EventAnnouncement`), handled like priority barriers.
    pub(super) announcements: VecDeque<(ChannelIndex, CheckpointBarrier)>,
    /// Per input channel: its end of partition was read.
    pub(super) input_ended: IdVec<ChannelIndex, bool>,
    /// Round-robin position per output edge (Flink: `RebalancePartitioner`, which
    /// starts at a random channel).
    pub(super) rr: Vec<u32>,
    /// Its side of checkpointing: last checkpoint, snapshots in flight, incremental base.
    pub(crate) checkpoints: SubtaskCheckpointCoordinator,
    /// Unaligned: the channel state of the checkpoint being captured at its inputs.
    pub(crate) channel_state: ChannelStatePersister<Record>,
    /// The aligned-checkpoint timer on the agenda (an `Item::HandlerTimer` is due
    /// then), kept equal to the handler's [`BarrierHandler::next_timer_at`].
    pub(super) timer_at: Option<u64>,
    /// A trigger RPC for a task still draining its ended inputs: taken at the end of
    /// input.
    pub(super) deferred_trigger: Option<CheckpointBarrier>,
    /// Waiting sink: finishes when this checkpoint (or a later one) completes.
    pub(super) awaiting: Option<CheckpointId>,
    /// Arrival sequence counter across its input channels: the task reads in global
    /// arrival order ([`crate::channel::Queued::seq`]).
    pub(super) arrivals: u64,
    /// Records processed so far (this attempt).
    pub processed: u64,
    /// The state entries it changed last (recorded while tracing, as events are):
    /// what the page shows first and flashes. View only.
    pub(crate) recent: Recent,
    /// After a restart: what its restore rewound. View only.
    pub(crate) restored: Option<Box<Restored>>,
    /// Its latest synchronous snapshot: the checkpoint, when, and the operator
    /// state as it was then (what goes into `chk-n`, while processing carries
    /// on). View only.
    pub(crate) snapped: Option<Box<(CheckpointId, u64, OpState)>>,
}

impl Task {
    /// A subtask deployed with operator state `op`, its barrier `handler`, `inputs`
    /// input channels, round-robin starts `rr` per output edge and its checkpoint
    /// bookkeeping; running, nothing in progress.
    pub(super) fn new(
        op: OpState,
        handler: BarrierHandler,
        inputs: usize,
        rr: Vec<u32>,
        checkpoints: SubtaskCheckpointCoordinator,
    ) -> Task {
        Task {
            status: TaskStatus::Running,
            handler,
            op,
            busy: None,
            poll_scheduled: false,
            priority: VecDeque::new(),
            overtaking: None,
            announcements: VecDeque::new(),
            input_ended: (0..inputs).map(|_| false).collect(),
            rr,
            checkpoints,
            channel_state: ChannelStatePersister::new(),
            timer_at: None,
            deferred_trigger: None,
            awaiting: None,
            arrivals: 0,
            processed: 0,
            recent: Recent::default(),
            restored: None,
            snapped: None,
        }
    }

    /// Whether it is done for this attempt (finished, failed over or canceled).
    pub fn is_stopped(&self) -> bool {
        matches!(
            self.status,
            TaskStatus::Finished | TaskStatus::Failed | TaskStatus::Canceled
        )
    }
}
