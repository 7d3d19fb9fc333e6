//! [`WorldView`]: the serde projection of a [`World`] that the page draws. The page
//! never sees the `World` itself and never re-implements a rule: everything it
//! shows — what is blocked, persisted, pre-committed — is read from here.
//!
//! This module is the boundary the page reads: its views, and the types they carry
//! (ids, statuses, snapshot kinds), re-exported here because the modules that
//! define them are the engine's internals. Besides it the page uses the trace
//! ([`crate::trace`]), the scenario document and the tools (`runner`, `bench`,
//! `drill`, `verdict`, `export`, `soak`).

use crate::channel::{Channel, Element};
use crate::event::TaskName;
use crate::operators::OpState;
use crate::record::Record;
use crate::scenario::{OperatorKind, Partitioning};
use crate::sink::ExternalTopic;
use crate::world::observed::StateEntry;
use crate::world::{FailureRecord, Task, World};

// The vocabulary the views carry, for the page to name: the engine's modules that
// define them are private.
pub use crate::barrier::HandlerMode;
pub use crate::cause::FailureReason;
pub use crate::coordinator::{CheckpointStats, CheckpointStatus};
pub use crate::event::SnapshotKind;
pub use crate::ids::{ChannelIndex, CheckpointId, TaskId};
pub use crate::record::Origin;
pub use crate::restore::DistributionMode;
pub use crate::sink::TxnStatus;
pub use crate::status::{JobStatus, TaskStatus};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub mod failure_counter;
pub mod key_groups;
pub mod phases;
pub mod restarts;

/// The job graph, which never changes during a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobView {
    /// Operators in scenario order.
    pub operators: Vec<OperatorView>,
    /// Subtasks by [`TaskId`].
    pub tasks: Vec<TaskStatic>,
    /// Channels by channel id.
    pub channels: Vec<ChannelStatic>,
}

/// One operator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OperatorView {
    /// Its uid.
    pub uid: String,
    /// Display name (the uid when none is given).
    pub name: String,
    /// Its kind.
    pub kind: OperatorKind,
    /// Parallelism.
    pub parallelism: u32,
    /// Its first subtask's id.
    pub first_task: u32,
    /// Topological depth (sources 0): the column the page draws it in.
    pub depth: u32,
    /// Per-record processing time.
    pub process_ms: u64,
    /// Sink kind / function name, for labels.
    pub detail: Option<String>,
}

/// A subtask's fixed description.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskStatic {
    /// `"uid#index"`.
    pub name: TaskName,
    /// Operator index.
    pub op: usize,
    /// Subtask index.
    pub index: u32,
    /// Its input channels (channel ids) by input index.
    pub inputs: Vec<u32>,
}

/// A channel's fixed description.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelStatic {
    /// Sender.
    pub from: TaskId,
    /// Receiver.
    pub to: TaskId,
    /// Index among the receiver's inputs.
    pub input: ChannelIndex,
    /// Latency.
    pub latency_ms: u64,
    /// Capacity in records.
    pub capacity: u32,
    /// Partitioning of its edge.
    pub partitioning: Partitioning,
}

/// A record as shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordView {
    /// Key.
    pub key: Option<Arc<str>>,
    /// Value.
    pub value: i64,
    /// The source record it derives from.
    pub origin: Origin,
}

/// Something in a channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ElementView {
    /// A record, with the checkpoint whose snapshot will include it (its epoch);
    /// `persisted`: the unaligned checkpoint whose channel state it is (a barrier
    /// overtook it, or it waits on a channel being persisted).
    Record {
        record: RecordView,
        epoch: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        persisted: Option<CheckpointId>,
    },
    /// A barrier.
    Barrier {
        checkpoint: CheckpointId,
        unaligned: bool,
        savepoint: bool,
    },
    /// A cancellation marker.
    Cancel { checkpoint: CheckpointId },
    /// End of partition.
    EndOfPartition,
}

/// An element on the wire, with its timing (the page interpolates its position).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InTransitView {
    /// Departure.
    pub sent_at: u64,
    /// Arrival.
    pub arrive_at: u64,
    /// What.
    pub element: ElementView,
}

