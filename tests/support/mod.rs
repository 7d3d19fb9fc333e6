//! The browser tests' shared harness: the real [`App`] mounted into its own
//! `<div>` in headless Chromium, with the address bar set first and put back on drop.
#![allow(dead_code)]

use checkpoint_lab::App;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::AppHandle;

/// The page's window.
pub fn window() -> web_sys::Window {
    web_sys::window().expect("a browser window")
}

/// The page's document.
pub fn document() -> web_sys::Document {
    window().document().expect("a document")
}

/// The address bar's query string (`?lang=en`).
pub fn search() -> String {
    window().location().search().unwrap()
}

/// The address bar's query and fragment.
pub fn current_url() -> String {
    let l = window().location();
    format!("{}{}", l.search().unwrap(), l.hash().unwrap())
}

/// Sets the address bar's query and fragment (e.g. `"?lang=en"`) without reloading.
pub fn set_url(query_and_hash: &str) {
    let path = window().location().pathname().unwrap();
    window()
        .history()
        .unwrap()
        .replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{query_and_hash}")),
        )
        .unwrap();
}

/// The app mounted into its own `<div>`; unmounts and restores the URL on drop.
pub struct Mounted {
    pub root: Element,
    handle: Option<AppHandle<App>>,
    original: String,
}

impl Mounted {
    /// Mounts [`App`] with `url` (query and fragment) in the address bar, and waits
    /// for the first render.
    pub async fn at(url: &str) -> Mounted {
        let original = current_url();
        set_url(url);
        let root = document().create_element("div").unwrap();
        document().body().unwrap().append_child(&root).unwrap();
        let handle = yew::Renderer::<App>::with_root(root.clone()).render();
        yew::scheduler::flush().await;
        Mounted {
            root,
            handle: Some(handle),
            original,
        }
    }

    /// DOM helpers over `root`, which something else mounted; on drop it is
    /// removed and the address bar set back to `original`.
    pub fn wrapping(root: Element, original: String) -> Mounted {
        Mounted {
            root,
            handle: None,
            original,
        }
    }

    pub fn query(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).unwrap()
    }

    pub fn find(&self, selector: &str) -> Element {
        self.query(selector)
            .unwrap_or_else(|| panic!("no element matches {selector:?}"))
    }

    pub fn text(&self, selector: &str) -> String {
        self.find(selector).text_content().unwrap_or_default()
    }

    /// How many elements match `selector`.
    pub fn count(&self, selector: &str) -> usize {
        self.root
            .query_selector_all(selector)
            .map_or(0, |l| l.length() as usize)
    }

    pub fn attr(&self, selector: &str, name: &str) -> String {
        self.find(selector).get_attribute(name).unwrap_or_default()
    }

    pub async fn click(&self, selector: &str) {
        self.find(selector).unchecked_into::<HtmlElement>().click();
        yew::scheduler::flush().await;
    }

    /// Presses `key` with the focus on the page body (as a teacher would).
    pub async fn press(&self, key: &str) {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(key);
        init.set_bubbles(true);
        init.set_cancelable(true);
        let e =
            web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        document().body().unwrap().dispatch_event(&e).unwrap();
        yew::scheduler::flush().await;
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            h.destroy();
        }
        self.root.remove();
        set_url(&self.original);
    }
}

/// Sets a form control's (`<input>`, `<select>`) value and fires a bubbling
/// `change`, as a user's edit does.
pub async fn change(app: &Mounted, selector: &str, value: &str) {
    let input = app.find(selector);
    if let Some(i) = input.dyn_ref::<web_sys::HtmlInputElement>() {
        i.set_value(value);
    } else if let Some(s) = input.dyn_ref::<web_sys::HtmlSelectElement>() {
        s.set_value(value);
    }
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let e = web_sys::Event::new_with_event_init_dict("change", &init).unwrap();
    input.dispatch_event(&e).unwrap();
    yew::scheduler::flush().await;
}
