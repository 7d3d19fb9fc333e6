//! The page's side of a live class: the stream of the class's state from the
//! classroom server (`GET /api/events`, server-sent events), the students'
//! phones following the lecturer's moment, the lecturer's windows sending it,
//! and the votes. Served from anywhere else (`trunk serve`, a static host,
//! offline) the stream never opens and nothing of this shows.
//!
//! - **Roles.** A window that read the presenter's secret from its link's
//!   fragment (`#presenter=…`, moved out of the address bar at once and kept in
//!   the tab's `sessionStorage`, which a presenter window opened from it
//!   inherits) is the lecturer's: it sends its moment and opens the votes. Every
//!   other window is a student's and follows — unless it opened a presenter
//!   window of its own, which then drives it.
//! - **Following.** A received moment is reached as the presenter window
//!   reaches the projector's ([`sync::reach`]). Once reached, anything the
//!   student does that changes the moment detaches the phone (it explores on its
//!   own); one tap on *Back to the class* reaches the class's moment again.
//!   A run that stops by itself (its end, an auto-pause) does not detach.
//! - **Away.** The lecturer's window repeats its moment every
//!   [`HEARTBEAT_MS`] (the server takes an unchanged moment as a sign of life
//!   and sends nothing); the server tells the phones when the presenter's
//!   windows have been silent for a while, and a phone says the lecturer is
//!   away and keeps the last moment.
//! - **Six connections.** A browser gives one host six HTTP/1.1 connections; a
//!   hidden tab closes its stream and reopens it when shown (the first event is
//!   the current state, so nothing is lost).

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use gloo::timers::callback::Interval;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use crate::classroom::{self, Ballot, Class, DrillRef};
use crate::hooks::lessons::Lessons;
use crate::playback::{Action, Mode, State};
use crate::presenter::channel::Moment as Target;
use crate::presenter::sync::{self, Link};
use crate::share;

/// Where the tab keeps the presenter's secret.
const SECRET_KEY: &str = "checkpoint-lab.presenter-secret";
/// Where the browser keeps its device token (one vote per device and round).
const DEVICE_KEY: &str = "checkpoint-lab.device";
/// The lecturer's window repeats its moment this often.
pub const HEARTBEAT_MS: u32 = 5_000;
/// A received moment is given up after this long.
const REACH_WITHIN_MS: f64 = 8_000.0;

/// A device's answers to a drill exercise: question, round, one text per blank.
pub type DrillAnswer = (String, u32, Vec<String>);

/// What the page shows of the class.
#[derive(Clone, PartialEq)]
pub struct Live {
    /// A classroom server answered: the class's tools show.
    pub server: bool,
    /// This window holds the presenter's secret.
    pub lecturer: bool,
    /// A student's window: no secret, and not one of a presenter window's
    /// pair (a window that opened its own presenter window is driven by it).
    pub student: bool,
    /// The stream is open (else the phone is reconnecting).
    pub online: bool,
    /// The server heard nothing from the lecturer for a while.
    pub away: bool,
    /// A student's phone follows the class (else it explores on its own).
    pub following: bool,
    /// Back to the class's moment.
    pub rejoin: Callback<()>,
    /// The class's latest state.
    pub class: Option<Rc<Class>>,
    /// This device's votes: question, round, choice.
    pub mine: Rc<Vec<(String, u32, u8)>>,
    /// A student votes: question, round, choice.
    pub vote: Callback<(String, u32, u8)>,
    /// This device's answers to drill exercises: question, round, one text per blank.
    pub answers: Rc<Vec<DrillAnswer>>,
    /// A student answers a drill exercise: question, round, one text per blank.
    pub answer: Callback<DrillAnswer>,
    /// The lecturer's vote commands.
    pub command: Callback<Command>,
    /// The last refusal of the server, in its words.
    pub error: Option<String>,
}

impl Live {
    /// A student's phone while the class votes and the answer is not yet
    /// revealed: the tour card keeps its choices and its answer to itself.
    pub fn student_voting(&self) -> bool {
        self.server
            && self.student
            && self
                .class
                .as_ref()
                .and_then(|c| c.vote.as_ref())
                .and_then(|v| v.rounds.last())
                .is_some_and(|r| r.right.is_none())
    }
}

