//! Where the script's actions land: the lab runs the scenario, and its trace says
//! which record each crash follows and which source offsets each savepoint holds.
//!
//! Real Flink cannot replay the lab's clock, so a timed action is moved to a place
//! in the data instead, computed here from the lab's own run:
//! - a `crash` of task T at `at_ms` becomes "T, in run attempt k, fails right after
//!   it processed (a source: emitted) the record of source S, partition p, offset ≥ o"
//!   — the last record T handled in the lab before the crash. A replay of an earlier
//!   checkpoint reaches the same record again, so the failure does not depend on
//!   which checkpoint real Flink happened to restore.
//! - a `savepoint` or `stop_with_savepoint` holds every source at the offsets the
//!   lab's savepoint stored (its `_metadata`) and is taken once all sources wait
//!   there, so the savepoint's offsets and keyed state are the lab's exactly.
//! - `trigger_checkpoint` and `cancel` stay timed (lab ms after the sources start).
//! - an action the lab ignored (the job was not running) is left out.

use super::{java, Code};
use crate::cause::{FailureCause, IgnoreCause};
use crate::event::{Event, SnapshotKind, TraceEvent};
use crate::runner::{self, RunOptions};
use crate::scenario::{Scenario, ScenarioError, ScriptStep, StorageKind};
use crate::status::JobStatus;
use crate::summary::{Metadata, Summary};
use std::collections::BTreeMap;

/// A record's origin by source uid: `(source, partition, offset)`.
pub type SourcePosition = (String, u32, u64);

/// A scripted crash, placed on a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrashPoint {
    /// The failing subtask (`"sum#0"`).
    pub task: String,
    /// The run attempt it belongs to (0: before the first restart).
    pub attempt: u32,
    /// The last record the task handled before the lab's crash: source uid,
    /// partition, offset. `None`: it handled none in that attempt, so the crash
    /// follows its first record.
    pub after: Option<SourcePosition>,
    /// The lab's time of the crash.
    pub at_ms: u64,
}

/// A savepoint of the script, placed on the sources' offsets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoldPoint {
    /// `savepoint` or `stop_with_savepoint`.
    pub stop: bool,
    /// The run attempt it belongs to.
    pub attempt: u32,
    /// The lab's time of the action.
    pub at_ms: u64,
    /// `"<source uid>#<partition>"` → the offset the lab's savepoint stored.
    pub holds: BTreeMap<String, u64>,
    /// The lab's id of the savepoint.
    pub checkpoint: u64,
}

/// One action of the script as the export plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placed {
    /// A crash on a record.
    Crash(CrashPoint),
    /// A savepoint at the sources' offsets.
    Hold(HoldPoint),
    /// `trigger_checkpoint` or `cancel` at a lab time.
    Timed {
        /// `trigger_checkpoint` or `cancel`.
        action: &'static str,
        /// When.
        at_ms: u64,
    },
    /// The lab ignored it: the job was not running.
    Ignored {
        /// The action's name.
        action: &'static str,
        /// When.
        at_ms: u64,
        /// Why.
        reason: IgnoredBecause,
    },
    /// A savepoint the lab could not complete: played at its time, not held.
    Unheld {
        /// `savepoint` or `stop_with_savepoint`.
        action: &'static str,
        /// When.
        at_ms: u64,
    },
}

/// Why a script step is left out of the export: the lab did not carry it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IgnoredBecause {
    /// The lab's run ignored it (the job was not running then).
    Lab(IgnoreCause),
    /// The job had already ended (`status`) at `end_ms`, before the step's time.
    Ended {
        /// How the job ended.
        status: JobStatus,
        /// When.
        end_ms: u64,
    },
    /// A crash for which the lab's run shows no failure.
    NoSuchFailure,
}

/// The lab's run of one job of the lesson, and the script placed on it.
#[derive(Clone, Debug)]
pub struct JobPlan {
    /// The script, in document order.
    pub placed: Vec<Placed>,
    /// The lab's summary of the run (with `_metadata`).
    pub summary: Summary,
}

/// What the lab's trace says about the script, gathered in one walk.
#[derive(Default)]
struct TraceFacts {
    /// Each scripted crash: the task, its run attempt, the last record it handled.
    crashes: Vec<(String, u32, Option<SourcePosition>)>,
    /// Each savepoint triggered: (time, id, stop-with-savepoint, run attempt).
    savepoints: Vec<(u64, u64, bool, u32)>,
    /// Each action the lab ignored: (time, action, why).
    ignored: Vec<(u64, String, IgnoreCause)>,
}

