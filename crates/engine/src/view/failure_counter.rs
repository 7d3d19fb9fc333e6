//! The tolerable-failure counter over a whole run (Flink:
//! `CheckpointFailureManager`'s continuous failure counter), for the page's chart
//! of a checkpoint configuration against its strict twin (`checkpoint-config`,
//! `checkpoint-config-strict`). The coordinator keeps only the counter's
//! current value ([`crate::view::CoordinatorView::failure_counter`]); a chart of
//! aborted and expired checkpoints wants it after every change, so the run is
//! stepped and the counter sampled — the engine's own value, never recounted.

use crate::runner::DEFAULT_LIMIT_MS;
use crate::scenario::Scenario;
use crate::world::{JobStatus, World};

/// One change of the counter: when, and its value after it. A value above the
/// tolerance is never seen: the coordinator resets it to 0 as the job fails over
/// (the failover is in the run's failure records).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CounterStep {
    /// Simulated time.
    pub at_ms: u64,
    /// The counter after the change.
    pub value: u32,
}

/// Every change of the tolerable-failure counter of `scenario` run with `seed` to
/// its end (or [`DEFAULT_LIMIT_MS`]); empty if the scenario does not build.
pub fn failure_counter_trace(scenario: &Scenario, seed: u64) -> Vec<CounterStep> {
    let Ok(mut w) = World::new(scenario, seed) else {
        return Vec::new();
    };
    w.set_tracing(false);
    let mut out = Vec::new();
    let mut last = w.coordinator().failure_counter();
    while matches!(w.status(), JobStatus::Running | JobStatus::Restarting)
        && w.next_at().is_some_and(|t| t <= DEFAULT_LIMIT_MS)
    {
        w.step();
        let now = w.coordinator().failure_counter();
        if now != last {
            out.push(CounterStep {
                at_ms: w.now(),
                value: now,
            });
            last = now;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner;

    /// checkpoint-config tolerates one failed checkpoint: its counter reaches 1;
    /// the strict twin tolerates none, so its counter never shows 1 (it fails over
    /// at the first counted failure and starts again from 0).
    #[test]
    fn the_counter_climbs_only_where_failures_are_tolerated() {
        let load = |n: &str| runner::load(n).unwrap();
        let lax = load("checkpoint-config");
        let strict = load("checkpoint-config-strict");
        let a = failure_counter_trace(&lax, lax.seed);
        let b = failure_counter_trace(&strict, strict.seed);
        assert!(a.iter().any(|s| s.value == 1), "{a:?}");
        assert!(a.iter().all(|s| s.value <= 1), "{a:?}");
        assert!(b.iter().all(|s| s.value == 0), "{b:?}");
        assert!(a.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
    }
}
