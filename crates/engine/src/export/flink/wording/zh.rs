//! The exporter's words in Simplified Chinese. `zh_hant.rs` is generated from
//! this file by `node scripts/hant.cjs`: edit here, then regenerate.

use super::Wording;
use crate::cause::IgnoreCause;
use crate::export::flink::script::IgnoredBecause;
use crate::status::JobStatus;

/// Why the lab ignored a script step (`IgnoredBecause::en` in English).
fn ignored(reason: &IgnoredBecause) -> String {
    let word = |status: JobStatus| match status {
        JobStatus::Restarting => "作业正在重启",
        JobStatus::Failed => "作业已失败",
        JobStatus::Finished => "作业已结束",
        JobStatus::Canceled => "作业已取消",
        JobStatus::Running => "作业正在运行",
    };
    match reason {
        IgnoredBecause::Lab(IgnoreCause::JobNotRunning(status)) => word(*status).into(),
        IgnoredBecause::Ended { status, end_ms } => {
            format!("{}，自 {end_ms} ms 起", word(*status))
        }
        IgnoredBecause::NoSuchFailure => "实验室的运行中没有这次故障".into(),
    }
}

pub(super) static WORDING: Wording = Wording {
    run_decisions: "实验室运行该场景得出的信息：脚本中各动作落在何处。",
    time_scale_unit: "每个实验室毫秒对应的真实毫秒数",
    test_harness_entry: "供在同一个 MiniCluster 上连续运行多个作业的测试程序使用。",
    earlier_job: "先运行的旧作业",
    approx_sources: "Source：第 i 条记录不早于第一个 source 启动后的 at_ms 发出，每 emit_interval_ms 至多一条；恢复后已到期的记录立即重放。",
    approx_channels: "通道：latency_ms 和 buffer_capacity 在 Flink 中没有对应（Flink 的网络没有固定延迟，限制的是缓冲区而不是记录数）：每条记录立即发送（setBufferTimeout(0)）。",
    approx_chaining: "关闭了算子链（disableOperatorChaining），与实验室中每个算子是独立任务一致；删掉这一行即可让 Flink 组链。",
    approx_process_ms: "process_ms：函数在每条记录之后休眠这么久（实验室中算子每条记录忙碌这么久）。",
    approx_async_ms: "async_ms：没有对应；Flink 的异步快照阶段耗时就是真实上传所需的时间。",
    approx_max_state_bytes: "max_state_bytes：Flink 用真实的序列化字节数（按 state handle）与上限比较，而不是实验室的字节模型，所以超限的快照会不同。",
    approx_transaction_timeout: "transaction_timeout_ms：导出的文件 sink 没有对应，它没有会中止事务的 broker；用 KafkaSink 时它就是生产者属性 transaction.timeout.ms（KafkaSinkBuilder.setProperty(\"transaction.timeout.ms\", …)），broker 中止迟到的事务会使记录丢失。",
    approx_manual_interval: "interval_ms 为 null：Flink 不能只开启检查点而没有间隔；导出时设为一天，脚本中的检查点通过集群触发，source 结束后再触发一次最终检查点。",
    lesson_export_title: "checkpoint-lab 的一课，导出为 Flink 2.3 DataStream 作业（`lab export flink`）。",
    needs_flink_jars: "只需要 Flink 自己的 jar 包（pip install apache-flink-libraries==2.3.0 会把它们放在 pyflink/lib 下）：",
    in_checkpoint_lab: "在 checkpoint-lab 中",
    runs_on_minicluster: "作业在本 JVM 内的本地 MiniCluster 上运行（--ui 会让 Flink 的 Web UI 一直开在 http://127.0.0.1:8081，直到 Ctrl-C），最后以一行 JSON 打印运行摘要，格式与 `lab run` 的摘要相同。",
    approximations_heading: "近似处理（在 Flink 中没有对应的设置，以及如何映射）：",
    this_job: "本作业",
    chaining_off: "与实验室一致：每个算子是独立的任务",
    buffer_timeout_zero: "每条记录立即发送（Flink 默认：缓冲区满或 100 ms 后发送）",
    key_group_count: "key group 的数量",
    max_parallelism_derived: "未设置最大并行度：由 Flink 推导（并行度不超过 85 时为 128），从 savepoint 恢复时改用其中保存的值。",
    restore_from_snapshot: "从旧作业的快照启动，相当于 `flink run -s <savepoint>`（execution.state-recovery.path，旧名 execution.savepoint.path）。",
    restore_by_hand: "在集群上手工操作：`flink savepoint <jobId> [目标目录]` 写出保存点（归用户所有，Flink 从不删除）；设置 RETAIN_ON_CANCELLATION 后 `flink cancel <jobId>` 会把最后一个检查点留在 <检查点目录>/<jobId>/chk-N。从任一个启动新作业：`flink run -s <保存点目录> [-n] job.jar`，或 `flink run -s <检查点目录>/<jobId>/chk-N/_metadata -claimMode NO_CLAIM job.jar`（Flink 2.0 之前写作 -restoreMode，现在仍可用）。",
    restore_claim_mode: "认领模式（execution.state-recovery.claim-mode）：默认的 NO_CLAIM 把快照留给用户，并把第一个新检查点做成全量；CLAIM 把快照交给 Flink，被更新的检查点取代后由 Flink 删除。实验室两种模式都模拟（场景字段 restore.claim_mode）。",
    allow_non_restored_state: "--allowNonRestoredState（-n）：跳过新作业中已不存在的算子的状态（1.x：execution.savepoint.ignore-unclaimed-state）。",
    lab_refuses_restore: "实验室拒绝这次恢复：",
    backend_hashmap: "状态后端：hashmap——keyed state 以对象形式存放在堆内存中，每次全量快照（1.x：env.setStateBackend(new HashMapStateBackend())）。",
    backend_rocksdb: "状态后端：rocksdb，开启增量检查点——每个检查点只上传新的 SST 文件（1.x：env.setStateBackend(new EmbeddedRocksDBStateBackend(true))）。",
    storage_filesystem: "检查点存储：filesystem，即检查点目录（1.x：env.getCheckpointConfig().setCheckpointStorage(\"file:///…\")）。",
    storage_jobmanager: "检查点存储：jobmanager——快照保存在 JobManager 内存中，每个状态有大小上限（在下面的作业图上设置；1.x：setCheckpointStorage(new JobManagerCheckpointStorage(size))）。",
    restart_default_exponential: "重启策略：未设置，于是使用开启检查点时 Flink 的默认值——指数延迟（1 s，×1.5，最多 60 s）。实验室没有抖动：",
    restart_default_none: "重启策略：未设置且未开启检查点，因此不重启（Flink 默认）。",
    restart_none: "重启策略：不重启（1.x：env.setRestartStrategy(RestartStrategies.noRestart())）。",
    restart_fixed_delay: "重启策略：固定延迟",
    restart_failure_rate: "重启策略：失败率",
    restart_exponential_delay: "重启策略：指数延迟，与实验室一样没有抖动（1.x：RestartStrategies.exponentialDelayRestart(…)）。",
    checkpointing_off: "未开启检查点（场景中没有 `checkpointing`）。",
    checkpointing_heading: "检查点配置（2.x 中 CheckpointingMode 位于 org.apache.flink.core.execution；1.x：org.apache.flink.streaming.api.CheckpointingMode）。",
    interval_null_one_day: "interval_ms 为 null（只手动触发）在 Flink 中没有对应：设为一天。",
    job_graph: "作业图。",
    bytes_per_state: "每个状态的字节数上限",
    approx_ttl_rocksdb_background: "TTL：RocksDB 上的后台清理是其 compaction filter，实验室（不模拟 compaction）以每次访问清理 5 个条目的增量清理代替。",
    approx_ttl_background_disabled: "TTL：关闭了后台清理（disableCleanupInBackground）以与实验室一致（实验室只做配置的清理）；Flink 自 1.10 起默认在后台清理（\"in_background\": true）。",
    approx_ttl_rocksdb_incremental: "TTL：Flink 在 RocksDB 上跳过增量清理（其状态不支持所需的迭代器）；实验室在两种后端上都做增量清理。",
    run_script: "运行作业，并执行实验室脚本（见文件开头的列表）。",
    approx_time_scale: |scale| {
        format!("时间：实验室的毫秒按 {scale} 倍（时间比例）映射到真实时钟；下文中的时间均为实验室时间。")
    },
    approx_crash: |cr| match &cr.after {
        Some((src, part, off)) => format!("{} 在 {} ms 崩溃（第 {} 次运行）：当 {} 处理了 {src} 分区 {part} 中 offset 不小于 {off} 的记录时抛出异常——这是实验室中崩溃前它处理的最后一条记录。", cr.task, cr.at_ms, cr.attempt, cr.task),
        None => format!("{} 在 {} ms 崩溃（第 {} 次运行）：实验室中崩溃前它没有处理任何记录；在它处理第一条记录后抛出。", cr.task, cr.at_ms, cr.attempt),
    },
    approx_held_savepoint: |action, h| {
        format!("{action}（{} ms）：等每个 source 恰好读到实验室的 savepoint {} 所存的位置（source 在那里等待）后，通过 JobClient 触发。", h.at_ms, h.checkpoint)
    },
    approx_timed: |action, at_ms| {
        format!("{action}（{at_ms} ms）：在 source 启动后的这个实验室时间执行（按真实时钟）。")
    },
    approx_unheld_savepoint: |action, at_ms| {
        format!("{action}（{at_ms} ms）：实验室中它没有完成，因此按这个实验室时间执行（真实时钟）。")
    },
    approx_ignored: |action, at_ms, reason| {
        format!(
            "{at_ms} ms 的 {action} 被省略：实验室忽略了它（{}）。",
            ignored(reason)
        )
    },
};
