//! A subtask's side of checkpointing: which checkpoint it took last, which ones the
//! coordinator aborted before their barrier arrived, the snapshots whose asynchronous
//! part or channel state is still in flight, and — for the incremental rocksdb
//! backend — the base its next snapshot is measured against.
//!
//! Flink: `SubtaskCheckpointCoordinatorImpl` (`checkpointState`, `abortedCheckpointIds`,
//! `lastCheckpointId`, the `AsyncCheckpointRunnable` that acknowledges or declines
//! when the asynchronous part ends) and `RocksIncrementalSnapshotStrategy`'s
//! `uploadedSstFiles` (the base, replaced when a checkpoint is notified complete).
//!
//! The [`crate::World`] drives it: [`SubtaskCheckpointCoordinator::begin`] at a
//! barrier or trigger, [`SubtaskCheckpointCoordinator::take_snapshot`] for the
//! synchronous part, then the three things a snapshot waits for — the end of its
//! asynchronous part, its output channel state (a timeoutable barrier still in an
//! output queue) and its input channel state (unaligned, captured by
//! [`crate::barrier::channel_state::ChannelStatePersister`]) — and finally
//! [`SubtaskCheckpointCoordinator::acknowledge`], which says [`Acknowledgement::Ack`]
//! or [`Acknowledgement::Decline`].
//! Simplified: the asynchronous part takes a fixed `async_ms`; it fails only for
//! jobmanager storage's size limit.

use crate::ids::{ChannelIndex, CheckpointId};
use crate::record::{KeyTable, Record};
use crate::snapshot::{OperatorSnapshot, TaskSnapshot};
use crate::state::shared_registry::{self, IncrementalBase, IncrementalUpload};
pub use crate::state::Upload;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A snapshot whose synchronous part is taken and whose acknowledgement waits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct InProgressSnapshot {
    /// What will be acknowledged; channel state is added as it completes.
    snapshot: TaskSnapshot,
    /// The asynchronous part ended.
    async_done: bool,
    /// A timeoutable barrier of this checkpoint still waits in an output queue: its
    /// output channel state is not final until it leaves (or times out and overtakes).
    output_pending: bool,
    /// Incremental (rocksdb) snapshot: what it uploads and refers to.
    keyed: Option<IncrementalUpload>,
}

impl InProgressSnapshot {
    /// Channel state of `bytes` joins the snapshot: it counts in full and is
    /// uploaded (channel state is never incremental).
    fn add_channel_state(&mut self, bytes: u64) {
        self.snapshot.state_bytes += bytes;
        self.snapshot.uploaded_bytes += bytes;
    }
}

/// Where the barrier a subtask forwarded is when its snapshot is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputBarrier {
    /// On the wire (or no output): the output channel state is final.
    Sent,
    /// A timeoutable barrier still waits in an output queue: the output channel
    /// state is final only once it leaves, or times out and overtakes.
    Queued,
}

/// Whether a subtask still captures a checkpoint's input channel state (unaligned:
/// until each channel's barrier, end of partition, or the checkpoint's end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputCapture {
    /// Complete, or none to capture.
    Done,
    /// Some input channel's barrier has not arrived yet.
    Capturing,
}

/// The synchronous part of a subtask's snapshot, as the task hands it over to
/// [`SubtaskCheckpointCoordinator::take_snapshot`].
#[derive(Clone, Debug)]
pub struct SyncSnapshot<'a> {
    /// The subtask's name (the shared-state registry's owner).
    pub task: &'a str,
    /// The checkpoint, which [`SubtaskCheckpointCoordinator::begin`] said to take.
    pub id: CheckpointId,
    /// The operator state.
    pub state: OperatorSnapshot,
    /// Records queued in the output channels (an unaligned barrier overtook them).
    pub output_channels: BTreeMap<u32, Vec<Record>>,
    /// Full or incremental keyed state.
    pub upload: Upload,
    /// Whether the forwarded barrier still waits in an output queue.
    pub output: OutputBarrier,
}

/// What [`SubtaskCheckpointCoordinator::begin`] says about a checkpoint's barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Begin {
    /// Take the snapshot.
    Take,
    /// Not newer than the last checkpoint taken (it was aborted meanwhile): ignore.
    Stale,
    /// The coordinator aborted it before its barrier arrived: take no snapshot, but
    /// pass a cancellation marker downstream.
    AbortedBefore,
}

