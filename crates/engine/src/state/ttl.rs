//! State time-to-live. Flink: `StateTtlConfig` (flink-core), `TtlUtils`, `TtlValue`
//! (flink-runtime `state/ttl`); docs/flink-semantics.md §6.2.
//!
//! A state with TTL stores, next to each value (each list element, each map entry),
//! the time it was last written — or read, with [`UpdateType::OnReadAndWrite`]. The
//! value is expired once `last_access_at + ttl_ms <= now`. Expired values are
//! removed when they are accessed (always, as in Flink), and additionally by the
//! configured [`CleanupStrategies`]: filtered out of full snapshots, or a few
//! entries checked on every state access (or every record).

use serde::{Deserialize, Serialize};

/// When the last-access timestamp is refreshed. Flink: `StateTtlConfig.UpdateType`
/// (`Disabled` is not modelled: a state without TTL has no `ttl`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UpdateType {
    /// Only writes (update, add, put) refresh the timestamp. Flink's default.
    #[default]
    OnCreateAndWrite,
    /// Writes and successful (unexpired) reads refresh it.
    OnReadAndWrite,
}

/// Whether an expired value that is still stored may be returned.
/// Flink: `StateTtlConfig.StateVisibility`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StateVisibility {
    /// An expired value is never returned. Flink's default.
    #[default]
    NeverReturnExpired,
    /// An expired value still stored is returned by the read that removes it.
    ReturnExpiredIfNotCleanedUp,
}

/// Incremental cleanup: every state access (and, optionally, every record) checks
/// the next `cleanup_size` entries of the state and removes the expired ones.
/// Flink: `StateTtlConfig.IncrementalCleanupStrategy`, `TtlIncrementalCleanup`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IncrementalCleanup {
    /// Entries (keys) checked per trigger. Flink's default: 5.
    #[serde(default = "default_cleanup_size")]
    pub cleanup_size: u32,
    /// Also trigger on every record the operator processes (Flink: a key-selection
    /// listener on the keyed backend). Default false.
    #[serde(default)]
    pub run_for_every_record: bool,
}

fn default_cleanup_size() -> u32 {
    5
}

/// Cleanup strategies besides the cleanup on read, which is always on.
/// Flink: `StateTtlConfig.CleanupStrategies`.
///
/// Flink (1.10+) cleans up in the background unless told not to
/// (`disableCleanupInBackground`): on the heap backend that is incremental cleanup of
/// 5 entries per access ([`IncrementalCleanup`]'s defaults), on RocksDB its
/// compaction filter. The lab's default is no background cleanup, so that each
/// strategy can be watched on its own; `in_background: true` asks for Flink's.
/// Simplified: the lab has no RocksDB compaction, so background cleanup is the
/// incremental one on both backends — and an incremental cleanup, asked for or in the
/// background, runs on both, where Flink's RocksDB state has no iterator for it and
/// skips it (`TtlStateFactory.isStateIteratorSupported`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CleanupStrategies {
    /// Expired values are left out of full snapshots (they stay in the live state).
    /// Flink: `cleanupFullSnapshot`, applied by `TtlStateSnapshotTransformer`; not
    /// applicable to incremental RocksDB checkpoints, and not applied there.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub full_snapshot: bool,
    /// Incremental cleanup on access. Flink: `cleanupIncrementally`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incremental: Option<IncrementalCleanup>,
    /// Flink's background cleanup (its default; the lab's default is off): an
    /// incremental cleanup with Flink's defaults when `incremental` does not give one.
    /// Flink: `StateTtlConfig.Builder`'s `isCleanupInBackground` (on unless
    /// `disableCleanupInBackground`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_background: bool,
}

impl CleanupStrategies {
    /// The incremental cleanup that runs: the one asked for, else Flink's default
    /// (5 entries per access) when cleaning up in the background. Flink:
    /// `CleanupStrategies.getIncrementalCleanupStrategy`.
    pub fn incremental_strategy(&self) -> Option<IncrementalCleanup> {
        self.incremental
            .or(self.in_background.then_some(IncrementalCleanup {
                cleanup_size: default_cleanup_size(),
                run_for_every_record: false,
            }))
    }
}

