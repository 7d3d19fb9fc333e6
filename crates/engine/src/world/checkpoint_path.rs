//! The checkpoint path between the tasks and the coordinator: a task's barrier
//! handler's actions and alignment timer, the steps of a subtask's checkpoint
//! (forward the barrier, capture channel state, take the snapshot, acknowledge),
//! triggering, completing and aborting checkpoints, and the notifications back.
//!
//! Flink: `SingleCheckpointBarrierHandler` / `CheckpointBarrierTracker` (their
//! actions), `SubtaskCheckpointCoordinatorImpl.checkpointState`,
//! `CheckpointCoordinator` (`triggerCheckpoint`, `receiveAcknowledgeMessage`,
//! `completePendingCheckpoint`, `abortPendingCheckpoint`) and
//! `StreamTask.notifyCheckpointCompleteAsync` / `notifyCheckpointAbortAsync`.

use super::schedule::Item;
use super::World;
use crate::barrier::{Alignment, CheckpointBarrier, HandlerAction};
use crate::cause::{FailureCause, SkipCause};
use crate::channel::Element;
use crate::coordinator::{AbortCause, Decision, TriggerOrigin};
use crate::event::{Event, SnapshotKind};
use crate::ids::{ChannelId, ChannelIndex, CheckpointId, TaskId};
use crate::operators::OpState;
use crate::record::Record;
use crate::scenario::OperatorKind;
use crate::snapshot::TaskSnapshot;
use crate::status::TaskStatus;
use crate::subtask_checkpoint::{Acknowledgement, Begin, InputCapture, OutputBarrier, SyncSnapshot, Upload};
use std::collections::BTreeMap;

impl World {
    /// A snapshot's asynchronous part ended: acknowledge it if nothing else is in flight.
    pub(super) fn async_done(&mut self, t: TaskId, id: CheckpointId) {
        if self.tasks[t].checkpoints.async_done(id) {
            self.maybe_acknowledge(t, id);
        }
    }

    /// Checkpoint `id`'s timeout: abort it if it is still pending and has expired.
    pub(super) fn checkpoint_timeout(&mut self, id: CheckpointId) {
        if self.coordinator.is_expired(id, self.now) {
            self.abort_checkpoint(id, AbortCause::Expired);
        }
    }

    pub(super) fn handler_timer(&mut self, t: TaskId) {
        if self.tasks[t].status != TaskStatus::Running || self.tasks[t].busy.is_some() {
            return; // a busy task checks its timer when the record is done
        }
        match self.tasks[t].handler.next_timer_at() {
            Some(at) if at <= self.now => {
                self.tasks[t].timer_at = None;
                let mut actions = Vec::new();
                self.tasks[t].handler.fire_timer(self.now, &mut actions);
                // The switch to unaligned: a snapshot taken now, or announced barriers
                // about to overtake their queued data (and trigger).
                if let Some(id) = actions.iter().find_map(|a| match a {
                    HandlerAction::Trigger { barrier, .. } => Some(barrier.id),
                    HandlerAction::Prioritize { checkpoint, .. } => Some(*checkpoint),
                    _ => None,
                }) {
                    let name = self.name(t);
                    self.trace.push(|| Event::AlignmentTimedOut {
                        task: name,
                        checkpoint: id,
                    });
                }
                self.apply_actions(t, actions);
            }
            _ => self.sync_timer(t),
        }
    }

    pub(super) fn sync_timer(&mut self, t: TaskId) {
        let want = self.tasks[t].handler.next_timer_at();
        if want != self.tasks[t].timer_at {
            self.tasks[t].timer_at = want;
            if let Some(at) = want {
                self.schedule(at.max(self.now), Item::HandlerTimer(t));
            }
        }
    }

    // ----- barrier handler actions ------------------------------------------

