//! The state chapter's exercises: state TTL on `state-types`' de-duplication, and
//! broadcast state on `broadcast-rules`' filter.
//!
//! The TTL exercise asks what a *read* returns — whether `seen.contains(value)`
//! still finds the entry — which Flink defines exactly (`TtlUtils.expired`,
//! `NeverReturnExpired`) whatever the cleanup strategy and backend. It never asks
//! when an expired entry leaves the state: the lesson's rocksdb backend stands in
//! for RocksDB's compaction filter with incremental cleanup, and that timing is the
//! lab's, not Flink's.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::{blank, metadata, question, run, Answer, DrillError, Kind, Made};
use crate::event::{Event, TraceEvent};
use crate::record::Origin;
use crate::scenario::{OperatorKind, PartitionSpec, Scenario, ScriptStep};
use crate::state::ttl::{StateVisibility, TtlConfig, UpdateType};
use crate::world::World;

/// The reason `key` with its named values, shown at `at_ms` (the drill's one
/// constructor, under the name the state chapter's kinds use).
pub(super) use super::reason as why;

pub(super) fn lesson_error(what: &str) -> DrillError {
    DrillError::Scenario(what.to_string())
}

/// Where the lesson's operator of `kind` is in its operator list.
pub(super) fn operator_index(s: &Scenario, kind: OperatorKind) -> Result<usize, DrillError> {
    s.job
        .operators
        .iter()
        .position(|o| o.kind == kind)
        .ok_or_else(|| lesson_error(&format!("the lesson has no {} operator", kind.as_str())))
}

/// Gives the de-duplication's `MapState` a TTL of `ttl_ms`, refreshed on create
/// and write only and never returned once expired — Flink's defaults, which the
/// question names. The cleanup strategies stay as the lesson has them: they change
/// when expired entries are dropped, never what a read returns.
pub(super) fn set_ttl(s: &mut Scenario, ttl_ms: u64) -> Result<(), DrillError> {
    let i = operator_index(s, OperatorKind::KeyedDedup)?;
    let op = &mut s.job.operators[i];
    let cleanup = op.ttl.map(|t| t.cleanup).unwrap_or_default();
    op.ttl = Some(TtlConfig {
        ttl_ms,
        update_type: UpdateType::OnCreateAndWrite,
        visibility: StateVisibility::NeverReturnExpired,
        cleanup,
    });
    Ok(())
}

/// One value of one key at the de-duplication: when it arrived, and the source
/// record it came from.
type Arrivals = Vec<(u64, Origin)>;

pub(super) fn ttl_passes(s: &Scenario) -> Result<Made, DrillError> {
    let dedup = &s.job.operators[operator_index(s, OperatorKind::KeyedDedup)?];
    let out = s
        .job
        .edges
        .iter()
        .find(|e| e.from == dedup.uid)
        .ok_or_else(|| lesson_error("the keyed_dedup operator has no output"))?;
    let (dedup_task, out_task) = (format!("{}#", dedup.uid), format!("{}#", out.to));
    let (_, trace) = run(s)?;
    // The first attempt only: after the failover the source replays from the
    // restored checkpoint and the state is rolled back to it, which is another
    // question. A value let through must reach the next task before the crash to
    // be seen passing.
    let crash = trace
        .iter()
        .find(|e| matches!(e.event, Event::TaskFailed { .. }))
        .map_or(u64::MAX, |e| e.t);
    let mut arrivals: BTreeMap<(String, i64), Arrivals> = BTreeMap::new();
    let mut passed: BTreeSet<Origin> = BTreeSet::new();
    for e in trace.iter().take_while(|e| e.t < crash) {
        if let Event::RecordProcessed {
            task,
            key,
            value,
            origin,
            ..
        } = &e.event
        {
            if task.starts_with(&dedup_task) && e.t.saturating_add(out.latency_ms) < crash {
                let key = key.as_deref().unwrap_or_default().to_string();
                arrivals
                    .entry((key, *value))
                    .or_default()
                    .push((e.t, *origin));
            } else if task.starts_with(&out_task) {
                passed.insert(*origin);
            }
        }
    }
    // A value whose second arrival comes within the TTL range of its first: the
    // drawn TTL, not the de-duplication alone, decides whether it passes again.
    // The pair does not depend on the TTL, so the answer is not biased by it.
    let ttl = Kind::TtlPasses
        .ranges()
        .iter()
        .find(|r| r.name == "ttl_ms")
        .expect("ttl_passes draws ttl_ms");
    let chosen = arrivals
        .iter()
        .filter(|(_, a)| a.len() >= 2 && (ttl.min..ttl.max).contains(&(a[1].0 - a[0].0)))
        .max_by_key(|(_, a)| (a.len(), std::cmp::Reverse(a[0].0)));
    let Some(((key, value), times)) = chosen else {
        return Err(DrillError::NoEffect {
            param: "seed",
            why: format!(
                "no value of one key reaches {} twice before the crash at {crash} ms with \
                 the second arrival {}–{} ms after the first: the TTL would decide nothing",
                dedup.uid,
                ttl.min,
                ttl.max - 1
            ),
        });
    };
    let app = key
        .strip_prefix("app")
        .and_then(|n| n.parse::<u64>().ok())
        .ok_or_else(|| lesson_error(&format!("the lesson's keys are app1, app2, …, not {key}")))?;
    let through: BTreeSet<i64> = times
        .iter()
        .filter(|(_, o)| passed.contains(o))
        .map(|(t, _)| *t as i64)
        .collect();
    let mut b = blank("passes", Answer::Set(through));
    b.choices = times.iter().map(|(t, _)| *t as i64).collect();
    // The second arrival is the one the TTL decides: the entry the first wrote
    // has expired by then, or still lives.
    let (written, second) = (times[0].0, times[1].0);
    let ttl_ms = dedup.ttl.map_or(0, |t| t.ttl_ms);
    let expires = written.saturating_add(ttl_ms);
    let args = [
        ("value", value.to_string()),
        ("written", written.to_string()),
        ("ttl_ms", ttl_ms.to_string()),
        ("expires", expires.to_string()),
        ("at", second.to_string()),
    ];
    let key = if passed.contains(&times[1].1) {
        "ttl_expired"
    } else {
        "ttl_alive"
    };
    b.why = Some(why(key, &args, second));
    let last = times.last().map_or(0, |(t, _)| *t);
    Ok((
        question(&[
            ("app", app),
            ("value", u64::try_from(*value).unwrap_or(0)),
            ("crash_ms", crash),
        ]),
        last,
        vec![b],
    ))
}

