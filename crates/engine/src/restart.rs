//! Restart strategies: after a failure, whether the job may restart and after how
//! long. Flink: `RestartBackoffTimeStrategy` and its implementations in
//! `org.apache.flink.runtime.executiongraph.failover` (docs/flink-semantics.md §5.1).
//!
//! # Protocol (Flink: `ExecutionFailureHandler`)
//! On every task failure at `now_ms` the engine calls, in this order:
//! 1. [`RestartStrategy::notify_failure`]`(now_ms)` — records the failure; returns
//!    whether it starts a *new attempt* (only exponential delay merges failures that
//!    fall before the pending restart into the current attempt);
//! 2. [`RestartStrategy::can_restart`]`(now_ms)` — side-effect free;
//! 3. if it can: restart after [`RestartStrategy::backoff_ms`]`(now_ms)`; otherwise
//!    the job fails with [`RestartStrategy::suppressed_message`]
//!    (`"Recovery is suppressed by <describe()>"`).
//!
//! Time is the simulation's logical clock (`u64` ms), passed in explicitly where
//! Flink reads its `Clock`.
//!
//! # Determinism
//! No randomness: Flink's exponential-delay jitter (default 0.1) is left out. The
//! exponential backoff is computed with repeated `f64` multiplication, identical on
//! every platform.

use crate::scenario::{RestartConfig, Scenario};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// A restart strategy with its running state, built from a [`RestartConfig`].
///
/// Flink: `RestartBackoffTimeStrategy` (interface) and
/// `NoRestartBackoffTimeStrategy`, `FixedDelayRestartBackoffTimeStrategy`,
/// `FailureRateRestartBackoffTimeStrategy`, `ExponentialDelayRestartBackoffTimeStrategy`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RestartStrategy {
    /// Never restarts. Flink: `NoRestartBackoffTimeStrategy`.
    NoRestart,
    /// A fixed number of restarts, a fixed delay.
    FixedDelay(FixedDelayStrategy),
    /// A bounded number of failures per time window, a fixed delay.
    FailureRate(FailureRateStrategy),
    /// Growing delays, reset after a failure-free period.
    ExponentialDelay(ExponentialDelayStrategy),
}

impl RestartStrategy {
    /// A fresh strategy (no failure seen) for `config`. The config is expected to
    /// have passed [`Scenario::validate`]; invalid values are caught by
    /// `debug_assert!` (Flink's constructors throw `IllegalArgumentException`).
    ///
    /// Flink: `RestartBackoffTimeStrategy.Factory#create`.
    pub fn new(config: &RestartConfig) -> RestartStrategy {
        match *config {
            RestartConfig::None => RestartStrategy::NoRestart,
            RestartConfig::FixedDelay { attempts, delay_ms } => {
                RestartStrategy::FixedDelay(FixedDelayStrategy::new(attempts, delay_ms))
            }
            RestartConfig::FailureRate {
                max_failures,
                interval_ms,
                delay_ms,
            } => RestartStrategy::FailureRate(FailureRateStrategy::new(
                max_failures,
                interval_ms,
                delay_ms,
            )),
            RestartConfig::ExponentialDelay {
                initial_ms,
                max_ms,
                multiplier,
                reset_threshold_ms,
                attempts,
            } => RestartStrategy::ExponentialDelay(ExponentialDelayStrategy::new(
                initial_ms,
                max_ms,
                multiplier,
                reset_threshold_ms,
                attempts,
            )),
        }
    }

    /// The strategy in effect for a scenario, defaults included
    /// ([`Scenario::effective_restart`]).
    pub fn for_scenario(scenario: &Scenario) -> RestartStrategy {
        RestartStrategy::new(&scenario.effective_restart())
    }

