//! Real checkpoint statistics: what Flink's REST API says about a job's
//! checkpoints, read into the rows of the page's Flink-web-UI replica, and the
//! lab's own history in the same rows, so the two can stand side by side.
//!
//! It reads:
//! - a file saved by `scripts/flink.sh … --stats FILE` (or an exported job's
//!   `--stats FILE`): `{"format": "checkpoint-lab flink stats 1", "jobs": [{"job",
//!   "config", "checkpoints", "details": {id: …}, "subtasks": {id: {vertex: …}}}]}`,
//!   Flink's own responses kept as they came;
//! - JSON pasted from any Flink job's REST API: `/jobs/:id/checkpoints` (the one
//!   with `history`) alone, or together with `/jobs/:id/checkpoints/config`,
//!   `/jobs/:id/checkpoints/details/:cid`, `…/details/:cid/subtasks/:vertex` and
//!   `/jobs/:id` (for the operators' names) — one value after another, or in an
//!   array. A subtask response does not name its vertex; it is matched to the
//!   vertex of its checkpoint's details whose totals it repeats.
//!
//! Fields that a Flink version does not report (`checkpointed_size` before 1.15,
//! `processed_data` / `persisted_data` / `start_delay` before 1.12, …), `null`,
//! Flink's `-1` for "unknown" and its `"NaN"` are missing (`None`), shown as "—".
//! A field of the wrong type is an error naming its JSON path
//! (`$.history[2].end_to_end_duration: expected a number, found a string`).
//! Pure, so the tests run natively over a real run's file and over damaged ones.

use std::collections::BTreeMap;

use engine::trace::SnapshotKind;
use engine::view::JobView;
use engine::view::{CheckpointStats, CheckpointStatus};
use serde_json::{Map, Value};

/// The `format` of a file saved by `flink.sh --stats`.
pub const FILE_FORMAT: &str = "checkpoint-lab flink stats 1";

/// The most errors reported for one import (the rest would repeat them).
const MAX_ERRORS: usize = 20;

/// A checkpoint's status, in the words of Flink's REST API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// `IN_PROGRESS`.
    InProgress,
    /// `COMPLETED`.
    Completed,
    /// `FAILED` (the lab: aborted).
    Failed,
    /// A status this page does not know, as Flink spelled it.
    Other(String),
}

impl Status {
    fn of_lab(s: CheckpointStatus) -> Status {
        match s {
            CheckpointStatus::InProgress => Status::InProgress,
            CheckpointStatus::Completed => Status::Completed,
            CheckpointStatus::Aborted => Status::Failed,
        }
    }

    fn parse(s: &str) -> Status {
        match s.to_ascii_uppercase().as_str() {
            "IN_PROGRESS" | "PENDING" => Status::InProgress,
            "COMPLETED" => Status::Completed,
            "FAILED" => Status::Failed,
            _ => Status::Other(s.to_string()),
        }
    }
}

/// An amount of in-flight data: Flink counts bytes, the lab counts records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    Bytes(u64),
    Records(u64),
}

/// One subtask's part of a checkpoint (Flink's web UI: a checkpoint's operator,
/// expanded).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SubtaskRow {
    /// Subtask index.
    pub index: u32,
    /// It acknowledged the checkpoint.
    pub acknowledged: bool,
    /// From the trigger to its acknowledgement, ms.
    pub end_to_end_ms: Option<u64>,
    /// What it wrote for this checkpoint.
    pub checkpointed_bytes: Option<u64>,
    /// Synchronous part of its snapshot, ms.
    pub sync_ms: Option<u64>,
    /// Asynchronous part, ms.
    pub async_ms: Option<u64>,
    /// Alignment duration, ms.
    pub alignment_ms: Option<u64>,
    /// From the trigger to its first barrier, ms.
    pub start_delay_ms: Option<u64>,
    /// In-flight data processed during alignment.
    pub processed: Option<Amount>,
    /// In-flight data persisted (unaligned).
    pub persisted: Option<Amount>,
    /// Its snapshot was unaligned.
    pub unaligned: Option<bool>,
}

