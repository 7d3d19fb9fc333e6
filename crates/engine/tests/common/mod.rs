//! Helpers shared by the World tests: a random scenario generator and trace parsing.
#![allow(dead_code)]

use engine::event::{Event, TraceEvent};
use engine::runner::{self, RunOptions};
use engine::Scenario;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// Checkpointing mode of a generated scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Aligned,
    Unaligned,
    AtLeastOnce,
}

/// What a generated scenario may contain.
#[derive(Clone, Debug)]
pub struct Gen {
    pub mode: Mode,
    pub crashes: bool,
    pub sink: &'static str,
    pub aligned_timeout: bool,
    /// Force the keyed operator kind (`keyed_count` makes per-key output independent
    /// of the interleaving of partitions, so runs can be compared value by value).
    pub keyed: Option<&'static str>,
}

/// A random bounded pipeline: source (several partitions) → map → keyed count/sum
/// (sometimes slow: back-pressure) → sink, with random parallelism, latencies,
/// capacities, checkpoint interval and (optionally) crashes.
pub fn random_scenario(seed: u64, g: &Gen) -> Scenario {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let src_p = rng.random_range(1..=3u32);
    let parts = rng.random_range(1..=4u32);
    let mid_p = rng.random_range(1..=3u32);
    let keyed_p = rng.random_range(1..=3u32);
    let sink_p = rng.random_range(1..=2u32);
    let keys: Vec<String> = (0..rng.random_range(2..=6))
        .map(|i| format!("k{i}"))
        .collect();
    let partitions: Vec<Value> = (0..parts)
        .map(|_| {
            json!({"generate": {"count": rng.random_range(10..=60), "every_ms": rng.random_range(1..=8),
                                "keys": keys, "values": "random"}})
        })
        .collect();
    let coin = rng.random_bool(0.5);
    let keyed_kind = g
        .keyed
        .unwrap_or(if coin { "keyed_count" } else { "keyed_sum" });
    let mid_edge = if src_p == mid_p && rng.random_bool(0.5) {
        "forward"
    } else {
        "rebalance"
    };
    let mut ops = vec![
        json!({"uid": "src", "kind": "source", "parallelism": src_p, "partitions": partitions}),
        json!({"uid": "map", "kind": "map", "fn": "identity", "parallelism": mid_p,
               "process_ms": rng.random_range(0..=1)}),
        json!({"uid": "agg", "kind": keyed_kind, "parallelism": keyed_p, "process_ms": rng.random_range(0..=4)}),
        json!({"uid": "out", "kind": "sink", "sink": g.sink, "parallelism": sink_p}),
    ];
    if rng.random_bool(0.3) {
        ops[1] = json!({"uid": "map", "kind": "filter", "fn": "even", "parallelism": mid_p});
    }
    let lat = |rng: &mut ChaCha8Rng| rng.random_range(1..=15u64);
    let cap = |rng: &mut ChaCha8Rng| rng.random_range(1..=8u32);
    let edges = vec![
        json!({"from": "src", "to": "map", "partitioning": mid_edge, "latency_ms": lat(&mut rng), "buffer_capacity": cap(&mut rng)}),
        json!({"from": "map", "to": "agg", "partitioning": "hash", "latency_ms": lat(&mut rng), "buffer_capacity": cap(&mut rng)}),
        json!({"from": "agg", "to": "out", "partitioning": "rebalance", "latency_ms": lat(&mut rng), "buffer_capacity": cap(&mut rng)}),
    ];
    let mut cp = json!({
        "mode": if g.mode == Mode::AtLeastOnce { "at_least_once" } else { "exactly_once" },
        "unaligned": g.mode == Mode::Unaligned,
        "interval_ms": rng.random_range(10..=120),
        "async_ms": rng.random_range(0..=10),
    });
    if g.aligned_timeout && g.mode == Mode::Unaligned {
        cp["aligned_checkpoint_timeout_ms"] = json!(rng.random_range(1..=30));
    }
    let mut script = Vec::new();
    if g.crashes {
        for _ in 0..rng.random_range(1..=3) {
            let (uid, p) = match rng.random_range(0..4) {
                0 => ("src", src_p),
                1 => ("map", mid_p),
                2 => ("agg", keyed_p),
                _ => ("out", sink_p),
            };
            script.push(
                json!({"at_ms": rng.random_range(5..=400), "action": "crash",
                               "task": format!("{uid}#{}", rng.random_range(0..p))}),
            );
        }
    }
    let doc = json!({
        "version": 1, "name": format!("random-{seed}"), "seed": seed,
        "job": {"operators": ops, "edges": edges},
        "checkpointing": cp,
        "restart": {"strategy": "fixed_delay", "attempts": 10, "delay_ms": rng.random_range(0..=50)},
        "script": script,
    });
    Scenario::from_json(&doc.to_string())
        .unwrap_or_else(|e| panic!("seed {seed}: generated scenario invalid: {e}\n{doc}"))
}

