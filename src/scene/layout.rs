//! Where operators, subtask lanes and channels go: column = the operator's
//! topological depth, operators of one column stacked, one lane per subtask, a
//! channel from the sender's lane (right edge) to the receiver's lane (left edge).
//!
//! A phone's screen is narrow and tall, so there the graph runs top to bottom
//! ([`Orientation::Down`]): row = depth (sources at the top, sinks at the
//! bottom), operators of one row and the subtasks of one operator side by
//! side, a channel from the sender's bottom edge to the receiver's top edge —
//! the same boxes, lanes and paths, so tokens, labels and chips are placed by
//! the same code ([`Geometry::fit`]).
//!
//! # Fitting the stage
//! The stage scales the scene uniformly into its box (SVG `meet`). A fixed
//! layout would leave a wide box's sides empty or shrink a long chain's text
//! below what the back of a classroom can read, so [`Geometry::fit`] shapes the
//! scene to the box: the channels between columns stretch (between
//! [`MIN_GAP_X`] and [`MAX_GAP_X`]) until the scene has the box's aspect, and a
//! short job gets vertical margin rather than growing past [`MAX_SCALE`]. Text
//! sizes are fixed in scene units, so the scale is what makes them readable:
//! [`Geometry::scale_in`].

use engine::view::JobView;

use super::geometry::{text_width, Face, Rect};

/// Left and right margin.
pub const MARGIN_X: f64 = 12.0;
/// Top margin (room for barrier labels above the first lane's channels).
pub const MARGIN_TOP: f64 = 50.0;
/// Bottom margin.
pub const MARGIN_BOTTOM: f64 = 20.0;
/// The narrowest and widest an operator box gets (its text decides between).
pub const MIN_BOX_W: f64 = 150.0;
pub const MAX_BOX_W: f64 = 300.0;
/// Horizontal room for channels between two columns (the natural layout).
pub const GAP_X: f64 = 160.0;
/// Room between two columns joined by crossing channels (a parallel hash or
/// rebalance edge), where more tokens share the space.
pub const GAP_X_WIDE: f64 = 230.0;
/// The least room for channels when fitting a narrow box (about four tokens).
pub const MIN_GAP_X: f64 = 115.0;
/// The least room for crossing channels when fitting a narrow box.
pub const MIN_GAP_X_WIDE: f64 = 205.0;
/// The most room for channels when fitting a wide box (beyond it the scene
/// grows taller instead).
pub const MAX_GAP_X: f64 = 460.0;
/// The stage never magnifies the scene more than this (a short pipeline on a
/// big screen gets margins, not 60 px text).
pub const MAX_SCALE: f64 = 1.6;
/// Operator name and kind above the lanes.
pub const HEADER: f64 = 64.0;
/// Height of a subtask lane: name, state, note and the live-state line.
pub const LANE_H: f64 = 112.0;
/// Between lanes.
pub const LANE_GAP: f64 = 8.0;
/// Below the last lane.
pub const BOX_PAD: f64 = 10.0;
/// Between operators in one column.
pub const OP_GAP_Y: f64 = 34.0;
/// The record in progress, drawn at a lane's right end.
pub const BUSY_W: f64 = 42.0;
/// The smallest operator name (CSS px) a projector needs: the lanes give up
/// room for the live-state line before the names go below it.
pub const MIN_NAME_PX: f64 = 18.5;
/// The least a phone's stage renders its smallest text at (CSS px): the
/// braces' `chk-n` ([`super::geometry::BRACE_TEXT`]) is the smallest.
pub const MIN_PHONE_PX: f64 = 12.0;
/// The most a phone's stage magnifies the scene: a short pipeline gets wider
/// lanes, not larger text (the graph stays as short as it can on a tall screen).
pub const MAX_PHONE_SCALE: f64 = 0.85;
/// Between the rows of a graph laid out top to bottom: room for a channel's
/// queues (about four tokens), and more where channels cross.
pub const GAP_Y_DOWN: f64 = 150.0;
pub const GAP_Y_DOWN_WIDE: f64 = 215.0;
/// Which way a graph runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Orientation {
    /// Left to right, depth by column: a projector's wide screen.
    #[default]
    Across,
    /// Top to bottom, depth by row, subtasks side by side: a phone.
    Down,
}

/// Text size of projector mode (A⁺), relative to the normal stage.
pub const PROJECTOR_ZOOM: f64 = 1.2;
/// What the live-state line (`offset (0, 5)`) renders at on a fitted stage, CSS
/// px: the projector rule for states and records is ≥ 14 px, and a stage
/// drawn small enlarges the line (up to the states' own size) to keep it.
pub const STATE_PX: f64 = 14.05;

