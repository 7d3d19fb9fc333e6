//! Snapshots: what the engine does, frozen byte for byte. Each case is the output of
//! `lab run … --trace --metadata` (every event, then the summary with each completed
//! checkpoint's `_metadata`), compared with `tests/snapshots/<case>.jsonl`. Where the
//! three golden traces (golden.rs) are read by eye, these are a net: they cover the
//! aborts, declines, restart give-ups, JobManager crashes, restores from an earlier
//! job and rescalings of every lesson, so a restructuring that is meant to change
//! nothing is checked to change nothing.
//!
//! The cases:
//! - every built-in lesson in the three modes of `--mode` (`aligned`, `unaligned`,
//!   `at-least-once`): `<name>.<mode>.jsonl`;
//! - the savepoint chains (lessons with `restore`): the whole chain with every job
//!   in one mode, `<name>.chain-<mode>.jsonl`, and each earlier job of the chain run
//!   alone with the chain's seed, `<name>.from-<depth>.<mode>.jsonl`;
//! - the seeded random pipelines of `tests/snapshots/scenarios/random-<n>.json`
//!   (crashes, aligned-checkpoint timeouts, back-pressure; some with rocksdb,
//!   jobmanager storage's size limit, a minimum pause, no checkpoints after tasks
//!   finish, short timeouts) in the three modes: `random-<n>.<mode>.jsonl`.
//!
//! A file in `tests/snapshots/` that no case writes fails the run too (a renamed
//! lesson leaves no stale snapshot behind).
//!
//! Regenerate after an intended change of behaviour — never in CI, which does not set
//! the variable — with
//! `UPDATE_SNAPSHOTS=1 cargo test --profile ci -p checkpoint-engine --test runs snapshots`,
//! then read `git diff crates/engine/tests/snapshots` line by line before committing.

use crate::common;
use engine::runner::BUILTINS;
use engine::scenario::{CheckpointingMode, Scenario};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The modes of `lab run --mode`, as spelled on the command line and in file names.
const MODES: [&str; 3] = ["aligned", "unaligned", "at-least-once"];

/// The seeded random pipelines under `tests/snapshots/scenarios/`.
const RANDOM: std::ops::RangeInclusive<u32> = 1..=8;

fn snapshot_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("snapshots")
}

/// One snapshot: the file it is compared with and the `lab` arguments that produce it.
struct Case {
    file: String,
    args: Vec<String>,
}

impl Case {
    fn new(file: String, args: &[&str]) -> Case {
        Case {
            file,
            args: args.iter().map(|a| a.to_string()).collect(),
        }
    }
}

/// Runs every case; returns one message per case whose output is not its file's.
fn check(cases: &[Case]) -> Vec<String> {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut failures = Vec::new();
    for case in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_lab"))
            .args(&case.args)
            .output()
            .expect("lab runs");
        let command = format!(
            "cargo run -p checkpoint-engine --bin lab -- {}",
            case.args.join(" ")
        );
        if !out.status.success() || !out.stderr.is_empty() {
            failures.push(format!(
                "{command}: exit {:?}, stderr: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        let path = snapshot_dir().join(&case.file);
        if update {
            std::fs::write(&path, &out.stdout).expect("write snapshot");
            continue;
        }
        let want = match std::fs::read(&path) {
            Ok(want) => want,
            Err(e) => {
                failures.push(format!(
                    "{}: {e} (create it with UPDATE_SNAPSHOTS=1)",
                    path.display()
                ));
                continue;
            }
        };
        if out.stdout != want {
            failures.push(first_difference(&path, &out.stdout, &want, &command));
        }
    }
    failures
}

/// Where `got` first departs from `want`, and how to see it.
fn first_difference(path: &Path, got: &[u8], want: &[u8], command: &str) -> String {
    let (got, want) = (String::from_utf8_lossy(got), String::from_utf8_lossy(want));
    let (line, got_line, want_line) =
        common::first_difference(&got, &want).unwrap_or((0, "<equal>", "<equal>"));
    format!(
        "{} differs at line {line} (got {} lines, want {}):\n  got: {got_line}\n want: {want_line}\n  reproduce: {command}",
        path.display(),
        got.lines().count(),
        want.lines().count(),
    )
}

fn assert_none(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} snapshot(s) differ:\n{}\n\nIf the change of behaviour is intended, regenerate with \
         UPDATE_SNAPSHOTS=1 (see this file's header) and review the diff.",
        failures.len(),
        failures.join("\n")
    );
}

fn builtin_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (name, _) in BUILTINS {
        for mode in MODES {
            cases.push(Case::new(
                format!("{name}.{mode}.jsonl"),
                &["run", name, "--trace", "--metadata", "--mode", mode],
            ));
        }
    }
    cases
}

