//! Identifier newtypes, so a checkpoint id is never mistaken for a channel index.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A checkpoint or savepoint id. Flink: `CheckpointIDCounter` starts at 1, ids are
/// shared by checkpoints and savepoints and never reset on failover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CheckpointId(pub u64);

impl fmt::Display for CheckpointId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Index of an input channel of one subtask. Channels are numbered from 0, first by
/// the order of the `edges` entries that end at the operator, then by upstream
/// subtask index (contract: scenario-format.md, Determinism).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ChannelIndex(pub u32);

impl fmt::Display for ChannelIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Index of a subtask in the [`crate::World`]'s task table (operators in scenario
/// order, then subtask index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TaskId(pub u32);

/// Index of a network channel in the [`crate::World`]'s channel table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ChannelId(pub u32);
