//! A checkpoint's phases per subtask as a Gantt: one row per subtask, the
//! stragglers (the latest to acknowledge) on top, a time axis from the trigger,
//! and per phase — start delay, alignment, synchronous part, asynchronous part —
//! a bar in the stage's colours, its duration also written as a number.
//!
//! [`Gantt::of_lab`] draws the engine's view ([`engine::view::phases`]): the
//! page places the boundaries the view gives and recomputes nothing. A pending
//! checkpoint's phases that have not ended run up to the moment drawn, so they
//! grow while the run plays. [`Gantt::of_real`] draws imported Flink statistics,
//! which hold durations only: they are laid end to end from the trigger, and what
//! remains up to the acknowledgement is the time Flink does not break down.

use engine::view::phases::{CheckpointPhases, SubtaskPhases};
use engine::view::CheckpointStatus;
use yew::prelude::*;

use crate::flink_stats::{Row, Status};
use crate::i18n::{Lang, Msg};
use crate::playback::Action;

/// A phase of one subtask's part of a checkpoint (Flink: `SubtaskStateStats`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// From the trigger to the first barrier.
    StartDelay,
    /// From the first barrier to the last.
    Alignment,
    /// The synchronous part of the snapshot.
    Sync,
    /// The asynchronous part: the upload, records flowing meanwhile.
    Async,
    /// No barrier reached the subtask before the checkpoint was aborted.
    Unreached,
}

impl Phase {
    /// The four phases with a duration, in Flink's order.
    pub const TIMED: [Phase; 4] = [
        Phase::StartDelay,
        Phase::Alignment,
        Phase::Sync,
        Phase::Async,
    ];

    fn class(self) -> &'static str {
        match self {
            Phase::StartDelay => "delay",
            Phase::Alignment => "align",
            Phase::Sync => "sync",
            Phase::Async => "async",
            Phase::Unreached => "unreached",
        }
    }

    fn name(self) -> Msg {
        match self {
            Phase::StartDelay => Msg::PhaseStartDelay,
            Phase::Alignment => Msg::PhaseAlignment,
            Phase::Sync => Msg::PhaseSync,
            Phase::Async => Msg::PhaseAsync,
            Phase::Unreached => Msg::PhaseUnreached,
        }
    }

    fn short(self) -> Msg {
        match self {
            Phase::StartDelay => Msg::PhaseShortDelay,
            Phase::Alignment => Msg::PhaseShortAlign,
            Phase::Sync => Msg::PhaseShortSync,
            Phase::Async => Msg::PhaseShortAsync,
            Phase::Unreached => Msg::PhaseUnreached,
        }
    }
}

/// One bar of a row, in ms after the trigger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bar {
    /// Which phase.
    pub phase: Phase,
    /// Where it starts.
    pub from: u64,
    /// Where it ends (equal to `from` for a phase that took no time).
    pub to: u64,
    /// It has not ended: it runs up to the moment drawn (pending) or was cut by
    /// the checkpoint's abort.
    pub open: bool,
    /// Drawn in the row's lower lane, beside another phase running at the same
    /// time (unaligned: the alignment beside the asynchronous part).
    pub beside: bool,
    /// The run's moment it stands for, when the cursor can be moved there.
    pub seek: Option<u64>,
}

impl Bar {
    /// Drawn: a phase that took time, one still running, or the synchronous
    /// part's instant (the snapshot); a finished phase of 0 ms is only a number.
    pub fn drawn(&self) -> bool {
        self.to > self.from || self.open || self.phase == Phase::Sync
    }
}

/// One subtask's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GanttRow {
    /// `"uid#index"`.
    pub name: String,
    /// Its bars.
    pub bars: Vec<Bar>,
    /// Duration of each of [`Phase::TIMED`] (`None`: not reached or not reported);
    /// a phase still running counts up to the moment drawn.
    pub durations: [Option<u64>; 4],
    /// Its acknowledgement, ms after the trigger.
    pub ack: Option<u64>,
    /// The run's moment of the acknowledgement (the lab's rows).
    pub ack_at: Option<u64>,
    /// It had finished before the trigger (acknowledged without a barrier).
    pub finished: bool,
    /// Its snapshot was unaligned.
    pub unaligned: bool,
}

impl GanttRow {
    /// A phase still running at the moment drawn.
    pub fn open(&self, phase: Phase) -> bool {
        self.bars.iter().any(|b| b.phase == phase && b.open)
    }
}

/// Whether the checkpoint is still running, has ended, or comes from Flink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Pending, drawn as at `now` ms after the trigger.
    Pending { now: u64 },
    /// Completed at this many ms after the trigger.
    Completed { at: u64 },
    /// Aborted at this many ms after the trigger.
    Aborted { at: u64 },
    /// Imported statistics: durations laid end to end.
    Reported,
}

