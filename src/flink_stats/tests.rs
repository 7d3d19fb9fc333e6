//! The real-statistics reader over a recorded real run (Flink 2.3,
//! unaligned-backpressure, saved by `flink.sh --stats`), over the same responses
//! pasted one by one, over an older Flink's fields, and over damaged input:
//! every truncation point sampled, every node of a REST response replaced by a
//! value of each other type, random bytes changed — never a panic, and every
//! error names the damaged place.

use super::*;

const FIXTURE: &str = include_str!("../../tests/fixtures/flink-stats-unaligned-backpressure.json");

fn fixture() -> Value {
    serde_json::from_str(FIXTURE).expect("the fixture is JSON")
}

fn only_job(stats: &RealStats) -> &RealJob {
    assert_eq!(stats.jobs.len(), 1, "{stats:#?}");
    &stats.jobs[0]
}

fn row(job: &RealJob, id: u64) -> &Row {
    job.history
        .rows
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("no checkpoint {id}"))
}

/// A tiny seeded generator (the page has no `rand`): xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn the_recorded_real_run_reads_whole() {
    let stats = parse(FIXTURE).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(stats.flink_version.as_deref(), Some("2.3.0"));
    assert_eq!(stats.scenario.as_deref(), Some("unaligned-backpressure"));
    assert_eq!(stats.time_scale, Some(1.0));
    let job = only_job(&stats);
    assert_eq!(job.name.as_deref(), Some("unaligned-backpressure"));
    assert_eq!(job.history.origin, Origin::JobStart);
    assert!(job.counts.contains(&("failed".to_string(), 2)));
    assert!(job
        .config
        .contains(&("unaligned_checkpoints".to_string(), "true".to_string())));
    assert!(job
        .config
        .contains(&("externalization.enabled".to_string(), "false".to_string())));

    // Every row against its own JSON: newest first, the fields as Flink said them.
    let v = fixture();
    let j = &v["jobs"][0];
    let start = j["job"]["start-time"].as_i64().unwrap();
    let history = j["checkpoints"]["history"].as_array().unwrap();
    assert_eq!(job.history.rows.len(), history.len());
    let ids: Vec<u64> = job.history.rows.iter().map(|r| r.id).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(ids, sorted, "newest first");
    for h in history {
        let r = row(job, h["id"].as_u64().unwrap());
        assert_eq!(
            r.trigger_ms,
            Some(h["trigger_timestamp"].as_i64().unwrap() - start)
        );
        assert_eq!(r.end_to_end_ms, h["end_to_end_duration"].as_u64());
        assert_eq!(r.checkpointed_bytes, h["checkpointed_size"].as_u64());
        assert_eq!(r.persisted, h["persisted_data"].as_u64().map(Amount::Bytes));
        assert_eq!(r.acknowledged, h["num_acknowledged_subtasks"].as_u64());
        assert_eq!(
            r.unaligned,
            Some(h["checkpoint_type"] == "UNALIGNED_CHECKPOINT")
        );
        let details = &j["details"][r.id.to_string()]["tasks"];
        assert_eq!(r.tasks.len(), details.as_object().unwrap().len());
    }

    // An unaligned checkpoint in detail: the operators by name, their subtasks' timings.
    let five = row(job, 5);
    assert_eq!(five.status, Some(Status::Completed));
    assert_eq!((five.acknowledged, five.subtasks), (Some(7), Some(7)));
    assert_eq!(five.persisted, Some(Amount::Bytes(1649)));
    let mut names: Vec<&str> = five.tasks.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["Sink: out", "Source: events", "enrich", "slow-sum"]);
    let slow = five.tasks.iter().find(|t| t.name == "slow-sum").unwrap();
    assert_eq!((slow.acknowledged, slow.of), (Some(2), Some(2)));
    let s0 = &slow.subtasks[0];
    assert_eq!(
        (
            s0.index,
            s0.acknowledged,
            s0.start_delay_ms,
            s0.alignment_ms
        ),
        (0, true, Some(27), Some(0))
    );
    assert_eq!(
        (s0.sync_ms, s0.async_ms, s0.persisted, s0.unaligned),
        (Some(0), Some(5), Some(Amount::Bytes(562)), Some(true))
    );
    // A failed one keeps Flink's reason and its partial acknowledgements.
    let six = row(job, 6);
    assert_eq!(six.status, Some(Status::Failed));
    assert_eq!(six.acknowledged, Some(3));
    assert!(six
        .failure
        .as_deref()
        .is_some_and(|f| f.contains("Task local checkpoint failure")));
}

