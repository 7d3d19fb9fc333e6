//! Sinks and the external system they write to.
//!
//! The external system is a Kafka-like topic with transactions: a `read_committed`
//! consumer sees a transaction's records when it commits; a `read_uncommitted` one
//! sees every write at once, including those of transactions later aborted.
//! Like a Kafka topic it can have a retention limit, so a very long run keeps its
//! memory bounded (off by default).

use crate::event::{Event, TaskName, Trace};
use crate::ids::CheckpointId;
use crate::record::{KeyId, Record};
use crate::scenario::{Job, OperatorKind};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// Everything outside the job that its sinks write to: one topic per sink operator,
/// and the transaction ids handed out so far. It outlives failovers, a JobManager
/// crash and the job itself: a job restored from a savepoint keeps writing to the
/// topics of the earlier job's sinks with the same uids, and numbers transactions on.
/// Flink: outside Flink — the Kafka cluster with its transactional producers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExternalSystems {
    /// Topics by sink operator index (scenario order), one per sink.
    topics: BTreeMap<usize, ExternalTopic>,
    /// The last transaction id handed out: ids are global over all sinks and grow
    /// from 1 (Kafka: each transactional producer's epoch, flattened).
    last_txn: u64,
}

impl ExternalSystems {
    /// `topics` by sink operator index; transaction ids continue after `last_txn`.
    pub fn new(topics: BTreeMap<usize, ExternalTopic>, last_txn: u64) -> Self {
        ExternalSystems { topics, last_txn }
    }

    /// The external systems of `job`'s sinks: a sink keeps writing to the topic of
    /// the `earlier` job's sink with its uid (a restore from a savepoint), and
    /// transaction ids continue after the earlier job's; other sinks get a new topic.
    pub fn for_job(job: &Job, earlier: Option<(&Job, &ExternalSystems)>) -> Self {
        let topics = job
            .operators
            .iter()
            .enumerate()
            .filter(|(_, o)| o.kind == OperatorKind::Sink)
            .map(|(i, o)| {
                let carried = earlier.and_then(|(old_job, old)| {
                    let old_op = old_job.operators.iter().position(|x| x.uid == o.uid)?;
                    old.topics.get(&old_op).cloned()
                });
                (i, carried.unwrap_or_default())
            })
            .collect();
        ExternalSystems::new(topics, earlier.map_or(0, |(_, old)| old.last_txn))
    }

    /// Topics by sink operator index.
    pub fn topics(&self) -> &BTreeMap<usize, ExternalTopic> {
        &self.topics
    }

    /// The last transaction id handed out.
    pub fn last_txn(&self) -> u64 {
        self.last_txn
    }

    /// The topic of sink operator `op`. Panics for an operator that is not a sink
    /// (every sink has its topic from the start).
    pub fn topic(&mut self, op: usize) -> &mut ExternalTopic {
        self.topics
            .get_mut(&op)
            .expect("every sink has an external topic")
    }

    /// The topic of sink operator `op` and the transaction-id counter, for a
    /// two-phase-commit sink that begins transactions.
    pub fn topic_and_txn_ids(&mut self, op: usize) -> (&mut ExternalTopic, &mut u64) {
        let topic = self
            .topics
            .get_mut(&op)
            .expect("every sink has an external topic");
        (topic, &mut self.last_txn)
    }

    /// Give every topic a retention of `n` committed records and finished
    /// transactions ([`ExternalTopic::retention`]).
    pub fn bound(&mut self, n: usize) {
        for t in self.topics.values_mut() {
            t.retention = Some(n.max(1));
        }
    }
}

/// Lifecycle of an external transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TxnStatus {
    /// Being written to.
    Open,
    /// Flushed and pre-committed at a checkpoint barrier; waits for the checkpoint to complete.
    Precommitted,
    /// Visible to `read_committed` consumers.
    Committed,
    /// Discarded.
    Aborted,
}

