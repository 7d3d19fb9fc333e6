//! The root component: the page's layout, wiring the runs, the keyboard and the
//! viewer's display choices to the components.
//!
//! [`App`] owns the interface language (it starts from [`document::initial_lang`]
//! and, whenever it changes, an effect brings the document along). Components
//! read the language through [`crate::hooks::use_lang`]; they receive views and
//! send [`Action`](crate::playback::Action)s, never touching the engine's `World`.
//!
//! # Layout (presentation first)
//! The top bar; then the stage (the job graph with its coordinator strip) with,
//! under it, the caption bar (the latest narration), the transport bar and the
//! legend; beside them the side panel, a rail of tabs that opens into a drawer
//! (the tour card, a subtask's state, the glossary, the editor, the tabs'
//! panels) which narrows the stage instead of covering it. In the twin view a
//! second stage shows the twin run, and a comparison chart can open under both.
//!
//! # Modules
//! - [`runs`]: the main and twin playback reducers, and the one dispatch path
//!   every action takes ([`Runs::dispatch`]).
//! - [`keys`]: the key map and the focus a pointer click hands back.
//! - [`view_options`]: projector mode, overlays, the chart, the drawer, auto-pause.
//!
//! While playing, a request-animation-frame loop ([`crate::hooks::use_frame_loop`])
//! sends [`Action::Tick`](crate::playback::Action::Tick) with the real time that passed.

pub mod keys;
pub mod runs;
pub mod view_options;

use std::rc::Rc;

use engine::view::key_groups::RescaleView;

use yew::prelude::*;

use crate::compare::{self, ChartToggle, CompareChart};
use crate::components::side_panel::Drawer;
use crate::components::{
    CaptionBar, KeyGroupStrips, Legend, QrDialog, ShortcutsOverlay, SidePanel, Stage, TopBar,
    Transport,
};
use crate::document;
use crate::drill::pick::{PickSlot, StagePick};
use crate::hooks::lessons::LessonsInput;
use crate::hooks::{use_lessons, LangContext};
use crate::i18n::Lang;
use crate::labels;
use crate::lessons::{LessonNotices, PairDiff};
use crate::playback::State;
use crate::presenter;
use crate::scene::layout::PROJECTOR_ZOOM;
use crate::share;

use keys::{use_key_map, use_pointer_focus_release};
use runs::{use_runs, Runs};
use view_options::{use_auto_pause, use_drawer, use_view_options, ViewOptions};

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

