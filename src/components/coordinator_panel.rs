//! The coordinator tab: pending checkpoints (acknowledged x/y and by whom), and a
//! history like the Checkpoints tab of Flink's web UI (id, status, acknowledged,
//! trigger time, end-to-end duration, state size, alignment, persisted in-flight
//! records), one card per checkpoint so it fits a narrow panel. A card's head
//! opens the checkpoint's phases per subtask
//! ([`phase_timeline`](crate::components::phase_timeline)), growing while it is
//! pending.

use std::collections::BTreeSet;
use std::rc::Rc;

use engine::trace::SnapshotKind;
use engine::view::phases::checkpoint_phases_at;
use engine::view::TaskId;
use engine::view::{CheckpointStats, JobView, PendingView, WorldView};
use yew::prelude::*;

use crate::components::phase_timeline::{phase_timeline, Gantt};
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
                    && self.view.sinks == other.view.sinks
                    // A pending checkpoint's phases grow with the clock.
                    && (self.view.coordinator.pending.is_empty()
                        || (self.view.now == other.view.now
                            && self.view.tasks == other.view.tasks))))
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

/// The coordinator tab: the pending checkpoints, then the history, newest first.
#[component]
pub fn CoordinatorPanel(props: &PanelProps) -> Html {
    let lang = use_lang().lang;
    // The checkpoints whose phases are open: a history row opens its own.
    let open = use_state(BTreeSet::<u64>::new);
    let (job, view) = (&props.job, &props.view);
    let c = &view.coordinator;
    let pending = c
        .pending
        .iter()
        .map(|p| pending_item(lang, job, &c.history, p));
    let rows = c
        .history
        .iter()
        .rev()
        .map(|h| history_row(lang, props, &open, h));
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

/// One pending checkpoint: its acknowledgements so far, the subtasks it waits
/// for, and those whose upload is still running (their row in `history`).
fn pending_item(lang: Lang, job: &JobView, history: &[CheckpointStats], p: &PendingView) -> Html {
    let total = p.acknowledged.len() + p.waiting.len();
    // In their asynchronous phase: snapshot taken, upload not acknowledged yet.
    let uploading: Vec<String> = history
        .iter()
        .find(|h| h.id == p.id)
        .map(|h| {
            h.subtasks
                .iter()
                .filter(|(_, s)| s.snapshot_at.is_some() && s.ack_at.is_none())
                .map(|(t, _)| name(job, t))
                .collect()
        })
        .unwrap_or_default();
    let kind = if p.kind.is_savepoint() {
        format!(" · {}", lang.t(Msg::KindSavepoint))
    } else {
        String::new()
    };
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
            if !uploading.is_empty() {
                <p class="pending__uploading">{ lang.t(Msg::PhasesUploading) }{ ": " }{ uploading.join(", ") }</p>
            }
        </li>
    }
}

/// One checkpoint of the history as a card: its head (id, status,
/// acknowledgements) opens its phases per subtask, kept open in `open`.
fn history_row(
    lang: Lang,
    props: &PanelProps,
    open: &UseStateHandle<BTreeSet<u64>>,
    h: &CheckpointStats,
) -> Html {
    let (job, view) = (&props.job, &props.view);
    // Completed, then lost with the JobManager: said as lost, not completed.
    let (class, status, glyph) = if h.lost {
        ("status status--lost", lang.t(Msg::StatusLost), "✕")
    } else {
        labels::checkpoint_status_with(lang, h.status, h.reason.as_deref())
    };
    let size: u64 = h.subtasks.values().map(|s| s.state_bytes).sum();
    // Flink's web UI: "Checkpointed Data Size" (what this checkpoint wrote;
    // less with incremental rocksdb) next to "Full Checkpoint Data Size".
    let uploaded: u64 = h.subtasks.values().map(|s| s.uploaded_bytes).sum();
    let alignment = h
        .subtasks
        .values()
        .map(|s| s.alignment_ms())
        .max()
        .unwrap_or(0);
    let persisted: u64 = h.subtasks.values().map(|s| s.persisted_records).sum();
    let duration = h.end_at.map_or_else(
        || "—".to_string(),
        |e| format!("{} ms", e.saturating_sub(h.trigger_at)),
    );
    let id = match h.kind {
        SnapshotKind::Checkpoint => h.id.to_string(),
        _ => format!("{} ({})", h.id, lang.t(Msg::KindSavepoint)),
    };
    let field = |label: Msg, value: String| {
        html! {
            <div class="hist__field"><dt>{ lang.t(label) }</dt><dd>{ value }</dd></div>
        }
    };
    let id_n = h.id.0;
    let is_open = open.contains(&id_n);
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| {
            let mut set = (*open).clone();
            if !set.remove(&id_n) {
                set.insert(id_n);
            }
            open.set(set);
        })
    };
    let panel_id = format!("phases-{id_n}");
    html! {
        <li class={classes!("hist", is_open.then_some("hist--open"))} key={id_n} data-checkpoint={id_n.to_string()} title={h.reason.as_deref().map(|r| crate::describe::said("reason", r, lang))}>
            // Named by what it shows (id, status, acknowledgements, "phases"):
            // a spoken name must contain the visible text; what it does is its tooltip.
            <button type="button" class="hist__head hist__toggle" aria-expanded={is_open.to_string()} aria-controls={panel_id.clone()}
                title={lang.t(Msg::PhasesOpenLabel).replace("{id}", &id_n.to_string())} onclick={toggle}>
                <strong class="hist__id" title={lang.t(Msg::ColId)}>{ format!("#{id}") }</strong>
                <span class={class} title={lang.t(Msg::ColStatus)}>{ glyph }{ " " }{ status }</span>
                <span class="hist__acked" title={lang.t(Msg::ColAcked)}>{ format!("{}/{}", h.num_acknowledged(), h.num_subtasks) }</span>
                <span class="hist__phases">{ lang.t(Msg::PhasesOpen) }<span aria-hidden="true">{ if is_open { " ▾" } else { " ▸" } }</span></span>
            </button>
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
            if is_open {
                <div id={panel_id}>
                    { phase_timeline(lang, &Gantt::of_lab(&checkpoint_phases_at(h, job, &view.tasks, view.now)), Some(&props.dispatch)) }
                </div>
            }
        </li>
    }
}
