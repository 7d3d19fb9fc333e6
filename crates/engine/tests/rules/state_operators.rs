//! The operator kinds built on the keyed state types (`keyed_window_count`,
//! `keyed_reduce`, `keyed_average`, `keyed_dedup`): scenario validation, what they
//! emit, what their checkpoints hold (`_metadata` under `"states"`), TTL in a
//! running job, and their state carried through crash, restore and rescale.

use crate::common::{
    assert_sometimes, committed, per_key, random_scenario, restored_a_checkpoint, run_traced, Gen,
    Mode,
};
use engine::ids::TaskId;
use engine::operators::OpState;
use engine::restore::NonRestoredState::Refuse;
use engine::restore::{assign, from_completed, SavepointState};
use engine::scenario::{OperatorKind, ReduceFn, ScriptStep};
use engine::snapshot::OperatorSnapshot;
use engine::{Scenario, World};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

fn scenario(agg: Value, records: Value, extra: Value) -> Scenario {
    let mut doc = json!({
        "version": 1, "name": "state-op", "seed": 1,
        "job": {
            "operators": [
                {"uid": "in", "kind": "source", "partitions": [{"records": records}]},
                agg,
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit"}
            ],
            "edges": [
                {"from": "in", "to": "agg", "partitioning": "hash", "latency_ms": 1},
                {"from": "agg", "to": "out", "partitioning": "forward", "latency_ms": 1}
            ]
        },
        "checkpointing": {"interval_ms": 100, "first_trigger_ms": 100}
    });
    if let (Some(d), Some(e)) = (doc.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            d.insert(k.clone(), v.clone());
        }
    }
    Scenario::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("{e}\n{doc}"))
}

fn recs(list: &[(u64, &str, i64)]) -> Value {
    json!(list
        .iter()
        .map(|(t, k, v)| json!({"at_ms": t, "key": k, "value": v}))
        .collect::<Vec<_>>())
}

fn outputs(s: &Scenario) -> Vec<(String, i64)> {
    let (_, summary) = run_traced(s);
    assert_eq!(summary["job_status"], "finished", "{summary}");
    committed(&summary, "out")
}

