//! # The barrier bench (`lab barriers`)
//!
//! The barrier handler of one task, alone, fed an exact arrival sequence — the way
//! Flink's own unit tests drive `SingleCheckpointBarrierHandler` and
//! `CheckpointBarrierTracker` (contract: scenario-format.md, "The barrier bench").
//! It drives the same [`BarrierHandler`] as the `World`.
//!
//! # Layout
//! - `parse` ([`parse_arrivals`]): the text form (`r7@2 B3@1^40:55 X3@1 EOP@1
//!   tick:90`, `hold@0 … poll@0`) and the check of a sequence against a configuration.
//! - this module ([`run`]): feeds a sequence to a handler and reports, per token, a
//!   [`BenchLine`].
//! - `cli` ([`run_cli`]): the `lab barriers` command line: arguments in, JSON lines
//!   out.
//!
//! # Model
//! - Drain-on-arrival: an element is handled as it arrives, unless its channel is
//!   blocked; then it waits there (record, barrier, marker or end of partition alike,
//!   as with Flink's credit-based network) and is handled when the channel is
//!   released, in global arrival order, skipping channels still blocked.
//! - A timer due at or before an element's arrival fires first; its effects are
//!   reported on that element's line.
//! - Data queued before polling: `hold@N` stops the task reading channel N (as a
//!   busy or back-pressured task does), so what arrives there queues until `poll@N`;
//!   a queue `[r1 r2 B1]@N` is its elements arriving on channel N so held. A
//!   timeoutable barrier queued there is announced at once (Flink's
//!   `RemoteInputChannel.onBuffer` puts an `EventAnnouncement` at the head of the
//!   queue, a priority event the task handles even while it reads nothing else); an
//!   unaligned barrier is a priority event and is handled at once, overtaking the
//!   queued data. `A3@1` is an announcement arriving on its own (as Flink's tests
//!   send one on a test channel). When the aligned-checkpoint timer fires before any
//!   barrier was handled, every announced barrier leaves its queue and is handled as
//!   an unaligned barrier ([`HandlerAction::Prioritize`], Flink's
//!   `ChannelState.prioritizeAllAnnouncements` → `convertToPriorityEvent`), the
//!   records it jumps becoming channel state.
//! - Channel state of an unaligned checkpoint: per persisted channel, the records
//!   queued there at the snapshot or arriving after it, before that channel's barrier
//!   (or end of partition) — filled in with records that arrive on later lines. The
//!   capture is the World's [`ChannelStatePersister`], fed with token names.
//!
//! Simplified: all channels are remote (local channels announce nothing in Flink).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::barrier::channel_state::ChannelStatePersister;
use crate::barrier::{
    AbortReason, BarrierHandler, CheckpointBarrier, EndOfPartition, HandlerAction, HandlerMode,
    SnapshotType,
};
use crate::ids::{ChannelIndex, CheckpointId};

mod cli;
mod parse;

pub use cli::{parse_args, run_cli};
pub use parse::parse_arrivals;

/// The bench's configuration (the `lab barriers` flags).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BenchConfig {
    /// Which handler: `--mode aligned|unaligned|at-least-once`.
    pub mode: HandlerMode,
    /// Input channels of the task: `--channels N`, at least 1.
    pub channels: u32,
    /// `--aligned-timeout MS` (unaligned mode only): 0 = unaligned from the start;
    /// above 0 a checkpoint starts aligned and times out to unaligned.
    pub aligned_timeout_ms: u64,
    /// False with `--no-finished-tasks`: an end of partition aborts the pending
    /// checkpoint instead of counting as that channel's barrier.
    pub checkpoints_after_tasks_finish: bool,
}

impl BenchConfig {
    /// A configuration with the defaults: no aligned timeout, checkpoints after tasks
    /// finish enabled.
    pub fn new(mode: HandlerMode, channels: u32) -> Self {
        BenchConfig {
            mode,
            channels,
            aligned_timeout_ms: 0,
            checkpoints_after_tasks_finish: true,
        }
    }

