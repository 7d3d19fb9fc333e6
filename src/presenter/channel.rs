//! The messages the presenter window and the projector's window exchange, and
//! the `BroadcastChannel` that carries them (same origin, no server: it works
//! from a static host and offline).
//!
//! A message is JSON: `{"type": "hello"}` when the presenter window opens,
//! `{"type": "heartbeat"}` every [`HEARTBEAT_MS`] while it is open,
//! `{"type": "bye"}` when it closes, `{"type": "advance"}` when the clicker in
//! the projector's window goes past the tour's last step, and `{"type": "moment", "moment": {…}}`
//! whenever either window's [`Moment`] changes. A moment is the share link's
//! recipe for a built-in lesson (its name instead of the whole scenario, the
//! seed, the mode, the interventions with their steps and the cursor's step)
//! plus what only a class needs: the tour step, playing or not, the speed.
//!
//! The codec is pure and tested natively; a message that does not fit is an
//! error naming the field, never a panic.

use gloo::events::EventListener;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;
use yew::Callback;

use crate::playback::{Mode, State, SPEEDS};
use crate::share::Timed;

/// The channel's name (one per origin: every window of the page hears it).
pub const CHANNEL: &str = "checkpoint-lab.presenter";
/// How often the presenter window says it is still open.
pub const HEARTBEAT_MS: u32 = 1_000;
/// After this long without a heartbeat the projector's window goes back to the
/// normal page (a presenter window that crashed or was killed sends no `bye`).
pub const GONE_AFTER_MS: f64 = 3_500.0;

/// What one window of a class shows, in enough detail for the other to show
/// the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Moment {
    /// The built-in lesson.
    pub lesson: String,
    /// The run's seed.
    pub seed: u64,
    /// The checkpointing mode (`aligned`, `unaligned`, `at-least-once`, `off`).
    pub mode: String,
    /// The interventions on the current branch, each with its step.
    #[serde(default)]
    pub interventions: Vec<Timed>,
    /// The cursor's step; `None` while playing (each window plays on its own
    /// clock, and the one that pauses sends where it stopped).
    #[serde(default)]
    pub step: Option<u64>,
    /// The tour step shown (0-based), if touring.
    #[serde(default)]
    pub tour_step: Option<usize>,
    /// Whether the run is playing.
    pub playing: bool,
    /// The speed (index into [`SPEEDS`]).
    pub speed: usize,
}

impl Moment {
    /// The moment `state` shows, with its interventions and tour step.
    pub fn of(state: &State, interventions: Vec<Timed>, tour_step: Option<usize>) -> Moment {
        Moment {
            lesson: state.scenario.clone(),
            seed: state.seed,
            mode: state.mode.key().to_string(),
            interventions,
            step: (!state.is_playing).then(|| state.step()),
            tour_step,
            playing: state.is_playing,
            speed: state.speed,
        }
    }

    /// The mode, parsed (checked by [`decode`]).
    pub fn mode(&self) -> Mode {
        Mode::from_key(&self.mode).unwrap_or(Mode::Off)
    }

    /// Whether `self` and `other` are the same run (lesson, seed, mode).
    pub fn same_run(&self, other: &Moment) -> bool {
        self.lesson == other.lesson && self.seed == other.seed && self.mode == other.mode
    }
}

/// One message between the two windows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "moment", rename_all = "snake_case")]
pub enum Message {
    /// The presenter window has opened: the page answers with its moment.
    Hello,
    /// The presenter window is still open.
    Heartbeat,
    /// The presenter window is closing.
    Bye,
    /// A window's moment changed.
    Moment(Moment),
    /// The clicker in the projector's window asked to go past the tour's last
    /// step: the presenter window's class plan opens its next lesson.
    Advance,
}

/// The message as JSON.
pub fn encode(message: &Message) -> String {
    serde_json::to_string(message).expect("a message always serializes")
}

/// A message another window posted that does not fit: the text names the
/// field (`presenter message: moment.mode: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageError(pub String);

impl std::fmt::Display for MessageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MessageError {}

/// Reads a message; the error names the field that does not fit.
pub fn decode(text: &str) -> Result<Message, MessageError> {
    decode_text(text).map_err(MessageError)
}

fn decode_text(text: &str) -> Result<Message, String> {
    let message: Message =
        serde_json::from_str(text).map_err(|e| format!("presenter message: {e}"))?;
    if let Message::Moment(m) = &message {
        check(m)?;
    }
    Ok(message)
}

