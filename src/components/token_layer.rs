//! The moving tokens (records, barriers, markers, "+N") painted on a `<canvas>`
//! laid over the stage's SVG, outside Yew's virtual DOM.
//!
//! Why: with ~300 records in flight (`busy-network`) a token per SVG group meant
//! Yew diffing some 1,500 nodes per frame and the browser re-laying-out and
//! re-painting them; frame intervals were 117 ms (p50) / 267 ms (p95) on the
//! two-core classroom-class machine. The static picture (operators, lanes,
//! channels, queues' locks and tags) stays SVG, so it keeps its accessible names;
//! the tokens are decorative and their content is summarised in text by the
//! stage (records and barriers per channel, see `stage::token_summary`).
//!
//! The visual vocabulary is the SVG's: records are small rounded squares tinted
//! by epoch colour *and* overlaid with an epoch pattern (stripes, dots, bars: a
//! second cue besides colour), labelled with their value; barriers are dark bars
//! with a tag `B<n>` (`S<n>` for a savepoint); unaligned barriers are hollow and
//! dashed; a persisted record has a dashed ring; a replayed record (read again
//! after a restore) a solid ring and a ↺. Colours, patterns and sizes come
//! from [`crate::scene::palette`] (as the SVG's and the legend's do); only the
//! font families are read from the stylesheet.
//!
//! What was painted is also written on the canvas as data attributes
//! (`data-tokens`, `data-records`, `data-barriers`, `data-unaligned-barriers`,
//! `data-checkpoints`, `data-replays` and the replayed records' origins), which the browser tests and `scripts/measure-frames.cjs`
//! read instead of counting DOM nodes.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasPattern, CanvasRenderingContext2d, HtmlCanvasElement};

use crate::scene::palette::{self, Pattern, Status, EPOCHS, TOKEN_CORNER};
use crate::scene::{Overflow, Token, TokenKind, TOKEN};

/// Colours (as canvas strings), fonts and patterns, made once per canvas.
struct Palette {
    epochs: Vec<String>,
    /// The label colour on each epoch's records.
    labels: Vec<String>,
    barrier: String,
    persisted: String,
    /// Replayed records' ring and ↺ (the rewind's accent).
    replay: String,
    aborted: String,
    ghost: String,
    text: String,
    text_muted: String,
    /// `800 17px <--font>` and friends, in scene units (the context is scaled).
    font_label: String,
    font_mono_label: String,
    font_small: String,
    font_small_bold: String,
    font_brace: String,
    font_overflow: String,
    /// `[5, 3]`, `[4, 2]`, `[4, 2]`, `[]` as JS arrays for `setLineDash`.
    dash_bar: JsValue,
    dash_tag: JsValue,
    dash_none: JsValue,
    /// The font the context has now (empty: unknown, after a resize). Setting
    /// `font` on a canvas in the document resolves it against the page's styles
    /// each time, even to the same value: 6 ms a set on a 4× slower CPU, one
    /// set per frame was a tenth of playback's main thread. The context keeps
    /// its font from frame to frame, so most frames set none.
    font_now: std::cell::RefCell<String>,
}

impl Palette {
    /// Makes `font` the context's font, unless it already is.
    fn font(&self, ctx: &CanvasRenderingContext2d, font: &str) {
        let mut now = self.font_now.borrow_mut();
        if *now != font {
            ctx.set_font(font);
            now.clear();
            now.push_str(font);
        }
    }
}

/// Record bodies rendered once per epoch at the canvas's scale, then copied
/// (`drawImage`) for each record: filling, patterning and outlining ~300
/// rounded squares every frame was most of a frame's time on a projector-sized
/// stage (busy-network); copying them is a fraction of it. (Labels are drawn as
/// text: sprites for them would be made anew after every seek.)
#[derive(Default)]
struct Sprites {
    /// Device pixels per scene unit they were drawn at.
    scale: f64,
    /// One body per epoch colour (fill, pattern, outline).
    bodies: Vec<HtmlCanvasElement>,
}

