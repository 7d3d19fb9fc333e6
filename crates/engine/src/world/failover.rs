//! What happens when something fails: the job's status, the restart strategy's
//! verdict, the failovers so far ([`JobLifecycle`]), and how the [`World`] tears a
//! run attempt down and starts the next one.
//!
//! Flink: the JobMaster's `JobStatus` and the `DefaultScheduler`'s failure handling —
//! `ExecutionFailureHandler` asks the `RestartBackoffTimeStrategy` whether and when
//! to restart; a restart cancels every task, restores the latest completed
//! checkpoint (`CheckpointCoordinator.restoreLatestCheckpointedStateToAll`) and
//! deploys the tasks again. With high availability, a new JobMaster recovers the job
//! after the old one died.
//!
//! A task failure restarts the failed task's pipelined region
//! ([`crate::job_graph::JobGraph::pipelined_regions`]) under the default failover
//! strategy `region` (Flink: `RestartPipelinedRegionFailoverStrategy`), every task
//! under `full` (`RestartAllFailoverStrategy`); a job-level failure restarts every
//! task (`DefaultScheduler.handleGlobalFailure`). A region that is the whole job
//! fails over as the whole job does.
//!
//! Simplified: a JobManager's recovery takes the fixed [`JOBMANAGER_RECOVERY_MS`].

use super::{schedule::Item, World};
use crate::cause::{AbortCause, FailureCause, FailureReason, JobFailure};
use crate::event::{Event, TaskName};
use crate::ids::{ChannelId, CheckpointId, TaskId};
use crate::operators::OpState;
use crate::scenario::FailoverStrategy;
use crate::restart::RestartStrategy;
use crate::scenario::StorageKind;
use crate::status::{JobStatus, TaskStatus};
use serde::{Deserialize, Serialize};

/// How long a new JobManager leader takes to recover the job after
/// `crash_jobmanager`. A lab constant: in Flink it depends on the HA service's
/// lease and election timeouts.
pub const JOBMANAGER_RECOVERY_MS: u64 = 1000;

/// One failover, for the summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureRecord {
    /// When the failure happened.
    pub at_ms: u64,
    /// The failed subtask (`None` for a job-level failure such as too many failed checkpoints).
    pub task: Option<TaskName>,
    /// Why.
    pub reason: FailureCause,
    /// The checkpoint restored from (`None`: fresh start, or no restart).
    pub restored_from: Option<CheckpointId>,
    /// When the job restarted (`None` if it did not).
    pub restarted_ms: Option<u64>,
}

impl FailureRecord {
    /// A failure at `at_ms`, not (yet) restarted.
    fn new(at_ms: u64, task: Option<TaskName>, reason: FailureCause) -> FailureRecord {
        FailureRecord {
            at_ms,
            task,
            reason,
            restored_from: None,
            restarted_ms: None,
        }
    }
}

/// What the restart strategy says about a failure (`JobLifecycle::fail_over`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recovery {
    /// Restart after `delay_ms`.
    Restart {
        /// The backoff before the restart.
        delay_ms: u64,
    },
    /// No restart: the job fails (Flink: `Recovery is suppressed by <strategy>`).
    Suppressed {
        /// Why the job fails.
        failure: JobFailure,
    },
}

/// The job's lifecycle. See the module documentation. Flink: the JobMaster's
/// `JobStatus` with the `DefaultScheduler`'s `ExecutionFailureHandler` and its
/// `RestartBackoffTimeStrategy`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobLifecycle {
    /// Where the job stands.
    status: JobStatus,
    /// The restart strategy with what it remembers of earlier failures; a new
    /// JobMaster (after a JobManager crash) starts a fresh one.
    restart: RestartStrategy,
    /// While restarting: when the restart is due (the page's countdown).
    restart_at: Option<u64>,
    /// Every failover so far, in order (the summary's `failures`).
    failures: Vec<FailureRecord>,
    /// Why the job failed, once it has: what the summary and the page say.
    failure_reason: Option<FailureReason>,
    /// When the job reached a terminal status.
    finished_at: Option<u64>,
}

