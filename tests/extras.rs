#![cfg(target_arch = "wasm32")]
//! Browser tests of the lesson extras: the real
//! [`App`] in headless Chromium, checked in the DOM.
//! - the backend comparison's chart shows two different uploaded sizes for the
//!   same checkpoint, and the same full size;
//! - the restart, tolerable-failure, storage and aligned-vs-unaligned charts
//!   carry the engine's figures and a text alternative;
//! - the savepoint-rescale key-group strip's owners are the ones the restored
//!   subtasks hold (their live state) and the partitions the source subtasks read;
//! - the QR dialog draws a code for a short link, and says the link is too long
//!   instead of drawing one for a long full link;
//! - the stage saved as SVG carries the graph with its styles inline and the
//!   coordinator strip above it (title, pending checkpoint, its cells), and the
//!   PNG is a 1920 × 1080 image.

use std::cell::RefCell;
use std::rc::Rc;

use engine::view::StateView;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

mod support;
use support::*;

wasm_bindgen_test_configure!(run_in_browser);

fn all(app: &Mounted, selector: &str) -> Vec<Element> {
    let list = app.root.query_selector_all(selector).unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().unchecked_into::<Element>())
        .collect()
}

fn attr(e: &Element, name: &str) -> String {
    e.get_attribute(name).unwrap_or_default()
}

/// Opens the lesson pair `partner` from the tools menu.
async fn compare(app: &Mounted, partner: &str) {
    app.click("#more-button").await;
    app.click(&format!("#compare-{partner}")).await;
    yew::scheduler::flush().await;
}

#[wasm_bindgen_test]
async fn the_backend_chart_shows_two_different_uploaded_sizes() {
    let app = Mounted::at("?lang=en&scenario=state-backend-rocksdb&t=4500").await;
    compare(&app, "state-backend-hashmap").await;
    let chart = app.find("#compare-chart");
    assert_eq!(attr(&chart, "data-chart"), "backends");
    let bar = |run: &str, id: u64| {
        app.find(&format!(
            "#compare-chart [data-run=\"{run}\"] .chart__bar[data-checkpoint=\"{id}\"]"
        ))
    };
    for id in 2..=4 {
        let (r, h) = (
            bar("state-backend-rocksdb", id),
            bar("state-backend-hashmap", id),
        );
        assert_eq!(attr(&r, "data-full"), attr(&h, "data-full"), "chk-{id}");
        let (ru, hu): (u64, u64) = (
            attr(&r, "data-uploaded").parse().unwrap(),
            attr(&h, "data-uploaded").parse().unwrap(),
        );
        assert!(ru < hu, "chk-{id}: rocksdb uploads {ru}, hashmap {hu}");
        // The number is written on the bar, as the class reads it.
        let value = r.query_selector(".chart__value").unwrap().unwrap();
        assert_eq!(value.text_content().unwrap(), ru.to_string());
    }
    // The text alternative says the same in words.
    let text = app.text("#compare-chart .chart__text");
    assert!(text.contains("rocksdb: the latest checkpoint"), "{text}");
    assert!(text.contains("uploaded"), "{text}");
    // Hidden and shown again with its button.
    app.click("#chart-toggle").await;
    assert!(app.query("#compare-chart").is_none());
    app.click("#chart-toggle").await;
    assert!(app.query("#compare-chart").is_some());
}

#[wasm_bindgen_test]
async fn the_restart_chart_has_a_row_per_strategy_with_the_engines_failures() {
    let app = Mounted::at("?lang=zh&scenario=restart-fixed-delay&t=3500").await;
    compare(&app, "restart-none").await;
    assert_eq!(attr(&app.find("#compare-chart"), "data-chart"), "restarts");
    let rows: Vec<String> = all(&app, "#compare-chart .chart__row[data-run]")
        .iter()
        .map(|r| attr(r, "data-run"))
        .collect();
    assert_eq!(
        rows,
        [
            "restart-fixed-delay",
            "restart-failure-rate",
            "restart-none",
            "restart-exponential-delay"
        ],
        "all four strategies, the ones without a stage too"
    );
    let failures = |run: &str| -> Vec<(String, String)> {
        all(
            &app,
            &format!("#compare-chart [data-run=\"{run}\"] .chart__failure"),
        )
        .iter()
        .map(|f| (attr(f, "data-at"), attr(f, "data-restarted")))
        .collect()
    };
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        failures("restart-fixed-delay"),
        vec![pair("500", "700"), pair("2300", "2500"), pair("2800", "")]
    );
    assert_eq!(failures("restart-none"), vec![pair("500", "")]);
    assert_eq!(failures("restart-failure-rate").len(), 4);
    // Exponential delay: the same four failures as the other strategies.
    assert_eq!(failures("restart-exponential-delay").len(), 4);
    assert!(app
        .text("#compare-chart [data-run=\"restart-none\"]")
        .contains("作业失败"));
}

