//! What each lesson pair's chart shows, read from engine views (pure, tested
//! natively against real runs). The component ([`super::chart`]) only draws it.

use engine::trace::SnapshotKind;
use engine::trace::{AbortCause, FailureCause};
use engine::view::failure_counter::CounterStep;
use engine::view::CheckpointStatus;
use engine::view::WorldView;
use engine::JobStatus;

use crate::lessons::pair::PAIRS;
use crate::playback::Mode;

/// The comparison a chart makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// rocksdb vs hashmap: uploaded vs full size per checkpoint.
    Backends,
    /// The three restart strategies: failures, delays and restarts on one time axis.
    Restarts,
    /// checkpoint-config vs -strict: aborted and expired checkpoints, the counter.
    Tolerable,
    /// jobmanager vs filesystem storage: which checkpoints survive the crash.
    Storage,
    /// The twin view's aligned vs unaligned: alignment time and persisted records.
    Alignment,
}

impl Kind {
    /// Stable key (`data-chart`, tests).
    pub fn key(self) -> &'static str {
        match self {
            Kind::Backends => "backends",
            Kind::Restarts => "restarts",
            Kind::Tolerable => "tolerable",
            Kind::Storage => "storage",
            Kind::Alignment => "alignment",
        }
    }
}

/// The chart of the lesson pair `scenario` belongs to. The pair exactly-once vs
/// plain has its own view of the committed output (the sink verdicts), not a chart.
pub fn pair_kind(scenario: &str) -> Option<Kind> {
    let group = PAIRS.iter().find(|g| g.contains(&scenario))?;
    match group[0] {
        "state-backend-rocksdb" => Some(Kind::Backends),
        "restart-fixed-delay" => Some(Kind::Restarts),
        "checkpoint-config" | "backpressure-expired" => Some(Kind::Tolerable),
        "jobmanager-crash-jobmanager" => Some(Kind::Storage),
        _ => None,
    }
}

/// The chart of the twin view's mode comparison: aligned vs unaligned only.
pub fn twin_kind(a: Mode, b: Mode) -> Option<Kind> {
    matches!(
        (a, b),
        (Mode::Aligned, Mode::Unaligned) | (Mode::Unaligned, Mode::Aligned)
    )
    .then_some(Kind::Alignment)
}

/// The members of `scenario`'s group, in library order (the restart strategies
/// are three; the chart shows every one).
pub fn group_of(scenario: &str) -> Vec<&'static str> {
    PAIRS
        .iter()
        .find(|g| g.contains(&scenario))
        .map(|g| g.to_vec())
        .unwrap_or_default()
}

/// Row labels for lessons of one group: what tells them apart (the names after
/// their common `-`-separated prefix: `fixed-delay`, `none`), or the whole names
/// when one is the prefix of another (`checkpoint-config`, `…-strict`).
pub fn short_names(names: &[&str]) -> Vec<String> {
    let parts: Vec<Vec<&str>> = names.iter().map(|n| n.split('-').collect()).collect();
    let common = (0..)
        .take_while(|i| {
            parts.iter().all(|p| p.len() > *i + 1) && parts.iter().all(|p| p[*i] == parts[0][*i])
        })
        .count();
    if names.len() < 2 || common == 0 {
        return names.iter().map(|n| n.to_string()).collect();
    }
    let short: Vec<String> = parts.iter().map(|p| p[common..].join("-")).collect();
    let nested = short.iter().any(|a| {
        short
            .iter()
            .any(|b| a != b && b.starts_with(&format!("{a}-")))
    });
    if nested {
        names.iter().map(|n| n.to_string()).collect()
    } else {
        short
    }
}

/// One checkpoint's sizes, summed over its subtasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeBar {
    /// Checkpoint id.
    pub id: u64,
    /// Full state size in bytes.
    pub full: u64,
    /// Bytes uploaded for it (less than `full` with incremental rocksdb).
    pub uploaded: u64,
}

/// Completed checkpoints' full and uploaded sizes (Flink's web UI: "Checkpointed
/// Data Size" vs "Full Checkpoint Data Size").
pub fn sizes(v: &WorldView) -> Vec<SizeBar> {
    v.coordinator
        .history
        .iter()
        .filter(|c| c.status == CheckpointStatus::Completed && c.kind == SnapshotKind::Checkpoint)
        .map(|c| SizeBar {
            id: c.id.0,
            full: c.subtasks.values().map(|s| s.state_bytes).sum(),
            uploaded: c.subtasks.values().map(|s| s.uploaded_bytes).sum(),
        })
        .collect()
}

