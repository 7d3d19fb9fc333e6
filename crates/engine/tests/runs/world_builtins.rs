//! Every built-in scenario validates, runs to completion (the job finishes, or its
//! restart strategy gives up), and runs the same twice.

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
        assert!(
            summary["job_status"] == "finished" || gave_up,
            "{name} did not finish: {summary}"
        );
        assert!(
            summary["checkpoints"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["status"] == "completed"),
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