/// Runs the broadcast filter with `parallelism` subtasks; a scripted crash of a
/// subtask that no longer exists moves to the last one.
pub(super) fn set_broadcast_parallelism(
    s: &mut Scenario,
    parallelism: u64,
) -> Result<(), DrillError> {
    let p = u32::try_from(parallelism).unwrap_or(u32::MAX);
    let i = operator_index(s, OperatorKind::BroadcastFilter)?;
    let op = &mut s.job.operators[i];
    op.parallelism = p;
    let prefix = format!("{}#", op.uid);
    for step in &mut s.script {
        if let ScriptStep::Crash { task, .. } = step {
            let index = task
                .strip_prefix(&prefix)
                .and_then(|i| i.parse::<u32>().ok());
            if index.is_some_and(|i| i >= p) {
                *task = format!("{prefix}{}", p - 1);
            }
        }
    }
    Ok(())
}

/// The rules the broadcast side reads: (due time, key, value), in log order.
fn rules_of(s: &Scenario, uid: &str) -> Vec<(u64, String, i64)> {
    s.job
        .operators
        .iter()
        .filter(|o| o.uid == uid)
        .flat_map(|o| o.partitions.iter().flatten())
        .flat_map(|p| match p {
            PartitionSpec::Records(rs) => rs
                .iter()
                .map(|r| (r.at_ms, r.key.clone().unwrap_or_default(), r.value))
                .collect(),
            PartitionSpec::Generate(_) => Vec::new(),
        })
        .collect()
}

pub(super) fn broadcast_copies(s: &Scenario, checkpoint: u64) -> Result<Made, DrillError> {
    let gate = &s.job.operators[operator_index(s, OperatorKind::BroadcastFilter)?];
    let rules = rules_of(s, gate.rules_from.as_deref().unwrap_or_default());
    let (world, trace) = run(s)?;
    let (triggered, completed, meta) = completed_checkpoint(&world, &trace, checkpoint)?;
    let prefix = format!("{}#", gate.uid);
    let snapshots = snapshot_times(&trace, checkpoint, &prefix);
    // A checkpoint after the filter's subtasks finished (Flink 1.15+ checkpoints
    // after tasks finish) takes no snapshot of theirs: not the question.
    if snapshots.len() < gate.parallelism as usize {
        return Err(DrillError::NoEffect {
            param: "checkpoint",
            why: format!(
                "chk-{checkpoint} is triggered at {triggered} ms, after {}'s subtasks finished",
                gate.uid
            ),
        });
    }
    // A rule read in the very millisecond the barrier is injected: in Flink which
    // comes first is a race, so the question would have no answer.
    if let Some((t, _, _)) = rules.iter().find(|(t, _, _)| *t == triggered) {
        return Err(DrillError::NoEffect {
            param: "interval_ms",
            why: format!(
                "chk-{checkpoint} is triggered at {t} ms, the very millisecond a rule is read"
            ),
        });
    }
    let (copies, per_copy) = rule_copies(&meta, &gate.uid, checkpoint, triggered)?;
    let asked = broadcast_question(s, &rules, checkpoint, &prefix);
    // The moment the last of the filter's subtasks snapshots its copy.
    let last_snapshot = snapshots.iter().max().copied().unwrap_or(completed);
    let mut copies_blank = blank("copies", Answer::Number(copies as i64));
    copies_blank.why = Some(why(
        "broadcast_copies",
        &[
            ("operator", gate.uid.clone()),
            ("parallelism", gate.parallelism.to_string()),
            ("checkpoint", checkpoint.to_string()),
        ],
        last_snapshot,
    ));
    // The rules read before the barrier: the ones due before the trigger.
    let before: Vec<u64> = rules
        .iter()
        .map(|(t, _, _)| *t)
        .filter(|t| *t < triggered)
        .collect();
    let mut rules_blank = blank("rules", Answer::Number(per_copy as i64));
    rules_blank.why = Some(why(
        "broadcast_rules",
        &[
            ("checkpoint", checkpoint.to_string()),
            ("triggered", triggered.to_string()),
            ("rules", before.len().to_string()),
            (
                "last_ms",
                before.iter().max().copied().unwrap_or(0).to_string(),
            ),
        ],
        triggered,
    ));
    Ok((question(&asked), completed, vec![copies_blank, rules_blank]))
}

