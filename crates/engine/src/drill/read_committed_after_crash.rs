//! What a consumer of the two-phase-commit sink's topic has read by a time after
//! a crash, on `exactly-once-kafka`: with `isolation.level=read_committed` only
//! the records of committed transactions, with `read_uncommitted` every record
//! written, the aborted transaction's too.
//!
//! Flink: `KafkaSink` with `DeliveryGuarantee.EXACTLY_ONCE` writes each
//! checkpoint's records into one Kafka transaction, pre-commits it at the
//! checkpoint (`KafkaWriter.prepareCommit`) and commits it once the checkpoint
//! completes (`KafkaCommitter.commit`); on recovery the writer aborts the
//! transactions the failed attempt left open and the records are written again
//! from the restored offset. A consumer with Kafka's
//! `isolation.level=read_committed` never returns records of aborted or still-open
//! transactions; the default, `read_uncommitted`, returns them all (Flink's Kafka
//! connector documentation, Kafka Sink, on the isolation level of consumers).

use std::collections::BTreeSet;

use super::{blank, explained, listed, question, reason, run, Answer, DrillError, Made};
use crate::event::Event;
use crate::scenario::Scenario;

pub(super) fn read_committed_after_crash(
    s: &Scenario,
    crash_ms: u64,
    at_ms: u64,
) -> Result<Made, DrillError> {
    let (_, trace) = run(s)?;
    let upto: Vec<_> = trace.iter().filter(|e| e.t <= at_ms).collect();
    let mut committed: BTreeSet<u64> = BTreeSet::new();
    let mut aborted: BTreeSet<u64> = BTreeSet::new();
    let mut last_commit = None;
    for e in &upto {
        match &e.event {
            Event::TransactionCommitted {
                txn, checkpoint, ..
            } => {
                committed.insert(*txn);
                last_commit = Some((*txn, checkpoint.map_or(0, |c| c.0), e.t));
            }
            Event::TransactionAborted { txn, .. } => {
                aborted.insert(*txn);
            }
            _ => {}
        }
    }
    let written: Vec<Option<u64>> = upto
        .iter()
        .filter_map(|e| match &e.event {
            Event::RecordWritten { txn, .. } => Some(*txn),
            _ => None,
        })
        .collect();
    let in_committed = written
        .iter()
        .filter(|t| t.is_some_and(|t| committed.contains(&t)))
        .count();
    let in_aborted = written
        .iter()
        .filter(|t| t.is_some_and(|t| aborted.contains(&t)))
        .count();
    let restarted = upto.iter().any(|e| {
        matches!(
            e.event,
            Event::StateRestored {
                checkpoint: Some(_),
                ..
            }
        )
    });
    let no_effect = |why: String| DrillError::NoEffect {
        param: "after_ms",
        why,
    };
    let Some((txn, checkpoint, committed_ms)) = last_commit else {
        return Err(no_effect(format!("nothing is committed by {at_ms} ms")));
    };
    if !restarted || in_aborted == 0 {
        return Err(no_effect(format!(
            "by {at_ms} ms the job has not restored a checkpoint after the crash at \
             {crash_ms} ms with an aborted transaction's records written"
        )));
    }
    // A commit after the restore: what the restarted job wrote is visible too.
    let restored_at = upto
        .iter()
        .find(|e| {
            matches!(
                e.event,
                Event::StateRestored {
                    checkpoint: Some(_),
                    ..
                }
            )
        })
        .map_or(0, |e| e.t);
    if committed_ms <= restored_at {
        return Err(no_effect(format!(
            "by {at_ms} ms no transaction of the restarted job is committed"
        )));
    }
    // The replay pauses at that commit: it must show a running job, not the
    // final commit of a finished one.
    if trace
        .iter()
        .any(|e| matches!(e.event, Event::JobFinished) && e.t <= committed_ms)
    {
        return Err(no_effect(format!(
            "the job has finished by the commit at {committed_ms} ms"
        )));
    }
    let why = reason(
        "read_committed_after_crash",
        &[
            ("at_ms", at_ms.to_string()),
            ("crash_ms", crash_ms.to_string()),
            ("txn", txn.to_string()),
            ("checkpoint", checkpoint.to_string()),
            ("committed_ms", committed_ms.to_string()),
            ("committed", in_committed.to_string()),
            ("aborted_txns", listed(&aborted)),
            ("aborted", in_aborted.to_string()),
            ("uncommitted", written.len().to_string()),
        ],
        committed_ms,
    );
    Ok((
        question(&[("crash_ms", crash_ms), ("at_ms", at_ms)]),
        committed_ms,
        explained(
            vec![
                blank("read_committed", Answer::Number(in_committed as i64)),
                blank("read_uncommitted", Answer::Number(written.len() as i64)),
            ],
            &why,
        ),
    ))
}
