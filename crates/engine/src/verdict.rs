//! Verdicts on what a sink committed: every committed output traces back to the
//! source record it derives from (its [`Origin`]: source, partition, offset), and is
//! judged against the **failure-free run** of the same scenario and seed — the
//! scenario with its injected failures (`crash`, `crash_jobmanager`, and the
//! broker's `transaction_timeout_ms`) removed ([`without_failures`]), run to its end.
//!
//! Per origin, with `e` outputs in the failure-free run and `c` committed so far:
//! - the first `max(e, 1)` committed outputs are **committed** (once, as they
//!   should be); every further one is a **duplicate** — its origin was already
//!   committed — numbered ×2, ×3, … ([`Verdict::Duplicate`]);
//! - the `e - c` outputs still missing are **lost** when this run will commit
//!   nothing more (the job finished, failed or was canceled), else **not
//!   committed yet** (they may still come: a two-phase-commit sink commits at the
//!   next completed checkpoint) — except those written in a transaction whose
//!   commit failed because the broker had aborted it (`KafkaCommitter` drops it,
//!   [`crate::view::TxnView::lost_at`]): they are lost from that moment on.
//!
//! So the committed outputs are partitioned into committed and duplicates, and the
//! failure-free run's outputs into committed, not committed yet and lost — "not
//! committed yet" is never "missing". The page draws these; it computes none of them.
//!
//! A sink fed by an operator that acts on processing time — a processing-time
//! window (`keyed_window_count`: a restart replays records at other wall-clock
//! times, so they fall into other windows) or state with a TTL (Flink's
//! `StateTtlConfig` counts processing time, so a replayed record may find a
//! remembered value expired or not) — commits outputs that differ from the
//! failure-free run's by origin without anything being lost or repeated: which
//! outputs exist at all depends on timing. For such a sink
//! ([`SinkVerdicts::timing`]) an origin judged neither a duplicate nor lost:
//! a committed output beyond the failure-free run's count of its origin, and a
//! failure-free output this ended run never committed, each count as **differs
//! by timing** ([`Verdict::Timing`], [`VerdictCounts::timing`]). Outputs still to
//! come mid-run stay "not committed yet".
//!
//! Flink has no such verdict: it is the lab's reading of Flink's guarantee (a
//! `read_committed` consumer of an exactly-once job sees every record's effect
//! exactly once, after a failure as without one).

use crate::record::Origin;
use crate::runner::DEFAULT_LIMIT_MS;
use crate::scenario::{OperatorKind, Scenario, ScenarioError, ScriptStep, SinkKind};
use crate::view::WorldView;
use crate::world::{JobStatus, World};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `scenario` without its injected failures: its script's `crash` and
/// `crash_jobmanager` actions are dropped, and so is every sink's
/// `transaction_timeout_ms` (a broker that never aborts); everything else
/// (checkpoints, savepoints, a cancel, the earlier job it restores from) stays.
pub fn without_failures(scenario: &Scenario) -> Scenario {
    let mut s = scenario.clone();
    s.script.retain(|step| {
        !matches!(
            step,
            ScriptStep::Crash { .. } | ScriptStep::CrashJobmanager { .. }
        )
    });
    for op in &mut s.job.operators {
        op.transaction_timeout_ms = None;
    }
    s
}

/// Every sink's verdict counts at the end of `world`, a run of `scenario` with
/// `seed`, judged against its failure-free run (what `lab run --verdicts` prints).
pub fn counts(
    scenario: &Scenario,
    seed: u64,
    world: &World,
) -> Result<BTreeMap<String, VerdictCounts>, ScenarioError> {
    let reference = Reference::failure_free(scenario, seed)?;
    Ok(reference
        .judge(&world.view())
        .into_iter()
        .map(|v| (v.uid, v.counts))
        .collect())
}

