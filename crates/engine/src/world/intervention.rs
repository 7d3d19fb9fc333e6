//! [`Intervention`]: what a learner or a script does to the running job, and how
//! the [`World`] carries it out.
//!
//! Interventions are imperative (contrast [`crate::event::Event`], what happened).
//! A script step becomes one when it falls due; the page's buttons send one through
//! [`World::apply`]. A job that is not running ignores it and says why
//! ([`IgnoreCause`]).
//!
//! Flink: the REST API's job actions — trigger a checkpoint, a savepoint, stop with
//! a savepoint, cancel — plus the failures a teacher injects (a task crash, a
//! JobManager crash), which Flink has no API for.

use super::World;
use crate::cause::{FailureCause, IgnoreCause};
use crate::coordinator::TriggerOrigin;
use crate::event::{Event, SnapshotKind};
use crate::scenario::ScriptStep;
use serde::{Deserialize, Serialize};

/// Why [`World::apply`] refuses an intervention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterventionError {
    /// A crash of a subtask the job does not have.
    UnknownTask {
        /// The name given.
        task: String,
    },
}

impl std::fmt::Display for InterventionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InterventionError::UnknownTask { task } => write!(
                f,
                "unknown task {task:?}: subtasks are named \"<uid>#<index>\""
            ),
        }
    }
}

impl std::error::Error for InterventionError {}

/// What a learner or a script does to the running job. Flink: the REST API's job
/// actions (`POST /jobs/:id/checkpoints`, `/savepoints`, `/stop`, `PATCH` to cancel)
/// and the failures a teacher injects.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Intervention {
    /// Fail a subtask (`"uid#i"`).
    Crash { task: String },
    /// Trigger a checkpoint now.
    TriggerCheckpoint,
    /// Trigger a savepoint.
    Savepoint,
    /// Stop the job with a savepoint.
    StopWithSavepoint,
    /// Cancel the job.
    Cancel,
    /// Kill the JobManager (lab extension, see [`ScriptStep::CrashJobmanager`]).
    CrashJobmanager,
}

impl Intervention {
    /// The intervention a script step stands for.
    pub(super) fn from_step(step: &ScriptStep) -> Self {
        match step {
            ScriptStep::Crash { task, .. } => Intervention::Crash { task: task.clone() },
            ScriptStep::TriggerCheckpoint { .. } => Intervention::TriggerCheckpoint,
            ScriptStep::Savepoint { .. } => Intervention::Savepoint,
            ScriptStep::StopWithSavepoint { .. } => Intervention::StopWithSavepoint,
            ScriptStep::Cancel { .. } => Intervention::Cancel,
            ScriptStep::CrashJobmanager { .. } => Intervention::CrashJobmanager,
        }
    }

    /// The contract's name of the action (`crash`, `trigger_checkpoint`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Intervention::Crash { .. } => "crash",
            Intervention::TriggerCheckpoint => "trigger_checkpoint",
            Intervention::Savepoint => "savepoint",
            Intervention::StopWithSavepoint => "stop_with_savepoint",
            Intervention::Cancel => "cancel",
            Intervention::CrashJobmanager => "crash_jobmanager",
        }
    }
}

impl World {
    /// Carry out `iv` now; a job that is not running ignores it (an
    /// `action_ignored` event says why).
    pub(super) fn intervene(&mut self, iv: Intervention) {
        if !self.job.is_running() {
            let action = iv.name().to_string();
            let reason = IgnoreCause::JobNotRunning(self.job.status());
            self.trace.push(|| Event::ActionIgnored { action, reason });
            return;
        }
        match iv {
            Intervention::Crash { task } => {
                if let Some(t) = self.task_id(&task) {
                    let name = self.name(t);
                    self.failover(Some(name), FailureCause::Crashed);
                }
            }
            Intervention::TriggerCheckpoint => {
                self.coordinator
                    .offer(SnapshotKind::Checkpoint, TriggerOrigin::Manual);
                self.try_trigger();
            }
            Intervention::Savepoint => {
                self.coordinator
                    .offer(SnapshotKind::Savepoint, TriggerOrigin::Manual);
                self.try_trigger();
            }
            Intervention::StopWithSavepoint => {
                self.coordinator
                    .offer(SnapshotKind::StopWithSavepoint, TriggerOrigin::Manual);
                self.try_trigger();
            }
            Intervention::Cancel => self.cancel_job(),
            Intervention::CrashJobmanager => self.jobmanager_failover(),
        }
    }
}
