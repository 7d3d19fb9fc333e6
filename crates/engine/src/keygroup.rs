//! Key groups: how a keyed record finds its subtask, and which key groups a subtask
//! owns. Flink: `KeyGroupRangeAssignment`, `MathUtils.murmurHash`
//! (docs/flink-semantics.md §6.4).
//!
//! A key is hashed with Java's `hashCode` (for a `String`: over its UTF-16 code
//! units), the hash is scrambled by Flink's `murmurHash`, and the result modulo the
//! max parallelism is the key's *key group*. Key groups are the unit of keyed state:
//! subtask `i` of `p` owns one contiguous range of them, and a rescaled restore hands
//! whole key groups to new owners. The max parallelism (number of key groups) never
//! changes for a job.
//!
//! All arithmetic is 32-bit wrapping where Java's is (the hashes), and 64-bit where
//! Java's would overflow `int` (the range formulas), so every result equals Flink's
//! for every valid input.
//!
//! Preconditions (`1 <= parallelism <= max_parallelism <= 32768`, `key_group <
//! max_parallelism`, `index < parallelism`) are the caller's; they are checked with
//! `debug_assert!` — Flink throws `IllegalArgumentException` — and validation of a
//! [`crate::scenario::Scenario`] guarantees them for every operator of a job.

use std::ops::RangeInclusive;

/// The smallest default max parallelism. Flink:
/// `KeyGroupRangeAssignment.DEFAULT_LOWER_BOUND_MAX_PARALLELISM` (`1 << 7`).
pub const DEFAULT_LOWER_BOUND_MAX_PARALLELISM: u32 = 1 << 7;

/// The largest max parallelism, inclusive. Flink:
/// `KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM` (`1 << 15`).
pub const UPPER_BOUND_MAX_PARALLELISM: u32 = 1 << 15;

/// Java's `String.hashCode()`: `s[0]·31^(n−1) + … + s[n−1]` over the UTF-16 code
/// units of `key`, with 32-bit wrapping. A character outside the Basic Multilingual
/// Plane counts as its two surrogates, exactly as in Java.
///
/// Flink: `key.hashCode()` in `KeyGroupRangeAssignment.assignToKeyGroup`.
pub fn java_string_hash_code(key: &str) -> i32 {
    key.encode_utf16().fold(0i32, |hash, unit| {
        hash.wrapping_mul(31).wrapping_add(i32::from(unit))
    })
}

/// Flink's `MathUtils.murmurHash(int)`: one 32-bit Murmur3 round over `code`, Murmur's
/// finalizer (`bitMix`), then made non-negative (`-h` for a negative `h`, and 0 for
/// `i32::MIN`, whose negation does not exist).
///
/// Flink: `MathUtils.murmurHash`.
pub fn murmur_hash(code: i32) -> i32 {
    let mut h = code as u32;
    h = h.wrapping_mul(0xcc9e_2d51);
    h = h.rotate_left(15);
    h = h.wrapping_mul(0x1b87_3593);
    h = h.rotate_left(13);
    h = h.wrapping_mul(5).wrapping_add(0xe654_6b64);
    h ^= 4;
    // bitMix, Murmur3's 32-bit finalizer (Java's `>>>` is a logical shift: u32).
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    let h = h as i32;
    if h >= 0 {
        h
    } else if h != i32::MIN {
        -h
    } else {
        0
    }
}

/// The key group of a key whose Java `hashCode()` is `key_hash`:
/// `murmurHash(key_hash) % max_parallelism`.
///
/// Flink: `KeyGroupRangeAssignment.computeKeyGroupForKeyHash`.
pub fn key_group_for_key_hash(key_hash: i32, max_parallelism: u32) -> u32 {
    debug_assert!(
        (1..=UPPER_BOUND_MAX_PARALLELISM).contains(&max_parallelism),
        "max parallelism {max_parallelism} not within 1..=32768"
    );
    // murmur_hash is never negative, so the cast is lossless.
    murmur_hash(key_hash) as u32 % max_parallelism
}

