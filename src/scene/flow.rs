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

use super::layout::text_width;
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
}

impl Chip {
    /// The trail behind it: from where it left, round the corner once it has
    /// turned, to where it is now.
    pub fn trail(&self) -> Vec<(f64, f64)> {
        let dist = |a: (f64, f64), b: (f64, f64)| (b.0 - a.0).hypot(b.1 - a.1);
        let mut points = vec![self.from];
        if dist(self.from, (self.x, self.y)) > dist(self.from, self.corner) {
            points.push(self.corner);
        }
        points.push((self.x, self.y));
        points
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
    let w = text_width(&label, size, true) + 2.0 * PAD + 22.0;
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
    (text_width(text, size, true) + 2.0 * PAD, size * 1.45)
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
    let Some(checkpoint) = chips.iter().map(|c| c.checkpoint).max() else {
        return Flows::default();
    };
    let store = store_at(checkpoint, width, gap, size);
    for c in &mut chips {
        // At the store, a chip wider than it stays inside the scene's right edge.
        let at_store = (store.x.min(width - c.w / 2.0 - 4.0), store.y);
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
    Flows {
        store: Some(store),
        chips,
    }
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
    let width = lane.boxed.w - 26.0;
    let line = state_line::state_line(&then, uid, t, width, size, lang)?;
    let text = values_text(&line, lang);
    let (w, h) = chip_size(&text, size);
    // It leaves from the values, after the line's `⤴ chk-n ` mark.
    let mark = lane
        .state
        .as_ref()
        .and_then(|s| s.snapshot.as_deref())
        .map_or(0.0, |m| text_width(&format!("{m} "), size, true));
    let from = on_line(left + mark, baseline, w, size);
    Some(Chip {
        task: lane.boxed.task,
        direction: Direction::ToStorage,
        checkpoint: snap.checkpoint.0,
        text,
        from,
        to: from,
        progress,
        corner: from,
        x: from.0,
        y: from.1,
        w,
        h,
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
        from: to,
        to,
        progress,
        corner: to,
        x: to.0,
        y: to.1,
        w,
        h,
    })
}

/// Where on `line` (from its start, scene units) its first rewound value's text
/// begins; `None`: nothing on it is rewound.
pub fn rewound_x(line: &StateLine, size: f64) -> Option<f64> {
    let w = |s: &str| text_width(s, size, true);
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
    use crate::scene::{scene_fit, Fit};
    use engine::runner::load;
    use engine::World;

    fn fit() -> Fit {
        Fit {
            size: Some((1100.0, 900.0)),
            ..Fit::default()
        }
    }

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

    /// At its snapshot the source's `offset (0, 5)` leaves its state line for
    /// `chk-1` above the graph, is on its way halfway through the trip and gone
    /// once it arrived; the values are the snapshot's even after the source read on.
    #[test]
    fn a_snapshot_chip_travels_from_the_state_line_to_chk_n() {
        let src = 0;
        let w = run_until(|w| w.view().tasks[src].snapshot.is_some());
        let (job, view) = (w.job_view(), w.view());
        let at = view.tasks[src].snapshot.as_ref().unwrap().at as f64;
        let s0 = scene_fit(&job, &view, at, fit());
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
        let mid = scene_fit(&job, &view, at + FLOW_MS / 2.0, fit());
        let c = mid.flows.chips.iter().find(|c| c.task == src).unwrap();
        let (from, to) = (chip.from, chip.to);
        let length = (from.1 - to.1).abs() + (to.0 - from.0).abs();
        let travelled = (from.1 - c.y).abs() + (c.x - from.0).abs();
        assert!((travelled - length / 2.0).abs() < 1e-6);
        for k in 0..=20 {
            let s = scene_fit(&job, &view, at + FLOW_MS * k as f64 / 21.0, fit());
            let c = s.flows.chips.iter().find(|c| c.task == src).unwrap();
            // Its trail turns the same corner once it has.
            let trail = c.trail();
            assert_eq!(trail.first(), Some(&from));
            assert_eq!(trail.last(), Some(&(c.x, c.y)));
            assert_eq!(trail.len() == 3, c.y == to.1 && c.x != from.0, "{trail:?}");
            assert!(
                (c.x - from.0).abs() < 1e-9 || ((c.y - to.1).abs() < 1e-9 && c.y < top),
                "on its line's vertical or on the store's row above the graph: {:?}",
                (c.x, c.y)
            );
        }
        let end = scene_fit(&job, &view, at + FLOW_MS, fit());
        assert!(end.flows.chips.iter().all(|c| c.task != src), "arrived");
        for p in [0.0, 0.2, 0.5, 0.8, 1.0] {
            assert!(ease(p) <= ease((p + 0.1_f64).min(1.0)));
        }
        assert_eq!((ease(0.0), ease(1.0)), (0.0, 1.0));
    }

    /// At the restore, chk-1's `offset (0, 5)` leaves the store and lands on the
    /// source's `7 ⟲ 5`; the sum's `(even, 6)` on its `(even, 12 ⟲ 6)`.
    #[test]
    fn a_restore_chip_lands_on_the_rewound_value() {
        let w = run_until(|w| w.view().tasks.iter().any(|t| t.rewind.is_some()));
        let (job, view) = (w.job_view(), w.view());
        let at = view.tasks[0].rewind.as_ref().unwrap().at as f64;
        let s0 = scene_fit(&job, &view, at, fit());
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
            Some(text_width("offset ", 10.0, true))
        );
        let late = scene_fit(&job, &view, at + FLOW_MS - 1.0, fit());
        for c in &late.flows.chips {
            assert!((c.x - c.to.0).abs() < 1.0 && (c.y - c.to.1).abs() < 1.0);
        }
        assert!(scene_fit(&job, &view, at + FLOW_MS, fit())
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
