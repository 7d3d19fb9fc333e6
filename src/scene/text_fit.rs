//! The words a lane writes, fitted to its room: its name, its state, its note
//! and its transaction's badge, each measured in the page's fonts
//! ([`geometry::text_width`]) and shortened, broken or squeezed where the lane
//! is narrower (a phone's row of subtasks); and the widest of them in a
//! language, which the lanes are sized for ([`stage_fit`]). The stage draws
//! what this module decides; it measures nothing itself.

use engine::view::TxnStatus;
use engine::TaskStatus;

use super::geometry::{self, Face};
use super::{Fit, Lane, Orientation, Text};
use crate::i18n::{Lang, Msg};
use crate::labels;

/// The room a lane's rows of text have: its width less the padding each side.
pub fn room(lane_width: f64) -> f64 {
    lane_width - 18.0
}

/// A subtask's name as its lane shows it: `uid#index`, or `#index` where the
/// lane is narrower than that (a phone's row of subtasks, under the
/// operator's name).
pub fn lane_name(name: &str, size: f64, room: f64) -> String {
    match name.rfind('#') {
        Some(i) if geometry::text_width(name, size, Face::Mono) > room => name[i..].to_string(),
        _ => name.to_string(),
    }
}

/// A subtask's state as its lane shows it: glyph and word (`▶ running`), or
/// the glyph alone where the word does not fit.
pub fn status_line(status: TaskStatus, lang: Lang, size: f64, room: f64) -> String {
    let glyph = labels::task_status_glyph(status);
    let line = format!("{glyph} {}", labels::task_status(lang, status));
    if geometry::text_width(&line, size, Face::Sans) > room {
        glyph.to_string()
    } else {
        line
    }
}

/// What a lane's note says, in `lang`: persisting, aligning or waiting
/// unaligned (one of them), back-pressured, restarting. [`note_width`] lists
/// the widest of each.
pub fn lane_notes(lane: &Lane, lang: Lang) -> Vec<String> {
    let mut notes: Vec<String> = Vec::new();
    if lane.is_persisting {
        // Overtaken by an unaligned barrier: what it persists says more than
        // which checkpoint it is aligning.
        notes.push(format!("⤓ {}", lang.t(Msg::Persisting)));
    } else if !lane.aligning.is_empty() {
        let ids: Vec<String> = lane.aligning.iter().map(|c| format!("B{c}")).collect();
        notes.push(lang.t(Msg::Aligning).replace("{ids}", &ids.join(" ")));
    } else if !lane.unaligned.is_empty() {
        // Unaligned: snapshotted at the first barrier, waiting for the others
        // without blocking anything — never "aligning".
        let ids: Vec<String> = lane.unaligned.iter().map(|c| format!("B{c}")).collect();
        notes.push(lang.t(Msg::UnalignedNote).replace("{ids}", &ids.join(" ")));
    }
    if lane.is_backpressured {
        notes.push(format!("⚠ {}", lang.t(Msg::Backpressured)));
    }
    if lane.is_restarting {
        notes.push(format!("↻ {}", lang.t(Msg::LaneRestarting)));
    }
    notes
}

/// A lane's note in the rows the lane gives it ([`Text::note_rows`]): as one
/// row where it fits, else broken after the last space or hyphen that leaves a
/// first row fitting (`⚠ back-` / `pressured`); a row still wider than the
/// room is drawn narrower (its width for SVG `textLength`).
pub fn note_rows(note: &str, text: &Text, room: f64) -> Vec<(String, Option<f64>)> {
    let width = |s: &str| geometry::text_width(s, text.lane_note, Face::Sans);
    let squeezed = |s: &str| {
        let w = width(s);
        (s.to_string(), (w > room).then_some(room))
    };
    if text.note_rows < 2 || width(note) <= room {
        return vec![squeezed(note)];
    }
    let breaks: Vec<usize> = note
        .char_indices()
        .filter(|(_, c)| *c == ' ' || *c == '-')
        .map(|(i, c)| i + c.len_utf8())
        .collect();
    let fitting = breaks
        .iter()
        .rev()
        .find(|&&i| width(note[..i].trim_end()) <= room)
        .or(breaks.first());
    match fitting {
        Some(&i) if i < note.len() => vec![squeezed(note[..i].trim_end()), squeezed(&note[i..])],
        _ => vec![squeezed(note)],
    }
}

