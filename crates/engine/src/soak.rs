//! # The soak run: the engine's speed over a long run
//!
//! One pipeline (4 operators at parallelism 4, 2 million source records, a checkpoint
//! every 100 simulated ms, trace off) stepped for N events, shared by
//! `examples/soak.rs` (native and Node's WASI) and the page's own build (its
//! `EngineSoak` export, timed in headless Chromium by `scripts/bench.sh`), so the
//! three measure the same work.

use crate::World;

/// The benchmark pipeline (also the criterion benchmark's).
pub const PIPELINE_JSON: &str = include_str!("../benches/pipeline.json");

/// Events per call of [`run_chunk`] in [`run`].
pub const CHUNK: u64 = 10_000;

/// The pipeline's world, seed 1, history bounded so memory stays flat.
pub fn pipeline_world() -> World {
    let scenario =
        crate::Scenario::from_json(PIPELINE_JSON).expect("the benchmark pipeline is valid");
    let mut w = World::new(&scenario, 1).expect("the benchmark pipeline builds");
    w.bound_memory(200);
    w
}

/// Step `w` up to `n` events, in chunks of [`CHUNK`]; returns how many ran (fewer
/// when the agenda empties).
///
/// Why chunks: V8 cannot swap optimised code into a wasm function that is already
/// running (no on-stack replacement for wasm), so one call looping over millions of
/// events keeps its loop — and whatever LTO inlined into it, here the whole of
/// `World::step` — in the baseline compiler's code for the entire run. The page
/// calls the engine once per animation frame and so enters the optimised code as
/// soon as V8 has it; chunks give every caller that shape.
pub fn run(w: &mut World, n: u64) -> u64 {
    let mut done = 0;
    while done < n {
        let want = CHUNK.min(n - done);
        let ran = run_chunk(w, want);
        done += ran;
        if ran < want {
            break;
        }
    }
    done
}

/// Step `w` up to `n` times; kept out of line (see [`run`]).
#[inline(never)]
pub fn run_chunk(w: &mut World, n: u64) -> u64 {
    for done in 0..n {
        if w.step().is_none() {
            return done;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_steps_exactly_as_many_events_as_step_does() {
        let mut chunked = pipeline_world();
        let mut single = pipeline_world();
        assert_eq!(run(&mut chunked, 25_003), 25_003);
        for _ in 0..25_003 {
            single
                .step()
                .expect("the pipeline runs for millions of events");
        }
        assert_eq!(chunked.steps(), single.steps());
        assert_eq!(chunked.now(), single.now());
        assert_eq!(
            chunked.coordinator().history().len(),
            single.coordinator().history().len()
        );
    }

    #[test]
    fn run_stops_when_the_agenda_empties() {
        let scenario =
            crate::Scenario::from_json(crate::runner::builtin("odd-even-sum").unwrap()).unwrap();
        let mut w = World::new(&scenario, 1).unwrap();
        let ran = run(&mut w, 10_000_000);
        assert!(ran < 10_000_000, "odd-even-sum ends");
        assert!(w.step().is_none());
        assert_eq!(w.steps(), ran);
    }
}
