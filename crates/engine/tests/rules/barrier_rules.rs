//! The barrier-handling rules of docs/flink-semantics.md §2.1–2.6, one test each (naming
//! the Flink class the rule mirrors), the bench's model (§9), seeded properties over
//! random arrival sequences, and the `lab barriers` command line's errors.

use std::collections::BTreeMap;

use engine::barrier::{
    AbortReason, Alignment, BarrierHandler, CheckpointBarrier, EndOfPartition, HandlerAction,
    HandlerMode, SnapshotType,
};
use engine::bench::{self, ArrivalKind, BenchConfig, BenchOutput};
use engine::ids::{ChannelIndex, CheckpointId};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use AbortReason::{CancellationBarrier, EndOfStream, Subsumed};
use EndOfPartition::CountsAsBarrier;
use HandlerAction::{Abort, Blocked, StopPersisting, Trigger, Unblocked};
use HandlerMode::{Aligned, AtLeastOnce, Unaligned};
use SnapshotType::{Checkpoint, Savepoint};

// ---------------------------------------------------------------------------------
// helpers

fn run_config(config: &BenchConfig, arrivals: &str) -> BenchOutput {
    let arrivals = bench::parse_arrivals(arrivals).unwrap_or_else(|e| panic!("{e}"));
    bench::run(config, &arrivals).unwrap_or_else(|e| panic!("{e}"))
}

fn run(mode: HandlerMode, channels: u32, arrivals: &str) -> BenchOutput {
    run_config(&BenchConfig::new(mode, channels), arrivals)
}

fn config(mode: HandlerMode, channels: u32, timeout_ms: u64, finished_tasks: bool) -> BenchConfig {
    BenchConfig {
        mode,
        channels,
        aligned_timeout_ms: timeout_ms,
        checkpoints_after_tasks_finish: finished_tasks,
    }
}

fn ch(c: u32) -> ChannelIndex {
    ChannelIndex(c)
}

fn cp(id: u64) -> CheckpointId {
    CheckpointId(id)
}

fn aligned(id: u64) -> CheckpointBarrier {
    CheckpointBarrier::for_config(cp(id), 0, Checkpoint, Aligned, 0)
}

fn unaligned(id: u64) -> CheckpointBarrier {
    CheckpointBarrier::for_config(cp(id), 0, Checkpoint, Unaligned, 0)
}

fn timeoutable(id: u64, created_at: u64, timeout_ms: u64) -> CheckpointBarrier {
    CheckpointBarrier::for_config(cp(id), created_at, Checkpoint, Unaligned, timeout_ms)
}

fn blocked(out: &BenchOutput, i: usize) -> Vec<u32> {
    out.lines[i].blocked.iter().map(|c| c.0).collect()
}

fn triggered(out: &BenchOutput) -> Vec<u64> {
    out.summary.triggered.iter().map(|c| c.0).collect()
}

