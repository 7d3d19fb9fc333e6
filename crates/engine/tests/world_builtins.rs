//! Every built-in scenario validates, runs to completion (the job finishes, or its
//! restart strategy gives up), and runs the same twice.

mod common;

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
        assert!(a == b, "{name}: two runs with seed {} differ", s.seed);
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
