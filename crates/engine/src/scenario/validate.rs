//! Validation of a parsed [`Scenario`]: every rule of contract v1 and of Flink's own
//! configuration checks (docs/flink-semantics.md §1.1, §5.1), each error naming the JSON
//! path it blames.
//!
//! Errors are collected section by section in document order (version, name, job,
//! checkpointing, restart, script); all of them are reported, not just the first.
//! Where Flink throws, the message quotes Flink's; where Flink only logs and adjusts, the lab
//! either rejects (and says what Flink would do) or returns a warning, as the
//! contract says.
//!
//! Validation never panics, whatever the values: it is the guard in front of the
//! engine, fed straight from a text box on the page.

use super::points::PointMode;
use super::MAX_RESTORE_DEPTH;
use super::{
    parse_task_name, CheckpointingConfig, CheckpointingMode, EdgeSpec, FieldError, FnName, Job,
    ListStateMode, OperatorKind, OperatorSpec, PartitionSpec, Partitioning, RestartConfig,
    RestoreSpec, Scenario, ScenarioError, ScriptStep, SinkKind, CONTRACT_VERSION,
    MINIMAL_CHECKPOINT_TIME_MS,
};
use crate::keygroup::UPPER_BOUND_MAX_PARALLELISM;
use std::collections::BTreeMap;

/// The most records one generator may produce. A lab limit, not Flink's: the whole
/// input is materialized and animated, so a typo such as `"count": 1500000000`
/// must be an error rather than an out-of-memory tab.
pub const MAX_GENERATED_RECORDS: u64 = 1_000_000;

impl Scenario {
    /// Checks every rule of the contract; on success returns the warnings (for the
    /// summary's `warnings`), each `"<path>: <what Flink adjusts>"`: a
    /// `min_pause_ms` above the interval raises the effective interval; an aligned
    /// checkpoint timeout without unaligned checkpoints is ignored; and the like.
    ///
    /// Flink: the checks of `CheckpointConfig`'s setters,
    /// `CheckpointCoordinatorConfiguration`, `StreamGraph`/`StreamingJobGraphGenerator`
    /// and the restart strategies' constructors, done before the job starts.
    pub fn validate(&self) -> Result<Vec<String>, ScenarioError> {
        self.validate_at_depth(0)
    }

    /// [`Scenario::validate`] for a document nested `depth` levels deep in
    /// `restore.from`.
    fn validate_at_depth(&self, depth: usize) -> Result<Vec<String>, ScenarioError> {
        let mut check = Checker::default();
        if self.version != CONTRACT_VERSION {
            check.error(
                "version",
                format!(
                    "unsupported version {}: this lab reads version {CONTRACT_VERSION}",
                    self.version
                ),
            );
        }
        if self.name.trim().is_empty() {
            check.error("name", "must not be empty".to_string());
        }
        check_job(&mut check, &self.job);
        if let Some(config) = &self.checkpointing {
            check_checkpointing(&mut check, config);
        }
        if let Some(restart) = &self.restart {
            check_restart(&mut check, restart);
        }
        check_script(&mut check, self);
        warn_short_transaction_timeouts(&mut check, self);
        if let Some(restore) = &self.restore {
            check_restore(&mut check, restore, depth + 1);
        }
        check_points(&mut check, self);
        if check.errors.is_empty() {
            Ok(check.warnings)
        } else {
            Err(ScenarioError {
                errors: check.errors,
            })
        }
    }
}

/// Collects errors and warnings in the order they are found.
#[derive(Default)]
struct Checker {
    errors: Vec<FieldError>,
    warnings: Vec<String>,
}

impl Checker {
    fn error(&mut self, field: impl Into<String>, message: String) {
        self.errors.push(FieldError {
            field: field.into(),
            message,
        });
    }

    fn warn(&mut self, field: impl AsRef<str>, message: String) {
        self.warnings.push(format!("{}: {message}", field.as_ref()));
    }
}