/// A channel's contents now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelView {
    /// Waiting at the sender for credit (oldest first).
    pub out_queue: Vec<ElementView>,
    /// On the wire (oldest first).
    pub wire: Vec<InTransitView>,
    /// Arrived, waiting at the receiver (oldest first).
    pub queue: Vec<ElementView>,
    /// The receiver has blocked this channel (aligned alignment).
    pub blocked: bool,
    /// The receiver is persisting this channel's records (unaligned).
    pub persisting: bool,
    /// Records counted against the capacity.
    pub records: u32,
}

/// A subtask's operator state, for the state inspector.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StateView {
    /// Source offsets: `(partition, next offset, log length)`.
    Source { offsets: Vec<(u32, u64, u64)> },
    /// Keyed ValueState: `(key, key group, value)`.
    Keyed { entries: Vec<(Arc<str>, u32, i64)> },
    /// Two-phase-commit sink: the open transaction and the pre-committed ones.
    TwoPhaseCommit {
        current: Option<u64>,
        pending: Vec<(CheckpointId, u64)>,
    },
    /// Named keyed states, in name order.
    KeyedStates { states: Vec<NamedStateView> },
    /// Nothing.
    Stateless,
}

/// One named keyed state as the inspector shows it: everything stored, expired
/// values included until a cleanup removes them (so the configured TTL cleanup
/// strategy is visible).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedStateView {
    /// The descriptor's name.
    pub name: String,
    /// Flink's interface name (`ListState`, …).
    pub kind: String,
    /// TTL, if enabled.
    pub ttl_ms: Option<u64>,
    /// Per key, in key-id order.
    pub entries: Vec<NamedEntryView>,
}

/// One key of a named state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedEntryView {
    /// The key.
    pub key: Arc<str>,
    /// Its key group (`None` for broadcast state, which is not keyed).
    pub key_group: Option<u32>,
    /// The value as JSON text: `5`, `[1,2]`, `{"3":30}`, `{"count":2,"sum":9}`.
    pub value: String,
    /// Stored units (the value, list elements, map entries) already expired but not
    /// yet cleaned up.
    pub expired_units: u64,
}

/// A subtask now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskView {
    /// Lifecycle.
    pub status: TaskStatus,
    /// The record in progress and when it is done.
    pub busy: Option<(RecordView, u64)>,
    /// Its outputs are full: it takes no input.
    pub backpressured: bool,
    /// Checkpoints its barrier handler is aligning.
    pub aligning: Vec<CheckpointId>,
    /// When its first barrier of each of [`Self::aligning`] arrived (those whose
    /// barrier has; a checkpoint's phases while it is pending read it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aligning_since: Vec<(CheckpointId, u64)>,
    /// The last checkpoint it snapshotted.
    pub last_checkpoint: Option<CheckpointId>,
    /// Operator state.
    pub state: StateView,
    /// Records processed in this attempt.
    pub processed: u64,
    /// How its barrier handler treats the checkpoints it is collecting barriers for
    /// ([`Self::aligning`]): aligning (blocking channels), unaligned (persisting
    /// in-flight records, never aligning) or tracking (at-least-once: no waiting).
    #[serde(default)]
    pub handling: Option<Handling>,
    /// The state entries it changed last, most recent first, with when (recorded
    /// while tracing).
    #[serde(default)]
    pub changed: Vec<ChangeView>,
    /// After a restart: what its restore rewound.
    #[serde(default)]
    pub rewind: Option<RewindView>,
    /// Its latest synchronous snapshot, with the state as it was then (what goes
    /// into `chk-n` while processing carries on).
    #[serde(default)]
    pub snapshot: Option<SnapshotView>,
}

/// A subtask's synchronous snapshot of one checkpoint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotView {
    /// The checkpoint.
    pub checkpoint: CheckpointId,
    /// When it was taken (simulated ms).
    pub at: u64,
    /// The state it holds, as [`TaskView::state`] reads.
    pub state: StateView,
}

/// How a barrier handler treats a pending checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Handling {
    /// Aligned exactly-once: channels whose barrier arrived are blocked.
    Aligning,
    /// Unaligned: the snapshot is taken at the first barrier; in-flight records are
    /// persisted until every barrier is in.
    Unaligned,
    /// At-least-once: barriers are counted; nothing waits.
    Tracking,
}

/// One state entry: a source partition (its offset) or a key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EntryView {
    /// A source partition.
    Partition { partition: u32 },
    /// A key (of keyed state or a broadcast rule).
    Key { key: Arc<str> },
}

