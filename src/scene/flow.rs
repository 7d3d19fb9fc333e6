//! Snapshot and restore you can watch: a subtask's state values travel as a chip
//! from its state line up to the checkpoint's storage (`chk-n`, drawn above the
//! graph, under the coordinator strip) when it snapshots, and back down onto the
//! line's `⟲` text when a restore gives them back.
//!
//! Driven by the engine's events only: a snapshot chip leaves at the subtask's
//! synchronous snapshot ([`TaskView::snapshot`], its values as they were then)
//! and a restore chip at the restore ([`TaskView::rewind`]); each travels for
//! [`FLOW_MS`] of simulated time, so seeking or stepping lands on the same
//! picture as playing. Pure geometry, unit-tested natively.

use engine::view::{EntryView, JobView, TaskView, WorldView};

use super::geometry::{text_width, Face};
use super::state_line::{self, StateLine};
use super::{Lane, Text};
use crate::i18n::Lang;

/// How long (simulated ms) a chip travels.
pub const FLOW_MS: f64 = 450.0;
/// Padding inside a chip, each side (scene units).
const PAD: f64 = 6.0;

/// Which way values travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// A snapshot: from the subtask into `chk-n`.
    ToStorage,
    /// A restore: from `chk-n` back into the subtask.
    FromStorage,
}

impl Direction {
    /// Its key in class names and data attributes.
    pub fn key(self) -> &'static str {
        match self {
            Direction::ToStorage => "snapshot",
            Direction::FromStorage => "restore",
        }
    }
}

/// One chip of values on its way.
#[derive(Clone, Debug, PartialEq)]
pub struct Chip {
    /// The subtask (lane index).
    pub task: usize,
    /// Which way.
    pub direction: Direction,
    /// The checkpoint.
    pub checkpoint: u64,
    /// The values, in the state line's form (`offset (0, 5)`).
    pub text: String,
    /// The width its text is drawn into when the chip is narrower than the text
    /// (SVG `textLength`); `None`: it fits.
    pub squeeze: Option<f64>,
    /// Centre where it starts and where it lands.
    pub from: (f64, f64),
    pub to: (f64, f64),
    /// Where the trip turns: a chip to storage rises from its line to the
    /// store's row, then goes across; one from storage goes across, then down.
    /// Either way it travels above the graph, never across its channels and
    /// their records and labels.
    pub corner: (f64, f64),
    /// Time fraction of the trip, 0–1.
    pub progress: f64,
    /// Centre now.
    pub x: f64,
    pub y: f64,
    /// Size.
    pub w: f64,
    pub h: f64,
    /// Drawn at this moment: a chip is never drawn over a text of the stage
    /// (a lane's rows, an operator's header, `chk-n`, another chip); while it
    /// crosses one it is hidden as a whole, as a map hides a colliding label.
    pub shown: bool,
}

impl Chip {
    /// The trail behind it, along the store's row above the graph only (the
    /// part of its trip that crosses no text).
    pub fn trail(&self) -> Vec<(f64, f64)> {
        let dist = |a: (f64, f64), b: (f64, f64)| (b.0 - a.0).hypot(b.1 - a.1);
        let now = (self.x, self.y);
        let turned = dist(self.from, now) > dist(self.from, self.corner);
        match (self.direction, turned) {
            // Rising from its line: no trail yet.
            (Direction::ToStorage, false) => Vec::new(),
            (Direction::ToStorage, true) => vec![self.corner, now],
            (Direction::FromStorage, false) => vec![self.from, now],
            (Direction::FromStorage, true) => vec![self.from, self.corner],
        }
    }

    /// Its box now.
    pub fn rect(&self) -> super::geometry::Rect {
        super::geometry::Rect::centred(self.x, self.y, self.w, self.h)
    }
}

/// The checkpoint storage the chips travel to and from.
#[derive(Clone, Debug, PartialEq)]
pub struct Store {
    /// The checkpoint (`chk-n`).
    pub checkpoint: u64,
    /// Centre.
    pub x: f64,
    pub y: f64,
    /// Size.
    pub w: f64,
    pub h: f64,
}

