//! Why things happen: typed causes for every reason the engine reports — why a
//! checkpoint was aborted or declined ([`AbortCause`]), why a trigger was skipped
//! ([`SkipCause`]), why a subtask failed or the job failed over ([`FailureCause`]),
//! why the job ended failed ([`JobFailure`], [`FailureReason`]) and why an
//! intervention was ignored ([`IgnoreCause`]).
//!
//! The page matches on these instead of parsing sentences. Each serializes as the
//! contract's string — exactly what the trace and the summary carried before they
//! were typed ([`std::fmt::Display`]) — and parses back from it
//! ([`std::str::FromStr`]). Where the lab's wording differs from Flink's, each also
//! carries Flink's own reason: [`CheckpointFailureReason`] (the constant and its
//! message, as in Flink 2.3) or Flink's exception message.
//!
//! Flink: `CheckpointFailureReason`, `CheckpointException`, `CheckpointFailureManager`
//! (`FlinkRuntimeException`), `ExecutionFailureHandler` (`JobException`).

use crate::barrier::AbortReason;
use crate::status::JobStatus;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::convert::Infallible;
use std::fmt;
use std::str::FromStr;

/// Serialize as the contract's string (`Display`), read back with `FromStr`.
macro_rules! contract_string_serde {
    ($($t:ty),*) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = String::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    )*};
}

contract_string_serde!(
    AbortCause,
    SkipCause,
    FailureCause,
    JobFailure,
    FailureReason,
    IgnoreCause
);

/// Flink's reason code for a failed checkpoint, with its message (Flink 2.3's
/// `CheckpointFailureReason`, the values the lab produces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CheckpointFailureReason {
    /// Pre-flight: the minimum pause after the last completion has not passed.
    MinimumTimeBetweenCheckpoints,
    /// Pre-flight: a task to trigger is not running.
    NotAllRequiredTasksRunning,
    /// A task's asynchronous snapshot part failed.
    CheckpointAsyncException,
    /// Not acknowledged within the checkpoint timeout.
    CheckpointExpired,
    /// A newer checkpoint completed.
    CheckpointSubsumed,
    /// A task was closing when the trigger reached it.
    CheckpointDeclinedTaskClosing,
    /// A task received a newer checkpoint's barrier during the alignment.
    CheckpointDeclinedSubsumed,
    /// A task received a cancellation marker.
    CheckpointDeclinedOnCancellationBarrier,
    /// An input ended while checkpoints after tasks finish are disabled.
    CheckpointDeclinedInputEndOfStream,
    /// The coordinator stopped (job canceled, finished, stopped with a savepoint).
    CheckpointCoordinatorSuspend,
    /// The job failed over.
    JobFailoverRegion,
}

impl CheckpointFailureReason {
    /// Flink's message (`CheckpointFailureReason.message()`).
    pub fn message(self) -> &'static str {
        use CheckpointFailureReason::*;
        match self {
            MinimumTimeBetweenCheckpoints => "The minimum time between checkpoints is still pending. Checkpoint will be triggered after the minimum time.",
            NotAllRequiredTasksRunning => "Not all required tasks are currently running.",
            CheckpointAsyncException => "Asynchronous task checkpoint failed.",
            CheckpointExpired => "Checkpoint expired before completing.",
            CheckpointSubsumed => "Checkpoint has been subsumed.",
            CheckpointDeclinedTaskClosing => "Checkpoint was declined (task is closing)",
            CheckpointDeclinedSubsumed => "Checkpoint was canceled because a barrier from newer checkpoint was received.",
            CheckpointDeclinedOnCancellationBarrier => "Task received cancellation from one of its inputs",
            CheckpointDeclinedInputEndOfStream => "Checkpoint was declined because one input stream is finished",
            CheckpointCoordinatorSuspend => "Checkpoint Coordinator is suspending.",
            JobFailoverRegion => "FailoverRegion is restarting.",
        }
    }

    /// Whether it happens before the checkpoint reaches any task (Flink:
    /// `isPreFlight`); pre-flight failures are never counted.
    pub fn is_pre_flight(self) -> bool {
        matches!(
            self,
            CheckpointFailureReason::MinimumTimeBetweenCheckpoints
                | CheckpointFailureReason::NotAllRequiredTasksRunning
        )
    }
}

