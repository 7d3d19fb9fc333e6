//! Garbage in, errors out — never a panic. A seeded loop mutates valid documents
//! (text-level: deletions, insertions of JSON fragments, duplications; value-level:
//! wrong types, extreme numbers, missing and misspelt keys, duplicated elements) and
//! feeds them to `Scenario::from_json`. Documents that still pass are exported,
//! reparsed, and run through the helpers the engine calls on a valid scenario.
//! A failure prints the seed and the document.

use engine::keygroup::assign_key_to_parallel_operator;
use engine::parallelism::MaxParallelism;
use engine::restart::RestartStrategy;
use engine::scenario::{Partitioning, Scenario};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};

const SEEDS: u64 = 3_000;

fn documents() -> Vec<Value> {
    vec![
        // The contract's example.
        json!({
            "version": 1, "name": "odd-even-sum", "title": {"en": "Odd and even sums", "zh": "奇偶求和"}, "seed": 7,
            "job": {"max_parallelism": 128,
                "operators": [
                    {"uid": "numbers", "kind": "source", "parallelism": 1,
                     "partitions": [{"generate": {"count": 150, "every_ms": 50, "values": "sequence"}}]},
                    {"uid": "parity", "kind": "map", "fn": "parity_key"},
                    {"uid": "sum", "kind": "keyed_sum", "parallelism": 1},
                    {"uid": "out", "kind": "sink", "sink": "two_phase_commit"}],
                "edges": [
                    {"from": "numbers", "to": "parity", "partitioning": "forward", "latency_ms": 10},
                    {"from": "parity", "to": "sum", "partitioning": "hash", "latency_ms": 10},
                    {"from": "sum", "to": "out", "partitioning": "rebalance", "latency_ms": 10}]},
            "checkpointing": {"mode": "exactly_once", "unaligned": false, "aligned_checkpoint_timeout_ms": null,
                "interval_ms": 1000, "timeout_ms": 600000, "min_pause_ms": 0, "max_concurrent": 1,
                "tolerable_failures": 0, "retained": 1, "storage": "filesystem", "backend": "hashmap"},
            "restart": {"strategy": "fixed_delay", "attempts": 3, "delay_ms": 500},
            "script": [{"at_ms": 2500, "action": "crash", "task": "sum#0"},
                       {"at_ms": 4000, "action": "trigger_checkpoint"}, {"at_ms": 6000, "action": "savepoint"}],
            "until_ms": 10000
        }),
        // Keys, several partitions, every strategy field, unaligned.
        json!({
            "version": 1, "name": "pv", "description": {"en": "page views", "zh": "页面浏览"},
            "job": {"max_parallelism": 16,
                "operators": [
                    {"uid": "clicks", "kind": "source", "parallelism": 2, "emit_interval_ms": 3,
                     "partitions": [{"generate": {"count": 40, "every_ms": 7, "keys": ["app1", "app2", "应用"], "values": "random"}},
                                    {"records": [{"at_ms": 1, "value": 5, "key": "app1"}, {"at_ms": 2, "value": 6}]}]},
                    {"uid": "evens", "kind": "filter", "parallelism": 2, "fn": "even"},
                    {"uid": "pv", "kind": "keyed_count", "parallelism": 3, "process_ms": 2},
                    {"uid": "table", "kind": "sink", "parallelism": 3, "sink": "idempotent"}],
                "edges": [
                    {"from": "clicks", "to": "evens"},
                    {"from": "evens", "to": "pv", "partitioning": "hash", "buffer_capacity": 2},
                    {"from": "pv", "to": "table", "partitioning": "broadcast"}]},
            "checkpointing": {"unaligned": true, "aligned_checkpoint_timeout_ms": 20, "interval_ms": 100,
                "storage": "jobmanager", "max_state_bytes": 300, "backend": "rocksdb", "async_ms": 5,
                "checkpoints_after_tasks_finish": false},
            "restart": {"strategy": "exponential_delay", "initial_ms": 10, "max_ms": 200, "multiplier": 2.3,
                        "reset_threshold_ms": 1000, "attempts": 5},
            "script": [{"at_ms": 150, "action": "crash", "task": "pv#2"}, {"at_ms": 300, "action": "stop_with_savepoint"},
                       {"at_ms": 400, "action": "cancel"}]
        }),
    ]
}

