//! The scenario document, contract v1 (scenario-format.md): the whole input of one
//! simulation — job graph, checkpoint configuration, restart strategy, input data and
//! a script of user actions. The same JSON is what the page imports, exports and puts
//! in a share link, what the built-in scenarios are written in, and what `lab` reads.
//!
//! # Layout
//! - this file: the document types, one per JSON object, with the contract's field
//!   names (snake_case) and defaults, plus small accessors that resolve defaults.
//! - [`validate`]: [`Scenario::validate`], every rule with the JSON path it blames.
//! - [`generate`]: [`PartitionSpec::materialize`], the seeded input generator.
//! - `repr` (private): the JSON shapes of the tagged types, read through flat
//!   structs so that every error keeps its field path.
//!
//! # Reading a document
//! [`Scenario::from_json`] parses (every struct and enum variant denies unknown
//! fields, so a typo is an error rather than a silently ignored setting; a bad field
//! is reported with its path, e.g. `job.operators[2].kind: unknown variant ...`) and
//! then validates. Serializing a [`Scenario`] gives a document that parses back to an
//! equal value (the page's export); optional fields that are absent are left out.
//!
//! # Errors
//! [`ScenarioError`] lists [`FieldError`]s, each naming a JSON path
//! (`job.edges[1].partitioning`, `checkpointing.interval_ms`, `script[0].task`) and
//! saying what is wrong, section by section in document order. Validation reports
//! every error it finds, not just the first.

pub mod generate;
pub mod points;
mod repr;
pub mod validate;

pub use crate::state::{ReduceFn, TtlConfig};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How deep `restore.from` may nest (a job restored from a job restored from …).
/// A lab limit: each level is a whole run.
pub const MAX_RESTORE_DEPTH: usize = 4;

/// The version of the contract this module reads. Flink has no such thing; a
/// scenario with another `version` is rejected.
pub const CONTRACT_VERSION: u32 = 1;

/// One scenario document (the JSON root).
///
/// Flink: no single class — the job graph (`StreamGraph`), `CheckpointConfig`, the
/// restart-strategy options and the input data of a real deployment, in one value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Contract version; must be [`CONTRACT_VERSION`].
    pub version: u32,
    /// Short identifier (`"odd-even-sum"`), echoed as `"scenario"` in the summary.
    pub name: String,
    /// Title shown by the page, in English and Chinese.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Localized>,
    /// Longer description shown by the page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Localized>,
    /// Seed of the one `ChaCha8Rng` of a run (`--seed` overrides it). Default 0.
    #[serde(default)]
    pub seed: u64,
    /// The job graph.
    pub job: Job,
    /// Checkpointing is on exactly when this is present (absent or `null`: off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpointing: Option<CheckpointingConfig>,
    /// Restart strategy; when absent see [`RestartConfig::effective`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart: Option<RestartConfig>,
    /// What a task failure restarts: its pipelined region (the default) or the
    /// whole job. Absent: `region`.
    #[serde(default, skip_serializing_if = "FailoverStrategy::is_region")]
    pub failover_strategy: FailoverStrategy,
    /// Scripted user actions, in any order (the engine schedules them by `at_ms`).
    #[serde(default)]
    pub script: Vec<ScriptStep>,
    /// Last simulated millisecond, inclusive. Absent: run until the job finishes, or
    /// 600000 ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_ms: Option<u64>,
    /// Lab extension: start this job from a snapshot of an earlier job, as
    /// `flink run -s <path> [-n]` does. Absent: a fresh start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore: Option<RestoreSpec>,
    /// Lab extension: the events the lesson is about ([`points`]), where the
    /// page's auto-pause stops. Not part of the job: the engine never reads them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<points::Point>,
}

/// Where a job's initial state comes from (lab extension of contract v1).
///
/// The earlier job is embedded whole, so one document describes the upgrade: the
/// lab runs `from` with this document's seed until it stops (stop-with-savepoint,
/// cancel, finish, failure) or reaches its own `until_ms`, picks `snapshot` among
/// what that run completed, and assigns its state to this document's job by
/// operator uid. This job's clock starts where the earlier run ended, its
/// checkpoint ids continue from the restored id + 1, and its sinks keep writing to
/// the external topic of the earlier sink with the same uid.
///
/// Flink: `flink run -s <savepoint> [--allowNonRestoredState]`,
/// `CheckpointCoordinator.restoreSavepoint`, `Checkpoints.loadAndValidateCheckpoint`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RestoreSpec {
    /// The earlier job (a whole scenario document; it may itself restore).
    pub from: Box<Scenario>,
    /// Which of its snapshots. Default `"latest"`.
    #[serde(default)]
    pub snapshot: SnapshotSelector,
    /// Skip state of operators this job no longer has instead of failing.
    /// Flink: `--allowNonRestoredState` (`-n`).
    #[serde(default)]
    pub allow_non_restored_state: bool,
    /// Who owns the restored snapshot from now on. Default `no_claim`.
    /// Flink: `-claimMode` (`execution.state-recovery.claim-mode`).
    #[serde(default)]
    pub claim_mode: ClaimMode,
}

/// Who owns the snapshot a job is started from. In JSON `"no_claim"` or `"claim"`.
///
/// Flink: `RecoveryClaimMode`; `CheckpointCoordinator.restoreSavepoint` adds the
/// snapshot to the job's completed-checkpoint store in both modes, with the job's
/// own checkpoint properties under `CLAIM` (so it is deleted once a newer
/// checkpoint subsumes it, or as the retention policy says when the job ends) and
/// `CheckpointProperties.forUnclaimedSnapshot()` under `NO_CLAIM` (never deleted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimMode {
    /// The user keeps the snapshot; Flink never deletes it (the default since 1.15).
    #[default]
    NoClaim,
    /// Flink takes the snapshot over as one of the job's checkpoints.
    Claim,
}