#[wasm_bindgen_test]
async fn the_tolerable_chart_counts_expired_checkpoints_and_failovers() {
    let app = Mounted::at("?lang=en&scenario=checkpoint-config&t=2000").await;
    compare(&app, "checkpoint-config-strict").await;
    let outcome = |run: &str, id: u64| {
        attr(
            &app.find(&format!(
                "#compare-chart [data-run=\"{run}\"] [data-checkpoint=\"{id}\"]"
            )),
            "data-outcome",
        )
    };
    assert_eq!(outcome("checkpoint-config", 3), "expired");
    assert_eq!(outcome("checkpoint-config-strict", 3), "expired");
    assert_eq!(outcome("checkpoint-config", 2), "completed");
    // The counter after each checkpoint, as the engine's coordinator had it.
    let after = |run: &str, id: u64| {
        attr(
            &app.find(&format!(
                "#compare-chart [data-run=\"{run}\"] [data-checkpoint=\"{id}\"]"
            )),
            "data-counter-after",
        )
    };
    assert_eq!(
        after("checkpoint-config", 3),
        "1",
        "chk-3's expiry is tolerated once"
    );
    assert_eq!(after("checkpoint-config", 2), "0");
    assert_eq!(
        after("checkpoint-config-strict", 3),
        "0",
        "reset as the job fails over"
    );
    // At 2000 ms the lax run has counted chk-3's expiry (1 of 1 tolerated); the
    // strict one failed over instead and starts again from 0.
    let counter = |run: &str| {
        attr(
            &app.find(&format!(
                "#compare-chart [data-run=\"{run}\"] .chart__counter"
            )),
            "data-counter",
        )
    };
    assert_eq!(counter("checkpoint-config"), "1");
    assert_eq!(counter("checkpoint-config-strict"), "0");
    assert_eq!(
        all(
            &app,
            "#compare-chart [data-run=\"checkpoint-config-strict\"] .chart__failover"
        )
        .len(),
        1
    );
}

#[wasm_bindgen_test]
async fn the_storage_chart_shows_which_checkpoints_survive_the_jobmanager_crash() {
    let app = Mounted::at("?lang=en&scenario=jobmanager-crash-jobmanager&t=4600").await;
    compare(&app, "jobmanager-crash-filesystem").await;
    let fates = |run: &str| -> Vec<String> {
        all(
            &app,
            &format!("#compare-chart [data-run=\"{run}\"] [data-fate]"),
        )
        .iter()
        .map(|e| format!("{}:{}", attr(e, "data-checkpoint"), attr(e, "data-fate")))
        .collect()
    };
    assert_eq!(
        fates("jobmanager-crash-jobmanager"),
        ["1:subsumed", "2:subsumed", "3:lost"]
    );
    assert_eq!(
        fates("jobmanager-crash-filesystem"),
        ["1:subsumed", "2:subsumed", "3:kept"]
    );
    // The rows are named by what differs.
    let names: Vec<String> = all(&app, "#compare-chart .chart__row[data-run] .chart__name")
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect();
    assert_eq!(names, ["jobmanager", "filesystem"]);
    let text = app.text("#compare-chart");
    assert!(text.contains("restored from chk-3"), "{text}");
    assert!(text.contains("started afresh"), "{text}");
}

#[wasm_bindgen_test]
async fn the_twin_views_chart_compares_alignment_and_persisted_records() {
    let app = Mounted::at("?lang=en&scenario=unaligned-backpressure&t=4000&twin=1").await;
    yew::scheduler::flush().await;
    // Folded in the plain twin view (both graphs keep the stage's height): its
    // button opens it.
    assert!(app.query("#compare-chart").is_none());
    app.click("#chart-toggle").await;
    let chart = app.find("#compare-chart");
    assert_eq!(attr(&chart, "data-chart"), "alignment");
    let rows = all(&app, "#compare-chart .chart__row[data-run]");
    assert_eq!(rows.len(), 2);
    let persisted = |row: &Element| -> u64 {
        let bars = row.query_selector_all(".chart__bar").unwrap();
        (0..bars.length())
            .map(|i| {
                attr(&bars.item(i).unwrap().unchecked_into(), "data-persisted")
                    .parse::<u64>()
                    .unwrap()
            })
            .sum()
    };
    // The lesson runs unaligned; its twin aligned persists nothing.
    assert!(persisted(&rows[0]) > 0);
    assert_eq!(persisted(&rows[1]), 0);
}

