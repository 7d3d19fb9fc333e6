//! The drill's view in the side panel's drawer (the stage stays beside it):
//! the list of questions with the learner's progress, and an open question with
//! its moment (one tap puts the lesson at that moment on the stage), its model
//! answer hidden until asked for, the notes' outdated claim beside Flink's
//! behaviour, and its exercises ([`super::exercise::ExerciseCard`]).

use std::rc::Rc;

use yew::prelude::*;

use super::exercise::ExerciseCard;
use super::lesson::lesson_name;
use super::{breakable, questions, w, wf, Progress, Question, Questions, Section};
use crate::components::sources_line::SourcesLine;
use crate::hooks::use_lang;
use crate::i18n::Lang;
use crate::playback::Action;

/// Properties of [`DrillPanel`].
#[derive(Properties, PartialEq)]
pub struct DrillPanelProps {
    /// Playback actions (moments and variants are played on the stage).
    pub dispatch: Callback<Action>,
}

fn text(l: &engine::scenario::Localized, lang: Lang) -> &str {
    lang.loc(l)
}

/// Puts `q`'s lesson on the stage at its moment (after fetching its data if
/// it is not here yet), paused there for the class to look.
pub fn open_moment(dispatch: &Callback<Action>, q: &Question) {
    let (lesson, mode, at) = (q.moment.lesson.clone(), q.mode(), q.moment.at_ms);
    let dispatch = dispatch.clone();
    let go = move || {
        dispatch.emit(Action::LoadScenario(lesson.clone()));
        if let Some(m) = mode {
            dispatch.emit(Action::SetMode(m));
        }
        dispatch.emit(Action::SeekTime(at));
    };
    let files = crate::data::lesson_files(&q.moment.lesson);
    if files.iter().all(|f| crate::data::available(f)) {
        return go();
    }
    wasm_bindgen_futures::spawn_local(async move {
        if crate::data::ensure(files).await.is_ok() {
            go();
        }
    });
}

/// The questions, fetched first when they are not here yet.
#[hook]
fn use_questions() -> Option<Result<Rc<Questions>, String>> {
    let loaded = use_state(|| questions().map(Ok));
    {
        let loaded = loaded.clone();
        use_effect_with((), move |_| {
            if loaded.is_none() {
                wasm_bindgen_futures::spawn_local(async move {
                    let got = crate::data::ensure(vec![super::FILE.to_string()])
                        .await
                        .map_err(|e| e.to_string());
                    loaded.set(Some(got.and_then(|_| {
                        questions().ok_or_else(|| format!("{}: not loaded", super::FILE))
                    })));
                });
            }
        });
    }
    (*loaded).clone()
}

/// The drill; see the module documentation.
#[component]
pub fn DrillPanel(props: &DrillPanelProps) -> Html {
    let lang = use_lang().lang;
    let loaded = use_questions();
    // The open question's id, kept in the address so a reload or a link
    // reopens it (see `super::remember`).
    let open = use_state_eq(super::open_in_address);
    // Held in a cell, not a state: two cards may mark in one render, and each
    // must add to the other's mark.
    let progress = use_mut_ref(Progress::load);
    let redraw = use_force_update();
    let on_mark = {
        let progress = progress.clone();
        Callback::from(move |(id, kind, right): (String, String, bool)| {
            let next = progress.borrow().with(&id, &kind, right);
            next.save();
            *progress.borrow_mut() = next;
            redraw.force_update();
        })
    };
    {
        let open = (*open).clone();
        use_effect_with(open, |open| super::remember(true, open.as_deref()));
    }
    // On a phone the drill sits under the graph: bring it on screen once its
    // questions are here (a link with `?drill=1` means the drill).
    {
        let ready = matches!(loaded, Some(Ok(_)));
        use_effect_with(ready, |ready| {
            if *ready {
                crate::document::bring_on_screen_when_narrow("drill");
            }
        });
    }
    let body = match loaded {
        None => html! { <p class="drill__note" aria-busy="true">{ w("preparing", lang) }</p> },
        Some(Err(e)) => {
            html! { <p class="drill__note" role="alert">{ wf("load_error", lang, &[("e", &e)]) }</p> }
        }
        Some(Ok(qs)) => match (*open)
            .as_deref()
            .and_then(|id| qs.questions.iter().find(|q| q.id == id))
        {
            Some(q) => {
                let back = {
                    let open = open.clone();
                    Callback::from(move |_: MouseEvent| open.set(None))
                };
                html! {
                    <QuestionView key={q.id.clone()} question={Rc::new(q.clone())} dispatch={props.dispatch.clone()}
                                  {on_mark} {back} />
                }
            }
            None => list(&qs, &progress.borrow(), &open, lang),
        },
    };
    html! {
        <section class="drill" id="drill" aria-labelledby="drill-heading">
            <h2 class="drill__heading" id="drill-heading">{ w("heading", lang) }</h2>
            { body }
        </section>
    }
}

