//! State assignment on restore into a (changed, rescaled) job: `engine::restore`
//! against Flink's `StateAssignmentOperation`, `RoundRobinOperatorStateRepartitioner`
//! and `Checkpoints.loadAndValidateCheckpoint` (docs/flink-semantics.md §5.4, §6.3, §6.4).
//! Each test names the Flink test it mirrors where there is one.

use engine::event::SnapshotKind;
use engine::ids::{ChannelIndex, CheckpointId};
use engine::keygroup::{assign_to_key_group, key_group_range, operator_index_for_key_group};
use engine::record::{KeyId, KeyTable};
use engine::restore::NonRestoredState::{Refuse, Skip};
use engine::restore::{
    adopted_max_parallelism, assign, from_completed, non_restored_operators, split_distribute,
    DistributionMode, KeyedEntry, ListState, OperatorState, PersistedRecord, RestoreError,
    SavepointState, StateValue, SubtaskRestore, SubtaskState, TxnState, SOURCE_OFFSETS_STATE,
    TWO_PHASE_COMMIT_STATE, VALUE_STATE,
};
use engine::scenario::{Job, Partitioning};
use engine::snapshot::OperatorSnapshot;
use engine::{Scenario, World};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};

// ---------------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------------

/// A job from JSON (not validated: `assign` must cope with anything).
fn job(v: serde_json::Value) -> Job {
    serde_json::from_value(v).expect("job JSON")
}

/// source(p) → sum(p, keyed) → out(p, 2PC sink), max parallelism 128.
fn pipeline(src_p: u32, sum_p: u32, out_p: u32) -> Job {
    job(json!({
        "max_parallelism": 128,
        "operators": [
            {"uid": "numbers", "kind": "source", "parallelism": src_p},
            {"uid": "sum", "kind": "keyed_sum", "parallelism": sum_p},
            {"uid": "out", "kind": "sink", "sink": "two_phase_commit", "parallelism": out_p}
        ],
        "edges": [
            {"from": "numbers", "to": "sum", "partitioning": "hash"},
            {"from": "sum", "to": "out", "partitioning": "rebalance"}
        ]
    }))
}

fn keys_table(names: &[&str]) -> KeyTable {
    let mut t = KeyTable::new();
    for n in names {
        t.intern(n);
    }
    t
}

fn offsets_sub(parts: &[(u32, u64)]) -> SubtaskState {
    let elements = parts
        .iter()
        .map(|&(partition, offset)| StateValue::Offset { partition, offset })
        .collect();
    let mut s = SubtaskState::default();
    s.operator.insert(
        SOURCE_OFFSETS_STATE.into(),
        ListState {
            mode: DistributionMode::SplitDistribute,
            elements,
        },
    );
    s
}

fn keyed_sub(max_p: u32, entries: &[(&str, i64)]) -> SubtaskState {
    let mut s = SubtaskState::default();
    let map = entries
        .iter()
        .map(|&(k, v)| {
            (
                k.to_string(),
                KeyedEntry {
                    key_group: assign_to_key_group(k, max_p),
                    value: StateValue::Int(v),
                },
            )
        })
        .collect();
    s.keyed.insert(VALUE_STATE.into(), map);
    s
}

fn txn_sub(pending: Option<u64>, commits: &[(u64, u64)]) -> SubtaskState {
    let t = TxnState {
        pending_transaction: pending,
        pending_commit: commits.iter().map(|&(c, t)| (CheckpointId(c), t)).collect(),
    };
    let mut s = SubtaskState::default();
    s.operator.insert(
        TWO_PHASE_COMMIT_STATE.into(),
        ListState {
            mode: DistributionMode::SplitDistribute,
            elements: vec![StateValue::Transaction(t)],
        },
    );
    s
}

fn list_sub(lists: &[(&str, DistributionMode, &[i64])]) -> SubtaskState {
    let mut s = SubtaskState::default();
    for (name, mode, values) in lists {
        s.operator.insert(
            name.to_string(),
            ListState {
                mode: *mode,
                elements: values.iter().map(|v| StateValue::Int(*v)).collect(),
            },
        );
    }
    s
}

fn op_state(max_p: u32, subtasks: Vec<SubtaskState>) -> OperatorState {
    OperatorState {
        max_parallelism: max_p,
        parallelism: subtasks.len() as u32,
        subtasks,
        inputs: Vec::new(),
        outputs: Vec::new(),
    }
}

fn savepoint(ops: Vec<(&str, OperatorState)>) -> SavepointState {
    SavepointState {
        checkpoint: CheckpointId(7),
        kind: SnapshotKind::Savepoint,
        operators: ops.into_iter().map(|(u, s)| (u.to_string(), s)).collect(),
    }
}

/// One old 2PC subtask: its pending transaction and pre-committed (checkpoint, txn).
type TxnSpec = (Option<u64>, Vec<(u64, u64)>);
/// One source subtask's (partition, offset) list.
type Offsets = Vec<(u32, u64)>;

/// The state of `pipeline(src, sum, out)` at one savepoint: the given source
/// offsets, keyed entries and 2PC elements per old subtask.
fn pipeline_state(
    offsets: Vec<Vec<(u32, u64)>>,
    keyed: Vec<Vec<(&str, i64)>>,
    txns: Vec<TxnSpec>,
) -> SavepointState {
    savepoint(vec![
        (
            "numbers",
            op_state(128, offsets.iter().map(|o| offsets_sub(o)).collect()),
        ),
        (
            "sum",
            op_state(128, keyed.iter().map(|k| keyed_sub(128, k)).collect()),
        ),
        (
            "out",
            op_state(128, txns.iter().map(|(p, c)| txn_sub(*p, c)).collect()),
        ),
    ])
}

fn ints(values: &[StateValue]) -> Vec<i64> {
    values
        .iter()
        .map(|v| match v {
            StateValue::Int(n) => *n,
            other => panic!("not an int: {other:?}"),
        })
        .collect()
}

fn offsets_of(r: &SubtaskRestore) -> Vec<(u32, u64)> {
    r.list(SOURCE_OFFSETS_STATE)
        .iter()
        .map(|v| match v {
            StateValue::Offset { partition, offset } => (*partition, *offset),
            other => panic!("not an offset: {other:?}"),
        })
        .collect()
}

fn key_names(r: &SubtaskRestore, keys: &KeyTable) -> BTreeSet<String> {
    r.keyed_values()
        .keys()
        .map(|k| keys.name(*k).to_string())
        .collect()
}

fn op_subtasks(out: &BTreeMap<(usize, u32), SubtaskRestore>, op: usize) -> Vec<&SubtaskRestore> {
    out.iter()
        .filter(|((o, _), _)| *o == op)
        .map(|(_, r)| r)
        .collect()
}

/// Keys with known key groups at max parallelism 128 (docs/flink-semantics.md §6.4 and
/// the contract): b→22, hello→35, c→62, a→81, flink→98, odd→110, even→111.
const KEYS: [&str; 7] = ["b", "hello", "c", "a", "flink", "odd", "even"];

// ---------------------------------------------------------------------------------
// Round trip through a World
// ---------------------------------------------------------------------------------

