//! The World's rules, one test per rule, each naming the Flink class or test it
//! mirrors (docs/flink-semantics.md §1 coordinator, §2.6, §3, §4.1, §5.1; the contract in
//! docs/scenario-format.md). Small hand-written scenarios, run through
//! `engine::runner` / `World`; where a rule lives wholly inside the coordinator's
//! bookkeeping and no scenario can reach it, the coordinator or sink is driven
//! directly, as Flink's own unit tests do.

use crate::common;

use engine::coordinator::{
    AbortCause, CheckpointCoordinator, CoordinatorConfig, Decision, TriggerOrigin,
};
use engine::event::SnapshotKind;
use engine::ids::{CheckpointId, TaskId};
use engine::runner::{self, ModeOverride, RunOptions};
use engine::{Scenario, World};
use serde_json::{json, Value};

// ----- helpers ------------------------------------------------------------------------

fn scenario(doc: &Value) -> Scenario {
    Scenario::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("invalid scenario: {e}\n{doc}"))
}

/// A run: every trace event and the summary, as the JSON `lab` prints.
struct Run {
    events: Vec<Value>,
    summary: Value,
}

impl Run {
    fn of(doc: &Value) -> Run {
        Run::with(doc, RunOptions::default())
    }

    fn with(doc: &Value, opts: RunOptions) -> Run {
        Run::scenario(&scenario(doc), opts)
    }

    fn scenario(s: &Scenario, opts: RunOptions) -> Run {
        let opts = RunOptions {
            trace: true,
            ..opts
        };
        let mut lines = runner::run_lines(s, &opts).expect("valid scenario");
        let summary = serde_json::from_str(&lines.pop().expect("summary")).expect("json");
        let events = lines
            .iter()
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect();
        Run { events, summary }
    }

    fn of_type<'a>(&'a self, ty: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
        self.events.iter().filter(move |e| e["type"] == ty)
    }

    fn checkpoints(&self) -> &Vec<Value> {
        self.summary["checkpoints"].as_array().expect("checkpoints")
    }

    fn checkpoint(&self, id: u64) -> &Value {
        self.checkpoints()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("no checkpoint {id}: {}", self.summary))
    }

    fn triggers(&self) -> Vec<u64> {
        self.checkpoints()
            .iter()
            .map(|c| c["trigger_ms"].as_u64().unwrap())
            .collect()
    }

    fn failures(&self) -> &Vec<Value> {
        self.summary["failures"].as_array().expect("failures")
    }

    fn committed(&self, sink: &str) -> Vec<(String, i64)> {
        common::committed(&self.summary, sink)
    }

    fn uncommitted(&self, sink: &str) -> Vec<(String, i64)> {
        self.summary["sinks"][sink]["uncommitted"]
            .as_array()
            .expect("sink")
            .iter()
            .map(|r| {
                (
                    r["key"].as_str().unwrap_or("").to_string(),
                    r["value"].as_i64().unwrap(),
                )
            })
            .collect()
    }

    /// Time of the first event of `ty` matching `f`.
    fn time_of(&self, ty: &str, f: impl Fn(&Value) -> bool) -> Option<u64> {
        self.of_type(ty)
            .find(|e| f(e))
            .map(|e| e["t"].as_u64().unwrap())
    }
}

/// numbers (one partition: 1, 2, 3, … one every `every_ms`) → parity (`parity_key`)
/// → sum (`keyed_sum` by "odd"/"even") → out (`two_phase_commit`); every edge 1 ms.
fn odd_even(
    count: u64,
    every_ms: u64,
    checkpointing: Value,
    restart: Value,
    script: Value,
) -> Value {
    json!({
        "version": 1, "name": "rules", "seed": 1,
        "job": {
            "operators": [
                {"uid": "numbers", "kind": "source",
                 "partitions": [{"generate": {"count": count, "every_ms": every_ms, "values": "sequence"}}]},
                {"uid": "parity", "kind": "map", "fn": "parity_key"},
                {"uid": "sum", "kind": "keyed_sum"},
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit"}
            ],
            "edges": [
                {"from": "numbers", "to": "parity", "partitioning": "forward", "latency_ms": 1},
                {"from": "parity", "to": "sum", "partitioning": "hash", "latency_ms": 1},
                {"from": "sum", "to": "out", "partitioning": "forward", "latency_ms": 1}
            ]
        },
        "checkpointing": checkpointing,
        "restart": restart,
        "script": script
    })
}

fn ids(v: &[Value]) -> Vec<u64> {
    v.iter().map(|c| c["id"].as_u64().unwrap()).collect()
}

// ----- §1.3 periodic triggering ----------------------------------------------------------

/// Mirrors Flink's `CheckpointCoordinator.ScheduledTrigger` (fixed rate): with the
/// first trigger fixed at one interval, checkpoints at interval, 2×interval, … from
/// the job's start; after a failover the lab starts the schedule again one interval
/// after the restart (a simplification: Flink 2.3's
/// `ExecutionTrackingCheckpointCoordinatorDeActivator` does not start it again,
/// and measured, the next trigger came one interval after the restart with min
/// pause 0 but the min pause after it otherwise, docs/flink-semantics.md §1.3).
#[test]
fn periodic_trigger_every_interval_from_start_and_from_the_restart() {
    let doc = odd_even(
        200,
        10,
        json!({"interval_ms": 200, "first_trigger_ms": 200}),
        json!({"strategy": "fixed_delay", "attempts": 1, "delay_ms": 150}),
        json!([{"at_ms": 500, "action": "crash", "task": "sum#0"}]),
    );
    let mut doc = doc;
    doc["until_ms"] = json!(1300);
    let run = Run::of(&doc);
    assert_eq!(run.failures()[0]["restarted_ms"], 650);
    // 200, 400 before the crash; the one due at 600 died with the old attempt;
    // after the restart at 650: 850, 1050, 1250.
    assert_eq!(run.triggers(), vec![200, 400, 850, 1050, 1250]);
}

/// Mirrors Flink 2.3's first start of the checkpoint scheduler
/// (`ExecutionTrackingCheckpointCoordinatorDeActivator`, `startCheckpointScheduler`:
/// the random initial delay is spent by a start that is stopped before it fires, and
/// the start that lasts waits the min pause): over seeded intervals, min pauses and
/// `first_trigger_ms`, the first checkpoint is triggered at `first_trigger_ms` (by
/// default the min pause), never before the min pause (an earlier trigger is dropped
/// and rescheduled to it, as after any completion), and the fixed rate follows.
#[test]
fn the_first_periodic_trigger_comes_the_min_pause_after_the_start() {
    use rand::{Rng, SeedableRng};
    let (mut defaulted, mut fixed, mut raised) = (0, 0, 0);
    for seed in 0..48u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let interval = rng.random_range(10..=1000u64);
        let min_pause = if rng.random_bool(0.3) {
            0
        } else {
            rng.random_range(0..=1000u64)
        };
        let first = rng.random_bool(0.5).then(|| rng.random_range(0..=1500u64));
        let mut cfg = json!({"interval_ms": interval, "min_pause_ms": min_pause});
        if let Some(f) = first {
            cfg["first_trigger_ms"] = json!(f);
        }
        let mut doc = odd_even(400, 10, cfg, json!({"strategy": "none"}), json!([]));
        doc["until_ms"] = json!(3500);
        let run = Run::of(&doc);
        let expected = first.unwrap_or(min_pause).max(min_pause);
        match first {
            None => defaulted += 1,
            Some(f) if f < min_pause => raised += 1,
            Some(_) => fixed += 1,
        }
        let cps = run.checkpoints();
        let what =
            format!("seed {seed}: interval {interval}, min pause {min_pause}, first {first:?}");
        assert_eq!(cps[0]["trigger_ms"], expected, "{what}: {}", run.summary);
        if let Some(second) = cps.get(1) {
            let end0 = cps[0]["end_ms"].as_u64().expect("the first completed");
            assert_eq!(
                second["trigger_ms"].as_u64().unwrap(),
                (expected + interval.max(min_pause)).max(end0 + min_pause),
                "{what}: fixed rate from the first trigger, or completion + min pause"
            );
        }
    }
    assert!(defaulted > 0, "no case left first_trigger_ms out");
    assert!(
        fixed > 0,
        "no case fixed first_trigger_ms at or above the min pause"
    );
    assert!(
        raised > 0,
        "no case fixed first_trigger_ms below the min pause"
    );
}

/// `first_trigger_ms` without a periodic interval is refused, naming the field.
#[test]
fn first_trigger_without_an_interval_is_refused() {
    let doc = odd_even(
        10,
        10,
        json!({"interval_ms": null, "first_trigger_ms": 100}),
        json!({"strategy": "none"}),
        json!([]),
    );
    let err = Scenario::from_json(&doc.to_string())
        .expect_err("no interval")
        .to_string();
    assert!(
        err.contains("checkpointing.first_trigger_ms") && err.contains("interval_ms is null"),
        "{err}"
    );
}

/// Mirrors Flink's `CheckpointRequestDeciderTest` / `CheckpointCoordinatorTest#testMinCheckpointPause`:
/// a periodic request due before `last completion + min pause` is dropped (not
/// counted) and the periodic trigger is rescheduled to `last completion + min pause`;
/// the fixed rate continues from there.
#[test]
fn min_pause_drops_an_early_periodic_trigger_and_reschedules_it() {
    let doc = odd_even(
        100,
        10,
        json!({"interval_ms": 100, "min_pause_ms": 80, "async_ms": 50}),
        json!({"strategy": "none"}),
        json!([]),
    );
    let mut doc = doc;
    doc["until_ms"] = json!(900);
    let run = Run::of(&doc);
    let cps = run.checkpoints();
    assert!(cps.len() >= 4, "{}", run.summary);
    assert!(
        run.of_type("checkpoint_skipped").count() >= 2,
        "no periodic trigger was skipped"
    );
    for w in cps.windows(2) {
        if w[0]["status"] != "completed" {
            continue;
        }
        let (t0, end0, t1) = (
            w[0]["trigger_ms"].as_u64().unwrap(),
            w[0]["end_ms"].as_u64().unwrap(),
            w[1]["trigger_ms"].as_u64().unwrap(),
        );
        assert!(
            t1 >= end0 + 80,
            "checkpoint {} started {t1}, before {end0} + min pause",
            w[1]["id"]
        );
        assert_eq!(
            t1,
            (t0 + 100).max(end0 + 80),
            "fixed rate, or rescheduled to completion + min pause"
        );
    }
    assert!(
        run.summary["warnings"].as_array().unwrap().is_empty(),
        "80 < 100: the interval is not raised"
    );
}