impl ClaimMode {
    /// As Flink's CLI and configuration spell it (`NO_CLAIM`, `CLAIM`).
    pub fn flink_name(self) -> &'static str {
        match self {
            ClaimMode::NoClaim => "NO_CLAIM",
            ClaimMode::Claim => "CLAIM",
        }
    }
}

/// Which snapshot of the earlier run a [`RestoreSpec`] restores. In JSON:
/// `"latest"`, `"latest_savepoint"`, `"latest_checkpoint"` or a number (an id).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    try_from = "repr::SnapshotSelectorRepr",
    into = "repr::SnapshotSelectorRepr"
)]
pub enum SnapshotSelector {
    /// The newest completed savepoint or retained checkpoint.
    #[default]
    Latest,
    /// The newest completed savepoint (or stop-with-savepoint).
    LatestSavepoint,
    /// The newest retained checkpoint (externalized: it survives the earlier job
    /// only as its retention policy allows).
    LatestCheckpoint,
    /// A savepoint or retained checkpoint by id.
    Id(u64),
}

/// A text in the page's languages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Localized {
    /// English.
    pub en: String,
    /// Simplified Chinese.
    pub zh: String,
    /// Traditional Chinese, generated from `zh` by `scripts/hant.cjs`; a file
    /// without it reads as Simplified.
    #[serde(rename = "zh-Hant", default, skip_serializing_if = "Option::is_none")]
    pub zh_hant: Option<String>,
}

impl Localized {
    /// The Traditional Chinese text, or the Simplified one where it is missing
    /// or blank.
    pub fn zh_hant_or_zh(&self) -> &str {
        self.zh_hant
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .unwrap_or(&self.zh)
    }
}

/// The job graph: operators and the edges between them.
///
/// Flink: `StreamGraph` (one node per operator, no chaining — contract,
/// Simplifications).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// Number of key groups of every operator, 1..=32768 (Flink:
    /// `pipeline.max-parallelism`, `env.setMaxParallelism`). `None` (not set): each
    /// operator derives its own from its parallelism, 128 up to parallelism 85, and
    /// takes the value a restored snapshot was taken with
    /// ([`crate::parallelism::MaxParallelism`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_parallelism: Option<u32>,
    /// The operators, in document order (which is also the order of the task table).
    pub operators: Vec<OperatorSpec>,
    /// The edges, in document order (which numbers input channels).
    pub edges: Vec<EdgeSpec>,
}

/// One operator of the job graph.
///
/// Flink: a `StreamNode` / its `Transformation`; `uid` is `Transformation#setUid`,
/// the key that maps savepoint state to operators.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperatorSpec {
    /// Unique, non-empty, without `#` (subtasks are named `"<uid>#<index>"`).
    pub uid: String,
    /// Display name; the page shows `uid` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What the operator does.
    pub kind: OperatorKind,
    /// Number of subtasks, 1..=`max_parallelism`; default 1.
    #[serde(default = "default_parallelism")]
    pub parallelism: u32,
    /// How long one record occupies a subtask; its output leaves when processing
    /// ends. Default 0.
    #[serde(default)]
    pub process_ms: u64,
    /// Sources only (required there, at least one): the replayable partitions, as
    /// Kafka partitions. Partition `p` starts on subtask `p mod parallelism`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partitions: Option<Vec<PartitionSpec>>,
    /// Sources only: at most one record per this many ms across the subtask's
    /// partitions; see [`OperatorSpec::emit_interval_ms`] for the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emit_interval_ms: Option<u64>,
    /// `map` and `filter` only (required there): the function applied.
    #[serde(default, rename = "fn", skip_serializing_if = "Option::is_none")]
    pub r#fn: Option<FnName>,
    /// `sink` only (required there): the delivery guarantee of the external system.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sink: Option<SinkKind>,
    /// `two_phase_commit` sinks only, at least 1: how long the external system lets a
    /// transaction stay uncommitted, counted from the first record written into it
    /// (Kafka's `transaction.timeout.ms`, which KafkaSink's producer sets); past it
    /// the broker aborts the transaction. `None`: no timeout. Extension of contract v1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transaction_timeout_ms: Option<u64>,
    /// `keyed_window_count` only (required there, at least 1): the length of its
    /// tumbling processing-time windows. Extension of contract v1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_ms: Option<u64>,
    /// `keyed_reduce` only (required there): the reduce function of its
    /// `ReducingState` (`sum`, `max`, `min`). Extension of contract v1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduce: Option<ReduceFn>,
    /// Operators with named keyed states only (`keyed_window_count`, `keyed_reduce`,
    /// `keyed_average`, `keyed_dedup`): time-to-live of their state descriptors
    /// (Flink: `StateDescriptor.enableTimeToLive(StateTtlConfig)`). Extension of
    /// contract v1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl: Option<TtlConfig>,
    /// `broadcast_filter` only: the uid of the operator whose records are rules; its
    /// edge to this operator must be `broadcast` (extension).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_from: Option<String>,
    /// Sources only: how the offsets list state is redistributed on a rescaled
    /// restore. Default `even_split` (contract v1; Flink's `getListState`); `union`
    /// gives every subtask all offsets and each keeps its own partitions, as the
    /// legacy `FlinkKafkaConsumer` does with `getUnionListState` (extension).
    #[serde(default, skip_serializing_if = "is_default")]
    pub offsets_state: ListStateMode,
}

