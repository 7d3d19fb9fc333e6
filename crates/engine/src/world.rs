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
//! messages go on the agenda, records into channels, events into the trace. Every
//! agenda item is one [`Item`](schedule::Item) of work, and one closed `match`
//! ([`World::step`]'s dispatch) hands it to the path it belongs to.
//!
//! # Layout
//! - `world/data_path.rs`: sources, routing, channels, a task's input and mailbox.
//! - `world/checkpoint_path.rs`: barrier handler actions, a subtask's checkpoint,
//!   trigger, acknowledge, complete, abort, notify.
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
//! - a new JobManager recovers the job after the fixed [`JOBMANAGER_RECOVERY_MS`]
//!   (Flink: the HA services' lease and election);
//! - RPCs between JobManager and tasks (trigger, notify) take no time; network
//!   channels have a fixed latency.

use crate::cause::FailureReason;
use crate::channel::Channel;
use crate::coordinator::{CheckpointCoordinator, CompletedCheckpoint};
use crate::event::{TaskName, Trace, TraceEvent};
use crate::ids::{ChannelId, IdVec, TaskId};
use crate::job_graph::JobGraph;
use crate::record::KeyId;
use crate::scenario::OperatorKind;
use crate::sink::{ExternalSystems, ExternalTopic};
use crate::state::shared_registry;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

pub use crate::job_graph::{LogEntry, OutputEdge, TaskInfo};

mod build;
mod checkpoint_path;
mod data_path;
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

    /// The one dispatch: each kind of work goes to the path that rules on it.
    fn handle(&mut self, item: Item) {
        match item {
            // The data path (`data_path.rs`).
            Item::SourceEmit(t) => self.source_emit(t),
            Item::Arrive(c) => self.arrive(c),
            Item::Poll(t) => self.poll(t),
            Item::ProcessDone(t) => self.process_done(t),
            Item::TransactionTimeout { op, txn } => self.transaction_timeout(op as usize, txn),
            // The checkpoint path (`checkpoint_path.rs`).
            Item::HandlerTimer(t) => self.handler_timer(t),
            Item::AsyncDone(t, id) => self.async_done(t, id),
            Item::OutputTimeout(t, id) => self.output_timeout(t, id),
            Item::TriggerTask(t, id) => self.trigger_task(t, id),
            Item::PeriodicTrigger(generation) => self.periodic_trigger(generation),
            Item::CheckpointTimeout(id) => self.checkpoint_timeout(id),
            Item::NotifyComplete(t, id) => self.notify_checkpoint_complete(t, id),
            Item::NotifyAborted(t, id) => self.notify_checkpoint_aborted(t, id),
            // The job's lifecycle (`failover.rs`, `intervention.rs`).
            Item::StopJob => self.stop_job(),
            Item::Script(i) => {
                let step = &self.graph.scenario.script[i as usize];
                let iv = Intervention::from_step(step);
                self.intervene(iv);
            }
            Item::Restart => self.restart_job(),
            Item::RestartRegion { first, failure } => self.restart_region(first, failure),
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
