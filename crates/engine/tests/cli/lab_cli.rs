//! The `lab` command line, run as a user runs it (the built binary), against the
//! contract (docs/scenario-format.md, "The headless runner", "Summary", "Trace"):
//! exit 0 for any simulated run, exit 2 with a message on stderr and nothing on
//! stdout for bad input, never a panic; every JSON object on one line, the
//! summary last; the field names of the contract.

use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Command, Output};

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lab"))
        .args(args)
        .output()
        .expect("lab runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// Exit 0, nothing on stderr; the stdout lines parsed as JSON objects.
fn ok_json(args: &[&str]) -> Vec<Value> {
    let o = lab(args);
    assert_eq!(o.status.code(), Some(0), "lab {args:?}: {}", stderr(&o));
    assert!(
        o.stderr.is_empty(),
        "lab {args:?} wrote to stderr: {}",
        stderr(&o)
    );
    let out = stdout(&o);
    assert!(
        out.ends_with('\n'),
        "lab {args:?}: output does not end with a newline"
    );
    out.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("lab {args:?}: not JSON ({e}): {l}"));
            assert!(v.is_object(), "lab {args:?}: not a JSON object: {l}");
            v
        })
        .collect()
}

/// Exit 2, nothing on stdout, a message on stderr that is not a panic; returns it.
fn bad_input(args: &[&str]) -> String {
    let o = lab(args);
    let err = stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(2),
        "lab {args:?}: expected exit 2, stderr: {err}"
    );
    assert!(
        o.stdout.is_empty(),
        "lab {args:?}: wrote to stdout on bad input: {}",
        stdout(&o)
    );
    assert!(!err.trim().is_empty(), "lab {args:?}: no message on stderr");
    assert!(!err.contains("panicked"), "lab {args:?} panicked: {err}");
    err
}

/// A scenario file in the temp directory, named after the test.
fn scenario_file(name: &str, doc: &Value) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, serde_json::to_string_pretty(doc).expect("json"))
        .expect("write scenario");
    path
}