/// Why a pending checkpoint was aborted, or why a task declined it.
/// Flink: `CheckpointFailureReason` ([`AbortCause::flink_reason`]).
/// Simplified: one `Subsumed` for Flink's `CHECKPOINT_SUBSUMED` (a newer checkpoint
/// completed) and `CHECKPOINT_DECLINED_SUBSUMED` (a task saw a newer barrier), which
/// the contract spells alike and counts alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AbortCause {
    /// Not acknowledged within the timeout (`CHECKPOINT_EXPIRED`).
    Expired,
    /// A newer checkpoint completed, or a task saw a newer barrier (`CHECKPOINT_SUBSUMED`, `CHECKPOINT_DECLINED_SUBSUMED`).
    Subsumed,
    /// A task's asynchronous phase failed (`CHECKPOINT_ASYNC_EXCEPTION`), e.g. state
    /// too large for jobmanager storage; carries the exception's message.
    DeclinedAsync(String),
    /// A task received a cancellation marker (`CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER`).
    CancellationBarrier,
    /// End of partition with checkpoints after tasks finish off (`CHECKPOINT_DECLINED_INPUT_END_OF_STREAM`).
    EndOfStream,
    /// The job failed over (`JOB_FAILOVER_REGION`).
    JobFailover,
    /// The job was canceled or stopped (`CHECKPOINT_COORDINATOR_SUSPEND`).
    JobCanceled,
    /// A task to trigger finished before the trigger reached it (`CHECKPOINT_DECLINED_TASK_CLOSING`).
    TaskClosing,
    /// Part of the named operator's subtasks had finished while it uses union list
    /// state: the coordinator cannot finalize the checkpoint
    /// (`PartialFinishingNotSupportedByStateException`, which
    /// `CheckpointCoordinator.finalizeCheckpoint` reports as
    /// `CHECKPOINT_DECLINED_TASK_CLOSING`, never counted).
    PartlyFinishedUnionState(String),
}

impl AbortCause {
    /// The contract's spelling of the reason (its `Display`).
    pub fn contract_reason(&self) -> String {
        self.to_string()
    }

    /// Flink's reason code.
    pub fn flink_reason(&self) -> CheckpointFailureReason {
        use CheckpointFailureReason as R;
        match self {
            AbortCause::Expired => R::CheckpointExpired,
            AbortCause::Subsumed => R::CheckpointSubsumed,
            AbortCause::DeclinedAsync(_) => R::CheckpointAsyncException,
            AbortCause::CancellationBarrier => R::CheckpointDeclinedOnCancellationBarrier,
            AbortCause::EndOfStream => R::CheckpointDeclinedInputEndOfStream,
            AbortCause::JobFailover => R::JobFailoverRegion,
            AbortCause::JobCanceled => R::CheckpointCoordinatorSuspend,
            AbortCause::TaskClosing | AbortCause::PartlyFinishedUnionState(_) => {
                R::CheckpointDeclinedTaskClosing
            }
        }
    }

    /// Flink's message: the asynchronous exception's own message for
    /// [`AbortCause::DeclinedAsync`], else the reason code's.
    pub fn flink_message(&self) -> String {
        match self {
            AbortCause::DeclinedAsync(why) => why.clone(),
            AbortCause::PartlyFinishedUnionState(uid) => partly_finished_message(uid),
            other => other.flink_reason().message().to_string(),
        }
    }

    /// Whether `CheckpointFailureManager` counts it towards the tolerable failures:
    /// only expiry and asynchronous declines among the lab's causes.
    pub fn is_counted(&self) -> bool {
        matches!(self, AbortCause::Expired | AbortCause::DeclinedAsync(_))
    }

    /// Job-level (no task attempt): expiry and coordinator-side causes.
    pub(crate) fn is_job_level(&self) -> bool {
        !matches!(
            self,
            AbortCause::DeclinedAsync(_)
                | AbortCause::CancellationBarrier
                | AbortCause::EndOfStream
                | AbortCause::Subsumed
                | AbortCause::TaskClosing
        )
    }
}