fn default_parallelism() -> u32 {
    1
}

/// The default of [`OperatorSpec::emit_interval_ms`] (contract: "default 1").
pub const DEFAULT_EMIT_INTERVAL_MS: u64 = 1;

impl OperatorSpec {
    /// The effective emit interval of a source: the field, or
    /// [`DEFAULT_EMIT_INTERVAL_MS`] when absent.
    pub fn emit_interval_ms(&self) -> u64 {
        self.emit_interval_ms.unwrap_or(DEFAULT_EMIT_INTERVAL_MS)
    }

    /// Whether this operator is a source (it reads partitions, has no input).
    pub fn is_source(&self) -> bool {
        self.kind == OperatorKind::Source
    }

    /// Whether this operator is a sink (it writes to an external system, has no
    /// output edge).
    pub fn is_sink(&self) -> bool {
        self.kind == OperatorKind::Sink
    }

    /// Whether this operator keeps keyed state (and so needs `hash` input edges).
    pub fn is_keyed(&self) -> bool {
        matches!(self.kind, OperatorKind::KeyedCount | OperatorKind::KeyedSum)
            || self.kind.has_named_state()
    }

    /// The partitions of a source; empty for any other operator.
    pub fn partitions(&self) -> &[PartitionSpec] {
        self.partitions.as_deref().unwrap_or(&[])
    }

    /// The name of subtask `index`: `"<uid>#<index>"`.
    pub fn task_name(&self, index: u32) -> String {
        format!("{}#{}", self.uid, index)
    }

    /// The name the page shows: `name`, or `uid` when absent.
    pub fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.uid)
    }
}

/// Splits a subtask name `"<uid>#<index>"` into its uid and index. Only the
/// canonical spelling is accepted (`"sum#0"`, not `"sum#00"` or `"sum#+0"`), so a
/// name maps to exactly one subtask and back.
pub fn parse_task_name(task: &str) -> Option<(&str, u32)> {
    let (uid, index) = task.rsplit_once('#')?;
    let index_value: u32 = index.parse().ok()?;
    if uid.is_empty() || uid.contains('#') || index_value.to_string() != index {
        return None;
    }
    Some((uid, index_value))
}

/// The operator kinds of contract v1.
///
/// Flink: the user functions behind `DataStream#map`, `#filter`, a keyed
/// `ProcessFunction` with `ValueState`, `SourceFunction`/`Source`, `SinkFunction`/`Sink`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OperatorKind {
    /// Replayable log (Kafka-like); operator list state: offset per partition.
    Source,
    /// Stateless one-to-one function (`fn`: identity, double, parity_key).
    Map,
    /// Stateless predicate (`fn`: even, odd).
    Filter,
    /// Keyed `ValueState` count per key; emits `{key, count so far}`.
    KeyedCount,
    /// Keyed `ValueState` sum per key; emits `{key, sum so far}`.
    KeyedSum,
    /// Tumbling processing-time window count per key on a `ListState` (extension);
    /// see [`crate::operators`].
    KeyedWindowCount,
    /// `ReducingState` per key with the `reduce` function (extension); emits the
    /// reduced value.
    KeyedReduce,
    /// `AggregatingState` per key: `(sum, count)` → average (extension); emits it.
    KeyedAverage,
    /// `MapState` per key of the values seen (extension); drops a value already seen
    /// for its key.
    KeyedDedup,
    /// Filters its main input by rules that arrive on a second, broadcast input
    /// (`rules_from`) and are kept in broadcast state (extension): a rule record
    /// `{key: "min"|"max", value}` sets a bound; a main record passes when it is
    /// within every bound set. Flink: `BroadcastProcessFunction` with a
    /// `MapStateDescriptor` — the "dynamic configuration" pattern.
    BroadcastFilter,
    /// Writes to an external system with the guarantee of its `sink` kind.
    Sink,
}

impl OperatorKind {
    /// The contract's spelling (`"keyed_sum"`), for messages.
    pub fn as_str(self) -> &'static str {
        match self {
            OperatorKind::Source => "source",
            OperatorKind::Map => "map",
            OperatorKind::Filter => "filter",
            OperatorKind::KeyedCount => "keyed_count",
            OperatorKind::KeyedSum => "keyed_sum",
            OperatorKind::KeyedWindowCount => "keyed_window_count",
            OperatorKind::KeyedReduce => "keyed_reduce",
            OperatorKind::KeyedAverage => "keyed_average",
            OperatorKind::KeyedDedup => "keyed_dedup",
            OperatorKind::BroadcastFilter => "broadcast_filter",
            OperatorKind::Sink => "sink",
        }
    }

    /// Whether the operator keeps named keyed states in a
    /// [`crate::state::KeyedStateStore`] (the kinds added with the state model; they
    /// take `ttl`).
    pub fn has_named_state(self) -> bool {
        matches!(
            self,
            OperatorKind::KeyedWindowCount
                | OperatorKind::KeyedReduce
                | OperatorKind::KeyedAverage
                | OperatorKind::KeyedDedup
        )
    }
}

/// The function of a `map` or `filter` operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FnName {
    /// map: the record unchanged.
    Identity,
    /// map: value × 2, key unchanged.
    Double,
    /// map: key := `"odd"` or `"even"` by value, value unchanged.
    ParityKey,
    /// filter: keeps even values.
    Even,
    /// filter: keeps odd values.
    Odd,
}

