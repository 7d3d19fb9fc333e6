//! The keyed state types and their operations, as Flink's state API defines them
//! (docs/flink-semantics.md §6.1): ValueState, ListState, ReducingState,
//! AggregatingState, MapState, registered through named descriptors.

use engine::record::KeyId;
use engine::state::{
    AggregateFn, KeyedStateStore, ReduceFn, StateDescriptor, StateError, StateKind, Upload,
};

const A: KeyId = KeyId(0);
const B: KeyId = KeyId(1);

fn store(kinds: &[(&str, StateKind)]) -> KeyedStateStore {
    KeyedStateStore::with_descriptors(kinds.iter().map(|(n, k)| StateDescriptor::new(*n, *k)))
        .unwrap()
}

/// Mirrors Flink's StateBackendTestBase#testValueState: value / update / clear, per key.
#[test]
fn value_state_value_update_clear_per_key() {
    let mut s = store(&[("v", StateKind::Value)]);
    s.set_current_key(A, 0);
    assert_eq!(s.value("v").unwrap().value(), None);
    s.value("v").unwrap().update(7);
    assert_eq!(s.value("v").unwrap().value(), Some(7));
    s.set_current_key(B, 0);
    assert_eq!(
        s.value("v").unwrap().value(),
        None,
        "state is scoped to the current key"
    );
    s.value("v").unwrap().update(3);
    s.set_current_key(A, 0);
    s.value("v").unwrap().update(8);
    assert_eq!(s.value("v").unwrap().value(), Some(8));
    s.value("v").unwrap().clear();
    assert_eq!(s.value("v").unwrap().value(), None);
    s.set_current_key(B, 0);
    assert_eq!(
        s.value("v").unwrap().value(),
        Some(3),
        "clear removes only the current key's value"
    );
}

/// Mirrors StateBackendTestBase#testListState / testListStateAddAll / testListStateUpdate.
#[test]
fn list_state_add_add_all_get_update() {
    let mut s = store(&[("l", StateKind::List)]);
    s.set_current_key(A, 0);
    assert!(s.list("l").unwrap().get().is_empty());
    s.list("l").unwrap().add(1);
    s.list("l").unwrap().add(2);
    s.list("l").unwrap().add_all(&[3, 4]);
    assert_eq!(s.list("l").unwrap().get(), vec![1, 2, 3, 4]);
    s.list("l").unwrap().add_all(&[]);
    assert_eq!(
        s.list("l").unwrap().get(),
        vec![1, 2, 3, 4],
        "add_all of nothing changes nothing"
    );
    s.list("l").unwrap().update(&[9, 8]);
    assert_eq!(s.list("l").unwrap().get(), vec![9, 8]);
    s.list("l").unwrap().update(&[]);
    assert!(
        s.list("l").unwrap().get().is_empty(),
        "update with an empty list clears"
    );
    assert!(
        s.tables()["l"].entries.is_empty(),
        "an empty list is not stored"
    );
    s.list("l").unwrap().add(5);
    s.list("l").unwrap().clear();
    assert!(s.list("l").unwrap().get().is_empty());
}

/// Mirrors StateBackendTestBase#testReducingState: add folds with the ReduceFunction.
#[test]
fn reducing_state_folds_with_its_function() {
    let mut s = store(&[
        ("max", StateKind::Reducing(ReduceFn::Max)),
        ("sum", StateKind::Reducing(ReduceFn::Sum)),
    ]);
    s.set_current_key(A, 0);
    assert_eq!(s.reducing("max").unwrap().get(), None);
    for v in [3, 9, 4] {
        s.reducing("max").unwrap().add(v);
        s.reducing("sum").unwrap().add(v);
    }
    assert_eq!(s.reducing("max").unwrap().get(), Some(9));
    assert_eq!(s.reducing("sum").unwrap().get(), Some(16));
    s.reducing("max").unwrap().clear();
    assert_eq!(s.reducing("max").unwrap().get(), None);
    s.reducing("max").unwrap().add(-2);
    assert_eq!(
        s.reducing("max").unwrap().get(),
        Some(-2),
        "after clear the first add is the value"
    );
}

/// Mirrors StateBackendTestBase#testAggregatingState: IN (a value) differs from OUT
/// (the average) through the accumulator (sum, count).
#[test]
fn aggregating_state_average_from_sum_and_count() {
    let mut s = store(&[("avg", StateKind::Aggregating(AggregateFn::Average))]);
    s.set_current_key(A, 0);
    assert_eq!(s.aggregating("avg").unwrap().get(), None);
    for v in [10, 20, 40] {
        s.aggregating("avg").unwrap().add(v);
    }
    assert_eq!(s.aggregating("avg").unwrap().accumulator(), Some((70, 3)));
    assert_eq!(s.aggregating("avg").unwrap().get(), Some(23));
    s.set_current_key(B, 0);
    s.aggregating("avg").unwrap().add(5);
    assert_eq!(s.aggregating("avg").unwrap().get(), Some(5));
    s.aggregating("avg").unwrap().clear();
    assert_eq!(s.aggregating("avg").unwrap().get(), None);
}

