//! Keeps the presenter window and the projector's window in step, both ways.
//!
//! Each window posts its [`Moment`] whenever it changes, and takes the other's
//! as the one to reach: it loads the run (fetching the lesson's files first),
//! replays the interventions, then sets the speed, playing or not, the tour
//! step and the cursor. While a received moment is being reached the window
//! posts nothing, so a change never echoes back; once reached, that moment is
//! what the window last said. The normal page posts only while a presenter
//! window is open (a `hello` or a heartbeat within [`GONE_AFTER_MS`]); it then
//! becomes the projector's view until a `bye` or a missing heartbeat.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use gloo::events::EventListener;
use gloo::timers::callback::Interval;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::hooks::lessons::Lessons;
use crate::playback::{Action, State};
use crate::presenter::channel::{
    Channel, Message, MessageError, Moment, GONE_AFTER_MS, HEARTBEAT_MS,
};
use crate::share;

/// A received moment is given up after this long (a lesson whose files cannot
/// be fetched, a step the run never reaches).
const REACH_WITHIN_MS: f64 = 5_000.0;

/// What the page needs to know of the link between the windows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// This is the presenter window (`?view=presenter`).
    pub presenter: bool,
    /// The other window is there: for the normal page, a presenter window is
    /// open and this window is the projector's view; for the presenter window,
    /// the projector's window has answered.
    pub connected: bool,
    /// How often the projector's clicker asked to go past the tour's last step
    /// (the presenter window's plan takes each as "the next lesson").
    pub advance: u32,
}

/// The link's bookkeeping, shared by the channel's listener, the timers and
/// the effects.
#[derive(Default)]
struct Shared {
    inbox: VecDeque<Message>,
    /// The moment being reached, and when it came.
    pending: Option<(Moment, f64)>,
    /// The run the window was asked to load for `pending` (asked once).
    loading: Option<Moment>,
    /// What this window last said (or last reached).
    said: Option<Moment>,
    /// When the other window was last heard.
    heard: f64,
}

fn now() -> f64 {
    js_sys::Date::now()
}

/// Links this window to the other; see the module documentation.
#[hook]
pub fn use_presenter_sync(
    presenter: bool,
    playback: &UseReducerHandle<State>,
    dispatch: &Callback<Action>,
    log: &share::Log,
    lessons: &Lessons,
) -> Link {
    let shared = use_mut_ref(Shared::default);
    let connected = use_state_eq(|| false);
    // Re-renders when a message arrives (the effects below read the inbox).
    let arrived = use_state(|| 0u32);
    let advance = use_state_eq(|| 0u32);
    // The projector's window: whether its tour shows its last step (for the
    // clicker's key listener, registered once).
    let at_last_step = use_mut_ref(|| false);
    *at_last_step.borrow_mut() = lessons
        .showing
        .is_some_and(|s| s.step + 1 >= lessons.steps());
    let channel = use_mut_ref(|| None::<Channel>);
    {
        let (shared, channel, arrived) = (shared.clone(), channel.clone(), arrived.clone());
        let connected = connected.setter();
        use_effect_with((), move |_| {
            let on_message = {
                let shared = shared.clone();
                Callback::from(move |m: Result<Message, MessageError>| match m {
                    Ok(m) => {
                        shared.borrow_mut().inbox.push_back(m);
                        arrived.set(arrived.wrapping_add(1));
                    }
                    Err(e) => web_sys::console::warn_1(&e.to_string().into()),
                })
            };
            *channel.borrow_mut() = Channel::open(on_message);
            let (beat, bye) = if presenter {
                post(&channel, &Message::Hello);
                let c = channel.clone();
                let beat = Interval::new(HEARTBEAT_MS, move || post(&c, &Message::Heartbeat));
                let c = channel.clone();
                let bye = web_sys::window()
                    .map(|w| EventListener::new(&w, "pagehide", move |_| post(&c, &Message::Bye)));
                (beat, bye)
            } else {
                projector_listeners(&shared, &channel, at_last_step, connected)
            };
            move || {
                drop((beat, bye));
                if presenter {
                    post(&channel, &Message::Bye);
                }
                channel.borrow_mut().take();
            }
        });
    }
    let showing = lessons.showing.map(|s| s.step);
    let here = Moment::of(playback, log.get(), showing);
    {
        // Every render: read the inbox, go on reaching a received moment, or
        // say what changed here.
        let shared = shared.clone();
        let channel = channel.clone();
        let (dispatch, lessons, playback) = (dispatch.clone(), lessons.clone(), playback.clone());
        let connected_now = *connected;
        let connected = connected.setter();
        let advance = advance.clone();
        use_effect(move || {
            let mut s = shared.borrow_mut();
            while let Some(m) = s.inbox.pop_front() {
                match m {
                    Message::Hello | Message::Heartbeat if !presenter => {
                        s.heard = now();
                        connected.set(true);
                        if matches!(m, Message::Hello) {
                            // The new presenter window starts where this one is.
                            s.pending = None;
                            s.said = Some(here.clone());
                            post(&channel, &Message::Moment(here.clone()));
                        }
                    }
                    Message::Bye if !presenter => connected.set(false),
                    Message::Advance if presenter => advance.set(*advance + 1),
                    Message::Moment(m) => {
                        if presenter {
                            connected.set(true);
                        }
                        s.heard = now();
                        s.pending = Some((m, now()));
                        s.loading = None;
                    }
                    _ => {}
                }
            }
            let active = if presenter {
                connected_now || s.pending.is_some()
            } else {
                connected_now
            };
            if let Some((want, since)) = s.pending.clone() {
                if reached(&here, &want) || now() - since > REACH_WITHIN_MS {
                    s.pending = None;
                    s.said = Some(here);
                } else {
                    reach(&mut s.loading, &want, &here, &playback, &dispatch, &lessons);
                }
                return;
            }
            if active && s.said.as_ref() != Some(&here) {
                s.said = Some(here.clone());
                post(&channel, &Message::Moment(here));
            }
        });
    }
    Link {
        presenter,
        connected: *connected,
        advance: *advance,
    }
}

