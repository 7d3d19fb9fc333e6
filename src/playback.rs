//! Playback: the one reducer that owns the simulation.
//!
//! [`State`] holds the engine's [`World`] at the cursor and the [`Run`] (the
//! timeline of keyframes, the event log, the step clock). Components never see a
//! `World`: they get [`State::view`] (an `Rc<WorldView>`), [`Run::job`] and the
//! display time, and send [`Action`]s.
//!
//! # Time
//! The cursor is an engine step count. Between two steps the display time
//! [`State::display_t`] moves smoothly (while playing) so records glide along their
//! channels; the scene computes positions from it, so scrubbing costs nothing.
//!
//! # Branches
//! An intervention while the cursor is behind the head continues from the changed
//! world (a new [`Segment`], whose first keyframe is that world: the engine's
//! [`Timeline`] has no fork of its own). The future it replaced is kept as a
//! branch ([`BranchInfo`], up to [`MAX_BRANCHES`]); [`Action::SwitchBranch`] makes
//! a kept branch current at the same simulated time and keeps the current one in
//! its place, so a class can compare "with the crash" and "without it".
//!
//! No `web_sys` here: everything is unit-tested natively.

use std::cell::RefCell;
use std::rc::Rc;

use engine::event::{Event, TraceEvent};
use engine::runner::{self, ModeOverride, BUILTINS, DEFAULT_LIMIT_MS};
use engine::scenario::{CheckpointingMode, Scenario};
use engine::timeline::Timeline;
use engine::view::{JobView, WorldView};
use engine::{Intervention, World};
use yew::Reducible;

/// Playback speeds offered (multiples of [`SIM_MS_PER_SECOND`]).
pub const SPEEDS: [f64; 7] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];
/// Simulated milliseconds per real second at 1×: slow enough that a 10 ms channel
/// hop is visible (0.2 s) on a projector.
pub const SIM_MS_PER_SECOND: f64 = 50.0;
/// The built-in scenario shown first.
pub const DEFAULT_SCENARIO: &str = "odd-even-sum";
/// Keyframe spacing and count of each [`Timeline`].
const KEYFRAME_EVERY: u64 = 200;
const MAX_KEYFRAMES: usize = 64;
/// The head is never advanced beyond this many steps (memory bound).
const MAX_STEPS: u64 = 400_000;
/// The head is kept this far (simulated ms) ahead of the cursor, so the scrubber
/// reaches a little into the future.
const LOOKAHEAD_MS: u64 = 4_000;
/// At most this many head steps per action (keeps a frame short).
const HEAD_BUDGET: usize = 20_000;
/// A step forward skips at most this many silent steps looking for an event.
const MAX_SILENT_STEPS: usize = 50_000;
/// Real milliseconds playback dwells on a highlight at 1× (divided by the speed).
pub const DWELL_MS: f64 = 400.0;
/// Events kept for the narration panel and the event log.
const RECENT: usize = 400;

/// The checkpointing mode the toolbar switches between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Exactly-once with barrier alignment.
    Aligned,
    /// Exactly-once, unaligned checkpoints.
    Unaligned,
    /// At-least-once (barrier tracker, no alignment).
    AtLeastOnce,
    /// The scenario has no checkpointing section.
    Off,
}

impl Mode {
    /// The modes a user can choose.
    pub const CHOICES: [Mode; 3] = [Mode::Aligned, Mode::Unaligned, Mode::AtLeastOnce];

    /// The mode a scenario is configured with.
    pub fn of(scenario: &Scenario) -> Mode {
        match &scenario.checkpointing {
            None => Mode::Off,
            Some(c) if c.mode == CheckpointingMode::AtLeastOnce => Mode::AtLeastOnce,
            Some(c) if c.unaligned => Mode::Unaligned,
            Some(_) => Mode::Aligned,
        }
    }

    /// A stable key (`<option value>`, test selectors).
    pub fn key(self) -> &'static str {
        match self {
            Mode::Aligned => "aligned",
            Mode::Unaligned => "unaligned",
            Mode::AtLeastOnce => "at-least-once",
            Mode::Off => "off",
        }
    }

    /// The mode named `key`.
    pub fn from_key(key: &str) -> Option<Mode> {
        [Mode::Aligned, Mode::Unaligned, Mode::AtLeastOnce, Mode::Off]
            .into_iter()
            .find(|m| m.key() == key)
    }

    /// The mode a twin view runs beside this one: aligned and unaligned face
    /// each other; at-least-once is compared with aligned exactly-once.
    pub fn twin(self) -> Mode {
        match self {
            Mode::Aligned => Mode::Unaligned,
            Mode::Unaligned | Mode::AtLeastOnce => Mode::Aligned,
            Mode::Off => Mode::Off,
        }
    }

    fn as_override(self) -> Option<ModeOverride> {
        match self {
            Mode::Aligned => Some(ModeOverride::Aligned),
            Mode::Unaligned => Some(ModeOverride::Unaligned),
            Mode::AtLeastOnce => Some(ModeOverride::AtLeastOnce),
            Mode::Off => None,
        }
    }
}

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

