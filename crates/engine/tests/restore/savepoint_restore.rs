//! Starting a (changed, rescaled) job from a savepoint through the World: the
//! scenario's `restore` (`flink run -s <savepoint> [-n]`). The assignment rules
//! themselves are unit-tested in restore_assignment.rs; here the whole path runs:
//! the earlier job, its savepoint, the new job's tasks, ids, topics and output.

use engine::keygroup;
use engine::operators::OpState;
use engine::runner::{self, RunOptions};
use engine::{JobStatus, Scenario, World};
use serde_json::{json, Value};
use std::collections::BTreeMap;

const KEYS: [&str; 6] = ["app1", "app2", "app3", "a", "b", "flink"];

/// The earlier job: 4 source partitions on 2 subtasks, a keyed count `pv`, a
/// two-phase-commit sink `out`; stopped with a savepoint at 1500 ms.
fn v1(seed_keys: &[&str]) -> Value {
    json!({
        "version": 1, "name": "v1", "seed": 5,
        "job": {
            "operators": [
                {"uid": "kafka", "kind": "source", "parallelism": 2,
                 "partitions": (0..4).map(|p| json!({"generate": {"count": 300, "every_ms": 7 + p, "keys": seed_keys, "values": "sequence"}})).collect::<Vec<_>>()},
                {"uid": "pv", "kind": "keyed_count", "parallelism": 2, "process_ms": 1},
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit"}
            ],
            "edges": [
                {"from": "kafka", "to": "pv", "partitioning": "hash", "latency_ms": 3, "buffer_capacity": 4},
                {"from": "pv", "to": "out", "partitioning": "rebalance", "latency_ms": 3}
            ]
        },
        "checkpointing": {"interval_ms": 200},
        "script": [{"at_ms": 1500, "action": "stop_with_savepoint"}]
    })
}

/// The new job: `v1`'s job edited by `edit`, restoring `v1`'s latest savepoint.
fn v2(edit: impl FnOnce(&mut Value), allow_n: bool) -> Value {
    let earlier = v1(&KEYS);
    let mut job = earlier["job"].clone();
    edit(&mut job);
    json!({
        "version": 1, "name": "v2", "seed": 5,
        "job": job,
        "checkpointing": {"interval_ms": 200},
        "restore": {"from": earlier, "snapshot": "latest_savepoint", "allow_non_restored_state": allow_n}
    })
}