/// Time-to-live of one state descriptor. Flink: `StateTtlConfig` (processing time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TtlConfig {
    /// How long a value lives after its last refresh, at least 1.
    pub ttl_ms: u64,
    /// Which accesses refresh the timestamp.
    #[serde(default)]
    pub update_type: UpdateType,
    /// Whether expired values may be returned.
    #[serde(default)]
    pub visibility: StateVisibility,
    /// Cleanup strategies besides cleanup on read.
    #[serde(default)]
    pub cleanup: CleanupStrategies,
}

impl TtlConfig {
    /// A TTL of `ttl_ms` with Flink's defaults (`OnCreateAndWrite`,
    /// `NeverReturnExpired`) and the lab's: no background cleanup. Flink:
    /// `StateTtlConfig.newBuilder(ttl).disableCleanupInBackground().build()`.
    pub fn new(ttl_ms: u64) -> TtlConfig {
        TtlConfig {
            ttl_ms,
            update_type: UpdateType::default(),
            visibility: StateVisibility::default(),
            cleanup: CleanupStrategies::default(),
        }
    }

    /// Whether a successful read refreshes the timestamp.
    pub fn update_on_read(&self) -> bool {
        self.update_type == UpdateType::OnReadAndWrite
    }

    /// Whether an expired value is returned by the read that removes it.
    pub fn return_expired(&self) -> bool {
        self.visibility == StateVisibility::ReturnExpiredIfNotCleanedUp
    }

    /// Whether a value last refreshed at `last_access_at` has expired at `now`.
    pub fn is_expired(&self, last_access_at: u64, now: u64) -> bool {
        expired(last_access_at, self.ttl_ms, now)
    }
}

/// Flink: `TtlUtils.expired` — `getExpirationTimestamp(ts, ttl) <= now`, the
/// expiration time saturating instead of overflowing.
pub fn expired(last_access_at: u64, ttl_ms: u64, now: u64) -> bool {
    last_access_at.saturating_add(ttl_ms) <= now
}

/// A stored value with the time it was last refreshed. Flink: `TtlValue`
/// (`userValue`, `lastAccessTimestamp`). States without TTL carry the time too; it
/// is then 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TtlValue<T> {
    /// The user value.
    pub value: T,
    /// Simulated time of the last write (or refreshing read).
    pub last_access_at: u64,
}

impl<T> TtlValue<T> {
    /// `value` written at `now`.
    pub fn new(value: T, now: u64) -> Self {
        TtlValue {
            value,
            last_access_at: now,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mirrors Flink's TtlUtils.expired: expired exactly at ts + ttl, never overflowing.
    #[test]
    fn expiry_is_inclusive_and_saturating() {
        assert!(!expired(100, 50, 149));
        assert!(expired(100, 50, 150));
        assert!(!expired(u64::MAX - 1, 10, u64::MAX - 1));
        assert!(expired(u64::MAX - 1, 10, u64::MAX));
    }

    /// Mirrors Flink's StateTtlConfig.CleanupStrategies.getIncrementalCleanupStrategy:
    /// in the background, the default incremental cleanup (5 entries, not for every
    /// record) unless one is given; without background cleanup, only the one given.
    #[test]
    fn background_cleanup_is_the_default_incremental_one() {
        let given = IncrementalCleanup {
            cleanup_size: 2,
            run_for_every_record: true,
        };
        let background: CleanupStrategies =
            serde_json::from_str(r#"{"in_background": true}"#).unwrap();
        assert_eq!(
            background.incremental_strategy(),
            Some(IncrementalCleanup {
                cleanup_size: 5,
                run_for_every_record: false
            })
        );
        let both = CleanupStrategies {
            incremental: Some(given),
            ..background
        };
        assert_eq!(both.incremental_strategy(), Some(given));
        assert_eq!(CleanupStrategies::default().incremental_strategy(), None);
    }

    /// StateTtlConfig's defaults: OnCreateAndWrite, NeverReturnExpired.
    #[test]
    fn defaults_are_flinks() {
        let c: TtlConfig = serde_json::from_str(r#"{"ttl_ms": 10}"#).unwrap();
        assert_eq!(c, TtlConfig::new(10));
        assert!(!c.update_on_read() && !c.return_expired());
        let i: IncrementalCleanup = serde_json::from_str("{}").unwrap();
        assert_eq!(
            i,
            IncrementalCleanup {
                cleanup_size: 5,
                run_for_every_record: false
            }
        );
    }
}
