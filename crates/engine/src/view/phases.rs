//! A checkpoint's phases at each subtask, as Flink's checkpoint statistics break
//! them down (`SubtaskStateStats`: `getCheckpointStartDelayNanos`,
//! `getAlignmentDuration`, `getSyncCheckpointDuration`,
//! `getAsyncCheckpointDuration`, `getEndToEndDuration`).
//!
//! A pure function of a checkpoint's statistics ([`CheckpointStats`], the history
//! in [`CoordinatorView`](super::CoordinatorView)) and the job graph
//! ([`JobView`]), so the page reads it from the views it already holds. The
//! boundaries, in Flink's order (`SubtaskCheckpointCoordinatorImpl.checkpointState`):
//!
//! ```text
//! trigger ──start delay── first barrier ──alignment── alignment end
//!         (a source: the trigger RPC)                 = barrier forwarded ─sync─ snapshot ──async── acknowledged
//! ```
//!
//! Unaligned, the checkpoint starts at the first barrier: the barrier is forwarded
//! and the snapshot taken then, and the alignment (first to last barrier) runs on
//! beside the asynchronous phase. The lab's synchronous phase takes no simulated
//! time, so the barrier leaves at the snapshot's instant; the trace still tells
//! the order (`barrier_forwarded` before `snapshot_taken`).

use super::{JobView, TaskView};
use crate::coordinator::{CheckpointStats, CheckpointStatus};
use crate::event::{SnapshotKind, TaskName};
use crate::ids::{CheckpointId, TaskId};
use crate::scenario::OperatorKind;
use crate::world::World;
use serde::{Deserialize, Serialize};

/// One checkpoint's phases at every subtask it waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointPhases {
    /// The checkpoint.
    pub checkpoint: CheckpointId,
    /// Checkpoint or savepoint.
    pub kind: SnapshotKind,
    /// In progress, completed or aborted.
    pub status: CheckpointStatus,
    /// When the coordinator triggered it.
    pub trigger_at: u64,
    /// When it completed or was aborted.
    pub end_at: Option<u64>,
    /// Still pending: the moment these phases were read at; the phases not ended
    /// yet run up to it ([`checkpoint_phases_at`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub now: Option<u64>,
    /// The subtasks, in [`TaskId`] order.
    pub subtasks: Vec<SubtaskPhases>,
}

/// One subtask's phase boundaries in one checkpoint (simulated ms; `None`: not
/// reached, or not reached before the checkpoint ended). A subtask still aligning
/// shows none yet: its statistics are written at its snapshot (Flink's reach the
/// coordinator with the acknowledgement).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubtaskPhases {
    /// The subtask.
    pub task: TaskId,
    /// Its name, `"uid#index"`.
    pub name: TaskName,
    /// A source: no barrier reaches it, the trigger starts its checkpoint.
    pub source: bool,
    /// The checkpoint's trigger time (repeated, so durations read from here alone).
    pub trigger_at: u64,
    /// The end of the start delay: its first barrier, or the trigger RPC for a
    /// source or a subtask whose inputs had all ended (Flink triggers both).
    pub first_barrier_at: Option<u64>,
    /// The end of the alignment: the last barrier in. Aligned, this is when the
    /// checkpoint starts at the subtask; unaligned, the checkpoint started at the
    /// first barrier and this is when its channel state is complete.
    pub alignment_end_at: Option<u64>,
    /// When the barrier left for its outputs (a source: its injection); `None`
    /// for a subtask without outputs (a sink).
    pub forwarded_at: Option<u64>,
    /// The end of the synchronous phase (`snapshot_taken`).
    pub snapshot_at: Option<u64>,
    /// The end of the asynchronous phase: the acknowledgement (at the trigger for
    /// a subtask already [finished](Self::finished)).
    pub ack_at: Option<u64>,
    /// Its snapshot was taken unaligned.
    pub unaligned: bool,
}