/// One failure on the restart timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failure {
    /// When it happened.
    pub at_ms: u64,
    /// When the job restarted (`None`: not yet, or never).
    pub restarted_ms: Option<u64>,
}

/// One restart strategy's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RestartRow {
    /// Failures up to now.
    pub failures: Vec<Failure>,
    /// When the strategy gave up and the job failed.
    pub failed_at: Option<u64>,
    /// A restart is due then (the delay is running).
    pub restart_at: Option<u64>,
}

/// The restart row of a run now.
pub fn restarts(v: &WorldView) -> RestartRow {
    let failures: Vec<Failure> = v
        .failures
        .iter()
        .filter(|f| f.at_ms <= v.now)
        .map(|f| Failure {
            at_ms: f.at_ms,
            restarted_ms: f.restarted_ms.filter(|r| *r <= v.now),
        })
        .collect();
    let failed_at =
        (v.status == JobStatus::Failed).then(|| failures.last().map_or(v.now, |f| f.at_ms));
    RestartRow {
        failures,
        failed_at,
        restart_at: v.restart_at,
    }
}

/// How a checkpoint ended, for the tolerable-failure chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Completed.
    Completed,
    /// Aborted by its timeout (Flink: `CHECKPOINT_EXPIRED`).
    Expired,
    /// Aborted for another reason.
    Aborted,
    /// Still pending.
    Pending,
}

/// A checkpoint on the tolerable-failure chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Checkpoint id.
    pub id: u64,
    /// Its outcome.
    pub outcome: Outcome,
    /// Trigger and end.
    pub trigger_at: u64,
    /// End (`None` while pending).
    pub end_at: Option<u64>,
}

/// Every checkpoint so far, with its outcome.
pub fn outcomes(v: &WorldView) -> Vec<Mark> {
    v.coordinator
        .history
        .iter()
        .filter(|c| c.kind == SnapshotKind::Checkpoint)
        .map(|c| Mark {
            id: c.id.0,
            outcome: match (c.status, &c.cause) {
                (CheckpointStatus::Completed, _) => Outcome::Completed,
                (CheckpointStatus::InProgress, _) => Outcome::Pending,
                (_, Some(AbortCause::Expired)) => Outcome::Expired,
                _ => Outcome::Aborted,
            },
            trigger_at: c.trigger_at,
            end_at: c.end_at,
        })
        .collect()
}

/// The counter's value at `t`, from a trace of its changes.
pub fn counter_at(trace: &[CounterStep], t: u64) -> u32 {
    trace
        .iter()
        .take_while(|s| s.at_ms <= t)
        .last()
        .map_or(0, |s| s.value)
}

/// Failovers caused by too many failed checkpoints, up to now.
pub fn counter_failovers(v: &WorldView) -> Vec<u64> {
    v.failures
        .iter()
        .filter(|f| matches!(f.reason, FailureCause::TolerableFailuresExceeded(_)))
        .map(|f| f.at_ms)
        .collect()
}

/// What became of a completed checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Still retained.
    Kept,
    /// Lost with the JobManager's memory (or deleted when the job ended).
    Lost,
    /// Replaced by a newer one (only the retained number are kept).
    Subsumed,
}

/// A completed checkpoint and what became of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kept {
    /// Checkpoint id.
    pub id: u64,
    /// Completion time.
    pub completed_at: u64,
    /// Kept, lost or subsumed.
    pub fate: Fate,
}

impl Kept {
    /// Lost with the JobManager (or deleted).
    pub fn lost(&self) -> bool {
        self.fate == Fate::Lost
    }
}

/// What survives a JobManager crash: the checkpoints, the crash and what the job
/// restored from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Survival {
    /// Completed checkpoints, kept or lost.
    pub checkpoints: Vec<Kept>,
    /// When the JobManager crashed (if it did, by now).
    pub crash_at: Option<u64>,
    /// After the crash: `Some(Some(id))` restored from chk-id, `Some(None)` started
    /// afresh; `None` before the job restarted.
    pub restored: Option<Option<u64>>,
}

