//! Incremental checkpoints of the `rocksdb` backend in the contract's file model,
//! and the registry that decides when a shared file is deleted.
//!
//! Flink: `RocksIncrementalSnapshotStrategy` (per subtask: the SST files of the last
//! completed checkpoint are referenced, new ones uploaded to `shared/`),
//! `SharedStateRegistryImpl` (per shared file: the checkpoint that created it and the
//! last checkpoint that used it; `unregisterUnusedState(lowestRetainedCheckpointId)`
//! deletes every file whose last user is older than the oldest retained checkpoint),
//! docs/flink-semantics.md §7.
//!
//! # The file model (contract: Sizes)
//! A subtask's keyed state is a set of *entries*: one per (state name, key), and
//! for a `MapState` one per (state name, key, map key), as RocksDB stores them. At a
//! checkpoint, the entries that differ from the subtask's last completed checkpoint
//! (its *base*) form one new shared file, `shared/<subtask>-<checkpoint>`, uploaded
//! once; the unchanged entries are referenced where they already are. The checkpoint
//! refers to every shared file that holds the current version of one of its entries.
//! Operator and channel state go into the checkpoint's private (exclusive) file
//! `chk-<n>/<subtask>`, uploaded every time.
//!
//! Simplified: RocksDB without compaction would keep every SST file forever; the lab
//! lets a checkpoint refer only to files still holding a current entry — as if
//! compaction dropped files whose every entry was overwritten or deleted — so files
//! do fall out of use and the registry's deletion can be watched. File names are
//! readable (`shared/sum#0-3`) where Flink's are UUIDs. Savepoints are full and
//! self-contained (canonical format): they neither upload nor reference shared
//! files. After a restore, the restored checkpoint's files are the base (Flink:
//! `RocksIncrementalRestoreOperation` registers the restored SST files), unless the
//! subtask has no record of them (a rescaled or savepoint restore): then its first
//! checkpoint uploads everything.

use super::keyed::StoredValue;
use super::ttl::TtlValue;
use crate::ids::{CheckpointId, TaskId};
use crate::record::{KeyId, KeyTable};
use crate::snapshot::{CompletedCheckpoint, OperatorSnapshot, KEYED_ENTRY_BYTES, VALUE_STATE};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One keyed entry as RocksDB stores it: state name, key and, for a `MapState`,
/// the user key (each map entry is its own key-value pair; a list is one value).
pub type EntryId = (String, KeyId, Option<i64>);

/// Where each entry lives: its value and the shared file holding it.
pub type Placement = BTreeMap<EntryId, (StoredValue, String)>;

/// A [`Placement`] in JSON: a list of `[entry, [value, file]]` (its keys are tuples,
/// which JSON objects cannot have).
mod placement_serde {
    use super::{EntryId, Placement, StoredValue};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(p: &Placement, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(p.iter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Placement, D::Error> {
        let v: Vec<(EntryId, (StoredValue, String))> = Vec::deserialize(d)?;
        Ok(v.into_iter().collect())
    }
}

/// The keyed entries of an operator snapshot (`keyed_count` / `keyed_sum`'s value
/// state under [`VALUE_STATE`]; every named state, a map split into one entry per
/// user key, each a one-entry map). Empty for other state.
pub fn keyed_entries(state: &OperatorSnapshot) -> BTreeMap<EntryId, StoredValue> {
    let mut out = BTreeMap::new();
    match state {
        OperatorSnapshot::Keyed { entries } => {
            for (k, v) in entries {
                out.insert(
                    (VALUE_STATE.to_string(), *k, None),
                    StoredValue::Value(TtlValue::new(*v, 0)),
                );
            }
        }
        OperatorSnapshot::KeyedStates { states } => {
            for (name, entries) in states {
                for (k, v) in entries {
                    match v {
                        StoredValue::Map(m) => {
                            for (uk, uv) in m {
                                out.insert(
                                    (name.clone(), *k, Some(*uk)),
                                    StoredValue::Map(BTreeMap::from([(*uk, *uv)])),
                                );
                            }
                        }
                        other => {
                            out.insert((name.clone(), *k, None), other.clone());
                        }
                    }
                }
            }
        }
        _ => {}
    }
    out
}

/// Bytes of one entry in the contract's model: each unit (value, list element, map
/// entry) is a keyed entry of 16 bytes plus the key's length.
pub fn entry_bytes(key: KeyId, v: &StoredValue, keys: &KeyTable) -> u64 {
    v.units() * (KEYED_ENTRY_BYTES + keys.len_bytes(Some(key)))
}

/// The name of the shared file subtask `task` uploads for checkpoint `id`.
pub fn shared_file_name(task: &str, id: CheckpointId) -> String {
    format!("shared/{task}-{}", id.0)
}

/// A shared file written by one incremental snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewSharedFile {
    /// Its path, `shared/<subtask>-<checkpoint>`.
    pub name: String,
    /// Entries it holds.
    pub entries: u64,
    /// Its size.
    pub bytes: u64,
}

/// What one subtask's incremental snapshot uploads and refers to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IncrementalUpload {
    /// The entries changed since the base, as one new file (none if nothing changed).
    pub new_file: Option<NewSharedFile>,
    /// Every shared file the snapshot needs, the new one included.
    pub referenced: BTreeSet<String>,
    /// Size of all keyed entries (what a full snapshot would write).
    pub keyed_bytes: u64,
    /// Where each entry lives; the subtask's base once the checkpoint completes.
    #[serde(with = "placement_serde")]
    pub placement: Placement,
}

