//! A subtask's live state, one line on its lane, in the study notes' own form —
//! the same as `chk-N/_metadata` reads in the storage tab: a source's
//! `offset (0, 5)` per partition, a keyed operator's `sum (even, 6) (odd, 9)`
//! (the most recently changed keys first, as many as the lane has room for, then
//! "+n more"), a two-phase-commit sink's open and pre-committed transactions, a
//! broadcast operator's `rules (k, v)`.
//!
//! Right after a restore, each value the restore changed says so:
//! `offset 7 ⟲ 5 (chk-1)` — until it changes again or [`REWIND_MS`] pass. A value
//! that changed within [`FLASH_MS`] is marked to flash (the stylesheet leaves the
//! flash out under reduced motion).
//!
//! Pure: built from the engine's [`TaskView`] (its state, its recently changed
//! entries and its rewind), so the page computes no state of its own.

use engine::view::{EntryView, RewindView, StateView, TaskView};

use crate::i18n::{Lang, Msg};

use super::geometry::{text_width, Face};

/// How much of the lane's margin for the real font (scene units) a source's
/// line may use to keep its `offset` label.
pub const SOURCE_SLACK: f64 = 14.0;

/// How long (simulated ms) a changed value is marked to flash.
pub const FLASH_MS: f64 = 300.0;
/// How long (simulated ms) after a restore its rewound values say `⟲`.
pub const REWIND_MS: f64 = 1_500.0;

/// One value of the line: `(even, 6)`, or `(even, 12 ⟲ 6)` just after a restore.
#[derive(Clone, Debug, PartialEq)]
pub struct StatePart {
    /// Its text.
    pub text: String,
    /// It changed a moment ago.
    pub flash: bool,
    /// The latest restore changed it (the text shows before ⟲ after).
    pub rewound: bool,
}

/// A subtask's state line.
#[derive(Clone, Debug, PartialEq)]
pub struct StateLine {
    /// What the values are of: `offset`, the keyed operator's uid, a named state.
    pub label: String,
    /// The values shown, most recently changed first for keys.
    pub parts: Vec<StatePart>,
    /// Values left out for want of room ("+n more").
    pub more: usize,
    /// The lane is too narrow for "+n more": just "+n".
    pub short_more: bool,
    /// Just after a restore: `(chk-1)` (or "from scratch").
    pub rewind: Option<String>,
    /// While its snapshot of checkpoint n is copied into `chk-n` (from the
    /// snapshot to the acknowledgement, and [`SNAP_MS`] after): `⤴ chk-n`, then
    /// `✓ chk-n` — the values shown are the ones that go into it.
    pub snapshot: Option<String>,
    /// The width (scene units) the line is drawn into when even its one value is
    /// wider than the lane's room (SVG `textLength`); `None`: it fits.
    pub squeeze: Option<f64>,
    /// Where a new row begins (indices into `parts`) when the lane gives the
    /// line more than one row ([`wrap`]); empty: one row.
    pub breaks: Vec<usize>,
}

/// How long (simulated ms) after its acknowledgement a snapshot's `✓ chk-n` stays.
pub const SNAP_MS: f64 = 400.0;

/// A subtask's snapshot as its state line marks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnapshotMark {
    /// Being copied into this checkpoint (`⤴ chk-n`).
    Copying(u64),
    /// Acknowledged: in this checkpoint (`✓ chk-n`, a moment).
    Acknowledged(u64),
}

impl SnapshotMark {
    /// The checkpoint's id.
    pub fn id(self) -> u64 {
        match self {
            SnapshotMark::Copying(id) | SnapshotMark::Acknowledged(id) => id,
        }
    }
}

/// What a state line marks besides the live state: the snapshot being copied
/// (see [`snapshot_of`]) and the transactions the external system aborted.
#[derive(Clone, Copy, Debug, Default)]
pub struct Beside<'a> {
    /// The snapshot, if it is shown.
    pub snapshot: Option<SnapshotMark>,
    /// Transactions the broker aborted.
    pub aborted: &'a [u64],
}