/// A state entry that changed, and when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeView {
    /// Which.
    pub entry: EntryView,
    /// When (simulated ms).
    pub at: u64,
}

/// What a restart's restore did to a subtask's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RewindView {
    /// The checkpoint restored (`None`: the job started from scratch).
    pub checkpoint: Option<CheckpointId>,
    /// When.
    pub at: u64,
    /// The values it changed: the failed attempt's and the restored one.
    pub values: Vec<RewoundView>,
}

/// One value a restore changed (`None`: absent).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RewoundView {
    /// Which entry.
    pub entry: EntryView,
    /// The named keyed state, if any.
    pub state: Option<String>,
    /// In the failed attempt, as JSON text (`7`, `[1,2]`).
    pub before: Option<String>,
    /// Restored, as JSON text.
    pub after: Option<String>,
}

/// A source partition read again after a restore: its records with an offset below
/// `below` were read before the failure — what flows now is a replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayView {
    /// The source operator's index ([`Origin::source`]).
    pub source: u16,
    /// The partition.
    pub partition: u16,
    /// The highest offset read before.
    pub below: u32,
}

impl ReplayView {
    /// Whether a record of `origin` is a replay.
    pub fn covers(list: &[ReplayView], origin: &Origin) -> bool {
        list.iter().any(|r| {
            r.source == origin.source && r.partition == origin.partition && origin.offset < r.below
        })
    }
}

/// A pending checkpoint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingView {
    /// Id.
    pub id: CheckpointId,
    /// Kind.
    pub kind: SnapshotKind,
    /// Subtasks that acknowledged.
    pub acknowledged: Vec<TaskId>,
    /// Subtasks still to acknowledge.
    pub waiting: Vec<TaskId>,
}

/// A completed checkpoint in storage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredView {
    /// Id.
    pub id: CheckpointId,
    /// Kind.
    pub kind: SnapshotKind,
    /// Completion time.
    pub completed_at: u64,
    /// `chk-N/_metadata`, keyed by operator uid (as `lab run --metadata`).
    pub metadata: serde_json::Value,
    /// Its files besides `_metadata`: private `chk-N/<subtask>` files and, with
    /// incremental rocksdb, the shared files it refers to ([`World::storage_files`]).
    #[serde(default)]
    pub files: Vec<crate::state::shared_registry::StorageFile>,
    /// Deleted: by the retention policy when the job ended, lost with the
    /// JobManager's memory (`jobmanager` storage), or — the snapshot this job was
    /// started from under `CLAIM` — subsumed. Shown struck through.
    #[serde(default)]
    pub discarded: bool,
    /// Lost with the JobManager (`jobmanager` storage): it completed, but no job
    /// can restore it any more (also `discarded`).
    #[serde(default)]
    pub lost: bool,
    /// This job was started from it (a snapshot of an earlier job, `flink run -s`):
    /// its `metadata` is as the earlier job wrote it.
    #[serde(default)]
    pub started_from: bool,
    /// For the snapshot this job was started from: the uids it holds state for
    /// that no operator of this job claims.
    #[serde(default)]
    pub non_restored: Vec<String>,
    /// For the snapshot this job was started from: `Some(true)` under `CLAIM`
    /// (the job owns it now), `Some(false)` under `NO_CLAIM` (the user does).
    #[serde(default)]
    pub claimed: Option<bool>,
    /// For the snapshot this job was started from under `NO_CLAIM`: the job no
    /// longer needs it (a newer checkpoint subsumed it, or the job ended), and it
    /// stays on disk, the user's.
    #[serde(default)]
    pub released: bool,
}

/// A transaction of the external system.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TxnView {
    /// Id.
    pub id: u64,
    /// Owning sink subtask.
    pub task: TaskName,
    /// Status.
    pub status: TxnStatus,
    /// Pre-committed for this checkpoint.
    pub checkpoint: Option<CheckpointId>,
    /// Its records.
    pub records: Vec<RecordView>,
    /// Order of its last status change among its topic's transactions (higher is
    /// later): the sink's badge shows the transaction that changed last.
    pub changed: u64,
    /// Simulated time of its last status change (`None`: still as begun).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changed_at: Option<u64>,
    /// When its commit failed because the broker had aborted it for the
    /// transaction timeout, and its records were lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_at: Option<u64>,
}