/// When chk-`checkpoint` was triggered and completed, and its metadata; a
/// checkpoint that never completes cannot be asked about.
fn completed_checkpoint(
    world: &World,
    trace: &[TraceEvent],
    checkpoint: u64,
) -> Result<(u64, u64, Value), DrillError> {
    let at = |pick: fn(&Event) -> Option<u64>| {
        trace
            .iter()
            .find(|e| pick(&e.event) == Some(checkpoint))
            .map(|e| e.t)
    };
    let triggered = at(|e| match e {
        Event::CheckpointTriggered { checkpoint, .. } => Some(checkpoint.0),
        _ => None,
    });
    let completed = at(|e| match e {
        Event::CheckpointCompleted { checkpoint } => Some(checkpoint.0),
        _ => None,
    });
    let meta = metadata(world, checkpoint);
    let (Some(triggered), Some(completed), Some(meta)) = (triggered, completed, meta) else {
        return Err(DrillError::NoEffect {
            param: "checkpoint",
            why: format!("chk-{checkpoint} does not complete in this run"),
        });
    };
    Ok((triggered, completed, meta))
}

/// The times at which the subtasks named `prefix…` snapshot for chk-`checkpoint`.
fn snapshot_times(trace: &[TraceEvent], checkpoint: u64, prefix: &str) -> Vec<u64> {
    trace
        .iter()
        .filter(|e| {
            matches!(&e.event, Event::SnapshotTaken { task, checkpoint: c, .. }
                if c.0 == checkpoint && task.starts_with(prefix))
        })
        .map(|e| e.t)
        .collect()
}

/// How many copies of the broadcast state the filter `uid`'s subtasks stored in
/// chk-`checkpoint`, and how many rules each holds: every copy must be the same,
/// and an empty one does not show the effect.
fn rule_copies(
    meta: &Value,
    uid: &str,
    checkpoint: u64,
    triggered: u64,
) -> Result<(usize, usize), DrillError> {
    // Every subtask snapshots its own copy (Flink: each task writes its broadcast
    // state into the checkpoint, so that a restore reads no shared file).
    let copies: Vec<usize> = meta[uid]["operator"]
        .as_array()
        .map(|subtasks| {
            subtasks
                .iter()
                .filter_map(|c| c["rules"].as_object().map(|r| r.len()))
                .collect()
        })
        .unwrap_or_default();
    let per_copy = copies.first().copied().unwrap_or(0);
    if copies.iter().any(|n| *n != per_copy) {
        return Err(lesson_error(&format!(
            "the copies of chk-{checkpoint} differ: {copies:?} rules"
        )));
    }
    if per_copy == 0 {
        return Err(DrillError::NoEffect {
            param: "checkpoint",
            why: format!(
                "chk-{checkpoint} is triggered at {triggered} ms, before the first rule: \
                 its copies are empty"
            ),
        });
    }
    Ok((copies.len(), per_copy))
}

/// The values the broadcast question names: the checkpoint, when each rule is
/// read and its value, and the scripted crash with the filter subtask it hits.
fn broadcast_question(
    s: &Scenario,
    rules: &[(u64, String, i64)],
    checkpoint: u64,
    prefix: &str,
) -> Vec<(&'static str, u64)> {
    let rule = |k: &str| rules.iter().find(|(_, key, _)| key == k);
    let value = |v: i64| u64::try_from(v).unwrap_or(0);
    let mut asked = vec![("checkpoint", checkpoint)];
    if let Some((t, _, v)) = rule("min") {
        asked.extend([("min_ms", *t), ("min_value", value(*v))]);
    }
    if let Some((t, _, v)) = rule("max") {
        asked.extend([("max_ms", *t), ("max_value", value(*v))]);
    }
    if let Some((t, task)) = s.script.iter().find_map(|step| match step {
        ScriptStep::Crash { at_ms, task } => Some((*at_ms, task)),
        _ => None,
    }) {
        asked.push(("crash_ms", t));
        if let Some(i) = task
            .strip_prefix(prefix)
            .and_then(|i| i.parse::<u64>().ok())
        {
            asked.push(("crashed", i));
        }
    }
    asked
}
