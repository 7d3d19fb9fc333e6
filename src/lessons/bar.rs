//! The lesson bar under the toolbar: the guided tour, the glossary, share links,
//! and scenario import/export.
//!
//! The tour drives the same playback as everything else: a step sends
//! [`Action::SeekStep`] to the position [`tour::positions`] found, so leaving the
//! tour (or pressing play) simply continues from there. In tour mode ← / → turn
//! the steps: a capture-phase listener on `window` takes them before the page's
//! own shortcuts (which would step the engine) see them.

use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::hooks::use_lang;
use crate::lessons::form::ScenarioForm;
use crate::lessons::glossary;
use crate::lessons::pair;
use crate::lessons::tour::{self, Target, Tour};
use crate::lessons::wording::t;
use crate::playback::{Action, State};
use crate::share;

/// Where the last imported scenario is kept between visits.
pub const STORAGE_KEY: &str = "checkpoint-lab.scenario";

/// Properties of [`LessonBar`].
#[derive(Properties, PartialEq)]
pub struct LessonBarProps {
    /// The playback state.
    pub playback: UseReducerHandle<State>,
    /// Sends playback actions (the page's recording dispatcher).
    pub dispatch: Callback<Action>,
    /// The learner's interventions on the current branch (for share links).
    pub log: share::Log,
    /// Why the share link the page was opened with could not be used.
    #[prop_or_default]
    pub link_error: Option<String>,
    /// The lesson shown beside this one in the twin view, if any.
    #[prop_or_default]
    pub comparing: Option<AttrValue>,
    /// Opens (`Some(partner)`) or closes (`None`) a lesson pair in the twin view.
    #[prop_or_default]
    pub on_compare: Callback<Option<AttrValue>>,
}

/// The tour being shown: its index and whether the answer is revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Showing {
    step: usize,
    revealed: bool,
}

/// Whether a key press in `target` belongs to a form control.
fn typing_in(target: Option<web_sys::EventTarget>) -> bool {
    target
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| {
            matches!(
                el.tag_name().to_ascii_uppercase().as_str(),
                "INPUT" | "SELECT" | "TEXTAREA"
            )
        })
}

/// The stylesheet that highlights `target` on the stage or the side panel.
fn highlight_css(target: &Target, selector: &str) -> String {
    if target.channel.is_some() {
        format!("{selector} .channel__line {{ stroke: var(--tour-highlight); stroke-width: 6px; }}")
    } else {
        format!("{selector} {{ outline: 4px solid var(--tour-highlight); outline-offset: 3px; }}")
    }
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Offers `text` as a download named `file` (a Blob URL on a temporary link).
fn download(file: &str, text: &str) -> Result<(), wasm_bindgen::JsValue> {
    let parts = js_sys_array(text);
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    a.set_href(&url);
    a.set_download(file);
    a.click();
    web_sys::Url::revoke_object_url(&url)
}

/// A one-element JS array holding `text` (what `Blob` takes).
fn js_sys_array(text: &str) -> wasm_bindgen::JsValue {
    web_sys::js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text)).into()
}

