//! [`JobGraph`]: the job as deployed — subtasks, the channels between them, the
//! source logs — fixed for a whole run and shared by every clone of the
//! [`crate::World`] (a keyframe copies a pointer, not the graph).
//!
//! Flink: `ExecutionGraph` (its `ExecutionJobVertex`es, `ExecutionVertex`es and
//! `IntermediateResultPartition`s), built from the `JobGraph` at submission.
//! Simplified: one flat subtask table and one flat channel table instead of vertices,
//! result partitions and input gates; no slot sharing or locality.
//!
//! # Numbering (contract: scenario-format.md, Determinism)
//! - Subtasks: operators in scenario order, then subtask index ([`TaskId`]).
//! - Channels: edges in scenario order; within an edge, by downstream subtask, then
//!   upstream subtask ([`ChannelId`]). A receiver numbers its inputs in the same
//!   order ([`ChannelIndex`]): the order of the `edges` entries that end at its
//!   operator, then upstream subtask index. A sender numbers its outputs edge by
//!   edge, in the order the channels were created ([`Channel::output`]).
//! - A `forward` edge connects subtask `i` to subtask `i` only (Flink:
//!   `POINTWISE` with equal parallelism); every other partitioning connects every
//!   upstream subtask to every downstream one (`ALL_TO_ALL`).
//!
//! # Source logs
//! Each source partition's records are drawn once, before the first agenda item,
//! partition by partition in scenario order, from the run's one random generator
//! ([`crate::scenario::PartitionSpec::materialize`]). A replay after a failover reads
//! the same log again: that is what makes a source replayable (Flink: Kafka).

use crate::barrier::HandlerMode;
use crate::channel::Channel;
use crate::event::TaskName;
use crate::ids::{ChannelId, ChannelIndex, IdVec, TaskId};
use crate::keygroup;
use crate::record::{KeyId, KeyTable, Origin, Record};
use crate::scenario::{CheckpointingMode, OperatorKind, OperatorSpec, Partitioning, Scenario};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// One entry of a source partition's log.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// When the record is due (it is emitted no earlier).
    pub at: u64,
    /// The record.
    pub record: Record,
}

/// A subtask's outputs along one edge. Flink: the `RecordWriter` of one
/// `IntermediateResultPartition` with the edge's `StreamPartitioner`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutputEdge {
    /// How records are routed.
    pub partitioning: Partitioning,
    /// Channels in downstream subtask order.
    pub channels: Vec<ChannelId>,
    /// The downstream operator's max parallelism: the key groups `hash` routes by
    /// (Flink: `KeyGroupStreamPartitioner.configure`, from the consumer vertex).
    pub key_groups: u32,
}

/// Where [`OutputEdge::route`] sends a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// To this one channel.
    One(ChannelId),
    /// To the edge's next channel in round-robin order
    /// ([`OutputEdge::next_round_robin`], which keeps the sender's position).
    RoundRobin,
    /// To every channel of the edge, in order.
    All,
    /// Nowhere: hash partitioning needs a key and the record has none (in Flink the
    /// key selector throws and the task fails).
    MissingKey,
}

impl OutputEdge {
    /// The channel(s) `record` goes to along this edge. Flink: the edge's
    /// `StreamPartitioner.selectChannel` — `ForwardPartitioner` (the one channel),
    /// `KeyGroupStreamPartitioner` (the subtask owning the key's key group,
    /// `KeyGroupRangeAssignment`), `RebalancePartitioner` (round robin),
    /// `BroadcastPartitioner` (all).
    #[inline]
    pub fn route(&self, record: &Record, keys: &KeyTable) -> Route {
        match self.partitioning {
            Partitioning::Forward => Route::One(self.channels[0]),
            Partitioning::Hash => match record.key {
                Some(k) => {
                    let n = self.channels.len() as u32;
                    let index = keygroup::operator_index_for_key_group(
                        self.key_groups,
                        n,
                        keys.key_group(k, self.key_groups),
                    );
                    Route::One(self.channels[index as usize])
                }
                None => Route::MissingKey,
            },
            Partitioning::Rebalance => Route::RoundRobin,
            Partitioning::Broadcast => Route::All,
        }
    }

    /// `RebalancePartitioner`: the channel at position `next`, which moves on by
    /// one (the sender keeps it; it starts at a random channel).
    #[inline]
    pub fn next_round_robin(&self, next: &mut u32) -> ChannelId {
        let pos = *next;
        *next = (pos + 1) % self.channels.len() as u32;
        self.channels[pos as usize]
    }
}