/// [`Survival`] of a run now.
pub fn survival(v: &WorldView) -> Survival {
    let checkpoints: Vec<Kept> = v
        .coordinator
        .history
        .iter()
        .filter(|c| c.status == CheckpointStatus::Completed && c.kind == SnapshotKind::Checkpoint)
        .map(|c| {
            let stored = v.coordinator.storage.iter().find(|s| s.id == c.id);
            Kept {
                id: c.id.0,
                completed_at: c.end_at.unwrap_or(c.trigger_at),
                fate: match stored {
                    Some(s) if s.discarded => Fate::Lost,
                    Some(_) => Fate::Kept,
                    None => Fate::Subsumed,
                },
            }
        })
        .collect();
    let crash = v
        .failures
        .iter()
        .find(|f| f.reason == FailureCause::JobManagerLost && f.at_ms <= v.now);
    Survival {
        checkpoints,
        crash_at: crash.map(|f| f.at_ms),
        restored: crash
            .filter(|f| f.restarted_ms.is_some_and(|r| r <= v.now))
            .map(|f| f.restored_from.map(|c| c.0)),
    }
}

/// One checkpoint's alignment figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlignBar {
    /// Checkpoint id.
    pub id: u64,
    /// The longest alignment over its subtasks (Flink's web UI: "Alignment Duration", max).
    pub alignment_ms: u64,
    /// In-flight records persisted into its channel state, summed.
    pub persisted: u64,
}

