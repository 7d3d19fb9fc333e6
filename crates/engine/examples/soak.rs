//! Soak run: step the benchmark pipeline for N engine events (default 10 million),
//! printing the event rate and the process's resident memory every million events
//! (or every EVERY events), so "memory stays flat" is something you can watch. Run:
//! `cargo run --release -p checkpoint-engine --example soak -- 10000000 [EVERY]`
//!
//! It also counts heap allocations: building the pipeline (its 2 million source
//! records) apart from the run itself, so "is the engine slow before V8 optimises
//! because it allocates?" has a figure.

use engine::soak;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// The system allocator, counting allocations and their bytes.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static ALLOCATED_BYTES: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        ALLOCATED_BYTES.fetch_add(layout.size() as u64, Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above, that is from `System`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        ALLOCATED_BYTES.fetch_add(new_size as u64, Relaxed);
        // SAFETY: as in `dealloc`; `new_size` is the caller's, checked by `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// (allocations, bytes) so far.
fn allocated() -> (u64, u64) {
    (ALLOCATIONS.load(Relaxed), ALLOCATED_BYTES.load(Relaxed))
}

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
    let (built, built_bytes) = allocated();
    println!(
        "start: rss {} KiB; building the pipeline allocated {built} times ({} MiB)",
        rss_kib(),
        built_bytes / (1 << 20)
    );
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
    let (all, all_bytes) = allocated();
    let (run, run_bytes) = (all - built, all_bytes - built_bytes);
    println!(
        "allocations during the run: {run} ({:.4} per event, {:.1} bytes per event)",
        run as f64 / w.steps().max(1) as f64,
        run_bytes as f64 / w.steps().max(1) as f64
    );
    println!(
        "total: {} events in {:.2} s = {:.2} M events/s",
        w.steps(),
        total,
        w.steps() as f64 / total / 1e6
    );
}
