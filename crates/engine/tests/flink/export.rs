//! `lab export flink` without Flink: what the Java says for a scenario (its
//! configuration lines, job graph, data and script), what it refuses and why.
//! The differential tests ([`super::differential`]) run the Java on real Flink.

use engine::event::Event;
use engine::export::flink::{self, Lang, Options};
use engine::runner::{self, RunOptions};
use engine::Scenario;

fn export_builtin(name: &str, opts: Options) -> flink::Export {
    let json = runner::builtin(name).expect("a built-in");
    let s = Scenario::from_json(json).expect("parses");
    flink::export(&s, &opts).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn java(name: &str) -> String {
    export_builtin(name, Options::default()).java
}

fn assert_lines(java: &str, lines: &[&str]) {
    for l in lines {
        assert!(java.contains(l), "missing {l:?} in:\n{java}");
    }
}

#[test]
fn every_builtin_exports_or_is_refused_naming_the_field() {
    for (name, result) in flink::builtins(&Options::default()) {
        match result {
            Ok(e) => {
                assert!(e
                    .java
                    .contains(&format!("public class {} {{", e.class_name)));
                assert_eq!(e.file_name, format!("{}.java", e.class_name));
                assert!(
                    !e.approximations.is_empty(),
                    "{name}: approximations listed"
                );
            }
            Err(err) => {
                // Only a JobManager crash is refused, and the error names its step.
                let scenario = engine::runner::load(name).expect("a built-in loads");
                let step = scenario.script.iter().position(|x| {
                    matches!(x, engine::scenario::ScriptStep::CrashJobmanager { .. })
                });
                let Some(i) = step else {
                    panic!("{name} is refused: {err}");
                };
                assert!(
                    err.has_field(&format!("script[{i}].action")),
                    "{name}: {err}"
                );
                assert!(err.to_string().contains("crash_jobmanager"));
            }
        }
    }
}

#[test]
fn checkpoint_configuration_reads_like_the_study_notes() {
    let j = java("odd-even-sum");
    assert_lines(
        &j,
        &[
            "env.enableCheckpointing(550, CheckpointingMode.EXACTLY_ONCE);",
            "env.getCheckpointConfig().setCheckpointTimeout(600000);",
            "env.getCheckpointConfig().setMinPauseBetweenCheckpoints(0);",
            "env.getCheckpointConfig().setMaxConcurrentCheckpoints(1);",
            "env.getCheckpointConfig().setTolerableCheckpointFailureNumber(0);",
            "env.getCheckpointConfig().enableUnalignedCheckpoints(false);",
            "setExternalizedCheckpointRetention(ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS);",
            "conf.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, 1);",
            "conf.set(StateBackendOptions.STATE_BACKEND, \"hashmap\");",
            "conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, \"filesystem\");",
            // Restart strategy, with the 1.x spelling in a comment.
            "conf.set(RestartStrategyOptions.RESTART_STRATEGY, \"fixed-delay\");",
            "RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);",
            "RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(500));",
            "RestartStrategies.fixedDelayRestart(3, Time.milliseconds(500))",
            // The document sets max parallelism 128.
            "env.setMaxParallelism(128);",
        ],
    );
    let strict = java("checkpoint-config");
    assert_lines(
        &strict,
        &[
            "env.enableCheckpointing(500, CheckpointingMode.EXACTLY_ONCE);",
            "setCheckpointTimeout(400);",
            "setMinPauseBetweenCheckpoints(200);",
            "setTolerableCheckpointFailureNumber(1);",
        ],
    );
    let unaligned = java("unaligned-backpressure");
    assert!(unaligned.contains("enableUnalignedCheckpoints(true);"));
    let alo = java("at-least-once-duplicates");
    assert!(alo.contains("CheckpointingMode.AT_LEAST_ONCE);"));
    assert!(alo.contains("RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);"));
}

#[test]
fn max_parallelism_only_when_the_document_sets_it() {
    assert!(!java("pv-count").contains("setMaxParallelism("));
    assert!(java("pv-count").contains("Max parallelism is not set"));
    let text = runner::builtin("pv-count").unwrap().replacen(
        "\"job\": {",
        "\"job\": {\"max_parallelism\": 256,",
        1,
    );
    let s = Scenario::from_json(&text).unwrap();
    assert_eq!(s.job.max_parallelism, Some(256));
    assert!(flink::export(&s, &Options::default())
        .unwrap()
        .java
        .contains("env.setMaxParallelism(256);"));
    // A restore chain: neither document sets it, so neither job does.
    let rescale = java("savepoint-rescale");
    assert!(!rescale.contains("setMaxParallelism("));
    assert_eq!(rescale.matches("Max parallelism is not set").count(), 2);
}

#[test]
fn backends_storage_ttl_and_restarts() {
    let r = java("state-backend-rocksdb");
    assert_lines(
        &r,
        &[
            "conf.set(StateBackendOptions.STATE_BACKEND, \"rocksdb\");",
            "conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);",
            "conf.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, 2);",
        ],
    );
    let jm = java("jobmanager-storage-limit");
    assert_lines(
        &jm,
        &[
            "conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, \"jobmanager\");",
            "graph.setCheckpointStorage(new JobManagerCheckpointStorage(200));",
            "return lab.execute(graph,",
        ],
    );
    let types = java("state-types");
    assert_lines(
        &types,
        &[
            // The lab's TTL cleanup, and nothing else (Flink's background cleanup off).
            "StateTtlConfig.newBuilder(Duration.ofMillis(800)).updateTtlOnCreateAndWrite().neverReturnExpired().cleanupIncrementally(2, true).disableCleanupInBackground().build()",
            ".process(new KeyedWindowCount(500, null))",
            "new ValueStateDescriptor<>(\"window\", Types.LONG)",
            "new ListStateDescriptor<>(\"contents\", Types.LONG)",
            "new MapStateDescriptor<>(\"seen\", Types.LONG, Types.LONG)",
        ],
    );
    // The export says that Flink's RocksDB skips incremental cleanup.
    let rocksdb = export_builtin("state-types", Options::default());
    assert!(rocksdb
        .approximations
        .iter()
        .any(|a| a.contains("Flink skips incremental cleanup on RocksDB")));
    // Flink's background cleanup asked for: the builder keeps Flink's default.
    let text = runner::builtin("state-types").unwrap().replacen(
        "\"cleanup\": {\"incremental\"",
        "\"cleanup\": {\"in_background\": true, \"incremental\"",
        1,
    );
    let s = Scenario::from_json(&text).unwrap();
    let background = flink::export(&s, &Options::default()).unwrap().java;
    assert!(background.contains(
        "StateTtlConfig.newBuilder(Duration.ofMillis(800)).updateTtlOnCreateAndWrite().neverReturnExpired().cleanupIncrementally(2, true).build()"
    ));
    assert!(!background.contains("disableCleanupInBackground"));
    let rate = java("restart-failure-rate");
    assert_lines(
        &rate,
        &[
            "conf.set(RestartStrategyOptions.RESTART_STRATEGY, \"failure-rate\");",
            "RESTART_STRATEGY_FAILURE_RATE_MAX_FAILURES_PER_INTERVAL, 2);",
            "RESTART_STRATEGY_FAILURE_RATE_FAILURE_RATE_INTERVAL, Duration.ofMillis(1500));",
        ],
    );
    assert!(java("restart-none").contains("RESTART_STRATEGY, \"none\");"));
    // No restart strategy and checkpointing on: Flink's default, without jitter.
    assert!(java("pv-count").contains("EXPONENTIAL_DELAY_JITTER_FACTOR, 0.0);"));
}

#[test]
fn job_graph_partitioning_uids_and_parallelism() {
    let j = java("odd-even-sum");
    assert_lines(
        &j,
        &[
            "env.addSource(new ReplayableSource(\"numbers\", false, 1,",
            ".name(\"numbers\").uid(\"numbers\").setParallelism(1);",
            "numbers.forward()",
            ".map(new ParityKey()).name(\"parity\").uid(\"parity\").setParallelism(1);",
            "parity.keyBy(e -> e.key, Types.STRING)",
            ".process(new KeyedSum()).name(\"sum\").uid(\"sum\").setParallelism(1);",
            ".addSink(new TransactionalFileSink(lab.topic(\"out\", \"two_phase_commit\")))",
            "env.disableOperatorChaining();",
            "public static class KeyedSum extends KeyedProcessFunction<String, Event, Event>",
            "new ValueStateDescriptor<>(\"sum\", Types.LONG)",
            "extends TwoPhaseCommitSinkFunction<Event, Txn, Void>",
        ],
    );
    // Classes only for what the scenario uses.
    assert!(!j.contains("class KeyedCount"));
    assert!(!j.contains("class RulesFilter"));
    let b = java("broadcast-rules");
    assert_lines(
        &b,
        &[
            "events.rebalance().connect(rules.broadcast(RULES))",
            ".process(new RulesFilter()).name(\"gate\").uid(\"gate\").setParallelism(3);",
            "public static class RulesFilter extends BroadcastProcessFunction<Event, Event, Event>",
        ],
    );
    let two = java("barrier-alignment");
    assert!(two.contains("numbers.forward().union(letters.forward())"));
    let pv = java("pv-count");
    assert!(pv.contains(".addSink(new UpsertFileSink(lab.topic(\"out\", \"idempotent\")))"));
    assert!(java("exactly-once-kafka-plain").contains("new AppendingFileSink("));
}

#[test]
fn crashes_land_on_the_record_the_lab_crashed_after() {
    let j = java("odd-even-sum");
    // At 710 ms sum#0 had processed offsets 0..=5 of numbers' partition 0.
    assert!(
        j.contains("new Crash(0, \"sum#0\", 0, \"numbers\", 0, 5, 710)"),
        "{j}"
    );
    let r = java("restart-fixed-delay");
    // Four crashes; the last falls after the job failed (fixed delay, 2 attempts).
    assert!(r.contains("new Crash(0, \"sum#0\", 0, \"numbers\", 0,"));
    assert!(r.contains("new Crash(0, \"sum#0\", 1, \"numbers\", 0,"));
    assert!(r.contains("new Crash(0, \"parity#0\", 2, \"numbers\", 0,"));
    assert!(!r.contains("\"sum#0\", 3,"));
    assert!(r.contains(
        "crash at 3300 ms is left out: the lab ignores it (the job is failed since 2800 ms)"
    ));
}

#[test]
fn savepoints_hold_the_sources_at_the_lab_s_offsets() {
    let e = export_builtin("savepoint-rescale", Options::default());
    let j = &e.java;
    // The earlier job, then this one from its savepoint (Flink's recovery path setting).
    assert!(j.contains("pvV1(lab);"));
    assert!(j.contains("return savepointRescale(lab);"));
    assert!(j.contains("conf.set(StateRecoveryOptions.SAVEPOINT_PATH, lab.savepoint(0, 0));"));
    assert!(j.contains("conf.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, false);"));
    // The stop-with-savepoint holds every partition at the offsets of the lab's savepoint.
    let earlier = runner::load("savepoint-rescale")
        .unwrap()
        .restore
        .unwrap()
        .from;
    let opts = RunOptions {
        metadata: true,
        seed: Some(11),
        ..RunOptions::default()
    };
    let world = runner::run(&earlier, &opts, |_| {}).unwrap();
    let summary = engine::summary::Summary::of(&world, engine::summary::Metadata::Included);
    let sp = summary
        .checkpoints
        .iter()
        .find(|c| c.kind == "savepoint")
        .expect("a savepoint");
    let offsets = &sp.metadata.as_ref().unwrap()["kafka"]["offsets"];
    let holds: Vec<String> = (0..4)
        .map(|p| format!("\"kafka#{p}={}\"", offsets[p.to_string()]))
        .collect();
    let call = format!(".stopWithSavepoint(1500, 0, {})", holds.join(", "));
    assert!(j.contains(&call), "missing {call} in\n{j}");
    let upgrade = java("savepoint-upgrade");
    assert!(upgrade.contains("SAVEPOINT_IGNORE_UNCLAIMED_STATE, true);"));
    assert!(upgrade.contains("--allowNonRestoredState"));
}

/// The log in the Java is the lab's: keys drawn by the seeded generator, due times.
#[test]
fn the_sources_carry_the_lab_s_log() {
    let j = java("pv-count");
    let start = j
        .find("Partition.generated(50, Partition.sequence(60), new String[] {")
        .expect("a generated partition");
    let rest = &j[start..];
    let names_start = rest.find('{').unwrap() + 1;
    let names_end = rest.find('}').unwrap();
    let names: Vec<&str> = rest[names_start..names_end]
        .split(", ")
        .map(|n| n.trim_matches('"'))
        .collect();
    let codes_start = names_end + 4;
    let codes_end = codes_start + rest[codes_start..].find('"').unwrap();
    let codes = &rest[codes_start..codes_end];
    let codebook = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let java_keys: Vec<&str> = codes
        .chars()
        .map(|c| names[codebook.find(c).unwrap()])
        .collect();
    let s = runner::load("pv-count").unwrap();
    let mut lab_keys = Vec::new();
    let opts = RunOptions {
        trace: true,
        ..RunOptions::default()
    };
    runner::run(&s, &opts, |e| {
        if let Event::RecordEmitted { key, offset, .. } = &e.event {
            if *offset as usize == lab_keys.len() {
                lab_keys.push(key.as_deref().unwrap().to_string());
            }
        }
    })
    .unwrap();
    assert_eq!(java_keys, lab_keys);
}

#[test]
fn observation_hooks_only_behind_the_flag() {
    let plain = java("savepoint-rescale");
    assert!(!plain.contains("Lab.keyed("));
    assert!(!plain.contains("Lab.committed("));
    let observed = export_builtin(
        "savepoint-rescale",
        Options {
            observe: true,
            ..Options::default()
        },
    )
    .java;
    assert!(observed.contains("Lab.keyed(getRuntimeContext(), e.key, current);"));
    assert!(observed.contains("Lab.committed(getRuntimeContext(), t.id, recovered);"));
    // No crash, no process_ms: no per-record script hook either.
    assert!(!plain.contains("Lab.processed("));
    assert!(java("odd-even-sum").contains("Lab.processed(getRuntimeContext(), e);"));
}

#[test]
fn comments_in_the_chosen_language() {
    let zh = export_builtin(
        "odd-even-sum",
        Options {
            lang: Lang::Zh,
            ..Options::default()
        },
    );
    assert!(zh.java.contains("// 状态后端：hashmap"));
    assert!(zh.java.contains("每个 key 一个 ValueState<Long>"));
    assert!(!zh.java.contains("State backend: hashmap"));
    assert!(!zh.java.contains("a ValueState<Long> per key"));
    assert!(zh.approximations.iter().any(|a| a.contains("时间")));
    let en = java("odd-even-sum");
    assert!(en.contains("// State backend: hashmap"));
    assert!(!en.contains("状态后端"));
    assert!(!en.contains("//@") && !en.contains("//#") && !en.contains("//!"));
}

/// `--lang zh-Hant`: the exporter's own words come from the generated
/// Traditional table, and each Java fragment's comments from its `//@zh-Hant`
/// lines (the Simplified ones where a fragment has none yet); nothing English.
#[test]
fn comments_in_traditional_chinese() {
    for tag in ["zh-Hant", "zh-TW", "zh-HK", "ZH_hant"] {
        assert_eq!(Lang::parse(tag), Ok(Lang::ZhHant), "{tag}");
    }
    assert_eq!(Lang::parse("zh-CN"), Ok(Lang::Zh));
    let err = Lang::parse("zh-Latn").unwrap_err().to_string();
    assert!(err.contains("--lang") && err.contains("zh-Hant"), "{err}");
    let hant = export_builtin(
        "odd-even-sum",
        Options {
            lang: Lang::ZhHant,
            ..Options::default()
        },
    );
    assert!(
        hant.java.contains("// 狀態後端：hashmap"),
        "the generated table"
    );
    assert!(!hant.java.contains("状态后端"), "no Simplified wording");
    assert!(!hant.java.contains("State backend: hashmap"));
    assert!(hant.approximations.iter().any(|a| a.contains("時間")));
    assert!(!hant.java.contains("//@"));
    // The fragment's comment, Traditional once generated, never English.
    assert!(
        hant.java.contains("每個 key 一個 ValueState<Long>")
            || hant.java.contains("每个 key 一个 ValueState<Long>")
    );
    let restart = export_builtin(
        "restart-none",
        Options {
            lang: Lang::ZhHant,
            ..Options::default()
        },
    );
    assert!(
        restart
            .approximations
            .iter()
            .any(|a| a.contains("作業已失敗，自 500 ms 起")),
        "{:?}",
        restart.approximations
    );
}

/// What a learner reads is well formed in both languages: no template placeholder
/// left in a comment, no `// //`, every line of the class indented inside it, and
/// in Chinese no English sentence in the comments above the harness (whose
/// comments stay English, as its banner says).
#[test]
fn comments_are_filled_in_indented_and_translated() {
    let placeholders = ["NAME", "STATE", "UPDATE", "BODY", "WINDOW_MS"];
    for lang in [Lang::En, Lang::Zh, Lang::ZhHant] {
        for (name, result) in flink::builtins(&Options {
            lang,
            ..Options::default()
        }) {
            let Ok(e) = result else { continue };
            let body_start = e.java.find("public class ").expect("the class");
            let body: Vec<&str> = e.java[body_start..].lines().collect();
            for (i, line) in body.iter().enumerate().skip(1) {
                let t = line.trim_start();
                if i + 1 < body.len() && !t.is_empty() {
                    assert!(
                        line.starts_with("    "),
                        "{name} {lang:?}: line {i} of the class at column 0: {line:?}"
                    );
                }
                assert!(!t.contains("// //"), "{name} {lang:?}: {line:?}");
                let comment = t.starts_with("//") || t.starts_with("* ") || t.starts_with("/**");
                if comment {
                    for p in placeholders {
                        let words: Vec<&str> = t
                            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                            .collect();
                        assert!(
                            !words.contains(&p),
                            "{name} {lang:?}: placeholder {p} in {line:?}"
                        );
                    }
                }
            }
            if lang == Lang::Zh {
                let harness = e.java.find("以下是配套代码").expect("the harness banner");
                assert!(e.java[harness..].contains("这部分的注释保留英文"));
                for line in e.java[..harness].lines() {
                    let t = line.trim_start();
                    let text = if let Some(c) = t.strip_prefix("//") {
                        c
                    } else if let Some(c) = t.strip_prefix("* ") {
                        c
                    } else if let Some(c) = t.strip_prefix("/**") {
                        c
                    } else {
                        match t.find(" // ") {
                            Some(at) => &t[at + 4..],
                            None => continue,
                        }
                    };
                    let has_cjk = text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
                    let mut run = 0;
                    let mut longest = 0;
                    for w in text.split_whitespace() {
                        if w.chars()
                            .all(|c| c.is_ascii_alphabetic() || ",.;:'".contains(c))
                            && w.chars().any(|c| c.is_ascii_alphabetic())
                            && !w.trim_end_matches([',', '.', ';', ':']).contains('.')
                        {
                            run += 1;
                            longest = longest.max(run);
                        } else {
                            run = 0;
                        }
                    }
                    assert!(
                        has_cjk || longest < 4,
                        "{name}: an English comment in the zh export: {line:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn approximations_are_listed_at_the_top() {
    let e = export_builtin("checkpoint-config", Options::default());
    let header = &e.java[..e.java.find("import ").unwrap()];
    for a in &e.approximations {
        let first_words: String = a.split(' ').take(6).collect::<Vec<_>>().join(" ");
        assert!(
            header.contains(&first_words),
            "{first_words:?} not at the top"
        );
    }
    assert!(e.approximations.iter().any(|a| a.starts_with("process_ms")));
    assert!(e.approximations.iter().any(|a| a.starts_with("Channels")));
}

#[test]
fn time_scale_scales_every_duration() {
    let e = export_builtin(
        "odd-even-sum",
        Options {
            time_scale: 2.0,
            ..Options::default()
        },
    );
    assert!(e.java.contains("env.enableCheckpointing(1100, "));
    assert!(e
        .java
        .contains("FIXED_DELAY_DELAY, Duration.ofMillis(1000));"));
    assert!(e.java.contains("static final double TIME_SCALE = 2.0;"));
    let s = runner::load("odd-even-sum").unwrap();
    let bad = flink::export(
        &s,
        &Options {
            time_scale: 0.0,
            ..Options::default()
        },
    )
    .unwrap_err();
    assert!(bad.has_field("--time-scale"), "{bad}");
}

#[test]
fn refusals_name_the_field_even_in_an_earlier_job() {
    let mut s = runner::load("savepoint-rescale").unwrap();
    let from = &mut s.restore.as_mut().unwrap().from;
    from.script.insert(
        0,
        engine::scenario::ScriptStep::CrashJobmanager { at_ms: 500 },
    );
    let err = flink::export(&s, &Options::default()).unwrap_err();
    assert!(err.has_field("restore.from.script[0].action"), "{err}");
    let bad_class = flink::export(
        &runner::load("pv-count").unwrap(),
        &Options {
            class_name: Some("Lab".into()),
            ..Options::default()
        },
    )
    .unwrap_err();
    assert!(bad_class.has_field("--class"));
}

#[test]
fn lab_export_flink_writes_the_file_and_refuses_with_exit_2() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("lab-export-cli");
    let _ = std::fs::remove_dir_all(&dir);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lab"))
        .args(["export", "flink", "odd-even-sum", "--lang", "zh", "-o"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = String::from_utf8(out.stdout).unwrap();
    assert!(path.trim().ends_with("OddEvenSum.java"), "{path}");
    let java = std::fs::read_to_string(path.trim()).unwrap();
    assert!(java.contains("状态后端"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("sum#0"),
        "approximations on stderr: {stderr}"
    );

    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_lab"))
        .args(["export", "flink", "jobmanager-crash-jobmanager", "-o"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(refused.stdout.is_empty());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("script[0].action: crash_jobmanager"));
    for bad in [
        vec!["export"],
        vec!["export", "spark", "pv-count"],
        vec!["export", "flink", "pv-count", "--lang", "fr"],
        vec!["export", "flink", "pv-count", "--frobnicate"],
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_lab"))
            .args(&bad)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
    }
}

/// The checkpoint statistics `scripts/flink.sh --stats` saved from a real run of
/// unaligned-backpressure (the page's import reads this shape): Flink's own REST
/// responses, per job — the history, the config, and per checkpoint its details
/// and every subtask's timings.
#[test]
fn recorded_real_checkpoint_statistics_have_the_rest_shapes() {
    let text = include_str!("../../../../tests/fixtures/flink-stats-unaligned-backpressure.json");
    let stats: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(stats["format"], "checkpoint-lab flink stats 1");
    assert_eq!(stats["flink_version"], "2.3.0");
    let job = &stats["jobs"][0];
    assert_eq!(job["config"]["unaligned_checkpoints"], true);
    assert_eq!(job["config"]["interval"], 1000);
    let history = job["checkpoints"]["history"].as_array().unwrap();
    assert!(history.len() >= 3);
    let mut unaligned_with_persisted_data = 0;
    for h in history {
        let id = h["id"].as_u64().unwrap().to_string();
        for field in [
            "status",
            "trigger_timestamp",
            "end_to_end_duration",
            "checkpointed_size",
        ] {
            assert!(!h[field].is_null(), "checkpoint {id}: {field}");
        }
        let details = &job["details"][&id];
        assert_eq!(details["id"], h["id"]);
        for (vertex, task) in details["tasks"].as_object().unwrap() {
            let subtasks = &job["subtasks"][&id][vertex]["subtasks"];
            let n = task["num_subtasks"].as_u64().unwrap() as usize;
            assert_eq!(subtasks.as_array().map(Vec::len), Some(n), "{id}/{vertex}");
            for st in subtasks.as_array().unwrap() {
                if st["status"] == "completed" {
                    assert!(st["alignment"]["duration"].is_u64());
                    assert!(st["start_delay"].is_u64());
                    if st["unaligned_checkpoint"] == true
                        && st["alignment"]["persisted"].as_u64() > Some(0)
                    {
                        unaligned_with_persisted_data += 1;
                    }
                }
            }
        }
    }
    assert!(
        unaligned_with_persisted_data > 0,
        "the real unaligned checkpoints persisted in-flight data"
    );
}

#[test]
fn ignored_actions_are_explained_in_chinese_too() {
    let zh = export_builtin(
        "restart-none",
        Options {
            lang: Lang::Zh,
            ..Options::default()
        },
    );
    assert!(
        zh.approximations.iter().any(
            |a| a.contains("2300 ms 的 crash 被省略") && a.contains("作业已失败，自 500 ms 起")
        ),
        "{:?}",
        zh.approximations
    );
}

#[test]
fn a_class_never_shadows_one_the_export_uses() {
    // `checkpoint-config` would be `CheckpointConfig`, Flink's own class.
    let e = export_builtin("checkpoint-config", Options::default());
    assert_eq!(e.class_name, "CheckpointConfigJob");
}

/// A sink's `transaction_timeout_ms` has no counterpart in the exported file sink:
/// it is listed as approximated, naming KafkaSink's producer property.
#[test]
fn transaction_timeout_is_listed_as_approximated() {
    let mut s = engine::runner::load("exactly-once-kafka").expect("built-in");
    for op in &mut s.job.operators {
        if op.sink == Some(engine::scenario::SinkKind::TwoPhaseCommit) {
            op.transaction_timeout_ms = Some(900_000);
        }
    }
    let export = engine::export::flink::export(&s, &engine::export::flink::Options::default())
        .expect("exports");
    assert!(
        export.approximations.iter().any(
            |a| a.starts_with("transaction_timeout_ms") && a.contains("transaction.timeout.ms")
        ),
        "{:?}",
        export.approximations
    );
}
