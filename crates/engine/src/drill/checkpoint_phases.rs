//! A checkpoint's phases at one subtask, on `odd-even-sum`: the barrier is
//! forwarded before the synchronous snapshot, and the acknowledgement follows the
//! asynchronous part — so the subtask downstream may take its own snapshot while
//! this one still uploads, or only after it acknowledged, as the edge's latency
//! and the asynchronous part fall in the variant.
//!
//! Flink: `SubtaskCheckpointCoordinatorImpl.checkpointState` — step 1 prepares,
//! step 2 sends the barrier downstream (`operatorChain.broadcastEvent`), step 3
//! takes the synchronous snapshot (`takeSnapshotSync`), step 4 hands the
//! asynchronous part to `AsyncCheckpointRunnable`, which acknowledges when done.
//! The phase boundaries are read from the engine's phases view (Flink's
//! `SubtaskStateStats`).

use super::{question, reason, run, Answer, Blank, DrillError, Made};
use crate::event::Event;
use crate::scenario::Scenario;

/// The subtask asked about: one input, one output.
const TASK: &str = "sum#0";
/// The subtask right after it, the one its forwarded barrier reaches.
const DOWNSTREAM: &str = "out#0";
/// Which comes first, as labels the page words: the downstream subtask's
/// snapshot, or the asked subtask's acknowledgement.
const DOWNSTREAM_FIRST: &str = "downstream_snapshot_first";
const ACK_FIRST: &str = "ack_first";

/// Drops the lesson's crash (the question is about an undisturbed checkpoint) and
/// sets the asynchronous part, the latency into the subtask and the latency out
/// of it.
pub(super) fn set_timing(
    s: &mut Scenario,
    async_ms: u64,
    latency_ms: u64,
    out_latency_ms: u64,
) -> Result<(), DrillError> {
    s.script.clear();
    let cfg = s
        .checkpointing
        .as_mut()
        .ok_or_else(|| DrillError::Scenario("the lesson does not checkpoint".into()))?;
    cfg.async_ms = async_ms;
    let uid = TASK.split('#').next().unwrap_or(TASK);
    let mut edge = |pick: &dyn Fn(&crate::scenario::EdgeSpec) -> bool, ms: u64, what: &str| {
        s.job
            .edges
            .iter_mut()
            .find(|e| pick(e))
            .map(|e| e.latency_ms = ms)
            .ok_or_else(|| DrillError::Scenario(format!("no edge {what} {uid}")))
    };
    edge(&|e| e.to == uid, latency_ms, "into")?;
    edge(&|e| e.from == uid, out_latency_ms, "out of")
}

pub(super) fn checkpoint_phases(s: &Scenario, checkpoint: u64) -> Result<Made, DrillError> {
    let (world, trace) = run(s)?;
    let phases = world
        .checkpoint_phases()
        .into_iter()
        .find(|p| p.checkpoint.0 == checkpoint);
    let sub = |name: &str| {
        phases
            .as_ref()
            .and_then(|p| p.subtasks.iter().find(|t| &*t.name == name))
    };
    let no_effect = || DrillError::NoEffect {
        param: "interval_ms",
        why: format!("chk-{checkpoint} does not reach {TASK}'s acknowledgement"),
    };
    let (Some(task), Some(down)) = (sub(TASK), sub(DOWNSTREAM)) else {
        return Err(no_effect());
    };
    let (Some(forwarded), Some(snapshot), Some(ack), Some(down_snapshot)) = (
        task.forwarded_at,
        task.snapshot_at,
        task.ack_at,
        down.snapshot_at,
    ) else {
        return Err(no_effect());
    };
    let trigger = phases.as_ref().map_or(0, |p| p.trigger_at);
    // Once the source has read its last number no barrier runs down the line.
    if let Some(done) = super::last_ack::source_finished(&trace, &s.job.operators[0].uid) {
        if done <= trigger {
            return Err(DrillError::NoEffect {
                param: "checkpoint",
                why: format!(
                    "chk-{checkpoint} is triggered at {trigger} ms, after the source finished at \
                     {done} ms"
                ),
            });
        }
    }
    // Both in one millisecond: which the lab handles first is its order, not a rule.
    if down_snapshot == ack {
        return Err(DrillError::NoEffect {
            param: "async_ms",
            why: format!(
                "{DOWNSTREAM} snapshots chk-{checkpoint} the millisecond {TASK} acknowledges it \
                 ({ack} ms)"
            ),
        });
    }
    // Which came first, from the trace's order of the two events.
    let position = |pick: &dyn Fn(&Event) -> bool| trace.iter().position(|e| pick(&e.event));
    let down_pos = position(&|e| {
        matches!(e, Event::SnapshotTaken { task, checkpoint: c, .. }
            if &**task == DOWNSTREAM && c.0 == checkpoint)
    });
    let ack_pos = position(&|e| {
        matches!(e, Event::CheckpointAcknowledged { task, checkpoint: c }
            if &**task == TASK && c.0 == checkpoint)
    });
    let first = match (down_pos, ack_pos) {
        (Some(d), Some(a)) if d < a => DOWNSTREAM_FIRST,
        (Some(_), Some(_)) => ACK_FIRST,
        _ => return Err(no_effect()),
    };
    let cfg = s.checkpointing.clone().unwrap_or_default();
    let latencies: Vec<u64> = s.job.edges.iter().map(|e| e.latency_ms).collect();
    let args = [
        ("checkpoint", checkpoint.to_string()),
        ("task", TASK.to_string()),
        ("downstream", DOWNSTREAM.to_string()),
        ("trigger_ms", trigger.to_string()),
        ("forwarded_ms", forwarded.to_string()),
        ("snapshot_ms", snapshot.to_string()),
        ("downstream_ms", down_snapshot.to_string()),
        ("async_ms", (ack - snapshot).to_string()),
        ("ack_ms", ack.to_string()),
    ];
    // Each blank's reason replays to the moment that shows its answer: the
    // earlier of the two events for the order (the other has not happened yet),
    // the barrier leaving, the acknowledgement.
    let why = |at: u64| Some(reason("checkpoint_phases", &args, at));
    let order = Blank {
        labels: vec![DOWNSTREAM_FIRST.into(), ACK_FIRST.into()],
        why: why(down_snapshot.min(ack)),
        ..super::blank("first", Answer::Labels([first.to_string()].into()))
    };
    let timed = |name: &str, at: u64| Blank {
        why: why(at),
        ..super::blank(name, Answer::Number(at as i64))
    };
    let mut asked = vec![
        ("checkpoint", checkpoint),
        ("trigger_ms", trigger),
        ("interval_ms", cfg.interval_ms.unwrap_or(0)),
        ("async_ms", cfg.async_ms),
    ];
    let names = ["latency_1_ms", "latency_2_ms", "latency_3_ms"];
    asked.extend(names.iter().copied().zip(latencies.iter().copied()));
    Ok((
        question(&asked),
        forwarded,
        vec![
            order,
            timed("forwarded_ms", forwarded),
            timed("ack_ms", ack),
        ],
    ))
}
