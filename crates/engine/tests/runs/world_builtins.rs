//! Every built-in scenario validates, runs to completion (the job finishes, or its
//! restart strategy gives up, or its script cancels it), and runs the same twice.

use crate::common;
use engine::runner::{self, RunOptions};

#[test]
fn every_builtin_runs_to_completion_deterministically() {
    for (name, _) in runner::BUILTINS {
        let s = runner::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let a = runner::run_lines(
            &s,
            &RunOptions {
                trace: true,
                ..Default::default()
            },
        )
        .unwrap();
        let b = runner::run_lines(
            &s,
            &RunOptions {
                trace: true,
                ..Default::default()
            },
        )
        .unwrap();
        common::assert_same_runs(&a, &b, name, &common::lab_command(&s, true));
        let summary: serde_json::Value = serde_json::from_str(a.last().unwrap()).unwrap();
        // A lesson on restart strategies ends with the strategy giving up: then the
        // last failure is the one that was not restarted.
        let gave_up = summary["job_status"] == "failed"
            && summary["failures"]
                .as_array()
                .and_then(|f| f.last())
                .is_some_and(|f| f["restarted_ms"].is_null());
        // A lesson whose script cancels the job ends canceled.
        let canceled = summary["job_status"] == "canceled"
            && s.script
                .iter()
                .any(|x| matches!(x, engine::scenario::ScriptStep::Cancel { .. }));
        assert!(
            summary["job_status"] == "finished" || gave_up || canceled,
            "{name} did not finish: {summary}"
        );
        // A lesson on checkpoints expiring under back-pressure completes none: every
        // one expires until the restart strategy gives up.
        let checkpoints = summary["checkpoints"].as_array().unwrap();
        let all_expired = gave_up && checkpoints.iter().all(|c| c["reason"] == "expired");
        assert!(
            all_expired || checkpoints.iter().any(|c| c["status"] == "completed"),
            "{name}: no completed checkpoint"
        );
    }
}

/// A determinism failure names the first line where the runs part and the command
/// that replays the run (madsim's `panic_with_info`).
#[test]
#[should_panic(
    expected = "pv-count: two runs differ at line 2 (2 vs 2 lines):\n first: b\nsecond: x\nreproduce: cargo run -p checkpoint-engine --bin lab -- run pv-count --seed"
)]
fn a_determinism_failure_says_where_and_how_to_reproduce() {
    let s = runner::load("pv-count").expect("built-in");
    let (a, b) = (
        vec!["a".to_string(), "b".into()],
        vec!["a".to_string(), "x".into()],
    );
    common::assert_same_runs(&a, &b, "pv-count", &common::lab_command(&s, true));
}

#[test]
fn first_difference_names_the_line() {
    assert_eq!(common::first_difference("a\nb", "a\nb"), None);
    assert_eq!(
        common::first_difference("a\nb\nc", "a\nx\nc"),
        Some((2, "b", "x"))
    );
    assert_eq!(
        common::first_difference("a", "a\nb"),
        Some((2, "<end>", "b"))
    );
}

/// Flink's `ExecutionState` through `DefaultScheduler`'s failover: the
/// failing subtask is FAILED, every other unfinished subtask goes CANCELING →
/// CANCELED (events and views), then the job restarts and they run again. A
/// JobManager crash is no task failure: its TaskExecutors fail every task.
#[test]
fn a_failover_fails_one_subtask_and_cancels_the_others() {
    use engine::event::Event;
    use engine::world::TaskStatus;
    let s = runner::load("restart-fixed-delay").unwrap();
    let mut w = engine::World::new(&s, s.seed).unwrap();
    w.set_tracing(true);
    let mut at_failure: Vec<Event> = Vec::new();
    while let Some(evs) = w.step() {
        if evs
            .iter()
            .any(|e| matches!(e.event, Event::TaskFailed { .. }))
        {
            at_failure = evs.iter().map(|e| e.event.clone()).collect();
            break;
        }
    }
    let failed = at_failure
        .iter()
        .find_map(|e| match e {
            Event::TaskFailed { task, .. } => Some(task.to_string()),
            _ => None,
        })
        .expect("the lesson crashes a subtask");
    let view = w.view();
    let all: Vec<String> = w.setup().tasks.iter().map(|t| t.name.to_string()).collect();
    for (t, name) in view.tasks.iter().zip(&all) {
        let expect = if *name == failed {
            TaskStatus::Failed
        } else {
            TaskStatus::Canceled
        };
        assert_eq!(t.status, expect, "{name}");
    }
    // In the events: canceling then canceled for every other subtask, then the restart.
    let names: Vec<String> = at_failure
        .iter()
        .filter_map(|e| match e {
            Event::TaskCanceling { task } => Some(format!("canceling {task}")),
            Event::TaskCanceled { task } => Some(format!("canceled {task}")),
            Event::JobRestarting { .. } => Some("restarting".into()),
            _ => None,
        })
        .collect();
    let others: Vec<&String> = all.iter().filter(|n| **n != failed).collect();
    let mut expect: Vec<String> = others
        .iter()
        .flat_map(|n| [format!("canceling {n}"), format!("canceled {n}")])
        .collect();
    expect.push("restarting".into());
    assert_eq!(names, expect);
    // After the restart delay every subtask runs again.
    while w.view().status != engine::JobStatus::Running
        || w.view()
            .tasks
            .iter()
            .any(|t| t.status != TaskStatus::Running)
    {
        assert!(w.step().is_some(), "the job restarts");
    }

    let s = runner::load("jobmanager-crash-jobmanager").unwrap();
    let mut w = engine::World::new(&s, s.seed).unwrap();
    w.set_tracing(true);
    while let Some(evs) = w.step() {
        if evs
            .iter()
            .any(|e| matches!(e.event, Event::JobmanagerFailed { .. }))
        {
            assert!(!evs
                .iter()
                .any(|e| matches!(e.event, Event::TaskCanceling { .. })));
            break;
        }
    }
    assert!(w
        .view()
        .tasks
        .iter()
        .all(|t| t.status == TaskStatus::Failed));
}