/// The lesson bar; see the module documentation.
#[component]
pub fn LessonBar(props: &LessonBarProps) -> Html {
    let lang = use_lang().lang;
    let p = &*props.playback;
    let d = props.dispatch.clone();
    let tour = use_memo(p.scenario.clone(), |name| tour::tour_for(name));
    // Every new run (load, restart, mode switch, edit) has a new job view: its
    // address identifies the run cheaply.
    let run_id = p.job.as_ref().map_or(0, |j| Rc::as_ptr(j) as usize);
    // Positions in the run as it is (its seed, mode and edits).
    let positions = {
        let playback = props.playback.clone();
        let tour = tour.clone();
        use_memo(run_id, move |_| {
            let tour = tour.as_ref().as_ref()?;
            playback.with_scenario(|s| tour::positions(tour, s, playback.seed))
        })
    };
    let showing = use_state_eq(|| None::<Showing>);
    let glossary_open = use_state_eq(|| false);
    let editor_open = use_state_eq(|| false);
    let notice = use_state_eq(|| None::<String>);
    let link_error = use_state_eq(|| props.link_error.clone());
    let import_error = use_state_eq(|| None::<String>);
    let saved = use_state(|| local_storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten()));

    // A tour belongs to its run: loading another one ends it. A share link in
    // the address bar describes the run it was opened with: once the learner loads
    // another run, it is dropped, so that a reload does not go back to it.
    {
        let showing = showing.setter();
        let first = use_mut_ref(|| true);
        use_effect_with(run_id, move |_| {
            showing.set(None);
            if !std::mem::replace(&mut *first.borrow_mut(), false) {
                share::clear_location();
            }
        });
    }

    let go = {
        let d = d.clone();
        let showing = showing.setter();
        let positions = positions.clone();
        let tour = tour.clone();
        Callback::from(move |step: usize| {
            let (Some(tour), Some(Ok(pos))) = (&*tour, &*positions) else {
                return;
            };
            let Some(&at) = pos.get(step) else { return };
            d.emit(Action::Pause);
            d.emit(Action::SeekStep(at));
            showing.set(Some(Showing {
                step,
                revealed: false,
            }));
            // Bring a highlighted side-panel tab to the front.
            if let Some(panel) = tour.steps[step]
                .highlight
                .as_ref()
                .and_then(|h| h.panel.clone())
            {
                if let Some(tab) = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|doc| doc.get_element_by_id(&format!("tab-{panel}")))
                    .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    tab.click();
                }
            }
        })
    };
    let n_steps = tour.as_ref().as_ref().map_or(0, |t| t.steps.len());

    // ← / → in tour mode.
    {
        let go = go.clone();
        let showing_now = *showing;
        use_effect_with(showing_now, move |showing| {
            let listener = showing.and_then(|s| {
                let window = web_sys::window()?;
                let options = EventListenerOptions {
                    phase: EventListenerPhase::Capture,
                    passive: false,
                };
                Some(EventListener::new_with_options(
                    &window,
                    "keydown",
                    options,
                    move |e| {
                        let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                            return;
                        };
                        if e.ctrl_key() || e.meta_key() || e.alt_key() || typing_in(e.target()) {
                            return;
                        }
                        let next = match e.key().as_str() {
                            "ArrowRight" if s.step + 1 < n_steps => s.step + 1,
                            "ArrowLeft" if s.step > 0 => s.step - 1,
                            "ArrowRight" | "ArrowLeft" => s.step,
                            _ => return,
                        };
                        e.prevent_default();
                        e.stop_immediate_propagation();
                        if next != s.step {
                            go.emit(next);
                        }
                    },
                ))
            });
            move || drop(listener)
        });
    }

    let tour_card = match (&*tour, *showing) {
        (Some(tour), Some(s)) => {
            html! { <TourCard tour={tour.clone()} showing={s} positions={(*positions).clone()}
            go={go.clone()} on_reveal={{
                let showing = showing.setter();
                Callback::from(move |_| showing.set(Some(Showing { step: s.step, revealed: true })))
            }}
            on_exit={{
                let showing = showing.setter();
                Callback::from(move |_| showing.set(None))
            }} /> }
        }
        _ => html! {},
    };

    let on_start = {
        let go = go.clone();
        Callback::from(move |_: MouseEvent| go.emit(0))
    };
    let on_glossary = {
        let open = glossary_open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let on_editor = {
        let open = editor_open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let on_share = {
        let playback = props.playback.clone();
        let log = props.log.clone();
        let notice = notice.setter();
        Callback::from(move |_: MouseEvent| {
            let Some(recipe) = share::recipe_of(&playback, &log.get()) else {
                return;
            };
            let fragment = share::encode(&recipe);
            share::set_location(&fragment);
            if let Some(w) = web_sys::window() {
                if let Ok(href) = w.location().href() {
                    let _ = w.navigator().clipboard().write_text(&href);
                }
            }
            notice.set(Some(t("share_done", lang).to_string()));
        })
    };
    let on_export = {
        let playback = props.playback.clone();
        Callback::from(move |_: MouseEvent| {
            let Some((name, text)) = playback.with_scenario(|s| {
                let v = serde_json::to_value(s).expect("a scenario serializes");
                (
                    s.name.clone(),
                    serde_json::to_string_pretty(&v).expect("JSON"),
                )
            }) else {
                return;
            };
            let _ = download(&format!("{name}.json"), &text);
        })
    };
    let load_json = {
        let d = d.clone();
        let import_error = import_error.setter();
        let saved = saved.setter();
        Callback::from(
            move |text: String| match engine::Scenario::from_json(&text) {
                Ok(_) => {
                    import_error.set(None);
                    if let Some(s) = local_storage() {
                        let _ = s.set_item(STORAGE_KEY, &text);
                    }
                    saved.set(Some(text.clone()));
                    d.emit(Action::LoadScenario(text));
                }
                Err(e) => import_error.set(Some(e.to_string())),
            },
        )
    };
    let on_import = {
        let load_json = load_json.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            else {
                return;
            };
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            let Ok(reader) = web_sys::FileReader::new() else {
                return;
            };
            let r = reader.clone();
            let load_json = load_json.clone();
            let onload = Closure::once_into_js(move || {
                if let Some(text) = r.result().ok().and_then(|v| v.as_string()) {
                    load_json.emit(text);
                }
            });
            reader.set_onload(Some(onload.unchecked_ref()));
            let _ = reader.read_as_text(&file);
            input.set_value("");
        })
    };
    let on_restore_saved = {
        let load_json = load_json.clone();
        let saved = (*saved).clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(text) = saved.clone() {
                load_json.emit(text);
            }
        })
    };
    let saved_name = saved
        .as_deref()
        .and_then(|s| engine::Scenario::parse(s).ok())
        .map(|s| s.name)
        .filter(|n| *n != p.scenario);

    let close = |state: UseStateHandle<Option<String>>| {
        Callback::from(move |_: MouseEvent| state.set(None))
    };
    let css = match (&*tour, *showing, &p.job) {
        (Some(tour), Some(s), Some(job)) => tour.steps[s.step]
            .highlight
            .as_ref()
            .and_then(|h| {
                tour::selector(h, job)
                    .ok()
                    .map(|sel| highlight_css(h, &sel))
            })
            .unwrap_or_default(),
        _ => String::new(),
    };

    html! {
        <section class="lesson-bar" aria-label={t("lessons_label", lang)}>
            <div class="lesson-bar__row">
                if tour.is_some() && showing.is_none() {
                    <button type="button" class="text-button lesson-bar__tour" id="tour-start" onclick={on_start}>
                        { t("tour_start", lang) }
                    </button>
                }
                for partner in pair::partners(&p.scenario) {
                    if props.comparing.as_deref() != Some(partner) {
                        <button type="button" class="text-button lesson-bar__compare" id={format!("compare-{partner}")}
                                data-partner={partner}
                                title={t("pair_compare_hint", lang).replace("{name}", partner)}
                                onclick={props.on_compare.reform(move |_: MouseEvent| Some(AttrValue::from(partner)))}>
                            { t("pair_compare", lang).replace("{name}", partner) }
                        </button>
                    }
                }
                if props.comparing.is_some() {
                    <button type="button" class="text-button lesson-bar__compare" id="compare-stop"
                            onclick={props.on_compare.reform(|_: MouseEvent| None)}>
                        { t("pair_stop", lang) }
                    </button>
                }
                <button type="button" class="text-button" id="glossary-button" aria-expanded={glossary_open.to_string()}
                        aria-controls="glossary" onclick={on_glossary}>
                    { t("glossary_button", lang) }
                </button>
                <button type="button" class="text-button" id="editor-button" aria-expanded={editor_open.to_string()}
                        aria-controls="editor" onclick={on_editor}>
                    { t("editor_button", lang) }
                </button>
                <button type="button" class="text-button" id="share-button" onclick={on_share}>
                    { t("share_button", lang) }
                </button>
                <button type="button" class="text-button" id="export-button" onclick={on_export}>
                    { t("export_button", lang) }
                </button>
                <label class="text-button lesson-bar__import">
                    { t("import_label", lang) }
                    <input type="file" id="import-input" accept="application/json,.json" onchange={on_import}
                           class="visually-hidden" />
                </label>
                if let Some(name) = saved_name {
                    <button type="button" class="text-button" id="restore-saved" onclick={on_restore_saved}
                            title={t("restore_saved", lang)} aria-label={format!("{} {name}", t("restore_saved", lang))}>
                        { format!("↺ {name}") }
                    </button>
                }
            </div>
            if let Some(why) = &*link_error {
                <p class="lesson-bar__error share-error" role="alert">
                    <strong>{ t("share_bad_link", lang) }</strong>{ " " }<span class="share-error__why">{ why.clone() }</span>
                    { " " }{ t("share_bad_link_after", lang) }{ " " }
                    <button type="button" class="text-button" onclick={close(link_error.clone())}>{ t("dismiss", lang) }</button>
                </p>
            }
            if let Some(why) = &*import_error {
                <p class="lesson-bar__error import-error" role="alert">
                    <strong>{ t("import_error", lang) }</strong>{ " " }<span>{ why.clone() }</span>{ " " }
                    <button type="button" class="text-button" onclick={close(import_error.clone())}>{ t("dismiss", lang) }</button>
                </p>
            }
            if let Some(text) = &*notice {
                <p class="lesson-bar__notice" role="status">{ text.clone() }{ " " }
                    <button type="button" class="text-button" onclick={close(notice.clone())}>{ t("dismiss", lang) }</button>
                </p>
            }
            { tour_card }
            if *editor_open {
                if let Some(doc) = p.with_scenario(|s| serde_json::to_value(s).expect("a scenario serializes")) {
                    <ScenarioForm {doc} on_apply={load_json.clone()} />
                }
            }
            if *glossary_open {
                <Glossary />
            }
            <style>{ css }</style>
        </section>
    }
}