/// The flows at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Flows {
    /// Where `chk-n` is drawn while values travel (none: nothing travels).
    pub store: Option<Store>,
    /// The chips.
    pub chips: Vec<Chip>,
}

/// Eases a trip (slow start and landing), monotone from 0 to 1.
pub fn ease(p: f64) -> f64 {
    let p = p.clamp(0.0, 1.0);
    p * p * (3.0 - 2.0 * p)
}

/// Where `chk-n` is drawn in a scene `width` wide with `gap` scene units free
/// above it (the box's room over the fitted graph, under the coordinator strip):
/// in that room at the right (under the strip's `✓ chk-n`), or inside the
/// scene's top right corner when there is no room.
pub fn store_at(checkpoint: u64, width: f64, gap: f64, size: f64) -> Store {
    let label = store_label(checkpoint);
    let w = text_width(&label, size, Face::Mono) + 2.0 * PAD + 22.0;
    let h = size * 1.7;
    let y = if gap >= h + 6.0 {
        -gap + h / 2.0 + 3.0
    } else {
        h / 2.0 + 2.0
    };
    Store {
        checkpoint,
        x: width - w / 2.0 - 4.0,
        y,
        w,
        h,
    }
}

/// The store's text (beside its cylinder).
pub fn store_label(checkpoint: u64) -> String {
    format!("chk-{checkpoint}")
}

/// A chip's size for `text` at `size`.
fn chip_size(text: &str, size: f64) -> (f64, f64) {
    (text_width(text, size, Face::Mono) + 2.0 * PAD, size * 1.45)
}

/// The centre of a chip `w` wide whose text starts at `left` on a state line
/// with baseline `baseline` at text size `size`.
fn on_line(left: f64, baseline: f64, w: f64, size: f64) -> (f64, f64) {
    (left - PAD + w / 2.0, baseline - size * 0.35)
}

/// A state line's text as a chip carries it: its label and values, without the
/// snapshot mark or the rewind's `(chk-n)`.
fn values_text(line: &StateLine, lang: Lang) -> String {
    let bare = StateLine {
        snapshot: None,
        rewind: None,
        ..line.clone()
    };
    bare.text(lang)
}

/// Where a scene sits: its lanes (laid out with `text`), its width, and the
/// room free above it (scene units).
pub struct Frame<'a> {
    /// The operator boxes (their headers are text a chip must not cross).
    pub operators: &'a [super::OperatorBox],
    /// The lanes, with their state lines.
    pub lanes: &'a [Lane],
    /// Text sizes and baselines.
    pub text: &'a Text,
    /// Scene width.
    pub width: f64,
    /// Room above the scene, under the coordinator strip.
    pub gap: f64,
}

/// The flows of `view` at display time `t` on `frame`.
pub fn flows(job: &JobView, view: &WorldView, frame: &Frame, t: f64, lang: Lang) -> Flows {
    let (text, width, gap) = (frame.text, frame.width, frame.gap);
    let size = text.lane_state;
    let mut chips = Vec::new();
    for (lane, task) in frame.lanes.iter().zip(&view.tasks) {
        let b = &lane.boxed;
        let uid = &job.operators[job.tasks[b.task].op].uid;
        let left = b.x + 9.0;
        let baseline = b.y + text.state_y;
        if let Some(chip) = snapshot_chip(lane, task, uid, (left, baseline), size, t, lang) {
            chips.push(chip);
        }
        if let Some(chip) = restore_chip(lane, task, uid, (left, baseline), size, t) {
            chips.push(chip);
        }
    }
    // A snapshot travels to chk-n only while chk-n can still complete or has
    // completed: once it expired or was aborted (a failover aborts every pending
    // one) its store is discarded, and a chip on its way there would be stale.
    chips.retain(|c| {
        c.direction == Direction::FromStorage
            || !view.coordinator.history.iter().any(|h| {
                h.id.0 == c.checkpoint && h.status == engine::view::CheckpointStatus::Aborted
            })
    });
    super::chips::retain_current(&mut chips, view, |c| (c.task, c.checkpoint));
    let Some(checkpoint) = chips.iter().map(|c| c.checkpoint).max() else {
        return Flows::default();
    };
    let store = store_at(checkpoint, width, gap, size);
    for c in &mut chips {
        // Beside the store, on its left: a chip arriving (or leaving) is read
        // next to `chk-n`, never over its label; inside the scene.
        let at_store = (
            (store.x - store.w / 2.0 - 6.0 - c.w / 2.0).max(c.w / 2.0 + 4.0),
            store.y,
        );
        match c.direction {
            Direction::ToStorage => c.to = at_store,
            Direction::FromStorage => c.from = at_store,
        }
        c.corner = match c.direction {
            Direction::ToStorage => (c.from.0, c.to.1),
            Direction::FromStorage => (c.to.0, c.from.1),
        };
        (c.x, c.y) = along(c.from, c.corner, c.to, ease(c.progress));
    }
    show_without_collisions(&mut chips, frame, &store);
    Flows {
        store: Some(store),
        chips,
    }
}

