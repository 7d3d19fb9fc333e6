//! Hooks the components share. They sit below every component: a leaf reads the
//! language with [`use_lang`] from here, never from the root `app.rs`.
//!
//! # Layout
//! - [`lang`]: the interface language and how to change it ([`LangContext`], [`use_lang`]).
//! - [`frame_loop`]: the request-animation-frame loop that drives playback ([`use_frame_loop`]).
//! - [`lessons`]: the lesson tools' state (tour, glossary, editor, share, import) ([`use_lessons`]).

pub mod frame_loop;
pub mod lang;
pub mod lessons;

pub use frame_loop::use_frame_loop;
pub use lang::{use_lang, LangContext};
pub use lessons::{use_lessons, Lessons};