/// A checkpoint's Gantt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gantt {
    /// The checkpoint.
    pub checkpoint: u64,
    /// Its rows, stragglers first.
    pub rows: Vec<GanttRow>,
    /// The axis's length, ms after the trigger.
    pub span: u64,
    /// Pending, ended, or imported.
    pub progress: Progress,
    /// Some snapshot was unaligned.
    pub unaligned: bool,
}

impl Gantt {
    /// The lab's checkpoint `p`, as the engine's view breaks it into phases.
    pub fn of_lab(p: &CheckpointPhases) -> Gantt {
        let rel = |t: u64| t.saturating_sub(p.trigger_at);
        let progress = match (p.now, p.end_at, p.status) {
            (Some(now), _, _) => Progress::Pending { now: rel(now) },
            (None, Some(end), CheckpointStatus::Completed) => Progress::Completed { at: rel(end) },
            (None, Some(end), _) => Progress::Aborted { at: rel(end) },
            (None, None, _) => Progress::Pending { now: 0 },
        };
        // Where a phase that has not ended stops: the moment drawn, or the abort.
        let limit = match progress {
            Progress::Pending { now } => Some(now),
            Progress::Aborted { at } => Some(at),
            _ => None,
        };
        let mut rows: Vec<(u32, GanttRow)> = p
            .subtasks
            .iter()
            .map(|s| {
                let pending = matches!(progress, Progress::Pending { .. });
                (s.task.0, lab_row(s, p.trigger_at, limit, pending))
            })
            .collect();
        // Stragglers first: not acknowledged, then the latest acknowledgement.
        rows.sort_by_key(|(task, r)| (std::cmp::Reverse(r.ack.unwrap_or(u64::MAX)), *task));
        let rows: Vec<GanttRow> = rows.into_iter().map(|(_, r)| r).collect();
        Gantt {
            checkpoint: p.checkpoint.0,
            span: span(&rows, limit),
            unaligned: rows.iter().any(|r| r.unaligned),
            rows,
            progress,
        }
    }

    /// An imported checkpoint `row` of Flink's statistics.
    pub fn of_real(row: &Row) -> Gantt {
        let pending = row.status == Some(Status::InProgress);
        let mut rows: Vec<GanttRow> = row
            .tasks
            .iter()
            .flat_map(|t| {
                t.subtasks.iter().map(|s| {
                    let durations = [s.start_delay_ms, s.alignment_ms, s.sync_ms, s.async_ms];
                    let mut at = 0;
                    let mut bars = Vec::new();
                    for (phase, d) in Phase::TIMED.into_iter().zip(durations) {
                        if let Some(d) = d {
                            bars.push(Bar {
                                phase,
                                from: at,
                                to: at + d,
                                open: false,
                                beside: false,
                                seek: None,
                            });
                            at += d;
                        }
                    }
                    GanttRow {
                        name: format!("{}#{}", t.name, s.index),
                        bars,
                        durations,
                        ack: s.end_to_end_ms.filter(|_| s.acknowledged),
                        ack_at: None,
                        finished: false,
                        unaligned: s.unaligned == Some(true),
                    }
                })
            })
            .collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.ack.unwrap_or(u64::MAX)));
        let end = row.end_to_end_ms.filter(|_| !pending);
        Gantt {
            checkpoint: row.id,
            span: span(&rows, end),
            unaligned: rows.iter().any(|r| r.unaligned),
            rows,
            progress: Progress::Reported,
        }
    }

    /// Axis ticks, ms after the trigger: a round step, at most five intervals.
    pub fn ticks(&self) -> Vec<u64> {
        let step = nice_step(self.span);
        (0..=self.span / step).map(|i| i * step).collect()
    }

    /// `t` as a percentage of the axis.
    pub fn pct(&self, t: u64) -> f64 {
        (t as f64 / self.span.max(1) as f64 * 100.0).clamp(0.0, 100.0)
    }
}