/// Decides which chips are drawn now: in the order of their trips' progress
/// (the one nearest its end first), a chip is shown when its box meets no
/// text of the stage and no chip already shown. The texts are the operators'
/// headers, every lane's rows, `chk-n` — and the chip's own line only for a
/// chip landing from storage (one leaving it carries that line's values: the
/// line is lifted while it sits there, see [`lifted_lines`]).
fn show_without_collisions(chips: &mut [Chip], frame: &Frame, store: &Store) {
    use super::geometry::Rect;
    let text = frame.text;
    let headers: Vec<Rect> = frame
        .operators
        .iter()
        .map(|o| o.header_rect(text))
        .collect();
    let store_rect = Rect::centred(store.x, store.y, store.w, store.h);
    let mut order: Vec<usize> = (0..chips.len()).collect();
    order.sort_by(|&a, &b| chips[b].progress.total_cmp(&chips[a].progress));
    let mut placed: Vec<Rect> = Vec::new();
    for i in order {
        let c = &chips[i];
        let r = c.rect();
        let own = &frame.lanes[c.task].boxed;
        // The own lane's rows above its state line (name, status, note) — down
        // to a sink's transaction badge, whose box reaches below its baseline.
        let badge_bottom = frame.lanes[c.task]
            .txn
            .map_or(0.0, |_| text.note_y + 0.4 * text.lane_note);
        let own_rows = Rect {
            x: own.x,
            y: own.y,
            w: own.w,
            h: (text.state_y - 1.15 * text.lane_state).max(badge_bottom),
        };
        let lanes = frame
            .lanes
            .iter()
            .filter(|l| l.boxed.task != c.task)
            .map(|l| l.boxed.rect());
        let own_line = (c.direction == Direction::FromStorage).then_some(own.rect());
        let blocked = headers
            .iter()
            .copied()
            .chain(lanes)
            .chain(std::iter::once(own_rows))
            .chain(own_line)
            .chain(std::iter::once(store_rect))
            .chain(placed.iter().copied())
            .any(|o| r.overlap(&o) > 0.0);
        chips[i].shown = !blocked;
        if !blocked {
            placed.push(r);
        }
    }
}

/// The lanes whose state line a shown chip to storage sits on now: the chip
/// carries those values (it leaves from them), so the line draws only its
/// `⤴ chk-n` mark until the chip has left — two copies of one text never
/// overprint.
pub fn lifted_lines(flows: &Flows, frame: &Frame) -> Vec<usize> {
    let text = frame.text;
    flows
        .chips
        .iter()
        .filter(|c| c.shown && c.direction == Direction::ToStorage)
        .filter(|c| {
            let lane = &frame.lanes[c.task].boxed;
            let baseline = lane.y + text.state_y;
            let line = super::geometry::Rect {
                x: lane.x,
                y: baseline - text.lane_state,
                w: lane.w,
                h: text.lane_state * 1.3,
            };
            c.rect().overlap(&line) > 0.0
        })
        .map(|c| c.task)
        .collect()
}