/// The snapshot of `task` being copied at `t`, from the coordinator's
/// per-subtask statistics.
pub fn snapshot_of(
    history: &[engine::view::CheckpointStats],
    task: engine::view::TaskId,
    t: f64,
) -> Option<SnapshotMark> {
    history.iter().rev().find_map(|h| {
        let s = h.subtasks.get(&task)?;
        let at = s.snapshot_at? as f64;
        let done = s.ack_at.map(|a| a as f64);
        // An aborted checkpoint's snapshot never goes into storage: not shown.
        let live = done.is_some() || h.status == engine::view::CheckpointStatus::InProgress;
        let shown = live && t >= at && done.is_none_or(|d| t < d + SNAP_MS);
        shown.then_some(if done.is_some_and(|d| t >= d) {
            SnapshotMark::Acknowledged(h.id.0)
        } else {
            SnapshotMark::Copying(h.id.0)
        })
    })
}

impl StateLine {
    /// "+n more", or "+n" in a narrow lane.
    pub fn more_text(&self, lang: Lang) -> String {
        if self.short_more {
            format!("+{}", self.more)
        } else {
            more(lang, self.more)
        }
    }

    /// The parts each row holds ([`Self::breaks`]), first row first; the mark
    /// and label open the first row, "+n more" and the rewind close the last.
    pub fn rows(&self) -> Vec<std::ops::Range<usize>> {
        let mut starts = vec![0];
        starts.extend(self.breaks.iter().copied());
        starts.push(self.parts.len());
        starts.windows(2).map(|w| w[0]..w[1]).collect()
    }

    /// Each row's text as drawn ([`Self::rows`]).
    pub fn row_texts(&self, lang: Lang) -> Vec<String> {
        let rows = self.rows();
        let last = rows.len() - 1;
        rows.into_iter()
            .enumerate()
            .map(|(r, range)| {
                let row = StateLine {
                    label: if r == 0 {
                        self.label.clone()
                    } else {
                        String::new()
                    },
                    parts: self.parts[range].to_vec(),
                    more: if r == last { self.more } else { 0 },
                    rewind: if r == last { self.rewind.clone() } else { None },
                    snapshot: if r == 0 { self.snapshot.clone() } else { None },
                    breaks: Vec::new(),
                    ..self.clone()
                };
                row.text(lang).trim_start().to_string()
            })
            .collect()
    }

    /// The whole line as text (what the SVG shows, part by part).
    pub fn text(&self, lang: Lang) -> String {
        let mut s = self.label.clone();
        for p in &self.parts {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(&p.text);
        }
        if self.more > 0 {
            s.push(' ');
            s.push_str(&self.more_text(lang));
        }
        if let Some(r) = &self.rewind {
            s.push(' ');
            s.push_str(r);
        }
        match &self.snapshot {
            Some(p) => format!("{p} {s}"),
            None => s,
        }
    }
}

/// A list or map value as `(key, value)` fits in `width` at `size`: whole
/// (`{a: 1, b: 3}`) when it fits, else its first items and how many more
/// (`{29: 245, 32: 605, …+5}`) — legible, never squeezed to nothing.
fn fitted_value(key: &str, v: &serde_json::Value, width: f64, size: f64) -> String {
    use crate::describe::readable;
    use serde_json::Value;
    let whole = readable(v);
    let fits = |s: &str| text_width(&format!("({key}, {s})"), size, Face::Mono) <= width;
    if fits(&whole) {
        return whole;
    }
    let items: Vec<String> = match v {
        Value::Array(a) => a.iter().map(readable).collect(),
        Value::Object(m) => m
            .iter()
            .map(|(k, x)| format!("{k}: {}", readable(x)))
            .collect(),
        _ => return whole,
    };
    let (open, close) = if v.is_array() { ('[', ']') } else { ('{', '}') };
    let mut shown = items.len();
    loop {
        let rest = items.len() - shown;
        let mut s = format!("{open}{}", items[..shown].join(", "));
        if rest > 0 {
            s.push_str(&format!("{}…+{rest}", if shown > 0 { ", " } else { "" }));
        }
        s.push(close);
        if shown == 0 || fits(&s) {
            return s;
        }
        shown -= 1;
    }
}