    /// Records a failure at `now_ms`; returns whether it is a new restart attempt
    /// (false only when exponential delay merges it into the pending one).
    ///
    /// Flink: `RestartBackoffTimeStrategy#notifyFailure`.
    pub fn notify_failure(&mut self, now_ms: u64) -> bool {
        match self {
            RestartStrategy::NoRestart => true,
            RestartStrategy::FixedDelay(s) => s.notify_failure(),
            RestartStrategy::FailureRate(s) => s.notify_failure(now_ms),
            RestartStrategy::ExponentialDelay(s) => s.notify_failure(now_ms),
        }
    }

    /// Whether the job may restart after the failures notified so far. No side
    /// effect: calling it twice gives the same answer.
    ///
    /// Flink: `RestartBackoffTimeStrategy#canRestart`.
    pub fn can_restart(&self, now_ms: u64) -> bool {
        match self {
            RestartStrategy::NoRestart => false,
            RestartStrategy::FixedDelay(s) => s.can_restart(),
            RestartStrategy::FailureRate(s) => s.can_restart(now_ms),
            RestartStrategy::ExponentialDelay(s) => s.can_restart(),
        }
    }

    /// How long to wait, from `now_ms`, before restarting.
    ///
    /// Flink: `RestartBackoffTimeStrategy#getBackoffTime`.
    pub fn backoff_ms(&self, now_ms: u64) -> u64 {
        match self {
            RestartStrategy::NoRestart => 0,
            RestartStrategy::FixedDelay(s) => s.backoff_ms(),
            RestartStrategy::FailureRate(s) => s.backoff_ms(),
            RestartStrategy::ExponentialDelay(s) => s.backoff_ms(now_ms),
        }
    }

    /// Flink's `toString()` of the strategy, e.g.
    /// `FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=500)`,
    /// character for character (including the failure-rate strategy's doubled
    /// prefix, and the exponential strategy's current state).
    pub fn describe(&self) -> String {
        match self {
            RestartStrategy::NoRestart => "NoRestartBackoffTimeStrategy".to_string(),
            RestartStrategy::FixedDelay(s) => s.describe(),
            RestartStrategy::FailureRate(s) => s.describe(),
            RestartStrategy::ExponentialDelay(s) => s.describe(),
        }
    }

    /// The message of the job's failure when [`RestartStrategy::can_restart`] is
    /// false: `"Recovery is suppressed by <describe()>"`.
    ///
    /// Flink: `ExecutionFailureHandler` (`JobException`).
    pub fn suppressed_message(&self) -> String {
        format!("Recovery is suppressed by {}", self.describe())
    }
}

/// Restarts failures 1..=`max_attempts`, each after `delay_ms`; failure
/// `max_attempts + 1` is fatal.
///
/// Flink: `FixedDelayRestartBackoffTimeStrategy`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixedDelayStrategy {
    /// Restarts allowed (`maxNumberRestartAttempts`; 0 makes the first failure fatal).
    max_attempts: u32,
    /// Constant delay before each restart (`backoffTimeMS`).
    delay_ms: u64,
    /// Failures notified so far (`currentRestartAttempt`); restarts are allowed while
    /// it is at most `max_attempts`.
    current_attempt: u32,
}

impl FixedDelayStrategy {
    /// A fresh strategy. Flink requires `attempts >= 0` and `delay >= 0`, which the
    /// unsigned types guarantee.
    pub fn new(max_attempts: u32, delay_ms: u64) -> FixedDelayStrategy {
        FixedDelayStrategy {
            max_attempts,
            delay_ms,
            current_attempt: 0,
        }
    }

    /// Counts the failure; always a new attempt.
    pub fn notify_failure(&mut self) -> bool {
        self.current_attempt = self.current_attempt.saturating_add(1);
        true
    }

    /// `current_attempt <= max_attempts`.
    pub fn can_restart(&self) -> bool {
        self.current_attempt <= self.max_attempts
    }

    /// The constant delay.
    pub fn backoff_ms(&self) -> u64 {
        self.delay_ms
    }

    /// Failures notified so far.
    pub fn current_attempt(&self) -> u32 {
        self.current_attempt
    }

