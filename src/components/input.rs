//! What a form control's event says: the chosen option, the box ticked, the
//! text typed. One place, so every control reads its value the same way.

use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The value of the `<select>` an event came from.
pub fn select_value(e: &Event) -> Option<String> {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
        .map(|s| s.value())
}

/// Whether the checkbox an event came from is ticked.
pub fn is_checked(e: &Event) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .is_some_and(|i| i.checked())
}

/// The value of the `<input>` (a checkbox: `true` / `false`) or `<select>` an
/// event came from.
pub fn input_value(e: &Event) -> Option<String> {
    let target = e.target()?;
    if let Some(i) = target.dyn_ref::<web_sys::HtmlInputElement>() {
        return Some(if i.type_() == "checkbox" {
            i.checked().to_string()
        } else {
            i.value()
        });
    }
    target
        .dyn_ref::<web_sys::HtmlSelectElement>()
        .map(|s| s.value())
}
