//! The side panel: tabs for the checkpoint coordinator, checkpoint storage, the
//! two-phase-commit sink, the narration, the barrier bench, and the Flink code
//! (with the real statistics; it widens the drawer). Before a scenario
//! is loaded each run tab shows an empty state that says what will appear there
//! (the bench needs no run).
//!
//! On a projector the graph comes first: the panel is a rail of tabs beside the
//! stage until a tab is clicked, then a drawer that narrows the stage (never
//! covering it) and also holds the guided tour's card, a subtask's state, the
//! glossary and the form editor ([`Drawer`]). On a phone it stacks under the
//! graph.
//!
//! The tabs follow the WAI-ARIA tabs pattern: one tab in the Tab order, arrow keys
//! (and Home / End) move between tabs and select them. A mouse click on a tab
//! moves the focus into its panel, so ← / → go on stepping the simulation.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use std::rc::Rc;

use engine::scenario::Localized;
use engine::view::{JobView, WorldView};

use crate::components::real_stats_panel::Imported;
use crate::components::{
    icons, BenchPanel, CoordinatorPanel, FlinkPanel, Legend, NarrationPanel, SinkPanel,
    StoragePanel, TaskPopover,
};
use crate::hooks::{use_lang, Lessons};
use crate::i18n::flink::FlinkMsg;
use crate::i18n::{Lang, Msg};
use crate::lessons::form::ScenarioForm;
use crate::lessons::{Glossary, TourCard};
use crate::playback::{Action, LoggedEvent};

/// What the drawer shows besides the tour card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawer {
    /// The selected tab's panel.
    Panel,
    /// A subtask's state (a lane was clicked), by task id.
    Task(usize),
    /// The glossary.
    Glossary,
    /// The form editor.
    Editor,
}

/// Properties of [`SidePanel`].
#[derive(Properties, PartialEq)]
pub struct SidePanelProps {
    pub job: Option<Rc<JobView>>,
    pub view: Option<Rc<WorldView>>,
    pub recent: Rc<Vec<LoggedEvent>>,
    pub description: Option<Localized>,
    /// Playback actions (the coordinator tab's timeline bars seek with it).
    #[prop_or_default]
    pub dispatch: Callback<Action>,
    /// What the drawer shows (`None`: closed, unless a tour is on).
    #[prop_or_default]
    pub drawer: Option<Drawer>,
    /// Opens, changes or closes the drawer.
    #[prop_or_default]
    pub on_drawer: Callback<Option<Drawer>>,
    /// The interview drill (面试题) is open: a column of its own, beside the
    /// drawer's tab (the stage it plays moments on stays beside both).
    #[prop_or_default]
    pub drill: bool,
    /// The lesson tools (the tour card, the editor's apply).
    pub lessons: Lessons,
    /// The scenario document, for the editor.
    #[prop_or_default]
    pub doc: Option<Rc<serde_json::Value>>,
    /// The open drawer holds the legend (the show column gives it up).
    #[prop_or_default]
    pub show_legend: bool,
    /// The failure-free run's commits (the sink tab's verdicts).
    #[prop_or_default]
    pub reference: Option<Rc<engine::verdict::Reference>>,
    /// The run's seed, lesson and mode in words (the Flink code tab).
    #[prop_or_default]
    pub seed: u64,
    #[prop_or_default]
    pub scenario: AttrValue,
    #[prop_or_default]
    pub mode: AttrValue,
    /// The projector's view (a presenter window is open): no tour card, so no
    /// question or answer reaches the projected page.
    #[prop_or_default]
    pub hide_tour: bool,
}

/// A tab of the side panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Coordinator,
    Storage,
    Sink,
    Narration,
    /// The barrier bench (needs no run).
    Bench,
    /// The run as a Flink job's Java, and real checkpoint statistics.
    Flink,
}

impl Tab {
    pub const ALL: [Tab; 6] = [
        Tab::Coordinator,
        Tab::Storage,
        Tab::Sink,
        Tab::Narration,
        Tab::Bench,
        Tab::Flink,
    ];