/// Properties of [`PairDiff`].
#[derive(Properties, PartialEq)]
pub struct PairDiffProps {
    /// The main run's scenario name.
    pub this_name: AttrValue,
    /// The partner's scenario name.
    pub other_name: AttrValue,
    /// The main run now.
    pub this: Option<Rc<engine::view::WorldView>>,
    /// The partner now (it follows the main clock).
    pub other: Option<Rc<engine::view::WorldView>>,
}

/// The difference between a lesson pair's committed output at this moment, per
/// sink and key: the same, or how many duplicates / missing values on which side.
#[component]
pub fn PairDiff(props: &PairDiffProps) -> Html {
    let lang = use_lang().lang;
    let (Some(a), Some(b)) = (&props.this, &props.other) else {
        return html! {};
    };
    let rows = pair::compare(&a.sinks, &b.sinks);
    let (this, other) = (props.this_name.as_str(), props.other_name.as_str());
    let differ = rows.iter().filter(|r| !r.is_equal()).count();
    let summary = if rows.is_empty() {
        t("pair_nothing_yet", lang).to_string()
    } else if differ == 0 {
        t("pair_all_equal", lang).to_string()
    } else {
        t("pair_some_differ", lang)
            .replace("{n}", &differ.to_string())
            .replace("{total}", &rows.len().to_string())
    };
    let verdict = |r: &pair::KeyDiff| -> String {
        if r.is_equal() {
            return t("pair_same", lang).to_string();
        }
        let mut parts = Vec::new();
        for (n, name, key) in [
            (r.this_duplicates, this, "pair_duplicates"),
            (r.other_duplicates, other, "pair_duplicates"),
            (r.this_missing, this, "pair_missing"),
            (r.other_missing, other, "pair_missing"),
        ] {
            if n > 0 {
                parts.push(
                    t(key, lang)
                        .replace("{n}", &n.to_string())
                        .replace("{name}", name),
                );
            }
        }
        parts.join(lang_sep(lang))
    };
    html! {
        <section class="pair-diff" id="pair-diff" aria-live="polite">
            <h2 class="pair-diff__heading">
                { t("pair_heading", lang).replace("{this}", this).replace("{other}", other) }
            </h2>
            <p class="pair-diff__summary" data-differ={differ.to_string()}>{ summary }</p>
            if !rows.is_empty() {
                <table class="pair-diff__table">
                    <thead><tr>
                        <th scope="col">{ t("pair_key", lang) }</th>
                        <th scope="col">{ this }</th>
                        <th scope="col">{ other }</th>
                        <th scope="col"></th>
                    </tr></thead>
                    <tbody>
                        for r in rows.iter() {
                            <tr class={classes!("pair-diff__row", (!r.is_equal()).then_some("pair-diff__row--differs"))}
                                data-key={r.key.clone()}>
                                <th scope="row">{ format!("{} / {}", r.sink, r.key) }</th>
                                <td>{ r.this }</td>
                                <td>{ r.other }</td>
                                <td class="pair-diff__verdict">{ verdict(r) }</td>
                            </tr>
                        }
                    </tbody>
                </table>
            }
        </section>
    }
}

