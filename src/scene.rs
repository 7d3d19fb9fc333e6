//! The scene: where everything on the stage is drawn, computed from a
//! [`JobView`], a [`WorldView`] and the display time. Pure — no yew, no
//! `web_sys` — so layout and interpolation are unit-tested natively.
//!
//! # Layout
//! - [`layout`]: operator boxes (column = topological depth), one lane per
//!   subtask, channel end points.
//! - [`tokens`]: records, barriers and markers on each channel: out-queue at the
//!   sender, on the wire (position = `(t - sent_at) / (arrive_at - sent_at)`),
//!   queued at the receiver.
//! - [`braces`]: the `chk-n` brackets over one checkpoint's records.
//! - [`geometry`]: `Rect`, the labels' text sizes and `text_width`, below every pass.
//! - [`palette`]: the visual vocabulary (epoch and status colours, patterns,
//!   token and corner sizes) that the SVG, the canvas, the legend and the
//!   stylesheet all take from it.

pub mod braces;
pub mod chips;
pub mod flow;
pub mod geometry;
pub mod layout;
pub mod palette;
pub mod placement;
pub mod state_line;
pub mod text_fit;
pub mod tokens;
pub mod txn_badge;

use engine::view::TxnStatus;
use engine::view::{Handling, JobView, WorldView};
use engine::TaskStatus;

pub use layout::{ChannelPath, Fit, Geometry, LaneBox, OperatorBox, Orientation, Text};
pub use tokens::{Overflow, Place, Token, TokenKind};

pub use palette::{SPACING, TOKEN};

/// The record a subtask is working on.
#[derive(Clone, Debug, PartialEq)]
pub struct Busy {
    /// The record's label (its value, or key for letters).
    pub label: String,
    /// Done fraction, 0–1.
    pub progress: f64,
}

/// A subtask's lane with what it is doing now.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// Where.
    pub boxed: LaneBox,
    /// Lifecycle.
    pub status: TaskStatus,
    /// The record in progress.
    pub busy: Option<Busy>,
    /// Its outputs are full.
    pub is_backpressured: bool,
    /// An unaligned checkpoint is persisting the in-flight records of one of
    /// its input channels (the lane says so, and the channel is dashed).
    pub is_persisting: bool,
    /// Checkpoints it is aligning (aligned exactly-once only: the engine's
    /// [`Handling::Aligning`]).
    pub aligning: Vec<u64>,
    /// Checkpoints it is collecting barriers for unaligned (it never aligns).
    pub unaligned: Vec<u64>,
    /// The last checkpoint it snapshotted.
    pub last_checkpoint: Option<u64>,
    /// A two-phase-commit sink subtask's transaction past "open" whose status
    /// changed last: its id and status (pre-committed, committed, aborted), drawn on
    /// the lane so the legend's transaction colours appear on the graph.
    pub txn: Option<(u64, TxnStatus)>,
    /// Failed or canceled while the job waits for its restart delay: the lane
    /// says it is restarting (Flink: the job is RESTARTING; the tasks stay
    /// FAILED / CANCELED until they are deployed again).
    pub is_restarting: bool,
    /// Its live state in the study notes' form ([`state_line`]); `None`: stateless.
    pub state: Option<state_line::StateLine>,
    /// Its state line's values are on the chip leaving it for `chk-n` now
    /// ([`flow::lifted_lines`]): the line shows only its `⤴ chk-n` mark.
    pub is_lifted: bool,
}

/// A channel with its state now.
#[derive(Clone, Debug, PartialEq)]
pub struct Channel {
    /// Where.
    pub path: ChannelPath,
    /// Blocked by aligned alignment.
    pub is_blocked: bool,
    /// Its records are being persisted (unaligned).
    pub is_persisting: bool,
    /// Where its lock is drawn when blocked: on the channel, before the queue.
    pub lock_at: (f64, f64),
}

/// Everything the stage draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// Scene width (the SVG viewBox).
    pub width: f64,
    /// Scene height.
    pub height: f64,
    /// Operators.
    pub operators: Vec<OperatorBox>,
    /// Subtasks.
    pub lanes: Vec<Lane>,
    /// Channels.
    pub channels: Vec<Channel>,
    /// Records, barriers, markers.
    pub tokens: Vec<Token>,
    /// "+N" labels for queues longer than drawn.
    pub overflows: Vec<Overflow>,
    /// Braces over each checkpoint's records.
    pub braces: Vec<braces::Brace>,
    /// State values travelling to and from checkpoint storage ([`flow`]).
    pub flows: flow::Flows,
    /// Text sizes and baselines.
    pub text: Text,
    /// The stage's height bounds its scale ([`Geometry::height_bound`]).
    pub height_bound: bool,
}

