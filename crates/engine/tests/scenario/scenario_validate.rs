//! Validation: every rejection of the contract and of Flink's configuration checks,
//! each asserted with the JSON path it blames; and the warnings for what Flink
//! adjusts silently.

use engine::scenario::{Scenario, ScenarioError};
use serde_json::{json, Value};

/// A valid base: the contract's example with parallelism 2 after the source.
fn base() -> Value {
    json!({
        "version": 1,
        "name": "odd-even-sum",
        "seed": 7,
        "job": {
            "operators": [
                {"uid": "numbers", "kind": "source", "parallelism": 2,
                 "partitions": [{"generate": {"count": 150, "every_ms": 50, "values": "sequence"}},
                                {"records": [{"at_ms": 5, "value": 1, "key": "k"}]}]},
                {"uid": "parity", "kind": "map", "parallelism": 2, "fn": "parity_key"},
                {"uid": "sum", "kind": "keyed_sum", "parallelism": 2},
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit"}
            ],
            "edges": [
                {"from": "numbers", "to": "parity", "partitioning": "forward"},
                {"from": "parity", "to": "sum", "partitioning": "hash"},
                {"from": "sum", "to": "out", "partitioning": "rebalance"}
            ]
        },
        "checkpointing": {"interval_ms": 1000},
        "restart": {"strategy": "fixed_delay", "attempts": 3, "delay_ms": 500},
        "script": [{"at_ms": 2500, "action": "crash", "task": "sum#1"}],
        "until_ms": 10000
    })
}

fn errors_of(doc: &Value) -> ScenarioError {
    Scenario::from_json(&doc.to_string()).expect_err("the document should be rejected")
}

/// Applies `mutate` to the base and asserts that validation blames `field` with a
/// message containing `message`.
#[track_caller]
fn rejects(mutate: impl FnOnce(&mut Value), field: &str, message: &str) {
    let mut doc = base();
    mutate(&mut doc);
    let err = errors_of(&doc);
    assert!(
        err.errors
            .iter()
            .any(|e| e.field == field && e.message.contains(message)),
        "expected `{field}: …{message}…`, got:\n{err}"
    );
}

fn warnings_of(doc: &Value) -> Vec<String> {
    let (_, warnings) =
        Scenario::from_json_with_warnings(&doc.to_string()).unwrap_or_else(|e| panic!("{e}"));
    warnings
}

#[test]
fn base_is_valid_without_warnings() {
    assert_eq!(warnings_of(&base()), Vec::<String>::new());
}

#[test]
fn version_and_name() {
    rejects(
        |d| d["version"] = json!(2),
        "version",
        "unsupported version 2",
    );
    rejects(
        |d| d["version"] = json!(0),
        "version",
        "this lab reads version 1",
    );
    rejects(|d| d["name"] = json!(""), "name", "must not be empty");
    rejects(|d| d["name"] = json!("  "), "name", "must not be empty");
}

#[test]
fn uids() {
    rejects(
        |d| d["job"]["operators"][1]["uid"] = json!(""),
        "job.operators[1].uid",
        "must not be empty",
    );
    rejects(
        |d| d["job"]["operators"][1]["uid"] = json!("par#ity"),
        "job.operators[1].uid",
        "must not contain '#'",
    );
    rejects(
        |d| d["job"]["operators"][2]["uid"] = json!("parity"),
        "job.operators[2].uid",
        "duplicate uid \"parity\": also job.operators[1]",
    );
}

#[test]
fn parallelism_and_max_parallelism() {
    rejects(
        |d| d["job"]["operators"][1]["parallelism"] = json!(0),
        "job.operators[1].parallelism",
        "within 1..=32768 (Flink's upper bound of max parallelism)",
    );
    rejects(
        |d| d["job"]["operators"][3]["parallelism"] = json!(32_769),
        "job.operators[3].parallelism",
        "got 32769",
    );
    rejects(
        |d| {
            d["job"]["max_parallelism"] = json!(128);
            d["job"]["operators"][3]["parallelism"] = json!(129);
        },
        "job.operators[3].parallelism",
        "within 1..=128 (max_parallelism), got 129",
    );
    rejects(
        |d| d["job"]["max_parallelism"] = json!(0),
        "job.max_parallelism",
        "within 1..=32768",
    );
    rejects(
        |d| d["job"]["max_parallelism"] = json!(32_769),
        "job.max_parallelism",
        "got 32769",
    );
    // A smaller max parallelism bounds the parallelism.
    rejects(
        |d| d["job"]["max_parallelism"] = json!(1),
        "job.operators[0].parallelism",
        "within 1..=1",
    );
    let mut doc = base();
    doc["job"]["max_parallelism"] = json!(32_768);
    doc["job"]["operators"][3]["parallelism"] = json!(32_768);
    assert!(Scenario::from_json(&doc.to_string()).is_ok());
    // Unset, an operator above 128 derives its own (256 for 129).
    let mut doc = base();
    doc["job"]["operators"][3]["parallelism"] = json!(129);
    assert!(Scenario::from_json(&doc.to_string()).is_ok());
}

