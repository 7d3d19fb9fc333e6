#![cfg(target_arch = "wasm32")]
//! Browser tests: the real [`App`] mounted into headless Chromium's DOM.
//!
//! Run with `wasm-bindgen-test-runner` (see `scripts/`):
//! `cargo test -p checkpoint-lab --target wasm32-unknown-unknown`.
//! No sleeps: after mounting or clicking, `yew::scheduler::flush().await` lets Yew
//! finish rendering (and run its effects) before a test looks at the DOM.
//!
//! All tests share one page (and so one URL and one `<html>`), and run one after
//! another; each mounts into a fresh `<div>`, sets the `?lang=` it needs first,
//! and puts the URL back when it ends.

use checkpoint_lab::i18n::{Lang, Msg};
use checkpoint_lab::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};
use yew::AppHandle;

wasm_bindgen_test_configure!(run_in_browser);

fn window() -> web_sys::Window {
    web_sys::window().expect("a browser window")
}

fn document() -> web_sys::Document {
    window().document().expect("a document")
}

fn search() -> String {
    window().location().search().unwrap()
}

fn html_lang() -> String {
    document()
        .document_element()
        .unwrap()
        .get_attribute("lang")
        .unwrap_or_default()
}

/// Sets the address bar's query string (e.g. `"?lang=en"`) without reloading.
fn set_query(query: &str) {
    let path = window().location().pathname().unwrap();
    window()
        .history()
        .unwrap()
        .replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{query}")),
        )
        .unwrap();
}

/// The app mounted into its own `<div>`; unmounts and restores the URL on drop.
struct Mounted {
    root: Element,
    handle: Option<AppHandle<App>>,
    original_query: String,
}

impl Mounted {
    /// Mounts [`App`] with `query` in the address bar, and waits for the first render.
    async fn with_query(query: &str) -> Mounted {
        let original_query = search();
        set_query(query);
        let root = document().create_element("div").unwrap();
        document().body().unwrap().append_child(&root).unwrap();
        let handle = yew::Renderer::<App>::with_root(root.clone()).render();
        yew::scheduler::flush().await;
        Mounted {
            root,
            handle: Some(handle),
            original_query,
        }
    }

    fn find(&self, selector: &str) -> Element {
        self.root
            .query_selector(selector)
            .unwrap()
            .unwrap_or_else(|| panic!("no element matches {selector:?}"))
    }

    fn text(&self, selector: &str) -> String {
        self.find(selector).text_content().unwrap_or_default()
    }

    fn attr(&self, selector: &str, name: &str) -> String {
        self.find(selector).get_attribute(name).unwrap_or_default()
    }

    async fn click(&self, selector: &str) {
        self.find(selector).unchecked_into::<HtmlElement>().click();
        yew::scheduler::flush().await;
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            handle.destroy();
        }
        self.root.remove();
        set_query(&self.original_query);
    }
}

/// The first real browser test: click 中文 / English and see the page follow.
#[wasm_bindgen_test]
async fn language_switch_changes_title_html_lang_and_url() {
    let app = Mounted::with_query("?lang=zh").await;
    assert_eq!(app.text(".masthead__name"), "Flink 检查点实验室");
    assert!(app.text("h1").starts_with("checkpoint-lab"));
    assert_eq!(html_lang(), "zh-CN");
    assert_eq!(document().title(), Lang::Zh.t(Msg::DocumentTitle));
    assert_eq!(app.attr("[data-lang=zh]", "aria-pressed"), "true");
    assert_eq!(app.attr("[data-lang=en]", "aria-pressed"), "false");

    app.click(".lang-switch [data-lang=en]").await;

    assert_eq!(app.text(".masthead__name"), "Flink Checkpointing Lab");
    assert_eq!(html_lang(), "en");
    assert_eq!(
        document().title(),
        "checkpoint-lab · Flink Checkpointing Lab"
    );
    assert_eq!(search(), "?lang=en");
    assert_eq!(app.attr("[data-lang=en]", "aria-pressed"), "true");
    assert_eq!(app.attr("[data-lang=zh]", "aria-pressed"), "false");
    // Everything else switched too, not just the title.
    assert_eq!(app.text(".stage__empty-title"), "No job loaded yet");
    assert_eq!(app.attr(".lang-switch", "aria-label"), "Interface language");

    app.click(".lang-switch [data-lang=zh]").await;

    assert_eq!(app.text(".masthead__name"), "Flink 检查点实验室");
    assert_eq!(html_lang(), "zh-CN");
    assert_eq!(search(), "?lang=zh");
}

/// The language buttons are named in the current language and say what they do.
#[wasm_bindgen_test]
async fn language_buttons_have_accessible_names_in_the_current_language() {
    let app = Mounted::with_query("?lang=zh").await;
    assert_eq!(app.find("[data-lang=en]").tag_name(), "BUTTON");
    assert_eq!(
        app.attr("[data-lang=en]", "aria-label"),
        "English — 切换为英文界面"
    );
    assert_eq!(
        app.attr("[data-lang=zh]", "aria-label"),
        "中文 — 当前界面语言"
    );

    app.click("[data-lang=en]").await;
    assert_eq!(
        app.attr("[data-lang=zh]", "aria-label"),
        "中文 — switch the interface to Chinese"
    );
    assert_eq!(
        app.attr("[data-lang=en]", "aria-label"),
        "English — current interface language"
    );
}

