//! Playback: the one reducer that owns the simulation.
//!
//! [`State`] holds the engine's [`engine::World`] at the cursor and the [`Run`]
//! (the timeline of keyframes, the event log, the step clock). Components never
//! see a `World`: they get [`State::view`] (an `Rc<WorldView>`), [`Run::job`] and
//! the display time, and send [`Action`]s.
//!
//! # Layout
//! - [`run`]: one run and its branches: timeline segments, the event log, the
//!   scrubber's markers, key moments and highlights.
//! - [`cursor`]: the world shown, stepping and seeking within the run.
//! - [`reducer`]: [`State`], [`Action`] and the dispatch that ties them together.
//! - [`actions`]: what each playback action does to the cursor, one function
//!   per action (play, a frame, step, key moment, seek, follow, branch,
//!   intervention), and quiet-stretch hurrying. (The transport bar that sends
//!   them is [`crate::components::transport`].)
//!
//! # Time
//! The cursor is an engine step count. Between two steps the display time
//! [`State::display_t`] moves smoothly (while playing) so records glide along their
//! channels; the scene computes positions from it, so scrubbing costs nothing.
//!
//! No `web_sys` here: everything is unit-tested natively.

pub mod actions;
pub mod cursor;
pub mod link;
pub mod reducer;
pub mod run;
pub mod state;

#[cfg(feature = "bundled")]
use std::rc::Rc;

use engine::runner::ModeOverride;
use engine::scenario::{CheckpointingMode, Scenario};

pub use link::Link;
pub use reducer::Action;
pub use run::{
    is_highlight, BranchInfo, KeyMoment, LoggedEvent, Marker, MarkerKind, MomentKind, Run,
    MAX_BRANCHES,
};
pub use state::State;

/// Playback speeds offered (multiples of [`SIM_MS_PER_SECOND`]).
pub const SPEEDS: [f64; 7] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];
/// The speed a run starts at (index into [`SPEEDS`]: 1×).
pub const DEFAULT_SPEED: usize = 2;
/// Simulated milliseconds per real second at 1×: slow enough that a 10 ms channel
/// hop is visible (0.2 s) on a projector.
pub const SIM_MS_PER_SECOND: f64 = 50.0;
/// The built-in scenario shown first.
pub const DEFAULT_SCENARIO: &str = "odd-even-sum";
/// Real milliseconds playback dwells on a highlight at 1× (divided by the speed).
pub const DWELL_MS: f64 = 400.0;

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