/// The label drawn on a record: its value, or its key when the value is just
/// that key's character code (the letters stream: key `a`, value 97).
pub fn record_label(key: Option<&str>, value: i64) -> String {
    let is_char_code = key.is_some_and(|k| {
        let mut chars = k.chars();
        matches!((chars.next(), chars.next()), (Some(c), None) if i64::from(u32::from(c)) == value)
    });
    match key {
        Some(k) if is_char_code => k.to_string(),
        _ if value.abs() >= 10_000 => format!("{}k", value / 1000),
        _ => value.to_string(),
    }
}

/// Suffixes `#n` to the n-th repeat of an id, so stage keys are unique even when
/// one origin appears twice on a channel (a record and a duplicate of it, say).
fn make_ids_unique(tokens: &mut [Token]) {
    let mut seen: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for tok in tokens.iter_mut() {
        let n = seen.entry(tok.id.clone()).or_insert(0);
        if *n > 0 {
            tok.id = format!("{}#{n}", tok.id);
        }
        *n += 1;
    }
}

/// The scene at display time `t` (ms, may fall between engine steps), in its
/// natural layout.
pub fn scene(job: &JobView, view: &WorldView, t: f64) -> Scene {
    scene_fit(job, view, t, Fit::default())
}

/// The scene at display time `t`, laid out as `fit` asks (the stage's box).
pub fn scene_fit(job: &JobView, view: &WorldView, t: f64, fit: Fit) -> Scene {
    let geometry = Geometry::fit(job, fit);
    let lanes: Vec<Lane> = geometry
        .lanes
        .iter()
        .zip(&view.tasks)
        .map(|(boxed, task)| lane(job, view, &geometry, boxed, task, t, fit))
        .collect();
    let channels = geometry
        .channels
        .iter()
        .zip(&view.channels)
        .map(|(path, c)| Channel {
            path: path.clone(),
            is_blocked: c.blocked,
            is_persisting: c.persisting,
            lock_at: tokens::lock_at(path, c),
        })
        .collect();
    let mut tokens = Vec::new();
    let mut overflows = Vec::new();
    for (path, c) in geometry.channels.iter().zip(&view.channels) {
        tokens::place(path, c, &view.replay, t, &mut tokens, &mut overflows);
    }
    make_ids_unique(&mut tokens);
    let braces = braces::epoch_braces(&tokens);
    let text = Text {
        lane_state: geometry.state_size,
        state_rows: geometry.state_rows,
        ..Text::at(fit.zoom).with_note_rows(geometry.note_rows)
    };
    let frame = flow::Frame {
        operators: &geometry.operators,
        lanes: &lanes,
        text: &text,
        width: geometry.width,
        gap: room_above(&geometry, fit),
    };
    let flows = flow::flows(job, view, &frame, t, fit.lang);
    let lifted = flow::lifted_lines(&flows, &frame);
    let mut lanes = lanes;
    for task in lifted {
        lanes[task].is_lifted = true;
    }
    let mut scene = Scene {
        width: geometry.width,
        height: geometry.height,
        operators: geometry.operators,
        lanes,
        channels,
        tokens,
        overflows,
        braces,
        flows,
        text,
        height_bound: geometry.height_bound,
    };
    placement::place(&mut scene);
    scene
}

/// The room above the fitted graph inside its box (the scene is centred; a
/// phone's stage is as tall as its graph, with none).
fn room_above(geometry: &Geometry, fit: Fit) -> f64 {
    if fit.orientation == layout::Orientation::Down {
        return 0.0;
    }
    fit.size.map_or(0.0, |(bw, bh)| {
        let scale = (bw / geometry.width).min(bh / geometry.height);
        if scale > 0.0 {
            ((bh / scale - geometry.height) / 2.0).max(0.0)
        } else {
            0.0
        }
    })
}

/// A subtask's lane at display time `t`: its state line, status, the record
/// it is processing, its barrier handling and its sink's latest transaction.
fn lane(
    job: &JobView,
    view: &WorldView,
    geometry: &Geometry,
    boxed: &LaneBox,
    task: &engine::view::TaskView,
    t: f64,
    fit: Fit,
) -> Lane {
    let op = &job.operators[job.tasks[boxed.task].op];
    let channels_of = |handling: Handling| -> Vec<_> {
        if task.handling == Some(handling) {
            task.aligning.iter().map(|c| c.0).collect()
        } else {
            Vec::new()
        }
    };
    Lane {
        state: lane_state(view, geometry, boxed, task, &op.uid, t, fit),
        boxed: boxed.clone(),
        status: task.status,
        is_lifted: false,
        is_restarting: view.restarting.iter().any(|n| **n == *boxed.name),
        busy: task.busy.as_ref().map(|(r, done_at)| {
            let progress = if op.process_ms == 0 {
                1.0
            } else {
                (1.0 - (*done_at as f64 - t) / op.process_ms as f64).clamp(0.0, 1.0)
            };
            Busy {
                label: record_label(r.key.as_deref(), r.value),
                progress,
            }
        }),
        is_backpressured: task.backpressured,
        is_persisting: job
            .channels
            .iter()
            .zip(&view.channels)
            .any(|(c, v)| v.persisting && c.to.0 as usize == boxed.task),
        aligning: channels_of(Handling::Aligning),
        unaligned: channels_of(Handling::Unaligned),
        last_checkpoint: task.last_checkpoint.map(|c| c.0),
        txn: txn_badge::lane_badge(lane_txns(view, &boxed.name)),
    }
}

