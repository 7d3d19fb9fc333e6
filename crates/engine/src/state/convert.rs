//! Keyed state values in and out of a savepoint's task-independent form
//! ([`crate::snapshot::StateValue`]). Flink: the state's `TypeSerializer` — with TTL
//! the `TtlSerializer`, which writes each value together with its last-access
//! timestamp, so TTL survives a restore.

use super::keyed::StoredValue;
use super::ttl::TtlValue;
use crate::snapshot::StateValue;
use std::collections::BTreeMap;

fn unit(v: &TtlValue<i64>, ttl: bool) -> StateValue {
    if ttl {
        StateValue::Ttl {
            value: Box::new(StateValue::Int(v.value)),
            last_access_ms: v.last_access_at,
        }
    } else {
        StateValue::Int(v.value)
    }
}

fn read_unit(v: &StateValue) -> Option<TtlValue<i64>> {
    match v {
        StateValue::Int(n) => Some(TtlValue::new(*n, 0)),
        StateValue::Ttl {
            value,
            last_access_ms,
        } => match **value {
            StateValue::Int(n) => Some(TtlValue::new(n, *last_access_ms)),
            _ => None,
        },
        _ => None,
    }
}

impl StoredValue {
    /// The savepoint form of this value: `Int`, `Accumulator`, `List`, `Map`; with
    /// `ttl`, each TTL unit (the value, each element, each entry) wrapped in
    /// [`StateValue::Ttl`] with its timestamp.
    pub fn to_state_value(&self, ttl: bool) -> StateValue {
        match self {
            StoredValue::Value(v) => unit(v, ttl),
            StoredValue::Accumulator(v) => {
                let acc = StateValue::Accumulator {
                    sum: v.value.0,
                    count: v.value.1,
                };
                if ttl {
                    StateValue::Ttl {
                        value: Box::new(acc),
                        last_access_ms: v.last_access_at,
                    }
                } else {
                    acc
                }
            }
            StoredValue::List(l) => StateValue::List(l.iter().map(|v| unit(v, ttl)).collect()),
            StoredValue::Map(m) => {
                StateValue::Map(m.iter().map(|(k, v)| (*k, unit(v, ttl))).collect())
            }
        }
    }

    /// Read a savepoint value back; `None` when it is not a keyed value of the
    /// state model (an offset, a transaction) or an empty list or map.
    ///
    /// Simplified: a value stored without a timestamp counts as written at time 0
    /// (Flink refuses to restore non-TTL state into a TTL descriptor with a
    /// `StateMigrationException`).
    pub fn from_state_value(v: &StateValue) -> Option<StoredValue> {
        match v {
            StateValue::Int(_) => read_unit(v).map(StoredValue::Value),
            StateValue::Accumulator { sum, count } => {
                Some(StoredValue::Accumulator(TtlValue::new((*sum, *count), 0)))
            }
            StateValue::Ttl {
                value,
                last_access_ms,
            } => match &**value {
                StateValue::Int(n) => Some(StoredValue::Value(TtlValue::new(*n, *last_access_ms))),
                StateValue::Accumulator { sum, count } => Some(StoredValue::Accumulator(
                    TtlValue::new((*sum, *count), *last_access_ms),
                )),
                _ => None,
            },
            StateValue::List(l) => {
                let l: Option<Vec<_>> = l.iter().map(read_unit).collect();
                l.filter(|l| !l.is_empty()).map(StoredValue::List)
            }
            StateValue::Map(m) => {
                let m: Option<BTreeMap<_, _>> =
                    m.iter().map(|(k, v)| Some((*k, read_unit(v)?))).collect();
                m.filter(|m| !m.is_empty()).map(StoredValue::Map)
            }
            _ => None,
        }
    }

    /// What the inspector and `_metadata` show: a number, a list, a map
    /// (`{"3": 30}`), or `{"sum": s, "count": c}` for an accumulator; without
    /// timestamps.
    pub fn display(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            StoredValue::Value(v) => json!(v.value),
            StoredValue::Accumulator(v) => json!({"sum": v.value.0, "count": v.value.1}),
            StoredValue::List(l) => json!(l.iter().map(|v| v.value).collect::<Vec<_>>()),
            StoredValue::Map(m) => json!(m
                .iter()
                .map(|(k, v)| (k.to_string(), v.value))
                .collect::<BTreeMap<_, _>>()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_and_without_ttl() {
        let values = [
            StoredValue::Value(TtlValue::new(5, 40)),
            StoredValue::Accumulator(TtlValue::new((9, 2), 41)),
            StoredValue::List(vec![TtlValue::new(1, 1), TtlValue::new(2, 2)]),
            StoredValue::Map(BTreeMap::from([
                (3, TtlValue::new(30, 3)),
                (-4, TtlValue::new(40, 4)),
            ])),
        ];
        for v in &values {
            assert_eq!(
                StoredValue::from_state_value(&v.to_state_value(true)).as_ref(),
                Some(v),
                "{v:?}"
            );
            let plain = StoredValue::from_state_value(&v.to_state_value(false)).unwrap();
            assert_eq!(
                plain.display(),
                v.display(),
                "without TTL only the timestamps are lost"
            );
        }
        let json = serde_json::to_string(&values[3].to_state_value(true)).unwrap();
        let back: StateValue = serde_json::from_str(&json).unwrap();
        assert_eq!(
            StoredValue::from_state_value(&back).as_ref(),
            Some(&values[3]),
            "{json}"
        );
        assert_eq!(
            StoredValue::from_state_value(&StateValue::Offset {
                partition: 0,
                offset: 1
            }),
            None
        );
        assert_eq!(
            StoredValue::from_state_value(&StateValue::List(vec![])),
            None
        );
    }
}