    pub(super) fn apply_actions(&mut self, t: TaskId, actions: Vec<HandlerAction>) {
        let mut prioritized = false;
        for a in actions {
            if matches!(
                self.tasks[t].status,
                TaskStatus::Failed | TaskStatus::Canceled
            ) {
                return;
            }
            match a {
                HandlerAction::Blocked {
                    channel,
                    checkpoint,
                } => {
                    let name = self.name(t);
                    self.trace.push(|| Event::ChannelBlocked {
                        task: name,
                        channel,
                        checkpoint,
                    });
                }
                HandlerAction::Unblocked {
                    channel,
                    checkpoint,
                } => {
                    let name = self.name(t);
                    self.trace.push(|| Event::ChannelUnblocked {
                        task: name,
                        channel,
                        checkpoint,
                    });
                    self.schedule_poll(t);
                }
                HandlerAction::Trigger {
                    barrier,
                    persist,
                    alignment_started_at,
                } => self.perform_checkpoint(t, barrier, persist, alignment_started_at),
                HandlerAction::StopPersisting {
                    channel,
                    checkpoint,
                } => self.stop_persisting(t, channel, checkpoint),
                HandlerAction::Prioritize {
                    channel,
                    checkpoint,
                } => prioritized |= self.prioritize_queued_barrier(t, channel, checkpoint),
                HandlerAction::Abort { checkpoint, reason } => {
                    let cause = AbortCause::from(reason);
                    self.tasks[t].channel_state.abort(checkpoint);
                    // Flink: abortCheckpointOnBarrier declines and broadcasts a cancellation marker.
                    self.tasks[t].checkpoints.declined_on_barrier(checkpoint);
                    let name = self.name(t);
                    self.trace.push(|| Event::CheckpointDeclined {
                        task: name.clone(),
                        checkpoint,
                        reason: cause.clone(),
                    });
                    self.broadcast(t, &Element::Cancel { checkpoint });
                    if !self.graph.task(t).outputs.is_empty() {
                        self.trace.push(|| Event::CancellationMarkerSent {
                            task: name,
                            checkpoint,
                        });
                    }
                    if self.coordinator.is_pending(checkpoint) {
                        self.abort_checkpoint(checkpoint, cause);
                    }
                }
            }
        }
        // Prioritized barriers are handled after the actions of the step that
        // prioritized them (a trigger among them first takes its snapshot), as Flink's
        // priority events come through the input gate after the handler's call.
        if prioritized
            && self.tasks[t].status == TaskStatus::Running
            && self.tasks[t].busy.is_none()
        {
            self.handle_priority(t);
        }
        self.sync_timer(t);
    }

    /// Flink: `SubtaskCheckpointCoordinatorImpl.checkpointState` — the steps of a
    /// subtask's checkpoint, in Flink's order: check for an earlier abort, prepare,
    /// forward the barrier, register the alignment timer, capture the input channel
    /// state, take the synchronous snapshot, start the asynchronous part; then the
    /// barriers that the capture turned into priority events.
    pub(super) fn perform_checkpoint(
        &mut self,
        t: TaskId,
        barrier: CheckpointBarrier,
        persist: Vec<ChannelIndex>,
        first_seen_at: u64,
    ) {
        let id = barrier.id;
        if !self.begin_checkpoint(t, id) {
            return;
        }
        self.prepare_snapshot_pre_barrier(t, id);
        let output_channels = self.broadcast_barrier(t, &barrier);
        let output = self.register_alignment_timer(t, &barrier);
        self.capture_input_channel_state(t, id, &persist);
        self.take_snapshot_sync(t, &barrier, output_channels, output, first_seen_at);
        self.start_async_part(t, id);
        self.handle_queued_barriers_as_priority(t, id, persist);
    }

    /// Flink: `SubtaskCheckpointCoordinatorImpl.checkpointState`, step 0
    /// (`checkAndClearAbortedStatus`). Whether to take checkpoint `id`: not if it is
    /// out of order, nor if the coordinator aborted it before its barrier got here —
    /// then the subtask takes no snapshot and passes the news on with a
    /// `CancelCheckpointMarker`.
    pub(super) fn begin_checkpoint(&mut self, t: TaskId, id: CheckpointId) -> bool {
        match self.tasks[t].checkpoints.begin(id) {
            Begin::Take => true,
            Begin::Stale => false,
            Begin::AbortedBefore => {
                self.broadcast(t, &Element::Cancel { checkpoint: id });
                let name = self.name(t);
                self.trace.push(|| Event::CancellationMarkerSent {
                    task: name,
                    checkpoint: id,
                });
                false
            }
        }
    }

    /// Flink: `OperatorChain.prepareSnapshotPreBarrier` — an operator's work before
    /// the barrier goes out. The lab's operators have none; the one thing done
    /// before the barrier is a source stopping for a stop-with-savepoint.
    pub(super) fn prepare_snapshot_pre_barrier(&mut self, t: TaskId, id: CheckpointId) {
        if self.op_kind(t) == OperatorKind::Source {
            self.stop_source_for_savepoint(t, id);
        }
    }

    /// Flink: `SourceOperator.stop` from `triggerStopWithSavepointAsync` — a
    /// source taking a stop-with-savepoint (a synchronous savepoint) emits nothing
    /// after its barrier.
    pub(super) fn stop_source_for_savepoint(&mut self, t: TaskId, id: CheckpointId) {
        let stop = self
            .coordinator
            .pending_checkpoint(id)
            .is_some_and(|p| p.kind == SnapshotKind::StopWithSavepoint);
        if let OpState::Source(s) = &mut self.tasks[t].op {
            if stop {
                s.stopped = true;
            }
        }
    }

