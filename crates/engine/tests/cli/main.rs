//! The `lab` command line, run as a user runs it (the built binary).
//!
//! - [`lab_cli`]: exit codes, messages on stderr, one JSON object per line, the
//!   contract's field names.

mod lab_cli;
