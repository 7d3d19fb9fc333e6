//! The classroom library: each built-in lesson runs to its end, and the
//! facts its description and guided tour tell the class are asserted here, so a
//! change to the engine that would make a lesson say something false fails a test.

use std::collections::BTreeMap;

use engine::runner::{self, ModeOverride, RunOptions};
use engine::scenario::{OperatorKind, ScriptStep};
use engine::Scenario;
use serde_json::Value;

/// A finished run: its trace as JSON objects (`{"t", "type", …}`) and its summary
/// with checkpoint metadata (`lab run --trace --metadata`).
struct Run {
    events: Vec<Value>,
    summary: Value,
}

impl Run {
    fn of(s: &Scenario) -> Run {
        let opts = RunOptions {
            trace: true,
            metadata: true,
            ..Default::default()
        };
        let mut events = Vec::new();
        let world = runner::run(s, &opts, |e| {
            events.push(serde_json::to_value(e).expect("event serializes"))
        })
        .unwrap_or_else(|e| panic!("{}: {e}", s.name));
        let summary = serde_json::to_value(engine::summary::Summary::of(
            &world,
            engine::summary::Metadata::Included,
        ))
        .expect("summary serializes");
        Run { events, summary }
    }

    fn builtin(name: &str) -> Run {
        Run::of(&lesson(name))
    }

    fn checkpoints(&self) -> &[Value] {
        self.summary["checkpoints"].as_array().expect("checkpoints")
    }

    fn checkpoint(&self, id: u64) -> &Value {
        self.checkpoints()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("no checkpoint {id}"))
    }

    fn completed(&self) -> impl Iterator<Item = &Value> {
        self.checkpoints()
            .iter()
            .filter(|c| c["status"] == "completed")
    }

    fn failures(&self) -> &[Value] {
        self.summary["failures"].as_array().expect("failures")
    }

    /// Events of `kind`, optionally of one task.
    fn of_type<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = (usize, &'a Value)> + 'a {
        self.events
            .iter()
            .enumerate()
            .filter(move |(_, e)| e["type"] == kind)
    }

    /// Position in the trace of the first event matching `f`.
    fn index(&self, f: impl Fn(&Value) -> bool) -> usize {
        self.events.iter().position(f).expect("event present")
    }

    /// `(key, value)` records of sink `uid`: `committed`, or `uncommitted`.
    fn sink(&self, uid: &str, which: &str) -> Vec<(String, i64)> {
        self.summary["sinks"][uid][which]
            .as_array()
            .unwrap_or_else(|| panic!("sink {uid} has no {which}"))
            .iter()
            .map(|r| {
                (
                    r["key"].as_str().unwrap_or("").to_string(),
                    r["value"].as_i64().expect("value"),
                )
            })
            .collect()
    }
}

