//! Restart strategies against Flink's own unit tests (docs/flink-semantics.md §5.1).
//! Flink's tests drive a `ManualClock` starting at 0; here the clock is the `now`
//! passed to each call. Where a Flink test uses jitter, the lab has none
//! (Simplified), so the values asserted are exactly Flink's without jitter — in the
//! tests below, Flink's jitter offset `(long)(backoff × factor)` is 0 anyway for the
//! delays involved, unless said otherwise.

use engine::restart::{ExponentialDelayStrategy, RestartStrategy};
use engine::scenario::RestartConfig;

fn fixed_delay(attempts: u32, delay_ms: u64) -> RestartStrategy {
    RestartStrategy::new(&RestartConfig::FixedDelay { attempts, delay_ms })
}

fn failure_rate(max_failures: u32, interval_ms: u64, delay_ms: u64) -> RestartStrategy {
    RestartStrategy::new(&RestartConfig::FailureRate {
        max_failures,
        interval_ms,
        delay_ms,
    })
}

fn exponential(
    initial_ms: u64,
    max_ms: u64,
    multiplier: f64,
    reset_threshold_ms: u64,
    attempts: Option<u32>,
) -> RestartStrategy {
    RestartStrategy::new(&RestartConfig::ExponentialDelay {
        initial_ms,
        max_ms,
        multiplier,
        reset_threshold_ms,
        attempts,
    })
}

// ---------------------------------------------------------------------------------
// No restart

/// Mirrors Flink's `NoRestartBackoffTimeStrategy`: never restarts, backoff 0,
/// `notifyFailure` returns true.
#[test]
fn no_restart_never_restarts() {
    let mut strategy = RestartStrategy::new(&RestartConfig::None);
    assert!(!strategy.can_restart(0), "not even before any failure");
    assert!(strategy.notify_failure(100));
    assert!(!strategy.can_restart(100));
    assert_eq!(strategy.backoff_ms(100), 0);
    assert_eq!(strategy.describe(), "NoRestartBackoffTimeStrategy");
    assert_eq!(
        strategy.suppressed_message(),
        "Recovery is suppressed by NoRestartBackoffTimeStrategy"
    );
}

// ---------------------------------------------------------------------------------
// Fixed delay

/// Mirrors Flink's `FixedDelayRestartBackoffTimeStrategyTest#testNumberOfRestarts`:
/// with 3 attempts, failures 1..=3 may restart (`canRestart` asked twice to show it
/// keeps no counter), failure 4 is fatal.
#[test]
fn fixed_delay_number_of_restarts() {
    let mut strategy = fixed_delay(3, 0);
    for failure in 1..=3u64 {
        assert!(strategy.notify_failure(failure));
        assert!(strategy.can_restart(failure), "failure {failure}");
        assert!(
            strategy.can_restart(failure),
            "failure {failure}, asked again"
        );
    }
    assert!(strategy.notify_failure(4));
    assert!(!strategy.can_restart(4));
    assert!(
        !strategy.can_restart(1_000_000),
        "time does not help a fixed-delay strategy"
    );
}

/// Mirrors Flink's `FixedDelayRestartBackoffTimeStrategyTest#testBackoffTime`: the
/// delay is constant (10000 ms), from the first call on.
#[test]
fn fixed_delay_backoff_time() {
    let mut strategy = fixed_delay(1, 10_000);
    assert_eq!(strategy.backoff_ms(0), 10_000);
    strategy.notify_failure(5);
    assert_eq!(strategy.backoff_ms(5), 10_000);
}

/// Flink accepts 0 attempts (`maxNumberRestartAttempts >= 0`): the first failure is
/// fatal.
#[test]
fn fixed_delay_with_zero_attempts_fails_at_once() {
    let mut strategy = fixed_delay(0, 500);
    assert!(strategy.can_restart(0));
    strategy.notify_failure(10);
    assert!(!strategy.can_restart(10));
}

