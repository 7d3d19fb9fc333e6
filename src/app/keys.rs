//! The page's keyboard: the key map (listed in the `?` overlay) and the focus a
//! pointer click hands back to the stage.
//!
//! The key map is one `keydown` listener on the document. Space plays, ← / →
//! step, PageDown / PageUp jump between key moments, `.` and `b` pause, `-` / `+`
//! change the speed, `c` triggers a checkpoint, `p` opens the presenter window,
//! `?` toggles the key map — inside
//! a tour the tour's own listener turns its steps instead. Its actions go through
//! the same dispatch as the buttons', so `c` checkpoints both runs of a twin view
//! as the toolbar's button does.

use std::cell::Cell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::document;
use crate::playback::{Action, SPEEDS};

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

/// What a key of the key map does.
#[derive(Clone, Debug, PartialEq)]
enum KeyCommand {
    /// An action for the playback (at `speed`, the current speed's index).
    Play(Action),
    /// Opens or closes the key map's overlay.
    ToggleHelp,
    /// Closes the key map's overlay.
    CloseHelp,
    /// Opens the presenter window (this window becomes the projector's view).
    Presenter,
}

/// The command for `key` at the speed index `speed`, or `None` for a key the
/// page leaves to the browser.
fn key_command(key: &str, speed: usize) -> Option<KeyCommand> {
    let action = match key {
        " " | "k" => Action::TogglePlay,
        "ArrowRight" | "l" => Action::StepForward,
        "ArrowLeft" | "j" => Action::StepBack,
        "PageDown" => Action::NextMoment,
        "PageUp" => Action::PrevMoment,
        // A clicker's "blank screen" keys.
        "." | "b" | "B" => Action::Pause,
        "-" | "_" => Action::SetSpeed(speed.saturating_sub(1)),
        "+" | "=" => Action::SetSpeed((speed + 1).min(SPEEDS.len() - 1)),
        "c" => Action::Intervene(engine::Intervention::TriggerCheckpoint),
        "?" => return Some(KeyCommand::ToggleHelp),
        "Escape" => return Some(KeyCommand::CloseHelp),
        "p" | "P" => return Some(KeyCommand::Presenter),
        _ => return None,
    };
    Some(KeyCommand::Play(action))
}

/// The key map's `keydown` listener, sending its actions to `dispatch` and
/// opening or closing the key map's overlay through `help`.
#[hook]
pub fn use_key_map(dispatch: Callback<Action>, help: UseStateHandle<bool>, speed: usize) {
    let deps = (*help, speed, dispatch);
    use_effect_with(deps, move |(help_open, speed, dispatch)| {
        let (help_open, speed, dispatch) = (*help_open, *speed, dispatch.clone());
        let help = help.setter();
        let help_now = Rc::new(Cell::new(help_open));
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
                    let Some(command) = key_command(&key, speed) else {
                        return;
                    };
                    e.prevent_default();
                    match command {
                        KeyCommand::Play(a) => dispatch.emit(a),
                        KeyCommand::ToggleHelp => help.set(!help_now.get()),
                        KeyCommand::CloseHelp => help.set(false),
                        KeyCommand::Presenter => crate::presenter::open_presenter_window(),
                    }
                },
            )
        });
        move || drop(listener)
    });
}

/// A control clicked with a pointer hands the keyboard back to the stage, so
/// Space plays or pauses after a click on a checkbox or button; a keyboard
/// user's activation (a click event with `detail` 0) keeps its focus, and Space
/// with it, as accessibility requires.
#[hook]
pub fn use_pointer_focus_release() {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_speed_keys_stay_within_the_speeds() {
        assert_eq!(
            key_command("-", 0),
            Some(KeyCommand::Play(Action::SetSpeed(0)))
        );
        let last = SPEEDS.len() - 1;
        assert_eq!(
            key_command("+", last),
            Some(KeyCommand::Play(Action::SetSpeed(last)))
        );
    }

    #[test]
    fn c_is_a_manual_checkpoint_and_other_keys_are_the_browsers() {
        assert_eq!(
            key_command("c", 2),
            Some(KeyCommand::Play(Action::Intervene(
                engine::Intervention::TriggerCheckpoint
            )))
        );
        assert_eq!(key_command("?", 2), Some(KeyCommand::ToggleHelp));
        assert_eq!(key_command("P", 2), Some(KeyCommand::Presenter));
        assert_eq!(key_command("x", 2), None);
    }
}