/// What the failure-free run committed, per sink: how many outputs of each origin.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    /// Per sink uid: its kind and its committed outputs counted by origin.
    sinks: BTreeMap<String, ReferenceSink>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct ReferenceSink {
    kind: SinkKind,
    expected: BTreeMap<Origin, u32>,
    timing: Option<TimingCause>,
}

/// Why a sink's outputs depend on timing: the processing-time operator upstream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimingCause {
    /// A processing-time window (`keyed_window_count`) fires by the wall clock.
    ProcessingTimeWindow,
    /// Keyed state with a TTL expires by processing time (`StateTtlConfig`).
    StateTtl,
}

/// What makes sink `sink`'s outputs depend on timing: the first processing-time
/// operator found upstream of it (a window before a TTL), if any.
fn timing_cause(job: &crate::scenario::Job, sink: &str) -> Option<TimingCause> {
    let mut upstream: Vec<&str> = vec![sink];
    let mut seen = std::collections::BTreeSet::new();
    let mut cause = None;
    while let Some(uid) = upstream.pop() {
        if !seen.insert(uid) {
            continue;
        }
        if let Some(op) = job.operators.iter().find(|o| o.uid == uid) {
            if op.kind == OperatorKind::KeyedWindowCount {
                return Some(TimingCause::ProcessingTimeWindow);
            }
            if op.ttl.is_some() {
                cause = Some(TimingCause::StateTtl);
            }
        }
        upstream.extend(
            job.edges
                .iter()
                .filter(|e| e.to == uid)
                .map(|e| e.from.as_str()),
        );
    }
    cause
}

impl Reference {
    /// Runs the failure-free run of `scenario` with `seed` to its end (or its
    /// `until_ms`) and counts what each sink committed.
    pub fn failure_free(scenario: &Scenario, seed: u64) -> Result<Reference, ScenarioError> {
        let s = without_failures(scenario);
        let mut world = World::new(&s, seed)?;
        world.run_to_end(s.until_ms, DEFAULT_LIMIT_MS, |_| {});
        Ok(Reference::committed_by(&world))
    }

    /// What `world`'s sinks have committed so far, counted by origin.
    pub fn committed_by(world: &World) -> Reference {
        let job = &world.setup().scenario.job;
        let mut sinks = BTreeMap::new();
        for (op, topic) in world.external() {
            let spec = &job.operators[*op];
            debug_assert_eq!(spec.kind, OperatorKind::Sink);
            let mut expected = BTreeMap::new();
            for r in &topic.committed {
                *expected.entry(r.origin).or_insert(0) += 1;
            }
            sinks.insert(
                spec.uid.clone(),
                ReferenceSink {
                    kind: spec.sink.unwrap_or(SinkKind::AtLeastOnce),
                    expected,
                    timing: timing_cause(job, &spec.uid),
                },
            );
        }
        Reference { sinks }
    }

    /// How many outputs sink `uid` commits in the failure-free run.
    pub fn expected_total(&self, uid: &str) -> u32 {
        self.sinks.get(uid).map_or(0, |s| s.expected.values().sum())
    }

