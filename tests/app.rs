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

use std::cell::RefCell;
use std::rc::Rc;

use checkpoint_lab::app::LabProps;
use checkpoint_lab::i18n::{Lang, Msg};
use checkpoint_lab::playback::{Action, State};
use checkpoint_lab::Lab;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;
use yew::{AppHandle, Callback, UseReducerDispatcher};

mod support;
use support::*;

wasm_bindgen_test_configure!(run_in_browser);

fn html_lang() -> String {
    document()
        .document_element()
        .unwrap()
        .get_attribute("lang")
        .unwrap_or_default()
}

/// Click 简 / 繁 / EN and see the page follow: title, `<html lang>` and the URL.
#[wasm_bindgen_test]
async fn language_switch_changes_title_html_lang_and_url() {
    let app = Mounted::at("?lang=zh").await;
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
    assert_eq!(app.text(".stage__hint"), Lang::En.t(Msg::StageHint));
    assert_eq!(app.attr("#play", "aria-label"), "Play");
    assert_eq!(app.text("#trigger-checkpoint"), "Trigger checkpoint");
    assert_eq!(app.attr(".lang-switch", "aria-label"), "Interface language");

    app.click(".lang-switch [data-lang=zh-Hant]").await;

    assert_eq!(app.text(".masthead__name"), Lang::ZhHant.t(Msg::AppTitle));
    assert_eq!(html_lang(), "zh-Hant");
    assert_eq!(search(), "?lang=zh-Hant");
    assert_eq!(app.attr("[data-lang=zh-Hant]", "aria-pressed"), "true");
    assert_eq!(app.text(".stage__hint"), Lang::ZhHant.t(Msg::StageHint));

    app.click(".lang-switch [data-lang=zh]").await;

    assert_eq!(app.text(".masthead__name"), "Flink 检查点实验室");
    assert_eq!(html_lang(), "zh-CN");
    assert_eq!(search(), "?lang=zh");
}