/// A sink's external system.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SinkView {
    /// The sink's uid.
    pub uid: String,
    /// Transactions (two-phase-commit sinks).
    pub txns: Vec<TxnView>,
    /// What a `read_committed` consumer sees.
    pub committed: Vec<RecordView>,
    /// What a `read_uncommitted` consumer sees in addition.
    pub uncommitted: Vec<RecordView>,
}

/// The checkpoint coordinator now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CoordinatorView {
    /// Pending checkpoints.
    pub pending: Vec<PendingView>,
    /// Every checkpoint so far (Flink's web UI history and details).
    pub history: Vec<CheckpointStats>,
    /// Retained completed checkpoints and savepoints.
    pub storage: Vec<StoredView>,
    /// Checkpoints live in the JobManager's memory (`jobmanager` storage) rather
    /// than in files.
    pub in_jobmanager_memory: bool,
    /// Consecutive counted failures.
    pub failure_counter: u32,
}

/// Everything the page draws at one moment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorldView {
    /// Simulated time.
    pub now: u64,
    /// Agenda items handled.
    pub steps: u64,
    /// Job status.
    pub status: JobStatus,
    /// When a restart is due (the countdown).
    pub restart_at: Option<u64>,
    /// Why the job failed, as text ([`Self::failure`] in the contract's spelling).
    pub failure_reason: Option<String>,
    /// Why the job failed, typed.
    #[serde(default)]
    pub failure: Option<FailureReason>,
    /// Subtasks.
    pub tasks: Vec<TaskView>,
    /// Channels.
    pub channels: Vec<ChannelView>,
    /// Coordinator and storage.
    pub coordinator: CoordinatorView,
    /// External systems.
    pub sinks: Vec<SinkView>,
    /// Failovers.
    pub failures: Vec<FailureRecord>,
    /// Source partitions read again after a restore (what flows below `below` is a
    /// replay).
    #[serde(default)]
    pub replay: Vec<ReplayView>,
    /// The restart strategy's count against its limit, and the failure-rate window.
    #[serde(default)]
    pub restarts: restarts::RestartView,
    /// The subtasks waiting for their restart, in [`TaskId`] order: the failed
    /// subtask's pipelined region while it fails over and the other regions run
    /// on, every failed or canceled subtask while the whole job restarts. Empty
    /// while nothing restarts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restarting: Vec<TaskName>,
}

impl World {
    fn record_view(&self, r: &Record) -> RecordView {
        RecordView {
            key: r.key.map(|k| self.setup().keys.name(k).clone()),
            value: r.value,
            origin: r.origin,
        }
    }

    fn element_view(
        &self,
        e: &Element,
        epoch: u64,
        persisted: Option<CheckpointId>,
    ) -> ElementView {
        match e {
            Element::Record { record } => ElementView::Record {
                record: self.record_view(record),
                epoch: persisted.map_or(epoch, |c| c.0),
                persisted,
            },
            Element::Barrier { barrier } => ElementView::Barrier {
                checkpoint: barrier.id,
                unaligned: barrier.is_unaligned(),
                savepoint: barrier.is_savepoint,
            },
            Element::Cancel { checkpoint } => ElementView::Cancel {
                checkpoint: *checkpoint,
            },
            Element::EndOfPartition => ElementView::EndOfPartition,
        }
    }