/// Mirrors Flink's `CheckpointRequestDeciderTest#testCheckpointTiming` /
/// `#testSavepointTiming`: manual checkpoints and savepoints ignore the min pause.
#[test]
fn manual_triggers_and_savepoints_ignore_min_pause() {
    let run = Run::of(&odd_even(
        100,
        10,
        json!({"interval_ms": null, "min_pause_ms": 100000, "async_ms": 20}),
        json!({"strategy": "none"}),
        json!([
            {"at_ms": 100, "action": "trigger_checkpoint"},
            {"at_ms": 150, "action": "trigger_checkpoint"},
            {"at_ms": 200, "action": "savepoint"}
        ]),
    ));
    assert_eq!(run.triggers()[..3], [100, 150, 200]);
    assert!(
        run.checkpoints().iter().all(|c| c["status"] == "completed"),
        "{}",
        run.summary
    );
    assert_eq!(run.of_type("checkpoint_skipped").count(), 0);
}

/// Mirrors Flink's `CheckpointCoordinator` constructor: a min pause above the
/// interval raises the effective interval (and the lab warns).
#[test]
fn min_pause_above_the_interval_raises_the_interval() {
    let mut doc = odd_even(
        100,
        10,
        json!({"interval_ms": 100, "min_pause_ms": 250}),
        json!({"strategy": "none"}),
        json!([]),
    );
    doc["until_ms"] = json!(800);
    let run = Run::of(&doc);
    assert_eq!(
        run.summary["warnings"].as_array().unwrap().len(),
        1,
        "{}",
        run.summary
    );
    // The effective interval is 250; and since the min pause counts from each
    // completion (3 ms after its trigger here), every next periodic trigger is
    // dropped and rescheduled to completion + 250.
    let cps = run.checkpoints();
    assert_eq!(cps[0]["trigger_ms"], 250);
    assert!(cps.len() >= 3);
    for w in cps.windows(2) {
        assert_eq!(
            w[1]["trigger_ms"].as_u64().unwrap(),
            w[0]["end_ms"].as_u64().unwrap() + 250,
            "{}",
            run.summary
        );
    }
}

/// Mirrors Flink's `CheckpointCoordinatorTest#testMaxConcurrentAttempts`: at most
/// `max_concurrent` pending checkpoints; a periodic request beyond that is queued,
/// not dropped, and starts as soon as a pending one completes.
#[test]
fn max_concurrent_queues_requests_until_one_completes() {
    for max in [1u64, 2] {
        let mut doc = odd_even(
            100,
            10,
            json!({"interval_ms": 100, "first_trigger_ms": 100, "max_concurrent": max, "async_ms": 250}),
            json!({"strategy": "none"}),
            json!([]),
        );
        doc["until_ms"] = json!(1200);
        let run = Run::of(&doc);
        // Never more than `max` pending.
        let mut pending = 0i64;
        for e in &run.events {
            match e["type"].as_str().unwrap() {
                "checkpoint_triggered" => pending += 1,
                "checkpoint_completed" | "checkpoint_aborted" => pending -= 1,
                _ => {}
            }
            assert!(
                pending <= max as i64,
                "max {max}: {pending} pending at {}",
                e["t"]
            );
        }
        let cps = run.checkpoints();
        assert!(
            cps.iter().all(|c| c["status"] != "aborted"),
            "max {max}: {}",
            run.summary
        );
        let first_queued = max as usize; // 0-based index of the first request that had to wait
        assert_eq!(
            cps[first_queued]["trigger_ms"], cps[0]["end_ms"],
            "max {max}: the queued request starts when checkpoint 1 completes"
        );
        if max == 2 {
            assert_eq!(run.triggers()[..2], [100, 200]);
        }
    }
}

// ----- §1.5 expiry, §1.6 failure manager -------------------------------------------------

/// Mirrors Flink's `CheckpointCoordinator.CheckpointCanceller`
/// (`CheckpointCoordinatorTest#testExpiredCheckpointExceedsTolerableFailureNumber`'s
/// first half): a checkpoint not fully acknowledged within `timeout_ms` is aborted
/// `expired`, and nothing is committed for it.
#[test]
fn timeout_aborts_a_checkpoint_as_expired() {
    let mut doc = odd_even(
        100,
        10,
        json!({"interval_ms": 100, "first_trigger_ms": 100, "timeout_ms": 20, "async_ms": 50, "tolerable_failures": 100}),
        json!({"strategy": "none"}),
        json!([]),
    );
    doc["until_ms"] = json!(650);
    let run = Run::of(&doc);
    assert_eq!(run.checkpoints().len(), 6);
    for c in run.checkpoints() {
        assert_eq!(c["status"], "aborted");
        assert_eq!(c["reason"], "expired");
        assert_eq!(
            c["end_ms"].as_u64().unwrap(),
            c["trigger_ms"].as_u64().unwrap() + 20,
            "{c}"
        );
    }
    assert_eq!(
        run.of_type("checkpoint_aborted")
            .filter(|e| e["reason"] == "expired")
            .count(),
        6
    );
    assert_eq!(run.of_type("transaction_committed").count(), 0);
    assert!(run.committed("out").is_empty());
    assert_eq!(run.summary["job_status"], "running");
}

/// Mirrors Flink's `CheckpointFailureManagerTest#testContinuousFailure` and
/// `CheckpointCoordinatorTest#testExpiredCheckpointExceedsTolerableFailureNumber`:
/// counted failures beyond `tolerable_failures` fail the job over (a job-level
/// failure, no task) with "Exceeded checkpoint tolerable failure threshold", under
/// the restart strategy: here one restart is allowed, so the second time the job fails.
#[test]
fn exceeding_tolerable_failures_fails_over_under_the_restart_strategy() {
    let mut doc = odd_even(
        200,
        10,
        json!({"interval_ms": 100, "timeout_ms": 20, "async_ms": 50, "tolerable_failures": 2}),
        json!({"strategy": "fixed_delay", "attempts": 1, "delay_ms": 50}),
        json!([]),
    );
    doc["until_ms"] = json!(2000);
    let run = Run::of(&doc);
    let f = run.failures();
    assert_eq!(f.len(), 2, "{}", run.summary);
    let cps = run.checkpoints();
    // Failures 1 and 2 are tolerated, the 3rd fails the job over at its abort.
    assert_eq!(f[0]["at_ms"], cps[2]["end_ms"]);
    assert!(f[0]["task"].is_null(), "a job-level failure: {}", f[0]);
    assert!(
        f[0]["reason"]
            .as_str()
            .unwrap()
            .starts_with("Exceeded checkpoint tolerable failure threshold"),
        "{}",
        f[0]
    );
    assert!(f[0]["reason"].as_str().unwrap().contains("expired"));
    assert!(f[0]["restored_from"].is_null(), "nothing ever completed");
    // After the restart the counter starts again from 0: three more expiries.
    let after: Vec<&Value> = cps
        .iter()
        .filter(|c| c["trigger_ms"].as_u64() >= f[0]["restarted_ms"].as_u64())
        .collect();
    assert_eq!(f[1]["at_ms"], after[2]["end_ms"]);
    assert_eq!(run.summary["job_status"], "failed");
    let reason = run.summary["failure_reason"].as_str().unwrap();
    assert!(
        reason.starts_with("Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=1, backoffTimeMS=50)"),
        "{reason}"
    );
    assert!(run.of_type("job_failed").count() == 1);
}

/// A coordinator configured as a scenario would configure it (interval 100, all
/// other fields at their defaults), with these three settings.
fn coordinator(tolerable: u32, max_concurrent: u32, unaligned: bool) -> CheckpointCoordinator {
    let doc = odd_even(
        1,
        10,
        json!({"interval_ms": 100, "tolerable_failures": tolerable, "max_concurrent": max_concurrent, "unaligned": unaligned}),
        json!({"strategy": "none"}),
        json!([]),
    );
    let config: CoordinatorConfig = World::new(&scenario(&doc), 0)
        .unwrap()
        .coordinator()
        .config()
        .clone();
    assert_eq!(
        (
            config.tolerable_failures,
            config.max_concurrent,
            config.unaligned
        ),
        (tolerable, max_concurrent, unaligned)
    );
    CheckpointCoordinator::new(config)
}

/// Offer a request and start it (it must be allowed to start now).
fn start(c: &mut CheckpointCoordinator, kind: SnapshotKind, now: u64) -> CheckpointId {
    c.offer(kind, TriggerOrigin::Manual);
    match c.decide(now) {
        Decision::Start(req) => c.start(&req, now, [TaskId(0)]),
        other => panic!("could not start {kind:?}: {other:?}"),
    }
}