fn aborted(out: &BenchOutput) -> Vec<(u64, AbortReason)> {
    out.summary
        .aborted
        .iter()
        .map(|a| (a.checkpoint.0, a.reason))
        .collect()
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------------
// §2.1 SingleCheckpointBarrierHandler: common bookkeeping

/// Rule (SingleCheckpointBarrierHandler#processBarrier): a barrier of an older
/// checkpoint, or of the current one once completed, is obsolete: ignored, its channel
/// not blocked.
#[test]
fn obsolete_barriers_are_ignored() {
    let out = run(Aligned, 2, "B2@0 B2@1 B1@0 B2@0 r4@0");
    assert_eq!(triggered(&out), vec![2]);
    assert_eq!(blocked(&out, 2), Vec::<u32>::new());
    assert_eq!(blocked(&out, 3), Vec::<u32>::new());
    assert!(out.lines[2].actions.is_empty() && out.lines[3].actions.is_empty());
    assert_eq!(out.lines[4].processed, vec!["r4"]);
}

/// Rule (SingleCheckpointBarrierHandler#checkNewCheckpoint): a barrier of a newer
/// checkpoint during an alignment aborts the pending one as subsumed — `Abort`, its
/// `Unblocked`s, then the new checkpoint's actions.
#[test]
fn newer_barrier_subsumes_pending_checkpoint() {
    let mut h = BarrierHandler::new(Aligned, 3, CountsAsBarrier);
    let mut out = Vec::new();
    h.process_barrier(ch(2), &aligned(1), 0, &mut out);
    h.process_barrier(ch(0), &aligned(1), 1, &mut out);
    out.clear();
    h.process_barrier(ch(1), &aligned(2), 2, &mut out);
    assert_eq!(
        out,
        vec![
            Abort {
                checkpoint: cp(1),
                reason: Subsumed
            },
            Unblocked {
                channel: ch(0),
                checkpoint: cp(1)
            },
            Unblocked {
                channel: ch(2),
                checkpoint: cp(1)
            },
            Blocked {
                channel: ch(1),
                checkpoint: cp(2)
            },
        ]
    );
    assert_eq!(h.pending_checkpoints(), vec![cp(2)]);
}

/// Rule (SingleCheckpointBarrierHandler#processCancellationBarrier): a marker acts on a
/// newer checkpoint, or on the current one once one of its barriers arrived; after a
/// marker, every barrier of that checkpoint is obsolete and never blocks.
#[test]
fn cancellation_marker_of_newer_or_started_checkpoint_aborts() {
    // c > current: aborts, the later barriers never block.
    let out = run(Aligned, 2, "X1@0 B1@1 B1@0 r3@1");
    assert_eq!(aborted(&out), vec![(1, CancellationBarrier)]);
    assert!(out.lines.iter().all(|l| l.blocked.is_empty()));
    assert!(triggered(&out).is_empty());
    // c == current, a barrier of c received: aborts and unblocks.
    let out = run(Aligned, 2, "B1@0 X1@1");
    assert_eq!(aborted(&out), vec![(1, CancellationBarrier)]);
    assert_eq!(blocked(&out, 1), Vec::<u32>::new());
}

/// Rule (SingleCheckpointBarrierHandler#processCancellationBarrier): a marker of a
/// checkpoint already completed, aborted or subsumed here is ignored.
#[test]
fn cancellation_marker_of_finished_checkpoint_is_ignored() {
    // Completed.
    let out = run(Aligned, 2, "B1@0 B1@1 X1@0");
    assert!(out.summary.aborted.is_empty());
    // Subsumed.
    let out = run(Aligned, 2, "B1@0 B2@1 X1@1");
    assert_eq!(aborted(&out), vec![(1, Subsumed)]);
    assert_eq!(blocked(&out, 2), vec![1]);
    // Aborted already, second marker of the same checkpoint.
    let out = run(Unaligned, 3, "B1@0 X1@1 X1@2");
    assert_eq!(aborted(&out), vec![(1, CancellationBarrier)]);
}

/// Rule (SingleCheckpointBarrierHandler#abortInternal): a marker of a newer checkpoint
/// drops the pending one without declining it separately (only the marker's checkpoint
/// is aborted) and unblocks every channel.
#[test]
fn marker_of_newer_checkpoint_drops_pending_one() {
    let mut h = BarrierHandler::new(Aligned, 2, CountsAsBarrier);
    let mut out = Vec::new();
    h.process_barrier(ch(0), &aligned(1), 0, &mut out);
    out.clear();
    h.process_cancellation_barrier(ch(1), cp(3), 1, &mut out);
    assert_eq!(
        out,
        vec![
            Abort {
                checkpoint: cp(3),
                reason: CancellationBarrier
            },
            Unblocked {
                channel: ch(0),
                checkpoint: cp(1)
            },
        ]
    );
    assert!(h.pending_checkpoints().is_empty());
    assert_eq!(h.latest_checkpoint_id(), Some(cp(3)));
}

/// Rule (AbstractAlignedBarrierHandlerState#barrierReceived): aligned completion is
/// `Trigger`, then `Unblocked` for each blocked channel in index order; the channel of
/// the last barrier is never reported blocked.
#[test]
fn aligned_completion_triggers_then_unblocks_in_index_order() {
    let mut h = BarrierHandler::new(Aligned, 3, CountsAsBarrier);
    let mut out = Vec::new();
    h.process_barrier(ch(2), &aligned(7), 10, &mut out);
    h.process_barrier(ch(0), &aligned(7), 11, &mut out);
    h.process_barrier(ch(1), &aligned(7), 15, &mut out);
    assert_eq!(
        out,
        vec![
            Blocked {
                channel: ch(2),
                checkpoint: cp(7)
            },
            Blocked {
                channel: ch(0),
                checkpoint: cp(7)
            },
            Trigger {
                barrier: aligned(7),
                persist: vec![],
                alignment_started_at: 10
            },
            Unblocked {
                channel: ch(0),
                checkpoint: cp(7)
            },
            Unblocked {
                channel: ch(2),
                checkpoint: cp(7)
            },
        ]
    );
    assert!(!(0..3).any(|c| h.is_blocked(ch(c))));
}

/// Rule (AbstractAlignedBarrierHandlerState, §2.2): during an alignment, records of
/// channels without the barrier are processed; records behind it wait and are
/// processed after the snapshot.
#[test]
fn aligned_records_behind_barrier_wait_for_the_snapshot() {
    let out = run(Aligned, 2, "B1@0 r1@0 r2@1 r3@0 B1@1");
    assert_eq!(out.lines[1].processed, Vec::<String>::new());
    assert_eq!(out.lines[2].processed, vec!["r2"]);
    assert_eq!(out.lines[4].processed, vec!["r1", "r3"]);
    assert_eq!(out.lines[4].triggered[0].processed_before_snapshot, 0);
    assert_eq!(out.summary.processed, vec!["r2", "r1", "r3"]);
}

// ---------------------------------------------------------------------------------
// §2.6 end of partition

/// Rule (SingleCheckpointBarrierHandler#processEndOfPartition, feature on): an end of
/// partition counts as that channel's barrier; a channel that delivered both counts once.
#[test]
fn end_of_partition_counts_as_barrier_once() {
    let out = run(Unaligned, 3, "B1@0 B1@1 EOP@1 r3@2 B1@2");
    assert!(out.lines[2].triggered.is_empty() && out.lines[2].aborted.is_empty());
    assert_eq!(out.lines[1].pending, vec![cp(1)]);
    assert_eq!(out.lines[2].pending, vec![cp(1)]);
    assert_eq!(out.lines[4].pending, vec![]);
    let state: Vec<_> = out.lines[0].triggered[0]
        .channel_state
        .iter()
        .map(|(c, r)| (c.0, r.clone()))
        .collect();
    assert_eq!(state, vec![(2, vec!["r3".to_string()])]);
    // The end of partition completing the alignment triggers it.
    let out = run(Aligned, 2, "B1@0 EOP@1");
    assert_eq!(out.lines[1].triggered.len(), 1);
    assert_eq!(blocked(&out, 1), Vec::<u32>::new());
}

/// Rule (SingleCheckpointBarrierHandler#processEndOfPartition, feature off): an end of
/// partition aborts the pending checkpoint (end_of_stream), even when that channel had
/// already delivered its barrier.
#[test]
fn end_of_partition_aborts_pending_without_finished_tasks() {
    let out = run_config(&config(Unaligned, 2, 0, false), "B1@0 EOP@0 B1@1");
    assert_eq!(aborted(&out), vec![(1, EndOfStream)]);
    assert_eq!(triggered(&out), vec![1]);
    let out = run_config(&config(Aligned, 3, 0, false), "B1@0 EOP@1 B1@2");
    assert_eq!(aborted(&out), vec![(1, EndOfStream)]);
    assert!(triggered(&out).is_empty());
    assert_eq!(blocked(&out, 1), Vec::<u32>::new());
    // With nothing pending, nothing to abort.
    let out = run_config(&config(Aligned, 2, 0, false), "EOP@1 B2@0");
    assert!(out.summary.aborted.is_empty());
    assert_eq!(triggered(&out), vec![2]);
}

/// Rule (SingleCheckpointBarrierHandler#processEndOfPartition, `numOpenChannels--`):
/// later checkpoints wait only for the open channels, in both settings.
#[test]
fn end_of_partition_reduces_target_for_later_checkpoints() {
    for finished_tasks in [true, false] {
        let out = run_config(&config(Aligned, 3, 0, finished_tasks), "EOP@0 EOP@2 B4@1");
        assert_eq!(triggered(&out), vec![4], "finished tasks {finished_tasks}");
        let out = run_config(
            &config(AtLeastOnce, 3, 0, finished_tasks),
            "EOP@0 B4@1 B4@2",
        );
        assert_eq!(triggered(&out), vec![4], "finished tasks {finished_tasks}");
    }
}

// ---------------------------------------------------------------------------------
// §2.4 unaligned

/// Rule (AlternatingWaitingForFirstBarrierUnaligned#barrierReceived): an unaligned
/// checkpoint triggers on the first barrier with every other open channel persisting:
/// `Trigger { persist }` (including the triggering channel), then `StopPersisting` for
/// it; no channel is ever blocked.
#[test]
fn unaligned_triggers_on_first_barrier() {
    let mut h = BarrierHandler::new(Unaligned, 3, CountsAsBarrier);
    let mut out = Vec::new();
    h.process_end_of_partition(ch(0), 0, &mut out);
    h.process_barrier(ch(2), &unaligned(1), 5, &mut out);
    assert_eq!(
        out,
        vec![
            Trigger {
                barrier: unaligned(1),
                persist: vec![ch(1), ch(2)],
                alignment_started_at: 5
            },
            StopPersisting {
                channel: ch(2),
                checkpoint: cp(1)
            },
        ]
    );
    assert!(h.is_persisting(ch(1)) && !h.is_persisting(ch(2)) && !h.is_blocked(ch(2)));
    out.clear();
    h.process_barrier(ch(1), &unaligned(1), 6, &mut out);
    assert_eq!(
        out,
        vec![StopPersisting {
            channel: ch(1),
            checkpoint: cp(1)
        }]
    );
    assert!(h.pending_checkpoints().is_empty());
}

/// Rule (AlternatingCollectingBarriersUnaligned, §2.4): channel state is what arrives on
/// a channel after the snapshot and before its barrier; records after the barrier are
/// not; the records are still processed.
#[test]
fn unaligned_channel_state_is_in_flight_records() {
    let out = run(Unaligned, 2, "r0@1 B1@0 r2@0 r3@1 r4@1 B1@1 r6@1");
    let state = &out.lines[1].triggered[0].channel_state;
    assert_eq!(
        state.get(&ch(1)),
        Some(&vec!["r3".to_string(), "r4".to_string()])
    );
    assert_eq!(state.len(), 1);
    assert_eq!(out.summary.processed, vec!["r0", "r2", "r3", "r4", "r6"]);
}

/// Rule (§2.4 + bench model): records queued on a channel when the unaligned snapshot is
/// taken are channel state, and are processed after the snapshot.
#[test]
fn unaligned_channel_state_includes_records_queued_at_the_snapshot() {
    // The savepoint blocks channel 0; checkpoint 2 subsumes it on channel 1 while r1 and
    // B2@0 are queued on channel 0.
    let out = run(Unaligned, 2, "S1@0 r1@0 B2@0 B2@1");
    let line = &out.lines[3];
    assert_eq!(
        line.aborted,
        vec![bench::AbortedCheckpoint {
            checkpoint: cp(1),
            reason: Subsumed
        }]
    );
    assert_eq!(line.processed, vec!["r1"]);
    let t = &line.triggered[0];
    assert!(t.unaligned);
    assert_eq!(t.processed_before_snapshot, 0);
    assert_eq!(t.channel_state.get(&ch(0)), Some(&vec!["r1".to_string()]));
    assert_eq!(line.handled, vec![3, 1, 2]);
    assert!(line.pending.is_empty());
}

/// Rule (§2.4 `checkpointStarted` persists the queued buffers at once): a queued record is
/// channel state of the snapshot even when a marker handled before it aborts the
/// checkpoint.
#[test]
fn unaligned_queued_records_are_persisted_at_the_snapshot() {
    let out = run(Unaligned, 3, "S1@0 S1@1 X3@1 r3@0 B2@2");
    let line = &out.lines[4];
    assert_eq!(line.handled, vec![4, 2, 3]);
    assert_eq!(
        line.aborted,
        vec![
            bench::AbortedCheckpoint {
                checkpoint: cp(1),
                reason: Subsumed
            },
            bench::AbortedCheckpoint {
                checkpoint: cp(3),
                reason: CancellationBarrier
            },
        ]
    );
    assert_eq!(line.triggered[0].checkpoint, cp(2));
    assert_eq!(
        line.triggered[0].channel_state.get(&ch(0)),
        Some(&vec!["r3".to_string()])
    );
    assert!(line.persisting.is_empty());
}

/// Rule (AlternatingCollectingBarriersUnaligned#barrierReceived): while collecting
/// unaligned, a barrier of the current checkpoint counts whatever its alignment; an
/// aligned one blocks its channel until all barriers arrived.
#[test]
fn collecting_unaligned_counts_barriers_of_any_alignment() {
    let mut h = BarrierHandler::new(Unaligned, 3, CountsAsBarrier);
    let mut out = Vec::new();
    h.process_barrier(ch(0), &timeoutable(1, 0, 10), 0, &mut out);
    h.fire_timer(11, &mut out);
    out.clear();
    h.process_barrier(ch(1), &timeoutable(1, 0, 10), 12, &mut out);
    assert_eq!(
        out,
        vec![
            StopPersisting {
                channel: ch(1),
                checkpoint: cp(1)
            },
            Blocked {
                channel: ch(1),
                checkpoint: cp(1)
            },
        ]
    );
    out.clear();
    h.process_barrier(ch(2), &unaligned(1), 13, &mut out);
    assert_eq!(
        out,
        vec![
            StopPersisting {
                channel: ch(2),
                checkpoint: cp(1)
            },
            Unblocked {
                channel: ch(0),
                checkpoint: cp(1)
            },
            Unblocked {
                channel: ch(1),
                checkpoint: cp(1)
            },
        ]
    );
}

// ---------------------------------------------------------------------------------
// §2.5 aligned checkpoint timeout

/// Rule (CheckpointOptions.forConfig / isTimeoutable).
#[test]
fn barrier_options_for_config() {
    let b = |snapshot, mode, t| CheckpointBarrier::for_config(cp(1), 0, snapshot, mode, t);
    assert_eq!(
        b(Checkpoint, AtLeastOnce, 5).alignment,
        Alignment::AtLeastOnce
    );
    assert_eq!(
        (
            b(Savepoint, Unaligned, 5).alignment,
            b(Savepoint, Unaligned, 5).aligned_timeout_ms
        ),
        (Alignment::Aligned, None)
    );
    assert_eq!(
        (
            b(Checkpoint, Aligned, 5).alignment,
            b(Checkpoint, Aligned, 5).aligned_timeout_ms
        ),
        (Alignment::Aligned, None)
    );
    assert_eq!(b(Checkpoint, Unaligned, 0).alignment, Alignment::Unaligned);
    assert_eq!(
        (
            b(Checkpoint, Unaligned, 5).alignment,
            b(Checkpoint, Unaligned, 5).aligned_timeout_ms
        ),
        (Alignment::Aligned, Some(5))
    );
    assert!(b(Checkpoint, Unaligned, 5).is_timeoutable());
    assert!(
        !b(Savepoint, Unaligned, 5).is_timeoutable()
            && !b(Checkpoint, Unaligned, 0).is_timeoutable()
    );
    let u = b(Checkpoint, Unaligned, 5).to_unaligned();
    assert_eq!(
        (u.alignment, u.aligned_timeout_ms, u.id, u.created_at),
        (Alignment::Unaligned, None, cp(1), 0)
    );
}

/// Rule (AlternatingCollectingBarriers#alignedCheckpointTimeout): the timer, due at
/// created_at + T + 1, takes the snapshot unaligned, persisting the channels whose
/// barrier has not arrived; blocked channels stay blocked until every barrier arrived.
#[test]
fn timer_switches_to_unaligned_and_keeps_blocked_channels_blocked() {
    let mut h = BarrierHandler::new(Unaligned, 3, CountsAsBarrier);
    let mut out = Vec::new();
    h.process_barrier(ch(1), &timeoutable(4, 100, 50), 120, &mut out);
    assert_eq!(h.next_timer_at(), Some(151));
    out.clear();
    h.fire_timer(151, &mut out);
    assert_eq!(
        out,
        vec![Trigger {
            barrier: timeoutable(4, 100, 50).to_unaligned(),
            persist: vec![ch(0), ch(2)],
            alignment_started_at: 120
        }]
    );
    assert!(h.is_blocked(ch(1)) && h.is_unaligned());
    out.clear();
    h.process_barrier(ch(0), &timeoutable(4, 100, 50), 160, &mut out);
    assert!(h.is_blocked(ch(1)) && h.is_blocked(ch(0)));
    out.clear();
    h.process_end_of_partition(ch(2), 170, &mut out);
    assert_eq!(
        out,
        vec![
            StopPersisting {
                channel: ch(2),
                checkpoint: cp(4)
            },
            Unblocked {
                channel: ch(0),
                checkpoint: cp(4)
            },
            Unblocked {
                channel: ch(1),
                checkpoint: cp(4)
            },
        ]
    );
    assert_eq!(h.next_timer_at(), None);
}

/// Rule (ControllerImpl#isTimedOut, AbstractAlternatingAlignedBarrierHandlerState):
/// strict check `T < now - created_at` on each aligned barrier: handled at
/// created_at + T it stays aligned, one millisecond later it switches at once.
#[test]
fn strict_timeout_check_on_barrier() {
    let cfg = config(Unaligned, 2, 10, true);
    let out = run_config(&cfg, "B1@0^0:10");
    assert!(out.lines[0].triggered.is_empty());
    assert_eq!(blocked(&out, 0), vec![0]);
    let out = run_config(&cfg, "B1@0^0:11");
    assert!(out.lines[0].triggered[0].unaligned);
    assert_eq!(blocked(&out, 0), vec![0]);
    let out = run_config(&cfg, "B1@0^5:16");
    assert!(out.lines[0].triggered[0].unaligned);
}

/// Rule (AbstractAlternatingAlignedBarrierHandlerState#barrierReceived): "all barriers
/// received" is checked before the timeout: a late barrier that completes the
/// alignment triggers an aligned checkpoint.
#[test]
fn completing_barrier_triggers_aligned_even_when_late() {
    let out = run_config(&config(Unaligned, 1, 10, true), "B1@0^0:500");
    assert!(!out.lines[0].triggered[0].unaligned);
    let mut h = BarrierHandler::new(Unaligned, 2, CountsAsBarrier);
    let mut out = Vec::new();
    h.process_barrier(ch(0), &timeoutable(1, 0, 10), 0, &mut out);
    h.process_barrier(ch(1), &timeoutable(1, 0, 10), 50, &mut out);
    assert!(
        matches!(&out[1], Trigger { barrier, .. } if barrier.alignment == Alignment::Aligned),
        "{out:?}"
    );
}

/// Rule (CheckpointOptions.forConfig, §2.4): savepoint barriers are aligned and never
/// time out, even in unaligned mode with a timeout.
#[test]
fn savepoints_are_aligned_and_never_time_out() {
    let out = run_config(
        &config(Unaligned, 2, 10, true),
        "S1@0 tick:1000 S1@1^0:2000",
    );
    assert_eq!(blocked(&out, 1), vec![0]);
    assert_eq!(out.lines[1].timer_fired_at, None);
    assert!(!out.lines[2].triggered[0].unaligned);
    let out = run(Unaligned, 2, "S1@0 r1@0 S1@1");
    assert!(!out.lines[2].triggered[0].unaligned);
    assert_eq!(out.lines[2].processed, vec!["r1"]);
}

/// Rule (AbstractAlternatingAlignedBarrierHandlerState, testSwitchToUnalignedByUpstream):
/// an unaligned barrier arriving during the aligned phase switches to unaligned at once;
/// the records it overtook on its channel count.
#[test]
fn unaligned_barrier_in_aligned_phase_switches() {
    let mut h = BarrierHandler::new(Unaligned, 3, CountsAsBarrier);
    let mut out = Vec::new();
    h.process_barrier(ch(0), &timeoutable(1, 0, 1000), 0, &mut out);
    out.clear();
    h.process_barrier(ch(2), &unaligned(1), 1, &mut out);
    assert_eq!(
        out,
        vec![
            Trigger {
                barrier: unaligned(1),
                persist: vec![ch(1), ch(2)],
                alignment_started_at: 0
            },
            StopPersisting {
                channel: ch(2),
                checkpoint: cp(1)
            },
        ]
    );
    assert!(h.is_blocked(ch(0)) && h.is_persisting(ch(1)));
}

/// Rule (AlternatingCheckpointsTest#testAlignedAfterTimedOut, §2.5): the decision is per
/// checkpoint: the next one starts aligned again.
#[test]
fn next_checkpoint_starts_aligned_after_timeout() {
    let out = run_config(
        &config(Unaligned, 2, 10, true),
        "B1@0 tick:11 B1@1 B2@0^20:20 r1@0 B2@1:21",
    );
    assert!(out.lines[1].triggered[0].unaligned);
    assert_eq!(blocked(&out, 3), vec![0]);
    assert!(!out.lines[5].triggered[0].unaligned);
}

/// Rule (SingleCheckpointBarrierHandler#resetAlignmentTimer): the timer is cancelled on
/// completion and on abort.
#[test]
fn timer_cancelled_on_completion_and_abort() {
    let mut h = BarrierHandler::new(Unaligned, 2, CountsAsBarrier);
    let mut out = Vec::new();
    h.process_barrier(ch(0), &timeoutable(1, 0, 10), 0, &mut out);
    assert_eq!(h.next_timer_at(), Some(11));
    h.process_cancellation_barrier(ch(1), cp(1), 1, &mut out);
    assert_eq!(h.next_timer_at(), None);
    h.process_barrier(ch(0), &timeoutable(2, 5, 10), 5, &mut out);
    assert_eq!(h.next_timer_at(), Some(16));
    h.process_barrier(ch(1), &timeoutable(2, 5, 10), 6, &mut out);
    assert_eq!(h.next_timer_at(), None);
    // Aligned mode never registers one.
    let mut h = BarrierHandler::new(Aligned, 2, CountsAsBarrier);
    h.process_barrier(ch(0), &timeoutable(1, 0, 10), 0, &mut out);
    assert_eq!(h.next_timer_at(), None);
}

// ---------------------------------------------------------------------------------
// §2.3 CheckpointBarrierTracker

/// Rule (CheckpointBarrierTracker): never blocks; records behind a barrier are
/// processed at once.
#[test]
fn tracker_never_blocks() {
    let out = run(AtLeastOnce, 2, "B1@0 r1@0 r2@1 B1@1 r4@0");
    assert!(out.lines.iter().all(|l| l.blocked.is_empty()));
    assert_eq!(out.lines[1].processed, vec!["r1"]);
    assert_eq!(triggered(&out), vec![1]);
    assert!(out
        .lines
        .iter()
        .flat_map(|l| &l.actions)
        .all(|a| matches!(a, Trigger { .. })));
}

/// Rule (CheckpointBarrierTracker#MAX_CHECKPOINTS_TO_TRACK): at most 50 pending
/// checkpoints; the oldest is evicted and can no longer complete.
#[test]
fn tracker_tracks_at_most_fifty() {
    let mut tokens: Vec<String> = (1..=51).map(|id| format!("B{id}@0")).collect();
    tokens.push("B1@1".into());
    tokens.push("B2@1".into());
    let out = run(AtLeastOnce, 2, &tokens.join(" "));
    assert_eq!(out.lines[50].pending.len(), 50);
    assert_eq!(out.lines[50].pending.first(), Some(&cp(2)));
    assert!(out.lines[51].triggered.is_empty());
    assert_eq!(triggered(&out), vec![2]);
    assert_eq!(out.lines[52].pending.first(), Some(&cp(3)));
}

/// Rule (CheckpointBarrierTracker#processBarrier): completing a checkpoint drops every
/// older pending one silently (no abort).
#[test]
fn tracker_completes_older_silently() {
    let out = run(AtLeastOnce, 2, "B1@0 B2@0 B2@1");
    assert_eq!(triggered(&out), vec![2]);
    assert!(out.summary.aborted.is_empty());
    assert!(out.lines[2].pending.is_empty());
}

/// Rule (CheckpointBarrierTracker#processBarrier): a newer checkpoint's barrier does not
/// cancel an older pending one.
#[test]
fn tracker_newer_barrier_does_not_cancel_older() {
    let out = run(AtLeastOnce, 2, "B1@0 B2@0 B1@1");
    assert_eq!(triggered(&out), vec![1]);
    assert_eq!(out.lines[2].pending, vec![cp(2)]);
    assert!(out.summary.aborted.is_empty());
}

/// Rule (CheckpointBarrierTracker#processBarrier fast path): with one open channel a new
/// checkpoint triggers at once, without an entry.
#[test]
fn tracker_single_channel_fast_path() {
    let out = run(AtLeastOnce, 1, "B1@0");
    assert_eq!(triggered(&out), vec![1]);
    assert!(out.lines[0].pending.is_empty());
    let out = run(AtLeastOnce, 2, "EOP@1 B1@0 X2@0");
    assert_eq!(triggered(&out), vec![1]);
    assert_eq!(aborted(&out), vec![(2, CancellationBarrier)]);
}

/// Rule (CheckpointBarrierTracker#processCancellationBarrier): a marker aborts its
/// checkpoint and every older pending one, each once; a marker of a new checkpoint
/// leaves an aborted entry that counts the remaining markers.
#[test]
fn tracker_cancellation_rules() {
    let out = run(AtLeastOnce, 2, "B1@0 B2@0 X2@1");
    assert_eq!(
        aborted(&out),
        vec![(1, CancellationBarrier), (2, CancellationBarrier)]
    );
    assert!(out.lines[2].pending.is_empty());
    let out = run(AtLeastOnce, 3, "X5@0 X5@1 B5@2 B6@0");
    assert_eq!(aborted(&out), vec![(5, CancellationBarrier)]);
    assert_eq!(out.lines[1].pending, vec![cp(5)]);
    assert!(out.lines[2].pending.is_empty() && triggered(&out).is_empty());
    // A trailing marker of a dropped checkpoint is ignored.
    let out = run(AtLeastOnce, 2, "B1@0 B1@1 X1@0");
    assert!(out.summary.aborted.is_empty());
}

/// Rule (CheckpointBarrierTracker#processEndOfPartition, feature off): aborts every
/// pending checkpoint (end_of_stream).
#[test]
fn tracker_end_of_partition_without_finished_tasks_aborts_all() {
    let out = run_config(&config(AtLeastOnce, 3, 0, false), "B1@0 B2@0 X3@0 EOP@2");
    assert_eq!(
        aborted(&out),
        vec![
            (1, CancellationBarrier),
            (2, CancellationBarrier),
            (3, CancellationBarrier)
        ]
    );
    let out = run_config(&config(AtLeastOnce, 3, 0, false), "B1@0 B2@0 EOP@2");
    assert_eq!(aborted(&out), vec![(1, EndOfStream), (2, EndOfStream)]);
    assert!(out.lines[2].pending.is_empty());
}

/// Rule (CheckpointBarrierTracker#checkAlignmentOnEndOfPartitionIfEnabled): the end of
/// partition counts as a barrier in every pending entry from newest to oldest until one
/// completes.
#[test]
fn tracker_end_of_partition_completes_newest_possible() {
    let out = run(AtLeastOnce, 3, "B1@0 B1@1 B2@0 B2@1 B3@0 EOP@2");
    assert_eq!(triggered(&out), vec![2]);
    assert_eq!(out.lines[5].pending, vec![cp(3)]);
    let out = run(AtLeastOnce, 3, "B1@0 B1@1 B2@0 B2@1 B3@0 EOP@2 B3@1");
    assert_eq!(triggered(&out), vec![2, 3]);
}

// ---------------------------------------------------------------------------------
// the bench model (§9)

/// Bench model (§9.2): elements on blocked channels wait and are handled when released,
/// in global arrival order, skipping channels still blocked.
#[test]
fn bench_releases_in_arrival_order_skipping_blocked_channels() {
    let out = run(Aligned, 3, "B1@0 r1@0 B2@0 r3@0 B1@1 r5@1 B1@2");
    assert_eq!(out.lines[5].waiting, vec![1, 2, 3, 5]);
    let line = &out.lines[6];
    assert_eq!(line.triggered[0].checkpoint, cp(1));
    assert_eq!(line.handled, vec![6, 1, 2, 5]);
    assert_eq!(line.processed, vec!["r1", "r5"]);
    assert_eq!(line.blocked, vec![ch(0)]);
    assert_eq!(line.waiting, vec![3]);
    assert_eq!(line.pending, vec![cp(2)]);
}

/// Bench model: a timer due at or before an element's arrival fires first; its effects
/// are on that element's line.
#[test]
fn bench_fires_due_timers_before_the_element() {
    let out = run_config(&config(Unaligned, 2, 10, true), "B1@0 r1@1:11");
    let line = &out.lines[1];
    assert_eq!(line.timer_fired_at, Some(11));
    assert!(line.triggered[0].unaligned);
    assert_eq!(line.triggered[0].processed_before_snapshot, 0);
    assert_eq!(
        line.triggered[0].channel_state.get(&ch(1)),
        Some(&vec!["r1".to_string()])
    );
}

/// Bench model: default times are token positions (or the previous token's time if
/// later); `:T` sets it; going backwards is an error naming the token.
#[test]
fn bench_times() {
    let a = bench::parse_arrivals("r0@0 r1@0:10 r2@0 r3@0 tick:12 r5@0 r6@0:6")
        .unwrap_err()
        .to_string();
    assert!(a.contains("\"r6@0:6\""), "{a}");
    let a = bench::parse_arrivals("r0@0 r1@0:10 r2@0 tick:12 r5@0 EOP@0:20").unwrap();
    assert_eq!(
        a.iter().map(|x| x.at_ms).collect::<Vec<_>>(),
        vec![0, 10, 10, 12, 12, 20]
    );
    assert_eq!(a[3].kind, ArrivalKind::Tick);
}

// ---------------------------------------------------------------------------------
// the command line

/// `lab barriers` output: one JSON line per token with the contract's fields in order,
/// then the summary.
#[test]
fn cli_output_lines() {
    let lines = bench::run_cli(&args(&[
        "--mode",
        "unaligned",
        "--channels",
        "2",
        "r0@0 B1@0 r2@1 B1@1",
    ]))
    .unwrap();
    assert_eq!(lines.len(), 5);
    assert_eq!(
        lines[0],
        r#"{"i":0,"token":"r0@0","processed":["r0"],"blocked":[],"triggered":[],"aborted":[]}"#
    );
    assert_eq!(
        lines[1],
        r#"{"i":1,"token":"B1@0","processed":[],"blocked":[],"triggered":[{"checkpoint":1,"unaligned":true,"processed_before_snapshot":0,"channel_state":{"1":["r2"]}}],"aborted":[]}"#
    );
    assert_eq!(
        lines[4],
        r#"{"summary":true,"triggered":[1],"aborted":[],"processed":["r0","r2"]}"#
    );
    let lines = bench::run_cli(&args(&[
        "--channels=2",
        "--no-finished-tasks",
        "--mode=aligned",
        "B1@0 B2@1 EOP@0",
    ]))
    .unwrap();
    assert_eq!(
        lines[1],
        r#"{"i":1,"token":"B2@1","processed":[],"blocked":[1],"triggered":[],"aborted":[{"checkpoint":1,"reason":"subsumed"}]}"#
    );
    assert!(
        lines[2].contains(r#""aborted":[{"checkpoint":2,"reason":"end_of_stream"}]"#),
        "{}",
        lines[2]
    );
}

/// `lab barriers` errors name the token or flag.
#[test]
fn cli_errors_name_the_problem() {
    let err = |list: &[&str]| bench::run_cli(&args(list)).unwrap_err().to_string();
    let e = err(&["--mode", "aligned", "--channels", "2", "r1@0 q7@1"]);
    assert!(e.contains("\"q7@1\""), "{e}");
    let e = err(&["--mode", "aligned", "--channels", "2", "r1@0 B1@2"]);
    assert!(e.contains("\"B1@2\"") && e.contains("out of range"), "{e}");
    let e = err(&[
        "--mode",
        "aligned",
        "--channels",
        "2",
        "--aligned-timeout",
        "10",
        "B1@0",
    ]);
    assert!(e.contains("--aligned-timeout"), "{e}");
    let e = err(&[
        "--mode",
        "at-least-once",
        "--aligned-timeout",
        "10",
        "--channels",
        "2",
        "B1@0",
    ]);
    assert!(e.contains("--aligned-timeout"), "{e}");
    let e = err(&["--mode", "aligned", "--channels", "2", "r1@0:5 r2@1:4"]);
    assert!(e.contains("\"r2@1:4\""), "{e}");
    let e = err(&["--mode", "aligned", "--channels", "0", "r1@0"]);
    assert!(e.contains("--channels"), "{e}");
    let e = err(&["--mode", "aligned", "r1@0"]);
    assert!(e.contains("--channels"), "{e}");
    let e = err(&["--channels", "1", "r1@0"]);
    assert!(e.contains("--mode"), "{e}");
    let e = err(&["--mode", "sideways", "--channels", "1", "r1@0"]);
    assert!(e.contains("sideways"), "{e}");
    let e = err(&["--mode", "aligned", "--channels", "1", "--fast", "r1@0"]);
    assert!(e.contains("--fast"), "{e}");
    let e = err(&["--mode", "aligned", "--channels", "1", "EOP@0 r1@0"]);
    assert!(e.contains("\"r1@0\""), "{e}");
    let e = err(&["--mode", "aligned", "--channels", "1"]);
    assert!(e.contains("arrivals"), "{e}");
    assert!(bench::run_cli(&args(&["--mode", "aligned", "--channels", "1", "B1@0^5"])).is_ok());
    let e = err(&["--mode", "aligned", "--channels", "1", "r1@0^5"]);
    assert!(e.contains("\"r1@0^5\""), "{e}");
    // --aligned-timeout is fine with unaligned, 0 included.
    assert!(bench::run_cli(&args(&[
        "--mode",
        "unaligned",
        "--aligned-timeout",
        "0",
        "--channels",
        "1",
        "B1@0"
    ]))
    .is_ok());
}

// ---------------------------------------------------------------------------------
// properties over random valid sequences

/// A random valid arrival sequence: per channel, records and one barrier (or
/// cancellation marker, or nothing) per checkpoint in increasing id order, maybe an end
/// of partition; channels interleaved at random, times increasing, ticks sprinkled in.
struct Generated {
    channels: u32,
    text: String,
}

fn generate(rng: &mut ChaCha8Rng, allow_savepoints: bool) -> Generated {
    let channels = rng.random_range(1..=4u32);
    let mut ids = Vec::new();
    let mut id = rng.random_range(0..3u64);
    for _ in 0..rng.random_range(0..=6) {
        id += rng.random_range(1..=2);
        ids.push((id, allow_savepoints && rng.random_bool(0.15)));
    }
    enum Item {
        Record,
        Barrier(u64, bool),
        Cancel(u64),
        End,
    }
    let mut streams: Vec<Vec<Item>> = Vec::new();
    for _ in 0..channels {
        let mut s = Vec::new();
        for &(id, is_savepoint) in &ids {
            for _ in 0..rng.random_range(0..3) {
                s.push(Item::Record);
            }
            let roll: f64 = rng.random();
            if roll < 0.8 {
                s.push(Item::Barrier(id, is_savepoint));
            } else if roll < 0.9 {
                s.push(Item::Cancel(id));
            }
        }
        for _ in 0..rng.random_range(0..3) {
            s.push(Item::Record);
        }
        if rng.random_bool(0.3) {
            s.push(Item::End);
        }
        s.reverse();
        streams.push(s);
    }
    // Interleave; choose each checkpoint's creation time at its first barrier.
    let mut created: BTreeMap<u64, u64> = BTreeMap::new();
    let mut tokens = Vec::new();
    let mut now = 0u64;
    let mut record = 0;
    loop {
        let open: Vec<usize> = (0..streams.len())
            .filter(|&c| !streams[c].is_empty())
            .collect();
        if open.is_empty() {
            break;
        }
        now += rng.random_range(0..4);
        if rng.random_bool(0.05) {
            now += rng.random_range(0..30);
            tokens.push(format!("tick:{now}"));
            continue;
        }
        let c = open[rng.random_range(0..open.len())];
        let token = match streams[c].pop().unwrap() {
            Item::Record => {
                record += 1;
                format!("r{record}@{c}:{now}")
            }
            Item::Barrier(id, is_savepoint) => {
                let at = *created
                    .entry(id)
                    .or_insert_with(|| now.saturating_sub(rng.random_range(0..6)));
                format!(
                    "{}{id}@{c}^{at}:{now}",
                    if is_savepoint { 'S' } else { 'B' }
                )
            }
            Item::Cancel(id) => format!("X{id}@{c}:{now}"),
            Item::End => format!("EOP@{c}:{now}"),
        };
        tokens.push(token);
    }
    Generated {
        channels,
        text: tokens.join(" "),
    }
}

/// Position of every processed record and every trigger in one global order.
fn global_order(out: &BenchOutput) -> (BTreeMap<String, usize>, BTreeMap<CheckpointId, usize>) {
    let mut records = BTreeMap::new();
    let mut triggers = BTreeMap::new();
    let mut seq = 0;
    for line in &out.lines {
        let mut pending_triggers = line.triggered.iter().peekable();
        for idx in 0..=line.processed.len() {
            while let Some(t) = pending_triggers.next_if(|t| t.processed_before_snapshot == idx) {
                triggers.insert(t.checkpoint, seq);
                seq += 1;
            }
            if let Some(r) = line.processed.get(idx) {
                records.insert(r.clone(), seq);
                seq += 1;
            }
        }
    }
    (records, triggers)
}

struct Token<'a> {
    name: &'a str,
    channel: Option<u32>,
    kind: char,
    id: Option<u64>,
}

fn tokens(out: &BenchOutput) -> Vec<Token<'_>> {
    out.lines
        .iter()
        .map(|l| {
            let t = l.token.as_str();
            let head = t.split([':', '^']).next().unwrap();
            let (name, channel) = match head.split_once('@') {
                Some((n, c)) => (n, Some(c.parse().unwrap())),
                None => (head, None),
            };
            let kind = if name == "EOP" {
                'E'
            } else {
                name.chars().next().unwrap()
            };
            let id = if matches!(kind, 'B' | 'S' | 'X') {
                Some(name[1..].parse().unwrap())
            } else {
                None
            };
            Token {
                name,
                channel,
                kind,
                id,
            }
        })
        .collect()
}

