//! The parts of the browser page outside the app's root element: the URL's
//! `?lang=`, `<html lang>` and the tab title.
//!
//! Every function tolerates a missing `window` (it then does nothing or falls back),
//! so the crate also links and its pure tests run natively.

use wasm_bindgen::JsValue;

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

/// The value of `name` in the address bar's query string, if present.
pub fn query_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let url = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    url.get(name)
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