/// The stage's text sizes (scene units) and baselines (from the top of the
/// box or lane) at a zoom; the stage writes them into the SVG, so these are
/// the only numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Text {
    /// An operator's name (`sum`).
    pub operator_name: f64,
    /// Its kind (`keyed_sum`, `sink · 2PC`), monospace.
    pub operator_kind: f64,
    /// A subtask's name (`sum#0`), monospace.
    pub lane_name: f64,
    /// A subtask's state (`▶ running`).
    pub lane_status: f64,
    /// A subtask's note (`aligning B2`, back-pressure, its transaction).
    pub lane_note: f64,
    /// A subtask's live state (`offset (0, 5)`), monospace.
    pub lane_state: f64,
    /// Baselines: operator name and kind (from the box's top), lane name,
    /// state and note (from the lane's top).
    pub name_y: f64,
    pub kind_y: f64,
    pub lane_name_y: f64,
    pub status_y: f64,
    pub note_y: f64,
    /// Baseline of the live-state line (from the lane's top).
    pub state_y: f64,
    /// Rows the live state may take (1, or 2 where the stage has the height:
    /// a keyed state of up to four keys then shows them all).
    pub state_rows: u32,
    /// Rows a lane's note may take (2 on a phone whose lanes are narrower than
    /// the widest note: `⚠ back-` / `pressured`).
    pub note_rows: u32,
}

impl Text {
    /// The sizes at `zoom` (1: normal, [`PROJECTOR_ZOOM`]: projector mode).
    pub fn at(zoom: f64) -> Text {
        let (name, kind) = (28.0 * zoom, 17.0 * zoom);
        let (lane, status, note) = (22.0 * zoom, 21.0 * zoom, 17.0 * zoom);
        Text {
            operator_name: name,
            operator_kind: kind,
            lane_name: lane,
            lane_status: status,
            lane_note: note,
            name_y: 4.0 + 0.9 * name,
            kind_y: 4.0 + 0.9 * name + 1.25 * kind,
            lane_name_y: 5.0 + 0.95 * lane,
            status_y: 5.0 + 0.95 * lane + 1.3 * status,
            note_y: 5.0 + 0.95 * lane + 1.3 * status + 1.45 * note,
            state_y: 5.0 + 0.95 * lane + 1.3 * status + 1.45 * note + 1.4 * note,
            lane_state: note,
            state_rows: 1,
            note_rows: 1,
        }
    }

    /// The same sizes with `rows` rows for a lane's note: the live-state line
    /// moves down by the added rows.
    pub fn with_note_rows(self, rows: u32) -> Text {
        let added = f64::from(rows.max(1) - 1) * self.note_row_step();
        Text {
            state_y: self.state_y + added,
            note_rows: rows.max(1),
            ..self
        }
    }

    /// From one note row's baseline to the next's.
    pub fn note_row_step(&self) -> f64 {
        1.3 * self.lane_note
    }

    /// From one live-state row's baseline to the next's: room for the largest
    /// size the stage draws the line at.
    pub fn state_row_step(&self) -> f64 {
        1.25 * self.lane_status
    }

    /// An operator's header: its name and kind, with room under the kind's
    /// descenders ([`HEADER`] at the normal size, more in projector mode so the
    /// first lane's border never runs through `keyed_sum`).
    pub fn header(&self) -> f64 {
        (self.kind_y + 0.3 * self.operator_kind + 4.0).max(HEADER)
    }

    /// A lane's height: its four rows (name, status, note, live state) with the
    /// live-state line at the largest size the stage draws it
    /// ([`Self::lane_status`]), so the bottom border never runs through it;
    /// [`LANE_H`] at the normal size.
    pub fn lane_h(&self) -> f64 {
        (self.state_y + 0.28 * self.lane_status + 4.0).max(LANE_H)
            + f64::from(self.state_rows.saturating_sub(1)) * self.state_row_step()
    }
}

/// Room for a lane's live-state line (`super::state_line`): a source's
/// rewound offset (`offset 7 ⟲ 5 (chk-1)`), a keyed operator's two short
/// keys (`sum (even, 12) (odd, 9)`; more, or longer, show as "+n more"),
/// monospace at `size`.
fn state_room(o: &engine::view::OperatorView, size: f64) -> f64 {
    use engine::scenario::OperatorKind::*;
    let sample = match o.kind {
        Source => "offset 7 ⟲ 5 (chk-1)".to_string(),
        Map | Filter | Sink => return 0.0,
        // Two short keys: a longer uid or keys show fewer, with "+n more".
        _ => "sum (even, 12) (odd, 9)".to_string(),
    };
    text_width(&sample, size, Face::Mono)
}