impl FnName {
    /// The contract's spelling (`"parity_key"`), for messages.
    pub fn as_str(self) -> &'static str {
        match self {
            FnName::Identity => "identity",
            FnName::Double => "double",
            FnName::ParityKey => "parity_key",
            FnName::Even => "even",
            FnName::Odd => "odd",
        }
    }

    /// Whether this is a `map` function (identity, double, parity_key).
    pub fn is_map_fn(self) -> bool {
        matches!(self, FnName::Identity | FnName::Double | FnName::ParityKey)
    }

    /// Whether this is a `filter` predicate (even, odd).
    pub fn is_filter_fn(self) -> bool {
        matches!(self, FnName::Even | FnName::Odd)
    }
}

/// The delivery guarantee of a sink's external system.
///
/// Flink: `TwoPhaseCommitSinkFunction` / `KafkaSink` with `EXACTLY_ONCE`; an
/// idempotent upsert sink; `KafkaSink` with `AT_LEAST_ONCE` (docs/flink-semantics.md §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SinkKind {
    /// Transactions: begun per checkpoint, pre-committed at the snapshot, committed
    /// when the checkpoint completes.
    TwoPhaseCommit,
    /// Upserts by key: replays overwrite with the same value.
    Idempotent,
    /// Writes immediately; replays duplicate.
    AtLeastOnce,
}

/// One partition of a source: explicit records or a generator.
/// Externally tagged: `{"records": [...]}` or `{"generate": {...}}`.
///
/// Flink: a Kafka partition (a replayable log whose offset is the source's state).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "repr::PartitionRepr", into = "repr::PartitionRepr")]
pub enum PartitionSpec {
    /// The records, in log order (offset = index).
    Records(Vec<RecordSpec>),
    /// A seeded generator; see [`PartitionSpec::materialize`].
    Generate(GenerateSpec),
}

/// One input record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordSpec {
    /// When the record is due: the source emits it no earlier.
    pub at_ms: u64,
    /// The value.
    pub value: i64,
    /// The key; a record without one fails a task that routes it over a `hash` edge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// A generated partition: record `i` (from 0) is due at `every_ms × (i + 1)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateSpec {
    /// Number of records.
    pub count: u64,
    /// Spacing of due times, at least 1.
    pub every_ms: u64,
    /// Keys drawn uniformly per record; records have no key when absent. Non-empty
    /// when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys: Option<Vec<String>>,
    /// How values are chosen.
    pub values: ValuesKind,
}

/// How a generator chooses values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValuesKind {
    /// Record `i` has value `i + 1`.
    Sequence,
    /// Uniform in 1..=100.
    Random,
}

/// One edge of the job graph: every upstream subtask is joined to the downstream
/// subtasks its partitioning reaches, one channel per pair.
///
/// Flink: `StreamEdge` with its `StreamPartitioner`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeSpec {
    /// Upstream operator uid.
    pub from: String,
    /// Downstream operator uid.
    pub to: String,
    /// How records are routed. When absent, Flink's default: `forward` if both
    /// sides have the same parallelism, else `rebalance` (see
    /// [`EdgeSpec::resolved_partitioning`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partitioning: Option<Partitioning>,
    /// Fixed channel delay, FIFO. Default 1.
    #[serde(default = "default_latency_ms")]
    pub latency_ms: u64,
    /// Records a channel holds (in transit or waiting at the receiver), at least 1.
    /// Default 8.
    #[serde(default = "default_buffer_capacity")]
    pub buffer_capacity: u32,
}

fn default_latency_ms() -> u64 {
    1
}

fn default_buffer_capacity() -> u32 {
    8
}

impl EdgeSpec {
    /// The partitioning in effect: the field, or Flink's default when absent —
    /// `forward` when `from` and `to` have the same parallelism, `rebalance`
    /// otherwise. An edge naming an unknown operator (rejected by validation)
    /// resolves to `rebalance`.
    ///
    /// Flink: `StreamGraph.addEdgeInternal` (`ForwardPartitioner` if the
    /// parallelisms match, else `RebalancePartitioner`).
    pub fn resolved_partitioning(&self, job: &Job) -> Partitioning {
        if let Some(partitioning) = self.partitioning {
            return partitioning;
        }
        match (job.operator(&self.from), job.operator(&self.to)) {
            (Some(from), Some(to)) if from.parallelism == to.parallelism => Partitioning::Forward,
            _ => Partitioning::Rebalance,
        }
    }
}

/// How an edge routes records.
///
/// Flink: `ForwardPartitioner`, `KeyGroupStreamPartitioner`, `RebalancePartitioner`,
/// `BroadcastPartitioner`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Partitioning {
    /// Subtask i → subtask i; equal parallelism required.
    Forward,
    /// By key group of the record's key ([`crate::keygroup`]).
    Hash,
    /// Round-robin per sender.
    Rebalance,
    /// Every record to every downstream subtask.
    Broadcast,
}

impl Partitioning {
    /// The contract's spelling, for messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Partitioning::Forward => "forward",
            Partitioning::Hash => "hash",
            Partitioning::Rebalance => "rebalance",
            Partitioning::Broadcast => "broadcast",
        }
    }
}

impl Job {
    /// The operator with this uid (the first, should validation have been skipped).
    pub fn operator(&self, uid: &str) -> Option<&OperatorSpec> {
        self.operators.iter().find(|op| op.uid == uid)
    }

