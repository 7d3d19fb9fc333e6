#![cfg(target_arch = "wasm32")]
//! Browser tests of the teaching aids: the guided tour's previous /
//! next (buttons and ← / →) in both languages, a share link's round trip to the
//! same moment, damaged links that name what is wrong while the page stays usable,
//! the form editor applying a valid change and refusing an invalid one, a lesson
//! pair side by side with the difference in committed output, and the storage
//! tab's Crash-the-JobManager button narrated.
//!
//! Like `tests/app.rs`: the real [`App`] in headless Chromium, no sleeps
//! (`yew::scheduler::flush().await`), each test in a fresh `<div>`, and the URL
//! (query and fragment) put back when a test ends.

use checkpoint_lab::i18n::Lang;
use checkpoint_lab::lessons::tour;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

mod support;
use support::*;

wasm_bindgen_test_configure!(run_in_browser);

/// What the lesson tests read of the page.
trait Moment {
    fn clock(&self) -> String;
    fn moment(&self) -> (String, Vec<String>, String);
}

impl Moment for Mounted {
    fn clock(&self) -> String {
        self.text("#clock")
    }

    /// What the page shows of the run: the clock, every subtask's accessible
    /// label (its status) and the coordinator panel.
    fn moment(&self) -> (String, Vec<String>, String) {
        let tasks = self.root.query_selector_all("[data-task]").unwrap();
        let labels = (0..tasks.length())
            .map(|i| {
                tasks
                    .item(i)
                    .unwrap()
                    .unchecked_into::<Element>()
                    .get_attribute("aria-label")
                    .unwrap_or_default()
            })
            .collect();
        (self.clock(), labels, self.text("#tabpanel-coordinator"))
    }
}

/// The engine steps the odd-even-sum tour goes to, found natively.
fn tour_steps() -> Vec<u64> {
    let t = tour::tour_for("odd-even-sum").expect("odd-even-sum has a tour");
    let s = engine::runner::load("odd-even-sum").unwrap();
    tour::positions(&t, &s, s.seed).unwrap()
}

/// A question's choices on the single page: nothing is revealed before a pick;
/// a right pick is pressed and marked ✓ with words, a wrong one ✗ with the right
/// one named and marked; the answer appears after the pick; the next question
/// starts unpicked.
#[wasm_bindgen_test]
async fn a_pick_is_marked_right_or_wrong_before_the_answer_shows() {
    let t = tour::tour_for("odd-even-sum").unwrap();
    let app = Mounted::at("?lang=en&scenario=odd-even-sum").await;
    app.click("#tour-start").await;
    app.click("#tour-next").await;
    let asked: Vec<usize> = t
        .steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.ask.is_some())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(asked[..2], [1, 2], "steps 2 and 3 ask");
    let choice = |i: usize| format!("#tour-choice-{}", i + 1);
    let pressed = |app: &Mounted, i: usize| app.attr(&choice(i), "aria-pressed");

    // Step 2, the right one.
    let step = &t.steps[1];
    let right = step.right_choice().unwrap();
    let n = step.choice_texts(Lang::En).len();
    assert!(app.query("#tour-answer").is_none());
    assert!(app.query("#tour-verdict").is_none());
    for i in 0..n {
        assert_eq!(pressed(&app, i), "false");
        assert!(app
            .text(&choice(i))
            .contains(step.choice_texts(Lang::En)[i]));
    }
    app.click(&choice(right)).await;
    assert_eq!(pressed(&app, right), "true");
    assert_eq!(app.text("#tour-verdict"), "✓ Right!");
    assert!(
        app.text(&choice(right)).contains("✓ the right answer"),
        "{}",
        app.text(&choice(right))
    );
    assert!(
        app.text("#tour-answer").starts_with("5."),
        "{}",
        app.text("#tour-answer")
    );
    assert_eq!(
        app.attr(&choice(right), "aria-disabled"),
        "true",
        "answered"
    );
    // A second pick changes nothing: the first one stands.
    let other = (right + 1) % n;
    app.click(&choice(other)).await;
    assert_eq!(
        (pressed(&app, right), pressed(&app, other)),
        ("true".into(), "false".into())
    );
    assert_eq!(app.text("#tour-verdict"), "✓ Right!");

    // Step 3, a wrong one.
    app.click("#tour-next").await;
    let step = &t.steps[2];
    let right = step.right_choice().unwrap();
    let wrong = (right + 1) % step.choices.len();
    assert!(
        app.query("#tour-answer").is_none(),
        "a new step starts unanswered"
    );
    assert_eq!(pressed(&app, wrong), "false");
    app.click(&choice(wrong)).await;
    assert_eq!(pressed(&app, wrong), "true");
    assert_eq!(pressed(&app, right), "false");
    let letter = (b'A' + right as u8) as char;
    assert_eq!(
        app.text("#tour-verdict"),
        format!("✗ Not this one: the right answer is {letter}.")
    );
    assert!(
        app.text(&choice(wrong)).contains("✗ your pick"),
        "{}",
        app.text(&choice(wrong))
    );
    assert!(app.text(&choice(right)).contains("✓ the right answer"));
    assert!(
        app.text("#tour-answer").starts_with("Even 6"),
        "{}",
        app.text("#tour-answer")
    );
}

