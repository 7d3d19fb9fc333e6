//! Flink's own barrier-handler tests, ported: the same arrival sequences, fed through
//! the barrier bench (remote channels: queued data and announcements) or through the
//! handler itself, asserting what Flink asserts.
//!
//! Sequences use the bench's text form: `r7@2` a record on channel 2 (named after its
//! position in Flink's sequence), `B3@1` a barrier, `S3@1` a savepoint barrier, `X3@1`
//! a cancellation marker, `EOP@1` an end of partition, `tick:T` the clock advancing,
//! `hold@0` / `poll@0` the task leaving channel 0 unread, then reading it again,
//! `[r1 r2 B1]@0` elements queuing on channel 0 so left unread (Flink's
//! `RemoteInputChannel.onBuffer` before the test polls), `A1@0` an announcement.
//! Outcomes are written as Flink's `CheckpointSequenceValidator` does: `n` for a
//! triggered checkpoint, `-n` for an aborted one, in the order they happened.

use engine::barrier::{
    AbortReason, Alignment, BarrierHandler, CheckpointBarrier, EndOfPartition, HandlerAction,
    HandlerMode, SnapshotType,
};
use engine::bench::{self, ArrivalKind, BenchConfig, BenchOutput};
use engine::ids::{ChannelIndex, CheckpointId};

use AbortReason::{CancellationBarrier, EndOfStream, Subsumed};
use EndOfPartition::CountsAsBarrier;
use HandlerMode::{Aligned, AtLeastOnce, Unaligned};

// ---------------------------------------------------------------------------------
// helpers

fn run_config(config: BenchConfig, arrivals: &str) -> BenchOutput {
    let arrivals = bench::parse_arrivals(arrivals).unwrap_or_else(|e| panic!("{e}"));
    bench::run(&config, &arrivals).unwrap_or_else(|e| panic!("{e}"))
}

fn run(mode: HandlerMode, channels: u32, arrivals: &str) -> BenchOutput {
    run_config(BenchConfig::new(mode, channels), arrivals)
}

fn run_no_finished_tasks(mode: HandlerMode, channels: u32, arrivals: &str) -> BenchOutput {
    let mut config = BenchConfig::new(mode, channels);
    config.checkpoints_after_tasks_finish = false;
    run_config(config, arrivals)
}

fn run_with_timeout(channels: u32, timeout_ms: u64, arrivals: &str) -> BenchOutput {
    let mut config = BenchConfig::new(Unaligned, channels);
    config.aligned_timeout_ms = timeout_ms;
    run_config(config, arrivals)
}

