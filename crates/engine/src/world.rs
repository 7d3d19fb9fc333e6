//! [`World`]: the whole simulation, as a value.
//!
//! `World::new(&Scenario, seed)` builds the job graph and deploys it; [`World::step`]
//! handles exactly one agenda item and returns the events it caused;
//! [`World::apply`] carries out an [`Intervention`]. `World: Clone + Serialize`,
//! random generator included, so a keyframe of the timeline is a clone.
//!
//! The World is the driver: it owns the agenda and hands each item to the part that
//! rules on it — a task's barrier handler, its checkpoint bookkeeping, the
//! coordinator, the restart strategy — then carries out what that part decided:
//! messages go on the agenda, records into channels, events into the trace. This file
//! holds the data path (sources, channels, a task's input and mailbox) and the
//! checkpoint path between tasks and coordinator (barriers, snapshots,
//! acknowledgements, triggers, notifications).
//!
//! # Layout
//! - `world/schedule.rs`: the agenda and the run attempts its items belong to.
//! - `world/build.rs`: [`World::new`] and deploying the tasks (at the start, after a restart).
//! - `world/task.rs`: a subtask's mutable state ([`Task`]).
//! - `world/failover.rs`: the job's lifecycle, failover and restart, a JobManager crash.
//! - `world/intervention.rs`: what a learner or a script does ([`Intervention`]).
//! - `world/upgrade.rs`: starting from a snapshot of an earlier job (`restore`).
//!
//! Simplified (besides what each part says):
//! - one operator per task (no chaining) and one flat channel index space per task
//!   instead of input gates;
//! - the job fails over as a whole (Flink: the failover region, the whole job for the
//!   lab's all-to-all graphs); a new JobManager recovers the job after the fixed
//!   [`JOBMANAGER_RECOVERY_MS`] (Flink: the HA services' lease and election);
//! - RPCs between JobManager and tasks (trigger, notify) take no time; network
//!   channels have a fixed latency.

use crate::barrier::{Alignment, CheckpointBarrier, HandlerAction};
use crate::cause::{FailureCause, FailureReason, SkipCause};
use crate::channel::{Channel, Element, Queued};
use crate::coordinator::{
    AbortCause, CheckpointCoordinator, CompletedCheckpoint, Decision, TriggerOrigin,
};
use crate::event::{Event, SnapshotKind, TaskName, Trace, TraceEvent};
use crate::ids::{ChannelId, ChannelIndex, CheckpointId, IdVec, TaskId};
use crate::job_graph::JobGraph;
use crate::operators::{self, OpState, Output, SourcePoll};
use crate::record::{KeyId, Record};
use crate::scenario::{OperatorKind, SinkKind};
use crate::sink::{ExternalSystems, ExternalTopic};
use crate::snapshot::TaskSnapshot;
use crate::state::shared_registry;
use crate::subtask_checkpoint::{Acknowledgement, Begin};
use crate::two_phase_commit::Write;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::job_graph::Route;
pub use crate::job_graph::{LogEntry, OutputEdge, TaskInfo};
use observed::StateEntry;

mod build;
mod failover;
mod intervention;
pub mod observed;
mod schedule;
mod task;
mod upgrade;
pub use crate::status::{JobStatus, TaskStatus};
pub use build::BuildError;
use failover::JobLifecycle;
pub use failover::{FailureRecord, Recovery, JOBMANAGER_RECOVERY_MS};
pub use intervention::{Intervention, InterventionError};
use schedule::{Item, Schedule};
use task::Busy;
pub use task::Task;
pub use upgrade::MAX_RESTORE_DEPTH;

