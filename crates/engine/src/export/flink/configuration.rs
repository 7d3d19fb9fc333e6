//! The job's configuration section: where it restores from, its state backend and
//! checkpoint storage, and every checkpointing option (Flink 2.x option or
//! `CheckpointConfig` setter, the 1.x name in a comment where it changed).

use super::{pick_snapshot, Code, Generator};
use crate::scenario::{
    BackendKind, CheckpointingConfig, CheckpointingMode, Externalized, RestoreSpec, StorageKind,
};

impl Generator<'_> {
    pub(super) fn restore_lines(&mut self, c: &mut Code, j: usize, r: &RestoreSpec) {
        let (allow, selector) = (r.allow_non_restored_state, r.snapshot);
        c.comment(2, self.w().restore_from_snapshot);
        c.comment(2, self.w().restore_by_hand);
        c.comment(2, self.w().restore_claim_mode);
        let earlier = self.plans[j - 1].as_ref();
        let chosen = earlier.and_then(|p| pick_snapshot(p, selector));
        let path = match chosen {
            Some((true, k)) => format!("lab.savepoint({}, {k})", j - 1),
            Some((false, _)) => format!("lab.retainedCheckpoint({})", j - 1),
            None => format!("lab.savepoint({}, -1)", j - 1),
        };
        c.line(
            2,
            &format!("conf.set(StateRecoveryOptions.SAVEPOINT_PATH, {path});"),
        );
        c.line(
            2,
            &format!(
                "conf.set(StateRecoveryOptions.RESTORE_MODE, org.apache.flink.core.execution.RecoveryClaimMode.{});",
                r.claim_mode.flink_name()
            ),
        );
        if allow {
            c.comment(2, self.w().allow_non_restored_state);
        }
        c.line(
            2,
            &format!("conf.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, {allow});"),
        );
        if let Some(msg) = &self.lab_refusal {
            c.comment(2, &format!("{} {msg}", self.w().lab_refuses_restore));
        }
    }

    pub(super) fn backend_lines(&mut self, c: &mut Code, cfg: Option<&CheckpointingConfig>) {
        let Some(cfg) = cfg else {
            return;
        };
        match cfg.backend {
            BackendKind::Hashmap => {
                c.comment(2, self.w().backend_hashmap);
                c.line(
                    2,
                    "conf.set(StateBackendOptions.STATE_BACKEND, \"hashmap\");",
                );
            }
            BackendKind::Rocksdb => {
                c.comment(2, self.w().backend_rocksdb);
                c.line(
                    2,
                    "conf.set(StateBackendOptions.STATE_BACKEND, \"rocksdb\");",
                );
                c.line(
                    2,
                    "conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);",
                );
            }
        }
        match cfg.storage {
            StorageKind::Filesystem => {
                c.comment(2, self.w().storage_filesystem);
                c.line(
                    2,
                    "conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, \"filesystem\");",
                );
                c.line(2, "conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, lab.uri(\"checkpoints\"));");
            }
            StorageKind::Jobmanager => {
                c.comment(2, self.w().storage_jobmanager);
                c.line(
                    2,
                    "conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, \"jobmanager\");",
                );
            }
        }
        c.line(
            2,
            "conf.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, lab.uri(\"savepoints\"));",
        );
        c.line(
            2,
            &format!(
                "conf.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, {}); // execution.checkpointing.num-retained (1.x: state.checkpoints.num-retained)",
                cfg.retained
            ),
        );
        if !cfg.checkpoints_after_tasks_finish {
            c.line(
                2,
                "conf.set(CheckpointingOptions.ENABLE_CHECKPOINTS_AFTER_TASKS_FINISH, false); // FLIP-147 off",
            );
        }
    }

    pub(super) fn checkpoint_lines(&mut self, c: &mut Code, cfg: Option<&CheckpointingConfig>) {
        let Some(cfg) = cfg else {
            c.comment(2, self.w().checkpointing_off);
            return;
        };
        let mode = match cfg.mode {
            CheckpointingMode::ExactlyOnce => "EXACTLY_ONCE",
            CheckpointingMode::AtLeastOnce => "AT_LEAST_ONCE",
        };
        c.comment(2, self.w().checkpointing_heading);
        match cfg.interval_ms {
            Some(_) => {
                let interval = self.ms(cfg.interval_ms.unwrap_or(0));
                c.line(
                    2,
                    &format!("env.enableCheckpointing({interval}, CheckpointingMode.{mode});"),
                );
            }
            None => {
                c.comment(2, self.w().interval_null_one_day);
                c.line(
                    2,
                    &format!("env.enableCheckpointing(86400000L, CheckpointingMode.{mode});"),
                );
            }
        }
        c.line(
            2,
            &format!(
                "env.getCheckpointConfig().setCheckpointTimeout({});",
                self.ms(cfg.timeout_ms)
            ),
        );
        c.line(
            2,
            &format!(
                "env.getCheckpointConfig().setMinPauseBetweenCheckpoints({});",
                self.ms(cfg.min_pause_ms)
            ),
        );
        c.line(
            2,
            &format!(
                "env.getCheckpointConfig().setMaxConcurrentCheckpoints({});",
                cfg.max_concurrent
            ),
        );
        c.line(
            2,
            &format!(
                "env.getCheckpointConfig().setTolerableCheckpointFailureNumber({});",
                cfg.tolerable_failures
            ),
        );
        c.line(
            2,
            &format!(
                "env.getCheckpointConfig().enableUnalignedCheckpoints({});",
                cfg.unaligned
            ),
        );
        if let Some(t) = cfg.aligned_checkpoint_timeout_ms {
            c.line(
                2,
                &format!(
                    "env.getCheckpointConfig().setAlignedCheckpointTimeout(Duration.ofMillis({})); // 1.x: setAlignmentTimeout",
                    self.ms(t)
                ),
            );
        }
        let retention = match cfg.externalized {
            Externalized::None => "NO_EXTERNALIZED_CHECKPOINTS",
            Externalized::DeleteOnCancellation => "DELETE_ON_CANCELLATION",
            Externalized::RetainOnCancellation => "RETAIN_ON_CANCELLATION",
        };
        c.line(
            2,
            &format!("env.getCheckpointConfig().setExternalizedCheckpointRetention(ExternalizedCheckpointRetention.{retention});"),
        );
        c.line(
            2,
            &format!(
                "// 1.x: env.getCheckpointConfig().enableExternalizedCheckpoints(CheckpointConfig.ExternalizedCheckpointCleanup.{retention})"
            ),
        );
        if cfg.externalized == Externalized::RetainOnCancellation {
            // A checkpoint retained on cancel is only useful once a job starts from it.
            c.comment(2, self.w().restore_by_hand);
            c.comment(2, self.w().restore_claim_mode);
        }
    }
}
