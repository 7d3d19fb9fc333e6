//! One run of a scenario and its branches: the engine's timeline of keyframes
//! (in segments, one per intervention), and what was learnt while advancing its
//! head — the event log, the scrubber's markers, the key moments, the highlights.
//!
//! # Branches
//! An intervention while the cursor is behind the head continues from the changed
//! world (a new [`Segment`], whose first keyframe is that world: the engine's
//! [`Timeline`] has no fork of its own). The future it replaced is kept as a
//! branch ([`BranchInfo`], up to [`MAX_BRANCHES`]); [`Run::switch_branch`] makes
//! a kept branch current at the same simulated time and keeps the current one in
//! its place, so a class can compare "with the crash" and "without it".

use std::collections::BTreeSet;
use std::fmt;

use engine::runner::OptionError;
use engine::runner::DEFAULT_LIMIT_MS;
use engine::scenario::points::{Point, PointEvent, PointTracker};
use engine::scenario::Scenario;
use engine::trace::{Event, TraceEvent};
use engine::verdict::Reference;
use engine::view::JobView;
use engine::Timeline;
use engine::{Intervention, InterventionError, ScenarioError, World};

use std::rc::Rc;

/// Keyframe spacing and count of each [`Timeline`].
const KEYFRAME_EVERY: u64 = 200;
const MAX_KEYFRAMES: usize = 64;
/// The head is never advanced beyond this many steps (memory bound).
const MAX_STEPS: u64 = 400_000;
/// The head is kept this far (simulated ms) ahead of the cursor, so the scrubber
/// reaches a little into the future (and playback knows how far the next
/// highlight is, to hurry through a quiet stretch).
pub const LOOKAHEAD_MS: u64 = 4_000;
/// At most this many head steps per action (keeps a frame short).
pub const HEAD_BUDGET: usize = 20_000;

/// One event of the log, with the step after which it had happened.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedEvent {
    /// The cursor step at which this event is visible (inclusive).
    pub step: u64,
    /// Position in the log (a stable key for lists).
    pub seq: u64,
    /// The event.
    pub event: TraceEvent,
}

/// What the scrubber marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerKind {
    /// A checkpoint (or savepoint) completed.
    Completed,
    /// A checkpoint was aborted.
    Aborted,
    /// A subtask failed.
    Failure,
}

/// A mark on the scrubber; clicking it jumps to `step`.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// Its kind.
    pub kind: MarkerKind,
    /// Simulated time.
    pub at: u64,
    /// The step to jump to.
    pub step: u64,
    /// Checkpoint id, for checkpoint markers.
    pub checkpoint: Option<u64>,
    /// The failed task, for failures.
    pub task: Option<String>,
}

/// The moments a lesson turns on: where auto-pause stops and PageDown / PageUp
/// (a presentation clicker) jump to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MomentKind {
    /// A barrier blocks an input channel (aligned checkpoint).
    Blocked,
    /// A subtask took its snapshot (the first one of each checkpoint).
    Snapshot,
    /// A checkpoint (or savepoint) completed.
    Completed,
    /// A subtask or the JobManager crashed.
    Crash,
    /// Subtasks restored their state after a restart.
    Restore,
    /// A two-phase-commit sink committed.
    Commit,
    /// One of the lesson's declared points (the scenario's `points`), found by
    /// the engine's [`PointTracker`].
    Point(PointEvent),
}

impl MomentKind {
    /// The kind of key moment `event` is, and what makes it one moment rather
    /// than several: the checkpoint id where one exists (every subtask's snapshot
    /// of checkpoint 2 is one "snapshot" moment), else the simulated time `t`.
    pub fn of(event: &Event, t: u64) -> Option<(MomentKind, u64)> {
        Some(match event {
            Event::ChannelBlocked { checkpoint, .. } => (MomentKind::Blocked, checkpoint.0),
            Event::SnapshotTaken { checkpoint, .. } => (MomentKind::Snapshot, checkpoint.0),
            Event::CheckpointCompleted { checkpoint } => (MomentKind::Completed, checkpoint.0),
            Event::TaskFailed { .. } | Event::JobmanagerFailed { .. } => (MomentKind::Crash, t),
            Event::StateRestored { .. } => (MomentKind::Restore, t),
            Event::TransactionCommitted { checkpoint, .. } => {
                (MomentKind::Commit, checkpoint.map_or(t, |c| c.0))
            }
            _ => return None,
        })
    }