    /// The position of the operator with this uid in [`Job::operators`].
    pub fn operator_index(&self, uid: &str) -> Option<usize> {
        self.operators.iter().position(|op| op.uid == uid)
    }

    /// The edges ending at `uid`, in document order (the order that numbers a
    /// subtask's input channels), with their index in [`Job::edges`].
    pub fn incoming_edges<'a>(
        &'a self,
        uid: &'a str,
    ) -> impl Iterator<Item = (usize, &'a EdgeSpec)> + 'a {
        self.edges
            .iter()
            .enumerate()
            .filter(move |(_, e)| e.to == uid)
    }

    /// The edges starting at `uid`, in document order, with their index.
    pub fn outgoing_edges<'a>(
        &'a self,
        uid: &'a str,
    ) -> impl Iterator<Item = (usize, &'a EdgeSpec)> + 'a {
        self.edges
            .iter()
            .enumerate()
            .filter(move |(_, e)| e.from == uid)
    }
}

/// Checkpointing configuration; present means checkpointing is on.
///
/// Flink: `CheckpointConfig` / `execution.checkpointing.*` options and the state
/// backend / checkpoint storage choice (docs/flink-semantics.md §1.1, §7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointingConfig {
    /// Barrier handling: aligned exactly-once or the at-least-once tracker. Default
    /// `exactly_once`. Flink: `execution.checkpointing.mode`.
    #[serde(default)]
    pub mode: CheckpointingMode,
    /// Unaligned checkpoints; requires `exactly_once` and `max_concurrent = 1`.
    /// Default false. Flink: `execution.checkpointing.unaligned.enabled`.
    #[serde(default)]
    pub unaligned: bool,
    /// With `unaligned`: start aligned and switch to unaligned after this long
    /// (`null` or 0: unaligned from the start). Ignored, with a warning, without
    /// `unaligned`. Flink: `execution.checkpointing.aligned-checkpoint-timeout`.
    #[serde(default)]
    pub aligned_checkpoint_timeout_ms: Option<u64>,
    /// Period of the periodic trigger, at least 10; `null`: manual triggers only
    /// (a lab extension, see Simplifications). Raised to `min_pause_ms` when below
    /// it ([`CheckpointingConfig::effective_interval_ms`]).
    /// Flink: `execution.checkpointing.interval`.
    #[serde(default)]
    pub interval_ms: Option<u64>,
    /// When the first periodic checkpoint is triggered, in ms after the job's
    /// first start (every task running); later triggers follow every interval.
    /// Default: `min_pause_ms`, the delay Flink 2.3 applies then
    /// (`CheckpointCoordinator.startCheckpointScheduler`, docs/flink-semantics.md
    /// §1.3). Requires `interval_ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_trigger_ms: Option<u64>,
    /// A pending checkpoint not acknowledged within this is aborted (`expired`), at
    /// least 10. Default 600000. Flink: `execution.checkpointing.timeout`.
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
    /// Minimum time from a checkpoint's completion to the next periodic trigger.
    /// Default 0. Flink: `execution.checkpointing.min-pause`.
    #[serde(default)]
    pub min_pause_ms: u64,
    /// Maximum pending checkpoints, at least 1. Default 1.
    /// Flink: `execution.checkpointing.max-concurrent-checkpoints`.
    #[serde(default = "default_one")]
    pub max_concurrent: u32,
    /// Consecutive counted checkpoint failures tolerated before a failover.
    /// Default 0. Flink: `execution.checkpointing.tolerable-failed-checkpoints`.
    #[serde(default)]
    pub tolerable_failures: u32,
    /// Completed checkpoints kept, at least 1. Default 1.
    /// Flink: `execution.checkpointing.num-retained`.
    #[serde(default = "default_one")]
    pub retained: u32,
    /// Where snapshots go. Default `filesystem` (as if a checkpoint directory were
    /// configured; Flink's own default without one is `jobmanager`).
    #[serde(default)]
    pub storage: StorageKind,
    /// With `jobmanager` storage: a subtask snapshot above this many bytes is
    /// declined. Default 5242880. Flink: `JobManagerCheckpointStorage`'s
    /// `maxStateSize` (5 MiB).
    #[serde(default = "default_max_state_bytes")]
    pub max_state_bytes: u64,
    /// State backend. Default `hashmap`. Flink: `state.backend.type`.
    #[serde(default)]
    pub backend: BackendKind,
    /// Duration of a snapshot's asynchronous phase (upload). Default 0.
    #[serde(default)]
    pub async_ms: u64,
    /// Lab extension: checkpoints after tasks finish (FLIP-147). Default true.
    /// Flink: `execution.checkpointing.checkpoints-after-tasks-finish`.
    #[serde(default = "default_true")]
    pub checkpoints_after_tasks_finish: bool,
    /// What happens to retained checkpoints when the job ends. Default `"none"`.
    /// Flink: `execution.checkpointing.externalized-checkpoint-retention`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub externalized: Externalized,
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// How a list state is redistributed when the parallelism changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListStateMode {
    /// `getListState`: contiguous chunks of the concatenated lists (Flink's
    /// `SPLIT_DISTRIBUTE`).
    #[default]
    EvenSplit,
    /// `getUnionListState`: every subtask gets every element (Flink's `UNION`).
    Union,
}

