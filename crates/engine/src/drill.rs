//! The interview drill's exercises: a question about one lesson, asked on a
//! **fresh variant** of it (another seed, crash time, checkpoint interval, channel
//! latency, restart budget, state TTL or parallelism, drawn from a variant seed),
//! whose answer the engine computes by running that variant — so a class cannot
//! copy answers, and the answer is the simulation's, never a number typed into a
//! file.
//!
//! An [`Exercise`] carries the variant scenario (the page runs it as it runs any
//! lesson), the question's parameters, the moment that shows why (a simulated
//! time), and one or more [`Blank`]s with the engine's [`Answer`]. [`check`]
//! marks a learner's answers against them.
//!
//! Each [`Kind`] draws its parameters inside ranges where the exercise still
//! shows its effect (the crash falls after chk-1 completes, duplicates exist, the
//! job does fail, the TTL decides a repeat, the broadcast copies hold a rule); a
//! draw that misses is redrawn, and explicit parameters that miss are refused
//! with a message naming the parameter ([`DrillError`]).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::event::{Event, TraceEvent};
use crate::record::Origin;
use crate::runner::DEFAULT_LIMIT_MS;
use crate::scenario::{PartitionSpec, RestartConfig, Scenario, ScriptStep};
use crate::summary::{Metadata, Summary};
use crate::world::World;

mod checkpoint_expiry;
mod checkpoint_phases;
mod claim_mode_snapshot;
mod incremental_upload;
mod last_ack;
mod ranges;
mod read_committed_after_crash;
mod rescale_assignment;
mod restart_delays;
mod state;
mod state_kinds;
mod txn_timeout;
mod uid_restore;
mod unaligned_persisted;

/// An exercise's parameters by name (`"interval_ms"`, `"crash_ms"`, …).
pub type Params = BTreeMap<String, u64>;

/// What an exercise asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Which offset does chk-N store, and which counts with it? (pv-count)
    StoredOffset,
    /// After the crash at t, which checkpoint is restored, and what are the sums?
    /// (odd-even-sum)
    RestoredSums,
    /// Which records wait in the blocked channel's input queue during alignment?
    /// (barrier-alignment)
    AlignmentWaiting,
    /// How many outputs does the at-least-once sink write twice? (at-least-once-duplicates)
    AtLeastOnceDuplicates,
    /// Which transactions has the two-phase-commit sink committed by t?
    /// (exactly-once-kafka)
    CommittedTransactions,
    /// How many restarts before the job fails, and at which crash? (restart-fixed-delay)
    RestartsBeforeFailure,
    /// At which of its arrivals does the de-duplication let a repeated value
    /// through, with a TTL of T ms? (state-types)
    TtlPasses,
    /// How many copies of the broadcast state does chk-N store, and how many rules
    /// does each hold? (broadcast-rules)
    BroadcastCopies,
    /// The delay before each restart under exponential delay, four crashes.
    /// (restart-exponential-delay)
    RestartDelays,
    /// How many in-flight records does an unaligned checkpoint persist on one input
    /// channel? (unaligned-backpressure)
    UnalignedPersisted,
    /// After the crash, how many records has a `read_committed` consumer of the
    /// sink's topic read by t, and a `read_uncommitted` one? (exactly-once-kafka)
    ReadCommittedAfterCrash,
    /// Is the transaction open longest committed, or aborted by the broker's
    /// transaction timeout first? (kafka-transaction-timeout)
    TxnTimeout,
    /// When does chk-N complete, and whose acknowledgement completes it?
    /// (exactly-once-kafka)
    LastAck,
    /// At one subtask: does the barrier leave before the snapshot, when does it
    /// leave, and when does the subtask acknowledge? (odd-even-sum)
    CheckpointPhases,
    /// Which snapshots are still on disk at t, under CLAIM and under NO_CLAIM,
    /// for a job started from a retained checkpoint? (restore-claim)
    ClaimModeSnapshot,
    /// Which operators get their state from the savepoint after uids change, and
    /// does the restore fail without `--allowNonRestoredState`? (savepoint-upgrade)
    UidRestore,
    /// Which checkpoints expire under the timeout, and does the job fail over
    /// past the tolerable failures? (checkpoint-config)
    CheckpointExpiry,
    /// After a rescale from a savepoint, which partitions does a source subtask
    /// restore, and which subtask owns a key's count? (savepoint-rescale)
    RescaleAssignment,
    /// How many entries does an incremental checkpoint upload as new, and which
    /// shared files does it refer to? (state-backend-rocksdb)
    IncrementalUpload,
    /// Which of the states chk-N stores are keyed, which operator state?
    /// (state-types)
    StateKinds,
}

/// A parameter an exercise draws: its name and inclusive range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// The parameter's name.
    pub name: &'static str,
    /// Least value.
    pub min: u64,
    /// Greatest value.
    pub max: u64,
}

impl Kind {
    /// Every kind, in the order the notes' questions meet them.
    pub const ALL: [Kind; 20] = [
        Kind::StoredOffset,
        Kind::RestoredSums,
        Kind::AlignmentWaiting,
        Kind::AtLeastOnceDuplicates,
        Kind::CommittedTransactions,
        Kind::RestartsBeforeFailure,
        Kind::TtlPasses,
        Kind::BroadcastCopies,
        Kind::RestartDelays,
        Kind::UnalignedPersisted,
        Kind::ReadCommittedAfterCrash,
        Kind::TxnTimeout,
        Kind::LastAck,
        Kind::CheckpointPhases,
        Kind::ClaimModeSnapshot,
        Kind::UidRestore,
        Kind::CheckpointExpiry,
        Kind::RescaleAssignment,
        Kind::IncrementalUpload,
        Kind::StateKinds,
    ];