fn check_job(check: &mut Checker, job: &Job) {
    // Bound for parallelism: the job's max parallelism when it sets a valid one;
    // unset, each operator derives its own (at least its parallelism).
    let mut parallelism_bound = UPPER_BOUND_MAX_PARALLELISM;
    if let Some(max_parallelism) = job.max_parallelism {
        if (1..=UPPER_BOUND_MAX_PARALLELISM).contains(&max_parallelism) {
            parallelism_bound = max_parallelism;
        } else {
            check.error(
                "job.max_parallelism",
                format!(
                    "max parallelism must be within 1..={UPPER_BOUND_MAX_PARALLELISM}, got {max_parallelism}"
                ),
            );
        }
    }

    if job.operators.is_empty() {
        check.error(
            "job.operators",
            "No operators defined in streaming topology: a job needs at least one source"
                .to_string(),
        );
    }

    // uid → index of its first definition; later duplicates are errors.
    let mut first_by_uid: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, op) in job.operators.iter().enumerate() {
        let path = format!("job.operators[{i}]");
        if op.uid.is_empty() {
            check.error(format!("{path}.uid"), "must not be empty".to_string());
        } else if op.uid.contains('#') {
            check.error(
                format!("{path}.uid"),
                format!(
                    "\"{}\" must not contain '#' (subtasks are named \"<uid>#<index>\")",
                    op.uid
                ),
            );
        }
        match first_by_uid.get(op.uid.as_str()) {
            Some(&first) => check.error(
                format!("{path}.uid"),
                format!("duplicate uid \"{}\": also job.operators[{first}]", op.uid),
            ),
            None => {
                first_by_uid.insert(&op.uid, i);
            }
        }
        if op.parallelism < 1 || op.parallelism > parallelism_bound {
            check.error(
                format!("{path}.parallelism"),
                format!(
                    "parallelism must be within 1..={parallelism_bound} ({}), got {}",
                    if job.max_parallelism.is_some() {
                        "max_parallelism"
                    } else {
                        "Flink's upper bound of max parallelism"
                    },
                    op.parallelism
                ),
            );
        }
        check_operator_fields(check, &path, op);
        check_state_fields(check, &path, op);
    }

    check_edges(check, job, &first_by_uid);
    check_broadcast_rules(check, job);
}

/// `fn`: a map's function or a filter's predicate, on those two kinds only.
fn check_function(check: &mut Checker, path: &str, op: &OperatorSpec) {
    let kind = op.kind.as_str();
    match (op.kind, op.r#fn) {
        (OperatorKind::Map, None) => check.error(
            format!("{path}.fn"),
            "a map needs \"fn\": identity, double or parity_key".to_string(),
        ),
        (OperatorKind::Map, Some(f)) if !f.is_map_fn() => check.error(
            format!("{path}.fn"),
            format!(
                "\"{}\" is a filter predicate; a map takes identity, double or parity_key",
                f.as_str()
            ),
        ),
        (OperatorKind::Filter, None) => check.error(
            format!("{path}.fn"),
            "a filter needs \"fn\": even or odd".to_string(),
        ),
        (OperatorKind::Filter, Some(f)) if !f.is_filter_fn() => check.error(
            format!("{path}.fn"),
            format!(
                "\"{}\" is a map function; a filter takes even or odd",
                f.as_str()
            ),
        ),
        (OperatorKind::Map | OperatorKind::Filter, Some(_)) => {}
        (_, Some(f)) => check.error(
            format!("{path}.fn"),
            format!(
                "only map and filter take \"fn\" ({} is a {kind}, \"fn\" is \"{}\")",
                op.uid,
                f.as_str()
            ),
        ),
        (_, None) => {}
    }
}

