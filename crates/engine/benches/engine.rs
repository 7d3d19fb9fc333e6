//! Criterion benchmark of the engine: a 4-operator pipeline at parallelism 4 with
//! a checkpoint every 100 simulated ms, tracing off. Run: `cargo bench -p checkpoint-engine`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::World;

fn pipeline() -> engine::Scenario {
    let json = include_str!("pipeline.json");
    engine::Scenario::from_json(json).expect("bench scenario is valid")
}

fn bench(c: &mut Criterion) {
    let scenario = pipeline();
    let base = World::new(&scenario, 1).expect("builds");
    const STEPS: u64 = 200_000;
    let mut g = c.benchmark_group("engine");
    g.throughput(Throughput::Elements(STEPS));
    g.sample_size(10);
    g.bench_function("pipeline_p4_steps", |b| {
        b.iter(|| {
            let mut w = base.clone();
            for _ in 0..STEPS {
                w.step();
            }
            w.steps()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