/// Retention of completed checkpoints after the job ends (docs/flink-semantics.md §1.7).
/// Savepoints are never deleted.
///
/// Flink: `ExternalizedCheckpointRetention` mapped to `CheckpointRetentionPolicy`
/// (`StreamGraph.createJobCheckpointingSettingsInternal`) and applied by
/// `DefaultCompletedCheckpointStore.shutdown`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Externalized {
    /// `NO_EXTERNALIZED_CHECKPOINTS`: deleted when the job finishes, is canceled or fails.
    #[default]
    None,
    /// `DELETE_ON_CANCELLATION` (policy `RETAIN_ON_FAILURE`): kept only when the job fails.
    DeleteOnCancellation,
    /// `RETAIN_ON_CANCELLATION`: kept when the job is canceled or fails; deleted when it finishes.
    RetainOnCancellation,
}

impl Externalized {
    /// Whether retained checkpoints are deleted when the job reaches `status`
    /// (`"finished"`, `"canceled"`, `"failed"`).
    pub fn discards_on(self, status: &str) -> bool {
        matches!(
            (self, status),
            (_, "finished")
                | (Externalized::None, _)
                | (Externalized::DeleteOnCancellation, "canceled")
        )
    }
}

fn default_timeout_ms() -> u64 {
    600_000
}

fn default_one() -> u32 {
    1
}

fn default_max_state_bytes() -> u64 {
    5_242_880
}

fn default_true() -> bool {
    true
}

/// The smallest checkpoint interval and timeout. Flink:
/// `CheckpointConfig.MINIMAL_CHECKPOINT_TIME`.
pub const MINIMAL_CHECKPOINT_TIME_MS: u64 = 10;

impl Default for CheckpointingConfig {
    /// Every field at the contract's default (`{}` in JSON).
    fn default() -> Self {
        CheckpointingConfig {
            mode: CheckpointingMode::default(),
            unaligned: false,
            aligned_checkpoint_timeout_ms: None,
            interval_ms: None,
            first_trigger_ms: None,
            timeout_ms: default_timeout_ms(),
            min_pause_ms: 0,
            max_concurrent: 1,
            tolerable_failures: 0,
            retained: 1,
            storage: StorageKind::default(),
            max_state_bytes: default_max_state_bytes(),
            backend: BackendKind::default(),
            async_ms: 0,
            checkpoints_after_tasks_finish: true,
            externalized: Externalized::None,
        }
    }
}

impl CheckpointingConfig {
    /// The period of periodic checkpoints in effect: `interval_ms` raised to
    /// `min_pause_ms` when below it; `None` when there are no periodic checkpoints.
    ///
    /// Flink: `CheckpointCoordinator`'s constructor (`if (baseInterval <
    /// minPauseBetweenCheckpoints) baseInterval = minPauseBetweenCheckpoints`).
    pub fn effective_interval_ms(&self) -> Option<u64> {
        self.interval_ms
            .map(|interval| interval.max(self.min_pause_ms))
    }

    /// The aligned-checkpoint timeout in effect: only with unaligned checkpoints, and
    /// `None` for 0 (unaligned from the start), as in Flink.
    pub fn effective_aligned_checkpoint_timeout_ms(&self) -> Option<u64> {
        match self.aligned_checkpoint_timeout_ms {
            Some(timeout) if self.unaligned && timeout > 0 => Some(timeout),
            _ => None,
        }
    }
}

/// Checkpointing mode. Flink: `CheckpointingMode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckpointingMode {
    /// Aligned (or unaligned) barriers: `SingleCheckpointBarrierHandler`.
    #[default]
    ExactlyOnce,
    /// No alignment: `CheckpointBarrierTracker`.
    AtLeastOnce,
}

/// Checkpoint storage. Flink: `JobManagerCheckpointStorage`,
/// `FileSystemCheckpointStorage`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StorageKind {
    /// Snapshots held in the JobManager's memory, each limited to `max_state_bytes`.
    Jobmanager,
    /// Snapshots written to a checkpoint directory.
    #[default]
    Filesystem,
}

/// State backend. Flink: `HashMapStateBackend`, `EmbeddedRocksDBStateBackend`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    /// Heap state, full snapshots.
    #[default]
    Hashmap,
    /// RocksDB with incremental checkpoints (shared files).
    Rocksdb,
}

/// What a task failure restarts. In JSON `"region"` (the default) or `"full"`.
///
/// Flink: `jobmanager.execution.failover-strategy` (`JobManagerOptions.
/// EXECUTION_FAILOVER_STRATEGY`, default `region`): `RestartPipelinedRegionFailoverStrategy`
/// restarts the pipelined region of the failed task, `RestartAllFailoverStrategy`
/// every task.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailoverStrategy {
    /// Restart the failed task's pipelined region
    /// ([`crate::job_graph::JobGraph::pipelined_regions`]).
    #[default]
    Region,
    /// Restart every task.
    Full,
}

impl FailoverStrategy {
    /// Whether it is the default, `region` (left out when a scenario is written).
    pub fn is_region(&self) -> bool {
        *self == FailoverStrategy::Region
    }

    /// As Flink's configuration spells it (`region`, `full`).
    pub fn flink_name(self) -> &'static str {
        match self {
            FailoverStrategy::Region => "region",
            FailoverStrategy::Full => "full",
        }
    }
}

