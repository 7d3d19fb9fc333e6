//! The data path: sources polling their logs, records routed into channels, the
//! network (latency, credit-based capacity, output queues), and a task's input side —
//! its mailbox, the record in progress, its sink writes, its end of input.
//!
//! Flink: `SourceStreamTask` / `SourceReader`, `RecordWriter` with its
//! `StreamPartitioner`, `RemoteInputChannel` credits, `StreamTask`'s
//! `MailboxProcessor` and `StreamInputProcessor`. Barriers travel this path as
//! elements; what a task does on one is the checkpoint path's
//! (`checkpoint_path.rs`).

use super::schedule::Item;
use super::World;
use crate::barrier::Alignment;
use crate::cause::FailureCause;
use crate::channel::{Element, Queued};
use crate::event::Event;
use crate::ids::{ChannelId, ChannelIndex, CheckpointId, TaskId};
use crate::job_graph::Route;
use crate::operators::{self, OpState, Output, SourcePoll};
use crate::record::Record;
use crate::scenario::{OperatorKind, SinkKind};
use crate::status::TaskStatus;
use crate::two_phase_commit::Write;
use super::observed::StateEntry;
use super::task::Busy;

impl World {
    pub(super) fn schedule_poll(&mut self, t: TaskId) {
        let task = &mut self.tasks[t];
        if !task.poll_scheduled && task.busy.is_none() {
            task.poll_scheduled = true;
            self.schedule(self.now, Item::Poll(t));
        }
    }

    /// Schedule the source's next emission, or finish it when its log is read.
    pub(super) fn schedule_source(&mut self, t: TaskId) {
        let task = &self.tasks[t];
        let OpState::Source(s) = &task.op else { return };
        if s.emit_scheduled || s.stopped || task.status != TaskStatus::Running {
            return;
        }
        match s.next_due(&self.graph.logs[self.graph.tasks[t].op]) {
            Some(due) => {
                let at = due.max(s.next_allowed_at).max(self.now);
                if let OpState::Source(s) = &mut self.tasks[t].op {
                    s.emit_scheduled = true;
                }
                self.schedule(at, Item::SourceEmit(t));
            }
            None => self.finish_task(t),
        }
    }

    pub(super) fn source_emit(&mut self, t: TaskId) {
        let op = self.graph.task(t).op;
        let interval = self.graph.scenario.job.operators[op].emit_interval_ms();
        if let OpState::Source(s) = &mut self.tasks[t].op {
            s.emit_scheduled = false;
        }
        if self.tasks[t].status != TaskStatus::Running || self.is_backpressured(t) {
            return; // woken again when its outputs drain
        }
        let OpState::Source(s) = &mut self.tasks[t].op else {
            return;
        };
        let (partition, offset, rec) = match s.poll(&self.graph.logs[op], self.now, interval) {
            SourcePoll::Emit {
                partition,
                offset,
                record,
            } => (partition, offset, record),
            SourcePoll::NotDue => return self.schedule_source(t),
            SourcePoll::Stopped | SourcePoll::Exhausted => return,
        };
        if self.trace.enabled {
            self.tasks[t]
                .recent
                .touch(StateEntry::Partition(partition), self.now);
            let (name, key) = (self.name(t), self.key_name(rec.key));
            self.trace.push(|| Event::RecordEmitted {
                task: name,
                partition,
                offset,
                key,
                value: rec.value,
            });
        }
        self.route(t, rec);
        self.schedule_source(t);
    }

    // ----- channels ----------------------------------------------------------

    /// Send a record along every output edge of `t`, as each edge partitions
    /// ([`OutputEdge::route`]).
    pub(super) fn route(&mut self, t: TaskId, rec: Record) {
        for oi in 0..self.graph.tasks[t].outputs.len() {
            let edge = &self.graph.tasks[t].outputs[oi];
            match edge.route(&rec, &self.graph.keys) {
                Route::One(c) => self.send(c, Element::Record { record: rec }),
                Route::RoundRobin => {
                    let c = edge.next_round_robin(&mut self.tasks[t].rr[oi]);
                    self.send(c, Element::Record { record: rec });
                }
                Route::All => {
                    for ci in 0..edge.channels.len() {
                        let c = self.graph.tasks[t].outputs[oi].channels[ci];
                        self.send(c, Element::Record { record: rec });
                    }
                }
                Route::MissingKey => {
                    let name = self.name(t);
                    self.failover(Some(name), FailureCause::MissingKey);
                    return;
                }
            }
        }
    }