impl fmt::Display for AbortCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AbortCause::Expired => f.write_str("expired"),
            AbortCause::Subsumed => f.write_str("subsumed"),
            AbortCause::DeclinedAsync(why) => write!(f, "declined: {why}"),
            AbortCause::CancellationBarrier => {
                f.write_str("declined: cancellation barrier received")
            }
            AbortCause::EndOfStream => f.write_str("end_of_stream"),
            AbortCause::JobFailover => f.write_str("job_failover"),
            AbortCause::JobCanceled => f.write_str("job_canceled"),
            AbortCause::TaskClosing => {
                f.write_str("declined: task finished before the checkpoint reached it")
            }
            AbortCause::PartlyFinishedUnionState(uid) => {
                write!(f, "declined: {}", partly_finished_message(uid))
            }
        }
    }
}

/// Flink's `PartialFinishingNotSupportedByStateException` message for vertex `uid`
/// (without Flink's `(id = …)` vertex id).
fn partly_finished_message(uid: &str) -> String {
    format!("{PARTLY_FINISHED_PREFIX}{uid}{PARTLY_FINISHED_SUFFIX}")
}

const PARTLY_FINISHED_PREFIX: &str = "The vertex ";
const PARTLY_FINISHED_SUFFIX: &str =
    " has used UnionListState, but part of its tasks has called operators' finish method.";

impl From<AbortReason> for AbortCause {
    /// Why a task's barrier handler declines ([`crate::barrier::HandlerAction::Abort`]).
    fn from(reason: AbortReason) -> Self {
        match reason {
            AbortReason::Subsumed => AbortCause::Subsumed,
            AbortReason::CancellationBarrier => AbortCause::CancellationBarrier,
            AbortReason::EndOfStream => AbortCause::EndOfStream,
        }
    }
}

/// The one of `candidates` spelled `s`.
fn spelled<T: fmt::Display>(candidates: impl IntoIterator<Item = T>, s: &str) -> Option<T> {
    candidates.into_iter().find(|c| c.to_string() == s)
}

/// A string that is no cause's contract spelling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCause(pub String);

impl fmt::Display for UnknownCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a reason the engine gives: {:?}", self.0)
    }
}

impl std::error::Error for UnknownCause {}

impl FromStr for AbortCause {
    type Err = UnknownCause;
    fn from_str(s: &str) -> Result<Self, UnknownCause> {
        let exact = [
            AbortCause::Expired,
            AbortCause::Subsumed,
            AbortCause::CancellationBarrier,
            AbortCause::EndOfStream,
            AbortCause::JobFailover,
            AbortCause::JobCanceled,
            AbortCause::TaskClosing,
        ];
        if let Some(c) = spelled(exact, s) {
            return Ok(c);
        }
        match s.strip_prefix("declined: ") {
            Some(why) => Ok(why
                .strip_prefix(PARTLY_FINISHED_PREFIX)
                .and_then(|w| w.strip_suffix(PARTLY_FINISHED_SUFFIX))
                .map_or_else(
                    || AbortCause::DeclinedAsync(why.to_string()),
                    |uid| AbortCause::PartlyFinishedUnionState(uid.to_string()),
                )),
            None => Err(UnknownCause(s.to_string())),
        }
    }
}

/// Why a trigger started no checkpoint (pre-flight; never counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipCause {
    /// A periodic trigger came before the minimum pause after the last completion
    /// had passed; the trigger is rescheduled (`MINIMUM_TIME_BETWEEN_CHECKPOINTS`).
    MinimumTimeBetweenCheckpoints,
    /// Some task finished and checkpoints after tasks finish are off
    /// (`NOT_ALL_REQUIRED_TASKS_RUNNING`).
    NotAllRequiredTasksRunning,
    /// A pipelined region is failing over: its tasks are not running
    /// (`NOT_ALL_REQUIRED_TASKS_RUNNING`).
    RegionRestarting,
}

