//! Teaching aids around the simulation: guided tours, the glossary, share links,
//! and importing, exporting and editing scenarios.
//!
//! # Layout
//! - [`tour`]: the tour data (`assets/tours/*.json`) and where each step goes (pure).
//! - [`glossary`]: the zh/en glossary of Flink terms (`assets/glossary.json`, pure).
//! - [`editor`]: the form editor's fields and edits of a scenario document (pure).
//! - [`form`]: the form editor component.
//! - [`notes`]: "the notes say … — Flink does …" callouts in tour steps and glossary entries (pure).
//! - [`pair`]: lesson pairs for the twin view and the difference in their committed output (pure).
//! - [`wording`]: the lesson tools' interface wording (`assets/i18n/lessons.json`, pure).
//! - [`bar`]: the components: tour and compare buttons, the menu's items, the tour
//!   card, the glossary, notices, the lesson pair's difference (state: [`crate::hooks::lessons`]).
//!
//! Every text a learner reads is in a data file under `assets/` (fetched by the
//! page, `src/data.rs`; compiled in for native code and the tests), so a teacher
//! corrects a sentence without touching Rust.

pub mod bar;
pub mod editor;
pub mod form;
pub mod glossary;
pub mod notes;
pub mod pair;
pub mod rules;
pub mod sources;
pub mod tour;
pub mod wording;

pub use bar::{Glossary, LessonActions, LessonMenuItems, LessonNotices, PairDiff, TourCard};
