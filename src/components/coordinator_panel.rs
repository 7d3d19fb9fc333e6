//! The coordinator tab: pending checkpoints (acknowledged x/y and by whom), and a
//! history like the Checkpoints tab of Flink's web UI (id, status, acknowledged,
//! trigger time, end-to-end duration, state size, alignment, persisted in-flight
//! records), one card per checkpoint so it fits a narrow panel.

use std::rc::Rc;

use engine::event::SnapshotKind;
use engine::ids::TaskId;
use engine::view::{JobView, WorldView};
use yew::prelude::*;

use crate::hooks::use_lang;
use crate::i18n::{Lang, Msg};
use crate::labels;
use crate::playback::Action;

/// Properties of the coordinator, storage and sink tabs.
#[derive(Properties)]
pub struct PanelProps {
    /// The job graph (subtask names).
    pub job: Rc<JobView>,
    /// The world now; the tabs draw only its coordinator and sinks.
    pub view: Rc<WorldView>,
    /// Playback actions: a bar of the subtask timeline moves the cursor to its moment.
    #[prop_or_default]
    pub dispatch: Callback<Action>,
}

/// Equal when what the tabs draw is equal: the view changes on every step while
/// playing (records move), but the coordinator and the sinks change rarely, so a
/// tab is not rebuilt on every animation frame.
impl PartialEq for PanelProps {
    fn eq(&self, other: &Self) -> bool {
        self.dispatch == other.dispatch
            && (Rc::ptr_eq(&self.job, &other.job) || self.job == other.job)
            && (Rc::ptr_eq(&self.view, &other.view)
                || (self.view.coordinator == other.view.coordinator
                    && self.view.sinks == other.view.sinks))
    }
}

/// `1234` → `1.2 KB`.
pub fn bytes(n: u64) -> String {
    match n {
        0..=999 => format!("{n} B"),
        1_000..=999_999 => format!("{:.1} KB", n as f64 / 1e3),
        _ => format!("{:.1} MB", n as f64 / 1e6),
    }
}

fn name(job: &JobView, t: &TaskId) -> String {
    job.tasks
        .get(t.0 as usize)
        .map_or_else(|| format!("#{}", t.0), |t| t.name.to_string())
}

/// One bar per subtask from the trigger to the checkpoint's end: when its first
/// barrier arrived, when it snapshotted (alignment in between), when it
/// acknowledged (the asynchronous part), like the subtask view of Flink's web UI.
/// Each piece is a button that moves the cursor to its moment: the alignment bar
/// to the first barrier, the asynchronous bar to the snapshot, ✓ to the ack.
fn subtask_timeline(
    job: &JobView,
    h: &engine::coordinator::CheckpointStats,
    lang: Lang,
    dispatch: &Callback<Action>,
) -> Html {
    let end = h.end_at.unwrap_or_else(|| {
        h.subtasks
            .values()
            .filter_map(|s| s.ack_at.or(s.snapshot_at).or(s.first_barrier_at))
            .max()
            .unwrap_or(h.trigger_at)
    });
    let span = end.saturating_sub(h.trigger_at).max(1) as f64;
    let pct = |t: u64| (t.saturating_sub(h.trigger_at) as f64 / span * 100.0).clamp(0.0, 100.0);
    let jump = |msg: Msg, task: &str, at: u64| {
        let label = lang
            .t(msg)
            .replace("{task}", task)
            .replace("{t}", &at.to_string());
        let d = dispatch.clone();
        (
            label,
            Callback::from(move |_: MouseEvent| d.emit(Action::SeekTime(at))),
        )
    };
    html! {
        <details class="timeline-details">
            <summary>{ lang.t(Msg::SubtaskTimeline) }</summary>
            <ul class="subtasks">
                { for h.subtasks.iter().map(|(t, s)| {
                    let task = name(job, t);
                    let title = format!(
                        "{}: {} {} / {} {} / ack {}",
                        task,
                        s.first_barrier_at.map_or("—".into(), |v| format!("{v} ms")),
                        if s.unaligned { "(unaligned)" } else { "" },
                        s.snapshot_at.map_or("—".into(), |v| format!("{v} ms")),
                        bytes(s.state_bytes),
                        s.ack_at.map_or("—".into(), |v| format!("{v} ms")),
                    );
                    let align = s.first_barrier_at.zip(s.snapshot_at).map(|(a, b)| {
                        let (label, onclick) = jump(Msg::JumpFirstBarrier, &task, a);
                        let style = format!("left: {:.1}%; width: {:.1}%", pct(a), (pct(b) - pct(a)).max(0.8));
                        html! { <button type="button" class="subtask__align" data-at={a.to_string()} {style} aria-label={label.clone()} title={label} {onclick} /> }
                    });
                    let asynchronous = s.snapshot_at.zip(s.ack_at).map(|(a, b)| {
                        let (label, onclick) = jump(Msg::JumpSnapshot, &task, a);
                        let style = format!("left: {:.1}%; width: {:.1}%", pct(a), (pct(b) - pct(a)).max(0.8));
                        html! { <button type="button" class="subtask__async" data-at={a.to_string()} {style} aria-label={label.clone()} title={label} {onclick} /> }
                    });
                    let ack = s.ack_at.map(|b| {
                        let (label, onclick) = jump(Msg::JumpAck, &task, b);
                        html! { <button type="button" class="subtask__ack" data-at={b.to_string()} style={format!("left: {:.1}%", pct(b))} aria-label={label.clone()} title={label} {onclick}>{ "✓" }</button> }
                    });
                    html! {
                        <li class="subtask" {title}>
                            <span class="subtask__name">{ task.clone() }</span>
                            <span class="subtask__track">
                                { align.unwrap_or_default() }
                                { asynchronous.unwrap_or_default() }
                                { ack.unwrap_or_default() }
                            </span>
                        </li>
                    }
                }) }
            </ul>
        </details>
    }
}