    /// Restarts allowed (`maxNumberRestartAttempts`).
    pub fn max_attempts(&self) -> u32 {
        self.max_attempts
    }

    /// Flink's `toString()`.
    pub fn describe(&self) -> String {
        format!(
            "FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts={}, backoffTimeMS={})",
            self.max_attempts, self.delay_ms
        )
    }
}

/// Restarts unless `max_failures + 1` failures fell within `interval_ms`: keeps the
/// timestamps of the last `max_failures + 1` failures; restarting is refused while
/// it holds that many and `now − oldest <= interval_ms`.
///
/// Flink: `FailureRateRestartBackoffTimeStrategy`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureRateStrategy {
    /// Failures tolerated per window (`maxFailuresPerInterval`, at least 1).
    max_failures: u32,
    /// The window (`failuresIntervalMS`, at least 1).
    interval_ms: u64,
    /// Constant delay before each restart (`backoffTimeMS`).
    delay_ms: u64,
    /// Times of the most recent failures, oldest first, at most `max_failures + 1`
    /// of them (`failureTimestamps`; the oldest is dropped when full).
    failure_times: VecDeque<u64>,
}

impl FailureRateStrategy {
    /// A fresh strategy.
    pub fn new(max_failures: u32, interval_ms: u64, delay_ms: u64) -> FailureRateStrategy {
        debug_assert!(
            max_failures > 0,
            "Maximum number of restart attempts per time unit must be greater than 0."
        );
        debug_assert!(
            interval_ms > 0,
            "Failures interval must be greater than 0 ms."
        );
        FailureRateStrategy {
            max_failures,
            interval_ms,
            delay_ms,
            failure_times: VecDeque::new(),
        }
    }

    /// Whether the deque holds `max_failures + 1` timestamps.
    fn is_full(&self) -> bool {
        self.failure_times.len() as u64 > u64::from(self.max_failures)
    }

    /// Records the failure time (dropping the oldest when full); always a new attempt.
    pub fn notify_failure(&mut self, now_ms: u64) -> bool {
        if self.is_full() {
            self.failure_times.pop_front();
        }
        self.failure_times.push_back(now_ms);
        true
    }

    /// False iff `max_failures + 1` failures are recorded and the oldest is at most
    /// `interval_ms` before `now_ms`.
    pub fn can_restart(&self, now_ms: u64) -> bool {
        match self.failure_times.front() {
            Some(&oldest) if self.is_full() => now_ms.saturating_sub(oldest) > self.interval_ms,
            _ => true,
        }
    }

    /// The constant delay.
    pub fn backoff_ms(&self) -> u64 {
        self.delay_ms
    }

    /// The recorded failure times, oldest first.
    pub fn failure_times(&self) -> impl Iterator<Item = u64> + '_ {
        self.failure_times.iter().copied()
    }

    /// Failures tolerated per window (`maxFailuresPerInterval`).
    pub fn max_failures(&self) -> u32 {
        self.max_failures
    }

    /// The window (`failuresIntervalMS`).
    pub fn interval_ms(&self) -> u64 {
        self.interval_ms
    }

    /// Flink's `toString()`, verbatim — Flink's own string repeats the class name and
    /// closes one parenthesis only.
    pub fn describe(&self) -> String {
        format!(
            "FailureRateRestartBackoffTimeStrategy(FailureRateRestartBackoffTimeStrategy(failuresIntervalMS={},backoffTimeMS={},maxFailuresPerInterval={})",
            self.interval_ms, self.delay_ms, self.max_failures
        )
    }
}

/// Flink's `Integer.MAX_VALUE`, the exponential strategy's default
/// `attemptsBeforeResetBackoff` (unlimited in practice).
pub const UNLIMITED_ATTEMPTS: u32 = i32::MAX as u32;

/// What Flink prints for `nextRestartTimestamp` before the first failure
/// (`DEFAULT_NEXT_RESTART_TIMESTAMP = Integer.MIN_VALUE`).
const NO_RESTART_TIMESTAMP_TEXT: i64 = i32::MIN as i64;

