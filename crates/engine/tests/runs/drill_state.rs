//! The state chapter's and savepoints' exercises over many variants: each answer,
//! and the reason a wrong answer is shown, held against a fact found another way —
//! Flink's rule applied by hand to the scenario's parameters, or an engine output
//! other than the one the exercise reads (the coordinator's live store, the
//! trace's events, `_metadata`).

use std::collections::BTreeSet;

use engine::drill::{self, Answer, Exercise, Kind, Why};
use engine::event::{Event, TraceEvent};
use engine::runner;

const VARIANTS: u64 = 120;

fn exercise(kind: Kind, variant: u64) -> Exercise {
    let base = runner::load(kind.lesson()).expect("built-in");
    drill::generate(kind, &base, variant)
        .unwrap_or_else(|e| panic!("{} variant {variant}: {e}", kind.key()))
}

/// The exercise's variant run again, apart from the drill's own run.
fn trace_of(ex: &Exercise) -> Vec<TraceEvent> {
    let opts = runner::RunOptions {
        trace: true,
        ..Default::default()
    };
    let mut trace = Vec::new();
    runner::run(&ex.scenario, &opts, |e| trace.push(e.clone())).unwrap();
    trace
}

fn why<'a>(ex: &'a Exercise, blank: &str) -> &'a Why {
    ex.blanks
        .iter()
        .find(|b| b.name == blank)
        .and_then(|b| b.why.as_ref())
        .unwrap_or_else(|| panic!("{}: blank {blank} has no why", ex.kind.key()))
}

fn arg(w: &Why, name: &str) -> u64 {
    w.args
        .get(name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{}: no number {name} in {:?}", w.key, w.args))
}

fn answer<'a>(ex: &'a Exercise, blank: &str) -> &'a Answer {
    &ex.blanks.iter().find(|b| b.name == blank).unwrap().answer
}

#[test]
fn ttl_why_names_the_first_write_and_its_expiry_against_the_repeat() {
    let mut keys = BTreeSet::new();
    for v in 0..VARIANTS {
        let ex = exercise(Kind::TtlPasses, v);
        let ttl = ex.params["ttl_ms"];
        let b = &ex.blanks[0];
        let w = why(&ex, "passes");
        // Independent: the arrivals the question lists, and Flink's rule
        // (`TtlUtils.expired`: expired once write + ttl <= now) applied to the
        // first two.
        let (first, second) = (b.choices[0] as u64, b.choices[1] as u64);
        assert_eq!(arg(w, "written"), first, "variant {v}");
        assert_eq!(arg(w, "at"), second, "variant {v}");
        assert_eq!(arg(w, "ttl_ms"), ttl, "variant {v}");
        assert_eq!(arg(w, "expires"), first + ttl, "variant {v}");
        assert_eq!(w.at_ms, second, "variant {v}");
        let expired = first + ttl <= second;
        assert_eq!(
            w.key,
            if expired { "ttl_expired" } else { "ttl_alive" },
            "variant {v}"
        );
        let Answer::Set(passes) = &b.answer else {
            panic!("passes is a set")
        };
        assert_eq!(passes.contains(&(second as i64)), expired, "variant {v}");
        keys.insert(w.key.clone());
    }
    assert_eq!(keys.len(), 2, "both reasons occur: {keys:?}");
}

