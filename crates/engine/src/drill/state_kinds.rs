//! Keyed state and operator state on `state-types`: chk-N's `_metadata` lists
//! every state the job's operators registered; which are keyed, which operator
//! state? The variant draws the job: which keyed operator the first branch runs
//! (a window count, a reduce or an average, each with its own keyed states) and
//! which of the two sinks write in transactions (operator state) or at least once
//! (no state).
//!
//! Flink: keyed state (`ValueState`, `ListState`, `MapState`, `ReducingState`,
//! `AggregatingState`, from `RuntimeContext.getState` and its siblings) is scoped
//! to the current key and checkpointed by key group (`KeyedStateHandle`);
//! operator state (`OperatorStateStore.getListState` / `getUnionListState` /
//! `getBroadcastState`, used by the Kafka source for its split offsets and by the
//! two-phase-commit sink for its transactions) belongs to a subtask and is
//! checkpointed as an `OperatorStateHandle`. An at-least-once sink keeps no
//! state: `KafkaSink.restoreWriter` makes an `ExactlyOnceKafkaWriter`, which
//! snapshots its transactions, only for `DeliveryGuarantee.EXACTLY_ONCE`; the
//! plain `KafkaWriter.snapshotState` returns an empty list.

use std::collections::BTreeSet;

use super::state::{lesson_error, operator_index, why};
use super::{metadata, question, run, Answer, Blank, DrillError, Made};
use crate::event::Event;
use crate::scenario::{OperatorKind, ReduceFn, Scenario, SinkKind};

/// The first branch's keyed operator, by the `keyed_kind` parameter: its kind
/// and its uid in the variant.
const KEYED_KINDS: [(OperatorKind, &str); 3] = [
    (OperatorKind::KeyedWindowCount, "window"),
    (OperatorKind::KeyedReduce, "sum"),
    (OperatorKind::KeyedAverage, "avg"),
];

/// Drops the lesson's crash (the question is about a checkpoint of an undisturbed
/// run), makes the window count the keyed operator `keyed_kind` names
/// ([`KEYED_KINDS`]), and gives sink `i` (in the job's order) a two-phase commit
/// when bit `i` of `sinks` is set, at-least-once writes when it is not.
pub(super) fn set_job(s: &mut Scenario, keyed_kind: u64, sinks: u64) -> Result<(), DrillError> {
    s.script.clear();
    let (kind, uid) = usize::try_from(keyed_kind)
        .ok()
        .and_then(|i| KEYED_KINDS.get(i))
        .copied()
        .ok_or(DrillError::OutOfRange {
            name: "keyed_kind".into(),
            value: keyed_kind,
            min: 0,
            max: KEYED_KINDS.len() as u64 - 1,
        })?;
    let i = operator_index(s, OperatorKind::KeyedWindowCount)?;
    let op = &mut s.job.operators[i];
    let old = std::mem::replace(&mut op.uid, uid.to_string());
    op.kind = kind;
    if kind != OperatorKind::KeyedWindowCount {
        op.window_ms = None;
    }
    op.reduce = (kind == OperatorKind::KeyedReduce).then_some(ReduceFn::Sum);
    for e in &mut s.job.edges {
        for end in [&mut e.from, &mut e.to] {
            if *end == old {
                *end = uid.to_string();
            }
        }
    }
    let sink_ops = s.job.operators.iter_mut().filter(|o| o.is_sink());
    for (bit, op) in sink_ops.enumerate() {
        op.sink = Some(if sinks >> bit & 1 == 1 {
            SinkKind::TwoPhaseCommit
        } else {
            SinkKind::AtLeastOnce
        });
    }
    Ok(())
}

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
