//! Parsing scenario documents: the contract's example, defaults, round trips, and
//! unknown fields rejected in every object (structs and every enum variant).

use engine::scenario::{
    BackendKind, CheckpointingConfig, CheckpointingMode, EdgeSpec, FnName, GenerateSpec,
    OperatorKind, PartitionSpec, Partitioning, RecordSpec, RestartConfig, Scenario, ScriptStep,
    SinkKind, StorageKind, ValuesKind,
};
use serde_json::{json, Value};

/// The document of docs/scenario-format.md, "Document", verbatim.
const CONTRACT_EXAMPLE: &str = r#"{
  "version": 1,
  "name": "odd-even-sum",
  "title": {"en": "Odd and even sums", "zh": "奇偶求和"},
  "seed": 7,
  "job": {
    "max_parallelism": 128,
    "operators": [
      {"uid": "numbers", "kind": "source", "parallelism": 1,
       "partitions": [{"generate": {"count": 150, "every_ms": 50, "values": "sequence"}}]},
      {"uid": "parity", "kind": "map", "fn": "parity_key"},
      {"uid": "sum", "kind": "keyed_sum", "parallelism": 1},
      {"uid": "out", "kind": "sink", "sink": "two_phase_commit"}
    ],
    "edges": [
      {"from": "numbers", "to": "parity", "partitioning": "forward", "latency_ms": 10},
      {"from": "parity", "to": "sum", "partitioning": "hash", "latency_ms": 10},
      {"from": "sum", "to": "out", "partitioning": "rebalance", "latency_ms": 10}
    ]
  },
  "checkpointing": {
    "mode": "exactly_once",
    "unaligned": false,
    "aligned_checkpoint_timeout_ms": null,
    "interval_ms": 1000,
    "timeout_ms": 600000,
    "min_pause_ms": 0,
    "max_concurrent": 1,
    "tolerable_failures": 0,
    "retained": 1,
    "storage": "filesystem",
    "backend": "hashmap"
  },
  "restart": {"strategy": "fixed_delay", "attempts": 3, "delay_ms": 500},
  "script": [
    {"at_ms": 2500, "action": "crash", "task": "sum#0"},
    {"at_ms": 4000, "action": "trigger_checkpoint"},
    {"at_ms": 6000, "action": "savepoint"}
  ],
  "until_ms": 10000
}"#;

