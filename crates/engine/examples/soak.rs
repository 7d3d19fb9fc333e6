//! Soak run: step the benchmark pipeline for N engine events (default 10 million),
//! printing the event rate and the process's resident memory every million events
//! (or every EVERY events), so "memory stays flat" is something you can watch. Run:
//! `cargo run --release -p checkpoint-engine --example soak -- 10000000 [EVERY]`

use engine::soak;
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
    let arg = |i: usize| std::env::args().nth(i).and_then(|a| a.parse::<u64>().ok());
    let n = arg(1).unwrap_or(10_000_000);
    // A smaller EVERY shows when V8 swaps in its optimised code.
    let every = arg(2).filter(|&e| e > 0).unwrap_or(1_000_000);
    let mut w = soak::pipeline_world();
    println!("start: rss {} KiB", rss_kib());
    let t0 = Instant::now();
    let mut last = t0;
    let mut i = 0;
    while i < n {
        let want = every.min(n - i);
        let ran = soak::run(&mut w, want);
        i += ran;
        if ran < want {
            println!("agenda empty after {i} events");
            break;
        }
        let now = Instant::now();
        println!(
            "{:>5.2}M events  after {:>6.1} ms  t={:>8} ms  {:>6.2} M events/s  rss {} KiB  checkpoints {}",
            i as f64 / 1e6,
            (now - t0).as_secs_f64() * 1e3,
            w.now(),
            want as f64 / (now - last).as_secs_f64() / 1e6,
            rss_kib(),
            w.coordinator().history().len()
        );
        last = now;
    }
    let total = t0.elapsed().as_secs_f64();
    println!(
        "total: {} events in {:.2} s = {:.2} M events/s",
        w.steps(),
        total,
        w.steps() as f64 / total / 1e6
    );
}
