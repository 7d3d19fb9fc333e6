//! Reduced motion: whether the viewer asked the system for less movement. The
//! stage then shows the cursor's moment without animating towards it, and state
//! values do not travel (the stylesheet also leaves its flashes out).

use yew::prelude::*;

/// Whether the viewer prefers reduced motion, read once when the component
/// mounts (see [`crate::document::prefers_reduced_motion`]).
#[hook]
pub fn use_reduced_motion() -> bool {
    *use_state(crate::document::prefers_reduced_motion)
}