    /// The kind's name in data files (`"stored_offset"`).
    pub fn key(self) -> &'static str {
        match self {
            Kind::StoredOffset => "stored_offset",
            Kind::RestoredSums => "restored_sums",
            Kind::AlignmentWaiting => "alignment_waiting",
            Kind::AtLeastOnceDuplicates => "at_least_once_duplicates",
            Kind::CommittedTransactions => "committed_transactions",
            Kind::RestartsBeforeFailure => "restarts_before_failure",
            Kind::TtlPasses => "ttl_passes",
            Kind::BroadcastCopies => "broadcast_copies",
            Kind::RestartDelays => "restart_delays",
            Kind::UnalignedPersisted => "unaligned_persisted",
            Kind::ReadCommittedAfterCrash => "read_committed_after_crash",
            Kind::TxnTimeout => "txn_timeout",
            Kind::LastAck => "last_ack",
            Kind::CheckpointPhases => "checkpoint_phases",
            Kind::ClaimModeSnapshot => "claim_mode_snapshot",
            Kind::UidRestore => "uid_restore",
            Kind::CheckpointExpiry => "checkpoint_expiry",
            Kind::RescaleAssignment => "rescale_assignment",
            Kind::IncrementalUpload => "incremental_upload",
            Kind::StateKinds => "state_kinds",
        }
    }

    /// The kind named `key`.
    pub fn from_key(key: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.key() == key)
    }

    /// The built-in lesson whose variants the exercise draws.
    pub fn lesson(self) -> &'static str {
        match self {
            Kind::StoredOffset => "pv-count",
            Kind::RestoredSums => "odd-even-sum",
            Kind::AlignmentWaiting => "barrier-alignment",
            Kind::AtLeastOnceDuplicates => "at-least-once-duplicates",
            Kind::CommittedTransactions => "exactly-once-kafka",
            Kind::RestartsBeforeFailure => "restart-fixed-delay",
            Kind::TtlPasses => "state-types",
            Kind::BroadcastCopies => "broadcast-rules",
            Kind::RestartDelays => "restart-exponential-delay",
            Kind::UnalignedPersisted => "unaligned-backpressure",
            Kind::ReadCommittedAfterCrash => "exactly-once-kafka",
            Kind::TxnTimeout => "kafka-transaction-timeout",
            Kind::LastAck => "exactly-once-kafka",
            Kind::CheckpointPhases => "odd-even-sum",
            Kind::ClaimModeSnapshot => "restore-claim",
            Kind::UidRestore => "savepoint-upgrade",
            Kind::CheckpointExpiry => "checkpoint-config",
            Kind::RescaleAssignment => "savepoint-rescale",
            Kind::IncrementalUpload => "state-backend-rocksdb",
            Kind::StateKinds => "state-types",
        }
    }

    /// The parameters the kind draws, each within the range where the lesson
    /// still shows its effect.
    pub fn ranges(self) -> &'static [Range] {
        match self {
            Kind::StoredOffset => ranges::STORED_OFFSET,
            Kind::RestoredSums => ranges::RESTORED_SUMS,
            Kind::AlignmentWaiting => ranges::ALIGNMENT_WAITING,
            Kind::AtLeastOnceDuplicates => ranges::AT_LEAST_ONCE_DUPLICATES,
            Kind::CommittedTransactions => ranges::COMMITTED_TRANSACTIONS,
            Kind::RestartsBeforeFailure => ranges::RESTARTS_BEFORE_FAILURE,
            Kind::TtlPasses => ranges::TTL_PASSES,
            Kind::BroadcastCopies => ranges::BROADCAST_COPIES,
            Kind::RestartDelays => ranges::RESTART_DELAYS,
            Kind::ReadCommittedAfterCrash => ranges::READ_COMMITTED_AFTER_CRASH,
            Kind::TxnTimeout => ranges::TXN_TIMEOUT,
            Kind::LastAck => ranges::LAST_ACK,
            Kind::CheckpointPhases => ranges::CHECKPOINT_PHASES,
            Kind::UnalignedPersisted => ranges::UNALIGNED_PERSISTED,
            Kind::ClaimModeSnapshot => ranges::CLAIM_MODE_SNAPSHOT,
            Kind::UidRestore => ranges::UID_RESTORE,
            Kind::CheckpointExpiry => ranges::CHECKPOINT_EXPIRY,
            Kind::RescaleAssignment => ranges::RESCALE_ASSIGNMENT,
            Kind::IncrementalUpload => ranges::INCREMENTAL_UPLOAD,
            Kind::StateKinds => ranges::STATE_KINDS,
        }
    }
}