impl IncrementalUpload {
    /// Keyed bytes this snapshot uploads (the new file's size).
    pub fn uploaded_bytes(&self) -> u64 {
        self.new_file.as_ref().map_or(0, |f| f.bytes)
    }
}

/// A subtask's base: where the entries of its last completed checkpoint live.
/// Flink: `RocksIncrementalSnapshotStrategy.uploadedSstFiles` of
/// `lastCompletedCheckpointId`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IncrementalBase {
    /// The checkpoint the base is, if any.
    pub checkpoint: Option<CheckpointId>,
    /// Its entries.
    #[serde(with = "placement_serde")]
    pub placement: Placement,
}

impl IncrementalBase {
    /// The incremental snapshot of `entries` for checkpoint `id` of subtask `task`:
    /// an entry equal to the base's stays in its file, every other one goes into the
    /// new file.
    pub fn snapshot(
        &self,
        task: &str,
        id: CheckpointId,
        entries: BTreeMap<EntryId, StoredValue>,
        keys: &KeyTable,
    ) -> IncrementalUpload {
        let name = shared_file_name(task, id);
        let (mut new_entries, mut new_bytes, mut keyed_bytes) = (0u64, 0u64, 0u64);
        let mut placement = Placement::new();
        for (e, v) in entries {
            let bytes = entry_bytes(e.1, &v, keys);
            keyed_bytes += bytes;
            let file = match self.placement.get(&e) {
                Some((old, file)) if *old == v => file.clone(),
                _ => {
                    new_entries += 1;
                    new_bytes += bytes;
                    name.clone()
                }
            };
            placement.insert(e, (v, file));
        }
        let new_file = (new_entries > 0).then_some(NewSharedFile {
            name,
            entries: new_entries,
            bytes: new_bytes,
        });
        let referenced = placement.values().map(|(_, f)| f.clone()).collect();
        IncrementalUpload {
            new_file,
            referenced,
            keyed_bytes,
            placement,
        }
    }
}

/// One registered shared file. Flink: `SharedStateRegistryImpl.SharedStateEntry`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedFile {
    /// The subtask that uploaded it.
    pub task: String,
    /// The checkpoint that uploaded it (`createdByCheckpointID`).
    pub created_by: CheckpointId,
    /// The newest checkpoint referring to it (`lastUsedCheckpointID`).
    pub last_used: CheckpointId,
    /// Entries it holds.
    pub entries: u64,
    /// Its size.
    pub bytes: u64,
}

/// The files one subtask's part of a checkpoint refers to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskFiles {
    /// Shared files (uploaded by this checkpoint or an earlier one).
    pub shared: BTreeSet<String>,
    /// Size of its private file `chk-<n>/<subtask>` (operator and channel state).
    pub private_bytes: u64,
    /// Where each entry lives (the base after a restore from this checkpoint).
    #[serde(with = "placement_serde")]
    placement: Placement,
}