/// The contract's example (`attempts: 3, delay_ms: 500`) and Flink's `toString`,
/// which the "Recovery is suppressed by …" message carries.
#[test]
fn fixed_delay_contract_example_and_message() {
    let mut strategy = fixed_delay(3, 500);
    let mut restarts = Vec::new();
    for (n, now) in [2_500u64, 4_000, 6_000, 8_000].into_iter().enumerate() {
        strategy.notify_failure(now);
        if strategy.can_restart(now) {
            restarts.push((n + 1, strategy.backoff_ms(now)));
        }
    }
    assert_eq!(restarts, vec![(1, 500), (2, 500), (3, 500)]);
    assert_eq!(
        strategy.suppressed_message(),
        "Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=500)"
    );
}

// ---------------------------------------------------------------------------------
// Failure rate

/// Mirrors Flink's `FailureRateRestartBackoffTimeStrategyTest#testManyFailuresWithinRate`:
/// 1 failure per 1 ms, the clock advancing 2 ms after each of 3 failures — always
/// restartable.
#[test]
fn failure_rate_many_failures_within_rate() {
    let mut strategy = failure_rate(1, 1, 0);
    let mut now = 0;
    for _ in 0..3 {
        assert!(strategy.notify_failure(now));
        assert!(strategy.can_restart(now));
        now += 2;
    }
    assert!(strategy.can_restart(now));
}

/// Mirrors Flink's `FailureRateRestartBackoffTimeStrategyTest#testFailuresExceedingRate`:
/// 3 failures per 10000 ms, all at time 0: failures 1..=3 restart, the 4th is fatal.
#[test]
fn failure_rate_failures_exceeding_rate() {
    let mut strategy = failure_rate(3, 10_000, 0);
    for _ in 0..3 {
        strategy.notify_failure(0);
        assert!(strategy.can_restart(0));
    }
    strategy.notify_failure(0);
    assert!(!strategy.can_restart(0));
}

/// Mirrors Flink's `FailureRateRestartBackoffTimeStrategyTest#testBackoffTime`.
#[test]
fn failure_rate_backoff_time() {
    let strategy = failure_rate(1, 1, 10_000);
    assert_eq!(strategy.backoff_ms(0), 10_000);
}

/// The window's edge, from Flink's `canRestart`: refused iff `max + 1` failures are
/// kept and `now − oldest <= interval`. Only the last `max + 1` failures are kept,
/// so an old failure stops counting.
#[test]
fn failure_rate_window_is_inclusive_and_slides() {
    // 2 failures per 1000 ms.
    let mut strategy = failure_rate(2, 1_000, 250);
    strategy.notify_failure(0);
    strategy.notify_failure(400);
    assert!(strategy.can_restart(400));
    strategy.notify_failure(1_000); // third failure, 1000 ms after the oldest: inside
    assert!(!strategy.can_restart(1_000));

    let mut strategy = failure_rate(2, 1_000, 250);
    strategy.notify_failure(0);
    strategy.notify_failure(400);
    strategy.notify_failure(1_001); // 1001 ms after the oldest: outside
    assert!(strategy.can_restart(1_001));
    // The failure at 0 was dropped: now 400, 1001, 1300 are kept, 900 ms apart.
    strategy.notify_failure(1_300);
    assert!(!strategy.can_restart(1_300));
    assert_eq!(
        strategy.describe(),
        "FailureRateRestartBackoffTimeStrategy(FailureRateRestartBackoffTimeStrategy(failuresIntervalMS=1000,backoffTimeMS=250,maxFailuresPerInterval=2)"
    );
}

// ---------------------------------------------------------------------------------
// Exponential delay

/// Mirrors Flink's `ExponentialDelayRestartBackoffTimeStrategyTest#testMaxAttempts`:
/// initial 1, max 3, multiplier 1.2, reset threshold 10, 13 attempts; a failure every
/// 4 ms (max backoff + 1). Failures 1..=14 each find `canRestart` true beforehand;
/// after the 14th it is false.
#[test]
fn exponential_max_attempts() {
    let mut strategy = exponential(1, 3, 1.2, 10, Some(13));
    let mut now = 0;
    for _ in 0..=13 {
        assert!(strategy.can_restart(now));
        assert!(strategy.notify_failure(now));
        now += 4;
    }
    assert!(!strategy.can_restart(now));
}