fn new_canvas(w: u32, h: u32) -> Option<(HtmlCanvasElement, CanvasRenderingContext2d)> {
    let doc = web_sys::window()?.document()?;
    let c: HtmlCanvasElement = doc.create_element("canvas").ok()?.dyn_into().ok()?;
    c.set_width(w.max(1));
    c.set_height(h.max(1));
    let ctx: CanvasRenderingContext2d = c.get_context("2d").ok()??.dyn_into().ok()?;
    Some((c, ctx))
}

impl Sprites {
    /// The body of an epoch-`e` record, drawn at `scale`.
    fn body(p: &Palette, e: usize, scale: f64) -> Option<HtmlCanvasElement> {
        let side = ((TOKEN + 2.0) * scale).ceil() as u32;
        let (c, t) = new_canvas(side, side)?;
        let _ = t.set_transform(scale, 0.0, 0.0, scale, 0.0, 0.0);
        t.begin_path();
        let _ = t.round_rect_with_f64(1.0, 1.0, TOKEN, TOKEN, TOKEN_CORNER);
        t.set_fill_style_str(&p.epochs[e]);
        t.fill();
        let tile = pattern(&t, palette::PATTERNS[e]);
        if let Some(pat) = &tile {
            t.set_fill_style_canvas_pattern(pat);
            t.fill();
        }
        t.set_stroke_style_str(palette::OUTLINE);
        t.set_line_width(1.0);
        t.stroke();
        Some(c)
    }
}

/// What the layer keeps between frames: the palette, the canvas's backing size,
/// and the data attributes last written (so unchanged ones are not rewritten).
#[derive(Default)]
pub struct TokenLayer {
    palette: Option<Palette>,
    sprites: Sprites,
    /// The canvas's CSS size, as the resize observer last saw it (reading
    /// `clientWidth` in every frame forced a synchronous layout: a fifth of the
    /// main thread's time in a profile).
    css_size: Option<(i32, i32)>,
    attrs: Counts,
    /// The canvas painted last: another element starts with a fresh context.
    canvas: Option<HtmlCanvasElement>,
}

/// What one frame painted.
#[derive(Clone, Default, PartialEq)]
struct Counts {
    tokens: usize,
    records: usize,
    barriers: usize,
    unaligned: usize,
    /// Checkpoint ids of the barriers painted, ascending, space separated.
    checkpoints: String,
    /// Braces over one checkpoint's records.
    braces: usize,
    /// Where a pixel probe finds the first record's colour: a point inside its
    /// body, clear of its label, in CSS pixels of the canvas, and the colour
    /// (`x,y,#rrggbb`; empty without records).
    probe: String,
    /// Records persisted into an unaligned checkpoint's channel state, and where
    /// a probe finds the first one's colour: `x,y,#rrggbb,epoch,checkpoint`
    /// (its epoch is that checkpoint's: it is chk-n's channel state).
    persisted: usize,
    persisted_probe: String,
    /// Records read again after a restore (marked ↺), and the origins
    /// (`partition:offset`, space separated) of those marked and of the other
    /// records of replayed partitions — so a check sees that exactly the ones
    /// below the offset read before the failure are marked.
    replays: usize,
    replay_origins: String,
    fresh_origins: String,
}

fn var(style: &web_sys::CssStyleDeclaration, name: &str, fallback: &str) -> String {
    let v = style.get_property_value(name).unwrap_or_default();
    let v = v.trim();
    if v.is_empty() {
        fallback.to_string()
    } else {
        v.to_string()
    }
}

fn js_array(values: &[f64]) -> JsValue {
    values
        .iter()
        .map(|v| JsValue::from_f64(*v))
        .collect::<js_sys::Array>()
        .into()
}

/// A 6×6 tile with the overlay of `pattern` (as the SVG's `defs()` draws it).
fn pattern(ctx: &CanvasRenderingContext2d, pattern: Pattern) -> Option<CanvasPattern> {
    if pattern == Pattern::Plain {
        return None;
    }
    let doc = web_sys::window()?.document()?;
    let tile: HtmlCanvasElement = doc.create_element("canvas").ok()?.dyn_into().ok()?;
    tile.set_width(6);
    tile.set_height(6);
    let t: CanvasRenderingContext2d = tile.get_context("2d").ok()??.dyn_into().ok()?;
    match pattern {
        Pattern::Plain => {}
        Pattern::Stripes => {
            t.set_stroke_style_str(palette::PATTERN_INK);
            t.set_line_width(2.0);
            t.begin_path();
            for k in [-6.0, 0.0, 6.0] {
                t.move_to(k, 6.0);
                t.line_to(k + 6.0, 0.0);
            }
            t.stroke();
        }
        Pattern::Dots => {
            t.set_fill_style_str(palette::PATTERN_INK);
            t.begin_path();
            t.arc(3.0, 3.0, 1.4, 0.0, std::f64::consts::TAU).ok()?;
            t.fill();
        }
        Pattern::Bars => {
            t.set_fill_style_str(palette::PATTERN_INK);
            t.fill_rect(0.0, 0.0, 6.0, 2.0);
        }
    }
    ctx.create_pattern_with_html_canvas_element(&tile, "repeat")
        .ok()?
}

