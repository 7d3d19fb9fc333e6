//! Property tests of the World over many seeds (run in release: `cargo test --release`).
//! Each failure prints the seed; reproduce with `random_scenario(seed, …)`.

use crate::common;

use crate::common::{assert_sometimes, random_scenario, run_traced, Gen, Mode};
use engine::event::Event;
use engine::ids::{ChannelIndex, CheckpointId};
use std::collections::{BTreeMap, BTreeSet};

const SEEDS: u64 = 500;

fn gen(mode: Mode, crashes: bool) -> Gen {
    Gen {
        mode,
        crashes,
        sink: "two_phase_commit",
        aligned_timeout: false,
        keyed: None,
    }
}

/// Mirrors Flink's SingleCheckpointBarrierHandler (aligned): once a channel has
/// delivered barrier n, none of its records is processed before the snapshot for n
/// (or before n is aborted at that task).
#[test]
fn aligned_never_processes_a_barriered_channel_before_the_snapshot() {
    // Seeds where a record of a barriered channel was held while others aligned.
    let mut blocked = 0;
    for seed in 0..SEEDS {
        let s = random_scenario(seed, &gen(Mode::Aligned, seed % 2 == 0));
        let (events, _) = run_traced(&s);
        blocked += usize::from(
            events
                .iter()
                .any(|e| matches!(e.event, Event::RecordBuffered { .. })),
        );
        // (task, channel) -> checkpoint whose barrier it delivered
        let mut barriered: BTreeMap<(String, ChannelIndex), CheckpointId> = BTreeMap::new();
        for e in &events {
            match &e.event {
                Event::BarrierReceived {
                    task,
                    channel,
                    checkpoint,
                } => {
                    barriered.insert((task.to_string(), *channel), *checkpoint);
                }
                Event::SnapshotTaken {
                    task, checkpoint, ..
                }
                | Event::CheckpointDeclined {
                    task, checkpoint, ..
                }
                | Event::CancellationMarkerSent { task, checkpoint } => {
                    barriered.retain(|(t, _), c| !(t == &**task && *c <= *checkpoint));
                }
                Event::ChannelUnblocked { task, channel, .. } => {
                    barriered.remove(&(task.to_string(), *channel));
                }
                Event::StateRestored { .. } => barriered.clear(),
                Event::RecordProcessed { task, channel, .. } => {
                    if let Some(c) = barriered.get(&(task.to_string(), *channel)) {
                        panic!("seed {seed}: {task} processed a record of channel {channel} after barrier {c} before its snapshot (t={})", e.t);
                    }
                }
                _ => {}
            }
        }
    }
    assert_sometimes(
        blocked,
        SEEDS as usize / 4,
        SEEDS as usize,
        "held a record behind a barrier",
    );
}

/// Mirrors Flink's AlternatingWaitingForFirstBarrierUnaligned: without an aligned
/// timeout, a task snapshots on the FIRST barrier of a checkpoint, and no channel
/// ever blocks.
#[test]
// The first-barrier check inserts into `seen`: kept out of a match guard.
#[allow(clippy::collapsible_match)]
fn unaligned_snapshots_at_the_first_barrier_and_never_blocks() {
    // First barriers answered by a snapshot: the case the timing check is about.
    let mut at_first = 0;
    for seed in 0..SEEDS {
        let s = random_scenario(seed, &gen(Mode::Unaligned, seed % 2 == 0));
        let (events, _) = run_traced(&s);
        let mut seen: BTreeSet<(String, CheckpointId)> = BTreeSet::new();
        for (i, e) in events.iter().enumerate() {
            match &e.event {
                Event::ChannelBlocked { task, .. } => {
                    panic!("seed {seed}: {task} blocked a channel in unaligned mode")
                }
                Event::BarrierReceived {
                    task, checkpoint, ..
                } => {
                    if seen.insert((task.to_string(), *checkpoint)) {
                        // The first barrier: the very next event of this task is its snapshot
                        // (or nothing, if the checkpoint was already aborted there).
                        let next = events[i + 1..].iter().find(|x| match &x.event {
                            Event::SnapshotTaken { task: t, .. }
                            | Event::RecordProcessed { task: t, .. }
                            | Event::CheckpointDeclined { task: t, .. }
                            | Event::CancellationMarkerSent { task: t, .. } => t == task,
                            _ => false,
                        });
                        if let Some(n) = next {
                            let ok = matches!(&n.event, Event::SnapshotTaken { checkpoint: c, .. } if c == checkpoint)
                                || matches!(
                                    &n.event,
                                    Event::CheckpointDeclined { .. }
                                        | Event::CancellationMarkerSent { .. }
                                )
                                || n.t > e.t;
                            assert!(ok, "seed {seed}: {task} did not snapshot {checkpoint} at its first barrier: next was {:?}", n);
                            if let Event::SnapshotTaken { .. } = n.event {
                                at_first += 1;
                                assert_eq!(
                                    n.t, e.t,
                                    "seed {seed}: snapshot of {task} not at the first barrier"
                                );
                            }
                        }
                    }
                }
                Event::StateRestored { .. } => seen.clear(),
                _ => {}
            }
        }
    }
    assert_sometimes(
        at_first,
        SEEDS as usize,
        SEEDS as usize,
        "snapshotted at a first barrier (counted per barrier)",
    );
}

