//! Hooks the components share. They sit below every component: a leaf reads the
//! language with [`use_lang`] from here, never from the root `app.rs`.
//!
//! # Layout
//! - [`lang`]: the interface language and how to change it ([`LangContext`], [`use_lang`]).
//! - [`frame_loop`]: the request-animation-frame loop that drives playback ([`use_frame_loop`]).
//! - [`lessons`]: the lesson tools' state (tour, glossary, editor, share, import) ([`use_lessons`]).
//! - [`resize`]: an element's laid-out size from a `ResizeObserver` ([`use_resize_observer`]).
//! - [`motion`]: the viewer's reduced-motion preference ([`use_reduced_motion`]).
//! - [`touch`]: whether the viewer works the page with a finger ([`use_touch`]).

pub mod frame_loop;
pub mod lang;
pub mod lessons;
pub mod motion;
pub mod resize;
pub mod touch;

pub use frame_loop::use_frame_loop;
pub use lang::{use_lang, LangContext};
pub use lessons::{use_lessons, Lessons};
pub use motion::use_reduced_motion;
pub use resize::use_resize_observer;
pub use touch::use_touch;
