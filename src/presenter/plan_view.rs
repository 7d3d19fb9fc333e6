//! The class plan in the presenter window: choose a ready-made plan or make
//! one's own (add the lesson on stage, reorder, remove, set the minutes), see
//! where the class is and how the time stands, go on to the next lesson (also
//! with → / PageDown past the last step of a lesson's tour), and take the plan
//! away as a file or a link. The plan and where the class is in it are kept in
//! local storage, so a reload resumes at the same lesson and tour step.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::hooks::lessons::Lessons;
use crate::hooks::use_lang;
use crate::i18n::Lang;
use crate::playback::Action;
use crate::presenter::notes::label;
use crate::presenter::plan::{self, Item, Plan, PLANS};

/// Where the plan and the class's place in it are kept.
pub const STORAGE_KEY: &str = "checkpoint-lab.plan";
/// The query parameter of a plan link.
pub const PARAM: &str = "plan";

/// A change to the plan being edited.
type Edit = Box<dyn Fn(&mut Plan)>;

/// What local storage keeps.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    /// The plan.
    pub plan: Plan,
    /// The lesson the class is at (index into the plan).
    pub at: usize,
    /// The tour step shown there, if any.
    #[serde(default)]
    pub tour_step: Option<usize>,
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn load_saved() -> Option<Saved> {
    let text = storage()?.get_item(STORAGE_KEY).ok()??;
    let saved: Saved = serde_json::from_str(&text).ok()?;
    saved.plan.check().ok()?;
    Some(saved)
}

fn store(saved: &Saved) {
    if let Some(s) = storage() {
        let _ = s.set_item(
            STORAGE_KEY,
            &serde_json::to_string(saved).expect("a plan serializes"),
        );
    }
}

/// The first tour step item `item` shows (0-based).
fn first_step(item: &Item) -> usize {
    item.steps.first().map_or(0, |s| s - 1)
}

/// The last tour step item `item` shows (0-based), in a tour of `n` steps.
fn last_step(item: &Item, n: usize) -> usize {
    item.steps.last().map_or(n.saturating_sub(1), |s| s - 1)
}

/// Properties of [`PlanPanel`].
#[derive(Properties, PartialEq)]
pub struct PlanProps {
    /// The lesson tools' state (the tour).
    pub lessons: Lessons,
    /// The lesson on stage.
    pub lesson: AttrValue,
    /// Sends playback actions (opening a lesson).
    pub dispatch: Callback<Action>,
    /// When the lecture's clock started (ms since the epoch).
    pub started: f64,
    /// Whether the projector's window is linked (a resumed plan waits for it).
    pub connected: bool,
    /// How often the projector's clicker went past the tour's last step
    /// ([`crate::presenter::sync::Link::advance`]).
    #[prop_or_default]
    pub advance: u32,
}

/// What the plan wants on stage: a lesson, the tour step to show there, and
/// whether that lesson was asked for already.
type Wanted = Rc<RefCell<Option<(String, Option<usize>, bool)>>>;

/// Opens the lesson the plan wants once the windows are linked (or the page has
/// settled), then shows its tour step once its run is here.
#[hook]
fn use_open_wanted(want: &Wanted, props: &PlanProps) {
    let mounted = use_state(js_sys::Date::now);
    {
        let want = want.clone();
        let lessons = props.lessons.clone();
        let (lesson, dispatch) = (props.lesson.to_string(), props.dispatch.clone());
        let ready = props.connected || js_sys::Date::now() - *mounted > 1_500.0;
        use_effect(move || {
            let mut w = want.borrow_mut();
            if let (true, Some((l, step, opened))) = (ready, w.as_mut()) {
                if *l != lesson {
                    if !*opened {
                        *opened = true;
                        crate::data::open_lesson(l.clone(), dispatch);
                    }
                } else if lessons.positions.is_some() {
                    if let Some(step) = *step {
                        // After every effect of this render: the one that ends
                        // a tour when its run changes runs after this one.
                        let go = lessons.go.clone();
                        gloo::timers::callback::Timeout::new(0, move || go.emit(step)).forget();
                    }
                    *w = None;
                }
            }
        });
    }
}

/// Keeps where the class is (the plan's lesson and its tour step) as it moves.
#[hook]
fn use_keep_place(saved: &UseStateHandle<Option<Saved>>, props: &PlanProps) {
    {
        let saved = saved.clone();
        let tour_step = props.lessons.showing.map(|s| s.step);
        let lesson = props.lesson.to_string();
        use_effect_with(
            (tour_step, lesson, (*saved).clone()),
            move |(step, lesson, s)| {
                if let Some(s) = s {
                    let on_plan = s.plan.items.get(s.at).is_some_and(|i| i.lesson == *lesson);
                    let next = Saved {
                        tour_step: if on_plan { *step } else { s.tour_step },
                        ..s.clone()
                    };
                    store(&next);
                }
            },
        );
    }
}

