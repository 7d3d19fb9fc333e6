//! The top bar, one row on a projector: the lab's mark and title, the scenario
//! and checkpointing mode, the lesson's buttons (tour, compare, twin view), one
//! menu for what a lesson rarely needs (seed, glossary, edit, share, export,
//! import), projector mode, fullscreen, the key map and the language switch.

use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::components::icons;
use crate::components::input::select_value;
use crate::hooks::{use_lang, Lessons};
use crate::i18n::{Lang, Msg};
use crate::labels;
use crate::lessons::{LessonActions, LessonMenuItems};
use crate::playback::{Action, Mode, State};

/// Properties of [`TopBar`].
#[derive(Properties, PartialEq)]
pub struct TopBarProps {
    /// The playback state (the bar reads only its public, view-level fields).
    pub playback: UseReducerHandle<State>,
    /// Sends playback actions.
    pub dispatch: Callback<Action>,
    /// The lesson tools.
    pub lessons: Lessons,
    /// The lesson shown beside this one, if a pair is compared.
    #[prop_or_default]
    pub comparing: Option<AttrValue>,
    /// Opens or closes a lesson pair.
    #[prop_or_default]
    pub on_compare: Callback<Option<AttrValue>>,
    /// The twin view is on.
    #[prop_or_default]
    pub is_twin: bool,
    /// Toggles the twin view.
    #[prop_or_default]
    pub on_twin: Callback<()>,
    /// Projector mode is on.
    pub is_projector: bool,
    /// Toggles projector mode.
    pub on_projector: Callback<()>,
    /// Opens the key map.
    pub on_help: Callback<()>,
    /// The glossary / the editor is open in the side panel.
    #[prop_or_default]
    pub glossary_open: bool,
    #[prop_or_default]
    pub editor_open: bool,
    /// Opens the QR code of the current moment.
    #[prop_or_default]
    pub on_qr: Callback<()>,
    /// The interview drill is open; opens (true) or closes (false) it.
    #[prop_or_default]
    pub drill_open: bool,
    #[prop_or_default]
    pub on_drill: Callback<bool>,
}

fn is_fullscreen() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.fullscreen_element())
        .is_some()
}

fn toggle_fullscreen() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if doc.fullscreen_element().is_some() {
        doc.exit_fullscreen();
    } else if let Some(root) = doc.document_element() {
        let _ = root.request_fullscreen();
    }
}