fn palette(canvas: &HtmlCanvasElement) -> Option<Palette> {
    let style = web_sys::window()?.get_computed_style(canvas).ok()??;
    let font = var(&style, "--font", "sans-serif");
    let mono = var(&style, "--font-mono", "monospace");
    Some(Palette {
        epochs: EPOCHS.iter().map(|c| c.hex()).collect(),
        labels: EPOCHS.iter().map(|c| palette::label_on(*c).hex()).collect(),
        barrier: palette::BARRIER.hex(),
        persisted: Status::Persisted.colour().hex(),
        replay: palette::REPLAY.hex(),
        aborted: Status::Aborted.colour().hex(),
        ghost: palette::GHOST.hex(),
        text: var(&style, "--text", "#101720"),
        text_muted: var(&style, "--text-muted", "#46505e"),
        font_label: format!("800 {}px {font}", palette::RECORD_LABEL),
        font_mono_label: format!("800 {}px {mono}", palette::BARRIER_LABEL),
        font_small: format!("700 14px {font}"),
        font_small_bold: format!("800 14px {font}"),
        font_brace: format!("800 {}px {font}", crate::scene::placement::BRACE_TEXT),
        font_overflow: format!("800 {}px {mono}", crate::scene::placement::OVERFLOW_TEXT),
        dash_bar: js_array(&[5.0, 3.0]),
        dash_tag: js_array(&[4.0, 2.0]),
        dash_none: js_array(&[]),
        font_now: Default::default(),
    })
}

fn set_attr(canvas: &HtmlCanvasElement, name: &str, value: &str) {
    let _ = canvas.set_attribute(name, value);
}

impl TokenLayer {
    /// Notes the canvas's new CSS size (called by a `ResizeObserver`, when
    /// layout is up to date anyway).
    pub fn resized(&mut self, canvas: &HtmlCanvasElement) {
        self.css_size = Some((canvas.client_width(), canvas.client_height()));
    }

    /// Paints `tokens` and `overflows` of a scene `scene_w` × `scene_h` on `canvas`,
    /// which covers the SVG exactly (same box, same aspect ratio).
    pub fn paint(
        &mut self,
        canvas: &HtmlCanvasElement,
        scene_w: f64,
        scene_h: f64,
        tokens: &[Token],
        overflows: &[Overflow],
        braces: &[crate::scene::braces::Brace],
    ) {
        let Some((ctx, scale)) = self.prepare(canvas, scene_w, scene_h) else {
            return;
        };
        let Some(p) = &self.palette else { return };
        // Records: each epoch's body copied from its sprite (drawn once at this
        // scale), then persisted rings, replay marks, then labels.
        self.sprites.refresh(p, scale.x);
        self.sprites.paint_bodies(&ctx, tokens);
        paint_persisted_rings(&ctx, p, tokens);
        paint_replay_marks(&ctx, p, tokens);
        paint_record_labels(&ctx, p, tokens);
        paint_markers(&ctx, p, tokens);
        paint_braces(&ctx, p, braces);
        paint_overflows(&ctx, p, overflows);
        let counts = Counts::of(tokens, braces.len(), scale);
        if counts != self.attrs {
            counts.write(canvas);
            self.attrs = counts;
        }
    }

