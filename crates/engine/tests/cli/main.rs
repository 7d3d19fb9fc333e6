//! The `lab` command line, run as a user runs it (the built binary).
//!
//! - [`lab_cli`]: exit codes, messages on stderr, one JSON object per line, the
//!   contract's field names.
//! - [`lab_barrier_queues`]: `lab barriers` with queued remote data and announcements.

mod lab_barrier_queues;
mod lab_cli;