/// Mirrors Flink's `CheckpointFailureManagerTest`: only expiry and declines
/// (`CHECKPOINT_EXPIRED`, `CHECKPOINT_ASYNC_EXCEPTION`/`DECLINED`) are counted —
/// subsumed, cancellation barrier, end of stream, failover are not
/// (`testIgnoreOneCheckpointRepeatedlyCountMultiTimes`, `testTotalCountValue`); each id
/// at most once; only ids newer than the last success (`testIgnoresPastCheckpoints`);
/// a success resets the counter; exceeding resets it too.
#[test]
fn failure_manager_counts_only_counted_reasons_of_newer_ids_once() {
    let mut c = coordinator(2, 100, false);
    let ids: Vec<CheckpointId> = (0..10)
        .map(|i| start(&mut c, SnapshotKind::Checkpoint, i))
        .collect();
    for (id, cause) in [
        (ids[0], AbortCause::Subsumed),
        (ids[1], AbortCause::CancellationBarrier),
        (ids[2], AbortCause::EndOfStream),
        (ids[3], AbortCause::JobFailover),
    ] {
        assert_eq!(c.abort(id, &cause, 10), Some(false));
        assert_eq!(c.failure_counter(), 0, "{cause:?} is not counted");
    }
    assert_eq!(c.abort(ids[4], &AbortCause::Expired, 10), Some(false));
    assert_eq!(c.failure_counter(), 1);
    assert_eq!(
        c.abort(ids[4], &AbortCause::Expired, 11),
        None,
        "an id is aborted (and counted) once"
    );
    assert_eq!(c.failure_counter(), 1);
    // A success resets the counter; an older id failing afterwards is not counted.
    c.complete(ids[6], 12).expect("pending");
    assert_eq!(c.failure_counter(), 0);
    assert_eq!(
        c.abort(ids[5], &AbortCause::DeclinedAsync("too big".into()), 13),
        Some(false)
    );
    assert_eq!(c.failure_counter(), 0, "id older than the last success");
    // Newer ones count: 1, 2 tolerated, the 3rd exceeds and resets.
    assert_eq!(c.abort(ids[7], &AbortCause::Expired, 14), Some(false));
    assert_eq!(
        c.abort(ids[8], &AbortCause::DeclinedAsync("x".into()), 15),
        Some(false)
    );
    assert_eq!(c.failure_counter(), 2);
    assert_eq!(
        c.abort(ids[9], &AbortCause::Expired, 16),
        Some(true),
        "3 > 2 tolerable: fail over"
    );
    assert_eq!(c.failure_counter(), 0);
}

/// Mirrors Flink's `CheckpointFailureManager.handleJobLevelCheckpointException`
/// (savepoints ignored) and `handleTaskLevelCheckpointException`: a savepoint's
/// expiry does not count, its decline does; a stop-with-savepoint's decline fails the job at once.
#[test]
fn failure_manager_savepoints() {
    let mut c = coordinator(0, 100, false);
    let sp = start(&mut c, SnapshotKind::Savepoint, 0);
    assert_eq!(c.abort(sp, &AbortCause::Expired, 1), Some(false));
    assert_eq!(c.failure_counter(), 0);
    let sp = start(&mut c, SnapshotKind::Savepoint, 2);
    assert_eq!(
        c.abort(sp, &AbortCause::DeclinedAsync("x".into()), 3),
        Some(true),
        "tolerable 0: the decline counts"
    );
    let mut c = coordinator(10, 100, false);
    let stop = start(&mut c, SnapshotKind::StopWithSavepoint, 0);
    assert_eq!(
        c.abort(stop, &AbortCause::DeclinedAsync("x".into()), 1),
        Some(true)
    );
}

// ----- §1.4 completion, subsumption, the store --------------------------------------------

/// Mirrors Flink's `CheckpointCoordinatorTest#testSuccessfulCheckpointSubsumesUnsuccessful`
/// and `#testSavepointsAreNotSubsumed`: a completed checkpoint aborts every older
/// pending checkpoint (`subsumed`), never a pending savepoint; an intermediate
/// savepoint's completion subsumes nothing.
#[test]
fn completed_checkpoint_subsumes_older_pending_checkpoints_not_savepoints() {
    let mut c = coordinator(0, 100, false);
    let c1 = start(&mut c, SnapshotKind::Checkpoint, 0);
    let s2 = start(&mut c, SnapshotKind::Savepoint, 1);
    let c3 = start(&mut c, SnapshotKind::Checkpoint, 2);
    let c4 = start(&mut c, SnapshotKind::Checkpoint, 3);
    let s5 = start(&mut c, SnapshotKind::Savepoint, 4);
    let (_, subsumed) = c.complete(s5, 5).expect("pending");
    assert!(
        subsumed.is_empty(),
        "an intermediate savepoint subsumes nothing"
    );
    let (done, subsumed) = c.complete(c3, 6).expect("pending");
    assert_eq!(done.id, c3);
    assert_eq!(
        subsumed,
        vec![c1],
        "older checkpoints only; savepoint {s2:?} and newer {c4:?} stay"
    );
    assert_eq!(c.store().iter().map(|x| x.id).collect::<Vec<_>>(), vec![c3]);
    assert_eq!(
        c.savepoints().iter().map(|x| x.id).collect::<Vec<_>>(),
        vec![s5],
        "savepoints never enter the store"
    );
    // The World carries the subsumption out (not counted).
    assert_eq!(c.abort(c1, &AbortCause::Subsumed, 6), Some(false));
    assert_eq!(c.failure_counter(), 0);
    // A stop-with-savepoint (synchronous) does subsume older pending checkpoints,
    // but does not enter the store either.
    let stop = start(&mut c, SnapshotKind::StopWithSavepoint, 7);
    let (_, subsumed) = c.complete(stop, 8).expect("pending");
    assert_eq!(subsumed, vec![c4]);
    assert_eq!(c.store().iter().map(|x| x.id).collect::<Vec<_>>(), vec![c3]);
}

/// Mirrors Flink's `CheckpointCoordinatorTest#testSuccessfulCheckpointSubsumesUnsuccessful`
/// through the World, with `CheckpointBarrierTrackerTest#testTriggerCheckpointsWithEndOfPartition`:
/// at-least-once, `merge` has seen the barriers of 1 and 2 on its numbers channel
/// when the end of partition of the (early finished) letters channel arrives; the
/// tracker completes the newest, 2, and drops 1 silently; so checkpoint 2
/// completes first and the coordinator aborts the older pending 1 as `subsumed`.
#[test]
fn a_completed_checkpoint_subsumes_an_older_pending_one_in_the_world() {
    let run = Run::of(&json!({
        "version": 1, "name": "subsume",
        "job": {
            "operators": [
                {"uid": "numbers", "kind": "source",
                 "partitions": [{"generate": {"count": 80, "every_ms": 10, "values": "sequence"}}]},
                {"uid": "letters", "kind": "source",
                 "partitions": [{"records": [{"at_ms": 50, "value": 97, "key": "a"}, {"at_ms": 60, "value": 98, "key": "b"}]}]},
                {"uid": "merge", "kind": "map", "fn": "identity"},
                {"uid": "out", "kind": "sink", "sink": "at_least_once"}
            ],
            "edges": [
                {"from": "numbers", "to": "merge", "latency_ms": 1},
                {"from": "letters", "to": "merge", "latency_ms": 500},
                {"from": "merge", "to": "out", "latency_ms": 1}
            ]
        },
        "checkpointing": {"interval_ms": 100, "first_trigger_ms": 100, "mode": "at_least_once", "max_concurrent": 2},
        "restart": {"strategy": "none"}
    }));
    let (c1, c2) = (run.checkpoint(1), run.checkpoint(2));
    assert_eq!(c2["status"], "completed");
    assert_eq!(c2["end_ms"], 561);
    assert_eq!(c1["status"], "aborted");
    assert_eq!(c1["reason"], "subsumed");
    assert_eq!(c1["end_ms"], c2["end_ms"]);
    assert!(!run
        .of_type("snapshot_taken")
        .any(|e| e["task"] == "merge#0" && e["checkpoint"] == 1));
    let order: Vec<&str> = run
        .events
        .iter()
        .filter(|e| {
            e["t"] == 561
                && (e["type"] == "checkpoint_completed" || e["type"] == "checkpoint_aborted")
        })
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(order[..2], ["checkpoint_completed", "checkpoint_aborted"]);
}

