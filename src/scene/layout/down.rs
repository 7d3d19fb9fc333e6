//! The graph laid out top to bottom, for a phone: row = the operator's
//! topological depth (sources at the top, sinks at the bottom), the operators
//! of one row and the subtasks of one operator side by side, a channel from the
//! sender's bottom edge down to the receiver's top edge.
//!
//! A phone's stage is fitted to its width only: the scale is what the widest
//! row needs, at most [`MAX_PHONE_SCALE`] (a short job gets wider lanes, not
//! larger text) and at least what renders the smallest text at
//! [`MIN_PHONE_PX`] (a wide row then gets narrower lanes: the subtask names,
//! states and notes are fitted to them by the stage, the note on two rows).
//! Every row fills the width; the stage is as tall as the graph, and the page
//! scrolls.

use engine::view::JobView;

use super::{
    columns_of, header_width, lane_width, operator_kind_label, port_offset_in, short_detail,
    state_room, text_width, wide_gaps, ChannelPath, Face, Fit, Geometry, LaneBox, OperatorBox,
    Text, BOX_PAD, GAP_Y_DOWN, GAP_Y_DOWN_WIDE, LANE_GAP, MARGIN_BOTTOM, MARGIN_TOP, MARGIN_X,
    MAX_PHONE_SCALE, MIN_PHONE_PX, OP_GAP_Y, RUN_IN, RUN_OUT, STATE_PX,
};

/// Room a box keeps around its lanes (each side), as in the projector layout.
const BOX_INSET: f64 = 8.0;

impl Geometry {
    /// The least scale of a phone's stage: its smallest text (the braces'
    /// `chk-n`) renders at [`MIN_PHONE_PX`].
    pub fn least_phone_scale() -> f64 {
        MIN_PHONE_PX / super::super::placement::BRACE_TEXT
    }

    /// Lays out `job` top to bottom for a box `w` CSS px wide (see the module
    /// documentation).
    pub(super) fn fit_down(job: &JobView, fit: Fit, w: f64) -> Geometry {
        let base = Text::at(fit.zoom);
        let rows = columns_of(job);
        let parallelism = |i: usize| f64::from(job.operators[i].parallelism.max(1));
        // Lanes with room for the live-state line at its least size, headers
        // for the name and the kind: the natural width of each box.
        let lane_need: Vec<f64> = (0..job.operators.len())
            .map(|i| lane_width(job, i, fit, &base, Some(base.lane_state)))
            .collect();
        let frame = |i: usize| 2.0 * BOX_INSET + (parallelism(i) - 1.0) * LANE_GAP;
        let natural =
            |i: usize| (frame(i) + parallelism(i) * lane_need[i]).max(header_width(job, i, &base));
        let gaps = |ops: &[usize]| OP_GAP_Y * ops.len().saturating_sub(1) as f64;
        let natural_w = rows
            .iter()
            .map(|ops| ops.iter().map(|&i| natural(i)).sum::<f64>() + gaps(ops))
            .fold(0.0, f64::max)
            + 2.0 * MARGIN_X;
        let scale = (w / natural_w)
            .min(MAX_PHONE_SCALE)
            .max(Geometry::least_phone_scale());
        let width = w / scale;
        // Each row fills the width: its boxes widen in proportion to their
        // natural widths, the header's included, so that a box whose kind is
        // wider than its lanes (`sink: at-least-once`) keeps room for it. A row
        // wider than the screen even at the least scale narrows each box only
        // down to its kind (drawn 11 px in, clear of the right border).
        let least = |i: usize| {
            (text_width(&operator_kind_label(job, i), base.operator_kind, Face::Mono) + 12.0)
                .min(natural(i))
        };
        let mut lane_w = lane_need.clone();
        for ops in &rows {
            let room = width - 2.0 * MARGIN_X - gaps(ops);
            let natural_sum: f64 = ops.iter().map(|&i| natural(i)).sum();
            let least_sum: f64 = ops.iter().map(|&i| least(i)).sum();
            for &i in ops {
                let box_w = if room >= natural_sum || room <= least_sum {
                    natural(i) * room / natural_sum
                } else {
                    least(i)
                        + (natural(i) - least(i)) * (room - least_sum) / (natural_sum - least_sum)
                };
                lane_w[i] = (box_w - frame(i)) / parallelism(i);
            }
        }
        // The widest note on two rows where a lane is narrower than it.
        let narrowest = lane_w.iter().copied().fold(f64::MAX, f64::min);
        let note_rows = if fit.note_width * fit.zoom + 20.0 > narrowest {
            2
        } else {
            1
        };
        // Keyed state shows every key of a few on two rows: the phone has the height.
        let keyed = job
            .operators
            .iter()
            .any(|o| state_room(o, 1.0) > 0.0 && o.kind != engine::scenario::OperatorKind::Source);
        let text = Text {
            state_rows: if keyed { 2 } else { 1 },
            ..base.with_note_rows(note_rows)
        };
        let box_h = text.header() + text.lane_h() + BOX_PAD;
        let wide = wide_gaps(job, rows.len());
        let mut operators = Vec::with_capacity(job.operators.len());
        let mut y = MARGIN_TOP;
        for (r, ops) in rows.iter().enumerate() {
            let mut x = MARGIN_X;
            for &i in ops {
                let o = &job.operators[i];
                let bw = frame(i) + parallelism(i) * lane_w[i];
                operators.push(OperatorBox {
                    op: i,
                    x,
                    y,
                    w: bw,
                    h: box_h,
                    name: o.name.clone(),
                    kind: o.kind.as_str().to_string(),
                    detail: o.detail.as_deref().map(short_detail),
                });
                x += bw + OP_GAP_Y;
            }
            y += box_h;
            if r + 1 < rows.len() {
                y += if wide[r] { GAP_Y_DOWN_WIDE } else { GAP_Y_DOWN };
            }
        }
        operators.sort_by_key(|b| b.op);
        let lanes = lanes_down(job, &operators, &text, &lane_w);
        let channels = channels_down(job, &operators, &lanes);
        let least = Text::at(1.0).lane_state;
        Geometry {
            width,
            height: y + MARGIN_BOTTOM,
            operators,
            lanes,
            channels,
            state_size: (STATE_PX / scale).clamp(least, base.lane_status),
            state_rows: text.state_rows,
            note_rows,
            height_bound: false,
            state_room_at: Some(base.lane_state),
        }
    }
}

