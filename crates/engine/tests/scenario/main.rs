//! The scenario document (contract v1): reading, checking and generating input.
//!
//! - [`scenario_parse`]: the contract's example, defaults, round trips, unknown
//!   fields rejected everywhere.
//! - [`scenario_validate`]: every rejection, with the JSON path it blames, and the
//!   warnings for what Flink adjusts silently.
//! - [`scenario_fuzz`]: garbage in, errors out — never a panic.
//! - [`scenario_generate`]: the seeded input generator.

mod scenario_fuzz;
mod scenario_generate;
mod scenario_parse;
mod scenario_validate;