/// A shared file the registry deleted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeletedFile {
    /// Its path.
    pub name: String,
    /// Its last user.
    pub last_used: CheckpointId,
    /// The oldest retained checkpoint when it was deleted.
    pub lowest_retained: CheckpointId,
}

/// How many deletions [`SharedStateRegistry::deleted`] remembers.
pub const DELETED_HISTORY: usize = 64;

/// The shared files of a job's incremental checkpoints. Flink:
/// `SharedStateRegistryImpl` — since Flink 1.15 no reference counts, but the last
/// checkpoint using each file (FLINK-24611).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedStateRegistry {
    /// Registered (not deleted) files by path.
    files: BTreeMap<String, SharedFile>,
    /// Per acknowledged checkpoint not yet older than the oldest retained one, per
    /// subtask: the files it refers to.
    checkpoints: BTreeMap<CheckpointId, BTreeMap<TaskId, TaskFiles>>,
    /// The last [`DELETED_HISTORY`] deletions, oldest first.
    deleted: Vec<DeletedFile>,
}

impl SharedStateRegistry {
    /// Register subtask `task`'s part of checkpoint `id` when it is acknowledged —
    /// even if the checkpoint is later aborted (Flink registers on
    /// acknowledgement): its new file is added, every file it refers to is marked
    /// as used by `id` (`SharedStateRegistryImpl.registerReference` advances
    /// `lastUsedCheckpointID`). `private_bytes` is the size of its private file.
    pub fn register(
        &mut self,
        id: CheckpointId,
        task: TaskId,
        task_name: &str,
        upload: &IncrementalUpload,
        private_bytes: u64,
    ) {
        if let Some(f) = &upload.new_file {
            self.files
                .entry(f.name.clone())
                .or_insert_with(|| SharedFile {
                    task: task_name.to_string(),
                    created_by: id,
                    last_used: id,
                    entries: f.entries,
                    bytes: f.bytes,
                });
        }
        for name in &upload.referenced {
            if let Some(f) = self.files.get_mut(name) {
                f.last_used = f.last_used.max(id);
            }
        }
        self.checkpoints.entry(id).or_default().insert(
            task,
            TaskFiles {
                shared: upload.referenced.clone(),
                private_bytes,
                placement: upload.placement.clone(),
            },
        );
    }

    /// Delete every file no checkpoint from `lowest_retained` on uses (`last_used <
    /// lowest_retained`), and forget the checkpoints older than it; returns the
    /// deleted paths. Flink: `SharedStateRegistryImpl.unregisterUnusedState`, called
    /// by the completed-checkpoint store after subsuming.
    pub fn unregister_unused_state(&mut self, lowest_retained: CheckpointId) -> Vec<String> {
        let gone: Vec<String> = self
            .files
            .iter()
            .filter(|(_, f)| f.last_used < lowest_retained)
            .map(|(n, _)| n.clone())
            .collect();
        for name in &gone {
            if let Some(f) = self.files.remove(name) {
                self.deleted.push(DeletedFile {
                    name: name.clone(),
                    last_used: f.last_used,
                    lowest_retained,
                });
            }
        }
        let excess = self.deleted.len().saturating_sub(DELETED_HISTORY);
        self.deleted.drain(..excess);
        self.checkpoints.retain(|id, _| *id >= lowest_retained);
        gone
    }

    /// The registered files by path.
    pub fn files(&self) -> &BTreeMap<String, SharedFile> {
        &self.files
    }

    /// The last deletions, oldest first.
    pub fn deleted(&self) -> &[DeletedFile] {
        &self.deleted
    }

    /// The files subtask `task`'s part of checkpoint `id` refers to, if recorded.
    pub fn task_files(&self, id: CheckpointId, task: TaskId) -> Option<&TaskFiles> {
        self.checkpoints.get(&id)?.get(&task)
    }

