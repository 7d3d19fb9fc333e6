//! Operator uids on `savepoint-upgrade`: version 2 of the job keeps or changes the
//! uids of version 1's operators, and the exercise asks which operators get their
//! state back from the savepoint, and whether the restore fails without
//! `--allowNonRestoredState`.
//!
//! Flink matches state to operators by uid only
//! (`StateAssignmentOperation.assignStates`); state whose uid no operator of the
//! new job has fails the restore (`Checkpoints.throwNonRestoredStateException`)
//! unless `--allowNonRestoredState` skips it (`Checkpoints.loadAndValidateCheckpoint`).

use std::collections::BTreeSet;

use super::state::{lesson_error, why};
use super::{question, run, Answer, Blank, DrillError, Made};
use crate::event::Event;
use crate::scenario::{Scenario, ScriptStep};
use crate::world::World;

/// The operators of version 1 whose uid version 2 may change, in bit order of
/// the `renamed` parameter.
pub const RENAMEABLE: [&str; 3] = ["kafka", "pv", "out"];

/// The uid version 2 gives a renamed operator.
pub fn renamed_uid(uid: &str) -> String {
    format!("{uid}-v2")
}

/// Gives version 2's operators version 1's uids, except those whose bit is set
/// in `renamed` (bit 0: `kafka`, bit 1: `pv`, bit 2: `out`), which get
/// [`renamed_uid`]; skipping state needs `--allowNonRestoredState`, which the
/// variant sets so that it runs.
pub(super) fn set_uids(s: &mut Scenario, renamed: u64) -> Result<(), DrillError> {
    for (bit, old) in RENAMEABLE.iter().enumerate() {
        // Version 2 of the lesson already names the counter `pv-v2`.
        let current = [old.to_string(), renamed_uid(old)]
            .into_iter()
            .find(|u| s.job.operators.iter().any(|o| &o.uid == u))
            .ok_or_else(|| lesson_error(&format!("the lesson has no operator {old}")))?;
        let new = if renamed & (1 << bit) != 0 {
            renamed_uid(old)
        } else {
            old.to_string()
        };
        for o in &mut s.job.operators {
            if o.uid == current {
                o.uid = new.clone();
            }
        }
        for e in &mut s.job.edges {
            if e.from == current {
                e.from = new.clone();
            }
            if e.to == current {
                e.to = new.clone();
            }
        }
    }
    s.restore
        .as_mut()
        .ok_or_else(|| lesson_error("the lesson restores no savepoint"))?
        .allow_non_restored_state = true;
    Ok(())
}

/// Version 1 stops with a savepoint at `at_ms` (its scripted stop moves there).
pub(super) fn set_savepoint_at(s: &mut Scenario, at_ms: u64) -> Result<(), DrillError> {
    let earlier = &mut s
        .restore
        .as_mut()
        .ok_or_else(|| lesson_error("the lesson restores no savepoint"))?
        .from;
    let mut moved = false;
    for step in &mut earlier.script {
        if let ScriptStep::StopWithSavepoint { at_ms: t, .. } = step {
            *t = at_ms;
            moved = true;
        }
    }
    if moved {
        Ok(())
    } else {
        Err(lesson_error(
            "version 1 of the lesson does not stop with a savepoint",
        ))
    }
}

/// The uid in Flink's "Cannot map checkpoint/savepoint state for operator <uid>
/// to the new program" message.
fn unmapped_uid(message: &str) -> Option<String> {
    let rest = message.split("state for operator ").nth(1)?;
    Some(rest.split_whitespace().next()?.to_string())
}

pub(super) fn uid_restore(s: &Scenario, renamed: u64) -> Result<Made, DrillError> {
    let (world, trace) = run(s)?;
    let uids: Vec<String> = s.job.operators.iter().map(|o| o.uid.clone()).collect();
    let (restored_at, id) = trace
        .iter()
        .find_map(|e| match &e.event {
            Event::StateRestored {
                checkpoint: Some(c),
                ..
            } => Some((e.t, *c)),
            _ => None,
        })
        .ok_or_else(|| DrillError::NoEffect {
            param: "renamed",
            why: "no operator of the new job gets state from the savepoint".into(),
        })?;
    // The operators whose subtasks got state from the savepoint.
    let restored: BTreeSet<String> = uids
        .iter()
        .filter(|uid| {
            let prefix = format!("{uid}#");
            trace.iter().any(|e| {
                matches!(&e.event, Event::StateRestored { task, checkpoint: Some(_), .. }
                    if task.starts_with(&prefix))
            })
        })
        .cloned()
        .collect();
    let skipped = world
        .coordinator()
        .restored(id)
        .map(|r| r.non_restored.clone())
        .unwrap_or_default();
    // The same restore without --allowNonRestoredState.
    let mut strict = s.clone();
    if let Some(r) = strict.restore.as_mut() {
        r.allow_non_restored_state = false;
    }
    let refused = World::new(&strict, strict.seed)
        .err()
        .map(|e| e.to_string());
    let unmapped = refused.as_deref().and_then(unmapped_uid);
    if refused.is_some() && unmapped.is_none() {
        return Err(lesson_error(&format!(
            "the strict restore fails for another reason: {}",
            refused.unwrap_or_default()
        )));
    }
    let list = |set: &mut dyn Iterator<Item = &String>| -> String {
        set.map(String::as_str).collect::<Vec<_>>().join(", ")
    };
    let fresh: Vec<String> = uids
        .iter()
        .filter(|u| !restored.contains(*u))
        .cloned()
        .collect();
    let restored_why = why(
        "uid_matched",
        &[
            ("checkpoint", id.0.to_string()),
            ("restored", list(&mut restored.iter())),
            ("fresh", list(&mut fresh.iter())),
            ("skipped", list(&mut skipped.iter())),
        ],
        restored_at,
    );
    let fails_why = match &unmapped {
        Some(uid) => why(
            "uid_unmapped",
            &[("checkpoint", id.0.to_string()), ("uid", uid.clone())],
            restored_at,
        ),
        None => why(
            "uid_all_mapped",
            &[
                ("checkpoint", id.0.to_string()),
                ("skipped", list(&mut skipped.iter())),
            ],
            restored_at,
        ),
    };
    let yes_no = |b: bool| BTreeSet::from([if b { "yes" } else { "no" }.to_string()]);
    Ok((
        question(&[("checkpoint", id.0), ("renamed", renamed)]),
        restored_at,
        vec![
            Blank {
                name: "fails_without_n".into(),
                answer: Answer::Labels(yes_no(unmapped.is_some())),
                choices: Vec::new(),
                labels: vec!["yes".into(), "no".into()],
                why: Some(fails_why),
            },
            Blank {
                name: "restored_operators".into(),
                answer: Answer::Labels(restored),
                choices: Vec::new(),
                labels: uids,
                why: Some(restored_why),
            },
        ],
    ))
}
