//! The narration tab: a plain-language sentence for each significant event (the
//! wording is `assets/i18n/narration.json`), newest first, then a filterable event
//! log. (The newest sentence is also the caption under the graph, the page's one
//! live region for narration: `components/caption.rs`.)

use std::rc::Rc;

use engine::scenario::Localized;
use yew::prelude::*;

use crate::components::input::select_value;
use crate::describe::{sentence, Category};
use crate::hooks::use_lang;
use crate::i18n::Msg;
use crate::labels;
use crate::playback::LoggedEvent;

/// Sentences shown at the top.
const NARRATED: usize = 6;
/// Log lines shown.
const LOG_LINES: usize = 150;

#[derive(Properties, PartialEq)]
pub struct NarrationProps {
    pub recent: Rc<Vec<LoggedEvent>>,
    pub description: Option<Localized>,
}

#[component]
pub fn NarrationPanel(props: &NarrationProps) -> Html {
    let lang = use_lang().lang;
    let filter = use_state_eq(|| None::<Category>);
    let on_filter = {
        let filter = filter.setter();
        Callback::from(move |e: Event| {
            let v = select_value(&e);
            filter.set(v.and_then(|v| Category::ALL.into_iter().find(|c| c.key() == v)));
        })
    };
    let narrated: Vec<(u64, String)> = props
        .recent
        .iter()
        .rev()
        .filter_map(|e| {
            let (s, quiet) = sentence(&e.event.event, lang);
            (!quiet).then_some((e.event.t, s))
        })
        .take(NARRATED)
        .collect();
    let log = props
        .recent
        .iter()
        .rev()
        .filter(|e| filter.is_none_or(|c| Category::of(&e.event.event) == c))
        .take(LOG_LINES)
        .map(|e| {
            let (s, _) = sentence(&e.event.event, lang);
            let cat = Category::of(&e.event.event).key();
            html! {
                <li key={e.seq} class={classes!("log__line", format!("log__line--{cat}"))}>
                    <span class="log__t">{ format!("{} ms", e.event.t) }</span>
                    <span class="log__text">{ s }</span>
                </li>
            }
        });
    html! {
        <div class="narration">
            if let Some(d) = &props.description {
                <details class="about">
                    <summary>{ lang.t(Msg::AboutScenario) }</summary>
                    <p>{ lang.loc(d).to_string() }</p>
                </details>
            }
            if narrated.is_empty() {
                <p class="muted">{ lang.t(Msg::NarrationEmpty) }</p>
            } else {
                <ol class="narration__list">
                    { for narrated.into_iter().enumerate().map(|(i, (t, s))| html! {
                        <li class={classes!("narration__item", (i == 0).then_some("narration__item--latest"))}>
                            <span class="narration__t">{ format!("{t} ms") }</span>
                            <span>{ s }</span>
                        </li>
                    }) }
                </ol>
            }
            <div class="log__head">
                <h3 class="section-title">{ lang.t(Msg::LogHeading) }</h3>
                <label class="log__filter">
                    <span>{ lang.t(Msg::FilterLabel) }</span>
                    <select class="select select--small" id="log-filter" onchange={on_filter}>
                        <option value="" selected={filter.is_none()}>{ labels::category(lang, None) }</option>
                        { for Category::ALL.iter().map(|c| html! {
                            <option value={c.key()} selected={*filter == Some(*c)}>{ labels::category(lang, Some(*c)) }</option>
                        }) }
                    </select>
                </label>
            </div>
            <ol class="log" aria-label={lang.t(Msg::LogHeading)}>{ for log }</ol>
        </div>
    }
}
