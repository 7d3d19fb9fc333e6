//! The page's two runs and the one path every action takes into them.
//!
//! The main run starts from the address bar: a share link's `#lab=…` recipe, or
//! `?scenario=`, `?seed=`, `?mode=`, `?t=` and `?step=`. The twin run replays the
//! same scenario and seed under the other mode ([`Mode::twin`]), or a lesson
//! pair's partner under the same seed; it never plays on its own but follows the
//! main run's display time ([`Action::Follow`]).
//!
//! [`Runs::dispatch`] is the one way in for the learner's actions — buttons, keys,
//! tours, the frame loop: it logs interventions for share links and sends a crash,
//! a manual checkpoint or a savepoint to both runs of a twin view at the same
//! moment.

use yew::prelude::*;

use crate::document;
use crate::hooks::use_frame_loop;
use crate::lessons::pair;
use crate::playback::{Action, Link, Mode, State};
use crate::share;

/// The main run, the twin run, and the one dispatch path into them.
#[derive(Clone)]
pub struct Runs {
    /// The main run, which the transport, the tours and the side panel drive.
    pub main: UseReducerHandle<State>,
    /// The twin run (idle until the twin view or a lesson pair loads it).
    pub twin: UseReducerHandle<State>,
    /// Every action for the main run goes here (see the module documentation).
    pub dispatch: Callback<Action>,
    /// Actions from the twin stage's own controls, for the twin run alone.
    pub twin_dispatch: Callback<Action>,
    /// The learner's interventions so far, for share links.
    pub log: share::Log,
    /// Why the share link in the address bar could not be opened.
    pub link_error: Option<String>,
    /// Whether the viewer asked for the twin view (`?twin=1` or its button).
    pub is_twin: bool,
    /// The lesson pair's partner in the twin stage, while it partners the main run.
    pub partner: Option<AttrValue>,
    /// Turns the plain twin view on or off (and leaves a lesson pair).
    pub toggle_twin: Callback<()>,
    /// Compares the main run with a partner lesson, or stops comparing (`None`).
    pub on_compare: Callback<Option<AttrValue>>,
}

impl Runs {
    /// Whether the twin stage is on screen: asked for, and the main run has a
    /// mode to contrast (a lesson without checkpoints has none).
    pub fn show_twin(&self) -> bool {
        self.is_twin && self.main.mode != Mode::Off
    }
}

/// The main run as the address bar describes it; a share link that fails to
/// open leaves its reason in `link_error` and the query parameters decide.
fn initial_state(log: &share::Log, link_error: &mut Option<String>) -> State {
    // `#lab=…` holds a whole run recipe and wins over the query parameters.
    match share::location_recipe().map(|r| r.and_then(|r| share::restore(&r).map(|s| (s, r)))) {
        Some(Ok((state, recipe))) => {
            log.reset(recipe.interventions);
            return state;
        }
        Some(Err(why)) => *link_error = Some(why.to_string()),
        None => {}
    }
    // A link can name a moment: `?mode=unaligned&t=1200` or `&step=925`.
    let mut state = Link::from_query(document::query_param).open();
    // The first lesson's data could not be loaded: say which file.
    if let Some(why) = crate::data::take_boot_error() {
        state = state.apply(Action::Fail(why));
    }
    state
}

/// The page's runs; `on_ready` receives the main run's dispatcher once mounted
/// (browser tests drive time with it).
#[hook]
pub fn use_runs(on_ready: Option<Callback<UseReducerDispatcher<State>>>) -> Runs {
    let log = (*use_state(share::Log::default)).clone();
    let link_error = use_mut_ref(|| None::<String>);
    let main = use_reducer(|| initial_state(&log, &mut link_error.borrow_mut()));
    {
        let d = main.dispatcher();
        use_effect_with((), move |_| {
            if let Some(cb) = on_ready {
                cb.emit(d);
            }
        });
    }
    let twin = use_twin(&main);
    let dispatch = use_one_dispatch(&main, &twin, &log);
    {
        let d = dispatch.clone();
        let on_frame = use_callback((), move |dt: f64, _: &()| d.emit(Action::Tick(dt)));
        use_frame_loop(main.is_playing, on_frame);
    }
    // A lesson switch (not the first lesson: its address may name a moment).
    {
        let first = use_mut_ref(|| true);
        use_effect_with(main.scenario.clone(), move |name| {
            if !std::mem::replace(&mut *first.borrow_mut(), false) {
                let titles = crate::data::lesson_titles();
                let builtin = titles.iter().any(|(n, _)| n == name);
                document::show_lesson(builtin.then_some(name.as_str()));
            }
        });
    }
    let link_error = link_error.borrow().clone();
    Runs {
        main,
        twin: twin.run,
        dispatch,
        twin_dispatch: twin.dispatch,
        log,
        link_error,
        is_twin: twin.is_twin,
        partner: twin.partner,
        toggle_twin: twin.toggle,
        on_compare: twin.compare,
    }
}

