//! Records, barriers and markers along a channel.
//!
//! A channel is drawn as three stretches: the sender's out-queue (records waiting
//! for credit: back-pressure) stacked at the sender's port, the wire, and the
//! receiver's input queue stacked at its port, oldest (the head) nearest the
//! receiver. An element on the wire sits at `(t - sent_at) / (arrive_at - sent_at)`
//! of the way from the end of the out-queue to the tail of the input queue.

use engine::view::{ChannelView, ElementView, ReplayView};

use super::layout::ChannelPath;
use super::{record_label, SPACING};

/// Out-queue elements drawn before "+N".
pub const MAX_OUT: usize = 3;
/// Input-queue elements drawn before "+N".
pub const MAX_IN: usize = 5;
/// Gap between a port and the first token.
const END_GAP: f64 = 4.0;

/// Where on a channel a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Waiting at the sender for credit.
    OutQueue,
    /// Travelling.
    Wire,
    /// Arrived, waiting at the receiver.
    InQueue,
}

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// A record, tinted by its epoch.
    Record {
        label: String,
        key: Option<String>,
        value: i64,
        epoch: u64,
        /// The unaligned checkpoint whose channel state it is (an unaligned
        /// barrier overtook it): it keeps that checkpoint's epoch and is drawn
        /// with the persisted ring, on the input and the output side alike.
        persisted: Option<u64>,
    },
    /// A checkpoint barrier.
    Barrier {
        checkpoint: u64,
        is_unaligned: bool,
        is_savepoint: bool,
    },
    /// A cancellation marker.
    Cancel { checkpoint: u64 },
    /// End of partition.
    End,
}

/// A token on the stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// Stable identity from frame to frame (channel plus the record's origin, or
    /// the barrier's checkpoint), unique within a scene: the stage keys its SVG
    /// elements by it, so a record that moves from the wire into the queue keeps
    /// its element instead of every later token being rewritten.
    pub id: String,
    /// Channel id.
    pub channel: usize,
    /// Which stretch.
    pub place: Place,
    /// Centre.
    pub x: f64,
    pub y: f64,
    /// What.
    pub kind: TokenKind,
    /// A record persisted into an unaligned checkpoint's channel state (the
    /// barrier overtook it, in the out-queue or the input queue, or it waits on
    /// a channel being persisted).
    pub is_persisting: bool,
    /// A record read again after a restore: its origin is below what its source
    /// partition had read before the failure (the engine's
    /// [`engine::view::WorldView::replay`]), so it is being processed again.
    pub is_replay: bool,
    /// Its channel's side of the receiving lane ([`ChannelPath::side`]): a
    /// barrier's tag goes below it when positive, above otherwise (right and
    /// left on a channel running down).
    pub side: f64,
    /// Its channel runs down ([`ChannelPath::down`]): a barrier's bar lies
    /// across it, level, and its tag goes beside it.
    pub down: bool,
    /// A barrier's tag (`B1`): where the placement pass put it
    /// ([`super::placement`]).
    pub tag: Option<super::placement::Rect>,
}

/// "+N more" beside a long queue.
#[derive(Clone, Debug, PartialEq)]
pub struct Overflow {
    pub x: f64,
    pub y: f64,
    pub count: usize,
    /// The y of the queue it counts (the placement pass moves away from it).
    pub anchor_y: f64,
    /// The x of the queue it counts, and whether its channel runs down (then
    /// the counter stands beside the queue and moves away from it sideways).
    pub anchor_x: f64,
    pub down: bool,
    /// The channel it counts, and the stretch: the out-queue, the input queue
    /// (with the wire's uncounted records when it has a counter), or the wire.
    pub channel: usize,
    pub place: Place,
}

/// The identity of element `e` on channel `ch` (before de-duplication).
fn id_of(ch: usize, e: &ElementView) -> String {
    match e {
        ElementView::Record { record, .. } => {
            let o = record.origin;
            format!("{ch}:r{}.{}.{}", o.source, o.partition, o.offset)
        }
        ElementView::Barrier { checkpoint, .. } => format!("{ch}:b{}", checkpoint.0),
        ElementView::Cancel { checkpoint } => format!("{ch}:c{}", checkpoint.0),
        ElementView::EndOfPartition => format!("{ch}:e"),
    }
}