/// A restart strategy, as configured. Internally tagged by `"strategy"`. The
/// running state machine is [`crate::restart::RestartStrategy`].
///
/// Flink: `restart-strategy.type` and its options (`RestartStrategyOptions`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "repr::RestartConfigRepr", into = "repr::RestartConfigRepr")]
pub enum RestartConfig {
    /// Never restart: the first failure fails the job.
    /// Flink: `NoRestartBackoffTimeStrategy`.
    None,
    /// Restart failures 1..=`attempts` after `delay_ms` each; the next is fatal.
    /// Flink: `FixedDelayRestartBackoffTimeStrategy`.
    FixedDelay {
        /// Restarts allowed (0: the first failure is fatal).
        attempts: u32,
        /// Delay before each restart.
        delay_ms: u64,
    },
    /// Restart unless this is the (`max_failures` + 1)-th failure within
    /// `interval_ms`. Flink: `FailureRateRestartBackoffTimeStrategy`.
    FailureRate {
        /// Failures tolerated per interval, at least 1.
        max_failures: u32,
        /// The window, at least 1 ms.
        interval_ms: u64,
        /// Delay before each restart.
        delay_ms: u64,
    },
    /// Delay `min(max_ms, floor(initial_ms × multiplier^k))` for the k-th restart
    /// since the last reset, no jitter. Flink: `ExponentialDelayRestartBackoffTimeStrategy`.
    ExponentialDelay {
        /// First delay, at least 1 and at most `max_ms`.
        initial_ms: u64,
        /// Largest delay, at least 1.
        max_ms: u64,
        /// Growth factor, above 1 (a decimal such as 1.5 or 2.3).
        multiplier: f64,
        /// Failure-free time after which the delay resets to `initial_ms`, at least 1.
        /// Default 3600000.
        reset_threshold_ms: u64,
        /// Restarts before giving up, counted since the last reset, at least 1;
        /// `None`: unlimited (Flink: `Integer.MAX_VALUE`).
        attempts: Option<u32>,
    },
}

/// Flink's defaults for the exponential-delay strategy, the default while
/// checkpointing is on: 1000 ms, 60000 ms, 1.5, reset after 3600000 ms, unlimited.
/// Flink: `RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_*`.
pub const DEFAULT_EXPONENTIAL_DELAY: RestartConfig = RestartConfig::ExponentialDelay {
    initial_ms: 1_000,
    max_ms: 60_000,
    multiplier: 1.5,
    reset_threshold_ms: DEFAULT_RESET_THRESHOLD_MS,
    attempts: None,
};

/// Default `reset_threshold_ms` of the exponential-delay strategy (1 hour).
pub const DEFAULT_RESET_THRESHOLD_MS: u64 = 3_600_000;

impl RestartConfig {
    /// The strategy in effect for a configured one (`configured`), or, when absent,
    /// the contract's default: [`DEFAULT_EXPONENTIAL_DELAY`] while checkpointing is
    /// on, [`RestartConfig::None`] while it is off.
    ///
    /// Flink: `RestartBackoffTimeStrategyFactoryLoader` (no strategy configured).
    pub fn effective(configured: Option<&RestartConfig>, checkpointing_on: bool) -> RestartConfig {
        match configured {
            Some(config) => config.clone(),
            None if checkpointing_on => DEFAULT_EXPONENTIAL_DELAY,
            None => RestartConfig::None,
        }
    }

    /// The contract's spelling of the strategy (`"fixed_delay"`), for messages.
    pub fn strategy_name(&self) -> &'static str {
        match self {
            RestartConfig::None => "none",
            RestartConfig::FixedDelay { .. } => "fixed_delay",
            RestartConfig::FailureRate { .. } => "failure_rate",
            RestartConfig::ExponentialDelay { .. } => "exponential_delay",
        }
    }
}

/// One scripted user action. Internally tagged by `"action"`; every action has an
/// `at_ms`. An action falling while the job is not running is recorded as ignored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "repr::ScriptStepRepr", into = "repr::ScriptStepRepr")]
pub enum ScriptStep {
    /// Fail a subtask (`"<uid>#<index>"`); the whole job fails over.
    Crash {
        /// When.
        at_ms: u64,
        /// The subtask that fails.
        task: String,
    },
    /// Trigger a checkpoint now (as a click on the page would).
    /// Flink: `CheckpointCoordinator#triggerCheckpoint`.
    TriggerCheckpoint {
        /// When.
        at_ms: u64,
    },
    /// Trigger a savepoint. Flink: `flink savepoint`.
    Savepoint {
        /// When.
        at_ms: u64,
    },
    /// Take a savepoint and stop the job. Flink: `flink stop`.
    StopWithSavepoint {
        /// When.
        at_ms: u64,
    },
    /// Cancel the job. Flink: `flink cancel`.
    Cancel {
        /// When.
        at_ms: u64,
    },
    /// Lab extension: the JobManager process dies and a new leader recovers the job.
    /// With `jobmanager` checkpoint storage the completed checkpoints lived in the
    /// dead process's memory and are gone (the job starts from scratch); with
    /// `filesystem` storage they survive and the job restores the latest.
    CrashJobmanager {
        /// When.
        at_ms: u64,
    },
}

impl ScriptStep {
    /// When the action happens.
    pub fn at_ms(&self) -> u64 {
        match self {
            ScriptStep::Crash { at_ms, .. }
            | ScriptStep::TriggerCheckpoint { at_ms }
            | ScriptStep::Savepoint { at_ms }
            | ScriptStep::StopWithSavepoint { at_ms }
            | ScriptStep::Cancel { at_ms }
            | ScriptStep::CrashJobmanager { at_ms } => *at_ms,
        }
    }

    /// The contract's spelling of the action (`"trigger_checkpoint"`).
    pub fn action_name(&self) -> &'static str {
        match self {
            ScriptStep::Crash { .. } => "crash",
            ScriptStep::TriggerCheckpoint { .. } => "trigger_checkpoint",
            ScriptStep::Savepoint { .. } => "savepoint",
            ScriptStep::StopWithSavepoint { .. } => "stop_with_savepoint",
            ScriptStep::Cancel { .. } => "cancel",
            ScriptStep::CrashJobmanager { .. } => "crash_jobmanager",
        }
    }
}