#[test]
fn operators_required() {
    rejects(
        |d| {
            d["job"]["operators"] = json!([]);
            d["job"]["edges"] = json!([]);
            d["script"] = json!([]);
        },
        "job.operators",
        "No operators defined",
    );
}

#[test]
fn edges_reference_existing_operators() {
    rejects(
        |d| d["job"]["edges"][1]["from"] = json!("parody"),
        "job.edges[1].from",
        "unknown operator uid \"parody\"",
    );
    rejects(
        |d| d["job"]["edges"][2]["to"] = json!("outt"),
        "job.edges[2].to",
        "unknown operator uid \"outt\"",
    );
}

#[test]
fn self_loops_and_cycles() {
    rejects(
        |d| {
            d["job"]["edges"]
                .as_array_mut()
                .unwrap()
                .push(json!({"from": "parity", "to": "parity"}))
        },
        "job.edges[3].to",
        "cannot join parity to itself",
    );
    // numbers → a → b → c → a
    rejects(
        |d| {
            let ops = d["job"]["operators"].as_array_mut().unwrap();
            for uid in ["a", "b", "c"] {
                ops.push(json!({"uid": uid, "kind": "map", "fn": "identity"}));
            }
            let edges = d["job"]["edges"].as_array_mut().unwrap();
            edges.push(json!({"from": "numbers", "to": "a", "partitioning": "rebalance"}));
            edges.push(json!({"from": "a", "to": "b"}));
            edges.push(json!({"from": "b", "to": "c"}));
            edges.push(json!({"from": "c", "to": "a"}));
            edges.push(json!({"from": "c", "to": "out"}));
        },
        "job.edges[6]",
        "cycle a → b → c → a",
    );
}

#[test]
fn sources_have_no_input_and_at_least_one_partition() {
    rejects(
        |d| {
            d["job"]["operators"]
                .as_array_mut()
                .unwrap()
                .push(json!({"uid": "late", "kind": "source", "partitions": [{"records": []}]}));
            d["job"]["edges"]
                .as_array_mut()
                .unwrap()
                .push(json!({"from": "late", "to": "numbers"}));
        },
        "job.edges[3].to",
        "numbers is a source: a source has no incoming edge",
    );
    rejects(
        |d| {
            d["job"]["operators"][0]
                .as_object_mut()
                .unwrap()
                .remove("partitions");
        },
        "job.operators[0].partitions",
        "a source needs at least one partition",
    );
    rejects(
        |d| d["job"]["operators"][0]["partitions"] = json!([]),
        "job.operators[0].partitions",
        "at least one partition",
    );
}

#[test]
fn non_sources_need_input_and_sinks_have_no_output() {
    rejects(
        |d| {
            d["job"]["operators"]
                .as_array_mut()
                .unwrap()
                .push(json!({"uid": "lonely", "kind": "sink", "sink": "idempotent"}));
        },
        "job.operators[4]",
        "lonely has no input",
    );
    rejects(
        |d| {
            d["job"]["operators"]
                .as_array_mut()
                .unwrap()
                .push(json!({"uid": "after", "kind": "sink", "sink": "idempotent"}));
            d["job"]["edges"]
                .as_array_mut()
                .unwrap()
                .push(json!({"from": "out", "to": "after"}));
        },
        "job.edges[3].from",
        "out is a sink: a sink has no outgoing edge",
    );
}

#[test]
fn duplicate_edges() {
    rejects(
        |d| {
            d["job"]["edges"]
                .as_array_mut()
                .unwrap()
                .push(json!({"from": "sum", "to": "out", "partitioning": "broadcast"}))
        },
        "job.edges[3]",
        "duplicate edge sum → out: also job.edges[2]",
    );
}

