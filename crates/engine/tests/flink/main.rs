//! The Flink export (`lab export flink`) and the lab against real Apache Flink 2.3.
//!
//! - [`export`]: the Java text of every built-in (config lines, graph, data, crash
//!   and savepoint placement, hooks behind `--observe`, zh/en), refusals naming
//!   the field, the `lab export` command line, the recorded real statistics.
//! - [`differential`]: the lessons and the probes exported, run on a local
//!   MiniCluster and compared with the lab. These tests are `#[ignore]`d (they
//!   need Java and Flink's jars); `scripts/test.sh` runs them as a step of their
//!   own with `-- --ignored`, and they fail, never skip, when Java is missing.

mod differential;
mod export;