/// The language buttons are named in the current language and say what they do.
#[wasm_bindgen_test]
async fn language_buttons_have_accessible_names_in_the_current_language() {
    let app = Mounted::at("?lang=zh").await;
    assert_eq!(app.find("[data-lang=en]").tag_name(), "BUTTON");
    assert_eq!(
        app.attr("[data-lang=en]", "aria-label"),
        "EN English — 切换为英文界面"
    );
    assert_eq!(
        app.attr("[data-lang=zh]", "aria-label"),
        "简 简体中文 — 当前界面语言"
    );
    assert_eq!(
        app.attr("[data-lang=zh-Hant]", "aria-label"),
        "繁 繁體中文 — 切换为繁体中文界面"
    );

    app.click("[data-lang=en]").await;
    assert_eq!(
        app.attr("[data-lang=zh]", "aria-label"),
        "简 简体中文 — switch the interface to Simplified Chinese"
    );
    assert_eq!(
        app.attr("[data-lang=zh-Hant]", "aria-label"),
        "繁 繁體中文 — switch the interface to Traditional Chinese"
    );
    assert_eq!(
        app.attr("[data-lang=en]", "aria-label"),
        "EN English — current interface language"
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
        (
            "?lang=zh-Hant",
            Lang::ZhHant,
            Lang::ZhHant.t(Msg::AppTitle),
            "zh-Hant",
        ),
        (
            "?lang=zh-TW",
            Lang::ZhHant,
            Lang::ZhHant.t(Msg::AppTitle),
            "zh-Hant",
        ),
        (
            "?lang=zh_Hant_HK",
            Lang::ZhHant,
            Lang::ZhHant.t(Msg::AppTitle),
            "zh-Hant",
        ),
    ] {
        let app = Mounted::at(query).await;
        assert_eq!(app.text(".masthead__name"), title, "for {query}");
        assert_eq!(html_lang(), html, "for {query}");
        assert_eq!(
            app.text(".stage__hint"),
            lang.t(Msg::StageHint),
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
    let app = Mounted::at("").await;
    assert_eq!(app.text(".masthead__name"), expected.t(Msg::AppTitle));
    assert_eq!(search(), format!("?lang={}", expected.code()));
}

/// Switching language rewrites only `lang`; other parameters (a future share link's
/// scenario and seed) survive.
#[wasm_bindgen_test]
async fn switching_language_keeps_other_query_parameters() {
    let app = Mounted::at("?scenario=aligned&seed=7&lang=zh").await;
    app.click("[data-lang=en]").await;
    assert_eq!(search(), "?scenario=aligned&seed=7&lang=en");
}

/// A lesson switch rewrites the address to the new lesson: a copied link or a
/// reload opens it, not the old lesson's moment.
#[wasm_bindgen_test]
async fn choosing_a_lesson_puts_it_in_the_address() {
    let lab = Driven::with_query("?scenario=odd-even-sum&t=700&seed=7&lang=en").await;
    assert_eq!(search(), "?scenario=odd-even-sum&t=700&seed=7&lang=en");
    lab.choose("#scenario-select", "pv-count").await;
    assert!(lab.exists("[data-op=pv]"));
    assert_eq!(search(), "?scenario=pv-count&lang=en");
}

/// An expired checkpoint stays in the strip, naming the subtasks that never
/// acknowledged it, until a later checkpoint completes.
#[wasm_bindgen_test]
async fn the_strip_names_an_expired_checkpoint_and_its_holders() {
    let before = Driven::with_query("?scenario=backpressure-expired&t=850&lang=en").await;
    assert!(!before.exists(".strip__last--expired"));
    drop(before);
    let lab = Driven::with_query("?scenario=backpressure-expired&t=905&lang=en").await;
    let cell = lab.app.find(".strip__last--expired");
    assert_eq!(cell.get_attribute("data-checkpoint").as_deref(), Some("1"));
    let holders = cell.get_attribute("data-holders").unwrap_or_default();
    assert!(!holders.is_empty(), "no holders named");
    let text = cell.text_content().unwrap_or_default();
    assert!(text.contains("chk-1") && text.contains("expired"), "{text}");
    for holder in holders.split(' ') {
        assert!(
            text.contains(holder) || text.contains('+'),
            "{holder} missing from {text}"
        );
    }
}

/// The sink tab names the sink's kind — a plain sink is never called
/// two-phase commit — and marks its duplicates, as many as its meter counts.
#[wasm_bindgen_test]
async fn the_sink_tab_names_the_kind_and_badges_duplicates() {
    let app = Mounted::at("?lang=en&scenario=exactly-once-kafka-plain&t=100000").await;
    app.click("[data-tab=sink]").await;
    let heading = app.text(".sink__heading");
    assert!(
        heading.contains("Plain sink") && !heading.contains("Two-phase"),
        "{heading}"
    );
    let dups: usize = app.attr(".verdicts", "data-duplicates").parse().unwrap();
    assert!(dups > 0);
    assert_eq!(
        app.count(".consumer--committed .record-chip--duplicate"),
        dups
    );
    let app = Mounted::at("?lang=en&scenario=exactly-once-kafka&t=100000").await;
    app.click("[data-tab=sink]").await;
    assert!(app.text(".sink__heading").contains("Two-phase-commit sink"));
    assert_eq!(app.attr(".verdicts", "data-duplicates"), "0");
}

/// The side panel's tabs: click selects; arrow keys move selection and focus.
#[wasm_bindgen_test]
async fn side_panel_tabs_follow_clicks_and_arrow_keys() {
    let app = Mounted::at("?lang=en").await;
    assert_eq!(app.text(".tabpanel__heading"), "Checkpoint coordinator");
    assert_eq!(app.attr("[data-tab=coordinator]", "tabindex"), "0");

    app.click("[data-tab=sink]").await;
    assert_eq!(app.text(".tabpanel__heading"), "Sinks");
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

    press("ArrowRight");
    yew::scheduler::flush().await;
    assert_eq!(app.text(".tabpanel__heading"), "Barrier bench");

    press("ArrowRight");
    yew::scheduler::flush().await;
    assert_eq!(app.text(".tabpanel__heading"), "Flink code");

    press("ArrowRight"); // wraps around
    yew::scheduler::flush().await;
    assert_eq!(app.text(".tabpanel__heading"), "Checkpoint coordinator");

    press("End");
    yew::scheduler::flush().await;
    assert_eq!(app.attr("[data-tab=flink]", "aria-selected"), "true");
}

/// The panic hook's banner: a bilingual `role="alert"` above the page, which stays.
/// (Called directly: a real panic would end the test run's wasm instance.)
#[wasm_bindgen_test]
async fn error_banner_is_a_bilingual_alert_and_keeps_the_page() {
    let app = Mounted::at("?lang=en").await;
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

// ── The visualizer ─────────────────────────────────────────────────────────

/// [`Lab`] mounted with its playback dispatcher captured, so a test drives
/// simulated time by dispatching actions instead of sleeping.
struct Driven {
    app: Mounted,
    root: Element,
    handle: Option<AppHandle<Lab>>,
    dispatcher: Rc<RefCell<Option<UseReducerDispatcher<State>>>>,
}

impl Driven {
    async fn with_query(query: &str) -> Driven {
        let original_query = search();
        set_url(query);
        let root = document().create_element("div").unwrap();
        document().body().unwrap().append_child(&root).unwrap();
        let dispatcher: Rc<RefCell<Option<UseReducerDispatcher<State>>>> = Rc::default();
        let slot = dispatcher.clone();
        let props = LabProps {
            on_ready: Some(Callback::from(move |d| *slot.borrow_mut() = Some(d))),
        };
        let handle = yew::Renderer::<Lab>::with_root_and_props(root.clone(), props).render();
        yew::scheduler::flush().await;
        // `Mounted` gives the DOM helpers; it owns no app of its own here.
        let app = Mounted::wrapping(root.clone(), original_query);
        Driven {
            app,
            root,
            handle: Some(handle),
            dispatcher,
        }
    }

    async fn dispatch(&self, action: Action) {
        let d = self
            .dispatcher
            .borrow()
            .clone()
            .expect("dispatcher captured");
        d.dispatch(action);
        yew::scheduler::flush().await;
    }

    /// Sets a `<select>`'s value and fires a bubbling `change`, as a user would.
    async fn choose(&self, selector: &str, value: &str) {
        let select: web_sys::HtmlSelectElement = self.app.find(selector).unchecked_into();
        select.set_value(value);
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        let event = web_sys::Event::new_with_event_init_dict("change", &init).unwrap();
        select.dispatch_event(&event).unwrap();
        yew::scheduler::flush().await;
    }

    fn clock(&self) -> String {
        self.app.text("#clock")
    }

    /// The simulated time the clock shows (`t = 505 ms …`).
    fn now(&self) -> u64 {
        let clock = self.clock();
        let digits: String = clock
            .trim_start_matches("t = ")
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits
            .parse()
            .unwrap_or_else(|_| panic!("no time in {clock:?}"))
    }

    fn exists(&self, selector: &str) -> bool {
        self.root.query_selector(selector).unwrap().is_some()
    }

    /// A count the token canvas reports about what it painted last
    /// (`data-tokens`, `data-records`, `data-barriers`, `data-unaligned-barriers`).
    fn painted(&self, attribute: &str) -> usize {
        self.root
            .query_selector(".scene__tokens")
            .unwrap()
            .and_then(|c| c.get_attribute(attribute))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    }

    /// The stage's text summary of the tokens (the canvas is `aria-hidden`).
    fn token_summary(&self) -> String {
        self.app.text(".token-summary")
    }
}

impl Drop for Driven {
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            handle.destroy();
        }
    }
}

fn press(key: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    let event =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    document().body().unwrap().dispatch_event(&event).unwrap();
}

/// Play starts the clock (time driven by `Tick`s), pause stops it.
#[wasm_bindgen_test]
async fn play_advances_time_and_pause_stops_it() {
    let lab = Driven::with_query("?lang=en&scenario=odd-even-sum").await;
    // At the chosen speed throughout (skipping quiet stretches would reach the
    // job's end, with nothing left in flight, within these 8 s).
    lab.dispatch(Action::SetSkipQuiet(false)).await;
    assert_eq!(lab.clock(), "t = 0 ms · step 0");
    assert_eq!(lab.app.attr("#play", "aria-pressed"), "false");
    lab.app.click("#play").await;
    assert_eq!(lab.app.attr("#play", "aria-pressed"), "true");
    assert_eq!(lab.app.attr("#play", "aria-label"), "Pause");
    for _ in 0..40 {
        lab.dispatch(Action::Tick(200.0)).await;
    }
    let playing = lab.clock();
    assert_ne!(playing, "t = 0 ms · step 0");
    assert!(
        lab.painted("data-tokens") > 0,
        "records or barriers are painted on the stage"
    );
    assert!(lab.painted("data-records") > 0, "records are painted");
    assert!(
        lab.token_summary().contains("records"),
        "the summary says what is in flight: {}",
        lab.token_summary()
    );
    lab.app.click("#play").await;
    assert_eq!(lab.app.attr("#play", "aria-pressed"), "false");
    lab.dispatch(Action::Tick(5_000.0)).await;
    assert_eq!(lab.clock(), playing, "paused: ticks change nothing");
}

/// → and ← (buttons and keys) move one event forward and back to the same readout.
#[wasm_bindgen_test]
async fn step_forward_and_back_change_the_readout_and_return() {
    let lab = Driven::with_query("?lang=en&scenario=odd-even-sum").await;
    let start = lab.clock();
    lab.app.click("#step-forward").await;
    let one = lab.clock();
    assert_ne!(one, start);
    lab.app.click("#step-forward").await;
    lab.app.click("#step-forward").await;
    let three = lab.clock();
    assert_ne!(three, one);
    lab.app.click("#step-back").await;
    lab.app.click("#step-back").await;
    assert_eq!(lab.clock(), one);
    lab.app.click("#step-back").await;
    assert_eq!(lab.clock(), start);

    press("ArrowRight");
    yew::scheduler::flush().await;
    assert_eq!(lab.clock(), one, "the → key steps forward");
    press("ArrowLeft");
    yew::scheduler::flush().await;
    assert_eq!(lab.clock(), start, "the ← key steps back");
    press(" ");
    yew::scheduler::flush().await;
    assert_eq!(lab.app.attr("#play", "aria-pressed"), "true", "Space plays");
    press(" ");
    yew::scheduler::flush().await;
    assert_eq!(lab.app.attr("#play", "aria-pressed"), "false");
    press("?");
    yew::scheduler::flush().await;
    assert!(lab.exists("#shortcuts"), "? opens the shortcuts");
    press("Escape");
    yew::scheduler::flush().await;
    assert!(!lab.exists("#shortcuts"));
}

/// The picker lists the built-ins by title in the current language and loads one.
#[wasm_bindgen_test]
async fn choosing_a_scenario_loads_its_job_graph() {
    let lab = Driven::with_query("?lang=zh").await;
    let options = lab.app.find("#scenario-select").text_content().unwrap();
    assert!(options.contains("屏障对齐"), "{options}");
    assert!(lab.exists("[data-op=sum]"));
    lab.choose("#scenario-select", "barrier-alignment").await;
    assert!(lab.exists("[data-op=merge]"));
    assert!(!lab.exists("[data-op=sum]"));
    assert!(lab.exists("[data-task=\"numbers#0\"]") && lab.exists("[data-task=\"letters#0\"]"));
    assert_eq!(lab.clock(), "t = 0 毫秒 · 第 0 步");
    // Run to the alignment: a channel gets blocked (the lock), records pile up.
    let mut blocked = false;
    for _ in 0..400 {
        lab.app.click("#step-forward").await;
        if lab.exists(".channel--blocked") {
            blocked = true;
            break;
        }
    }
    assert!(blocked, "the numbers channel is blocked while aligning");
    assert!(lab.exists(".lock"));
}

/// Crash a subtask from its state popover: it shows failed, the countdown runs,
/// then the job restarts and the task runs again.
#[wasm_bindgen_test]
async fn crashing_a_subtask_fails_it_then_it_restarts() {
    let lab = Driven::with_query("?lang=en&scenario=odd-even-sum").await;
    lab.dispatch(Action::SeekTime(400)).await;
    lab.app.click("[data-task=\"sum#0\"]").await;
    assert!(lab.exists("[data-popover-task=\"sum#0\"]"));
    assert!(lab.app.text(".popover").contains("Keyed state"));
    assert_eq!(lab.app.text("#crash-task"), "⚡ Crash sum#0");
    lab.app.click("#crash-task").await;
    assert!(lab.exists("[data-lane=\"sum#0\"].lane--failed"));
    assert!(lab
        .app
        .text("[data-lane=\"sum#0\"] .lane__status")
        .contains("failed"));
    assert!(lab
        .app
        .attr("[data-task=\"sum#0\"]", "aria-label")
        .contains("failed"));
    assert!(
        lab.exists(".stage__banner--restarting"),
        "the restart countdown"
    );
    assert!(
        lab.exists(".marker--failure"),
        "a failure marker on the scrubber"
    );
    let mut restarted = false;
    for _ in 0..300 {
        lab.app.click("#step-forward").await;
        if !lab.exists(".lane--failed") {
            restarted = true;
            break;
        }
    }
    assert!(restarted, "the job restarted");
    assert!(lab
        .app
        .text("[data-lane=\"sum#0\"] .lane__status")
        .contains("running"));
}

/// The mode switch rebuilds the run: unaligned barriers are drawn hollow.
#[wasm_bindgen_test]
async fn mode_switch_rebuilds_the_run_with_unaligned_barriers() {
    let lab = Driven::with_query("?lang=en&scenario=odd-even-sum").await;
    lab.dispatch(Action::SeekTime(800)).await;
    assert_ne!(lab.clock(), "t = 0 ms · step 0");
    lab.choose("#mode-select", "unaligned").await;
    assert_eq!(lab.clock(), "t = 0 ms · step 0", "a new run");
    let select: web_sys::HtmlSelectElement = lab.app.find("#mode-select").unchecked_into();
    assert_eq!(select.value(), "unaligned");
    let mut seen = false;
    for _ in 0..400 {
        lab.app.click("#step-forward").await;
        if lab.painted("data-barriers") > 0 {
            seen = true;
            break;
        }
    }
    assert!(seen, "a barrier is painted");
    assert!(
        lab.painted("data-unaligned-barriers") > 0,
        "drawn as unaligned"
    );
    assert!(
        lab.token_summary().contains("unaligned barrier"),
        "the summary names it: {}",
        lab.token_summary()
    );
    let seed = lab.app.text("#seed");
    lab.app.click("#restart").await;
    assert_ne!(lab.app.text("#seed"), seed, "restart uses a new seed");
    assert_eq!(select.value(), "unaligned", "and keeps the mode");
}

/// The side panel's tabs show the coordinator's history, storage, the sink's
/// transactions and the narration, in the current language.
#[wasm_bindgen_test]
async fn side_panel_shows_coordinator_storage_sink_and_narration() {
    let lab = Driven::with_query("?lang=en&scenario=odd-even-sum").await;
    lab.dispatch(Action::SeekTime(1_200)).await;
    assert!(lab.exists(".history .hist"));
    assert!(lab.app.text(".history").contains("completed"));
    assert!(lab.exists(".marker--completed"));
    lab.app.click("[data-tab=storage]").await;
    let stored = lab.app.text(".storage-list");
    assert!(stored.contains("chk-1: offset (0, 5)"), "{stored}");
    assert!(stored.contains("sum (even, 6) (odd, 9)"), "{stored}");
    lab.app.click("[data-tab=sink]").await;
    assert!(lab.exists(".txn--committed"));
    assert!(lab.app.text(".sink").contains("read_committed"));
    lab.app.click("[data-tab=narration]").await;
    assert!(lab.exists(".narration__item--latest"));
    assert!(!lab.app.text("#live-narration").is_empty());
    lab.app.click("[data-lang=zh]").await;
    assert!(lab.app.text(".log").contains("ms"));
    assert!(lab
        .app
        .text(".narration__list")
        .chars()
        .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
}

/// Unknown scenarios and bad interventions give a message, never a panic.
#[wasm_bindgen_test]
async fn bad_input_shows_a_message() {
    let lab = Driven::with_query("?lang=en&scenario=no-such-thing").await;
    assert!(lab.exists(".stage__error"));
    assert!(
        lab.exists("[data-op=sum]"),
        "the default scenario loaded instead"
    );
    lab.dispatch(Action::Intervene(engine::Intervention::Crash {
        task: "ghost#3".into(),
    }))
    .await;
    assert!(lab.app.text(".stage__error").contains("ghost#3"));
    lab.app.click(".stage__error button").await;
    assert!(!lab.exists(".stage__error"));
}

/// Trigger checkpoint, savepoint, speed, the scrubber and its markers, projector mode.
#[wasm_bindgen_test]
async fn interventions_speed_scrubber_and_markers() {
    let lab = Driven::with_query("?lang=en&scenario=barrier-alignment").await;
    lab.dispatch(Action::SeekTime(100)).await;
    lab.app.click("#trigger-checkpoint").await;
    assert!(
        lab.app.text(".strip").contains("B1"),
        "a manual checkpoint is pending"
    );
    assert!(lab.app.text(".pending-list").contains("acknowledged 0/4"));
    lab.app.click("#savepoint").await;
    // Speed: the select names each speed; choosing one keeps playback state.
    lab.choose("#speed-select", "6").await;
    let speed: web_sys::HtmlSelectElement = lab.app.find("#speed-select").unchecked_into();
    assert_eq!(speed.value(), "6");
    // The scrubber seeks simulated time.
    let range: web_sys::HtmlInputElement = lab.app.find("#scrubber").unchecked_into();
    range.set_value("600");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    range
        .dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
    yew::scheduler::flush().await;
    assert!(lab.clock().starts_with("t = 600 ms"), "{}", lab.clock());
    // A completed-checkpoint marker jumps to its moment.
    let marker = lab.app.find(".marker--completed");
    let label = marker.get_attribute("aria-label").unwrap();
    // Its name begins with what it shows (WCAG 2.5.3, axe's label-content-name-mismatch).
    assert!(label.starts_with("✓1 Checkpoint 1 completed at"), "{label}");
    lab.app.click(".marker--completed").await;
    let at = label
        .split(" at ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    assert!(
        lab.clock().starts_with(&format!("t = {at} ms")),
        "{} vs {label}",
        lab.clock()
    );
    // Projector mode is a pressed toggle that marks <html>.
    lab.app.click("#projector-button").await;
    assert_eq!(lab.app.attr("#projector-button", "aria-pressed"), "true");
    assert!(document()
        .document_element()
        .unwrap()
        .class_list()
        .contains("projector"));
    lab.app.click("#projector-button").await;
    assert!(!document()
        .document_element()
        .unwrap()
        .class_list()
        .contains("projector"));
}

/// The engine's phases of `scenario`'s checkpoint `id`, run to `until` ms.
fn engine_phases(scenario: &str, until: u64, id: u64) -> engine::view::phases::CheckpointPhases {
    let s = engine::runner::load(scenario).unwrap();
    let mut w = engine::World::new(&s, s.seed).unwrap();
    w.run_until(until, |_| {});
    let v = w.view();
    let h = v.coordinator.history.iter().find(|h| h.id.0 == id).unwrap();
    engine::view::phases::checkpoint_phases_at(h, &w.job_view(), &v.tasks, v.now)
}

/// A history row of the coordinator tab opens its checkpoint's phases: one row
/// per subtask, the straggler on top, every bar spanning the engine's numbers
/// (from the trigger), the numbers written out too; a pending checkpoint says so
/// and grows with the clock.
#[wasm_bindgen_test]
async fn opening_a_history_row_shows_the_checkpoint_phases_with_the_engines_numbers() {
    let lab = Driven::with_query("?lang=en&scenario=barrier-alignment").await;
    lab.dispatch(Action::SeekTime(5_000)).await;
    let first = ".history .hist[data-checkpoint='1']";
    assert!(lab.exists(first), "checkpoint 1 in the history");
    assert!(
        !lab.exists(&format!("{first} .phases")),
        "closed until asked"
    );
    let toggle = format!("{first} .hist__toggle");
    assert_eq!(lab.app.attr(&toggle, "aria-expanded"), "false");
    lab.app.click(&toggle).await;
    assert_eq!(lab.app.attr(&toggle, "aria-expanded"), "true");
    let p = engine_phases("barrier-alignment", lab.now(), 1);
    let rows = lab
        .root
        .query_selector_all(&format!("{first} .phases__row"))
        .unwrap();
    assert_eq!(rows.length() as usize, p.subtasks.len());
    let top = rows.item(0).unwrap().dyn_into::<Element>().unwrap();
    let latest = p.subtasks.iter().max_by_key(|s| s.end_to_end_ms()).unwrap();
    let top_ack = top.query_selector(".phases__ack").unwrap().unwrap();
    assert_eq!(
        top_ack.get_attribute("data-ack"),
        latest.end_to_end_ms().map(|v| v.to_string())
    );
    for s in &p.subtasks {
        let row = format!("{first} .phases__row[data-task='{}']", s.name);
        let numbers = lab.app.text(&format!("{row} .phases__numbers"));
        for (phase, d) in [
            ("delay", s.start_delay_ms()),
            ("align", s.alignment_ms()),
            ("sync", s.sync_ms()),
            ("async", s.async_ms()),
        ] {
            let Some(d) = d else { continue };
            assert!(numbers.contains(&format!("{phase} {d}")), "{numbers}");
            if d == 0 && phase != "sync" {
                // A phase of 0 ms is a number only; the snapshot's instant is drawn.
                assert!(
                    !lab.exists(&format!("{row} .phases__bar[data-phase='{phase}']")),
                    "{} {phase}",
                    s.name
                );
                continue;
            }
            let bar = lab
                .app
                .find(&format!("{row} .phases__bar[data-phase='{phase}']"));
            let (from, to): (u64, u64) = (
                bar.get_attribute("data-from").unwrap().parse().unwrap(),
                bar.get_attribute("data-to").unwrap().parse().unwrap(),
            );
            assert_eq!(to - from, d, "{} {phase}", s.name);
        }
    }
    let merge = engine_phases("barrier-alignment", lab.now(), 1)
        .subtasks
        .into_iter()
        .find(|s| &*s.name == "merge#0")
        .unwrap();
    assert_eq!(
        (merge.start_delay_ms(), merge.alignment_ms()),
        (Some(5), Some(45))
    );
    let merge_bar =
        format!("{first} .phases__row[data-task='merge#0'] .phases__bar[data-phase='align']");
    assert_eq!(lab.app.attr(&merge_bar, "data-from"), "5");
    assert_eq!(lab.app.attr(&merge_bar, "data-to"), "50");

    // A bar moves the cursor to its moment: the alignment to the first barrier.
    let at = lab.app.attr(&merge_bar, "data-at");
    assert_eq!(at, "505");
    lab.app.click(&merge_bar).await;
    assert!(lab.clock().starts_with("t = 505 ms"), "{}", lab.clock());

    // At 505 checkpoint 1 is pending: the timeline stays open, says so, and the
    // straggler rows have no acknowledgement yet.
    assert!(lab.exists(&format!("{first}.hist--open .phases.phases--pending")));
    let caption = lab.app.text(&format!("{first} .phases__caption"));
    assert!(caption.contains("pending"), "{caption}");
    lab.dispatch(Action::SeekTime(530)).await;
    let p = engine_phases("barrier-alignment", lab.now(), 1);
    assert_eq!(p.now, Some(lab.now()));
    let growing = lab.app.find(&format!(
        "{first} .phases__row[data-task='merge#0'] .phases__bar--open"
    ));
    assert_eq!(growing.get_attribute("data-to").as_deref(), Some("30"));

    // In Chinese the same drawing is in Chinese.
    lab.app.click("[data-lang=zh]").await;
    let caption = lab.app.text(&format!("{first} .phases__caption"));
    assert!(caption.contains("进行中"), "{caption}");
    let label = lab.app.attr(
        &merge_bar.replace("phases__bar[data-phase='align']", "phases__bar--open"),
        "aria-label",
    );
    assert!(label.contains("点击跳到这一刻"), "{label}");
}

/// exactly-once-kafka uploads each snapshot for 100 ms: between `count#0`'s
/// snapshot (510) and its acknowledgement (610) the pending checkpoint says it is
/// in its asynchronous phase, and its phases show the upload growing.
#[wasm_bindgen_test]
async fn a_pending_checkpoint_names_the_subtasks_uploading_their_snapshot() {
    let lab = Driven::with_query("?lang=en&scenario=exactly-once-kafka").await;
    lab.dispatch(Action::SeekTime(560)).await;
    let line = lab
        .app
        .text(".pending[data-checkpoint='1'] .pending__uploading");
    assert!(
        line.contains("count#0") && line.contains("Asynchronous"),
        "{line}"
    );
    let first = ".history .hist[data-checkpoint='1']";
    lab.app.click(&format!("{first} .hist__toggle")).await;
    let upload =
        format!("{first} .phases__row[data-task='count#0'] .phases__bar[data-phase='async']");
    assert!(lab
        .app
        .find(&upload)
        .class_list()
        .contains("phases__bar--open"));
    assert_eq!(lab.app.attr(&upload, "data-from"), "10");
    assert_eq!(
        lab.app.attr(&upload, "data-to"),
        (lab.now() - 500).to_string()
    );
    lab.dispatch(Action::SeekTime(700)).await;
    assert!(!lab.exists(".pending[data-checkpoint='1']"));
    assert_eq!(lab.app.attr(&upload, "data-to"), "110");
}

/// The twin view: the same scenario and seed under the other mode, below the
/// main stage, on the main run's clock; interventions happen in both.
#[wasm_bindgen_test]
async fn twin_view_runs_the_other_mode_on_the_same_clock() {
    let lab = Driven::with_query("?lang=en&scenario=unaligned-backpressure").await;
    assert_eq!(
        lab.root
            .query_selector_all(".stages > .stage")
            .unwrap()
            .length(),
        1
    );
    lab.app.click("#twin-button").await;
    // The twin loads in an effect after the render; let it render too.
    yew::scheduler::flush().await;
    assert_eq!(lab.app.attr("#twin-button", "aria-pressed"), "true");
    assert_eq!(
        lab.root
            .query_selector_all(".stages > .stage")
            .unwrap()
            .length(),
        2
    );
    let main = ".stages > .stage:nth-child(1)";
    let twin = ".stages > .stage:nth-child(2)";
    assert!(lab
        .app
        .text(&format!("{main} .stage__caption"))
        .contains("Unaligned"));
    assert!(lab
        .app
        .text(&format!("{twin} .stage__caption"))
        .starts_with("Aligned"));
    assert!(
        lab.exists(&format!("{twin} [data-op]")),
        "the twin draws its job graph"
    );
    // Scrub through the first checkpoints: the aligned twin blocks channels
    // while aligning; the unaligned main run never does.
    let (mut twin_blocked, mut main_blocked) = (false, false);
    for t in (500..=3_000).step_by(25) {
        lab.dispatch(Action::SeekTime(t)).await;
        yew::scheduler::flush().await;
        twin_blocked |= lab.exists(&format!("{twin} .channel--blocked"));
        main_blocked |= lab.exists(&format!("{main} .channel--blocked"));
    }
    assert!(
        twin_blocked,
        "aligned checkpoints block channels in the twin"
    );
    assert!(!main_blocked, "unaligned checkpoints never block");
    // A manual checkpoint is triggered in both runs.
    lab.dispatch(Action::SeekTime(100)).await;
    yew::scheduler::flush().await;
    lab.app.click("#trigger-checkpoint").await;
    yew::scheduler::flush().await;
    assert!(lab.exists(&format!("{main} .strip__pending")));
    assert!(
        lab.exists(&format!("{twin} .strip__pending")),
        "{}",
        lab.app.text(twin)
    );
    // Off again: one stage.
    lab.app.click("#twin-button").await;
    assert_eq!(
        lab.root
            .query_selector_all(".stages > .stage")
            .unwrap()
            .length(),
        1
    );
}

/// The key map goes through the same dispatch as the buttons: in the twin view
/// `c` checkpoints both runs, as the Trigger checkpoint button does.
#[wasm_bindgen_test]
async fn the_c_key_checkpoints_both_runs_of_the_twin_view() {
    let lab = Driven::with_query("?lang=en&scenario=unaligned-backpressure&twin=1").await;
    yew::scheduler::flush().await;
    let (main, twin) = (
        ".stages > .stage:nth-child(1)",
        ".stages > .stage:nth-child(2)",
    );
    assert!(
        lab.exists(&format!("{twin} [data-op]")),
        "the twin is drawn"
    );
    lab.dispatch(Action::SeekTime(100)).await;
    yew::scheduler::flush().await;
    assert!(!lab.exists(&format!("{main} .strip__pending")));
    assert!(!lab.exists(&format!("{twin} .strip__pending")));
    lab.app.press("c").await;
    yew::scheduler::flush().await;
    assert!(
        lab.exists(&format!("{main} .strip__pending")),
        "{}",
        lab.app.text(main)
    );
    assert!(
        lab.exists(&format!("{twin} .strip__pending")),
        "{}",
        lab.app.text(twin)
    );
}

/// Lets timers of `ms` run (the page hands the focus back in a timeout).
async fn pause_ms(ms: i32) {
    let turn = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(turn).await;
}

/// After a pointer click on a checkbox, Space plays and pauses (the click hands
/// the keyboard back to the stage); a keyboard user's focus stays where it is.
#[wasm_bindgen_test]
async fn space_plays_after_a_pointer_click_on_a_toggle() {
    let lab = Driven::with_query("?lang=en&scenario=odd-even-sum").await;
    let auto = lab
        .app
        .find("#auto-pause")
        .unchecked_into::<web_sys::HtmlElement>();
    auto.focus().unwrap();
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_detail(1);
    let click = web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &init).unwrap();
    auto.dispatch_event(&click).unwrap();
    // The focus is handed back after the click's own default action.
    pause_ms(20).await;
    assert_ne!(
        focused_id().as_deref(),
        Some("auto-pause"),
        "the checkbox let go of the focus"
    );
    // A keyboard activation (detail 0) keeps it.
    auto.focus().unwrap();
    let key_click = web_sys::MouseEvent::new("click").unwrap();
    auto.dispatch_event(&key_click).unwrap();
    pause_ms(20).await;
    assert_eq!(focused_id().as_deref(), Some("auto-pause"));
}

/// The id of the element that has the keyboard's focus.
fn focused_id() -> Option<String> {
    let doc = web_sys::window()?.document()?;
    doc.active_element().map(|a| a.id())
}

/// The barrier-bench tab: an example, stepping line by line, a typed sequence,
/// and a bad token named in the message.
#[wasm_bindgen_test]
async fn barrier_bench_steps_through_the_handler() {
    let lab = Driven::with_query("?lang=en").await;
    lab.app.click("[data-tab=bench]").await;
    // The first example (aligned) is loaded: line 1 of 6.
    assert!(lab.app.text("#bench-position").starts_with("Line 1 of 6"));
    lab.app.click("#bench-next").await;
    // After B1@1 channel 1 is blocked.
    assert!(lab.exists(".bench-channel--blocked[data-channel='1']"));
    lab.app.click("#bench-next").await;
    assert_eq!(
        lab.app
            .text(".bench-channel[data-channel='1'] .bench-channel__queue"),
        "r2@1"
    );
    // Clicking the line of B1@0 jumps there: the aligned snapshot, channel released.
    lab.app.click(".bench-line[data-line='4']").await;
    assert!(lab
        .app
        .text(".bench-line--current")
        .contains("checkpoint 1: aligned snapshot"));
    assert!(!lab.exists(".bench-channel--blocked"));
    // The unaligned example persists channel state.
    lab.app.click("[data-example='1']").await;
    let mode: web_sys::HtmlSelectElement = lab.app.find("#bench-mode").unchecked_into();
    assert_eq!(mode.value(), "unaligned");
    assert!(lab
        .app
        .text(".bench-lines")
        .contains("unaligned snapshot, channel state #1 ["));
    // Typing a bad token: a message naming it, no table.
    let input: web_sys::HtmlInputElement = lab.app.find("#bench-arrivals").unchecked_into();
    input.set_value("r1@0 Q7@1");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    input
        .dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
    yew::scheduler::flush().await;
    assert!(
        lab.app.text(".bench__error").contains("Q7@1"),
        "{}",
        lab.app.text(".bench")
    );
    assert!(!lab.exists(".bench-lines"));
    // In Chinese.
    lab.app.click("[data-example='0']").await;
    lab.app.click("[data-lang=zh]").await;
    assert!(lab.app.text("#bench-position").starts_with("第 1 / 6 行"));
}

/// The barrier bench with queued remote data: on the timeout example's form (unaligned,
/// 10 ms), a typed queue waits on its channel, the tick converts the announced barriers
/// and takes an unaligned snapshot; an unclosed queue is named under the input.
#[wasm_bindgen_test]
async fn barrier_bench_accepts_queues() {
    let lab = Driven::with_query("?lang=en").await;
    lab.app.click("[data-tab=bench]").await;
    lab.app.click("[data-example='2']").await;
    let type_arrivals = |text: &str| {
        let input: web_sys::HtmlInputElement = lab.app.find("#bench-arrivals").unchecked_into();
        input.set_value(text);
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        input
            .dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap())
            .unwrap();
    };
    type_arrivals("[r1 r2 B1]@0 [r3 B1]@1 tick:20 poll@0 poll@1");
    yew::scheduler::flush().await;
    assert!(
        lab.app.text("#bench-position").starts_with("Line 1 of 8"),
        "{}",
        lab.app.text(".bench")
    );
    // After the queues: channel 0 holds r1 r2 B1.
    lab.app.click(".bench-line[data-line='4']").await;
    assert_eq!(
        lab.app
            .text(".bench-channel[data-channel='0'] .bench-channel__queue"),
        "r1r2B1"
    );
    lab.app.click(".bench-line[data-line='5']").await;
    assert!(lab
        .app
        .text(".bench-line--current")
        .contains("unaligned snapshot"));
    type_arrivals("[r1 r2 B1");
    yew::scheduler::flush().await;
    assert!(
        lab.app.text(".bench__error").contains("\"[r1\" (token 0)"),
        "{}",
        lab.app.text(".bench")
    );
}