/// `line` (fitted to `rows` × `width`) laid into at most `rows` rows of `width`
/// at `size`: its mark and label open the first row, its values follow in
/// order, a row breaking between two values, and "+n more" and the rewind's
/// `(chk-n)` close the last. `None` when it does not fit so (the one-row line
/// serves then).
pub fn wrap(line: StateLine, rows: u32, width: f64, size: f64, lang: Lang) -> Option<StateLine> {
    if line.squeeze.is_some() || rows < 2 {
        return None;
    }
    let w = |s: &str| text_width(s, size, Face::Mono);
    let mut used = line
        .snapshot
        .as_deref()
        .map_or(0.0, |m| w(&format!("{m} ")))
        + w(&line.label);
    if used > width {
        return None;
    }
    let mut row_has = !line.label.is_empty();
    let mut breaks = Vec::new();
    for (i, p) in line.parts.iter().enumerate() {
        let need = if row_has { w(" ") } else { 0.0 } + w(&p.text);
        // A label keeps its first value beside it (`offset` never alone).
        if used + need > width && i == 0 {
            return None;
        }
        if used + need > width && row_has {
            if breaks.len() + 1 >= rows as usize {
                return None;
            }
            breaks.push(i);
            used = w(&p.text);
        } else {
            used += need;
        }
        row_has = true;
    }
    let mut tail = 0.0;
    if line.more > 0 {
        tail += w(" ") + w(&line.more_text(lang));
    }
    if let Some(r) = &line.rewind {
        tail += w(" ") + w(r);
    }
    if used + tail > width {
        // "+n more" and the rewind's `(chk-n)` on a row of their own.
        if breaks.len() + 1 >= rows as usize || tail - w(" ") > width {
            return None;
        }
        breaks.push(line.parts.len());
    }
    Some(StateLine { breaks, ..line })
}

/// "+n more".
pub fn more(lang: Lang, n: usize) -> String {
    lang.t(Msg::StateMore).replace("{n}", &n.to_string())
}

/// One entry of a state, with what the line needs to order and mark it.
struct Entry {
    key: EntryView,
    /// `(k, v)`, or just `v` for a single-partition source being rewound.
    text: String,
    /// Its position in the recently-changed list (0: the latest), if there.
    recent: Option<usize>,
    flash: bool,
    rewound: bool,
}

/// The state line of `task` (operator uid `uid`) at display time `t`, fitted to
/// `width` scene units at text size `size` (monospace). `None`: stateless.
pub fn state_line(
    task: &TaskView,
    uid: &str,
    t: f64,
    width: f64,
    size: f64,
    lang: Lang,
) -> Option<StateLine> {
    state_line_with(task, uid, Beside::default(), t, width, size, lang)
}

/// [`state_line`], with the snapshot being copied (see [`snapshot_of`]) and the
/// transactions the external system has aborted (`beside`): a two-phase-commit
/// sink still holds such a transaction as pre-committed — Kafka aborted it for its
/// timeout — and the line says what the broker did, not what the sink believes.
pub fn state_line_with(
    task: &TaskView,
    uid: &str,
    beside: Beside,
    t: f64,
    width: f64,
    size: f64,
    lang: Lang,
) -> Option<StateLine> {
    let Beside { snapshot, aborted } = beside;
    // A ✓ marks success: never beside a transaction the broker aborted (the
    // snapshot still went into chk-n, but what it holds failed).
    let holds_aborted = matches!(&task.state, StateView::TwoPhaseCommit { pending, .. }
        if pending.iter().any(|(_, txn)| aborted.contains(txn)));
    let snapshot = snapshot.filter(|_| !holds_aborted).map(|mark| match mark {
        SnapshotMark::Acknowledged(id) => format!("✓ chk-{id}"),
        SnapshotMark::Copying(id) => format!("⤴ chk-{id}"),
    });
    let marks = Marks::new(task, t);
    let (label, mut entries, by_recency) =
        entries_of(task, uid, &marks, aborted, width, size, lang)?;
    if by_recency {
        // What the restore rewound first (it is the news), then the most recently
        // changed (stable: the others keep key order).
        entries.sort_by_key(|e| (!e.rewound, e.recent.unwrap_or(usize::MAX)));
    }
    // A keyed operator with no key yet says so (`pv ∅`, as chk-n's storage
    // does), never a bare `pv` that reads like a cut-off line.
    if by_recency && entries.is_empty() {
        entries.push(Entry::plain("∅".into()));
    }
    let any_rewound = entries.iter().any(|e| e.rewound);
    let rewind_text = marks
        .rewind
        .filter(|_| any_rewound)
        .map(|r| match r.checkpoint {
            Some(c) => format!("(chk-{})", c.0),
            None => format!("({})", lang.t(Msg::StateFromScratch)),
        });
    let fit = LaneFit {
        width,
        size,
        lang,
        by_recency,
    };
    let line = fit.line(label, entries, rewind_text, snapshot)?;
    Some(fit.shorten(line))
}

