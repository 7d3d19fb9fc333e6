//! Who owns what across a rescaled restore, as the page draws a rescale: for
//! every keyed operator, the owning subtask of each key group before (the earlier
//! job whose snapshot is restored) and after (this job); for every source, which
//! subtask reads which partition before and after, with the offsets list state's
//! distribution mode (even split or union).
//!
//! Read from the engine's own assignment — the earlier job is run again with the
//! same seed, its snapshot turned into [`crate::restore::SavepointState`] and
//! assigned to this job by [`crate::restore::assign`], exactly as [`World::new`]
//! does — so the page draws the same owners the restored subtasks hold.

use serde::{Deserialize, Serialize};

use crate::keygroup;
use crate::restore::{self, DistributionMode, StateValue, SOURCE_OFFSETS_STATE};
use crate::scenario::{OperatorKind, Scenario, SnapshotSelector};
use crate::world::World;

/// Key-group owners of one keyed operator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyGroupStrip {
    /// The operator's uid.
    pub uid: String,
    /// Number of key groups (the job's max parallelism).
    pub max_parallelism: u32,
    /// Parallelism of the earlier job (`None`: the operator is new).
    pub before_parallelism: Option<u32>,
    /// Parallelism now.
    pub after_parallelism: u32,
    /// Owning subtask per key group in the earlier job (empty: new operator).
    pub before: Vec<u32>,
    /// Owning subtask per key group now.
    pub after: Vec<u32>,
    /// The keys in the restored state, with their key group.
    pub keys: Vec<(String, u32)>,
}

/// Which subtask reads which partition, before and after, for one source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionSplit {
    /// The source's uid.
    pub uid: String,
    /// How its offsets list state was redistributed.
    pub mode: DistributionMode,
    /// Per old subtask, its partitions in list order.
    pub before: Vec<Vec<u32>>,
    /// Per new subtask, the partitions it restored (under union: the ones it keeps).
    pub after: Vec<Vec<u32>>,
}

/// The rescale of a restored job: see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RescaleView {
    /// The restored snapshot's id.
    pub checkpoint: u64,
    /// Keyed operators.
    pub keyed: Vec<KeyGroupStrip>,
    /// Sources.
    pub sources: Vec<PartitionSplit>,
}

fn partitions(list: &[StateValue]) -> Vec<u32> {
    list.iter()
        .filter_map(|v| match v {
            StateValue::Offset { partition, .. } => Some(*partition),
            _ => None,
        })
        .collect()
}

impl World {
    /// The rescale this run started with, if its scenario restores an earlier job
    /// (`None` otherwise, or if the earlier job cannot be rerun).
    pub fn rescale_view(&self) -> Option<RescaleView> {
        let setup = self.setup();
        rescale_of(&setup.scenario, setup.seed, &setup.keys)
    }
}

/// [`World::rescale_view`] of `scenario` started with `seed` (`None` if it does not
/// build or restores nothing).
pub fn rescale(scenario: &Scenario, seed: u64) -> Option<RescaleView> {
    World::new(scenario, seed).ok()?.rescale_view()
}