/// The projector's window's side of the link: the view ends when the presenter
/// window's heartbeat stops, and the clicker past the tour's last step asks the
/// presenter window's plan for its next lesson.
fn projector_listeners(
    shared: &Rc<RefCell<Shared>>,
    channel: &Rc<RefCell<Option<Channel>>>,
    at_last_step: Rc<RefCell<bool>>,
    connected: UseStateSetter<bool>,
) -> (Interval, Option<EventListener>) {
    let s = shared.clone();
    let beat = Interval::new(HEARTBEAT_MS, move || {
        if now() - s.borrow().heard > GONE_AFTER_MS {
            connected.set(false);
        }
    });
    let (c, s) = (channel.clone(), shared.clone());
    // Capture phase, registered once: before the tour's own key listener, which
    // swallows the key at the last step.
    let clicker = web_sys::window().map(|w| {
        let capture = gloo::events::EventListenerOptions {
            phase: gloo::events::EventListenerPhase::Capture,
            passive: true,
        };
        EventListener::new_with_options(&w, "keydown", capture, move |e| {
            let key = e
                .dyn_ref::<web_sys::KeyboardEvent>()
                .map(web_sys::KeyboardEvent::key);
            let linked = now() - s.borrow().heard <= GONE_AFTER_MS;
            if linked
                && *at_last_step.borrow()
                && matches!(key.as_deref(), Some("ArrowRight" | "PageDown"))
            {
                post(&c, &Message::Advance);
            }
        })
    });
    (beat, clicker)
}

fn post(channel: &Rc<RefCell<Option<Channel>>>, m: &Message) {
    if let Some(c) = channel.borrow().as_ref() {
        c.post(m);
    }
}

/// Whether `here` shows what `want` asks for (a playing window's step is its
/// own).
pub(crate) fn reached(here: &Moment, want: &Moment) -> bool {
    here.same_run(want)
        && here.interventions == want.interventions
        && here.playing == want.playing
        && here.speed == want.speed
        && here.tour_step == want.tour_step
        && (want.playing || here.step == want.step)
}

/// One move towards `want`: the run first (once), then the rest in one go.
/// `loading` remembers the run asked for, so it is asked for once. A playing
/// `want` that names a step (a class's late joiner) starts playing from there.
pub(crate) fn reach(
    loading: &mut Option<Moment>,
    want: &Moment,
    here: &Moment,
    playback: &State,
    dispatch: &Callback<Action>,
    lessons: &Lessons,
) {
    if !here.same_run(want) || here.interventions != want.interventions {
        if loading.as_ref().is_some_and(|l| l.same_run(want)) && !here.same_run(want) {
            return;
        }
        *loading = Some(want.clone());
        let (lesson, seed, mode) = (want.lesson.clone(), want.seed, want.mode());
        let interventions = want.interventions.clone();
        let dispatch = dispatch.clone();
        let files = crate::data::lesson_files(&lesson);
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(e) = crate::data::ensure(files).await {
                return dispatch.emit(Action::Fail(crate::data::failure(&e)));
            }
            dispatch.emit(Action::Load {
                scenario: lesson,
                seed,
                mode,
            });
            for t in interventions {
                dispatch.emit(Action::SeekStep(t.step));
                dispatch.emit(Action::Intervene(t.intervention));
            }
        });
        return;
    }
    if here.speed != want.speed {
        dispatch.emit(Action::SetSpeed(want.speed));
    }
    match want.tour_step {
        // The tour's own step seeks and pauses; then play if asked.
        Some(step) if here.tour_step != Some(step) => {
            if lessons.positions.is_some() {
                lessons.go.emit(step);
            }
            return;
        }
        None if here.tour_step.is_some() => lessons.exit.emit(()),
        _ => {}
    }
    if let (false, Some(step)) = (want.playing, want.step) {
        if playback.is_playing {
            dispatch.emit(Action::Pause);
        }
        if here.step != Some(step) {
            dispatch.emit(Action::SeekStep(step));
        }
    } else if want.playing && !playback.is_playing {
        if let Some(step) = want.step.filter(|s| here.step != Some(*s)) {
            dispatch.emit(Action::SeekStep(step));
        }
        dispatch.emit(Action::TogglePlay);
    }
}