/// A chosen plan file read and set: the input's handler, and why the last file
/// chosen was refused (naming the field).
#[hook]
fn use_import(set_plan: &Callback<Plan>) -> (Callback<Event>, Option<String>) {
    let import_error = use_state_eq(|| None::<String>);
    let import = {
        let (set_plan, import_error) = (set_plan.clone(), import_error.clone());
        Callback::from(move |e: Event| {
            let (set_plan, import_error) = (set_plan.clone(), import_error.clone());
            crate::document::read_chosen_file(
                &e,
                Callback::from(
                    move |(_, text): (String, Result<String, crate::document::NotText>)| match text
                        .map_err(|e| e.to_string())
                        .and_then(|t| Plan::parse(&t).map_err(|e| e.to_string()))
                    {
                        Ok(p) => {
                            import_error.set(None);
                            set_plan.emit(p);
                        }
                        Err(e) => import_error.set(Some(e)),
                    },
                ),
            );
        })
    };
    (import, (*import_error).clone())
}

/// Downloads the plan as `class-plan.json`.
fn export_plan(saved: &UseStateHandle<Option<Saved>>) -> Callback<MouseEvent> {
    let saved = saved.clone();
    Callback::from(move |_: MouseEvent| {
        if let Some(s) = &*saved {
            let _ =
                crate::document::download("class-plan.json", &s.plan.to_json(), "application/json");
        }
    })
}

/// Picking a ready-made plan (or the lecturer's own, empty) in the chooser.
fn choose_ready(
    set_plan: &Callback<Plan>,
    ready: &[plan::ReadyPlan],
    lang: Lang,
) -> Callback<Event> {
    let (set_plan, ready) = (set_plan.clone(), ready.to_vec());
    Callback::from(move |e: Event| {
        let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
        match select.value().as_str() {
            "" => {}
            "own" => set_plan.emit(Plan {
                title: String::new(),
                items: Vec::new(),
            }),
            id => {
                if let Some(p) = ready.iter().find(|p| p.id == id) {
                    set_plan.emit(p.plan(lang));
                }
            }
        }
    })
}

/// Adds the lesson on stage to the plan, five minutes for it.
fn add_lesson(edit: &Callback<Edit>, lesson: &AttrValue) -> Callback<MouseEvent> {
    let (edit, lesson) = (edit.clone(), lesson.to_string());
    Callback::from(move |_: MouseEvent| {
        let lesson = lesson.clone();
        edit.emit(Box::new(move |p: &mut Plan| {
            if p.items.len() < plan::MAX_ITEMS {
                p.items.push(Item {
                    lesson: lesson.clone(),
                    minutes: 5,
                    steps: Vec::new(),
                });
            }
        }));
    })
}