    /// The barrier a `B`/`S` token stands for in this configuration (Flink:
    /// `CheckpointOptions.forConfig`).
    pub fn barrier(
        &self,
        checkpoint: CheckpointId,
        created_at: u64,
        is_savepoint: bool,
    ) -> CheckpointBarrier {
        let snapshot = if is_savepoint {
            SnapshotType::Savepoint
        } else {
            SnapshotType::Checkpoint
        };
        CheckpointBarrier::for_config(
            checkpoint,
            created_at,
            snapshot,
            self.mode,
            self.aligned_timeout_ms,
        )
    }
}

/// What one token says arrives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ArrivalKind {
    /// `r7@2`: data record `r7` on channel 2.
    Record {
        /// The record's name as written (`r` + digits).
        name: String,
        /// Its channel.
        channel: ChannelIndex,
    },
    /// `B3@1^40` (checkpoint) or `S3@1` (savepoint): a barrier on channel 1.
    Barrier {
        /// The checkpoint id.
        checkpoint: CheckpointId,
        /// Its channel.
        channel: ChannelIndex,
        /// Creation time (`^T`, default 0).
        created_at: u64,
        /// `S`: a savepoint.
        is_savepoint: bool,
    },
    /// `A3@1^40`: the announcement of checkpoint 3's barrier on channel 1 (Flink:
    /// `EventAnnouncement`), a priority event handled at once whatever is queued or
    /// blocked there. The barrier itself is a token of its own.
    Announcement {
        /// The announced checkpoint.
        checkpoint: CheckpointId,
        /// Its channel.
        channel: ChannelIndex,
        /// The announced barrier's creation time (`^T`, default 0).
        created_at: u64,
    },
    /// `X3@1`: cancellation marker of checkpoint 3 on channel 1.
    Cancellation {
        /// The cancelled checkpoint.
        checkpoint: CheckpointId,
        /// Its channel.
        channel: ChannelIndex,
    },
    /// `EOP@1`: end of partition on channel 1.
    EndOfPartition {
        /// The channel that ends.
        channel: ChannelIndex,
    },
    /// `tick:T`: nothing arrives; the clock advances.
    Tick,
    /// `hold@1`: the task stops reading channel 1; what arrives there queues, and a
    /// timeoutable barrier is announced.
    Hold {
        /// The channel held.
        channel: ChannelIndex,
    },
    /// `poll@1`: the task reads channel 1 again, its queue in arrival order.
    Poll {
        /// The channel released.
        channel: ChannelIndex,
    },
}

/// One token of an arrival sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arrival {
    /// The token exactly as given.
    pub token: String,
    /// Arrival time (ms): `:T`, else the token's 0-based position, or the previous
    /// token's time if later.
    pub at_ms: u64,
    /// What arrives.
    pub kind: ArrivalKind,
    /// Written inside a queue (`[r1 B1]@0`): it arrives while the task is not reading
    /// its channel, which stays unread until `poll`.
    #[serde(default)]
    pub queued: bool,
}

impl Arrival {
    /// The channel it arrives on (`None` for a tick, `hold` and `poll`: nothing
    /// arrives).
    pub fn channel(&self) -> Option<ChannelIndex> {
        match self.kind {
            ArrivalKind::Record { channel, .. }
            | ArrivalKind::Barrier { channel, .. }
            | ArrivalKind::Cancellation { channel, .. }
            | ArrivalKind::Announcement { channel, .. }
            | ArrivalKind::EndOfPartition { channel } => Some(channel),
            ArrivalKind::Tick | ArrivalKind::Hold { .. } | ArrivalKind::Poll { .. } => None,
        }
    }

    /// The channel the token names: the one it arrives on, or the one `hold` and
    /// `poll` act on (`None` for a tick).
    pub fn named_channel(&self) -> Option<ChannelIndex> {
        match self.kind {
            ArrivalKind::Hold { channel } | ArrivalKind::Poll { channel } => Some(channel),
            _ => self.channel(),
        }
    }
}