/// Run with the trace on; returns the events and the summary as JSON.
pub fn run_traced(s: &Scenario) -> (Vec<TraceEvent>, Value) {
    let opts = RunOptions {
        trace: true,
        ..Default::default()
    };
    let mut events = Vec::new();
    let world = runner::run(s, &opts, |e| events.push(e.clone())).expect("valid scenario");
    let summary = serde_json::to_value(engine::summary::Summary::of(
        &world,
        engine::summary::Metadata::Omitted,
    ))
    .expect("serializes");
    (events, summary)
}

/// `lab run` lines for a scenario.
pub fn lines(s: &Scenario, trace: bool) -> Vec<String> {
    runner::run_lines(
        s,
        &RunOptions {
            trace,
            ..Default::default()
        },
    )
    .expect("valid scenario")
}

/// Committed (key, value) pairs of sink `uid` in the summary.
pub fn committed(summary: &Value, uid: &str) -> Vec<(String, i64)> {
    summary["sinks"][uid]["committed"]
        .as_array()
        .expect("sink present")
        .iter()
        .map(|r| {
            (
                r["key"].as_str().unwrap_or("").to_string(),
                r["value"].as_i64().expect("value"),
            )
        })
        .collect()
}

/// Whether a run failed over to a completed checkpoint (a summary's
/// `failures[].restored_from`): the case the exactly-once properties are about.
pub fn restored_a_checkpoint(summary: &Value) -> bool {
    summary["failures"]
        .as_array()
        .is_some_and(|f| f.iter().any(|x| x["restored_from"].is_u64()))
}

/// The "sometimes" half of a seeded property: fails unless at least `min` of the
/// `cases` reached the branch the property asserts about, so a generator that
/// drifts away from it cannot leave the property passing vacuously.
#[track_caller]
pub fn assert_sometimes(reached: usize, min: usize, cases: usize, what: &str) {
    assert!(
        reached >= min.max(1),
        "only {reached} of {cases} cases {what} (at least {} expected)",
        min.max(1)
    );
}

/// Group values by key, keeping order.
pub fn per_key(pairs: &[(String, i64)]) -> std::collections::BTreeMap<String, Vec<i64>> {
    let mut m = std::collections::BTreeMap::<String, Vec<i64>>::new();
    for (k, v) in pairs {
        m.entry(k.clone()).or_default().push(*v);
    }
    m
}

/// Events of a given task.
pub fn is_task(e: &Event, name: &str) -> bool {
    match e {
        Event::RecordProcessed { task, .. }
        | Event::BarrierReceived { task, .. }
        | Event::ChannelBlocked { task, .. }
        | Event::SnapshotTaken { task, .. } => &**task == name,
        _ => false,
    }
}

/// The working state of each subtask of operator `uid`, by subtask index.
pub fn subtask_states<'a>(w: &'a engine::World, uid: &str) -> Vec<&'a engine::operators::OpState> {
    let setup = w.setup();
    let op = setup
        .scenario
        .job
        .operators
        .iter()
        .position(|o| o.uid == uid)
        .unwrap_or_else(|| panic!("no operator {uid}"));
    let first = setup.op_first_task[op] as usize;
    (0..setup.scenario.job.operators[op].parallelism as usize)
        .map(|i| &w.tasks()[first + i].op)
        .collect()
}

/// Where two outputs of `lab run` (JSON lines) first differ: the 1-based line number
/// and the two lines there (`<end>` past the end of the shorter); `None` if equal.
pub fn first_difference<'a>(a: &'a str, b: &'a str) -> Option<(usize, &'a str, &'a str)> {
    if a == b {
        return None;
    }
    let (mut x, mut y) = (a.lines(), b.lines());
    let mut n = 0;
    loop {
        n += 1;
        match (x.next(), y.next()) {
            (Some(l), Some(r)) if l == r => continue,
            (None, None) => return Some((n, "<end>", "<end>")), // equal lines, other endings
            (l, r) => return Some((n, l.unwrap_or("<end>"), r.unwrap_or("<end>"))),
        }
    }
}

/// madsim's `check_determinism`: two runs of one scenario with one seed must give
/// the same lines. Otherwise panic with the first differing line and the command
/// that reproduces the run (`lab run … --seed N --trace`).
pub fn assert_same_runs(first: &[String], second: &[String], what: &str, reproduce: &str) {
    let (a, b) = (first.join("\n"), second.join("\n"));
    if let Some((line, l, r)) = first_difference(&a, &b) {
        panic!(
            "{what}: two runs differ at line {line} ({} vs {} lines):\n first: {l}\nsecond: {r}\nreproduce: {reproduce}",
            first.len(),
            second.len()
        );
    }
}

/// The command that runs `s` as `lab` does, tracing: a built-in by name, any other
/// scenario from a copy written under the test's temporary directory.
pub fn lab_command(s: &Scenario, builtin: bool) -> String {
    let source = if builtin {
        s.name.clone()
    } else {
        let path =
            std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{}.json", s.name));
        match std::fs::write(&path, s.to_json()) {
            Ok(()) => path.display().to_string(),
            Err(e) => format!("<{} could not be written: {e}>", path.display()),
        }
    };
    format!(
        "cargo run -p checkpoint-engine --bin lab -- run {source} --seed {} --trace",
        s.seed
    )
}
