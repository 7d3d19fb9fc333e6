//! Channel state of an unaligned checkpoint: the in-flight records of a task's
//! input channels that become part of the snapshot.
//!
//! When a task takes an unaligned snapshot, its barrier handler names the channels to
//! persist ([`super::HandlerAction::Trigger`]'s `persist`): every open channel whose
//! barrier it has not yet received. Their records queued ahead of the barrier are
//! persisted at once ([`ChannelStatePersister::start`]); records that arrive on them
//! later are persisted too ([`ChannelStatePersister::persist`]) until the channel's
//! barrier or end of partition arrives ([`super::HandlerAction::StopPersisting`],
//! [`ChannelStatePersister::stop`]). When the last channel stops, the capture is
//! complete and handed out, to be written into the snapshot's `input_channels`.
//!
//! Used by the [`crate::World`] (records) and the barrier bench, [`crate::bench`]
//! (token names), so both model the same rule with the same type.
//!
//! Flink: `ChannelStatePersister` (one per input channel: `startPersisting`,
//! `maybePersist`, `stopPersisting`) feeding the `ChannelStateWriter`.
//! Simplified: one persister spans all input channels of a task, since a task
//! persists the channel state of at most one checkpoint at a time; records are
//! persisted one by one rather than as network buffers.

use crate::ids::{ChannelIndex, CheckpointId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The channel state of one unaligned checkpoint being captured. See the module
/// documentation. Flink: `ChannelStatePersister`, one per task instead of one per
/// input channel.
///
/// Invariant: either nothing is captured, or one checkpoint is, with at least one
/// channel still open, and every open channel has its (possibly empty) list in
/// `records`. The stop that closes the last channel hands the capture out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelStatePersister<R> {
    capture: Option<Capture<R>>,
}

/// An open capture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Capture<R> {
    /// The unaligned checkpoint whose channel state this is.
    checkpoint: CheckpointId,
    /// Records persisted so far, per channel persisted (open or stopped).
    records: BTreeMap<ChannelIndex, Vec<R>>,
    /// Channels whose barrier (or end of partition) has not arrived yet: what arrives
    /// on them is still channel state. Never empty.
    open: BTreeSet<ChannelIndex>,
}

/// What [`ChannelStatePersister::stop`] reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopped<R> {
    /// Records persisted for the stopped channel.
    pub records: u32,
    /// When it was the last open channel: the whole channel state, per channel with
    /// at least one record.
    pub complete: Option<BTreeMap<ChannelIndex, Vec<R>>>,
}

impl<R> Default for ChannelStatePersister<R> {
    fn default() -> Self {
        ChannelStatePersister { capture: None }
    }
}

impl<R> ChannelStatePersister<R> {
    /// Nothing captured.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts capturing checkpoint `checkpoint` on `channels`, each with the records
    /// already queued on it ahead of its barrier. A capture still open for an older
    /// checkpoint (abandoned by the handler without a stop) is dropped.
    ///
    /// Precondition: at least one channel, each named once, and `checkpoint` newer
    /// than a capture still open.
    pub fn start(
        &mut self,
        checkpoint: CheckpointId,
        channels: impl IntoIterator<Item = (ChannelIndex, Vec<R>)>,
    ) {
        debug_assert!(
            self.capture
                .as_ref()
                .is_none_or(|c| c.checkpoint < checkpoint),
            "channel state of {checkpoint} started while {:?} is captured",
            self.capture.as_ref().map(|c| c.checkpoint)
        );
        let records: BTreeMap<ChannelIndex, Vec<R>> = channels.into_iter().collect();
        let open: BTreeSet<ChannelIndex> = records.keys().copied().collect();
        assert!(
            !open.is_empty(),
            "an unaligned checkpoint persists at least one channel"
        );
        self.capture = Some(Capture {
            checkpoint,
            records,
            open,
        });
    }

    /// Persists `record`, which arrived on `channel`, if that channel is being
    /// persisted. Returns whether it was.
    #[inline]
    pub fn persist(&mut self, channel: ChannelIndex, record: R) -> bool {
        match &mut self.capture {
            Some(c) if c.open.contains(&channel) => {
                c.records.entry(channel).or_default().push(record);
                true
            }
            _ => false,
        }
    }

    /// Whether records arriving on `channel` are channel state now.
    pub fn is_persisting(&self, channel: ChannelIndex) -> bool {
        self.capture
            .as_ref()
            .is_some_and(|c| c.open.contains(&channel))
    }

