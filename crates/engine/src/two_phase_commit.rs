//! The two-phase-commit sink.
//!
//! Flink: `TwoPhaseCommitSinkFunction`. On a snapshot it pre-commits the current
//! transaction, remembers it under the checkpoint id and begins the next one; on
//! notify-complete for `n` it commits every pending transaction up to `n` (the
//! checkpoint subsuming contract); notify-aborted is a no-op; on restore it commits
//! every pre-committed transaction in the restored state (`recoverAndCommit`) and
//! aborts the one begun after that snapshot (`recoverAndAbort`).
//! The external system may abort a transaction that stays uncommitted past the sink's
//! `transaction_timeout_ms` (Kafka's `transaction.timeout.ms`, KafkaSink): the next
//! write then fails the task ([`Write::TimedOut`]) and a later commit is dropped
//! ([`ExternalTopic::commit`]), as Flink's `KafkaWriter` and `KafkaCommitter` do.
//! Simplified: commits fail only that way.

use crate::event::{Event, TaskName, Trace};
use crate::ids::CheckpointId;
use crate::record::Record;
use crate::sink::{ExternalTopic, Transaction, TxnStatus};
use crate::snapshot::OperatorSnapshot;
use serde::{Deserialize, Serialize};

/// What [`TwoPhaseCommitSink::invoke`] did with a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// Written into transaction `txn`; `first`: its first record, so its timeout
    /// starts now.
    Written {
        /// The transaction written into.
        txn: u64,
        /// Whether this is the transaction's first record.
        first: bool,
    },
    /// No transaction after `finish()` (Flink: a `NullPointerException` in `invoke`).
    NoTransaction,
    /// The broker aborted the current transaction `txn` after `timeout_ms`: the write
    /// fails the task with Kafka's error.
    TimedOut {
        /// The aborted transaction.
        txn: u64,
        /// The timeout it exceeded.
        timeout_ms: u64,
    },
}

/// The sink subtask's transactional state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TwoPhaseCommitSink {
    /// The open transaction records are written into (`None` after `finish()`).
    pub current: Option<u64>,
    /// Pre-committed transactions waiting for their checkpoint to complete, in
    /// insertion order (Flink: `pendingCommitTransactions`, a `LinkedHashMap`).
    pub pending: Vec<(CheckpointId, u64)>,
    /// The last checkpoint this subtask snapshotted.
    pub last_snapshot: Option<CheckpointId>,
}

/// Begin a transaction for `task` in `ext`, numbering it from `next_txn`.
fn begin_transaction(
    task: &TaskName,
    after: Option<CheckpointId>,
    ext: &mut ExternalTopic,
    next_txn: &mut u64,
    trace: &mut Trace,
) -> u64 {
    *next_txn += 1;
    let txn = *next_txn;
    ext.changes += 1;
    ext.txns.insert(
        txn,
        Transaction {
            task: task.clone(),
            status: TxnStatus::Open,
            checkpoint: None,
            begun_after: after,
            records: Vec::new(),
            changed: ext.changes,
            first_write_at: None,
            timed_out: None,
            changed_at: None,
            lost_at: None,
        },
    );
    trace.push(|| Event::TransactionBegun {
        task: task.clone(),
        txn,
        checkpoint: after,
    });
    txn
}

impl TwoPhaseCommitSink {
    /// `initializeState` on a fresh start: begin the first transaction.
    pub fn start(
        task: &TaskName,
        ext: &mut ExternalTopic,
        next_txn: &mut u64,
        trace: &mut Trace,
    ) -> Self {
        let current = Some(begin_transaction(task, None, ext, next_txn, trace));
        TwoPhaseCommitSink {
            current,
            pending: Vec::new(),
            last_snapshot: None,
        }
    }

    /// `initializeState` on restore from `checkpoint`: `recoverAndCommit` every
    /// pre-committed transaction of the state, `recoverAndAbort` the transaction
    /// begun after the snapshot, then begin a fresh one.
    pub fn restore(
        task: &TaskName,
        checkpoint: CheckpointId,
        state: &OperatorSnapshot,
        ext: &mut ExternalTopic,
        next_txn: &mut u64,
        trace: &mut Trace,
    ) -> Self {
        if let OperatorSnapshot::TwoPhaseCommit {
            pending_transaction,
            pending_commit,
        } = state
        {
            for (_, txn) in pending_commit {
                ext.recover_and_commit(*txn, task, trace);
            }
            if let Some(txn) = pending_transaction {
                ext.recover_and_abort(*txn, task, trace);
            }
        }
        let current = Some(begin_transaction(
            task,
            Some(checkpoint),
            ext,
            next_txn,
            trace,
        ));
        TwoPhaseCommitSink {
            current,
            pending: Vec::new(),
            last_snapshot: Some(checkpoint),
        }
    }

    /// `invoke` at `now`: write into the current transaction.
    pub fn invoke(&mut self, record: Record, ext: &mut ExternalTopic, now: u64) -> Write {
        let Some(txn) = self.current else {
            return Write::NoTransaction;
        };
        if let Some(timeout_ms) = ext.timed_out(txn) {
            return Write::TimedOut { txn, timeout_ms };
        }
        Write::Written {
            txn,
            first: ext.write_in_txn(txn, record, now),
        }
    }

    /// `snapshotState`: pre-commit the current transaction for `checkpoint`, begin
    /// the next one (none once `is_finished`), and return the state to store.
    pub fn snapshot_state(
        &mut self,
        task: &TaskName,
        checkpoint: CheckpointId,
        is_finished: bool,
        ext: &mut ExternalTopic,
        next_txn: &mut u64,
        trace: &mut Trace,
    ) -> OperatorSnapshot {
        if let Some(txn) = self.current.take() {
            ext.precommit(txn, checkpoint, trace);
            self.pending.push((checkpoint, txn));
        }
        self.last_snapshot = Some(checkpoint);
        if !is_finished {
            self.current = Some(begin_transaction(
                task,
                Some(checkpoint),
                ext,
                next_txn,
                trace,
            ));
        }
        OperatorSnapshot::TwoPhaseCommit {
            pending_transaction: self.current,
            pending_commit: self.pending.clone(),
        }
    }

    /// `notifyCheckpointComplete(n)`: commit every pending transaction of a
    /// checkpoint `<= n`, in insertion order.
    pub fn notify_checkpoint_complete(
        &mut self,
        checkpoint: CheckpointId,
        ext: &mut ExternalTopic,
        trace: &mut Trace,
    ) {
        let mut keep = Vec::with_capacity(self.pending.len());
        for (id, txn) in self.pending.drain(..) {
            if id <= checkpoint {
                ext.commit(txn, trace);
            } else {
                keep.push((id, txn));
            }
        }
        self.pending = keep;
    }

    /// `close()` on failover or cancel: abort the open transaction. Pre-committed
    /// ones stay pending in the external system; the restore decides their fate.
    pub fn close(&mut self, ext: &mut ExternalTopic, trace: &mut Trace) {
        if let Some(txn) = self.current.take() {
            ext.abort(txn, trace);
        }
    }
}
