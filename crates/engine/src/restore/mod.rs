//! Assigning a snapshot's state to the subtasks of a (possibly changed, possibly
//! rescaled) job: which new subtask gets which keys, which list-state elements, which
//! transactions. Flink: `StateAssignmentOperation`, `RoundRobinOperatorStateRepartitioner`,
//! `Checkpoints.loadAndValidateCheckpoint`, `KeyGroupRangeAssignment`
//! (docs/flink-semantics.md §5.3, §5.4, §6.3, §6.4).
//!
//! # Two steps
//! 1. [`from_completed`] turns what the [`crate::World`] stores — a
//!    [`crate::snapshot::CompletedCheckpoint`], whose snapshots are keyed by
//!    [`crate::ids::TaskId`] and whose keys are [`crate::record::KeyId`]s of one
//!    run's [`KeyTable`] — into a [`SavepointState`]:
//!    per operator **uid**, its max parallelism, parallelism and one [`SubtaskState`]
//!    per old subtask, with keys spelled out and each keyed entry carrying its key
//!    group. Nothing in it depends on task ids, key ids or operator positions, so it
//!    can be serialized (a share link, the page's "savepoint file") and restored into
//!    another job.
//! 2. [`assign`] maps that state onto a new [`Job`] exactly as Flink does on
//!    `flink run -s <savepoint> [-n]` or on a failover: operators are matched by uid;
//!    the checks of `Checkpoints.loadAndValidateCheckpoint` and
//!    `StateAssignmentOperation.checkParallelismPreconditions` come first, with Flink's
//!    messages; then keyed state is cut along the new key-group ranges and operator
//!    list state is redistributed by its mode (split-distribute, union, broadcast).
//!    The result is one [`SubtaskRestore`] per new subtask that gets state, keyed by
//!    `(operator index in the new job, subtask index)`; a subtask absent from the map
//!    starts fresh (Flink: no `JobManagerTaskRestore`, `isRestored() == false`).
//!
//! # State names
//! Flink addresses operator and keyed state by the name of its state descriptor. The
//! lab's built-in operators use:
//! - sources: [`SOURCE_OFFSETS_STATE`], operator list state, split-distribute, one
//!   [`StateValue::Offset`] per partition (contract: "a rescaled restore redistributes
//!   the offsets as Flink redistributes operator list state (even split)");
//! - `keyed_count` / `keyed_sum`: [`VALUE_STATE`], keyed `ValueState`, one
//!   [`StateValue::Int`] per key;
//! - the two-phase-commit sink: [`TWO_PHASE_COMMIT_STATE`] (Flink's descriptor name in
//!   `TwoPhaseCommitSinkFunction`), operator list state, split-distribute, exactly one
//!   [`StateValue::Transaction`] per old subtask.
//!
//! Further named states (union, broadcast, more keyed states) go into the same maps
//! under their own names; [`StateValue`] grows new variants for new value types.
//!
//! # The two-phase-commit sink after a rescale
//! `TwoPhaseCommitSinkFunction.initializeState` iterates every element of its
//! restored list state: it commits (`recoverAndCommit`) every pre-committed
//! transaction of the element and aborts (`recoverAndAbort`) the element's pending
//! transaction, then begins one new transaction. Split-distribute hands a new subtask
//! zero, one or several elements: with zero (scale-out) it recovers nothing and just
//! begins a transaction; with several (scale-in) it commits the pre-committed
//! transactions of all of them and aborts all their pending transactions — see
//! [`SubtaskRestore::two_phase_commit_recovery`].
//!
//! # Determinism
//! Only ordered maps are iterated. Where Flink's order is a `HashMap`'s (the order of
//! state names, and of old state handles inside one new subtask), the lab uses name
//! order and old-subtask order.
//!
//! # Layout
//! - `metadata.rs`: what a snapshot stores per operator uid ([`SavepointState`] and
//!   its parts) and [`from_completed`], which writes it.
//! - `subtask_restore.rs`: what one new subtask gets back ([`SubtaskRestore`]).
//! - `validation.rs`: the checks before anything is assigned, with Flink's messages.
//! - `keyed_state_redistribution.rs`: keyed state cut along key-group ranges.
//! - `operator_state_redistribution.rs`: operator list state by mode (even split,
//!   union, broadcast), [`split_distribute`].
//! - `channel_state.rs`: persisted in-flight records back into records of the new job.
//! - `error.rs`: [`RestoreError`].

use crate::keygroup;
use crate::parallelism;
use crate::record::KeyTable;
use crate::scenario::{Job, OperatorSpec};
use std::collections::BTreeMap;

mod channel_state;
mod error;
mod keyed_state_redistribution;
mod metadata;
mod operator_state_redistribution;
mod subtask_restore;
mod validation;

pub use crate::snapshot::{
    StateValue, TxnState, BROADCAST_STATE, SOURCE_OFFSETS_STATE, TWO_PHASE_COMMIT_STATE,
    VALUE_STATE,
};
pub use error::RestoreError;
pub use metadata::{
    from_completed, DistributionMode, EdgeLayout, KeyedEntry, ListState, OperatorState,
    PersistedRecord, SavepointState, SubtaskState,
};
pub use operator_state_redistribution::split_distribute;
pub use subtask_restore::{SubtaskRestore, TwoPhaseCommitRecovery};

/// The uids whose state the new job does not take (skipped under
/// `allow_non_restored_state`, or silently because the state is empty), in uid
/// order. Flink logs "Skipping savepoint state for operator …".
pub fn non_restored_operators<'a>(state: &'a SavepointState, new_job: &Job) -> Vec<&'a str> {
    state
        .operators
        .keys()
        .filter(|uid| new_job.operator(uid).is_none())
        .map(String::as_str)
        .collect()
}