fn kind_of(e: &ElementView) -> TokenKind {
    match e {
        ElementView::Record {
            record,
            epoch,
            persisted,
        } => TokenKind::Record {
            label: record_label(record.key.as_deref(), record.value),
            key: record.key.as_deref().map(String::from),
            value: record.value,
            epoch: *epoch,
            persisted: persisted.map(|c| c.0),
        },
        ElementView::Barrier {
            checkpoint,
            unaligned,
            savepoint,
        } => TokenKind::Barrier {
            checkpoint: checkpoint.0,
            is_unaligned: *unaligned,
            is_savepoint: *savepoint,
        },
        ElementView::Cancel { checkpoint } => TokenKind::Cancel {
            checkpoint: checkpoint.0,
        },
        ElementView::EndOfPartition => TokenKind::End,
    }
}

/// Fraction of the way an element sent at `sent_at`, due at `arrive_at`, has come at `t`.
pub fn progress(sent_at: u64, arrive_at: u64, t: f64) -> f64 {
    if arrive_at <= sent_at {
        return 1.0;
    }
    ((t - sent_at as f64) / (arrive_at - sent_at) as f64).clamp(0.0, 1.0)
}

/// How many of channel `c`'s out-queue and input-queue elements are drawn at
/// most: a short channel (a narrow stage) shows fewer, the out-queue up to 40 %
/// of the channel, the input queue the rest of what the wire leaves (a blocked
/// channel's held records are the point of the picture); "+N" counts the others.
/// A bend may leave room for fewer still ([`Slots`]).
pub fn shown(path: &ChannelPath, c: &ChannelView) -> (usize, usize) {
    let len = path.length();
    let room = |d: f64| ((d / SPACING).floor().max(1.0)) as usize;
    let out_shown = c.out_queue.len().min(MAX_OUT).min(room(len * 0.4));
    let wire_room = if c.wire.is_empty() { 0.0 } else { SPACING };
    let in_shown = c.queue.len().min(MAX_IN).min(room(
        len - 2.0 * END_GAP - out_shown as f64 * SPACING - wire_room,
    ));
    (out_shown, in_shown)
}

/// One channel's token positions (distances along its path), each token at
/// least [`SPACING`] from its neighbours along the path and its painted mark
/// ([`super::placement::mark_rect`]) clear of theirs where the path bends: the
/// input queue from the receiver back, the out-queue from the sender on, the
/// wire between them (a record on the wire is held back behind the one ahead
/// of it, a train rather than a pile); what finds no room is counted by "+N".
struct Slots<'a> {
    path: &'a ChannelPath,
    /// Marks placed so far on this channel (a new one is checked against all
    /// of them: a handful, and a bend can bring the out-queue near the input
    /// queue's tail).
    placed: Vec<super::placement::Rect>,
    /// The marks of the channels placed before this one that come near it
    /// (channels fanning out of one port or into one): a mark clears them too.
    others: Vec<super::placement::Rect>,
}

impl Slots<'_> {
    /// The largest distance at most `limit` and at least `min` where a mark of
    /// `e` clears the marks placed last, stepping back from `limit`.
    fn before(&self, e: &ElementView, limit: f64, min: f64) -> Option<f64> {
        let mut d = limit;
        while d >= min - 1e-9 {
            if self.clear(e, d) {
                return Some(d);
            }
            d -= 2.0;
        }
        None
    }

    /// The smallest distance at least `limit` and at most `max` where a mark
    /// of `e` clears the marks placed last, stepping on from `limit`.
    fn after(&self, e: &ElementView, limit: f64, max: f64) -> Option<f64> {
        let mut d = limit;
        while d <= max + 1e-9 {
            if self.clear(e, d) {
                return Some(d);
            }
            d += 2.0;
        }
        None
    }

    fn clear(&self, e: &ElementView, d: f64) -> bool {
        let r = self.rect(e, d);
        self.placed
            .iter()
            .chain(&self.others)
            .all(|p| r.overlap(p) <= 1.0)
    }

    fn rect(&self, e: &ElementView, d: f64) -> super::placement::Rect {
        let (x, y) = self.path.at(d);
        super::placement::mark_rect(&kind_of(e), x, y, self.path.down)
    }

    fn take(&mut self, e: &ElementView, d: f64) {
        let r = self.rect(e, d);
        self.placed.push(r);
    }
}