/// Mirrors Flink's `ExponentialDelayRestartBackoffTimeStrategyTest#testInitialBackoff`:
/// the first backoff is the initial one (42 ms).
#[test]
fn exponential_initial_backoff() {
    let mut strategy = exponential(42, 45, 2.0, 8, None);
    strategy.notify_failure(0);
    assert_eq!(strategy.backoff_ms(0), 42);
}

/// Mirrors Flink's `ExponentialDelayRestartBackoffTimeStrategyTest#testNotCallNotifyFailure`.
/// Deviation: Flink throws `IllegalStateException("Please call notifyFailure first.")`;
/// the lab returns 0 (the engine never asks before a failure).
#[test]
fn exponential_backoff_before_any_failure_is_zero() {
    let strategy = exponential(42, 45, 2.0, 8, Some(10));
    assert_eq!(strategy.backoff_ms(0), 0);
}

/// Mirrors Flink's `ExponentialDelayRestartBackoffTimeStrategyTest#testMaxBackoff`:
/// 10 failures at the same instant never give more than the max (6 ms); all but the
/// first are merged.
#[test]
fn exponential_max_backoff() {
    let mut strategy = exponential(1, 6, 2.0, 8, None);
    for i in 0..10 {
        assert_eq!(strategy.notify_failure(0), i == 0);
        assert!(strategy.backoff_ms(0) <= 6);
    }
}

/// Mirrors Flink's `ExponentialDelayRestartBackoffTimeStrategyTest#testResetBackoff`:
/// initial 1, max 5, multiplier 2, threshold 8. A failure 7 ms after the pending
/// restart time doubles the backoff (2); one 8 ms after it resets it (1).
#[test]
fn exponential_reset_backoff() {
    let mut strategy = exponential(1, 5, 2.0, 8, None);
    assert!(strategy.notify_failure(0)); // restart at 1
    let now = 8 + strategy.backoff_ms(0) - 1; // 8
    assert!(strategy.notify_failure(now));
    assert_eq!(strategy.backoff_ms(now), 2, "backoff should be increased");
    let now = now + 8 + strategy.backoff_ms(now); // 18, pending restart was at 10
    assert!(strategy.notify_failure(now));
    assert_eq!(strategy.backoff_ms(now), 1, "backoff should be reset");
}

/// Mirrors Flink's `ExponentialDelayRestartBackoffTimeStrategyTest#testBackoffMultiplier`:
/// initial 4, multiplier 2.3 (a decimal), max 300: 4, floor(9.2) = 9,
/// floor(21.16) = 21, a failure every 301 ms.
#[test]
fn exponential_backoff_multiplier() {
    let mut strategy = exponential(4, 300, 2.3, i32::MAX as u64, Some(10));
    let mut now = 0;
    for expected in [4, 9, 21] {
        assert!(strategy.notify_failure(now));
        assert_eq!(strategy.backoff_ms(now), expected);
        now += 301;
    }
}

/// Mirrors Flink's `ExponentialDelayRestartBackoffTimeStrategyTest#testJitter` with
/// the lab's jitter of 0: initial 2, max 7, multiplier 2. Flink's ranges after 2, 3
/// and 4 failures ({3,4,5}, {6,7}, {7}) are centred on 4, 8 capped to 7, and 7.
#[test]
fn exponential_without_jitter_gives_the_centre_of_flinks_ranges() {
    for (failures, expected) in [(2, 4), (3, 7), (4, 7)] {
        let mut strategy = exponential(2, 7, 2.0, i32::MAX as u64, None);
        let mut now = 0;
        for _ in 0..failures {
            now += 8;
            assert!(strategy.notify_failure(now));
        }
        assert_eq!(
            strategy.backoff_ms(now),
            expected,
            "after {failures} failures"
        );
    }
}