/// One operator (Flink: job vertex) of a checkpoint, with its subtasks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskRow {
    /// The operator's name (Flink's vertex name, or its id when unnamed).
    pub name: String,
    /// Its subtasks that acknowledged.
    pub acknowledged: Option<u64>,
    /// Its subtasks.
    pub of: Option<u64>,
    /// Its subtasks, by index.
    pub subtasks: Vec<SubtaskRow>,
}

/// One checkpoint of a history, as a row of Flink's Checkpoints tab.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    /// Checkpoint id.
    pub id: u64,
    /// A savepoint rather than a checkpoint.
    pub savepoint: bool,
    /// Status (`None`: not reported).
    pub status: Option<Status>,
    /// Subtasks that acknowledged.
    pub acknowledged: Option<u64>,
    /// Subtasks that must acknowledge.
    pub subtasks: Option<u64>,
    /// Trigger time, ms after the history's origin ([`History::origin`]).
    pub trigger_ms: Option<i64>,
    /// End-to-end duration, ms.
    pub end_to_end_ms: Option<u64>,
    /// What this checkpoint wrote (Flink: "Checkpointed Data Size").
    pub checkpointed_bytes: Option<u64>,
    /// The whole state (Flink: "Full Checkpoint Data Size").
    pub full_bytes: Option<u64>,
    /// In-flight data processed during alignment.
    pub processed: Option<Amount>,
    /// In-flight data persisted (unaligned checkpoints).
    pub persisted: Option<Amount>,
    /// The checkpoint was unaligned.
    pub unaligned: Option<bool>,
    /// Why it failed, in Flink's (or the lab's) words.
    pub failure: Option<String>,
    /// Per operator, when the details were recorded.
    pub tasks: Vec<TaskRow>,
}

impl Row {
    fn of_json(status_default: Option<Status>) -> Row {
        Row {
            status: status_default,
            ..Row::default()
        }
    }
}

/// What trigger times are counted from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The start of the job (the lab: its run; Flink: the job's `start-time`).
    JobStart,
    /// The first checkpoint's trigger (Flink without the job's start time).
    FirstTrigger,
}

/// A checkpoint history, newest first as Flink's web UI shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    /// What [`Row::trigger_ms`] counts from.
    pub origin: Origin,
    /// The checkpoints, newest first.
    pub rows: Vec<Row>,
}

/// One job of an import.
#[derive(Clone, Debug, PartialEq)]
pub struct RealJob {
    /// Flink's job id.
    pub id: Option<String>,
    /// The job's name.
    pub name: Option<String>,
    /// Checkpoint counts (`counts`: total, completed, failed, in progress, restored).
    pub counts: Vec<(String, u64)>,
    /// `/checkpoints/config`, flattened (`externalization.enabled`), as Flink spelled it.
    pub config: Vec<(String, String)>,
    /// The history.
    pub history: History,
}

/// An import: one or more jobs' statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct RealStats {
    /// The Flink version, when the file says it.
    pub flink_version: Option<String>,
    /// The lesson the run was of (a flink.sh file).
    pub scenario: Option<String>,
    /// Wall-clock ms per lab ms of that run (a flink.sh file).
    pub time_scale: Option<f64>,
    /// The jobs, in the order they ran.
    pub jobs: Vec<RealJob>,
}

/// What kind of JSON value a field held or should hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Number,
    WholeNumber,
    String,
    Array,
    Object,
}

impl Kind {
    fn of(v: &Value) -> Kind {
        match v {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        }
    }
}

/// What is wrong with an import.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// The text is not JSON (serde's words for why).
    Syntax {
        line: usize,
        column: usize,
        detail: String,
    },
    /// A field of the wrong type.
    Type { expected: Kind, found: Kind },
    /// A field every Flink version reports is absent.
    Missing,
    /// A value that is none of the REST responses this page reads.
    Unrecognised,
    /// A flink.sh file of another format.
    Format(String),
    /// Nothing with a checkpoint history (`/jobs/:id/checkpoints`) was given.
    NoHistory,
}

