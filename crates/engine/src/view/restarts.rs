//! The restart strategy as a learner counts it: how many restarts it has granted
//! against its limit, and for the failure-rate strategy the window that slides over
//! the failures it counts. Read from the strategy's own state (Flink's
//! `RestartBackoffTimeStrategy` implementations, `crate::restart`), so the page never
//! recounts the rule.

use crate::restart::RestartStrategy;
use serde::{Deserialize, Serialize};

/// Which restart strategy a run uses (Flink: `restart-strategy.type`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RestartKind {
    /// `none`: the first failure fails the job.
    #[default]
    None,
    /// `fixed-delay`.
    FixedDelay,
    /// `failure-rate`.
    FailureRate,
    /// `exponential-delay` (the default since Flink 1.19 when checkpointing is on).
    ExponentialDelay,
}

/// The restart strategy's count at one moment.
///
/// - fixed delay: `count` restarts granted of `limit` attempts;
/// - failure rate: `count` failures inside the window `(now − window_ms, now]`, of
///   `limit` tolerated; `counted` holds their times;
/// - exponential delay: `count` attempts since the last reset, of `limit`
///   (`None`: no limit, Flink's default), the next restart waiting `next_delay_ms`;
/// - none: `count` 0 of `limit` 0.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestartView {
    /// The strategy.
    pub kind: RestartKind,
    /// What the strategy counts now (see the type's documentation).
    pub count: u32,
    /// The bound on `count`; `None` for an unlimited exponential delay.
    pub limit: Option<u32>,
    /// The failure-rate window (`failuresIntervalMS`).
    pub window_ms: Option<u64>,
    /// The failure times the failure-rate window counts now, oldest first.
    pub counted: Vec<u64>,
    /// Exponential delay: the backoff the next failure would wait, given the
    /// attempts counted so far (before any reset a quiet period brings).
    pub next_delay_ms: Option<u64>,
}

impl RestartStrategy {
    /// The strategy's count at `now_ms` (see [`RestartView`]).
    pub fn view(&self, now_ms: u64) -> RestartView {
        match self {
            RestartStrategy::NoRestart => RestartView {
                limit: Some(0),
                ..RestartView::default()
            },
            RestartStrategy::FixedDelay(s) => RestartView {
                kind: RestartKind::FixedDelay,
                count: s.current_attempt().min(s.max_attempts()),
                limit: Some(s.max_attempts()),
                ..RestartView::default()
            },
            RestartStrategy::FailureRate(s) => {
                let counted: Vec<u64> = s
                    .failure_times()
                    .filter(|&t| t <= now_ms && now_ms - t <= s.interval_ms())
                    .collect();
                RestartView {
                    kind: RestartKind::FailureRate,
                    count: counted.len() as u32,
                    limit: Some(s.max_failures()),
                    window_ms: Some(s.interval_ms()),
                    counted,
                    next_delay_ms: None,
                }
            }
            RestartStrategy::ExponentialDelay(s) => RestartView {
                kind: RestartKind::ExponentialDelay,
                count: s.current_attempt(),
                limit: (s.attempts() != crate::restart::UNLIMITED_ATTEMPTS).then_some(s.attempts()),
                next_delay_ms: Some(s.backoff_for_attempt(s.current_attempt())),
                ..RestartView::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::RestartConfig;

    /// Fixed delay counts the restarts it granted and never shows more than its
    /// attempts, even once the failure past them has failed the job.
    #[test]
    fn fixed_delay_counts_granted_restarts() {
        let mut s = RestartStrategy::new(&RestartConfig::FixedDelay {
            attempts: 2,
            delay_ms: 200,
        });
        let counts: Vec<(u32, bool)> = [500, 2300, 2800]
            .iter()
            .map(|&t| {
                s.notify_failure(t);
                (s.view(t).count, s.can_restart(t))
            })
            .collect();
        assert_eq!(counts, vec![(1, true), (2, true), (2, false)]);
        assert_eq!(s.view(0).limit, Some(2));
    }

    /// The failure-rate window counts the failures at most `interval_ms` old, the
    /// same ones `can_restart` weighs: at 3300 ms with a 1500 ms window, 2300, 2800
    /// and 3300 (three, over the limit of two); 1100 ms later only 3300 is left (a failure exactly `interval_ms` old still counts, as in `can_restart`).
    #[test]
    fn failure_rate_window_slides_over_the_failures() {
        let mut s = RestartStrategy::new(&RestartConfig::FailureRate {
            max_failures: 2,
            interval_ms: 1500,
            delay_ms: 200,
        });
        for t in [500, 2300, 2800, 3300] {
            s.notify_failure(t);
        }
        let v = s.view(3300);
        assert_eq!(v.counted, vec![2300, 2800, 3300]);
        assert_eq!((v.count, v.limit, v.window_ms), (3, Some(2), Some(1500)));
        assert_eq!(v.count > v.limit.unwrap(), !s.can_restart(3300));
        assert_eq!(s.view(4400).counted, vec![3300]);
    }

    /// Exponential delay counts attempts since the last reset; its next delay is the
    /// strategy's own backoff for that attempt.
    #[test]
    fn exponential_delay_counts_attempts_and_the_next_delay() {
        let mut s = RestartStrategy::new(&RestartConfig::ExponentialDelay {
            initial_ms: 100,
            max_ms: 400,
            multiplier: 2.0,
            reset_threshold_ms: 1500,
            attempts: None,
        });
        assert_eq!(s.view(0).next_delay_ms, Some(100));
        s.notify_failure(500);
        s.notify_failure(900);
        let v = s.view(900);
        assert_eq!((v.count, v.limit, v.next_delay_ms), (2, None, Some(400)));
    }
}