/// Each subtask's lane inside its operator's box, side by side.
fn lanes_down(
    job: &JobView,
    operators: &[OperatorBox],
    text: &Text,
    lane_w: &[f64],
) -> Vec<LaneBox> {
    job.tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let b = &operators[t.op];
            let w = lane_w[t.op];
            LaneBox {
                task: i,
                name: t.name.to_string(),
                x: b.x + BOX_INSET + t.index as f64 * (w + LANE_GAP),
                y: b.y + text.header(),
                w,
                h: text.lane_h(),
            }
        })
        .collect()
}

/// Each channel's path from its sender's bottom edge down to its receiver's
/// top edge, the ports spread over the lane's width by output and input index
/// (left to right, as the projector layout spreads them top to bottom).
fn channels_down(job: &JobView, operators: &[OperatorBox], lanes: &[LaneBox]) -> Vec<ChannelPath> {
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
            let (y1, y2) = (sender.y + sender.h, receiver.y);
            let offset_in =
                port_offset_in(c.input.0 as usize, job.tasks[to].inputs.len(), lanes[to].w);
            let span = (y2 - y1).max(0.0);
            ChannelPath {
                channel: i,
                x1: lanes[from].cx() + port_offset_in(j, out_count[from], lanes[from].w),
                y1,
                x2: lanes[to].cx() + offset_in,
                y2,
                run_out: (span * 0.18).min(RUN_OUT),
                run_in: (span * 0.4).min(RUN_IN),
                side: if offset_in.abs() < 1e-9 {
                    0.0
                } else {
                    offset_in.signum()
                },
                down: true,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{Fit, Geometry, Orientation, Text};
    use super::*;

    /// The scene widths a phone gives the graph: 360 and 390 px screens less
    /// the page's and the stage's padding.
    const PHONES: [(f64, f64); 2] = [(360.0, 334.0), (390.0, 364.0)];

    fn down(job: &JobView, w: f64) -> Geometry {
        Geometry::fit(
            job,
            Fit {
                size: Some((w, 600.0)),
                orientation: Orientation::Down,
                ..Fit::default()
            },
        )
    }

    fn jobs() -> impl Iterator<Item = (&'static str, JobView)> {
        engine::runner::BUILTINS.iter().map(|(name, _)| {
            let s = engine::runner::load(name).unwrap();
            (*name, engine::World::new(&s, s.seed).unwrap().job_view())
        })
    }

    /// Sources at the top, sinks at the bottom: every operator's box is below
    /// the boxes of the operators it reads from, and every channel runs down
    /// from its sender's bottom edge to its receiver's top edge.
    #[test]
    fn operators_go_top_to_bottom_by_depth() {
        for (name, job) in jobs() {
            for (screen, w) in PHONES {
                let g = down(&job, w);
                for (a, oa) in job.operators.iter().enumerate() {
                    for (b, ob) in job.operators.iter().enumerate() {
                        let (ba, bb) = (&g.operators[a], &g.operators[b]);
                        if oa.depth < ob.depth {
                            assert!(
                                ba.y + ba.h < bb.y,
                                "{name} at {screen} px: {} (depth {}) above {} (depth {})",
                                oa.name,
                                oa.depth,
                                ob.name,
                                ob.depth
                            );
                        } else if oa.depth == ob.depth {
                            assert_eq!(ba.y, bb.y, "{name}: one row per depth");
                        }
                    }
                }
                for (c, path) in job.channels.iter().zip(&g.channels) {
                    let (from, to) = (&g.lanes[c.from.0 as usize], &g.lanes[c.to.0 as usize]);
                    let sender = &g.operators[job.tasks[c.from.0 as usize].op];
                    let receiver = &g.operators[job.tasks[c.to.0 as usize].op];
                    assert!(path.down, "{name}");
                    assert_eq!(
                        path.y1,
                        sender.y + sender.h,
                        "{name}: leaves the bottom edge"
                    );
                    assert_eq!(path.y2, receiver.y, "{name}: enters the top edge");
                    assert!(path.y1 < path.y2, "{name}: runs downwards");
                    assert!(path.x1 > from.x && path.x1 < from.x + from.w, "{name}");
                    assert!(path.x2 > to.x && path.x2 < to.x + to.w, "{name}");
                    let pts = path.points();
                    assert!(pts.windows(2).all(|p| p[1].1 >= p[0].1), "{name}: {pts:?}");
                }
            }
        }
    }

    /// The subtasks of one operator sit side by side in one row, in index
    /// order, none overlapping another, all inside their operator's box.
    #[test]
    fn subtasks_sit_side_by_side() {
        let mut wide = 0;
        for (name, job) in jobs() {
            for (_, w) in PHONES {
                let g = down(&job, w);
                for (i, o) in g.operators.iter().enumerate() {
                    let lanes: Vec<&LaneBox> = job
                        .tasks
                        .iter()
                        .enumerate()
                        .filter(|(_, t)| t.op == i)
                        .map(|(k, _)| &g.lanes[k])
                        .collect();
                    wide += usize::from(lanes.len() > 1);
                    for pair in lanes.windows(2) {
                        assert_eq!(pair[0].y, pair[1].y, "{name}: one row");
                        assert!(pair[0].x + pair[0].w < pair[1].x, "{name}: left to right");
                    }
                    for l in lanes {
                        assert!(l.x >= o.x && l.x + l.w <= o.x + o.w + 1e-9, "{name}");
                        assert!(l.y >= o.y && l.y + l.h <= o.y + o.h + 1e-9, "{name}");
                    }
                }
            }
        }
        assert!(wide > 10, "lessons with parallel operators were checked");
    }

    /// At 360 and 390 px every lesson's boxes lie inside the screen's width
    /// (the scene is drawn at the box's width), and the smallest text of the
    /// stage renders at 12 CSS px or more: the scale times each size.
    #[test]
    fn every_lesson_fits_a_phone_width_with_readable_text() {
        for (name, job) in jobs() {
            for (screen, w) in PHONES {
                let g = down(&job, w);
                let scale = w / g.width;
                for o in &g.operators {
                    assert!(
                        o.x >= 0.0 && (o.x + o.w) * scale <= w + 1e-6,
                        "{name} at {screen} px: {} ends at {:.1} of {w} px",
                        o.name,
                        (o.x + o.w) * scale
                    );
                }
                for l in &g.lanes {
                    assert!((l.x + l.w) * scale <= w + 1e-6, "{name}: {}", l.name);
                }
                // Each box holds its kind, drawn 11 px in from its left edge and
                // clear of the right border's stroke (`sink: at-least-once` is
                // wider than its one lane).
                for o in &g.operators {
                    let t = Text::at(1.0);
                    let need = super::super::text_width(
                        &o.kind_label(),
                        t.operator_kind,
                        super::super::Face::Mono,
                    ) + 12.0;
                    assert!(
                        o.w + 1e-6 >= need,
                        "{name} at {screen} px: {} is {:.1} wide, its kind needs {need:.1}",
                        o.name,
                        o.w
                    );
                }
                let text = Text::at(1.0);
                for (what, size) in [
                    ("operator kinds", text.operator_kind),
                    ("notes", text.lane_note),
                    ("subtask names", text.lane_name),
                    ("states", text.lane_status),
                    ("live state", g.state_size),
                    ("record labels", crate::scene::palette::RECORD_LABEL),
                    ("barrier tags", crate::scene::palette::BARRIER_LABEL),
                    ("chk-n braces", crate::scene::geometry::BRACE_TEXT),
                ] {
                    assert!(
                        size * scale >= MIN_PHONE_PX - 1e-9,
                        "{name} at {screen} px: {what} {:.1} px",
                        size * scale
                    );
                }
            }
        }
    }

    /// A short chain fills the width with wider lanes rather than growing its
    /// text past [`MAX_PHONE_SCALE`]; a wide row (three or four subtasks side
    /// by side) narrows its lanes rather than its text below 12 px, and its
    /// notes get two rows.
    #[test]
    fn the_scale_is_bounded_both_ways() {
        for (name, job) in jobs() {
            let g = down(&job, 364.0);
            let scale = 364.0 / g.width;
            assert!(scale <= MAX_PHONE_SCALE + 1e-9, "{name}");
            assert!(scale >= Geometry::least_phone_scale() - 1e-9, "{name}");
            let widest = job.operators.iter().map(|o| o.parallelism).max().unwrap();
            if widest >= 3 {
                assert_eq!(g.note_rows, 2, "{name}");
            }
            if name == "odd-even-sum" {
                assert_eq!(g.note_rows, 1);
                assert!((scale - MAX_PHONE_SCALE).abs() < 1e-9, "{scale}");
            }
        }
    }
}