/// A crash in the past keeps the future it replaced as a branch; the branch picker
/// switches between "with" and "without" the crash at the same moment.
#[wasm_bindgen_test]
async fn branch_picker_switches_between_futures() {
    let lab = Driven::with_query("?lang=en&scenario=odd-even-sum").await;
    assert!(
        !lab.exists("#branch-select"),
        "no branch before an intervention"
    );
    lab.dispatch(Action::SeekTime(2_000)).await;
    lab.dispatch(Action::SeekTime(300)).await;
    lab.dispatch(Action::Intervene(engine::Intervention::Crash {
        task: "sum#0".into(),
    }))
    .await;
    assert!(lab.exists(".lane--failed"));
    let picker = lab.app.text("#branch-select");
    assert!(
        picker.contains("without the crash of sum#0 at 300 ms"),
        "{picker}"
    );
    lab.choose("#branch-select", "0").await;
    assert!(!lab.exists(".lane--failed"), "the future without the crash");
    assert!(lab.clock().starts_with("t = 300 ms"), "{}", lab.clock());
    let picker = lab.app.text("#branch-select");
    assert!(
        picker.contains("with the crash of sum#0 at 300 ms"),
        "{picker}"
    );
    let select: web_sys::HtmlSelectElement = lab.app.find("#branch-select").unchecked_into();
    assert_eq!(select.value(), "current");
    lab.choose("#branch-select", "0").await;
    assert!(lab.exists(".lane--failed"), "back to the crash");
    lab.app.click("[data-lang=zh]").await;
    assert!(lab
        .app
        .text("#branch-select")
        .contains("没有「sum#0 崩溃」的分支"));
}