/// What the stage asks of the layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// The box the scene is drawn into, CSS px; `None`: the natural layout.
    pub size: Option<(f64, f64)>,
    /// Text size factor: 1, or [`PROJECTOR_ZOOM`] in projector mode.
    pub zoom: f64,
    /// Width of the widest subtask state in the page's language at zoom 1
    /// (scene units, [`text_width`] of `▶ running` and the others).
    pub status_width: f64,
    /// Width of the widest note a lane can show (back-pressured, persisting,
    /// aligning B12) at zoom 1, scene units.
    pub note_width: f64,
    /// Width of the widest transaction badge of a two-phase-commit sink's lane
    /// (`◴ T88 pre-committed`) at zoom 1, scene units.
    pub txn_width: f64,
    /// The page's language (the lanes' live-state lines are worded in it).
    pub lang: crate::i18n::Lang,
    /// Which way the graph runs: across a projector, down a phone (which fits
    /// the box's width only; the stage is as tall as the graph).
    pub orientation: Orientation,
}

impl Default for Fit {
    fn default() -> Fit {
        Fit {
            size: None,
            zoom: 1.0,
            status_width: 110.0,
            note_width: 150.0,
            txn_width: 170.0,
            lang: crate::i18n::Lang::default(),
            orientation: Orientation::Across,
        }
    }
}

/// An operator's box.
#[derive(Clone, Debug, PartialEq)]
pub struct OperatorBox {
    /// Operator index.
    pub op: usize,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// Display name.
    pub name: String,
    /// Its kind in the contract's spelling (`keyed_sum`).
    pub kind: String,
    /// Function or sink kind.
    pub detail: Option<String>,
}

impl OperatorBox {
    /// Its header (name and kind) laid out with `text`, for what must not
    /// cover it.
    pub fn header_rect(&self, text: &Text) -> Rect {
        Rect {
            x: self.x,
            y: self.y,
            w: self.w,
            h: text.header(),
        }
    }

    /// The line under the name: the function (`identity`), the sink's kind
    /// (`sink · 2PC`), or the operator's kind.
    pub fn kind_label(&self) -> String {
        kind_label(&self.kind, self.detail.as_deref())
    }
}

fn kind_label(kind: &str, detail: Option<&str>) -> String {
    match detail {
        Some(d) if kind == "sink" && d.len() <= 5 => format!("sink · {d}"),
        Some(d) if kind == "sink" => format!("sink: {d}"),
        Some(d) => d.to_string(),
        None => kind.to_string(),
    }
}

/// A subtask's lane inside its operator's box.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneBox {
    /// Task id.
    pub task: usize,
    /// `uid#index`.
    pub name: String,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl LaneBox {
    /// Vertical centre.
    pub fn cy(&self) -> f64 {
        self.y + self.h / 2.0
    }

    /// Horizontal centre.
    pub fn cx(&self) -> f64 {
        self.x + self.w / 2.0
    }

    /// Its box, for what must not cover its text.
    pub fn rect(&self) -> Rect {
        Rect {
            x: self.x,
            y: self.y,
            w: self.w,
            h: self.h,
        }
    }
}

/// A channel's path from the sender's port to the receiver's: a level run at
/// the sender (its out-queue, records waiting for credit), the wire, and a
/// level run at the receiver (its input queue). Level queues keep two inputs
/// of one lane apart where crossing channels converge. In a graph laid out top
/// to bottom the runs are upright ([`ChannelPath::down`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelPath {
    /// Channel id.
    pub channel: usize,
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
    /// Length of the level run at the sender.
    pub run_out: f64,
    /// Length of the level run at the receiver.
    pub run_in: f64,
    /// Which side of its lane's centre the receiving port is: −1 above, 1
    /// below, 0 the only one (left and right in a graph laid out top to
    /// bottom). Barrier tags, braces and "+N" go on that side, away from the
    /// lane's other input.
    pub side: f64,
    /// It runs downwards (a phone's layout): its runs are upright, and what is
    /// placed beside it goes left or right of it rather than above or below.
    pub down: bool,
}

impl ChannelPath {
    /// The polyline's corners: sender port, end of the level run, start of the
    /// receiver's level run, receiver port.
    pub fn points(&self) -> [(f64, f64); 4] {
        if self.down {
            return [
                (self.x1, self.y1),
                (self.x1, self.y1 + self.run_out),
                (self.x2, self.y2 - self.run_in),
                (self.x2, self.y2),
            ];
        }
        [
            (self.x1, self.y1),
            (self.x1 + self.run_out, self.y1),
            (self.x2 - self.run_in, self.y2),
            (self.x2, self.y2),
        ]
    }