    /// The files of completed checkpoint `c` in checkpoint storage, subtask by
    /// subtask (`task_name` names a subtask): its private file `chk-N/<subtask>`
    /// (`savepoint-N/<subtask>` for a savepoint)
    /// (everything not in shared files; left out when empty) and, for an incremental
    /// rocksdb checkpoint, the shared files it refers to — uploaded by it or by an
    /// earlier checkpoint. The full size of the checkpoint is the sum; what it
    /// uploaded is its private files plus the shared files it created.
    pub fn storage_files(
        &self,
        c: &CompletedCheckpoint,
        task_name: impl Fn(TaskId) -> String,
    ) -> Vec<StorageFile> {
        let mut out = Vec::new();
        for (t, snap) in &c.tasks {
            let task = task_name(*t);
            let files = self.task_files(c.id, *t);
            let private = files.map_or(snap.state_bytes, |f| f.private_bytes);
            if private > 0 {
                // A savepoint is a directory of its own, self-contained (Flink:
                // `savepoint-<job id>-<random>`; the lab names it by its id).
                let dir = if c.kind.is_savepoint() {
                    "savepoint"
                } else {
                    "chk"
                };
                out.push(StorageFile {
                    path: format!("{dir}-{}/{task}", c.id.0),
                    task: task.clone(),
                    bytes: private,
                    shared: false,
                    created_by: c.id,
                });
            }
            for name in files.into_iter().flat_map(|f| f.shared.iter()) {
                if let Some(f) = self.files.get(name) {
                    out.push(StorageFile {
                        path: name.clone(),
                        task: task.clone(),
                        bytes: f.bytes,
                        shared: true,
                        created_by: f.created_by,
                    });
                }
            }
        }
        out
    }