    /// Flink: `OperatorChain.broadcastEvent(barrier, isUnalignedCheckpoint)` — the
    /// barrier goes out on every output channel; at a source this is its injection
    /// (`barrier_injected`), elsewhere `barrier_forwarded`.
    /// Unaligned, it overtakes the output queues (Flink: the subpartition's priority
    /// event), and the records it overtakes are returned as the subtask's output
    /// channel state.
    pub(super) fn broadcast_barrier(
        &mut self,
        t: TaskId,
        barrier: &CheckpointBarrier,
    ) -> BTreeMap<u32, Vec<Record>> {
        let id = barrier.id;
        let unaligned = barrier.alignment == Alignment::Unaligned;
        let mut output_channels = BTreeMap::new();
        let outs: Vec<ChannelId> = self.graph.outputs(t).collect();
        for c in &outs {
            let ch = &self.channels[*c];
            if unaligned {
                let recs = ch.out_records_before(id);
                if !recs.is_empty() {
                    output_channels.insert(ch.output, recs);
                }
            }
            self.send(
                *c,
                Element::Barrier {
                    barrier: barrier.clone(),
                },
            );
        }
        let name = self.name(t);
        if self.op_kind(t) == OperatorKind::Source {
            self.trace.push(|| Event::BarrierInjected {
                task: name,
                checkpoint: id,
            });
        } else if !outs.is_empty() {
            // Traced so the order shows: the barrier leaves before the snapshot.
            self.trace.push(|| Event::BarrierForwarded {
                task: name,
                checkpoint: id,
                unaligned,
            });
        }
        output_channels
    }

    /// Flink: `SubtaskCheckpointCoordinatorImpl.registerAlignmentTimer` — a
    /// timeoutable (aligned) barrier still waiting in an output queue is turned
    /// into an unaligned one when the aligned-checkpoint timeout passes
    /// ([`Item::OutputTimeout`]). Returns whether such a barrier is waiting: the
    /// snapshot's output channel state is then pending.
    pub(super) fn register_alignment_timer(
        &mut self,
        t: TaskId,
        barrier: &CheckpointBarrier,
    ) -> OutputBarrier {
        let queued = barrier.is_timeoutable() && self.barrier_in_out_queues(t, barrier.id);
        if queued {
            // Flink: `BarrierAlignmentUtil.getTimerDelay` is max(T - (now - created), 0),
            // and a processing-time timer fires one millisecond after its timestamp
            // (`ProcessingTimeServiceUtil.getProcessingTimeDelay`): due at
            // max(created + T, now) + 1, as at the input, also when the barrier is
            // forwarded after the deadline.
            let deadline = barrier
                .created_at
                .saturating_add(barrier.aligned_timeout_ms.unwrap_or(0));
            self.schedule(
                deadline.max(self.now).saturating_add(1),
                Item::OutputTimeout(t, barrier.id),
            );
            OutputBarrier::Queued
        } else {
            OutputBarrier::Sent
        }
    }

    /// Flink: `InputChannel.checkpointStarted` → `ChannelStatePersister.startPersisting`
    /// (unaligned) — the records queued in the input channels whose barrier has not
    /// been received are persisted, and so is what arrives on them until it is.
    pub(super) fn capture_input_channel_state(
        &mut self,
        t: TaskId,
        id: CheckpointId,
        persist: &[ChannelIndex],
    ) {
        if persist.is_empty() {
            return;
        }
        let mut records = BTreeMap::new();
        // Channels whose priority barrier has arrived (being handled, or waiting
        // behind the record in progress): exactly the records it overtook.
        let mut overtaken: BTreeMap<ChannelIndex, usize> = self.tasks[t]
            .priority
            .iter()
            .filter(|(_, b, _)| b.id == id)
            .map(|(ch, _, n)| (*ch, *n))
            .collect();
        overtaken.extend(self.tasks[t].overtaking);
        for ch in persist {
            let c = self.graph.tasks[t].inputs[*ch];
            let queue = &self.channels[c];
            let recs = match overtaken.get(ch) {
                Some(&ahead) => queue.queued_records_in_first(ahead),
                _ => queue.queued_records_before(id),
            };
            records.insert(*ch, recs);
        }
        self.tasks[t].channel_state.start(id, records);
    }

