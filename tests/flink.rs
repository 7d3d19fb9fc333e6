#![cfg(target_arch = "wasm32")]
//! Browser tests of the Flink code tab: the Java of
//! the run on stage follows the editor and the mode switch; the recorded real
//! statistics (a real Flink 2.3 run's `flink.sh --stats` file) import from a
//! chosen file and from the paste box and show their rows beside the lab's;
//! bad JSON is refused with the JSON path of what is wrong.
//!
//! Like `tests/app.rs`: the real [`App`] in headless Chromium, each test in a
//! fresh `<div>`, the URL and the editor's saved edit put back when it ends.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

mod support;
use support::*;

wasm_bindgen_test_configure!(run_in_browser);

const FIXTURE: &str = include_str!("fixtures/flink-stats-unaligned-backpressure.json");

/// Opens the Flink code tab (a second click on an open tab would close it).
async fn open_flink_tab(app: &Mounted) {
    if app.attr("[data-tab=flink]", "aria-selected") != "true"
        || app.query("#tabpanel-flink:not([hidden])").is_none()
    {
        app.click("[data-tab=flink]").await;
    }
    assert!(app.query("#tabpanel-flink:not([hidden])").is_some());
}

/// The highlighted lines of the checkpointing block.
fn highlighted(app: &Mounted) -> Vec<String> {
    let lines = app
        .root
        .query_selector_all("#flink-checkpointing .java__line--checkpointing")
        .unwrap();
    (0..lines.length())
        .map(|i| {
            lines
                .item(i)
                .unwrap()
                .text_content()
                .unwrap()
                .trim()
                .to_string()
        })
        .collect()
}

/// Pastes `text` into the statistics box and imports it.
async fn paste(app: &Mounted, text: &str) {
    app.find("#real-paste")
        .unchecked_into::<web_sys::HtmlTextAreaElement>()
        .set_value(text);
    app.click("#real-paste-import").await;
}

/// Waits (a bounded number of event-loop turns) until `selector` exists: a
/// chosen file is read by a `FileReader`, which answers in a later task.
async fn until_exists(app: &Mounted, selector: &str) {
    for _ in 0..200 {
        if app.query(selector).is_some() {
            return;
        }
        let turn = web_sys::js_sys::Promise::new(&mut |resolve, _| {
            let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 10);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(turn).await;
        yew::scheduler::flush().await;
    }
    panic!("{selector} never appeared");
}

#[wasm_bindgen_test]
async fn the_flink_code_follows_the_editor_and_the_mode_switch() {
    let storage = window().local_storage().unwrap().unwrap();
    let app = Mounted::at("?lang=en&scenario=odd-even-sum").await;
    open_flink_tab(&app).await;
    assert!(app
        .find(".side-panel")
        .class_list()
        .contains("side-panel--wide"));
    assert_eq!(app.attr(".flink__code", "data-file"), "OddEvenSum.java");
    let before = highlighted(&app);
    assert_eq!(
        before[0],
        "env.enableCheckpointing(550, CheckpointingMode.EXACTLY_ONCE);"
    );
    assert!(
        before.iter().all(|l| l.starts_with("env.")),
        "only the CheckpointConfig lines are highlighted: {before:?}"
    );
    // The job method shows the same lines highlighted, with line numbers.
    assert!(app
        .query(".java--job .java__line--checkpointing .java__no")
        .is_some());
    assert_eq!(
        app.text("#flink-command"),
        "bash scripts/flink.sh OddEvenSum.java --stats stats.json"
    );

    // The editor changes the interval: the Java follows.
    app.click("#editor-button").await;
    change(&app, "[data-field=\"checkpointing.interval_ms\"]", "300").await;
    assert!(
        app.query(".editor-error").is_none(),
        "{}",
        app.text(".editor-error")
    );
    open_flink_tab(&app).await;
    let after = highlighted(&app);
    assert_eq!(
        after[0],
        "env.enableCheckpointing(300, CheckpointingMode.EXACTLY_ONCE);"
    );
    assert!(app
        .text(".java--whole")
        .contains("env.enableCheckpointing(300, CheckpointingMode.EXACTLY_ONCE);"));

    // The mode switch: unaligned checkpoints.
    assert!(after.contains(&"env.getCheckpointConfig().enableUnalignedCheckpoints(false);".into()));
    change(&app, "#mode-select", "unaligned").await;
    open_flink_tab(&app).await;
    assert!(
        highlighted(&app)
            .contains(&"env.getCheckpointConfig().enableUnalignedCheckpoints(true);".into()),
        "{:?}",
        highlighted(&app)
    );
    // The comments follow the page's language.
    app.click("[data-lang=zh]").await;
    open_flink_tab(&app).await;
    assert!(app.text(".java--whole").contains("检查点"));
    storage
        .remove_item(checkpoint_lab::lessons::bar::STORAGE_KEY)
        .unwrap();
}

#[wasm_bindgen_test]
async fn a_lesson_flink_cannot_run_says_which_field() {
    let app = Mounted::at("?lang=en&scenario=jobmanager-crash-jobmanager").await;
    open_flink_tab(&app).await;
    let refused = app.text(".flink__refused");
    assert!(refused.contains("cannot be exported"), "{refused}");
    assert!(refused.contains("crash_jobmanager"), "{refused}");
    // The statistics import is still there.
    assert!(app.query("#real-paste").is_some());
}

/// The recorded real run (Flink 2.3, unaligned-backpressure): 7 checkpoints,
/// newest first, each with its operators' subtasks.
fn assert_real_rows(app: &Mounted) {
    let msg = app.text("#real-message");
    assert!(msg.contains("Imported: 7 real checkpoints"), "{msg}");
    let rows = app
        .root
        .query_selector_all("#real-real .real-row[data-side=real]")
        .unwrap();
    assert_eq!(rows.length(), 7);
    let first = rows.item(0).unwrap().unchecked_into::<HtmlElement>();
    assert_eq!(first.get_attribute("data-checkpoint").as_deref(), Some("7"));
    assert!(app.text("#real-real").contains("Real Flink 2.3.0"));
    // The per-subtask table: a row per subtask of every operator.
    let subtasks = first.query_selector_all(".real-subtask").unwrap();
    assert!(subtasks.length() >= 4, "{}", subtasks.length());
    // The lab's history stands beside it.
    assert!(app.text("#real-lab").contains("The lab (simulated)"));
}

#[wasm_bindgen_test]
async fn importing_the_recorded_real_statistics_shows_their_rows() {
    let app = Mounted::at("?lang=en&scenario=unaligned-backpressure").await;
    open_flink_tab(&app).await;
    assert!(app.text("#real-real").contains("No real run imported yet."));
    paste(&app, FIXTURE).await;
    assert_real_rows(&app);
    // Kept across a tab switch.
    app.click("[data-tab=coordinator]").await;
    open_flink_tab(&app).await;
    assert_eq!(
        app.root
            .query_selector_all("#real-real .real-row")
            .unwrap()
            .length(),
        7
    );
    app.click("#real-clear").await;
    assert!(app.text("#real-real").contains("No real run imported yet."));
}

/// The second recorded run: odd-even-sum as the Download button gives it, run
/// with `flink.sh OddEvenSum.java --stats` (a crash, a restore from checkpoint 2).
#[wasm_bindgen_test]
async fn importing_a_real_run_with_a_crash_shows_its_counts_beside_the_lab() {
    let app = Mounted::at("?lang=en&scenario=odd-even-sum&t=1500").await;
    open_flink_tab(&app).await;
    paste(&app, include_str!("fixtures/flink-stats-odd-even-sum.json")).await;
    assert!(app
        .text("#real-message")
        .contains("Imported: 3 real checkpoints"));
    assert!(app
        .text("#real-real")
        .contains("5 in all: 3 completed, 2 failed"));
    let ids: Vec<String> = {
        let rows = app.root.query_selector_all("#real-real .real-row").unwrap();
        (0..rows.length())
            .map(|i| {
                rows.item(i)
                    .unwrap()
                    .unchecked_into::<HtmlElement>()
                    .get_attribute("data-checkpoint")
                    .unwrap()
            })
            .collect()
    };
    assert_eq!(ids, ["3", "2", "1"]);
    // The lab's own history up to t = 1500 stands beside it.
    assert!(app.query("#real-lab .real-row[data-side=lab]").is_some());
}

#[wasm_bindgen_test]
async fn importing_the_recorded_file_through_the_file_chooser() {
    let app = Mounted::at("?lang=en&scenario=unaligned-backpressure").await;
    open_flink_tab(&app).await;
    let parts = web_sys::js_sys::Array::of1(&FIXTURE.into());
    let file = web_sys::File::new_with_str_sequence(&parts, "stats.json").unwrap();
    let chosen = web_sys::DataTransfer::new().unwrap();
    chosen.items().add_with_file(&file).unwrap();
    let input = app
        .find("#real-file")
        .unchecked_into::<web_sys::HtmlInputElement>();
    input.set_files(chosen.files().as_ref());
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    input
        .dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap())
        .unwrap();
    until_exists(&app, "#real-message").await;
    assert_real_rows(&app);
    assert!(app.text("#real-message").contains("file stats.json"));
}