/// One thing wrong, where (`$.history[2].id`; `$` alone for the whole text).
#[derive(Clone, Debug, PartialEq)]
pub struct StatsError {
    /// JSON path of the value, `(value 2) $…` for the second of several pasted values.
    pub path: String,
    pub problem: Problem,
}

/// Reads fields, collecting what is wrong instead of stopping at it.
struct Reader {
    errors: Vec<StatsError>,
}

impl Reader {
    fn fail(&mut self, path: String, problem: Problem) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(StatsError { path, problem });
        }
    }

    fn wrong(&mut self, path: String, expected: Kind, found: &Value) {
        self.fail(
            path,
            Problem::Type {
                expected,
                found: Kind::of(found),
            },
        );
    }

    /// `v` as an object; `null` is none; anything else an error.
    fn object<'v>(&mut self, v: &'v Value, path: &str) -> Option<&'v Map<String, Value>> {
        match v {
            Value::Object(o) => Some(o),
            Value::Null => None,
            other => {
                self.wrong(path.to_string(), Kind::Object, other);
                None
            }
        }
    }

    /// Field `key` of `o` as a present, non-null value.
    fn field<'v>(o: &'v Map<String, Value>, key: &str) -> Option<&'v Value> {
        o.get(key).filter(|v| !v.is_null())
    }

    /// A whole number ≥ 0; Flink's `-1` (unknown) and `"NaN"` are none.
    fn count(&mut self, o: &Map<String, Value>, key: &str, path: &str) -> Option<u64> {
        self.signed(o, key, path)
            .and_then(|n| u64::try_from(n).ok())
    }

    /// A whole number; `"NaN"` is none.
    fn signed(&mut self, o: &Map<String, Value>, key: &str, path: &str) -> Option<i64> {
        let v = Self::field(o, key)?;
        match v {
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Some(i)
                } else if let Some(u) = n.as_u64() {
                    Some(i64::try_from(u).unwrap_or(i64::MAX))
                } else {
                    match n.as_f64() {
                        Some(f) if f.fract() == 0.0 && f.abs() < 9.0e18 => Some(f as i64),
                        _ => {
                            self.wrong(format!("{path}.{key}"), Kind::WholeNumber, v);
                            None
                        }
                    }
                }
            }
            Value::String(s) if s == "NaN" => None,
            other => {
                self.wrong(format!("{path}.{key}"), Kind::WholeNumber, other);
                None
            }
        }
    }

    fn number(&mut self, o: &Map<String, Value>, key: &str, path: &str) -> Option<f64> {
        match Self::field(o, key)? {
            Value::Number(n) => n.as_f64(),
            Value::String(s) if s == "NaN" => None,
            other => {
                self.wrong(format!("{path}.{key}"), Kind::Number, other);
                None
            }
        }
    }

    fn flag(&mut self, o: &Map<String, Value>, key: &str, path: &str) -> Option<bool> {
        match Self::field(o, key)? {
            Value::Bool(b) => Some(*b),
            other => {
                self.wrong(format!("{path}.{key}"), Kind::Bool, other);
                None
            }
        }
    }

    fn text(&mut self, o: &Map<String, Value>, key: &str, path: &str) -> Option<String> {
        match Self::field(o, key)? {
            Value::String(s) => Some(s.clone()),
            other => {
                self.wrong(format!("{path}.{key}"), Kind::String, other);
                None
            }
        }
    }

    /// An id: a whole number, or (in a flink.sh file's maps) its decimal text.
    fn id(&mut self, o: &Map<String, Value>, path: &str) -> Option<u64> {
        if Self::field(o, "id").is_none() {
            self.fail(format!("{path}.id"), Problem::Missing);
            return None;
        }
        self.count(o, "id", path)
    }

    fn array<'v>(&mut self, o: &'v Map<String, Value>, key: &str, path: &str) -> &'v [Value] {
        match Self::field(o, key) {
            None => &[],
            Some(Value::Array(a)) => a,
            Some(other) => {
                self.wrong(format!("{path}.{key}"), Kind::Array, other);
                &[]
            }
        }
    }

    /// One checkpoint of `history` (or `latest.*`, or a details response).
    fn checkpoint(&mut self, o: &Map<String, Value>, path: &str) -> Option<Row> {
        let id = self.id(o, path)?;
        let status = self
            .text(o, "status", path)
            .or_else(|| {
                // Flink 1.x also says it in `className`.
                Self::field(o, "className")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .map(|s| Status::parse(&s));
        let kind = self.text(o, "checkpoint_type", path);
        let savepoint = self.flag(o, "is_savepoint", path).unwrap_or(false)
            || kind.as_deref().is_some_and(|k| k.contains("SAVEPOINT"));
        let checkpointed = self.count(o, "checkpointed_size", path);
        let state = self.count(o, "state_size", path);
        let mut row = Row::of_json(status);
        row.id = id;
        row.savepoint = savepoint;
        row.acknowledged = self.count(o, "num_acknowledged_subtasks", path);
        row.subtasks = self.count(o, "num_subtasks", path);
        row.trigger_ms = self.signed(o, "trigger_timestamp", path).filter(|t| *t > 0);
        row.end_to_end_ms = self.count(o, "end_to_end_duration", path);
        // Before 1.15 `state_size` was the only size: what the checkpoint wrote.
        row.checkpointed_bytes = checkpointed.or(state);
        row.full_bytes = state;
        row.processed = self.count(o, "processed_data", path).map(Amount::Bytes);
        row.persisted = self.count(o, "persisted_data", path).map(Amount::Bytes);
        row.unaligned = kind.as_deref().map(|k| k.contains("UNALIGNED"));
        row.failure = self.text(o, "failure_message", path);
        Some(row)
    }

    /// `…/details/:cid/subtasks/:vertex`'s `subtasks`.
    fn subtasks(&mut self, o: &Map<String, Value>, path: &str) -> Vec<SubtaskRow> {
        let mut out = Vec::new();
        for (i, s) in self.array(o, "subtasks", path).iter().enumerate() {
            let at = format!("{path}.subtasks[{i}]");
            let Some(s) = self.object(s, &at) else {
                continue;
            };
            let index = self.count(s, "index", &at).unwrap_or(i as u64) as u32;
            let status = self.text(s, "status", &at);
            let acknowledged = status.as_deref() == Some("completed")
                || (status.is_none() && Reader::field(s, "ack_timestamp").is_some());
            let mut row = SubtaskRow {
                index,
                acknowledged,
                end_to_end_ms: self.count(s, "end_to_end_duration", &at),
                checkpointed_bytes: self
                    .count(s, "checkpointed_size", &at)
                    .or_else(|| self.count(s, "state_size", &at)),
                start_delay_ms: self.count(s, "start_delay", &at),
                unaligned: self.flag(s, "unaligned_checkpoint", &at),
                ..SubtaskRow::default()
            };
            if let Some(c) = Reader::field(s, "checkpoint") {
                let cat = format!("{at}.checkpoint");
                if let Some(c) = self.object(c, &cat) {
                    row.sync_ms = self.count(c, "sync", &cat);
                    row.async_ms = self.count(c, "async", &cat);
                }
            }
            if let Some(a) = Reader::field(s, "alignment") {
                let aat = format!("{at}.alignment");
                if let Some(a) = self.object(a, &aat) {
                    row.alignment_ms = self.count(a, "duration", &aat);
                    row.processed = self.count(a, "processed", &aat).map(Amount::Bytes);
                    row.persisted = self.count(a, "persisted", &aat).map(Amount::Bytes);
                }
            }
            out.push(row);
        }
        out.sort_by_key(|s| s.index);
        out
    }

    /// `/checkpoints/config`, flattened.
    fn config(&mut self, o: &Map<String, Value>) -> Vec<(String, String)> {
        fn flatten(prefix: &str, o: &Map<String, Value>, out: &mut Vec<(String, String)>) {
            for (k, v) in o {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                match v {
                    Value::Object(inner) => flatten(&key, inner, out),
                    Value::String(s) => out.push((key, s.clone())),
                    Value::Null | Value::Array(_) => {}
                    other => out.push((key, other.to_string())),
                }
            }
        }
        let mut out = Vec::new();
        flatten("", o, &mut out);
        out
    }
}

/// A `…/subtasks/:vertex` response: its checkpoint id, its vertex id (`None`:
/// to be matched by its totals), the response and where it was.
type SubtasksPiece<'v> = (Option<u64>, Option<String>, &'v Map<String, Value>, String);