/// The engine's answer to one blank.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// A whole number (an offset, a sum, a checkpoint id, a count).
    Number(i64),
    /// A set (record values, transaction ids), order not counted.
    Set(BTreeSet<i64>),
    /// One or more of the blank's [`Blank::labels`] (subtasks, operators,
    /// snapshots, `yes` / `no`), order not counted.
    Labels(BTreeSet<String>),
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Number(n) => write!(f, "{n}"),
            Answer::Set(s) if s.is_empty() => f.write_str("∅"),
            Answer::Set(s) => {
                let parts: Vec<String> = s.iter().map(i64::to_string).collect();
                f.write_str(&parts.join(", "))
            }
            Answer::Labels(s) if s.is_empty() => f.write_str("∅"),
            Answer::Labels(s) => {
                let parts: Vec<&str> = s.iter().map(String::as_str).collect();
                f.write_str(&parts.join(", "))
            }
        }
    }
}

/// One thing the learner answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blank {
    /// What is asked (`"offset"`, `"even_sum"`; the page words it).
    pub name: String,
    /// The engine's answer.
    pub answer: Answer,
    /// For a set: the values to choose from (empty: typed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<i64>,
    /// For [`Answer::Labels`]: the labels to choose from, in the order shown
    /// (names the stage shows — `src#1`, `chk-3` — or wording keys the page
    /// words, such as `yes` / `no`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
    /// Why the engine's answer is what it is, read off the variant's trace: the
    /// page words it (`assets/i18n/drill.json`, `why.<key>`) beside a wrong answer
    /// and replays the variant to `at_ms`. `None` until a kind computes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<Why>,
}

/// The reason behind one blank's answer, computed from the variant's trace
/// ("checkpoint 2 expired at 1900 ms: its timeout is 400 ms and enrich#1's
/// barrier arrived at 1950 ms"): a wording key, the values it names, and the
/// simulated time that shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Why {
    /// The wording's key under `why.` in the drill's wording file.
    pub key: String,
    /// The values the wording names, by placeholder (`{checkpoint}` → `"2"`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub args: BTreeMap<String, String>,
    /// The simulated time at which the stage shows the reason.
    pub at_ms: u64,
}

/// An exercise on a fresh variant of a lesson.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exercise {
    /// What is asked.
    pub kind: Kind,
    /// The parameters the variant was built with.
    pub params: Params,
    /// The values the question names (`"checkpoint"`, `"crash_ms"`, `"at_ms"`, …).
    pub question: Params,
    /// The variant: the lesson with the parameters applied, renamed
    /// `<lesson>-variant` (the lesson's own tour does not describe it).
    pub scenario: Scenario,
    /// The simulated time that shows why.
    pub moment_ms: u64,
    /// What the learner answers.
    pub blanks: Vec<Blank>,
    /// When set, the question can also be answered on the graph: at this time
    /// the variant draws the records of the choice blank, to be tapped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask_ms: Option<u64>,
}

/// Why an exercise could not be made or an answer not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrillError {
    /// No exercise kind has this name.
    UnknownKind(String),
    /// The base scenario is not the lesson the kind draws from.
    WrongLesson {
        /// The kind.
        kind: Kind,
        /// The scenario given.
        got: String,
    },
    /// A parameter the kind does not take.
    UnknownParam(String),
    /// A parameter missing from explicit parameters.
    MissingParam(&'static str),
    /// A parameter outside its range.
    OutOfRange {
        /// The parameter.
        name: String,
        /// Its value.
        value: u64,
        /// Its range.
        min: u64,
        /// Its range.
        max: u64,
    },
    /// The variant does not show the exercise's effect; `why` names the
    /// parameter and what went missing.
    NoEffect {
        /// The parameter to change.
        param: &'static str,
        /// What the run lacks.
        why: String,
    },
    /// The variant is not a valid scenario.
    Scenario(String),
    /// The learner's answer to a blank is not a number or set of numbers.
    Unreadable {
        /// The blank.
        blank: String,
        /// What was typed.
        text: String,
    },
    /// The number of answers given is not the number of blanks.
    AnswerCount {
        /// Blanks.
        expected: usize,
        /// Answers.
        got: usize,
    },
}

impl fmt::Display for DrillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrillError::UnknownKind(k) => write!(
                f,
                "kind: unknown exercise kind {k:?} (known: {})",
                Kind::ALL.map(Kind::key).join(", ")
            ),
            DrillError::WrongLesson { kind, got } => write!(
                f,
                "lesson: {} exercises are drawn from {}, not {got}",
                kind.key(),
                kind.lesson()
            ),
            DrillError::UnknownParam(p) => write!(f, "{p}: not a parameter of this exercise"),
            DrillError::MissingParam(p) => write!(f, "{p}: missing"),
            DrillError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(f, "{name}: {value} is outside {min}..={max}"),
            DrillError::NoEffect { param, why } => write!(f, "{param}: {why}"),
            DrillError::Scenario(e) => write!(f, "scenario: {e}"),
            DrillError::Unreadable { blank, text } => write!(
                f,
                "{blank}: {text:?} is not a whole number or a list of whole numbers"
            ),
            DrillError::AnswerCount { expected, got } => {
                write!(
                    f,
                    "answers: {got} given, the exercise has {expected} blanks"
                )
            }
        }
    }
}

impl std::error::Error for DrillError {}

