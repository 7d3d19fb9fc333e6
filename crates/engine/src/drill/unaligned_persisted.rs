//! What an unaligned checkpoint persists on an input channel, on
//! `unaligned-backpressure`: the records that reach the subtask on that channel
//! ahead of the channel's barrier, once the subtask's first barrier has started
//! the checkpoint.
//!
//! Flink: the first barrier starts the checkpoint at once
//! (`SingleCheckpointBarrierHandler` with `AlternatingWaitingForFirstBarrierUnaligned`);
//! from then until a channel's own barrier arrives, every buffer read from that
//! channel is channel state (`ChannelStatePersister.maybePersist`,
//! `CheckpointOptions.isUnalignedCheckpoint`), written as the channel's
//! `InputChannelStateHandle`.

use super::{blank, listed, metadata, question, reason, run, Answer, DrillError, Made};
use crate::event::Event;
use crate::scenario::Scenario;

/// The operator whose input channels the exercise asks about, and its upstream.
const TASK: &str = "slow-sum";
const UPSTREAM: &str = "enrich";

/// Gives the channels into the slow operator buffers of `capacity` records.
pub(super) fn set_buffers(s: &mut Scenario, capacity: u64) -> Result<(), DrillError> {
    let edge = s
        .job
        .edges
        .iter_mut()
        .find(|e| e.from == UPSTREAM && e.to == TASK)
        .ok_or_else(|| DrillError::Scenario(format!("no edge {UPSTREAM} → {TASK}")))?;
    edge.buffer_capacity = u32::try_from(capacity).unwrap_or(u32::MAX);
    Ok(())
}

pub(super) fn unaligned_persisted(s: &Scenario, checkpoint: u64) -> Result<Made, DrillError> {
    let (world, trace) = run(s)?;
    let prefix = format!("{TASK}#");
    // The first channel whose barrier arrives with records persisted ahead of it.
    let overtook = trace.iter().find_map(|e| match &e.event {
        Event::BarrierOvertook {
            task,
            channel,
            checkpoint: c,
            records,
        } if c.0 == checkpoint && task.starts_with(&prefix) && *records > 0 => {
            Some((e.t, task.clone(), *channel, *records))
        }
        _ => None,
    });
    let Some((arrived, task, channel, records)) = overtook else {
        return Err(DrillError::NoEffect {
            param: "seed",
            why: format!("chk-{checkpoint} persists no record on any of {TASK}'s inputs"),
        });
    };
    let first = trace
        .iter()
        .find(|e| {
            matches!(&e.event, Event::BarrierReceived { task: t, checkpoint: c, .. }
                if *t == task && c.0 == checkpoint)
        })
        .map_or(arrived, |e| e.t);
    let graph = world.setup();
    let to = world.task_id(&task);
    let from = world
        .channels()
        .iter()
        .find(|c| Some(c.to) == to && c.input == channel)
        .map(|c| graph.tasks[c.from].name.clone())
        .ok_or_else(|| DrillError::Scenario(format!("{task} has no input {}", channel.0)))?;
    let index = |name: &str| {
        name.rsplit_once('#')
            .and_then(|(_, i)| i.parse::<u64>().ok())
            .unwrap_or(0)
    };
    if !from.starts_with(&format!("{UPSTREAM}#")) {
        return Err(DrillError::Scenario(format!(
            "{task}'s input {} comes from {from}, not {UPSTREAM}",
            channel.0
        )));
    }
    // The records themselves, as chk-N's _metadata lists them.
    let values: Vec<i64> = metadata(&world, checkpoint)
        .and_then(|m| {
            m[TASK]["channels"][index(&task).to_string()][format!("in{}", channel.0)]
                .as_array()
                .map(|rs| rs.iter().filter_map(|r| r["value"].as_i64()).collect())
        })
        .ok_or_else(|| DrillError::NoEffect {
            param: "seed",
            why: format!("chk-{checkpoint} does not complete"),
        })?;
    let why = reason(
        "unaligned_persisted",
        &[
            ("checkpoint", checkpoint.to_string()),
            ("task", task.to_string()),
            ("from", from.to_string()),
            ("first_ms", first.to_string()),
            ("arrived_ms", arrived.to_string()),
            ("persisted", records.to_string()),
            ("values", listed(&values)),
        ],
        arrived,
    );
    let mut b = blank("persisted", Answer::Number(i64::from(records)));
    b.why = Some(why);
    Ok((
        question(&[
            ("checkpoint", checkpoint),
            ("subtask", index(&task)),
            ("upstream", index(&from)),
            ("first_ms", first),
            ("arrived_ms", arrived),
        ]),
        first,
        vec![b],
    ))
}
