//! The animation loop: a `gloo` request-animation-frame handle held in an effect,
//! so that pausing (or unmounting) drops the handle and so cancels the loop.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::render::{request_animation_frame, AnimationFrame};
use yew::prelude::*;

/// While `active`, calls `on_frame` once per animation frame with the real
/// milliseconds since the previous frame (0 for the first one). The callback is
/// the one given when `active` last became true.
#[hook]
pub fn use_frame_loop(active: bool, on_frame: Callback<f64>) {
    use_effect_with(active, move |active| {
        let frame: Rc<RefCell<Option<AnimationFrame>>> = Rc::default();
        if *active {
            fn schedule(
                frame: Rc<RefCell<Option<AnimationFrame>>>,
                last: Rc<Cell<Option<f64>>>,
                on_frame: Callback<f64>,
            ) {
                let next = frame.clone();
                let handle = request_animation_frame(move |ts| {
                    let dt = last.get().map_or(0.0, |l| ts - l);
                    last.set(Some(ts));
                    on_frame.emit(dt);
                    schedule(next, last, on_frame);
                });
                *frame.borrow_mut() = Some(handle);
            }
            schedule(frame.clone(), Rc::default(), on_frame);
        }
        move || {
            frame.borrow_mut().take();
        }
    });
}
