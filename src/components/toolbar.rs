//! The transport bar: scenario, step back / play / step forward, speed, timeline.
//!
//! Until the engine's scenarios are wired in, every control is present but
//! disabled, with a tooltip saying when it becomes available, so the page already
//! shows its final shape.

use yew::prelude::*;

use crate::app::use_lang;
use crate::components::icons;
use crate::i18n::Msg;

#[component]
pub fn Toolbar() -> Html {
    let lang = use_lang().lang;
    let waiting = lang.t(Msg::ControlsWaiting);
    let control = |msg: Msg, class: &'static str, icon: Html| {
        html! {
            <button type="button" class={classes!("tool-button", class)} disabled=true
                    aria-label={lang.t(msg)} title={format!("{} — {}", lang.t(msg), waiting)}>
                { icon }
            </button>
        }
    };
    html! {
        <div class="toolbar" role="group" aria-label={lang.t(Msg::ToolbarLabel)}>
            <div class="toolbar__field">
                <span class="toolbar__label">{ lang.t(Msg::ScenarioLabel) }</span>
                <span class="select-placeholder" aria-disabled="true" title={waiting}>
                    { lang.t(Msg::ScenarioNone) }
                    <svg class="select-placeholder__chevron" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true">
                        <path d="m2.5 4.5 3.5 3.5 3.5-3.5" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round" />
                    </svg>
                </span>
            </div>
            <div class="toolbar__transport">
                { control(Msg::StepBack, "", icons::step_back()) }
                { control(Msg::Play, "tool-button--primary", icons::play()) }
                { control(Msg::StepForward, "", icons::step_forward()) }
            </div>
            <div class="toolbar__field">
                <span class="toolbar__label">{ lang.t(Msg::SpeedLabel) }</span>
                <span class="pill" aria-disabled="true" title={waiting}>{ "1×" }</span>
            </div>
            <div class="timeline" role="group" aria-label={lang.t(Msg::TimelineLabel)} title={waiting}>
                <div class="timeline__track" aria-hidden="true">
                    { for (0..=10).map(|i| html! {
                        <span class="timeline__tick" style={format!("left: {}%", i * 10)} />
                    }) }
                    <span class="timeline__thumb" />
                </div>
            </div>
            <output class="toolbar__clock">{ "t = 0 ms" }</output>
        </div>
    }
}