/// A checkpoint triggered on a line (contract: `triggered` entries).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TriggeredCheckpoint {
    /// The checkpoint.
    pub checkpoint: CheckpointId,
    /// Taken unaligned.
    pub unaligned: bool,
    /// How many of the line's `processed` records preceded the snapshot.
    pub processed_before_snapshot: usize,
    /// Everything persisted for it, per channel (non-empty lists only; `{}` when
    /// aligned), including records that arrive on later lines. Serialized with the
    /// channel index as a string key.
    pub channel_state: BTreeMap<ChannelIndex, Vec<String>>,
}

/// A checkpoint aborted on a line (contract: `aborted` entries).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbortedCheckpoint {
    /// The checkpoint.
    pub checkpoint: CheckpointId,
    /// Why.
    pub reason: AbortReason,
}

/// What handling one token caused. The first six fields are the contract's output
/// line; the rest are for the page, which steps through the lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BenchLine {
    /// The token's 0-based index.
    pub i: usize,
    /// The token as given.
    pub token: String,
    /// Records processed as a consequence of this line, in order (records released
    /// when a channel unblocks come after the snapshot).
    pub processed: Vec<String>,
    /// Channels blocked after this line.
    pub blocked: Vec<ChannelIndex>,
    /// Checkpoints triggered on this line.
    pub triggered: Vec<TriggeredCheckpoint>,
    /// Checkpoints aborted on this line.
    pub aborted: Vec<AbortedCheckpoint>,
    /// The token's arrival time.
    pub at_ms: u64,
    /// When the aligned-checkpoint timer fired before the token was handled.
    pub timer_fired_at: Option<u64>,
    /// Indices of the tokens handled on this line, in order: this one (unless it had
    /// to wait) and any released from blocked channels.
    pub handled: Vec<usize>,
    /// Indices of the tokens waiting on blocked channels after this line.
    pub waiting: Vec<usize>,
    /// Channels persisting in-flight records after this line.
    pub persisting: Vec<ChannelIndex>,
    /// Checkpoints pending at the handler after this line.
    pub pending: Vec<CheckpointId>,
    /// Everything the handler asked for on this line, in order.
    pub actions: Vec<HandlerAction>,
}

/// The last output line (contract: summary).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BenchSummary {
    /// Always true: tells the summary from a token line.
    pub summary: bool,
    /// Every triggered checkpoint, in order.
    pub triggered: Vec<CheckpointId>,
    /// Every aborted checkpoint, in order.
    pub aborted: Vec<AbortedCheckpoint>,
    /// Every processed record, in order.
    pub processed: Vec<String>,
}

/// A whole bench run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BenchOutput {
    /// One line per token.
    pub lines: Vec<BenchLine>,
    /// The summary.
    pub summary: BenchSummary,
}

/// The contract's view of a [`BenchLine`]: exactly its fields, in its order.
#[derive(Serialize)]
struct ContractLine<'a> {
    i: usize,
    token: &'a str,
    processed: &'a [String],
    blocked: &'a [ChannelIndex],
    triggered: &'a [TriggeredCheckpoint],
    aborted: &'a [AbortedCheckpoint],
}

impl BenchOutput {
    /// The lines `lab barriers` prints: one JSON object per token, then the summary.
    pub fn to_json_lines(&self) -> Result<Vec<String>, serde_json::Error> {
        let mut lines = Vec::with_capacity(self.lines.len() + 1);
        for line in &self.lines {
            let view = ContractLine {
                i: line.i,
                token: &line.token,
                processed: &line.processed,
                blocked: &line.blocked,
                triggered: &line.triggered,
                aborted: &line.aborted,
            };
            lines.push(serde_json::to_string(&view)?);
        }
        lines.push(serde_json::to_string(&self.summary)?);
        Ok(lines)
    }
}