#[wasm_bindgen_test]
async fn the_key_group_strip_shows_the_owners_the_restored_subtasks_hold() {
    let app = Mounted::at("?lang=en&scenario=savepoint-rescale&t=1600").await;
    assert!(app.query("#key-group-strips").is_none(), "closed at first");
    app.click("#strip-toggle").await;
    let op = app.find("#key-group-strips .strips__op[data-op=\"pv\"]");
    assert_eq!(attr(&op, "data-max-parallelism"), "128");
    let owners = |which: &str| -> Vec<u32> {
        all(&app, &format!("[data-strip=\"{which}\"] .kg"))
            .iter()
            .map(|c| attr(c, "data-owner").parse().unwrap())
            .collect()
    };
    let (before, after) = (owners("before"), owners("after"));
    assert_eq!((before.len(), after.len()), (128, 128));
    for kg in 0..128u32 {
        assert_eq!(before[kg as usize], kg * 2 / 128, "before, key group {kg}");
        assert_eq!(after[kg as usize], kg * 3 / 128, "after, key group {kg}");
    }
    // The restored run, natively: each pv subtask holds exactly the keys whose
    // key group the strip gives it, and each source subtask the partitions.
    let s = engine::runner::load("savepoint-rescale").unwrap();
    let w = engine::World::new(&s, s.seed).unwrap();
    let (job, view) = (w.job_view(), w.view());
    let mut keys = 0;
    for (t, tv) in job.tasks.iter().zip(&view.tasks) {
        match (&job.operators[t.op].uid[..], &tv.state) {
            ("pv", StateView::Keyed { entries }) => {
                for (key, kg, _) in entries {
                    let marker = app.find(&format!("[data-key=\"{key}\"]"));
                    assert_eq!(attr(&marker, "data-kg"), kg.to_string(), "{key}");
                    assert_eq!(attr(&marker, "data-owner"), t.index.to_string(), "{key}");
                    assert_eq!(after[*kg as usize], t.index, "{key}");
                    keys += 1;
                }
            }
            ("kafka", StateView::Source { offsets }) => {
                let mine: Vec<u32> = offsets.iter().map(|o| o.0).collect();
                let chip = app.find(&format!(
                    "[data-split=\"after\"][data-task=\"kafka#{}\"]",
                    t.index
                ));
                assert_eq!(attr(&chip, "data-partitions"), format!("{mine:?}"));
            }
            _ => {}
        }
    }
    assert_eq!(keys, 3);
    // And what `lab run --metadata --key-groups` stores: the key-group range of each pv subtask
    // in the restored job's first checkpoint is where the strip draws it.
    let with_metadata = engine::runner::RunOptions {
        metadata: true,
        key_groups: true,
        ..Default::default()
    };
    let lines = engine::runner::run_lines(&s, &with_metadata).unwrap();
    let summary: serde_json::Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    let first = &summary["checkpoints"][0];
    assert_eq!(first["status"], "completed");
    let ranges = first["metadata"]["pv"]["key_groups"].as_object().unwrap();
    assert_eq!(ranges.len(), 3);
    for (subtask, range) in ranges {
        let (a, b) = (range[0].as_u64().unwrap(), range[1].as_u64().unwrap());
        for kg in a..=b {
            assert_eq!(after[kg as usize].to_string(), *subtask, "key group {kg}");
        }
    }
    let split = app.text(".split");
    assert!(split.contains("even split"), "{split}");
    assert_eq!(
        attr(
            &app.find("[data-split=\"before\"][data-task=\"kafka#0\"]"),
            "data-partitions"
        ),
        "[0, 2]"
    );
    // Not offered where nothing was restored.
    let plain = Mounted::at("?lang=en&scenario=pv-count").await;
    assert!(plain.query("#strip-toggle").is_none());
}