fn lesson(name: &str) -> Scenario {
    runner::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn without_crashes(s: &Scenario) -> Scenario {
    let mut f = s.clone();
    f.script.retain(|x| !matches!(x, ScriptStep::Crash { .. }));
    f
}

fn counts<T: Ord + Clone>(items: &[T]) -> BTreeMap<T, usize> {
    let mut m = BTreeMap::new();
    for i in items {
        *m.entry(i.clone()).or_insert(0) += 1;
    }
    m
}

/// Every lesson of the library is a built-in, so `lab list` shows it and the
/// page's picker offers it.
#[test]
fn the_library_is_built_in() {
    for name in [
        "pv-count",
        "barrier-alignment",
        "unaligned-backpressure",
        "at-least-once-duplicates",
        "odd-even-sum",
        "exactly-once-kafka",
        "exactly-once-kafka-plain",
        "restart-fixed-delay",
        "restart-failure-rate",
        "restart-none",
        "checkpoint-config",
        "checkpoint-config-strict",
        "savepoint-rescale",
        "savepoint-upgrade",
        "state-backend-rocksdb",
        "state-backend-hashmap",
        "jobmanager-storage-limit",
        "jobmanager-crash-jobmanager",
        "jobmanager-crash-filesystem",
        "broadcast-rules",
        "restart-exponential-delay",
        "backpressure-expired",
        "backpressure-aligned-timeout",
        "kafka-transaction-timeout",
        "kafka-transaction-timeout-long",
        "region-failover-forward",
        "region-failover-rebalance",
    ] {
        let s = lesson(name);
        assert_eq!(
            s.name, name,
            "the file's name field matches its built-in name"
        );
        let title = s
            .title
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: no title"));
        let desc = s
            .description
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: no description"));
        for (what, t) in [("title", title), ("description", desc)] {
            assert!(
                !t.zh.trim().is_empty() && !t.en.trim().is_empty(),
                "{name}: {what} needs zh and en"
            );
        }
    }
}

/// Lesson 1: `chk-N: offset (0, X), pv (app1, a) (app2, b)` with a + b = X in
/// every completed checkpoint — offsets and counts are snapshotted together.
#[test]
fn lesson1_pv_counts_add_up_to_the_offset() {
    let run = Run::builtin("pv-count");
    assert_eq!(run.summary["job_status"], "finished");
    let mut seen = 0;
    for c in run.completed() {
        let md = &c["metadata"];
        // The final checkpoint, after every subtask finished, stores no state.
        if md["kafka"]["fully_finished"] == true {
            assert_eq!(md["pv"]["fully_finished"], true, "{md}");
            continue;
        }
        let offset: i64 = md["kafka"]["offsets"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_i64().unwrap())
            .sum();
        let pv: i64 = md["pv"]["keyed"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_i64().unwrap())
            .sum();
        assert_eq!(
            pv, offset,
            "chk-{}: counts {} do not add up to the offset",
            c["id"], md["pv"]["keyed"]
        );
        assert!(
            md["pv"]["keyed"]["app1"].as_i64().unwrap() > 0
                && md["pv"]["keyed"]["app2"].as_i64().unwrap() > 0
        );
        seen += 1;
    }
    assert!(seen >= 2, "several checkpoints to compare");
    assert_eq!(
        run.checkpoint(1)["metadata"]["kafka"]["offsets"]["0"],
        20,
        "chk-1 after 20 page views"
    );
}

/// Lesson 2: the numbers barrier arrives first; 1, 2, 3 wait on the blocked
/// channel; the letters barrier completes the alignment; the snapshot comes
/// before 1, 2, 3 are processed.
#[test]
fn lesson2_alignment_holds_back_1_2_3_until_the_snapshot() {
    let run = Run::builtin("barrier-alignment");
    let at = |kind: &str, channel: u64| {
        run.index(|e| {
            e["type"] == kind
                && e["task"] == "merge#0"
                && e["checkpoint"] == 1
                && e["channel"] == channel
        })
    };
    let numbers_barrier = at("barrier_received", 0);
    let letters_barrier = at("barrier_received", 1);
    assert!(
        numbers_barrier < letters_barrier,
        "the numbers barrier arrives first"
    );
    let blocked = at("channel_blocked", 0);
    assert!(blocked > numbers_barrier && blocked < letters_barrier);
    let buffered: Vec<usize> = run
        .of_type("record_buffered")
        .filter(|(_, e)| e["task"] == "merge#0" && e["channel"] == 0)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(buffered.len(), 3, "records 1, 2, 3 are held back");
    assert!(buffered.iter().all(|&i| i > blocked && i < letters_barrier));
    let snapshot = run
        .index(|e| e["type"] == "snapshot_taken" && e["task"] == "merge#0" && e["checkpoint"] == 1);
    assert!(snapshot > letters_barrier);
    for v in [1, 2, 3] {
        let processed = run.index(|e| {
            e["type"] == "record_processed" && e["task"] == "merge#0" && e["value"] == v
        });
        assert!(
            processed > snapshot,
            "record {v} is processed after the snapshot"
        );
    }
    assert_eq!(run.checkpoint(1)["alignment_ms"], 45);
}

/// Lesson 3: under back-pressure the unaligned checkpoint completes sooner than the
/// aligned one and persists in-flight records; the aligned one persists none.
#[test]
fn lesson3_unaligned_is_faster_but_persists_in_flight_data() {
    let duration = |c: &Value| c["end_ms"].as_u64().unwrap() - c["trigger_ms"].as_u64().unwrap();
    let with_mode = |mode| {
        let mut s = lesson("unaligned-backpressure");
        runner::apply_options(
            &mut s,
            &RunOptions {
                mode: Some(mode),
                ..Default::default()
            },
        )
        .unwrap();
        Run::of(&s)
    };
    let unaligned = with_mode(ModeOverride::Unaligned);
    let aligned = with_mode(ModeOverride::Aligned);
    let (u, a) = (unaligned.checkpoint(1), aligned.checkpoint(1));
    assert_eq!(
        (u["status"].as_str(), a["status"].as_str()),
        (Some("completed"), Some("completed"))
    );
    assert!(
        duration(u) < duration(a),
        "unaligned {} ms vs aligned {} ms",
        duration(u),
        duration(a)
    );
    assert!(u["persisted_in_flight_records"].as_u64().unwrap() > 0);
    assert_eq!(a["persisted_in_flight_records"], 0);
    assert!(a["alignment_ms"].as_u64().unwrap() > u["alignment_ms"].as_u64().unwrap());
    // The built-in itself is the unaligned one.
    assert_eq!(
        Run::builtin("unaligned-backpressure").checkpoint(1)["persisted_in_flight_records"],
        u["persisted_in_flight_records"]
    );
}

/// Lesson 3 with an aligned-checkpoint timeout (docs/flink-semantics.md §2.5): the
/// barriers start aligned and queue behind the back-pressured data; each task that
/// has only heard of the checkpoint through an announcement, such as the
/// single-input `enrich#0`, prioritizes the announced barrier when its timer fires
/// (Flink: `AlternatingWaitingForFirstBarrier.alignedCheckpointTimeout` →
/// `prioritizeAllAnnouncements`). So checkpoints 1–3 complete as with pure unaligned
/// checkpoints, each barrier reaching every task within the timeout plus the
/// channel latencies on its way plus one record's processing.
#[test]
fn lesson3_aligned_timeout_overtakes_like_unaligned() {
    const TIMEOUT_MS: u64 = 30;
    let variant = |timeout: Option<u64>| {
        let mut s = lesson("unaligned-backpressure");
        let cp = s.checkpointing.as_mut().expect("checkpointing");
        cp.unaligned = true;
        cp.aligned_checkpoint_timeout_ms = timeout;
        cp.timeout_ms = 250;
        Run::of(&s)
    };
    let status = |run: &Run| -> Vec<(u64, String)> {
        (1..=3)
            .map(|id| {
                let c = run.checkpoint(id);
                (id, c["status"].as_str().unwrap().to_string())
            })
            .collect()
    };
    let timed = variant(Some(TIMEOUT_MS));
    let unaligned = variant(None);
    let completed: Vec<(u64, String)> = (1..=3).map(|id| (id, "completed".into())).collect();
    assert_eq!(status(&unaligned), completed);
    assert_eq!(status(&timed), completed);

    // Latency from the sources to each operator (5 ms a hop), and the slowest record.
    let hops = |task: &str| match task.split('#').next().unwrap() {
        "enrich" => 5,
        "slow-sum" => 10,
        _ => 15,
    };
    let one_record_ms = 20;
    for id in 1..=3u64 {
        let trigger = timed.checkpoint(id)["trigger_ms"].as_u64().unwrap();
        let mut tasks = BTreeMap::new();
        for e in timed.events.iter().filter(|e| {
            e["type"] == "barrier_received"
                && e["checkpoint"] == id
                && e["t"].as_u64() < Some(trigger + 250)
        }) {
            tasks
                .entry(e["task"].as_str().unwrap().to_string())
                .or_insert(e["t"].as_u64().unwrap());
        }
        let names = ["enrich#0", "enrich#1", "slow-sum#0", "slow-sum#1", "out#0"];
        assert_eq!(tasks.keys().map(String::as_str).collect::<Vec<_>>(), {
            let mut n = names.to_vec();
            n.sort();
            n
        });
        for (task, at) in &tasks {
            let bound = trigger + TIMEOUT_MS + 1 + hops(task) + one_record_ms;
            assert!(
                *at <= bound,
                "checkpoint {id}: {task} handled its first barrier at {at}, later than {bound}"
            );
        }
        // enrich#0 has one input: its barrier overtakes the queue the moment its
        // timer fires, at creation + T + 1.
        assert_eq!(
            tasks["enrich#0"],
            trigger + TIMEOUT_MS + 1,
            "checkpoint {id}"
        );
    }
}

/// Lesson 4: at-least-once, a crash, a restore — and the sink's output really has
/// duplicates (a key's running count written twice), while nothing is lost.
#[test]
fn lesson4_at_least_once_writes_duplicates() {
    let run = Run::builtin("at-least-once-duplicates");
    assert_eq!(run.failures().len(), 1);
    assert_eq!(run.failures()[0]["restored_from"], 2);
    let out = run.sink("out", "committed");
    let dups: Vec<_> = counts(&out).into_iter().filter(|(_, n)| *n > 1).collect();
    assert!(!dups.is_empty(), "no duplicate in {out:?}");
    assert!(out.len() > 80, "80 records in, {} written", out.len());
    // Nothing lost: every key's count reaches its failure-free final value.
    let truth =
        Run::of(&without_crashes(&lesson("at-least-once-duplicates"))).sink("out", "committed");
    assert_eq!(
        counts(&truth).values().max(),
        Some(&1),
        "the failure-free run has no duplicate"
    );
    let max = |v: &[(String, i64)]| {
        let mut m = BTreeMap::new();
        for (k, x) in v {
            let e = m.entry(k.clone()).or_insert(0);
            *e = (*e).max(*x);
        }
        m
    };
    assert_eq!(max(&out), max(&truth));
}

/// Lesson 5, the exact figures of the study notes: chk-1 holds offset 5, even 6,
/// odd 9; the source has emitted 7 when the job fails and the sum has not added
/// it; after the restore the sums are 6 and 9 and reading resumes at offset 5
/// (the next number is 6).
#[test]
fn lesson5_odd_even_sums_restore_to_6_and_9() {
    let run = Run::builtin("odd-even-sum");
    let md = &run.checkpoint(1)["metadata"];
    assert_eq!(run.checkpoint(1)["status"], "completed");
    assert_eq!(md["numbers"]["offsets"]["0"], 5);
    assert_eq!(md["sum"]["keyed"]["even"], 6);
    assert_eq!(md["sum"]["keyed"]["odd"], 9);

    let failed = run.index(|e| e["type"] == "task_failed");
    assert_eq!(run.events[failed]["task"], "sum#0");
    let emitted_before: Vec<i64> = run.events[..failed]
        .iter()
        .filter(|e| e["type"] == "record_emitted")
        .map(|e| e["value"].as_i64().unwrap())
        .collect();
    assert_eq!(
        emitted_before,
        (1..=7).collect::<Vec<_>>(),
        "the source has emitted 7 when the job fails"
    );
    let summed_before: Vec<i64> = run.events[..failed]
        .iter()
        .filter(|e| e["type"] == "record_processed" && e["task"] == "sum#0")
        .map(|e| e["value"].as_i64().unwrap())
        .collect();
    assert!(
        !summed_before.contains(&7),
        "the sum has not added 7: {summed_before:?}"
    );

    assert_eq!(run.failures()[0]["restored_from"], 1);
    let restored = run.index(|e| e["type"] == "state_restored" && e["task"] == "sum#0");
    assert_eq!(run.events[restored]["checkpoint"], 1);
    let first_read = run.events[restored..]
        .iter()
        .find(|e| e["type"] == "record_emitted")
        .unwrap();
    assert_eq!(
        (first_read["offset"].as_u64(), first_read["value"].as_i64()),
        (Some(5), Some(6))
    );
    // The restored sums are 6 and 9: the next outputs are 6 + 6 and 9 + 7.
    let after: Vec<(String, i64)> = run.events[restored..]
        .iter()
        .filter(|e| e["type"] == "record_written")
        .take(2)
        .map(|e| {
            (
                e["key"].as_str().unwrap().to_string(),
                e["value"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        after,
        vec![("even".to_string(), 12), ("odd".to_string(), 16)]
    );
    assert_eq!(run.summary["job_status"], "finished");
}

/// Lesson 6: the two-phase-commit sink pre-commits at the barrier, the job crashes
/// before the checkpoint completes, the pre-committed transaction is aborted on
/// restore; read_committed equals the failure-free run, read_uncommitted does not.
/// The plain sink under the same seed and crash duplicates.
#[test]
fn lesson6_two_phase_commit_is_exactly_once_for_read_committed() {
    let s = lesson("exactly-once-kafka");
    let run = Run::of(&s);
    let precommit = run.index(|e| e["type"] == "transaction_precommitted" && e["txn"] == 2);
    let crash = run.index(|e| e["type"] == "task_failed");
    assert!(precommit < crash, "the crash comes after the pre-commit");
    assert!(
        !run.events[..crash]
            .iter()
            .any(|e| e["type"] == "checkpoint_completed" && e["checkpoint"] == 2),
        "… and before checkpoint 2 completes"
    );
    assert_eq!(run.checkpoint(2)["reason"], "job_failover");
    assert!(
        run.events
            .iter()
            .any(|e| e["type"] == "transaction_aborted" && e["txn"] == 2),
        "txn 2 is aborted on restore"
    );
    assert!(!run
        .events
        .iter()
        .any(|e| e["type"] == "transaction_committed" && e["txn"] == 2));

    let truth = Run::of(&without_crashes(&s));
    assert_eq!(truth.failures().len(), 0);
    let committed = run.sink("kafka-out", "committed");
    assert_eq!(
        committed,
        truth.sink("kafka-out", "committed"),
        "read_committed = the failure-free run"
    );
    let uncommitted = run.sink("kafka-out", "uncommitted");
    assert!(!uncommitted.is_empty());
    let mut read_uncommitted = committed.clone();
    read_uncommitted.extend(uncommitted);
    assert_ne!(
        counts(&read_uncommitted),
        counts(&truth.sink("kafka-out", "committed")),
        "read_uncommitted sees aborted writes"
    );

    let plain = Run::builtin("exactly-once-kafka-plain");
    assert_eq!(
        plain.failures()[0]["at_ms"],
        run.failures()[0]["at_ms"],
        "the pair shares the crash"
    );
    let written = plain.sink("kafka-out", "committed");
    assert!(
        counts(&written).values().any(|&n| n > 1),
        "the plain sink duplicates"
    );
    assert_ne!(written, committed);
}

/// Lesson 7: the same four crashes; each strategy gives up at its own failure.
#[test]
fn lesson7_restart_strategies_give_up_at_the_exact_failure() {
    let restarts_then_gives_up = |name: &str, fatal_at: u64, restarts: usize| {
        let run = Run::builtin(name);
        assert_eq!(run.summary["job_status"], "failed", "{name}");
        let f = run.failures();
        assert_eq!(f.len(), restarts + 1, "{name}: {f:?}");
        assert!(
            f[..restarts].iter().all(|x| x["restarted_ms"].is_u64()),
            "{name}: the first {restarts} are restarted"
        );
        assert_eq!(f[restarts]["at_ms"], fatal_at, "{name}");
        assert!(
            f[restarts]["restarted_ms"].is_null(),
            "{name}: the last is fatal"
        );
        assert_eq!(run.summary["end_ms"], fatal_at, "{name}");
        run
    };
    let fixed = restarts_then_gives_up("restart-fixed-delay", 2800, 2);
    for f in &fixed.failures()[..2] {
        assert_eq!(
            f["restarted_ms"].as_u64().unwrap() - f["at_ms"].as_u64().unwrap(),
            200,
            "fixed delay 200 ms"
        );
    }
    restarts_then_gives_up("restart-failure-rate", 3300, 3);
    restarts_then_gives_up("restart-none", 500, 0);
    // The three share one fault schedule: only the strategy differs.
    let script = |n| lesson(n).script;
    assert_eq!(
        script("restart-fixed-delay"),
        script("restart-failure-rate")
    );
    assert_eq!(script("restart-fixed-delay"), script("restart-none"));
}

/// Lesson 9: timeout, min pause, max concurrent, tolerable failures.
#[test]
fn lesson9_a_checkpoint_expires_and_is_tolerated_once() {
    let s = lesson("checkpoint-config");
    let cfg = s.checkpointing.as_ref().unwrap();
    let (interval, timeout, min_pause) =
        (cfg.interval_ms.unwrap(), cfg.timeout_ms, cfg.min_pause_ms);
    let run = Run::of(&s);
    let (c2, c3, c4) = (run.checkpoint(2), run.checkpoint(3), run.checkpoint(4));
    let ms = |c: &Value, f: &str| c[f].as_u64().unwrap();
    assert_eq!(c2["status"], "completed");
    assert!(
        ms(c2, "end_ms") - ms(c2, "trigger_ms") > timeout * 9 / 10,
        "checkpoint 2 almost expires"
    );
    // Min pause: checkpoint 3 waits for 200 ms after checkpoint 2, later than the
    // periodic slot.
    assert_eq!(ms(c3, "trigger_ms"), ms(c2, "end_ms") + min_pause);
    assert!(ms(c3, "trigger_ms") > ms(c2, "trigger_ms") + interval);
    assert_eq!(
        (c3["status"].as_str(), c3["reason"].as_str()),
        (Some("aborted"), Some("expired"))
    );
    assert_eq!(ms(c3, "end_ms") - ms(c3, "trigger_ms"), timeout);
    assert_eq!(c4["status"], "completed");
    // Max concurrent 1: no two checkpoints are ever pending at once.
    let mut pending = 0;
    for e in &run.events {
        match e["type"].as_str() {
            Some("checkpoint_triggered") => {
                pending += 1;
                assert!(
                    pending <= cfg.max_concurrent,
                    "two pending checkpoints at {}",
                    e["t"]
                );
            }
            Some("checkpoint_completed") | Some("checkpoint_aborted") => pending -= 1,
            _ => {}
        }
    }
    assert!(run.failures().is_empty(), "one expiry is tolerated");
    assert_eq!(run.summary["job_status"], "finished");

    // With no tolerable failure the same expiry fails the job over, again and
    // again, until the restart strategy gives up.
    let strict = Run::builtin("checkpoint-config-strict");
    let f = strict.failures();
    assert_eq!(f[0]["at_ms"], c3["end_ms"]);
    assert!(
        f[0]["reason"]
            .as_str()
            .unwrap()
            .contains("tolerable failure threshold"),
        "{}",
        f[0]
    );
    assert_eq!(f[0]["restored_from"], 2);
    assert!(f.len() > 1 && f.iter().all(|x| x["reason"] == f[0]["reason"]));
    assert_eq!(strict.summary["job_status"], "failed");
}

/// The figures the guided tours (`assets/tours/*.json`) quote, so that a change to
/// the engine that makes a narration false fails here, naming the lesson.
#[test]
fn figures_quoted_by_the_tours_hold() {
    let pv = Run::builtin("pv-count");
    for (id, offset, app1, app2) in [(1, 20, 11, 9), (2, 40, 22, 18)] {
        let md = &pv.checkpoint(id)["metadata"];
        assert_eq!(md["kafka"]["offsets"]["0"], offset, "pv-count chk-{id}");
        assert_eq!(
            (
                md["pv"]["keyed"]["app1"].as_i64(),
                md["pv"]["keyed"]["app2"].as_i64()
            ),
            (Some(app1), Some(app2)),
            "pv-count chk-{id}"
        );
    }

    let duration = |c: &Value| c["end_ms"].as_u64().unwrap() - c["trigger_ms"].as_u64().unwrap();
    let unaligned = Run::builtin("unaligned-backpressure");
    assert_eq!(
        (
            duration(unaligned.checkpoint(1)),
            unaligned.checkpoint(1)["persisted_in_flight_records"].as_u64()
        ),
        (20, Some(39))
    );
    let mut s = lesson("unaligned-backpressure");
    runner::apply_options(
        &mut s,
        &RunOptions {
            mode: Some(ModeOverride::Aligned),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(
        duration(Run::of(&s).checkpoint(1)),
        675,
        "unaligned-backpressure, aligned"
    );

    let alo = Run::builtin("at-least-once-duplicates");
    assert_eq!(alo.checkpoint(2)["end_ms"], 1020);
    assert_eq!(alo.failures()[0]["at_ms"], 1320);

    let eo = Run::builtin("exactly-once-kafka");
    assert_eq!(
        (
            eo.failures()[0]["at_ms"].as_u64(),
            eo.failures()[0]["task"].as_str()
        ),
        (Some(1070), Some("count#0"))
    );

    let cc = Run::builtin("checkpoint-config");
    assert_eq!(
        (
            duration(cc.checkpoint(2)),
            cc.checkpoint(2)["end_ms"].as_u64()
        ),
        (385, Some(1385))
    );
    assert_eq!(cc.checkpoint(3)["trigger_ms"], 1585);

    let fixed = Run::builtin("restart-fixed-delay");
    let at: Vec<u64> = fixed
        .failures()
        .iter()
        .map(|f| f["at_ms"].as_u64().unwrap())
        .collect();
    assert_eq!(at, vec![500, 2300, 2800]);
}

/// Which keys each subtask of `op` processed, as `task -> keys`.
fn keys_by_task(run: &Run, op: &str) -> BTreeMap<String, Vec<String>> {
    let mut m: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (_, e) in run.of_type("record_processed") {
        let task = e["task"].as_str().unwrap();
        if task.split('#').next() == Some(op) {
            let keys = m.entry(task.to_string()).or_default();
            let key = e["key"].as_str().unwrap().to_string();
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    for keys in m.values_mut() {
        keys.sort();
    }
    m
}

/// Committed values of `key` in sink `uid`, in order.
fn committed_values(run: &Run, uid: &str, key: &str) -> Vec<i64> {
    run.sink(uid, "committed")
        .into_iter()
        .filter(|(k, _)| k == key)
        .map(|(_, v)| v)
        .collect()
}

/// The first event of `kind` (with these extra fields), as `(index, event)`.
fn first<'a>(run: &'a Run, kind: &'a str, fields: &[(&str, Value)]) -> &'a Value {
    run.of_type(kind)
        .map(|(_, e)| e)
        .find(|e| fields.iter().all(|(k, v)| &e[*k] == v))
        .unwrap_or_else(|| panic!("no {kind} {fields:?}"))
}

/// Lesson 8 tours (savepoint-rescale, savepoint-upgrade): the savepoint's id and
/// content, where the keys and partitions go, and how the output continues.
#[test]
fn lesson8_savepoint_tours_quote_real_figures() {
    let rescale = lesson("savepoint-rescale");
    let earlier = rescale
        .restore
        .as_ref()
        .expect("restores")
        .from
        .as_ref()
        .clone();
    let v1 = Run::of(&earlier);
    let sp = v1.checkpoint(3);
    assert_eq!(
        (
            sp["kind"].as_str(),
            sp["status"].as_str(),
            sp["trigger_ms"].as_u64()
        ),
        (Some("savepoint"), Some("completed"), Some(1500))
    );
    let md = &sp["metadata"];
    for (p, o) in [("0", 37), ("1", 33), ("2", 30), ("3", 27)] {
        assert_eq!(md["kafka"]["offsets"][p], o, "savepoint 3, partition {p}");
    }
    for (k, n) in [("app1", 43), ("app2", 43), ("app3", 41)] {
        assert_eq!(md["pv"]["keyed"][k], n, "savepoint 3, {k}");
    }
    // Version 1: kafka#0 reads [0, 2], kafka#1 [1, 3]; app1 and app3 on pv#0, app2 on pv#1.
    let mut parts: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for (_, e) in v1.of_type("record_emitted") {
        let v = parts
            .entry(e["task"].as_str().unwrap().to_string())
            .or_default();
        let p = e["partition"].as_u64().unwrap();
        if !v.contains(&p) {
            v.push(p);
        }
    }
    assert_eq!(parts["kafka#0"], vec![0, 2]);
    assert_eq!(parts["kafka#1"], vec![1, 3]);
    let v1_keys = keys_by_task(&v1, "pv");
    assert_eq!(v1_keys["pv#0"], vec!["app1", "app3"]);
    assert_eq!(v1_keys["pv#1"], vec!["app2"]);

    let run = Run::of(&rescale);
    // The restored run starts at 1520 ms with savepoint 3; its checkpoints count on from 4.
    let e0 = &run.events[0];
    assert_eq!(
        (
            e0["type"].as_str(),
            e0["t"].as_u64(),
            e0["checkpoint"].as_u64()
        ),
        (Some("state_restored"), Some(1520), Some(3))
    );
    assert_eq!(run.checkpoints()[0]["id"], 4);
    // 128 key groups; app2's lies in the third range at parallelism 3, so pv#2
    // counts it; app1 and app3 stay on pv#0; pv#1 gets none.
    // The document sets no max parallelism: pv derives 128 from its parallelism,
    // the value savepoint 3 was taken with.
    assert_eq!(rescale.job.max_parallelism, None);
    let world = engine::World::new(&rescale, rescale.seed).expect("restores");
    let pv = rescale.job.operator_index("pv").expect("pv");
    assert_eq!(world.setup().max_parallelism[pv], 128);
    let kg = engine::keygroup::assign_to_key_group("app2", 128);
    assert!(engine::keygroup::key_group_range(128, 3, 2).contains(&kg));
    let keys = keys_by_task(&run, "pv");
    assert_eq!(keys["pv#0"], vec!["app1", "app3"]);
    assert_eq!(keys["pv#2"], vec!["app2"]);
    assert!(!keys.contains_key("pv#1"), "pv#1 gets no key: {keys:?}");
    let c4 = run.checkpoint(4);
    assert_eq!(c4["end_ms"], 2040);
    for (p, o) in [("0", 50), ("1", 44), ("2", 40), ("3", 36)] {
        assert_eq!(
            c4["metadata"]["kafka"]["offsets"][p], o,
            "chk-4, partition {p}"
        );
    }
    for (k, n) in [("app1", 55), ("app2", 60), ("app3", 55)] {
        assert_eq!(c4["metadata"]["pv"]["keyed"][k], n, "chk-4, {k}");
    }
    assert_eq!(
        committed_values(&run, "out", "app2"),
        (1..=111).collect::<Vec<i64>>(),
        "no gap, no repeat"
    );

    // savepoint-upgrade restores the same savepoint of the same version 1.
    assert_eq!(
        lesson("savepoint-upgrade").restore.unwrap().from.as_ref(),
        &earlier
    );
    let upgrade = Run::builtin("savepoint-upgrade");
    let restored: Vec<(&str, Option<u64>)> = upgrade
        .of_type("state_restored")
        .map(|(_, e)| (e["task"].as_str().unwrap(), e["checkpoint"].as_u64()))
        .collect();
    assert!(
        restored.contains(&("kafka#0", Some(3))) && restored.contains(&("pv-v2#0", None)),
        "{restored:?}"
    );
    let e = first(&upgrade, "record_emitted", &[("partition", 0.into())]);
    assert_eq!(e["offset"], 37, "partition 0 resumes at offset 37");
    let w = first(&upgrade, "record_written", &[]);
    assert_eq!(
        (w["key"].as_str(), w["value"].as_i64()),
        (Some("app2"), Some(1))
    );
    let app2 = committed_values(&upgrade, "out", "app2");
    assert_eq!(
        &app2[..46],
        &[(1..=43).collect::<Vec<i64>>(), vec![1, 3, 6]].concat()[..]
    );
}

/// Broadcast state tour: the rules reach all three subtasks at once, every
/// subtask checkpoints its copy, and the restore gives them back.
#[test]
fn broadcast_rules_tour_quotes_real_figures() {
    let run = Run::builtin("broadcast-rules");
    for task in ["gate#0", "gate#1", "gate#2"] {
        for (rule, at) in [("min", 2020), ("max", 5020)] {
            let e = first(
                &run,
                "record_processed",
                &[("task", task.into()), ("key", rule.into())],
            );
            assert_eq!(e["t"], at, "{task} gets {rule}");
        }
    }
    let rules = |id: u64| -> Vec<Value> {
        run.checkpoint(id)["metadata"]["gate"]["operator"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["rules"].clone())
            .collect()
    };
    assert_eq!(rules(2), vec![serde_json::json!({"min": 50}); 3]);
    assert_eq!(rules(6), vec![serde_json::json!({"min": 50, "max": 90}); 3]);
    let f = &run.failures()[0];
    assert_eq!(
        (
            f["at_ms"].as_u64(),
            f["task"].as_str(),
            f["restored_from"].as_u64()
        ),
        (Some(6500), Some("gate#2"), Some(6))
    );
    assert_eq!(
        first(&run, "state_restored", &[("task", "gate#2".into())])["t"],
        7000
    );
    assert_eq!(
        first(&run, "task_finished", &[("task", "rules#0".into())])["t"],
        5000,
        "the rules stream ends at 5 s"
    );
    let written: Vec<(u64, i64)> = run
        .of_type("record_written")
        .map(|(_, e)| (e["t"].as_u64().unwrap(), e["value"].as_i64().unwrap()))
        .collect();
    assert!(
        written.contains(&(340, 30)) && written.contains(&(740, 28)),
        "values below 50 pass before the rule"
    );
    let after: Vec<i64> = written
        .iter()
        .filter(|(t, _)| *t > 7000)
        .map(|(_, v)| *v)
        .collect();
    assert_eq!(after.len(), 15);
    assert_eq!(after.iter().min(), Some(&53));
    assert!(after.iter().all(|v| (50..=90).contains(v)), "{after:?}");
}

/// State backend twins: the same full sizes; rocksdb uploads the increments,
/// hashmap everything.
#[test]
fn state_backend_tours_quote_real_figures() {
    let full = [418, 550, 660, 682, 704, 704, 726];
    let sizes = |name: &str| -> (Vec<u64>, Vec<u64>) {
        let run = Run::builtin(name);
        assert_eq!(run.checkpoint(1)["end_ms"], 1020);
        (1..=7)
            .map(|id| {
                (
                    run.checkpoint(id)["state_bytes"].as_u64().unwrap(),
                    run.checkpoint(id)["uploaded_bytes"].as_u64().unwrap(),
                )
            })
            .unzip()
    };
    let (rocks_full, rocks_up) = sizes("state-backend-rocksdb");
    assert_eq!(rocks_full, full);
    assert_eq!(rocks_up, vec![418, 330, 308, 308, 330, 242, 330]);
    let (heap_full, heap_up) = sizes("state-backend-hashmap");
    assert_eq!(heap_full, full);
    assert_eq!(heap_up, full);
}

/// jobmanager-storage-limit: the declines name both sizes; two are tolerated; the
/// job fails over twice back to checkpoint 2.
#[test]
fn jobmanager_storage_limit_tour_quotes_real_figures() {
    let run = Run::builtin("jobmanager-storage-limit");
    assert_eq!(
        (
            run.checkpoint(1)["state_bytes"].as_u64(),
            run.checkpoint(2)["state_bytes"].as_u64()
        ),
        (Some(268), Some(378))
    );
    let d = first(&run, "checkpoint_declined", &[("checkpoint", 3.into())]);
    assert_eq!(
        (d["t"].as_u64(), d["task"].as_str()),
        (Some(1510), Some("pv#0"))
    );
    assert!(
        d["reason"]
            .as_str()
            .unwrap()
            .contains("Size=220, maxSize=200"),
        "{d}"
    );
    for (id, size) in [(4, 242), (5, 264)] {
        assert!(
            run.checkpoint(id)["reason"]
                .as_str()
                .unwrap()
                .contains(&format!("Size={size}, maxSize=200")),
            "chk-{id}"
        );
    }
    let f: Vec<(u64, u64, u64)> = run
        .failures()
        .iter()
        .map(|f| {
            (
                f["at_ms"].as_u64().unwrap(),
                f["restarted_ms"].as_u64().unwrap(),
                f["restored_from"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(f, vec![(2510, 3010, 2), (4520, 5020, 2)]);
    assert!(run.failures()[0]["reason"]
        .as_str()
        .unwrap()
        .contains("Exceeded checkpoint tolerable failure threshold"));
    for id in [6, 7, 8] {
        assert_eq!(run.checkpoint(id)["status"], "aborted", "chk-{id}");
    }
}

/// JobManager crash twins: jobmanager storage loses checkpoint 3 and every
/// committed count before it appears twice; filesystem storage restores it.
#[test]
fn jobmanager_crash_tours_quote_real_figures() {
    for (name, lost, counts) in [
        (
            "jobmanager-crash-jobmanager",
            true,
            [("app1", 40), ("app2", 67), ("app3", 53)],
        ),
        (
            "jobmanager-crash-filesystem",
            false,
            [("app1", 24), ("app2", 44), ("app3", 32)],
        ),
    ] {
        let run = Run::builtin(name);
        let c3 = run.checkpoint(3);
        assert_eq!(c3["end_ms"], 1020 + 2000, "{name}");
        assert_eq!(c3["metadata"]["kafka"]["offsets"]["0"], 60, "{name}");
        for (k, n) in [("app1", 16), ("app2", 23), ("app3", 21)] {
            assert_eq!(c3["metadata"]["pv"]["keyed"][k], n, "{name} chk-3 {k}");
        }
        let jm = first(&run, "jobmanager_failed", &[]);
        assert_eq!(
            (jm["t"].as_u64(), jm["delay_ms"].as_u64()),
            (Some(3500), Some(1000)),
            "{name}"
        );
        let expect_lost: Vec<Value> = if lost { vec![3.into()] } else { vec![] };
        assert_eq!(
            jm["checkpoints_lost"].as_array().unwrap(),
            &expect_lost,
            "{name}"
        );
        let r = first(&run, "state_restored", &[("task", "kafka#0".into())]);
        assert_eq!(
            (r["t"].as_u64(), r["checkpoint"].as_u64()),
            (Some(4500), if lost { None } else { Some(3) }),
            "{name}"
        );
        let after: Vec<u64> = run
            .of_type("record_emitted")
            .filter(|(_, e)| e["t"].as_u64() >= Some(4500))
            .map(|(_, e)| e["offset"].as_u64().unwrap())
            .collect();
        assert_eq!(
            after.first(),
            Some(&if lost { 0 } else { 60 }),
            "{name}: where the source resumes"
        );
        let mut dups = 0;
        for (k, n) in counts {
            let values = committed_values(&run, "out", k);
            assert_eq!(values.len(), n, "{name} {k}");
            dups += values.len() - counts_of(&values);
        }
        assert_eq!(
            dups,
            if lost { 60 } else { 0 },
            "{name}: duplicated commits"
        );
    }
}

fn counts_of(values: &[i64]) -> usize {
    counts(values).len()
}

/// The state-types tour: what checkpoints 1–3 hold and upload, the crash and the
/// restore, and how many values pass the TTL de-duplication.
#[test]
fn state_types_tour_quotes_real_figures() {
    let run = Run::builtin("state-types");
    let c1 = run.checkpoint(1);
    assert_eq!(
        (
            c1["end_ms"].as_u64(),
            c1["state_bytes"].as_u64(),
            c1["uploaded_bytes"].as_u64()
        ),
        (Some(610), Some(500), Some(500))
    );
    let states = &c1["metadata"]["window"]["states"];
    assert_eq!(
        states["contents"],
        serde_json::json!({"app1": [32], "app2": [34], "app3": [59]})
    );
    assert_eq!(
        states["window"],
        serde_json::json!({"app1": 500, "app2": 500, "app3": 500})
    );
    let c2 = run.checkpoint(2);
    assert_eq!(
        (
            c2["end_ms"].as_u64(),
            c2["state_bytes"].as_u64(),
            c2["uploaded_bytes"].as_u64()
        ),
        (Some(1210), Some(640), Some(540))
    );
    let contents = &c2["metadata"]["window"]["states"]["contents"];
    assert_eq!(
        (contents["app1"].clone(), contents["app3"].clone()),
        (serde_json::json!([20, 8, 42, 16]), serde_json::json!([68]))
    );
    assert_eq!(
        keys_by_task(&run, "window")["window#0"],
        vec!["app1".to_string(), "app3".to_string()]
    );
    let f = &run.failures()[0];
    assert_eq!(
        (
            f["at_ms"].as_u64(),
            f["task"].as_str(),
            f["restarted_ms"].as_u64(),
            f["restored_from"].as_u64()
        ),
        (Some(1700), Some("window#0"), Some(2000), Some(2))
    );
    let c3 = run.checkpoint(3);
    assert_eq!(
        (
            c3["end_ms"].as_u64(),
            c3["state_bytes"].as_u64(),
            c3["uploaded_bytes"].as_u64()
        ),
        (Some(2610), Some(1060), Some(1060))
    );
    assert_eq!(run.summary["end_ms"].as_u64(), Some(3210));
    assert_eq!(run.sink("unique", "committed").len(), 76);
}

/// Flink forwards the barrier before the synchronous snapshot
/// (`SubtaskCheckpointCoordinatorImpl.checkpointState`: broadcast, then
/// `takeSnapshotSync`). In every lesson, as written and in each mode, a task with
/// inputs and outputs traces `barrier_forwarded` before its `snapshot_taken` of the
/// same checkpoint, and only such a task does: a source injects, a sink forwards
/// nothing.
#[test]
fn every_task_forwards_the_barrier_before_its_snapshot() {
    let modes = [
        None,
        Some(ModeOverride::Aligned),
        Some(ModeOverride::Unaligned),
        Some(ModeOverride::AtLeastOnce),
    ];
    let mut forwarded_somewhere = 0;
    for (name, _) in runner::BUILTINS {
        for mode in modes {
            let mut s = lesson(name);
            let opts = RunOptions {
                mode,
                ..Default::default()
            };
            if runner::apply_options(&mut s, &opts).is_err() {
                continue; // no checkpointing to override
            }
            // (is a source, forwards): a task with inputs and outputs forwards.
            let op = |task: &str| {
                let uid = task.split('#').next().expect("uid#index");
                let o = s.job.operators.iter().find(|o| o.uid == uid);
                let source = o.is_some_and(|o| o.kind == OperatorKind::Source);
                (source, !source && s.job.edges.iter().any(|e| e.from == uid))
            };
            let run = Run::of(&s);
            let key = |e: &Value| {
                (
                    e["task"].as_str().unwrap().to_string(),
                    e["checkpoint"].as_u64().unwrap(),
                )
            };
            let mut injected = std::collections::BTreeSet::new();
            let mut forwarded = std::collections::BTreeSet::new();
            let mut snapshots = std::collections::BTreeSet::new();
            for e in &run.events {
                let what = format!("{name} ({mode:?}): {e}");
                match e["type"].as_str().unwrap() {
                    "barrier_injected" => {
                        injected.insert(key(e));
                    }
                    "barrier_forwarded" => {
                        let (_, forwards) = op(e["task"].as_str().unwrap());
                        assert!(
                            forwards,
                            "{what}: only a task with inputs and outputs forwards"
                        );
                        assert!(forwarded.insert(key(e)), "{what}: forwarded twice");
                        assert!(!snapshots.contains(&key(e)), "{what}: after its snapshot");
                    }
                    "snapshot_taken" => {
                        let (source, forwards) = op(e["task"].as_str().unwrap());
                        if source {
                            assert!(injected.contains(&key(e)), "{what}: not injected first");
                        } else if forwards {
                            assert!(forwarded.contains(&key(e)), "{what}: not forwarded first");
                        }
                        snapshots.insert(key(e));
                    }
                    _ => {}
                }
            }
            assert!(
                forwarded.is_subset(&snapshots),
                "{name} ({mode:?}): forwarded without a snapshot: {:?}",
                forwarded.difference(&snapshots).collect::<Vec<_>>()
            );
            forwarded_somewhere += forwarded.len();
        }
    }
    assert!(forwarded_somewhere > 0);
}

/// checkpoint-vs-savepoint: the savepoint's and the checkpoints' figures, the
/// savepoint committing nothing until checkpoint 4, and what the cancel leaves —
/// chk-5 retained (retain_on_cancellation) and the savepoint; nothing discarded.
#[test]
fn checkpoint_vs_savepoint_tour_quotes_real_figures() {
    let run = Run::builtin("checkpoint-vs-savepoint");
    let fig = |id: u64| {
        let c = run.checkpoint(id);
        (
            c["kind"].as_str().unwrap().to_string(),
            c["end_ms"].as_u64().unwrap(),
            c["metadata"]["kafka"]["offsets"]["0"].as_u64().unwrap(),
            c["metadata"]["pv"]["keyed"]["app1"].as_u64().unwrap(),
            c["metadata"]["pv"]["keyed"]["app2"].as_u64().unwrap(),
        )
    };
    assert_eq!(fig(1), ("checkpoint".into(), 520, 10, 3, 7));
    assert_eq!(fig(2), ("checkpoint".into(), 1020, 20, 10, 10));
    assert_eq!(fig(3), ("savepoint".into(), 1320, 26, 13, 13));
    assert_eq!(fig(5), ("checkpoint".into(), 2020, 40, 20, 20));
    // The savepoint's transaction 3 is committed only by checkpoint 4.
    let commit3 = first(&run, "transaction_committed", &[("txn", 3.into())]);
    assert_eq!(commit3["t"], 1520);
    assert_eq!(commit3["checkpoint"], 3);
    let c4 = run.index(|e| e["type"] == "checkpoint_completed" && e["checkpoint"] == 4);
    let sp3 = run.index(|e| e["type"] == "checkpoint_completed" && e["checkpoint"] == 3);
    let c3 = run.index(|e| e == commit3);
    assert!(
        sp3 < c4 && c4 < c3,
        "committed after checkpoint 4, not at the savepoint"
    );
    // The cancel: the job is canceled, the open transaction 6 aborted, and no
    // checkpoint is discarded — chk-5 stays because of the retention setting.
    assert_eq!(run.summary["job_status"], "canceled");
    assert_eq!(run.summary["end_ms"], 2300);
    let abort = first(&run, "transaction_aborted", &[("txn", 6.into())]);
    assert_eq!(abort["t"], 2300);
    assert_eq!(run.of_type("checkpoints_discarded").count(), 0);
    // Under Flink's default retention the same cancel deletes the checkpoints.
    let mut default = lesson("checkpoint-vs-savepoint");
    default.checkpointing.as_mut().unwrap().externalized = Default::default();
    let plain = Run::of(&default);
    let (_, discarded) = plain
        .of_type("checkpoints_discarded")
        .next()
        .expect("the default retention deletes on cancel");
    assert_eq!(discarded["status"], "canceled");
    assert_eq!(discarded["checkpoints"], serde_json::json!([5]));
}

/// The alignment pair: the same crash after checkpoint 1; aligned, the web records
/// after the barrier (offsets 16–19) queue and are counted after the snapshot;
/// at-least-once they are counted before it, and the transactional sink commits
/// over-counted values (84 counts for 80 records), never a duplicate write.
#[test]
fn alignment_isolated_pair_shows_over_counted_values() {
    let aligned = Run::builtin("alignment-isolated");
    let alo = Run::builtin("alignment-isolated-at-least-once");
    for run in [&aligned, &alo] {
        let f = &run.failures()[0];
        assert_eq!(
            (
                f["at_ms"].as_u64(),
                f["restored_from"].as_u64(),
                f["restarted_ms"].as_u64()
            ),
            (Some(800), Some(1), Some(1100))
        );
        let c1 = run.checkpoint(1);
        assert_eq!(
            (c1["end_ms"].as_u64(), c1["alignment_ms"].as_u64()),
            (Some(630), Some(115))
        );
        assert_eq!(c1["metadata"]["web"]["offsets"]["0"], 16);
        assert_eq!(c1["metadata"]["app"]["offsets"]["0"], 10);
        let web_barrier = first(
            run,
            "barrier_received",
            &[
                ("task", "count#0".into()),
                ("channel", 0.into()),
                ("checkpoint", 1.into()),
            ],
        );
        assert_eq!(web_barrier["t"], 505);
        let snap = first(
            run,
            "snapshot_taken",
            &[("task", "count#0".into()), ("checkpoint", 1.into())],
        );
        assert_eq!(snap["t"], 620);
    }
    // Aligned: four web records queue, and are processed after the snapshot.
    assert_eq!(aligned.of_type("record_buffered").count(), 4);
    assert_eq!(alo.of_type("record_buffered").count(), 0);
    let web_after_barrier = |run: &Run| -> Vec<u64> {
        let snap = run.index(|e| {
            e["type"] == "snapshot_taken" && e["task"] == "count#0" && e["checkpoint"] == 1
        });
        run.events[..snap]
            .iter()
            .filter(|e| {
                e["type"] == "record_processed"
                    && e["task"] == "count#0"
                    && e["origin"]["source"] == 0
            })
            .filter_map(|e| e["origin"]["offset"].as_u64())
            .filter(|o| *o >= 16)
            .collect()
    };
    assert_eq!(web_after_barrier(&aligned), Vec::<u64>::new());
    assert_eq!(web_after_barrier(&alo), vec![16, 17, 18, 19]);
    let keyed = |run: &Run| run.checkpoint(1)["metadata"]["count"]["keyed"].clone();
    assert_eq!(keyed(&aligned), serde_json::json!({"app1": 13, "app2": 13}));
    assert_eq!(keyed(&alo), serde_json::json!({"app1": 16, "app2": 14}));
    // The final committed count per app: the input's records, or more.
    let last = |run: &Run, key: &str| *committed_values(run, "out", key).last().unwrap();
    let records: usize = 80;
    assert_eq!((last(&aligned, "app1"), last(&aligned, "app2")), (42, 38));
    assert_eq!((last(&alo, "app1"), last(&alo, "app2")), (45, 39));
    assert_eq!(
        (last(&aligned, "app1") + last(&aligned, "app2")) as usize,
        records
    );
    assert_eq!(aligned.summary["end_ms"], 1630);
    // The transactional sink writes each committed value once: no value repeats.
    for key in ["app1", "app2"] {
        let values = committed_values(&alo, "out", key);
        assert_eq!(
            counts_of(&values),
            values.len(),
            "{key}: a value written twice"
        );
    }
}

/// state-reduce-aggregate: the AggregatingState checkpoints its accumulator, the
/// ReducingState its value; app3's maximum expires after 600 ms of silence and
/// starts again at 20; the crash restores checkpoint 3.
#[test]
fn state_reduce_aggregate_tour_quotes_real_figures() {
    let run = Run::builtin("state-reduce-aggregate");
    let c1 = run.checkpoint(1);
    assert_eq!(c1["end_ms"], 510);
    assert_eq!(
        c1["metadata"]["avg"]["states"]["average"]["app3"],
        serde_json::json!({"count": 2, "sum": 130})
    );
    assert_eq!(
        c1["metadata"]["max"]["states"]["reduce"],
        serde_json::json!({"app1": 99, "app2": 68, "app3": 90})
    );
    let c3 = run.checkpoint(3);
    assert_eq!(c3["end_ms"], 1510);
    // Expired at 515 + 600 ms, still in the checkpoint until read.
    assert_eq!(c3["metadata"]["max"]["states"]["reduce"]["app3"], 90);
    assert_eq!(
        c3["metadata"]["avg"]["states"]["average"]["app3"],
        serde_json::json!({"count": 3, "sum": 200})
    );
    let fourth = run
        .of_type("record_processed")
        .filter(|(_, e)| e["task"] == "max#0" && e["key"] == "app3")
        .nth(3)
        .expect("app3's fourth record at max")
        .1;
    assert_eq!(
        (fourth["t"].as_u64(), fourth["value"].as_i64()),
        (Some(1515), Some(20))
    );
    let f = &run.failures()[0];
    assert_eq!(
        (
            f["at_ms"].as_u64(),
            f["task"].as_str(),
            f["restarted_ms"].as_u64(),
            f["restored_from"].as_u64()
        ),
        (Some(1800), Some("avg#0"), Some(2100), Some(3))
    );
    assert_eq!(
        committed_values(&run, "maxima", "app3"),
        vec![90, 90, 90, 20, 35, 60]
    );
    assert_eq!(
        committed_values(&run, "averages", "app3"),
        vec![90, 65, 66, 55, 51, 52]
    );
    // chk-4 is taken after avg finished: it stores avg as fully finished, no state.
    let c4 = run.checkpoint(4);
    assert_eq!(
        c4["metadata"]["avg"],
        serde_json::json!({"fully_finished": true})
    );
    assert_eq!(run.summary["end_ms"], 2410);
    // Without TTL the maximum would not start again.
    let mut no_ttl = lesson("state-reduce-aggregate");
    for op in &mut no_ttl.job.operators {
        op.ttl = None;
    }
    assert_eq!(
        committed_values(&Run::of(&no_ttl), "maxima", "app3"),
        vec![90, 90, 90, 90, 90, 90]
    );
}

/// two-phase-commit: both participants pre-commit at the barrier and commit on
/// completion; a participant's crash aborts the round for both; the coordinator's
/// crash during checkpoint 4 restores checkpoint 3 and aborts checkpoint 4's
/// pre-committed transactions; each sink commits its 60 records once.
#[test]
fn two_phase_commit_tour_quotes_real_figures() {
    let run = Run::builtin("two-phase-commit");
    for (sink, txn) in [("orders#0", 1), ("audit#0", 2)] {
        let pre = first(
            &run,
            "transaction_precommitted",
            &[("task", sink.into()), ("txn", txn.into())],
        );
        assert_eq!(
            (pre["t"].as_u64(), pre["checkpoint"].as_u64()),
            (Some(520), Some(1))
        );
        let commit = first(
            &run,
            "transaction_committed",
            &[("task", sink.into()), ("txn", txn.into())],
        );
        assert_eq!(commit["t"], 620);
    }
    assert_eq!(run.checkpoint(1)["end_ms"], 620);
    assert_eq!(run.checkpoint(2)["status"], "aborted");
    assert_eq!(run.checkpoint(4)["status"], "aborted");
    let f = run.failures();
    assert_eq!(
        (
            f[0]["at_ms"].as_u64(),
            f[0]["task"].as_str(),
            f[0]["restored_from"].as_u64(),
            f[0]["restarted_ms"].as_u64()
        ),
        (Some(1070), Some("audit#0"), Some(1), Some(1370))
    );
    assert_eq!(
        (
            f[1]["at_ms"].as_u64(),
            f[1]["task"].as_str(),
            f[1]["restored_from"].as_u64(),
            f[1]["restarted_ms"].as_u64()
        ),
        (Some(2420), None, Some(3), Some(3420))
    );
    // Checkpoint 2's and checkpoint 4's pre-committed transactions: aborted on restore.
    for (sink, txn, checkpoint, at) in [
        ("orders#0", 3, 2, 1370),
        ("audit#0", 4, 2, 1370),
        ("orders#0", 9, 4, 3420),
        ("audit#0", 10, 4, 3420),
    ] {
        let pre = first(
            &run,
            "transaction_precommitted",
            &[("task", sink.into()), ("txn", txn.into())],
        );
        assert_eq!(pre["checkpoint"], checkpoint);
        let abort = first(
            &run,
            "transaction_aborted",
            &[("task", sink.into()), ("txn", txn.into())],
        );
        assert_eq!(abort["t"], at, "{sink} T{txn}");
        assert!(
            !run.events
                .iter()
                .any(|e| e["type"] == "transaction_committed" && e["txn"] == txn),
            "T{txn} never commits"
        );
    }
    assert_eq!(first(&run, "jobmanager_failed", &[])["t"], 2420);
    assert_eq!(run.summary["end_ms"], 3566);
    for sink in ["orders", "audit"] {
        let committed = run.sink(sink, "committed");
        assert_eq!(committed.len(), 60, "{sink}");
        assert_eq!(
            counts(&committed).len(),
            60,
            "{sink}: a record committed twice"
        );
    }
}

/// Time of the first event matching `kind` and `fields`.
fn t_of(run: &Run, kind: &str, fields: &[(&str, Value)]) -> u64 {
    first(run, kind, fields)["t"].as_u64().expect("t")
}

/// A pitfall: aligned barriers queue behind back-pressure until the checkpoint
/// timeout, each expiry moves the tolerable-failure counter, the second in a row
/// fails the job over (from scratch: nothing ever completed) and the restart does
/// not help. The twin, with the aligned-checkpoint timeout, completes every one.
#[test]
fn pitfall_checkpoints_expire_under_backpressure() {
    let s = lesson("backpressure-expired");
    let cfg = s.checkpointing.as_ref().unwrap();
    let (timeout, tolerable) = (cfg.timeout_ms, cfg.tolerable_failures);
    let run = Run::of(&s);
    let c1 = run.checkpoint(1);
    let trigger = c1["trigger_ms"].as_u64().unwrap();
    assert_eq!(
        (c1["status"].as_str(), c1["reason"].as_str()),
        (Some("aborted"), Some("expired"))
    );
    assert_eq!(c1["end_ms"].as_u64().unwrap() - trigger, timeout);
    // The start delay the tour quotes, and slow-sum#0 never reached in time.
    let enrich = t_of(
        &run,
        "barrier_received",
        &[("task", "enrich#0".into()), ("checkpoint", 1.into())],
    );
    assert_eq!(enrich - trigger, 290, "start delay at enrich#0");
    let slow = t_of(
        &run,
        "barrier_received",
        &[("task", "slow-sum#0".into()), ("checkpoint", 1.into())],
    );
    assert_eq!(slow, 1090);
    assert!(
        slow > trigger + timeout,
        "slow-sum#0's barrier comes after the expiry"
    );
    // The counter: 1 after the first expiry; the next one passes the limit.
    let counter = engine::view::failure_counter::failure_counter_trace(&s, s.seed);
    assert_eq!(
        counter.first().map(|c| (c.at_ms, c.value)),
        Some((c1["end_ms"].as_u64().unwrap(), 1))
    );
    assert!(counter.iter().all(|c| c.value <= tolerable), "{counter:?}");
    let f = run.failures();
    let c2 = run.checkpoint(2);
    assert_eq!(c2["reason"], "expired");
    assert_eq!(f[0]["at_ms"], c2["end_ms"]);
    assert!(f[0]["reason"]
        .as_str()
        .unwrap()
        .contains("tolerable failure threshold"));
    assert!(
        f[0]["restored_from"].is_null(),
        "nothing completed: from scratch"
    );
    assert!(
        run.completed().next().is_none(),
        "no checkpoint ever completes"
    );
    assert_eq!(run.summary["job_status"], "failed");
    assert_eq!(f.last().unwrap()["at_ms"], run.summary["end_ms"]);
    assert_eq!(run.summary["end_ms"], 3000);
    assert!(run.sink("out", "committed").is_empty());

    let twin_s = lesson("backpressure-aligned-timeout");
    assert_eq!(
        without_mode(&twin_s),
        without_mode(&s),
        "only the mode differs"
    );
    let twin = Run::of(&twin_s);
    assert!(twin.failures().is_empty());
    assert_eq!(twin.summary["job_status"], "finished");
    for c in twin.checkpoints() {
        assert_eq!(c["status"], "completed", "{c}");
        assert!(c["end_ms"].as_u64().unwrap() - c["trigger_ms"].as_u64().unwrap() < timeout);
    }
    let t1 = twin.checkpoint(1);
    assert_eq!(
        t1["end_ms"].as_u64().unwrap() - t1["trigger_ms"].as_u64().unwrap(),
        60
    );
    assert_eq!(t1["persisted_in_flight_records"], 35);
    let late = t_of(
        &twin,
        "alignment_timed_out",
        &[("task", "enrich#0".into()), ("checkpoint", 1.into())],
    );
    let aligned_timeout = twin_s
        .checkpointing
        .as_ref()
        .unwrap()
        .aligned_checkpoint_timeout_ms
        .unwrap();
    assert_eq!(
        late,
        t1["trigger_ms"].as_u64().unwrap() + aligned_timeout + 1
    );
    assert!(engine::view::failure_counter::failure_counter_trace(&twin_s, twin_s.seed).is_empty());
    assert_eq!(twin.sink("out", "committed").len(), 300);
}

/// The scenario with its checkpointing mode fields reset (what a pair shares).
fn without_mode(s: &Scenario) -> Scenario {
    let mut s = s.clone();
    let c = s.checkpointing.as_mut().unwrap();
    c.unaligned = false;
    c.aligned_checkpoint_timeout_ms = None;
    s.name.clear();
    s.title = None;
    s.description = None;
    // The points are what each lesson of the pair is about, not the job.
    s.points.clear();
    s
}

/// A pitfall: the transaction pre-committed at an expired checkpoint is
/// committed only with the next one, after the broker aborted it for
/// `transaction_timeout_ms`; KafkaSink drops the commit and its records are lost.
/// With the timeout at the validation's bound nothing is lost.
#[test]
fn pitfall_kafka_transaction_timeout_loses_the_late_transaction() {
    let s = lesson("kafka-transaction-timeout");
    let sink = s
        .job
        .operators
        .iter()
        .find(|o| o.uid == "kafka-out")
        .unwrap();
    let txn_timeout = sink.transaction_timeout_ms.unwrap();
    let run = Run::of(&s);
    assert_eq!(run.checkpoint(3)["reason"], "expired");
    let aborted = t_of(&run, "transaction_aborted", &[("txn", 3.into())]);
    let failed = first(&run, "transaction_commit_failed", &[("txn", 3.into())]);
    assert!(failed["reason"]
        .as_str()
        .unwrap()
        .contains("most likely signals data loss"));
    assert_eq!(
        failed["t"],
        run.checkpoint(4)["end_ms"],
        "committed with checkpoint 4"
    );
    // T3's first record: the first write into it; the broker aborts 1 ms past the timeout.
    let first_write = aborted - txn_timeout - 1;
    assert_eq!((first_write, aborted), (1011, 1812));
    assert_eq!(failed["t"].as_u64().unwrap() - first_write, 1124);
    // Only T3 fails; the verdicts count its records as lost, none duplicated.
    assert_eq!(run.of_type("transaction_commit_failed").count(), 1);
    let world = runner::run(&s, &RunOptions::default(), |_| {}).unwrap();
    let v = engine::verdict::counts(&s, s.seed, &world).unwrap();
    assert_eq!((v["kafka-out"].lost, v["kafka-out"].duplicates), (22, 0));
    assert_eq!(v["kafka-out"].committed + v["kafka-out"].lost, 70);
    assert_eq!(v["audit-out"].lost, 0);
    assert_eq!(run.summary["job_status"], "finished");
    // The validation warns: below the longest time a transaction can stay open.
    let warns = |s: &Scenario| {
        s.validate()
            .map(|w| w.iter().any(|w| w.contains("transaction_timeout_ms")))
            .unwrap()
    };
    assert!(warns(&s));

    let long = lesson("kafka-transaction-timeout-long");
    let long_timeout = long.job.operators[2].transaction_timeout_ms.unwrap();
    let cfg = long.checkpointing.as_ref().unwrap();
    // The documented bound: (tolerable + 1) × (interval + timeout) + restart delay.
    let delay = match long.effective_restart() {
        engine::scenario::RestartConfig::FixedDelay { delay_ms, .. } => delay_ms,
        other => panic!("{other:?}"),
    };
    let bound =
        u64::from(cfg.tolerable_failures + 1) * (cfg.interval_ms.unwrap() + cfg.timeout_ms) + delay;
    assert_eq!(long_timeout, bound);
    assert!(!warns(&long));
    let mut same = long.clone();
    same.job.operators[2].transaction_timeout_ms = Some(txn_timeout);
    same.name = s.name.clone();
    same.title = s.title.clone();
    same.description = s.description.clone();
    // Each lesson of the pair declares its own points (what it is about).
    same.points = s.points.clone();
    assert_eq!(same, s, "the pair differs only in the timeout");
    let lrun = Run::of(&long);
    assert_eq!(lrun.checkpoint(3)["reason"], "expired");
    assert_eq!(
        t_of(&lrun, "transaction_committed", &[("txn", 3.into())]),
        2135
    );
    let world = runner::run(&long, &RunOptions::default(), |_| {}).unwrap();
    let v = engine::verdict::counts(&long, long.seed, &world).unwrap();
    assert_eq!(
        (
            v["kafka-out"].committed,
            v["kafka-out"].lost,
            v["kafka-out"].duplicates
        ),
        (70, 0, 0)
    );
}

/// Exponential delay: each restart waits `min(max, initial × multiplier^k)`, k
/// counting the attempts since the last reset; a failure `reset_threshold_ms` or
/// more after the last restart was due resets k. Computed here from the
/// configuration, then compared with the run's restarts.
#[test]
fn exponential_delay_grows_caps_and_resets() {
    let s = lesson("restart-exponential-delay");
    let engine::scenario::RestartConfig::ExponentialDelay {
        initial_ms,
        max_ms,
        multiplier,
        reset_threshold_ms,
        attempts,
    } = s.effective_restart()
    else {
        panic!("exponential delay");
    };
    assert_eq!(attempts, None, "Flink's default: no limit");
    let run = Run::of(&s);
    let f = run.failures();
    let mut k = 0i32;
    let mut due: Option<u64> = None;
    let mut delays = Vec::new();
    for x in f {
        let at = x["at_ms"].as_u64().unwrap();
        if due.is_some_and(|d| at - d >= reset_threshold_ms) {
            k = 0;
        }
        let expected = ((initial_ms as f64 * multiplier.powi(k)) as u64).min(max_ms);
        let restarted = x["restarted_ms"].as_u64().expect("every failure restarts");
        assert_eq!(restarted - at, expected, "failure at {at}");
        delays.push(expected);
        due = Some(restarted);
        k += 1;
    }
    assert_eq!(
        delays,
        vec![100, 100, 200, 300],
        "reset, doubling, capped at the maximum"
    );
    assert!(
        (initial_ms as f64 * multiplier.powi(2)) as u64 > max_ms,
        "the last delay is capped"
    );
    assert_eq!(run.summary["job_status"], "finished");
    assert_eq!(
        lesson("restart-fixed-delay").script,
        s.script,
        "one fault schedule"
    );
}

/// Region failover (Flink's default `jobmanager.execution.failover-strategy`): with
/// forward edges each parallel pipeline is a pipelined region, so double#1's crash
/// restarts src#1, double#1 and out#1 only, from checkpoint 1; pending checkpoint 2
/// is aborted and the next checkpoint waits for the region, so out#0 commits its
/// checkpoint-2 transaction late. The twin with a rebalance edge restarts all six.
#[test]
fn region_failover_restarts_one_pipeline_and_delays_the_others_commit() {
    let fwd = Run::builtin("region-failover-forward");
    let names = |run: &Run, kind: &str| -> Vec<String> {
        run.of_type(kind)
            .map(|(_, e)| e["task"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names(&fwd, "task_failed"), ["double#1"]);
    assert_eq!(names(&fwd, "task_canceled"), ["src#1", "out#1"]);
    assert_eq!(
        names(&fwd, "state_restored"),
        ["src#1", "double#1", "out#1"],
        "only the failed pipeline restarts"
    );
    let crash = t_of(&fwd, "task_failed", &[]);
    let restart = t_of(&fwd, "state_restored", &[]);
    assert_eq!((crash, restart), (1230, 1530));
    assert_eq!(fwd.failures()[0]["restored_from"], 1);
    // The checkpoint pending at the crash is aborted; none starts until the region runs.
    let c2 = fwd.checkpoint(2);
    assert_eq!(
        (&c2["status"], &c2["reason"], &c2["end_ms"]),
        (&"aborted".into(), &"job_failover".into(), &crash.into())
    );
    let c3 = fwd.checkpoint(3);
    assert!(c3["trigger_ms"].as_u64().unwrap() >= restart);
    // out#0 ran on: it processed records while its twin pipeline waited ...
    assert!(fwd.of_type("record_processed").any(|(_, e)| {
        e["task"] == "out#0" && (crash..restart).contains(&e["t"].as_u64().unwrap())
    }));
    // ... but its transaction pre-committed for checkpoint 2 commits with checkpoint 3.
    let late = first(
        &fwd,
        "transaction_committed",
        &[("task", "out#0".into()), ("checkpoint", 2.into())],
    );
    assert_eq!(late["t"], c3["end_ms"]);
    // The restarted sink aborted what checkpoint 2 had pre-committed in its pipeline.
    let aborted = first(
        &fwd,
        "transaction_aborted",
        &[("task", "out#1".into()), ("checkpoint", 2.into())],
    );
    assert_eq!(aborted["t"], restart);

    let reb = Run::builtin("region-failover-rebalance");
    assert_eq!(
        names(&reb, "task_canceled"),
        ["src#0", "src#1", "double#0", "out#0", "out#1"]
    );
    assert_eq!(
        names(&reb, "state_restored").len(),
        6,
        "the whole job restarts"
    );
    assert_eq!(reb.of_type("job_restarting").count(), 1);
    assert!(!reb
        .of_type("transaction_committed")
        .any(|(_, e)| e["checkpoint"] == 2));
    // Both runs commit each of the 2 × 60 records once in the end.
    for run in [&fwd, &reb] {
        assert_eq!(run.sink("out", "committed").len(), 120);
    }
}

/// Every other lesson's job is one pipelined region (an all-to-all edge, or
/// parallelism 1 throughout), so region failover restarts it whole, as before.
#[test]
fn every_other_lesson_is_one_pipelined_region() {
    for name in runner::NAMES {
        let world = engine::World::new(&lesson(name), 0).unwrap_or_else(|e| panic!("{name}: {e}"));
        let regions = world.setup().pipelined_regions().len();
        let want = if *name == "region-failover-forward" {
            2
        } else {
            1
        };
        assert_eq!(regions, want, "{name}");
    }
}

/// The choices of step `step` (from 1) of `lesson`'s tour
/// (`assets/tours/<lesson>.json`), in English: (text, whether it is the right one).
fn tour_choices(lesson: &str, step: usize) -> Vec<(String, bool)> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../assets/tours/{lesson}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let tour: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let s = &tour["steps"][step - 1];
    assert!(s["ask"].is_object(), "{lesson} step {step} asks nothing");
    s["choices"]
        .as_array()
        .unwrap_or_else(|| panic!("{lesson} step {step} has no choices"))
        .iter()
        .map(|c| (c["en"].as_str().unwrap().to_string(), c["right"] == true))
        .collect()
}

/// The words of `text`, lower case: runs of letters, digits, `#` and `-`
/// (`src#1`, `chk-5`, `in-flight`), so that "20" is not found in "120".
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '#' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether `text` says every word of `fact`.
fn says(text: &str, fact: &[String]) -> bool {
    let have = words(text);
    fact.iter().all(|f| have.contains(&f.to_lowercase()))
}

/// The run decides the question of `lesson`'s step `step`: the right choice says
/// every word of `fact` (what the run did), and no wrong choice says them all.
fn decided(
    checked: &mut Vec<(&'static str, usize)>,
    lesson: &'static str,
    step: usize,
    fact: Vec<String>,
) {
    let choices = tour_choices(lesson, step);
    let (right, _) = choices.iter().find(|(_, r)| *r).expect("a right choice");
    assert!(
        says(right, &fact),
        "{lesson} step {step}: the run says {fact:?}, the right choice says {right:?}"
    );
    for (wrong, _) in choices.iter().filter(|(_, r)| !r) {
        assert!(
            !says(wrong, &fact),
            "{lesson} step {step}: the wrong choice {wrong:?} also says {fact:?}"
        );
    }
    checked.push((lesson, step));
}

/// Words for a fact: each item's `to_string()`.
macro_rules! fact {
    ($($w:expr),* $(,)?) => { vec![$($w.to_string()),*] };
}

/// The questions whose answer is not a figure or an event of a lesson's run:
/// why Flink does what it does, or what it would do outside the lesson (a
/// broker's defaults, another state layout, the uid rule). Their choices are
/// checked by their sources, not here.
const CONCEPTUAL: &[(&str, usize)] = &[
    ("broadcast-rules", 3),
    ("kafka-transaction-timeout", 4),
    ("kafka-transaction-timeout", 5),
    ("savepoint-rescale", 3),
    ("savepoint-upgrade", 1),
    ("savepoint-upgrade", 2),
];

/// Every multiple-choice question the tours ask whose answer the engine decides
/// (a figure, a checkpoint, a transaction, a subtask, whether the job fails): the
/// right choice says what the lesson's run did and no wrong one does. The rest
/// are listed in [`CONCEPTUAL`]; a new question must be one or the other.
#[test]
fn the_runs_decide_the_tours_choices() {
    let mut checked = Vec::new();
    let c = &mut checked;
    let md = |run: &Run, id: u64| run.checkpoint(id)["metadata"].clone();
    let restored_tasks = |run: &Run| -> Vec<String> {
        run.of_type("state_restored")
            .map(|(_, e)| e["task"].as_str().unwrap().to_string())
            .collect()
    };

    let pv = Run::builtin("pv-count");
    let m = md(&pv, 1);
    let sum =
        m["pv"]["keyed"]["app1"].as_i64().unwrap() + m["pv"]["keyed"]["app2"].as_i64().unwrap();
    assert_eq!(
        m["kafka"]["offsets"]["0"], sum,
        "the counts add up to the offset"
    );
    decided(c, "pv-count", 2, fact![sum, "offset"]);

    let oes = Run::builtin("odd-even-sum");
    let m = md(&oes, 1);
    decided(c, "odd-even-sum", 2, fact![m["numbers"]["offsets"]["0"]]);
    let (even, odd) = (
        m["sum"]["keyed"]["even"].as_i64().unwrap(),
        m["sum"]["keyed"]["odd"].as_i64().unwrap(),
    );
    decided(c, "odd-even-sum", 3, fact!["even", even, "odd", odd]);
    let restored = oes.index(|e| e["type"] == "state_restored" && e["task"] == "sum#0");
    let reread: Vec<i64> = oes.events[restored..]
        .iter()
        .filter(|e| e["type"] == "record_emitted")
        .take(2)
        .map(|e| e["value"].as_i64().unwrap())
        .collect();
    let written: Vec<i64> = oes.events[restored..]
        .iter()
        .filter(|e| e["type"] == "record_written")
        .take(2)
        .map(|e| e["value"].as_i64().unwrap())
        .collect();
    // Each re-read number added once to the restored sums.
    let once = written == [even + reread[0], odd + reread[1]];
    decided(
        c,
        "odd-even-sum",
        5,
        if once {
            fact!["both", "exactly", "once"]
        } else {
            fact!["twice"]
        },
    );
    decided(c, "odd-even-sum", 7, fact![reread[0]]);

    let alo = Run::builtin("alignment-isolated-at-least-once");
    let m = md(&alo, 1);
    let (app1, app2) = (
        m["count"]["keyed"]["app1"].as_i64().unwrap(),
        m["count"]["keyed"]["app2"].as_i64().unwrap(),
    );
    let offsets =
        m["web"]["offsets"]["0"].as_i64().unwrap() + m["app"]["offsets"]["0"].as_i64().unwrap();
    let agree = if app1 + app2 == offsets { "yes" } else { "no" };
    decided(
        c,
        "alignment-isolated-at-least-once",
        3,
        fact![agree, app1, app2],
    );
    let aligned = Run::builtin("alignment-isolated");
    let queued = aligned
        .of_type("record_buffered")
        .filter(|(_, e)| e["task"] == "count#0")
        .count();
    assert_eq!(
        md(&aligned, 1)["web"]["offsets"]["0"],
        16,
        "the queued records are after offset 16"
    );
    decided(
        c,
        "alignment-isolated",
        3,
        if queued > 0 {
            fact!["queued", "count", "not"]
        } else {
            fact!["counted"]
        },
    );

    let dup = Run::builtin("at-least-once-duplicates");
    let sinks = dup.summary["sinks"].as_object().unwrap();
    let duplicated = sinks.keys().any(|uid| {
        let w = dup.sink(uid, "committed");
        counts(&w).values().any(|n| *n > 1)
    });
    decided(
        c,
        "at-least-once-duplicates",
        3,
        if duplicated {
            fact!["again", "duplicates"]
        } else {
            fact!["lost"]
        },
    );

    let duration = |c: &Value| c["end_ms"].as_u64().unwrap() - c["trigger_ms"].as_u64().unwrap();
    let bat = Run::builtin("backpressure-aligned-timeout");
    decided(
        c,
        "backpressure-aligned-timeout",
        1,
        fact![duration(bat.checkpoint(1))],
    );

    let bpe = Run::builtin("backpressure-expired");
    let c1 = bpe.checkpoint(1);
    let slow = t_of(
        &bpe,
        "barrier_received",
        &[("task", "slow-sum#0".into()), ("checkpoint", 1.into())],
    );
    let in_time = if slow <= c1["end_ms"].as_u64().unwrap() && c1["status"] == "completed" {
        "yes"
    } else {
        "no"
    };
    decided(c, "backpressure-expired", 2, fact![in_time, slow]);
    let f = &bpe.failures()[0];
    assert_eq!(bpe.checkpoint(2)["reason"], "expired");
    assert_eq!(
        f["at_ms"],
        bpe.checkpoint(2)["end_ms"],
        "the second expiry fails the job over"
    );
    assert!(
        f["reason"]
            .as_str()
            .unwrap()
            .contains("tolerable failure threshold"),
        "{f}"
    );
    decided(c, "backpressure-expired", 3, fact!["fails", "over"]);

    let ba = Run::builtin("barrier-alignment");
    let snap = ba
        .index(|e| e["type"] == "snapshot_taken" && e["task"] == "merge#0" && e["checkpoint"] == 1);
    let held = ba
        .of_type("record_buffered")
        .filter(|(_, e)| e["task"] == "merge#0" && e["channel"] == 0)
        .count();
    decided(
        c,
        "barrier-alignment",
        2,
        if held == 3 {
            fact!["hold", "blocked"]
        } else {
            fact!["process", "now"]
        },
    );
    let after = [1, 2, 3].iter().all(|v| {
        ba.index(|e| e["type"] == "record_processed" && e["task"] == "merge#0" && e["value"] == *v)
            > snap
    });
    decided(
        c,
        "barrier-alignment",
        4,
        if after {
            fact!["after", "snapshot", "not"]
        } else {
            fact!["before"]
        },
    );

    let br = Run::builtin("broadcast-rules");
    let restored = first(&br, "state_restored", &[("task", "gate#2".into())]);
    let id = restored["checkpoint"].as_u64().unwrap();
    let rules = md(&br, id)["gate"]["operator"].as_array().unwrap()[2]["rules"].clone();
    decided(
        c,
        "broadcast-rules",
        4,
        fact![
            "yes",
            "min",
            rules["min"],
            "max",
            rules["max"],
            "checkpoint",
            id
        ],
    );

    let cc = Run::builtin("checkpoint-config");
    decided(
        c,
        "checkpoint-config",
        2,
        fact![cc.checkpoint(3)["trigger_ms"]],
    );
    assert_eq!(cc.checkpoint(3)["reason"], "expired");
    decided(
        c,
        "checkpoint-config",
        3,
        fact![if cc.failures().is_empty() {
            "no"
        } else {
            "yes"
        }],
    );
    let strict = Run::builtin("checkpoint-config-strict");
    decided(
        c,
        "checkpoint-config-strict",
        1,
        fact!["whole", "restores", strict.failures()[0]["restored_from"]],
    );

    let cvs = Run::builtin("checkpoint-vs-savepoint");
    let cvs_lesson = lesson("checkpoint-vs-savepoint");
    let mut world = engine::World::new(&cvs_lesson, cvs_lesson.seed).unwrap();
    let mut chk1_gone_at = None;
    let mut listed = false;
    while world.step().is_some() {
        let view = world.view();
        let chk1 = view.coordinator.storage.iter().find(|s| s.id.0 == 1);
        listed |= chk1.is_some();
        if listed && chk1.is_none_or(|s| s.discarded) {
            chk1_gone_at = Some(world.now());
            break;
        }
    }
    assert_eq!(
        chk1_gone_at,
        cvs.checkpoint(2)["end_ms"].as_u64(),
        "chk-1 goes when chk-2 completes"
    );
    decided(c, "checkpoint-vs-savepoint", 2, fact!["deletes", "chk-2"]);
    assert_eq!(cvs.summary["job_status"], "canceled");
    assert_eq!(
        cvs.of_type("checkpoints_discarded").count(),
        0,
        "the cancel deletes nothing"
    );
    let last = |kind: &str| {
        cvs.completed()
            .filter(|c| c["kind"] == kind)
            .map(|c| c["id"].as_u64().unwrap())
            .max()
            .unwrap()
    };
    decided(
        c,
        "checkpoint-vs-savepoint",
        5,
        fact![
            format!("chk-{}", last("checkpoint")),
            format!("savepoint-{}", last("savepoint"))
        ],
    );

    let plain = Run::builtin("exactly-once-kafka-plain");
    let written_twice = plain.summary["sinks"]
        .as_object()
        .unwrap()
        .keys()
        .any(|uid| {
            counts(&plain.sink(uid, "committed"))
                .values()
                .any(|n| *n > 1)
        });
    decided(
        c,
        "exactly-once-kafka-plain",
        2,
        fact![if written_twice { "no" } else { "yes" }, "again"],
    );
    let eo = Run::builtin("exactly-once-kafka");
    let commit = first(&eo, "transaction_committed", &[("txn", 1.into())]);
    let chk = commit["checkpoint"].as_u64().unwrap();
    assert_eq!(
        commit["t"],
        eo.checkpoint(chk)["end_ms"],
        "committed when the checkpoint completes"
    );
    decided(
        c,
        "exactly-once-kafka",
        2,
        fact!["checkpoint", chk, "completes"],
    );
    assert_eq!(
        eo.checkpoint(2)["status"],
        "aborted",
        "the crash comes first"
    );
    first(&eo, "transaction_aborted", &[("txn", 2.into())]);
    decided(
        c,
        "exactly-once-kafka",
        4,
        fact![
            "aborted",
            "restores",
            "checkpoint",
            eo.failures()[0]["restored_from"]
        ],
    );

    let restored_from = |run: &Run| {
        first(run, "state_restored", &[("task", "kafka#0".into())])["checkpoint"].as_u64()
    };
    let fs = Run::builtin("jobmanager-crash-filesystem");
    decided(
        c,
        "jobmanager-crash-filesystem",
        1,
        fact!["checkpoint", restored_from(&fs).unwrap()],
    );
    let jm = Run::builtin("jobmanager-crash-jobmanager");
    assert_eq!(restored_from(&jm), None);
    decided(c, "jobmanager-crash-jobmanager", 1, fact!["nothing"]);
    let twice = committed_values(&jm, "out", "app1").len()
        > counts_of(&committed_values(&jm, "out", "app1"));
    decided(
        c,
        "jobmanager-crash-jobmanager",
        3,
        fact![if twice { "second" } else { "skipped" }],
    );

    let lim = Run::builtin("jobmanager-storage-limit");
    let at = lim.failures()[0]["at_ms"].clone();
    let failed = lim
        .checkpoints()
        .iter()
        .find(|c| c["end_ms"] == at && c["status"] == "aborted")
        .unwrap();
    let id = failed["id"].as_u64().unwrap();
    let in_a_row = (1..=id)
        .rev()
        .take_while(|i| lim.checkpoint(*i)["status"] == "aborted")
        .count();
    let nth = ["first", "second", "third", "fourth"][in_a_row - 1];
    decided(
        c,
        "jobmanager-storage-limit",
        2,
        fact!["checkpoint", id, nth],
    );

    let kt = Run::builtin("kafka-transaction-timeout");
    first(&kt, "transaction_commit_failed", &[("txn", 3.into())]);
    decided(
        c,
        "kafka-transaction-timeout",
        2,
        fact!["commit", "t3", "fails"],
    );
    let long = Run::builtin("kafka-transaction-timeout-long");
    let t = t_of(&long, "transaction_committed", &[("txn", 3.into())]);
    let by = long.completed().find(|c| c["end_ms"] == t).unwrap()["id"].clone();
    decided(
        c,
        "kafka-transaction-timeout-long",
        1,
        fact!["yes", "checkpoint", by],
    );

    let fwd = Run::builtin("region-failover-forward");
    decided(c, "region-failover-forward", 1, restored_tasks(&fwd));
    let late = first(
        &fwd,
        "transaction_committed",
        &[("task", "out#0".into()), ("checkpoint", 2.into())],
    );
    let by = fwd.completed().find(|c| c["end_ms"] == late["t"]).unwrap()["id"].clone();
    decided(
        c,
        "region-failover-forward",
        3,
        fact!["checkpoint", by, "completes"],
    );
    let reb = Run::builtin("region-failover-rebalance");
    let all = restored_tasks(&reb).len();
    assert_eq!(all, 6, "every subtask of the job");
    decided(c, "region-failover-rebalance", 1, fact!["all", "six"]);

    let delays = |run: &Run| -> Vec<u64> {
        run.failures()
            .iter()
            .filter_map(|f| Some(f["restarted_ms"].as_u64()? - f["at_ms"].as_u64()?))
            .collect()
    };
    let exp = Run::builtin("restart-exponential-delay");
    assert_eq!(exp.failures()[1]["at_ms"], 2300);
    decided(c, "restart-exponential-delay", 2, fact![delays(&exp)[1]]);
    decided(
        c,
        "restart-exponential-delay",
        4,
        fact![delays(&exp).iter().max().unwrap()],
    );
    let rate = Run::builtin("restart-failure-rate");
    let at: Vec<u64> = rate
        .failures()
        .iter()
        .map(|f| f["at_ms"].as_u64().unwrap())
        .collect();
    let end = *at.last().unwrap();
    assert_eq!(
        (end, rate.summary["job_status"].as_str()),
        (3300, Some("failed"))
    );
    let within = at.iter().filter(|t| end - **t < 1500).count();
    decided(c, "restart-failure-rate", 2, fact!["fails", within]);
    let fixed = Run::builtin("restart-fixed-delay");
    assert_eq!(fixed.failures().last().unwrap()["at_ms"], 2800);
    assert_eq!(fixed.summary["job_status"], "failed");
    decided(c, "restart-fixed-delay", 3, fact!["fails"]);
    let none = Run::builtin("restart-none");
    assert_eq!(
        (
            none.failures()[0]["at_ms"].as_u64(),
            none.summary["job_status"].as_str()
        ),
        (Some(500), Some("failed"))
    );
    assert_eq!(none.of_type("state_restored").count(), 0);
    decided(c, "restart-none", 1, fact!["fails"]);

    for name in ["restore-claim", "restore-no-claim"] {
        let run = Run::builtin(name);
        let deleted = run.of_type("claimed_snapshot_deleted").count() > 0;
        let said = if deleted {
            fact!["deletes", "claimed"]
        } else {
            fact!["nothing"]
        };
        decided(c, name, 2, said);
    }

    let rescale = Run::builtin("savepoint-rescale");
    let app2 = keys_by_task(&rescale, "pv")
        .into_iter()
        .find(|(_, keys)| keys.contains(&"app2".to_string()))
        .unwrap()
        .0;
    decided(c, "savepoint-rescale", 2, fact![app2]);

    let uploaded = |name: &str, id: u64| {
        Run::builtin(name).checkpoint(id)["uploaded_bytes"]
            .as_u64()
            .unwrap()
    };
    decided(
        c,
        "state-backend-hashmap",
        2,
        fact![uploaded("state-backend-hashmap", 6)],
    );
    decided(
        c,
        "state-backend-rocksdb",
        2,
        fact![uploaded("state-backend-rocksdb", 6)],
    );
    decided(c, "state-types", 3, fact![uploaded("state-types", 2)]);
    let st = Run::builtin("state-types");
    let from = st.failures()[0]["restored_from"].as_u64().unwrap();
    let lists = &md(&st, from)["window"]["states"]["contents"];
    let mut words_of_lists = vec!["checkpoint".to_string(), from.to_string()];
    for key in ["app1", "app3"] {
        for v in lists[key].as_array().unwrap_or_else(|| panic!("{lists}")) {
            words_of_lists.push(v.to_string());
        }
    }
    decided(c, "state-types", 4, words_of_lists);

    let sra = Run::builtin("state-reduce-aggregate");
    let acc = &md(&sra, 1)["avg"]["states"]["average"]["app3"];
    decided(
        c,
        "state-reduce-aggregate",
        2,
        fact!["no", "sum", acc["sum"], "count", acc["count"]],
    );
    let emitted = sra
        .of_type("record_written")
        .find(|(_, e)| {
            e["key"] == "app3"
                && e["t"].as_u64() >= Some(1515)
                && e["task"].as_str().unwrap().starts_with("maxima")
        })
        .unwrap()
        .1["value"]
        .clone();
    decided(c, "state-reduce-aggregate", 4, fact![emitted]);

    let tpc = Run::builtin("two-phase-commit");
    let aborted = |txn: u64| first(&tpc, "transaction_aborted", &[("txn", txn.into())]);
    assert!(!tpc
        .of_type("transaction_committed")
        .any(|(_, e)| e["txn"] == 3));
    aborted(3);
    aborted(4);
    decided(c, "two-phase-commit", 4, fact!["no", "t3", "t4", "aborted"]);
    aborted(9);
    aborted(10);
    decided(
        c,
        "two-phase-commit",
        6,
        fact![
            "restores",
            "checkpoint",
            tpc.failures()[1]["restored_from"],
            "aborts",
            "t9",
            "t10"
        ],
    );

    let ub = Run::builtin("unaligned-backpressure");
    assert!(ub.checkpoint(1)["persisted_in_flight_records"].as_u64() > Some(0));
    decided(c, "unaligned-backpressure", 2, fact!["larger", "in-flight"]);

    // Every question is decided by a run here or listed as conceptual.
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/tours");
    let mut asked = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let tour: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for (i, s) in tour["steps"].as_array().unwrap().iter().enumerate() {
            if s["ask"].is_object() {
                asked.push((tour["scenario"].as_str().unwrap().to_string(), i + 1));
            }
        }
    }
    for (lesson, step) in &asked {
        let here = checked
            .iter()
            .chain(CONCEPTUAL)
            .any(|(l, s)| l == lesson && s == step);
        assert!(
            here,
            "{lesson} step {step}: decided by no run and not listed as conceptual"
        );
    }
    assert_eq!(
        checked.len() + CONCEPTUAL.len(),
        asked.len(),
        "each question once"
    );
    println!(
        "{} of {} questions decided by the runs",
        checked.len(),
        asked.len()
    );
}
