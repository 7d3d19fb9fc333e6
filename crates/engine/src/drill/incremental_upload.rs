//! Incremental checkpoints on `state-backend-rocksdb`: one count subtask, keys
//! arriving in a fixed cycle; what does chk-N upload as new, and which shared
//! files does it refer to?
//!
//! Flink: `RocksIncrementalSnapshotStrategy` uploads only the SST files created
//! since the last completed checkpoint (`uploadedSstFiles` of
//! `lastCompletedCheckpointId`) and refers to the earlier ones, registered in the
//! `SharedStateRegistry`. The lab stands in for SST files with one shared file per
//! subtask and checkpoint holding the entries changed since its base.

use std::collections::BTreeSet;

use super::state::{lesson_error, why};
use super::{question, run, Answer, Blank, DrillError, Made};
use crate::event::Event;
use crate::ids::CheckpointId;
use crate::scenario::{OperatorKind, Scenario};
use crate::state::shared_registry::shared_file_name;
use crate::world::World;

/// Runs the count with one subtask, so that every key's entry is in one place.
pub(super) fn set_one_counter(s: &mut Scenario) -> Result<(), DrillError> {
    let op = s
        .job
        .operators
        .iter_mut()
        .find(|o| o.kind == OperatorKind::KeyedCount)
        .ok_or_else(|| lesson_error("the lesson has no keyed_count operator"))?;
    op.parallelism = 1;
    Ok(())
}

pub(super) fn incremental_upload(s: &Scenario, checkpoint: u64) -> Result<Made, DrillError> {
    let count = s
        .job
        .operators
        .iter()
        .find(|o| o.kind == OperatorKind::KeyedCount)
        .ok_or_else(|| lesson_error("the lesson has no keyed_count operator"))?;
    let task = format!("{}#0", count.uid);
    let (_, trace) = run(s)?;
    let completed: Vec<(u64, u64)> = trace
        .iter()
        .filter_map(|e| match e.event {
            Event::CheckpointCompleted { checkpoint } => Some((e.t, checkpoint.0)),
            _ => None,
        })
        .collect();
    let Some(&(completed_at, _)) = completed.iter().find(|(_, id)| *id == checkpoint) else {
        return Err(no_effect(format!("chk-{checkpoint} does not complete")));
    };
    if trace
        .iter()
        .any(|e| matches!(e.event, Event::TaskFailed { .. }) && e.t <= completed_at)
    {
        return Err(no_effect(format!(
            "a task fails before chk-{checkpoint} completes"
        )));
    }
    let snapshot_at = |id: u64| {
        trace.iter().find_map(|e| match &e.event {
            Event::SnapshotTaken {
                task: t,
                checkpoint: c,
                ..
            } if **t == *task && c.0 == id => Some(e.t),
            _ => None,
        })
    };
    let at = snapshot_at(checkpoint)
        .ok_or_else(|| no_effect(format!("{task} takes no snapshot for chk-{checkpoint}")))?;
    // The base: the last checkpoint completed before the subtask's snapshot.
    let Some(&(_, base)) = completed
        .iter()
        .rev()
        .find(|(t, id)| *t < at && *id < checkpoint)
    else {
        return Err(no_effect(format!(
            "no checkpoint completes before chk-{checkpoint}: it uploads everything"
        )));
    };
    let base_at = snapshot_at(base).unwrap_or(0);
    let (new_name, new_entries, referenced) = uploaded(s, &task, checkpoint, completed_at)?;
    let labels: Vec<String> = (1..=checkpoint)
        .map(|c| shared_file_name(&task, CheckpointId(c)))
        .collect();
    let entries_why = why(
        "incremental_new",
        &[
            ("task", task.clone()),
            ("base", base.to_string()),
            ("base_ms", base_at.to_string()),
            ("checkpoint", checkpoint.to_string()),
            ("at", at.to_string()),
            ("entries", new_entries.to_string()),
            ("file", new_name.clone()),
        ],
        at,
    );
    let files_why = why(
        "incremental_shared",
        &[
            ("task", task.clone()),
            ("checkpoint", checkpoint.to_string()),
            (
                "files",
                referenced.iter().cloned().collect::<Vec<_>>().join(", "),
            ),
        ],
        completed_at,
    );
    Ok((
        question(&[("checkpoint", checkpoint), ("base", base)]),
        at,
        vec![
            Blank {
                name: "new_entries".into(),
                answer: Answer::Number(new_entries as i64),
                choices: Vec::new(),
                labels: Vec::new(),
                why: Some(entries_why),
            },
            Blank {
                name: "shared_files".into(),
                answer: Answer::Labels(referenced),
                choices: Vec::new(),
                labels,
                why: Some(files_why),
            },
        ],
    ))
}

/// A drawn checkpoint that does not show the effect.
fn no_effect(why: String) -> DrillError {
    DrillError::NoEffect {
        param: "checkpoint",
        why,
    }
}

/// The subtask `task`'s files as the shared registry holds them when
/// chk-`checkpoint` completes: the name of the file it uploaded, how many
/// entries that file holds, and every file the checkpoint refers to. A
/// checkpoint that changes nothing or changes every entry does not show the
/// effect.
fn uploaded(
    s: &Scenario,
    task: &str,
    checkpoint: u64,
    completed_at: u64,
) -> Result<(String, u64, BTreeSet<String>), DrillError> {
    let mut world = World::new(s, s.seed).map_err(|e| DrillError::Scenario(e.to_string()))?;
    world.run_until(completed_at, |_| {});
    let id = world
        .task_id(task)
        .ok_or_else(|| lesson_error(&format!("no subtask {task}")))?;
    let registry = world.coordinator().shared();
    let files = registry
        .task_files(CheckpointId(checkpoint), id)
        .ok_or_else(|| no_effect(format!("chk-{checkpoint} records no files of {task}")))?;
    let new_name = shared_file_name(task, CheckpointId(checkpoint));
    let new_entries = registry.files().get(&new_name).map_or(0, |f| f.entries);
    if new_entries == 0 {
        return Err(no_effect(format!("chk-{checkpoint} changes nothing")));
    }
    let referenced: BTreeSet<String> = files.shared.clone();
    if referenced.len() < 2 {
        return Err(no_effect(format!(
            "chk-{checkpoint} refers to its own file only: every entry changed"
        )));
    }
    Ok((new_name, new_entries, referenced))
}
