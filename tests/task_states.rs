#![cfg(target_arch = "wasm32")]
//! Browser tests of how Flink's task states (FAILED, CANCELED, restarting) and
//! lost checkpoints are drawn: the real [`App`] in headless Chromium, stepped to the
//! engine's own moments and checked in the DOM against the engine's views of
//! the same step (a native [`engine::World`] run beside the page), with the
//! page's real stylesheet.
//! - restart-fixed-delay: at the failure the failed subtask's lane is FAILED
//!   (red, solid, `✕ failed`), every other one CANCELED (grey, dashed,
//!   `■ canceled`) — told apart by glyph, word and stroke pattern, not only by
//!   colour; through the restart delay each says `↻ restarting` and the
//!   banner counts down; once restarted every lane runs again. The narration
//!   says where the lab shortens Flink (CANCELING → CANCELED in one step).
//! - jobmanager-crash-jobmanager vs -filesystem: after the JobManager crash the
//!   checkpoints that lived in its memory are "lost" in the history, badged
//!   lost in storage and in the coordinator strip, never "completed"; with
//!   filesystem storage the same checkpoints are kept.

use engine::trace::Event;
use engine::World;
use engine::{JobStatus, TaskStatus};
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

/// The page's real stylesheet, which the test runner's page lacks: the
/// colours, dashes and widths checked here are its own.
fn install_stylesheet() {
    if document().get_element_by_id("lab-style").is_some() {
        return;
    }
    let style = document().create_element("style").unwrap();
    style.set_id("lab-style");
    style.set_text_content(Some(include_str!("../assets/style.css")));
    document().head().unwrap().append_child(&style).unwrap();
}

/// The lesson's world as the page runs it (its scenario's seed), tracing on.
fn world(name: &str) -> World {
    let s = engine::runner::load(name).unwrap();
    let mut w = World::new(&s, s.seed).unwrap();
    w.set_tracing(true);
    w
}

/// Steps `w` until a step's events satisfy `hit`; returns those events.
fn step_until(w: &mut World, hit: impl Fn(&Event) -> bool) -> Vec<Event> {
    loop {
        let events = w.step().expect("the moment comes before the run ends");
        if events.iter().any(|e| hit(&e.event)) {
            return events.iter().map(|e| e.event.clone()).collect();
        }
    }
}

fn step_of(app: &Mounted) -> u64 {
    app.attr("#clock", "data-step").parse().unwrap()
}

/// What the stage must say of a subtask in `status`: its lane's class, and
/// the glyph and word of its state line (English).
fn expected(status: TaskStatus) -> (&'static str, &'static str) {
    match status {
        TaskStatus::Running => ("lane--running", "▶ running"),
        TaskStatus::Waiting => ("lane--waiting", "… waiting"),
        TaskStatus::Finished => ("lane--finished", "✓ finished"),
        TaskStatus::Failed => ("lane--failed", "✕ failed"),
        TaskStatus::Canceled => ("lane--canceled", "■ canceled"),
    }
}

/// Every lane drawn as the engine's view of the same step says: its status's
/// class and words, and `↻ restarting` exactly while the job waits for its
/// restart delay with that subtask failed or canceled.
fn assert_lanes_match(app: &Mounted, w: &World, when: &str) {
    let (job, view) = (w.job_view(), w.view());
    assert_eq!(
        step_of(app),
        view.steps,
        "{when}: the page is at the engine's step"
    );
    for (t, tv) in job.tasks.iter().zip(&view.tasks) {
        let lane = app.find(&format!("[data-lane=\"{}\"]", t.name));
        let (class, words) = expected(tv.status);
        assert!(
            lane.class_list().contains(class),
            "{when}: {} is {:?}, drawn {:?}",
            t.name,
            tv.status,
            lane.get_attribute("class")
        );
        let status = lane
            .query_selector(".lane__status")
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap_or_default();
        assert_eq!(status, words, "{when}: {}", t.name);
        let note = lane
            .query_selector(".lane__note")
            .unwrap()
            .and_then(|n| n.text_content())
            .unwrap_or_default();
        // A stopped subtask's values are not a checkpoint's: no `✓ chk-n`.
        if matches!(tv.status, TaskStatus::Failed | TaskStatus::Canceled) {
            let state = lane
                .query_selector(".lane__state")
                .unwrap()
                .and_then(|s| s.get_attribute("data-state"))
                .unwrap_or_default();
            assert!(
                !state.starts_with('✓') && !state.starts_with('⤴'),
                "{when}: {} says {state:?}",
                t.name
            );
        }
        let restarting = view.status == JobStatus::Restarting
            && matches!(tv.status, TaskStatus::Failed | TaskStatus::Canceled);
        assert_eq!(
            note.contains("↻ restarting"),
            restarting,
            "{when}: {} note {note:?}",
            t.name
        );
    }
}