/// Where a token is handled: in its channel's order, or as a priority event
/// ahead of what is queued on its channel — a barrier so handled is unaligned
/// (Flink: `PipelinedSubpartition.processPriorityBuffer` puts a priority event
/// ahead of the queued buffers; `CheckpointBarrier.asUnaligned`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    /// Behind what arrived before it on its channel.
    InOrder,
    /// Ahead of what is queued on its channel.
    Priority,
}

/// Why the bench cannot run: the message names the flag or the token, as
/// `lab barriers` prints it.
#[derive(Debug)]
pub enum BenchError {
    /// A flag of `lab barriers` is missing, repeated or has a bad value.
    Usage(String),
    /// The configuration cannot run (no channel; an aligned-checkpoint timeout
    /// without unaligned checkpoints).
    Config(&'static str),
    /// A token that cannot be parsed or does not fit the configuration.
    Token {
        /// The token as written.
        token: String,
        /// Its position in the sequence, from 0.
        index: usize,
        /// What is wrong with it.
        why: String,
    },
    /// The output could not be written as JSON.
    Json(serde_json::Error),
}

impl std::fmt::Display for BenchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BenchError::Usage(message) => f.write_str(message),
            BenchError::Config(message) => f.write_str(message),
            BenchError::Token { token, index, why } => {
                write!(f, "bad token {token:?} (token {index}): {why}")
            }
            BenchError::Json(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BenchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BenchError::Json(e) => Some(e),
            _ => None,
        }
    }
}

impl From<serde_json::Error> for BenchError {
    fn from(e: serde_json::Error) -> Self {
        BenchError::Json(e)
    }
}

/// Runs a sequence through a fresh handler. Errors (naming the token) when the
/// sequence does not fit the configuration.
pub fn run(config: &BenchConfig, arrivals: &[Arrival]) -> Result<BenchOutput, BenchError> {
    parse::validate(config, arrivals)?;
    let mut bench = Bench {
        config,
        arrivals,
        handler: BarrierHandler::new(
            config.mode,
            config.channels,
            EndOfPartition::with_checkpoints_after_tasks_finish(
                config.checkpoints_after_tasks_finish,
            ),
        ),
        lines: Vec::with_capacity(arrivals.len()),
        waiting: Vec::new(),
        held: BTreeSet::new(),
        channel_state: ChannelStatePersister::new(),
        capture_at: None,
        persisted_at_snapshot: BTreeSet::new(),
        handling: None,
        summary: BenchSummary {
            summary: true,
            triggered: Vec::new(),
            aborted: Vec::new(),
            processed: Vec::new(),
        },
    };
    for (i, arrival) in arrivals.iter().enumerate() {
        bench.arrive(i, arrival);
    }
    // A channel whose barrier never came: what it persisted so far.
    bench.hand_out_channel_state();
    Ok(BenchOutput {
        lines: bench.lines,
        summary: bench.summary,
    })
}

/// Where a triggered checkpoint is reported: (line, index in its `triggered`).
type TriggerAt = (usize, usize);

/// A run in progress.
struct Bench<'a> {
    config: &'a BenchConfig,
    arrivals: &'a [Arrival],
    handler: BarrierHandler,
    /// Output so far; the last line is the one being handled.
    lines: Vec<BenchLine>,
    /// Tokens waiting on blocked or held channels, in arrival order. Invariant between
    /// tokens: every one is on a blocked or held channel.
    waiting: Vec<usize>,
    /// Channels the task does not read (`hold@N` until `poll@N`).
    held: BTreeSet<ChannelIndex>,
    /// The channel state being captured, by token name. Invariant between tokens:
    /// its persisting channels are the handler's ([`BarrierHandler::is_persisting`]).
    channel_state: ChannelStatePersister<String>,
    /// The trigger whose `channel_state` the capture fills.
    capture_at: Option<TriggerAt>,
    /// Waiting records already persisted (queued at the snapshot, or arriving on a held
    /// channel while it persisted), so not again when processed.
    persisted_at_snapshot: BTreeSet<usize>,
    /// The channel and index of the token being handled: the tokens queued on that
    /// channel ahead of it (a priority barrier jumped them) are in its channel state,
    /// those behind it are not.
    handling: Option<(ChannelIndex, usize)>,
    summary: BenchSummary,
}

