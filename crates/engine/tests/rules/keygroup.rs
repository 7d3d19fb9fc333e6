//! Key-group assignment against Flink's numbers (docs/flink-semantics.md §6.4, the
//! contract's "odd"/"even" example) and the consistency Flink's own tests check.

use engine::keygroup::{
    assign_int_key_to_key_group, assign_key_to_parallel_operator, assign_to_key_group,
    default_max_parallelism, java_string_hash_code, key_group_for_key_hash, key_group_range,
    murmur_hash, operator_index_for_key_group,
};

/// Java's `String.hashCode()` values, known from the JDK (not computed with this
/// crate): wrapping arithmetic over UTF-16 code units.
#[test]
fn java_string_hash_code_matches_the_jdk() {
    assert_eq!(java_string_hash_code(""), 0);
    assert_eq!(java_string_hash_code("a"), 97);
    assert_eq!(java_string_hash_code("hello"), 99_162_322);
    // 111·31² + 100·31 + 100
    assert_eq!(java_string_hash_code("odd"), 109_871);
    // The famous overflow: "polygenelubricants".hashCode() == Integer.MIN_VALUE.
    assert_eq!(java_string_hash_code("polygenelubricants"), i32::MIN);
}

/// Regression: keys outside ASCII hash their UTF-16 code units, not UTF-8 bytes.
/// "应用一" = U+5E94 U+7528 U+4E00: 24212·31² + 29992·31 + 19968 = 24217452.
/// "😀" (U+1F600) is the surrogate pair D83D DE00: 55357·31 + 56832 = 1772899.
#[test]
fn java_string_hash_code_uses_utf16_code_units() {
    assert_eq!(java_string_hash_code("应用一"), 24_217_452);
    assert_eq!(java_string_hash_code("😀"), 1_772_899);
    // Not the UTF-8 bytes folded the same way.
    let utf8_fold = "应用一"
        .bytes()
        .fold(0i32, |h, b| h.wrapping_mul(31).wrapping_add(i32::from(b)));
    assert_ne!(java_string_hash_code("应用一"), utf8_fold);
    let group = assign_to_key_group("应用一", 128);
    assert_eq!(group, key_group_for_key_hash(24_217_452, 128));
    assert!(group < 128);
}

/// The vectors of docs/flink-semantics.md §6.4 (a port of `MathUtils.murmurHash`), for
/// `Integer` keys (hashCode = value) with max parallelism 128.
#[test]
fn integer_keys_map_to_flinks_key_groups() {
    let expected = [
        (0, 94),
        (1, 86),
        (2, 127),
        (3, 113),
        (4, 7),
        (5, 126),
        (6, 18),
        (7, 113),
        (8, 15),
        (9, 51),
        (42, 29),
    ];
    for (key, group) in expected {
        assert_eq!(
            assign_int_key_to_key_group(key, 128),
            group,
            "Integer key {key}"
        );
    }
}

/// The vectors of docs/flink-semantics.md §6.4 for `String` keys, max parallelism 128.
#[test]
fn string_keys_map_to_flinks_key_groups() {
    let expected = [
        ("a", 81),
        ("b", 22),
        ("c", 62),
        ("hello", 35),
        ("flink", 98),
    ];
    for (key, group) in expected {
        assert_eq!(assign_to_key_group(key, 128), group, "key {key:?}");
    }
}

/// The contract's example: "odd" → key group 110 and "even" → 111, both on subtask 1
/// of 2 (110 × 2 / 128 = 1, 111 × 2 / 128 = 1).
#[test]
fn odd_and_even_share_subtask_one_of_two() {
    assert_eq!(assign_to_key_group("odd", 128), 110);
    assert_eq!(assign_to_key_group("even", 128), 111);
    assert_eq!(assign_key_to_parallel_operator("odd", 128, 2), 1);
    assert_eq!(assign_key_to_parallel_operator("even", 128, 2), 1);
    assert_eq!(operator_index_for_key_group(128, 2, 110), 1);
    assert_eq!(operator_index_for_key_group(128, 2, 63), 0);
    assert_eq!(operator_index_for_key_group(128, 2, 64), 1);
}