impl Scenario {
    /// Parses and validates a scenario document. Warnings are dropped; use
    /// [`Scenario::from_json_with_warnings`] to keep them.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        Scenario::from_json_with_warnings(text).map(|(scenario, _)| scenario)
    }

    /// Parses and validates a scenario document, returning the validation warnings
    /// (for the summary's `warnings`) with it.
    pub fn from_json_with_warnings(text: &str) -> Result<(Scenario, Vec<String>), ScenarioError> {
        let scenario = Scenario::parse(text)?;
        let warnings = scenario.validate()?;
        Ok((scenario, warnings))
    }

    /// Parses a scenario document without validating it: only JSON syntax, the
    /// shape, the types and unknown fields are checked. The one error names the path
    /// of the offending field (`job.operators[2].kind`).
    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let scenario: Scenario =
            serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
                let field = err.path().to_string();
                // serde_path_to_error says "." for the root and "?" where no key was read yet.
                let field = if field == "." || field.ends_with('?') {
                    field.trim_end_matches(['.', '?']).to_string()
                } else {
                    field
                };
                let message = if err.inner().is_syntax() || err.inner().is_eof() {
                    format!("not valid JSON: {}", err.inner())
                } else {
                    err.inner().to_string()
                };
                ScenarioError::single(field, message)
            })?;
        // Trailing characters after the document (`{...} x`) are an error too.
        deserializer
            .end()
            .map_err(|err| ScenarioError::single(String::new(), err.to_string()))?;
        Ok(scenario)
    }

    /// Serializes to compact JSON (the page's export, a share link's payload).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a Scenario always serializes")
    }

    /// The checkpoint configuration in effect: the `checkpointing` section, or its
    /// defaults when checkpointing is off (what the unused settings would be).
    pub fn checkpoint_config(&self) -> CheckpointingConfig {
        self.checkpointing.clone().unwrap_or_default()
    }

    /// Whether checkpointing is on (the `checkpointing` object is present).
    pub fn is_checkpointing_enabled(&self) -> bool {
        self.checkpointing.is_some()
    }

    /// The restart strategy in effect (see [`RestartConfig::effective`]).
    pub fn effective_restart(&self) -> RestartConfig {
        RestartConfig::effective(self.restart.as_ref(), self.is_checkpointing_enabled())
    }

    /// The longest a two-phase-commit sink's transaction can stay uncommitted under
    /// this configuration, as the lab estimates it (scenario-format.md, "Transaction
    /// timeout"): a transaction opened at one checkpoint is pre-committed at the next
    /// trigger and committed when that checkpoint completes; up to
    /// `tolerable_failures` checkpoints in a row may fail (expire) before the job fails
    /// over, and after the restart delay the restore commits it. So
    /// `(tolerable_failures + 1) × (interval + timeout_ms) + restart delay`, with the
    /// interval in effect (`max(interval_ms, min_pause_ms)`) and the longest delay of
    /// the restart strategy (0 for `none`). `None`: no bound — checkpointing off or
    /// no periodic checkpoints, so only a manual checkpoint commits.
    pub fn longest_uncommitted_ms(&self) -> Option<u64> {
        let config = self.checkpointing.as_ref()?;
        let interval = config.interval_ms?.max(config.min_pause_ms);
        let attempts = u64::from(config.tolerable_failures).saturating_add(1);
        let restart = match self.effective_restart() {
            RestartConfig::None => 0,
            RestartConfig::FixedDelay { delay_ms, .. }
            | RestartConfig::FailureRate { delay_ms, .. } => delay_ms,
            RestartConfig::ExponentialDelay { max_ms, .. } => max_ms,
        };
        Some(
            attempts
                .saturating_mul(interval.saturating_add(config.timeout_ms))
                .saturating_add(restart),
        )
    }
}

/// One thing wrong with a document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldError {
    /// JSON path of the offending field, e.g. `job.edges[1].partitioning`; empty for
    /// the document as a whole (a syntax error, a missing top-level field).
    pub field: String,
    /// What is wrong, in a sentence.
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

/// A document that cannot be run: one or more [`FieldError`]s, in document order.
/// `Display` prints one `field: message` line per error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioError {
    /// The errors; never empty.
    pub errors: Vec<FieldError>,
}

impl ScenarioError {
    /// One error blaming `field`.
    pub(crate) fn single(field: impl Into<String>, message: String) -> ScenarioError {
        ScenarioError {
            errors: vec![FieldError {
                field: field.into(),
                message,
            }],
        }
    }

    /// These errors as found inside the field `prefix` (a nested document):
    /// `job.edges[0]` becomes `<prefix>.job.edges[0]`, the document itself `<prefix>`.
    pub(crate) fn under(self, prefix: &str) -> ScenarioError {
        ScenarioError {
            errors: self
                .errors
                .into_iter()
                .map(|e| FieldError {
                    field: if e.field.is_empty() {
                        prefix.to_string()
                    } else {
                        format!("{prefix}.{}", e.field)
                    },
                    message: e.message,
                })
                .collect(),
        }
    }

    /// Whether some error blames exactly this path.
    pub fn has_field(&self, field: &str) -> bool {
        self.errors.iter().any(|e| e.field == field)
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, error) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ScenarioError {}