/// An external transaction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Transaction {
    /// The sink subtask that owns it: the one that began it, or the one that
    /// recovered it from its restored state ([`ExternalTopic::recover_and_commit`]).
    pub task: TaskName,
    /// Its status.
    pub status: TxnStatus,
    /// The checkpoint it was pre-committed for.
    pub checkpoint: Option<CheckpointId>,
    /// The last checkpoint the sink had snapshotted when it began this transaction.
    pub begun_after: Option<CheckpointId>,
    /// Its records with their write sequence numbers.
    pub records: Vec<(u64, Record)>,
    /// When its status last changed, as a position in the topic's sequence of
    /// transaction changes ([`ExternalTopic::changes`]): several transactions can
    /// change at one simulated instant (a restore aborts one and begins the next),
    /// and the sink shows the latest.
    #[serde(default)]
    pub changed: u64,
    /// When its first record was written: Kafka's transaction timeout runs from
    /// there (the broker starts the transaction with its first partition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_write_at: Option<u64>,
    /// `Some(timeout)`: the broker aborted it for staying uncommitted longer than the
    /// sink's `transaction_timeout_ms`; a later write fails, a later commit is dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_out: Option<u64>,
    /// Simulated time of its last status change (`None`: still as begun).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changed_at: Option<u64>,
    /// When a commit of it failed because the broker had aborted it: its
    /// records were lost then (`transaction_commit_failed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_at: Option<u64>,
}

/// The external system one sink operator writes to (one per sink `uid`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExternalTopic {
    /// Transactions by id (ids are global, increasing).
    pub txns: BTreeMap<u64, Transaction>,
    /// What a `read_committed` consumer has read, in the order it became visible.
    pub committed: VecDeque<Record>,
    /// The idempotent sink's upserted table, by key.
    pub table: BTreeMap<KeyId, i64>,
    /// Writes so far (the next write's sequence number).
    pub writes: u64,
    /// Aborted transactions so far (including ones dropped by retention).
    pub aborted_count: usize,
    /// Committed records dropped by retention.
    pub dropped: u64,
    /// Transaction status changes so far (begin, pre-commit, commit, abort).
    #[serde(default)]
    pub changes: u64,
    /// Retention: keep at most this many committed records and finished
    /// transactions (`None`: keep everything).
    pub retention: Option<usize>,
}

impl ExternalTopic {
    /// Number of aborted transactions.
    pub fn aborted_transactions(&self) -> usize {
        self.aborted_count
    }

    /// Records a `read_uncommitted` consumer sees beyond the committed ones: those
    /// of transactions still open, pre-committed, or aborted, in write order.
    pub fn uncommitted(&self) -> Vec<Record> {
        let mut v: Vec<(u64, Record)> = self
            .txns
            .values()
            .filter(|t| t.status != TxnStatus::Committed)
            .flat_map(|t| t.records.iter().copied())
            .collect();
        v.sort_by_key(|(seq, _)| *seq);
        v.into_iter().map(|(_, r)| r).collect()
    }

    /// A non-transactional write, visible at once.
    pub fn write_visible(&mut self, record: Record) {
        self.writes += 1;
        self.committed.push_back(record);
        self.apply_retention();
    }

    /// A write into transaction `txn` at `now`; true when it is the transaction's
    /// first record (its timeout starts).
    pub fn write_in_txn(&mut self, txn: u64, record: Record, now: u64) -> bool {
        self.writes += 1;
        let seq = self.writes;
        let Some(t) = self.txns.get_mut(&txn) else {
            return false;
        };
        debug_assert_eq!(t.status, TxnStatus::Open, "write into a closed transaction");
        t.records.push((seq, record));
        let first = t.first_write_at.is_none();
        if first {
            t.first_write_at = Some(now);
        }
        first
    }

    /// The timeout after which the broker aborted `txn`, if it did.
    pub fn timed_out(&self, txn: u64) -> Option<u64> {
        self.txns.get(&txn).and_then(|t| t.timed_out)
    }

