//! The `rocksdb` backend's incremental checkpoints in the contract's file model and
//! the shared-state registry (Flink: `RocksIncrementalSnapshotStrategy`,
//! `SharedStateRegistryImpl`; docs/flink-semantics.md §7), and the property that
//! whatever the backend, a restore yields exactly the state that was checkpointed.

use crate::common::{random_scenario, Gen, Mode};
use engine::event::Event;
use engine::ids::CheckpointId;
use engine::operators::OpState;
use engine::scenario::{BackendKind, OperatorKind, ReduceFn};
use engine::snapshot::OperatorSnapshot;
use engine::state::shared_registry::keyed_entries;
use engine::{Scenario, World};
use serde_json::json;

/// `a`, `b`, `c` once each before checkpoint 1; then only `a` changes (every 20 ms
/// until 500); `b` and `c` change again at 610 and 620. Checkpoints every 100 ms.
fn scenario(backend: &str, retained: u32) -> Scenario {
    let mut records = vec![
        json!({"at_ms": 10, "key": "a", "value": 1}),
        json!({"at_ms": 20, "key": "b", "value": 1}),
        json!({"at_ms": 30, "key": "c", "value": 1}),
    ];
    for t in (110..=500).step_by(20) {
        records.push(json!({"at_ms": t, "key": "a", "value": 1}));
    }
    records.push(json!({"at_ms": 610, "key": "b", "value": 1}));
    records.push(json!({"at_ms": 620, "key": "c", "value": 1}));
    // Keeps the source running past until_ms (no final checkpoint, no finished tasks).
    records.push(json!({"at_ms": 5000, "key": "c", "value": 1}));
    let doc = json!({
        "version": 1, "name": "incremental", "seed": 1,
        "job": {
            "operators": [
                {"uid": "in", "kind": "source", "partitions": [{"records": records}]},
                {"uid": "sum", "kind": "keyed_sum"},
                {"uid": "out", "kind": "sink", "sink": "at_least_once"}
            ],
            "edges": [
                {"from": "in", "to": "sum", "partitioning": "hash", "latency_ms": 1},
                {"from": "sum", "to": "out", "latency_ms": 1}
            ]
        },
        "checkpointing": {"interval_ms": 100, "first_trigger_ms": 100, "backend": backend, "retained": retained},
        "until_ms": 1000
    });
    Scenario::from_json(&doc.to_string()).expect("scenario")
}

/// (state_bytes, uploaded_bytes) of subtask `sum#0` per completed checkpoint.
fn sum_sizes(w: &World) -> Vec<(u64, u64, u64)> {
    let t = w.task_id("sum#0").unwrap();
    w.coordinator()
        .history()
        .iter()
        .filter(|(_, h)| h.end_at.is_some())
        .filter_map(|(id, h)| {
            h.subtasks
                .get(&t)
                .map(|s| (id.0, s.state_bytes, s.uploaded_bytes))
        })
        .collect()
}

/// Mirrors RocksIncrementalSnapshotStrategy: a checkpoint after a small change
/// uploads little — only the changed entry — while its full size stays that of
/// all keys; hashmap uploads everything every time.
#[test]
fn a_checkpoint_after_a_small_change_uploads_little() {
    let mut w = World::new(&scenario("rocksdb", 1), 1).unwrap();
    w.run_until(1000, |_| {});
    let sizes = sum_sizes(&w);
    // One key entry is 17 bytes (16 + "a").
    assert_eq!(sizes[0], (1, 51, 51), "checkpoint 1: a, b, c new");
    for &(id, full, up) in &sizes[1..5] {
        assert_eq!((full, up), (51, 17), "checkpoint {id}: only a changed");
    }
    assert_eq!(
        sizes[5],
        (6, 51, 0),
        "checkpoint 6 (600): nothing changed since 500"
    );
    assert_eq!(sizes[6], (7, 51, 34), "checkpoint 7: b and c changed");
    let mut h = World::new(&scenario("hashmap", 1), 1).unwrap();
    h.run_until(1000, |_| {});
    assert!(
        sum_sizes(&h)
            .iter()
            .all(|&(_, full, up)| full == 51 && up == 51),
        "{:?}",
        sum_sizes(&h)
    );
    // The storage tree: checkpoint 7's shared files are its own and checkpoint 5's (a).
    let c7 = w.coordinator().latest_completed().unwrap().clone();
    assert_eq!(c7.id, CheckpointId(9));
    let shared: Vec<(String, u64)> = w
        .storage_files(&c7)
        .into_iter()
        .filter(|f| f.shared)
        .map(|f| (f.path, f.bytes))
        .collect();
    assert_eq!(
        shared,
        vec![
            ("shared/sum#0-5".to_string(), 17),
            ("shared/sum#0-7".to_string(), 34)
        ]
    );
    let private: Vec<String> = w
        .storage_files(&c7)
        .into_iter()
        .filter(|f| !f.shared)
        .map(|f| f.path)
        .collect();
    assert_eq!(
        private,
        vec!["chk-9/in#0".to_string()],
        "the source's offsets; sum and the sink have no private state"
    );
    let hc = h.coordinator().latest_completed().unwrap().clone();
    assert!(h.storage_files(&hc).iter().all(|f| !f.shared));
    assert_eq!(
        h.storage_files(&hc).iter().map(|f| f.bytes).sum::<u64>(),
        16 + 51
    );
}