impl SubtaskPhases {
    /// It had finished before the checkpoint was triggered: the coordinator
    /// acknowledged it at the trigger, with no barrier and no snapshot (Flink:
    /// `DefaultCheckpointPlan.fulfillFinishedTaskStatus`).
    pub fn finished(&self) -> bool {
        self.snapshot_at.is_none() && self.ack_at.is_some()
    }

    /// When the checkpoint started at this subtask (Flink: `checkpointState` runs):
    /// unaligned, at the first barrier; aligned, at the end of the alignment.
    pub fn started_at(&self) -> Option<u64> {
        if self.unaligned {
            self.first_barrier_at
        } else {
            self.alignment_end_at
        }
    }

    /// From the trigger to the first barrier (Flink: checkpoint start delay); 0 at
    /// a source.
    pub fn start_delay_ms(&self) -> Option<u64> {
        Some(self.first_barrier_at?.saturating_sub(self.trigger_at))
    }

    /// From the first barrier to the last (Flink: alignment duration).
    pub fn alignment_ms(&self) -> Option<u64> {
        Some(
            self.alignment_end_at?
                .saturating_sub(self.first_barrier_at?),
        )
    }

    /// The synchronous phase: from the start of the checkpoint at the subtask to
    /// its snapshot (Flink: sync duration). 0 in the lab.
    pub fn sync_ms(&self) -> Option<u64> {
        Some(self.snapshot_at?.saturating_sub(self.started_at()?))
    }

    /// The asynchronous phase: from the snapshot to the acknowledgement (Flink:
    /// async duration) — the upload, and unaligned also the channel state still
    /// being persisted. Records keep flowing meanwhile.
    pub fn async_ms(&self) -> Option<u64> {
        Some(self.ack_at?.saturating_sub(self.snapshot_at?))
    }

    /// From the trigger to the acknowledgement (Flink: end-to-end duration).
    pub fn end_to_end_ms(&self) -> Option<u64> {
        Some(self.ack_at?.saturating_sub(self.trigger_at))
    }
}

/// Checkpoint `stats`'s phases at each of its subtasks, `job` telling sources
/// and subtasks without outputs apart.
pub fn checkpoint_phases(stats: &CheckpointStats, job: &JobView) -> CheckpointPhases {
    let subtasks = stats
        .subtasks
        .iter()
        .map(|(&task, s)| {
            let info = &job.tasks[task.0 as usize];
            let source = job.operators[info.op].kind == OperatorKind::Source;
            let has_outputs = job.channels.iter().any(|c| c.from == task);
            SubtaskPhases {
                task,
                name: info.name.clone(),
                source,
                trigger_at: stats.trigger_at,
                first_barrier_at: s.first_barrier_at,
                // A source has nothing to align, and neither had an acknowledged
                // subtask without a last barrier (triggered by RPC once its inputs
                // ended): the alignment ends where it starts.
                alignment_end_at: s.last_barrier_at.or_else(|| {
                    (source || s.ack_at.is_some())
                        .then_some(s.first_barrier_at)
                        .flatten()
                }),
                // Forwarded in the same instant as the snapshot (see the module doc).
                forwarded_at: s.snapshot_at.filter(|_| has_outputs),
                snapshot_at: s.snapshot_at,
                ack_at: s.ack_at,
                unaligned: s.unaligned,
            }
        })
        .collect();
    CheckpointPhases {
        checkpoint: stats.id,
        kind: stats.kind,
        status: stats.status,
        trigger_at: stats.trigger_at,
        end_at: stats.end_at,
        now: None,
        subtasks,
    }
}

