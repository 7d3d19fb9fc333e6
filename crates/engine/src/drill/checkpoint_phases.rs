//! A checkpoint's phases at one subtask, on `odd-even-sum`: the barrier is
//! forwarded before the synchronous snapshot, and the acknowledgement follows the
//! asynchronous part.
//!
//! Flink: `SubtaskCheckpointCoordinatorImpl.checkpointState` — step 1 prepares,
//! step 2 sends the barrier downstream (`operatorChain.broadcastEvent`), step 3
//! takes the synchronous snapshot (`takeSnapshotSync`), step 4 hands the
//! asynchronous part to `AsyncCheckpointRunnable`, which acknowledges when done.
//! The phase boundaries are read from the engine's phases view (Flink's
//! `SubtaskStateStats`).

use super::{explained, question, reason, run, Answer, Blank, DrillError, Made};
use crate::event::Event;
use crate::scenario::Scenario;

/// The subtask asked about: one input, one output.
const TASK: &str = "sum#0";
/// Which comes first at the subtask, as labels the page words.
pub(super) const FORWARD_FIRST: &str = "forward_first";
const SNAPSHOT_FIRST: &str = "snapshot_first";

/// Drops the lesson's crash (the question is about an undisturbed checkpoint) and
/// sets the asynchronous part and the latency into the subtask.
pub(super) fn set_timing(
    s: &mut Scenario,
    async_ms: u64,
    latency_ms: u64,
) -> Result<(), DrillError> {
    s.script.clear();
    let cfg = s
        .checkpointing
        .as_mut()
        .ok_or_else(|| DrillError::Scenario("the lesson does not checkpoint".into()))?;
    cfg.async_ms = async_ms;
    let uid = TASK.split('#').next().unwrap_or(TASK);
    let into = s
        .job
        .edges
        .iter_mut()
        .find(|e| e.to == uid)
        .ok_or_else(|| DrillError::Scenario(format!("no edge into {uid}")))?;
    into.latency_ms = latency_ms;
    Ok(())
}

pub(super) fn checkpoint_phases(s: &Scenario, checkpoint: u64) -> Result<Made, DrillError> {
    let (world, trace) = run(s)?;
    let phases = world
        .checkpoint_phases()
        .into_iter()
        .find(|p| p.checkpoint.0 == checkpoint);
    let sub = phases
        .as_ref()
        .and_then(|p| p.subtasks.iter().find(|t| &*t.name == TASK));
    let no_effect = || DrillError::NoEffect {
        param: "interval_ms",
        why: format!("chk-{checkpoint} does not reach {TASK}'s acknowledgement"),
    };
    let sub = sub.ok_or_else(no_effect)?;
    let (Some(forwarded), Some(snapshot), Some(ack)) =
        (sub.forwarded_at, sub.snapshot_at, sub.ack_at)
    else {
        return Err(no_effect());
    };
    // The order within the instant, from the trace: the barrier left first.
    let position = |pick: fn(&Event, u64) -> bool| {
        trace
            .iter()
            .position(|e| pick(&e.event, checkpoint))
            .unwrap_or(usize::MAX)
    };
    let forward_pos = position(
        |e, n| matches!(e, Event::BarrierForwarded { task, checkpoint: c, .. } if &**task == TASK && c.0 == n),
    );
    let snapshot_pos = position(
        |e, n| matches!(e, Event::SnapshotTaken { task, checkpoint: c, .. } if &**task == TASK && c.0 == n),
    );
    let first = if forward_pos < snapshot_pos {
        FORWARD_FIRST
    } else {
        SNAPSHOT_FIRST
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
    let cfg = s.checkpointing.clone().unwrap_or_default();
    let latencies: Vec<u64> = s.job.edges.iter().map(|e| e.latency_ms).collect();
    let why = reason(
        "checkpoint_phases",
        &[
            ("checkpoint", checkpoint.to_string()),
            ("task", TASK.to_string()),
            ("trigger_ms", trigger.to_string()),
            ("forwarded_ms", forwarded.to_string()),
            ("snapshot_ms", snapshot.to_string()),
            ("async_ms", (ack - snapshot).to_string()),
            ("ack_ms", ack.to_string()),
        ],
        forwarded,
    );
    let order = Blank {
        labels: vec![FORWARD_FIRST.into(), SNAPSHOT_FIRST.into()],
        ..super::blank("first", Answer::Labels([first.to_string()].into()))
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
        explained(
            vec![
                order,
                super::blank("forwarded_ms", Answer::Number(forwarded as i64)),
                super::blank("ack_ms", Answer::Number(ack as i64)),
            ],
            &why,
        ),
    ))
}