    /// The box around the path's corners.
    pub fn bounds(&self) -> super::geometry::Rect {
        let p = self.points();
        let (x0, x1) = p
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), q| (a.min(q.0), b.max(q.0)));
        let (y0, y1) = p
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), q| (a.min(q.1), b.max(q.1)));
        super::geometry::Rect {
            x: x0,
            y: y0,
            w: x1 - x0,
            h: y1 - y0,
        }
    }

    /// Length of the path.
    pub fn length(&self) -> f64 {
        let p = self.points();
        p.windows(2)
            .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
            .sum()
    }

    /// The point at distance `d` from the sender (clamped to the path).
    pub fn at(&self, d: f64) -> (f64, f64) {
        let p = self.points();
        let mut left = d.max(0.0);
        for w in p.windows(2) {
            let seg = (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1);
            if left <= seg && seg > f64::EPSILON {
                let u = left / seg;
                return (
                    w[0].0 + (w[1].0 - w[0].0) * u,
                    w[0].1 + (w[1].1 - w[0].1) * u,
                );
            }
            left -= seg;
        }
        p[3]
    }
}

/// The fixed geometry of a job.
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    pub width: f64,
    pub height: f64,
    pub operators: Vec<OperatorBox>,
    /// By task id.
    pub lanes: Vec<LaneBox>,
    /// By channel id.
    pub channels: Vec<ChannelPath>,
    /// The live-state line's text size (scene units): [`Text::lane_state`], or
    /// larger on a stage drawn small, so that it renders at [`STATE_PX`].
    pub state_size: f64,
    /// Rows the lanes give the live-state line ([`Text::state_rows`]).
    pub state_rows: u32,
    /// Rows the lanes give their note ([`Text::note_rows`]).
    pub note_rows: u32,
    /// Fitted into a box whose height bounds the scale (the channels stretch to
    /// the box's width); `false`: its width does, or the natural layout.
    pub height_bound: bool,
    /// The size the lanes were given room for the live-state line at (`None`:
    /// no room, the names needed it).
    state_room_at: Option<f64>,
}

fn box_height(parallelism: u32, text: &Text) -> f64 {
    let p = parallelism.max(1) as f64;
    text.header() + p * text.lane_h() + (p - 1.0) * LANE_GAP + BOX_PAD
}

/// A function or sink kind, short enough for a box.
pub fn short_detail(detail: &str) -> String {
    match detail {
        "TwoPhaseCommit" => "2PC".into(),
        "Idempotent" => "idempotent".into(),
        "AtLeastOnce" => "at-least-once".into(),
        other => other.to_string(),
    }
}

/// The longest level runs at a channel's ends: room for the out-queue's three
/// and the input queue's five tokens drawn (`tokens::MAX_OUT`, `MAX_IN`).
const RUN_OUT: f64 = 3.0 * super::SPACING + 6.0;
const RUN_IN: f64 = 5.0 * super::SPACING + 6.0;

/// Most distance between two ports of a lane: queues of neighbouring channels
/// (tokens are [`super::TOKEN`] high) then sit apart instead of overlapping where
/// crossing channels converge on a receiver.
const PORT_STEP: f64 = 56.0;

/// Offset of port `i` of `n` around a lane's centre.
fn port_offset(i: usize, n: usize) -> f64 {
    port_offset_in(i, n, LANE_H)
}

/// Offset of port `i` of `n` around the centre of a lane edge `span` long.
fn port_offset_in(i: usize, n: usize, span: f64) -> f64 {
    if n <= 1 {
        return 0.0;
    }
    let step = ((span - 24.0) / (n - 1) as f64).min(PORT_STEP);
    (i as f64 - (n - 1) as f64 / 2.0) * step
}

impl Geometry {
    /// Lays out `job` with the natural gaps between columns.
    pub fn of(job: &JobView) -> Geometry {
        Geometry::fit(job, Fit::default())
    }

    /// How many CSS pixels a scene unit takes when this scene is drawn into a
    /// box of `width` × `height` pixels (SVG `meet`).
    pub fn scale_in(&self, width: f64, height: f64) -> f64 {
        (width / self.width).min(height / self.height)
    }