fn pairs(list: &[(&str, i64)]) -> Vec<(String, i64)> {
    list.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

// ----- validation ---------------------------------------------------------------

fn errors_of(agg: Value) -> String {
    let doc = json!({
        "version": 1, "name": "bad",
        "job": {
            "operators": [
                {"uid": "in", "kind": "source", "partitions": [{"records": []}]},
                {"uid": "mid", "kind": "map", "fn": "identity"},
                agg,
                {"uid": "out", "kind": "sink", "sink": "at_least_once"}
            ],
            "edges": [
                {"from": "in", "to": "mid"},
                {"from": "mid", "to": "agg", "partitioning": "hash"},
                {"from": "agg", "to": "out"}
            ]
        }
    });
    Scenario::from_json(&doc.to_string())
        .expect_err("invalid")
        .to_string()
}

/// Every new field is checked where it belongs, and the error names its path.
#[test]
fn bad_state_fields_name_the_field() {
    let e = errors_of(json!({"uid": "agg", "kind": "keyed_window_count"}));
    assert!(
        e.contains("job.operators[2].window_ms") && e.contains("needs"),
        "{e}"
    );
    let e = errors_of(json!({"uid": "agg", "kind": "keyed_window_count", "window_ms": 0}));
    assert!(
        e.contains("job.operators[2].window_ms: must be at least 1 ms"),
        "{e}"
    );
    let e = errors_of(json!({"uid": "agg", "kind": "keyed_reduce"}));
    assert!(
        e.contains("job.operators[2].reduce") && e.contains("sum, max or min"),
        "{e}"
    );
    let e = errors_of(json!({"uid": "agg", "kind": "keyed_sum", "reduce": "max", "window_ms": 5}));
    assert!(
        e.contains("job.operators[2].reduce: only a keyed_reduce"),
        "{e}"
    );
    assert!(
        e.contains("job.operators[2].window_ms: only a keyed_window_count"),
        "{e}"
    );
    let e = errors_of(json!({"uid": "agg", "kind": "keyed_dedup", "ttl": {"ttl_ms": 0}}));
    assert!(
        e.contains("job.operators[2].ttl.ttl_ms: must be at least 1 ms"),
        "{e}"
    );
    let e = errors_of(json!({"uid": "agg", "kind": "keyed_average",
        "ttl": {"ttl_ms": 5, "cleanup": {"incremental": {"cleanup_size": 0}}}}));
    assert!(
        e.contains("job.operators[2].ttl.cleanup.incremental.cleanup_size"),
        "{e}"
    );
    let e = errors_of(json!({"uid": "agg", "kind": "keyed_count", "ttl": {"ttl_ms": 5}}));
    assert!(
        e.contains("job.operators[2].ttl: only keyed_window_count"),
        "{e}"
    );
    let e = errors_of(
        json!({"uid": "agg", "kind": "keyed_dedup", "ttl": {"ttl_ms": 5, "visibilty": "x"}}),
    );
    assert!(
        e.contains("job.operators[2].ttl") && e.contains("visibilty"),
        "an unknown TTL field is an error: {e}"
    );
    let e = errors_of(
        json!({"uid": "agg", "kind": "keyed_dedup", "ttl": {"ttl_ms": 5, "update_type": "on_write"}}),
    );
    assert!(e.contains("job.operators[2].ttl.update_type"), "{e}");
    // A keyed operator of the new kinds needs a hash input edge, as keyed_sum does.
    let doc = json!({"version": 1, "name": "x", "job": {
        "operators": [{"uid": "in", "kind": "source", "partitions": [{"records": []}]},
                      {"uid": "agg", "kind": "keyed_average"}],
        "edges": [{"from": "in", "to": "agg", "partitioning": "rebalance"}]}});
    let e = Scenario::from_json(&doc.to_string())
        .expect_err("invalid")
        .to_string();
    assert!(
        e.contains("job.edges[0].partitioning") && e.contains("keyed_average"),
        "{e}"
    );
}

/// A valid document with every new field survives export and import unchanged.
#[test]
fn state_fields_round_trip_through_json() {
    let s = scenario(
        json!({"uid": "agg", "kind": "keyed_dedup", "ttl": {"ttl_ms": 50, "update_type": "on_read_and_write",
               "visibility": "return_expired_if_not_cleaned_up",
               "cleanup": {"full_snapshot": true, "incremental": {"cleanup_size": 2, "run_for_every_record": true}}}}),
        recs(&[]),
        json!({}),
    );
    let back = Scenario::from_json(&s.to_json()).expect("round trip");
    assert_eq!(back, s);
    assert_eq!(s.job.operators[1].kind, OperatorKind::KeyedDedup);
}

// ----- what they emit -----------------------------------------------------------

/// keyed_window_count: tumbling windows by processing time ([0,100), [100,200), …);
/// a key's window fires when that key's first record of a later window arrives.
#[test]
fn window_count_fires_on_the_next_window_per_key() {
    // Latency 1: records are processed at at_ms + 1.
    let r = recs(&[
        (10, "a", 1),
        (20, "b", 1),
        (30, "a", 1),
        (50, "a", 1),
        (110, "a", 1),
        (150, "a", 1),
        (290, "a", 1),
        (310, "b", 1),
    ]);
    let s = scenario(
        json!({"uid": "agg", "kind": "keyed_window_count", "window_ms": 100}),
        r,
        json!({}),
    );
    assert_eq!(
        outputs(&s),
        pairs(&[("a", 3), ("a", 2), ("b", 1)]),
        "a's window [200,300) and b's [300,400) never fire"
    );
}

/// keyed_reduce (max) and keyed_average (AggregatingState: average from sum and count).
#[test]
fn reduce_and_average_emit_the_folded_value() {
    let r = recs(&[
        (10, "a", 4),
        (20, "a", 9),
        (30, "b", 2),
        (40, "a", 5),
        (50, "b", 7),
    ]);
    let s = scenario(
        json!({"uid": "agg", "kind": "keyed_reduce", "reduce": "max"}),
        r.clone(),
        json!({}),
    );
    assert_eq!(
        outputs(&s),
        pairs(&[("a", 4), ("a", 9), ("b", 2), ("a", 9), ("b", 7)])
    );
    let s = scenario(json!({"uid": "agg", "kind": "keyed_average"}), r, json!({}));
    assert_eq!(
        outputs(&s),
        pairs(&[("a", 4), ("a", 6), ("b", 2), ("a", 6), ("b", 4)])
    );
}

/// keyed_dedup: a value already seen for the key is dropped; other keys are separate.
/// With TTL the de-duplication forgets a value once it expired (OnCreateAndWrite:
/// the duplicate read does not extend it); with OnReadAndWrite each read of the
/// duplicate keeps it alive.
#[test]
fn dedup_drops_seen_values_and_forgets_them_after_the_ttl() {
    let r = recs(&[
        (10, "a", 5),
        (20, "b", 5),
        (50, "a", 5),
        (130, "a", 5),
        (200, "a", 5),
        (300, "a", 6),
    ]);
    let plain = scenario(
        json!({"uid": "agg", "kind": "keyed_dedup"}),
        r.clone(),
        json!({}),
    );
    assert_eq!(outputs(&plain), pairs(&[("a", 5), ("b", 5), ("a", 6)]));
    let ttl = scenario(
        json!({"uid": "agg", "kind": "keyed_dedup", "ttl": {"ttl_ms": 100}}),
        r.clone(),
        json!({}),
    );
    // 5 seen at 11; expired at 111: 131 passes and is remembered anew; 201 is a duplicate.
    assert_eq!(
        outputs(&ttl),
        pairs(&[("a", 5), ("b", 5), ("a", 5), ("a", 6)])
    );
    let on_read = scenario(
        json!({"uid": "agg", "kind": "keyed_dedup", "ttl": {"ttl_ms": 100, "update_type": "on_read_and_write"}}),
        r,
        json!({}),
    );
    // The duplicate at 51 refreshes 5 until 151, so 131 is a duplicate (refreshing to 231), and 201 too.
    assert_eq!(outputs(&on_read), pairs(&[("a", 5), ("b", 5), ("a", 6)]));
}

// ----- checkpoints ---------------------------------------------------------------

/// `_metadata` holds every named state under "states"; TTL's full-snapshot cleanup
/// leaves expired values out of the checkpoint while the live state (the
/// inspector's view) still holds them.
#[test]
fn metadata_lists_named_states_and_full_snapshot_cleanup_filters_them() {
    let r = recs(&[
        (10, "a", 1),
        (20, "a", 2),
        (30, "b", 3),
        (150, "b", 4),
        (450, "b", 5),
    ]);
    let run = |cleanup: Value| {
        let s = scenario(
            json!({"uid": "agg", "kind": "keyed_dedup", "ttl": {"ttl_ms": 200, "cleanup": cleanup}}),
            r.clone(),
            json!({}),
        );
        let mut w = World::new(&s, 1).expect("world");
        w.run_until(320, |_| {});
        let c = w
            .coordinator()
            .latest_completed()
            .expect("checkpoint 3 at 300")
            .clone();
        assert_eq!(c.id.0, 3);
        let live = match &w.tasks()[1].op {
            OpState::KeyedStates(store) => store.tables()["seen"].entries.len(),
            other => panic!("not a keyed-state store: {other:?}"),
        };
        (
            engine::summary::checkpoint_metadata(w.setup(), &c)["agg"].clone(),
            live,
        )
    };
    // Checkpoint 3 is taken at 300. Without cleanup: 1, 2, 3 (written at 11, 21, 31)
    // expired at 211, 221, 231, but nobody read them: they stay, in the state and in
    // the checkpoint; 4 (151) lives until 351.
    let (meta, live) = run(json!({}));
    assert_eq!(
        meta,
        json!({"states": {"seen": {"a": {"1": 11, "2": 21}, "b": {"3": 31, "4": 151}}}})
    );
    assert_eq!(live, 2);
    let (meta, live) = run(json!({"full_snapshot": true}));
    assert_eq!(
        meta,
        json!({"states": {"seen": {"b": {"4": 151}}}}),
        "expired entries filtered out of the snapshot"
    );
    assert_eq!(live, 2, "but not out of the live state");
}

/// The World's view (the inspector) shows expired values still stored, counted.
#[test]
fn view_shows_expired_values_until_cleaned_up() {
    let s = scenario(
        json!({"uid": "agg", "kind": "keyed_average", "ttl": {"ttl_ms": 50}}),
        recs(&[(10, "a", 4), (20, "a", 8), (200, "b", 1)]),
        json!({}),
    );
    let mut w = World::new(&s, 1).expect("world");
    w.run_until(150, |_| {});
    let view = w.view();
    let engine::view::StateView::KeyedStates { states } = &view.tasks[1].state else {
        panic!("{:?}", view.tasks[1].state)
    };
    assert_eq!(states.len(), 1);
    assert_eq!(
        (
            states[0].name.as_str(),
            states[0].kind.as_str(),
            states[0].ttl_ms
        ),
        ("average", "AggregatingState", Some(50))
    );
    let a = &states[0].entries[0];
    assert_eq!(
        (a.key.as_ref(), a.value.as_str(), a.expired_units),
        ("a", r#"{"count":2,"sum":12}"#, 1)
    );
}

fn failure_free(s: &Scenario) -> Scenario {
    let mut f = s.clone();
    f.script.retain(|x| !matches!(x, ScriptStep::Crash { .. }));
    f
}

fn with_kind(mut s: Scenario, kind: OperatorKind, reduce: Option<ReduceFn>) -> Scenario {
    let agg = &mut s.job.operators[2];
    agg.kind = kind;
    agg.reduce = reduce;
    s.validate().expect("still valid");
    s
}

/// The exactly-once oracle for the new kinds: with crashes (restores from
/// checkpoints, aligned and unaligned), each key gets as many outputs as without,
/// and the interleaving-independent results agree: the final sum and max, the
/// average over all of a key's records, the set of de-duplicated values with no
/// value twice. A state lost or restored twice would change them.
#[test]
fn named_states_survive_crashes_exactly_once() {
    // Runs that failed over to a checkpoint: where a named state is restored.
    let restored = std::cell::Cell::new(0);
    for seed in 0..60 {
        let mode = if seed % 3 == 0 {
            Mode::Unaligned
        } else {
            Mode::Aligned
        };
        let base = random_scenario(
            seed,
            &Gen {
                mode,
                crashes: true,
                sink: "two_phase_commit",
                aligned_timeout: false,
                keyed: Some("keyed_count"),
            },
        );
        let run = |s: &Scenario| {
            let (_, summary) = run_traced(s);
            assert_eq!(
                summary["job_status"], "finished",
                "seed {seed}: {}",
                summary["failures"]
            );
            restored.set(restored.get() + usize::from(restored_a_checkpoint(&summary)));
            per_key(&committed(&summary, "out"))
        };
        let sum = with_kind(base.clone(), OperatorKind::KeyedReduce, Some(ReduceFn::Sum));
        let (got, want) = (run(&sum), run(&failure_free(&sum)));
        let finals: BTreeMap<&String, (usize, i64)> = want
            .iter()
            .map(|(k, v)| (k, (v.len(), *v.iter().max().unwrap())))
            .collect();
        for (k, v) in &got {
            assert_eq!(
                Some(&(v.len(), *v.iter().max().unwrap())),
                finals.get(k),
                "seed {seed} sum {k}"
            );
        }
        assert_eq!(got.len(), want.len(), "seed {seed}: keys");

        let max = with_kind(base.clone(), OperatorKind::KeyedReduce, Some(ReduceFn::Max));
        let (got, want) = (run(&max), run(&failure_free(&max)));
        let shape = |m: &BTreeMap<String, Vec<i64>>| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.len(), v.iter().max().copied()))
                .collect::<Vec<_>>()
        };
        assert_eq!(shape(&got), shape(&want), "seed {seed}: max");

        let avg = with_kind(base.clone(), OperatorKind::KeyedAverage, None);
        for out in [run(&avg), run(&failure_free(&avg))] {
            for (k, (n, total)) in &finals {
                let v = &out[*k];
                assert_eq!(v.len(), *n, "seed {seed}: average outputs of {k}");
                assert!(v.contains(&(total / *n as i64)), "seed {seed}: the average over all of {k}'s records ({total}/{n}) is never emitted: {v:?}");
            }
        }

        let dedup = with_kind(base.clone(), OperatorKind::KeyedDedup, None);
        let (got, want) = (run(&dedup), run(&failure_free(&dedup)));
        for out in [&got, &want] {
            for (k, v) in out {
                assert_eq!(
                    v.iter().collect::<BTreeSet<_>>().len(),
                    v.len(),
                    "seed {seed}: {k} emitted a value twice: {v:?}"
                );
            }
        }
        let sets = |m: &BTreeMap<String, Vec<i64>>| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.iter().copied().collect::<BTreeSet<_>>()))
                .collect::<BTreeMap<_, _>>()
        };
        assert_eq!(sets(&got), sets(&want), "seed {seed}: dedup");
    }
    // Four kinds a seed, each run with its crashes.
    assert_sometimes(restored.get(), 40, 240, "failed over to a checkpoint");
}