/// The simulation. See the module documentation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct World {
    /// The job as deployed — subtasks, channel numbering, source logs, keys — fixed
    /// for the run. Behind an `Arc` so that a keyframe (a clone) shares it.
    graph: Arc<JobGraph>,
    /// Simulated time in ms: the due time of the item being handled. Never goes back.
    now: u64,
    /// What is due when, by `(time, sequence)`, with the run attempt each item
    /// belongs to; a failover drops the old attempt's items.
    agenda: Schedule,
    /// The run's one random generator (seeded from the scenario's seed; drawn in
    /// agenda order): source logs first, then each deployment's round-robin starts.
    rng: ChaCha8Rng,
    /// Subtasks by [`TaskId`] (operators in scenario order, then subtask index):
    /// recreated by every deployment.
    tasks: IdVec<TaskId, Task>,
    /// Network channels by [`ChannelId`], numbered by the graph; emptied by a failover.
    channels: IdVec<ChannelId, Channel>,
    /// The checkpoint coordinator with its store, history and periodic trigger; it
    /// survives failovers (ids, retained checkpoints, failure counter).
    coordinator: CheckpointCoordinator,
    /// The topics the sinks write to: outside the job, they survive everything.
    external: ExternalSystems,
    /// The job's status, restart strategy and failovers.
    job: JobLifecycle,
    /// The events of the current step (recorded only when tracing).
    trace: Trace,
}

impl World {
    // ----- public read API -------------------------------------------------

    /// Current simulated time.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// The job as deployed, fixed for the run: its [`JobGraph`].
    pub fn setup(&self) -> &JobGraph {
        &self.graph
    }

    /// Agenda items handled so far.
    pub fn steps(&self) -> u64 {
        self.agenda.steps()
    }

    /// The job's status.
    pub fn status(&self) -> JobStatus {
        self.job.status()
    }

    /// Why the job failed, if it did.
    pub fn failure_reason(&self) -> Option<String> {
        self.job.failure_reason().map(|r| r.to_string())
    }

    /// Why the job failed, if it did, typed.
    pub fn failure(&self) -> Option<&FailureReason> {
        self.job.failure_reason()
    }

    /// When a restart is due, while the job is restarting.
    pub fn restart_at(&self) -> Option<u64> {
        self.job.restart_at()
    }

    /// The restart strategy with what it remembers of the failures so far.
    pub fn restart_strategy(&self) -> &crate::restart::RestartStrategy {
        self.job.restart_strategy()
    }

    /// When the job finished, if it did.
    pub fn finished_at(&self) -> Option<u64> {
        self.job.finished_at()
    }

    /// The checkpoint coordinator.
    pub fn coordinator(&self) -> &CheckpointCoordinator {
        &self.coordinator
    }

    /// Subtasks, by [`TaskId`] (position [`crate::ids::Idx::index`]).
    pub fn tasks(&self) -> &[Task] {
        self.tasks.as_slice()
    }

    /// Channels, by [`ChannelId`] (position [`crate::ids::Idx::index`]).
    pub fn channels(&self) -> &[Channel] {
        self.channels.as_slice()
    }

    /// Subtasks, by id.
    pub(crate) fn task_table(&self) -> &IdVec<TaskId, Task> {
        &self.tasks
    }

    /// Channels, by id.
    pub(crate) fn channel_table(&self) -> &IdVec<ChannelId, Channel> {
        &self.channels
    }

    /// External systems by sink operator index.
    pub fn external(&self) -> &BTreeMap<usize, ExternalTopic> {
        self.external.topics()
    }

    /// Failovers so far.
    pub fn failures(&self) -> &[FailureRecord] {
        self.job.failures()
    }

    /// The subtask called `name`.
    pub fn task_id(&self, name: &str) -> Option<TaskId> {
        self.graph.task_id(name)
    }

    /// Record events from now on (off by default: the benchmarks run without).
    pub fn set_tracing(&mut self, on: bool) {
        self.trace.enabled = on;
    }

    /// Bound the memory of a long run: keep the last `n` checkpoints in the
    /// statistics history (Flink's web UI keeps `web.checkpoints.history` = 10) and
    /// at most `n` committed records and finished transactions per external topic
    /// (like a topic's retention). Off by default: `lab` reports everything.
    pub fn bound_memory(&mut self, n: usize) {
        self.coordinator.bound_history(n);
        self.external.bound(n);
    }

    /// Keep every completed checkpoint's state, not only the retained ones (for
    /// printing each checkpoint's `_metadata`).
    pub fn keep_all_completed(&mut self, on: bool) {
        self.coordinator.set_keep_all_completed(on);
    }