    /// The job graph.
    pub fn job_view(&self) -> JobView {
        let setup = self.setup();
        let job = &setup.scenario.job;
        // Depth: longest path from a source, so every edge points right.
        let mut depth = vec![0u32; job.operators.len()];
        for _ in 0..job.operators.len() {
            for e in &job.edges {
                let (f, t) = (job.operator_index(&e.from), job.operator_index(&e.to));
                if let (Some(f), Some(t)) = (f, t) {
                    depth[t] = depth[t].max(depth[f] + 1);
                }
            }
        }
        JobView {
            operators: job
                .operators
                .iter()
                .enumerate()
                .map(|(i, o)| OperatorView {
                    uid: o.uid.clone(),
                    name: o.display_name().to_string(),
                    kind: o.kind,
                    parallelism: o.parallelism,
                    first_task: setup.op_first_task[i],
                    depth: depth[i],
                    process_ms: o.process_ms,
                    detail: o
                        .sink
                        .map(|s| format!("{s:?}"))
                        .or(o.r#fn.map(|f| f.as_str().to_string())),
                })
                .collect(),
            tasks: setup
                .tasks
                .iter()
                .map(|t| TaskStatic {
                    name: t.name.clone(),
                    op: t.op,
                    index: t.index,
                    inputs: t.inputs.iter().map(|c| c.0).collect(),
                })
                .collect(),
            channels: self
                .channel_table()
                .iter_enumerated()
                .map(|(id, c)| {
                    let partitioning = setup.partitioning_of(c.from, id);
                    ChannelStatic {
                        from: c.from,
                        to: c.to,
                        input: c.input,
                        latency_ms: c.latency_ms,
                        capacity: c.capacity,
                        partitioning,
                    }
                })
                .collect(),
        }
    }

    /// Operator `op`'s state `state` as the page shows it.
    fn state_view(&self, op: usize, state: &OpState) -> StateView {
        let setup = self.setup();
        let key_groups = setup.max_parallelism[op];
        match state {
            OpState::Source(s) => StateView::Source {
                offsets: s
                    .offsets
                    .iter()
                    .map(|(p, o)| (*p, *o, setup.logs[op][*p as usize].len() as u64))
                    .collect(),
            },
            OpState::Keyed { values } => StateView::Keyed {
                entries: values
                    .iter()
                    .map(|(k, v)| {
                        (
                            setup.keys.name(*k).clone(),
                            setup.keys.key_group(*k, key_groups),
                            *v,
                        )
                    })
                    .collect(),
            },
            OpState::TwoPhaseCommit(s) => StateView::TwoPhaseCommit {
                current: s.current,
                pending: s.pending.clone(),
            },
            // Broadcast state reads like one named map state without key groups.
            OpState::Broadcast { rules } => StateView::KeyedStates {
                states: vec![NamedStateView {
                    name: "rules".into(),
                    kind: "broadcast".into(),
                    ttl_ms: None,
                    entries: rules
                        .iter()
                        .map(|(k, v)| NamedEntryView {
                            key: setup.keys.name(*k).clone(),
                            key_group: None,
                            value: v.to_string(),
                            expired_units: 0,
                        })
                        .collect(),
                }],
            },
            OpState::KeyedStates(store) => StateView::KeyedStates {
                states: store
                    .tables()
                    .iter()
                    .map(|(name, table)| {
                        let ttl = table.descriptor.ttl;
                        let now = self.now();
                        NamedStateView {
                            name: name.clone(),
                            kind: table.descriptor.kind.as_str().to_string(),
                            ttl_ms: ttl.map(|c| c.ttl_ms),
                            entries: table
                                .entries
                                .iter()
                                .map(|(k, v)| NamedEntryView {
                                    key: setup.keys.name(*k).clone(),
                                    key_group: Some(setup.keys.key_group(*k, key_groups)),
                                    value: v.display().to_string(),
                                    expired_units: ttl.map_or(0, |c| {
                                        v.units() - v.unexpired(&c, now).map_or(0, |u| u.units())
                                    }),
                                })
                                .collect(),
                        }
                    })
                    .collect(),
            },
            OpState::Stateless | OpState::Sink => StateView::Stateless,
        }
    }

    /// Everything the page draws now.
    pub fn view(&self) -> WorldView {
        WorldView {
            now: self.now(),
            steps: self.steps(),
            status: self.status(),
            restart_at: self.restart_at(),
            failure_reason: self.failure_reason(),
            failure: self.failure().cloned(),
            tasks: self
                .task_table()
                .iter_enumerated()
                .map(|(id, t)| self.task_view(id, t))
                .collect(),
            channels: self
                .channels()
                .iter()
                .map(|c| self.channel_view(c))
                .collect(),
            coordinator: self.coordinator_view(),
            sinks: self
                .external()
                .iter()
                .map(|(op, ext)| self.sink_view(*op, ext))
                .collect(),
            failures: self.failures().to_vec(),
            replay: self.replay_views(),
            restarts: self.restart_strategy().view(self.now()),
            restarting: self.restarting_tasks(),
        }
    }

    /// See [`WorldView::restarting`].
    fn restarting_tasks(&self) -> Vec<TaskName> {
        if !matches!(
            self.status(),
            crate::world::JobStatus::Running | crate::world::JobStatus::Restarting
        ) {
            return Vec::new();
        }
        self.task_table()
            .iter_enumerated()
            .filter(|(_, t)| {
                matches!(
                    t.status,
                    crate::world::TaskStatus::Failed | crate::world::TaskStatus::Canceled
                )
            })
            .map(|(id, _)| self.setup().name(id))
            .collect()
    }

    /// Subtask `id` now: its runtime, its state, its latest snapshot and what its
    /// restore rewound.
    fn task_view(&self, id: TaskId, t: &Task) -> TaskView {
        let setup = self.setup();
        let info = &setup.tasks[id];
        let state = self.state_view(info.op, &t.op);
        TaskView {
            status: t.status,
            busy: t
                .busy
                .as_ref()
                .map(|b| (self.record_view(&b.record), b.done_at)),
            backpressured: self.is_backpressured(id),
            aligning: t.handler.pending_checkpoints(),
            aligning_since: t.handler.pending_since(),
            last_checkpoint: t.checkpoints.last_checkpoint(),
            state,
            processed: t.processed,
            handling: (!t.handler.pending_checkpoints().is_empty()).then(|| {
                match setup.handler_mode {
                    crate::barrier::HandlerMode::AtLeastOnce => Handling::Tracking,
                    _ if t.handler.is_unaligned() => Handling::Unaligned,
                    _ => Handling::Aligning,
                }
            }),
            changed: t
                .recent
                .entries()
                .iter()
                .map(|(e, at)| ChangeView {
                    entry: self.entry_view(*e),
                    at: *at,
                })
                .collect(),
            snapshot: t.snapped.as_ref().map(|b| SnapshotView {
                checkpoint: b.0,
                at: b.1,
                state: self.state_view(info.op, &b.2),
            }),
            rewind: t.restored.as_ref().map(|r| RewindView {
                checkpoint: r.checkpoint,
                at: r.at,
                values: r
                    .values
                    .iter()
                    .map(|v| RewoundView {
                        entry: self.entry_view(v.entry),
                        state: v.state.clone(),
                        before: v.before.clone(),
                        after: v.after.clone(),
                    })
                    .collect(),
            }),
        }
    }

    /// Channel `c` now: its three queues with each element's epoch, and whether its
    /// receiver blocks or persists it.
    fn channel_view(&self, c: &Channel) -> ChannelView {
        // Epochs, walking from the sender's side: records behind the last
        // barrier sent belong to the checkpoint after it.
        let mut epoch = c.last_barrier.map_or(1, |b| b.0 + 1);
        let mut step = |e: &Element| {
            if let Element::Barrier { barrier } = e {
                epoch = barrier.id.0;
            }
            epoch
        };
        let out_epochs: Vec<u64> = c.out_queue.iter().rev().map(&mut step).collect();
        let wire_epochs: Vec<u64> = c.wire.iter().rev().map(|w| step(&w.element)).collect();
        let queue_epochs: Vec<u64> = c.queue.iter().rev().map(|q| step(&q.element)).collect();
        let receiver = &self.task_table()[c.to];
        let persisting = receiver.channel_state.is_persisting(c.input);
        // Records an unaligned barrier overtook stay its checkpoint's (its
        // channel state), though the barrier is past them; so do records
        // queued on a channel still being persisted.
        let capture = receiver.channel_state.checkpoint().filter(|_| persisting);
        let mut ith = 0usize;
        let mut out_persisted = |e: &Element| {
            e.is_record().then(|| {
                ith += 1;
                c.overtaken_out.checkpoint_of(ith - 1)
            })?
        };
        let out_queue = c
            .out_queue
            .iter()
            .zip(out_epochs.iter().rev())
            .map(|(e, ep)| self.element_view(e, *ep, out_persisted(e)))
            .collect();
        let mut ith = 0usize;
        let mut in_persisted = |e: &Element| {
            e.is_record().then(|| {
                ith += 1;
                c.overtaken_in.checkpoint_of(ith - 1).or(capture)
            })?
        };
        ChannelView {
            out_queue,
            wire: c
                .wire
                .iter()
                .zip(wire_epochs.iter().rev())
                .map(|(w, ep)| InTransitView {
                    sent_at: w.sent_at,
                    arrive_at: w.arrive_at,
                    element: self.element_view(&w.element, *ep, None),
                })
                .collect(),
            queue: c
                .queue
                .iter()
                .zip(queue_epochs.iter().rev())
                .map(|(q, ep)| self.element_view(&q.element, *ep, in_persisted(&q.element)))
                .collect(),
            blocked: receiver.handler.is_blocked(c.input),
            persisting,
            records: c.records,
        }
    }

    /// The coordinator now: pending checkpoints, the history, and storage with
    /// what each retained (or discarded) checkpoint holds.
    fn coordinator_view(&self) -> CoordinatorView {
        let setup = self.setup();
        let coord = self.coordinator();
        CoordinatorView {
            pending: coord
                .pending()
                .values()
                .map(|p| PendingView {
                    id: p.id,
                    kind: p.kind,
                    acknowledged: p.acknowledged.keys().copied().collect(),
                    waiting: p.not_yet_acknowledged.iter().copied().collect(),
                })
                .collect(),
            history: coord.history().values().cloned().collect(),
            storage: coord
                .store()
                .iter()
                .chain(coord.savepoints())
                .map(|c| (c, false))
                .chain(coord.released().map(|c| (c, false)))
                .chain(coord.discarded().iter().map(|c| (c, true)))
                .map(|(c, discarded)| {
                    let restored = coord.restored(c.id);
                    StoredView {
                        id: c.id,
                        kind: c.kind,
                        completed_at: c.completed_at,
                        // The storage tab shows who held which key groups, too; the
                        // snapshot this job started from, as its own job wrote it.
                        metadata: restored.map_or_else(
                            || {
                                crate::summary::checkpoint_metadata_with(
                                    setup,
                                    c,
                                    crate::summary::Metadata::WithKeyGroups,
                                )
                            },
                            |r| r.metadata.clone(),
                        ),
                        files: self.storage_files(c),
                        discarded,
                        lost: coord.history().get(&c.id).is_some_and(|h| h.lost),
                        started_from: restored.is_some(),
                        non_restored: restored.map(|r| r.non_restored.clone()).unwrap_or_default(),
                        claimed: restored.map(|r| r.claimed),
                        released: coord.released().is_some_and(|r| r.id == c.id),
                    }
                })
                .collect(),
            in_jobmanager_memory: setup
                .scenario
                .checkpointing
                .as_ref()
                .is_some_and(|c| c.storage == crate::scenario::StorageKind::Jobmanager),
            failure_counter: coord.failure_counter(),
        }
    }

    /// Sink operator `op`'s external system: its transactions and what each kind of
    /// reader sees.
    fn sink_view(&self, op: usize, ext: &ExternalTopic) -> SinkView {
        SinkView {
            uid: self.setup().scenario.job.operators[op].uid.clone(),
            txns: ext
                .txns
                .iter()
                .map(|(id, t)| TxnView {
                    id: *id,
                    task: t.task.clone(),
                    status: t.status,
                    checkpoint: t.checkpoint,
                    records: t.records.iter().map(|(_, r)| self.record_view(r)).collect(),
                    changed: t.changed,
                    changed_at: t.changed_at,
                    lost_at: t.lost_at,
                })
                .collect(),
            committed: ext.committed.iter().map(|r| self.record_view(r)).collect(),
            uncommitted: ext
                .uncommitted()
                .iter()
                .map(|r| self.record_view(r))
                .collect(),
        }
    }

    /// The source partitions read again since a restore, with where the replay ends.
    fn replay_views(&self) -> Vec<ReplayView> {
        let setup = self.setup();
        self.task_table()
            .iter_enumerated()
            .filter_map(|(id, t)| Some((setup.tasks[id].op, t.restored.as_ref()?)))
            .flat_map(|(op, r)| {
                r.read_before.iter().map(move |(p, below)| ReplayView {
                    source: op as u16,
                    partition: *p as u16,
                    below: *below as u32,
                })
            })
            .collect()
    }

    fn entry_view(&self, e: StateEntry) -> EntryView {
        match e {
            StateEntry::Partition(partition) => EntryView::Partition { partition },
            StateEntry::Key(k) => EntryView::Key {
                key: self.setup().keys.name(k).clone(),
            },
        }
    }
}
