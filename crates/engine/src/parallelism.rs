//! Each operator's max parallelism: the number of key groups its keyed state is cut
//! into and that hash partitioning into it uses.
//!
//! A job that sets `max_parallelism` gives every operator that value, and it is
//! fixed: a snapshot taken with another one cannot be restored. A job that leaves it
//! unset lets each operator derive its own from its parallelism
//! ([`keygroup::default_max_parallelism`]: 128 up to parallelism 85), and a derived
//! value gives way to the one a restored snapshot was taken with — so a savepoint
//! taken at max parallelism 256 restores into a job that never mentions it, and the
//! job then runs with 256 key groups.
//!
//! Flink: `DefaultVertexParallelismInfo` (a job vertex's `maxParallelism` and whether
//! it was auto-configured), built by `SchedulerBase.computeVertexParallelismStore`
//! (`getDefaultMaxParallelism` → `KeyGroupRangeAssignment.computeDefaultMaxParallelism`
//! for a vertex without one); on restore `canRescaleMaxParallelism` decides and
//! `StateAssignmentOperation.checkParallelismPreconditions` calls `setMaxParallelism`
//! ("Rescaling maximum parallelism for JobVertex …"). A configured value refuses:
//! "Cannot override a configured max parallelism."

use crate::keygroup::{self, UPPER_BOUND_MAX_PARALLELISM};
use crate::scenario::{Job, OperatorSpec};
use serde::{Deserialize, Serialize};

/// One operator's max parallelism and where it comes from. See the module
/// documentation. Flink: `DefaultVertexParallelismInfo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MaxParallelism {
    /// The number of key groups.
    value: u32,
    /// Set by the job (fixed), not derived.
    configured: bool,
}

impl MaxParallelism {
    /// Operator `op` of `job`: the job's value, or derived from `op`'s parallelism.
    /// Flink: `SchedulerBase.computeVertexParallelismStore`.
    pub fn of(job: &Job, op: &OperatorSpec) -> Self {
        match job.max_parallelism {
            Some(value) => MaxParallelism {
                value,
                configured: true,
            },
            None => MaxParallelism {
                value: keygroup::default_max_parallelism(
                    op.parallelism.clamp(1, UPPER_BOUND_MAX_PARALLELISM),
                ),
                configured: false,
            },
        }
    }

    /// The number of key groups.
    pub fn value(self) -> u32 {
        self.value
    }

    /// Whether the job sets it (a snapshot cannot change it).
    pub fn is_configured(self) -> bool {
        self.configured
    }

    /// Whether a restored snapshot taken with `stored` key groups may replace this
    /// value: only a derived one, and only by a valid max parallelism. Flink:
    /// `DefaultVertexParallelismInfo.canRescaleMaxParallelism`.
    pub fn can_rescale_to(self, stored: u32) -> bool {
        !self.configured && (1..=UPPER_BOUND_MAX_PARALLELISM).contains(&stored)
    }

    /// Restoring a snapshot taken with `stored` key groups: an equal value stays, a
    /// derived one is replaced. Returns false (and changes nothing) when the value is
    /// configured and differs — Flink's "Max parallelism mismatch".
    pub fn adopt(&mut self, stored: u32) -> bool {
        if stored == self.value {
            return true;
        }
        if !self.can_rescale_to(stored) {
            return false;
        }
        self.value = stored;
        true
    }
}

/// Every operator of `job`, in job order ([`MaxParallelism::of`]).
pub fn of_job(job: &Job) -> Vec<MaxParallelism> {
    job.operators
        .iter()
        .map(|op| MaxParallelism::of(job, op))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(max_parallelism: Option<u32>, parallelism: &[u32]) -> Job {
        let operators: Vec<serde_json::Value> = parallelism
            .iter()
            .enumerate()
            .map(|(i, p)| serde_json::json!({"uid": format!("op{i}"), "kind": "keyed_sum", "parallelism": p}))
            .collect();
        let mut doc = serde_json::json!({"operators": operators, "edges": []});
        if let Some(m) = max_parallelism {
            doc["max_parallelism"] = serde_json::json!(m);
        }
        serde_json::from_value(doc).expect("a job")
    }

    /// Mirrors Flink's SchedulerBase.computeVertexParallelismStore: a vertex without
    /// a max parallelism derives it from its own parallelism
    /// (KeyGroupRangeAssignment.computeDefaultMaxParallelism); a configured one is
    /// the same for every vertex.
    #[test]
    fn derived_per_operator_or_configured_for_all() {
        let unset = of_job(&job(None, &[2, 85, 86, 1000]));
        let values: Vec<u32> = unset.iter().map(|m| m.value()).collect();
        assert_eq!(values, [128, 128, 256, 2048]);
        assert!(unset.iter().all(|m| !m.is_configured()));
        let set = of_job(&job(Some(64), &[2, 3]));
        assert!(set.iter().all(|m| m.value() == 64 && m.is_configured()));
    }

    /// Mirrors Flink's DefaultVertexParallelismInfoTest (canRescaleMaxParallelism):
    /// a derived max parallelism takes the stored one, a configured one refuses any
    /// other value, and no invalid value is ever taken.
    #[test]
    fn only_a_derived_value_adopts_the_stored_one() {
        let mut derived = of_job(&job(None, &[2]))[0];
        assert!(derived.adopt(256));
        assert_eq!(derived.value(), 256);
        assert!(!derived.adopt(0) && !derived.adopt(32_769));
        assert_eq!(derived.value(), 256, "an invalid value changes nothing");
        let mut configured = of_job(&job(Some(128), &[2]))[0];
        assert!(configured.adopt(128), "equal is fine");
        assert!(
            !configured.adopt(256),
            "Cannot override a configured max parallelism."
        );
        assert_eq!(configured.value(), 128);
    }
}
