//! Keyed state and operator state on `state-types`: chk-N's `_metadata` lists
//! every state the job's operators registered; which are keyed, which operator
//! state?
//!
//! Flink: keyed state (`ValueState`, `ListState`, `MapState`, `ReducingState`,
//! `AggregatingState`, from `RuntimeContext.getState` and its siblings) is scoped
//! to the current key and checkpointed by key group (`KeyedStateHandle`);
//! operator state (`OperatorStateStore.getListState` / `getUnionListState` /
//! `getBroadcastState`, used by the Kafka source for its split offsets and by the
//! two-phase-commit sink for its transactions) belongs to a subtask and is
//! checkpointed as an `OperatorStateHandle`.

use std::collections::BTreeSet;

use super::state::{lesson_error, why};
use super::{metadata, question, run, Answer, Blank, DrillError, Made};
use crate::event::Event;
use crate::scenario::Scenario;

/// The states chk-N's `_metadata` lists for one operator, as `uid.state`:
/// keyed ones (named keyed states, keyed counts and sums) and operator ones
/// (source offsets, transactions, broadcast rules).
fn states_of(uid: &str, entry: &serde_json::Value) -> (Vec<String>, Vec<String>) {
    let mut keyed = Vec::new();
    let mut operator = Vec::new();
    if let Some(states) = entry["states"].as_object() {
        keyed.extend(states.keys().map(|s| format!("{uid}.{s}")));
    }
    if entry.get("keyed").is_some() {
        keyed.push(format!("{uid}.value"));
    }
    if entry.get("offsets").is_some() {
        operator.push(format!("{uid}.offsets"));
    }
    if let Some(subtasks) = entry["operator"].as_array() {
        if subtasks.iter().any(|s| s.get("rules").is_some()) {
            operator.push(format!("{uid}.rules"));
        } else if !subtasks.is_empty() {
            operator.push(format!("{uid}.transactions"));
        }
    }
    (keyed, operator)
}

pub(super) fn state_kinds(s: &Scenario, checkpoint: u64) -> Result<Made, DrillError> {
    let (world, trace) = run(s)?;
    let completed_at = trace.iter().find_map(|e| match e.event {
        Event::CheckpointCompleted { checkpoint: c } if c.0 == checkpoint => Some(e.t),
        _ => None,
    });
    let (Some(at), Some(meta)) = (completed_at, metadata(&world, checkpoint)) else {
        return Err(DrillError::NoEffect {
            param: "checkpoint",
            why: format!("chk-{checkpoint} does not complete"),
        });
    };
    let (mut keyed, mut operator) = (BTreeSet::new(), BTreeSet::new());
    // In the job's operator order, as the stage lists them.
    let mut labels = Vec::new();
    for op in &s.job.operators {
        let (k, o) = states_of(&op.uid, &meta[&op.uid]);
        labels.extend(k.iter().chain(&o).cloned());
        keyed.extend(k);
        operator.extend(o);
    }
    if keyed.is_empty() || operator.is_empty() {
        return Err(lesson_error(&format!(
            "chk-{checkpoint} lacks keyed or operator state: {meta}"
        )));
    }
    let join = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(", ");
    // Each reason names the states of its own blank.
    let keyed_args = [
        ("checkpoint", checkpoint.to_string()),
        ("keyed", join(&keyed)),
    ];
    let operator_args = [("operator", join(&operator))];
    let blank = |name: &str, answer: BTreeSet<String>, key: &str, args: &[(&str, String)]| Blank {
        name: name.into(),
        answer: Answer::Labels(answer),
        choices: Vec::new(),
        labels: labels.clone(),
        why: Some(why(key, args, at)),
    };
    Ok((
        question(&[("checkpoint", checkpoint)]),
        at,
        vec![
            blank("keyed_states", keyed, "state_keyed", &keyed_args),
            blank(
                "operator_states",
                operator,
                "state_operator",
                &operator_args,
            ),
        ],
    ))
}
