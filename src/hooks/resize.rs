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
/// `on_size` while it is mounted. The observer follows the element: Yew may
/// create the element anew (another lesson's stage has other siblings), and an
/// observer of the old one would never report the new one's size — a canvas
/// would keep its default 300 × 150 pixels and draw every record four times
/// too large.
#[hook]
pub fn use_resize_observer(node: NodeRef, mounted: bool, on_size: Callback<(f64, f64)>) {
    type Observed = Option<(
        web_sys::Element,
        web_sys::ResizeObserver,
        Closure<dyn FnMut()>,
    )>;
    let observed = use_mut_ref(|| Observed::None);
    {
        let observed = observed.clone();
        use_effect(move || {
            let element = if mounted {
                node.cast::<web_sys::Element>()
            } else {
                None
            };
            let same = match (&*observed.borrow(), &element) {
                (Some((o, _, _)), Some(e)) => o == e,
                (None, None) => true,
                _ => false,
            };
            if !same {
                if let Some((_, observer, _)) = observed.borrow_mut().take() {
                    observer.disconnect();
                }
                if let Some(e) = element {
                    if let Some((observer, callback)) =
                        observe_size(&e, move |w, h| on_size.emit((w, h)))
                    {
                        *observed.borrow_mut() = Some((e, observer, callback));
                    }
                }
            }
        });
    }
    use_effect_with((), move |_| {
        move || {
            if let Some((_, observer, _)) = observed.borrow_mut().take() {
                observer.disconnect();
            }
        }
    });
}
