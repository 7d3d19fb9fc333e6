//! Braces over the records of one checkpoint, as Flink's documentation draws the
//! stream around a barrier ("part of checkpoint n" / "n-1"): on each channel, the
//! records that the snapshot of checkpoint n will include (their epoch) get one
//! bracket beside them, labelled `chk-n` like the storage tab's directories.
//!
//! Pure geometry over the tokens, unit-tested natively; the token layer paints it.

use std::collections::BTreeMap;

use super::{Token, TokenKind, TOKEN};

/// Above this many records on the stage, braces are left out: in a busy network
/// they would bury the records they explain.
pub const MAX_RECORDS_WITH_BRACES: usize = 60;

/// One bracket: from `a` to `b` (already offset beside the records), ticks
/// pointing back at them by `tick`, and the label's centre.
#[derive(Clone, Debug, PartialEq)]
pub struct Brace {
    pub a: (f64, f64),
    pub b: (f64, f64),
    pub tick: (f64, f64),
    pub label_at: (f64, f64),
    pub epoch: u64,
    /// Its channel runs down (the label stands beside it).
    pub down: bool,
}

/// The braces for `tokens`: per channel and epoch, when at least two records of
/// that epoch are on the channel, one bracket spanning the two records farthest
/// apart, on the lower side of the channel.
pub fn epoch_braces(tokens: &[Token]) -> Vec<Brace> {
    let records = tokens
        .iter()
        .filter(|t| matches!(t.kind, TokenKind::Record { .. }));
    if records.clone().count() > MAX_RECORDS_WITH_BRACES {
        return Vec::new();
    }
    // (channel, epoch) → the records' centres, their channel's side and
    // whether it runs down.
    type Points = Vec<(f64, f64, f64, bool)>;
    let mut groups: BTreeMap<(usize, u64), Points> = BTreeMap::new();
    for t in records {
        if let TokenKind::Record { epoch, .. } = t.kind {
            groups
                .entry((t.channel, epoch))
                .or_default()
                .push((t.x, t.y, t.side, t.down));
        }
    }
    groups
        .into_iter()
        .filter(|(_, points)| points.len() >= 2)
        .filter_map(|((_, epoch), points)| {
            let (side, down) = (points[0].2, points[0].3);
            let points: Vec<(f64, f64)> = points.iter().map(|p| (p.0, p.1)).collect();
            let (a, b) = farthest_pair(&points);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = dx.hypot(dy);
            if len < 1e-6 {
                return None; // piled on one spot: nothing to span
            }
            // The normal on the lower side (screen y grows downwards) — or, for
            // a lane's upper input, the upper side: its outer side, so the room
            // between a lane's two input queues stays clear.
            let (mut nx, mut ny) = (-dy / len, dx / len);
            if ny < 0.0 || (ny == 0.0 && nx < 0.0) {
                (nx, ny) = (-nx, -ny);
            }
            if side < 0.0 {
                (nx, ny) = (-nx, -ny);
            }
            let off = TOKEN / 2.0 + 7.0;
            let at = |p: (f64, f64), d: f64| (p.0 + nx * d, p.1 + ny * d);
            let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            // Beside a channel running down the label's width is what keeps it
            // off the records (above or below a level one, its height).
            let label_off = if down {
                off + 8.0 + super::placement::brace_rect(0.0, 0.0, epoch).w / 2.0
            } else {
                off + 13.0
            };
            Some(Brace {
                a: at(a, off),
                b: at(b, off),
                tick: (-nx * 4.0, -ny * 4.0),
                label_at: at(mid, label_off),
                epoch,
                down,
            })
        })
        .collect()
}

fn farthest_pair(points: &[(f64, f64)]) -> ((f64, f64), (f64, f64)) {
    let mut best = (points[0], points[0], 0.0);
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            let d = (p.0 - q.0).hypot(p.1 - q.1);
            if d > best.2 {
                best = (*p, *q, d);
            }
        }
    }
    (best.0, best.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Place;

    fn rec(channel: usize, x: f64, y: f64, epoch: u64) -> Token {
        Token {
            id: format!("{channel}-{x}"),
            channel,
            place: Place::Wire,
            x,
            y,
            kind: TokenKind::Record {
                label: "1".into(),
                key: None,
                value: 1,
                epoch,
                persisted: None,
            },
            is_persisting: false,
            is_replay: false,
            side: 0.0,
            down: false,
            tag: None,
        }
    }

    #[test]
    fn one_brace_per_channel_and_epoch_with_two_records_or_more() {
        let tokens = vec![
            rec(0, 10.0, 100.0, 2),
            rec(0, 40.0, 100.0, 2),
            rec(0, 70.0, 100.0, 3),
            rec(0, 90.0, 100.0, 3),
            rec(1, 10.0, 200.0, 2), // alone on its channel: no brace
        ];
        let braces = epoch_braces(&tokens);
        assert_eq!(
            braces.iter().map(|b| b.epoch).collect::<Vec<_>>(),
            vec![2, 3]
        );
        let b = &braces[0];
        // Spans the two records, below them (larger y), ticks pointing up at them.
        assert_eq!((b.a.0, b.b.0), (10.0, 40.0));
        assert!(b.a.1 > 100.0 && b.label_at.1 > b.a.1);
        assert!(b.tick.1 < 0.0);
    }

    #[test]
    fn a_busy_stage_gets_no_braces() {
        let tokens: Vec<Token> = (0..=MAX_RECORDS_WITH_BRACES)
            .map(|i| rec(0, i as f64 * 3.0, 50.0, 1))
            .collect();
        assert!(epoch_braces(&tokens).is_empty());
        assert_eq!(epoch_braces(&tokens[..10]).len(), 1);
    }
}
