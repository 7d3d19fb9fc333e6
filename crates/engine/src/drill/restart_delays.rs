//! The exponential-delay restart strategy's delays, on `restart-exponential-delay`:
//! four crashes, and the delay before each restart.
//!
//! Flink (`ExponentialDelayRestartBackoffTimeStrategy.notifyFailure` and
//! `calculateActualBackoffTime`): attempt k (from 0) waits
//! `max(initial, min(max, (long) (initial × multiplier^k)))`, and a failure at least
//! `reset-backoff-threshold` after the pending restart time starts again at k = 0.
//! The engine multiplies repeatedly where Flink calls `Math.pow`; for the
//! multipliers asked here, 1.5 and 2.0, both are exact, so the exercise draws only
//! those. Jitter (`restart-strategy.exponential-delay.jitter-factor`, default 0.1)
//! is left out, as the engine leaves it out.

use super::{blank, question, reason, run, Answer, DrillError, Made};
use crate::event::Event;
use crate::scenario::{RestartConfig, Scenario, ScriptStep};

/// The multipliers the exercise asks about, in tenths.
pub(super) const MULTIPLIERS_TENTHS: [u64; 2] = [15, 20];

/// Gives the lesson's strategy the drawn delays; its reset threshold and its
/// (unlimited) attempts stay as the lesson has them.
pub(super) fn set_strategy(
    s: &mut Scenario,
    initial_ms: u64,
    max_ms: u64,
    multiplier_tenths: u64,
) -> Result<(), DrillError> {
    if !MULTIPLIERS_TENTHS.contains(&multiplier_tenths) {
        return Err(DrillError::NoEffect {
            param: "multiplier_tenths",
            why: format!(
                "{multiplier_tenths} tenths: only 15 and 20, where repeated multiplication \
                 and Flink's Math.pow agree"
            ),
        });
    }
    if max_ms < initial_ms {
        return Err(DrillError::NoEffect {
            param: "max_ms",
            why: format!("{max_ms} ms is below the initial delay {initial_ms} ms"),
        });
    }
    let Some(RestartConfig::ExponentialDelay {
        reset_threshold_ms,
        attempts,
        ..
    }) = s.restart.clone()
    else {
        return Err(DrillError::Scenario(
            "the lesson's restart strategy is not exponential_delay".into(),
        ));
    };
    s.restart = Some(RestartConfig::ExponentialDelay {
        initial_ms,
        max_ms,
        multiplier: multiplier_tenths as f64 / 10.0,
        reset_threshold_ms,
        attempts,
    });
    Ok(())
}

pub(super) fn restart_delays(s: &Scenario) -> Result<Made, DrillError> {
    let Some(RestartConfig::ExponentialDelay {
        initial_ms,
        max_ms,
        multiplier,
        reset_threshold_ms,
        ..
    }) = s.restart
    else {
        return Err(DrillError::Scenario(
            "the lesson's restart strategy is not exponential_delay".into(),
        ));
    };
    let crashes: Vec<u64> = s
        .script
        .iter()
        .filter_map(|step| match step {
            ScriptStep::Crash { at_ms, .. } => Some(*at_ms),
            _ => None,
        })
        .collect();
    let names = ["crash_1_ms", "crash_2_ms", "crash_3_ms", "crash_4_ms"];
    if crashes.len() != names.len() {
        return Err(DrillError::Scenario(format!(
            "the lesson scripts {} crashes, the exercise asks about {}",
            crashes.len(),
            names.len()
        )));
    }
    let (_, trace) = run(s)?;
    // Each restart: when its failure was handled and the delay the strategy gave.
    let restarts: Vec<(u64, u64)> = trace
        .iter()
        .filter_map(|e| match e.event {
            Event::JobRestarting { delay_ms } => Some((e.t, delay_ms)),
            _ => None,
        })
        .collect();
    if restarts.len() != crashes.len() {
        return Err(DrillError::NoEffect {
            param: "initial_ms",
            why: format!(
                "{} restarts for {} crashes: a crash falls before the pending restart",
                restarts.len(),
                crashes.len()
            ),
        });
    }
    let multiplier_tenths = (multiplier * 10.0).round() as u64;
    let mut blanks = Vec::new();
    // The attempt counter, told from the trace: a failure at least the threshold
    // after the previous restart starts again at 0.
    let mut attempt = 0u32;
    let mut previous_restart: Option<u64> = None;
    for (i, &(at, delay)) in restarts.iter().enumerate() {
        let mut args = vec![
            ("failure", (i + 1).to_string()),
            ("failed_ms", at.to_string()),
            ("delay_ms", delay.to_string()),
        ];
        let key = match previous_restart {
            None => "restart_delay_first",
            Some(p) => {
                let since = at.saturating_sub(p);
                args.extend([
                    ("since_ms", since.to_string()),
                    ("reset_threshold_ms", reset_threshold_ms.to_string()),
                ]);
                if since >= reset_threshold_ms {
                    attempt = 0;
                    "restart_delay_reset"
                } else {
                    attempt += 1;
                    args.extend([
                        ("attempt", attempt.to_string()),
                        ("initial_ms", initial_ms.to_string()),
                        ("max_ms", max_ms.to_string()),
                        ("multiplier", format!("{:.1}", multiplier)),
                    ]);
                    "restart_delay_grows"
                }
            }
        };
        previous_restart = Some(at + delay);
        let mut b = blank(&format!("delay_{}", i + 1), Answer::Number(delay as i64));
        b.why = Some(reason(key, &args, at));
        blanks.push(b);
    }
    let grows = blanks.iter().any(|b| {
        b.why
            .as_ref()
            .is_some_and(|w| w.key == "restart_delay_grows")
    });
    if !grows {
        return Err(DrillError::NoEffect {
            param: "initial_ms",
            why: "no delay grows: every failure restarts the counter".into(),
        });
    }
    let last = restarts.last().map_or(0, |(t, d)| t + d);
    let mut asked = vec![
        ("initial_ms", initial_ms),
        ("max_ms", max_ms),
        ("multiplier_tenths", multiplier_tenths),
        ("reset_threshold_ms", reset_threshold_ms),
    ];
    asked.extend(names.iter().copied().zip(crashes.iter().copied()));
    Ok((question(&asked), last, blanks))
}