/// The fixed description of a subtask. Flink: an `ExecutionVertex`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskInfo {
    /// `"uid#index"`.
    pub name: TaskName,
    /// Index of its operator in the scenario.
    pub op: usize,
    /// Subtask index.
    pub index: u32,
    /// Input channels by input index.
    pub inputs: IdVec<ChannelIndex, ChannelId>,
    /// Outputs, edge by edge.
    pub outputs: Vec<OutputEdge>,
    /// Distinct upstream subtasks.
    pub predecessors: Vec<TaskId>,
}

/// Everything about the job that never changes during a run. See the module
/// documentation.
///
/// Flink: `ExecutionGraph` (its static part).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobGraph {
    /// The scenario as given.
    pub scenario: Scenario,
    /// The seed of this run.
    pub seed: u64,
    /// Warnings from validation (Flink's silent adjustments).
    pub warnings: Vec<String>,
    /// Subtasks, operators in scenario order then by index.
    pub tasks: IdVec<TaskId, TaskInfo>,
    /// First subtask of each operator.
    pub op_first_task: Vec<u32>,
    /// Every key the run can meet.
    pub keys: KeyTable,
    /// Each operator's max parallelism (its number of key groups), by operator
    /// index: configured, derived, or adopted from the restored snapshot
    /// ([`crate::parallelism`]).
    pub max_parallelism: Vec<u32>,
    /// Source logs: `logs[op][partition]`; empty for non-sources.
    pub logs: Vec<Vec<Vec<LogEntry>>>,
    /// Checkpointing is configured.
    pub checkpointing: bool,
    /// The handler mode every task uses.
    pub handler_mode: HandlerMode,
}

impl JobGraph {
    /// Deploys `scenario` (already validated) with each operator's `max_parallelism`
    /// (by operator index): draws the source logs from `rng` (interning their keys
    /// into `keys`), numbers subtasks and channels, and returns the graph with its
    /// channels, empty, in [`ChannelId`] order.
    pub fn build(
        scenario: &Scenario,
        seed: u64,
        warnings: Vec<String>,
        mut keys: KeyTable,
        max_parallelism: Vec<u32>,
        rng: &mut ChaCha8Rng,
    ) -> (JobGraph, IdVec<ChannelId, Channel>) {
        let job = &scenario.job;
        debug_assert_eq!(max_parallelism.len(), job.operators.len());
        let logs = job
            .operators
            .iter()
            .enumerate()
            .map(|(oi, op)| source_log(oi, op, &mut keys, rng))
            .collect();

        let mut tasks: IdVec<TaskId, TaskInfo> = IdVec::new();
        let mut op_first_task = Vec::with_capacity(job.operators.len());
        for (oi, op) in job.operators.iter().enumerate() {
            op_first_task.push(tasks.len() as u32);
            for i in 0..op.parallelism {
                tasks.push(TaskInfo {
                    name: Arc::from(op.task_name(i)),
                    op: oi,
                    index: i,
                    inputs: IdVec::new(),
                    outputs: Vec::new(),
                    predecessors: Vec::new(),
                });
            }
        }
        let op_index: BTreeMap<&str, usize> = job
            .operators
            .iter()
            .enumerate()
            .map(|(i, o)| (o.uid.as_str(), i))
            .collect();

        let mut channels = IdVec::new();
        for e in &job.edges {
            let (from, to) = (op_index[e.from.as_str()], op_index[e.to.as_str()]);
            let partitioning = e.resolved_partitioning(job);
            let upstream = |u: u32| TaskId(op_first_task[from] + u);
            let downstream = |d: u32| TaskId(op_first_task[to] + d);
            let (pf, pt) = (
                job.operators[from].parallelism,
                job.operators[to].parallelism,
            );
            for u in 0..pf {
                tasks[upstream(u)].outputs.push(OutputEdge {
                    partitioning,
                    channels: Vec::new(),
                    key_groups: max_parallelism[to],
                });
            }
            for d in 0..pt {
                for u in 0..pf {
                    if partitioning == Partitioning::Forward && u != d {
                        continue;
                    }
                    let (ut, dt) = (upstream(u), downstream(d));
                    let input = ChannelIndex(tasks[dt].inputs.len() as u32);
                    let sender = &mut tasks[ut];
                    let output = sender.outputs.iter().map(|o| o.channels.len() as u32).sum();
                    let id = channels.push(Channel::new(
                        ut,
                        dt,
                        input,
                        output,
                        e.latency_ms,
                        e.buffer_capacity,
                    ));
                    sender
                        .outputs
                        .last_mut()
                        .expect("edge pushed above")
                        .channels
                        .push(id);
                    let receiver = &mut tasks[dt];
                    receiver.inputs.push(id);
                    if !receiver.predecessors.contains(&ut) {
                        receiver.predecessors.push(ut);
                    }
                }
            }
        }

        let checkpointing = scenario.checkpointing.is_some();
        let cfg = scenario.checkpoint_config();
        let handler_mode = match (checkpointing, cfg.mode, cfg.unaligned) {
            // Flink: with checkpointing off, tasks use the at-least-once handler.
            (false, _, _) | (_, CheckpointingMode::AtLeastOnce, _) => HandlerMode::AtLeastOnce,
            (true, CheckpointingMode::ExactlyOnce, false) => HandlerMode::Aligned,
            (true, CheckpointingMode::ExactlyOnce, true) => HandlerMode::Unaligned,
        };
        let graph = JobGraph {
            scenario: scenario.clone(),
            seed,
            warnings,
            tasks,
            op_first_task,
            keys,
            max_parallelism,
            logs,
            checkpointing,
            handler_mode,
        };
        (graph, channels)
    }