/// A computed style property of the first `selector` inside `lane`.
fn style_of(lane: &Element, selector: &str, property: &str) -> String {
    let el = lane.query_selector(selector).unwrap().unwrap();
    window()
        .get_computed_style(&el)
        .unwrap()
        .unwrap()
        .get_property_value(property)
        .unwrap()
}

/// `rgb(r, g, b)` → its three channels.
fn rgb(css: &str) -> [f64; 3] {
    let inner = css
        .trim_start_matches("rgba(")
        .trim_start_matches("rgb(")
        .trim_end_matches(')');
    let n: Vec<f64> = inner
        .split([',', ' ', '/'])
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            s.trim()
                .parse()
                .unwrap_or_else(|_| panic!("a colour: {css:?}"))
        })
        .collect();
    [n[0], n[1], n[2]]
}

#[wasm_bindgen_test]
async fn a_failure_draws_failed_then_canceled_restarting_and_running_again() {
    install_stylesheet();
    let mut w = world("restart-fixed-delay");
    let events = step_until(&mut w, |e| matches!(e, Event::TaskFailed { .. }));
    let view = w.view();
    let job = w.job_view();
    assert_eq!(view.status, JobStatus::Restarting, "the strategy restarts");
    let failed: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::TaskFailed { task, .. } => Some(task.to_string()),
            _ => None,
        })
        .collect();
    let canceled: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::TaskCanceled { task } => Some(task.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(failed.len(), 1);
    assert!(!canceled.is_empty());
    // The lab's shortening, in the engine: each canceled subtask is CANCELING and
    // CANCELED in the same step.
    for c in &canceled {
        assert!(events
            .iter()
            .any(|e| matches!(e, Event::TaskCanceling { task } if task.to_string() == *c)));
    }

    let app = Mounted::at(&format!(
        "?lang=en&scenario=restart-fixed-delay&step={}",
        view.steps
    ))
    .await;
    assert_lanes_match(&app, &w, "at the failure");
    assert_eq!(
        all(&app, ".lane--failed")
            .iter()
            .map(|l| l.get_attribute("data-lane").unwrap())
            .collect::<Vec<_>>(),
        failed
    );
    let mut drawn_canceled: Vec<String> = all(&app, ".lane--canceled")
        .iter()
        .map(|l| l.get_attribute("data-lane").unwrap())
        .collect();
    drawn_canceled.sort();
    let mut want = canceled.clone();
    want.sort();
    assert_eq!(drawn_canceled, want);

    // FAILED and CANCELED apart: red solid and thick vs grey dashed — and also
    // by glyph and word (asserted above), so not by colour alone.
    let f = app.find(".lane--failed");
    let c = app.find(".lane--canceled");
    let (f_stroke, c_stroke) = (
        rgb(&style_of(&f, ".lane__rect", "stroke")),
        rgb(&style_of(&c, ".lane__rect", "stroke")),
    );
    assert!(
        f_stroke[0] > f_stroke[1] + 60.0 && f_stroke[0] > f_stroke[2] + 60.0,
        "failed is red: {f_stroke:?}"
    );
    let spread = c_stroke.iter().cloned().fold(0.0, f64::max)
        - c_stroke.iter().cloned().fold(255.0, f64::min);
    assert!(spread < 30.0, "canceled is grey: {c_stroke:?}");
    assert_eq!(style_of(&f, ".lane__rect", "stroke-dasharray"), "none");
    assert_ne!(style_of(&c, ".lane__rect", "stroke-dasharray"), "none");
    let width = |l: &Element| {
        style_of(l, ".lane__rect", "stroke-width")
            .trim_end_matches("px")
            .parse::<f64>()
            .unwrap()
    };
    assert!(
        width(&f) > width(&c),
        "the failed lane's outline is heavier"
    );
    // The lane's button (what assistive technology reads) carries the state too.
    for (t, tv) in job.tasks.iter().zip(&view.tasks) {
        let button = app.attr(&format!(".lane-button[data-task=\"{}\"]", t.name), "class");
        let want = expected(tv.status).0.replace("lane--", "lane-button--");
        assert!(button.split(' ').any(|c| c == want), "{}: {button}", t.name);
    }
    // The banner counts the restart delay down to the engine's restart time.
    let banner = app.text(".stage__banner--restarting");
    let at = view.restart_at.expect("a restart is due");
    assert!(banner.contains(&format!("t = {at}")), "{banner}");

    // Where the lab shortens Flink, the narration says so, in both languages.
    app.click("#tab-narration").await;
    let narrated: Vec<String> = all(&app, ".narration__item")
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect();
    for c in &canceled {
        assert!(
            narrated.iter().any(|n| n.contains(c.as_str())
                && n.contains("CANCELING to CANCELED at once")
                && n.contains("real Flink waits")),
            "{c}: {narrated:?}"
        );
    }
    app.click("[data-lang=zh]").await;
    let zh = app.text(".narration__list");
    assert!(zh.contains("CANCELING → CANCELED 放在同一时刻"), "{zh}");
    app.click("[data-lang=en]").await;

    // Through the restart delay, step by step beside the engine, until every
    // subtask runs again.
    let mut delay_steps = 0;
    while !(w.view().status == JobStatus::Running
        && w.view()
            .tasks
            .iter()
            .all(|t| t.status == TaskStatus::Running))
    {
        w.step().expect("the job restarts");
        app.click("#step-forward").await;
        assert_lanes_match(&app, &w, &format!("at {} ms", w.now()));
        delay_steps += 1;
        assert!(delay_steps < 200, "the restart comes");
    }
    assert!(w.now() >= at, "running again only after the delay");
    assert!(app.query(".lane--failed, .lane--canceled").is_none());
    assert!(app.query(".stage__banner--restarting").is_none());
}

