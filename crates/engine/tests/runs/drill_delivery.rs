//! The checkpoint and delivery exercises over many variants, each answer held
//! against another engine output or the rule applied by hand: the unaligned
//! channel state against chk-N's `_metadata`, what consumers read against the
//! sink's topic at that moment, a transaction's fate against the topic's record of
//! it and Kafka's timeout rule, the last acknowledgement and the phases against
//! the trace and the latencies.

use std::collections::BTreeSet;

use engine::drill::{self, Answer, Exercise, Kind};
use engine::event::{Event, TraceEvent};
use engine::runner;
use engine::sink::TxnStatus;
use engine::World;

const VARIANTS: u64 = 120;

fn exercise(kind: Kind, v: u64) -> Exercise {
    let base = runner::load(kind.lesson()).expect("built-in");
    drill::generate(kind, &base, v).unwrap_or_else(|e| panic!("{} variant {v}: {e}", kind.key()))
}

fn answer<'a>(ex: &'a Exercise, blank: &str) -> &'a Answer {
    &ex.blanks
        .iter()
        .find(|b| b.name == blank)
        .unwrap_or_else(|| panic!("{blank}: no such blank"))
        .answer
}

fn number(ex: &Exercise, blank: &str) -> i64 {
    match answer(ex, blank) {
        Answer::Number(n) => *n,
        other => panic!("{blank}: {other:?}"),
    }
}

fn label(ex: &Exercise, blank: &str) -> String {
    match answer(ex, blank) {
        Answer::Labels(l) if l.len() == 1 => l.iter().next().unwrap().clone(),
        other => panic!("{blank}: {other:?}"),
    }
}

/// The variant run again, up to `until_ms` (its end when `None`).
fn rerun(ex: &Exercise, until_ms: Option<u64>) -> (World, Vec<TraceEvent>) {
    let opts = runner::RunOptions {
        trace: true,
        metadata: true,
        until_ms,
        ..Default::default()
    };
    let mut trace = Vec::new();
    let world = runner::run(&ex.scenario, &opts, |e| trace.push(e.clone())).unwrap();
    (world, trace)
}

