//! Every lesson under every checkpointing mode the page offers: the sink
//! verdicts say "lost" or "duplicated" only where the engine's meter counts a
//! loss or a duplicate (and a timing difference is never counted as either),
//! and at every key moment the caption names only the transactions and the
//! checkpoints the stage shows then — the sink lanes' transaction chips and
//! state lines, the coordinator's strip, the lanes' `chk-n` marks, checkpoint
//! storage and the scrubber's marks so far.

use std::collections::BTreeSet;

use engine::scenario::points::PointEvent;
use engine::scenario::{Scenario, ScriptStep, SinkKind, StorageKind};
use engine::verdict::SinkVerdicts;
use engine::view::CheckpointStatus;
use engine::view::WorldView;

use crate::components::sink_panel::meter_lines;
use crate::describe::caption_sentence;
use crate::i18n::{Lang, Msg};
use crate::playback::cursor::Cursor;
use crate::playback::{KeyMoment, LoggedEvent, Mode, MomentKind, Run};

/// Numbers written after any of `words` (case-insensitive), and a list of them
/// (`checkpoints 1, 2`).
fn numbers_after(text: &str, words: &[&str]) -> BTreeSet<u64> {
    let lower = text.to_lowercase();
    let mut out = BTreeSet::new();
    for w in words {
        for (at, _) in lower.match_indices(w) {
            let mut rest = &lower[at + w.len()..];
            loop {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let Ok(n) = digits.parse() else { break };
                out.insert(n);
                rest = &rest[digits.len()..];
                match rest.strip_prefix(", ") {
                    Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) => rest = r,
                    _ => break,
                }
            }
        }
    }
    out
}

/// The transaction numbers a text names: `T12`, `transaction 12`, `事务 12`.
fn transactions_in(text: &str) -> BTreeSet<u64> {
    let mut out = numbers_after(text, &["transaction ", "transaction t", "事务 ", "事务 t"]);
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if *c == 'T' && (i == 0 || !chars[i - 1].is_alphanumeric()) {
            let digits: String = chars[i + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            if let Ok(n) = digits.parse() {
                out.insert(n);
            }
        }
    }
    out
}

/// The checkpoint ids a text names (a barrier carries its checkpoint's id).
fn checkpoints_in(text: &str) -> BTreeSet<u64> {
    numbers_after(
        text,
        &[
            "checkpoint ",
            "checkpoints ",
            "checkpoints lost: ",
            "these checkpoints: ",
            "barrier ",
            "savepoint ",
            "chk-",
            "chk ",
            "检查点 ",
            "检查点：",
            "屏障 ",
            "保存点 ",
        ],
    )
}

/// What the stage shows at `step` of `run`, whose world there is `view`:
/// `(transactions, checkpoints)`.
fn shown(run: &Run, view: &WorldView, step: u64, lang: Lang) -> (BTreeSet<u64>, BTreeSet<u64>) {
    let scene = crate::scene::scene(&run.job, view, view.now as f64);
    let mut txns = BTreeSet::new();
    let mut chks = BTreeSet::new();
    for lane in &scene.lanes {
        if let Some((id, _)) = lane.txn.filter(|_| !lane.is_restarting) {
            txns.insert(id);
        }
        if let Some(state) = &lane.state {
            let mut text = state.text(lang);
            for extra in [&state.snapshot, &state.rewind].into_iter().flatten() {
                text.push(' ');
                text.push_str(extra);
            }
            txns.extend(transactions_in(&text));
            chks.extend(checkpoints_in(&text));
        }
        chks.extend(lane.last_checkpoint);
    }
    let c = &view.coordinator;
    chks.extend(c.pending.iter().map(|p| p.id.0));
    chks.extend(
        c.history
            .iter()
            .rev()
            .find(|h| h.status == CheckpointStatus::Completed)
            .map(|h| h.id.0),
    );
    chks.extend(c.storage.iter().map(|s| s.id.0));
    chks.extend(
        run.markers()
            .iter()
            .filter(|m| m.step <= step)
            .filter_map(|m| m.checkpoint),
    );
    (txns, chks)
}