/// The page; see the module documentation.
#[component]
pub fn Lab(props: &LabProps) -> Html {
    // The palette's colours as the stylesheet's custom properties, before the
    // first paint.
    let _ = use_state(document::install_palette);
    // Text widths in the page's real fonts, before the first layout.
    let _ = use_state(document::install_text_measure);
    let context = use_lang_context();
    let runs = use_runs(props.on_ready.clone());
    let view = use_view_options();
    let drawer = use_drawer();
    let lessons = use_lessons(LessonsInput {
        playback: runs.main.clone(),
        dispatch: runs.dispatch.clone(),
        log: runs.log.clone(),
        link_error: runs.link_error.clone(),
        lang: context.lang,
        show_glossary: drawer.show(Drawer::Glossary),
        show_editor: drawer.show(Drawer::Editor),
    });
    // Presenter hook: this window as the presenter window, or the projector's
    // view while one is open (src/presenter/).
    let is_presenter = *use_state(presenter::is_presenter_window);
    let link = presenter::sync::use_presenter_sync(
        is_presenter,
        &runs.main,
        &runs.dispatch,
        &runs.log,
        &lessons,
    );
    let projecting = !link.presenter && link.connected;
    // A live class, when a classroom server serves the page (src/classroom/).
    let live =
        crate::classroom::live::use_class(&runs.main, &runs.dispatch, &runs.log, &lessons, link);
    let (auto_pause, on_auto_pause) =
        use_auto_pause(runs.dispatch.clone(), lessons.showing.is_some());
    use_key_map(runs.dispatch.clone(), view.help.clone(), runs.main.speed);
    use_pointer_focus_release();
    let scenario = use_scenario_views(&runs.main);
    // An exercise answered by tapping records on the graph (see drill::pick).
    let pick: PickSlot = use_state_eq(|| None);

    let playback = &runs.main;
    let dispatch = &runs.dispatch;
    let show_twin = runs.show_twin();
    let drawer_open =
        drawer.open.is_some() || drawer.drill || (lessons.showing.is_some() && !projecting);
    let qr = view
        .qr_open
        .then(|| QrLinks::of(playback, &runs.log, context.lang));
    let lang_now = context.lang;
    if link.presenter {
        return presenter_page(
            context,
            &runs,
            &view,
            &drawer,
            &lessons,
            (link, live),
            (auto_pause, on_auto_pause),
        );
    }
    let counter = projecting
        .then(|| lessons.showing.map(|s| (s.step, lessons.steps())))
        .flatten();
    html! {
        <ContextProvider<LangContext> {context}>
          <ContextProvider<PickSlot> context={pick.clone()}>
          <ContextProvider<crate::classroom::live::Live> context={live.clone()}>
            <div class={classes!("app", drawer_open.then_some("app--drawer"), show_twin.then_some("app--twin"), projecting.then_some(presenter::projector::CLASS), (live.server && live.student).then_some("app--class"), live.student_voting().then_some("app--voting"))}>
                <TopBar playback={playback.clone()} dispatch={dispatch.clone()} lessons={lessons.clone()}
                        comparing={show_twin.then(|| runs.partner.clone()).flatten()} on_compare={runs.on_compare.clone()}
                        is_twin={runs.is_twin} on_twin={runs.toggle_twin.clone()}
                        is_projector={view.projector} on_projector={view.toggle_projector.clone()} on_help={view.toggle_help.clone()}
                        glossary_open={drawer.open == Some(Drawer::Glossary)} editor_open={drawer.open == Some(Drawer::Editor)}
                        on_qr={view.on_qr.clone()}
                        drill_open={drawer.drill} on_drill={drawer.on_drill.clone()} />
                <crate::classroom::view::ClassBar live={live.clone()} />
                <main class={classes!("workspace", show_twin.then_some("workspace--twin"))}>
                    <div class="show">
                        { stages(&runs, &view, &drawer, lang_now, StagePick::for_stage(&pick, &runs.main.scenario)) }
                        <CaptionBar recent={playback.recent.clone()} moment={playback.moment}
                                    is_auto_paused={playback.paused_at.is_some()} is_hurrying={playback.is_hurrying && playback.is_playing}>
                            <LessonNotices lessons={lessons.clone()} />
                            if let Some((step, of)) = counter {
                                <presenter::projector::StepCounter {step} {of} />
                            }
                            <crate::classroom::view::VotePanel live={live.clone()} tour={lessons.tour.clone()} />
                            { comparison(&runs, &view, (*scenario.rescale).clone(), lang_now) }
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
                               dispatch={dispatch.clone()} drawer={drawer.open} on_drawer={drawer.on_drawer.clone()} drill={drawer.drill}
                               lessons={lessons.clone()} doc={(*scenario.doc).clone()}
                               show_legend={!show_twin && drawer_open}
                               seed={playback.seed} scenario={AttrValue::from(playback.scenario.clone())}
                               mode={AttrValue::from(labels::mode(lang_now, playback.mode))}
                               hide_tour={projecting} />
                </main>
                if *view.help {
                    <ShortcutsOverlay on_close={view.close_help.clone()} />
                }
                if let Some(qr) = qr {
                    <QrDialog short={qr.short} full={qr.full}
                              has_interventions={qr.has_interventions} on_close={view.close_qr.clone()} />
                }
            </div>
          </ContextProvider<crate::classroom::live::Live>>
          </ContextProvider<PickSlot>>
        </ContextProvider<LangContext>>
    }
}