    /// Time of the next agenda item, if any.
    pub fn next_at(&self) -> Option<u64> {
        self.agenda.peek_at()
    }

    // ----- stepping --------------------------------------------------------

    /// Handle the next live agenda item. Returns the events it caused (empty when
    /// tracing is off), or `None` when the agenda is empty.
    pub fn step(&mut self) -> Option<&[TraceEvent]> {
        self.trace.begin_step();
        let (at, item) = self.agenda.pop()?;
        debug_assert!(at >= self.now, "time never goes back");
        self.now = at;
        self.trace.now = at;
        self.handle(item);
        Some(&self.trace.events)
    }

    /// Step until the next item would be later than `until_ms` (inclusive) or the
    /// agenda is empty; the clock then stands at `until_ms`. Calls `on_events` with
    /// each step's events.
    pub fn run_until(&mut self, until_ms: u64, mut on_events: impl FnMut(&[TraceEvent])) {
        while self.next_at().is_some_and(|t| t <= until_ms) {
            if let Some(ev) = self.step() {
                if !ev.is_empty() {
                    on_events(ev);
                }
            }
        }
        self.now = self.now.max(until_ms);
    }

    /// Run until the job stops (finished, failed, canceled) or, when `until_ms` is
    /// given, to exactly that time; without it never past `limit_ms`.
    pub fn run_to_end(
        &mut self,
        until_ms: Option<u64>,
        limit_ms: u64,
        mut on_events: impl FnMut(&[TraceEvent]),
    ) {
        match until_ms {
            Some(until) => self.run_until(until, on_events),
            None => {
                while matches!(
                    self.job.status(),
                    JobStatus::Running | JobStatus::Restarting
                ) && self.next_at().is_some_and(|t| t <= limit_ms)
                {
                    if let Some(evs) = self.step() {
                        if !evs.is_empty() {
                            on_events(evs);
                        }
                    }
                }
                if matches!(
                    self.job.status(),
                    JobStatus::Running | JobStatus::Restarting
                ) {
                    self.run_until(limit_ms, |_| {});
                }
            }
        }
    }

    /// Carry out an intervention now.
    pub fn apply(&mut self, intervention: Intervention) -> Result<(), InterventionError> {
        if let Intervention::Crash { task } = &intervention {
            if self.task_id(task).is_none() {
                return Err(InterventionError::UnknownTask { task: task.clone() });
            }
        }
        self.trace.events.clear();
        self.trace.now = self.now;
        self.intervene(intervention);
        Ok(())
    }

    /// Events caused by the last [`World::apply`].
    pub fn last_events(&self) -> &[TraceEvent] {
        &self.trace.events
    }

    fn schedule(&mut self, at: u64, item: Item) {
        self.agenda.push(at, item);
    }

    fn handle(&mut self, item: Item) {
        match item {
            Item::SourceEmit(t) => self.source_emit(t),
            Item::Arrive(c) => self.arrive(c),
            Item::Poll(t) => self.poll(t),
            Item::ProcessDone(t) => self.process_done(t),
            Item::HandlerTimer(t) => self.handler_timer(t),
            Item::AsyncDone(t, id) => {
                if self.tasks[t].checkpoints.async_done(id) {
                    self.maybe_acknowledge(t, id);
                }
            }
            Item::OutputTimeout(t, id) => self.output_timeout(t, id),
            Item::TriggerTask(t, id) => self.trigger_task(t, id),
            Item::PeriodicTrigger(generation) => self.periodic_trigger(generation),
            Item::CheckpointTimeout(id) => {
                if self.coordinator.is_expired(id, self.now) {
                    self.abort_checkpoint(id, AbortCause::Expired);
                }
            }
            Item::NotifyComplete(t, id) => self.notify_checkpoint_complete(t, id),
            Item::NotifyAborted(t, id) => self.notify_checkpoint_aborted(t, id),
            Item::StopJob => self.stop_job(),
            Item::Script(i) => {
                let step = &self.graph.scenario.script[i as usize];
                let iv = Intervention::from_step(step);
                self.intervene(iv);
            }
            Item::Restart => self.restart_job(),
            Item::TransactionTimeout { op, txn } => self.transaction_timeout(op as usize, txn),
        }
    }

