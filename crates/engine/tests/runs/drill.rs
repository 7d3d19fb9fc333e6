//! The interview drill's exercises over many variants: each answer the engine gives
//! is held against a fact found another way (the offsets and keys the source
//! emitted, the sums recomputed from the input, the failure-free run's output, the
//! fixed-delay strategy's formula), and every variant drawn still shows what the
//! exercise asks about (a restore from chk-1 or later, duplicates, a failed job).

use std::collections::{BTreeMap, BTreeSet};

use engine::drill::{self, Answer, DrillError, Exercise, Kind, Params};
use engine::event::{Event, TraceEvent};
use engine::runner;
use engine::Scenario;

const VARIANTS: u64 = 200;

fn base(kind: Kind) -> Scenario {
    runner::load(kind.lesson()).expect("built-in")
}

fn exercise(kind: Kind, variant: u64) -> Exercise {
    drill::generate(kind, &base(kind), variant)
        .unwrap_or_else(|e| panic!("{} variant {variant}: {e}", kind.key()))
}

/// The exercise's variant run again, apart from the drill's own run.
fn trace_of(ex: &Exercise) -> (Vec<TraceEvent>, serde_json::Value) {
    let opts = runner::RunOptions {
        trace: true,
        metadata: true,
        ..Default::default()
    };
    let mut trace = Vec::new();
    let world = runner::run(&ex.scenario, &opts, |e| trace.push(e.clone())).unwrap();
    let summary = serde_json::to_value(engine::summary::Summary::of(
        &world,
        engine::summary::Metadata::Included,
    ))
    .unwrap();
    (trace, summary)
}

fn number(ex: &Exercise, blank: &str) -> i64 {
    match ex
        .blanks
        .iter()
        .find(|b| b.name == blank)
        .map(|b| &b.answer)
    {
        Some(Answer::Number(n)) => *n,
        other => panic!("{blank}: {other:?}"),
    }
}

fn set(ex: &Exercise, blank: &str) -> BTreeSet<i64> {
    match ex
        .blanks
        .iter()
        .find(|b| b.name == blank)
        .map(|b| &b.answer)
    {
        Some(Answer::Set(s)) => s.clone(),
        other => panic!("{blank}: {other:?}"),
    }
}

fn is(e: &Event, name: &str) -> bool {
    serde_json::to_value(e).unwrap()["task"] == name
}

