//! Save the moment for slides (issue 12, item 9): the stage's job graph as an SVG
//! file and as a PNG at projector resolution (1920 × 1080), from the tools menu.
//!
//! The SVG is the stage's own, cloned, with every element's computed style
//! written inline (the file has no stylesheet) and the moving records and
//! barriers — painted on the token canvas over the graph — embedded as an image
//! at the same place. The PNG draws that SVG (without the embedded picture, which
//! would taint the canvas) on a 1920 × 1080 white canvas, then the token canvas
//! over it at the same scale.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlCanvasElement, HtmlImageElement};
use yew::prelude::*;

use crate::hooks::use_lang;
use crate::i18n::extras::x;

/// Projector resolution of the exported slide.
pub const SLIDE: (u32, u32) = (1920, 1080);

/// Styles that decide how SVG content looks, copied from the page inline.
const STYLES: &[&str] = &[
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-opacity",
    "stroke-linecap",
    "stroke-linejoin",
    "opacity",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
    "dominant-baseline",
    "paint-order",
    "visibility",
    "display",
    "letter-spacing",
];

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// The main stage's graph and token canvas.
fn stage_parts() -> Option<(Element, Option<HtmlCanvasElement>)> {
    let doc = document()?;
    let svg = doc.query_selector(".stages .scene__svg").ok()??;
    let canvas = doc
        .query_selector(".stages .scene__tokens")
        .ok()?
        .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok());
    Some((svg, canvas))
}

/// `svg` cloned, its computed styles inline, sized for a slide, on white.
fn styled_clone(svg: &Element) -> Option<Element> {
    let window = web_sys::window()?;
    let copy: Element = svg.clone_node_with_deep(true).ok()?.dyn_into().ok()?;
    let originals = svg.query_selector_all("*").ok()?;
    let copies = copy.query_selector_all("*").ok()?;
    for i in 0..originals.length().min(copies.length()) {
        let (Some(o), Some(c)) = (originals.item(i), copies.item(i)) else {
            continue;
        };
        let (Ok(o), Ok(c)) = (o.dyn_into::<Element>(), c.dyn_into::<Element>()) else {
            continue;
        };
        let Ok(Some(cs)) = window.get_computed_style(&o) else {
            continue;
        };
        let style: String = STYLES
            .iter()
            .filter_map(|p| {
                let v = cs.get_property_value(p).ok()?;
                (!v.is_empty()).then(|| format!("{p}:{v};"))
            })
            .collect();
        let _ = c.set_attribute("style", &style);
        let _ = c.remove_attribute("class");
    }
    let (w, h) = SLIDE;
    copy.set_attribute("xmlns", "http://www.w3.org/2000/svg")
        .ok()?;
    copy.set_attribute("width", &w.to_string()).ok()?;
    copy.set_attribute("height", &h.to_string()).ok()?;
    copy.set_attribute("preserveAspectRatio", "xMidYMid meet")
        .ok()?;
    copy.remove_attribute("class").ok()?;
    copy.set_attribute("style", "background:#ffffff").ok()?;
    // A white page behind the graph.
    let doc = document()?;
    let bg = doc
        .create_element_ns(Some("http://www.w3.org/2000/svg"), "rect")
        .ok()?;
    for (k, v) in [
        ("x", "-10000"),
        ("y", "-10000"),
        ("width", "20000"),
        ("height", "20000"),
        ("fill", "#ffffff"),
    ] {
        bg.set_attribute(k, v).ok()?;
    }
    copy.insert_before(&bg, copy.first_child().as_ref()).ok()?;
    Some(copy)
}

fn view_box(svg: &Element) -> (f64, f64, f64, f64) {
    let vb = svg.get_attribute("viewBox").unwrap_or_default();
    let n: Vec<f64> = vb
        .split_whitespace()
        .filter_map(|s| s.parse().ok())
        .collect();
    match n[..] {
        [x, y, w, h] => (x, y, w, h),
        _ => (0.0, 0.0, 1.0, 1.0),
    }
}

fn serialize(el: &Element) -> Option<String> {
    web_sys::XmlSerializer::new()
        .ok()?
        .serialize_to_string(el)
        .ok()
}

/// The stage as a standalone SVG document (with the tokens as an embedded PNG).
pub fn stage_svg() -> Option<String> {
    let (svg, canvas) = stage_parts()?;
    let copy = styled_clone(&svg)?;
    if let Some(c) = canvas {
        if let Ok(url) = c.to_data_url_with_type("image/png") {
            let (x, y, w, h) = view_box(&svg);
            let img = document()?
                .create_element_ns(Some("http://www.w3.org/2000/svg"), "image")
                .ok()?;
            for (k, v) in [
                ("x", x.to_string()),
                ("y", y.to_string()),
                ("width", w.to_string()),
                ("height", h.to_string()),
                ("href", url),
                ("class", "tokens".to_string()),
            ] {
                img.set_attribute(k, &v).ok()?;
            }
            copy.append_child(&img).ok()?;
        }
    }
    serialize(&copy)
}

