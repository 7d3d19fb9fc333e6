//! Data records and the interned key table.

use crate::ids::{IdVec, Idx};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Index of a key in the [`KeyTable`]. Records carry this instead of a string so
/// that they are `Copy` and a key's hash is computed once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct KeyId(pub u32);

impl Idx for KeyId {
    #[inline]
    fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    fn from_index(i: usize) -> Self {
        KeyId(i as u32)
    }
}

/// Where a record came from: its source operator, partition and offset. Derived
/// records keep the origin of the record that caused them, so the page can point at
/// a duplicate and say which input it replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Origin {
    /// Index of the source operator in the job's operator list.
    pub source: u16,
    /// Partition of that source.
    pub partition: u16,
    /// Offset in the partition.
    pub offset: u32,
}

/// A data record. Flink: a `StreamRecord` (no timestamp: the lab has no event time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The record's key, if it has one (`hash` partitioning and keyed operators need it).
    pub key: Option<KeyId>,
    /// The record's value.
    pub value: i64,
    /// The input record this one derives from.
    pub origin: Origin,
}

/// Every key the simulation can meet, interned once when the [`crate::World`] is
/// built (source data and the keys operators produce), with its hash.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KeyTable {
    /// Each key's text, by id (ids are handed out in interning order).
    names: IdVec<KeyId, Arc<str>>,
    /// Each key's `murmurHash(key.hashCode())`, computed once when interned: its key
    /// group for a max parallelism `m` is this `% m` (operators may differ in `m`).
    hashes: IdVec<KeyId, u32>,
    /// The id of each text (interning looks keys up by text).
    index: BTreeMap<Arc<str>, KeyId>,
}

impl KeyTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of `name`, adding it if new.
    pub fn intern(&mut self, name: &str) -> KeyId {
        if let Some(id) = self.index.get(name) {
            return *id;
        }
        let name: Arc<str> = Arc::from(name);
        let id = self.names.push(name.clone());
        let hash = crate::keygroup::murmur_hash(crate::keygroup::java_string_hash_code(&name));
        self.hashes.push(hash as u32);
        self.index.insert(name, id);
        id
    }

    /// The id of an already interned key.
    pub fn get(&self, name: &str) -> Option<KeyId> {
        self.index.get(name).copied()
    }

    /// The key's text.
    pub fn name(&self, id: KeyId) -> &Arc<str> {
        &self.names[id]
    }

    /// The key's key group among `max_parallelism` key groups (Flink:
    /// `KeyGroupRangeAssignment.assignToKeyGroup`).
    #[inline]
    pub fn key_group(&self, id: KeyId, max_parallelism: u32) -> u32 {
        debug_assert!(max_parallelism >= 1);
        self.hashes[id] % max_parallelism
    }

    /// How many keys are interned (ids are `0..count`).
    pub fn count(&self) -> usize {
        self.names.len()
    }

    /// Size of the key in the contract's byte model (its UTF-8 length).
    pub fn len_bytes(&self, id: Option<KeyId>) -> u64 {
        id.map_or(0, |k| self.names[k].len() as u64)
    }
}
