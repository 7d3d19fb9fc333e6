//! The exporter's words in Traditional Chinese. GENERATED from `zh.rs` by
//! `node scripts/hant.cjs` (OpenCC cn → tw with Taiwan phrases, and the term list
//! `assets/i18n/hant-terms.json`); `--check` fails when it is stale. Do not edit:
//! edit `zh.rs` and regenerate.

use super::Wording;
use crate::cause::IgnoreCause;
use crate::export::flink::script::IgnoredBecause;
use crate::status::JobStatus;

/// Why the lab ignored a script step (`IgnoredBecause::en` in English).
fn ignored(reason: &IgnoredBecause) -> String {
    let word = |status: JobStatus| match status {
        JobStatus::Restarting => "作業正在重啟",
        JobStatus::Failed => "作業已失敗",
        JobStatus::Finished => "作業已結束",
        JobStatus::Canceled => "作業已取消",
        JobStatus::Running => "作業正在執行",
    };
    match reason {
        IgnoredBecause::Lab(IgnoreCause::JobNotRunning(status)) => word(*status).into(),
        IgnoredBecause::Ended { status, end_ms } => {
            format!("{}，自 {end_ms} ms 起", word(*status))
        }
        IgnoredBecause::NoSuchFailure => "實驗室的執行中沒有這次故障".into(),
    }
}