    /// The base of subtask `task` restored from checkpoint `id`: where that
    /// checkpoint's entries live, or an empty base if it is not recorded.
    pub fn base_of(&self, id: CheckpointId, task: TaskId) -> IncrementalBase {
        match self.task_files(id, task) {
            Some(f) => IncrementalBase {
                checkpoint: Some(id),
                placement: f.placement.clone(),
            },
            None => IncrementalBase::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> KeyTable {
        let mut k = KeyTable::new();
        for n in ["a", "bb", "ccc"] {
            k.intern(n);
        }
        k
    }

    fn entries(vals: &[(u32, i64)]) -> BTreeMap<EntryId, StoredValue> {
        vals.iter()
            .map(|(k, v)| {
                (
                    ("value".to_string(), KeyId(*k), None),
                    StoredValue::Value(TtlValue::new(*v, 0)),
                )
            })
            .collect()
    }

    /// Mirrors RocksIncrementalSnapshotStrategy: unchanged entries are referenced in
    /// the base's file, changed and new ones uploaded in one new file.
    #[test]
    fn only_changed_entries_are_uploaded() {
        let keys = keys();
        let first = IncrementalBase::default().snapshot(
            "s#0",
            CheckpointId(1),
            entries(&[(0, 1), (1, 1), (2, 1)]),
            &keys,
        );
        assert_eq!(
            first.new_file,
            Some(NewSharedFile {
                name: "shared/s#0-1".into(),
                entries: 3,
                bytes: 17 + 18 + 19
            })
        );
        let base = IncrementalBase {
            checkpoint: Some(CheckpointId(1)),
            placement: first.placement,
        };
        let second = base.snapshot(
            "s#0",
            CheckpointId(2),
            entries(&[(0, 1), (1, 2), (2, 1)]),
            &keys,
        );
        assert_eq!(second.uploaded_bytes(), 18, "only bb changed");
        assert_eq!(second.keyed_bytes, 54);
        assert_eq!(
            second.referenced,
            BTreeSet::from(["shared/s#0-1".to_string(), "shared/s#0-2".to_string()])
        );
        let third = base.snapshot("s#0", CheckpointId(3), entries(&[(0, 1)]), &keys);
        assert_eq!(
            (third.new_file, third.referenced.len()),
            (None, 1),
            "a deletion uploads nothing"
        );
    }

    /// RocksDB keeps each map entry as its own key-value pair: one new entry in a
    /// big MapState uploads one entry, not the whole map.
    #[test]
    fn a_new_map_entry_uploads_that_entry_only() {
        let keys = keys();
        let map = |n: i64| {
            let m: BTreeMap<i64, TtlValue<i64>> =
                (0..n).map(|i| (i, TtlValue::new(i, 0))).collect();
            OperatorSnapshot::KeyedStates {
                states: BTreeMap::from([(
                    "seen".to_string(),
                    BTreeMap::from([(KeyId(0), StoredValue::Map(m))]),
                )]),
            }
        };
        let first = IncrementalBase::default().snapshot(
            "d#0",
            CheckpointId(1),
            keyed_entries(&map(10)),
            &keys,
        );
        assert_eq!((first.keyed_bytes, first.uploaded_bytes()), (170, 170));
        let base = IncrementalBase {
            checkpoint: Some(CheckpointId(1)),
            placement: first.placement,
        };
        let second = base.snapshot("d#0", CheckpointId(2), keyed_entries(&map(11)), &keys);
        assert_eq!((second.keyed_bytes, second.uploaded_bytes()), (187, 17));
    }

    /// Mirrors SharedStateRegistryImplTest#testUnregisterUnusedState: a file is
    /// deleted once the lowest retained checkpoint is newer than its last user.
    #[test]
    fn files_are_deleted_when_no_retained_checkpoint_uses_them() {
        let keys = keys();
        let mut reg = SharedStateRegistry::default();
        let up1 = IncrementalBase::default().snapshot(
            "s#0",
            CheckpointId(1),
            entries(&[(0, 1), (1, 1)]),
            &keys,
        );
        reg.register(CheckpointId(1), TaskId(0), "s#0", &up1, 0);
        let base = IncrementalBase {
            checkpoint: Some(CheckpointId(1)),
            placement: up1.placement,
        };
        let up2 = base.snapshot("s#0", CheckpointId(2), entries(&[(0, 2), (1, 1)]), &keys);
        reg.register(CheckpointId(2), TaskId(0), "s#0", &up2, 0);
        assert_eq!(
            reg.files()["shared/s#0-1"].last_used,
            CheckpointId(2),
            "still holds bb"
        );
        assert!(reg.unregister_unused_state(CheckpointId(2)).is_empty());
        let base = IncrementalBase {
            checkpoint: Some(CheckpointId(2)),
            placement: up2.placement,
        };
        let up3 = base.snapshot("s#0", CheckpointId(3), entries(&[(0, 2), (1, 3)]), &keys);
        reg.register(CheckpointId(3), TaskId(0), "s#0", &up3, 0);
        assert_eq!(
            reg.files()["shared/s#0-1"].last_used,
            CheckpointId(2),
            "no longer referenced by 3"
        );
        assert!(
            reg.unregister_unused_state(CheckpointId(2)).is_empty(),
            "checkpoint 2 still retained"
        );
        assert_eq!(
            reg.unregister_unused_state(CheckpointId(3)),
            vec!["shared/s#0-1".to_string()]
        );
        assert_eq!(
            reg.files().keys().cloned().collect::<Vec<_>>(),
            vec!["shared/s#0-2", "shared/s#0-3"]
        );
        assert_eq!(reg.deleted()[0].lowest_retained, CheckpointId(3));
        assert!(
            reg.task_files(CheckpointId(2), TaskId(0)).is_none(),
            "forgotten once older than the oldest retained"
        );
        assert_eq!(reg.base_of(CheckpointId(3), TaskId(0)).placement.len(), 2);
    }
}

/// One file of a completed checkpoint in checkpoint storage, as the storage tree
/// shows it. Flink: `FileSystemCheckpointStorage`'s layout — exclusive files under
/// `chk-<n>/`, incremental SST files under `shared/`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StorageFile {
    /// `chk-<n>/<subtask>` (private) or `shared/<subtask>-<checkpoint>`.
    pub path: String,
    /// The subtask whose state it holds.
    pub task: String,
    /// Its size.
    pub bytes: u64,
    /// A shared file (possibly uploaded by an earlier checkpoint).
    pub shared: bool,
    /// The checkpoint that uploaded it.
    pub created_by: CheckpointId,
}
