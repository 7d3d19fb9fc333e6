//! What a subtask remembers only so that the page can show it: the state entries it
//! changed last ([`Recent`]) and what the latest restore rewound ([`Restored`]).
//! Nothing here decides anything the simulation does; it is bookkeeping beside the
//! state, cloned with the [`super::Task`] it belongs to (so a keyframe keeps it).
//!
//! Flink has no counterpart: its web UI shows no per-key state.

use crate::ids::CheckpointId;
use crate::operators::OpState;
use crate::record::KeyId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How many recently changed entries a subtask remembers.
pub const RECENT: usize = 8;

/// One entry of a subtask's state: a source partition (its offset) or a key (its
/// value in every keyed state, or a broadcast rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum StateEntry {
    /// A source partition's offset.
    Partition(u32),
    /// A key's value (keyed state) or a rule's (broadcast state).
    Key(KeyId),
}

/// The entries changed last, most recent first, each with when it changed; at most
/// [`RECENT`], each once.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recent {
    entries: Vec<(StateEntry, u64)>,
}

impl Recent {
    /// `entry` changed at `now`.
    #[inline]
    pub fn touch(&mut self, entry: StateEntry, now: u64) {
        if let Some(i) = self.entries.iter().position(|(e, _)| *e == entry) {
            self.entries.remove(i);
        } else if self.entries.len() == RECENT {
            self.entries.pop();
        }
        self.entries.insert(0, (entry, now));
    }

    /// The entries, most recent first, with when each changed.
    pub fn entries(&self) -> &[(StateEntry, u64)] {
        &self.entries
    }
}

/// One value a restore changed: what the failed attempt held and what the
/// checkpoint gave back (`None`: absent — a key the checkpoint does not have, or a
/// fresh start).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rewound {
    /// The entry.
    pub entry: StateEntry,
    /// The named keyed state it belongs to (`None` for offsets, `keyed_count` /
    /// `keyed_sum` values and broadcast rules).
    pub state: Option<String>,
    /// Its value in the failed attempt, as JSON text.
    pub before: Option<String>,
    /// Its value restored, as JSON text.
    pub after: Option<String>,
}

/// What a restart's restore did to one subtask.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Restored {
    /// The checkpoint restored (`None`: the job started from scratch).
    pub checkpoint: Option<CheckpointId>,
    /// When.
    pub at: u64,
    /// The values it changed, in entry order.
    pub values: Vec<Rewound>,
    /// A source: per partition, the highest offset any earlier attempt had read to
    /// (what it reads below that again is a replay).
    pub read_before: BTreeMap<u32, u64>,
}

impl Restored {
    /// What restoring `after` over the failed attempt's `before` changed. `earlier`:
    /// what the failed attempt itself had restored (its `read_before` carries on).
    pub fn between(
        before: &OpState,
        after: &OpState,
        earlier: Option<&Restored>,
        checkpoint: Option<CheckpointId>,
        at: u64,
    ) -> Restored {
        let mut values = Vec::new();
        let mut read_before = earlier.map(|r| r.read_before.clone()).unwrap_or_default();
        let text = |v: Option<&i64>| v.map(i64::to_string);
        match (before, after) {
            (OpState::Source(b), OpState::Source(a)) => {
                for (p, o) in &b.offsets {
                    let high = read_before.entry(*p).or_insert(0);
                    *high = (*high).max(*o);
                }
                changed(&b.offsets, &a.offsets, |p, x, y| {
                    values.push(Rewound {
                        entry: StateEntry::Partition(*p),
                        state: None,
                        before: x.map(u64::to_string),
                        after: y.map(u64::to_string),
                    })
                });
            }
            (OpState::Keyed { values: b }, OpState::Keyed { values: a })
            | (OpState::Broadcast { rules: b }, OpState::Broadcast { rules: a }) => {
                changed(b, a, |k, x, y| {
                    values.push(Rewound {
                        entry: StateEntry::Key(*k),
                        state: None,
                        before: text(x),
                        after: text(y),
                    })
                });
            }
            (OpState::KeyedStates(b), OpState::KeyedStates(a)) => {
                for (name, table) in b.tables() {
                    let shown =
                        |t: Option<&crate::state::keyed::StateTable>| -> BTreeMap<KeyId, String> {
                            t.map(|t| {
                                t.entries
                                    .iter()
                                    .map(|(k, v)| (*k, v.display().to_string()))
                                    .collect()
                            })
                            .unwrap_or_default()
                        };
                    let (x, y) = (shown(Some(table)), shown(a.tables().get(name)));
                    changed(&x, &y, |k, x, y| {
                        values.push(Rewound {
                            entry: StateEntry::Key(*k),
                            state: Some(name.clone()),
                            before: x.cloned(),
                            after: y.cloned(),
                        })
                    });
                }
            }
            _ => {}
        }
        Restored {
            checkpoint,
            at,
            values,
            read_before,
        }
    }
}