    /// The canvas's 2D context, sized to the canvas's CSS box at the device's
    /// pixel ratio, cleared and scaled to scene units; and that scale.
    fn prepare(
        &mut self,
        canvas: &HtmlCanvasElement,
        scene_w: f64,
        scene_h: f64,
    ) -> Option<(CanvasRenderingContext2d, Scale)> {
        let ctx = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())?;
        let dpr = web_sys::window()
            .map_or(1.0, |w| w.device_pixel_ratio())
            .max(1.0);
        let (cw, ch) = self
            .css_size
            .unwrap_or_else(|| (canvas.client_width(), canvas.client_height()));
        let (cw, ch) = (cw.max(1), ch.max(1));
        let size = (
            (f64::from(cw) * dpr).round() as u32,
            (f64::from(ch) * dpr).round() as u32,
        );
        // The canvas's own backing size decides, not the last one this layer
        // set: the stage may have a new canvas element (its default 300 × 150).
        let mut fresh = self.canvas.as_ref() != Some(canvas);
        if (canvas.width(), canvas.height()) != size {
            // Resizing clears the canvas and its state (fonts, transforms).
            canvas.set_width(size.0);
            canvas.set_height(size.1);
            fresh = true;
        }
        if self.palette.is_none() {
            self.palette = palette(canvas);
        }
        let p = self.palette.as_ref()?;
        if fresh {
            p.font_now.borrow_mut().clear();
            self.canvas = Some(canvas.clone());
        }
        let _ = ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
        ctx.clear_rect(0.0, 0.0, f64::from(size.0), f64::from(size.1));
        let scale = Scale {
            x: f64::from(size.0) / scene_w,
            y: f64::from(size.1) / scene_h,
            dpr,
        };
        let _ = ctx.set_transform(scale.x, 0.0, 0.0, scale.y, 0.0, 0.0);
        ctx.set_text_align("center");
        ctx.set_text_baseline("middle");
        Some((ctx, scale))
    }
}

/// Device pixels per scene unit on the canvas, and device pixels per CSS pixel.
#[derive(Clone, Copy)]
struct Scale {
    x: f64,
    y: f64,
    dpr: f64,
}

impl Scale {
    /// A scene point in CSS pixels of the canvas.
    fn css(self, x: f64, y: f64) -> (f64, f64) {
        (x * self.x / self.dpr, y * self.y / self.dpr)
    }
}

impl Sprites {
    /// Draws the bodies anew when the scale changed (or none were drawn yet).
    fn refresh(&mut self, p: &Palette, scale: f64) {
        if (self.scale - scale).abs() > 1e-6 || self.bodies.is_empty() {
            *self = Sprites {
                scale,
                bodies: (0..EPOCHS.len())
                    .filter_map(|e| Sprites::body(p, e, scale))
                    .collect(),
            };
        }
    }

    /// Each record's body, copied from its epoch's sprite.
    fn paint_bodies(&self, ctx: &CanvasRenderingContext2d, tokens: &[Token]) {
        if self.bodies.len() != EPOCHS.len() {
            return;
        }
        let h = TOKEN / 2.0;
        for tok in tokens {
            if let TokenKind::Record { epoch, .. } = tok.kind {
                let sprite = &self.bodies[(epoch % EPOCHS.len() as u64) as usize];
                let _ = ctx.draw_image_with_html_canvas_element_and_dw_and_dh(
                    sprite,
                    tok.x - h - 1.0,
                    tok.y - h - 1.0,
                    TOKEN + 2.0,
                    TOKEN + 2.0,
                );
            }
        }
    }
}

/// One path of rounded rings `pad` outside the bodies of `tokens`.
fn ring_path<'a>(
    ctx: &CanvasRenderingContext2d,
    tokens: impl Iterator<Item = &'a Token>,
    pad: f64,
) {
    let h = TOKEN / 2.0;
    ctx.begin_path();
    for tok in tokens {
        let side = TOKEN + 2.0 * pad;
        let _ = ctx.round_rect_with_f64(tok.x - h - pad, tok.y - h - pad, side, side, 6.0);
    }
}

/// A dashed ring around each record persisted into an unaligned checkpoint's
/// channel state.
fn paint_persisted_rings(ctx: &CanvasRenderingContext2d, p: &Palette, tokens: &[Token]) {
    if !tokens.iter().any(|t| t.is_persisting) {
        return;
    }
    ring_path(ctx, tokens.iter().filter(|t| t.is_persisting), 4.0);
    ctx.set_stroke_style_str(&p.persisted);
    ctx.set_line_width(3.0);
    let _ = ctx.set_line_dash(&p.dash_tag);
    ctx.stroke();
    let _ = ctx.set_line_dash(&p.dash_none);
}