/// [`checkpoint_phases`] read at `now` from the subtasks' views `tasks` (by
/// [`TaskId`]): a pending checkpoint also shows the first barriers of the subtasks
/// still aligning it ([`TaskView::aligning_since`]), which its statistics receive
/// only with the snapshot, and is marked as read at `now`. A checkpoint that has
/// ended is returned as [`checkpoint_phases`] returns it.
pub fn checkpoint_phases_at(
    stats: &CheckpointStats,
    job: &JobView,
    tasks: &[TaskView],
    now: u64,
) -> CheckpointPhases {
    let mut p = checkpoint_phases(stats, job);
    if p.status != CheckpointStatus::InProgress {
        return p;
    }
    p.now = Some(now);
    for s in &mut p.subtasks {
        if s.first_barrier_at.is_some() {
            continue;
        }
        s.first_barrier_at = tasks.get(s.task.0 as usize).and_then(|t| {
            t.aligning_since
                .iter()
                .find(|(c, _)| *c == p.checkpoint)
                .map(|&(_, at)| at)
        });
    }
    p
}

/// Every checkpoint of `history` (oldest first), broken into phases.
pub fn phases(history: &[CheckpointStats], job: &JobView) -> Vec<CheckpointPhases> {
    history.iter().map(|h| checkpoint_phases(h, job)).collect()
}

impl World {
    /// Every checkpoint in the coordinator's history, broken into phases.
    pub fn checkpoint_phases(&self) -> Vec<CheckpointPhases> {
        let job = self.job_view();
        self.coordinator()
            .history()
            .values()
            .map(|h| checkpoint_phases(h, &job))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Event, TraceEvent};
    use crate::runner::{self, RunOptions};

    /// Lesson `name` run to its end, with its trace.
    fn run(name: &str) -> (Vec<CheckpointPhases>, Vec<TraceEvent>) {
        let s = runner::load(name).unwrap();
        let opts = RunOptions {
            trace: true,
            ..Default::default()
        };
        let mut events = Vec::new();
        let w = runner::run(&s, &opts, |e| events.push(e.clone())).unwrap();
        let phases = w.checkpoint_phases();
        assert_matches_trace(name, &phases, &events);
        (phases, events)
    }