/// Fields that belong to one kind only: present where they must be, absent elsewhere.
fn check_operator_fields(check: &mut Checker, path: &str, op: &OperatorSpec) {
    let kind = op.kind.as_str();
    if op.is_source() {
        match &op.partitions {
            None => check.error(
                format!("{path}.partitions"),
                "a source needs at least one partition".to_string(),
            ),
            Some(partitions) if partitions.is_empty() => check.error(
                format!("{path}.partitions"),
                "a source needs at least one partition".to_string(),
            ),
            Some(partitions) => {
                for (j, partition) in partitions.iter().enumerate() {
                    check_partition(check, &format!("{path}.partitions[{j}]"), partition);
                }
            }
        }
        if op.emit_interval_ms == Some(0) {
            check.error(
                format!("{path}.emit_interval_ms"),
                "must be at least 1 ms".to_string(),
            );
        }
    } else {
        if op.partitions.is_some() {
            check.error(
                format!("{path}.partitions"),
                format!("only a source has partitions ({} is a {kind})", op.uid),
            );
        }
        if op.emit_interval_ms.is_some() {
            check.error(
                format!("{path}.emit_interval_ms"),
                format!(
                    "only a source has an emit interval ({} is a {kind})",
                    op.uid
                ),
            );
        }
    }

    check_function(check, path, op);

    if op.offsets_state != ListStateMode::EvenSplit && !op.is_source() {
        check.error(
            format!("{path}.offsets_state"),
            format!("only a source has offsets state ({} is a {kind})", op.uid),
        );
    }
    if op.rules_from.is_some() && op.kind != OperatorKind::BroadcastFilter {
        check.error(
            format!("{path}.rules_from"),
            format!(
                "only a broadcast_filter takes \"rules_from\" ({} is a {kind})",
                op.uid
            ),
        );
    }

    match (op.is_sink(), op.sink) {
        (true, None) => check.error(
            format!("{path}.sink"),
            "a sink needs \"sink\": two_phase_commit, idempotent or at_least_once".to_string(),
        ),
        (false, Some(_)) => check.error(
            format!("{path}.sink"),
            format!("only a sink takes \"sink\" ({} is a {kind})", op.uid),
        ),
        _ => {}
    }
    match (op.transaction_timeout_ms, op.sink) {
        (None, _) => {}
        (Some(0), Some(SinkKind::TwoPhaseCommit)) => check.error(
            format!("{path}.transaction_timeout_ms"),
            "must be at least 1 ms (Kafka's transaction.timeout.ms)".to_string(),
        ),
        (Some(_), Some(SinkKind::TwoPhaseCommit)) => {}
        (Some(_), _) => check.error(
            format!("{path}.transaction_timeout_ms"),
            format!(
                "only a two_phase_commit sink has transactions to time out ({} is {})",
                op.uid,
                match op.sink {
                    Some(SinkKind::Idempotent) => "an idempotent sink".to_string(),
                    Some(SinkKind::AtLeastOnce) => "an at_least_once sink".to_string(),
                    _ => format!("a {kind}"),
                }
            ),
        ),
    }
}

/// A two-phase-commit sink's `transaction_timeout_ms` below the longest time a
/// transaction can stay uncommitted ([`Scenario::longest_uncommitted_ms`]): the broker
/// may abort a transaction Flink still means to commit, and its records are lost.
/// Flink's documentation asks for a timeout above the longest checkpoint plus restart.
fn warn_short_transaction_timeouts(check: &mut Checker, scenario: &Scenario) {
    let longest = scenario.longest_uncommitted_ms();
    for (i, op) in scenario.job.operators.iter().enumerate() {
        let (Some(timeout), Some(SinkKind::TwoPhaseCommit)) = (op.transaction_timeout_ms, op.sink)
        else {
            continue;
        };
        if timeout == 0 {
            continue;
        }
        let path = format!("job.operators[{i}].transaction_timeout_ms");
        match longest {
            None => check.warn(
                path,
                format!(
                    "{timeout} ms, and no periodic checkpoint bounds how long a transaction stays open: \
                     the broker aborts any transaction open longer, and its records are lost or fail the sink"
                ),
            ),
            Some(longest) if timeout < longest => check.warn(
                path,
                format!(
                    "{timeout} ms is below the {longest} ms a transaction can stay uncommitted here \
                     ((tolerable_failures + 1) × (interval + checkpoint timeout) + restart delay): the broker \
                     may abort a pre-committed transaction before its checkpoint commits it, and its records are lost"
                ),
            ),
            Some(_) => {}
        }
    }
}