/// The presenter window's page: the presenter view around the page's own
/// stage, caption and transport.
fn presenter_page(
    context: LangContext,
    runs: &Runs,
    view: &ViewOptions,
    drawer: &view_options::DrawerState,
    lessons: &crate::hooks::lessons::Lessons,
    (link, live): (presenter::sync::Link, crate::classroom::live::Live),
    (auto_pause, on_auto_pause): (bool, Callback<bool>),
) -> Html {
    let playback = &runs.main;
    let stage = stages(runs, view, drawer, context.lang, None);
    let caption = html! {
        <CaptionBar recent={playback.recent.clone()} moment={playback.moment}
                    is_auto_paused={playback.paused_at.is_some()} is_hurrying={playback.is_hurrying && playback.is_playing} />
    };
    let transport = html! {
        <Transport playback={playback.clone()} dispatch={runs.dispatch.clone()} {auto_pause} {on_auto_pause} />
    };
    html! {
        <ContextProvider<LangContext> {context}>
            <presenter::view::PresenterView lessons={lessons.clone()} lesson={AttrValue::from(playback.scenario.clone())}
                                            dispatch={runs.dispatch.clone()} {stage} {caption} {transport} {link} {live} />
        </ContextProvider<LangContext>>
    }
}

/// The interface language, and an effect that brings the document along
/// whenever it changes.
#[hook]
fn use_lang_context() -> LangContext {
    let lang = use_state_eq(document::initial_lang);
    use_effect_with(*lang, |lang| document::apply_lang(*lang));
    let set_lang = {
        let setter = lang.setter();
        use_callback((), move |next: Lang, _: &()| setter.set(next))
    };
    LangContext {
        lang: *lang,
        set_lang,
    }
}

/// What the side panel and the caption bar show of the main run's scenario,
/// computed once per run.
struct ScenarioViews {
    /// The scenario as JSON (the editor's document).
    doc: Rc<Option<Rc<serde_json::Value>>>,
    /// A job restored from an earlier job's snapshot: who owns which key
    /// groups and partitions, before and after.
    rescale: Rc<Option<Rc<RescaleView>>>,
}

/// The main run's [`ScenarioViews`], recomputed when a new job is loaded.
#[hook]
fn use_scenario_views(playback: &UseReducerHandle<State>) -> ScenarioViews {
    let run_id = playback.job.as_ref().map_or(0, |j| Rc::as_ptr(j) as usize);
    let doc = use_memo(run_id, {
        let playback = playback.clone();
        move |_| {
            playback
                .with_scenario(|s| Rc::new(serde_json::to_value(s).expect("a scenario serializes")))
        }
    });
    let rescale = use_memo(run_id, {
        let playback = playback.clone();
        move |_| {
            playback
                .with_scenario(|s| engine::view::key_groups::rescale(s, playback.seed))
                .flatten()
                .map(Rc::new)
        }
    });
    ScenarioViews { doc, rescale }
}

/// The display time of `run` on stage: under reduced motion the cursor's own
/// moment, without the animation towards it.
fn stage_time(run: &State, reduced_motion: bool) -> f64 {
    if reduced_motion {
        run.view.as_ref().map_or(0.0, |v| v.now as f64)
    } else {
        run.display_t
    }
}

/// A stage's caption in the twin view: its mode, and its lesson in a pair.
fn stage_caption(run: &State, pair: bool, lang: Lang) -> AttrValue {
    let mode = labels::mode(lang, run.mode);
    if pair {
        AttrValue::from(format!("{} · {mode}", run.scenario))
    } else {
        AttrValue::from(mode)
    }
}