/// Mirrors Flink's `ExponentialDelayRestartBackoffTimeStrategyTest#testMultipleSettings`:
/// initial 1, max 9, multiplier 2, threshold 80.
#[test]
fn exponential_multiple_settings() {
    let mut strategy = exponential(1, 9, 2.0, 80, None);
    let mut now = 0;
    // Initial data.
    assert!(strategy.notify_failure(now));
    assert!(strategy.can_restart(now));
    assert_eq!(strategy.backoff_ms(now), 1);
    // 81 ms later (80 after the restart at 1): reset, still the initial backoff.
    now += 81;
    assert!(strategy.notify_failure(now));
    assert!(strategy.can_restart(now));
    assert_eq!(strategy.backoff_ms(now), 1);
    // 4 ms later: increased.
    now += 4;
    assert!(strategy.notify_failure(now));
    assert!(strategy.can_restart(now));
    assert_eq!(strategy.backoff_ms(now), 2);
    // After the threshold: reset.
    now += 80 + 9 + 1;
    assert!(strategy.notify_failure(now));
    assert!(strategy.can_restart(now));
    assert_eq!(strategy.backoff_ms(now), 1);
    now += 10;
    // Still increases afterwards.
    assert!(strategy.notify_failure(now));
    assert!(strategy.can_restart(now));
    assert_eq!(strategy.backoff_ms(now), 2);
}

/// Flink's `checkMultipleExceptionsAreMerged`: during each millisecond until the
/// pending restart, 10 failures; only the very first is a new attempt, and the
/// backoff counts down to the pending restart time.
fn check_merged(strategy: &mut RestartStrategy, now: &mut u64, expected_backoff: u64) {
    let mut expect_new_attempt = true;
    for advance in 0..expected_backoff {
        for _ in 0..10 {
            assert_eq!(
                strategy.notify_failure(*now),
                expect_new_attempt,
                "at {now}"
            );
            expect_new_attempt = false;
            assert!(strategy.can_restart(*now));
            assert_eq!(
                strategy.backoff_ms(*now),
                expected_backoff - advance,
                "at {now}"
            );
        }
        *now += 1;
    }
}

/// Mirrors Flink's `ExponentialDelayRestartBackoffTimeStrategyTest#testMergeMultipleExceptionsIntoOneAttempt`:
/// initial 2, multiplier 2, max 6, threshold 80, 3 attempts. Failures before the
/// pending restart merge; attempts 1..=3 back off 2, 4, 6; the 4th is fatal.
#[test]
fn exponential_merge_multiple_exceptions_into_one_attempt() {
    let mut strategy = exponential(2, 6, 2.0, 80, Some(3));
    let mut now = 0;
    check_merged(&mut strategy, &mut now, 2);
    now += 1;
    check_merged(&mut strategy, &mut now, 4);
    now += 1;
    check_merged(&mut strategy, &mut now, 6);
    now += 1;
    assert!(strategy.notify_failure(now));
    assert!(!strategy.can_restart(now));
}

/// Mirrors Flink's `ExponentialDelayRestartBackoffTimeStrategyTest#testMergingExceptionsWorksWithResetting`:
/// ten rounds of the above, each followed by 80 failure-free ms, which resets the
/// attempt counter so the 3 attempts are available again.
#[test]
fn exponential_merging_works_with_resetting() {
    let mut strategy = exponential(2, 6, 2.0, 80, Some(3));
    let mut now = 0;
    for _ in 0..10 {
        check_merged(&mut strategy, &mut now, 2);
        now += 1;
        check_merged(&mut strategy, &mut now, 4);
        now += 1;
        check_merged(&mut strategy, &mut now, 6);
        now += 80;
    }
}

