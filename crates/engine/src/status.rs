//! Lifecycles: the job's ([`JobStatus`]) and a subtask's ([`TaskStatus`]).
//!
//! Flink: `JobStatus` and `ExecutionState`, both reduced to what the lab models.

use serde::{Deserialize, Serialize};

/// The job's status (Flink: `JobStatus`, reduced).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    /// Running.
    Running,
    /// Failed over, waiting for the restart delay.
    Restarting,
    /// Every task finished.
    Finished,
    /// The restart strategy gave up.
    Failed,
    /// Canceled by a script action or the user.
    Canceled,
}

impl JobStatus {
    /// The contract's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Running | JobStatus::Restarting => "running",
            JobStatus::Finished => "finished",
            JobStatus::Failed => "failed",
            JobStatus::Canceled => "canceled",
        }
    }
}

/// A subtask's lifecycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Processing.
    Running,
    /// A sink whose inputs all ended: waits for a final checkpoint so it can commit.
    Waiting,
    /// Done.
    Finished,
    /// Failed over; waits for the restart.
    Failed,
    /// Canceled.
    Canceled,
}
