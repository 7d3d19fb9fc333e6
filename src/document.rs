//! The parts of the browser page outside the app's root element: the URL's
//! query (`?lang=` kept in step with `<html lang>` and the tab title, and
//! [`flag`]s such as `?twin=1`); what the stylesheet and the browser know (the
//! palette as custom properties, text widths in the page's fonts, projector
//! mode on `<html>`, the reduced-motion preference, the focus a pointer click
//! leaves); downloads, the clipboard and reading a chosen file.
//!
//! Every function tolerates a missing `window` (it then does nothing or falls back),
//! so the crate also links and its pure tests run natively.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::Callback;

use crate::i18n::{self, Lang, Msg};
use crate::scene::palette;

/// The language to start in: `?lang=` in the address bar, then `navigator.language`,
/// then English (see [`i18n::detect`]).
pub fn initial_lang() -> Lang {
    let Some(window) = web_sys::window() else {
        return Lang::default();
    };
    let query = window.location().search().unwrap_or_default();
    let browser = window.navigator().language();
    i18n::detect(&query, browser.as_deref())
}

/// Makes the document agree with `lang`: `<html lang>` (which also picks the CJK
/// font), the tab title, and `?lang=` in the address bar, so that a copied link or
/// a reload keeps the language. Uses `history.replaceState`: switching language
/// adds no entry to the back button's history.
pub fn apply_lang(lang: Lang) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Some(document) = window.document() {
        if let Some(root) = document.document_element() {
            let _ = root.set_attribute("lang", lang.html_lang());
        }
        document.set_title(lang.t(Msg::DocumentTitle));
    }
    let Ok(href) = window.location().href() else {
        return;
    };
    let Ok(url) = web_sys::Url::new(&href) else {
        return;
    };
    url.search_params().set("lang", lang.code());
    let new_href = url.href();
    if new_href != href {
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&new_href));
        }
    }
}

/// After a lesson switch: the address bar names the new lesson (`?scenario=`,
/// `builtin`'s name; none for an edited or imported scenario; the old lesson's
/// moment, seed, mode and run recipe go), so a copied link or a reload opens it,
/// and the page shows it from the top (a phone had scrolled the old lesson's
/// graph). `replaceState`: no history entry.
pub fn show_lesson(builtin: Option<&str>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    window.scroll_to_with_x_and_y(0.0, 0.0);
    let Ok(href) = window.location().href() else {
        return;
    };
    let Ok(url) = web_sys::Url::new(&href) else {
        return;
    };
    let params = url.search_params();
    for stale in ["t", "step", "seed", "mode"] {
        params.delete(stale);
    }
    match builtin {
        Some(name) => params.set("scenario", name),
        None => params.delete("scenario"),
    }
    if url.hash().starts_with(crate::share::PREFIX) {
        url.set_hash("");
    }
    let new_href = url.href();
    if new_href != href {
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&new_href));
        }
    }
}

/// The value of `name` in the address bar's query string, if present.
pub fn query_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let url = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    url.get(name)
}

/// Whether the address bar switches `name` on (`?twin=1`, `?projector=1`…).
pub fn flag(name: &str) -> bool {
    query_param(name).is_some_and(|v| v == "1")
}

