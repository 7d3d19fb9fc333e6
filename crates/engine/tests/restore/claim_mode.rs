//! Who owns the snapshot a job starts from: `restore.claim_mode` (Flink's
//! `-claimMode`, `RecoveryClaimMode`). `CheckpointCoordinator.restoreSavepoint`
//! adds the snapshot to the new job's completed-checkpoint store under both modes;
//! under `CLAIM` with the job's own properties (deleted once subsumed, or by the
//! retention policy when the job ends), under `NO_CLAIM` as an unclaimed snapshot
//! (`CheckpointProperties.forUnclaimedSnapshot`: never deleted).

use engine::event::{Event, TraceEvent};
use engine::ids::CheckpointId;
use engine::view::StoredView;
use engine::{JobStatus, Scenario, World};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// The earlier job: a keyed count with retained checkpoints, canceled at
/// `cancel_ms` with retain-on-cancellation (so its latest checkpoint survives).
fn earlier(interval_ms: u64, cancel_ms: u64) -> Value {
    json!({
        "version": 1, "name": "v1", "seed": 7,
        "job": {
            "operators": [
                {"uid": "kafka", "kind": "source",
                 "partitions": [{"generate": {"count": 400, "every_ms": 10, "keys": ["a", "b", "c"], "values": "sequence"}}]},
                {"uid": "pv", "kind": "keyed_count"},
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit"}
            ],
            "edges": [
                {"from": "kafka", "to": "pv", "partitioning": "hash", "latency_ms": 5},
                {"from": "pv", "to": "out", "partitioning": "forward", "latency_ms": 5}
            ]
        },
        "checkpointing": {"interval_ms": interval_ms, "first_trigger_ms": interval_ms, "externalized": "retain_on_cancellation"},
        "script": [{"at_ms": cancel_ms, "action": "cancel"}]
    })
}

/// The same job started from the earlier job's retained checkpoint.
fn restored(from: Value, mode: &str, interval_ms: u64, retained: u32, until_ms: u64) -> Value {
    json!({
        "version": 1, "name": "v2", "seed": 7,
        "job": from["job"].clone(),
        "checkpointing": {"interval_ms": interval_ms, "first_trigger_ms": interval_ms, "retained": retained},
        "restore": {"from": from, "snapshot": "latest_checkpoint", "claim_mode": mode},
        "until_ms": until_ms
    })
}

fn parse(doc: &Value) -> Scenario {
    Scenario::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

/// The run's trace and the world at its end.
fn run(doc: &Value) -> (World, Vec<TraceEvent>) {
    let s = parse(doc);
    let mut w = World::new(&s, s.seed).unwrap();
    w.set_tracing(true);
    let mut trace = Vec::new();
    w.run_to_end(s.until_ms, 600_000, |evs| trace.extend_from_slice(evs));
    (w, trace)
}

/// The restored snapshot's id: the one the first `state_restored` names.
fn restored_id(trace: &[TraceEvent]) -> u64 {
    trace
        .iter()
        .find_map(|e| match &e.event {
            Event::StateRestored {
                checkpoint: Some(c),
                ..
            } => Some(c.0),
            _ => None,
        })
        .expect("the job restores a snapshot")
}

fn stored(w: &World, id: u64) -> Option<StoredView> {
    w.view()
        .coordinator
        .storage
        .into_iter()
        .find(|s| s.id.0 == id)
}

/// (time, checkpoint id) of every event `pick` names a checkpoint of.
fn checkpoints_in(
    trace: &[TraceEvent],
    pick: fn(&Event) -> Option<CheckpointId>,
) -> Vec<(u64, u64)> {
    trace
        .iter()
        .filter_map(|e| pick(&e.event).map(|c| (e.t, c.0)))
        .collect()
}

fn completions(trace: &[TraceEvent]) -> Vec<(u64, u64)> {
    checkpoints_in(trace, |e| match e {
        Event::CheckpointCompleted { checkpoint } => Some(*checkpoint),
        _ => None,
    })
}

fn deletions(trace: &[TraceEvent]) -> Vec<(u64, u64)> {
    checkpoints_in(trace, |e| match e {
        Event::ClaimedSnapshotDeleted { checkpoint } => Some(*checkpoint),
        _ => None,
    })
}

/// The two lessons: chk-3 of the canceled job; under CLAIM it is deleted the
/// moment chk-4 subsumes it, under NO_CLAIM it stays, the user's.
#[test]
fn the_claim_lessons_delete_or_keep_chk_3() {
    let (w, trace) = run(&serde_json::from_str(
        engine::runner::builtin("restore-claim").expect("a built-in"),
    )
    .unwrap());
    assert_eq!(restored_id(&trace), 3);
    assert_eq!(deletions(&trace), vec![(2220, 3)]);
    let at = trace
        .iter()
        .position(|e| matches!(e.event, Event::ClaimedSnapshotDeleted { .. }))
        .unwrap();
    assert!(
        matches!(trace[at - 1].event, Event::CheckpointCompleted { checkpoint } if checkpoint.0 == 4),
        "told right after the completion that subsumed it"
    );
    let chk3 = stored(&w, 3).expect("listed, struck through");
    assert!(chk3.discarded && chk3.started_from && !chk3.released);
    assert_eq!(chk3.claimed, Some(true));
    // What the tours quote: chk-3 holds offset 30 and 15 per app.
    assert_eq!(chk3.metadata["kafka"]["offsets"]["0"], json!(30));
    assert_eq!(
        chk3.metadata["pv"]["keyed"],
        json!({"app1": 15, "app2": 15})
    );

    let (w, trace) = run(&serde_json::from_str(
        engine::runner::builtin("restore-no-claim").expect("a built-in"),
    )
    .unwrap());
    assert_eq!(restored_id(&trace), 3);
    assert!(deletions(&trace).is_empty());
    let chk3 = stored(&w, 3).expect("still listed");
    assert!(!chk3.discarded && chk3.started_from && chk3.released);
    assert_eq!(chk3.claimed, Some(false));
    // Only the job's own newest checkpoint is retained besides it.
    let own: Vec<u64> = w
        .view()
        .coordinator
        .storage
        .iter()
        .filter(|s| !s.started_from)
        .map(|s| s.id.0)
        .collect();
    assert_eq!(own.len(), 1);
}

/// Property: with `retained` = k, a claimed snapshot is deleted exactly when the
/// new job's k-th own checkpoint completes (the store then holds k newer ones);
/// an unclaimed one is never deleted and is released at the same moment.
#[test]
fn a_claimed_snapshot_goes_when_the_kth_checkpoint_completes_over_many_seeds() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    // Cases whose k-th own checkpoint completed: where the claimed snapshot goes.
    let mut subsumed = 0;
    for case in 0..60 {
        let interval = rng.random_range(100..=400u64);
        let cancel = rng.random_range(interval * 2..=interval * 6);
        let retained = rng.random_range(1..=3u32);
        let until = cancel + rng.random_range(interval..=interval * 6);
        for mode in ["claim", "no_claim"] {
            let doc = restored(earlier(interval, cancel), mode, interval, retained, until);
            let (w, trace) = run(&doc);
            let id = restored_id(&trace);
            let own = completions(&trace);
            let kth = own.get(retained as usize - 1).copied();
            let ctx = format!("case {case} {mode}: interval {interval}, cancel {cancel}, retained {retained}, until {until}");
            let view = stored(&w, id).unwrap_or_else(|| panic!("{ctx}: restored snapshot listed"));
            assert_eq!(view.claimed, Some(mode == "claim"), "{ctx}");
            match (mode, kth) {
                ("claim", Some((t, _))) => {
                    subsumed += 1;
                    assert_eq!(deletions(&trace), vec![(t, id)], "{ctx}");
                    assert!(view.discarded && !view.released, "{ctx}");
                }
                ("no_claim", Some(_)) => {
                    assert!(deletions(&trace).is_empty(), "{ctx}");
                    assert!(!view.discarded && view.released, "{ctx}");
                }
                (_, None) => {
                    assert!(deletions(&trace).is_empty(), "{ctx}: not yet subsumed");
                    assert!(!view.discarded && !view.released, "{ctx}");
                }
                _ => unreachable!(),
            }
        }
    }
    assert!(
        subsumed >= 20,
        "only {subsumed} of 60 cases reached the k-th completion"
    );
}