/// The list of questions, by part of the notes, with the progress.
fn list(
    qs: &Questions,
    progress: &Progress,
    open: &UseStateHandle<Option<String>>,
    lang: Lang,
) -> Html {
    let total = qs.questions.len();
    let right = progress.right_count(qs);
    let section = |s: Section, key: &str| {
        let items = qs
            .questions
            .iter()
            .filter(|q| q.section == s)
            .map(|q| {
                let mark = progress.of(&q.id);
                let (status, class) = if progress.is_done(q) {
                    ("status_right", "is-right")
                } else if mark.wrong > 0 || mark.right > 0 {
                    ("status_tried", "is-tried")
                } else {
                    ("status_new", "is-new")
                };
                let onclick = {
                    let (open, id) = (open.clone(), q.id.clone());
                    Callback::from(move |_: MouseEvent| open.set(Some(id.clone())))
                };
                html! {
                    <li>
                        <button type="button" class={classes!("drill-item", class)} data-id={q.id.clone()} {onclick}>
                            <span class="drill-item__number">{ q.number.clone() }</span>
                            <span class="drill-item__text">{ breakable(text(&q.question, lang)) }</span>
                            <span class="drill-item__status" title={w(status, lang)}>
                                <span aria-hidden="true">{ match class { "is-right" => "✓", "is-tried" => "✕", _ => "·" } }</span>
                                <span class="visually-hidden">{ w(status, lang) }</span>
                            </span>
                        </button>
                    </li>
                }
            });
        html! {
            <>
                <h3 class="drill__section">{ w(key, lang) }</h3>
                <ol class="drill__list">{ for items }</ol>
            </>
        }
    };
    let progress_text = wf(
        "progress",
        lang,
        &[("right", &right.to_string()), ("total", &total.to_string())],
    );
    html! {
        <>
            <p class="drill__intro">{ w("intro", lang) }</p>
            <div class="drill__progress">
                <progress max={total.to_string()} value={right.to_string()} aria-label={progress_text.clone()}></progress>
                <span class="drill__progress-text" id="drill-progress">{ progress_text }</span>
            </div>
            { section(Section::Interview, "section_interview") }
            { section(Section::State, "section_state") }
        </>
    }
}

/// Properties of [`QuestionView`].
#[derive(Properties, PartialEq)]
struct QuestionViewProps {
    question: Rc<Question>,
    dispatch: Callback<Action>,
    on_mark: Callback<(String, String, bool)>,
    back: Callback<MouseEvent>,
}

/// An open question.
#[component]
fn QuestionView(props: &QuestionViewProps) -> Html {
    let lang = use_lang().lang;
    let q = &props.question;
    let revealed = use_state_eq(|| false);
    let toggle = {
        let revealed = revealed.clone();
        Callback::from(move |_: MouseEvent| revealed.set(!*revealed))
    };
    let moment = {
        let (dispatch, q) = (props.dispatch.clone(), q.clone());
        Callback::from(move |_: MouseEvent| open_moment(&dispatch, &q))
    };
    let moment_label = wf(
        "show_moment",
        lang,
        &[
            ("lesson", &lesson_name(&q.moment.lesson, lang)),
            ("t", &q.moment.at_ms.to_string()),
        ],
    );
    let kinds = q.kinds();
    html! {
        <article class="drill-q" data-id={q.id.clone()}>
            <button type="button" class="text-button drill-q__back" onclick={props.back.clone()}>{ w("back", lang) }</button>
            <p class="drill-q__number">{ q.label(lang) }</p>
            <h3 class="drill-q__question">{ breakable(text(&q.question, lang)) }</h3>
            <button type="button" class="text-button drill-q__moment" onclick={moment}>{ moment_label }</button>
            <button type="button" class="text-button drill-q__reveal" aria-expanded={revealed.to_string()}
                    aria-controls={format!("drill-answer-{}", q.id)} onclick={toggle}>
                { w(if *revealed { "hide_answer" } else { "show_answer" }, lang) }
            </button>
            <div class="drill-q__answer" id={format!("drill-answer-{}", q.id)} hidden={!*revealed}>
                <h4 class="drill-q__subheading">{ w("answer_heading", lang) }</h4>
                <p>{ breakable(text(&q.answer, lang)) }</p>
                if let Some(c) = &q.callout {
                    <aside class="drill-callout" aria-label={w("callout_heading", lang)}>
                        <p class="drill-callout__heading">{ w("callout_heading", lang) }</p>
                        <p>{ breakable(text(c, lang)) }</p>
                    </aside>
                }
                <SourcesLine sources={q.sources.clone()} />
            </div>
            <h4 class="drill-q__subheading">{ w("exercises_heading", lang) }</h4>
            if kinds.is_empty() {
                <p class="drill__note">{ w("no_exercise", lang) }</p>
            }
            { for kinds.into_iter().map(|kind| {
                let on_mark = {
                    let (id, on_mark) = (q.id.clone(), props.on_mark.clone());
                    Callback::from(move |right: bool| on_mark.emit((id.clone(), kind.key().to_string(), right)))
                };
                html! { <ExerciseCard key={kind.key()} {kind} dispatch={props.dispatch.clone()} {on_mark} /> }
            }) }
        </article>
    }
}