const SEEDS: u64 = 600;

/// Property (AbstractAlignedBarrierHandlerState): in aligned mode, for every triggered
/// checkpoint n and channel c with a barrier of n, the records of c before that barrier
/// are processed before the snapshot and none after it is; ids strictly increase.
#[test]
fn property_aligned_never_processes_a_barriered_record_before_the_snapshot() {
    // Seeds with a record behind a triggered checkpoint's barrier: the "none after
    // it" half of the property.
    let mut behind = 0;
    for seed in 0..SEEDS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let g = generate(&mut rng, true);
        let finished_tasks = rng.random_bool(0.7);
        let out = run_config(&config(Aligned, g.channels, 0, finished_tasks), &g.text);
        let ctx = format!(
            "seed {seed}: --channels {} {}\"{}\"",
            g.channels,
            if finished_tasks {
                ""
            } else {
                "--no-finished-tasks "
            },
            g.text
        );
        let (records, triggers) = global_order(&out);
        let toks = tokens(&out);
        let mut seen_behind = false;
        // A checkpoint that never completes leaves its blocked channels blocked (in
        // Flink until the coordinator cancels it): those records wait.
        let waiting = out.lines.last().map_or(0, |l| {
            l.waiting.iter().filter(|&&w| toks[w].kind == 'r').count()
        });
        assert_eq!(
            records.len() + waiting,
            toks.iter().filter(|t| t.kind == 'r').count(),
            "{ctx}: every record processed or waiting"
        );
        for (&checkpoint, &at) in &triggers {
            for c in 0..g.channels {
                let Some(barrier) = toks.iter().position(|t| {
                    t.channel == Some(c)
                        && matches!(t.kind, 'B' | 'S')
                        && t.id == Some(checkpoint.0)
                }) else {
                    continue;
                };
                for (i, t) in toks
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.channel == Some(c) && t.kind == 'r')
                {
                    let processed = records.get(t.name);
                    if i < barrier {
                        assert!(processed.is_some_and(|&p| p < at), "{ctx}: {} precedes B{checkpoint}@{c} but was not processed before the snapshot", t.name);
                    } else {
                        seen_behind = true;
                        assert!(processed.is_none_or(|&p| p > at), "{ctx}: {} follows B{checkpoint}@{c} but was processed before the snapshot", t.name);
                    }
                }
            }
        }
        assert!(
            out.summary.triggered.windows(2).all(|w| w[0] < w[1]),
            "{ctx}: triggered ids increase: {:?}",
            out.summary.triggered
        );
        assert!(
            out.lines
                .iter()
                .flat_map(|l| &l.triggered)
                .all(|t| !t.unaligned && t.channel_state.is_empty()),
            "{ctx}"
        );
        behind += u64::from(seen_behind);
    }
    assert!(
        behind >= SEEDS / 4,
        "only {behind} of {SEEDS} seeds had a record behind a triggered barrier"
    );
}

