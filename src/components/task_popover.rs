//! The state inspector of one subtask: source offsets per partition with the log
//! length, keyed state per key with its key group, or the two-phase-commit sink's
//! open and pre-committed transactions — and the button that crashes it, only
//! where a crash can happen: in a running job, on a subtask that is running (or a
//! sink waiting for its final checkpoint). A subtask that has failed, was
//! canceled or has finished cannot throw any more, so the sheet says so instead.
//! On a phone the popover is a sheet at the bottom of the screen, under the
//! subtask tapped (the stylesheet's phone block).

use engine::view::{StateView, TaskView};
use engine::Intervention;
use engine::{JobStatus, TaskStatus};
use yew::prelude::*;

use crate::hooks::use_lang;
use crate::i18n::{Lang, Msg};
use crate::labels;
use crate::playback::Action;

#[derive(Properties, PartialEq)]
pub struct TaskPopoverProps {
    /// `uid#index`.
    pub name: String,
    pub task: TaskView,
    pub dispatch: Callback<Action>,
    pub on_close: Callback<()>,
    /// The job's status (a crash needs a running job).
    pub job_status: JobStatus,
}

/// Whether crashing a subtask does anything now: the engine ignores a crash
/// while the job is not running (restarting, finished, failed, canceled), and a
/// subtask that failed, was canceled or finished runs no code that could throw.
pub fn crash_possible(job: JobStatus, task: TaskStatus) -> bool {
    job == JobStatus::Running && matches!(task, TaskStatus::Running | TaskStatus::Waiting)
}

#[component]
pub fn TaskPopover(props: &TaskPopoverProps) -> Html {
    let lang = use_lang().lang;
    let t = &props.task;
    // Keyboard users land in the popover they opened. On a phone the sheet
    // covers the screen's foot: the subtask it describes stays in view above it
    // (focusing a fixed sheet scrolls nothing).
    let close_ref = use_node_ref();
    let sheet_ref = use_node_ref();
    {
        let (close_ref, sheet_ref) = (close_ref.clone(), sheet_ref.clone());
        use_effect_with(props.name.clone(), move |name| {
            if let Some(b) = close_ref.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
            if let (true, Some(sheet)) = (
                crate::hooks::touch::phone_layout(),
                sheet_ref.cast::<web_sys::Element>(),
            ) {
                crate::hooks::touch::keep_above_sheet(
                    &format!(".lane-button[data-task=\"{name}\"]"),
                    &sheet,
                );
            }
        });
    }
    let state = state_view(&t.state, lang);
    let crash = {
        let d = props.dispatch.clone();
        let name = props.name.clone();
        Callback::from(move |_: MouseEvent| {
            d.emit(Action::Intervene(Intervention::Crash {
                task: name.clone(),
            }))
        })
    };
    let close = {
        let cb = props.on_close.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let onkeydown = {
        let cb = props.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                cb.emit(());
            }
        })
    };
    let heading = lang.t(Msg::StateHeading).replace("{task}", &props.name);
    html! {
        <div class="popover" role="dialog" aria-label={heading.clone()} data-popover-task={props.name.clone()} {onkeydown} ref={sheet_ref}>
            <div class="popover__head">
                <h3>{ heading }</h3>
                <button type="button" class="text-button popover__close" ref={close_ref} aria-label={lang.t(Msg::Close)} onclick={close}>{ "✕" }</button>
            </div>
            <p class="popover__status">{ labels::task_status(lang, t.status) }
                { " · " }{ lang.t(Msg::Processed).replace("{n}", &t.processed.to_string()) }</p>
            <p class="popover__status">{ lang.t(Msg::LastCheckpoint) }{ ": " }
                { t.last_checkpoint.map_or_else(|| lang.t(Msg::None).to_string(), |c| c.to_string()) }</p>
            { state }
            if crash_possible(props.job_status, t.status) {
                <button type="button" class="danger-button" id="crash-task" onclick={crash}>
                    { "⚡ " }{ lang.t(Msg::Crash).replace("{task}", &props.name) }
                </button>
            } else {
                <p class="popover__no-crash muted" id="crash-impossible">
                    { lang.t(Msg::CrashImpossible).replace("{status}", labels::task_status(lang, t.status)) }
                </p>
            }
        </div>
    }
}

