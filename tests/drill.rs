//! The interview drill in the browser: `?drill=1` opens it beside the stage; a
//! question opens its answer only when asked, its moment puts the lesson on the
//! stage; an exercise answered by typing and by tapping the choices is checked
//! against the engine's run of the variant the page drew (recomputed here from
//! the variant seed the page shows), right and wrong, and the moment that shows
//! why plays; progress survives in `localStorage`. The state chapter's TTL topic
//! offers a repeated value's arrival times as its choices.
//! (The phone size is checked on the built page by `scripts/drill.cjs`.)
#![cfg(target_arch = "wasm32")]

mod support;

use engine::drill::{self, Answer, Exercise, Kind};
use support::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn clear_progress() {
    let storage = window().local_storage().unwrap().unwrap();
    storage
        .remove_item(checkpoint_lab::drill::PROGRESS_KEY)
        .unwrap();
}

/// The exercise the page drew for `kind`, recomputed from the variant it shows.
fn exercise_on_page(app: &Mounted, kind: Kind) -> Exercise {
    let card = format!(".drill-ex[data-kind=\"{}\"]", kind.key());
    let variant: u64 = app.attr(&card, "data-variant").parse().unwrap();
    let base = engine::runner::load(kind.lesson()).unwrap();
    drill::generate(kind, &base, variant).unwrap()
}

/// Types `text` into the blank `name` of `kind`'s card, as a learner does.
async fn type_into(app: &Mounted, kind: Kind, name: &str, text: &str) {
    let sel = format!(
        ".drill-ex[data-kind=\"{}\"] input[data-blank=\"{name}\"]",
        kind.key()
    );
    let input: web_sys::HtmlInputElement = app.find(&sel).unchecked_into();
    input.set_value(text);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let e = web_sys::InputEvent::new_with_event_init_dict("input", &init.unchecked_into()).unwrap();
    input.dispatch_event(&e).unwrap();
    yew::scheduler::flush().await;
}

/// The card's verdict after a check: `"true"` (all right) or `"false"`.
fn verdict(app: &Mounted, card: &str) -> String {
    app.attr(&format!("{card} .drill-ex__result"), "data-right")
}

/// The check plays the moment that shows why.
fn assert_plays(app: &Mounted) {
    assert_eq!(
        app.attr("#play", "aria-pressed"),
        "true",
        "the moment plays"
    );
}

fn number(ex: &Exercise, name: &str) -> i64 {
    match &ex.blanks.iter().find(|b| b.name == name).unwrap().answer {
        Answer::Number(n) => *n,
        a => panic!("{name}: {a:?}"),
    }
}

