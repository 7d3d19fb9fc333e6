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
//! Simplified: the job fails over as a whole (Flink restarts only the failover region
//! of the failed task, which for the lab's all-to-all jobs is the whole job); a
//! JobManager's recovery takes the fixed [`JOBMANAGER_RECOVERY_MS`].

use super::{schedule::Item, World};
use crate::cause::{AbortCause, FailureCause, FailureReason, JobFailure};
use crate::event::{Event, TaskName};
use crate::ids::CheckpointId;
use crate::restart::RestartStrategy;
use crate::restore;
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
        let recovery = if self.restart.can_restart(now) {
            let delay_ms = self.restart.backoff_ms(now);
            self.status = JobStatus::Restarting;
            self.restart_at = Some(now + delay_ms);
            Recovery::Restart { delay_ms }
        } else {
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
            Recovery::Suppressed { failure }
        };
        self.failures.push(FailureRecord {
            at_ms: now,
            task,
            reason,
            restored_from: None,
            restarted_ms: None,
        });
        recovery
    }

    /// The JobManager died at `now`; a new leader recovers the job after `delay_ms`
    /// with a fresh `restart` strategy. Not counted as a task failure.
    pub fn jobmanager_lost(&mut self, now: u64, delay_ms: u64, restart: RestartStrategy) {
        self.restart = restart;
        self.status = JobStatus::Restarting;
        self.restart_at = Some(now + delay_ms);
        self.failures.push(FailureRecord {
            at_ms: now,
            task: None,
            reason: FailureCause::JobManagerLost,
            restored_from: None,
            restarted_ms: None,
        });
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
    /// The job fails over as a whole (the contract's simplification of region
    /// failover): in-flight data and un-checkpointed state are lost, open
    /// transactions are aborted, and the restart strategy decides what follows.
    pub(super) fn failover(&mut self, task: Option<TaskName>, reason: FailureCause) {
        if !self.job.is_running() {
            return;
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
        // The job's own checkpoint fits the job: assignment cannot fail, but if it
        // ever did, the job fails with the reason rather than the lab panicking.
        let plan = match latest
            .map(|c| self.plan_restore(
                    &restore::from_completed(&c, &self.graph),
                    restore::NonRestoredState::Refuse,
                ))
        {
            None => None,
            Some(Ok(plan)) => Some(plan),
            Some(Err(err)) => {
                self.fail_job(FailureReason {
                    failure: JobFailure::RestoreFailed {
                        message: err.to_string(),
                    },
                    last_failure: None,
                });
                return;
            }
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
    use crate::scenario::RestartConfig;

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
