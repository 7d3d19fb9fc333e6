//! An element's size as the browser lays it out, from a `ResizeObserver`: the
//! stage fits its scene to its box and repaints its token canvas with it.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Observes `target`'s size: `on_size` receives it (whole CSS pixels, both
/// above zero) now and whenever it changes, until the returned observer is
/// dropped.
pub fn observe_size(
    target: &web_sys::Element,
    on_size: impl Fn(f64, f64) + 'static,
) -> Option<(web_sys::ResizeObserver, Closure<dyn FnMut()>)> {
    let el = target.clone();
    let callback = Closure::<dyn FnMut()>::new(move || {
        let (w, h) = (el.client_width(), el.client_height());
        if w > 0 && h > 0 {
            on_size(f64::from(w), f64::from(h));
        }
    });
    let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
    observer.observe(target);
    Some((observer, callback))
}

/// Sends the size of `node`'s element (width, height in CSS pixels) to
/// `on_size` while it is mounted. The element is looked up, and `on_size`
/// taken, again whenever `mounted` changes (an element that comes and goes
/// with it is observed while it is there).
#[hook]
pub fn use_resize_observer(node: NodeRef, mounted: bool, on_size: Callback<(f64, f64)>) {
    use_effect_with(mounted, move |_| {
        let observer = node
            .cast::<web_sys::Element>()
            .and_then(|el| observe_size(&el, move |w, h| on_size.emit((w, h))));
        move || {
            if let Some((observer, _callback)) = observer {
                observer.disconnect();
            }
        }
    });
}