impl JobLifecycle {
    /// A running job with `restart` as its strategy.
    pub fn new(restart: RestartStrategy) -> Self {
        JobLifecycle {
            status: JobStatus::Running,
            restart,
            restart_at: None,
            failures: Vec::new(),
            failure_reason: None,
            finished_at: None,
        }
    }

    /// Where the job stands.
    #[inline]
    pub fn status(&self) -> JobStatus {
        self.status
    }

    /// Whether the job is running (not restarting, not ended).
    #[inline]
    pub fn is_running(&self) -> bool {
        self.status == JobStatus::Running
    }

    /// While restarting: when the restart is due.
    pub fn restart_at(&self) -> Option<u64> {
        self.restart_at
    }

    /// The restart strategy with what it remembers of the failures so far.
    pub fn restart_strategy(&self) -> &RestartStrategy {
        &self.restart
    }

    /// Every failover so far.
    pub fn failures(&self) -> &[FailureRecord] {
        &self.failures
    }

    /// Why the job failed, once it has.
    pub fn failure_reason(&self) -> Option<&FailureReason> {
        self.failure_reason.as_ref()
    }

    /// When the job reached a terminal status.
    pub fn finished_at(&self) -> Option<u64> {
        self.finished_at
    }

    /// A failure at `now` (of subtask `task`, or of the job): the restart strategy
    /// counts it and decides. Restarting, the job waits for the backoff; suppressed,
    /// it fails with Flink's message and the last failure's reason. Recorded either way.
    /// Flink: `ExecutionFailureHandler.getFailureHandlingResult`.
    pub fn fail_over(
        &mut self,
        now: u64,
        task: Option<TaskName>,
        reason: FailureCause,
    ) -> Recovery {
        debug_assert!(self.is_running(), "only a running job fails over");
        self.restart.notify_failure(now);
        if !self.restart.can_restart(now) {
            return self.fail_over_suppressed(now, task, reason);
        }
        let delay_ms = self.restart.backoff_ms(now);
        self.status = JobStatus::Restarting;
        self.restart_at = Some(now + delay_ms);
        self.failures.push(FailureRecord::new(now, task, reason));
        Recovery::Restart { delay_ms }
    }

    /// A failure at `now` of subtask `task` whose pipelined region restarts while the
    /// other regions run on: the restart strategy counts it as one failure, as it
    /// counts any (Flink: `ExecutionFailureHandler.getFailureHandlingResult`, one
    /// `FailureHandlingResult` per task failure). Restarting, the job stays
    /// running; suppressed, it fails as in [`JobLifecycle::fail_over`]. Recorded
    /// either way.
    pub fn fail_over_region(&mut self, now: u64, task: TaskName, reason: FailureCause) -> Recovery {
        debug_assert!(self.is_running(), "only a running job fails over");
        self.restart.notify_failure(now);
        if !self.restart.can_restart(now) {
            return self.fail_over_suppressed(now, Some(task), reason);
        }
        let delay_ms = self.restart.backoff_ms(now);
        self.failures.push(FailureRecord::new(now, Some(task), reason));
        Recovery::Restart { delay_ms }
    }

    /// The restart strategy gave up on a failure at `now`: the job fails with
    /// Flink's message and the failure's reason, recorded.
    fn fail_over_suppressed(
        &mut self,
        now: u64,
        task: Option<TaskName>,
        reason: FailureCause,
    ) -> Recovery {
        let failure = JobFailure::RecoverySuppressed {
            strategy: self.restart.describe(),
        };
        self.fail(
            now,
            FailureReason {
                failure: failure.clone(),
                last_failure: Some(reason.clone()),
            },
        );
        self.failures.push(FailureRecord::new(now, task, reason));
        Recovery::Suppressed { failure }
    }

    /// The region of failover `failure` (its index in [`JobLifecycle::failures`])
    /// runs again at `now`, restored from `restored_from` (`None`: from scratch).
    pub fn region_restarted(&mut self, now: u64, failure: usize, restored_from: Option<CheckpointId>) {
        if let Some(f) = self.failures.get_mut(failure) {
            f.restored_from = restored_from;
            f.restarted_ms = Some(now);
        }
    }