    /// Kafka's transaction coordinator aborts `txn`, open or pre-committed (to Kafka
    /// a pre-committed transaction is still ongoing), because it stayed uncommitted
    /// longer than `timeout_ms`. Nothing happens to one already committed or aborted.
    pub fn abort_timed_out(&mut self, txn: u64, timeout_ms: u64, trace: &mut Trace) {
        let Some(t) = self.txns.get_mut(&txn) else {
            return;
        };
        if matches!(t.status, TxnStatus::Open | TxnStatus::Precommitted) {
            t.timed_out = Some(timeout_ms);
            self.abort(txn, trace);
        }
    }

    fn apply_retention(&mut self) {
        let Some(limit) = self.retention else { return };
        while self.committed.len() > limit {
            self.committed.pop_front();
            self.dropped += 1;
        }
        let finished = self
            .txns
            .values()
            .filter(|t| matches!(t.status, TxnStatus::Committed | TxnStatus::Aborted))
            .count();
        if finished > limit {
            let old: Vec<u64> = self
                .txns
                .iter()
                .filter(|(_, t)| matches!(t.status, TxnStatus::Committed | TxnStatus::Aborted))
                .take(finished - limit)
                .map(|(id, _)| *id)
                .collect();
            for id in old {
                self.txns.remove(&id);
            }
        }
    }

    fn set_status(&mut self, txn: u64, status: TxnStatus, trace: &mut Trace) {
        let Some(t) = self.txns.get_mut(&txn) else {
            return;
        };
        if t.status == status || matches!(t.status, TxnStatus::Committed | TxnStatus::Aborted) {
            return; // commit and abort are idempotent, as Kafka's are
        }
        t.status = status;
        self.changes += 1;
        t.changed = self.changes;
        t.changed_at = Some(trace.now);
        let (task, checkpoint) = (t.task.clone(), t.checkpoint);
        match status {
            TxnStatus::Committed => {
                let recs: Vec<Record> = t.records.iter().map(|(_, r)| *r).collect();
                self.committed.extend(recs);
            }
            TxnStatus::Aborted => self.aborted_count += 1,
            _ => {}
        }
        trace.push(|| match status {
            TxnStatus::Precommitted => Event::TransactionPrecommitted {
                task,
                txn,
                checkpoint,
            },
            TxnStatus::Committed => Event::TransactionCommitted {
                task,
                txn,
                checkpoint,
            },
            TxnStatus::Aborted => Event::TransactionAborted {
                task,
                txn,
                checkpoint,
            },
            TxnStatus::Open => unreachable!("never set back to open"),
        });
        self.apply_retention();
    }

    /// Pre-commit `txn` for `checkpoint` (flush; no longer written to).
    pub fn precommit(&mut self, txn: u64, checkpoint: CheckpointId, trace: &mut Trace) {
        if let Some(t) = self.txns.get_mut(&txn) {
            if t.status == TxnStatus::Open {
                t.checkpoint = Some(checkpoint);
            }
        }
        self.set_status(txn, TxnStatus::Precommitted, trace);
    }

    /// Commit `txn` (idempotent), on notify or on recovery. A transaction the broker
    /// aborted for its timeout cannot be committed: Flink's `KafkaCommitter` logs
    /// that and drops it (`transaction_commit_failed`), its records lost.
    pub fn commit(&mut self, txn: u64, trace: &mut Trace) {
        if let Some(t) = self.txns.get_mut(&txn) {
            if let Some(timeout_ms) = t.timed_out {
                t.lost_at.get_or_insert(trace.now);
                let (task, checkpoint) = (t.task.clone(), t.checkpoint);
                trace.push(|| Event::TransactionCommitFailed {
                    task,
                    txn,
                    checkpoint,
                    reason: kafka_committer_fenced_message(txn, timeout_ms),
                });
                return;
            }
        }
        self.set_status(txn, TxnStatus::Committed, trace);
    }

    /// Abort `txn` (idempotent; a committed transaction stays committed).
    pub fn abort(&mut self, txn: u64, trace: &mut Trace) {
        self.set_status(txn, TxnStatus::Aborted, trace);
    }

