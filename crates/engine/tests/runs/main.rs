//! Whole runs: what the engine does end to end, frozen, replayed and checked for the
//! properties every run must have.
//!
//! - [`golden`]: three traces read by eye and locked byte for byte.
//! - [`snapshots`]: every lesson in three modes, the savepoint chains and seeded
//!   random pipelines, frozen byte for byte (`UPDATE_SNAPSHOTS=1` regenerates).
//! - [`lessons`]: the facts each built-in lesson tells the class.
//! - [`points`]: each lesson's declared points happen in the modes it expects them.
//! - [`world_builtins`]: every built-in runs to its end, the same twice.
//! - [`world_properties`]: invariants of the World over many seeds.
//! - [`drill`]: the interview drill's exercises over many variants, against independent facts.
//! - [`drill_delivery`]: the checkpoint and delivery exercises against other engine outputs.
//! - [`drill_reasons`]: the reasons, questions and blanks of every exercise are worded.
//! - [`drill_restart`]: the exponential-delay restart exercise against Flink's formula.
//! - [`drill_state`]: the state chapter's and savepoints' exercises, and the reasons
//!   they give, against independent facts.
//! - [`exactly_once`]: the exactly-once oracle under crashes.
//! - [`timeline`]: seeking lands on the state a replay reaches.
//! - [`views`]: what the page draws a lesson's point from (state, rewinds, replays,
//!   overtaken records, barrier handling, verdicts).

#[path = "../common/mod.rs"]
mod common;

mod drill;
mod drill_delivery;
mod drill_reasons;
mod drill_restart;
mod drill_state;
mod exactly_once;
mod golden;
mod lessons;
mod points;
mod snapshots;
mod timeline;
mod views;
mod world_builtins;
mod world_properties;
