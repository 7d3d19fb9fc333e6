#![cfg(target_arch = "wasm32")]
//! Browser tests of the projector layout and the first minute: the
//! caption under the graph as the page's one narration live region, the key
//! map (PageDown / PageUp to key moments, `.` and `b` pause, the tour's keys),
//! focus moving into a panel after a tab click, the drawer (a subtask's state,
//! the glossary) narrowing the stage instead of covering it, auto-pause on in a
//! tour, projector mode, the tools menu, and the palette installed from Rust.
//!
//! Like `tests/app.rs`: the real page in headless Chromium, no sleeps.

use checkpoint_lab::scene::palette;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

mod support;
use support::*;

wasm_bindgen_test_configure!(run_in_browser);

fn step_of(app: &Mounted) -> u64 {
    app.attr("#clock", "data-step").parse().unwrap()
}

fn active_id() -> String {
    document()
        .active_element()
        .and_then(|e| e.closest("[role=tabpanel]").ok().flatten().or(Some(e)))
        .map(|e| e.id())
        .unwrap_or_default()
}

/// The latest narrated sentence is the caption under the graph — the page's
/// only live region for narration, in the current language.
#[wasm_bindgen_test]
async fn the_caption_is_the_latest_narration_and_the_one_live_region() {
    let app = Mounted::at("?lang=en&scenario=odd-even-sum&t=600").await;
    let caption = app.text("#live-narration .caption__text");
    assert!(caption.to_lowercase().contains("checkpoint 1"), "{caption}");
    assert_eq!(app.attr("#live-narration", "aria-live"), "polite");
    let regions = app
        .root
        .query_selector_all("[aria-live=polite], [aria-live=assertive]")
        .unwrap();
    let narration: Vec<String> = (0..regions.length())
        .map(|i| {
            regions
                .item(i)
                .unwrap()
                .unchecked_into::<web_sys::Element>()
                .id()
        })
        .filter(|id| id.contains("narration"))
        .collect();
    assert_eq!(narration, vec!["live-narration".to_string()]);
    // The narration tab's newest line says the same.
    app.click("#tab-narration").await;
    let latest = app.text(".narration__item--latest span:last-child");
    assert_eq!(latest, caption);
    app.click("[data-lang=zh]").await;
    assert!(
        app.text("#live-narration .caption__text")
            .contains("检查点"),
        "{}",
        app.text("#live-narration")
    );
}

/// PageDown goes to the next key moment (named in the caption), PageUp back;
/// `.` and `b` (a clicker's blank-screen keys) pause.
#[wasm_bindgen_test]
async fn page_keys_jump_between_key_moments_and_clicker_keys_pause() {
    let app = Mounted::at("?lang=en&scenario=odd-even-sum").await;
    assert!(app.query("#live-narration[data-moment]").is_none());
    app.press("PageDown").await;
    let first = step_of(&app);
    assert!(first > 0);
    assert_eq!(app.attr("#live-narration", "data-moment"), "snapshot");
    assert!(app.text(".caption__moment").starts_with("◆ Key moment"));
    app.press("PageDown").await;
    let second = step_of(&app);
    assert!(second > first);
    assert!(!app.attr("#live-narration", "data-moment").is_empty());
    app.press("PageUp").await;
    assert_eq!(step_of(&app), first, "PageUp comes back");
    app.press(" ").await;
    assert_eq!(app.attr("#play", "aria-pressed"), "true");
    app.press(".").await;
    assert_eq!(app.attr("#play", "aria-pressed"), "false", ". pauses");
    app.press(" ").await;
    app.press("b").await;
    assert_eq!(app.attr("#play", "aria-pressed"), "false", "b pauses");
}

/// Inside a tour PageDown / PageUp turn the tour's steps, and auto-pause is on
/// by default (the viewer can still switch it off).
#[wasm_bindgen_test]
async fn in_a_tour_page_keys_turn_steps_and_auto_pause_is_on() {
    let app = Mounted::at("?lang=en&scenario=odd-even-sum").await;
    let auto = || {
        app.find("#auto-pause")
            .unchecked_into::<web_sys::HtmlInputElement>()
            .checked()
    };
    assert!(!auto(), "off outside a tour");
    app.click("#tour-start").await;
    assert!(auto(), "on inside a tour");
    assert!(app.text("#tour-counter").starts_with("Step 1"));
    app.press("PageDown").await;
    assert!(app.text("#tour-counter").starts_with("Step 2"));
    app.press("PageUp").await;
    assert!(app.text("#tour-counter").starts_with("Step 1"));
    app.click("#auto-pause").await;
    assert!(!auto(), "the viewer's choice wins");
    app.click("#tour-exit").await;
    assert!(!auto());
}