    /// Whether a moment of this kind already says what the declared point
    /// `event` is (a crash moment is a `task_failed` point).
    pub fn covers(self, event: PointEvent) -> bool {
        match self {
            MomentKind::Point(p) => p == event,
            MomentKind::Completed => event == PointEvent::CheckpointCompleted,
            // The crash's step is where the job fails over, or fails for good.
            MomentKind::Crash => matches!(
                event,
                PointEvent::TaskFailed
                    | PointEvent::JobmanagerFailed
                    | PointEvent::Failover
                    | PointEvent::JobFailed
            ),
            MomentKind::Restore => event == PointEvent::StateRestored,
            MomentKind::Commit => event == PointEvent::TransactionCommitted,
            MomentKind::Blocked | MomentKind::Snapshot => false,
        }
    }

    /// A stable key (ui.json's `moment_<key>`, `data-moment`).
    pub fn key(self) -> &'static str {
        match self {
            MomentKind::Blocked => "blocked",
            MomentKind::Snapshot => "snapshot",
            MomentKind::Completed => "completed",
            MomentKind::Crash => "crash",
            MomentKind::Restore => "restore",
            MomentKind::Commit => "commit",
            MomentKind::Point(event) => event.key(),
        }
    }
}

/// A key moment of the run: the step after which it has happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyMoment {
    /// What happened.
    pub kind: MomentKind,
    /// The cursor step that shows it.
    pub step: u64,
    /// Simulated time.
    pub at: u64,
}

/// Moments worth a short pause while playing (so a blocked channel or a
/// persisted-records flash that lasts one simulated millisecond is seen), and
/// what "skip quiet stretches" hurries towards.
pub fn is_highlight(event: &Event) -> bool {
    matches!(
        event,
        Event::CheckpointTriggered { .. }
            | Event::ChannelBlocked { .. }
            | Event::BarrierOvertook { .. }
            | Event::AlignmentTimedOut { .. }
            | Event::CheckpointCompleted { .. }
            | Event::CheckpointAborted { .. }
            | Event::TaskFailed { .. }
            | Event::JobRestarting { .. }
            | Event::TransactionPrecommitted { .. }
            | Event::TransactionCommitted { .. }
    )
}

/// A stretch of the current branch that starts with an intervention (or the start).
#[derive(Clone)]
struct Segment {
    start: u64,
    timeline: Timeline,
}

/// Branches kept besides the current one (the oldest is dropped beyond this).
pub const MAX_BRANCHES: usize = 6;

/// What the branch picker shows of a kept branch.
#[derive(Clone, Debug, PartialEq)]
pub struct BranchInfo {
    /// Simulated time of the fork.
    pub at: u64,
    /// The intervention made at the fork.
    pub intervention: Intervention,
    /// This branch has the intervention (false: it is the future that went on
    /// without it).
    pub has_intervention: bool,
}

/// What a branch learnt from its events, in step order. Every list is
/// append-only while the head advances; a fork truncates it at the fork's step.
#[derive(Clone, Default)]
struct Journal {
    log: Vec<LoggedEvent>,
    next_seq: u64,
    markers: Vec<Marker>,
    moments: Vec<KeyMoment>,
    /// `(kind, checkpoint or time)` of every key moment in `moments`: a second
    /// subtask's snapshot of the same checkpoint is not a new moment.
    seen: BTreeSet<(MomentKind, u64)>,
    /// `(step, time)` of the steps with an [`is_highlight`] event.
    highlights: Vec<(u64, u64)>,
    /// The lesson's points expected in the run's mode, and how far the log has
    /// come towards each.
    points: Vec<Point>,
    tracker: PointTracker,
}

