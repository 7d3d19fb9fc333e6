//! Operator list state after a restore, by its distribution mode: even split
//! (`getListState`), union (`getUnionListState`), broadcast.
//! Flink: `RoundRobinOperatorStateRepartitioner`.

use super::metadata::{DistributionMode, ListState, OperatorState};
use super::subtask_restore::SubtaskRestore;
use crate::snapshot::StateValue;
use std::collections::BTreeMap;

/// The old subtasks that reported one list state, with their elements.
type Reported<'a> = Vec<(usize, &'a [StateValue])>;

/// `RoundRobinOperatorStateRepartitioner.repartitionState` for every list state of
/// one operator.
pub(super) fn redistribute_operator_state(
    old: &OperatorState,
    new_p: u32,
    out: &mut [SubtaskRestore],
) {
    // Per name (name order; Flink: HashMap order): mode, and the reporting old
    // subtasks' lists in old-subtask order.
    let mut by_name: BTreeMap<&str, (DistributionMode, Reported<'_>)> = BTreeMap::new();
    for (i, s) in old.subtasks.iter().enumerate() {
        for (name, list) in &s.operator {
            by_name
                .entry(name.as_str())
                .or_insert_with(|| (list.mode, Vec::new()))
                .1
                .push((i, &list.elements));
        }
    }
    let unchanged = old.parallelism == new_p;
    let mut split_start = 0u32;
    for (name, (mode, lists)) in by_name {
        match mode {
            DistributionMode::SplitDistribute if unchanged => {
                // Not redistributed: every subtask gets exactly its own list back.
                for (i, elements) in lists {
                    if let Some(r) = out.get_mut(i) {
                        r.operator.insert(
                            name.to_string(),
                            ListState {
                                mode,
                                elements: elements.to_vec(),
                            },
                        );
                    }
                }
            }
            DistributionMode::SplitDistribute => {
                let all: Vec<&StateValue> = lists.iter().flat_map(|(_, l)| l.iter()).collect();
                let (chunks, next_start) = split_distribute(all.len(), new_p, split_start);
                split_start = next_start;
                for (idx, range) in chunks {
                    let elements: Vec<StateValue> =
                        all[range].iter().map(|v| (*v).clone()).collect();
                    if let Some(r) = out.get_mut(idx as usize) {
                        r.operator
                            .insert(name.to_string(), ListState { mode, elements });
                    }
                }
            }
            DistributionMode::Union => {
                let elements: Vec<StateValue> =
                    lists.iter().flat_map(|(_, l)| l.iter().cloned()).collect();
                for r in out.iter_mut() {
                    r.operator.insert(
                        name.to_string(),
                        ListState {
                            mode,
                            elements: elements.clone(),
                        },
                    );
                }
            }
            DistributionMode::Broadcast => {
                for (i, r) in out.iter_mut().enumerate() {
                    let own = if unchanged {
                        lists.iter().find(|(j, _)| *j == i)
                    } else {
                        None
                    };
                    let pick = own.or_else(|| lists.get(i % lists.len().max(1)));
                    if let Some((_, elements)) = pick {
                        r.operator.insert(
                            name.to_string(),
                            ListState {
                                mode,
                                elements: elements.to_vec(),
                            },
                        );
                    }
                }
            }
        }
    }
}

/// The contiguous chunks `RoundRobinOperatorStateRepartitioner.repartitionSplitState`
/// cuts `total` concatenated elements into for `new_p` subtasks, starting at subtask
/// `start`: `(subtask, element range)` for every subtask that gets at least one
/// element, in assignment order, and the start for the next state name (the first
/// subtask that got only the base share).
pub fn split_distribute(
    total: usize,
    new_p: u32,
    start: u32,
) -> (Vec<(u32, std::ops::Range<usize>)>, u32) {
    let mut chunks = Vec::new();
    if new_p == 0 {
        return (chunks, start);
    }
    let p = new_p as usize;
    let base = total / p;
    // Flink counts the remainder down past 0 once, to spot the first base-only subtask.
    let mut remainder = (total % p) as i64;
    let mut next_start = start;
    let mut at = 0usize;
    for i in 0..new_p {
        let idx = ((u64::from(i) + u64::from(start)) % u64::from(new_p)) as u32;
        let mut n = base;
        if remainder > 0 {
            n += 1;
            remainder -= 1;
        } else if remainder == 0 {
            next_start = idx;
            remainder -= 1;
        }
        if n > 0 {
            chunks.push((idx, at..at + n));
            at += n;
        }
    }
    (chunks, next_start)
}
