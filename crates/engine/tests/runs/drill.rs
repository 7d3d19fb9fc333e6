//! The interview drill's exercises over many variants: each answer the engine gives
//! is held against a fact found another way (the offsets and keys the source
//! emitted, the sums recomputed from the input, the failure-free run's output, the
//! fixed-delay strategy's formula, Flink's TTL expiry rule applied to the source's
//! records, the subtasks that snapshot and the rules due before the trigger), and
//! every variant drawn still shows what the exercise asks about (a restore from
//! chk-1 or later, duplicates, a failed job, a repeat the TTL decides, copies that
//! hold a rule).

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

/// The reason the exercise gives for `blank`'s answer.
fn reason(ex: &Exercise, blank: &str) -> drill::Why {
    ex.blanks
        .iter()
        .find(|b| b.name == blank)
        .and_then(|b| b.why.clone())
        .unwrap_or_else(|| panic!("{blank}: no reason"))
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
        let counted = |app: &str| emitted.iter().filter(|(_, k)| k == app).count() as i64;
        assert_eq!(number(&ex, "app1"), counted("app1"), "variant {v}: app1");
        assert_eq!(
            ex.question["app2"] as i64,
            counted("app2"),
            "variant {v}: app2 as the question states it"
        );
        // Solvable from the question: the records due (every_ms apart, the first
        // at every_ms) before the trigger, and app1 is the rest of the offset.
        let trigger = meta["trigger_ms"].as_u64().unwrap();
        let every = ex.question["every_ms"];
        assert_eq!(every, 50, "variant {v}: the lesson's rate");
        assert_eq!(
            ex.question["interval_ms"], ex.params["interval_ms"],
            "variant {v}"
        );
        assert_eq!(
            offset,
            ((trigger - 1) / every) as i64,
            "variant {v}: records due before {trigger} ms"
        );
        assert_eq!(number(&ex, "app1") + ex.question["app2"] as i64, offset);
        assert!(
            offset > 0 && offset < 60,
            "variant {v}: chk-{n} falls while reading"
        );
        let why = reason(&ex, "offset");
        assert_eq!(
            why.at_ms, trigger,
            "variant {v}: the barrier leaves at the trigger"
        );
        assert_eq!(why.args["offset"], offset.to_string());
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
        // Solvable from the question: one number every every_ms, the first at
        // every_ms, read up to chk-N's trigger.
        let trigger = c["trigger_ms"].as_u64().unwrap();
        let every = ex.question["every_ms"];
        assert_eq!(every, 100, "variant {v}: the lesson's rate");
        assert_eq!(offset as u64, (trigger - 1) / every, "variant {v}");
        let why = reason(&ex, "even_sum");
        assert_eq!(why.args["offset"], offset.to_string(), "variant {v}");
        assert_eq!(
            why.args["completed_ms"],
            c["end_ms"].to_string(),
            "variant {v}"
        );
        assert!(
            why.at_ms > crash,
            "variant {v}: the restore follows the crash"
        );
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

/// Flink's rule for a de-duplication on a `MapState` with TTL (`OnCreateAndWrite`,
/// `NeverReturnExpired`): `contains` finds the entry only while `write + ttl > now`
/// (`TtlUtils.expired`), and only a pass writes — a dropped repeat does not refresh
/// the entry. Returns the arrivals that pass.
fn ttl_rule(arrivals: &[u64], ttl: u64) -> BTreeSet<i64> {
    let mut written: Option<u64> = None;
    let mut through = BTreeSet::new();
    for &t in arrivals {
        if written.is_none_or(|w| w + ttl <= t) {
            written = Some(t);
            through.insert(t as i64);
        }
    }
    through
}

#[test]
fn ttl_passes_follow_the_expiry_rule_on_the_source_records() {
    let range = |name: &str| {
        let r = Kind::TtlPasses
            .ranges()
            .iter()
            .find(|r| r.name == name)
            .unwrap();
        (r.min, r.max)
    };
    let (ttl_min, ttl_max) = range("ttl_ms");
    let (mut passed_again, mut dropped, mut three) = (0, 0, 0);
    let mut answers = BTreeSet::new();
    for v in 0..VARIANTS {
        let ex = exercise(Kind::TtlPasses, v);
        let ttl = ex.params["ttl_ms"];
        let (key, value, crash) = (
            format!("app{}", ex.question["app"]),
            ex.question["value"] as i64,
            ex.question["crash_ms"],
        );
        let dedup = ex.scenario.job.operators.iter().find(|o| o.uid == "dedup");
        assert_eq!(
            dedup.and_then(|o| o.ttl).map(|t| t.ttl_ms),
            Some(ttl),
            "variant {v}: dedup's TTL"
        );
        let (trace, _) = trace_of(&ex);
        let latency = |from: &str, to: &str| {
            ex.scenario
                .job
                .edges
                .iter()
                .find(|e| e.from == from && e.to == to)
                .unwrap()
                .latency_ms
        };
        let (into, out) = (latency("kafka", "dedup"), latency("dedup", "unique"));
        // Independent: the source's records of that key and value, read before the
        // crash, reach dedup one edge latency later; the rule, not the state code,
        // decides which pass.
        let arrivals: Vec<u64> = trace
            .iter()
            .take_while(|e| e.t < crash)
            .filter_map(|e| match &e.event {
                Event::RecordEmitted {
                    key: Some(k),
                    value: x,
                    ..
                } if **k == *key && *x == value => Some(e.t + into),
                _ => None,
            })
            .filter(|t| t + out < crash)
            .collect();
        assert_eq!(
            ex.blanks[0].choices,
            arrivals.iter().map(|t| *t as i64).collect::<Vec<_>>(),
            "variant {v}: {key} {value} arrives"
        );
        let passes = set(&ex, "passes");
        assert_eq!(passes, ttl_rule(&arrivals, ttl), "variant {v}: ttl {ttl}");
        // The effect: the TTL decides — the shortest and the longest TTL drawn give
        // different answers, so neither "only the first" nor "every time" is right
        // regardless of the TTL.
        assert_ne!(
            ttl_rule(&arrivals, ttl_min),
            ttl_rule(&arrivals, ttl_max),
            "variant {v}: {arrivals:?}"
        );
        assert_eq!(ex.moment_ms, *arrivals.last().unwrap(), "variant {v}");
        if passes.contains(&(arrivals[1] as i64)) {
            passed_again += 1;
        } else {
            dropped += 1;
        }
        if arrivals.len() >= 3 {
            three += 1;
        }
        answers.insert((ex.question["app"], value, passes));
    }
    assert!(
        passed_again >= 40 && dropped >= 40,
        "both sides of the TTL: {passed_again} passed again, {dropped} dropped"
    );
    assert!(three > 0, "some value arrives three times");
    assert!(answers.len() >= 100, "variants differ: {}", answers.len());
}

#[test]
fn broadcast_copies_are_one_per_subtask_each_with_the_rules_read_before_the_barrier() {
    let mut answers = BTreeSet::new();
    let mut after_restore = 0;
    for v in 0..VARIANTS {
        let ex = exercise(Kind::BroadcastCopies, v);
        let n = ex.question["checkpoint"];
        let (trace, summary) = trace_of(&ex);
        let gate = ex
            .scenario
            .job
            .operators
            .iter()
            .find(|o| o.uid == "gate")
            .unwrap();
        assert_eq!(u64::from(gate.parallelism), ex.params["parallelism"]);
        // Independent: the gate subtasks that took a snapshot for chk-n.
        let snapshotted: BTreeSet<String> = trace
            .iter()
            .filter_map(|e| match &e.event {
                Event::SnapshotTaken {
                    task, checkpoint, ..
                } if checkpoint.0 == n && task.starts_with("gate#") => Some(task.to_string()),
                _ => None,
            })
            .collect();
        let copies = number(&ex, "copies");
        assert_eq!(copies, i64::from(gate.parallelism), "variant {v}: chk-{n}");
        assert_eq!(copies, snapshotted.len() as i64, "variant {v}: chk-{n}");
        // Independent: the rules due before chk-n was triggered (from the lesson's
        // input), and the rules source's offset that chk-n stores.
        let c = summary["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == n)
            .unwrap();
        let trigger = c["trigger_ms"].as_u64().unwrap();
        // The lesson's rules: min at 2000 ms, max at 5000 ms.
        let due = [2_000u64, 5_000].iter().filter(|t| **t < trigger).count() as i64;
        let rules = number(&ex, "rules");
        assert_eq!(rules, due, "variant {v}: chk-{n} at {trigger} ms");
        // Once the rules source has read both rules it finishes, and a checkpoint
        // after that stores it as fully finished, without offsets.
        if c["metadata"]["rules"]["fully_finished"] == true {
            assert_eq!(rules, 2, "variant {v}: chk-{n}");
        } else {
            assert_eq!(c["metadata"]["rules"]["offsets"]["0"], rules, "variant {v}");
        }
        assert!(rules >= 1, "variant {v}: chk-{n} holds a rule");
        let gates = c["metadata"]["gate"]["operator"].as_array().unwrap();
        assert_eq!(
            gates.len() as i64,
            copies,
            "variant {v}: copies in _metadata"
        );
        if trigger > ex.question["crash_ms"] {
            after_restore += 1;
        }
        answers.insert((copies, rules));
    }
    assert!(answers.len() >= 8, "variants differ: {answers:?}");
    assert!(after_restore > 0, "some checkpoints follow the restore");
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

    // The state chapter's: the times a value passes, as a set; the copies typed.
    for v in 0..20 {
        let t = exercise(Kind::TtlPasses, v);
        let Answer::Set(right) = t.blanks[0].answer.clone() else {
            panic!("a set")
        };
        assert!(drill::check(&t, &[Answer::Set(right.clone())]).unwrap()[0].right);
        // Wrong: the last arrival's fate turned around.
        let last = *t.blanks[0].choices.last().unwrap();
        let mut turned = right.clone();
        if !turned.remove(&last) {
            turned.insert(last);
        }
        let marked = drill::check(&t, &[Answer::Set(turned)]).unwrap();
        assert!(!marked[0].right, "variant {v}");
        assert!(marked[0].to_string().starts_with("passes: you said"));

        let b = exercise(Kind::BroadcastCopies, v);
        let right: Vec<Answer> = b.blanks.iter().map(|b| b.answer.clone()).collect();
        assert!(drill::check(&b, &right).unwrap().iter().all(|m| m.right));
        // One copy for the whole job: the answer of a learner who thinks the
        // broadcast state is stored once.
        let once = [Answer::Number(1), right[1].clone()];
        let marked = drill::check(&b, &once).unwrap();
        assert_eq!(
            marked.iter().map(|m| m.right).collect::<Vec<_>>(),
            [false, true]
        );
    }
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
    let state = base(Kind::TtlPasses);
    let rules = base(Kind::BroadcastCopies);
    let state_cases: [(Kind, &Scenario, Params, &str); 6] = [
        (
            Kind::TtlPasses,
            &state,
            params(&[("seed", 3), ("ttl_ms", 100)]),
            "ttl_ms: 100 is outside 200..=1400",
        ),
        (
            Kind::TtlPasses,
            &state,
            params(&[("ttl_ms", 800)]),
            "seed: missing",
        ),
        // Seed 18 repeats one value before the crash, 120 ms apart: every TTL in
        // the range drops it, so the TTL would decide nothing.
        (
            Kind::TtlPasses,
            &state,
            params(&[("seed", 18), ("ttl_ms", 800)]),
            "seed: no value of one key reaches dedup twice before the crash at 1700 ms",
        ),
        (
            Kind::BroadcastCopies,
            &rules,
            params(&[("interval_ms", 1_000), ("checkpoint", 3)]),
            "parallelism: missing",
        ),
        // chk-2 of a 700 ms interval is triggered at 1400 ms, before the min rule.
        (
            Kind::BroadcastCopies,
            &rules,
            params(&[("parallelism", 3), ("interval_ms", 700), ("checkpoint", 2)]),
            "checkpoint: chk-2 is triggered at 1400 ms, before the first rule",
        ),
        // chk-2 of a 1000 ms interval is triggered as the min rule is read: a race.
        (
            Kind::BroadcastCopies,
            &rules,
            params(&[
                ("parallelism", 3),
                ("interval_ms", 1_000),
                ("checkpoint", 2),
            ]),
            "interval_ms: chk-2 is triggered at 2000 ms, the very millisecond a rule is read",
        ),
    ];
    for (kind, base, p, message) in cases.into_iter().chain(state_cases) {
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
