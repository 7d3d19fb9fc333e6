//! Non-keyed state: broadcast state (`broadcast_filter`) and a source's offsets as
//! even-split or union list state — checkpointed, restored, rescaled
//! (docs/flink-semantics.md §6.3; Flink: BroadcastProcessFunction, getUnionListState).

use engine::operators::OpState;
use engine::{JobStatus, Scenario, World};
use serde_json::{json, Value};
use std::collections::BTreeMap;

use crate::common;

fn rules_job(filter_p: u32) -> Value {
    json!({
        "operators": [
            {"uid": "numbers", "kind": "source", "parallelism": 1,
             "partitions": [{"generate": {"count": 100, "every_ms": 10, "keys": ["k"], "values": "sequence"}}]},
            {"uid": "rules", "kind": "source", "parallelism": 1,
             "partitions": [{"records": [{"at_ms": 200, "key": "min", "value": 50}, {"at_ms": 800, "key": "max", "value": 90}]}]},
            {"uid": "gate", "kind": "broadcast_filter", "parallelism": filter_p, "rules_from": "rules"},
            {"uid": "out", "kind": "sink", "sink": "two_phase_commit"}
        ],
        "edges": [
            {"from": "numbers", "to": "gate", "partitioning": "rebalance", "latency_ms": 2},
            {"from": "rules", "to": "gate", "partitioning": "broadcast", "latency_ms": 2},
            {"from": "gate", "to": "out", "partitioning": "rebalance", "latency_ms": 2}
        ]
    })
}

fn doc(job: Value, extra: Value) -> Value {
    let mut d = json!({"version": 1, "name": "ops", "seed": 4, "job": job, "checkpointing": {"interval_ms": 100}});
    for (k, v) in extra.as_object().unwrap() {
        d[k] = v.clone();
    }
    d
}

fn world(d: &Value) -> World {
    let s = Scenario::from_json(&d.to_string()).unwrap_or_else(|e| panic!("{e}"));
    World::new(&s, s.seed).unwrap_or_else(|e| panic!("{e}"))
}

fn rules_of(w: &World, uid: &str) -> Vec<BTreeMap<String, i64>> {
    common::subtask_states(w, uid)
        .into_iter()
        .map(|op| match op {
            OpState::Broadcast { rules } => rules
                .iter()
                .map(|(k, v)| (w.setup().keys.name(*k).to_string(), *v))
                .collect(),
            other => panic!("not broadcast: {other:?}"),
        })
        .collect()
}