/// What serde cannot see: a lesson the page has, a mode and a speed it knows.
fn check(m: &Moment) -> Result<(), String> {
    if !engine::runner::NAMES.contains(&m.lesson.as_str()) {
        return Err(format!(
            "presenter message: moment.lesson: {:?} is not a built-in lesson",
            m.lesson
        ));
    }
    if Mode::from_key(&m.mode).is_none() {
        return Err(format!(
            "presenter message: moment.mode: {:?} is not aligned, unaligned, at-least-once or off",
            m.mode
        ));
    }
    if m.speed >= SPEEDS.len() {
        return Err(format!(
            "presenter message: moment.speed: {} is not below {}",
            m.speed,
            SPEEDS.len()
        ));
    }
    Ok(())
}

/// The page's end of the channel; dropping it closes the channel.
pub struct Channel {
    channel: web_sys::BroadcastChannel,
    _listener: EventListener,
}

impl Channel {
    /// Opens the channel, handing every message another window posts to
    /// `on_message` (a malformed one as its error). `None` where the browser
    /// has no `BroadcastChannel`.
    pub fn open(on_message: Callback<Result<Message, MessageError>>) -> Option<Channel> {
        let channel = web_sys::BroadcastChannel::new(CHANNEL).ok()?;
        let listener = EventListener::new(&channel, "message", move |e| {
            let Some(text) = e
                .dyn_ref::<web_sys::MessageEvent>()
                .and_then(|m| m.data().as_string())
            else {
                return on_message.emit(Err(MessageError("presenter message: not text".into())));
            };
            on_message.emit(decode(&text));
        });
        Some(Channel {
            channel,
            _listener: listener,
        })
    }

    /// Posts `message` to every other window of the page.
    pub fn post(&self, message: &Message) {
        let _ = self
            .channel
            .post_message(&wasm_bindgen::JsValue::from_str(&encode(message)));
    }
}

impl Drop for Channel {
    fn drop(&mut self) {
        self.channel.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moment() -> Moment {
        Moment {
            lesson: "odd-even-sum".into(),
            seed: 7,
            mode: "unaligned".into(),
            interventions: vec![Timed {
                step: 40,
                intervention: engine::Intervention::Crash {
                    task: "sum#0".into(),
                },
            }],
            step: Some(120),
            tour_step: Some(2),
            playing: false,
            speed: 3,
        }
    }

    #[test]
    fn every_message_round_trips() {
        for m in [
            Message::Hello,
            Message::Heartbeat,
            Message::Bye,
            Message::Advance,
            Message::Moment(moment()),
        ] {
            assert_eq!(decode(&encode(&m)), Ok(m));
        }
        assert_eq!(encode(&Message::Bye), r#"{"type":"bye"}"#);
    }

    #[test]
    fn a_moment_is_the_state_it_was_taken_of() {
        let mut s = State::new(Some("pv-count"), Some(5));
        s = s.apply(crate::playback::Action::SeekTime(900));
        let m = Moment::of(&s, vec![], Some(1));
        assert_eq!(
            (m.lesson.as_str(), m.seed, m.mode(), m.step),
            ("pv-count", 5, s.mode, Some(s.step()))
        );
        assert!(m.step.unwrap() > 0);
        let playing = s.apply(crate::playback::Action::TogglePlay);
        assert_eq!(Moment::of(&playing, vec![], None).step, None);
    }

    #[test]
    fn a_message_that_does_not_fit_names_the_field() {
        let mut bad = moment();
        bad.lesson = "nope".into();
        let e = decode(&encode(&Message::Moment(bad))).unwrap_err().0;
        assert!(e.contains("moment.lesson") && e.contains("nope"), "{e}");
        let mut bad = moment();
        bad.mode = "twice".into();
        let e = decode(&encode(&Message::Moment(bad))).unwrap_err().0;
        assert!(e.contains("moment.mode"), "{e}");
        let mut bad = moment();
        bad.speed = SPEEDS.len();
        let e = decode(&encode(&Message::Moment(bad))).unwrap_err().0;
        assert!(e.contains("moment.speed"), "{e}");
        let e = decode(r#"{"type":"moment","moment":{"lesson":"pv-count"}}"#)
            .unwrap_err()
            .0;
        assert!(e.contains("seed"), "{e}");
        let e = decode(r#"{"type":"shout"}"#).unwrap_err().0;
        assert!(e.contains("shout"), "{e}");
        let e = decode("not json").unwrap_err().0;
        assert!(e.starts_with("presenter message:"), "{e}");
    }
}