fn lang_sep(lang: crate::i18n::Lang) -> &'static str {
    match lang {
        crate::i18n::Lang::Zh => "；",
        crate::i18n::Lang::En => "; ",
    }
}

#[derive(Properties, PartialEq)]
struct TourCardProps {
    tour: Tour,
    showing: Showing,
    positions: Option<Result<Vec<u64>, String>>,
    go: Callback<usize>,
    on_reveal: Callback<()>,
    on_exit: Callback<()>,
}

/// The current step: narration, the question and its answer, previous / next.
#[component]
fn TourCard(props: &TourCardProps) -> Html {
    let lang = use_lang().lang;
    let Showing { step, revealed } = props.showing;
    let s = &props.tour.steps[step];
    let n = props.tour.steps.len();
    let counter = t("tour_step_of", lang)
        .replace("{n}", &(step + 1).to_string())
        .replace("{total}", &n.to_string());
    let nav = |to: usize| {
        let go = props.go.clone();
        Callback::from(move |_: MouseEvent| go.emit(to))
    };
    let on_reveal = props.on_reveal.reform(|_: MouseEvent| ());
    let on_exit = props.on_exit.reform(|_: MouseEvent| ());
    let text = |l: &engine::scenario::Localized| tour::text(l, lang).to_string();
    let unreachable = match &props.positions {
        Some(Err(e)) => Some(e.clone()),
        _ => None,
    };
    html! {
        <div class="tour-card" role="region" aria-label={t("tour_label", lang)} lang={lang.html_lang()}>
            <div class="tour-card__head">
                <strong class="tour-card__title">{ text(&props.tour.title) }</strong>
                <span class="tour-card__counter" id="tour-counter" aria-live="polite">{ counter }</span>
            </div>
            <p class="tour-card__text" id="tour-text">{ text(&s.text) }</p>
            if let Some(e) = unreachable {
                <p class="lesson-bar__error" role="alert">{ t("tour_unreachable", lang) }{ " " }{ e }</p>
            }
            if let (Some(q), Some(a)) = (&s.ask, &s.answer) {
                <div class="tour-card__ask">
                    <p><strong>{ t("tour_predict", lang) }</strong>{ " " }{ text(q) }</p>
                    if revealed {
                        <p class="tour-card__answer" id="tour-answer">{ text(a) }</p>
                    } else {
                        <button type="button" class="text-button" id="tour-reveal" onclick={on_reveal}>{ t("tour_reveal", lang) }</button>
                    }
                </div>
            }
            <div class="tour-card__nav">
                <button type="button" class="text-button" id="tour-prev" disabled={step == 0}
                        onclick={nav(step.saturating_sub(1))}>{ "← " }{ t("tour_prev", lang) }</button>
                <button type="button" class="text-button text-button--primary" id="tour-next" disabled={step + 1 >= n}
                        onclick={nav(step + 1)}>{ t("tour_next", lang) }{ " →" }</button>
                <span class="tour-card__keys">{ t("tour_keys", lang) }</span>
                <button type="button" class="text-button" id="tour-exit" onclick={on_exit}>{ t("tour_exit", lang) }</button>
            </div>
        </div>
    }
}

/// The zh/en glossary: each term in both languages, explained in the current one.
#[component]
fn Glossary() -> Html {
    let lang = use_lang().lang;
    let terms = use_memo((), |_| Rc::new(glossary::terms()));
    html! {
        <div class="glossary" id="glossary" role="region" aria-label={t("glossary_heading", lang)}>
            <h2 class="glossary__heading">{ t("glossary_heading", lang) }</h2>
            <dl class="glossary__list">
                { for terms.iter().map(|term| html! {
                    <div class="glossary__entry">
                        <dt><span lang="zh-CN">{ term.term.zh.clone() }</span>{ " · " }<span lang="en">{ term.term.en.clone() }</span></dt>
                        <dd>{ tour::text(&term.explain, lang).to_string() }</dd>
                    </div>
                }) }
            </dl>
        </div>
    }
}