/// What the lecturer asks of a vote.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Opens a round of a question with so many choices.
    Open {
        /// The question's id.
        question: String,
        /// The round.
        round: u32,
        /// How many choices (none for a drill exercise).
        choices: u8,
        /// The drill exercise asked, if the question is one.
        drill: Option<DrillRef>,
    },
    /// Shows a round's spread; with `right`, marks the right choice.
    Reveal {
        /// The question's id.
        question: String,
        /// The round.
        round: u32,
        /// The right choice.
        right: Option<u8>,
        /// A drill round: right and wrong marked (else only the spread).
        marked: bool,
    },
}

/// The id of a tour step's question as a vote: `<lesson>.<step from 1>`.
pub fn question_id(lesson: &str, step: usize) -> String {
    format!("{lesson}.{}", step + 1)
}

/// The lesson and the tour step (0-based) a question id names.
pub fn question_step(id: &str) -> Option<(&str, usize)> {
    let (lesson, step) = id.rsplit_once('.')?;
    let n: usize = step.parse().ok()?;
    n.checked_sub(1).map(|s| (lesson, s))
}

/// The moment a class event carries, as the page reaches it; `None` for a
/// run that is not a built-in lesson or a link that does not decode.
pub fn target_of(m: &classroom::Moment) -> Option<Target> {
    if !engine::runner::NAMES.contains(&m.lesson.as_str()) {
        return None;
    }
    let recipe = classroom::recipe(m).ok()?;
    let mode = m
        .mode
        .clone()
        .filter(|k| Mode::from_key(k).is_some())
        .unwrap_or_else(|| "aligned".into());
    Some(Target {
        lesson: m.lesson.clone(),
        seed: recipe.seed,
        mode,
        interventions: recipe.interventions,
        step: Some(recipe.step),
        tour_step: m.tour_step.map(|s| s as usize),
        playing: m.playing,
        speed: classroom::speed_index(m.speed),
    })
}

/// Whether a phone that reached `said` and now shows `here` still follows: the
/// same moment, or the same one stopped by itself (the run's end, an
/// auto-pause) while the lecturer's plays.
pub fn still_following(said: &Target, here: &Target) -> bool {
    let stopped_by_itself = said.playing
        && !here.playing
        && said.same_run(here)
        && said.interventions == here.interventions
        && said.tour_step == here.tour_step
        && said.speed == here.speed;
    sync::reached(here, said) || stopped_by_itself
}

/// The presenter's secret: from this link's fragment (then moved out of the
/// address bar and kept in the tab), or kept from before.
fn take_secret() -> Option<String> {
    let window = web_sys::window()?;
    let storage = window.session_storage().ok().flatten();
    let hash = window.location().hash().ok().unwrap_or_default();
    if let Some(secret) = classroom::presenter_secret(&hash) {
        share::set_location("");
        if let Some(s) = &storage {
            let _ = s.set_item(SECRET_KEY, &secret);
        }
        return Some(secret);
    }
    storage?.get_item(SECRET_KEY).ok().flatten().filter(|s| {
        classroom::presenter_secret(&format!("{}{s}", classroom::SECRET_PREFIX)).is_some()
    })
}

/// This browser's device token, made once (32 hex digits).
fn device_token() -> String {
    let storage = web_sys::window().and_then(|w| w.local_storage().ok().flatten());
    if let Some(t) = storage
        .as_ref()
        .and_then(|s| s.get_item(DEVICE_KEY).ok().flatten())
        .filter(|t| (16..=64).contains(&t.len()))
    {
        return t;
    }
    let token: String = (0..32)
        .map(|_| {
            let d = (js_sys::Math::random() * 16.0) as u32;
            char::from_digit(d.min(15), 16).unwrap_or('0')
        })
        .collect();
    if let Some(s) = storage {
        let _ = s.set_item(DEVICE_KEY, &token);
    }
    token
}

/// Posts `body` to the server; the error is the server's reason.
async fn post(path: &str, body: String, secret: Option<String>) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&JsValue::from_str(&body));
    let headers = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&headers, &"content-type".into(), &"application/json".into());
    if let Some(s) = secret {
        let _ = js_sys::Reflect::set(
            &headers,
            &"authorization".into(),
            &format!("Bearer {s}").into(),
        );
    }
    init.set_headers(&headers);
    let answer = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str_and_init(path, &init))
        .await
        .map_err(|_| format!("{path}: no answer"))?;
    let response: web_sys::Response = answer.dyn_into().map_err(|_| "not HTTP".to_string())?;
    if response.ok() {
        return Ok(());
    }
    let text = match response.text() {
        Ok(p) => wasm_bindgen_futures::JsFuture::from(p)
            .await
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default(),
        Err(_) => String::new(),
    };
    Err(format!("{path}: HTTP {} {text}", response.status()))
}