/// The point a fraction `e` of the way along `from` → `corner` → `to` (by length).
pub fn along(from: (f64, f64), corner: (f64, f64), to: (f64, f64), e: f64) -> (f64, f64) {
    let dist = |a: (f64, f64), b: (f64, f64)| (b.0 - a.0).hypot(b.1 - a.1);
    let lerp =
        |a: (f64, f64), b: (f64, f64), k: f64| (a.0 + (b.0 - a.0) * k, a.1 + (b.1 - a.1) * k);
    let (first, second) = (dist(from, corner), dist(corner, to));
    let s = e.clamp(0.0, 1.0) * (first + second);
    if first + second == 0.0 {
        from
    } else if s <= first {
        lerp(from, corner, s / first)
    } else {
        lerp(corner, to, (s - first) / second)
    }
}

/// The trip's time fraction at `t` for a trip leaving at `at`, if under way.
fn trip(at: f64, t: f64) -> Option<f64> {
    (t >= at && t < at + FLOW_MS).then(|| (t - at) / FLOW_MS)
}

fn snapshot_chip(
    lane: &Lane,
    task: &TaskView,
    uid: &str,
    (left, baseline): (f64, f64),
    size: f64,
    t: f64,
    lang: Lang,
) -> Option<Chip> {
    let snap = task.snapshot.as_ref()?;
    let progress = trip(snap.at as f64, t)?;
    // The values as they were at the snapshot, in the line's form and room.
    let then = TaskView {
        state: snap.state.clone(),
        changed: Vec::new(),
        rewind: None,
        ..task.clone()
    };
    // It leaves from the values, after the line's `⤴ chk-n ` mark, and stays
    // inside its lane there: the values fitted to the room after the mark.
    let mark = lane
        .state
        .as_ref()
        .and_then(|s| s.snapshot.as_deref())
        .map_or(0.0, |m| text_width(&format!("{m} "), size, Face::Mono));
    let width = lane.boxed.w - 26.0 - mark;
    let line = state_line::state_line(&then, uid, t, width, size, lang)?;
    let text = values_text(&line, lang);
    let (natural, h) = chip_size(&text, size);
    // Inside its lane as it leaves: a line that keeps one value wider than the
    // room (a source's `offset` kept by its slack) draws its chip's text narrower.
    let room = lane.boxed.x + lane.boxed.w - 4.0 - (left + mark - PAD);
    let w = natural.min(room);
    let squeeze = (w < natural).then_some(w - 2.0 * PAD);
    let from = on_line(left + mark, baseline, w, size);
    Some(Chip {
        task: lane.boxed.task,
        direction: Direction::ToStorage,
        checkpoint: snap.checkpoint.0,
        text,
        squeeze,
        from,
        to: from,
        progress,
        corner: from,
        x: from.0,
        y: from.1,
        w,
        h,
        shown: true,
    })
}

fn restore_chip(
    lane: &Lane,
    task: &TaskView,
    uid: &str,
    (left, baseline): (f64, f64),
    size: f64,
    t: f64,
) -> Option<Chip> {
    let rewind = task.rewind.as_ref()?;
    let checkpoint = rewind.checkpoint?.0;
    let progress = trip(rewind.at as f64, t)?;
    let line = lane.state.as_ref()?;
    // The values the checkpoint gave back, in the metadata's form.
    let values: Vec<String> = rewind
        .values
        .iter()
        .filter_map(|v| {
            let after = v.after.as_deref()?;
            Some(match &v.entry {
                EntryView::Partition { partition } => format!("({partition}, {after})"),
                EntryView::Key { key } => format!("({key}, {after})"),
            })
        })
        .collect();
    if values.is_empty() {
        return None;
    }
    // The line's label (a narrow lane's rewound line may leave it out: the
    // chip still says whose values they are).
    let label = match (&task.state, line.label.as_str()) {
        (engine::view::StateView::Source { .. }, _) => "offset ".to_string(),
        (_, "") => format!("{uid} "),
        (_, l) => format!("{l} "),
    };
    let text = format!("{label}{}", values.join(" "));
    let (w, h) = chip_size(&text, size);
    // It lands on the line's first rewound value (`7 ⟲ 5`).
    let to = on_line(left + rewound_x(line, size)?, baseline, w, size);
    Some(Chip {
        task: lane.boxed.task,
        direction: Direction::FromStorage,
        checkpoint,
        text,
        squeeze: None,
        from: to,
        to,
        progress,
        corner: to,
        x: to.0,
        y: to.1,
        w,
        h,
        shown: true,
    })
}