/// Waits `min(max_ms, floor(initial_ms × multiplier^k))` before the k-th restart
/// since the last reset (k from 0). A failure at or before the pending restart time
/// is merged into the current attempt (not a new attempt, no counter change). A
/// failure `reset_threshold_ms` or more after the pending restart time resets k to
/// 0. Restarts are refused once more than `attempts` attempts were counted since the
/// last reset.
///
/// Flink: `ExponentialDelayRestartBackoffTimeStrategy` (Flink 1.19+, FLIP-364).
/// Simplified: no jitter (Flink's `jitter-factor` defaults to 0.1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExponentialDelayStrategy {
    /// First delay (`initialBackoffMS`, 1..=`max_ms`).
    initial_ms: u64,
    /// Largest delay (`maxBackoffMS`).
    max_ms: u64,
    /// Growth per attempt (`backoffMultiplier`, above 1).
    multiplier: f64,
    /// Failure-free time, measured from the pending restart time, after which the
    /// attempt counter resets (`resetBackoffThresholdMS`).
    reset_threshold_ms: u64,
    /// Attempts allowed since the last reset (`attemptsBeforeResetBackoff`;
    /// [`UNLIMITED_ATTEMPTS`] when not configured).
    attempts: u32,
    /// Attempts counted since the last reset (`currentRestartAttempt`); the next
    /// attempt's delay uses it as the exponent k.
    current_attempt: u32,
    /// When the pending (or last) restart happens: failure time + its backoff
    /// (`nextRestartTimestamp`); `None` before the first failure.
    next_restart_at: Option<u64>,
}

impl ExponentialDelayStrategy {
    /// A fresh strategy; `attempts: None` means unlimited ([`UNLIMITED_ATTEMPTS`]).
    pub fn new(
        initial_ms: u64,
        max_ms: u64,
        multiplier: f64,
        reset_threshold_ms: u64,
        attempts: Option<u32>,
    ) -> ExponentialDelayStrategy {
        debug_assert!(initial_ms >= 1, "Initial backoff must be at least 1.");
        debug_assert!(max_ms >= 1, "Maximum backoff must be at least 1.");
        debug_assert!(
            initial_ms <= max_ms,
            "Initial backoff cannot be higher than maximum backoff."
        );
        debug_assert!(
            multiplier > 1.0,
            "Backoff multiplier must be greater than 1."
        );
        debug_assert!(
            reset_threshold_ms >= 1,
            "Threshold duration for exponential backoff reset must be at least 1."
        );
        debug_assert!(
            attempts != Some(0),
            "The attemptsBeforeResetBackoff must be at least 1."
        );
        ExponentialDelayStrategy {
            initial_ms,
            max_ms,
            multiplier,
            reset_threshold_ms,
            attempts: attempts.unwrap_or(UNLIMITED_ATTEMPTS),
            current_attempt: 0,
            next_restart_at: None,
        }
    }

    /// The delay of attempt `k` (from 0) since the last reset:
    /// `max(initial, min(max, (long) (initial × pow(multiplier, k))))`.
    ///
    /// `powf` is the same IEEE power as Java's `Math.pow` for these arguments (a
    /// table made with Java agrees on every entry, `tests/rules/restart_strategies.rs`);
    /// multiplying `k` times instead rounds at every step and is 1 ms off for some
    /// multipliers (1000 ms × 1.2³: 1728 against Flink's 1727). `as` truncates toward
    /// zero and saturates, like Java's `(long)` cast.
    ///
    /// Flink: `ExponentialDelayRestartBackoffTimeStrategy.calculateActualBackoffTime`,
    /// without its jitter.
    pub fn backoff_for_attempt(&self, k: u32) -> u64 {
        let backoff = (self.initial_ms as f64 * self.multiplier.powf(f64::from(k))) as u64;
        backoff.min(self.max_ms).max(self.initial_ms)
    }