/// Flink's `StreamGraph` throws for a forward edge between different parallelisms
/// ("Forward partitioning does not allow change of parallelism").
#[test]
fn forward_requires_equal_parallelism() {
    rejects(
        |d| d["job"]["operators"][1]["parallelism"] = json!(3),
        "job.edges[0].partitioning",
        "forward partitioning requires equal parallelism: numbers has 2, parity has 3",
    );
    // Without an explicit partitioning the same edge is a rebalance: valid.
    let mut doc = base();
    doc["job"]["operators"][1]["parallelism"] = json!(3);
    doc["job"]["edges"][0]
        .as_object_mut()
        .unwrap()
        .remove("partitioning");
    let scenario = Scenario::from_json(&doc.to_string()).unwrap();
    assert_eq!(
        scenario.job.edges[0].resolved_partitioning(&scenario.job),
        engine::scenario::Partitioning::Rebalance
    );
}

/// Lab rule (Flink has keyed state only after `keyBy`): a keyed operator's inputs
/// are `hash` edges.
#[test]
fn keyed_operators_need_hash_input() {
    rejects(
        |d| d["job"]["edges"][1]["partitioning"] = json!("rebalance"),
        "job.edges[1].partitioning",
        "sum is a keyed_sum and keeps keyed state, so its input must be keyed: use \"hash\"",
    );
    rejects(
        |d| {
            d["job"]["edges"][1]
                .as_object_mut()
                .unwrap()
                .remove("partitioning");
        },
        "job.edges[1].partitioning",
        "not \"forward\"",
    );
}

#[test]
fn fields_given_to_the_wrong_kind() {
    rejects(
        |d| d["job"]["operators"][1]["partitions"] = json!([{"records": []}]),
        "job.operators[1].partitions",
        "only a source has partitions (parity is a map)",
    );
    rejects(
        |d| d["job"]["operators"][2]["emit_interval_ms"] = json!(3),
        "job.operators[2].emit_interval_ms",
        "only a source",
    );
    rejects(
        |d| d["job"]["operators"][0]["emit_interval_ms"] = json!(0),
        "job.operators[0].emit_interval_ms",
        "at least 1 ms",
    );
}

#[test]
fn sink_and_fn_fields() {
    rejects(
        |d| {
            d["job"]["operators"][3]
                .as_object_mut()
                .unwrap()
                .remove("sink");
        },
        "job.operators[3].sink",
        "a sink needs \"sink\"",
    );
    rejects(
        |d| d["job"]["operators"][1]["sink"] = json!("idempotent"),
        "job.operators[1].sink",
        "only a sink takes \"sink\"",
    );
    rejects(
        |d| {
            d["job"]["operators"][1]
                .as_object_mut()
                .unwrap()
                .remove("fn");
        },
        "job.operators[1].fn",
        "a map needs \"fn\"",
    );
    rejects(
        |d| d["job"]["operators"][1]["fn"] = json!("even"),
        "job.operators[1].fn",
        "\"even\" is a filter predicate",
    );
    rejects(
        |d| {
            d["job"]["operators"][1] =
                json!({"uid": "parity", "kind": "filter", "parallelism": 2, "fn": "double"})
        },
        "job.operators[1].fn",
        "\"double\" is a map function; a filter takes even or odd",
    );
    rejects(
        |d| d["job"]["operators"][1] = json!({"uid": "parity", "kind": "filter", "parallelism": 2}),
        "job.operators[1].fn",
        "a filter needs \"fn\": even or odd",
    );
    rejects(
        |d| d["job"]["operators"][2]["fn"] = json!("double"),
        "job.operators[2].fn",
        "only map and filter take \"fn\"",
    );
}

#[test]
fn generators() {
    fn generate(d: &mut Value) -> &mut Value {
        &mut d["job"]["operators"][0]["partitions"][0]["generate"]
    }
    rejects(
        |d| generate(d)["every_ms"] = json!(0),
        "job.operators[0].partitions[0].generate.every_ms",
        "at least 1 ms",
    );
    rejects(
        |d| generate(d)["keys"] = json!([]),
        "job.operators[0].partitions[0].generate.keys",
        "must not be empty",
    );
    rejects(
        |d| generate(d)["count"] = json!(1_000_001),
        "job.operators[0].partitions[0].generate.count",
        "at most 1000000 records",
    );
    rejects(
        |d| generate(d)["every_ms"] = json!(u64::MAX / 100),
        "job.operators[0].partitions[0].generate.every_ms",
        "beyond the simulated clock",
    );
}