/// Where channel `c`'s elements go along `path` at time `t`: the drawn ones
/// (distance, stretch, element) and how many of the out-queue, the input queue
/// and the wire are left for "+N".
type Layout<'a> = (Vec<(f64, Place, &'a ElementView)>, [usize; 3]);

fn layout<'a>(
    path: &ChannelPath,
    c: &'a ChannelView,
    t: f64,
    others: &[super::placement::Rect],
) -> Layout<'a> {
    let len = path.length();
    let (out_max, in_max) = shown(path, c);
    let near = path
        .bounds()
        .inflate(super::TOKEN + super::palette::BARRIER_BAR.1);
    let mut slots = Slots {
        path,
        placed: Vec::new(),
        others: others
            .iter()
            .filter(|r| r.overlap(&near) > 0.0)
            .copied()
            .collect(),
    };
    let mut drawn = Vec::new();
    // The input queue, head nearest the receiver.
    let mut front = len - END_GAP - SPACING / 2.0 + SPACING;
    let mut in_drawn = 0;
    for e in c.queue.iter().take(in_max) {
        let Some(d) = slots.before(e, front - SPACING, END_GAP + SPACING / 2.0) else {
            break;
        };
        slots.take(e, d);
        drawn.push((d, Place::InQueue, e));
        front = d;
        in_drawn += 1;
    }
    // The out-queue, oldest nearest the wire: placed from the newest, at the sender.
    let mut back = END_GAP + SPACING / 2.0 - SPACING;
    let out_max = out_max.min(c.out_queue.len());
    let mut out: Vec<(f64, &ElementView)> = Vec::new();
    for e in c.out_queue.iter().take(out_max).rev() {
        let Some(d) = slots.after(e, back + SPACING, front - SPACING) else {
            break;
        };
        slots.take(e, d);
        out.push((d, e));
        back = d;
    }
    let out_drawn = out.len();
    for (d, e) in out.into_iter().rev() {
        drawn.push((d, Place::OutQueue, e));
    }
    // The wire, front first, each at its time's place or held behind the one
    // ahead.
    let start = back + SPACING;
    let end = front - SPACING;
    let mut wire: Vec<(f64, &ElementView)> = c
        .wire
        .iter()
        .map(|w| {
            let d = start + progress(w.sent_at, w.arrive_at, t) * (end - start).max(0.0);
            (d, &w.element)
        })
        .collect();
    wire.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut ahead = f64::INFINITY;
    let mut wire_drawn = 0;
    for (want, e) in &wire {
        let limit = want.min(ahead - SPACING).min(end.max(start));
        let Some(d) = slots.before(e, limit, start) else {
            break;
        };
        slots.take(e, d);
        drawn.push((d, Place::Wire, e));
        ahead = d;
        wire_drawn += 1;
    }
    (
        drawn,
        [
            c.out_queue.len() - out_drawn,
            c.queue.len() - in_drawn,
            c.wire.len() - wire_drawn,
        ],
    )
}

/// Where a blocked channel's lock goes: on the channel, just before its
/// input queue — the gate the waiting records are held behind.
pub fn lock_at(path: &ChannelPath, c: &ChannelView) -> (f64, f64) {
    let (drawn, _) = layout(path, c, 0.0, &[]);
    let tail = drawn
        .iter()
        .filter(|(_, p, _)| *p == Place::InQueue)
        .map(|(d, _, _)| *d)
        .fold(path.length() - END_GAP, f64::min);
    let tail = if tail < path.length() - END_GAP {
        tail - SPACING / 2.0
    } else {
        tail
    };
    path.at(tail - 16.0)
}