    /// The fixed description of subtask `t`.
    #[inline]
    pub fn task(&self, t: TaskId) -> &TaskInfo {
        &self.tasks[t]
    }

    /// `"uid#index"` of subtask `t`.
    #[inline]
    pub fn name(&self, t: TaskId) -> TaskName {
        self.tasks[t].name.clone()
    }

    /// The first operator using union list state (a source with `offsets_state:
    /// union`) of which some subtasks, but not all, are in `finished`: a checkpoint
    /// holding such a mix cannot complete. Flink: `DefaultCheckpointPlan.
    /// fulfillFinishedTaskStatus` (`checkNoPartlyOperatorsFinishedVertexUsedUnionListState`)
    /// throws `PartialFinishingNotSupportedByStateException`, since a union state
    /// restored later would miss the finished subtasks' elements.
    pub fn partly_finished_union_state(&self, finished: impl Fn(TaskId) -> bool) -> Option<&str> {
        self.scenario
            .job
            .operators
            .iter()
            .enumerate()
            .filter(|(_, op)| {
                op.kind == OperatorKind::Source
                    && op.offsets_state == crate::scenario::ListStateMode::Union
            })
            .find(|(i, _)| {
                let n = self
                    .tasks
                    .ids()
                    .filter(|t| self.tasks[*t].op == *i)
                    .filter(|t| finished(*t))
                    .count();
                let all = self.tasks.iter().filter(|x| x.op == *i).count();
                n > 0 && n < all
            })
            .map(|(_, op)| op.uid.as_str())
    }

    /// The pipelined regions: the subtasks connected by channels, each region in
    /// [`TaskId`] order, the regions ordered by their first subtask. In a streaming
    /// job every channel is pipelined, so a region is a connected component of the
    /// subtask graph: a `forward` edge joins subtask `i` to subtask `i`, any other
    /// partitioning joins every upstream subtask to every downstream one, and one
    /// such edge puts the whole job in one region.
    ///
    /// Flink: `SchedulingPipelinedRegionComputeUtil.computePipelinedRegions` —
    /// `PipelinedRegionComputeUtil.buildRawRegions` merges a consumer's region with
    /// each producer's across results that must be pipelined
    /// (`ResultPartitionType.mustBePipelinedConsumed`, true for `PIPELINED_BOUNDED`,
    /// the streaming edges' type); merging cyclic regions changes nothing here, as
    /// every region is already closed under pipelined edges.
    pub fn pipelined_regions(&self) -> Vec<Vec<TaskId>> {
        let n = self.tasks.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for (t, info) in self.tasks.iter_enumerated() {
            for p in &info.predecessors {
                let (a, b) = (root(&mut parent, t.0 as usize), root(&mut parent, p.0 as usize));
                // The smaller id becomes the root, so a region is named by its first subtask.
                parent[a.max(b)] = a.min(b);
            }
        }
        let mut regions: BTreeMap<usize, Vec<TaskId>> = BTreeMap::new();
        for t in self.tasks.ids() {
            let r = root(&mut parent, t.0 as usize);
            regions.entry(r).or_default().push(t);
        }
        regions.into_values().collect()
    }