/// The stream's bookkeeping, shared by its listeners, the timers and the effects.
#[derive(Default)]
struct Shared {
    /// The moment being reached, and since when.
    pending: Option<(Target, f64)>,
    /// The run asked for while reaching.
    loading: Option<Target>,
    /// The class moment reached last (a student's).
    said: Option<Target>,
    /// The class moment last applied or skipped (by its link and step).
    last_seen: Option<classroom::Moment>,
    /// What the lecturer's window sent last (JSON), repeated as a heartbeat,
    /// and when.
    sent: Option<(Target, String, f64)>,
    /// A moment is on its way to the server: the next waits for it, so the
    /// server never takes an older moment after a newer one.
    in_flight: bool,
    /// The newest moment waiting for the one on its way.
    queued: Option<String>,
    /// When the last event came.
    heard: f64,
    /// A class event arrived since this was last read.
    fresh: bool,
    /// How often the stream was opened again after the browser gave it up.
    reopens: u32,
    /// Give-ups since the last event (the wait before the next try grows).
    failures: u32,
}

/// The class as this window takes part in it; see the module documentation.
#[hook]
pub fn use_class(
    playback: &UseReducerHandle<State>,
    dispatch: &Callback<Action>,
    log: &share::Log,
    lessons: &Lessons,
    link: Link,
) -> Live {
    let secret = use_state(take_secret);
    let shared = use_mut_ref(Shared::default);
    let class = use_state_eq(|| None::<Rc<Class>>);
    let server = use_state_eq(|| false);
    let online = use_state_eq(|| false);
    let following = use_state_eq(|| true);
    let mine = use_state(|| Rc::new(Vec::<(String, u32, u8)>::new()));
    let answers = use_state(|| Rc::new(Vec::<DrillAnswer>::new()));
    let error = use_state_eq(|| None::<String>);
    let lecturer = secret.is_some();
    let student = !lecturer && !link.presenter && !link.connected;

    use_stream(&shared, &class, &server, &online);
    use_heartbeat(lecturer, &shared, &secret, error.setter());
    let showing = lessons.showing.map(|s| s.step);
    let here = Target::of(playback, log.get(), showing);
    // Every render: the lecturer sends a changed moment; a student follows.
    {
        let (shared, secret, class_now) = (shared.clone(), (*secret).clone(), (*class).clone());
        let (dispatch, lessons, playback, log) = (
            dispatch.clone(),
            lessons.clone(),
            playback.clone(),
            log.clone(),
        );
        let following_now = *following;
        let following = following.setter();
        let server_now = *server;
        let error = error.setter();
        use_effect(move || {
            if !server_now {
                return;
            }
            if let Some(secret) = secret {
                // The presenter window speaks for the class while it is open;
                // a playing class is repeated now and then with its step, so a
                // late joiner starts close to the lecturer.
                let speaks = link.presenter || !link.connected;
                let now = js_sys::Date::now();
                let due = shared.borrow().sent.as_ref().is_none_or(|(t, _, at)| {
                    *t != here || (here.playing && now - at > f64::from(HEARTBEAT_MS))
                });
                if speaks && due {
                    let tour_step = here.tour_step.map(|t| t as u32);
                    if let Some(m) = classroom::moment_of(&playback, &log.get(), tour_step) {
                        let body = serde_json::to_string(&m).unwrap_or_default();
                        shared.borrow_mut().sent = Some((here, body.clone(), now));
                        send_moment(&shared, body, secret, error);
                    }
                }
                return;
            }
            if !student {
                return;
            }
            let mut s = shared.borrow_mut();
            if !follow(
                &mut s,
                class_now.as_deref(),
                following_now,
                &here,
                (&playback, &dispatch, &lessons),
            ) {
                following.set(false);
            }
        });
    }
    let rejoin = {
        let (shared, following, class) = (shared.clone(), following.clone(), class.clone());
        Callback::from(move |()| {
            let mut s = shared.borrow_mut();
            if let Some(t) = class
                .as_ref()
                .and_then(|c| c.moment.as_ref())
                .and_then(target_of)
            {
                s.pending = Some((t, js_sys::Date::now()));
                s.loading = None;
                s.said = None;
            }
            following.set(true);
        })
    };
    let vote = vote_callback(mine.clone(), error.setter());
    let answer = answer_callback(answers.clone(), error.setter());
    let command = command_callback((*secret).clone(), error.setter());
    Live {
        server: *server,
        lecturer,
        student,
        online: *online,
        away: student && class.as_ref().is_some_and(|c| c.lecturer_away),
        following: *following,
        rejoin,
        class: (*class).clone(),
        mine: (*mine).clone(),
        vote,
        answers: (*answers).clone(),
        answer,
        command,
        error: (*error).clone(),
    }
}