/// The external system's transactions written by the sink subtask `task`.
fn lane_txns<'a>(
    view: &'a WorldView,
    task: &'a str,
) -> impl Iterator<Item = &'a engine::view::TxnView> + 'a {
    view.sinks
        .iter()
        .flat_map(|s| &s.txns)
        .filter(move |x| x.task.to_string() == task)
}

/// A lane's live-state line, on one row or, where the lane has two and one row
/// hides something (a key, the label), on both: every key when up to a few.
fn lane_state(
    view: &WorldView,
    geometry: &Geometry,
    boxed: &LaneBox,
    task: &engine::view::TaskView,
    uid: &str,
    t: f64,
    fit: Fit,
) -> Option<state_line::StateLine> {
    // The mark `✓ chk-n` stands beside the values it stored, or not at all: once
    // the live values move on (a source reads on after its snapshot) the chip
    // and `chk-n` carry what was stored. A failed or canceled subtask's values
    // are not what went into the checkpoint it acknowledged: no mark then.
    let snapshot = state_line::snapshot_of(
        &view.coordinator.history,
        engine::view::TaskId(boxed.task as u32),
        t,
    )
    .filter(|mark| {
        !matches!(task.status, TaskStatus::Failed | TaskStatus::Canceled)
            && task
                .snapshot
                .as_ref()
                .is_some_and(|s| s.checkpoint.0 == mark.id() && s.state == task.state)
    });
    // Room inside the lane, with a margin for the real font.
    let room = boxed.w - 26.0;
    let aborted: Vec<u64> = lane_txns(view, &boxed.name)
        .filter(|x| x.status == TxnStatus::Aborted)
        .map(|x| x.id)
        .collect();
    let line = |width: f64| {
        state_line::state_line_with(
            task,
            uid,
            state_line::Beside {
                snapshot,
                aborted: &aborted,
            },
            t,
            width,
            geometry.state_size,
            fit.lang,
        )
    };
    let rows = geometry.state_rows;
    let single = line(room);
    let hides = single
        .as_ref()
        .is_some_and(|l| l.more > 0 || l.label.is_empty() || l.squeeze.is_some());
    (rows > 1 && hides)
        .then(|| line(room * f64::from(rows)))
        .flatten()
        .and_then(|l| state_line::wrap(l, rows, room, geometry.state_size, fit.lang))
        .or(single)
}