    /// The pipelined region subtask `t` belongs to ([`JobGraph::pipelined_regions`]).
    pub fn region_of(&self, t: TaskId) -> Vec<TaskId> {
        self.pipelined_regions()
            .into_iter()
            .find(|r| r.contains(&t))
            .unwrap_or_else(|| vec![t])
    }

    /// The operator subtask `t` belongs to.
    #[inline]
    pub fn operator(&self, t: TaskId) -> &OperatorSpec {
        &self.scenario.job.operators[self.tasks[t].op]
    }

    /// The kind of subtask `t`'s operator.
    #[inline]
    pub fn op_kind(&self, t: TaskId) -> OperatorKind {
        self.operator(t).kind
    }

    /// The subtask called `name`.
    pub fn task_id(&self, name: &str) -> Option<TaskId> {
        self.tasks
            .iter_enumerated()
            .find(|(_, t)| &*t.name == name)
            .map(|(id, _)| id)
    }

    /// The subtasks of operator `op`, by subtask index.
    pub fn subtasks_of(&self, op: usize) -> impl Iterator<Item = TaskId> {
        let first = self.op_first_task[op];
        (0..self.scenario.job.operators[op].parallelism).map(move |i| TaskId(first + i))
    }

    /// A key's text.
    #[inline]
    pub fn key_name(&self, k: Option<KeyId>) -> Option<Arc<str>> {
        k.map(|k| self.keys.name(k).clone())
    }

    /// `t`'s input channels, by input index.
    pub fn inputs(&self, t: TaskId) -> impl Iterator<Item = ChannelId> + '_ {
        self.tasks[t].inputs.iter().copied()
    }

    /// `t`'s output channels, edge by edge (their index is [`Channel::output`]).
    pub fn outputs(&self, t: TaskId) -> impl Iterator<Item = ChannelId> + '_ {
        self.tasks[t]
            .outputs
            .iter()
            .flat_map(|o| o.channels.iter().copied())
    }

    /// The partitioning of the edge channel `c` belongs to (sent by `from`).
    pub fn partitioning_of(&self, from: TaskId, c: ChannelId) -> Partitioning {
        self.tasks[from]
            .outputs
            .iter()
            .find(|o| o.channels.contains(&c))
            .map_or(Partitioning::Forward, |o| o.partitioning)
    }

    /// Partitions of source operator `op`.
    pub fn partitions(&self, op: usize) -> u32 {
        self.logs[op].len() as u32
    }

    /// Entry `offset` of partition `partition` of source operator `op`, if the log
    /// is that long.
    #[inline]
    pub fn log_entry(&self, op: usize, partition: u32, offset: u64) -> Option<&LogEntry> {
        self.logs[op].get(partition as usize)?.get(offset as usize)
    }

    /// The partitions a fresh or partly restored source subtask reads from offset 0:
    /// partition p goes to subtask p mod parallelism, unless a restored subtask of
    /// the operator already got p back.
    pub fn fresh_partitions(
        &self,
        t: TaskId,
        restored: Option<&BTreeSet<u32>>,
    ) -> BTreeMap<u32, u64> {
        let info = &self.tasks[t];
        let parallelism = self.scenario.job.operators[info.op].parallelism;
        (0..self.partitions(info.op))
            .filter(|p| p % parallelism == info.index && !restored.is_some_and(|r| r.contains(p)))
            .map(|p| (p, 0))
            .collect()
    }
}