/// The built-in scenarios: `(name, parsed scenario)`, those that parse. Parsed
/// once per thread. Only with the compiled-in data (the `bundled` feature); the
/// page lists its lessons with [`crate::data::lesson_titles`].
#[cfg(feature = "bundled")]
pub fn builtins() -> Rc<Vec<(&'static str, Scenario)>> {
    thread_local! {
        static PARSED: Rc<Vec<(&'static str, Scenario)>> = Rc::new(
            engine::runner::BUILTINS
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
    use engine::trace::Event;
    use engine::Intervention;

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
        let s = state("odd-even-sum")
            .apply(Action::SetSkipQuiet(false))
            .apply(Action::TogglePlay);
        let a = s.apply(Action::Tick(16.0));
        assert!(a.display_t > s.display_t);
        assert!(
            a.display_t - s.display_t < 1.0,
            "16 ms real ≈ 0.8 ms simulated at 1×"
        );
        assert!(!a.is_hurrying);
    }

    /// Real seconds of 60 fps playback until `until` holds (or 30 s).
    fn seconds_until(mut s: State, until: impl Fn(&State) -> bool) -> f64 {
        s = s.apply(Action::TogglePlay);
        let frame = 1000.0 / 60.0;
        for i in 0..(30 * 60) {
            if until(&s) {
                return f64::from(i) * frame / 1000.0;
            }
            if !s.is_playing {
                s = s.apply(Action::TogglePlay);
            }
            s = s.apply(Action::Tick(frame));
        }
        30.0
    }

    fn has_barrier(s: &State) -> bool {
        s.view.as_ref().unwrap().channels.iter().any(|c| {
            c.out_queue
                .iter()
                .chain(c.wire.iter().map(|w| &w.element))
                .chain(&c.queue)
                .any(|e| matches!(e, engine::view::ElementView::Barrier { .. }))
        })
    }

    /// A class's first minute: on the default lesson at the default speed,
    /// the first barrier is on the stage within 2 s of Play, because playback
    /// hurries through the quiet start; without skipping it takes ~11 s.
    #[test]
    fn the_first_barrier_is_on_stage_within_two_seconds_of_play() {
        let s = State::new(None, None);
        assert_eq!(
            (s.scenario.as_str(), s.speed),
            (DEFAULT_SCENARIO, DEFAULT_SPEED)
        );
        assert!(s.skip_quiet, "skipping quiet stretches is on by default");
        let fast = seconds_until(s, has_barrier);
        assert!(fast < 2.0, "first barrier after {fast:.2} s");
        // (A state's clones share its cursor: a fresh run for the comparison.)
        let slow = seconds_until(
            State::new(None, None).apply(Action::SetSkipQuiet(false)),
            has_barrier,
        );
        assert!(slow > 5.0, "without skipping: {slow:.2} s");
    }

    /// Hurrying stops before a highlight: the moment itself plays at the speed
    /// chosen (a frame moves 0.8 simulated ms at 1×).
    #[test]
    fn a_highlight_plays_at_the_chosen_speed() {
        let mut s = state("odd-even-sum").apply(Action::TogglePlay);
        let mut hurried = false;
        for _ in 0..2_000 {
            let before = s.display_t;
            s = s.apply(Action::Tick(16.0));
            hurried |= s.is_hurrying;
            if s.recent.iter().any(|e| is_highlight(&e.event.event)) {
                assert!(hurried, "the quiet start hurried");
                assert!(s.display_t - before <= 16.0 * 0.05 + 1e-9 || s.dwell_ms > 0.0);
                return;
            }
        }
        panic!("no highlight reached");
    }

    /// Auto-pause stops at every key moment, in order, and Play goes on past it;
    /// PageDown / PageUp (next / previous moment) visit the same moments.
    #[test]
    fn auto_pause_stops_at_key_moments_and_page_keys_visit_them() {
        // (A state's clones share its cursor: each part starts a fresh run.)
        let fresh = || {
            state("odd-even-sum")
                .apply(Action::SetAutoPause(true))
                .apply(Action::SetSpeed(SPEEDS.len() - 1))
        };
        let mut paused_at = Vec::new();
        let mut p = fresh().apply(Action::TogglePlay);
        for _ in 0..20_000 {
            if p.is_at_end || paused_at.len() >= 6 {
                break;
            }
            p = p.apply(Action::Tick(50.0));
            if !p.is_playing {
                if let Some(m) = p.paused_at {
                    assert_eq!(p.moment, Some(m), "paused at a key moment's step");
                    assert_eq!(p.step(), m.step);
                    paused_at.push(m);
                }
                p = p.apply(Action::TogglePlay);
                assert!(
                    p.paused_at.is_some() || p.is_at_end,
                    "the caption stays until time moves"
                );
            }
        }
        let kinds: Vec<MomentKind> = paused_at.iter().map(|m| m.kind).collect();
        assert!(kinds.len() >= 4, "{kinds:?}");
        assert!(kinds.contains(&MomentKind::Snapshot) && kinds.contains(&MomentKind::Completed));
        // PageDown from the start visits the same moments.
        let mut n = fresh();
        for m in &paused_at {
            n = n.apply(Action::NextMoment);
            assert_eq!(n.moment, Some(*m));
            assert!(!n.is_playing);
        }
        let last = n.step();
        let back = n.apply(Action::PrevMoment);
        assert_eq!(back.moment, Some(paused_at[paused_at.len() - 2]));
        assert!(back.step() < last);
        // Without auto-pause, playing runs through them.
        let free = play_until(fresh().apply(Action::SetAutoPause(false)), |_| false);
        assert!(free.is_at_end);
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
            .any(|t| t.status == engine::TaskStatus::Failed));
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
            .all(|t| t.status != engine::TaskStatus::Failed));
        let later = play_until(crashed.apply(Action::SetSpeed(6)), |s| {
            s.view
                .as_ref()
                .unwrap()
                .tasks
                .iter()
                .all(|t| t.status != engine::TaskStatus::Failed)
        });
        assert!(later
            .view
            .unwrap()
            .tasks
            .iter()
            .all(|t| t.status != engine::TaskStatus::Failed));
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
                .any(|t| t.status == engine::TaskStatus::Failed)
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
