//! The words for enums, in one place: checkpointing modes, task, checkpoint and
//! transaction statuses, interventions and branches, scrubber markers, the event
//! log's categories, and why a job failed. The sentences themselves are in
//! `assets/i18n/ui.json` (through [`Msg`]); this module only says which message
//! names which value, plus the stable keys the stylesheet and the tests select on.
//!
//! Pure (no yew, no `web_sys`): unit-tested natively.

use engine::scenario::RestartConfig;
use engine::scenario::SinkKind;
use engine::trace::{FailureCause, FailureReason, JobFailure};
use engine::view::CheckpointStatus;
use engine::view::TxnStatus;
use engine::Intervention;
use engine::TaskStatus;

use crate::describe::Category;
use crate::i18n::{Lang, Msg};
use crate::playback::{BranchInfo, MarkerKind, Mode};

/// The label of a checkpointing mode.
pub fn mode(lang: Lang, mode: Mode) -> &'static str {
    lang.t(match mode {
        Mode::Aligned => Msg::ModeAligned,
        Mode::Unaligned => Msg::ModeUnaligned,
        Mode::AtLeastOnce => Msg::ModeAtLeastOnce,
        Mode::Off => Msg::ModeOff,
    })
}

/// The word for a task status.
pub fn task_status(lang: Lang, status: TaskStatus) -> &'static str {
    lang.t(match status {
        TaskStatus::Running => Msg::TaskRunning,
        TaskStatus::Waiting => Msg::TaskWaiting,
        TaskStatus::Finished => Msg::TaskFinished,
        TaskStatus::Failed => Msg::TaskFailed,
        TaskStatus::Canceled => Msg::TaskCanceled,
    })
}

/// A task status as a class suffix (`lane--failed`).
pub fn task_status_key(status: TaskStatus) -> &'static str {
    match status {
        TaskStatus::Running => "running",
        TaskStatus::Waiting => "waiting",
        TaskStatus::Finished => "finished",
        TaskStatus::Failed => "failed",
        TaskStatus::Canceled => "canceled",
    }
}

/// The glyph before a task status on the stage: a second cue besides colour.
pub fn task_status_glyph(status: TaskStatus) -> &'static str {
    match status {
        TaskStatus::Running => "▶",
        TaskStatus::Waiting => "…",
        TaskStatus::Finished => "✓",
        TaskStatus::Failed => "✕",
        TaskStatus::Canceled => "■",
    }
}

/// A checkpoint's status in the coordinator's history: its class, its word and
/// its glyph.
pub fn checkpoint_status(
    lang: Lang,
    status: CheckpointStatus,
) -> (&'static str, &'static str, &'static str) {
    match status {
        CheckpointStatus::InProgress => (
            "status status--progress",
            lang.t(Msg::StatusInProgress),
            "…",
        ),
        CheckpointStatus::Completed => (
            "status status--completed",
            lang.t(Msg::StatusCompleted),
            "✓",
        ),
        CheckpointStatus::Aborted => ("status status--aborted", lang.t(Msg::StatusAborted), "✕"),
    }
}

/// A checkpoint's status in the history with the engine's `reason` for an
/// aborted one: one that outlived the checkpoint timeout is said as expired
/// (Flink's `CHECKPOINT_EXPIRED`), never as aborted; otherwise as
/// [`checkpoint_status`].
pub fn checkpoint_status_with(
    lang: Lang,
    status: CheckpointStatus,
    reason: Option<&str>,
) -> (&'static str, &'static str, &'static str) {
    match (status, reason) {
        (CheckpointStatus::Aborted, Some("expired")) => (
            "status status--aborted status--expired",
            lang.t(Msg::StatusExpired),
            "✕",
        ),
        _ => checkpoint_status(lang, status),
    }
}

/// A sink transaction's status: its class suffix, its word and its glyph.
pub fn txn_status(lang: Lang, status: TxnStatus) -> (&'static str, &'static str, &'static str) {
    match status {
        TxnStatus::Open => ("open", lang.t(Msg::TxnOpen), "✎"),
        TxnStatus::Precommitted => ("pre-committed", lang.t(Msg::TxnPrecommitted), "◴"),
        TxnStatus::Committed => ("committed", lang.t(Msg::TxnCommitted), "✓"),
        TxnStatus::Aborted => ("aborted", lang.t(Msg::TxnAborted), "✕"),
    }
}

/// The heading of a sink of `kind`: what it guarantees, named (a plain sink is
/// never called two-phase commit).
pub fn sink_kind(lang: Lang, kind: SinkKind) -> &'static str {
    lang.t(match kind {
        SinkKind::TwoPhaseCommit => Msg::SinkKind2pc,
        SinkKind::AtLeastOnce => Msg::SinkKindPlain,
        SinkKind::Idempotent => Msg::SinkKindIdempotent,
    })
}