fn path_str(p: &std::path::Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// source → sink, two-phase commit: the smallest valid job.
fn tiny(checkpointing: Value) -> Value {
    json!({
        "version": 1, "name": "tiny",
        "job": {
            "operators": [
                {"uid": "src", "kind": "source",
                 "partitions": [{"generate": {"count": 20, "every_ms": 10, "values": "sequence"}}]},
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit"}
            ],
            "edges": [{"from": "src", "to": "out"}]
        },
        "checkpointing": checkpointing
    })
}

fn summary_of(lines: &[Value]) -> &Value {
    let s = lines.last().expect("at least the summary");
    assert!(
        s.get("scenario").is_some(),
        "the last line is not the summary: {s}"
    );
    s
}

// ----- list, validate ---------------------------------------------------------------

#[test]
fn list_prints_the_builtins_one_a_line() {
    let o = lab(&["list"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stderr.is_empty());
    let names: Vec<String> = stdout(&o).lines().map(String::from).collect();
    let want: Vec<String> = engine::runner::BUILTINS
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    assert_eq!(names, want);
    for required in [
        "odd-even-sum",
        "barrier-alignment",
        "unaligned-backpressure",
    ] {
        assert!(
            names.iter().any(|n| n == required),
            "{required} missing from `lab list`"
        );
    }
    bad_input(&["list", "extra"]);
}

#[test]
fn validate_ok_prints_ok_and_exits_0() {
    for (name, json) in engine::runner::BUILTINS {
        let doc: Value = serde_json::from_str(json).expect("builtin is JSON");
        let p = scenario_file(&format!("valid-{name}"), &doc);
        let o = lab(&["validate", path_str(&p)]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert_eq!(stdout(&o), "ok\n", "{name}");
        assert!(o.stderr.is_empty());
    }
}

#[test]
fn validate_errors_exit_2_naming_the_field() {
    let cases: Vec<(&str, Value, Vec<&str>)> = vec![
        (
            "interval",
            tiny(json!({"interval_ms": 5})),
            vec!["checkpointing.interval_ms", "10 ms"],
        ),
        (
            "typo",
            {
                let mut d = tiny(json!({"interval_ms": 100}));
                d["job"]["edges"][0] =
                    json!({"from": "src", "to": "out", "partitionin": "forward"});
                d
            },
            vec!["job.edges[0].partitionin"],
        ),
        (
            "unknown-task",
            {
                let mut d = tiny(json!({"interval_ms": 100}));
                d["script"] = json!([{"at_ms": 10, "action": "crash", "task": "nope#0"}]);
                d
            },
            vec!["script[0].task", "nope#0"],
        ),
        (
            "unaligned-at-least-once",
            tiny(json!({"interval_ms": 100, "mode": "at_least_once", "unaligned": true})),
            vec!["checkpointing.unaligned", "EXACTLY_ONCE"],
        ),
        (
            "unaligned-concurrent",
            tiny(json!({"interval_ms": 100, "unaligned": true, "max_concurrent": 2})),
            vec!["checkpointing.max_concurrent"],
        ),
    ];
    for (name, doc, needles) in cases {
        let p = scenario_file(&format!("invalid-{name}"), &doc);
        let err = bad_input(&["validate", path_str(&p)]);
        for n in needles {
            assert!(err.contains(n), "{name}: stderr does not name {n:?}: {err}");
        }
        // `run` rejects the same file the same way.
        let err = bad_input(&["run", path_str(&p)]);
        assert!(!err.is_empty());
    }
}

// ----- run: output shape ------------------------------------------------------------

/// Every summary field of the contract, with its JSON type.
fn check_summary_fields(s: &Value) {
    assert!(s["scenario"].is_string());
    assert!(s["seed"].is_u64());
    assert!(s["end_ms"].is_u64());
    let status = s["job_status"].as_str().expect("job_status");
    assert!(
        ["running", "finished", "failed", "canceled"].contains(&status),
        "{status}"
    );
    assert!(s["warnings"].is_array());
    for c in s["checkpoints"].as_array().expect("checkpoints") {
        for f in [
            "id",
            "trigger_ms",
            "alignment_ms",
            "persisted_in_flight_records",
            "state_bytes",
            "uploaded_bytes",
        ] {
            assert!(c[f].is_u64(), "checkpoint.{f} in {c}");
        }
        assert!(
            ["checkpoint", "savepoint"].contains(&c["kind"].as_str().expect("kind")),
            "{c}"
        );
        let st = c["status"].as_str().expect("status");
        assert!(["completed", "aborted", "in_progress"].contains(&st), "{c}");
        assert!(
            c.get("end_ms").is_some() && c.get("reason").is_some(),
            "{c}"
        );
        assert_eq!(
            c["end_ms"].is_null(),
            st == "in_progress",
            "end_ms null exactly while in progress: {c}"
        );
        assert_eq!(
            c["reason"].is_null(),
            st != "aborted",
            "reason only for aborted: {c}"
        );
    }
    for f in s["failures"].as_array().expect("failures") {
        assert!(f["at_ms"].is_u64(), "{f}");
        for k in ["task", "restored_from", "restarted_ms"] {
            assert!(f.get(k).is_some(), "failure.{k} missing: {f}");
        }
    }
    for (uid, sink) in s["sinks"].as_object().expect("sinks") {
        assert!(
            sink["committed"].is_array() && sink["uncommitted"].is_array(),
            "{uid}"
        );
        assert!(sink["aborted_transactions"].is_u64(), "{uid}");
        for r in sink["committed"]
            .as_array()
            .unwrap()
            .iter()
            .chain(sink["uncommitted"].as_array().unwrap())
        {
            assert!(r.get("key").is_some() && r["value"].is_i64(), "{uid}: {r}");
        }
    }
}

#[test]
fn run_prints_only_the_summary_without_trace() {
    for (name, _) in engine::runner::BUILTINS {
        let lines = ok_json(&["run", name]);
        assert_eq!(lines.len(), 1, "{name}: without --trace only the summary");
        let s = summary_of(&lines);
        assert_eq!(s["scenario"], *name);
        check_summary_fields(s);
        assert!(
            s["checkpoints"][0].get("metadata").is_none(),
            "{name}: metadata without --metadata"
        );
    }
}

#[test]
fn run_accepts_a_file_as_well_as_a_builtin_name() {
    let doc: Value =
        serde_json::from_str(engine::runner::builtin("odd-even-sum").unwrap()).unwrap();
    let p = scenario_file("odd-even-file", &doc);
    assert_eq!(
        lab(&["run", path_str(&p), "--trace"]).stdout,
        lab(&["run", "odd-even-sum", "--trace"]).stdout
    );
}

/// The trace table of the contract: type → required fields.
const REQUIRED: &[(&str, &[&str])] = &[
    (
        "record_emitted",
        &["task", "partition", "offset", "key", "value"],
    ),
    ("record_processed", &["task", "channel", "key", "value"]),
    ("barrier_injected", &["task", "checkpoint"]),
    ("barrier_received", &["task", "channel", "checkpoint"]),
    ("channel_blocked", &["task", "channel", "checkpoint"]),
    ("channel_unblocked", &["task", "channel", "checkpoint"]),
    ("record_buffered", &["task", "channel", "checkpoint"]),
    (
        "barrier_overtook",
        &["task", "channel", "checkpoint", "records"],
    ),
    ("snapshot_taken", &["task", "checkpoint", "state_bytes"]),
    ("checkpoint_acknowledged", &["task", "checkpoint"]),
    ("checkpoint_completed", &["checkpoint"]),
    ("checkpoint_aborted", &["checkpoint", "reason"]),
    ("transaction_begun", &["task", "txn", "checkpoint"]),
    ("transaction_precommitted", &["task", "txn", "checkpoint"]),
    ("transaction_committed", &["task", "txn", "checkpoint"]),
    ("transaction_aborted", &["task", "txn", "checkpoint"]),
    ("task_failed", &["task"]),
    ("job_restarting", &["delay_ms"]),
    ("state_restored", &["task", "checkpoint"]),
];

fn check_trace(args: &[&str], seen: &mut std::collections::BTreeSet<String>) -> Vec<Value> {
    let lines = ok_json(args);
    let (summary, events) = lines.split_last().expect("summary");
    check_summary_fields(summary);
    let mut last_t = 0;
    for e in events {
        let t = e["t"]
            .as_u64()
            .unwrap_or_else(|| panic!("{args:?}: event without t: {e}"));
        assert!(t >= last_t, "{args:?}: time goes back at {e}");
        last_t = t;
        let ty = e["type"]
            .as_str()
            .unwrap_or_else(|| panic!("{args:?}: event without type: {e}"));
        assert!(
            e.get("scenario").is_none(),
            "{args:?}: a summary before the last line"
        );
        if let Some((_, fields)) = REQUIRED.iter().find(|(n, _)| *n == ty) {
            for f in *fields {
                assert!(e.get(*f).is_some(), "{args:?}: {ty} without {f}: {e}");
            }
            seen.insert(ty.to_string());
        }
        if let Some(task) = e.get("task").and_then(Value::as_str) {
            assert!(
                engine::scenario::parse_task_name(task).is_some(),
                "task name {task:?} is not uid#index"
            );
        }
    }
    assert!(
        last_t <= summary["end_ms"].as_u64().unwrap(),
        "{args:?}: events after end_ms"
    );
    events.to_vec()
}

#[test]
fn trace_has_every_contract_event_type_with_its_fields() {
    let mut seen = std::collections::BTreeSet::new();
    for (name, _) in engine::runner::BUILTINS {
        check_trace(&["run", name, "--trace"], &mut seen);
    }
    check_trace(
        &["run", "barrier-alignment", "--trace", "--mode", "unaligned"],
        &mut seen,
    );
    // Checkpoints that always expire: checkpoint_aborted.
    let p = scenario_file(
        "expiring",
        &tiny(
            json!({"interval_ms": 50, "timeout_ms": 10, "async_ms": 30, "tolerable_failures": 100}),
        ),
    );
    check_trace(&["run", path_str(&p), "--trace"], &mut seen);
    let missing: Vec<&str> = REQUIRED
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| !seen.contains(*n))
        .collect();
    assert!(missing.is_empty(), "event types never seen: {missing:?}");
}

#[test]
fn trace_lines_are_the_events_the_summary_describes() {
    let mut seen = Default::default();
    let events = check_trace(&["run", "odd-even-sum", "--trace"], &mut seen);
    let lines = ok_json(&["run", "odd-even-sum", "--trace"]);
    let s = summary_of(&lines);
    let completed: Vec<u64> = events
        .iter()
        .filter(|e| e["type"] == "checkpoint_completed")
        .map(|e| e["checkpoint"].as_u64().unwrap())
        .collect();
    let want: Vec<u64> = s["checkpoints"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "completed")
        .map(|c| c["id"].as_u64().unwrap())
        .collect();
    assert_eq!(completed, want);
    // The trace does not change the summary.
    assert_eq!(s, &ok_json(&["run", "odd-even-sum"])[0]);
}

// ----- run options ------------------------------------------------------------------

#[test]
fn mode_overrides_the_checkpointing_mode() {
    let mut seen = Default::default();
    let triggered = |ev: &[Value]| -> Vec<bool> {
        ev.iter()
            .filter(|e| e["type"] == "checkpoint_triggered")
            .map(|e| e["unaligned"].as_bool().unwrap())
            .collect()
    };
    let has = |ev: &[Value], ty: &str| ev.iter().any(|e| e["type"] == ty);

    let aligned = check_trace(
        &[
            "run",
            "unaligned-backpressure",
            "--trace",
            "--mode",
            "aligned",
        ],
        &mut seen,
    );
    assert!(triggered(&aligned).iter().all(|u| !u) && !triggered(&aligned).is_empty());
    assert!(!has(&aligned, "barrier_overtook"));

    let unaligned = check_trace(
        &["run", "barrier-alignment", "--trace", "--mode", "unaligned"],
        &mut seen,
    );
    assert!(triggered(&unaligned).iter().all(|u| *u) && !triggered(&unaligned).is_empty());
    assert!(has(&unaligned, "barrier_overtook"));
    assert!(!has(&unaligned, "channel_blocked"));

    let alo = check_trace(
        &[
            "run",
            "barrier-alignment",
            "--trace",
            "--mode",
            "at-least-once",
        ],
        &mut seen,
    );
    assert!(
        !has(&alo, "channel_blocked") && !has(&alo, "record_buffered"),
        "the tracker never blocks"
    );
    let plain = check_trace(&["run", "barrier-alignment", "--trace"], &mut seen);
    assert!(has(&plain, "channel_blocked"), "the built-in itself aligns");

    // --mode unaligned on a scenario with max_concurrent 2 is rejected.
    let p = scenario_file(
        "concurrent",
        &tiny(json!({"interval_ms": 100, "max_concurrent": 2})),
    );
    let err = bad_input(&["run", path_str(&p), "--mode", "unaligned"]);
    assert!(err.contains("max_concurrent"), "{err}");
    // Without checkpointing there is nothing to override.
    let mut off = tiny(Value::Null);
    off.as_object_mut().unwrap().remove("checkpointing");
    let p = scenario_file("no-checkpointing", &off);
    let err = bad_input(&["run", path_str(&p), "--mode", "aligned"]);
    assert!(err.contains("--mode"), "{err}");
    let err = bad_input(&["run", "odd-even-sum", "--mode", "sideways"]);
    assert!(err.contains("sideways"), "{err}");
}

#[test]
fn seed_overrides_the_scenario_seed() {
    let default = ok_json(&["run", "pv-count"]);
    assert_eq!(default[0]["seed"], 1);
    let a = ok_json(&["run", "pv-count", "--seed", "99", "--trace"]);
    let b = ok_json(&["run", "pv-count", "--seed", "99", "--trace"]);
    assert_eq!(a, b, "same seed, same output");
    assert_eq!(summary_of(&a)["seed"], 99);
    let c = ok_json(&["run", "pv-count", "--seed", "100", "--trace"]);
    assert_ne!(
        a[..a.len() - 1],
        c[..c.len() - 1],
        "pv-count draws its keys from the seed"
    );
}

#[test]
fn until_bounds_the_simulated_time() {
    let lines = ok_json(&["run", "pv-count", "--until", "1500", "--trace"]);
    let s = summary_of(&lines);
    assert_eq!(s["end_ms"], 1500);
    assert_eq!(s["job_status"], "running");
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|e| e["t"].as_u64().unwrap() <= 1500),
        "until_ms is inclusive"
    );
    // Checkpoint 1 at 1000 completed; the one at 2000 never started.
    let ids: Vec<u64> = s["checkpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["trigger_ms"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, vec![1000]);
    // Until 0: nothing happens, still a summary.
    let lines = ok_json(&["run", "pv-count", "--until", "0"]);
    assert_eq!(lines[0]["end_ms"], 0);
    assert_eq!(lines[0]["checkpoints"], json!([]));
}

#[test]
fn crash_adds_a_crash_action() {
    // pv-count has no restart strategy: exponential delay from 1000 ms, so the job
    // runs again from 2500; a crash at 2200 would be ignored (the job is restarting).
    let lines = ok_json(&[
        "run",
        "pv-count",
        "--crash",
        "pv#1@1500",
        "--crash",
        "kafka#0@2700",
        "--trace",
    ]);
    let s = summary_of(&lines);
    let failures = s["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 2, "{s}");
    assert_eq!(failures[0]["task"], "pv#1");
    assert_eq!(failures[0]["at_ms"], 1500);
    assert_eq!(
        failures[0]["restored_from"], 1,
        "restored from checkpoint 1 (1000 ms)"
    );
    assert_eq!(failures[0]["restarted_ms"], 2500);
    assert_eq!(failures[1]["task"], "kafka#0");
    assert_eq!(failures[1]["at_ms"], 2700);
    let ignored = ok_json(&[
        "run",
        "pv-count",
        "--crash",
        "pv#1@1500",
        "--crash",
        "kafka#0@2200",
        "--trace",
    ]);
    assert_eq!(
        summary_of(&ignored)["failures"].as_array().unwrap().len(),
        1,
        "a crash while restarting is ignored"
    );
    assert!(ignored
        .iter()
        .any(|e| e["type"] == "action_ignored" && e["t"] == 2200));
    let failed: Vec<&Value> = lines
        .iter()
        .filter(|e| e["type"] == "task_failed")
        .collect();
    assert_eq!(failed[0]["task"], "pv#1");
    assert_eq!(failed[0]["t"], 1500);

    let err = bad_input(&["run", "pv-count", "--crash", "nope#0@100"]);
    assert!(err.contains("nope#0"), "the unknown task is named: {err}");
    let err = bad_input(&["run", "pv-count", "--crash", "pv#7@100"]);
    assert!(err.contains("pv#7"), "{err}");
    bad_input(&["run", "pv-count", "--crash", "pv#1"]);
    bad_input(&["run", "pv-count", "--crash", "pv#1@soon"]);
    bad_input(&["run", "pv-count", "--crash"]);
}

#[test]
fn metadata_adds_each_completed_checkpoints_metadata() {
    let lines = ok_json(&["run", "odd-even-sum", "--metadata"]);
    assert_eq!(lines.len(), 1);
    let cps = lines[0]["checkpoints"].as_array().unwrap();
    let m = &cps[0]["metadata"];
    assert_eq!(m["numbers"], json!({"offsets": {"0": 5}}));
    assert_eq!(m["sum"], json!({"keyed": {"even": 6, "odd": 9}}));
    for c in cps {
        assert_eq!(
            c.get("metadata").is_some(),
            c["status"] == "completed",
            "{c}"
        );
    }
}

#[test]
fn key_groups_add_each_keyed_subtasks_range_to_the_metadata() {
    let lines = ok_json(&["run", "savepoint-rescale", "--metadata", "--key-groups"]);
    let first = &lines[0]["checkpoints"][0];
    let pv = &first["metadata"]["pv"];
    // Rescaled to 3 with max parallelism 128: KeyGroupRangeAssignment's ranges.
    assert_eq!(pv["max_parallelism"], 128);
    assert_eq!(
        pv["key_groups"],
        json!({"0": [0, 42], "1": [43, 85], "2": [86, 127]})
    );
    assert!(
        first["metadata"]["kafka"].get("key_groups").is_none(),
        "a source has none"
    );
    // Plain --metadata keeps the contract's form.
    let plain = ok_json(&["run", "savepoint-rescale", "--metadata"]);
    assert!(plain[0]["checkpoints"][0]["metadata"]["pv"]
        .get("key_groups")
        .is_none());
    let err = bad_input(&["run", "savepoint-rescale", "--key-groups"]);
    assert!(
        err.contains("--key-groups") && err.contains("--metadata"),
        "{err}"
    );
}

// ----- bad input --------------------------------------------------------------------

#[test]
fn bad_input_exits_2_with_a_message_and_no_output() {
    let missing = bad_input(&["run", "/nonexistent/scenario.json"]);
    assert!(missing.contains("/nonexistent/scenario.json"), "{missing}");
    bad_input(&["validate", "/nonexistent/scenario.json"]);

    let dir = std::env::temp_dir().join(format!("lab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"version\": 1, \"name\": ").unwrap();
    bad_input(&["run", broken.to_str().unwrap()]);
    bad_input(&["validate", broken.to_str().unwrap()]);
    let not_object = dir.join("array.json");
    std::fs::write(&not_object, "[1, 2, 3]").unwrap();
    bad_input(&["run", not_object.to_str().unwrap()]);

    let err = bad_input(&["run", "odd-even-sum", "--bogus"]);
    assert!(err.contains("--bogus"), "{err}");
    let err = bad_input(&["run", "odd-even-sum", "--seed", "abc"]);
    assert!(err.contains("--seed"), "{err}");
    let err = bad_input(&["run", "odd-even-sum", "--until", "-1"]);
    assert!(err.contains("--until"), "{err}");
    bad_input(&["run", "odd-even-sum", "--until", "1.5"]);
    bad_input(&["run", "odd-even-sum", "--seed", "18446744073709551616"]);
    bad_input(&["run", "odd-even-sum", "--seed"]);
    bad_input(&["run", "odd-even-sum", "--until"]);
    bad_input(&["run", "odd-even-sum", "--mode"]);
    bad_input(&["run", "odd-even-sum", "pv-count"]);
    bad_input(&["run"]);
    bad_input(&["validate"]);
    bad_input(&["validate", "a.json", "b.json"]);
    bad_input(&["frobnicate"]);
    bad_input(&[]);
}

// ----- barriers ---------------------------------------------------------------------

#[test]
fn barriers_aligned_smoke() {
    let lines = ok_json(&[
        "barriers",
        "--mode",
        "aligned",
        "--channels",
        "2",
        "r1@0 B1@0 r2@0 B1@1 r3@1",
    ]);
    assert_eq!(lines.len(), 6, "one line per token, then the summary");
    for (i, l) in lines[..5].iter().enumerate() {
        assert_eq!(l["i"], i);
        for f in ["token", "processed", "blocked", "triggered", "aborted"] {
            assert!(l.get(f).is_some(), "line {i} without {f}: {l}");
        }
    }
    assert_eq!(lines[1]["token"], "B1@0");
    assert_eq!(lines[1]["blocked"], json!([0]));
    assert_eq!(
        lines[2]["processed"],
        json!([]),
        "r2 waits on the blocked channel"
    );
    assert_eq!(
        lines[3]["triggered"],
        json!([{"checkpoint": 1, "unaligned": false, "processed_before_snapshot": 0, "channel_state": {}}])
    );
    assert_eq!(
        lines[3]["processed"],
        json!(["r2"]),
        "released after the snapshot"
    );
    assert_eq!(lines[3]["blocked"], json!([]));
    assert_eq!(
        lines[5],
        json!({"summary": true, "triggered": [1], "aborted": [], "processed": ["r1", "r2", "r3"]})
    );
}

#[test]
fn barriers_unaligned_and_at_least_once_smoke() {
    let lines = ok_json(&[
        "barriers",
        "--mode",
        "unaligned",
        "--channels",
        "2",
        "r1@1 B1@0 r2@1 B1@1",
    ]);
    let trig = &lines[1]["triggered"][0];
    assert_eq!(trig["checkpoint"], 1);
    assert_eq!(
        trig["unaligned"], true,
        "unaligned: triggered on the first barrier"
    );
    assert_eq!(lines.last().unwrap()["summary"], true);

    let lines = ok_json(&[
        "barriers",
        "--mode",
        "at-least-once",
        "--channels",
        "2",
        "B1@0 r1@0 B1@1",
    ]);
    assert_eq!(lines[0]["blocked"], json!([]), "the tracker never blocks");
    assert_eq!(lines[1]["processed"], json!(["r1"]));
    assert_eq!(lines[2]["triggered"][0]["checkpoint"], 1);
}

#[test]
fn barriers_bad_input_exits_2() {
    bad_input(&["barriers", "--mode", "aligned", "r1@0"]);
    bad_input(&["barriers", "--mode", "aligned", "--channels", "2", "q1@0"]);
    bad_input(&[
        "barriers",
        "--mode",
        "aligned",
        "--channels",
        "2",
        "r1@0:5 r2@1:3",
    ]);
    bad_input(&[
        "barriers",
        "--mode",
        "aligned",
        "--channels",
        "2",
        "--aligned-timeout",
        "5",
        "r1@0",
    ]);
    bad_input(&["barriers", "--mode", "sideways", "--channels", "2", "r1@0"]);
    bad_input(&["barriers", "--mode", "aligned", "--channels", "x", "r1@0"]);
    bad_input(&["barriers", "--mode", "aligned", "--channels", "2", "r1@9"]);
}

// ----- transaction timeout ----------------------------------------------------------

/// A two-phase-commit sink whose checkpoints take 200 ms (`async_ms`) after a 100 ms
/// interval: a transaction stays uncommitted for about 400 ms, from its first record
/// to the completion of the checkpoint after the one it began at.
fn slow_commit_scenario(timeout: Option<u64>) -> String {
    let mut sink = serde_json::json!({"uid": "out", "kind": "sink", "sink": "two_phase_commit"});
    if let Some(t) = timeout {
        sink["transaction_timeout_ms"] = serde_json::json!(t);
    }
    serde_json::json!({
        "version": 1, "name": "slow-commit", "seed": 1,
        "job": {
            "operators": [
                {"uid": "numbers", "kind": "source",
                 "partitions": [{"generate": {"count": 60, "every_ms": 10, "keys": ["a", "b"], "values": "sequence"}}]},
                {"uid": "count", "kind": "keyed_count"},
                sink
            ],
            "edges": [
                {"from": "numbers", "to": "count", "partitioning": "hash"},
                {"from": "count", "to": "out"}
            ]
        },
        "checkpointing": {"interval_ms": 100, "async_ms": 200}
    })
    .to_string()
}

/// `lab run --verdicts`: with `transaction_timeout_ms` below how long the
/// transactions stay uncommitted, the broker aborts them before their checkpoints
/// commit them; KafkaCommitter's drop is traced with its message and those records
/// are lost, none duplicated. The same scenario without the timeout commits the
/// failure-free output exactly.
#[test]
fn transaction_timeout_loses_late_commits() {
    let dir = std::env::temp_dir().join(format!("lab-txn-timeout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |name: &str, timeout: Option<u64>| {
        let path = dir.join(name);
        std::fs::write(&path, slow_commit_scenario(timeout)).unwrap();
        let out = lab(&["run", path.to_str().unwrap(), "--trace", "--verdicts"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let lines: Vec<serde_json::Value> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
            .collect();
        lines
    };
    let timed = run("timed.json", Some(300));
    let summary = timed.last().unwrap();
    assert_eq!(summary["job_status"], "finished");
    let verdicts = &summary["verdicts"]["out"];
    assert!(verdicts["lost"].as_u64().unwrap() > 0, "{verdicts}");
    assert_eq!(verdicts["duplicates"], 0, "{verdicts}");
    assert_eq!(verdicts["not_yet"], 0, "{verdicts}");
    let failed: Vec<&serde_json::Value> = timed
        .iter()
        .filter(|e| e["type"] == "transaction_commit_failed")
        .collect();
    assert!(!failed.is_empty());
    assert!(failed.iter().all(|e| e["reason"]
        .as_str()
        .unwrap()
        .contains("because its producer is already fenced")
        && e["reason"]
            .as_str()
            .unwrap()
            .contains("'transaction.timeout.ms' (300ms)")));
    // Every lost record belongs to a transaction the broker aborted for its timeout.
    let lost_txns: std::collections::BTreeSet<u64> =
        failed.iter().map(|e| e["txn"].as_u64().unwrap()).collect();
    let lost_writes = timed
        .iter()
        .filter(|e| {
            e["type"] == "record_written" && lost_txns.contains(&e["txn"].as_u64().unwrap_or(0))
        })
        .count() as u64;
    assert_eq!(
        verdicts["lost"].as_u64().unwrap(),
        lost_writes,
        "{verdicts}"
    );
    assert!(summary["warnings"].as_array().unwrap().iter().any(|w| w
        .as_str()
        .unwrap()
        .starts_with("job.operators[2].transaction_timeout_ms")));

    let plain = run("plain.json", None);
    let summary = plain.last().unwrap();
    let verdicts = &summary["verdicts"]["out"];
    assert_eq!(verdicts["lost"], 0, "{verdicts}");
    assert_eq!(verdicts["duplicates"], 0, "{verdicts}");
    assert_eq!(verdicts["committed"], 60, "{verdicts}");
    assert!(plain
        .iter()
        .all(|e| e["type"] != "transaction_commit_failed"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad `transaction_timeout_ms` values exit 2 naming the field.
#[test]
fn transaction_timeout_bad_values_exit_2() {
    let dir = std::env::temp_dir().join(format!("lab-txn-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, bad) in ["0", "-1", "2.5", "true"].iter().enumerate() {
        let text = slow_commit_scenario(Some(1)).replace(
            "\"transaction_timeout_ms\":1",
            &format!("\"transaction_timeout_ms\":{bad}"),
        );
        let path = dir.join(format!("bad-{i}.json"));
        std::fs::write(&path, text).unwrap();
        let out = lab(&["run", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(stdout(&out).is_empty());
        assert!(
            stderr(&out).contains("job.operators[2].transaction_timeout_ms"),
            "{bad}: {}",
            stderr(&out)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