#[component]
pub fn CoordinatorPanel(props: &PanelProps) -> Html {
    let lang = use_lang().lang;
    let (job, view) = (&props.job, &props.view);
    let c = &view.coordinator;
    let pending = c.pending.iter().map(|p| {
        let total = p.acknowledged.len() + p.waiting.len();
        let kind = if p.kind.is_savepoint() { format!(" · {}", lang.t(Msg::KindSavepoint)) } else { String::new() };
        html! {
            <li class="pending" data-checkpoint={p.id.0.to_string()}>
                <div class="pending__head">
                    <strong>{ format!("#{}{kind}", p.id) }</strong>
                    <span class="pending__count">{ lang.t(Msg::AckedOf).replace("{x}", &p.acknowledged.len().to_string()).replace("{y}", &total.to_string()) }</span>
                </div>
                <div class="ack-bar" aria-hidden="true">
                    { for p.acknowledged.iter().map(|t| html! { <span class="ack-bar__cell ack-bar__cell--done" title={name(job, t)}>{ "✓" }</span> }) }
                    { for p.waiting.iter().map(|t| html! { <span class="ack-bar__cell" title={name(job, t)}>{ "…" }</span> }) }
                </div>
                if !p.waiting.is_empty() {
                    <p class="pending__waiting">{ lang.t(Msg::WaitingFor) }{ ": " }
                        { p.waiting.iter().map(|t| name(job, t)).collect::<Vec<_>>().join(", ") }</p>
                }
            </li>
        }
    });
    let rows = c.history.iter().rev().map(|h| {
        // Completed, then lost with the JobManager: said as lost, not completed.
        let (class, status, glyph) = if h.lost {
            ("status status--lost", lang.t(Msg::StatusLost), "✕")
        } else {
            labels::checkpoint_status(lang, h.status)
        };
        let size: u64 = h.subtasks.values().map(|s| s.state_bytes).sum();
        // Flink's web UI: "Checkpointed Data Size" (what this checkpoint wrote;
        // less with incremental rocksdb) next to "Full Checkpoint Data Size".
        let uploaded: u64 = h.subtasks.values().map(|s| s.uploaded_bytes).sum();
        let alignment = h.subtasks.values().map(|s| s.alignment_ms()).max().unwrap_or(0);
        let persisted: u64 = h.subtasks.values().map(|s| s.persisted_records).sum();
        let duration = h.end_at.map_or_else(|| "—".to_string(), |e| format!("{} ms", e.saturating_sub(h.trigger_at)));
        let id = match h.kind {
            SnapshotKind::Checkpoint => h.id.to_string(),
            _ => format!("{} ({})", h.id, lang.t(Msg::KindSavepoint)),
        };
        let field = |label: Msg, value: String| html! {
            <div class="hist__field"><dt>{ lang.t(label) }</dt><dd>{ value }</dd></div>
        };
        html! {
            <li class="hist" data-checkpoint={h.id.0.to_string()} title={h.reason.as_deref().map(|r| crate::describe::said("reason", r, lang))}>
                <div class="hist__head">
                    <strong class="hist__id" title={lang.t(Msg::ColId)}>{ format!("#{id}") }</strong>
                    <span class={class} title={lang.t(Msg::ColStatus)}>{ glyph }{ " " }{ status }</span>
                    <span class="hist__acked" title={lang.t(Msg::ColAcked)}>{ format!("{}/{}", h.num_acknowledged(), h.num_subtasks) }</span>
                </div>
                <dl class="hist__fields">
                    { field(Msg::ColTrigger, format!("{} ms", h.trigger_at)) }
                    { field(Msg::ColDuration, duration) }
                    { field(Msg::ColSize, bytes(size)) }
                    { field(Msg::ColUploaded, bytes(uploaded)) }
                    { field(Msg::ColAlignment, format!("{alignment} ms")) }
                    { field(Msg::ColPersisted, persisted.to_string()) }
                </dl>
                if let Some(reason) = &h.reason {
                    <p class="hist__reason">{ crate::describe::said("reason", reason, lang) }</p>
                }
                { subtask_timeline(job, h, lang, &props.dispatch) }
            </li>
        }
    });
    html! {
        <div class="coordinator">
            <h3 class="section-title">{ lang.t(Msg::PendingHeading) }</h3>
            if c.pending.is_empty() {
                <p class="muted">{ lang.t(Msg::NoPending) }</p>
            } else {
                <ul class="pending-list">{ for pending }</ul>
            }
            <h3 class="section-title">{ lang.t(Msg::HistoryHeading) }</h3>
            if c.history.is_empty() {
                <p class="muted">{ lang.t(Msg::NoCheckpoints) }</p>
            } else {
                <ol class="history">{ for rows }</ol>
            }
        </div>
    }
}
