//! The lesson tools' state, shared by the places that show it: the guided tour
//! (its start button in the top bar, its card in the side panel, its keys), the
//! glossary and the form editor (the side panel), share / export / import (the
//! top bar's menu) and their notices (the caption bar).
//!
//! The tour drives the same playback as everything else: a step sends
//! [`Action::SeekStep`] to the position [`tour::positions`] found, so leaving the
//! tour (or pressing play) simply continues from there. In tour mode ← / → and
//! PageDown / PageUp (a presentation clicker) turn the steps: a capture-phase
//! listener on `window` takes them before the page's own shortcuts (which would
//! step the engine) see them.
//!
//! A tour belongs to its run: loading another run ends it, except the change
//! the tour's own step asks for (`invites`: the aligned mode, the other state
//! backend's lesson), made with the card's button or the top bar's pickers — the
//! tour then goes on in the new run at the matching step ([`tour::carry_over`]).

use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::i18n::Lang;
use crate::lessons::tour::{self, Target, Tour};
use crate::lessons::wording::t;
use crate::playback::{Action, State};
use crate::share;

/// Where the last imported scenario is kept between visits.
pub const STORAGE_KEY: &str = "checkpoint-lab.scenario";

/// Where each step of the tour is in the current run, each on its own (or why it
/// is not reached); `None` without a tour or a run.
pub type Positions = Rc<Option<Vec<Result<u64, String>>>>;

/// The tour step shown and whether its answer is revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Showing {
    /// Index of the step.
    pub step: usize,
    /// The answer is shown.
    pub revealed: bool,
}

/// What [`use_lessons`] needs from the page.
pub struct LessonsInput {
    /// The playback state.
    pub playback: UseReducerHandle<State>,
    /// The page's recording dispatcher.
    pub dispatch: Callback<Action>,
    /// The learner's interventions on the current branch (for share links).
    pub log: share::Log,
    /// Why the share link the page was opened with could not be used.
    pub link_error: Option<String>,
    /// The interface language (for notices).
    pub lang: Lang,
    /// Opens (true) or closes (false) the glossary in the side panel.
    pub show_glossary: Callback<bool>,
    /// Opens (true) or closes (false) the form editor in the side panel.
    pub show_editor: Callback<bool>,
}

/// The lesson tools' state and actions; cheap to clone, compared by what shows.
#[derive(Clone, PartialEq)]
pub struct Lessons {
    /// The current scenario's tour, if it has one.
    pub tour: Rc<Option<Tour>>,
    /// Where each tour step is in this run (or why it cannot be reached).
    pub positions: Positions,
    /// The tour step shown, if touring.
    pub showing: Option<Showing>,
    /// Goes to tour step `i` (pauses, seeks, brings its panel to the front).
    pub go: Callback<usize>,
    /// Shows the current step's answer.
    pub reveal: Callback<()>,
    /// Leaves the tour (the moment stays).
    pub exit: Callback<()>,
    /// Makes the change the current step invites (another mode, another lesson).
    pub follow: Callback<()>,
    /// The current step's invitation has been taken up: this run is the one it
    /// asked for.
    pub invite_met: bool,
    /// A notice (share link made) to show until dismissed.
    pub notice: Option<String>,
    /// Why the page's share link could not be opened.
    pub link_error: Option<String>,
    /// Why an imported file was refused.
    pub import_error: Option<String>,
    /// Dismisses the notice and both errors.
    pub dismiss: Callback<()>,
    /// Puts a share link of this moment in the address bar (and clipboard).
    pub share: Callback<()>,
    /// Downloads the scenario as JSON.
    pub export: Callback<()>,
    /// Reads the file chosen in an `<input type=file>`'s change event.
    pub import: Callback<Event>,
    /// Loads scenario JSON (the editor's apply, an import).
    pub load_json: Callback<String>,
    /// The name of the scenario saved from an earlier visit (if not this one).
    pub saved_name: Option<String>,
    /// Loads the saved scenario.
    pub restore_saved: Callback<()>,
    /// The stylesheet that highlights the tour step's target.
    pub highlight_css: String,
    /// The CSS selector of the tour step's target, if it has one.
    pub target: Option<String>,
    /// The CSS selector of the panel row the step talks about, if it names one.
    pub row: Option<String>,
    /// Opens or closes the glossary.
    pub show_glossary: Callback<bool>,
    /// Opens or closes the editor.
    pub show_editor: Callback<bool>,
}