/// Renders the stage to a 1920 × 1080 PNG and calls `done` with it.
pub fn stage_png(done: impl FnOnce(Result<web_sys::Blob, JsValue>) + 'static) {
    let Some((svg, canvas)) = stage_parts() else {
        return done(Err("no stage".into()));
    };
    let Some(text) = styled_clone(&svg).and_then(|c| serialize(&c)) else {
        return done(Err("the stage could not be copied".into()));
    };
    let (_, _, vw, vh) = view_box(&svg);
    let result = (|| -> Result<(), JsValue> {
        let doc = document().ok_or("no document")?;
        let img: HtmlImageElement = doc.create_element("img")?.dyn_into()?;
        let (w, h) = SLIDE;
        let out: HtmlCanvasElement = doc.create_element("canvas")?.dyn_into()?;
        out.set_width(w);
        out.set_height(h);
        let img2 = img.clone();
        let done = std::cell::RefCell::new(Some(done));
        let onload = Closure::once_into_js(move || {
            let Some(done) = done.borrow_mut().take() else {
                return;
            };
            let draw = || -> Result<(), JsValue> {
                let ctx: web_sys::CanvasRenderingContext2d =
                    out.get_context("2d")?.ok_or("no 2d context")?.dyn_into()?;
                ctx.set_fill_style_str("#ffffff");
                ctx.fill_rect(0.0, 0.0, f64::from(w), f64::from(h));
                ctx.draw_image_with_html_image_element_and_dw_and_dh(
                    &img2,
                    0.0,
                    0.0,
                    f64::from(w),
                    f64::from(h),
                )?;
                // The tokens, where the SVG's `meet` put the graph.
                if let Some(c) = canvas {
                    let s = (f64::from(w) / vw).min(f64::from(h) / vh);
                    let (dw, dh) = (vw * s, vh * s);
                    ctx.draw_image_with_html_canvas_element_and_dw_and_dh(
                        &c,
                        (f64::from(w) - dw) / 2.0,
                        (f64::from(h) - dh) / 2.0,
                        dw,
                        dh,
                    )?;
                }
                Ok(())
            };
            if let Err(e) = draw() {
                return done(Err(e));
            }
            let cb = Closure::once_into_js(move |blob: JsValue| {
                done(
                    blob.dyn_into::<web_sys::Blob>()
                        .map_err(|_| JsValue::from_str("no PNG")),
                )
            });
            if let Err(e) = out.to_blob_with_type(cb.unchecked_ref(), "image/png") {
                web_sys::console::error_1(&e);
            }
        });
        img.set_onload(Some(onload.unchecked_ref()));
        let src = format!(
            "data:image/svg+xml;charset=utf-8,{}",
            String::from(web_sys::js_sys::encode_uri_component(&text))
        );
        img.set_src(&src);
        Ok(())
    })();
    if let Err(e) = result {
        web_sys::console::error_1(&e);
    }
}

/// Offers `blob` as a download named `file`.
fn download(file: &str, blob: &web_sys::Blob) -> Result<(), JsValue> {
    let url = web_sys::Url::create_object_url_with_blob(blob)?;
    let a: web_sys::HtmlAnchorElement = document()
        .ok_or("no document")?
        .create_element("a")?
        .dyn_into()?;
    a.set_href(&url);
    a.set_download(file);
    a.click();
    web_sys::Url::revoke_object_url(&url)
}

fn file_name(ext: &str) -> String {
    let lesson =
        crate::document::query_param("scenario").unwrap_or_else(|| "checkpoint-lab".into());
    format!("{lesson}-slide.{ext}")
}

/// The tools menu's two items: save the stage as SVG, as PNG.
#[component]
pub fn SlideExportItems() -> Html {
    let lang = use_lang().lang;
    let save_svg = Callback::from(|_: MouseEvent| {
        let Some(text) = stage_svg() else { return };
        let parts: JsValue = web_sys::js_sys::Array::of1(&JsValue::from_str(&text)).into();
        let opts = web_sys::BlobPropertyBag::new();
        opts.set_type("image/svg+xml");
        if let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) {
            let _ = download(&file_name("svg"), &blob);
        }
    });
    let save_png = Callback::from(|_: MouseEvent| {
        stage_png(|r| {
            if let Ok(blob) = r {
                let _ = download(&file_name("png"), &blob);
            }
        })
    });
    html! {
        <>
            <button type="button" class="menu__item" id="slide-svg" role="menuitem"
                    title={x("slide_hint", lang)} onclick={save_svg}>
                { x("slide_svg", lang) }
            </button>
            <button type="button" class="menu__item" id="slide-png" role="menuitem"
                    title={x("slide_hint", lang)} onclick={save_png}>
                { x("slide_png", lang) }
            </button>
        </>
    }
}