/// What marks a value on the line at display time `t`: the restore's rewind
/// (while it is news), the recently changed entries, the ones that flash.
struct Marks<'a> {
    task: &'a TaskView,
    t: f64,
    /// What the restore changed, while it is news.
    rewind: Option<&'a RewindView>,
}

impl<'a> Marks<'a> {
    fn new(task: &'a TaskView, t: f64) -> Marks<'a> {
        let rewind = task
            .rewind
            .as_ref()
            .filter(|r| t >= r.at as f64 && t < r.at as f64 + REWIND_MS && !r.values.is_empty());
        Marks { task, t, rewind }
    }

    /// The entry changed again after the restore (so it is no longer rewound news).
    fn changed_since_restore(&self, e: &EntryView) -> bool {
        self.rewind.is_some_and(|r| {
            self.task
                .changed
                .iter()
                .any(|c| c.entry == *e && c.at > r.at)
        })
    }

    /// What the restore changed `e` (of the named `state`) from and to, readable.
    fn rewound_of(&self, e: &EntryView, state: Option<&str>) -> Option<(String, String)> {
        self.rewind
            .filter(|_| !self.changed_since_restore(e))
            .and_then(|r| {
                r.values
                    .iter()
                    .find(|v| v.entry == *e && v.state.as_deref() == state)
            })
            .map(|v| {
                let said = |x: &Option<String>| {
                    x.as_deref().map_or_else(
                        || "∅".to_string(),
                        |x| {
                            serde_json::from_str(x)
                                .map_or_else(|_| x.to_string(), |j| crate::describe::readable(&j))
                        },
                    )
                };
                (said(&v.before), said(&v.after))
            })
    }

    /// `e`'s position in the recently-changed list (0: the latest).
    fn recent_of(&self, e: &EntryView) -> Option<usize> {
        self.task.changed.iter().position(|c| c.entry == *e)
    }

    /// Whether `e` changed within [`FLASH_MS`].
    fn flash_of(&self, e: &EntryView) -> bool {
        let t = self.t;
        self.task
            .changed
            .iter()
            .find(|c| c.entry == *e)
            .is_some_and(|c| t >= c.at as f64 && t - (c.at as f64) < FLASH_MS)
    }

    /// The entry `(k, value)` of `key`, or `(k, before ⟲ after)` while rewound.
    fn entry(&self, key: EntryView, k: &str, value: String, state: Option<&str>) -> Entry {
        let rewound = self.rewound_of(&key, state);
        Entry {
            text: match &rewound {
                Some((b, a)) => format!("({k}, {b} ⟲ {a})"),
                None => format!("({k}, {value})"),
            },
            recent: self.recent_of(&key),
            flash: self.flash_of(&key),
            rewound: rewound.is_some(),
            key,
        }
    }
}

impl Entry {
    /// A value with no key to mark (a transaction, the empty state's ∅).
    fn plain(text: String) -> Entry {
        Entry {
            key: EntryView::Partition { partition: 0 },
            text,
            recent: None,
            flash: false,
            rewound: false,
        }
    }
}

/// The line's label, its entries in the state's own order, and whether they
/// are keys to order by recency (a keyed state) rather than kept in order.
/// `None`: stateless.
fn entries_of(
    task: &TaskView,
    uid: &str,
    marks: &Marks,
    aborted: &[u64],
    width: f64,
    size: f64,
    lang: Lang,
) -> Option<(String, Vec<Entry>, bool)> {
    Some(match &task.state {
        StateView::Stateless => return None,
        StateView::Source { offsets } => {
            let mut entries: Vec<Entry> = offsets
                .iter()
                .map(|(p, next, _)| {
                    marks.entry(
                        EntryView::Partition { partition: *p },
                        &p.to_string(),
                        next.to_string(),
                        None,
                    )
                })
                .collect();
            // One partition rewound: the study notes' `offset 7 ⟲ 5`.
            if let [only] = entries.as_mut_slice() {
                if let Some((b, a)) = marks.rewound_of(&only.key, None) {
                    only.text = format!("{b} ⟲ {a}");
                }
            }
            ("offset".to_string(), entries, false)
        }
        StateView::Keyed { entries } => (
            uid.to_string(),
            entries
                .iter()
                .map(|(k, _, v)| {
                    marks.entry(EntryView::Key { key: k.clone() }, k, v.to_string(), None)
                })
                .collect(),
            true,
        ),
        StateView::KeyedStates { states } => {
            // One line: the first named state that has entries (most lessons have
            // one; the side panel lists them all).
            let s = states
                .iter()
                .find(|s| !s.entries.is_empty())
                .or(states.first())?;
            (
                s.name.clone(),
                s.entries
                    .iter()
                    .map(|e| {
                        // A list, map or aggregate reads `[a, b]`, `{a: 1}`, not
                        // JSON; a value past its TTL but not yet cleaned up is
                        // marked ⊘ (Flink keeps it until a cleanup removes it).
                        let value = serde_json::from_str(&e.value).map_or_else(
                            |_| e.value.clone(),
                            |v| fitted_value(&e.key, &v, width, size),
                        );
                        let value = if e.expired_units > 0 {
                            format!("⊘{value}")
                        } else {
                            value
                        };
                        marks.entry(
                            EntryView::Key { key: e.key.clone() },
                            &e.key,
                            value,
                            Some(&s.name),
                        )
                    })
                    .collect(),
                true,
            )
        }
        StateView::TwoPhaseCommit { current, pending } => {
            // Oldest first, as chk-n stores them: the pre-committed transactions
            // waiting for their checkpoint to complete, then the open one.
            let mut parts = Vec::new();
            for (_, txn) in pending {
                let word = if aborted.contains(txn) {
                    Msg::StateAbortedTxn
                } else {
                    Msg::StatePrecommittedTxn
                };
                parts.push(lang.t(word).replace("{id}", &txn.to_string()));
            }
            if let Some(c) = current {
                parts.push(lang.t(Msg::StateOpenTxn).replace("{id}", &c.to_string()));
            }
            let entries = parts.into_iter().map(Entry::plain).collect();
            (String::new(), entries, false)
        }
    })
}

/// Fitting a line to its lane: `width` scene units at text size `size`.
struct LaneFit {
    width: f64,
    size: f64,
    lang: Lang,
    /// A keyed state's line (its label is the operator's uid, which the lane's
    /// name already says), not a source's or a sink's.
    by_recency: bool,
}

impl LaneFit {
    /// The width of `s` in the line's monospace.
    fn w(&self, s: &str) -> f64 {
        text_width(s, self.size, Face::Mono)
    }