/// Until its first own checkpoint, the job fails over to the restored snapshot
/// under both modes: the mode decides who deletes it, not whether the job uses it.
#[test]
fn a_failure_before_the_first_checkpoint_restores_the_snapshot_in_both_modes() {
    for mode in ["claim", "no_claim"] {
        let mut doc = restored(earlier(200, 700), mode, 500, 1, 2000);
        doc["script"] = json!([{"at_ms": 800, "action": "crash", "task": "pv#0"}]);
        doc["restart"] = json!({"strategy": "fixed_delay", "attempts": 2, "delay_ms": 50});
        let (_, trace) = run(&doc);
        let restores: Vec<Option<u64>> = trace
            .iter()
            .filter_map(|e| match &e.event {
                Event::StateRestored {
                    task, checkpoint, ..
                } if &**task == "pv#0" => Some(checkpoint.map(|c| c.0)),
                _ => None,
            })
            .collect();
        let first_own = completions(&trace).first().map(|c| c.0);
        assert!(
            first_own.is_none_or(|t| t > 800),
            "{mode}: crash before chk"
        );
        assert_eq!(restores.len(), 2, "{mode}: started, then failed over");
        assert_eq!(restores[0], restores[1], "{mode}: the same snapshot twice");
    }
}

/// When the job ends before its first checkpoint, the retention policy deletes
/// a claimed snapshot like the job's own checkpoints and leaves an unclaimed one.
#[test]
fn the_retention_policy_deletes_a_claimed_snapshot_only() {
    for mode in ["claim", "no_claim"] {
        let mut doc = restored(earlier(200, 700), mode, 500, 1, 3000);
        doc["script"] = json!([{"at_ms": 900, "action": "cancel"}]);
        let (w, trace) = run(&doc);
        assert_eq!(w.status(), JobStatus::Canceled);
        let id = restored_id(&trace);
        let discarded: Vec<u64> = trace
            .iter()
            .filter_map(|e| match &e.event {
                Event::CheckpointsDiscarded { checkpoints, .. } => Some(checkpoints.clone()),
                _ => None,
            })
            .flatten()
            .map(|c| c.0)
            .collect();
        let view = stored(&w, id).expect("listed");
        if mode == "claim" {
            assert_eq!(discarded, vec![id]);
            assert!(view.discarded);
        } else {
            assert!(discarded.is_empty(), "{discarded:?}");
            assert!(!view.discarded && view.released);
        }
    }
}

#[test]
fn an_unknown_claim_mode_names_the_field() {
    let mut doc = restored(earlier(200, 700), "claim", 500, 1, 2000);
    doc["restore"]["claim_mode"] = json!("legacy");
    let err = Scenario::from_json(&doc.to_string()).expect_err("not a mode the lab models");
    let text = err.to_string();
    assert!(text.contains("claim_mode"), "{text}");
    assert!(
        text.contains("no_claim") && text.contains("claim"),
        "{text}"
    );
}