/// A document that sets every field of every type, every enum spelling once.
fn everything() -> Value {
    json!({
        "version": 1,
        "name": "everything",
        "title": {"en": "Everything", "zh": "一切"},
        "description": {"en": "Every field", "zh": "每个字段"},
        "seed": 42,
        "job": {
            "max_parallelism": 64,
            "operators": [
                {"uid": "src", "name": "Numbers", "kind": "source", "parallelism": 2, "process_ms": 0,
                 "emit_interval_ms": 5,
                 "partitions": [
                    {"records": [{"at_ms": 1, "value": -3, "key": "应用"}, {"at_ms": 2, "value": 4}]},
                    {"generate": {"count": 10, "every_ms": 7, "keys": ["a", "b"], "values": "random"}},
                    {"generate": {"count": 3, "every_ms": 1, "values": "sequence"}}
                 ]},
                {"uid": "double", "kind": "map", "parallelism": 2, "fn": "double", "process_ms": 3},
                {"uid": "evens", "kind": "filter", "parallelism": 3, "fn": "even"},
                {"uid": "odds", "kind": "filter", "parallelism": 3, "fn": "odd"},
                {"uid": "same", "kind": "map", "parallelism": 3, "fn": "identity"},
                {"uid": "parity", "kind": "map", "parallelism": 3, "fn": "parity_key"},
                {"uid": "count", "kind": "keyed_count", "parallelism": 2},
                {"uid": "sum", "kind": "keyed_sum", "parallelism": 2},
                {"uid": "tx", "kind": "sink", "sink": "two_phase_commit"},
                {"uid": "upsert", "kind": "sink", "sink": "idempotent"},
                {"uid": "plain", "kind": "sink", "parallelism": 2, "sink": "at_least_once"}
            ],
            "edges": [
                {"from": "src", "to": "double", "partitioning": "forward", "latency_ms": 0, "buffer_capacity": 1},
                {"from": "double", "to": "evens", "partitioning": "rebalance"},
                {"from": "double", "to": "odds", "partitioning": "broadcast"},
                {"from": "evens", "to": "same"},
                {"from": "odds", "to": "parity", "latency_ms": 4, "buffer_capacity": 2},
                {"from": "same", "to": "count", "partitioning": "hash"},
                {"from": "parity", "to": "sum", "partitioning": "hash"},
                {"from": "count", "to": "tx"},
                {"from": "sum", "to": "upsert"},
                {"from": "sum", "to": "plain"}
            ]
        },
        "checkpointing": {
            "mode": "exactly_once",
            "unaligned": true,
            "aligned_checkpoint_timeout_ms": 30,
            "interval_ms": 100,
            "timeout_ms": 5000,
            "min_pause_ms": 20,
            "max_concurrent": 1,
            "tolerable_failures": 2,
            "retained": 3,
            "storage": "jobmanager",
            "max_state_bytes": 4096,
            "backend": "rocksdb",
            "async_ms": 15,
            "checkpoints_after_tasks_finish": false
        },
        "restart": {"strategy": "exponential_delay", "initial_ms": 10, "max_ms": 1000, "multiplier": 2.3,
                    "reset_threshold_ms": 5000, "attempts": 4},
        "script": [
            {"at_ms": 50, "action": "crash", "task": "sum#1"},
            {"at_ms": 60, "action": "trigger_checkpoint"},
            {"at_ms": 70, "action": "savepoint"},
            {"at_ms": 80, "action": "stop_with_savepoint"},
            {"at_ms": 90, "action": "cancel"}
        ],
        "until_ms": 1000
    })
}

/// The example under "Document" in docs/scenario-format.md is [`CONTRACT_EXAMPLE`],
/// character for character, so the contract's text and the tests cannot drift apart.
#[test]
fn the_documented_example_is_the_tested_one() {
    let doc = include_str!("../../../../docs/scenario-format.md");
    let block = doc
        .split("\n## Document\n")
        .nth(1)
        .and_then(|section| section.split("```json\n").nth(1))
        .and_then(|rest| rest.split("\n```").next())
        .expect("docs/scenario-format.md has a JSON block under \"## Document\"");
    assert_eq!(block, CONTRACT_EXAMPLE);
}