/// The pieces of one job, gathered before they are put together.
#[derive(Default)]
struct Pieces<'v> {
    job_id: Option<String>,
    name: Option<String>,
    start_ms: Option<i64>,
    /// Vertex id → name (from `/jobs/:id`).
    vertex_names: BTreeMap<String, String>,
    checkpoints: Option<(&'v Map<String, Value>, String)>,
    config: Option<&'v Map<String, Value>>,
    /// Checkpoint id → its details and where they were.
    details: BTreeMap<u64, (&'v Map<String, Value>, String)>,
    /// Subtasks responses, each under its checkpoint and vertex.
    subtasks: Vec<SubtasksPiece<'v>>,
}

impl<'v> Pieces<'v> {
    fn job_overview(&mut self, r: &mut Reader, o: &'v Map<String, Value>, path: &str) {
        self.job_id = self.job_id.take().or_else(|| r.text(o, "jid", path));
        self.name = self.name.take().or_else(|| r.text(o, "name", path));
        self.start_ms = r.signed(o, "start-time", path).filter(|t| *t > 0);
        for (i, v) in r.array(o, "vertices", path).iter().enumerate() {
            let at = format!("{path}.vertices[{i}]");
            if let Some(v) = r.object(v, &at) {
                if let (Some(id), Some(name)) = (r.text(v, "id", &at), r.text(v, "name", &at)) {
                    self.vertex_names.insert(id, name);
                }
            }
        }
    }

    /// Sorts one pasted (or filed) value into its place by its shape.
    fn take(&mut self, r: &mut Reader, v: &'v Value, path: &str) {
        let Some(o) = r.object(v, path) else {
            if v.is_null() {
                r.fail(path.to_string(), Problem::Unrecognised);
            }
            return;
        };
        if o.contains_key("history") || o.contains_key("counts") {
            self.checkpoints = Some((o, path.to_string()));
        } else if o.contains_key("jid") && o.contains_key("vertices") {
            self.job_overview(r, o, path);
        } else if o.contains_key("subtasks") && o.contains_key("id") {
            let id = r.count(o, "id", path);
            self.subtasks.push((id, None, o, path.to_string()));
        } else if o.contains_key("tasks") && o.contains_key("id") {
            if let Some(id) = r.id(o, path) {
                self.details.insert(id, (o, path.to_string()));
            }
        } else if o.contains_key("interval") || o.contains_key("mode") {
            self.config = Some(o);
        } else {
            r.fail(path.to_string(), Problem::Unrecognised);
        }
    }

    /// A vertex's name: from the job overview, else its id.
    fn vertex_name(&self, vertex: &str) -> String {
        self.vertex_names
            .get(vertex)
            .cloned()
            .unwrap_or_else(|| vertex.to_string())
    }

    fn job(self, r: &mut Reader) -> Option<RealJob> {
        let (checkpoints, path) = self.checkpoints.clone()?;
        let mut counts = Vec::new();
        if let Some(c) = Reader::field(checkpoints, "counts") {
            let at = format!("{path}.counts");
            if let Some(c) = r.object(c, &at) {
                for key in ["total", "completed", "failed", "in_progress", "restored"] {
                    if let Some(n) = r.count(c, key, &at) {
                        counts.push((key.to_string(), n));
                    }
                }
            }
        }
        let mut rows = Vec::new();
        for (i, h) in r.array(checkpoints, "history", &path).iter().enumerate() {
            let at = format!("{path}.history[{i}]");
            if let Some(h) = r.object(h, &at) {
                if let Some(row) = r.checkpoint(h, &at) {
                    rows.push(row);
                }
            }
        }
        // The details of a checkpoint: its operators, each with its subtasks.
        for row in &mut rows {
            let Some((details, at)) = self.details.get(&row.id) else {
                continue;
            };
            let Some(tasks) = Reader::field(details, "tasks") else {
                continue;
            };
            let tat = format!("{at}.tasks");
            let Some(tasks) = r.object(tasks, &tat) else {
                continue;
            };
            for (vertex, task) in tasks {
                let vat = format!("{tat}.{vertex}");
                let Some(task) = r.object(task, &vat) else {
                    continue;
                };
                let subtasks = self
                    .subtasks
                    .iter()
                    .find(|(id, v, s, _)| {
                        *id == Some(row.id)
                            && match v {
                                Some(v) => v == vertex,
                                None => same_totals(s, task, tasks.len() == 1),
                            }
                    })
                    .map(|(_, _, s, sat)| r.subtasks(s, sat))
                    .unwrap_or_default();
                row.tasks.push(TaskRow {
                    name: self.vertex_name(vertex),
                    acknowledged: r.count(task, "num_acknowledged_subtasks", &vat),
                    of: r.count(task, "num_subtasks", &vat),
                    subtasks,
                });
            }
        }
        // Newest first, as Flink's web UI; times from the job's start if known.
        rows.sort_by_key(|r| std::cmp::Reverse(r.id));
        let (origin, zero) = match self.start_ms {
            Some(s) => (Origin::JobStart, Some(s)),
            None => (
                Origin::FirstTrigger,
                rows.iter().filter_map(|r| r.trigger_ms).min(),
            ),
        };
        if let Some(zero) = zero {
            for row in &mut rows {
                row.trigger_ms = row.trigger_ms.map(|t| t - zero);
            }
        }
        let config = self.config.map(|c| r.config(c)).unwrap_or_default();
        Some(RealJob {
            id: self.job_id,
            name: self.name,
            counts,
            config,
            history: History { origin, rows },
        })
    }
}

/// Whether a subtask response repeats the totals of `task` (a vertex of the
/// checkpoint's details), which is how an unnamed one finds its vertex: every
/// total both report is equal, and at least one is compared unless the
/// checkpoint has only this vertex.
fn same_totals(subtasks: &Map<String, Value>, task: &Map<String, Value>, only: bool) -> bool {
    let mut compared = 0;
    for k in [
        "latest_ack_timestamp",
        "num_subtasks",
        "checkpointed_size",
        "state_size",
    ] {
        if let (Some(a), Some(b)) = (subtasks.get(k), task.get(k)) {
            if a != b {
                return false;
            }
            compared += 1;
        }
    }
    compared > 0 || only
}

/// Reads a flink.sh file's job: Flink's responses under their names.
fn filed_job<'v>(r: &mut Reader, job: &'v Map<String, Value>, path: &str) -> Pieces<'v> {
    let mut p = Pieces {
        job_id: r.text(job, "job_id", path),
        name: r.text(job, "name", path),
        ..Pieces::default()
    };
    if let Some(overview) = Reader::field(job, "job") {
        let at = format!("{path}.job");
        if let Some(o) = r.object(overview, &at) {
            p.job_overview(r, o, &at);
        }
    }
    if let Some(c) = Reader::field(job, "checkpoints") {
        let at = format!("{path}.checkpoints");
        if let Some(o) = r.object(c, &at) {
            p.checkpoints = Some((o, at));
        }
    }
    if let Some(c) = Reader::field(job, "config") {
        p.config = r.object(c, &format!("{path}.config"));
    }
    if let Some(d) = Reader::field(job, "details") {
        let at = format!("{path}.details");
        if let Some(d) = r.object(d, &at) {
            for (id, v) in d {
                let dat = format!("{at}.{id}");
                if let Some(o) = r.object(v, &dat) {
                    if let Some(n) = r.id(o, &dat) {
                        p.details.insert(n, (o, dat));
                    }
                }
            }
        }
    }
    if let Some(s) = Reader::field(job, "subtasks") {
        let at = format!("{path}.subtasks");
        if let Some(s) = r.object(s, &at) {
            for (id, vertices) in s {
                let cat = format!("{at}.{id}");
                let Some(vertices) = r.object(vertices, &cat) else {
                    continue;
                };
                for (vertex, v) in vertices {
                    let vat = format!("{cat}.{vertex}");
                    if let Some(o) = r.object(v, &vat) {
                        p.subtasks
                            .push((id.parse().ok(), Some(vertex.clone()), o, vat));
                    }
                }
            }
        }
    }
    p
}

