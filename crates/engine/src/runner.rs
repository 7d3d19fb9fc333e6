//! Running a scenario headless: what `lab run`, `lab list` and `lab validate` do,
//! kept in the library so tests and the page share it.

use crate::event::TraceEvent;
use crate::scenario::{CheckpointingMode, Scenario, ScenarioError, ScriptStep};
use crate::summary::Summary;
use crate::world::World;

/// The built-in scenarios: `(name, JSON)`, compiled in.
pub const BUILTINS: &[(&str, &str)] = &[
    // The classroom library, in lesson order (issue 7); pairs sit side by side.
    ("pv-count", include_str!("../scenarios/pv-count.json")),
    (
        "barrier-alignment",
        include_str!("../scenarios/barrier-alignment.json"),
    ),
    (
        "unaligned-backpressure",
        include_str!("../scenarios/unaligned-backpressure.json"),
    ),
    (
        "at-least-once-duplicates",
        include_str!("../scenarios/at-least-once-duplicates.json"),
    ),
    (
        "odd-even-sum",
        include_str!("../scenarios/odd-even-sum.json"),
    ),
    (
        "exactly-once-kafka",
        include_str!("../scenarios/exactly-once-kafka.json"),
    ),
    (
        "exactly-once-kafka-plain",
        include_str!("../scenarios/exactly-once-kafka-plain.json"),
    ),
    (
        "restart-fixed-delay",
        include_str!("../scenarios/restart-fixed-delay.json"),
    ),
    (
        "restart-failure-rate",
        include_str!("../scenarios/restart-failure-rate.json"),
    ),
    (
        "restart-none",
        include_str!("../scenarios/restart-none.json"),
    ),
    (
        "savepoint-rescale",
        include_str!("../scenarios/savepoint-rescale.json"),
    ),
    (
        "savepoint-upgrade",
        include_str!("../scenarios/savepoint-upgrade.json"),
    ),
    (
        "checkpoint-config",
        include_str!("../scenarios/checkpoint-config.json"),
    ),
    (
        "checkpoint-config-strict",
        include_str!("../scenarios/checkpoint-config-strict.json"),
    ),
    (
        "state-backend-rocksdb",
        include_str!("../scenarios/state-backend-rocksdb.json"),
    ),
    (
        "state-backend-hashmap",
        include_str!("../scenarios/state-backend-hashmap.json"),
    ),
    (
        "jobmanager-storage-limit",
        include_str!("../scenarios/jobmanager-storage-limit.json"),
    ),
    (
        "jobmanager-crash-jobmanager",
        include_str!("../scenarios/jobmanager-crash-jobmanager.json"),
    ),
    (
        "jobmanager-crash-filesystem",
        include_str!("../scenarios/jobmanager-crash-filesystem.json"),
    ),
    (
        "broadcast-rules",
        include_str!("../scenarios/broadcast-rules.json"),
    ),
    ("state-types", include_str!("../scenarios/state-types.json")),
    (
        "busy-network",
        include_str!("../scenarios/busy-network.json"),
    ),
];

/// When no bound is given, a run stops at this simulated time.
pub const DEFAULT_LIMIT_MS: u64 = 600_000;

/// The JSON of a built-in scenario.
pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTINS.iter().find(|(n, _)| *n == name).map(|(_, j)| *j)
}

/// `--mode`: override the checkpointing mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeOverride {
    /// Exactly-once, aligned.
    Aligned,
    /// Exactly-once, unaligned.
    Unaligned,
    /// At-least-once.
    AtLeastOnce,
}

impl ModeOverride {
    /// Parse the CLI spelling.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "aligned" => Ok(ModeOverride::Aligned),
            "unaligned" => Ok(ModeOverride::Unaligned),
            "at-least-once" => Ok(ModeOverride::AtLeastOnce),
            other => Err(format!(
                "--mode: unknown mode {other:?} (expected aligned, unaligned or at-least-once)"
            )),
        }
    }
}

/// Options of `lab run`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Overrides the scenario's seed.
    pub seed: Option<u64>,
    /// Overrides the scenario's `until_ms`.
    pub until_ms: Option<u64>,
    /// Overrides the checkpointing mode.
    pub mode: Option<ModeOverride>,
    /// Extra crash actions: `(task, at_ms)`.
    pub crashes: Vec<(String, u64)>,
    /// Print the trace.
    pub trace: bool,
    /// Add `_metadata` to completed checkpoints.
    pub metadata: bool,
}

/// Apply `--mode` and `--crash` to a scenario (validation happens when the world is built).
pub fn apply_options(scenario: &mut Scenario, opts: &RunOptions) -> Result<(), String> {
    if let Some(mode) = opts.mode {
        let Some(cfg) = scenario.checkpointing.as_mut() else {
            return Err("--mode: the scenario has no `checkpointing` section, so there are no barriers to align".into());
        };
        match mode {
            ModeOverride::Aligned => {
                cfg.mode = CheckpointingMode::ExactlyOnce;
                cfg.unaligned = false;
            }
            ModeOverride::Unaligned => {
                cfg.mode = CheckpointingMode::ExactlyOnce;
                cfg.unaligned = true;
            }
            ModeOverride::AtLeastOnce => {
                cfg.mode = CheckpointingMode::AtLeastOnce;
                cfg.unaligned = false;
            }
        }
    }
    for (task, at_ms) in &opts.crashes {
        scenario.script.push(ScriptStep::Crash {
            at_ms: *at_ms,
            task: task.clone(),
        });
    }
    Ok(())
}

/// Parse a scenario from JSON text or a built-in name.
pub fn load(text_or_name: &str) -> Result<Scenario, ScenarioError> {
    let text = builtin(text_or_name).unwrap_or(text_or_name);
    Scenario::from_json(text)
}

/// Run `scenario` to its bound, calling `on_event` for each event when tracing.
/// Returns the finished world.
pub fn run(
    scenario: &Scenario,
    opts: &RunOptions,
    mut on_event: impl FnMut(&TraceEvent),
) -> Result<World, ScenarioError> {
    let seed = opts.seed.unwrap_or(scenario.seed);
    let mut world = World::new(scenario, seed)?;
    world.set_tracing(opts.trace);
    world.keep_all_completed(opts.metadata);
    world.run_to_end(
        opts.until_ms.or(scenario.until_ms),
        DEFAULT_LIMIT_MS,
        |evs| evs.iter().for_each(&mut on_event),
    );
    Ok(world)
}

/// `lab run`: the JSON lines to print (trace, then the summary).
pub fn run_lines(scenario: &Scenario, opts: &RunOptions) -> Result<Vec<String>, ScenarioError> {
    let mut lines = Vec::new();
    let world = run(scenario, opts, |e| {
        lines.push(serde_json::to_string(e).expect("events serialize"));
    })?;
    let summary = Summary::of(&world, opts.metadata);
    lines.push(serde_json::to_string(&summary).expect("summary serializes"));
    Ok(lines)
}
