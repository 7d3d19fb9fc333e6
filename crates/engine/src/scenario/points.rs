//! A lesson's points: the events of its run the lesson is about (an expiry, the
//! failover, the broker's abort of a transaction …), declared in the scenario
//! document's `points` and found in a run's trace by [`Point::matches`] and
//! [`PointTracker`]. The page stops at each one (auto-pause, PageDown); the
//! matching lives here, once, so the page and the tests agree on which event is
//! the point.
//!
//! A point is expected in every checkpoint mode the lesson runs, except those it
//! names in `absent` (an event that does not happen in that mode: an unaligned
//! barrier overtakes the backlog, so no checkpoint expires).

use super::{CheckpointingMode, Scenario};
use crate::cause::AbortCause;
use crate::event::{Event, TraceEvent};
use serde::{Deserialize, Serialize};

/// Which event a point is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PointEvent {
    /// A checkpoint (or savepoint) completed (`checkpoint_completed`).
    CheckpointCompleted,
    /// A checkpoint expired: not acknowledged within its timeout
    /// (`checkpoint_aborted` with reason `expired`).
    CheckpointExpired,
    /// A checkpoint was aborted, for any reason (`checkpoint_aborted`).
    CheckpointAborted,
    /// A task switched an aligned checkpoint to unaligned (`alignment_timed_out`).
    AlignmentTimedOut,
    /// An unaligned barrier overtook in-flight records (`barrier_overtook`).
    BarrierOvertook,
    /// A subtask failed (`task_failed`).
    TaskFailed,
    /// The job fails over: the restart strategy allows a restart (`job_restarting`).
    Failover,
    /// The job failed for good (`job_failed`).
    JobFailed,
    /// The job was canceled (`job_canceled`).
    JobCanceled,
    /// The job finished (`job_finished`).
    JobFinished,
    /// The JobManager died (`jobmanager_failed`).
    JobmanagerFailed,
    /// Subtasks restored their state (`state_restored`).
    StateRestored,
    /// A two-phase-commit transaction was committed (`transaction_committed`).
    TransactionCommitted,
    /// A transaction was aborted, by the sink or by the broker for its timeout
    /// (`transaction_aborted`).
    TransactionAborted,
    /// A pre-committed transaction could not be committed and its records were
    /// lost (`transaction_commit_failed`).
    TransactionCommitFailed,
    /// The snapshot a `CLAIM` restore took over was deleted (`claimed_snapshot_deleted`).
    ClaimedSnapshotDeleted,
    /// The job ended and its retained checkpoints were deleted (`checkpoints_discarded`).
    CheckpointsDiscarded,
}

impl PointEvent {
    /// Every point event, in declaration order.
    pub const ALL: [PointEvent; 17] = [
        PointEvent::CheckpointCompleted,
        PointEvent::CheckpointExpired,
        PointEvent::CheckpointAborted,
        PointEvent::AlignmentTimedOut,
        PointEvent::BarrierOvertook,
        PointEvent::TaskFailed,
        PointEvent::Failover,
        PointEvent::JobFailed,
        PointEvent::JobCanceled,
        PointEvent::JobFinished,
        PointEvent::JobmanagerFailed,
        PointEvent::StateRestored,
        PointEvent::TransactionCommitted,
        PointEvent::TransactionAborted,
        PointEvent::TransactionCommitFailed,
        PointEvent::ClaimedSnapshotDeleted,
        PointEvent::CheckpointsDiscarded,
    ];