/// Reads an import: a flink.sh file, or REST responses (see the module documentation).
pub fn parse(text: &str) -> Result<RealStats, Vec<StatsError>> {
    let mut values = Vec::new();
    for v in serde_json::Deserializer::from_str(text).into_iter::<Value>() {
        match v {
            Ok(v) => values.push(v),
            Err(e) => {
                return Err(vec![StatsError {
                    path: "$".into(),
                    problem: Problem::Syntax {
                        line: e.line(),
                        column: e.column(),
                        detail: e.to_string(),
                    },
                }])
            }
        }
    }
    match values.len() {
        0 => Err(vec![StatsError {
            path: "$".into(),
            problem: Problem::NoHistory,
        }]),
        1 => parse_value(&values[0]),
        _ => parse_value(&Value::Array(values)).map_err(|errors| {
            // `$[1]…` of the array built here is the second pasted value.
            errors
                .into_iter()
                .map(|e| StatsError {
                    path: pasted_path(&e.path),
                    ..e
                })
                .collect()
        }),
    }
}

/// `$[1].history[0]` → `(value 2) $.history[0]`.
fn pasted_path(path: &str) -> String {
    let Some(rest) = path.strip_prefix("$[") else {
        return path.to_string();
    };
    match rest.split_once(']') {
        Some((n, tail)) => match n.parse::<usize>() {
            Ok(n) => format!("(value {}) ${tail}", n + 1),
            Err(_) => path.to_string(),
        },
        None => path.to_string(),
    }
}