/// The same run's responses pasted as a user copies them from the REST API: one
/// value after another, subtask responses without their vertex's id.
/// A second real run (Flink 2.3): odd-even-sum as the page's Download button
/// gives it (`OddEvenSum.java`), run with `flink.sh OddEvenSum.java --stats`;
/// its scripted crash restores from checkpoint 2.
const ODD_EVEN: &str = include_str!("../../tests/fixtures/flink-stats-odd-even-sum.json");

#[test]
fn the_recorded_run_with_a_crash_and_a_restore_reads_whole() {
    let stats = parse(ODD_EVEN).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(stats.scenario.as_deref(), Some("odd-even-sum"));
    let job = only_job(&stats);
    for (k, n) in [
        ("total", 5),
        ("completed", 3),
        ("failed", 2),
        ("restored", 1),
    ] {
        assert!(
            job.counts.contains(&(k.to_string(), n)),
            "{k}: {:?}",
            job.counts
        );
    }
    let ids: Vec<u64> = job.history.rows.iter().map(|r| r.id).collect();
    assert_eq!(ids, [3, 2, 1]);
    for r in &job.history.rows {
        assert_eq!(r.status, Some(Status::Completed));
        assert_eq!((r.acknowledged, r.subtasks), (Some(4), Some(4)));
        assert_eq!(r.unaligned, Some(false), "aligned exactly-once");
        let mut names: Vec<&str> = r.tasks.iter().map(|t| t.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["Sink: out", "Source: numbers", "parity", "sum"]);
        // Every operator of the lesson runs one subtask, each with its figures.
        for t in &r.tasks {
            assert_eq!(t.subtasks.len(), 1, "{}", t.name);
            assert!(t.subtasks[0].acknowledged);
            assert!(t.subtasks[0].end_to_end_ms.is_some());
        }
    }
    // Trigger times count from the job's start and grow with the id.
    let t: Vec<i64> = job
        .history
        .rows
        .iter()
        .filter_map(|r| r.trigger_ms)
        .collect();
    assert_eq!(t.len(), 3);
    assert!(t[0] > t[1] && t[1] > t[2] && t[2] >= 0, "{t:?}");
}

#[test]
fn pasted_rest_responses_read_alone_or_together() {
    let v = fixture();
    let j = &v["jobs"][0];
    let alone = serde_json::to_string_pretty(&j["checkpoints"]).unwrap();
    let stats = parse(&alone).unwrap_or_else(|e| panic!("{e:#?}"));
    let job = only_job(&stats);
    assert_eq!(job.history.origin, Origin::FirstTrigger);
    assert_eq!(
        job.history.rows.iter().filter_map(|r| r.trigger_ms).min(),
        Some(0)
    );
    assert!(job.history.rows.iter().all(|r| r.tasks.is_empty()));
    assert!(job.config.is_empty() && job.name.is_none());

    let mut pasted = String::new();
    for part in [
        &j["job"],
        &j["checkpoints"],
        &j["config"],
        &j["details"]["5"],
    ] {
        pasted.push_str(&serde_json::to_string_pretty(part).unwrap());
        pasted.push('\n');
    }
    for (_, sub) in j["subtasks"]["5"].as_object().unwrap() {
        pasted.push_str(&sub.to_string());
        pasted.push('\n');
    }
    let stats = parse(&pasted).unwrap_or_else(|e| panic!("{e:#?}"));
    let job = only_job(&stats);
    assert_eq!(job.history.origin, Origin::JobStart);
    assert!(!job.config.is_empty());
    let five = row(job, 5);
    let filed = parse(FIXTURE).unwrap();
    assert_eq!(
        five,
        row(only_job(&filed), 5),
        "matched by their totals, every subtask response finds its vertex"
    );
    assert!(row(job, 4).tasks.is_empty(), "no details pasted for 4");
    // The same values in an array.
    let array = format!(
        "[{}]",
        serde_json::Deserializer::from_str(&pasted)
            .into_iter::<Value>()
            .map(|v| v.unwrap().to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    assert_eq!(parse(&array).unwrap(), stats);
}

/// An older Flink reports fewer fields: what it lacks is missing, not an error.
#[test]
fn fields_an_older_flink_lacks_are_missing() {
    let mut v = fixture()["jobs"][0]["checkpoints"].clone();
    for h in v["history"].as_array_mut().unwrap() {
        let h = h.as_object_mut().unwrap();
        for k in [
            "checkpointed_size",
            "processed_data",
            "persisted_data",
            "checkpoint_type",
            "status",
        ] {
            h.remove(k);
        }
        h.insert("latest_ack_timestamp".into(), Value::from(-1));
        h.insert("end_to_end_duration".into(), Value::Null);
    }
    let stats = parse(&v.to_string()).unwrap_or_else(|e| panic!("{e:#?}"));
    for r in &only_job(&stats).history.rows {
        assert_eq!(r.processed, None);
        assert_eq!(r.persisted, None);
        assert_eq!(r.unaligned, None);
        assert_eq!(r.end_to_end_ms, None);
        // Before 1.15 `state_size` was what the checkpoint wrote.
        assert_eq!(r.checkpointed_bytes, r.full_bytes);
        // `className` says the status in 1.x.
        assert!(r.status.is_some());
    }
    let sub = parse(
        r#"{"id": 3, "status": "COMPLETED", "subtasks": [
              {"index": 1, "status": "pending_or_failed"},
              {"index": 0, "ack_timestamp": 10, "end_to_end_duration": 4, "state_size": 9,
               "checkpoint": {"sync": 1, "async": 2}, "alignment": {"buffered": 0, "duration": 3}}]}
            {"history": [{"id": 3, "status": "COMPLETED"}]}
            {"id": 3, "status": "COMPLETED", "tasks": {"v1": {"id": 3, "num_subtasks": 2}}}"#,
    )
    .unwrap_or_else(|e| panic!("{e:#?}"));
    let task = &row(only_job(&sub), 3).tasks[0];
    assert_eq!(task.name, "v1", "unnamed vertices keep their id");
    let [s0, s1] = &task.subtasks[..] else {
        panic!("{task:#?}")
    };
    assert_eq!(
        (s0.index, s0.acknowledged, s0.alignment_ms),
        (0, true, Some(3))
    );
    assert_eq!(
        (s0.start_delay_ms, s0.persisted, s0.checkpointed_bytes),
        (None, None, Some(9))
    );
    assert_eq!(
        (s1.index, s1.acknowledged, s1.end_to_end_ms),
        (1, false, None)
    );
}