/// The top bar; see the module documentation.
#[component]
pub fn TopBar(props: &TopBarProps) -> Html {
    let lang = use_lang().lang;
    let p = &*props.playback;
    let d = props.dispatch.clone();
    let has_run = p.view.is_some();
    let has_checkpointing = p.mode != Mode::Off;

    let menu = use_menu();
    let fullscreen = use_fullscreen();
    let projector_label = format!("A⁺ {}", lang.t(Msg::ProjectorMode));
    let fullscreen_label = if fullscreen {
        lang.t(Msg::ExitFullscreen)
    } else {
        lang.t(Msg::Fullscreen)
    };
    html! {
        <header class="topbar" role="banner">
            { identity(lang) }
            { run_pickers(p, lang, &d) }
            <div class="topbar__lesson">
                <LessonActions lessons={props.lessons.clone()} />
                if props.comparing.is_none() {
                <button type="button" class="text-button" id="twin-button" disabled={!has_run || !has_checkpointing}
                        aria-pressed={if props.is_twin { "true" } else { "false" }}
                        title={lang.t(Msg::TwinViewHint).replace("{mode}", labels::mode(lang, p.mode.twin()))}
                        onclick={props.on_twin.reform(|_: MouseEvent| ())}>
                    { lang.t(Msg::TwinView) }
                </button>
                }
                <button type="button" class="text-button" id="drill-button" aria-pressed={props.drill_open.to_string()}
                        title={lang.t(Msg::DrillOpenHint)} onclick={props.on_drill.reform({ let open = props.drill_open; move |_: MouseEvent| !open })}>
                    { lang.t(Msg::DrillOpen) }
                </button>
            </div>
            <div class="topbar__tools">
                <div class="menu" ref={menu.node.clone()}>
                    <button type="button" class="icon-button" id="more-button" aria-haspopup="true"
                            aria-expanded={menu.open.to_string()} aria-controls="more-menu"
                            aria-label={lang.t(Msg::MoreTools)} title={lang.t(Msg::MoreTools)} onclick={menu.toggle.clone()}>
                        { icons::more() }
                    </button>
                    <div class={classes!("menu__list", menu.open.then_some("menu__list--open"))} id="more-menu"
                         role="menu" aria-label={lang.t(Msg::MoreTools)} onclick={menu.on_click.clone()}>
                        // Shown where the menu is a sheet at the foot (phones):
                        // a way to close it other than tapping above it.
                        <button type="button" class="menu__close icon-button" aria-label={lang.t(Msg::Close)}
                                title={lang.t(Msg::Close)}>
                            { "✕" }
                        </button>
                        <div class="menu__row">
                            <span class="toolbar__label">{ lang.t(Msg::SeedLabel) }</span>
                            <output class="toolbar__seed" id="seed">{ p.seed }</output>
                            <button type="button" class="text-button" id="restart" role="menuitem" disabled={!has_run}
                                    onclick={d.reform(|_: MouseEvent| Action::Restart)}>
                                { icons::restart() }{ lang.t(Msg::RestartSeed) }
                            </button>
                        </div>
                        <LessonMenuItems lessons={props.lessons.clone()} glossary_open={props.glossary_open}
                                         editor_open={props.editor_open}
                                         scenario={AttrValue::from(p.scenario.clone())}
                                         comparing={props.comparing.clone()} on_compare={props.on_compare.clone()} />
                        <button type="button" class="menu__item" id="qr-button" role="menuitem" disabled={!has_run}
                                onclick={props.on_qr.reform(|_: MouseEvent| ())}>
                            { crate::i18n::extras::x("qr_button", lang) }
                        </button>
                        <crate::components::slide_export::SlideExportItems />
                    </div>
                </div>
                <button type="button" class="icon-button icon-button--text" id="projector-button"
                        aria-pressed={if props.is_projector { "true" } else { "false" }}
                        aria-label={projector_label.clone()} title={projector_label}
                        onclick={props.on_projector.reform(|_: MouseEvent| ())}>
                    { "A⁺" }
                </button>
                <button type="button" class="icon-button icon-button--text" id="presenter-button"
                        aria-label={format!("P {}", crate::presenter::notes::label("open_hint", lang))}
                        title={crate::presenter::notes::label("open_hint", lang)}
                        onclick={Callback::from(|_: MouseEvent| crate::presenter::open_presenter_window())}>
                    { "P" }
                </button>
                <button type="button" class="icon-button" id="fullscreen-button"
                        aria-pressed={if fullscreen { "true" } else { "false" }}
                        aria-label={fullscreen_label} title={fullscreen_label}
                        onclick={Callback::from(|_: MouseEvent| toggle_fullscreen())}>
                    { icons::fullscreen() }
                </button>
                <button type="button" class="icon-button icon-button--text" id="help-button"
                        aria-label={format!("? {}", lang.t(Msg::Help))} title={lang.t(Msg::Help)}
                        onclick={props.on_help.reform(|_: MouseEvent| ())}>
                    { "?" }
                </button>
                <crate::components::LangSwitch />
            </div>
        </header>
    }
}