#[test]
fn edge_fields() {
    rejects(
        |d| d["job"]["edges"][2]["buffer_capacity"] = json!(0),
        "job.edges[2].buffer_capacity",
        "at least 1",
    );
    // latency 0 is allowed.
    let mut doc = base();
    doc["job"]["edges"][2]["latency_ms"] = json!(0);
    assert!(Scenario::from_json(&doc.to_string()).is_ok());
}

#[test]
fn checkpointing_rules() {
    rejects(
        |d| d["checkpointing"]["interval_ms"] = json!(9),
        "checkpointing.interval_ms",
        "Checkpoint interval must be larger than or equal to 10 ms",
    );
    rejects(
        |d| d["checkpointing"]["timeout_ms"] = json!(9),
        "checkpointing.timeout_ms",
        "Checkpoint timeout must be larger than or equal to 10 ms",
    );
    rejects(
        |d| d["checkpointing"]["max_concurrent"] = json!(0),
        "checkpointing.max_concurrent",
        "The maximum number of concurrent attempts must be at least one.",
    );
    rejects(
        |d| d["checkpointing"]["retained"] = json!(0),
        "checkpointing.retained",
        "Flink would log a warning and retain 1",
    );
    rejects(
        |d| {
            d["checkpointing"]["unaligned"] = json!(true);
            d["checkpointing"]["mode"] = json!("at_least_once");
        },
        "checkpointing.unaligned",
        "Flink would log a warning and silently disable unaligned checkpoints",
    );
    rejects(
        |d| {
            d["checkpointing"]["unaligned"] = json!(true);
            d["checkpointing"]["max_concurrent"] = json!(2);
        },
        "checkpointing.max_concurrent",
        "maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints enabled",
    );
    // The boundaries themselves are valid.
    let mut doc = base();
    doc["checkpointing"] =
        json!({"interval_ms": 10, "timeout_ms": 10, "max_concurrent": 5, "mode": "at_least_once"});
    assert!(Scenario::from_json(&doc.to_string()).is_ok());
}

#[test]
fn checkpointing_warnings() {
    let mut doc = base();
    doc["checkpointing"] = json!({"interval_ms": 1000, "min_pause_ms": 2500});
    let warnings = warnings_of(&doc);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("checkpointing.min_pause_ms: "),
        "{warnings:?}"
    );
    assert!(warnings[0].contains("every 2500 ms"), "{warnings:?}");
    let scenario = Scenario::from_json(&doc.to_string()).unwrap();
    assert_eq!(
        scenario.checkpointing.unwrap().effective_interval_ms(),
        Some(2_500)
    );

    let mut doc = base();
    doc["checkpointing"] = json!({"interval_ms": 1000, "aligned_checkpoint_timeout_ms": 50});
    let warnings = warnings_of(&doc);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("checkpointing.aligned_checkpoint_timeout_ms: 50 ms is ignored"),
        "{warnings:?}"
    );
    let config = Scenario::from_json(&doc.to_string())
        .unwrap()
        .checkpointing
        .unwrap();
    assert_eq!(config.effective_aligned_checkpoint_timeout_ms(), None);

    let mut doc = base();
    doc["checkpointing"] =
        json!({"interval_ms": 1000, "unaligned": true, "aligned_checkpoint_timeout_ms": 50});
    assert!(warnings_of(&doc).is_empty());
    let config = Scenario::from_json(&doc.to_string())
        .unwrap()
        .checkpointing
        .unwrap();
    assert_eq!(config.effective_aligned_checkpoint_timeout_ms(), Some(50));
}

#[test]
fn other_warnings() {
    let mut doc = base();
    doc["script"]
        .as_array_mut()
        .unwrap()
        .push(json!({"at_ms": 10_001, "action": "savepoint"}));
    doc["job"]["operators"][0]["partitions"][1]["records"] =
        json!([{"at_ms": 5, "value": 1}, {"at_ms": 3, "value": 2}]);
    doc["job"]["operators"]
        .as_array_mut()
        .unwrap()
        .push(json!({"uid": "dead_end", "kind": "map", "fn": "double"}));
    doc["job"]["edges"]
        .as_array_mut()
        .unwrap()
        .push(json!({"from": "sum", "to": "dead_end", "partitioning": "rebalance"}));
    let warnings = warnings_of(&doc);
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(warnings[0]
        .starts_with("job.operators[0].partitions[1].records: records are not in at_ms order"));
    assert!(warnings[1].starts_with("job.operators[4]: dead_end has no outgoing edge"));
    assert!(
        warnings[2].starts_with("script[1].at_ms: savepoint at 10001 ms is after until_ms 10000")
    );
}