/// A branch that is not the current one: its timeline, log and markers.
struct SavedBranch {
    info: BranchInfo,
    segments: Vec<Segment>,
    step_times: Vec<u64>,
    log: Vec<LoggedEvent>,
    next_seq: u64,
    markers: Vec<Marker>,
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
    /// Last simulated millisecond the head may reach.
    pub bound_ms: u64,
    segments: Vec<Segment>,
    /// `step_times[i]`: simulated time after step `i + 1` on this branch.
    step_times: Vec<u64>,
    log: Vec<LoggedEvent>,
    next_seq: u64,
    markers: Vec<Marker>,
    /// The head can advance no further (job over, bound or step limit reached).
    pub ended: bool,
    /// Other branches: futures an intervention replaced, or that one replaced.
    saved: Vec<SavedBranch>,
    /// Simulated time at step 0: 0, or where the earlier job stopped when the
    /// scenario restores from it.
    pub start_ms: u64,
}

impl Run {
    /// Builds a run of `scenario` with `seed`; an invalid scenario is an error message.
    pub fn new(name: &str, scenario: Scenario, seed: u64) -> Result<Run, String> {
        let mut world = World::new(&scenario, seed).map_err(|e| e.to_string())?;
        world.set_tracing(true);
        let job = Rc::new(world.job_view());
        let bound_ms = scenario.until_ms.unwrap_or(DEFAULT_LIMIT_MS);
        let start_ms = world.now();
        Ok(Run {
            start_ms,
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
            log: Vec::new(),
            next_seq: 0,
            markers: Vec::new(),
            ended: false,
            saved: Vec::new(),
        })
    }

    fn head(&self) -> &World {
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
        &self.markers
    }

    /// Every logged event (up to the head).
    pub fn log(&self) -> &[LoggedEvent] {
        &self.log
    }

    fn push_events(&mut self, step: u64, events: Vec<TraceEvent>) {
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
            self.log.push(LoggedEvent {
                step,
                seq: self.next_seq,
                event,
            });
            self.next_seq += 1;
        }
    }

    /// Advances the head one step; false when it cannot.
    fn advance_head(&mut self) -> bool {
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
        self.push_events(step, events);
        true
    }

    /// Advances the head until it is `LOOKAHEAD_MS` past `at`, within the budget.
    fn look_ahead(&mut self, at: u64) {
        let mut budget = HEAD_BUDGET;
        while budget > 0 && self.head_now() < at.saturating_add(LOOKAHEAD_MS) && self.advance_head()
        {
            budget -= 1;
        }
    }

    fn segment_for(&self, step: u64) -> usize {
        self.segments
            .iter()
            .rposition(|s| s.start <= step)
            .unwrap_or(0)
    }

    /// The world after `step` steps of this branch (clamped to the head).
    fn seek(&self, step: u64) -> World {
        let i = self.segment_for(step);
        self.segments[i].timeline.seek(step)
    }

    /// Steps of this branch whose time is at most `t`.
    fn steps_until(&self, t: u64) -> u64 {
        self.step_times.partition_point(|&x| x <= t) as u64
    }

    /// The kept branches, oldest first.
    pub fn branches(&self) -> Vec<BranchInfo> {
        self.saved.iter().map(|b| b.info.clone()).collect()
    }

    /// Makes kept branch `i` the current one; the current one is kept in its
    /// place (so switching twice comes back). False when there is no branch `i`.
    fn switch_branch(&mut self, i: usize) -> bool {
        let Some(b) = self.saved.get_mut(i) else {
            return false;
        };
        std::mem::swap(&mut self.segments, &mut b.segments);
        std::mem::swap(&mut self.step_times, &mut b.step_times);
        std::mem::swap(&mut self.log, &mut b.log);
        std::mem::swap(&mut self.next_seq, &mut b.next_seq);
        std::mem::swap(&mut self.markers, &mut b.markers);
        std::mem::swap(&mut self.ended, &mut b.ended);
        b.info.has_intervention = !b.info.has_intervention;
        true
    }

    /// Applies `intervention` to `cursor`; the branch's future beyond it is kept
    /// as a branch of its own (up to [`MAX_BRANCHES`]).
    fn fork(&mut self, cursor: &World, intervention: Intervention) -> Result<World, String> {
        let mut world = cursor.clone();
        world.apply(intervention.clone())?;
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
                log: self.log.clone(),
                next_seq: self.next_seq,
                markers: self.markers.clone(),
                ended: self.ended,
            });
        }
        self.segments.retain(|s| s.start < step);
        self.step_times.truncate(step as usize);
        self.log.retain(|e| e.step <= step);
        self.markers.retain(|m| m.step <= step);
        let events = world.last_events().to_vec();
        self.push_events(step, events);
        self.segments.push(Segment {
            start: step,
            timeline: Timeline::new(world.clone(), KEYFRAME_EVERY, MAX_KEYFRAMES),
        });
        self.ended = false;
        Ok(world)
    }
}