    /// Send an event on every output channel of `t`.
    pub(super) fn broadcast(&mut self, t: TaskId, e: &Element) {
        let n_out = self.graph.task(t).outputs.len();
        for oi in 0..n_out {
            for ci in 0..self.graph.tasks[t].outputs[oi].channels.len() {
                let c = self.graph.tasks[t].outputs[oi].channels[ci];
                self.send(c, e.clone());
            }
        }
    }

    /// Put an element on a channel: on the wire if it fits, else in the sender's
    /// output queue ([`Channel::send`]).
    pub(super) fn send(&mut self, c: ChannelId, e: Element) {
        if let Some(arrive_at) = self.channels[c].send(e, self.now) {
            self.schedule(arrive_at, Item::Arrive(c));
        }
    }

    pub(super) fn put_on_wire(&mut self, c: ChannelId, e: Element) {
        let arrive_at = self.channels[c].put_on_wire(e, self.now);
        self.schedule(arrive_at, Item::Arrive(c));
    }

    /// Move what now fits from the sender's output queue onto the wire; wake the
    /// sender when its outputs are free again.
    pub(super) fn flush_out_queue(&mut self, c: ChannelId) {
        let mut moved = false;
        while let Some(e) = self.channels[c].pop_sendable() {
            let left = if let Element::Barrier { barrier } = &e {
                Some(barrier.id)
            } else {
                None
            };
            self.put_on_wire(c, e);
            moved = true;
            if let Some(id) = left {
                self.output_barrier_left(self.channels[c].from, id);
            }
        }
        let sender = self.channels[c].from;
        if moved && !self.is_backpressured(sender) {
            if self.op_kind(sender) == OperatorKind::Source {
                self.schedule_source(sender);
            } else {
                self.schedule_poll(sender);
            }
        }
    }

    /// Place re-injected channel state in the receiver's input queue (it counts
    /// against the channel's capacity like a record on the wire).
    pub(super) fn enqueue(&mut self, c: ChannelId, e: Element) {
        if e.is_record() {
            self.channels[c].records += 1;
        }
        self.push_arrived(c, e);
    }

    /// Append an element to the receiver's input queue with its arrival number.
    pub(super) fn push_arrived(&mut self, c: ChannelId, element: Element) {
        let task = &mut self.tasks[self.channels[c].to];
        task.arrivals += 1;
        let seq = task.arrivals;
        self.channels[c].queue.push_back(Queued {
            seq,
            arrived_at: self.now,
            element,
        });
    }