    /// Flink: `SubtaskCheckpointCoordinatorImpl.takeSnapshotSync` — the operator's
    /// state, copied while the task does nothing else. Savepoints are full
    /// (canonical format) whatever the backend.
    pub(super) fn take_snapshot_sync(
        &mut self,
        t: TaskId,
        barrier: &CheckpointBarrier,
        output_channels: BTreeMap<u32, Vec<Record>>,
        output: OutputBarrier,
        first_seen_at: u64,
    ) {
        let id = barrier.id;
        let upload = if self.coordinator.config().incremental && !barrier.is_savepoint {
            Upload::Incremental
        } else {
            Upload::Full
        };
        let is_finished = self.tasks[t].status != TaskStatus::Running;
        let name = self.name(t);
        let state = match &mut self.tasks[t].op {
            OpState::TwoPhaseCommit(s) => {
                let (ext, txn_ids) = self.external.topic_and_txn_ids(self.graph.tasks[t].op);
                s.snapshot_state(&name, id, is_finished, ext, txn_ids, &mut self.trace)
            }
            other => other.snapshot(self.now, upload),
        };
        // What the page shows travelling into chk-n (view only): the state as
        // the snapshot left it, which is what chk-n stores — for a two-phase-commit
        // sink, after `snapshotState` pre-committed its transaction and opened
        // the next (`pre-committed T1 · open T2`, never the `open T1` before it).
        self.tasks[t].snapped = Some(Box::new((id, self.now, self.tasks[t].op.clone())));
        if self.tasks[t].status == TaskStatus::Waiting {
            self.tasks[t].awaiting = Some(id);
        }
        let bytes = self.tasks[t].checkpoints.take_snapshot(
            SyncSnapshot {
                task: &name,
                id,
                state,
                output_channels,
                upload,
                output,
            },
            &self.graph.keys,
        );
        self.trace.push(|| Event::SnapshotTaken {
            task: name,
            checkpoint: id,
            state_bytes: bytes,
        });
        self.coordinator
            .snapshot_taken(id, t, first_seen_at, self.now, barrier.alignment);
    }

    /// Flink: `SubtaskCheckpointCoordinatorImpl.finishAndReportAsync` — the
    /// asynchronous part (upload) ends after the configured time ([`Item::AsyncDone`]),
    /// then the subtask acknowledges once its channel state is complete too.
    pub(super) fn start_async_part(&mut self, t: TaskId, id: CheckpointId) {
        let async_ms = self.coordinator.config().async_ms;
        self.schedule(self.now + async_ms, Item::AsyncDone(t, id));
    }

    /// Flink: `prioritizeAllAnnouncements` → `InputGate.convertToPriorityEvent` —
    /// barriers of checkpoint `id` still queued behind data in the channels being
    /// persisted (an aligned-checkpoint timeout) become priority events: they
    /// overtake the queued records and the barrier handler takes them now.
    pub(super) fn handle_queued_barriers_as_priority(
        &mut self,
        t: TaskId,
        id: CheckpointId,
        persist: Vec<ChannelIndex>,
    ) {
        for ch in persist {
            let c = self.graph.tasks[t].inputs[ch];
            if let Some(barrier) = self.channels[c].take_queued_barrier(id) {
                let name = self.name(t);
                self.trace.push(|| Event::BarrierReceived {
                    task: name,
                    channel: ch,
                    checkpoint: id,
                });
                let mut actions = Vec::new();
                self.tasks[t].handler.process_barrier(
                    ch,
                    &barrier.to_unaligned(),
                    self.now,
                    &mut actions,
                );
                self.apply_actions(t, actions);
            }
        }
    }

    /// Flink: `ChannelState.prioritizeAllAnnouncements` →
    /// `RemoteInputChannel.convertToPriorityEvent` — the announced barrier of
    /// `checkpoint` still queued behind data on `channel` moves ahead of that data, to
    /// be handled as a priority (unaligned) barrier, back-pressure or not: the records
    /// it jumps are channel state and are still processed afterwards. Returns whether
    /// a barrier moved.
    pub(super) fn prioritize_queued_barrier(
        &mut self,
        t: TaskId,
        channel: ChannelIndex,
        checkpoint: CheckpointId,
    ) -> bool {
        let c = self.graph.tasks[t].inputs[channel];
        let Some((barrier, ahead)) = self.channels[c].take_queued_barrier_ahead(checkpoint) else {
            // Already read, or already handed over by a trigger's capture.
            return false;
        };
        self.tasks[t]
            .priority
            .push_back((channel, barrier.to_unaligned(), ahead));
        true
    }