fn world_scenario(unaligned: bool) -> Scenario {
    let doc = json!({
        "version": 1, "name": "restore-roundtrip", "seed": 3,
        "job": {
            "operators": [
                {"uid": "numbers", "kind": "source", "parallelism": 2,
                 "partitions": [
                    {"generate": {"count": 200, "every_ms": 3, "keys": ["a", "b", "c", "hello"], "values": "sequence"}},
                    {"generate": {"count": 200, "every_ms": 4, "keys": ["flink", "odd", "even"], "values": "random"}},
                    {"generate": {"count": 200, "every_ms": 5, "keys": ["a", "flink"], "values": "sequence"}}]},
                {"uid": "sum", "kind": "keyed_sum", "parallelism": 2, "process_ms": 2},
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit", "parallelism": 2}
            ],
            "edges": [
                {"from": "numbers", "to": "sum", "partitioning": "hash", "latency_ms": 5, "buffer_capacity": 2},
                {"from": "sum", "to": "out", "partitioning": "rebalance", "latency_ms": 5}
            ]
        },
        "checkpointing": {"interval_ms": 100, "unaligned": unaligned},
        "until_ms": 400
    });
    Scenario::from_json(&doc.to_string()).expect("scenario")
}

/// Restoring the unchanged job gives every subtask exactly the snapshot the World
/// stored for it — the same thing `start_tasks` reads by task id today.
/// Mirrors StateAssignmentOperationTest#testChannelStateAssignmentStability
/// ("channel and operator states are assigned to the same tasks on recovery") and
/// CheckpointMetadataLoadingTest#testAllStateRestored.
#[test]
fn unchanged_job_restores_every_subtask_its_own_snapshot() {
    for unaligned in [false, true] {
        let scenario = world_scenario(unaligned);
        let mut world = World::new(&scenario, 3).expect("world");
        world.run_until(350, |_| {});
        let c = world
            .coordinator()
            .latest_completed()
            .expect("a completed checkpoint")
            .clone();
        let setup = world.setup();
        let state = from_completed(&c, setup);
        assert_eq!(state.checkpoint, c.id);
        assert_eq!(state.operators.len(), 3);

        // The state is serializable and reads back equal (share links, savepoint files).
        let text = serde_json::to_string(&state).expect("serialize");
        let back: SavepointState = serde_json::from_str(&text).expect("deserialize");
        assert_eq!(back, state);

        let out = assign(&back, &scenario.job, Refuse, &setup.keys).expect("assign");
        assert_eq!(
            out.len(),
            setup.tasks.len(),
            "every subtask of a stateful operator is restored"
        );
        for (t, info) in setup.tasks.iter().enumerate() {
            let original = &c.tasks[&engine::ids::TaskId(t as u32)];
            let r = &out[&(info.op, info.index)];
            let op = &scenario.job.operators[info.op];
            let snap = r.to_task_snapshot(op, &setup.keys);
            assert_eq!(snap.state, original.state, "{}", info.name);
            assert_eq!(
                snap.input_channels, original.input_channels,
                "{}",
                info.name
            );
            assert_eq!(
                snap.output_channels, original.output_channels,
                "{}",
                info.name
            );
            assert!(!original.finished && !snap.finished, "{}", info.name);
            assert_eq!(
                r.key_groups,
                key_group_range(128, op.parallelism, info.index)
            );
        }
        let persisted: u64 = c.tasks.values().map(|t| t.persisted_records()).sum();
        assert_eq!(
            persisted > 0,
            unaligned,
            "the unaligned run persisted in-flight records"
        );
        // The keyed operator really had keys on both subtasks.
        let sum = scenario.job.operator_index("sum").unwrap();
        assert!(op_subtasks(&out, sum)
            .iter()
            .all(|r| !r.keyed_values().is_empty()));

        // The same checkpoint into the job with `sum` rescaled 2→3: the keys are
        // redistributed without loss (aligned); the in-flight data cannot follow
        // (unaligned).
        let mut rescaled = scenario.job.clone();
        rescaled.operators[sum].parallelism = 3;
        let all_keys: BTreeMap<KeyId, i64> = op_subtasks(&out, sum)
            .iter()
            .flat_map(|r| r.keyed_values())
            .collect();
        match assign(&state, &rescaled, Refuse, &setup.keys) {
            Ok(out3) => {
                assert!(!unaligned);
                let parts: Vec<BTreeMap<KeyId, i64>> = op_subtasks(&out3, sum)
                    .iter()
                    .map(|r| r.keyed_values())
                    .collect();
                assert_eq!(parts.len(), 3);
                assert_eq!(
                    parts.iter().map(BTreeMap::len).sum::<usize>(),
                    all_keys.len()
                );
                let merged: BTreeMap<KeyId, i64> = parts.into_iter().flatten().collect();
                assert_eq!(merged, all_keys);
            }
            Err(e) => {
                assert!(unaligned, "{e}");
                assert!(
                    matches!(
                        e,
                        RestoreError::ChannelStateRescaled { .. }
                            | RestoreError::ChannelStateTopologyChanged { .. }
                    ),
                    "{e}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// Matching operators by uid (Checkpoints.loadAndValidateCheckpoint)
// ---------------------------------------------------------------------------------

/// A new operator has no state in the savepoint: it is absent from the assignment
/// (fresh start) and the others are restored. Mirrors the `new OperatorState(...)`
/// branch of StateAssignmentOperation#assignStates.
#[test]
fn added_operator_starts_empty() {
    let state = pipeline_state(
        vec![vec![(0, 5)]],
        vec![vec![("a", 1)]],
        vec![(Some(9), vec![])],
    );
    let mut new_job = pipeline(1, 1, 1);
    let extra = job(json!({"max_parallelism": 128, "operators": [
        {"uid": "count", "kind": "keyed_count", "parallelism": 2}], "edges": []}));
    new_job.operators.insert(2, extra.operators[0].clone());
    let keys = keys_table(&KEYS);
    let out = assign(&state, &new_job, Refuse, &keys).expect("assign");
    assert!(
        op_subtasks(&out, 2).is_empty(),
        "the added operator gets nothing"
    );
    assert_eq!(offsets_of(&out[&(0, 0)]), vec![(0, 5)]);
    assert_eq!(
        key_names(&out[&(1, 0)], &keys),
        BTreeSet::from(["a".to_string()])
    );
    assert_eq!(
        out[&(3, 0)].transactions(),
        vec![&TxnState {
            pending_transaction: Some(9),
            pending_commit: vec![]
        }]
    );
    assert!(non_restored_operators(&state, &new_job).is_empty());
}

/// Mirrors CheckpointMetadataLoadingTest#testNonRestoredStateWhenDisallowed, with
/// Flink's whole message.
#[test]
fn removed_stateful_operator_fails_without_allow_non_restored_state() {
    let state = pipeline_state(
        vec![vec![(0, 5)]],
        vec![vec![("a", 1)]],
        vec![(Some(9), vec![])],
    );
    let mut new_job = pipeline(1, 1, 1);
    new_job.operators.remove(1); // "sum"
    let err = assign(&state, &new_job, Refuse, &keys_table(&KEYS)).unwrap_err();
    assert_eq!(err.uid(), "sum");
    assert_eq!(
        err.to_string(),
        "Failed to rollback to checkpoint/savepoint savepoint 7. Cannot map checkpoint/savepoint state for \
         operator sum to the new program, because the operator is not available in the new program. If you \
         want to allow to skip this, you can set the --allowNonRestoredState option on the CLI."
    );
    // Even a keyed operator that never saw a key has registered state (Flink writes
    // the state's meta data), so it is not "stateless".
    let empty = pipeline_state(vec![vec![(0, 5)]], vec![vec![]], vec![(Some(9), vec![])]);
    let err = assign(&empty, &new_job, Refuse, &keys_table(&KEYS)).unwrap_err();
    assert!(matches!(err, RestoreError::NotMapped { ref uid, .. } if uid == "sum"));
}

/// Mirrors CheckpointMetadataLoadingTest#testNonRestoredStateWhenAllowed.
#[test]
fn removed_stateful_operator_is_skipped_with_allow_non_restored_state() {
    let state = pipeline_state(
        vec![vec![(0, 5)]],
        vec![vec![("a", 1)]],
        vec![(Some(9), vec![])],
    );
    let mut new_job = pipeline(1, 1, 1);
    new_job.operators.remove(1);
    let keys = keys_table(&KEYS);
    let out = assign(&state, &new_job, Skip, &keys).expect("allowed");
    assert_eq!(
        out.keys().copied().collect::<Vec<_>>(),
        vec![(0, 0), (1, 0)]
    );
    assert_eq!(offsets_of(&out[&(0, 0)]), vec![(0, 5)]);
    assert_eq!(out[&(1, 0)].transactions().len(), 1);
    assert_eq!(non_restored_operators(&state, &new_job), vec!["sum"]);
}

/// Stateless operators may be removed without `-n`: their state is empty.
/// Mirrors the "Skipping empty savepoint state" branch of
/// Checkpoints#loadAndValidateCheckpoint.
#[test]
fn removed_stateless_operator_is_skipped_silently() {
    let mut state = pipeline_state(
        vec![vec![(0, 5)]],
        vec![vec![("a", 1)]],
        vec![(Some(9), vec![])],
    );
    state.operators.insert(
        "parity".into(),
        op_state(128, vec![SubtaskState::default(), SubtaskState::default()]),
    );
    let keys = keys_table(&KEYS);
    let out = assign(&state, &pipeline(1, 1, 1), Refuse, &keys).expect("stateless removed");
    assert_eq!(out.len(), 3);
    // A matched stateless operator is not restored either (Flink: no restore for a
    // vertex without state).
    let mut with_map = pipeline(1, 1, 1);
    let map = job(json!({"max_parallelism": 128, "operators": [
        {"uid": "parity", "kind": "map", "fn": "parity_key", "parallelism": 2}], "edges": []}));
    with_map.operators.insert(1, map.operators[0].clone());
    let out = assign(&state, &with_map, Refuse, &keys).expect("stateless kept");
    assert!(op_subtasks(&out, 1).is_empty());
    // A fully finished operator stores no state either (Flink: FullyFinishedOperatorState).
    let mut finished = state.clone();
    for s in &mut finished.operators.get_mut("sum").unwrap().subtasks {
        s.finished = true;
    }
    let mut no_sum = pipeline(1, 1, 1);
    no_sum.operators.remove(1);
    assert!(assign(&finished, &no_sum, Refuse, &keys).is_ok());
}

/// A changed uid is a removed operator plus an added one. Mirrors
/// StateAssignmentOperationTest#assigningStatesShouldWorkWithUserDefinedOperatorIdsAsWellAsWithGeneratedOnes
/// (state follows the id, not the position).
#[test]
fn changed_uid_is_removed_plus_added() {
    let state = pipeline_state(
        vec![vec![(0, 5)]],
        vec![vec![("a", 1)]],
        vec![(Some(9), vec![])],
    );
    let mut new_job = pipeline(1, 1, 1);
    new_job.operators[1].uid = "sum-v2".into();
    new_job.edges[0].to = "sum-v2".into();
    new_job.edges[1].from = "sum-v2".into();
    let keys = keys_table(&KEYS);
    let err = assign(&state, &new_job, Refuse, &keys).unwrap_err();
    assert!(matches!(err, RestoreError::NotMapped { ref uid, .. } if uid == "sum"));
    let out = assign(&state, &new_job, Skip, &keys).expect("with -n");
    assert!(op_subtasks(&out, 1).is_empty(), "sum-v2 starts empty");
    assert_eq!(non_restored_operators(&state, &new_job), vec!["sum"]);

    // Moving an operator to another position keeps its state: matching is by uid.
    let mut reordered = pipeline(1, 1, 1);
    reordered.operators.swap(0, 2);
    let out = assign(&state, &reordered, Refuse, &keys).expect("reordered");
    assert_eq!(offsets_of(&out[&(2, 0)]), vec![(0, 5)]);
    assert_eq!(out[&(0, 0)].transactions().len(), 1);
}

// ---------------------------------------------------------------------------------
// Parallelism preconditions
// ---------------------------------------------------------------------------------

/// Mirrors Flink's `StateAssignmentOperation.checkParallelismPreconditions`
/// with `DefaultVertexParallelismInfo.canRescaleMaxParallelism`: a new job that sets
/// no max parallelism takes the stored one (here 256, not its derived 128) — keyed
/// state is cut into the stored key groups — and [`adopted_max_parallelism`] says so.
#[test]
fn a_derived_max_parallelism_takes_the_stored_one() {
    let keys_256: Vec<(&str, i64)> = KEYS.iter().map(|k| (*k, 1)).collect();
    let state = savepoint(vec![
        ("numbers", op_state(256, vec![offsets_sub(&[(0, 5)])])),
        ("sum", op_state(256, vec![keyed_sub(256, &keys_256)])),
        ("out", op_state(256, vec![txn_sub(Some(9), &[])])),
    ]);
    let mut new_job = pipeline(1, 2, 1);
    new_job.max_parallelism = None;
    assert_eq!(
        adopted_max_parallelism(Some(&state), &new_job),
        [256, 256, 256]
    );
    assert_eq!(adopted_max_parallelism(None, &new_job), [128, 128, 128]);
    let keys = keys_table(&KEYS);
    let out = assign(&state, &new_job, Refuse, &keys).expect("a derived value gives way");
    for i in 0..2u32 {
        let r = &out[&(1, i)];
        assert_eq!(r.key_groups, key_group_range(256, 2, i));
        for (k, _) in r.keyed_values() {
            let kg = assign_to_key_group(keys.name(k), 256);
            assert_eq!(operator_index_for_key_group(256, 2, kg), i);
        }
    }
    // Set, it is fixed: the same state is refused, and nothing is adopted.
    new_job.max_parallelism = Some(128);
    assert!(matches!(
        assign(&state, &new_job, Refuse, &keys),
        Err(RestoreError::MaxParallelismMismatch {
            stored: 256,
            new: 128,
            ..
        })
    ));
    assert_eq!(
        adopted_max_parallelism(Some(&state), &new_job),
        [128, 128, 128]
    );
}

/// Mirrors CheckpointMetadataLoadingTest#testMaxParallelismMismatch and
/// CheckpointCoordinatorRestoringTest#testRestoreLatestCheckpointFailureWhenMaxParallelismChanges.
#[test]
fn max_parallelism_mismatch_is_rejected_with_flinks_message() {
    let state = pipeline_state(
        vec![vec![(0, 5)]],
        vec![vec![("a", 1)]],
        vec![(Some(9), vec![])],
    );
    let mut new_job = pipeline(1, 1, 1);
    new_job.max_parallelism = Some(256);
    let err = assign(&state, &new_job, Skip, &keys_table(&KEYS)).unwrap_err();
    assert_eq!(err.uid(), "numbers", "operators are checked in uid order");
    assert_eq!(
        err.to_string(),
        "Failed to rollback to checkpoint/savepoint savepoint 7. Max parallelism mismatch between \
         checkpoint/savepoint state and new program. Cannot map operator numbers with max parallelism 128 to \
         new program with max parallelism 256. This indicates that the program has been changed in a \
         non-compatible way after the checkpoint/savepoint."
    );
    // Also for an operator without state (Flink checks every matched OperatorState).
    let stateless = savepoint(vec![(
        "parity",
        op_state(128, vec![SubtaskState::default()]),
    )]);
    let j = job(json!({"max_parallelism": 64, "operators": [
        {"uid": "parity", "kind": "map", "fn": "parity_key"}], "edges": []}));
    assert!(matches!(
        assign(&stateless, &j, Refuse, &KeyTable::new()),
        Err(RestoreError::MaxParallelismMismatch {
            stored: 128,
            new: 64,
            ..
        })
    ));
}

/// Mirrors the max-parallelism precondition of
/// StateAssignmentOperation#checkParallelismPreconditions (a job that validation
/// would reject, built directly).
#[test]
fn parallelism_above_stored_max_parallelism_is_rejected() {
    let state = savepoint(vec![("sum", op_state(4, vec![keyed_sub(4, &[("a", 1)])]))]);
    let j = job(json!({"max_parallelism": 4, "operators": [
        {"uid": "sum", "kind": "keyed_sum", "parallelism": 5}], "edges": []}));
    let err = assign(&state, &j, Refuse, &keys_table(&["a"])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "The state for task sum can not be restored. The maximum parallelism (4) of the restored state is lower \
         than the configured parallelism (5). Please reduce the parallelism of the task to be lower or equal to \
         the maximum parallelism."
    );
    // Exactly the max parallelism is fine: one key group per subtask.
    let j = job(json!({"max_parallelism": 4, "operators": [
        {"uid": "sum", "kind": "keyed_sum", "parallelism": 4}], "edges": []}));
    let out = assign(&state, &j, Refuse, &keys_table(&["a"])).expect("p = maxP");
    for i in 0..4 {
        assert_eq!(out[&(0, i)].key_groups, i..=i);
    }
}

// ---------------------------------------------------------------------------------
// Keyed state by key groups
// ---------------------------------------------------------------------------------

/// The keyed state of `KEYS` spread over `old_p` subtasks as the old job held it,
/// each key's value its position.
fn keyed_state_for(old_p: u32) -> SavepointState {
    let mut per: Vec<Vec<(&str, i64)>> = vec![Vec::new(); old_p as usize];
    for (i, k) in KEYS.iter().enumerate() {
        let kg = assign_to_key_group(k, 128);
        per[operator_index_for_key_group(128, old_p, kg) as usize].push((k, i as i64));
    }
    savepoint(vec![(
        "sum",
        op_state(128, per.iter().map(|e| keyed_sub(128, e)).collect()),
    )])
}

fn keyed_job(p: u32) -> Job {
    job(json!({"max_parallelism": 128, "operators": [
        {"uid": "sum", "kind": "keyed_sum", "parallelism": p}], "edges": []}))
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Rescaling keyed state key by key, against the ranges of docs/flink-semantics.md §6.4
/// (p=2 [0,63][64,127]; p=3 [0,42][43,85][86,127]; p=4 [0,31][32,63][64,95][96,127]).
/// Mirrors CheckpointCoordinatorRestoringTest#testRestoreLatestCheckpointedStateScaleOut
/// and #testRestoreLatestCheckpointedStateScaleIn (each new subtask gets exactly the
/// key groups of its range).
#[test]
fn keyed_state_follows_key_group_ranges_when_rescaling() {
    let keys = keys_table(&KEYS);
    // Key groups: b 22, hello 35, c 62, a 81, flink 98, odd 110, even 111.
    let cases: Vec<(u32, u32, Vec<ExpectedSubtask>)> = vec![
        (
            1,
            2,
            vec![
                ((0, 63), vec!["b", "hello", "c"]),
                ((64, 127), vec!["a", "flink", "odd", "even"]),
            ],
        ),
        (
            2,
            3,
            vec![
                ((0, 42), vec!["b", "hello"]),
                ((43, 85), vec!["c", "a"]),
                ((86, 127), vec!["flink", "odd", "even"]),
            ],
        ),
        (
            3,
            2,
            vec![
                ((0, 63), vec!["b", "hello", "c"]),
                ((64, 127), vec!["a", "flink", "odd", "even"]),
            ],
        ),
        (4, 1, vec![((0, 127), KEYS.to_vec())]),
        (
            1,
            4,
            vec![
                ((0, 31), vec!["b"]),
                ((32, 63), vec!["hello", "c"]),
                ((64, 95), vec!["a"]),
                ((96, 127), vec!["flink", "odd", "even"]),
            ],
        ),
        (
            2,
            2,
            vec![
                ((0, 63), vec!["b", "hello", "c"]),
                ((64, 127), vec!["a", "flink", "odd", "even"]),
            ],
        ),
    ];
    for (old_p, new_p, expected) in cases {
        let state = keyed_state_for(old_p);
        let out = assign(&state, &keyed_job(new_p), Refuse, &keys).expect("rescale");
        assert_eq!(out.len(), new_p as usize, "{old_p}→{new_p}");
        for (i, ((start, end), want)) in expected.iter().enumerate() {
            let r = &out[&(0, i as u32)];
            assert_eq!(r.key_groups, *start..=*end, "{old_p}→{new_p} subtask {i}");
            assert_eq!(
                key_names(r, &keys),
                names(want),
                "{old_p}→{new_p} subtask {i}"
            );
            // Values travel with their keys.
            for (k, v) in r.keyed_values() {
                let pos = KEYS
                    .iter()
                    .position(|n| *n == keys.name(k).as_ref())
                    .unwrap();
                assert_eq!(v, pos as i64);
            }
            let snap = r.to_task_snapshot(&keyed_job(new_p).operators[0], &keys);
            assert!(
                matches!(snap.state, OperatorSnapshot::Keyed { ref entries } if entries.len() == want.len())
            );
        }
    }
}

/// A new subtask's key-group range (inclusive) and the keys it must hold.
type ExpectedSubtask = (RangeIncl, Vec<&'static str>);
type RangeIncl = (u32, u32);

/// A key in the wrong key group, or not in the key table, is an error naming the
/// operator, not a panic or a silent misplacement.
#[test]
fn inconsistent_keys_are_errors() {
    let keys = keys_table(&KEYS);
    let mut state = keyed_state_for(1);
    let sub = &mut state.operators.get_mut("sum").unwrap().subtasks[0];
    sub.keyed
        .get_mut(VALUE_STATE)
        .unwrap()
        .get_mut("a")
        .unwrap()
        .key_group = 3;
    let err = assign(&state, &keyed_job(2), Refuse, &keys).unwrap_err();
    assert!(
        matches!(err, RestoreError::KeyGroupMismatch { ref key, stored: 3, computed: 81, .. } if key == "a")
    );
    assert!(err.to_string().contains("operator sum"), "{err}");

    let state = savepoint(vec![(
        "sum",
        op_state(128, vec![keyed_sub(128, &[("zebra", 1)])]),
    )]);
    let err = assign(&state, &keyed_job(1), Refuse, &keys).unwrap_err();
    assert!(matches!(err, RestoreError::UnknownKey { ref key, .. } if key == "zebra"));
    assert!(
        state.key_names().contains("zebra"),
        "key_names tells the World what to intern"
    );

    // The same key on two old subtasks: corrupt.
    let state = savepoint(vec![(
        "sum",
        op_state(
            128,
            vec![keyed_sub(128, &[("a", 1)]), keyed_sub(128, &[("a", 2)])],
        ),
    )]);
    let err = assign(&state, &keyed_job(1), Refuse, &keys).unwrap_err();
    assert!(
        matches!(err, RestoreError::Corrupt { ref uid, .. } if uid == "sum"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------
// Operator list state (RoundRobinOperatorStateRepartitioner)
// ---------------------------------------------------------------------------------

/// docs/flink-semantics.md §6.3's example and its mirror images, element by element:
/// p=2→3 [a,b,c],[d,e] ⇒ [a,b],[c,d],[e]. Mirrors
/// StateAssignmentOperationTest#testRepartitionSplitDistributeStates and
/// RoundRobinOperatorStateRepartitionerTest.
#[test]
fn source_offsets_are_split_in_contiguous_chunks() {
    let keys = KeyTable::new();
    let (a, b, c, d, e) = ((0, 10), (2, 12), (4, 14), (1, 11), (3, 13));
    let cases: Vec<(Vec<Offsets>, u32, Vec<Offsets>)> = vec![
        // 2→3: the doc's example.
        (
            vec![vec![a, b, c], vec![d, e]],
            3,
            vec![vec![a, b], vec![c, d], vec![e]],
        ),
        // 3→2: 5 elements, base 2, remainder 1.
        (
            vec![vec![a, b], vec![c], vec![d, e]],
            2,
            vec![vec![a, b, c], vec![d, e]],
        ),
        // 1→2.
        (
            vec![vec![a, b, c, d, e]],
            2,
            vec![vec![a, b, c], vec![d, e]],
        ),
        // 4→1: everything, in old-subtask order.
        (
            vec![vec![a], vec![b, c], vec![], vec![d, e]],
            1,
            vec![vec![a, b, c, d, e]],
        ),
        // 2→4 with 2 elements: two subtasks get nothing.
        (
            vec![vec![a], vec![b]],
            4,
            vec![vec![a], vec![b], vec![], vec![]],
        ),
        // Unchanged parallelism: not redistributed, even unbalanced.
        (
            vec![vec![a, b, c, d], vec![e]],
            2,
            vec![vec![a, b, c, d], vec![e]],
        ),
    ];
    for (old, new_p, want) in cases {
        let state = savepoint(vec![(
            "numbers",
            op_state(128, old.iter().map(|o| offsets_sub(o)).collect()),
        )]);
        let j = job(json!({"max_parallelism": 128, "operators": [
            {"uid": "numbers", "kind": "source", "parallelism": new_p}], "edges": []}));
        let out = assign(&state, &j, Refuse, &keys).expect("assign");
        assert_eq!(out.len(), new_p as usize);
        for (i, w) in want.iter().enumerate() {
            let r = &out[&(0, i as u32)];
            assert_eq!(offsets_of(r), *w, "{old:?} → {new_p}, subtask {i}");
            // Flink adds no handle for a subtask that gets no element.
            assert_eq!(
                r.operator.contains_key(SOURCE_OFFSETS_STATE),
                !w.is_empty() || old.len() == new_p as usize
            );
            // And the World's view: a restored source with no partition idles (it does
            // not fall back to the fresh assignment).
            let snap = r.to_task_snapshot(&j.operators[0], &keys);
            let expect: BTreeMap<u32, u64> = w.iter().copied().collect();
            assert_eq!(snap.state, OperatorSnapshot::Source { offsets: expect });
        }
    }
}

/// Several split-distribute states: each starts where the previous one left the
/// first base-only subtask, so the load differs by at most one element. Mirrors
/// CheckpointCoordinatorTest#testPartitionableStateRepartitioning.
#[test]
fn several_split_states_rotate_their_start() {
    // 4 elements over 3 subtasks: [0,1] [2] [3] ... next start 1.
    let (chunks, next) = split_distribute(4, 3, 0);
    assert_eq!(chunks, vec![(0, 0..2), (1, 2..3), (2, 3..4)]);
    assert_eq!(next, 1);
    let (chunks, next) = split_distribute(4, 3, 1);
    assert_eq!(chunks, vec![(1, 0..2), (2, 2..3), (0, 3..4)]);
    assert_eq!(next, 2);
    // Divisible: the start stays.
    assert_eq!(
        split_distribute(6, 3, 2),
        (vec![(2, 0..2), (0, 2..4), (1, 4..6)], 2)
    );
    // Fewer elements than subtasks.
    assert_eq!(split_distribute(1, 3, 0), (vec![(0, 0..1)], 1));
    assert_eq!(split_distribute(0, 3, 0), (vec![], 0));

    use DistributionMode::SplitDistribute as S;
    let state = savepoint(vec![(
        "op",
        op_state(
            128,
            vec![
                list_sub(&[("s1", S, &[1, 2]), ("s2", S, &[10, 20])]),
                list_sub(&[("s1", S, &[3, 4]), ("s2", S, &[30, 40])]),
            ],
        ),
    )]);
    let j = job(json!({"max_parallelism": 128, "operators": [
        {"uid": "op", "kind": "map", "fn": "identity", "parallelism": 3}], "edges": []}));
    let out = assign(&state, &j, Refuse, &KeyTable::new()).expect("assign");
    let s1: Vec<Vec<i64>> = (0..3).map(|i| ints(out[&(0, i)].list("s1"))).collect();
    let s2: Vec<Vec<i64>> = (0..3).map(|i| ints(out[&(0, i)].list("s2"))).collect();
    assert_eq!(s1, vec![vec![1, 2], vec![3], vec![4]]);
    assert_eq!(s2, vec![vec![40], vec![10, 20], vec![30]]);
    let loads: Vec<usize> = (0..3).map(|i| s1[i].len() + s2[i].len()).collect();
    assert_eq!(loads, vec![3, 3, 2]);
}

/// Union state: every new subtask gets the concatenation of all old lists, with
/// changed and with unchanged parallelism. Mirrors
/// StateAssignmentOperationTest#testRepartitionUnionState.
#[test]
fn union_state_goes_to_every_subtask() {
    use DistributionMode::Union as U;
    let state = savepoint(vec![(
        "op",
        op_state(
            128,
            vec![
                list_sub(&[("t-3", U, &[0]), ("t-4", U, &[22, 44])]),
                list_sub(&[("t-3", U, &[0])]),
            ],
        ),
    )]);
    for new_p in [1, 2, 3] {
        let j = job(json!({"max_parallelism": 128, "operators": [
            {"uid": "op", "kind": "map", "fn": "identity", "parallelism": new_p}], "edges": []}));
        let out = assign(&state, &j, Refuse, &KeyTable::new()).expect("assign");
        for i in 0..new_p {
            let r = &out[&(0, i)];
            assert_eq!(ints(r.list("t-3")), vec![0, 0], "p={new_p} subtask {i}");
            assert_eq!(ints(r.list("t-4")), vec![22, 44], "p={new_p} subtask {i}");
            assert_eq!(r.operator["t-4"].mode, U);
        }
    }
}

/// Broadcast state: new subtask i gets the copy of old subtask i mod p; when only
/// some old subtasks reported it, i mod (number reporting). Mirrors
/// StateAssignmentOperationTest#testRepartitionBroadcastState,
/// #testRepartitionBroadcastStateWithNullSubtaskState and
/// #testRepartitionBroadcastStateWithEmptySubtaskState.
#[test]
fn broadcast_state_is_copied_round_robin() {
    use DistributionMode::Broadcast as B;
    let j = |p: u32| {
        job(json!({"max_parallelism": 128, "operators": [
            {"uid": "op", "kind": "map", "fn": "identity", "parallelism": p}], "edges": []}))
    };
    // Copies marked by their old subtask (Flink assumes them identical).
    let state = savepoint(vec![(
        "op",
        op_state(
            128,
            vec![
                list_sub(&[("t-5", B, &[0, 10, 20])]),
                list_sub(&[("t-5", B, &[1, 11, 21])]),
            ],
        ),
    )]);
    for (new_p, want) in [
        (3u32, vec![0, 1, 0]),
        (1, vec![0]),
        (2, vec![0, 1]),
        (5, vec![0, 1, 0, 1, 0]),
    ] {
        let out = assign(&state, &j(new_p), Refuse, &KeyTable::new()).expect("assign");
        let got: Vec<i64> = (0..new_p)
            .map(|i| ints(out[&(0, i)].list("t-5"))[0])
            .collect();
        assert_eq!(got, want, "2→{new_p}");
    }
    // Only subtask 0 reported (the other finished, or reported nothing).
    for second in [
        SubtaskState::default(),
        SubtaskState {
            finished: true,
            ..SubtaskState::default()
        },
    ] {
        let state = savepoint(vec![(
            "op",
            op_state(128, vec![list_sub(&[("t-5", B, &[0, 10, 20])]), second]),
        )]);
        for new_p in [1u32, 2, 3] {
            let out = assign(&state, &j(new_p), Refuse, &KeyTable::new()).expect("assign");
            for i in 0..new_p {
                assert_eq!(
                    ints(out[&(0, i)].list("t-5")),
                    vec![0, 10, 20],
                    "2→{new_p} subtask {i}"
                );
            }
        }
    }
}

/// All three modes in one operator. Mirrors
/// StateAssignmentOperationTest#testReDistributeCombinedPartitionableStates.
#[test]
fn combined_modes_in_one_operator() {
    use DistributionMode::{Broadcast as B, SplitDistribute as S, Union as U};
    let state = savepoint(vec![(
        "op",
        op_state(
            128,
            vec![
                list_sub(&[
                    ("t-1", U, &[0]),
                    ("t-2", U, &[22, 44]),
                    ("t-3", S, &[52, 63]),
                    ("t-4", B, &[67, 74, 75]),
                ]),
                list_sub(&[("t-1", U, &[1]), ("t-4", B, &[20, 27, 28])]),
            ],
        ),
    )]);
    for (new_p, t3) in [
        (3u32, vec![vec![52], vec![63], vec![]]),
        (1, vec![vec![52, 63]]),
        (2, vec![vec![52, 63], vec![]]),
    ] {
        let j = job(json!({"max_parallelism": 128, "operators": [
            {"uid": "op", "kind": "map", "fn": "identity", "parallelism": new_p}], "edges": []}));
        let out = assign(&state, &j, Refuse, &KeyTable::new()).expect("assign");
        for i in 0..new_p {
            let r = &out[&(0, i)];
            assert_eq!(ints(r.list("t-1")), vec![0, 1]);
            assert_eq!(ints(r.list("t-2")), vec![22, 44]);
            assert_eq!(ints(r.list("t-3")), t3[i as usize], "2→{new_p} subtask {i}");
            let copy = if i % 2 == 0 {
                vec![67, 74, 75]
            } else {
                vec![20, 27, 28]
            };
            assert_eq!(ints(r.list("t-4")), copy, "2→{new_p} subtask {i}");
        }
    }
}

// ---------------------------------------------------------------------------------
// The two-phase-commit sink's transactions
// ---------------------------------------------------------------------------------

/// The 2PC state is split-distributed like any list state, one element per old
/// subtask. Scale-in: a new subtask commits the pre-committed transactions of every
/// element it received and aborts every element's pending transaction
/// (TwoPhaseCommitSinkFunction#initializeState). Scale-out: a subtask with no
/// element recovers nothing. Mirrors the comment in
/// TwoPhaseCommitSinkFunction#initializeState ("more than one transaction to check
/// in case of a scale-in event" / "some of the new task do not have any
/// transactions assigned").
#[test]
fn two_phase_commit_transactions_are_split_distributed() {
    let keys = KeyTable::new();
    let sink = |p: u32| {
        job(json!({"max_parallelism": 128, "operators": [
            {"uid": "out", "kind": "sink", "sink": "two_phase_commit", "parallelism": p}], "edges": []}))
    };
    let state = savepoint(vec![(
        "out",
        op_state(
            128,
            vec![
                txn_sub(Some(11), &[(5, 1), (6, 4)]),
                txn_sub(Some(12), &[(6, 2)]),
                txn_sub(Some(13), &[]),
            ],
        ),
    )]);
    // 3→2: [e0, e1], [e2].
    let out = assign(&state, &sink(2), Refuse, &keys).expect("scale in");
    let r0 = out[&(0, 0)].two_phase_commit_recovery();
    assert_eq!(
        r0.commit,
        vec![
            (CheckpointId(5), 1),
            (CheckpointId(6), 4),
            (CheckpointId(6), 2)
        ]
    );
    assert_eq!(r0.abort, vec![11, 12]);
    let r1 = out[&(0, 1)].two_phase_commit_recovery();
    assert!(r1.commit.is_empty());
    assert_eq!(r1.abort, vec![13]);
    // The World's current snapshot type holds one pending transaction: the first;
    // all pre-commits are merged.
    let snap = out[&(0, 0)].to_task_snapshot(&sink(2).operators[0], &keys);
    assert_eq!(
        snap.state,
        OperatorSnapshot::TwoPhaseCommit {
            pending_transaction: Some(11),
            pending_commit: vec![
                (CheckpointId(5), 1),
                (CheckpointId(6), 4),
                (CheckpointId(6), 2)
            ],
        }
    );
    // 3→5: one element each for 0..3, none for 3 and 4.
    let out = assign(&state, &sink(5), Refuse, &keys).expect("scale out");
    let aborts: Vec<Vec<u64>> = (0..5)
        .map(|i| out[&(0, i)].two_phase_commit_recovery().abort)
        .collect();
    assert_eq!(aborts, vec![vec![11], vec![12], vec![13], vec![], vec![]]);
    assert!(out[&(0, 4)].transactions().is_empty());
    assert_eq!(
        out[&(0, 4)]
            .to_task_snapshot(&sink(5).operators[0], &keys)
            .state,
        OperatorSnapshot::TwoPhaseCommit {
            pending_transaction: None,
            pending_commit: vec![]
        }
    );
    // 3→1: everything on one subtask.
    let out = assign(&state, &sink(1), Refuse, &keys).expect("to one");
    assert_eq!(
        out[&(0, 0)].two_phase_commit_recovery().abort,
        vec![11, 12, 13]
    );
    assert_eq!(out[&(0, 0)].two_phase_commit_recovery().commit.len(), 3);
}

// ---------------------------------------------------------------------------------
// Finished operators and channel state
// ---------------------------------------------------------------------------------

/// A fully finished operator restores finished at any parallelism; a partially
/// finished one restores running. Mirrors
/// StateAssignmentOperationTest#testStateWithFullyFinishedOperators.
#[test]
fn fully_finished_operators_restore_finished() {
    let keys = KeyTable::new();
    let mut state = savepoint(vec![(
        "numbers",
        op_state(128, vec![offsets_sub(&[(0, 60)]), offsets_sub(&[(1, 60)])]),
    )]);
    let j = |p: u32| {
        job(json!({"max_parallelism": 128, "operators": [
            {"uid": "numbers", "kind": "source", "parallelism": p}], "edges": []}))
    };
    state.operators.get_mut("numbers").unwrap().subtasks[0].finished = true;
    let out = assign(&state, &j(2), Refuse, &keys).expect("partial");
    assert!(out.values().all(|r| !r.finished));
    state.operators.get_mut("numbers").unwrap().subtasks[1].finished = true;
    for p in [1u32, 2, 3] {
        let out = assign(&state, &j(p), Refuse, &keys).expect("full");
        assert_eq!(out.len(), p as usize);
        assert!(out.values().all(|r| r.finished), "p={p}");
        assert!(out
            .values()
            .all(|r| r.to_task_snapshot(&j(p).operators[0], &keys).finished));
    }
}

fn channel_state() -> SavepointState {
    let rec = |v: i64| PersistedRecord {
        key: Some("a".into()),
        value: v,
        source: "numbers".into(),
        partition: 0,
        offset: v as u32,
    };
    let mut sub0 = keyed_sub(128, &[("b", 1)]);
    sub0.input_channels
        .insert(ChannelIndex(0), vec![rec(3), rec(4)]);
    let mut sub1 = keyed_sub(128, &[("a", 2)]);
    sub1.output_channels.insert(1, vec![rec(5)]);
    let mut sum = op_state(128, vec![sub0, sub1]);
    sum.inputs = vec![engine::restore::EdgeLayout {
        peer: "numbers".into(),
        partitioning: Partitioning::Hash,
        peer_parallelism: 1,
    }];
    sum.outputs = vec![engine::restore::EdgeLayout {
        peer: "out".into(),
        partitioning: Partitioning::Rebalance,
        peer_parallelism: 2,
    }];
    let mut sp = pipeline_state(
        vec![vec![(0, 5)]],
        vec![],
        vec![(None, vec![]), (None, vec![])],
    );
    sp.operators.insert("sum".into(), sum);
    sp.kind = SnapshotKind::Checkpoint;
    sp
}

/// In-flight records of an unaligned checkpoint are restored to the same subtask and
/// channel when nothing around the operator changed; with a changed parallelism or
/// changed edges the restore fails naming the operator (Flink rescales channel
/// state; the lab does not, §2.4). Mirrors
/// StateAssignmentOperationTest#testChannelStateAssignmentNoRescale and the
/// "topology changes" check of StateAssignmentOperation#checkForUnsupportedToplogyChanges.
#[test]
fn channel_state_is_restored_only_without_rescaling() {
    let keys = keys_table(&KEYS);
    let state = channel_state();
    let out = assign(&state, &pipeline(1, 2, 2), Refuse, &keys).expect("unchanged");
    let r0 = &out[&(1, 0)];
    let values: Vec<i64> = r0.input_channels[&ChannelIndex(0)]
        .iter()
        .map(|r| r.value)
        .collect();
    assert_eq!(values, vec![3, 4]);
    assert_eq!(r0.input_channels[&ChannelIndex(0)][0].key, keys.get("a"));
    assert_eq!(r0.input_channels[&ChannelIndex(0)][0].origin.source, 0);
    assert_eq!(out[&(1, 1)].output_channels[&1][0].value, 5);

    let err = assign(&state, &pipeline(1, 3, 2), Refuse, &keys).unwrap_err();
    assert_eq!(
        err,
        RestoreError::ChannelStateRescaled {
            uid: "sum".into(),
            old: 2,
            new: 3
        }
    );
    let text = err.to_string();
    assert!(
        text.contains("operator sum")
            && text.contains("Flink")
            && text.contains("the lab does not"),
        "{text}"
    );

    // The sink downstream was rescaled: sum's output channels are numbered anew.
    let err = assign(&state, &pipeline(1, 2, 3), Refuse, &keys).unwrap_err();
    assert!(
        matches!(err, RestoreError::ChannelStateTopologyChanged { ref uid, .. } if uid == "sum"),
        "{err}"
    );
    // The upstream's partitioning changed.
    let mut j = pipeline(1, 2, 2);
    j.edges[0].partitioning = Some(Partitioning::Broadcast);
    assert!(matches!(
        assign(&state, &j, Refuse, &keys),
        Err(RestoreError::ChannelStateTopologyChanged { .. })
    ));
    // Without channel state the same rescale is fine.
    let mut no_channels = state.clone();
    for s in &mut no_channels.operators.get_mut("sum").unwrap().subtasks {
        s.input_channels.clear();
        s.output_channels.clear();
    }
    assert!(assign(&no_channels, &pipeline(1, 3, 3), Refuse, &keys).is_ok());
}

// ---------------------------------------------------------------------------------
// Robustness
// ---------------------------------------------------------------------------------

/// Damaged savepoints and jobs validation would reject give errors, never panics.
#[test]
fn damaged_input_is_an_error_not_a_panic() {
    let keys = keys_table(&KEYS);
    let base = pipeline_state(
        vec![vec![(0, 5)]],
        vec![vec![("a", 1)]],
        vec![(Some(9), vec![])],
    );

    let mut s = base.clone();
    s.operators.get_mut("sum").unwrap().parallelism = 3;
    assert!(matches!(
        assign(&s, &pipeline(1, 1, 1), Refuse, &keys),
        Err(RestoreError::Corrupt { .. })
    ));

    let mut s = base.clone();
    s.operators.get_mut("sum").unwrap().parallelism = 0;
    s.operators.get_mut("sum").unwrap().subtasks.clear();
    // No subtask, so no state: nothing to restore, no error.
    assert!(assign(&s, &pipeline(1, 1, 1), Refuse, &keys).is_ok());

    let mut s = base.clone();
    for op in s.operators.values_mut() {
        op.max_parallelism = 0;
    }
    let mut j = pipeline(1, 1, 1);
    j.max_parallelism = Some(0);
    assert!(matches!(
        assign(&s, &j, Refuse, &KeyTable::new()),
        Err(RestoreError::Corrupt { .. })
    ));

    let mut s = base.clone();
    let sub = &mut s.operators.get_mut("numbers").unwrap().subtasks[0];
    sub.operator.get_mut(SOURCE_OFFSETS_STATE).unwrap().mode = DistributionMode::Union;
    s.operators
        .get_mut("numbers")
        .unwrap()
        .subtasks
        .push(offsets_sub(&[(1, 1)]));
    s.operators.get_mut("numbers").unwrap().parallelism = 2;
    assert!(matches!(
        assign(&s, &pipeline(2, 1, 1), Refuse, &keys),
        Err(RestoreError::Corrupt { .. })
    ));

    let mut j = pipeline(1, 1, 1);
    j.operators[1].parallelism = 0;
    assert!(matches!(
        assign(&base, &j, Refuse, &keys),
        Err(RestoreError::InvalidJob { .. })
    ));

    let mut j = pipeline(1, 1, 1);
    j.operators[2].uid = "sum".into();
    assert!(matches!(
        assign(&base, &j, Skip, &keys),
        Err(RestoreError::InvalidJob { .. })
    ));

    // Random garbage: never a panic.
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    for _ in 0..300 {
        let mut s = base.clone();
        for op in s.operators.values_mut() {
            if rng.random_bool(0.2) {
                op.max_parallelism = rng.random_range(0..40_000);
            }
            if rng.random_bool(0.2) {
                op.parallelism = rng.random_range(0..4);
            }
            for sub in &mut op.subtasks {
                for entries in sub.keyed.values_mut() {
                    for e in entries.values_mut() {
                        if rng.random_bool(0.3) {
                            e.key_group = rng.random_range(0..300);
                        }
                    }
                }
                if rng.random_bool(0.2) {
                    sub.finished = true;
                }
            }
        }
        let mut j = pipeline(
            rng.random_range(0..4),
            rng.random_range(0..200),
            rng.random_range(0..4),
        );
        if rng.random_bool(0.2) {
            j.max_parallelism = Some(rng.random_range(0..40_000));
        }
        let _ = assign(
            &s,
            &j,
            if rng.random_bool(0.5) { Skip } else { Refuse },
            &keys,
        )
        .map(|out| out.len());
    }
}

// ---------------------------------------------------------------------------------
// Property loop
// ---------------------------------------------------------------------------------

/// For random key sets, max parallelisms and old/new parallelisms: every key is
/// assigned to exactly one new subtask — the one `operator_index_for_key_group`
/// names, whose range holds its key group — with its value; and split-distribute
/// neither loses nor duplicates elements, keeps their order, and balances the total
/// load of several states to within one element (CheckpointCoordinatorTest#testPartitionableStateRepartitioning).
#[test]
fn property_every_key_and_element_lands_exactly_once() {
    // Seeds that rescaled keyed state: where a key could land on the wrong subtask
    // and a split list could lose or repeat an element.
    let mut rescaled = 0;
    for seed in 0..600u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let max_p: u32 = if rng.random_bool(0.5) {
            128
        } else {
            rng.random_range(1..=300)
        };
        let old_p = rng.random_range(1..=max_p.min(9));
        let new_p = rng.random_range(1..=max_p.min(9));
        let n_keys = rng.random_range(0..60);
        let key_names: Vec<String> = (0..n_keys)
            .map(|i| format!("k{}-{}", i, rng.random_range(0..1_000_000u32)))
            .collect();
        let mut keys = KeyTable::new();
        for k in &key_names {
            keys.intern(k);
        }

        // Old keyed state, as the old job held it; two split states and a union state.
        let mut subs: Vec<SubtaskState> = (0..old_p).map(|_| SubtaskState::default()).collect();
        for s in &mut subs {
            s.keyed.insert(VALUE_STATE.into(), BTreeMap::new());
        }
        for (i, k) in key_names.iter().enumerate() {
            let kg = assign_to_key_group(k, max_p);
            let owner = operator_index_for_key_group(max_p, old_p, kg) as usize;
            subs[owner].keyed.get_mut(VALUE_STATE).unwrap().insert(
                k.clone(),
                KeyedEntry {
                    key_group: kg,
                    value: StateValue::Int(i as i64),
                },
            );
        }
        let mut next = 0i64;
        let mut old_lists: BTreeMap<&str, Vec<Vec<i64>>> = BTreeMap::new();
        for name in ["s1", "s2", "u"] {
            for s in subs.iter_mut() {
                let len = rng.random_range(0..6);
                let values: Vec<i64> = (next..next + len).collect();
                next += len;
                old_lists.entry(name).or_default().push(values.clone());
                let mode = if name == "u" {
                    DistributionMode::Union
                } else {
                    DistributionMode::SplitDistribute
                };
                s.operator.insert(
                    name.into(),
                    ListState {
                        mode,
                        elements: values.into_iter().map(StateValue::Int).collect(),
                    },
                );
            }
        }
        let state = SavepointState {
            checkpoint: CheckpointId(1),
            kind: SnapshotKind::Checkpoint,
            operators: BTreeMap::from([(
                "op".to_string(),
                OperatorState {
                    max_parallelism: max_p,
                    parallelism: old_p,
                    subtasks: subs,
                    inputs: vec![],
                    outputs: vec![],
                },
            )]),
        };
        let j = job(json!({"max_parallelism": max_p, "operators": [
            {"uid": "op", "kind": "keyed_sum", "parallelism": new_p}], "edges": []}));
        let out = assign(&state, &j, Refuse, &keys).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(out.len(), new_p as usize, "seed {seed}");

        // Keys: exactly once, on the right subtask, in its range, with their value.
        let mut seen: BTreeMap<KeyId, u32> = BTreeMap::new();
        for ((_, i), r) in &out {
            assert_eq!(
                r.key_groups,
                key_group_range(max_p, new_p, *i),
                "seed {seed}"
            );
            for (k, v) in r.keyed_values() {
                assert!(
                    seen.insert(k, *i).is_none(),
                    "seed {seed}: key on two subtasks"
                );
                let kg = keys.key_group(k, max_p);
                assert_eq!(
                    *i,
                    operator_index_for_key_group(max_p, new_p, kg),
                    "seed {seed}"
                );
                assert!(r.key_groups.contains(&kg), "seed {seed}");
                let pos = key_names
                    .iter()
                    .position(|n| n.as_str() == keys.name(k).as_ref())
                    .unwrap();
                assert_eq!(v, pos as i64, "seed {seed}");
            }
        }
        assert_eq!(
            seen.len(),
            key_names.len(),
            "seed {seed}: every key assigned"
        );

        // Split-distribute: nothing lost or duplicated, order kept.
        let mut load = vec![0usize; new_p as usize];
        let mut start = 0u32;
        for name in ["s1", "s2"] {
            let concat: Vec<i64> = old_lists[name].iter().flatten().copied().collect();
            if old_p == new_p {
                for i in 0..new_p {
                    assert_eq!(
                        ints(out[&(0, i)].list(name)),
                        old_lists[name][i as usize],
                        "seed {seed}"
                    );
                }
            } else {
                // Reading the new subtasks in assignment order gives back the concatenation.
                let (chunks, next_start) = split_distribute(concat.len(), new_p, start);
                start = next_start;
                let mut reassembled = Vec::new();
                for (idx, range) in &chunks {
                    let got = ints(out[&(0, *idx)].list(name));
                    assert_eq!(got, concat[range.clone()].to_vec(), "seed {seed}");
                    reassembled.extend(got);
                }
                assert_eq!(reassembled, concat, "seed {seed}");
                let total: usize = (0..new_p).map(|i| out[&(0, i)].list(name).len()).sum();
                assert_eq!(total, concat.len(), "seed {seed}");
                for i in 0..new_p {
                    let len = out[&(0, i)].list(name).len();
                    load[i as usize] += len;
                    assert!(
                        len == concat.len() / new_p as usize
                            || len == concat.len() / new_p as usize + 1
                    );
                }
            }
        }
        if old_p != new_p {
            rescaled += usize::from(!key_names.is_empty());
            let (lo, hi) = (load.iter().min().unwrap(), load.iter().max().unwrap());
            assert!(hi - lo <= 1, "seed {seed}: load {load:?}");
        }
        // Union: everything everywhere.
        let union: Vec<i64> = old_lists["u"].iter().flatten().copied().collect();
        for i in 0..new_p {
            assert_eq!(ints(out[&(0, i)].list("u")), union, "seed {seed}");
        }
    }
    assert!(
        rescaled >= 300,
        "only {rescaled} of 600 seeds rescaled keyed state"
    );
}