/// Installs the stage's text measure ([`crate::scene::geometry::install_measure`]):
/// a canvas `measureText` in the stylesheet's own fonts (`--font`, bold, and
/// `--font-mono`), cached per text. Without the stylesheet (a test page), the
/// layout keeps its estimate.
pub fn install_text_measure() {
    use std::collections::HashMap;
    let Some((window, document)) = web_sys::window().and_then(|w| w.document().map(|d| (w, d)))
    else {
        return;
    };
    let Some(root) = document.document_element() else {
        return;
    };
    let Ok(Some(style)) = window.get_computed_style(&root) else {
        return;
    };
    let family = |var: &str| {
        let f = style.get_property_value(var).unwrap_or_default();
        let f = f.trim().to_string();
        (!f.is_empty()).then_some(f)
    };
    let (Some(sans), Some(mono)) = (family("--font"), family("--font-mono")) else {
        return;
    };
    let Some(ctx) = document
        .create_element("canvas")
        .ok()
        .and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        .and_then(|c| c.get_context("2d").ok().flatten())
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let fonts = [format!("700 100px {sans}"), format!("700 100px {mono}")];
    // One cache per font, looked up by `&str`: the layout asks on every frame,
    // and a hit allocates nothing.
    let cache: std::cell::RefCell<[HashMap<String, f64>; 2]> = Default::default();
    crate::scene::geometry::install_measure(Box::new(move |text: &str, face| {
        let font = usize::from(face == crate::scene::geometry::Face::Mono);
        if let Some(w) = cache.borrow()[font].get(text) {
            return Some(*w);
        }
        ctx.set_font(&fonts[font]);
        let em = ctx.measure_text(text).ok()?.width() / 100.0;
        cache.borrow_mut()[font].insert(text.to_string(), em);
        Some(em)
    }));
}

/// Scrolls the element `id` to the top of the window when the page is one column
/// (a phone, where the drill or the glossary comes after the graph and the side
/// panel) and its top is not in the upper half of the screen.
pub fn bring_on_screen_when_narrow(id: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let narrow = window
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w <= 900.0);
    let Some(element) = window.document().and_then(|d| d.get_element_by_id(id)) else {
        return;
    };
    let top = element.get_bounding_client_rect().top();
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if narrow && (top < 0.0 || top > height * 0.5) {
        element.scroll_into_view();
    }
}

/// Scrolls the main stage to the top of the window when it is not on screen
/// at all (a phone, where the page runs down past the graph to the panels).
pub fn bring_stage_on_screen() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(stage) = window
        .document()
        .and_then(|d| d.query_selector(".stage").ok().flatten())
    else {
        return;
    };
    let r = stage.get_bounding_client_rect();
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if r.bottom() <= 0.0 || r.top() >= height {
        stage.scroll_into_view_with_bool(true);
    }
}

/// After a pointer click on `clicked`: blurs the focused control if the click
/// put the focus there (the control itself, or inside it, or through its
/// label) and it is one a pointer merely toggles or presses (a button,
/// checkbox, radio, slider), so the page's keys reach the stage again. Text
/// fields and selects keep their focus (the viewer is typing or choosing), and
/// so does a control that a click moved the focus to on purpose (a menu's
/// first item).
pub fn release_pointer_focus(clicked: &web_sys::Element) {
    let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
    else {
        return;
    };
    let through_label = clicked
        .closest("label")
        .ok()
        .flatten()
        .is_some_and(|l| l.contains(Some(&el)) || l.get_attribute("for") == Some(el.id()));
    if !(clicked.contains(Some(&el)) || el.contains(Some(clicked)) || through_label) {
        return;
    }
    let kind = el.get_attribute("type").unwrap_or_default();
    let pressed = match el.tag_name().to_ascii_uppercase().as_str() {
        "BUTTON" | "SUMMARY" => true,
        "INPUT" => matches!(kind.as_str(), "checkbox" | "radio" | "range" | "button"),
        _ => false,
    };
    if pressed {
        if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
            let _ = el.blur();
        }
    }
}

/// Whether the viewer asked the system for less motion.
pub fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// The screens the job graph runs top to bottom on: a phone's width, as the
/// stylesheet's phone rules say it (`.stage--down`).
pub const PHONE_QUERY: &str = "(max-width: 600px)";

/// Whether the window is as narrow as a phone ([`PHONE_QUERY`]).
pub fn is_phone_width() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media(PHONE_QUERY).ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Turns projector mode (larger type, see `style.css`) on or off on `<html>`.
pub fn apply_projector(on: bool) {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    if let Some(root) = root {
        let _ = if on {
            root.class_list().add_1("projector")
        } else {
            root.class_list().remove_1("projector")
        };
    }
}

/// Installs the palette's colours as the stylesheet's custom properties (a
/// `<style id="palette">` in `<head>`, once): `style.css` names them, the palette
/// defines them ([`palette::css_variables`]).
pub fn install_palette() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if document.get_element_by_id("palette").is_some() {
        return;
    }
    let (Ok(style), Some(head)) = (document.create_element("style"), document.head()) else {
        return;
    };
    style.set_id("palette");
    style.set_text_content(Some(&palette::css_variables()));
    let _ = head.append_child(&style);
}