/// Opens the class's stream while the tab is visible: a hidden tab gives its
/// connection back, and a stream the browser gave up on is tried again.
#[hook]
fn use_stream(
    shared: &Rc<RefCell<Shared>>,
    class: &UseStateHandle<Option<Rc<Class>>>,
    server: &UseStateHandle<bool>,
    online: &UseStateHandle<bool>,
) {
    let visible = use_state_eq(|| true);
    // Bumped to open the stream again after the browser gave it up.
    let reopen = use_state_eq(|| 0u32);
    {
        let visible = visible.setter();
        use_effect_with((), move |_| {
            let listener = web_sys::window().and_then(|w| w.document()).map(|d| {
                let doc = d.clone();
                EventListener::new(&d, "visibilitychange", move |_| visible.set(!doc.hidden()))
            });
            move || drop(listener)
        });
    }
    let (shared, class, server, online) = (
        shared.clone(),
        class.clone(),
        server.clone(),
        online.clone(),
    );
    let (again, reopen) = (*reopen, reopen.setter());
    use_effect_with((*visible, again), move |(visible, _)| {
        let mut held = None;
        if *visible {
            held = open_stream(shared, class, server, online, reopen);
        }
        move || {
            if let Some((source, listeners)) = held {
                drop(listeners);
                source.close();
            }
        }
    });
}

/// The lecturer's heartbeat: the last moment again (the server's sign that the
/// lecturer is here).
#[hook]
fn use_heartbeat(
    lecturer: bool,
    shared: &Rc<RefCell<Shared>>,
    secret: &UseStateHandle<Option<String>>,
    error: UseStateSetter<Option<String>>,
) {
    let (shared, secret) = (shared.clone(), secret.clone());
    use_effect_with(lecturer, move |lecturer| {
        let beat = lecturer.then(|| {
            Interval::new(HEARTBEAT_MS, move || {
                let sent = shared.borrow().sent.as_ref().map(|s| s.1.clone());
                if let (Some(body), Some(secret)) = (sent, (*secret).clone()) {
                    send_moment(&shared, body, secret, error.clone());
                }
            })
        });
        move || drop(beat)
    });
}

/// A student's phone, once per render: takes a new class moment as the one to
/// reach, goes on reaching it, or notices that the student moved on their own.
/// False when the phone no longer follows.
fn follow(
    s: &mut Shared,
    class: Option<&Class>,
    following: bool,
    here: &Target,
    (playback, dispatch, lessons): (&State, &Callback<Action>, &Lessons),
) -> bool {
    if std::mem::take(&mut s.fresh) {
        let m = class.and_then(|c| c.moment.clone());
        if m.is_some() && m != s.last_seen {
            s.last_seen = m.clone();
            if let Some(t) = m.as_ref().and_then(target_of).filter(|_| following) {
                if !s
                    .said
                    .as_ref()
                    .is_some_and(|said| same_class_moment(said, &t))
                {
                    s.pending = Some((t, js_sys::Date::now()));
                    s.loading = None;
                }
            }
        }
    }
    if !following {
        return false;
    }
    if let Some((want, since)) = s.pending.clone() {
        if sync::reached(here, &want) || js_sys::Date::now() - since > REACH_WITHIN_MS {
            s.pending = None;
            s.said = Some(want);
        } else {
            sync::reach(&mut s.loading, &want, here, playback, dispatch, lessons);
        }
        return true;
    }
    s.said
        .as_ref()
        .is_none_or(|said| still_following(said, here))
}