impl SkipCause {
    /// Flink's reason code.
    pub fn flink_reason(self) -> CheckpointFailureReason {
        match self {
            SkipCause::MinimumTimeBetweenCheckpoints => {
                CheckpointFailureReason::MinimumTimeBetweenCheckpoints
            }
            SkipCause::NotAllRequiredTasksRunning | SkipCause::RegionRestarting => {
                CheckpointFailureReason::NotAllRequiredTasksRunning
            }
        }
    }
}

impl fmt::Display for SkipCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SkipCause::MinimumTimeBetweenCheckpoints => "minimum time between checkpoints",
            SkipCause::NotAllRequiredTasksRunning => {
                "not all required tasks are running (checkpoints after tasks finish are off)"
            }
            SkipCause::RegionRestarting => {
                "not all required tasks are running (a pipelined region is restarting)"
            }
        })
    }
}

impl FromStr for SkipCause {
    type Err = UnknownCause;
    fn from_str(s: &str) -> Result<Self, UnknownCause> {
        let all = [
            SkipCause::MinimumTimeBetweenCheckpoints,
            SkipCause::NotAllRequiredTasksRunning,
            SkipCause::RegionRestarting,
        ];
        spelled(all, s).ok_or_else(|| UnknownCause(s.to_string()))
    }
}

/// Why a subtask failed, or the job failed over as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailureCause {
    /// The script or the learner crashed the subtask (in Flink: an exception thrown
    /// by user code).
    Crashed,
    /// A record without a key reached hash partitioning (in Flink: the key selector
    /// or `KeyGroupRangeAssignment` throws).
    MissingKey,
    /// A two-phase-commit sink was written to after it finished (in Flink: a
    /// `NullPointerException` in `invoke`, there is no transaction).
    WriteAfterFinish,
    /// An operator failed; its message.
    Operator(String),
    /// Too many checkpoints failed in a row (Flink: `CheckpointFailureManager`'s
    /// `FlinkRuntimeException`); the latest one's cause.
    TolerableFailuresExceeded(AbortCause),
    /// The JobManager died and a new leader recovers the job (lab extension).
    JobManagerLost,
}

impl FailureCause {
    /// Flink's message where Flink composes one: the tolerable-failure exception
    /// names the latest failure by Flink's reason message; otherwise the lab's
    /// wording ([`std::fmt::Display`]).
    pub fn flink_message(&self) -> String {
        match self {
            FailureCause::TolerableFailuresExceeded(latest) => format!(
                "{TOLERABLE_FAILURES_EXCEEDED}{}",
                latest.flink_reason().message()
            ),
            other => other.to_string(),
        }
    }
}

/// `CheckpointFailureManager`'s message, before the latest failure's reason.
const TOLERABLE_FAILURES_EXCEEDED: &str =
    "Exceeded checkpoint tolerable failure threshold. The latest checkpoint failed due to ";

impl fmt::Display for FailureCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FailureCause::Crashed => f.write_str("crashed (script or user)"),
            FailureCause::MissingKey => f.write_str(
                "a record without a key reached hash partitioning (the key selector failed)",
            ),
            FailureCause::WriteAfterFinish => {
                f.write_str("write after the sink finished (no open transaction)")
            }
            FailureCause::Operator(why) => f.write_str(why),
            FailureCause::TolerableFailuresExceeded(latest) => {
                write!(f, "{TOLERABLE_FAILURES_EXCEEDED}{latest}")
            }
            FailureCause::JobManagerLost => {
                f.write_str("JobManager failed; a new leader recovers the job")
            }
        }
    }
}

impl FromStr for FailureCause {
    /// Any message is some operator's, so parsing never fails.
    type Err = Infallible;
    fn from_str(s: &str) -> Result<Self, Infallible> {
        let exact = [
            FailureCause::Crashed,
            FailureCause::MissingKey,
            FailureCause::WriteAfterFinish,
            FailureCause::JobManagerLost,
        ];
        if let Some(c) = spelled(exact, s) {
            return Ok(c);
        }
        if let Some(latest) = s.strip_prefix(TOLERABLE_FAILURES_EXCEEDED) {
            if let Ok(latest) = latest.parse() {
                return Ok(FailureCause::TolerableFailuresExceeded(latest));
            }
        }
        Ok(FailureCause::Operator(s.to_string()))
    }
}