/// Property (AlternatingWaitingForFirstBarrierUnaligned): unaligned without timeout and
/// without savepoints triggers on the first barrier of every new checkpoint and never
/// blocks; channel state is exactly what arrives on each channel between the snapshot
/// and that channel's barrier, end of partition or the checkpoint's end.
#[test]
fn property_unaligned_triggers_on_first_barrier_and_never_blocks() {
    // Seeds whose snapshot persisted in-flight records: the channel-state half.
    let mut persisted = 0;
    for seed in 0..SEEDS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let g = generate(&mut rng, false);
        let finished_tasks = rng.random_bool(0.7);
        let out = run_config(&config(Unaligned, g.channels, 0, finished_tasks), &g.text);
        let ctx = format!(
            "seed {seed}: --channels {} {}\"{}\"",
            g.channels,
            if finished_tasks {
                ""
            } else {
                "--no-finished-tasks "
            },
            g.text
        );
        let toks = tokens(&out);
        let mut max_seen: Option<u64> = None;
        persisted += u64::from(
            out.lines
                .iter()
                .flat_map(|l| &l.triggered)
                .any(|t| !t.channel_state.is_empty()),
        );
        for (i, (line, t)) in out.lines.iter().zip(&toks).enumerate() {
            assert!(
                line.blocked.is_empty(),
                "{ctx}: token {i} blocked {:?}",
                line.blocked
            );
            assert_eq!(
                line.processed.len(),
                usize::from(t.kind == 'r'),
                "{ctx}: token {i} processed on arrival"
            );
            if t.kind == 'B' && t.id > max_seen {
                assert!(
                    line.triggered
                        .iter()
                        .any(|tr| Some(tr.checkpoint.0) == t.id && tr.unaligned),
                    "{ctx}: first barrier {} did not trigger",
                    t.name
                );
            }
            if matches!(t.kind, 'B' | 'X') {
                max_seen = max_seen.max(t.id);
            }
            for tr in &line.triggered {
                assert!(tr.unaligned, "{ctx}");
                let n = tr.checkpoint.0;
                // The checkpoint's end at this task: the first abort after the snapshot, or
                // its completion (tracked per channel by barrier / end of partition).
                let abort_at = out.lines[i + 1..]
                    .iter()
                    .position(|l| !l.aborted.is_empty())
                    .map(|p| p + i + 1);
                let mut expected: BTreeMap<ChannelIndex, Vec<String>> = BTreeMap::new();
                for c in (0..g.channels).filter(|&c| Some(c) != t.channel) {
                    let end = toks[i + 1..]
                        .iter()
                        .position(|x| {
                            x.channel == Some(c)
                                && (x.kind == 'E' || (x.kind == 'B' && x.id >= Some(n)))
                        })
                        .map(|p| p + i + 1);
                    let end = match (end, abort_at) {
                        (Some(a), Some(b)) => a.min(b),
                        (a, b) => a.or(b).unwrap_or(toks.len()),
                    };
                    let persisted: Vec<String> = toks[i + 1..end]
                        .iter()
                        .filter(|x| x.channel == Some(c) && x.kind == 'r')
                        .map(|x| x.name.to_string())
                        .collect();
                    if !persisted.is_empty() {
                        expected.insert(ch(c), persisted);
                    }
                }
                assert_eq!(tr.channel_state, expected, "{ctx}: channel state of {n}");
            }
        }
        assert!(
            out.summary.triggered.windows(2).all(|w| w[0] < w[1]),
            "{ctx}: triggered ids increase"
        );
    }
    assert!(
        persisted >= SEEDS / 4,
        "only {persisted} of {SEEDS} seeds persisted channel state"
    );
}

