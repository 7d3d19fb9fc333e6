//! Time travel: seeking lands on exactly the state a replay from zero reaches, and
//! the keyframes stay bounded however long the run.

use engine::runner;
use engine::timeline::Timeline;
use engine::World;

fn world(name: &str) -> World {
    let s = runner::load(name).unwrap();
    let seed = s.seed;
    World::new(&s, seed).unwrap()
}

/// Seeking to step n gives the same world as stepping n times from the start.
#[test]
fn seek_equals_replay_from_zero() {
    for name in [
        "odd-even-sum",
        "unaligned-backpressure",
        "at-least-once-duplicates",
    ] {
        let mut tl = Timeline::new(world(name), 64, 16);
        while tl.advance() {}
        let total = tl.head_steps();
        assert!(
            total > 100,
            "{name}: too short to be interesting ({total} steps)"
        );
        for n in [0, 1, 63, 64, 65, total / 3, total / 2, total - 1, total] {
            let sought = tl.seek(n);
            let mut replay = world(name);
            for _ in 0..n {
                replay.step();
            }
            assert_eq!(
                sought.steps(),
                n,
                "{name}: seek({n}) landed on {}",
                sought.steps()
            );
            assert!(
                sought.view() == replay.view(),
                "{name}: seek({n}) differs from a replay"
            );
        }
        assert!(tl.keyframes() <= 16, "{name}: {} keyframes", tl.keyframes());
    }
}

/// A long run keeps at most `max_keyframes` keyframes, spaced ever wider, and a
/// seek replays at most one spacing.
#[test]
fn keyframes_stay_bounded_on_long_runs() {
    let s = engine::Scenario::from_json(include_str!("../../benches/pipeline.json")).unwrap();
    let mut w = World::new(&s, 1).unwrap();
    w.bound_memory(50);
    let mut tl = Timeline::new(w, 1_000, 32);
    for _ in 0..100_000 {
        assert!(tl.advance());
    }
    assert!(tl.keyframes() <= 32, "{} keyframes", tl.keyframes());
    let w = tl.seek(77_777);
    assert_eq!(w.steps(), 77_777);
}