    /// `recoverAndCommit` by subtask `by`, which restored `txn` from its state: it
    /// commits it, and a transaction still unfinished becomes its own — after a
    /// scale-in, the transactions of subtasks that no longer exist are the remaining
    /// subtask's to finish. Flink: `TwoPhaseCommitSinkFunction.initializeState` runs
    /// on the subtask that received the list-state element.
    pub fn recover_and_commit(&mut self, txn: u64, by: &TaskName, trace: &mut Trace) {
        self.take_over(txn, by);
        self.commit(txn, trace);
    }

    /// `recoverAndAbort` by subtask `by` (see [`Self::recover_and_commit`]).
    pub fn recover_and_abort(&mut self, txn: u64, by: &TaskName, trace: &mut Trace) {
        self.take_over(txn, by);
        self.abort(txn, trace);
    }

    fn take_over(&mut self, txn: u64, by: &TaskName) {
        if let Some(t) = self.txns.get_mut(&txn) {
            if !matches!(t.status, TxnStatus::Committed | TxnStatus::Aborted) {
                t.task = by.clone();
            }
        }
    }
}

/// Flink's `KafkaCommitter` when the commit of `txn` meets a producer fenced by the
/// broker's timeout abort (`ProducerFencedException`: logged, the committable
/// dropped with `signalFailedWithKnownReason`, no failover), in its wording for
/// KafkaSink's default transactional ids, which are never reused.
pub fn kafka_committer_fenced_message(txn: u64, timeout_ms: u64) -> String {
    format!(
        "Unable to commit transaction (T{txn}) because its producer is already fenced. This means that you \
         either have a different producer with the same 'transactional.id' (this is unlikely with the \
         'KafkaSink' as all generated ids are unique and shouldn't be reused) or recovery took longer than \
         'transaction.timeout.ms' ({timeout_ms}ms). In both cases this most likely signals data loss, please \
         consult the Flink documentation for more details."
    )
}

/// What the sink's next write meets once the broker aborted its open transaction
/// `txn` for the timeout: the send fails with Kafka's `ProducerFencedException` and
/// Flink's `KafkaWriter` rethrows it in the task thread (`checkAsyncException`),
/// failing the task.
pub fn kafka_writer_timed_out_message(txn: u64, timeout_ms: u64) -> String {
    format!(
        "One or more Kafka Producer send requests have encountered exception: \
         org.apache.kafka.common.errors.ProducerFencedException: There is a newer producer with the same \
         transactionalId which fences the current one. (the broker aborted transaction T{txn}: open longer \
         than transaction.timeout.ms, {timeout_ms}ms)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    fn job(sinks: &[&str]) -> Job {
        let mut ops = vec![
            serde_json::json!({"uid": "src", "kind": "source", "parallelism": 1,
            "partitions": [{"records": []}]}),
        ];
        let mut edges = Vec::new();
        for uid in sinks {
            ops.push(serde_json::json!({"uid": uid, "kind": "sink", "sink": "two_phase_commit", "parallelism": 1}));
            edges.push(serde_json::json!({"from": "src", "to": uid}));
        }
        let doc = serde_json::json!({"version": 1, "name": "s", "job": {"operators": ops, "edges": edges}});
        Scenario::from_json(&doc.to_string()).expect("valid").job
    }

    /// A restored job's sink keeps writing to the earlier sink's topic with its uid
    /// (by uid, wherever it stands in the new job); a new sink gets a new topic; and
    /// transaction ids continue after the earlier job's.
    #[test]
    fn topics_carry_over_by_uid_and_txn_ids_continue() {
        let (old_job, new_job) = (job(&["a", "b"]), job(&["c", "a"]));
        let mut old = ExternalSystems::for_job(&old_job, None);
        let (topic, txn_ids) = old.topic_and_txn_ids(1);
        *txn_ids = 7;
        topic.aborted_count = 3;
        let new = ExternalSystems::for_job(&new_job, Some((&old_job, &old)));
        assert_eq!(new.last_txn(), 7);
        assert_eq!(new.topics()[&2].aborted_count, 3, "a carried over");
        assert_eq!(new.topics()[&1].aborted_count, 0, "c is new");
        assert_eq!(
            new.topics().len(),
            2,
            "one topic per sink, none for the source"
        );
    }
}