    /// The JSON spelling (`"checkpoint_expired"`); also the page's
    /// `moment_<key>` wording key.
    pub fn key(self) -> &'static str {
        match self {
            PointEvent::CheckpointCompleted => "checkpoint_completed",
            PointEvent::CheckpointExpired => "checkpoint_expired",
            PointEvent::CheckpointAborted => "checkpoint_aborted",
            PointEvent::AlignmentTimedOut => "alignment_timed_out",
            PointEvent::BarrierOvertook => "barrier_overtook",
            PointEvent::TaskFailed => "task_failed",
            PointEvent::Failover => "failover",
            PointEvent::JobFailed => "job_failed",
            PointEvent::JobCanceled => "job_canceled",
            PointEvent::JobFinished => "job_finished",
            PointEvent::JobmanagerFailed => "jobmanager_failed",
            PointEvent::StateRestored => "state_restored",
            PointEvent::TransactionCommitted => "transaction_committed",
            PointEvent::TransactionAborted => "transaction_aborted",
            PointEvent::TransactionCommitFailed => "transaction_commit_failed",
            PointEvent::ClaimedSnapshotDeleted => "claimed_snapshot_deleted",
            PointEvent::CheckpointsDiscarded => "checkpoints_discarded",
        }
    }

    /// Whether `event` is an event of this kind, whichever its checkpoint,
    /// transaction or task (the event a caption says at the point's moment).
    pub fn matches(self, event: &Event) -> bool {
        Point {
            event: self,
            checkpoint: None,
            txn: None,
            task: None,
            nth: None,
            absent: Vec::new(),
        }
        .matches(event)
    }

    /// Whether a point of this event may name a `checkpoint`.
    fn has_checkpoint(self) -> bool {
        !matches!(
            self,
            PointEvent::TaskFailed
                | PointEvent::Failover
                | PointEvent::JobFailed
                | PointEvent::JobCanceled
                | PointEvent::JobFinished
                | PointEvent::JobmanagerFailed
        )
    }

    /// Whether a point of this event may name a `txn`.
    fn has_txn(self) -> bool {
        matches!(
            self,
            PointEvent::TransactionCommitted
                | PointEvent::TransactionAborted
                | PointEvent::TransactionCommitFailed
        )
    }

    /// Whether a point of this event may name a `task`.
    fn has_task(self) -> bool {
        matches!(
            self,
            PointEvent::AlignmentTimedOut
                | PointEvent::BarrierOvertook
                | PointEvent::TaskFailed
                | PointEvent::StateRestored
                | PointEvent::TransactionCommitted
                | PointEvent::TransactionAborted
                | PointEvent::TransactionCommitFailed
        )
    }
}

/// A checkpoint mode a lesson runs in (the page's mode picker, `lab run --mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PointMode {
    /// Exactly-once with barrier alignment.
    Aligned,
    /// Exactly-once, unaligned checkpoints.
    Unaligned,
    /// At-least-once.
    AtLeastOnce,
}

impl PointMode {
    /// The modes a lesson with checkpointing runs in.
    pub const ALL: [PointMode; 3] = [
        PointMode::Aligned,
        PointMode::Unaligned,
        PointMode::AtLeastOnce,
    ];

    /// The JSON spelling (`"at-least-once"`).
    pub fn key(self) -> &'static str {
        match self {
            PointMode::Aligned => "aligned",
            PointMode::Unaligned => "unaligned",
            PointMode::AtLeastOnce => "at-least-once",
        }
    }

    /// The mode `scenario` is configured with; `None` without checkpointing.
    pub fn of(scenario: &Scenario) -> Option<PointMode> {
        let config = scenario.checkpointing.as_ref()?;
        Some(if config.mode == CheckpointingMode::AtLeastOnce {
            PointMode::AtLeastOnce
        } else if config.unaligned {
            PointMode::Unaligned
        } else {
            PointMode::Aligned
        })
    }
}

/// One declared point: which event, optionally narrowed to one checkpoint,
/// transaction or task, and which occurrence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// The event.
    pub event: PointEvent,
    /// Only events of this checkpoint id (for a transaction, the checkpoint it
    /// belongs to; for `state_restored`, the checkpoint restored; for
    /// `checkpoints_discarded`, one of those deleted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<u64>,
    /// Only events of this transaction number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub txn: Option<u64>,
    /// Only events of this subtask (`"<uid>#<index>"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// The n-th simulated instant with a matching event (1 = the first; default
    /// 1). Several matching events at one instant (every subtask restoring) are
    /// one occurrence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nth: Option<u32>,
    /// Checkpoint modes in which the event does not happen.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<PointMode>,
}