/// The engine side of the state: mutated in place by the reducer, never seen by
/// components.
pub struct Engine {
    /// The run.
    pub run: Run,
    /// The world at the cursor.
    pub cursor: World,
    /// The cursor's last step had a [`is_highlight`] event.
    last_highlight: bool,
}

/// Moments worth a short pause while playing (so a blocked channel or a
/// persisted-records flash that lasts one simulated millisecond is seen).
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

impl Engine {
    /// A fresh engine for a built-in scenario name (or scenario JSON).
    pub fn load(name: &str, seed: Option<u64>, mode: Option<Mode>) -> Result<Engine, String> {
        let mut scenario = runner::load(name).map_err(|e| e.to_string())?;
        if let Some(over) = mode.and_then(Mode::as_override) {
            let opts = runner::RunOptions {
                mode: Some(over),
                ..Default::default()
            };
            runner::apply_options(&mut scenario, &opts)?;
        }
        let seed = seed.unwrap_or(scenario.seed);
        let name = if runner::builtin(name).is_some() {
            name.to_string()
        } else {
            scenario.name.clone()
        };
        let run = Run::new(&name, scenario, seed)?;
        let cursor = run.seek(0);
        let mut engine = Engine {
            run,
            cursor,
            last_highlight: false,
        };
        engine.run.look_ahead(0);
        Ok(engine)
    }

    /// Steps the cursor once, advancing the head when needed.
    fn step_cursor(&mut self) -> bool {
        self.last_highlight = false;
        if self.cursor.steps() >= self.run.head_steps() && !self.run.advance_head() {
            return false;
        }
        let before = self.run.segment_for(self.cursor.steps());
        match self.cursor.step() {
            None => return false,
            Some(events) => self.last_highlight = events.iter().any(|e| is_highlight(&e.event)),
        }
        let step = self.cursor.steps();
        if self.run.segment_for(step) != before {
            self.cursor = self.run.seek(step);
        }
        true
    }

    /// Time of the cursor's next step, if the run can go on.
    fn next_at(&self) -> Option<u64> {
        if self.cursor.steps() < self.run.head_steps() {
            self.cursor.next_at()
        } else if self.run.ended {
            None
        } else {
            self.cursor.next_at().filter(|&t| t <= self.run.bound_ms)
        }
    }

    fn seek(&mut self, step: u64) {
        let mut budget = HEAD_BUDGET * 4;
        while self.run.head_steps() < step && budget > 0 && self.run.advance_head() {
            budget -= 1;
        }
        self.cursor = self.run.seek(step);
    }
}

/// Everything the page's playback shows; see the module documentation.
pub struct State {
    engine: Option<Rc<RefCell<Engine>>>,
    /// The built-in scenario's name.
    pub scenario: String,
    /// The seed of the run.
    pub seed: u64,
    /// The checkpointing mode of the run.
    pub mode: Mode,
    /// The job graph.
    pub job: Option<Rc<JobView>>,
    /// The world at the cursor.
    pub view: Option<Rc<WorldView>>,
    /// The time the stage draws (between the cursor's step and the next).
    pub display_t: f64,
    /// Playing.
    pub is_playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Real milliseconds left to dwell on a highlight before time runs on.
    pub dwell_ms: f64,
    /// The scrubber's right end (the head's time).
    pub horizon: u64,
    /// The scrubber's left end: the run's time at step 0 (not 0 for a job
    /// restored from an earlier job's savepoint).
    pub origin: u64,
    /// The run cannot go further.
    pub is_at_end: bool,
    /// Markers for the scrubber.
    pub markers: Rc<Vec<Marker>>,
    /// The latest events up to the cursor, oldest first.
    pub recent: Rc<Vec<LoggedEvent>>,
    /// The last error (a bad scenario, an intervention the engine refused).
    pub error: Option<String>,
    /// Branches kept besides the current one.
    pub branches: Rc<Vec<BranchInfo>>,
    /// Bumped on every change; lets components skip work.
    pub revision: u64,
}

/// What can happen to playback.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Play or pause.
    TogglePlay,
    /// Pause.
    Pause,
    /// Animation frame: `dt_ms` of real time passed.
    Tick(f64),
    /// To the end of the next step that has events.
    StepForward,
    /// Back to the previous step that had events.
    StepBack,
    /// Jump to simulated time (the scrubber).
    SeekTime(u64),
    /// Jump to a step (a scrubber marker).
    SeekStep(u64),
    /// Choose a speed (index into [`SPEEDS`]).
    SetSpeed(usize),
    /// Load a built-in scenario with its own seed.
    LoadScenario(String),
    /// Run again with another seed.
    Restart,
    /// Rebuild the run with another checkpointing mode.
    SetMode(Mode),
    /// Load a built-in scenario with exactly this seed and mode (a twin view
    /// mirroring another run); an unknown name is an error message.
    Load {
        /// Built-in scenario name.
        scenario: String,
        /// Seed.
        seed: u64,
        /// Checkpointing mode ([`Mode::Off`]: as the scenario says).
        mode: Mode,
    },
    /// Make kept branch `i` ([`State::branches`]) the current one, at the same time.
    SwitchBranch(usize),
    /// Move the cursor to display time `t` (simulated ms) without dwelling on
    /// highlights: a twin view follows the main run's clock with it.
    Follow(f64),
    /// A crash, a trigger, a savepoint.
    Intervene(Intervention),
    /// Dismiss the error message.
    ClearError,
}