/// The scene's tests' stage box: a projector's, 1100 × 900 scene units, the
/// rest of the fit as [`Fit::default`].
#[cfg(test)]
pub(crate) fn test_fit() -> Fit {
    Fit {
        size: Some((1100.0, 900.0)),
        ..Fit::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::runner::load;
    use engine::World;

    fn world(name: &str) -> World {
        let s = load(name).unwrap();
        World::new(&s, s.seed).unwrap()
    }

    #[test]
    fn every_lane_and_channel_is_placed_inside_the_scene() {
        for (name, _) in engine::runner::BUILTINS {
            let mut w = world(name);
            w.run_until(700, |_| {});
            let s = scene(&w.job_view(), &w.view(), w.now() as f64);
            assert_eq!(s.lanes.len(), w.view().tasks.len(), "{name}");
            for l in &s.lanes {
                assert!(
                    l.boxed.x >= 0.0 && l.boxed.x + l.boxed.w <= s.width,
                    "{name}"
                );
                assert!(
                    l.boxed.y >= 0.0 && l.boxed.y + l.boxed.h <= s.height,
                    "{name}"
                );
            }
            for tok in &s.tokens {
                assert!(
                    tok.x >= 0.0 && tok.x <= s.width && tok.y >= 0.0 && tok.y <= s.height,
                    "{name}: {tok:?}"
                );
            }
        }
    }

    /// A restore aborts the pre-committed transaction after the open one was aborted
    /// at the failure: the sink's badge shows the one that just changed, as the
    /// trace's last transaction event says, not the one with the highest id.
    #[test]
    fn the_sink_badge_shows_the_transaction_that_changed_last() {
        use engine::trace::Event;
        let mut w = world("exactly-once-kafka");
        w.set_tracing(true);
        let mut checked = 0;
        while w.step().is_some() && w.now() < 3_000 {
            let Some((txn, status)) = w.last_events().iter().rev().find_map(|e| match &e.event {
                Event::TransactionPrecommitted { txn, .. } => Some((*txn, TxnStatus::Precommitted)),
                Event::TransactionCommitted { txn, .. } => Some((*txn, TxnStatus::Committed)),
                Event::TransactionAborted { txn, .. } => Some((*txn, TxnStatus::Aborted)),
                _ => None,
            }) else {
                continue;
            };
            let s = scene(&w.job_view(), &w.view(), w.now() as f64);
            let sink = s
                .lanes
                .iter()
                .find(|l| l.boxed.name == "kafka-out#0")
                .unwrap();
            assert_eq!(sink.txn, Some((txn, status)), "at {} ms", w.now());
            checked += 1;
        }
        // pre-commit and commit of T1, T2 and T4, the aborts of T3 and T2.
        assert!(checked >= 6, "{checked} transaction changes checked");
    }

    /// The stage keys tokens by id: ids are unique in every frame, and a record
    /// keeps its id while it travels along its channel.
    #[test]
    fn token_ids_are_unique_and_stable() {
        for (name, _) in engine::runner::BUILTINS {
            let mut w = world(name);
            let job = w.job_view();
            let mut moved_keeping_id = 0;
            let mut before: Option<Scene> = None;
            for _ in 0..3_000 {
                if w.step().is_none() {
                    break;
                }
                let s = scene(&job, &w.view(), w.now() as f64);
                let ids: std::collections::BTreeSet<&str> =
                    s.tokens.iter().map(|t| t.id.as_str()).collect();
                assert_eq!(
                    ids.len(),
                    s.tokens.len(),
                    "{name} at step {}: duplicate token id",
                    w.steps()
                );
                if let Some(prev) = &before {
                    moved_keeping_id += s
                        .tokens
                        .iter()
                        .filter(|t| {
                            prev.tokens
                                .iter()
                                .any(|p| p.id == t.id && p.kind == t.kind && p.place != t.place)
                        })
                        .count();
                }
                before = Some(s);
            }
            assert!(
                moved_keeping_id > 0,
                "{name}: some token moved from one stretch to another"
            );
        }
    }

    #[test]
    fn make_ids_unique_suffixes_repeats() {
        let s = {
            let mut w = world("odd-even-sum");
            w.run_until(300, |_| {});
            scene(&w.job_view(), &w.view(), w.now() as f64)
        };
        let mut toks = vec![
            s.tokens[0].clone(),
            s.tokens[0].clone(),
            s.tokens[0].clone(),
        ];
        make_ids_unique(&mut toks);
        let base = &s.tokens[0].id;
        assert_eq!(toks[0].id, *base);
        assert_eq!(toks[1].id, format!("{base}#1"));
        assert_eq!(toks[2].id, format!("{base}#2"));
    }

    #[test]
    fn columns_follow_depth() {
        let w = world("odd-even-sum");
        let job = w.job_view();
        let s = scene(&job, &w.view(), 0.0);
        let xs: Vec<f64> = s.operators.iter().map(|o| o.x).collect();
        assert!(
            xs.windows(2).all(|p| p[0] < p[1]),
            "a chain goes left to right: {xs:?}"
        );
        let w = world("barrier-alignment");
        let s = scene(&w.job_view(), &w.view(), 0.0);
        assert_eq!(
            s.operators[0].x, s.operators[1].x,
            "both sources in column 0"
        );
    }

    #[test]
    fn busy_progress_is_a_function_of_time() {
        let mut w = world("unaligned-backpressure");
        let job = w.job_view();
        // Find a moment with a busy subtask.
        for _ in 0..5_000 {
            if w.view().tasks.iter().any(|t| t.busy.is_some()) {
                break;
            }
            w.step();
        }
        let v = w.view();
        let (i, task) = v
            .tasks
            .iter()
            .enumerate()
            .find(|(_, t)| t.busy.is_some())
            .expect("a busy task");
        let done = task.busy.as_ref().unwrap().1 as f64;
        let process = job.operators[job.tasks[i].op].process_ms as f64;
        let at = |t: f64| scene(&job, &v, t).lanes[i].busy.clone().unwrap().progress;
        assert_eq!(at(done), 1.0);
        assert!((at(done - process / 2.0) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn labels_are_short() {
        assert_eq!(record_label(Some("a"), 97), "a");
        assert_eq!(record_label(Some("k1"), 97), "97");
        assert_eq!(record_label(Some("even"), 6), "6");
        assert_eq!(record_label(None, 123_456), "123k");
    }
}