/// A verdict line that says a loss or a duplicate says one the engine counts;
/// a sink whose outputs depend on timing counts neither.
fn verdict_problems(verdicts: &[SinkVerdicts], lang: Lang, at: &str) -> Vec<String> {
    let lost_word = lang.t(Msg::VerdictLost).replace("{n}", "");
    let dup_word = lang.t(Msg::VerdictDuplicates).replace("{n}", "");
    let mut bad = Vec::new();
    for v in verdicts {
        if v.timing.is_some() && (v.counts.lost, v.counts.duplicates) != (0, 0) {
            bad.push(format!(
                "{at} {}: a timing difference counted as lost or duplicated: {:?}",
                v.uid, v.counts
            ));
        }
        for line in meter_lines(v, lang) {
            let says_lost = line.text.contains(lost_word.trim()) && line.n > 0;
            let says_dup = line.text.contains(dup_word.trim()) && line.n > 0;
            if (says_lost && line.n != v.counts.lost) || (says_dup && line.n != v.counts.duplicates)
            {
                bad.push(format!(
                    "{at} {}: \"{}\" but the meter counts {:?}",
                    v.uid, line.text, v.counts
                ));
            }
        }
    }
    bad
}

/// Whether a lesson's point is that exactly-once breaks: checkpoints that die
/// with the JobManager (jobmanager storage), or a transaction timeout shorter
/// than a transaction can stay uncommitted (the validation warns).
fn breaks_exactly_once(s: &Scenario) -> bool {
    let jm_lost = s
        .script
        .iter()
        .any(|x| matches!(x, ScriptStep::CrashJobmanager { .. }))
        && s.checkpoint_config().storage == StorageKind::Jobmanager;
    let short_txn_timeout = s
        .validate()
        .unwrap_or_default()
        .iter()
        .any(|w| w.contains("transaction_timeout_ms"));
    jm_lost || short_txn_timeout
}

/// Words the caption says at a declared point's moment (zh, en).
fn point_words(point: PointEvent) -> (&'static [&'static str], &'static [&'static str]) {
    match point {
        PointEvent::CheckpointCompleted => (&["完成"], &["complete"]),
        PointEvent::CheckpointExpired => (&["过期", "過期"], &["expired"]),
        PointEvent::CheckpointAborted => (&["中止", "过期", "過期"], &["aborted", "expired"]),
        PointEvent::AlignmentTimedOut => (&["非对齐", "非對齊"], &["switched it to unaligned"]),
        PointEvent::BarrierOvertook => (&["越过", "越過"], &["overtook"]),
        PointEvent::TaskFailed => (&["故障", "失败", "失敗"], &["fail"]),
        PointEvent::Failover => (&["重启", "重啟"], &["restart"]),
        PointEvent::JobFailed => (&["作业失败", "作業失敗"], &["the job failed"]),
        PointEvent::JobCanceled => (&["取消"], &["canceled"]),
        PointEvent::JobFinished => (&["完成"], &["finished"]),
        PointEvent::JobmanagerFailed => (&["jobmanager"], &["jobmanager"]),
        PointEvent::StateRestored => (&["恢复", "状态", "恢復", "狀態"], &["restored", "no state"]),
        PointEvent::TransactionCommitted => (&["提交"], &["committed"]),
        PointEvent::TransactionAborted => (&["中止"], &["aborted"]),
        PointEvent::TransactionCommitFailed => (&["丢失", "遺失", "丟失"], &["lost"]),
        PointEvent::ClaimedSnapshotDeleted | PointEvent::CheckpointsDiscarded => {
            (&["删除", "刪除"], &["deleted"])
        }
    }
}