/// Calls `f` with every key of `before` or `after` whose value differs, in key order.
fn changed<K: Ord, V: PartialEq>(
    before: &BTreeMap<K, V>,
    after: &BTreeMap<K, V>,
    mut f: impl FnMut(&K, Option<&V>, Option<&V>),
) {
    let mut keys: Vec<&K> = before.keys().chain(after.keys()).collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        let (x, y) = (before.get(k), after.get(k));
        if x != y {
            f(k, x, y);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operators::SourceState;

    #[test]
    fn recent_entries_are_most_recent_first_each_once() {
        let mut r = Recent::default();
        for (i, k) in [1, 2, 1, 3].into_iter().enumerate() {
            r.touch(StateEntry::Key(KeyId(k)), i as u64);
        }
        let keys: Vec<(StateEntry, u64)> = r.entries().to_vec();
        assert_eq!(
            keys,
            vec![
                (StateEntry::Key(KeyId(3)), 3),
                (StateEntry::Key(KeyId(1)), 2),
                (StateEntry::Key(KeyId(2)), 1)
            ]
        );
        for i in 0..20 {
            r.touch(StateEntry::Partition(i), 10 + u64::from(i));
        }
        assert_eq!(r.entries().len(), RECENT);
        assert_eq!(r.entries()[0], (StateEntry::Partition(19), 29));
    }

    /// The study notes' restore: offset 7 rewinds to 5, even 12 to 6; what is
    /// equal is not listed; a source remembers how far it had read.
    #[test]
    fn a_restore_lists_what_it_rewound() {
        let source = |o: u64| {
            OpState::Source(SourceState {
                offsets: [(0, o)].into(),
                emit_scheduled: false,
                next_allowed_at: 0,
                stopped: false,
            })
        };
        let r = Restored::between(&source(7), &source(5), None, Some(CheckpointId(1)), 1210);
        assert_eq!(
            r.values,
            vec![Rewound {
                entry: StateEntry::Partition(0),
                state: None,
                before: Some("7".into()),
                after: Some("5".into())
            }]
        );
        assert_eq!(r.read_before, [(0, 7)].into());
        let again = Restored::between(&source(6), &source(5), Some(&r), None, 2000);
        assert_eq!(
            again.read_before,
            [(0, 7)].into(),
            "the highest read so far"
        );

        let keyed = |even: i64, odd: i64| OpState::Keyed {
            values: [(KeyId(0), even), (KeyId(1), odd)].into(),
        };
        let r = Restored::between(&keyed(12, 9), &keyed(6, 9), None, Some(CheckpointId(1)), 0);
        assert_eq!(r.values.len(), 1);
        assert_eq!(r.values[0].entry, StateEntry::Key(KeyId(0)));
        assert_eq!(
            (r.values[0].before.as_deref(), r.values[0].after.as_deref()),
            (Some("12"), Some("6"))
        );
    }
}