/// How a snapshot ends once everything it waits for is done.
#[derive(Clone, Debug, PartialEq)]
pub enum Acknowledgement {
    /// Acknowledge it, with the incremental upload to register, if any.
    Ack {
        /// The subtask's part of the checkpoint.
        snapshot: TaskSnapshot,
        /// Incremental (rocksdb): the shared files it uploads and refers to.
        upload: Option<IncrementalUpload>,
    },
    /// Decline it. Flink: `MemCheckpointStreamFactory` throws in the asynchronous
    /// part when the state does not fit jobmanager storage.
    Decline {
        /// Flink's message.
        message: String,
    },
}

/// A subtask's checkpoint bookkeeping. See the module documentation.
/// Flink: `SubtaskCheckpointCoordinatorImpl`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SubtaskCheckpointCoordinator {
    /// The newest checkpoint this subtask took, declined or saw aborted at its
    /// barrier; a barrier not newer is stale. Flink: `lastCheckpointId`.
    last_checkpoint: Option<CheckpointId>,
    /// Checkpoints the coordinator aborted before this subtask took them (newer than
    /// `last_checkpoint` when inserted). Flink: `abortedCheckpointIds`.
    aborted: BTreeSet<CheckpointId>,
    /// Snapshots taken and not yet acknowledged or declined, by checkpoint.
    in_progress: BTreeMap<CheckpointId, InProgressSnapshot>,
    /// Where the keyed entries of the last completed checkpoint live: what the next
    /// incremental snapshot uploads only the changes against.
    incremental_base: IncrementalBase,
    /// Placements of acknowledged incremental snapshots not yet notified complete;
    /// the one notified becomes the base.
    incremental_candidates: BTreeMap<CheckpointId, IncrementalBase>,
}

impl SubtaskCheckpointCoordinator {
    /// A subtask (re)started with `incremental_base` (empty unless restored from an
    /// incremental checkpoint the registry still knows).
    pub fn new(incremental_base: IncrementalBase) -> Self {
        SubtaskCheckpointCoordinator {
            incremental_base,
            ..Self::default()
        }
    }

    /// The newest checkpoint this subtask took (or declined).
    pub fn last_checkpoint(&self) -> Option<CheckpointId> {
        self.last_checkpoint
    }

    /// A barrier (or trigger) of checkpoint `id` is to be taken. Flink:
    /// `SubtaskCheckpointCoordinatorImpl.checkpointState`'s first checks.
    pub fn begin(&mut self, id: CheckpointId) -> Begin {
        if self.last_checkpoint.is_some_and(|l| l >= id) {
            return Begin::Stale;
        }
        self.last_checkpoint = Some(id);
        if self.aborted.contains(&id) {
            Begin::AbortedBefore
        } else {
            Begin::Take
        }
    }

    /// The synchronous part of a checkpoint (after [`Self::begin`] said
    /// [`Begin::Take`]): sizes the operator state and the output channel state in
    /// the contract's byte model and, for an [`Upload::Incremental`] one, splits the
    /// keyed entries into what is uploaded and what is referred to. Returns the
    /// snapshot's full size.
    pub fn take_snapshot(&mut self, sync: SyncSnapshot<'_>, keys: &KeyTable) -> u64 {
        let SyncSnapshot {
            task,
            id,
            state,
            output_channels,
            upload,
            output,
        } = sync;
        let (incremental, output_pending) = (
            upload == Upload::Incremental,
            output == OutputBarrier::Queued,
        );
        debug_assert_eq!(self.last_checkpoint, Some(id), "begin({id}) first");
        let op_bytes = TaskSnapshot::operator_bytes(&state, keys);
        let out_bytes = TaskSnapshot::channel_bytes(output_channels.values().flatten(), keys);
        let (keyed, uploaded_keyed) = match &state {
            OperatorSnapshot::Keyed { .. } | OperatorSnapshot::KeyedStates { .. }
                if incremental =>
            {
                let entries = shared_registry::keyed_entries(&state);
                let upload = self.incremental_base.snapshot(task, id, entries, keys);
                let bytes = upload.uploaded_bytes();
                (Some(upload), bytes)
            }
            _ => (None, op_bytes),
        };
        let snapshot = TaskSnapshot {
            finished: false,
            state,
            input_channels: BTreeMap::new(),
            output_channels,
            state_bytes: op_bytes + out_bytes,
            uploaded_bytes: uploaded_keyed + out_bytes,
        };
        let bytes = snapshot.state_bytes;
        self.in_progress.insert(
            id,
            InProgressSnapshot {
                snapshot,
                async_done: false,
                output_pending,
                keyed,
            },
        );
        bytes
    }