/// The fields of the operator kinds with named keyed states (an extension of
/// contract v1): `window_ms`, `reduce`, `ttl`.
fn check_state_fields(check: &mut Checker, path: &str, op: &OperatorSpec) {
    let kind = op.kind.as_str();
    match (op.kind, op.window_ms) {
        (OperatorKind::KeyedWindowCount, None) => check.error(
            format!("{path}.window_ms"),
            "a keyed_window_count needs \"window_ms\": the length of its tumbling windows"
                .to_string(),
        ),
        (OperatorKind::KeyedWindowCount, Some(0)) => check.error(
            format!("{path}.window_ms"),
            "must be at least 1 ms".to_string(),
        ),
        (OperatorKind::KeyedWindowCount, Some(_)) | (_, None) => {}
        (_, Some(_)) => check.error(
            format!("{path}.window_ms"),
            format!(
                "only a keyed_window_count takes \"window_ms\" ({} is a {kind})",
                op.uid
            ),
        ),
    }
    match (op.kind, op.reduce) {
        (OperatorKind::KeyedReduce, None) => check.error(
            format!("{path}.reduce"),
            "a keyed_reduce needs \"reduce\": sum, max or min".to_string(),
        ),
        (OperatorKind::KeyedReduce, Some(_)) | (_, None) => {}
        (_, Some(_)) => check.error(
            format!("{path}.reduce"),
            format!(
                "only a keyed_reduce takes \"reduce\" ({} is a {kind})",
                op.uid
            ),
        ),
    }
    let Some(ttl) = &op.ttl else { return };
    if !op.kind.has_named_state() {
        check.error(
            format!("{path}.ttl"),
            format!(
                "only keyed_window_count, keyed_reduce, keyed_average and keyed_dedup take \"ttl\" ({} is a {kind})",
                op.uid
            ),
        );
        return;
    }
    if ttl.ttl_ms == 0 {
        // Flink: StateTtlConfig.Builder checks the TTL is positive.
        check.error(
            format!("{path}.ttl.ttl_ms"),
            "must be at least 1 ms".to_string(),
        );
    }
    if ttl.cleanup.incremental.is_some_and(|i| i.cleanup_size == 0) {
        // Flink: IncrementalCleanupStrategy's checkArgument(cleanupSize > 0).
        check.error(
            format!("{path}.ttl.cleanup.incremental.cleanup_size"),
            "Number of incrementally cleaned up state entries should be positive.".to_string(),
        );
    }
}

fn check_partition(check: &mut Checker, path: &str, partition: &PartitionSpec) {
    match partition {
        PartitionSpec::Records(records) => {
            if records.windows(2).any(|pair| pair[1].at_ms < pair[0].at_ms) {
                check.warn(
                    format!("{path}.records"),
                    "records are not in at_ms order: each is emitted in list order, once it is due and all before it are emitted"
                        .to_string(),
                );
            }
        }
        PartitionSpec::Generate(spec) => {
            let path = format!("{path}.generate");
            if spec.every_ms < 1 {
                check.error(
                    format!("{path}.every_ms"),
                    "must be at least 1 ms".to_string(),
                );
            } else if spec.every_ms.checked_mul(spec.count).is_none() {
                check.error(
                    format!("{path}.every_ms"),
                    format!(
                        "the last record would be due at {} × {} ms, beyond the simulated clock (u64 ms)",
                        spec.count, spec.every_ms
                    ),
                );
            }
            if spec.count > MAX_GENERATED_RECORDS {
                check.error(
                    format!("{path}.count"),
                    format!("at most {MAX_GENERATED_RECORDS} records per generator (a lab limit), got {}", spec.count),
                );
            }
            if let Some(keys) = &spec.keys {
                if keys.is_empty() {
                    check.error(
                        format!("{path}.keys"),
                        "must not be empty when present (leave it out for records without a key)"
                            .to_string(),
                    );
                }
            }
        }
    }
}

