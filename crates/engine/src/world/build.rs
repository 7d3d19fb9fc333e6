//! Building a [`World`] and deploying its tasks.
//!
//! [`World::new`] validates the scenario, runs the earlier job when it restores
//! from one ([`super::upgrade`]), deploys the job graph ([`JobGraph::build`]),
//! resolves the coordinator's configuration, carries the earlier job's external
//! topics over, assigns the restored state and deploys the tasks.
//! [`World::deploy`] (re)creates every subtask — at the start and after each
//! restart — with the state a [`Restore`] assigns it, re-injects unaligned channel
//! state ahead of new data, and starts the sources and the periodic trigger.
//!
//! Flink: `SchedulerBase` (building the `ExecutionGraph` and the
//! `CheckpointCoordinator`), `StateAssignmentOperation` handing out
//! `JobManagerTaskRestore`s, and the `DefaultScheduler` deploying the executions.

use super::observed::Restored;
use super::schedule::{Item, Schedule};
use super::{failover::JobLifecycle, upgrade, Task, TaskStatus, World};
use crate::barrier::{BarrierHandler, EndOfPartition};
use crate::cause::{FailureReason, JobFailure};
use crate::channel::Element;
use crate::coordinator::{CheckpointCoordinator, CompletedCheckpoint, CoordinatorConfig};
use crate::event::{Event, Trace};
use crate::ids::{CheckpointId, IdVec, TaskId};
use crate::job_graph::JobGraph;
use crate::operators::{self, OpState, SourceState};
use crate::record::{KeyId, KeyTable};
use crate::restart::RestartStrategy;
use crate::restore::{self, NonRestoredState, RestoreError, SavepointState};
use crate::scenario::{
    ListStateMode, OperatorKind, Partitioning, Scenario, ScenarioError, SinkKind,
};
use crate::sink::{ExternalSystems, TxnStatus};
use crate::snapshot::{OperatorSnapshot, TaskSnapshot};
use crate::state::shared_registry::IncrementalBase;
use crate::subtask_checkpoint::SubtaskCheckpointCoordinator;
use crate::two_phase_commit::TwoPhaseCommitSink;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Error building a [`World`].
pub type BuildError = ScenarioError;

/// Which tasks a deploy (re)creates.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Every task of the job: the start, or a failover of the whole job.
    Job,
    /// The tasks of one pipelined region; the other tasks run on.
    Region,
}

/// State assigned to the subtasks of a new attempt (Flink: the
/// `JobManagerTaskRestore`s that `StateAssignmentOperation` hands out).
pub(super) struct Restore {
    /// The checkpoint or savepoint restored.
    checkpoint: CheckpointId,
    /// Per restored subtask, its state in the form the tasks read.
    tasks: BTreeMap<TaskId, TaskSnapshot>,
    /// Two-phase-commit sinks that received several elements (scale-in): the
    /// pending transactions beyond the first, aborted on restore (`recoverAndAbort`).
    abort: BTreeMap<TaskId, Vec<u64>>,
    /// Source operators whose offsets were restored, with every partition some
    /// subtask got back (the others are new and start at offset 0).
    source_partitions: BTreeMap<usize, BTreeSet<u32>>,
}

