//! The sink tab: each sink's transactions (open → pre-committed, dashed →
//! committed, solid / aborted), and what a `read_committed` and a
//! `read_uncommitted` consumer see.

use engine::view::RecordView;
use yew::prelude::*;

use crate::components::coordinator_panel::PanelProps;
use crate::hooks::use_lang;
use crate::i18n::Msg;
use crate::labels;
use crate::scene::record_label;

fn records(list: &[RecordView], empty: &str) -> Html {
    if list.is_empty() {
        return html! { <p class="muted">{ empty.to_string() }</p> };
    }
    html! {
        <ul class="record-list">
            { for list.iter().map(|r| html! {
                <li class="record-chip" title={format!("{}{}", r.key.as_deref().map(|k| format!("{k}: ")).unwrap_or_default(), r.value)}>
                    { match r.key.as_deref() {
                        Some(k) if record_label(Some(k), r.value) != r.value.to_string() => k.to_string(),
                        Some(k) => format!("{k}:{}", r.value),
                        None => r.value.to_string(),
                    } }
                </li>
            }) }
        </ul>
    }
}

#[component]
pub fn SinkPanel(props: &PanelProps) -> Html {
    let lang = use_lang().lang;
    let sinks = &props.view.sinks;
    if sinks.is_empty() {
        return html! { <p class="muted">{ lang.t(Msg::NoSinks) }</p> };
    }
    html! {
        <>
            { for sinks.iter().map(|s| {
                let seen: Vec<RecordView> = s.committed.iter().chain(&s.uncommitted).cloned().collect();
                html! {
                    <section class="sink" data-sink={s.uid.clone()}>
                        <h3 class="section-title">{
                            if s.txns.is_empty() { s.uid.clone() } else { format!("{} — {}", s.uid, lang.t(Msg::TxnHeading)) }
                        }</h3>
                        if s.txns.is_empty() && s.committed.is_empty() && s.uncommitted.is_empty() {
                            <p class="muted">{ lang.t(Msg::Nothing) }</p>
                        }
                        <ul class="txn-list">
                            { for s.txns.iter().rev().map(|t| {
                                let (key, status, glyph) = labels::txn_status(lang, t.status);
                                html! {
                                    <li class={classes!("txn", format!("txn--{key}"))} data-txn={t.id.to_string()}>
                                        <div class="txn__head">
                                            <strong>{ format!("T{}", t.id) }</strong>
                                            <span class="txn__task">{ t.task.to_string() }</span>
                                            if let Some(c) = t.checkpoint {
                                                <span class="txn__chk">{ format!("chk {c}") }</span>
                                            }
                                            <span class="txn__status">{ glyph }{ " " }{ status }</span>
                                        </div>
                                        { records(&t.records, lang.t(Msg::Nothing)) }
                                    </li>
                                }
                            }) }
                        </ul>
                        <h4 class="consumer-title">{ lang.t(Msg::ReadCommitted) }</h4>
                        <div class="consumer consumer--committed">{ records(&s.committed, lang.t(Msg::Nothing)) }</div>
                        <h4 class="consumer-title">{ lang.t(Msg::ReadUncommitted) }</h4>
                        <div class="consumer consumer--uncommitted">{ records(&seen, lang.t(Msg::Nothing)) }</div>
                    </section>
                }
            }) }
        </>
    }
}
