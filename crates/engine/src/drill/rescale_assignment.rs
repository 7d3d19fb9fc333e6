//! Rescaling from a savepoint on `savepoint-rescale`: version 1 runs the source
//! and the count with one parallelism, version 2 restores its savepoint with
//! another. Which partitions does a source subtask restore, and which count
//! subtask owns a key's count?
//!
//! Flink: the source's offsets are operator list state, redistributed by
//! `RoundRobinOperatorStateRepartitioner` (even split: the old subtasks' lists
//! concatenated and cut into contiguous chunks); keyed state moves by key group,
//! owned by subtask `keyGroup × parallelism / maxParallelism`
//! (`KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup`).

use std::collections::BTreeSet;

use super::state::{lesson_error, why};
use super::{question, run, Answer, Blank, DrillError, Made};
use crate::event::Event;
use crate::keygroup;
use crate::scenario::{OperatorKind, Scenario};

/// Runs the source and the count of version 1 with `old` subtasks and those of
/// version 2 with `new`.
pub(super) fn set_parallelism(s: &mut Scenario, old: u64, new: u64) -> Result<(), DrillError> {
    let set = |job: &mut crate::scenario::Job, p: u64| {
        let mut changed = 0;
        for o in &mut job.operators {
            if matches!(o.kind, OperatorKind::Source | OperatorKind::KeyedCount) {
                o.parallelism = u32::try_from(p).unwrap_or(u32::MAX);
                changed += 1;
            }
        }
        changed
    };
    let earlier = &mut s
        .restore
        .as_mut()
        .ok_or_else(|| lesson_error("the lesson restores no savepoint"))?
        .from;
    if set(&mut earlier.job, old) != 2 || set(&mut s.job, new) != 2 {
        return Err(lesson_error(
            "the lesson's jobs are not one source and one keyed count",
        ));
    }
    Ok(())
}

pub(super) fn rescale_assignment(s: &Scenario, subtask: u64, app: u64) -> Result<Made, DrillError> {
    let op = |kind: OperatorKind| {
        s.job
            .operators
            .iter()
            .find(|o| o.kind == kind)
            .ok_or_else(|| lesson_error(&format!("the lesson has no {}", kind.as_str())))
    };
    let (source, count) = (op(OperatorKind::Source)?, op(OperatorKind::KeyedCount)?);
    if subtask >= u64::from(source.parallelism) {
        return Err(DrillError::NoEffect {
            param: "subtask",
            why: format!(
                "{} runs {} subtasks after the rescale: there is no #{subtask}",
                source.uid, source.parallelism
            ),
        });
    }
    let (world, trace) = run(s)?;
    let view = world
        .rescale_view()
        .ok_or_else(|| lesson_error("the lesson's restore cannot be replayed"))?;
    let split = view
        .sources
        .iter()
        .find(|p| p.uid == source.uid)
        .ok_or_else(|| lesson_error("the savepoint holds no offsets"))?;
    let strip = view
        .keyed
        .iter()
        .find(|k| k.uid == count.uid)
        .ok_or_else(|| lesson_error("the savepoint holds no counts"))?;
    let old_p = strip.before_parallelism.unwrap_or(0);
    if old_p == count.parallelism {
        return Err(DrillError::NoEffect {
            param: "new_parallelism",
            why: format!("the parallelism stays {old_p}: nothing is rescaled"),
        });
    }
    let key = format!("app{app}");
    let Some(&(_, key_group)) = strip.keys.iter().find(|(k, _)| *k == key) else {
        return Err(DrillError::NoEffect {
            param: "app",
            why: format!("the savepoint holds no count of {key}"),
        });
    };
    let owner = strip.after[key_group as usize];
    let restored_at = trace
        .iter()
        .find(|e| matches!(e.event, Event::StateRestored { .. }))
        .map_or(0, |e| e.t);
    let parts: BTreeSet<i64> = split
        .after
        .get(subtask as usize)
        .map(|p| p.iter().map(|x| i64::from(*x)).collect())
        .unwrap_or_default();
    let all: Vec<i64> = split
        .before
        .iter()
        .flatten()
        .map(|x| i64::from(*x))
        .collect();
    let list = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(", ");
    let mut choices = all.clone();
    choices.sort_unstable();
    let parts_why = why(
        "list_split",
        &[
            ("uid", source.uid.clone()),
            ("order", list(&mut all.iter().map(i64::to_string))),
            ("parallelism", source.parallelism.to_string()),
            ("subtask", subtask.to_string()),
            ("parts", list(&mut parts.iter().map(i64::to_string))),
        ],
        restored_at,
    );
    let owner_why = why(
        "key_group_owner",
        &[
            ("key", key.clone()),
            ("key_group", key_group.to_string()),
            ("parallelism", count.parallelism.to_string()),
            ("max_parallelism", strip.max_parallelism.to_string()),
            ("owner", format!("{}#{owner}", count.uid)),
        ],
        restored_at,
    );
    debug_assert_eq!(
        owner,
        keygroup::operator_index_for_key_group(strip.max_parallelism, count.parallelism, key_group)
    );
    Ok((
        question(&[
            ("old_parallelism", u64::from(old_p)),
            ("subtask", subtask),
            ("app", app),
            ("key_group", u64::from(key_group)),
            ("max_parallelism", u64::from(strip.max_parallelism)),
        ]),
        restored_at,
        vec![
            Blank {
                name: "partitions".into(),
                answer: Answer::Set(parts),
                choices,
                labels: Vec::new(),
                why: Some(parts_why),
            },
            Blank {
                name: "owner".into(),
                answer: Answer::Labels(BTreeSet::from([format!("{}#{owner}", count.uid)])),
                choices: Vec::new(),
                labels: (0..count.parallelism)
                    .map(|i| format!("{}#{i}", count.uid))
                    .collect(),
                why: Some(owner_why),
            },
        ],
    ))
}