/// The log of each partition of operator `oi` (empty for a non-source).
fn source_log(
    oi: usize,
    op: &OperatorSpec,
    keys: &mut KeyTable,
    rng: &mut ChaCha8Rng,
) -> Vec<Vec<LogEntry>> {
    if op.kind != OperatorKind::Source {
        return Vec::new();
    }
    op.partitions
        .iter()
        .flatten()
        .enumerate()
        .map(|(pi, p)| {
            p.materialize(rng)
                .into_iter()
                .enumerate()
                .map(|(i, r)| LogEntry {
                    at: r.at_ms,
                    record: Record {
                        key: r.key.as_deref().map(|k| keys.intern(k)),
                        value: r.value,
                        origin: Origin {
                            source: oi as u16,
                            partition: pi as u16,
                            offset: i as u32,
                        },
                    },
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn graph(json: serde_json::Value) -> (JobGraph, IdVec<ChannelId, Channel>) {
        let s = Scenario::from_json(&json.to_string()).expect("valid scenario");
        let mut rng = ChaCha8Rng::seed_from_u64(s.seed);
        let max_p = crate::parallelism::of_job(&s.job)
            .iter()
            .map(|m| m.value())
            .collect();
        JobGraph::build(&s, s.seed, Vec::new(), KeyTable::new(), max_p, &mut rng)
    }

    fn doc(edges: serde_json::Value) -> serde_json::Value {
        serde_json::json!({
            "version": 1, "name": "g",
            "job": {"operators": [
                {"uid": "a", "kind": "source", "parallelism": 2, "partitions": [
                    {"records": [{"at_ms": 5, "key": "x", "value": 1}, {"at_ms": 9, "value": 2}]},
                    {"records": [{"at_ms": 1, "key": "y", "value": 3}]}]},
                {"uid": "b", "kind": "source", "parallelism": 1, "partitions": [{"records": []}]},
                {"uid": "m", "kind": "map", "fn": "identity", "parallelism": 2},
                {"uid": "out", "kind": "sink", "sink": "at_least_once", "parallelism": 1}],
             "edges": edges},
        })
    }

    /// Names of each pipelined region's subtasks.
    fn region_names(g: &JobGraph) -> Vec<Vec<String>> {
        g.pipelined_regions()
            .iter()
            .map(|r| r.iter().map(|t| g.name(*t).to_string()).collect())
            .collect()
    }

    /// Flink's pipelined regions (`SchedulingPipelinedRegionComputeUtil`): forward
    /// edges keep parallel pipelines apart, one all-to-all edge joins them all.
    #[test]
    fn forward_pipelines_are_regions_and_an_all_to_all_edge_joins_them() {
        let pipelines = |partitioning: &str| {
            serde_json::json!({
                "version": 1, "name": "r",
                "job": {"operators": [
                    {"uid": "src", "kind": "source", "parallelism": 2, "partitions": [
                        {"records": []}, {"records": []}]},
                    {"uid": "m", "kind": "map", "fn": "identity", "parallelism": 2},
                    {"uid": "out", "kind": "sink", "sink": "at_least_once", "parallelism": 2}],
                 "edges": [{"from": "src", "to": "m", "partitioning": "forward"},
                           {"from": "m", "to": "out", "partitioning": partitioning}]},
            })
        };
        let (g, _) = graph(pipelines("forward"));
        assert_eq!(
            region_names(&g),
            [["src#0", "m#0", "out#0"], ["src#1", "m#1", "out#1"]]
        );
        let m1 = g.task_id("m#1").unwrap();
        assert_eq!(g.region_of(m1), g.pipelined_regions()[1]);
        for all_to_all in ["rebalance", "hash", "broadcast"] {
            let (g, _) = graph(pipelines(all_to_all));
            assert_eq!(g.pipelined_regions().len(), 1, "{all_to_all}");
            assert_eq!(g.pipelined_regions()[0].len(), 6, "{all_to_all}");
        }
        // Two sources without a path between them: two regions.
        let (g, _) = graph(doc(serde_json::json!([
            {"from": "a", "to": "m", "partitioning": "forward"},
            {"from": "b", "to": "out", "partitioning": "rebalance"}])));
        assert_eq!(
            region_names(&g),
            vec![vec!["a#0", "m#0"], vec!["a#1", "m#1"], vec!["b#0", "out#0"]]
        );
    }

    /// Contract (Determinism): a receiver's inputs are numbered by edge order, then
    /// upstream subtask index; a sender's outputs edge by edge.
    #[test]
    fn channels_are_numbered_by_edge_then_upstream_index() {
        let (g, channels) = graph(doc(serde_json::json!([
            {"from": "a", "to": "m", "partitioning": "rebalance"},
            {"from": "b", "to": "m", "partitioning": "rebalance"},
            {"from": "m", "to": "out", "partitioning": "rebalance"}])));
        let m0 = g.task_id("m#0").unwrap();
        let from: Vec<String> = g
            .inputs(m0)
            .map(|c| g.tasks[channels[c].from].name.to_string())
            .collect();
        assert_eq!(from, ["a#0", "a#1", "b#0"]);
        for (i, c) in g.inputs(m0).enumerate() {
            assert_eq!(channels[c].input, ChannelIndex(i as u32));
        }
        let a0 = g.task_id("a#0").unwrap();
        let outputs: Vec<u32> = g.outputs(a0).map(|c| channels[c].output).collect();
        assert_eq!(outputs, [0, 1], "one output per downstream subtask");
        assert_eq!(g.task(m0).predecessors.len(), 3);
        assert_eq!(g.subtasks_of(2).collect::<Vec<_>>(), [TaskId(3), TaskId(4)]);
    }

    /// Flink: a forward edge is POINTWISE — subtask i feeds subtask i only.
    #[test]
    fn forward_edges_connect_equal_indices_only() {
        let (g, channels) = graph(doc(serde_json::json!([
            {"from": "a", "to": "m", "partitioning": "forward"},
            {"from": "b", "to": "m", "partitioning": "rebalance"},
            {"from": "m", "to": "out", "partitioning": "rebalance"}])));
        for i in 0..2 {
            let m = g.task_id(&format!("m#{i}")).unwrap();
            let first = g.inputs(m).next().unwrap();
            assert_eq!(&*g.name(channels[first].from), format!("a#{i}"));
            assert_eq!(
                g.partitioning_of(channels[first].from, first),
                Partitioning::Forward
            );
        }
    }

    /// Flink's partitioners: hash by key group (`KeyGroupRangeAssignment`, with the
    /// downstream operator's max parallelism), round robin from the start position,
    /// broadcast to all; a record without a key cannot be hashed.
    #[test]
    fn edges_route_records_as_flinks_partitioners() {
        let mut keys = KeyTable::new();
        let odd = keys.intern("odd");
        let rec = |key| Record {
            key,
            value: 1,
            origin: Origin {
                source: 0,
                partition: 0,
                offset: 0,
            },
        };
        let edge = |partitioning, key_groups| OutputEdge {
            partitioning,
            channels: vec![ChannelId(7), ChannelId(8), ChannelId(9)],
            key_groups,
        };
        for max_p in [128, 256, 7] {
            let hashed = edge(Partitioning::Hash, max_p).route(&rec(Some(odd)), &keys);
            assert_eq!(
                hashed,
                Route::One(ChannelId(
                    7 + keygroup::assign_key_to_parallel_operator("odd", max_p, 3)
                )),
                "max parallelism {max_p}"
            );
        }
        assert_eq!(
            edge(Partitioning::Hash, 128).route(&rec(None), &keys),
            Route::MissingKey
        );
        let rebalance = edge(Partitioning::Rebalance, 128);
        assert_eq!(rebalance.route(&rec(None), &keys), Route::RoundRobin);
        let mut next = 2;
        let picks: Vec<ChannelId> = (0..3)
            .map(|_| rebalance.next_round_robin(&mut next))
            .collect();
        assert_eq!(picks, [ChannelId(9), ChannelId(7), ChannelId(8)]);
        assert_eq!(
            edge(Partitioning::Broadcast, 128).route(&rec(None), &keys),
            Route::All
        );
    }

    /// Logs keep the document's records with their origin; partitions go to subtask
    /// `p mod parallelism`.
    #[test]
    fn source_logs_and_partition_assignment() {
        let (g, _) = graph(doc(serde_json::json!([
            {"from": "a", "to": "m"}, {"from": "b", "to": "m"}, {"from": "m", "to": "out"}])));
        assert_eq!(g.partitions(0), 2);
        let e = g.log_entry(0, 0, 1).unwrap();
        assert_eq!((e.at, e.record.value, e.record.origin.offset), (9, 2, 1));
        assert_eq!(
            g.key_name(g.log_entry(0, 1, 0).unwrap().record.key)
                .as_deref(),
            Some("y")
        );
        assert!(g.log_entry(0, 1, 1).is_none());
        let a1 = g.task_id("a#1").unwrap();
        assert_eq!(g.fresh_partitions(a1, None), BTreeMap::from([(1, 0)]));
        assert!(g
            .fresh_partitions(a1, Some(&BTreeSet::from([1])))
            .is_empty());
        assert_eq!(g.handler_mode, HandlerMode::AtLeastOnce, "no checkpointing");
    }
}