/// Alignment time and persisted in-flight data of every completed checkpoint.
pub fn alignment(v: &WorldView) -> Vec<AlignBar> {
    v.coordinator
        .history
        .iter()
        .filter(|c| c.status == CheckpointStatus::Completed && c.kind == SnapshotKind::Checkpoint)
        .map(|c| AlignBar {
            id: c.id.0,
            alignment_ms: c
                .subtasks
                .values()
                .map(|s| s.alignment_ms())
                .max()
                .unwrap_or(0),
            persisted: c.subtasks.values().map(|s| s.persisted_records).sum(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{runner, World};

    fn at(name: &str, t: Option<u64>, mode: Option<runner::ModeOverride>) -> WorldView {
        let mut s = runner::load(name).unwrap();
        let opts = runner::RunOptions {
            mode,
            ..Default::default()
        };
        runner::apply_options(&mut s, &opts).unwrap();
        let mut w = World::new(&s, s.seed).unwrap();
        w.run_to_end(t, runner::DEFAULT_LIMIT_MS, |_| {});
        w.view()
    }

    #[test]
    fn every_pair_but_exactly_once_has_a_chart() {
        assert_eq!(pair_kind("state-backend-hashmap"), Some(Kind::Backends));
        assert_eq!(pair_kind("restart-none"), Some(Kind::Restarts));
        assert_eq!(pair_kind("checkpoint-config-strict"), Some(Kind::Tolerable));
        assert_eq!(
            pair_kind("jobmanager-crash-filesystem"),
            Some(Kind::Storage)
        );
        assert_eq!(pair_kind("exactly-once-kafka"), None);
        assert_eq!(pair_kind("pv-count"), None);
        assert_eq!(
            twin_kind(Mode::Aligned, Mode::Unaligned),
            Some(Kind::Alignment)
        );
        assert_eq!(twin_kind(Mode::AtLeastOnce, Mode::Aligned), None);
        assert_eq!(group_of("restart-none").len(), 4);
        assert_eq!(
            short_names(&group_of("restart-none")),
            ["fixed-delay", "failure-rate", "none", "exponential-delay"]
        );
        assert_eq!(
            short_names(&["jobmanager-crash-jobmanager", "jobmanager-crash-filesystem"]),
            ["jobmanager", "filesystem"]
        );
        assert_eq!(
            short_names(&["checkpoint-config", "checkpoint-config-strict"]),
            ["checkpoint-config", "checkpoint-config-strict"]
        );
    }

    /// Incremental rocksdb uploads less than its full state from chk-2 on; the
    /// hashmap backend uploads all of it every time.
    #[test]
    fn backends_differ_in_uploaded_not_full_size() {
        let r = sizes(&at("state-backend-rocksdb", Some(4000), None));
        let h = sizes(&at("state-backend-hashmap", Some(4000), None));
        assert_eq!(r.len(), 3);
        assert_eq!(
            r.iter().map(|b| b.full).collect::<Vec<_>>(),
            h.iter().map(|b| b.full).collect::<Vec<_>>()
        );
        assert!(h.iter().all(|b| b.uploaded == b.full));
        assert_eq!(r[0].uploaded, r[0].full);
        assert!(r[1..].iter().all(|b| b.uploaded < b.full), "{r:?}");
    }

    #[test]
    fn restart_rows_show_delays_and_where_each_strategy_gives_up() {
        let fixed = restarts(&at("restart-fixed-delay", None, None));
        let rate = restarts(&at("restart-failure-rate", None, None));
        let none = restarts(&at("restart-none", None, None));
        assert_eq!(none.failures.len(), 1);
        assert_eq!(none.failed_at, Some(500));
        assert_eq!(fixed.failures.len(), 3);
        assert_eq!(fixed.failures[0].restarted_ms, Some(700));
        assert_eq!(fixed.failed_at, Some(2800));
        assert_eq!(rate.failures.len(), 4);
        assert_eq!(rate.failed_at, Some(3300));
        // Mid-run: the failure at 500 ms is in its delay.
        let mid = restarts(&at("restart-fixed-delay", Some(600), None));
        assert_eq!(
            mid.failures,
            vec![Failure {
                at_ms: 500,
                restarted_ms: None
            }]
        );
        assert_eq!(mid.restart_at, Some(700));
    }

    #[test]
    fn the_strict_twin_fails_over_on_every_expired_checkpoint() {
        let lax = at("checkpoint-config", None, None);
        let strict = at("checkpoint-config-strict", None, None);
        let expired = |v: &WorldView| {
            outcomes(v)
                .iter()
                .filter(|m| m.outcome == Outcome::Expired)
                .count()
        };
        assert_eq!(expired(&lax), 1);
        assert_eq!(expired(&strict), 4);
        assert!(counter_failovers(&lax).is_empty());
        assert_eq!(counter_failovers(&strict), vec![1985, 3085, 4185, 5285]);
        let s = runner::load("checkpoint-config").unwrap();
        let trace = engine::view::failure_counter::failure_counter_trace(&s, s.seed);
        assert_eq!(counter_at(&trace, 1984), 0);
        assert_eq!(counter_at(&trace, 1985), 1);
        assert_eq!(counter_at(&trace, 3000), 0);
    }

    #[test]
    fn jobmanager_storage_loses_its_checkpoints_with_the_crash() {
        let jm = survival(&at("jobmanager-crash-jobmanager", Some(4600), None));
        let fs = survival(&at("jobmanager-crash-filesystem", Some(4600), None));
        assert_eq!((jm.crash_at, fs.crash_at), (Some(3500), Some(3500)));
        assert_eq!(jm.restored, Some(None));
        assert_eq!(fs.restored, Some(Some(3)));
        let fates = |s: &Survival| {
            s.checkpoints
                .iter()
                .map(|c| (c.id, c.fate))
                .collect::<Vec<_>>()
        };
        use Fate::*;
        assert_eq!(fates(&jm), [(1, Subsumed), (2, Subsumed), (3, Lost)]);
        assert_eq!(fates(&fs), [(1, Subsumed), (2, Subsumed), (3, Kept)]);
        let before = survival(&at("jobmanager-crash-jobmanager", Some(3400), None));
        assert!(before.crash_at.is_none() && before.checkpoints.iter().all(|c| !c.lost()));
    }

    #[test]
    fn unaligned_persists_in_flight_data_aligned_waits() {
        use engine::runner::ModeOverride;
        let u = alignment(&at("unaligned-backpressure", None, None));
        let a = alignment(&at(
            "unaligned-backpressure",
            None,
            Some(ModeOverride::Aligned),
        ));
        assert!(u.iter().map(|b| b.persisted).sum::<u64>() > 0, "{u:?}");
        assert!(a.iter().all(|b| b.persisted == 0), "{a:?}");
        assert!(
            a.iter().map(|b| b.alignment_ms).max() > u.iter().map(|b| b.alignment_ms).max(),
            "{a:?} {u:?}"
        );
    }
}