    /// Lays out `job` as `fit` asks (see the module documentation).
    pub fn fit(job: &JobView, fit: Fit) -> Geometry {
        if let (Orientation::Down, Some((w, _))) = (fit.orientation, fit.size) {
            return Geometry::fit_down(job, fit, w);
        }
        let base = Text::at(fit.zoom);
        let Some((w, h)) = fit.size else {
            return Geometry::fit_rooms(job, fit, base.lane_state);
        };
        // The live-state line renders at STATE_PX: its size depends on the
        // scale, which depends on the lanes' room for it. The room grows with
        // the size as long as the operator names stay readable; past that the
        // line keeps its size and shows fewer values ("+n more"). Projector
        // mode (A⁺) enlarges the names, and this line only as far as it needs.
        let least = Text::at(1.0).lane_state;
        let size_at = |g: &Geometry| (STATE_PX / g.scale_in(w, h)).clamp(least, base.lane_status);
        let names = |g: &Geometry| g.scale_in(w, h) * Text::at(1.0).operator_name;
        let mut g = Geometry::fit_rooms(job, fit, least);
        let mut size = least;
        for _ in 0..4 {
            let need = size_at(&g);
            // Projector mode keeps its room for the names: its line is drawn
            // at the size it needs, with fewer values.
            if need <= size + 0.05 || g.state_room_at.is_none() || fit.zoom > 1.0 {
                break;
            }
            // A little more room than the size: the scale shrinks as the lanes widen.
            let wider = Geometry::fit_with(job, fit, Some(need * 1.03));
            if names(&wider) < MIN_NAME_PX {
                break;
            }
            (size, g) = (need, wider);
        }
        g.state_size = size_at(&g);
        // A stage bounded by its width has height to spare: the lanes of a job
        // with keyed state take a second row for it when that costs no scale.
        let keyed = job
            .operators
            .iter()
            .any(|o| state_room(o, 1.0) > 0.0 && o.kind != engine::scenario::OperatorKind::Source);
        if keyed {
            let mut two = Geometry::fit_with_rows(job, fit, g.state_room_at, 2);
            if two.scale_in(w, h) >= g.scale_in(w, h) * 0.999 {
                two.state_size = g.state_size;
                return two;
            }
        }
        g
    }

    /// Lanes wide enough for the live-state line at `state_size`, unless that
    /// would shrink the operator names below what a projector needs (then the
    /// line shows fewer values, with "+n more").
    fn fit_rooms(job: &JobView, fit: Fit, state_size: f64) -> Geometry {
        let roomy = Geometry::fit_with(job, fit, Some(state_size));
        // Projector mode (A⁺) wants its names larger still than that minimum.
        let least = if fit.zoom > 1.0 {
            MIN_NAME_PX * fit.zoom * 1.05
        } else {
            MIN_NAME_PX
        };
        match fit.size {
            Some((w, h)) if roomy.scale_in(w, h) * Text::at(fit.zoom).operator_name < least => {
                Geometry::fit_with(job, fit, None)
            }
            _ => roomy,
        }
    }

    fn fit_with(job: &JobView, fit: Fit, state_room_at: Option<f64>) -> Geometry {
        Geometry::fit_with_rows(job, fit, state_room_at, 1)
    }