    /// The channels being persisted, in index order.
    pub fn persisting(&self) -> impl Iterator<Item = ChannelIndex> + '_ {
        self.capture.iter().flat_map(|c| c.open.iter().copied())
    }

    /// The checkpoint whose channel state is being captured, if any.
    pub fn checkpoint(&self) -> Option<CheckpointId> {
        self.capture.as_ref().map(|c| c.checkpoint)
    }

    /// Whether the channel state of `checkpoint` is still being captured (its
    /// snapshot cannot be acknowledged yet).
    pub fn is_capturing(&self, checkpoint: CheckpointId) -> bool {
        self.capture
            .as_ref()
            .is_some_and(|c| c.checkpoint == checkpoint)
    }

    /// `channel`'s barrier (or end of partition) of `checkpoint` arrived: stop
    /// persisting it. `None` if it was not being persisted for that checkpoint.
    pub fn stop(&mut self, channel: ChannelIndex, checkpoint: CheckpointId) -> Option<Stopped<R>> {
        let c = self.capture.as_mut()?;
        if c.checkpoint != checkpoint || !c.open.remove(&channel) {
            return None;
        }
        let records = c.records.get(&channel).map_or(0, |v| v.len() as u32);
        let complete = if c.open.is_empty() {
            self.take().map(|(_, records)| records)
        } else {
            None
        };
        Some(Stopped { records, complete })
    }

    /// Drops the capture of `checkpoint` (declined or aborted); returns what it held,
    /// per channel with at least one record. Leaves a capture of another checkpoint.
    pub fn abort(&mut self, checkpoint: CheckpointId) -> Option<BTreeMap<ChannelIndex, Vec<R>>> {
        if self.is_capturing(checkpoint) {
            self.take().map(|(_, records)| records)
        } else {
            None
        }
    }

    /// Drops whatever is captured; returns its checkpoint and records, per channel
    /// with at least one record.
    pub fn take(&mut self) -> Option<(CheckpointId, BTreeMap<ChannelIndex, Vec<R>>)> {
        let c = self.capture.take()?;
        let records = c
            .records
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .collect();
        Some((c.checkpoint, records))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const C1: CheckpointId = CheckpointId(1);
    const C2: CheckpointId = CheckpointId(2);

    fn ch(i: u32) -> ChannelIndex {
        ChannelIndex(i)
    }

    /// Mirrors Flink's ChannelStatePersisterTest: records are persisted between
    /// startPersisting and stopPersisting of their channel only.
    #[test]
    fn persists_a_channel_until_its_barrier() {
        let mut p = ChannelStatePersister::new();
        p.start(C1, [(ch(0), vec!["r1"]), (ch(2), vec![])]);
        assert!(p.is_persisting(ch(0)) && !p.is_persisting(ch(1)));
        assert!(p.persist(ch(2), "r2"));
        assert!(!p.persist(ch(1), "r3"), "channel 1 is not persisted");
        let first = p.stop(ch(0), C1).unwrap();
        assert_eq!((first.records, first.complete), (1, None));
        assert!(
            !p.persist(ch(0), "r4"),
            "behind its barrier: not channel state"
        );
        assert!(p.is_capturing(C1));
        let last = p.stop(ch(2), C1).unwrap();
        assert_eq!(last.records, 1);
        assert_eq!(
            last.complete,
            Some(BTreeMap::from([(ch(0), vec!["r1"]), (ch(2), vec!["r2"])]))
        );
        assert!(
            !p.is_capturing(C1),
            "handed out when the last channel stops"
        );
    }

    /// Empty channels are left out of the channel state.
    #[test]
    fn empty_channels_are_not_in_the_state() {
        let mut p: ChannelStatePersister<&str> = ChannelStatePersister::new();
        p.start(C1, [(ch(0), vec![]), (ch(1), vec![])]);
        p.stop(ch(0), C1);
        assert_eq!(p.stop(ch(1), C1).unwrap().complete, Some(BTreeMap::new()));
    }

    /// A stop or an abort of another checkpoint leaves the capture alone.
    #[test]
    fn other_checkpoints_do_not_touch_the_capture() {
        let mut p = ChannelStatePersister::new();
        p.start(C2, [(ch(0), vec!["a"])]);
        assert_eq!(p.stop(ch(0), C1), None);
        assert_eq!(p.abort(C1), None);
        assert_eq!(p.persisting().collect::<Vec<_>>(), [ch(0)]);
        assert_eq!(p.abort(C2), Some(BTreeMap::from([(ch(0), vec!["a"])])));
        assert_eq!(p.persisting().count(), 0);
        assert_eq!(p.stop(ch(0), C2), None, "nothing left to stop");
    }

    #[test]
    #[should_panic(expected = "at least one channel")]
    fn a_capture_needs_a_channel() {
        ChannelStatePersister::<u8>::new().start(C1, []);
    }
}