#[test]
fn unaligned_persisted_records_are_the_channel_state_in_the_metadata() {
    let mut answers = BTreeSet::new();
    for v in 0..VARIANTS {
        let ex = exercise(Kind::UnalignedPersisted, v);
        let q = &ex.question;
        let (n, sub, up) = (q["checkpoint"], q["subtask"], q["upstream"]);
        let (world, trace) = rerun(&ex, None);
        let to = world.task_id(&format!("slow-sum#{sub}")).unwrap();
        let from = world.task_id(&format!("enrich#{up}")).unwrap();
        let channel = world
            .channels()
            .iter()
            .find(|c| c.to == to && c.from == from)
            .unwrap()
            .input;
        // Another engine output: what chk-n's _metadata holds for that channel.
        let summary = serde_json::to_value(engine::summary::Summary::of(
            &world,
            engine::summary::Metadata::Included,
        ))
        .unwrap();
        let c = summary["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == n)
            .unwrap();
        let persisted = c["metadata"]["slow-sum"]["channels"][sub.to_string()]
            [format!("in{}", channel.0)]
        .as_array()
        .map_or(0, Vec::len) as i64;
        assert_eq!(number(&ex, "persisted"), persisted, "variant {v}: chk-{n}");
        assert!(persisted > 0, "variant {v}: something is persisted");
        // The times the question states: the subtask's first barrier of chk-n,
        // and this channel's.
        let received: Vec<(u64, u32)> = trace
            .iter()
            .filter_map(|e| match &e.event {
                Event::BarrierReceived {
                    task,
                    channel: ch,
                    checkpoint,
                } if **task == *format!("slow-sum#{sub}") && checkpoint.0 == n => Some((e.t, ch.0)),
                _ => None,
            })
            .collect();
        assert_eq!(q["first_ms"], received[0].0, "variant {v}");
        let own = received.iter().find(|(_, ch)| *ch == channel.0).unwrap().0;
        assert_eq!(q["arrived_ms"], own, "variant {v}");
        assert!(own >= q["first_ms"], "variant {v}");
        assert!(
            c["persisted_in_flight_records"].as_i64().unwrap() >= persisted,
            "variant {v}"
        );
        answers.insert(persisted);
    }
    assert!(answers.len() >= 4, "variants differ: {answers:?}");
}

#[test]
fn read_committed_consumers_see_the_committed_transactions_records_only() {
    let mut answers = BTreeSet::new();
    for v in 0..VARIANTS {
        let ex = exercise(Kind::ReadCommittedAfterCrash, v);
        let at = ex.question["at_ms"];
        assert_eq!(at, ex.params["crash_ms"] + ex.params["after_ms"]);
        // Another engine output: the sink's topic as it stands at that moment.
        let (world, _) = rerun(&ex, Some(at));
        let topic = world.external().values().next().expect("the sink's topic");
        let committed: usize = topic
            .txns
            .values()
            .filter(|t| t.status == TxnStatus::Committed)
            .map(|t| t.records.len())
            .sum();
        let all: usize = topic.txns.values().map(|t| t.records.len()).sum();
        let aborted = topic
            .txns
            .values()
            .filter(|t| t.status == TxnStatus::Aborted)
            .count();
        assert_eq!(
            number(&ex, "read_committed"),
            committed as i64,
            "variant {v}"
        );
        assert_eq!(number(&ex, "read_uncommitted"), all as i64, "variant {v}");
        assert!(aborted >= 1, "variant {v}: the crash aborted a transaction");
        // Exactly once: what read_committed shows is each input's output once.
        let origins: BTreeSet<_> = topic
            .txns
            .values()
            .filter(|t| t.status == TxnStatus::Committed)
            .flat_map(|t| t.records.iter().map(|(_, r)| r.origin))
            .collect();
        assert_eq!(origins.len(), committed, "variant {v}: no duplicate");
        answers.insert((committed, all));
    }
    assert!(answers.len() >= 10, "variants differ: {answers:?}");
}

#[test]
fn a_transaction_survives_exactly_when_its_commit_comes_within_the_timeout() {
    let (mut committed, mut aborted) = (0, 0);
    for v in 0..VARIANTS {
        let ex = exercise(Kind::TxnTimeout, v);
        let q = &ex.question;
        let (txn, opened, timeout) = (q["txn"], q["opened_ms"], q["transaction_timeout_ms"]);
        // The rule by hand, on the run without a broker timeout: the commit of
        // the transaction comes within the timeout of its first record or not.
        let mut calm = ex.scenario.clone();
        for o in &mut calm.job.operators {
            o.transaction_timeout_ms = None;
        }
        let mut calm_trace = Vec::new();
        let opts = runner::RunOptions {
            trace: true,
            ..Default::default()
        };
        runner::run(&calm, &opts, |e| calm_trace.push(e.clone())).unwrap();
        let commit = calm_trace
            .iter()
            .find_map(|e| match &e.event {
                Event::TransactionCommitted { txn: t, .. } if *t == txn => Some(e.t),
                _ => None,
            })
            .unwrap();
        let first = calm_trace
            .iter()
            .find_map(|e| match &e.event {
                Event::RecordWritten { txn: Some(t), .. } if *t == txn => Some(e.t),
                _ => None,
            })
            .unwrap();
        assert_eq!(first, opened, "variant {v}: txn {txn} opened");
        let survives = commit - opened < timeout;
        let fate = label(&ex, "fate");
        assert_eq!(
            fate,
            if survives { "committed" } else { "aborted" },
            "variant {v}: txn {txn} open {} ms, timeout {timeout}",
            commit - opened
        );
        // Another engine output: the topic's record of the transaction.
        let (world, _) = rerun(&ex, None);
        let topic = world.external().values().next().unwrap();
        let record = &topic.txns[&txn];
        if survives {
            assert_eq!(record.status, TxnStatus::Committed, "variant {v}");
            committed += 1;
        } else {
            assert_eq!(record.timed_out, Some(timeout), "variant {v}");
            aborted += 1;
        }
        let bound =
            (q["tolerable_failures"] + 1) * (q["interval_ms"] + q["timeout_ms"]) + q["delay_ms"];
        assert_eq!(q["bound_ms"], bound, "variant {v}");
    }
    assert!(
        committed >= 20 && aborted >= 20,
        "both fates: {committed} committed, {aborted} aborted"
    );
}

/// Enough variants that a kind whose answer stopped depending on the variant
/// shows it: each of the answers below occurs many times among them.
const MANY: u64 = 200;

fn why<'a>(ex: &'a Exercise, blank: &str) -> &'a drill::Why {
    ex.blanks
        .iter()
        .find(|b| b.name == blank)
        .and_then(|b| b.why.as_ref())
        .unwrap_or_else(|| panic!("{blank}: no reason"))
}

