//! The restart exercises over many variants: the delays before each restart under
//! exponential delay, held against Flink's formula applied by hand to the
//! variant's parameters and crash times, and against when the summary says the
//! job restarted.

use std::collections::BTreeSet;

use engine::drill::{self, Answer, Exercise, Kind};
use engine::runner;

const VARIANTS: u64 = 150;

fn exercise(kind: Kind, v: u64) -> Exercise {
    let base = runner::load(kind.lesson()).expect("built-in");
    drill::generate(kind, &base, v).unwrap_or_else(|e| panic!("{} variant {v}: {e}", kind.key()))
}

/// Flink's `ExponentialDelayRestartBackoffTimeStrategy` without jitter, by hand:
/// a failure at or before the pending restart is merged into it; one at least
/// `threshold` after it starts the attempts again at 0; attempt k waits
/// `max(initial, min(max, (long) (initial × Math.pow(multiplier, k))))`.
fn flink_delays(
    crashes: &[u64],
    initial: u64,
    max: u64,
    multiplier: f64,
    threshold: u64,
) -> Vec<u64> {
    let mut delays = Vec::new();
    let mut attempt = 0i32;
    let mut pending: Option<u64> = None;
    for &t in crashes {
        if let Some(p) = pending {
            if t <= p {
                continue;
            }
            if t - p >= threshold {
                attempt = 0;
            }
        }
        let raw = (initial as f64 * multiplier.powf(f64::from(attempt))) as u64;
        let delay = raw.min(max).max(initial);
        delays.push(delay);
        pending = Some(t + delay);
        attempt += 1;
    }
    delays
}

#[test]
fn restart_delays_follow_flinks_exponential_formula_with_its_reset() {
    let mut answers = BTreeSet::new();
    let (mut capped, mut reset) = (0, 0);
    for v in 0..VARIANTS {
        let ex = exercise(Kind::RestartDelays, v);
        let q = &ex.question;
        let multiplier = q["multiplier_tenths"] as f64 / 10.0;
        assert!(
            [1.5, 2.0].contains(&multiplier),
            "variant {v}: {multiplier}"
        );
        let crashes: Vec<u64> = (1..=4).map(|i| q[&format!("crash_{i}_ms")]).collect();
        let expected = flink_delays(
            &crashes,
            q["initial_ms"],
            q["max_ms"],
            multiplier,
            q["reset_threshold_ms"],
        );
        let given: Vec<u64> = ex
            .blanks
            .iter()
            .map(|b| match b.answer {
                Answer::Number(n) => n as u64,
                ref other => panic!("{}: {other:?}", b.name),
            })
            .collect();
        assert_eq!(given, expected, "variant {v}: {:?}", ex.params);
        assert_eq!(expected.len(), 4, "variant {v}: every crash restarts");
        // Another engine output: the summary's failures and when the job restarted.
        let world = runner::run(&ex.scenario, &runner::RunOptions::default(), |_| {}).unwrap();
        let summary = serde_json::to_value(engine::summary::Summary::of(
            &world,
            engine::summary::Metadata::Omitted,
        ))
        .unwrap();
        let waited: Vec<u64> = summary["failures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["restarted_ms"].as_u64().unwrap() - f["at_ms"].as_u64().unwrap())
            .collect();
        assert_eq!(waited, expected, "variant {v}: the summary's restarts");
        // Each reason names the delay it explains, at its failure.
        for (b, crash) in ex.blanks.iter().zip(&crashes) {
            let why = b.why.as_ref().unwrap();
            assert_eq!(why.args["delay_ms"], b.answer.to_string(), "variant {v}");
            assert_eq!(why.at_ms, *crash, "variant {v}: {}", b.name);
            if why.key == "restart_delay_reset" {
                reset += 1;
            }
        }
        let uncapped = flink_delays(&crashes, q["initial_ms"], u64::MAX, multiplier, 1_000);
        if uncapped != expected {
            capped += 1;
        }
        answers.insert(given);
    }
    assert!(capped > 10, "the cap decides some: {capped}");
    assert!(reset > 10, "the reset decides some: {reset}");
    assert!(answers.len() >= 50, "variants differ: {}", answers.len());
}

#[test]
fn restart_delays_refuse_a_multiplier_flink_rounds_otherwise() {
    let base = runner::load(Kind::RestartDelays.lesson()).unwrap();
    let params = |m: u64| {
        [
            ("initial_ms", 100),
            ("max_ms", 800),
            ("multiplier_tenths", m),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    };
    let err = drill::build(Kind::RestartDelays, &base, &params(17))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("multiplier_tenths: 17 tenths"), "{err}");
    assert!(drill::build(Kind::RestartDelays, &base, &params(15)).is_ok());
    // 250 × 2.0 = 500 ms: the fourth crash, at 3300 ms, falls on the pending restart.
    let merged = [
        ("initial_ms", 250),
        ("max_ms", 900),
        ("multiplier_tenths", 20),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let err = drill::build(Kind::RestartDelays, &base, &merged)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("initial_ms: 3 restarts for 4 crashes"),
        "{err}"
    );
}