    /// The JobManager died at `now`; a new leader recovers the job after `delay_ms`
    /// with a fresh `restart` strategy. Not counted as a task failure.
    pub fn jobmanager_lost(&mut self, now: u64, delay_ms: u64, restart: RestartStrategy) {
        self.restart = restart;
        self.status = JobStatus::Restarting;
        self.restart_at = Some(now + delay_ms);
        self.failures
            .push(FailureRecord::new(now, None, FailureCause::JobManagerLost));
    }

    /// The restart is due at `now`: the job runs again, restored from `restored_from`
    /// (`None`: from scratch). Returns false if it was not restarting.
    pub fn restarted(&mut self, now: u64, restored_from: Option<CheckpointId>) -> bool {
        if self.status != JobStatus::Restarting {
            return false;
        }
        self.status = JobStatus::Running;
        self.restart_at = None;
        if let Some(f) = self.failures.last_mut() {
            f.restored_from = restored_from;
            f.restarted_ms = Some(now);
        }
        true
    }

    /// The job ends at `now`: finished or canceled.
    pub fn end(&mut self, now: u64, status: JobStatus) {
        debug_assert!(matches!(status, JobStatus::Finished | JobStatus::Canceled));
        self.status = status;
        self.finished_at = Some(now);
    }

    /// The job fails at `now` for `reason` (what the summary says).
    pub fn fail(&mut self, now: u64, reason: FailureReason) {
        self.failure_reason = Some(reason);
        self.status = JobStatus::Failed;
        self.finished_at = Some(now);
    }
}

/// How the tasks of a failed attempt stop ([`World::tear_down`]).
enum Stop {
    /// The named subtask failed (none: a job-level failure); every other
    /// unfinished subtask is canceled.
    CancelAllBut(Option<TaskName>),
    /// The JobManager died: its TaskExecutors fail every task.
    AllFailed,
}

impl World {
    /// A failure: the failed task's pipelined region fails over
    /// ([`World::region_failover`]) when the failover strategy is `region` and the
    /// region is not the whole job; otherwise the job fails over as a whole:
    /// in-flight data and un-checkpointed state are lost, open transactions are
    /// aborted, and the restart strategy decides what follows.
    pub(super) fn failover(&mut self, task: Option<TaskName>, reason: FailureCause) {
        if !self.job.is_running() {
            return;
        }
        if self.graph.scenario.failover_strategy == FailoverStrategy::Region {
            if let Some(t) = task.as_deref().and_then(|n| self.graph.task_id(n)) {
                let region = self.graph.region_of(t);
                if region.len() < self.tasks.len() {
                    self.region_failover(t, region, reason);
                    return;
                }
            }
        }
        if let Some(name) = &task {
            let (name, why) = (name.clone(), reason.clone());
            self.trace.push(|| Event::TaskFailed {
                task: name,
                reason: why,
            });
        }
        self.tear_down(Stop::CancelAllBut(task.clone()));
        let now = self.now;
        match self.job.fail_over(now, task, reason) {
            Recovery::Restart { delay_ms } => {
                self.trace.push(|| Event::JobRestarting { delay_ms });
                self.schedule(now + delay_ms, Item::Restart);
            }
            Recovery::Suppressed { failure } => {
                self.apply_retention();
                self.trace.push(|| Event::JobFailed { reason: failure });
            }
        }
    }

