//! State time-to-live under each setting (docs/flink-semantics.md §6.2). Each test names
//! the Flink class whose behaviour it mirrors (flink-runtime `state/ttl`, and the
//! cases of Flink's `TtlStateTestBase#testExactExpirationOnWrite`,
//! `#testExactExpirationOnRead`, `#testRelaxedExpirationOnWrite`, …).

use engine::record::KeyId;
use engine::state::{
    AggregateFn, CleanupStrategies, IncrementalCleanup, KeyedStateStore, ReduceFn, StateDescriptor,
    StateKind, StateVisibility, StoredValue, TtlConfig, UpdateType, Upload,
};

const A: KeyId = KeyId(0);
const TTL: u64 = 100;

fn cfg(update: UpdateType, visibility: StateVisibility) -> TtlConfig {
    TtlConfig {
        update_type: update,
        visibility,
        ..TtlConfig::new(TTL)
    }
}

fn one(kind: StateKind, ttl: TtlConfig) -> KeyedStateStore {
    KeyedStateStore::with_descriptors([StateDescriptor::new("s", kind).with_ttl(Some(ttl))])
        .unwrap()
}

fn stored(s: &KeyedStateStore) -> usize {
    s.tables()["s"].entries.len()
}

/// TtlValueState, OnCreateAndWrite + NeverReturnExpired (Flink's defaults): reads do
/// not extend the life; expired exactly at write + ttl; the expired read removes it.
#[test]
fn value_on_create_and_write_never_return_expired() {
    let mut s = one(StateKind::Value, TtlConfig::new(TTL));
    s.set_current_key(A, 0);
    s.value("s").unwrap().update(5);
    s.set_current_key(A, 99);
    assert_eq!(s.value("s").unwrap().value(), Some(5));
    s.set_current_key(A, 100);
    assert_eq!(
        s.value("s").unwrap().value(),
        None,
        "expired at 0 + 100 although read at 99"
    );
    assert_eq!(stored(&s), 0, "cleanup on read removed it");
    s.value("s").unwrap().update(6);
    s.set_current_key(A, 150);
    assert_eq!(
        s.value("s").unwrap().value(),
        Some(6),
        "a write restarts the clock"
    );
}

/// TtlValueState, OnReadAndWrite: every unexpired read refreshes the timestamp.
#[test]
fn value_on_read_and_write_extends_on_read() {
    let mut s = one(
        StateKind::Value,
        cfg(
            UpdateType::OnReadAndWrite,
            StateVisibility::NeverReturnExpired,
        ),
    );
    s.set_current_key(A, 0);
    s.value("s").unwrap().update(5);
    for t in [60, 120, 180] {
        s.set_current_key(A, t);
        assert_eq!(
            s.value("s").unwrap().value(),
            Some(5),
            "read at {t} keeps it alive"
        );
    }
    s.set_current_key(A, 280);
    assert_eq!(s.value("s").unwrap().value(), None, "expired at 180 + 100");
}

/// AbstractTtlDecorator.getWithTtlCheckAndUpdate with ReturnExpiredIfNotCleanedUp:
/// the read that finds the value expired returns it and removes it.
#[test]
fn value_return_expired_if_not_cleaned_up() {
    let mut s = one(
        StateKind::Value,
        cfg(
            UpdateType::OnCreateAndWrite,
            StateVisibility::ReturnExpiredIfNotCleanedUp,
        ),
    );
    s.set_current_key(A, 0);
    s.value("s").unwrap().update(5);
    s.set_current_key(A, 300);
    assert_eq!(
        s.value("s").unwrap().value(),
        Some(5),
        "expired but not cleaned up yet: returned"
    );
    assert_eq!(
        s.value("s").unwrap().value(),
        None,
        "that read cleaned it up"
    );
}

