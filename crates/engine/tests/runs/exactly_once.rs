//! The exactly-once oracle (Arroyo's smoke tests): with crashes, the committed
//! output of a two-phase-commit sink equals the failure-free run's, per key —
//! nothing lost, nothing twice. At-least-once loses nothing but may duplicate.

use crate::common::{
    assert_sometimes, committed, per_key, random_scenario, restored_a_checkpoint, run_traced, Gen,
    Mode,
};
use engine::scenario::ScriptStep;
use engine::Scenario;

fn failure_free(s: &Scenario) -> Scenario {
    let mut f = s.clone();
    f.script.retain(|x| !matches!(x, ScriptStep::Crash { .. }));
    f
}

/// Checks one seed; returns whether the run failed over to a checkpoint.
fn check_exactly_once(seed: u64, g: &Gen) -> bool {
    let g = &Gen {
        keyed: Some("keyed_count"),
        ..g.clone()
    };
    let s = random_scenario(seed, g);
    let (_, with_crashes) = run_traced(&s);
    let (_, truth) = run_traced(&failure_free(&s));
    assert_eq!(
        truth["job_status"], "finished",
        "seed {seed}: the failure-free run did not finish"
    );
    assert_eq!(
        with_crashes["job_status"], "finished",
        "seed {seed}: the run with crashes did not finish: {}",
        with_crashes["failures"]
    );
    // Several sink subtasks commit independently, so compare each key's values as
    // a multiset: for a keyed count that is exactly 1..=N, nothing lost, nothing twice.
    let sorted = |m: std::collections::BTreeMap<String, Vec<i64>>| {
        m.into_iter()
            .map(|(k, mut v)| {
                v.sort_unstable();
                (k, v)
            })
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    let got = sorted(per_key(&committed(&with_crashes, "out")));
    let want = sorted(per_key(&committed(&truth, "out")));
    for (k, v) in &want {
        assert_eq!(
            v,
            &(1..=v.len() as i64).collect::<Vec<_>>(),
            "seed {seed}: failure-free counts of {k} are not 1..=N"
        );
    }
    assert!(
        got == want,
        "seed {seed} ({:?}): committed output differs from the failure-free run\n got: {got:?}\nwant: {want:?}\nscenario: {}",
        g.mode,
        s.to_json()
    );
    restored_a_checkpoint(&with_crashes)
}

/// A keyed sum's intermediate values depend on how partitions interleave, which a
/// crash changes; but exactly-once still means the same number of outputs per key
/// and the same final sum.
#[test]
fn keyed_sum_final_values_survive_crashes() {
    let mut restored = 0;
    for seed in 0..200 {
        let mode = if seed % 2 == 0 {
            Mode::Aligned
        } else {
            Mode::Unaligned
        };
        let s = random_scenario(
            seed,
            &Gen {
                mode,
                crashes: true,
                sink: "two_phase_commit",
                aligned_timeout: false,
                keyed: Some("keyed_sum"),
            },
        );
        let (_, out) = run_traced(&s);
        let (_, truth) = run_traced(&failure_free(&s));
        restored += usize::from(restored_a_checkpoint(&out));
        let got = per_key(&committed(&out, "out"));
        let want = per_key(&committed(&truth, "out"));
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>(),
            "seed {seed}: keys differ"
        );
        for (k, w) in &want {
            let g = &got[k];
            // Values are positive, so the final sum is the largest.
            assert_eq!(
                (g.len(), g.iter().max()),
                (w.len(), w.iter().max()),
                "seed {seed}: key {k}: count or final sum differs"
            );
        }
    }
    assert_sometimes(restored, 40, 200, "failed over to a checkpoint");
}

