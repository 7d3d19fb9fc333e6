//! Seek timing: build a timeline over a 100,000-event run (keyframes every 1,000
//! steps, at most 64), then time seeks to random steps. Run:
//! `cargo run --release -p checkpoint-engine --example seek`

use engine::timeline::Timeline;
use engine::World;
use rand::{Rng, SeedableRng};
use std::time::Instant;

fn main() {
    let scenario =
        engine::Scenario::from_json(include_str!("../benches/pipeline.json")).expect("valid");
    let mut w = World::new(&scenario, 1).expect("builds");
    w.bound_memory(200);
    let mut tl = Timeline::new(w, 1_000, 64);
    for _ in 0..100_000 {
        tl.advance();
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut worst = 0f64;
    let t0 = Instant::now();
    for _ in 0..200 {
        let n = rng.random_range(0..=100_000);
        let t = Instant::now();
        let w = tl.seek(n);
        assert_eq!(w.steps(), n);
        worst = worst.max(t.elapsed().as_secs_f64());
    }
    println!(
        "200 seeks in a 100,000-event run ({} keyframes): mean {:.3} ms, worst {:.3} ms",
        tl.keyframes(),
        t0.elapsed().as_secs_f64() * 1000.0 / 200.0,
        worst * 1000.0
    );
}