/// `?lang=` picks the starting language, whatever the browser's own language is.
#[wasm_bindgen_test]
async fn lang_query_parameter_picks_the_starting_language() {
    for (query, lang, title, html) in [
        ("?lang=en", Lang::En, "Flink Checkpointing Lab", "en"),
        ("?lang=zh", Lang::Zh, "Flink 检查点实验室", "zh-CN"),
        (
            "?seed=3&lang=en-GB",
            Lang::En,
            "Flink Checkpointing Lab",
            "en",
        ),
        ("?lang=zh-CN", Lang::Zh, "Flink 检查点实验室", "zh-CN"),
    ] {
        let app = Mounted::with_query(query).await;
        assert_eq!(app.text(".masthead__name"), title, "for {query}");
        assert_eq!(html_lang(), html, "for {query}");
        assert_eq!(
            app.text(".stage__empty-title"),
            lang.t(Msg::StageEmptyTitle),
            "for {query}"
        );
        assert_eq!(
            app.text(".tabs__tab[aria-selected=true]"),
            lang.t(Msg::TabCoordinator),
            "for {query}"
        );
    }
}

/// Without `?lang=`, the browser's language decides, and the URL gains `?lang=`
/// so a copied link keeps it.
#[wasm_bindgen_test]
async fn without_lang_parameter_the_browser_language_decides() {
    let expected = checkpoint_lab::i18n::detect("", window().navigator().language().as_deref());
    let app = Mounted::with_query("").await;
    assert_eq!(app.text(".masthead__name"), expected.t(Msg::AppTitle));
    assert_eq!(search(), format!("?lang={}", expected.code()));
}

/// Switching language rewrites only `lang`; other parameters (a future share link's
/// scenario and seed) survive.
#[wasm_bindgen_test]
async fn switching_language_keeps_other_query_parameters() {
    let app = Mounted::with_query("?scenario=aligned&seed=7&lang=zh").await;
    app.click("[data-lang=en]").await;
    assert_eq!(search(), "?scenario=aligned&seed=7&lang=en");
}

/// The side panel's tabs: click selects; arrow keys move selection and focus.
#[wasm_bindgen_test]
async fn side_panel_tabs_follow_clicks_and_arrow_keys() {
    let app = Mounted::with_query("?lang=en").await;
    assert_eq!(app.text(".tabpanel__heading"), "Checkpoint coordinator");
    assert_eq!(app.attr("[data-tab=coordinator]", "tabindex"), "0");

    app.click("[data-tab=sink]").await;
    assert_eq!(app.text(".tabpanel__heading"), "Two-phase-commit sink");
    assert_eq!(app.attr("[data-tab=sink]", "aria-selected"), "true");
    assert_eq!(app.attr("[data-tab=coordinator]", "aria-selected"), "false");
    assert_eq!(app.attr("[data-tab=coordinator]", "tabindex"), "-1");

    let press = |key: &str| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(key);
        init.set_bubbles(true);
        let event =
            web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        app.find(".tabs__tab[aria-selected=true]")
            .dispatch_event(&event)
            .unwrap();
    };
    press("ArrowRight");
    yew::scheduler::flush().await;
    assert_eq!(app.text(".tabpanel__heading"), "Step-by-step narration");
    let focused = document()
        .active_element()
        .and_then(|e| e.get_attribute("data-tab"));
    assert_eq!(focused.as_deref(), Some("narration"));

    press("ArrowRight"); // wraps around
    yew::scheduler::flush().await;
    assert_eq!(app.text(".tabpanel__heading"), "Checkpoint coordinator");

    press("End");
    yew::scheduler::flush().await;
    assert_eq!(app.attr("[data-tab=narration]", "aria-selected"), "true");
}

/// The panic hook's banner: a bilingual `role="alert"` above the page, which stays.
/// (Called directly: a real panic would end the test run's wasm instance.)
#[wasm_bindgen_test]
async fn error_banner_is_a_bilingual_alert_and_keeps_the_page() {
    let app = Mounted::with_query("?lang=en").await;
    checkpoint_lab::panic::show_error_banner("panicked at src/stage.rs:1:1:\nboom");
    checkpoint_lab::panic::show_error_banner("a second panic");

    let banners = document().query_selector_all("[role=alert]").unwrap();
    assert_eq!(banners.length(), 1, "a second panic extends the banner");
    let banner = document().get_element_by_id("panic-banner").unwrap();
    let text = banner.text_content().unwrap();
    assert!(text.contains("页面出错了"), "{text}");
    assert!(text.contains("Something went wrong"), "{text}");
    assert!(
        text.contains("boom") && text.contains("a second panic"),
        "{text}"
    );
    assert!(
        banner.query_selector("button").unwrap().is_some(),
        "a reload button"
    );
    // What was on screen is kept.
    assert_eq!(app.text(".masthead__name"), "Flink Checkpointing Lab");

    banner.remove();
}