/// When the first event `pick` matches happened, from the trace.
fn when(trace: &[TraceEvent], pick: impl Fn(&Event) -> bool) -> Option<u64> {
    trace.iter().find(|e| pick(&e.event)).map(|e| e.t)
}

#[test]
fn the_last_acknowledgement_completes_the_checkpoint() {
    let mut lasts = BTreeSet::new();
    let mut completions = BTreeSet::new();
    for v in 0..MANY {
        let ex = exercise(Kind::LastAck, v);
        let q = &ex.question;
        let n = q["checkpoint"];
        let (world, trace) = rerun(&ex, None);
        // Another engine output: the phases view's acknowledgements.
        let phases = world
            .checkpoint_phases()
            .into_iter()
            .find(|p| p.checkpoint.0 == n)
            .unwrap();
        let last = phases
            .subtasks
            .iter()
            .max_by_key(|s| s.ack_at.unwrap())
            .unwrap();
        assert_eq!(label(&ex, "last"), &*last.name, "variant {v}");
        assert_eq!(
            number(&ex, "completed_ms") as u64,
            phases.end_at.unwrap(),
            "variant {v}"
        );
        assert_eq!(
            q["trigger_ms"], phases.trigger_at,
            "variant {v}: the trigger stated"
        );
        // By hand: kafka-out#i is fed by count#i alone, so it is last exactly when
        // count#i handles the barrier last (behind the records queued at it);
        // from there the barrier takes the second latency, and the asynchronous
        // part follows.
        let received = |task: &str| {
            when(&trace, |e| {
                matches!(e, Event::BarrierReceived { task: t, checkpoint, .. }
                    if &**t == task && checkpoint.0 == n)
            })
            .unwrap()
        };
        // As the question states: app1's records reach count#0, app2's count#1.
        for e in &trace {
            if let Event::RecordProcessed { task, key, .. } = &e.event {
                if let Some(i) = task.strip_prefix("count#") {
                    let want = format!("app{}", i.parse::<u32>().unwrap() + 1);
                    assert_eq!(key.as_deref(), Some(&*want), "variant {v}: {task}");
                }
            }
        }
        let index = last.name.rsplit_once('#').unwrap().1.to_string();
        let other = if index == "0" { "1" } else { "0" };
        let (mine, theirs) = (
            received(&format!("count#{index}")),
            received(&format!("count#{other}")),
        );
        assert!(
            mine > theirs,
            "variant {v}: count#{index} at {mine} ms, count#{other} at {theirs} ms"
        );
        assert!(
            mine >= q["trigger_ms"] + q["latency_1_ms"],
            "variant {v}: the barrier is handled before it can arrive"
        );
        let by_hand = mine + q["latency_2_ms"] + q["async_ms"];
        assert_eq!(number(&ex, "completed_ms") as u64, by_hand, "variant {v}");
        // The reason names that subtask and shows the completing acknowledgement.
        let w = why(&ex, "last");
        assert_eq!(w.args["upstream"], format!("count#{index}"), "variant {v}");
        assert_eq!(w.args["received_ms"], mine.to_string(), "variant {v}");
        assert_eq!(w.at_ms, phases.end_at.unwrap(), "variant {v}");
        lasts.insert(label(&ex, "last"));
        completions.insert(number(&ex, "completed_ms"));
    }
    // The answer is the variant's: both kafka-out subtasks are last in some.
    let both: BTreeSet<String> = ["kafka-out#0".into(), "kafka-out#1".into()].into();
    assert_eq!(lasts, both, "the last subtask over {MANY} variants");
    assert!(
        completions.len() >= 50,
        "variants differ: {}",
        completions.len()
    );
}