/// Replayed records (read again after a restore): a solid ring and a ↺ at the
/// top right corner.
fn paint_replay_marks(ctx: &CanvasRenderingContext2d, p: &Palette, tokens: &[Token]) {
    if !tokens.iter().any(|t| t.is_replay) {
        return;
    }
    let h = TOKEN / 2.0;
    ring_path(ctx, tokens.iter().filter(|t| t.is_replay), 2.0);
    ctx.set_stroke_style_str(&p.replay);
    ctx.set_line_width(3.0);
    ctx.stroke();
    ctx.begin_path();
    for tok in tokens.iter().filter(|t| t.is_replay) {
        ctx.move_to(tok.x + h + 8.0, tok.y - h);
        let _ = ctx.arc(tok.x + h, tok.y - h, 8.0, 0.0, std::f64::consts::TAU);
    }
    ctx.set_fill_style_str(&p.replay);
    ctx.fill();
    p.font(ctx, &p.font_small_bold);
    ctx.set_fill_style_str("#ffffff");
    for tok in tokens.iter().filter(|t| t.is_replay) {
        let _ = ctx.fill_text("↺", tok.x + h, tok.y - h + 1.0);
    }
}

/// The records' values, only where they can be read: on a busy wire records
/// overlap, and a pile of overprinted numbers is noise on a projector. A record
/// is labelled when it is at least 0.8 of a token from the last labelled one on
/// its channel (queued records are spaced apart, so they all are).
fn paint_record_labels(ctx: &CanvasRenderingContext2d, p: &Palette, tokens: &[Token]) {
    p.font(ctx, &p.font_label);
    let n_epochs = EPOCHS.len() as u64;
    let mut last: Option<(usize, f64, f64)> = None;
    let mut labelled: Vec<(usize, &Token)> = Vec::new();
    for tok in tokens {
        if let TokenKind::Record { epoch, .. } = &tok.kind {
            let crowded = last.is_some_and(|(ch, x, y)| {
                ch == tok.channel && (tok.x - x).hypot(tok.y - y) < TOKEN * 0.8
            });
            if crowded {
                continue;
            }
            last = Some((tok.channel, tok.x, tok.y));
            labelled.push(((*epoch % n_epochs) as usize, tok));
        }
    }
    // Labels per label colour: one fill style each, not one per record.
    for (colour, ink) in p.labels.iter().enumerate() {
        if p.labels[..colour].contains(ink) {
            continue; // drawn with an earlier epoch of the same label colour
        }
        ctx.set_fill_style_str(ink);
        for (e, tok) in &labelled {
            if p.labels[*e] == *ink {
                if let TokenKind::Record { label, .. } = &tok.kind {
                    let _ = ctx.fill_text(label, tok.x, tok.y + 1.0);
                }
            }
        }
    }
}

/// Barriers, cancellation markers and end-of-partition markers.
fn paint_markers(ctx: &CanvasRenderingContext2d, p: &Palette, tokens: &[Token]) {
    for tok in tokens {
        let (x, y) = (tok.x, tok.y);
        match &tok.kind {
            TokenKind::Record { .. } => {}
            TokenKind::Barrier {
                checkpoint,
                is_unaligned,
                is_savepoint,
            } => paint_barrier(ctx, p, tok, *checkpoint, *is_unaligned, *is_savepoint),
            TokenKind::Cancel { checkpoint } => {
                ctx.begin_path();
                let _ = ctx.arc(x, y, 13.0, 0.0, std::f64::consts::TAU);
                ctx.set_fill_style_str(&p.aborted);
                ctx.fill();
                p.font(ctx, &p.font_small_bold);
                ctx.set_fill_style_str("#ffffff");
                let _ = ctx.fill_text(&format!("✕{checkpoint}"), x, y);
            }
            TokenKind::End => {
                ctx.begin_path();
                let _ = ctx.round_rect_with_f64(x - 3.0, y - 14.0, 6.0, 28.0, 2.0);
                ctx.set_fill_style_str(&p.ghost);
                ctx.fill();
                p.font(ctx, &p.font_small);
                ctx.set_fill_style_str(&p.text_muted);
                ctx.set_text_baseline("alphabetic");
                let _ = ctx.fill_text("EOP", x, y - 20.0);
                ctx.set_text_baseline("middle");
            }
        }
    }
}