/// The history's status word and class, and the storage entry's badge, of
/// checkpoint `id`.
struct Drawn {
    history: String,
    history_lost: bool,
    storage_lost: Option<bool>,
}

async fn drawn(app: &Mounted, id: u64) -> Drawn {
    app.click("#tab-coordinator").await;
    let status = app.find(&format!(".hist[data-checkpoint=\"{id}\"] .status"));
    let history = status.text_content().unwrap_or_default();
    let history_lost = status.class_list().contains("status--lost");
    app.click("#tab-storage").await;
    let storage_lost = app
        .query(&format!(".stored[data-checkpoint=\"{id}\"]"))
        .map(|s| {
            let badge = s.query_selector(".badge--lost").unwrap().is_some();
            assert_eq!(s.class_list().contains("stored--lost"), badge);
            assert_eq!(s.get_attribute("data-lost").is_some(), badge);
            badge
        });
    Drawn {
        history,
        history_lost,
        storage_lost,
    }
}

#[wasm_bindgen_test]
async fn checkpoints_that_died_with_the_jobmanager_are_drawn_lost_filesystem_keeps_them() {
    let mut kept_in_files = Vec::new();
    for (name, memory) in [
        ("jobmanager-crash-jobmanager", true),
        ("jobmanager-crash-filesystem", false),
    ] {
        let mut w = world(name);
        let events = step_until(&mut w, |e| matches!(e, Event::JobmanagerFailed { .. }));
        let lost_ids: Vec<u64> = events
            .iter()
            .find_map(|e| match e {
                Event::JobmanagerFailed {
                    checkpoints_lost, ..
                } => Some(checkpoints_lost.iter().map(|c| c.0).collect()),
                _ => None,
            })
            .unwrap();
        let view = w.view();
        let completed: Vec<u64> = view
            .coordinator
            .history
            .iter()
            .filter(|h| h.status == engine::view::CheckpointStatus::Completed)
            .map(|h| h.id.0)
            .collect();
        assert!(
            !completed.is_empty(),
            "{name}: checkpoints completed before"
        );
        let app = Mounted::at(&format!("?lang=en&scenario={name}&step={}", view.steps)).await;
        assert_eq!(step_of(&app), view.steps);
        for h in &view.coordinator.history {
            let d = drawn(&app, h.id.0).await;
            assert_eq!(d.history_lost, h.lost, "{name}: chk-{} history", h.id);
            if h.lost {
                assert!(d.history.contains("lost"), "{name}: {:?}", d.history);
                assert!(!d.history.contains("completed"), "{name}: {:?}", d.history);
            }
            let stored = view.coordinator.storage.iter().find(|s| s.id == h.id);
            assert_eq!(
                d.storage_lost,
                stored.map(|s| s.lost),
                "{name}: chk-{} storage",
                h.id
            );
        }
        let lost_now: Vec<u64> = view
            .coordinator
            .history
            .iter()
            .filter(|h| h.lost)
            .map(|h| h.id.0)
            .collect();
        // The strip the class sees names the latest completed checkpoint: lost
        // when it died with the JobManager.
        let strip = app.text(".strip__last");
        let latest = *completed.last().unwrap();
        assert!(strip.contains(&format!("chk-{latest}")), "{name}: {strip}");
        assert_eq!(
            strip.contains("lost"),
            lost_now.contains(&latest),
            "{name}: {strip}"
        );
        assert_eq!(
            app.query(".strip__last--lost").is_some(),
            lost_now.contains(&latest)
        );
        if memory {
            assert!(!lost_ids.is_empty(), "{name}: the crash loses checkpoints");
            assert!(lost_ids.iter().all(|id| lost_now.contains(id)));
            assert!(lost_now.contains(&latest));
        } else {
            assert!(lost_ids.is_empty() && lost_now.is_empty(), "{name}");
            kept_in_files = view
                .coordinator
                .storage
                .iter()
                .filter(|s| !s.discarded)
                .map(|s| s.id.0)
                .collect();
            assert!(
                app.query(".status--lost, .badge--lost").is_none(),
                "{name}: nothing drawn lost"
            );
        }
    }
    assert!(
        !kept_in_files.is_empty(),
        "filesystem storage keeps checkpoints"
    );
}