#[test]
fn the_barrier_leaves_before_the_snapshot_and_the_phases_add_up() {
    let mut firsts = BTreeSet::new();
    let mut times = BTreeSet::new();
    for v in 0..MANY {
        let ex = exercise(Kind::CheckpointPhases, v);
        let q = &ex.question;
        let n = q["checkpoint"];
        let (world, trace) = rerun(&ex, None);
        // The trace, not the phases view: when sum#0 forwarded and acknowledged,
        // and when out#0 took its snapshot.
        let at = |pick: &dyn Fn(&Event) -> bool| when(&trace, pick).unwrap();
        let forwarded = at(&|e| {
            matches!(e, Event::BarrierForwarded { task, checkpoint, .. }
                if &**task == "sum#0" && checkpoint.0 == n)
        });
        let snapshot = at(&|e| {
            matches!(e, Event::SnapshotTaken { task, checkpoint, .. }
                if &**task == "sum#0" && checkpoint.0 == n)
        });
        let acked = at(&|e| {
            matches!(e, Event::CheckpointAcknowledged { task, checkpoint }
                if &**task == "sum#0" && checkpoint.0 == n)
        });
        let downstream = at(&|e| {
            matches!(e, Event::SnapshotTaken { task, checkpoint, .. }
                if &**task == "out#0" && checkpoint.0 == n)
        });
        assert!(forwarded <= snapshot, "variant {v}: Flink forwards first");
        assert_eq!(number(&ex, "forwarded_ms") as u64, forwarded, "variant {v}");
        assert_eq!(number(&ex, "ack_ms") as u64, acked, "variant {v}");
        let triggered = at(
            &|e| matches!(e, Event::CheckpointTriggered { checkpoint, .. } if checkpoint.0 == n),
        );
        assert_eq!(
            q["trigger_ms"], triggered,
            "variant {v}: the trigger stated"
        );
        // By hand: trigger, then the two latencies to sum; the asynchronous part;
        // the third latency to out#0.
        let by_hand = q["trigger_ms"] + q["latency_1_ms"] + q["latency_2_ms"];
        assert_eq!(forwarded, by_hand, "variant {v}: {q:?}");
        assert_eq!(acked, forwarded + q["async_ms"], "variant {v}");
        assert_eq!(downstream, forwarded + q["latency_3_ms"], "variant {v}");
        // The order, from the phases view this time.
        let phases = world
            .checkpoint_phases()
            .into_iter()
            .find(|p| p.checkpoint.0 == n)
            .unwrap();
        let view = |name: &str| {
            phases
                .subtasks
                .iter()
                .find(|s| &*s.name == name)
                .unwrap()
                .clone()
        };
        let (down_at, ack_at) = (
            view("out#0").snapshot_at.unwrap(),
            view("sum#0").ack_at.unwrap(),
        );
        let first = if down_at < ack_at {
            "downstream_snapshot_first"
        } else {
            "ack_first"
        };
        assert_eq!(
            label(&ex, "first"),
            first,
            "variant {v}: {down_at} vs {ack_at}"
        );
        // Each reason replays to the moment that shows its answer: for the order,
        // the run up to it has the first of the two events and not the other.
        let w = why(&ex, "first");
        let (_, shown) = rerun(&ex, Some(w.at_ms));
        let down_seen = when(&shown, |e| {
            matches!(e, Event::SnapshotTaken { task, checkpoint, .. }
                if &**task == "out#0" && checkpoint.0 == n)
        })
        .is_some();
        let ack_seen = when(&shown, |e| {
            matches!(e, Event::CheckpointAcknowledged { task, checkpoint }
                if &**task == "sum#0" && checkpoint.0 == n)
        })
        .is_some();
        assert_eq!(
            (down_seen, ack_seen),
            (first == "downstream_snapshot_first", first == "ack_first"),
            "variant {v}: at {} ms",
            w.at_ms
        );
        assert_eq!(why(&ex, "forwarded_ms").at_ms, forwarded, "variant {v}");
        assert_eq!(why(&ex, "ack_ms").at_ms, acked, "variant {v}");
        firsts.insert(first);
        times.insert((forwarded, acked));
    }
    // The order is the variant's: each way round in some.
    assert_eq!(
        firsts.len(),
        2,
        "the first event over {MANY} variants: {firsts:?}"
    );
    assert!(times.len() >= 50, "variants differ: {}", times.len());
}