pub(super) static WORDING: Wording = Wording {
    run_decisions: "實驗室執行該場景得出的資訊：指令碼中各動作落在何處。",
    time_scale_unit: "每個實驗室毫秒對應的真實毫秒數",
    test_harness_entry: "供在同一個 MiniCluster 上連續執行多個作業的測試程式使用。",
    earlier_job: "先執行的舊作業",
    approx_sources: "Source：第 i 條記錄不早於第一個 source 啟動後的 at_ms 發出，每 emit_interval_ms 至多一條；恢復後已到期的記錄立即重放。",
    approx_channels: "通道：latency_ms 和 buffer_capacity 在 Flink 中沒有對應（Flink 的網路沒有固定延遲，限制的是緩衝區而不是記錄數）：每條記錄立即傳送（setBufferTimeout(0)）。",
    approx_chaining: "關閉了算子鏈（disableOperatorChaining），與實驗室中每個算子是獨立任務一致；刪掉這一行即可讓 Flink 組鏈。",
    approx_process_ms: "process_ms：函式在每條記錄之後休眠這麼久（實驗室中算子每條記錄忙碌這麼久）。",
    approx_async_ms: "async_ms：沒有對應；Flink 的非同步快照階段耗時就是真實上傳所需的時間。",
    approx_max_state_bytes: "max_state_bytes：Flink 用真實的序列化位元組數（按 state handle）與上限比較，而不是實驗室的位元組模型，所以超限的快照會不同。",
    approx_transaction_timeout: "transaction_timeout_ms：匯出的檔案 sink 沒有對應，它沒有會中止事務的 broker；用 KafkaSink 時它就是生產者屬性 transaction.timeout.ms（KafkaSinkBuilder.setProperty(\"transaction.timeout.ms\", …)），broker 中止遲到的事務會使記錄丟失。",
    approx_manual_interval: "interval_ms 為 null：Flink 不能只開啟檢查點而沒有間隔；匯出時設為一天，指令碼中的檢查點通過叢集觸發，source 結束後再觸發一次最終檢查點。",
    lesson_export_title: "checkpoint-lab 的一課，匯出為 Flink 2.3 DataStream 作業（`lab export flink`）。",
    needs_flink_jars: "只需要 Flink 自己的 jar 包（pip install apache-flink-libraries==2.3.0 會把它們放在 pyflink/lib 下）：",
    in_checkpoint_lab: "在 checkpoint-lab 中",
    runs_on_minicluster: "作業在本 JVM 內的本地 MiniCluster 上執行（--ui 會讓 Flink 的 Web UI 一直開在 http://127.0.0.1:8081，直到 Ctrl-C），最後以一行 JSON 列印執行摘要，格式與 `lab run` 的摘要相同。",
    approximations_heading: "近似處理（在 Flink 中沒有對應的設定，以及如何對映）：",
    this_job: "本作業",
    chaining_off: "與實驗室一致：每個算子是獨立的任務",
    buffer_timeout_zero: "每條記錄立即傳送（Flink 預設：緩衝區滿或 100 ms 後傳送）",
    key_group_count: "key group 的數量",
    max_parallelism_derived: "未設定最大並行度：由 Flink 推導（並行度不超過 85 時為 128），從 savepoint 恢復時改用其中儲存的值。",
    restore_from_snapshot: "從舊作業的快照啟動，相當於 `flink run -s <savepoint>`（execution.state-recovery.path，舊名 execution.savepoint.path）。",
    restore_by_hand: "在叢集上手工操作：`flink savepoint <jobId> [目標目錄]` 寫出保存點（歸使用者所有，Flink 從不刪除）；設定 RETAIN_ON_CANCELLATION 後 `flink cancel <jobId>` 會把最後一個檢查點留在 <檢查點目錄>/<jobId>/chk-N。從任一個啟動新作業：`flink run -s <保存點目錄> [-n] job.jar`，或 `flink run -s <檢查點目錄>/<jobId>/chk-N/_metadata -claimMode NO_CLAIM job.jar`（Flink 2.0 之前寫作 -restoreMode，現在仍可用）。",
    restore_claim_mode: "認領模式（execution.state-recovery.claim-mode）：預設的 NO_CLAIM 把快照留給使用者，並把第一個新檢查點做成全量；CLAIM 把快照交給 Flink，被更新的檢查點取代後由 Flink 刪除。實驗室兩種模式都模擬（場景欄位 restore.claim_mode）。",
    allow_non_restored_state: "--allowNonRestoredState（-n）：跳過新作業中已不存在的算子的狀態（1.x：execution.savepoint.ignore-unclaimed-state）。",
    lab_refuses_restore: "實驗室拒絕這次恢復：",
    backend_hashmap: "狀態後端：hashmap——keyed state 以物件形式存放在堆記憶體中，每次全量快照（1.x：env.setStateBackend(new HashMapStateBackend())）。",
    backend_rocksdb: "狀態後端：rocksdb，開啟增量檢查點——每個檢查點只上傳新的 SST 檔案（1.x：env.setStateBackend(new EmbeddedRocksDBStateBackend(true))）。",
    storage_filesystem: "檢查點儲存：filesystem，即檢查點目錄（1.x：env.getCheckpointConfig().setCheckpointStorage(\"file:///…\")）。",
    storage_jobmanager: "檢查點儲存：jobmanager——快照儲存在 JobManager 記憶體中，每個狀態有大小上限（在下面的作業圖上設定；1.x：setCheckpointStorage(new JobManagerCheckpointStorage(size))）。",
    restart_default_exponential: "重啟策略：未設定，於是使用開啟檢查點時 Flink 的預設值——指數延遲（1 s，×1.5，最多 60 s）。實驗室沒有抖動：",
    restart_default_none: "重啟策略：未設定且未開啟檢查點，因此不重啟（Flink 預設）。",
    restart_none: "重啟策略：不重啟（1.x：env.setRestartStrategy(RestartStrategies.noRestart())）。",
    restart_fixed_delay: "重啟策略：固定延遲",
    restart_failure_rate: "重啟策略：失敗率",
    restart_exponential_delay: "重啟策略：指數延遲，與實驗室一樣沒有抖動（1.x：RestartStrategies.exponentialDelayRestart(…)）。",
    checkpointing_off: "未開啟檢查點（場景中沒有 `checkpointing`）。",
    checkpointing_heading: "檢查點配置（2.x 中 CheckpointingMode 位於 org.apache.flink.core.execution；1.x：org.apache.flink.streaming.api.CheckpointingMode）。",
    interval_null_one_day: "interval_ms 為 null（隻手動觸發）在 Flink 中沒有對應：設為一天。",
    job_graph: "作業圖。",
    bytes_per_state: "每個狀態的位元組數上限",
    approx_ttl_rocksdb_background: "TTL：RocksDB 上的後臺清理是其 compaction filter，實驗室（不模擬 compaction）以每次訪問清理 5 個條目的增量清理代替。",
    approx_ttl_background_disabled: "TTL：關閉了後臺清理（disableCleanupInBackground）以與實驗室一致（實驗室只做配置的清理）；Flink 自 1.10 起預設在後臺清理（\"in_background\": true）。",
    approx_ttl_rocksdb_incremental: "TTL：Flink 在 RocksDB 上跳過增量清理（其狀態不支援所需的迭代器）；實驗室在兩種後端上都做增量清理。",
    run_script: "執行作業，並執行實驗室指令碼（見檔案開頭的列表）。",
    approx_time_scale: |scale| {
        format!("時間：實驗室的毫秒按 {scale} 倍（時間比例）對映到真實時鐘；下文中的時間均為實驗室時間。")
    },
    approx_crash: |cr| match &cr.after {
        Some((src, part, off)) => format!("{} 在 {} ms 崩潰（第 {} 次執行）：當 {} 處理了 {src} 分區 {part} 中 offset 不小於 {off} 的記錄時丟擲異常——這是實驗室中崩潰前它處理的最後一條記錄。", cr.task, cr.at_ms, cr.attempt, cr.task),
        None => format!("{} 在 {} ms 崩潰（第 {} 次執行）：實驗室中崩潰前它沒有處理任何記錄；在它處理第一條記錄後丟擲。", cr.task, cr.at_ms, cr.attempt),
    },
    approx_held_savepoint: |action, h| {
        format!("{action}（{} ms）：等每個 source 恰好讀到實驗室的 savepoint {} 所存的位置（source 在那裡等待）後，通過 JobClient 觸發。", h.at_ms, h.checkpoint)
    },
    approx_timed: |action, at_ms| {
        format!("{action}（{at_ms} ms）：在 source 啟動後的這個實驗室時間執行（按真實時鐘）。")
    },
    approx_unheld_savepoint: |action, at_ms| {
        format!("{action}（{at_ms} ms）：實驗室中它沒有完成，因此按這個實驗室時間執行（真實時鐘）。")
    },
    approx_ignored: |action, at_ms, reason| {
        format!(
            "{at_ms} ms 的 {action} 被省略：實驗室忽略了它（{}）。",
            ignored(reason)
        )
    },
};