#[test]
fn stored_offset_is_the_records_read_before_the_barrier_and_the_counts_add_up_to_it() {
    let mut answers = BTreeSet::new();
    for v in 0..VARIANTS {
        let ex = exercise(Kind::StoredOffset, v);
        let n = ex.question["checkpoint"];
        let (trace, summary) = trace_of(&ex);
        // Independent: the source's emissions before it injected barrier n.
        let mut emitted = Vec::new();
        for e in &trace {
            match &e.event {
                Event::BarrierInjected { checkpoint, .. } if checkpoint.0 == n => break,
                Event::RecordEmitted { offset, key, .. } => {
                    emitted.push((*offset, key.as_deref().unwrap_or("").to_string()))
                }
                _ => {}
            }
        }
        let offset = number(&ex, "offset");
        assert_eq!(
            offset,
            emitted.len() as i64,
            "variant {v}: offset of chk-{n}"
        );
        let meta = summary["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == n)
            .unwrap();
        assert_eq!(
            meta["metadata"]["kafka"]["offsets"]["0"], offset,
            "variant {v}"
        );
        for app in ["app1", "app2"] {
            let counted = emitted.iter().filter(|(_, k)| k == app).count() as i64;
            assert_eq!(number(&ex, app), counted, "variant {v}: {app} in chk-{n}");
        }
        assert_eq!(number(&ex, "app1") + number(&ex, "app2"), offset);
        assert!(
            offset > 0 && offset < 60,
            "variant {v}: chk-{n} falls while reading"
        );
        answers.insert((n, offset, number(&ex, "app1")));
    }
    assert!(
        answers.len() >= 20,
        "variants differ: {} answers",
        answers.len()
    );
}

#[test]
fn restored_sums_are_the_sums_of_the_numbers_below_the_restored_offset() {
    let mut answers = BTreeSet::new();
    for v in 0..VARIANTS {
        let ex = exercise(Kind::RestoredSums, v);
        let crash = ex.question["crash_ms"];
        let (trace, summary) = trace_of(&ex);
        // Independent: the last checkpoint completed before the crash.
        let last = trace
            .iter()
            .filter(|e| e.t <= crash)
            .filter_map(|e| match e.event {
                Event::CheckpointCompleted { checkpoint } => Some(checkpoint.0),
                _ => None,
            })
            .next_back()
            .unwrap_or_else(|| panic!("variant {v}: the crash at {crash} falls after chk-1"));
        assert_eq!(number(&ex, "checkpoint"), last as i64, "variant {v}");
        let c = summary["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == last)
            .unwrap();
        let offset = c["metadata"]["numbers"]["offsets"]["0"].as_i64().unwrap();
        let even: i64 = (1..=offset).filter(|n| n % 2 == 0).sum();
        let odd: i64 = (1..=offset).filter(|n| n % 2 == 1).sum();
        assert_eq!(
            number(&ex, "even_sum"),
            even,
            "variant {v}: offset {offset}"
        );
        assert_eq!(number(&ex, "odd_sum"), odd, "variant {v}: offset {offset}");
        answers.insert((last, offset));
    }
    assert!(answers.len() >= 5, "variants differ: {answers:?}");
}

#[test]
fn waiting_records_are_the_numbers_that_arrive_between_the_two_barriers() {
    let mut answers = BTreeSet::new();
    for v in 0..VARIANTS {
        let ex = exercise(Kind::AlignmentWaiting, v);
        let (trace, _) = trace_of(&ex);
        let numbers_latency = ex
            .scenario
            .job
            .edges
            .iter()
            .find(|e| e.from == "numbers")
            .unwrap()
            .latency_ms;
        // Independent: what the numbers source emitted after its barrier, arriving
        // at the merge by the time the letters' barrier is handled there.
        let injected = trace
            .iter()
            .position(|e| matches!(&e.event, Event::BarrierInjected { task, .. } if &**task == "numbers#0"))
            .unwrap();
        let letters_arrive = trace
            .iter()
            .filter(|e| is(&e.event, "merge#0"))
            .filter_map(|e| match e.event {
                Event::BarrierReceived { channel, .. } => Some((channel, e.t)),
                _ => None,
            })
            .nth(1)
            .map(|(_, t)| t)
            .unwrap();
        let expected: BTreeSet<i64> = trace[injected..]
            .iter()
            .filter_map(|e| match &e.event {
                Event::RecordEmitted { task, value, .. } if &**task == "numbers#0" => {
                    Some((e.t, *value))
                }
                _ => None,
            })
            // A number arriving in the same millisecond as the letters' barrier
            // was queued first (it was scheduled first: it left earlier).
            .filter(|(t, _)| t + numbers_latency <= letters_arrive)
            .map(|(_, v)| v)
            .collect();
        let waiting = set(&ex, "waiting");
        assert_eq!(waiting, expected, "variant {v}: {:?}", ex.params);
        assert!(!waiting.is_empty(), "variant {v}: something waits");
        assert!(ex.blanks[0].choices.iter().all(|c| (1..=5).contains(c)));
        answers.insert(waiting.len());
    }
    assert!(answers.len() >= 4, "variants differ: {answers:?}");
}

#[test]
fn duplicates_are_what_the_sink_wrote_beyond_the_failure_free_run() {
    let mut answers = BTreeSet::new();
    for v in 0..VARIANTS {
        let ex = exercise(Kind::AtLeastOnceDuplicates, v);
        let (trace, _) = trace_of(&ex);
        let written = |t: &[TraceEvent]| {
            t.iter()
                .filter(|e| matches!(e.event, Event::RecordWritten { .. }))
                .count() as i64
        };
        // Independent: the failure-free run of the same variant writes each
        // output once; at-least-once loses nothing, so the surplus is duplicates.
        let mut calm = ex.scenario.clone();
        calm.script.clear();
        let mut calm_trace = Vec::new();
        let opts = runner::RunOptions {
            trace: true,
            ..Default::default()
        };
        runner::run(&calm, &opts, |e| calm_trace.push(e.clone())).unwrap();
        let twice = number(&ex, "duplicates");
        assert_eq!(twice, written(&trace) - written(&calm_trace), "variant {v}");
        assert!(twice > 0, "variant {v}: duplicates exist");
        answers.insert(twice);
    }
    assert!(answers.len() >= 5, "variants differ: {answers:?}");
}

#[test]
fn committed_transactions_are_those_of_checkpoints_completed_by_then() {
    let mut answers = BTreeSet::new();
    for v in 0..VARIANTS {
        let ex = exercise(Kind::CommittedTransactions, v);
        let at = ex.question["at_ms"];
        let (trace, _) = trace_of(&ex);
        let completed: BTreeMap<u64, u64> = trace
            .iter()
            .filter_map(|e| match e.event {
                Event::CheckpointCompleted { checkpoint } => Some((checkpoint.0, e.t)),
                _ => None,
            })
            .collect();
        // Independent: a transaction is committed once the checkpoint it was
        // pre-committed for has completed (the coordinator's notification), never
        // before.
        let expected: BTreeSet<i64> = trace
            .iter()
            .filter_map(|e| match &e.event {
                Event::TransactionPrecommitted {
                    txn,
                    checkpoint: Some(c),
                    ..
                } => completed
                    .get(&c.0)
                    .filter(|done| **done <= at)
                    .map(|_| *txn as i64),
                _ => None,
            })
            .collect();
        let committed = set(&ex, "committed");
        assert_eq!(committed, expected, "variant {v}: at {at} ms");
        let choices: BTreeSet<i64> = ex.blanks[0].choices.iter().copied().collect();
        assert!(
            committed.is_subset(&choices) && committed != choices,
            "variant {v}"
        );
        answers.insert(committed);
    }
    assert!(answers.len() >= 2, "variants differ: {answers:?}");
}

#[test]
fn restarts_follow_the_fixed_delay_formula() {
    for v in 0..VARIANTS {
        let ex = exercise(Kind::RestartsBeforeFailure, v);
        let attempts = ex.question["attempts"] as i64;
        let crashes = ex.scenario.script.len() as i64;
        // FixedDelayRestartBackoffTimeStrategy: failures 1..=attempts restart, the
        // next one is fatal (every crash here falls while the job runs).
        assert_eq!(
            number(&ex, "restarts"),
            attempts.min(crashes),
            "variant {v}"
        );
        assert_eq!(number(&ex, "fatal_failure"), attempts + 1, "variant {v}");
    }
}

#[test]
fn a_variant_seed_always_gives_the_same_exercise() {
    for kind in Kind::ALL {
        assert_eq!(exercise(kind, 41), exercise(kind, 41), "{}", kind.key());
        assert_eq!(Kind::from_key(kind.key()), Some(kind));
    }
}

#[test]
fn the_checker_marks_right_and_wrong_answers_and_names_the_blank() {
    let ex = exercise(Kind::RestoredSums, 3);
    let right: Vec<Answer> = ex.blanks.iter().map(|b| b.answer.clone()).collect();
    let marked = drill::check(&ex, &right).unwrap();
    assert!(marked.iter().all(|m| m.right));
    let mut wrong = right.clone();
    wrong[1] = Answer::Number(number(&ex, "even_sum") + 1);
    let marked = drill::check(&ex, &wrong).unwrap();
    assert_eq!(
        marked.iter().map(|m| m.right).collect::<Vec<_>>(),
        [true, false, true]
    );
    let message = marked[1].to_string();
    assert!(message.starts_with("even_sum: you said"), "{message}");
    assert!(
        message.contains(&number(&ex, "even_sum").to_string()),
        "{message}"
    );
    let err = drill::check(&ex, &right[..1]).unwrap_err().to_string();
    assert!(err.contains("answers") && err.contains('3'), "{err}");

    let w = exercise(Kind::AlignmentWaiting, 3);
    let typed = drill::parse(&w.blanks[0], " 3、1,2 ").unwrap();
    assert_eq!(typed, Answer::Set([1, 2, 3].into()));
    let err = drill::parse(&w.blanks[0], "1, two")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("waiting: ") && err.contains("two"), "{err}");
    let err = drill::parse(&ex.blanks[0], "").unwrap_err().to_string();
    assert!(err.starts_with("checkpoint: "), "{err}");
}

#[test]
fn bad_variant_parameters_are_refused_naming_the_parameter() {
    let params = |pairs: &[(&str, u64)]| -> Params {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    };
    let sums = base(Kind::RestoredSums);
    let cases: [(Kind, &Scenario, Params, &str); 5] = [
        (
            Kind::RestoredSums,
            &sums,
            params(&[("interval_ms", 500)]),
            "crash_ms: missing",
        ),
        (
            Kind::RestoredSums,
            &sums,
            params(&[("interval_ms", 500), ("crash_ms", 5_000)]),
            "crash_ms: 5000 is outside 600..=1150",
        ),
        (
            Kind::RestoredSums,
            &sums,
            params(&[("interval_ms", 500), ("crash_ms", 700), ("seed", 1)]),
            "seed: not a parameter",
        ),
        // chk-1 of a 650 ms interval completes after a crash at 600 ms.
        (
            Kind::RestoredSums,
            &sums,
            params(&[("interval_ms", 650), ("crash_ms", 600)]),
            "crash_ms: the crash at 600 ms falls before chk-1 completes",
        ),
        (
            Kind::StoredOffset,
            &sums,
            params(&[("seed", 1)]),
            "lesson: stored_offset exercises are drawn from pv-count, not odd-even-sum",
        ),
    ];
    for (kind, base, p, message) in cases {
        let err = drill::build(kind, base, &p).unwrap_err().to_string();
        assert!(err.starts_with(message), "{p:?}: {err}");
    }
    assert!(matches!(
        drill::build(
            Kind::RestoredSums,
            &sums,
            &params(&[("interval_ms", 650), ("crash_ms", 600)])
        ),
        Err(DrillError::NoEffect {
            param: "crash_ms",
            ..
        })
    ));
}