impl Journal {
    fn push(&mut self, step: u64, events: Vec<TraceEvent>) {
        for event in events {
            let marker = match &event.event {
                Event::CheckpointCompleted { checkpoint } => {
                    Some((MarkerKind::Completed, Some(checkpoint.0), None))
                }
                Event::CheckpointAborted { checkpoint, .. } => {
                    Some((MarkerKind::Aborted, Some(checkpoint.0), None))
                }
                Event::TaskFailed { task, .. } => {
                    Some((MarkerKind::Failure, None, Some(task.to_string())))
                }
                // The JobManager's crash is a failure of the job's coordinator:
                // the class jumps to it as to a subtask's.
                Event::JobmanagerFailed { .. } => {
                    Some((MarkerKind::Failure, None, Some("JobManager".to_string())))
                }
                _ => None,
            };
            if let Some((kind, checkpoint, task)) = marker {
                self.markers.push(Marker {
                    kind,
                    at: event.t,
                    step,
                    checkpoint,
                    task,
                });
            }
            if let Some((kind, group)) = MomentKind::of(&event.event, event.t) {
                // After a declared point in this step the page stops on the
                // point: the step's later events make no moment of their own.
                let after_point = self
                    .moments
                    .last()
                    .is_some_and(|m| m.step == step && matches!(m.kind, MomentKind::Point(_)));
                if self.seen.insert((kind, group)) && !after_point {
                    self.moments.push(KeyMoment {
                        kind,
                        step,
                        at: event.t,
                    });
                }
            }
            for i in self.tracker.observe(&self.points, &event) {
                self.point_reached(step, event.t, self.points[i].event);
            }
            if is_highlight(&event.event) && self.highlights.last().map(|h| h.0) != Some(step) {
                self.highlights.push((step, event.t));
            }
            self.log.push(LoggedEvent {
                step,
                seq: self.next_seq,
                event,
            });
            self.next_seq += 1;
        }
    }

    /// A journal that finds `points` as key moments.
    fn with_points(points: Vec<Point>) -> Journal {
        Journal {
            tracker: PointTracker::new(&points),
            points,
            ..Journal::default()
        }
    }

    /// Makes the declared point `event`, reached at `step`, a key moment. The
    /// page stops once per step: a moment already found there that says the
    /// same (a crash for a failed task) or is another point stays; any other
    /// takes the point's name, the one the lesson is about; else a new one.
    fn point_reached(&mut self, step: u64, at: u64, event: PointEvent) {
        let kind = MomentKind::Point(event);
        let first = self.moments.partition_point(|m| m.step < step);
        let here = &mut self.moments[first..];
        if here
            .iter()
            .any(|m| m.kind.covers(event) || matches!(m.kind, MomentKind::Point(_)))
        {
            return;
        }
        match here.first_mut() {
            // The one the caption shows at this step.
            Some(m) => {
                m.kind = kind;
                m.at = at;
            }
            None => self.moments.push(KeyMoment { kind, step, at }),
        }
    }

    /// Forgets everything after `step` (a fork at `step`).
    fn truncate(&mut self, step: u64) {
        self.log.retain(|e| e.step <= step);
        self.markers.retain(|m| m.step <= step);
        self.moments.retain(|m| m.step <= step);
        self.highlights.retain(|h| h.0 <= step);
        self.seen = self
            .log
            .iter()
            .filter_map(|e| MomentKind::of(&e.event.event, e.event.t))
            .collect();
        self.tracker = PointTracker::new(&self.points);
        for e in &self.log {
            self.tracker.observe(&self.points, &e.event);
        }
    }
}

/// A branch that is not the current one: its timeline and journal.
struct SavedBranch {
    info: BranchInfo,
    segments: Vec<Segment>,
    step_times: Vec<u64>,
    journal: Journal,
    ended: bool,
}

/// One run of a scenario: the timeline and everything learnt while advancing it.
pub struct Run {
    /// The built-in scenario's name.
    pub name: String,
    /// The scenario as run (mode switches change its config).
    pub scenario: Scenario,
    /// The seed.
    pub seed: u64,
    /// The job graph.
    pub job: Rc<JobView>,
    /// What the failure-free run of the same scenario and seed commits: the
    /// sink verdicts are judged against it (`None`: that run could not be built).
    pub reference: Option<Rc<Reference>>,
    /// Last simulated millisecond the head may reach.
    pub bound_ms: u64,
    segments: Vec<Segment>,
    /// `step_times[i]`: simulated time after step `i + 1` on this branch.
    step_times: Vec<u64>,
    journal: Journal,
    /// The head can advance no further (job over, bound or step limit reached).
    pub ended: bool,
    /// Other branches: futures an intervention replaced, or that one replaced.
    saved: Vec<SavedBranch>,
    /// Simulated time at step 0: 0, or where the earlier job stopped when the
    /// scenario restores from it.
    pub start_ms: u64,
}