/// Mirrors StateBackendTestBase#testMapState: put / get / contains / entries / keys /
/// values / remove / clear.
#[test]
fn map_state_operations() {
    let mut s = store(&[("m", StateKind::Map)]);
    s.set_current_key(A, 0);
    let mut m = s.map("m").unwrap();
    assert!(m.is_empty());
    m.put(3, 30);
    m.put(1, 10);
    m.put(2, 20);
    assert_eq!(m.get(1), Some(10));
    assert_eq!(m.get(4), None);
    assert!(m.contains(2));
    assert!(!m.contains(5));
    assert_eq!(m.entries(), vec![(1, 10), (2, 20), (3, 30)]);
    assert_eq!(m.keys(), vec![1, 2, 3]);
    assert_eq!(m.values(), vec![10, 20, 30]);
    m.put(2, 21);
    assert_eq!(m.get(2), Some(21), "put overwrites");
    m.remove(2);
    assert!(!m.contains(2));
    assert_eq!(m.keys(), vec![1, 3]);
    m.remove(1);
    m.remove(3);
    assert!(m.is_empty());
    assert!(
        s.tables()["m"].entries.is_empty(),
        "a map emptied by remove is not stored"
    );
    s.map("m").unwrap().put(7, 70);
    s.map("m").unwrap().clear();
    assert!(s.map("m").unwrap().entries().is_empty());
}

/// Two states with one name in one operator is an error naming both types; the same
/// descriptor twice is the same state (Flink: getPartitionedState returns it).
#[test]
fn two_states_with_one_name_are_rejected() {
    let mut s = KeyedStateStore::default();
    s.register(StateDescriptor::new("seen", StateKind::Map))
        .unwrap();
    s.register(StateDescriptor::new("seen", StateKind::Map))
        .unwrap();
    let err = s
        .register(StateDescriptor::new("seen", StateKind::Value))
        .unwrap_err();
    assert_eq!(
        err,
        StateError::DuplicateName {
            name: "seen".into(),
            registered: StateKind::Map,
            requested: StateKind::Value
        }
    );
    let msg = err.to_string();
    assert!(
        msg.contains("\"seen\"") && msg.contains("MapState") && msg.contains("ValueState"),
        "{msg}"
    );
    let err = KeyedStateStore::with_descriptors([
        StateDescriptor::new("x", StateKind::Reducing(ReduceFn::Sum)),
        StateDescriptor::new("x", StateKind::Reducing(ReduceFn::Max)),
    ])
    .unwrap_err();
    assert!(
        matches!(err, StateError::DuplicateName { .. }),
        "same type, other function: still two states"
    );
}

/// Asking for a state that is not registered, with the wrong type, or without a key
/// is a typed error, not a panic.
#[test]
fn misuse_is_a_typed_error() {
    let mut s = store(&[("v", StateKind::Value)]);
    assert_eq!(s.value("v").unwrap_err(), StateError::NoCurrentKey);
    s.set_current_key(A, 0);
    assert_eq!(
        s.list("nope").unwrap_err(),
        StateError::NotRegistered {
            name: "nope".into()
        }
    );
    let err = s.map("v").unwrap_err();
    assert_eq!(
        err,
        StateError::WrongType {
            name: "v".into(),
            registered: StateKind::Value,
            requested: "MapState"
        }
    );
    assert_eq!(
        err.to_string(),
        "state \"v\" is a ValueState, not a MapState"
    );
}

/// A snapshot holds every registered state (even empty) and restores into a store
/// with the same descriptors; states of another shape are not read.
#[test]
fn snapshot_and_restore_round_trip() {
    let kinds = [
        ("v", StateKind::Value),
        ("l", StateKind::List),
        ("r", StateKind::Reducing(ReduceFn::Min)),
        ("a", StateKind::Aggregating(AggregateFn::Average)),
        ("m", StateKind::Map),
        ("empty", StateKind::Value),
    ];
    let mut s = store(&kinds);
    for (k, n) in [(A, 1i64), (B, 2)] {
        s.set_current_key(k, 10 * n as u64);
        s.value("v").unwrap().update(n);
        s.list("l").unwrap().add_all(&[n, n + 1]);
        s.reducing("r").unwrap().add(n);
        s.aggregating("a").unwrap().add(n);
        s.map("m").unwrap().put(n, -n);
    }
    let snap = s.snapshot(100, Upload::Full);
    assert_eq!(snap.len(), 6);
    assert!(snap["empty"].is_empty());
    let mut t = store(&kinds);
    t.restore(&snap);
    assert_eq!(t.tables(), s.tables());
    // A state registered with another type ignores the stored values.
    let mut u = store(&[("v", StateKind::List)]);
    u.restore(&snap);
    assert!(u.tables()["v"].entries.is_empty());
}