    /// The asynchronous part of `id` ended. False if the snapshot is gone (aborted).
    pub fn async_done(&mut self, id: CheckpointId) -> bool {
        match self.in_progress.get_mut(&id) {
            Some(s) => {
                s.async_done = true;
                true
            }
            None => false,
        }
    }

    /// Whether `id`'s snapshot waits for its barrier to leave an output queue.
    pub fn is_output_pending(&self, id: CheckpointId) -> bool {
        self.in_progress.get(&id).is_some_and(|s| s.output_pending)
    }

    /// `id`'s barrier left the output queues: its output channel state is final.
    /// `overtaken`: records it overtook there when it timed out (unaligned), by output
    /// channel.
    pub fn output_flushed(
        &mut self,
        id: CheckpointId,
        overtaken: BTreeMap<u32, Vec<Record>>,
        keys: &KeyTable,
    ) {
        if let Some(s) = self.in_progress.get_mut(&id) {
            s.add_channel_state(TaskSnapshot::channel_bytes(
                overtaken.values().flatten(),
                keys,
            ));
            s.snapshot.output_channels.extend(overtaken);
            s.output_pending = false;
        }
    }

    /// `id`'s input channel state is complete (unaligned).
    pub fn input_channel_state(
        &mut self,
        id: CheckpointId,
        records: BTreeMap<ChannelIndex, Vec<Record>>,
        keys: &KeyTable,
    ) {
        if let Some(s) = self.in_progress.get_mut(&id) {
            s.add_channel_state(TaskSnapshot::channel_bytes(
                records.values().flatten(),
                keys,
            ));
            s.snapshot.input_channels = records;
        }
    }

    /// Ends `id`'s snapshot if nothing is in flight any more — its asynchronous part,
    /// its output channel state and its input channel state (`input`). A snapshot
    /// larger than `max_state_bytes` (jobmanager storage) is declined.
    pub fn acknowledge(
        &mut self,
        id: CheckpointId,
        input: InputCapture,
        max_state_bytes: Option<u64>,
    ) -> Option<Acknowledgement> {
        let ready = self
            .in_progress
            .get(&id)
            .is_some_and(|s| s.async_done && !s.output_pending)
            && input == InputCapture::Done;
        if !ready {
            return None;
        }
        let s = self.in_progress.remove(&id).expect("checked above");
        if let Some(max) = max_state_bytes {
            if s.snapshot.state_bytes > max {
                return Some(Acknowledgement::Decline {
                    message: format!(
                        "Size of the state is larger than the maximum permitted memory-backed state. Size={}, maxSize={}",
                        s.snapshot.state_bytes, max
                    ),
                });
            }
        }
        Some(Acknowledgement::Ack {
            snapshot: s.snapshot,
            upload: s.keyed,
        })
    }

    /// Keeps an acknowledged incremental upload's placement until `id` is notified:
    /// if it completes, it becomes the base.
    pub fn keep_candidate(&mut self, id: CheckpointId, upload: IncrementalUpload) {
        let base = IncrementalBase {
            checkpoint: Some(id),
            placement: upload.placement,
        };
        self.incremental_candidates.insert(id, base);
    }

    /// The subtask declined `id` at its barrier (Flink: `abortCheckpointOnBarrier`).
    pub fn declined_on_barrier(&mut self, id: CheckpointId) {
        self.last_checkpoint = self.last_checkpoint.max(Some(id));
    }

    /// `notifyCheckpointComplete(id)`: its snapshot becomes the incremental base
    /// (Flink: RocksDB's `notifyCheckpointComplete`); older candidates are dropped.
    pub fn notify_complete(&mut self, id: CheckpointId) {
        if let Some(base) = self.incremental_candidates.remove(&id) {
            self.incremental_base = base;
        }
        self.incremental_candidates.retain(|k, _| *k > id);
    }