// ----- restore and rescale ------------------------------------------------------

fn rescale_scenario(kind: &str) -> Scenario {
    let keys = ["a", "b", "c", "hello", "flink", "odd", "even"];
    let mut agg = json!({"uid": "agg", "kind": kind, "parallelism": 2, "ttl": {"ttl_ms": 1000}});
    match kind {
        "keyed_window_count" => agg["window_ms"] = json!(70),
        "keyed_reduce" => agg["reduce"] = json!("min"),
        _ => {}
    }
    let doc = json!({
        "version": 1, "name": "rescale", "seed": 5,
        "job": {
            "operators": [
                {"uid": "in", "kind": "source", "parallelism": 2, "partitions": [
                    {"generate": {"count": 80, "every_ms": 3, "keys": keys, "values": "random"}},
                    {"generate": {"count": 80, "every_ms": 4, "keys": keys, "values": "random"}}]},
                agg,
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit", "parallelism": 2}
            ],
            "edges": [
                {"from": "in", "to": "agg", "partitioning": "hash", "latency_ms": 2},
                {"from": "agg", "to": "out", "partitioning": "forward", "latency_ms": 2}
            ]
        },
        "checkpointing": {"interval_ms": 90},
        "until_ms": 250
    });
    Scenario::from_json(&doc.to_string()).expect("scenario")
}