/// A barrier: its bar on the wire and its tag `B<n>` (`S<n>` for a savepoint);
/// an unaligned one hollow and dashed, since it overtakes records, which stay
/// visible.
fn paint_barrier(
    ctx: &CanvasRenderingContext2d,
    p: &Palette,
    tok: &Token,
    checkpoint: u64,
    is_unaligned: bool,
    is_savepoint: bool,
) {
    let (x, y) = (tok.x, tok.y);
    let tag = format!("{}{}", if is_savepoint { "S" } else { "B" }, checkpoint);
    ctx.begin_path();
    // The bar lies across its channel: upright on a level one, level on one
    // running down.
    let (bw, bh) = if tok.down {
        let (w, h) = palette::BARRIER_BAR;
        (h, w)
    } else {
        palette::BARRIER_BAR
    };
    let (tw, th) = palette::BARRIER_TAG;
    // The tag where the placement pass put it (its channel's outer side unless
    // that spot was taken).
    let tag_rect = tok
        .tag
        .unwrap_or_else(|| crate::scene::placement::natural_tag(x, y, tok.side, tok.down));
    let (tag_x, tag_y) = (tag_rect.x + tw / 2.0, tag_rect.y);
    let _ = ctx.round_rect_with_f64(x - bw / 2.0, y - bh / 2.0, bw, bh, 2.0);
    let _ = ctx.round_rect_with_f64(tag_rect.x, tag_y, tw, th, 4.0);
    if is_unaligned {
        ctx.set_fill_style_str("#ffffff");
        ctx.fill();
        ctx.set_stroke_style_str(&p.barrier);
        ctx.set_line_width(2.5);
        let _ = ctx.set_line_dash(&p.dash_bar);
        ctx.stroke();
        let _ = ctx.set_line_dash(&p.dash_none);
        ctx.set_fill_style_str(&p.barrier);
    } else {
        ctx.set_fill_style_str(&p.barrier);
        ctx.fill();
        ctx.set_fill_style_str("#ffffff");
    }
    p.font(ctx, &p.font_mono_label);
    let _ = ctx.fill_text(&tag, tag_x, tag_y + th / 2.0 + 0.5);
}

/// Braces over each checkpoint's records (Flink's documentation figures).
fn paint_braces(
    ctx: &CanvasRenderingContext2d,
    p: &Palette,
    braces: &[crate::scene::braces::Brace],
) {
    if braces.is_empty() {
        return;
    }
    ctx.set_stroke_style_str(&p.text_muted);
    ctx.set_line_width(1.5);
    let _ = ctx.set_line_dash(&p.dash_none);
    ctx.begin_path();
    for b in braces {
        ctx.move_to(b.a.0 + b.tick.0, b.a.1 + b.tick.1);
        ctx.line_to(b.a.0, b.a.1);
        ctx.line_to(b.b.0, b.b.1);
        ctx.line_to(b.b.0 + b.tick.0, b.b.1 + b.tick.1);
    }
    ctx.stroke();
    p.font(ctx, &p.font_brace);
    ctx.set_fill_style_str(&p.text_muted);
    for b in braces {
        let _ = ctx.fill_text(&format!("chk-{}", b.epoch), b.label_at.0, b.label_at.1);
    }
}

/// "+N" beside long queues (y is the text's baseline, as in the SVG).
fn paint_overflows(ctx: &CanvasRenderingContext2d, p: &Palette, overflows: &[Overflow]) {
    if overflows.is_empty() {
        return;
    }
    p.font(ctx, &p.font_overflow);
    ctx.set_fill_style_str(&p.text);
    ctx.set_text_baseline("alphabetic");
    for o in overflows {
        let _ = ctx.fill_text(&format!("+{}", o.count), o.x, o.y);
    }
}

