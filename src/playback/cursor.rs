//! The cursor: the world the stage shows, somewhere between step 0 and the
//! head of the [`Run`]. It steps forward itself (replaying what the head already
//! computed, or advancing the head when it is there) and seeks through the run's
//! keyframes.

use engine::runner;
use engine::World;

use super::run::{is_highlight, Run, RunError, HEAD_BUDGET};
use super::Mode;

/// The engine side of the playback state: mutated in place by the reducer,
/// never seen by components.
pub struct Cursor {
    /// The run.
    pub run: Run,
    /// The world at the cursor.
    pub world: World,
    /// The cursor's last step had an [`is_highlight`] event.
    pub last_highlight: bool,
}

impl Cursor {
    /// A fresh cursor at step 0 of a built-in scenario name (or scenario JSON).
    pub fn load(name: &str, seed: Option<u64>, mode: Option<Mode>) -> Result<Cursor, RunError> {
        let mut scenario = runner::load(name).map_err(RunError::Scenario)?;
        if let Some(over) = mode.and_then(Mode::as_override) {
            let opts = runner::RunOptions {
                mode: Some(over),
                ..Default::default()
            };
            runner::apply_options(&mut scenario, &opts).map_err(RunError::Mode)?;
        }
        let seed = seed.unwrap_or(scenario.seed);
        let name = if runner::builtin(name).is_some() {
            name.to_string()
        } else {
            scenario.name.clone()
        };
        let run = Run::new(&name, scenario, seed)?;
        let world = run.seek(0);
        let mut cursor = Cursor {
            run,
            world,
            last_highlight: false,
        };
        cursor.run.look_ahead(0);
        Ok(cursor)
    }

    /// The cursor's step count.
    pub fn steps(&self) -> u64 {
        self.world.steps()
    }

    /// The cursor's simulated time.
    pub fn now(&self) -> u64 {
        self.world.now()
    }

    /// Steps the cursor once, advancing the head when needed.
    pub fn step(&mut self) -> bool {
        self.last_highlight = false;
        if self.world.steps() >= self.run.head_steps() && !self.run.advance_head() {
            return false;
        }
        let before = self.run.segment_for(self.world.steps());
        match self.world.step() {
            None => return false,
            Some(events) => self.last_highlight = events.iter().any(|e| is_highlight(&e.event)),
        }
        let step = self.world.steps();
        if self.run.segment_for(step) != before {
            // Past an intervention: the next segment's world, not this one's future.
            self.world = self.run.seek(step);
        }
        true
    }

    /// Time of the cursor's next step, if the run can go on.
    pub fn next_at(&self) -> Option<u64> {
        if self.world.steps() < self.run.head_steps() {
            self.world.next_at()
        } else if self.run.ended {
            None
        } else {
            self.world.next_at().filter(|&t| t <= self.run.bound_ms)
        }
    }

    /// Moves the cursor to `step`, advancing the head there first if needed.
    pub fn seek(&mut self, step: u64) {
        let mut budget = HEAD_BUDGET * 4;
        while self.run.head_steps() < step && budget > 0 && self.run.advance_head() {
            budget -= 1;
        }
        self.world = self.run.seek(step);
    }

    /// Moves the cursor to the last step at or before simulated time `t`, having
    /// simulated every step due at `t` (so a seek and a twin's follow to the same
    /// `t` show the same moment).
    pub fn seek_time(&mut self, t: u64) {
        self.run.advance_head_through(t, HEAD_BUDGET * 4);
        let step = self.run.steps_until(t);
        self.seek(step);
    }
}