    /// Subtask `failed` fails and its pipelined region `region` restarts while the
    /// other regions keep processing. Flink: `DefaultScheduler.handleTaskFailure`
    /// with `RestartPipelinedRegionFailoverStrategy.getTasksNeedingRestart`, then
    /// `restartTasksWithDelay`. Checkpoints belong to the whole job, so every pending
    /// one is aborted (Flink 2.3: the `ExecutionTrackingCheckpointCoordinatorDeActivator`
    /// stops the checkpoint scheduler as soon as a task leaves RUNNING, and
    /// `SchedulerBase.restoreState` aborts what is pending with
    /// `JOB_FAILOVER_REGION`); the surviving tasks are told of the abort
    /// (`CheckpointCoordinator.sendAbortedMessages`). The region's tasks are
    /// canceled, its channels emptied, its open transactions aborted, and what it
    /// had scheduled dropped. If the restart strategy gives up, the whole job fails.
    fn region_failover(&mut self, failed: TaskId, region: Vec<TaskId>, reason: FailureCause) {
        let name = self.name(failed);
        let now = self.now;
        let recovery = self.job.fail_over_region(now, name.clone(), reason.clone());
        let failure = self.job.failures().len() as u32 - 1;
        let (n, why) = (name.clone(), reason);
        self.trace.push(|| Event::TaskFailed { task: n, reason: why });
        if let Recovery::Suppressed { failure } = recovery {
            self.tear_down(Stop::CancelAllBut(Some(name)));
            self.apply_retention();
            self.trace.push(|| Event::JobFailed { reason: failure });
            return;
        }
        let aborted: Vec<CheckpointId> = self.coordinator.pending().keys().copied().collect();
        self.abort_all_pending(AbortCause::JobFailover);
        let in_region = |t: &TaskId| region.contains(t);
        for id in aborted {
            for t in self.tasks.ids().filter(|t| !in_region(t)) {
                self.schedule(now, Item::NotifyAborted(t, id));
            }
        }
        for &t in &region {
            if let OpState::TwoPhaseCommit(s) = &mut self.tasks[t].op {
                let ext = self.external.topic(self.graph.tasks[t].op);
                s.close(ext, &mut self.trace);
            }
        }
        for &t in &region {
            let task = self.name(t);
            if t == failed {
                self.tasks[t].status = TaskStatus::Failed;
            } else if self.tasks[t].status != TaskStatus::Finished {
                self.tasks[t].status = TaskStatus::Canceled;
                let n = task.clone();
                self.trace.push(|| Event::TaskCanceling { task: n });
                self.trace.push(|| Event::TaskCanceled { task });
            }
        }
        let channels: Vec<ChannelId> = self
            .channels
            .ids()
            .filter(|c| in_region(&self.channels[*c].to) || in_region(&self.channels[*c].from))
            .collect();
        for &c in &channels {
            self.channels[c].clear();
        }
        self.agenda.drop_region(|item| match item {
            Item::Arrive(c) => channels.contains(c),
            other => other.task().is_some_and(|t| region.contains(&t)),
        });
        let Recovery::Restart { delay_ms } = recovery else {
            unreachable!("suppressed above")
        };
        self.schedule(
            now + delay_ms,
            Item::RestartRegion {
                first: region[0],
                failure,
            },
        );
    }

    /// The restart delay of the region of subtask `first` is over: its tasks restore
    /// the latest completed checkpoint — sources rewind to its offsets, a
    /// two-phase-commit sink commits what it pre-committed and aborts the rest — and
    /// run again. Flink: `SchedulerBase.restoreState` →
    /// `CheckpointCoordinator.restoreLatestCheckpointedStateToSubtasks` for the
    /// region's vertices only. The lab starts the checkpoint scheduler again once
    /// every task runs (simplified: Flink 2.3's
    /// `ExecutionTrackingCheckpointCoordinatorDeActivator` does not, yet checkpoints
    /// come again, §1.3).
    pub(super) fn restart_region(&mut self, first: TaskId, failure: u32) {
        if !self.job.is_running() {
            return;
        }
        let region = self.graph.region_of(first);
        let latest = self.coordinator.latest_completed().cloned();
        self.job
            .region_restarted(self.now, failure as usize, latest.as_ref().map(|c| c.id));
        let Ok(plan) = self.plan_latest(latest.as_deref()) else {
            return;
        };
        self.deploy_region(plan, &region);
    }