/// A hash edge that keyless records can reach gets a warning: the first such
/// record fails the sending task (contract: Edges). `parity_key` and keyed
/// operators set keys; identity maps and filters pass keylessness on.
#[test]
fn keyless_records_into_a_hash_edge() {
    let mut doc = base();
    doc["job"]["operators"][1]["fn"] = json!("identity");
    let warnings = warnings_of(&doc);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with(
            "job.edges[1].partitioning: parity may emit records without a key into this hash edge"
        ),
        "{warnings:?}"
    );
    // Keys on every source record: no warning.
    doc["job"]["operators"][0]["partitions"][0]["generate"]["keys"] = json!(["a", "b"]);
    assert!(warnings_of(&doc).is_empty());
    // One keyless explicit record is enough.
    doc["job"]["operators"][0]["partitions"][1]["records"]
        .as_array_mut()
        .unwrap()
        .push(json!({"at_ms": 9, "value": 2}));
    assert_eq!(warnings_of(&doc).len(), 1);
}

#[test]
fn restart_rules() {
    rejects(
        |d| {
            d["restart"] = json!({"strategy": "failure_rate", "max_failures": 0, "interval_ms": 1, "delay_ms": 0})
        },
        "restart.max_failures",
        "Maximum number of restart attempts per time unit must be greater than 0.",
    );
    rejects(
        |d| {
            d["restart"] = json!({"strategy": "failure_rate", "max_failures": 1, "interval_ms": 0, "delay_ms": 0})
        },
        "restart.interval_ms",
        "Failures interval must be greater than 0 ms.",
    );
    fn exponential(field: &'static str, value: Value) -> impl FnOnce(&mut Value) {
        move |d: &mut Value| {
            d["restart"] = json!({"strategy": "exponential_delay", "initial_ms": 10, "max_ms": 100, "multiplier": 2.0});
            d["restart"][field] = value;
        }
    }
    rejects(
        exponential("initial_ms", json!(0)),
        "restart.initial_ms",
        "Initial backoff must be at least 1.",
    );
    rejects(
        exponential("max_ms", json!(0)),
        "restart.max_ms",
        "Maximum backoff must be at least 1.",
    );
    rejects(
        exponential("initial_ms", json!(101)),
        "restart.initial_ms",
        "Initial backoff cannot be higher than maximum backoff",
    );
    rejects(
        exponential("multiplier", json!(1.0)),
        "restart.multiplier",
        "Backoff multiplier must be greater than 1",
    );
    rejects(
        exponential("multiplier", json!(0.5)),
        "restart.multiplier",
        "greater than 1",
    );
    rejects(
        exponential("reset_threshold_ms", json!(0)),
        "restart.reset_threshold_ms",
        "must be at least 1.",
    );
    rejects(
        exponential("attempts", json!(0)),
        "restart.attempts",
        "The attemptsBeforeResetBackoff must be at least 1.",
    );
    // Flink allows 0 fixed-delay attempts (maxNumberRestartAttempts >= 0) and a 0 ms delay.
    let mut doc = base();
    doc["restart"] = json!({"strategy": "fixed_delay", "attempts": 0, "delay_ms": 0});
    assert!(Scenario::from_json(&doc.to_string()).is_ok());
    doc["restart"] = json!({"strategy": "exponential_delay", "initial_ms": 1, "max_ms": 1, "multiplier": 1.0001, "attempts": 1});
    assert!(Scenario::from_json(&doc.to_string()).is_ok());
}

#[test]
fn crash_names_an_existing_task() {
    for task in [
        "nope#0", "sum#2", "sum", "sum#01", "sum#-1", "#0", "sum#0#0", "out#1", "",
    ] {
        rejects(
            |d| d["script"][0]["task"] = json!(task),
            "script[0].task",
            &format!("unknown task \"{task}\""),
        );
    }
    let mut doc = base();
    doc["script"] = json!([{"at_ms": 1, "action": "crash", "task": "numbers#1"},
                           {"at_ms": 2, "action": "crash", "task": "out#0"}]);
    assert!(Scenario::from_json(&doc.to_string()).is_ok());
}