    fn subtask<'a>(phases: &'a [CheckpointPhases], id: u64, task: &str) -> &'a SubtaskPhases {
        phases
            .iter()
            .find(|p| p.checkpoint == CheckpointId(id))
            .and_then(|p| p.subtasks.iter().find(|s| &*s.name == task))
            .unwrap_or_else(|| panic!("no {task} in checkpoint {id}"))
    }

    /// Every boundary is the time of the event that marks it in the trace.
    fn assert_matches_trace(name: &str, phases: &[CheckpointPhases], events: &[TraceEvent]) {
        let at = |f: &dyn Fn(&Event) -> bool| events.iter().find(|e| f(&e.event)).map(|e| e.t);
        for p in phases {
            let id = p.checkpoint;
            for s in &p.subtasks {
                let task = |t: &TaskName| **t == *s.name;
                let forwarded = at(&|e| match e {
                    Event::BarrierInjected {
                        task: t,
                        checkpoint,
                    } => task(t) && *checkpoint == id,
                    Event::BarrierForwarded {
                        task: t,
                        checkpoint,
                        ..
                    } => task(t) && *checkpoint == id,
                    _ => false,
                });
                let first_barrier = at(
                    &|e| matches!(e, Event::BarrierReceived { task: t, checkpoint, .. } if task(t) && *checkpoint == id),
                );
                let snapshot = at(
                    &|e| matches!(e, Event::SnapshotTaken { task: t, checkpoint, .. } if task(t) && *checkpoint == id),
                );
                let ack = at(
                    &|e| matches!(e, Event::CheckpointAcknowledged { task: t, checkpoint } if task(t) && *checkpoint == id),
                );
                let what = format!("{name}, checkpoint {id}, {}: {s:?}", s.name);
                assert_eq!(s.forwarded_at, forwarded, "{what}");
                assert_eq!(s.snapshot_at, snapshot, "{what}");
                if s.finished() {
                    assert_eq!(s.ack_at, Some(p.trigger_at), "{what}");
                } else {
                    assert_eq!(s.ack_at, ack, "{what}");
                }
                if s.snapshot_at.is_some() {
                    // No barrier: triggered by RPC (a source, or inputs all ended).
                    let start = first_barrier.unwrap_or(p.trigger_at);
                    assert_eq!(s.first_barrier_at, Some(start), "{what}");
                }
                if s.source && s.snapshot_at.is_some() {
                    assert_eq!(s.start_delay_ms(), Some(0), "{what}");
                }
            }
        }
    }

    /// odd-even-sum's first checkpoint: a chain of single inputs, so no alignment;
    /// each hop adds its channel's 10 ms to the start delay; nothing to upload.
    #[test]
    fn a_chain_of_single_inputs_has_start_delays_and_no_alignment() {
        let (phases, _) = run("odd-even-sum");
        assert_eq!(phases[0].trigger_at, 550);
        for (task, delay) in [
            ("numbers#0", 0),
            ("parity#0", 10),
            ("sum#0", 20),
            ("out#0", 30),
        ] {
            let s = subtask(&phases, 1, task);
            assert_eq!(s.start_delay_ms(), Some(delay), "{task}");
            assert_eq!(s.alignment_ms(), Some(0), "{task}");
            assert_eq!(s.sync_ms(), Some(0), "{task}");
            assert_eq!(s.async_ms(), Some(0), "{task}");
            assert_eq!(s.end_to_end_ms(), Some(delay), "{task}");
        }
        assert!(subtask(&phases, 1, "numbers#0").source);
        assert_eq!(subtask(&phases, 1, "numbers#0").forwarded_at, Some(550));
        assert_eq!(subtask(&phases, 1, "sum#0").forwarded_at, Some(570));
        assert_eq!(
            subtask(&phases, 1, "out#0").forwarded_at,
            None,
            "a sink forwards nothing"
        );
    }

    /// barrier-alignment's first checkpoint: `merge` blocks its numbers input at 505
    /// and forwards the barrier when the letters barrier completes the alignment at
    /// 550 — 45 ms of alignment.
    #[test]
    fn two_inputs_align_then_forward_at_the_last_barrier() {
        let (phases, _) = run("barrier-alignment");
        let merge = subtask(&phases, 1, "merge#0");
        assert!(!merge.source && !merge.unaligned);
        assert_eq!(merge.first_barrier_at, Some(505));
        assert_eq!(merge.alignment_end_at, Some(550));
        assert_eq!(merge.forwarded_at, Some(550));
        assert_eq!(
            (merge.start_delay_ms(), merge.alignment_ms()),
            (Some(5), Some(45))
        );
        assert_eq!((merge.sync_ms(), merge.async_ms()), (Some(0), Some(0)));
        for source in ["numbers#0", "letters#0"] {
            let s = subtask(&phases, 1, source);
            assert_eq!((s.start_delay_ms(), s.alignment_ms()), (Some(0), Some(0)));
            assert_eq!(s.forwarded_at, Some(500), "{source} injects at the trigger");
        }
    }

    /// unaligned-backpressure's first checkpoint: `out` snapshots at its first
    /// barrier (1015) and acknowledges when its other channel's barrier is in (1020):
    /// the 5 ms alignment runs beside the asynchronous phase.
    #[test]
    fn unaligned_snapshots_at_the_first_barrier_and_aligns_meanwhile() {
        let (phases, _) = run("unaligned-backpressure");
        let out = subtask(&phases, 1, "out#0");
        assert!(out.unaligned);
        assert_eq!(out.started_at(), Some(1015));
        assert_eq!(
            (out.snapshot_at, out.alignment_end_at),
            (Some(1015), Some(1020))
        );
        assert_eq!(
            (out.start_delay_ms(), out.alignment_ms()),
            (Some(15), Some(5))
        );
        assert_eq!((out.sync_ms(), out.async_ms()), (Some(0), Some(5)));
        let source = subtask(&phases, 1, "events#0");
        assert_eq!(
            (source.alignment_ms(), source.forwarded_at),
            (Some(0), Some(1000))
        );
        let sum = subtask(&phases, 1, "slow-sum#1");
        assert_eq!(
            (sum.start_delay_ms(), sum.forwarded_at),
            (Some(15), Some(1015))
        );
    }

    /// barrier-alignment's first checkpoint read at 520, while `merge` aligns: its
    /// first barrier (505) is known before its snapshot, its alignment runs on, and
    /// the checkpoint is marked as read at 520; read once it has ended, it is the
    /// history's.
    #[test]
    fn a_pending_checkpoint_shows_the_first_barrier_of_a_subtask_still_aligning() {
        let s = runner::load("barrier-alignment").unwrap();
        let mut w = World::new(&s, s.seed).unwrap();
        w.run_until(520, |_| {});
        let v = w.view();
        let job = w.job_view();
        let h = &v.coordinator.history[0];
        assert_eq!(h.status, CheckpointStatus::InProgress);
        let merge = w.task_id("merge#0").unwrap();
        assert_eq!(
            h.subtasks[&merge].first_barrier_at, None,
            "not in the statistics yet"
        );
        let p = checkpoint_phases_at(h, &job, &v.tasks, v.now);
        assert_eq!(p.now, Some(v.now));
        let m = p.subtasks.iter().find(|s| s.task == merge).unwrap();
        assert_eq!((m.first_barrier_at, m.alignment_end_at), (Some(505), None));
        assert_eq!((m.start_delay_ms(), m.alignment_ms()), (Some(5), None));
        w.run_until(5_000, |_| {});
        let v = w.view();
        let ended = checkpoint_phases_at(&v.coordinator.history[0], &job, &v.tasks, v.now);
        assert_eq!(ended, checkpoint_phases(&v.coordinator.history[0], &job));
        assert_eq!(ended.now, None);
    }

    /// exactly-once-kafka uploads for `async_ms` = 100: each acknowledgement comes
    /// 100 ms after the snapshot, and `count` goes on processing records meanwhile.
    #[test]
    fn the_async_phase_lasts_async_ms_while_records_flow() {
        let (phases, events) = run("exactly-once-kafka");
        let acked: Vec<&SubtaskPhases> = phases
            .iter()
            .flat_map(|p| &p.subtasks)
            .filter(|s| s.ack_at.is_some() && !s.finished())
            .collect();
        assert!(!acked.is_empty());
        for s in acked {
            assert_eq!(s.async_ms(), Some(100), "{s:?}");
        }
        let count = subtask(&phases, 1, "count#0");
        assert_eq!((count.snapshot_at, count.ack_at), (Some(510), Some(610)));
        let is = |e: &TraceEvent, f: fn(&Event) -> Option<(&TaskName, CheckpointId)>| {
            f(&e.event).is_some_and(|(t, c)| &**t == "count#0" && c == CheckpointId(1))
        };
        let snap = events
            .iter()
            .position(|e| {
                is(e, |e| match e {
                    Event::SnapshotTaken {
                        task, checkpoint, ..
                    } => Some((task, *checkpoint)),
                    _ => None,
                })
            })
            .unwrap();
        let ack = events
            .iter()
            .position(|e| {
                is(e, |e| match e {
                    Event::CheckpointAcknowledged { task, checkpoint } => Some((task, *checkpoint)),
                    _ => None,
                })
            })
            .unwrap();
        let processed = events[snap..ack]
            .iter()
            .filter(
                |e| matches!(&e.event, Event::RecordProcessed { task, .. } if &**task == "count#0"),
            )
            .count();
        assert!(
            processed > 0,
            "no record processed during the asynchronous phase"
        );
    }
}