/// The class-plan panel; see the module documentation.
#[component]
pub fn PlanPanel(props: &PlanProps) -> Html {
    let lang = use_lang().lang;
    let link_error = use_state_eq(|| {
        crate::document::query_param(PARAM).and_then(|v| plan::decode_link(&v).err())
    });
    // A plan link wins over the kept plan (and replaces it once anything moves).
    let saved =
        use_state_eq(
            || match crate::document::query_param(PARAM).map(|v| plan::decode_link(&v)) {
                Some(Ok(plan)) => Some(Saved {
                    plan,
                    at: 0,
                    tour_step: None,
                }),
                _ => load_saved(),
            },
        );
    // A lesson to open and the tour step to show there once its run is here.
    let want = use_mut_ref(|| {
        saved
            .as_ref()
            .and_then(|s| Some((s.plan.items.get(s.at)?.lesson.clone(), s.tour_step, false)))
    });
    use_open_wanted(&want, props);
    use_keep_place(&saved, props);
    let go_to = {
        let (saved, want) = (saved.clone(), want.clone());
        Callback::from(move |at: usize| {
            let Some(s) = (*saved).clone() else { return };
            let Some(item) = s.plan.items.get(at) else {
                return;
            };
            *want.borrow_mut() = Some((item.lesson.clone(), Some(first_step(item)), false));
            let next = Saved {
                at,
                tour_step: Some(first_step(item)),
                ..s
            };
            store(&next);
            saved.set(Some(next));
        })
    };
    use_advance_keys(
        &props.lessons,
        (*saved).clone(),
        go_to.clone(),
        props.advance,
    );
    let set_plan = {
        let saved = saved.clone();
        Callback::from(move |plan: Plan| {
            let next = Saved {
                plan,
                at: 0,
                tour_step: None,
            };
            store(&next);
            saved.set(Some(next));
        })
    };
    let ready: Vec<plan::ReadyPlan> = PLANS.get().cloned().unwrap_or_default();
    let on_choose = choose_ready(&set_plan, &ready, lang);
    let edit = {
        let saved = saved.clone();
        Callback::from(move |f: Edit| {
            // Editing without a plan starts the lecturer's own.
            let mut s = (*saved).clone().unwrap_or_default();
            f(&mut s.plan);
            s.at = s.at.min(s.plan.items.len().saturating_sub(1));
            store(&s);
            saved.set(Some(s));
        })
    };
    let add_current = add_lesson(&edit, &props.lesson);
    let export = export_plan(&saved);
    let (import, import_error) = use_import(&set_plan);
    let link = saved.as_ref().and_then(|s| {
        (!s.plan.items.is_empty()).then(|| {
            let base = crate::components::qr_dialog::page_base();
            format!("{base}?{PARAM}={}", plan::encode_link(&s.plan))
        })
    });
    let elapsed = js_sys::Date::now() - props.started;
    html! {
        <div class="plan" id="plan">
            <h2>{ label("plan", lang) }</h2>
            <label class="plan__choose">
                <span class="visually-hidden">{ label("plan_choose", lang) }</span>
                <select id="plan-choose" onchange={on_choose}>
                    <option value="" selected=true>{ label("plan_choose", lang) }</option>
                    { for ready.iter().map(|p| html! { <option value={p.id.clone()}>{ lang.loc(&p.title).to_string() }</option> }) }
                    <option value="own">{ label("plan_own", lang) }</option>
                </select>
            </label>
            if let Some(e) = &*link_error {
                <p class="plan__error" role="alert" id="plan-link-error">{ e.to_string() }</p>
            }
            if let Some(e) = &import_error {
                <p class="plan__error" role="alert" id="plan-import-error">{ e.clone() }</p>
            }
            if let Some(s) = &*saved {
                { plan_body(s, props, lang, elapsed, &go_to, &edit) }
            }
            <div class="plan__tools">
                <button type="button" class="text-button" id="plan-add" onclick={add_current}>{ label("plan_add", lang) }</button>
                <button type="button" class="text-button" id="plan-export" disabled={saved.as_ref().is_none_or(|s| s.plan.items.is_empty())} onclick={export}>{ label("plan_export", lang) }</button>
                <label class="text-button">
                    { label("plan_import", lang) }
                    <input type="file" accept="application/json,.json" id="plan-import" class="visually-hidden" onchange={import} />
                </label>
            </div>
            if let Some(link) = link {
                <p class="plan__link"><span>{ label("plan_link", lang) }</span>{ " " }
                    <a id="plan-link" href={link.clone()}>{ link }</a></p>
            }
        </div>
    }
}

