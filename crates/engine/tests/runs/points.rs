//! Each lesson's declared points happen in its run, in every checkpoint mode where
//! it expects them, and not in the modes where it declares them absent.

use engine::runner::{self, ModeOverride, RunOptions, BUILTINS};
use engine::scenario::points::{reached_at, PointMode};
use engine::trace::TraceEvent;
use engine::Scenario;

fn override_of(mode: PointMode) -> ModeOverride {
    match mode {
        PointMode::Aligned => ModeOverride::Aligned,
        PointMode::Unaligned => ModeOverride::Unaligned,
        PointMode::AtLeastOnce => ModeOverride::AtLeastOnce,
    }
}

/// The trace of `scenario` run in `mode`.
fn trace(scenario: &Scenario, mode: PointMode) -> Vec<TraceEvent> {
    let mut s = scenario.clone();
    let opts = RunOptions {
        mode: Some(override_of(mode)),
        trace: true,
        ..Default::default()
    };
    runner::apply_options(&mut s, &opts).expect("a lesson with checkpointing takes a mode");
    let mut events = Vec::new();
    runner::run(&s, &opts, |e| events.push(e.clone()))
        .unwrap_or_else(|e| panic!("{} ({}): {e}", s.name, mode.key()));
    events
}

/// What is wrong with `scenario`'s points in each mode: an expected point that is
/// never reached, or an absent one that is.
fn point_faults(scenario: &Scenario) -> Vec<String> {
    let mut faults = Vec::new();
    for mode in PointMode::ALL {
        let events = trace(scenario, mode);
        let at = reached_at(&scenario.points, &events);
        for ((i, point), at) in scenario.points.iter().enumerate().zip(at) {
            let expected = point.expected_in(Some(mode));
            let what = format!(
                "{} ({}): points[{i}] {}",
                scenario.name,
                mode.key(),
                serde_json::to_string(point).expect("a point serializes")
            );
            match (expected, at) {
                (true, None) => faults.push(format!("{what} never happens")),
                (false, Some(t)) => {
                    faults.push(format!("{what} is declared absent but happens at {t} ms"))
                }
                _ => {}
            }
        }
    }
    faults
}

#[test]
fn every_lesson_declares_points_and_each_happens_where_expected() {
    let mut faults = Vec::new();
    let mut checked = 0;
    for (name, json) in BUILTINS {
        let scenario = Scenario::from_json(json).unwrap_or_else(|e| panic!("{name}: {e}"));
        if scenario.checkpointing.is_none() {
            continue;
        }
        // busy-network is the page's benchmark, not a lesson.
        if *name == "busy-network" {
            continue;
        }
        assert!(!scenario.points.is_empty(), "{name} declares no point");
        checked += scenario.points.len();
        faults.extend(point_faults(&scenario));
    }
    assert!(checked >= 33, "only {checked} points checked");
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn a_wrong_declaration_is_caught() {
    let json = runner::builtin("backpressure-expired").expect("a built-in");
    let mut scenario = Scenario::from_json(json).expect("parses");
    // Expired checkpoint 1 does happen in unaligned mode if not declared absent:
    // it does not, so leaving `absent` out is a fault there.
    scenario.points[0].absent.clear();
    let faults = point_faults(&scenario);
    assert_eq!(
        faults,
        vec![
            r#"backpressure-expired (unaligned): points[0] {"event":"checkpoint_expired","checkpoint":1} never happens"#
        ]
    );
    // Declaring an event absent in a mode where it happens is a fault too.
    scenario.points[0].absent = vec![PointMode::Unaligned, PointMode::AtLeastOnce];
    let faults = point_faults(&scenario);
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert!(
        faults[0].contains("(at-least-once)")
            && faults[0].ends_with("is declared absent but happens at 900 ms")
    );
}

#[test]
fn a_bad_point_is_an_error_naming_its_field() {
    let json = runner::builtin("odd-even-sum").expect("a built-in");
    let with = |points: &str| {
        let mut doc: serde_json::Value = serde_json::from_str(json).expect("JSON");
        doc["points"] = serde_json::from_str(points).expect("points JSON");
        Scenario::from_json(&doc.to_string())
            .expect_err("a bad point")
            .to_string()
    };
    let unknown = with(r#"[{"event": "checkpoint_exploded"}]"#);
    assert!(
        unknown.starts_with("points[0].event: unknown variant `checkpoint_exploded`"),
        "{unknown}"
    );
    let mode = with(r#"[{"event": "failover"}, {"event": "failover", "absent": ["twin"]}]"#);
    assert!(
        mode.starts_with("points[1].absent[0]: unknown variant `twin`"),
        "{mode}"
    );
    let task = with(r#"[{"event": "task_failed", "task": "sum"}]"#);
    assert!(
        task.starts_with("points[0].task: \"sum\" is not a subtask"),
        "{task}"
    );
    let mut doc: serde_json::Value = serde_json::from_str(json).expect("JSON");
    doc["checkpointing"] = serde_json::Value::Null;
    doc["points"] =
        serde_json::from_str(r#"[{"event": "failover", "absent": ["unaligned"]}]"#).unwrap();
    let off = Scenario::from_json(&doc.to_string())
        .expect_err("no modes")
        .to_string();
    assert_eq!(
        off,
        "points[0].absent[0]: the lesson has no checkpointing, so it runs in no checkpoint mode"
    );
}
