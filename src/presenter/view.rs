//! The presenter window: what the lecturer's laptop shows while the projector
//! shows the clean stage. The current tour step's text, its question with the
//! answer, the next step's preview, the lesson's teaching notes, the elapsed
//! time against a budget, the tour's and the playback's controls, and the live
//! stage, small. Everything it does goes through the same dispatch and tour
//! callbacks as the normal page, and [`super::sync`] carries it to the
//! projector's window.

use engine::scenario::Localized;
use gloo::timers::callback::Interval;
use yew::prelude::*;

use crate::hooks::lessons::Lessons;
use crate::hooks::use_lang;
use crate::i18n::Lang;
use crate::lessons::tour;
use crate::playback::Action;
use crate::presenter::notes::{self, label};
use crate::presenter::sync::Link;

/// The time budget a lecture starts with, in minutes.
const DEFAULT_BUDGET_MIN: u32 = 45;

/// Properties of [`PresenterView`].
#[derive(Properties, PartialEq)]
pub struct PresenterProps {
    /// The lesson tools' state (the tour).
    pub lessons: Lessons,
    /// The lesson shown.
    pub lesson: AttrValue,
    /// Sends playback actions (the lesson picker).
    pub dispatch: Callback<Action>,
    /// The live stage, drawn by the page.
    pub stage: Html,
    /// The transport bar, drawn by the page.
    pub transport: Html,
    /// The caption bar, drawn by the page.
    pub caption: Html,
    /// The link to the projector's window.
    pub link: Link,
    /// The live class, when a classroom server serves the page.
    pub live: crate::classroom::live::Live,
}

/// `ms` as m:ss.
fn clock(ms: f64) -> String {
    let s = (ms.max(0.0) / 1000.0) as u64;
    format!("{}:{:02}", s / 60, s % 60)
}

/// The presenter window; see the module documentation.
#[component]
pub fn PresenterView(props: &PresenterProps) -> Html {
    let lang = use_lang().lang;
    let started = use_state(js_sys::Date::now);
    let budget = use_state_eq(|| DEFAULT_BUDGET_MIN);
    // Redraws the clock every second.
    let tick = use_state(|| 0u32);
    {
        let tick = tick.clone();
        use_effect_with((), move |_| {
            let i = Interval::new(1_000, move || tick.set(tick.wrapping_add(1)));
            move || drop(i)
        });
    }
    let elapsed = js_sys::Date::now() - *started;
    let left = f64::from(*budget) * 60_000.0 - elapsed;
    let standing = if left >= 0.0 {
        label("left", lang).replace("{m}", &clock(left))
    } else {
        label("over", lang).replace("{m}", &clock(-left))
    };
    let reset = {
        let started = started.clone();
        Callback::from(move |_: MouseEvent| started.set(js_sys::Date::now()))
    };
    let on_budget = {
        let budget = budget.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Ok(m) = input.value().trim().parse::<u32>() {
                budget.set(m.clamp(1, 600));
            }
        })
    };
    let on_lesson = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            crate::data::open_lesson(select.value(), dispatch.clone());
        })
    };
    let lessons = crate::data::lesson_titles();
    let status = if props.link.connected {
        label("linked", lang)
    } else {
        label("waiting", lang)
    };
    html! {
        <div class={classes!("presenter", (left < 0.0).then_some("presenter--over"))} id="presenter" lang={lang.html_lang()}>
            <header class="presenter__head">
                <h1 class="presenter__title">{ label("title", lang) }</h1>
                <label class="presenter__lesson">
                    <span>{ label("lesson", lang) }</span>
                    <select id="presenter-lesson" onchange={on_lesson}>
                        { for lessons.iter().map(|(name, title)| {
                            let text = title.as_ref().map_or_else(|| name.to_string(), |t| lang.loc(t).to_string());
                            html! { <option value={*name} selected={*name == props.lesson.as_str()}>{ text }</option> }
                        }) }
                    </select>
                </label>
                <span class="presenter__status" id="presenter-status" data-connected={props.link.connected.to_string()}>{ status }</span>
                <div class="presenter__time" role="group" aria-label={label("elapsed", lang)}>
                    <span>{ label("elapsed", lang) }{ " " }<strong id="presenter-elapsed">{ clock(elapsed) }</strong></span>
                    <span id="presenter-standing">{ standing }</span>
                    <label>
                        <span>{ label("budget", lang) }</span>
                        <input id="presenter-budget" type="number" min="1" max="600" value={budget.to_string()} onchange={on_budget} />
                    </label>
                    <button type="button" class="text-button" id="presenter-reset" onclick={reset}>{ label("reset", lang) }</button>
                </div>
            </header>
            <div class="presenter__body">
                <section class="presenter__tour" aria-label={label("step", lang)}>
                    { tour_column(&props.lessons, lang, &props.live, &props.dispatch) }
                    <crate::classroom::view::VotePanel live={props.live.clone()} tour={props.lessons.tour.clone()} />
                </section>
                <section class="presenter__live" aria-label={label("stage", lang)}>
                    <div class="presenter__stage">{ props.stage.clone() }</div>
                    { props.caption.clone() }
                    { props.transport.clone() }
                </section>
                <section class="presenter__notes" aria-label={label("notes", lang)}>
                    <crate::presenter::plan_view::PlanPanel lessons={props.lessons.clone()} lesson={props.lesson.clone()}
                        dispatch={props.dispatch.clone()} started={*started} connected={props.link.connected}
                        advance={props.link.advance} />
                    { notes_column(props.lesson.as_str(), lang) }
                </section>
            </div>
        </div>
    }
}