/// Mirrors SharedStateRegistryImplTest: a shared file is deleted exactly when the
/// last retained checkpoint referring to it is subsumed — checked after every step,
/// with 1 and 2 retained checkpoints.
#[test]
fn a_shared_file_is_deleted_exactly_when_no_retained_checkpoint_refers_to_it() {
    for retained in [1u32, 2] {
        let mut w = World::new(&scenario("rocksdb", retained), 1).unwrap();
        w.set_tracing(true);
        let mut deleted_at: Vec<(String, u64)> = Vec::new();
        let mut before = w
            .coordinator()
            .shared()
            .files()
            .keys()
            .cloned()
            .collect::<Vec<_>>();
        let mut completed = 0u64;
        while w.now() <= 1000 {
            let Some(events) = w.step() else { break };
            completed += events
                .iter()
                .filter(|e| matches!(e.event, Event::CheckpointCompleted { .. }))
                .count() as u64;
            let reg = w.coordinator().shared();
            let store = w.coordinator().store();
            // Every file a retained checkpoint refers to is there.
            let mut referenced = std::collections::BTreeSet::new();
            for c in store {
                for f in w.storage_files(c).into_iter().filter(|f| f.shared) {
                    referenced.insert(f.path);
                }
                for t in c.tasks.keys() {
                    for name in reg
                        .task_files(c.id, *t)
                        .map(|f| f.shared.clone())
                        .unwrap_or_default()
                    {
                        assert!(
                            reg.files().contains_key(&name),
                            "retained {} needs {name}, which is gone",
                            c.id
                        );
                    }
                }
            }
            // A file disappears only when no retained checkpoint refers to it.
            let now: Vec<String> = reg.files().keys().cloned().collect();
            for gone in before.iter().filter(|f| !now.contains(f)) {
                assert!(
                    !referenced.contains(gone),
                    "{gone} deleted while a retained checkpoint refers to it"
                );
                deleted_at.push((gone.clone(), completed));
            }
            // And a file no retained checkpoint (nor a newer pending one) uses is gone.
            let lowest = store.first().map(|c| c.id);
            for (name, f) in reg.files() {
                if let Some(l) = lowest {
                    assert!(
                        f.last_used >= l || referenced.contains(name),
                        "{name} outlived its last user {}",
                        f.last_used
                    );
                }
            }
            before = now;
        }
        // shared/sum#0-2 (a at 200) is last used by checkpoint 2: deleted when
        // checkpoint 2 leaves the store, i.e. when checkpoint 2 + retained completes.
        let when = |name: &str| deleted_at.iter().find(|(n, _)| n == name).map(|(_, c)| *c);
        assert_eq!(
            when("shared/sum#0-2"),
            Some(2 + u64::from(retained)),
            "retained {retained}"
        );
        // shared/sum#0-1 holds b and c until they change at 610/620: checkpoint 7
        // uploads them, so 6 is the last user of sum#0-1.
        assert_eq!(
            when("shared/sum#0-1"),
            Some(6 + u64::from(retained)),
            "retained {retained}"
        );
        assert!(
            w.coordinator()
                .shared()
                .files()
                .contains_key("shared/sum#0-7"),
            "still used by the latest checkpoint"
        );
    }
}

