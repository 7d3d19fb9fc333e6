//! `lab barriers` with queues (`[r1 r2 B1]@0`) and announcements (`A1@0`), run as a
//! user runs it: the lines it prints, and exit 2 with a message naming the token and
//! its position for bad input (docs/scenario-format.md, "The barrier bench").

use serde_json::{json, Value};
use std::process::{Command, Output};

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lab"))
        .args(args)
        .output()
        .expect("lab runs")
}

/// `lab barriers --mode unaligned --channels N --aligned-timeout T <arrivals>`.
fn barriers(channels: &str, timeout: &str, arrivals: &str) -> Output {
    lab(&[
        "barriers",
        "--mode",
        "unaligned",
        "--channels",
        channels,
        "--aligned-timeout",
        timeout,
        arrivals,
    ])
}

/// Flink's `AlternatingCheckpointsTest.testTimeoutAlignment` typed at the command
/// line: one line per element of each queue, the checkpoint triggered unaligned on
/// the tick, the overtaken records processed at the polls.
#[test]
fn barriers_accept_queues() {
    let o = barriers("2", "10", "[r1 r2 B1]@0 [r3 B1]@1 tick:20 poll@0 poll@1");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.stderr.is_empty());
    let lines: Vec<Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 9, "eight tokens, then the summary");
    let tokens: Vec<&str> = lines[..8]
        .iter()
        .map(|l| l["token"].as_str().unwrap())
        .collect();
    assert_eq!(
        tokens,
        ["r1", "r2", "B1", "r3", "B1", "tick:20", "poll@0", "poll@1"]
    );
    for l in &lines[..5] {
        assert_eq!(l["processed"], json!([]), "queued: {l}");
        assert_eq!(l["triggered"], json!([]), "announced only: {l}");
    }
    assert_eq!(
        lines[5]["triggered"],
        json!([{"checkpoint": 1, "unaligned": true, "processed_before_snapshot": 0,
                "channel_state": {"0": ["r1", "r2"], "1": ["r3"]}}])
    );
    assert_eq!(lines[6]["processed"], json!(["r1", "r2"]));
    assert_eq!(lines[7]["processed"], json!(["r3"]));
    assert_eq!(
        lines[8],
        json!({"summary": true, "triggered": [1], "aborted": [], "processed": ["r1", "r2", "r3"]})
    );
}

/// An announcement token starts the checkpoint: a barrier of a newer one subsumes it.
#[test]
fn barriers_accept_announcements() {
    let o = barriers("2", "100", "A1@0 B2@1");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["token"], "A1@0");
    assert_eq!(
        lines[1]["aborted"],
        json!([{"checkpoint": 1, "reason": "subsumed"}])
    );
}

/// Bad queues and announcements: exit 2, nothing on stdout, stderr naming the token
/// and its position.
#[test]
fn barriers_bad_queue_exits_2_naming_the_token() {
    let cases = [
        ("2", "10", "r0@0 [r1 r2 B1", "\"[r1\" (token 1)"),
        ("2", "10", "r0@0 [r1 r2 B1@0", "\"B1@0\" (token 3)"),
        ("2", "10", "[r1 r2]@0 B1]@1", "\"B1]@1\" (token 2)"),
        ("2", "10", "[r1 [r2]@0", "\"[r2]@0\" (token 1)"),
        ("2", "10", "[r1]@5", "\"r1\" (token 0)"),
        ("2", "0", "A1@0", "\"A1@0\" (token 0)"),
    ];
    for (channels, timeout, arrivals, names) in cases {
        let o = barriers(channels, timeout, arrivals);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{arrivals}: {err}");
        assert!(o.stdout.is_empty(), "{arrivals}");
        assert!(err.contains(names), "{arrivals}: {err}");
        assert!(!err.contains("panicked"), "{arrivals}: {err}");
    }
}