/// Places channel `c`'s elements along `path` at time `t`, clear of the
/// tokens already in `tokens` (the channels placed before it); `replay` is the
/// world's [`engine::view::WorldView::replay`] (which records are replays).
pub fn place(
    path: &ChannelPath,
    c: &ChannelView,
    replay: &[ReplayView],
    t: f64,
    tokens: &mut Vec<Token>,
    overflows: &mut Vec<Overflow>,
) {
    let ch = path.channel;
    let others: Vec<super::placement::Rect> = tokens.iter().map(super::placement::mark).collect();
    let (drawn, [out_left, in_left, wire_left]) = layout(path, c, t, &others);
    for (d, place, e) in &drawn {
        let (x, y) = path.at(*d);
        let is_persisting = matches!(
            e,
            ElementView::Record {
                persisted: Some(_),
                ..
            }
        );
        let is_replay = match e {
            ElementView::Record { record, .. } => ReplayView::covers(replay, &record.origin),
            _ => false,
        };
        let tag = matches!(e, ElementView::Barrier { .. })
            .then(|| super::placement::natural_tag(x, y, path.side, path.down));
        tokens.push(Token {
            id: id_of(ch, e),
            channel: ch,
            place: *place,
            x,
            y,
            kind: kind_of(e),
            is_persisting,
            is_replay,
            side: path.side,
            down: path.down,
            tag,
        });
    }
    // "+N" on the channel's outer side (its text's baseline): below or above
    // a level channel, right or left of one running down.
    let beside = |(x, y): (f64, f64), count: usize, place: Place| {
        let (bx, by) = if !path.down {
            (x, if path.side > 0.0 { y + 40.0 } else { y - 24.0 })
        } else {
            let w = super::placement::overflow_rect(0.0, 0.0, count).w;
            let dx = super::TOKEN / 2.0 + 12.0 + w / 2.0;
            (if path.side < 0.0 { x - dx } else { x + dx }, y + 8.0)
        };
        Overflow {
            x: bx,
            y: by,
            count,
            anchor_y: y,
            anchor_x: x,
            down: path.down,
            channel: ch,
            place,
        }
    };
    let at_end = |place: Place, last: bool| {
        let ds = drawn
            .iter()
            .filter(|(_, p, _)| *p == place)
            .map(|(d, _, _)| *d);
        if last {
            ds.fold(f64::INFINITY, f64::min)
        } else {
            ds.fold(f64::NEG_INFINITY, f64::max)
        }
    };
    // The wire's uncounted records join the input queue's "+N" when it has
    // one (one counter per channel end, not a third crowding the picture).
    let (in_left, wire_left) = if in_left > 0 {
        (in_left + wire_left, 0)
    } else {
        (0, wire_left)
    };
    if out_left > 0 {
        overflows.push(beside(
            path.at(END_GAP + SPACING / 2.0),
            out_left,
            Place::OutQueue,
        ));
    }
    if in_left > 0 {
        let tail = at_end(Place::InQueue, true);
        let d = if tail.is_finite() {
            tail
        } else {
            path.length() - END_GAP
        };
        overflows.push(beside(path.at(d), in_left, Place::InQueue));
    }
    if wire_left > 0 {
        // Behind the last record the wire had room for.
        let tail = at_end(Place::Wire, true);
        let d = if tail.is_finite() {
            tail
        } else {
            path.length() / 2.0
        };
        overflows.push(beside(path.at(d), wire_left, Place::Wire));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::view::Origin;
    use engine::view::{InTransitView, RecordView};

    fn rec(value: i64, epoch: u64) -> ElementView {
        persisted(value, epoch, None)
    }

    fn persisted(value: i64, epoch: u64, by: Option<u64>) -> ElementView {
        ElementView::Record {
            persisted: by.map(engine::view::CheckpointId),
            record: RecordView {
                key: None,
                value,
                origin: Origin {
                    source: 0,
                    partition: 0,
                    offset: value as u32,
                },
            },
            epoch,
        }
    }

    fn channel(
        out: Vec<ElementView>,
        wire: Vec<(u64, u64, ElementView)>,
        queue: Vec<ElementView>,
    ) -> ChannelView {
        ChannelView {
            out_queue: out,
            wire: wire
                .into_iter()
                .map(|(s, a, element)| InTransitView {
                    sent_at: s,
                    arrive_at: a,
                    element,
                })
                .collect(),
            queue,
            blocked: false,
            persisting: true,
            records: 0,
        }
    }

    const PATH: ChannelPath = ChannelPath {
        channel: 3,
        x1: 100.0,
        y1: 50.0,
        x2: 400.0,
        y2: 50.0,
        run_out: 54.0,
        run_in: 120.0,
        down: false,
        side: 0.0,
    };

    /// Position is a pure function of time: halfway in time is halfway along the wire.
    #[test]
    fn wire_position_interpolates_between_send_and_arrival() {
        let c = channel(vec![], vec![(100, 110, rec(1, 1))], vec![]);
        let at = |t: f64| {
            let (mut toks, mut over) = (Vec::new(), Vec::new());
            place(&PATH, &c, &[], t, &mut toks, &mut over);
            toks[0].x
        };
        let (a, m, b) = (at(100.0), at(105.0), at(110.0));
        assert!((m - (a + b) / 2.0).abs() < 1e-9);
        assert!(a < m && m < b);
        assert_eq!(at(50.0), a, "before sending: at the start");
        assert_eq!(at(500.0), b, "after arrival: at the end");
        assert_eq!(progress(7, 7, 0.0), 1.0);
    }

    /// The "r1 r2 |B1| r3" picture: out-queue at the sender, queue at the receiver
    /// with its head nearest the receiver, "+N" beyond the drawn ones.
    #[test]
    fn queues_stack_at_their_ends() {
        let barrier = ElementView::Barrier {
            checkpoint: engine::view::CheckpointId(1),
            unaligned: true,
            savepoint: false,
        };
        let queue: Vec<ElementView> = std::iter::once(barrier)
            .chain((1..=7).map(|v| persisted(v, 1, Some(1))))
            .collect();
        let c = channel(
            vec![rec(20, 2), rec(21, 2)],
            vec![(0, 10, rec(9, 2))],
            queue,
        );
        let (mut toks, mut over) = (Vec::new(), Vec::new());
        place(&PATH, &c, &[], 5.0, &mut toks, &mut over);
        let out: Vec<&Token> = toks.iter().filter(|t| t.place == Place::OutQueue).collect();
        assert_eq!(out.len(), 2);
        assert!(
            out[0].x > out[1].x,
            "the oldest out-queue element is at the front"
        );
        let inq: Vec<&Token> = toks.iter().filter(|t| t.place == Place::InQueue).collect();
        assert_eq!(inq.len(), MAX_IN);
        assert!(matches!(
            inq[0].kind,
            TokenKind::Barrier {
                is_unaligned: true,
                ..
            }
        ));
        assert!(
            inq[0].x > inq[1].x,
            "the head of the queue is nearest the receiver"
        );
        assert!(
            !inq[0].is_persisting && inq[1].is_persisting,
            "queued records of a persisting channel"
        );
        assert!(
            matches!(
                inq[1].kind,
                TokenKind::Record {
                    epoch: 1,
                    persisted: Some(1),
                    ..
                }
            ),
            "an overtaken record keeps the epoch of the checkpoint it is channel state of"
        );
        assert_eq!(over.len(), 1);
        assert_eq!(over[0].count, 8 - MAX_IN);
        let wire = toks.iter().find(|t| t.place == Place::Wire).unwrap();
        assert!(out[0].x < wire.x && wire.x < inq[MAX_IN - 1].x);
    }
}