/// Posts in the background and shows the server's refusal, if any.
fn post_reporting(
    path: &'static str,
    body: String,
    secret: Option<String>,
    error: UseStateSetter<Option<String>>,
) {
    wasm_bindgen_futures::spawn_local(async move {
        error.set(post(path, body, secret).await.err());
    });
}

/// A student's vote: kept as this device's answer and posted.
fn vote_callback(
    mine: UseStateHandle<Rc<Vec<(String, u32, u8)>>>,
    error: UseStateSetter<Option<String>>,
) -> Callback<(String, u32, u8)> {
    Callback::from(move |(question, round, choice): (String, u32, u8)| {
        let mut next = (**mine).clone();
        next.retain(|(q, r, _)| !(q == &question && *r == round));
        next.push((question.clone(), round, choice));
        mine.set(Rc::new(next));
        let ballot = Ballot {
            device: device_token(),
            question,
            round,
            choice: Some(choice),
            answers: None,
        };
        let body = serde_json::to_string(&ballot).unwrap_or_default();
        post_reporting("/api/vote", body, None, error.clone());
    })
}

/// A student's answers to a drill exercise: kept as this device's and posted
/// (the server judges them).
fn answer_callback(
    mine: UseStateHandle<Rc<Vec<DrillAnswer>>>,
    error: UseStateSetter<Option<String>>,
) -> Callback<DrillAnswer> {
    Callback::from(
        move |(question, round, texts): (String, u32, Vec<String>)| {
            let mut next = (**mine).clone();
            next.retain(|(q, r, _)| !(q == &question && *r == round));
            next.push((question.clone(), round, texts.clone()));
            mine.set(Rc::new(next));
            let ballot = Ballot {
                device: device_token(),
                question,
                round,
                choice: None,
                answers: Some(texts),
            };
            let body = serde_json::to_string(&ballot).unwrap_or_default();
            post_reporting("/api/vote", body, None, error.clone());
        },
    )
}

/// The lecturer's vote commands, posted with the secret.
fn command_callback(
    secret: Option<String>,
    error: UseStateSetter<Option<String>>,
) -> Callback<Command> {
    Callback::from(move |c: Command| {
        let Some(secret) = secret.clone() else {
            return;
        };
        let (path, body) = match c {
            Command::Open {
                question,
                round,
                choices,
                drill: None,
            } => (
                "/api/vote/open",
                serde_json::json!({"question": question, "round": round, "choices": choices}),
            ),
            Command::Open {
                question,
                round,
                drill: Some(drill),
                ..
            } => (
                "/api/vote/open",
                serde_json::json!({"question": question, "round": round, "drill": drill}),
            ),
            Command::Reveal {
                question,
                round,
                right,
                marked: false,
            } => (
                "/api/vote/reveal",
                serde_json::json!({"question": question, "round": round, "right": right}),
            ),
            Command::Reveal {
                question, round, ..
            } => (
                "/api/vote/reveal",
                serde_json::json!({"question": question, "round": round, "marked": true}),
            ),
        };
        post_reporting(path, body.to_string(), Some(secret), error.clone());
    })
}

/// Sends the lecturer's moment, one at a time and in order.
fn send_moment(
    shared: &Rc<RefCell<Shared>>,
    body: String,
    secret: String,
    error: UseStateSetter<Option<String>>,
) {
    {
        let mut s = shared.borrow_mut();
        if s.in_flight {
            s.queued = Some(body);
            return;
        }
        s.in_flight = true;
    }
    let shared = shared.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let mut body = body;
        loop {
            error.set(post("/api/moment", body, Some(secret.clone())).await.err());
            let next = {
                let mut s = shared.borrow_mut();
                let next = s.queued.take();
                s.in_flight = next.is_some();
                next
            };
            match next {
                Some(b) => body = b,
                None => break,
            }
        }
    });
}

/// Whether two class moments ask for the same thing (a repeated heartbeat of a
/// playing class names a later step: the phone plays on its own clock).
fn same_class_moment(a: &Target, b: &Target) -> bool {
    if a.playing && b.playing {
        a.same_run(b)
            && a.interventions == b.interventions
            && a.tour_step == b.tour_step
            && a.speed == b.speed
    } else {
        a == b
    }
}

type Held = (web_sys::EventSource, [EventListener; 3]);