#[test]
fn contract_example_parses_and_validates() {
    let (scenario, warnings) = Scenario::from_json_with_warnings(CONTRACT_EXAMPLE)
        .expect("the contract's example is valid");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(scenario.version, 1);
    assert_eq!(scenario.name, "odd-even-sum");
    assert_eq!(scenario.title.as_ref().unwrap().zh, "奇偶求和");
    assert_eq!(scenario.description, None);
    assert_eq!(scenario.seed, 7);
    assert_eq!(scenario.until_ms, Some(10_000));

    let job = &scenario.job;
    assert_eq!(job.max_parallelism, Some(128));
    let kinds: Vec<OperatorKind> = job.operators.iter().map(|op| op.kind).collect();
    assert_eq!(
        kinds,
        [
            OperatorKind::Source,
            OperatorKind::Map,
            OperatorKind::KeyedSum,
            OperatorKind::Sink
        ]
    );
    let parity = job.operator("parity").unwrap();
    assert_eq!(
        (parity.parallelism, parity.process_ms, parity.r#fn),
        (1, 0, Some(FnName::ParityKey))
    );
    assert_eq!(
        job.operator("out").unwrap().sink,
        Some(SinkKind::TwoPhaseCommit)
    );
    let numbers = job.operator("numbers").unwrap();
    assert_eq!(numbers.emit_interval_ms(), 1, "default emit interval");
    assert_eq!(
        numbers.partitions(),
        [PartitionSpec::Generate(GenerateSpec {
            count: 150,
            every_ms: 50,
            keys: None,
            values: ValuesKind::Sequence
        })]
    );
    assert_eq!(numbers.task_name(0), "numbers#0");
    let edge = &job.edges[1];
    assert_eq!((edge.latency_ms, edge.buffer_capacity), (10, 8));
    assert_eq!(edge.resolved_partitioning(job), Partitioning::Hash);
    assert_eq!(
        job.incoming_edges("sum")
            .map(|(i, _)| i)
            .collect::<Vec<_>>(),
        [1]
    );

    let checkpointing = scenario.checkpointing.as_ref().unwrap();
    assert_eq!(checkpointing.interval_ms, Some(1_000));
    assert_eq!(checkpointing.effective_interval_ms(), Some(1_000));
    assert_eq!(checkpointing.storage, StorageKind::Filesystem);
    assert_eq!(checkpointing.max_state_bytes, 5_242_880, "absent: default");
    assert_eq!(checkpointing.async_ms, 0);
    assert!(checkpointing.checkpoints_after_tasks_finish);

    assert_eq!(
        scenario.restart,
        Some(RestartConfig::FixedDelay {
            attempts: 3,
            delay_ms: 500
        })
    );
    assert_eq!(
        scenario.effective_restart(),
        RestartConfig::FixedDelay {
            attempts: 3,
            delay_ms: 500
        }
    );
    assert_eq!(
        scenario.script,
        [
            ScriptStep::Crash {
                at_ms: 2_500,
                task: "sum#0".into()
            },
            ScriptStep::TriggerCheckpoint { at_ms: 4_000 },
            ScriptStep::Savepoint { at_ms: 6_000 },
        ]
    );
    assert_eq!(
        scenario
            .script
            .iter()
            .map(ScriptStep::at_ms)
            .collect::<Vec<_>>(),
        [2_500, 4_000, 6_000]
    );
}

/// Every default of the contract, on the smallest valid document.
#[test]
fn defaults_of_a_minimal_document() {
    let text = r#"{"version": 1, "name": "min", "job": {
        "operators": [
            {"uid": "s", "kind": "source", "partitions": [{"records": []}]},
            {"uid": "k", "kind": "sink", "sink": "at_least_once"}],
        "edges": [{"from": "s", "to": "k"}]}}"#;
    let scenario = Scenario::from_json(text).unwrap();
    assert_eq!(scenario.seed, 0);
    assert_eq!(
        scenario.job.max_parallelism, None,
        "not set: each operator derives its own"
    );
    assert_eq!(scenario.job.operators[0].parallelism, 1);
    assert_eq!(scenario.job.operators[0].emit_interval_ms, None);
    assert_eq!(scenario.job.operators[0].emit_interval_ms(), 1);
    let edge = &scenario.job.edges[0];
    assert_eq!(
        (edge.partitioning, edge.latency_ms, edge.buffer_capacity),
        (None, 1, 8)
    );
    assert_eq!(
        edge.resolved_partitioning(&scenario.job),
        Partitioning::Forward,
        "equal parallelism"
    );
    assert!(scenario.script.is_empty());
    assert_eq!(scenario.until_ms, None);
    assert!(!scenario.is_checkpointing_enabled());
    assert_eq!(
        scenario.effective_restart(),
        RestartConfig::None,
        "checkpointing off: no restart"
    );
}

/// `"checkpointing": {}` is checkpointing on with every default; `null` is off.
#[test]
fn checkpointing_defaults() {
    let base = r#"{"version": 1, "name": "min", "job": {
        "operators": [{"uid": "s", "kind": "source", "partitions": [{"records": []}]},
                      {"uid": "k", "kind": "sink", "sink": "idempotent"}],
        "edges": [{"from": "s", "to": "k"}]}, "checkpointing": CFG}"#;
    let on = Scenario::from_json(&base.replace("CFG", "{}")).unwrap();
    let config = on.checkpointing.clone().unwrap();
    assert_eq!(config, CheckpointingConfig::default());
    assert_eq!(config.mode, CheckpointingMode::ExactlyOnce);
    assert!(!config.unaligned);
    assert_eq!(config.aligned_checkpoint_timeout_ms, None);
    assert_eq!(config.interval_ms, None);
    assert_eq!(config.effective_interval_ms(), None, "manual triggers only");
    assert_eq!(
        (
            config.timeout_ms,
            config.min_pause_ms,
            config.max_concurrent
        ),
        (600_000, 0, 1)
    );
    assert_eq!((config.tolerable_failures, config.retained), (0, 1));
    assert_eq!(
        (config.storage, config.max_state_bytes),
        (StorageKind::Filesystem, 5_242_880)
    );
    assert_eq!((config.backend, config.async_ms), (BackendKind::Hashmap, 0));
    assert!(config.checkpoints_after_tasks_finish);
    assert!(matches!(
        on.effective_restart(),
        RestartConfig::ExponentialDelay {
            initial_ms: 1_000,
            max_ms: 60_000,
            ..
        }
    ));

    let off = Scenario::from_json(&base.replace("CFG", "null")).unwrap();
    assert_eq!(off.checkpointing, None);
    assert_eq!(off.effective_restart(), RestartConfig::None);
}