    /// Judges every sink of `view` (a moment of a run of the same scenario and
    /// seed, failures and all).
    pub fn judge(&self, view: &WorldView) -> Vec<SinkVerdicts> {
        let ended = matches!(
            view.status,
            JobStatus::Finished | JobStatus::Failed | JobStatus::Canceled
        );
        view.sinks
            .iter()
            .map(|sink| {
                let reference = self.sinks.get(&sink.uid);
                let expected = |o: &Origin| {
                    reference
                        .and_then(|r| r.expected.get(o))
                        .copied()
                        .unwrap_or(0)
                };
                let timing = reference.and_then(|r| r.timing);
                let mut seen: BTreeMap<Origin, u32> = BTreeMap::new();
                let mut outputs = Vec::with_capacity(sink.committed.len());
                let (mut committed, mut duplicates, mut differs) = (0, 0, 0);
                for r in &sink.committed {
                    let n = seen.entry(r.origin).or_insert(0);
                    *n += 1;
                    let e = expected(&r.origin);
                    if *n <= e || (*n == 1 && timing.is_none()) {
                        committed += 1;
                        outputs.push(Verdict::Committed);
                    } else if timing.is_some() {
                        // Not in the failure-free run (or more often): which
                        // outputs exist depends on timing, not a repeat.
                        differs += 1;
                        outputs.push(Verdict::Timing);
                    } else {
                        duplicates += 1;
                        outputs.push(Verdict::Duplicate { copy: *n });
                    }
                }
                // Outputs whose transaction's commit failed (the broker had
                // aborted it): lost at that moment, whether or not the run goes on.
                let mut in_lost_txns: BTreeMap<Origin, u32> = BTreeMap::new();
                for t in sink.txns.iter().filter(|t| t.lost_at.is_some()) {
                    for r in &t.records {
                        *in_lost_txns.entry(r.origin).or_insert(0) += 1;
                    }
                }
                let (mut lost_now, mut missing) = (0u32, 0u32);
                if let Some(r) = reference {
                    for (o, e) in &r.expected {
                        let m = e.saturating_sub(seen.get(o).copied().unwrap_or(0));
                        let gone = m.min(in_lost_txns.get(o).copied().unwrap_or(0));
                        lost_now += gone;
                        missing += m - gone;
                    }
                }
                let (lost, not_yet) = match (ended, timing) {
                    (false, _) => (lost_now, missing),
                    (true, None) => (lost_now + missing, 0),
                    (true, Some(_)) => {
                        differs += missing;
                        (lost_now, 0)
                    }
                };
                SinkVerdicts {
                    uid: sink.uid.clone(),
                    kind: reference.map_or(SinkKind::AtLeastOnce, |r| r.kind),
                    timing,
                    outputs,
                    counts: VerdictCounts {
                        committed,
                        duplicates,
                        not_yet,
                        lost,
                        timing: differs,
                    },
                }
            })
            .collect()
    }
}

/// The verdict on one committed output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Its origin's output, committed as often as the failure-free run commits it.
    Committed,
    /// Its origin was already committed: this is copy number `copy` (2 for ×2).
    Duplicate {
        /// Which copy of the origin's output it is (2, 3, …).
        copy: u32,
    },
    /// A timing-dependent sink's output the failure-free run does not commit (or
    /// commits less often): it differs by timing, neither lost nor repeated.
    Timing,
}

/// The three verdicts counted apart, plus the outputs committed as they should be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerdictCounts {
    /// Committed outputs that are not duplicates.
    pub committed: u32,
    /// Committed outputs whose origin was already committed.
    pub duplicates: u32,
    /// Outputs of the failure-free run this run has not committed but still may.
    pub not_yet: u32,
    /// Outputs of the failure-free run this run will never commit (it has ended).
    pub lost: u32,
    /// A timing-dependent sink's outputs that differ from the failure-free run's:
    /// committed beyond it, plus (once the run ended) its outputs never committed.
    #[serde(default)]
    pub timing: u32,
}