impl Counts {
    /// What a frame of `tokens` and `braces` braces paints, at `scale`.
    fn of(tokens: &[Token], braces: usize, scale: Scale) -> Counts {
        let mut checkpoints: Vec<u64> = Vec::new();
        let mut counts = Counts {
            tokens: tokens.len(),
            braces,
            persisted: tokens.iter().filter(|t| t.is_persisting).count(),
            replays: tokens.iter().filter(|t| t.is_replay).count(),
            ..Counts::default()
        };
        for tok in tokens {
            match tok.kind {
                TokenKind::Record { .. } => counts.records += 1,
                TokenKind::Barrier {
                    checkpoint,
                    is_unaligned,
                    ..
                } => {
                    counts.barriers += 1;
                    counts.unaligned += usize::from(is_unaligned);
                    checkpoints.push(checkpoint);
                }
                _ => {}
            }
        }
        checkpoints.sort_unstable();
        checkpoints.dedup();
        counts.checkpoints = checkpoints
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        counts.probe(tokens, scale);
        if counts.replays > 0 {
            counts.replay_origins(tokens);
        }
        counts
    }

    /// The pixel probes: the first record's colour, and the first persisted
    /// record's colour, epoch and checkpoint.
    fn probe(&mut self, tokens: &[Token], scale: Scale) {
        // Near the body's top-left corner, inside the outline.
        let corner = |tok: &Token| scale.css(tok.x - TOKEN / 2.0 + 4.0, tok.y - TOKEN / 2.0 + 4.0);
        if let Some((tok, epoch)) = tokens.iter().find_map(|t| match t.kind {
            TokenKind::Record { epoch, .. } => Some((t, epoch)),
            _ => None,
        }) {
            let (px, py) = corner(tok);
            self.probe = format!("{px:.1},{py:.1},{}", palette::epoch_colour(epoch).hex());
        }
        if let Some((tok, epoch, by)) = tokens.iter().find_map(|t| match t.kind {
            TokenKind::Record {
                epoch,
                persisted: Some(by),
                ..
            } => Some((t, epoch, by)),
            _ => None,
        }) {
            let (px, py) = corner(tok);
            self.persisted_probe = format!(
                "{px:.1},{py:.1},{},{epoch},{by}",
                palette::epoch_colour(epoch).hex()
            );
        }
    }

    /// The origins of the records marked ↺ and of the other records of the
    /// partitions they replay.
    fn replay_origins(&mut self, tokens: &[Token]) {
        // `<ch>:r<source>.<partition>.<offset>[#n]` (the token's id).
        let origin = |t: &Token| {
            let o = t.id.split(":r").nth(1)?.split('#').next()?;
            let mut it = o.split('.').skip(1);
            Some(format!("{}:{}", it.next()?, it.next()?))
        };
        let partition = |o: &str| o.split(':').next().map(str::to_string);
        let marked: Vec<String> = tokens
            .iter()
            .filter(|t| t.is_replay)
            .filter_map(origin)
            .collect();
        let parts: Vec<String> = marked.iter().filter_map(|o| partition(o)).collect();
        let fresh: Vec<String> = tokens
            .iter()
            .filter(|t| !t.is_replay && matches!(t.kind, TokenKind::Record { .. }))
            .filter_map(origin)
            .filter(|o| partition(o).is_some_and(|p| parts.contains(&p)))
            .collect();
        self.replay_origins = marked.join(" ");
        self.fresh_origins = fresh.join(" ");
    }

    /// Writes the counts on the canvas as its data attributes.
    fn write(&self, canvas: &HtmlCanvasElement) {
        set_attr(canvas, "data-tokens", &self.tokens.to_string());
        set_attr(canvas, "data-records", &self.records.to_string());
        set_attr(canvas, "data-barriers", &self.barriers.to_string());
        set_attr(
            canvas,
            "data-unaligned-barriers",
            &self.unaligned.to_string(),
        );
        set_attr(canvas, "data-checkpoints", &self.checkpoints);
        set_attr(canvas, "data-braces", &self.braces.to_string());
        set_attr(canvas, "data-probe", &self.probe);
        set_attr(canvas, "data-persisted", &self.persisted.to_string());
        set_attr(canvas, "data-persisted-probe", &self.persisted_probe);
        set_attr(canvas, "data-replays", &self.replays.to_string());
        set_attr(canvas, "data-replay-origins", &self.replay_origins);
        set_attr(canvas, "data-fresh-origins", &self.fresh_origins);
    }
}
