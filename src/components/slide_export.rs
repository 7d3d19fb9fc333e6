//! Save the moment for slides: the stage — the coordinator
//! strip the class sees above the graph, and the job graph — as an SVG file and
//! as a PNG at projector resolution (1920 × 1080), from the tools menu.
//!
//! The graph is the stage's own SVG, cloned, with every element's computed style
//! written inline (the file has no stylesheet); the strip (HTML) is redrawn as
//! SVG shapes and texts where it is on the page, from its boxes and computed
//! styles; the moving records and barriers — painted on the token canvas over
//! the graph — are embedded as an image at the same place. The PNG draws that
//! SVG (without the embedded picture, which would taint the canvas) on a
//! 1920 × 1080 white canvas, then the token canvas over it at the same scale.

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

/// The main stage's parts: its graph, token canvas and coordinator strip.
struct Parts {
    svg: Element,
    canvas: Option<HtmlCanvasElement>,
    strip: Option<Element>,
}

fn stage_parts() -> Option<Parts> {
    let doc = document()?;
    let stage = doc.query_selector(".stages .stage").ok()??;
    let svg = stage.query_selector(".scene__svg").ok()??;
    let canvas = stage
        .query_selector(".scene__tokens")
        .ok()?
        .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok());
    let strip = stage.query_selector(".strip").ok()?;
    Some(Parts { svg, canvas, strip })
}

/// A box on the page, CSS px: left, top, width, height.
type Rect = (f64, f64, f64, f64);

fn rect_of(el: &Element) -> Rect {
    let r = el.get_bounding_client_rect();
    (r.left(), r.top(), r.width(), r.height())
}

/// The slide's frame on the page: the strip and the graph together.
fn frame_of(parts: &Parts) -> Rect {
    let (gx, gy, gw, gh) = rect_of(&parts.svg);
    let Some((sx, sy, sw, _)) = parts.strip.as_ref().map(rect_of) else {
        return (gx, gy, gw, gh);
    };
    let (left, top) = (gx.min(sx), gy.min(sy));
    let right = (gx + gw).max(sx + sw);
    (left, top, right - left, gy + gh - top)
}

fn svg_el(tag: &str, attrs: &[(&str, String)]) -> Option<Element> {
    let el = document()?
        .create_element_ns(Some("http://www.w3.org/2000/svg"), tag)
        .ok()?;
    for (k, v) in attrs {
        el.set_attribute(k, v).ok()?;
    }
    Some(el)
}

fn transparent(colour: &str) -> bool {
    colour.is_empty() || colour == "transparent" || colour.ends_with(", 0)")
}

fn px(value: &str) -> f64 {
    value.trim_end_matches("px").parse().unwrap_or(0.0)
}

/// The coordinator strip (HTML) as SVG in `frame`'s coordinates: each box with
/// a background or a border a `<rect>` (dashed where the border is), each
/// element holding only text a `<text>` at its place, in its font and colour.
fn strip_svg(strip: &Element, frame: Rect) -> Option<Element> {
    let window = web_sys::window()?;
    let g = svg_el("g", &[("class", "strip".into())])?;
    let all = strip.query_selector_all("*").ok()?;
    let elements = std::iter::once(strip.clone())
        .chain((0..all.length()).filter_map(|i| all.item(i)?.dyn_into::<Element>().ok()));
    for el in elements {
        let (x, y, w, h) = rect_of(&el);
        // Nothing to draw, or visually hidden (text for screen readers only).
        if w <= 1.0 || h <= 1.0 {
            continue;
        }
        let Ok(Some(cs)) = window.get_computed_style(&el) else {
            continue;
        };
        let get = |p: &str| cs.get_property_value(p).unwrap_or_default();
        if get("visibility") == "hidden" || get("display") == "none" {
            continue;
        }
        let (x, y) = (x - frame.0, y - frame.1);
        let fill = get("background-color");
        let border = px(&get("border-top-width"));
        let has_border = border > 0.0 && get("border-top-style") != "none";
        if !transparent(&fill) || has_border {
            let mut style = format!("fill:{};", if transparent(&fill) { "none" } else { &fill });
            if has_border {
                style.push_str(&format!(
                    "stroke:{};stroke-width:{border};",
                    get("border-top-color")
                ));
                if get("border-top-style") == "dashed" {
                    style.push_str(&format!(
                        "stroke-dasharray:{} {};",
                        3.0 * border,
                        2.0 * border
                    ));
                }
            }
            let inset = if has_border { border / 2.0 } else { 0.0 };
            let rect: Element = svg_el(
                "rect",
                &[
                    ("x", (x + inset).to_string()),
                    ("y", (y + inset).to_string()),
                    ("width", (w - 2.0 * inset).to_string()),
                    ("height", (h - 2.0 * inset).to_string()),
                    ("rx", px(&get("border-top-left-radius")).to_string()),
                    ("style", style),
                ],
            )?;
            g.append_child(&rect).ok()?;
        }
        // Text: an element whose children are all text.
        let kids = el.child_nodes();
        let only_text = kids.length() > 0
            && (0..kids.length()).all(|i| {
                kids.item(i)
                    .is_some_and(|n| n.node_type() == web_sys::Node::TEXT_NODE)
            });
        let text = el.text_content().unwrap_or_default();
        if only_text && !text.trim().is_empty() {
            let pad = px(&get("padding-left")) + border;
            let (anchor, tx) = match get("text-align").as_str() {
                "center" => ("middle", x + w / 2.0),
                _ if get("display").contains("grid") || get("place-items").contains("center") => {
                    ("middle", x + w / 2.0)
                }
                _ => ("start", x + pad),
            };
            let t = svg_el(
                "text",
                &[
                    ("x", tx.to_string()),
                    ("y", (y + h / 2.0).to_string()),
                    ("dominant-baseline", "central".into()),
                    ("text-anchor", anchor.into()),
                    ("xml:space", "preserve".into()),
                    (
                        "style",
                        format!(
                            "fill:{};font-family:{};font-size:{};font-weight:{};",
                            get("color"),
                            get("font-family"),
                            get("font-size"),
                            get("font-weight")
                        ),
                    ),
                ],
            )?;
            t.set_text_content(Some(&text));
            g.append_child(&t).ok()?;
        }
    }
    Some(g)
}