impl State {
    /// The initial state for a scenario name (from the URL), falling back to the
    /// default scenario with a message when it is unknown or invalid.
    pub fn new(scenario: Option<&str>, seed: Option<u64>) -> State {
        let wanted = scenario.unwrap_or(DEFAULT_SCENARIO);
        match Engine::load(wanted, seed, None) {
            Ok(engine) => State::from_engine(engine, None),
            Err(e) => {
                let error = Some(format!("{wanted}: {e}"));
                match Engine::load(DEFAULT_SCENARIO, None, None) {
                    Ok(engine) => State::from_engine(engine, error),
                    Err(e2) => State::empty(Some(format!("{DEFAULT_SCENARIO}: {e2}"))),
                }
            }
        }
    }

    /// A state with no run (a twin view before it is switched on).
    pub fn idle() -> State {
        State::empty(None)
    }

    fn empty(error: Option<String>) -> State {
        State {
            engine: None,
            scenario: String::new(),
            seed: 0,
            mode: Mode::Off,
            job: None,
            view: None,
            display_t: 0.0,
            is_playing: false,
            speed: 2,
            dwell_ms: 0.0,
            horizon: 0,
            origin: 0,
            is_at_end: true,
            markers: Rc::default(),
            recent: Rc::default(),
            error,
            branches: Rc::default(),
            revision: 0,
        }
    }

    fn from_engine(engine: Engine, error: Option<String>) -> State {
        let mut state = State::empty(error);
        state.scenario = engine.run.name.clone();
        state.seed = engine.run.seed;
        state.mode = Mode::of(&engine.run.scenario);
        state.job = Some(engine.run.job.clone());
        state.engine = Some(Rc::new(RefCell::new(engine)));
        state.refresh();
        state
    }

    /// The scenario being run (title, description), if any.
    pub fn with_scenario<R>(&self, f: impl FnOnce(&Scenario) -> R) -> Option<R> {
        self.engine.as_ref().map(|e| f(&e.borrow().run.scenario))
    }

    /// The cursor's step count.
    pub fn step(&self) -> u64 {
        self.view.as_ref().map_or(0, |v| v.steps)
    }

    /// The speed multiplier.
    pub fn speed_factor(&self) -> f64 {
        SPEEDS[self.speed.min(SPEEDS.len() - 1)]
    }

    /// Recomputes everything derived from the engine.
    fn refresh(&mut self) {
        let Some(engine) = self.engine.clone() else {
            return;
        };
        let mut engine = engine.borrow_mut();
        let now = engine.cursor.now();
        engine.run.look_ahead(now);
        let view = engine.cursor.view();
        let step = view.steps;
        // Not clamped to the next item's time (`World::next_at` is exact since a
        // failover drops the old attempt's items; clamping is left for later).
        self.display_t = self.display_t.max(now as f64);
        if engine.next_at().is_none() {
            self.display_t = now as f64;
        }
        self.horizon = engine.run.head_now().max(now);
        self.origin = engine.run.start_ms;
        self.is_at_end = engine.next_at().is_none();
        let log = engine.run.log();
        let end = log.partition_point(|e| e.step <= step);
        let start = end.saturating_sub(RECENT);
        if self.recent.last().map(|e| e.seq) != log[..end].last().map(|e| e.seq)
            || self.recent.len() != end - start
        {
            self.recent = Rc::new(log[start..end].to_vec());
        }
        if self.markers.len() != engine.run.markers().len()
            || self.markers.last() != engine.run.markers().last()
        {
            self.markers = Rc::new(engine.run.markers().to_vec());
        }
        if self.branches.len() != engine.run.saved.len()
            || self
                .branches
                .iter()
                .zip(&engine.run.saved)
                .any(|(a, b)| *a != b.info)
        {
            self.branches = Rc::new(engine.run.branches());
        }
        self.view = Some(Rc::new(view));
        self.revision += 1;
    }

    fn copy(&self) -> State {
        State {
            engine: self.engine.clone(),
            scenario: self.scenario.clone(),
            seed: self.seed,
            mode: self.mode,
            job: self.job.clone(),
            view: self.view.clone(),
            display_t: self.display_t,
            is_playing: self.is_playing,
            speed: self.speed,
            dwell_ms: self.dwell_ms,
            horizon: self.horizon,
            origin: self.origin,
            is_at_end: self.is_at_end,
            markers: self.markers.clone(),
            recent: self.recent.clone(),
            error: self.error.clone(),
            branches: self.branches.clone(),
            revision: self.revision,
        }
    }