impl World {
    /// Build the job graph of `scenario`, validated, and schedule its start.
    /// `seed` overrides the scenario's own.
    pub fn new(scenario: &Scenario, seed: u64) -> Result<World, BuildError> {
        let warnings = scenario.validate()?;
        let earlier = match &scenario.restore {
            Some(spec) => Some(upgrade::run_earlier(spec, seed)?),
            None => None,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let job = &scenario.job;
        let mut keys = KeyTable::new();
        if let Some(e) = &earlier {
            // The earlier run's key ids first, so that records carried over in its
            // external topics keep naming the same keys; then every key its state names.
            for k in 0..e.world.graph.keys.count() {
                keys.intern(e.world.graph.keys.name(KeyId(k as u32)));
            }
            for name in e.state.key_names() {
                keys.intern(name);
            }
        }
        // Keys operators produce.
        keys.intern("odd");
        keys.intern("even");

        // A job without max parallelism takes the restored snapshot's.
        let max_parallelism =
            restore::adopted_max_parallelism(earlier.as_ref().map(|e| &e.state), job);
        let (graph, channels) =
            JobGraph::build(scenario, seed, warnings, keys, max_parallelism, &mut rng);
        let coordinator = CheckpointCoordinator::new(CoordinatorConfig::for_scenario(scenario));
        let restart = RestartStrategy::new(&scenario.effective_restart());
        // A sink keeps writing to the topic of the earlier sink with its uid.
        let external = ExternalSystems::for_job(
            job,
            earlier
                .as_ref()
                .map(|e| (&e.world.graph.scenario.job, &e.world.external)),
        );

        let mut world = World {
            graph: Arc::new(graph),
            now: 0,
            agenda: Schedule::default(),
            rng,
            tasks: IdVec::new(),
            channels,
            coordinator,
            external,
            job: JobLifecycle::new(restart),
            trace: Trace::default(),
        };
        let restore = match earlier {
            None => None,
            Some(e) => {
                let spec = scenario.restore.as_ref().expect("earlier implies restore");
                let plan = world
                    .plan_restore(&e.state, NonRestoredState::allowed_if(spec.allow_non_restored_state))
                    .map_err(|err| ScenarioError::single("restore", err.to_string()))?;
                // The new job starts where the earlier one stopped; ids continue after
                // the restored one, which enters the store as the first retained
                // checkpoint (Flink: CheckpointCoordinator.restoreSavepoint).
                world.now = e.world.now;
                let restored = crate::coordinator::RestoredSnapshot {
                    id: e.snapshot.id,
                    files: e.world.storage_files(&e.snapshot),
                    metadata: crate::summary::checkpoint_metadata_with(
                        &e.world.graph,
                        &e.snapshot,
                        crate::summary::Metadata::WithKeyGroups,
                    ),
                    non_restored: restore::non_restored_operators(&e.state, job)
                        .into_iter()
                        .map(str::to_string)
                        .collect(),
                    claimed: spec.claim_mode == crate::scenario::ClaimMode::Claim,
                };
                world.coordinator.restored_from(
                    Arc::new(CompletedCheckpoint {
                        id: e.snapshot.id,
                        kind: e.snapshot.kind,
                        trigger_at: e.snapshot.trigger_at,
                        completed_at: e.snapshot.completed_at,
                        tasks: plan.tasks.clone(),
                    }),
                    restored,
                );
                Some(plan)
            }
        };
        for (i, s) in scenario.script.iter().enumerate() {
            if s.at_ms() < world.now {
                return Err(ScenarioError::single(
                    format!("script[{i}].at_ms"),
                    format!("{} ms is before the restored job starts ({} ms, where the earlier job stopped)", s.at_ms(), world.now),
                ));
            }
            world
                .agenda
                .push_any_attempt(s.at_ms(), Item::Script(i as u32));
        }
        let restoring = restore.is_some();
        if restoring {
            world.trace.enabled = true;
            world.trace.now = world.now;
        }
        world.deploy(restore);
        if restoring {
            world.trace.hold_back();
        }
        Ok(world)
    }

    /// Assign `state` to this job's subtasks as Flink's `StateAssignmentOperation`
    /// does — on a failover (the same job, `state` from its own latest checkpoint)
    /// and on a start from a savepoint of a possibly changed or rescaled job.
    pub(super) fn plan_restore(
        &self,
        state: &SavepointState,
        non_restored: NonRestoredState,
    ) -> Result<Restore, RestoreError> {
        let job = &self.graph.scenario.job;
        let assigned = restore::assign(state, job, non_restored, &self.graph.keys)?;
        let mut plan = Restore {
            checkpoint: state.checkpoint,
            tasks: BTreeMap::new(),
            abort: BTreeMap::new(),
            source_partitions: BTreeMap::new(),
        };
        for ((op, index), sub) in &assigned {
            let spec = &job.operators[*op];
            let t = TaskId(self.graph.op_first_task[*op] + index);
            plan.tasks
                .insert(t, sub.to_task_snapshot(spec, &self.graph.keys));
            if spec.kind == OperatorKind::Source {
                plan.source_partitions
                    .entry(*op)
                    .or_default()
                    .extend(sub.offsets().into_keys());
            }
            let extra: Vec<u64> = sub
                .two_phase_commit_recovery()
                .abort
                .into_iter()
                .skip(1)
                .collect();
            if !extra.is_empty() {
                plan.abort.insert(t, extra);
            }
        }
        Ok(plan)
    }

    /// The restore plan for `latest`, the job's latest completed checkpoint
    /// (nothing to restore before the first). The job's own checkpoint fits the
    /// job, so assignment cannot fail; if it ever did, the job fails with the
    /// reason (`Err`) rather than the lab panicking.
    pub(super) fn plan_latest(
        &mut self,
        latest: Option<&CompletedCheckpoint>,
    ) -> Result<Option<Restore>, ()> {
        let Some(c) = latest else {
            return Ok(None);
        };
        match self.plan_restore(
            &restore::from_completed(c, &self.graph),
            restore::NonRestoredState::Refuse,
        ) {
            Ok(plan) => Ok(Some(plan)),
            Err(err) => {
                self.fail_job(FailureReason {
                    failure: JobFailure::RestoreFailed {
                        message: err.to_string(),
                    },
                    last_failure: None,
                });
                Err(())
            }
        }
    }

    /// (Re)create every task, restoring what `restore` assigns, and start them.
    pub(super) fn deploy(&mut self, restore: Option<Restore>) {
        let all: Vec<TaskId> = self.graph.tasks.ids().collect();
        self.deploy_tasks(restore, &all, Scope::Job);
    }

    /// (Re)create the tasks of a pipelined region that failed over, restoring what
    /// `restore` assigns them, and start them; the other tasks run on. Once every
    /// task runs again the lab starts the checkpoint scheduler one interval later
    /// (simplified: Flink 2.3's `ExecutionTrackingCheckpointCoordinatorDeActivator`
    /// keeps the failed and canceled attempts pending and does not start it again,
    /// yet checkpoints come again, docs/flink-semantics.md §1.3).
    pub(super) fn deploy_region(&mut self, restore: Option<Restore>, region: &[TaskId]) {
        self.deploy_tasks(restore, region, Scope::Region);
    }

    /// Deploy `ids` (every task of the job, or one region's), restoring what
    /// `restore` assigns.
    fn deploy_tasks(&mut self, restore: Option<Restore>, ids: &[TaskId], scope: Scope) {
        let whole = scope == Scope::Job;
        let mut tasks = Vec::with_capacity(ids.len());
        // Whether the snapshot restored is a savepoint: one look-up per deploy.
        let from_savepoint = restore.as_ref().is_some_and(|r| {
            let coord = &self.coordinator;
            coord
                .store()
                .iter()
                .chain(coord.savepoints())
                .any(|c| c.id == r.checkpoint && c.kind.is_savepoint())
        });
        for &t in ids {
            let info = self.graph.task(t).clone();
            let name = info.name.clone();
            let state = self.initial_state(t, restore.as_ref());
            let incremental_base: IncrementalBase = restore
                .as_ref()
                .map(|r| self.coordinator.shared().base_of(r.checkpoint, t))
                .unwrap_or_default();
            let rr = info
                .outputs
                .iter()
                .map(|o| {
                    // Flink's RebalancePartitioner starts at a random channel.
                    if o.partitioning == Partitioning::Rebalance && !o.channels.is_empty() {
                        self.rng.random_range(0..o.channels.len() as u32)
                    } else {
                        0
                    }
                })
                .collect();
            let handler = BarrierHandler::new(
                self.graph.handler_mode,
                info.inputs.len() as u32,
                EndOfPartition::with_checkpoints_after_tasks_finish(
                    self.coordinator.config().after_tasks_finish,
                ),
            );
            let checkpoints = SubtaskCheckpointCoordinator::new(incremental_base);
            tasks.push(Task::new(
                state,
                handler,
                info.inputs.len(),
                rr,
                checkpoints,
            ));
            // A subtask that got no state starts fresh (Flink: no JobManagerTaskRestore).
            let cp = restore
                .as_ref()
                .filter(|r| r.tasks.contains_key(&t))
                .map(|r| r.checkpoint);
            let savepoint = cp.is_some() && from_savepoint;
            self.trace.push(|| Event::StateRestored {
                task: name,
                checkpoint: cp,
                savepoint,
            });
        }
        // After a restart: what each subtask's restore rewound (the page shows it).
        if self.tasks.len() == self.graph.tasks.len() {
            for (&t, new) in ids.iter().zip(tasks.iter_mut()) {
                let old = &self.tasks[t];
                let checkpoint = restore
                    .as_ref()
                    .filter(|r| r.tasks.contains_key(&t))
                    .map(|r| r.checkpoint);
                new.restored = Some(Box::new(Restored::between(
                    &old.op,
                    &new.op,
                    old.restored.as_deref(),
                    checkpoint,
                    self.now,
                )));
            }
        }
        if whole {
            self.tasks = tasks.into();
        } else {
            for (&t, new) in ids.iter().zip(tasks) {
                self.tasks[t] = new;
            }
        }

        if let Some(r) = &restore {
            self.reinject_channel_state(r, ids, whole);
        }

        for &t in ids {
            if self.op_kind(t) == OperatorKind::Source {
                self.schedule_source(t);
            } else if !self
                .graph
                .inputs(t)
                .all(|c| self.channels[c].queue.is_empty())
            {
                self.schedule_poll(t);
            }
        }
        let every_task_runs = whole
            || !self
                .tasks
                .iter()
                .any(|x| matches!(x.status, TaskStatus::Failed | TaskStatus::Canceled));
        if every_task_runs {
            if let Some((at, generation)) = self.coordinator.start_periodic(self.now) {
                self.schedule(at, Item::PeriodicTrigger(generation));
            }
        }
    }

    /// Unaligned checkpoints' channel state, re-injected into the deployed tasks'
    /// channels ahead of any new data (all of them when `whole`).
    fn reinject_channel_state(&mut self, r: &Restore, ids: &[TaskId], whole: bool) {
        for (t, snap) in r.tasks.iter().filter(|(t, _)| whole || ids.contains(t)) {
            for (input, recs) in &snap.input_channels {
                let ch = self.graph.tasks[*t].inputs[*input];
                for r in recs {
                    self.enqueue(ch, Element::Record { record: *r });
                }
            }
            for (output, recs) in &snap.output_channels {
                let ch = self.graph.outputs(*t).nth(*output as usize);
                if let Some(ch) = ch {
                    let c = &mut self.channels[ch];
                    c.out_queue
                        .extend(recs.iter().map(|r| Element::Record { record: *r }));
                }
            }
        }
        let channels: Vec<_> = self
            .channels
            .ids()
            .filter(|c| whole || ids.contains(&self.channels[*c].from))
            .collect();
        for c in channels {
            self.flush_out_queue(c);
        }
    }

    /// Operator state of subtask `t` as deployed: what `restore` assigns it, or fresh.
    /// A two-phase-commit sink recovers here: it aborts its lingering transactions
    /// and, restored, commits the pre-committed ones (`initializeState`).
    fn initial_state(&mut self, t: TaskId, restore: Option<&Restore>) -> OpState {
        let graph = &self.graph;
        let info = graph.task(t);
        let op = graph.operator(t);
        let restored = restore.and_then(|r| r.tasks.get(&t));
        let name = &info.name;
        match op.kind {
            OperatorKind::Source => {
                let partitions = self.graph.partitions(info.op);
                let mut offsets = match restored.map(|s| &s.state) {
                    // A partition the new job's source no longer has is dropped.
                    // Union list state hands every subtask every offset; it keeps the
                    // partitions assigned to it (the legacy FlinkKafkaConsumer's
                    // initializeState; simplified: assigned p mod parallelism).
                    Some(OperatorSnapshot::Source { offsets }) => offsets
                        .iter()
                        .filter(|(p, _)| **p < partitions)
                        .filter(|(p, _)| {
                            op.offsets_state != ListStateMode::Union
                                || **p % op.parallelism == info.index
                        })
                        .map(|(p, o)| (*p, *o))
                        .collect(),
                    _ => BTreeMap::new(),
                };
                let got_back = restore
                    .as_ref()
                    .and_then(|r| r.source_partitions.get(&info.op));
                // A fully finished source restores finished (Flink:
                // `StateAssignmentOperation.assignFinishedStateToTask`,
                // `TaskStateSnapshot.FINISHED_ON_RESTORE`): nothing to read, it
                // finishes at once.
                if restored.is_some_and(|s| s.finished) {
                    offsets.clear();
                } else {
                    offsets.extend(self.graph.fresh_partitions(t, got_back));
                }
                OpState::Source(SourceState {
                    offsets,
                    emit_scheduled: false,
                    next_allowed_at: 0,
                    stopped: false,
                })
            }
            OperatorKind::KeyedCount | OperatorKind::KeyedSum => {
                let values = match restored.map(|s| &s.state) {
                    Some(OperatorSnapshot::Keyed { entries }) => entries.clone(),
                    _ => BTreeMap::new(),
                };
                OpState::Keyed { values }
            }
            OperatorKind::Sink if op.sink == Some(SinkKind::TwoPhaseCommit) => {
                let (ext, txn_ids) = self.external.topic_and_txn_ids(info.op);
                // Kafka's abortLingeringTransactions: pre-committed transactions of this
                // subtask that the restored state does not hold never complete.
                let keep: BTreeSet<u64> = match restored.map(|s| &s.state) {
                    Some(OperatorSnapshot::TwoPhaseCommit { pending_commit, .. }) => {
                        pending_commit.iter().map(|(_, t)| *t).collect()
                    }
                    _ => BTreeSet::new(),
                };
                let lingering: Vec<u64> = ext
                    .txns
                    .iter()
                    .filter(|(id, x)| {
                        x.task == *name && x.status == TxnStatus::Precommitted && !keep.contains(id)
                    })
                    .map(|(id, _)| *id)
                    .collect();
                for id in lingering {
                    ext.abort(id, &mut self.trace);
                }
                // recoverAndAbort for the elements beyond the first (scale-in).
                for txn in restore
                    .as_ref()
                    .and_then(|r| r.abort.get(&t))
                    .into_iter()
                    .flatten()
                {
                    ext.recover_and_abort(*txn, name, &mut self.trace);
                }
                let sink = match (restored, &restore) {
                    (Some(s), Some(r)) => TwoPhaseCommitSink::restore(
                        name,
                        r.checkpoint,
                        &s.state,
                        ext,
                        txn_ids,
                        &mut self.trace,
                    ),
                    _ => TwoPhaseCommitSink::start(name, ext, txn_ids, &mut self.trace),
                };
                OpState::TwoPhaseCommit(sink)
            }
            OperatorKind::Sink => OpState::Sink,
            OperatorKind::Map | OperatorKind::Filter => OpState::Stateless,
            OperatorKind::BroadcastFilter => OpState::Broadcast {
                rules: match restored.map(|s| &s.state) {
                    Some(OperatorSnapshot::Broadcast { rules }) => rules.clone(),
                    _ => BTreeMap::new(),
                },
            },
            kind if kind.has_named_state() => {
                operators::keyed_states(op, restored.map(|s| &s.state))
            }
            _ => OpState::Stateless,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{JobStatus, TaskStatus};

    fn scenario(json: serde_json::Value) -> Scenario {
        Scenario::from_json(&json.to_string()).expect("valid scenario")
    }

    fn pipeline() -> serde_json::Value {
        serde_json::json!({
            "version": 1, "name": "b", "seed": 3,
            "job": {"operators": [
                {"uid": "src", "kind": "source", "parallelism": 2, "partitions": [
                    {"records": [{"at_ms": 7, "key": "a", "value": 1}]},
                    {"records": [{"at_ms": 9, "key": "b", "value": 2}]}]},
                {"uid": "sum", "kind": "keyed_sum", "parallelism": 1},
                {"uid": "out", "kind": "sink", "sink": "two_phase_commit", "parallelism": 1}],
             "edges": [{"from": "src", "to": "sum", "partitioning": "hash"},
                       {"from": "sum", "to": "out"}]},
            "checkpointing": {"interval_ms": 100, "first_trigger_ms": 100},
        })
    }

    /// A fresh deployment: every subtask runs with fresh state, the sources are due
    /// at their first record, the two-phase-commit sink has begun its transaction.
    #[test]
    fn a_fresh_job_is_deployed_running() {
        let w = World::new(&scenario(pipeline()), 3).expect("builds");
        assert_eq!(w.status(), JobStatus::Running);
        assert!(w.tasks().iter().all(|t| t.status == TaskStatus::Running));
        assert_eq!(w.next_at(), Some(7), "the first record is due at 7");
        let OpState::TwoPhaseCommit(sink) = &w.tasks()[3].op else {
            panic!("the sink is two-phase-commit");
        };
        assert_eq!(sink.current, Some(1), "transaction 1 begun at deployment");
        assert_eq!(w.coordinator().config().interval_ms, Some(100));
    }

    /// Restoring from an earlier job happens while the World is built; what it did
    /// (`state_restored`) is handed out with the first step, at the time the earlier
    /// job stopped.
    #[test]
    fn a_restore_from_an_earlier_job_is_told_with_the_first_step() {
        let mut earlier = pipeline();
        earlier["script"] = serde_json::json!([{"at_ms": 8, "action": "savepoint"}]);
        let mut doc = pipeline();
        doc["restore"] = serde_json::json!({"from": earlier, "snapshot": "latest_savepoint"});
        let mut w = World::new(&scenario(doc), 3).expect("builds");
        let start = w.now();
        assert!(
            start > 8,
            "the new job starts where the earlier one stopped"
        );
        let savepoint = w.coordinator().store()[0].clone();
        assert!(
            savepoint.kind.is_savepoint(),
            "restored into the store first"
        );
        w.set_tracing(true);
        let first = w.step().expect("a step").to_vec();
        let restored: Vec<_> = first
            .iter()
            .filter_map(|e| match &e.event {
                Event::StateRestored {
                    task, checkpoint, ..
                } => Some((task.to_string(), *checkpoint)),
                _ => None,
            })
            .collect();
        assert_eq!(restored.len(), 4);
        assert!(
            restored.iter().all(|(_, c)| *c == Some(savepoint.id)),
            "{restored:?}"
        );
        assert!(first.iter().all(|e| e.t == start));
    }
}
