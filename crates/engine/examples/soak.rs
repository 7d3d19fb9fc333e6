//! Soak run: step the benchmark pipeline for N engine events (default 10 million),
//! printing the event rate and the process's resident memory every million events,
//! so "memory stays flat" is something you can watch. Run:
//! `cargo run --release -p checkpoint-engine --example soak -- 10000000`

use engine::World;
use std::time::Instant;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| {
            s.split_whitespace()
                .nth(1)
                .and_then(|p| p.parse::<u64>().ok())
        })
        .map_or(0, |pages| pages * 4)
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let scenario =
        engine::Scenario::from_json(include_str!("../benches/pipeline.json")).expect("valid");
    let mut w = World::new(&scenario, 1).expect("builds");
    w.bound_memory(200);
    println!("start: rss {} KiB", rss_kib());
    let t0 = Instant::now();
    let mut last = t0;
    for i in 1..=n {
        if w.step().is_none() {
            println!("agenda empty after {i} events");
            break;
        }
        if i % 1_000_000 == 0 {
            let now = Instant::now();
            let rate = 1_000_000.0 / (now - last).as_secs_f64();
            last = now;
            println!(
                "{:>3}M events  t={:>8} ms  {:>6.2} M events/s  rss {} KiB  checkpoints {}",
                i / 1_000_000,
                w.now(),
                rate / 1e6,
                rss_kib(),
                w.coordinator().history().len()
            );
        }
    }
    let total = t0.elapsed().as_secs_f64();
    println!(
        "total: {} events in {:.2} s = {:.2} M events/s",
        w.steps(),
        total,
        w.steps() as f64 / total / 1e6
    );
}