/// A `broadcast_filter` names its rules stream, which reaches it over a broadcast
/// edge (Flink: `connect(rules.broadcast(descriptor))`), and has a main input too.
fn check_broadcast_rules(check: &mut Checker, job: &Job) {
    for (i, op) in job.operators.iter().enumerate() {
        if op.kind != OperatorKind::BroadcastFilter {
            continue;
        }
        let path = format!("job.operators[{i}].rules_from");
        let Some(rules) = &op.rules_from else {
            check.error(path, "a broadcast_filter needs \"rules_from\": the uid of the operator that sends the rules".to_string());
            continue;
        };
        let edges: Vec<&EdgeSpec> = job.edges.iter().filter(|e| e.to == op.uid).collect();
        match edges.iter().find(|e| &e.from == rules) {
            None => check.error(path, format!("no edge from \"{rules}\" to \"{}\" carries the rules", op.uid)),
            Some(e) if e.partitioning != Some(Partitioning::Broadcast) => check.error(
                path,
                format!("the rules edge from \"{rules}\" must be \"broadcast\": every subtask needs every rule"),
            ),
            Some(_) if edges.iter().all(|e| &e.from == rules) => check.error(
                path,
                format!("\"{}\" has no main input besides its rules from \"{rules}\"", op.uid),
            ),
            Some(_) => {}
        }
    }
}

fn check_edges(check: &mut Checker, job: &Job, first_by_uid: &BTreeMap<&str, usize>) {
    let operator = |uid: &str| first_by_uid.get(uid).map(|&i| &job.operators[i]);
    // (from, to) → index of the first edge joining them.
    let mut first_by_pair: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    // The edges kept for the cycle search: known endpoints, no self-loop, no duplicate.
    let mut graph_edges: Vec<(usize, &str, &str)> = Vec::new();

    for (i, edge) in job.edges.iter().enumerate() {
        let path = format!("job.edges[{i}]");
        let from = operator(&edge.from);
        let to = operator(&edge.to);
        if from.is_none() {
            check.error(
                format!("{path}.from"),
                format!("unknown operator uid \"{}\"", edge.from),
            );
        }
        if to.is_none() {
            check.error(
                format!("{path}.to"),
                format!("unknown operator uid \"{}\"", edge.to),
            );
        }
        if edge.buffer_capacity < 1 {
            check.error(
                format!("{path}.buffer_capacity"),
                "must be at least 1 record".to_string(),
            );
        }
        let (Some(from), Some(to)) = (from, to) else {
            continue;
        };

        if edge.from == edge.to {
            check.error(
                format!("{path}.to"),
                format!("an edge cannot join {} to itself", edge.from),
            );
            continue;
        }
        if let Some(&first) = first_by_pair.get(&(edge.from.as_str(), edge.to.as_str())) {
            check.error(
                path.clone(),
                format!(
                    "duplicate edge {} → {}: also job.edges[{first}]",
                    edge.from, edge.to
                ),
            );
        } else {
            first_by_pair.insert((&edge.from, &edge.to), i);
            graph_edges.push((i, &edge.from, &edge.to));
        }
        if to.is_source() {
            check.error(
                format!("{path}.to"),
                format!("{} is a source: a source has no incoming edge", to.uid),
            );
        }
        if from.is_sink() {
            check.error(
                format!("{path}.from"),
                format!("{} is a sink: a sink has no outgoing edge", from.uid),
            );
        }
        let partitioning = edge.resolved_partitioning(job);
        if partitioning == Partitioning::Forward && from.parallelism != to.parallelism {
            check.error(
                format!("{path}.partitioning"),
                format!(
                    "forward partitioning requires equal parallelism: {} has {}, {} has {}",
                    from.uid, from.parallelism, to.uid, to.parallelism
                ),
            );
        }
        if to.is_keyed() && partitioning != Partitioning::Hash {
            check.error(
                format!("{path}.partitioning"),
                format!(
                    "{} is a {} and keeps keyed state, so its input must be keyed: use \"hash\" partitioning, not \"{}\" \
                     (in Flink keyed state exists only after keyBy)",
                    to.uid,
                    to.kind.as_str(),
                    partitioning.as_str()
                ),
            );
        }
    }

    check_inputs_and_outputs(check, job, first_by_uid);

    if let Some((edge_index, cycle)) = find_cycle(&graph_edges) {
        check.error(
            format!("job.edges[{edge_index}]"),
            format!("cycle {}: a job graph must be acyclic", cycle.join(" → ")),
        );
    }

    warn_keyless_hash_edges(check, job, first_by_uid);
}