fn errors(text: &str) -> Vec<StatsError> {
    parse(text).expect_err(text)
}

#[test]
fn bad_input_names_the_json_path_of_what_is_wrong() {
    let e = errors(r#"{"history": [{"id": 1}, {"id": "two"}]}"#);
    assert_eq!(e[0].path, "$.history[1].id");
    assert_eq!(
        e[0].problem,
        Problem::Type {
            expected: Kind::WholeNumber,
            found: Kind::String
        }
    );
    let e = errors(r#"{"history": [{"end_to_end_duration": 4}]}"#);
    assert_eq!(
        (e[0].path.as_str(), &e[0].problem),
        ("$.history[0].id", &Problem::Missing)
    );
    let e = errors(r#"{"history": {"id": 1}}"#);
    assert_eq!(e[0].path, "$.history");
    let e = errors("{\"history\": [\n  {\"id\": 1},");
    assert!(
        matches!(e[0].problem, Problem::Syntax { line: 2, .. }),
        "{e:?}"
    );
    assert_eq!(errors(r#"{"pv": 3}"#)[0].problem, Problem::Unrecognised);
    assert_eq!(errors("[]")[0].problem, Problem::NoHistory);
    assert_eq!(errors("  ")[0].problem, Problem::NoHistory);
    assert_eq!(
        errors(r#"{"interval": 1000, "mode": "exactly_once"}"#)[0].problem,
        Problem::NoHistory,
        "a config alone has no history"
    );
    let e = errors(r#"{"history": []} {"bogus": 1} {"history": [{"id": 1.5}]}"#);
    assert_eq!(e[0].path, "(value 2) $");
    assert_eq!(e[1].path, "(value 3) $.history[0].id");
    let mut v = fixture();
    v["format"] = Value::from("checkpoint-lab flink stats 9");
    assert_eq!(
        errors(&v.to_string())[0].problem,
        Problem::Format("checkpoint-lab flink stats 9".into())
    );
    let mut v = fixture();
    let vertex = v["jobs"][0]["subtasks"]["5"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    v["jobs"][0]["subtasks"]["5"][&vertex]["subtasks"][0]["alignment"]["duration"] =
        Value::from("fast");
    let e = errors(&v.to_string());
    assert_eq!(
        e[0].path,
        format!("$.jobs[0].subtasks.5.{vertex}.subtasks[0].alignment.duration")
    );
}

/// Every strict prefix of the file (sampled every 97 bytes, and the first and
/// last 300) is refused as not JSON — none panics, none is half read.
#[test]
fn truncations_never_panic() {
    let mut cuts: Vec<usize> = (0..FIXTURE.len()).step_by(97).collect();
    cuts.extend(0..300);
    cuts.extend(FIXTURE.len() - 300..FIXTURE.len());
    let end = FIXTURE.trim_end().len();
    for cut in cuts {
        if !FIXTURE.is_char_boundary(cut) || cut >= end {
            continue;
        }
        let e = errors(&FIXTURE[..cut]);
        assert!(
            matches!(e[0].problem, Problem::Syntax { .. } | Problem::NoHistory),
            "cut at {cut}: {e:?}"
        );
    }
}

/// Every place a JSON pointer names, in the reader's path notation.
fn pointers(v: &Value, pointer: String, path: String, out: &mut Vec<(String, String)>) {
    out.push((pointer.clone(), path.clone()));
    match v {
        Value::Object(o) => {
            for (k, c) in o {
                let esc = k.replace('~', "~0").replace('/', "~1");
                pointers(c, format!("{pointer}/{esc}"), format!("{path}.{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                pointers(c, format!("{pointer}/{i}"), format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// Replaces the value at each of `places` by each of several values of other
/// types: the reader never panics, and whatever it refuses lies at or under the
/// replaced place (the rest of the document is sound).
fn mutate_each(mut doc: Value, places: &[(String, String)]) -> usize {
    let replacements = [
        Value::Null,
        Value::from("x"),
        Value::from(-5),
        Value::from(1.5),
        Value::from(true),
        Value::Array(vec![]),
        Value::Object(Map::new()),
        serde_json::json!({"id": "?"}),
    ];
    let mut refused = 0;
    for (pointer, path) in places {
        for r in &replacements {
            let slot = doc.pointer_mut(pointer).expect("a place of the document");
            let original = std::mem::replace(slot, r.clone());
            if let Err(errors) = parse_value(&doc) {
                refused += 1;
                for e in &errors {
                    let under = e.path == *path
                        || e.path.starts_with(&format!("{path}."))
                        || e.path.starts_with(&format!("{path}["));
                    assert!(under, "{path} := {r}: the error is at {}: {e:?}", e.path);
                }
            }
            *doc.pointer_mut(pointer).unwrap() = original;
        }
    }
    refused
}

#[test]
fn every_node_of_a_rest_response_damaged_never_panics_and_is_named() {
    let v = fixture();
    let mut rest = Vec::new();
    pointers(
        &v["jobs"][0]["checkpoints"],
        String::new(),
        "$".into(),
        &mut rest,
    );
    let refused = mutate_each(v["jobs"][0]["checkpoints"].clone(), &rest);
    assert!(refused > 100, "type errors are refused ({refused})");
    // The whole file: 600 of its places, drawn with a seed.
    let mut all = Vec::new();
    pointers(&v, String::new(), "$".into(), &mut all);
    let mut rng = Rng(0x5eed_f11c);
    let sample: Vec<_> = (0..600)
        .map(|_| all[rng.below(all.len())].clone())
        .collect();
    mutate_each(v, &sample);
}

#[test]
fn random_bytes_changed_never_panic() {
    let mut rng = Rng(42);
    let printable: Vec<u8> = (b' '..=b'~').collect();
    for _ in 0..400 {
        let mut bytes = FIXTURE.as_bytes().to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len());
            if bytes[at].is_ascii() {
                bytes[at] = printable[rng.below(printable.len())];
            }
        }
        let text = String::from_utf8(bytes).expect("ASCII for ASCII keeps UTF-8");
        if let Err(e) = parse(&text) {
            assert!(
                !e.is_empty() && e.iter().all(|e| e.path.starts_with('$')),
                "{e:?}"
            );
        }
    }
}

/// The lab's history in the same rows: newest first, ids, acknowledgements,
/// persisted in-flight data in records, subtasks grouped by operator.
#[test]
fn the_lab_history_in_the_same_rows() {
    let s = engine::runner::load("unaligned-backpressure").unwrap();
    let world = engine::runner::run(&s, &engine::runner::RunOptions::default(), |_| {}).unwrap();
    let view = world.view();
    let job = world.job_view();
    let h = lab_history(&job, &view.coordinator.history);
    assert_eq!(h.rows.len(), view.coordinator.history.len());
    assert!(!h.rows.is_empty());
    for (row, stats) in h.rows.iter().zip(view.coordinator.history.iter().rev()) {
        assert_eq!(row.id, stats.id.0);
        assert_eq!(row.acknowledged, Some(u64::from(stats.num_acknowledged())));
        assert_eq!(row.trigger_ms, Some(stats.trigger_at as i64));
        let subtasks: usize = row.tasks.iter().map(|t| t.subtasks.len()).sum();
        assert_eq!(subtasks, stats.subtasks.len());
        assert!(matches!(row.persisted, Some(Amount::Records(_))));
    }
    let persisted = h
        .rows
        .iter()
        .any(|r| r.persisted.is_some_and(|p| p != Amount::Records(0)));
    assert!(
        persisted,
        "the lab's unaligned checkpoints persist records too"
    );
    assert!(h.rows.windows(2).all(|w| w[0].id > w[1].id));
}