    /// Records a failure at `now_ms`. Returns false, changing nothing, when it falls
    /// at or before the pending restart time (merged into the current attempt).
    /// Otherwise resets the counter if `now_ms − next_restart_at >=
    /// reset_threshold_ms`, schedules the restart at `now_ms +
    /// backoff_for_attempt(current_attempt)`, counts the attempt and returns true.
    pub fn notify_failure(&mut self, now_ms: u64) -> bool {
        if let Some(next_restart_at) = self.next_restart_at {
            if now_ms <= next_restart_at {
                return false;
            }
            if now_ms - next_restart_at >= self.reset_threshold_ms {
                self.current_attempt = 0;
            }
        }
        // Before the first failure Flink's next restart time is Integer.MIN_VALUE, so
        // the reset condition holds; the counter is 0 then anyway.
        self.next_restart_at =
            Some(now_ms.saturating_add(self.backoff_for_attempt(self.current_attempt)));
        self.current_attempt = self.current_attempt.saturating_add(1);
        true
    }

    /// `current_attempt <= attempts`.
    pub fn can_restart(&self) -> bool {
        self.current_attempt <= self.attempts
    }

    /// `max(0, next_restart_at − now_ms)`. Before any failure: 0 (Flink throws
    /// `IllegalStateException("Please call notifyFailure first.")`).
    pub fn backoff_ms(&self, now_ms: u64) -> u64 {
        self.next_restart_at
            .map_or(0, |next| next.saturating_sub(now_ms))
    }

    /// Attempts counted since the last reset.
    pub fn current_attempt(&self) -> u32 {
        self.current_attempt
    }

    /// Attempts allowed since the last reset ([`UNLIMITED_ATTEMPTS`] when not
    /// configured).
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// When the pending (or last) restart happens; `None` before the first failure.
    pub fn next_restart_at(&self) -> Option<u64> {
        self.next_restart_at
    }

    /// Flink's `toString()`, state included; `jitterFactor` is always `0.0` here.
    pub fn describe(&self) -> String {
        let next = self
            .next_restart_at
            .map_or(NO_RESTART_TIMESTAMP_TEXT.to_string(), |t| t.to_string());
        format!(
            "ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS={}, maxBackoffMS={}, backoffMultiplier={}, \
             resetBackoffThresholdMS={}, jitterFactor=0.0, attemptsBeforeResetBackoff={}, currentRestartAttempt={}, \
             nextRestartTimestamp={})",
            self.initial_ms,
            self.max_ms,
            java_double_to_string(self.multiplier),
            self.reset_threshold_ms,
            self.attempts,
            self.current_attempt,
            next
        )
    }
}

/// Java's `Double.toString` for the values a multiplier takes: plain decimal with at
/// least one fractional digit in [10⁻³, 10⁷) (`1.5`, `2.0`), otherwise computerized
/// scientific notation (`1.0E7`). Both use the shortest digits that round-trip, as
/// Rust's formatting does.
fn java_double_to_string(value: f64) -> String {
    if value.is_nan() {
        return "NaN".to_string();
    }
    if value.is_infinite() {
        return if value > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    let magnitude = value.abs();
    if magnitude == 0.0 || (1e-3..1e7).contains(&magnitude) {
        // Debug prints the shortest round-trip digits with a ".0" on integers.
        return format!("{value:?}");
    }
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    if mantissa.contains('.') {
        format!("{mantissa}E{exponent}")
    } else {
        format!("{mantissa}.0E{exponent}")
    }
}

#[cfg(test)]
mod tests {
    use super::java_double_to_string;

    #[test]
    fn java_double_formatting() {
        assert_eq!(java_double_to_string(1.5), "1.5");
        assert_eq!(java_double_to_string(2.0), "2.0");
        assert_eq!(java_double_to_string(2.3), "2.3");
        assert_eq!(java_double_to_string(1e7), "1.0E7");
        assert_eq!(java_double_to_string(1.5e10), "1.5E10");
        assert_eq!(java_double_to_string(1234567.0), "1234567.0");
    }
}