/// A subtask's state as the popover lists it: offsets, keys and values, or
/// transactions.
fn state_view(state: &StateView, lang: Lang) -> Html {
    match state {
        StateView::Source { offsets } => html! {
            <>
                <h4>{ lang.t(Msg::StateSource) }</h4>
                <ul class="kv">
                    { for offsets.iter().map(|(p, next, len)| html! {
                        <li><span class="kv__k">{ format!("p{p}") }</span><span class="kv__v">{ format!("{next} / {len}") }</span></li>
                    }) }
                </ul>
            </>
        },
        StateView::Keyed { entries } => html! {
            <>
                <h4>{ lang.t(Msg::StateKeyed) }</h4>
                if entries.is_empty() {
                    <p class="muted">{ lang.t(Msg::None) }</p>
                }
                <ul class="kv">
                    { for entries.iter().map(|(k, g, v)| html! {
                        <li><span class="kv__k">{ k.to_string() }</span><span class="kv__g">{ format!("kg {g}") }</span><span class="kv__v">{ v }</span></li>
                    }) }
                </ul>
            </>
        },
        StateView::TwoPhaseCommit { current, pending } => html! {
            <>
                <h4>{ lang.t(Msg::State2pc) }</h4>
                <ul class="kv">
                    <li><span class="kv__k">{ lang.t(Msg::CurrentTxn) }</span>
                        <span class="kv__v">{ current.map_or_else(|| lang.t(Msg::None).to_string(), |c| format!("T{c}")) }</span></li>
                    <li><span class="kv__k">{ lang.t(Msg::PendingTxns) }</span>
                        <span class="kv__v">{
                            if pending.is_empty() { lang.t(Msg::None).to_string() }
                            else { pending.iter().map(|(c, x)| format!("T{x} (chk {c})")).collect::<Vec<_>>().join(", ") }
                        }</span></li>
                </ul>
            </>
        },
        StateView::KeyedStates { states } => html! {
            <>
                { for states.iter().map(|s| html! {
                    <>
                        <h4>{ format!("{} · {}{}", s.name, s.kind, s.ttl_ms.map_or(String::new(), |t| format!(" · TTL {t} ms"))) }</h4>
                        if s.entries.is_empty() {
                            <p class="muted">{ lang.t(Msg::None) }</p>
                        }
                        <ul class="kv">
                            { for s.entries.iter().map(|e| html! {
                                <li><span class="kv__k">{ e.key.to_string() }</span>if let Some(g) = e.key_group { <span class="kv__g">{ format!("kg {g}") }</span> }
                                    <span class="kv__v">{ if e.expired_units > 0 { format!("{} ⌛{}", e.value, e.expired_units) } else { e.value.clone() } }</span></li>
                            }) }
                        </ul>
                    </>
                }) }
            </>
        },
        StateView::Stateless => html! { <p class="muted">{ lang.t(Msg::Stateless) }</p> },
    }
}

#[cfg(test)]
mod tests {
    use super::crash_possible;
    use engine::{JobStatus, TaskStatus};

    #[test]
    fn a_crash_is_offered_only_where_one_can_happen() {
        assert!(crash_possible(JobStatus::Running, TaskStatus::Running));
        assert!(crash_possible(JobStatus::Running, TaskStatus::Waiting));
        for task in [
            TaskStatus::Failed,
            TaskStatus::Canceled,
            TaskStatus::Finished,
        ] {
            assert!(!crash_possible(JobStatus::Running, task), "{task:?}");
        }
        for job in [
            JobStatus::Restarting,
            JobStatus::Finished,
            JobStatus::Failed,
            JobStatus::Canceled,
        ] {
            assert!(!crash_possible(job, TaskStatus::Running), "{job:?}");
        }
    }
}