impl Point {
    /// Whether `event` is this point's kind of event with its checkpoint,
    /// transaction and task (occurrences aside: see [`PointTracker`]).
    pub fn matches(&self, event: &Event) -> bool {
        let (checkpoint, txn, task): (Option<u64>, Option<u64>, Option<&str>) =
            match (self.event, event) {
                (PointEvent::CheckpointCompleted, Event::CheckpointCompleted { checkpoint }) => {
                    (Some(checkpoint.0), None, None)
                }
                (
                    PointEvent::CheckpointExpired,
                    Event::CheckpointAborted { checkpoint, reason },
                ) if *reason == AbortCause::Expired => (Some(checkpoint.0), None, None),
                (PointEvent::CheckpointAborted, Event::CheckpointAborted { checkpoint, .. }) => {
                    (Some(checkpoint.0), None, None)
                }
                (PointEvent::AlignmentTimedOut, Event::AlignmentTimedOut { task, checkpoint })
                | (
                    PointEvent::BarrierOvertook,
                    Event::BarrierOvertook {
                        task, checkpoint, ..
                    },
                ) => (Some(checkpoint.0), None, Some(task)),
                (PointEvent::TaskFailed, Event::TaskFailed { task, .. }) => {
                    (None, None, Some(task))
                }
                (PointEvent::Failover, Event::JobRestarting { .. })
                | (PointEvent::JobFailed, Event::JobFailed { .. })
                | (PointEvent::JobCanceled, Event::JobCanceled)
                | (PointEvent::JobFinished, Event::JobFinished)
                | (PointEvent::JobmanagerFailed, Event::JobmanagerFailed { .. }) => {
                    (None, None, None)
                }
                (
                    PointEvent::StateRestored,
                    Event::StateRestored {
                        task, checkpoint, ..
                    },
                ) => {
                    if self.checkpoint.is_some() && checkpoint.is_none() {
                        return false;
                    }
                    (checkpoint.map(|c| c.0), None, Some(task))
                }
                (
                    PointEvent::TransactionCommitted,
                    Event::TransactionCommitted {
                        task,
                        txn,
                        checkpoint,
                    },
                )
                | (
                    PointEvent::TransactionAborted,
                    Event::TransactionAborted {
                        task,
                        txn,
                        checkpoint,
                    },
                )
                | (
                    PointEvent::TransactionCommitFailed,
                    Event::TransactionCommitFailed {
                        task,
                        txn,
                        checkpoint,
                        ..
                    },
                ) => {
                    if self.checkpoint.is_some() && checkpoint.is_none() {
                        return false;
                    }
                    (checkpoint.map(|c| c.0), Some(*txn), Some(task))
                }
                (
                    PointEvent::ClaimedSnapshotDeleted,
                    Event::ClaimedSnapshotDeleted { checkpoint },
                ) => (Some(checkpoint.0), None, None),
                (
                    PointEvent::CheckpointsDiscarded,
                    Event::CheckpointsDiscarded { checkpoints, .. },
                ) => {
                    if let Some(want) = self.checkpoint {
                        return checkpoints.iter().any(|c| c.0 == want)
                            && self.txn.is_none()
                            && self.task.is_none();
                    }
                    (None, None, None)
                }
                _ => return false,
            };
        self.checkpoint.is_none_or(|want| checkpoint == Some(want))
            && self.txn.is_none_or(|want| txn == Some(want))
            && self.task.as_deref().is_none_or(|want| task == Some(want))
    }

    /// Whether the point is expected in `mode` (`None`: a lesson without
    /// checkpointing, where every point is expected).
    pub fn expected_in(&self, mode: Option<PointMode>) -> bool {
        mode.is_none_or(|m| !self.absent.contains(&m))
    }

    /// The occurrence wanted (1-based).
    pub fn nth(&self) -> u32 {
        self.nth.unwrap_or(1)
    }

    /// The field errors of this point, found at `path` (`points[2]`), for a
    /// lesson that runs `modes` (empty: no checkpointing).
    pub(super) fn errors(&self, path: &str, modes: &[PointMode]) -> Vec<(String, String)> {
        let mut errors = Vec::new();
        let event = self.event.key();
        if self.checkpoint.is_some() && !self.event.has_checkpoint() {
            errors.push((
                format!("{path}.checkpoint"),
                format!("a `{event}` point names no checkpoint"),
            ));
        }
        if self.txn.is_some() && !self.event.has_txn() {
            errors.push((
                format!("{path}.txn"),
                format!("only a transaction point names a `txn`, not a `{event}` point"),
            ));
        }
        if let Some(task) = &self.task {
            if !self.event.has_task() {
                errors.push((
                    format!("{path}.task"),
                    format!("a `{event}` point names no task"),
                ));
            } else if super::parse_task_name(task).is_none() {
                errors.push((
                    format!("{path}.task"),
                    format!("\"{task}\" is not a subtask: a task is \"<uid>#<index>\""),
                ));
            }
        }
        if self.nth == Some(0) {
            errors.push((
                format!("{path}.nth"),
                "occurrences count from 1".to_string(),
            ));
        }
        for (i, mode) in self.absent.iter().enumerate() {
            let at = format!("{path}.absent[{i}]");
            if !modes.contains(mode) {
                let why = if modes.is_empty() {
                    "the lesson has no checkpointing, so it runs in no checkpoint mode".to_string()
                } else {
                    format!("the lesson does not run in mode `{}`", mode.key())
                };
                errors.push((at, why));
            } else if self.absent[..i].contains(mode) {
                errors.push((at, format!("mode `{}` is named twice", mode.key())));
            }
        }
        if !modes.is_empty() && modes.iter().all(|m| self.absent.contains(m)) {
            errors.push((
                format!("{path}.absent"),
                "the point is absent in every mode the lesson runs: leave it out".to_string(),
            ));
        }
        errors
    }
}

