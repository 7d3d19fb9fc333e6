//! The parameters each exercise kind draws, each within the range where its
//! lesson still shows the effect: the ranges' reasons sit beside them.

use super::Range;

/// 60 records every 50 ms: chk-1 and chk-2 both fall while reading.
pub(super) const STORED_OFFSET: &[Range] = &[
    Range {
        name: "seed",
        min: 1,
        max: 9_999,
    },
    Range {
        name: "interval_ms",
        min: 600,
        max: 1_400,
    },
    Range {
        name: "checkpoint",
        min: 1,
        max: 2,
    },
];

/// 12 numbers every 100 ms; the crash after chk-1, before the last number.
pub(super) const RESTORED_SUMS: &[Range] = &[
    Range {
        name: "interval_ms",
        min: 350,
        max: 650,
    },
    Range {
        name: "crash_ms",
        min: 600,
        max: 1_150,
    },
];

/// The numbers' barrier arrives 5 ms after injection, the letters'
/// after `latency_ms`: 1 to 5 numbers wait.
pub(super) const ALIGNMENT_WAITING: &[Range] = &[
    Range {
        name: "interval_ms",
        min: 470,
        max: 505,
    },
    Range {
        name: "latency_ms",
        min: 20,
        max: 250,
    },
];

/// [`Kind::AtLeastOnceDuplicates`](super::Kind::AtLeastOnceDuplicates)'s parameters.
pub(super) const AT_LEAST_ONCE_DUPLICATES: &[Range] = &[
    Range {
        name: "seed",
        min: 1,
        max: 9_999,
    },
    Range {
        name: "crash_ms",
        min: 700,
        max: 1_500,
    },
];

/// [`Kind::CommittedTransactions`](super::Kind::CommittedTransactions)'s parameters.
pub(super) const COMMITTED_TRANSACTIONS: &[Range] = &[
    Range {
        name: "interval_ms",
        min: 350,
        max: 600,
    },
    Range {
        name: "at_ms",
        min: 800,
        max: 1_700,
    },
];

/// Four crashes at 500, 2300, 2800 and 3300 ms: at most 3 restarts.
pub(super) const RESTARTS_BEFORE_FAILURE: &[Range] = &[
    Range {
        name: "attempts",
        min: 0,
        max: 3,
    },
    Range {
        name: "delay_ms",
        min: 100,
        max: 400,
    },
];

/// 80 values in 1..=100 over three apps, 40 ms apart: most seeds repeat
/// a value of one app before the crash at 1700 ms. The exercise takes a
/// value whose second arrival comes 200 to 1399 ms after its first, so
/// which side of it the drawn TTL falls on decides (the lesson's 800 ms
/// lies in the middle).
pub(super) const TTL_PASSES: &[Range] = &[
    Range {
        name: "seed",
        min: 1,
        max: 9_999,
    },
    Range {
        name: "ttl_ms",
        min: 200,
        max: 1_400,
    },
];

/// Rules at 2000 and 5000 ms, a crash at 6500: chk-N may hold no rule
/// yet (redrawn), one, or both, before or after the restore.
pub(super) const BROADCAST_COPIES: &[Range] = &[
    Range {
        name: "parallelism",
        min: 2,
        max: 5,
    },
    Range {
        name: "interval_ms",
        min: 700,
        max: 1_300,
    },
    Range {
        name: "checkpoint",
        min: 2,
        max: 8,
    },
];

/// Crashes at 500, 2300, 2800 and 3300 ms, a reset after 1000 ms: the
/// second failure resets the counter, the third and fourth grow it. A
/// delay of 500 ms or more merges the fourth crash into the third's
/// restart (redrawn). Multipliers 1.5 and 2.0 only (see restart_delays).
pub(super) const RESTART_DELAYS: &[Range] = &[
    Range {
        name: "initial_ms",
        min: 50,
        max: 250,
    },
    Range {
        name: "max_ms",
        min: 150,
        max: 1_000,
    },
    Range {
        name: "multiplier_tenths",
        min: 15,
        max: 20,
    },
];

/// 30 records every 50 ms, a checkpoint every 500 ms: the crash aborts
/// the open transaction, and t falls once the restarted job committed.
pub(super) const READ_COMMITTED_AFTER_CRASH: &[Range] = &[
    Range {
        name: "crash_ms",
        min: 700,
        max: 1_300,
    },
    Range {
        name: "after_ms",
        min: 300,
        max: 1_200,
    },
];

/// The audit branch back-pressures the source: checkpoints expire under
/// the checkpoint timeout, and the sink's transaction waits for the
/// next one to complete, longer than the broker's timeout or not.
pub(super) const TXN_TIMEOUT: &[Range] = &[
    Range {
        name: "timeout_ms",
        min: 300,
        max: 600,
    },
    Range {
        name: "transaction_timeout_ms",
        min: 300,
        max: 1_400,
    },
];

