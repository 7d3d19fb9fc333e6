//! Golden traces: `lab run <builtin> --trace` output, compared byte for byte with
//! `tests/golden/<name>.jsonl`. The trace is the engine's observable behaviour, so
//! any change to it — wanted or not — shows up here as a diff.
//!
//! Regenerate after an intended change with
//! `UPDATE_GOLDEN=1 cargo test --profile ci -p checkpoint-engine --test runs golden`,
//! then read the diff (`git diff crates/engine/tests/golden`) against
//! docs/flink-semantics.md before committing it.
//!
//! What was checked by eye when these were first locked:
//! - `odd-even-sum`: checkpoint 1 at 550 holds offset 5, even 6, odd 9; the sink
//!   pre-commits txn 1 at its barrier and begins txn 2, commits txn 1 on
//!   completion; the crash at 710 aborts the open txn 2 (its record `even 12` stays
//!   visible to read_uncommitted only); restart after the fixed 500 ms delay,
//!   every task restored from checkpoint 1, the source re-reads from offset 5
//!   (value 6), the sums continue 12 (6+6), 16 (9+7), …; the final checkpoint is
//!   triggered once every task drained and commits txn 3; the job finishes.
//! - `barrier-alignment`: `merge` blocks channel 0 when the numbers barrier
//!   arrives (505), the numbers 1, 2, 3 are `record_buffered` behind it, the
//!   letters barrier (550) completes the alignment: snapshot, then unblock, then
//!   1, 2, 3 are processed (after the snapshot); alignment_ms 45.
//! - `unaligned-backpressure` (until 1030): the sources' unaligned barriers overtake
//!   their output queues (state_bytes 34 = offset 16 + one persisted record 18),
//!   each task snapshots on its first barrier and persists what the barrier
//!   overtook per channel (`barrier_overtook`), the checkpoint completes at 1020
//!   with alignment_ms 5 (first to last barrier at `out#0`).

use crate::common;
use std::path::PathBuf;
use std::process::Command;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden")
}

fn check(file: &str, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_lab"))
        .args(args)
        .output()
        .expect("lab runs");
    assert!(
        out.status.success(),
        "lab {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "lab {args:?} wrote to stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = golden_dir().join(file);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(golden_dir()).expect("golden dir");
        std::fs::write(&path, &out.stdout).expect("write golden");
        return;
    }
    let want = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    let (got, want) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&want),
    );
    if let Some((line, got_line, want_line)) = common::first_difference(&got, &want) {
        panic!(
            "lab {args:?} differs from {} at line {line} (got {} lines, want {}):\n got: {got_line}\nwant: {want_line}\n\
             If the change is intended, regenerate with UPDATE_GOLDEN=1 and review the diff.",
            path.display(),
            got.lines().count(),
            want.lines().count(),
        );
    }
}

#[test]
fn odd_even_sum() {
    check("odd-even-sum.jsonl", &["run", "odd-even-sum", "--trace"]);
}

#[test]
fn odd_even_sum_metadata() {
    check(
        "odd-even-sum.metadata.jsonl",
        &["run", "odd-even-sum", "--metadata"],
    );
}

#[test]
fn barrier_alignment() {
    check(
        "barrier-alignment.jsonl",
        &["run", "barrier-alignment", "--trace"],
    );
}

#[test]
fn unaligned_backpressure_first_checkpoint() {
    check(
        "unaligned-backpressure.until-1030.jsonl",
        &[
            "run",
            "unaligned-backpressure",
            "--trace",
            "--until",
            "1030",
        ],
    );
}