    pub(super) fn stop_persisting(&mut self, t: TaskId, channel: ChannelIndex, checkpoint: CheckpointId) {
        let Some(stopped) = self.tasks[t].channel_state.stop(channel, checkpoint) else {
            return;
        };
        let name = self.name(t);
        self.trace.push(|| Event::BarrierOvertook {
            task: name,
            channel,
            checkpoint,
            records: stopped.records,
        });
        if let Some(recs) = stopped.complete {
            self.tasks[t]
                .checkpoints
                .input_channel_state(checkpoint, recs, &self.graph.keys);
            self.coordinator.alignment_ended(checkpoint, t, self.now);
            self.maybe_acknowledge(t, checkpoint);
        }
    }

    pub(super) fn barrier_in_out_queues(&self, t: TaskId, id: CheckpointId) -> bool {
        self.graph.outputs(t).any(|c| {
            self.channels[c]
                .out_queue
                .iter()
                .any(|e| matches!(e, Element::Barrier { barrier } if barrier.id == id))
        })
    }

    /// A barrier of `id` left one of `t`'s output queues for the wire.
    pub(super) fn output_barrier_left(&mut self, t: TaskId, id: CheckpointId) {
        let pending = self.tasks[t].checkpoints.is_output_pending(id);
        if pending && !self.barrier_in_out_queues(t, id) {
            self.tasks[t]
                .checkpoints
                .output_flushed(id, BTreeMap::new(), &self.graph.keys);
            self.maybe_acknowledge(t, id);
        }
    }

    /// Flink: `PipelinedSubpartition` on the task's own aligned-checkpoint timeout —
    /// a timeoutable barrier still in an output queue becomes a priority (unaligned)
    /// barrier and overtakes the records ahead of it, which become output channel state.
    pub(super) fn output_timeout(&mut self, t: TaskId, id: CheckpointId) {
        if !self.tasks[t].checkpoints.is_output_pending(id) {
            return;
        }
        let outs: Vec<ChannelId> = self.graph.outputs(t).collect();
        let mut overtaken = BTreeMap::new();
        for c in outs {
            let ch = &mut self.channels[c];
            let Some(pos) = ch
                .out_queue
                .iter()
                .position(|e| matches!(e, Element::Barrier { barrier } if barrier.id == id))
            else {
                continue;
            };
            let recs = ch.out_records_before(id);
            let output = ch.output;
            let Some(Element::Barrier { barrier }) = ch.out_queue.remove(pos) else {
                continue;
            };
            ch.overtaken_out.note(id, recs.len() as u32);
            if !recs.is_empty() {
                overtaken.insert(output, recs);
            }
            self.put_on_wire(
                c,
                Element::Barrier {
                    barrier: barrier.to_unaligned(),
                },
            );
        }
        self.tasks[t]
            .checkpoints
            .output_flushed(id, overtaken, &self.graph.keys);
        let name = self.name(t);
        self.trace.push(|| Event::AlignmentTimedOut {
            task: name,
            checkpoint: id,
        });
        self.maybe_acknowledge(t, id);
    }

    /// Acknowledge once the asynchronous phase and the channel state are complete.
    pub(super) fn maybe_acknowledge(&mut self, t: TaskId, id: CheckpointId) {
        let input = if self.tasks[t].channel_state.is_capturing(id) {
            InputCapture::Capturing
        } else {
            InputCapture::Done
        };
        let max_state_bytes = self.coordinator.config().max_state_bytes;
        let (snapshot, upload) =
            match self.tasks[t]
                .checkpoints
                .acknowledge(id, input, max_state_bytes)
            {
                None => return,
                Some(Acknowledgement::Ack { snapshot, upload }) => (snapshot, upload),
                Some(Acknowledgement::Decline { message }) => {
                    let name = self.name(t);
                    let cause = AbortCause::DeclinedAsync(message);
                    self.trace.push(|| Event::CheckpointDeclined {
                        task: name,
                        checkpoint: id,
                        reason: cause.clone(),
                    });
                    if self.coordinator.is_pending(id) {
                        self.abort_checkpoint(id, cause);
                    }
                    return;
                }
            };
        if let Some(upload) = upload {
            // Flink registers shared state on acknowledgement, even for a checkpoint
            // that is already gone.
            let private_bytes = snapshot.state_bytes.saturating_sub(upload.keyed_bytes);
            let name = self.name(t);
            self.coordinator
                .register_shared(id, t, &name, &upload, private_bytes);
            // Kept until notified: a completed checkpoint becomes the incremental base.
            self.tasks[t].checkpoints.keep_candidate(id, upload);
        }
        if !self.coordinator.is_pending(id) {
            return; // Flink: acks for discarded checkpoints are dropped
        }
        let name = self.name(t);
        self.trace.push(|| Event::CheckpointAcknowledged {
            task: name,
            checkpoint: id,
        });
        if self.coordinator.acknowledge(id, t, snapshot, self.now) {
            self.complete_checkpoint(id);
        }
    }