    pub(super) fn arrive(&mut self, c: ChannelId) {
        let Some(it) = self.channels[c].wire.pop_front() else {
            return;
        };
        debug_assert_eq!(it.arrive_at, self.now);
        let (to, input) = (self.channels[c].to, self.channels[c].input);
        if !matches!(self.tasks[to].status, TaskStatus::Running) {
            // A finished receiver only gets what follows its end of input: drop it.
            if let Element::Record { .. } = it.element {
                self.channels[c].records -= 1;
            }
            return;
        }
        match it.element {
            Element::Record { record } => {
                self.push_arrived(c, Element::Record { record });
                let task = &mut self.tasks[to];
                // A record behind an arrived (not yet handled) priority barrier is not channel state.
                let behind_barrier = task.priority.iter().any(|(ch, _, _)| *ch == input);
                if !behind_barrier {
                    task.channel_state.persist(input, record);
                }
                if task.handler.is_blocked(input) {
                    let checkpoint = task
                        .handler
                        .pending_checkpoints()
                        .last()
                        .copied()
                        .unwrap_or(CheckpointId(0));
                    let name = self.name(to);
                    self.trace.push(|| Event::RecordBuffered {
                        task: name,
                        channel: input,
                        checkpoint,
                    });
                } else {
                    self.schedule_poll(to);
                }
            }
            // An unaligned barrier, or any barrier of a checkpoint this task already
            // switched to unaligned (Flink converts announced barriers to priority
            // events): handled on arrival, overtaking the queued records.
            Element::Barrier { barrier }
                if barrier.alignment == Alignment::Unaligned
                    || (self.tasks[to].handler.is_unaligned()
                        && self.tasks[to]
                            .handler
                            .pending_checkpoints()
                            .contains(&barrier.id)) =>
            {
                let barrier = barrier.to_unaligned();
                // A priority event: handled on arrival, after the record in progress.
                let ahead = self.channels[c].queue.len();
                self.channels[c].overtake_queued(barrier.id);
                self.tasks[to].priority.push_back((input, barrier, ahead));
                if self.tasks[to].busy.is_none() {
                    self.handle_priority(to);
                }
            }
            element => {
                // A timeoutable barrier queued behind data is announced (Flink: EventAnnouncement).
                let announced = match &element {
                    Element::Barrier { barrier }
                        if barrier.is_timeoutable() && !self.channels[c].queue.is_empty() =>
                    {
                        Some(barrier.clone())
                    }
                    _ => None,
                };
                self.push_arrived(c, element);
                if let Some(b) = announced {
                    // Like every mailbox action, it waits for the record in progress.
                    self.tasks[to].announcements.push_back((input, b));
                    if self.tasks[to].busy.is_none() {
                        self.handle_mailbox(to);
                    }
                }
                self.schedule_poll(to);
            }
        }
    }

    // ----- task input --------------------------------------------------------

    pub(super) fn handle_priority(&mut self, t: TaskId) {
        while let Some((input, barrier, ahead)) = self.tasks[t].priority.pop_front() {
            let name = self.name(t);
            let id = barrier.id;
            self.trace.push(|| Event::BarrierReceived {
                task: name,
                channel: input,
                checkpoint: id,
            });
            let mut actions = Vec::new();
            self.tasks[t]
                .handler
                .process_barrier(input, &barrier, self.now, &mut actions);
            self.tasks[t].overtaking = Some((input, ahead));
            self.apply_actions(t, actions);
            self.tasks[t].overtaking = None;
            if self.tasks[t].status != TaskStatus::Running {
                return;
            }
        }
    }

    pub(super) fn poll(&mut self, t: TaskId) {
        self.tasks[t].poll_scheduled = false;
        if self.tasks[t].status != TaskStatus::Running || self.tasks[t].busy.is_some() {
            return;
        }
        if !self.tasks[t].priority.is_empty() || !self.tasks[t].announcements.is_empty() {
            self.handle_mailbox(t);
        }
        if self.is_backpressured(t) {
            return;
        }
        // Global arrival order, skipping blocked channels.
        let mut best: Option<(u64, ChannelIndex)> = None;
        for (input, c) in self.graph.tasks[t].inputs.iter_enumerated() {
            if self.tasks[t].handler.is_blocked(input) {
                continue;
            }
            if let Some(q) = self.channels[*c].queue.front() {
                if best.is_none_or(|(s, _)| q.seq < s) {
                    best = Some((q.seq, input));
                }
            }
        }
        let Some((_, input)) = best else { return };
        let c = self.graph.tasks[t].inputs[input];
        let q = self.channels[c].pop_queued().expect("head exists");
        match q.element {
            Element::Record { record } => {
                self.channels[c].records -= 1;
                self.flush_out_queue(c);
                let process_ms =
                    self.graph.scenario.job.operators[self.graph.tasks[t].op].process_ms;
                if process_ms == 0 {
                    self.process_record(t, input, record);
                } else {
                    let done_at = self.now + process_ms;
                    self.tasks[t].busy = Some(Busy {
                        record,
                        channel: input,
                        done_at,
                    });
                    self.schedule(done_at, Item::ProcessDone(t));
                    return;
                }
            }
            Element::Barrier { barrier } => {
                let name = self.name(t);
                let id = barrier.id;
                self.trace.push(|| Event::BarrierReceived {
                    task: name,
                    channel: input,
                    checkpoint: id,
                });
                let mut actions = Vec::new();
                self.tasks[t]
                    .handler
                    .process_barrier(input, &barrier, self.now, &mut actions);
                self.apply_actions(t, actions);
            }
            Element::Cancel { checkpoint } => {
                let mut actions = Vec::new();
                self.tasks[t].handler.process_cancellation_barrier(
                    input,
                    checkpoint,
                    self.now,
                    &mut actions,
                );
                self.apply_actions(t, actions);
            }
            Element::EndOfPartition => {
                self.tasks[t].input_ended[input] = true;
                let mut actions = Vec::new();
                self.tasks[t]
                    .handler
                    .process_end_of_partition(input, self.now, &mut actions);
                self.apply_actions(t, actions);
                if self.tasks[t].input_ended.iter().all(|e| *e) {
                    self.end_of_input(t);
                    return;
                }
            }
        }
        self.schedule_poll(t);
    }