/// Whether the record a subtask works on sits beside its state (the lane has
/// room for both on the name's row), rather than at the right end of the note
/// row.
pub fn busy_beside(lane_width: f64, status_line: &str, text: &Text) -> bool {
    room(lane_width) - geometry::text_width(status_line, text.lane_status, Face::Sans)
        >= super::layout::BUSY_W + 6.0
}

/// A sink lane's transaction badge: `◴ T1 pre-committed`.
pub fn txn_badge(lang: Lang, id: u64, status: TxnStatus) -> String {
    let (_, word, glyph) = labels::txn_status(lang, status);
    format!("{glyph} T{id} {word}")
}

/// A transaction badge's width at text size `size`: its label and padding.
pub fn txn_badge_width(label: &str, size: f64) -> f64 {
    geometry::text_width(label, size, Face::Sans) + 12.0
}

/// A transaction badge inside a lane `lane_width` wide: its width, and the
/// width its label is drawn narrower to (SVG `textLength`) where the lane is
/// narrower than the badge (a phone's narrow lane).
pub fn txn_badge_fit(label: &str, size: f64, lane_width: f64) -> (f64, Option<f64>) {
    let natural = txn_badge_width(label, size);
    let w = natural.min(lane_width - 14.0);
    (w, (w < natural).then_some(w - 12.0))
}

/// The widest subtask state in `lang` at zoom 1 (scene units), for the lanes'
/// width.
fn status_width(lang: Lang) -> f64 {
    use engine::TaskStatus::*;
    [Running, Waiting, Finished, Failed, Canceled]
        .into_iter()
        .map(|st| {
            let s = format!(
                "{} {}",
                labels::task_status_glyph(st),
                labels::task_status(lang, st)
            );
            geometry::text_width(&s, Text::at(1.0).lane_status, Face::Sans)
        })
        .fold(0.0, f64::max)
}

/// The widest note a lane can show in `lang` at zoom 1: back-pressured,
/// persisting, or aligning a two-digit checkpoint.
fn note_width(lang: Lang) -> f64 {
    [
        format!("⚠ {}", lang.t(Msg::Backpressured)),
        format!("⤓ {}", lang.t(Msg::Persisting)),
        lang.t(Msg::Aligning).replace("{ids}", "B88"),
        lang.t(Msg::UnalignedNote).replace("{ids}", "B88"),
        format!("↻ {}", lang.t(Msg::LaneRestarting)),
    ]
    .iter()
    .map(|s| geometry::text_width(s, Text::at(1.0).lane_note, Face::Sans))
    .fold(0.0, f64::max)
}

/// The widest transaction badge a two-phase-commit sink's lane can show in
/// `lang` at zoom 1 (`◴ T88 pre-committed`), for the lanes' width.
fn txn_width(lang: Lang) -> f64 {
    use engine::view::TxnStatus::*;
    [Open, Precommitted, Committed, Aborted]
        .into_iter()
        .map(|st| txn_badge_width(&txn_badge(lang, 88, st), Text::at(1.0).lane_note))
        .fold(0.0, f64::max)
}

/// What the stage's scene is fitted to: the scene box's size (if laid out
/// yet), the zoom, the widest texts a lane shows in `lang`, and which way the
/// graph runs (`Down` on a phone, fitted to the box's width).
pub fn stage_fit(
    box_size: Option<(u32, u32)>,
    zoom: f64,
    lang: Lang,
    orientation: Orientation,
) -> Fit {
    Fit {
        orientation,
        // The scene box's padding (0.3rem × 0.4rem) is not drawn into.
        size: box_size.map(|(w, h)| (f64::from(w) - 12.0, f64::from(h) - 10.0)),
        zoom,
        status_width: status_width(lang),
        note_width: note_width(lang),
        txn_width: txn_width(lang),
        lang,
    }
}