/// murmurHash is never negative; its `Integer.MIN_VALUE` branch maps to 0.
#[test]
fn murmur_hash_is_non_negative() {
    for code in [
        i32::MIN,
        i32::MIN + 1,
        -1,
        0,
        1,
        i32::MAX,
        24_217_452,
        99_162_322,
    ] {
        assert!(murmur_hash(code) >= 0, "murmur_hash({code})");
    }
    // key group = murmurHash % maxParallelism, i.e. the Integer-key vectors again.
    assert_eq!(murmur_hash(0) % 128, 94);
    assert_eq!(murmur_hash(42) % 128, 29);
}

/// The ranges of docs/flink-semantics.md §6.4.
#[test]
fn key_group_ranges_match_flink() {
    assert_eq!(key_group_range(128, 1, 0), 0..=127);
    assert_eq!(key_group_range(128, 2, 0), 0..=63);
    assert_eq!(key_group_range(128, 2, 1), 64..=127);
    assert_eq!(key_group_range(128, 3, 0), 0..=42);
    assert_eq!(key_group_range(128, 3, 1), 43..=85);
    assert_eq!(key_group_range(128, 3, 2), 86..=127);
    for (i, range) in [0..=31, 32..=63, 64..=95, 96..=127].into_iter().enumerate() {
        assert_eq!(key_group_range(128, 4, i as u32), range);
    }
}

/// Mirrors Flink's `CheckpointCoordinatorTest#testCreateKeyGroupPartitions`: for every
/// parallelism the ranges are contiguous, cover all key groups once, and each key
/// group's range is the one of the subtask `computeOperatorIndexForKeyGroup` names.
#[test]
fn ranges_and_operator_index_agree_for_every_parallelism() {
    for max_parallelism in [128u32, 100, 7, 32_768] {
        for parallelism in 1..=max_parallelism.min(128) {
            let mut next_start = 0u32;
            for index in 0..parallelism {
                let range = key_group_range(max_parallelism, parallelism, index);
                assert_eq!(
                    *range.start(),
                    next_start,
                    "maxP {max_parallelism} p {parallelism} subtask {index}"
                );
                assert!(
                    range.start() <= range.end(),
                    "empty range for p {parallelism} <= maxP {max_parallelism}"
                );
                for group in [*range.start(), *range.end()] {
                    assert_eq!(
                        operator_index_for_key_group(max_parallelism, parallelism, group),
                        index
                    );
                }
                next_start = range.end() + 1;
            }
            assert_eq!(
                next_start, max_parallelism,
                "maxP {max_parallelism} p {parallelism}"
            );
        }
    }
    // Every key group, exhaustively, for max parallelism 128.
    for parallelism in 1..=128u32 {
        for group in 0..128u32 {
            let index = operator_index_for_key_group(128, parallelism, group);
            assert!(key_group_range(128, parallelism, index).contains(&group));
        }
    }
}

/// At the upper bound the products exceed `i32` in Flink's `int` formulas; the range
/// formula is computed in 64 bits (as Flink's current `long` version is).
#[test]
fn largest_max_parallelism_does_not_overflow() {
    assert_eq!(key_group_range(32_768, 32_768, 32_767), 32_767..=32_767);
    assert_eq!(key_group_range(32_768, 3, 2), 21_846..=32_767);
    assert_eq!(operator_index_for_key_group(32_768, 32_768, 32_767), 32_767);
}

/// Flink's `computeDefaultMaxParallelism`: roundUpToPowerOfTwo(p + p/2), within
/// 128..=32768.
#[test]
fn default_max_parallelism_matches_flink() {
    assert_eq!(default_max_parallelism(1), 128);
    assert_eq!(default_max_parallelism(85), 128);
    assert_eq!(default_max_parallelism(86), 256);
    assert_eq!(default_max_parallelism(1000), 2048);
    assert_eq!(default_max_parallelism(21_846), 32_768);
    assert_eq!(default_max_parallelism(32_768), 32_768);
}
