//! Teaching with two windows: the lecturer's laptop shows the presenter window
//! (the tour step with its question *and* answer, the next step, the lesson's
//! teaching notes, the time, the transport and a small live stage); the window
//! on the projector shows the clean stage (no tour card, no answers, a small
//! step counter). `P` or the top bar's button opens the presenter window as a
//! second window of the same page (`?view=presenter`); the two stay in step
//! both ways over a `BroadcastChannel` ([`sync`]), and closing the presenter
//! window gives the projector's window back its normal page.
//!
//! - [`channel`]: the messages and the channel.
//! - [`sync`]: the hook that keeps the windows in step.
//! - [`view`]: the presenter window.
//! - [`projector`]: what the projector's window hides and its step counter.
//! - [`notes`]: the presenter's wording and every lesson's teaching notes (data
//!   the page fetches).
//! - [`plan`], [`plan_view`]: class plans — lessons in order with their tour
//!   steps and minutes, ready-made or the lecturer's own, as a file or a link.

pub mod channel;
pub mod notes;
pub mod plan;
pub mod plan_view;
pub mod projector;
pub mod sync;
pub mod view;

/// The query parameter and value that make a window the presenter window.
pub const VIEW: (&str, &str) = ("view", "presenter");
/// The presenter window's name: pressing `P` again brings the same window back
/// instead of opening another.
const WINDOW_NAME: &str = "checkpoint-lab-presenter";

/// Whether this window is the presenter window.
pub fn is_presenter_window() -> bool {
    crate::document::query_param(VIEW.0).as_deref() == Some(VIEW.1)
}

/// The presenter window's address for the page at `href`: the same page and
/// language with `view=presenter`, without a share link's fragment (the windows
/// agree on the moment over the channel).
pub fn presenter_url(href: &str) -> String {
    let page = href.split('#').next().unwrap_or(href);
    let (base, query) = page.split_once('?').unwrap_or((page, ""));
    let mut params: Vec<&str> = query
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with(&format!("{}=", VIEW.0)))
        .collect();
    let view = format!("{}={}", VIEW.0, VIEW.1);
    params.push(&view);
    format!("{base}?{}", params.join("&"))
}

/// Opens (or brings back) the presenter window; this window becomes the
/// projector's view once it says hello.
pub fn open_presenter_window() {
    let Some(window) = web_sys::window() else {
        return;
    };
    if is_presenter_window() {
        return;
    }
    let Ok(href) = window.location().href() else {
        return;
    };
    let _ = window.open_with_url_and_target_and_features(
        &presenter_url(&href),
        WINDOW_NAME,
        "popup,width=1280,height=800",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_presenter_window_is_the_same_page_with_view_presenter() {
        assert_eq!(
            presenter_url("http://h/lab/?lang=en&scenario=pv-count#lab=1.xyz"),
            "http://h/lab/?lang=en&scenario=pv-count&view=presenter"
        );
        assert_eq!(presenter_url("http://h/"), "http://h/?view=presenter");
        assert_eq!(
            presenter_url("http://h/?view=presenter&lang=zh"),
            "http://h/?lang=zh&view=presenter"
        );
    }
}