    // ----- names and small helpers ------------------------------------------

    fn name(&self, t: TaskId) -> TaskName {
        self.graph.name(t)
    }

    fn op_kind(&self, t: TaskId) -> OperatorKind {
        self.graph.op_kind(t)
    }

    fn key_name(&self, k: Option<KeyId>) -> Option<Arc<str>> {
        self.graph.key_name(k)
    }

    /// Its outputs are full: something waits in an output queue, so it takes no input.
    pub fn is_backpressured(&self, t: TaskId) -> bool {
        self.graph
            .outputs(t)
            .any(|c| !self.channels[c].out_queue.is_empty())
    }

    fn schedule_poll(&mut self, t: TaskId) {
        let task = &mut self.tasks[t];
        if !task.poll_scheduled && task.busy.is_none() {
            task.poll_scheduled = true;
            self.schedule(self.now, Item::Poll(t));
        }
    }

    /// Schedule the source's next emission, or finish it when its log is read.
    fn schedule_source(&mut self, t: TaskId) {
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

    fn source_emit(&mut self, t: TaskId) {
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
    fn route(&mut self, t: TaskId, rec: Record) {
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
    fn broadcast(&mut self, t: TaskId, e: &Element) {
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
    fn send(&mut self, c: ChannelId, e: Element) {
        if let Some(arrive_at) = self.channels[c].send(e, self.now) {
            self.schedule(arrive_at, Item::Arrive(c));
        }
    }

    fn put_on_wire(&mut self, c: ChannelId, e: Element) {
        let arrive_at = self.channels[c].put_on_wire(e, self.now);
        self.schedule(arrive_at, Item::Arrive(c));
    }

    /// Move what now fits from the sender's output queue onto the wire; wake the
    /// sender when its outputs are free again.
    fn flush_out_queue(&mut self, c: ChannelId) {
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
    fn enqueue(&mut self, c: ChannelId, e: Element) {
        if e.is_record() {
            self.channels[c].records += 1;
        }
        self.push_arrived(c, e);
    }

    /// Append an element to the receiver's input queue with its arrival number.
    fn push_arrived(&mut self, c: ChannelId, element: Element) {
        let task = &mut self.tasks[self.channels[c].to];
        task.arrivals += 1;
        let seq = task.arrivals;
        self.channels[c].queue.push_back(Queued {
            seq,
            arrived_at: self.now,
            element,
        });
    }

    fn arrive(&mut self, c: ChannelId) {
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

    fn handle_priority(&mut self, t: TaskId) {
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

    fn poll(&mut self, t: TaskId) {
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

    fn process_done(&mut self, t: TaskId) {
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
    fn handle_mailbox(&mut self, t: TaskId) {
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

    fn process_record(&mut self, t: TaskId, input: ChannelIndex, record: Record) {
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

    fn sink_write(&mut self, t: TaskId, r: Record) {
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
    fn transaction_timeout(&mut self, op: usize, txn: u64) {
        let Some(timeout) = self.graph.scenario.job.operators[op].transaction_timeout_ms else {
            return;
        };
        self.external
            .topic(op)
            .abort_timed_out(txn, timeout, &mut self.trace);
    }

    /// Every input channel ended and was drained.
    fn end_of_input(&mut self, t: TaskId) {
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

    fn finish_task(&mut self, t: TaskId) {
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
    fn check_drained(&mut self) {
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

    fn handler_timer(&mut self, t: TaskId) {
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

    fn sync_timer(&mut self, t: TaskId) {
        let want = self.tasks[t].handler.next_timer_at();
        if want != self.tasks[t].timer_at {
            self.tasks[t].timer_at = want;
            if let Some(at) = want {
                self.schedule(at.max(self.now), Item::HandlerTimer(t));
            }
        }
    }

    // ----- barrier handler actions ------------------------------------------

    fn apply_actions(&mut self, t: TaskId, actions: Vec<HandlerAction>) {
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
    fn perform_checkpoint(
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
        let output_pending = self.register_alignment_timer(t, &barrier);
        self.capture_input_channel_state(t, id, &persist);
        self.take_snapshot_sync(t, &barrier, output_channels, output_pending, first_seen_at);
        self.start_async_part(t, id);
        self.handle_queued_barriers_as_priority(t, id, persist);
    }

    /// Flink: `SubtaskCheckpointCoordinatorImpl.checkpointState`, step 0
    /// (`checkAndClearAbortedStatus`). Whether to take checkpoint `id`: not if it is
    /// out of order, nor if the coordinator aborted it before its barrier got here —
    /// then the subtask takes no snapshot and passes the news on with a
    /// `CancelCheckpointMarker`.
    fn begin_checkpoint(&mut self, t: TaskId, id: CheckpointId) -> bool {
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
    fn prepare_snapshot_pre_barrier(&mut self, t: TaskId, id: CheckpointId) {
        if self.op_kind(t) == OperatorKind::Source {
            self.stop_source_for_savepoint(t, id);
        }
    }

    /// Flink: `SourceOperator.stop` from `triggerStopWithSavepointAsync` — a
    /// source taking a stop-with-savepoint (a synchronous savepoint) emits nothing
    /// after its barrier.
    fn stop_source_for_savepoint(&mut self, t: TaskId, id: CheckpointId) {
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
    fn broadcast_barrier(
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
    fn register_alignment_timer(&mut self, t: TaskId, barrier: &CheckpointBarrier) -> bool {
        let output_pending = barrier.is_timeoutable() && self.barrier_in_out_queues(t, barrier.id);
        if output_pending {
            let timeout = barrier.aligned_timeout_ms.unwrap_or(0);
            // Strict check, as at the input: timed out once more than T has passed since creation.
            self.schedule(
                (barrier.created_at + timeout + 1).max(self.now),
                Item::OutputTimeout(t, barrier.id),
            );
        }
        output_pending
    }

    /// Flink: `InputChannel.checkpointStarted` → `ChannelStatePersister.startPersisting`
    /// (unaligned) — the records queued in the input channels whose barrier has not
    /// been received are persisted, and so is what arrives on them until it is.
    fn capture_input_channel_state(
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
    fn take_snapshot_sync(
        &mut self,
        t: TaskId,
        barrier: &CheckpointBarrier,
        output_channels: BTreeMap<u32, Vec<Record>>,
        output_pending: bool,
        first_seen_at: u64,
    ) {
        let id = barrier.id;
        let incremental = self.coordinator.config().incremental && !barrier.is_savepoint;
        let is_finished = self.tasks[t].status != TaskStatus::Running;
        let name = self.name(t);
        let state = match &mut self.tasks[t].op {
            OpState::TwoPhaseCommit(s) => {
                let (ext, txn_ids) = self.external.topic_and_txn_ids(self.graph.tasks[t].op);
                s.snapshot_state(&name, id, is_finished, ext, txn_ids, &mut self.trace)
            }
            other => other.snapshot(self.now, !incremental),
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
            &name,
            id,
            state,
            output_channels,
            incremental,
            output_pending,
            &self.graph.keys,
        );
        self.trace.push(|| Event::SnapshotTaken {
            task: name,
            checkpoint: id,
            state_bytes: bytes,
        });
        let unaligned = barrier.alignment == Alignment::Unaligned;
        self.coordinator
            .snapshot_taken(id, t, first_seen_at, self.now, unaligned);
    }

    /// Flink: `SubtaskCheckpointCoordinatorImpl.finishAndReportAsync` — the
    /// asynchronous part (upload) ends after the configured time ([`Item::AsyncDone`]),
    /// then the subtask acknowledges once its channel state is complete too.
    fn start_async_part(&mut self, t: TaskId, id: CheckpointId) {
        let async_ms = self.coordinator.config().async_ms;
        self.schedule(self.now + async_ms, Item::AsyncDone(t, id));
    }

    /// Flink: `prioritizeAllAnnouncements` → `InputGate.convertToPriorityEvent` —
    /// barriers of checkpoint `id` still queued behind data in the channels being
    /// persisted (an aligned-checkpoint timeout) become priority events: they
    /// overtake the queued records and the barrier handler takes them now.
    fn handle_queued_barriers_as_priority(
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
    fn prioritize_queued_barrier(
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

    fn stop_persisting(&mut self, t: TaskId, channel: ChannelIndex, checkpoint: CheckpointId) {
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

    fn barrier_in_out_queues(&self, t: TaskId, id: CheckpointId) -> bool {
        self.graph.outputs(t).any(|c| {
            self.channels[c]
                .out_queue
                .iter()
                .any(|e| matches!(e, Element::Barrier { barrier } if barrier.id == id))
        })
    }

    /// A barrier of `id` left one of `t`'s output queues for the wire.
    fn output_barrier_left(&mut self, t: TaskId, id: CheckpointId) {
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
    fn output_timeout(&mut self, t: TaskId, id: CheckpointId) {
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
    fn maybe_acknowledge(&mut self, t: TaskId, id: CheckpointId) {
        let capturing = self.tasks[t].channel_state.is_capturing(id);
        let max_state_bytes = self.coordinator.config().max_state_bytes;
        let (snapshot, upload) =
            match self.tasks[t]
                .checkpoints
                .acknowledge(id, capturing, max_state_bytes)
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

    fn periodic_trigger(&mut self, generation: u32) {
        if !self.job.is_running() {
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

    fn try_trigger(&mut self) {
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

    fn start_checkpoint(&mut self, req: crate::coordinator::TriggerRequest) {
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

    fn finished_snapshot(&self, t: TaskId) -> TaskSnapshot {
        let full = !self.coordinator.config().incremental;
        TaskSnapshot::finished(self.tasks[t].op.snapshot(self.now, full))
    }

    fn trigger_task(&mut self, t: TaskId, id: CheckpointId) {
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

    fn complete_checkpoint(&mut self, id: CheckpointId) {
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

    fn abort_checkpoint(&mut self, id: CheckpointId, cause: AbortCause) {
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
    fn is_notifiable(&self, t: TaskId) -> bool {
        matches!(
            self.tasks[t].status,
            TaskStatus::Running | TaskStatus::Waiting
        )
    }

    /// Flink: `StreamTask.notifyCheckpointCompleteAsync`.
    fn notify_checkpoint_complete(&mut self, t: TaskId, id: CheckpointId) {
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
    fn notify_checkpoint_aborted(&mut self, t: TaskId, id: CheckpointId) {
        if !self.is_notifiable(t) {
            return;
        }
        // Cancel the asynchronous part; Flink forgets the aborted checkpoint's uploads.
        self.tasks[t].checkpoints.notify_aborted(id);
        self.tasks[t].channel_state.abort(id);
    }

    fn abort_all_pending(&mut self, cause: AbortCause) {
        let ids: Vec<CheckpointId> = self.coordinator.pending().keys().copied().collect();
        for id in ids {
            self.abort_checkpoint(id, cause.clone());
        }
        self.coordinator.clear_queue();
    }

    fn close_sinks(&mut self) {
        for t in self.tasks.ids() {
            if let OpState::TwoPhaseCommit(s) = &mut self.tasks[t].op {
                let ext = self.external.topic(self.graph.tasks[t].op);
                s.close(ext, &mut self.trace);
            }
        }
    }

    // ----- what checkpoint storage holds --------------------------------------

    /// The files of a completed checkpoint in checkpoint storage
    /// ([`shared_registry::SharedStateRegistry::storage_files`]).
    /// The snapshot a job was started from lists the earlier job's files.
    pub fn storage_files(&self, c: &CompletedCheckpoint) -> Vec<shared_registry::StorageFile> {
        if let Some(files) = self.coordinator.restored_files(c.id) {
            return files.to_vec();
        }
        self.coordinator
            .shared()
            .storage_files(c, |t| self.graph.name(t).to_string())
    }
}