/// What is wrong with the caption at key moment `m` (both languages).
fn caption_problems(run: &Run, m: &KeyMoment, at: &str) -> Vec<String> {
    let world = run.seek(m.step);
    let view = world.view();
    let log: &[LoggedEvent] = run.log();
    let end = log.partition_point(|e| e.step <= m.step);
    let recent = &log[end.saturating_sub(512)..end];
    let mut bad = Vec::new();
    for lang in Lang::ALL {
        let Some(caption) = caption_sentence(recent, Some(m), lang) else {
            bad.push(format!("{at}: no caption"));
            continue;
        };
        // The badge and the sentence describe the same event.
        let (words, en_words): (&[&str], &[&str]) = match m.kind {
            MomentKind::Blocked => (&["阻塞"], &["blocks"]),
            MomentKind::Snapshot => (&["快照"], &["snapshot"]),
            MomentKind::Completed => (&["完成"], &["complete"]),
            MomentKind::Crash => (&["故障", "崩溃", "崩潰"], &["fail", "crash"]),
            MomentKind::Restore => (&["恢复", "状态", "恢復", "狀態"], &["restored", "no state"]),
            MomentKind::Commit => (
                &["提交事务", "提交了事务", "提交事務", "提交了事務"],
                &["committed"],
            ),
            MomentKind::Point(point) => point_words(point),
        };
        let words = if lang == Lang::En { en_words } else { words };
        if !words.iter().any(|w| caption.to_lowercase().contains(w)) {
            bad.push(format!(
                "{at} ({}): the badge says {:?} but the caption says \"{caption}\"",
                lang.code(),
                m.kind
            ));
        }
        let (txns, chks) = shown(run, &view, m.step, lang);
        let missing_t: Vec<_> = transactions_in(&caption)
            .difference(&txns)
            .copied()
            .collect();
        let missing_c: Vec<_> = checkpoints_in(&caption)
            .difference(&chks)
            .copied()
            .collect();
        if !missing_t.is_empty() || !missing_c.is_empty() {
            bad.push(format!(
                "{at} ({}): \"{caption}\" names transactions {missing_t:?} / checkpoints {missing_c:?} the stage does not show (it shows T{txns:?}, chk {chks:?})",
                lang.code()
            ));
        }
    }
    bad
}

/// Every built-in lesson × aligned, unaligned, at-least-once: the verdicts at
/// every key moment and at the end, and the caption at every key moment.
#[test]
fn verdicts_and_key_moment_captions_tell_the_truth() {
    let mut bad = Vec::new();
    let (mut runs, mut moments, mut judged) = (0, 0, 0);
    for (name, _) in engine::runner::BUILTINS {
        for mode in Mode::CHOICES {
            let Ok(mut cursor) = Cursor::load(name, None, Some(mode)) else {
                continue;
            };
            let run = &mut cursor.run;
            while run.advance_head() {}
            runs += 1;
            let at = format!("{name} {}", mode.key());
            for m in run.moments().to_vec() {
                moments += 1;
                let at = format!("{at} {:?}@{}ms", m.kind, m.at);
                bad.extend(caption_problems(run, &m, &at));
                if let Some(reference) = &run.reference {
                    let view = run.seek(m.step).view();
                    for lang in Lang::ALL {
                        bad.extend(verdict_problems(&reference.judge(&view), lang, &at));
                    }
                    judged += 1;
                }
            }
            if let Some(reference) = &run.reference {
                let view = run.head().view();
                let verdicts = reference.judge(&view);
                for lang in Lang::ALL {
                    bad.extend(verdict_problems(&verdicts, lang, &format!("{at} end")));
                }
                // The ground truth, apart from the meter: an exactly-once run of
                // a two-phase-commit sink that finishes loses and repeats nothing
                // (unless the lesson's point is that it does).
                if mode != Mode::AtLeastOnce
                    && view.status == engine::JobStatus::Finished
                    && !breaks_exactly_once(&run.scenario)
                {
                    for v in verdicts
                        .iter()
                        .filter(|v| v.kind == SinkKind::TwoPhaseCommit)
                    {
                        for line in meter_lines(v, Lang::En) {
                            if matches!(line.key, "lost" | "duplicates") && line.n > 0 {
                                bad.push(format!(
                                    "{at} end {}: an exactly-once run says \"{}\"",
                                    v.uid, line.text
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!("{runs} runs, {moments} key moments, {judged} judged");
    assert!(
        runs >= 3 * 30 && moments > 500,
        "{runs} runs, {moments} moments"
    );
    assert!(bad.is_empty(), "{}\n{} problems", bad.join("\n"), bad.len());
}

#[test]
fn numbers_are_read_as_the_captions_write_them() {
    assert_eq!(
        transactions_in("audit#0 aborted transaction T12 (T3)"),
        BTreeSet::from([3, 12])
    );
    assert_eq!(transactions_in("事务 12"), BTreeSet::from([12]));
    assert_eq!(
        checkpoints_in("Checkpoint 3 is complete; checkpoints lost: 1, 2"),
        BTreeSet::from([1, 2, 3])
    );
    assert_eq!(checkpoints_in("屏障 4 到达"), BTreeSet::from([4]));
    assert!(checkpoints_in("sum#0 failed").is_empty());
}