/// Every operator but a source has an input; one without an output (not a sink)
/// is warned about. Only operators defined once are checked.
fn check_inputs_and_outputs(check: &mut Checker, job: &Job, first_by_uid: &BTreeMap<&str, usize>) {
    for (i, op) in job.operators.iter().enumerate() {
        if first_by_uid.get(op.uid.as_str()) != Some(&i) {
            continue;
        }
        let has_input = job.edges.iter().any(|e| e.to == op.uid);
        let has_output = job.edges.iter().any(|e| e.from == op.uid);
        if !op.is_source() && !has_input {
            check.error(
                format!("job.operators[{i}]"),
                format!(
                    "{} has no input: every operator but a source needs an incoming edge",
                    op.uid
                ),
            );
        }
        if !op.is_sink() && !has_output {
            check.warn(
                format!("job.operators[{i}]"),
                format!("{} has no outgoing edge: its output goes nowhere", op.uid),
            );
        }
    }
}

/// Warns about `hash` edges that some records without a key may reach: each such
/// record fails the task routing it (contract: Edges), as an exception in a key
/// selector would — maybe a lesson, maybe a mistake.
fn warn_keyless_hash_edges(check: &mut Checker, job: &Job, first_by_uid: &BTreeMap<&str, usize>) {
    // may_be_keyless[i]: operator i may emit a record without a key. A monotone
    // fixpoint over the edges (terminates on any graph, cycles included).
    let mut may_be_keyless: Vec<bool> = job
        .operators
        .iter()
        .map(|op| {
            op.partitions().iter().any(|partition| match partition {
                PartitionSpec::Records(records) => records.iter().any(|r| r.key.is_none()),
                PartitionSpec::Generate(spec) => spec.keys.is_none() && spec.count > 0,
            })
        })
        .collect();
    let sets_key = |op: &OperatorSpec| op.is_keyed() || op.r#fn == Some(FnName::ParityKey);
    let index = |uid: &str| first_by_uid.get(uid).copied();
    let mut changed = true;
    while changed {
        changed = false;
        for edge in &job.edges {
            let (Some(from), Some(to)) = (index(&edge.from), index(&edge.to)) else {
                continue;
            };
            if may_be_keyless[from] && !may_be_keyless[to] && !sets_key(&job.operators[to]) {
                may_be_keyless[to] = true;
                changed = true;
            }
        }
    }
    for (i, edge) in job.edges.iter().enumerate() {
        let Some(from) = index(&edge.from) else {
            continue;
        };
        if may_be_keyless[from]
            && index(&edge.to).is_some()
            && edge.resolved_partitioning(job) == Partitioning::Hash
        {
            check.warn(
                format!("job.edges[{i}].partitioning"),
                format!(
                    "{} may emit records without a key into this hash edge: the first one fails {}'s task, as an \
                     exception in a key selector would",
                    edge.from, edge.from
                ),
            );
        }
    }
}