/// Seeds per mode; `EXACTLY_ONCE_SEEDS` raises it for a longer hunt.
fn seeds() -> u64 {
    std::env::var("EXACTLY_ONCE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500)
}

/// 500 (seed, crash schedule) pairs, aligned.
#[test]
fn aligned_two_phase_commit_is_exactly_once() {
    let mut restored = 0;
    for seed in 0..seeds() {
        restored += usize::from(check_exactly_once(
            seed,
            &Gen {
                mode: Mode::Aligned,
                crashes: true,
                sink: "two_phase_commit",
                aligned_timeout: false,
                keyed: None,
            },
        ));
    }
    let n = seeds() as usize;
    assert_sometimes(restored, n / 5, n, "failed over to a checkpoint");
}

/// 500 (seed, crash schedule) pairs, unaligned (half with an aligned-checkpoint timeout).
#[test]
fn unaligned_two_phase_commit_is_exactly_once() {
    let mut restored = 0;
    for seed in 0..seeds() {
        restored += usize::from(check_exactly_once(
            seed,
            &Gen {
                mode: Mode::Unaligned,
                crashes: true,
                sink: "two_phase_commit",
                aligned_timeout: seed % 2 == 1,
                keyed: None,
            },
        ));
    }
    let n = seeds() as usize;
    assert_sometimes(restored, n / 5, n, "failed over to a checkpoint");
}

/// At-least-once (tracker, plain appending sink): every count a key reaches in the
/// failure-free run is written at least once; and over many seeds duplicates occur.
#[test]
fn at_least_once_loses_nothing_and_duplicates_happen() {
    let mut runs_with_duplicates = 0;
    for seed in 0..300 {
        let g = Gen {
            mode: Mode::AtLeastOnce,
            crashes: true,
            sink: "at_least_once",
            aligned_timeout: false,
            keyed: Some("keyed_count"),
        };
        let s = random_scenario(seed, &g);
        let (_, out) = run_traced(&s);
        let (_, truth) = run_traced(&failure_free(&s));
        let got = per_key(&committed(&out, "out"));
        let want = per_key(&committed(&truth, "out"));
        for (k, vals) in &want {
            let g = got.get(k).cloned().unwrap_or_default();
            for v in vals {
                assert!(
                    g.contains(v),
                    "seed {seed}: key {k} value {v} lost\n got {g:?}\nwant {vals:?}"
                );
            }
        }
        let total_got: usize = got.values().map(Vec::len).sum();
        let total_want: usize = want.values().map(Vec::len).sum();
        assert!(
            total_got >= total_want,
            "seed {seed}: fewer writes than the failure-free run"
        );
        if total_got > total_want {
            runs_with_duplicates += 1;
        }
    }
    assert!(
        runs_with_duplicates > 30,
        "duplicates should be common with crashes: {runs_with_duplicates}/300"
    );
}

/// The lesson scenario: at-least-once with a crash writes some records twice.
#[test]
fn at_least_once_builtin_shows_duplicates() {
    let s = engine::runner::load("at-least-once-duplicates").unwrap();
    let (_, out) = run_traced(&s);
    let pairs = committed(&out, "out");
    let mut seen = std::collections::BTreeSet::new();
    let dups = pairs.iter().filter(|p| !seen.insert((*p).clone())).count();
    assert!(
        dups > 0,
        "expected duplicated (key, count) writes after the crash"
    );
    assert_eq!(out["failures"][0]["restored_from"], 2);
}

/// docs/flink-semantics.md §4.2: a transaction left open past the sink's
/// `transaction_timeout_ms` (checkpoints every 1000 ms, timeout 300 ms) is aborted by
/// the broker, and the sink's next write fails its subtask with Kafka's error, as
/// Flink's `KafkaWriter` rethrows the failed send. The job fails over; the records of
/// the aborted transaction were never committed, so the restore replays them.
#[test]
fn transaction_timeout_fails_the_next_write() {
    let doc = serde_json::json!({
        "version": 1, "name": "open-too-long", "seed": 1,
        "job": {
            "operators": [
                {"uid": "numbers", "kind": "source",
                 "partitions": [{"generate": {"count": 50, "every_ms": 20, "values": "sequence"}}]},
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit", "transaction_timeout_ms": 300}
            ],
            "edges": [{"from": "numbers", "to": "out"}]
        },
        "checkpointing": {"interval_ms": 1000},
        "restart": {"strategy": "fixed_delay", "attempts": 1, "delay_ms": 100},
    });
    let s = Scenario::from_json(&doc.to_string()).expect("valid");
    let (events, summary) = run_traced(&s);
    let failures = summary["failures"].as_array().expect("failures");
    assert!(!failures.is_empty(), "{summary}");
    let reason = failures[0]["reason"].as_str().expect("a reason");
    assert!(
        reason.starts_with("One or more Kafka Producer send requests have encountered exception")
            && reason.contains("ProducerFencedException")
            && reason.contains("transaction.timeout.ms, 300ms"),
        "{reason}"
    );
    // The broker's abort came first, at the first record + 300 + 1 ms.
    let first_write = events
        .iter()
        .find(|e| matches!(e.event, engine::event::Event::RecordWritten { .. }))
        .map(|e| e.t)
        .expect("a write");
    let abort = events
        .iter()
        .find(|e| matches!(e.event, engine::event::Event::TransactionAborted { .. }))
        .map(|e| e.t)
        .expect("an abort");
    assert_eq!(abort, first_write + 301);
    assert!(failures[0]["at_ms"].as_u64().unwrap() > abort);
}