/// Sets the checkpointing mode as `lab run --mode` does, on every job of a chain.
fn set_mode_everywhere(s: &mut Scenario, mode: &str) {
    if let Some(cfg) = s.checkpointing.as_mut() {
        (cfg.mode, cfg.unaligned) = match mode {
            "aligned" => (CheckpointingMode::ExactlyOnce, false),
            "unaligned" => (CheckpointingMode::ExactlyOnce, true),
            _ => (CheckpointingMode::AtLeastOnce, false),
        };
    }
    if let Some(spec) = s.restore.as_mut() {
        set_mode_everywhere(&mut spec.from, mode);
    }
}

/// Writes a scenario document where `lab` can read it.
fn write_doc(file: &str, s: &Scenario) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(file);
    std::fs::write(&path, s.to_json()).expect("write scenario");
    path.display().to_string()
}

fn chain_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (name, json) in BUILTINS {
        let outer = Scenario::from_json(json).expect("built-ins are valid");
        if outer.restore.is_none() {
            continue;
        }
        let seed = outer.seed.to_string();
        for mode in MODES {
            let mut chain = outer.clone();
            set_mode_everywhere(&mut chain, mode);
            let doc = write_doc(&format!("{name}.chain-{mode}.json"), &chain);
            cases.push(Case::new(
                format!("{name}.chain-{mode}.jsonl"),
                &["run", &doc, "--trace", "--metadata"],
            ));
            // The earlier jobs alone, with the seed the chain runs them with.
            let mut link = &outer;
            let mut depth = 0;
            while let Some(spec) = &link.restore {
                depth += 1;
                link = &spec.from;
                let doc = write_doc(&format!("{name}.from-{depth}.json"), link);
                cases.push(Case::new(
                    format!("{name}.from-{depth}.{mode}.jsonl"),
                    &[
                        "run",
                        &doc,
                        "--seed",
                        &seed,
                        "--trace",
                        "--metadata",
                        "--mode",
                        mode,
                    ],
                ));
            }
        }
    }
    assert!(
        !cases.is_empty(),
        "some built-in lesson restores a savepoint"
    );
    cases
}

fn random_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for n in RANDOM {
        let doc = snapshot_dir()
            .join("scenarios")
            .join(format!("random-{n}.json"));
        let doc = doc.display().to_string();
        for mode in MODES {
            cases.push(Case::new(
                format!("random-{n}.{mode}.jsonl"),
                &["run", &doc, "--trace", "--metadata", "--mode", mode],
            ));
        }
    }
    cases
}

#[test]
fn builtins_in_three_modes() {
    assert_none(check(&builtin_cases()));
}

#[test]
fn savepoint_chains() {
    assert_none(check(&chain_cases()));
}

#[test]
fn random_pipelines_in_three_modes() {
    assert_none(check(&random_cases()));
}

/// Every `.jsonl` in the directory is some case's: nothing stale, nothing unchecked.
#[test]
fn no_snapshot_without_a_case() {
    let expected: BTreeSet<String> = builtin_cases()
        .into_iter()
        .chain(chain_cases())
        .chain(random_cases())
        .map(|c| c.file)
        .collect();
    let present: BTreeSet<String> = std::fs::read_dir(snapshot_dir())
        .expect("snapshot dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".jsonl"))
        .collect();
    let stale: Vec<_> = present.difference(&expected).collect();
    assert!(
        stale.is_empty(),
        "snapshot files no case checks (delete them): {stale:?}"
    );
    if std::env::var_os("UPDATE_SNAPSHOTS").is_none() {
        let missing: Vec<_> = expected.difference(&present).collect();
        assert!(
            missing.is_empty(),
            "missing snapshots (create with UPDATE_SNAPSHOTS=1): {missing:?}"
        );
    }
}