/// Depth-first search in document order; returns the first edge that closes a
/// cycle, with the cycle's uids (first uid repeated at the end).
fn find_cycle<'a>(edges: &[(usize, &'a str, &'a str)]) -> Option<(usize, Vec<&'a str>)> {
    let mut nodes: Vec<&str> = Vec::new();
    for &(_, from, to) in edges {
        for uid in [from, to] {
            if !nodes.contains(&uid) {
                nodes.push(uid);
            }
        }
    }
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnStack,
        Done,
    }
    let mut marks: BTreeMap<&str, Mark> = nodes.iter().map(|&n| (n, Mark::New)).collect();
    for &root in &nodes {
        if marks[root] != Mark::New {
            continue;
        }
        // Iterative DFS: the stack holds (node, next outgoing edge position to try).
        let mut stack: Vec<(&str, usize)> = vec![(root, 0)];
        marks.insert(root, Mark::OnStack);
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let found = edges
                .iter()
                .enumerate()
                .skip(*next)
                .find(|(_, &(_, from, _))| from == node);
            match found {
                Some((position, &(edge_index, _, to))) => {
                    *next = position + 1;
                    match marks[to] {
                        Mark::New => {
                            marks.insert(to, Mark::OnStack);
                            stack.push((to, 0));
                        }
                        Mark::OnStack => {
                            let start = stack.iter().position(|&(n, _)| n == to).unwrap_or(0);
                            let mut cycle: Vec<&str> =
                                stack[start..].iter().map(|&(n, _)| n).collect();
                            cycle.push(to);
                            return Some((edge_index, cycle));
                        }
                        Mark::Done => {}
                    }
                }
                None => {
                    marks.insert(node, Mark::Done);
                    stack.pop();
                }
            }
        }
    }
    None
}

fn check_checkpointing(check: &mut Checker, config: &CheckpointingConfig) {
    let min = MINIMAL_CHECKPOINT_TIME_MS;
    if config.first_trigger_ms.is_some() && config.interval_ms.is_none() {
        check.error(
            "checkpointing.first_trigger_ms",
            "needs a periodic interval: interval_ms is null (manual checkpoints only)".to_string(),
        );
    }
    if let Some(interval) = config.interval_ms {
        if interval < min {
            check.error(
                "checkpointing.interval_ms",
                format!("Checkpoint interval must be larger than or equal to {min} ms (got {interval} ms)"),
            );
        } else if config.min_pause_ms > interval {
            check.warn(
                "checkpointing.min_pause_ms",
                format!(
                    "min_pause_ms {} is above interval_ms {interval}: checkpoints are triggered every {} ms at most \
                     (Flink raises the interval to the min pause)",
                    config.min_pause_ms, config.min_pause_ms
                ),
            );
        }
    }
    if config.timeout_ms < min {
        check.error(
            "checkpointing.timeout_ms",
            format!(
                "Checkpoint timeout must be larger than or equal to {min} ms (got {} ms)",
                config.timeout_ms
            ),
        );
    }
    if config.max_concurrent < 1 {
        check.error(
            "checkpointing.max_concurrent",
            "The maximum number of concurrent attempts must be at least one.".to_string(),
        );
    }
    if config.retained < 1 {
        check.error(
            "checkpointing.retained",
            "must be at least 1 (Flink would log a warning and retain 1)".to_string(),
        );
    }
    if config.unaligned && config.mode == CheckpointingMode::AtLeastOnce {
        check.error(
            "checkpointing.unaligned",
            "Unaligned checkpoints can only be used with checkpointing mode EXACTLY_ONCE: Flink would log a warning \
             and silently disable unaligned checkpoints; the lab rejects the scenario instead"
                .to_string(),
        );
    }
    if config.unaligned && config.max_concurrent > 1 {
        check.error(
            "checkpointing.max_concurrent",
            format!(
                "maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints enabled (got {}; Flink fails the job \
                 at submission)",
                config.max_concurrent
            ),
        );
    }
    if let Some(timeout) = config.aligned_checkpoint_timeout_ms {
        if !config.unaligned {
            check.warn(
                "checkpointing.aligned_checkpoint_timeout_ms",
                format!("{timeout} ms is ignored: an aligned checkpoint timeout only applies with unaligned checkpoints"),
            );
        }
    }
}