/// The main run's stage and, in the twin view, the twin run's beside it.
fn stages(
    runs: &Runs,
    view: &ViewOptions,
    drawer: &view_options::DrawerState,
    lang: Lang,
    pick: Option<&StagePick>,
) -> Html {
    let (main, twin) = (&runs.main, &runs.twin);
    let show_twin = runs.show_twin();
    let pair = runs.partner.is_some();
    let zoom = if view.projector { PROJECTOR_ZOOM } else { 1.0 };
    html! {
        <div class="stages">
            <Stage job={main.job.clone()} view={main.view.clone()} t={stage_time(main, view.reduced_motion)}
                   dispatch={runs.dispatch.clone()} error={main.error.clone()}
                   caption={show_twin.then(|| stage_caption(main, pair, lang))}
                   selected={drawer.selected_task()} on_select={drawer.select_task()} {zoom}
                   restart={main.with_scenario(|s| s.effective_restart())}
                   scenario={AttrValue::from(main.scenario.clone())} pick={pick.cloned()} />
            if show_twin {
                <Stage job={twin.job.clone()} view={twin.view.clone()} t={stage_time(twin, view.reduced_motion)}
                       dispatch={runs.twin_dispatch.clone()} error={twin.error.clone()}
                       caption={stage_caption(twin, pair, lang)} {zoom}
                       restart={twin.with_scenario(|s| s.effective_restart())}
                       scenario={AttrValue::from(twin.scenario.clone())} />
            }
        </div>
    }
}

/// Under the narration: a lesson pair's difference in committed output, or
/// (without a twin) the key-group strips of a rescaled job; then the twin
/// view's comparison chart.
fn comparison(
    runs: &Runs,
    view: &ViewOptions,
    rescale: Option<Rc<RescaleView>>,
    lang: Lang,
) -> Html {
    let (main, twin) = (&runs.main, &runs.twin);
    let show_twin = runs.show_twin();
    let partner = &runs.partner;
    // The comparison chart under the twin stages: a lesson pair's, or
    // aligned vs unaligned.
    let chart_kind = show_twin
        .then(|| match partner {
            Some(_) => compare::model::pair_kind(&main.scenario),
            None => compare::model::twin_kind(main.mode, twin.mode),
        })
        .flatten();
    let chart_open = view.chart_open(partner.is_some());
    let chart_runs = || {
        [main, twin]
            .iter()
            .map(|s| compare::chart::ChartRun {
                name: stage_caption(s, partner.is_some(), lang),
                scenario: AttrValue::from(s.scenario.clone()),
                view: s.view.clone(),
            })
            .collect::<Vec<_>>()
    };
    html! {
        <>
            if let (true, Some(other)) = (show_twin, partner) {
                <PairDiff this_name={AttrValue::from(main.scenario.clone())} other_name={other.clone()}
                          this={main.view.clone()} other={twin.view.clone()}
                          this_reference={main.reference.clone()} other_reference={twin.reference.clone()}
                          on_stop={runs.on_compare.reform(|_: ()| None)} />
            }
            if let (false, Some(r)) = (show_twin, rescale) {
                <KeyGroupStrips rescale={r} open={view.strips_open} on_toggle={view.on_strips.clone()} />
            }
            if let Some(kind) = chart_kind {
                <ChartToggle open={chart_open} on_toggle={view.on_chart.clone()} />
                if chart_open {
                    <CompareChart {kind} runs={chart_runs()} seed={main.seed} />
                }
            }
        </>
    }
}

/// The QR dialog's links, at the page's own origin.
struct QrLinks {
    /// The short link (scenario, seed, mode, step), when the run has one.
    short: Option<AttrValue>,
    /// The full run recipe, interventions included.
    full: AttrValue,
    /// Whether the learner intervened (only the full link keeps that).
    has_interventions: bool,
}

impl QrLinks {
    fn of(playback: &State, log: &share::Log, lang: Lang) -> QrLinks {
        let base = crate::components::qr_dialog::page_base();
        let short = share::qr::short_params(playback).map(|p| {
            AttrValue::from(share::qr::short_link(
                &base,
                &p.scenario,
                p.seed,
                p.mode,
                p.step,
                lang.code(),
            ))
        });
        let interventions = log.get();
        let full = share::recipe_of(playback, &interventions)
            .map(|r| format!("{base}{}", share::encode(&r)))
            .unwrap_or_else(|| base.clone());
        QrLinks {
            short,
            full: AttrValue::from(full),
            has_interventions: !interventions.is_empty(),
        }
    }
}