/// [`parse`] for an already parsed JSON value.
pub fn parse_value(v: &Value) -> Result<RealStats, Vec<StatsError>> {
    let mut r = Reader { errors: Vec::new() };
    let mut stats = RealStats {
        flink_version: None,
        scenario: None,
        time_scale: None,
        jobs: Vec::new(),
    };
    let filed = v
        .as_object()
        .filter(|o| o.contains_key("format") && o.contains_key("jobs"));
    if let Some(o) = filed {
        match r.text(o, "format", "$") {
            Some(f) if f == FILE_FORMAT => {}
            Some(f) => r.fail("$.format".into(), Problem::Format(f)),
            None => {}
        }
        stats.flink_version = r.text(o, "flink_version", "$");
        stats.scenario = r.text(o, "scenario", "$");
        stats.time_scale = r.number(o, "time_scale", "$");
        for (i, job) in r.array(o, "jobs", "$").iter().enumerate() {
            let at = format!("$.jobs[{i}]");
            if let Some(job) = r.object(job, &at) {
                let pieces = filed_job(&mut r, job, &at);
                if pieces.checkpoints.is_none() {
                    r.fail(format!("{at}.checkpoints"), Problem::Missing);
                }
                if let Some(j) = pieces.job(&mut r) {
                    stats.jobs.push(j);
                }
            }
        }
        if stats.jobs.is_empty() && r.errors.is_empty() {
            r.fail("$.jobs".into(), Problem::Missing);
        }
    } else {
        let mut pieces = Pieces::default();
        match v {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    pieces.take(&mut r, item, &format!("$[{i}]"));
                }
            }
            other => pieces.take(&mut r, other, "$"),
        }
        let had_history = pieces.checkpoints.is_some();
        if let Some(j) = pieces.job(&mut r) {
            stats.jobs.push(j);
        }
        if !had_history && r.errors.is_empty() {
            r.fail("$".into(), Problem::NoHistory);
        }
    }
    if r.errors.is_empty() {
        Ok(stats)
    } else {
        Err(r.errors)
    }
}

