//! The storage tab: each retained `chk-N/_metadata`, in the study notes' one-line
//! form (`chk-2: offset (0, 5), sum (even, 6) (odd, 9)`).

use yew::prelude::*;

use crate::app::use_lang;
use crate::components::coordinator_panel::PanelProps;
use crate::describe::metadata_parts;
use crate::i18n::Msg;

#[component]
pub fn StoragePanel(props: &PanelProps) -> Html {
    let lang = use_lang().lang;
    let storage = &props.view.coordinator.storage;
    if storage.is_empty() {
        return html! { <p class="muted">{ lang.t(Msg::NoStorage) }</p> };
    }
    html! {
        <>
            <h3 class="section-title">{ lang.t(Msg::StorageRetained) }</h3>
            <ul class="storage-list">
                { for storage.iter().rev().map(|s| {
                    let dir = if s.kind.is_savepoint() { format!("savepoint-{}", s.id) } else { format!("chk-{}", s.id) };
                    let parts = metadata_parts(&s.metadata);
                    html! {
                        <li class="stored" data-checkpoint={s.id.0.to_string()}>
                            <div class="stored__head">
                                <span class="stored__dir">{ format!("{dir}/_metadata") }</span>
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
                        </li>
                    }
                }) }
            </ul>
        </>
    }
}