impl Lessons {
    /// Number of steps of the tour (0 without one).
    pub fn steps(&self) -> usize {
        self.tour.as_ref().as_ref().map_or(0, |t| t.steps.len())
    }
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
        // A subtask's ring goes on its lane button (the lane's box), never on a
        // chip of its values travelling to chk-n, whose ring would cross texts.
        let selector = if target.task.is_some() {
            format!(".lane-button{selector}")
        } else {
            selector.to_string()
        };
        let ring = format!(
            "{selector} {{ outline: 4px solid var(--tour-highlight); outline-offset: 3px; }}"
        );
        // The row the step talks about, ringed inside its panel (a ring outside
        // would be cut by the panel's scrolling edge).
        match tour::row_in_panel(target) {
            Some(row) => format!(
                "{ring}\n{row} {{ outline: 3px solid var(--tour-highlight); outline-offset: -3px; }}"
            ),
            None => ring,
        }
    }
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The lesson tools' state for the current run; see the module documentation.
#[hook]
pub fn use_lessons(input: LessonsInput) -> Lessons {
    let LessonsInput {
        playback,
        dispatch,
        log,
        link_error,
        lang,
        show_glossary,
        show_editor,
    } = input;
    // Every new run (load, restart, mode switch, edit) has a new job view: its
    // address identifies the run cheaply.
    let run_id = playback.job.as_ref().map_or(0, |j| Rc::as_ptr(j) as usize);
    let tour = use_tour(&playback, &dispatch, run_id);
    // A share link in the address bar describes the run it was opened with:
    // once the learner loads another run, it is dropped, so that a reload does
    // not go back to it.
    {
        let first = use_mut_ref(|| true);
        use_effect_with(run_id, move |_| {
            if !std::mem::replace(&mut *first.borrow_mut(), false) {
                share::clear_location();
            }
        });
    }
    let notice = use_state_eq(|| None::<String>);
    let link_error = use_state_eq(|| link_error);
    let files = use_scenario_files(&playback, &dispatch);
    let dismiss = {
        let (notice, link_error, import_error) = (
            notice.setter(),
            link_error.setter(),
            files.import_error.setter(),
        );
        Callback::from(move |_: ()| {
            notice.set(None);
            link_error.set(None);
            import_error.set(None);
        })
    };
    let share = {
        let playback = playback.clone();
        let notice = notice.setter();
        Callback::from(move |_: ()| {
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
    Lessons {
        tour: tour.tour,
        positions: tour.positions,
        showing: tour.showing,
        go: tour.go,
        reveal: tour.reveal,
        exit: tour.exit,
        follow: tour.follow,
        invite_met: tour.invite_met,
        notice: (*notice).clone(),
        link_error: (*link_error).clone(),
        import_error: (*files.import_error).clone(),
        dismiss,
        share,
        export: files.export,
        import: files.import,
        load_json: files.load_json,
        saved_name: files.saved_name,
        restore_saved: files.restore_saved,
        highlight_css: tour.highlight_css,
        target: tour.target,
        row: tour.row,
        show_glossary,
        show_editor,
    }
}

/// The guided tour of the current run's lesson: the step shown and the ways to
/// turn it.
struct TourState {
    tour: Rc<Option<Tour>>,
    positions: Positions,
    showing: Option<Showing>,
    go: Callback<usize>,
    reveal: Callback<()>,
    exit: Callback<()>,
    follow: Callback<()>,
    invite_met: bool,
    highlight_css: String,
    target: Option<String>,
    row: Option<String>,
}

/// The step a tour showed in the run before this one, to carry the tour over a
/// change that step invited.
struct Shown {
    run_id: usize,
    scenario: String,
    step: usize,
    content: tour::Step,
}

/// The tour of the main run's lesson; a tour belongs to its run, so loading
/// another one (a new `run_id`) ends it — unless its step invited that change
/// ([`use_carry`]).
#[hook]
fn use_tour(playback: &UseReducerHandle<State>, d: &Callback<Action>, run_id: usize) -> TourState {
    let tour = use_memo(playback.scenario.clone(), |name| tour::tour_for(name));
    let positions = {
        let playback = playback.clone();
        let tour = tour.clone();
        use_memo(run_id, move |_| {
            let tour = tour.as_ref().as_ref()?;
            let each = playback.with_scenario(|s| tour::positions_each(tour, s, playback.seed))?;
            // A scenario that does not run has no step anywhere.
            let each = each.unwrap_or_else(|e| vec![Err(e); tour.steps.len()]);
            Some(
                each.into_iter()
                    .map(|p| p.map_err(|e| e.to_string()))
                    .collect::<Vec<_>>(),
            )
        })
    };
    let showing = use_state_eq(|| None::<Showing>);
    let go = tour_step_callback(d, &showing, &tour, &positions);
    let (carried, shown) = use_carry(playback, run_id, &tour, &positions, *showing);
    {
        let (showing, go) = (showing.setter(), go.clone());
        use_effect_with(run_id, move |_| match carried {
            Some(step) => go.emit(step),
            None => showing.set(None),
        });
    }
    let n_steps = tour.as_ref().as_ref().map_or(0, |t| t.steps.len());
    use_tour_link(go.clone(), positions.is_some(), run_id, n_steps);
    use_tour_keys(go.clone(), *showing, n_steps);
    let reveal = {
        let showing = showing.clone();
        Callback::from(move |_: ()| {
            if let Some(s) = *showing {
                showing.set(Some(Showing {
                    revealed: true,
                    ..s
                }));
            }
        })
    };
    let exit = {
        let showing = showing.setter();
        Callback::from(move |_: ()| showing.set(None))
    };
    let invite = shown.and_then(|s| tour.as_ref().as_ref()?.steps.get(s.step)?.invites.clone());
    let invite_met = invite
        .as_ref()
        .is_some_and(|inv| tour::invite_met(inv, &playback.scenario, playback.mode.key()));
    let follow = {
        let d = d.clone();
        Callback::from(move |_: ()| match &invite {
            Some(tour::Invite { mode: Some(m), .. }) => {
                if let Some(m) = crate::playback::Mode::from_key(m) {
                    d.emit(Action::SetMode(m));
                }
            }
            Some(tour::Invite {
                lesson: Some(l), ..
            }) => crate::data::open_lesson(l.clone(), d.clone()),
            _ => {}
        })
    };
    let target = match (&*tour, shown, &playback.job) {
        (Some(tour), Some(s), Some(job)) => tour
            .steps
            .get(s.step)
            .and_then(|st| st.highlight.as_ref())
            .and_then(|h| tour::selector(h, job).ok().map(|sel| (h.clone(), sel))),
        _ => None,
    };
    let highlight_css = target
        .as_ref()
        .map(|(h, sel)| highlight_css(h, sel))
        .unwrap_or_default();
    let row = target.as_ref().and_then(|(h, _)| tour::row_in_panel(h));
    let target = target.map(|(h, sel)| {
        if h.task.is_some() {
            format!(".lane-button{sel}")
        } else {
            sel
        }
    });
    TourState {
        tour,
        positions,
        showing: shown,
        go,
        reveal,
        exit,
        follow,
        invite_met,
        highlight_css,
        target,
        row,
    }
}

/// Remembers the step shown and, on the render that brings a new run (a new
/// `run_id`) under a tour, finds where the tour goes on in it: the step
/// [`tour::carry_over`] gives when the step shown before invited this change and
/// the new run reaches it. Returns that step (`None` ends the tour) and the step
/// to show on this render.
#[hook]
fn use_carry(
    playback: &UseReducerHandle<State>,
    run_id: usize,
    tour: &Rc<Option<Tour>>,
    positions: &Positions,
    showing: Option<Showing>,
) -> (Option<usize>, Option<Showing>) {
    let last = use_mut_ref(|| None::<Shown>);
    let mut last = last.borrow_mut();
    let (scenario, mode) = (playback.scenario.as_str(), playback.mode.key());
    let changed = last.as_ref().is_some_and(|b| b.run_id != run_id);
    let carried = match (&*last, &**tour) {
        (Some(before), Some(next)) if changed => tour::carry_over(
            &before.scenario,
            before.step,
            &before.content,
            scenario,
            mode,
            next,
        )
        .filter(|i| matches!(&**positions, Some(p) if matches!(p.get(*i), Some(Ok(_))))),
        _ => None,
    };
    // Until the effect has moved the tour, this render already shows where it
    // goes (never the old tour's step index in the new tour).
    let now = if changed {
        carried.map(|step| Showing {
            step,
            revealed: false,
        })
    } else {
        showing
    };
    *last = now.and_then(|s| {
        Some(Shown {
            run_id,
            scenario: scenario.to_string(),
            step: s.step,
            content: tour.as_ref().as_ref()?.steps.get(s.step)?.clone(),
        })
    });
    (carried, now)
}

/// Goes to a tour step: pauses, seeks to the step's position and brings a
/// highlighted side-panel tab to the front.
fn tour_step_callback(
    d: &Callback<Action>,
    showing: &UseStateHandle<Option<Showing>>,
    tour: &Rc<Option<Tour>>,
    positions: &Positions,
) -> Callback<usize> {
    let d = d.clone();
    let showing = showing.setter();
    let positions = positions.clone();
    let tour = tour.clone();
    Callback::from(move |step: usize| {
        let (Some(tour), Some(pos)) = (&*tour, &*positions) else {
            return;
        };
        let Some(Ok(&at)) = pos.get(step).map(Result::as_ref) else {
            return;
        };
        d.emit(Action::Pause);
        d.emit(Action::SeekStep(at));
        showing.set(Some(Showing {
            step,
            revealed: false,
        }));
        if let Some(panel) = tour.steps[step]
            .highlight
            .as_ref()
            .and_then(|h| h.panel.clone())
        {
            let doc = web_sys::window().and_then(|w| w.document());
            // The tab may be the selected one while the drawer is closed: its
            // panel is then hidden, and the click opens it.
            let shown = doc
                .as_ref()
                .and_then(|doc| doc.get_element_by_id(&format!("tabpanel-{panel}")))
                .is_some_and(|p| !p.has_attribute("hidden"));
            if let Some(tab) = doc
                .and_then(|doc| doc.get_element_by_id(&format!("tab-{panel}")))
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            {
                if tab.get_attribute("aria-selected").as_deref() != Some("true") || !shown {
                    tab.click();
                }
            }
        }
    })
}

/// `?tour=1` opens the linked lesson with its tour (a teacher's slide links a
/// lesson ready to present), at `&tour_step=N` (1-based, as the card counts)
/// when given. Once: the first run whose tour positions are `ready`.
#[hook]
fn use_tour_link(go: Callback<usize>, ready: bool, run_id: usize, n_steps: usize) {
    let pending = use_mut_ref(|| {
        crate::document::flag("tour").then(|| {
            crate::document::query_param("tour_step")
                .and_then(|v| v.parse::<usize>().ok())
                .map_or(0, |n| n.saturating_sub(1))
        })
    });
    use_effect_with((run_id, ready), move |(_, ready)| {
        if *ready {
            if let Some(step) = pending.borrow_mut().take() {
                go.emit(step.min(n_steps.saturating_sub(1)));
            }
        }
    });
}

/// ← / → and PageDown / PageUp turn the tour's steps while one is `showing`.
#[hook]
fn use_tour_keys(go: Callback<usize>, showing: Option<Showing>, n_steps: usize) {
    use_effect_with(showing, move |showing| {
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
                        "ArrowRight" | "PageDown" if s.step + 1 < n_steps => s.step + 1,
                        "ArrowLeft" | "PageUp" if s.step > 0 => s.step - 1,
                        "ArrowRight" | "ArrowLeft" | "PageDown" | "PageUp" => s.step,
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

/// A scenario as a file: exported, imported, or kept in local storage from
/// the last import.
struct ScenarioFiles {
    import_error: UseStateHandle<Option<String>>,
    export: Callback<()>,
    import: Callback<Event>,
    load_json: Callback<String>,
    saved_name: Option<String>,
    restore_saved: Callback<()>,
}

/// Export, import and the saved scenario for the main run.
#[hook]
fn use_scenario_files(playback: &UseReducerHandle<State>, d: &Callback<Action>) -> ScenarioFiles {
    let import_error = use_state_eq(|| None::<String>);
    let saved = use_state(|| local_storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten()));
    let export = {
        let playback = playback.clone();
        Callback::from(move |_: ()| {
            let Some((name, text)) = playback.with_scenario(|s| {
                let v = serde_json::to_value(s).expect("a scenario serializes");
                (
                    s.name.clone(),
                    serde_json::to_string_pretty(&v).expect("JSON"),
                )
            }) else {
                return;
            };
            let _ = crate::document::download(&format!("{name}.json"), &text, "application/json");
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
    let import = {
        let load_json = load_json.clone();
        Callback::from(move |e: Event| {
            let load_json = load_json.clone();
            crate::document::read_chosen_file(
                &e,
                Callback::from(move |(_, text): (String, Result<String, _>)| {
                    if let Ok(text) = text {
                        load_json.emit(text);
                    }
                }),
            );
        })
    };
    let restore_saved = {
        let load_json = load_json.clone();
        let saved = (*saved).clone();
        Callback::from(move |_: ()| {
            if let Some(text) = saved.clone() {
                load_json.emit(text);
            }
        })
    };
    let saved_name = saved
        .as_deref()
        .and_then(|s| engine::Scenario::parse(s).ok())
        .map(|s| s.name)
        .filter(|n| *n != playback.scenario);
    ScenarioFiles {
        import_error,
        export,
        import,
        load_json,
        saved_name,
        restore_saved,
    }
}