/// The lab's history in the same rows: sizes as the lab models them, in-flight
/// data in records, trigger times from the run's start.
pub fn lab_history(job: &JobView, history: &[CheckpointStats]) -> History {
    let rows = history
        .iter()
        .rev()
        .map(|h| {
            let mut tasks: Vec<TaskRow> = Vec::new();
            for (t, s) in &h.subtasks {
                let name = job
                    .tasks
                    .get(t.0 as usize)
                    .map_or_else(|| format!("#{}", t.0), |t| t.name.to_string());
                let (operator, index) = match name.rsplit_once('#') {
                    Some((op, i)) => (op.to_string(), i.parse().unwrap_or(0)),
                    None => (name.clone(), 0),
                };
                let row = SubtaskRow {
                    index,
                    acknowledged: s.ack_at.is_some(),
                    end_to_end_ms: s.ack_at.map(|a| a.saturating_sub(h.trigger_at)),
                    checkpointed_bytes: s.ack_at.map(|_| s.uploaded_bytes),
                    sync_ms: s.snapshot_at.map(|_| 0),
                    async_ms: s
                        .snapshot_at
                        .zip(s.ack_at)
                        .map(|(a, b)| b.saturating_sub(a)),
                    alignment_ms: s.first_barrier_at.map(|_| s.alignment_ms()),
                    start_delay_ms: s.first_barrier_at.map(|a| a.saturating_sub(h.trigger_at)),
                    processed: None,
                    persisted: Some(Amount::Records(s.persisted_records)),
                    unaligned: s.snapshot_at.map(|_| s.unaligned),
                };
                let acked = u64::from(row.acknowledged);
                match tasks.iter_mut().find(|t| t.name == operator) {
                    Some(t) => {
                        t.subtasks.push(row);
                        t.acknowledged = t.acknowledged.map(|a| a + acked);
                        t.of = t.of.map(|n| n + 1);
                    }
                    None => tasks.push(TaskRow {
                        name: operator,
                        acknowledged: Some(acked),
                        of: Some(1),
                        subtasks: vec![row],
                    }),
                }
            }
            Row {
                id: h.id.0,
                savepoint: h.kind != SnapshotKind::Checkpoint,
                status: Some(Status::of_lab(h.status)),
                acknowledged: Some(u64::from(h.num_acknowledged())),
                subtasks: Some(u64::from(h.num_subtasks)),
                trigger_ms: i64::try_from(h.trigger_at).ok(),
                end_to_end_ms: h.end_at.map(|e| e.saturating_sub(h.trigger_at)),
                checkpointed_bytes: Some(h.subtasks.values().map(|s| s.uploaded_bytes).sum()),
                full_bytes: Some(h.subtasks.values().map(|s| s.state_bytes).sum()),
                processed: None,
                persisted: Some(Amount::Records(
                    h.subtasks.values().map(|s| s.persisted_records).sum(),
                )),
                unaligned: Some(h.unaligned),
                failure: h.reason.clone(),
                tasks,
            }
        })
        .collect();
    History {
        origin: Origin::JobStart,
        rows,
    }
}

#[cfg(test)]
mod tests;
