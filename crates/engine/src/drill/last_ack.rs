//! Which acknowledgement completes a checkpoint, on `exactly-once-kafka`: the
//! coordinator completes checkpoint N when the last subtask it waits for has
//! acknowledged — the subtask the barrier reaches last, once its asynchronous part
//! is done. The variant runs count and kafka-out as two subtasks each (app1's
//! records go to count#0, app2's to count#1) and makes count take time per
//! record: the barrier waits behind the records queued ahead of it, so which
//! kafka-out subtask acknowledges last depends on the variant's records.
//!
//! Flink: `CheckpointCoordinator.receiveAcknowledgeMessage` →
//! `PendingCheckpoint.acknowledgeTask`; once `isFullyAcknowledged()`,
//! `completePendingCheckpoint` finalizes the checkpoint. A subtask acknowledges
//! after the asynchronous part of its snapshot
//! (`AsyncCheckpointRunnable.reportCompletedSnapshotStates`). An aligned barrier
//! is handled in its channel's order, after the records before it
//! (`CheckpointedInputGate.pollNext`).

use super::{explained, question, reason, run, Answer, Blank, DrillError, Made};
use crate::event::{Event, TraceEvent};
use crate::scenario::{Partitioning, Scenario};

/// The subtasks of count and of kafka-out: with max parallelism 128, app1 falls
/// to count#0 and app2 to count#1, so each count subtask has its own queue.
const PARALLELISM: u32 = 2;

/// Drops the lesson's crash (the question is about a checkpoint of an undisturbed
/// run), runs count and kafka-out as [`PARALLELISM`] subtasks joined one to one,
/// and sets count's time per record, the asynchronous part and the sink edge's
/// latency.
pub(super) fn set_timing(
    s: &mut Scenario,
    process_ms: u64,
    async_ms: u64,
    latency_ms: u64,
) -> Result<(), DrillError> {
    s.script.clear();
    let cfg = s
        .checkpointing
        .as_mut()
        .ok_or_else(|| DrillError::Scenario("the lesson does not checkpoint".into()))?;
    cfg.async_ms = async_ms;
    let [_, count, sink] = &mut s.job.operators[..] else {
        return Err(DrillError::Scenario(
            "the lesson is not source → count → sink".into(),
        ));
    };
    count.process_ms = process_ms;
    count.parallelism = PARALLELISM;
    sink.parallelism = PARALLELISM;
    let last = s
        .job
        .edges
        .last_mut()
        .ok_or_else(|| DrillError::Scenario("the lesson has no edge".into()))?;
    last.latency_ms = latency_ms;
    last.partitioning = Some(Partitioning::Forward);
    Ok(())
}

/// When the source `uid`'s subtask finished, if it did.
pub(super) fn source_finished(trace: &[TraceEvent], uid: &str) -> Option<u64> {
    let prefix = format!("{uid}#");
    trace.iter().find_map(|e| match &e.event {
        Event::TaskFinished { task } if task.starts_with(&prefix) => Some(e.t),
        _ => None,
    })
}

pub(super) fn last_ack(s: &Scenario, checkpoint: u64) -> Result<Made, DrillError> {
    let (world, trace) = run(s)?;
    let mut trigger = None;
    let mut acks: Vec<(u64, String)> = Vec::new();
    let mut completed = None;
    for e in &trace {
        match &e.event {
            Event::CheckpointTriggered { checkpoint: c, .. } if c.0 == checkpoint => {
                trigger = Some(e.t)
            }
            Event::CheckpointAcknowledged {
                task,
                checkpoint: c,
            } if c.0 == checkpoint => acks.push((e.t, task.to_string())),
            Event::CheckpointCompleted { checkpoint: c } if c.0 == checkpoint => {
                completed = Some(e.t);
                break;
            }
            _ => {}
        }
    }
    let (Some(trigger), Some(completed), Some((_, last))) = (trigger, completed, acks.last())
    else {
        return Err(DrillError::NoEffect {
            param: "checkpoint",
            why: format!("chk-{checkpoint} does not complete"),
        });
    };
    // Once the source has read its last record no barrier runs down the line:
    // the coordinator triggers the subtasks whose inputs ended itself.
    if let Some(done) = source_finished(&trace, &s.job.operators[0].uid) {
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
    // Two acknowledgements in the completing millisecond: which one the
    // coordinator counts last is the lab's order, not a rule.
    if acks.iter().filter(|(t, _)| *t == completed).count() > 1 {
        return Err(DrillError::NoEffect {
            param: "async_ms",
            why: format!("two subtasks acknowledge chk-{checkpoint} at {completed} ms"),
        });
    }
    let barrier = trace
        .iter()
        .find(|e| {
            matches!(&e.event, Event::SnapshotTaken { task, checkpoint: c, .. }
                if **task == **last && c.0 == checkpoint)
        })
        .map_or(trigger, |e| e.t);
    // The count subtask feeding the last one (one to one): its barrier waited
    // behind the records queued ahead of it.
    let count = &s.job.operators[1];
    let upstream = last
        .rsplit_once('#')
        .map(|(_, i)| format!("{}#{i}", count.uid))
        .unwrap_or_default();
    let received = trace
        .iter()
        .find(|e| {
            matches!(&e.event, Event::BarrierReceived { task, checkpoint: c, .. }
                if **task == *upstream && c.0 == checkpoint)
        })
        .map_or(trigger, |e| e.t);
    let cfg = s.checkpointing.clone().unwrap_or_default();
    let latencies: Vec<u64> = s.job.edges.iter().map(|e| e.latency_ms).collect();
    let why = reason(
        "last_ack",
        &[
            ("checkpoint", checkpoint.to_string()),
            ("trigger_ms", trigger.to_string()),
            ("completed_ms", completed.to_string()),
            ("acks", acks.len().to_string()),
            ("last", last.clone()),
            ("upstream", upstream),
            ("process_ms", count.process_ms.to_string()),
            ("received_ms", received.to_string()),
            ("snapshot_ms", barrier.to_string()),
            ("async_ms", cfg.async_ms.to_string()),
        ],
        completed,
    );
    let labels: Vec<String> = world
        .setup()
        .tasks
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    let who = Blank {
        labels,
        ..super::blank("last", Answer::Labels([last.clone()].into()))
    };
    let mut asked = vec![
        ("checkpoint", checkpoint),
        ("trigger_ms", trigger),
        ("interval_ms", cfg.interval_ms.unwrap_or(0)),
        ("async_ms", cfg.async_ms),
        ("process_ms", count.process_ms),
    ];
    let names = ["latency_1_ms", "latency_2_ms"];
    asked.extend(names.iter().copied().zip(latencies.iter().copied()));
    Ok((
        question(&asked),
        completed,
        explained(
            vec![
                super::blank("completed_ms", Answer::Number(completed as i64)),
                who,
            ],
            &why,
        ),
    ))
}
