//! A horizontal swipe on the stage steps the run (touch only).

use yew::prelude::*;

use crate::playback::Action;

/// A horizontal swipe on the stage (touch only): left steps forward, right back.
fn swipe(from: (i32, i32), to: (i32, i32)) -> Option<Action> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    if dx.abs() < 50 || dx.abs() < 2 * dy.abs() {
        None
    } else if dx < 0 {
        Some(Action::StepForward)
    } else {
        Some(Action::StepBack)
    }
}

/// A horizontal swipe on the stage steps the run (touch only, see [`swipe`]):
/// the `pointerdown` and `pointerup` handlers.
#[hook]
pub(super) fn use_swipe(
    dispatch: Callback<Action>,
) -> (Callback<PointerEvent>, Callback<PointerEvent>) {
    let touch_start = use_mut_ref(|| None::<(i32, i32)>);
    let onpointerdown = {
        let start = touch_start.clone();
        Callback::from(move |e: PointerEvent| {
            *start.borrow_mut() =
                (e.pointer_type() == "touch").then(|| (e.client_x(), e.client_y()));
        })
    };
    let onpointerup = Callback::from(move |e: PointerEvent| {
        if let Some(from) = touch_start.borrow_mut().take() {
            if let Some(a) = swipe(from, (e.client_x(), e.client_y())) {
                dispatch.emit(a);
            }
        }
    });
    (onpointerdown, onpointerup)
}

#[cfg(test)]
mod tests {
    use super::swipe;
    use crate::playback::Action;

    /// Only a long, mostly horizontal swipe steps: left forward, right back.
    #[test]
    fn a_long_horizontal_swipe_steps() {
        assert_eq!(swipe((200, 100), (120, 110)), Some(Action::StepForward));
        assert_eq!(swipe((100, 100), (180, 90)), Some(Action::StepBack));
        // Too short, or too steep (a scroll down the page).
        assert_eq!(swipe((100, 100), (140, 100)), None);
        assert_eq!(swipe((100, 100), (180, 150)), None);
    }
}
