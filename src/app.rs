//! The root component: the page's layout, its playback reducers and its keys.
//!
//! [`App`] owns the interface language (it starts from [`document::initial_lang`]
//! and, whenever it changes, an effect brings the document along) and the one
//! playback reducer ([`State`]). Components read the language through
//! [`crate::hooks::use_lang`]; they receive views and send [`Action`]s, never
//! touching the engine's `World`.
//!
//! # Layout (presentation first)
//! The top bar; then the stage (the job graph with its coordinator strip) with,
//! under it, the caption bar (the latest narration), the transport bar and the
//! legend; beside them the side panel, a rail of tabs that opens into a drawer
//! (the tour card, a subtask's state, the glossary, the editor, the tabs'
//! panels) which narrows the stage instead of covering it.
//!
//! The twin view is a second playback reducer that runs the same scenario and
//! seed under the other mode ([`Mode::twin`]); it never plays on its own but
//! follows the main run's display time ([`Action::Follow`]), and the main run's
//! interventions are sent to it too. A lesson with a pair ([`pair::partners`])
//! can put its partner in the twin stage instead: the other lesson under the same
//! seed, with the difference in committed output shown below ([`PairDiff`]).
//!
//! While playing, a request-animation-frame loop ([`use_frame_loop`]) sends
//! [`Action::Tick`] with the real time that passed. The key map is one
//! `keydown` listener on the document (listed in the `?` overlay): Space plays,
//! ← / → step, PageDown / PageUp jump between key moments, `.` and `b` pause —
//! inside a tour the tour's own listener turns its steps instead.

use std::cell::Cell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::compare::{self, ChartToggle, CompareChart};
use crate::components::side_panel::Drawer;
use crate::components::{
    CaptionBar, KeyGroupStrips, Legend, QrDialog, ShortcutsOverlay, SidePanel, Stage, TopBar,
    Transport,
};
use crate::document;
use crate::hooks::lessons::LessonsInput;
use crate::hooks::{use_frame_loop, use_lessons, LangContext};
use crate::i18n::Lang;
use crate::labels;
use crate::lessons::{pair, LessonNotices, PairDiff};
use crate::playback::{Action, Mode, State, SPEEDS};
use crate::scene::layout::PROJECTOR_ZOOM;
use crate::share;

/// Properties of [`Lab`].
#[derive(Properties, Clone, PartialEq, Default)]
pub struct LabProps {
    /// Receives the playback dispatcher once mounted: browser tests drive time
    /// with it (`Action::Tick`) instead of sleeping.
    #[prop_or_default]
    pub on_ready: Option<Callback<UseReducerDispatcher<State>>>,
}

/// The whole page with default properties (what `main.rs` renders).
#[component]
pub fn App() -> Html {
    html! { <Lab /> }
}

/// Whether a key pressed in `target` belongs to that element rather than to the
/// page's shortcuts (typing, choosing, a tab list's arrows, a button's Space).
fn key_belongs_to_target(target: Option<web_sys::EventTarget>, key: &str) -> bool {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return false;
    };
    let tag = el.tag_name().to_ascii_uppercase();
    match tag.as_str() {
        "INPUT" | "SELECT" | "TEXTAREA" => true,
        "BUTTON" => {
            key == " "
                || key == "Enter"
                || (el.get_attribute("role").as_deref() == Some("tab") && key.starts_with("Arrow"))
        }
        _ => false,
    }
}