    /// Stable id fragment (element ids, `data-tab`, tests).
    pub const fn key(self) -> &'static str {
        match self {
            Tab::Coordinator => "coordinator",
            Tab::Storage => "storage",
            Tab::Sink => "sink",
            Tab::Narration => "narration",
            Tab::Bench => "bench",
            Tab::Flink => "flink",
        }
    }

    /// Its name on the rail.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Tab::Coordinator => lang.t(Msg::TabCoordinator),
            Tab::Storage => lang.t(Msg::TabStorage),
            Tab::Sink => lang.t(Msg::TabSink),
            Tab::Narration => lang.t(Msg::TabNarration),
            Tab::Bench => lang.t(Msg::TabBench),
            Tab::Flink => lang.t(FlinkMsg::Tab),
        }
    }

    fn heading(self, lang: Lang) -> &'static str {
        match self {
            Tab::Coordinator => lang.t(Msg::CoordinatorHeading),
            Tab::Storage => lang.t(Msg::StorageHeading),
            Tab::Sink => lang.t(Msg::SinkHeading),
            Tab::Narration => lang.t(Msg::NarrationHeading),
            Tab::Bench => lang.t(Msg::TabBench),
            Tab::Flink => lang.t(FlinkMsg::Tab),
        }
    }

    fn empty_text(self, lang: Lang) -> &'static str {
        match self {
            Tab::Coordinator => lang.t(Msg::CoordinatorEmpty),
            Tab::Storage => lang.t(Msg::StorageEmpty),
            Tab::Sink => lang.t(Msg::SinkEmpty),
            Tab::Narration => lang.t(Msg::NarrationEmpty),
            Tab::Bench => lang.t(Msg::BenchIntro),
            Tab::Flink => lang.t(FlinkMsg::Empty),
        }
    }

    /// Its icon on the rail.
    pub fn icon(self) -> Html {
        match self {
            Tab::Coordinator => icons::coordinator(),
            Tab::Storage => icons::storage(),
            Tab::Sink => icons::sink(),
            Tab::Narration => icons::narration(),
            Tab::Bench => icons::bench(),
            Tab::Flink => icons::code(),
        }
    }

    /// The tab `step` places away, wrapping around.
    fn offset(self, step: isize) -> Tab {
        let n = Tab::ALL.len() as isize;
        let i = Tab::ALL.iter().position(|t| *t == self).unwrap_or(0) as isize;
        Tab::ALL[(i + step).rem_euclid(n) as usize]
    }
}