/// TtlListState: elements expire one by one. OnCreateAndWrite: the read filters but
/// does not rewrite, so an expired element stays stored while another is alive;
/// when none is alive the list is cleared.
#[test]
fn list_elements_expire_one_by_one() {
    let mut s = one(StateKind::List, TtlConfig::new(TTL));
    s.set_current_key(A, 0);
    s.list("s").unwrap().add(1);
    s.set_current_key(A, 60);
    s.list("s").unwrap().add(2);
    s.set_current_key(A, 100);
    assert_eq!(s.list("s").unwrap().get(), vec![2]);
    assert!(
        matches!(&s.tables()["s"].entries[&A], StoredValue::List(l) if l.len() == 2),
        "not rewritten"
    );
    s.set_current_key(A, 160);
    assert_eq!(s.list("s").unwrap().get(), Vec::<i64>::new());
    assert_eq!(stored(&s), 0, "no element alive: cleared");
}

/// TtlListState.get with OnReadAndWrite: the unexpired elements are rewritten with
/// the read's time (dropping the expired ones); ReturnExpiredIfNotCleanedUp returns
/// the expired ones too, this once.
#[test]
fn list_on_read_and_write_rewrites_and_return_expired_shows_all() {
    let mut s = one(
        StateKind::List,
        cfg(
            UpdateType::OnReadAndWrite,
            StateVisibility::ReturnExpiredIfNotCleanedUp,
        ),
    );
    s.set_current_key(A, 0);
    s.list("s").unwrap().add(1);
    s.set_current_key(A, 60);
    s.list("s").unwrap().add(2);
    s.set_current_key(A, 100);
    assert_eq!(
        s.list("s").unwrap().get(),
        vec![1, 2],
        "expired element 1 still returned once"
    );
    assert!(
        matches!(&s.tables()["s"].entries[&A], StoredValue::List(l) if l.len() == 1 && l[0].value == 2 && l[0].last_access_at == 100)
    );
    s.set_current_key(A, 199);
    assert_eq!(
        s.list("s").unwrap().get(),
        vec![2],
        "refreshed at 100, alive until 200"
    );
}

/// TtlMapState: entries expire one by one; get and contains remove an expired entry;
/// entries() drops expired entries as it meets them.
#[test]
fn map_entries_expire_one_by_one() {
    let mut s = one(StateKind::Map, TtlConfig::new(TTL));
    s.set_current_key(A, 0);
    s.map("s").unwrap().put(1, 10);
    s.set_current_key(A, 50);
    s.map("s").unwrap().put(2, 20);
    s.map("s").unwrap().put(3, 30);
    s.set_current_key(A, 100);
    assert!(!s.map("s").unwrap().contains(1));
    assert_eq!(s.map("s").unwrap().entries(), vec![(2, 20), (3, 30)]);
    s.set_current_key(A, 120);
    s.map("s").unwrap().put(3, 31);
    s.set_current_key(A, 150);
    assert_eq!(s.map("s").unwrap().get(2), None);
    assert_eq!(
        s.map("s").unwrap().keys(),
        vec![3],
        "3 was rewritten at 120"
    );
    s.set_current_key(A, 220);
    assert!(s.map("s").unwrap().is_empty());
    assert_eq!(stored(&s), 0, "an emptied map is not stored");
}

/// TtlMapState.contains with ReturnExpiredIfNotCleanedUp: true once for an expired
/// entry (the read that removes it), then false.
#[test]
fn map_contains_returns_expired_once() {
    let mut s = one(
        StateKind::Map,
        cfg(
            UpdateType::OnCreateAndWrite,
            StateVisibility::ReturnExpiredIfNotCleanedUp,
        ),
    );
    s.set_current_key(A, 0);
    s.map("s").unwrap().put(1, 10);
    s.set_current_key(A, 500);
    assert!(s.map("s").unwrap().contains(1));
    assert!(!s.map("s").unwrap().contains(1));
}