/// Whatever the backend (hashmap, incremental rocksdb) and whatever the operator's
/// state, a restore yields exactly the state that was checkpointed: right after
/// every `state_restored`, each source's offsets and each keyed operator's entries
/// equal the restored checkpoint's snapshot; with rocksdb the shared files the
/// checkpoint refers to still exist and together hold exactly those entries.
#[test]
fn property_a_restore_yields_exactly_the_checkpointed_state() {
    let kinds = [
        (OperatorKind::KeyedSum, None),
        (OperatorKind::KeyedCount, None),
        (OperatorKind::KeyedReduce, Some(ReduceFn::Max)),
        (OperatorKind::KeyedAverage, None),
        (OperatorKind::KeyedDedup, None),
        (OperatorKind::KeyedWindowCount, None),
    ];
    let mut restores = [0u32; 2];
    for seed in 0..120u64 {
        let mode = [Mode::Aligned, Mode::Unaligned, Mode::AtLeastOnce][(seed % 3) as usize];
        let sink = if mode == Mode::AtLeastOnce {
            "at_least_once"
        } else {
            "two_phase_commit"
        };
        let mut s = random_scenario(
            seed,
            &Gen {
                mode,
                crashes: true,
                sink,
                aligned_timeout: false,
                keyed: None,
            },
        );
        let (kind, reduce) = kinds[(seed / 2 % kinds.len() as u64) as usize];
        s.job.operators[2].kind = kind;
        s.job.operators[2].reduce = reduce;
        s.job.operators[2].window_ms = (kind == OperatorKind::KeyedWindowCount).then_some(40);
        if kind == OperatorKind::KeyedDedup && seed % 4 == 0 {
            s.job.operators[2].ttl =
                serde_json::from_value(json!({"ttl_ms": 30, "cleanup": {"full_snapshot": true}}))
                    .unwrap();
        }
        let backend = if seed % 2 == 0 {
            BackendKind::Rocksdb
        } else {
            BackendKind::Hashmap
        };
        let cp = s.checkpointing.as_mut().unwrap();
        cp.backend = backend;
        cp.retained = 1 + (seed % 3) as u32;
        s.validate().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut w = World::new(&s, seed).unwrap();
        w.set_tracing(true);
        while w.now() <= 600_000 {
            let Some(events) = w.step() else { break };
            let restored: Vec<(String, CheckpointId)> = events
                .iter()
                .filter_map(|e| match &e.event {
                    Event::StateRestored {
                        task,
                        checkpoint: Some(c),
                        ..
                    } => Some((task.to_string(), *c)),
                    _ => None,
                })
                .collect();
            for (task, id) in restored {
                let c = w
                    .coordinator()
                    .store()
                    .iter()
                    .find(|c| c.id == id)
                    .unwrap_or_else(|| panic!("seed {seed}: {id} not retained"));
                let t = w.task_id(&task).unwrap();
                let Some(snap) = c.tasks.get(&t) else {
                    continue;
                };
                let live = &w.tasks()[t.0 as usize].op;
                let op = w.setup().task(t).op;
                let fully_finished = c.is_fully_finished(w.setup().subtasks_of(op));
                match (live, &snap.state) {
                    // A fully finished source restores finished: nothing to read.
                    (OpState::Source(s), OperatorSnapshot::Source { .. }) if fully_finished => {
                        assert!(s.offsets.is_empty(), "seed {seed}: {task} offsets")
                    }
                    (OpState::Source(s), OperatorSnapshot::Source { offsets }) => {
                        assert_eq!(&s.offsets, offsets, "seed {seed}: {task} offsets")
                    }
                    (OpState::Keyed { .. } | OpState::KeyedStates(_), _) => {
                        assert_eq!(
                            live.snapshot(w.now(), engine::state::Upload::Incremental),
                            snap.state,
                            "seed {seed} ({backend:?}): {task} state"
                        );
                        restores[usize::from(backend == BackendKind::Rocksdb)] += 1;
                        if backend == BackendKind::Rocksdb && !snap.finished {
                            let reg = w.coordinator().shared();
                            let base = reg.base_of(id, t);
                            let from_files: std::collections::BTreeMap<_, _> = base
                                .placement
                                .iter()
                                .map(|(e, (v, _))| (e.clone(), v.clone()))
                                .collect();
                            assert_eq!(
                                from_files,
                                keyed_entries(&snap.state),
                                "seed {seed}: {task}: files hold other state"
                            );
                            for (_, file) in base.placement.values() {
                                assert!(
                                    reg.files().contains_key(file),
                                    "seed {seed}: {task} restored from {id} needs deleted {file}"
                                );
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(
        restores.iter().all(|n| *n > 20),
        "too few keyed restores to mean anything: {restores:?}"
    );
}
