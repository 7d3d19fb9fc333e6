//! State descriptors: what an operator registers to get a keyed state. Flink:
//! `StateDescriptor` and `ValueStateDescriptor`, `ListStateDescriptor`,
//! `ReducingStateDescriptor`, `AggregatingStateDescriptor`, `MapStateDescriptor`.

use super::ttl::TtlConfig;
use serde::{Deserialize, Serialize};

/// A reduce function over `i64` values. Flink: `ReduceFunction<Long>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReduceFn {
    /// `a + b` (wrapping).
    Sum,
    /// `max(a, b)`.
    Max,
    /// `min(a, b)`.
    Min,
}

impl ReduceFn {
    /// Flink: `ReduceFunction.reduce(value1, value2)`, `value1` the stored value.
    pub fn reduce(self, a: i64, b: i64) -> i64 {
        match self {
            ReduceFn::Sum => a.wrapping_add(b),
            ReduceFn::Max => a.max(b),
            ReduceFn::Min => a.min(b),
        }
    }

    /// The contract's spelling, for messages.
    pub fn as_str(self) -> &'static str {
        match self {
            ReduceFn::Sum => "sum",
            ReduceFn::Max => "max",
            ReduceFn::Min => "min",
        }
    }
}

/// An aggregate function whose input type differs from its output type.
/// Flink: `AggregateFunction<IN, ACC, OUT>` (`createAccumulator`, `add`, `getResult`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AggregateFn {
    /// IN = `i64`, ACC = `(sum, count)`, OUT = `sum / count` (integer division
    /// toward zero: the engine uses no floating point).
    Average,
}

impl AggregateFn {
    /// Flink: `AggregateFunction.createAccumulator`.
    pub fn create_accumulator(self) -> (i64, i64) {
        (0, 0)
    }

    /// Flink: `AggregateFunction.add(value, accumulator)`.
    pub fn add(self, value: i64, acc: (i64, i64)) -> (i64, i64) {
        (acc.0.wrapping_add(value), acc.1.wrapping_add(1))
    }

    /// Flink: `AggregateFunction.getResult(accumulator)`.
    pub fn get_result(self, acc: (i64, i64)) -> i64 {
        if acc.1 == 0 {
            0
        } else {
            acc.0.wrapping_div(acc.1)
        }
    }
}

/// The type of a keyed state, with its function where it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StateKind {
    /// `ValueState<Long>`: `value` / `update` / `clear`.
    Value,
    /// `ListState<Long>`: `add` / `add_all` / `get` / `update` / `clear`.
    List,
    /// `ReducingState<Long>`: `add` folds with the function, `get` returns one value.
    Reducing(ReduceFn),
    /// `AggregatingState<Long, Long>`: `add` folds into the accumulator, `get`
    /// returns the result.
    Aggregating(AggregateFn),
    /// `MapState<Long, Long>`: `put` / `get` / `contains` / `entries` / `keys` /
    /// `values` / `remove` / `clear`.
    Map,
}

impl StateKind {
    /// Flink's interface name, for messages.
    pub fn as_str(self) -> &'static str {
        match self {
            StateKind::Value => "ValueState",
            StateKind::List => "ListState",
            StateKind::Reducing(_) => "ReducingState",
            StateKind::Aggregating(_) => "AggregatingState",
            StateKind::Map => "MapState",
        }
    }
}

/// A named keyed state with its type and optional time-to-live.
/// Flink: `StateDescriptor` (name, type, `enableTimeToLive(StateTtlConfig)`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StateDescriptor {
    /// Unique within the operator: the name the state is checkpointed under.
    pub name: String,
    /// The state's type.
    pub kind: StateKind,
    /// Time-to-live, if enabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl: Option<TtlConfig>,
}

impl StateDescriptor {
    /// A descriptor without TTL.
    pub fn new(name: impl Into<String>, kind: StateKind) -> Self {
        StateDescriptor {
            name: name.into(),
            kind,
            ttl: None,
        }
    }

    /// The same descriptor with `ttl` enabled. Flink: `enableTimeToLive`.
    pub fn with_ttl(mut self, ttl: Option<TtlConfig>) -> Self {
        self.ttl = ttl;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// AggregateFunction: IN (a value) differs from OUT (an average) through ACC.
    #[test]
    fn average_goes_through_a_sum_and_count_accumulator() {
        let f = AggregateFn::Average;
        let acc = [4, 6, 11]
            .iter()
            .fold(f.create_accumulator(), |a, v| f.add(*v, a));
        assert_eq!(acc, (21, 3));
        assert_eq!(f.get_result(acc), 7);
        assert_eq!(f.get_result(f.create_accumulator()), 0);
    }

    #[test]
    fn reduce_functions() {
        assert_eq!(ReduceFn::Sum.reduce(3, 4), 7);
        assert_eq!(ReduceFn::Max.reduce(3, 4), 4);
        assert_eq!(ReduceFn::Min.reduce(3, 4), 3);
    }
}
