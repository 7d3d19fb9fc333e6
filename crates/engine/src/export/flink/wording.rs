//! The exporter's words: every comment and note it writes into the Java file, in
//! each language. One table per language (`wording/en.rs`, `wording/zh.rs`, and
//! `wording/zh_hant.rs`, generated from `zh.rs` by `scripts/hant.cjs` and checked
//! by its `--check`), all [`Wording`]s, so a translation is read and changed in one
//! place; the generator only picks the table ([`of`]). Texts with values in them
//! are functions.
//!
//! Flink has no counterpart: this is the lab's own explanation of the mapping.

use super::script::{CrashPoint, HoldPoint, IgnoredBecause};
use super::Lang;

mod en;
mod zh;
#[rustfmt::skip]
mod zh_hant;

/// The exporter's words in one language.
pub(super) struct Wording {
    /// Above the constants of the lab's run.
    pub run_decisions: &'static str,
    /// After `TIME_SCALE`.
    pub time_scale_unit: &'static str,
    /// Above `run(String[], MiniCluster)`.
    pub test_harness_entry: &'static str,
    /// Names a job that runs before the lesson's own (its snapshot is restored).
    pub earlier_job: &'static str,
    /// Approximation: how sources emit.
    pub approx_sources: &'static str,
    /// Approximation: channel latency and capacity.
    pub approx_channels: &'static str,
    /// Approximation: operator chaining.
    pub approx_chaining: &'static str,
    /// Approximation: `process_ms`.
    pub approx_process_ms: &'static str,
    /// Approximation: `async_ms`.
    pub approx_async_ms: &'static str,
    /// Approximation: `max_state_bytes`.
    pub approx_max_state_bytes: &'static str,
    /// Approximation: a `null` interval.
    pub approx_manual_interval: &'static str,
    /// Approximation: a sink's `transaction_timeout_ms`.
    pub approx_transaction_timeout: &'static str,
    /// The file's first line, after the lesson's name and title.
    pub lesson_export_title: &'static str,
    /// How to compile and run the file.
    pub needs_flink_jars: &'static str,
    /// After the `scripts/flink.sh` command.
    pub in_checkpoint_lab: &'static str,
    /// Where the job runs and what it prints.
    pub runs_on_minicluster: &'static str,
    /// Above the list of approximations.
    pub approximations_heading: &'static str,
    /// Names the lesson's own job.
    pub this_job: &'static str,
    /// After `disableOperatorChaining()`.
    pub chaining_off: &'static str,
    /// After `setBufferTimeout(0)`.
    pub buffer_timeout_zero: &'static str,
    /// After `setMaxParallelism`.
    pub key_group_count: &'static str,
    /// When the job sets no max parallelism.
    pub max_parallelism_derived: &'static str,
    /// Above the savepoint path of a restored job.
    pub restore_from_snapshot: &'static str,
    /// The same restore by hand: taking a savepoint, `flink run -s … -claimMode … -n`.
    pub restore_by_hand: &'static str,
    /// Who owns the restored snapshot: the claim modes.
    pub restore_claim_mode: &'static str,
    /// Above `SAVEPOINT_IGNORE_UNCLAIMED_STATE` when it is set.
    pub allow_non_restored_state: &'static str,
    /// Before the lab's reason for refusing a restore.
    pub lab_refuses_restore: &'static str,
    /// The hashmap state backend.
    pub backend_hashmap: &'static str,
    /// The rocksdb state backend.
    pub backend_rocksdb: &'static str,
    /// Filesystem checkpoint storage.
    pub storage_filesystem: &'static str,
    /// JobManager checkpoint storage.
    pub storage_jobmanager: &'static str,
    /// No restart strategy, checkpointing on.
    pub restart_default_exponential: &'static str,
    /// No restart strategy, checkpointing off.
    pub restart_default_none: &'static str,
    /// The `none` restart strategy.
    pub restart_none: &'static str,
    /// The fixed-delay restart strategy (before its 1.x spelling).
    pub restart_fixed_delay: &'static str,
    /// The failure-rate restart strategy (before its 1.x spelling).
    pub restart_failure_rate: &'static str,
    /// The exponential-delay restart strategy.
    pub restart_exponential_delay: &'static str,
    /// A scenario without `checkpointing`.
    pub checkpointing_off: &'static str,
    /// Above the checkpoint configuration.
    pub checkpointing_heading: &'static str,
    /// A `null` interval.
    pub interval_null_one_day: &'static str,
    /// Above the job graph.
    pub job_graph: &'static str,
    /// After the JobManager storage's size limit.
    pub bytes_per_state: &'static str,
    /// Approximation: TTL background cleanup on RocksDB.
    pub approx_ttl_rocksdb_background: &'static str,
    /// Approximation: TTL background cleanup disabled.
    pub approx_ttl_background_disabled: &'static str,
    /// Approximation: TTL incremental cleanup on RocksDB.
    pub approx_ttl_rocksdb_incremental: &'static str,
    /// Above `lab.execute`.
    pub run_script: &'static str,
    /// Approximation: the time scale.
    pub approx_time_scale: fn(f64) -> String,
    /// Approximation: where a scripted crash is thrown.
    pub approx_crash: fn(&CrashPoint) -> String,
    /// Approximation: a savepoint taken where the sources hold (`savepoint` or `stop_with_savepoint`).
    pub approx_held_savepoint: fn(&str, &HoldPoint) -> String,
    /// Approximation: a checkpoint trigger or cancel at a lab time.
    pub approx_timed: fn(&str, u64) -> String,
    /// Approximation: a savepoint the lab did not complete, at its lab time.
    pub approx_unheld_savepoint: fn(&str, u64) -> String,
    /// Approximation: a script step left out, and why.
    pub approx_ignored: fn(&str, u64, &IgnoredBecause) -> String,
}

/// The words in `lang`.
pub(super) fn of(lang: Lang) -> &'static Wording {
    match lang {
        Lang::En => &en::WORDING,
        Lang::Zh => &zh::WORDING,
        Lang::ZhHant => &zh_hant::WORDING,
    }
}