/// The slide: the strip and the styled graph in one SVG of `frame`'s size,
/// drawn at 1920 × 1080 (`meet`) on white.
fn slide(parts: &Parts) -> Option<(Element, Rect)> {
    let frame = frame_of(parts);
    let (w, h) = SLIDE;
    let out = svg_el(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            ("width", w.to_string()),
            ("height", h.to_string()),
            ("viewBox", format!("0 0 {} {}", frame.2, frame.3)),
            ("preserveAspectRatio", "xMidYMid meet".into()),
            ("style", "background:#ffffff".into()),
        ],
    )?;
    // A white page behind everything.
    let page: Element = svg_el(
        "rect",
        &[
            ("x", "-10000".into()),
            ("y", "-10000".into()),
            ("width", "20000".into()),
            ("height", "20000".into()),
            ("fill", "#ffffff".into()),
        ],
    )?;
    out.append_child(&page).ok()?;
    if let Some(strip) = &parts.strip {
        let strip: Element = strip_svg(strip, frame)?;
        out.append_child(&strip).ok()?;
    }
    let graph = styled_clone(&parts.svg)?;
    let (gx, gy, gw, gh) = rect_of(&parts.svg);
    for (k, v) in [
        ("x", gx - frame.0),
        ("y", gy - frame.1),
        ("width", gw),
        ("height", gh),
    ] {
        graph.set_attribute(k, &v.to_string()).ok()?;
    }
    out.append_child(&graph).ok()?;
    Some((out, frame))
}

/// `svg` cloned, its computed styles inline.
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
    copy.remove_attribute("class").ok()?;
    copy.remove_attribute("style").ok()?;
    Some(copy)
}

fn serialize(el: &Element) -> Option<String> {
    web_sys::XmlSerializer::new()
        .ok()?
        .serialize_to_string(el)
        .ok()
}

/// The stage as a standalone SVG document: the coordinator strip above the
/// graph, with the tokens as an embedded PNG.
pub fn stage_svg() -> Option<String> {
    let parts = stage_parts()?;
    let (out, frame) = slide(&parts)?;
    if let Some(c) = &parts.canvas {
        if let Ok(url) = c.to_data_url_with_type("image/png") {
            let (x, y, w, h) = rect_of(c);
            let img = svg_el(
                "image",
                &[
                    ("x", (x - frame.0).to_string()),
                    ("y", (y - frame.1).to_string()),
                    ("width", w.to_string()),
                    ("height", h.to_string()),
                    ("href", url),
                    ("class", "tokens".to_string()),
                ],
            )?;
            out.append_child(&img).ok()?;
        }
    }
    serialize(&out)
}

/// Renders the stage to a 1920 × 1080 PNG and calls `done` with it.
pub fn stage_png(done: impl FnOnce(Result<web_sys::Blob, JsValue>) + 'static) {
    let Some(parts) = stage_parts() else {
        return done(Err("no stage".into()));
    };
    let Some((text, frame)) = slide(&parts).and_then(|(s, f)| Some((serialize(&s)?, f))) else {
        return done(Err("the stage could not be copied".into()));
    };
    let canvas = parts.canvas.map(|c| (rect_of(&c), c));
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
                // The tokens, where the slide's `meet` put the graph.
                if let Some(((cx, cy, cw, ch), c)) = canvas {
                    let s = (f64::from(w) / frame.2).min(f64::from(h) / frame.3);
                    let ox = (f64::from(w) - frame.2 * s) / 2.0;
                    let oy = (f64::from(h) - frame.3 * s) / 2.0;
                    ctx.draw_image_with_html_canvas_element_and_dw_and_dh(
                        &c,
                        ox + (cx - frame.0) * s,
                        oy + (cy - frame.1) * s,
                        cw * s,
                        ch * s,
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