/// How the branch picker names an intervention.
pub fn intervention(lang: Lang, i: &Intervention) -> String {
    match i {
        Intervention::Crash { task } => lang.t(Msg::BranchCrash).replace("{task}", task),
        Intervention::TriggerCheckpoint => lang.t(Msg::BranchTrigger).to_string(),
        Intervention::Savepoint => lang.t(Msg::BranchSavepoint).to_string(),
        Intervention::StopWithSavepoint => lang.t(Msg::BranchStopWithSavepoint).to_string(),
        Intervention::Cancel => lang.t(Msg::BranchCancel).to_string(),
        Intervention::CrashJobmanager => lang.t(Msg::BranchCrashJobmanager).to_string(),
    }
}

/// The label of a kept branch in the picker.
pub fn branch(lang: Lang, b: &BranchInfo) -> String {
    let msg = if b.has_intervention {
        Msg::BranchWith
    } else {
        Msg::BranchWithout
    };
    lang.t(msg)
        .replace("{what}", &intervention(lang, &b.intervention))
        .replace("{t}", &b.at.to_string())
}

/// A scrubber marker: its class, its short text (`✓2`, `✕3`, `⚡`) and its
/// accessible name (which begins with the short text).
pub fn marker(
    lang: Lang,
    kind: MarkerKind,
    checkpoint: Option<u64>,
    task: Option<&str>,
    at: u64,
) -> (&'static str, String, String) {
    let id = checkpoint.unwrap_or(0).to_string();
    let (class, text, label) = match kind {
        MarkerKind::Completed => (
            "marker marker--completed",
            format!("✓{id}"),
            lang.t(Msg::MarkerCompleted).replace("{id}", &id),
        ),
        MarkerKind::Aborted => (
            "marker marker--aborted",
            format!("✕{id}"),
            lang.t(Msg::MarkerAborted).replace("{id}", &id),
        ),
        MarkerKind::Failure => (
            "marker marker--failure",
            "⚡".to_string(),
            lang.t(Msg::MarkerFailure)
                .replace("{task}", task.unwrap_or("?")),
        ),
    };
    // The accessible name starts with what the button shows (WCAG 2.5.3).
    let label = format!("{text} {}", label.replace("{t}", &at.to_string()));
    (class, text, label)
}

/// The event log's filter: a category, or every event (`None`).
pub fn category(lang: Lang, c: Option<Category>) -> &'static str {
    lang.t(match c {
        None => Msg::FilterAll,
        Some(Category::Checkpoints) => Msg::FilterCheckpoints,
        Some(Category::Transactions) => Msg::FilterTransactions,
        Some(Category::Failures) => Msg::FilterFailures,
        Some(Category::Records) => Msg::FilterRecords,
    })
}

/// Why a job stopped recovering: which rule suppressed recovery (from the
/// engine's typed [`FailureReason`] and the scenario's restart strategy, by
/// [`job_failure`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Suppressed {
    /// The fixed-delay strategy used up its `max` attempts.
    FixedDelay { max: String },
    /// More than `max` failures within `interval` ms.
    FailureRate { max: String, interval: String },
    /// The `none` strategy: the first failure fails the job.
    NoRestart,
    /// The exponential-delay strategy used up its attempts.
    ExponentialDelay,
    /// Restoring from the checkpoint failed.
    Restore,
    /// Anything else.
    Other,
}

/// The last failure before a job failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LastFailure {
    /// A subtask crashed (scripted or by the user).
    Crashed,
    /// More checkpoints failed than tolerated.
    TolerableExceeded,
    /// Anything else, in the engine's words.
    Other(String),
}

/// Why the job failed, said in `lang`, from the engine's typed cause: the rule
/// that suppressed recovery (its parameters are `restart`'s, the strategy the
/// engine ran) and the failure it did not recover from.
pub fn job_failure(lang: Lang, reason: &FailureReason, restart: Option<&RestartConfig>) -> String {
    let why = match (&reason.failure, restart) {
        (JobFailure::RestoreFailed { .. }, _) => Suppressed::Restore,
        (
            JobFailure::RecoverySuppressed { .. },
            Some(RestartConfig::FixedDelay { attempts, .. }),
        ) => Suppressed::FixedDelay {
            max: attempts.to_string(),
        },
        (
            JobFailure::RecoverySuppressed { .. },
            Some(RestartConfig::FailureRate {
                max_failures,
                interval_ms,
                ..
            }),
        ) => Suppressed::FailureRate {
            max: max_failures.to_string(),
            interval: interval_ms.to_string(),
        },
        (JobFailure::RecoverySuppressed { .. }, Some(RestartConfig::None)) => Suppressed::NoRestart,
        (JobFailure::RecoverySuppressed { .. }, Some(RestartConfig::ExponentialDelay { .. })) => {
            Suppressed::ExponentialDelay
        }
        (JobFailure::RecoverySuppressed { .. }, _) => Suppressed::Other,
    };
    let last = reason.last_failure.as_ref().map(|c| match c {
        FailureCause::Crashed => LastFailure::Crashed,
        FailureCause::TolerableFailuresExceeded(_) => LastFailure::TolerableExceeded,
        other => LastFailure::Other(other.to_string()),
    });
    failure(lang, &why, last.as_ref())
}