/// Where on `line` (from its start, scene units) its first rewound value's text
/// begins; `None`: nothing on it is rewound.
pub fn rewound_x(line: &StateLine, size: f64) -> Option<f64> {
    let w = |s: &str| text_width(s, size, Face::Mono);
    let mut x = line
        .snapshot
        .as_deref()
        .map_or(0.0, |m| w(&format!("{m} ")));
    x += w(&line.label);
    for (i, p) in line.parts.iter().enumerate() {
        let sep = if line.label.is_empty() && i == 0 {
            0.0
        } else {
            w(" ")
        };
        if p.rewound {
            return Some(x + sep);
        }
        x += sep + w(&p.text);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{scene_fit, test_fit};
    use engine::runner::load;
    use engine::World;

    /// Runs odd-even-sum until `done` holds for the world.
    fn run_until(done: impl Fn(&World) -> bool) -> World {
        let s = load("odd-even-sum").unwrap();
        let mut w = World::new(&s, s.seed).unwrap();
        w.set_tracing(true);
        while !done(&w) {
            w.step().expect("the lesson gets there");
        }
        w
    }

    /// checkpoint-config-strict: the source snapshots chk-4 at 2685 ms and chk-4
    /// expires at 3085 ms, inside the chip's trip: from then on no chip travels
    /// to the discarded chk-4 while the job waits for its restart. Over every
    /// lesson, no chip is ever on its way to an aborted checkpoint.
    #[test]
    fn no_chip_travels_to_an_aborted_checkpoint() {
        let mut seen_expiry_inside_a_trip = false;
        for (name, _) in engine::runner::BUILTINS {
            let s = load(name).unwrap();
            let mut w = World::new(&s, s.seed).unwrap();
            while w.step().is_some() && w.now() < 6_000 {
                let view = w.view();
                let now = w.now() as f64;
                let travelling = view.tasks.iter().any(|t| {
                    t.snapshot
                        .as_ref()
                        .is_some_and(|s| now - (s.at as f64) < FLOW_MS)
                });
                if !travelling {
                    continue;
                }
                let aborted: Vec<u64> = view
                    .coordinator
                    .history
                    .iter()
                    .filter(|h| h.status == engine::view::CheckpointStatus::Aborted)
                    .map(|h| h.id.0)
                    .collect();
                let scene = scene_fit(&w.job_view(), &view, w.now() as f64, test_fit());
                for c in &scene.flows.chips {
                    assert!(
                        c.direction == Direction::FromStorage || !aborted.contains(&c.checkpoint),
                        "{name} at {} ms: a chip travels to the aborted chk-{}",
                        w.now(),
                        c.checkpoint
                    );
                }
                if *name == "checkpoint-config-strict" && w.now() == 3085 && aborted.contains(&4) {
                    let snap = view.tasks[0].snapshot.as_ref().unwrap();
                    seen_expiry_inside_a_trip =
                        snap.checkpoint.0 == 4 && (3085.0 - snap.at as f64) < FLOW_MS;
                }
            }
        }
        assert!(
            seen_expiry_inside_a_trip,
            "the lesson no longer expires chk-4 during its chip's trip"
        );
    }

    /// At its snapshot the source's `offset (0, 5)` leaves its state line for
    /// `chk-1` above the graph, is on its way halfway through the trip and gone
    /// once it arrived; the values are the snapshot's even after the source read on.
    #[test]
    fn a_snapshot_chip_travels_from_the_state_line_to_chk_n() {
        let src = 0;
        let w = run_until(|w| w.view().tasks[src].snapshot.is_some());
        let (job, view) = (w.job_view(), w.view());
        let at = view.tasks[src].snapshot.as_ref().unwrap().at as f64;
        let s0 = scene_fit(&job, &view, at, test_fit());
        let chip = s0
            .flows
            .chips
            .iter()
            .find(|c| c.task == src)
            .expect("a chip at the snapshot");
        assert_eq!(chip.direction, Direction::ToStorage);
        assert_eq!(chip.checkpoint, 1);
        assert_eq!(chip.text, "offset (0, 5)");
        let lane = &s0.lanes[src].boxed;
        assert!(
            chip.x > lane.x && chip.x < lane.x + lane.w,
            "starts on its lane"
        );
        assert!(chip.shown, "drawn as it leaves");
        assert!(
            chip.x + chip.w / 2.0 <= lane.x + lane.w,
            "inside its lane as it leaves"
        );
        // The line lends it its values: only the `⤴ chk-1` mark stays.
        assert!(s0.lanes[src].is_lifted);
        assert!((chip.y - (lane.y + s0.text.state_y - s0.text.lane_state * 0.35)).abs() < 1e-9);
        let store = s0.flows.store.as_ref().unwrap();
        assert_eq!(store.checkpoint, 1);
        let top = s0.operators.iter().map(|o| o.y).fold(f64::MAX, f64::min);
        assert!(
            store.y - store.h / 2.0 >= 0.0 && store.y + store.h / 2.0 < top,
            "chk-1 is in the room above the graph, under the strip"
        );
        assert!(store.x + store.w / 2.0 <= s0.width);
        assert_eq!(chip.to.1, store.y);
        assert!(
            chip.to.0 <= store.x && chip.to.0 + chip.w / 2.0 <= s0.width,
            "inside the scene"
        );
        // Halfway in time, halfway along the path (the easing is symmetric);
        // all the way it rises from its line, then goes across above the graph.
        let mid = scene_fit(&job, &view, at + FLOW_MS / 2.0, test_fit());
        let c = mid.flows.chips.iter().find(|c| c.task == src).unwrap();
        let (from, to) = (chip.from, chip.to);
        let length = (from.1 - to.1).abs() + (to.0 - from.0).abs();
        let travelled = (from.1 - c.y).abs() + (c.x - from.0).abs();
        assert!((travelled - length / 2.0).abs() < 1e-6);
        for k in 0..=20 {
            let s = scene_fit(&job, &view, at + FLOW_MS * k as f64 / 21.0, test_fit());
            let c = s.flows.chips.iter().find(|c| c.task == src).unwrap();
            // Its trail is drawn along the store's row only, from the corner.
            let trail = c.trail();
            let on_row = c.y == to.1 && c.x != from.0;
            assert_eq!(!trail.is_empty(), on_row, "{trail:?}");
            if on_row {
                assert_eq!(trail, vec![c.corner, (c.x, c.y)]);
            }
            // Shown only where it crosses no text: never over another lane or
            // an operator's header.
            if c.shown {
                for l in s.lanes.iter().filter(|l| l.boxed.task != src) {
                    let over = c.rect().overlap(&l.boxed.rect());
                    assert_eq!(over, 0.0, "over {}", l.boxed.name);
                }
                for o in &s.operators {
                    let over = c.rect().overlap(&o.header_rect(&s.text));
                    assert_eq!(over, 0.0, "over {}'s header", o.name);
                }
            }
            assert!(
                (c.x - from.0).abs() < 1e-9 || ((c.y - to.1).abs() < 1e-9 && c.y < top),
                "on its line's vertical or on the store's row above the graph: {:?}",
                (c.x, c.y)
            );
        }
        let end = scene_fit(&job, &view, at + FLOW_MS, test_fit());
        assert!(end.flows.chips.iter().all(|c| c.task != src), "arrived");
        for p in [0.0, 0.2, 0.5, 0.8, 1.0] {
            assert!(ease(p) <= ease((p + 0.1_f64).min(1.0)));
        }
        assert_eq!((ease(0.0), ease(1.0)), (0.0, 1.0));
    }

    /// A two-phase-commit sink's chip carries what chk-1 stores of it: the
    /// transaction its snapshot pre-committed and the one it opened after.
    #[test]
    fn a_sink_chip_carries_the_transactions_chk_n_stores() {
        let sink = 3;
        let w = run_until(|w| w.view().tasks[sink].snapshot.is_some());
        let (job, view) = (w.job_view(), w.view());
        let at = view.tasks[sink].snapshot.as_ref().unwrap().at as f64;
        let s = scene_fit(&job, &view, at, test_fit());
        let chip = s
            .flows
            .chips
            .iter()
            .find(|c| c.task == sink)
            .expect("the sink's chip");
        // As much of `pre-committed T1 open T2` as its lane has room for.
        assert!(chip.text.starts_with("pre-committed T1"), "{}", chip.text);
        assert!(!chip.text.contains("open T1"), "{}", chip.text);
    }

    /// At the restore, chk-1's `offset (0, 5)` leaves the store and lands on the
    /// source's `7 ⟲ 5`; the sum's `(even, 6)` on its `(even, 12 ⟲ 6)`.
    #[test]
    fn a_restore_chip_lands_on_the_rewound_value() {
        let w = run_until(|w| w.view().tasks.iter().any(|t| t.rewind.is_some()));
        let (job, view) = (w.job_view(), w.view());
        let at = view.tasks[0].rewind.as_ref().unwrap().at as f64;
        let s0 = scene_fit(&job, &view, at, test_fit());
        let store = s0.flows.store.clone().expect("chk-1 shown");
        let texts: Vec<&str> = s0
            .flows
            .chips
            .iter()
            .filter(|c| c.direction == Direction::FromStorage)
            .map(|c| c.text.as_str())
            .collect();
        assert!(texts.contains(&"offset (0, 5)"), "{texts:?}");
        assert!(texts.contains(&"sum (even, 6)"), "{texts:?}");
        // They leave chk-1 one after another: the first is drawn at once.
        let shown: Vec<(&str, bool)> = s0
            .flows
            .chips
            .iter()
            .map(|c| (c.text.as_str(), c.shown))
            .collect();
        assert!(
            shown.iter().any(|(t, on)| *t == "offset (0, 5)" && *on),
            "{shown:?}"
        );
        let top = s0.operators.iter().map(|o| o.y).fold(f64::MAX, f64::min);
        for c in &s0.flows.chips {
            assert_eq!(c.y, store.y, "leaves chk-1");
            assert_eq!(
                c.corner,
                (c.to.0, store.y),
                "across above the graph, then down"
            );
            assert!(store.y < top);
            assert!(
                c.x <= store.x && c.x + c.w / 2.0 <= s0.width,
                "inside the scene"
            );
            let lane = &s0.lanes[c.task];
            let line = lane.state.as_ref().unwrap();
            let left = lane.boxed.x + 9.0 + rewound_x(line, s0.text.lane_state).unwrap();
            assert!(
                (c.to.0 - (left - PAD + c.w / 2.0)).abs() < 1e-9,
                "lands on ⟲"
            );
        }
        let src = s0.lanes[0].state.as_ref().unwrap();
        assert_eq!(src.text(Lang::En), "offset 7 ⟲ 5 (chk-1)");
        assert_eq!(
            rewound_x(src, 10.0),
            Some(text_width("offset ", 10.0, Face::Mono))
        );
        let late = scene_fit(&job, &view, at + FLOW_MS - 1.0, test_fit());
        for c in &late.flows.chips {
            assert!((c.x - c.to.0).abs() < 1.0 && (c.y - c.to.1).abs() < 1.0);
        }
        assert!(scene_fit(&job, &view, at + FLOW_MS, test_fit())
            .flows
            .store
            .is_none());
    }

    /// No room above the graph: chk-n goes inside the scene's top right corner.
    #[test]
    fn the_store_stays_in_the_scene_without_room_above() {
        let s = store_at(3, 800.0, 0.0, 16.0);
        assert!(s.y - s.h / 2.0 >= 0.0 && s.x + s.w / 2.0 <= 800.0);
        let above = store_at(3, 800.0, 80.0, 16.0);
        assert!(above.y + above.h / 2.0 < 0.0 && above.y - above.h / 2.0 >= -80.0);
    }
}