fn committed_values(w: &World) -> Vec<i64> {
    let mut v: Vec<i64> = w
        .external()
        .values()
        .next()
        .unwrap()
        .committed
        .iter()
        .map(|r| r.value)
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn every_subtask_applies_every_rule_to_its_share_of_the_main_stream() {
    let mut w = world(&doc(rules_job(3), json!({})));
    w.run_until(500, |_| {});
    let copies = rules_of(&w, "gate");
    assert_eq!(copies.len(), 3);
    assert!(
        copies
            .iter()
            .all(|c| c == &BTreeMap::from([("min".to_string(), 50)])),
        "{copies:?}"
    );
    w.run_to_end(None, 600_000, |_| {});
    assert_eq!(w.status(), JobStatus::Finished);
    let out = committed_values(&w);
    // Before the rule (due at 200 ms, arriving a little later) records pass; after
    // it, only values from 50 up; after the max rule, none above 90.
    assert!(
        out.iter().any(|&v| v < 20),
        "records before the first rule pass"
    );
    assert!(
        !out.iter().any(|&v| (30..50).contains(&v)),
        "values under min are dropped once the rule is in"
    );
    assert!(
        !out.iter().any(|&v| v > 90),
        "values over max are dropped: {out:?}"
    );
    assert!(out.contains(&90));
}

#[test]
fn broadcast_state_is_checkpointed_by_every_subtask_and_restored_after_a_crash() {
    let d = doc(
        rules_job(2),
        json!({
            "restart": {"strategy": "fixed_delay", "attempts": 1, "delay_ms": 50},
            "script": [{"at_ms": 450, "action": "crash", "task": "gate#1"}]
        }),
    );
    let mut w = world(&d);
    w.run_until(440, |_| {});
    let c = w.coordinator().latest_completed().unwrap().clone();
    let meta = engine::summary::checkpoint_metadata(w.setup(), &c);
    let operator = meta["gate"]["operator"].as_array().unwrap();
    assert_eq!(operator.len(), 2, "each subtask writes its copy: {meta}");
    assert!(operator.iter().all(|o| o["rules"] == json!({"min": 50})));
    w.run_until(520, |_| {});
    assert_eq!(w.failures().len(), 1);
    assert!(
        rules_of(&w, "gate")
            .iter()
            .all(|c| c.get("min") == Some(&50)),
        "restored on every subtask"
    );
}

/// A rescaled restore gives every new subtask i the copy of old subtask i mod p.
#[test]
fn a_rescaled_restore_gives_every_subtask_the_broadcast_state() {
    for new_p in [1u32, 2, 5] {
        let earlier = doc(
            rules_job(3),
            json!({"script": [{"at_ms": 500, "action": "stop_with_savepoint"}]}),
        );
        let d = doc(rules_job(new_p), json!({"restore": {"from": earlier}}));
        let w = world(&d);
        let copies = rules_of(&w, "gate");
        assert_eq!(copies.len(), new_p as usize);
        assert!(
            copies
                .iter()
                .all(|c| c == &BTreeMap::from([("min".to_string(), 50)])),
            "p={new_p}: {copies:?}"
        );
    }
}

fn offsets_job(source_p: u32, mode: &str) -> Value {
    json!({
        "operators": [
            {"uid": "kafka", "kind": "source", "parallelism": source_p, "offsets_state": mode,
             "partitions": (0..4).map(|p| json!({"generate": {"count": 50, "every_ms": 10 + p, "values": "sequence"}})).collect::<Vec<_>>()},
            {"uid": "out", "kind": "sink", "sink": "at_least_once"}
        ],
        "edges": [{"from": "kafka", "to": "out", "partitioning": "rebalance", "latency_ms": 2}]
    })
}

fn offsets_of(w: &World) -> Vec<BTreeMap<u32, u64>> {
    common::subtask_states(w, "kafka")
        .into_iter()
        .map(|op| match op {
            OpState::Source(s) => s.offsets.clone(),
            other => panic!("{other:?}"),
        })
        .collect()
}

/// Even split cuts the concatenated lists [0, 2] [1, 3] into contiguous chunks;
/// union hands all four offsets to every subtask, which keeps p mod 3 == i.
#[test]
fn even_split_and_union_offsets_redistribute_differently() {
    let mut saved = BTreeMap::new();
    for (mode, expected) in [
        ("even_split", vec![vec![0, 2], vec![1], vec![3]]),
        ("union", vec![vec![0, 3], vec![1], vec![2]]),
    ] {
        let earlier = doc(
            offsets_job(2, mode),
            json!({"script": [{"at_ms": 300, "action": "stop_with_savepoint"}]}),
        );
        let w = world(&doc(
            offsets_job(3, mode),
            json!({"restore": {"from": earlier}}),
        ));
        let offsets = offsets_of(&w);
        let partitions: Vec<Vec<u32>> = offsets
            .iter()
            .map(|o| o.keys().copied().collect())
            .collect();
        assert_eq!(partitions, expected, "{mode}");
        let all: BTreeMap<u32, u64> = offsets.into_iter().flatten().collect();
        assert!(all.values().all(|&o| o > 0 && o < 50), "{mode}: {all:?}");
        saved.insert(mode, all);
    }
    assert_eq!(
        saved["even_split"], saved["union"],
        "the same savepoint content, placed differently"
    );
}

#[test]
fn bad_broadcast_and_offsets_declarations_name_the_field() {
    let mut job = rules_job(2);
    job["operators"][2]
        .as_object_mut()
        .unwrap()
        .remove("rules_from");
    let err = Scenario::from_json(&doc(job, json!({})).to_string()).unwrap_err();
    assert!(err.has_field("job.operators[2].rules_from"), "{err}");

    let mut job = rules_job(2);
    job["edges"][1]["partitioning"] = json!("rebalance");
    let err = Scenario::from_json(&doc(job, json!({})).to_string()).unwrap_err();
    assert!(err.has_field("job.operators[2].rules_from"), "{err}");
    assert!(err.to_string().contains("broadcast"), "{err}");

    let mut job = rules_job(2);
    job["operators"][3]["offsets_state"] = json!("union");
    let err = Scenario::from_json(&doc(job, json!({})).to_string()).unwrap_err();
    assert!(err.has_field("job.operators[3].offsets_state"), "{err}");

    let mut job = rules_job(2);
    job["operators"][3]["rules_from"] = json!("rules");
    let err = Scenario::from_json(&doc(job, json!({})).to_string()).unwrap_err();
    assert!(err.has_field("job.operators[3].rules_from"), "{err}");
}

#[test]
fn builtin_broadcast_rules_restores_the_rules_on_every_subtask() {
    let s = engine::runner::load("broadcast-rules").unwrap();
    let mut w = World::new(&s, s.seed).unwrap();
    w.run_to_end(None, 600_000, |_| {});
    assert_eq!(w.status(), JobStatus::Finished);
    assert_eq!(w.failures().len(), 1);
    assert!(w.failures()[0].restored_from.is_some());
    let copies = rules_of(&w, "gate");
    assert!(
        copies
            .iter()
            .all(|c| c == &BTreeMap::from([("max".to_string(), 90), ("min".to_string(), 50)])),
        "{copies:?}"
    );
    let late: Vec<i64> = w
        .external()
        .values()
        .next()
        .unwrap()
        .committed
        .iter()
        .skip(40)
        .map(|r| r.value)
        .collect();
    assert!(late.iter().all(|v| (50..=90).contains(v)), "{late:?}");
}

/// Flink's `DefaultCheckpointPlan.fulfillFinishedTaskStatus`
/// (`PartialFinishingNotSupportedByStateException`) as `CheckpointCoordinator.
/// finalizeCheckpoint` reports it: while one subtask of a union-offsets source has
/// finished and the other has not, every checkpoint is aborted with Flink's
/// message as `CHECKPOINT_DECLINED_TASK_CLOSING`, which `CheckpointFailureManager`
/// does not count — with no tolerable failure the job still finishes. An
/// even-split source in the same place completes those checkpoints.
#[test]
fn union_state_with_part_of_its_subtasks_finished_fails_the_checkpoint_uncounted() {
    use engine::cause::{AbortCause, CheckpointFailureReason};
    use engine::event::Event;
    let probe = include_str!("../flink/probes/union-partly-finished.json");
    let mut doc: Value = serde_json::from_str(probe).unwrap();
    doc["checkpointing"]["tolerable_failures"] = json!(0);
    for (mode, expect_aborts) in [("union", true), ("even_split", false)] {
        doc["job"]["operators"][0]["offsets_state"] = json!(mode);
        let s = Scenario::from_json(&doc.to_string()).unwrap();
        let (events, summary) = common::run_traced(&s);
        let finish: Vec<u64> = events
            .iter()
            .filter(
                |e| matches!(&e.event, Event::TaskFinished { task } if task.starts_with("kafka#")),
            )
            .map(|e| e.t)
            .collect();
        let (a, b) = (finish[0], finish[1]);
        assert!(a < b, "{mode}: the partitions end at different times");
        let aborted: Vec<&AbortCause> = events
            .iter()
            .filter(|e| e.t > a && e.t < b)
            .filter_map(|e| match &e.event {
                Event::CheckpointAborted { reason, .. } => Some(reason),
                _ => None,
            })
            .collect();
        let completed_between = events
            .iter()
            .any(|e| e.t > a && e.t < b && matches!(e.event, Event::CheckpointCompleted { .. }));
        if expect_aborts {
            assert!(!aborted.is_empty() && !completed_between, "{aborted:?}");
            for r in &aborted {
                assert_eq!(**r, AbortCause::PartlyFinishedUnionState("kafka".into()));
                assert_eq!(
                    r.flink_reason(),
                    CheckpointFailureReason::CheckpointDeclinedTaskClosing
                );
                assert!(!r.is_counted());
                assert_eq!(
                    r.flink_message(),
                    "The vertex kafka has used UnionListState, but part of its tasks has called operators' finish method."
                );
                // The contract's spelling parses back.
                assert_eq!(r.to_string().parse::<AbortCause>().as_ref(), Ok(*r));
            }
        } else {
            assert!(
                aborted.is_empty() && completed_between,
                "{mode}: {aborted:?}"
            );
        }
        assert_eq!(summary["job_status"], "finished", "{mode}: never counted");
    }
}