/// Why the job failed, said in `lang`: the rule, then the last failure.
pub fn failure(lang: Lang, why: &Suppressed, last: Option<&LastFailure>) -> String {
    let mut text = match why {
        // One attempt, one failure: the singular (English agrees in number).
        Suppressed::FixedDelay { max } => lang
            .t(if max == "1" {
                Msg::FailedFixedDelayOne
            } else {
                Msg::FailedFixedDelay
            })
            .replace("{max}", max),
        Suppressed::FailureRate { max, interval } => lang
            .t(if max == "1" {
                Msg::FailedFailureRateOne
            } else {
                Msg::FailedFailureRate
            })
            .replace("{max}", max)
            .replace("{interval}", interval),
        Suppressed::NoRestart => lang.t(Msg::FailedNoRestart).to_string(),
        Suppressed::ExponentialDelay => lang.t(Msg::FailedExponential).to_string(),
        Suppressed::Restore => lang.t(Msg::FailedRestore).to_string(),
        Suppressed::Other => lang.t(Msg::FailedOther).to_string(),
    };
    if let Some(last) = last {
        let said = match last {
            LastFailure::Crashed => lang.t(Msg::FailureCrashed).to_string(),
            LastFailure::TolerableExceeded => lang.t(Msg::FailureTolerable).to_string(),
            LastFailure::Other(s) => s.clone(),
        };
        if !lang.is_chinese() {
            text.push(' ');
        }
        text.push_str(&lang.t(Msg::FailedLastFailure).replace("{reason}", &said));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A running subtask's status reads as a state, never as a button's verb:
    /// 运行中 (the canonical term), not 运行.
    #[test]
    fn a_running_task_says_running_in_the_canonical_term() {
        let terms = crate::i18n::terms::parse(crate::i18n::terms::TERMS_JSON).unwrap();
        let canonical = terms
            .terms
            .iter()
            .find(|t| t.concept.starts_with("running"))
            .map(|t| t.zh.clone());
        assert_eq!(canonical.as_deref(), Some("运行中"));
        assert_eq!(task_status(Lang::Zh, TaskStatus::Running), "运行中");
    }

    /// Every value of every enum has a word in both languages (none empty, none
    /// the raw key), and the words of one enum differ from each other.
    #[test]
    fn every_value_has_a_distinct_word_in_both_languages() {
        for lang in Lang::ALL {
            let modes: Vec<&str> = [Mode::Aligned, Mode::Unaligned, Mode::AtLeastOnce, Mode::Off]
                .into_iter()
                .map(|m| mode(lang, m))
                .collect();
            let statuses: Vec<&str> = [
                TaskStatus::Running,
                TaskStatus::Waiting,
                TaskStatus::Finished,
                TaskStatus::Failed,
                TaskStatus::Canceled,
            ]
            .into_iter()
            .map(|s| task_status(lang, s))
            .collect();
            for words in [&modes, &statuses] {
                let mut sorted = words.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), words.len(), "{lang}: {words:?}");
                assert!(words.iter().all(|w| !w.trim().is_empty()));
            }
        }
    }

    #[test]
    fn failures_are_said_with_their_last_failure() {
        let s = failure(
            Lang::En,
            &Suppressed::FixedDelay { max: "2".into() },
            Some(&LastFailure::Crashed),
        );
        assert_eq!(
            s,
            "Recovery is suppressed: the fixed-delay restart strategy has used up its 2 restart attempts. Last failure: a subtask crashed (by the script or the user)"
        );
        let z = failure(Lang::Zh, &Suppressed::NoRestart, None);
        assert!(z.contains("none"), "{z}");
    }

    /// One restart attempt is one attempt, not "1 restart attempts".
    #[test]
    fn one_attempt_is_said_in_the_singular() {
        let one = failure(Lang::En, &Suppressed::FixedDelay { max: "1".into() }, None);
        assert!(one.ends_with("its 1 restart attempt."), "{one}");
        let two = failure(Lang::En, &Suppressed::FixedDelay { max: "2".into() }, None);
        assert!(two.ends_with("its 2 restart attempts."), "{two}");
        let rate = failure(
            Lang::En,
            &Suppressed::FailureRate {
                max: "1".into(),
                interval: "1000".into(),
            },
            None,
        );
        assert!(rate.contains("more than 1 failure within"), "{rate}");
    }

    #[test]
    fn markers_name_their_checkpoint_and_time() {
        let (class, text, label) = marker(Lang::En, MarkerKind::Completed, Some(2), None, 1_020);
        assert_eq!((class, text.as_str()), ("marker marker--completed", "✓2"));
        assert!(
            label.starts_with("✓2 ") && label.contains("1020"),
            "{label}"
        );
        let (_, text, label) = marker(Lang::Zh, MarkerKind::Failure, None, Some("sum#0"), 710);
        assert_eq!(text, "⚡");
        assert!(label.contains("sum#0") && label.contains("710"), "{label}");
    }
}