/// The side panel: a rail of tabs that opens into a drawer; see the module
/// documentation.
#[component]
pub fn SidePanel(props: &SidePanelProps) -> Html {
    let lang = use_lang().lang;
    let from_link = crate::document::query_param("tab")
        .and_then(|k| Tab::ALL.into_iter().find(|t| t.key() == k));
    let selected = use_state_eq(|| from_link.unwrap_or(Tab::Coordinator));
    // Real statistics imported in the Flink tab outlive a switch of tabs.
    let imported = use_state_eq(|| None::<Rc<Imported>>);
    let on_import = {
        let set = imported.setter();
        use_callback((), move |i: Option<Rc<Imported>>, _| set.set(i))
    };
    // A link naming a tab opens it.
    {
        let on_drawer = props.on_drawer.clone();
        use_effect_with((), move |_| {
            if from_link.is_some() {
                on_drawer.emit(Some(Drawer::Panel));
            }
        });
    }
    let touring = props.lessons.showing.is_some() && !props.hide_tour;
    let is_open = props.drawer.is_some() || touring || props.drill;
    // The drawer's own column (a tab, the tour, a subtask…) beside the drill's.
    let drawer_shown = props.drawer.is_some() || touring;
    let shows_panel = props.drawer == Some(Drawer::Panel);
    // After a mouse click on a tab, the focus goes into its panel (once shown).
    let focus_panel = use_mut_ref(|| false);
    let panel_ref = use_node_ref();
    {
        let (focus_panel, panel_ref) = (focus_panel.clone(), panel_ref.clone());
        use_effect(move || {
            if std::mem::take(&mut *focus_panel.borrow_mut()) {
                if let Some(el) = panel_ref.cast::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
        });
    }

    let onkeydown = tab_keys(selected.clone(), props.on_drawer.clone());

    let tabs = Tab::ALL.into_iter().map(|tab| {
        let is_selected = tab == *selected;
        let onclick = {
            let selected = selected.clone();
            let on_drawer = props.on_drawer.clone();
            let focus_panel = focus_panel.clone();
            Callback::from(move |e: MouseEvent| {
                if is_selected && shows_panel {
                    // The open tab again: close the drawer.
                    on_drawer.emit(None);
                    return;
                }
                selected.set(tab);
                on_drawer.emit(Some(Drawer::Panel));
                // A mouse click (not Enter / Space, whose click has no detail).
                *focus_panel.borrow_mut() = e.detail() > 0;
            })
        };
        tab_button(tab, is_selected, onclick, lang)
    });

    let tab = *selected;
    let close = props.on_drawer.reform(|_: MouseEvent| None);
    let extra = drawer_view(props);
    let panel_hidden = !is_open || !shows_panel;
    let wide = is_open && shows_panel && !touring && tab == Tab::Flink;
    let drill = props.drill;
    let both = drill && drawer_shown;
    let flink = FlinkProps {
        imported: (*imported).clone(),
        on_import: on_import.clone(),
    };
    html! {
        <aside class={classes!("side-panel", "card", is_open.then_some("side-panel--open"), wide.then_some("side-panel--wide"), drill.then_some("side-panel--drill"), both.then_some("side-panel--drill-and-tab"))}
               data-open={is_open.to_string()} aria-label={lang.t(Msg::PanelLabel)}>
            <div class="side-panel__head">
                <div class="tabs" role="tablist" aria-label={lang.t(Msg::PanelLabel)}
                     aria-orientation={if is_open { "horizontal" } else { "vertical" }} {onkeydown}>
                    { for tabs }
                </div>
                if drawer_shown && !touring {
                    <button type="button" class="icon-button side-panel__close" id="drawer-close"
                            aria-label={lang.t(Msg::ClosePanel)} title={lang.t(Msg::ClosePanel)} onclick={close}>
                        { icons::close() }
                    </button>
                }
            </div>
            if is_open {
                <div class="side-panel__columns">
                    if drill {
                        // Kept mounted while tabs change: the open question and
                        // the answers typed so far stay.
                        <div class="side-panel__drill">
                            <crate::drill::panel::DrillPanel dispatch={props.dispatch.clone()} />
                        </div>
                    }
                    <div class="side-panel__body" hidden={!drawer_shown && !props.show_legend}>
                        if !props.hide_tour {
                            <TourCard lessons={props.lessons.clone()} />
                        }
                        { extra.unwrap_or_default() }
                        { panel(props, tab, panel_hidden, &panel_ref, lang, &flink) }
                        if props.show_legend {
                            <Legend />
                        }
                    </div>
                </div>
            } else {
                { panel(props, tab, true, &panel_ref, lang, &flink) }
            }
        </aside>
    }
}

/// One tab of the tab list; the selected one is the one Tab reaches.
fn tab_button(tab: Tab, is_selected: bool, onclick: Callback<MouseEvent>, lang: Lang) -> Html {
    html! {
        <button type="button" role="tab" class="tabs__tab"
                id={format!("tab-{}", tab.key())} data-tab={tab.key()}
                aria-selected={if is_selected { "true" } else { "false" }}
                aria-controls={format!("tabpanel-{}", tab.key())}
                tabindex={if is_selected { "0" } else { "-1" }}
                {onclick}>
            { tab.icon() }
            <span class="tabs__label">{ tab.label(lang) }</span>
        </button>
    }
}

/// The tab list's keys: the arrows, Home and End select a tab and open the
/// drawer on it; the focus follows the selection.
fn tab_keys(
    selected: UseStateHandle<Tab>,
    on_drawer: Callback<Option<Drawer>>,
) -> Callback<KeyboardEvent> {
    Callback::from(move |e: KeyboardEvent| {
        let next = match e.key().as_str() {
            "ArrowRight" | "ArrowDown" => selected.offset(1),
            "ArrowLeft" | "ArrowUp" => selected.offset(-1),
            "Home" => Tab::ALL[0],
            "End" => Tab::ALL[Tab::ALL.len() - 1],
            _ => return,
        };
        e.prevent_default();
        selected.set(next);
        on_drawer.emit(Some(Drawer::Panel));
        // Focus follows selection; the tab already exists, only its state changes.
        let tab = e
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|list| {
                list.query_selector(&format!("[data-tab=\"{}\"]", next.key()))
                    .ok()
                    .flatten()
            })
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(tab) = tab {
            let _ = tab.focus();
        }
    })
}

