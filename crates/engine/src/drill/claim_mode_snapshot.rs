//! Restore claim modes on `restore-claim`: a job started from chk-N of an earlier
//! job, asked which snapshots are still on disk at a time — under `CLAIM`, where
//! the restored snapshot is one of the job's retained checkpoints and is deleted
//! once newer ones push it out, and under `NO_CLAIM`, where it stays the user's.
//!
//! Flink: `CheckpointCoordinator.restoreSavepoint` adds the restored snapshot to
//! the completed-checkpoint store in both modes; under `NO_CLAIM` with
//! `CheckpointProperties.forUnclaimedSnapshot()`, which never discards it.
//! `DefaultCompletedCheckpointStore.addCheckpointAndSubsumeOldestOne` keeps
//! `execution.checkpointing.num-retained` checkpoints and discards the oldest.

use std::collections::BTreeSet;

use super::state::{lesson_error, why};
use super::{question, run, Answer, Blank, DrillError, Made};
use crate::event::Event;
use crate::scenario::{ClaimMode, Scenario};
use crate::world::World;

/// Keeps `retained` checkpoints (`execution.checkpointing.num-retained`).
pub(super) fn set_retained(s: &mut Scenario, retained: u64) -> Result<(), DrillError> {
    let cfg = s
        .checkpointing
        .as_mut()
        .ok_or_else(|| lesson_error("the lesson has no checkpointing"))?;
    cfg.retained = u32::try_from(retained).unwrap_or(u32::MAX);
    Ok(())
}

fn with_mode(s: &Scenario, mode: ClaimMode) -> Result<Scenario, DrillError> {
    let mut s = s.clone();
    s.restore
        .as_mut()
        .ok_or_else(|| lesson_error("the lesson restores no snapshot"))?
        .claim_mode = mode;
    Ok(s)
}

/// The snapshots on disk at `at_ms` as the coordinator holds them: its retained
/// store, and the restored snapshot it let go of unclaimed.
fn on_disk(s: &Scenario, at_ms: u64) -> Result<BTreeSet<u64>, DrillError> {
    let mut world = World::new(s, s.seed).map_err(|e| DrillError::Scenario(e.to_string()))?;
    world.run_until(at_ms, |_| {});
    let c = world.coordinator();
    Ok(c.store()
        .iter()
        .chain(c.released())
        .map(|c| c.id.0)
        .collect())
}

fn labels(ids: &BTreeSet<u64>) -> BTreeSet<String> {
    ids.iter().map(|id| format!("chk-{id}")).collect()
}

pub(super) fn claim_mode_snapshot(s: &Scenario, at_ms: u64) -> Result<Made, DrillError> {
    let claim = with_mode(s, ClaimMode::Claim)?;
    let (_, trace) = run(&claim)?;
    let restored = trace
        .iter()
        .find_map(|e| match &e.event {
            Event::StateRestored {
                checkpoint: Some(c),
                ..
            } => Some(c.0),
            _ => None,
        })
        .ok_or_else(|| lesson_error("the lesson restores no checkpoint"))?;
    let no_effect = |why: String| DrillError::NoEffect {
        param: "at_ms",
        why,
    };
    if let Some(e) = trace.iter().find(|e| {
        matches!(
            e.event,
            Event::CheckpointsDiscarded { .. } | Event::JobFinished | Event::JobCanceled
        )
    }) {
        if e.t <= at_ms {
            return Err(no_effect(format!("the job has ended by {at_ms} ms")));
        }
    }
    let completed: Vec<(u64, u64)> = trace
        .iter()
        .filter_map(|e| match e.event {
            Event::CheckpointCompleted { checkpoint } => Some((e.t, checkpoint.0)),
            _ => None,
        })
        .collect();
    // A checkpoint completing in the very millisecond asked about: which of the
    // two the question means would be a guess.
    if completed.iter().any(|(t, _)| *t == at_ms) {
        return Err(no_effect(format!(
            "a checkpoint completes at {at_ms} ms itself"
        )));
    }
    let own: Vec<(u64, u64)> = completed.into_iter().filter(|(t, _)| *t < at_ms).collect();
    let Some(&(_, last)) = own.last() else {
        return Err(no_effect(format!(
            "no checkpoint of the job completes before {at_ms} ms"
        )));
    };
    let choices: Vec<String> = (restored..=last).map(|id| format!("chk-{id}")).collect();
    let retained = s.checkpointing.as_ref().map_or(1, |c| c.retained);
    let claimed = on_disk(&claim, at_ms)?;
    let unclaimed = on_disk(&with_mode(s, ClaimMode::NoClaim)?, at_ms)?;
    let deleted = trace.iter().find_map(|e| match e.event {
        Event::ClaimedSnapshotDeleted { checkpoint } if e.t < at_ms => Some((e.t, checkpoint.0)),
        _ => None,
    });
    let kept_own = |set: &BTreeSet<u64>| {
        let ids: Vec<String> = set
            .iter()
            .filter(|id| **id != restored)
            .map(|id| format!("chk-{id}"))
            .collect();
        ids.join(", ")
    };
    let common = |set: &BTreeSet<u64>| {
        vec![
            ("restored", restored.to_string()),
            ("retained", retained.to_string()),
            ("kept", kept_own(set)),
            ("at", at_ms.to_string()),
        ]
    };
    let claim_why = match deleted {
        Some((t, gone)) => {
            let by = own.iter().find(|(c, _)| *c == t).map_or(0, |(_, id)| *id);
            let mut args = common(&claimed);
            debug_assert_eq!(gone, restored, "only the restored snapshot is claimed");
            args.extend([("by", by.to_string()), ("deleted", t.to_string())]);
            why("claim_deleted", &args, t)
        }
        None => why("claim_kept", &common(&claimed), own[own.len() - 1].0),
    };
    let no_claim_why = why("no_claim_kept", &common(&unclaimed), own[own.len() - 1].0);
    let blank = |name: &str, ids: &BTreeSet<u64>, why| Blank {
        name: name.to_string(),
        answer: Answer::Labels(labels(ids)),
        choices: Vec::new(),
        labels: choices.clone(),
        why: Some(why),
    };
    Ok((
        question(&[
            ("restored", restored),
            ("retained", u64::from(retained)),
            ("at_ms", at_ms),
            ("first", restored + 1),
            ("last", last),
        ]),
        own[own.len() - 1].0,
        vec![
            blank("on_disk_claim", &claimed, claim_why),
            blank("on_disk_no_claim", &unclaimed, no_claim_why),
        ],
    ))
}
