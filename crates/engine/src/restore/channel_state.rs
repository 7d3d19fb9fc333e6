//! Persisted in-flight records (unaligned checkpoints' channel state) back into
//! records of the new job: keys looked up in its key table, sources by uid.
//! Flink: the `InputChannelStateHandle` / `ResultSubpartitionStateHandle` data a
//! restored task replays.

use super::error::RestoreError;
use super::metadata::PersistedRecord;
use crate::record::{KeyTable, Origin, Record};
use crate::scenario::Job;
use std::collections::BTreeMap;

/// The records of one subtask's persisted channels, by channel.
pub(super) fn restore_records<C: Ord + Copy>(
    uid: &str,
    stored: &BTreeMap<C, Vec<PersistedRecord>>,
    new_job: &Job,
    keys: &KeyTable,
) -> Result<BTreeMap<C, Vec<Record>>, RestoreError> {
    let mut out = BTreeMap::new();
    for (c, recs) in stored {
        let mut v = Vec::with_capacity(recs.len());
        for r in recs {
            let key = match &r.key {
                Some(k) => match keys.get(k) {
                    Some(id) => Some(id),
                    None => {
                        return Err(RestoreError::UnknownKey {
                            uid: uid.to_string(),
                            key: k.clone(),
                        })
                    }
                },
                None => None,
            };
            // A source that left the job keeps an out-of-range index: the origin is
            // only ever displayed.
            let source = new_job
                .operator_index(&r.source)
                .and_then(|i| u16::try_from(i).ok())
                .unwrap_or(u16::MAX);
            v.push(Record {
                key,
                value: r.value,
                origin: Origin {
                    source,
                    partition: r.partition,
                    offset: r.offset,
                },
            });
        }
        out.insert(*c, v);
    }
    Ok(out)
}
