//! Sinks and the external system they write to.
//!
//! The external system is a Kafka-like topic with transactions: a `read_committed`
//! consumer sees a transaction's records when it commits; a `read_uncommitted` one
//! sees every write at once, including those of transactions later aborted.

use crate::event::{Event, TaskName, Trace};
use crate::ids::CheckpointId;
use crate::record::Record;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// The sink subtask that owns it.
    pub task: TaskName,
    /// Its status.
    pub status: TxnStatus,
    /// The checkpoint it was pre-committed for.
    pub checkpoint: Option<CheckpointId>,
    /// The last checkpoint the sink had snapshotted when it began this transaction.
    pub begun_after: Option<CheckpointId>,
    /// Indices of its writes in [`ExternalTopic::writes`].
    pub writes: Vec<usize>,
}

/// One write to the external system.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Write {
    /// What was written.
    pub record: Record,
    /// When.
    pub at: u64,
    /// Its transaction, for a two-phase-commit sink.
    pub txn: Option<u64>,
}

/// The external system one sink operator writes to (one per sink `uid`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExternalTopic {
    /// Every write, in write order.
    pub writes: Vec<Write>,
    /// Transactions by id (ids are global, increasing).
    pub txns: BTreeMap<u64, Transaction>,
    /// What a `read_committed` consumer has read: indices into `writes`, in the order they became visible.
    pub committed: Vec<usize>,
    /// The idempotent sink's upserted table, by key.
    pub table: BTreeMap<crate::record::KeyId, i64>,
}

impl ExternalTopic {
    /// Number of aborted transactions.
    pub fn aborted_transactions(&self) -> usize {
        self.txns.values().filter(|t| t.status == TxnStatus::Aborted).count()
    }

    /// Writes a `read_uncommitted` consumer sees beyond the committed ones: those
    /// of transactions still open, pre-committed, or aborted.
    pub fn uncommitted(&self) -> impl Iterator<Item = &Write> {
        self.writes.iter().filter(move |w| match w.txn {
            Some(t) => self.txns.get(&t).is_some_and(|x| x.status != TxnStatus::Committed),
            None => false,
        })
    }

    /// A non-transactional write, visible at once.
    pub fn write_visible(&mut self, record: Record, at: u64) {
        self.committed.push(self.writes.len());
        self.writes.push(Write { record, at, txn: None });
    }

    /// A write into transaction `txn`.
    pub fn write_in_txn(&mut self, txn: u64, record: Record, at: u64) {
        let i = self.writes.len();
        self.writes.push(Write { record, at, txn: Some(txn) });
        if let Some(t) = self.txns.get_mut(&txn) {
            debug_assert_eq!(t.status, TxnStatus::Open, "write into a closed transaction");
            t.writes.push(i);
        }
    }

    fn set_status(&mut self, txn: u64, status: TxnStatus, trace: &mut Trace) {
        let Some(t) = self.txns.get_mut(&txn) else { return };
        if t.status == status || matches!(t.status, TxnStatus::Committed | TxnStatus::Aborted) {
            return; // commit and abort are idempotent, as Kafka's are
        }
        t.status = status;
        let (task, checkpoint) = (t.task.clone(), t.checkpoint);
        if status == TxnStatus::Committed {
            self.committed.extend(t.writes.iter().copied());
        }
        trace.push(|| match status {
            TxnStatus::Precommitted => Event::TransactionPrecommitted { task, txn, checkpoint },
            TxnStatus::Committed => Event::TransactionCommitted { task, txn, checkpoint },
            TxnStatus::Aborted => Event::TransactionAborted { task, txn, checkpoint },
            TxnStatus::Open => unreachable!("never set back to open"),
        });
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

    /// Commit `txn` (idempotent).
    pub fn commit(&mut self, txn: u64, trace: &mut Trace) {
        self.set_status(txn, TxnStatus::Committed, trace);
    }

    /// Abort `txn` (idempotent; a committed transaction stays committed).
    pub fn abort(&mut self, txn: u64, trace: &mut Trace) {
        self.set_status(txn, TxnStatus::Aborted, trace);
    }
}