#[wasm_bindgen_test]
async fn bad_json_is_refused_naming_what_is_wrong() {
    let app = Mounted::at("?lang=en&scenario=unaligned-backpressure").await;
    open_flink_tab(&app).await;
    // A field of the wrong type: its JSON path is named.
    let mut v: serde_json::Value = serde_json::from_str(FIXTURE).unwrap();
    v["jobs"][0]["checkpoints"]["history"][2]["end_to_end_duration"] = "slow".into();
    paste(&app, &v.to_string()).await;
    let msg = app.text("#real-message");
    assert_eq!(app.attr("#real-message", "role"), "alert");
    assert!(msg.contains("Not imported (the pasted JSON)"), "{msg}");
    assert!(
        msg.contains(
            "$.jobs[0].checkpoints.history[2].end_to_end_duration: expected a whole number, found a string"
        ),
        "{msg}"
    );
    assert!(app.text("#real-real").contains("No real run imported yet."));
    // Not JSON at all: where.
    paste(&app, "{\"history\": [").await;
    let msg = app.text("#real-message");
    assert!(msg.contains("not JSON (line 1, column 13)"), "{msg}");
    // JSON, but not a REST response: named too.
    paste(&app, "{\"jid\": 1}").await;
    assert!(app
        .text("#real-message")
        .contains("$: not a REST response this page reads"));
    // In Chinese.
    app.click("[data-lang=zh]").await;
    paste(&app, &v.to_string()).await;
    let msg = app.text("#real-message");
    assert!(msg.contains("应为整数，实际是字符串"), "{msg}");
    // A field Flink did not report is missing, not an error.
    let mut old = serde_json::from_str::<serde_json::Value>(FIXTURE).unwrap();
    for h in old["jobs"][0]["checkpoints"]["history"]
        .as_array_mut()
        .unwrap()
    {
        h.as_object_mut().unwrap().remove("checkpointed_size");
        h.as_object_mut().unwrap().remove("persisted_data");
    }
    app.click("[data-lang=en]").await;
    paste(&app, &old.to_string()).await;
    assert!(app
        .text("#real-message")
        .contains("Imported: 7 real checkpoints"));
    assert!(app.text("#real-real .real-row").contains("—"));
}
