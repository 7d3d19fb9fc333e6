//! Time travel: keyframes of the [`World`] so that seeking to any step of a long
//! run replays at most a few thousand steps.
//!
//! A keyframe is a clone of the whole `World` (not to be confused with Flink's
//! snapshots). Keyframes are taken every `every` steps; when there are more than
//! `max_keyframes`, every other one is dropped and the spacing doubles, so memory
//! stays bounded however long the run.

use crate::world::World;

/// Keyframes of one run.
#[derive(Clone, Debug)]
pub struct Timeline {
    keyframes: Vec<World>,
    every: u64,
    max_keyframes: usize,
    head: World,
}

impl Timeline {
    /// A timeline starting at `world` (step 0 of the run).
    pub fn new(world: World, every: u64, max_keyframes: usize) -> Self {
        assert!(
            every > 0 && max_keyframes >= 2,
            "keyframe spacing and count must be positive"
        );
        Timeline {
            keyframes: vec![world.clone()],
            every,
            max_keyframes,
            head: world,
        }
    }

    /// The furthest point reached.
    pub fn head(&self) -> &World {
        &self.head
    }

    /// Steps taken so far at the head.
    pub fn head_steps(&self) -> u64 {
        self.head.steps()
    }

    /// Advance the head one step; false when the agenda is empty.
    pub fn advance(&mut self) -> bool {
        if self.head.step().is_none() {
            return false;
        }
        if self.head.steps() % self.every == 0 {
            self.keyframes.push(self.head.clone());
            if self.keyframes.len() > self.max_keyframes {
                // Keep keyframes at multiples of the doubled spacing.
                self.every *= 2;
                let every = self.every;
                self.keyframes.retain(|w| w.steps() % every == 0);
            }
        }
        true
    }

    /// Advance the head until its clock passes `until_ms` or the agenda empties.
    pub fn advance_until(&mut self, until_ms: u64) {
        while self.head.next_at().is_some_and(|t| t <= until_ms) {
            self.advance();
        }
    }

    /// The world after exactly `step` steps (clamped to the head): the nearest
    /// keyframe at or before it, replayed forward.
    pub fn seek(&self, step: u64) -> World {
        let step = step.min(self.head.steps());
        let i = self.keyframes.partition_point(|w| w.steps() <= step);
        let mut w = self.keyframes[i.saturating_sub(1)].clone();
        while w.steps() < step {
            if w.step().is_none() {
                break;
            }
        }
        w
    }

    /// Number of keyframes held.
    pub fn keyframes(&self) -> usize {
        self.keyframes.len()
    }
}
