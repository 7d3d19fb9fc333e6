//! What each playback action does: one function per action — play, a frame, a
//! step, a seek, a jump to a key moment, a branch switch or an intervention —
//! and what it does to the cursor and to the next [`State`]. Each says afterwards how much of the state must be
//! recomputed ([`Refresh`]).
//!
//! # Skipping quiet stretches
//! While playing with [`State::skip_quiet`] on, time runs faster while the next
//! highlight ([`super::run::is_highlight`]: a barrier blocking a channel, a
//! snapshot, a completion, a crash, a commit…) is far away and little is in
//! flight ([`QUIET_IN_FLIGHT`]), and slows back to the chosen speed shortly
//! before it, as a video player skips silence: the first checkpoint of the
//! default lesson is on screen within two seconds of Play, while the moment
//! itself still plays at the speed the class can follow.

use engine::Intervention;

use super::cursor::Cursor;
use super::run::{HEAD_BUDGET, LOOKAHEAD_MS};
use super::state::{Refresh, State};
use super::{DWELL_MS, SIM_MS_PER_SECOND};

/// A step forward skips at most this many silent steps looking for an event.
const MAX_SILENT_STEPS: usize = 50_000;
/// Real time, before a highlight, that plays at the chosen speed.
pub const LEAD_IN_MS: f64 = 500.0;
/// Over this much real time (at the chosen speed) before the lead-in, playback
/// slows from the hurry rate down to the chosen speed.
pub const RAMP_MS: f64 = 1_000.0;
/// The fastest a quiet stretch is played, in simulated ms per real second
/// (16× the default speed); at that speed or faster nothing hurries.
pub const HURRY_SIM_MS_PER_SECOND: f64 = 800.0;
/// A stage with more than this many records and barriers in flight is not
/// quiet, whatever the narration says: hurrying it would blur what the class
/// watches (a queue building up) and multiply the engine's work per frame
/// (busy-network's ~300 records).
pub const QUIET_IN_FLIGHT: usize = 40;

/// The factor by which playback at `rate` (simulated ms per real second) hurries
/// when the next highlight is `ahead_ms` of simulated time away: 1 within the
/// lead-in, rising linearly over the ramp, at most the hurry rate.
pub fn hurry(rate: f64, ahead_ms: f64) -> f64 {
    if rate <= 0.0 || rate >= HURRY_SIM_MS_PER_SECOND {
        return 1.0;
    }
    let max = HURRY_SIM_MS_PER_SECOND / rate;
    let lead = LEAD_IN_MS / 1000.0 * rate;
    let ramp = RAMP_MS / 1000.0 * rate;
    (1.0 + (max - 1.0) * (ahead_ms - lead) / ramp).clamp(1.0, max)
}

/// Play or pause. Play after an auto-pause goes on past that moment.
pub fn toggle_play(prev: &State, next: &mut State) -> Refresh {
    next.dwell_ms = 0.0;
    next.is_playing = !prev.is_playing && !prev.is_at_end;
    Refresh::Derived
}

/// Pause.
pub fn pause(next: &mut State) -> Refresh {
    next.is_playing = false;
    Refresh::Derived
}

/// An animation frame: `dt_ms` of real time passed while playing.
pub fn tick(prev: &State, next: &mut State, c: &mut Cursor, dt_ms: f64) -> Refresh {
    if !prev.is_playing {
        return Refresh::Nothing;
    }
    let mut dt = if dt_ms.is_finite() {
        dt_ms.clamp(0.0, 250.0)
    } else {
        0.0
    };
    // Dwell on the last highlight first.
    if prev.dwell_ms > 0.0 {
        let left = prev.dwell_ms - dt;
        next.dwell_ms = left.max(0.0);
        if left > 0.0 {
            return Refresh::Nothing;
        }
        dt = -left;
    }
    let rate = SIM_MS_PER_SECOND * prev.speed_factor();
    let mut target = prev.display_t + dt / 1000.0 * rate;
    next.is_hurrying = false;
    let in_flight = prev.view.as_ref().map_or(0, |v| {
        v.channels
            .iter()
            .map(|c| c.out_queue.len() + c.wire.len() + c.queue.len())
            .sum::<usize>()
    });
    if prev.skip_quiet && in_flight <= QUIET_IN_FLIGHT {
        // The next highlight among those the head has found; none within the
        // look-ahead means the quiet goes on at least that far.
        let next_highlight = c
            .run
            .next_highlight_at(c.steps())
            .map(|t| t as f64)
            .unwrap_or_else(|| (c.run.head_now() + LOOKAHEAD_MS) as f64);
        let factor = hurry(rate, next_highlight - prev.display_t);
        if factor > 1.0 {
            next.is_hurrying = true;
            target = (prev.display_t + dt / 1000.0 * rate * factor).min(next_highlight);
        }
    }
    let mut budget = HEAD_BUDGET;
    next.display_t = target;
    let mut has_stepped = false;
    while budget > 0 && c.next_at().is_some_and(|t| (t as f64) <= target) {
        if !c.step() {
            break;
        }
        has_stepped = true;
        if prev.auto_pause {
            if let Some(m) = c.run.moment_at(c.steps()) {
                next.display_t = c.now() as f64;
                next.is_playing = false;
                next.is_hurrying = false;
                next.paused_at = Some(m);
                break;
            }
        }
        if c.last_highlight {
            next.display_t = c.now() as f64;
            next.dwell_ms = DWELL_MS / prev.speed_factor();
            break;
        }
        budget -= 1;
    }
    if c.next_at().is_none() {
        next.is_playing = false;
    }
    if has_stepped {
        Refresh::Derived
    } else {
        Refresh::DisplayOnly
    }
}