/// Next / previous, by button and by ← / →, move the same playback the page
/// shows; leaving the tour keeps the moment.
#[wasm_bindgen_test]
async fn tour_next_and_previous_drive_the_playback() {
    let steps = tour_steps();
    let app = Mounted::at("?lang=en&scenario=odd-even-sum").await;
    assert_eq!(app.text("#tour-start"), "Start the guided tour");
    app.click("#tour-start").await;
    assert_eq!(
        app.text("#tour-counter"),
        format!("Step 1 of {}", steps.len())
    );
    assert!(
        app.find("#tour-prev").has_attribute("disabled"),
        "no previous step on the first"
    );
    assert!(app.text("#tour-next").contains("Next step"));
    assert!(
        app.clock().ends_with(&format!("step {}", steps[0])),
        "{}",
        app.clock()
    );

    app.click("#tour-next").await;
    assert_eq!(
        app.text("#tour-counter"),
        format!("Step 2 of {}", steps.len())
    );
    assert!(
        app.clock().ends_with(&format!("step {}", steps[1])),
        "{}",
        app.clock()
    );
    assert!(
        app.clock().starts_with("t = 500 ms"),
        "record 5 is read at 500 ms: {}",
        app.clock()
    );
    // A prediction step: the answer is hidden until asked for.
    assert!(app.query("#tour-answer").is_none());
    app.click("#tour-reveal").await;
    assert!(
        app.text("#tour-answer").starts_with("5."),
        "{}",
        app.text("#tour-answer")
    );

    // → in tour mode turns the step (not the engine's single step).
    app.press("ArrowRight").await;
    assert_eq!(
        app.text("#tour-counter"),
        format!("Step 3 of {}", steps.len())
    );
    assert!(
        app.clock().ends_with(&format!("step {}", steps[2])),
        "{}",
        app.clock()
    );
    app.press("ArrowLeft").await;
    assert_eq!(
        app.text("#tour-counter"),
        format!("Step 2 of {}", steps.len())
    );
    app.click("#tour-prev").await;
    assert_eq!(
        app.text("#tour-counter"),
        format!("Step 1 of {}", steps.len())
    );

    // Leave the tour at step 3's moment: the page stays there, → steps the engine again.
    app.press("ArrowRight").await;
    app.press("ArrowRight").await;
    let there = app.clock();
    app.click("#tour-exit").await;
    assert!(app.query(".tour-card").is_none());
    assert_eq!(app.clock(), there, "leaving the tour keeps the state");
    app.press("ArrowRight").await;
    assert_ne!(app.clock(), there, "outside the tour → steps the engine");
}