    /// How many of `entries` fit after a label `label_w` wide and the marks
    /// `rest_w` wide, keeping room for "+n more".
    fn pack(&self, entries: &[Entry], label_w: f64, rest_w: f64) -> usize {
        let w = |s: &str| self.w(s);
        let total = entries.len();
        let mut used = label_w + rest_w;
        let mut n = 0;
        for (i, e) in entries.iter().enumerate() {
            let left = total - i - 1;
            let reserve = if left > 0 {
                w(" ") + w(&more(self.lang, left))
            } else {
                0.0
            };
            let need = w(" ") + w(&e.text);
            if n > 0 && used + need + reserve > self.width {
                break;
            }
            used += need;
            n += 1;
        }
        n
    }

    /// As many values as fit, keeping room for "+n more" and the rewind's
    /// `(chk-1)`; `None` when nothing at all is left to show.
    fn line(
        &self,
        label: String,
        entries: Vec<Entry>,
        rewind_text: Option<String>,
        snapshot: Option<String>,
    ) -> Option<StateLine> {
        let (width, lang, by_recency) = (self.width, self.lang, self.by_recency);
        let w = |s: &str| self.w(s);
        let rest_w = rewind_text.as_deref().map_or(0.0, |r| w(r) + w(" "))
            + snapshot.as_deref().map_or(0.0, |p| w(p) + w(" "));
        // A keyed operator's label is its uid, which the lane's name already says:
        // left out when that shows more of its keys (`(odd, 9) (even, 6)`).
        let mut label = label;
        let mut shown = self.pack(&entries, w(&label), rest_w);
        if by_recency && shown < entries.len() && self.pack(&entries, 0.0, rest_w) > shown {
            label.clear();
            shown = self.pack(&entries, 0.0, rest_w);
        }
        let used_base = w(&label) + rest_w;
        let total = entries.len();
        let parts: Vec<StatePart> = entries
            .into_iter()
            .take(shown)
            .map(|e| StatePart {
                text: e.text,
                flash: e.flash,
                rewound: e.rewound,
            })
            .collect();
        let more = total - parts.len();
        let line_w = |parts: &[StatePart], more: usize, short: bool| {
            let mut x = used_base + parts.iter().map(|p| w(" ") + w(&p.text)).sum::<f64>();
            if more > 0 {
                x += w(" ")
                    + if short {
                        w(&format!("+{more}"))
                    } else {
                        w(&self::more(lang, more))
                    };
            }
            x
        };
        let short_more = more > 0 && line_w(&parts, more, false) > width;
        // A narrow lane keeps at least one value: "+n" instead of "+n more", then
        // a keyed line goes without its label (the lane's name says whose state it
        // is) — `(app1, 5) +2`, never only `count +2 more`. A source keeps its
        // `offset` while the line fits the lane itself (`width` keeps a margin for
        // the real font): a bare `7 ⟲ 5` would not say what rewound.
        let label = if line_w(&parts, more, short_more) > width + self.slack()
            && !parts.is_empty()
            && (by_recency || rewind_text.is_some())
        {
            String::new()
        } else {
            label
        };
        if label.is_empty() && parts.is_empty() {
            return None;
        }
        Some(StateLine {
            label,
            parts,
            more,
            short_more,
            rewind: rewind_text,
            snapshot,
            squeeze: None,
            breaks: Vec::new(),
        })
    }