/// TtlReduceFunction: an expired stored value is dropped, not reduced with.
#[test]
fn reducing_forgets_an_expired_value() {
    let mut s = one(StateKind::Reducing(ReduceFn::Sum), TtlConfig::new(TTL));
    s.set_current_key(A, 0);
    s.reducing("s").unwrap().add(5);
    s.set_current_key(A, 50);
    s.reducing("s").unwrap().add(5);
    assert_eq!(s.reducing("s").unwrap().get(), Some(10));
    s.set_current_key(A, 150);
    s.reducing("s").unwrap().add(1);
    assert_eq!(
        s.reducing("s").unwrap().get(),
        Some(1),
        "the sum written at 50 expired at 150"
    );
}

/// TtlAggregateFunction: an expired accumulator is replaced by a fresh one.
#[test]
fn aggregating_starts_a_fresh_accumulator_after_expiry() {
    let mut s = one(
        StateKind::Aggregating(AggregateFn::Average),
        TtlConfig::new(TTL),
    );
    s.set_current_key(A, 0);
    s.aggregating("s").unwrap().add(10);
    s.aggregating("s").unwrap().add(20);
    s.set_current_key(A, 99);
    assert_eq!(s.aggregating("s").unwrap().get(), Some(15));
    s.set_current_key(A, 200);
    s.aggregating("s").unwrap().add(3);
    assert_eq!(s.aggregating("s").unwrap().accumulator(), Some((3, 1)));
}

/// Mirrors Flink's `TtlReduceFunction.reduce`, which reads the stored
/// value through `AbstractTtlDecorator.getUnexpired`: with ReturnExpiredIfNotCleanedUp
/// an expired value that no cleanup removed yet is still folded in (expired 10 plus
/// 20 gives 30, written at the time of the add); once a read or a cleanup removed it,
/// the next add starts over.
#[test]
fn reducing_folds_an_expired_value_not_cleaned_up() {
    let mut s = one(
        StateKind::Reducing(ReduceFn::Sum),
        cfg(
            UpdateType::OnCreateAndWrite,
            StateVisibility::ReturnExpiredIfNotCleanedUp,
        ),
    );
    s.set_current_key(A, 0);
    s.reducing("s").unwrap().add(10);
    s.set_current_key(A, 500);
    s.reducing("s").unwrap().add(20);
    assert_eq!(s.reducing("s").unwrap().get(), Some(30));
    s.set_current_key(A, 650);
    assert_eq!(
        s.reducing("s").unwrap().get(),
        Some(30),
        "written at 500: alive until 600, then returned once by the read that removes it"
    );
    s.reducing("s").unwrap().add(5);
    assert_eq!(
        s.reducing("s").unwrap().get(),
        Some(5),
        "that read cleaned it up"
    );
}

/// Mirrors Flink's `TtlAggregateFunction.add` (`getUnexpired`, then
/// `createAccumulator` only for nothing): with ReturnExpiredIfNotCleanedUp an expired
/// accumulator keeps aggregating — the average of an expired 10 and a new 20 is 15.
#[test]
fn aggregating_keeps_an_expired_accumulator_not_cleaned_up() {
    let mut s = one(
        StateKind::Aggregating(AggregateFn::Average),
        cfg(
            UpdateType::OnCreateAndWrite,
            StateVisibility::ReturnExpiredIfNotCleanedUp,
        ),
    );
    s.set_current_key(A, 0);
    s.aggregating("s").unwrap().add(10);
    s.set_current_key(A, 500);
    s.aggregating("s").unwrap().add(20);
    assert_eq!(s.aggregating("s").unwrap().accumulator(), Some((30, 2)));
    assert_eq!(s.aggregating("s").unwrap().get(), Some(15));
}