/// Named keyed states through the savepoint form and `assign` onto 1, 2 and 3
/// subtasks: every (state, key) lands exactly once, on the subtask owning its key
/// group, with its value and TTL timestamp; unchanged parallelism gives every
/// subtask exactly its own snapshot back.
#[test]
fn named_states_follow_key_groups_when_rescaling() {
    for kind in [
        "keyed_window_count",
        "keyed_reduce",
        "keyed_average",
        "keyed_dedup",
    ] {
        let s = rescale_scenario(kind);
        let mut w = World::new(&s, 5).expect("world");
        w.run_until(250, |_| {});
        let c = w
            .coordinator()
            .latest_completed()
            .expect("completed")
            .clone();
        let setup = w.setup();
        let state = from_completed(&c, setup);
        let text = serde_json::to_string(&state).expect("serialize");
        let state: SavepointState = serde_json::from_str(&text).expect("deserialize");
        // What the checkpoint holds for agg, per (state, key).
        let mut original = BTreeMap::new();
        for i in 0..2u32 {
            let OperatorSnapshot::KeyedStates { states } = &c.tasks[&TaskId(2 + i)].state else {
                panic!("{kind}: no named states")
            };
            for (name, entries) in states {
                for (k, v) in entries {
                    original.insert((name.clone(), *k), v.clone());
                }
            }
        }
        assert!(
            original.len() >= 5,
            "{kind}: too few entries to test: {}",
            original.len()
        );
        for p in [1u32, 2, 3] {
            let mut job = s.job.clone();
            job.operators[1].parallelism = p;
            let out = assign(&state, &job, Refuse, &setup.keys).expect("assign");
            let mut restored = BTreeMap::new();
            for i in 0..p {
                let r = &out[&(1, i)];
                let OperatorSnapshot::KeyedStates { states } =
                    r.to_task_snapshot(&job.operators[1], &setup.keys).state
                else {
                    panic!("{kind}: restored as another shape")
                };
                for (name, entries) in states {
                    for (k, v) in entries {
                        assert!(
                            r.key_groups
                                .contains(&setup.keys.key_group(k, setup.max_parallelism[1])),
                            "{kind} p={p}: key outside the subtask's key groups"
                        );
                        assert!(
                            restored.insert((name.clone(), k), v).is_none(),
                            "{kind} p={p}: restored twice"
                        );
                    }
                }
                if p == 2 {
                    let own = &c.tasks[&TaskId(2 + i)].state;
                    assert_eq!(
                        &r.to_task_snapshot(&job.operators[1], &setup.keys).state,
                        own,
                        "{kind}: subtask {i} gets its own state"
                    );
                }
            }
            assert_eq!(restored, original, "{kind} p={p}");
        }
    }
}