/// One sink's verdicts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SinkVerdicts {
    /// The sink's uid.
    pub uid: String,
    /// Its kind (what the page's heading names).
    pub kind: SinkKind,
    /// What makes this sink's outputs depend on timing, if anything: after a
    /// failure they differ from the failure-free run's by origin, and the
    /// difference is counted as [`VerdictCounts::timing`], never as lost or
    /// duplicated (see the module documentation).
    pub timing: Option<TimingCause>,
    /// One verdict per committed output, in the order of
    /// [`crate::view::SinkView::committed`].
    pub outputs: Vec<Verdict>,
    /// The verdicts counted.
    pub counts: VerdictCounts,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::load;

    fn end_of(name: &str) -> (Reference, WorldView) {
        let s = load(name).unwrap();
        let reference = Reference::failure_free(&s, s.seed).unwrap();
        let mut w = World::new(&s, s.seed).unwrap();
        w.run_to_end(s.until_ms, DEFAULT_LIMIT_MS, |_| {});
        (reference, w.view())
    }

    /// At-least-once replays what the restored offsets re-read: duplicates, nothing
    /// lost; the counts partition the committed outputs.
    #[test]
    fn at_least_once_duplicates_are_counted_by_origin() {
        let (reference, view) = end_of("at-least-once-duplicates");
        let v = &reference.judge(&view)[0];
        assert_eq!(v.kind, SinkKind::AtLeastOnce);
        let c = v.counts;
        assert!(c.duplicates > 0, "{c:?}");
        assert_eq!((c.lost, c.not_yet), (0, 0), "{c:?}");
        assert_eq!(
            (c.committed + c.duplicates) as usize,
            view.sinks[0].committed.len()
        );
        assert_eq!(c.committed, reference.expected_total("out"));
        assert!(v
            .outputs
            .iter()
            .any(|o| matches!(o, Verdict::Duplicate { copy: 2 })));
    }

    /// Mid-run, exactly-once's outputs still to come are "not committed yet", never
    /// lost; at the end there are none.
    #[test]
    fn exactly_once_outputs_still_to_come_are_not_yet_committed() {
        let s = load("exactly-once-kafka").unwrap();
        let reference = Reference::failure_free(&s, s.seed).unwrap();
        let mut w = World::new(&s, s.seed).unwrap();
        w.run_until(1_500, |_| {});
        let mid = reference.judge(&w.view())[0].counts;
        assert!(
            mid.not_yet > 0 && mid.lost == 0 && mid.duplicates == 0,
            "{mid:?}"
        );
        w.run_to_end(s.until_ms, DEFAULT_LIMIT_MS, |_| {});
        let end = reference.judge(&w.view())[0].counts;
        assert_eq!(
            (end.duplicates, end.not_yet, end.lost),
            (0, 0, 0),
            "{end:?}"
        );
        assert_eq!(end.committed, reference.expected_total("kafka-out"));
    }

    /// The broker aborts a transaction that stayed open past its timeout; when the
    /// sink then tries to commit it, its records are lost at once — mid-run, not
    /// "not committed yet" — and before that moment nothing is lost.
    #[test]
    fn a_failed_commit_loses_its_records_at_that_moment() {
        let s = load("kafka-transaction-timeout").unwrap();
        let reference = Reference::failure_free(&s, s.seed).unwrap();
        let mut w = World::new(&s, s.seed).unwrap();
        let lost_at = |w: &World| {
            w.view().sinks[0]
                .txns
                .iter()
                .find_map(|t| t.lost_at.map(|at| (at, t.records.len() as u32)))
        };
        let mut before = None;
        while lost_at(&w).is_none() {
            before = Some(reference.judge(&w.view())[0].counts);
            assert!(w.now() < 10_000, "no commit failed");
            let next = w.now() + 1;
            w.run_until(next, |_| {});
        }
        assert_eq!(before.map(|c| c.lost), Some(0), "{before:?}");
        let (at, records) = lost_at(&w).unwrap();
        assert!(records > 0);
        assert!(
            w.view().status == JobStatus::Running,
            "lost at {at} mid-run"
        );
        let c = reference.judge(&w.view())[0].counts;
        assert_eq!(c.lost, records, "{c:?}");
    }

    /// A job that gives up never commits what the failure-free run commits after
    /// the fatal failure: that is lost.
    #[test]
    fn a_failed_job_loses_what_it_never_commits() {
        let (reference, view) = end_of("restart-none");
        assert_eq!(view.status, JobStatus::Failed);
        let c = reference.judge(&view)[0].counts;
        assert!(c.lost > 0 && c.not_yet == 0, "{c:?}");
    }

    #[test]
    fn without_failures_keeps_everything_but_crashes() {
        let s = load("jobmanager-crash-jobmanager").unwrap();
        assert!(without_failures(&s).script.is_empty());
        let s = load("savepoint-rescale").unwrap();
        assert_eq!(without_failures(&s), s);
    }
}