    // ----- coordinator side --------------------------------------------------

    /// Whether a pipelined region is failing over: one of its tasks failed or was
    /// canceled and has not been redeployed (the job itself runs on).
    pub(super) fn region_restarting(&self) -> bool {
        self.tasks
            .iter()
            .any(|x| matches!(x.status, TaskStatus::Failed | TaskStatus::Canceled))
    }

    pub(super) fn periodic_trigger(&mut self, generation: u32) {
        // A region failing over stops the scheduler (Flink 2.3:
        // ExecutionTrackingCheckpointCoordinatorDeActivator); the lab starts it
        // again once every task runs.
        if !self.job.is_running() || self.region_restarting() {
            return;
        }
        let Some(next_at) = self.coordinator.periodic_fired(generation, self.now) else {
            return; // stale: rescheduled or restarted since
        };
        self.schedule(next_at, Item::PeriodicTrigger(generation));
        if self.tasks.iter().all(|x| x.status == TaskStatus::Finished) {
            return;
        }
        self.coordinator
            .offer(SnapshotKind::Checkpoint, TriggerOrigin::Periodic);
        self.try_trigger();
    }

    pub(super) fn try_trigger(&mut self) {
        if !self.job.is_running() || self.coordinator.is_final_completed() {
            self.coordinator.clear_queue();
            return;
        }
        loop {
            match self.coordinator.decide(self.now) {
                Decision::Start(req) => self.start_checkpoint(req),
                Decision::DroppedMinPause {
                    reschedule_at,
                    generation,
                } => {
                    self.trace.push(|| Event::CheckpointSkipped {
                        reason: SkipCause::MinimumTimeBetweenCheckpoints,
                    });
                    self.schedule(reschedule_at, Item::PeriodicTrigger(generation));
                }
                Decision::Wait => return,
            }
        }
    }

    pub(super) fn start_checkpoint(&mut self, req: crate::coordinator::TriggerRequest) {
        // A region failing over: its tasks are not running, so a trigger (a manual
        // one; the periodic scheduler is stopped) fails pre-flight (Flink:
        // DefaultCheckpointPlanCalculator.checkTasksStarted, NOT_ALL_REQUIRED_TASKS_RUNNING).
        if self.region_restarting() {
            self.trace.push(|| Event::CheckpointSkipped {
                reason: SkipCause::RegionRestarting,
            });
            return;
        }
        // Flink: DefaultCheckpointPlanCalculator. Finished tasks are not waited
        // for; their final state goes into the checkpoint as it is.
        let waiting: Vec<TaskId> = self
            .tasks
            .ids()
            .filter(|t| {
                matches!(
                    self.tasks[*t].status,
                    TaskStatus::Running | TaskStatus::Waiting
                )
            })
            .collect();
        if waiting.is_empty() {
            return;
        }
        let finished: Vec<TaskId> = self
            .tasks
            .ids()
            .filter(|t| self.tasks[*t].status == TaskStatus::Finished)
            .collect();
        if !finished.is_empty() && !self.coordinator.config().after_tasks_finish {
            // Flink: NOT_ALL_REQUIRED_TASKS_RUNNING, a pre-flight failure (never counted).
            self.trace.push(|| Event::CheckpointSkipped {
                reason: SkipCause::NotAllRequiredTasksRunning,
            });
            return;
        }
        let all: Vec<TaskId> = waiting.iter().chain(&finished).copied().collect();
        let id = self.coordinator.start(&req, self.now, all);
        let unaligned = self
            .coordinator
            .pending_checkpoint(id)
            .is_some_and(|p| p.barrier.is_unaligned());
        let kind = req.kind;
        self.trace.push(|| Event::CheckpointTriggered {
            checkpoint: id,
            kind,
            unaligned,
        });
        if let Some(at) = self.coordinator.expires_at(id) {
            self.schedule(at, Item::CheckpointTimeout(id));
        }
        // Tasks to trigger: running sources, and running tasks whose predecessors all finished.
        for t in &waiting {
            let preds_done = self
                .graph
                .task(*t)
                .predecessors
                .iter()
                .all(|p| self.tasks[*p].status == TaskStatus::Finished);
            if preds_done {
                self.schedule(self.now, Item::TriggerTask(*t, id));
            }
        }
        for t in finished {
            let snapshot = self.finished_snapshot(t);
            if self.coordinator.acknowledge(id, t, snapshot, self.now) {
                self.complete_checkpoint(id);
                return;
            }
        }
    }