/// Why a run cannot start or fork, in the engine's own words (which name the
/// field, the option or the subtask).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The scenario (a built-in's name or a document) is not valid, or its
    /// job cannot be built.
    Scenario(ScenarioError),
    /// The checkpointing mode chosen does not apply to the scenario.
    Mode(OptionError),
    /// The intervention does not apply to the world at the cursor.
    Intervention(InterventionError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Scenario(e) => write!(f, "{e}"),
            RunError::Mode(e) => write!(f, "{e}"),
            RunError::Intervention(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RunError {}

impl Run {
    /// Builds a run of `scenario` with `seed`; an invalid scenario is an error naming its field.
    pub fn new(name: &str, scenario: Scenario, seed: u64) -> Result<Run, RunError> {
        let mut world = World::new(&scenario, seed).map_err(RunError::Scenario)?;
        world.set_tracing(true);
        let job = Rc::new(world.job_view());
        let bound_ms = scenario.until_ms.unwrap_or(DEFAULT_LIMIT_MS);
        let start_ms = world.now();
        let reference = Reference::failure_free(&scenario, seed).ok().map(Rc::new);
        let points = scenario
            .points_expected()
            .into_iter()
            .map(|(_, p)| p.clone())
            .collect();
        Ok(Run {
            start_ms,
            reference,
            name: name.to_string(),
            scenario,
            seed,
            job,
            bound_ms,
            segments: vec![Segment {
                start: 0,
                timeline: Timeline::new(world, KEYFRAME_EVERY, MAX_KEYFRAMES),
            }],
            step_times: Vec::new(),
            journal: Journal::with_points(points),
            ended: false,
            saved: Vec::new(),
        })
    }

    /// The world at the head of the current branch.
    pub fn head(&self) -> &World {
        self.segments
            .last()
            .expect("a run has a segment")
            .timeline
            .head()
    }

    /// Steps taken by the head.
    pub fn head_steps(&self) -> u64 {
        self.head().steps()
    }

    /// Simulated time of the head.
    pub fn head_now(&self) -> u64 {
        self.head().now()
    }

    /// Checkpoint and failure markers found so far.
    pub fn markers(&self) -> &[Marker] {
        &self.journal.markers
    }

    /// Key moments found so far, in step order.
    pub fn moments(&self) -> &[KeyMoment] {
        &self.journal.moments
    }

    /// The key moment shown at exactly `step`, if any.
    pub fn moment_at(&self, step: u64) -> Option<KeyMoment> {
        let m = &self.journal.moments;
        let i = m.partition_point(|k| k.step < step);
        m.get(i).filter(|k| k.step == step).copied()
    }

    /// Simulated time of the first highlight after `step`, among those found.
    pub fn next_highlight_at(&self, step: u64) -> Option<u64> {
        let h = &self.journal.highlights;
        h.get(h.partition_point(|&(s, _)| s <= step))
            .map(|&(_, t)| t)
    }

    /// Every logged event (up to the head).
    pub fn log(&self) -> &[LoggedEvent] {
        &self.journal.log
    }

    /// Advances the head one step; false when it cannot.
    pub fn advance_head(&mut self) -> bool {
        if self.ended {
            return false;
        }
        let bound = self.bound_ms;
        let head = self.head();
        if head.steps() >= MAX_STEPS || head.next_at().is_none_or(|t| t > bound) {
            self.ended = true;
            return false;
        }
        let timeline = &mut self.segments.last_mut().expect("a segment").timeline;
        if !timeline.advance() {
            self.ended = true;
            return false;
        }
        let head = timeline.head();
        let (step, now, events) = (head.steps(), head.now(), head.last_events().to_vec());
        self.step_times.push(now);
        self.journal.push(step, events);
        true
    }

    /// Advances the head until it is `LOOKAHEAD_MS` past `at`, within the budget.
    pub fn look_ahead(&mut self, at: u64) {
        let mut budget = HEAD_BUDGET;
        while budget > 0 && self.head_now() < at.saturating_add(LOOKAHEAD_MS) && self.advance_head()
        {
            budget -= 1;
        }
    }

    /// Advances the head through every step due at or before `t` (more than one
    /// step may fall on `t` itself), within `budget` steps.
    pub fn advance_head_through(&mut self, t: u64, mut budget: usize) {
        while self.head().next_at().is_some_and(|at| at <= t) && budget > 0 && self.advance_head() {
            budget -= 1;
        }
    }

    /// The segment that holds `step`.
    pub fn segment_for(&self, step: u64) -> usize {
        self.segments
            .iter()
            .rposition(|s| s.start <= step)
            .unwrap_or(0)
    }

    /// The world after `step` steps of this branch (clamped to the head).
    pub fn seek(&self, step: u64) -> World {
        let i = self.segment_for(step);
        self.segments[i].timeline.seek(step)
    }

    /// Steps of this branch whose time is at most `t`.
    pub fn steps_until(&self, t: u64) -> u64 {
        self.step_times.partition_point(|&x| x <= t) as u64
    }

    /// The kept branches, oldest first.
    pub fn branches(&self) -> Vec<BranchInfo> {
        self.saved.iter().map(|b| b.info.clone()).collect()
    }

    /// Whether the kept branches are those `infos` describes.
    pub fn has_branches(&self, infos: &[BranchInfo]) -> bool {
        infos.len() == self.saved.len() && infos.iter().zip(&self.saved).all(|(a, b)| *a == b.info)
    }

    /// Makes kept branch `i` the current one; the current one is kept in its
    /// place (so switching twice comes back). False when there is no branch `i`.
    pub fn switch_branch(&mut self, i: usize) -> bool {
        let Some(b) = self.saved.get_mut(i) else {
            return false;
        };
        std::mem::swap(&mut self.segments, &mut b.segments);
        std::mem::swap(&mut self.step_times, &mut b.step_times);
        std::mem::swap(&mut self.journal, &mut b.journal);
        std::mem::swap(&mut self.ended, &mut b.ended);
        b.info.has_intervention = !b.info.has_intervention;
        true
    }

    /// Applies `intervention` to `cursor`; the branch's future beyond it is kept
    /// as a branch of its own (up to [`MAX_BRANCHES`]).
    pub fn fork(&mut self, cursor: &World, intervention: Intervention) -> Result<World, RunError> {
        let mut world = cursor.clone();
        world
            .apply(intervention.clone())
            .map_err(RunError::Intervention)?;
        let step = world.steps();
        // Only a future is worth keeping: an intervention at the head replaces nothing.
        if self.head_steps() > cursor.steps() {
            if self.saved.len() == MAX_BRANCHES {
                self.saved.remove(0);
            }
            self.saved.push(SavedBranch {
                info: BranchInfo {
                    at: cursor.now(),
                    intervention,
                    has_intervention: false,
                },
                segments: self.segments.clone(),
                step_times: self.step_times.clone(),
                journal: self.journal.clone(),
                ended: self.ended,
            });
        }
        self.segments.retain(|s| s.start < step);
        self.step_times.truncate(step as usize);
        self.journal.truncate(step);
        let events = world.last_events().to_vec();
        self.journal.push(step, events);
        self.segments.push(Segment {
            start: step,
            timeline: Timeline::new(world.clone(), KEYFRAME_EVERY, MAX_KEYFRAMES),
        });
        self.ended = false;
        Ok(world)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playback::cursor::Cursor;
    use crate::playback::Mode;
    use engine::runner::load;

    /// What is wrong with `run`'s declared points (run to its end): one never
    /// reached, or reached at a step where the page does not stop on it. Also
    /// how many are reached at a step with none of the six computed kinds of
    /// moment (where the page stopped before points were declared).
    fn point_faults(run: &Run, at: &str) -> (Vec<String>, usize, usize) {
        let expected = run.scenario.points_expected();
        let points: Vec<Point> = expected.iter().map(|(_, p)| (*p).clone()).collect();
        let mut tracker = PointTracker::new(&points);
        let mut reached = vec![None; points.len()];
        let mut seen = BTreeSet::new();
        let mut computed_steps = BTreeSet::new();
        for e in run.log() {
            for i in tracker.observe(&points, &e.event) {
                reached[i] = Some((e.step, e.event.t));
            }
            if let Some(kind) = MomentKind::of(&e.event.event, e.event.t) {
                if seen.insert(kind) {
                    computed_steps.insert(e.step);
                }
            }
        }
        let mut faults = Vec::new();
        let mut missed_by_computed = 0;
        for (((index, point), reached), p) in expected.iter().zip(reached).zip(&points) {
            let what = format!(
                "{at}: points[{index}] {}",
                serde_json::to_string(p).expect("a point serializes")
            );
            let Some((step, t)) = reached else {
                faults.push(format!("{what} is never reached"));
                continue;
            };
            if !computed_steps.contains(&step) {
                missed_by_computed += 1;
            }
            // The page stops once per step: the point is a moment there, or a
            // moment there says the same (a crash for a failed task), or
            // another point of the same step is.
            let here: Vec<MomentKind> = run
                .moments()
                .iter()
                .filter(|m| m.step == step)
                .map(|m| m.kind)
                .collect();
            if !here
                .iter()
                .any(|k| k.covers(point.event) || matches!(k, MomentKind::Point(_)))
            {
                faults.push(format!(
                    "{what}, reached at {t} ms (step {step}), is not a key moment (there: {here:?})"
                ));
            }
        }
        (faults, points.len(), missed_by_computed)
    }

    /// Every lesson in every mode: each declared point expected in that mode is
    /// reached by the run, and auto-pause and PageDown stop there (the key
    /// moment at its step is a point).
    #[test]
    fn every_declared_point_is_a_key_moment() {
        let (mut faults, mut points, mut missed, mut runs) = (Vec::new(), 0, 0, 0);
        for (name, _) in engine::runner::BUILTINS {
            for mode in Mode::CHOICES {
                let mut cursor = Cursor::load(name, None, Some(mode))
                    .unwrap_or_else(|e| panic!("{name} {}: {e}", mode.key()));
                while cursor.run.advance_head() {}
                let (f, n, m) = point_faults(&cursor.run, &format!("{name} {}", mode.key()));
                faults.extend(f);
                points += n;
                missed += m;
                runs += 1;
            }
        }
        eprintln!(
            "{points} declared points over {runs} runs; {missed} of them at a step with no computed key moment"
        );
        assert!(
            points >= 200,
            "only {points} points expected over {runs} runs"
        );
        assert!(faults.is_empty(), "{}", faults.join("\n"));
    }

    fn run(name: &str) -> Run {
        let s = load(name).unwrap();
        let seed = s.seed;
        let mut r = Run::new(name, s, seed).unwrap();
        while r.head_now() < 3_000 && r.advance_head() {}
        r
    }

    /// Key moments of the default lesson, in order: one snapshot moment per
    /// checkpoint (not one per subtask), the completion, the commit, the crash
    /// and the restore.
    #[test]
    fn key_moments_are_one_per_checkpoint_and_kind() {
        let r = run("odd-even-sum");
        let kinds: Vec<MomentKind> = r.moments().iter().map(|m| m.kind).collect();
        let first = |k: MomentKind| kinds.iter().position(|x| *x == k).unwrap_or(usize::MAX);
        assert!(
            first(MomentKind::Snapshot) < first(MomentKind::Completed),
            "{kinds:?}"
        );
        assert!(
            first(MomentKind::Completed) < first(MomentKind::Commit),
            "{kinds:?}"
        );
        assert!(
            first(MomentKind::Commit) < first(MomentKind::Crash),
            "{kinds:?}"
        );
        assert!(
            first(MomentKind::Crash) < first(MomentKind::Restore),
            "{kinds:?}"
        );
        let snapshots_of_1 = r
            .log()
            .iter()
            .filter(|e| matches!(&e.event.event, Event::SnapshotTaken { checkpoint, .. } if checkpoint.0 == 1))
            .count();
        assert!(snapshots_of_1 > 1, "every subtask snapshots checkpoint 1");
        assert_eq!(
            r.moments()
                .iter()
                .filter(|m| m.kind == MomentKind::Snapshot)
                .count(),
            r.markers()
                .iter()
                .filter(|m| m.kind == MarkerKind::Completed)
                .count()
                .max(1),
            "one snapshot moment per completed checkpoint"
        );
        assert!(r.moments().windows(2).all(|w| w[0].step <= w[1].step));
        let m = r.moments()[0];
        assert_eq!(r.moment_at(m.step), Some(m));
        assert_eq!(r.moment_at(0), None, "nothing has happened at step 0");
    }

    /// A fork forgets the moments after it and finds the new future's own.
    #[test]
    fn a_fork_truncates_the_journal() {
        let mut r = run("odd-even-sum");
        let at = r.steps_until(300);
        let cursor = r.seek(at);
        let before: Vec<KeyMoment> = r
            .moments()
            .iter()
            .filter(|m| m.step <= at)
            .copied()
            .collect();
        r.fork(
            &cursor,
            Intervention::Crash {
                task: "sum#0".into(),
            },
        )
        .unwrap();
        assert_eq!(r.moments().last().map(|m| m.kind), Some(MomentKind::Crash));
        assert_eq!(&r.moments()[..before.len()], &before[..]);
        assert_eq!(r.branches().len(), 1);
    }
}
