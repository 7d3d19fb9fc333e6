//! The job's restart strategy section (`RestartStrategyOptions`), and its failover
//! strategy when it is not Flink's default (`jobmanager.execution.failover-strategy`).

use super::{Code, Generator};
use crate::scenario::{FailoverStrategy, RestartConfig, Scenario};

impl Generator<'_> {
    pub(super) fn restart_lines(&mut self, c: &mut Code, s: &Scenario) {
        // Flink's default, region, needs no line (JobManagerOptions.EXECUTION_FAILOVER_STRATEGY).
        if s.failover_strategy == FailoverStrategy::Full {
            c.line(
                2,
                "conf.set(JobManagerOptions.EXECUTION_FAILOVER_STRATEGY, \"full\");",
            );
        }
        let d = |ms: u64| format!("Duration.ofMillis({ms})");
        match &s.restart {
            None if s.checkpointing.is_some() => {
                c.comment(2, self.w().restart_default_exponential);
                c.line(
                    2,
                    "conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR, 0.0);",
                );
            }
            None => c.comment(2, self.w().restart_default_none),
            Some(RestartConfig::None) => {
                c.comment(2, self.w().restart_none);
                c.line(
                    2,
                    "conf.set(RestartStrategyOptions.RESTART_STRATEGY, \"none\");",
                );
            }
            Some(RestartConfig::FixedDelay { attempts, delay_ms }) => {
                c.comment(
                    2,
                    &format!(
                        "{} (1.x: env.setRestartStrategy(RestartStrategies.fixedDelayRestart({attempts}, Time.milliseconds({}))))",
                        self.w().restart_fixed_delay,
                        self.ms(*delay_ms)
                    ),
                );
                c.line(
                    2,
                    "conf.set(RestartStrategyOptions.RESTART_STRATEGY, \"fixed-delay\");",
                );
                c.line(
                    2,
                    &format!("conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, {attempts});"),
                );
                c.line(
                    2,
                    &format!(
                        "conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, {});",
                        d(self.ms(*delay_ms))
                    ),
                );
            }
            Some(RestartConfig::FailureRate {
                max_failures,
                interval_ms,
                delay_ms,
            }) => {
                c.comment(
                    2,
                    &format!(
                        "{} (1.x: env.setRestartStrategy(RestartStrategies.failureRateRestart({max_failures}, Time.milliseconds({}), Time.milliseconds({}))))",
                        self.w().restart_failure_rate,
                        self.ms(*interval_ms),
                        self.ms(*delay_ms)
                    ),
                );
                c.line(
                    2,
                    "conf.set(RestartStrategyOptions.RESTART_STRATEGY, \"failure-rate\");",
                );
                c.line(
                    2,
                    &format!("conf.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_MAX_FAILURES_PER_INTERVAL, {max_failures});"),
                );
                c.line(
                    2,
                    &format!(
                        "conf.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_FAILURE_RATE_INTERVAL, {});",
                        d(self.ms(*interval_ms))
                    ),
                );
                c.line(
                    2,
                    &format!(
                        "conf.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_DELAY, {});",
                        d(self.ms(*delay_ms))
                    ),
                );
            }
            Some(RestartConfig::ExponentialDelay {
                initial_ms,
                max_ms,
                multiplier,
                reset_threshold_ms,
                attempts,
            }) => {
                let backoff = [*initial_ms, *max_ms, *reset_threshold_ms].map(|ms| d(self.ms(ms)));
                self.exponential_delay_lines(c, backoff, *multiplier, *attempts);
            }
        }
    }

    /// `exponential-delay` with its backoffs (`initial`, `max`, `reset`: Java
    /// `Duration`s of the scaled times), multiplier and attempts; no jitter, so
    /// that the delays are the lab's.
    fn exponential_delay_lines(
        &self,
        c: &mut Code,
        [initial, max, reset]: [String; 3],
        multiplier: f64,
        attempts: Option<u32>,
    ) {
        c.comment(2, self.w().restart_exponential_delay);
        c.line(
            2,
            "conf.set(RestartStrategyOptions.RESTART_STRATEGY, \"exponential-delay\");",
        );
        c.line(
            2,
            &format!(
                "conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF, {initial});"
            ),
        );
        c.line(
            2,
            &format!(
                "conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF, {max});"
            ),
        );
        c.line(
            2,
            &format!("conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER, {multiplier:?});"),
        );
        c.line(
            2,
            &format!(
                "conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD, {reset});"
            ),
        );
        c.line(
            2,
            "conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR, 0.0);",
        );
        if let Some(a) = attempts {
            c.line(
                2,
                &format!("conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS, {a});"),
            );
        }
    }
}