/// The page; see the module documentation.
#[component]
pub fn Lab(props: &LabProps) -> Html {
    // The palette's colours as the stylesheet's custom properties, before the
    // first paint.
    let _ = use_state(document::install_palette);
    // Text widths in the page's real fonts, before the first layout.
    let _ = use_state(document::install_text_measure);
    let lang = use_state_eq(document::initial_lang);
    use_effect_with(*lang, |lang| document::apply_lang(*lang));
    let set_lang = {
        let setter = lang.setter();
        use_callback((), move |next: Lang, _: &()| setter.set(next))
    };
    let context = LangContext {
        lang: *lang,
        set_lang,
    };

    // Share links: the learner's interventions, and why a link failed.
    let log = (*use_state(share::Log::default)).clone();
    let link_error = use_mut_ref(|| None::<String>);
    let playback = use_reducer(|| {
        // `#lab=…` holds a whole run recipe and wins over the query parameters.
        match share::location_recipe().map(|r| r.and_then(|r| share::restore(&r).map(|s| (s, r)))) {
            Some(Ok((state, recipe))) => {
                log.reset(recipe.interventions);
                return state;
            }
            Some(Err(why)) => *link_error.borrow_mut() = Some(why),
            None => {}
        }
        let scenario = document::query_param("scenario");
        let seed = document::query_param("seed").and_then(|s| s.parse().ok());
        let mut state = State::new(scenario.as_deref(), seed);
        // A link can name a moment: `?mode=unaligned&t=1200` or `&step=925`.
        if let Some(mode) = document::query_param("mode")
            .as_deref()
            .and_then(Mode::from_key)
        {
            state = state.apply(Action::SetMode(mode));
        }
        if let Some(t) = document::query_param("t").and_then(|t| t.parse().ok()) {
            state = state.apply(Action::SeekTime(t));
        }
        if let Some(step) = document::query_param("step").and_then(|s| s.parse().ok()) {
            state = state.apply(Action::SeekStep(step));
        }
        // The first lesson's data could not be loaded: say which file.
        if let Some(why) = crate::data::take_boot_error() {
            state = state.apply(Action::Fail(why));
        }
        state
    });
    let dispatcher = playback.dispatcher();
    {
        let on_ready = props.on_ready.clone();
        let d = dispatcher.clone();
        use_effect_with((), move |_| {
            if let Some(cb) = on_ready {
                cb.emit(d);
            }
        });
    }
    {
        let d = dispatcher.clone();
        let on_frame = use_callback((), move |dt: f64, _: &()| d.dispatch(Action::Tick(dt)));
        use_frame_loop(playback.is_playing, on_frame);
    }

    // The twin view: the same scenario and seed under the other mode, following
    // the main run's clock (it never plays on its own).
    let is_twin = use_state_eq(|| document::query_param("twin").is_some_and(|v| v == "1"));
    // A lesson pair: the partner lesson in the twin stage (only while it is a
    // partner of the main run's scenario).
    let pair_choice = use_state_eq(|| None::<AttrValue>);
    let partner = (*pair_choice)
        .clone()
        .filter(|p| pair::partners(&playback.scenario).contains(&p.as_str()));
    let twin = use_reducer(State::idle);
    let twin_dispatcher = twin.dispatcher();
    {
        let d = twin_dispatcher.clone();
        let deps = (
            *is_twin && playback.mode != Mode::Off,
            playback.scenario.clone(),
            playback.seed,
            playback.mode,
            partner.clone(),
        );
        let t = playback.display_t;
        use_effect_with(deps, move |(on, scenario, seed, mode, partner)| {
            if *on {
                d.dispatch(match partner {
                    // The partner as its lesson configures it, under the same seed.
                    Some(p) => Action::Load {
                        scenario: p.to_string(),
                        seed: *seed,
                        mode: Mode::Off,
                    },
                    None => Action::Load {
                        scenario: scenario.clone(),
                        seed: *seed,
                        mode: mode.twin(),
                    },
                });
                d.dispatch(Action::Follow(t));
            }
        });
    }
    {
        let d = twin_dispatcher.clone();
        let deps = (*is_twin, playback.display_t.to_bits(), playback.step());
        let t = playback.display_t;
        use_effect_with(deps, move |(on, _, _)| {
            if *on {
                d.dispatch(Action::Follow(t));
            }
        });
    }
    let toggle_twin = {
        let is_twin = is_twin.clone();
        let pair_choice = pair_choice.setter();
        use_callback(*is_twin, move |_: (), on: &bool| {
            pair_choice.set(None);
            is_twin.set(!*on)
        })
    };
    let on_compare = {
        let is_twin = is_twin.setter();
        let pair_choice = pair_choice.setter();
        use_callback((), move |p: Option<AttrValue>, _: &()| {
            is_twin.set(p.is_some());
            pair_choice.set(p);
        })
    };
    // The main run's display time, for interventions mirrored into the twin.
    let main_t = use_mut_ref(|| 0.0_f64);
    *main_t.borrow_mut() = playback.display_t;
    let reduced_motion = use_state(document::prefers_reduced_motion);
    // The comparison chart: open with a lesson pair (the chart is its point),
    // folded in the plain twin view so both graphs keep the stage's height;
    // its button decides after that.
    let chart_choice = use_state_eq(|| None::<bool>);
    let chart_open = chart_choice.unwrap_or(partner.is_some());
    let qr_open = use_state_eq(|| false);
    let on_qr = {
        let setter = qr_open.setter();
        use_callback((), move |_: (), _: &()| setter.set(true))
    };
    let close_qr = {
        let setter = qr_open.setter();
        use_callback((), move |_: (), _: &()| setter.set(false))
    };
    let strips_open = use_state_eq(|| document::query_param("strips").is_some_and(|v| v == "1"));
    let on_strips = {
        let setter = strips_open.setter();
        use_callback((), move |on: bool, _: &()| setter.set(on))
    };
    let on_chart = {
        let setter = chart_choice.setter();
        use_callback((), move |on: bool, _: &()| setter.set(Some(on)))
    };
    let help_open = use_state_eq(|| false);
    let projector = use_state_eq(|| document::query_param("projector").is_some_and(|v| v == "1"));
    use_effect_with(*projector, |on| {
        document::apply_projector(*on);
        || document::apply_projector(false)
    });
    let toggle_projector = {
        let projector = projector.clone();
        use_callback(*projector, move |_: (), on: &bool| projector.set(!*on))
    };

    // The side panel's drawer (closed: a rail of tabs).
    let drawer = use_state_eq(|| None::<Drawer>);
    let on_drawer = {
        let drawer = drawer.setter();
        use_callback((), move |d: Option<Drawer>, _: &()| drawer.set(d))
    };
    let show = |view: Drawer| {
        let drawer = drawer.clone();
        Callback::from(move |on: bool| {
            drawer.set(if on {
                Some(view)
            } else if *drawer == Some(view) {
                None
            } else {
                *drawer
            })
        })
    };
    let on_select_task = {
        let drawer = drawer.clone();
        Callback::from(move |task: usize| {
            drawer.set(if *drawer == Some(Drawer::Task(task)) {
                None
            } else {
                Some(Drawer::Task(task))
            })
        })
    };

    // The cursor's step, for logging interventions (see `dispatch` below).
    let step_now = use_mut_ref(|| 0u64);
    *step_now.borrow_mut() = playback.step();
    // A crash, a manual checkpoint or a savepoint happens in both runs of a twin
    // view, at the same moment.
    let dispatch = {
        let d = dispatcher.clone();
        let twin_d = twin_dispatcher.clone();
        let main_t = main_t.clone();
        let (log, step_now) = (log.clone(), step_now.clone());
        use_callback(*is_twin, move |a: Action, on: &bool| {
            log.note(&a, *step_now.borrow());
            if *on {
                if let Action::Intervene(i) = &a {
                    twin_d.dispatch(Action::Follow(*main_t.borrow()));
                    twin_d.dispatch(Action::Intervene(i.clone()));
                }
            }
            d.dispatch(a)
        })
    };
    let lessons = use_lessons(LessonsInput {
        playback: playback.clone(),
        dispatch: dispatch.clone(),
        log: log.clone(),
        link_error: link_error.borrow().clone(),
        lang: *lang,
        show_glossary: show(Drawer::Glossary),
        show_editor: show(Drawer::Editor),
    });

    // Auto-pause at key moments: the viewer's choice, else on inside a tour.
    let auto_pause_choice = use_state_eq(|| None::<bool>);
    let auto_pause = auto_pause_choice.unwrap_or(lessons.showing.is_some());
    {
        let d = dispatcher.clone();
        use_effect_with(auto_pause, move |on| d.dispatch(Action::SetAutoPause(*on)));
    }
    let on_auto_pause = {
        let choice = auto_pause_choice.setter();
        Callback::from(move |on: bool| choice.set(Some(on)))
    };

    // The key map: its actions go through the same dispatch as the buttons', so
    // `c` checkpoints both runs of a twin view as the toolbar's button does.
    {
        let d = dispatch.clone();
        let help = help_open.setter();
        let help_now = Rc::new(Cell::new(*help_open));
        let speed = Rc::new(Cell::new(playback.speed));
        let deps = (*help_open, playback.speed, dispatch.clone());
        use_effect_with(deps, move |_| {
            let listener = web_sys::window().and_then(|w| w.document()).map(|doc| {
                EventListener::new_with_options(
                    &doc,
                    "keydown",
                    EventListenerOptions::enable_prevent_default(),
                    move |e| {
                        let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                            return;
                        };
                        if e.ctrl_key() || e.meta_key() || e.alt_key() {
                            return;
                        }
                        let key = e.key();
                        if key_belongs_to_target(e.target(), &key) {
                            return;
                        }
                        let action = match key.as_str() {
                            " " | "k" => Some(Action::TogglePlay),
                            "ArrowRight" | "l" => Some(Action::StepForward),
                            "ArrowLeft" | "j" => Some(Action::StepBack),
                            "PageDown" => Some(Action::NextMoment),
                            "PageUp" => Some(Action::PrevMoment),
                            // A clicker's "blank screen" keys.
                            "." | "b" | "B" => Some(Action::Pause),
                            "-" | "_" => Some(Action::SetSpeed(speed.get().saturating_sub(1))),
                            "+" | "=" => {
                                Some(Action::SetSpeed((speed.get() + 1).min(SPEEDS.len() - 1)))
                            }
                            "c" => Some(Action::Intervene(engine::Intervention::TriggerCheckpoint)),
                            "?" => {
                                help.set(!help_now.get());
                                None
                            }
                            "Escape" => {
                                help.set(false);
                                None
                            }
                            _ => return,
                        };
                        e.prevent_default();
                        if let Some(a) = action {
                            d.emit(a);
                        }
                    },
                )
            });
            move || drop(listener)
        });
    }

    // A control clicked with a pointer hands the keyboard back to the stage, so
    // Space plays or pauses after a click on a checkbox or button; a keyboard
    // user's activation (a click event with `detail` 0) keeps its focus, and
    // Space with it, as accessibility requires.
    use_effect_with((), |_| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|doc| {
            EventListener::new(&doc, "click", |e| {
                let Some(e) = e.dyn_ref::<web_sys::MouseEvent>() else {
                    return;
                };
                let Some(target) = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                else {
                    return;
                };
                if e.detail() == 0 {
                    return;
                }
                // After the click's own default action (a label focuses its input).
                gloo::timers::callback::Timeout::new(0, move || {
                    document::release_pointer_focus(&target)
                })
                .forget();
            })
        });
        move || drop(listener)
    });

    let twin_dispatch = {
        let d = twin_dispatcher.clone();
        use_callback((), move |a: Action, _: &()| d.dispatch(a))
    };
    let toggle_help = {
        let help = help_open.clone();
        use_callback(*help_open, move |_: (), open: &bool| help.set(!*open))
    };
    let close_help = {
        let help = help_open.setter();
        use_callback((), move |_: (), _: &()| help.set(false))
    };

    let t = if *reduced_motion {
        playback.view.as_ref().map_or(0.0, |v| v.now as f64)
    } else {
        playback.display_t
    };

    let show_twin = *is_twin && playback.mode != Mode::Off;
    let lang_now = context.lang;
    // A stage's caption in the twin view: its mode, and its lesson in a pair.
    let caption = |s: &State| -> AttrValue {
        let mode = labels::mode(lang_now, s.mode);
        if partner.is_some() {
            AttrValue::from(format!("{} · {mode}", s.scenario))
        } else {
            AttrValue::from(mode)
        }
    };
    let twin_t = if *reduced_motion {
        twin.view.as_ref().map_or(0.0, |v| v.now as f64)
    } else {
        twin.display_t
    };
    let zoom = if *projector { PROJECTOR_ZOOM } else { 1.0 };
    let selected = match *drawer {
        Some(Drawer::Task(task)) => Some(task),
        _ => None,
    };
    let run_id = playback.job.as_ref().map_or(0, |j| Rc::as_ptr(j) as usize);
    let doc = use_memo(run_id, {
        let playback = playback.clone();
        move |_| {
            playback
                .with_scenario(|s| Rc::new(serde_json::to_value(s).expect("a scenario serializes")))
        }
    });
    let comparing = show_twin.then(|| partner.clone()).flatten();
    // A job restored from an earlier job's snapshot: who owns which key groups
    // and partitions, before and after.
    let rescale = use_memo(run_id, {
        let playback = playback.clone();
        move |_| {
            playback
                .with_scenario(|s| engine::view::key_groups::rescale(s, playback.seed))
                .flatten()
                .map(Rc::new)
        }
    });
    // The comparison chart under the twin stages: a lesson pair's, or
    // aligned vs unaligned.
    let chart_kind = show_twin
        .then(|| match &partner {
            Some(_) => compare::model::pair_kind(&playback.scenario),
            None => compare::model::twin_kind(playback.mode, twin.mode),
        })
        .flatten();
    let chart_runs = |a: &State, b: &State| {
        [a, b]
            .iter()
            .map(|s| compare::chart::ChartRun {
                name: caption(s),
                scenario: AttrValue::from(s.scenario.clone()),
                view: s.view.clone(),
            })
            .collect::<Vec<_>>()
    };
    let drawer_open = drawer.is_some() || lessons.showing.is_some();
    // The QR dialog's links, at the page's own origin.
    let qr_links: (Option<AttrValue>, AttrValue, bool) = if *qr_open {
        let base = crate::components::qr_dialog::page_base();
        let short =
            crate::components::qr_dialog::short_params(&playback).map(|(s, seed, mode, step)| {
                AttrValue::from(share::qr::short_link(
                    &base,
                    &s,
                    seed,
                    mode,
                    step,
                    lang_now.code(),
                ))
            });
        let interventions = log.get();
        let full = share::recipe_of(&playback, &interventions)
            .map(|r| format!("{base}{}", share::encode(&r)))
            .unwrap_or_else(|| base.clone());
        (short, AttrValue::from(full), !interventions.is_empty())
    } else {
        (None, AttrValue::default(), false)
    };

    html! {
        <ContextProvider<LangContext> {context}>
            <div class={classes!("app", drawer_open.then_some("app--drawer"), show_twin.then_some("app--twin"))}>
                <TopBar playback={playback.clone()} dispatch={dispatch.clone()} lessons={lessons.clone()}
                        comparing={comparing.clone()} on_compare={on_compare.clone()}
                        is_twin={*is_twin} on_twin={toggle_twin}
                        is_projector={*projector} on_projector={toggle_projector} on_help={toggle_help}
                        glossary_open={*drawer == Some(Drawer::Glossary)} editor_open={*drawer == Some(Drawer::Editor)}
                        on_qr={on_qr} />
                <main class={classes!("workspace", show_twin.then_some("workspace--twin"))}>
                    <div class="show">
                        <div class="stages">
                            <Stage job={playback.job.clone()} view={playback.view.clone()} {t}
                                   dispatch={dispatch.clone()} error={playback.error.clone()}
                                   caption={show_twin.then(|| caption(&playback))}
                                   {selected} on_select={on_select_task} {zoom}
                                   restart={playback.with_scenario(|s| s.effective_restart())} />
                            if show_twin {
                                <Stage job={twin.job.clone()} view={twin.view.clone()} t={twin_t}
                                       dispatch={twin_dispatch} error={twin.error.clone()}
                                       caption={caption(&twin)} {zoom}
                                       restart={twin.with_scenario(|s| s.effective_restart())} />
                            }
                        </div>
                        <CaptionBar recent={playback.recent.clone()} moment={playback.moment}
                                    is_auto_paused={playback.paused_at.is_some()} is_hurrying={playback.is_hurrying && playback.is_playing}>
                            <LessonNotices lessons={lessons.clone()} />
                            if let (true, Some(other)) = (show_twin, &partner) {
                                <PairDiff this_name={AttrValue::from(playback.scenario.clone())} other_name={other.clone()}
                                          this={playback.view.clone()} other={twin.view.clone()}
                                          this_reference={playback.reference.clone()} other_reference={twin.reference.clone()}
                                          on_stop={on_compare.reform(|_: ()| None)} />
                            }
                            if let (false, Some(r)) = (show_twin, (*rescale).clone()) {
                                <KeyGroupStrips rescale={r} open={*strips_open} on_toggle={on_strips.clone()} />
                            }
                            if let Some(kind) = chart_kind {
                                <ChartToggle open={chart_open} on_toggle={on_chart.clone()} />
                                if chart_open {
                                    <CompareChart {kind} runs={chart_runs(&playback, &twin)} seed={playback.seed} />
                                }
                            }
                        </CaptionBar>
                        <Transport playback={playback.clone()} dispatch={dispatch.clone()} {auto_pause} {on_auto_pause} />
                        if !show_twin && !drawer_open {
                            <Legend replaying={playback.view.as_ref().is_some_and(|v| crate::components::legend::replaying(v))} />
                        }
                    </div>
                    <SidePanel job={playback.job.clone()} view={playback.view.clone()}
                               reference={playback.reference.clone()}
                               recent={playback.recent.clone()}
                               description={playback.with_scenario(|s| s.description.clone()).flatten()}
                               dispatch={dispatch.clone()} drawer={*drawer} {on_drawer}
                               lessons={lessons.clone()} doc={(*doc).clone()}
                               show_legend={!show_twin && drawer_open}
                               seed={playback.seed} scenario={AttrValue::from(playback.scenario.clone())}
                               mode={AttrValue::from(labels::mode(lang_now, playback.mode))} />
                </main>
                if *help_open {
                    <ShortcutsOverlay on_close={close_help} />
                }
                if *qr_open {
                    <QrDialog short={qr_links.0.clone()} full={qr_links.1.clone()}
                              has_interventions={qr_links.2} on_close={close_qr} />
                }
            </div>
        </ContextProvider<LangContext>>
    }
}