fn clock_ms(app: &Mounted) -> u64 {
    let text = app.text("#clock");
    text.split_whitespace()
        .find_map(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no time in {text:?}"))
}

#[wasm_bindgen_test]
async fn a_question_opens_its_answer_when_asked_and_its_moment_on_the_stage() {
    clear_progress();
    let app = Mounted::at("?lang=en&drill=1").await;
    assert_eq!(app.attr("#drill-button", "aria-pressed"), "true");
    assert_eq!(app.text("#drill-heading"), "Interview questions");
    assert_eq!(
        app.count(".drill-item"),
        22,
        "15 interview questions and 7 state topics"
    );
    assert_eq!(app.text("#drill-progress"), "0 of 22 answered right");
    app.click(".drill-item[data-id=\"q39\"]").await;
    assert!(app.text(".drill-q__question").contains("Why align"));
    let answer = app.find(".drill-q__answer");
    assert!(
        answer.has_attribute("hidden"),
        "the answer waits to be asked for"
    );
    app.click(".drill-q__reveal").await;
    assert!(!app.find(".drill-q__answer").has_attribute("hidden"));
    assert_eq!(app.attr(".drill-q__reveal", "aria-expanded"), "true");
    let callout = app.text(".drill-callout");
    assert!(
        callout.contains("The notes say") && callout.contains("1.11"),
        "{callout}"
    );
    app.click(".drill-q__moment").await;
    let select: web_sys::HtmlSelectElement = app.find("#scenario-select").unchecked_into();
    assert_eq!(select.value(), "alignment-isolated-at-least-once");
    let t = clock_ms(&app);
    assert!(
        (1_500..=1_630).contains(&t),
        "the stage is at the moment: {t} ms"
    );
    // The top bar's button closes the drill, and opens it again.
    app.click("#drill-button").await;
    assert!(app.query("#drill").is_none());
    app.click("#drill-button").await;
    assert!(app.query("#drill").is_some());
}

#[wasm_bindgen_test]
async fn a_typed_answer_is_checked_against_the_engine_wrong_then_right() {
    clear_progress();
    let app = Mounted::at("?lang=en&drill=1").await;
    app.click(".drill-item[data-id=\"q29\"]").await;
    let kind = Kind::RestoredSums;
    let ex = exercise_on_page(&app, kind);
    let q = app.text(".drill-ex[data-kind=\"restored_sums\"] .drill-ex__question");
    assert!(
        q.contains(&format!("{} ms", ex.question["crash_ms"])),
        "{q}"
    );
    // Wrong: the even sum off by two.
    let even = number(&ex, "even_sum");
    type_into(
        &app,
        kind,
        "checkpoint",
        &number(&ex, "checkpoint").to_string(),
    )
    .await;
    type_into(&app, kind, "even_sum", &(even + 2).to_string()).await;
    type_into(&app, kind, "odd_sum", &number(&ex, "odd_sum").to_string()).await;
    app.click(".drill-ex[data-kind=\"restored_sums\"] .drill-ex__check")
        .await;
    let result = ".drill-ex[data-kind=\"restored_sums\"] .drill-ex__result";
    assert_eq!(app.attr(result, "data-right"), "false");
    let said = app.text(result);
    assert!(
        said.contains(&format!(
            "you said {}; the engine's run of this variant gives {even}",
            even + 2
        )),
        "{said}"
    );
    assert_eq!(app.count(&format!("{result} .is-right")), 2);
    // The moment that shows why plays on the stage: the variant, just before it.
    assert_eq!(app.attr("#play", "aria-pressed"), "true");
    let t = clock_ms(&app);
    assert!(
        t <= ex.moment_ms && t + 600 >= ex.moment_ms,
        "at {t} ms, the moment is {} ms",
        ex.moment_ms
    );
    // Right.
    type_into(&app, kind, "even_sum", &even.to_string()).await;
    app.click(".drill-ex[data-kind=\"restored_sums\"] .drill-ex__check")
        .await;
    assert_eq!(app.attr(result, "data-right"), "true");
    // Not a number: said so, naming the blank; nothing is marked.
    type_into(&app, kind, "odd_sum", "nine").await;
    app.click(".drill-ex[data-kind=\"restored_sums\"] .drill-ex__check")
        .await;
    let said = app.text(result);
    assert!(said.contains("odd sum") && said.contains("nine"), "{said}");
    // The progress is kept.
    app.click(".drill-q__back").await;
    assert_eq!(app.text("#drill-progress"), "1 of 22 answered right");
    assert!(app
        .find(".drill-item[data-id=\"q29\"]")
        .class_list()
        .contains("is-right"));
    let saved = window()
        .local_storage()
        .unwrap()
        .unwrap()
        .get_item(checkpoint_lab::drill::PROGRESS_KEY)
        .unwrap()
        .unwrap();
    assert!(saved.contains("\"q29\""), "{saved}");
}

#[wasm_bindgen_test]
async fn a_tapped_set_is_checked_against_the_engine_in_chinese() {
    clear_progress();
    let app = Mounted::at("?lang=zh&drill=1").await;
    assert_eq!(app.text("#drill-heading"), "面试题");
    app.click(".drill-item[data-id=\"q37\"]").await;
    let kind = Kind::AlignmentWaiting;
    let ex = exercise_on_page(&app, kind);
    let Answer::Set(waiting) = ex.blanks[0].answer.clone() else {
        panic!("a set")
    };
    let card = ".drill-ex[data-kind=\"alignment_waiting\"]";
    assert_eq!(
        app.count(&format!("{card} .drill-chip")),
        5,
        "the numbers 1–5"
    );
    // Wrong: tap one number that does not wait (or none at all when all five do).
    let extra = (1..=5).find(|v| !waiting.contains(v));
    if let Some(v) = extra {
        app.click(&format!("{card} .drill-chip[data-value=\"{v}\"]"))
            .await;
        assert_eq!(
            app.attr(
                &format!("{card} .drill-chip[data-value=\"{v}\"]"),
                "aria-pressed"
            ),
            "true"
        );
    }
    app.click(&format!("{card} .drill-ex__check")).await;
    assert_eq!(verdict(&app, card), "false");
    assert!(app
        .text(&format!("{card} .drill-ex__result"))
        .contains("引擎运行这个变体得到"));
    assert_plays(&app);
    // Right: exactly the waiting ones.
    if let Some(v) = extra {
        app.click(&format!("{card} .drill-chip[data-value=\"{v}\"]"))
            .await;
    }
    for v in &waiting {
        app.click(&format!("{card} .drill-chip[data-value=\"{v}\"]"))
            .await;
    }
    app.click(&format!("{card} .drill-ex__check")).await;
    assert_eq!(verdict(&app, card), "true");
    // Another variant draws a new exercise with no answer shown yet.
    let before = app.attr(card, "data-variant");
    app.click(&format!("{card} .drill-ex__another")).await;
    assert_ne!(app.attr(card, "data-variant"), before);
    assert_eq!(
        app.count(&format!("{card} .drill-ex__result[data-right]")),
        0
    );
}

/// Question 37's exercise answered on the graph: the stage shows the variant
/// paused at the question's moment with each record it may mean as a button;
/// tapping there chooses the value as its chip does. A wrong tap is marked
/// wrong, the engine's own set right, and the check disarms the stage.
#[wasm_bindgen_test]
async fn the_alignment_exercise_is_answered_by_tapping_records_on_the_stage() {
    clear_progress();
    let app = Mounted::at("?lang=en&drill=1").await;
    app.click(".drill-item[data-id=\"q37\"]").await;
    let kind = Kind::AlignmentWaiting;
    let ex = exercise_on_page(&app, kind);
    let Answer::Set(waiting) = ex.blanks[0].answer.clone() else {
        panic!("a set")
    };
    let card = ".drill-ex[data-kind=\"alignment_waiting\"]";
    assert_eq!(app.count(".pick-token"), 0, "nothing to tap before asked");
    app.click(&format!("{card} .drill-ex__pick")).await;
    assert_eq!(app.attr(".stage", "data-scenario"), ex.scenario.name);
    assert_eq!(
        clock_ms(&app),
        ex.ask_ms.unwrap(),
        "paused at the question's moment"
    );
    assert_eq!(app.attr("#play", "aria-pressed"), "false");
    assert_eq!(
        app.attr(&format!("{card} .drill-ex__pick"), "aria-pressed"),
        "true"
    );
    for v in &waiting {
        assert!(
            app.count(&format!(".pick-token[data-value=\"{v}\"]")) >= 1,
            "record {v} can be tapped"
        );
    }
    // Wrong first: every waiting record but one.
    let first = *waiting.iter().next().unwrap();
    for v in waiting.iter().skip(1) {
        app.click(&format!(".pick-token[data-value=\"{v}\"]")).await;
        assert_eq!(
            app.attr(
                &format!("{card} .drill-chip[data-value=\"{v}\"]"),
                "aria-pressed"
            ),
            "true",
            "a tap on the stage chooses the chip"
        );
        assert_eq!(
            app.attr(&format!(".pick-token[data-value=\"{v}\"]"), "aria-pressed"),
            "true"
        );
    }
    app.click(&format!("{card} .drill-ex__check")).await;
    assert_eq!(verdict(&app, card), "false");
    assert_eq!(app.count(".pick-token"), 0, "the check disarms the stage");
    // Right: ask again and tap the missing one.
    app.click(&format!("{card} .drill-ex__pick")).await;
    app.click(&format!(".pick-token[data-value=\"{first}\"]"))
        .await;
    app.click(&format!("{card} .drill-ex__check")).await;
    assert_eq!(verdict(&app, card), "true");
    assert_plays(&app);
}

/// State topic S2: the value's arrival times are the choices, checked against
/// the engine's run of the variant, wrong then right.
#[wasm_bindgen_test]
async fn the_ttl_topic_offers_the_arrival_times_and_checks_them_against_the_engine() {
    clear_progress();
    let app = Mounted::at("?lang=en&drill=1").await;
    app.click(".drill-item[data-id=\"s2\"]").await;
    let kind = Kind::TtlPasses;
    let ex = exercise_on_page(&app, kind);
    let card = ".drill-ex[data-kind=\"ttl_passes\"]";
    let q = app.text(&format!("{card} .drill-ex__question"));
    assert!(
        q.contains(&format!("{} ms", ex.params["ttl_ms"]))
            && q.contains(&format!(
                "app{}'s value {}",
                ex.question["app"], ex.question["value"]
            )),
        "{q}"
    );
    // The choices are the value's arrival times.
    assert_eq!(
        app.count(&format!("{card} .drill-chip")),
        ex.blanks[0].choices.len()
    );
    // Wrong: nothing tapped (the first arrival always passes).
    app.click(&format!("{card} .drill-ex__check")).await;
    assert_eq!(verdict(&app, card), "false");
    assert_plays(&app);
    // Right: exactly the times the engine let it through.
    let Answer::Set(passes) = ex.blanks[0].answer.clone() else {
        panic!("a set")
    };
    for t in &passes {
        app.click(&format!("{card} .drill-chip[data-value=\"{t}\"]"))
            .await;
    }
    app.click(&format!("{card} .drill-ex__check")).await;
    assert_eq!(verdict(&app, card), "true");
}
