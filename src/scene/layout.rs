//! Where operators, subtask lanes and channels go: column = the operator's
//! topological depth, operators of one column stacked, one lane per subtask, a
//! channel from the sender's lane (right edge) to the receiver's lane (left edge).

use engine::view::JobView;

/// Left and right margin.
pub const MARGIN_X: f64 = 16.0;
/// Top margin (room for barrier labels above the first lane's channels).
pub const MARGIN_TOP: f64 = 50.0;
/// Bottom margin.
pub const MARGIN_BOTTOM: f64 = 20.0;
/// Width of an operator box.
pub const BOX_W: f64 = 170.0;
/// Horizontal room for channels between two columns.
pub const GAP_X: f64 = 160.0;
/// Room between two columns joined by crossing channels (a parallel hash or
/// rebalance edge), where more tokens share the space.
pub const GAP_X_WIDE: f64 = 230.0;
/// Operator name and kind above the lanes.
pub const HEADER: f64 = 62.0;
/// Height of a subtask lane.
pub const LANE_H: f64 = 92.0;
/// Between lanes.
pub const LANE_GAP: f64 = 8.0;
/// Below the last lane.
pub const BOX_PAD: f64 = 10.0;
/// Between operators in one column.
pub const OP_GAP_Y: f64 = 34.0;

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
}

/// A channel's straight path from sender port to receiver port.
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelPath {
    /// Channel id.
    pub channel: usize,
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
}

impl ChannelPath {
    /// Length of the path.
    pub fn length(&self) -> f64 {
        (self.x2 - self.x1).hypot(self.y2 - self.y1)
    }

    /// The point at distance `d` from the sender (clamped to the path).
    pub fn at(&self, d: f64) -> (f64, f64) {
        let len = self.length();
        if len <= f64::EPSILON {
            return (self.x1, self.y1);
        }
        let u = (d / len).clamp(0.0, 1.0);
        (
            self.x1 + (self.x2 - self.x1) * u,
            self.y1 + (self.y2 - self.y1) * u,
        )
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
}

fn box_height(parallelism: u32) -> f64 {
    let p = parallelism.max(1) as f64;
    HEADER + p * LANE_H + (p - 1.0) * LANE_GAP + BOX_PAD
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

/// Most distance between two ports of a lane: queues of neighbouring channels
/// (tokens are [`super::TOKEN`] high) then sit apart instead of overlapping where
/// crossing channels converge on a receiver.
const PORT_STEP: f64 = 56.0;

/// Offset of port `i` of `n` around a lane's centre.
fn port_offset(i: usize, n: usize) -> f64 {
    if n <= 1 {
        return 0.0;
    }
    let step = ((LANE_H - 24.0) / (n - 1) as f64).min(PORT_STEP);
    (i as f64 - (n - 1) as f64 / 2.0) * step
}

impl Geometry {
    /// Lays out `job`.
    pub fn of(job: &JobView) -> Geometry {
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
        let column_height = |ops: &Vec<usize>| -> f64 {
            let hs: f64 = ops
                .iter()
                .map(|&i| box_height(job.operators[i].parallelism))
                .sum();
            hs + OP_GAP_Y * ops.len().saturating_sub(1) as f64
        };
        let max_h = column_ops.iter().map(column_height).fold(0.0, f64::max);
        // Gap after each column: wide when channels cross (a sender talks to more
        // than one receiver subtask).
        let mut wide = vec![false; columns];
        for c in &job.channels {
            let (from, to) = (&job.tasks[c.from.0 as usize], &job.tasks[c.to.0 as usize]);
            let fan =
                job.operators[from.op].parallelism > 1 || job.operators[to.op].parallelism > 1;
            if fan && from.index != to.index {
                wide[job.operators[from.op].depth as usize] = true;
            }
        }
        let gap = |c: usize| if wide[c] { GAP_X_WIDE } else { GAP_X };
        let column_x: Vec<f64> = (0..columns)
            .scan(MARGIN_X, |x, c| {
                let this = *x;
                *x += BOX_W + gap(c);
                Some(this)
            })
            .collect();
        let mut operators = Vec::with_capacity(job.operators.len());
        for (c, ops) in column_ops.iter().enumerate() {
            let x = column_x[c];
            let mut y = MARGIN_TOP + (max_h - column_height(ops)) / 2.0;
            for &i in ops {
                let o = &job.operators[i];
                let h = box_height(o.parallelism);
                operators.push(OperatorBox {
                    op: i,
                    x,
                    y,
                    w: BOX_W,
                    h,
                    name: o.name.clone(),
                    kind: o.kind.as_str().to_string(),
                    detail: o.detail.as_deref().map(short_detail),
                });
                y += h + OP_GAP_Y;
            }
        }
        operators.sort_by_key(|b| b.op);
        let lanes: Vec<LaneBox> = job
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let b = &operators[t.op];
                LaneBox {
                    task: i,
                    name: t.name.to_string(),
                    x: b.x + 8.0,
                    y: b.y + HEADER + t.index as f64 * (LANE_H + LANE_GAP),
                    w: b.w - 16.0,
                    h: LANE_H,
                }
            })
            .collect();
        let mut out_index = vec![0usize; job.tasks.len()];
        let mut out_count = vec![0usize; job.tasks.len()];
        for c in &job.channels {
            out_count[c.from.0 as usize] += 1;
        }
        let channels = job
            .channels
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let (from, to) = (c.from.0 as usize, c.to.0 as usize);
                let j = out_index[from];
                out_index[from] += 1;
                let sender = &operators[job.tasks[from].op];
                let receiver = &operators[job.tasks[to].op];
                ChannelPath {
                    channel: i,
                    x1: sender.x + sender.w,
                    y1: lanes[from].cy() + port_offset(j, out_count[from]),
                    x2: receiver.x,
                    y2: lanes[to].cy()
                        + port_offset(c.input.0 as usize, job.tasks[to].inputs.len()),
                }
            })
            .collect();
        Geometry {
            width: column_x[columns - 1] + BOX_W + MARGIN_X,
            height: MARGIN_TOP + max_h + MARGIN_BOTTOM,
            operators,
            lanes,
            channels,
        }
    }
}

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
            x2: 30.0,
            y2: 40.0,
        };
        assert_eq!(p.length(), 50.0);
        assert_eq!(p.at(25.0), (15.0, 20.0));
        assert_eq!(p.at(-5.0), (0.0, 0.0));
        assert_eq!(p.at(99.0), (30.0, 40.0));
    }
}