/// JSON fragments inserted into the text.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "null",
    "-1",
    "0",
    "1e400",
    "18446744073709551616",
    "-9223372036854775809",
    "\"#\"",
    "true",
    "\\u0000",
    "\"\\ud800\"",
    "应",
    " ",
    "\"sum#0\"",
    "{\"strategy\":\"none\"}",
    "1.5",
    "NaN",
];

/// Values swapped into the tree.
fn wild_value(rng: &mut ChaCha8Rng) -> Value {
    match rng.random_range(0..18u32) {
        0 => json!(0),
        1 => json!(-1),
        2 => json!(u64::MAX),
        3 => json!(i64::MIN),
        4 => json!(1.5),
        5 => json!(1e308),
        6 => json!(""),
        7 => json!("#"),
        8 => json!("sum#0"),
        9 => json!([]),
        10 => json!({}),
        11 => Value::Null,
        12 => json!(true),
        13 => json!(u32::MAX),
        14 => json!(32_768),
        15 => json!(1),
        16 => json!("hash"),
        _ => json!(10),
    }
}

/// A value of the same JSON type as `node` (so that it parses and validation has to
/// judge it), or, one time in eight, anything.
fn like_value(node: &Value, rng: &mut ChaCha8Rng) -> Value {
    const NUMBERS: &[u64] = &[
        0,
        1,
        2,
        3,
        9,
        10,
        128,
        129,
        32_768,
        32_769,
        1_000_001,
        u32::MAX as u64,
        u64::MAX,
    ];
    const STRINGS: &[&str] = &[
        "",
        "#",
        "numbers",
        "parity",
        "sum",
        "out",
        "clicks",
        "pv",
        "sum#0",
        "sum#1",
        "pv#3",
        "forward",
        "hash",
        "rebalance",
        "broadcast",
        "source",
        "map",
        "filter",
        "keyed_count",
        "keyed_sum",
        "sink",
        "even",
        "double",
        "identity",
        "at_least_once",
        "exactly_once",
        "none",
        "failure_rate",
        "fixed_delay",
        "exponential_delay",
    ];
    if rng.random_range(0..8u32) == 0 {
        return wild_value(rng);
    }
    match node {
        Value::Number(n) if n.is_f64() => json!(*pick(rng, &[0.0, 0.5, 1.0, 1.0001, 2.0, 1e300])),
        Value::Number(_) => json!(*pick(rng, NUMBERS)),
        Value::String(_) => json!(*pick(rng, STRINGS)),
        Value::Bool(b) => json!(!b),
        _ => wild_value(rng),
    }
}

/// Every node of a tree, as JSON pointers.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        Value::Object(map) => map
            .iter()
            .for_each(|(k, v)| pointers(v, format!("{at}/{k}"), out)),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .for_each(|(i, v)| pointers(v, format!("{at}/{i}"), out)),
        _ => {}
    }
}

fn pick<'a, T>(rng: &mut ChaCha8Rng, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len() as u32) as usize]
}

fn mutate_value(doc: &mut Value, rng: &mut ChaCha8Rng) {
    let mut all = Vec::new();
    pointers(doc, String::new(), &mut all);
    let target = pick(rng, &all[1..]).clone();
    let (parent_ptr, last) = target.rsplit_once('/').unwrap();
    let parent = doc.pointer_mut(parent_ptr).unwrap();
    match (rng.random_range(0..10u32), parent) {
        (7, Value::Object(map)) => {
            map.remove(last);
        }
        (8, Value::Object(map)) => {
            if let Some(v) = map.remove(last) {
                map.insert(format!("{last}s"), v); // a typo
            }
        }
        (9, Value::Array(items)) => {
            let i: usize = last.parse().unwrap();
            let copy = items[i].clone();
            items.insert(i, copy);
        }
        _ => {
            let node = doc.pointer_mut(&target).unwrap();
            *node = like_value(node, rng);
        }
    }
}

fn mutate_text(text: &str, rng: &mut ChaCha8Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let at = rng.random_range(0..chars.len() as u32) as usize;
    match rng.random_range(0..4u32) {
        0 => {
            let end = (at + rng.random_range(1..=8u32) as usize).min(chars.len());
            chars.drain(at..end);
        }
        1 => {
            let fragment = pick(rng, FRAGMENTS);
            chars.splice(at..at, fragment.chars());
        }
        2 => {
            let end = (at + rng.random_range(1..=40u32) as usize).min(chars.len());
            let slice: Vec<char> = chars[at..end].to_vec();
            chars.splice(at..at, slice);
        }
        _ => chars[at] = char::from(rng.random_range(0x20..0x7fu8)),
    }
    chars.into_iter().collect()
}