fn parse(doc: &Value) -> Scenario {
    Scenario::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

fn build(doc: &Value) -> Result<World, engine::scenario::ScenarioError> {
    let s = parse(doc);
    World::new(&s, s.seed)
}

/// The earlier run itself, stopped, with its savepoint's content.
fn earlier_world() -> World {
    let s = parse(&v1(&KEYS));
    let mut w = World::new(&s, 5).unwrap();
    w.run_to_end(None, 600_000, |_| {});
    assert_eq!(
        w.status(),
        JobStatus::Finished,
        "stop-with-savepoint stops the job"
    );
    w
}

fn savepoint_metadata(w: &World) -> Value {
    let sp = w
        .coordinator()
        .savepoints()
        .last()
        .expect("a savepoint")
        .clone();
    engine::summary::checkpoint_metadata(w.setup(), &sp)
}

fn keyed_of(w: &World, uid: &str) -> Vec<BTreeMap<String, i64>> {
    common::subtask_states(w, uid)
        .into_iter()
        .map(|op| match op {
            OpState::Keyed { values } => values
                .iter()
                .map(|(k, v)| (w.setup().keys.name(*k).to_string(), *v))
                .collect(),
            other => panic!("{uid} is not keyed: {other:?}"),
        })
        .collect()
}

fn offsets_of(w: &World, uid: &str) -> Vec<BTreeMap<u32, u64>> {
    common::subtask_states(w, uid)
        .into_iter()
        .map(|op| match op {
            OpState::Source(s) => s.offsets.clone(),
            other => panic!("{uid} is not a source: {other:?}"),
        })
        .collect()
}

fn per_key_last(records: &[engine::record::Record], w: &World) -> BTreeMap<String, Vec<i64>> {
    let mut out: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for r in records {
        let k = r
            .key
            .map(|k| w.setup().keys.name(k).to_string())
            .unwrap_or_default();
        out.entry(k).or_default().push(r.value);
    }
    out
}

#[test]
fn unchanged_job_continues_from_the_savepoint_exactly_once() {
    let earlier = earlier_world();
    let meta = savepoint_metadata(&earlier);
    let sp = earlier.coordinator().savepoints().last().unwrap().id;

    let mut w = build(&v2(|_| {}, false)).expect("restore the unchanged job");
    // Clock, ids and state continue from the savepoint.
    assert_eq!(w.now(), earlier.now());
    assert_eq!(w.coordinator().next_checkpoint_id().0, sp.0 + 1);
    assert_eq!(
        w.coordinator().latest_completed().unwrap().id,
        sp,
        "the savepoint enters the store"
    );
    let restored_pv: BTreeMap<String, i64> = keyed_of(&w, "pv").into_iter().flatten().collect();
    let saved_pv: BTreeMap<String, i64> =
        serde_json::from_value(meta["pv"]["keyed"].clone()).unwrap();
    assert_eq!(restored_pv, saved_pv);
    let restored_offsets: BTreeMap<u32, u64> =
        offsets_of(&w, "kafka").into_iter().flatten().collect();
    let saved_offsets: BTreeMap<String, u64> =
        serde_json::from_value(meta["kafka"]["offsets"].clone()).unwrap();
    assert_eq!(
        restored_offsets
            .iter()
            .map(|(p, o)| (p.to_string(), *o))
            .collect::<BTreeMap<_, _>>(),
        saved_offsets
    );

    w.run_to_end(None, 600_000, |_| {});
    assert_eq!(w.status(), JobStatus::Finished);
    // The topic carried over: committed output across the upgrade equals one
    // uninterrupted run's (no savepoint, no stop) per key — nothing lost, nothing twice.
    let mut plain = v1(&KEYS);
    plain["script"] = json!([]);
    let mut once = build(&plain).unwrap();
    once.run_to_end(None, 600_000, |_| {});
    let upgraded = per_key_last(
        &w.external()
            .values()
            .next()
            .unwrap()
            .committed
            .iter()
            .copied()
            .collect::<Vec<_>>(),
        &w,
    );
    let reference = per_key_last(
        &once
            .external()
            .values()
            .next()
            .unwrap()
            .committed
            .iter()
            .copied()
            .collect::<Vec<_>>(),
        &once,
    );
    assert_eq!(upgraded, reference);
    assert_eq!(upgraded.values().map(Vec::len).sum::<usize>(), 1200);
}

#[test]
fn an_added_stateful_operator_starts_empty() {
    let doc = v2(
        |job| {
            job["operators"].as_array_mut().unwrap().insert(
                2,
                json!({"uid": "total", "kind": "keyed_sum", "parallelism": 1}),
            );
            job["edges"] = json!([
                {"from": "kafka", "to": "pv", "partitioning": "hash", "latency_ms": 3, "buffer_capacity": 4},
                {"from": "pv", "to": "total", "partitioning": "hash", "latency_ms": 3},
                {"from": "total", "to": "out", "partitioning": "forward", "latency_ms": 3}
            ]);
        },
        false,
    );
    let mut w = build(&doc).expect("a new operator needs no -n");
    assert!(
        keyed_of(&w, "total")[0].is_empty(),
        "the new operator has no state"
    );
    assert!(
        !keyed_of(&w, "pv").iter().all(BTreeMap::is_empty),
        "pv got its state back"
    );
    let mut restored = BTreeMap::new();
    w.set_tracing(true);
    // state_restored says which subtasks got state.
    let s = parse(&doc);
    let lines = runner::run_lines(
        &s,
        &RunOptions {
            trace: true,
            ..RunOptions::default()
        },
    )
    .unwrap();
    for l in &lines {
        let v: Value = serde_json::from_str(l).unwrap();
        if v["type"] == "state_restored" {
            restored
                .entry(v["task"].as_str().unwrap().to_string())
                .or_insert(v["checkpoint"].clone());
        }
    }
    assert_eq!(restored["total#0"], Value::Null);
    assert!(restored["pv#0"].is_u64());
    w.run_until(w.now() + 500, |_| {});
}

fn without_pv(job: &mut Value) {
    job["operators"].as_array_mut().unwrap().remove(1);
    job["edges"] =
        json!([{"from": "kafka", "to": "out", "partitioning": "rebalance", "latency_ms": 3}]);
}

#[test]
fn a_removed_stateful_operator_fails_the_restore_unless_allowed() {
    let err = build(&v2(without_pv, false)).expect_err("state of pv cannot be mapped");
    let e = &err.errors[0];
    assert_eq!(e.field, "restore");
    assert!(
        e.message
            .contains("Cannot map checkpoint/savepoint state for operator"),
        "{}",
        e.message
    );
    assert!(e.message.contains("pv"), "{}", e.message);
    assert!(
        e.message.contains("--allowNonRestoredState"),
        "{}",
        e.message
    );

    let mut w = build(&v2(without_pv, true)).expect("-n skips pv's state");
    assert!(
        !offsets_of(&w, "kafka")
            .iter()
            .all(|o| o.values().all(|&x| x == 0)),
        "the source still restores"
    );
    w.run_to_end(None, 600_000, |_| {});
    assert_eq!(w.status(), JobStatus::Finished);
}

#[test]
fn a_changed_uid_leaves_the_old_state_unmatched() {
    let rename = |job: &mut Value| {
        job["operators"][1]["uid"] = json!("pv-v2");
        job["edges"][0]["to"] = json!("pv-v2");
        job["edges"][1]["from"] = json!("pv-v2");
    };
    let err = build(&v2(rename, false)).expect_err("pv's state has no operator");
    assert!(
        err.errors[0].message.contains("pv"),
        "{}",
        err.errors[0].message
    );
    let mut w = build(&v2(rename, true)).expect("with -n the renamed operator starts empty");
    assert!(keyed_of(&w, "pv-v2").iter().all(BTreeMap::is_empty));
    // Its counts start again from 1 while the sources continue: the output shows it.
    let before = w
        .external()
        .values()
        .next()
        .unwrap()
        .committed
        .iter()
        .copied()
        .collect::<Vec<_>>()
        .len();
    w.run_to_end(None, 600_000, |_| {});
    let out = w
        .external()
        .values()
        .next()
        .unwrap()
        .committed
        .iter()
        .copied()
        .collect::<Vec<_>>();
    let first_new = out[before];
    assert_eq!(
        first_new.value, 1,
        "the first count after the restore starts from an empty state"
    );
}

/// Key groups decide where each key's count goes; the source offsets (split-distribute
/// list state) are cut into contiguous chunks in old-subtask order.
#[test]
fn rescaling_up_and_down_redistributes_element_by_element() {
    let earlier = earlier_world();
    let meta = savepoint_metadata(&earlier);
    let saved_pv: BTreeMap<String, i64> =
        serde_json::from_value(meta["pv"]["keyed"].clone()).unwrap();
    let saved_offsets: BTreeMap<u32, u64> = offsets_of_meta(&meta);
    for (source_p, pv_p) in [(3u32, 3u32), (1, 1), (4, 4), (2, 1)] {
        let w = build(&v2(
            |job| {
                job["operators"][0]["parallelism"] = json!(source_p);
                job["operators"][1]["parallelism"] = json!(pv_p);
            },
            false,
        ))
        .unwrap_or_else(|e| panic!("rescale to {source_p}/{pv_p}: {e}"));
        // Keyed: exactly the keys whose key group maps to the subtask.
        let pv = keyed_of(&w, "pv");
        for (i, values) in pv.iter().enumerate() {
            let expected: BTreeMap<String, i64> = saved_pv
                .iter()
                .filter(|(k, _)| {
                    let kg = keygroup::assign_to_key_group(k, 128);
                    keygroup::operator_index_for_key_group(128, pv_p, kg) == i as u32
                })
                .map(|(k, v)| (k.clone(), *v))
                .collect();
            assert_eq!(values, &expected, "pv#{i} at parallelism {pv_p}");
        }
        // Split-distribute: old lists [0, 2] and [1, 3] concatenated to [0, 2, 1, 3],
        // cut into contiguous chunks of base + 1 while the remainder lasts.
        let order = [0u32, 2, 1, 3];
        let (base, rem) = (4 / source_p as usize, 4 % source_p as usize);
        let mut at = 0;
        let offsets = offsets_of(&w, "kafka");
        for (i, got) in offsets.iter().enumerate() {
            let n = base + usize::from(i < rem);
            let expected: BTreeMap<u32, u64> = order[at..at + n]
                .iter()
                .map(|p| (*p, saved_offsets[p]))
                .collect();
            at += n;
            assert_eq!(got, &expected, "kafka#{i} at parallelism {source_p}");
        }
    }
}

fn offsets_of_meta(meta: &Value) -> BTreeMap<u32, u64> {
    meta["kafka"]["offsets"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(p, o)| (p.parse().unwrap(), o.as_u64().unwrap()))
        .collect()
}

#[test]
fn a_rescaled_job_still_delivers_exactly_once() {
    let mut w = build(&v2(
        |job| {
            job["operators"][0]["parallelism"] = json!(3);
            job["operators"][1]["parallelism"] = json!(3);
        },
        false,
    ))
    .unwrap();
    w.run_to_end(None, 600_000, |_| {});
    let mut plain = v1(&KEYS);
    plain["script"] = json!([]);
    let mut once = build(&plain).unwrap();
    once.run_to_end(None, 600_000, |_| {});
    // Counts per key are final values: the last committed count per key agrees.
    let last = |w: &World| -> BTreeMap<String, i64> {
        per_key_last(
            &w.external()
                .values()
                .next()
                .unwrap()
                .committed
                .iter()
                .copied()
                .collect::<Vec<_>>(),
            w,
        )
        .into_iter()
        .map(|(k, v)| (k, *v.iter().max().unwrap()))
        .collect()
    };
    assert_eq!(last(&w), last(&once));
}

#[test]
fn restoring_a_snapshot_that_does_not_exist_names_the_field() {
    let mut doc = v2(|_| {}, false);
    doc["restore"]["snapshot"] = json!(99);
    let err = build(&doc).expect_err("no snapshot 99");
    assert_eq!(err.errors[0].field, "restore.snapshot");
    assert!(
        err.errors[0].message.contains("available: "),
        "{}",
        err.errors[0].message
    );

    doc["restore"]["snapshot"] = json!("newest");
    let err = Scenario::from_json(&doc.to_string()).expect_err("a bad keyword");
    assert_eq!(err.errors[0].field, "restore.snapshot");

    // The earlier document's own errors are reported under restore.from.
    let mut doc = v2(|_| {}, false);
    doc["restore"]["from"]["checkpointing"]["interval_ms"] = json!(5);
    let err = Scenario::from_json(&doc.to_string()).expect_err("interval 5");
    assert!(
        err.has_field("restore.from.checkpointing.interval_ms"),
        "{err}"
    );

    // An incompatible restore: the number of key groups changed.
    let mut doc = v2(|_| {}, false);
    doc["job"]["max_parallelism"] = json!(64);
    let err = build(&doc).expect_err("max parallelism mismatch");
    assert!(
        err.errors[0].message.contains("Max parallelism mismatch"),
        "{}",
        err.errors[0].message
    );

    // A new script step before the restored job's start is blamed on its at_ms.
    let mut doc = v2(|_| {}, false);
    doc["script"] = json!([{"at_ms": 10, "action": "trigger_checkpoint"}]);
    let err = build(&doc).expect_err("before the start");
    assert_eq!(err.errors[0].field, "script[0].at_ms");
}

/// docs/flink-semantics.md §1.7: what survives the end of the earlier job.
#[test]
fn retained_checkpoints_follow_the_externalized_policy_on_cancellation() {
    for (policy, survives) in [
        ("none", false),
        ("delete_on_cancellation", false),
        ("retain_on_cancellation", true),
    ] {
        let mut earlier = v1(&KEYS);
        earlier["checkpointing"]["externalized"] = json!(policy);
        earlier["script"] = json!([{"at_ms": 1500, "action": "cancel"}]);
        let s = parse(&earlier);
        let mut w = World::new(&s, 5).unwrap();
        w.run_to_end(None, 600_000, |_| {});
        assert_eq!(w.status(), JobStatus::Canceled);
        assert_eq!(
            !w.coordinator().store().is_empty(),
            survives,
            "{policy}: store after cancel"
        );
        assert_eq!(
            w.coordinator().discarded().is_empty(),
            survives,
            "{policy}: discarded"
        );

        let doc = json!({
            "version": 1, "name": "v2", "seed": 5, "job": earlier["job"].clone(),
            "checkpointing": {"interval_ms": 200},
            "restore": {"from": earlier, "snapshot": "latest_checkpoint"}
        });
        match build(&doc) {
            Ok(w2) => {
                assert!(survives, "{policy}: restored from a deleted checkpoint");
                assert!(w2.coordinator().latest_completed().is_some());
            }
            Err(e) => {
                assert!(!survives, "{policy}: {e}");
                assert_eq!(e.errors[0].field, "restore.snapshot");
            }
        }
    }
    // On failure (restart strategy gives up) delete_on_cancellation keeps them.
    let mut earlier = v1(&KEYS);
    earlier["checkpointing"]["externalized"] = json!("delete_on_cancellation");
    earlier["restart"] = json!({"strategy": "none"});
    earlier["script"] = json!([{"at_ms": 1500, "action": "crash", "task": "pv#0"}]);
    let s = parse(&earlier);
    let mut w = World::new(&s, 5).unwrap();
    w.run_to_end(None, 600_000, |_| {});
    assert_eq!(w.status(), JobStatus::Failed);
    assert!(
        !w.coordinator().store().is_empty(),
        "RETAIN_ON_FAILURE keeps them"
    );
}

use crate::common;

/// Property: stop a random job with a savepoint at a random moment, change every
/// operator's parallelism, restore — the committed output per key equals the
/// failure-free run's (keyed_count: the counts 1..n per key, whatever the
/// interleaving). Exactly-once across an upgrade with rescaling.
#[test]
fn stop_with_savepoint_and_rescaled_restore_is_exactly_once_over_many_seeds() {
    use rand::{Rng, SeedableRng};
    let gen = common::Gen {
        mode: common::Mode::Aligned,
        crashes: false,
        sink: "two_phase_commit",
        aligned_timeout: false,
        keyed: Some("keyed_count"),
    };
    let mut restored = 0;
    for seed in 0..200u64 {
        let base: Value = serde_json::to_value(common::random_scenario(seed, &gen)).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut earlier = base.clone();
        earlier["script"] =
            json!([{"at_ms": rng.random_range(20..200u64), "action": "stop_with_savepoint"}]);
        earlier.as_object_mut().unwrap().remove("until_ms");
        let mut job = base["job"].clone();
        for op in job["operators"].as_array_mut().unwrap() {
            op["parallelism"] = json!(rng.random_range(1..=4u32));
        }
        for e in job["edges"].as_array_mut().unwrap() {
            if e["partitioning"] == "forward" {
                e["partitioning"] = json!("rebalance");
            }
        }
        let mut doc = base.clone();
        doc["job"] = job;
        doc.as_object_mut().unwrap().remove("until_ms");
        doc["script"] = json!([]);
        doc["restore"] = json!({"from": earlier, "snapshot": "latest_savepoint"});
        let s =
            Scenario::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut w = match World::new(&s, s.seed) {
            Ok(w) => w,
            // The bounded job finished before the savepoint was due.
            Err(e) if e.has_field("restore.snapshot") => continue,
            Err(e) => panic!("seed {seed}: {e}"),
        };
        restored += 1;
        w.run_to_end(None, 600_000, |_| {});
        assert_eq!(w.status(), JobStatus::Finished, "seed {seed}");
        let mut plain = base.clone();
        plain.as_object_mut().unwrap().remove("until_ms");
        let mut once = build(&plain).unwrap();
        once.run_to_end(None, 600_000, |_| {});
        let sorted = |w: &World| -> BTreeMap<String, Vec<i64>> {
            let ext = w.external().values().next().unwrap();
            let mut m = per_key_last(&ext.committed.iter().copied().collect::<Vec<_>>(), w);
            m.values_mut().for_each(|v| v.sort_unstable());
            m
        };
        assert_eq!(sorted(&w), sorted(&once), "seed {seed}");
    }
    assert!(
        restored >= 100,
        "only {restored} of 200 seeds reached a savepoint"
    );
}

/// The lesson's built-ins: what the restored job holds at its first moment.
#[test]
fn builtin_savepoint_lessons_show_their_key_facts() {
    let rescale = runner::load("savepoint-rescale").unwrap();
    let w = World::new(&rescale, rescale.seed).unwrap();
    let offsets = offsets_of(&w, "kafka");
    let partitions: Vec<Vec<u32>> = offsets
        .iter()
        .map(|o| o.keys().copied().collect())
        .collect();
    assert_eq!(
        partitions,
        vec![vec![0, 2], vec![1], vec![3]],
        "contiguous chunks of [0, 2, 1, 3]"
    );
    // The savepoint is consistent: the counts add up to the records read.
    let counted: i64 = keyed_of(&w, "pv").iter().flat_map(|m| m.values()).sum();
    let read: u64 = offsets.iter().flat_map(|o| o.values()).sum();
    assert_eq!(counted as u64, read);
    assert!(read > 0);
    assert_eq!(keyed_of(&w, "pv").len(), 3);

    let upgrade = runner::load("savepoint-upgrade").unwrap();
    let w = World::new(&upgrade, upgrade.seed).unwrap();
    assert!(keyed_of(&w, "pv-v2").iter().all(BTreeMap::is_empty));
    assert!(offsets_of(&w, "kafka")
        .iter()
        .flat_map(|o| o.values())
        .any(|&o| o > 0));
    let mut strict = upgrade.clone();
    strict.restore.as_mut().unwrap().allow_non_restored_state = false;
    let err = World::new(&strict, strict.seed).expect_err("pv cannot be mapped");
    assert!(
        err.errors[0].message.contains("allowNonRestoredState"),
        "{err}"
    );
}

/// `v1` with its max parallelism set to `max_p`, and the same job restoring its
/// savepoint, with the new job's max parallelism `new_max_p` (`None`: not set) and
/// pv at parallelism `new_p`.
fn max_parallelism_chain(max_p: u32, new_max_p: Option<u32>, new_p: u32) -> Value {
    let mut earlier = v1(&KEYS);
    earlier["job"]["max_parallelism"] = json!(max_p);
    let mut job = earlier["job"].clone();
    job.as_object_mut().unwrap().remove("max_parallelism");
    if let Some(m) = new_max_p {
        job["max_parallelism"] = json!(m);
    }
    job["operators"][1]["parallelism"] = json!(new_p);
    json!({
        "version": 1, "name": "v2", "seed": 5,
        "job": job,
        "checkpointing": {"interval_ms": 200},
        "restore": {"from": earlier, "snapshot": "latest_savepoint"}
    })
}

/// The subtask each key of `uid` was processed on, over the whole trace.
fn subtask_of_keys(events: &[engine::event::TraceEvent], uid: &str) -> BTreeMap<String, u32> {
    let mut out = BTreeMap::new();
    for e in events {
        if let engine::event::Event::RecordProcessed {
            task,
            key: Some(key),
            ..
        } = &e.event
        {
            if let Some(index) = task.strip_prefix(&format!("{uid}#")) {
                let index: u32 = index.parse().unwrap();
                let before = out.insert(key.to_string(), index);
                assert!(before.is_none_or(|b| b == index), "{key} on two subtasks");
            }
        }
    }
    out
}

/// Mirrors Flink's `DefaultVertexParallelismInfo.canRescaleMaxParallelism`
/// as `StateAssignmentOperation.checkParallelismPreconditions` uses it: a job that
/// sets no max parallelism restores a savepoint taken at 256 and runs with 256 key
/// groups (its keys where 256 puts them); a job that sets another value is refused
/// with `Checkpoints.loadAndValidateCheckpoint`'s message, one that sets 256 is not.
#[test]
fn a_job_without_max_parallelism_takes_the_savepoints() {
    let s = parse(&max_parallelism_chain(256, None, 3));
    assert_eq!(s.job.max_parallelism, None);
    let mut w = World::new(&s, s.seed).expect("Flink accepts and adopts 256");
    let pv = s.job.operator_index("pv").unwrap();
    assert_eq!(w.setup().max_parallelism[pv], 256);
    for (i, state) in keyed_of(&w, "pv").iter().enumerate() {
        for key in state.keys() {
            let kg = keygroup::assign_to_key_group(key, 256);
            assert!(
                keygroup::key_group_range(256, 3, i as u32).contains(&kg),
                "{key} restored on pv#{i}, outside its range of 256 key groups"
            );
        }
    }
    w.set_tracing(true);
    let mut events = Vec::new();
    w.run_to_end(None, 600_000, |e| events.extend_from_slice(e));
    assert_eq!(w.status(), JobStatus::Finished);
    let placed = subtask_of_keys(&events, "pv");
    assert_eq!(placed.len(), KEYS.len());
    for (key, index) in &placed {
        assert_eq!(
            *index,
            keygroup::assign_key_to_parallel_operator(key, 256, 3),
            "{key}"
        );
    }

    let err = build(&max_parallelism_chain(256, Some(128), 3)).expect_err("128 is set: refused");
    assert!(
        err.errors[0].message.contains(
            "Cannot map operator kafka with max parallelism 256 to new program with max parallelism 128"
        ),
        "{err}"
    );
    assert!(build(&max_parallelism_chain(256, Some(256), 3)).is_ok());
    // The parallelism may not exceed the adopted value.
    let err = build(&max_parallelism_chain(2, None, 3)).expect_err("3 > 2");
    assert!(
        err.errors[0].message.contains("The maximum parallelism (2) of the restored state is lower than the configured parallelism (3)"),
        "{err}"
    );
}

/// The adopted max parallelism over many seeds: for any stored max parallelism and new parallelism, a job
/// without max parallelism places every key as a job that sets the stored value
/// does, and counts the same — the derived value never shows through.
#[test]
fn an_unset_max_parallelism_behaves_as_the_stored_one_over_many_seeds() {
    use rand::{Rng, SeedableRng};
    // Seeds whose stored max parallelism differs from the one the new job would
    // derive (128 for these parallelisms): where an unset value could show through.
    let mut differs = 0;
    for seed in 0..40u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let max_p = if rng.random_bool(0.3) {
            128
        } else {
            rng.random_range(4..=2000u32)
        };
        let new_p = rng.random_range(1..=4u32.min(max_p));
        differs += usize::from(max_p != 128 && new_p > 1);
        let run = |doc: Value| {
            let s = parse(&doc);
            let mut w = World::new(&s, s.seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            w.set_tracing(true);
            let mut events = Vec::new();
            w.run_to_end(None, 600_000, |e| events.extend_from_slice(e));
            let out = w.external().values().next().unwrap();
            let mut committed =
                per_key_last(&out.committed.iter().copied().collect::<Vec<_>>(), &w);
            committed.values_mut().for_each(|v| v.sort_unstable());
            (subtask_of_keys(&events, "pv"), committed)
        };
        let unset = run(max_parallelism_chain(max_p, None, new_p));
        let set = run(max_parallelism_chain(max_p, Some(max_p), new_p));
        assert_eq!(
            unset, set,
            "seed {seed}: max parallelism {max_p}, pv at {new_p}"
        );
        for (key, index) in &unset.0 {
            assert_eq!(
                *index,
                keygroup::assign_key_to_parallel_operator(key, max_p, new_p),
                "seed {seed}: {key}"
            );
        }
    }
    assert!(
        differs >= 10,
        "only {differs} of 40 seeds differ from the derived value"
    );
}

/// Flink's `TwoPhaseCommitSinkFunction.initializeState`: after a
/// restore from two sink subtasks to one, the remaining subtask receives both list
/// elements and recovers (commits) both pre-committed transactions — the trace names
/// `out#0` for each, never `out#1`, which no longer exists.
#[test]
fn a_scaled_in_two_phase_commit_sink_commits_the_old_transactions_itself() {
    let s = Scenario::from_json(include_str!(
        "../flink/probes/two-phase-commit-scale-in.json"
    ))
    .unwrap();
    let (events, summary) = crate::common::run_traced(&s);
    let start = events.first().map_or(0, |e| e.t);
    let recovered: Vec<(String, u64)> = events
        .iter()
        .filter(|e| e.t == start)
        .filter_map(|e| match &e.event {
            engine::event::Event::TransactionCommitted { task, txn, .. } => {
                Some((task.to_string(), *txn))
            }
            _ => None,
        })
        .collect();
    assert_eq!(recovered.len(), 2, "both old transactions: {recovered:?}");
    assert!(
        recovered.iter().all(|(t, _)| t == "out#0"),
        "the one remaining subtask commits them: {recovered:?}"
    );
    let named_gone = events.iter().any(|e| {
        serde_json::to_string(&e.event)
            .unwrap()
            .contains("\"out#1\"")
    });
    assert!(!named_gone, "no event of the new job names out#1");
    assert!(!crate::common::committed(&summary, "out").is_empty());
}

/// The savepoint a rescaled job starts from lists its files as the
/// job that wrote them named them (Flink: the savepoint directory holds the earlier
/// job's `_metadata` and state files; `CheckpointCoordinator.restoreSavepoint` only
/// points at them) — not by the restoring job's subtasks.
#[test]
fn a_restored_savepoints_files_are_named_by_the_job_that_wrote_them() {
    let earlier = earlier_world();
    let sp = earlier.coordinator().savepoints().last().unwrap().clone();
    let written: Vec<String> = earlier
        .storage_files(&sp)
        .into_iter()
        .map(|f| f.path)
        .collect();
    assert!(written.iter().any(|p| p.ends_with("pv#1")), "{written:?}");
    // The new job runs pv with one subtask: pv#1 does not exist there.
    let w = build(&v2(
        |job| job["operators"][1]["parallelism"] = json!(1),
        false,
    ))
    .unwrap();
    let restored = w
        .view()
        .coordinator
        .storage
        .into_iter()
        .find(|s| s.id == sp.id)
        .expect("the savepoint is in the new job's storage");
    let paths: Vec<String> = restored.files.into_iter().map(|f| f.path).collect();
    assert_eq!(paths, written);
}

/// The storage view lists the savepoint the upgraded job started from as the
/// earlier job wrote it: its own operators (`pv`, which the new job renamed),
/// with the state the earlier job stored, and `pv` marked as claimed by no
/// operator of the new job; its files in `savepoint-N/`.
#[test]
fn the_started_from_savepoint_is_shown_with_its_own_operators_and_the_orphaned_state() {
    let s = runner::load("savepoint-upgrade").unwrap();
    let earlier_doc = &s.restore.as_ref().unwrap().from;
    let mut earlier = World::new(earlier_doc, s.seed).unwrap();
    earlier.run_to_end(None, 600_000, |_| {});
    let written = savepoint_metadata(&earlier);
    let w = World::new(&s, s.seed).unwrap();
    let view = w.view();
    let stored: Vec<_> = view
        .coordinator
        .storage
        .iter()
        .filter(|s| s.started_from)
        .collect();
    assert_eq!(stored.len(), 1, "one snapshot the job started from");
    let sp = stored[0];
    assert!(sp.kind.is_savepoint());
    assert_eq!(sp.non_restored, vec!["pv".to_string()]);
    assert_eq!(
        sp.metadata["pv"]["keyed"], written["pv"]["keyed"],
        "pv's counts as stored"
    );
    assert!(sp.metadata["pv"]["keyed"]["app1"].as_i64().unwrap() > 0);
    assert!(
        sp.metadata.get("pv-v2").is_none(),
        "the savepoint knows nothing of pv-v2"
    );
    assert!(!sp.files.is_empty());
    assert!(
        sp.files
            .iter()
            .all(|f| f.path.starts_with(&format!("savepoint-{}/", sp.id.0))),
        "{:?}",
        sp.files
    );
    // Every other stored snapshot is this job's own.
    assert!(view
        .coordinator
        .storage
        .iter()
        .filter(|s| !s.started_from)
        .all(|s| s.non_restored.is_empty()));
}