/// Property (CheckpointBarrierTracker): at-least-once never blocks and processes every
/// record on arrival.
#[test]
fn property_at_least_once_never_blocks() {
    // Seeds that processed a record while a checkpoint was pending: where an
    // aligning handler would have blocked.
    let mut while_pending = 0;
    for seed in 0..SEEDS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let g = generate(&mut rng, true);
        let finished_tasks = rng.random_bool(0.7);
        let out = run_config(&config(AtLeastOnce, g.channels, 0, finished_tasks), &g.text);
        let ctx = format!("seed {seed}: --channels {} \"{}\"", g.channels, g.text);
        while_pending += u64::from(
            out.lines
                .iter()
                .zip(tokens(&out))
                .any(|(l, t)| t.kind == 'r' && !l.pending.is_empty()),
        );
        for (line, t) in out.lines.iter().zip(tokens(&out)) {
            assert!(
                line.blocked.is_empty() && line.waiting.is_empty(),
                "{ctx}: token {}",
                line.i
            );
            assert_eq!(
                line.processed.len(),
                usize::from(t.kind == 'r'),
                "{ctx}: token {}",
                line.i
            );
            assert!(line.pending.len() <= 50, "{ctx}");
        }
    }
    assert!(
        while_pending >= SEEDS / 4,
        "only {while_pending} of {SEEDS} seeds processed a record during a checkpoint"
    );
}