/// A mouse click on a side tab opens its panel and puts the focus in it, so the
/// arrows keep stepping the simulation; a keyboard user's arrows in the tab list
/// still move between tabs.
#[wasm_bindgen_test]
async fn a_tab_click_focuses_its_panel_and_arrows_keep_stepping() {
    let app = Mounted::at("?lang=en&scenario=odd-even-sum").await;
    assert_eq!(
        app.attr(".side-panel", "data-open"),
        "false",
        "a rail at first"
    );
    // A real mouse click (detail 1), as a pointer makes it.
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_detail(1);
    let click = web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &init).unwrap();
    app.find("#tab-storage").dispatch_event(&click).unwrap();
    yew::scheduler::flush().await;
    yew::scheduler::flush().await;
    assert_eq!(app.attr(".side-panel", "data-open"), "true");
    assert_eq!(active_id(), "tabpanel-storage");
    let before = step_of(&app);
    // The key goes where the focus is (the panel), and bubbles to the page.
    let key = web_sys::KeyboardEventInit::new();
    key.set_key("ArrowRight");
    key.set_bubbles(true);
    let e = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &key).unwrap();
    document()
        .active_element()
        .unwrap()
        .dispatch_event(&e)
        .unwrap();
    yew::scheduler::flush().await;
    assert!(step_of(&app) > before, "→ in the panel steps");
    // Keyboard: Enter on a tab (a click without detail) keeps the focus there.
    app.find("#tab-sink")
        .unchecked_into::<HtmlElement>()
        .focus()
        .unwrap();
    app.find("#tab-sink")
        .unchecked_into::<HtmlElement>()
        .click();
    yew::scheduler::flush().await;
    assert_eq!(active_id(), "tab-sink");
    // The open tab's own button closes the drawer.
    app.click("#tab-sink").await;
    assert_eq!(app.attr(".side-panel", "data-open"), "false");
}

/// A lane's state and the glossary open in the drawer beside the graph, which
/// narrows instead of being covered; closing gives the width back.
#[wasm_bindgen_test]
async fn the_drawer_holds_a_subtask_and_the_glossary_beside_the_graph() {
    let app = Mounted::at("?lang=en&scenario=exactly-once-kafka").await;
    let stage_width = || app.find(".stage").get_bounding_client_rect().width();
    let wide = stage_width();
    app.click("[data-task=\"count#0\"]").await;
    assert!(app
        .query(".side-panel [data-popover-task=\"count#0\"]")
        .is_some());
    assert_eq!(app.attr("[data-task=\"count#0\"]", "aria-expanded"), "true");
    assert!(stage_width() <= wide);
    let panel = app.find(".side-panel").get_bounding_client_rect();
    let stage = app.find(".stage").get_bounding_client_rect();
    assert!(
        panel.left() >= stage.right() || panel.top() >= stage.bottom(),
        "the drawer is beside the stage, not over it"
    );
    app.click("#drawer-close").await;
    assert!(app.query("[data-popover-task]").is_none());
    // The glossary from the tools menu.
    app.click("#more-button").await;
    assert!(app
        .find("#more-menu")
        .class_list()
        .contains("menu__list--open"));
    app.click("#glossary-button").await;
    assert!(
        !app.find("#more-menu")
            .class_list()
            .contains("menu__list--open"),
        "an item closes the menu"
    );
    assert!(app.query(".side-panel #glossary").is_some());
    app.click("#drawer-close").await;
    assert!(app.query("#glossary").is_none());
}

/// Projector mode marks the page and zooms the stage's text; the fullscreen
/// button is there, named; the palette's colours are the stylesheet's.
#[wasm_bindgen_test]
async fn projector_mode_zooms_the_text_and_the_palette_comes_from_rust() {
    let app = Mounted::at("?lang=en&scenario=barrier-alignment").await;
    let size = |app: &Mounted| {
        app.find(".scene__svg")
            .get_attribute("style")
            .unwrap_or_default()
            .split(';')
            .find_map(|p| {
                p.trim()
                    .strip_prefix("--op-name:")
                    .map(|v| v.trim().to_string())
            })
            .unwrap_or_default()
    };
    let normal = size(&app);
    app.click("#projector-button").await;
    let root = document().document_element().unwrap();
    assert!(root.class_list().contains("projector"));
    assert_eq!(app.attr("#projector-button", "aria-pressed"), "true");
    let big = size(&app);
    let px = |s: &str| s.trim_end_matches("px").parse::<f64>().unwrap();
    assert!(px(&big) >= px(&normal) * 1.15, "{normal} → {big}");
    assert!(app.query("#legend, .legend").is_some(), "the legend stays");
    assert!(!app.attr("#fullscreen-button", "aria-label").is_empty());
    app.click("#projector-button").await;
    assert!(!root.class_list().contains("projector"));
    // One source of truth: the stylesheet's epoch colour is the palette's.
    let style = window()
        .get_computed_style(&root)
        .unwrap()
        .unwrap()
        .get_property_value("--epoch-1")
        .unwrap();
    assert_eq!(style.trim(), palette::EPOCHS[1].hex());
}

/// The legend lists what the graph draws, and a sink lane shows its
/// transaction in the legend's colours (committed after checkpoint 1).
#[wasm_bindgen_test]
async fn the_sink_lane_shows_its_transaction_as_the_legend_does() {
    let app = Mounted::at("?lang=en&scenario=odd-even-sum&t=600").await;
    for key in [
        "epoch",
        "barrier",
        "blocked",
        "persisted",
        "pre-committed",
        "committed",
        "aborted",
        "failure",
    ] {
        assert!(
            app.query(&format!("[data-legend=\"{key}\"]")).is_some(),
            "{key}"
        );
    }
    let chip = app.find("[data-lane=\"out#0\"] .lane__txn");
    assert_eq!(
        chip.get_attribute("data-txn-status").as_deref(),
        Some("committed")
    );
    assert!(chip.text_content().unwrap().contains("committed"));
}