/// The keyed state store (TTL timestamps, map and accumulator values) and the
/// rocksdb registry of a running World serialize and read back equal (keyframes,
/// share links).
///
/// Not the whole World: serde cannot read integer-keyed maps back inside the
/// internally tagged `OpState` / `OperatorSnapshot` enums — a limitation that
/// `OpState::Keyed` had before the named states came.
#[test]
fn named_states_and_registry_round_trip_through_serde() {
    let mut s = rescale_scenario("keyed_dedup");
    s.checkpointing.as_mut().unwrap().backend = engine::scenario::BackendKind::Rocksdb;
    let mut w = World::new(&s, 5).expect("world");
    w.run_until(200, |_| {});
    let reg = w.coordinator().shared();
    assert!(!reg.files().is_empty(), "a shared file to carry");
    let back: engine::state::shared_registry::SharedStateRegistry =
        serde_json::from_str(&serde_json::to_string(reg).unwrap()).expect("registry reads back");
    assert_eq!(&back, reg);
    let OpState::KeyedStates(store) = &w.tasks()[2].op else {
        panic!("a store")
    };
    assert!(!store.tables()["seen"].entries.is_empty());
    let back: engine::state::KeyedStateStore =
        serde_json::from_str(&serde_json::to_string(store).unwrap()).expect("store reads back");
    assert_eq!(&back, store);
}