/// The key group of a `String` key (the only key type of the lab's records).
///
/// Flink: `KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism)` with a
/// `String` key.
pub fn assign_to_key_group(key: &str, max_parallelism: u32) -> u32 {
    key_group_for_key_hash(java_string_hash_code(key), max_parallelism)
}

/// The key group of an `Integer` key, whose Java `hashCode()` is its value. Handy to
/// check against Flink's own test vectors, which mostly use integer keys.
///
/// Flink: `KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism)` with an
/// `Integer` key.
pub fn assign_int_key_to_key_group(key: i32, max_parallelism: u32) -> u32 {
    key_group_for_key_hash(key, max_parallelism)
}

/// The subtask that owns `key_group`: `key_group × parallelism / max_parallelism`
/// (integer division).
///
/// Flink: `KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup`.
pub fn operator_index_for_key_group(max_parallelism: u32, parallelism: u32, key_group: u32) -> u32 {
    debug_assert!(
        parallelism >= 1 && parallelism <= max_parallelism,
        "parallelism {parallelism} not within 1..=max parallelism {max_parallelism}"
    );
    debug_assert!(
        key_group < max_parallelism,
        "key group {key_group} not below max parallelism {max_parallelism}"
    );
    (u64::from(key_group) * u64::from(parallelism) / u64::from(max_parallelism)) as u32
}

/// The subtask a `String` key is routed to by a `hash` edge.
///
/// Flink: `KeyGroupRangeAssignment.assignKeyToParallelOperator` (the
/// `KeyGroupStreamPartitioner` behind `keyBy`).
pub fn assign_key_to_parallel_operator(key: &str, max_parallelism: u32, parallelism: u32) -> u32 {
    operator_index_for_key_group(
        max_parallelism,
        parallelism,
        assign_to_key_group(key, max_parallelism),
    )
}

/// The contiguous key groups owned by subtask `index` of `parallelism`:
/// `ceil(index·maxP / p) ..= ((index+1)·maxP − 1) / p`. Consistent with
/// [`operator_index_for_key_group`]: a key group lies in the range of exactly the
/// subtask that function names.
///
/// Flink: `KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex`.
pub fn key_group_range(max_parallelism: u32, parallelism: u32, index: u32) -> RangeInclusive<u32> {
    debug_assert!(
        parallelism >= 1 && parallelism <= max_parallelism,
        "parallelism {parallelism} not within 1..=max parallelism {max_parallelism}"
    );
    debug_assert!(
        index < parallelism,
        "subtask index {index} not below parallelism {parallelism}"
    );
    let (max_p, p, i) = (
        u64::from(max_parallelism),
        u64::from(parallelism),
        u64::from(index),
    );
    let start = (i * max_p).div_ceil(p);
    let end = ((i + 1) * max_p - 1) / p;
    start as u32..=end as u32
}

/// The max parallelism Flink picks when none is configured:
/// `min(max(roundUpToPowerOfTwo(p + p/2), 128), 32768)` (128 for `p` in 1..=85).
/// A scenario without `job.max_parallelism` derives each operator's this way
/// ([`crate::parallelism::MaxParallelism`]).
///
/// Flink: `KeyGroupRangeAssignment.computeDefaultMaxParallelism`.
pub fn default_max_parallelism(parallelism: u32) -> u32 {
    debug_assert!(
        (1..=UPPER_BOUND_MAX_PARALLELISM).contains(&parallelism),
        "parallelism {parallelism} not within 1..=32768"
    );
    let wanted = parallelism + parallelism / 2;
    wanted.next_power_of_two().clamp(
        DEFAULT_LOWER_BOUND_MAX_PARALLELISM,
        UPPER_BOUND_MAX_PARALLELISM,
    )
}
