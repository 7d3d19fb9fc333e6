//! Running a scenario headless: what `lab run`, `lab list` and `lab validate` do,
//! kept in the library so tests and the page share it.

use crate::event::TraceEvent;
pub use crate::provided::UnknownFile;
use crate::provided::{self, Table};
use crate::scenario::{CheckpointingMode, Scenario, ScenarioError, ScriptStep};
use crate::summary::{Metadata, Summary};
use crate::world::World;

/// Declares the built-ins once: their names (always compiled in: the page's lesson
/// menu lists every lesson before any data has arrived) and, with the `builtins`
/// feature, their JSON, `scenarios/<name>.json`.
macro_rules! builtins {
    ($($name:literal,)*) => {
        /// The built-in scenarios' names, in lesson order.
        pub const NAMES: &[&str] = &[$($name),*];

        /// The built-in scenarios: `(name, JSON)`, compiled in (the `builtins`
        /// feature, on by default; the page's wasm build turns it off and fetches
        /// each file when its lesson opens, see [`provide`]).
        #[cfg(feature = "builtins")]
        pub const BUILTINS: &[(&str, &str)] = &[
            $(($name, include_str!(concat!("../scenarios/", $name, ".json")))),*
        ];
    };
}

builtins! {
    // The classroom library, in the order the lessons use it; pairs sit side by side.
    "pv-count",
    "barrier-alignment",
    "unaligned-backpressure",
    "at-least-once-duplicates",
    "odd-even-sum",
    "exactly-once-kafka",
    "exactly-once-kafka-plain",
    "restart-fixed-delay",
    "restart-failure-rate",
    "restart-none",
    "restart-exponential-delay",
    "savepoint-rescale",
    "savepoint-upgrade",
    "checkpoint-config",
    "checkpoint-config-strict",
    "state-backend-rocksdb",
    "state-backend-hashmap",
    "jobmanager-storage-limit",
    "jobmanager-crash-jobmanager",
    "jobmanager-crash-filesystem",
    "broadcast-rules",
    "state-types",
    "busy-network",
    // The interview questions' lessons: checkpoint vs savepoint, alignment on its own
    // (a pair), ReducingState and AggregatingState, two-phase commit in general.
    "checkpoint-vs-savepoint",
    "restore-claim",
    "restore-no-claim",
    "alignment-isolated",
    "alignment-isolated-at-least-once",
    "state-reduce-aggregate",
    "two-phase-commit",
    // Production pitfalls: each pair side by side.
    "backpressure-expired",
    "backpressure-aligned-timeout",
    "kafka-transaction-timeout",
    "kafka-transaction-timeout-long",
    // Failover: the pipelined region restarts, or the whole job (a pair).
    "region-failover-forward",
    "region-failover-rebalance",
}

/// When no bound is given, a run stops at this simulated time.
pub const DEFAULT_LIMIT_MS: u64 = 600_000;

thread_local! {
    static PROVIDED: Table = const { Table::new(Vec::new()) };
}

/// The JSON of a built-in scenario: compiled in (the `builtins` feature) or
/// supplied by [`provide`]; `None` for a name that is not a built-in, or whose
/// file has not been supplied yet.
pub fn builtin(name: &str) -> Option<&'static str> {
    #[cfg(feature = "builtins")]
    if let Some((_, json)) = BUILTINS.iter().find(|(n, _)| *n == name) {
        return Some(json);
    }
    provided::get(&PROVIDED, name)
}

/// Supplies the JSON of the built-in `name` when it is not compiled in (the page
/// fetches `scenarios/<name>.json`). The first text supplied for a name stays;
/// a name that is not in [`NAMES`] is refused.
pub fn provide(name: &str, json: String) -> Result<(), UnknownFile> {
    provided::put(&PROVIDED, NAMES, name, json)
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
    pub fn parse(s: &str) -> Result<Self, OptionError> {
        match s {
            "aligned" => Ok(ModeOverride::Aligned),
            "unaligned" => Ok(ModeOverride::Unaligned),
            "at-least-once" => Ok(ModeOverride::AtLeastOnce),
            other => Err(OptionError::UnknownMode(other.to_string())),
        }
    }
}

/// A `--mode` that cannot apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// Not one of the modes.
    UnknownMode(String),
    /// The scenario has no `checkpointing` section: there are no barriers to align.
    ModeWithoutCheckpointing,
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::UnknownMode(given) => write!(
                f,
                "--mode: unknown mode {given:?} (expected aligned, unaligned or at-least-once)"
            ),
            OptionError::ModeWithoutCheckpointing => f.write_str(
                "--mode: the scenario has no `checkpointing` section, so there are no barriers to align",
            ),
        }
    }
}

impl std::error::Error for OptionError {}

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
    /// With `metadata`: each keyed operator's key-group ranges too.
    pub key_groups: bool,
}

/// Apply `--mode` and `--crash` to a scenario (validation happens when the world is built).
pub fn apply_options(scenario: &mut Scenario, opts: &RunOptions) -> Result<(), OptionError> {
    if let Some(mode) = opts.mode {
        let Some(cfg) = scenario.checkpointing.as_mut() else {
            return Err(OptionError::ModeWithoutCheckpointing);
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
    run_lines_and_world(scenario, opts).map(|(lines, _)| lines)
}

/// [`run_lines`], and the finished world they describe (for what `lab run` adds to
/// the summary, such as `--verdicts`).
pub fn run_lines_and_world(
    scenario: &Scenario,
    opts: &RunOptions,
) -> Result<(Vec<String>, World), ScenarioError> {
    let mut lines = Vec::new();
    let world = run(scenario, opts, |e| {
        lines.push(serde_json::to_string(e).expect("events serialize"));
    })?;
    let metadata = match (opts.metadata, opts.key_groups) {
        (false, _) => Metadata::Omitted,
        (true, false) => Metadata::Included,
        (true, true) => Metadata::WithKeyGroups,
    };
    let summary = Summary::of(&world, metadata);
    lines.push(serde_json::to_string(&summary).expect("summary serializes"));
    Ok((lines, world))
}
