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
use crate::scenario::{RestartConfig, Scenario, ScriptStep};
use crate::summary::{Metadata, Summary};
use crate::world::World;

mod checkpoint_expiry;
mod claim_mode_snapshot;
mod incremental_upload;
mod rescale_assignment;
mod state;
mod state_kinds;
mod uid_restore;

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
    pub const ALL: [Kind; 14] = [
        Kind::StoredOffset,
        Kind::RestoredSums,
        Kind::AlignmentWaiting,
        Kind::AtLeastOnceDuplicates,
        Kind::CommittedTransactions,
        Kind::RestartsBeforeFailure,
        Kind::TtlPasses,
        Kind::BroadcastCopies,
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
            // 60 records every 50 ms: chk-1 and chk-2 both fall while reading.
            Kind::StoredOffset => &[
                Range {
                    name: "seed",
                    min: 1,
                    max: 9_999,
                },
                Range {
                    name: "interval_ms",
                    min: 600,
                    max: 1_400,
                },
                Range {
                    name: "checkpoint",
                    min: 1,
                    max: 2,
                },
            ],
            // 12 numbers every 100 ms; the crash after chk-1, before the last number.
            Kind::RestoredSums => &[
                Range {
                    name: "interval_ms",
                    min: 350,
                    max: 650,
                },
                Range {
                    name: "crash_ms",
                    min: 600,
                    max: 1_150,
                },
            ],
            // The numbers' barrier arrives 5 ms after injection, the letters'
            // after `latency_ms`: 1 to 5 numbers wait.
            Kind::AlignmentWaiting => &[
                Range {
                    name: "interval_ms",
                    min: 470,
                    max: 505,
                },
                Range {
                    name: "latency_ms",
                    min: 20,
                    max: 250,
                },
            ],
            Kind::AtLeastOnceDuplicates => &[
                Range {
                    name: "seed",
                    min: 1,
                    max: 9_999,
                },
                Range {
                    name: "crash_ms",
                    min: 700,
                    max: 1_500,
                },
            ],
            Kind::CommittedTransactions => &[
                Range {
                    name: "interval_ms",
                    min: 350,
                    max: 600,
                },
                Range {
                    name: "at_ms",
                    min: 800,
                    max: 1_700,
                },
            ],
            // Four crashes at 500, 2300, 2800 and 3300 ms: at most 3 restarts.
            Kind::RestartsBeforeFailure => &[
                Range {
                    name: "attempts",
                    min: 0,
                    max: 3,
                },
                Range {
                    name: "delay_ms",
                    min: 100,
                    max: 400,
                },
            ],
            // 80 values in 1..=100 over three apps, 40 ms apart: most seeds repeat
            // a value of one app before the crash at 1700 ms. The exercise takes a
            // value whose second arrival comes 200 to 1399 ms after its first, so
            // which side of it the drawn TTL falls on decides (the lesson's 800 ms
            // lies in the middle).
            Kind::TtlPasses => &[
                Range {
                    name: "seed",
                    min: 1,
                    max: 9_999,
                },
                Range {
                    name: "ttl_ms",
                    min: 200,
                    max: 1_400,
                },
            ],
            // Rules at 2000 and 5000 ms, a crash at 6500: chk-N may hold no rule
            // yet (redrawn), one, or both, before or after the restore.
            Kind::BroadcastCopies => &[
                Range {
                    name: "parallelism",
                    min: 2,
                    max: 5,
                },
                Range {
                    name: "interval_ms",
                    min: 700,
                    max: 1_300,
                },
                Range {
                    name: "checkpoint",
                    min: 2,
                    max: 8,
                },
            ],
            // The job reads offsets 30 to 89 every 50 ms and ends near 3000 ms:
            // up to 8 own checkpoints complete, pushing the restored one out of
            // 1 to 3 retained ones.
            Kind::ClaimModeSnapshot => &[
                Range {
                    name: "interval_ms",
                    min: 300,
                    max: 800,
                },
                Range {
                    name: "retained",
                    min: 1,
                    max: 3,
                },
                Range {
                    name: "at_ms",
                    min: 500,
                    max: 2_900,
                },
            ],
            // Which of version 1's kafka, pv and out (bits 0, 1, 2) version 2
            // renames; version 1 reads 80 records a partition, 40 to 55 ms apart,
            // and stops with a savepoint while reading.
            Kind::UidRestore => &[
                Range {
                    name: "renamed",
                    min: 0,
                    max: 7,
                },
                Range {
                    name: "savepoint_ms",
                    min: 900,
                    max: 2_800,
                },
            ],
            // A burst of 40 records behind a 25 ms-per-record count: checkpoint 2
            // needs 385 ms, the ones behind the backlog longer.
            Kind::CheckpointExpiry => &[
                Range {
                    name: "timeout_ms",
                    min: 150,
                    max: 900,
                },
                Range {
                    name: "tolerable_failures",
                    min: 0,
                    max: 2,
                },
            ],
            // Four partitions and three apps, 1 to 4 subtasks before and after.
            Kind::RescaleAssignment => &[
                Range {
                    name: "old_parallelism",
                    min: 1,
                    max: 4,
                },
                Range {
                    name: "new_parallelism",
                    min: 1,
                    max: 4,
                },
                Range {
                    name: "subtask",
                    min: 0,
                    max: 3,
                },
                Range {
                    name: "app",
                    min: 1,
                    max: 3,
                },
            ],
            // 160 records every 50 ms over a cycle of 46 keys (2300 ms): a
            // checkpoint changes some keys and leaves others in older files.
            Kind::IncrementalUpload => &[
                Range {
                    name: "interval_ms",
                    min: 400,
                    max: 1_500,
                },
                Range {
                    name: "checkpoint",
                    min: 2,
                    max: 6,
                },
            ],
            // The crash at 1700 ms: chk-1 and chk-2 complete before it.
            Kind::StateKinds => &[
                Range {
                    name: "interval_ms",
                    min: 400,
                    max: 800,
                },
                Range {
                    name: "checkpoint",
                    min: 1,
                    max: 2,
                },
            ],
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
    let p = |name: &str| params[name];
    let mut scenario = base.clone();
    scenario.name = format!("{}-variant", base.name);
    scenario.title = None;
    scenario.description = None;
    if let Some(seed) = params.get("seed") {
        scenario.seed = *seed;
    }
    if let (Some(ms), Some(cfg)) = (params.get("interval_ms"), scenario.checkpointing.as_mut()) {
        cfg.interval_ms = Some(*ms);
    }
    let (question, moment_ms, blanks) = match kind {
        Kind::StoredOffset => stored_offset(&scenario, p("checkpoint"))?,
        Kind::RestoredSums => {
            set_crash(&mut scenario, p("crash_ms"));
            restored_sums(&scenario, p("crash_ms"))?
        }
        Kind::AlignmentWaiting => {
            for e in &mut scenario.job.edges {
                if e.from == "letters" {
                    e.latency_ms = p("latency_ms");
                }
            }
            alignment_waiting(&scenario)?
        }
        Kind::AtLeastOnceDuplicates => {
            set_crash(&mut scenario, p("crash_ms"));
            duplicates(&scenario, p("crash_ms"))?
        }
        Kind::CommittedTransactions => committed(&scenario, p("at_ms"))?,
        Kind::RestartsBeforeFailure => {
            scenario.restart = Some(RestartConfig::FixedDelay {
                attempts: p("attempts") as u32,
                delay_ms: p("delay_ms"),
            });
            restarts(&scenario)?
        }
        Kind::TtlPasses => {
            state::set_ttl(&mut scenario, p("ttl_ms"))?;
            state::ttl_passes(&scenario)?
        }
        Kind::BroadcastCopies => {
            state::set_broadcast_parallelism(&mut scenario, p("parallelism"))?;
            state::broadcast_copies(&scenario, p("checkpoint"))?
        }
        Kind::ClaimModeSnapshot => {
            claim_mode_snapshot::set_retained(&mut scenario, p("retained"))?;
            claim_mode_snapshot::claim_mode_snapshot(&scenario, p("at_ms"))?
        }
        Kind::UidRestore => {
            uid_restore::set_uids(&mut scenario, p("renamed"))?;
            uid_restore::set_savepoint_at(&mut scenario, p("savepoint_ms"))?;
            uid_restore::uid_restore(&scenario, p("renamed"))?
        }
        Kind::CheckpointExpiry => {
            checkpoint_expiry::set_limits(&mut scenario, p("timeout_ms"), p("tolerable_failures"))?;
            checkpoint_expiry::checkpoint_expiry(&scenario)?
        }
        Kind::RescaleAssignment => {
            rescale_assignment::set_parallelism(
                &mut scenario,
                p("old_parallelism"),
                p("new_parallelism"),
            )?;
            rescale_assignment::rescale_assignment(&scenario, p("subtask"), p("app"))?
        }
        Kind::IncrementalUpload => {
            incremental_upload::set_one_counter(&mut scenario)?;
            incremental_upload::incremental_upload(&scenario, p("checkpoint"))?
        }
        Kind::StateKinds => state_kinds::state_kinds(&scenario, p("checkpoint"))?,
    };
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

fn question(pairs: &[(&str, u64)]) -> Params {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

fn stored_offset(s: &Scenario, checkpoint: u64) -> Result<Made, DrillError> {
    let (world, trace) = run(s)?;
    let completed_at = trace.iter().find_map(|e| match e.event {
        Event::CheckpointCompleted { checkpoint: c } if c.0 == checkpoint => Some(e.t),
        _ => None,
    });
    let no_effect = |why: &str| DrillError::NoEffect {
        param: "interval_ms",
        why: why.to_string(),
    };
    let (Some(at), Some(meta)) = (completed_at, metadata(&world, checkpoint)) else {
        return Err(no_effect(&format!("chk-{checkpoint} does not complete")));
    };
    let offset = number(&meta, &["kafka", "offsets", "0"]).unwrap_or(0);
    if offset == 0 || offset >= 60 {
        return Err(no_effect(&format!(
            "chk-{checkpoint} stores offset {offset}: before the first or after the last record"
        )));
    }
    let count = |app: &str| number(&meta, &["pv", "keyed", app]).unwrap_or(0);
    Ok((
        question(&[("checkpoint", checkpoint)]),
        at,
        vec![
            blank("offset", Answer::Number(offset)),
            blank("app1", Answer::Number(count("app1"))),
            blank("app2", Answer::Number(count("app2"))),
        ],
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
    let sum = |k: &str| number(&meta, &["sum", "keyed", k]).unwrap_or(0);
    Ok((
        question(&[("crash_ms", crash_ms)]),
        at,
        vec![
            blank("checkpoint", Answer::Number(id as i64)),
            blank("even_sum", Answer::Number(sum("even"))),
            blank("odd_sum", Answer::Number(sum("odd"))),
        ],
    ))
}

fn alignment_waiting(s: &Scenario) -> Result<Made, DrillError> {
    let (_, trace) = run(s)?;
    let merge = "merge#0";
    // Records that reached the blocked channel, per checkpoint 1's alignment.
    let mut blocked = None;
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
                blocked = Some(*channel)
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
    let mut b = blank("waiting", Answer::Set(waiting));
    b.choices = numbers_of(s);
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
    let mut restored = false;
    for e in &trace {
        match &e.event {
            Event::StateRestored {
                checkpoint: Some(_),
                ..
            } => restored = true,
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
    let twice = seen.values().map(|n| i64::from(n.saturating_sub(1))).sum();
    match first_duplicate {
        Some(at) if restored => Ok((
            question(&[("crash_ms", crash_ms)]),
            at,
            vec![blank("duplicates", Answer::Number(twice))],
        )),
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
    for e in trace.iter().filter(|e| e.t <= at_ms) {
        match &e.event {
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
    let mut b = blank("committed", Answer::Set(done));
    b.choices = begun.into_iter().collect();
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
    Ok((
        question(&[("attempts", attempts), ("delay_ms", delay)]),
        failed_at,
        vec![
            blank("restarts", Answer::Number(restarts as i64)),
            blank("fatal_failure", Answer::Number(crashes as i64)),
        ],
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
