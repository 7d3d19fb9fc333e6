//! The projector's window while a presenter window is open: the stage at full
//! size with its caption and a small step counter ("3/7"), no tour card, no
//! answers and as little chrome as the class needs; the step counter sits at the
//! caption's end, clear of the stage's drawing. The side panel leaves its
//! tour card out (its `hide_tour` flag), so no question or answer is even in
//! the document; the stylesheet (`.app--projecting`) hides the rest.

use yew::prelude::*;

/// The class the page's root gets in the projector's view.
pub const CLASS: &str = "app--projecting";

/// Properties of [`StepCounter`].
#[derive(Properties, PartialEq)]
pub struct StepCounterProps {
    /// The tour step shown (0-based).
    pub step: usize,
    /// The tour's number of steps.
    pub of: usize,
}

/// The tour's step as "3/7", at the end of the projected caption.
#[component]
pub fn StepCounter(props: &StepCounterProps) -> Html {
    html! {
        <div class="projector-counter" id="projector-counter" aria-live="polite">
            { format!("{}/{}", props.step + 1, props.of) }
        </div>
    }
}
