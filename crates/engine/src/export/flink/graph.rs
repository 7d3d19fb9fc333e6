//! The job graph section: sources with their partitions, each operator's call
//! (its function class, state and TTL), the edges' partitioners, and the sinks.

use super::{java, Code, Generator};
use crate::scenario::{
    BackendKind, FnName, ListStateMode, OperatorKind, OperatorSpec, PartitionSpec, Partitioning,
    Scenario, SinkKind, StorageKind, TtlConfig, ValuesKind,
};
use crate::state::ttl::{StateVisibility, UpdateType};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

impl Generator<'_> {
    /// The job graph: one statement per operator, in an order where inputs come first.
    pub(super) fn graph_lines(&mut self, c: &mut Code, s: &Scenario) {
        c.comment(2, self.w().job_graph);
        let ops = &s.job.operators;
        let vars = stream_variables(s);
        let order = topological_order(s);
        let mut seed_rng = ChaCha8Rng::seed_from_u64(self.chain.last().expect("chain").seed);
        // Materialize every source in document order (the lab draws them so).
        let mut logs: BTreeMap<&str, Vec<Vec<crate::scenario::RecordSpec>>> = BTreeMap::new();
        for o in ops.iter().filter(|o| o.is_source()) {
            logs.insert(
                &o.uid,
                o.partitions()
                    .iter()
                    .map(|p| p.materialize(&mut seed_rng))
                    .collect(),
            );
        }
        for o in order {
            let v = &vars[o.uid.as_str()];
            let tail = format!(
                ".name({uid}).uid({uid}).setParallelism({p})",
                uid = java::string(&o.uid),
                p = o.parallelism
            );
            if let Some(n) = &o.name {
                c.comment(2, &format!("{}: {n}", o.uid));
            }
            if o.is_source() {
                let parts = self.partitions_java(o, &logs[o.uid.as_str()]);
                let union = o.offsets_state == ListStateMode::Union;
                c.line(
                    2,
                    &format!(
                        "DataStream<Event> {v} = env.addSource(new ReplayableSource({}, {union}, {},{parts}))",
                        java::string(&o.uid),
                        self.ms(o.emit_interval_ms())
                    ),
                );
                c.line(4, &format!("{tail};"));
                continue;
            }
            let inputs: Vec<_> = s
                .job
                .incoming_edges(&o.uid)
                .map(|(_, e)| (e, e.resolved_partitioning(&s.job)))
                .collect();
            let part = |from: &str, p: Partitioning| -> String {
                let v = &vars[from];
                match p {
                    Partitioning::Forward => format!("{v}.forward()"),
                    Partitioning::Rebalance => format!("{v}.rebalance()"),
                    Partitioning::Broadcast => format!("{v}.broadcast()"),
                    Partitioning::Hash => format!("{v}.keyBy(e -> e.key, Types.STRING)"),
                }
            };
            let input = if o.kind == OperatorKind::BroadcastFilter {
                let rules = o.rules_from.as_deref().unwrap_or("");
                let main: Vec<String> = inputs
                    .iter()
                    .filter(|(e, _)| e.from != rules)
                    .map(|(e, p)| part(&e.from, *p))
                    .collect();
                format!(
                    "{}.connect({}.broadcast(RULES))",
                    union_of(&main),
                    vars.get(rules).map(String::as_str).unwrap_or("rules")
                )
            } else if inputs.len() > 1 && inputs.iter().all(|(_, p)| *p == Partitioning::Hash) {
                let streams: Vec<String> = inputs
                    .iter()
                    .map(|(e, _)| vars[e.from.as_str()].clone())
                    .collect();
                format!("{}.keyBy(e -> e.key, Types.STRING)", union_of(&streams))
            } else {
                let streams: Vec<String> = inputs.iter().map(|(e, p)| part(&e.from, *p)).collect();
                union_of(&streams)
            };
            let (call, class) = self.operator_call(o, s.checkpoint_config().backend);
            if o.is_sink() {
                c.line(2, &input);
                c.line(4, &format!("{call}{tail};"));
            } else {
                c.line(2, &format!("DataStream<Event> {v} = {input}"));
                c.line(4, &format!("{call}{tail};"));
            }
            if let Some(class) = class {
                self.fragments.insert(class);
            }
        }
        if let Some(cfg) = &s.checkpointing {
            if cfg.storage == StorageKind::Jobmanager {
                c.line(0, "");
                c.line(2, "StreamGraph graph = env.getStreamGraph();");
                c.line(
                    2,
                    &format!(
                        "graph.setCheckpointStorage(new JobManagerCheckpointStorage({})); // {}",
                        cfg.max_state_bytes,
                        self.w().bytes_per_state
                    ),
                );
            }
        }
    }

    /// The call that adds operator `o` (`.map(new ParityKey())`) and its function
    /// class, on the job's state `backend`.
    pub(super) fn operator_call(
        &mut self,
        o: &OperatorSpec,
        backend: BackendKind,
    ) -> (String, Option<&'static str>) {
        let ttl = |g: &mut Generator, t: &Option<TtlConfig>| -> String {
            match t {
                None => "null".into(),
                Some(t) => g.ttl_java(t, backend),
            }
        };
        match o.kind {
            OperatorKind::Map => {
                let class = match o.r#fn {
                    Some(FnName::Double) => "Doubled",
                    Some(FnName::ParityKey) => "ParityKey",
                    _ => "Identity",
                };
                (format!(".map(new {class}())"), Some(class))
            }
            OperatorKind::Filter => {
                let class = if o.r#fn == Some(FnName::Odd) {
                    "KeepOdd"
                } else {
                    "KeepEven"
                };
                (format!(".filter(new {class}())"), Some(class))
            }
            OperatorKind::KeyedCount => (".process(new KeyedCount())".into(), Some("KeyedCount")),
            OperatorKind::KeyedSum => (".process(new KeyedSum())".into(), Some("KeyedSum")),
            OperatorKind::KeyedReduce => {
                let f = o.reduce.map(|r| r.as_str()).unwrap_or("sum");
                let t = ttl(self, &o.ttl);
                (
                    format!(".process(new KeyedReduce({}, {t}))", java::string(f)),
                    Some("KeyedReduce"),
                )
            }
            OperatorKind::KeyedAverage => {
                let t = ttl(self, &o.ttl);
                (
                    format!(".process(new KeyedAverage({t}))"),
                    Some("KeyedAverage"),
                )
            }
            OperatorKind::KeyedDedup => {
                let t = ttl(self, &o.ttl);
                (format!(".process(new KeyedDedup({t}))"), Some("KeyedDedup"))
            }
            OperatorKind::KeyedWindowCount => {
                let t = ttl(self, &o.ttl);
                (
                    format!(
                        ".process(new KeyedWindowCount({}, {t}))",
                        self.ms(o.window_ms.unwrap_or(1))
                    ),
                    Some("KeyedWindowCount"),
                )
            }
            OperatorKind::BroadcastFilter => {
                (".process(new RulesFilter())".into(), Some("RulesFilter"))
            }
            OperatorKind::Sink => {
                let (class, kind) = match o.sink {
                    Some(SinkKind::TwoPhaseCommit) => ("TransactionalFileSink", "two_phase_commit"),
                    Some(SinkKind::Idempotent) => ("UpsertFileSink", "idempotent"),
                    _ => ("AppendingFileSink", "at_least_once"),
                };
                (
                    format!(
                        ".addSink(new {class}(lab.topic({}, {})))",
                        java::string(&o.uid),
                        java::string(kind)
                    ),
                    Some(class),
                )
            }
            OperatorKind::Source => (String::new(), None),
        }
    }

    /// `StateTtlConfig.newBuilder(…)…build()` for a lab TTL on the state `backend`.
    pub(super) fn ttl_java(&mut self, t: &TtlConfig, backend: BackendKind) -> String {
        let rocksdb = backend == BackendKind::Rocksdb;
        let mut s = format!(
            "StateTtlConfig.newBuilder(Duration.ofMillis({}))",
            self.ms(t.ttl_ms)
        );
        s.push_str(match t.update_type {
            UpdateType::OnCreateAndWrite => ".updateTtlOnCreateAndWrite()",
            UpdateType::OnReadAndWrite => ".updateTtlOnReadAndWrite()",
        });
        s.push_str(match t.visibility {
            StateVisibility::NeverReturnExpired => ".neverReturnExpired()",
            StateVisibility::ReturnExpiredIfNotCleanedUp => ".returnExpiredIfNotCleanedUp()",
        });
        if t.cleanup.full_snapshot {
            s.push_str(".cleanupFullSnapshot()");
        }
        if let Some(i) = t.cleanup.incremental {
            let _ = write!(
                s,
                ".cleanupIncrementally({}, {})",
                i.cleanup_size, i.run_for_every_record
            );
        }
        if t.cleanup.in_background {
            // Flink's default: nothing to write.
            if rocksdb && t.cleanup.incremental.is_none() {
                self.approx(self.w().approx_ttl_rocksdb_background);
            }
        } else {
            // The lab's default: only the cleanup asked for.
            s.push_str(".disableCleanupInBackground()");
            self.approx(self.w().approx_ttl_background_disabled);
        }
        if rocksdb && t.cleanup.incremental.is_some() {
            self.approx(self.w().approx_ttl_rocksdb_incremental);
        }
        s.push_str(".build()");
        s
    }

    /// The partitions of a source as Java (`Partition.generated(…)` or explicit records).
    pub(super) fn partitions_java(
        &self,
        o: &OperatorSpec,
        logs: &[Vec<crate::scenario::RecordSpec>],
    ) -> String {
        let mut out = String::new();
        for (spec, records) in o.partitions().iter().zip(logs) {
            out.push_str("\n                ");
            match spec {
                PartitionSpec::Generate(g) => {
                    let values = match g.values {
                        ValuesKind::Sequence => format!("Partition.sequence({})", records.len()),
                        ValuesKind::Random => format!(
                            "Partition.values(\"{}\")",
                            records
                                .iter()
                                .map(|r| r.value.to_string())
                                .collect::<Vec<_>>()
                                .join(",")
                        ),
                    };
                    let mut names: Vec<&str> = Vec::new();
                    for r in records {
                        if let Some(k) = r.key.as_deref() {
                            if !names.contains(&k) {
                                names.push(k);
                            }
                        }
                    }
                    let codes: Option<String> = records
                        .iter()
                        .map(|r| {
                            let i = names.iter().position(|n| Some(*n) == r.key.as_deref())?;
                            KEY_CODES.chars().nth(i)
                        })
                        .collect();
                    let codes = if names.is_empty() {
                        Some(String::new())
                    } else {
                        codes
                    };
                    match codes {
                        Some(codes) if names.len() <= KEY_CODES.len() => {
                            let names: Vec<String> =
                                names.iter().map(|n| java::string(n)).collect();
                            let _ = write!(
                                out,
                                "Partition.generated({}, {values}, new String[] {{{}}}, \"{codes}\")",
                                self.ms(g.every_ms),
                                names.join(", ")
                            );
                        }
                        _ => out.push_str(&explicit(records, |m| self.ms(m))),
                    }
                }
                PartitionSpec::Records(_) => out.push_str(&explicit(records, |m| self.ms(m))),
            }
            out.push(',');
        }
        out.pop();
        out
    }
}