fn rescale_of(
    scenario: &Scenario,
    seed: u64,
    keys: &crate::record::KeyTable,
) -> Option<RescaleView> {
    let spec = scenario.restore.as_ref()?;
    let mut earlier = World::new(&spec.from, seed).ok()?;
    earlier.set_tracing(false);
    earlier.run_to_end(spec.from.until_ms, 600_000, |_| {});
    let coord = earlier.coordinator();
    let mut candidates: Vec<_> = coord
        .store()
        .iter()
        .chain(coord.savepoints())
        .cloned()
        .collect();
    candidates.sort_by_key(|c| c.id);
    let chosen = match spec.snapshot {
        SnapshotSelector::Latest => candidates.last(),
        SnapshotSelector::LatestSavepoint => {
            candidates.iter().rev().find(|c| c.kind.is_savepoint())
        }
        SnapshotSelector::LatestCheckpoint => {
            candidates.iter().rev().find(|c| !c.kind.is_savepoint())
        }
        SnapshotSelector::Id(id) => candidates.iter().find(|c| c.id.0 == id),
    }?;
    let state = restore::from_completed(chosen, earlier.setup());
    let job = &scenario.job;
    let assigned = restore::assign(
        &state,
        job,
        restore::NonRestoredState::allowed_if(spec.allow_non_restored_state),
        keys,
    )
    .ok()?;
    let mut keyed = Vec::new();
    let mut sources = Vec::new();
    for (i, op) in job.operators.iter().enumerate() {
        let old = state.operators.get(&op.uid);
        if op.kind == OperatorKind::Source {
            let Some(old) = old else { continue };
            sources.push(source_split(op, i, old, &assigned));
        } else if op.is_keyed() {
            // The effective max parallelism, as Flink's checkParallelismPreconditions
            // settles it: the job's, or derived from the parallelism and replaced by
            // the restored snapshot's when not set.
            let mut effective = crate::parallelism::MaxParallelism::of(job, op);
            if let Some(o) = old {
                effective.adopt(o.max_parallelism);
            }
            let max_p = effective.value();
            let owners = |p: u32| -> Vec<u32> {
                (0..max_p)
                    .map(|kg| keygroup::operator_index_for_key_group(max_p, p, kg))
                    .collect()
            };
            let before_parallelism = old.map(|o| o.parallelism);
            let mut restored_keys: Vec<(String, u32)> = old
                .into_iter()
                .flat_map(|o| o.subtasks.iter())
                .flat_map(|s| s.keyed.values())
                .flat_map(|m| m.iter().map(|(k, e)| (k.clone(), e.key_group)))
                .collect();
            restored_keys.sort();
            restored_keys.dedup();
            keyed.push(KeyGroupStrip {
                uid: op.uid.clone(),
                max_parallelism: max_p,
                before_parallelism,
                after_parallelism: op.parallelism,
                before: old.map_or_else(Vec::new, |o| {
                    // The earlier job's key-group ranges, by its own max parallelism.
                    (0..o.max_parallelism)
                        .map(|kg| {
                            keygroup::operator_index_for_key_group(
                                o.max_parallelism,
                                o.parallelism,
                                kg,
                            )
                        })
                        .collect()
                }),
                after: (0..max_p)
                    .map(|kg| {
                        (0..op.parallelism)
                            .find(|j| {
                                assigned
                                    .get(&(i, *j))
                                    .is_some_and(|s| s.key_groups.contains(&kg))
                            })
                            .unwrap_or_else(|| owners(op.parallelism)[kg as usize])
                    })
                    .collect(),
                keys: restored_keys,
            });
        }
    }
    Some(RescaleView {
        checkpoint: chosen.id.0,
        keyed,
        sources,
    })
}

/// How a source's partitions (its offsets state) are split over its subtasks
/// before and after the restore.
fn source_split(
    op: &crate::scenario::OperatorSpec,
    i: usize,
    old: &restore::OperatorState,
    assigned: &std::collections::BTreeMap<(usize, u32), restore::SubtaskRestore>,
) -> PartitionSplit {
    let before = old
        .subtasks
        .iter()
        .map(|s| {
            s.operator
                .get(SOURCE_OFFSETS_STATE)
                .map_or_else(Vec::new, |l| partitions(&l.elements))
        })
        .collect();
    let mut mode = DistributionMode::SplitDistribute;
    let after = (0..op.parallelism)
        .map(|j| {
            let Some(sub) = assigned.get(&(i, j)) else {
                return Vec::new();
            };
            if let Some(l) = sub.operator.get(SOURCE_OFFSETS_STATE) {
                mode = l.mode;
            }
            sub.offsets().into_keys().collect()
        })
        .collect();
    PartitionSplit {
        uid: op.uid.clone(),
        mode,
        before,
        after,
    }
}

#[cfg(test)]
mod tests {
    use crate::runner;
    use crate::view::StateView;
    use crate::World;

