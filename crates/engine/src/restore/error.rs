//! Why a snapshot's state cannot be assigned to the new job ([`RestoreError`]), with
//! Flink's messages where Flink has the check.

use std::fmt;

/// Why a snapshot's state cannot be assigned to the new job. Every variant names the
/// operator uid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RestoreError {
    /// State of an operator the new job does not have, non-empty, and
    /// `allow_non_restored_state` off. Flink: `Checkpoints.throwNonRestoredStateException`.
    NotMapped {
        /// The snapshot, as [`SavepointState::pointer`](super::SavepointState::pointer) names it.
        pointer: String,
        /// The operator.
        uid: String,
    },
    /// The number of key groups changed. Flink: `Checkpoints.loadAndValidateCheckpoint`.
    MaxParallelismMismatch {
        /// The snapshot.
        pointer: String,
        /// The operator.
        uid: String,
        /// Stored max parallelism.
        stored: u32,
        /// The new job's max parallelism.
        new: u32,
    },
    /// New parallelism above the stored max parallelism. Flink:
    /// `StateAssignmentOperation.checkParallelismPreconditions`.
    ParallelismAboveMaxParallelism {
        /// The operator.
        uid: String,
        /// Stored max parallelism.
        max_parallelism: u32,
        /// The new parallelism.
        parallelism: u32,
    },
    /// Persisted in-flight records cannot follow a rescale. Flink can
    /// (`InflightDataRescalingDescriptor`); the lab cannot (out of scope, §2.4).
    ChannelStateRescaled {
        /// The operator.
        uid: String,
        /// Parallelism when the snapshot was taken.
        old: u32,
        /// The new parallelism.
        new: u32,
    },
    /// Persisted in-flight records cannot follow a change of the edges at the
    /// operator (channel numbering changed). Flink maps channel state across changed
    /// exchanges; the lab does not.
    ChannelStateTopologyChanged {
        /// The operator.
        uid: String,
        /// What changed.
        what: String,
    },
    /// A stored key is not in the new World's key table.
    UnknownKey {
        /// The operator.
        uid: String,
        /// The key.
        key: String,
    },
    /// A stored key's key group is not the one the new job computes for it.
    KeyGroupMismatch {
        /// The operator.
        uid: String,
        /// The key.
        key: String,
        /// Key group in the snapshot.
        stored: u32,
        /// Key group in the new job.
        computed: u32,
    },
    /// The stored state contradicts itself (a hand-edited or damaged savepoint).
    Corrupt {
        /// The operator.
        uid: String,
        /// What is wrong.
        what: String,
    },
    /// The new job cannot take state as described (what validation would reject).
    InvalidJob {
        /// The operator.
        uid: String,
        /// What is wrong.
        what: String,
    },
}

impl RestoreError {
    /// The uid of the operator the error is about.
    pub fn uid(&self) -> &str {
        match self {
            RestoreError::NotMapped { uid, .. }
            | RestoreError::MaxParallelismMismatch { uid, .. }
            | RestoreError::ParallelismAboveMaxParallelism { uid, .. }
            | RestoreError::ChannelStateRescaled { uid, .. }
            | RestoreError::ChannelStateTopologyChanged { uid, .. }
            | RestoreError::UnknownKey { uid, .. }
            | RestoreError::KeyGroupMismatch { uid, .. }
            | RestoreError::Corrupt { uid, .. }
            | RestoreError::InvalidJob { uid, .. } => uid,
        }
    }
}

impl fmt::Display for RestoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RestoreError::NotMapped { pointer, uid } => write!(
                f,
                "Failed to rollback to checkpoint/savepoint {pointer}. Cannot map checkpoint/savepoint state for \
                 operator {uid} to the new program, because the operator is not available in the new program. If \
                 you want to allow to skip this, you can set the --allowNonRestoredState option on the CLI."
            ),
            RestoreError::MaxParallelismMismatch { pointer, uid, stored, new } => write!(
                f,
                "Failed to rollback to checkpoint/savepoint {pointer}. Max parallelism mismatch between \
                 checkpoint/savepoint state and new program. Cannot map operator {uid} with max parallelism \
                 {stored} to new program with max parallelism {new}. This indicates that the program has been \
                 changed in a non-compatible way after the checkpoint/savepoint."
            ),
            RestoreError::ParallelismAboveMaxParallelism { uid, max_parallelism, parallelism } => write!(
                f,
                "The state for task {uid} can not be restored. The maximum parallelism ({max_parallelism}) of the \
                 restored state is lower than the configured parallelism ({parallelism}). Please reduce the \
                 parallelism of the task to be lower or equal to the maximum parallelism."
            ),
            RestoreError::ChannelStateRescaled { uid, old, new } => write!(
                f,
                "Cannot restore the in-flight data (unaligned checkpoint channel state) of operator {uid}: its \
                 parallelism changed from {old} to {new}. Flink redistributes in-flight data on rescaling; the lab \
                 does not. Restore with parallelism {old}, or from a savepoint or an aligned checkpoint."
            ),
            RestoreError::ChannelStateTopologyChanged { uid, what } => write!(
                f,
                "Cannot restore the in-flight data (unaligned checkpoint channel state) of operator {uid}: {what}, \
                 so its channels are numbered differently. Flink maps in-flight data onto changed exchanges; the \
                 lab does not. Keep the edges as they were, or restore from a savepoint or an aligned checkpoint."
            ),
            RestoreError::UnknownKey { uid, key } => write!(
                f,
                "Cannot restore the state of operator {uid}: key \"{key}\" is not in the new job's key table."
            ),
            RestoreError::KeyGroupMismatch { uid, key, stored, computed } => write!(
                f,
                "Cannot restore the keyed state of operator {uid}: key \"{key}\" was stored in key group {stored} \
                 but belongs to key group {computed} in the new program."
            ),
            RestoreError::Corrupt { uid, what } => {
                write!(f, "The checkpoint/savepoint state of operator {uid} is corrupt: {what}.")
            }
            RestoreError::InvalidJob { uid, what } => {
                write!(f, "Cannot restore state into operator {uid} of the new program: {what}.")
            }
        }
    }
}

impl std::error::Error for RestoreError {}

/// A [`RestoreError::Corrupt`] about operator `uid`.
pub(super) fn corrupt(uid: &str, what: impl Into<String>) -> RestoreError {
    RestoreError::Corrupt {
        uid: uid.to_string(),
        what: what.into(),
    }
}