/// Mirrors Flink's `CheckpointRequestDecider` queue order
/// (`checkpointTriggerRequestsComparator`): savepoints first, then forced, then
/// user-requested before periodic, then by creation.
#[test]
fn queued_requests_savepoints_first_then_manual_then_periodic() {
    let mut c = coordinator(0, 1, true); // unaligned on: savepoints are not forced
    let first = start(&mut c, SnapshotKind::Checkpoint, 0);
    c.offer(SnapshotKind::Checkpoint, TriggerOrigin::Periodic); // periodic, oldest
    c.offer(SnapshotKind::Checkpoint, TriggerOrigin::Manual); // manual
    c.offer(SnapshotKind::Savepoint, TriggerOrigin::Manual); // savepoint, newest
    assert_eq!(
        c.decide(1),
        Decision::Wait,
        "max_concurrent 1 and nothing forced"
    );
    c.complete(first, 2).unwrap();
    let mut kinds = Vec::new();
    for now in 3..6 {
        match c.decide(now) {
            Decision::Start(req) => {
                kinds.push((req.kind, req.is_periodic));
                let id = c.start(&req, now, [TaskId(0)]);
                c.complete(id, now).unwrap();
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(
        kinds,
        vec![
            (SnapshotKind::Savepoint, false),
            (SnapshotKind::Checkpoint, false),
            (SnapshotKind::Checkpoint, true)
        ]
    );
}

/// Mirrors Flink's `DefaultCompletedCheckpointStore#addCheckpointAndSubsumeOldestOne`
/// and `CheckpointCoordinator#restoreLatestCheckpointedStateInternal`: the store
/// keeps the `retained` latest checkpoints; a failover restores the latest.
#[test]
fn store_retains_the_latest_checkpoints_and_restore_uses_the_latest() {
    let doc = odd_even(
        100,
        10,
        json!({"interval_ms": 100, "first_trigger_ms": 100, "retained": 2}),
        json!({"strategy": "fixed_delay", "attempts": 1, "delay_ms": 10}),
        json!([{"at_ms": 550, "action": "crash", "task": "parity#0"}]),
    );
    let s = scenario(&doc);
    let mut w = World::new(&s, 1).unwrap();
    w.run_until(549, |_| {});
    let store: Vec<u64> = w.coordinator().store().iter().map(|c| c.id.0).collect();
    assert_eq!(store, vec![4, 5]);
    w.run_until(600, |_| {});
    assert_eq!(w.failures()[0].restored_from, Some(CheckpointId(5)));
}

// ----- savepoints (§1.4, §8) ------------------------------------------------------------

/// Mirrors Flink's `CheckpointCoordinatorTest#testTriggerAndConfirmSimpleSavepoint`
/// and savepoints.md ("intermediate savepoints are not used for recovery"): a
/// completed savepoint is not in the store; a failover restores the checkpoint before it.
#[test]
fn savepoint_is_not_in_the_store_and_not_restored() {
    let run = Run::of(&odd_even(
        100,
        10,
        json!({"interval_ms": 200, "first_trigger_ms": 200}),
        json!({"strategy": "fixed_delay", "attempts": 1, "delay_ms": 10}),
        json!([
            {"at_ms": 300, "action": "savepoint"},
            {"at_ms": 350, "action": "crash", "task": "sum#0"}
        ]),
    ));
    assert_eq!(run.checkpoint(1)["kind"], "checkpoint");
    assert_eq!(run.checkpoint(2)["kind"], "savepoint");
    assert_eq!(run.checkpoint(2)["status"], "completed");
    assert_eq!(run.failures()[0]["restored_from"], 1);
}

/// Mirrors Flink's `TwoPhaseCommitSinkFunction` with savepoints.md ("do not commit
/// any side effects"): an intermediate savepoint sends no notify-complete, so the
/// transaction pre-committed for it stays pending; the next checkpoint commits it
/// (its notify commits every pending transaction ≤ its id, in order).
#[test]
fn savepoint_does_not_commit_the_next_checkpoint_does() {
    let doc = odd_even(
        100,
        10,
        json!({"interval_ms": null}),
        json!({"strategy": "none"}),
        json!([
            {"at_ms": 205, "action": "savepoint"},
            {"at_ms": 505, "action": "trigger_checkpoint"}
        ]),
    );
    let mut w = World::new(&scenario(&doc), 1).unwrap();
    w.run_until(500, |_| {});
    let ext = w.external().values().next().unwrap();
    assert!(
        ext.committed.is_empty(),
        "nothing committed by the savepoint"
    );
    let sp_txn = ext
        .txns
        .iter()
        .find(|(_, t)| t.checkpoint == Some(CheckpointId(1)))
        .map(|(id, t)| (*id, t.status));
    assert_eq!(
        sp_txn.map(|x| x.1),
        Some(engine::sink::TxnStatus::Precommitted)
    );

    let run = Run::of(&doc);
    let commits: Vec<(u64, u64)> = run
        .of_type("transaction_committed")
        .map(|e| (e["t"].as_u64().unwrap(), e["checkpoint"].as_u64().unwrap()))
        .collect();
    let done2 = run.checkpoint(2)["end_ms"].as_u64().unwrap();
    assert_eq!(
        commits[..2],
        [(done2, 1), (done2, 2)],
        "savepoint's txn first, then checkpoint 2's, at its completion"
    );
    assert!(run
        .of_type("transaction_committed")
        .all(|e| e["t"].as_u64().unwrap() >= done2));
}

/// Mirrors Flink's `CheckpointCoordinator#triggerSavepoint` (`forSavepoint(!unalignedEnabled)`):
/// with unaligned checkpoints off a savepoint is forced — it starts while a
/// checkpoint is pending, beyond `max_concurrent`; with them on it waits for it.
#[test]
fn savepoint_is_forced_only_while_unaligned_is_off() {
    for unaligned in [false, true] {
        let run = Run::of(&odd_even(
            50,
            10,
            json!({"interval_ms": 100, "async_ms": 200, "unaligned": unaligned}),
            json!({"strategy": "none"}),
            json!([{"at_ms": 150, "action": "savepoint"}]),
        ));
        let sp = run
            .checkpoints()
            .iter()
            .find(|c| c["kind"] == "savepoint")
            .expect("savepoint");
        let c1 = run.checkpoint(1);
        assert_eq!(c1["status"], "completed");
        if unaligned {
            assert_eq!(
                sp["trigger_ms"], c1["end_ms"],
                "waits for checkpoint 1, then goes first"
            );
        } else {
            assert_eq!(sp["trigger_ms"], 150, "forced past max_concurrent 1");
        }
        assert_eq!(sp["status"], "completed");
    }
}

/// The barrier-alignment job: numbers (latency 5) and letters (latency 50) → merge → out.
fn two_inputs(checkpointing: Value, script: Value) -> Value {
    let mut doc: Value =
        serde_json::from_str(runner::builtin("barrier-alignment").unwrap()).unwrap();
    doc["checkpointing"] = checkpointing;
    doc["script"] = script;
    doc
}

/// Mirrors Flink's `CheckpointOptions.forConfig` ("Savepoints can not be
/// unaligned"): with unaligned checkpoints on, a savepoint's barriers are aligned —
/// the merge blocks its first channel, persists nothing, aligns 45 ms.
#[test]
fn savepoint_is_aligned_even_with_unaligned_on() {
    let run = Run::of(&two_inputs(
        json!({"unaligned": true, "interval_ms": null}),
        json!([{"at_ms": 500, "action": "savepoint"}, {"at_ms": 600, "action": "trigger_checkpoint"}]),
    ));
    let trig: Vec<(u64, bool)> = run
        .of_type("checkpoint_triggered")
        .take(2)
        .map(|e| {
            (
                e["checkpoint"].as_u64().unwrap(),
                e["unaligned"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        trig,
        vec![(1, false), (2, true)],
        "the savepoint aligned, the checkpoint unaligned"
    );
    assert!(run
        .of_type("channel_blocked")
        .any(|e| e["checkpoint"] == 1 && e["task"] == "merge#0"));
    assert!(run.of_type("record_buffered").any(|e| e["checkpoint"] == 1));
    assert!(!run
        .of_type("barrier_overtook")
        .any(|e| e["checkpoint"] == 1));
    let sp = run.checkpoint(1);
    assert_eq!(sp["kind"], "savepoint");
    assert_eq!(sp["persisted_in_flight_records"], 0);
    assert_eq!(sp["alignment_ms"], 45);
}

/// Mirrors Flink's stop-with-savepoint (`CheckpointCoordinatorTest#testStopWithSavepoint…`,
/// `SavepointITCase`): a synchronous savepoint notifies completion — the 2PC sink
/// commits everything up to it — and the job ends `finished`; sources emit nothing after its barrier.
#[test]
fn stop_with_savepoint_commits_and_finishes_the_job() {
    let run = Run::with(
        &odd_even(
            100,
            10,
            json!({"interval_ms": 200}),
            json!({"strategy": "none"}),
            json!([{"at_ms": 455, "action": "stop_with_savepoint"}]),
        ),
        RunOptions {
            metadata: true,
            ..Default::default()
        },
    );
    assert_eq!(run.summary["job_status"], "finished");
    let sp = run.checkpoints().last().unwrap();
    assert_eq!(sp["kind"], "savepoint");
    assert_eq!(sp["status"], "completed");
    assert_eq!(run.summary["end_ms"], sp["end_ms"]);
    let offset = sp["metadata"]["numbers"]["offsets"]["0"].as_i64().unwrap();
    assert_eq!(offset, 45);
    // Every number read before the savepoint's barrier is committed, once.
    let committed = run.committed("out");
    assert_eq!(committed.len() as i64, offset);
    assert_eq!(
        committed.last().unwrap(),
        &(
            "odd".to_string(),
            (1..=45).filter(|n| n % 2 == 1).sum::<i64>()
        )
    );
    assert!(
        run.uncommitted("out").is_empty(),
        "{:?}",
        run.uncommitted("out")
    );
    let barrier = run
        .time_of("barrier_injected", |e| e["checkpoint"] == sp["id"])
        .unwrap();
    assert!(run
        .of_type("record_emitted")
        .all(|e| e["t"].as_u64().unwrap() <= barrier));
    assert!(run
        .of_type("transaction_committed")
        .any(|e| e["checkpoint"] == sp["id"]));
}

/// Mirrors Flink's job cancellation (`TwoPhaseCommitSinkFunction#close` aborts the
/// open transaction): the job ends `canceled`; what the sink wrote since the last
/// checkpoint is aborted — invisible to read_committed, visible to read_uncommitted.
#[test]
fn cancel_ends_the_job_canceled_and_aborts_the_open_transaction() {
    let run = Run::with(
        &odd_even(
            100,
            10,
            json!({"interval_ms": 200, "first_trigger_ms": 200}),
            json!({"strategy": "fixed_delay", "attempts": 3, "delay_ms": 10}),
            json!([{"at_ms": 455, "action": "cancel"}, {"at_ms": 600, "action": "crash", "task": "sum#0"}]),
        ),
        RunOptions {
            metadata: true,
            ..Default::default()
        },
    );
    assert_eq!(run.summary["job_status"], "canceled");
    assert_eq!(run.summary["end_ms"], 455);
    assert!(
        run.failures().is_empty(),
        "the crash after the cancel is ignored"
    );
    let aborted: Vec<&Value> = run.of_type("transaction_aborted").collect();
    assert_eq!(aborted.len(), 1);
    assert_eq!(aborted[0]["t"], 455);
    assert_eq!(run.summary["sinks"]["out"]["aborted_transactions"], 1);
    // Checkpoint 2 (at 400) committed the numbers up to its offset; the rest, up
    // to 45, were written after it and aborted.
    let offset = run.checkpoint(2)["metadata"]["numbers"]["offsets"]["0"]
        .as_u64()
        .unwrap() as usize;
    assert!((39..=40).contains(&offset), "{offset}");
    assert_eq!(run.committed("out").len(), offset);
    assert_eq!(
        run.uncommitted("out").len(),
        45 - offset,
        "read_uncommitted sees the aborted records"
    );
    assert!(run
        .events
        .iter()
        .all(|e| e["t"].as_u64().unwrap() <= 455 || e["type"] == "action_ignored"));
}

// ----- storage (§7) ---------------------------------------------------------------------

/// Mirrors Flink's `MemCheckpointStreamFactory` / `JobManagerCheckpointStorage`: a
/// subtask snapshot above `max_state_bytes` declines the checkpoint in its
/// asynchronous phase ("Size=…, maxSize=…"), which counts towards tolerable failures.
#[test]
fn jobmanager_storage_declines_a_too_large_snapshot_and_counts_it() {
    // sum's state: "odd" 16+3 and "even" 16+4 = 39 bytes; the limit 35.
    let run = Run::of(&odd_even(
        100,
        10,
        json!({"interval_ms": 100, "first_trigger_ms": 100, "storage": "jobmanager", "max_state_bytes": 35, "tolerable_failures": 1}),
        json!({"strategy": "none"}),
        json!([]),
    ));
    let c1 = run.checkpoint(1);
    assert_eq!(c1["status"], "aborted");
    let reason = c1["reason"].as_str().unwrap();
    assert!(reason.starts_with("declined: "), "{reason}");
    assert!(
        reason.contains("Size=39") && reason.contains("maxSize=35"),
        "{reason}"
    );
    assert!(run
        .of_type("checkpoint_declined")
        .any(|e| e["task"] == "sum#0" && e["checkpoint"] == 1));
    // §1.5: a decline triggers nothing by itself; the next checkpoint is the next periodic one.
    let c2 = run.checkpoint(2);
    assert_eq!(c2["trigger_ms"], 200);
    // Tolerable 1: the second decline fails the job over; with no restart, it fails.
    assert_eq!(c2["status"], "aborted");
    let f = run.failures();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0]["at_ms"], c2["end_ms"]);
    assert!(f[0]["reason"]
        .as_str()
        .unwrap()
        .starts_with("Exceeded checkpoint tolerable failure threshold"));
    assert_eq!(run.summary["job_status"], "failed");
    assert!(run.summary["failure_reason"]
        .as_str()
        .unwrap()
        .starts_with("Recovery is suppressed by NoRestartBackoffTimeStrategy"));
}

/// Mirrors Flink's `HashMapStateBackend` full snapshots and
/// `FinishedOperatorSubtaskState` (a finished task reports no state), as the
/// contract puts it (Summary: "`uploaded_bytes` what this checkpoint actually
/// wrote: equal for `hashmap`"). With the
/// hashmap backend every checkpoint of every built-in must have `state_bytes ==
/// uploaded_bytes`. The engine counts a finished task's last state in `state_bytes`
/// but uploads 0 for it, so every checkpoint taken after a task finished differs:
/// odd-even-sum checkpoint 2 (71 vs 16), pv-count 4 (56 vs 0), barrier-alignment 2
/// (48 vs 16), unaligned-backpressure 4 (586 vs 570) and 5 (120 vs 16),
/// at-least-once-duplicates 3 (92 vs 0).
#[test]
fn hashmap_checkpoints_upload_their_full_size() {
    let mut bad = Vec::new();
    for (name, _) in runner::BUILTINS {
        let s = runner::load(name).unwrap();
        if s.checkpointing
            .as_ref()
            .is_some_and(|c| c.backend == engine::scenario::BackendKind::Rocksdb)
        {
            continue; // incremental: uploads less on purpose
        }
        let run = Run::scenario(&s, RunOptions::default());
        for c in run.checkpoints() {
            if c["state_bytes"] != c["uploaded_bytes"] {
                bad.push(format!(
                    "{name} #{}: {} vs {}",
                    c["id"], c["state_bytes"], c["uploaded_bytes"]
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:?}");
}

/// Mirrors Flink's `CheckpointFailureManagerTest#testIgnoreOneCheckpointRepeatedlyCountMultiTimes`:
/// two subtasks declining the same checkpoint count once. The keyed sum runs with
/// parallelism 2; keys "b", "c" (key groups 22, 62) land on subtask 0 (34 bytes),
/// "a", "flink" (81, 98) on subtask 1 (38 bytes); the limit is 30, so both decline
/// every checkpoint. With 1 tolerable failure the job fails over at checkpoint 2, not 1.
#[test]
fn declines_of_one_checkpoint_by_two_subtasks_count_once() {
    let records: Vec<Value> = ["b", "a", "c", "flink"]
        .iter()
        .enumerate()
        .map(|(i, k)| json!({"at_ms": 10 + 10 * i as u64, "value": 1, "key": k}))
        .chain((0..40).map(|i| json!({"at_ms": 100 + 10 * i, "value": 1, "key": "b"})))
        .collect();
    let run = Run::of(&json!({
        "version": 1, "name": "two-declines",
        "job": {
            "operators": [
                {"uid": "src", "kind": "source", "partitions": [{"records": records}]},
                {"uid": "sum", "kind": "keyed_sum", "parallelism": 2},
                {"uid": "out", "kind": "sink", "sink": "at_least_once"}
            ],
            "edges": [
                {"from": "src", "to": "sum", "partitioning": "hash", "latency_ms": 1},
                {"from": "sum", "to": "out", "partitioning": "rebalance", "latency_ms": 1}
            ]
        },
        "checkpointing": {"interval_ms": 100, "first_trigger_ms": 100, "storage": "jobmanager", "max_state_bytes": 30, "tolerable_failures": 1},
        "restart": {"strategy": "none"}
    }));
    let declined: Vec<&Value> = run
        .of_type("checkpoint_declined")
        .filter(|e| e["checkpoint"] == 1)
        .collect();
    let mut got: Vec<(&str, &str)> = declined
        .iter()
        .map(|e| (e["task"].as_str().unwrap(), e["reason"].as_str().unwrap()))
        .collect();
    got.sort();
    assert_eq!(got.len(), 2, "both subtasks decline checkpoint 1: {got:?}");
    assert_eq!(got[0].0, "sum#0");
    assert!(got[0].1.contains("Size=34, maxSize=30"), "{got:?}");
    assert_eq!(got[1].0, "sum#1");
    assert!(got[1].1.contains("Size=38, maxSize=30"), "{got:?}");
    assert_eq!(run.checkpoint(1)["status"], "aborted");
    let f = run.failures();
    assert_eq!(f.len(), 1);
    assert_eq!(
        f[0]["at_ms"],
        run.checkpoint(2)["end_ms"],
        "checkpoint 1 counted once, checkpoint 2 exceeds"
    );
}

// ----- failover and restore (§1.2, §5) --------------------------------------------------

/// Mirrors Flink's `CheckpointIDCounter` (`CheckpointCoordinatorTest#testCheckpointIdsAreStrictlyIncreasing`…):
/// ids start at 1 and are never reset by a failover.
#[test]
fn checkpoint_ids_are_never_reset_on_failover() {
    let mut doc = odd_even(
        200,
        10,
        json!({"interval_ms": 100, "first_trigger_ms": 100}),
        json!({"strategy": "fixed_delay", "attempts": 2, "delay_ms": 20}),
        json!([{"at_ms": 450, "action": "crash", "task": "sum#0"}, {"at_ms": 850, "action": "crash", "task": "numbers#0"}]),
    );
    doc["until_ms"] = json!(1300);
    let run = Run::of(&doc);
    let got = ids(run.checkpoints());
    assert_eq!(
        got,
        (1..=got.len() as u64).collect::<Vec<_>>(),
        "1, 2, 3, … across failovers"
    );
    let restart = run.failures()[0]["restarted_ms"].as_u64().unwrap();
    let first_after = run
        .checkpoints()
        .iter()
        .find(|c| c["trigger_ms"].as_u64().unwrap() > restart)
        .unwrap();
    assert_eq!(
        first_after["id"], 5,
        "checkpoints 1-4 before the crash at 450"
    );
    assert!(
        run.failures()[1]["restored_from"].as_u64().unwrap() > 5,
        "restored from a checkpoint after the first restart"
    );
}

/// Mirrors Flink's `SchedulerBase` failover (§1.5, §5.2: pending checkpoints are
/// aborted with `JOB_FAILOVER_REGION`, which `CheckpointFailureManager` does not
/// count): a crash while a checkpoint is pending aborts it `job_failover`; with
/// `tolerable_failures` 0 that causes no second failover.
#[test]
fn failover_aborts_pending_checkpoints_uncounted() {
    let run = Run::of(&odd_even(
        60,
        10,
        json!({"interval_ms": 100, "first_trigger_ms": 100, "async_ms": 80, "tolerable_failures": 0}),
        json!({"strategy": "fixed_delay", "attempts": 1, "delay_ms": 10}),
        json!([{"at_ms": 250, "action": "crash", "task": "sum#0"}]),
    ));
    let c2 = run.checkpoint(2);
    assert_eq!(
        (c2["trigger_ms"].as_u64(), c2["end_ms"].as_u64()),
        (Some(200), Some(250))
    );
    assert_eq!(c2["status"], "aborted");
    assert_eq!(c2["reason"], "job_failover");
    assert_eq!(run.failures().len(), 1, "not counted: {}", run.summary);
    assert_eq!(run.failures()[0]["restored_from"], 1);
    assert_eq!(run.summary["job_status"], "finished");
}

/// Mirrors Flink's `CheckpointCoordinator#restoreLatestCheckpointedStateInternal`
/// with an empty store: a failure before any completed checkpoint restarts every
/// task empty — sources from offset 0 — and `restored_from` is null.
#[test]
fn crash_before_any_checkpoint_restarts_from_offset_zero() {
    let run = Run::of(&odd_even(
        30,
        10,
        json!({"interval_ms": 1000, "first_trigger_ms": 1000}),
        json!({"strategy": "fixed_delay", "attempts": 1, "delay_ms": 50}),
        json!([{"at_ms": 155, "action": "crash", "task": "sum#0"}]),
    ));
    let f = &run.failures()[0];
    assert!(f["restored_from"].is_null());
    assert_eq!(f["restarted_ms"], 205);
    let restored: Vec<&Value> = run
        .of_type("state_restored")
        .filter(|e| e["t"] == 205)
        .collect();
    assert_eq!(restored.len(), 4);
    assert!(restored.iter().all(|e| e["checkpoint"].is_null()));
    let zero: Vec<u64> = run
        .of_type("record_emitted")
        .filter(|e| e["offset"] == 0)
        .map(|e| e["t"].as_u64().unwrap())
        .collect();
    assert_eq!(
        zero,
        vec![10, 205],
        "offset 0 read at the start and again at the restart"
    );
    // Exactly once all the same: the sums start again from nothing.
    let committed = run.committed("out");
    assert_eq!(committed.len(), 30);
    assert_eq!(committed[0], ("odd".into(), 1));
    assert_eq!(run.summary["job_status"], "finished");
}

/// Mirrors Flink's `FixedDelayRestartBackoffTimeStrategy` through
/// `ExecutionFailureHandler`: failures 1..=attempts restart after the delay; the
/// next fails the job with "Recovery is suppressed by …".
#[test]
fn fixed_delay_gives_up_after_its_attempts() {
    let run = Run::of(&odd_even(
        100,
        10,
        json!({"interval_ms": 100}),
        json!({"strategy": "fixed_delay", "attempts": 2, "delay_ms": 30}),
        json!([
            {"at_ms": 200, "action": "crash", "task": "sum#0"},
            {"at_ms": 400, "action": "crash", "task": "out#0"},
            {"at_ms": 600, "action": "crash", "task": "numbers#0"}
        ]),
    ));
    let delays: Vec<u64> = run
        .of_type("job_restarting")
        .map(|e| e["delay_ms"].as_u64().unwrap())
        .collect();
    assert_eq!(delays, vec![30, 30]);
    let f = run.failures();
    assert_eq!(f.len(), 3);
    assert_eq!(f[0]["restarted_ms"], 230);
    assert_eq!(f[1]["restarted_ms"], 430);
    assert!(f[2]["restarted_ms"].is_null());
    assert_eq!(run.summary["job_status"], "failed");
    assert_eq!(run.summary["end_ms"], 600);
    assert_eq!(
        run.of_type("job_failed").next().unwrap()["reason"],
        "Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=2, backoffTimeMS=30)"
    );
}

/// Mirrors Flink's `FailureRateRestartBackoffTimeStrategy`: the (max+1)-th failure
/// within `interval_ms` is fatal; spread out, the same number of failures is not.
#[test]
fn failure_rate_end_to_end() {
    let crashes = |a: u64, b: u64| {
        Run::of(&odd_even(
            200,
            10,
            json!({"interval_ms": 100}),
            json!({"strategy": "failure_rate", "max_failures": 1, "interval_ms": 1000, "delay_ms": 20}),
            json!([
                {"at_ms": a, "action": "crash", "task": "sum#0"},
                {"at_ms": b, "action": "crash", "task": "sum#0"}
            ]),
        ))
    };
    let close = crashes(200, 700);
    assert_eq!(close.summary["job_status"], "failed");
    assert_eq!(close.failures().len(), 2);
    assert!(close.summary["failure_reason"]
        .as_str()
        .unwrap()
        .starts_with("Recovery is suppressed by FailureRateRestartBackoffTimeStrategy"));
    let apart = crashes(200, 1300);
    assert_eq!(apart.summary["job_status"], "finished");
    assert_eq!(apart.of_type("job_restarting").count(), 2);
}

/// Mirrors Flink's `ExponentialDelayRestartBackoffTimeStrategy` (no jitter, contract):
/// the k-th restart waits `min(max, floor(initial × multiplier^k))`, seen in the
/// `job_restarting` events.
#[test]
fn exponential_delay_end_to_end() {
    let run = |multiplier: f64| {
        Run::of(&odd_even(
            300,
            10,
            json!({"interval_ms": 100}),
            json!({"strategy": "exponential_delay", "initial_ms": 100, "max_ms": 300, "multiplier": multiplier}),
            json!([
                {"at_ms": 200, "action": "crash", "task": "sum#0"},
                {"at_ms": 600, "action": "crash", "task": "sum#0"},
                {"at_ms": 1000, "action": "crash", "task": "sum#0"},
                {"at_ms": 1500, "action": "crash", "task": "sum#0"}
            ]),
        ))
    };
    let delays = |r: &Run| {
        r.of_type("job_restarting")
            .map(|e| e["delay_ms"].as_u64().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(delays(&run(2.0)), vec![100, 200, 300, 300]);
    assert_eq!(delays(&run(1.5)), vec![100, 150, 225, 300]);
    let r = run(1.5);
    assert_eq!(r.failures()[1]["restarted_ms"], 750);
}

/// Mirrors Flink's `ExponentialDelayRestartBackoffTimeStrategy` reset and attempts
/// (`ExponentialDelayRestartBackoffTimeStrategyTest#testResetBackoff`,
/// `#testMaxAttempts`): a failure `reset_threshold_ms` after the last restart
/// deadline starts again from `initial_ms`; after `attempts` restarts since the
/// last reset the next failure is fatal.
#[test]
fn exponential_delay_resets_and_gives_up() {
    let run = Run::of(&odd_even(
        300,
        10,
        json!({"interval_ms": 100}),
        json!({"strategy": "exponential_delay", "initial_ms": 100, "max_ms": 1000, "multiplier": 2,
               "reset_threshold_ms": 500, "attempts": 2}),
        json!([
            {"at_ms": 200, "action": "crash", "task": "sum#0"},
            {"at_ms": 1000, "action": "crash", "task": "sum#0"},
            {"at_ms": 1200, "action": "crash", "task": "sum#0"},
            {"at_ms": 1500, "action": "crash", "task": "sum#0"}
        ]),
    ));
    let delays: Vec<u64> = run
        .of_type("job_restarting")
        .map(|e| e["delay_ms"].as_u64().unwrap())
        .collect();
    // 200: 100 (deadline 300); 1000: 700 ≥ 500 after the deadline, reset: 100
    // (deadline 1100); 1200: 200; 1500: the 3rd attempt since the reset, fatal.
    assert_eq!(delays, vec![100, 100, 200]);
    assert_eq!(run.summary["job_status"], "failed");
    assert_eq!(run.summary["end_ms"], 1500);
    assert!(run.summary["failure_reason"]
        .as_str()
        .unwrap()
        .starts_with("Recovery is suppressed by ExponentialDelayRestartBackoffTimeStrategy"));
}

/// Mirrors Flink's `RestartBackoffTimeStrategyFactoryLoader` defaults (FLINK-33738,
/// §5.1): without a configured strategy, exponential delay from 1000 ms while
/// checkpointing is on; no restart while it is off.
#[test]
fn default_restart_strategy_depends_on_checkpointing() {
    let mut on = odd_even(
        100,
        10,
        json!({"interval_ms": 100}),
        Value::Null,
        json!([{"at_ms": 150, "action": "crash", "task": "sum#0"}]),
    );
    on.as_object_mut().unwrap().remove("restart");
    let run = Run::of(&on);
    assert_eq!(
        run.of_type("job_restarting").next().unwrap()["delay_ms"],
        1000
    );
    assert_eq!(run.failures()[0]["restarted_ms"], 1150);
    let mut off = on.clone();
    off.as_object_mut().unwrap().remove("checkpointing");
    let run = Run::of(&off);
    assert_eq!(run.summary["job_status"], "failed");
    assert!(run.checkpoints().is_empty());
    assert_eq!(
        run.summary["failure_reason"]
            .as_str()
            .unwrap()
            .split(" (")
            .next()
            .unwrap(),
        "Recovery is suppressed by NoRestartBackoffTimeStrategy"
    );
}

// ----- two-phase commit (§4.1) ------------------------------------------------------------

/// Mirrors Flink's `TwoPhaseCommitSinkFunction#snapshotState` /
/// `#notifyCheckpointComplete` (`TwoPhaseCommitSinkFunctionTest#testNotifyOfCompletedCheckpoint`):
/// at its snapshot the sink pre-commits the current transaction for that checkpoint
/// and begins the next; on completion it commits it.
#[test]
fn two_phase_commit_precommits_at_the_snapshot_and_commits_on_notify() {
    let mut doc = odd_even(
        100,
        10,
        json!({"interval_ms": 100}),
        json!({"strategy": "none"}),
        json!([]),
    );
    doc["until_ms"] = json!(350);
    let run = Run::of(&doc);
    for id in 1..=3u64 {
        let at_sink: Vec<&Value> = run
            .events
            .iter()
            .filter(|e| {
                e["task"] == "out#0"
                    && e["checkpoint"] == id
                    && e["type"] != "checkpoint_acknowledged"
            })
            .collect();
        let types: Vec<&str> = at_sink
            .iter()
            .map(|e| e["type"].as_str().unwrap())
            .collect();
        assert_eq!(
            types,
            [
                "barrier_received",
                "transaction_precommitted",
                "transaction_begun",
                "snapshot_taken",
                "transaction_committed"
            ],
            "checkpoint {id}"
        );
        let (pre, begun, commit) = (at_sink[1], at_sink[2], at_sink[4]);
        assert_eq!(
            pre["txn"], id,
            "txn {id} is pre-committed for checkpoint {id}"
        );
        assert_eq!(begun["txn"], id + 1);
        assert_eq!(commit["txn"], id);
        assert_eq!(commit["t"], run.checkpoint(id)["end_ms"]);
        assert!(pre["t"] == at_sink[0]["t"]);
    }
}

/// Mirrors Flink's `TwoPhaseCommitSinkFunction#notifyCheckpointAborted` (a no-op)
/// and the subsuming contract of `notifyCheckpointComplete` (commit every pending
/// transaction ≤ n): transactions pre-committed for aborted checkpoints stay
/// pending, are not aborted, and the next completed checkpoint commits them all, in order.
#[test]
fn two_phase_commit_notify_aborted_is_a_noop_and_the_next_completion_commits_all() {
    // A burst of 10 records at once, a slow branch (50 ms a record) next to the
    // sink: while the burst lasts, barriers reach the sink at once but the slow
    // map late, so checkpoints expire after the sink pre-committed; once the
    // burst is processed a checkpoint completes.
    let mut records: Vec<Value> = (1..=10)
        .map(|i| json!({"at_ms": i, "value": i, "key": "k"}))
        .collect();
    // Two late records keep the source (and so the sink) running.
    records.push(json!({"at_ms": 600, "value": 11, "key": "k"}));
    records.push(json!({"at_ms": 700, "value": 12, "key": "k"}));
    let doc = json!({
        "version": 1, "name": "noop-abort",
        "job": {
            "operators": [
                {"uid": "src", "kind": "source", "partitions": [{"records": records}]},
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit"},
                {"uid": "slow", "kind": "map", "fn": "identity", "process_ms": 50},
                {"uid": "log", "kind": "sink", "sink": "at_least_once"}
            ],
            "edges": [
                {"from": "src", "to": "out", "latency_ms": 1},
                {"from": "src", "to": "slow", "latency_ms": 1, "buffer_capacity": 20},
                {"from": "slow", "to": "log", "latency_ms": 1}
            ]
        },
        "checkpointing": {"interval_ms": 100, "first_trigger_ms": 100, "timeout_ms": 150, "tolerable_failures": 10},
        "restart": {"strategy": "none"},
        "until_ms": 1500
    });
    let run = Run::of(&doc);
    let cps = run.checkpoints();
    let first_ok = cps
        .iter()
        .position(|c| c["status"] == "completed")
        .expect("a checkpoint completes");
    assert!(
        first_ok >= 1,
        "the first checkpoint must expire: {}",
        run.summary
    );
    assert!(cps[..first_ok].iter().all(|c| c["reason"] == "expired"));
    let n = cps[first_ok]["id"].as_u64().unwrap();
    let pre: Vec<u64> = run
        .of_type("transaction_precommitted")
        .filter(|e| e["checkpoint"].as_u64().unwrap() <= n)
        .map(|e| e["txn"].as_u64().unwrap())
        .collect();
    assert!(
        pre.len() as u64 >= 2,
        "the sink pre-committed for the expired ones too: {pre:?}"
    );
    assert_eq!(
        run.of_type("transaction_aborted").count(),
        0,
        "notify-aborted aborts nothing"
    );
    let done = cps[first_ok]["end_ms"].clone();
    let committed_at_done: Vec<u64> = run
        .of_type("transaction_committed")
        .filter(|e| e["t"] == done)
        .map(|e| e["txn"].as_u64().unwrap())
        .collect();
    assert_eq!(
        committed_at_done, pre,
        "checkpoint {n} commits every pending transaction ≤ {n}, in order"
    );
    let mut all: Vec<i64> = run.committed("out").iter().map(|x| x.1).collect();
    all.sort();
    assert_eq!(all, (1..=12).collect::<Vec<_>>());
    // SubtaskCheckpointCoordinatorTest#testBroadcastCancelCheckpointMarkerOnAbortingFromCoordinator:
    // `slow` learned of the aborts before their barriers got through its backlog;
    // it skips those snapshots and sends cancellation markers on.
    for c in &cps[..first_ok] {
        let id = &c["id"];
        assert!(!run
            .of_type("snapshot_taken")
            .any(|e| e["task"] == "slow#0" && e["checkpoint"] == *id));
        assert!(run
            .of_type("cancellation_marker_sent")
            .any(|e| e["task"] == "slow#0" && e["checkpoint"] == *id));
    }
}

/// Mirrors Flink's `TwoPhaseCommitSinkFunctionTest#testFailBeforeNotify` /
/// `TwoPhaseCommitSinkFunction#initializeState`: when the job fails after a
/// checkpoint's snapshot but before its completion notice, the restore commits the
/// transactions pre-committed in the restored state (`recoverAndCommit`) and aborts
/// the one begun after the snapshot (`recoverAndAbort`).
#[test]
fn two_phase_commit_restore_commits_precommitted_and_aborts_the_open_one() {
    use engine::event::Trace;
    use engine::record::{Origin, Record};
    use engine::sink::{ExternalTopic, TxnStatus};
    use engine::two_phase_commit::TwoPhaseCommitSink;
    let task: engine::event::TaskName = "out#0".into();
    let mut ext = ExternalTopic::default();
    let mut next = 0;
    let mut trace = Trace {
        enabled: true,
        ..Default::default()
    };
    let rec = |v| Record {
        key: None,
        value: v,
        origin: Origin {
            source: 0,
            partition: 0,
            offset: v as u32,
        },
    };
    let mut sink = TwoPhaseCommitSink::start(&task, &mut ext, &mut next, &mut trace);
    assert!(matches!(
        sink.invoke(rec(1), &mut ext, 0),
        engine::two_phase_commit::Write::Written { first: true, .. }
    ));
    let state = sink.snapshot_state(
        &task,
        CheckpointId(1),
        false,
        &mut ext,
        &mut next,
        &mut trace,
    );
    // After the snapshot, in txn 2.
    assert!(matches!(
        sink.invoke(rec(2), &mut ext, 0),
        engine::two_phase_commit::Write::Written { txn: 2, .. }
    ));
    // The failure: close() aborts the open transaction; the notification never comes.
    sink.close(&mut ext, &mut trace);
    assert_eq!(ext.txns[&1].status, TxnStatus::Precommitted);
    assert_eq!(ext.txns[&2].status, TxnStatus::Aborted);
    let restored = TwoPhaseCommitSink::restore(
        &task,
        CheckpointId(1),
        &state,
        &mut ext,
        &mut next,
        &mut trace,
    );
    assert_eq!(
        ext.txns[&1].status,
        TxnStatus::Committed,
        "recoverAndCommit"
    );
    assert_eq!(ext.txns[&2].status, TxnStatus::Aborted, "recoverAndAbort");
    assert_eq!(restored.current, Some(3), "a fresh transaction");
    assert!(restored.pending.is_empty());
    let committed: Vec<i64> = ext.committed.iter().map(|r| r.value).collect();
    assert_eq!(committed, vec![1]);
    let uncommitted: Vec<i64> = ext.uncommitted().iter().map(|r| r.value).collect();
    assert_eq!(
        uncommitted,
        vec![2],
        "read_uncommitted sees the aborted record"
    );
    // notify for an older id commits nothing newer (subsuming contract, ≤ n only).
    let mut s = TwoPhaseCommitSink::start(&task, &mut ext, &mut next, &mut trace);
    s.snapshot_state(
        &task,
        CheckpointId(5),
        false,
        &mut ext,
        &mut next,
        &mut trace,
    );
    s.snapshot_state(
        &task,
        CheckpointId(6),
        false,
        &mut ext,
        &mut next,
        &mut trace,
    );
    s.notify_checkpoint_complete(CheckpointId(5), &mut ext, &mut trace);
    assert_eq!(
        s.pending.iter().map(|p| p.0).collect::<Vec<_>>(),
        vec![CheckpointId(6)]
    );
}

/// Mirrors Flink's `TwoPhaseCommitSinkFunction#initializeState` through a World
/// failover: the transaction pre-committed for an intermediate savepoint belongs to
/// no restored state newer than it, so a restore from the older checkpoint aborts
/// it (its records are replayed from the checkpoint's offsets and committed once);
/// read_uncommitted still sees the aborted copies.
#[test]
fn restore_from_an_older_checkpoint_aborts_a_savepoints_transaction() {
    let run = Run::of(&odd_even(
        60,
        10,
        json!({"interval_ms": 200, "first_trigger_ms": 200}),
        json!({"strategy": "fixed_delay", "attempts": 1, "delay_ms": 10}),
        json!([
            {"at_ms": 305, "action": "savepoint"},
            {"at_ms": 355, "action": "crash", "task": "parity#0"}
        ]),
    ));
    let sp_txn = run
        .of_type("transaction_precommitted")
        .find(|e| e["checkpoint"] == 2)
        .unwrap()["txn"]
        .clone();
    assert!(
        run.of_type("transaction_aborted")
            .any(|e| e["txn"] == sp_txn),
        "the savepoint's txn is aborted"
    );
    assert!(!run
        .of_type("transaction_committed")
        .any(|e| e["txn"] == sp_txn));
    assert_eq!(run.failures()[0]["restored_from"], 1);
    let committed = run.committed("out");
    assert_eq!(
        committed.len(),
        60,
        "each number's sum committed exactly once"
    );
    let mut want = Vec::new();
    let (mut odd, mut even) = (0, 0);
    for n in 1..=60i64 {
        if n % 2 == 1 {
            odd += n;
            want.push(("odd".to_string(), odd));
        } else {
            even += n;
            want.push(("even".to_string(), even));
        }
    }
    assert_eq!(committed, want);
    assert!(
        run.uncommitted("out").len() >= 10,
        "the aborted records (20..=35) stay visible to read_uncommitted"
    );
}

// ----- end of partition (§1.8, §2.6) -------------------------------------------------------

/// The two-input job where `letters` ends early: its last record is due at 60, so
/// it finishes then; its end of partition reaches `merge` at 260 (latency 200),
/// while the numbers' barrier of checkpoint 1 (triggered at 100) arrived at 101.
fn early_finish(after_tasks_finish: bool) -> Value {
    let numbers: Vec<Value> = (1..=30)
        .map(|i| json!({"at_ms": i * 10, "value": i}))
        .collect();
    json!({
        "version": 1, "name": "eop",
        "job": {
            "operators": [
                {"uid": "numbers", "kind": "source", "partitions": [{"records": numbers}]},
                {"uid": "letters", "kind": "source",
                 "partitions": [{"records": [{"at_ms": 50, "value": 97, "key": "a"}, {"at_ms": 60, "value": 98, "key": "b"}]}]},
                {"uid": "merge", "kind": "map", "fn": "identity"},
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit"}
            ],
            "edges": [
                {"from": "numbers", "to": "merge", "latency_ms": 1},
                {"from": "letters", "to": "merge", "latency_ms": 200},
                {"from": "merge", "to": "out", "latency_ms": 1}
            ]
        },
        "checkpointing": {"interval_ms": 100, "first_trigger_ms": 100,
                          "checkpoints_after_tasks_finish": after_tasks_finish,
                          "tolerable_failures": 10},
        "restart": {"strategy": "none"}
    })
}

/// Mirrors Flink's `SingleCheckpointBarrierHandler#processEndOfPartition` with
/// checkpoints after tasks finish on (`AlignedCheckpointsTest#testEndOfPartition…`,
/// FLIP-147): the finished channel counts as aligned — the pending checkpoint
/// completes when the end of partition arrives, and the job finishes with
/// everything committed by a final checkpoint.
#[test]
fn end_of_partition_counts_as_a_barrier_with_checkpoints_after_tasks_finish() {
    let run = Run::of(&early_finish(true));
    let c1 = run.checkpoint(1);
    assert_eq!(c1["status"], "completed", "{}", run.summary);
    assert_eq!(
        run.time_of("snapshot_taken", |e| e["task"] == "merge#0"
            && e["checkpoint"] == 1),
        Some(260)
    );
    assert_eq!(
        c1["alignment_ms"], 159,
        "from the numbers barrier (101) to the end of partition (260)"
    );
    assert_eq!(run.summary["job_status"], "finished");
    assert_eq!(run.committed("out").len(), 32);
}

/// Mirrors Flink's `DefaultCheckpointPlanCalculator#calculateWithAllTasksRunning`
/// with `checkpoints-after-tasks-finish` off (§1.8: "If disabled and any task is
/// finished ⇒ NOT_ALL_REQUIRED_TASKS_RUNNING", a pre-flight failure, not counted):
/// once `letters` finished (60 ms) no checkpoint may be triggered, so none
/// completes. The engine triggers them anyway: checkpoint 1 (100) is then aborted
/// `end_of_stream` by merge's end of partition (§2.6), checkpoint 2 (260) and the
/// final checkpoint complete with `letters` finished.
#[test]
fn no_checkpoint_after_a_task_finished_without_checkpoints_after_tasks_finish() {
    let run = Run::of(&early_finish(false));
    let finished = run
        .time_of("task_finished", |_| true)
        .expect("letters finishes");
    assert_eq!(finished, 60);
    let late: Vec<&Value> = run
        .of_type("checkpoint_triggered")
        .filter(|e| e["t"].as_u64().unwrap() >= finished)
        .collect();
    assert!(late.is_empty(), "triggered after a task finished: {late:?}");
    assert!(
        run.checkpoints().iter().all(|c| c["status"] != "completed"),
        "{}",
        run.summary
    );
    assert_eq!(
        run.failures().len(),
        0,
        "pre-flight failures are not counted"
    );
}

/// Mirrors Flink's `CheckpointCoordinator#shutdown` when the job reaches a terminal
/// state (pending checkpoints are aborted with `CHECKPOINT_COORDINATOR_SHUTDOWN`; no
/// task is triggered any more): a finished job has no checkpoint in progress, and
/// `job_finished` is the last event even when `until_ms` lies beyond it.
/// Here the source ends at 10 ms and a slow map drains until ~500 ms while periodic
/// requests queue up (checkpoints 1, 2 expire). At 503 checkpoint 3 completes, a
/// queued periodic request starts 4 (declined: the sink finished), the final
/// checkpoint 5 completes — and then another queued periodic request starts 6,
/// which the engine leaves `in_progress` in the summary of the finished job
/// (without `until_ms`) or declines and aborts *after* `job_finished` (with it).
#[test]
fn a_finished_job_has_nothing_pending_and_job_finished_is_last() {
    let records: Vec<Value> = (1..=10)
        .map(|i| json!({"at_ms": i, "value": i, "key": "k"}))
        .collect();
    let mut doc = json!({
        "version": 1, "name": "after-finish",
        "job": {
            "operators": [
                {"uid": "src", "kind": "source", "partitions": [{"records": records}]},
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit"},
                {"uid": "slow", "kind": "map", "fn": "identity", "process_ms": 50},
                {"uid": "log", "kind": "sink", "sink": "at_least_once"}
            ],
            "edges": [
                {"from": "src", "to": "out", "latency_ms": 1},
                {"from": "src", "to": "slow", "latency_ms": 1, "buffer_capacity": 20},
                {"from": "slow", "to": "log", "latency_ms": 1}
            ]
        },
        "checkpointing": {"interval_ms": 100, "timeout_ms": 150, "tolerable_failures": 10},
        "restart": {"strategy": "none"}
    });
    let run = Run::of(&doc);
    assert_eq!(run.summary["job_status"], "finished");
    let pending: Vec<&Value> = run
        .checkpoints()
        .iter()
        .filter(|c| c["status"] == "in_progress")
        .collect();
    assert!(
        pending.is_empty(),
        "a finished job with checkpoints in progress: {pending:?}"
    );
    doc["until_ms"] = json!(1500);
    let run = Run::of(&doc);
    assert_eq!(
        run.events.last().unwrap()["type"],
        "job_finished",
        "{:?}",
        &run.events[run.events.len() - 3..]
    );
}

// ----- back-pressure and unaligned (§2.2, §2.4) ---------------------------------------------

/// src → work (map, `process_ms`) → out, 40 records all due by 40 ms.
fn pressure(process_ms: u64, buffer_capacity: u32) -> Value {
    json!({
        "version": 1, "name": "pressure",
        "job": {
            "operators": [
                {"uid": "src", "kind": "source",
                 "partitions": [{"generate": {"count": 40, "every_ms": 1, "values": "sequence"}}]},
                {"uid": "work", "kind": "map", "fn": "identity", "process_ms": process_ms},
                {"uid": "out", "kind": "sink", "sink": "at_least_once"}
            ],
            "edges": [
                {"from": "src", "to": "work", "latency_ms": 1, "buffer_capacity": buffer_capacity},
                {"from": "work", "to": "out", "latency_ms": 1}
            ]
        }
    })
}

/// Mirrors Flink's credit-based flow control (`RemoteInputChannel` credits,
/// `PipelinedSubpartition`): a slow operator with a small buffer slows its source —
/// once the channel is full the source emits one record per processed record.
#[test]
fn backpressure_slows_the_source() {
    let emitted = |doc: &Value| -> Vec<u64> {
        Run::of(doc)
            .of_type("record_emitted")
            .map(|e| e["t"].as_u64().unwrap())
            .collect()
    };
    let fast = emitted(&pressure(0, 2));
    assert_eq!(fast.len(), 40);
    assert_eq!(
        *fast.last().unwrap(),
        40,
        "no back-pressure: every record when due"
    );
    let slow = emitted(&pressure(20, 2));
    assert_eq!(slow.len(), 40);
    assert!(
        *slow.last().unwrap() >= 35 * 20,
        "the source follows the slow operator: {slow:?}"
    );
    let gaps: Vec<u64> = slow.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(
        gaps[10..].iter().all(|g| *g == 20),
        "one record per 20 ms once the buffer is full: {gaps:?}"
    );
    let roomy = emitted(&pressure(20, 100));
    assert_eq!(
        *roomy.last().unwrap(),
        40,
        "a buffer larger than the input absorbs it"
    );
}

/// Mirrors Flink's unaligned checkpoints under back-pressure (§2.4,
/// `UnalignedCheckpointsTest`, `PipelinedSubpartitionWithReadViewTest#testBarrierOvertaking`):
/// on the same scenario, unaligned barriers overtake the queued records and persist
/// them (`persisted_in_flight_records` > 0) with short alignment; aligned barriers
/// persist nothing and wait behind the queues (longer `alignment_ms`).
#[test]
fn unaligned_persists_in_flight_records_aligned_waits() {
    let s = runner::load("unaligned-backpressure").unwrap();
    let first = |mode| {
        let mut s = s.clone();
        runner::apply_options(
            &mut s,
            &RunOptions {
                mode: Some(mode),
                ..Default::default()
            },
        )
        .unwrap();
        let run = Run::scenario(&s, RunOptions::default());
        run.checkpoint(1).clone()
    };
    let u = first(ModeOverride::Unaligned);
    let a = first(ModeOverride::Aligned);
    assert_eq!(u["status"], "completed");
    assert_eq!(a["status"], "completed");
    assert!(
        u["persisted_in_flight_records"].as_u64().unwrap() > 0,
        "{u}"
    );
    assert_eq!(a["persisted_in_flight_records"], 0);
    assert!(
        a["alignment_ms"].as_u64().unwrap() > u["alignment_ms"].as_u64().unwrap(),
        "aligned {} ms vs unaligned {} ms",
        a["alignment_ms"],
        u["alignment_ms"]
    );
    assert!(
        a["end_ms"].as_u64().unwrap() > u["end_ms"].as_u64().unwrap(),
        "the aligned checkpoint takes longer"
    );
}

/// Mirrors Flink's restore of unaligned channel state (§5.3: "for UC, channel state
/// re-injected"; `UnalignedCheckpointITCase`): a crash after an unaligned
/// checkpoint that persisted in-flight records restores them ahead of new data, so
/// per key the number of committed sums and the final sum equal the failure-free run's.
#[test]
fn unaligned_restore_replays_the_persisted_in_flight_records() {
    let base = runner::load("unaligned-backpressure").unwrap();
    let mut crashed = base.clone();
    runner::apply_options(
        &mut crashed,
        &RunOptions {
            crashes: vec![("slow-sum#1".into(), 1100)],
            ..Default::default()
        },
    )
    .unwrap();
    let truth = Run::scenario(&base, RunOptions::default());
    let run = Run::scenario(&crashed, RunOptions::default());
    assert!(
        run.checkpoint(1)["persisted_in_flight_records"]
            .as_u64()
            .unwrap()
            > 0
    );
    assert_eq!(run.failures()[0]["restored_from"], 1);
    assert_eq!(run.summary["job_status"], "finished");
    let summarize = |r: &Run| {
        common::per_key(&r.committed("out"))
            .into_iter()
            .map(|(k, v)| (k, (v.len(), v.iter().copied().max())))
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    assert_eq!(summarize(&run), summarize(&truth));
}

// ----- the lesson ------------------------------------------------------------------------

/// Mirrors Flink's `CheckpointCoordinator#restoreLatestCheckpointedStateInternal`
/// as the odd/even lesson (the built-in `odd-even-sum`) tells it: checkpoint 1
/// holds offset 5, even 6 (2+4), odd 9 (1+3+5); the crash restores from it; after the restore the sum task's first record is 6 (the next
/// number) and the sums continue from 6 and 9: even 12, odd 16, …
#[test]
fn odd_even_lesson_figures() {
    let s = runner::load("odd-even-sum").unwrap();
    let run = Run::scenario(
        &s,
        RunOptions {
            metadata: true,
            ..Default::default()
        },
    );
    let m = &run.checkpoint(1)["metadata"];
    assert_eq!(m["numbers"]["offsets"], json!({"0": 5}));
    assert_eq!(m["sum"]["keyed"], json!({"even": 6, "odd": 9}));
    let f = &run.failures()[0];
    assert_eq!(f["task"], "sum#0");
    assert_eq!(f["restored_from"], 1);
    let restart = f["restarted_ms"].as_u64().unwrap();
    let after: Vec<&Value> = run
        .of_type("record_processed")
        .filter(|e| e["task"] == "sum#0" && e["t"].as_u64().unwrap() >= restart)
        .collect();
    assert_eq!(
        (after[0]["key"].as_str(), after[0]["value"].as_i64()),
        (Some("even"), Some(6))
    );
    let out: Vec<(String, i64)> = run
        .of_type("record_written")
        .filter(|e| e["t"].as_u64().unwrap() >= restart)
        .take(2)
        .map(|e| {
            (
                e["key"].as_str().unwrap().to_string(),
                e["value"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(out, vec![("even".to_string(), 12), ("odd".to_string(), 16)]);
    // Exactly once: the committed output is the failure-free one.
    let committed = run.committed("out");
    assert_eq!(committed.len(), 12);
    assert_eq!(committed.last().unwrap(), &("even".to_string(), 42));
}