    /// The strip's owners are the ones the restored subtasks hold: every key in a
    /// `pv` subtask's live state sits in a key group the strip gives that subtask,
    /// and every source subtask reads exactly the partitions the split gives it.
    #[test]
    fn savepoint_rescale_owners_are_what_the_restored_subtasks_hold() {
        let s = runner::load("savepoint-rescale").unwrap();
        let w = World::new(&s, s.seed).unwrap();
        let r = w.rescale_view().expect("savepoint-rescale restores");
        let pv = &r.keyed[0];
        assert_eq!((pv.uid.as_str(), pv.max_parallelism), ("pv", 128));
        assert_eq!((pv.before_parallelism, pv.after_parallelism), (Some(2), 3));
        assert_eq!(pv.after.len(), 128);
        assert_eq!(pv.before.len(), 128);
        // Contiguous ranges `kg × 3 / 128`: 0..=42, 43..=85, 86..=127.
        assert_eq!(
            (pv.after[42], pv.after[43], pv.after[85], pv.after[86]),
            (0, 1, 1, 2)
        );
        assert_eq!((pv.before[63], pv.before[64]), (0, 1));
        assert_eq!(pv.keys.len(), 3, "{:?}", pv.keys);
        let view = w.view();
        let job = w.job_view();
        let mut seen = 0;
        for (t, tv) in job.tasks.iter().zip(&view.tasks) {
            let op = &job.operators[t.op];
            match (&op.uid[..], &tv.state) {
                ("pv", StateView::Keyed { entries }) => {
                    for (key, kg, _) in entries {
                        assert_eq!(pv.after[*kg as usize], t.index, "{key}");
                        assert!(pv.keys.iter().any(|(k, g)| **k == **key && g == kg));
                        seen += 1;
                    }
                }
                ("kafka", StateView::Source { offsets }) => {
                    let mine: Vec<u32> = offsets.iter().map(|o| o.0).collect();
                    assert_eq!(mine, r.sources[0].after[t.index as usize]);
                }
                _ => {}
            }
        }
        assert_eq!(seen, 3);
        // The lesson's own words: [0, 2] [1] [3].
        assert_eq!(r.sources[0].before, vec![vec![0, 2], vec![1, 3]]);
        assert_eq!(r.sources[0].after, vec![vec![0, 2], vec![1], vec![3]]);
        // A job that restores nothing has no rescale.
        let plain = runner::load("pv-count").unwrap();
        assert!(World::new(&plain, plain.seed)
            .unwrap()
            .rescale_view()
            .is_none());
    }

    /// Owner per key group of operator `uid` in the `_metadata` of checkpoint `id`
    /// (the first completed one when `None`) of `lab run --metadata`'s summary line.
    fn metadata_owners(summary: &str, uid: &str, id: Option<u64>) -> (u64, Vec<u32>) {
        let summary: serde_json::Value = serde_json::from_str(summary).unwrap();
        let c = summary["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| {
                c["status"] == "completed" && id.is_none_or(|id| c["id"].as_u64() == Some(id))
            })
            .expect("the checkpoint is in the summary");
        let op = &c["metadata"][uid];
        let mut owners = vec![u32::MAX; op["max_parallelism"].as_u64().unwrap() as usize];
        for (subtask, range) in op["key_groups"].as_object().unwrap() {
            let (a, b) = (range[0].as_u64().unwrap(), range[1].as_u64().unwrap());
            for kg in a..=b {
                assert_eq!(owners[kg as usize], u32::MAX, "key group {kg} owned twice");
                owners[kg as usize] = subtask.parse().unwrap();
            }
        }
        assert!(
            owners.iter().all(|&o| o != u32::MAX),
            "every key group owned"
        );
        (c["id"].as_u64().unwrap(), owners)
    }

    /// The strip draws what `lab run --metadata --key-groups` stores: after the restore, the
    /// key-group ranges in the restored job's first checkpoint; before, those in the
    /// restored savepoint of the earlier job (run on its own with the same seed).
    #[test]
    fn savepoint_rescale_owners_match_lab_run_metadata_key_groups() {
        let s = runner::load("savepoint-rescale").unwrap();
        let r = super::rescale(&s, s.seed).expect("savepoint-rescale restores");
        let pv = r.keyed.iter().find(|k| k.uid == "pv").unwrap();
        let with_metadata = runner::RunOptions {
            metadata: true,
            key_groups: true,
            ..Default::default()
        };
        let after = runner::run_lines(&s, &with_metadata).unwrap();
        let (first, owners) = metadata_owners(after.last().unwrap(), "pv", None);
        assert!(first > r.checkpoint, "a checkpoint of the restored job");
        assert_eq!(owners, pv.after);
        let earlier = &s.restore.as_ref().unwrap().from;
        let before = runner::run_lines(
            earlier,
            &runner::RunOptions {
                seed: Some(s.seed),
                ..with_metadata
            },
        )
        .unwrap();
        let (id, owners) = metadata_owners(before.last().unwrap(), "pv", Some(r.checkpoint));
        assert_eq!(id, r.checkpoint);
        assert_eq!(owners, pv.before);
        assert_ne!(pv.before, pv.after, "rescaled 2 -> 3");
    }
}
