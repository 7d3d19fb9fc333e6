//! The storage tab: each retained `chk-N/_metadata`, in the study notes' one-line
//! form (`chk-2: offset (0, 5), sum (even, 6) (odd, 9)`), where it lives
//! (the JobManager's memory or files), what was deleted, and the JobManager crash
//! button that shows why that matters.

use engine::Intervention;
use serde_json::Value;
use yew::prelude::*;

use crate::components::coordinator_panel::PanelProps;
use crate::describe::metadata_parts;
use crate::hooks::use_lang;
use crate::i18n::Msg;
use crate::playback::Action;

#[component]
pub fn StoragePanel(props: &PanelProps) -> Html {
    let lang = use_lang().lang;
    let coordinator = &props.view.coordinator;
    let storage = &coordinator.storage;
    let crash = {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            d.emit(Action::Intervene(Intervention::CrashJobmanager))
        })
    };
    let where_msg = if coordinator.in_jobmanager_memory {
        Msg::StorageInMemory
    } else {
        Msg::StorageInFiles
    };
    html! {
        <>
            <div class="storage-head">
                <p class="storage-head__where">{ lang.t(where_msg) }</p>
                <button type="button" class="text-button text-button--danger" id="crash-jobmanager"
                        title={lang.t(Msg::CrashJobmanagerHint)} onclick={crash}>
                    { lang.t(Msg::CrashJobmanager) }
                </button>
            </div>
            if storage.is_empty() {
                <p class="muted">{ lang.t(Msg::NoStorage) }</p>
            } else {
                <h3 class="section-title">{ lang.t(Msg::StorageRetained) }</h3>
                <ul class="storage-list">
                    { for storage.iter().rev().map(|s| {
                        let dir = if s.kind.is_savepoint() { format!("savepoint-{}", s.id) } else { format!("chk-{}", s.id) };
                        let parts = metadata_parts(&s.metadata);
                        html! {
                            <li class={classes!("stored", s.discarded.then_some("stored--discarded"), s.lost.then_some("stored--lost"))}
                                data-checkpoint={s.id.0.to_string()} data-lost={s.lost.then_some("true")}>
                                <div class="stored__head">
                                    <span class="stored__dir">{ format!("{dir}/_metadata") }</span>
                                    if s.lost {
                                        <span class="badge badge--lost">{ format!("✕ {}", lang.t(Msg::StorageLost)) }</span>
                                    } else if s.discarded {
                                        <span class="badge badge--discarded">{ format!("✕ {}", lang.t(Msg::StorageDiscarded)) }</span>
                                    }
                                    <span class="muted">{ lang.t(Msg::CompletedAt).replace("{t}", &s.completed_at.to_string()) }</span>
                                </div>
                                <p class="stored__line"><strong>{ format!("{dir}: ") }</strong>{ parts.join(", ") }</p>
                                if !s.files.is_empty() {
                                    <ul class="stored__files">
                                        { for s.files.iter().map(|f| html! {
                                            <li class={classes!("stored__file", f.shared.then_some("stored__file--shared"))}>
                                                { format!("{} · {} B", f.path, f.bytes) }
                                            </li>
                                        }) }
                                    </ul>
                                }
                                <details class="stored__tree">
                                    <summary>{ lang.t(Msg::StorageBrowse) }</summary>
                                    { tree(&s.metadata) }
                                </details>
                            </li>
                        }
                    }) }
                </ul>
            }
        </>
    }
}

/// `_metadata` as a browsable tree: objects nest (operator uid → offsets, keyed,
/// states, operator, channels → …), lists and scalars are leaves. Generic over the
/// JSON, so whatever the engine stores is shown without the page knowing its shape.
fn tree(value: &Value) -> Html {
    match value {
        Value::Object(map) if !map.is_empty() => html! {
            <ul class="tree">
                { for map.iter().map(|(k, v)| match v {
                    Value::Object(inner) if !inner.is_empty() => html! {
                        <li><details open={inner.len() <= 4}><summary class="tree__key">{ k.clone() }</summary>{ tree(v) }</details></li>
                    },
                    _ => html! { <li><span class="tree__key">{ format!("{k}: ") }</span><span class="tree__leaf">{ leaf(v) }</span></li> },
                }) }
            </ul>
        },
        other => html! { <span class="tree__leaf">{ leaf(other) }</span> },
    }
}

fn leaf(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Object(m) if m.is_empty() => "{}".into(),
        other => other.to_string(),
    }
}