/// Triggers (`n`) and aborts (`-n`) in the order they happened.
fn outcomes(out: &BenchOutput) -> Vec<i64> {
    out.lines
        .iter()
        .flat_map(|line| &line.actions)
        .filter_map(|action| match action {
            HandlerAction::Trigger { barrier, .. } => Some(barrier.id.0 as i64),
            HandlerAction::Abort { checkpoint, .. } => Some(-(checkpoint.0 as i64)),
            _ => None,
        })
        .collect()
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

/// Blocked channels after token `i`.
fn blocked(out: &BenchOutput, i: usize) -> Vec<u32> {
    out.lines[i].blocked.iter().map(|c| c.0).collect()
}

fn pending(out: &BenchOutput, i: usize) -> Vec<u64> {
    out.lines[i].pending.iter().map(|c| c.0).collect()
}

/// The checkpoint triggered on token `i` (exactly one).
fn trigger_on(out: &BenchOutput, i: usize) -> &bench::TriggeredCheckpoint {
    assert_eq!(
        out.lines[i].triggered.len(),
        1,
        "one trigger on token {i}: {:?}",
        out.lines[i]
    );
    &out.lines[i].triggered[0]
}

/// The channel state of checkpoint `id`, as `(channel, records)`.
fn channel_state(out: &BenchOutput, id: u64) -> Vec<(u32, Vec<&str>)> {
    let trigger = out
        .lines
        .iter()
        .flat_map(|l| &l.triggered)
        .find(|t| t.checkpoint == CheckpointId(id))
        .unwrap_or_else(|| panic!("checkpoint {id} was not triggered"));
    trigger
        .channel_state
        .iter()
        .map(|(c, records)| (c.0, records.iter().map(String::as_str).collect()))
        .collect()
}

/// Flink's `pollNext` returns every element in sequence order: every record is
/// processed on its own arrival line, none waits.
fn assert_processed_in_arrival_order(out: &BenchOutput) {
    let arrived: Vec<&str> = out
        .lines
        .iter()
        .filter(|l| l.token.starts_with('r'))
        .map(|l| l.token.split('@').next().unwrap())
        .collect();
    assert_eq!(
        out.summary.processed, arrived,
        "records processed in arrival order"
    );
    for line in out.lines.iter().filter(|l| l.token.starts_with('r')) {
        assert_eq!(
            line.processed.first().map(String::as_str),
            line.token.split('@').next(),
            "line {line:?}"
        );
    }
}

fn assert_never_blocked(out: &BenchOutput) {
    for line in &out.lines {
        assert!(
            line.blocked.is_empty(),
            "token {} left channels blocked: {:?}",
            line.i,
            line.blocked
        );
    }
}

fn ch(c: u32) -> ChannelIndex {
    ChannelIndex(c)
}

fn cp(id: u64) -> CheckpointId {
    CheckpointId(id)
}

fn aligned_with_timeout(id: u64, created_at: u64, timeout_ms: u64) -> CheckpointBarrier {
    CheckpointBarrier::for_config(
        cp(id),
        created_at,
        SnapshotType::Checkpoint,
        Unaligned,
        timeout_ms,
    )
}

fn is_unaligned_trigger(action: &HandlerAction) -> bool {
    matches!(action, HandlerAction::Trigger { barrier, .. } if barrier.alignment == Alignment::Unaligned)
}

// ---------------------------------------------------------------------------------
// AlignedCheckpointsTest

/// Mirrors Flink's AlignedCheckpointsTest#testSingleChannelNoBarriers: records and the
/// end of partition pass in order; nothing is triggered.
#[test]
fn aligned_single_channel_no_barriers() {
    let out = run(Aligned, 1, "r0@0 r1@0 r2@0 EOP@0");
    assert_processed_in_arrival_order(&out);
    assert!(triggered(&out).is_empty());
    assert_never_blocked(&out);
}

/// Mirrors Flink's AlignedCheckpointsTest#testMultiChannelNoBarriers.
#[test]
fn aligned_multi_channel_no_barriers() {
    let out = run(
        Aligned,
        4,
        "r0@2 r1@2 r2@0 r3@1 r4@0 EOP@0 r6@3 r7@1 EOP@3 r9@1 EOP@1 r11@2 EOP@2",
    );
    assert_processed_in_arrival_order(&out);
    assert!(triggered(&out).is_empty());
    assert_never_blocked(&out);
    assert_eq!(out.lines[12].blocked, vec![]);
}

/// Mirrors Flink's AlignedCheckpointsTest#testSingleChannelWithBarriers: with one
/// channel every barrier triggers at once (alignment time 0), in order.
#[test]
fn aligned_single_channel_with_barriers() {
    let out = run(
        Aligned,
        1,
        "r0@0 r1@0 r2@0 B1@0 r4@0 r5@0 r6@0 r7@0 B2@0 B3@0 r10@0 r11@0 B4@0 B5@0 B6@0 r15@0 EOP@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, 2, 3, 4, 5, 6]);
    assert_never_blocked(&out);
    for i in [3, 8, 9, 12, 13, 14] {
        assert!(!trigger_on(&out, i).unaligned);
    }
}

/// Mirrors Flink's AlignedCheckpointsTest#testMultiChannelWithBarriers: each
/// checkpoint triggers on its last barrier; channels that delivered the barrier are
/// blocked until then.
#[test]
fn aligned_multi_channel_with_barriers() {
    let out = run(
        Aligned,
        3,
        "r0@0 r1@2 r2@0 B1@1 B1@2 r5@0 B1@0 \
         r7@0 r8@0 r9@1 r10@1 r11@2 B2@0 B2@1 B2@2 \
         r15@2 r16@2 B3@2 r18@0 r19@0 B3@0 B3@1 \
         B4@1 B4@2 B4@0 \
         r25@0 EOP@0 EOP@1 EOP@2",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, 2, 3, 4]);
    assert_eq!(blocked(&out, 3), vec![1]);
    assert_eq!(blocked(&out, 4), vec![1, 2]);
    for (i, id) in [(6, 1), (14, 2), (21, 3), (24, 4)] {
        assert_eq!(trigger_on(&out, i).checkpoint, cp(id));
        assert_eq!(blocked(&out, i), Vec::<u32>::new());
    }
}

/// Mirrors Flink's AlignedCheckpointsTest#testMultiChannelJumpingOverCheckpoint: a
/// barrier of a newer checkpoint aborts the pending one (subsumed) and starts its own
/// alignment with only its channel blocked; end of partition with checkpoints after
/// tasks finish disabled aborts the pending one.
#[test]
fn aligned_multi_channel_jumping_over_checkpoint() {
    let out = run_no_finished_tasks(
        Aligned,
        3,
        "r0@0 r1@2 r2@0 B1@1 B1@2 r5@0 B1@0 r7@1 r8@0 \
         B2@1 r10@2 B2@0 r12@2 B3@2 r14@1 r15@0 B3@0 B4@1 r18@2 r19@0 EOP@0 r21@2 EOP@2 r23@1 EOP@1",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(pending(&out, 3), vec![1]);
    assert_eq!(blocked(&out, 6), Vec::<u32>::new());
    assert_eq!(pending(&out, 9), vec![2]);
    assert_eq!(blocked(&out, 12), vec![0, 1]);
    assert_eq!(blocked(&out, 13), vec![2]);
    assert_eq!(out.lines[13].pending, vec![cp(3)]);
    assert_eq!(blocked(&out, 16), vec![0, 2]);
    assert_eq!(blocked(&out, 17), vec![1]);
    assert_eq!(out.lines[17].pending, vec![cp(4)]);
    assert_eq!(blocked(&out, 20), Vec::<u32>::new());
    assert_eq!(triggered(&out), vec![1]);
    assert_eq!(
        aborted(&out),
        vec![(2, Subsumed), (3, Subsumed), (4, EndOfStream)]
    );
}

/// Mirrors Flink's AlignedCheckpointsTest#testMissingCancellationBarriers: a
/// cancellation marker of a newer checkpoint aborts it (dropping the pending one) and
/// unblocks; trailing markers of older checkpoints are ignored.
#[test]
fn aligned_missing_cancellation_barriers() {
    let out = run(Aligned, 2, "B1@0 X3@1 X2@0 X3@0 r4@0");
    assert_processed_in_arrival_order(&out);
    assert_eq!(blocked(&out, 0), vec![0]);
    assert_eq!(blocked(&out, 4), Vec::<u32>::new());
    assert_eq!(outcomes(&out), vec![-3]);
    assert_eq!(aborted(&out), vec![(3, CancellationBarrier)]);
}

/// Mirrors Flink's AlignedCheckpointsTest#testStartAlignmentWithClosedChannels:
/// finished channels are not waited for.
#[test]
fn aligned_start_alignment_with_closed_channels() {
    let out = run(
        Aligned,
        4,
        "EOP@2 EOP@1 r2@0 r3@0 r4@3 B2@3 B2@0 B3@0 B3@3 r9@0 r10@0 r11@3 EOP@0 r13@3 B4@3 r15@3 EOP@3",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![2, 3, 4]);
    assert_eq!(trigger_on(&out, 6).checkpoint, cp(2));
    assert_eq!(trigger_on(&out, 8).checkpoint, cp(3));
    assert_eq!(trigger_on(&out, 14).checkpoint, cp(4));
    for i in [6, 8, 14] {
        assert_eq!(blocked(&out, i), Vec::<u32>::new());
    }
}

/// Mirrors Flink's AlignedCheckpointsTest#testEndOfStreamWhileCheckpoint: end of
/// partition during an alignment unblocks. With checkpoints after tasks finish (on in
/// that test) the finished channel counts as aligned, so checkpoint 2 completes.
#[test]
fn aligned_end_of_stream_while_checkpoint() {
    let out = run(
        Aligned,
        3,
        "B1@0 B1@1 B1@2 r3@0 r4@0 r5@2 B2@2 B2@0 r8@1 EOP@1 EOP@2 r11@0 EOP@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(blocked(&out, 2), Vec::<u32>::new());
    assert_eq!(blocked(&out, 8), vec![0, 2]);
    assert_eq!(blocked(&out, 9), Vec::<u32>::new());
    assert_eq!(outcomes(&out), vec![1, 2]);
}

/// Mirrors Flink's AlignedCheckpointsTest#testSingleChannelAbortCheckpoint.
#[test]
fn aligned_single_channel_abort_checkpoint() {
    let out = run(
        Aligned,
        1,
        "r0@0 B1@0 r2@0 B2@0 r4@0 X4@0 B5@0 r7@0 X6@0 r9@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, 2, -4, 5, -6]);
    assert!(aborted(&out).iter().all(|(_, r)| *r == CancellationBarrier));
    assert_never_blocked(&out);
}

/// Mirrors Flink's AlignedCheckpointsTest#testMultiChannelAbortCheckpoint: aborts on
/// the last barrier, on the first barrier, and by several markers; later barriers of
/// an aborted checkpoint never block.
#[test]
fn aligned_multi_channel_abort_checkpoint() {
    let out = run(
        Aligned,
        3,
        "r0@0 r1@2 r2@0 B1@1 B1@2 r5@0 B1@0 r7@0 r8@2 \
         B2@0 B2@2 r11@1 X2@1 \
         r13@2 r14@1 B3@1 B3@2 B3@0 \
         r18@0 r19@1 X4@1 B4@2 r22@2 B4@0 \
         r24@0 r25@1 r26@2 B5@2 B5@1 B5@0 r30@0 r31@1 \
         X6@1 X6@2 B6@0 r35@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(blocked(&out, 3), vec![1]);
    assert_eq!(blocked(&out, 4), vec![1, 2]);
    assert_eq!(blocked(&out, 6), Vec::<u32>::new());
    assert_eq!(blocked(&out, 9), vec![0]);
    assert_eq!(blocked(&out, 10), vec![0, 2]);
    assert_eq!(blocked(&out, 12), Vec::<u32>::new());
    for i in 20..=23 {
        assert_eq!(blocked(&out, i), Vec::<u32>::new(), "token {i}");
    }
    assert_eq!(blocked(&out, 34), Vec::<u32>::new());
    assert_eq!(outcomes(&out), vec![1, -2, 3, -4, 5, -6]);
    assert!(aborted(&out).iter().all(|(_, r)| *r == CancellationBarrier));
}

/// Mirrors Flink's AlignedCheckpointsTest#testAbortOnCanceledBarriers: a barrier of an
/// already cancelled checkpoint is ignored (its channel is not blocked) and does not
/// disturb the next checkpoint's alignment.
#[test]
fn aligned_abort_on_canceled_barriers() {
    let out = run(
        Aligned,
        3,
        "r0@1 B1@1 r2@2 r3@0 X1@0 r5@1 B2@1 r7@2 r8@0 B1@2 r10@0 r11@2 B2@0 B2@2 r14@0 r15@1 r16@2",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(blocked(&out, 4), Vec::<u32>::new());
    assert_eq!(blocked(&out, 9), vec![1]);
    assert_eq!(blocked(&out, 13), Vec::<u32>::new());
    assert_eq!(outcomes(&out), vec![-1, 2]);
    assert_eq!(aborted(&out), vec![(1, CancellationBarrier)]);
}

/// Mirrors Flink's AlignedCheckpointsTest#testIgnoreCancelBarrierIfCheckpointSubsumed:
/// a cancellation marker of a checkpoint already subsumed is ignored.
#[test]
fn aligned_ignore_cancel_barrier_if_checkpoint_subsumed() {
    let out = run(
        Aligned,
        3,
        "r0@2 B3@1 B3@0 r3@2 B5@2 r5@1 r6@0 X3@0 r8@0 r9@1 B5@0 B5@1 r12@0 r13@1 r14@2",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(blocked(&out, 3), vec![0, 1]);
    assert_eq!(blocked(&out, 4), vec![2]);
    assert_eq!(
        out.lines[4].aborted,
        vec![bench::AbortedCheckpoint {
            checkpoint: cp(3),
            reason: Subsumed
        }]
    );
    assert_eq!(blocked(&out, 11), Vec::<u32>::new());
    assert_eq!(outcomes(&out), vec![-3, 5]);
}

/// Mirrors Flink's AlignedCheckpointsTest#testTriggerCheckpointsWithEndOfPartition.
#[test]
fn aligned_trigger_checkpoints_with_end_of_partition() {
    let out = run(Aligned, 3, "B1@0 B1@1 EOP@2");
    assert_eq!(trigger_on(&out, 2).checkpoint, cp(1));
    assert!(aborted(&out).is_empty());
    assert_eq!(pending(&out, 2), Vec::<u64>::new());
    assert_eq!(blocked(&out, 1), vec![0, 1]);
    assert_eq!(blocked(&out, 2), Vec::<u32>::new());
}

/// Mirrors Flink's AlignedCheckpointsTest#testDeduplicateChannelsWithBothBarrierAndEndOfPartition.
/// In the bench the end of partition waits behind the barrier on blocked channel 1
/// (Flink's mock gate ignores blocking), so it is handled after the trigger.
#[test]
fn aligned_deduplicate_channels_with_both_barrier_and_end_of_partition() {
    let out = run(Aligned, 3, "B2@0 B2@1 EOP@1 B2@2");
    assert!(out.lines[..3]
        .iter()
        .all(|l| l.triggered.is_empty() && l.aborted.is_empty()));
    assert_eq!(out.lines[2].waiting, vec![2]);
    assert_eq!(trigger_on(&out, 3).checkpoint, cp(2));
    assert_eq!(out.lines[3].handled, vec![3, 2]);
    assert_eq!(pending(&out, 3), Vec::<u64>::new());
    assert_eq!(triggered(&out), vec![2]);
}

/// Mirrors Flink's AlignedCheckpointsTest#testTriggerCheckpointsAfterReceivedEndOfPartition:
/// later checkpoints wait only for the open channels.
#[test]
fn aligned_trigger_checkpoints_after_received_end_of_partition() {
    let out = run(Aligned, 3, "EOP@2 B6@0 B6@1 EOP@1 B7@0");
    assert_eq!(trigger_on(&out, 2).checkpoint, cp(6));
    assert_eq!(trigger_on(&out, 4).checkpoint, cp(7));
    assert_eq!(triggered(&out), vec![6, 7]);
    assert!(aborted(&out).is_empty());
    assert_eq!(pending(&out, 4), Vec::<u64>::new());
}

// ---------------------------------------------------------------------------------
// CheckpointBarrierTrackerTest

/// Mirrors Flink's CheckpointBarrierTrackerTest#testSingleChannelNoBarriers and
/// #testMultiChannelNoBarriers.
#[test]
fn tracker_no_barriers() {
    let out = run(AtLeastOnce, 1, "r0@0 r1@0 r2@0");
    assert_processed_in_arrival_order(&out);
    let out = run(
        AtLeastOnce,
        4,
        "r0@2 r1@2 r2@0 r3@1 r4@0 r5@3 r6@1 r7@1 r8@2",
    );
    assert_processed_in_arrival_order(&out);
    assert!(triggered(&out).is_empty());
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testSingleChannelWithBarriers.
#[test]
fn tracker_single_channel_with_barriers() {
    let out = run(
        AtLeastOnce,
        1,
        "r0@0 r1@0 r2@0 B1@0 r4@0 r5@0 r6@0 r7@0 B2@0 B3@0 r10@0 r11@0 B4@0 B5@0 B6@0 r15@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, 2, 3, 4, 5, 6]);
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testSingleChannelWithSkippedBarriers.
#[test]
fn tracker_single_channel_with_skipped_barriers() {
    let out = run(
        AtLeastOnce,
        1,
        "r0@0 B1@0 r2@0 r3@0 B3@0 r5@0 B4@0 B6@0 r8@0 B7@0 r10@0 B10@0 r12@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, 3, 4, 6, 7, 10]);
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testMultiChannelWithBarriers: never
/// blocks, every record is processed on arrival.
#[test]
fn tracker_multi_channel_with_barriers() {
    let out = run(
        AtLeastOnce,
        3,
        "r0@0 r1@2 r2@0 B1@1 B1@2 r5@2 r6@1 B1@0 r8@0 r9@0 r10@1 r11@1 r12@2 B2@0 B2@1 B2@2 \
         r16@2 r17@2 B3@2 r19@2 r20@2 B3@0 B3@1 B4@1 B4@2 B4@0 r26@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_never_blocked(&out);
    assert_eq!(outcomes(&out), vec![1, 2, 3, 4]);
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testMultiChannelSkippingCheckpoints:
/// checkpoint 3 never completes and is dropped silently when 4 completes.
#[test]
fn tracker_multi_channel_skipping_checkpoints() {
    let out = run(
        AtLeastOnce,
        3,
        "r0@0 r1@2 r2@0 B1@1 B1@2 r5@2 r6@1 B1@0 r8@0 r9@0 r10@1 r11@1 r12@2 B2@0 B2@1 B2@2 \
         r16@2 r17@2 B3@2 r19@2 r20@2 B4@0 r22@0 r23@1 r24@2 B4@1 r26@1 B4@2 r28@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, 2, 4]);
    assert!(aborted(&out).is_empty());
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testCompleteCheckpointsOnLateBarriers:
/// a newer checkpoint's barrier does not cancel older pending ones; they complete as
/// their last barriers arrive, and an incomplete one (6) is dropped silently.
#[test]
fn tracker_complete_checkpoints_on_late_barriers() {
    let out = run(
        AtLeastOnce,
        3,
        "r0@1 r1@1 r2@0 r3@2 B2@1 B2@0 B2@2 \
         r7@1 r8@0 B3@1 B3@2 \
         r11@1 r12@0 B4@2 B4@1 r15@1 r16@2 \
         B3@0 \
         r18@0 B4@0 \
         r20@1 r21@2 B5@1 r23@0 B5@0 r25@1 B5@2 \
         r27@1 B6@1 r29@0 B6@0 \
         r31@1 B7@1 r33@0 B7@2 r35@2 B8@2 r37@0 B8@1 r39@1 B9@1 \
         B7@0 r42@0 B9@2 r44@2 B10@2 \
         B8@0 r47@1 r48@2 B9@0 \
         r50@1 r51@0 r52@2 \
         B10@0 B10@1",
    );
    assert_processed_in_arrival_order(&out);
    assert_never_blocked(&out);
    assert_eq!(outcomes(&out), vec![2, 3, 4, 5, 7, 8, 9, 10]);
    // Before 3 completes, 3 and 4 are pending together.
    assert_eq!(pending(&out, 16), vec![3, 4]);
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testNextFirstCheckpointBarrierOvertakesCancellationBarrier:
/// checkpoint 2's alignment runs from its first barrier (t=1) to its last (t=3).
#[test]
fn tracker_next_first_checkpoint_barrier_overtakes_cancellation_barrier() {
    let out = run(AtLeastOnce, 2, "B1@1 B2@1 X1@0 B2@0");
    assert_eq!(outcomes(&out), vec![-1, 2]);
    let trigger = out.lines[3].actions.iter().find_map(|a| match a {
        HandlerAction::Trigger {
            alignment_started_at,
            ..
        } => Some(*alignment_started_at),
        _ => None,
    });
    assert_eq!(trigger, Some(1));
    assert_eq!(out.lines[3].at_ms - trigger.unwrap(), 2);
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testSingleChannelAbortCheckpoint.
#[test]
fn tracker_single_channel_abort_checkpoint() {
    let out = run(
        AtLeastOnce,
        1,
        "r0@0 B1@0 r2@0 B2@0 X4@0 B5@0 r6@0 X6@0 r8@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, 2, -4, 5, -6]);
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testMultiChannelAbortCheckpoint.
#[test]
fn tracker_multi_channel_abort_checkpoint() {
    let out = run(
        AtLeastOnce,
        3,
        "r0@0 r1@2 r2@0 B1@1 B1@2 r5@2 r6@1 B1@0 \
         r8@0 r9@2 B2@0 B2@2 r12@0 r13@2 X2@1 \
         r15@2 r16@1 B3@1 B3@2 B3@0 \
         r20@0 r21@1 X4@1 B4@2 r24@0 B4@0 \
         r26@0 r27@1 r28@2 B5@2 B5@1 B5@0 \
         r32@0 r33@1 X6@1 X6@2 B6@0 r37@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, -2, 3, -4, 5, -6]);
    assert!(aborted(&out).iter().all(|(_, r)| *r == CancellationBarrier));
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testInterleavedCancellationBarriers:
/// each checkpoint is aborted once.
#[test]
fn tracker_interleaved_cancellation_barriers() {
    let out = run(AtLeastOnce, 3, "B1@0 X2@0 X1@1 X2@1 X1@2 X2@2 r6@0");
    assert_eq!(outcomes(&out), vec![-1, -2]);
    assert_eq!(pending(&out, 5), Vec::<u64>::new());
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testTriggerCheckpointsWithEndOfPartition:
/// the end of partition completes the newest checkpoint it can (4); older ones are
/// dropped, the newer one (5) stays pending.
#[test]
fn tracker_trigger_checkpoints_with_end_of_partition() {
    let out = run(AtLeastOnce, 3, "B1@0 B2@0 B2@1 B3@0 B4@0 B4@1 B5@1 EOP@2");
    assert_eq!(outcomes(&out), vec![4]);
    assert_eq!(pending(&out, 7), vec![5]);
    assert_eq!(out.lines[7].triggered[0].checkpoint, cp(4));
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testDeduplicateChannelsWithBothBarrierAndEndOfPartition.
#[test]
fn tracker_deduplicate_channels_with_both_barrier_and_end_of_partition() {
    let out = run(AtLeastOnce, 3, "B2@0 B2@1 EOP@1 B2@2");
    assert!(out.lines[..3]
        .iter()
        .all(|l| l.triggered.is_empty() && l.aborted.is_empty()));
    assert_eq!(trigger_on(&out, 3).checkpoint, cp(2));
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testTriggerCheckpointsAfterReceivedEndOfPartition.
#[test]
fn tracker_trigger_checkpoints_after_received_end_of_partition() {
    let out = run(AtLeastOnce, 3, "EOP@2 B5@0 B6@0 B6@1 EOP@1 B7@0");
    assert_eq!(outcomes(&out), vec![6, 7]);
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testNoFastPathWithChannelFinishedDuringCheckpoints:
/// the last barrier finishes the pending checkpoint rather than starting a new one.
#[test]
fn tracker_no_fast_path_with_channel_finished_during_checkpoints() {
    let out = run(AtLeastOnce, 2, "B1@0 EOP@0 B1@1");
    assert_eq!(outcomes(&out), vec![1]);
    assert_eq!(pending(&out, 2), Vec::<u64>::new());
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testCompleteAndRemoveAbortedCheckpointWithEndOfPartition.
#[test]
fn tracker_complete_and_remove_aborted_checkpoint_with_end_of_partition() {
    let out = run(AtLeastOnce, 3, "X4@0 B4@1 B5@1 EOP@2");
    assert_eq!(outcomes(&out), vec![-4]);
    assert_eq!(pending(&out, 3), vec![5]);
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testAbortCheckpointsAfterEndOfPartitionReceived.
#[test]
fn tracker_abort_checkpoints_after_end_of_partition_received() {
    let out = run(AtLeastOnce, 3, "EOP@2 B5@0 B6@0 X6@1 EOP@1 X7@0");
    assert_eq!(outcomes(&out), vec![-5, -6, -7]);
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testNoFastPathWithChannelFinishedDuringCheckpointsCancel.
#[test]
fn tracker_no_fast_path_with_channel_finished_during_checkpoints_cancel() {
    let out = run(AtLeastOnce, 2, "B1@0^0 EOP@0 X1@1");
    assert_eq!(outcomes(&out), vec![-1]);
    assert_eq!(pending(&out, 2), Vec::<u64>::new());
}

/// Mirrors Flink's CheckpointBarrierTrackerTest#testTwoLastBarriersOneByOne: 1 and 2
/// complete one after the other; 2's alignment lasts from t=1 to t=3.
#[test]
fn tracker_two_last_barriers_one_by_one() {
    let out = run(AtLeastOnce, 2, "B1@1 B2@1 B1@0 B2@0");
    assert_eq!(outcomes(&out), vec![1, 2]);
    assert!(matches!(
        out.lines[3].actions[..],
        [HandlerAction::Trigger {
            alignment_started_at: 1,
            ..
        }]
    ));
}

// ---------------------------------------------------------------------------------
// UnalignedCheckpointsTest

/// Mirrors Flink's UnalignedCheckpointsTest#testMultiChannelNoBarriers.
#[test]
fn unaligned_multi_channel_no_barriers() {
    let out = run(
        Unaligned,
        4,
        "r0@2 r1@2 r2@0 r3@1 r4@0 EOP@0 r6@3 r7@1 EOP@3 r9@1 EOP@1 r11@2 EOP@2",
    );
    assert_processed_in_arrival_order(&out);
    assert!(triggered(&out).is_empty());
}

/// Mirrors Flink's UnalignedCheckpointsTest#testSingleChannelWithBarriers: every
/// barrier triggers an unaligned checkpoint with no in-flight data.
#[test]
fn unaligned_single_channel_with_barriers() {
    let out = run(
        Unaligned,
        1,
        "r0@0 r1@0 r2@0 B1@0 r4@0 r5@0 r6@0 r7@0 B2@0 B3@0 r10@0 r11@0 B4@0 B5@0 B6@0 r15@0 EOP@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, 2, 3, 4, 5, 6]);
    for i in [3, 8, 9, 12, 13, 14] {
        let t = trigger_on(&out, i);
        assert!(t.unaligned);
        assert!(t.channel_state.is_empty());
    }
}

/// Mirrors Flink's UnalignedCheckpointsTest#testMultiChannelWithBarriers: the snapshot
/// is taken on the first barrier; records arriving afterwards on channels whose barrier
/// has not arrived are channel state, and are processed normally.
#[test]
fn unaligned_multi_channel_with_barriers() {
    let out = run(
        Unaligned,
        3,
        "r0@0 r1@2 r2@0 B1@1 B1@2 r5@2 r6@1 r7@0 B1@0 \
         r9@0 r10@0 r11@1 r12@1 r13@2 B2@0 B2@1 B2@2 \
         r17@2 r18@2 B3@2 r20@2 r21@2 B3@0 B3@1 \
         B4@1 B4@2 B4@0 \
         r27@0 r28@2 r29@0 B5@1 r31@2 r32@0 r33@2 r34@1 B5@2 r36@1 r37@0 r38@2 r39@1 B5@0 \
         r41@0 EOP@0 EOP@1 EOP@2",
    );
    assert_processed_in_arrival_order(&out);
    assert_never_blocked(&out);
    assert_eq!(outcomes(&out), vec![1, 2, 3, 4, 5]);
    assert_eq!(trigger_on(&out, 3).checkpoint, cp(1));
    assert_eq!(channel_state(&out, 1), vec![(0, vec!["r7"])]);
    assert_eq!(channel_state(&out, 2), vec![]);
    assert_eq!(channel_state(&out, 3), vec![]);
    assert_eq!(channel_state(&out, 4), vec![]);
    assert_eq!(
        channel_state(&out, 5),
        vec![(0, vec!["r32", "r37"]), (2, vec!["r31", "r33"])]
    );
}

/// Mirrors Flink's UnalignedCheckpointsTest#testMultiChannelTrailingInflightData:
/// with checkpoints after tasks finish off, an end of partition aborts checkpoint 2 and
/// nothing more is persisted for it.
#[test]
fn unaligned_multi_channel_trailing_inflight_data() {
    let out = run_no_finished_tasks(
        Unaligned,
        3,
        "r0@0 r1@1 r2@2 B1@1 B1@2 B1@0 r6@2 r7@1 r8@0 B2@1 r10@1 r11@1 EOP@1 r13@0 r14@2 B2@2 r16@2 EOP@2 r18@0 EOP@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, 2, -2]);
    assert_eq!(aborted(&out), vec![(2, EndOfStream)]);
    assert_eq!(channel_state(&out, 1), vec![]);
    assert_eq!(channel_state(&out, 2), vec![]);
}

/// Mirrors Flink's UnalignedCheckpointsTest#testMissingCancellationBarriers.
#[test]
fn unaligned_missing_cancellation_barriers() {
    let out = run(Unaligned, 2, "B1@0 X2@0 X3@0 X3@1 r4@0 EOP@0 EOP@1");
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, -2, -3]);
    assert_eq!(channel_state(&out, 1), vec![]);
    assert!(out.lines[1].persisting.is_empty());
}

/// Mirrors Flink's UnalignedCheckpointsTest#testEarlyCleanup.
#[test]
fn unaligned_early_cleanup() {
    let out = run_no_finished_tasks(
        Unaligned,
        3,
        "r0@0 r1@1 r2@2 B1@1 B1@2 B1@0 \
         r6@2 r7@1 r8@0 B2@1 r10@1 r11@1 EOP@1 r13@0 r14@2 B2@2 r16@2 EOP@2 r18@0 EOP@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, 2, -2]);
    assert_eq!(channel_state(&out, 1), vec![]);
    assert_eq!(channel_state(&out, 2), vec![]);
}

/// Mirrors Flink's UnalignedCheckpointsTest#testStartAlignmentWithClosedChannels.
#[test]
fn unaligned_start_alignment_with_closed_channels() {
    let out = run(
        Unaligned,
        4,
        "EOP@2 EOP@1 r2@0 r3@0 r4@3 B2@3 B2@0 \
         r7@3 r8@0 B3@3 r10@3 r11@0 B3@0 \
         B4@0 B4@3 \
         r15@0 r16@0 r17@3 EOP@0 \
         r19@3 B5@3 r21@3 EOP@3",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![2, 3, 4, 5]);
    assert_eq!(channel_state(&out, 2), vec![]);
    assert_eq!(channel_state(&out, 3), vec![(0, vec!["r11"])]);
    assert_eq!(channel_state(&out, 4), vec![]);
    assert_eq!(channel_state(&out, 5), vec![]);
    // Finished channels are never persisted.
    assert!(out.lines[5].actions.iter().any(
        |a| matches!(a, HandlerAction::Trigger { persist, .. } if *persist == vec![ch(0), ch(3)])
    ));
}

/// Mirrors Flink's UnalignedCheckpointsTest#testEndOfStreamWhileCheckpoint: records
/// before a channel's end of partition are channel state.
#[test]
fn unaligned_end_of_stream_while_checkpoint() {
    let out = run(
        Unaligned,
        3,
        "B1@0 B1@1 B1@2 r3@0 r4@0 r5@2 B2@2 B2@0 r8@0 r9@2 r10@1 EOP@2 EOP@1 r13@0 EOP@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, 2]);
    assert_eq!(channel_state(&out, 1), vec![]);
    assert_eq!(channel_state(&out, 2), vec![(1, vec!["r10"])]);
}

/// Mirrors Flink's UnalignedCheckpointsTest#testSingleChannelAbortCheckpoint.
#[test]
fn unaligned_single_channel_abort_checkpoint() {
    let out = run(
        Unaligned,
        1,
        "r0@0 B1@0 r2@0 B2@0 X4@0 B5@0 r6@0 X6@0 r8@0 EOP@0",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, 2, -4, 5, -6]);
}

/// Mirrors Flink's UnalignedCheckpointsTest#testMultiChannelAbortCheckpoint.
#[test]
fn unaligned_multi_channel_abort_checkpoint() {
    let out = run(
        Unaligned,
        3,
        "r0@0 r1@2 r2@0 B1@1 B1@2 r5@2 r6@1 B1@0 r8@0 r9@2 \
         B2@0 B2@2 r12@0 r13@2 X2@1 \
         r15@2 r16@1 B3@1 B3@2 B3@0 \
         r20@0 r21@1 X4@1 B4@2 r24@0 B4@0 \
         r26@0 r27@1 r28@2 B5@2 B5@1 B5@0 r32@0 r33@1 \
         X6@1 X6@2 B6@0 r37@0 EOP@0 EOP@1 EOP@2",
    );
    assert_processed_in_arrival_order(&out);
    assert_eq!(outcomes(&out), vec![1, 2, -2, 3, -4, 5, -6]);
    for id in [1, 2, 3, 5] {
        assert_eq!(channel_state(&out, id), vec![], "checkpoint {id}");
    }
}

/// Mirrors Flink's UnalignedCheckpointsTest#testTriggerCheckpointsWithEndOfPartition.
#[test]
fn unaligned_trigger_checkpoints_with_end_of_partition() {
    let out = run(Unaligned, 3, "B1@1 r1@0 B1@0 r3@1 EOP@2 EOP@0 EOP@1");
    assert_eq!(outcomes(&out), vec![1]);
    assert_eq!(channel_state(&out, 1), vec![(0, vec!["r1"])]);
    assert_eq!(pending(&out, 4), Vec::<u64>::new());
}

/// Mirrors Flink's UnalignedCheckpointsTest#testTriggerCheckpointsAfterReceivedEndOfPartition.
#[test]
fn unaligned_trigger_checkpoints_after_received_end_of_partition() {
    let out = run(
        Unaligned,
        3,
        "EOP@0 B3@1 r2@1 r3@2 EOP@1 B3@2 r6@2 B4@2 EOP@2",
    );
    assert_eq!(outcomes(&out), vec![3, 4]);
    assert_eq!(channel_state(&out, 3), vec![(2, vec!["r3"])]);
    assert_eq!(channel_state(&out, 4), vec![]);
    assert_eq!(pending(&out, 4), vec![3]);
    assert_eq!(pending(&out, 5), Vec::<u64>::new());
}

/// Mirrors Flink's UnalignedCheckpointsTest#testEndOfStreamWithPendingCheckpoint.
#[test]
fn unaligned_end_of_stream_with_pending_checkpoint() {
    let out = run_no_finished_tasks(Unaligned, 2, "B0@0 EOP@0");
    assert_eq!(out.lines[0].pending, vec![cp(0)]);
    assert_eq!(out.summary.triggered, vec![cp(0)]);
    assert_eq!(aborted(&out), vec![(0, EndOfStream)]);
    assert_eq!(pending(&out, 1), Vec::<u64>::new());
}

/// Mirrors Flink's UnalignedCheckpointsTest#testProcessCancellationBarrierAfterProcessBarrier
/// (both random branches: cancelling the current or the next checkpoint).
#[test]
fn unaligned_process_cancellation_barrier_after_process_barrier() {
    for (markers, expected) in [("X0@0 X1@0", [0, 1]), ("X1@0 X2@0", [1, 2])] {
        let out = run(Unaligned, 2, &format!("B0@0 {markers}"));
        assert_eq!(out.lines[0].pending, vec![cp(0)]);
        assert_eq!(out.summary.triggered, vec![cp(0)]);
        let aborted: Vec<u64> = out.summary.aborted.iter().map(|a| a.checkpoint.0).collect();
        assert_eq!(aborted, expected);
        assert_eq!(pending(&out, 2), Vec::<u64>::new());
    }
}

/// Mirrors Flink's UnalignedCheckpointsTest#testProcessCancellationBarrierBeforeProcessAndReceiveBarrier:
/// after the marker, the barrier of the cancelled checkpoint triggers nothing.
#[test]
fn unaligned_process_cancellation_barrier_before_process_and_receive_barrier() {
    let out = run(Unaligned, 1, "X0@0 B0@0");
    assert!(out.summary.triggered.is_empty());
    assert_eq!(aborted(&out), vec![(0, CancellationBarrier)]);
    assert_eq!(pending(&out, 1), Vec::<u64>::new());
}

/// Mirrors Flink's UnalignedCheckpointsCancellationTest#test (all 13 parameter rows):
/// whether a sequence of barriers and markers on channel 0 triggers and/or aborts.
#[test]
fn unaligned_cancellation_table() {
    let rows: [(bool, bool, &str, u32); 13] = [
        (false, true, "X10@0 X20@0", 1),
        (false, true, "X20@0 X10@0", 1),
        (false, true, "X10@0 B10@0", 1),
        (true, true, "X10@0 B20@0", 1),
        (false, true, "X20@0 B10@0", 1),
        (true, false, "B10@0 B10@0", 1),
        (true, false, "B10@0 B20@0", 1),
        (true, true, "B10@0 B20@0", 2),
        (true, false, "B20@0 B10@0", 1),
        (true, false, "B10@0 X10@0", 1),
        (true, true, "B10@0 X10@0", 2),
        (true, true, "B10@0 X20@0", 1),
        (true, false, "B20@0 X10@0", 1),
    ];
    for (expect_trigger, expect_abort, events, channels) in rows {
        let out = run(Unaligned, channels, events);
        assert_eq!(
            !out.summary.triggered.is_empty(),
            expect_trigger,
            "{events} on {channels} channel(s)"
        );
        assert_eq!(
            !out.summary.aborted.is_empty(),
            expect_abort,
            "{events} on {channels} channel(s)"
        );
    }
}

// ---------------------------------------------------------------------------------
// AlternatingCheckpointsTest

/// Mirrors Flink's AlternatingCheckpointsTest#testCheckpointHandling: an unaligned
/// checkpoint triggers on the first barrier.
#[test]
fn alternating_checkpoint_handling() {
    let out = run(Unaligned, 2, "B123@0 B123@1");
    assert!(trigger_on(&out, 0).unaligned);
    assert_eq!(triggered(&out), vec![123]);
    assert_never_blocked(&out);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testSavepointHandling: a savepoint is
/// aligned even with unaligned checkpoints on; every channel is resumed after it.
#[test]
fn alternating_savepoint_handling() {
    let out = run(Unaligned, 2, "S123@0 S123@1");
    assert!(out.lines[0].triggered.is_empty());
    assert_eq!(blocked(&out, 0), vec![0]);
    assert!(!trigger_on(&out, 1).unaligned);
    assert_eq!(blocked(&out, 1), Vec::<u32>::new());
}

/// Mirrors Flink's AlternatingCheckpointsTest#testAlternation: checkpoints and
/// savepoints, all aligned without timing out, alternate and all trigger.
#[test]
fn alternating_alternation() {
    let channels = 5;
    let mut tokens = Vec::new();
    for id in 0..12 {
        let kind = if id % 2 == 0 { 'B' } else { 'S' };
        for c in 0..channels {
            tokens.push(format!("{kind}{id}@{c}"));
        }
    }
    let out = run_with_timeout(channels, u64::from(u32::MAX), &tokens.join(" "));
    assert_eq!(triggered(&out), (0..12).collect::<Vec<_>>());
    assert!(out
        .lines
        .iter()
        .flat_map(|l| &l.triggered)
        .all(|t| !t.unaligned));
}

/// Mirrors Flink's AlternatingCheckpointsTest#testAlignedNeverTimeoutableCheckpoint.
#[test]
fn alternating_aligned_never_timeoutable_checkpoint() {
    let out = run_with_timeout(2, i32::MAX as u64, "B1@0 r1@1:1000 B1@1:1000000");
    assert!(out.lines[1].triggered.is_empty());
    assert!(!trigger_on(&out, 2).unaligned);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testTimeoutAlignmentBeforeFirstBarrier:
/// the first barrier, handled after the timeout, triggers an unaligned checkpoint at
/// once; its channel stays blocked until every barrier arrived.
#[test]
fn alternating_timeout_alignment_before_first_barrier() {
    let out = run_with_timeout(2, 100, "B1@0^0:101 r1@1:101 B1@1:102");
    let t = trigger_on(&out, 0);
    assert!(t.unaligned);
    assert_eq!(blocked(&out, 0), vec![0]);
    assert_eq!(channel_state(&out, 1), vec![(1, vec!["r1"])]);
    assert_eq!(blocked(&out, 2), Vec::<u32>::new());
    assert_eq!(triggered(&out), vec![1]);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testActiveTimeoutAlignmentOnFirstBarrier:
/// the timer (due at creation + T + 1) switches a pending aligned checkpoint to unaligned.
#[test]
fn alternating_active_timeout_alignment_on_first_barrier() {
    let out = run_with_timeout(2, 100, "B1@0 tick:100 tick:101");
    assert!(out.lines[1].triggered.is_empty());
    assert_eq!(out.lines[2].timer_fired_at, Some(101));
    assert!(trigger_on(&out, 2).unaligned);
    assert!(
        matches!(&out.lines[2].actions[..], [HandlerAction::Trigger { persist, .. }] if *persist == vec![ch(1)])
    );
}

/// Mirrors Flink's AlternatingCheckpointsTest#testAllChannelsUnblockedAfteralignedCheckpointTimeout.
#[test]
fn alternating_all_channels_unblocked_after_aligned_checkpoint_timeout() {
    let out = run_with_timeout(2, 100, "B1@0 tick:101 B1@1:102");
    assert!(trigger_on(&out, 1).unaligned);
    assert_eq!(blocked(&out, 1), vec![0]);
    assert_eq!(blocked(&out, 2), Vec::<u32>::new());
    assert_eq!(triggered(&out), vec![1]);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testNoActiveTimeoutAlignmentAfterLastBarrier.
#[test]
fn alternating_no_active_timeout_alignment_after_last_barrier() {
    let out = run_with_timeout(2, 100, "B1@0 B1@1 tick:101");
    assert!(!trigger_on(&out, 1).unaligned);
    assert_eq!(out.lines[2].timer_fired_at, None);
    assert_eq!(triggered(&out), vec![1]);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testNoActiveTimeoutAlignmentAfterAbort.
/// (The marker on blocked channel 0 waits until the one on channel 1 aborts.)
#[test]
fn alternating_no_active_timeout_alignment_after_abort() {
    let out = run_with_timeout(2, 100, "B1@0 X1@0 X1@1 tick:101");
    assert!(triggered(&out).is_empty());
    assert_eq!(aborted(&out), vec![(1, CancellationBarrier)]);
    assert_eq!(out.lines[2].handled, vec![2, 1]);
    assert_eq!(out.lines[3].timer_fired_at, None);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testTimeoutAlignmentWhenLocalBarrierFirst:
/// the timeout counts from the checkpoint's creation; the second checkpoint times out
/// on its timer.
#[test]
fn alternating_timeout_alignment_when_local_barrier_first() {
    let out = run_with_timeout(
        3,
        100,
        "B1@0 B1@1 B1@2 B2@0^101:101 tick:201 tick:202 B2@1:202",
    );
    assert!(!trigger_on(&out, 2).unaligned);
    assert!(out.lines[3].triggered.is_empty() && out.lines[4].triggered.is_empty());
    assert!(trigger_on(&out, 5).unaligned);
    assert_eq!(triggered(&out), vec![1, 2]);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testOutOfOrderBarrier: an older
/// savepoint's barrier is ignored and does not block its channel.
#[test]
fn alternating_out_of_order_barrier() {
    let out = run_with_timeout(2, u64::from(u32::MAX), "B10@0 S5@1");
    assert_eq!(blocked(&out, 1), vec![0]);
    assert_eq!(pending(&out, 1), vec![10]);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testSwitchToUnalignedByUpstream: after an
/// announcement, an unaligned barrier from upstream triggers at once.
#[test]
fn alternating_switch_to_unaligned_by_upstream() {
    let mut handler = BarrierHandler::new(Unaligned, 2, CountsAsBarrier);
    let aligned = aligned_with_timeout(1, 0, i32::MAX as u64);
    let mut out = Vec::new();
    handler.process_barrier_announcement(ch(0), &aligned, 0, &mut out);
    assert!(out.is_empty());
    handler.process_barrier(ch(1), &aligned.to_unaligned(), 0, &mut out);
    assert_eq!(
        out.iter().filter(|a| is_unaligned_trigger(a)).count(),
        1,
        "{out:?}"
    );
}

/// Mirrors Flink's AlternatingCheckpointsTest#testTimeoutAlignmentOnUnalignedCheckpoint:
/// an aligned barrier blocks channel 0; an unaligned barrier from upstream on channel 1
/// switches to unaligned, and the records it overtook on channel 1 are channel state.
#[test]
fn alternating_timeout_alignment_on_unaligned_checkpoint() {
    let mut handler = BarrierHandler::new(Unaligned, 3, CountsAsBarrier);
    let aligned = aligned_with_timeout(1, 0, i32::MAX as u64);
    let mut out = Vec::new();
    handler.process_barrier_announcement(ch(0), &aligned, 0, &mut out);
    handler.process_barrier(ch(0), &aligned, 0, &mut out);
    assert_eq!(
        out,
        vec![HandlerAction::Blocked {
            channel: ch(0),
            checkpoint: cp(1)
        }]
    );
    out.clear();
    handler.process_barrier(ch(1), &aligned.to_unaligned(), 0, &mut out);
    assert!(
        matches!(&out[..], [
        HandlerAction::Trigger { barrier, persist, .. },
        HandlerAction::StopPersisting { channel, .. },
    ] if barrier.alignment == Alignment::Unaligned && *persist == vec![ch(1), ch(2)] && *channel == ch(1)),
        "{out:?}"
    );
    assert!(handler.is_blocked(ch(0)));
}

/// Mirrors Flink's AlternatingCheckpointsTest#testAlignedAfterTimedOut: after the timer
/// fired on an announced checkpoint, its barrier triggers unaligned; the next
/// checkpoint starts aligned again.
#[test]
fn alternating_aligned_after_timed_out() {
    let mut handler = BarrierHandler::new(Unaligned, 1, CountsAsBarrier);
    let mut out = Vec::new();
    let b1 = aligned_with_timeout(1, 0, 100);
    handler.process_barrier_announcement(ch(0), &b1, 0, &mut out);
    assert_eq!(handler.next_timer_at(), Some(101));
    handler.fire_timer(101, &mut out);
    assert_eq!(
        out,
        vec![HandlerAction::Prioritize {
            channel: ch(0),
            checkpoint: cp(1)
        }]
    );
    out.clear();
    assert!(handler.is_unaligned());
    handler.process_barrier(ch(0), &b1.to_unaligned(), 101, &mut out);
    let b2 = aligned_with_timeout(2, 101, 100);
    handler.process_barrier_announcement(ch(0), &b2, 101, &mut out);
    handler.process_barrier(ch(0), &b2, 101, &mut out);
    let alignments: Vec<Alignment> = out
        .iter()
        .filter_map(|a| match a {
            HandlerAction::Trigger { barrier, .. } => Some(barrier.alignment),
            _ => None,
        })
        .collect();
    assert_eq!(alignments, vec![Alignment::Unaligned, Alignment::Aligned]);
    assert_eq!(handler.next_timer_at(), None);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testActiveTimeoutAlignmentOnAnnouncement
/// (and #testTimeoutAlignment): both barriers announced behind data; the timer switches
/// to unaligned and prioritizes both (`prioritizeAllAnnouncements`); the first
/// barrier handled triggers, persisting both channels.
#[test]
fn alternating_active_timeout_alignment_on_announcement() {
    let mut handler = BarrierHandler::new(Unaligned, 2, CountsAsBarrier);
    let mut out = Vec::new();
    let b = aligned_with_timeout(1, 0, 10);
    handler.process_barrier_announcement(ch(0), &b, 0, &mut out);
    handler.process_barrier_announcement(ch(1), &b, 0, &mut out);
    assert!(out.is_empty());
    handler.fire_timer(11, &mut out);
    assert_eq!(
        out,
        vec![
            HandlerAction::Prioritize {
                channel: ch(0),
                checkpoint: cp(1)
            },
            HandlerAction::Prioritize {
                channel: ch(1),
                checkpoint: cp(1)
            },
        ]
    );
    out.clear();
    handler.process_barrier(ch(0), &b.to_unaligned(), 11, &mut out);
    handler.process_barrier(ch(1), &b.to_unaligned(), 11, &mut out);
    assert_eq!(
        out,
        vec![
            HandlerAction::Trigger {
                barrier: b.to_unaligned(),
                persist: vec![ch(0), ch(1)],
                alignment_started_at: 11
            },
            HandlerAction::StopPersisting {
                channel: ch(0),
                checkpoint: cp(1)
            },
            HandlerAction::StopPersisting {
                channel: ch(1),
                checkpoint: cp(1)
            },
        ]
    );
    assert_eq!(handler.pending_checkpoints(), vec![]);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testTimeoutAlignmentAfterReceivedEndOfPartition:
/// an end of partition handled after the timeout (timer not yet run) switches the
/// checkpoint to unaligned.
#[test]
fn alternating_timeout_alignment_after_received_end_of_partition() {
    let mut handler = BarrierHandler::new(Unaligned, 3, CountsAsBarrier);
    let mut out = Vec::new();
    let b = aligned_with_timeout(1, 0, 100);
    handler.process_barrier(ch(0), &b, 0, &mut out);
    out.clear();
    handler.process_end_of_partition(ch(1), 101, &mut out);
    assert!(
        matches!(&out[..], [HandlerAction::Trigger { barrier, persist, .. }]
        if barrier.alignment == Alignment::Unaligned && *persist == vec![ch(2)]),
        "{out:?}"
    );
    out.clear();
    handler.process_end_of_partition(ch(2), 101, &mut out);
    assert_eq!(
        out,
        vec![
            HandlerAction::StopPersisting {
                channel: ch(2),
                checkpoint: cp(1)
            },
            HandlerAction::Unblocked {
                channel: ch(0),
                checkpoint: cp(1)
            },
        ]
    );
}

/// Mirrors Flink's AlternatingCheckpointsTest#testStartNewCheckpointViaAnnouncement:
/// an announcement starts the checkpoint, an end of partition then counts as aligned.
#[test]
fn alternating_start_new_checkpoint_via_announcement() {
    let mut handler = BarrierHandler::new(Unaligned, 3, CountsAsBarrier);
    let mut out = Vec::new();
    let b = aligned_with_timeout(1, 0, 10_000);
    handler.process_barrier_announcement(ch(0), &b, 0, &mut out);
    handler.process_end_of_partition(ch(1), 0, &mut out);
    assert_eq!(handler.pending_checkpoints(), vec![cp(1)]);
    handler.process_barrier(ch(0), &b, 0, &mut out);
    handler.process_barrier(ch(2), &b, 0, &mut out);
    let triggers: Vec<_> = out
        .iter()
        .filter_map(|a| match a {
            HandlerAction::Trigger {
                barrier,
                alignment_started_at,
                ..
            } => Some((barrier.id, barrier.alignment, *alignment_started_at)),
            _ => None,
        })
        .collect();
    assert_eq!(triggers, vec![(cp(1), Alignment::Aligned, 0)]);
    assert!(!handler.is_blocked(ch(0)));
}

/// Mirrors Flink's AlternatingCheckpointsTest#testNextFirstCheckpointBarrierOvertakesCancellationBarrier:
/// barrier 2 subsumes 1; the late marker of 1 is ignored; 2's alignment lasts from its
/// first barrier (1 s) to its last (3 s).
#[test]
fn alternating_next_first_checkpoint_barrier_overtakes_cancellation_barrier() {
    let mut handler = BarrierHandler::new(Unaligned, 2, CountsAsBarrier);
    let mut out = Vec::new();
    handler.process_barrier(ch(0), &aligned_with_timeout(1, 0, 10_000), 0, &mut out);
    handler.process_barrier(
        ch(0),
        &aligned_with_timeout(2, 1000, 10_000),
        1000,
        &mut out,
    );
    handler.process_cancellation_barrier(ch(1), cp(1), 2000, &mut out);
    handler.process_barrier(
        ch(1),
        &aligned_with_timeout(2, 1000, 10_000),
        3000,
        &mut out,
    );
    assert_eq!(
        out,
        vec![
            HandlerAction::Blocked {
                channel: ch(0),
                checkpoint: cp(1)
            },
            HandlerAction::Abort {
                checkpoint: cp(1),
                reason: Subsumed
            },
            HandlerAction::Unblocked {
                channel: ch(0),
                checkpoint: cp(1)
            },
            HandlerAction::Blocked {
                channel: ch(0),
                checkpoint: cp(2)
            },
            HandlerAction::Trigger {
                barrier: aligned_with_timeout(2, 1000, 10_000),
                persist: vec![],
                alignment_started_at: 1000
            },
            HandlerAction::Unblocked {
                channel: ch(0),
                checkpoint: cp(2)
            },
        ]
    );
}

/// The bench's token parser covers what these ports use.
#[test]
fn ports_use_the_bench_text_form() {
    let arrivals = bench::parse_arrivals("r7@2 B3@1^40:55 S3@1 X3@1 EOP@1 tick:90").unwrap();
    assert_eq!(
        arrivals[1].kind,
        ArrivalKind::Barrier {
            checkpoint: cp(3),
            channel: ch(1),
            created_at: 40,
            is_savepoint: false
        }
    );
    assert_eq!(
        arrivals.iter().map(|a| a.at_ms).collect::<Vec<_>>(),
        vec![0, 55, 55, 55, 55, 90]
    );
}

/// Mirrors Flink's AlternatingCheckpointsTest#testActiveTimeoutAlignmentOnAnnouncement
/// through the bench: data queued on a held channel before the barrier arrived, the
/// barrier announced, the timeout passing before any barrier was handled
/// (`AlternatingWaitingForFirstBarrier.alignedCheckpointTimeout`): the barrier
/// overtakes the queued data at once and triggers an unaligned checkpoint whose
/// channel state is exactly that data, which is processed afterwards.
#[test]
fn bench_announced_barrier_overtakes_data_queued_before_it_on_timeout() {
    //                           0      1     2     3       4      5       6
    let out = run_with_timeout(1, 10, "hold@0 r1@0 r2@0 B1@0:3 tick:10 tick:11 poll@0");
    // Announced on arrival: the checkpoint is pending, its timer due at 0 + 10 + 1.
    assert_eq!(pending(&out, 3), vec![1]);
    assert!(out.lines[3].triggered.is_empty() && out.lines[4].triggered.is_empty());
    assert_eq!(out.lines[3].waiting, vec![1, 2, 3]);
    // The timer: the barrier leaves the queue ahead of r1 and r2 and triggers.
    assert_eq!(out.lines[5].timer_fired_at, Some(11));
    assert!(
        matches!(&out.lines[5].actions[0], HandlerAction::Prioritize { channel, checkpoint }
            if *channel == ch(0) && *checkpoint == cp(1)),
        "{:?}",
        out.lines[5].actions
    );
    let trigger = trigger_on(&out, 5);
    assert!(trigger.unaligned);
    assert_eq!(trigger.processed_before_snapshot, 0);
    assert_eq!(channel_state(&out, 1), vec![(0, vec!["r1", "r2"])]);
    assert_eq!(out.lines[5].handled, vec![3]);
    assert_eq!(out.lines[5].waiting, vec![1, 2]);
    assert!(pending(&out, 5).is_empty());
    // The overtaken records are still processed, once the task reads the channel.
    assert_eq!(out.lines[6].processed, vec!["r1", "r2"]);
    assert_eq!(triggered(&out), vec![1]);
}

/// Before the timeout the announced barrier keeps its place: polling the held
/// channel reads the queued data first and the checkpoint is taken aligned.
#[test]
fn bench_announced_barrier_within_timeout_stays_aligned() {
    let out = run_with_timeout(1, 100, "hold@0 r1@0 r2@0 B1@0 poll@0");
    assert_eq!(pending(&out, 3), vec![1]);
    assert_eq!(out.lines[4].processed, vec!["r1", "r2"]);
    let trigger = trigger_on(&out, 4);
    assert!(!trigger.unaligned);
    assert_eq!(trigger.processed_before_snapshot, 2);
}

/// Flink: `AlternatingWaitingForFirstBarrierUnaligned.announcementReceived` — once the
/// checkpoint is unaligned here (the timer fired with only channel 0 announced), a
/// barrier announced later on channel 1 overtakes its queued data at once.
#[test]
fn bench_announcement_after_timeout_is_prioritized_at_once() {
    //                                 0      1      2     3       4       5    6
    let out = run_with_timeout(2, 10, "hold@0 hold@1 r1@0 B1@0:2 r2@1:5 tick:11 B1@1:12");
    let trigger = trigger_on(&out, 5);
    assert!(trigger.unaligned);
    assert!(
        matches!(&out.lines[6].actions[0], HandlerAction::Prioritize { channel, .. } if *channel == ch(1)),
        "{:?}",
        out.lines[6].actions
    );
    assert_eq!(out.lines[6].handled, vec![6]);
    assert_eq!(
        channel_state(&out, 1),
        vec![(0, vec!["r1"]), (1, vec!["r2"])]
    );
    assert!(pending(&out, 6).is_empty());
}

/// An unaligned barrier reaching a held channel is a priority event: handled at once,
/// ahead of the data queued there, which becomes its channel state.
#[test]
fn bench_unaligned_barrier_overtakes_held_channel() {
    let out = run(Unaligned, 1, "hold@0 r1@0 B1@0 poll@0");
    let trigger = trigger_on(&out, 2);
    assert!(trigger.unaligned);
    assert_eq!(channel_state(&out, 1), vec![(0, vec!["r1"])]);
    assert_eq!(out.lines[3].processed, vec!["r1"]);
}

/// `hold` and `poll` name a channel in range; they may follow its end of partition
/// (what queued before it is still read).
#[test]
fn bench_hold_and_poll_tokens_are_checked() {
    let arrivals = bench::parse_arrivals("hold@3").unwrap();
    let err = bench::run(&BenchConfig::new(Aligned, 2), &arrivals).unwrap_err();
    assert!(err.to_string().contains("out of range"), "{err}");
    let out = run(Aligned, 1, "hold@0 r1@0 EOP@0 poll@0");
    assert_eq!(out.lines[3].processed, vec!["r1"]);
    assert!(bench::parse_arrivals("hold@0^5").is_err());
    assert!(bench::parse_arrivals("holdx@0").is_err());
}

// ---------------------------------------------------------------------------------
// AlternatingCheckpointsTest, remote input channels: data queued ahead of a barrier
// (`[r1 r2 B1]@0`), the barrier announced on arrival (Flink:
// `RemoteInputChannel.onBuffer` → `EventAnnouncement`), the announced barriers
// converted to priority events when the alignment timer fires
// (`ChannelState.prioritizeAllAnnouncements` → `convertToPriorityEvent`). Flink's
// `pollNext` after the clock advanced is the `poll@N` that reads what was overtaken.

/// The records processed on token `i`.
fn processed_on(out: &BenchOutput, i: usize) -> Vec<&str> {
    out.lines[i].processed.iter().map(String::as_str).collect()
}

/// Tokens before `to` triggered nothing.
fn no_trigger_before(out: &BenchOutput, to: usize) {
    for line in &out.lines[..to] {
        assert!(
            line.triggered.is_empty(),
            "token {} triggered: {line:?}",
            line.i
        );
    }
}

/// Mirrors Flink's AlternatingCheckpointsTest#testTimeoutAlignment: two remote
/// channels, data then the barrier queued on each; nothing is triggered until the
/// alignment timer fires, which turns the announced barriers into priority events:
/// one checkpoint, unaligned, "followed by overtaken buffers" (all three records come
/// after the snapshot, and are its channel state).
#[test]
fn alternating_timeout_alignment() {
    //                                  0   1  2     3   4     5       6      7
    let out = run_with_timeout(2, 10, "[r1 r2 B1]@0 [r3 B1]@1 tick:20 poll@0 poll@1");
    no_trigger_before(&out, 5);
    assert_eq!(pending(&out, 4), vec![1], "the announcements started it");
    assert_eq!(out.lines[5].timer_fired_at, Some(11));
    let trigger = trigger_on(&out, 5);
    assert!(trigger.unaligned);
    assert_eq!(trigger.processed_before_snapshot, 0);
    assert_eq!(
        out.lines[5].handled,
        vec![2, 4],
        "both barriers, ahead of their data"
    );
    assert_eq!(triggered(&out), vec![1]);
    assert_eq!(
        channel_state(&out, 1),
        vec![(0, vec!["r1", "r2"]), (1, vec!["r3"])]
    );
    assert_eq!(processed_on(&out, 6), vec!["r1", "r2"]);
    assert_eq!(processed_on(&out, 7), vec!["r3"]);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testTimeoutAlignmentAfterProcessingBarrier:
/// channel 2's barrier is handled first (aligned, no trigger); then data and barriers
/// queue on channels 0 and 1 and the timer fires during the alignment
/// (`AlternatingCollectingBarriers.alignedCheckpointTimeout`): one unaligned
/// checkpoint, both announced barriers overtaking their data, then the data.
#[test]
fn alternating_timeout_alignment_after_processing_barrier() {
    let timeout = i32::MAX as u64;
    let late = format!("tick:{}", 2 * timeout);
    //           0    1   2  3     4   5     6     7      8
    let seq = format!("B1@2 [r1 r2 B1]@0 [r3 B1]@1 {late} poll@0 poll@1");
    let out = run_with_timeout(3, timeout, &seq);
    assert!(out.lines[0].triggered.is_empty());
    assert_eq!(blocked(&out, 0), vec![2]);
    no_trigger_before(&out, 6);
    assert_eq!(out.lines[6].timer_fired_at, Some(timeout + 1));
    let trigger = trigger_on(&out, 6);
    assert!(trigger.unaligned);
    assert_eq!(out.lines[6].handled, vec![3, 5], "the barriers overtook");
    assert_eq!(blocked(&out, 6), Vec::<u32>::new());
    assert!(pending(&out, 6).is_empty());
    assert_eq!(triggered(&out), vec![1]);
    assert_eq!(
        channel_state(&out, 1),
        vec![(0, vec!["r1", "r2"]), (1, vec!["r3"])]
    );
    assert_eq!(processed_on(&out, 7), vec!["r1", "r2"]);
    assert_eq!(processed_on(&out, 8), vec!["r3"]);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testTimeoutAlignmentOnFirstBarrier: the
/// barriers queued on both channels are announced, nothing is triggered; the timer
/// fires before the first barrier is read and the checkpoint is triggered.
#[test]
fn alternating_timeout_alignment_on_first_barrier() {
    let out = run_with_timeout(2, 100, "[B1]@0 [B1]@1 tick:400");
    no_trigger_before(&out, 2);
    assert_eq!(pending(&out, 1), vec![1]);
    assert_eq!(out.lines[2].timer_fired_at, Some(101));
    assert!(trigger_on(&out, 2).unaligned);
    assert_eq!(triggered(&out), vec![1]);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testTimeoutAlignmentOnAnnouncementForSecondCheckpoint:
/// the first checkpoint goes through; the second one's barriers queue behind a record
/// on each channel and are announced; the timer fires and the barrier overtakes the
/// data buffers: checkpoint 2 is triggered while the records still wait.
#[test]
fn alternating_timeout_alignment_on_announcement_for_second_checkpoint() {
    //                                   0      1      2      3      4   5     6   7     8
    let out = run_with_timeout(
        2,
        100,
        "[B1]@0 [B1]@1 poll@0 poll@1 [r1 B2]@0 [r2 B2]@1 tick:400",
    );
    assert_eq!(triggered_through(&out, 3), vec![1]);
    no_trigger_before_from(&out, 4, 8);
    assert_eq!(pending(&out, 7), vec![2]);
    assert!(trigger_on(&out, 8).unaligned);
    assert_eq!(triggered(&out), vec![1, 2]);
    assert_eq!(
        channel_state(&out, 2),
        vec![(0, vec!["r1"]), (1, vec!["r2"])]
    );
    assert_eq!(out.lines[8].waiting, vec![4, 6], "the records not yet read");
}

/// Mirrors Flink's AlternatingCheckpointsTest#testActiveTimeoutBeforeFirstAnnouncementPassiveTimeout:
/// the announcements are read only after the timeout (here: they arrive at 11 ms,
/// the timeout being 10 ms); the timer then registered fires at once (Flink:
/// `registerAlignmentTimer`'s delay is never negative) and both barriers overtake:
/// one unaligned checkpoint, followed by the overtaken records.
#[test]
fn alternating_active_timeout_before_first_announcement_passive_timeout() {
    //                                  0   1         2   3           4       5      6
    let out = run_with_timeout(2, 10, "[r1 B1]@0:11 [r2 B1]@1:11 tick:12 poll@0 poll@1");
    no_trigger_before(&out, 4);
    assert_eq!(out.lines[4].timer_fired_at, Some(12));
    let trigger = trigger_on(&out, 4);
    assert!(trigger.unaligned);
    assert_eq!(triggered(&out), vec![1]);
    assert_eq!(
        channel_state(&out, 1),
        vec![(0, vec!["r1"]), (1, vec!["r2"])]
    );
    assert_eq!(processed_on(&out, 5), vec!["r1"]);
    assert_eq!(processed_on(&out, 6), vec!["r2"]);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testActiveTimeoutAfterBarrierPassiveTimeout:
/// channel 0's announcement is read first (`A1@0`), then its two records, then its
/// barrier after the timeout: an unaligned checkpoint. Channel 1's barrier, queued
/// behind a record and announced once the checkpoint is unaligned, overtakes it at
/// once; the record follows.
#[test]
fn alternating_active_timeout_after_barrier_passive_timeout() {
    //                                  0    1    2    3        4   5          6
    let out = run_with_timeout(2, 10, "A1@0 r1@0 r2@0 B1@0:11 [r3 B1]@1:11 poll@1");
    assert_eq!(pending(&out, 0), vec![1], "the announcement started it");
    assert_eq!(processed_on(&out, 1), vec!["r1"]);
    assert_eq!(processed_on(&out, 2), vec!["r2"]);
    assert!(trigger_on(&out, 3).unaligned);
    assert!(
        matches!(&out.lines[5].actions[0], HandlerAction::Prioritize { channel, .. } if *channel == ch(1)),
        "{:?}",
        out.lines[5].actions
    );
    assert!(pending(&out, 5).is_empty());
    assert_eq!(triggered(&out), vec![1]);
    assert_eq!(channel_state(&out, 1), vec![(1, vec!["r3"])]);
    assert_eq!(
        processed_on(&out, 6),
        vec!["r3"],
        "followed by the overtaken record"
    );
}

/// Mirrors Flink's AlternatingCheckpointsTest#testAlignedAfterTimedOut, on the bench:
/// the barrier of checkpoint 1, announced, is converted when the timer fires and
/// triggers unaligned; checkpoint 2, read within its timeout, is aligned (Flink's
/// triggered options: unaligned, then aligned with timeout).
#[test]
fn alternating_aligned_after_timed_out_on_the_bench() {
    let out = run_with_timeout(1, 100, "[B1]@0 tick:101 [B2^101]@0:101 poll@0");
    assert!(trigger_on(&out, 1).unaligned, "the timer converted it");
    assert_eq!(pending(&out, 2), vec![2]);
    assert!(!trigger_on(&out, 3).unaligned);
    assert_eq!(triggered(&out), vec![1, 2]);
}

/// Mirrors Flink's AlternatingCheckpointsTest#testChannelResetOnNewBarrier: a
/// savepoint's barrier blocks channel 0, a record queues there, then an unaligned
/// barrier of a newer checkpoint arrives on channel 1: the savepoint is subsumed and
/// the queued record is captured as channel state.
#[test]
fn alternating_channel_reset_on_new_barrier() {
    let out = run(Unaligned, 2, "S0@0 [r1]@0 B1@1");
    assert_eq!(aborted(&out), vec![(0, Subsumed)]);
    assert!(trigger_on(&out, 2).unaligned);
    assert_eq!(channel_state(&out, 1), vec![(0, vec!["r1"])]);
}

/// Checkpoints triggered on tokens `0..=i`.
fn triggered_through(out: &BenchOutput, i: usize) -> Vec<u64> {
    out.lines[..=i]
        .iter()
        .flat_map(|l| &l.triggered)
        .map(|t| t.checkpoint.0)
        .collect()
}

/// Tokens `from..to` triggered nothing.
fn no_trigger_before_from(out: &BenchOutput, from: usize, to: usize) {
    for line in &out.lines[from..to] {
        assert!(
            line.triggered.is_empty(),
            "token {} triggered: {line:?}",
            line.i
        );
    }
}

/// The queue and announcement tokens: each element of `[…]@N` is a token of its own,
/// written without its channel, queued on channel N, all at the queue's `:T` when
/// given; `A<id>@N^T` is an announcement.
#[test]
fn queue_and_announcement_tokens_parse() {
    let a = bench::parse_arrivals("r0@1 [r1 B2^5]@0:7 A3@1^2 tick:9").unwrap();
    let tokens: Vec<&str> = a.iter().map(|a| a.token.as_str()).collect();
    assert_eq!(tokens, vec!["r0@1", "r1", "B2^5", "A3@1^2", "tick:9"]);
    let queued: Vec<bool> = a.iter().map(|a| a.queued).collect();
    assert_eq!(queued, vec![false, true, true, false, false]);
    assert_eq!(
        a.iter().map(|a| a.at_ms).collect::<Vec<_>>(),
        vec![0, 7, 7, 7, 9]
    );
    assert_eq!(
        a[1].kind,
        ArrivalKind::Record {
            name: "r1".into(),
            channel: ch(0)
        }
    );
    assert_eq!(
        a[2].kind,
        ArrivalKind::Barrier {
            checkpoint: cp(2),
            channel: ch(0),
            created_at: 5,
            is_savepoint: false
        }
    );
    assert_eq!(
        a[3].kind,
        ArrivalKind::Announcement {
            checkpoint: cp(3),
            channel: ch(1),
            created_at: 2
        }
    );
    // Without `:T` each element arrives at its own position.
    let a = bench::parse_arrivals("[r1 r2 EOP]@1").unwrap();
    assert_eq!(a.iter().map(|a| a.at_ms).collect::<Vec<_>>(), vec![0, 1, 2]);
}

/// Bad queues and announcements: the message names the token and its position and
/// says what is wrong.
#[test]
fn bad_queue_and_announcement_tokens_are_named() {
    let cases: &[(&str, &str, &str)] = &[
        ("r0@0 [r1 r2", "\"[r1\" (token 1)", "never closed"),
        ("r1]@0", "\"r1]@0\" (token 0)", "closes no queue"),
        ("[r1 [r2]@0", "\"[r2]@0\" (token 1)", "cannot open inside"),
        ("[r1@0]@0", "\"[r1@0]@0\" (token 0)", "names no channel"),
        (
            "[r1 tick:5]@0",
            "\"tick:5]@0\" (token 1)",
            "names no channel",
        ),
        ("[hold]@0", "\"hold\" (token 0)", "outside a queue"),
        ("[r1 q2]@0", "\"q2\" (token 1)", "inside a queue write"),
        ("[r1]0", "\"[r1]0\" (token 0)", "[<elements>]@<ch>"),
        ("[r1]@x", "\"[r1]@x\" (token 0)", "channel \"x\""),
        ("[ r1]@0", "\"[\" (token 0)", "no space inside"),
        ("r1@0:5 [r2]@1:3", "\"r2\" (token 1)", "earlier"),
        ("A1@0^x", "\"A1@0^x\" (token 0)", "creation time"),
    ];
    for (text, names, why) in cases {
        let err = bench::parse_arrivals(text).unwrap_err().to_string();
        assert!(err.contains(names) && err.contains(why), "{text}: {err}");
    }
    // Checked against the configuration.
    let arrivals = bench::parse_arrivals("r0@0 [r1]@3").unwrap();
    let err = bench::run(&BenchConfig::new(Aligned, 2), &arrivals).unwrap_err();
    assert!(
        err.to_string().contains("\"r1\" (token 1)") && err.to_string().contains("out of range"),
        "{err}"
    );
    let arrivals = bench::parse_arrivals("A1@0").unwrap();
    for config in [BenchConfig::new(Unaligned, 1), BenchConfig::new(Aligned, 1)] {
        let err = bench::run(&config, &arrivals).unwrap_err().to_string();
        assert!(err.contains("--aligned-timeout above 0"), "{err}");
    }
}

/// Property: random text built from the queue's pieces never makes the parser or the
/// run panic (debug assertions of the handler included); both outcomes are reached.
#[test]
fn property_queues_never_panic() {
    use rand::{Rng, SeedableRng};
    const PIECES: &[&str] = &[
        "[", "]", "@", ":", "^", "0", "1", "2", "9", "r", "B", "S", "X", "A", "EOP", "hold",
        "poll", "tick", " ", " ", " ", "[r1", "B1]@0", "A1@1", "]@1:5", "é",
    ];
    let (mut ran, mut refused) = (0, 0);
    for seed in 0..3000u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut text = String::new();
        for _ in 0..rng.random_range(0..30) {
            text.push_str(PIECES[rng.random_range(0..PIECES.len())]);
        }
        let config = match seed % 3 {
            0 => BenchConfig::new(Aligned, 2),
            1 => BenchConfig::new(AtLeastOnce, 2),
            _ => {
                let mut c = BenchConfig::new(Unaligned, 2);
                c.aligned_timeout_ms = 3;
                c
            }
        };
        let result = std::panic::catch_unwind(|| {
            bench::parse_arrivals(&text).and_then(|a| bench::run(&config, &a))
        });
        match result {
            Ok(Ok(_)) => ran += 1,
            Ok(Err(_)) => refused += 1,
            Err(_) => panic!("seed {seed}: panicked on {text:?} with {config:?}"),
        }
    }
    assert!(
        ran >= 100 && refused >= 1000,
        "of 3000 seeds {ran} ran and {refused} were refused"
    );
}