/// Finds the declared points in a run's events as they come: each point is
/// reached once, at the event that makes its n-th occurrence.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PointTracker {
    /// Per point: occurrences seen so far and the time of the last one.
    seen: Vec<(u32, Option<u64>)>,
}

impl PointTracker {
    /// A tracker for `points`.
    pub fn new(points: &[Point]) -> PointTracker {
        PointTracker {
            seen: vec![(0, None); points.len()],
        }
    }

    /// The indices (into `points`, the same list as given to [`PointTracker::new`])
    /// of the points `event` reaches.
    pub fn observe(&mut self, points: &[Point], event: &TraceEvent) -> Vec<usize> {
        let mut reached = Vec::new();
        for (i, (point, seen)) in points.iter().zip(self.seen.iter_mut()).enumerate() {
            if !point.matches(&event.event) || seen.1 == Some(event.t) {
                continue;
            }
            seen.0 += 1;
            seen.1 = Some(event.t);
            if seen.0 == point.nth() {
                reached.push(i);
            }
        }
        reached
    }
}

/// The time at which each of `points` is reached in `events` (`None`: never).
pub fn reached_at<'a>(
    points: &[Point],
    events: impl IntoIterator<Item = &'a TraceEvent>,
) -> Vec<Option<u64>> {
    let mut tracker = PointTracker::new(points);
    let mut at = vec![None; points.len()];
    for event in events {
        for i in tracker.observe(points, event) {
            at[i] = Some(event.t);
        }
    }
    at
}