/// Runs `scenario` in the lab (its seed) and places its script.
pub fn plan(scenario: &Scenario, seed: u64) -> Result<JobPlan, ScenarioError> {
    let opts = RunOptions {
        seed: Some(seed),
        trace: true,
        metadata: true,
        ..RunOptions::default()
    };
    let mut events = Vec::new();
    let world = runner::run(scenario, &opts, |e| events.push(e.clone()))?;
    let summary = Summary::of(&world, Metadata::Included);
    // An action after the run ended (the job failed, finished or was canceled) never
    // happens in the lab; the trace has nothing for it.
    let ended = (world.status() != JobStatus::Running)
        .then(|| (world.finished_at().unwrap_or(world.now()), world.status()));
    let TraceFacts {
        crashes,
        savepoints,
        mut ignored,
    } = walk_trace(scenario, &events);

    let mut crashes = crashes.into_iter();
    let mut savepoints = savepoints.into_iter();
    let mut steps: Vec<&ScriptStep> = scenario.script.iter().collect();
    // The engine schedules the script by time (document order among equal times).
    steps.sort_by_key(|s| s.at_ms());
    let mut placed = Vec::new();
    for step in steps {
        if let Some(skipped) = not_carried_out(step, ended, &mut ignored) {
            placed.push(skipped);
            continue;
        }
        let (at_ms, action) = (step.at_ms(), step.action_name());
        match step {
            ScriptStep::Crash { task, .. } => placed.push(match crashes.next() {
                Some((failed, attempt, after)) if &failed == task => Placed::Crash(CrashPoint {
                    task: failed,
                    attempt,
                    after,
                    at_ms,
                }),
                _ => Placed::Ignored {
                    action,
                    at_ms,
                    reason: IgnoredBecause::NoSuchFailure,
                },
            }),
            ScriptStep::Savepoint { .. } | ScriptStep::StopWithSavepoint { .. } => {
                placed.push(place_savepoint(scenario, &summary, step, savepoints.next()));
            }
            ScriptStep::TriggerCheckpoint { .. } | ScriptStep::Cancel { .. } => {
                placed.push(Placed::Timed { action, at_ms })
            }
            // Refused before planning (see `flink::refusals`).
            ScriptStep::CrashJobmanager { .. } => {}
        }
    }
    Ok(JobPlan { placed, summary })
}

/// Walks the trace once, following per task the last record handled in the current
/// run attempt: where each crash falls, each savepoint, each ignored action.
fn walk_trace(scenario: &Scenario, events: &[TraceEvent]) -> TraceFacts {
    let names: Vec<&str> = scenario
        .job
        .operators
        .iter()
        .map(|o| o.uid.as_str())
        .collect();
    let mut facts = TraceFacts::default();
    let mut attempt = 0u32;
    let mut last: BTreeMap<String, SourcePosition> = BTreeMap::new();
    for e in events {
        match &e.event {
            Event::RecordProcessed { task, origin, .. } => {
                let source = names.get(origin.source as usize).unwrap_or(&"?");
                last.insert(
                    task.to_string(),
                    (
                        source.to_string(),
                        origin.partition as u32,
                        origin.offset as u64,
                    ),
                );
            }
            Event::RecordEmitted {
                task,
                partition,
                offset,
                ..
            } => {
                let uid = task.rsplit_once('#').map_or(&**task, |(u, _)| u);
                last.insert(task.to_string(), (uid.to_string(), *partition, *offset));
            }
            Event::TaskFailed {
                task,
                reason: FailureCause::Crashed,
            } => {
                let after = last.get(&**task).cloned();
                facts.crashes.push((task.to_string(), attempt, after));
            }
            Event::JobRestarting { .. } => {
                attempt += 1;
                last.clear();
            }
            Event::CheckpointTriggered {
                checkpoint, kind, ..
            } if kind.is_savepoint() => {
                facts.savepoints.push((
                    e.t,
                    checkpoint.0,
                    *kind == SnapshotKind::StopWithSavepoint,
                    attempt,
                ));
            }
            Event::ActionIgnored { action, reason } => {
                facts.ignored.push((e.t, action.clone(), *reason))
            }
            _ => {}
        }
    }
    facts
}