    pub(super) fn finished_snapshot(&self, t: TaskId) -> TaskSnapshot {
        let upload = if self.coordinator.config().incremental {
            Upload::Incremental
        } else {
            Upload::Full
        };
        TaskSnapshot::finished(self.tasks[t].op.snapshot(self.now, upload))
    }

    pub(super) fn trigger_task(&mut self, t: TaskId, id: CheckpointId) {
        let Some(p) = self.coordinator.pending_checkpoint(id) else {
            return;
        };
        let barrier = p.barrier.clone();
        match self.tasks[t].status {
            TaskStatus::Running if self.op_kind(t) == OperatorKind::Source => {
                self.perform_checkpoint(t, barrier, Vec::new(), self.now)
            }
            // Inputs ended but not yet drained: checkpoint at the end of input.
            TaskStatus::Running => self.tasks[t].deferred_trigger = Some(barrier),
            TaskStatus::Waiting => self.perform_checkpoint(t, barrier, Vec::new(), self.now),
            // It finished after the checkpoint started: its barrier will never go out.
            TaskStatus::Finished => {
                let name = self.name(t);
                let cause = AbortCause::TaskClosing;
                self.trace.push(|| Event::CheckpointDeclined {
                    task: name,
                    checkpoint: id,
                    reason: cause.clone(),
                });
                self.abort_checkpoint(id, cause);
            }
            TaskStatus::Failed | TaskStatus::Canceled => {}
        }
    }

    pub(super) fn complete_checkpoint(&mut self, id: CheckpointId) {
        // Flink: CheckpointCoordinator.finalizeCheckpoint → DefaultCheckpointPlan.
        // fulfillFinishedTaskStatus; its PartialFinishingNotSupportedByStateException
        // aborts the checkpoint as CHECKPOINT_DECLINED_TASK_CLOSING.
        let partly = self.coordinator.pending_checkpoint(id).and_then(|p| {
            self.graph
                .partly_finished_union_state(|t| p.acknowledged.get(&t).is_some_and(|s| s.finished))
                .map(str::to_string)
        });
        if let Some(uid) = partly {
            self.abort_checkpoint(id, AbortCause::PartlyFinishedUnionState(uid));
            return;
        }
        let Some((completed, subsumed)) = self.coordinator.complete(id, self.now) else {
            return;
        };
        self.trace
            .push(|| Event::CheckpointCompleted { checkpoint: id });
        if let Some(gone) = self.coordinator.take_claimed_deleted() {
            self.trace
                .push(|| Event::ClaimedSnapshotDeleted { checkpoint: gone });
        }
        for s in subsumed {
            self.abort_checkpoint(s, AbortCause::Subsumed);
        }
        if completed.kind != SnapshotKind::Savepoint {
            for t in self.tasks.ids() {
                self.schedule(self.now, Item::NotifyComplete(t, id));
            }
        }
        if completed.kind == SnapshotKind::StopWithSavepoint {
            self.schedule(self.now, Item::StopJob);
        }
        self.try_trigger();
    }

    pub(super) fn abort_checkpoint(&mut self, id: CheckpointId, cause: AbortCause) {
        let is_final = self
            .coordinator
            .pending_checkpoint(id)
            .is_some_and(|p| p.is_final);
        let Some(exceeded) = self.coordinator.abort(id, &cause, self.now) else {
            return;
        };
        self.trace.push(|| Event::CheckpointAborted {
            checkpoint: id,
            reason: cause.clone(),
        });
        if cause != AbortCause::JobFailover && cause != AbortCause::JobCanceled {
            for t in self.tasks.ids() {
                self.schedule(self.now, Item::NotifyAborted(t, id));
            }
        }
        if is_final && self.job.is_running() {
            // The next periodic checkpoint takes its place; without one, ask again.
            if self.coordinator.final_aborted() {
                self.check_drained();
            }
        }
        if exceeded {
            self.failover(None, FailureCause::TolerableFailuresExceeded(cause));
            return;
        }
        if cause != AbortCause::JobFailover && cause != AbortCause::JobCanceled {
            self.try_trigger();
        }
    }

    /// Whether a notification reaches the task: only a running or waiting one.
    pub(super) fn is_notifiable(&self, t: TaskId) -> bool {
        matches!(
            self.tasks[t].status,
            TaskStatus::Running | TaskStatus::Waiting
        )
    }

