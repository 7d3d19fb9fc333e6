//! The Gantt's model against the engine's view and an imported real run: rows
//! stragglers first, every bar's extent the view's number, a pending checkpoint's
//! phases running up to the moment drawn, an aborted one's missing barriers, and
//! Flink's durations laid end to end.

use super::*;
use engine::runner;
use engine::view::phases::checkpoint_phases_at;
use engine::World;

/// Lesson `name` run to `until` ms: checkpoint `id`'s phases read at that moment.
fn phases_at(name: &str, until: u64, id: u64) -> CheckpointPhases {
    let s = runner::load(name).unwrap();
    let mut w = World::new(&s, s.seed).unwrap();
    w.run_until(until, |_| {});
    let v = w.view();
    let h = v
        .coordinator
        .history
        .iter()
        .find(|h| h.id.0 == id)
        .unwrap_or_else(|| panic!("{name}: no checkpoint {id} at {until}"));
    checkpoint_phases_at(h, &w.job_view(), &v.tasks, v.now)
}

fn row<'a>(g: &'a Gantt, name: &str) -> &'a GanttRow {
    g.rows
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no row {name}: {g:#?}"))
}

fn bar(r: &GanttRow, phase: Phase) -> &Bar {
    r.bars
        .iter()
        .find(|b| b.phase == phase)
        .unwrap_or_else(|| panic!("{}: no {phase:?} bar: {r:#?}", r.name))
}

/// Stragglers first: every row not acknowledged comes before every acknowledged
/// one, and acknowledgements never get later down the list.
fn assert_stragglers_first(g: &Gantt) {
    let acks: Vec<Option<u64>> = g.rows.iter().map(|r| r.ack).collect();
    for pair in acks.windows(2) {
        match (pair[0], pair[1]) {
            (Some(_), None) => panic!("an unacknowledged row below an acknowledged one: {acks:?}"),
            (Some(a), Some(b)) => assert!(a >= b, "{acks:?}"),
            _ => {}
        }
    }
}

/// Every bar of a lab row spans exactly the view's duration of its phase, from
/// the view's boundary; the acknowledgement is the view's end to end.
fn assert_bars_are_the_view(p: &CheckpointPhases, g: &Gantt) {
    assert_eq!(g.rows.len(), p.subtasks.len());
    for s in &p.subtasks {
        let r = row(g, &s.name);
        let view = [
            s.start_delay_ms(),
            s.alignment_ms(),
            s.sync_ms(),
            s.async_ms(),
        ];
        for (phase, d) in Phase::TIMED.into_iter().zip(view) {
            let Some(d) = d else { continue };
            let b = bar(r, phase);
            assert_eq!(b.to - b.from, d, "{} {phase:?}", s.name);
            assert!(!b.open, "{} {phase:?}", s.name);
        }
        assert_eq!(r.ack, s.end_to_end_ms(), "{}", s.name);
        if let Some(first) = s.first_barrier_at {
            assert_eq!(bar(r, Phase::Alignment).from, first - p.trigger_at);
        }
        if let Some(snap) = s.snapshot_at {
            assert_eq!(bar(r, Phase::Async).from, snap - p.trigger_at);
        }
    }
    let latest = p.subtasks.iter().filter_map(|s| s.end_to_end_ms()).max();
    assert_eq!(g.rows[0].ack, latest, "the straggler on top");
    assert!(g.span >= latest.unwrap_or(0));
}

/// barrier-alignment's checkpoint 1: merge aligns 45 ms and acknowledges last.
#[test]
fn an_aligned_checkpoint_is_drawn_from_the_views_numbers_stragglers_first() {
    let p = phases_at("barrier-alignment", 5_000, 1);
    let g = Gantt::of_lab(&p);
    assert_bars_are_the_view(&p, &g);
    assert_stragglers_first(&g);
    assert!(matches!(g.progress, Progress::Completed { .. }));
    let merge = row(&g, "merge#0");
    assert_eq!(merge.durations, [Some(5), Some(45), Some(0), Some(0)]);
    assert!(!bar(merge, Phase::Alignment).beside);
    let sink = &g.rows[0];
    assert!(sink.ack >= merge.ack, "{g:#?}");
}

/// unaligned-backpressure's checkpoint 1: `out` snapshots at its first barrier;
/// its 5 ms alignment is drawn beside its asynchronous part, over the same time.
#[test]
fn an_unaligned_alignment_runs_beside_the_async_part() {
    let p = phases_at("unaligned-backpressure", 3_000, 1);
    let g = Gantt::of_lab(&p);
    assert_bars_are_the_view(&p, &g);
    assert_stragglers_first(&g);
    assert!(g.unaligned);
    let out = row(&g, "out#0");
    let (align, upload) = (bar(out, Phase::Alignment), bar(out, Phase::Async));
    assert!(align.beside && !upload.beside);
    assert_eq!((align.from, align.to), (15, 20));
    assert_eq!((upload.from, upload.to), (15, 20));
}