/// What the drawer shows above the tabs' panel: a subtask's state, the
/// glossary or the scenario editor.
fn drawer_view(props: &SidePanelProps) -> Option<Html> {
    let close_task = props.on_drawer.reform(|_: ()| Some(Drawer::Panel));
    match props.drawer {
        Some(Drawer::Task(task)) => match (&props.job, &props.view) {
            (Some(job), Some(view)) => job
                .tasks
                .get(task)
                .zip(view.tasks.get(task))
                .map(|(t, tv)| html! {
                    <TaskPopover name={t.name.to_string()} task={tv.clone()} job_status={view.status}
                                 dispatch={props.dispatch.clone()} on_close={close_task.clone()} />
                }),
            _ => None,
        },
        Some(Drawer::Glossary) => Some(html! { <Glossary /> }),
        Some(Drawer::Editor) => props.doc.as_ref().map(|doc| html! {
            <ScenarioForm doc={(**doc).clone()} on_apply={props.lessons.load_json.clone()} />
        }),
        _ => None,
    }
}

/// The Flink tab's imported statistics, held by the side panel.
struct FlinkProps {
    imported: Option<Rc<Imported>>,
    on_import: Callback<Option<Rc<Imported>>>,
}

/// The selected tab's panel (rendered while hidden too: its heading names the tab).
fn panel(
    props: &SidePanelProps,
    tab: Tab,
    hidden: bool,
    panel_ref: &NodeRef,
    lang: Lang,
    flink: &FlinkProps,
) -> Html {
    html! {
        <div class="tabpanel" role="tabpanel" id={format!("tabpanel-{}", tab.key())} ref={panel_ref.clone()}
             aria-labelledby={format!("tab-{}", tab.key())} tabindex="0" {hidden}>
            <h2 class="tabpanel__heading">{ tab.heading(lang) }</h2>
            { match (&props.job, &props.view, tab) {
                (_, _, Tab::Bench) => html! { <BenchPanel /> },
                (_, _, Tab::Flink) if !hidden => html! {
                    <FlinkPanel doc={props.doc.clone()} seed={props.seed} job={props.job.clone()} view={props.view.clone()}
                                scenario={props.scenario.clone()} mode={props.mode.clone()}
                                imported={flink.imported.clone()} on_import={flink.on_import.clone()} />
                },
                (Some(job), Some(view), Tab::Coordinator) => html! { <CoordinatorPanel job={job.clone()} view={view.clone()} dispatch={props.dispatch.clone()} /> },
                (Some(job), Some(view), Tab::Storage) => html! { <StoragePanel job={job.clone()} view={view.clone()} dispatch={props.dispatch.clone()} /> },
                (Some(job), Some(view), Tab::Sink) => html! { <SinkPanel job={job.clone()} view={view.clone()} reference={props.reference.clone()} /> },
                (Some(_), Some(_), Tab::Narration) => html! {
                    <NarrationPanel recent={props.recent.clone()} description={props.description.clone()} />
                },
                _ => html! {
                    <div class="empty-note">
                        <span class="empty-note__icon">{ tab.icon() }</span>
                        <p>{ tab.empty_text(lang) }</p>
                    </div>
                },
            } }
        </div>
    }
}
