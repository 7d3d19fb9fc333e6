//! The reducer: [`Action`] (what can happen to playback) and [`State::apply`],
//! the one closed `match` that sends each action to its function in
//! [`super::actions`] and then refreshes what is derived from the cursor.

use std::rc::Rc;

use engine::Intervention;
use yew::Reducible;

use super::actions;
use super::cursor::Cursor;
use super::state::{Refresh, State};
use super::{Mode, SPEEDS};

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
                next.error = Some(e.to_string());
                next.is_playing = false;
                next.revision += 1;
                next
            }
        }
    }

    /// Applies `action`; never panics, whatever the sequence. One closed `match`:
    /// an action either builds a new run or changes this one through its function
    /// in [`actions`], which says how much to recompute.
    pub fn apply(&self, action: Action) -> State {
        let mut next = self.clone();
        let refresh = match action {
            Action::LoadScenario(name) => return self.reload(&name, None, None),
            Action::Restart => {
                if self.cursor.is_none() {
                    return next;
                }
                let mode = Some(self.mode).filter(|m| *m != Mode::Off);
                return self.reload(&self.source(), Some(self.seed.wrapping_add(1)), mode);
            }
            Action::SetMode(mode) => {
                if self.cursor.is_none() || mode == self.mode || mode == Mode::Off {
                    return next;
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
                    return next;
                }
                return self.reload(
                    &scenario,
                    Some(seed),
                    Some(mode).filter(|m| *m != Mode::Off),
                );
            }
            Action::TogglePlay => self.on_run(&mut next, |n, _| actions::toggle_play(self, n)),
            Action::Pause => self.on_run(&mut next, |n, _| actions::pause(n)),
            Action::Tick(dt_ms) => self.on_run(&mut next, |n, c| actions::tick(self, n, c, dt_ms)),
            Action::StepForward => self.on_run(&mut next, actions::step_forward),
            Action::StepBack => self.on_run(&mut next, actions::step_back),
            Action::NextMoment => self.on_run(&mut next, actions::next_moment),
            Action::PrevMoment => self.on_run(&mut next, actions::prev_moment),
            Action::SeekTime(t) => self.on_run(&mut next, |n, c| actions::seek_time(n, c, t)),
            Action::SeekStep(step) => self.on_run(&mut next, |n, c| actions::seek_step(n, c, step)),
            Action::Follow(t) => self.on_run(&mut next, |n, c| actions::follow(n, c, t)),
            Action::SwitchBranch(i) => {
                self.on_run(&mut next, |n, c| actions::switch_branch(n, c, i))
            }
            Action::Intervene(i) => self.on_run(&mut next, |n, c| actions::intervene(n, c, i)),
            Action::SetSpeed(i) => self.on_run(&mut next, |n, _| {
                n.speed = i.min(SPEEDS.len() - 1);
                Refresh::Derived
            }),
            Action::SetSkipQuiet(on) => self.on_run(&mut next, |n, _| {
                n.skip_quiet = on;
                n.is_hurrying &= on;
                Refresh::Derived
            }),
            Action::SetAutoPause(on) => self.on_run(&mut next, |n, _| {
                n.auto_pause = on;
                Refresh::Derived
            }),
            Action::ClearError => self.on_run(&mut next, |n, _| {
                n.error = None;
                Refresh::Derived
            }),
            Action::Fail(message) => self.on_run(&mut next, |n, _| {
                n.error = Some(message);
                n.is_playing = false;
                Refresh::Derived
            }),
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

    /// Runs `f` on the next state and the cursor; without a run nothing changes
    /// but that playback stops.
    fn on_run(
        &self,
        next: &mut State,
        f: impl FnOnce(&mut State, &mut Cursor) -> Refresh,
    ) -> Refresh {
        match self.cursor.clone() {
            Some(cursor) => f(next, &mut cursor.borrow_mut()),
            None => {
                next.is_playing = false;
                Refresh::Nothing
            }
        }
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