/// Each operator's max parallelism in `job` restored from `state` (or started
/// fresh, `None`), by operator index: configured, or derived and — when `state`
/// holds the operator — the stored value. Flink:
/// `StateAssignmentOperation.checkParallelismPreconditions`, which calls
/// `ExecutionJobVertex.setMaxParallelism` when `canRescaleMaxParallelism` allows.
/// A value that cannot be adopted stays; [`assign`] then refuses the snapshot.
pub fn adopted_max_parallelism(state: Option<&SavepointState>, job: &Job) -> Vec<u32> {
    parallelism::of_job(job)
        .into_iter()
        .zip(&job.operators)
        .map(|(mut m, op)| {
            if let Some(stored) = state.and_then(|s| s.operators.get(&op.uid)) {
                m.adopt(stored.max_parallelism);
            }
            m.value()
        })
        .collect()
}

/// What a restore does with stored state that no operator of the new job claims.
/// Flink: `SavepointRestoreSettings.allowNonRestoredState()` (`--allowNonRestoredState`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NonRestoredState {
    /// Refuse the restore (Flink's default).
    Refuse,
    /// Skip that state and restore the rest.
    Skip,
}

impl NonRestoredState {
    /// From a scenario's `allow_non_restored_state` flag.
    pub fn allowed_if(allow: bool) -> Self {
        if allow {
            Self::Skip
        } else {
            Self::Refuse
        }
    }
}

/// Assign `state` to the subtasks of `new_job`, as Flink does when it restores a
/// checkpoint or savepoint. Returns one [`SubtaskRestore`] per new subtask that is
/// restored, keyed by `(index of its operator in new_job.operators, subtask index)`;
/// subtasks of an operator without state in the snapshot are absent (they start
/// fresh). `keys` is the new World's key table, holding every
/// [`SavepointState::key_names`].
///
/// In order (Flink: `Checkpoints.loadAndValidateCheckpoint`, then
/// `StateAssignmentOperation.assignStates`):
/// 1. for each stored operator, by uid: if the new job has it, its max parallelism
///    must equal the stored one, or be derived (the job sets none) and so take the
///    stored one ([`MaxParallelism::can_rescale_to`](crate::parallelism::MaxParallelism::can_rescale_to); else
///    [`RestoreError::MaxParallelismMismatch`]); if the new job has no such operator,
///    the state is skipped when `allow_non_restored_state` or when no subtask has
///    state ([`SubtaskState::has_state`]), else [`RestoreError::NotMapped`]. A
///    changed uid is a removed operator plus an added one.
/// 2. for each new operator with stored state, in job order: the new parallelism
///    must not exceed the stored max parallelism; persisted in-flight records
///    require unchanged parallelism and edges; then keyed state is cut along the new
///    key-group ranges, operator list state redistributed by mode, and a fully
///    finished operator restores finished.
///
/// A derived max parallelism takes the stored one: keyed state is cut with the
/// stored number of key groups, and the new World runs with it
/// ([`adopted_max_parallelism`]). Never panics, whatever `state` and `new_job` hold.
pub fn assign(
    state: &SavepointState,
    new_job: &Job,
    non_restored: NonRestoredState,
    keys: &KeyTable,
) -> Result<BTreeMap<(usize, u32), SubtaskRestore>, RestoreError> {
    validation::check_unique_uids(new_job)?;
    validation::load_and_validate_checkpoint(state, new_job, non_restored)?;

    // StateAssignmentOperation.assignStates.
    let mut out = BTreeMap::new();
    for (oi, op) in new_job.operators.iter().enumerate() {
        let Some(old) = state.operators.get(&op.uid) else {
            continue;
        };
        if !old
            .subtasks
            .iter()
            .any(|s| s.finished || !s.is_empty_state())
        {
            // Nothing stored (a stateless operator): Flink gives the vertex no
            // restore (`hasNonFinishedState` and `isFullyFinished` both false).
            continue;
        }
        for (i, r) in assign_operator(op, old, new_job, keys)?
            .into_iter()
            .enumerate()
        {
            out.insert((oi, i as u32), r);
        }
    }
    Ok(out)
}

/// `StateAssignmentOperation.assignAttemptState` for one operator: the checks that
/// concern it, then its keyed, operator and channel state for every new subtask.
fn assign_operator(
    op: &OperatorSpec,
    old: &OperatorState,
    new_job: &Job,
    keys: &KeyTable,
) -> Result<Vec<SubtaskRestore>, RestoreError> {
    let uid = op.uid.as_str();
    validation::check_stored(uid, old)?;
    let new_p = op.parallelism;
    validation::check_parallelism_preconditions(uid, old, new_p)?;
    let has_channel_state = validation::check_channel_state(uid, old, new_p, new_job)?;
    let max_p = old.max_parallelism;

    let finished = old.is_fully_finished();
    let mut out: Vec<SubtaskRestore> = (0..new_p)
        .map(|i| SubtaskRestore {
            finished,
            key_groups: keygroup::key_group_range(max_p, new_p, i),
            operator: BTreeMap::new(),
            keyed: BTreeMap::new(),
            input_channels: BTreeMap::new(),
            output_channels: BTreeMap::new(),
        })
        .collect();

    operator_state_redistribution::redistribute_operator_state(old, new_p, &mut out);
    keyed_state_redistribution::redistribute_keyed_state(uid, old, max_p, new_p, keys, &mut out)?;
    if has_channel_state {
        for (s, r) in old.subtasks.iter().zip(out.iter_mut()) {
            r.input_channels =
                channel_state::restore_records(uid, &s.input_channels, new_job, keys)?;
            r.output_channels =
                channel_state::restore_records(uid, &s.output_channels, new_job, keys)?;
        }
    }
    Ok(out)
}
