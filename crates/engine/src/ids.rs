//! Identifier newtypes, so a checkpoint id is never mistaken for a channel index,
//! and [`IdVec`], a table indexed by its own id type.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A checkpoint or savepoint id. Flink: `CheckpointIDCounter` starts at 1, ids are
/// shared by checkpoints and savepoints and never reset on failover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CheckpointId(pub u64);

impl fmt::Display for CheckpointId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Index of an input channel of one subtask. Channels are numbered from 0, first by
/// the order of the `edges` entries that end at the operator, then by upstream
/// subtask index (contract: scenario-format.md, Determinism).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ChannelIndex(pub u32);

impl fmt::Display for ChannelIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Index of a subtask in the [`crate::World`]'s task table (operators in scenario
/// order, then subtask index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TaskId(pub u32);

/// Index of a network channel in the [`crate::World`]'s channel table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ChannelId(pub u32);

/// An id that is a position in a table ([`IdVec`]). Implemented by the ids the
/// [`crate::World`] indexes with, so converting an id to a position happens here
/// and nowhere else.
pub trait Idx: Copy {
    /// The position this id stands for.
    fn index(self) -> usize;
    /// The id of position `i`.
    fn from_index(i: usize) -> Self;
}

macro_rules! idx_u32 {
    ($($id:ident),*) => {$(
        impl Idx for $id {
            #[inline]
            fn index(self) -> usize {
                self.0 as usize
            }
            #[inline]
            fn from_index(i: usize) -> Self {
                debug_assert!(i <= u32::MAX as usize, "{} {i} does not fit u32", stringify!($id));
                $id(i as u32)
            }
        }
    )*};
}
idx_u32!(TaskId, ChannelId, ChannelIndex);

/// A `Vec` indexed by its own id type: `tasks[task_id]`, `channels[channel_id]`, so a
/// channel id can never index the task table. Serialized as the plain list.
/// (stateright's `DenseNatMap`.) Flink: no counterpart (Java indexes plain arrays).
#[derive(Clone, PartialEq, Eq)]
pub struct IdVec<I, T> {
    items: Vec<T>,
    _id: PhantomData<fn(I) -> I>,
}

impl<I: Idx, T> IdVec<I, T> {
    /// An empty table.
    pub fn new() -> Self {
        IdVec {
            items: Vec::new(),
            _id: PhantomData,
        }
    }

    /// Appends `item` and returns its id.
    pub fn push(&mut self, item: T) -> I {
        let id = I::from_index(self.items.len());
        self.items.push(item);
        id
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// No entries.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The entry of `id`, if in range.
    pub fn get(&self, id: I) -> Option<&T> {
        self.items.get(id.index())
    }

    /// Every id, in order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator {
        (0..self.items.len()).map(I::from_index)
    }

    /// Entries in id order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    /// Entries in id order, mutably.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.items.iter_mut()
    }

    /// `(id, entry)` in id order.
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + '_ {
        self.items
            .iter()
            .enumerate()
            .map(|(i, t)| (I::from_index(i), t))
    }

    /// The entries as a slice (positions are the ids' [`Idx::index`]).
    pub fn as_slice(&self) -> &[T] {
        &self.items
    }
}

impl<I: Idx, T> Default for IdVec<I, T> {
    fn default() -> Self {
        IdVec::new()
    }
}

impl<I: Idx, T> From<Vec<T>> for IdVec<I, T> {
    fn from(items: Vec<T>) -> Self {
        IdVec {
            items,
            _id: PhantomData,
        }
    }
}

impl<I: Idx, T> FromIterator<T> for IdVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(iter: It) -> Self {
        Vec::from_iter(iter).into()
    }
}

impl<I: Idx, T> Index<I> for IdVec<I, T> {
    type Output = T;
    #[inline]
    fn index(&self, id: I) -> &T {
        &self.items[id.index()]
    }
}

impl<I: Idx, T> IndexMut<I> for IdVec<I, T> {
    #[inline]
    fn index_mut(&mut self, id: I) -> &mut T {
        &mut self.items[id.index()]
    }
}

impl<'a, I: Idx, T> IntoIterator for &'a IdVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<'a, I: Idx, T> IntoIterator for &'a mut IdVec<I, T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter_mut()
    }
}

impl<I, T: fmt::Debug> fmt::Debug for IdVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.items.fmt(f)
    }
}

impl<I, T: Serialize> Serialize for IdVec<I, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.items.serialize(s)
    }
}

impl<'de, I, T: Deserialize<'de>> Deserialize<'de> for IdVec<I, T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(IdVec {
            items: Vec::deserialize(d)?,
            _id: PhantomData,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_index_their_own_table() {
        let mut t: IdVec<TaskId, &str> = IdVec::new();
        let a = t.push("a");
        let b = t.push("b");
        assert_eq!((a, b), (TaskId(0), TaskId(1)));
        assert_eq!(t[b], "b");
        t[a] = "A";
        assert_eq!(t.ids().collect::<Vec<_>>(), vec![TaskId(0), TaskId(1)]);
        assert_eq!(
            t.iter_enumerated().collect::<Vec<_>>(),
            vec![(TaskId(0), &"A"), (TaskId(1), &"b")]
        );
        assert_eq!(t.get(TaskId(2)), None);
    }

    /// The JSON of a table is its list, as the `Vec` it replaces.
    #[test]
    fn serializes_as_a_plain_list() {
        let t: IdVec<ChannelId, u32> = vec![3, 4].into();
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(json, "[3,4]");
        let back: IdVec<ChannelId, u32> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, t);
    }
}