/// To the end of the next step that has events.
pub fn step_forward(next: &mut State, c: &mut Cursor) -> Refresh {
    next.is_playing = false;
    let from = c.steps();
    for _ in 0..MAX_SILENT_STEPS {
        if !c.step() {
            break;
        }
        let step = c.steps();
        let log = c.run.log();
        let i = log.partition_point(|e| e.step < step);
        if log.get(i).is_some_and(|e| e.step == step) {
            break;
        }
    }
    if c.steps() != from {
        next.display_t = c.now() as f64;
    }
    Refresh::Derived
}

/// Back to the previous step that had events.
pub fn step_back(next: &mut State, c: &mut Cursor) -> Refresh {
    next.is_playing = false;
    let step = c.steps();
    let log = c.run.log();
    let i = log.partition_point(|e| e.step < step);
    let target = if i == 0 { 0 } else { log[i - 1].step };
    let target = if target >= step {
        step.saturating_sub(1)
    } else {
        target
    };
    c.seek(target);
    next.display_t = c.now() as f64;
    Refresh::Derived
}

/// To the next key moment, advancing the head to find one if need be (within a
/// budget); stays put when the run has no further key moment.
pub fn next_moment(next: &mut State, c: &mut Cursor) -> Refresh {
    next.is_playing = false;
    let from = c.steps();
    let mut budget = HEAD_BUDGET * 4;
    let found = loop {
        let moments = c.run.moments();
        if let Some(m) = moments.get(moments.partition_point(|m| m.step <= from)) {
            break Some(*m);
        }
        if budget == 0 || !c.run.advance_head() {
            break None;
        }
        budget -= 1;
    };
    if let Some(m) = found {
        c.seek(m.step);
        next.display_t = c.now() as f64;
    }
    Refresh::Derived
}

/// To the previous key moment (or the start).
pub fn prev_moment(next: &mut State, c: &mut Cursor) -> Refresh {
    next.is_playing = false;
    let from = c.steps();
    let moments = c.run.moments();
    let target = moments[..moments.partition_point(|m| m.step < from)]
        .last()
        .map_or(0, |m| m.step);
    c.seek(target);
    next.display_t = c.now() as f64;
    Refresh::Derived
}

/// Jump to simulated time `t` (the scrubber).
pub fn seek_time(next: &mut State, c: &mut Cursor, t: u64) -> Refresh {
    c.seek_time(t);
    next.display_t = (t as f64).max(c.now() as f64);
    Refresh::Derived
}

/// Jump to a step (a scrubber marker, a tour step).
pub fn seek_step(next: &mut State, c: &mut Cursor, step: u64) -> Refresh {
    c.seek(step);
    next.display_t = c.now() as f64;
    Refresh::Derived
}

/// Move to display time `t` without dwelling (a twin following the main clock).
pub fn follow(next: &mut State, c: &mut Cursor, t: f64) -> Refresh {
    next.is_playing = false;
    next.dwell_ms = 0.0;
    let t = if t.is_finite() { t.max(0.0) } else { 0.0 };
    if t < c.now() as f64 {
        let step = c.run.steps_until(t as u64);
        c.seek(step);
    } else {
        let mut budget = HEAD_BUDGET * 4;
        while budget > 0 && c.next_at().is_some_and(|at| (at as f64) <= t) {
            if !c.step() {
                break;
            }
            budget -= 1;
        }
    }
    next.display_t = t.max(c.now() as f64);
    Refresh::Derived
}

/// Make kept branch `i` current, at the same simulated time.
pub fn switch_branch(next: &mut State, c: &mut Cursor, i: usize) -> Refresh {
    let t = c.now();
    if c.run.switch_branch(i) {
        c.seek_time(t);
        next.display_t = c.now() as f64;
        next.is_playing = false;
    }
    Refresh::Derived
}

/// A crash, a trigger, a savepoint at the cursor: the future forks.
pub fn intervene(next: &mut State, c: &mut Cursor, intervention: Intervention) -> Refresh {
    let at = c.world.clone();
    match c.run.fork(&at, intervention) {
        Ok(world) => {
            c.world = world;
            next.error = None;
        }
        Err(e) => next.error = Some(e.to_string()),
    }
    next.display_t = c.now() as f64;
    Refresh::Derived
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hurry_is_one_near_a_highlight_and_capped_far_from_it() {
        let rate = SIM_MS_PER_SECOND;
        assert_eq!(hurry(rate, 0.0), 1.0);
        assert_eq!(hurry(rate, LEAD_IN_MS / 1000.0 * rate), 1.0);
        assert_eq!(hurry(rate, 1e9), HURRY_SIM_MS_PER_SECOND / rate);
        let mid = hurry(rate, (LEAD_IN_MS + RAMP_MS / 2.0) / 1000.0 * rate);
        assert!(mid > 1.0 && mid < HURRY_SIM_MS_PER_SECOND / rate, "{mid}");
        // Already as fast as a hurry: no hurry.
        assert_eq!(hurry(HURRY_SIM_MS_PER_SECOND, 1e9), 1.0);
    }
}