    pub(super) fn process_done(&mut self, t: TaskId) {
        let Some(b) = self.tasks[t].busy.take() else {
            return;
        };
        debug_assert_eq!(b.done_at, self.now);
        self.process_record(t, b.channel, b.record);
        if self.tasks[t].status == TaskStatus::Running {
            self.handle_mailbox(t);
            self.schedule_poll(t);
        }
    }

    /// What waited for the record in progress (Flink's mailbox: a record is
    /// processed atomically): barrier announcements, priority barriers, and an
    /// aligned-checkpoint timer that fell due meanwhile.
    pub(super) fn handle_mailbox(&mut self, t: TaskId) {
        while let Some((input, b)) = self.tasks[t].announcements.pop_front() {
            let mut actions = Vec::new();
            self.tasks[t]
                .handler
                .process_barrier_announcement(input, &b, self.now, &mut actions);
            self.apply_actions(t, actions);
        }
        self.handle_priority(t);
        if self.tasks[t].status == TaskStatus::Running
            && self.tasks[t]
                .handler
                .next_timer_at()
                .is_some_and(|at| at <= self.now)
        {
            self.handler_timer(t);
        }
    }

    pub(super) fn process_record(&mut self, t: TaskId, input: ChannelIndex, record: Record) {
        let op_i = self.graph.tasks[t].op;
        let op = &self.graph.scenario.job.operators[op_i];
        self.tasks[t].processed += 1;
        let from_rules = op.rules_from.as_deref().is_some_and(|rules| {
            let sender = self.channels[self.graph.tasks[t].inputs[input]].from;
            self.graph.scenario.job.operators[self.graph.tasks[sender].op].uid == rules
        });
        let out = if from_rules {
            operators::apply_rule(&mut self.tasks[t].op, record)
        } else {
            operators::process(
                op,
                &mut self.tasks[t].op,
                record,
                self.now,
                &self.graph.keys,
            )
        };
        if self.trace.enabled {
            let keyed = from_rules || op.is_keyed();
            if let (true, Some(k), false) = (keyed, record.key, matches!(out, Output::Fail(_))) {
                self.tasks[t].recent.touch(StateEntry::Key(k), self.now);
            }
            let (name, key) = (self.name(t), self.key_name(record.key));
            self.trace.push(|| Event::RecordProcessed {
                task: name,
                channel: input,
                key,
                value: record.value,
                origin: record.origin,
            });
        }
        match out {
            Output::Emit(r) => self.route(t, r),
            Output::Nothing => {}
            Output::Write(r) => self.sink_write(t, r),
            Output::Fail(why) => self.failover(Some(self.name(t)), FailureCause::Operator(why)),
        }
    }