    /// Flink: `StreamTask.notifyCheckpointCompleteAsync`.
    pub(super) fn notify_checkpoint_complete(&mut self, t: TaskId, id: CheckpointId) {
        if !self.is_notifiable(t) {
            return;
        }
        if let OpState::TwoPhaseCommit(s) = &mut self.tasks[t].op {
            let ext = self.external.topic(self.graph.tasks[t].op);
            s.notify_checkpoint_complete(id, ext, &mut self.trace);
        }
        // The completed snapshot becomes the incremental base (Flink: RocksDB's
        // notifyCheckpointComplete makes its SST set the base).
        self.tasks[t].checkpoints.notify_complete(id);
        if self.tasks[t].status == TaskStatus::Waiting
            && self.tasks[t].awaiting.is_some_and(|a| id >= a)
        {
            self.finish_task(t);
        }
    }

    /// Flink: `StreamTask.notifyCheckpointAbortAsync`.
    pub(super) fn notify_checkpoint_aborted(&mut self, t: TaskId, id: CheckpointId) {
        if !self.is_notifiable(t) {
            return;
        }
        // Cancel the asynchronous part; Flink forgets the aborted checkpoint's uploads.
        self.tasks[t].checkpoints.notify_aborted(id);
        self.tasks[t].channel_state.abort(id);
    }

    pub(super) fn abort_all_pending(&mut self, cause: AbortCause) {
        let ids: Vec<CheckpointId> = self.coordinator.pending().keys().copied().collect();
        for id in ids {
            self.abort_checkpoint(id, cause.clone());
        }
        self.coordinator.clear_queue();
    }

    pub(super) fn close_sinks(&mut self) {
        for t in self.tasks.ids() {
            if let OpState::TwoPhaseCommit(s) = &mut self.tasks[t].op {
                let ext = self.external.topic(self.graph.tasks[t].op);
                s.close(ext, &mut self.trace);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    /// A source whose only output is back-pressured: a slow sink behind a channel
    /// of capacity 1, so whatever the source sends next waits in its output queue.
    fn backpressured_source() -> (World, TaskId) {
        let json = serde_json::json!({
            "version": 1, "name": "output-timer", "seed": 1,
            "job": {"operators": [
                {"uid": "src", "kind": "source", "parallelism": 1, "partitions": [
                    {"generate": {"count": 100, "every_ms": 1, "keys": ["a"], "values": "sequence"}}]},
                {"uid": "out", "kind": "sink", "sink": "at_least_once", "parallelism": 1, "process_ms": 50}],
             "edges": [{"from": "src", "to": "out", "latency_ms": 1, "buffer_capacity": 1}]},
        });
        let s = Scenario::from_json(&json.to_string()).expect("valid scenario");
        let mut w = World::new(&s, 1).expect("builds");
        w.run_until(200, |_| {});
        let src = w.task_id("src#0").expect("src#0");
        assert!(w.is_backpressured(src), "the source waits for credit at 200");
        (w, src)
    }

    /// When the output-side alignment timer of checkpoint 99 is due, as scheduled
    /// for an aligned barrier (timeout 30 ms) created at `created_at` and
    /// forwarded into the back-pressured output queue at 200.
    fn output_timer_due(created_at: u64) -> u64 {
        let (mut w, src) = backpressured_source();
        let barrier = CheckpointBarrier {
            id: CheckpointId(99),
            created_at,
            is_savepoint: false,
            alignment: Alignment::Aligned,
            aligned_timeout_ms: Some(30),
        };
        w.broadcast_barrier(src, &barrier);
        assert_eq!(
            w.register_alignment_timer(src, &barrier),
            OutputBarrier::Queued,
            "the barrier waits behind the queued record"
        );
        std::iter::from_fn(|| w.agenda.pop())
            .find(|(_, item)| *item == Item::OutputTimeout(src, CheckpointId(99)))
            .map(|(at, _)| at)
            .expect("an output timer is scheduled")
    }

    /// Flink: `BarrierAlignmentUtil.getTimerDelay` (max(T - elapsed, 0)) plus the
    /// processing-time timer's millisecond (`ProcessingTimeServiceUtil.getProcessingTimeDelay`):
    /// due at max(created + T, now) + 1.
    #[test]
    fn the_output_timer_fires_one_millisecond_after_the_deadline_or_now() {
        // Forwarded before the deadline (190 + 30 = 220): 1 ms after the deadline.
        assert_eq!(output_timer_due(190), 221);
        // Forwarded exactly at the deadline (170 + 30 = 200): 1 ms after it.
        assert_eq!(output_timer_due(170), 201);
        // Forwarded after the deadline (100 + 30 = 130): 1 ms after now, not now.
        assert_eq!(output_timer_due(100), 201);
    }
}