/// The same fold over many seeds: adds only (no read, no cleanup) at random times. With
/// ReturnExpiredIfNotCleanedUp nothing is ever dropped — the reduced value is the sum
/// of all adds, as without TTL; with NeverReturnExpired it is the sum since the last
/// gap of at least the TTL (`TtlReduceFunction` on an expired value).
#[test]
fn reducing_without_reads_keeps_or_drops_as_the_visibility_says() {
    use rand::{Rng, SeedableRng};
    // Seeds with an expiring gap: where the two visibilities differ.
    let mut expired = 0;
    for seed in 0..300u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut keep = one(
            StateKind::Reducing(ReduceFn::Sum),
            cfg(
                UpdateType::OnCreateAndWrite,
                StateVisibility::ReturnExpiredIfNotCleanedUp,
            ),
        );
        let mut drop = one(StateKind::Reducing(ReduceFn::Sum), TtlConfig::new(TTL));
        let (mut now, mut last) = (0u64, None::<u64>);
        let (mut all, mut since_gap) = (0i64, 0i64);
        for _ in 0..rng.random_range(1..30) {
            now += rng.random_range(0..2 * TTL);
            let v = rng.random_range(1..100);
            if last.is_some_and(|l| l + TTL <= now) {
                since_gap = 0;
            }
            all += v;
            since_gap += v;
            last = Some(now);
            for s in [&mut keep, &mut drop] {
                s.set_current_key(A, now);
                s.reducing("s").unwrap().add(v);
            }
        }
        let stored = |s: &KeyedStateStore| match &s.tables()["s"].entries[&A] {
            StoredValue::Value(v) => v.value,
            other => panic!("seed {seed}: {other:?}"),
        };
        assert_eq!(stored(&keep), all, "seed {seed}");
        assert_eq!(stored(&drop), since_gap, "seed {seed}");
        expired += usize::from(since_gap < all);
    }
    assert!(
        expired >= 100,
        "only {expired} of 300 seeds had an expiring gap"
    );
}

/// Ten keys written at 0 with TTL 10, restored into a store with `cleanup` (so the
/// cleanup iterator starts at the first key; the writes would have moved it).
fn ten_keys(cleanup: CleanupStrategies) -> KeyedStateStore {
    let mut w = one(StateKind::Value, TtlConfig::new(10));
    for k in 0..10 {
        w.set_current_key(KeyId(k), 0);
        w.value("s").unwrap().update(i64::from(k));
    }
    let mut s = one(
        StateKind::Value,
        TtlConfig {
            cleanup,
            ..TtlConfig::new(10)
        },
    );
    s.restore(&w.snapshot(0, Upload::Full));
    assert_eq!(stored(&s), 10);
    s
}

/// TtlIncrementalCleanup.stateAccessed: each access checks the next cleanup_size
/// keys, resuming after the last one checked; an exhausted pass starts over.
#[test]
fn incremental_cleanup_checks_n_entries_per_access() {
    let inc = IncrementalCleanup {
        cleanup_size: 3,
        run_for_every_record: false,
    };
    let mut s = ten_keys(CleanupStrategies {
        incremental: Some(inc),
        ..Default::default()
    });
    s.set_current_key(KeyId(99), 20);
    assert_eq!(stored(&s), 10, "setting the key alone does not clean up");
    let mut left = Vec::new();
    for _ in 0..4 {
        assert_eq!(s.value("s").unwrap().value(), None);
        left.push(stored(&s));
    }
    assert_eq!(left, vec![7, 4, 1, 0]);
    // A fresh key written later is not expired: the pass keeps it.
    s.set_current_key(KeyId(3), 25);
    s.value("s").unwrap().update(1);
    s.set_current_key(KeyId(99), 30);
    s.value("s").unwrap().value();
    assert_eq!(stored(&s), 1);
}

/// IncrementalCleanupStrategy.runCleanupForEveryRecord: selecting the key of each
/// record runs the cleanup, without any state access.
#[test]
fn incremental_cleanup_for_every_record() {
    let inc = IncrementalCleanup {
        cleanup_size: 4,
        run_for_every_record: true,
    };
    let mut s = ten_keys(CleanupStrategies {
        incremental: Some(inc),
        ..Default::default()
    });
    s.set_current_key(KeyId(99), 20);
    assert_eq!(stored(&s), 6);
    s.set_current_key(KeyId(98), 21);
    assert_eq!(stored(&s), 2);
}

