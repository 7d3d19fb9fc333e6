//! Lesson pairs: a broken and a correct configuration of one job, under
//! one seed and one fault schedule, opened side by side in the twin view; and the
//! difference in what each run has committed.
//!
//! Pure: no `web_sys`, unit-tested natively against real runs.

use std::collections::BTreeMap;

use engine::view::SinkView;

/// The lessons that belong together: the same job, seed and faults, one
/// configuration changed. Every member is a built-in scenario.
pub const PAIRS: &[&[&str]] = &[
    &["exactly-once-kafka", "exactly-once-kafka-plain"],
    &[
        "restart-fixed-delay",
        "restart-failure-rate",
        "restart-none",
        "restart-exponential-delay",
    ],
    &["checkpoint-config", "checkpoint-config-strict"],
    &["state-backend-rocksdb", "state-backend-hashmap"],
    &["jobmanager-crash-jobmanager", "jobmanager-crash-filesystem"],
    // Who owns the snapshot a job starts from.
    &["restore-claim", "restore-no-claim"],
    // Alignment on its own: the same two-input job and transactional sink.
    &["alignment-isolated", "alignment-isolated-at-least-once"],
    &["backpressure-expired", "backpressure-aligned-timeout"],
    &[
        "kafka-transaction-timeout",
        "kafka-transaction-timeout-long",
    ],
    // One pipeline restarts, or (an all-to-all edge) the whole job.
    &["region-failover-forward", "region-failover-rebalance"],
];

/// The lessons `scenario` can be compared with, in library order.
pub fn partners(scenario: &str) -> Vec<&'static str> {
    PAIRS
        .iter()
        .find(|group| group.contains(&scenario))
        .map(|group| group.iter().copied().filter(|n| *n != scenario).collect())
        .unwrap_or_default()
}

/// How one key's committed output differs between this run and its partner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyDiff {
    /// The sink's uid.
    pub sink: String,
    /// The key (empty for unkeyed records).
    pub key: String,
    /// Committed records of the key in this run.
    pub this: usize,
    /// … and in the partner.
    pub other: usize,
    /// Records of this run whose value was already committed for the key.
    pub this_duplicates: usize,
    /// … of the partner.
    pub other_duplicates: usize,
    /// Values the partner committed for the key that this run did not.
    pub this_missing: usize,
    /// Values this run committed for the key that the partner did not.
    pub other_missing: usize,
}

impl KeyDiff {
    /// Both runs committed the same values for the key, as often.
    pub fn is_equal(&self) -> bool {
        self.this == self.other
            && self.this_duplicates == self.other_duplicates
            && self.this_missing == 0
            && self.other_missing == 0
    }
}

/// `sink -> key -> value -> how often committed`.
type Committed = BTreeMap<String, BTreeMap<String, BTreeMap<i64, usize>>>;

fn committed(sinks: &[SinkView]) -> Committed {
    let mut out = Committed::new();
    for s in sinks {
        let keys = out.entry(s.uid.clone()).or_default();
        for r in &s.committed {
            let key = r.key.as_deref().unwrap_or("").to_string();
            *keys.entry(key).or_default().entry(r.value).or_default() += 1;
        }
    }
    out
}

/// Per sink and key (sorted), the committed output of `this` run against `other`
/// (what a `read_committed` consumer of each sees).
pub fn compare(this: &[SinkView], other: &[SinkView]) -> Vec<KeyDiff> {
    let (a, b) = (committed(this), committed(other));
    let empty = BTreeMap::new();
    let mut sinks: Vec<&String> = a.keys().chain(b.keys()).collect();
    sinks.sort();
    sinks.dedup();
    let mut out = Vec::new();
    for sink in sinks {
        let (ka, kb) = (a.get(sink).unwrap_or(&empty), b.get(sink).unwrap_or(&empty));
        let mut keys: Vec<&String> = ka.keys().chain(kb.keys()).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            let none = BTreeMap::new();
            let (va, vb) = (ka.get(key).unwrap_or(&none), kb.get(key).unwrap_or(&none));
            let total = |v: &BTreeMap<i64, usize>| v.values().sum::<usize>();
            let dups = |v: &BTreeMap<i64, usize>| v.values().map(|n| n - 1).sum::<usize>();
            let missing = |v: &BTreeMap<i64, usize>, w: &BTreeMap<i64, usize>| {
                w.keys().filter(|x| !v.contains_key(x)).count()
            };
            out.push(KeyDiff {
                sink: sink.clone(),
                key: key.clone(),
                this: total(va),
                other: total(vb),
                this_duplicates: dups(va),
                other_duplicates: dups(vb),
                this_missing: missing(va, vb),
                other_missing: missing(vb, va),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{runner, World};

    fn final_sinks(name: &str) -> Vec<SinkView> {
        let s = runner::load(name).unwrap();
        let mut w = World::new(&s, s.seed).unwrap();
        w.run_to_end(None, runner::DEFAULT_LIMIT_MS, |_| {});
        w.view().sinks
    }

    /// A pair is one job under one seed and one fault schedule.
    #[test]
    fn pairs_are_built_ins_with_one_seed_and_fault_schedule() {
        for group in PAIRS {
            let first = runner::load(group[0]).unwrap();
            for name in &group[1..] {
                let s = runner::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(s.seed, first.seed, "{name}");
                assert_eq!(s.script, first.script, "{name}");
                assert_eq!(s.job.operators.len(), first.job.operators.len(), "{name}");
            }
        }
        assert_eq!(
            partners("restart-none"),
            vec![
                "restart-fixed-delay",
                "restart-failure-rate",
                "restart-exponential-delay"
            ]
        );
        assert_eq!(
            partners("state-backend-hashmap"),
            vec!["state-backend-rocksdb"]
        );
        assert!(partners("pv-count").is_empty());
    }

    /// jobmanager storage commits every count before the crash twice; the
    /// filesystem twin commits each once; the state backends commit alike.
    #[test]
    fn the_difference_counts_duplicates_and_missing_values() {
        let jm = final_sinks("jobmanager-crash-jobmanager");
        let fs = final_sinks("jobmanager-crash-filesystem");
        let diff = compare(&jm, &fs);
        let rows: Vec<(&str, usize, usize, usize, usize)> = diff
            .iter()
            .map(|d| {
                (
                    d.key.as_str(),
                    d.this,
                    d.other,
                    d.this_duplicates,
                    d.other_duplicates,
                )
            })
            .collect();
        assert_eq!(
            rows,
            vec![
                ("app1", 40, 24, 16, 0),
                ("app2", 67, 44, 23, 0),
                ("app3", 53, 32, 21, 0)
            ]
        );
        assert!(diff.iter().all(|d| d.sink == "out"
            && d.this_missing == 0
            && d.other_missing == 0
            && !d.is_equal()));
        let back = compare(&fs, &jm);
        assert_eq!(back[0].other_duplicates, 16);
        assert_eq!(back[0].this_duplicates, 0);

        let same = compare(
            &final_sinks("state-backend-rocksdb"),
            &final_sinks("state-backend-hashmap"),
        );
        assert!(
            !same.is_empty() && same.iter().all(KeyDiff::is_equal),
            "{same:?}"
        );

        // restart-none gives up at the first crash: it misses what the others commit.
        let none = compare(
            &final_sinks("restart-none"),
            &final_sinks("restart-fixed-delay"),
        );
        assert!(none.iter().any(|d| d.this_missing > 0), "{none:?}");
    }
}