#[cfg(test)]
mod tests {
    use super::{busy_beside, lane_name, note_rows, status_line, txn_badge, txn_badge_fit};
    use crate::i18n::Lang;
    use crate::scene::geometry::{self, Face};
    use crate::scene::layout::BUSY_W;
    use crate::scene::Text;
    use engine::view::TxnStatus;
    use engine::TaskStatus;

    /// A phone's narrow lane: the name drops its operator where the full one
    /// does not fit; a note too wide for one row breaks after a space or a
    /// hyphen into two rows that fit, and stays whole where it fits.
    #[test]
    fn narrow_lanes_fit_their_name_and_note() {
        let size = 22.0;
        let full = geometry::text_width("clicks#3", size, Face::Mono);
        assert_eq!(lane_name("clicks#3", size, full + 1.0), "clicks#3");
        assert_eq!(lane_name("clicks#3", size, full - 1.0), "#3");
        let text = Text::at(1.0).with_note_rows(2);
        let note = "⚠ back-pressured";
        let whole = geometry::text_width(note, text.lane_note, Face::Sans);
        assert_eq!(
            note_rows(note, &text, whole + 1.0),
            vec![(note.to_string(), None)]
        );
        let room = geometry::text_width("pressured", text.lane_note, Face::Sans) + 2.0;
        let rows = note_rows(note, &text, room);
        let words: Vec<&str> = rows.iter().map(|(r, _)| r.as_str()).collect();
        assert_eq!(words, ["⚠ back-", "pressured"]);
        assert!(
            rows.iter().all(|(_, squeeze)| squeeze.is_none()),
            "{rows:?}"
        );
        // One row only: drawn narrower (SVG textLength) to the room.
        let one = Text::at(1.0);
        assert_eq!(
            note_rows(note, &one, room),
            vec![(note.to_string(), Some(room))]
        );
        // The second row keeps its text in one piece once a break fits.
        let zh = "⚠ 反压 · ↻ 重启中";
        let rows = note_rows(
            zh,
            &text,
            geometry::text_width("⚠ 反压 ·", text.lane_note, Face::Sans) + 1.0,
        );
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!(format!("{} {}", rows[0].0, rows[1].0), zh);
    }

    /// A lane too narrow for its state's word shows the glyph alone; a badge
    /// wider than its lane is drawn narrower, inside it; the busy record sits
    /// beside the state only where both fit on the row.
    #[test]
    fn narrow_lanes_shorten_their_state_and_squeeze_their_badge() {
        let text = Text::at(1.0);
        let full = status_line(TaskStatus::Running, Lang::En, text.lane_status, 1e3);
        assert!(full.ends_with("running"), "{full}");
        let w = geometry::text_width(&full, text.lane_status, Face::Sans);
        assert_eq!(
            status_line(TaskStatus::Running, Lang::En, text.lane_status, w),
            full
        );
        let glyph = status_line(TaskStatus::Running, Lang::En, text.lane_status, w - 1.0);
        assert!(!glyph.is_empty() && !glyph.contains("running"), "{glyph}");

        let label = txn_badge(Lang::En, 3, TxnStatus::Precommitted);
        let natural = geometry::text_width(&label, text.lane_note, Face::Sans) + 12.0;
        assert_eq!(
            txn_badge_fit(&label, text.lane_note, natural + 20.0),
            (natural, None)
        );
        let (w, squeeze) = txn_badge_fit(&label, text.lane_note, natural);
        assert!((w - (natural - 14.0)).abs() < 1e-9, "{w} {natural}");
        assert!(squeeze.is_some_and(|s| (s - (w - 12.0)).abs() < 1e-9));

        let state_w = geometry::text_width(&full, text.lane_status, Face::Sans);
        let lane = 18.0 + state_w + BUSY_W + 6.0;
        assert!(busy_beside(lane + 0.01, &full, &text));
        assert!(!busy_beside(lane - 1.0, &full, &text));
    }
}