/// Mirrors Flink's CheckpointBarrierTracker: at-least-once never blocks a channel.
#[test]
fn at_least_once_never_blocks() {
    // Seeds where a checkpoint completed: barriers did pass the tracker.
    let mut checkpointed = 0;
    for seed in 0..SEEDS {
        let s = random_scenario(
            seed,
            &Gen {
                sink: "at_least_once",
                ..gen(Mode::AtLeastOnce, seed % 2 == 0)
            },
        );
        let (events, summary) = run_traced(&s);
        assert!(
            !events.iter().any(|e| matches!(
                e.event,
                Event::ChannelBlocked { .. } | Event::RecordBuffered { .. }
            )),
            "seed {seed}: a channel blocked in at-least-once mode"
        );
        assert!(
            !summary["checkpoints"].as_array().unwrap().is_empty() || events.len() < 50,
            "seed {seed}: no checkpoint"
        );
        checkpointed += usize::from(!summary["checkpoints"].as_array().unwrap().is_empty());
    }
    assert_sometimes(
        checkpointed,
        SEEDS as usize * 3 / 4,
        SEEDS as usize,
        "completed a checkpoint",
    );
}

/// Flink's CheckpointIDCounter: ids only grow (never reset on failover), and each
/// task snapshots checkpoints in increasing id order.
#[test]
fn checkpoint_ids_only_grow() {
    // Seeds that triggered a checkpoint after failing over to one: where an id
    // counter reset on failover would show.
    let mut after_failover = 0;
    for seed in 0..SEEDS {
        let mode = [Mode::Aligned, Mode::Unaligned, Mode::AtLeastOnce][(seed % 3) as usize];
        let s = random_scenario(seed, &gen(mode, true));
        let (events, _) = run_traced(&s);
        let mut last_triggered = 0;
        let mut last_snap: BTreeMap<String, u64> = BTreeMap::new();
        let (mut restored, mut triggered_after) = (false, false);
        for e in &events {
            match &e.event {
                Event::StateRestored {
                    checkpoint: Some(_),
                    ..
                } => restored = true,
                Event::CheckpointTriggered { checkpoint, .. } => {
                    triggered_after |= restored;
                    assert!(
                        checkpoint.0 > last_triggered,
                        "seed {seed}: id {checkpoint} after {last_triggered}"
                    );
                    last_triggered = checkpoint.0;
                }
                Event::SnapshotTaken {
                    task, checkpoint, ..
                } => {
                    let prev = last_snap
                        .insert(task.to_string(), checkpoint.0)
                        .unwrap_or(0);
                    assert!(
                        checkpoint.0 > prev,
                        "seed {seed}: {task} snapshotted {checkpoint} after {prev}"
                    );
                }
                _ => {}
            }
        }
        after_failover += usize::from(triggered_after);
    }
    assert_sometimes(
        after_failover,
        SEEDS as usize / 10,
        SEEDS as usize,
        "triggered a checkpoint after a failover",
    );
}

/// madsim's check_determinism: the same scenario and seed give a byte-identical trace.
#[test]
fn same_seed_same_trace() {
    for seed in 0..SEEDS / 5 {
        let mode = [Mode::Aligned, Mode::Unaligned, Mode::AtLeastOnce][(seed % 3) as usize];
        let s = random_scenario(
            seed,
            &Gen {
                aligned_timeout: true,
                ..gen(mode, true)
            },
        );
        let a = common::lines(&s, true);
        let b = common::lines(&s, true);
        common::assert_same_runs(
            &a,
            &b,
            &format!("seed {seed}"),
            &common::lab_command(&s, false),
        );
    }
}
