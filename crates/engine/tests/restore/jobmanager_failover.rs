//! `crash_jobmanager`: what survives the JobManager depends on the checkpoint
//! storage — the lesson that the state backend must be highly available: with
//! `jobmanager` storage the completed checkpoints die with the process.

use engine::runner::{self, RunOptions};
use engine::{JobStatus, Scenario, World};
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn doc(storage: &str, restart: Value) -> Value {
    json!({
        "version": 1, "name": "jm", "seed": 2,
        "job": {
            "operators": [
                {"uid": "kafka", "kind": "source", "parallelism": 1,
                 "partitions": [{"generate": {"count": 100, "every_ms": 10, "keys": ["app1", "app2"], "values": "sequence"}}]},
                {"uid": "pv", "kind": "keyed_count", "parallelism": 2},
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit"}
            ],
            "edges": [
                {"from": "kafka", "to": "pv", "partitioning": "hash", "latency_ms": 2},
                {"from": "pv", "to": "out", "partitioning": "rebalance", "latency_ms": 2}
            ]
        },
        "checkpointing": {"interval_ms": 100, "first_trigger_ms": 100, "storage": storage},
        "restart": restart,
        "script": [{"at_ms": 450, "action": "crash_jobmanager"}]
    })
}

fn run(d: &Value) -> (World, Vec<Value>) {
    let s = Scenario::from_json(&d.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let mut events = Vec::new();
    let w = runner::run(
        &s,
        &RunOptions {
            trace: true,
            ..RunOptions::default()
        },
        |e| events.push(serde_json::to_value(e).unwrap()),
    )
    .unwrap();
    (w, events)
}

fn committed_per_key(w: &World) -> BTreeMap<String, Vec<i64>> {
    let mut m: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for r in &w.external().values().next().unwrap().committed {
        m.entry(w.setup().keys.name(r.key.unwrap()).to_string())
            .or_default()
            .push(r.value);
    }
    m
}

#[test]
fn with_filesystem_storage_the_new_leader_restores_the_latest_checkpoint() {
    let (w, events) = run(&doc("filesystem", json!({"strategy": "none"})));
    let jm: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "jobmanager_failed")
        .collect();
    assert_eq!(jm.len(), 1);
    assert_eq!(jm[0]["checkpoints_lost"], json!([]));
    assert_eq!(
        jm[0]["delay_ms"],
        json!(engine::world::JOBMANAGER_RECOVERY_MS)
    );
    let restored: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "state_restored" && e["task"] == "pv#0")
        .collect();
    assert_eq!(
        restored.last().unwrap()["checkpoint"],
        json!(4),
        "latest completed before 450 ms"
    );
    // Not a task failure: even the `none` strategy lets the job go on.
    assert_eq!(w.status(), JobStatus::Finished);
    assert_eq!(w.failures().len(), 1);
    assert_eq!(w.failures()[0].restored_from.map(|c| c.0), Some(4));
    // Exactly once: each key counted 1..n once.
    for (k, v) in committed_per_key(&w) {
        assert_eq!(v, (1..=v.len() as i64).collect::<Vec<_>>(), "{k}");
    }
}

#[test]
fn with_jobmanager_storage_the_checkpoints_die_with_it_and_the_job_starts_from_scratch() {
    let (w, events) = run(&doc(
        "jobmanager",
        json!({"strategy": "fixed_delay", "attempts": 1, "delay_ms": 10}),
    ));
    let jm = events
        .iter()
        .find(|e| e["type"] == "jobmanager_failed")
        .unwrap();
    assert_eq!(
        jm["checkpoints_lost"],
        json!([4]),
        "the retained checkpoint lived in the JobManager"
    );
    let after: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "state_restored" && e["t"].as_u64().unwrap() > 450)
        .collect();
    assert!(!after.is_empty());
    assert!(
        after.iter().all(|e| e["checkpoint"].is_null()),
        "fresh start: {after:?}"
    );
    // The source reads from offset 0 again: committed counts start over, so the
    // output holds every count up to the crash twice — the lesson's duplicates.
    let out = committed_per_key(&w);
    let twice = out
        .values()
        .any(|v| v.iter().filter(|&&x| x == 1).count() == 2);
    assert!(twice, "{out:?}");
    assert_eq!(w.status(), JobStatus::Finished);
}

#[test]
fn crash_jobmanager_takes_no_task_and_is_ignored_when_the_job_is_not_running() {
    let mut d = doc("filesystem", json!({"strategy": "none"}));
    d["script"] = json!([{"at_ms": 450, "action": "crash_jobmanager", "task": "pv#0"}]);
    let err = Scenario::from_json(&d.to_string()).expect_err("no task field");
    assert_eq!(err.errors[0].field, "script[0]", "{err}");
    d["script"] =
        json!([{"at_ms": 100, "action": "cancel"}, {"at_ms": 450, "action": "crash_jobmanager"}]);
    d["until_ms"] = json!(1000);
    let (w, events) = run(&d);
    assert_eq!(w.status(), JobStatus::Canceled);
    assert!(events
        .iter()
        .any(|e| e["type"] == "action_ignored" && e["action"] == "crash_jobmanager"));
}