/// What the engine does with a valid scenario, run here to prove validation
/// guards it: export, restart strategy, generators, key routing.
fn exercise(scenario: &Scenario, seed: u64) {
    let exported = scenario.to_json();
    let reparsed = Scenario::from_json(&exported)
        .unwrap_or_else(|e| panic!("export does not reparse: {e}\n{exported}"));
    assert_eq!(&reparsed, scenario, "round trip");

    let mut strategy = RestartStrategy::for_scenario(scenario);
    for now in [0, 5, 5, 1_000, 100_000] {
        strategy.notify_failure(now);
        let _ = (
            strategy.can_restart(now),
            strategy.backoff_ms(now),
            strategy.describe(),
        );
    }
    if let Some(config) = &scenario.checkpointing {
        let _ = config.effective_interval_ms();
    }
    let job = &scenario.job;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for op in &job.operators {
        for partition in op.partitions() {
            if partition.len() > 10_000 {
                continue;
            }
            for record in partition.materialize(&mut rng) {
                let Some(key) = &record.key else { continue };
                for (_, edge) in job.outgoing_edges(&op.uid) {
                    if edge.resolved_partitioning(job) == Partitioning::Hash {
                        let to = job.operator(&edge.to).unwrap();
                        assert!(
                            assign_key_to_parallel_operator(
                                key,
                                MaxParallelism::of(job, to).value(),
                                to.parallelism
                            ) < to.parallelism
                        );
                    }
                }
            }
        }
    }
}

enum Outcome {
    Valid,
    Invalid,
    ParseError,
}

#[test]
fn mutated_documents_never_panic() {
    let docs = documents();
    for doc in &docs {
        assert!(
            Scenario::from_json(&doc.to_string()).is_ok(),
            "base documents are valid"
        );
    }
    let (mut valid, mut invalid, mut unparsable) = (0, 0, 0);
    for seed in 0..SEEDS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut doc = pick(&mut rng, &docs).clone();
        // Half the seeds mutate the tree (the text stays JSON), half the text.
        let text_level = seed % 2 == 1;
        if !text_level {
            for _ in 0..rng.random_range(1..=3u32) {
                mutate_value(&mut doc, &mut rng);
            }
        }
        let mut text = if rng.random_bool(0.5) {
            doc.to_string()
        } else {
            serde_json::to_string_pretty(&doc).unwrap()
        };
        if text_level {
            for _ in 0..rng.random_range(1..=3u32) {
                text = mutate_text(&text, &mut rng);
            }
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| match Scenario::parse(&text) {
            Err(err) => {
                assert_eq!(err.errors.len(), 1, "a parse error is one error");
                Outcome::ParseError
            }
            Ok(parsed) => match Scenario::from_json(&text) {
                Ok(scenario) => {
                    assert_eq!(scenario, parsed);
                    exercise(&scenario, seed);
                    Outcome::Valid
                }
                Err(err) => {
                    assert!(!err.errors.is_empty());
                    assert_eq!(err.to_string().lines().count(), err.errors.len());
                    Outcome::Invalid
                }
            },
        }));
        match outcome {
            Ok(Outcome::Valid) => valid += 1,
            Ok(Outcome::Invalid) => invalid += 1,
            Ok(Outcome::ParseError) => unparsable += 1,
            Err(_) => panic!("seed {seed} panicked on:\n{text}"),
        }
    }
    // The mutations reach both the parser's and the validator's error paths, and
    // some documents survive.
    assert!(
        valid >= 150 && invalid >= 150 && unparsable >= 1_000,
        "{valid} valid, {invalid} invalid, {unparsable} unparsable"
    );
}

/// Raw garbage: random bytes (as lossy UTF-8) and deep nesting.
#[test]
fn raw_garbage_never_panics() {
    for seed in 0..500u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let len = rng.random_range(0..200u32) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let text = String::from_utf8_lossy(&bytes);
        assert!(Scenario::from_json(&text).is_err(), "seed {seed}");
    }
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(Scenario::from_json(&deep).is_err());
    let deep = format!("{{\"version\": 1, \"name\": {}}}", "[".repeat(10_000));
    assert!(Scenario::from_json(&deep).is_err());
}