fn check_restart(check: &mut Checker, restart: &RestartConfig) {
    match *restart {
        // Flink: attempts >= 0 and delay >= 0, which the unsigned types guarantee.
        RestartConfig::None | RestartConfig::FixedDelay { .. } => {}
        RestartConfig::FailureRate {
            max_failures,
            interval_ms,
            ..
        } => {
            if max_failures < 1 {
                check.error(
                    "restart.max_failures",
                    "Maximum number of restart attempts per time unit must be greater than 0."
                        .to_string(),
                );
            }
            if interval_ms < 1 {
                check.error(
                    "restart.interval_ms",
                    "Failures interval must be greater than 0 ms.".to_string(),
                );
            }
        }
        RestartConfig::ExponentialDelay {
            initial_ms,
            max_ms,
            multiplier,
            reset_threshold_ms,
            attempts,
        } => {
            if initial_ms < 1 {
                check.error(
                    "restart.initial_ms",
                    "Initial backoff must be at least 1.".to_string(),
                );
            }
            if max_ms < 1 {
                check.error(
                    "restart.max_ms",
                    "Maximum backoff must be at least 1.".to_string(),
                );
            }
            if initial_ms > max_ms {
                check.error(
                    "restart.initial_ms",
                    format!("Initial backoff cannot be higher than maximum backoff ({initial_ms} > {max_ms})."),
                );
            }
            if !(multiplier > 1.0 && multiplier.is_finite()) {
                check.error(
                    "restart.multiplier",
                    format!("Backoff multiplier must be greater than 1 (got {multiplier})."),
                );
            }
            if reset_threshold_ms < 1 {
                check.error(
                    "restart.reset_threshold_ms",
                    "Threshold duration for exponential backoff reset must be at least 1."
                        .to_string(),
                );
            }
            if attempts == Some(0) {
                check.error(
                    "restart.attempts",
                    "The attemptsBeforeResetBackoff must be at least 1.".to_string(),
                );
            }
        }
    }
}

/// `restore.from` must itself be valid (its errors are reported under
/// `restore.from.`), and chains of restores are bounded.
fn check_restore(check: &mut Checker, restore: &RestoreSpec, depth: usize) {
    if depth >= MAX_RESTORE_DEPTH {
        check.error(
            "restore.from.restore",
            format!("restores nest at most {MAX_RESTORE_DEPTH} jobs deep (each earlier job is a whole run)"),
        );
        return;
    }
    if let Err(err) = restore.from.validate_at_depth(depth) {
        for e in err.under("restore.from").errors {
            check.error(e.field, e.message);
        }
    }
    if restore.from.checkpointing.is_none() {
        check.error(
            "restore.from.checkpointing",
            "the earlier job takes no checkpoints or savepoints, so there is nothing to restore (Flink: savepoints need checkpointing enabled)".to_string(),
        );
    }
}

fn check_script(check: &mut Checker, scenario: &Scenario) {
    // Subtasks that exist: uid → parallelism (first definition of each uid).
    let mut parallelism_by_uid: BTreeMap<&str, u32> = BTreeMap::new();
    for op in &scenario.job.operators {
        parallelism_by_uid.entry(&op.uid).or_insert(op.parallelism);
    }
    for (i, step) in scenario.script.iter().enumerate() {
        if let ScriptStep::Crash { task, .. } = step {
            let known = parse_task_name(task)
                .and_then(|(uid, index)| parallelism_by_uid.get(uid).map(|&p| index < p))
                .unwrap_or(false);
            if !known {
                check.error(
                    format!("script[{i}].task"),
                    format!("unknown task \"{task}\": a task is \"<uid>#<index>\" with index below the operator's parallelism"),
                );
            }
        }
        if let Some(until) = scenario.until_ms.filter(|&until| step.at_ms() > until) {
            check.warn(
                format!("script[{i}].at_ms"),
                format!(
                    "{} at {} ms is after until_ms {until}: it never happens",
                    step.action_name(),
                    step.at_ms()
                ),
            );
        }
    }
}

/// The declared points: each one's fields fit its event, and its `absent` modes
/// are modes the lesson runs. A point's task is not looked up in the job: a
/// lesson's variant (the drill rescales operators) keeps the lesson's points,
/// which then simply match nothing.
fn check_points(check: &mut Checker, scenario: &Scenario) {
    let modes: &[PointMode] = if scenario.checkpointing.is_some() {
        &PointMode::ALL
    } else {
        &[]
    };
    for (i, point) in scenario.points.iter().enumerate() {
        for (field, message) in point.errors(&format!("points[{i}]"), modes) {
            check.error(field, message);
        }
    }
}
