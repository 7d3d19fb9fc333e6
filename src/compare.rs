//! The lesson extras that sit beside the stage rather than on it:
//! a chart built for each lesson pair and for the twin view's aligned vs
//! unaligned comparison.
//!
//! # Layout
//! - [`model`]: what each chart shows, read from engine views (pure, tested natively).
//! - [`chart`]: the SVG charts (no chart library), each with a text alternative,
//!   shown under the twin stages in the caption bar.

pub mod chart;
pub mod model;

pub use chart::{ChartToggle, CompareChart};