/// An exercise of `kind` on a variant of `base` drawn from `variant`: the same
/// variant seed always gives the same exercise. Draws that would not show the
/// effect are redrawn (from the same generator, so still deterministic).
pub fn generate(kind: Kind, base: &Scenario, variant: u64) -> Result<Exercise, DrillError> {
    let mut rng = ChaCha8Rng::seed_from_u64(variant);
    let mut last = None;
    for _ in 0..64 {
        let params: Params = kind
            .ranges()
            .iter()
            .map(|r| (r.name.to_string(), rng.random_range(r.min..=r.max)))
            .collect();
        match build(kind, base, &params) {
            Err(e @ DrillError::NoEffect { .. }) => last = Some(e),
            other => return other,
        }
    }
    Err(last.expect("64 draws were made"))
}

/// An exercise of `kind` on `base` with exactly these parameters; a missing,
/// unknown or out-of-range parameter, or one with which the run does not show
/// the effect, is refused naming it.
pub fn build(kind: Kind, base: &Scenario, params: &Params) -> Result<Exercise, DrillError> {
    check_params(kind, base, params)?;
    let mut scenario = variant(base, params);
    let (question, moment_ms, blanks) = ask(kind, &mut scenario, params)?;
    // The records waiting in the blocked channel are on the stage just before
    // the last barrier releases them.
    let ask_ms = (kind == Kind::AlignmentWaiting).then_some(moment_ms);
    Ok(Exercise {
        kind,
        params: params.clone(),
        question,
        scenario,
        moment_ms,
        blanks,
        ask_ms,
    })
}

/// Refuses a base that is not the kind's lesson and parameters the kind does
/// not take, misses or draws outside its ranges, before anything runs.
fn check_params(kind: Kind, base: &Scenario, params: &Params) -> Result<(), DrillError> {
    if base.name != kind.lesson() {
        return Err(DrillError::WrongLesson {
            kind,
            got: base.name.clone(),
        });
    }
    if let Some(p) = params
        .keys()
        .find(|p| !kind.ranges().iter().any(|r| r.name == p.as_str()))
    {
        return Err(DrillError::UnknownParam(p.clone()));
    }
    for r in kind.ranges() {
        let value = *params.get(r.name).ok_or(DrillError::MissingParam(r.name))?;
        if !(r.min..=r.max).contains(&value) {
            return Err(DrillError::OutOfRange {
                name: r.name.to_string(),
                value,
                min: r.min,
                max: r.max,
            });
        }
    }
    Ok(())
}

/// The lesson renamed as a variant (its own tour does not describe it), with
/// the parameters every kind shares applied: the seed and the checkpoint
/// interval.
fn variant(base: &Scenario, params: &Params) -> Scenario {
    let mut scenario = base.clone();
    scenario.name = format!("{}-variant", base.name);
    scenario.title = None;
    scenario.description = None;
    if let Some(seed) = params.get("seed") {
        scenario.seed = *seed;
    }
    if let (Some(ms), Some(cfg)) = (params.get("interval_ms"), scenario.checkpointing.as_mut()) {
        cfg.interval_ms = Some(*ms);
        // A lesson that fixes its first trigger at one interval keeps doing so.
        if cfg.first_trigger_ms.is_some() {
            cfg.first_trigger_ms = Some(*ms);
        }
    }
    scenario
}