    /// The geometry with `state_rows` rows for the live-state line, lanes wide
    /// enough for it at `state_room_at` (if given), fitted to `fit`.
    fn fit_with_rows(
        job: &JobView,
        fit: Fit,
        state_room_at: Option<f64>,
        state_rows: u32,
    ) -> Geometry {
        let text = Text {
            state_rows,
            ..Text::at(fit.zoom)
        };
        let column_ops = columns_of(job);
        let columns = column_ops.len();
        let column_height = |ops: &Vec<usize>| column_height(job, ops, &text);
        let max_h = column_ops.iter().map(column_height).fold(0.0, f64::max);
        let wide = wide_gaps(job, columns);
        // Each column as wide as its widest text needs.
        let column_w: Vec<f64> = column_ops
            .iter()
            .map(|ops| {
                ops.iter()
                    .map(|&i| box_width(job, i, fit, &text, state_room_at))
                    .fold(MIN_BOX_W, f64::max)
            })
            .collect();
        let natural = |c: usize| if wide[c] { GAP_X_WIDE } else { GAP_X };
        // Projector mode gives the text more room and the channels a little less.
        let tighter = if fit.zoom > 1.0 { 0.6 } else { 1.0 };
        let least = |c: usize| tighter * if wide[c] { MIN_GAP_X_WIDE } else { MIN_GAP_X };
        let content_h = MARGIN_TOP + max_h + MARGIN_BOTTOM;
        let fixed_w = 2.0 * MARGIN_X + column_w.iter().sum::<f64>();
        let mut height_bound = false;
        let (stretch, pad_y) = match fit.size {
            Some((w, h)) if w > 0.0 && h > 0.0 && columns > 1 => {
                let min_gaps: f64 = (0..columns - 1).map(least).sum();
                height_bound = h / content_h < w / (fixed_w + min_gaps);
                // The scale the box allows at the least gaps, never above the cap.
                let scale = (w / (fixed_w + min_gaps)).min(h / content_h).min(MAX_SCALE);
                // Gaps that give the scene the box's width at that scale.
                let room = w / scale - fixed_w;
                let stretch = (room / min_gaps).clamp(1.0, MAX_GAP_X / (tighter * MIN_GAP_X));
                // Height the scene needs so that `meet` does not exceed the scale.
                let pad_y = ((h / scale - content_h) / 2.0).max(0.0);
                (Some(stretch), pad_y)
            }
            _ => (None, 0.0),
        };
        let gap = |c: usize| stretch.map_or_else(|| natural(c), |k| least(c) * k);
        let column_x: Vec<f64> = (0..columns)
            .scan(MARGIN_X, |x, c| {
                let this = *x;
                *x += column_w[c] + gap(c);
                Some(this)
            })
            .collect();
        let mut operators = Vec::with_capacity(job.operators.len());
        for (c, ops) in column_ops.iter().enumerate() {
            let x = column_x[c];
            let mut y = pad_y + MARGIN_TOP + (max_h - column_height(ops)) / 2.0;
            for &i in ops {
                let o = &job.operators[i];
                let h = box_height(o.parallelism, &text);
                operators.push(OperatorBox {
                    op: i,
                    x,
                    y,
                    w: column_w[c],
                    h,
                    name: o.name.clone(),
                    kind: o.kind.as_str().to_string(),
                    detail: o.detail.as_deref().map(short_detail),
                });
                y += h + OP_GAP_Y;
            }
        }
        operators.sort_by_key(|b| b.op);
        let lanes = lanes_of(job, &operators, &text);
        let channels = channels_of(job, &operators, &lanes);
        Geometry {
            width: column_x[columns - 1] + column_w[columns - 1] + MARGIN_X,
            height: content_h + 2.0 * pad_y,
            operators,
            lanes,
            channels,
            state_size: text.lane_state,
            state_rows,
            note_rows: 1,
            height_bound,
            state_room_at,
        }
    }
}

/// The operators of each column, by depth from the sources (at least one column).
fn columns_of(job: &JobView) -> Vec<Vec<usize>> {
    let columns = job
        .operators
        .iter()
        .map(|o| o.depth as usize + 1)
        .max()
        .unwrap_or(1);
    let mut column_ops: Vec<Vec<usize>> = vec![Vec::new(); columns];
    for (i, o) in job.operators.iter().enumerate() {
        column_ops[o.depth as usize].push(i);
    }
    column_ops
}

/// The height of a column of the operators `ops`, boxes and gaps.
fn column_height(job: &JobView, ops: &[usize], text: &Text) -> f64 {
    let hs: f64 = ops
        .iter()
        .map(|&i| box_height(job.operators[i].parallelism, text))
        .sum();
    hs + OP_GAP_Y * ops.len().saturating_sub(1) as f64
}

/// Which columns get a wide gap after them: those whose channels cross (a
/// sender talks to more than one receiver subtask).
fn wide_gaps(job: &JobView, columns: usize) -> Vec<bool> {
    let mut wide = vec![false; columns];
    for c in &job.channels {
        let (from, to) = (&job.tasks[c.from.0 as usize], &job.tasks[c.to.0 as usize]);
        let fan = job.operators[from.op].parallelism > 1 || job.operators[to.op].parallelism > 1;
        if fan && from.index != to.index {
            wide[job.operators[from.op].depth as usize] = true;
        }
    }
    wide
}

/// The width operator `i`'s box needs for its name, its kind and its lanes'
/// texts (name, status, note, transaction badge, live state at `state_room_at`).
fn box_width(job: &JobView, i: usize, fit: Fit, text: &Text, state_room_at: Option<f64>) -> f64 {
    header_width(job, i, text)
        .max(lane_width(job, i, fit, text, state_room_at) + 16.0)
        .clamp(MIN_BOX_W, MAX_BOX_W)
}

/// The line under operator `i`'s name, as its box draws it ([`OperatorBox::kind_label`]).
fn operator_kind_label(job: &JobView, i: usize) -> String {
    let o = &job.operators[i];
    kind_label(
        o.kind.as_str(),
        o.detail.as_deref().map(short_detail).as_deref(),
    )
}

/// The width operator `i`'s header needs: its name and its kind.
fn header_width(job: &JobView, i: usize, text: &Text) -> f64 {
    let o = &job.operators[i];
    (text_width(&o.name, text.operator_name, Face::Sans) + 24.0)
        .max(text_width(&operator_kind_label(job, i), text.operator_kind, Face::Mono) + 24.0)
}