/// Without the lesson's crash, count and kafka-out as two subtasks
/// each, count busy `process_ms` a record: the seed's keys decide which
/// count subtask's barrier waits behind more records, and so which
/// kafka-out subtask acknowledges last.
pub(super) const LAST_ACK: &[Range] = &[
    Range {
        name: "seed",
        min: 1,
        max: 9_999,
    },
    Range {
        name: "process_ms",
        min: 30,
        max: 150,
    },
    Range {
        name: "interval_ms",
        min: 300,
        max: 700,
    },
    Range {
        name: "async_ms",
        min: 20,
        max: 300,
    },
    Range {
        name: "latency_ms",
        min: 5,
        max: 150,
    },
    Range {
        name: "checkpoint",
        min: 1,
        max: 3,
    },
];

/// Numbers → parity → sum → out without the lesson's crash: the
/// latency into sum and the asynchronous part place its phases, the
/// latency out of it whether out#0 snapshots before sum#0 acknowledges.
pub(super) const CHECKPOINT_PHASES: &[Range] = &[
    Range {
        name: "interval_ms",
        min: 300,
        max: 650,
    },
    Range {
        name: "async_ms",
        min: 20,
        max: 300,
    },
    Range {
        name: "latency_ms",
        min: 5,
        max: 120,
    },
    Range {
        name: "out_latency_ms",
        min: 5,
        max: 300,
    },
    Range {
        name: "checkpoint",
        min: 1,
        max: 2,
    },
];

/// Two random streams into a slow keyed sum behind buffers of
/// `buffer_capacity` records: the seed and the buffers decide how many
/// records queue on each channel.
pub(super) const UNALIGNED_PERSISTED: &[Range] = &[
    Range {
        name: "buffer_capacity",
        min: 3,
        max: 12,
    },
    Range {
        name: "seed",
        min: 1,
        max: 9_999,
    },
    Range {
        name: "interval_ms",
        min: 600,
        max: 1_400,
    },
    Range {
        name: "checkpoint",
        min: 1,
        max: 2,
    },
];

/// The job reads offsets 30 to 89 every 50 ms and ends near 3000 ms:
/// up to 8 own checkpoints complete, pushing the restored one out of
/// 1 to 3 retained ones.
pub(super) const CLAIM_MODE_SNAPSHOT: &[Range] = &[
    Range {
        name: "interval_ms",
        min: 300,
        max: 800,
    },
    Range {
        name: "retained",
        min: 1,
        max: 3,
    },
    Range {
        name: "at_ms",
        min: 500,
        max: 2_900,
    },
];

/// Which of version 1's kafka, pv and out (bits 0, 1, 2) version 2
/// renames; version 1 reads 80 records a partition, 40 to 55 ms apart,
/// and stops with a savepoint while reading.
pub(super) const UID_RESTORE: &[Range] = &[
    Range {
        name: "renamed",
        min: 0,
        max: 7,
    },
    Range {
        name: "savepoint_ms",
        min: 900,
        max: 2_800,
    },
];

/// A burst of 40 records behind a 25 ms-per-record count: checkpoint 2
/// needs 385 ms, the ones behind the backlog longer.
pub(super) const CHECKPOINT_EXPIRY: &[Range] = &[
    Range {
        name: "timeout_ms",
        min: 150,
        max: 900,
    },
    Range {
        name: "tolerable_failures",
        min: 0,
        max: 2,
    },
];

/// Four partitions and three apps, 1 to 4 subtasks before and after.
pub(super) const RESCALE_ASSIGNMENT: &[Range] = &[
    Range {
        name: "old_parallelism",
        min: 1,
        max: 4,
    },
    Range {
        name: "new_parallelism",
        min: 1,
        max: 4,
    },
    Range {
        name: "subtask",
        min: 0,
        max: 3,
    },
    Range {
        name: "app",
        min: 1,
        max: 3,
    },
];

/// 160 records every 50 ms over a cycle of 46 keys (2300 ms): a
/// checkpoint changes some keys and leaves others in older files.
pub(super) const INCREMENTAL_UPLOAD: &[Range] = &[
    Range {
        name: "interval_ms",
        min: 400,
        max: 1_500,
    },
    Range {
        name: "checkpoint",
        min: 2,
        max: 6,
    },
];

/// Without the lesson's crash, chk-1 and chk-2 complete while the
/// source reads. The first branch's keyed operator (window count,
/// reduce, average) and which sinks are transactional (bit 0: counts,
/// bit 1: unique) decide the states.
pub(super) const STATE_KINDS: &[Range] = &[
    Range {
        name: "interval_ms",
        min: 400,
        max: 800,
    },
    Range {
        name: "keyed_kind",
        min: 0,
        max: 2,
    },
    Range {
        name: "sinks",
        min: 0,
        max: 3,
    },
    Range {
        name: "checkpoint",
        min: 1,
        max: 2,
    },
];