/// Opens the class's stream; `None` where there is no `EventSource`.
fn open_stream(
    shared: Rc<RefCell<Shared>>,
    class: UseStateHandle<Option<Rc<Class>>>,
    server: UseStateHandle<bool>,
    online: UseStateHandle<bool>,
    reopen: UseStateSetter<u32>,
) -> Option<Held> {
    let source = web_sys::EventSource::new("/api/events").ok()?;
    let on_class = {
        let (shared, server, online) = (shared.clone(), server.clone(), online.clone());
        EventListener::new(&source, "class", move |e| {
            let Some(data) = e
                .dyn_ref::<web_sys::MessageEvent>()
                .and_then(|m| m.data().as_string())
            else {
                return;
            };
            match classroom::parse_event(&data) {
                Ok(c) => {
                    {
                        let mut s = shared.borrow_mut();
                        s.heard = js_sys::Date::now();
                        s.fresh = true;
                        s.failures = 0;
                    }
                    server.set(true);
                    online.set(true);
                    class.set(Some(Rc::new(c)));
                }
                Err(e) => web_sys::console::warn_1(&e.to_string().into()),
            }
        })
    };
    let on_open = {
        let online = online.clone();
        EventListener::new(&source, "open", move |_| online.set(true))
    };
    let on_error = {
        let s = source.clone();
        EventListener::new(&source, "error", move |_| {
            online.set(false);
            if s.ready_state() != web_sys::EventSource::CLOSED {
                return; // the browser reconnects by itself
            }
            s.close();
            // The browser gave up: without a classroom server (a static host
            // answers 404 or HTML) so does the page; a class that was here
            // (a server restarting answered an error) is tried again.
            let mut sh = shared.borrow_mut();
            if sh.heard > 0.0 {
                sh.failures += 1;
                sh.reopens += 1;
                let (n, reopen) = (sh.reopens, reopen.clone());
                let wait = 1_000 * sh.failures.min(10);
                gloo::timers::callback::Timeout::new(wait, move || reopen.set(n)).forget();
            }
        })
    };
    Some((source, [on_class, on_open, on_error]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playback::Action;
    use engine::Intervention;

    #[test]
    fn a_question_id_names_its_lesson_and_step() {
        let id = question_id("barrier-alignment", 2);
        assert_eq!(id, "barrier-alignment.3");
        assert_eq!(question_step(&id), Some(("barrier-alignment", 2)));
        assert_eq!(question_step("nope"), None);
        assert_eq!(question_step("x.0"), None);
    }

    /// The lecturer's moment — a crash on a branch, a tour step, a speed —
    /// becomes the target a phone reaches, with the cursor's step.
    #[test]
    fn a_class_moment_becomes_the_phones_target() {
        let log = share::Log::default();
        let mut s = State::new(Some("odd-even-sum"), None);
        for a in [
            Action::SeekTime(400),
            Action::Intervene(Intervention::Crash {
                task: "sum#0".into(),
            }),
            Action::SeekTime(1_500),
        ] {
            log.note(&a, s.step());
            s = s.apply(a);
        }
        let m = classroom::moment_of(&s, &log.get(), Some(2)).unwrap();
        let t = target_of(&m).unwrap();
        let here = Target::of(&s, log.get(), Some(2));
        assert_eq!(t, here, "a paused moment is reached exactly");
        assert!(still_following(&t, &here));
        let other = Target::of(&s, Vec::new(), Some(2));
        assert!(!still_following(&t, &other), "a branch of its own detaches");
    }

    #[test]
    fn a_run_that_stops_by_itself_still_follows_but_a_seek_does_not() {
        let s = State::new(Some("pv-count"), None);
        let paused = Target::of(&s, Vec::new(), None);
        let playing = Target {
            playing: true,
            step: None,
            ..paused.clone()
        };
        assert!(
            still_following(&playing, &paused),
            "the run ended or auto-paused"
        );
        let other_step = Target {
            tour_step: Some(1),
            ..paused.clone()
        };
        assert!(!still_following(&paused, &other_step));
        assert!(same_class_moment(
            &Target {
                step: Some(7),
                ..playing.clone()
            },
            &Target {
                step: Some(90),
                ..playing
            }
        ));
    }

    #[test]
    fn a_moment_of_no_built_in_lesson_is_not_followed() {
        let m = classroom::Moment {
            link: "#lab=1.AA".into(),
            lesson: "my-own".into(),
            mode: None,
            tour_step: None,
            playing: false,
            speed: 1.0,
        };
        assert_eq!(target_of(&m), None);
    }
}
