//! Keyed state after a restore: every key goes to the new subtask whose key-group
//! range holds the key's key group. Flink: `StateAssignmentOperation.reDistributeKeyedStates`,
//! `KeyGroupRangeAssignment`.

use super::error::{corrupt, RestoreError};
use super::metadata::OperatorState;
use super::subtask_restore::SubtaskRestore;
use crate::keygroup;
use crate::record::KeyTable;
use std::collections::{BTreeMap, BTreeSet};

/// `StateAssignmentOperation.reDistributeKeyedStates`: new subtask `i` gets exactly
/// the keys whose key group lies in its range.
pub(super) fn redistribute_keyed_state(
    uid: &str,
    old: &OperatorState,
    max_p: u32,
    new_p: u32,
    keys: &KeyTable,
    out: &mut [SubtaskRestore],
) -> Result<(), RestoreError> {
    let mut names: BTreeSet<&str> = BTreeSet::new();
    for s in &old.subtasks {
        names.extend(s.keyed.keys().map(String::as_str));
    }
    for r in out.iter_mut() {
        for name in &names {
            r.keyed.insert(name.to_string(), BTreeMap::new());
        }
    }
    for s in &old.subtasks {
        for (name, entries) in &s.keyed {
            for (key, entry) in entries {
                let Some(id) = keys.get(key) else {
                    return Err(RestoreError::UnknownKey {
                        uid: uid.to_string(),
                        key: key.clone(),
                    });
                };
                let computed = keys.key_group(id, max_p);
                if entry.key_group != computed || computed >= max_p {
                    return Err(RestoreError::KeyGroupMismatch {
                        uid: uid.to_string(),
                        key: key.clone(),
                        stored: entry.key_group,
                        computed,
                    });
                }
                let target = keygroup::operator_index_for_key_group(max_p, new_p, computed);
                let Some(r) = out.get_mut(target as usize) else {
                    return Err(corrupt(
                        uid,
                        format!("key group {computed} maps to no subtask"),
                    ));
                };
                let map = r.keyed.entry(name.clone()).or_default();
                if map.insert(id, entry.value.clone()).is_some() {
                    return Err(corrupt(
                        uid,
                        format!("key \"{key}\" of keyed state \"{name}\" is held by more than one subtask"),
                    ));
                }
            }
        }
    }
    Ok(())
}