    /// How far past `width` a line may run: a source's keeps its `offset` label
    /// within the lane's margin for the real font ([`SOURCE_SLACK`]).
    fn slack(&self) -> f64 {
        if self.by_recency {
            0.0
        } else {
            SOURCE_SLACK
        }
    }

    /// The one value a line always keeps can be a rewound key with its
    /// `(chk-1)`, or an offset behind `✓ chk-1`, longer than a narrow lane was
    /// sized for (`(even, 12 ⟲ 6) +1 (chk-1)`): rather than run past its lane,
    /// the line lets go of the count of keys left out, then of the snapshot's
    /// mark (its chip is on its way to `chk-n` then), and what is still too long
    /// is drawn narrower (`squeeze`), its words kept.
    fn shorten(&self, mut line: StateLine) -> StateLine {
        let limit = self.width + self.slack();
        if line.more > 0 && self.w(&line.text(self.lang)) > limit {
            line.more = 0;
            line.short_more = false;
        }
        if line.snapshot.is_some() && self.w(&line.text(self.lang)) > limit {
            line.snapshot = None;
        }
        if self.w(&line.text(self.lang)) > limit {
            line.squeeze = Some(limit);
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::runner::load;
    use engine::World;

    fn world(name: &str) -> World {
        let s = load(name).unwrap();
        let mut w = World::new(&s, s.seed).unwrap();
        w.set_tracing(true);
        w
    }

    fn line(w: &World, task: &str, width: f64) -> Option<StateLine> {
        let v = w.view();
        let job = w.job_view();
        let i = w.task_id(task).unwrap().0 as usize;
        let uid = &job.operators[job.tasks[i].op].uid;
        state_line(&v.tasks[i], uid, w.now() as f64, width, 17.0, Lang::En)
    }

    /// odd-even-sum, the study notes' numbers: at chk-1 the source says
    /// `offset (0, 5)` and the sum `sum (odd, 9) (even, 6)` (odd changed last);
    /// after the restore `offset 7 ⟲ 5 (chk-1)` and `sum (even, 12 ⟲ 6) (odd, 9)`.
    #[test]
    fn odd_even_sum_before_and_after_the_restore() {
        let mut w = world("odd-even-sum");
        w.run_until(520, |_| {});
        let src = line(&w, "numbers#0", 400.0).unwrap();
        assert_eq!(src.text(Lang::En), "offset (0, 5)");
        let sum = line(&w, "sum#0", 400.0).unwrap();
        assert_eq!(sum.text(Lang::En), "sum (odd, 9) (even, 6)");
        // Run to the restore.
        while w.view().tasks.iter().all(|t| t.rewind.is_none()) {
            w.step().expect("the job restarts");
        }
        let src = line(&w, "numbers#0", 400.0).unwrap();
        assert_eq!(src.text(Lang::En), "offset 7 ⟲ 5 (chk-1)");
        assert!(src.parts[0].rewound);
        let sum = line(&w, "sum#0", 400.0).unwrap();
        assert_eq!(sum.text(Lang::En), "sum (even, 12 ⟲ 6) (odd, 9) (chk-1)");
        // Once the values move on, the line is the live state again.
        w.run_until(w.now() + REWIND_MS as u64 + 200, |_| {});
        let src = line(&w, "numbers#0", 400.0).unwrap();
        assert!(src.rewind.is_none() && !src.text(Lang::En).contains('⟲'));
        assert!(src.text(Lang::En).starts_with("offset (0, "));
    }

    /// On the stage itself (the scene fitted to the projector boxes), the
    /// restore's lines keep their label where the lesson's point is.
    #[test]
    fn on_a_projector_stage_the_restore_reads_offset_7_to_5() {
        let mut w = world("odd-even-sum");
        while w.view().tasks.iter().all(|t| t.rewind.is_none()) {
            w.step().expect("the job restarts");
        }
        let job = w.job_view();
        for size in [(1169.0, 441.0), (913.0, 506.0)] {
            for lang in [Lang::En, Lang::Zh] {
                let fit = crate::scene::Fit {
                    size: Some(size),
                    lang,
                    ..crate::scene::Fit::default()
                };
                let sc = crate::scene::scene_fit(&job, &w.view(), w.now() as f64, fit);
                let src = sc.lanes[0].state.as_ref().unwrap();
                assert_eq!(src.text(lang), "offset 7 ⟲ 5 (chk-1)", "{size:?}");
                let sum = sc.lanes[2].state.as_ref().unwrap();
                assert!(sum.text(lang).contains("(even, 12 ⟲ 6)"), "{size:?}");
                // The stage has the height: the odd sum the restore kept is
                // shown too, on the lane's second row.
                assert!(
                    sum.text(lang).contains("(odd, 9)"),
                    "{size:?} {lang:?}: {:?}",
                    sum.text(lang)
                );
                // Every line stays inside its lane (the room `scene_fit` gives it).
                for lane in &sc.lanes {
                    if let Some(l) = &lane.state {
                        for row in l.row_texts(lang) {
                            let line = l.squeeze.unwrap_or_else(|| {
                                text_width(&row, sc.text.lane_state, Face::Mono)
                            });
                            assert!(
                                line <= lane.boxed.w - 26.0 + SOURCE_SLACK,
                                "{size:?} {lang:?}: {row:?} is {line:.0} wide in a lane of {:.0}",
                                lane.boxed.w
                            );
                        }
                    }
                }
            }
        }
    }

    /// Values change as records are processed, and the changed one flashes.
    #[test]
    fn the_changed_value_flashes_and_leads() {
        let mut w = world("odd-even-sum");
        let mut flashed = 0;
        let mut last = String::new();
        for _ in 0..300 {
            w.step();
            let Some(l) = line(&w, "sum#0", 400.0) else {
                continue;
            };
            let text = l.text(Lang::En);
            let was_rewind = last.contains('⟲');
            let is_empty = l.parts.len() == 1 && l.parts[0].text == "∅";
            if text != last && !is_empty && l.rewind.is_none() && !was_rewind {
                // A new value: it is the first part and marked to flash.
                assert!(l.parts[0].flash, "{text}");
                flashed += 1;
            }
            last = text;
        }
        assert!(flashed >= 5, "{flashed}");
    }

    /// Many keys: the most recent few that fit, then "+n more" — at least one
    /// value even in a narrow lane; the line never exceeds its room (beyond its
    /// first value).
    #[test]
    fn many_keys_show_the_most_recent_few_and_a_count() {
        for name in ["pv-count", "busy-network", "state-types", "broadcast-rules"] {
            let mut w = world(name);
            w.run_until(2_500, |_| {});
            let job = w.job_view();
            let v = w.view();
            let mut shortened = 0;
            for (i, t) in v.tasks.iter().enumerate() {
                let uid = &job.operators[job.tasks[i].op].uid;
                for width in [110.0, 140.0, 250.0] {
                    let Some(l) = state_line(t, uid, w.now() as f64, width, 17.0, Lang::En) else {
                        continue;
                    };
                    let text = l.text(Lang::En);
                    if l.parts.len() > 1 {
                        assert!(
                            text_width(&text, 17.0, Face::Mono) <= width + 1e-6,
                            "{name}: {text}"
                        );
                    }
                    if l.more > 0 {
                        shortened += 1;
                        assert!(text.contains(&format!("+{}", l.more)), "{text}");
                        // Even a narrow lane shows one key's value, never only
                        // `count +2 more`.
                        assert!(!l.parts.is_empty(), "{name} at {width}: {text}");
                    }
                }
            }
            if name == "busy-network" {
                assert!(
                    shortened > 0,
                    "{name}: some keyed lane has more keys than room"
                );
            }
        }
    }

    /// kafka-transaction-timeout: the sink still holds T3 as pre-committed after
    /// the broker aborted it for its timeout (1812 ms); the line says aborted, as
    /// the topic's transaction does, until the failed commit drops it.
    #[test]
    fn a_transaction_the_broker_aborted_is_not_shown_pre_committed() {
        let mut w = world("kafka-transaction-timeout");
        let id = w.task_id("kafka-out#0").unwrap();
        while w.now() < 2000 && w.step().is_some() {}
        let v = w.view();
        let aborted: Vec<u64> = v
            .sinks
            .iter()
            .flat_map(|s| &s.txns)
            .filter(|x| x.status == engine::view::TxnStatus::Aborted)
            .map(|x| x.id)
            .collect();
        assert!(aborted.contains(&3), "the broker aborted T3: {aborted:?}");
        let task = &v.tasks[id.0 as usize];
        let text = |aborted: &[u64]| {
            let l = state_line_with(
                task,
                "kafka-out",
                Beside {
                    snapshot: None,
                    aborted,
                },
                2000.0,
                600.0,
                17.0,
                Lang::En,
            )
            .expect("a two-phase-commit sink has a line");
            l.parts
                .iter()
                .map(|p| p.text.clone())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert!(text(&[]).contains("pre-committed T3"), "{}", text(&[]));
        assert!(text(&aborted).contains("aborted T3"), "{}", text(&aborted));
        assert!(!text(&aborted).contains("pre-committed T3"));
    }

    /// odd-even-sum's chk-1: from the source's snapshot to its acknowledgement
    /// its line says the values go into chk-1 (`⤴ chk-1 offset (0, 5)`), then
    /// `✓ chk-1` a moment.
    #[test]
    fn a_snapshot_is_shown_copying_into_its_checkpoint() {
        let mut w = world("odd-even-sum");
        let id = w.task_id("numbers#0").unwrap();
        let (mut copying, mut acked) = (0, 0);
        while w.now() < 700 && w.step().is_some() {
            let v = w.view();
            let t = w.now() as f64;
            let snap = snapshot_of(&v.coordinator.history, id, t);
            let l = state_line_with(
                &v.tasks[id.0 as usize],
                "numbers",
                Beside {
                    snapshot: snap,
                    aborted: &[],
                },
                t,
                400.0,
                17.0,
                Lang::En,
            )
            .unwrap();
            match snap {
                Some(SnapshotMark::Copying(1)) => {
                    copying += 1;
                    assert_eq!(l.text(Lang::En), "⤴ chk-1 offset (0, 5)");
                }
                Some(SnapshotMark::Acknowledged(1)) => {
                    acked += 1;
                    assert!(l.text(Lang::En).starts_with("✓ chk-1 offset"));
                }
                Some(other) => panic!("{other:?}"),
                None => assert!(l.snapshot.is_none()),
            }
        }
        assert!(copying > 0 && acked > 0, "{copying} {acked}");
    }

    /// A two-phase-commit sink lists its open and pre-committed transactions.
    #[test]
    fn a_two_phase_commit_sink_shows_its_transactions() {
        let mut w = world("exactly-once-kafka");
        let mut seen_pre = false;
        for _ in 0..2_000 {
            if w.step().is_none() {
                break;
            }
            let v = w.view();
            for (i, t) in v.tasks.iter().enumerate() {
                if let StateView::TwoPhaseCommit { current, pending } = &t.state {
                    let l = state_line(t, "x", w.now() as f64, 400.0, 17.0, Lang::En);
                    assert_eq!(l.is_some(), current.is_some() || !pending.is_empty());
                    let Some(l) = l else { continue };
                    let text = l.text(Lang::En);
                    if let Some(c) = current {
                        assert!(text.contains(&format!("open T{c}")), "{text}");
                    }
                    for (_, x) in pending {
                        seen_pre = true;
                        assert!(text.contains(&format!("pre-committed T{x}")), "{i}: {text}");
                    }
                }
            }
        }
        assert!(seen_pre);
    }
}