/// barrier-alignment's checkpoint 1 drawn at 520: `merge` has had its first
/// barrier (505) and is still aligning; the sink has no barrier yet. Both run
/// up to the moment drawn, and grow when drawn later.
#[test]
fn a_pending_checkpoint_grows_up_to_the_moment_drawn() {
    let p = phases_at("barrier-alignment", 520, 1);
    let g = Gantt::of_lab(&p);
    assert_eq!(g.progress, Progress::Pending { now: 20 });
    assert_stragglers_first(&g);
    let merge = row(&g, "merge#0");
    let align = bar(merge, Phase::Alignment);
    assert_eq!((align.from, align.to, align.open), (5, 20, true));
    assert!(merge.open(Phase::Alignment));
    assert_eq!(merge.durations, [Some(5), Some(15), None, None]);
    assert_eq!(merge.ack, None);
    let sink = g.rows.iter().find(|r| r.name.starts_with("out")).unwrap();
    let delay = bar(sink, Phase::StartDelay);
    assert_eq!((delay.from, delay.to, delay.open), (0, 20, true));
    assert_eq!(g.span, 20);
    let later = Gantt::of_lab(&phases_at("barrier-alignment", 540, 1));
    assert_eq!(bar(row(&later, "merge#0"), Phase::Alignment).to, 40);
}

/// An aborted checkpoint: a subtask the barrier never reached shows it as
/// unreached up to the abort, with no duration.
#[test]
fn an_aborted_checkpoint_marks_the_subtasks_no_barrier_reached() {
    let mut p = phases_at("barrier-alignment", 520, 1);
    p.now = None;
    p.status = CheckpointStatus::Aborted;
    p.end_at = Some(p.trigger_at + 30);
    // As the statistics of an abort hold them: nothing before a snapshot.
    for s in &mut p.subtasks {
        if s.snapshot_at.is_none() {
            s.first_barrier_at = None;
        }
    }
    let g = Gantt::of_lab(&p);
    assert_eq!(g.progress, Progress::Aborted { at: 30 });
    let merge = row(&g, "merge#0");
    let b = bar(merge, Phase::Unreached);
    assert_eq!((b.from, b.to), (0, 30));
    assert_eq!(merge.durations, [None; 4]);
    let source = row(&g, "numbers#0");
    assert!(source.bars.iter().all(|b| b.phase != Phase::Unreached));
}

/// The imported real run: each subtask's four durations laid end to end from
/// the trigger, as Flink reported them, the latest acknowledgement on top.
#[test]
fn real_statistics_are_laid_end_to_end() {
    let text = include_str!("../../../tests/fixtures/flink-stats-unaligned-backpressure.json");
    let stats = crate::flink_stats::parse(text).unwrap();
    let rows = &stats.jobs[0].history.rows;
    let r = rows.iter().find(|r| r.id == 2).unwrap();
    let g = Gantt::of_real(r);
    assert_eq!(g.progress, Progress::Reported);
    assert_stragglers_first(&g);
    let subtasks: Vec<_> = r
        .tasks
        .iter()
        .flat_map(|t| t.subtasks.iter().map(move |s| (t, s)))
        .collect();
    assert_eq!(g.rows.len(), subtasks.len());
    assert!(!subtasks.is_empty());
    for (t, s) in subtasks {
        let gr = row(&g, &format!("{}#{}", t.name, s.index));
        let reported = [s.start_delay_ms, s.alignment_ms, s.sync_ms, s.async_ms];
        assert_eq!(gr.durations, reported);
        for pair in gr.bars.windows(2) {
            assert_eq!(pair[0].to, pair[1].from, "{}", gr.name);
        }
        let total: u64 = reported.iter().flatten().sum();
        assert_eq!(gr.bars.last().map_or(0, |b| b.to), total);
        assert_eq!(gr.ack, s.end_to_end_ms);
    }
}

#[test]
fn the_axis_counts_in_round_steps() {
    for (span, step) in [
        (1, 1),
        (5, 1),
        (7, 2),
        (20, 5),
        (45, 10),
        (290, 100),
        (1_000, 200),
    ] {
        assert_eq!(nice_step(span), step, "{span}");
    }
    let g = Gantt {
        checkpoint: 1,
        rows: Vec::new(),
        span: 45,
        progress: Progress::Reported,
        unaligned: false,
    };
    assert_eq!(g.ticks(), vec![0, 10, 20, 30, 40]);
    assert_eq!(g.pct(45), 100.0);
}
