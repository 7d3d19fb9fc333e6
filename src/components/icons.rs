//! Inline SVG icons, drawn on a 24-unit grid in `currentColor` so they follow the
//! text colour (and its contrast). Decorative: each is `aria-hidden`, and the
//! control around it carries the accessible name.

use yew::prelude::*;

fn icon(class: &'static str, body: Html) -> Html {
    html! {
        <svg class={classes!("icon", class)} viewBox="0 0 24 24" width="24" height="24"
             aria-hidden="true" focusable="false" fill="none" stroke="currentColor"
             stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
            { body }
        </svg>
    }
}

/// The lab's mark (also `assets/favicon.svg`): two records on a channel, split by a
/// barrier; the newer epoch (left) trails the older one (right).
pub fn logo() -> Html {
    html! {
        <svg class="logo" viewBox="0 0 32 32" width="44" height="44" aria-hidden="true" focusable="false">
            <rect width="32" height="32" rx="7" fill="var(--logo-bg)" />
            <line x1="4" y1="16" x2="28" y2="16" stroke="var(--logo-line)" stroke-width="1.5" />
            <rect x="5.5" y="12.5" width="7" height="7" rx="1.2" fill="var(--epoch-1)" />
            <rect x="14.5" y="7" width="3" height="18" rx="1" fill="var(--logo-barrier)" />
            <rect x="19.5" y="12.5" width="7" height="7" rx="1.2" fill="var(--epoch-0)" />
        </svg>
    }
}

pub fn play() -> Html {
    icon(
        "icon--play",
        html! {
            <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
        },
    )
}

pub fn step_back() -> Html {
    icon(
        "icon--step-back",
        html! {
            <>
                <path d="M6 6v12" />
                <path d="M18 6.5v11L10 12z" fill="currentColor" />
            </>
        },
    )
}

pub fn step_forward() -> Html {
    icon(
        "icon--step-forward",
        html! {
            <>
                <path d="M18 6v12" />
                <path d="M6 6.5v11L14 12z" fill="currentColor" />
            </>
        },
    )
}

/// The checkpoint coordinator: a hub that triggers every task.
pub fn coordinator() -> Html {
    icon(
        "icon--coordinator",
        html! {
            <>
                <circle cx="12" cy="12" r="3" />
                <circle cx="4.5" cy="5" r="1.8" />
                <circle cx="19.5" cy="5" r="1.8" />
                <circle cx="12" cy="20.5" r="1.8" />
                <path d="M9.8 9.9 5.9 6.3M14.2 9.9l3.9-3.6M12 15v3.7" />
            </>
        },
    )
}

/// Checkpoint storage: a database cylinder.
pub fn storage() -> Html {
    icon(
        "icon--storage",
        html! {
            <>
                <ellipse cx="12" cy="5.5" rx="7.5" ry="2.8" />
                <path d="M4.5 5.5v13c0 1.5 3.4 2.8 7.5 2.8s7.5-1.3 7.5-2.8v-13" />
                <path d="M4.5 12c0 1.5 3.4 2.8 7.5 2.8s7.5-1.3 7.5-2.8" />
            </>
        },
    )
}

/// The sink: output landing in a tray.
pub fn sink() -> Html {
    icon(
        "icon--sink",
        html! {
            <>
                <path d="M12 3v11" />
                <path d="m7.5 9.5 4.5 4.5 4.5-4.5" />
                <path d="M4 14.5V19a1.5 1.5 0 0 0 1.5 1.5h13A1.5 1.5 0 0 0 20 19v-4.5" />
            </>
        },
    )
}

/// Narration: a speech bubble with lines of text.
pub fn narration() -> Html {
    icon(
        "icon--narration",
        html! {
            <>
                <path d="M4 5.5A1.5 1.5 0 0 1 5.5 4h13A1.5 1.5 0 0 1 20 5.5v9a1.5 1.5 0 0 1-1.5 1.5H10l-4.5 4v-4h0A1.5 1.5 0 0 1 4 14.5z" />
                <path d="M8 8.5h8M8 12h5" />
            </>
        },
    )
}

/// The barrier bench: two input channels meeting a barrier bar.
/// `</>`: source code (the Flink code tab).
pub fn code() -> Html {
    icon(
        "icon--code",
        html! {
            <>
                <path d="M8 7l-5 5 5 5M16 7l5 5-5 5" />
                <path d="M14 4l-4 16" />
            </>
        },
    )
}

pub fn bench() -> Html {
    icon(
        "icon--bench",
        html! {
            <>
                <path d="M3 7h9M3 17h9M12 7l4 5-4 5" />
                <path d="M18 4v16" />
            </>
        },
    )
}

pub fn pause() -> Html {
    icon(
        "icon--pause",
        html! {
            <>
                <rect x="6.5" y="5.5" width="3.5" height="13" rx="0.8" fill="currentColor" stroke="none" />
                <rect x="14" y="5.5" width="3.5" height="13" rx="0.8" fill="currentColor" stroke="none" />
            </>
        },
    )
}

/// Run again: a circular arrow.
pub fn restart() -> Html {
    icon(
        "icon--restart",
        html! {
            <>
                <path d="M20 12a8 8 0 1 1-2.4-5.7" />
                <path d="M20 4v5h-5" />
            </>
        },
    )
}

/// Fullscreen: four corners pointing out.
pub fn fullscreen() -> Html {
    icon(
        "icon--fullscreen",
        html! {
            <>
                <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
            </>
        },
    )
}

/// The menu of tools a lesson rarely needs: three dots.
pub fn more() -> Html {
    icon(
        "icon--more",
        html! {
            <>
                <circle cx="5" cy="12" r="1.6" fill="currentColor" stroke="none" />
                <circle cx="12" cy="12" r="1.6" fill="currentColor" stroke="none" />
                <circle cx="19" cy="12" r="1.6" fill="currentColor" stroke="none" />
            </>
        },
    )
}

/// Close a panel: a cross.
pub fn close() -> Html {
    icon(
        "icon--close",
        html! {
            <>
                <path d="M6 6l12 12M18 6 6 18" />
            </>
        },
    )
}