    /// The scenario as run, as JSON: what a restart or a mode switch rebuilds from,
    /// so that an imported or edited scenario (not a built-in) survives them.
    fn source(&self) -> String {
        self.with_scenario(|s| serde_json::to_string(s).expect("a scenario serializes"))
            .unwrap_or_else(|| self.scenario.clone())
    }

    fn reload(&self, name: &str, seed: Option<u64>, mode: Option<Mode>) -> State {
        match Engine::load(name, seed, mode) {
            Ok(engine) => {
                let mut next = State::from_engine(engine, None);
                next.speed = self.speed;
                // `State`'s equality is the revision: a new run must not compare equal
                // to the one it replaces, or components keep showing the old one.
                next.revision = self.revision + 1;
                next
            }
            Err(e) => {
                let mut next = self.copy();
                next.error = Some(e);
                next.is_playing = false;
                next.revision += 1;
                next
            }
        }
    }

    /// Applies `action`; never panics, whatever the sequence.
    pub fn apply(&self, action: Action) -> State {
        match action {
            Action::LoadScenario(name) => return self.reload(&name, None, None),
            Action::Restart => {
                if self.engine.is_none() {
                    return self.copy();
                }
                let mode = Some(self.mode).filter(|m| *m != Mode::Off);
                return self.reload(&self.source(), Some(self.seed.wrapping_add(1)), mode);
            }
            Action::SetMode(mode) => {
                if self.engine.is_none() || mode == self.mode || mode == Mode::Off {
                    return self.copy();
                }
                return self.reload(&self.source(), Some(self.seed), Some(mode));
            }
            Action::Load {
                scenario,
                seed,
                mode,
            } => {
                if self.engine.is_some()
                    && scenario == self.scenario
                    && seed == self.seed
                    && (mode == self.mode || mode == Mode::Off)
                {
                    return self.copy();
                }
                return self.reload(
                    &scenario,
                    Some(seed),
                    Some(mode).filter(|m| *m != Mode::Off),
                );
            }
            _ => {}
        }
        let mut next = self.copy();
        let Some(engine_rc) = self.engine.clone() else {
            next.is_playing = false;
            return next;
        };
        {
            let mut engine = engine_rc.borrow_mut();
            match action {
                Action::TogglePlay => {
                    next.dwell_ms = 0.0;
                    next.is_playing = !self.is_playing && !self.is_at_end;
                }
                Action::Pause => next.is_playing = false,
                Action::Tick(dt_ms) => {
                    if !self.is_playing {
                        return next;
                    }
                    let mut dt = if dt_ms.is_finite() {
                        dt_ms.clamp(0.0, 250.0)
                    } else {
                        0.0
                    };
                    // Dwell on the last highlight first.
                    if self.dwell_ms > 0.0 {
                        let left = self.dwell_ms - dt;
                        next.dwell_ms = left.max(0.0);
                        if left > 0.0 {
                            return next;
                        }
                        dt = -left;
                    }
                    let target =
                        self.display_t + dt / 1000.0 * SIM_MS_PER_SECOND * self.speed_factor();
                    let mut budget = HEAD_BUDGET;
                    next.display_t = target;
                    let mut has_stepped = false;
                    while budget > 0 && engine.next_at().is_some_and(|t| (t as f64) <= target) {
                        if !engine.step_cursor() {
                            break;
                        }
                        has_stepped = true;
                        if engine.last_highlight {
                            next.display_t = engine.cursor.now() as f64;
                            next.dwell_ms = DWELL_MS / self.speed_factor();
                            break;
                        }
                        budget -= 1;
                    }
                    if engine.next_at().is_none() {
                        next.is_playing = false;
                    }
                    if !has_stepped {
                        // Only the display time moved: the world, its view, the log
                        // and the markers are those of the previous frame, so the
                        // projection (the costly part of a frame) is not redone.
                        next.revision += 1;
                        return next;
                    }
                }
                Action::StepForward => {
                    next.is_playing = false;
                    let from = engine.cursor.steps();
                    for _ in 0..MAX_SILENT_STEPS {
                        if !engine.step_cursor() {
                            break;
                        }
                        let step = engine.cursor.steps();
                        let log = engine.run.log();
                        let i = log.partition_point(|e| e.step < step);
                        if log.get(i).is_some_and(|e| e.step == step) {
                            break;
                        }
                    }
                    if engine.cursor.steps() != from {
                        next.display_t = engine.cursor.now() as f64;
                    }
                }
                Action::StepBack => {
                    next.is_playing = false;
                    let step = engine.cursor.steps();
                    let log = engine.run.log();
                    let i = log.partition_point(|e| e.step < step);
                    let target = if i == 0 { 0 } else { log[i - 1].step };
                    let target = if target >= step {
                        step.saturating_sub(1)
                    } else {
                        target
                    };
                    engine.seek(target);
                    next.display_t = engine.cursor.now() as f64;
                }
                Action::SeekTime(t) => {
                    // Simulate every step due at or before t (not just until the head's
                    // clock reaches t: more steps may fall on t itself), so a seek and
                    // a twin's Follow to the same t show the same moment.
                    let mut budget = HEAD_BUDGET * 4;
                    while engine.run.head().next_at().is_some_and(|at| at <= t)
                        && budget > 0
                        && engine.run.advance_head()
                    {
                        budget -= 1;
                    }
                    let step = engine.run.steps_until(t);
                    engine.seek(step);
                    next.display_t = (t as f64).max(engine.cursor.now() as f64);
                }
                Action::Follow(t) => {
                    next.is_playing = false;
                    next.dwell_ms = 0.0;
                    let t = if t.is_finite() { t.max(0.0) } else { 0.0 };
                    if t < engine.cursor.now() as f64 {
                        let step = engine.run.steps_until(t as u64);
                        engine.seek(step);
                    } else {
                        let mut budget = HEAD_BUDGET * 4;
                        while budget > 0 && engine.next_at().is_some_and(|at| (at as f64) <= t) {
                            if !engine.step_cursor() {
                                break;
                            }
                            budget -= 1;
                        }
                    }
                    next.display_t = t.max(engine.cursor.now() as f64);
                }
                Action::SwitchBranch(i) => {
                    let t = engine.cursor.now();
                    if engine.run.switch_branch(i) {
                        let mut budget = HEAD_BUDGET * 4;
                        while engine.run.head().next_at().is_some_and(|at| at <= t)
                            && budget > 0
                            && engine.run.advance_head()
                        {
                            budget -= 1;
                        }
                        let step = engine.run.steps_until(t);
                        engine.seek(step);
                        next.display_t = engine.cursor.now() as f64;
                        next.is_playing = false;
                    }
                }
                Action::SeekStep(step) => {
                    engine.seek(step);
                    next.display_t = engine.cursor.now() as f64;
                }
                Action::SetSpeed(i) => next.speed = i.min(SPEEDS.len() - 1),
                Action::Intervene(intervention) => {
                    let cursor = engine.cursor.clone();
                    match engine.run.fork(&cursor, intervention) {
                        Ok(world) => {
                            engine.cursor = world;
                            next.error = None;
                        }
                        Err(e) => next.error = Some(e),
                    }
                    next.display_t = engine.cursor.now() as f64;
                }
                Action::ClearError => next.error = None,
                Action::LoadScenario(_)
                | Action::Restart
                | Action::SetMode(_)
                | Action::Load { .. } => {}
            }
        }
        next.refresh();
        if next.is_at_end {
            next.is_playing = false;
        }
        next
    }
}