/// A step the lab did not carry out, as left out of the export: due after the run
/// ended, or ignored by the lab then (taken from `ignored`). `None`: it happened.
fn not_carried_out(
    step: &ScriptStep,
    ended: Option<(u64, JobStatus)>,
    ignored: &mut Vec<(u64, String, IgnoreCause)>,
) -> Option<Placed> {
    let (at_ms, action) = (step.at_ms(), step.action_name());
    if let Some((end, status)) = ended.filter(|(end, _)| at_ms > *end) {
        return Some(Placed::Ignored {
            action,
            at_ms,
            reason: IgnoredBecause::Ended {
                status,
                end_ms: end,
            },
        });
    }
    let i = ignored
        .iter()
        .position(|(t, a, _)| *t == at_ms && a == action)?;
    let (_, _, reason) = ignored.remove(i);
    Some(Placed::Ignored {
        action,
        at_ms,
        reason: IgnoredBecause::Lab(reason),
    })
}

/// A `savepoint` or `stop_with_savepoint` step held at the source offsets the lab's
/// savepoint stored (`triggered`: the next savepoint of the trace), or played at its
/// time when the lab has no completed savepoint for it.
fn place_savepoint(
    scenario: &Scenario,
    summary: &Summary,
    step: &ScriptStep,
    triggered: Option<(u64, u64, bool, u32)>,
) -> Placed {
    let (at_ms, action) = (step.at_ms(), step.action_name());
    let Some((_, id, stop, attempt)) = triggered else {
        return Placed::Unheld { action, at_ms };
    };
    let Some(meta) = summary
        .checkpoints
        .iter()
        .find(|c| c.id.0 == id)
        .and_then(|c| c.metadata.as_ref())
    else {
        return Placed::Unheld { action, at_ms };
    };
    let mut holds = BTreeMap::new();
    for op in scenario.job.operators.iter().filter(|o| o.is_source()) {
        let offsets = meta
            .get(&op.uid)
            .and_then(|m| m.get("offsets"))
            .and_then(|m| m.as_object());
        for (p, off) in offsets.into_iter().flatten() {
            if let Some(off) = off.as_u64() {
                holds.insert(format!("{}#{p}", op.uid), off);
            }
        }
    }
    Placed::Hold(HoldPoint {
        stop,
        attempt,
        at_ms,
        holds,
        checkpoint: id,
    })
}

impl super::Generator<'_> {
    /// The lab's script for job `j`, as a `Script` for the runner.
    pub(super) fn script_lines(&mut self, c: &mut Code, j: usize, s: &Scenario) {
        let plan = self.plans[j].as_ref();
        let mut calls = Vec::new();
        for p in plan.iter().flat_map(|p| &p.placed) {
            match p {
                Placed::Crash(cr) => self.approx(self.w().approx_crash(cr)),
                Placed::Hold(h) => {
                    let kind = if h.stop {
                        "stopWithSavepoint"
                    } else {
                        "savepoint"
                    };
                    let holds: Vec<String> = h
                        .holds
                        .iter()
                        .map(|(k, v)| java::string(&format!("{k}={v}")))
                        .collect();
                    calls.push(format!(
                        ".{kind}({}, {}, {})",
                        h.at_ms,
                        h.attempt,
                        holds.join(", ")
                    ));
                    let action = if h.stop {
                        "stop_with_savepoint"
                    } else {
                        "savepoint"
                    };
                    self.approx(self.w().approx_held_savepoint(action, h));
                }
                Placed::Timed { action, at_ms } => {
                    let call = if *action == "cancel" {
                        "cancel"
                    } else {
                        "triggerCheckpoint"
                    };
                    calls.push(format!(".{call}({at_ms})"));
                    self.approx(self.w().approx_timed(action, *at_ms));
                }
                Placed::Unheld { action, at_ms } => {
                    let call = if *action == "savepoint" {
                        "savepoint"
                    } else {
                        "stopWithSavepoint"
                    };
                    calls.push(format!(".{call}({at_ms}, -1)"));
                    self.approx(self.w().approx_unheld_savepoint(action, *at_ms));
                }
                Placed::Ignored {
                    action,
                    at_ms,
                    reason,
                } => self.approx(self.w().approx_ignored(action, *at_ms, reason)),
            }
        }
        if let Some(until) = s.until_ms {
            calls.push(format!(".until({until})"));
        }
        if s.checkpointing
            .as_ref()
            .is_some_and(|c| c.interval_ms.is_none())
        {
            calls.push(".manualCheckpointsOnly()".into());
        }
        let script = if calls.is_empty() {
            "new Script()".to_string()
        } else {
            format!("new Script(){}", calls.join(""))
        };
        c.comment(2, self.w().run_script);
        let graph = s
            .checkpointing
            .as_ref()
            .is_some_and(|c| c.storage == StorageKind::Jobmanager);
        c.line(
            2,
            &format!(
                "return lab.execute({}, {}, {script});",
                if graph { "graph" } else { "env" },
                java::string(&s.name)
            ),
        );
    }
}