/// The run's pickers: the lesson (a lesson whose data has not arrived yet opens
/// once it has, see `src/data.rs`) and the checkpointing mode.
fn run_pickers(p: &State, lang: Lang, d: &Callback<Action>) -> Html {
    let has_checkpointing = p.mode != Mode::Off;
    let on_scenario = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            crate::data::open_lesson(select_value(&e).unwrap_or_default(), d.clone())
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
    let scenarios = crate::data::lesson_titles();
    // A drill exercise's variant (`<lesson>-variant`) is its lesson's.
    let current = p.scenario.strip_suffix("-variant").unwrap_or(&p.scenario);
    html! {
        <div class="topbar__run" role="group" aria-label={lang.t(Msg::ToolbarLabel)}>
            <label class="toolbar__field">
                <span class="visually-hidden">{ lang.t(Msg::ScenarioLabel) }</span>
                <select class="select select--scenario" id="scenario-select" onchange={on_scenario}
                        title={lang.t(Msg::ScenarioLabel)}>
                    { for scenarios.iter().map(|(name, title)| {
                        let title = title.as_ref().map_or_else(|| name.to_string(), |t| lang.loc(t).to_string());
                        html! { <option value={name.to_string()} selected={*name == current}>{ title }</option> }
                    }) }
                </select>
            </label>
            <label class="toolbar__field">
                <span class="visually-hidden">{ lang.t(Msg::ModeLabel) }</span>
                <select class="select select--mode" id="mode-select" onchange={on_mode} disabled={!has_checkpointing}
                        title={lang.t(Msg::ModeLabel)}>
                    if !has_checkpointing {
                        <option value="off" selected=true>{ labels::mode(lang, Mode::Off) }</option>
                    }
                    { for Mode::CHOICES.iter().map(|m| html! {
                        <option value={m.key()} selected={*m == p.mode}>{ labels::mode(lang, *m) }</option>
                    }) }
                </select>
            </label>
        </div>
    }
}

/// The "more tools" menu: open until an item is chosen, Escape, or a click
/// elsewhere.
struct Menu {
    open: bool,
    /// The menu's element, to tell a click inside it from one elsewhere.
    node: NodeRef,
    toggle: Callback<MouseEvent>,
    /// Closes the menu when an item is chosen.
    on_click: Callback<MouseEvent>,
}

#[hook]
fn use_menu() -> Menu {
    let menu_open = use_state_eq(|| false);
    let menu_ref = use_node_ref();
    {
        let (open, menu_ref) = (menu_open.clone(), menu_ref.clone());
        use_effect_with(*menu_open, move |is_open| {
            let listeners = (*is_open).then(|| {
                let doc = gloo::utils::document();
                let close = open.setter();
                let inside = menu_ref.clone();
                let click = EventListener::new(&doc, "click", move |e| {
                    let target = e.target().and_then(|t| t.dyn_into::<web_sys::Node>().ok());
                    let within = inside
                        .cast::<web_sys::Node>()
                        .is_some_and(|m| m.contains(target.as_ref()));
                    if !within {
                        close.set(false);
                    }
                });
                let close = open.setter();
                let key = EventListener::new(&doc, "keydown", move |e| {
                    if e.dyn_ref::<web_sys::KeyboardEvent>()
                        .is_some_and(|k| k.key() == "Escape")
                    {
                        close.set(false);
                    }
                });
                (click, key)
            });
            move || drop(listeners)
        });
    }
    let toggle = {
        let open = menu_open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    // Choosing an item closes the menu (the file picker's label keeps it open
    // until a file is chosen, or its input would be gone).
    let on_click = {
        let open = menu_open.setter();
        Callback::from(move |e: MouseEvent| {
            let in_label = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.closest("label, input").ok().flatten())
                .is_some();
            let on_item = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.closest("button").ok().flatten())
                .is_some();
            if on_item && !in_label {
                open.set(false);
            }
        })
    };
    Menu {
        open: *menu_open,
        node: menu_ref,
        toggle,
        on_click,
    }
}

/// Whether the page is fullscreen, kept up to date by `fullscreenchange`.
#[hook]
fn use_fullscreen() -> bool {
    let fullscreen = use_state_eq(is_fullscreen);
    {
        let fullscreen = fullscreen.setter();
        use_effect_with((), move |_| {
            let doc = gloo::utils::document();
            let listener = EventListener::new(&doc, "fullscreenchange", move |_| {
                fullscreen.set(is_fullscreen())
            });
            move || drop(listener)
        });
    }
    *fullscreen
}

/// The top bar's logo and title (the build's first frame shows the same).
pub fn identity(lang: Lang) -> Html {
    html! {
        <div class="topbar__identity">
            { icons::logo() }
            <h1 class="masthead__title">
                <span class="masthead__brand">{ "checkpoint-lab" }</span>
                <span class="masthead__sep" aria-hidden="true">{ " · " }</span>
                <span class="masthead__name">{ lang.t(Msg::AppTitle) }</span>
            </h1>
        </div>
    }
}