/// The plan's lessons, the current one marked, with the time standing.
fn plan_body(
    s: &Saved,
    props: &PlanProps,
    lang: Lang,
    elapsed: f64,
    go_to: &Callback<usize>,
    edit: &Callback<Edit>,
) -> Html {
    let titles = crate::data::lesson_titles();
    let title = |lesson: &str| {
        titles
            .iter()
            .find(|(n, _)| *n == lesson)
            .and_then(|(_, t)| t.as_ref())
            .map_or_else(|| lesson.to_string(), |t| lang.loc(t).to_string())
    };
    let standing = (!s.plan.items.is_empty()).then(|| plan::standing(&s.plan, s.at, elapsed));
    let n = s.plan.items.len();
    let next = s.plan.items.get(s.at + 1);
    html! {
        <>
            if let Some(st) = standing {
                <p class={classes!("plan__standing", (st.ahead_min < 0).then_some("plan__standing--behind"))} id="plan-standing">
                    { label(if st.ahead_min < 0 { "plan_behind" } else { "plan_ahead" }, lang).replace("{m}", &st.ahead_min.abs().to_string()) }
                    { " · " }
                    { label("plan_total", lang).replace("{m}", &s.plan.minutes().to_string()) }
                </p>
            }
            if let Some(next) = next {
                <p class="plan__next" id="plan-next">
                    <button type="button" class="text-button text-button--primary" id="plan-next-button"
                            onclick={go_to.reform({ let at = s.at + 1; move |_: MouseEvent| at })}>
                        { label("plan_next", lang) }{ " → " }{ title(&next.lesson) }
                    </button>
                </p>
            }
            <ol class="plan__items" id="plan-items">
                { for s.plan.items.iter().enumerate().map(|(i, item)| {
                    let here = i == s.at && item.lesson == props.lesson.as_str();
                    let minutes = {
                        let edit = edit.clone();
                        Callback::from(move |e: Event| {
                            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                            if let Ok(m) = input.value().trim().parse::<u32>() {
                                let m = m.clamp(1, plan::MAX_MINUTES);
                                edit.emit(Box::new(move |p: &mut Plan| p.items[i].minutes = m));
                            }
                        })
                    };
                    let up = edit.reform(move |_: MouseEvent| Box::new(move |p: &mut Plan| if i > 0 { p.items.swap(i - 1, i) }) as Edit);
                    let down = edit.reform(move |_: MouseEvent| Box::new(move |p: &mut Plan| if i + 1 < p.items.len() { p.items.swap(i, i + 1) }) as Edit);
                    let remove = edit.reform(move |_: MouseEvent| Box::new(move |p: &mut Plan| { p.items.remove(i); }) as Edit);
                    let steps = (!item.steps.is_empty()).then(|| {
                        let list: Vec<String> = item.steps.iter().map(|s| s.to_string()).collect();
                        label("plan_steps", lang).replace("{steps}", &list.join(", "))
                    });
                    html! {
                        <li class={classes!("plan__item", here.then_some("plan__item--here"))} data-lesson={item.lesson.clone()}
                            aria-current={here.then_some("step")}>
                            <button type="button" class="text-button plan__go" onclick={go_to.reform(move |_: MouseEvent| i)}>{ title(&item.lesson) }</button>
                            if let Some(steps) = steps { <span class="plan__steps">{ steps }</span> }
                            <input type="number" class="plan__minutes" min="1" max={plan::MAX_MINUTES.to_string()} value={item.minutes.to_string()}
                                   aria-label={label("plan_minutes", lang)} onchange={minutes} />
                            <button type="button" class="icon-button" aria-label={label("plan_up", lang)} title={label("plan_up", lang)} disabled={i == 0} onclick={up}>{ "↑" }</button>
                            <button type="button" class="icon-button" aria-label={label("plan_down", lang)} title={label("plan_down", lang)} disabled={i + 1 >= n} onclick={down}>{ "↓" }</button>
                            <button type="button" class="icon-button" aria-label={label("plan_remove", lang)} title={label("plan_remove", lang)} onclick={remove}>{ "✕" }</button>
                        </li>
                    }
                }) }
            </ol>
        </>
    }
}

/// → / PageDown past the last step of the current lesson's tour opens the
/// plan's next lesson — in this window, or in the projector's (its clicker's
/// `advance` count). Registered once, before the tour's own listener (which is
/// registered anew at every step), so it sees the key first.
#[hook]
fn use_advance_keys(lessons: &Lessons, saved: Option<Saved>, go_to: Callback<usize>, advance: u32) {
    let latest = use_mut_ref(|| Latest::None);
    *latest.borrow_mut() = Some((
        lessons.showing.map(|s| s.step),
        lessons.steps(),
        saved,
        go_to,
    ));
    {
        let latest = latest.clone();
        use_effect_with(advance, move |advance| {
            if *advance > 0 {
                if let Some((next, go_to)) = next_item(&latest.borrow()) {
                    go_to.emit(next);
                }
            }
        });
    }
    use_effect_with((), move |_| {
        let latest: Rc<RefCell<_>> = latest;
        let listener = web_sys::window().map(|w| {
            EventListener::new_with_options(
                &w,
                "keydown",
                EventListenerOptions {
                    phase: EventListenerPhase::Capture,
                    passive: false,
                },
                move |e| {
                    let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                        return;
                    };
                    if !matches!(e.key().as_str(), "ArrowRight" | "PageDown") {
                        return;
                    }
                    if let Some((next, go_to)) = next_item(&latest.borrow()) {
                        e.prevent_default();
                        e.stop_immediate_propagation();
                        go_to.emit(next);
                    }
                },
            )
        });
        move || drop(listener)
    });
}

type Latest = Option<(Option<usize>, usize, Option<Saved>, Callback<usize>)>;

/// The plan's next item when the tour shows its lesson's last planned step.
fn next_item(latest: &Latest) -> Option<(usize, Callback<usize>)> {
    let (Some(step), n, Some(s), go_to) = latest.as_ref()? else {
        return None;
    };
    let item = s.plan.items.get(s.at)?;
    (*step >= last_step(item, *n) && s.at + 1 < s.plan.items.len())
        .then(|| (s.at + 1, go_to.clone()))
}
