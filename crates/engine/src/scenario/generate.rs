//! The input generator: turns a [`PartitionSpec`] into its records.
//!
//! # Determinism
//! The only randomness is the caller's `ChaCha8Rng` (the run's one generator,
//! seeded with `ChaCha8Rng::seed_from_u64(seed)`). Per record, in record order, the
//! generator draws **first the key, then the value**, and only what it needs:
//! - a key, when `keys` is present: an index `rng.random_range(0..keys.len() as u32)`
//!   (sampled as `u32`, so wasm32 and 64-bit hosts draw identically);
//! - a value, when `values` is `random`: `rng.random_range(1..=100i64)`.
//!
//! So a `sequence` generator without keys draws nothing, and explicit `records`
//! never draw. rand 0.9's uniform sampling is portable (same numbers on every
//! platform for the same generator state).

use super::{GenerateSpec, PartitionSpec, RecordSpec, ValuesKind};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

impl PartitionSpec {
    /// The records of this partition, in log order (a record's offset is its index).
    /// Explicit `records` are returned as written; a generator produces `count`
    /// records where record `i` (from 0) is due at `every_ms × (i + 1)`, its key is
    /// drawn uniformly from `keys` (none when absent) and its value is `i + 1`
    /// (`sequence`) or uniform in 1..=100 (`random`). See the module docs for the
    /// draw order.
    ///
    /// Due times saturate at `u64::MAX` (validation rejects generators whose last
    /// due time would overflow).
    pub fn materialize(&self, rng: &mut ChaCha8Rng) -> Vec<RecordSpec> {
        match self {
            PartitionSpec::Records(records) => records.clone(),
            PartitionSpec::Generate(spec) => spec.materialize(rng),
        }
    }

    /// The number of records in this partition.
    pub fn len(&self) -> u64 {
        match self {
            PartitionSpec::Records(records) => records.len() as u64,
            PartitionSpec::Generate(spec) => spec.count,
        }
    }

    /// Whether this partition has no records.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl GenerateSpec {
    /// The generated records; see [`PartitionSpec::materialize`].
    pub fn materialize(&self, rng: &mut ChaCha8Rng) -> Vec<RecordSpec> {
        // Never pre-allocate from an unchecked count: validation bounds it, but a
        // caller may skip validation.
        let mut records = Vec::with_capacity(self.count.min(1 << 16) as usize);
        for i in 0..self.count {
            let at_ms = self.every_ms.saturating_mul(i.saturating_add(1));
            let key = match &self.keys {
                Some(keys) if !keys.is_empty() => {
                    let len = u32::try_from(keys.len()).unwrap_or(u32::MAX);
                    let index = rng.random_range(0..len);
                    Some(keys[index as usize].clone())
                }
                _ => None,
            };
            let value = match self.values {
                ValuesKind::Sequence => i64::try_from(i).map_or(i64::MAX, |i| i.saturating_add(1)),
                ValuesKind::Random => rng.random_range(1..=100i64),
            };
            records.push(RecordSpec { at_ms, value, key });
        }
        records
    }
}