    /// `notifyCheckpointAborted(id)`: remembered if not taken yet (its barrier then
    /// takes no snapshot); the asynchronous part is cancelled and its uploads
    /// forgotten.
    pub fn notify_aborted(&mut self, id: CheckpointId) {
        if self.last_checkpoint.is_none_or(|l| l < id) {
            self.aborted.insert(id);
        }
        self.in_progress.remove(&id);
        self.incremental_candidates.remove(&id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::KeyId;
    use InputCapture::{Capturing, Done};

    fn sync(
        task: &str,
        id: CheckpointId,
        state: OperatorSnapshot,
        upload: Upload,
        output: OutputBarrier,
    ) -> SyncSnapshot<'_> {
        SyncSnapshot {
            task,
            id,
            state,
            output_channels: BTreeMap::new(),
            upload,
            output,
        }
    }

    const C1: CheckpointId = CheckpointId(1);
    const C2: CheckpointId = CheckpointId(2);

    fn keys() -> KeyTable {
        let mut k = KeyTable::new();
        k.intern("a");
        k
    }

    fn keyed(v: i64) -> OperatorSnapshot {
        OperatorSnapshot::Keyed {
            entries: BTreeMap::from([(KeyId(0), v)]),
        }
    }

    /// Mirrors SubtaskCheckpointCoordinatorTest#testSkipCheckpointIfAbortedBefore
    /// (an aborted id takes no snapshot) and the lastCheckpointId check.
    #[test]
    fn stale_and_aborted_barriers_take_no_snapshot() {
        let mut s = SubtaskCheckpointCoordinator::default();
        s.notify_aborted(C2);
        assert_eq!(s.begin(C1), Begin::Take);
        assert_eq!(s.begin(C1), Begin::Stale, "not newer than the last one");
        assert_eq!(s.begin(C2), Begin::AbortedBefore);
        s.declined_on_barrier(CheckpointId(5));
        assert_eq!(s.begin(CheckpointId(4)), Begin::Stale);
    }

    /// A snapshot is acknowledged only once its asynchronous part and its channel
    /// state are done.
    #[test]
    fn acknowledged_when_nothing_is_in_flight() {
        let keys = keys();
        let mut s = SubtaskCheckpointCoordinator::default();
        s.begin(C1);
        let bytes = s.take_snapshot(sync("k#0", C1, keyed(1), Upload::Full, OutputBarrier::Queued), &keys);
        assert_eq!(bytes, 17, "one keyed entry: 16 + len(\"a\")");
        assert_eq!(s.acknowledge(C1, Done, None), None, "async part running");
        assert!(s.async_done(C1));
        assert_eq!(s.acknowledge(C1, Done, None), None, "output pending");
        s.output_flushed(C1, BTreeMap::new(), &keys);
        assert_eq!(
            s.acknowledge(C1, Capturing, None),
            None,
            "input channel state capturing"
        );
        let ack = s.acknowledge(C1, Done, None);
        assert!(
            matches!(&ack, Some(Acknowledgement::Ack { snapshot, upload: None }) if snapshot.state_bytes == 17),
            "{ack:?}"
        );
        assert!(!s.async_done(C1), "acknowledged: gone");
    }

    /// Mirrors MemCheckpointStreamFactory's size check: jobmanager storage declines
    /// a snapshot above its limit, with Flink's message.
    #[test]
    fn too_large_for_jobmanager_storage_is_declined() {
        let keys = keys();
        let mut s = SubtaskCheckpointCoordinator::default();
        s.begin(C1);
        s.take_snapshot(sync("k#0", C1, keyed(1), Upload::Full, OutputBarrier::Sent), &keys);
        s.async_done(C1);
        assert_eq!(
            s.acknowledge(C1, Done, Some(16)),
            Some(Acknowledgement::Decline {
                message: "Size of the state is larger than the maximum permitted memory-backed state. Size=17, maxSize=16".into()
            })
        );
    }

    /// Mirrors RocksIncrementalSnapshotStrategy: the base is the last checkpoint
    /// notified complete, so an unchanged entry is not uploaded again.
    #[test]
    fn the_completed_snapshot_becomes_the_incremental_base() {
        let keys = keys();
        let mut s = SubtaskCheckpointCoordinator::default();
        for (id, v) in [(C1, 1), (C2, 1)] {
            s.begin(id);
            s.take_snapshot(sync("k#0", id, keyed(v), Upload::Incremental, OutputBarrier::Sent), &keys);
            s.async_done(id);
            let Some(Acknowledgement::Ack { upload, snapshot }) = s.acknowledge(id, Done, None)
            else {
                panic!("acknowledged");
            };
            let upload = upload.expect("incremental");
            if id == C1 {
                assert_eq!(snapshot.uploaded_bytes, 17);
                s.keep_candidate(id, upload);
                s.notify_complete(id);
            } else {
                assert_eq!(snapshot.uploaded_bytes, 0, "unchanged since checkpoint 1");
            }
        }
    }
}