impl Bench<'_> {
    fn line(&mut self) -> &mut BenchLine {
        self.lines.last_mut().expect("a line is being handled")
    }

    /// Handles token `i`: due timers, then the token (or it waits), then whatever its
    /// effects release.
    fn arrive(&mut self, i: usize, arrival: &Arrival) {
        let now = arrival.at_ms;
        self.lines.push(BenchLine {
            i,
            token: arrival.token.clone(),
            processed: Vec::new(),
            blocked: Vec::new(),
            triggered: Vec::new(),
            aborted: Vec::new(),
            at_ms: now,
            timer_fired_at: None,
            handled: Vec::new(),
            waiting: Vec::new(),
            persisting: Vec::new(),
            pending: Vec::new(),
            actions: Vec::new(),
        });
        // At most one timer is registered; a fired timer is gone.
        for _ in 0..4 {
            match self.handler.next_timer_at() {
                Some(due) if due <= now => {
                    let mut out = Vec::new();
                    self.handler.fire_timer(due, &mut out);
                    self.line().timer_fired_at = Some(due);
                    self.apply(out, due);
                    self.drain(due);
                }
                _ => break,
            }
        }
        if let (true, Some(channel)) = (arrival.queued, arrival.channel()) {
            self.held.insert(channel);
        }
        match (&arrival.kind, arrival.channel()) {
            (ArrivalKind::Announcement { .. }, _) => {
                self.handle(i, now, Order::Priority);
                self.drain(now);
            }
            (ArrivalKind::Hold { channel }, _) => {
                self.held.insert(*channel);
            }
            (ArrivalKind::Poll { channel }, _) => {
                self.held.remove(channel);
                self.drain(now);
            }
            (_, None) => {}
            (_, Some(channel)) if self.handler.is_blocked(channel) => self.waiting.push(i),
            (ArrivalKind::Barrier { .. }, Some(channel)) if self.held.contains(&channel) => {
                self.barrier_on_held_channel(i, now);
            }
            (_, Some(channel)) if self.held.contains(&channel) => {
                self.persist_on_arrival(i, channel);
                self.waiting.push(i);
            }
            (_, Some(_)) => {
                self.handle(i, now, Order::InOrder);
                self.drain(now);
            }
        }
        let channels = (0..self.config.channels).map(ChannelIndex);
        let blocked = channels
            .clone()
            .filter(|&c| self.handler.is_blocked(c))
            .collect();
        let persisting: Vec<ChannelIndex> = channels
            .filter(|&c| self.handler.is_persisting(c))
            .collect();
        debug_assert_eq!(
            persisting,
            self.channel_state.persisting().collect::<Vec<_>>(),
            "the bench's persisting channels mirror the handler's"
        );
        let waiting = self.waiting.clone();
        let pending = self.handler.pending_checkpoints();
        let line = self.line();
        line.blocked = blocked;
        line.persisting = persisting;
        line.waiting = waiting;
        line.pending = pending;
    }

    /// A barrier reaching a held channel (not blocked): an unaligned one is a priority
    /// event, handled at once ahead of the queued data; a timeoutable one queues and is
    /// announced (Flink: `RemoteInputChannel.onBuffer` puts an `EventAnnouncement` at
    /// the head of the queue for every barrier whose data type `requiresAnnouncement`);
    /// any other queues.
    fn barrier_on_held_channel(&mut self, i: usize, now: u64) {
        let ArrivalKind::Barrier {
            checkpoint,
            channel,
            created_at,
            is_savepoint,
        } = self.arrivals[i].kind
        else {
            return;
        };
        let barrier = self.config.barrier(checkpoint, created_at, is_savepoint);
        if barrier.is_unaligned() {
            self.handle(i, now, Order::Priority);
            self.drain(now);
            return;
        }
        self.waiting.push(i);
        if barrier.is_timeoutable() {
            let mut out = Vec::new();
            self.handler
                .process_barrier_announcement(channel, &barrier, now, &mut out);
            self.apply(out, now);
            self.drain(now);
        }
    }

    /// A record queuing on a held channel that persists for the pending unaligned
    /// checkpoint is channel state as it arrives, unless its channel's barrier (or end
    /// of partition) is queued ahead of it (Flink: `RemoteInputChannel.onBuffer`
    /// hands each arriving buffer to `ChannelStatePersister.maybePersist`).
    fn persist_on_arrival(&mut self, i: usize, channel: ChannelIndex) {
        let ArrivalKind::Record { name, .. } = &self.arrivals[i].kind else {
            return;
        };
        let Some(checkpoint) = self.channel_state.checkpoint() else {
            return;
        };
        let behind_barrier = self.waiting.iter().any(|&w| {
            let a = &self.arrivals[w];
            a.channel() == Some(channel)
                && match a.kind {
                    ArrivalKind::Barrier { checkpoint: id, .. } => id >= checkpoint,
                    ArrivalKind::EndOfPartition { .. } => true,
                    _ => false,
                }
        });
        if !behind_barrier && self.channel_state.persist(channel, name.clone()) {
            self.persisted_at_snapshot.insert(i);
        }
    }

    /// Handles the waiting tokens whose channel is neither blocked nor held, in
    /// arrival order, until none is left to handle.
    fn drain(&mut self, now: u64) {
        while let Some(pos) = self.waiting.iter().position(|&w| {
            self.arrivals[w]
                .channel()
                .is_some_and(|c| !self.handler.is_blocked(c) && !self.held.contains(&c))
        }) {
            let w = self.waiting.remove(pos);
            self.handle(w, now, Order::InOrder);
        }
    }

    /// The announced barrier of `checkpoint` on `channel` leaves its queue and is
    /// handled now as an unaligned barrier (Flink: `convertToPriorityEvent`).
    fn prioritize(&mut self, channel: ChannelIndex, checkpoint: CheckpointId, now: u64) {
        let Some(pos) = self.waiting.iter().position(|&w| {
            matches!(self.arrivals[w].kind,
                ArrivalKind::Barrier { channel: c, checkpoint: id, .. } if c == channel && id == checkpoint)
        }) else {
            return;
        };
        let w = self.waiting.remove(pos);
        self.handle(w, now, Order::Priority);
    }

    /// Handles token `i` on its channel, in its channel's order or as a priority
    /// event ([`Order`]).
    fn handle(&mut self, i: usize, now: u64, order: Order) {
        let arrival = &self.arrivals[i];
        self.line().handled.push(i);
        let mut out = Vec::new();
        match &arrival.kind {
            ArrivalKind::Record { name, channel } => {
                self.line().processed.push(name.clone());
                self.summary.processed.push(name.clone());
                if !self.persisted_at_snapshot.remove(&i) {
                    self.channel_state.persist(*channel, name.clone());
                }
            }
            ArrivalKind::Barrier {
                checkpoint,
                channel,
                created_at,
                is_savepoint,
            } => {
                let mut barrier = self.config.barrier(*checkpoint, *created_at, *is_savepoint);
                if order == Order::Priority && !barrier.is_unaligned() {
                    barrier = barrier.to_unaligned();
                }
                self.handler
                    .process_barrier(*channel, &barrier, now, &mut out);
            }
            ArrivalKind::Cancellation {
                checkpoint,
                channel,
            } => {
                self.handler
                    .process_cancellation_barrier(*channel, *checkpoint, now, &mut out);
            }
            ArrivalKind::EndOfPartition { channel } => {
                self.handler
                    .process_end_of_partition(*channel, now, &mut out);
            }
            ArrivalKind::Announcement {
                checkpoint,
                channel,
                created_at,
            } => {
                let barrier = self.config.barrier(*checkpoint, *created_at, false);
                self.handler
                    .process_barrier_announcement(*channel, &barrier, now, &mut out);
            }
            ArrivalKind::Tick | ArrivalKind::Hold { .. } | ArrivalKind::Poll { .. } => {}
        }
        self.handling = arrival.channel().map(|c| (c, i));
        self.apply(out, now);
        self.handling = None;
    }

    /// Reports the handler's actions on the current line and follows persisting;
    /// then hands over the barriers it prioritized.
    fn apply(&mut self, actions: Vec<HandlerAction>, now: u64) {
        let mut prioritized = Vec::new();
        for action in &actions {
            match action {
                HandlerAction::Trigger {
                    barrier, persist, ..
                } => {
                    let line_index = self.lines.len() - 1;
                    let line = self.line();
                    let at = (line_index, line.triggered.len());
                    let processed_before_snapshot = line.processed.len();
                    line.triggered.push(TriggeredCheckpoint {
                        checkpoint: barrier.id,
                        unaligned: barrier.is_unaligned(),
                        processed_before_snapshot,
                        channel_state: BTreeMap::new(),
                    });
                    self.summary.triggered.push(barrier.id);
                    if !persist.is_empty() {
                        let queued: Vec<(ChannelIndex, Vec<String>)> = persist
                            .iter()
                            .map(|&channel| (channel, self.queued_records(channel, barrier.id)))
                            .collect();
                        self.channel_state.start(barrier.id, queued);
                        self.capture_at = Some(at);
                    }
                }
                HandlerAction::StopPersisting {
                    channel,
                    checkpoint,
                } => {
                    let complete = self
                        .channel_state
                        .stop(*channel, *checkpoint)
                        .and_then(|s| s.complete);
                    if let Some(records) = complete {
                        self.write_channel_state(records);
                    }
                }
                HandlerAction::Abort { checkpoint, reason } => {
                    let aborted = AbortedCheckpoint {
                        checkpoint: *checkpoint,
                        reason: *reason,
                    };
                    self.line().aborted.push(aborted.clone());
                    self.summary.aborted.push(aborted);
                    // The handler stops persisting every channel.
                    self.hand_out_channel_state();
                }
                HandlerAction::Prioritize {
                    channel,
                    checkpoint,
                } => prioritized.push((*channel, *checkpoint)),
                HandlerAction::Blocked { .. } | HandlerAction::Unblocked { .. } => {}
            }
        }
        self.line().actions.extend(actions);
        for (channel, checkpoint) in prioritized {
            self.prioritize(channel, checkpoint, now);
        }
    }

    /// The records queued on `channel` when checkpoint `checkpoint`'s snapshot is
    /// taken (those ahead of its barrier or end of partition): channel state at once,
    /// and not again when they are handled.
    fn queued_records(&mut self, channel: ChannelIndex, checkpoint: CheckpointId) -> Vec<String> {
        let mut records = Vec::new();
        for &w in &self.waiting {
            let arrival = &self.arrivals[w];
            if arrival.channel() != Some(channel) {
                continue;
            }
            if self.handling.is_some_and(|(c, i)| c == channel && w > i) {
                // Behind the barrier being handled.
                break;
            }
            match &arrival.kind {
                ArrivalKind::Record { name, .. } => {
                    self.persisted_at_snapshot.insert(w);
                    records.push(name.clone());
                }
                ArrivalKind::Barrier { checkpoint: id, .. } if *id >= checkpoint => break,
                ArrivalKind::EndOfPartition { .. } => break,
                _ => {}
            }
        }
        records
    }

    /// Ends the capture (complete, aborted or cut short by the end of the sequence)
    /// and reports what it persisted on its trigger's line.
    fn hand_out_channel_state(&mut self) {
        if let Some((_, records)) = self.channel_state.take() {
            self.write_channel_state(records);
        }
        self.capture_at = None;
    }

    fn write_channel_state(&mut self, records: BTreeMap<ChannelIndex, Vec<String>>) {
        if let Some((line, k)) = self.capture_at.take() {
            self.lines[line].triggered[k].channel_state = records;
        }
    }
}