/// Offers `text` as a download named `file` of type `mime` (a Blob URL on a
/// temporary link).
pub fn download(file: &str, text: &str, mime: &str) -> Result<(), JsValue> {
    let parts: JsValue = web_sys::js_sys::Array::of1(&JsValue::from_str(text)).into();
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    a.set_href(&url);
    a.set_download(file);
    a.click();
    web_sys::Url::revoke_object_url(&url)
}

/// Puts `text` on the clipboard; `done` hears whether it worked (the browser may
/// refuse: no permission, or not a secure context).
pub fn copy_text(text: &str, done: Callback<bool>) {
    let Some(window) = web_sys::window() else {
        done.emit(false);
        return;
    };
    let promise = window.navigator().clipboard().write_text(text);
    let ok = done.clone();
    let resolved = Closure::<dyn FnMut(JsValue)>::new(move |_| ok.emit(true));
    let rejected = Closure::<dyn FnMut(JsValue)>::new(move |_| done.emit(false));
    let _ = promise.then2(&resolved, &rejected);
    // The promise settles once, after this returns: the two closures live on
    // (a few bytes per click).
    resolved.forget();
    rejected.forget();
}

/// A chosen file the browser could not hand over as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotText;

impl std::fmt::Display for NotText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the file could not be read as text")
    }
}

impl std::error::Error for NotText {}

/// Reads the file chosen in the `<input type="file">` of a `change` event as
/// text, then clears the input (so choosing the same file again is a change):
/// `on_text` hears the file's name and text, or the browser's error.
pub fn read_chosen_file(e: &web_sys::Event, on_text: Callback<(String, Result<String, NotText>)>) {
    let Some(input) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
    else {
        return;
    };
    let Some(file) = input.files().and_then(|f| f.get(0)) else {
        return;
    };
    let Ok(reader) = web_sys::FileReader::new() else {
        return;
    };
    let name = file.name();
    let r = reader.clone();
    let onload = Closure::once_into_js(move || {
        let text = r.result().ok().and_then(|v| v.as_string()).ok_or(NotText);
        on_text.emit((name, text));
    });
    reader.set_onload(Some(onload.unchecked_ref()));
    let _ = reader.read_as_text(&file);
    input.set_value("");
}

#[cfg(test)]
mod tests {
    /// The stylesheet's rules are all closed: a rule left open nests everything
    /// after it (a phone's media query swallowing the desktop's rules), which the
    /// browser accepts without a word. Every rule that starts at the line's start
    /// starts at the top level.
    #[test]
    fn every_rule_of_the_stylesheet_is_closed() {
        let css = include_str!("../assets/style.css");
        let (mut depth, mut in_comment) = (0i32, false);
        for (n, line) in css.lines().enumerate() {
            let mut code = String::new();
            let mut rest = line;
            loop {
                if in_comment {
                    match rest.find("*/") {
                        Some(i) => (in_comment, rest) = (false, &rest[i + 2..]),
                        None => break,
                    }
                } else {
                    match rest.find("/*") {
                        Some(i) => {
                            code.push_str(&rest[..i]);
                            (in_comment, rest) = (true, &rest[i + 2..]);
                        }
                        None => {
                            code.push_str(rest);
                            break;
                        }
                    }
                }
            }
            let starts_rule = code
                .chars()
                .next()
                .is_some_and(|c| !c.is_whitespace() && c != '}');
            assert!(
                !(starts_rule && depth > 0),
                "style.css line {}: `{}` starts a rule inside another (an earlier rule is not closed)",
                n + 1,
                line.trim()
            );
            depth += code.matches('{').count() as i32 - code.matches('}').count() as i32;
            assert!(
                depth >= 0,
                "style.css line {}: a `}}` closes nothing",
                n + 1
            );
        }
        assert_eq!(depth, 0, "style.css ends inside a rule");
    }
}
