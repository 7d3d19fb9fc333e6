//! The side panel: tabs for the checkpoint coordinator, checkpoint storage, the
//! two-phase-commit sink, the narration, and the barrier bench. Before a scenario
//! is loaded each run tab shows an empty state that says what will appear there
//! (the bench needs no run).
//!
//! The tabs follow the WAI-ARIA tabs pattern: one tab in the Tab order, arrow keys
//! (and Home / End) move between tabs and select them.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use std::rc::Rc;

use engine::scenario::Localized;
use engine::view::{JobView, WorldView};

use crate::components::{
    icons, BenchPanel, CoordinatorPanel, NarrationPanel, SinkPanel, StoragePanel,
};
use crate::hooks::use_lang;
use crate::i18n::Msg;
use crate::playback::{Action, LoggedEvent};

#[derive(Properties, PartialEq)]
pub struct SidePanelProps {
    pub job: Option<Rc<JobView>>,
    pub view: Option<Rc<WorldView>>,
    pub recent: Rc<Vec<LoggedEvent>>,
    pub description: Option<Localized>,
    /// Playback actions (the coordinator tab's timeline bars seek with it).
    #[prop_or_default]
    pub dispatch: Callback<Action>,
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
}

impl Tab {
    pub const ALL: [Tab; 5] = [
        Tab::Coordinator,
        Tab::Storage,
        Tab::Sink,
        Tab::Narration,
        Tab::Bench,
    ];

    /// Stable id fragment (element ids, `data-tab`, tests).
    pub const fn key(self) -> &'static str {
        match self {
            Tab::Coordinator => "coordinator",
            Tab::Storage => "storage",
            Tab::Sink => "sink",
            Tab::Narration => "narration",
            Tab::Bench => "bench",
        }
    }

    fn label(self) -> Msg {
        match self {
            Tab::Coordinator => Msg::TabCoordinator,
            Tab::Storage => Msg::TabStorage,
            Tab::Sink => Msg::TabSink,
            Tab::Narration => Msg::TabNarration,
            Tab::Bench => Msg::TabBench,
        }
    }

    fn heading(self) -> Msg {
        match self {
            Tab::Coordinator => Msg::CoordinatorHeading,
            Tab::Storage => Msg::StorageHeading,
            Tab::Sink => Msg::SinkHeading,
            Tab::Narration => Msg::NarrationHeading,
            Tab::Bench => Msg::TabBench,
        }
    }

    fn empty_text(self) -> Msg {
        match self {
            Tab::Coordinator => Msg::CoordinatorEmpty,
            Tab::Storage => Msg::StorageEmpty,
            Tab::Sink => Msg::SinkEmpty,
            Tab::Narration => Msg::NarrationEmpty,
            Tab::Bench => Msg::BenchIntro,
        }
    }

    fn icon(self) -> Html {
        match self {
            Tab::Coordinator => icons::coordinator(),
            Tab::Storage => icons::storage(),
            Tab::Sink => icons::sink(),
            Tab::Narration => icons::narration(),
            Tab::Bench => icons::bench(),
        }
    }

    /// The tab `step` places away, wrapping around.
    fn offset(self, step: isize) -> Tab {
        let n = Tab::ALL.len() as isize;
        let i = Tab::ALL.iter().position(|t| *t == self).unwrap_or(0) as isize;
        Tab::ALL[(i + step).rem_euclid(n) as usize]
    }
}

#[component]
pub fn SidePanel(props: &SidePanelProps) -> Html {
    let lang = use_lang().lang;
    let selected = use_state_eq(|| {
        crate::document::query_param("tab")
            .and_then(|k| Tab::ALL.into_iter().find(|t| t.key() == k))
            .unwrap_or(Tab::Coordinator)
    });

    let onkeydown = {
        let selected = selected.clone();
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
    };

    let tabs = Tab::ALL.into_iter().map(|tab| {
        let is_selected = tab == *selected;
        let onclick = {
            let selected = selected.clone();
            Callback::from(move |_: MouseEvent| selected.set(tab))
        };
        html! {
            <button type="button" role="tab" class="tabs__tab"
                    id={format!("tab-{}", tab.key())} data-tab={tab.key()}
                    aria-selected={if is_selected { "true" } else { "false" }}
                    aria-controls={format!("tabpanel-{}", tab.key())}
                    tabindex={if is_selected { "0" } else { "-1" }}
                    {onclick}>
                { tab.icon() }
                <span>{ lang.t(tab.label()) }</span>
            </button>
        }
    });

    let tab = *selected;
    html! {
        <aside class="side-panel card" aria-label={lang.t(Msg::PanelLabel)}>
            <div class="tabs" role="tablist" aria-label={lang.t(Msg::PanelLabel)} {onkeydown}>
                { for tabs }
            </div>
            <div class="tabpanel" role="tabpanel" id={format!("tabpanel-{}", tab.key())}
                 aria-labelledby={format!("tab-{}", tab.key())} tabindex="0">
                <h2 class="tabpanel__heading">{ lang.t(tab.heading()) }</h2>
                { match (&props.job, &props.view, tab) {
                    (_, _, Tab::Bench) => html! { <BenchPanel /> },
                    (Some(job), Some(view), Tab::Coordinator) => html! { <CoordinatorPanel job={job.clone()} view={view.clone()} dispatch={props.dispatch.clone()} /> },
                    (Some(job), Some(view), Tab::Storage) => html! { <StoragePanel job={job.clone()} view={view.clone()} dispatch={props.dispatch.clone()} /> },
                    (Some(job), Some(view), Tab::Sink) => html! { <SinkPanel job={job.clone()} view={view.clone()} /> },
                    (Some(_), Some(_), Tab::Narration) => html! {
                        <NarrationPanel recent={props.recent.clone()} description={props.description.clone()} />
                    },
                    _ => html! {
                        <div class="empty-note">
                            <span class="empty-note__icon">{ tab.icon() }</span>
                            <p>{ lang.t(tab.empty_text()) }</p>
                        </div>
                    },
                } }
            </div>
        </aside>
    }
}