/// The contract's default while checkpointing is on (exponential 1000 / 60000 / 1.5):
/// `min(60000, floor(1000 × 1.5^k))` for k = 0, 1, …, a failure every 2 minutes (so
/// past each restart, under the 1-hour reset threshold).
#[test]
fn exponential_contract_default_delays() {
    let config = RestartConfig::effective(None, true);
    assert_eq!(
        config,
        RestartConfig::ExponentialDelay {
            initial_ms: 1_000,
            max_ms: 60_000,
            multiplier: 1.5,
            reset_threshold_ms: 3_600_000,
            attempts: None
        }
    );
    assert_eq!(RestartConfig::effective(None, false), RestartConfig::None);
    let mut strategy = RestartStrategy::new(&config);
    let mut delays = Vec::new();
    let mut now = 0;
    for _ in 0..13 {
        assert!(strategy.notify_failure(now));
        assert!(strategy.can_restart(now));
        delays.push(strategy.backoff_ms(now));
        now += 120_000;
    }
    assert_eq!(
        delays,
        vec![
            1_000, 1_500, 2_250, 3_375, 5_062, 7_593, 11_390, 17_085, 25_628, 38_443, 57_665,
            60_000, 60_000
        ]
    );
}

/// The reset is measured from the pending restart time, not the failure: with
/// threshold 100 and a 1000 ms backoff, a failure 1099 ms after the first does not
/// reset, one 1100 ms after does.
#[test]
fn exponential_reset_counts_from_the_restart_time() {
    let mut strategy = exponential(1_000, 60_000, 2.0, 100, None);
    strategy.notify_failure(0); // restart at 1000
    strategy.notify_failure(1_099);
    assert_eq!(strategy.backoff_ms(1_099), 2_000);

    let mut strategy = exponential(1_000, 60_000, 2.0, 100, None);
    strategy.notify_failure(0);
    strategy.notify_failure(1_100);
    assert_eq!(strategy.backoff_ms(1_100), 1_000);
}

/// Flink's `toString`, state included (jitter is 0 in the lab); unlimited attempts
/// print as `Integer.MAX_VALUE` and the unset restart time as `Integer.MIN_VALUE`.
#[test]
fn exponential_describe_matches_flinks_to_string() {
    let mut strategy = RestartStrategy::new(&RestartConfig::effective(None, true));
    assert_eq!(
        strategy.describe(),
        "ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS=1000, maxBackoffMS=60000, backoffMultiplier=1.5, \
         resetBackoffThresholdMS=3600000, jitterFactor=0.0, attemptsBeforeResetBackoff=2147483647, \
         currentRestartAttempt=0, nextRestartTimestamp=-2147483648)"
    );
    strategy.notify_failure(2_500);
    assert!(strategy
        .describe()
        .ends_with("currentRestartAttempt=1, nextRestartTimestamp=3500)"));
    let strategy = exponential(4, 300, 2.0, 10, Some(3));
    assert!(strategy.describe().contains("backoffMultiplier=2.0, "));
    assert!(strategy
        .describe()
        .contains("attemptsBeforeResetBackoff=3, "));
}

/// The state machine is a value: cloning mid-run (a timeline keyframe) and replaying
/// the same failures gives the same answers; it round-trips through serde.
#[test]
fn strategies_are_values() {
    let mut strategy = exponential(100, 1_000, 1.5, 10_000, Some(5));
    strategy.notify_failure(0);
    strategy.notify_failure(500);
    let json = serde_json::to_string(&strategy).unwrap();
    let mut copy: RestartStrategy = serde_json::from_str(&json).unwrap();
    assert_eq!(copy, strategy);
    assert_eq!(copy.notify_failure(2_000), strategy.notify_failure(2_000));
    assert_eq!(copy.backoff_ms(2_000), strategy.backoff_ms(2_000));
    assert_eq!(copy, strategy);

    let direct = ExponentialDelayStrategy::new(100, 1_000, 1.5, 10_000, Some(5));
    assert_eq!(direct.backoff_for_attempt(0), 100);
    assert_eq!(direct.backoff_for_attempt(1), 150);
    assert_eq!(direct.backoff_for_attempt(5), 759);
    assert_eq!(direct.backoff_for_attempt(6), 1_000);
    assert_eq!(
        direct.backoff_for_attempt(u32::MAX),
        1_000,
        "large exponents stop at the cap"
    );
}

