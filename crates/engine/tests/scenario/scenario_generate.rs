//! The input generator (contract: Records): due times, value rules, key draws, and
//! determinism — the same seed gives the same records, draws happen in a documented
//! order (key, then value, per record).

use engine::scenario::{GenerateSpec, PartitionSpec, RecordSpec, ValuesKind};
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn generate(count: u64, every_ms: u64, keys: Option<&[&str]>, values: ValuesKind) -> PartitionSpec {
    PartitionSpec::Generate(GenerateSpec {
        count,
        every_ms,
        keys: keys.map(|keys| keys.iter().map(|k| k.to_string()).collect()),
        values,
    })
}

/// Record i is due at every_ms × (i + 1) with value i + 1; no keys, no draws.
#[test]
fn sequence_without_keys() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let records = generate(150, 50, None, ValuesKind::Sequence).materialize(&mut rng);
    assert_eq!(records.len(), 150);
    assert_eq!(
        records[0],
        RecordSpec {
            at_ms: 50,
            value: 1,
            key: None
        }
    );
    assert_eq!(
        records[1],
        RecordSpec {
            at_ms: 100,
            value: 2,
            key: None
        }
    );
    assert_eq!(
        records[149],
        RecordSpec {
            at_ms: 7_500,
            value: 150,
            key: None
        }
    );
    for (i, record) in records.iter().enumerate() {
        assert_eq!(record.at_ms, 50 * (i as u64 + 1));
        assert_eq!(record.value, i as i64 + 1);
    }
    // Nothing was drawn: the generator is where a fresh one with the same seed is.
    assert_eq!(rng.next_u64(), ChaCha8Rng::seed_from_u64(7).next_u64());
}

/// The documented draw order: per record, first the key index (`u32` in
/// 0..keys.len()), then the value (1..=100), from the caller's generator.
#[test]
fn random_with_keys_draws_key_then_value() {
    let keys = ["app1", "app2", "app3"];
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let records = generate(200, 3, Some(&keys), ValuesKind::Random).materialize(&mut rng);

    let mut replay = ChaCha8Rng::seed_from_u64(99);
    for (i, record) in records.iter().enumerate() {
        let key = keys[replay.random_range(0..keys.len() as u32) as usize];
        let value = replay.random_range(1..=100i64);
        assert_eq!(
            record,
            &RecordSpec {
                at_ms: 3 * (i as u64 + 1),
                value,
                key: Some(key.to_string())
            },
            "record {i}"
        );
    }
    // Both generators end in the same state: nothing else was drawn.
    assert_eq!(rng.next_u64(), replay.next_u64());
}

/// Random values stay in 1..=100 and reach both ends; every key is used.
#[test]
fn random_values_and_keys_cover_their_ranges() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let records = generate(5_000, 1, Some(&["a", "b"]), ValuesKind::Random).materialize(&mut rng);
    assert!(records.iter().all(|r| (1..=100).contains(&r.value)));
    assert!(records.iter().any(|r| r.value == 1));
    assert!(records.iter().any(|r| r.value == 100));
    let a = records
        .iter()
        .filter(|r| r.key.as_deref() == Some("a"))
        .count();
    let b = records
        .iter()
        .filter(|r| r.key.as_deref() == Some("b"))
        .count();
    assert_eq!(a + b, 5_000);
    assert!(a > 2_000 && b > 2_000, "uniform keys: {a} / {b}");
}

/// Keys with sequence values draw one key per record and nothing for the value.
#[test]
fn sequence_with_keys_draws_only_keys() {
    let keys = ["x", "y"];
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let records = generate(20, 10, Some(&keys), ValuesKind::Sequence).materialize(&mut rng);
    let mut replay = ChaCha8Rng::seed_from_u64(3);
    for (i, record) in records.iter().enumerate() {
        assert_eq!(record.value, i as i64 + 1);
        assert_eq!(
            record.key.as_deref(),
            Some(keys[replay.random_range(0..2u32) as usize])
        );
    }
    assert_eq!(rng.next_u64(), replay.next_u64());
}

/// Same seed, same records; another seed, other records.
#[test]
fn same_seed_same_records() {
    let spec = generate(100, 5, Some(&["a", "b", "c", "d"]), ValuesKind::Random);
    let run = |seed| spec.materialize(&mut ChaCha8Rng::seed_from_u64(seed));
    assert_eq!(run(7), run(7));
    assert_ne!(run(7), run(8));
}

/// Regression: pins the first records of one seed, so that a change of generator
/// algorithm, of rand's sampling or of the draw order shows up as a failure (it
/// would change every generated scenario's trace).
#[test]
fn pinned_records_for_seed_7() {
    let spec = generate(6, 100, Some(&["odd", "even"]), ValuesKind::Random);
    let records = spec.materialize(&mut ChaCha8Rng::seed_from_u64(7));
    let pinned: Vec<(u64, i64, &str)> = records
        .iter()
        .map(|r| (r.at_ms, r.value, r.key.as_deref().unwrap()))
        .collect();
    assert_eq!(pinned, PINNED);
}

/// Recorded from this implementation (rand 0.9, rand_chacha 0.9).
const PINNED: [(u64, i64, &str); 6] = [
    (100, 19, "odd"),
    (200, 71, "odd"),
    (300, 8, "odd"),
    (400, 36, "even"),
    (500, 26, "odd"),
    (600, 37, "even"),
];

/// Explicit records come back as written, and draw nothing.
#[test]
fn explicit_records_are_returned_verbatim() {
    let records = vec![
        RecordSpec {
            at_ms: 9,
            value: -1,
            key: Some("应用一".into()),
        },
        RecordSpec {
            at_ms: 3,
            value: 7,
            key: None,
        },
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    assert_eq!(
        PartitionSpec::Records(records.clone()).materialize(&mut rng),
        records
    );
    assert_eq!(rng.next_u64(), ChaCha8Rng::seed_from_u64(5).next_u64());
    assert_eq!(PartitionSpec::Records(records).len(), 2);
}

/// Empty generators and extreme due times do not panic.
#[test]
fn edge_cases() {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert!(generate(0, 1, None, ValuesKind::Random)
        .materialize(&mut rng)
        .is_empty());
    assert!(generate(0, 1, None, ValuesKind::Random).is_empty());
    let records = generate(3, u64::MAX / 2, None, ValuesKind::Sequence).materialize(&mut rng);
    assert_eq!(records[1].at_ms, u64::MAX - 1);
    assert_eq!(records[2].at_ms, u64::MAX, "saturates");
}