/// The twin run and the choices that load it.
struct Twin {
    run: UseReducerHandle<State>,
    dispatch: Callback<Action>,
    is_twin: bool,
    partner: Option<AttrValue>,
    toggle: Callback<()>,
    compare: Callback<Option<AttrValue>>,
}

/// The twin run: loaded with the main run's scenario and seed under the other
/// mode (or with a lesson pair's partner), and kept at the main run's clock.
#[hook]
fn use_twin(main: &UseReducerHandle<State>) -> Twin {
    let is_twin = use_state_eq(|| document::flag("twin"));
    // A lesson pair: the partner lesson in the twin stage (only while it is a
    // partner of the main run's scenario).
    let pair_choice = use_state_eq(|| None::<AttrValue>);
    let partner = (*pair_choice)
        .clone()
        .filter(|p| pair::partners(&main.scenario).contains(&p.as_str()));
    let run = use_reducer(State::idle);
    {
        let d = run.dispatcher();
        let deps = (
            *is_twin && main.mode != Mode::Off,
            main.scenario.clone(),
            main.seed,
            main.mode,
            partner.clone(),
        );
        let t = main.display_t;
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
        let d = run.dispatcher();
        let deps = (*is_twin, main.display_t.to_bits(), main.step());
        let t = main.display_t;
        use_effect_with(deps, move |(on, _, _)| {
            if *on {
                d.dispatch(Action::Follow(t));
            }
        });
    }
    let toggle = {
        let is_twin = is_twin.clone();
        let pair_choice = pair_choice.setter();
        use_callback(*is_twin, move |_: (), on: &bool| {
            pair_choice.set(None);
            is_twin.set(!*on)
        })
    };
    let compare = {
        let is_twin = is_twin.setter();
        let pair_choice = pair_choice.setter();
        use_callback((), move |p: Option<AttrValue>, _: &()| {
            is_twin.set(p.is_some());
            pair_choice.set(p);
        })
    };
    let dispatch = {
        let d = run.dispatcher();
        use_callback((), move |a: Action, _: &()| d.dispatch(a))
    };
    Twin {
        run,
        dispatch,
        is_twin: *is_twin,
        partner,
        toggle,
        compare,
    }
}

/// The one dispatch path: notes each action in the share log at the cursor's
/// step, and in a twin view sends a crash, a manual checkpoint or a savepoint to
/// the twin run too, at the main run's moment.
#[hook]
fn use_one_dispatch(
    main: &UseReducerHandle<State>,
    twin: &Twin,
    log: &share::Log,
) -> Callback<Action> {
    // The main run's display time and step when the action arrives.
    let main_t = use_mut_ref(|| 0.0_f64);
    *main_t.borrow_mut() = main.display_t;
    let step_now = use_mut_ref(|| 0u64);
    *step_now.borrow_mut() = main.step();
    let d = main.dispatcher();
    let twin_d = twin.run.dispatcher();
    let log = log.clone();
    use_callback(twin.is_twin, move |a: Action, on: &bool| {
        log.note(&a, *step_now.borrow());
        // A seek followed at once by an intervention (a replayed branch: the
        // presenter window, a phone following a class) puts it at the sought
        // step, before the page has rendered that step.
        if let Action::SeekStep(s) = &a {
            *step_now.borrow_mut() = *s;
        }
        if *on {
            if let Action::Intervene(i) = &a {
                twin_d.dispatch(Action::Follow(*main_t.borrow()));
                twin_d.dispatch(Action::Intervene(i.clone()));
            }
        }
        d.dispatch(a)
    })
}