/// Characters naming a generated record's key by its position among the
/// partition's key names (`Partition.generated`).
const KEY_CODES: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

fn explicit(records: &[crate::scenario::RecordSpec], ms: impl Fn(u64) -> u64) -> String {
    let at: Vec<String> = records.iter().map(|r| ms(r.at_ms).to_string()).collect();
    let keys: Vec<String> = records
        .iter()
        .map(|r| java::opt_string(r.key.as_deref()))
        .collect();
    let values: Vec<String> = records.iter().map(|r| r.value.to_string()).collect();
    format!(
        "new Partition(new long[] {{{}}},\n                        new String[] {{{}}},\n                        new long[] {{{}}})",
        at.join(", "),
        keys.join(", "),
        values.join(", ")
    )
}

fn union_of(streams: &[String]) -> String {
    match streams {
        [] => "null".into(),
        [one] => one.clone(),
        [first, rest @ ..] => format!("{first}.union({})", rest.join(", ")),
    }
}

/// A Java variable per operator: its uid as an identifier, unique, and neither a
/// reserved word nor a class the export declares.
fn stream_variables(s: &Scenario) -> BTreeMap<&str, String> {
    let mut vars = BTreeMap::new();
    let mut used = BTreeSet::new();
    for o in &s.job.operators {
        let mut v = java::variable_name(&o.uid);
        while java::RESERVED.contains(&v.as_str())
            || java::CLASSES.contains(&v.as_str())
            || !used.insert(v.clone())
        {
            v.push_str("Stream");
        }
        vars.insert(o.uid.as_str(), v);
    }
    vars
}

/// The operators in Kahn's order (every input declared before its use), ties by
/// document order.
fn topological_order(s: &Scenario) -> Vec<&OperatorSpec> {
    let ops = &s.job.operators;
    let mut done: BTreeSet<&str> = BTreeSet::new();
    let mut order = Vec::new();
    while order.len() < ops.len() {
        let next = ops.iter().find(|o| {
            !done.contains(o.uid.as_str())
                && s.job
                    .incoming_edges(&o.uid)
                    .all(|(_, e)| done.contains(e.from.as_str()))
        });
        let Some(next) = next else { break };
        done.insert(&next.uid);
        order.push(next);
    }
    order
}