/// The tour step with its question and answer, the controls and the next step.
fn tour_column(
    l: &Lessons,
    lang: Lang,
    live: &crate::classroom::live::Live,
    dispatch: &Callback<Action>,
) -> Html {
    let text = |loc: &Localized| tour::text(loc, lang).to_string();
    let Some(t) = &*l.tour else {
        return html! { <p class="presenter__empty">{ label("no_tour", lang) }</p> };
    };
    let Some(showing) = l.showing else {
        return html! {
            <>
                <h2>{ text(&t.title) }</h2>
                <p class="presenter__empty">{ label("no_tour", lang) }</p>
                <button type="button" class="text-button text-button--primary" id="presenter-tour-start"
                        onclick={l.go.reform(|_: MouseEvent| 0)}>{ label("start_tour", lang) }</button>
            </>
        };
    };
    let (step, n) = (showing.step, t.steps.len());
    let Some(s) = t.steps.get(step) else {
        return html! {};
    };
    let nav = |to: usize| l.go.reform(move |_: MouseEvent| to);
    let counter = label("step", lang)
        .replace("{n}", &(step + 1).to_string())
        .replace("{of}", &n.to_string());
    html! {
        <>
            <h2>{ text(&t.title) }</h2>
            <div class="presenter__nav">
                <button type="button" class="text-button" id="presenter-prev" disabled={step == 0}
                        onclick={nav(step.saturating_sub(1))}>{ "← " }{ label("prev", lang) }</button>
                <span id="presenter-counter">{ counter }</span>
                <button type="button" class="text-button text-button--primary" id="presenter-next" disabled={step + 1 >= n}
                        onclick={nav(step + 1)}>{ label("next", lang) }{ " →" }</button>
                <button type="button" class="text-button" id="presenter-tour-exit"
                        onclick={l.exit.reform(|_: MouseEvent| ())}>{ label("exit_tour", lang) }</button>
            </div>
            <p class="presenter__text" id="presenter-text">{ text(&s.text) }</p>
            if let Some(ask) = &s.ask {
                <div class="presenter__ask">
                    <h3>{ label("question", lang) }</h3>
                    <p id="presenter-ask">{ text(ask) }</p>
                    { right_choice(s, lang) }
                    if let Some(answer) = &s.answer {
                        <h3>{ label("answer", lang) }</h3>
                        <p id="presenter-answer">{ text(answer) }</p>
                    }
                    <crate::classroom::view::VoteControls live={live.clone()} lesson={AttrValue::from(t.scenario.clone())}
                        step={step} choices={s.choices.len()} right={s.right_choice()}
                        play={play_from_here(l, dispatch)} />
                </div>
            }
            <div class="presenter__next-step">
                <h3>{ label("next_preview", lang) }</h3>
                <p id="presenter-next-text">{
                    t.steps.get(step + 1).map_or_else(|| label("last_step", lang), |next| text(&next.text))
                }</p>
            </div>
        </>
    }
}

/// The step's choices with the right one marked, for the lecturer's eyes only.
fn right_choice(s: &tour::Step, lang: Lang) -> Html {
    let right = s.right_choice();
    if s.choices.is_empty() {
        return html! {};
    }
    html! {
        <ol class="presenter__choices" id="presenter-choices" type="A">
            { for s.choice_texts(lang).into_iter().enumerate().map(|(i, c)| {
                let is_right = Some(i) == right;
                html! {
                    <li class={classes!(is_right.then_some("presenter__choice--right"))}
                        data-right={is_right.then_some("true")}>
                        { c.to_string() }
                        if is_right { <strong>{ " ✓ " }{ label("class_right", lang) }</strong> }
                    </li>
                }
            }) }
        </ol>
    }
}

/// The reveal: the step's answer is shown and the moment plays on.
fn play_from_here(l: &Lessons, dispatch: &Callback<Action>) -> Callback<()> {
    let (reveal, dispatch) = (l.reveal.clone(), dispatch.clone());
    Callback::from(move |()| {
        reveal.emit(());
        dispatch.emit(Action::TogglePlay);
    })
}

/// The lesson's teaching notes: say, ask, point at.
fn notes_column(lesson: &str, lang: Lang) -> Html {
    let Some(n) = notes::for_lesson(lesson) else {
        return html! {};
    };
    html! {
        <>
            <h2>{ label("notes", lang) }</h2>
            <dl class="presenter__notes-list" id="presenter-notes">
                <dt>{ label("say", lang) }</dt>
                { for n.say.iter().map(|l| html! { <dd>{ lang.loc(l).to_string() }</dd> }) }
                <dt>{ label("ask", lang) }</dt>
                <dd>{ lang.loc(&n.ask).to_string() }</dd>
                <dt>{ label("point", lang) }</dt>
                <dd>{ lang.loc(&n.point).to_string() }</dd>
            </dl>
        </>
    }
}