    /// What every failure does to the running attempt: pending checkpoints abort,
    /// open transactions abort, tasks stop, in-flight data is lost.
    fn tear_down(&mut self, stop: Stop) {
        self.abort_all_pending(AbortCause::JobFailover);
        self.coordinator.reset_final();
        self.close_sinks();
        match stop {
            // Flink: the failed Execution is FAILED; DefaultScheduler.restartTasks
            // cancels the others (Execution.cancel: CANCELING, then CANCELED once the
            // TaskExecutor confirms). Finished subtasks stay FINISHED.
            Stop::CancelAllBut(failed) => {
                for t in self.tasks.ids() {
                    let name = self.name(t);
                    if Some(&name) == failed.as_ref() {
                        self.tasks[t].status = TaskStatus::Failed;
                    } else if self.tasks[t].status != TaskStatus::Finished {
                        self.tasks[t].status = TaskStatus::Canceled;
                        let n = name.clone();
                        self.trace.push(|| Event::TaskCanceling { task: n });
                        self.trace.push(|| Event::TaskCanceled { task: name });
                    }
                }
            }
            Stop::AllFailed => {
                for t in &mut self.tasks {
                    t.status = TaskStatus::Failed;
                }
            }
        }
        for c in &mut self.channels {
            c.clear();
        }
        self.agenda.new_attempt();
    }

    /// The restart delay is over: restore the latest completed checkpoint and deploy
    /// the tasks again.
    pub(super) fn restart_job(&mut self) {
        let latest = self.coordinator.latest_completed().cloned();
        if !self.job.restarted(self.now, latest.as_ref().map(|c| c.id)) {
            return;
        }
        let Ok(plan) = self.plan_latest(latest.as_deref()) else {
            return;
        };
        self.deploy(plan);
    }

    /// The JobManager dies and a new leader recovers the job (Flink with high
    /// availability: the new JobMaster reads the job graph and the completed-checkpoint
    /// store's pointers and restores the latest checkpoint). What survives depends on
    /// the checkpoint storage: `JobManagerCheckpointStorage` keeps snapshots in the
    /// JobManager's heap, so they die with it and the job starts from scratch;
    /// `FileSystemCheckpointStorage` keeps them in files. Savepoints always go to
    /// files. The recovery is not a task failure: the restart strategy neither counts
    /// it nor delays it; the new JobMaster starts a fresh strategy.
    pub(super) fn jobmanager_failover(&mut self) {
        let storage = self.graph.scenario.checkpoint_config().storage;
        let checkpoints_lost = if storage == StorageKind::Jobmanager {
            self.coordinator.lose_retained()
        } else {
            Vec::new()
        };
        let delay_ms = JOBMANAGER_RECOVERY_MS;
        self.trace.push(|| Event::JobmanagerFailed {
            delay_ms,
            checkpoints_lost,
        });
        // The TaskExecutors lose their JobMaster and fail its tasks.
        self.tear_down(Stop::AllFailed);
        let fresh = RestartStrategy::new(&self.graph.scenario.effective_restart());
        self.job.jobmanager_lost(self.now, delay_ms, fresh);
        self.schedule(self.now + delay_ms, Item::Restart);
    }

    /// A stop-with-savepoint completed and was notified: every task finishes.
    pub(super) fn stop_job(&mut self) {
        if !self.job.is_running() {
            return;
        }
        self.close_sinks();
        for t in self.tasks.ids() {
            if self.tasks[t].status != TaskStatus::Finished {
                self.tasks[t].status = TaskStatus::Finished;
                let name = self.name(t);
                self.trace.push(|| Event::TaskFinished { task: name });
            }
        }
        for c in &mut self.channels {
            c.clear();
        }
        self.job_finished();
    }

    /// Every task finished: the job is finished. Flink:
    /// `CheckpointCoordinator#shutdown` aborts what is still pending; the retention
    /// policy runs.
    pub(super) fn job_finished(&mut self) {
        self.abort_all_pending(AbortCause::JobCanceled);
        self.job.end(self.now, JobStatus::Finished);
        self.apply_retention();
        self.trace.push(|| Event::JobFinished);
    }

