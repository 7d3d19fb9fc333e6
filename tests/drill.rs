//! The interview drill in the browser: `?drill=1` opens it beside the stage; a
//! question opens its answer only when asked, its moment puts the lesson on the
//! stage; an exercise answered by typing and by tapping the choices is checked
//! against the engine's run of the variant the page drew (recomputed here from
//! the variant seed the page shows), right and wrong, with the reason under a
//! wrong answer, and the stage paused at the moment that shows why; a question
//! is done when all its exercises were right, and progress survives in
//! `localStorage`; the open question survives a reload (it is in the address).
//! The state chapter's TTL topic offers a repeated value's arrival times as its
//! choices; a blank of labels offers its labels as chips, worded.
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

/// After a check the stage shows the variant paused at the moment that shows
/// why: the reason of the first blank marked wrong, else the exercise's moment.
fn assert_paused_at_reason(app: &Mounted, ex: &Exercise, card: &str) {
    let marked: Vec<drill::Marked> = ex
        .blanks
        .iter()
        .map(|b| drill::Marked {
            blank: b.name.clone(),
            right: app.count(&format!(
                "{card} .drill-ex__line.is-wrong[data-blank=\"{}\"]",
                b.name
            )) == 0,
            given: b.answer.clone(),
            expected: b.answer.clone(),
        })
        .collect();
    let at = checkpoint_lab::drill::exercise::reason_moment(ex, Some(&marked));
    assert_eq!(app.attr("#play", "aria-pressed"), "false", "paused");
    assert_eq!(app.attr(".stage", "data-scenario"), ex.scenario.name);
    assert_eq!(clock_ms(app), at, "paused at the moment that shows why");
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
    // The stage shows the variant paused at the moment that shows why.
    assert_paused_at_reason(&app, &ex, ".drill-ex[data-kind=\"restored_sums\"]");
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
    assert_paused_at_reason(&app, &ex, card);
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
    assert_paused_at_reason(&app, &ex, card);
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
    assert_paused_at_reason(&app, &ex, card);
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

/// A wrong answer the learner could give to `b` (the engine's answer is `a`).
fn wrong_for(b: &drill::Blank) -> Answer {
    match &b.answer {
        Answer::Number(n) => Answer::Number(n + 1),
        Answer::Set(s) if s.is_empty() => Answer::Set(b.choices.iter().take(1).copied().collect()),
        Answer::Set(_) => Answer::Set(Default::default()),
        Answer::Labels(s) if s.is_empty() => {
            Answer::Labels(b.labels.iter().take(1).cloned().collect())
        }
        Answer::Labels(_) => Answer::Labels(Default::default()),
    }
}

/// Enters `answer` into blank `b` of `card` as a learner does: typed, or the
/// chips of its values or labels tapped.
async fn enter(app: &Mounted, card: &str, kind: Kind, b: &drill::Blank, answer: &Answer) {
    use checkpoint_lab::drill::exercise::Form;
    match Form::of(b) {
        Form::Typed => {
            let text = match answer {
                Answer::Number(n) => n.to_string(),
                other => other.to_string(),
            };
            type_into(app, kind, &b.name, &text).await;
        }
        Form::Values => {
            let Answer::Set(want) = answer else {
                panic!("{}: a set", b.name)
            };
            for v in &b.choices {
                let chip = format!(
                    "{card} [data-blank=\"{}\"] .drill-chip[data-value=\"{v}\"]",
                    b.name
                );
                if (app.attr(&chip, "aria-pressed") == "true") != want.contains(v) {
                    app.click(&chip).await;
                }
            }
        }
        Form::Labels => {
            let Answer::Labels(want) = answer else {
                panic!("{}: labels", b.name)
            };
            for l in &b.labels {
                let chip = format!(
                    "{card} [data-blank=\"{}\"] .drill-chip[data-label=\"{l}\"]",
                    b.name
                );
                if (app.attr(&chip, "aria-pressed") == "true") != want.contains(l) {
                    app.click(&chip).await;
                }
            }
        }
    }
}

/// Every exercise of every question, answered wrong: each wrong blank's line
/// states the engine's answer and, under it, the blank's reason in words when
/// its kind gives one (none otherwise); the stage is paused at the reason's
/// moment. Then answered right: all right.
#[wasm_bindgen_test]
async fn a_wrong_answer_shows_its_reason_and_the_stage_pauses_there() {
    use checkpoint_lab::drill::{exercise::reason_line, questions};
    use checkpoint_lab::i18n::Lang;
    clear_progress();
    let app = Mounted::at("?lang=en&drill=1").await;
    let qs = questions().unwrap();
    let (mut exercises, mut reasons) = (0, 0);
    for q in &qs.questions {
        app.click(&format!(".drill-item[data-id=\"{}\"]", q.id))
            .await;
        for kind in q.kinds() {
            let card = format!(".drill-ex[data-kind=\"{}\"]", kind.key());
            let ex = exercise_on_page(&app, kind);
            for b in &ex.blanks {
                enter(&app, &card, kind, b, &wrong_for(b)).await;
            }
            app.click(&format!("{card} .drill-ex__check")).await;
            assert_eq!(verdict(&app, &card), "false", "{}: {}", q.id, kind.key());
            for b in &ex.blanks {
                let line = format!("{card} .drill-ex__line.is-wrong[data-blank=\"{}\"]", b.name);
                let why = format!("{line} .drill-ex__why");
                match reason_line(&ex, &b.name, Lang::En) {
                    Some(text) => {
                        reasons += 1;
                        assert_eq!(app.text(&why), text, "{}: {}", q.id, b.name);
                    }
                    None => assert_eq!(app.count(&why), 0, "{}: no reason to show", b.name),
                }
                assert!(
                    app.text(&line)
                        .contains("the engine's run of this variant gives"),
                    "{}",
                    app.text(&line)
                );
            }
            assert_paused_at_reason(&app, &ex, &card);
            // The replay goes back there after the stage moved on.
            app.click("#play").await;
            app.click(&format!("{card} .drill-ex__replay")).await;
            assert_paused_at_reason(&app, &ex, &card);
            for b in &ex.blanks {
                enter(&app, &card, kind, b, &b.answer).await;
            }
            app.click(&format!("{card} .drill-ex__check")).await;
            assert_eq!(verdict(&app, &card), "true", "{}: {}", q.id, kind.key());
            assert_eq!(app.count(&format!("{card} .drill-ex__why")), 0);
            exercises += 1;
        }
        app.click(".drill-q__back").await;
    }
    assert!(exercises >= qs.questions.len(), "{exercises} exercises");
    web_sys::console::log_1(&format!("{exercises} exercises, {reasons} reasons shown").into());
}

/// A question with two exercises is done (✓) only once both were answered
/// right; one right and one not yet leaves it "tried".
#[wasm_bindgen_test]
async fn a_question_is_marked_right_only_when_all_its_exercises_are() {
    clear_progress();
    let app = Mounted::at("?lang=en&drill=1").await;
    let q = checkpoint_lab::drill::questions()
        .unwrap()
        .questions
        .iter()
        .find(|q| q.kinds().len() >= 2)
        .cloned()
        .expect("a question with two exercises");
    let item = format!(".drill-item[data-id=\"{}\"]", q.id);
    let kinds = q.kinds();
    app.click(&item).await;
    for (i, kind) in kinds.iter().enumerate() {
        let card = format!(".drill-ex[data-kind=\"{}\"]", kind.key());
        let ex = exercise_on_page(&app, *kind);
        for b in &ex.blanks {
            enter(&app, &card, *kind, b, &b.answer).await;
        }
        app.click(&format!("{card} .drill-ex__check")).await;
        assert_eq!(verdict(&app, &card), "true");
        app.click(".drill-q__back").await;
        let class = app.find(&item).class_name();
        let done = i + 1 == kinds.len();
        assert_eq!(
            class.contains("is-right"),
            done,
            "{} of {} right: {class}",
            i + 1,
            kinds.len()
        );
        assert_eq!(
            app.text("#drill-progress"),
            format!("{} of 22 answered right", usize::from(done))
        );
        app.click(&item).await;
    }
}

/// The open question is in the address: a reload (the page mounted again at
/// the address the first left) reopens it, a link naming one opens it, and
/// back at the list the address names none.
#[wasm_bindgen_test]
async fn a_reload_reopens_the_open_question() {
    clear_progress();
    let app = Mounted::at("?lang=en&drill=1").await;
    app.click(".drill-item[data-id=\"q37\"]").await;
    let url = current_url();
    assert!(url.contains("drill=1") && url.contains("q=q37"), "{url}");
    drop(app);
    let again = Mounted::at(&url).await;
    yew::scheduler::flush().await;
    assert_eq!(
        again.attr(".drill-q", "data-id"),
        "q37",
        "reopened after a reload"
    );
    again.click(".drill-q__back").await;
    let url = current_url();
    assert!(url.contains("drill=1") && !url.contains("q="), "{url}");
    drop(again);
    let linked = Mounted::at("?lang=zh&drill=1&q=s4").await;
    assert_eq!(linked.attr(".drill-q", "data-id"), "s4");
    // Closing the drill takes it out of the address.
    linked.click("#drill-button").await;
    assert!(!current_url().contains("drill=1"), "{}", current_url());
    drop(linked);
    // An unknown id opens the list.
    let unknown = Mounted::at("?lang=en&drill=1&q=nope").await;
    assert!(unknown.count(".drill-item") > 0);
}

/// The drill stays open beside a side-panel tab: opening the storage tab
/// keeps the open question and the answer typed so far.
#[wasm_bindgen_test]
async fn the_drill_and_a_tab_are_open_together() {
    clear_progress();
    let app = Mounted::at("?lang=en&drill=1&q=q33").await;
    type_into(&app, Kind::StoredOffset, "offset", "12").await;
    app.click("#tab-storage").await;
    assert!(
        !app.find("#tabpanel-storage").has_attribute("hidden"),
        "the tab shows"
    );
    assert_eq!(app.attr(".drill-q", "data-id"), "q33", "the drill stays");
    let input: web_sys::HtmlInputElement = app
        .find(".drill-ex[data-kind=\"stored_offset\"] input[data-blank=\"offset\"]")
        .unchecked_into();
    assert_eq!(input.value(), "12", "the answer typed so far stays");
    assert!(app
        .find(".side-panel")
        .class_list()
        .contains("side-panel--drill-and-tab"));
    // Closing the tab leaves the drill.
    app.click("#drawer-close").await;
    assert_eq!(app.attr(".drill-q", "data-id"), "q33");
}

/// A blank whose answer is labels offers them as chips: a wording key worded
/// (`yes` → 是), a stage name as it is (`src#1`); the chosen labels are the
/// answer, marked against the engine's.
#[wasm_bindgen_test]
async fn a_labels_blank_offers_its_labels_as_chips() {
    use checkpoint_lab::drill::exercise::ExerciseBody;
    use checkpoint_lab::hooks::LangContext;
    use checkpoint_lab::i18n::Lang;
    use yew::prelude::*;

    #[derive(Properties, PartialEq)]
    struct Props {
        exercise: std::rc::Rc<Exercise>,
    }
    #[function_component]
    fn InZh(props: &Props) -> Html {
        let context = LangContext {
            lang: Lang::Zh,
            set_lang: Callback::noop(),
        };
        html! {
            <ContextProvider<LangContext> {context}>
                <ExerciseBody exercise={props.exercise.clone()} variant={7} dispatch={Callback::noop()}
                              on_mark={Callback::noop()} on_another={Callback::noop()} />
            </ContextProvider<LangContext>>
        }
    }
    let base = engine::runner::load(Kind::StoredOffset.lesson()).unwrap();
    let mut ex = drill::generate(Kind::StoredOffset, &base, 1).unwrap();
    let labels = |v: &[&str]| {
        v.iter()
            .map(|s| s.to_string())
            .collect::<std::collections::BTreeSet<_>>()
    };
    ex.blanks = vec![drill::Blank {
        name: "offset".into(),
        answer: Answer::Labels(labels(&["src#1", "yes"])),
        choices: vec![],
        labels: vec!["src#0".into(), "src#1".into(), "yes".into(), "no".into()],
        why: None,
    }];
    let root = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    let handle = yew::Renderer::<InZh>::with_root_and_props(
        root.clone(),
        Props {
            exercise: std::rc::Rc::new(ex),
        },
    )
    .render();
    yew::scheduler::flush().await;
    let app = Mounted::wrapping(root, current_url());
    let chips: Vec<String> = (0..app.count(".drill-chip"))
        .map(|i| {
            app.root
                .query_selector_all(".drill-chip")
                .unwrap()
                .get(i as u32)
                .unwrap()
                .text_content()
                .unwrap()
        })
        .collect();
    assert_eq!(chips, ["src#0", "src#1", "是", "否"]);
    let card = ".drill-ex";
    // Wrong: src#1 and no.
    app.click(".drill-chip[data-label=\"src#1\"]").await;
    app.click(".drill-chip[data-label=\"no\"]").await;
    app.click(&format!("{card} .drill-ex__check")).await;
    assert_eq!(verdict(&app, card), "false");
    let line = app.text(".drill-ex__line");
    assert!(
        line.contains("否、src#1") && line.contains("src#1、是"),
        "{line}"
    );
    // Right: src#1 and yes.
    app.click(".drill-chip[data-label=\"no\"]").await;
    app.click(".drill-chip[data-label=\"yes\"]").await;
    app.click(&format!("{card} .drill-ex__check")).await;
    assert_eq!(verdict(&app, card), "true");
    handle.destroy();
}
