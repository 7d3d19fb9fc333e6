//! [`State`]: what the page shows of playback — the run at the cursor, the
//! display time, the viewer's choices — and how it recomputes what is derived
//! from the cursor. Below both [`super::actions`] (what each action does to it)
//! and [`super::reducer`] (which action runs which function), so neither of
//! those two needs the other's types.

use std::cell::RefCell;
use std::rc::Rc;

use engine::scenario::Scenario;
use engine::verdict::Reference;
use engine::view::{JobView, WorldView};

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

/// How much of the next state [`State::apply`] recomputes after an action.
pub enum Refresh {
    /// The cursor may have moved: the view, the log window, the markers.
    Derived,
    /// Only the display time moved (records glide; the world is the same).
    DisplayOnly,
    /// Nothing visible changed.
    Nothing,
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

    pub(super) fn empty(error: Option<String>) -> State {
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

    pub(super) fn from_cursor(cursor: Cursor, error: Option<String>) -> State {
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
    pub(super) fn refresh(&mut self) {
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
