//! The transport bar: scenario, mode, seed and interventions on the first row;
//! step back / play / step forward, speed, the scrubber with its checkpoint and
//! failure markers, and the clock on the second.
//!
//! Every control is a real `<button>`, `<select>` or `<input>` with an accessible
//! name in the current language.

use engine::Intervention;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::components::icons;
use crate::hooks::use_lang;
use crate::i18n::{Lang, Msg};
use crate::labels;
use std::rc::Rc;

use crate::playback::{builtins, Action, Marker, Mode, State, SPEEDS};

#[derive(Properties, PartialEq)]
pub struct ToolbarProps {
    /// The playback state (the toolbar reads only its public, view-level fields).
    pub playback: UseReducerHandle<State>,
    pub dispatch: Callback<Action>,
    /// Opens the shortcuts overlay.
    pub on_help: Callback<()>,
    /// Projector mode is on.
    pub is_projector: bool,
    /// Toggles projector mode.
    pub on_projector: Callback<()>,
    /// The twin view (the other mode beside this one) is on.
    #[prop_or_default]
    pub is_twin: bool,
    /// Toggles the twin view.
    #[prop_or_default]
    pub on_twin: Callback<()>,
}

fn select_value(e: &Event) -> Option<String> {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
        .map(|s| s.value())
}

/// The scrubber's right end: the head's time rounded up to a whole second, so
/// that while the head runs ahead the scrubber and its markers are re-laid-out
/// once a second rather than on every frame (a frame-time profile of
/// `busy-network` showed their `style` rewritten ~370 times a second). Seeking
/// past the run's end lands on its end.
pub fn scrubber_end(horizon: u64) -> u64 {
    horizon.max(1).div_ceil(1_000) * 1_000
}

/// Properties of [`ScrubberMarkers`].
#[derive(Properties, PartialEq)]
pub struct ScrubberMarkersProps {
    /// Checkpoint and failure marks found so far.
    pub markers: Rc<Vec<Marker>>,
    /// The scrubber's right end (simulated ms).
    pub horizon: u64,
    /// The scrubber's left end.
    #[prop_or_default]
    pub origin: u64,
    /// Receives the jump to a marker's step.
    pub dispatch: Callback<Action>,
}

/// Least distance between two markers' centres, in percent of the scrubber: a
/// marker is about this wide on a classroom screen.
const MARKER_GAP_PCT: f64 = 3.0;

/// Positions (percent, ascending input) moved apart just enough that neighbours
/// are `gap` apart, within 0..=100: a checkpoint completing right after a failure
/// no longer hides under it. A marker's title still gives its exact time.
pub fn spread(positions: &[f64], gap: f64) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::with_capacity(positions.len());
    for &p in positions {
        let min = out.last().map_or(0.0, |&q| q + gap);
        out.push(p.max(min));
    }
    // Pull back from the right end where pushing ran past it.
    let mut max = 100.0_f64;
    for x in out.iter_mut().rev() {
        *x = x.min(max).max(0.0);
        max = *x - gap;
    }
    out
}

/// The ✓n / ✕n / ⚡ buttons above the scrubber. A component of its own so the
/// marks are rebuilt when they or the horizon change, not on every frame.
#[component]
pub fn ScrubberMarkers(props: &ScrubberMarkersProps) -> Html {
    let lang = use_lang().lang;
    let horizon = props.horizon.max(1);
    let send = |a: Action| {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(a.clone()))
    };
    let origin = props.origin.min(horizon - 1);
    let span = (horizon - origin) as f64;
    let pct = |t: u64| (t.saturating_sub(origin) as f64 / span * 100.0).clamp(0.0, 100.0);
    let at = spread(
        &props.markers.iter().map(|m| pct(m.at)).collect::<Vec<_>>(),
        MARKER_GAP_PCT,
    );
    let markers = props.markers.iter().zip(at).map(|(m, left)| {
        let (class, text, label) = labels::marker(lang, m.kind, m.checkpoint, m.task.as_deref(), m.at);
        html! {
            <button type="button" class={class} style={format!("left: {left:.2}%")}
                    aria-label={label.clone()} title={label} onclick={send(Action::SeekStep(m.step))}>
                { text }
            </button>
        }
    });

    html! { <div class="scrubber__markers">{ for markers }</div> }
}

