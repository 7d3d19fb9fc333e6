//! How the page is shown, as the viewer chose it: projector mode, the key map's
//! overlay, the QR dialog, the key-group strips, the comparison chart, the side
//! panel's drawer and auto-pause at key moments. None of it changes a run.

use yew::prelude::*;

use crate::components::side_panel::Drawer;
use crate::document;
use crate::playback::Action;

/// The viewer's display choices and the callbacks that change them.
#[derive(Clone)]
pub struct ViewOptions {
    /// Projector mode: larger type for a classroom (`?projector=1`).
    pub projector: bool,
    /// Turns projector mode on or off.
    pub toggle_projector: Callback<()>,
    /// The key map's overlay (`?`), open or not.
    pub help: UseStateHandle<bool>,
    /// Opens or closes the key map's overlay.
    pub toggle_help: Callback<()>,
    /// Closes the key map's overlay.
    pub close_help: Callback<()>,
    /// Whether the QR dialog is open.
    pub qr_open: bool,
    /// Opens the QR dialog.
    pub on_qr: Callback<()>,
    /// Closes the QR dialog.
    pub close_qr: Callback<()>,
    /// Whether the key-group strips are unfolded (`?strips=1`).
    pub strips_open: bool,
    /// Folds or unfolds the key-group strips.
    pub on_strips: Callback<bool>,
    /// The comparison chart as its button last left it (`None`: not touched).
    pub chart_choice: Option<bool>,
    /// Folds or unfolds the comparison chart.
    pub on_chart: Callback<bool>,
    /// Whether the viewer asked the system for less motion: the stage then
    /// shows the cursor's moment without animating towards it.
    pub reduced_motion: bool,
}

impl ViewOptions {
    /// Whether the comparison chart is open: with a lesson pair (the chart is
    /// its point) until its button says otherwise, folded in the plain twin
    /// view so both graphs keep the stage's height.
    pub fn chart_open(&self, pair: bool) -> bool {
        self.chart_choice.unwrap_or(pair)
    }
}

/// A flag the viewer toggles, and the callback that toggles it.
#[hook]
fn use_toggle(initial: fn() -> bool) -> (UseStateHandle<bool>, Callback<()>) {
    let on = use_state_eq(initial);
    let toggle = {
        let on = on.clone();
        use_callback(*on, move |_: (), now: &bool| on.set(!*now))
    };
    (on, toggle)
}

/// The page's display choices, starting from the address bar's flags.
#[hook]
pub fn use_view_options() -> ViewOptions {
    let (projector, toggle_projector) = use_toggle(|| document::flag("projector"));
    use_effect_with(*projector, |on| {
        document::apply_projector(*on);
        || document::apply_projector(false)
    });
    let (help, toggle_help) = use_toggle(|| false);
    let close_help = {
        let help = help.setter();
        use_callback((), move |_: (), _: &()| help.set(false))
    };
    let qr_open = use_state_eq(|| false);
    let on_qr = {
        let setter = qr_open.setter();
        use_callback((), move |_: (), _: &()| setter.set(true))
    };
    let close_qr = {
        let setter = qr_open.setter();
        use_callback((), move |_: (), _: &()| setter.set(false))
    };
    let strips_open = use_state_eq(|| document::flag("strips"));
    let on_strips = {
        let setter = strips_open.setter();
        use_callback((), move |on: bool, _: &()| setter.set(on))
    };
    let chart_choice = use_state_eq(|| None::<bool>);
    let on_chart = {
        let setter = chart_choice.setter();
        use_callback((), move |on: bool, _: &()| setter.set(Some(on)))
    };
    let reduced_motion = crate::hooks::use_reduced_motion();
    ViewOptions {
        projector: *projector,
        toggle_projector,
        help,
        toggle_help,
        close_help,
        qr_open: *qr_open,
        on_qr,
        close_qr,
        strips_open: *strips_open,
        on_strips,
        chart_choice: *chart_choice,
        on_chart,
        reduced_motion,
    }
}

/// The side panel's drawer (closed: a rail of tabs) and the ways to open it,
/// and the interview drill, which has a column of its own beside the drawer:
/// a learner answers a question while a tab shows what decides it.
#[derive(Clone)]
pub struct DrawerState {
    /// The open drawer, if any.
    pub open: Option<Drawer>,
    handle: UseStateHandle<Option<Drawer>>,
    /// Opens a drawer, or closes it (`None`).
    pub on_drawer: Callback<Option<Drawer>>,
    /// The interview drill is open.
    pub drill: bool,
    /// Opens (`true`) or closes the drill.
    pub on_drill: Callback<bool>,
}

impl DrawerState {
    /// A callback that opens `view` (`true`) or closes it if it is the open one
    /// (`false`).
    pub fn show(&self, view: Drawer) -> Callback<bool> {
        let drawer = self.handle.clone();
        Callback::from(move |on: bool| {
            drawer.set(if on {
                Some(view)
            } else if *drawer == Some(view) {
                None
            } else {
                *drawer
            })
        })
    }

    /// A callback that opens a subtask's drawer, or closes it when clicked again.
    pub fn select_task(&self) -> Callback<usize> {
        let drawer = self.handle.clone();
        Callback::from(move |task: usize| {
            drawer.set(if *drawer == Some(Drawer::Task(task)) {
                None
            } else {
                Some(Drawer::Task(task))
            })
        })
    }

    /// The subtask whose drawer is open, if any.
    pub fn selected_task(&self) -> Option<usize> {
        match self.open {
            Some(Drawer::Task(task)) => Some(task),
            _ => None,
        }
    }
}

/// The side panel's drawer, closed at first.
#[hook]
pub fn use_drawer() -> DrawerState {
    let handle = use_state_eq(|| None);
    let on_drawer = {
        let drawer = handle.setter();
        use_callback((), move |d: Option<Drawer>, _: &()| drawer.set(d))
    };
    // `?drill=1` opens the interview drill.
    let drill = use_state_eq(|| crate::document::flag("drill"));
    let on_drill = {
        let drill = drill.setter();
        use_callback((), move |on: bool, _: &()| {
            if !on {
                // Closed: the address no longer opens it (the drill puts
                // itself and its open question there while open).
                crate::drill::remember(false, None);
            }
            drill.set(on)
        })
    };
    DrawerState {
        open: *handle,
        handle,
        on_drawer,
        drill: *drill,
        on_drill,
    }
}

/// Auto-pause at key moments: the viewer's choice, else on inside a tour. The
/// choice reaches the main run through `dispatch`; returns whether it is on and
/// the callback for its checkbox.
#[hook]
pub fn use_auto_pause(dispatch: Callback<Action>, in_tour: bool) -> (bool, Callback<bool>) {
    let choice = use_state_eq(|| None::<bool>);
    let on = choice.unwrap_or(in_tour);
    use_effect_with(on, move |on| dispatch.emit(Action::SetAutoPause(*on)));
    let set = {
        let choice = choice.setter();
        Callback::from(move |on: bool| choice.set(Some(on)))
    };
    (on, set)
}
