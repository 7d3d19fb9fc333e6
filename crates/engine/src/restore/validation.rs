//! The checks before any state is assigned: the new job against the snapshot
//! (Flink: `Checkpoints.loadAndValidateCheckpoint`,
//! `StateAssignmentOperation.checkParallelismPreconditions`), the stored state
//! against itself (so that nothing after them can panic), and the lab's limits on
//! persisted in-flight data.

use super::error::{corrupt, RestoreError};
use super::NonRestoredState;
use super::metadata::{
    input_layout, output_layout, DistributionMode, EdgeLayout, OperatorState, SavepointState,
    SubtaskState,
};
use crate::keygroup;
use crate::parallelism::MaxParallelism;
use crate::scenario::Job;
use std::collections::{BTreeMap, BTreeSet};

/// No two operators of the new job share a uid (Flink refuses the job graph: a hash
/// collision on user-specified IDs).
pub(super) fn check_unique_uids(new_job: &Job) -> Result<(), RestoreError> {
    let mut seen = BTreeSet::new();
    for op in &new_job.operators {
        if !seen.insert(op.uid.as_str()) {
            return Err(RestoreError::InvalidJob {
                uid: op.uid.clone(),
                what: "its uid is used by more than one operator (Flink: hash collision on user-specified ID)".into(),
            });
        }
    }
    Ok(())
}

/// Flink: `Checkpoints.loadAndValidateCheckpoint` — every stored operator maps to
/// an operator of the new job with a compatible max parallelism, or its state may
/// be skipped ([`NonRestoredState::Skip`], or nothing stored).
pub(super) fn load_and_validate_checkpoint(
    state: &SavepointState,
    new_job: &Job,
    non_restored: NonRestoredState,
) -> Result<(), RestoreError> {
    let allow_non_restored_state = non_restored == NonRestoredState::Skip;
    let pointer = state.pointer();
    for (uid, op_state) in &state.operators {
        match new_job.operator(uid) {
            Some(op) => {
                let configured = MaxParallelism::of(new_job, op);
                if op_state.max_parallelism != configured.value()
                    && !configured.can_rescale_to(op_state.max_parallelism)
                {
                    return Err(RestoreError::MaxParallelismMismatch {
                        pointer,
                        uid: uid.clone(),
                        stored: op_state.max_parallelism,
                        new: configured.value(),
                    });
                }
            }
            None if allow_non_restored_state || !op_state.has_state() => {}
            None => {
                return Err(RestoreError::NotMapped {
                    pointer,
                    uid: uid.clone(),
                })
            }
        }
    }
    Ok(())
}

/// Check the stored operator for self-consistency, so that nothing below can panic.
pub(super) fn check_stored(uid: &str, old: &OperatorState) -> Result<(), RestoreError> {
    if !(1..=keygroup::UPPER_BOUND_MAX_PARALLELISM).contains(&old.max_parallelism) {
        return Err(corrupt(
            uid,
            format!(
                "max parallelism {} is not within 1..=32768",
                old.max_parallelism
            ),
        ));
    }
    if old.parallelism == 0 {
        return Err(corrupt(uid, "parallelism 0"));
    }
    if old.subtasks.len() as u64 != u64::from(old.parallelism) {
        return Err(corrupt(
            uid,
            format!(
                "{} subtask states for parallelism {}",
                old.subtasks.len(),
                old.parallelism
            ),
        ));
    }
    // One mode per state name.
    let mut modes: BTreeMap<&str, DistributionMode> = BTreeMap::new();
    for s in &old.subtasks {
        for (name, list) in &s.operator {
            if let Some(m) = modes.insert(name, list.mode) {
                if m != list.mode {
                    return Err(corrupt(
                        uid,
                        format!("list state \"{name}\" is stored with two distribution modes"),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Flink: `StateAssignmentOperation.checkParallelismPreconditions` — the new
/// parallelism must not exceed the stored max parallelism (nor be 0).
pub(super) fn check_parallelism_preconditions(
    uid: &str,
    old: &OperatorState,
    new_p: u32,
) -> Result<(), RestoreError> {
    if new_p == 0 {
        return Err(RestoreError::InvalidJob {
            uid: uid.to_string(),
            what: "parallelism 0".into(),
        });
    }
    if old.max_parallelism < new_p {
        return Err(RestoreError::ParallelismAboveMaxParallelism {
            uid: uid.to_string(),
            max_parallelism: old.max_parallelism,
            parallelism: new_p,
        });
    }
    Ok(())
}

/// Persisted in-flight records restore only as they were: unchanged parallelism and
/// unchanged edges at the operator (Flink rescales them with an
/// `InflightDataRescalingDescriptor`; the lab does not). Returns whether the
/// operator has any.
pub(super) fn check_channel_state(
    uid: &str,
    old: &OperatorState,
    new_p: u32,
    new_job: &Job,
) -> Result<bool, RestoreError> {
    let has_channel_state = old.subtasks.iter().any(SubtaskState::has_channel_state);
    if !has_channel_state {
        return Ok(false);
    }
    if old.parallelism != new_p {
        return Err(RestoreError::ChannelStateRescaled {
            uid: uid.to_string(),
            old: old.parallelism,
            new: new_p,
        });
    }
    if let Some(what) = layout_change("input", &old.inputs, &input_layout(new_job, uid))
        .or_else(|| layout_change("output", &old.outputs, &output_layout(new_job, uid)))
    {
        return Err(RestoreError::ChannelStateTopologyChanged {
            uid: uid.to_string(),
            what,
        });
    }
    Ok(true)
}

/// How the edges on one side of an operator changed, if they did.
fn layout_change(side: &str, old: &[EdgeLayout], new: &[EdgeLayout]) -> Option<String> {
    if old == new {
        return None;
    }
    let show = |l: &[EdgeLayout]| {
        let parts: Vec<String> = l
            .iter()
            .map(|e| {
                format!(
                    "{} ({}, parallelism {})",
                    e.peer,
                    e.partitioning.as_str(),
                    e.peer_parallelism
                )
            })
            .collect();
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(", ")
        }
    };
    Some(format!(
        "its {side} edges changed from [{}] to [{}]",
        show(old),
        show(new)
    ))
}