#[component]
pub fn Toolbar(props: &ToolbarProps) -> Html {
    let lang = use_lang().lang;
    let p = &*props.playback;
    let d = props.dispatch.clone();
    let has_run = p.view.is_some();
    let send = |a: Action| {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.emit(a.clone()))
    };

    let scenarios = builtins();
    let on_scenario = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = select_value(&e) {
                d.emit(Action::LoadScenario(v));
            }
        })
    };
    let on_mode = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            if let Some(m) = select_value(&e).as_deref().and_then(Mode::from_key) {
                d.emit(Action::SetMode(m));
            }
        })
    };
    let on_speed = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = select_value(&e).and_then(|v| v.parse::<usize>().ok()) {
                d.emit(Action::SetSpeed(i));
            }
        })
    };
    let on_scrub = {
        let d = d.clone();
        Callback::from(move |e: InputEvent| {
            let input = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
            if let Some(t) = input.and_then(|i| i.value().parse::<f64>().ok()) {
                if t.is_finite() && t >= 0.0 {
                    d.emit(Action::SeekTime(t as u64));
                }
            }
        })
    };
    let on_branch = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            let select = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok());
            if let Some(select) = select {
                let chosen = select.value().parse::<usize>().ok();
                // The picker always shows the current branch: the one chosen becomes
                // current, and the one left is listed in its place.
                select.set_value("current");
                if let Some(i) = chosen {
                    d.emit(Action::SwitchBranch(i));
                }
            }
        })
    };
    let on_help = {
        let cb = props.on_help.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };

    let on_projector = {
        let cb = props.on_projector.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let on_twin = {
        let cb = props.on_twin.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let horizon = scrubber_end(p.horizon);
    // The display time: between two steps it runs on while the records glide.
    let now = p
        .view
        .as_ref()
        .map_or(0, |v| v.now.max(p.display_t.floor() as u64));
    let play_label = if p.is_playing {
        lang.t(Msg::Pause)
    } else {
        lang.t(Msg::Play)
    };
    let clock = lang
        .t(Msg::Clock)
        .replace("{t}", &now.to_string())
        .replace("{step}", &p.step().to_string());
    let has_checkpointing = p.mode != Mode::Off;

    html! {
        <div class="toolbar" role="group" aria-label={lang.t(Msg::ToolbarLabel)}>
            <div class="toolbar__row">
                <label class="toolbar__field">
                    <span class="toolbar__label">{ lang.t(Msg::ScenarioLabel) }</span>
                    <select class="select" id="scenario-select" onchange={on_scenario}>
                        { for scenarios.iter().map(|(name, s)| {
                            let title = s.title.as_ref().map_or_else(|| name.to_string(), |t| match lang {
                                Lang::Zh => t.zh.clone(),
                                Lang::En => t.en.clone(),
                            });
                            html! { <option value={name.to_string()} selected={*name == p.scenario}>{ title }</option> }
                        }) }
                    </select>
                </label>
                <label class="toolbar__field">
                    <span class="toolbar__label">{ lang.t(Msg::ModeLabel) }</span>
                    <select class="select" id="mode-select" onchange={on_mode} disabled={!has_checkpointing}>
                        if !has_checkpointing {
                            <option value="off" selected=true>{ labels::mode(lang, Mode::Off) }</option>
                        }
                        { for Mode::CHOICES.iter().map(|m| html! {
                            <option value={m.key()} selected={*m == p.mode}>{ labels::mode(lang, *m) }</option>
                        }) }
                    </select>
                </label>
                <div class="toolbar__field">
                    <span class="toolbar__label">{ lang.t(Msg::SeedLabel) }</span>
                    <output class="toolbar__seed" id="seed">{ p.seed }</output>
                    <button type="button" class="text-button" id="restart" disabled={!has_run}
                            aria-label={lang.t(Msg::RestartSeed)} title={lang.t(Msg::RestartSeed)}
                            onclick={send(Action::Restart)}>
                        { icons::restart() }
                    </button>
                </div>
                if !p.branches.is_empty() {
                    <label class="toolbar__field">
                        <span class="toolbar__label">{ lang.t(Msg::BranchLabel) }</span>
                        <select class="select select--branch" id="branch-select" onchange={on_branch}>
                            <option value="current" selected=true>{ lang.t(Msg::BranchCurrent) }</option>
                            { for p.branches.iter().enumerate().rev().map(|(i, b)| html! {
                                <option value={i.to_string()} selected=false>{ labels::branch(lang, b) }</option>
                            }) }
                        </select>
                    </label>
                }
                <div class="toolbar__actions">
                    <button type="button" class="text-button text-button--checkpoint" id="trigger-checkpoint"
                            disabled={!has_run || !has_checkpointing}
                            onclick={send(Action::Intervene(Intervention::TriggerCheckpoint))}>
                        { lang.t(Msg::TriggerCheckpoint) }
                    </button>
                    <button type="button" class="text-button" id="savepoint" disabled={!has_run || !has_checkpointing}
                            onclick={send(Action::Intervene(Intervention::Savepoint))}>
                        { lang.t(Msg::Savepoint) }
                    </button>
                    <button type="button" class="text-button" id="twin-button" disabled={!has_run || !has_checkpointing}
                            aria-pressed={if props.is_twin { "true" } else { "false" }}
                            title={lang.t(Msg::TwinViewHint).replace("{mode}", labels::mode(lang, p.mode.twin()))}
                            onclick={on_twin}>
                        { lang.t(Msg::TwinView) }
                    </button>
                    <button type="button" class="text-button" id="projector-button"
                            aria-pressed={if props.is_projector { "true" } else { "false" }}
                            aria-label={lang.t(Msg::ProjectorMode)} title={lang.t(Msg::ProjectorMode)} onclick={on_projector}>
                        { "A⁺" }
                    </button>
                    <button type="button" class="text-button text-button--help" id="help-button"
                            aria-label={lang.t(Msg::Help)} title={lang.t(Msg::Help)} onclick={on_help}>
                        { "?" }
                    </button>
                </div>
            </div>
            <div class="toolbar__row">
                <div class="toolbar__transport">
                    <button type="button" class="tool-button" id="step-back" disabled={!has_run}
                            aria-label={lang.t(Msg::StepBack)} title={format!("{} (←)", lang.t(Msg::StepBack))}
                            onclick={send(Action::StepBack)}>
                        { icons::step_back() }
                    </button>
                    <button type="button" class="tool-button tool-button--primary" id="play"
                            disabled={!has_run || (p.is_at_end && !p.is_playing)}
                            aria-label={play_label} aria-pressed={if p.is_playing { "true" } else { "false" }}
                            title={format!("{play_label} (Space)")} onclick={send(Action::TogglePlay)}>
                        { if p.is_playing { icons::pause() } else { icons::play() } }
                    </button>
                    <button type="button" class="tool-button" id="step-forward" disabled={!has_run || p.is_at_end}
                            aria-label={lang.t(Msg::StepForward)} title={format!("{} (→)", lang.t(Msg::StepForward))}
                            onclick={send(Action::StepForward)}>
                        { icons::step_forward() }
                    </button>
                </div>
                <label class="toolbar__field">
                    <span class="toolbar__label">{ lang.t(Msg::SpeedLabel) }</span>
                    <select class="select select--speed" id="speed-select" onchange={on_speed}>
                        { for SPEEDS.iter().enumerate().map(|(i, s)| html! {
                            <option value={i.to_string()} selected={i == p.speed}>{ format!("{s}×") }</option>
                        }) }
                    </select>
                </label>
                <div class="scrubber">
                    <ScrubberMarkers markers={p.markers.clone()} {horizon} origin={p.origin} dispatch={d.clone()} />
                    <input type="range" class="scrubber__range" id="scrubber" min={p.origin.min(horizon).to_string()} max={horizon.to_string()} step="1"
                           value={now.to_string()} aria-label={lang.t(Msg::ScrubberLabel)}
                           aria-valuetext={format!("{now} ms")} disabled={!has_run} oninput={on_scrub} />
                </div>
                <output class="toolbar__clock" id="clock" aria-live="off">{ clock }</output>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::spread;

    #[test]
    fn close_markers_are_moved_apart_and_stay_on_the_scrubber() {
        // A failure at 50 % and a checkpoint completing at 51 %: 3 apart after.
        assert_eq!(
            spread(&[10.0, 50.0, 51.0, 80.0], 3.0),
            vec![10.0, 50.0, 53.0, 80.0]
        );
        // Crowded at the right end: pulled back inside, still 3 apart.
        let at = spread(&[98.0, 99.0, 100.0], 3.0);
        assert_eq!(at, vec![94.0, 97.0, 100.0]);
        // Far apart: unchanged.
        assert_eq!(spread(&[0.0, 40.0], 3.0), vec![0.0, 40.0]);
    }
}