/// Applies the kind's own parameters to the variant and computes its question,
/// moment and blanks by running it.
fn ask(kind: Kind, scenario: &mut Scenario, params: &Params) -> Result<Made, DrillError> {
    let p = |name: &str| params[name];
    Ok(match kind {
        Kind::StoredOffset => stored_offset(scenario, p("checkpoint"))?,
        Kind::RestoredSums => {
            set_crash(scenario, p("crash_ms"));
            restored_sums(scenario, p("crash_ms"))?
        }
        Kind::AlignmentWaiting => {
            for e in &mut scenario.job.edges {
                if e.from == "letters" {
                    e.latency_ms = p("latency_ms");
                }
            }
            alignment_waiting(scenario)?
        }
        Kind::AtLeastOnceDuplicates => {
            set_crash(scenario, p("crash_ms"));
            duplicates(scenario, p("crash_ms"))?
        }
        Kind::CommittedTransactions => committed(scenario, p("at_ms"))?,
        Kind::RestartsBeforeFailure => {
            scenario.restart = Some(RestartConfig::FixedDelay {
                attempts: p("attempts") as u32,
                delay_ms: p("delay_ms"),
            });
            restarts(scenario)?
        }
        Kind::TtlPasses => {
            state::set_ttl(scenario, p("ttl_ms"))?;
            state::ttl_passes(scenario)?
        }
        Kind::BroadcastCopies => {
            state::set_broadcast_parallelism(scenario, p("parallelism"))?;
            state::broadcast_copies(scenario, p("checkpoint"))?
        }
        Kind::RestartDelays => {
            restart_delays::set_strategy(
                scenario,
                p("initial_ms"),
                p("max_ms"),
                p("multiplier_tenths"),
            )?;
            restart_delays::restart_delays(scenario)?
        }
        Kind::ReadCommittedAfterCrash => {
            set_crash(scenario, p("crash_ms"));
            // Twice the lesson's input, so the job is still running when the
            // restarted job's first commit lands (the replay pauses there).
            set_generated_count(scenario, "kafka-in", 60);
            read_committed_after_crash::read_committed_after_crash(
                scenario,
                p("crash_ms"),
                p("crash_ms") + p("after_ms"),
            )?
        }
        Kind::TxnTimeout => {
            txn_timeout::set_timeouts(scenario, p("timeout_ms"), p("transaction_timeout_ms"))?;
            txn_timeout::txn_timeout(scenario)?
        }
        Kind::LastAck => {
            last_ack::set_timing(scenario, p("process_ms"), p("async_ms"), p("latency_ms"))?;
            last_ack::last_ack(scenario, p("checkpoint"))?
        }
        Kind::CheckpointPhases => {
            checkpoint_phases::set_timing(
                scenario,
                p("async_ms"),
                p("latency_ms"),
                p("out_latency_ms"),
            )?;
            checkpoint_phases::checkpoint_phases(scenario, p("checkpoint"))?
        }
        Kind::UnalignedPersisted => {
            unaligned_persisted::set_buffers(scenario, p("buffer_capacity"))?;
            unaligned_persisted::unaligned_persisted(scenario, p("checkpoint"))?
        }
        Kind::ClaimModeSnapshot => {
            claim_mode_snapshot::set_retained(scenario, p("retained"))?;
            claim_mode_snapshot::claim_mode_snapshot(scenario, p("at_ms"))?
        }
        Kind::UidRestore => {
            uid_restore::set_uids(scenario, p("renamed"))?;
            uid_restore::set_savepoint_at(scenario, p("savepoint_ms"))?;
            uid_restore::uid_restore(scenario, p("renamed"))?
        }
        Kind::CheckpointExpiry => {
            checkpoint_expiry::set_limits(scenario, p("timeout_ms"), p("tolerable_failures"))?;
            checkpoint_expiry::checkpoint_expiry(scenario)?
        }
        Kind::RescaleAssignment => {
            rescale_assignment::set_parallelism(
                scenario,
                p("old_parallelism"),
                p("new_parallelism"),
            )?;
            rescale_assignment::rescale_assignment(scenario, p("subtask"), p("app"))?
        }
        Kind::IncrementalUpload => {
            incremental_upload::set_one_counter(scenario)?;
            incremental_upload::incremental_upload(scenario, p("checkpoint"))?
        }
        Kind::StateKinds => {
            state_kinds::set_job(scenario, p("keyed_kind"), p("sinks"))?;
            state_kinds::state_kinds(scenario, p("checkpoint"))?
        }
    })
}

/// Moves the scenario's one scripted crash to `at_ms`.
fn set_crash(s: &mut Scenario, at_ms: u64) {
    for step in &mut s.script {
        if let ScriptStep::Crash { at_ms: t, .. } = step {
            *t = at_ms;
        }
    }
}

/// A finished run of `s`: the world (every completed checkpoint kept) and its trace.
pub fn run(s: &Scenario) -> Result<(World, Vec<TraceEvent>), DrillError> {
    let mut world = World::new(s, s.seed).map_err(|e| DrillError::Scenario(e.to_string()))?;
    world.set_tracing(true);
    world.keep_all_completed(true);
    let mut trace = Vec::new();
    world.run_to_end(s.until_ms, DEFAULT_LIMIT_MS, |evs| {
        trace.extend_from_slice(evs)
    });
    Ok((world, trace))
}

/// Completed checkpoint `id`'s `_metadata` (as `lab run --metadata` prints it).
fn metadata(world: &World, id: u64) -> Option<Value> {
    Summary::of(world, Metadata::Included)
        .checkpoints
        .into_iter()
        .find(|c| c.id.0 == id && c.metadata.is_some())
        .and_then(|c| c.metadata)
}

fn number(v: &Value, path: &[&str]) -> Option<i64> {
    path.iter().try_fold(v, |v, p| v.get(p))?.as_i64()
}

type Made = (Params, u64, Vec<Blank>);

fn blank(name: &str, answer: Answer) -> Blank {
    Blank {
        name: name.to_string(),
        answer,
        choices: Vec::new(),
        labels: Vec::new(),
        why: None,
    }
}

/// The reason `key` with its values, shown at `at_ms`.
fn reason(key: &str, args: &[(&str, String)], at_ms: u64) -> Why {
    Why {
        key: key.to_string(),
        args: args
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        at_ms,
    }
}

/// Gives every blank of `blanks` the reason `why` (one reason decides them all).
fn explained(mut blanks: Vec<Blank>, why: &Why) -> Vec<Blank> {
    for b in &mut blanks {
        b.why = Some(why.clone());
    }
    blanks
}

/// Sets how many records each generated partition of source `uid` holds.
fn set_generated_count(s: &mut Scenario, uid: &str, count: u64) {
    let partitions = s
        .job
        .operators
        .iter_mut()
        .filter(|o| o.uid == uid)
        .filter_map(|o| o.partitions.as_mut());
    for partition in partitions.flatten() {
        if let PartitionSpec::Generate(g) = partition {
            g.count = count;
        }
    }
}

/// The `every_ms` of the generated partition of source `uid` (records due every
/// `every_ms`, the first at `every_ms`), for the question to state the rate.
fn generate_every(s: &Scenario, uid: &str) -> Option<u64> {
    let op = s.job.operators.iter().find(|o| o.uid == uid)?;
    match op.partitions.as_ref()?.first()? {
        PartitionSpec::Generate(g) => Some(g.every_ms),
        PartitionSpec::Records(_) => None,
    }
}

