//! The exporter's words in English.

use super::Wording;

pub(super) static WORDING: Wording = Wording {
    run_decisions: "What the lab's run of this scenario decided: where the script's actions land.",
    time_scale_unit: "wall-clock ms per lab ms",
    test_harness_entry: "For a test harness that runs many jobs on one MiniCluster.",
    earlier_job: "The earlier job",
    approx_sources: "Sources: record i is emitted no earlier than its at_ms after the first source started, and at most one record per emit_interval_ms; after a restore, the records already due are replayed at once.",
    approx_channels: "Channels: latency_ms and buffer_capacity have no Flink counterpart (Flink's network has no fixed delay and bounds buffers, not records): every record is sent at once (setBufferTimeout(0)).",
    approx_chaining: "Operator chaining is off (disableOperatorChaining), as the lab draws every operator as its own task; remove that line to let Flink chain.",
    approx_process_ms: "process_ms: the function sleeps that long after each record (the lab's operator is busy that long per record).",
    approx_async_ms: "async_ms: no counterpart; Flink's asynchronous snapshot phase takes as long as the upload really takes.",
    approx_max_state_bytes: "max_state_bytes: Flink compares its limit with real serialized bytes per state handle, not the lab's byte-size model, so other snapshots exceed it.",
    approx_transaction_timeout: "transaction_timeout_ms: no counterpart in the exported file sink, which has no broker to abort its transactions; with KafkaSink it is the producer property transaction.timeout.ms (KafkaSinkBuilder.setProperty(\"transaction.timeout.ms\", …)), which a broker aborting a late transaction turns into lost records.",
    approx_manual_interval: "interval_ms null: Flink has no checkpointing without an interval; the export sets one day, triggers the script's checkpoints through the cluster, and a final checkpoint once the sources finish.",
    lesson_export_title: "a checkpoint-lab lesson as a Flink 2.3 DataStream job (`lab export flink`).",
    needs_flink_jars: "Needs nothing but Flink's own jars (pip install apache-flink-libraries==2.3.0 puts them in pyflink/lib):",
    in_checkpoint_lab: "in checkpoint-lab",
    runs_on_minicluster: "It runs on a local MiniCluster in this JVM (--ui keeps Flink's web UI on http://127.0.0.1:8081 until Ctrl-C) and prints the run's summary as one JSON line, in the shape of `lab run`'s.",
    approximations_heading: "Approximations (settings without a Flink counterpart, and how they are mapped):",
    this_job: "This job",
    chaining_off: "as the lab: every operator its own task",
    buffer_timeout_zero: "send every record at once (Flink's default: when a buffer is full, or after 100 ms)",
    key_group_count: "number of key groups",
    max_parallelism_derived: "Max parallelism is not set: Flink derives it (128 for every parallelism up to 85), and a restored savepoint's value replaces it.",
    restore_from_snapshot: "Start from a snapshot of the earlier job, as `flink run -s <savepoint>` does (execution.state-recovery.path, formerly execution.savepoint.path).",
    restore_by_hand: "By hand on a cluster: `flink savepoint <jobId> [targetDirectory]` writes a savepoint (the user owns it; Flink never deletes it); `flink cancel <jobId>` with RETAIN_ON_CANCELLATION leaves the last checkpoint in <checkpoint dir>/<jobId>/chk-N. Start the new job from either: `flink run -s <savepoint dir> [-n] job.jar`, or `flink run -s <checkpoint dir>/<jobId>/chk-N/_metadata -claimMode NO_CLAIM job.jar` (-restoreMode before Flink 2.0, still accepted).",
    restore_claim_mode: "Claim mode (execution.state-recovery.claim-mode): NO_CLAIM, the default, leaves the snapshot to the user and makes the first new checkpoint a full one; CLAIM hands it to Flink, which deletes it once a newer checkpoint subsumes it. The lab models both (scenario field restore.claim_mode).",
    allow_non_restored_state: "--allowNonRestoredState (-n): skip state of operators this job no longer has (1.x: execution.savepoint.ignore-unclaimed-state).",
    lab_refuses_restore: "The lab refuses this restore:",
    backend_hashmap: "State backend: hashmap — keyed state as objects on the heap, full snapshots (1.x: env.setStateBackend(new HashMapStateBackend())).",
    backend_rocksdb: "State backend: rocksdb with incremental checkpoints — each checkpoint uploads only the new SST files (1.x: env.setStateBackend(new EmbeddedRocksDBStateBackend(true))).",
    storage_filesystem: "Checkpoint storage: filesystem, a checkpoint directory (1.x: env.getCheckpointConfig().setCheckpointStorage(\"file:///…\")).",
    storage_jobmanager: "Checkpoint storage: jobmanager — snapshots in the JobManager's memory, each state limited in size (set on the job graph below; 1.x: setCheckpointStorage(new JobManagerCheckpointStorage(size))).",
    restart_default_exponential: "Restart strategy: not set, so Flink's default while checkpointing is on — exponential delay (1 s, ×1.5, at most 60 s). The lab has no jitter:",
    restart_default_none: "Restart strategy: not set and checkpointing off, so none (Flink's default).",
    restart_none: "Restart strategy: none (1.x: env.setRestartStrategy(RestartStrategies.noRestart())).",
    restart_fixed_delay: "Restart strategy: fixed delay",
    restart_failure_rate: "Restart strategy: failure rate",
    restart_exponential_delay: "Restart strategy: exponential delay, without jitter as in the lab (1.x: RestartStrategies.exponentialDelayRestart(…)).",
    checkpointing_off: "Checkpointing is off (the scenario has no `checkpointing`).",
    checkpointing_heading: "Checkpointing (CheckpointingMode is org.apache.flink.core.execution.CheckpointingMode in 2.x; 1.x: org.apache.flink.streaming.api.CheckpointingMode).",
    interval_null_one_day: "interval_ms null (manual checkpoints only) has no Flink counterpart: one day.",
    job_graph: "The job graph.",
    bytes_per_state: "bytes per state",
    approx_ttl_rocksdb_background: "TTL: background cleanup on RocksDB is its compaction filter, which the lab (no compaction) replaces by an incremental cleanup of 5 entries per access.",
    approx_ttl_background_disabled: "TTL: background cleanup is disabled (disableCleanupInBackground) to match the lab, which cleans up only as configured; Flink's default since 1.10 cleans in the background (\"in_background\": true).",
    approx_ttl_rocksdb_incremental: "TTL: Flink skips incremental cleanup on RocksDB (its state has no iterator for it); the lab cleans up incrementally on both backends.",
    run_script: "Run it, playing the lab's script (see the list at the top).",
    approx_time_scale: |scale| {
        format!("Time: the lab's milliseconds are scaled by {scale} (time scale) onto the wall clock; lab times below are the lab's.")
    },
    approx_crash: |cr| match &cr.after {
        Some((src, part, off)) => format!("crash of {} at {} ms (attempt {}): thrown when {} has handled the record of {src} partition {part} at offset {off} or later, the last one it handled before the lab's crash.", cr.task, cr.at_ms, cr.attempt, cr.task),
        None => format!("crash of {} at {} ms (attempt {}): it handled no record before the lab's crash; thrown after its first record.", cr.task, cr.at_ms, cr.attempt),
    },
    approx_held_savepoint: |action, h| {
        format!("{action} at {} ms: taken once every source has read exactly what the lab's savepoint {} stored (the sources wait there), through the job client.", h.at_ms, h.checkpoint)
    },
    approx_timed: |action, at_ms| {
        format!("{action} at {at_ms} ms: at that lab time after the sources started (wall clock).")
    },
    approx_unheld_savepoint: |action, at_ms| {
        format!("{action} at {at_ms} ms: the lab completed none there, so it is taken at that lab time (wall clock).")
    },
    approx_ignored: |action, at_ms, reason| {
        format!(
            "{action} at {at_ms} ms is left out: the lab ignores it ({}).",
            reason.en()
        )
    },
};