/// The tour speaks Chinese too, names included.
#[wasm_bindgen_test]
async fn tour_controls_are_named_in_chinese() {
    let app = Mounted::at("?lang=zh&scenario=odd-even-sum").await;
    assert_eq!(app.text("#tour-start"), "开始导览");
    app.click("#tour-start").await;
    assert!(app.text("#tour-next").contains("下一步"));
    assert!(app.text("#tour-prev").contains("上一步"));
    assert!(app.text("#tour-counter").starts_with("第 1 步"));
    assert!(app.text("#tour-text").contains("numbers"));
    assert_eq!(
        app.find(".tour-card")
            .get_attribute("aria-label")
            .as_deref(),
        Some("导览")
    );
    app.click("#glossary-button").await;
    assert!(app.text("#glossary").contains("两阶段提交"));
}

/// A learner steps, triggers a checkpoint, shares: the link opens the same
/// moment (clock, every subtask's status, the coordinator panel).
#[wasm_bindgen_test]
async fn share_link_round_trip_shows_the_same_moment() {
    let (link, before) = {
        let app = Mounted::at("?lang=en&scenario=odd-even-sum").await;
        for _ in 0..6 {
            app.click("#step-forward").await;
        }
        app.click("#trigger-checkpoint").await;
        for _ in 0..4 {
            app.click("#step-forward").await;
        }
        app.click("#share-button").await;
        let hash = window().location().hash().unwrap();
        assert!(hash.starts_with("#lab=1."), "{hash}");
        assert!(app.query(".lesson-bar__notice").is_some());
        let recipe = checkpoint_lab::share::decode(&hash).unwrap().unwrap();
        assert_eq!(
            recipe.interventions.len(),
            1,
            "the manual checkpoint is in the recipe"
        );
        (format!("?lang=en{hash}"), app.moment())
    };
    let app = Mounted::at(&link).await;
    assert!(
        app.query(".share-error").is_none(),
        "{}",
        app.text(".share-error")
    );
    assert_eq!(app.moment(), before);
}

/// A damaged link says what is wrong; the default scenario runs and works.
#[wasm_bindgen_test]
async fn a_bad_link_is_explained_and_the_page_stays_usable() {
    for (hash, says) in [
        ("#lab=1.AAAA-bad", "damaged"),
        ("#lab=9.xyz", "version 9"),
        ("#lab=1.%%%", "base64"),
    ] {
        let app = Mounted::at(&format!("?lang=en{hash}")).await;
        let why = app.text(".share-error");
        assert!(
            why.contains("This share link cannot be opened") && why.contains(says),
            "{hash}: {why}"
        );
        assert_eq!(app.clock(), "t = 0 ms · step 0");
        app.click("#step-forward").await;
        assert_ne!(
            app.clock(),
            "t = 0 ms · step 0",
            "{hash}: the page still plays"
        );
        app.click(".share-error button").await;
        assert!(
            app.query(".share-error").is_none(),
            "the message can be dismissed"
        );
    }
}