/// The width one lane of operator `i` needs for its texts: name, status,
/// note, transaction badge, live state at `state_room_at`.
fn lane_width(job: &JobView, i: usize, fit: Fit, text: &Text, state_room_at: Option<f64>) -> f64 {
    let o = &job.operators[i];
    let lane_name = job
        .tasks
        .iter()
        .filter(|t| t.op == i)
        .map(|t| text_width(t.name.as_ref(), text.lane_name, Face::Mono))
        .fold(0.0, f64::max);
    (lane_name + 20.0)
        .max(fit.status_width * fit.zoom + 24.0)
        .max(fit.note_width * fit.zoom + 20.0)
        .max(if o.detail.as_deref() == Some("TwoPhaseCommit") {
            fit.txn_width * fit.zoom + 20.0
        } else {
            0.0
        })
        .max(state_room_at.map_or(0.0, |size| state_room(o, size) + 26.0))
}

/// Each subtask's lane inside its operator's box, one under the other.
fn lanes_of(job: &JobView, operators: &[OperatorBox], text: &Text) -> Vec<LaneBox> {
    job.tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let b = &operators[t.op];
            LaneBox {
                task: i,
                name: t.name.to_string(),
                x: b.x + 8.0,
                y: b.y + text.header() + t.index as f64 * (text.lane_h() + LANE_GAP),
                w: b.w - 16.0,
                h: text.lane_h(),
            }
        })
        .collect()
}

/// Each channel's path from its sender's lane to its receiver's, the ports
/// spread over the lane's height by output and input index.
fn channels_of(job: &JobView, operators: &[OperatorBox], lanes: &[LaneBox]) -> Vec<ChannelPath> {
    let mut out_index = vec![0usize; job.tasks.len()];
    let mut out_count = vec![0usize; job.tasks.len()];
    for c in &job.channels {
        out_count[c.from.0 as usize] += 1;
    }
    job.channels
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (from, to) = (c.from.0 as usize, c.to.0 as usize);
            let j = out_index[from];
            out_index[from] += 1;
            let sender = &operators[job.tasks[from].op];
            let receiver = &operators[job.tasks[to].op];
            let (x1, x2) = (sender.x + sender.w, receiver.x);
            let offset_in = port_offset(c.input.0 as usize, job.tasks[to].inputs.len());
            let span = (x2 - x1).max(0.0);
            ChannelPath {
                channel: i,
                x1,
                y1: lanes[from].cy() + port_offset(j, out_count[from]),
                x2,
                y2: lanes[to].cy() + offset_in,
                run_out: (span * 0.18).min(RUN_OUT),
                run_in: (span * 0.4).min(RUN_IN),
                side: if offset_in.abs() < 1e-9 {
                    0.0
                } else {
                    offset_in.signum()
                },
                down: false,
            }
        })
        .collect()
}