/// Mirrors Flink's default `StateTtlConfig` (cleanup in the background:
/// `CleanupStrategies.getIncrementalCleanupStrategy` gives the heap backend an
/// incremental cleanup of 5 entries per access, not for every record): asked for
/// with `in_background`, each access checks 5 keys.
#[test]
fn background_cleanup_checks_five_entries_per_access() {
    let mut s = ten_keys(CleanupStrategies {
        in_background: true,
        ..Default::default()
    });
    s.set_current_key(KeyId(99), 20);
    assert_eq!(stored(&s), 10, "not for every record");
    assert_eq!(s.value("s").unwrap().value(), None);
    assert_eq!(stored(&s), 5);
    assert_eq!(s.value("s").unwrap().value(), None);
    assert_eq!(stored(&s), 0);
}

/// Without a cleanup strategy, expired values of keys nobody reads stay in the state
/// and in every snapshot.
#[test]
fn without_cleanup_expired_values_stay() {
    let mut s = ten_keys(CleanupStrategies::default());
    s.set_current_key(KeyId(99), 1000);
    assert_eq!(s.value("s").unwrap().value(), None);
    assert_eq!(stored(&s), 10);
    assert_eq!(s.snapshot(1000, Upload::Full)["s"].len(), 10);
}

/// TtlStateSnapshotTransformer (cleanupFullSnapshot): a full snapshot leaves expired
/// values out; the live state keeps them; an incremental (rocksdb) snapshot is not
/// filtered. List elements and map entries are filtered one by one.
#[test]
fn full_snapshot_cleanup_filters_the_snapshot_only() {
    let full = CleanupStrategies {
        full_snapshot: true,
        ..Default::default()
    };
    let mut s = KeyedStateStore::with_descriptors([
        StateDescriptor::new("v", StateKind::Value).with_ttl(Some(TtlConfig {
            cleanup: full,
            ..TtlConfig::new(TTL)
        })),
        StateDescriptor::new("l", StateKind::List).with_ttl(Some(TtlConfig {
            cleanup: full,
            ..TtlConfig::new(TTL)
        })),
        StateDescriptor::new("m", StateKind::Map).with_ttl(Some(TtlConfig {
            cleanup: full,
            ..TtlConfig::new(TTL)
        })),
    ])
    .unwrap();
    s.set_current_key(A, 0);
    s.value("v").unwrap().update(1);
    s.list("l").unwrap().add(1);
    s.map("m").unwrap().put(1, 1);
    s.set_current_key(KeyId(1), 50);
    s.value("v").unwrap().update(2);
    s.list("l").unwrap().add(2);
    s.map("m").unwrap().put(2, 2);
    s.set_current_key(A, 60);
    s.list("l").unwrap().add(3);
    s.map("m").unwrap().put(3, 3);

    let snap = s.snapshot(120, Upload::Full);
    assert_eq!(
        snap["v"].keys().copied().collect::<Vec<_>>(),
        vec![KeyId(1)]
    );
    let StoredValue::List(l) = &snap["l"][&A] else {
        panic!("a list")
    };
    assert_eq!(
        l.iter().map(|t| t.value).collect::<Vec<_>>(),
        vec![3],
        "element 1 of key 0 filtered out"
    );
    let StoredValue::Map(m) = &snap["m"][&A] else {
        panic!("a map")
    };
    assert_eq!(m.keys().copied().collect::<Vec<_>>(), vec![3]);
    assert_eq!(
        s.tables()["v"].entries.len(),
        2,
        "the live state is untouched"
    );
    let inc = s.snapshot(120, Upload::Incremental);
    assert_eq!(inc["v"].len(), 2, "an incremental snapshot is not filtered");
}