/// A subtask's row from the view's boundaries; `limit` (ms after the trigger) is
/// where a phase that has not ended stops, `pending` that it is the moment drawn
/// rather than the abort.
fn lab_row(s: &SubtaskPhases, trigger: u64, limit: Option<u64>, pending: bool) -> GanttRow {
    let rel = |t: u64| t.saturating_sub(trigger);
    let mut bars = Vec::new();
    let mut bar = |phase, from: u64, to: Option<u64>, beside, seek| {
        let (to, open) = match (to, limit) {
            (Some(to), _) => (rel(to), false),
            (None, Some(limit)) => (limit.max(rel(from)), true),
            (None, None) => return,
        };
        bars.push(Bar {
            phase,
            from: rel(from),
            to,
            open,
            beside,
            seek,
        });
    };
    if !s.finished() {
        match s.first_barrier_at {
            Some(first) => {
                bar(Phase::StartDelay, trigger, Some(first), false, Some(first));
                let alignment_end = s
                    .alignment_end_at
                    .or(s.snapshot_at.filter(|_| !s.unaligned));
                bar(
                    Phase::Alignment,
                    first,
                    alignment_end,
                    s.unaligned,
                    Some(first),
                );
                if let (Some(start), Some(snap)) = (s.started_at(), s.snapshot_at) {
                    bar(Phase::Sync, start, Some(snap), false, Some(snap));
                }
                if let Some(snap) = s.snapshot_at {
                    bar(Phase::Async, snap, s.ack_at, false, Some(snap));
                }
            }
            // No barrier yet: its start delay runs on while pending; aborted, the
            // barrier never came.
            None if s.ack_at.is_none() => {
                let phase = if pending {
                    Phase::StartDelay
                } else {
                    Phase::Unreached
                };
                bar(phase, trigger, None, false, None)
            }
            None => {}
        }
    }
    let mut durations = [None; 4];
    for (i, phase) in Phase::TIMED.into_iter().enumerate() {
        durations[i] = bars
            .iter()
            .find(|b| b.phase == phase)
            .map(|b| b.to - b.from);
    }
    GanttRow {
        name: s.name.to_string(),
        bars,
        durations,
        ack: s.ack_at.map(rel),
        ack_at: s.ack_at,
        finished: s.finished(),
        unaligned: s.unaligned,
    }
}

fn span(rows: &[GanttRow], end: Option<u64>) -> u64 {
    rows.iter()
        .flat_map(|r| r.bars.iter().map(|b| b.to).chain(r.ack))
        .chain(end)
        .max()
        .unwrap_or(0)
        .max(1)
}

/// The smallest of 1, 2, 5 × 10ⁿ ms that cuts `span` into at most five steps.
fn nice_step(span: u64) -> u64 {
    let mut unit = 1;
    loop {
        for m in [1, 2, 5] {
            if span <= unit * m * 5 {
                return unit * m;
            }
        }
        unit *= 10;
    }
}

fn ms(v: Option<u64>, open: bool) -> String {
    match v {
        None => "—".to_string(),
        Some(v) if open => format!("{v}…"),
        Some(v) => v.to_string(),
    }
}

/// The legend: each phase's swatch and name.
fn legend(lang: Lang, g: &Gantt) -> Html {
    let aborted = matches!(g.progress, Progress::Aborted { .. });
    html! {
        <ul class="phases__legend">
            { for Phase::TIMED.iter().map(|p| html! {
                <li><span class={classes!("phases__swatch", format!("phases__swatch--{}", p.class()))} aria-hidden="true" />{ lang.t(p.name()) }</li>
            }) }
            if aborted {
                <li><span class="phases__swatch phases__swatch--unreached" aria-hidden="true" />{ lang.t(Msg::PhaseUnreached) }</li>
            }
            <li><span class="phases__swatch phases__swatch--ack" aria-hidden="true">{ "✓" }</span>{ lang.t(Msg::PhaseAck) }</li>
        </ul>
    }
}

/// One row's numbers: short phase names with their ms, then the acknowledgement.
fn numbers(lang: Lang, r: &GanttRow) -> Html {
    if r.finished {
        return html! { <span class="phases__numbers">{ lang.t(Msg::PhasesFinished) }</span> };
    }
    let parts = Phase::TIMED
        .into_iter()
        .zip(r.durations)
        .map(|(p, d)| format!("{} {}", lang.t(p.short()), ms(d, r.open(p))))
        .collect::<Vec<_>>()
        .join(" · ");
    let ack = r
        .ack
        .map_or_else(|| "✓ —".to_string(), |a| format!("✓ {a}"));
    html! { <span class="phases__numbers">{ format!("{parts} · {ack} ms") }</span> }
}

fn bar_html(
    lang: Lang,
    g: &Gantt,
    r: &GanttRow,
    b: &Bar,
    dispatch: Option<&Callback<Action>>,
) -> Html {
    let left = g.pct(b.from);
    let width = g.pct(b.to) - left;
    // A bar at the axis's end (an instant, drawn 3 px wide) stays inside the track.
    let style = format!("left: min({left:.2}%, calc(100% - 3px)); width: {width:.2}%");
    let class = classes!(
        "phases__bar",
        format!("phases__bar--{}", b.phase.class()),
        b.open.then_some("phases__bar--open"),
        b.beside.then_some("phases__bar--beside"),
    );
    let what = format!(
        "{}: {} {} ms{}",
        r.name,
        lang.t(b.phase.name()),
        b.to - b.from,
        if b.open { " …" } else { "" }
    );
    match (b.seek, dispatch) {
        (Some(at), Some(d)) => {
            let msg = match b.phase {
                Phase::Sync | Phase::Async => Msg::JumpSnapshot,
                _ => Msg::JumpFirstBarrier,
            };
            let label = format!(
                "{what} — {}",
                lang.t(msg)
                    .replace("{task}", &r.name)
                    .replace("{t}", &at.to_string())
            );
            let d = d.clone();
            let onclick = Callback::from(move |_: MouseEvent| d.emit(Action::SeekTime(at)));
            html! {
                <button type="button" {class} {style} data-phase={b.phase.class()} data-from={b.from.to_string()} data-to={b.to.to_string()} data-at={at.to_string()} aria-label={label.clone()} title={label} {onclick} />
            }
        }
        _ => html! {
            <span {class} {style} data-phase={b.phase.class()} data-from={b.from.to_string()} data-to={b.to.to_string()} title={what} />
        },
    }
}

