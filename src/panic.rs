//! What a panic looks like to a classroom: a readable banner, not a dead page.
//!
//! [`install_hook`] keeps `console_error_panic_hook` (the stack trace for the
//! developer console) and adds [`show_error_banner`], which puts a bilingual
//! `role="alert"` banner above the page. The rendered page stays where it is, so a
//! teacher can still point at what was on screen when it broke.
//!
//! The banner is built with plain DOM calls, not Yew (whose scheduler may be the
//! thing that panicked), and its words are constants here rather than in
//! `assets/i18n/ui.json`: it must still appear when the wording file is what failed.

use wasm_bindgen::JsCast;

/// Marks the banner so a second panic adds its details to the same banner.
const BANNER_ID: &str = "panic-banner";

/// Installs the panic hook. Call once, before rendering.
///
/// Regression: it must go through [`yew::set_custom_panic_hook`]. A hook set with
/// `std::panic::set_hook` is silently replaced by console_error_panic_hook when
/// `yew::Renderer::render` runs, and the banner never appears.
pub fn install_hook() {
    yew::set_custom_panic_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_error_banner(&info.to_string());
    }));
}

/// Shows (or extends) the error banner with `detail`, the panic's message and place.
/// Does nothing outside a browser. Never panics itself: every DOM failure is ignored.
pub fn show_error_banner(detail: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(pre) = document
        .get_element_by_id(BANNER_ID)
        .and_then(|banner| banner.query_selector("pre").ok().flatten())
    {
        let previous = pre.text_content().unwrap_or_default();
        pre.set_text_content(Some(&format!("{previous}\n\n{detail}")));
        return;
    }
    let Some(banner) = build_banner(&document, detail) else {
        return;
    };
    let parent = document
        .body()
        .map(|b| b.unchecked_into::<web_sys::Element>())
        .or_else(|| document.document_element());
    if let Some(parent) = parent {
        let _ = parent.insert_before(&banner, parent.first_child().as_ref());
    }
}

fn build_banner(document: &web_sys::Document, detail: &str) -> Option<web_sys::Element> {
    let el = |tag: &str, class: &str| -> Option<web_sys::Element> {
        let e = document.create_element(tag).ok()?;
        if !class.is_empty() {
            e.set_class_name(class);
        }
        Some(e)
    };
    let text = |tag: &str, class: &str, lang: &str, content: &str| -> Option<web_sys::Element> {
        let e = el(tag, class)?;
        if !lang.is_empty() {
            let _ = e.set_attribute("lang", lang);
        }
        e.set_text_content(Some(content));
        Some(e)
    };

    let banner = el("div", "error-banner")?;
    banner.set_id(BANNER_ID);
    let _ = banner.set_attribute("role", "alert");

    let message = el("div", "error-banner__message")?;
    for (lang, title, body) in [
        (
            "zh-CN",
            "页面出错了。",
            "动画已停止，屏幕上的内容保持不变。刷新页面即可重新开始。",
        ),
        (
            "en",
            "Something went wrong.",
            "The animation has stopped; what is on screen stays. Reload the page to start again.",
        ),
    ] {
        let p = text("p", "", lang, "")?;
        let strong = text("strong", "", "", title)?;
        p.append_child(&strong).ok()?;
        p.append_child(&document.create_text_node(" ")).ok()?;
        p.append_child(&document.create_text_node(body)).ok()?;
        message.append_child(&p).ok()?;
    }

    let details = el("details", "error-banner__details")?;
    let summary = text("summary", "", "", "技术细节 · Technical details")?;
    details.append_child(&summary).ok()?;
    let pre = text("pre", "", "", detail)?;
    details.append_child(&pre).ok()?;
    message.append_child(&details).ok()?;
    banner.append_child(&message).ok()?;

    // An inline handler needs no Rust closure kept alive in a module that just panicked.
    let reload = text("button", "error-banner__reload", "", "重新加载 · Reload")?;
    let _ = reload.set_attribute("type", "button");
    let _ = reload.set_attribute("onclick", "location.reload()");
    banner.append_child(&reload).ok()?;
    Some(banner)
}
