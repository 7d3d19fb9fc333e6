//! Checkpoint timeout and tolerable failures on `checkpoint-config`: a burst of
//! records behind a slow count holds the barriers back; which checkpoints expire
//! under the drawn timeout, and does the job fail over because of them?
//!
//! Flink: a pending checkpoint not acknowledged by every task within
//! `execution.checkpointing.timeout` is aborted as `CHECKPOINT_EXPIRED`
//! (`CheckpointCoordinator.CheckpointCanceller`); `CheckpointFailureManager`
//! counts consecutive failed checkpoints, resets the count on a completed one
//! (`handleCheckpointSuccess`) and fails the job over once the count exceeds
//! `execution.checkpointing.tolerable-failed-checkpoints`.

use std::collections::BTreeSet;

use super::state::{lesson_error, why};
use super::{question, run, Answer, Blank, DrillError, Made, Why};
use crate::cause::AbortCause;
use crate::event::{Event, TraceEvent};
use crate::scenario::Scenario;

/// Sets the checkpoint timeout and the number of tolerable checkpoint failures.
pub(super) fn set_limits(
    s: &mut Scenario,
    timeout_ms: u64,
    tolerable: u64,
) -> Result<(), DrillError> {
    let cfg = s
        .checkpointing
        .as_mut()
        .ok_or_else(|| lesson_error("the lesson has no checkpointing"))?;
    cfg.timeout_ms = timeout_ms;
    cfg.tolerable_failures = u32::try_from(tolerable).unwrap_or(u32::MAX);
    Ok(())
}

pub(super) fn checkpoint_expiry(s: &Scenario) -> Result<Made, DrillError> {
    let cfg = s
        .checkpointing
        .as_ref()
        .ok_or_else(|| lesson_error("the lesson has no checkpointing"))?;
    let (timeout, tolerable) = (cfg.timeout_ms, u64::from(cfg.tolerable_failures));
    let (_, trace) = run(s)?;
    let first = first_attempt(&trace);
    let triggered: Vec<(u64, u64)> = first
        .iter()
        .filter_map(|e| match e.event {
            Event::CheckpointTriggered { checkpoint, .. } => Some((e.t, checkpoint.0)),
            _ => None,
        })
        .collect();
    let ends = expiries(&first, tolerable);
    let Some(&(expired_at, first_expired)) = ends.expired.first() else {
        return Err(DrillError::NoEffect {
            param: "timeout_ms",
            why: format!("no checkpoint expires with a timeout of {timeout} ms"),
        });
    };
    let fails_over = ends.exceeded_at.is_some();
    let waiting = waiting_subtasks(s, &first, expired_at, first_expired);
    let trigger_of = |id: u64| {
        triggered
            .iter()
            .find(|(_, c)| *c == id)
            .map_or(0, |(t, _)| *t)
    };
    let expired_why = why(
        "checkpoint_expired",
        &[
            ("checkpoint", first_expired.to_string()),
            ("triggered", trigger_of(first_expired).to_string()),
            ("timeout_ms", timeout.to_string()),
            ("expired", expired_at.to_string()),
            ("waiting", waiting.join(", ")),
        ],
        expired_at,
    );
    let fails_why = failover_why(&ends, tolerable, expired_at);
    let labels: Vec<String> = triggered
        .iter()
        .map(|(_, id)| format!("chk-{id}"))
        .collect();
    let yes_no = |b: bool| BTreeSet::from([if b { "yes" } else { "no" }.to_string()]);
    Ok((
        question(&[("timeout_ms", timeout), ("tolerable_failures", tolerable)]),
        expired_at,
        vec![
            Blank {
                name: "expired".into(),
                answer: Answer::Labels(
                    ends.expired
                        .iter()
                        .map(|(_, id)| format!("chk-{id}"))
                        .collect(),
                ),
                choices: Vec::new(),
                labels,
                why: Some(expired_why),
            },
            Blank {
                name: "fails_over".into(),
                answer: Answer::Labels(yes_no(fails_over)),
                choices: Vec::new(),
                labels: vec!["yes".into(), "no".into()],
                why: Some(fails_why),
            },
        ],
    ))
}

/// The first attempt: every event before the first failover (the expiry that
/// exceeds the tolerable count comes just before it, in the same millisecond).
fn first_attempt(trace: &[TraceEvent]) -> Vec<&TraceEvent> {
    trace
        .iter()
        .take_while(|e| {
            !matches!(
                e.event,
                Event::JobRestarting { .. } | Event::JobFailed { .. }
            )
        })
        .collect()
}

/// The checkpoints of one attempt that expired, as
/// `CheckpointFailureManager` counts them.
struct Expiries {
    /// Each expiry's time and checkpoint id, in order.
    expired: Vec<(u64, u64)>,
    /// The longest run of consecutive expiries.
    longest: u64,
    /// The first expiry that made the run exceed the tolerable count: its
    /// time, checkpoint id and the run's length.
    exceeded_at: Option<(u64, u64, u64)>,
}

/// Each checkpoint's end in the attempt `first`: a completed one resets the
/// count of consecutive failures, an expired one adds to it.
fn expiries(first: &[&TraceEvent], tolerable: u64) -> Expiries {
    let mut expired: Vec<(u64, u64)> = Vec::new();
    let (mut run_len, mut longest, mut exceeded_at) = (0u64, 0u64, None);
    for e in first {
        match &e.event {
            Event::CheckpointCompleted { .. } => run_len = 0,
            Event::CheckpointAborted {
                checkpoint,
                reason: AbortCause::Expired,
            } => {
                expired.push((e.t, checkpoint.0));
                run_len += 1;
                longest = longest.max(run_len);
                if run_len > tolerable && exceeded_at.is_none() {
                    exceeded_at = Some((e.t, checkpoint.0, run_len));
                }
            }
            _ => {}
        }
    }
    Expiries {
        expired,
        longest,
        exceeded_at,
    }
}

/// The subtasks that had not acknowledged the first expired checkpoint when it
/// expired: every subtask of the job but those that had.
fn waiting_subtasks(
    s: &Scenario,
    first: &[&TraceEvent],
    expired_at: u64,
    first_expired: u64,
) -> Vec<String> {
    let acked: BTreeSet<String> = first
        .iter()
        .filter(|e| e.t <= expired_at)
        .filter_map(|e| match &e.event {
            Event::CheckpointAcknowledged { task, checkpoint } if checkpoint.0 == first_expired => {
                Some(task.to_string())
            }
            _ => None,
        })
        .collect();
    s.job
        .operators
        .iter()
        .flat_map(|o| (0..o.parallelism).map(move |i| format!("{}#{i}", o.uid)))
        .filter(|t| !acked.contains(t))
        .collect()
}

/// Why the job fails over or not: the expiry that exceeded the tolerable count,
/// or the longest run of expiries that stayed within it.
fn failover_why(ends: &Expiries, tolerable: u64, expired_at: u64) -> Why {
    match ends.exceeded_at {
        Some((t, id, n)) => why(
            "tolerable_exceeded",
            &[
                ("checkpoint", id.to_string()),
                ("failures", n.to_string()),
                ("tolerable", tolerable.to_string()),
                ("at", t.to_string()),
            ],
            t,
        ),
        None => why(
            "tolerable_within",
            &[
                ("failures", ends.longest.to_string()),
                ("tolerable", tolerable.to_string()),
            ],
            ends.expired.last().map_or(expired_at, |(t, _)| *t),
        ),
    }
}
