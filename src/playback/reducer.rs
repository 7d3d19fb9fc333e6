//! The reducer: [`State`] (what the page shows of playback), [`Action`] (what
//! can happen to it) and [`State::apply`], which dispatches each action
//! to its function in [`super::actions`] and then refreshes what is derived
//! from the cursor.

use std::cell::RefCell;
use std::rc::Rc;

use engine::scenario::Scenario;
use engine::verdict::Reference;
use engine::view::{JobView, WorldView};
use engine::Intervention;
use yew::Reducible;

use super::actions::{self, Refresh};
use super::cursor::Cursor;
use super::run::{BranchInfo, KeyMoment, LoggedEvent, Marker};
use super::{Mode, DEFAULT_SCENARIO, DEFAULT_SPEED, SPEEDS};

/// Events kept for the narration caption, its tab and the event log.
const RECENT: usize = 400;

/// Everything the page's playback shows; see the module documentation.
#[derive(Clone)]
pub struct State {
    pub(super) cursor: Option<Rc<RefCell<Cursor>>>,
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
    /// The failure-free run's commits, which the sink verdicts are judged against.
    pub reference: Option<Rc<Reference>>,
    /// The time the stage draws (between the cursor's step and the next).
    pub display_t: f64,
    /// Playing.
    pub is_playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Real milliseconds left to dwell on a highlight before time runs on.
    pub dwell_ms: f64,
    /// Hurry through stretches where nothing significant happens (on by
    /// default; see [`super::actions::hurry`]).
    pub skip_quiet: bool,
    /// The last frame hurried through a quiet stretch (the page says so).
    pub is_hurrying: bool,
    /// Stop playing at each key moment ([`super::MomentKind`]).
    pub auto_pause: bool,
    /// Playback stopped by itself at this key moment (auto-pause).
    pub paused_at: Option<KeyMoment>,
    /// The key moment at the cursor's step, if it is one.
    pub moment: Option<KeyMoment>,
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
    /// To the next key moment (PageDown, a clicker's "next").
    NextMoment,
    /// To the previous key moment (PageUp).
    PrevMoment,
    /// Jump to simulated time (the scrubber).
    SeekTime(u64),
    /// Jump to a step (a scrubber marker).
    SeekStep(u64),
    /// Choose a speed (index into [`SPEEDS`]).
    SetSpeed(usize),
    /// Hurry through quiet stretches, or not.
    SetSkipQuiet(bool),
    /// Stop at key moments while playing, or not.
    SetAutoPause(bool),
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
    /// Show `message` as the stage's error and pause, keeping the run (lesson
    /// data that could not be loaded, see `crate::data`).
    Fail(String),
}

