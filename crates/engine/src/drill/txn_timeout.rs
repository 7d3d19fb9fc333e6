//! Whether a transaction outlives Kafka's transaction timeout, on
//! `kafka-transaction-timeout`: a back-pressured branch makes checkpoints expire,
//! so the sink's transaction stays open until a later checkpoint completes and
//! commits it — unless the broker aborted it first.
//!
//! Kafka's transaction coordinator aborts a transaction still uncommitted
//! `transaction.timeout.ms` after it started (the producer property `KafkaSink`
//! passes on); Flink's Kafka connector documentation (Kafka Sink) asks for a
//! timeout well above the maximum checkpoint duration plus the maximum restart
//! duration, or data is lost when Kafka expires an uncommitted transaction:
//! `KafkaCommitter.commit` then finds it gone.

use std::collections::BTreeMap;

use super::{question, reason, run, Answer, Blank, DrillError, Made};
use crate::event::Event;
use crate::scenario::{OperatorKind, RestartConfig, Scenario, SinkKind};

/// The sink operator's index in the lesson's operator list.
fn sink_index(s: &Scenario) -> Result<usize, DrillError> {
    s.job
        .operators
        .iter()
        .position(|o| o.kind == OperatorKind::Sink && o.sink == Some(SinkKind::TwoPhaseCommit))
        .ok_or_else(|| DrillError::Scenario("the lesson has no two_phase_commit sink".into()))
}

/// Each transaction's first write and its commit, in a run.
fn open_times(trace: &[crate::event::TraceEvent]) -> BTreeMap<u64, (u64, Option<u64>)> {
    let mut txns: BTreeMap<u64, (u64, Option<u64>)> = BTreeMap::new();
    for e in trace {
        match &e.event {
            Event::RecordWritten { txn: Some(t), .. } => {
                txns.entry(*t).or_insert((e.t, None));
            }
            Event::TransactionCommitted { txn, .. } => {
                if let Some(x) = txns.get_mut(txn) {
                    x.1.get_or_insert(e.t);
                }
            }
            _ => {}
        }
    }
    txns
}

pub(super) fn set_timeouts(
    s: &mut Scenario,
    timeout_ms: u64,
    transaction_timeout_ms: u64,
) -> Result<(), DrillError> {
    let i = sink_index(s)?;
    s.job.operators[i].transaction_timeout_ms = Some(transaction_timeout_ms);
    let cfg = s
        .checkpointing
        .as_mut()
        .ok_or_else(|| DrillError::Scenario("the lesson does not checkpoint".into()))?;
    cfg.timeout_ms = timeout_ms;
    Ok(())
}

pub(super) fn txn_timeout(s: &Scenario) -> Result<Made, DrillError> {
    let sink = sink_index(s)?;
    let timeout = s.job.operators[sink].transaction_timeout_ms.unwrap_or(0);
    // The transaction at risk, from the run without a broker timeout: the one
    // longest open before its commit. The drawn timeout must spare every other
    // one, so the two runs agree up to its fate.
    let mut calm = s.clone();
    calm.job.operators[sink].transaction_timeout_ms = None;
    let (_, calm_trace) = run(&calm)?;
    let mut open: Vec<(u64, u64, u64)> = open_times(&calm_trace)
        .into_iter()
        .filter_map(|(txn, (first, done))| done.map(|d| (d - first, txn, first)))
        .collect();
    open.sort_unstable_by(|a, b| b.cmp(a));
    let no_effect = |why: String| DrillError::NoEffect {
        param: "transaction_timeout_ms",
        why,
    };
    let Some(&(longest, txn, opened)) = open.first() else {
        return Err(no_effect("no transaction is committed".into()));
    };
    let next = open.get(1).map_or(0, |o| o.0);
    if timeout <= next {
        return Err(no_effect(format!(
            "{timeout} ms: another transaction, open {next} ms, would time out too"
        )));
    }
    if timeout == longest {
        return Err(no_effect(format!(
            "{timeout} ms: transaction {txn} would be aborted and committed in one millisecond"
        )));
    }
    let (_, trace) = run(s)?;
    let fate = trace.iter().find_map(|e| match &e.event {
        Event::TransactionCommitted {
            txn: t, checkpoint, ..
        } if *t == txn => Some(("committed", e.t, checkpoint.map_or(0, |c| c.0))),
        Event::TransactionAborted { txn: t, .. } if *t == txn => Some(("aborted", e.t, 0)),
        _ => None,
    });
    let Some((label, at, checkpoint)) = fate else {
        return Err(DrillError::Scenario(format!(
            "transaction {txn} is neither committed nor aborted"
        )));
    };
    let cfg = s.checkpointing.clone().unwrap_or_default();
    let interval = cfg.interval_ms.unwrap_or(0);
    let delay = match s.restart {
        Some(RestartConfig::FixedDelay { delay_ms, .. }) => delay_ms,
        _ => 0,
    };
    let expired = trace
        .iter()
        .filter(|e| e.t > opened && e.t <= at)
        .filter(|e| matches!(e.event, Event::CheckpointAborted { .. }))
        .count();
    let mut args = vec![
        ("txn", txn.to_string()),
        ("opened_ms", opened.to_string()),
        ("transaction_timeout_ms", timeout.to_string()),
        ("expired", expired.to_string()),
    ];
    let key = if label == "committed" {
        args.extend([
            ("checkpoint", checkpoint.to_string()),
            ("committed_ms", at.to_string()),
            ("open_ms", (at - opened).to_string()),
        ]);
        "txn_timeout_committed"
    } else {
        args.push(("aborted_ms", at.to_string()));
        "txn_timeout_aborted"
    };
    let b = Blank {
        labels: vec!["committed".into(), "aborted".into()],
        why: Some(reason(key, &args, at)),
        ..super::blank("fate", Answer::Labels([label.to_string()].into()))
    };
    Ok((
        question(&[
            ("txn", txn),
            ("opened_ms", opened),
            ("transaction_timeout_ms", timeout),
            ("interval_ms", interval),
            ("timeout_ms", cfg.timeout_ms),
            ("tolerable_failures", u64::from(cfg.tolerable_failures)),
            ("delay_ms", delay),
            (
                "bound_ms",
                (u64::from(cfg.tolerable_failures) + 1) * (interval + cfg.timeout_ms) + delay,
            ),
        ]),
        at,
        vec![b],
    ))
}