    pub(super) fn sink_write(&mut self, t: TaskId, r: Record) {
        let op = self.graph.task(t).op;
        let ext = self.external.topic(op);
        let txn = match &mut self.tasks[t].op {
            OpState::TwoPhaseCommit(s) => match s.invoke(r, ext, self.now) {
                Write::Written { txn, first } => {
                    let timeout = self.graph.scenario.job.operators[op].transaction_timeout_ms;
                    if let (true, Some(timeout)) = (first, timeout) {
                        // Strict, as Kafka's coordinator: aborted once open longer than the timeout.
                        self.agenda.push_any_attempt(
                            self.now.saturating_add(timeout).saturating_add(1),
                            Item::TransactionTimeout { op: op as u32, txn },
                        );
                    }
                    Some(txn)
                }
                Write::NoTransaction => {
                    let name = self.name(t);
                    self.failover(Some(name), FailureCause::WriteAfterFinish);
                    return;
                }
                Write::TimedOut { txn, timeout_ms } => {
                    let name = self.name(t);
                    let why = crate::sink::kafka_writer_timed_out_message(txn, timeout_ms);
                    self.failover(Some(name), FailureCause::Operator(why));
                    return;
                }
            },
            _ => {
                if self.graph.scenario.job.operators[op].sink == Some(SinkKind::Idempotent) {
                    if let Some(k) = r.key {
                        ext.table.insert(k, r.value);
                    }
                }
                ext.write_visible(r);
                None
            }
        };
        if self.trace.enabled {
            let (name, key) = (self.name(t), self.key_name(r.key));
            self.trace.push(|| Event::RecordWritten {
                task: name,
                key,
                value: r.value,
                txn,
                origin: r.origin,
            });
        }
    }

    /// The broker's transaction timeout for `txn` of sink operator `op` has passed:
    /// Kafka aborts it if it is still open or pre-committed, whatever the job does.
    pub(super) fn transaction_timeout(&mut self, op: usize, txn: u64) {
        let Some(timeout) = self.graph.scenario.job.operators[op].transaction_timeout_ms else {
            return;
        };
        self.external
            .topic(op)
            .abort_timed_out(txn, timeout, &mut self.trace);
    }

    /// Every input channel ended and was drained.
    pub(super) fn end_of_input(&mut self, t: TaskId) {
        let is_sink = self.op_kind(t) == OperatorKind::Sink;
        // FLIP-147: a sink waits for a final checkpoint to commit. Without checkpoints
        // after tasks finish it just closes, aborting its last transaction (FLINK-2491).
        let waits = self.graph.checkpointing && self.coordinator.config().after_tasks_finish;
        if is_sink && waits && self.job.is_running() {
            self.tasks[t].status = TaskStatus::Waiting;
            if let Some(b) = self.tasks[t].deferred_trigger.take() {
                self.perform_checkpoint(t, b, Vec::new(), self.now);
            }
            self.check_drained();
        } else {
            if let Some(b) = self.tasks[t].deferred_trigger.take() {
                self.perform_checkpoint(t, b, Vec::new(), self.now);
            }
            self.finish_task(t);
        }
    }

    pub(super) fn finish_task(&mut self, t: TaskId) {
        if self.tasks[t].is_stopped() {
            return;
        }
        if let OpState::TwoPhaseCommit(s) = &mut self.tasks[t].op {
            // close(): whatever was not committed by now is aborted.
            let ext = self.external.topic(self.graph.tasks[t].op);
            s.close(ext, &mut self.trace);
        }
        self.tasks[t].status = TaskStatus::Finished;
        self.broadcast(t, &Element::EndOfPartition);
        let name = self.name(t);
        self.trace.push(|| Event::TaskFinished { task: name });
        if self.tasks.iter().all(|x| x.status == TaskStatus::Finished) {
            self.job_finished();
        } else {
            self.check_drained();
        }
    }

    /// A bounded job whose tasks have all drained takes a final checkpoint so that
    /// two-phase-commit sinks can commit what they hold (FLIP-147).
    pub(super) fn check_drained(&mut self) {
        if !self.job.is_running() {
            return;
        }
        let all = self
            .tasks
            .iter()
            .all(|x| matches!(x.status, TaskStatus::Waiting | TaskStatus::Finished));
        let any_waiting = self.tasks.iter().any(|x| x.status == TaskStatus::Waiting);
        if all && any_waiting && self.coordinator.request_final() {
            self.try_trigger();
        }
    }
}