#[test]
fn broadcast_why_names_the_subtasks_and_the_rules_sent_before_the_trigger() {
    for v in 0..VARIANTS {
        let ex = exercise(Kind::BroadcastCopies, v);
        let n = ex.question["checkpoint"];
        let trace = trace_of(&ex);
        let triggered = trace
            .iter()
            .find_map(|e| match &e.event {
                Event::CheckpointTriggered { checkpoint, .. } if checkpoint.0 == n => Some(e.t),
                _ => None,
            })
            .unwrap();
        let w = why(&ex, "copies");
        assert_eq!(
            arg(w, "parallelism"),
            ex.params["parallelism"],
            "variant {v}"
        );
        assert_eq!(
            Answer::Number(arg(w, "parallelism") as i64),
            *answer(&ex, "copies")
        );
        assert!(
            w.at_ms >= triggered && w.at_ms <= ex.moment_ms,
            "variant {v}"
        );
        let w = why(&ex, "rules");
        assert_eq!(arg(w, "triggered"), triggered, "variant {v}");
        assert_eq!(w.at_ms, triggered, "variant {v}");
        // Independent: the rules the question names that fall before the trigger.
        let sent: Vec<u64> = ["min_ms", "max_ms"]
            .iter()
            .filter_map(|k| ex.question.get(*k).copied())
            .filter(|t| *t < triggered)
            .collect();
        assert_eq!(arg(w, "rules"), sent.len() as u64, "variant {v}");
        assert_eq!(
            Answer::Number(sent.len() as i64),
            *answer(&ex, "rules"),
            "variant {v}"
        );
        assert_eq!(arg(w, "last_ms"), sent.iter().max().copied().unwrap_or(0));
    }
}

fn labels(ex: &Exercise, blank: &str) -> BTreeSet<String> {
    match answer(ex, blank) {
        Answer::Labels(l) => l.clone(),
        other => panic!("{blank}: {other:?}"),
    }
}

#[test]
fn claim_mode_snapshots_on_disk_follow_the_retention_rule_over_the_completions() {
    let (mut deleted, mut kept) = (0, 0);
    for v in 0..VARIANTS {
        let ex = exercise(Kind::ClaimModeSnapshot, v);
        let (at, retained) = (ex.params["at_ms"], ex.params["retained"] as usize);
        let restored = ex.question["restored"];
        let trace = trace_of(&ex);
        // Independent: the trace's completions before t and Flink's retention
        // (`DefaultCompletedCheckpointStore`: the restored snapshot enters the
        // store first, the oldest is pushed out past num-retained; under NO_CLAIM
        // it is released, never deleted).
        let own: Vec<(u64, u64)> = trace
            .iter()
            .filter_map(|e| match e.event {
                Event::CheckpointCompleted { checkpoint } if e.t < at => Some((e.t, checkpoint.0)),
                _ => None,
            })
            .collect();
        let store: Vec<u64> = std::iter::once(restored)
            .chain(own.iter().map(|(_, id)| *id))
            .collect();
        let kept_ids: BTreeSet<u64> = store[store.len().saturating_sub(retained)..]
            .iter()
            .copied()
            .collect();
        let chk = |ids: &BTreeSet<u64>| -> BTreeSet<String> {
            ids.iter().map(|id| format!("chk-{id}")).collect()
        };
        assert_eq!(labels(&ex, "on_disk_claim"), chk(&kept_ids), "variant {v}");
        let mut unclaimed = kept_ids.clone();
        unclaimed.insert(restored);
        assert_eq!(
            labels(&ex, "on_disk_no_claim"),
            chk(&unclaimed),
            "variant {v}"
        );
        assert_eq!(ex.question["last"], own.last().unwrap().1, "variant {v}");
        for b in &ex.blanks {
            let Answer::Labels(l) = &b.answer else {
                panic!()
            };
            assert!(l.iter().all(|x| b.labels.contains(x)), "variant {v}: {l:?}");
        }
        let w = why(&ex, "on_disk_claim");
        if own.len() >= retained {
            // The retained-th own checkpoint pushed the restored one out.
            let (t, by) = own[retained - 1];
            assert_eq!(w.key, "claim_deleted", "variant {v}");
            assert_eq!((arg(w, "by"), arg(w, "deleted"), w.at_ms), (by, t, t));
            deleted += 1;
        } else {
            assert_eq!(w.key, "claim_kept", "variant {v}");
            kept += 1;
        }
        assert_eq!(arg(w, "retained"), retained as u64);
        assert_eq!(why(&ex, "on_disk_no_claim").key, "no_claim_kept");
    }
    assert!(deleted > 10 && kept > 10, "deleted {deleted}, kept {kept}");
}

/// Whether version 1's savepoint, as its `_metadata` lists it, holds state for
/// `uid`: source offsets, keyed counts, or a transaction of the sink.
fn holds_state(meta: &serde_json::Value, uid: &str) -> bool {
    let op = &meta[uid];
    let non_empty = |v: &serde_json::Value| {
        v.as_object().is_some_and(|o| !o.is_empty()) || v.as_array().is_some_and(|a| !a.is_empty())
    };
    non_empty(&op["offsets"]) || non_empty(&op["keyed"]) || non_empty(&op["operator"])
}

