#![cfg(target_arch = "wasm32")]
//! Browser tests of the page under a finger: a tour that asks for another
//! checkpointing mode goes on when the class switches to it (from the card or
//! the top bar's picker) and ends on any other change; on a touchscreen the
//! caption and the tour's card say "tap" and "swipe" instead of naming keys.
//!
//! Like `tests/app.rs`: the real [`App`] in headless Chromium, no sleeps, each
//! test in a fresh `<div>`, the URL put back when a test ends.

use checkpoint_lab::lessons::tour;
use engine::runner::{apply_options, ModeOverride, RunOptions};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod support;
use support::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The engine step of the last step of the unaligned-backpressure tour with the
/// lesson run aligned (as that step asks), found natively. (The aligned run has
/// no overtaking barrier: the tour's second step is not in it.)
fn aligned_last_step() -> u64 {
    let t = tour::tour_for("unaligned-backpressure").unwrap();
    let mut s = engine::runner::load("unaligned-backpressure").unwrap();
    let opts = RunOptions {
        mode: Some(ModeOverride::Aligned),
        ..Default::default()
    };
    apply_options(&mut s, &opts).unwrap();
    let each = tour::positions_each(&t, &s, s.seed).unwrap();
    assert!(each[1].is_err(), "no barrier overtakes in an aligned run");
    each[2].clone().unwrap()
}

/// Lets the page settle after a run is reloaded: the tour moves in an effect,
/// which renders again.
async fn settle() {
    for _ in 0..3 {
        yew::scheduler::flush().await;
    }
}

/// Opens unaligned-backpressure's tour at its last step (the one that asks for
/// the aligned mode).
async fn at_the_inviting_step(app: &Mounted) {
    app.click("#tour-start").await;
    app.click("#tour-next").await;
    app.click("#tour-next").await;
    let counter = app.text("#tour-counter");
    assert!(
        counter == "Step 3 of 3" || counter == "第 3 步，共 3 步",
        "{counter}"
    );
}

#[wasm_bindgen_test]
async fn the_tour_goes_on_in_the_mode_it_asks_for() {
    let aligned = aligned_last_step();
    let app = Mounted::at("?lang=en&scenario=unaligned-backpressure").await;
    at_the_inviting_step(&app).await;
    assert_eq!(app.text("#tour-invite"), "Switch to Aligned and compare");
    assert!(app.query("#tour-then").is_none());

    app.click("#tour-invite").await;
    settle().await;
    let mode = app
        .find("#mode-select")
        .dyn_into::<web_sys::HtmlSelectElement>()
        .unwrap()
        .value();
    assert_eq!(mode, "aligned");
    assert_eq!(
        app.text("#tour-counter"),
        "Step 3 of 3",
        "the tour is still there, at the step that asked"
    );
    assert!(
        app.text("#tour-then").contains("675 ms"),
        "{}",
        app.text("#tour-then")
    );
    assert!(app.query("#tour-invite").is_none(), "the change is made");
    assert_eq!(
        app.attr("#clock", "data-step"),
        aligned.to_string(),
        "the aligned run at the step's moment, not t = 0"
    );
}

#[wasm_bindgen_test]
async fn the_mode_picker_keeps_the_tour_only_for_the_mode_it_asks_for() {
    let aligned = aligned_last_step();
    let app = Mounted::at("?lang=zh&scenario=unaligned-backpressure").await;
    at_the_inviting_step(&app).await;
    change(&app, "#mode-select", "aligned").await;
    settle().await;
    assert_eq!(app.text("#tour-counter"), "第 3 步，共 3 步");
    assert!(app.text("#tour-then").contains("675 ms"));
    assert_eq!(app.attr("#clock", "data-step"), aligned.to_string());

    // At-least-once is not what the step asked for: the tour ends with its run.
    change(&app, "#mode-select", "at-least-once").await;
    settle().await;
    assert!(app.query(".tour-card").is_none(), "the tour ended");
    assert!(app.query("#tour-start").is_some());

    // A step that asks for nothing ends the tour on a change of mode too.
    app.click("#tour-start").await;
    change(&app, "#mode-select", "aligned").await;
    settle().await;
    assert!(app.query(".tour-card").is_none(), "the tour ended");
}

/// Sends a `pointerdown` of `kind` ("touch", "mouse") to the window, as a
/// finger or a mouse does.
async fn pointer(kind: &str) {
    js_sys::eval(&format!(
        "window.dispatchEvent(new PointerEvent('pointerdown', {{ pointerType: '{kind}', bubbles: true }}))"
    ))
    .unwrap();
    settle().await;
}

#[wasm_bindgen_test]
async fn a_touchscreen_is_told_to_tap_not_to_press_keys() {
    let app = Mounted::at("?lang=zh&scenario=odd-even-sum").await;
    let caption = app.text("#live-narration");
    assert!(caption.contains("空格"), "with a mouse: {caption}");

    pointer("touch").await;
    let caption = app.text("#live-narration");
    assert!(
        caption.contains("点 ▶") && !caption.contains("空格") && !caption.contains("PageDown"),
        "on a touchscreen: {caption}"
    );
    app.click("#tour-start").await;
    let keys = app.text("#tour-keys");
    assert!(keys.contains("滑动") && !keys.contains('←'), "{keys}");

    // The mouse again: keys again.
    pointer("mouse").await;
    assert!(app.text("#tour-keys").contains('←'));
    app.click("#tour-exit").await;
    assert!(app.text("#live-narration").contains("空格"));
}

#[wasm_bindgen_test]
async fn a_touchscreen_in_english_is_told_to_tap() {
    let app = Mounted::at("?lang=en&scenario=odd-even-sum").await;
    pointer("touch").await;
    let caption = app.text("#live-narration");
    assert!(
        caption.starts_with("Tap ▶ to play") && !caption.contains("Space"),
        "{caption}"
    );
    pointer("mouse").await;
}