// ---------------------------------------------------------------------------------
// Exponential delay to the millisecond

/// Java's `Math.pow` for a grid of initial delays, multipliers and attempts
/// (`fixtures/ExponentialBackoffTable.java`): the lab's delay before its cap is
/// Flink's `(long) (initial * Math.pow(multiplier, attempt))` on every entry.
#[test]
fn exponential_backoff_equals_javas_math_pow() {
    let table = include_str!("fixtures/exponential-backoff-java.txt");
    let mut rows = 0;
    let mut off_by_repeated_multiplication = 0;
    for line in table.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        let (initial, multiplier, attempt, java): (u64, f64, u32, u64) = (
            f[0].parse().unwrap(),
            f[1].parse().unwrap(),
            f[2].parse().unwrap(),
            f[3].parse().unwrap(),
        );
        let uncapped = ExponentialDelayStrategy::new(initial, u64::MAX, multiplier, 1, None);
        assert_eq!(
            uncapped.backoff_for_attempt(attempt),
            java.max(initial),
            "initial {initial} ms, multiplier {multiplier}, attempt {attempt}"
        );
        let repeated = (0..attempt).fold(initial as f64, |v, _| v * multiplier) as u64;
        off_by_repeated_multiplication += usize::from(repeated != java);
        rows += 1;
    }
    assert_eq!(rows, 2_250, "the whole table was read");
    // Sometimes: the table holds entries where multiplying step by step rounds
    // differently, so it tells the two computations apart.
    assert!(off_by_repeated_multiplication > 0);
}

/// The example Flink's formula and step-by-step multiplication disagree on.
#[test]
fn exponential_multiplier_1_2_gives_flinks_1727() {
    let s = ExponentialDelayStrategy::new(1_000, 60_000, 1.2, 3_600_000, None);
    let delays: Vec<u64> = (0..4).map(|k| s.backoff_for_attempt(k)).collect();
    assert_eq!(delays, [1_000, 1_200, 1_440, 1_727]);
}

/// Flink's calculation written out beside the strategy: over many drawn settings,
/// the delays a run of failures gets (each failure after the pending restart,
/// inside the reset threshold) are `max(initial, min(max, (long) (initial ×
/// pow(multiplier, k))))` for k = 0, 1, 2, …
#[test]
fn exponential_delays_follow_flinks_formula() {
    use rand::{Rng, SeedableRng};
    let flink = |initial: u64, max: u64, multiplier: f64, k: u32| -> u64 {
        let backoff = (initial as f64 * multiplier.powf(f64::from(k))) as u64;
        backoff.min(max).max(initial)
    };
    let (mut capped, mut uncapped) = (0, 0);
    for seed in 0..500u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let initial = rng.random_range(1..=5_000u64);
        let max = initial * rng.random_range(1..=200u64);
        let multiplier = f64::from(rng.random_range(101..=400u32)) / 100.0;
        let mut strategy = exponential(initial, max, multiplier, u64::MAX / 4, None);
        let mut now = 0u64;
        for k in 0..12u32 {
            assert!(strategy.notify_failure(now));
            let delay = strategy.backoff_ms(now);
            let expected = flink(initial, max, multiplier, k);
            assert_eq!(
                delay, expected,
                "seed {seed}: initial {initial}, max {max}, multiplier {multiplier}, attempt {k}"
            );
            if expected == max && max > initial {
                capped += 1;
            } else {
                uncapped += 1;
            }
            now += delay + 1;
        }
    }
    // Sometimes: both sides of the cap were exercised.
    assert!(
        capped > 0 && uncapped > 0,
        "capped {capped}, uncapped {uncapped}"
    );
}