impl Scenario {
    /// The declared points expected in the mode this scenario is configured with,
    /// with their indices in `points`.
    pub fn points_expected(&self) -> Vec<(usize, &Point)> {
        let mode = PointMode::of(self);
        self.points
            .iter()
            .enumerate()
            .filter(|(_, p)| p.expected_in(mode))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cause::AbortCause;
    use crate::ids::CheckpointId;
    use std::sync::Arc;

    fn point(json: &str) -> Point {
        serde_json::from_str(json).expect("a point")
    }

    fn at(t: u64, event: Event) -> TraceEvent {
        TraceEvent { t, event }
    }

    fn aborted(c: u64, reason: AbortCause) -> Event {
        Event::CheckpointAborted {
            checkpoint: CheckpointId(c),
            reason,
        }
    }

    #[test]
    fn an_expiry_point_matches_only_its_checkpoints_expiry() {
        let p = point(r#"{"event": "checkpoint_expired", "checkpoint": 2}"#);
        assert!(p.matches(&aborted(2, AbortCause::Expired)));
        assert!(
            !p.matches(&aborted(1, AbortCause::Expired)),
            "another checkpoint"
        );
        assert!(
            !p.matches(&aborted(2, AbortCause::Subsumed)),
            "another reason"
        );
        let any = point(r#"{"event": "checkpoint_aborted"}"#);
        assert!(any.matches(&aborted(2, AbortCause::Subsumed)));
        assert!(!any.matches(&Event::JobCanceled));
    }

    #[test]
    fn a_transaction_point_matches_its_txn_and_task() {
        let p = point(r#"{"event": "transaction_aborted", "txn": 3, "task": "kafka-out#0"}"#);
        let ev = |task: &str, txn| Event::TransactionAborted {
            task: Arc::from(task),
            txn,
            checkpoint: Some(CheckpointId(3)),
        };
        assert!(p.matches(&ev("kafka-out#0", 3)));
        assert!(!p.matches(&ev("kafka-out#0", 2)));
        assert!(!p.matches(&ev("audit-out#0", 3)));
        let by_checkpoint = point(r#"{"event": "transaction_aborted", "checkpoint": 3}"#);
        assert!(by_checkpoint.matches(&ev("x#0", 9)));
        let none = Event::TransactionAborted {
            task: Arc::from("x#0"),
            txn: 1,
            checkpoint: None,
        };
        assert!(
            !by_checkpoint.matches(&none),
            "no checkpoint is not checkpoint 3"
        );
    }

    #[test]
    fn occurrences_count_instants_not_events() {
        let points = vec![
            point(r#"{"event": "state_restored", "nth": 2}"#),
            point(r#"{"event": "failover"}"#),
        ];
        let restored = |t, task: &str| {
            at(
                t,
                Event::StateRestored {
                    task: Arc::from(task),
                    checkpoint: None,
                    savepoint: false,
                },
            )
        };
        let events = [
            restored(0, "a#0"),
            restored(0, "b#0"),
            at(900, Event::JobRestarting { delay_ms: 100 }),
            restored(1000, "a#0"),
            restored(1000, "b#0"),
        ];
        assert_eq!(reached_at(&points, &events), vec![Some(1000), Some(900)]);
        let mut tracker = PointTracker::new(&points);
        let hits: Vec<Vec<usize>> = events.iter().map(|e| tracker.observe(&points, e)).collect();
        assert_eq!(
            hits,
            vec![vec![], vec![], vec![1], vec![0], vec![]],
            "each point once"
        );
    }

    #[test]
    fn a_point_is_expected_except_where_absent() {
        let p = point(r#"{"event": "job_failed", "absent": ["unaligned"]}"#);
        assert!(p.expected_in(Some(PointMode::Aligned)));
        assert!(p.expected_in(Some(PointMode::AtLeastOnce)));
        assert!(!p.expected_in(Some(PointMode::Unaligned)));
        assert!(p.expected_in(None));
    }

    #[test]
    fn field_errors_name_the_field() {
        let all = PointMode::ALL;
        let errors = |json: &str, modes: &[PointMode]| -> Vec<String> {
            point(json)
                .errors("points[1]", modes)
                .into_iter()
                .map(|(f, m)| format!("{f}: {m}"))
                .collect()
        };
        assert_eq!(
            errors(
                r#"{"event": "job_failed", "txn": 1, "checkpoint": 2}"#,
                &all
            ),
            vec![
                "points[1].checkpoint: a `job_failed` point names no checkpoint",
                "points[1].txn: only a transaction point names a `txn`, not a `job_failed` point",
            ]
        );
        assert_eq!(
            errors(r#"{"event": "task_failed", "task": "sum", "nth": 0}"#, &all),
            vec![
                "points[1].task: \"sum\" is not a subtask: a task is \"<uid>#<index>\"",
                "points[1].nth: occurrences count from 1",
            ]
        );
        assert_eq!(
            errors(r#"{"event": "failover", "absent": ["aligned"]}"#, &[]),
            vec!["points[1].absent[0]: the lesson has no checkpointing, so it runs in no checkpoint mode"]
        );
        assert_eq!(
            errors(
                r#"{"event": "failover", "absent": ["aligned", "aligned"]}"#,
                &all
            ),
            vec!["points[1].absent[1]: mode `aligned` is named twice"]
        );
        assert_eq!(
            errors(
                r#"{"event": "failover", "absent": ["aligned", "unaligned", "at-least-once"]}"#,
                &all
            ),
            vec![
                "points[1].absent: the point is absent in every mode the lesson runs: leave it out"
            ]
        );
        assert!(errors(
            r#"{"event": "transaction_commit_failed", "txn": 3, "task": "k#0"}"#,
            &all
        )
        .is_empty());
    }

    #[test]
    fn every_point_event_has_its_own_key() {
        let keys: std::collections::BTreeSet<&str> =
            PointEvent::ALL.iter().map(|e| e.key()).collect();
        assert_eq!(keys.len(), PointEvent::ALL.len());
        for e in PointEvent::ALL {
            let json = serde_json::to_string(&e).expect("serializes");
            assert_eq!(
                json,
                format!("\"{}\"", e.key()),
                "the key is the JSON spelling"
            );
        }
    }
}