/// The storage tab says where checkpoints live, shows each `_metadata` as a tree,
/// strikes through what a JobManager crash took with it, and its button crashes
/// the JobManager of the running job.
#[wasm_bindgen_test]
async fn storage_tab_shows_the_tree_and_the_jobmanager_crash() {
    let lab = Driven::with_query("?lang=en&scenario=jobmanager-crash-jobmanager").await;
    lab.dispatch(Action::SeekTime(3_200)).await;
    lab.app.click("[data-tab=storage]").await;
    assert!(lab
        .app
        .text(".storage-head")
        .contains("the JobManager's memory"));
    assert!(
        lab.exists(".stored__tree .tree"),
        "a browsable _metadata tree"
    );
    assert!(
        lab.app.text(".stored__tree").contains("kafka"),
        "{}",
        lab.app.text(".stored__tree")
    );
    assert!(!lab.exists(".stored--discarded"));
    lab.dispatch(Action::SeekTime(3_600)).await;
    assert!(
        lab.exists(".stored--discarded"),
        "the crash at 3500 ms took chk-3 with it"
    );

    let lab = Driven::with_query("?lang=en&scenario=jobmanager-crash-filesystem").await;
    lab.dispatch(Action::SeekTime(2_100)).await;
    lab.app.click("[data-tab=storage]").await;
    assert!(lab
        .app
        .text(".storage-head")
        .contains("files in the checkpoint directory"));
    lab.app.click("#crash-jobmanager").await;
    lab.app.click("[data-tab=narration]").await;
    assert!(
        lab.app
            .text(".narration__list")
            .contains("JobManager crashed"),
        "{}",
        lab.app.text(".narration__list")
    );
    lab.app.click("[data-tab=storage]").await;
    assert!(
        !lab.exists(".stored--discarded"),
        "filesystem checkpoints survive"
    );
}