/// Values joined for a reason's wording (`"3, 4, 5"`).
fn listed<T: fmt::Display>(values: impl IntoIterator<Item = T>) -> String {
    values
        .into_iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn question(pairs: &[(&str, u64)]) -> Params {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

fn stored_offset(s: &Scenario, checkpoint: u64) -> Result<Made, DrillError> {
    let (world, trace) = run(s)?;
    let source = &s.job.operators[0].uid;
    let at = |pick: &dyn Fn(&Event) -> bool| trace.iter().find(|e| pick(&e.event)).map(|e| e.t);
    let completed_at =
        at(&|e| matches!(e, Event::CheckpointCompleted { checkpoint: c } if c.0 == checkpoint));
    let injected_at =
        at(&|e| matches!(e, Event::BarrierInjected { checkpoint: c, .. } if c.0 == checkpoint));
    let no_effect = |why: &str| DrillError::NoEffect {
        param: "interval_ms",
        why: why.to_string(),
    };
    let (Some(done), Some(injected), Some(meta)) =
        (completed_at, injected_at, metadata(&world, checkpoint))
    else {
        return Err(no_effect(&format!("chk-{checkpoint} does not complete")));
    };
    // A record due the very millisecond the barrier is injected: which the source
    // does first is the lab's order, not something the rate decides.
    if trace
        .iter()
        .any(|e| e.t == injected && matches!(e.event, Event::RecordEmitted { .. }))
    {
        return Err(no_effect(&format!(
            "chk-{checkpoint}'s barrier is injected at {injected} ms, the very millisecond a \
             record is due"
        )));
    }
    let offset = number(&meta, &[source, "offsets", "0"]).unwrap_or(0);
    if offset == 0 || offset >= 60 {
        return Err(no_effect(&format!(
            "chk-{checkpoint} stores offset {offset}: before the first or after the last record"
        )));
    }
    let count = |app: &str| number(&meta, &["pv", "keyed", app]).unwrap_or(0);
    let (app1, app2) = (count("app1"), count("app2"));
    let every = generate_every(s, source).unwrap_or(0);
    let interval = s.checkpointing.as_ref().and_then(|c| c.interval_ms);
    // The question states app2's count: with the offset (from the rate and the
    // trigger time) it decides app1's, as the counts add up to the offset.
    let why = reason(
        "stored_offset",
        &[
            ("checkpoint", checkpoint.to_string()),
            ("injected_ms", injected.to_string()),
            ("every_ms", every.to_string()),
            ("offset", offset.to_string()),
            ("app1", app1.to_string()),
            ("app2", app2.to_string()),
        ],
        injected,
    );
    Ok((
        question(&[
            ("checkpoint", checkpoint),
            ("interval_ms", interval.unwrap_or(0)),
            ("every_ms", every),
            ("app2", u64::try_from(app2).unwrap_or(0)),
        ]),
        done,
        explained(
            vec![
                blank("offset", Answer::Number(offset)),
                blank("app1", Answer::Number(app1)),
            ],
            &why,
        ),
    ))
}

fn restored_sums(s: &Scenario, crash_ms: u64) -> Result<Made, DrillError> {
    let (world, trace) = run(s)?;
    let restored = trace.iter().find_map(|e| match &e.event {
        Event::StateRestored {
            checkpoint: Some(c),
            ..
        } => Some((e.t, c.0)),
        _ => None,
    });
    let Some((at, id)) = restored else {
        return Err(DrillError::NoEffect {
            param: "crash_ms",
            why: format!(
                "the crash at {crash_ms} ms falls before chk-1 completes: nothing is restored"
            ),
        });
    };
    let meta = metadata(&world, id).ok_or_else(|| DrillError::NoEffect {
        param: "crash_ms",
        why: format!("chk-{id} has no _metadata"),
    })?;
    let completed = trace
        .iter()
        .find(|e| matches!(e.event, Event::CheckpointCompleted { checkpoint: c } if c.0 == id))
        .map_or(0, |e| e.t);
    // A number due the very millisecond the barrier is injected: which the source
    // does first is the lab's order, not something the rate decides.
    let injected = trace.iter().find_map(|e| match &e.event {
        Event::BarrierInjected { checkpoint: c, .. } if c.0 == id => Some(e.t),
        _ => None,
    });
    if trace
        .iter()
        .any(|e| Some(e.t) == injected && matches!(e.event, Event::RecordEmitted { .. }))
    {
        return Err(DrillError::NoEffect {
            param: "interval_ms",
            why: format!(
                "chk-{id}'s barrier is injected at {} ms, the very millisecond a number is due",
                injected.unwrap_or(0)
            ),
        });
    }
    let source = &s.job.operators[0].uid;
    let offset = number(&meta, &[source, "offsets", "0"]).unwrap_or(0);
    let sum = |k: &str| number(&meta, &["sum", "keyed", k]).unwrap_or(0);
    let (even, odd) = (sum("even"), sum("odd"));
    let why = reason(
        "restored_sums",
        &[
            ("crash_ms", crash_ms.to_string()),
            ("checkpoint", id.to_string()),
            ("completed_ms", completed.to_string()),
            ("offset", offset.to_string()),
            ("even_sum", even.to_string()),
            ("odd_sum", odd.to_string()),
        ],
        at,
    );
    let interval = s.checkpointing.as_ref().and_then(|c| c.interval_ms);
    Ok((
        question(&[
            ("crash_ms", crash_ms),
            ("interval_ms", interval.unwrap_or(0)),
            ("every_ms", generate_every(s, source).unwrap_or(0)),
        ]),
        at,
        explained(
            vec![
                blank("checkpoint", Answer::Number(id as i64)),
                blank("even_sum", Answer::Number(even)),
                blank("odd_sum", Answer::Number(odd)),
            ],
            &why,
        ),
    ))
}

fn alignment_waiting(s: &Scenario) -> Result<Made, DrillError> {
    let (_, trace) = run(s)?;
    let merge = "merge#0";
    // Records that reached the blocked channel, per checkpoint 1's alignment.
    let mut blocked = None;
    let mut blocked_at = 0;
    let mut buffered = 0usize;
    let mut unblocked_at = None;
    let mut waiting = BTreeSet::new();
    for e in &trace {
        match &e.event {
            Event::ChannelBlocked {
                task,
                channel,
                checkpoint,
            } if &**task == merge && checkpoint.0 == 1 && blocked.is_none() => {
                blocked = Some(*channel);
                blocked_at = e.t;
            }
            Event::RecordBuffered { task, channel, .. }
                if &**task == merge && Some(*channel) == blocked && unblocked_at.is_none() =>
            {
                buffered += 1
            }
            Event::ChannelUnblocked { task, channel, .. }
                if &**task == merge && Some(*channel) == blocked && unblocked_at.is_none() =>
            {
                unblocked_at = Some(e.t)
            }
            // After unblocking, the queue is drained first, in arrival order.
            Event::RecordProcessed {
                task,
                channel,
                value,
                ..
            } if &**task == merge
                && unblocked_at.is_some()
                && Some(*channel) == blocked
                && waiting.len() < buffered =>
            {
                waiting.insert(*value);
            }
            _ => {}
        }
    }
    let Some(unblocked) = unblocked_at.filter(|_| !waiting.is_empty()) else {
        return Err(DrillError::NoEffect {
            param: "latency_ms",
            why: "no record waits: the letters' barrier arrives before the next number".into(),
        });
    };
    let latency = s
        .job
        .edges
        .iter()
        .find(|e| e.from == "letters")
        .map_or(0, |e| e.latency_ms);
    let why = reason(
        "alignment_waiting",
        &[
            ("blocked_ms", blocked_at.to_string()),
            ("released_ms", unblocked.to_string()),
            ("latency_ms", latency.to_string()),
            ("waiting", listed(&waiting)),
        ],
        unblocked.saturating_sub(1),
    );
    let mut b = blank("waiting", Answer::Set(waiting));
    b.choices = numbers_of(s);
    b.why = Some(why);
    Ok((
        question(&[("checkpoint", 1)]),
        unblocked.saturating_sub(1),
        vec![b],
    ))
}

/// The values of the `numbers` source's records (the choices of the alignment
/// exercise).
fn numbers_of(s: &Scenario) -> Vec<i64> {
    let Ok(v) = serde_json::to_value(&s.job.operators[0]) else {
        return Vec::new();
    };
    v["partitions"][0]["records"]
        .as_array()
        .map(|rs| rs.iter().filter_map(|r| r["value"].as_i64()).collect())
        .unwrap_or_default()
}

fn duplicates(s: &Scenario, crash_ms: u64) -> Result<Made, DrillError> {
    let (_, trace) = run(s)?;
    let mut seen: BTreeMap<Origin, u32> = BTreeMap::new();
    let mut first_duplicate = None;
    let mut restored = None;
    for e in &trace {
        match &e.event {
            Event::StateRestored {
                checkpoint: Some(c),
                ..
            } => restored = restored.or(Some((e.t, c.0))),
            Event::RecordWritten { origin, .. } => {
                let n = seen.entry(*origin).or_insert(0);
                *n += 1;
                if *n == 2 && first_duplicate.is_none() {
                    first_duplicate = Some(e.t);
                }
            }
            _ => {}
        }
    }
    let twice: i64 = seen.values().map(|n| i64::from(n.saturating_sub(1))).sum();
    match (first_duplicate, restored) {
        (Some(at), Some((restored_at, checkpoint))) => {
            let why = reason(
                "at_least_once_duplicates",
                &[
                    ("crash_ms", crash_ms.to_string()),
                    ("checkpoint", checkpoint.to_string()),
                    ("restored_ms", restored_at.to_string()),
                    ("duplicates", twice.to_string()),
                    ("first_ms", at.to_string()),
                ],
                at,
            );
            Ok((
                question(&[("crash_ms", crash_ms)]),
                at,
                explained(vec![blank("duplicates", Answer::Number(twice))], &why),
            ))
        }
        _ => Err(DrillError::NoEffect {
            param: "crash_ms",
            why: format!("the crash at {crash_ms} ms makes no duplicate after a restore"),
        }),
    }
}

fn committed(s: &Scenario, at_ms: u64) -> Result<Made, DrillError> {
    let (_, trace) = run(s)?;
    let mut begun = BTreeSet::new();
    let mut done = BTreeSet::new();
    let mut last_completed = None;
    for e in trace.iter().filter(|e| e.t <= at_ms) {
        match &e.event {
            Event::CheckpointCompleted { checkpoint } => last_completed = Some((checkpoint.0, e.t)),
            // The first transaction may be begun before the trace starts.
            Event::TransactionBegun { txn, .. } | Event::TransactionPrecommitted { txn, .. } => {
                begun.insert(*txn as i64);
            }
            Event::TransactionCommitted { txn, .. } => {
                done.insert(*txn as i64);
            }
            _ => {}
        }
    }
    if done.is_empty() || done == begun {
        return Err(DrillError::NoEffect {
            param: "at_ms",
            why: format!(
                "by {at_ms} ms {} — the question needs some committed and some not",
                if done.is_empty() {
                    "nothing is committed"
                } else {
                    "every transaction is committed"
                }
            ),
        });
    }
    let (checkpoint, completed_ms) = last_completed.unwrap_or((0, 0));
    let waiting: Vec<i64> = begun.difference(&done).copied().collect();
    let why = reason(
        "committed_transactions",
        &[
            ("at_ms", at_ms.to_string()),
            ("checkpoint", checkpoint.to_string()),
            ("completed_ms", completed_ms.to_string()),
            ("committed", listed(&done)),
            ("open", listed(&waiting)),
        ],
        at_ms,
    );
    let mut b = blank("committed", Answer::Set(done));
    b.choices = begun.into_iter().collect();
    b.why = Some(why);
    Ok((question(&[("at_ms", at_ms)]), at_ms, vec![b]))
}

fn restarts(s: &Scenario) -> Result<Made, DrillError> {
    let (_, trace) = run(s)?;
    let crashes = trace
        .iter()
        .filter(|e| matches!(e.event, Event::TaskFailed { .. }))
        .count();
    let restarts = trace
        .iter()
        .filter(|e| matches!(e.event, Event::JobRestarting { .. }))
        .count();
    let Some(failed_at) = trace
        .iter()
        .find(|e| matches!(e.event, Event::JobFailed { .. }))
        .map(|e| e.t)
    else {
        return Err(DrillError::NoEffect {
            param: "attempts",
            why: "the job never fails".into(),
        });
    };
    let (attempts, delay) = match s.restart {
        Some(RestartConfig::FixedDelay { attempts, delay_ms }) => (u64::from(attempts), delay_ms),
        _ => (0, 0),
    };
    let why = reason(
        "restarts_before_failure",
        &[
            ("attempts", attempts.to_string()),
            ("fatal_failure", crashes.to_string()),
            ("failed_ms", failed_at.to_string()),
        ],
        failed_at,
    );
    Ok((
        question(&[("attempts", attempts), ("delay_ms", delay)]),
        failed_at,
        explained(
            vec![
                blank("restarts", Answer::Number(restarts as i64)),
                blank("fatal_failure", Answer::Number(crashes as i64)),
            ],
            &why,
        ),
    ))
}

/// Reads a learner's answer to `b`: a whole number, or for a set whole numbers
/// separated by commas, spaces or `、` (an empty set: nothing, or `∅`).
pub fn parse(b: &Blank, text: &str) -> Result<Answer, DrillError> {
    let unreadable = || DrillError::Unreadable {
        blank: b.name.clone(),
        text: text.to_string(),
    };
    let trimmed = text.trim();
    match b.answer {
        Answer::Number(_) => trimmed
            .parse::<i64>()
            .map(Answer::Number)
            .map_err(|_| unreadable()),
        Answer::Set(_) => trimmed
            .split(|c: char| c == ',' || c == '，' || c == '、' || c.is_whitespace())
            .filter(|p| !p.is_empty() && *p != "∅")
            .map(|p| p.parse::<i64>().map_err(|_| unreadable()))
            .collect::<Result<BTreeSet<_>, _>>()
            .map(Answer::Set),
        Answer::Labels(_) => trimmed
            .split(|c: char| c == ',' || c == '，' || c == '、' || c.is_whitespace())
            .filter(|p| !p.is_empty() && *p != "∅")
            .map(|p| {
                b.labels
                    .iter()
                    .find(|l| l.as_str() == p)
                    .cloned()
                    .ok_or_else(unreadable)
            })
            .collect::<Result<BTreeSet<_>, _>>()
            .map(Answer::Labels),
    }
}

/// One blank marked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marked {
    /// The blank's name.
    pub blank: String,
    /// The learner's answer equals the engine's.
    pub right: bool,
    /// The learner's answer.
    pub given: Answer,
    /// The engine's answer.
    pub expected: Answer,
}

impl fmt::Display for Marked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.right {
            write!(f, "{}: {} — right", self.blank, self.given)
        } else {
            write!(
                f,
                "{}: you said {}; the engine's run of this variant says {}",
                self.blank, self.given, self.expected
            )
        }
    }
}

/// Marks `given` (one answer per blank, in order) against the engine's answers.
pub fn check(ex: &Exercise, given: &[Answer]) -> Result<Vec<Marked>, DrillError> {
    if given.len() != ex.blanks.len() {
        return Err(DrillError::AnswerCount {
            expected: ex.blanks.len(),
            got: given.len(),
        });
    }
    Ok(ex
        .blanks
        .iter()
        .zip(given)
        .map(|(b, g)| Marked {
            blank: b.name.clone(),
            right: *g == b.answer,
            given: g.clone(),
            expected: b.answer.clone(),
        })
        .collect())
}