    /// Cancel the job: sinks close, pending checkpoints abort, tasks and channels stop.
    pub(super) fn cancel_job(&mut self) {
        self.close_sinks();
        self.abort_all_pending(AbortCause::JobCanceled);
        for t in &mut self.tasks {
            t.status = TaskStatus::Canceled;
        }
        for c in &mut self.channels {
            c.clear();
        }
        self.agenda.new_attempt();
        self.job.end(self.now, JobStatus::Canceled);
        self.apply_retention();
        self.trace.push(|| Event::JobCanceled);
    }

    /// The job ends `failed`: `reason` is what the summary and the page say, its
    /// `failure` what the `job_failed` event says; the retention policy runs.
    pub(super) fn fail_job(&mut self, reason: FailureReason) {
        let failure = reason.failure.clone();
        self.job.fail(self.now, reason);
        self.apply_retention();
        self.trace.push(|| Event::JobFailed { reason: failure });
    }

    /// On a terminal job status, the completed-checkpoint store deletes its retained
    /// checkpoints or keeps them, as the `externalized` policy says; savepoints are
    /// never deleted. Flink: `DefaultCompletedCheckpointStore.shutdown` with the
    /// job's `CheckpointRetentionPolicy` (docs/flink-semantics.md §1.7).
    pub(super) fn apply_retention(&mut self) {
        let policy = self.graph.scenario.checkpoint_config().externalized;
        let status = self.job.status();
        if self.coordinator.store().is_empty() || !policy.discards_on(status.as_str()) {
            return;
        }
        let checkpoints = self.coordinator.discard_retained();
        let status = status.as_str().to_string();
        self.trace.push(|| Event::CheckpointsDiscarded {
            checkpoints,
            status,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::TraceEvent;
    use crate::scenario::{RestartConfig, Scenario};

    /// source → double → out, parallelism 2, the last edge `partitioning`; a
    /// two-phase-commit sink, a checkpoint every 500 ms whose upload takes 300 ms,
    /// double#1 crashes at 1230 ms (checkpoint 2 pending), a 300 ms restart delay.
    fn pipelines(partitioning: &str, strategy: Option<&str>) -> World {
        let mut doc = serde_json::json!({
            "version": 1, "name": "pipelines", "seed": 5,
            "job": {"operators": [
                {"uid": "src", "kind": "source", "parallelism": 2, "partitions": [
                    {"generate": {"count": 40, "every_ms": 50, "values": "sequence"}},
                    {"generate": {"count": 40, "every_ms": 50, "values": "sequence"}}]},
                {"uid": "double", "kind": "map", "fn": "double", "parallelism": 2},
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit", "parallelism": 2}],
             "edges": [{"from": "src", "to": "double", "partitioning": "forward", "latency_ms": 10},
                       {"from": "double", "to": "out", "partitioning": partitioning, "latency_ms": 10}]},
            "checkpointing": {"interval_ms": 500, "first_trigger_ms": 500, "async_ms": 300, "storage": "filesystem"},
            "restart": {"strategy": "fixed_delay", "attempts": 3, "delay_ms": 300},
            "script": [{"at_ms": 1230, "action": "crash", "task": "double#1"}],
        });
        if let Some(s) = strategy {
            doc["failover_strategy"] = serde_json::json!(s);
        }
        let scenario = Scenario::from_json(&doc.to_string()).expect("valid scenario");
        let mut w = World::new(&scenario, 5).expect("builds");
        w.set_tracing(true);
        w
    }

    /// Runs to `until`, returning every event.
    fn run(w: &mut World, until: u64) -> Vec<TraceEvent> {
        let mut all = Vec::new();
        w.run_until(until, |e| all.extend_from_slice(e));
        all
    }

    /// The subtasks named by events `pick` selects.
    fn tasks_of(events: &[TraceEvent], pick: impl Fn(&Event) -> Option<&TaskName>) -> Vec<String> {
        events
            .iter()
            .filter_map(|e| pick(&e.event))
            .map(|t| t.to_string())
            .collect()
    }

    /// Flink's default failover strategy, region: with forward edges only, each
    /// parallel pipeline is a region, and double#1's crash cancels and restores
    /// src#1, double#1 and out#1 only; the other pipeline keeps processing, the
    /// pending checkpoint is aborted, and no checkpoint starts until the region
    /// runs again. With a rebalance edge the job is one region: all six restart.
    #[test]
    fn a_forward_only_jobs_crash_restarts_its_region_only() {
        let mut w = pipelines("forward", None);
        let events = run(&mut w, 1229);
        assert!(w.coordinator().pending().contains_key(&CheckpointId(2)));
        let processed_before = events
            .iter()
            .filter(|e| matches!(&e.event, Event::RecordProcessed { task, .. } if &**task == "out#0"))
            .count();
        let crash = run(&mut w, 1230);
        let canceled = tasks_of(&crash, |e| match e {
            Event::TaskCanceled { task } => Some(task),
            _ => None,
        });
        assert_eq!(canceled, ["src#1", "out#1"]);
        assert!(crash.iter().any(|e| matches!(&e.event,
            Event::CheckpointAborted { checkpoint: CheckpointId(2), reason: AbortCause::JobFailover })));
        assert!(!crash.iter().any(|e| matches!(e.event, Event::JobRestarting { .. })));
        assert_eq!(w.status(), JobStatus::Running, "the job keeps running");
        let status = |w: &World, name: &str| w.tasks()[w.task_id(name).unwrap().0 as usize].status;
        assert_eq!(status(&w, "double#1"), TaskStatus::Failed);
        assert_eq!(status(&w, "src#0"), TaskStatus::Running);
        let restarting: Vec<String> = w.view().restarting.iter().map(|t| t.to_string()).collect();
        assert_eq!(restarting, ["src#1", "double#1", "out#1"], "the page marks the region");

        // While the region waits for its restart, the other pipeline processes and
        // no checkpoint is triggered.
        let waiting = run(&mut w, 1529);
        assert!(waiting.iter().any(|e| matches!(&e.event, Event::RecordProcessed { task, .. } if &**task == "out#0")));
        assert!(processed_before > 0);
        assert!(!waiting.iter().any(|e| matches!(e.event, Event::CheckpointTriggered { .. })
            || matches!(&e.event, Event::RecordProcessed { task, .. } if task.ends_with("#1"))));

        let restart = run(&mut w, 1530);
        let restored = tasks_of(&restart, |e| match e {
            Event::StateRestored { task, .. } => Some(task),
            _ => None,
        });
        assert_eq!(restored, ["src#1", "double#1", "out#1"]);
        assert!(restart.iter().any(|e| matches!(&e.event,
            Event::StateRestored { task, checkpoint: Some(CheckpointId(1)), .. } if &**task == "src#1")));
        let f = &w.failures()[0];
        assert_eq!((f.restored_from, f.restarted_ms), (Some(CheckpointId(1)), Some(1530)));
        assert!(w.tasks().iter().all(|t| t.status == TaskStatus::Running));
        assert!(w.view().restarting.is_empty());

        // out#0's transaction pre-committed for the aborted checkpoint 2 commits only
        // with the next checkpoint, after the region runs again.
        let later = run(&mut w, 3000);
        let commit = later
            .iter()
            .find(|e| matches!(&e.event,
                Event::TransactionCommitted { task, checkpoint: Some(CheckpointId(2)), .. } if &**task == "out#0"))
            .expect("out#0 commits checkpoint 2's transaction");
        assert!(commit.t > 1530, "committed at {}", commit.t);

        // One region: the whole job restarts.
        let mut w = pipelines("rebalance", None);
        let crash = run(&mut w, 1230);
        let canceled = tasks_of(&crash, |e| match e {
            Event::TaskCanceled { task } => Some(task),
            _ => None,
        });
        assert_eq!(canceled, ["src#0", "src#1", "double#0", "out#0", "out#1"]);
        assert_eq!(w.status(), JobStatus::Restarting);

        // `full` restarts every task of the forward job too.
        let mut w = pipelines("forward", Some("full"));
        let crash = run(&mut w, 1230);
        assert_eq!(
            crash
                .iter()
                .filter(|e| matches!(e.event, Event::TaskCanceled { .. }))
                .count(),
            5
        );
    }

    /// A failover strategy Flink does not have is refused, naming the field.
    #[test]
    fn an_unknown_failover_strategy_names_the_field() {
        let doc = r#"{"version": 1, "name": "x", "job": {"operators": [], "edges": []},
                      "failover_strategy": "partial"}"#;
        let err = Scenario::parse(doc).expect_err("not a strategy").to_string();
        assert!(err.contains("failover_strategy"), "{err}");
        assert!(err.contains("region") && err.contains("full"), "{err}");
    }

    /// A manual checkpoint while a region restarts fails before it starts: not all
    /// required tasks run (Flink: NOT_ALL_REQUIRED_TASKS_RUNNING).
    #[test]
    fn a_trigger_while_a_region_restarts_is_skipped() {
        let mut w = pipelines("forward", None);
        run(&mut w, 1300);
        w.apply(super::super::Intervention::TriggerCheckpoint)
            .expect("applies");
        assert!(w.last_events().iter().any(|e| matches!(e.event,
            Event::CheckpointSkipped { reason: crate::cause::SkipCause::RegionRestarting })));
        assert!(w.coordinator().pending().is_empty());
    }

    fn fixed(attempts: u32, delay_ms: u64) -> JobLifecycle {
        JobLifecycle::new(RestartStrategy::new(&RestartConfig::FixedDelay {
            attempts,
            delay_ms,
        }))
    }

    /// Mirrors ExecutionFailureHandlerTest: a failure the strategy allows restarts
    /// after its backoff; the restart records what was restored.
    #[test]
    fn a_failure_restarts_after_the_backoff() {
        let mut job = fixed(1, 500);
        let r = job.fail_over(100, Some("sum#0".into()), FailureCause::Crashed);
        assert_eq!(r, Recovery::Restart { delay_ms: 500 });
        assert_eq!(
            (job.status(), job.restart_at()),
            (JobStatus::Restarting, Some(600))
        );
        assert!(job.restarted(600, Some(CheckpointId(3))));
        assert!(!job.restarted(601, None), "already running");
        let f = &job.failures()[0];
        assert_eq!(
            (f.at_ms, f.restored_from, f.restarted_ms),
            (100, Some(CheckpointId(3)), Some(600))
        );
    }

    /// Mirrors ExecutionFailureHandlerTest#testNonRecoverableFailureHandlingResult:
    /// once the strategy gives up, the job fails with "Recovery is suppressed by …"
    /// and the last failure.
    #[test]
    fn recovery_is_suppressed_when_the_strategy_gives_up() {
        let mut job = fixed(1, 0);
        job.fail_over(1, None, FailureCause::Crashed);
        job.restarted(1, None);
        let Recovery::Suppressed { failure } = job.fail_over(2, None, FailureCause::MissingKey)
        else {
            panic!("one attempt only");
        };
        assert!(
            matches!(&failure, JobFailure::RecoverySuppressed { strategy }
            if strategy.starts_with("FixedDelayRestartBackoffTimeStrategy"))
        );
        assert_eq!(job.status(), JobStatus::Failed);
        assert_eq!(job.finished_at(), Some(2));
        assert_eq!(
            job.failure_reason(),
            Some(&FailureReason {
                failure,
                last_failure: Some(FailureCause::MissingKey)
            })
        );
        assert_eq!(
            job.failures().len(),
            2,
            "the suppressed failure is recorded too"
        );
    }

    /// A JobManager crash is not a task failure: a fresh strategy, not counted.
    #[test]
    fn a_lost_jobmanager_restarts_with_a_fresh_strategy() {
        let mut job = fixed(0, 0);
        job.jobmanager_lost(
            10,
            JOBMANAGER_RECOVERY_MS,
            RestartStrategy::new(&RestartConfig::None),
        );
        assert_eq!(job.restart_at(), Some(10 + JOBMANAGER_RECOVERY_MS));
        assert_eq!(job.failures()[0].task, None);
        assert!(job.restarted(1010, None));
        assert!(matches!(
            job.fail_over(2000, None, FailureCause::Crashed),
            Recovery::Suppressed { .. }
        ));
    }
}