#[wasm_bindgen_test]
async fn the_qr_code_is_drawn_for_a_short_link_and_refused_for_a_long_one() {
    let app = Mounted::at("?lang=en&scenario=odd-even-sum&t=1200").await;
    app.click("#more-button").await;
    app.click("#qr-button").await;
    let code = app.find("#qr-code");
    let link = attr(&code, "data-link");
    let origin = window().location().origin().unwrap();
    assert!(
        link.starts_with(&origin),
        "{link} is at the page's origin {origin}"
    );
    assert!(link.contains("scenario=odd-even-sum"), "{link}");
    assert!(link.contains("&step="), "{link}");
    assert_eq!(app.attr("#qr-short-link", "href"), link);
    assert!(attr(&code, "data-version").parse::<i16>().unwrap() <= 10);
    assert!(app.find("#qr-code path").get_attribute("d").unwrap().len() > 100);
    app.click("#qr-close").await;
    assert!(app.query("#qr-dialog").is_none());

    // An edited scenario has no short link; its full link is far too long.
    let mut doc: serde_json::Value =
        serde_json::from_str(engine::runner::builtin("odd-even-sum").unwrap()).unwrap();
    doc["name"] = "my-odd-even".into();
    doc["description"] = serde_json::json!({"en": "x".repeat(600), "zh": "长".repeat(300)});
    let recipe = checkpoint_lab::share::Recipe {
        scenario: doc,
        seed: 7,
        interventions: Vec::new(),
        step: 40,
    };
    let long = Mounted::at(&format!(
        "?lang=en{}",
        checkpoint_lab::share::encode(&recipe)
    ))
    .await;
    long.click("#more-button").await;
    long.click("#qr-button").await;
    assert!(long.query("#qr-code").is_none(), "no unreadable code");
    let why = long.text("#qr-too-long");
    assert!(why.contains("too long"), "{why}");
    assert!(long.query("#qr-short-link").is_none());
}

#[wasm_bindgen_test]
async fn the_stage_saves_as_svg_with_inline_styles_and_as_a_1920_png() {
    let _app = Mounted::at("?lang=en&scenario=barrier-alignment&t=540").await;
    let svg = checkpoint_lab::components::slide_export::stage_svg().expect("an SVG");
    assert!(svg.starts_with("<svg"), "{}", &svg[..60]);
    assert!(svg.contains("width=\"1920\"") && svg.contains("height=\"1080\""));
    assert!(svg.contains("merge"), "the operator names are in it");
    assert!(svg.contains("style=\"fill:"), "styles are inline");
    assert!(
        !svg.contains("class=\"operator"),
        "no stylesheet classes left"
    );
    assert!(
        svg.contains("data:image/png;base64,"),
        "the tokens are embedded"
    );

    // The coordinator strip the class sees is on the slide, above the graph:
    // its title, the pending checkpoint's label and count, drawn as SVG texts.
    let slide = document().create_element("div").unwrap();
    slide.set_inner_html(&svg);
    let graph = slide
        .query_selector("svg > svg")
        .unwrap()
        .expect("the graph");
    let graph_y: f64 = graph.get_attribute("y").unwrap().parse().unwrap();
    assert!(
        graph_y > 10.0,
        "the graph sits below the strip: y = {graph_y}"
    );
    let texts = slide.query_selector_all("g.strip text").unwrap();
    let drawn: Vec<(String, f64)> = (0..texts.length())
        .map(|i| {
            let t = texts.item(i).unwrap().unchecked_into::<Element>();
            (
                t.text_content().unwrap_or_default(),
                attr(&t, "y").parse().unwrap(),
            )
        })
        .collect();
    let pending = _app.text(".stages .strip__pending strong");
    let count = _app.text(".stages .strip__pending .strip__count");
    assert!(!count.is_empty(), "a checkpoint is pending at 540 ms");
    for want in ["CheckpointCoordinator", pending.as_str(), count.as_str()] {
        let (_, y) = drawn
            .iter()
            .find(|(t, _)| t == want)
            .unwrap_or_else(|| panic!("{want:?} not on the slide: {drawn:?}"));
        assert!(*y < graph_y, "{want:?} above the graph");
    }
    // Each acknowledgement cell is there too (✓ acknowledged, … waiting).
    let cells = _app
        .root
        .query_selector_all(".stages .strip__cell")
        .unwrap()
        .length();
    assert!(cells > 0);
    let drawn_cells = drawn.iter().filter(|(t, _)| t == "✓" || t == "…").count();
    assert_eq!(drawn_cells as u32, cells, "{drawn:?}");

    let got = Rc::new(RefCell::new(None));
    {
        let got = got.clone();
        checkpoint_lab::components::slide_export::stage_png(move |r| {
            *got.borrow_mut() = Some(r.map(|b| (b.type_(), b.size())))
        });
    }
    for _ in 0..200 {
        if got.borrow().is_some() {
            break;
        }
        yew::platform::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let (kind, size) = got
        .borrow_mut()
        .take()
        .expect("the PNG is made")
        .expect("no error");
    assert_eq!(kind, "image/png");
    assert!(size > 20_000.0, "a real picture: {size} bytes");
}