/// An exponential-delay restart without the optional fields takes the contract's
/// defaults (reset 3600000 ms, unlimited attempts).
#[test]
fn exponential_delay_optional_fields() {
    let config: RestartConfig = serde_json::from_str(
        r#"{"strategy": "exponential_delay", "initial_ms": 5, "max_ms": 50, "multiplier": 1.5}"#,
    )
    .unwrap();
    assert_eq!(
        config,
        RestartConfig::ExponentialDelay {
            initial_ms: 5,
            max_ms: 50,
            multiplier: 1.5,
            reset_threshold_ms: 3_600_000,
            attempts: None
        }
    );
    let none: RestartConfig = serde_json::from_str(r#"{"strategy": "none"}"#).unwrap();
    assert_eq!(none, RestartConfig::None);
    assert_eq!(
        serde_json::to_value(&none).unwrap(),
        json!({"strategy": "none"})
    );
}

/// Absent partitioning resolves as Flink's `StreamGraph` does: forward for equal
/// parallelism, rebalance otherwise.
#[test]
fn absent_partitioning_resolves_like_flink() {
    let scenario = Scenario::from_json(&everything().to_string()).unwrap();
    let job = &scenario.job;
    let resolved = |from: &str, to: &str| {
        let edge: &EdgeSpec = job
            .edges
            .iter()
            .find(|e| e.from == from && e.to == to)
            .unwrap();
        assert_eq!(edge.partitioning, None);
        edge.resolved_partitioning(job)
    };
    assert_eq!(resolved("evens", "same"), Partitioning::Forward, "3 → 3");
    assert_eq!(resolved("count", "tx"), Partitioning::Rebalance, "2 → 1");
    assert_eq!(resolved("sum", "plain"), Partitioning::Forward, "2 → 2");
}

/// Serialize then parse gives an equal scenario: the contract's example, the
/// everything document and the minimal one.
#[test]
fn round_trip() {
    for text in [CONTRACT_EXAMPLE.to_string(), everything().to_string()] {
        let scenario = Scenario::from_json(&text).unwrap();
        let exported = scenario.to_json();
        let reparsed = Scenario::from_json(&exported).unwrap_or_else(|e| panic!("{e}\n{exported}"));
        assert_eq!(reparsed, scenario);
        // Pretty-printed through serde_json::Value too.
        let pretty = serde_json::to_string_pretty(&scenario).unwrap();
        assert_eq!(Scenario::from_json(&pretty).unwrap(), scenario);
    }
    // The export keeps the contract's shapes.
    let scenario = Scenario::from_json(&everything().to_string()).unwrap();
    let value = serde_json::to_value(&scenario).unwrap();
    assert_eq!(value["restart"]["strategy"], "exponential_delay");
    assert_eq!(
        value["script"][0],
        json!({"action": "crash", "at_ms": 50, "task": "sum#1"})
    );
    assert_eq!(
        value["job"]["operators"][0]["partitions"][0]["records"][1],
        json!({"at_ms": 2, "value": 4})
    );
    assert_eq!(
        value["job"]["operators"][0]["partitions"][2],
        json!({"generate": {"count": 3, "every_ms": 1, "values": "sequence"}})
    );
    assert_eq!(value["job"]["operators"][1]["fn"], "double");
    assert!(
        value["job"]["operators"][1].get("sink").is_none(),
        "absent options are left out"
    );
    assert_eq!(value["checkpointing"]["storage"], "jobmanager");
    assert_eq!(value["checkpointing"]["backend"], "rocksdb");
}

/// Every object of the everything document, by JSON path (as serde_path_to_error
/// spells it), and the object itself.
fn objects(value: &Value, path: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            out.push(path.clone());
            for (key, child) in map {
                let child_path = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                objects(child, child_path, out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                objects(child, format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

fn object_at<'a>(root: &'a mut Value, path: &str) -> &'a mut serde_json::Map<String, Value> {
    // Convert "a.b[2].c" into a JSON pointer.
    let pointer: String = path
        .split('.')
        .filter(|part| !part.is_empty())
        .flat_map(|part| {
            let mut pieces = Vec::new();
            let mut rest = part;
            if let Some(bracket) = rest.find('[') {
                pieces.push(rest[..bracket].to_string());
                rest = &rest[bracket..];
                for index in rest.split(['[', ']']).filter(|s| !s.is_empty()) {
                    pieces.push(index.to_string());
                }
            } else {
                pieces.push(rest.to_string());
            }
            pieces
        })
        .map(|piece| format!("/{piece}"))
        .collect();
    root.pointer_mut(&pointer)
        .and_then(Value::as_object_mut)
        .unwrap_or_else(|| panic!("no object at {path}"))
}

/// `deny_unknown_fields` really holds everywhere: an extra field in any object —
/// structs, the tagged restart strategies and script actions, the partition
/// objects, localized texts — is an error naming the field's own path.
#[test]
fn unknown_field_rejected_in_every_object() {
    let doc = everything();
    let mut paths = Vec::new();
    objects(&doc, String::new(), &mut paths);
    assert!(paths.len() >= 39, "walked {} objects", paths.len());
    for path in &paths {
        let mut mutated = doc.clone();
        object_at(&mut mutated, path).insert("surprise".into(), json!(1));
        let err = Scenario::from_json(&mutated.to_string())
            .expect_err(&format!("extra field at {path:?} accepted"));
        assert_eq!(err.errors.len(), 1, "{err}");
        let error = &err.errors[0];
        assert!(
            error.message.contains("unknown field `surprise`"),
            "at {path:?}: {error}"
        );
        let with_field = if path.is_empty() {
            "surprise".to_string()
        } else {
            format!("{path}.surprise")
        };
        assert_eq!(error.field, with_field, "at {path:?}");
    }
}

/// The unit-like restart strategy `none` rejects extra fields too (serde alone
/// would ignore them next to the tag of a unit variant).
#[test]
fn unknown_field_rejected_next_to_strategy_none() {
    let mut doc = everything();
    doc["restart"] = json!({"strategy": "none", "attempts": 3});
    let err = Scenario::from_json(&doc.to_string()).unwrap_err();
    assert_eq!(err.errors[0].field, "restart");
    assert!(
        err.errors[0]
            .message
            .contains("unknown field `attempts` for strategy `none`"),
        "{err}"
    );
    // And a field of another strategy is refused the same way.
    doc["restart"] =
        json!({"strategy": "fixed_delay", "attempts": 3, "delay_ms": 1, "multiplier": 2.0});
    let err = Scenario::from_json(&doc.to_string()).unwrap_err();
    assert!(
        err.errors[0]
            .message
            .contains("unknown field `multiplier` for strategy `fixed_delay`"),
        "{err}"
    );
    let mut doc = everything();
    doc["script"][1] = json!({"action": "cancel", "at_ms": 5, "task": "sum#0"});
    let err = Scenario::from_json(&doc.to_string()).unwrap_err();
    assert!(
        err.errors[0]
            .message
            .contains("unknown field `task` for action `cancel`"),
        "{err}"
    );
}

/// Edits a document in place.
type Mutation = fn(&mut Value);

/// Bad values are reported with their path, e.g. `job.operators[2].kind`.
#[test]
fn type_errors_name_their_path() {
    let cases: Vec<(Mutation, &str, &str)> = vec![
        (
            |d| d["job"]["operators"][2]["kind"] = json!("reduce"),
            "job.operators[2].kind",
            "unknown variant `reduce`",
        ),
        (
            |d| d["job"]["edges"][1]["partitioning"] = json!("shuffle"),
            "job.edges[1].partitioning",
            "unknown variant `shuffle`",
        ),
        (
            |d| d["job"]["operators"][0]["parallelism"] = json!(-1),
            "job.operators[0].parallelism",
            "invalid value",
        ),
        (
            |d| d["checkpointing"]["mode"] = json!("exactly-once"),
            "checkpointing.mode",
            "unknown variant",
        ),
        (
            |d| d["checkpointing"]["storage"] = json!("rocksdb"),
            "checkpointing.storage",
            "unknown variant",
        ),
        (
            |d| d["job"]["operators"][0]["partitions"][1]["generate"]["values"] = json!("gauss"),
            "job.operators[0].partitions[1].generate.values",
            "unknown variant",
        ),
        (
            |d| d["job"]["operators"][0]["partitions"][0]["records"][0]["value"] = json!(1.5),
            "job.operators[0].partitions[0].records[0].value",
            "invalid type",
        ),
        (|d| d["seed"] = json!("7"), "seed", "invalid type"),
        (
            |d| {
                d.as_object_mut().unwrap().remove("job");
            },
            "",
            "missing field `job`",
        ),
        (
            |d| d["restart"] = json!({"strategy": "linear"}),
            "restart.strategy",
            "unknown variant `linear`",
        ),
        (
            |d| d["restart"]["attempts"] = json!(-1),
            "restart.attempts",
            "invalid value",
        ),
        (
            |d| d["restart"] = json!({"strategy": "fixed_delay", "attempts": 3}),
            "restart",
            "missing field `delay_ms`",
        ),
        (
            |d| d["script"][0]["task"] = json!(7),
            "script[0].task",
            "invalid type",
        ),
        (
            |d| d["script"][0]["action"] = json!("explode"),
            "script[0].action",
            "unknown variant `explode`",
        ),
        (
            |d| d["script"][1] = json!({"action": "crash", "at_ms": 3}),
            "script[1]",
            "missing field `task`",
        ),
        (
            |d| d["job"]["operators"][0]["partitions"][0] = json!({}),
            "job.operators[0].partitions[0]",
            "exactly one",
        ),
        (
            |d| d["job"]["operators"][0]["partitions"][0] = json!({"records": [], "generate": {"count": 1, "every_ms": 1, "values": "sequence"}}),
            "job.operators[0].partitions[0]",
            "exactly one",
        ),
    ];
    for (mutate, field, message) in cases {
        let mut doc = everything();
        mutate(&mut doc);
        let err = Scenario::from_json(&doc.to_string()).unwrap_err();
        assert_eq!(err.errors[0].field, field, "{err}");
        assert!(err.errors[0].message.contains(message), "{field}: {err}");
    }
}

#[test]
fn syntax_errors_and_trailing_garbage_are_rejected() {
    for text in [
        "",
        "{",
        "[]",
        "null",
        "{\"version\": 1,}",
        &format!("{CONTRACT_EXAMPLE} x"),
        &format!("{CONTRACT_EXAMPLE}{{}}"),
    ] {
        assert!(Scenario::from_json(text).is_err(), "accepted {text:?}");
    }
    let err = Scenario::from_json(&format!("{CONTRACT_EXAMPLE} x")).unwrap_err();
    assert!(err.to_string().contains("trailing characters"), "{err}");
}

/// Explicit records keep their keys, including non-ASCII ones.
#[test]
fn records_partition_parses() {
    let scenario = Scenario::from_json(&everything().to_string()).unwrap();
    assert_eq!(
        scenario.job.operators[0].partitions()[0],
        PartitionSpec::Records(vec![
            RecordSpec {
                at_ms: 1,
                value: -3,
                key: Some("应用".into())
            },
            RecordSpec {
                at_ms: 2,
                value: 4,
                key: None
            },
        ])
    );
}
