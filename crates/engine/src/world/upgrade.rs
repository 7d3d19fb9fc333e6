//! Starting a job from a snapshot of an earlier job: the scenario's `restore`
//! (`flink run -s <savepoint> [-n]` with a possibly changed job).
//!
//! The earlier job is run headless with the same seed until it stops or reaches its
//! own `until_ms`; the chosen snapshot is turned into task-independent state
//! ([`restore::from_completed`]) and later assigned to the new job by uid
//! ([`restore::assign`], in [`World::new`]).
//!
//! Which snapshots survive the earlier job: its savepoints always (Flink never
//! deletes a savepoint); its retained checkpoints as its `externalized` policy says
//! (docs/flink-semantics.md §1.7) — a finished job, or a canceled one without
//! `retain_on_cancellation`, leaves none.

use super::World;
use crate::restore::{self, SavepointState};
use crate::scenario::{RestoreSpec, ScenarioError, SnapshotSelector};
use crate::snapshot::CompletedCheckpoint;
use std::sync::Arc;

pub use crate::scenario::MAX_RESTORE_DEPTH;

/// Bound of the earlier run when it sets no `until_ms` (as the runner's).
const EARLIER_LIMIT_MS: u64 = 600_000;

/// The earlier run at its end, and the state picked from it.
pub(super) struct Earlier {
    /// The earlier World when it stopped.
    pub world: World,
    /// The snapshot restored.
    pub snapshot: Arc<CompletedCheckpoint>,
    /// Its state, keyed by uid.
    pub state: SavepointState,
}

/// Run `spec.from` with `seed` and pick `spec.snapshot`. Errors name
/// `restore.from.<field>` (the earlier document is invalid) or `restore.snapshot`.
pub(super) fn run_earlier(spec: &RestoreSpec, seed: u64) -> Result<Earlier, ScenarioError> {
    let mut world = World::new(&spec.from, seed).map_err(|e| e.under("restore.from"))?;
    world.set_tracing(false);
    world.run_to_end(spec.from.until_ms, EARLIER_LIMIT_MS, |_| {});
    let candidates = available(&world);
    let chosen = match spec.snapshot {
        SnapshotSelector::Latest => candidates.last().cloned(),
        SnapshotSelector::LatestSavepoint => candidates
            .iter()
            .rev()
            .find(|c| c.kind.is_savepoint())
            .cloned(),
        SnapshotSelector::LatestCheckpoint => candidates
            .iter()
            .rev()
            .find(|c| !c.kind.is_savepoint())
            .cloned(),
        SnapshotSelector::Id(id) => candidates.iter().find(|c| c.id.0 == id).cloned(),
    };
    let Some(snapshot) = chosen else {
        let listed: Vec<String> = candidates.iter().map(|c| describe(c)).collect();
        let have = if listed.is_empty() {
            "none".to_string()
        } else {
            listed.join(", ")
        };
        let status = world.status().as_str();
        return Err(ScenarioError::single(
            "restore.snapshot",
            format!(
                "the earlier job ({status} at {} ms) left no such snapshot; available: {have} \
                 (savepoints always survive; retained checkpoints only as `checkpointing.externalized` allows)",
                world.now()
            ),
        ));
    };
    let state = restore::from_completed(&snapshot, world.setup());
    Ok(Earlier {
        world,
        snapshot,
        state,
    })
}

/// What the earlier run leaves to restore from, by id: its savepoints and the
/// retained checkpoints its retention policy kept.
fn available(world: &World) -> Vec<Arc<CompletedCheckpoint>> {
    let coordinator = world.coordinator();
    let mut all: Vec<Arc<CompletedCheckpoint>> = coordinator
        .savepoints()
        .iter()
        .chain(coordinator.store().iter())
        .cloned()
        .collect();
    all.sort_by_key(|c| c.id);
    all.dedup_by_key(|c| c.id);
    all
}

fn describe(c: &CompletedCheckpoint) -> String {
    let word = if c.kind.is_savepoint() {
        "savepoint"
    } else {
        "checkpoint"
    };
    format!("{word} {}", c.id.0)
}