/// A failed job's reason is said in the page's language, with Flink's original
/// wording kept beside it as the technical detail.
#[wasm_bindgen_test]
async fn job_failed_reason_is_translated_with_the_original_beside_it() {
    let lab = Driven::with_query("?lang=zh&scenario=restart-fixed-delay").await;
    // The stage names the lesson it plays (the page's checks wait on it).
    assert_eq!(
        lab.app.attr(".stage", "data-scenario"),
        "restart-fixed-delay"
    );
    lab.dispatch(Action::SeekTime(3_000)).await;
    let banner = lab.app.text(".stage__banner--failed .stage__banner-text");
    assert!(banner.starts_with("已失败"), "{banner}");
    assert!(
        banner.contains("固定延迟重启策略")
            && banner.contains("2 次")
            && banner.contains("子任务崩溃"),
        "the reason in Chinese: {banner}"
    );
    assert!(!banner.contains("Recovery is suppressed"), "{banner}");
    let original = lab
        .app
        .text(".stage__banner--failed .stage__banner-detail code");
    assert!(
        original.starts_with("Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=2"),
        "Flink's wording stays visible: {original}"
    );
    assert!(lab
        .app
        .text(".stage__banner-detail")
        .starts_with("Flink 原文"));
}

/// Braces mark which records belong to which checkpoint, as in Flink's
/// documentation figures: the records held back at the blocked channel are one
/// checkpoint's.
#[wasm_bindgen_test]
async fn braces_mark_the_records_of_a_checkpoint() {
    let lab = Driven::with_query("?lang=en&scenario=barrier-alignment").await;
    lab.dispatch(Action::SeekTime(530)).await;
    assert!(
        lab.painted("data-braces") > 0,
        "a brace over the held-back records"
    );
}