/// Property (SingleCheckpointBarrierHandler): with an aligned timeout and savepoints,
/// triggered ids strictly increase, every record is processed once, nothing stays
/// blocked once every channel ended, and channel state only holds records that preceded
/// their channel's barrier.
#[test]
fn property_alternating_triggers_increase() {
    // Seeds where every channel ended, and seeds whose timeout switched a checkpoint
    // to unaligned (channel state persisted): each half of the property reached.
    let (mut ended, mut switched) = (0, 0);
    for seed in 0..SEEDS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let g = generate(&mut rng, true);
        let timeout = rng.random_range(1..20);
        let finished_tasks = rng.random_bool(0.7);
        let out = run_config(
            &config(Unaligned, g.channels, timeout, finished_tasks),
            &g.text,
        );
        let ctx = format!(
            "seed {seed}: --aligned-timeout {timeout} --channels {} \"{}\"",
            g.channels, g.text
        );
        assert!(
            out.summary.triggered.windows(2).all(|w| w[0] < w[1]),
            "{ctx}: {:?}",
            out.summary.triggered
        );
        let toks = tokens(&out);
        let records = toks.iter().filter(|t| t.kind == 'r').count();
        let waiting = out.lines.last().map_or(0, |l| {
            l.waiting.iter().filter(|&&w| toks[w].kind == 'r').count()
        });
        assert_eq!(
            out.summary.processed.len() + waiting,
            records,
            "{ctx}: every record processed or waiting"
        );
        let all_ended =
            (0..g.channels).all(|c| toks.iter().any(|t| t.kind == 'E' && t.channel == Some(c)));
        ended += u64::from(all_ended);
        switched += u64::from(
            out.lines
                .iter()
                .flat_map(|l| &l.triggered)
                .any(|t| !t.channel_state.is_empty()),
        );
        if all_ended {
            let last = out.lines.last().unwrap();
            assert!(
                last.blocked.is_empty() && last.waiting.is_empty() && last.pending.is_empty(),
                "{ctx}: all ended, yet {last:?}"
            );
        }
        for (i, line) in out.lines.iter().enumerate() {
            for tr in &line.triggered {
                for (c, persisted) in &tr.channel_state {
                    let barrier = toks.iter().position(|t| {
                        t.channel == Some(c.0)
                            && matches!(t.kind, 'B' | 'S')
                            && t.id >= Some(tr.checkpoint.0)
                    });
                    for r in persisted {
                        let at = toks.iter().position(|t| t.name == r).unwrap();
                        assert!(
                            barrier.is_none_or(|b| at < b),
                            "{ctx}: {r} persisted for {} on line {i} but follows its barrier",
                            tr.checkpoint
                        );
                    }
                }
            }
        }
    }
    assert!(
        ended >= SEEDS / 20 && switched >= SEEDS / 10,
        "of {SEEDS} seeds {ended} ended every channel, {switched} persisted channel state"
    );
}