#[test]
fn uid_restore_matches_state_by_uid_and_fails_on_unmapped_state_without_n() {
    let (mut failing, mut passing) = (0, 0);
    let mut answers = BTreeSet::new();
    for v in 0..VARIANTS {
        let ex = exercise(Kind::UidRestore, v);
        let renamed = ex.params["renamed"];
        let restore = ex.scenario.restore.as_ref().unwrap();
        // Independent: version 1 run on its own, its savepoint's `_metadata`.
        let opts = runner::RunOptions {
            metadata: true,
            ..Default::default()
        };
        let v1 = runner::run(&restore.from, &opts, |_| {}).unwrap();
        let summary = serde_json::to_value(engine::summary::Summary::of(
            &v1,
            engine::summary::Metadata::Included,
        ))
        .unwrap();
        let savepoint = summary["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .rfind(|c| c["metadata"].is_object() && c["kind"] != "checkpoint")
            .unwrap_or_else(|| panic!("variant {v}: version 1 takes no savepoint"));
        assert_eq!(savepoint["id"], ex.question["checkpoint"], "variant {v}");
        let meta = &savepoint["metadata"];
        let stateful: BTreeSet<&str> = meta
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .filter(|uid| holds_state(meta, uid))
            .collect();
        // The uids version 2 has: the rule the question states, applied by hand.
        let v2: BTreeSet<String> = ["kafka", "pv", "out"]
            .iter()
            .enumerate()
            .map(|(bit, u)| {
                if renamed & (1 << bit) != 0 {
                    format!("{u}-v2")
                } else {
                    u.to_string()
                }
            })
            .chain(["total".to_string()])
            .collect();
        let have: BTreeSet<String> = ex
            .scenario
            .job
            .operators
            .iter()
            .map(|o| o.uid.clone())
            .collect();
        assert_eq!(have, v2, "variant {v}");
        let restored: BTreeSet<String> = v2
            .iter()
            .filter(|u| stateful.contains(u.as_str()))
            .cloned()
            .collect();
        assert_eq!(labels(&ex, "restored_operators"), restored, "variant {v}");
        let unmapped: Vec<&str> = stateful
            .iter()
            .filter(|u| !v2.contains(**u))
            .copied()
            .collect();
        let fails = !unmapped.is_empty();
        let word = if fails { "yes" } else { "no" };
        assert_eq!(
            labels(&ex, "fails_without_n"),
            BTreeSet::from([word.to_string()]),
            "variant {v}: unmapped {unmapped:?}"
        );
        let w = why(&ex, "fails_without_n");
        if fails {
            assert_eq!(w.key, "uid_unmapped", "variant {v}");
            assert!(unmapped.contains(&w.args["uid"].as_str()), "variant {v}");
            failing += 1;
        } else {
            assert_eq!(w.key, "uid_all_mapped", "variant {v}");
            passing += 1;
        }
        answers.insert((renamed, ex.question["checkpoint"]));
    }
    assert!(
        failing > 10 && passing > 5,
        "failing {failing}, passing {passing}"
    );
    assert!(answers.len() >= 20, "variants differ: {}", answers.len());
}

#[test]
fn expired_checkpoints_and_the_failover_follow_the_history_and_the_tolerable_count() {
    use engine::cause::{AbortCause, FailureCause};
    use engine::coordinator::CheckpointStatus;
    let (mut failing, mut passing) = (0, 0);
    let mut answers = BTreeSet::new();
    for v in 0..VARIANTS {
        let ex = exercise(Kind::CheckpointExpiry, v);
        let (timeout, tolerable) = (ex.params["timeout_ms"], ex.params["tolerable_failures"]);
        // Independent: the run's checkpoint history and failures (the summary, not
        // the trace), and Flink's counting rule applied by hand.
        let world = runner::run(&ex.scenario, &runner::RunOptions::default(), |_| {}).unwrap();
        let summary = engine::summary::Summary::of(&world, engine::summary::Metadata::Omitted);
        let failover = summary.failures.first().map(|f| f.at_ms);
        let first: Vec<_> = summary
            .checkpoints
            .iter()
            .filter(|c| c.kind == "checkpoint" && failover.is_none_or(|t| c.trigger_ms < t))
            .collect();
        let mut expired = BTreeSet::new();
        let (mut count, mut exceeded) = (0, None);
        for c in &first {
            match (&c.status, &c.reason) {
                (CheckpointStatus::Completed, _) => count = 0,
                (CheckpointStatus::Aborted, Some(AbortCause::Expired)) => {
                    // Expired exactly one timeout after its trigger.
                    assert_eq!(
                        c.end_ms,
                        Some(c.trigger_ms + timeout),
                        "variant {v}: chk-{}",
                        c.id.0
                    );
                    expired.insert(format!("chk-{}", c.id.0));
                    count += 1;
                    if count > tolerable && exceeded.is_none() {
                        exceeded = c.end_ms;
                    }
                }
                _ => {}
            }
        }
        assert_eq!(labels(&ex, "expired"), expired, "variant {v}");
        let fails = exceeded.is_some();
        assert_eq!(
            labels(&ex, "fails_over"),
            BTreeSet::from([if fails { "yes" } else { "no" }.to_string()]),
            "variant {v}"
        );
        if fails {
            let f = &summary.failures[0];
            assert_eq!(Some(f.at_ms), exceeded, "variant {v}");
            assert!(
                matches!(f.reason, FailureCause::TolerableFailuresExceeded(_)),
                "variant {v}: {:?}",
                f.reason
            );
            assert_eq!(why(&ex, "fails_over").key, "tolerable_exceeded");
            assert_eq!(why(&ex, "fails_over").at_ms, f.at_ms);
            failing += 1;
        } else {
            assert_eq!(why(&ex, "fails_over").key, "tolerable_within");
            passing += 1;
        }
        let w = why(&ex, "expired");
        let first_expired = first
            .iter()
            .find(|c| matches!(c.reason, Some(AbortCause::Expired)))
            .unwrap();
        assert_eq!(arg(w, "checkpoint"), first_expired.id.0, "variant {v}");
        assert_eq!(Some(w.at_ms), first_expired.end_ms, "variant {v}");
        assert!(
            !w.args["waiting"].is_empty(),
            "variant {v}: someone is late"
        );
        answers.insert((expired.len(), fails));
    }
    assert!(
        failing > 10 && passing > 10,
        "failing {failing}, passing {passing}"
    );
    assert!(answers.len() >= 4, "variants differ: {answers:?}");
}

/// The partitions each subtask of `uid` read, by subtask index, from a trace.
fn partitions_read(trace: &[TraceEvent], uid: &str, after_ms: u64) -> Vec<BTreeSet<i64>> {
    let mut out: Vec<BTreeSet<i64>> = Vec::new();
    for e in trace.iter().filter(|e| e.t >= after_ms) {
        if let Event::RecordEmitted {
            task, partition, ..
        } = &e.event
        {
            if let Some(i) = task
                .strip_prefix(&format!("{uid}#"))
                .and_then(|i| i.parse::<usize>().ok())
            {
                if out.len() <= i {
                    out.resize(i + 1, BTreeSet::new());
                }
                out[i].insert(i64::from(*partition));
            }
        }
    }
    out
}

#[test]
fn rescaled_partitions_and_key_owners_follow_flinks_split_and_key_group_formula() {
    let mut answers = BTreeSet::new();
    for v in 0..VARIANTS {
        let ex = exercise(Kind::RescaleAssignment, v);
        let (old, new) = (ex.params["old_parallelism"], ex.params["new_parallelism"]);
        let (subtask, app) = (ex.question["subtask"] as usize, ex.question["app"]);
        assert_ne!(old, new, "variant {v}: a rescale");
        let restore = ex.scenario.restore.as_ref().unwrap();
        // Version 1 on its own: which partitions each of its source subtasks read.
        let mut v1 = Vec::new();
        let opts = runner::RunOptions {
            trace: true,
            ..Default::default()
        };
        runner::run(&restore.from, &opts, |e| v1.push(e.clone())).unwrap();
        let before = partitions_read(&v1, "kafka", 0);
        assert_eq!(before.len() as u64, old, "variant {v}");
        // Flink's even split (RoundRobinOperatorStateRepartitioner): the old
        // lists concatenated in subtask order, cut into `new` contiguous chunks,
        // the first `n % new` one longer.
        let all: Vec<i64> = before.iter().flatten().copied().collect();
        let (base, extra) = (all.len() / new as usize, all.len() % new as usize);
        let start: usize = (0..subtask).map(|i| base + usize::from(i < extra)).sum();
        let len = base + usize::from(subtask < extra);
        let chunk: BTreeSet<i64> = all[start..start + len].iter().copied().collect();
        let Answer::Set(parts) = answer(&ex, "partitions") else {
            panic!()
        };
        assert_eq!(
            *parts, chunk,
            "variant {v}: kafka#{subtask} of {new} from {before:?}"
        );
        // Version 2's trace: what kafka#i reads after the restore, and which pv
        // subtask counts the key.
        let trace = trace_of(&ex);
        let restored_at = why(&ex, "partitions").at_ms;
        let after = partitions_read(&trace, "kafka", restored_at);
        if let Some(read) = after.get(subtask).filter(|r| !r.is_empty()) {
            assert!(
                read.is_subset(parts),
                "variant {v}: kafka#{subtask} read {read:?}"
            );
        }
        let key = format!("app{app}");
        let counted: BTreeSet<String> = trace
            .iter()
            .filter(|e| e.t >= restored_at)
            .filter_map(|e| match &e.event {
                Event::RecordProcessed {
                    task, key: Some(k), ..
                } if task.starts_with("pv#") && **k == *key => Some(task.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(labels(&ex, "owner"), counted, "variant {v}: {key}");
        let (kg, max_p) = (ex.question["key_group"], ex.question["max_parallelism"]);
        assert_eq!(
            kg,
            u64::from(engine::keygroup::assign_to_key_group(&key, max_p as u32))
        );
        let owner = format!("pv#{}", kg * new / max_p);
        assert_eq!(labels(&ex, "owner"), BTreeSet::from([owner]), "variant {v}");
        answers.insert((old, new, subtask, parts.clone()));
    }
    assert!(answers.len() >= 20, "variants differ: {}", answers.len());
}

#[test]
fn incremental_uploads_are_the_keys_counted_since_the_base_and_files_hold_their_last_change() {
    let mut answers = BTreeSet::new();
    for v in 0..VARIANTS {
        let ex = exercise(Kind::IncrementalUpload, v);
        let n = ex.question["checkpoint"];
        let trace = trace_of(&ex);
        // Independent: the keys pv#0 counted, in trace order, cut by its snapshots;
        // each checkpoint's base is the one before it (every one completes before
        // the next snapshot in these variants — checked), so a key's entry lives in
        // the file of the first snapshot after its last change.
        let mut snapshots: Vec<u64> = Vec::new();
        let mut changed_in: Vec<BTreeSet<String>> = vec![BTreeSet::new()];
        let mut completed = BTreeSet::new();
        for e in &trace {
            match &e.event {
                Event::RecordProcessed {
                    task, key: Some(k), ..
                } if &**task == "pv#0" => {
                    changed_in.last_mut().unwrap().insert(k.to_string());
                }
                Event::SnapshotTaken {
                    task, checkpoint, ..
                } if &**task == "pv#0" => {
                    if let Some(prev) = snapshots.last() {
                        assert!(
                            completed.contains(prev),
                            "variant {v}: chk-{prev} completes first"
                        );
                    }
                    snapshots.push(checkpoint.0);
                    changed_in.push(BTreeSet::new());
                }
                Event::CheckpointCompleted { checkpoint } => {
                    completed.insert(checkpoint.0);
                }
                _ => {}
            }
        }
        assert_eq!(
            &snapshots[..n as usize],
            (1..=n).collect::<Vec<_>>(),
            "variant {v}"
        );
        assert_eq!(ex.question["base"], n - 1, "variant {v}");
        // changed_in[i]: keys counted before snapshot i+1 and after snapshot i.
        let new = changed_in[n as usize - 1].len() as i64;
        assert_eq!(
            *answer(&ex, "new_entries"),
            Answer::Number(new),
            "variant {v}"
        );
        let mut file = std::collections::BTreeMap::new();
        for (i, keys) in changed_in.iter().take(n as usize).enumerate() {
            for k in keys {
                file.insert(k.clone(), format!("shared/pv#0-{}", i + 1));
            }
        }
        let files: BTreeSet<String> = file.into_values().collect();
        assert_eq!(labels(&ex, "shared_files"), files, "variant {v}");
        assert_eq!(arg(why(&ex, "new_entries"), "entries"), new as u64);
        answers.insert((n, new));
    }
    assert!(answers.len() >= 15, "variants differ: {}", answers.len());
}

#[test]
fn state_kinds_follow_the_operators_kinds() {
    use engine::scenario::{OperatorKind, SinkKind};
    let (mut keyed_answers, mut operator_answers) = (BTreeSet::new(), BTreeSet::new());
    for v in 0..200 {
        let ex = exercise(Kind::StateKinds, v);
        // Independent: what each operator kind registers, by hand — a keyed
        // window count a ValueState (its window) and a ListState (its contents),
        // a reduce a ReducingState, an average an AggregatingState, a
        // de-duplication a MapState (seen values); a Kafka source its offsets
        // and a two-phase-commit sink its transactions as operator state, an
        // at-least-once sink nothing.
        let (mut keyed, mut operator) = (BTreeSet::new(), BTreeSet::new());
        for op in &ex.scenario.job.operators {
            let uid = &op.uid;
            match op.kind {
                OperatorKind::KeyedWindowCount => {
                    keyed.insert(format!("{uid}.window"));
                    keyed.insert(format!("{uid}.contents"));
                }
                OperatorKind::KeyedReduce => {
                    keyed.insert(format!("{uid}.reduce"));
                }
                OperatorKind::KeyedAverage => {
                    keyed.insert(format!("{uid}.average"));
                }
                OperatorKind::KeyedDedup => {
                    keyed.insert(format!("{uid}.seen"));
                }
                OperatorKind::Source => {
                    operator.insert(format!("{uid}.offsets"));
                }
                OperatorKind::Sink if op.sink == Some(SinkKind::TwoPhaseCommit) => {
                    operator.insert(format!("{uid}.transactions"));
                }
                OperatorKind::Sink if op.sink == Some(SinkKind::AtLeastOnce) => {}
                other => panic!("variant {v}: the lesson grew a {other:?}"),
            }
        }
        assert_eq!(labels(&ex, "keyed_states"), keyed, "variant {v}");
        assert_eq!(labels(&ex, "operator_states"), operator, "variant {v}");
        // The states offered are exactly those chk-N lists, nothing to tell apart
        // by its absence.
        let offered: BTreeSet<String> = ex.blanks[0].labels.iter().cloned().collect();
        let listed: BTreeSet<String> = keyed.union(&operator).cloned().collect();
        assert_eq!(offered, listed, "variant {v}");
        // Both reasons replay to chk-N's completion, in the trace at that moment.
        let n = ex.question["checkpoint"];
        let completed = trace_of(&ex)
            .iter()
            .find(|e| matches!(e.event, Event::CheckpointCompleted { checkpoint } if checkpoint.0 == n))
            .map(|e| e.t);
        for blank in ["keyed_states", "operator_states"] {
            assert_eq!(
                Some(why(&ex, blank).at_ms),
                completed,
                "variant {v}: {blank}"
            );
        }
        assert_eq!(why(&ex, "keyed_states").at_ms, ex.moment_ms);
        keyed_answers.insert(keyed);
        operator_answers.insert(operator);
    }
    // The answer is the variant's: every keyed operator the first branch can
    // run, every choice of transactional sinks.
    assert_eq!(keyed_answers.len(), 3, "keyed answers: {keyed_answers:?}");
    assert_eq!(
        operator_answers.len(),
        4,
        "operator answers: {operator_answers:?}"
    );
}