fn ack_html(lang: Lang, g: &Gantt, r: &GanttRow, dispatch: Option<&Callback<Action>>) -> Html {
    let Some(ack) = r.ack.filter(|_| !r.finished) else {
        return Html::default();
    };
    let style = format!("left: {:.2}%", g.pct(ack));
    match (r.ack_at, dispatch) {
        (Some(at), Some(d)) => {
            let label = lang
                .t(Msg::JumpAck)
                .replace("{task}", &r.name)
                .replace("{t}", &at.to_string());
            let d = d.clone();
            let onclick = Callback::from(move |_: MouseEvent| d.emit(Action::SeekTime(at)));
            html! { <button type="button" class="phases__ack" {style} data-ack={ack.to_string()} data-at={at.to_string()} aria-label={label.clone()} title={label} {onclick} /> }
        }
        _ => {
            html! { <span class="phases__ack" {style} data-ack={ack.to_string()} title={format!("{}: ✓ {ack} ms", r.name)} /> }
        }
    }
}

/// The checkpoint's Gantt with its caption, legend, axis, rows and notes; the
/// lab's bars move the cursor to their moment when `dispatch` is given.
pub fn phase_timeline(lang: Lang, g: &Gantt, dispatch: Option<&Callback<Action>>) -> Html {
    let status = match g.progress {
        Progress::Pending { .. } => lang.t(Msg::PhasesPending).to_string(),
        Progress::Aborted { at } => lang.t(Msg::PhasesAborted).replace("{t}", &at.to_string()),
        Progress::Completed { .. } | Progress::Reported => String::new(),
    };
    let pending = matches!(g.progress, Progress::Pending { .. });
    let ticks = g.ticks();
    let last = ticks.len().saturating_sub(1);
    let two_lanes = |r: &GanttRow| r.bars.iter().any(|b| b.beside);
    html! {
        <figure class={classes!("phases", pending.then_some("phases--pending"))} data-checkpoint={g.checkpoint.to_string()} data-span={g.span.to_string()}>
            <figcaption class="phases__caption">
                { lang.t(Msg::PhasesCaption).replace("{id}", &g.checkpoint.to_string()) }
                if !status.is_empty() {
                    <strong class="phases__status">{ format!(" · {status}") }</strong>
                }
            </figcaption>
            { legend(lang, g) }
            <div class="phases__axis" aria-hidden="true">
                { for ticks.iter().enumerate().map(|(i, t)| {
                    let edge = if i == last && i > 0 { "phases__tick phases__tick--last" } else { "phases__tick" };
                    let text = if i == last { format!("{t} ms") } else { t.to_string() };
                    html! { <span class={edge} style={format!("left: {:.2}%", g.pct(*t))}>{ text }</span> }
                }) }
            </div>
            <ol class="phases__rows">
                { for g.rows.iter().map(|r| html! {
                    <li class="phases__row" data-task={r.name.clone()}>
                        <div class="phases__label">
                            <span class="phases__name">{ r.name.clone() }</span>
                            { numbers(lang, r) }
                        </div>
                        <div class={classes!("phases__track", two_lanes(r).then_some("phases__track--two"))}>
                            { for ticks.iter().skip(1).map(|t| html! {
                                <span class="phases__grid" style={format!("left: {:.2}%", g.pct(*t))} aria-hidden="true" />
                            }) }
                            { for r.bars.iter().filter(|b| b.drawn()).map(|b| bar_html(lang, g, r, b, dispatch)) }
                            { ack_html(lang, g, r, dispatch) }
                        </div>
                    </li>
                }) }
            </ol>
            <p class="phases__note">{ lang.t(Msg::PhasesOrder) }{ " " }{ lang.t(Msg::PhasesAsyncNote) }
                if g.unaligned {
                    <>{ " " }{ lang.t(Msg::PhasesUnalignedNote) }</>
                }
                { " " }
                { lang.t(if g.progress == Progress::Reported { Msg::PhasesRealNote } else { Msg::PhasesLabNote }) }
            </p>
        </figure>
    }
}

#[cfg(test)]
mod tests;