fn summary(name: &str) -> Value {
    let s = runner::load(name).unwrap();
    let lines = runner::run_lines(&s, &RunOptions::default()).unwrap();
    serde_json::from_str(lines.last().unwrap()).unwrap()
}

/// Lesson 10's twins: the same run, one storage each.
#[test]
fn builtin_jobmanager_crash_twins_differ_exactly_in_what_survives() {
    let jm = summary("jobmanager-crash-jobmanager");
    let fs = summary("jobmanager-crash-filesystem");
    assert_eq!(jm["failures"][0]["restored_from"], Value::Null);
    assert_eq!(fs["failures"][0]["restored_from"], json!(3));
    let count = |s: &Value| s["sinks"]["out"]["committed"].as_array().unwrap().len();
    assert_eq!(count(&fs), 100, "filesystem: every record counted once");
    assert!(
        count(&jm) > 100,
        "jobmanager: the replay from offset 0 commits counts again"
    );
}

#[test]
fn builtin_storage_limit_declines_with_both_sizes_and_fails_over_after_the_tolerated_two() {
    let s = summary("jobmanager-storage-limit");
    let cps = s["checkpoints"].as_array().unwrap();
    assert_eq!(cps[0]["status"], "completed");
    assert_eq!(cps[1]["status"], "completed");
    let failed_at = s["failures"][0]["at_ms"].as_u64().unwrap();
    let declined: Vec<&Value> = cps
        .iter()
        .skip(2)
        .filter(|c| c["trigger_ms"].as_u64().unwrap() < failed_at)
        .collect();
    assert_eq!(
        declined.len(),
        3,
        "two tolerated declines, the third fails the job over"
    );
    for c in &declined {
        let reason = c["reason"].as_str().unwrap();
        assert!(
            reason.contains("Size=") && reason.contains("maxSize=200"),
            "{reason}"
        );
    }
    assert_eq!(s["failures"][0]["restored_from"], json!(2));
}

#[test]
fn builtin_backend_twins_upload_full_versus_incremental() {
    let rocks = summary("state-backend-rocksdb");
    let heap = summary("state-backend-hashmap");
    let sizes = |s: &Value| -> Vec<(u64, u64)> {
        s["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["state_bytes"].as_u64().unwrap(),
                    c["uploaded_bytes"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let (r, h) = (sizes(&rocks), sizes(&heap));
    assert_eq!(
        r.iter().map(|x| x.0).collect::<Vec<_>>(),
        h.iter().map(|x| x.0).collect::<Vec<_>>(),
        "same full sizes"
    );
    assert!(
        h.iter().all(|(full, up)| full == up),
        "hashmap uploads everything"
    );
    // Every checkpoint after the first, while keyed state is large (the last ones
    // are taken after the keyed count finished), uploads less than its full size.
    let keyed: Vec<&(u64, u64)> = r.iter().skip(1).filter(|(full, _)| *full > 100).collect();
    assert!(keyed.len() >= 5);
    assert!(
        keyed.iter().all(|(full, up)| up < full),
        "rocksdb uploads only what changed: {r:?}"
    );
}

/// Checkpoints that died with the JobManager (Flink:
/// `JobManagerCheckpointStorage` keeps them in the JobManager's heap, so the
/// `CompletedCheckpointStore` a new leader recovers holds nothing usable) keep
/// their status `completed` and are marked `lost` — in the summary JSON and in the
/// views — while filesystem storage loses nothing.
#[test]
fn checkpoints_lost_with_the_jobmanager_stay_completed_and_are_marked_lost() {
    for (storage, expect_lost) in [("jobmanager", true), ("filesystem", false)] {
        let (w, events) = run(&doc(storage, json!({"strategy": "none"})));
        let lost_ids: Vec<u64> = events
            .iter()
            .filter(|e| e["type"] == "jobmanager_failed")
            .flat_map(|e| {
                e["checkpoints_lost"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            })
            .filter_map(|v| v.as_u64())
            .collect();
        assert_eq!(!lost_ids.is_empty(), expect_lost, "{storage}: {lost_ids:?}");
        let summary = serde_json::to_value(engine::summary::Summary::of(
            &w,
            engine::summary::Metadata::Omitted,
        ))
        .unwrap();
        for c in summary["checkpoints"].as_array().unwrap() {
            let id = c["id"].as_u64().unwrap();
            if lost_ids.contains(&id) {
                assert_eq!(c["status"], "completed", "{storage}: {c}");
                assert_eq!(c["lost"], true, "{storage}: {c}");
            } else {
                assert!(
                    c.get("lost").is_none(),
                    "{storage}: only lost ones say so: {c}"
                );
            }
        }
        let view = w.view();
        let lost_in_view: Vec<u64> = view
            .coordinator
            .storage
            .iter()
            .filter(|s| s.lost)
            .map(|s| s.id.0)
            .collect();
        assert_eq!(lost_in_view, lost_ids, "{storage}: the storage view");
        let lost_in_history: Vec<u64> = view
            .coordinator
            .history
            .iter()
            .filter(|h| h.lost)
            .map(|h| h.id.0)
            .collect();
        assert_eq!(lost_in_history, lost_ids, "{storage}: the history view");
    }
}