/// Property: `run_cli` never panics, whatever it is given.
#[test]
fn property_cli_never_panics_on_garbage() {
    const PIECES: &[&str] = &[
        "r",
        "B",
        "S",
        "X",
        "EOP",
        "tick",
        "@",
        ":",
        "^",
        "0",
        "1",
        "2",
        "7",
        "99999999999999999999",
        "-",
        "q",
        " ",
        "é",
        "@@",
        "::",
    ];
    const FLAGS: &[&str] = &[
        "--mode",
        "aligned",
        "unaligned",
        "at-least-once",
        "--channels",
        "--aligned-timeout",
        "--no-finished-tasks",
        "3",
        "0",
        "--mode=aligned",
        "--channels=2",
        "x",
    ];
    // Both outcomes reached: input that runs and input that is refused.
    let (mut ran, mut refused) = (0, 0);
    for seed in 0..2000u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut list: Vec<String> = Vec::new();
        if rng.random_bool(0.8) {
            list.extend(args(&[
                "--mode",
                ["aligned", "unaligned", "at-least-once"][rng.random_range(0..3)],
                "--channels",
                "3",
            ]));
        }
        for _ in 0..rng.random_range(0..3) {
            list.push(FLAGS[rng.random_range(0..FLAGS.len())].to_string());
        }
        let mut text = String::new();
        for _ in 0..rng.random_range(0..40) {
            text.push_str(PIECES[rng.random_range(0..PIECES.len())]);
        }
        list.push(text);
        // Must return, Ok or Err, without panicking; print the seed otherwise.
        let result = std::panic::catch_unwind(|| bench::run_cli(&list));
        match result {
            Ok(Ok(_)) => ran += 1,
            Ok(Err(_)) => refused += 1,
            Err(_) => panic!("seed {seed}: run_cli panicked on {list:?}"),
        }
    }
    assert!(
        ran >= 5 && refused >= 1000,
        "of 2000 seeds {ran} ran and {refused} were refused"
    );
}