impl From<&str> for FailureCause {
    /// The cause a message spells ([`FromStr`]).
    fn from(s: &str) -> Self {
        match s.parse() {
            Ok(c) => c,
            Err(never) => match never {},
        }
    }
}

/// Why the job ended `failed` (the `job_failed` event's reason).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobFailure {
    /// The restart strategy allows no more restarts. Flink: `JobException` from
    /// `ExecutionFailureHandler`, `"Recovery is suppressed by <strategy>"`;
    /// `strategy` is the strategy's `toString()`
    /// ([`crate::restart::RestartStrategy::describe`]) — its parameters are the
    /// scenario's `restart` section.
    RecoverySuppressed {
        /// Flink's description of the strategy.
        strategy: String,
    },
    /// Restoring the latest checkpoint failed (the job's own checkpoint always fits,
    /// so this is a guard, not a rule).
    RestoreFailed {
        /// The restore's error.
        message: String,
    },
}

impl fmt::Display for JobFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobFailure::RecoverySuppressed { strategy } => {
                write!(f, "Recovery is suppressed by {strategy}")
            }
            JobFailure::RestoreFailed { message } => write!(f, "restore failed: {message}"),
        }
    }
}

impl FromStr for JobFailure {
    type Err = UnknownCause;
    fn from_str(s: &str) -> Result<Self, UnknownCause> {
        if let Some(strategy) = s.strip_prefix("Recovery is suppressed by ") {
            return Ok(JobFailure::RecoverySuppressed {
                strategy: strategy.to_string(),
            });
        }
        match s.strip_prefix("restore failed: ") {
            Some(message) => Ok(JobFailure::RestoreFailed {
                message: message.to_string(),
            }),
            None => Err(UnknownCause(s.to_string())),
        }
    }
}

/// Why the job failed, as the summary and the page report it: the job's failure
/// and, when the restart strategy gave up, the failure it did not recover from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailureReason {
    /// Why the job ended failed.
    pub failure: JobFailure,
    /// The failure that was not recovered from (with
    /// [`JobFailure::RecoverySuppressed`]).
    pub last_failure: Option<FailureCause>,
}

/// The summary's separator before the last failure.
const LAST_FAILURE: &str = " (last failure: ";

impl fmt::Display for FailureReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.last_failure {
            Some(last) => write!(f, "{}{LAST_FAILURE}{last})", self.failure),
            None => write!(f, "{}", self.failure),
        }
    }
}

impl FromStr for FailureReason {
    type Err = UnknownCause;
    fn from_str(s: &str) -> Result<Self, UnknownCause> {
        if let Some((failure, last)) = s.split_once(LAST_FAILURE) {
            if let (Ok(failure), Some(last)) = (failure.parse(), last.strip_suffix(')')) {
                return Ok(FailureReason {
                    failure,
                    last_failure: Some(last.into()),
                });
            }
        }
        Ok(FailureReason {
            failure: s.parse()?,
            last_failure: None,
        })
    }
}

/// Why an intervention or script action did nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IgnoreCause {
    /// The job was not running (restarting, or ended).
    JobNotRunning(JobStatus),
}

impl fmt::Display for IgnoreCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IgnoreCause::JobNotRunning(status) => {
                write!(f, "the job is {}", job_status_word(*status))
            }
        }
    }
}

/// How the ignored-action reason names a status (`restarting` apart from `running`,
/// unlike [`JobStatus::as_str`]).
fn job_status_word(status: JobStatus) -> &'static str {
    match status {
        JobStatus::Restarting => "restarting",
        JobStatus::Finished => "finished",
        JobStatus::Failed => "failed",
        JobStatus::Canceled => "canceled",
        JobStatus::Running => "running",
    }
}