/// The form editor applies a valid change at once (and keeps it for the next
/// visit) and refuses an invalid one with the field named.
#[wasm_bindgen_test]
async fn the_editor_applies_valid_changes_and_names_the_field_of_invalid_ones() {
    let storage = window().local_storage().unwrap().unwrap();
    let app = Mounted::at("?lang=en&scenario=odd-even-sum").await;
    app.click("#editor-button").await;
    let latency = "[data-field=\"numbers → parity.latency_ms\"]";
    assert_eq!(
        app.find(latency)
            .unchecked_into::<web_sys::HtmlInputElement>()
            .value(),
        "10"
    );
    change(&app, latency, "40").await;
    assert!(
        app.query(".editor-error").is_none(),
        "{}",
        app.text(".editor-error")
    );
    assert_eq!(
        app.find(latency)
            .unchecked_into::<web_sys::HtmlInputElement>()
            .value(),
        "40"
    );
    let saved = storage
        .get_item(checkpoint_lab::lessons::bar::STORAGE_KEY)
        .unwrap()
        .expect("the edit is kept");
    let s = engine::Scenario::from_json(&saved).unwrap();
    assert_eq!(s.job.edges[0].latency_ms, 40);
    // The first record now reaches parity 40 ms after it is emitted, not 10.
    let t = |app: &Mounted| -> u64 {
        app.clock()
            .trim_start_matches("t = ")
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    for _ in 0..10 {
        if t(&app) > 100 {
            break;
        }
        app.click("#step-forward").await;
    }
    assert_eq!(t(&app), 140, "{}", app.clock());

    change(&app, "[data-field=\"sum.parallelism\"]", "2").await;
    let why = app.text(".editor-error");
    assert!(why.contains("job.edges[2].partitioning"), "{why}");
    storage
        .remove_item(checkpoint_lab::lessons::bar::STORAGE_KEY)
        .unwrap();
}

/// Regression: a new run right after loading compared equal to the old one
/// (`State`'s equality is its revision, which restarted at 1), so the toolbar and
/// the lesson bar kept showing the old run.
#[wasm_bindgen_test]
async fn a_restart_right_after_loading_shows_the_new_run() {
    let app = Mounted::at("?lang=en&scenario=odd-even-sum").await;
    let seed = app.text("#seed");
    app.click("#restart").await;
    assert_ne!(app.text("#seed"), seed);
}

/// Once the learner loads another run, the share link leaves the address bar (a
/// reload then shows the new run, not the shared moment).
#[wasm_bindgen_test]
async fn loading_another_scenario_drops_the_share_link() {
    let app = Mounted::at("?lang=en&scenario=odd-even-sum").await;
    app.click("#share-button").await;
    assert!(window().location().hash().unwrap().starts_with("#lab=1."));
    change(&app, "#scenario-select", "pv-count").await;
    assert!(
        app.query("[data-task=\"kafka#0\"]").is_some(),
        "pv-count is loaded"
    );
    assert_eq!(
        app.find("#scenario-select")
            .unchecked_into::<web_sys::HtmlSelectElement>()
            .value(),
        "pv-count"
    );
    assert_eq!(window().location().hash().unwrap(), "");
}

/// The number of stages the page shows.
fn stages(app: &Mounted) -> u32 {
    app.root
        .query_selector_all(".stages > .stage")
        .unwrap()
        .length()
}

/// A lesson with a pair offers its partner; comparing puts the partner in the
/// twin stage under the same seed and shows the committed output of both, per
/// key: jobmanager storage commits every count before checkpoint 3 twice.
#[wasm_bindgen_test]
async fn a_lesson_pair_opens_side_by_side_with_the_difference_in_output() {
    let app = Mounted::at("?lang=en&scenario=jobmanager-crash-jobmanager&t=6000").await;
    assert_eq!(stages(&app), 1);
    assert!(app.query("#pair-diff").is_none());
    let button = "#compare-jobmanager-crash-filesystem";
    assert_eq!(
        app.text(button),
        "Compare with jobmanager-crash-filesystem side by side"
    );
    app.click(button).await;
    yew::scheduler::flush().await;
    assert_eq!(stages(&app), 2, "the partner opens in a second stage");
    let captions: Vec<String> = {
        let list = app.root.query_selector_all(".stage__caption").unwrap();
        (0..list.length())
            .map(|i| list.item(i).unwrap().text_content().unwrap_or_default())
            .collect()
    };
    assert_eq!(captions.len(), 2, "{captions:?}");
    assert!(
        captions[0].starts_with("jobmanager-crash-jobmanager"),
        "{captions:?}"
    );
    assert!(
        captions[1].starts_with("jobmanager-crash-filesystem"),
        "{captions:?}"
    );
    assert!(
        app.query(button).is_none(),
        "the partner shown is not offered again"
    );
    assert_eq!(
        app.find(".pair-diff__summary")
            .get_attribute("data-differ")
            .as_deref(),
        Some("3")
    );
    assert_eq!(
        app.text(".pair-diff__summary"),
        "So far the committed output differs for 3 of 3 keys."
    );
    let row = app.text(".pair-diff__row[data-key=\"app1\"]");
    assert!(row.contains("out / app1"), "{row}");
    assert!(row.contains("4024"), "40 committed vs 24: {row}");
    assert!(
        row.contains("16 duplicates in jobmanager-crash-jobmanager"),
        "{row}"
    );

    // The state-backend twins commit alike (in Chinese).
    let early = Mounted::at("?lang=zh&scenario=state-backend-rocksdb&t=9000").await;
    early.click("#compare-state-backend-hashmap").await;
    yew::scheduler::flush().await;
    assert_eq!(stages(&early), 2);
    assert_eq!(
        early.text(".pair-diff__summary"),
        "到这一刻为止，两边提交的输出完全一样。"
    );
    drop(early);

    // Stopping the comparison closes the second stage.
    app.click("#compare-stop").await;
    assert_eq!(stages(&app), 1);
    assert!(app.query("#pair-diff").is_none());
}

/// Exactly-once vs plain, mid-run: each run's verdicts are counted
/// apart — the plain sink's duplicates marked, exactly-once's outputs still to
/// come "not committed yet" — and the difference never says "missing".
#[wasm_bindgen_test]
async fn exactly_once_vs_plain_counts_not_committed_yet_apart() {
    let app = Mounted::at("?lang=en&scenario=exactly-once-kafka&t=1500").await;
    app.click("#compare-exactly-once-kafka-plain").await;
    yew::scheduler::flush().await;
    let eo = app.find(".pair-diff__run[data-run=\"exactly-once-kafka\"]");
    let plain = app.find(".pair-diff__run[data-run=\"exactly-once-kafka-plain\"]");
    let not_yet: u32 = eo.get_attribute("data-not-yet").unwrap().parse().unwrap();
    assert!(not_yet > 0, "exactly-once has outputs still to commit");
    assert_eq!(eo.get_attribute("data-lost").as_deref(), Some("0"));
    assert_eq!(eo.get_attribute("data-duplicates").as_deref(), Some("0"));
    let text = app.text("#pair-diff");
    assert!(!text.contains("missing"), "{text}");
    assert!(text.contains("not committed yet"), "{text}");
    drop(plain);
}

/// The storage tab's Crash-the-JobManager button: the engine's
/// `jobmanager_failed` event shows in the narration.
#[wasm_bindgen_test]
async fn crashing_the_jobmanager_from_the_storage_tab_is_narrated() {
    let app = Mounted::at("?lang=en&scenario=jobmanager-crash-filesystem&t=1500").await;
    let crashed = "The JobManager crashed!";
    app.click("#tab-narration").await;
    assert!(!app.text("#tabpanel-narration").contains(crashed));
    app.click("#tab-storage").await;
    app.click("#crash-jobmanager").await;
    app.click("#tab-narration").await;
    // The scenario's own JobManager crash is at 3500 ms; this one is the click's.
    let mut at = None;
    for _ in 0..20 {
        let items = app.root.query_selector_all(".narration__list li").unwrap();
        at = (0..items.length())
            .map(|i| items.item(i).unwrap().unchecked_into::<Element>())
            .find(|li| li.text_content().unwrap_or_default().contains(crashed))
            .and_then(|li| li.query_selector(".narration__t").unwrap())
            .and_then(|t| t.text_content());
        if at.is_some() {
            break;
        }
        app.press("ArrowRight").await;
    }
    let at = at.unwrap_or_else(|| panic!("not narrated: {}", app.text("#tabpanel-narration")));
    let ms: u64 = at
        .trim_end_matches(" ms")
        .parse()
        .unwrap_or_else(|_| panic!("{at:?}"));
    assert!(
        (1500..1600).contains(&ms),
        "the crash follows the click at 1500 ms, not the script: {at}"
    );
}

/// A restored run (savepoint-rescale) starts at 1520 ms, where the earlier job
/// stopped: the tour's first step is the restore, delivered with the first step,
/// and its prediction step shows pv#2, which gets app2's count.
#[wasm_bindgen_test]
async fn the_savepoint_tour_walks_the_restored_run() {
    let t = tour::tour_for("savepoint-rescale").expect("a tour");
    let s = engine::runner::load("savepoint-rescale").unwrap();
    let steps = tour::positions(&t, &s, s.seed).unwrap();
    assert!(steps[0] >= 1, "the restore events come with the first step");
    let app = Mounted::at("?lang=en&scenario=savepoint-rescale").await;
    app.click("#tour-start").await;
    assert!(
        app.clock().starts_with("t = 1520 ms"),
        "the restored job's clock goes on from the earlier one: {}",
        app.clock()
    );
    app.click("#tour-next").await;
    assert!(
        app.clock().ends_with(&format!("step {}", steps[1])),
        "{}",
        app.clock()
    );
    assert!(
        app.text(".tour-card__question").contains("app2"),
        "{}",
        app.text(".tour-card__question")
    );
    app.click("#tour-reveal").await;
    assert!(
        app.text("#tour-answer").starts_with("pv#2."),
        "{}",
        app.text("#tour-answer")
    );
}

/// The `.flow` chips on the stage: (direction, subtask, text).
fn flows(app: &Mounted) -> Vec<(String, String, String)> {
    let list = app.root.query_selector_all(".flow").unwrap();
    (0..list.length())
        .map(|i| {
            let e = list.item(i).unwrap().unchecked_into::<Element>();
            let a = |n: &str| e.get_attribute(n).unwrap_or_default();
            (a("data-flow"), a("data-task"), a("data-text"))
        })
        .collect()
}

/// Snapshot and restore you can watch in odd-even-sum: at
/// chk-1's snapshot the source's `offset (0, 5)` travels to the chk-1 store; at
/// the restore it travels back while the line says `⟲ 5`; then the records read
/// again are marked on the canvas, exactly those with 5 ≤ offset < 7.
#[wasm_bindgen_test]
async fn odd_even_sum_values_flow_to_chk_1_and_back_and_replays_are_marked() {
    // At the source's snapshot (550 ms): the chip leaves its line (a moment
    // later it is hidden while it crosses the lane's rows above).
    let app = Mounted::at("?lang=en&scenario=odd-even-sum&t=550").await;
    let snap = flows(&app);
    assert!(
        snap.iter()
            .any(|(d, t, x)| d == "snapshot" && t == "numbers#0" && x == "offset (0, 5)"),
        "{snap:?}"
    );
    assert_eq!(app.attr(".flow-store", "data-checkpoint"), "1");
    let mut back = Vec::new();
    for _ in 0..400 {
        app.click("#step-forward").await;
        back = flows(&app)
            .into_iter()
            .filter(|(d, _, _)| d == "restore")
            .collect();
        if !back.is_empty() {
            break;
        }
    }
    assert!(
        back.iter()
            .any(|(_, t, x)| t == "numbers#0" && x == "offset (0, 5)"),
        "chk-1's offset flows back: {back:?}"
    );
    let line = app.attr("[data-lane=\"numbers#0\"] .lane__state", "data-state");
    assert!(
        line.contains("⟲ 5 (chk-1)"),
        "lands on the rewound value: {line}"
    );
    let mut marked = String::new();
    for _ in 0..400 {
        if app
            .attr(".scene__tokens", "data-replays")
            .parse::<usize>()
            .unwrap_or(0)
            > 0
        {
            marked = app.attr(".scene__tokens", "data-replay-origins");
            break;
        }
        app.click("#step-forward").await;
    }
    let offset = |o: &str| o.split(':').nth(1).unwrap().parse::<u32>().unwrap();
    assert!(!marked.is_empty(), "replayed records are marked");
    assert!(
        marked.split(' ').map(offset).all(|o| (5..7).contains(&o)),
        "{marked}"
    );
    let fresh = app.attr(".scene__tokens", "data-fresh-origins");
    assert!(
        fresh
            .split(' ')
            .filter(|o| !o.is_empty())
            .map(offset)
            .all(|o| o >= 7),
        "{fresh}"
    );
}
