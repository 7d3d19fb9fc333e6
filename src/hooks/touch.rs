//! Touch: whether the viewer works the page with a finger. Then the page says
//! "tap" and "swipe" instead of naming keys (a phone has no Space or PageDown).
//!
//! A device whose main pointer is coarse and cannot hover (a phone, a tablet)
//! starts as touch; after that the last pointer decides, so a laptop with a
//! touchscreen speaks of keys again once the mouse is used.
//!
//! Also the phone layout's one piece of behaviour: a sheet at the bottom of the
//! screen (the tour's card, a subtask's state) keeps what it talks about in view
//! above it ([`keep_above_sheet`]).

use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

thread_local! {
    /// What the last pointer was (true: a finger), once one has been seen: a
    /// component mounted later (the tour's card) starts from it.
    static LAST: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Whether the viewer uses a finger now: the last pointer seen, else whether the
/// main pointer is one, `(hover: none) and (pointer: coarse)`.
fn touch_now() -> bool {
    LAST.with(|l| l.get()).unwrap_or_else(|| {
        web_sys::window()
            .and_then(|w| w.match_media("(hover: none) and (pointer: coarse)").ok())
            .flatten()
            .is_some_and(|m| m.matches())
    })
}

/// Whether the viewer is using touch now; see the module documentation.
#[hook]
pub fn use_touch() -> bool {
    let touch = use_state_eq(touch_now);
    {
        let touch = touch.setter();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                EventListener::new(&w, "pointerdown", move |e| {
                    if let Some(p) = e.dyn_ref::<web_sys::PointerEvent>() {
                        let finger = match p.pointer_type().as_str() {
                            "touch" => true,
                            "mouse" => false,
                            _ => return,
                        };
                        LAST.with(|l| l.set(Some(finger)));
                        touch.set(finger);
                    }
                })
            });
            move || drop(listener)
        });
    }
    *touch
}

/// The width below which the tour and a subtask's state are sheets at the
/// bottom of the screen (the stylesheet's phone block uses the same).
const PHONE_QUERY: &str = "(max-width: 700px)";

/// Whether the page is laid out for a phone.
pub fn phone_layout() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media(PHONE_QUERY).ok())
        .flatten()
        .is_some_and(|m| m.matches())
}

/// Scrolls the page so that the element `selector` names (a tour step's
/// subtask, channel or tab; the subtask a sheet describes) is in view above
/// `sheet`, centred in what the sheet leaves of the screen; nothing when it
/// already is.
pub fn keep_above_sheet(selector: &str, sheet: &web_sys::Element) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(target) = window
        .document()
        .and_then(|d| d.query_selector(selector).ok().flatten())
    else {
        return;
    };
    centre_sideways(&window, &target);
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let room = sheet.get_bounding_client_rect().top().clamp(0.0, height);
    let r = target.get_bounding_client_rect();
    if r.top() >= 0.0 && r.bottom() <= room {
        return;
    }
    let centre = r.top() + r.height().min(room) / 2.0;
    window.scroll_by_with_x_and_y(0.0, (centre - room / 2.0).round());
}

/// Scrolls the nearest sideways-scrolling box around `target` (a graph wider
/// than the screen pans in its own box) so that the target is in its middle.
fn centre_sideways(window: &web_sys::Window, target: &web_sys::Element) {
    let mut at = target.parent_element();
    while let Some(scroller) = at {
        let pans = window
            .get_computed_style(&scroller)
            .ok()
            .flatten()
            .and_then(|s| s.get_property_value("overflow-x").ok())
            .is_some_and(|o| o == "auto" || o == "scroll");
        if pans && scroller.scroll_width() > scroller.client_width() {
            let (b, r) = (
                scroller.get_bounding_client_rect(),
                target.get_bounding_client_rect(),
            );
            let off = (r.left() + r.width() / 2.0) - (b.left() + b.width() / 2.0);
            scroller.set_scroll_left(scroller.scroll_left() + off.round() as i32);
            return;
        }
        at = scroller.parent_element();
    }
}