impl FromStr for IgnoreCause {
    type Err = UnknownCause;
    fn from_str(s: &str) -> Result<Self, UnknownCause> {
        let all = [
            JobStatus::Running,
            JobStatus::Restarting,
            JobStatus::Finished,
            JobStatus::Failed,
            JobStatus::Canceled,
        ];
        spelled(all.map(IgnoreCause::JobNotRunning), s).ok_or_else(|| UnknownCause(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T>(cause: T, spelled: &str)
    where
        T: fmt::Debug + PartialEq + Serialize + for<'de> Deserialize<'de>,
    {
        let json = serde_json::to_string(&cause).unwrap();
        assert_eq!(json, serde_json::to_string(spelled).unwrap(), "{cause:?}");
        let back: T = serde_json::from_str(&json).unwrap();
        assert_eq!(back, cause);
    }

    /// Every cause is written as the contract's string the trace carried before
    /// causes were typed, and reads back to the same cause.
    #[test]
    fn causes_are_spelled_as_the_contract_and_read_back() {
        round_trip(AbortCause::Expired, "expired");
        round_trip(AbortCause::EndOfStream, "end_of_stream");
        round_trip(
            AbortCause::CancellationBarrier,
            "declined: cancellation barrier received",
        );
        round_trip(
            AbortCause::TaskClosing,
            "declined: task finished before the checkpoint reached it",
        );
        round_trip(
            AbortCause::DeclinedAsync("Size of the state is larger".into()),
            "declined: Size of the state is larger",
        );
        round_trip(
            SkipCause::MinimumTimeBetweenCheckpoints,
            "minimum time between checkpoints",
        );
        round_trip(FailureCause::Crashed, "crashed (script or user)");
        round_trip(FailureCause::Operator("boom".into()), "boom");
        round_trip(
            FailureCause::TolerableFailuresExceeded(AbortCause::Expired),
            "Exceeded checkpoint tolerable failure threshold. The latest checkpoint failed due to expired",
        );
        round_trip(
            JobFailure::RecoverySuppressed {
                strategy: "NoRestartBackoffTimeStrategy".into(),
            },
            "Recovery is suppressed by NoRestartBackoffTimeStrategy",
        );
        round_trip(
            FailureReason {
                failure: JobFailure::RecoverySuppressed {
                    strategy: "FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=2, backoffTimeMS=500)".into(),
                },
                last_failure: Some(FailureCause::Crashed),
            },
            "Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=2, backoffTimeMS=500) (last failure: crashed (script or user))",
        );
        round_trip(
            FailureReason {
                failure: JobFailure::RestoreFailed {
                    message: "x".into(),
                },
                last_failure: None,
            },
            "restore failed: x",
        );
        round_trip(
            IgnoreCause::JobNotRunning(JobStatus::Restarting),
            "the job is restarting",
        );
    }

    /// Flink's reason codes and messages (Flink 2.3's `CheckpointFailureReason`).
    #[test]
    fn causes_carry_flinks_reasons() {
        assert_eq!(
            AbortCause::Expired.flink_message(),
            "Checkpoint expired before completing."
        );
        assert_eq!(
            serde_json::to_string(&AbortCause::CancellationBarrier.flink_reason()).unwrap(),
            "\"CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER\""
        );
        assert!(SkipCause::MinimumTimeBetweenCheckpoints
            .flink_reason()
            .is_pre_flight());
        assert!(!AbortCause::Expired.flink_reason().is_pre_flight());
        assert_eq!(
            FailureCause::TolerableFailuresExceeded(AbortCause::Expired).flink_message(),
            "Exceeded checkpoint tolerable failure threshold. The latest checkpoint failed due to Checkpoint expired before completing."
        );
    }

    /// A string that is no cause is an error, except for operator failures, whose
    /// messages are free text.
    #[test]
    fn unknown_spellings() {
        assert!("whatever".parse::<AbortCause>().is_err());
        assert!("whatever".parse::<SkipCause>().is_err());
        assert!("whatever".parse::<JobFailure>().is_err());
        assert_eq!(
            FailureCause::from("whatever"),
            FailureCause::Operator("whatever".into())
        );
    }
}