mod down;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_spread_around_the_centre() {
        assert_eq!(port_offset(0, 1), 0.0);
        assert_eq!(port_offset(0, 2), -port_offset(1, 2));
        assert!(port_offset(2, 3) <= (LANE_H - 18.0) / 2.0);
        // Two inputs: their queues do not overlap (a token is TOKEN high), and a
        // token at either port stays inside its lane.
        let gap = port_offset(1, 2) - port_offset(0, 2);
        assert!(gap > super::super::TOKEN, "ports {gap} apart");
        assert!(port_offset(1, 2) + super::super::TOKEN / 2.0 <= LANE_H / 2.0);
    }

    #[test]
    fn a_path_is_parametrised_by_distance() {
        let p = ChannelPath {
            channel: 0,
            x1: 0.0,
            y1: 0.0,
            x2: 50.0,
            y2: 40.0,
            run_out: 10.0,
            run_in: 10.0,
            side: 0.0,
            down: false,
        };
        // 10 level, 50 diagonal (30 × 40), 10 level.
        assert_eq!(p.length(), 70.0);
        assert_eq!(p.at(5.0), (5.0, 0.0));
        assert_eq!(p.at(35.0), (25.0, 20.0));
        assert_eq!(p.at(65.0), (45.0, 40.0));
        assert_eq!(p.at(-5.0), (0.0, 0.0));
        assert_eq!(p.at(99.0), (50.0, 40.0));
    }

    /// The scene boxes the page gives the graph at 1280×720 and 1024×768 (as
    /// measured on the release build, English, the side panel closed; the
    /// geometry script measures the real ones for every lesson).
    const BOXES: [(f64, f64); 2] = [(1169.0, 441.0), (913.0, 506.0)];

    /// At projector sizes every lesson's text renders large enough —
    /// operator names ≥ 18 px, subtask names, states and record labels ≥ 14 px
    /// (their sizes in scene units times the scale) — and the drawing spans the
    /// box in at least one dimension.
    #[test]
    fn every_lesson_fits_a_projector_stage_with_readable_text() {
        for (name, _) in engine::runner::BUILTINS {
            let s = engine::runner::load(name).unwrap();
            let job = engine::World::new(&s, s.seed).unwrap().job_view();
            for (w, h) in BOXES {
                let fit = Fit {
                    size: Some((w, h)),
                    ..Fit::default()
                };
                let g = Geometry::fit(&job, fit);
                let scale = g.scale_in(w, h);
                let text = Text::at(1.0);
                assert!(
                    text.operator_name * scale >= 18.0,
                    "{name} in {w}×{h}: operator names {:.1} px",
                    text.operator_name * scale
                );
                for (what, size) in [
                    ("subtask names", text.lane_name),
                    ("states", text.lane_status),
                    ("record labels", super::super::palette::RECORD_LABEL),
                ] {
                    assert!(
                        size * scale >= 14.0,
                        "{name} in {w}×{h}: {what} {:.1} px",
                        size * scale
                    );
                }
                let left = g.operators.iter().map(|o| o.x).fold(f64::MAX, f64::min);
                let right = g.operators.iter().map(|o| o.x + o.w).fold(0.0, f64::max);
                let top = g.operators.iter().map(|o| o.y).fold(f64::MAX, f64::min);
                let bottom = g.operators.iter().map(|o| o.y + o.h).fold(0.0, f64::max);
                let fill_w = (right - left) * scale / w;
                let fill_h = (bottom - top) * scale / h;
                assert!(
                    fill_w.max(fill_h) >= 0.95,
                    "{name} in {w}×{h}: fills {fill_w:.2} × {fill_h:.2}"
                );
                assert!(scale <= MAX_SCALE + 1e-9);
            }
        }
    }

    /// Fitting only moves columns apart (or adds margin): the order of columns,
    /// the lanes and their channels stay those of the natural layout.
    #[test]
    fn fitting_keeps_the_natural_order() {
        for (name, _) in engine::runner::BUILTINS {
            let s = engine::runner::load(name).unwrap();
            let job = engine::World::new(&s, s.seed).unwrap().job_view();
            let wide = Geometry::fit(
                &job,
                Fit {
                    size: Some((1800.0, 400.0)),
                    ..Fit::default()
                },
            );
            // The natural layout with the room the fitted one gave the
            // live-state line (which grows when the stage is drawn small).
            let room = wide.state_room_at.unwrap_or(Text::at(1.0).lane_state);
            let natural =
                Geometry::fit_with_rows(&job, Fit::default(), Some(room), wide.state_rows);
            assert_eq!(natural.lanes.len(), wide.lanes.len());
            for (a, b) in natural.operators.iter().zip(&wide.operators) {
                // A box may give up its live-state room (never grow) to keep
                // the names readable.
                assert_eq!((a.op, a.h), (b.op, b.h), "{name}");
                assert!(b.w <= a.w, "{name}");
            }
            for (a, b) in natural.channels.iter().zip(&wide.channels) {
                assert_eq!(a.x1 < a.x2, b.x1 < b.x2, "{name}");
            }
            assert!(wide.scale_in(1800.0, 400.0) <= MAX_SCALE + 1e-9, "{name}");
        }
    }

    /// Projector mode (A⁺): every lesson's operator names are at least 15 %
    /// larger than without it where the stage's width bounds the graph; where
    /// its height does, the lanes grow to hold the larger rows (a border never
    /// runs through text), so the names gain less, but at least 5 %.
    #[test]
    fn projector_mode_enlarges_the_text_by_at_least_fifteen_per_cent() {
        for (name, _) in engine::runner::BUILTINS {
            let s = engine::runner::load(name).unwrap();
            let job = engine::World::new(&s, s.seed).unwrap().job_view();
            for (w, h) in BOXES {
                let at = |zoom: f64| {
                    let fit = Fit {
                        size: Some((w, h)),
                        zoom,
                        ..Fit::default()
                    };
                    let g = Geometry::fit(&job, fit);
                    (
                        Text::at(zoom).operator_name * g.scale_in(w, h),
                        g.height_bound,
                    )
                };
                let ((normal, _), (big, height_bound)) = (at(1.0), at(PROJECTOR_ZOOM));
                let least = if height_bound { 1.05 } else { 1.15 };
                assert!(
                    big >= least * normal,
                    "{name} in {w}×{h}: {normal:.1} → {big:.1} px"
                );
            }
        }
    }
}
