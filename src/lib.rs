//! checkpoint-lab's web page: Apache Flink's checkpointing, animated for a classroom.
//!
//! # Layout
//! - [`app`]: the root component [`App`]: the page's layout wiring its runs (main and twin, one dispatch path), the keyboard and the display choices.
//! - [`hooks`]: the language context and the animation frame loop, below every component.
//! - [`components`]: the page's regions (masthead, toolbar, stage, side panel) and small parts.
//! - [`labels`]: the words for enums (mode, status, intervention, failure), pure.
//! - [`i18n`]: languages, language detection, and lookup of the wording in `assets/i18n/ui.json`.
//! - [`document`]: the browser page outside the app root (`?lang=`, `<html lang>`, title).
//! - [`panic`]: the panic hook that shows a bilingual error banner instead of a dead page.
//! - [`playback`]: the reducer that owns the simulation (timeline, cursor, speed, interventions).
//! - [`scene`]: pure layout and interpolation of the job graph (unit-tested natively).
//! - [`compare`]: the lesson pairs' and the twin view's comparison charts (SVG from engine views).
//! - [`lessons`]: guided tours, the glossary, import/export (the teaching aids).
//! - [`drill`]: the interview drill (面试题): the notes' questions with moments, model answers, callouts, and exercises the engine answers on fresh variants.
//! - [`presenter`]: teaching with two windows: the presenter window (answers, notes, time) in step with the projector's clean stage.
//! - [`share`]: share links — the run recipe in the URL fragment.
//! - [`classroom`]: a live class's messages (the lecturer's moment as a share link, the votes), pure.
//! - [`barrier_bench`]: the barrier bench's form, run and per-line channel pictures (pure).
//! - [`describe`]: narration sentences (`assets/i18n/narration.json`) and the storage one-liners.
//! - [`flink_code`]: the run on stage as `lab export flink` writes it, for the Flink code tab (pure).
//! - `first_frame` (native only): the page's first frame, the default lesson's graph at t = 0 rendered at build time into `index.html`.
//! - [`flink_stats`]: real checkpoint statistics (Flink's REST API, `flink.sh --stats`) and the lab's history in the same rows (pure).
//!
//! The wasm binary (`src/main.rs`) installs the panic hook and renders [`App`] into
//! `#app`; browser tests in `tests/` mount [`App`] into a fresh element instead.

pub mod app;
pub mod barrier_bench;
pub mod classroom;
pub mod compare;
pub mod components;
pub mod data;
pub mod describe;
pub mod document;
pub mod drill;
pub mod engine_speed;
#[cfg(not(target_arch = "wasm32"))]
pub mod first_frame;
pub mod flink_code;
pub mod flink_stats;
pub mod hooks;
pub mod i18n;
pub mod labels;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod layering;
pub mod lessons;
pub mod panic;
pub mod playback;
pub mod presenter;
pub mod scene;
pub mod share;

pub use app::{App, Lab};