impl PartialEq for State {
    fn eq(&self, other: &Self) -> bool {
        self.revision == other.revision
            && self.is_playing == other.is_playing
            && self.speed == other.speed
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        if matches!(action, Action::Tick(_)) && !self.is_playing {
            return self;
        }
        Rc::new(self.apply(action))
    }
}

/// The built-in scenarios: `(name, parsed scenario)`, those that parse. Parsed
/// once per thread: the toolbar asks on every render.
pub fn builtins() -> Rc<Vec<(&'static str, Scenario)>> {
    thread_local! {
        static PARSED: Rc<Vec<(&'static str, Scenario)>> = Rc::new(
            BUILTINS
                .iter()
                .filter_map(|(name, json)| Scenario::from_json(json).ok().map(|s| (*name, s)))
                .collect(),
        );
    }
    PARSED.with(Rc::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(name: &str) -> State {
        let s = State::new(Some(name), None);
        assert!(s.error.is_none(), "{:?}", s.error);
        s
    }

    fn play_until(mut s: State, until: impl Fn(&State) -> bool) -> State {
        s = s.apply(Action::TogglePlay);
        for _ in 0..20_000 {
            if until(&s) || !s.is_playing {
                break;
            }
            s = s.apply(Action::Tick(100.0));
        }
        s
    }

    #[test]
    fn every_builtin_loads_and_plays_to_its_end() {
        for (name, _) in builtins().iter() {
            let mut s = state(name).apply(Action::SetSpeed(SPEEDS.len() - 1));
            s = play_until(s, |_| false);
            assert!(s.is_at_end, "{name} should end");
            assert!(s.view.as_ref().unwrap().now > 0, "{name}");
        }
    }

    /// Stepping forward then back returns the same view (the timeline's seek).
    #[test]
    fn step_forward_and_back_round_trip() {
        let s0 = state("odd-even-sum");
        let v0 = s0.view.clone().unwrap();
        let s1 = s0.apply(Action::StepForward);
        assert!(s1.step() > s0.step());
        assert!(!s1.recent.is_empty(), "a step forward shows an event");
        let s2 = s1.apply(Action::StepForward).apply(Action::StepForward);
        let v2 = s2.view.clone().unwrap();
        let s3 = s2.apply(Action::StepForward).apply(Action::StepBack);
        assert_eq!(*s3.view.clone().unwrap(), *v2);
        let back = s3
            .apply(Action::StepBack)
            .apply(Action::StepBack)
            .apply(Action::StepBack);
        assert_eq!(*back.view.clone().unwrap(), *v0);
        assert!(back.recent.is_empty());
    }

    #[test]
    fn playing_moves_display_time_smoothly() {
        let s = state("odd-even-sum").apply(Action::TogglePlay);
        let a = s.apply(Action::Tick(16.0));
        assert!(a.display_t > s.display_t);
        assert!(
            a.display_t - s.display_t < 1.0,
            "16 ms real ≈ 0.8 ms simulated at 1×"
        );
    }

    /// Playing stops at a highlight and dwells on it: persisted in-flight records
    /// of an unaligned checkpoint, a flash within one simulated millisecond, stay
    /// on screen for a while, even at 16×.
    #[test]
    fn playing_dwells_on_highlights() {
        let mut s = state("unaligned-backpressure")
            .apply(Action::SetSpeed(SPEEDS.len() - 1))
            .apply(Action::TogglePlay);
        let mut persisting_ticks = 0;
        for _ in 0..400 {
            s = s.apply(Action::Tick(16.0));
            if s.view
                .as_ref()
                .unwrap()
                .channels
                .iter()
                .any(|c| c.persisting)
            {
                persisting_ticks += 1;
            }
        }
        assert!(
            s.view.as_ref().unwrap().now > 1_020,
            "past the first checkpoint"
        );
        assert!(
            persisting_ticks >= 10,
            "persisting was on screen for {persisting_ticks} frames"
        );
    }

    #[test]
    fn seek_by_time_and_markers() {
        let s = state("odd-even-sum").apply(Action::SeekTime(1_200));
        let v = s.view.clone().unwrap();
        assert!(v.now <= 1_200);
        assert!(!s.markers.is_empty(), "a checkpoint completed before 1.2 s");
        let m = s.markers[0].clone();
        let j = s.apply(Action::SeekStep(m.step));
        assert_eq!(j.view.unwrap().now, m.at);
    }

    /// A crash in the past forks: the future beyond the cursor is replaced.
    #[test]
    fn crash_in_the_past_forks_and_restarts() {
        let s = state("odd-even-sum")
            .apply(Action::SeekTime(3_000))
            .apply(Action::SeekTime(300));
        assert!(s.horizon > 1_000, "the head ran ahead");
        let crashed = s.apply(Action::Intervene(Intervention::Crash {
            task: "sum#0".into(),
        }));
        assert!(crashed.error.is_none(), "{:?}", crashed.error);
        let v = crashed.view.clone().unwrap();
        assert_eq!(v.now, 300);
        assert!(v
            .tasks
            .iter()
            .any(|t| t.status == engine::world::TaskStatus::Failed));
        assert!(crashed
            .recent
            .iter()
            .any(|e| matches!(e.event.event, Event::TaskFailed { .. })));
        let back = crashed.apply(Action::StepBack);
        assert!(back
            .view
            .unwrap()
            .tasks
            .iter()
            .all(|t| t.status != engine::world::TaskStatus::Failed));
        let later = play_until(crashed.apply(Action::SetSpeed(6)), |s| {
            s.view
                .as_ref()
                .unwrap()
                .tasks
                .iter()
                .all(|t| t.status != engine::world::TaskStatus::Failed)
        });
        assert!(later
            .view
            .unwrap()
            .tasks
            .iter()
            .all(|t| t.status != engine::world::TaskStatus::Failed));
    }

    /// An intervention in the past keeps the replaced future as a branch; switching
    /// goes back and forth between them at the same moment.
    #[test]
    fn branches_are_kept_and_switched() {
        let failed = |s: &State| {
            s.view
                .as_ref()
                .unwrap()
                .tasks
                .iter()
                .any(|t| t.status == engine::world::TaskStatus::Failed)
        };
        let s = state("odd-even-sum").apply(Action::SeekTime(2_000));
        let markers_before = s.markers.len();
        let s = s.apply(Action::SeekTime(300));
        let crashed = s.apply(Action::Intervene(Intervention::Crash {
            task: "sum#0".into(),
        }));
        assert_eq!(crashed.branches.len(), 1);
        let b = &crashed.branches[0];
        assert_eq!((b.at, b.has_intervention), (300, false));
        assert!(matches!(b.intervention, Intervention::Crash { .. }));
        assert!(failed(&crashed));
        // The future without the crash, at the same moment.
        let without = crashed.apply(Action::SwitchBranch(0));
        assert_eq!(without.view.as_ref().unwrap().now, 300);
        assert!(!failed(&without));
        assert!(without.branches[0].has_intervention);
        assert_eq!(
            without.markers.len(),
            markers_before,
            "its markers came back"
        );
        // Its future plays on without that failure (the scenario's own scripted
        // crash at 710 ms still happens).
        let failed_at_300 = |s: &State| {
            s.markers
                .iter()
                .any(|m| m.kind == MarkerKind::Failure && m.at == 300)
        };
        let later = without.apply(Action::SeekTime(1_500));
        assert!(!failed_at_300(&later));
        // And back to the crash.
        let with = later.apply(Action::SwitchBranch(0));
        let (t_later, t_with) = (
            later.view.as_ref().unwrap().now,
            with.view.as_ref().unwrap().now,
        );
        assert!(
            t_with <= t_later && t_with > 1_000,
            "same moment: {t_with} vs {t_later}"
        );
        assert!(failed_at_300(&with));
        assert!(!with.branches[0].has_intervention);
        // No such branch: nothing changes.
        assert_eq!(with.apply(Action::SwitchBranch(7)).step(), with.step());
        // At most MAX_BRANCHES are kept.
        let mut many = with;
        for i in 0..(MAX_BRANCHES + 2) as u64 {
            many = many
                .apply(Action::SeekTime(200 + 50 * i))
                .apply(Action::Intervene(Intervention::TriggerCheckpoint));
        }
        assert_eq!(many.branches.len(), MAX_BRANCHES);
    }

    #[test]
    fn unknown_task_and_scenario_are_messages() {
        let s = state("odd-even-sum").apply(Action::Intervene(Intervention::Crash {
            task: "nope#9".into(),
        }));
        assert!(s.error.as_deref().unwrap().contains("nope#9"));
        let s = State::new(Some("no-such-scenario"), None);
        assert!(s.error.is_some());
        assert_eq!(s.scenario, DEFAULT_SCENARIO);
    }

    /// A job restored from an earlier job's savepoint starts where that one
    /// stopped: the scrubber starts there too, not at 0.
    #[test]
    fn a_restored_run_starts_the_scrubber_where_the_earlier_job_stopped() {
        let s = state("savepoint-rescale");
        assert_eq!(s.origin, 1_520);
        assert_eq!(s.view.as_ref().unwrap().now, 1_520);
        assert_eq!(state("odd-even-sum").origin, 0);
    }

    /// A seek to t includes every step at t, as following to t does: at a moment
    /// where several steps share a time (a checkpoint completing and the sink
    /// committing), the two agree.
    #[test]
    fn seeking_and_following_to_the_same_time_show_the_same_world() {
        for t in [1_520u64, 3_500, 5_020] {
            let sought = state("jobmanager-crash-jobmanager").apply(Action::SeekTime(t));
            let followed = state("jobmanager-crash-jobmanager").apply(Action::Follow(t as f64));
            assert_eq!(
                *sought.view.clone().unwrap(),
                *followed.view.clone().unwrap(),
                "t = {t}"
            );
            assert_eq!(sought.step(), followed.step(), "t = {t}");
        }
    }

    /// A twin follows the main run's clock forward and back, and shows the same
    /// moment of the same seed under the other mode.
    #[test]
    fn twin_follows_the_clock_in_the_other_mode() {
        let main = state("unaligned-backpressure").apply(Action::SeekTime(1_500));
        let twin = State::new(None, None).apply(Action::Load {
            scenario: main.scenario.clone(),
            seed: main.seed,
            mode: main.mode.twin(),
        });
        assert_eq!(twin.mode, Mode::Aligned);
        assert_eq!(twin.scenario, "unaligned-backpressure");
        let ahead = twin.apply(Action::Follow(1_500.0));
        assert_eq!(ahead.display_t, 1_500.0);
        let v = ahead.view.clone().unwrap();
        assert!(v.now <= 1_500 && v.now > 1_400, "cursor at {}", v.now);
        // Following is seeking: the same world as a seek to that time.
        let sought = twin.apply(Action::SeekTime(1_500));
        assert_eq!(*sought.view.unwrap(), *v);
        let back = ahead.apply(Action::Follow(700.0));
        assert!(back.view.clone().unwrap().now <= 700);
        assert_eq!(
            *back.view.unwrap(),
            *twin.apply(Action::SeekTime(700)).view.unwrap()
        );
        // Loading what is already loaded keeps the run (and its cursor).
        let same = ahead.apply(Action::Load {
            scenario: "unaligned-backpressure".into(),
            seed: main.seed,
            mode: Mode::Aligned,
        });
        assert_eq!(same.step(), ahead.step());
        let bad = ahead.apply(Action::Load {
            scenario: "nope".into(),
            seed: 1,
            mode: Mode::Aligned,
        });
        assert!(bad.error.is_some());
        assert_eq!(Mode::AtLeastOnce.twin(), Mode::Aligned);
        assert_eq!(Mode::Aligned.twin(), Mode::Unaligned);
    }

    #[test]
    fn mode_switch_rebuilds_the_run() {
        let s = state("unaligned-backpressure");
        assert_eq!(s.mode, Mode::Unaligned);
        let a = s.apply(Action::SetMode(Mode::Aligned));
        assert_eq!(a.mode, Mode::Aligned);
        assert_eq!(a.step(), 0);
        let r = a.apply(Action::Restart);
        assert_eq!(r.seed, a.seed + 1);
        assert_eq!(r.mode, Mode::Aligned);
    }
}