impl State {
    /// The initial state for a scenario name (from the URL), falling back to the
    /// default scenario with a message when it is unknown or invalid.
    pub fn new(scenario: Option<&str>, seed: Option<u64>) -> State {
        let wanted = scenario.unwrap_or(DEFAULT_SCENARIO);
        match Cursor::load(wanted, seed, None) {
            Ok(cursor) => State::from_cursor(cursor, None),
            Err(e) => {
                let error = Some(format!("{wanted}: {e}"));
                match Cursor::load(DEFAULT_SCENARIO, None, None) {
                    Ok(cursor) => State::from_cursor(cursor, error),
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
            cursor: None,
            scenario: String::new(),
            seed: 0,
            mode: Mode::Off,
            job: None,
            view: None,
            reference: None,
            display_t: 0.0,
            is_playing: false,
            speed: DEFAULT_SPEED,
            dwell_ms: 0.0,
            skip_quiet: true,
            is_hurrying: false,
            auto_pause: false,
            paused_at: None,
            moment: None,
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

    fn from_cursor(cursor: Cursor, error: Option<String>) -> State {
        let mut state = State::empty(error);
        state.scenario = cursor.run.name.clone();
        state.seed = cursor.run.seed;
        state.mode = Mode::of(&cursor.run.scenario);
        state.job = Some(cursor.run.job.clone());
        state.reference = cursor.run.reference.clone();
        state.cursor = Some(Rc::new(RefCell::new(cursor)));
        state.refresh();
        state
    }

    /// The scenario being run (title, description), if any.
    pub fn with_scenario<R>(&self, f: impl FnOnce(&Scenario) -> R) -> Option<R> {
        self.cursor.as_ref().map(|c| f(&c.borrow().run.scenario))
    }

    /// The cursor's step count.
    pub fn step(&self) -> u64 {
        self.view.as_ref().map_or(0, |v| v.steps)
    }

    /// The speed multiplier.
    pub fn speed_factor(&self) -> f64 {
        SPEEDS[self.speed.min(SPEEDS.len() - 1)]
    }

    /// Recomputes everything derived from the cursor.
    fn refresh(&mut self) {
        let Some(cursor) = self.cursor.clone() else {
            return;
        };
        let mut c = cursor.borrow_mut();
        let now = c.now();
        c.run.look_ahead(now);
        let view = c.world.view();
        let step = view.steps;
        // Not clamped to the next item's time (`World::next_at` is exact since a
        // failover drops the old attempt's items; clamping is left for later).
        self.display_t = self.display_t.max(now as f64);
        if c.next_at().is_none() {
            self.display_t = now as f64;
        }
        self.horizon = c.run.head_now().max(now);
        self.origin = c.run.start_ms;
        self.is_at_end = c.next_at().is_none();
        self.moment = c.run.moment_at(step);
        if self.paused_at.is_some_and(|m| m.step != step) {
            self.paused_at = None;
        }
        let log = c.run.log();
        let end = log.partition_point(|e| e.step <= step);
        let start = end.saturating_sub(RECENT);
        if self.recent.last().map(|e| e.seq) != log[..end].last().map(|e| e.seq)
            || self.recent.len() != end - start
        {
            self.recent = Rc::new(log[start..end].to_vec());
        }
        if self.markers.len() != c.run.markers().len()
            || self.markers.last() != c.run.markers().last()
        {
            self.markers = Rc::new(c.run.markers().to_vec());
        }
        if !c.run.has_branches(&self.branches) {
            self.branches = Rc::new(c.run.branches());
        }
        self.view = Some(Rc::new(view));
        self.revision += 1;
    }

    /// The scenario as run, as JSON: what a restart or a mode switch rebuilds from,
    /// so that an imported or edited scenario (not a built-in) survives them.
    fn source(&self) -> String {
        self.with_scenario(|s| serde_json::to_string(s).expect("a scenario serializes"))
            .unwrap_or_else(|| self.scenario.clone())
    }

    /// A new run; the viewer's choices (speed, skip quiet, auto-pause) carry over.
    fn reload(&self, name: &str, seed: Option<u64>, mode: Option<Mode>) -> State {
        match Cursor::load(name, seed, mode) {
            Ok(cursor) => {
                let mut next = State::from_cursor(cursor, None);
                next.speed = self.speed;
                next.skip_quiet = self.skip_quiet;
                next.auto_pause = self.auto_pause;
                // `State`'s equality is the revision: a new run must not compare equal
                // to the one it replaces, or components keep showing the old one.
                next.revision = self.revision + 1;
                next
            }
            Err(e) => {
                let mut next = self.clone();
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
                if self.cursor.is_none() {
                    return self.clone();
                }
                let mode = Some(self.mode).filter(|m| *m != Mode::Off);
                return self.reload(&self.source(), Some(self.seed.wrapping_add(1)), mode);
            }
            Action::SetMode(mode) => {
                if self.cursor.is_none() || mode == self.mode || mode == Mode::Off {
                    return self.clone();
                }
                return self.reload(&self.source(), Some(self.seed), Some(mode));
            }
            Action::Load {
                scenario,
                seed,
                mode,
            } => {
                if self.cursor.is_some()
                    && scenario == self.scenario
                    && seed == self.seed
                    && (mode == self.mode || mode == Mode::Off)
                {
                    return self.clone();
                }
                return self.reload(
                    &scenario,
                    Some(seed),
                    Some(mode).filter(|m| *m != Mode::Off),
                );
            }
            _ => {}
        }
        let mut next = self.clone();
        let Some(cursor) = self.cursor.clone() else {
            next.is_playing = false;
            return next;
        };
        let refresh = {
            let c = &mut cursor.borrow_mut();
            match action {
                Action::TogglePlay => actions::toggle_play(self, &mut next),
                Action::Pause => actions::pause(&mut next),
                Action::Tick(dt_ms) => actions::tick(self, &mut next, c, dt_ms),
                Action::StepForward => actions::step_forward(&mut next, c),
                Action::StepBack => actions::step_back(&mut next, c),
                Action::NextMoment => actions::next_moment(&mut next, c),
                Action::PrevMoment => actions::prev_moment(&mut next, c),
                Action::SeekTime(t) => actions::seek_time(&mut next, c, t),
                Action::SeekStep(step) => actions::seek_step(&mut next, c, step),
                Action::Follow(t) => actions::follow(&mut next, c, t),
                Action::SwitchBranch(i) => actions::switch_branch(&mut next, c, i),
                Action::Intervene(i) => actions::intervene(&mut next, c, i),
                Action::SetSpeed(i) => {
                    next.speed = i.min(SPEEDS.len() - 1);
                    Refresh::Derived
                }
                Action::SetSkipQuiet(on) => {
                    next.skip_quiet = on;
                    next.is_hurrying &= on;
                    Refresh::Derived
                }
                Action::SetAutoPause(on) => {
                    next.auto_pause = on;
                    Refresh::Derived
                }
                Action::ClearError => {
                    next.error = None;
                    Refresh::Derived
                }
                Action::Fail(message) => {
                    next.error = Some(message);
                    next.is_playing = false;
                    Refresh::Derived
                }
                Action::LoadScenario(_)
                | Action::Restart
                | Action::SetMode(_)
                | Action::Load { .. } => Refresh::Derived,
            }
        };
        match refresh {
            Refresh::Derived => next.refresh(),
            // Only the display time moved: the world, its view, the log and the
            // markers are those of the previous frame, so the projection (the
            // costly part of a frame) is not redone.
            Refresh::DisplayOnly => next.revision += 1,
            Refresh::Nothing => {}
        }
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
            && self.skip_quiet == other.skip_quiet
            && self.auto_pause == other.auto_pause
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