/// All errors are reported at once, in document order, one `field: message` line each.
#[test]
fn every_error_is_reported_one_line_each() {
    let mut doc = base();
    doc["version"] = json!(3);
    doc["job"]["edges"][2]["buffer_capacity"] = json!(0);
    doc["checkpointing"]["interval_ms"] = json!(1);
    doc["script"][0]["task"] = json!("ghost#0");
    let err = errors_of(&doc);
    let fields: Vec<&str> = err.errors.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "version",
            "job.edges[2].buffer_capacity",
            "checkpointing.interval_ms",
            "script[0].task"
        ]
    );
    let text = err.to_string();
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(
        text.lines()
            .next()
            .unwrap()
            .starts_with("version: unsupported version 3"),
        "{text}"
    );
    assert!(
        text.lines()
            .nth(2)
            .unwrap()
            .starts_with("checkpointing.interval_ms: Checkpoint interval"),
        "{text}"
    );
}

/// `validate` can be called on a value built in code (the page edits scenarios),
/// not only through `from_json`.
#[test]
fn validate_a_value() {
    let mut scenario = Scenario::from_json(&base().to_string()).unwrap();
    assert_eq!(scenario.validate(), Ok(vec![]));
    scenario.job.operators[2].parallelism = 0;
    let err = scenario.validate().unwrap_err();
    assert!(err.has_field("job.operators[2].parallelism"), "{err}");
}

/// `transaction_timeout_ms` (Kafka's `transaction.timeout.ms`): only on a
/// two-phase-commit sink, a whole number of at least 1 ms; each error names the field.
#[test]
fn transaction_timeout_is_checked() {
    let field = "job.operators[3].transaction_timeout_ms";
    rejects(
        |d| d["job"]["operators"][3]["transaction_timeout_ms"] = json!(0),
        field,
        "at least 1 ms",
    );
    rejects(
        |d| {
            d["job"]["operators"][3]["sink"] = json!("idempotent");
            d["job"]["operators"][3]["transaction_timeout_ms"] = json!(60000);
        },
        field,
        "only a two_phase_commit sink",
    );
    rejects(
        |d| d["job"]["operators"][2]["transaction_timeout_ms"] = json!(60000),
        "job.operators[2].transaction_timeout_ms",
        "only a two_phase_commit sink",
    );
    for bad in [json!(-5), json!(1.5), json!("60000")] {
        let mut doc = base();
        doc["job"]["operators"][3]["transaction_timeout_ms"] = bad.clone();
        let err = errors_of(&doc);
        assert!(
            err.errors.iter().any(|e| e.field == field),
            "{bad}: expected an error naming {field}, got:\n{err}"
        );
    }
    let mut doc = base();
    doc["job"]["operators"][3]["transaction_timeout_ms"] = json!(900000);
    assert!(warnings_of(&doc).is_empty(), "{:?}", warnings_of(&doc));
}

/// A timeout below the longest time a transaction can stay uncommitted —
/// `(tolerable_failures + 1) × (interval + checkpoint timeout) + restart delay` —
/// draws a warning naming the field; so does one with no periodic checkpoint.
#[test]
fn short_transaction_timeout_warns() {
    let field = "job.operators[3].transaction_timeout_ms";
    let mut doc = base();
    doc["checkpointing"] =
        json!({"interval_ms": 1000, "timeout_ms": 2000, "tolerable_failures": 1});
    // (1 + 1) × (1000 + 2000) + 500 = 6500 ms.
    doc["job"]["operators"][3]["transaction_timeout_ms"] = json!(6499);
    let warnings = warnings_of(&doc);
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with(field) && w.contains("6500 ms")),
        "{warnings:?}"
    );
    doc["job"]["operators"][3]["transaction_timeout_ms"] = json!(6500);
    assert!(warnings_of(&doc).is_empty(), "{:?}", warnings_of(&doc));
    doc["checkpointing"] = json!({"interval_ms": null});
    let warnings = warnings_of(&doc);
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with(field) && w.contains("no periodic checkpoint")),
        "{warnings:?}"
    );
}
